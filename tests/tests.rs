//! Integration tests: one test binary, one module per area.  They drive the
//! real `hector` binary or the app's update loop.
#![allow(
    clippy::expect_used,
    clippy::unwrap_used,
    reason = "test helpers outside #[test] functions"
)]

#[path = "support/browser.rs"]
mod browser;
#[path = "support/tmux.rs"]
mod tmux;
mod util;

mod board_games;
mod clock_games;
mod companion_attack;
mod companion_game;
mod companion_page;
mod companion_view;
mod engine;
mod engine_play;
mod journal_damage;
mod languages;
mod line_games;
mod line_mode;
mod scoresheet;
mod trust;
mod trust_board;
mod tui_tmux;
