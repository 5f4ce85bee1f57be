//! A simulated board: given what a player does with the pieces, the exact
//! bytes each protocol's board would send.  Pure; used by the tests and by
//! `hector board sim` (which writes these bytes into a pseudo-terminal).

use shakmaty::{Bitboard, Board, CastlingSide, Chess, Move, Piece, Position, Square, attacks};

use super::dgt;
use super::dgt_clock::{self, ClockReading};
use super::millennium;
use super::occupancy;
use super::protocol::Protocol;
use super::sensed::Orientation;
use super::{chessnut, pegasus};

/// One thing a hand does on the board (game squares).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HandStep {
    /// Pull the piece out of this square.
    Lift(Square),
    /// Put this piece into this square.
    Place(Square, Piece),
}

/// The squares strictly between `from` and `to`, nearest to `from` first.
fn path(from: Square, to: Square) -> Vec<Square> {
    let mut squares: Vec<Square> = attacks::between(from, to).into_iter().collect();
    squares.sort_by_key(|sq| sq.distance(from));
    squares
}

/// Move `piece` from `from` to `to` on `board`, recording the actions;
/// with `slide`, the piece is also set down on every empty square it
/// passes over.
fn carry(
    board: &mut Board,
    from: Square,
    to: Square,
    piece: Piece,
    slide: bool,
    out: &mut Vec<HandStep>,
) {
    out.push(HandStep::Lift(from));
    board.discard_piece_at(from);
    if slide {
        for sq in path(from, to) {
            if board.piece_at(sq).is_none() {
                out.push(HandStep::Place(sq, piece));
                out.push(HandStep::Lift(sq));
            }
        }
    }
    out.push(HandStep::Place(to, piece));
    board.set_piece_at(to, piece);
}

/// What a player's hand does to play `m` (legal in `pos`): a captured
/// piece is removed first, then the moving piece is lifted and placed (a
/// promoting pawn is replaced by the new piece); castling moves the king
/// first, then the rook.  With `slide`, pieces are also set down on the
/// squares they pass over (as a piece pushed along a sensor board is
/// seen).
pub fn move_actions(pos: &Chess, m: Move, slide: bool) -> Vec<HandStep> {
    let mut board = pos.board().clone();
    let mut out = Vec::new();
    let turn = pos.turn();
    match m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            if capture.is_some() {
                out.push(HandStep::Lift(to));
                board.discard_piece_at(to);
            }
            let landed = promotion.unwrap_or(role).of(turn);
            carry(&mut board, from, to, role.of(turn), slide, &mut out);
            if let Some(HandStep::Place(_, piece)) = out.last_mut() {
                *piece = landed;
            }
        }
        Move::EnPassant { from, to } => {
            let captured = Square::from_coords(to.file(), from.rank());
            out.push(HandStep::Lift(captured));
            board.discard_piece_at(captured);
            carry(&mut board, from, to, turn.pawn(), slide, &mut out);
        }
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(rook.file() > king.file());
            let king_to = Square::from_coords(side.king_to_file(), king.rank());
            let rook_to = Square::from_coords(side.rook_to_file(), king.rank());
            carry(&mut board, king, king_to, turn.king(), slide, &mut out);
            carry(&mut board, rook, rook_to, turn.rook(), slide, &mut out);
        }
        Move::Put { role, to } => out.push(HandStep::Place(to, role.of(turn))),
    }
    out
}

/// A board that turns actions into the bytes its protocol sends.
#[derive(Debug, Clone)]
pub struct SimBoard {
    protocol: Protocol,
    /// What stands on the board, in game squares.
    board: Board,
    orientation: Orientation,
    event_lines: bool,
}

impl SimBoard {
    /// A board of `protocol` holding `board`, standing the usual way round.
    pub fn new(protocol: Protocol, board: Board) -> SimBoard {
        SimBoard {
            protocol,
            board,
            orientation: Orientation::Normal,
            event_lines: false,
        }
    }

