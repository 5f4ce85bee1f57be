//! The Chessnut boards' framing (Air, Air+, Go, Pro, and the Move that
//! moves its own pieces): sans-IO, notifications in, [`BoardEvent`]s out,
//! and the commands hector writes.
//!
//! From the maker's own descriptions, `chessnutech/Chessnut_eBoards`
//! (README, "Chessnut Move Chess Board API Documentation … including Air,
//! Air+, Go, Pro") and `chessnutech/chess_move_api` (README, the Move):
//!
//! - The position arrives on the characteristic `1b7e8262-…` as a 36-byte
//!   notification: `01 24`, then 32 bytes of 4 bits a square, then two
//!   bytes (eBoards §2).  The squares run h8, g8, … a8, h7, … a1; the low
//!   nibble of a byte is the first of its two squares.  Piece codes: 0
//!   empty, 1 q, 2 k, 3 b, 4 p, 5 n, 6 R, 7 P, 8 r, 9 B, 10 N, 11 Q, 12 K.
//! - Commands go to `1b7e8272-…` as `[command, length, payload…]`; their
//!   answers come on `1b7e8273-…` in the same shape.
//! - `21 01 00` turns the real-time position report on (eBoards §2).
//! - `29 01 00` asks for the battery; the answer is `2a 02 level 00`, bit
//!   7 of the level set while charging, bits 0–6 the percentage (eBoards
//!   §4).  The Move asks with `41 01 0c` and answers `41 03 0c charging
//!   level` (chess_move_api §5).
//! - LEDs (Air and its kin): `0a 08` and 8 bytes, one a rank from 8 down to
//!   1, a bit a square (eBoards §3); the bit of the a-file is bit 7, of the
//!   h-file bit 0 (the order "h to a" from bit 0 up, as the open-source
//!   drivers that set them write it).  The Move: `43 20` and 32 bytes of a
//!   nibble a square in the position's order, 0 off, 1 red, 2 green, 3 blue
//!   (chess_move_api §4).
//! - The Move moves its pieces to a position: `42 21`, the 32 position
//!   bytes, and a flag, 0 "force" or 1 "stop when a hand moves a piece";
//!   position reports pause while it moves (chess_move_api §3).
//!
//! Each notification is a whole message, and the link hands them on in
//! order, so the decoder reads a stream of `[id, length, payload]` frames
//! (the position's frame has its fixed 36 bytes whatever its length byte
//! says) and, like the serial codecs, gives the same events however the
//! stream is split.

use shakmaty::{Bitboard, Board, Color, File, Piece, Rank, Role, Square};

use crate::board::Sensed;
use crate::board::event::{BoardEvent, Decoder, GarbageReason, Noise};
use crate::board::sensed::SensedBoard;

/// The first byte of a position report.
pub const POSITION: u8 = 0x01;
/// The whole position report, header and the two bytes after the squares
/// included.
pub const POSITION_LEN: usize = 36;
/// The first byte of the Air's battery answer.
pub const BATTERY: u8 = 0x2a;
/// The first byte of the Move's answers (battery `0c`, pieces `0b`).
pub const MOVE_ANSWER: u8 = 0x41;
/// The Move's battery sub-command.
const MOVE_BATTERY: u8 = 0x0c;

/// The pieces in the order of their codes 1 to 12 (code 0 is empty).
const PIECES: [(Color, Role); 12] = [
    (Color::Black, Role::Queen),
    (Color::Black, Role::King),
    (Color::Black, Role::Bishop),
    (Color::Black, Role::Pawn),
    (Color::Black, Role::Knight),
    (Color::White, Role::Rook),
    (Color::White, Role::Pawn),
    (Color::Black, Role::Rook),
    (Color::White, Role::Bishop),
    (Color::White, Role::Knight),
    (Color::White, Role::Queen),
    (Color::White, Role::King),
];

/// The piece a Chessnut code stands for: `Some(None)` for 0 (empty),
/// `Some(Some(piece))` for 1..=12, `None` for 13 to 15.
pub fn piece_from_code(code: u8) -> Option<Option<Piece>> {
    match code {
        0 => Some(None),
        1..=12 => {
            let (color, role) = PIECES[usize::from(code - 1)];
            Some(Some(role.of(color)))
        }
        _ => None,
    }
}

