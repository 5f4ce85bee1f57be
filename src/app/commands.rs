//! Typed commands: questions about the position and the actions of the
//! session ([`PlayerAction`]).

use std::time::Instant;

use shakmaty::{Color, Move, Position};

use super::App;
use crate::action::PlayerAction;
use crate::command::{Command, Side};
use crate::game::Game;
use crate::msg::Effect;
use crate::speech::{Priority, SayKind};

impl App {
    pub(super) fn help_line(&self, action: PlayerAction) -> String {
        let word = self
            .talk
            .keymap
            .words(action)
            .first()
            .cloned()
            .unwrap_or_else(|| action.key().to_owned());
        self.help_with(action, &word)
    }

    /// What `action` does, reached by `command` (its word, or its keys
    /// in the full-screen view): the one wording of help, said by
    /// `help` and the key help, shown by the view's help page.
    pub fn help_with(&self, action: PlayerAction, command: &str) -> String {
        self.message(&format!("help_{}", action.key()), &[("command", command)])
    }

    /// Whether `help` lists a command now: the review's commands only in a
    /// review, the game's only in a game, and the clock's, the engine's,
    /// the board's and the opponent's screen's only when there is one.
    /// (Every command still answers when typed, and `help WORD` gives its
    /// help.)
    fn applies_now(&self, action: PlayerAction) -> bool {
        use PlayerAction as A;
        let reviewing = self.reviewing();
        match action {
            a if a.key_only() => false,
            A::Next
            | A::Previous
            | A::First
            | A::End
            | A::Goto
            | A::Games
            | A::Game
            | A::Find
            | A::Comment
            | A::Variations => reviewing,
            _ if reviewing => matches!(
                action,
                A::Square
                    | A::Pieces
                    | A::Rank
                    | A::File
                    | A::Attackers
                    | A::Defenders
                    | A::Moves
                    | A::Last
                    | A::Material
                    | A::Turn
                    | A::Repeat
                    | A::Silence
                    | A::Help
                    | A::Quit
            ),
            A::Time | A::Press | A::Pause | A::Resume => self.parts.clock.is_some(),
            A::Hint | A::Eval | A::Threat | A::Engine => self.parts.engine.is_some(),
            A::Board => self.parts.boards.player().is_some(),
            A::Release => self.parts.companion.running(),
            _ => true,
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
            Command::Export(_) | Command::ExportTo(_) if self.reviewing() => {
                self.review_refuses(out)
            }
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

    /// An action without arguments.  One asked for without the arguments
    /// it needs gets its help sentence.
    pub(super) fn on_action(&mut self, action: PlayerAction, now: Instant, out: &mut Vec<Effect>) {
        if self.on_review_action(action, None, out) {
            return;
        }
        if self.reviewing()
            && matches!(
                action,
                PlayerAction::Draw
                    | PlayerAction::Accept
                    | PlayerAction::Decline
                    | PlayerAction::Resign
                    | PlayerAction::New
                    | PlayerAction::Export
                    | PlayerAction::Claim
                    | PlayerAction::Takeback
                    | PlayerAction::Hint
                    | PlayerAction::Threat
                    | PlayerAction::Engine
            )
        {
            self.review_refuses(out);
            return;
        }
        if self.online_action(action, out) {
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
                let word = self
                    .talk
                    .keymap
                    .words(action)
                    .first()
                    .cloned()
                    .unwrap_or_else(|| action.key().to_owned());
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
                let word = self
                    .talk
                    .keymap
                    .words(action)
                    .first()
                    .cloned()
                    .unwrap_or_else(|| action.key().to_owned());
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

            PlayerAction::Square
            | PlayerAction::Pieces
            | PlayerAction::Rank
            | PlayerAction::File
            | PlayerAction::Attackers
            | PlayerAction::Defenders
            | PlayerAction::Moves
            | PlayerAction::Last
            | PlayerAction::Claim
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
            | PlayerAction::Time
            | PlayerAction::Arbiter => {
                let t = self.help_line(action);
                self.say(out, t, Priority::Normal, SayKind::Error);
            }
            PlayerAction::CursorUp
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
                // Keys of the full-screen view (Msg::Key); no typed word
                // calls them.
                let t = self.help_line(action);
                self.say(out, t, Priority::Normal, SayKind::Error);
            }
        }
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
