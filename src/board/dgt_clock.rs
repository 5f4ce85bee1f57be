//! The clock message of a DGT board with a clock attached (DGT 3000, DGT
//! XL): message 0x8d (`DGT_MSG_BWTIME`), 7 data bytes.  Sans-IO: the
//! [`DgtDecoder`](super::dgt::DgtDecoder) frames the message and calls
//! [`decode`]; [`encode`] writes what a board sends, for the simulator.
//!
//! The clock knows only a left and a right player, seen from its front;
//! which of them is White is for the game to decide (the side whose time
//! runs while White is to move).
//!
//! ```text
//! byte 0  right player: bits 0-3 hours (0-9), bit 4 flag fallen and the
//!         time blocked at zero, bit 5 time-per-move indicator (Fischer,
//!         Bronstein), bit 6 flag fallen and shown (the clock may run on
//!         into its next period)
//! byte 1  right player's minutes, BCD
//! byte 2  right player's seconds, BCD
//! byte 3-5 the same for the left player
//! byte 6  status: bit 0 running (not stopped with start/stop), bit 1
//!         lever high on the right (the right player's time runs; clear:
//!         high on the left), bit 2 battery low, bit 5 no clock connected
//! ```
//!
//! A DGT 3000 also answers its commands in this message: an hours nibble
//! of 0xa in byte 0 or byte 3 marks an acknowledgement, not times.  A
//! message with all six time bytes zero is sent by a clock that shows no
//! times (switched off, or in its menu).
//!
//! Sources (read, not copied): DGT's `dgtbrd.h` as revised in 2011, which
//! swapped left and right in this message, and two independent drivers
//! that read the lever bit the same way (bit 1 set: right side high).

use std::time::Duration;

use super::dgt::msg;

/// The two sides of the clock, seen from its front.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClockSide {
    /// The left side.
    Left,
    /// The right side.
    Right,
}

impl std::ops::Not for ClockSide {
    type Output = ClockSide;
    fn not(self) -> ClockSide {
        match self {
            ClockSide::Left => ClockSide::Right,
            ClockSide::Right => ClockSide::Left,
        }
    }
}

/// One reading of the clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClockReading {
    /// The left player's time.
    pub left: Duration,
    /// The right player's time.
    pub right: Duration,
    /// The left player's flag has fallen.
    pub left_flag: bool,
    /// The right player's flag has fallen.
    pub right_flag: bool,
    /// The clock runs (not stopped with its start/stop button).
    pub running: bool,
    /// The side whose lever is high: that player's time runs (when the
    /// clock runs).
    pub high: ClockSide,
    /// The clock's battery is low.
    pub battery_low: bool,
}

impl ClockReading {
    /// The side whose time runs; none when the clock is stopped.
    pub fn running_side(&self) -> Option<ClockSide> {
        self.running.then_some(self.high)
    }

    /// The time of one side.
    pub fn time(&self, side: ClockSide) -> Duration {
        match side {
            ClockSide::Left => self.left,
            ClockSide::Right => self.right,
        }
    }

    /// Whether one side's flag has fallen.
    pub fn flag(&self, side: ClockSide) -> bool {
        match side {
            ClockSide::Left => self.left_flag,
            ClockSide::Right => self.right_flag,
        }
    }
}

/// What a clock message says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClockMessage {
    /// The times and the lever.
    Reading(ClockReading),
    /// The board has no clock connected: the times mean nothing.
    NoClock,
    /// A clock that shows no times (all zero, no flag).
    Blank,
    /// A DGT 3000 acknowledging a command.
    Ack,
}

/// A BCD byte (two digits) up to `max`.
fn bcd(b: u8, max: u8) -> Option<u8> {
    let (hi, lo) = (b >> 4, b & 0x0f);
    if hi > 9 || lo > 9 {
        return None;
    }
    let v = hi * 10 + lo;
    (v <= max).then_some(v)
}

/// One side's time and flag from its three bytes.
fn side(hours: u8, minutes: u8, seconds: u8) -> Option<(Duration, bool)> {
    let h = hours & 0x0f;
    if h > 9 {
        return None;
    }
    let m = bcd(minutes, 59)?;
    let s = bcd(seconds, 59)?;
    let flag = hours & 0x50 != 0;
    let t = u64::from(h) * 3600 + u64::from(m) * 60 + u64::from(s);
    Some((Duration::from_secs(t), flag))
}

/// Decode the 7 data bytes of a clock message; `None` if they are not a
/// valid one (a BCD digit above 9, 60 minutes, 10 hours, a length other
/// than 7).
pub fn decode(data: &[u8]) -> Option<ClockMessage> {
    let [r0, r1, r2, l0, l1, l2, status] = *data else {
        return None;
    };
    if r0 & 0x0f == 0x0a || l0 & 0x0f == 0x0a {
        return Some(ClockMessage::Ack);
    }
    if status & 0x20 != 0 {
        return Some(ClockMessage::NoClock);
    }
    if data[..6].iter().all(|b| *b == 0) {
        return Some(ClockMessage::Blank);
    }
    let (right, right_flag) = side(r0, r1, r2)?;
    let (left, left_flag) = side(l0, l1, l2)?;
    Some(ClockMessage::Reading(ClockReading {
        left,
        right,
        left_flag,
        right_flag,
        running: status & 0x01 != 0,
        high: if status & 0x02 != 0 {
            ClockSide::Right
        } else {
            ClockSide::Left
        },
        battery_low: status & 0x04 != 0,
    }))
}

fn to_bcd(v: u64) -> u8 {
    // v < 100 here; both digits fit a nibble.
    let v = u8::try_from(v % 100).unwrap_or(0);
    ((v / 10) << 4) | (v % 10)
}

