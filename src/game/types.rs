//! The values the rules layer hands out: moves as recorded, results, claims
//! and their verdicts, errors.

use std::fmt;

use shakmaty::fen::ParseFenError;
use shakmaty::san::SanPlus;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Color, KnownOutcome, Move, PositionErrorKinds};

use super::EndReason;

/// One move as the scoresheet records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayedMove {
    /// The move itself.
    pub mv: Move,
    /// Its SAN, with `+` or `#`.
    pub san: SanPlus,
    /// The side that played it.
    pub by: Color,
    /// The full move number it was played on (1 for 1. e4 and 1... e5).
    pub number: u32,
    /// The Zobrist hash of the position after it: equal hashes are the same
    /// position in the sense of 9.2.2 (side to move, pieces, castling rights,
    /// legal en-passant captures).
    pub hash_after: Zobrist64,
    /// The mover offered a draw with this move, recorded as (=) (9.1.2.2).
    pub draw_offer: bool,
}

/// How a game ended: the score and the reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GameResult {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub outcome: KnownOutcome,
    /// Why.
    pub reason: EndReason,
}

impl GameResult {
    /// A draw for the given reason.
    pub const fn draw(reason: EndReason) -> GameResult {
        GameResult {
            outcome: KnownOutcome::Draw,
            reason,
        }
    }

    /// A win for `winner` for the given reason.
    pub const fn win(winner: Color, reason: EndReason) -> GameResult {
        GameResult {
            outcome: KnownOutcome::Decisive { winner },
            reason,
        }
    }

    /// The winner, or `None` for a draw.
    pub const fn winner(&self) -> Option<Color> {
        self.outcome.winner()
    }
}

/// The two draws a player must claim (9.2, 9.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Claim {
    /// Threefold repetition, 9.2.
    Repetition,
    /// 50 moves without a pawn move or capture, 9.3.
    FiftyMoves,
}

/// Why a claim was not upheld.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClaimRefused {
    /// Only the player to move may claim (9.2.1, 9.3).
    NotYourTurn,
    /// The position (now, or after the intended move) has occurred only
    /// this many times, counting itself; three are needed.
    Repetition { occurrences: usize },
    /// Only this many half-moves (single moves of either side) have been
    /// played since the last capture or pawn move (now, or after the
    /// intended move); 100 are needed (50 by each player).
    FiftyMoves { halfmoves: u32 },
}

/// What came of a claim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClaimOutcome {
    /// The claim was correct and the game is drawn (9.5.2).  A claim on an
    /// intended move has recorded that move as the last of the game.
    Drawn(GameResult),
    /// The claim was not correct (9.5.3).  The game goes on.
    Refused {
        /// Why.
        reason: ClaimRefused,
        /// A claim on an intended move has played it (9.5.3: "this move must
        /// be made"); here it is as recorded.
        played: Option<PlayedMove>,
        /// The claim now stands as a draw offer by the claimant (9.1.2.3),
        /// see [`Game::pending_offer`](super::Game::pending_offer).
        draw_offer: bool,
    },
    /// The intended move ended the game by itself (checkmate, stalemate,
    /// dead position, fivefold repetition, 75 moves) whether or not the
    /// claim was correct.  The move is recorded.
    EndedByMove(GameResult),
}

/// A request the game cannot carry out.  Nothing has changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameError {
    /// The game is over: no more moves, claims, offers or resignations.
    GameOver,
    /// The move is not legal in the current position.
    IllegalMove,
    /// There is no draw offer to accept or decline.
    NoOffer,
    /// A player cannot accept or decline their own draw offer.
    OwnOffer,
    /// A draw offer by this player already stands.
    OfferPending { by: Color },
    /// A draw by agreement needs both players to have made at least one
    /// move (5.2.3).
    AgreementTooEarly,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::GameOver => f.write_str("the game is over"),
            GameError::IllegalMove => f.write_str("illegal move"),
            GameError::NoOffer => f.write_str("no draw offer stands"),
            GameError::OwnOffer => f.write_str("a player cannot answer their own draw offer"),
            GameError::OfferPending { by } => write!(f, "a draw offer by {by} already stands"),
            GameError::AgreementTooEarly => {
                f.write_str("a draw by agreement needs a move by each player first")
            }
        }
    }
}

impl std::error::Error for GameError {}

/// A start position that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetupError {
    /// The text is not a FEN.
    Fen(ParseFenError),
    /// The FEN describes a position that is not legal (no king, pawns on the
    /// back rank, the side not to move in check, …).
    Position(PositionErrorKinds),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Fen(e) => write!(f, "not a FEN: {e}"),
            SetupError::Position(kinds) => write!(f, "not a legal position: {kinds:?}"),
        }
    }
}

impl std::error::Error for SetupError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_constructors_give_the_winner() {
        assert_eq!(GameResult::draw(EndReason::Agreement).winner(), None);
        let r = GameResult::win(Color::Black, EndReason::Checkmate);
        assert_eq!(r.winner(), Some(Color::Black));
        assert_eq!(r.outcome.as_str(), "0-1");
    }

    #[test]
    fn errors_have_messages() {
        assert_eq!(GameError::GameOver.to_string(), "the game is over");
        assert!(
            GameError::OfferPending { by: Color::White }
                .to_string()
                .contains("white")
        );
    }
}
