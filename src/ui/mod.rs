//! Front ends of the runtime over the one app core (line mode, the
//! full-screen view), and of the command line's own commands (`commands`,
//! `lichess`): what each says goes to the player in their language.

pub mod commands;
pub mod lichess;
pub mod line;
pub mod tui;
pub mod watch;
