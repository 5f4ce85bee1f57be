//! The Millennium ChessLink protocol (ASCII; the board identifies every
//! piece).
//!
//! Serial: 38400 baud, 7 data bits, odd parity, 1 stop bit.  Every
//! message is printable ASCII followed by a block check: two upper-case hex
//! digits of the XOR of all preceding characters.  Replies use the lower-case
//! letter of the command.  Over a pseudo-terminal or a port opened as 8N1 the
//! parity bit arrives as bit 7 of each byte, so the codec does the parity
//! itself: [`MillenniumDecoder`] strips bit 7 (`& 0x7F`) of every byte it
//! reads, and every encoder here sets the odd parity bit on what it writes.
//!
//! `S` → `s` + 64 piece characters (`KQRBNP` white, `kqrbnp` black, `.`
//! empty, a8 b8 ... h8 a7 ... h1) + check.  The board may also send `s`
//! messages by itself, on every scan or on every change.

use shakmaty::{Bitboard, Board, Piece};

use super::Sensed;
use super::event::{BoardEvent, Decoder, GarbageReason, Noise};
use super::sensed::{SensedBoard, reading_order};

/// `byte` with bit 7 set or cleared so that the number of one bits is odd.
pub const fn with_odd_parity(byte: u8) -> u8 {
    let b = byte & 0x7f;
    if b.count_ones().is_multiple_of(2) {
        b | 0x80
    } else {
        b
    }
}

/// XOR of all characters (7-bit).
fn block_check(chars: &[u8]) -> u8 {
    chars.iter().fold(0, |acc, c| acc ^ (c & 0x7f))
}

/// Upper-case hex digit of the low four bits.
fn hex_digit(n: u8) -> u8 {
    b"0123456789ABCDEF"[usize::from(n & 0x0f)]
}

/// Value of one hex digit (either case).
fn hex_value(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'A'..=b'F' => Some(c - b'A' + 10),
        b'a'..=b'f' => Some(c - b'a' + 10),
        _ => None,
    }
}

fn push_hex(out: &mut Vec<u8>, n: u8) {
    out.push(hex_digit(n >> 4));
    out.push(hex_digit(n));
}

/// `chars` + block check, each byte with odd parity: ready to write.
pub fn frame(chars: &[u8]) -> Vec<u8> {
    let mut msg: Vec<u8> = chars.iter().map(|c| c & 0x7f).collect();
    let check = block_check(&msg);
    push_hex(&mut msg, check);
    msg.into_iter().map(with_odd_parity).collect()
}

/// The flash pattern of the 81 LEDs at the corners of the squares.
/// LED 1 is the a8 corner, LED 9 the a1 corner, LED 73 the h8 corner,
/// LED 81 the h1 corner (column by column from the a-file side).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LedPattern {
    /// Time slot in units of 4.096 ms.
    pub slot_time: u8,
    /// One pattern byte per LED (bit 7 first, one bit per time slot).
    pub leds: [u8; 81],
}

impl LedPattern {
    /// All LEDs off.
    pub const fn dark() -> LedPattern {
        LedPattern {
            slot_time: 0x20,
            leds: [0; 81],
        }
    }

    /// The four corner LEDs of every square in `squares` (board numbering)
    /// show `pattern` (0xFF steady, 0x0F or 0xF0 blinking).
    pub fn squares(squares: Bitboard, pattern: u8) -> LedPattern {
        let mut out = LedPattern::dark();
        for sq in squares {
            let col = sq.file().to_usize();
            let row = 7 - sq.rank().to_usize(); // 0 = the rank-8 edge
            for (c, r) in [
                (col, row),
                (col + 1, row),
                (col, row + 1),
                (col + 1, row + 1),
            ] {
                out.leds[c * 9 + r] = pattern;
            }
        }
        out
    }
}

/// What the computer can send to a Millennium board.
#[allow(dead_code)] // The protocol's whole vocabulary, not all of it sent yet.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Request {
    /// `S`: send the board status.
    Status,
    /// `V`: send the firmware version.
    Version,
    /// `X`: all LEDs off.
    LedsOff,
    /// `L`: set the LED pattern.
    Leds(LedPattern),
    /// `T`: hardware reset (no reply; the board restarts in 3 s).
    Reset,
    /// `W`: write an E2ROM option byte (e.g. address 2 = automatic reports).
    WriteE2 { address: u8, value: u8 },
}

