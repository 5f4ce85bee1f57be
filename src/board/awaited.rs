//! A move the game made by other means (typed on the keyboard, later the
//! engine or the companion page) that the blind player must now make on
//! the tactile board: what to tell them ([`Instruction`]) and whether a
//! board is on its way to it (`on_the_way_all`).
//!
//! The `Tracker` awaits such a move
//! (`Tracker::await_move`): it says the
//! instruction once, stays quiet while the board passes through states that
//! lead to the move (a piece lifted, the captured piece removed first or
//! last, king before rook or rook before king), reports a mismatch only for
//! a state that does not lead there (after the settle time) or, as a
//! reminder, after the grace period, and says the move is done when the
//! board shows it.

use shakmaty::{
    Bitboard, Board, CastlingSide, Chess, Move, Piece, Position, Role, Square, attacks,
};

use super::Sensed;
use super::sensed::SensedBoard;

/// What to do on the board for an awaited move, in squares and pieces (the
/// app words it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Instruction {
    /// The move.
    pub mv: Move,
    /// The piece to move (the king for castling).
    pub piece: Piece,
    /// Where it stands.
    pub from: Square,
    /// Where it goes (the king's square for castling).
    pub to: Square,
    /// The piece to take off the board and where it stands (a capture; en
    /// passant: the pawn beside).
    pub remove: Option<(Piece, Square)>,
    /// Castling: the rook, where it stands and where it goes.
    pub rook: Option<(Piece, Square, Square)>,
    /// A promotion: the piece to put on `to` instead of the pawn.
    pub becomes: Option<Piece>,
}

impl Instruction {
    /// The instruction for `mv` played in `before` (None if the move does
    /// not fit the position: no piece on its square).
    pub fn new(before: &Chess, mv: Move) -> Option<Instruction> {
        let board = before.board();
        let colour = before.turn();
        match mv {
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_king_side(rook.file() > king.file());
                let rank = king.rank();
                Some(Instruction {
                    mv,
                    piece: board.piece_at(king)?,
                    from: king,
                    to: Square::from_coords(side.king_to_file(), rank),
                    remove: None,
                    rook: Some((
                        board.piece_at(rook)?,
                        rook,
                        Square::from_coords(side.rook_to_file(), rank),
                    )),
                    becomes: None,
                })
            }
            Move::EnPassant { from, to } => {
                let taken = Square::from_coords(to.file(), from.rank());
                Some(Instruction {
                    mv,
                    piece: board.piece_at(from)?,
                    from,
                    to,
                    remove: Some((board.piece_at(taken)?, taken)),
                    rook: None,
                    becomes: None,
                })
            }
            Move::Normal {
                from,
                to,
                promotion,
                ..
            } => Some(Instruction {
                mv,
                piece: board.piece_at(from)?,
                from,
                to,
                remove: board.piece_at(to).map(|p| (p, to)),
                rook: None,
                becomes: promotion.map(|role| Piece {
                    color: colour,
                    role,
                }),
            }),
            Move::Put { .. } => None,
        }
    }
}

/// Whether the board `sensed` is on its way from `before` to `after` by
/// the move of `instruction`: every square shows what `after` has there,
/// or is one the move changes and shows what was there before or nothing
/// (a piece in the hand), or, in a castling, lies on the king's path and
/// holds it (the king on f1 before g1).  Any other piece set down on its
/// path but short of its square (a pawn on a6 for a7-a5, a slider that
/// stopped) is a wrong square: a mismatch once the settle time passed, as
/// anywhere else.  A promotion may show the pawn on its last square before
/// the new piece is put there.
#[cfg(test)]
pub fn on_the_way(
    instruction: &Instruction,
    before: &Board,
    after: &Board,
    sensed: &SensedBoard,
) -> bool {
    on_the_way_all(&[*instruction], &[before, after], sensed)
}

