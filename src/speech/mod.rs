//! The speaking layer: sentences ([`Utterance`]s) in, speech out.  It never
//! sees a chess type: the words are chosen by the phrasing layer
//! (`phrase`, a layer above) and handed over by the app.
//!
//! Every decision is the sans-IO [`link::SpeechLink`] (with the pure
//! [`SpeechQueue`](queue::SpeechQueue)): stepped by events and the time, it returns what to do
//! and its next deadline.  [`SpeechWorker`] is the thin thread that drives
//! it against a [`SpeechBackend`](backend::SpeechBackend) (speech-dispatcher on Linux, the `tts`
//! crate elsewhere) living on a second thread, so that a hung speech
//! service never freezes the game.  A sentence may mix languages
//! ([`Utterance::parts`]): speech-dispatcher speaks it as one SSML message,
//! other backends part by part, kept together.

pub mod backend;
#[cfg(any(test, feature = "test-support"))]
pub mod fake;
pub mod link;
pub mod queue;
#[cfg_attr(
    all(not(windows), not(test)),
    expect(
        dead_code,
        reason = "screen readers are reached on Windows only; tested with fakes everywhere"
    )
)]
pub mod screen_reader;
#[cfg(target_os = "linux")]
pub mod sd;
#[cfg_attr(
    target_os = "linux",
    expect(
        dead_code,
        reason = "the backend of the other platforms; Linux speaks through speech-dispatcher (sd)"
    )
)]
pub mod tts_backend;
mod utterance;
#[cfg(windows)]
pub mod windows;
pub mod worker;

// Only what the rest of the crate uses (the crate root re-exports part of
// it); the modules' other items are reached by path.
#[cfg(any(test, feature = "test-support"))]
pub use backend::BackendFactory;
pub use backend::{SpeechRoute, SpeechSettings, voices_summary};
pub use utterance::{Part, Priority, SayKind, Utterance};
pub use worker::{
    FallBack, LinkConfig, SpeechHandle, SpeechMode, SpeechStatus, SpeechWorker, WorkerConfig,
    list_voices, say_utterance_once, system_factory,
};
