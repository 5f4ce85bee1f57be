//! When lichess may be asked something, by its rules for clients: one
//! request at a time, a full minute of silence after an HTTP 429, and
//! streams that reconnect after a growing pause (0.5 s, doubled each
//! failure, capped at 10 s).  Sans-IO: the caller gives `now` and carries
//! out what comes back; the times are tested on a virtual clock.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// The wait after a 429, as lichess asks.
pub const RATE_LIMIT_WAIT: Duration = Duration::from_secs(60);
/// The first pause before a stream reconnects.
pub const BACKOFF_FIRST: Duration = Duration::from_millis(500);
/// The longest pause before a stream reconnects.
pub const BACKOFF_CAP: Duration = Duration::from_secs(10);
/// How long the link may be down before the player is told.
pub const OFFLINE_AFTER: Duration = Duration::from_secs(5);

/// How a request ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Done (2xx), or refused for a reason of its own (4xx but 429): the
    /// next request may go.
    Answered,
    /// HTTP 429: nothing goes out for a minute.
    RateLimited,
    /// No answer (network down, 5xx): tried again after the backoff.
    Failed,
}

/// What the player is told from the scheduler.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notice {
    /// lichess asked us to slow down: requests wait a minute.
    RateLimited,
}

/// Requests waiting their turn, one in flight at most.
#[derive(Debug, Clone)]
pub struct Scheduler<R> {
    queue: VecDeque<R>,
    in_flight: Option<R>,
    not_before: Option<Instant>,
    backoff: Backoff,
}

impl<R: Clone> Default for Scheduler<R> {
    fn default() -> Self {
        Self::new()
    }
}

impl<R: Clone> Scheduler<R> {
    /// Nothing queued.
    #[must_use]
    pub fn new() -> Self {
        Self {
            queue: VecDeque::new(),
            in_flight: None,
            not_before: None,
            backoff: Backoff::default(),
        }
    }

    /// Queues a request (sent in order, after those before it).
    pub fn push(&mut self, request: R) {
        self.queue.push_back(request);
    }

    /// The request to send now, if one may go: none in flight, and no
    /// wait running.
    pub fn next(&mut self, now: Instant) -> Option<R> {
        if self.in_flight.is_some() || self.not_before.is_some_and(|t| now < t) {
            return None;
        }
        self.not_before = None;
        let r = self.queue.pop_front()?;
        self.in_flight = Some(r.clone());
        Some(r)
    }

    /// The request in flight ended.  A failed one goes back to the front
    /// of the queue, tried again after the backoff; after a 429 every
    /// request waits [`RATE_LIMIT_WAIT`].
    pub fn done(&mut self, outcome: Outcome, now: Instant) -> Option<Notice> {
        let r = self.in_flight.take();
        match outcome {
            Outcome::Answered => {
                self.backoff.reset();
                None
            }
            Outcome::RateLimited => {
                if let Some(r) = r {
                    self.queue.push_front(r);
                }
                self.not_before = Some(now + RATE_LIMIT_WAIT);
                Some(Notice::RateLimited)
            }
            Outcome::Failed => {
                if let Some(r) = r {
                    self.queue.push_front(r);
                }
                self.not_before = Some(now + self.backoff.fail());
                None
            }
        }
    }

    /// When [`Scheduler::next`] may give something that it cannot now.
    #[must_use]
    pub fn deadline(&self) -> Option<Instant> {
        if self.in_flight.is_some() || self.queue.is_empty() {
            None
        } else {
            self.not_before
        }
    }

    /// Requests waiting (not the one in flight).
    #[cfg(test)]
    #[must_use]
    pub fn waiting(&self) -> usize {
        self.queue.len()
    }
}

/// The growing pause between attempts: 0.5 s, 1 s, 2 s, … capped at 10 s;
/// back to 0.5 s after a success.
#[derive(Debug, Clone, Default)]
pub struct Backoff {
    failures: u32,
}

impl Backoff {
    /// One more failure: the pause before the next attempt.
    pub fn fail(&mut self) -> Duration {
        let pause = BACKOFF_FIRST
            .saturating_mul(1u32 << self.failures.min(8))
            .min(BACKOFF_CAP);
        self.failures = self.failures.saturating_add(1);
        pause
    }

    /// A success: the next failure starts from the first pause again.
    pub fn reset(&mut self) {
        self.failures = 0;
    }
}

/// Whether the player has been told the link is down: told once after
/// [`OFFLINE_AFTER`], and told once it is back.
#[derive(Debug, Clone, Default)]
pub struct Link {
    down_since: Option<Instant>,
    told: bool,
}

/// What to tell the player about the link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkNotice {
    /// The link to lichess has been down for a while.
    Offline,
    /// It is back (only after [`LinkNotice::Offline`]).
    Back,
}