impl Request {
    /// The bytes to write, with block check and odd parity.
    pub fn encode(&self) -> Vec<u8> {
        let mut chars = Vec::new();
        match self {
            Request::Status => chars.push(b'S'),
            Request::Version => chars.push(b'V'),
            Request::LedsOff => chars.push(b'X'),
            Request::Reset => chars.push(b'T'),
            Request::Leds(p) => {
                chars.push(b'L');
                push_hex(&mut chars, p.slot_time);
                for led in p.leds {
                    push_hex(&mut chars, led);
                }
            }
            Request::WriteE2 { address, value } => {
                chars.push(b'W');
                push_hex(&mut chars, *address);
                push_hex(&mut chars, *value);
            }
        }
        frame(&chars)
    }
}

/// The piece for a status character: `Some(None)` for `.`, None if the
/// character is not allowed.
fn piece_from_char(c: u8) -> Option<Option<Piece>> {
    match c {
        b'.' => Some(None),
        b'K' | b'Q' | b'R' | b'B' | b'N' | b'P' | b'k' | b'q' | b'r' | b'b' | b'n' | b'p' => {
            Piece::from_char(char::from(c)).map(Some)
        }
        _ => None,
    }
}

fn piece_char(piece: Option<Piece>) -> u8 {
    // `Piece::char` is always one of the ASCII letters KQRBNPkqrbnp.
    piece.map_or(b'.', |p| p.char() as u8)
}

/// Total length (reply letter, data, two check digits) of a reply.
fn reply_length(letter: u8) -> Option<usize> {
    match letter {
        b's' => Some(67),
        b'v' | b'w' | b'r' => Some(7),
        b'l' | b'x' => Some(3),
        _ => None,
    }
}

/// Whether `c` may stand at position `i` (1-based after the letter) of a
/// reply of `len` characters starting with `letter`.
fn allowed(letter: u8, len: usize, i: usize, c: u8) -> bool {
    if i >= len - 2 || letter != b's' {
        hex_value(c).is_some()
    } else {
        piece_from_char(c).is_some()
    }
}

/// Decoder for what a Millennium board sends.
#[derive(Debug, Clone, Default)]
pub struct MillenniumDecoder {
    /// Received characters (bit 7 stripped) not yet consumed.
    buf: Vec<u8>,
    /// How many characters at the start of `buf` were already reported as
    /// part of a rejected message (so they are not counted twice).
    reported: usize,
    noise: Noise,
}

impl MillenniumDecoder {
    /// A decoder waiting for the first byte.
    pub fn new() -> MillenniumDecoder {
        MillenniumDecoder::default()
    }

    /// Drop `n` characters from the front of the buffer.
    fn consume(&mut self, n: usize) {
        let n = n.min(self.buf.len());
        self.buf.drain(..n);
        self.reported = self.reported.saturating_sub(n);
    }

    /// The first character cannot start a message here: skip it.
    fn skip_one(&mut self) {
        if self.reported == 0 {
            self.noise.skip(1);
        }
        self.consume(1);
    }

    /// Decode as much of the buffer as can be decided.
    fn process(&mut self, out: &mut Vec<BoardEvent>) {
        while let Some(&letter) = self.buf.first() {
            let Some(len) = reply_length(letter) else {
                self.skip_one();
                continue;
            };
            let present = self.buf.len().min(len);
            if (1..present).any(|i| !allowed(letter, len, i, self.buf[i])) {
                self.skip_one();
                continue;
            }
            if self.buf.len() < len {
                return; // wait for the rest
            }
            let body = &self.buf[..len - 2];
            let check = hex_value(self.buf[len - 2])
                .zip(hex_value(self.buf[len - 1]))
                .map(|(h, l)| (h << 4) | l);
            if check != Some(block_check(body)) {
                if self.reported < len {
                    let unreported = len - self.reported;
                    self.noise.emit(
                        BoardEvent::Garbage {
                            bytes: unreported,
                            reason: GarbageReason::BadChecksum,
                        },
                        out,
                    );
                    self.reported = len;
                }
                // A real message may start inside the rejected one.
                self.consume(1);
                continue;
            }
            let event = decode_reply(letter, &body[1..]);
            self.noise.emit(event, out);
            self.consume(len);
        }
    }
}

