//! The speech scheduler: which sentence to speak next, what to cut off, what to
//! collapse.  Pure: no threads, no I/O; the caller passes the time in.
//!
//! Rules (see ANNOUNCEMENTS.md, "Priorities"):
//! - A sentence of higher priority interrupts a lower one that is being spoken;
//!   the interrupted sentence is dropped, not resumed.
//! - An [`Priority::Urgent`] sentence is never interrupted and never dropped by
//!   the scheduler (only the player's own "silence" command cuts it off).
//! - A clock sentence never interrupts a move sentence: it waits.
//! - Sentences that do not interrupt wait in order; the highest priority waiting
//!   is spoken next, in arrival order within a priority.
//! - A collapsible kind ([`collapses`]) keeps only its newest waiting sentence;
//!   moves never collapse.  Waiting sentences of a collapsible kind that are not
//!   urgent go stale after [`QueuePolicy::stale_after`] and are dropped.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use super::{Priority, SayKind, Utterance};

/// What the speech backend must do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpeechOrder {
    /// Start speaking this sentence (nothing else is being spoken).
    Speak(Utterance),
    /// Stop the sentence being spoken.
    Stop,
}

/// Tunables of the scheduler.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueuePolicy {
    /// A waiting, non-urgent sentence of a collapsible kind older than this is
    /// dropped instead of spoken (an old clock reading is worse than none).
    pub stale_after: Duration,
}

impl Default for QueuePolicy {
    fn default() -> Self {
        QueuePolicy {
            stale_after: Duration::from_secs(10),
        }
    }
}

/// Whether waiting sentences of this kind are superseded by a newer one of the
/// same kind.  Moves, game events and errors are never collapsed.
pub fn collapses(kind: SayKind) -> bool {
    match kind {
        SayKind::Clock | SayKind::Info | SayKind::Mismatch | SayKind::Board => true,
        SayKind::Move | SayKind::Error | SayKind::Game => false,
    }
}

#[derive(Debug, Clone)]
struct Waiting {
    utterance: Utterance,
    since: Instant,
}

/// The scheduler.  Feed it every sentence with [`push`](Self::push), tell it
/// when the backend finished with [`finished`](Self::finished), and carry out
/// the returned [`SpeechOrder`]s in order.
#[derive(Debug, Clone, Default)]
pub struct SpeechQueue {
    policy: QueuePolicy,
    current: Option<Utterance>,
    waiting: VecDeque<Waiting>,
}

impl SpeechQueue {
    /// An idle scheduler.
    pub fn new(policy: QueuePolicy) -> Self {
        SpeechQueue {
            policy,
            current: None,
            waiting: VecDeque::new(),
        }
    }

    /// The sentence being spoken, if any.
    #[cfg(test)]
    pub fn current(&self) -> Option<&Utterance> {
        self.current.as_ref()
    }

    /// The sentences waiting, in arrival order.
    #[cfg(test)]
    pub fn waiting(&self) -> impl Iterator<Item = &Utterance> {
        self.waiting.iter().map(|w| &w.utterance)
    }

    /// Nothing spoken and nothing waiting.
    pub fn is_idle(&self) -> bool {
        self.current.is_none() && self.waiting.is_empty()
    }

    /// A new sentence arrives.
    #[must_use]
    pub fn push(&mut self, utterance: Utterance, now: Instant) -> Vec<SpeechOrder> {
        let Some(current) = &self.current else {
            self.current = Some(utterance.clone());
            return vec![SpeechOrder::Speak(utterance)];
        };
        if interrupts(&utterance, current) {
            self.current = Some(utterance.clone());
            return vec![SpeechOrder::Stop, SpeechOrder::Speak(utterance)];
        }
        if collapses(utterance.kind) {
            self.waiting.retain(|w| w.utterance.kind != utterance.kind);
        }
        self.waiting.push_back(Waiting {
            utterance,
            since: now,
        });
        Vec::new()
    }

    /// The backend finished (or abandoned) the current sentence: start the next.
    #[must_use]
    pub fn finished(&mut self, now: Instant) -> Vec<SpeechOrder> {
        self.current = None;
        self.start_next(now)
    }

