//! The one dispatch of what a player asks for: a typed line, a key of
//! the full-screen view and a review's step all come as a [`Request`]
//! (an action of the table, `crate::action`, with its checked argument)
//! to [`App::dispatch`].  First what the table says of the action (a
//! review's own goes to the review, what a review refuses is refused
//! there, online play takes its own, a tournament game records the
//! action and refuses what its mode refuses, a rated game refuses outside
//! help),
//! then its handler: one arm of one `match`, which the compiler checks
//! names every action.  An action asked for without the argument it needs
//! gets its help sentence.

use std::time::Instant;

use shakmaty::{Move, Position, Square};

use super::App;
use super::change::Edit;
use super::clock;
use super::cursor::CursorNote;
use super::offers::DrawAction;
use super::online::Taken;
use super::review::{Asked, ReviewNote};
use super::status;
use super::voice::Voice;
use crate::action::{KeyArg, PlayerAction as A};
use crate::command::{Arg, Request, Side, TimeQuery};
use crate::game::Game;
use crate::msg::Effect;
use crate::speech::{Priority, SayKind};

impl App {
    /// The review's note: the game shown follows the review's cursor, and
    /// the note is said.
    pub(super) fn on_review_note(&mut self, note: ReviewNote, action: A, out: &mut Vec<Effect>) {
        if let Some(state) = self.parts.review.as_mut() {
            // A step of one move is played on (or taken back from) the
            // game shown; anything else replays it (`ReviewState::follow`).
            let mut shown = self.game.clone();
            if state.follow(&mut shown) {
                let _ = self.change(Edit::Show(shown));
            }
        }
        if let Some(state) = &mut self.parts.review {
            state.say(note, action, &mut Voice::new(&mut self.talk, out));
        }
    }

    /// Whether the key help lists an action's keys now: the view's own
    /// keys always, the rest when `help` would list it.
    pub fn key_applies_now(&self, action: A) -> bool {
        action.row().place == crate::action::Place::Keys || self.parts.applies_now(action)
    }

    /// A key of the full-screen view: the question waiting answered by
    /// it (the same key again confirms; yes or no answer whether to take
    /// back after the end), else its action, the questions about a
    /// square asked of the cursor's.
    pub(super) fn key(&mut self, action: A, arg: KeyArg, now: Instant, out: &mut Vec<Effect>) {
        if self.mode.question() == Some(&super::Question::TakebackAfterEnd) {
            self.mode = super::Mode::Playing;
            match action {
                A::Accept => {
                    let v = &mut Voice::new(&mut self.talk, out);
                    let note = self.parts.ask_takeback(true, &self.game, &self.settings, v);
                    return self.on_takeback(note, now, out);
                }
                A::Decline => {
                    let t = self.talk.text("takeback_after_end_kept", &[]);
                    return self.voice(out).info(t);
                }
                _ => {}
            }
        }
        if matches!(action, A::Quit | A::New | A::Resign)
            && self.mode.question() == Some(&super::Question::Confirm(action))
        {
            self.mode = super::Mode::Playing;
            return self.on_action_confirmed(action, now, out);
        }
        let request = key_request(action, arg, self.parts.view.cursor.square);
        self.dispatch(request, now, out);
    }

    /// `new` or `quit`, asked for and (where it is asked) confirmed.
    pub(super) fn on_action_confirmed(&mut self, action: A, now: Instant, out: &mut Vec<Effect>) {
        match action {
            A::New => {
                if self.parts.journal.keeps_game() {
                    // The game left is kept: said (issue 30).
                    let t = self.talk.text("new_game_kept", &[]);
                    self.voice(out).info(t);
                }
                let over = self.game.is_over();
                out.extend(
                    self.parts
                        .journal
                        .reading_of_left_game(over, self.clock(), now),
                );
                if let Some(e) = &mut self.parts.engine {
                    e.ask(super::engine::EngineAsk::NewGame);
                }
                self.replace_game(Game::new());
                self.parts.offers.forget();
                let game = &self.game;
                self.parts.clock = self.parts.clock.take().map(|c| c.for_new_game(game, now));
                let t = self.talk.text("new_game", &[]);
                self.voice(out).say(t, Priority::Normal, SayKind::Game);
            }
            A::Resign => self.draw_action(DrawAction::Resign, false, out),
            _ => {
                if self.parts.journal.failing() {
                    let t = self.parts.journal.saved_where_bye(&self.talk);
                    self.voice(out).info(t);
                }
                let t = self.talk.text("goodbye", &[]);
                self.voice(out).info(t);
                self.quitting = true;
                out.push(Effect::Quit);
            }
        }
    }