/// The event for a reply whose characters and check are valid.
fn decode_reply(letter: u8, data: &[u8]) -> BoardEvent {
    let byte_at = |i: usize| -> u8 {
        let hi = data.get(i).copied().and_then(hex_value).unwrap_or(0);
        let lo = data.get(i + 1).copied().and_then(hex_value).unwrap_or(0);
        (hi << 4) | lo
    };
    match letter {
        b's' => {
            let mut board = SensedBoard::empty();
            for (sq, c) in reading_order().zip(data) {
                if let Some(Some(p)) = piece_from_char(*c) {
                    board.set(sq, Sensed::Piece(p));
                }
            }
            BoardEvent::Snapshot(board)
        }
        b'v' => BoardEvent::Version(format!("{}.{:02}", byte_at(0), byte_at(2))),
        other => BoardEvent::Other(other),
    }
}

impl Decoder for MillenniumDecoder {
    fn feed_into(&mut self, bytes: &[u8], out: &mut Vec<BoardEvent>) {
        for b in bytes {
            self.buf.push(b & 0x7f);
            self.process(out);
        }
    }
}

/// What a Millennium board sends as its status for `board` (board
/// numbering), with check and parity.
pub fn encode_status(board: &Board) -> Vec<u8> {
    let mut chars = vec![b's'];
    chars.extend(reading_order().map(|sq| piece_char(board.piece_at(sq))));
    frame(&chars)
}

/// What a Millennium board sends as its version.
pub fn encode_version(high: u8, low: u8) -> Vec<u8> {
    let mut chars = vec![b'v'];
    push_hex(&mut chars, high);
    push_hex(&mut chars, low);
    frame(&chars)
}