    /// The player silences speech: the current sentence stops, waiting
    /// sentences that are not urgent are dropped; waiting urgent ones are then
    /// spoken (an opponent's move is never lost).
    #[must_use]
    pub fn silence(&mut self, now: Instant) -> Vec<SpeechOrder> {
        self.waiting
            .retain(|w| w.utterance.priority == Priority::Urgent);
        let mut actions = Vec::new();
        if self.current.take().is_some() {
            actions.push(SpeechOrder::Stop);
        }
        actions.extend(self.start_next(now));
        actions
    }

    /// Forget everything (the backend went away); returns what was being
    /// spoken and what was waiting, in that order, so the caller can print it.
    pub fn drain(&mut self) -> Vec<Utterance> {
        let mut all: Vec<Utterance> = self.current.take().into_iter().collect();
        all.extend(self.waiting.drain(..).map(|w| w.utterance));
        all
    }

    fn start_next(&mut self, now: Instant) -> Vec<SpeechOrder> {
        let stale_after = self.policy.stale_after;
        self.waiting.retain(|w| {
            w.utterance.priority == Priority::Urgent
                || !collapses(w.utterance.kind)
                || now.saturating_duration_since(w.since) <= stale_after
        });
        let best = self
            .waiting
            .iter()
            .enumerate()
            // max_by_key returns the last maximum; reverse the index so the
            // earliest of the highest priority wins.
            .max_by_key(|(i, w)| (w.utterance.priority, std::cmp::Reverse(*i)))
            .map(|(i, _)| i);
        match best.and_then(|i| self.waiting.remove(i)) {
            Some(next) => {
                self.current = Some(next.utterance.clone());
                vec![SpeechOrder::Speak(next.utterance)]
            }
            None => Vec::new(),
        }
    }
}

