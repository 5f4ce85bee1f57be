//! hector's occupancy line protocol, for home-built tactile boards whose
//! reed or Hall sensors know only which squares are occupied.  The full
//! specification is `hardware/OCCUPANCY.md`; in short, the board sends
//! text lines ending in `\n` (a `\r` before it is ignored):
//!
//! - 64 characters `0`/`1`, a8 b8 ... h8 a7 ... h1 (`1` = occupied); spaces
//!   and `/` between them are allowed and ignored.  Sent on every change
//!   and when asked with `?`.
//! - `lift e2` / `place e4`: one square emptied / filled (optional).
//! - `version <text>`: the answer to `v`.
//! - empty lines and lines starting with `#` are ignored.
//!
//! The computer sends `?` (send the board) and `v` (send the version), each
//! followed by a newline the board may ignore.

use shakmaty::{Bitboard, Square};

use super::Sensed;
use super::event::{BoardEvent, Decoder, GarbageReason, Noise};
use super::sensed::{SensedBoard, reading_order};

/// The longest line kept; longer lines keep only their last part.
pub const MAX_LINE: usize = 160;

/// What the computer can ask of an occupancy board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Request {
    /// `?`: send the full board line.
    SendBoard,
    /// `v`: send a `version` line.
    Version,
}

impl Request {
    /// The bytes to write.
    pub fn encode(self) -> Vec<u8> {
        match self {
            Request::SendBoard => b"?\n".to_vec(),
            Request::Version => b"v\n".to_vec(),
        }
    }
}

/// Why one line is not a valid message.
enum LineError {
    /// Only `0`/`1` but not 64 of them.
    WrongCount,
    /// Anything else.
    Invalid,
}

/// One complete line (without the newline), as an event; `Ok(None)` for
/// lines to ignore.
fn parse_line(line: &[u8]) -> Result<Option<BoardEvent>, LineError> {
    let text = std::str::from_utf8(line).map_err(|_| LineError::Invalid)?;
    let text = text.trim();
    if text.is_empty() || text.starts_with('#') {
        return Ok(None);
    }
    if let Some(rest) = text.strip_prefix("version ") {
        return Ok(Some(BoardEvent::Version(rest.trim().to_owned())));
    }
    let lower = text.to_ascii_lowercase();
    for (word, sensed) in [("lift ", Sensed::Empty), ("place ", Sensed::Occupied)] {
        if let Some(rest) = lower.strip_prefix(word) {
            let square: Square = rest.trim().parse().map_err(|_| LineError::Invalid)?;
            return Ok(Some(BoardEvent::SquareChanged { square, sensed }));
        }
    }
    if !text.bytes().all(|b| matches!(b, b'0' | b'1' | b' ' | b'/')) {
        return Err(LineError::Invalid);
    }
    let bits: Vec<bool> = text
        .bytes()
        .filter(|b| matches!(b, b'0' | b'1'))
        .map(|b| b == b'1')
        .collect();
    if bits.len() != 64 {
        return Err(LineError::WrongCount);
    }
    let mut board = SensedBoard::empty();
    for (sq, on) in reading_order().zip(bits) {
        if on {
            board.set(sq, Sensed::Occupied);
        }
    }
    Ok(Some(BoardEvent::Snapshot(board)))
}

/// A valid message at the end of `line` after noise: it starts after the
/// last byte that cannot belong to a board line, or at the last event word.
/// Returns the length of the noise and the event.
fn salvage(line: &[u8]) -> Option<(usize, BoardEvent)> {
    let mut starts = Vec::new();
    if let Some(last_bad) = line
        .iter()
        .rposition(|b| !matches!(b, b'0' | b'1' | b' ' | b'/'))
    {
        starts.push(last_bad + 1);
    }
    for word in [&b"lift "[..], b"place ", b"version "] {
        if let Some(pos) = line.windows(word.len()).rposition(|w| w == word) {
            starts.push(pos);
        }
    }
    starts.sort_unstable_by(|a, b| b.cmp(a));
    starts
        .into_iter()
        .filter(|s| *s > 0 && *s < line.len())
        .find_map(|s| match parse_line(&line[s..]) {
            Ok(Some(event)) => Some((s, event)),
            _ => None,
        })
}