fn side_bytes(d: Duration, flag: bool) -> [u8; 3] {
    let s = d.as_secs().min(9 * 3600 + 59 * 60 + 59);
    let mut h = u8::try_from(s / 3600).unwrap_or(9);
    if flag {
        h |= 0x10;
    }
    [h, to_bcd(s / 60 % 60), to_bcd(s % 60)]
}

/// The whole message (header and data) a board sends for `reading`: for
/// the simulated board and tests.  Times are whole seconds (a fraction is
/// dropped, as the clock shows it), at most 9:59:59.
pub fn encode(reading: &ClockReading) -> Vec<u8> {
    let mut out = vec![msg::BWTIME, 0, 10];
    out.extend(side_bytes(reading.right, reading.right_flag));
    out.extend(side_bytes(reading.left, reading.left_flag));
    let mut status = 0u8;
    if reading.running {
        status |= 0x01;
    }
    if reading.high == ClockSide::Right {
        status |= 0x02;
    }
    if reading.battery_low {
        status |= 0x04;
    }
    out.push(status);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::dgt::DgtDecoder;
    use crate::board::event::{BoardEvent, Decoder};

    fn reading() -> ClockReading {
        ClockReading {
            left: Duration::from_secs(4 * 60 + 12),
            right: Duration::from_secs(3600 + 30 * 60 + 5),
            left_flag: false,
            right_flag: false,
            running: true,
            high: ClockSide::Left,
            battery_low: false,
        }
    }

    #[test]
    fn times_lever_and_flags_are_read() {
        // Right 1:30:05, left 0:04:12, running, the lever high on the left.
        let data = [0x01, 0x30, 0x05, 0x00, 0x04, 0x12, 0x01];
        let Some(ClockMessage::Reading(r)) = decode(&data) else {
            panic!("a reading");
        };
        assert_eq!(r, reading());
        assert_eq!(r.running_side(), Some(ClockSide::Left));
        assert_eq!(r.time(ClockSide::Right), Duration::from_secs(5405));
        // Bit 1: the lever high on the right; the left flag down (blocked
        // at zero), battery low, stopped.
        let data = [0x01, 0x30, 0x05, 0x10, 0x00, 0x00, 0x06];
        let Some(ClockMessage::Reading(r)) = decode(&data) else {
            panic!("a reading");
        };
        assert!(r.left_flag && !r.right_flag && r.battery_low);
        assert!(r.flag(ClockSide::Left));
        assert_eq!(r.high, ClockSide::Right);
        assert_eq!(r.running_side(), None);
        // A flag shown while the clock runs on into its next period (bit 6).
        let data = [0x41, 0x00, 0x00, 0x00, 0x04, 0x12, 0x03];
        let Some(ClockMessage::Reading(r)) = decode(&data) else {
            panic!("a reading");
        };
        assert!(r.right_flag && !r.left_flag);
        assert_eq!(r.running_side(), Some(ClockSide::Right));
        // The time-per-move indicator (bit 5) is no flag.
        let data = [0x21, 0x00, 0x00, 0x20, 0x04, 0x12, 0x01];
        let Some(ClockMessage::Reading(r)) = decode(&data) else {
            panic!("a reading");
        };
        assert!(!r.right_flag && !r.left_flag);
        assert_eq!(r.right, Duration::from_secs(3600));
    }

    #[test]
    fn acknowledgements_no_clock_blank_and_bad_bytes() {
        assert_eq!(decode(&[0x0a, 0, 0, 0, 0, 0, 0]), Some(ClockMessage::Ack));
        assert_eq!(decode(&[0, 0, 0, 0x1a, 0, 0, 0]), Some(ClockMessage::Ack));
        assert_eq!(
            decode(&[0, 0, 0, 0, 0, 0, 0x20]),
            Some(ClockMessage::NoClock)
        );
        assert_eq!(decode(&[0, 0, 0, 0, 0, 0, 0x01]), Some(ClockMessage::Blank));
        assert_eq!(decode(&[0, 0x60, 0, 0, 0, 1, 0]), None, "60 minutes");
        assert_eq!(decode(&[0, 0x0b, 0, 0, 0, 1, 0]), None, "not BCD");
        assert_eq!(decode(&[0x0b, 0, 0, 0, 0, 1, 0]), None, "11 hours");
        assert_eq!(decode(&[0, 0, 0, 0, 0, 0]), None, "6 bytes");
    }

    #[test]
    fn encode_then_decode_through_the_board_decoder() {
        let bytes = encode(&reading());
        assert_eq!(bytes.len(), 10);
        assert_eq!(decode(&bytes[3..]), Some(ClockMessage::Reading(reading())));
        let right_high = ClockReading {
            high: ClockSide::Right,
            right_flag: true,
            ..reading()
        };
        assert_eq!(
            decode(&encode(&right_high)[3..]),
            Some(ClockMessage::Reading(right_high))
        );
        // The board decoder frames it as the clock message.
        assert_eq!(
            DgtDecoder::new().feed(&bytes),
            vec![BoardEvent::Clock(ClockMessage::Reading(reading()))]
        );
    }

    #[test]
    fn any_seven_bytes_decode_without_panic() {
        for a in 0..=255u8 {
            for b in [0u8, 0x09, 0x59, 0x5a, 0x99, 0xff] {
                if let Some(ClockMessage::Reading(r)) = decode(&[a, b, b, a, b, a, b]) {
                    assert!(r.left.max(r.right) < Duration::from_secs(10 * 3600));
                }
            }
        }
    }
}
