//! Everything that becomes words: the vocabulary files (`vocab`) and the
//! phrasing of events into sentences.

pub mod vocab;
mod utterance;

pub use utterance::{Priority, SayKind, Utterance};
