//! [`AppBuilder`]: an [`App`] from its parts, the built-in ones unless
//! given.  Reads no file, so unit tests build apps freely; start-up
//! (`setup`, a layer above) gives it the parts read from the user's files.

use shakmaty::Color;

use super::App;
use super::engine::EngineSetup;
use super::parts::{Parts, Settings, ViewState};
use super::voice::Talk;
use crate::game::Game;
use crate::keymap::Keymap;
use crate::notation::Reader;
use crate::phrase::{MoveOptions, MoveStyle, Phraser};
use crate::scoresheet::StartInfo;
use crate::scoresheet::review::PgnFile;
use crate::words::Lang;
use crate::words::vocab::{self, MoveWords};

/// The parts of an [`App`]; see [`App::builder`].
#[derive(Debug, Clone)]
pub struct AppBuilder {
    lang: Lang,
    style: MoveStyle,
    options: MoveOptions,
    me: Color,
    confirm_own_moves: bool,
    ask_before_leaving: bool,
    phraser: Option<Phraser>,
    reader: Option<Reader>,
    keymap: Option<Keymap>,
    arg_words: Option<Vec<MoveWords>>,
    clock: Option<super::ClockSetup>,
    start: Start,
}

/// How the session starts, beyond the parts: given to the builder, never
/// set on a running app.
#[derive(Debug, Clone, Default)]
struct Start {
    rated: bool,
    tournament: Option<super::TournamentSetup>,
    look: crate::view::ViewLook,
    journal: Option<StartInfo>,
    from: Option<(Game, StartInfo)>,
    engine: Option<EngineSetup>,
    review: Option<PgnFile>,
    online: Option<super::OnlineStart>,
    broadcast: Option<crate::lichess::broadcast::RoundId>,
}

impl Default for AppBuilder {
    fn default() -> Self {
        AppBuilder {
            lang: Lang::En,
            style: MoveStyle::AppendixD,
            options: MoveOptions::default(),
            me: Color::White,
            confirm_own_moves: true,
            ask_before_leaving: false,
            phraser: None,
            reader: None,
            keymap: None,
            arg_words: None,
            clock: None,
            start: Start::default(),
        }
    }
}

impl AppBuilder {
    /// The message language (and the player's language for reading moves).
    pub fn lang(mut self, lang: Lang) -> Self {
        self.lang = lang;
        self
    }

    /// How moves are said, with the built-in words.
    pub fn moves(mut self, style: MoveStyle, options: MoveOptions) -> Self {
        self.style = style;
        self.options = options;
        self
    }

    /// Whose pieces are "mine".
    pub fn me(mut self, me: Color) -> Self {
        self.me = me;
        self
    }

    /// Say the player's own moves too (the opponent's are always said).
    pub fn confirm_own_moves(mut self, yes: bool) -> Self {
        self.confirm_own_moves = yes;
        self
    }

    /// Ask before `new` or `quit` ends a game in progress, and say goodbye
    /// when the input ends in mid-game: for a player at a terminal, not
    /// for a script on standard input.
    pub fn ask_before_leaving(mut self, yes: bool) -> Self {
        self.ask_before_leaving = yes;
        self
    }

    /// The phrasing (e.g. with a user's voices files).
    pub fn phraser(mut self, phraser: Phraser) -> Self {
        self.phraser = Some(phraser);
        self
    }

    /// The reader of typed moves.
    pub fn reader(mut self, reader: Reader) -> Self {
        self.reader = Some(reader);
        self
    }

    /// The line-mode key map.
    pub fn keymap(mut self, keymap: Keymap) -> Self {
        self.keymap = Some(keymap);
        self
    }

    /// The vocabularies command arguments are read in (besides the
    /// phraser's move words and Appendix D, always understood).
    pub fn arg_words(mut self, words: Vec<MoveWords>) -> Self {
        self.arg_words = Some(words);
        self
    }

    /// Play with a clock.
    pub fn clock(mut self, setup: Option<super::ClockSetup>) -> Self {
        self.clock = setup;
        self
    }

