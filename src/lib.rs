//! hector: a chess client for blind and visually impaired players.
//!
//! Every move is announced the FIDE Appendix D way and printed as one line
//! for screen readers and braille displays.
//!
//! # Layers and data flow
//!
//! ```text
//!  stdin, keys, serial port, speech status, tones, the page's server
//!        │ Msg (through the runtime's one channel)      ▲ Effect
//!        ▼                                              │
//!  front     ui ──────── the front ends: show what is said, read the player
//!  run       runtime net ── one loop, one effect dispatcher, the threads
//!            feeding it; the network on its own thread
//!  start     setup ───── what was typed and the settings files, resolved
//!  app       app ─────── App::update(msg, now) -> Vec<Effect>, no I/O
//!  input     action keymap command config settings_file msg
//!  page      companion ── the opponent's page, sans-IO
//!  sentences phrase view export ── one sentence per event; the screen as
//!            data; a scoresheet export written to a file
//!  devices   board scoresheet engine lichess ── each sans-IO at its core
//!  rules     clock game notation
//!  words     words ───── vocabularies, Lang, templates, folding
//!  base      toml_error audio speech win_console ── name no other module
//! ```
//!
//! A module names (imports, or links to in its docs) only modules of its
//! own layer, never in a circle, and of the layers below.  The list is
//! `LAYERS` in `tests/layers.rs` (CONTRIBUTING.md shows it); that test
//! reads every `crate::` path under `src/` and fails on one that looks up.
//! Some choices the list makes: the clock knows no chess type, so it stands
//! below `game` (whose rules editions pick by its category); `speech` and
//! `audio` take sentences and tones and never see a chess type; the
//! companion page is below the app, which drives it with messages, and its
//! server (`net`) stands above the app beside the runtime: what crosses an
//! I/O edge is owned by the sans-IO module below it (`lichess::io`,
//! `board::link`, the engine's session), so the app names no I/O module.
//!
//! Every event, the start-up included, is a [`Msg`] given to
//! [`App::update`]; everything the app wants done is an [`Effect`].  What a
//! player can ask for is one list, [`PlayerAction`].
//!
//! # The folders
//!
//! - `words`: the vocabulary files (`voices/*.toml`), [`Lang`], templates,
//!   `words::fold`, piece words read back.
//! - `clock`: the talking clock (time controls, `--time` notation, the
//!   clock state machine, what it says and when); sans-IO.
//! - `notation`: typed moves in every form, and errors by kind.
//! - `game`: the rules layer over shakmaty (history, endings, claims,
//!   offers); `game::rules`: the rules editions (flag fall, illegal moves,
//!   incorrect claims, rapid and blitz).
//! - `board`: the tactile board (codecs, inference, mismatches, session,
//!   the `--board` value; `transport` is the only module touching the
//!   serial port, `gatt` the only one touching Bluetooth LE (btleplug),
//!   `link` what they hand to the app, `cli` holds the board commands of
//!   the command line).
//! - `scoresheet`: the journal of every game (crash-safe, resumable),
//!   exports (PGN, BRF, Unicode braille, large print, speech) and review;
//!   the front end carries out its journal operations with a [`Sink`].
//! - `engine`: a UCI engine for home play: the sans-IO session (through the
//!   `shakmaty-uci` crate) and what the process hands it, the process
//!   driver, evaluations in words.
//! - `lichess`: online play's protocol, sans-IO: the two NDJSON streams
//!   decoded, a game kept in step with the server, when a request may go,
//!   what the network tells the app (`lichess::io`).
//! - `phrase`: the [`Phraser`], every event into one sentence.
//! - `view`: what the screen shows, as plain data (the full-screen view and
//!   the opponent's page draw from it).
//! - `companion`: the opponent's screen, sans-IO (the request reader, the
//!   pairing gate, the snapshot, the page); its events arrive as `Msg`s.
//! - `action`, `keymap`, `command`: the one table of actions (where each
//!   is allowed, what it needs, its key group) and the typed lines read
//!   into them (`keymaps/line.toml`); `config`, `settings_file`:
//!   the settings and their reader (each bad key reported, the rest kept);
//!   `msg`: the messages and effects.
//! - `app`: the session: the game, its one stream of changes, the one
//!   dispatch of what the player asks for, and the parts that follow the
//!   game, each handling what reaches it; [`App::builder`] builds one
//!   without touching the file system.
//! - `export`: a scoresheet export written to a file in the player's words
//!   (`hector export`, `save`).
//! - `setup`: start-up: what was typed (`setup::typed`) and the settings
//!   files resolved into the app's builder, the engine, the boards, the
//!   page, lichess and the saved games, each tested alone.
//! - `runtime`: the one loop around `update`, the one effect dispatcher,
//!   the one place where threads (speech, tones, boards, engine, companion
//!   server, signals, the front end's reader) feed it ([`Runtime`]).
//! - `net`: the network on one tokio runtime of its own thread: the
//!   companion page's HTTP server (hyper, its limits, Server-Sent Events)
//!   and online play's HTTP client (reqwest, rustls).
//! - `ui`: the front ends of the runtime (line mode, [`LineMode`]; the
//!   full-screen view, [`run_tui`]) and the command line's own commands
//!   (`ui::commands`, `ui::lichess`).
//! - `speech`: the speech worker, its queue and backends; `audio`: short
//!   generated tones on cpal, on their own thread.
//!
//! # What is public
//!
//! Every module is private to the crate.  The root re-exports the API the
//! binary is built on (the app, its messages, start-up, the front ends, the
//! scoresheet's store), flat, by name; [`io`] the threads beside the app
//! (the [`Runtime`] starts them) and what they carry; [`cli`] the command
//! line: what was typed, what it resolves to, and its own commands.  What only the integration tests, the benches and the fuzz
//! targets reach is in `testing`, under the `test-support` feature.
//!
//! The lint table in `Cargo.toml` denies `unsafe` (but where allowed by
//! name), `unwrap`/`expect` outside tests, and undocumented public items;
//! `cargo clippy --all-targets -- -D warnings` keeps it so.
//!
//! # Adding a module
//!
//! Declare it below as `mod name;` in its layer, add it to `LAYERS` in
//! `tests/layers.rs` (and CONTRIBUTING.md), name only that layer and the
//! ones below, give the app what it needs through a [`Msg`] variant rather
//! than a call from a thread, and re-export here only the few items the
//! binary needs (what only tests need goes in `testing`).  A new action is
//! one row of the [`PlayerAction`] table (see its docs).

