//! Everything that becomes words: the vocabulary files (`vocab`) and the
//! phrasing of events into sentences ([`Phraser`]).
//!
//! - `vocab`: the voices files as written (`voices/*.toml`).
//! - `template`: `{name}` placeholders in message templates.
//! - `messages`: the check of a message file against the built-in English one.
//! - `phrase`: [`Phraser`], the move announcement and the words of squares,
//!   pieces and sides.
//! - `report`: input errors, the end of the game, board mismatches.
//! - `explore`: answers to questions about the position.

mod explore;
mod messages;
mod phrase;
mod report;
mod template;
#[cfg(test)]
mod test_util;
mod utterance;
pub mod vocab;

pub use messages::{allowed_placeholders, check_messages, key_line};
pub use phrase::{Form, MoveOptions, MoveStyle, Phraser, Source};
pub use template::TemplateError;
pub use utterance::{Priority, SayKind, Utterance};