    /// The same board turned round (or not).
    #[cfg_attr(
        not(feature = "test-support"),
        allow(dead_code, reason = "used by tests and the board benches")
    )]
    pub fn with_orientation(mut self, orientation: Orientation) -> SimBoard {
        self.orientation = orientation;
        self
    }

    /// Occupancy protocol only: report changes as `lift`/`place` lines
    /// instead of whole board lines.
    #[cfg_attr(
        not(feature = "test-support"),
        allow(dead_code, reason = "used by tests and the board benches")
    )]
    pub fn with_event_lines(mut self, on: bool) -> SimBoard {
        self.event_lines = on;
        self
    }

    /// What stands on the board (game squares).
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The protocol spoken.
    #[cfg_attr(
        not(feature = "test-support"),
        allow(dead_code, reason = "used by tests and the board benches")
    )]
    pub fn protocol(&self) -> Protocol {
        self.protocol
    }

    /// The board in its own numbering.
    fn board_numbered(&self) -> Board {
        let mut b = self.board.clone();
        if self.orientation == Orientation::Rotated {
            b.rotate_180();
        }
        b
    }

    /// The whole board as the protocol sends it.
    pub fn dump(&self) -> Vec<u8> {
        let b = self.board_numbered();
        match self.protocol {
            Protocol::Dgt => dgt::encode_board_dump(&b),
            Protocol::Millennium | Protocol::Eone => millennium::encode_status(&b),
            Protocol::Occupancy => occupancy::encode_line(b.occupied()),
            Protocol::Chessnut | Protocol::ChessnutMove => chessnut::encode_position(&b),
            Protocol::Pegasus => pegasus::encode_occupancy(b.occupied()),
        }
    }

    /// The version message.
    pub fn version(&self) -> Vec<u8> {
        match self.protocol {
            Protocol::Dgt => dgt::encode_version(1, 7),
            Protocol::Millennium | Protocol::Eone => millennium::encode_version(1, 3),
            Protocol::Occupancy => occupancy::encode_version("hector-sim 1"),
            Protocol::Pegasus => dgt::encode_version(1, 0),
            Protocol::Chessnut | Protocol::ChessnutMove => Vec::new(),
        }
    }

    /// What the board sends when the clock attached to it shows `reading`
    /// (a DGT board with a DGT 3000); nothing for the other protocols,
    /// whose boards have no clock.
    pub fn clock(&self, reading: &ClockReading) -> Vec<u8> {
        match self.protocol {
            Protocol::Dgt => dgt_clock::encode(reading),
            Protocol::Millennium
            | Protocol::Eone
            | Protocol::Occupancy
            | Protocol::Chessnut
            | Protocol::ChessnutMove
            | Protocol::Pegasus => Vec::new(),
        }
    }

    /// Carry out one action; the bytes the board sends about it.
    pub fn act(&mut self, action: HandStep) -> Vec<u8> {
        let (square, piece) = match action {
            HandStep::Lift(sq) => (sq, None),
            HandStep::Place(sq, p) => (sq, Some(p)),
        };
        match piece {
            Some(p) => self.board.set_piece_at(square, p),
            None => self.board.discard_piece_at(square),
        }
        let at = self.orientation.apply(square);
        match self.protocol {
            Protocol::Dgt => dgt::encode_field_update(at, piece),
            Protocol::Occupancy if self.event_lines => match piece {
                None => occupancy::encode_lift(at),
                Some(_) => occupancy::encode_place(at),
            },
            Protocol::Pegasus => pegasus::encode_change(at, piece.is_some()),
            Protocol::Millennium
            | Protocol::Eone
            | Protocol::Occupancy
            | Protocol::Chessnut
            | Protocol::ChessnutMove => self.dump(),
        }
    }

    /// Play `m` (legal in `pos`, which must be what stands on the board):
    /// the messages the board sends, one per action.
    pub fn play(&mut self, pos: &Chess, m: Move, slide: bool) -> Vec<Vec<u8>> {
        move_actions(pos, m, slide)
            .into_iter()
            .map(|a| self.act(a))
            .collect()
    }

    /// Replace everything on the board at once (pieces set up); the
    /// whole-board message.
    pub fn set_board(&mut self, board: Board) -> Vec<u8> {
        self.board = board;
        self.dump()
    }

    /// What the board answers to bytes the computer sent (board dumps and
    /// versions; other requests are acknowledged as the protocol does).
    pub fn answer(&self, request: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        if matches!(self.protocol, Protocol::Chessnut | Protocol::ChessnutMove) {
            // Commands are whole frames; the report switched on sends the
            // position at once.
            if request.starts_with(&chessnut::enable_reports()) {
                out.extend(self.dump());
            }
            return out;
        }
        for &byte in request {
            match (self.protocol, byte & 0x7f) {
                (Protocol::Dgt | Protocol::Pegasus, 0x42) => out.extend(self.dump()),
                (Protocol::Dgt, 0x4d) => out.extend(self.version()),
                (Protocol::Millennium | Protocol::Eone, b'S') => out.extend(self.dump()),
                (Protocol::Millennium | Protocol::Eone, b'V') => out.extend(self.version()),
                (Protocol::Millennium | Protocol::Eone, b'X') => {
                    out.extend(millennium::frame(b"x"))
                }
                (Protocol::Millennium | Protocol::Eone, b'L') => {
                    out.extend(millennium::frame(b"l"))
                }
                (Protocol::Occupancy, b'?') => out.extend(self.dump()),
                (Protocol::Occupancy, b'v') => out.extend(self.version()),
                _ => {}
            }
        }
        out
    }

    /// The occupied squares in the board's own numbering.
    #[cfg_attr(
        not(feature = "test-support"),
        allow(dead_code, reason = "used by tests and the board benches")
    )]
    pub fn occupied_numbered(&self) -> Bitboard {
        self.board_numbered().occupied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Sensed;
    use crate::board::event::{BoardEvent, Decoder};
    use crate::board::sensed::SensedBoard;
    use shakmaty::uci::UciMove;
    use shakmaty::{Color, Role};

    fn mv(pos: &Chess, uci: &str) -> Move {
        uci.parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(pos).ok())
            .unwrap_or_else(|| panic!("{uci} is legal in the test position"))
    }

    #[test]
    fn capture_lifts_the_captured_piece_first() {
        let pos: Chess = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
            .parse::<shakmaty::fen::Fen>()
            .ok()
            .and_then(|f| f.into_position(shakmaty::CastlingMode::Standard).ok())
            .unwrap_or_else(|| panic!("valid FEN"));
        let m = mv(&pos, "e4d5");
        assert_eq!(
            move_actions(&pos, m, false),
            vec![
                HandStep::Lift(Square::D5),
                HandStep::Lift(Square::E4),
                HandStep::Place(Square::D5, Color::White.pawn())
            ]
        );
    }

    #[test]
    fn slides_pass_over_empty_squares_and_castling_moves_king_first() {
        let pos: Chess = "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .ok()
            .and_then(|f| f.into_position(shakmaty::CastlingMode::Standard).ok())
            .unwrap_or_else(|| panic!("valid FEN"));
        let acts = move_actions(&pos, mv(&pos, "a1a4"), true);
        let placed: Vec<Square> = acts
            .iter()
            .filter_map(|a| match a {
                HandStep::Place(sq, _) => Some(*sq),
                _ => None,
            })
            .collect();
        assert_eq!(placed, vec![Square::A2, Square::A3, Square::A4]);
        let acts = move_actions(&pos, mv(&pos, "e1g1"), true);
        assert_eq!(acts[0], HandStep::Lift(Square::E1));
        // The king passes f1; the rook then jumps the king on g1.
        assert_eq!(acts[1], HandStep::Place(Square::F1, Color::White.king()));
        assert_eq!(
            acts.last(),
            Some(&HandStep::Place(Square::F1, Color::White.rook()))
        );
        assert!(!acts.contains(&HandStep::Place(Square::G1, Color::White.rook())));
    }

    #[test]
    fn promotion_places_the_new_piece() {
        let pos: Chess = "8/4P3/8/8/8/8/8/k3K3 w - - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .ok()
            .and_then(|f| f.into_position(shakmaty::CastlingMode::Standard).ok())
            .unwrap_or_else(|| panic!("valid FEN"));
        let acts = move_actions(&pos, mv(&pos, "e7e8n"), false);
        assert_eq!(
            acts.last(),
            Some(&HandStep::Place(Square::E8, Role::Knight.of(Color::White)))
        );
    }

    #[test]
    fn every_protocol_round_trips_through_its_decoder() {
        for protocol in Protocol::ALL {
            for orientation in [Orientation::Normal, Orientation::Rotated] {
                let mut sim = SimBoard::new(protocol, Board::new()).with_orientation(orientation);
                let mut dec = protocol.decoder();
                let events = dec.feed(&sim.dump());
                let expected = if protocol.identifies_pieces() {
                    SensedBoard::from_board(sim.board())
                } else {
                    SensedBoard::occupancy_of(sim.board())
                };
                assert_eq!(
                    events,
                    vec![BoardEvent::Snapshot(expected.oriented(orientation))],
                    "{protocol:?} {orientation:?}"
                );
                let bytes = sim.act(HandStep::Lift(Square::E2));
                let events = dec.feed(&bytes);
                let e2 = orientation.apply(Square::E2);
                let seen = match events.as_slice() {
                    [BoardEvent::SquareChanged { square, sensed }] => (*square, *sensed),
                    [BoardEvent::Snapshot(b)] => (e2, b.get(e2)),
                    other => panic!("{other:?}"),
                };
                assert_eq!(seen, (e2, Sensed::Empty), "{protocol:?}");
                assert_eq!(
                    dec.feed(&sim.version()).len(),
                    1,
                    "{protocol:?} version decodes"
                );
            }
        }
    }

    #[test]
    fn occupancy_event_lines() {
        let mut sim = SimBoard::new(Protocol::Occupancy, Board::new()).with_event_lines(true);
        assert_eq!(sim.act(HandStep::Lift(Square::E2)), b"lift e2\n".to_vec());
        assert_eq!(
            sim.act(HandStep::Place(Square::E4, Color::White.pawn())),
            b"place e4\n".to_vec()
        );
    }

    #[test]
    fn answers_requests() {
        let sim = SimBoard::new(Protocol::Dgt, Board::new());
        assert_eq!(sim.answer(&[0x42]), sim.dump());
        let sim = SimBoard::new(Protocol::Millennium, Board::new());
        assert_eq!(
            sim.answer(&millennium::Request::Status.encode()),
            sim.dump()
        );
        let sim = SimBoard::new(Protocol::Occupancy, Board::new());
        assert_eq!(sim.answer(b"?\n"), sim.dump());
        assert_eq!(sim.occupied_numbered(), Board::new().occupied());
    }
}
