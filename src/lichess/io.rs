//! What crosses the edge between the network and the app: what the HTTP
//! client (`net::lichess`, on its own thread) tells the app about the
//! streams and the requests.  Plain data, no I/O: the client produces it,
//! the app reads it as a `Msg`, so the app names no network module (as
//! `quinn-proto` owns the events that `quinn` carries).

use super::api::{Reply, Request};
use super::event::{AccountEvent, DecodeError, GameEvent};

/// What the network tells the app about lichess.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LichessIo {
    /// A stream opened (again).
    StreamOpen(Stream),
    /// A stream dropped (or could not open): reconnecting.
    StreamDown(Stream),
    /// A stream was refused for good (401: the token is refused; 404:
    /// no such game): not tried again.
    StreamRefused(Stream, u16),
    /// A game's stream ended because the game is over.
    StreamEnded(Stream),
    /// An event of the account's stream.
    Account(Box<AccountEvent>),
    /// An event of a game's stream.
    Game(String, GameEvent),
    /// A line that is not what the API describes (skipped; for the log).
    BadLine(Stream, DecodeError),
    /// A request's answer.
    Reply(Request, Reply),
    /// lichess asked for a pause (429): requests wait a minute.
    RateLimited,
}

/// Which stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stream {
    /// The account's events.
    Account,
    /// One game's (its id).
    Game(String),
}
