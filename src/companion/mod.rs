//! The companion board: the sighted (or deaf) opponent's side of an
//! Appendix D game on their own screen.  hector serves one page, embedded in
//! the binary, on `127.0.0.1:8421` by default; the opponent sees every move
//! in large text and on a board and makes their own moves on it.
//!
//! - [`request`] — what a browser may ask, read from method, target,
//!   headers and body by a pure function ([`request::parse`]); bounded
//!   sizes; every refusal has a status and a sentence.
//! - [`gate`] — pairing and safety, sans-IO ([`gate::Gate`]): the pairing code
//!   off loopback, one opponent at a time, watchers, rate limits, Host and
//!   Origin checks, connected/disconnected with a grace time for reloads.
//! - [`snapshot`] — the whole state the page shows ([`Snapshot`]), plain
//!   data sent as JSON, built from the position and the app's fields.
//! - the server that carries the bytes is `net::companion`
//!   (`CompanionServer`, above the app: hyper on the network runtime,
//!   Server-Sent Events, the server's own limits); nothing in this module does I/O.
//! - [`labels`] — the page's own words in every language (the voices
//!   files' `page_*` messages), starting in the blind player's.
//! - `page.html` — the page (semantic HTML, an ARIA live region for the last
//!   move, keyboard usable, no resources from the internet).

pub mod gate;
pub mod labels;
pub mod request;
pub mod snapshot;

#[cfg(any(test, feature = "test-support"))]
pub use gate::Limits;
pub use gate::{CompanionEvent, Pairing};
pub use labels::PageLabels;
pub use request::{ArbiterRequest, MoveInput, OpponentAction};
#[cfg(any(test, feature = "test-support"))]
pub use snapshot::{Clocks, GameEnd, LastMove, Side};
pub use snapshot::{Flash, FlashKind, Notice, Snapshot, Tactile, TournamentView};

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

/// The page's default address: loopback, so nothing on the network can
/// reach it.
pub const DEFAULT_LISTEN: SocketAddr = SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 8421);