    /// What a player asked for, however they asked.
    pub(super) fn dispatch(&mut self, request: Request, now: Instant, out: &mut Vec<Effect>) {
        let action = request.action;
        // A review's own action: the review's (outside one, said so).
        if action.of_review() {
            let review = self.parts.review.as_mut();
            let v = &mut Voice::new(&mut self.talk, out);
            match super::review::ask(review, action, request.text(), v) {
                Asked::Note(note) => return self.on_review_note(*note, action, out),
                Asked::Said => return,
                Asked::Unanswered => {}
            }
        }
        // What would change the game, a review refuses.
        if self.parts.review.is_some() && action.refused_in_review() {
            // In review, what would change the game is not done.
            return Voice::new(&mut self.talk, out).error("review_not_here", &[]);
        }
        // Online, some actions are asked of the server (or refused).
        if request.arg == Arg::None
            && action != A::Say
            && let Some(o) = &mut self.parts.online
        {
            let mut v = super::voice::Voice::new(&mut self.talk, out);
            match o.action(action, &self.game, self.settings.me, &mut v) {
                Taken::No => {}
                Taken::Yes => return,
                Taken::Declined => {
                    let _ = self.change(Edit::DeclineDraw(self.settings.me));
                    return;
                }
            }
        }
        // A tournament game records every action, and refuses what the
        // table (and its arbiter) refuse, whatever parts there are.
        if let Some(t) = &mut self.parts.tournament {
            // A resignation or a claim typed is the side to move's
            // (`resign`, `claim`); every other action the player's at
            // hector.
            let by = match action {
                A::Resign | A::Claim => self.game.turn(),
                _ => self.settings.me,
            };
            let voice = &mut Voice::new(&mut self.talk, out);
            if t.gate(by, action, &request.arg, &mut self.parts.journal, voice) {
                return;
            }
        }
        // Outside help in a rated game; an engine's action without an
        // engine is answered by its handler ("there is no engine").
        if self.settings.rated && action.refused_when_rated() && self.parts.has(action.row().needs)
        {
            let t = self.talk.text("help_off_rated", &[]);
            self.voice(out).info(t);
            return;
        }
        let arg = request.arg;
        let pos = self.game.position().clone();
        let missing = |app: &mut App, out: &mut Vec<Effect>| {
            let t = app.talk.help_line(action);
            app.voice(out).say(t, Priority::Normal, SayKind::Error);
        };
        match action {
            A::Square => {
                let Arg::Square(sq) = arg else {
                    return missing(self, out);
                };
                let t = self.talk.phraser.square_contents(&pos, sq);
                self.voice(out).info(t);
            }
            A::Pieces => {
                let Arg::Pieces { side, role } = arg else {
                    return missing(self, out);
                };
                let t = self
                    .talk
                    .phraser
                    .pieces(&pos, side.colour(self.settings.me), role);
                self.voice(out).info(t);
            }
            A::Rank => {
                let Arg::Rank(r) = arg else {
                    return missing(self, out);
                };
                let t = self.talk.phraser.rank_scan(&pos, r);
                self.voice(out).info(t);
            }
            A::File => {
                let Arg::File(f) = arg else {
                    return missing(self, out);
                };
                let t = self.talk.phraser.file_scan(&pos, f);
                self.voice(out).info(t);
            }
            A::Attackers => {
                let Arg::SquareSide(square, side) = arg else {
                    return missing(self, out);
                };
                // By default: the pieces that attack the player's own piece
                // there, or the opponent's if the square is empty or the
                // opponent's.
                let colour = match side {
                    Some(s) => s.colour(self.settings.me),
                    None => match pos.board().color_at(square) {
                        Some(c) => !c,
                        None => !pos.turn(),
                    },
                };
                let t = self.talk.phraser.attackers(&pos, square, colour);
                self.voice(out).info(t);
            }
            A::Defenders => {
                let Arg::SquareSide(square, side) = arg else {
                    return missing(self, out);
                };
                // The pieces of `side` that defend the square; by default
                // the side of the piece on it (or the player to move).
                let colour = match side {
                    Some(s) => s.colour(self.settings.me),
                    None => pos.board().color_at(square).unwrap_or(pos.turn()),
                };
                let t = self.talk.phraser.defenders(&pos, square, colour);
                self.voice(out).info(t);
            }
            A::Moves => {
                let Arg::Square(square) = arg else {
                    return missing(self, out);
                };
                let t = self.talk.phraser.legal_moves_from(&pos, square);
                self.voice(out).info(t);
            }
            A::Last => {
                let Arg::Count(n) = arg else {
                    return missing(self, out);
                };
                let mut recent: Vec<(shakmaty::Chess, Move)> = self
                    .game
                    .positions()
                    .rev()
                    .take(n)
                    .map(|(before, played)| (before.clone(), played.mv))
                    .collect();
                recent.reverse();
                let t = self.talk.phraser.last_moves(&recent, n);
                self.voice(out).info(t);
            }
            A::Material => {
                let t = self.talk.phraser.material(&pos);
                self.voice(out).info(t);
            }
            A::Turn => {
                let t = self.prompt();
                self.voice(out).info(t);
            }
            A::Claim => {
                let text = match arg {
                    Arg::Text(t) => Some(t),
                    _ => None,
                };
                self.claim(super::claims::Claimant::Player(text), now, out);
            }
            A::Say => match (arg, &self.parts.online) {
                (Arg::Text(text), Some(o)) => {
                    o.say(&text, &mut super::voice::Voice::new(&mut self.talk, out));
                }
                (Arg::Text(_), None) => {
                    let t = self.talk.text("lichess_only", &[]);
                    self.voice(out).say(t, Priority::Normal, SayKind::Error);
                }
                // `say` alone: how to use it.
                _ => missing(self, out),
            },
            A::Export => {
                let mut v = Voice::new(&mut self.talk, out);
                match arg {
                    Arg::Format(f) => self.parts.journal.save(Some(f), &mut v),
                    Arg::Path(file) => self.parts.journal.save_to(&file, &mut v),
                    _ => self.parts.journal.save(None, &mut v),
                }
            }
            A::Time => {
                let q = match arg {
                    Arg::Time(q) => q,
                    _ => TimeQuery::Both,
                };
                let App {
                    game,
                    parts,
                    talk,
                    settings,
                    ..
                } = self;
                let clock = parts.clock.as_ref();
                let voice = &mut Voice::new(talk, out);
                if !clock::say_time(clock, q, settings.me, game, &mut parts.journal, now, voice) {
                    // No clock: online, a correspondence game's days a move.
                    let online = parts.online.as_ref().and_then(|o| o.no_clock(voice.talk()));
                    let t = online.unwrap_or_else(|| voice.text("clock_none", &[]));
                    voice.say(t, Priority::Normal, SayKind::Error);
                }
            }
            A::Arbiter => {
                let Arg::Arbiter(op) = arg else {
                    return missing(self, out);
                };
                self.on_arbiter(op, out);
            }
            // The journal cannot be written: leaving loses the moves unless
            // they are saved elsewhere, so it is asked, whoever types.
            A::New | A::Quit
                if self.parts.journal.failing() && self.parts.journal.copy_current().is_none() =>
            {
                self.ask(super::Question::Confirm(action), out);
                let word = self.talk.word(action);
                let t = self.talk.text("not_saved_leave", &[("command", &word)]);
                self.voice(out).say(t, Priority::Normal, SayKind::Error);
            }
            // Resigning ends the game for good: asked like leaving it.
            A::New | A::Quit | A::Resign
                if self.settings.ask_before_leaving
                    && (status::in_progress(&self.game)
                        || (action == A::Resign && !self.game.is_over())) =>
            {
                self.ask(super::Question::Confirm(action), out);
                let word = self.talk.word(action);
                let key = match action {
                    A::New => "confirm_new",
                    A::Resign => "confirm_resign",
                    _ => "confirm_quit",
                };
                let t = self.talk.text(key, &[("command", &word)]);
                self.voice(out).info(t);
            }
            A::New | A::Quit => self.on_action_confirmed(action, now, out),
            A::Confirm => {
                let me = self.settings.me;
                let v = &mut Voice::new(&mut self.talk, out);
                self.parts.confirm_result(me, &self.game, me, v);
            }
            A::Draw => self.draw_action(DrawAction::Typed, false, out),
            A::Accept => self.draw_action(DrawAction::Accept, false, out),
            A::Decline => self.draw_action(DrawAction::Decline, false, out),
            A::Resign => self.draw_action(DrawAction::Resign, false, out),
            A::Hint | A::Eval | A::Threat | A::Engine => match &mut self.parts.engine {
                Some(e) => e.action(action, &mut Voice::new(&mut self.talk, out)),
                None => {
                    let t = self.talk.text("engine_none", &[]);
                    self.voice(out).info(t);
                }
            },
            A::Takeback => {
                let v = &mut Voice::new(&mut self.talk, out);
                let note = self
                    .parts
                    .ask_takeback(false, &self.game, &self.settings, v);
                self.on_takeback(note, now, out)
            }
            A::Flip => {
                self.settings.me = !self.settings.me;
                if self.parts.engine.is_some() {
                    self.parts.journal.engine_side(Some(!self.settings.me));
                }
                let side = self.talk.phraser.side(self.settings.me);
                let t = self.talk.text("flipped", &[("side", &side)]);
                self.voice(out).info(t);
            }
            A::Repeat => match self.talk.last_said.clone() {
                Some(u) => out.push(Effect::Say(u)),
                None => {
                    let t = self.talk.text("nothing_to_repeat", &[]);
                    self.voice(out).info(t);
                }
            },
            A::Silence => out.push(Effect::Silence),
            A::Board => self
                .parts
                .boards
                .report(&mut Voice::new(&mut self.talk, out)),
            A::Press => self.on_press(now, out),
            A::Pause | A::Resume => {
                let voice = &mut Voice::new(&mut self.talk, out);
                let part = self.parts.clock.as_mut();
                if let Some(side) = clock::pause(part, action == A::Resume, &self.game, now, voice)
                {
                    self.flag_fell(side, out);
                }
            }
            A::Release => {
                let note = self.parts.companion.release();
                self.on_companion_note(note, now, out);
            }
            // Online, the online part took them.
            A::Abort | A::Chat => {
                let t = self.talk.text("lichess_only", &[]);
                self.voice(out).say(t, Priority::Normal, SayKind::Error);
            }
            A::Help => match arg {
                Arg::Action(of) => {
                    let t = self.talk.help_line(of);
                    self.voice(out).info(t);
                }
                _ => {
                    let t = self.talk.text("help_intro", &[]);
                    self.voice(out).info(t);
                    let lines: Vec<String> = A::ALL
                        .iter()
                        .filter(|&&a| self.parts.applies_now(a))
                        .map(|&a| self.talk.help_line(a))
                        .collect();
                    for t in lines {
                        self.voice(out).info(t);
                    }
                }
            },
            // A review's own, in a review that has no answer for it (none
            // has: `on_review_action` took them).
            A::Next
            | A::Previous
            | A::First
            | A::End
            | A::Goto
            | A::Games
            | A::Game
            | A::Find
            | A::Comment
            | A::Variations => missing(self, out),
            // The full-screen view's keys: the cursor and the look.
            A::CursorUp
            | A::CursorDown
            | A::CursorLeft
            | A::CursorRight
            | A::CursorRank
            | A::CursorFile
            | A::NextPiece
            | A::Select
            | A::Cancel
            | A::FlipView => self.cursor_action(action, arg, now, out),
            A::PieceStyle | A::Coordinates | A::MoveList | A::Theme | A::LargeText => {
                let mut v = Voice::new(&mut self.talk, out);
                super::look::change(&mut self.parts.view.look, action, &mut v);
            }
        }
    }

