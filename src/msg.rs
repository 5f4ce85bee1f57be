//! What happens to the app ([`Msg`]) and what it asks the outside world to
//! do ([`Effect`]).  `App::update` turns one into the other without I/O.

use crate::audio::{AudioStatus, Tone};
use crate::board::spec::SpecError;
use crate::board::{LinkEvent, PortError, Protocol, TrackerConfig};
use crate::companion::CompanionEvent;
use crate::engine::EngineIo;
use crate::scoresheet::{ExportFormat, JournalOp, JournalStatus, ResumeOffer};
use crate::speech::{SpeechStatus, Utterance};
use crate::toml_error::FileError;

/// Something that happened.
#[derive(Debug, Clone, PartialEq)]
pub enum Msg {
    /// The player typed a line and pressed Enter.
    Line(String),
    /// The input ended (end of a piped script, or Ctrl-D).
    EndOfInput,
    /// The deadline the app asked for has come.
    Deadline,
    /// The speech worker fell back to printing, or speaks again.
    Speech(SpeechStatus),
    /// The tone player lost or found its sound device.
    Audio(AudioStatus),
    /// The board's serial link: connected, bytes read, or lost.
    Board(LinkEvent),
    /// A problem found at start-up (said before the game starts).
    Problem(StartProblem),
    /// The board of the command line or the settings: opened, or why not.
    BoardChosen(BoardChoice),
    /// A key of the full-screen view, or a mouse click: an action of the
    /// one list, with what the key gives it.
    Key(crate::action::PlayerAction, crate::action::KeyArg),
    /// `?` in the full-screen view: say each action with its keys.
    KeyHelp(Vec<(crate::action::PlayerAction, String)>),
    /// The session begins: the opening sentence is said (and can be
    /// repeated).
    Start,
    /// What became of a journal operation (a failure is said once).
    Journal(JournalStatus),
    /// An unfinished game was found at start-up (or named by `hector
    /// resume`): ask, or resume it at once.
    Resume(Box<ResumeOffer>),
    /// A scoresheet asked for with `save` was written (the file), or why
    /// not.
    Exported(Result<std::path::PathBuf, SaveFailure>),
    /// The opponent's own board (`--opponent-board`): opened, or why not.
    OpponentBoardChosen(BoardChoice),
    /// The opponent's board's serial link: connected, bytes read, or lost.
    OpponentBoard(LinkEvent),
    /// The session is ended from outside: Ctrl-C, SIGTERM or SIGHUP.
    Interrupted,
    /// The engine's process: a line it wrote, its exit, or why it did not
    /// start.
    Engine(EngineIo),
    /// The opponent's screen (companion page): started or not.
    CompanionChosen(CompanionChoice),
    /// The opponent's screen: connected, disconnected, or an action of the
    /// opponent (a move, a draw offer, resignation).
    Companion(CompanionEvent),
    /// The opponent's seat was freed (after [`Effect::CompanionRelease`]);
    /// the new pairing code, when one is needed.
    CompanionReleased {
        /// The new pairing code, if the page needs one.
        code: Option<String>,
    },
    /// lichess: a stream's event, a request's answer, the link's state.
    Lichess(crate::lichess::io::LichessIo),
    /// How the broadcast push numbered `seq` ended (`--broadcast`).
    Broadcast {
        /// The push's number ([`crate::lichess::broadcast::Push::seq`]).
        seq: u64,
        /// Its answer.
        outcome: crate::lichess::broadcast::PushOutcome,
    },
}

/// The opponent's screen asked for at start-up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompanionChoice {
    /// Serving at `address` (what to open in a browser).
    Ready {
        /// The address to open in a browser.
        address: String,
        /// The pairing code, if the page needs one.
        code: Option<String>,
    },
    /// Could not listen at `address`.
    Failed {
        /// The address asked for.
        address: String,
        /// Why it could not be used.
        why: String,
    },
}

/// A problem with one of the user's files, found at start-up; the built-in
/// file is used instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartProblem {
    /// One setting of the settings file (that key keeps its default; the
    /// rest of the file is used).
    Setting(crate::toml_error::SettingError),
    /// A voices file (the built-in words are used).
    Voice(FileError),
    /// A key map (line mode's, the full-screen view's) or a theme (the
    /// built-in one is used; of the full-screen key map only the entry at
    /// fault).
    File(crate::toml_error::DataFileError),
}

