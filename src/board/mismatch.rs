//! Where the board and the game disagree (FIDE D.2.9), most useful first,
//! and whether that changed since the last report.

use shakmaty::{Bitboard, Board, Piece, Role, Square};

use super::Sensed;
use super::sensed::SensedBoard;

/// One square where the board and the game disagree: the game has
/// `expected` there (None = empty), the board shows `found`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SquareDiff {
    /// The square.
    pub square: Square,
    /// What the game has there (None: empty).
    pub expected: Option<Piece>,
    /// What the board's sensors show there.
    pub found: Sensed,
}

/// Importance of a role: king first, pawn last.
const fn role_rank(role: Role) -> u8 {
    match role {
        Role::King => 0,
        Role::Queen => 1,
        Role::Rook => 2,
        Role::Bishop => 3,
        Role::Knight => 4,
        Role::Pawn => 5,
    }
}

/// Sort key of one difference: squares that should hold a piece (and are
/// empty or hold another) before squares that should be empty; within
/// each group by role, king first; then by square.
fn sort_key(d: &SquareDiff) -> (u8, u8, Square) {
    match d.expected {
        Some(p) => (0, role_rank(p.role), d.square),
        None => {
            let role = match d.found {
                Sensed::Piece(p) => role_rank(p.role),
                _ => 6,
            };
            (1, role, d.square)
        }
    }
}

/// Every square where `sensed` does not agree with `expected`, most
/// useful first.  An occupancy-only reading agrees with any piece.
pub fn diff(expected: &Board, sensed: &SensedBoard) -> Vec<SquareDiff> {
    let mut out: Vec<SquareDiff> = Square::ALL
        .into_iter()
        .filter_map(|square| {
            let want = expected.piece_at(square);
            let found = sensed.get(square);
            (!found.matches(want)).then_some(SquareDiff {
                square,
                expected: want,
                found,
            })
        })
        .collect();
    out.sort_by_key(sort_key);
    out
}

/// The squares of a list of differences (to light them on a board).
#[allow(dead_code)] // For boards with lights; used by the tests so far.
pub fn squares(diffs: &[SquareDiff]) -> Bitboard {
    diffs.iter().map(|d| d.square).collect()
}

/// A change of the reported mismatch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MismatchChange {
    /// The board now differs in these squares (and did not, or differently,
    /// before): report them.
    Changed(Vec<SquareDiff>),
    /// The board agrees with the game again after a reported mismatch.
    Resolved,
}

/// Remembers the last reported mismatch, so that a report is repeated
/// exactly when it changes.  [`diff`] sorts deterministically, so two
/// equal lists mean the same state.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MismatchWatch {
    reported: Vec<SquareDiff>,
    /// The report before the last one (empty if the last one was the
    /// first since the board agreed): a changed report says what changed.
    before: Vec<SquareDiff>,
    /// A mismatch was reported before a restart (its squares are not
    /// known): the next reading is news either way, "matches" included.
    restored: bool,
}

impl MismatchWatch {
    pub fn new() -> MismatchWatch {
        MismatchWatch::default()
    }

    /// The board now differs by `diffs` (empty = agrees): what to report.
    pub fn update(&mut self, diffs: Vec<SquareDiff>) -> Option<MismatchChange> {
        let restored = std::mem::take(&mut self.restored);
        if diffs == self.reported && !restored {
            return None;
        }
        let change = if diffs.is_empty() {
            MismatchChange::Resolved
        } else {
            MismatchChange::Changed(diffs.clone())
        };
        self.before = std::mem::replace(&mut self.reported, diffs);
        Some(change)
    }

    /// Forget the report without announcing anything (the game moved on in
    /// a way that makes the old report meaningless).
    pub fn clear(&mut self) {
        self.reported.clear();
        self.before.clear();
        self.restored = false;
    }

    /// A mismatch reported before hector was restarted (a resumed game)
    /// stands: the board agreeing again is "matches", the same mismatch
    /// seen again is said again.
    pub fn restore(&mut self) {
        if self.reported.is_empty() {
            self.restored = true;
        }
    }

    /// The last report is to be said again in full.
    pub fn forget_before(&mut self) {
        self.before.clear();
    }

    /// The report before the last one (empty when the last one was the
    /// first since the board agreed).
    pub fn before(&self) -> &[SquareDiff] {
        &self.before
    }

