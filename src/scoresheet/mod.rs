//! The scoresheet: the legal record of a game (FIDE 8.1, D.2.7, D.2.9).
//!
//! - [`record`]: the journal's line format, one event a line, sans-IO
//!   (formatting, parsing, torn-record detection).
//! - [`journal`]: one journal file per game in the user's data directory,
//!   appended and flushed to disk (fsync) before an event is announced;
//!   disk full or an unwritable directory keeps the records in memory and
//!   retries.
//! - [`replay`]: a journal read back into the game it records (resume), and
//!   into a [`replay::GameRecord`] for the exports.
//! - [`pgn`], [`braille`], [`text`], [`speech`]: the exports.
//! - [`review`]: PGN files read with pgn-reader for review, `--pgn` and
//!   `--fen` starting games.
//!
//! Nothing here speaks: errors and warnings are values; the app phrases
//! them in the player's language.

pub mod braille;
pub mod journal;
pub mod pgn;
pub mod record;
pub mod replay;
pub mod review;
pub mod speech;
pub mod start;
pub mod text;

pub use journal::{GameId, Journal, JournalError, JournalErrorKind, Store};
pub use record::{ClockEvent, Event, Penalty, Record, StartInfo};
pub use replay::{GameRecord, Resumed, replay};
