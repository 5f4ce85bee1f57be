//! The scoresheet: the legal record of a game (FIDE 8.1, D.2.7, D.2.9).
//!
//! - [`record`]: the journal's line format, one event a line, sans-IO
//!   (formatting, parsing, torn-record detection).
//! - [`journal`]: one journal file per game in the user's data directory,
//!   appended and flushed to disk (fsync) before an event is announced;
//!   disk full or an unwritable directory keeps the records in memory and
//!   retries.
//! - [`mod@replay`]: a journal read back into the game it records (resume), and
//!   into a [`replay::GameRecord`] for the exports.
//! - [`pgn`], [`braille`], [`text`], [`speech`]: the exports.
//! - [`review`]: PGN files read with pgn-reader for review, `--pgn` and
//!   `--fen` starting games.
//! - [`verify`]: a journal checked record by record: whole, torn, broken
//!   (where and why), the digest it ends with, its mode, the questions.
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
pub mod verify;

pub use journal::{
    GameId, GameSummary, JournalErrorKind, JournalOp, JournalStatus, Listing, NotAGame, NotPlain,
    OtherFile, Sink, Store, not_plain,
};
pub use record::{Event, StartInfo};
pub use replay::{GameRecord, ResumeChoice, ResumeOffer, Resumed, replay};

/// The export formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum ExportFormat {
    /// PGN, for every chess program.
    Pgn,
    /// Braille Ready Format (North American Braille ASCII), for embossers
    /// and notetakers.
    Brf,
    /// The same cells as Unicode braille, for braille displays.
    Braille,
    /// Large-print text: the moves as spoken, times, (=) marks, claims, penalties and how the game ended.
    Text,
    /// The whole game spoken, as a WAV file (espeak-ng).
    Speech,
}

impl ExportFormat {
    /// Every export format.
    pub const ALL: [ExportFormat; 5] = [
        ExportFormat::Pgn,
        ExportFormat::Brf,
        ExportFormat::Braille,
        ExportFormat::Text,
        ExportFormat::Speech,
    ];

    /// The format's name (also its word after `save`).
    pub fn name(self) -> &'static str {
        match self {
            ExportFormat::Pgn => "pgn",
            ExportFormat::Brf => "brf",
            ExportFormat::Braille => "braille",
            ExportFormat::Text => "text",
            ExportFormat::Speech => "speech",
        }
    }

    /// The file name ending.
    pub fn extension(self) -> &'static str {
        match self {
            ExportFormat::Pgn => "pgn",
            ExportFormat::Brf => "brf",
            ExportFormat::Braille => "braille.txt",
            ExportFormat::Text => "text.txt",
            ExportFormat::Speech => "wav",
        }
    }

    /// A format by its name, any case.
    pub fn from_name(s: &str) -> Option<ExportFormat> {
        let s = s.trim().to_ascii_lowercase();
        ExportFormat::ALL.into_iter().find(|f| f.name() == s)
    }
}
