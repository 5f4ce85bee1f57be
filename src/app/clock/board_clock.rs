//! A clock on the player's board (a DGT 3000 on a DGT board): hector
//! follows it and says what it shows with the same announcements as its
//! own clock (thresholds, `time`, period ends, the flag); its lever is the
//! press.  Also what a press completes when the board shows no legal move
//! (7.5): an illegal move, a pawn left unpromoted (7.5.2), or no move at
//! all (7.5.3, 2018).

use std::time::Duration;

use shakmaty::{ByColor, Color};

use crate::board::dgt_clock::{ClockReading, ClockSide};

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

#[cfg(test)]
mod tests;