/// The Chessnut code of `piece` (0 for empty).
pub fn piece_code(piece: Option<Piece>) -> u8 {
    piece
        .and_then(|p| {
            PIECES
                .iter()
                .position(|(c, r)| *c == p.color && *r == p.role)
        })
        .map_or(0, |i| i as u8 + 1)
}

/// The square at position `index` (0..64) of the Chessnut's order: h8,
/// g8, … a8, h7, … a1.
pub fn square_at(index: usize) -> Option<Square> {
    if index >= 64 {
        return None;
    }
    let rank = Rank::new(7 - (index / 8) as u32);
    let file = File::new(7 - (index % 8) as u32);
    Some(Square::from_coords(file, rank))
}

/// The 64 squares in the Chessnut's order.
pub fn squares_in_order() -> impl Iterator<Item = Square> {
    (0..64).filter_map(square_at)
}

/// 32 bytes of a nibble a square (low nibble first), in the Chessnut's
/// order, from `nibble(square)`.
fn pack(mut nibble: impl FnMut(Square) -> u8) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (i, sq) in squares_in_order().enumerate() {
        let n = nibble(sq) & 0x0f;
        out[i / 2] |= if i % 2 == 0 { n } else { n << 4 };
    }
    out
}

/// The 32 position bytes for `board`.
pub fn position_bytes(board: &Board) -> [u8; 32] {
    pack(|sq| piece_code(board.piece_at(sq)))
}

/// The position report a Chessnut sends for `board` (for the simulated
/// boards of the tests and the fuzz seeds).
pub fn encode_position(board: &Board) -> Vec<u8> {
    let mut out = Vec::with_capacity(POSITION_LEN);
    out.extend([POSITION, 0x24]);
    out.extend(position_bytes(board));
    out.extend([0, 0]);
    out
}

/// The Air's battery answer for `percent` (0..=100), `charging` or not.
#[cfg(test)]
pub fn encode_battery(percent: u8, charging: bool) -> Vec<u8> {
    let level = percent.min(100) | if charging { 0x80 } else { 0 };
    vec![BATTERY, 0x02, level, 0]
}

/// Turn the real-time position report on (eBoards §2).
pub fn enable_reports() -> Vec<u8> {
    vec![0x21, 0x01, 0x00]
}

/// Ask for the battery level: the Air's form, or the Move's.
pub fn ask_battery(moves_pieces: bool) -> Vec<u8> {
    if moves_pieces {
        vec![MOVE_ANSWER, 0x01, MOVE_BATTERY]
    } else {
        vec![0x29, 0x01, 0x00]
    }
}

/// Light `squares` (all others off): the Air's one-bit form, or the Move's
/// coloured form (green, the colour of "to do").
pub fn leds(squares: Bitboard, moves_pieces: bool) -> Vec<u8> {
    if moves_pieces {
        let mut out = vec![0x43, 0x20];
        out.extend(pack(|sq| if squares.contains(sq) { 2 } else { 0 }));
        return out;
    }
    let mut out = vec![0x0a, 0x08];
    for rank in Rank::ALL.into_iter().rev() {
        let mut byte = 0u8;
        for file in File::ALL {
            if squares.contains(Square::from_coords(file, rank)) {
                byte |= 0x80 >> file.to_u32();
            }
        }
        out.push(byte);
    }
    out
}

/// The Move: move the pieces until the board shows `board`; a hand on a
/// piece stops it (the "non-force" flag, chess_move_api §3: a blind
/// player's hands may be on the board).
pub fn move_to(board: &Board) -> Vec<u8> {
    let mut out = vec![0x42, 0x21];
    out.extend(position_bytes(board));
    out.push(1);
    out
}

/// A frame in the making.
#[derive(Debug, Clone, Default)]
struct Frame {
    bytes: Vec<u8>,
}

