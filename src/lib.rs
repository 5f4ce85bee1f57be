//! hector: a chess client for blind and visually impaired players.
//!
//! Every move is announced the FIDE Appendix D way and printed as one line
//! for screen readers and braille displays.
//!
//! # Layers and data flow
//!
//! ```text
//!  stdin, serial port, speech status, tones        (threads in main, ui, board::transport)
//!        │ Msg                                         ▲ Effect
//!        ▼                                             │
//!  ┌─ ui ──────── front ends: read input, carry out effects ───────────────┐
//!  ├─ app ─────── App::update(msg, now) -> Vec<Effect>, no I/O             │
//!  │              action, command, keymap, config, setup, msg              │
//!  ├─ phrase ──── Phraser: events -> one sentence in the player's language │
//!  ├─ board ───── codecs, tracker, session (sans-IO); transport = the port │
//!  ├─ notation ── typed moves -> Move       game ── rules over shakmaty    │
//!  └─ words ───── vocabularies, Lang, templates, fold, piece words         ┘
//!     speech, audio ── sentences and tones out; never see a chess type
//! ```
//!
//! A module only imports modules of its own layer or of the layers below
//! it: `words` imports nothing of hector (but `toml_error`); `notation` and
//! `game` stand on `words`; `board` on those; `phrase` on all of them;
//! `app` (with `action`, `command`, `keymap`, `config`, `setup`, `msg`) on
//! everything; `ui` and `main.rs` on `app`.  `speech` and `audio` are
//! beside the stack: the app hands them [`Utterance`]s and
//! [`Tone`]s through [`Effect`]s.
//!
//! Every event, the start-up included, is a [`Msg`] given to
//! [`App::update`]; everything the app wants done is an
//! [`Effect`].  What a player can ask for is one list,
//! [`Action`].
//!
//! # The folders
//!
//! - `words`: the vocabulary files (`voices/*.toml`), [`Lang`],
//!   templates, `words::fold`, piece words read back.
//! - `notation`: typed moves in every form, and errors by kind.
//! - `game`: the rules layer over shakmaty (history, endings, claims,
//!   offers); `game::rules`: the rules editions (flag fall, illegal
//!   moves, incorrect claims, rapid and blitz).
//! - `clock`: the talking clock (time controls, `--time` notation, the
//!   clock state machine, what it says and when); sans-IO, beside `game`.
//! - `board`: the tactile board (codecs, inference, mismatches, session;
//!   `transport` is the only module touching the serial port).
//! - `phrase`: the [`Phraser`], every event into one sentence.
//! - `app`: the state of the session, split by concern (`app/commands.rs`,
//!   `app/offers.rs`, `app/board.rs`); [`App::builder`] builds one
//!   without touching the file system.  `msg` holds the messages and
//!   effects; `action` the one list of actions; `command` and
//!   `keymap` read typed lines into actions (`keymaps/line.toml`);
//!   `config` and `setup` turn settings files into an app.
//! - `ui`: the front ends (line mode, [`run_line_mode`]; the full-screen
//!   view `ui::tui`, [`run_tui`]; the exports, [`write_export`]).
//! - `view`: what the screen shows, as plain data (the full-screen view
//!   and the opponent's page draw from it).
//! - `speech`: the speech worker, its queue and backends.
//! - `audio`: short generated tones on cpal, on their own thread.
//! - `scoresheet`: the journal of every game (crash-safe, resumable),
//!   exports (PGN, BRF, Unicode braille, large print, speech) and review;
//!   it stands on `game` (beside `board`), the app phrases what it reports;
//!   the front end carries out its [`JournalOp`]s with a [`Sink`].
//! - `engine`: a UCI engine for home play: the sans-IO session (through
//!   the `shakmaty-uci` crate), the process driver, evaluations in words.
//!   It stands on shakmaty only; the app drives it through `Msg`s
//!   ([`EngineOrder`] out, the engine's lines in).
//! - `companion`: the opponent's screen, sans-IO (the request reader, the
//!   pairing gate, the snapshot, the page); its events arrive as `Msg`s.
//! - `net`: the network on one tokio runtime of its own thread; the
//!   companion page's HTTP server ([`CompanionServer`]: hyper, its limits,
//!   Server-Sent Events) stands on `companion`; online play's client will
//!   share the runtime.
//!
//! # Private by default
//!
//! Every module is private to the crate; what the binary, the integration
//! tests, the benches and the fuzz targets use is re-exported below, flat,
//! by name (as shakmaty does), renamed where a name alone would be unclear
//! ([`JournalEvent`], [`PageSide`], [`CompanionLimits`]).  Items only the
//! tests, benches and fuzz targets need (journal parsing, the page's gate,
//! the view model) are re-exported under the `test-support` feature.
//!
//! The lint table in `Cargo.toml` denies `unsafe` (but where allowed by
//! name), `unwrap`/`expect` outside tests, and undocumented public items;
//! `cargo clippy --all-targets -- -D warnings` keeps it so.
//!
//! # Adding a module
//!
//! Declare it below as `mod name;` in the layer it belongs to (say which in
//! the list above), import only from that layer and the ones below, give
//! the app what it needs through a [`Msg`] variant rather than a call from
//! a thread, and re-export here only the few items the binary or the tests
//! need, documented, under names no other public item has.  A new action
//! is one [`Action`] entry (see its docs).

