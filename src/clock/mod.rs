//! The talking clock (FIDE D.2.6.1): time controls and their notation,
//! the clock itself, what it says by itself and when, and its words.
//!
//! Everything here is sans-IO: the time is passed in as a monotonic
//! [`std::time::Instant`], nothing sleeps or reads the time, and
//! [`Clock::next_deadline`] / [`Announcer::next_deadline`] tell the event
//! loop when to wake up (it sleeps until then instead of ticking).
//!
//! - [`control`]: time controls (sudden death, Fischer, US and Bronstein
//!   delay, periods with move counts, hourglass), presets, the PGN tag.
//! - [`spec`]: the `--time SPEC` notation and what is wrong with a SPEC.
//! - [`state`]: the clock: press, pause, resume, flag fall, arbiter changes.
//! - [`announce`]: thresholds, countdown, both times every N moves, period end.
//! - [`press`]: the D.2.8 moment between a move and the press.
//! - [`words`]: all of it in the player's language.

pub mod announce;
pub mod control;
pub mod press;
pub mod spec;
pub mod state;
pub mod words;

pub use announce::{Announcement, Announcer, Schedule};
pub use control::{Bonus, Category, TimeControl};
pub use press::{PressMode, Presser};
pub use spec::parse as parse_spec;
pub use state::{Clock, ClockError, ClockMark, Pressed};
