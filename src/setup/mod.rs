//! Start-up: what was typed on the command line and found in the settings
//! files, resolved into what the session starts with.  Every sentence
//! said on the way is the phraser's, in the player's language.
//!
//! - [`typed`] — what was typed: the command line as clap reads it, close
//!   to the flags (its doc comments are the help text).
//! - [`settings`] — the settings files with the command line over them:
//!   the phraser, the app's builder, the clock, speech and tones
//!   ([`Started`]), each broken file a problem to say.
//! - [`game`] — the scoresheet's names and the position a game starts
//!   from (`--white`, `--black`, `--event`, `[players]`, `--fen`, `--pgn`).
//! - [`engine`] — `--engine` and `[engine]` into the engine to play.
//! - [`board`] — `--board`, `--opponent-board` and `[board]` into what the
//!   app is told and the port to open ([`BoardPlan`]), found through
//!   [`Ports`](board::Ports).
//! - [`page`] — `--companion` and `[companion]` into the page's address,
//!   and what the app is told once it is served or could not be.
//! - [`online`] — `--lichess`, `--challenge`, `--seek`, `--broadcast` into
//!   how the online game begins, or the [`Refusal`] to say.
//! - [`saved`] — a typed game key into one saved game, `hector games`'s
//!   lines, and the game `hector play` goes on with.
//!
//! `main` parses, hands what was typed to these, says what they refuse,
//! and starts the runtime with what they resolve to (as ripgrep's `main`
//! does with `flags::lowargs` and `flags::hiargs`).

pub mod board;
pub mod engine;
pub mod game;
pub mod online;
pub mod page;
pub mod saved;
pub mod settings;
pub mod tournament;
pub mod typed;

pub use board::{BoardPlan, SystemPorts, board_plan};
pub use engine::engine_setup;
pub use game::{GameStart, game_start};
pub use online::{Refusal, broadcast_round, online_start, saved_online_game};
pub use page::{host_name, host_names, page_address, page_failed, page_listen, page_ready};
pub use saved::{ResumePlan, find_game, game_line, listing_line, resume_plan, store};
pub use settings::{Started, start};
pub use tournament::{TournamentRefusal, tournament_setup};
pub use typed::{
    BoardCmd, Cli, Cmd, ExportArgs, GamesArgs, LichessArgs, LichessCmd, Overrides, PlayArgs,
    PrintOnly, PromptMode, ResumeArgs, ReviewArgs, SayArgs, SimArgs, UiKind, VerifyArgs,
    VoicesArgs, WordsOverrides,
};
