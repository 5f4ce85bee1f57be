//! The clock and the scoresheet: what a game's start record says of its
//! clock, and the clock set again from the journal when a game is resumed.
//!
//! The journal itself follows the clock from outside (see
//! `app/scoresheet/`): this file only reads the clock's setup and sets a
//! restored clock, so the clock's own code needs no journal calls.

use std::time::{Duration, Instant};

use shakmaty::Color;

use super::{ClockPart, ClockSetup};
use crate::app::App;
use crate::clock::{PressMode, parse_spec};
use crate::game::rules::Edition;
use crate::scoresheet::record::{GameMode, StartInfo};
use crate::scoresheet::replay::RestoredClock;

/// `extra` keys of the start record for the clock's setup.
const PRESS: &str = "press";
const SUPERVISED: &str = "supervised";

impl App {
    /// The clock's part of a start record: the PGN `TimeControl`, the
    /// `--time` notation, the rules edition, a separate press (D.2.8) and
    /// a game without full supervision.
    pub(in crate::app) fn clock_start_info(&self, start: &mut StartInfo) {
        // Every game's rules edition (a resignation's result depends on
        // it) and mode (the scoresheet that proves itself says it).
        start.rules = Some(self.edition().to_string());
        start.set_mode(if self.settings.rated {
            GameMode::Rated
        } else {
            GameMode::Casual
        });
        let Some(part) = &self.parts.clock else {
            return;
        };
        let setup = &part.setup;
        start.time_control = Some(setup.control.pgn_tag());
        start.clock = Some(setup.control.to_string());
        start.extra.retain(|(k, _)| k != PRESS && k != SUPERVISED);
        if setup.press == PressMode::Separate {
            start.extra.push((PRESS.into(), "separate".into()));
        }
        if !setup.supervised {
            start.extra.push((SUPERVISED.into(), "no".into()));
        }
    }

    /// The rules edition of the game: its clock's, else the newest.
    pub(in crate::app) fn edition(&self) -> Edition {
        self.parts
            .clock
            .as_ref()
            .map_or_else(Edition::default, |c| c.setup.edition)
    }

    /// The clock of a resumed game, set as of the journal's last clock
    /// record (`restored`): both times, whose time runs (or that the clocks
    /// were stopped), the moves completed, the illegal moves penalised.
    /// Nothing is charged for the time hector was not running.  A game
    /// that had a clock keeps it even when this session was started
    /// without `--time`.
    pub(in crate::app) fn clock_restore(
        &mut self,
        start: &StartInfo,
        restored: Option<RestoredClock>,
        now: Instant,
    ) {
        if self.parts.clock.is_none() {
            let Some(control) = start.clock.as_deref().and_then(|s| parse_spec(s).ok()) else {
                return;
            };
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
            self.parts.clock = Some(ClockPart::new(setup));
        }
        let Some(mut part) = self.parts.clock.take() else {
            return;
        };
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
        self.parts.clock = Some(fresh);
        self.refresh_can_mate();
    }
}
