//! What happens to the app ([`Msg`]) and what it asks the outside world to
//! do ([`Effect`]).  `App::update` turns one into the other without I/O.

use crate::speech::Utterance;

/// Something that happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Msg {
    /// The player typed a line and pressed Enter.
    Line(String),
    /// The input ended (end of a piped script, or Ctrl-D).
    EndOfInput,
    /// The deadline the app asked for has come.
    Deadline,
}

/// Something to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Say a sentence (and print it as one line in line mode).
    Say(Utterance),
    /// Stop the sentence being spoken now.
    Silence,
    /// End the session.
    Quit,
}