/// The board asked for at start-up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardChoice {
    /// Found and opened: its session is set up by the app.
    Opened {
        /// The protocol the board speaks.
        protocol: Protocol,
        /// The port's path (named in what is said about it).
        port: String,
        /// How its moves are read (settle time, rotation).
        config: TrackerConfig,
        /// Say which piece is touched (D.2.2).
        announce_touch: bool,
    },
    /// No board: why.
    Missing(BoardProblem),
}

/// Why no board is used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardProblem {
    /// The `--board` value cannot be read.
    Spec {
        /// The value as given.
        spec: String,
        /// What is wrong with it.
        error: SpecError,
    },
    /// The port of a `--board PORT` to probe cannot be opened.
    CannotOpen {
        /// The port, as given.
        port: String,
        /// Why it could not be opened.
        error: PortError,
    },
    /// No board was found.
    NotFound,
    /// No board protocol answered on this port.
    NoAnswer {
        /// The port, as given.
        port: String,
    },
}

/// Something to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Say a sentence (and print it as one line in line mode).
    Say(Utterance),
    /// Stop the sentence being spoken now.
    Silence,
    /// Play a short tone (for players who prefer tones at these moments).
    Tone(Tone),
    /// Send these bytes to the board (a request for a dump, for updates).
    ToBoard(Vec<u8>),
    /// Write to the game's journal (and flush it to disk) before carrying
    /// out the effects after it.
    Journal(JournalOp),
    /// Save the scoresheet of the current game in this format.
    Export(ExportFormat),
    /// Save the scoresheet of the current game in this file (never over
    /// an existing one), in this format.
    ExportTo(ExportFormat, std::path::PathBuf),
    /// Send these bytes to the opponent's board.
    ToOpponentBoard(Vec<u8>),
    /// Start, feed or end the engine's process.
    Engine(EngineOrder),
    /// Free the opponent's seat on the companion page.
    CompanionRelease,
    /// Open a lichess stream or send a request (online play).
    Lichess(LichessOrder),
    /// Push the game's PGN to this lichess broadcast round; the answer
    /// comes back as [`Msg::Broadcast`] (`--broadcast`).
    BroadcastPush(
        crate::lichess::broadcast::RoundId,
        crate::lichess::broadcast::Push,
    ),
    /// End the session.
    Quit,
}

/// What the front end does for an online game on lichess (its answers
/// come back as [`Msg::Lichess`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LichessOrder {
    /// Open the account's event stream (kept open, reconnecting).
    OpenAccountStream,
    /// Open a game's stream (kept open until the game ends).
    OpenGameStream(String),
    /// Queue a request (sent one at a time).
    Send(crate::lichess::api::Request),
    /// Seek a game: a request held open until a game starts (or hector
    /// quits, which cancels it).
    Seek(crate::lichess::api::Request),
}

/// What the front end does with the engine's process (it owns it; its
/// events come back as [`Msg::Engine`] with the same generation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineOrder {
    /// Start the engine (`None`: the default, `stockfish`), ending any
    /// engine of an earlier generation.
    Start {
        /// Which engine process this is (later ones replace earlier ones).
        generation: u64,
        /// The program to run.
        program: Option<String>,
    },
    /// Write one line to the engine of this generation.
    Send {
        /// Which engine process.
        generation: u64,
        /// The UCI line.
        line: String,
    },
    /// End the engine of this generation now (it failed).
    Kill {
        /// Which engine process.
        generation: u64,
    },
}

/// Why a scoresheet asked for with `save` was not written, for the app to
/// say in the player's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SaveFailure {
    /// There is no scoresheet to save.
    NothingToSave,
    /// The folder may not be written (permissions, a read-only disk).
    NotWritable(std::path::PathBuf),
    /// The disk is full.
    DiskFull,
    /// The file named is a game's journal (never written over).
    IsJournal(std::path::PathBuf),
    /// Anything else, in the system's words.
    Other(String),
}
