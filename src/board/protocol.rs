//! The supported protocols as one type: pick a decoder, encode a command.

use serde::Deserialize;
use shakmaty::Bitboard;

use super::chessnut::{self, ChessnutDecoder};
use super::dgt::{self, DgtDecoder};
use super::event::{BoardEvent, Decoder};
use super::millennium::{self, LedPattern, MillenniumDecoder};
use super::occupancy::{self, OccupancyDecoder};
use super::pegasus::{self, PegasusDecoder};

/// A board protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// DGT e-boards (binary, identifies pieces).
    Dgt,
    /// Millennium ChessLink (ASCII with block check, identifies pieces).
    Millennium,
    /// hector's occupancy line protocol (occupancy only).
    Occupancy,
    /// The Chessnut boards over Bluetooth LE (identify pieces).
    Chessnut,
    /// The Chessnut Move: a Chessnut that moves its own pieces (and has
    /// commands of its own for its lights and battery).
    ChessnutMove,
    /// DGT's messages from a DGT Pegasus over Bluetooth LE (occupancy
    /// only).
    Pegasus,
    /// Millennium ChessLink from a Millennium eONE over Bluetooth LE
    /// (the serial boards' messages, identify pieces).
    Eone,
}

/// What the program may want a board to do, whatever its protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Command {
    /// Send the whole board now.
    SendBoard,
    /// Report changes by itself from now on.
    StartUpdates,
    /// Send the firmware version.
    Version,
    /// Light these squares (board numbering), for a sighted helper.
    ShowSquares(Bitboard),
    /// All lights off.
    LightsOff,
    /// Say the battery's charge (a wireless board).
    Battery,
}

impl Protocol {
    /// The protocols of serial ports, in the order a probe tries them.
    pub const ALL: [Protocol; 3] = [Protocol::Dgt, Protocol::Millennium, Protocol::Occupancy];
    /// The protocols only Bluetooth LE boards speak.
    pub const WIRELESS: [Protocol; 4] = [
        Protocol::Chessnut,
        Protocol::ChessnutMove,
        Protocol::Pegasus,
        Protocol::Eone,
    ];