impl Link {
    /// The stream dropped (or could not open).
    pub fn down(&mut self, now: Instant) {
        self.down_since.get_or_insert(now);
    }

    /// The stream is open again.
    pub fn up(&mut self) -> Option<LinkNotice> {
        self.down_since = None;
        std::mem::take(&mut self.told).then_some(LinkNotice::Back)
    }

    /// Time passed: whether to say the link is down now.
    pub fn tick(&mut self, now: Instant) -> Option<LinkNotice> {
        let since = self.down_since?;
        if !self.told && now.duration_since(since) >= OFFLINE_AFTER {
            self.told = true;
            return Some(LinkNotice::Offline);
        }
        None
    }

    /// When [`Link::tick`] should next be called.
    #[must_use]
    pub fn deadline(&self) -> Option<Instant> {
        match (self.down_since, self.told) {
            (Some(since), false) => Some(since + OFFLINE_AFTER),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn one_request_at_a_time_in_order() {
        let t0 = Instant::now();
        let mut s = Scheduler::new();
        s.push("move e2e4");
        s.push("offer draw");
        assert_eq!(s.next(t0), Some("move e2e4"));
        assert_eq!(s.next(t0), None, "one in flight");
        assert_eq!(s.deadline(), None);
        assert_eq!(s.done(Outcome::Answered, t0), None);
        assert_eq!(s.next(t0), Some("offer draw"));
        s.done(Outcome::Answered, t0);
        assert_eq!(s.next(t0), None);
        assert_eq!(s.waiting(), 0);
    }

    #[test]
    fn a_429_waits_a_full_minute_and_says_so() {
        let t0 = Instant::now();
        let mut s = Scheduler::new();
        s.push(1);
        s.push(2);
        assert_eq!(s.next(t0), Some(1));
        assert_eq!(s.done(Outcome::RateLimited, t0), Some(Notice::RateLimited));
        assert_eq!(s.deadline(), Some(t0 + RATE_LIMIT_WAIT));
        assert_eq!(s.next(t0 + Duration::from_secs(59)), None);
        assert_eq!(s.next(t0 + ms(59_999)), None);
        // The refused request goes first when the minute is over.
        assert_eq!(s.next(t0 + RATE_LIMIT_WAIT), Some(1));
        s.done(Outcome::Answered, t0 + RATE_LIMIT_WAIT);
        assert_eq!(s.next(t0 + RATE_LIMIT_WAIT), Some(2));
    }

    #[test]
    fn a_failed_request_is_retried_after_the_backoff() {
        let t0 = Instant::now();
        let mut s = Scheduler::new();
        s.push("x");
        s.next(t0);
        assert_eq!(s.done(Outcome::Failed, t0), None);
        assert_eq!(s.next(t0 + ms(499)), None);
        assert_eq!(s.next(t0 + ms(500)), Some("x"));
        s.done(Outcome::Failed, t0 + ms(500));
        assert_eq!(s.deadline(), Some(t0 + ms(1500)));
        assert_eq!(s.next(t0 + ms(1500)), Some("x"));
        s.done(Outcome::Answered, t0 + ms(1500));
        s.push("y");
        s.next(t0 + ms(1500));
        s.done(Outcome::Failed, t0 + ms(2000));
        assert_eq!(
            s.deadline(),
            Some(t0 + ms(2500)),
            "backoff reset by success"
        );
    }

    #[test]
    fn backoff_doubles_from_half_a_second_to_ten_seconds() {
        let mut b = Backoff::default();
        let pauses: Vec<u64> = (0..9).map(|_| b.fail().as_millis() as u64).collect();
        assert_eq!(
            pauses,
            [500, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000, 10_000]
        );
        for _ in 0..100 {
            assert_eq!(b.fail(), BACKOFF_CAP);
        }
        b.reset();
        assert_eq!(b.fail(), BACKOFF_FIRST);
    }

    #[test]
    fn offline_is_said_once_after_five_seconds_and_back_once() {
        let t0 = Instant::now();
        let mut l = Link::default();
        assert_eq!(l.tick(t0), None);
        assert_eq!(l.up(), None, "never told: nothing to say");
        l.down(t0);
        l.down(t0 + ms(3000)); // a second failure does not restart the wait
        assert_eq!(l.deadline(), Some(t0 + OFFLINE_AFTER));
        assert_eq!(l.tick(t0 + ms(4999)), None);
        assert_eq!(l.tick(t0 + ms(5000)), Some(LinkNotice::Offline));
        assert_eq!(l.tick(t0 + ms(9000)), None);
        assert_eq!(l.deadline(), None);
        assert_eq!(l.up(), Some(LinkNotice::Back));
        assert_eq!(l.up(), None);
        // A short drop is not said at all.
        l.down(t0 + ms(10_000));
        assert_eq!(l.tick(t0 + ms(11_000)), None);
        assert_eq!(l.up(), None);
    }
}
