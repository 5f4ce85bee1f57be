//! The rules layer over shakmaty: the game in progress, its history, how it
//! ended, draw offers and claims.  No move generation of its own.

/// How a game came to an end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// 5.1.1
    Checkmate,
    /// 5.2.1
    Stalemate,
    /// 5.2.2: neither side can mate by any series of legal moves.
    DeadPosition,
    /// 9.6.1, automatic.
    FivefoldRepetition,
    /// 9.6.2, automatic.
    SeventyFiveMoves,
    /// 9.2, on a correct claim.
    ThreefoldRepetition,
    /// 9.3, on a correct claim.
    FiftyMoves,
    /// 5.2.3, 9.1.
    Agreement,
    /// 5.1.2.
    Resignation,
    /// 6.9: a flag fell (a draw when the opponent could not mate).
    TimeForfeit,
    /// 7.5.5: an illegal move too many (a draw when the opponent could not mate).
    IllegalMove,
    /// A result the arbiter declared.
    ArbiterDecision,
    /// A player left the game and the other claimed it (online: lichess's
    /// `timeout`, the win claimed after the opponent had gone).
    Abandoned,
}

mod claims;
mod core;
mod offers;
mod pgn;
#[cfg(test)]
mod proptests;
pub mod rules;
#[cfg(test)]
mod test_util;
mod types;

pub use core::Game;
pub use types::{Claim, ClaimOutcome, ClaimRefused, GameError, GameResult, PlayedMove, SetupError};
