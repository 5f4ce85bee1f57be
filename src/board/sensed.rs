//! What a board's sensors report for the whole board, and which way round
//! the board stands.

use std::fmt;
use std::ops::Index;

use shakmaty::{Bitboard, Board, Piece, Square};

/// What a board's sensors know about one square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sensed {
    /// Nothing stands there.
    Empty,
    /// Boards that identify pieces (DGT, Millennium).
    Piece(Piece),
    /// Occupancy-only boards: something is there.
    Occupied,
}

impl Sensed {
    /// Whether something stands on the square.
    pub const fn is_occupied(self) -> bool {
        !matches!(self, Sensed::Empty)
    }

    /// Whether the sensor reading agrees with `expected` (None = empty).
    /// An occupancy-only reading agrees with any piece.
    pub fn matches(self, expected: Option<Piece>) -> bool {
        match (self, expected) {
            (Sensed::Empty, None) => true,
            (Sensed::Occupied, Some(_)) => true,
            (Sensed::Piece(p), Some(e)) => p == e,
            _ => false,
        }
    }

    /// The reading an occupancy-only sensor would give for the same square.
    pub const fn to_occupancy(self) -> Sensed {
        match self {
            Sensed::Empty => Sensed::Empty,
            _ => Sensed::Occupied,
        }
    }

    /// One character: `.` empty, `*` occupied, FEN letter for a piece.
    pub const fn char(self) -> char {
        match self {
            Sensed::Empty => '.',
            Sensed::Occupied => '*',
            Sensed::Piece(p) => p.char(),
        }
    }
}

/// The square at position `index` (0..64) of the reading order that all
/// three protocols share: a8, b8, ..., h8, a7, ..., h1.  None when out of range.
pub fn square_in_reading_order(index: usize) -> Option<Square> {
    Square::try_from(index).ok().map(Square::flip_vertical)
}

/// The position of `square` in reading order (a8 = 0, h1 = 63).
pub const fn reading_index(square: Square) -> usize {
    square.flip_vertical().to_usize()
}

/// The 64 squares in reading order (a8 first, h1 last).
pub fn reading_order() -> impl Iterator<Item = Square> {
    Square::ALL.into_iter().map(Square::flip_vertical)
}

/// A whole board as the sensors see it, indexed by [`Square`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct SensedBoard {
    squares: [Sensed; 64],
}

impl Default for SensedBoard {
    fn default() -> Self {
        SensedBoard::empty()
    }
}

impl SensedBoard {
    /// Every square empty.
    pub const fn empty() -> SensedBoard {
        SensedBoard {
            squares: [Sensed::Empty; 64],
        }
    }

    /// What a board that identifies pieces shows for `board`.
    pub fn from_board(board: &Board) -> SensedBoard {
        let mut out = SensedBoard::empty();
        for (sq, piece) in board {
            out.set(sq, Sensed::Piece(piece));
        }
        out
    }

    /// What an occupancy-only board shows for `board`.
    pub fn occupancy_of(board: &Board) -> SensedBoard {
        SensedBoard::from_occupied(board.occupied())
    }

    /// An occupancy-only reading with exactly the squares of `occupied` set.
    pub fn from_occupied(occupied: Bitboard) -> SensedBoard {
        let mut out = SensedBoard::empty();
        for sq in occupied {
            out.set(sq, Sensed::Occupied);
        }
        out
    }

    /// The reading of one square.
    pub fn get(&self, square: Square) -> Sensed {
        self.squares[square.to_usize()]
    }

    /// Change the reading of one square.
    pub fn set(&mut self, square: Square, sensed: Sensed) {
        self.squares[square.to_usize()] = sensed;
    }

    /// The squares where something stands.
    pub fn occupied(&self) -> Bitboard {
        Square::ALL
            .into_iter()
            .filter(|sq| self.get(*sq).is_occupied())
            .collect()
    }

    /// The same board as an occupancy-only sensor would see it.
    pub fn to_occupancy(self) -> SensedBoard {
        SensedBoard::from_occupied(self.occupied())
    }

    /// Whether any square reports "occupied" without naming the piece.
    pub fn is_occupancy_only(&self) -> bool {
        self.squares.contains(&Sensed::Occupied)
    }

    /// The board turned round by 180° (a1 becomes h8).
    pub fn rotated(&self) -> SensedBoard {
        let mut out = SensedBoard::empty();
        for sq in Square::ALL {
            out.set(sq.rotate_180(), self.get(sq));
        }
        out
    }

