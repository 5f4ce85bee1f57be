//! The DGT Pegasus's framing: DGT's serial messages carried over the
//! Nordic UART service, occupancy only.  Sans-IO.
//!
//! - The Pegasus speaks the DGT board protocol of [`dgt`](crate::board::dgt)
//!   (requests `0x42` board, `0x44` updates; messages `0x86` board dump,
//!   `0x8e` field update) through the Nordic UART service
//!   `6e400001-b5a3-f393-e0a9-e50e24dcca9e`: written to `…0002`, notified
//!   from `…0003` (DGTCentaurMods' Pegasus client and emulator).
//! - Its sensors know only whether a square is occupied: the board dump
//!   and the field updates carry 0 (empty) or 1 (occupied) where a DGT
//!   e-board carries a piece code (the open web client of the Pegasus that
//!   reads it, "Pegasus: occupancy (0=empty, 1=occupied)"), so what it says
//!   is read as occupancy and the tracker (`infer`) works out the
//!   moves, as for a home-built occupancy board.
//! - It answers only after the developer key `63 07 be f5 ae dd a9 5f 00`
//!   (DGT's published Pegasus key, sent before anything else by the same
//!   client: "must complete BEFORE …, 0x42 … would get 0x7F garbage
//!   pre-auth").
//! - LEDs: `60 len 05 speed blink intensity squares… 00` lights squares
//!   (DGT numbering, a8 = 0), `60 02 00 00` puts them out (same client).

use shakmaty::Bitboard;

use crate::board::dgt::DgtDecoder;
use crate::board::event::{BoardEvent, Decoder};
use crate::board::sensed::reading_index;

/// The key that unlocks a Pegasus, written once after connecting.
pub const DEVELOPER_KEY: [u8; 9] = [0x63, 0x07, 0xbe, 0xf5, 0xae, 0xdd, 0xa9, 0x5f, 0x00];

/// The LED command for `squares`: steady light (speed 3, no blinking,
/// intensity 2), or all off for none.
pub fn leds(squares: Bitboard) -> Vec<u8> {
    if squares.is_empty() {
        return vec![0x60, 0x02, 0x00, 0x00];
    }
    let indices: Vec<u8> = squares
        .into_iter()
        .map(|s| reading_index(s) as u8)
        .collect();
    let mut out = vec![0x60, 5 + indices.len() as u8, 0x05, 0x03, 0x00, 0x02];
    out.extend(indices);
    out.push(0x00);
    out
}

/// Decoder for what a Pegasus notifies: DGT messages, every square read as
/// empty or occupied.
#[derive(Debug, Clone, Default)]
pub struct PegasusDecoder {
    dgt: DgtDecoder,
    events: Vec<BoardEvent>,
}

impl PegasusDecoder {
    /// A decoder waiting for the first byte.
    pub fn new() -> PegasusDecoder {
        PegasusDecoder::default()
    }
}

impl Decoder for PegasusDecoder {
    fn feed_into(&mut self, bytes: &[u8], out: &mut Vec<BoardEvent>) {
        self.events.clear();
        self.dgt.feed_into(bytes, &mut self.events);
        out.extend(self.events.drain(..).map(|e| match e {
            BoardEvent::Snapshot(board) => BoardEvent::Snapshot(board.to_occupancy()),
            BoardEvent::SquareChanged { square, sensed } => BoardEvent::SquareChanged {
                square,
                sensed: sensed.to_occupancy(),
            },
            other => other,
        }));
    }
}

/// What a Pegasus sends for a board with `occupied` squares: a DGT board
/// dump of 0s and 1s (for the simulated boards of the tests and seeds).
pub fn encode_occupancy(occupied: Bitboard) -> Vec<u8> {
    let mut out = vec![0x86, 0x00, 67];
    out.extend(crate::board::sensed::reading_order().map(|sq| u8::from(occupied.contains(sq))));
    out
}

/// What a Pegasus sends when `square` is emptied or occupied.
pub fn encode_change(square: shakmaty::Square, occupied: bool) -> Vec<u8> {
    vec![
        0x8e,
        0x00,
        5,
        reading_index(square) as u8,
        u8::from(occupied),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Sensed;
    use crate::board::sensed::SensedBoard;

    fn is_occupancy(sensed: Sensed) -> bool {
        !matches!(sensed, Sensed::Piece(_))
    }
    use shakmaty::{Board, Square};

    #[test]
    fn ones_and_zeros_are_occupancy() {
        let occupied = Board::new().occupied();
        let mut d = PegasusDecoder::new();
        let events = d.feed(&encode_occupancy(occupied));
        assert_eq!(
            events,
            vec![BoardEvent::Snapshot(SensedBoard::from_occupied(occupied))]
        );
        let events = d.feed(&encode_change(Square::E2, false));
        assert_eq!(
            events,
            vec![BoardEvent::SquareChanged {
                square: Square::E2,
                sensed: Sensed::Empty
            }]
        );
        let events = d.feed(&encode_change(Square::E4, true));
        assert_eq!(
            events,
            vec![BoardEvent::SquareChanged {
                square: Square::E4,
                sensed: Sensed::Occupied
            }]
        );
        // Split anywhere, the same.
        let mut stream = encode_occupancy(occupied);
        stream.extend(encode_change(Square::G1, false));
        let whole = PegasusDecoder::new().feed(&stream);
        for cut in 1..stream.len() {
            let mut d = PegasusDecoder::new();
            let mut got = d.feed(&stream[..cut]);
            got.extend(d.feed(&stream[cut..]));
            assert_eq!(got, whole);
        }
        assert!(whole.iter().all(|e| match e {
            BoardEvent::Snapshot(b) => b.iter().all(|(_, s)| is_occupancy(s)),
            BoardEvent::SquareChanged { sensed, .. } => is_occupancy(*sensed),
            _ => false,
        }));
    }

    #[test]
    fn led_commands() {
        assert_eq!(leds(Bitboard::EMPTY), [0x60, 0x02, 0x00, 0x00]);
        let e2e4 = Bitboard::from_square(Square::E2) | Bitboard::from_square(Square::E4);
        // e2 is 52 and e4 36 in DGT numbering (a8 = 0); the bitboard gives
        // them a1-first: e2 before e4.
        assert_eq!(
            leds(e2e4),
            [0x60, 0x07, 0x05, 0x03, 0x00, 0x02, 52, 36, 0x00]
        );
    }
}
