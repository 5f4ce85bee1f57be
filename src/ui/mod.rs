//! Front ends of the runtime over the one app core.

pub mod games;
pub mod lichess;
pub mod line;
pub mod tui;
pub mod watch;