// The layers, bottom up, as in tests/layers.rs.
mod audio;
mod speech;
mod toml_error;
#[cfg(windows)]
mod win_console;

mod words;

mod clock;
mod game;
mod notation;

mod board;
mod engine;
// Online play on lichess: its protocol, sans-IO (serde only).
mod lichess;
mod scoresheet;

mod export;
mod phrase;
mod verify;
mod view;

mod companion;

mod action;
mod command;
mod config;
mod keymap;
mod msg;
mod settings_file;

mod app;

mod setup;

mod net;
mod runtime;

mod ui;

#[cfg(windows)]
pub use win_console::on_console_events;

// The app and what goes in and out of it.
pub use action::PlayerAction;
pub use app::{
    App, AppBuilder, EngineSetup, OnlineStart, TournamentSetup, pgn_problem_sentence,
    start_error_sentence,
};
pub use msg::{BoardChoice, BoardProblem, CompanionChoice, Effect, Msg};
// Start-up: the settings, the command line's overrides.
pub use config::{BoardSettings, CompanionSettings, Config, EngineConfig};
pub use setup::{Overrides, PromptMode, Started, WordsOverrides, start};
// Words, moves, the game, the sentences.
pub use game::Game;
pub use keymap::Keymap;
pub use notation::Reader;
pub use phrase::{MoveOptions, MoveStyle, Phraser};
pub use words::Lang;
// The runtime and its front ends.
pub use runtime::{BoardSide, Feed, Runtime};
pub use ui::line::Line as LineMode;
pub use ui::tui::run::{first_look as tui_first_look, run as run_tui};
pub use ui::tui::setup::load as load_tui;
// The scoresheet: the games' store, resuming, exports.
pub use scoresheet::review::PgnFile;
pub use scoresheet::start::{from_fen as start_from_fen, from_pgn as start_from_pgn};
pub use scoresheet::{
    ExportFormat, GameSummary, ResumeChoice, ResumeOffer, Sink, StartInfo, Store,
};

/// The threads beside the app (the [`Runtime`] starts them), and what they carry:
/// speech, tones, the board's serial link, the companion page's server,
/// the engine's settings.
pub mod io {
    pub use crate::audio::{AudioStatus, Tone, TonePlayer, ToneSettings, terminal_bell_if_tty};
    pub use crate::board::Protocol;
    pub use crate::board::gatt::{BleTarget, BoardLink, Nearby};
    pub use crate::board::link::{LinkEvent, PortError};
    pub use crate::board::transport::{Link, PortSettings};
    pub use crate::board::wireless::BleKind;
    pub use crate::companion::{CompanionEvent, PageLabels, Pairing};
    pub use crate::engine::{EngineSettings, Strength as EngineStrength};
    pub use crate::net::companion::{CompanionConfig, CompanionServer, DEFAULT_LISTEN};
    pub use crate::speech::{
        FallBack, LinkConfig as SpeechLinkConfig, Part, Priority, SayKind, SpeechMode,
        SpeechStatus, SpeechWorker, Utterance, WorkerConfig, system_factory,
    };
}

