//! Front ends over the one app core.

pub mod line;
pub mod tui;