/// Decoder for the occupancy line protocol.
#[derive(Debug, Clone, Default)]
pub struct OccupancyDecoder {
    line: Vec<u8>,
    /// Bytes of the current line dropped because it grew too long.
    dropped: usize,
    noise: Noise,
}

impl OccupancyDecoder {
    /// A decoder waiting for the first byte.
    pub fn new() -> OccupancyDecoder {
        OccupancyDecoder::default()
    }

    fn end_of_line(&mut self, out: &mut Vec<BoardEvent>) {
        let line = std::mem::take(&mut self.line);
        let dropped = std::mem::take(&mut self.dropped);
        let line: &[u8] = line.strip_suffix(b"\r").unwrap_or(&line);
        let error = match parse_line(line) {
            Ok(event) if dropped == 0 => {
                if let Some(event) = event {
                    self.noise.emit(event, out);
                }
                return;
            }
            Ok(_) => GarbageReason::TooLong,
            Err(LineError::WrongCount) => GarbageReason::BadLength,
            Err(LineError::Invalid) => GarbageReason::BadContent,
        };
        if let Some((start, event)) = salvage(line) {
            self.noise.skip(dropped + start);
            self.noise.emit(event, out);
            return;
        }
        let reason = if dropped > 0 {
            GarbageReason::TooLong
        } else {
            error
        };
        self.noise.emit(
            BoardEvent::Garbage {
                bytes: dropped + line.len() + 1,
                reason,
            },
            out,
        );
    }
}

impl Decoder for OccupancyDecoder {
    fn feed_into(&mut self, bytes: &[u8], out: &mut Vec<BoardEvent>) {
        for &b in bytes {
            if b == b'\n' {
                self.end_of_line(out);
                continue;
            }
            self.line.push(b);
            if self.line.len() > MAX_LINE {
                self.line.remove(0);
                self.dropped += 1;
            }
        }
    }
}

/// The board line for `occupied`, as the board sends it.
pub fn encode_line(occupied: Bitboard) -> Vec<u8> {
    let mut out: Vec<u8> = reading_order()
        .map(|sq| if occupied.contains(sq) { b'1' } else { b'0' })
        .collect();
    out.push(b'\n');
    out
}

/// `lift <square>` line.
pub fn encode_lift(square: Square) -> Vec<u8> {
    format!("lift {square}\n").into_bytes()
}

/// `place <square>` line.
pub fn encode_place(square: Square) -> Vec<u8> {
    format!("place {square}\n").into_bytes()
}