    /// A rated game: no help the position computes (attackers,
    /// defenders, a piece's moves, material), no hint, evaluation, threat
    /// or take-back (Article 11.3).
    pub fn rated(mut self, rated: bool) -> Self {
        self.start.rated = rated;
        self
    }

    /// A tournament game (`--tournament`), with what its arbiter allowed:
    /// rated, and nothing beyond the board; every action recorded, the
    /// result confirmed by both players (`app/tournament.rs`).
    pub fn tournament(mut self, setup: Option<super::TournamentSetup>) -> Self {
        self.start.tournament = setup;
        self
    }

    /// How the full-screen view looks at first (the look actions change it).
    pub fn look(mut self, look: crate::view::ViewLook) -> Self {
        self.start.look = look;
        self
    }

    /// Keep a journal of every game, with these players, event and date
    /// (the caller's: the app reads no calendar); the start position is
    /// filled in.
    pub fn journal(mut self, start: StartInfo) -> Self {
        self.start.journal = Some(start);
        self
    }

    /// Start from this game (`--fen`, `--pgn`): the start record says
    /// where it began.
    pub fn start_from(mut self, game: Game, start: StartInfo) -> Self {
        self.start.from = Some((game, start));
        self
    }

    /// Play against an engine (started with the session, [`crate::msg::Msg::Start`]).
    pub fn engine(mut self, setup: Option<EngineSetup>) -> Self {
        self.start.engine = setup;
        self
    }

    /// Play on lichess (`app/online.rs`).
    pub fn online(mut self, start: super::OnlineStart) -> Self {
        self.start.online = Some(start);
        self
    }

    /// Push the game to this lichess broadcast round (`app/broadcast.rs`).
    pub fn broadcast(mut self, round: crate::lichess::broadcast::RoundId) -> Self {
        self.start.broadcast = Some(round);
        self
    }

    /// Review this file instead of playing.
    pub fn review(mut self, file: PgnFile) -> Self {
        self.start.review = Some(file);
        self
    }

    /// The side given with [`AppBuilder::me`].
    pub fn given_me(&self) -> Color {
        self.me
    }

    /// The app, at the start of a new game.
    pub fn build(self) -> App {
        let lang = self.lang;
        let phraser = self
            .phraser
            .unwrap_or_else(|| Phraser::builtin(self.style, lang, self.options));
        let reader = self.reader.unwrap_or_else(|| Reader::builtin(lang));
        let mut arg_words = self.arg_words.unwrap_or_else(|| {
            Lang::ALL
                .into_iter()
                .map(|l| vocab::builtin(l).moves)
                .collect()
        });
        arg_words.push(phraser.move_words().clone());
        arg_words.push(vocab::builtin_appendix_d().moves);
        let start = self.start;
        let mut app = App {
            game: Game::new(),
            mode: super::Mode::Playing,
            talk: Talk {
                phraser,
                reader,
                keymap: self
                    .keymap
                    .unwrap_or_else(Keymap::builtin)
                    .for_lang(lang.code()),
                arg_words,
                last_said: None,
            },
            settings: Settings {
                me: self.me,
                confirm_own_moves: self.confirm_own_moves,
                ask_before_leaving: self.ask_before_leaving,
                rated: false,
            },
            parts: Parts {
                // The clock is not started: nothing is said of it before
                // the first message brings the time.
                clock: self.clock.map(super::clock::ClockPart::new),
                view: ViewState {
                    cursor: super::cursor::Cursor::new(self.me),
                    ..ViewState::default()
                },
                ..Parts::default()
            },
            quitting: false,
            changes: Vec::new(),
        };
        app.settings.rated = start.rated || start.tournament.is_some();
        app.parts.tournament = start.tournament.map(super::tournament::Tournament::new);
        app.parts.view.look = start.look;
        // In this order: the journal's start record, then the game it
        // starts from, then the engine's side written into it.
        if let Some(info) = start.journal {
            let write = start_info(&app);
            app.parts.journal.enable(info, &app.game, write);
        }
        if let Some((game, info)) = start.from {
            // Moves already played before this session (a PGN continued)
            // are journalled as moves of the game.
            app.replace_game(game);
            let write = start_info(&app);
            app.parts.journal.start_from(&app.game, info, write);
        }
        if let Some(round) = start.broadcast {
            app.parts.broadcast = Some(super::broadcast::Broadcast::new(round));
        }
        if let Some(online) = start.online {
            app.parts.online = Some(super::online::OnlinePlay::new(online));
        }
        if let Some(setup) = start.engine {
            // Started with the session (`Msg::Start`); its side journalled.
            app.parts.engine = Some(super::engine::EnginePlay::new(setup));
            app.parts.journal.engine_side(Some(!app.settings.me));
        }
        if let Some(file) = start.review {
            app.parts.review = Some(super::review::ReviewState::new(file));
        }
        app
    }
}

