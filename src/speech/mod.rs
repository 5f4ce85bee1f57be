//! Everything that becomes words: the vocabulary files (`vocab`), the
//! phrasing of events into sentences ([`Phraser`]), and the speech worker
//! that speaks them.
//!
//! - `vocab`: the voices files as written (`voices/*.toml`).
//! - `template`: `{name}` placeholders in message templates.
//! - `messages`: the check of a message file against the built-in English one.
//! - `phrase`: [`Phraser`], the move announcement and the words of squares,
//!   pieces and sides.
//! - `report`: input errors, the end of the game, board mismatches.
//! - `explore`: answers to questions about the position.
//! - Speaking: [`SpeechWorker`] owns one thread that schedules sentences with
//!   the pure [`SpeechQueue`] and drives a [`SpeechBackend`] (speech-dispatcher
//!   on Linux, the `tts` crate elsewhere) on a second thread, with deadlines so
//!   that a hung speech service never freezes the game.

pub mod backend;
mod board_words;
mod explore;
pub mod fake;
mod messages;
mod phrase;
pub mod queue;
mod report;
#[cfg(target_os = "linux")]
pub mod sd;
mod template;
#[cfg(test)]
mod test_util;
pub mod tts_backend;
mod utterance;
pub mod vocab;
pub mod worker;

pub use backend::{
    BackendEvent, BackendFactory, EventSink, SpeechBackend, SpeechError, SpeechSettings, Started,
    VoiceInfo, choose_voice, voices_by_language,
};
pub use messages::{allowed_placeholders, check_messages, key_line};
pub use phrase::{Form, MoveOptions, MoveStyle, Phraser, Source};
pub use queue::{Action, QueuePolicy, SpeechQueue};
pub use template::TemplateError;
pub use utterance::{Priority, SayKind, Utterance};
pub use worker::{
    LineSink, Pace, SpeechHandle, SpeechMode, SpeechStatus, SpeechWorker, StatusSink, WorkerConfig,
    list_voices, list_voices_with, say_once, say_once_with, system_factory, tts_crate_factory,
};