    /// The mismatch last reported (empty if none is outstanding).
    pub fn reported(&self) -> &[SquareDiff] {
        &self.reported
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Color;

    #[test]
    fn same_board_has_no_difference() {
        let b = Board::new();
        assert!(diff(&b, &SensedBoard::from_board(&b)).is_empty());
        assert!(diff(&b, &SensedBoard::occupancy_of(&b)).is_empty());
    }

    #[test]
    fn missing_pieces_first_by_value_then_squares_to_empty() {
        // Expected: start position.  The board: knight g1 on f3, queen d1
        // missing, a black pawn on e4.
        let expected = Board::new();
        let mut sensed = SensedBoard::from_board(&expected);
        sensed.set(Square::G1, Sensed::Empty);
        sensed.set(Square::F3, Sensed::Piece(Color::White.knight()));
        sensed.set(Square::D1, Sensed::Empty);
        sensed.set(Square::E4, Sensed::Piece(Color::Black.pawn()));
        let d = diff(&expected, &sensed);
        let order: Vec<Square> = d.iter().map(|x| x.square).collect();
        assert_eq!(order, vec![Square::D1, Square::G1, Square::F3, Square::E4]);
        assert_eq!(d[0].expected, Some(Color::White.queen()));
        assert_eq!(d[0].found, Sensed::Empty);
        assert_eq!(d[2].expected, None);
        assert_eq!(squares(&d).count(), 4);
    }

    #[test]
    fn wrong_piece_counts_as_should_hold() {
        let expected = Board::new();
        let mut sensed = SensedBoard::from_board(&expected);
        sensed.set(Square::A1, Sensed::Piece(Color::White.queen()));
        let d = diff(&expected, &sensed);
        assert_eq!(
            d,
            vec![SquareDiff {
                square: Square::A1,
                expected: Some(Color::White.rook()),
                found: Sensed::Piece(Color::White.queen())
            }]
        );
    }

    #[test]
    fn occupancy_boards_report_only_presence() {
        let expected = Board::new();
        let mut sensed = SensedBoard::occupancy_of(&expected);
        sensed.set(Square::E2, Sensed::Empty);
        sensed.set(Square::E4, Sensed::Occupied);
        let d = diff(&expected, &sensed);
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].square, Square::E2);
        assert_eq!(d[1].found, Sensed::Occupied);
    }

    /// A mismatch reported before a restart: the board agreeing is
    /// "matches" (once), the board still wrong is said again.
    #[test]
    fn a_restored_report_resolves_or_is_said_again() {
        let expected = Board::new();
        let mut sensed = SensedBoard::from_board(&expected);
        sensed.set(Square::H2, Sensed::Empty);
        let d = diff(&expected, &sensed);
        let mut w = MismatchWatch::new();
        assert_eq!(w.update(Vec::new()), None);
        w.restore();
        assert_eq!(w.update(Vec::new()), Some(MismatchChange::Resolved));
        assert_eq!(w.update(Vec::new()), None);
        w.restore();
        assert_eq!(
            w.update(d.clone()),
            Some(MismatchChange::Changed(d.clone()))
        );
        assert_eq!(w.update(d.clone()), None);
        // Cleared (the game moved on): nothing stands.
        let mut w = MismatchWatch::new();
        w.restore();
        w.clear();
        assert_eq!(w.update(Vec::new()), None);
    }

    #[test]
    fn watch_reports_only_changes() {
        let expected = Board::new();
        let mut sensed = SensedBoard::from_board(&expected);
        let mut w = MismatchWatch::new();
        assert_eq!(w.update(diff(&expected, &sensed)), None);
        sensed.set(Square::E2, Sensed::Empty);
        let d = diff(&expected, &sensed);
        assert_eq!(
            w.update(d.clone()),
            Some(MismatchChange::Changed(d.clone()))
        );
        assert_eq!(w.update(d.clone()), None);
        assert_eq!(w.reported(), &d[..]);
        sensed.set(Square::E2, Sensed::Piece(Color::White.pawn()));
        assert_eq!(
            w.update(diff(&expected, &sensed)),
            Some(MismatchChange::Resolved)
        );
        assert_eq!(w.update(Vec::new()), None);
    }
}
