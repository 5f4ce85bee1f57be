//! A clock on the player's board (a DGT 3000 on a DGT board): hector
//! follows it and says what it shows with the same announcements as its
//! own clock (thresholds, `time`, period ends, the flag); its lever is the
//! press.  Also what a press completes when the board shows no legal move
//! (7.5): an illegal move, a pawn left unpromoted (7.5.2), or no move at
//! all (7.5.3, 2018).

use std::time::{Duration, Instant};

use shakmaty::{ByColor, Color, Move, Position, Rank, Role, Square};

use super::{ClockPart, ClockSetup, say_announcements};
use crate::app::voice::Voice;
use crate::board::dgt_clock::{ClockMessage, ClockReading, ClockSide};
use crate::clock::{Announcer, Bonus, Pressed, TimeControl};
use crate::game::Game;
use crate::speech::{Priority, SayKind};

/// What is known of a clock on the board.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Physical {
    /// The side of the clock that is White's: the side whose time ran
    /// while White was to move (None until the clock ran).
    pub(in crate::app) white: Option<ClockSide>,
    /// The side whose lever was high at the last reading.
    pub(in crate::app) high: Option<ClockSide>,
    /// Whether the clock answers (its times were read, and no "no clock"
    /// came since).
    pub(in crate::app) present: bool,
    /// The number of moves in the game when a press last completed one: a
    /// lever moved again on the same move (the arbiter giving the move
    /// back) is no second press.
    pub(in crate::app) counted: Option<usize>,
}

impl Physical {
    /// A clock kept elsewhere that this one follows with no board of its
    /// own (the lichess server's, `app/online.rs`): present from the start.
    pub(in crate::app) fn elsewhere() -> Physical {
        Physical {
            white: None,
            high: None,
            present: true,
            counted: None,
        }
    }

    /// For a new game: which side is White's is seen again.
    pub(super) fn for_new_game(&self) -> Physical {
        Physical {
            white: None,
            high: None,
            present: self.present,
            counted: None,
        }
    }

    /// The colour that plays on `side` of the clock (left is taken as
    /// White's until the clock has run).
    pub(in crate::app) fn colour(&self, side: ClockSide) -> Color {
        let white = self.white.unwrap_or(ClockSide::Left);
        if side == white {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Both times of a reading, by colour.
    pub(in crate::app) fn times(&self, r: &ClockReading) -> ByColor<Duration> {
        let white = self.white.unwrap_or(ClockSide::Left);
        ByColor {
            white: r.time(white),
            black: r.time(!white),
        }
    }
}

/// What a press found on the board when the presser had made no move in
/// the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::app) enum PressCheck {
    /// Nothing to say: not a move, not an illegal one.
    Nothing,
    /// An illegal move was completed and penalised (7.5.1, 7.5.3).
    Penalised,
    /// A pawn left unpromoted became a queen (played) and was penalised
    /// (7.5.2): the press goes on as for any move.
    Promoted,
}

/// A reading of the clock on the board, as the clock part took it in:
/// what the App goes on with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::app) struct Reading {
    /// The side that pressed the lever (it went down on that side).
    pub(in crate::app) presser: Option<Color>,
    /// Both times shown, by colour.
    times: ByColor<Duration>,
    /// The side whose time runs.
    running: Option<Color>,
    /// The side whose flag shows.
    flag: Option<Color>,
    /// The first reading of this clock in this game.
    first: bool,
}

