//! hector: a chess client for blind and visually impaired players.
//!
//! Every move is announced the FIDE Appendix D way and printed as one line
//! for screen readers and braille displays.
//!
//! # Layers and data flow
//!
//! ```text
//!  stdin, serial port, speech status, tones        (threads in main, ui, board::transport)
//!        │ Msg                                         ▲ Effect
//!        ▼                                             │
//!  ┌─ ui ──────── front ends: read input, carry out effects ───────────────┐
//!  ├─ app ─────── App::update(msg, now) -> Vec<Effect>, no I/O             │
//!  │              action, command, keymap, config, setup, msg              │
//!  ├─ phrase ──── Phraser: events -> one sentence in the player's language │
//!  ├─ board ───── codecs, tracker, session (sans-IO); transport = the port │
//!  ├─ notation ── typed moves -> Move       game ── rules over shakmaty    │
//!  └─ words ───── vocabularies, Lang, templates, fold, piece words         ┘
//!     speech, audio ── sentences and tones out; never see a chess type
//! ```
//!
//! A module only imports modules of its own layer or of the layers below
//! it: `words` imports nothing of hector (but `toml_error`); `notation` and
//! `game` stand on `words`; `board` on those; `phrase` on all of them;
//! `app` (with `action`, `command`, `keymap`, `config`, `setup`, `msg`) on
//! everything; `ui` and `main.rs` on `app`.  `speech` and `audio` are
//! beside the stack: the app hands them [`speech::Utterance`]s and
//! [`audio::Tone`]s through [`msg::Effect`]s.
//!
//! Every event, the start-up included, is a [`msg::Msg`] given to
//! [`app::App::update`]; everything the app wants done is an
//! [`msg::Effect`].  What a player can ask for is one list,
//! [`action::Action`].
//!
//! # The folders
//!
//! - [`words`]: the vocabulary files (`voices/*.toml`), [`words::Lang`],
//!   templates, [`words::fold`], piece words read back.
//! - [`notation`]: typed moves in every form, and errors by kind.
//! - [`game`]: the rules layer over shakmaty (history, endings, claims,
//!   offers); [`game::rules`]: the rules editions (flag fall, illegal
//!   moves, incorrect claims, rapid and blitz).
//! - [`clock`]: the talking clock (time controls, `--time` notation, the
//!   clock state machine, what it says and when); sans-IO, beside `game`.
//! - [`board`]: the tactile board (codecs, inference, mismatches, session;
//!   `transport` is the only module touching the serial port).
//! - [`phrase`]: the [`phrase::Phraser`], every event into one sentence.
//! - [`app`]: the state of the session, split by concern (`app/commands.rs`,
//!   `app/offers.rs`, `app/board.rs`); [`app::App::builder`] builds one
//!   without touching the file system.  [`msg`] holds the messages and
//!   effects; [`action`] the one list of actions; [`command`] and
//!   [`keymap`] read typed lines into actions (`keymaps/line.toml`);
//!   [`config`] and [`setup`] turn settings files into an app.
//! - [`ui`]: the front ends (line mode; the full-screen view `ui::tui`).
//! - [`view`]: what the screen shows, as plain data (the full-screen view
//!   and the opponent's page draw from it).
//! - [`speech`]: the speech worker, its queue and backends.
//! - [`audio`]: short generated tones on cpal, on their own thread.
//! - [`engine`]: a UCI engine for home play: the sans-IO session (through
//!   the `shakmaty-uci` crate), the process driver, evaluations in words.
//!   It stands on shakmaty only; the app drives it through `Msg`s.
//!
//! # Adding a module
//!
//! Declare it here (or in its layer's `mod.rs`) in the layer it belongs to,
//! import only from that layer and the ones below, and give the app what it
//! needs through a [`msg::Msg`] variant rather than a call from a thread.
//! A new action is one [`action::Action`] entry (see its docs).

pub mod action;
pub mod app;
pub mod audio;
pub mod board;
pub mod clock;
pub mod command;
pub mod companion;
pub mod config;
pub mod engine;
pub mod game;
pub mod keymap;
pub mod msg;
pub mod notation;
pub mod phrase;
pub mod settings_file;
pub mod setup;
pub mod speech;
pub mod toml_error;
pub mod ui;
pub mod view;
pub mod words;
