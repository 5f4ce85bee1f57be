//! The speaking layer: sentences ([`Utterance`]s) in, speech out.  It never
//! sees a chess type: the words are chosen by the phrasing layer
//! ([`crate::phrase`]) and handed over by the app.
//!
//! [`SpeechWorker`] owns one thread that schedules sentences with the pure
//! [`SpeechQueue`] and drives a [`SpeechBackend`] (speech-dispatcher on
//! Linux, the `tts` crate elsewhere) on a second thread, with deadlines so
//! that a hung speech service never freezes the game.

pub mod backend;
#[cfg(any(test, feature = "test-support"))]
pub mod fake;
pub mod link;
pub mod queue;
#[cfg(target_os = "linux")]
pub mod sd;
pub mod tts_backend;
mod utterance;
pub mod worker;

// Only what the rest of the crate uses (the crate root re-exports part of
// it); the modules' other items are reached by path.
pub use backend::{BackendFactory, SpeechSettings, voices_by_language, voices_summary};
pub use utterance::{Part, Priority, SayKind, Utterance};
pub use worker::{
    SpeechHandle, SpeechMode, SpeechStatus, SpeechWorker, WorkerConfig, list_voices, say_once,
    say_utterance_once, system_factory,
};