    /// The board seen in `orientation` (see `Orientation::apply`).
    pub fn oriented(&self, orientation: Orientation) -> SensedBoard {
        match orientation {
            Orientation::Normal => *self,
            Orientation::Rotated => self.rotated(),
        }
    }

    /// Whether every square agrees with `board` ([`Sensed::matches`]).
    pub fn matches(&self, board: &Board) -> bool {
        Square::ALL
            .into_iter()
            .all(|sq| self.get(sq).matches(board.piece_at(sq)))
    }

    /// The board as shakmaty's [`Board`], when every square is either empty
    /// or an identified piece.
    pub fn to_board(self) -> Option<Board> {
        let mut board = Board::empty();
        for sq in Square::ALL {
            match self.get(sq) {
                Sensed::Empty => {}
                Sensed::Piece(p) => board.set_piece_at(sq, p),
                Sensed::Occupied => return None,
            }
        }
        Some(board)
    }

    /// All squares with their readings, a1 first.
    pub fn iter(&self) -> impl Iterator<Item = (Square, Sensed)> + '_ {
        Square::ALL.into_iter().map(|sq| (sq, self.get(sq)))
    }
}

impl Index<Square> for SensedBoard {
    type Output = Sensed;
    fn index(&self, square: Square) -> &Sensed {
        &self.squares[square.to_usize()]
    }
}

impl fmt::Debug for SensedBoard {
    /// Eight lines, rank 8 first, one character per square ([`Sensed::char`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        for (i, sq) in reading_order().enumerate() {
            write!(f, "{}", self.get(sq).char())?;
            if i % 8 == 7 {
                writeln!(f)?;
            }
        }
        Ok(())
    }
}

/// Which way round the board stands.  Protocols number squares as if
/// White sat at the usual side; a board turned round reports every square
/// rotated by 180°.  All translation between board squares and game squares
/// goes through [`Orientation::apply`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Orientation {
    #[default]
    Normal,
    Rotated,
}

impl Orientation {
    /// Translate a square (board to game, or game to board: the mapping is
    /// its own inverse).
    pub const fn apply(self, square: Square) -> Square {
        match self {
            Orientation::Normal => square,
            Orientation::Rotated => square.rotate_180(),
        }
    }

    /// The other way round.
    pub const fn flipped(self) -> Orientation {
        match self {
            Orientation::Normal => Orientation::Rotated,
            Orientation::Rotated => Orientation::Normal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Color, Role};

    #[test]
    fn reading_order_runs_a8_to_h1() {
        assert_eq!(square_in_reading_order(0), Some(Square::A8));
        assert_eq!(square_in_reading_order(7), Some(Square::H8));
        assert_eq!(square_in_reading_order(56), Some(Square::A1));
        assert_eq!(square_in_reading_order(63), Some(Square::H1));
        assert_eq!(square_in_reading_order(64), None);
        assert_eq!(reading_index(Square::B8), 1);
        assert_eq!(reading_index(Square::H1), 63);
        let all: Vec<Square> = reading_order().collect();
        assert_eq!(all[8], Square::A7);
    }

    #[test]
    fn matching_rules() {
        let wq = Some(Piece {
            color: Color::White,
            role: Role::Queen,
        });
        assert!(Sensed::Occupied.matches(wq));
        assert!(!Sensed::Occupied.matches(None));
        assert!(Sensed::Empty.matches(None));
        assert!(!Sensed::Piece(Color::Black.queen()).matches(wq));
        assert!(SensedBoard::from_board(&Board::new()).matches(&Board::new()));
        assert!(SensedBoard::occupancy_of(&Board::new()).matches(&Board::new()));
    }

    #[test]
    fn rotation_is_an_involution_and_moves_a1_to_h8() {
        let b = SensedBoard::from_board(&Board::new());
        let r = b.rotated();
        assert_eq!(r.get(Square::H8), Sensed::Piece(Color::White.rook()));
        assert_eq!(r.get(Square::E8), Sensed::Piece(Color::White.queen()));
        assert_eq!(r.rotated(), b);
        assert_eq!(Orientation::Rotated.apply(Square::A1), Square::H8);
        assert_eq!(Orientation::Normal.apply(Square::A1), Square::A1);
        assert_eq!(b.oriented(Orientation::Rotated), r);
    }

    #[test]
    fn to_board_refuses_occupancy_readings() {
        let b = SensedBoard::from_board(&Board::new());
        assert_eq!(b.to_board(), Some(Board::new()));
        assert_eq!(b.to_occupancy().to_board(), None);
        assert!(b.to_occupancy().is_occupancy_only());
        assert_eq!(b.occupied(), Board::new().occupied());
    }
}