/// Whether `new` cuts off `current`.
fn interrupts(new: &Utterance, current: &Utterance) -> bool {
    current.priority != Priority::Urgent
        && new.priority > current.priority
        && !(new.kind == SayKind::Clock && current.kind == SayKind::Move)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(text: &str, priority: Priority, kind: SayKind) -> Utterance {
        Utterance::new(text, "de", priority, kind)
    }

    fn speak(text: &str, priority: Priority, kind: SayKind) -> SpeechOrder {
        SpeechOrder::Speak(u(text, priority, kind))
    }

    fn texts(q: &SpeechQueue) -> Vec<&str> {
        q.waiting().map(|w| w.text.as_str()).collect()
    }

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn idle_queue_speaks_at_once() {
        let t = Instant::now();
        let mut q = SpeechQueue::default();
        let a = q.push(u("Springer Felix drei", Priority::Urgent, SayKind::Move), t);
        assert_eq!(
            a,
            vec![speak(
                "Springer Felix drei",
                Priority::Urgent,
                SayKind::Move
            )]
        );
        assert_eq!(
            q.current().map(|c| c.text.as_str()),
            Some("Springer Felix drei")
        );
        assert!(!q.is_idle());
    }

    #[test]
    fn urgent_interrupts_info_and_the_info_is_dropped() {
        let t = Instant::now();
        let mut q = SpeechQueue::default();
        let _ = q.push(u("help", Priority::Info, SayKind::Info), t);
        let a = q.push(u("Bauer Eva vier", Priority::Urgent, SayKind::Move), t + MS);
        assert_eq!(
            a,
            vec![
                SpeechOrder::Stop,
                speak("Bauer Eva vier", Priority::Urgent, SayKind::Move)
            ]
        );
        assert!(q.finished(t + 2 * MS).is_empty(), "the help is not resumed");
        assert!(q.is_idle());
    }

    #[test]
    fn urgent_interrupts_normal_clock_message() {
        let t = Instant::now();
        let mut q = SpeechQueue::default();
        let _ = q.push(u("5 minutes", Priority::Normal, SayKind::Clock), t);
        let a = q.push(u("mismatch", Priority::Urgent, SayKind::Mismatch), t);
        assert_eq!(a[0], SpeechOrder::Stop);
    }

    #[test]
    fn urgent_is_never_interrupted_by_anything() {
        let t = Instant::now();
        let mut q = SpeechQueue::default();
        let _ = q.push(u("Dame David acht", Priority::Urgent, SayKind::Move), t);
        assert!(
            q.push(u("flag", Priority::Urgent, SayKind::Game), t)
                .is_empty()
        );
        assert!(
            q.push(u("error", Priority::Normal, SayKind::Error), t)
                .is_empty()
        );
        assert!(
            q.push(u("help", Priority::Info, SayKind::Info), t)
                .is_empty()
        );
        assert_eq!(
            q.current().map(|c| c.text.as_str()),
            Some("Dame David acht")
        );
        assert_eq!(texts(&q), ["flag", "error", "help"]);
    }

    #[test]
    fn equal_priority_waits_in_order() {
        let t = Instant::now();
        let mut q = SpeechQueue::default();
        let _ = q.push(u("e4", Priority::Urgent, SayKind::Move), t);
        let _ = q.push(u("e5", Priority::Urgent, SayKind::Move), t);
        let _ = q.push(u("f4", Priority::Urgent, SayKind::Move), t);
        assert_eq!(
            q.finished(t),
            vec![speak("e5", Priority::Urgent, SayKind::Move)]
        );
        assert_eq!(
            q.finished(t),
            vec![speak("f4", Priority::Urgent, SayKind::Move)]
        );
        assert!(q.finished(t).is_empty());
    }

    #[test]
    fn moves_never_collapse() {
        let t = Instant::now();
        let mut q = SpeechQueue::default();
        let _ = q.push(u("first", Priority::Urgent, SayKind::Move), t);
        for m in ["a", "b", "c"] {
            let _ = q.push(u(m, Priority::Urgent, SayKind::Move), t);
        }
        assert_eq!(texts(&q), ["a", "b", "c"]);
    }

    #[test]
    fn lower_priority_waits_and_highest_waiting_goes_first() {
        let t = Instant::now();
        let mut q = SpeechQueue::default();
        let _ = q.push(u("move", Priority::Urgent, SayKind::Move), t);
        let _ = q.push(u("help", Priority::Info, SayKind::Info), t);
        let _ = q.push(u("error", Priority::Normal, SayKind::Error), t);
        let _ = q.push(u("flag", Priority::Urgent, SayKind::Game), t);
        let order: Vec<String> = std::iter::from_fn(|| match q.finished(t).pop() {
            Some(SpeechOrder::Speak(u)) => Some(u.text),
            _ => None,
        })
        .collect();
        assert_eq!(order, ["flag", "error", "help"]);
    }

    #[test]
    fn clock_never_interrupts_a_move() {
        let t = Instant::now();
        let mut q = SpeechQueue::default();
        // An own-move confirmation is Info/Normal, a clock threshold Normal.
        let _ = q.push(u("Turm Anna eins", Priority::Info, SayKind::Move), t);
        assert!(
            q.push(u("1 minute", Priority::Normal, SayKind::Clock), t)
                .is_empty()
        );
        assert_eq!(
            q.finished(t),
            vec![speak("1 minute", Priority::Normal, SayKind::Clock)]
        );
    }

    #[test]
    fn normal_interrupts_info_but_not_normal() {
        let t = Instant::now();
        let mut q = SpeechQueue::default();
        let _ = q.push(u("help", Priority::Info, SayKind::Info), t);
        assert_eq!(
            q.push(u("illegal", Priority::Normal, SayKind::Error), t)[0],
            SpeechOrder::Stop
        );
        assert!(
            q.push(u("illegal 2", Priority::Normal, SayKind::Error), t)
                .is_empty()
        );
    }

    #[test]
    fn stale_clock_readings_collapse_to_the_newest() {
        let t = Instant::now();
        let mut q = SpeechQueue::default();
        let _ = q.push(u("move", Priority::Urgent, SayKind::Move), t);
        let _ = q.push(u("3:00", Priority::Normal, SayKind::Clock), t);
        let _ = q.push(u("2:59", Priority::Normal, SayKind::Clock), t);
        let _ = q.push(u("2:58", Priority::Normal, SayKind::Clock), t);
        assert_eq!(texts(&q), ["2:58"]);
    }

    #[test]
    fn collapse_keeps_other_kinds_and_their_order() {
        let t = Instant::now();
        let mut q = SpeechQueue::default();
        let _ = q.push(u("move", Priority::Urgent, SayKind::Move), t);
        let _ = q.push(u("clock 1", Priority::Normal, SayKind::Clock), t);
        let _ = q.push(u("error", Priority::Normal, SayKind::Error), t);
        let _ = q.push(u("clock 2", Priority::Normal, SayKind::Clock), t);
        assert_eq!(texts(&q), ["error", "clock 2"]);
    }

    #[test]
    fn newer_mismatch_supersedes_an_older_waiting_one() {
        let t = Instant::now();
        let mut q = SpeechQueue::default();
        let _ = q.push(u("move", Priority::Urgent, SayKind::Move), t);
        let _ = q.push(u("mismatch e2", Priority::Urgent, SayKind::Mismatch), t);
        let _ = q.push(u("mismatch e2 e4", Priority::Urgent, SayKind::Mismatch), t);
        assert_eq!(texts(&q), ["mismatch e2 e4"]);
    }

    #[test]
    fn stale_non_urgent_collapsible_is_dropped_when_its_turn_comes() {
        let t = Instant::now();
        let mut q = SpeechQueue::new(QueuePolicy {
            stale_after: Duration::from_secs(5),
        });
        let _ = q.push(u("move", Priority::Urgent, SayKind::Move), t);
        let _ = q.push(u("2:00", Priority::Normal, SayKind::Clock), t);
        let _ = q.push(u("error", Priority::Normal, SayKind::Error), t);
        let a = q.finished(t + Duration::from_secs(6));
        assert_eq!(a, vec![speak("error", Priority::Normal, SayKind::Error)]);
        assert!(q.finished(t + Duration::from_secs(7)).is_empty());
    }

    #[test]
    fn fresh_collapsible_is_spoken() {
        let t = Instant::now();
        let mut q = SpeechQueue::new(QueuePolicy {
            stale_after: Duration::from_secs(5),
        });
        let _ = q.push(u("move", Priority::Urgent, SayKind::Move), t);
        let _ = q.push(u("2:00", Priority::Normal, SayKind::Clock), t);
        let a = q.finished(t + Duration::from_secs(5));
        assert_eq!(a, vec![speak("2:00", Priority::Normal, SayKind::Clock)]);
    }

    #[test]
    fn urgent_mismatch_never_goes_stale() {
        let t = Instant::now();
        let mut q = SpeechQueue::new(QueuePolicy {
            stale_after: Duration::from_secs(1),
        });
        let _ = q.push(u("move", Priority::Urgent, SayKind::Move), t);
        let _ = q.push(u("mismatch", Priority::Urgent, SayKind::Mismatch), t);
        let a = q.finished(t + Duration::from_secs(60));
        assert_eq!(
            a,
            vec![speak("mismatch", Priority::Urgent, SayKind::Mismatch)]
        );
    }

    #[test]
    fn silence_stops_current_and_drops_waiting_non_urgent() {
        let t = Instant::now();
        let mut q = SpeechQueue::default();
        let _ = q.push(u("help", Priority::Info, SayKind::Info), t);
        let _ = q.push(u("more help", Priority::Info, SayKind::Game), t);
        assert_eq!(q.silence(t), vec![SpeechOrder::Stop]);
        assert!(q.is_idle());
    }

    #[test]
    fn silence_keeps_waiting_urgent_and_speaks_it() {
        let t = Instant::now();
        let mut q = SpeechQueue::default();
        let _ = q.push(u("move 1", Priority::Urgent, SayKind::Move), t);
        let _ = q.push(u("clock", Priority::Normal, SayKind::Clock), t);
        let _ = q.push(u("move 2", Priority::Urgent, SayKind::Move), t);
        assert_eq!(
            q.silence(t),
            vec![
                SpeechOrder::Stop,
                speak("move 2", Priority::Urgent, SayKind::Move)
            ]
        );
        assert!(q.finished(t).is_empty());
    }

    #[test]
    fn silence_when_idle_does_nothing() {
        let mut q = SpeechQueue::default();
        assert!(q.silence(Instant::now()).is_empty());
    }

    #[test]
    fn drain_returns_current_then_waiting() {
        let t = Instant::now();
        let mut q = SpeechQueue::default();
        let _ = q.push(u("a", Priority::Urgent, SayKind::Move), t);
        let _ = q.push(u("b", Priority::Normal, SayKind::Error), t);
        let all: Vec<String> = q.drain().into_iter().map(|u| u.text).collect();
        assert_eq!(all, ["a", "b"]);
        assert!(q.is_idle());
    }

    #[test]
    fn which_kinds_collapse() {
        assert!(!collapses(SayKind::Move));
        assert!(!collapses(SayKind::Game));
        assert!(!collapses(SayKind::Error));
        assert!(collapses(SayKind::Clock));
        assert!(collapses(SayKind::Mismatch));
        assert!(collapses(SayKind::Info));
        assert!(collapses(SayKind::Board));
    }
}