impl ClockPart {
    /// What the clock on the board says, to the clock part in `slot` (made
    /// for it when the game has none: `--time` names the periods and the
    /// rules' category, else one follows the board's): it is gone, or
    /// found (said).  A reading in a game going on is returned for the App
    /// to go on with (a press may complete a move); in a game over the
    /// clock just follows it.
    pub(in crate::app) fn on_board_message(
        slot: &mut Option<ClockPart>,
        m: ClockMessage,
        game: &Game,
        now: Instant,
        v: &mut Voice<'_>,
    ) -> Option<Reading> {
        let r = match m {
            ClockMessage::Ack | ClockMessage::Blank => return None,
            ClockMessage::NoClock => {
                let part = slot.as_mut()?;
                let p = part.physical.as_mut()?;
                if p.present {
                    p.present = false;
                    p.high = None;
                    let _ = part.clock.pause(now);
                    v.say_key("board_clock_gone", &[], Priority::Normal, SayKind::Board);
                }
                return None;
            }
            ClockMessage::Reading(r) => r,
        };
        if slot.is_none() {
            let longest = r.left.max(r.right).max(Duration::from_secs(1));
            let control = TimeControl::sudden_death(longest, Bonus::None).ok()?;
            *slot = Some(ClockPart::new(ClockSetup::new(control)));
        }
        let part = slot.as_mut()?;
        let p = part.physical.get_or_insert_with(Physical::default);
        let over = game.is_over();
        let found = !p.present;
        // The first reading of this clock in this game: what it shows is
        // where the announcements start (nothing already passed is said).
        let first = p.high.is_none();
        p.present = true;
        if p.white.is_none() && r.running && !over {
            // The time that runs while White is to move is White's.
            p.white = Some(if game.turn() == Color::White {
                r.high
            } else {
                !r.high
            });
        }
        // The lever went down on the side that was high: that player pressed.
        let presser = match p.high {
            Some(before) if before != r.high && p.white.is_some() => Some(p.colour(before)),
            _ => None,
        };
        p.high = Some(r.high);
        let times = p.times(&r);
        let running = r.running_side().map(|s| p.colour(s));
        let flag = [ClockSide::Left, ClockSide::Right]
            .into_iter()
            .find(|s| r.flag(*s))
            .map(|s| p.colour(s));
        if found {
            v.say_key("board_clock_found", &[], Priority::Normal, SayKind::Board);
        }
        if over {
            part.clock.follow(times, None, now);
            return None;
        }
        Some(Reading {
            presser,
            times,
            running,
            flag,
            first,
        })
    }

    /// Whether `side`'s press of the lever completes the move they made
    /// in `game` (not one a press completed already).
    pub(in crate::app) fn lever_completes(&self, side: Color, game: &Game) -> bool {
        let counted = self.physical.as_ref().and_then(|p| p.counted);
        game.last_move().is_some_and(|m| m.by == side) && counted != Some(game.history().len())
    }

    /// The clock follows the reading `r`.  `side` pressed the lever when
    /// one did: `completes` a move (`lever_completes`, or a pawn promoted
    /// by the press) is counted in `game` and said as a press; a press
    /// that was no move (Black starting White's clock) only rearms.
    pub(in crate::app) fn follow_reading(
        &mut self,
        r: &Reading,
        completes: bool,
        game: &Game,
        now: Instant,
        v: &mut Voice<'_>,
    ) {
        let Some(side) = r.presser else {
            self.clock.follow(r.times, r.running, now);
            if r.first {
                let schedule = self.announcer.schedule().clone();
                self.announcer = Announcer::new(schedule, &self.clock, now);
            }
            return;
        };
        if completes {
            if let Some(p) = &mut self.physical {
                p.counted = Some(game.history().len());
            }
            let pressed = self.clock.followed_press(side, now);
            self.clock.follow(r.times, r.running, now);
            let pressed = Pressed {
                remaining: self.clock.remaining(side, now),
                ..pressed
            };
            let said = self.announcer.pressed(&pressed, &self.clock, now);
            say_announcements(&said, v);
        } else {
            self.clock.follow(r.times, r.running, now);
            self.announcer.rearm(side, &self.clock, now);
        }
    }

    /// The reading followed, in `game` as it is now: a game the press
    /// ended stops the clock; a flag shown is returned (the App ends the
    /// game); else the thresholds due are said.
    #[must_use]
    pub(in crate::app) fn after_reading(
        &mut self,
        r: &Reading,
        game: &Game,
        now: Instant,
        v: &mut Voice<'_>,
    ) -> Option<Color> {
        if game.is_over() {
            // The press ended it (a second illegal move): the clock stops.
            self.clock.follow(r.times, None, now);
            return None;
        }
        if let Some(side) = r.flag {
            self.clock.follow_flag(side);
            return Some(side);
        }
        let said = self.announcer.poll(&self.clock, now);
        say_announcements(&said, v);
        None
    }
}

/// The promotion to a queen of the pawn of the side to move that the
/// board shows gone from `from` to `to` on the last rank, unpromoted
/// (7.5.2).
pub(in crate::app) fn unpromoted_pawn(game: &Game, from: Square, to: Square) -> Option<Move> {
    let pos = game.position();
    let piece = pos.board().piece_at(from)?;
    let last = match piece.color {
        Color::White => Rank::Eighth,
        Color::Black => Rank::First,
    };
    if piece.role != Role::Pawn || to.rank() != last {
        return None;
    }
    pos.legal_moves()
        .into_iter()
        .find(|m| m.from() == Some(from) && m.to() == to && m.promotion() == Some(Role::Queen))
}

#[cfg(test)]
mod tests;
