//! Front ends over the one app core.

pub mod export;
pub mod lichess;
pub mod line;
pub mod tui;