/// What start-up knows of `app`'s game for its start record (the rules
/// edition, the mode, the clock's setup), to be written into it.
fn start_info(app: &App) -> impl FnOnce(&mut StartInfo) + use<> {
    let edition = app.parts.edition();
    let mode = app.parts.mode(app.settings.rated);
    let clock = app.parts.clock.as_ref().map(|p| p.setup.clone());
    let tournament = app.parts.tournament.as_ref().map(|t| t.setup().clone());
    move |start| {
        super::clock::write_start_info(start, edition, mode, clock.as_ref());
        if let Some(t) = tournament {
            t.write_start(start);
        }
    }
}

#[cfg(any(test, feature = "test-support"))]
impl App {
    /// The app as [`AppBuilder::build`] made it, at the start of a new
    /// game, keeping its parts (words, reader of moves, key map,
    /// vocabularies) and its settings, White as "me", no clock: for the
    /// typed-line fuzz target, which reuses one app (building the parts
    /// per input held it to a few dozen inputs a second).
    pub fn reset(&mut self) {
        self.game = Game::new();
        self.mode = super::Mode::Playing;
        self.talk.last_said = None;
        self.settings.me = Color::White;
        self.settings.rated = false;
        self.parts = Parts::default();
        self.quitting = false;
        self.changes.clear();
    }

    /// Play against an engine, as the builder's `engine` does.
    #[cfg(test)]
    pub(super) fn set_engine(&mut self, setup: EngineSetup) {
        self.parts.engine = Some(super::engine::EnginePlay::new(setup));
        self.parts.journal.engine_side(Some(!self.settings.me));
    }

    /// A rated game, or one with an arbiter: no hint, evaluation, threat
    /// or take-back (at start-up: [`AppBuilder::rated`]).
    #[cfg(test)]
    pub(super) fn set_rated(&mut self, rated: bool) {
        self.settings.rated = rated;
        // The start record, when not written yet, says the mode.
        self.parts.journal.start_with(|s| {
            s.set_mode(if rated {
                crate::scoresheet::record::GameMode::Rated
            } else {
                crate::scoresheet::record::GameMode::Casual
            });
        });
    }

    /// Review this file instead of playing, as the builder's `review`
    /// does.
    #[cfg(test)]
    pub(super) fn start_review(&mut self, file: crate::scoresheet::review::PgnFile) {
        self.parts.review = Some(super::review::ReviewState::new(file));
    }

    /// Start from this game, as the builder's `start_from` does.
    #[cfg(test)]
    pub(super) fn start_from(&mut self, game: Game, info: StartInfo) {
        self.replace_game(game);
        let write = start_info(self);
        self.parts.journal.start_from(&self.game, info, write);
    }

    /// Keep a journal, as the builder's `journal` does.
    #[cfg(test)]
    pub(super) fn enable_journal(&mut self, start: StartInfo) {
        let write = start_info(self);
        self.parts.journal.enable(start, &self.game, write);
    }

    /// Set the look (at start-up: [`AppBuilder::look`]).
    #[cfg(test)]
    pub(super) fn set_look(&mut self, look: crate::view::ViewLook) {
        self.parts.view.look = look;
    }