impl Frame {
    /// How long the frame is, once its first two bytes are known.
    fn total(&self) -> Option<usize> {
        match self.bytes.as_slice() {
            [POSITION, ..] => Some(POSITION_LEN),
            [_, len, ..] => Some(2 + usize::from(*len)),
            _ => None,
        }
    }
}

/// Decoder for what a Chessnut board notifies.
#[derive(Debug, Clone, Default)]
pub struct ChessnutDecoder {
    frame: Frame,
    noise: Noise,
}

impl ChessnutDecoder {
    /// A decoder waiting for the first byte.
    pub fn new() -> ChessnutDecoder {
        ChessnutDecoder::default()
    }

    fn step(&mut self, byte: u8, out: &mut Vec<BoardEvent>) {
        self.frame.bytes.push(byte);
        let Some(total) = self.frame.total() else {
            return;
        };
        if self.frame.bytes.len() < total {
            return;
        }
        let bytes = std::mem::take(&mut self.frame.bytes);
        match decode_frame(&bytes) {
            Some(event) => self.noise.emit(event, out),
            None => self.noise.emit(
                BoardEvent::Garbage {
                    bytes: bytes.len(),
                    reason: GarbageReason::BadContent,
                },
                out,
            ),
        }
    }
}

/// The event of one whole frame; None when its content is invalid.
fn decode_frame(bytes: &[u8]) -> Option<BoardEvent> {
    match bytes {
        [POSITION, 0x24, rest @ ..] => {
            let mut board = SensedBoard::empty();
            for (i, sq) in squares_in_order().enumerate() {
                let byte = rest.get(i / 2)?;
                let code = if i % 2 == 0 { byte & 0x0f } else { byte >> 4 };
                let piece = piece_from_code(code)?;
                board.set(sq, piece.map_or(Sensed::Empty, Sensed::Piece));
            }
            Some(BoardEvent::Snapshot(board))
        }
        [POSITION, ..] => None,
        [BATTERY, 0x02, level, _] => battery(*level & 0x7f, *level & 0x80 != 0),
        [MOVE_ANSWER, 0x03, MOVE_BATTERY, charging, level] => battery(*level, *charging == 1),
        [id, ..] => Some(BoardEvent::Other(*id)),
        [] => None,
    }
}

fn battery(percent: u8, charging: bool) -> Option<BoardEvent> {
    (percent <= 100).then_some(BoardEvent::Battery { percent, charging })
}

