//! Typed commands: questions about the position and the actions of the
//! session ([`PlayerAction`]).

use std::time::Instant;

use shakmaty::{Color, Move, Position};

use super::App;
use crate::action::{Needs, Place, PlayerAction};
use crate::command::{Command, Side};
use crate::game::Game;
use crate::msg::Effect;
use crate::speech::{Priority, SayKind};

impl App {
    pub(super) fn help_line(&self, action: PlayerAction) -> String {
        let word = self.first_word(action);
        self.help_with(action, &word)
    }

    /// The word `help` says for an action: the first of the player's
    /// language in the line keymap, or its name.
    fn first_word(&self, action: PlayerAction) -> String {
        self.talk
            .keymap
            .words(action)
            .first()
            .cloned()
            .unwrap_or_else(|| action.key().to_owned())
    }

    /// What `action` does, reached by `command` (its word, or its keys
    /// in the full-screen view): the one wording of help, said by
    /// `help` and the key help, shown by the view's help page.
    pub fn help_with(&self, action: PlayerAction, command: &str) -> String {
        self.message(&format!("help_{}", action.key()), &[("command", command)])
    }

    /// What `action` does, reached by `keys` in the full-screen view: the
    /// key help's and the keys page's one wording (no line-mode arguments
    /// after the keys).
    pub fn key_help_with(&self, action: PlayerAction, keys: &str) -> String {
        self.talk.phraser.key_help(action.key(), keys)
    }

    /// Whether the key help lists an action's keys now: the view's own
    /// keys always, the rest when `help` would list it.
    pub fn key_applies_now(&self, action: PlayerAction) -> bool {
        action.row().place == Place::Keys || self.applies_now(action)
    }

    /// Whether `help` lists a command now (the table's place and needs
    /// columns): the review's commands only in a review, the game's only
    /// in a game, and the clock's, the engine's, the board's and the
    /// opponent's screen's (and a lichess game's) only when there is one.  (Every command still
    /// answers when typed, and `help WORD` gives its help.)
    fn applies_now(&self, action: PlayerAction) -> bool {
        let row = action.row();
        let reviewing = self.reviewing();
        match row.place {
            Place::Keys => false,
            Place::Review => reviewing,
            Place::Anywhere => self.has(row.needs),
            Place::Game | Place::GameOnly => !reviewing && self.has(row.needs),
        }
    }

    /// Whether the part an action needs is there.
    fn has(&self, needs: Needs) -> bool {
        match needs {
            Needs::Nothing => true,
            Needs::Clock => self.parts.clock.is_some(),
            Needs::Engine => self.parts.engine.is_some(),
            Needs::Board => self.parts.boards.player().is_some(),
            Needs::Companion => self.parts.companion.running(),
            Needs::Online => self.parts.online.is_some(),
        }
    }

    pub(super) fn side_colour(&self, side: Side) -> Color {
        match side {
            Side::Mine => self.settings.me,
            Side::Theirs => !self.settings.me,
            Side::Colour(c) => c,
        }
    }