    /// The square cursor's actions: exploring (each step said), choosing
    /// a move with it (played, or read as if typed to say why not).
    fn cursor_action(&mut self, action: A, arg: Arg, now: Instant, out: &mut Vec<Effect>) {
        let me = self.settings.me;
        let cursor = &mut self.parts.view.cursor;
        let pos = self.game.position();
        let mut v = Voice::new(&mut self.talk, out);
        let up = if cursor.white_at_bottom(me) { 1 } else { -1 };
        let note = match (action, arg) {
            (A::CursorUp, _) => return cursor.step(0, up, pos, &mut v),
            (A::CursorDown, _) => return cursor.step(0, -up, pos, &mut v),
            (A::CursorRight, _) => return cursor.step(up, 0, pos, &mut v),
            (A::CursorLeft, _) => return cursor.step(-up, 0, pos, &mut v),
            (A::CursorRank, Arg::Rank(r)) => {
                let sq = Square::from_coords(cursor.square.file(), r);
                return cursor.go(sq, pos, &mut v);
            }
            (A::CursorFile, Arg::File(f)) => {
                let sq = Square::from_coords(f, cursor.square.rank());
                return cursor.go(sq, pos, &mut v);
            }
            (A::NextPiece, Arg::Role(role)) if cursor.promoting.is_some() => {
                cursor.promote_to(role, pos, &mut v)
            }
            (A::NextPiece, Arg::Role(role)) => return cursor.next_piece(role, pos, &mut v),
            (A::Select, arg) => {
                if let Arg::Square(s) = arg {
                    cursor.square = s;
                }
                cursor.select(&self.game, &mut v)
            }
            (A::Cancel, _) => return cursor.cancel(&mut v),
            (A::FlipView, _) => return cursor.flip(me, &mut v),
            // A jump without what its key gives it: how to ask.
            _ => {
                let t = self.talk.help_line(action);
                return self.voice(out).say(t, Priority::Normal, SayKind::Error);
            }
        };
        match note {
            Some(CursorNote::Play(mv)) => self.play(mv, now, out),
            Some(CursorNote::Typed(text)) => self.on_move_text(&text, now, out),
            None => {}
        }
    }
}

