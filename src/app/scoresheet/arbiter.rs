//! The arbiter's decisions in the journal: an arbiter function carried
//! out after its confirmation, and penalties, each journalled with the
//! times it changed.

use std::time::{Duration, Instant};

use shakmaty::Color;

use super::super::App;
use super::millis;
use crate::command::ArbiterOp;
use crate::msg::Effect;
use crate::scoresheet::record::{Event, Penalty};

impl App {
    /// Both times now, in milliseconds, when the game has a clock.
    fn clock_times(&self, now: Instant) -> Option<(i64, i64)> {
        let c = self.clock()?;
        Some((
            millis(c.remaining(Color::White, now)),
            millis(c.remaining(Color::Black, now)),
        ))
    }

    /// A penalty given by `give` (which changes the clocks), journalled
    /// with the time it changed for each side.
    pub(in crate::app) fn penalised(
        &mut self,
        against: Color,
        reason: &str,
        note: &str,
        now: Instant,
        give: impl FnOnce(&mut App),
    ) {
        let before = self.clock_times(now);
        give(self);
        let after = self.clock_times(now);
        if let (Some((w0, b0)), Some((w1, b1))) = (before, after) {
            self.journal_event(Event::Penalty(Penalty {
                against,
                reason: reason.into(),
                white_delta_ms: w1 - w0,
                black_delta_ms: b1 - b0,
                note: note.into(),
            }));
        }
    }

    /// The answer to an arbiter's confirmation, journalled when carried
    /// out: the action before what it does, and an illegal move's time
    /// penalty (7.5) with the time it gave.
    pub(in crate::app) fn arbiter_answered(
        &mut self,
        yes: bool,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
        let op = match self.mode {
            crate::app::Mode::ArbiterPending(op) => Some(op),
            _ => None,
        };
        if !yes || op.is_none() {
            self.arbiter_answer(yes, now, out);
            return;
        }
        let Some(op) = op else {
            return;
        };
        let (action, note) = self.arbiter_words(op);
        let last = self.game.history().len();
        let was_over = self.game.is_over();
        let before = self.clock_times(now);
        self.journal_event_first(Event::Arbiter { action, note });
        self.arbiter_answer(yes, now, out);
        // Refused (no such move to take back, the game already over): the
        // arbiter's action did nothing and is not on the scoresheet.
        let done = match op {
            ArbiterOp::Illegal(_) => self.game.history().len() < last,
            ArbiterOp::Result(_) => !was_over && self.game.is_over(),
            _ => true,
        };
        if !done {
            if let Some(s) = &mut self.parts.journal.sheet {
                s.first.pop();
            }
            return;
        }
        if let ArbiterOp::Illegal(s) = op
            && self.game.history().len() < last
        {
            let offender = self.side_colour(s);
            let after = self.clock_times(now);
            let (w, b) = match (before, after) {
                (Some((w0, b0)), Some((w1, b1))) => (w1 - w0, b1 - b0),
                _ => (0, 0),
            };
            self.journal_event(Event::Penalty(Penalty {
                against: offender,
                reason: "illegal-move".into(),
                white_delta_ms: w,
                black_delta_ms: b,
                note: "7.5".into(),
            }));
        }
    }

    /// An arbiter's action as the journal words it: a word and a note.
    fn arbiter_words(&self, op: ArbiterOp) -> (String, String) {
        let side = |s| match self.side_colour(s) {
            Color::White => "white",
            Color::Black => "black",
        };
        let (action, note) = match op {
            ArbiterOp::Stop => ("stop", String::new()),
            ArbiterOp::Start => ("start", String::new()),
            ArbiterOp::Add(s, d) => ("add-time", format!("{} {}", side(s), secs(d))),
            ArbiterOp::Remove(s, d) => ("remove-time", format!("{} {}", side(s), secs(d))),
            ArbiterOp::Moves(n) => ("moves", n.to_string()),
            ArbiterOp::Illegal(s) => ("illegal-move", side(s).to_string()),
            ArbiterOp::Result(w) => (
                "result",
                match w {
                    Some(Color::White) => "1-0",
                    Some(Color::Black) => "0-1",
                    None => "1/2-1/2",
                }
                .to_string(),
            ),
        };
        (action.to_string(), note)
    }
}

fn secs(d: Duration) -> String {
    crate::scoresheet::record::format_ms(millis(d))
}