    pub(super) fn on_command(&mut self, command: Command, now: Instant, out: &mut Vec<Effect>) {
        // What would change the game, a review refuses, however it is
        // asked for: typed with its arguments, by its word, or by a key.
        if self.reviewing() && action_of(&command).refused_in_review() {
            self.review_refuses(out);
            return;
        }
        let pos = self.game.position().clone();
        match command {
            Command::Square(sq) => {
                let t = self.talk.phraser.square_contents(&pos, sq);
                self.info(out, t);
            }
            Command::Pieces { side, role } => {
                let t = self.talk.phraser.pieces(&pos, self.side_colour(side), role);
                self.info(out, t);
            }
            Command::Rank(r) => {
                let t = self.talk.phraser.rank_scan(&pos, r);
                self.info(out, t);
            }
            Command::File(f) => {
                let t = self.talk.phraser.file_scan(&pos, f);
                self.info(out, t);
            }
            Command::Attackers { square, side } => {
                // By default: the pieces that attack the player's own piece
                // there, or the opponent's if the square is empty or the
                // opponent's.
                let colour = match side {
                    Some(s) => self.side_colour(s),
                    None => match pos.board().color_at(square) {
                        Some(c) => !c,
                        None => !pos.turn(),
                    },
                };
                let t = self.talk.phraser.attackers(&pos, square, colour);
                self.info(out, t);
            }
            Command::Defenders { square, side } => {
                // The pieces of `side` that defend the square; by default
                // the side of the piece on it (or the player to move).
                let colour = match side {
                    Some(s) => self.side_colour(s),
                    None => pos.board().color_at(square).unwrap_or(pos.turn()),
                };
                let t = self.talk.phraser.defenders(&pos, square, colour);
                self.info(out, t);
            }
            Command::HelpOn(action) => {
                let t = self.help_line(action);
                self.info(out, t);
            }
            Command::Moves(square) => {
                let t = self.talk.phraser.legal_moves_from(&pos, square);
                self.info(out, t);
            }
            Command::Last(n) => {
                let mut recent: Vec<(shakmaty::Chess, Move)> = self
                    .game
                    .positions()
                    .rev()
                    .take(n)
                    .map(|(before, played)| (before.clone(), played.mv))
                    .collect();
                recent.reverse();
                let t = self.talk.phraser.last_moves(&recent, n);
                self.info(out, t);
            }
            Command::Claim(text) => self.claim(text, now, out),
            Command::Say(text) => self.online_say(&text, out),
            Command::Export(format) => self.save(format, out),
            Command::ExportTo(file) => self.save_to(&file, out),
            Command::Review(action, arg) => {
                self.on_review_action(action, arg.as_deref(), out);
            }
            Command::Time(q) => self.on_time(q, now, out),
            Command::Arbiter(op) => self.on_arbiter(op, out),
            Command::Do(action) => self.on_action(action, now, out),
        }
    }

    /// `new` or `quit`, asked for and (where it is asked) confirmed.
    pub(super) fn on_action_confirmed(
        &mut self,
        action: PlayerAction,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
        match action {
            PlayerAction::New => {
                self.journal_reading_of_left_game(now, out);
                self.engine_new_game();
                self.replace_game(Game::new());
                self.parts.offers.forget();
                self.clock_new_game(now);
                let t = self.message("new_game", &[]);
                self.say(out, t, Priority::Normal, SayKind::Game);
            }
            PlayerAction::Resign => self.resign(out),
            _ => {
                let t = self.message("goodbye", &[]);
                self.info(out, t);
                self.quitting = true;
                out.push(Effect::Quit);
            }
        }
    }

