//! [`AppBuilder`]: an [`App`] from its parts, the built-in ones unless
//! given.  Reads no file, so unit tests build apps freely; start-up
//! (`setup`, a layer above) gives it the parts read from the user's files.

use shakmaty::Color;

use super::App;
use super::parts::{Parts, Settings, Talk, ViewState};
use crate::game::Game;
use crate::keymap::Keymap;
use crate::notation::Reader;
use crate::phrase::{MoveOptions, MoveStyle, Phraser};
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
        App {
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
}
