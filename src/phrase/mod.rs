//! The phrasing layer: every event of the game turned into one sentence in
//! the player's language ([`Phraser`]), from the words of the words layer.
//!
//! It sits above the game, the notation and the board (it names their
//! events) and below the app.  It never speaks: sentences go to the app,
//! which hands them to the speech layer as [`Utterance`](crate::speech::Utterance)s.
//!
//! - `phraser`: [`Phraser`], the move announcement and the words of squares,
//!   pieces and sides.
//! - `report`: input errors, the end of the game, board mismatches.
//! - `explore`: answers to questions about the position.
//! - `board_words`: the instruction for a move to make on the board, and
//!   why a port cannot be used.
//! - `clock`: the clock's words ([`crate::clock::words::Words`] for the Phraser).
//! - `messages`: the check of a message file against the built-in English one.
//! - `keys` (tests): the message keys in the code tied to the voices.
//! - `record`: why a saved game's journal cannot be used, a game's mode.
//! - `lichess`: the games in progress on lichess, in words.

mod board_words;
mod clock;
mod explore;
#[cfg(test)]
mod keys;
mod lichess;
mod messages;
mod phraser;
mod record;
mod report;
#[cfg(test)]
mod test_util;

#[cfg(test)]
pub(crate) use messages::allowed_placeholders;
pub use phraser::{Form, MoveOptions, MoveStyle, Phraser};