/// The command line: what was typed, what it resolves to (the engine,
/// the boards, the page, lichess, the saved games), and its own commands
/// (`board list|probe|sim`, `voices`, `export`, `verify`).
pub mod cli {
    pub use crate::board::cli::{
        Probed, SimOptions, list_lines as board_list, probe as probe_board, run_sim,
    };
    pub use crate::export::{
        ExportError, record_of as export_record_of, write as write_export,
        write_to_stdout as export_to_stdout,
    };
    pub use crate::setup::{
        BoardCmd, BoardPlan, Cli, Cmd, ExportArgs, GameStart, GamesArgs, LichessArgs, LichessCmd,
        PlayArgs, PrintOnly, Refusal, ResumeArgs, ResumePlan, ReviewArgs, SayArgs, SimArgs,
        SystemPorts, TournamentRefusal, UiKind, VerifyArgs, VoicesArgs, board_plan,
        broadcast_round, engine_setup, find_game, game_line, game_start, host_name, host_names,
        listing_line, online_start, page_address, page_failed, page_listen, page_ready,
        resume_plan, saved_online_game, store, tournament_setup,
    };
    pub use crate::ui::commands;
    pub use crate::ui::lichess::{
        DEFAULT_URL as LICHESS_URL, find_token as find_lichess_token, login as lichess_login,
        logout as lichess_logout,
    };
}

/// The inner parts only the integration tests, the benches and the fuzz
/// targets reach: codecs and the simulated board, the engine's session, the
/// journal's records, exports, the page's gate and snapshot, the view.
#[cfg(any(test, feature = "test-support"))]
pub mod testing {
    pub use crate::board::chessnut::{ChessnutDecoder, encode_position as chessnut_position};
    pub use crate::board::dgt::DgtDecoder;
    pub use crate::board::dgt_clock::{ClockReading as DgtClockReading, ClockSide as DgtClockSide};
    pub use crate::board::millennium::MillenniumDecoder;
    pub use crate::board::mismatch::diff as board_diff;
    pub use crate::board::occupancy::OccupancyDecoder;
    pub use crate::board::pegasus::{PegasusDecoder, encode_occupancy as pegasus_occupancy};
    pub use crate::board::protocol::Command as BoardCommand;
    pub use crate::board::sensed::SensedBoard;
    pub use crate::board::sim::{HandStep, SimBoard, move_actions};
    pub use crate::board::transport::{Master, pseudo_board};
    pub use crate::board::{BoardSession, Decoder, Sensed, SquareDiff, Tracker, TrackerConfig};
    pub use crate::clock::words::{both as clock_both_times, moves as clock_moves_played};
    pub use crate::companion::gate::{Answer as GateAnswer, Gate, GateConfig};
    pub use crate::companion::request::parse as parse_companion_request;
    pub use crate::companion::snapshot::page_squares;
    pub use crate::companion::{
        Clocks as PageClocks, Flash as PageFlash, FlashKind as PageFlashKind,
        GameEnd as PageGameEnd, LastMove as PageLastMove, Limits as CompanionLimits, MoveInput,
        Notice as PageNotice, OpponentAction, Side as PageSide, Snapshot, Tactile as PageTactile,
    };
    pub use crate::engine::{
        EngineCommand, EngineEvent, EngineIo, EngineProcess, EngineSession, ExitInfo as EngineExit,
        Fault as EngineFault, Limit as SearchLimit, OptionNote as EngineOptionNote, ProcessEvent,
        Purpose as SearchPurpose, Score as EngineScore, SearchRequest, SearchResult,
        Timeouts as EngineTimeouts, Waiting as EngineWaiting, Wanted as EngineWanted,
    };
    pub use crate::game::Claim;
    pub use crate::lichess::event::{
        GameEvent as LichessGameEvent, Lines as LichessLines, account_line as lichess_account_line,
        game_line as lichess_game_line,
    };
    pub use crate::lichess::io::LichessIo;
    pub use crate::lichess::moves::{replay as lichess_replay, start as lichess_start};
    pub use crate::lichess::sync::{Change as LichessChange, GameSync as LichessSync};
    pub use crate::msg::EngineOrder;
    pub use crate::net::companion::bytes_in::serve as serve_companion_bytes;
    pub use crate::scoresheet::GameRecord;
    pub use crate::scoresheet::braille::{
        BrailleWords, LINES as BRAILLE_LINES, to_brf, to_unicode as to_braille_unicode,
    };
    pub use crate::scoresheet::journal::Journal;
    pub use crate::scoresheet::pgn::to_pgn;
    pub use crate::scoresheet::record::{
        ClockEvent, Event as JournalEvent, format_record, line_digest, parse_journal,
    };
    pub use crate::scoresheet::replay::{
        Note as RecordNote, Resumed, continuation as journal_continuation, replay,
    };
    pub use crate::scoresheet::review::{COMMENT_KEPT, PgnProblem, TAG_LINE_MAX};
    pub use crate::settings_file::read as read_settings;
    pub use crate::speech::BackendFactory;
    pub use crate::speech::fake::{FakeCall, FakeControl};
    pub use crate::toml_error::text_of as settings_text_of;
    pub use crate::ui::tui::Look;
    pub use crate::ui::tui::render::render as render_tui;
    pub use crate::view::{BoardInfo, ClockView, LinkState, PieceStyle, UiState, View, ViewInput};
    pub use crate::words::vocab::builtin_appendix_d;

    /// Give `app` a board session (started at the game's position): how
    /// tests and benches drive a board without a port.  Players' boards
    /// come through the runtime ([`crate::msg::Msg::BoardChosen`]).
    pub fn attach_board(app: &mut crate::App, session: BoardSession) {
        app.attach_board(session);
    }
}
