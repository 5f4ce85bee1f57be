//! What happens to the app ([`Msg`]) and what it asks the outside world to
//! do ([`Effect`]).  `App::update` turns one into the other without I/O.

use crate::audio::{AudioStatus, Tone};
use crate::board::transport::LinkEvent;
use crate::speech::{SpeechStatus, Utterance};

/// Something that happened.
#[derive(Debug, Clone, PartialEq)]
pub enum Msg {
    /// The player typed a line and pressed Enter.
    Line(String),
    /// The input ended (end of a piped script, or Ctrl-D).
    EndOfInput,
    /// The deadline the app asked for has come.
    Deadline,
    /// The speech worker fell back to printing, or speaks again.
    Speech(SpeechStatus),
    /// The tone player lost or found its sound device.
    Audio(AudioStatus),
    /// The board's serial link: connected, bytes read, or lost.
    Board(LinkEvent),
}

/// Something to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Say a sentence (and print it as one line in line mode).
    Say(Utterance),
    /// Stop the sentence being spoken now.
    Silence,
    /// Play a short tone (for players who prefer tones at these moments).
    Tone(Tone),
    /// Send these bytes to the board (a request for a dump, for updates).
    ToBoard(Vec<u8>),
    /// End the session.
    Quit,
}
