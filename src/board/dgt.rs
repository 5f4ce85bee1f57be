//! The DGT e-board protocol (binary; the board identifies every piece).
//!
//! Serial: 9600 baud, 8 data bits, no parity, 1 stop bit.  The computer
//! sends one-byte requests ([`Request`]).  The board answers with messages
//! of a 3-byte header — id (top bit set), then the total length including
//! the header in two 7-bit bytes, high first — followed by data bytes that
//! all have the top bit clear.  So any byte with the top bit set starts a
//! message, which is how [`DgtDecoder`] resynchronises.
//!
//! Squares are numbered in reading order, 0 = a8 ... 63 = h1, as seen with
//! the board the usual way round.

use shakmaty::{Board, Color, Piece, Role, Square};

use super::Sensed;
use super::event::{BoardEvent, Decoder, GarbageReason, Noise};
use super::sensed::{SensedBoard, reading_index, reading_order, square_in_reading_order};

/// Message ids the board sends (0x80 | code).
pub mod msg {
    /// 64 piece codes, a8 first.
    pub const BOARD_DUMP: u8 = 0x86;
    /// Clock times.
    pub const BWTIME: u8 = 0x8d;
    /// One square changed: square, piece code.
    pub const FIELD_UPDATE: u8 = 0x8e;
    /// Bus address.
    pub const BUSADRES: u8 = 0x90;
    /// Five ASCII digits.
    pub const SERIALNR: u8 = 0x91;
    /// Trade mark text (any length).
    #[allow(dead_code)] // Not sent by the boards hector reads.
    pub const TRADEMARK: u8 = 0x92;
    /// Main and sub version, one byte each.
    pub const VERSION: u8 = 0x93;
    /// Ten ASCII digits.
    pub const LONG_SERIALNR: u8 = 0xa2;
}

/// The total length (header included) a message kind must have, for the
/// kinds whose length is fixed.
fn fixed_length(id: u8) -> Option<usize> {
    match id {
        msg::BOARD_DUMP => Some(67),
        msg::BWTIME => Some(10),
        msg::FIELD_UPDATE => Some(5),
        msg::BUSADRES => Some(5),
        msg::SERIALNR => Some(8),
        msg::VERSION => Some(5),
        msg::LONG_SERIALNR => Some(13),
        _ => None,
    }
}

/// What the computer can ask of a DGT board (each is one byte).
#[allow(dead_code)] // The protocol's whole vocabulary, not all of it sent yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Request {
    /// 0x40: back to idle mode, no more automatic updates.
    Reset,
    /// 0x42: send a board dump.
    SendBoard,
    /// 0x43: send field updates and clock times.
    SendUpdates,
    /// 0x44: send field updates (board only).
    SendUpdatesBoard,
    /// 0x4b: field updates, clock times only when they change.
    SendUpdatesNice,
    /// 0x45: send the serial number.
    SerialNumber,
    /// 0x4d: send the version.
    Version,
}

impl Request {
    /// The request byte.
    pub const fn byte(self) -> u8 {
        match self {
            Request::Reset => 0x40,
            Request::SendBoard => 0x42,
            Request::SendUpdates => 0x43,
            Request::SendUpdatesBoard => 0x44,
            Request::SendUpdatesNice => 0x4b,
            Request::SerialNumber => 0x45,
            Request::Version => 0x4d,
        }
    }

    /// The bytes to write.
    pub fn encode(self) -> Vec<u8> {
        vec![self.byte()]
    }
}

/// DGT piece order within a colour: pawn, rook, knight, bishop, king, queen.
const ROLES: [Role; 6] = [
    Role::Pawn,
    Role::Rook,
    Role::Knight,
    Role::Bishop,
    Role::King,
    Role::Queen,
];

/// The piece a DGT piece code stands for: `Some(None)` for 0 (empty),
/// `Some(Some(piece))` for 1..=12, `None` for anything else.
pub fn piece_from_code(code: u8) -> Option<Option<Piece>> {
    match code {
        0 => Some(None),
        1..=12 => {
            let i = usize::from(code - 1);
            let color = if i < 6 { Color::White } else { Color::Black };
            Some(Some(ROLES[i % 6].of(color)))
        }
        _ => None,
    }
}

/// The DGT piece code of `piece` (0 for empty).
pub fn piece_code(piece: Option<Piece>) -> u8 {
    match piece {
        None => 0,
        Some(p) => {
            let base = if p.color == Color::White { 1 } else { 7 };
            // ROLES holds all six roles, so the position is always found.
            let i = ROLES.iter().position(|r| *r == p.role).unwrap_or(0);
            base + i as u8
        }
    }
}