    /// Play on lichess, as the builder's `online` does (for the tests).
    #[cfg(test)]
    pub(super) fn set_online(&mut self, start: super::OnlineStart) {
        self.parts.online = Some(super::online::OnlinePlay::new(start));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::msg::Msg;
    use std::time::Instant;

    /// A reset app answers as a new one: the same sentences for the same
    /// lines, after a game with a flip, a question and an offer.
    #[test]
    fn a_reset_app_is_a_new_app() {
        let lines = ["e4", "e5", "flip", "draw", "Nf3", "new", "d4", "quit"];
        let said = |a: &mut App| -> Vec<String> {
            let now = Instant::now();
            lines
                .iter()
                .flat_map(|l| a.update(Msg::Line((*l).into()), now))
                .filter_map(|e| match e {
                    crate::msg::Effect::Say(u) => Some(u.text),
                    _ => None,
                })
                .collect()
        };
        let mut fresh = App::builder().ask_before_leaving(true).build();
        let want = said(&mut fresh);
        let mut reused = App::builder().ask_before_leaving(true).build();
        for l in ["e4", "flip", "c5", "draw", "Nf3", "time"] {
            let _ = reused.update(Msg::Line(l.into()), Instant::now());
        }
        reused.reset();
        assert_eq!(said(&mut reused), want);
        assert!(want.len() >= lines.len(), "{want:?}");
    }

    /// How the session starts is given to the builder: the app built so is
    /// the app the setters of a running app made (the journal's start
    /// record with the players, the position and the engine's side; rated;
    /// the look; the review).
    #[test]
    fn start_up_is_given_to_the_builder() {
        use crate::scoresheet::review::PgnFile;
        let players = StartInfo {
            white: "Anna".into(),
            black: "Bert".into(),
            ..StartInfo::default()
        };
        let mut game = Game::new();
        let e4 = shakmaty::uci::UciMove::from_ascii(b"e2e4")
            .unwrap()
            .to_move(game.position())
            .unwrap();
        game.play(e4).unwrap();
        let from = StartInfo {
            event: "Cup".into(),
            ..StartInfo::default()
        };
        let engine = EngineSetup::default();
        let look = crate::view::ViewLook {
            large_text: true,
            ..crate::view::ViewLook::default()
        };

        let mut old = App::builder().build();
        old.enable_journal(players.clone());
        old.start_from(game.clone(), from.clone());
        old.set_engine(engine.clone());
        old.set_rated(true);
        old.set_look(look.clone());

        let new = App::builder()
            .journal(players)
            .start_from(game, from)
            .engine(Some(engine))
            .rated(true)
            .look(look.clone())
            .build();
        // The journal's start record, written with the move already played.
        let start = |a: &mut App| {
            a.update(Msg::Start, Instant::now())
                .into_iter()
                .find_map(|e| match e {
                    crate::msg::Effect::Journal(crate::scoresheet::JournalOp::Begin(s)) => Some(*s),
                    _ => None,
                })
        };
        let (mut old, mut new) = (old, new);
        let new_start = start(&mut new).unwrap();
        assert_eq!(Some(&new_start), start(&mut old).as_ref());
        assert_eq!(
            (new_start.white.as_str(), new_start.event.as_str()),
            ("Anna", "Cup")
        );
        assert!(
            new_start
                .extra
                .iter()
                .any(|(k, v)| k == "engine" && v == "black")
        );
        assert_eq!(new.game.position(), old.game.position());
        assert_eq!(
            new.parts.engine.as_ref().map(|_| !new.settings.me),
            Some(Color::Black)
        );
        assert!(new.settings.rated);
        assert_eq!(new.view_state().look(), &look);
        assert!(new.parts.review.is_none());

        let file = PgnFile::from_bytes(b"1. e4 e5 *".to_vec()).unwrap();
        assert!(App::builder().review(file).build().parts.review.is_some());
    }
}