    /// An action without arguments.  First what the table of actions
    /// (`crate::action`) says of it: a review's own action goes to the
    /// review, what a review refuses is refused there, online play takes
    /// its own, and a rated game refuses outside help.  Then its handler:
    /// one arm of the `match` below, which the compiler checks names every
    /// action.  One asked for without the arguments it needs gets its help
    /// sentence.
    pub(super) fn on_action(&mut self, action: PlayerAction, now: Instant, out: &mut Vec<Effect>) {
        if self.on_review_action(action, None, out) {
            return;
        }
        if self.reviewing() && action.refused_in_review() {
            self.review_refuses(out);
            return;
        }
        if self.online_action(action, out) {
            return;
        }
        // Outside help in a rated game; an engine's action without an
        // engine is answered by its handler ("there is no engine").
        if self.settings.rated && action.refused_when_rated() && self.has(action.row().needs) {
            let t = self.message("help_off_rated", &[]);
            self.info(out, t);
            return;
        }
        let pos = self.game.position().clone();
        match action {
            PlayerAction::Material => {
                let t = self.talk.phraser.material(&pos);
                self.info(out, t);
            }
            PlayerAction::Turn => {
                let t = self.prompt();
                self.info(out, t);
            }
            // The journal cannot be written: leaving loses the moves unless
            // they are saved elsewhere, so it is asked, whoever types.
            PlayerAction::New | PlayerAction::Quit if self.journal_failing() => {
                self.ask(super::Question::Confirm(action), out);
                let word = self.first_word(action);
                let t = self.message("not_saved_leave", &[("command", &word)]);
                self.say(out, t, Priority::Normal, SayKind::Error);
            }
            // Resigning ends the game for good: asked like leaving it.
            PlayerAction::New | PlayerAction::Quit | PlayerAction::Resign
                if self.settings.ask_before_leaving
                    && (self.game_in_progress()
                        || (action == PlayerAction::Resign && !self.game.is_over())) =>
            {
                self.ask(super::Question::Confirm(action), out);
                let word = self.first_word(action);
                let key = match action {
                    PlayerAction::New => "confirm_new",
                    PlayerAction::Resign => "confirm_resign",
                    _ => "confirm_quit",
                };
                let t = self.message(key, &[("command", &word)]);
                self.info(out, t);
            }
            PlayerAction::New | PlayerAction::Quit => self.on_action_confirmed(action, now, out),
            PlayerAction::Draw => self.typed_draw_offer(out),
            PlayerAction::Accept => self.accept_draw(out),
            PlayerAction::Decline => self.decline_draw(out),
            PlayerAction::Resign => self.resign(out),
            PlayerAction::Hint
            | PlayerAction::Eval
            | PlayerAction::Threat
            | PlayerAction::Engine => {
                self.engine_action(action, out);
            }
            PlayerAction::Takeback => self.take_back(now, out),
            PlayerAction::Flip => {
                self.settings.me = !self.settings.me;
                if self.parts.engine.is_some() {
                    self.journal_engine_side(Some(!self.settings.me));
                }
                let side = self.talk.phraser.side(self.settings.me);
                let t = self.message("flipped", &[("side", &side)]);
                self.info(out, t);
            }
            PlayerAction::Repeat => match self.talk.last_said.clone() {
                Some(u) => out.push(Effect::Say(u)),
                None => {
                    let t = self.message("nothing_to_repeat", &[]);
                    self.info(out, t);
                }
            },
            PlayerAction::Silence => out.push(Effect::Silence),
            PlayerAction::Board => self.board_report(out),
            PlayerAction::Export => self.save(None, out),
            PlayerAction::Press => self.on_press(now, out),
            PlayerAction::Pause => self.on_pause(false, now, out),
            PlayerAction::Resume => self.on_pause(true, now, out),
            PlayerAction::Release => self.release_companion(out),
            // Online, `online_action` took them.
            PlayerAction::Abort | PlayerAction::Chat => {
                let t = self.message("lichess_only", &[]);
                self.say(out, t, Priority::Normal, SayKind::Error);
            }
            PlayerAction::Help => {
                let t = self.message("help_intro", &[]);
                self.info(out, t);
                let lines: Vec<String> = PlayerAction::ALL
                    .iter()
                    .filter(|&&a| self.applies_now(a))
                    .map(|&a| self.help_line(a))
                    .collect();
                for t in lines {
                    self.info(out, t);
                }
            }

            // Handled before they get here: what reads arguments by
            // `on_command` (`args: Read`), a review's own actions by
            // `on_review_action`, the view's keys by `on_key`.  Here the
            // arguments are missing: the help says how to ask.
            PlayerAction::Say
            | PlayerAction::Square
            | PlayerAction::Pieces
            | PlayerAction::Rank
            | PlayerAction::File
            | PlayerAction::Attackers
            | PlayerAction::Defenders
            | PlayerAction::Moves
            | PlayerAction::Last
            | PlayerAction::Claim
            | PlayerAction::Time
            | PlayerAction::Arbiter
            | PlayerAction::Next
            | PlayerAction::Previous
            | PlayerAction::First
            | PlayerAction::End
            | PlayerAction::Goto
            | PlayerAction::Games
            | PlayerAction::Game
            | PlayerAction::Find
            | PlayerAction::Comment
            | PlayerAction::Variations
            | PlayerAction::CursorUp
            | PlayerAction::CursorDown
            | PlayerAction::CursorLeft
            | PlayerAction::CursorRight
            | PlayerAction::CursorRank
            | PlayerAction::CursorFile
            | PlayerAction::NextPiece
            | PlayerAction::Select
            | PlayerAction::Cancel
            | PlayerAction::FlipView
            | PlayerAction::PieceStyle
            | PlayerAction::Coordinates
            | PlayerAction::MoveList
            | PlayerAction::Theme
            | PlayerAction::LargeText => {
                let t = self.help_line(action);
                self.say(out, t, Priority::Normal, SayKind::Error);
            }
        }
    }
}

