//! The blind player's tactile or electronic board: sans-IO protocol codecs,
//! inference of moves from sensor reports, and the comparison of the board
//! with the game (FIDE D.2.9).
//!
//! - [`dgt`], [`millennium`], [`occupancy`] — sans-IO codecs, bytes in,
//!   [`BoardEvent`](event::BoardEvent)s out ([`Decoder`](event::Decoder)), plus the requests the program sends
//!   and what each board sends (used by [`sim`]).  [`Protocol`] picks one.
//! - [`dgt_clock`] — the clock message of a DGT board with a DGT 3000
//!   attached (times, flags, the lever), decoded and encoded.
//! - [`sensed`] — [`Sensed`] (one square as the sensors see it),
//!   [`SensedBoard`](sensed::SensedBoard) (the whole board) and
//!   [`Orientation`](sensed::Orientation) (a board turned
//!   round), the one place squares are translated.
//! - [`infer`] — the [`Tracker`](infer::Tracker), pure, `now` passed in: events in,
//!   [`Inferred`] moves, touches, take-backs, mismatches out.
//! - [`awaited`] — a move made by other means (keyboard, engine, companion
//!   page) that the player must make on the board: the [`Instruction`] and
//!   which board states lead to it.
//! - [`session`] — the [`BoardSession`]: the link's [`LinkState`] (what is
//!   known about the port), the decoder and the tracker glued together.
//! - [`link`] — what the serial thread hands over: [`LinkEvent`] and
//!   [`PortError`], plain data (the app names no I/O module).
//! - [`transport`] — the serial port itself, its thread, probing; the only
//!   module that touches `serialport`.
//! - [`mismatch`] — the ordered [`SquareDiff`] list and when it changed.
//! - [`hardware`] — the `hardware/*.toml` board descriptions.
//! - [`sim`] — a simulated board producing each protocol's exact bytes.
//! - [`spec`] — the `--board` value ([`BoardSpec`](spec::BoardSpec)), read
//!   without I/O.
//! - [`cli`] — the board commands of the command line (list, probe, the
//!   simulator); they read stdin and touch ports.

pub mod awaited;
pub mod cli;
pub mod dgt;
pub mod dgt_clock;
pub mod event;
pub mod hardware;
pub mod infer;
pub mod link;
pub mod millennium;
pub mod mismatch;
pub mod occupancy;
pub mod protocol;
pub mod sensed;
pub mod session;
pub mod sim;
pub mod spec;
pub mod transport;

pub use awaited::Instruction;
#[cfg(any(test, feature = "test-support"))]
pub use event::Decoder;
#[cfg(any(test, feature = "test-support"))]
pub use infer::Tracker;
pub use infer::{Inferred, TrackerConfig};
pub use link::{LinkEvent, PortError};
pub use mismatch::SquareDiff;
pub use protocol::Protocol;
pub use sensed::Sensed;
pub use session::{BoardSession, LinkState, SessionNote};