/// `version <text>` line.
pub fn encode_version(text: &str) -> Vec<u8> {
    format!("version {text}\n").into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use shakmaty::Board;

    fn start() -> SensedBoard {
        SensedBoard::occupancy_of(&Board::new())
    }

    #[test]
    fn start_position_line() {
        let line = encode_line(Board::new().occupied());
        assert_eq!(&line[..16], b"1111111111111111");
        assert_eq!(&line[16..48], [b'0'; 32]);
        assert_eq!(line.len(), 65);
        let events = OccupancyDecoder::new().feed(&line);
        assert_eq!(events, vec![BoardEvent::Snapshot(start())]);
    }

    #[test]
    fn separators_and_crlf_are_allowed() {
        let text = b"11111111/11111111/00000000/00000000/00000000/00000000/11111111/11111111\r\n";
        let events = OccupancyDecoder::new().feed(text);
        assert_eq!(events, vec![BoardEvent::Snapshot(start())]);
        let text = b"11111111 11111111 00000000 00000000 00000000 00000000 11111111 11111111\n";
        assert_eq!(OccupancyDecoder::new().feed(text), events);
    }

    #[test]
    fn lift_place_version_and_comments() {
        let events = OccupancyDecoder::new()
            .feed(b"# hello from the sketch\n\nlift e2\nPLACE E4\nversion hector-peg 1\n");
        assert_eq!(
            events,
            vec![
                BoardEvent::SquareChanged {
                    square: Square::E2,
                    sensed: Sensed::Empty
                },
                BoardEvent::SquareChanged {
                    square: Square::E4,
                    sensed: Sensed::Occupied
                },
                BoardEvent::Version("hector-peg 1".into()),
            ]
        );
    }

    #[test]
    fn wrong_number_of_squares_is_rejected() {
        let events = OccupancyDecoder::new().feed(b"0101\nlift z9\n");
        assert_eq!(
            events,
            vec![
                BoardEvent::Garbage {
                    bytes: 5,
                    reason: GarbageReason::BadLength
                },
                BoardEvent::Garbage {
                    bytes: 8,
                    reason: GarbageReason::BadContent
                },
            ]
        );
    }

    #[test]
    fn noise_before_a_line_is_skipped() {
        let mut stream = vec![0xff, b'x', 0x13];
        stream.extend(encode_line(Board::new().occupied()));
        stream.extend(b"\x01\x02lift a1\n");
        let events = OccupancyDecoder::new().feed(&stream);
        assert_eq!(
            events,
            vec![
                BoardEvent::Garbage {
                    bytes: 3,
                    reason: GarbageReason::Unframed
                },
                BoardEvent::Snapshot(start()),
                BoardEvent::Garbage {
                    bytes: 2,
                    reason: GarbageReason::Unframed
                },
                BoardEvent::SquareChanged {
                    square: Square::A1,
                    sensed: Sensed::Empty
                },
            ]
        );
    }

    #[test]
    fn overlong_lines_are_dropped() {
        let mut stream = vec![b'1'; 1000];
        stream.push(b'\n');
        stream.extend(encode_lift(Square::H8));
        let events = OccupancyDecoder::new().feed(&stream);
        assert_eq!(
            events,
            vec![
                BoardEvent::Garbage {
                    bytes: 1001,
                    reason: GarbageReason::TooLong
                },
                BoardEvent::SquareChanged {
                    square: Square::H8,
                    sensed: Sensed::Empty
                },
            ]
        );
    }

    #[test]
    fn requests() {
        assert_eq!(Request::SendBoard.encode(), b"?\n".to_vec());
        assert_eq!(Request::Version.encode(), b"v\n".to_vec());
        assert_eq!(encode_place(Square::E4), b"place e4\n".to_vec());
    }

    #[test]
    fn byte_at_a_time_equals_all_at_once_with_garbage() {
        let mut x: u32 = 0x1234_5678;
        let mut stream = Vec::new();
        let mut occupied = Board::new().occupied();
        for round in 0..40 {
            for _ in 0..(round % 9) {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                let b = (x >> 8) as u8;
                stream.push(if b == b'\n' { b'?' } else { b });
            }
            // Noise ends at a byte no board line can contain, or at a newline.
            stream.push(if round % 2 == 0 { b'x' } else { b'\n' });
            occupied.toggle(Square::ALL[round]);
            stream.extend(encode_line(occupied));
            stream.extend(encode_place(Square::ALL[round]));
        }
        let whole = OccupancyDecoder::new().feed(&stream);
        let mut d = OccupancyDecoder::new();
        let split: Vec<BoardEvent> = stream.iter().flat_map(|b| d.feed(&[*b])).collect();
        assert_eq!(whole, split);
        let good = whole
            .iter()
            .filter(|e| !matches!(e, BoardEvent::Garbage { .. }))
            .count();
        assert_eq!(good, 80);
        let last = whole.iter().rev().find_map(|e| match e {
            BoardEvent::Snapshot(b) => Some(b.occupied()),
            _ => None,
        });
        assert_eq!(last, Some(occupied));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        #[test]
        fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600), cut in 0usize..600) {
            let whole = OccupancyDecoder::new().feed(&bytes);
            let cut = cut.min(bytes.len());
            let mut d = OccupancyDecoder::new();
            let mut split = d.feed(&bytes[..cut]);
            split.extend(d.feed(&bytes[cut..]));
            prop_assert_eq!(whole, split);
        }

        #[test]
        fn random_text_gives_the_same_events_byte_by_byte(text in "[01 /lifteplacv#\\n\\r0-9a-h]{0,300}") {
            let whole = OccupancyDecoder::new().feed(text.as_bytes());
            let mut d = OccupancyDecoder::new();
            let split: Vec<BoardEvent> = text.bytes().flat_map(|b| d.feed(&[b])).collect();
            prop_assert_eq!(whole, split);
        }
    }
}