/// Whether the board `sensed` is on its way through several awaited moves
/// (`instructions`, oldest first; `boards` the game board before each and,
/// last, after all of them): every square shows what the last board has
/// there, or is one the moves change and shows nothing (a piece in the
/// hand) or what one of the boards has there (a move made before the one
/// before it, a reply's piece already set), or, in a castling, holds the
/// king on its path.  With one move this is `on_the_way`.
pub fn on_the_way_all(
    instructions: &[Instruction],
    boards: &[&Board],
    sensed: &SensedBoard,
) -> bool {
    let Some(last) = boards.last() else {
        return true;
    };
    let king_paths: Vec<(Bitboard, Piece)> = instructions
        .iter()
        .filter(|i| i.rook.is_some())
        .map(|i| (attacks::between(i.from, i.to), i.piece))
        .collect();
    Square::ALL.into_iter().all(|sq| {
        let got = sensed.get(sq);
        if got.matches(last.piece_at(sq)) {
            return true;
        }
        if king_paths
            .iter()
            .any(|(path, king)| path.contains(sq) && got.matches(Some(*king)))
        {
            return true;
        }
        let changes = boards.iter().any(|b| b.piece_at(sq) != last.piece_at(sq));
        changes && (got == Sensed::Empty || boards.iter().any(|b| got.matches(b.piece_at(sq))))
    })
}

/// Whether an occupancy-only board showing the position after a capture
/// really shows it done: the captured piece's square must have been
/// emptied on the way (otherwise the capturing piece is still in the hand
/// and the captured piece still stands).  `lifted`: squares emptied since
/// the move was awaited, in game squares.
pub fn capture_seen(instruction: &Instruction, sensed: &SensedBoard, lifted: Bitboard) -> bool {
    match instruction.remove {
        Some((_, at)) if sensed.is_occupancy_only() && at == instruction.to => lifted.contains(at),
        _ => true,
    }
}

