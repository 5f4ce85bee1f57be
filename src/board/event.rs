//! What the protocol decoders report: the events every codec produces, and
//! the [`Decoder`] trait they share.

use shakmaty::Square;

use super::Sensed;
use super::dgt_clock::ClockMessage;
use super::sensed::SensedBoard;

/// One thing a board said.  Squares are in the board's own numbering
/// (as if it stood the usual way round); the tracker applies the
/// [`Orientation`](super::sensed::Orientation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardEvent {
    /// The whole board.
    Snapshot(SensedBoard),
    /// One square changed: a piece lifted (`Sensed::Empty`), placed or
    /// exchanged.
    SquareChanged { square: Square, sensed: Sensed },
    /// The board's firmware version, as text (e.g. "1.7").
    Version(String),
    /// The board's serial number, as text.
    SerialNumber(String),
    /// What a clock attached to the board says (a DGT board with a DGT
    /// 3000 or DGT XL: message 0x8d).
    Clock(ClockMessage),
    /// The board's own battery (a wireless board): its charge in percent,
    /// and whether it is charging.
    Battery { percent: u8, charging: bool },
    /// A well-formed message of a kind this program does not use (its
    /// message id byte: a Millennium `l` or `x` acknowledgement, ...).
    Other(u8),
    /// `bytes` bytes were skipped because they did not form a valid message.
    Garbage { bytes: usize, reason: GarbageReason },
}

/// Why bytes were skipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GarbageReason {
    /// Bytes outside any message (noise before a message start).
    Unframed,
    /// A header announced a length that message kind cannot have.
    BadLength,
    /// The checksum did not match.
    BadChecksum,
    /// A field held a value the protocol does not allow (piece code 13,
    /// square 70, a letter where a hex digit belongs, ...).
    BadContent,
    /// A message was cut short by the start of another.
    Interrupted,
    /// A text line grew longer than any valid line.
    TooLong,
}

/// A sans-IO protocol decoder: bytes in, events out.  Partial messages are
/// kept until the rest arrives, so feeding a stream in any split gives the
/// same events.  Never panics on any input.
pub trait Decoder {
    /// Decode `bytes`, appending the events to `out`.
    fn feed_into(&mut self, bytes: &[u8], out: &mut Vec<BoardEvent>);

    /// Decode `bytes` and return the events.
    fn feed(&mut self, bytes: &[u8]) -> Vec<BoardEvent> {
        let mut out = Vec::new();
        self.feed_into(bytes, &mut out);
        out
    }
}

/// Counts skipped noise bytes and reports them as one
/// [`BoardEvent::Garbage`] just before the next event, so that the report
/// does not depend on how the stream was split.
#[derive(Debug, Default, Clone)]
pub(crate) struct Noise {
    pending: usize,
}

impl Noise {
    /// `n` more bytes skipped.
    pub(crate) fn skip(&mut self, n: usize) {
        self.pending += n;
    }

    /// Report the skipped bytes, if any.
    pub(crate) fn flush(&mut self, out: &mut Vec<BoardEvent>) {
        if self.pending > 0 {
            out.push(BoardEvent::Garbage {
                bytes: self.pending,
                reason: GarbageReason::Unframed,
            });
            self.pending = 0;
        }
    }

    /// Report skipped bytes, then `event`.
    pub(crate) fn emit(&mut self, event: BoardEvent, out: &mut Vec<BoardEvent>) {
        self.flush(out);
        out.push(event);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_is_reported_once_before_the_next_event() {
        let mut noise = Noise::default();
        let mut out = Vec::new();
        noise.skip(2);
        noise.skip(3);
        noise.emit(BoardEvent::Other(1), &mut out);
        noise.emit(BoardEvent::Other(2), &mut out);
        assert_eq!(
            out,
            vec![
                BoardEvent::Garbage {
                    bytes: 5,
                    reason: GarbageReason::Unframed
                },
                BoardEvent::Other(1),
                BoardEvent::Other(2)
            ]
        );
    }
}
