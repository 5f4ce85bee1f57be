//! The clock and the scoresheet: what a game's start record says of its
//! clock, and the clock set again from the journal when a game is resumed.
//!
//! The journal itself follows the clock from outside (see
//! `app/scoresheet/`): this file only reads the clock's setup and sets a
//! restored clock, so the clock's own code needs no journal calls.

use std::time::{Duration, Instant};

use shakmaty::Color;

use super::{ClockPart, ClockSetup};
use crate::clock::{PressMode, parse_spec};
use crate::game::rules::Edition;
use crate::scoresheet::record::{GameMode, StartInfo};
use crate::scoresheet::replay::RestoredClock;

/// `extra` keys of the start record for the clock's setup.
const PRESS: &str = "press";
const SUPERVISED: &str = "supervised";

impl ClockSetup {
    /// The clock's part of a start record: the PGN `TimeControl`, the
    /// `--time` notation, the rules edition, a separate press (D.2.8) and
    /// a game without full supervision.
    pub(in crate::app) fn write_start(&self, start: &mut StartInfo) {
        start.time_control = Some(self.control.pgn_tag());
        start.clock = Some(self.control.to_string());
        start.extra.retain(|(k, _)| k != PRESS && k != SUPERVISED);
        if self.press == PressMode::Separate {
            start.extra.push((PRESS.into(), "separate".into()));
        }
        if !self.supervised {
            start.extra.push((SUPERVISED.into(), "no".into()));
        }
    }
}

/// What start-up knows of a game for its start record: every game's
/// rules edition (a resignation's result depends on it) and mode (the
/// scoresheet that proves itself says it, `tournament`), and the clock's setup
/// when it has a clock.
pub(in crate::app) fn write_start_info(
    start: &mut StartInfo,
    edition: Edition,
    mode: GameMode,
    clock: Option<&ClockSetup>,
) {
    start.rules = Some(edition.to_string());
    start.set_mode(mode);
    if let Some(setup) = clock {
        setup.write_start(start);
    }
}

impl ClockPart {
    /// The clock of a resumed game, set as of the journal's last clock
    /// record (`restored`): both times, whose time runs (or that the clocks
    /// were stopped), the moves completed, the illegal moves penalised.
    /// Nothing is charged for the time hector was not running.  A game
    /// that had a clock (`part`: the session's) keeps it even when this
    /// session was started without `--time`: the one its start record
    /// names.
    pub(in crate::app) fn restored(
        part: Option<ClockPart>,
        start: &StartInfo,
        restored: Option<RestoredClock>,
        now: Instant,
    ) -> Option<ClockPart> {
        let mut part = part;
        if part.is_none() {
            let control = start.clock.as_deref().and_then(|s| parse_spec(s).ok())?;
            let mut setup = ClockSetup::new(control);
            if let Some(e) = start.rules.as_deref().and_then(Edition::from_name) {
                setup.edition = e;
            }
            for (k, v) in &start.extra {
                match (k.as_str(), v.as_str()) {
                    (PRESS, "separate") => setup.press = PressMode::Separate,
                    (SUPERVISED, "no") => setup.supervised = false,
                    _ => {}
                }
            }
            part = Some(ClockPart::new(setup));
        }
        let mut part = part?;
        // A game played with separate presses goes on with them (a move
        // may wait for its press).
        if start
            .extra
            .iter()
            .any(|(k, v)| k == PRESS && v == "separate")
        {
            part.setup.press = PressMode::Separate;
        }
        let mut fresh = ClockPart::new(part.setup);
        if let Some(r) = restored {
            let clock = &mut fresh.clock;
            let _ = clock.start(r.to_move, now);
            for side in Color::ALL {
                let ms = if side == Color::White {
                    r.white_ms
                } else {
                    r.black_ms
                };
                let want = Duration::from_millis(u64::try_from(ms).unwrap_or(0));
                let have = clock.remaining(side, now);
                if want > have {
                    clock.add_time(side, want - have);
                } else {
                    clock.remove_time(side, have - want, now);
                }
                clock.set_moves(side, r.moves[side]);
            }
            if r.running.is_none() {
                let _ = clock.pause(now);
            }
            // A move that waited for its separate press waits again: the
            // mover's time runs (started above), and `press` completes it.
            if let Some(by) = r.press_pending {
                fresh.presser.restore_pending(by);
            }
            fresh.illegal = r.illegal_moves;
            for side in [!r.to_move, r.to_move] {
                fresh.announcer.rearm(side, &fresh.clock, now);
            }
        }
        Some(fresh)
    }
}
