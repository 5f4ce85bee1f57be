//! Playing against a UCI engine (home play).
//!
//! The protocol's messages are parsed and written by the `shakmaty-uci`
//! crate; everything else is split the sans-IO way:
//!
//! - [`session`]: the engine session, a state machine fed the engine's
//!   lines, its exit and `now`, polled for lines to write, events and its
//!   next deadline.  Handshake (`uci`/`uciok`), options, `isready`/
//!   `readyok`, searches (`position` + `go`), `bestmove` checked against
//!   the position, `info score` kept for the evaluation, pondering when
//!   asked, and every fault (crash, hang, garbage, an illegal move) turned
//!   into one [`Fault`] event.
//! - [`process`]: the thin driver owning the child process: a reader
//!   thread passing each line to a callback (the app's channel), a writer
//!   thread, and kill + wait when it is dropped (no zombies).
//! - [`settings`]: what the player asks for (strength, options) and how it
//!   is fitted to the options the engine offers.
//! - [`eval`]: an evaluation in words ("White is better by about a pawn").

pub mod eval;
pub mod process;
pub mod session;
pub mod settings;

pub use eval::{EvalPhrase, Score};
pub use process::{EngineCommand, EngineIo, EngineProcess, ExitInfo, ProcessEvent};
pub use session::{
    EngineEvent, EngineSession, Fault, Limit, Purpose, SearchError, SearchId, SearchRequest,
    SearchResult, Timeouts, Waiting,
};
pub use settings::{EngineSettings, OptionNote, Strength, Wanted};