/// The status character for `square` in an `s` message of `bytes`
/// (test helper for the LED and orientation tests).
#[cfg(test)]
fn status_char(bytes: &[u8], square: shakmaty::Square) -> u8 {
    bytes[1 + super::sensed::reading_index(square)] & 0x7f
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use shakmaty::{Color, Square};

    fn strip(bytes: &[u8]) -> Vec<u8> {
        bytes.iter().map(|b| b & 0x7f).collect()
    }

    #[test]
    fn odd_parity_bit() {
        // 'V' = 0x56 has four one bits: parity bit set.
        assert_eq!(with_odd_parity(b'V'), 0xd6);
        // 'W' = 0x57 has five: left alone.
        assert_eq!(with_odd_parity(b'W'), 0x57);
        for b in 0..=255u8 {
            assert_eq!(with_odd_parity(b).count_ones() % 2, 1);
            assert_eq!(with_odd_parity(b) & 0x7f, b & 0x7f);
        }
    }

    #[test]
    fn version_request_matches_the_published_trace() {
        // A trace of a real board: sending "V56" is the bytes d6 b5 b6.
        assert_eq!(Request::Version.encode(), vec![0xd6, 0xb5, 0xb6]);
        assert_eq!(strip(&Request::Status.encode()), b"S53".to_vec());
        assert_eq!(strip(&Request::LedsOff.encode()), b"X58".to_vec());
    }

    #[test]
    fn version_reply_from_the_published_trace() {
        // The same trace: the board answered "v010374".
        let events = MillenniumDecoder::new().feed(b"v010374");
        assert_eq!(events, vec![BoardEvent::Version("1.03".into())]);
        assert_eq!(strip(&encode_version(1, 3)), b"v010374".to_vec());
    }

    #[test]
    fn led_pattern_lights_the_corners_of_a_square() {
        let p = LedPattern::squares(Bitboard::from_square(Square::A8), 0xff);
        let lit: Vec<usize> = (0..81).filter(|i| p.leds[*i] != 0).collect();
        assert_eq!(lit, vec![0, 1, 9, 10]);
        let p = LedPattern::squares(Bitboard::from_square(Square::H1), 0xff);
        let lit: Vec<usize> = (0..81).filter(|i| p.leds[*i] != 0).collect();
        assert_eq!(lit, vec![70, 71, 79, 80]);
        let bytes = strip(&Request::Leds(p).encode());
        assert_eq!(bytes.len(), 1 + 2 + 162 + 2);
        assert_eq!(&bytes[..3], b"L20");
        let check = block_check(&bytes[..bytes.len() - 2]);
        assert_eq!(
            &bytes[bytes.len() - 2..],
            &[hex_digit(check >> 4), hex_digit(check)]
        );
    }

    #[test]
    fn status_round_trip_with_parity() {
        let bytes = encode_status(&Board::new());
        assert_eq!(bytes.len(), 67);
        assert_eq!(status_char(&bytes, Square::A8), b'r');
        assert_eq!(status_char(&bytes, Square::E1), b'K');
        assert!(bytes.iter().all(|b| b.count_ones() % 2 == 1));
        let events = MillenniumDecoder::new().feed(&bytes);
        assert_eq!(
            events,
            vec![BoardEvent::Snapshot(SensedBoard::from_board(&Board::new()))]
        );
        // The same message without parity bits decodes the same.
        assert_eq!(MillenniumDecoder::new().feed(&strip(&bytes)), events);
    }

    #[test]
    fn bad_check_is_rejected_and_the_next_message_read() {
        let mut bad = strip(&encode_status(&Board::new()));
        bad[66] = if bad[66] == b'0' { b'1' } else { b'0' };
        bad.extend(strip(&encode_status(&Board::empty())));
        let events = MillenniumDecoder::new().feed(&bad);
        assert_eq!(
            events,
            vec![
                BoardEvent::Garbage {
                    bytes: 67,
                    reason: GarbageReason::BadChecksum
                },
                BoardEvent::Snapshot(SensedBoard::empty()),
            ]
        );
    }

    #[test]
    fn short_status_is_rejected() {
        // An `s` with only 10 piece characters, then a valid version reply.
        let mut stream = b"srnbqkbnrpp".to_vec();
        stream.extend(strip(&encode_version(2, 1)));
        let events = MillenniumDecoder::new().feed(&stream);
        assert_eq!(
            events,
            vec![
                BoardEvent::Garbage {
                    bytes: 11,
                    reason: GarbageReason::Unframed
                },
                BoardEvent::Version("2.01".into()),
            ]
        );
    }

    #[test]
    fn acknowledgements_are_other_events() {
        let mut d = MillenniumDecoder::new();
        assert_eq!(d.feed(&frame(b"x")), vec![BoardEvent::Other(b'x')]);
        assert_eq!(d.feed(&frame(b"l")), vec![BoardEvent::Other(b'l')]);
    }

    #[test]
    fn byte_at_a_time_equals_all_at_once_with_garbage() {
        let mut x: u32 = 0x9e37_79b9;
        let mut stream = Vec::new();
        let mut board = Board::new();
        let messages = [encode_status(&board), encode_version(1, 4), frame(b"x")];
        for round in 0..60 {
            for _ in 0..(round % 11) {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                stream.push((x >> 8) as u8);
            }
            board.discard_piece_at(Square::ALL[round]);
            stream.extend(encode_status(&board));
            stream.extend(&messages[round % messages.len()]);
        }
        let whole = MillenniumDecoder::new().feed(&stream);
        let mut d = MillenniumDecoder::new();
        let split: Vec<BoardEvent> = stream.iter().flat_map(|b| d.feed(&[*b])).collect();
        assert_eq!(whole, split);
        let snapshots = whole
            .iter()
            .filter(|e| matches!(e, BoardEvent::Snapshot(_)))
            .count();
        let versions = whole
            .iter()
            .filter(|e| matches!(e, BoardEvent::Version(_)))
            .count();
        assert_eq!(snapshots, 60 + 20);
        assert_eq!(versions, 20);
        // The last status shows the board emptied square by square.
        let last = whole.iter().rev().find_map(|e| match e {
            BoardEvent::Snapshot(b) => Some(*b),
            _ => None,
        });
        let mut expected = Board::new();
        for sq in &Square::ALL[..60] {
            expected.discard_piece_at(*sq);
        }
        assert_eq!(last, Some(SensedBoard::from_board(&expected)));
        assert_eq!(
            SensedBoard::from_board(&expected).get(Square::E8),
            Sensed::Piece(Color::Black.king())
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        #[test]
        fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600), cut in 0usize..600) {
            let whole = MillenniumDecoder::new().feed(&bytes);
            let cut = cut.min(bytes.len());
            let mut d = MillenniumDecoder::new();
            let mut split = d.feed(&bytes[..cut]);
            split.extend(d.feed(&bytes[cut..]));
            prop_assert_eq!(whole, split);
        }
    }
}