/// Whether `m` is a king or rook move that is also the first half of a
/// legal castling among `moves`: the king stepping towards its castling
/// square, or the rook set on its castling square beside the king.  Such a
/// move is announced only after a longer wait, since the other half may
/// follow.
pub fn castling_half(m: Move, moves: &[Move]) -> bool {
    let Move::Normal { role, from, to, .. } = m else {
        return false;
    };
    moves.iter().any(|c| {
        let Move::Castle { king, rook } = *c else {
            return false;
        };
        let side = CastlingSide::from_king_side(rook.file() > king.file());
        let king_to = Square::from_coords(side.king_to_file(), king.rank());
        let rook_to = Square::from_coords(side.rook_to_file(), king.rank());
        match role {
            Role::King => {
                from == king && (to == king_to || attacks::between(king, king_to).contains(to))
            }
            Role::Rook => from == rook && to == rook_to,
            _ => false,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;
    use shakmaty::{CastlingMode, Color};

    fn fen(text: &str) -> Chess {
        text.parse::<Fen>()
            .ok()
            .and_then(|f| f.into_position(CastlingMode::Standard).ok())
            .unwrap_or_else(|| panic!("valid test FEN {text}"))
    }

    fn uci(pos: &Chess, text: &str) -> Move {
        text.parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(pos).ok())
            .unwrap_or_else(|| panic!("{text} is legal in the test position"))
    }

    fn after(pos: &Chess, m: Move) -> Board {
        let mut p = pos.clone();
        p.play_unchecked(m);
        p.board().clone()
    }

    #[test]
    fn instructions_name_what_to_remove_and_the_rook() {
        let pos = fen("r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1");
        let ep = Instruction::new(&pos, uci(&pos, "e5d6")).unwrap();
        assert_eq!(ep.remove, Some((Color::Black.pawn(), Square::D5)));
        let castle = Instruction::new(&pos, uci(&pos, "e1a1")).unwrap();
        assert_eq!((castle.from, castle.to), (Square::E1, Square::C1));
        assert_eq!(
            castle.rook,
            Some((Color::White.rook(), Square::A1, Square::D1))
        );
        let take = Instruction::new(&pos, uci(&pos, "a1a8")).unwrap();
        assert_eq!(take.remove, Some((Color::Black.rook(), Square::A8)));
        assert_eq!(take.becomes, None);
        let promo = fen("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        let p = Instruction::new(&promo, uci(&promo, "a7b8q")).unwrap();
        assert_eq!(p.becomes, Some(Color::White.queen()));
        assert_eq!(p.remove, Some((Color::Black.knight(), Square::B8)));
    }

    #[test]
    fn every_order_of_a_capture_is_on_the_way_and_a_wrong_square_is_not() {
        // Black's bishop f5 takes the white bishop d3.
        let pos = fen("4k3/8/8/5b2/8/3B4/8/4K3 b - - 0 1");
        let m = uci(&pos, "f5d3");
        let i = Instruction::new(&pos, m).unwrap();
        let before = pos.board().clone();
        let done = after(&pos, m);
        let check = |changes: &[(Square, Sensed)]| {
            let mut s = SensedBoard::from_board(&before);
            for (sq, v) in changes {
                s.set(*sq, *v);
            }
            on_the_way(&i, &before, &done, &s)
        };
        let bb = Sensed::Piece(Color::Black.bishop());
        assert!(check(&[]));
        assert!(check(&[(Square::D3, Sensed::Empty)]));
        assert!(check(&[(Square::F5, Sensed::Empty)]));
        assert!(check(&[
            (Square::F5, Sensed::Empty),
            (Square::D3, Sensed::Empty)
        ]));
        assert!(check(&[(Square::F5, Sensed::Empty), (Square::D3, bb)]));
        // Set down on its path, short of its square: a wrong square
        // (issue 18, item 4).
        assert!(!check(&[(Square::F5, Sensed::Empty), (Square::E4, bb)]));
        // Set down on a square off its path.
        assert!(!check(&[(Square::F5, Sensed::Empty), (Square::C2, bb)]));
        // Another piece touched and put elsewhere.
        assert!(!check(&[
            (Square::E1, Sensed::Empty),
            (Square::E2, Sensed::Piece(Color::White.king()))
        ]));
    }

    #[test]
    fn a_pawn_short_of_its_double_step_is_not_on_the_way() {
        let pos = fen("4k3/p7/8/8/8/8/8/4K3 b - - 0 1");
        let m = uci(&pos, "a7a5");
        let i = Instruction::new(&pos, m).unwrap();
        let before = pos.board().clone();
        let done = after(&pos, m);
        let mut s = SensedBoard::from_board(&before);
        s.set(Square::A7, Sensed::Empty);
        assert!(on_the_way(&i, &before, &done, &s));
        s.set(Square::A6, Sensed::Piece(Color::Black.pawn()));
        assert!(!on_the_way(&i, &before, &done, &s));
    }

    #[test]
    fn castling_in_any_order_is_on_the_way() {
        let pos = fen("r3k2r/8/8/8/8/8/8/4K3 b kq - 0 1");
        let m = uci(&pos, "e8g8");
        let i = Instruction::new(&pos, m).unwrap();
        let before = pos.board().clone();
        let done = after(&pos, m);
        let king = Sensed::Piece(Color::Black.king());
        let rook = Sensed::Piece(Color::Black.rook());
        let states: [&[(Square, Sensed)]; 5] = [
            &[(Square::E8, Sensed::Empty), (Square::G8, king)],
            &[(Square::E8, Sensed::Empty), (Square::F8, king)],
            &[(Square::H8, Sensed::Empty), (Square::F8, rook)],
            &[(Square::H8, Sensed::Empty), (Square::E8, Sensed::Empty)],
            &[
                (Square::H8, Sensed::Empty),
                (Square::E8, Sensed::Empty),
                (Square::F8, rook),
            ],
        ];
        for changes in states {
            let mut s = SensedBoard::from_board(&before);
            for (sq, v) in changes {
                s.set(*sq, *v);
            }
            assert!(on_the_way(&i, &before, &done, &s), "{changes:?}");
        }
        // The rook on the king's square is no way to castle.
        let mut s = SensedBoard::from_board(&before);
        s.set(Square::H8, Sensed::Empty);
        s.set(Square::G8, rook);
        assert!(!on_the_way(&i, &before, &done, &s));
    }

    #[test]
    fn castling_halves() {
        let pos = fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let moves: Vec<Move> = pos.legal_moves().into_iter().collect();
        for (text, half) in [
            ("h1f1", true),
            ("a1d1", true),
            ("e1f1", true),
            ("e1d1", true),
            ("h1g1", false),
            ("a1b1", false),
            ("e1e2", false),
            ("a1a8", false),
        ] {
            assert_eq!(castling_half(uci(&pos, text), &moves), half, "{text}");
        }
        // No castling right: a rook move is a rook move.
        let pos = fen("4k3/8/8/8/8/8/8/4K2R w - - 0 1");
        let moves: Vec<Move> = pos.legal_moves().into_iter().collect();
        assert!(!castling_half(uci(&pos, "h1f1"), &moves));
    }
}
