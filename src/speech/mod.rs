//! Everything that becomes words: the vocabulary files (`vocab`) and the
//! phrasing of events into sentences.

mod utterance;
pub mod vocab;

pub use utterance::{Priority, SayKind, Utterance};
