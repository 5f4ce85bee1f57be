//! Front ends of the runtime over the one app core.

pub mod lichess;
pub mod line;
pub mod tui;