/// A message in the making.
#[derive(Debug, Clone)]
enum State {
    /// Waiting for a byte with the top bit set.
    Idle,
    /// Id and the length bytes seen so far.
    Header { id: u8, len: Vec<u8> },
    /// Header complete; collecting `total - 3` data bytes.
    Body { id: u8, total: usize, data: Vec<u8> },
}

/// Decoder for what a DGT board sends.
#[derive(Debug, Clone)]
pub struct DgtDecoder {
    state: State,
    noise: Noise,
}

impl Default for DgtDecoder {
    fn default() -> Self {
        DgtDecoder::new()
    }
}

impl DgtDecoder {
    /// A decoder waiting for the first byte.
    pub fn new() -> DgtDecoder {
        DgtDecoder {
            state: State::Idle,
            noise: Noise::default(),
        }
    }

    fn garbage(&mut self, bytes: usize, reason: GarbageReason, out: &mut Vec<BoardEvent>) {
        self.noise.emit(BoardEvent::Garbage { bytes, reason }, out);
    }

    /// A byte with the top bit set: the start of a message.  Whatever was
    /// in progress was cut short.
    fn start(&mut self, id: u8, out: &mut Vec<BoardEvent>) {
        let cut = match &self.state {
            State::Idle => 0,
            State::Header { len, .. } => 1 + len.len(),
            State::Body { data, .. } => 3 + data.len(),
        };
        if cut > 0 {
            self.garbage(cut, GarbageReason::Interrupted, out);
        }
        self.state = State::Header {
            id,
            len: Vec::with_capacity(2),
        };
    }

    fn step(&mut self, byte: u8, out: &mut Vec<BoardEvent>) {
        if byte & 0x80 != 0 {
            self.start(byte, out);
            return;
        }
        match std::mem::replace(&mut self.state, State::Idle) {
            State::Idle => self.noise.skip(1),
            State::Header { id, mut len } => {
                len.push(byte);
                if len.len() < 2 {
                    self.state = State::Header { id, len };
                    return;
                }
                let total = (usize::from(len[0]) << 7) | usize::from(len[1]);
                let impossible = total < 3 || fixed_length(id).is_some_and(|n| n != total);
                if impossible {
                    self.garbage(3, GarbageReason::BadLength, out);
                } else if total == 3 {
                    self.finish(id, &[], out);
                } else {
                    self.state = State::Body {
                        id,
                        total,
                        data: Vec::with_capacity(total - 3),
                    };
                }
            }
            State::Body {
                id,
                total,
                mut data,
            } => {
                data.push(byte);
                if data.len() + 3 == total {
                    self.finish(id, &data, out);
                } else {
                    self.state = State::Body { id, total, data };
                }
            }
        }
    }

    /// A complete message with a valid length.
    fn finish(&mut self, id: u8, data: &[u8], out: &mut Vec<BoardEvent>) {
        let total = data.len() + 3;
        match decode_message(id, data) {
            Some(event) => self.noise.emit(event, out),
            None => self.garbage(total, GarbageReason::BadContent, out),
        }
    }
}

/// The event for a complete message, None if its content is invalid.
fn decode_message(id: u8, data: &[u8]) -> Option<BoardEvent> {
    match id {
        msg::BOARD_DUMP => {
            let mut board = SensedBoard::empty();
            for (sq, code) in reading_order().zip(data) {
                let piece = piece_from_code(*code)?;
                board.set(sq, piece.map_or(Sensed::Empty, Sensed::Piece));
            }
            Some(BoardEvent::Snapshot(board))
        }
        msg::FIELD_UPDATE => {
            let square = square_in_reading_order(usize::from(*data.first()?))?;
            let piece = piece_from_code(*data.get(1)?)?;
            Some(BoardEvent::SquareChanged {
                square,
                sensed: piece.map_or(Sensed::Empty, Sensed::Piece),
            })
        }
        msg::BWTIME => super::dgt_clock::decode(data).map(BoardEvent::Clock),
        msg::VERSION => {
            let (major, minor) = (data.first()?, data.get(1)?);
            Some(BoardEvent::Version(format!("{major}.{minor:02}")))
        }
        msg::SERIALNR | msg::LONG_SERIALNR => {
            if !data.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
                return None;
            }
            let text = String::from_utf8_lossy(data).trim().to_owned();
            Some(BoardEvent::SerialNumber(text))
        }
        _ => Some(BoardEvent::Other(id)),
    }
}

