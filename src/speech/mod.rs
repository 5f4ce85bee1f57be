//! The speaking layer: sentences ([`Utterance`]s) in, speech out.  It never
//! sees a chess type: the words are chosen by the phrasing layer
//! ([`crate::phrase`]) and handed over by the app.
//!
//! Every decision is the sans-IO [`link::SpeechLink`] (with the pure
//! [`SpeechQueue`]): stepped by events and the time, it returns what to do
//! and its next deadline.  [`SpeechWorker`] is the thin thread that drives
//! it against a [`SpeechBackend`] (speech-dispatcher on Linux, the `tts`
//! crate elsewhere) living on a second thread, so that a hung speech
//! service never freezes the game.  A sentence may mix languages
//! ([`Utterance::parts`]): speech-dispatcher speaks it as one SSML message,
//! other backends part by part, kept together.

pub mod backend;
pub mod fake;
pub mod link;
pub mod queue;
#[cfg(target_os = "linux")]
pub mod sd;
pub mod tts_backend;
mod utterance;
pub mod worker;

pub use backend::{
    BackendEvent, BackendFactory, EventSink, SpeechBackend, SpeechError, SpeechSettings, Started,
    VoiceInfo, choose_voice, voices_by_language, voices_summary,
};
pub use queue::{Action, QueuePolicy, SpeechQueue};
pub use utterance::{Part, Priority, SayKind, Utterance};
pub use worker::{
    FallBack, LineSink, Pace, SpeechHandle, SpeechMode, SpeechStatus, SpeechWorker, StatusSink,
    WorkerConfig, list_voices, list_voices_with, say_once, say_once_with, say_utterance_once,
    system_factory, tts_crate_factory,
};