    /// The protocol's name as written in hardware files.
    pub const fn name(self) -> &'static str {
        match self {
            Protocol::Dgt => "dgt",
            Protocol::Millennium => "millennium",
            Protocol::Occupancy => "occupancy",
            Protocol::Chessnut => "chessnut",
            Protocol::ChessnutMove => "chessnut-move",
            Protocol::Pegasus => "pegasus",
            Protocol::Eone => "eone",
        }
    }

    /// Whether the board tells which piece stands on a square (otherwise
    /// only whether the square is occupied).
    pub const fn identifies_pieces(self) -> bool {
        !matches!(self, Protocol::Occupancy | Protocol::Pegasus)
    }

    /// Whether only Bluetooth LE boards speak it.
    pub const fn is_wireless(self) -> bool {
        matches!(
            self,
            Protocol::Chessnut | Protocol::ChessnutMove | Protocol::Pegasus | Protocol::Eone
        )
    }

    /// How often the whole board is asked for while it answers: the
    /// Pegasus, whose field updates alone can miss a change (the open web
    /// client that reads it: "the Pegasus needs periodic board dump
    /// requests for reliable move detection").
    pub const fn poll_every(self) -> Option<std::time::Duration> {
        match self {
            Protocol::Pegasus => Some(std::time::Duration::from_secs(2)),
            _ => None,
        }
    }

    /// Whether the board moves its own pieces (the Chessnut Move).
    pub const fn moves_pieces(self) -> bool {
        matches!(self, Protocol::ChessnutMove)
    }

    /// A fresh decoder for what the board sends.
    pub fn decoder(self) -> AnyDecoder {
        match self {
            Protocol::Dgt => AnyDecoder::Dgt(DgtDecoder::new()),
            Protocol::Millennium | Protocol::Eone => {
                AnyDecoder::Millennium(MillenniumDecoder::new())
            }
            Protocol::Occupancy => AnyDecoder::Occupancy(OccupancyDecoder::new()),
            Protocol::Chessnut | Protocol::ChessnutMove => {
                AnyDecoder::Chessnut(ChessnutDecoder::new())
            }
            Protocol::Pegasus => AnyDecoder::Pegasus(PegasusDecoder::new()),
        }
    }

    /// The bytes that ask the board for `command`; empty when the board
    /// cannot do it (a DGT board has no lights, for instance).  Millennium
    /// boards report changes by themselves, occupancy boards always do.
    pub fn encode(self, command: Command) -> Vec<u8> {
        match (self, command) {
            // The eONE carries the serial boards' ChessLink unchanged.
            (Protocol::Eone, command) => Protocol::Millennium.encode(command),
            (Protocol::Dgt, Command::SendBoard) => dgt::Request::SendBoard.encode(),
            // Field updates, and the clock's times when they change (a board
            // with no clock sends only field updates).
            (Protocol::Dgt, Command::StartUpdates) => dgt::Request::SendUpdatesNice.encode(),
            (Protocol::Dgt, Command::Version) => dgt::Request::Version.encode(),
            (Protocol::Millennium, Command::SendBoard) => millennium::Request::Status.encode(),
            (Protocol::Millennium, Command::Version) => millennium::Request::Version.encode(),
            (Protocol::Millennium, Command::ShowSquares(squares)) => {
                millennium::Request::Leds(LedPattern::squares(squares, 0xf0)).encode()
            }
            (Protocol::Millennium, Command::LightsOff) => millennium::Request::LedsOff.encode(),
            (Protocol::Occupancy, Command::SendBoard) => occupancy::Request::SendBoard.encode(),
            (Protocol::Occupancy, Command::Version) => occupancy::Request::Version.encode(),
            // The position is sent at once and on every change once the
            // real-time report is on (Chessnut_eBoards §2).
            (Protocol::Chessnut | Protocol::ChessnutMove, Command::SendBoard) => {
                chessnut::enable_reports()
            }
            (Protocol::Chessnut | Protocol::ChessnutMove, Command::ShowSquares(squares)) => {
                chessnut::leds(squares, self.moves_pieces())
            }
            (Protocol::Chessnut | Protocol::ChessnutMove, Command::LightsOff) => {
                chessnut::leds(Bitboard::EMPTY, self.moves_pieces())
            }
            (Protocol::Chessnut | Protocol::ChessnutMove, Command::Battery) => {
                chessnut::ask_battery(self.moves_pieces())
            }
            (Protocol::Pegasus, Command::SendBoard) => dgt::Request::SendBoard.encode(),
            // Field updates of the board only (it has no clock).
            (Protocol::Pegasus, Command::StartUpdates) => dgt::Request::SendUpdatesBoard.encode(),
            (Protocol::Pegasus, Command::Version) => dgt::Request::Version.encode(),
            (Protocol::Pegasus, Command::ShowSquares(squares)) => pegasus::leds(squares),
            (Protocol::Pegasus, Command::LightsOff) => pegasus::leds(Bitboard::EMPTY),
            _ => Vec::new(),
        }
    }
}

/// A decoder of any protocol.
#[derive(Debug, Clone)]
pub enum AnyDecoder {
    Dgt(DgtDecoder),
    Millennium(MillenniumDecoder),
    Occupancy(OccupancyDecoder),
    Chessnut(ChessnutDecoder),
    Pegasus(PegasusDecoder),
}

impl Decoder for AnyDecoder {
    fn feed_into(&mut self, bytes: &[u8], out: &mut Vec<BoardEvent>) {
        match self {
            AnyDecoder::Dgt(d) => d.feed_into(bytes, out),
            AnyDecoder::Millennium(d) => d.feed_into(bytes, out),
            AnyDecoder::Occupancy(d) => d.feed_into(bytes, out),
            AnyDecoder::Chessnut(d) => d.feed_into(bytes, out),
            AnyDecoder::Pegasus(d) => d.feed_into(bytes, out),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Square;

    #[test]
    fn commands_per_protocol() {
        assert_eq!(Protocol::Dgt.encode(Command::SendBoard), vec![0x42]);
        assert_eq!(Protocol::Dgt.encode(Command::StartUpdates), vec![0x4b]);
        assert!(Protocol::Dgt.encode(Command::LightsOff).is_empty());
        let leds =
            Protocol::Millennium.encode(Command::ShowSquares(Bitboard::from_square(Square::E4)));
        assert_eq!(leds[0] & 0x7f, b'L');
        assert_eq!(
            Protocol::Occupancy.encode(Command::SendBoard),
            b"?\n".to_vec()
        );
        assert!(!Protocol::Occupancy.identifies_pieces());
        assert!(Protocol::Millennium.identifies_pieces());
    }

    #[test]
    fn any_decoder_dispatches() {
        let mut d = Protocol::Occupancy.decoder();
        assert_eq!(
            d.feed(b"version 2\n"),
            vec![BoardEvent::Version("2".into())]
        );
        let mut d = Protocol::Dgt.decoder();
        assert_eq!(
            d.feed(&[0x93, 0, 5, 1, 0]),
            vec![BoardEvent::Version("1.00".into())]
        );
    }
}
