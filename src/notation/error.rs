use shakmaty::{CastlingSide, File, Move, Rank, Role, Square};

/// What the player asked for, as far as the words said it: the parts that
/// were not said are `None`.  Used to phrase errors in the player's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Attempt {
    pub role: Option<Role>,
    pub from_file: Option<File>,
    pub from_rank: Option<Rank>,
    pub to: Option<Square>,
    pub castle: Option<CastlingSide>,
    pub promotion: Option<Role>,
    pub capture: bool,
}

impl Attempt {
    /// The from-square, when both its file and rank were given.
    pub fn from(&self) -> Option<Square> {
        Some(Square::from_coords(self.from_file?, self.from_rank?))
    }
}

/// Why a move that was understood cannot be played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IllegalReason {
    /// No piece of that kind (of the side to move) can reach the square.
    NoPieceCanReach,
    /// The from-square is empty.
    NoPieceOnSquare,
    /// The piece on the from-square belongs to the side not to move.
    NotYourMove,
    /// The piece could go there but is pinned to its king.
    Pinned,
    /// The side to move is in check and this move does not answer it.
    KingInCheck,
    /// The king would move into check.
    KingWouldBeInCheck,
    /// Castling is not possible now (rights lost, pieces between, attacked squares).
    CastlingNotAllowed,
    /// A pawn reaches the last rank and the player did not name the piece (D.2.1).
    PromotionPieceMissing,
    /// A promotion was named for a move that is not a promotion.
    NotAPromotion,
    /// The game is over.
    GameOver,
}

/// A typed line that did not give exactly one legal move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputError {
    /// Not a move in any form hector knows (nor a command: the caller checks
    /// commands first).
    NotUnderstood {
        /// The line as typed.
        input: String,
    },
    /// Understood, but not legal in this position.
    Illegal {
        /// The move as read.
        attempt: Attempt,
        /// Why it cannot be played.
        reason: IllegalReason,
    },
    /// Several legal moves fit what was said: "Two Springer can go to David
    /// zwei: from Bella eins or from Felix drei."  Candidates in a stable order.
    Ambiguous {
        /// The move as read.
        attempt: Attempt,
        /// The legal moves it fits.
        candidates: Vec<Move>,
    },
    /// Only a square was said (`f7`, `Felix sieben`): in SAN a pawn move,
    /// but no pawn can go there.  These pieces could (legal moves, in a
    /// stable order): the player is asked which was meant; none is played.
    NotAPawnMove {
        /// The move as read.
        attempt: Attempt,
        /// The legal moves of pieces to that square.
        candidates: Vec<Move>,
    },
    /// The words can be read two ways (a letter that is one piece in one
    /// language and another piece in another, neither of them the player's
    /// language) and both readings are legal: the player must say which.
    AmbiguousReading {
        /// The line as typed.
        input: String,
        /// The legal moves of the readings.
        candidates: Vec<Move>,
    },
}