/// The action a typed command asks for: its row of the table.
fn action_of(command: &Command) -> PlayerAction {
    match command {
        Command::Square(_) => PlayerAction::Square,
        Command::Pieces { .. } => PlayerAction::Pieces,
        Command::Rank(_) => PlayerAction::Rank,
        Command::File(_) => PlayerAction::File,
        Command::Attackers { .. } => PlayerAction::Attackers,
        Command::Defenders { .. } => PlayerAction::Defenders,
        Command::Moves(_) => PlayerAction::Moves,
        Command::Last(_) => PlayerAction::Last,
        Command::Claim(_) => PlayerAction::Claim,
        Command::Say(_) => PlayerAction::Say,
        Command::Export(_) | Command::ExportTo(_) => PlayerAction::Export,
        Command::Time(_) => PlayerAction::Time,
        Command::Arbiter(_) => PlayerAction::Arbiter,
        Command::HelpOn(_) => PlayerAction::Help,
        Command::Review(action, _) | Command::Do(action) => *action,
    }
}

#[cfg(test)]
mod language_tests {
    use std::time::Instant;

    use crate::app::App;
    use crate::msg::{Effect, Msg};
    use crate::words::Lang;

    fn said(app: &mut App, text: &str) -> Vec<String> {
        app.update(Msg::Line(text.into()), Instant::now())
            .iter()
            .filter_map(|e| match e {
                Effect::Say(u) => Some(u.text.clone()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn help_says_the_words_of_the_players_language() {
        let mut de = App::builder().lang(Lang::De).build();
        let help = said(&mut de, "hilfe").join("\n");
        assert!(
            help.contains("feld f3: was auf einem Feld steht."),
            "{help}"
        );
        assert!(!help.contains("square f3"), "{help}");
        let mut it = App::builder().lang(Lang::It).build();
        let help = said(&mut it, "aiuto").join("\n");
        assert!(
            help.contains("casa f3: che cosa c'è su una casa."),
            "{help}"
        );
        assert!(help.contains("pezzi bianco"), "{help}");
    }

    #[test]
    fn italian_exploration_words_answer_in_italian() {
        let mut it = App::builder().lang(Lang::It).build();
        for w in [
            "pezzi",
            "casa e4",
            "mosse e1",
            "traversa 4",
            "colonna e",
            "mosse g1",
        ] {
            let s = said(&mut it, w).join(" ");
            assert!(!s.is_empty(), "{w}");
            assert!(!s.contains("non è un comando"), "{w}: {s}");
            assert!(!s.contains("non è una mossa"), "{w}: {s}");
        }
    }
}

/// The table's columns and what the app does agree.
#[cfg(test)]
mod table_tests {
    use std::time::Instant;

    use crate::action::{Args, Place, PlayerAction, TABLE};
    use crate::app::App;
    use crate::msg::{Effect, Msg};
    use crate::scoresheet::review::PgnFile;

    fn texts(out: Vec<Effect>) -> Vec<String> {
        out.into_iter()
            .filter_map(|e| match e {
                Effect::Say(u) => Some(u.text),
                _ => None,
            })
            .collect()
    }

    /// An app reviewing a file of one game.
    fn reviewing() -> App {
        let file = "[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 *\n";
        let review = PgnFile::from_bytes(file.as_bytes().to_vec()).unwrap();
        App::builder().review(review).build()
    }

    /// An action that reads arguments (`args: Read`), asked for without
    /// them, answers with its help sentence, and only those do.
    #[test]
    fn the_args_column_is_what_the_handlers_do() {
        let now = Instant::now();
        for row in TABLE
            .iter()
            .filter(|r| !matches!(r.place, Place::Keys | Place::Review))
        {
            let mut app = App::builder().build();
            let mut out = Vec::new();
            app.on_action(row.action, now, &mut out);
            let help = app.help_line(row.action);
            assert_eq!(texts(out) == [help], row.args == Args::Read, "{}", row.name);
        }
    }

    /// `help` lists, in a review, the rows of place Anywhere and Review,
    /// in the table's order; in a game without clock, engine, board or
    /// opponent's screen, those of Anywhere, Game and GameOnly that need
    /// nothing.
    #[test]
    fn help_lists_what_the_table_allows_here() {
        let now = Instant::now();
        let mut reviewing = reviewing();
        let mut playing = App::builder().build();
        for (app, places) in [
            (&mut reviewing, &[Place::Anywhere, Place::Review][..]),
            (
                &mut playing,
                &[Place::Anywhere, Place::Game, Place::GameOnly][..],
            ),
        ] {
            let want: Vec<String> = TABLE
                .iter()
                .filter(|r| places.contains(&r.place))
                .filter(|r| r.needs == crate::action::Needs::Nothing)
                .map(|r| app.help_line(r.action))
                .collect();
            let said = texts(app.update(Msg::Line("help".into()), now));
            assert_eq!(said[1..], want[..]);
        }
    }

    /// A review refuses what the table says would change the game, with
    /// one sentence, and does nothing else.
    #[test]
    fn a_review_refuses_the_game_only_rows() {
        let now = Instant::now();
        for a in PlayerAction::ALL.iter().filter(|a| a.refused_in_review()) {
            let mut app = reviewing();
            let mut out = Vec::new();
            app.on_action(*a, now, &mut out);
            let refusal = app.message("review_not_here", &[]);
            assert_eq!(texts(out), [refusal], "{a:?}");
        }
    }

    /// Bug found on the way: a claim typed with its word ("claim", or
    /// "claim Nf3", which played the move) or asked for by its key was
    /// not refused in a review, though the review's list refused it.
    #[test]
    fn a_review_refuses_a_claim_however_it_is_asked() {
        let now = Instant::now();
        let mut app = reviewing();
        let _ = app.update(Msg::Start, now);
        let _ = app.update(Msg::Line("next".into()), now);
        let refusal = app.message("review_not_here", &[]);
        let before = app.game().history().len();
        for line in ["claim", "claim Nf3", "save", "save game.pgn"] {
            let said = texts(app.update(Msg::Line(line.into()), now));
            assert_eq!(said, std::slice::from_ref(&refusal), "{line}");
        }
        let key = Msg::Key(PlayerAction::Claim, crate::action::KeyArg::None);
        assert_eq!(texts(app.update(key, now)), [refusal]);
        assert_eq!(app.game().history().len(), before);
    }

    /// In a rated game without an engine, the engine's actions say there
    /// is none (as before the table), and `takeback` is refused.
    #[test]
    fn rated_refusals_come_after_what_is_missing() {
        let now = Instant::now();
        let mut app = App::builder().rated(true).build();
        let none = app.message("engine_none", &[]);
        let off = app.message("help_off_rated", &[]);
        assert_eq!(texts(app.update(Msg::Line("hint".into()), now)), [none]);
        let _ = app.update(Msg::Line("e4".into()), now);
        assert_eq!(texts(app.update(Msg::Line("takeback".into()), now)), [off]);
        assert_eq!(app.game().history().len(), 1);
    }
}