// The layers, bottom up (see above).  Each group is sorted by rustfmt.
mod toml_error;
mod words;

mod game;
mod notation;

// The clock: sans-IO, beside `game`.
mod clock;

// The tactile board; beside the stack, sentences and tones out.
mod board;

mod audio;
mod speech;

// The engine for home play: UCI through a crate, its process, its words.
mod engine;
// Online play's protocol (sans-IO, beside `engine`: serde only).
mod lichess;

mod companion;
mod scoresheet;

// The network: one tokio runtime on its own thread; the companion page's
// HTTP server (stands on `companion`), later online play.
mod net;

mod phrase;

mod action;
mod app;
mod command;
mod config;
mod keymap;
mod msg;
mod settings_file;
mod setup;

mod ui;
mod view;
#[cfg(windows)]
mod win_console;
#[cfg(windows)]
pub use win_console::on_console_events;

// The app and what goes in and out of it.
pub use action::Action;
pub use app::{
    App, AppBuilder, EngineSetup, OnlineStart, pgn_problem_sentence, start_error_sentence,
};
pub use msg::{
    BoardChoice, BoardProblem, CompanionChoice, Effect, EngineOrder, Msg, SaveFailure, StartProblem,
};
// Start-up: settings, files, the command line.
pub use config::{
    BoardSettings, ColourChoice, CompanionSettings, Config, EngineConfig, parse_colour,
};
pub use keymap::Keymap;
pub use setup::{Overrides, Started, WordsOverrides, start};
// The settings reader start-up uses (each bad key reported, the rest kept),
// for the fuzz target.
#[cfg(any(test, feature = "test-support"))]
pub use settings_file::read as read_settings;
pub use toml_error::FileError;
// Words, moves, the game, the sentences.
pub use game::{Claim, Game, GameResult};
pub use notation::{InputError, Reader};
pub use phrase::{Form, MoveOptions, MoveStyle, Phraser};
pub use words::Lang;
pub use words::vocab::builtin_appendix_d;
// The front end.
pub use ui::lichess::{
    DEFAULT_URL as LICHESS_URL, LichessLink, find_token as find_lichess_token,
    login as lichess_login, logout as lichess_logout,
};
pub use ui::line::{Outputs, PromptMode, run as run_line_mode};
// The player's board.
pub use board::cli::{
    BoardSpec, Probed, SimOptions, description as board_description, find_board,
    list_lines as board_list, parse_spec as parse_board_spec, probe as probe_board, run_sim,
};
pub use board::dgt::DgtDecoder;
pub use board::dgt_clock::{ClockReading as DgtClockReading, ClockSide as DgtClockSide};
pub use board::millennium::MillenniumDecoder;
pub use board::mismatch::diff as board_diff;
pub use board::occupancy::OccupancyDecoder;
pub use board::protocol::Command as BoardCommand;
pub use board::sensed::SensedBoard;
pub use board::sim::{Action as SimAction, SimBoard};
pub use board::transport::{Link, Master, PortError, PortSettings, pseudo_board};
pub use board::{
    BoardSession, Decoder, LinkEvent, Protocol, Sensed, SquareDiff, Tracker, TrackerConfig,
};
// Speech and sound.
pub use audio::{
    AudioStatus, BellSink, Tone, TonePlayer, ToneSettings, terminal_bell, terminal_bell_if_tty,
};
#[cfg(any(test, feature = "test-support"))]
pub use speech::fake::{FakeCall, FakeControl};
pub use speech::{
    BackendFactory, FallBack, Part, Priority, SayKind, SpeechMode, SpeechRoute, SpeechStatus,
    SpeechWorker, Utterance, WorkerConfig, list_voices, say_once, say_utterance_once,
    system_factory, voices_by_language, voices_summary,
};
// The engine: its settings, and what its process tells the app
// ([`Msg::Engine`]); its sans-IO session and process driver for the tests.
#[cfg(any(test, feature = "test-support"))]
pub use engine::{
    EngineCommand, EngineEvent, EngineProcess, EngineSession, Limit as SearchLimit,
    OptionNote as EngineOptionNote, Purpose as SearchPurpose, Score as EngineScore, SearchRequest,
    SearchResult, Timeouts as EngineTimeouts, Waiting as EngineWaiting, Wanted as EngineWanted,
};
pub use engine::{
    EngineIo, EngineSettings, ExitInfo as EngineExit, Fault as EngineFault, ProcessEvent,
    Strength as EngineStrength,
};
// The talking clock.
#[cfg(any(test, feature = "test-support"))]
pub use clock::words::{both as clock_both_times, moves as clock_moves_played};
// The scoresheet: the games' store, resuming, exports, review.
#[cfg(any(test, feature = "test-support"))]
pub use scoresheet::braille::{LINES as BRAILLE_LINES, to_brf, to_unicode as to_braille_unicode};
#[cfg(any(test, feature = "test-support"))]
pub use scoresheet::journal::Journal;
pub use scoresheet::journal::JournalError;
#[cfg(any(test, feature = "test-support"))]
pub use scoresheet::pgn::to_pgn;
#[cfg(any(test, feature = "test-support"))]
pub use scoresheet::record::parse_journal;
pub use scoresheet::record::{ClockEvent, Event as JournalEvent};
#[cfg(any(test, feature = "test-support"))]
pub use scoresheet::replay::{
    Note as RecordNote, Resumed, continuation as journal_continuation, replay,
};
pub use scoresheet::review::PgnFile;
pub use scoresheet::start::{from_fen as start_from_fen, from_pgn as start_from_pgn};
pub use scoresheet::{
    ExportFormat, GameId, GameRecord, GameSummary, JournalErrorKind, JournalOp, JournalStatus,
    ResumeChoice, ResumeOffer, Sink, StartInfo, Store,
};
pub use ui::export::{
    ExportError, record_of as export_record_of, write as write_export,
    write_to_stdout as export_to_stdout,
};
// The opponent's screen (the companion page).
pub use companion::{
    CompanionEvent, Limits as CompanionLimits, MoveInput, OpponentAction, PageLabels, Pairing,
    Snapshot,
};
pub use net::companion::{
    CompanionConfig, CompanionServer, DEFAULT_LISTEN, ServerLimits as CompanionServerLimits,
};
// The parts of a snapshot, named for the page they are shown on.
#[cfg(any(test, feature = "test-support"))]
pub use companion::gate::Answer as GateAnswer;
#[cfg(any(test, feature = "test-support"))]
pub use companion::gate::{Gate, GateConfig};
#[cfg(any(test, feature = "test-support"))]
pub use companion::request::parse as parse_companion_request;
#[cfg(any(test, feature = "test-support"))]
pub use companion::snapshot::page_squares;
pub use companion::{
    Clocks as PageClocks, Flash as PageFlash, FlashKind as PageFlashKind, GameEnd as PageGameEnd,
    LastMove as PageLastMove, LegalMove as PageLegalMove, Notice as PageNotice, Side as PageSide,
    Tactile as PageTactile,
};
#[cfg(any(test, feature = "test-support"))]
pub use net::companion::bytes_in::serve as serve_companion_bytes;
// The full-screen view.
#[cfg(any(test, feature = "test-support"))]
pub use ui::tui::render::render as render_tui;
pub use ui::tui::run::run as run_tui;
pub use ui::tui::setup::load as load_tui;
pub use ui::tui::{KeyMap as TuiKeyMap, Look};
#[cfg(any(test, feature = "test-support"))]
pub use view::PieceStyle;
#[cfg(any(test, feature = "test-support"))]
pub use view::{BoardInfo, ClockView, LinkState, UiState, View, ViewInput};
