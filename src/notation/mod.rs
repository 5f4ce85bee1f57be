//! Move input: what a player types, in any supported form, turned into a
//! legal [`Move`] of the current position, or an [`InputError`] that says
//! which kind of problem it is.
//!
//! Syntax (`parse`) is kept apart from rules (`resolve`): a line is first read
//! into one or more [`Attempt`]s (a letter may mean different pieces in
//! different languages), then each attempt is matched against the legal
//! moves of the position.

mod error;

pub use error::{Attempt, IllegalReason, InputError};