impl Decoder for DgtDecoder {
    fn feed_into(&mut self, bytes: &[u8], out: &mut Vec<BoardEvent>) {
        for b in bytes {
            self.step(*b, out);
        }
    }
}

/// A message as the board would send it: id, 14-bit length, data.
fn frame(id: u8, data: &[u8]) -> Vec<u8> {
    let total = data.len() + 3;
    let mut out = Vec::with_capacity(total);
    out.push(id);
    out.push(((total >> 7) & 0x7f) as u8);
    out.push((total & 0x7f) as u8);
    out.extend_from_slice(data);
    out
}

/// What a DGT board sends for a board dump of `board` (board numbering).
pub fn encode_board_dump(board: &Board) -> Vec<u8> {
    let codes: Vec<u8> = reading_order()
        .map(|sq| piece_code(board.piece_at(sq)))
        .collect();
    frame(msg::BOARD_DUMP, &codes)
}

/// What a DGT board sends when `square` (board numbering) changes to `piece`.
pub fn encode_field_update(square: Square, piece: Option<Piece>) -> Vec<u8> {
    frame(
        msg::FIELD_UPDATE,
        &[reading_index(square) as u8, piece_code(piece)],
    )
}

/// What a DGT board sends as its version (`major`, `minor` below 128).
pub fn encode_version(major: u8, minor: u8) -> Vec<u8> {
    frame(msg::VERSION, &[major & 0x7f, minor & 0x7f])
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn start_dump() -> Vec<u8> {
        encode_board_dump(&Board::new())
    }

    #[test]
    fn requests_are_the_documented_bytes() {
        assert_eq!(Request::Reset.encode(), vec![0x40]);
        assert_eq!(Request::SendBoard.encode(), vec![0x42]);
        assert_eq!(Request::SendUpdatesBoard.encode(), vec![0x44]);
        assert_eq!(Request::Version.encode(), vec![0x4d]);
    }

    #[test]
    fn piece_codes_put_king_before_queen() {
        assert_eq!(piece_code(Some(Color::White.pawn())), 1);
        assert_eq!(piece_code(Some(Color::White.king())), 5);
        assert_eq!(piece_code(Some(Color::White.queen())), 6);
        assert_eq!(piece_code(Some(Color::Black.pawn())), 7);
        assert_eq!(piece_code(Some(Color::Black.queen())), 12);
        assert_eq!(piece_from_code(11), Some(Some(Color::Black.king())));
        assert_eq!(piece_from_code(0), Some(None));
        assert_eq!(piece_from_code(13), None);
        for code in 0..=12 {
            assert_eq!(piece_code(piece_from_code(code).flatten()), code);
        }
    }

    #[test]
    fn board_dump_starts_with_the_black_rook_on_a8() {
        let bytes = start_dump();
        assert_eq!(&bytes[..4], &[0x86, 0x00, 67, 8]);
        assert_eq!(bytes.len(), 67);
        assert_eq!(bytes[3 + 63], 2); // h1: white rook
        let events = DgtDecoder::new().feed(&bytes);
        assert_eq!(
            events,
            vec![BoardEvent::Snapshot(SensedBoard::from_board(&Board::new()))]
        );
    }

    #[test]
    fn field_update_names_the_square_and_piece() {
        let bytes = encode_field_update(Square::E4, Some(Color::White.pawn()));
        assert_eq!(bytes, vec![0x8e, 0, 5, 36, 1]);
        let events = DgtDecoder::new().feed(&[0x8e, 0, 5, 52, 0]);
        assert_eq!(
            events,
            vec![BoardEvent::SquareChanged {
                square: Square::E2,
                sensed: Sensed::Empty
            }]
        );
    }

    #[test]
    fn version_and_serial_number() {
        let mut d = DgtDecoder::new();
        assert_eq!(
            d.feed(&encode_version(1, 2)),
            vec![BoardEvent::Version("1.02".into())]
        );
        assert_eq!(
            d.feed(&frame(msg::SERIALNR, b"00137")),
            vec![BoardEvent::SerialNumber("00137".into())]
        );
        assert_eq!(
            d.feed(&frame(msg::BWTIME, &[0; 7])),
            vec![BoardEvent::Clock(
                super::super::dgt_clock::ClockMessage::Blank
            )]
        );
        // A clock message with a minute of 60 is skipped.
        assert_eq!(
            d.feed(&frame(msg::BWTIME, &[0, 0x60, 0, 0, 0, 0, 1])),
            vec![BoardEvent::Garbage {
                bytes: 10,
                reason: GarbageReason::BadContent
            }]
        );
    }

    #[test]
    fn byte_at_a_time_equals_all_at_once() {
        let mut stream = start_dump();
        stream.extend(encode_field_update(Square::E2, None));
        stream.extend([0x01, 0x02]); // noise
        stream.extend(encode_field_update(Square::E4, Some(Color::White.pawn())));
        stream.extend(encode_version(3, 7));
        let whole = DgtDecoder::new().feed(&stream);
        let mut d = DgtDecoder::new();
        let split: Vec<BoardEvent> = stream.iter().flat_map(|b| d.feed(&[*b])).collect();
        assert_eq!(whole, split);
        assert_eq!(whole.len(), 5);
    }

    #[test]
    fn impossible_lengths_are_rejected() {
        // A field update claiming 6 bytes, then a valid one.
        let mut stream = vec![0x8e, 0, 6, 1, 2, 3];
        stream.extend(encode_field_update(Square::A1, None));
        let events = DgtDecoder::new().feed(&stream);
        assert_eq!(
            events,
            vec![
                BoardEvent::Garbage {
                    bytes: 3,
                    reason: GarbageReason::BadLength
                },
                BoardEvent::Garbage {
                    bytes: 3,
                    reason: GarbageReason::Unframed
                },
                BoardEvent::SquareChanged {
                    square: Square::A1,
                    sensed: Sensed::Empty
                },
            ]
        );
        // Shorter than the header itself.
        let events = DgtDecoder::new().feed(&[0x99, 0, 2]);
        assert_eq!(
            events,
            vec![BoardEvent::Garbage {
                bytes: 3,
                reason: GarbageReason::BadLength
            }]
        );
    }

    #[test]
    fn bad_piece_codes_and_squares_are_rejected() {
        let events = DgtDecoder::new().feed(&[0x8e, 0, 5, 64, 1, 0x8e, 0, 5, 3, 13]);
        assert_eq!(
            events,
            vec![
                BoardEvent::Garbage {
                    bytes: 5,
                    reason: GarbageReason::BadContent
                },
                BoardEvent::Garbage {
                    bytes: 5,
                    reason: GarbageReason::BadContent
                },
            ]
        );
    }

    #[test]
    fn a_message_cut_short_gives_way_to_the_next() {
        let mut stream = start_dump()[..30].to_vec();
        stream.extend(encode_field_update(Square::H8, Some(Color::Black.rook())));
        let events = DgtDecoder::new().feed(&stream);
        assert_eq!(
            events,
            vec![
                BoardEvent::Garbage {
                    bytes: 30,
                    reason: GarbageReason::Interrupted
                },
                BoardEvent::SquareChanged {
                    square: Square::H8,
                    sensed: Sensed::Piece(Color::Black.rook())
                },
            ]
        );
    }

    #[test]
    fn random_garbage_between_messages_does_not_hide_them() {
        // Deterministic pseudo-random noise (xorshift) of every byte value.
        let mut x: u32 = 0x2545_f491;
        let mut stream = Vec::new();
        let messages = [
            start_dump(),
            encode_field_update(Square::E2, None),
            encode_field_update(Square::E4, Some(Color::White.pawn())),
            encode_version(1, 9),
        ];
        for round in 0..50 {
            for _ in 0..(round % 13) {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                stream.push((x >> 8) as u8);
            }
            stream.extend(&messages[round % messages.len()]);
        }
        let events = DgtDecoder::new().feed(&stream);
        let good: Vec<&BoardEvent> = events
            .iter()
            .filter(|e| !matches!(e, BoardEvent::Garbage { .. } | BoardEvent::Clock(_)))
            .collect();
        assert_eq!(good.len(), 50);
        let mut d = DgtDecoder::new();
        let split: Vec<BoardEvent> = stream.chunks(7).flat_map(|c| d.feed(c)).collect();
        assert_eq!(events, split);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        #[test]
        fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600), cut in 0usize..600) {
            let whole = DgtDecoder::new().feed(&bytes);
            let cut = cut.min(bytes.len());
            let mut d = DgtDecoder::new();
            let mut split = d.feed(&bytes[..cut]);
            split.extend(d.feed(&bytes[cut..]));
            prop_assert_eq!(whole, split);
        }
    }
}