impl Decoder for ChessnutDecoder {
    fn feed_into(&mut self, bytes: &[u8], out: &mut Vec<BoardEvent>) {
        for b in bytes {
            self.step(*b, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;

    fn board(fen: &str) -> Board {
        fen.parse::<Fen>()
            .unwrap_or_else(|e| panic!("{fen}: {e}"))
            .into_setup()
            .board
    }

    #[test]
    fn the_makers_example_reads_h8_first_low_nibble_first() {
        // The starting position as the eBoards README's JavaScript reads it:
        // byte 2 holds h8 (low nibble) and g8 (high nibble): r and n.
        let bytes = encode_position(&Board::new());
        assert_eq!(bytes.len(), 36);
        assert_eq!(&bytes[..2], &[0x01, 0x24]);
        assert_eq!(bytes[2], 0x58, "h8 rook (8) low, g8 knight (5) high");
        assert_eq!(bytes[3], 0x23, "f8 bishop (3) low, e8 king (2) high");
        // Rank 1 (the last four bytes): h1 R (6), g1 N (10), f1 B (9), e1 K
        // (12), d1 Q (11), c1 B, b1 N, a1 R.
        assert_eq!(&bytes[30..34], &[0xa6, 0xc9, 0x9b, 0x6a]);
        let events = ChessnutDecoder::new().feed(&bytes);
        assert_eq!(
            events,
            vec![BoardEvent::Snapshot(SensedBoard::from_board(&Board::new()))]
        );
    }

    #[test]
    fn every_code_round_trips_and_13_to_15_are_refused() {
        for code in 0..=12 {
            assert_eq!(piece_code(piece_from_code(code).flatten()), code);
        }
        assert_eq!(piece_from_code(13), None);
        let mut bytes = encode_position(&Board::new());
        bytes[10] = 0xf0; // a square with code 15
        assert_eq!(
            ChessnutDecoder::new().feed(&bytes),
            vec![BoardEvent::Garbage {
                bytes: 36,
                reason: GarbageReason::BadContent
            }]
        );
    }

    #[test]
    fn any_split_gives_the_same_events() {
        let b = board("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
        let mut stream = encode_position(&b);
        stream.extend(encode_battery(57, true));
        stream.extend(encode_position(&Board::empty()));
        let whole = ChessnutDecoder::new().feed(&stream);
        assert_eq!(
            whole,
            vec![
                BoardEvent::Snapshot(SensedBoard::from_board(&b)),
                BoardEvent::Battery {
                    percent: 57,
                    charging: true
                },
                BoardEvent::Snapshot(SensedBoard::empty()),
            ]
        );
        for cut in 1..stream.len() {
            let mut d = ChessnutDecoder::new();
            let mut got = d.feed(&stream[..cut]);
            got.extend(d.feed(&stream[cut..]));
            assert_eq!(got, whole, "cut at {cut}");
        }
        let mut d = ChessnutDecoder::new();
        let one_by_one: Vec<BoardEvent> = stream.iter().flat_map(|b| d.feed(&[*b])).collect();
        assert_eq!(one_by_one, whole);
    }

    #[test]
    fn battery_answers_of_the_air_and_the_move() {
        assert_eq!(
            ChessnutDecoder::new().feed(&[0x2a, 0x02, 0x0f, 0x00]),
            vec![BoardEvent::Battery {
                percent: 15,
                charging: false
            }]
        );
        assert_eq!(
            ChessnutDecoder::new().feed(&[0x41, 0x03, 0x0c, 0x01, 0x50]),
            vec![BoardEvent::Battery {
                percent: 80,
                charging: true
            }]
        );
        // Over 100 is no percentage.
        assert!(matches!(
            ChessnutDecoder::new().feed(&[0x2a, 0x02, 0x7f, 0x00])[..],
            [BoardEvent::Garbage { .. }]
        ));
        // An answer hector does not read is well formed all the same.
        assert_eq!(
            ChessnutDecoder::new().feed(&[0x23, 0x01, 0x00]),
            vec![BoardEvent::Other(0x23)]
        );
    }

    #[test]
    fn commands() {
        assert_eq!(enable_reports(), [0x21, 0x01, 0x00]);
        assert_eq!(ask_battery(false), [0x29, 0x01, 0x00]);
        assert_eq!(ask_battery(true), [0x41, 0x01, 0x0c]);
        let e2e4 = Bitboard::from_square(Square::E2) | Bitboard::from_square(Square::E4);
        let air = leds(e2e4, false);
        assert_eq!(air.len(), 10);
        assert_eq!(&air[..2], &[0x0a, 0x08]);
        // Rank 4 is the fifth byte after the header, rank 2 the seventh;
        // the e-file is bit 3 (a = bit 7).
        assert_eq!(&air[2..], &[0, 0, 0, 0, 0x08, 0, 0x08, 0]);
        assert_eq!(
            leds(Bitboard::EMPTY, false),
            [0x0a, 0x08, 0, 0, 0, 0, 0, 0, 0, 0]
        );
        let a8 = leds(Bitboard::from_square(Square::A8), false);
        assert_eq!(a8[2], 0x80);
        let h1 = leds(Bitboard::from_square(Square::H1), false);
        assert_eq!(h1[9], 0x01);
        let mv = leds(Bitboard::from_square(Square::H8), true);
        assert_eq!(mv.len(), 34);
        assert_eq!(&mv[..3], &[0x43, 0x20, 0x02]);
        let target = move_to(&Board::new());
        assert_eq!(target.len(), 35);
        assert_eq!(&target[..2], &[0x42, 0x21]);
        assert_eq!(&target[2..34], &position_bytes(&Board::new()));
        assert_eq!(target[34], 1);
    }
}
