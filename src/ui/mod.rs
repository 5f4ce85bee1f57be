//! Front ends over the one app core.

pub mod export;
#[allow(dead_code, reason = "its user, the online game in the App, comes next")]
pub mod lichess;
pub mod line;
pub mod tui;