/// The request of a key of the full-screen view: what it gives (a rank, a
/// file, a kind of piece, a square clicked), and for the questions about
/// a square, the cursor's square `at` (its rank, its file; the player's
/// pieces; the last move; both times).
fn key_request(action: A, arg: KeyArg, at: Square) -> Request {
    let arg = match (action, arg) {
        (_, KeyArg::Rank(r)) => Arg::Rank(r),
        (_, KeyArg::File(f)) => Arg::File(f),
        (_, KeyArg::Role(r)) => Arg::Role(r),
        (_, KeyArg::Square(s)) => Arg::Square(s),
        (A::Square | A::Moves, KeyArg::None) => Arg::Square(at),
        (A::Attackers | A::Defenders, KeyArg::None) => Arg::SquareSide(at, None),
        (A::Rank, KeyArg::None) => Arg::Rank(at.rank()),
        (A::File, KeyArg::None) => Arg::File(at.file()),
        (A::Pieces, KeyArg::None) => Arg::Pieces {
            side: Side::Mine,
            role: None,
        },
        (A::Last, KeyArg::None) => Arg::Count(1),
        (A::Time, KeyArg::None) => Arg::Time(TimeQuery::Both),
        (_, KeyArg::None) => Arg::None,
    };
    Request::new(action, arg)
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
    use crate::command::{Arg, Request};
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
    /// them, answers with its help sentence, and only those do; but for
    /// the two whose argument may be left out, as typed or by a key: a
    /// claim on the position, both times.
    #[test]
    fn the_args_column_is_what_the_handlers_do() {
        let now = Instant::now();
        for row in TABLE
            .iter()
            .filter(|r| !matches!(r.place, Place::Keys | Place::Review))
            .filter(|r| !matches!(r.action, PlayerAction::Claim | PlayerAction::Time))
        {
            let mut app = App::builder().build();
            let mut out = Vec::new();
            app.dispatch(Request::new(row.action, Arg::None), now, &mut out);
            let help = app.talk.help_line(row.action);
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
                .map(|r| app.talk.help_line(r.action))
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
            app.dispatch(Request::new(*a, Arg::None), now, &mut out);
            let refusal = app.talk.text("review_not_here", &[]);
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
        let refusal = app.talk.text("review_not_here", &[]);
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
        let none = app.talk.text("engine_none", &[]);
        let off = app.talk.text("help_off_rated", &[]);
        assert_eq!(texts(app.update(Msg::Line("hint".into()), now)), [none]);
        let _ = app.update(Msg::Line("e4".into()), now);
        assert_eq!(texts(app.update(Msg::Line("takeback".into()), now)), [off]);
        assert_eq!(app.game().history().len(), 1);
    }
}
