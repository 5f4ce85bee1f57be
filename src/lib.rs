//! hector: a chess client for blind and visually impaired players.
//!
//! Every move is announced the FIDE Appendix D way and printed as one line
//! for screen readers and braille displays.  The layout:
//!
//! - [`app`]: the state of the session; `App::update(msg, now)` returns
//!   effects and does no I/O.  [`msg`] holds the messages and effects.
//! - [`game`]: the rules layer over shakmaty (history, endings, claims,
//!   offers).
//! - [`notation`]: typed moves in every form, and errors by kind.
//! - [`speech`]: the vocabulary files (`voices/*.toml`) and the phrasing of
//!   every event into one sentence.
//! - [`command`] and [`keymap`]: line-mode commands and their words
//!   (`keymaps/line.toml`).
//! - [`config`] and [`setup`]: settings, user files merged over the
//!   built-in ones, broken files reported and replaced by the defaults.
//! - [`ui`]: the front ends (line mode).
//! - [`audio`]: short generated tones on cpal, on their own thread.
//! - [`board`]: the tactile board (sensor reports, mismatches).

pub mod app;
pub mod audio;
pub mod board;
pub mod clock;
pub mod command;
pub mod config;
pub mod game;
pub mod keymap;
pub mod msg;
pub mod notation;
pub mod setup;
pub mod speech;
pub mod toml_error;
pub mod ui;
