//! Integration tests: one test binary, one module per area.  They drive the
//! real `hector` binary or the app's update loop.  Under Wine (hector.exe,
//! `scripts/windows.sh test`) the parts marked "Unix only" are not compiled:
//! the script lists them when it runs.
#![allow(
    clippy::expect_used,
    clippy::unwrap_used,
    reason = "test helpers outside #[test] functions"
)]

#[cfg(target_os = "linux")] // Unix only: Linux's BlueZ D-Bus API, faked on a private bus
mod ble_games;
#[cfg(target_os = "linux")] // Unix only: dbus-daemon and python3-dbusmock (Linux)
#[path = "support/bluez.rs"]
mod bluez;
#[cfg(unix)] // Unix only: Debian's chromium
#[path = "support/browser.rs"]
mod browser;
#[path = "support/lichess.rs"]
mod lichess_server;
#[cfg(unix)] // Unix only: tmux
#[path = "support/tmux.rs"]
mod tmux;
mod util;

#[cfg(unix)] // Unix only: boards simulated on pseudo-terminals
mod board_games;
mod clock_games;
mod command_line;
#[cfg(unix)] // Unix only: the server's memory and descriptors read in /proc
mod companion_attack;
#[cfg(unix)] // Unix only: boards on pseudo-terminals, Debian's chromium
mod companion_game;
#[cfg(unix)] // Unix only: Debian's chromium
mod companion_page;
#[cfg(unix)] // Unix only: a board on a pseudo-terminal, Debian's chromium
mod companion_view;
#[cfg(unix)] // Unix only: reads the Markdown files by the checkout's Unix path
mod docs;
#[cfg(unix)] // Unix only: shell-script engines, Debian's stockfish
mod engine;
#[cfg(unix)] // Unix only: shell-script engines, boards on pseudo-terminals
mod engine_play;
#[cfg(unix)] // Unix only: FIFOs, links and mode bits in the games folder
mod game_files;
mod hostile_text;
#[cfg(unix)] // Unix only: a sh script
mod journal_damage;
mod languages;
mod layers;
mod lichess;
#[cfg(unix)] // Unix only: a board on a pseudo-terminal
mod lichess_board;
mod lichess_broadcast;
mod lichess_record;
#[cfg(unix)] // Unix only: a Secret Service (gnome-keyring) on a private D-Bus
mod lichess_store;
mod lichess_strict;
#[cfg(unix)] // Unix only: the by-hand walk's /tmp folder
mod lichess_walk;
mod line_games;
mod line_mode;
mod scoresheet;
#[cfg(unix)] // Unix only: a board on a pseudo-terminal, Debian's chromium
mod tournament;
mod trust;
#[cfg(unix)] // Unix only: boards on pseudo-terminals (most of its tests)
mod trust_board;
#[cfg(unix)] // Unix only: tmux
mod tui_tmux;
