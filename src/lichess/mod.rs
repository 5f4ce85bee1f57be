//! Online play on lichess through its Board API, sans-IO: the lines of the
//! two NDJSON streams read into typed events ([`event`]), a game's moves
//! and clock kept in step with the server's ([`sync`]), and when a request
//! may go out or a stream may reconnect ([`schedule`]), and what the
//! network tells the app ([`io`]).  The HTTP client that carries these out
//! is `net::lichess`; nothing here reads a socket or a clock.
//!
//! # Why a thin layer of our own
//!
//! Three crates wrap the lichess API: `licheszter` (0.5), `lichess-api`
//! (1.0) and `litchee` (0.2).  Each one joins the decoding to its own
//! HTTP client and its own TLS choice, and hands streams back as async
//! iterators: none lets us feed a line we already hold and get a typed
//! event back without a runtime, which is what `update(msg, now)` and its
//! tests on a virtual clock need, and none knows lichess's rules for
//! clients (one request at a time, a full minute after a 429) as a state
//! machine.  The part we need is small (nine event kinds, a dozen
//! endpoints), written here from the published API description
//! (lichess-org/api, `doc/specs`); unknown fields and kinds are ignored,
//! so the server may grow without breaking us.

pub mod api;
pub mod broadcast;
pub mod event;
pub mod io;
pub mod schedule;
pub mod sync;
pub mod token;
