//! The game in progress and everything said about it: [`App::update`] takes
//! what happened and returns what to do.  No I/O, no clock of its own: the
//! caller passes `now`, so every behaviour is tested by feeding messages.
//!
//! The App's own files: this one (the App, `update`, typed lines and
//! moves, the prompt), `change.rs` (the one writer of the game and the
//! stream of its changes to the parts), `dispatch.rs` (the one dispatch of
//! what the player asks for), `rules.rs` (what the rules do to the game,
//! as the clock, offers, claims, arbiter and take-back parts note it),
//! `notes.rs` (what reaches a part handed to it, and what its notes ask
//! of the App), `show.rs` (what the screens show), `voice.rs` (how the
//! App and its parts speak) and `builder.rs`.  Every other file is a part
//! (`parts.rs` lists them): a type with its own state and handling, which
//! adds no method to the App.

use std::time::Instant;

use shakmaty::{Color, Move, Position};

use crate::action::PlayerAction;
use crate::board::BoardSession;
use crate::board::session::promotion_role;
use crate::command::{ArgReader, Input, read_line};
use crate::game::Game;
use crate::msg::{Effect, Msg};
use crate::notation::Reader;
use crate::phrase::Phraser;
use crate::speech::{Priority, SayKind};
use crate::words::vocab::MoveWords;
use board::Seat;

mod arbiter;
mod board;
mod broadcast;
mod builder;
mod change;
mod claims;
mod clock;
mod companion;
mod cursor;
mod dispatch;
mod engine;
mod look;
mod notes;
mod offers;
mod online;
mod online_record;
mod review;
mod rules;
mod scoresheet;
mod show;
mod status;
mod takeback;
mod tournament;
mod voice;

pub use review::{pgn_problem_sentence, start_error_sentence};
mod opponent_board;
mod parts;

pub use builder::AppBuilder;
pub use clock::ClockSetup;
pub use engine::EngineSetup;
pub use online::OnlineStart;
pub use tournament::TournamentSetup;

/// A question hector asked that the next line may answer.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Question {
    /// `new` or `quit` during a game in progress: say it again or yes.
    Confirm(PlayerAction),
    /// A promotion typed without its piece: these moves differ only in it.
    Promotion(Vec<Move>),
    /// `takeback` after the end of a two-player game: yes if both players
    /// agree to reopen it.
    TakebackAfterEnd,
}

/// What the next typed line answers.  One at a time: the input answers the
/// last thing asked, so two questions never wait together.
///
/// A review (`hector review`) and a take-back awaited on the board are not
/// modes of the input: a question may be asked during either, so they are
/// kept beside the mode (`Parts::review`, `Parts::takeback`).
#[derive(Debug, Default)]
enum Mode {
    /// Lines are moves and commands.
    #[default]
    Playing,
    /// A question hector asked that the next line may answer.
    Question(Question),
    /// An arbiter function waiting for its confirmation: the next line
    /// answers it, yes or anything else.
    ArbiterPending(crate::command::ArbiterOp),
    /// A saved game waits for the answer: resume it?  Every line and key
    /// answers it (the game behind it is not the one to be played).
    AskingResume(Box<crate::scoresheet::ResumeOffer>),
}

impl Mode {
    /// The resume question waits for its answer.
    fn asking_resume(&self) -> bool {
        matches!(self, Mode::AskingResume(_))
    }

    /// The question waiting, if one is.
    fn question(&self) -> Option<&Question> {
        match self {
            Mode::Question(q) => Some(q),
            _ => None,
        }
    }

    /// The question waiting, taken to be answered (the mode is back to
    /// playing); any other mode stays.
    fn take_question(&mut self) -> Option<Question> {
        match std::mem::take(self) {
            Mode::Question(q) => Some(q),
            other => {
                *self = other;
                None
            }
        }
    }
}

/// All state of the session: the game, what the next line answers, and
/// the parts that follow the game (`parts.rs`).
///
/// The App routes each message to the part it is for, gives every change
/// of the game to every part (`change.rs`), and does what only it may:
/// change the game, wake another part.  A new part is one more field of
/// `Parts`, its file, and its lines in `notes.rs` and `change.rs`.
pub struct App {
    game: Game,
    /// What the next line answers (a question, a confirmation).
    mode: Mode,
    /// Words, reader, key map: how the app talks with the player.
    talk: voice::Talk,
    /// Whose pieces are "mine", and the player's choices.
    settings: parts::Settings,
    /// The boards, clock, engine, journal, page, review, offers, view.
    parts: parts::Parts,
    /// True once the session is ending (the [`Effect::Quit`] was given).
    quitting: bool,
    /// The game's changes not yet given to the parts (`change.rs`).
    changes: Vec<change::GameChange>,
}

impl App {
    /// An app with the built-in words and settings, changed as wanted; it
    /// reads no file.
    pub fn builder() -> AppBuilder {
        AppBuilder::default()
    }

    /// Use a board (its session starts at the game's position): for the
    /// tests (`hector::testing::attach_board`); a player's board comes
    /// with [`Msg::BoardChosen`].
    #[cfg(any(test, feature = "test-support"))]
    pub(crate) fn attach_board(&mut self, session: BoardSession) {
        self.parts.boards.open(board::Seat::Player, session);
    }

    /// The board session, if a board is used.
    pub fn board(&self) -> Option<&BoardSession> {
        self.parts.boards.player()
    }

    /// The game in progress.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The phrasing, in the player's words.
    pub fn phraser(&self) -> &Phraser {
        &self.talk.phraser
    }

    /// The reader of typed moves, with the player's vocabularies.
    pub fn reader(&self) -> &Reader {
        &self.talk.reader
    }

    /// Whose pieces are "mine".
    pub fn me(&self) -> Color {
        self.settings.me
    }

    /// The last sentence said (what the full-screen view shows large).
    pub fn last_said_text(&self) -> Option<&str> {
        self.talk.last_said.as_ref().map(|u| u.text.as_str())
    }

    /// The game's journal part, read-only: its id, the scoresheet it
    /// keeps in memory (what is exported when the disk failed), whether
    /// it cannot be written now.
    pub(crate) fn journal(&self) -> &scoresheet::Journal {
        &self.parts.journal
    }

    /// The full-screen view's state kept by the app, read-only: the look
    /// and the square cursor (its square, the piece chosen, flipped).
    pub(crate) fn view_state(&self) -> &parts::ViewState {
        &self.parts.view
    }

    /// The clock, when the game has one.
    pub fn clock(&self) -> Option<&crate::clock::Clock> {
        self.parts.clock.as_ref().map(clock::ClockPart::clock)
    }

    /// When the app next wants a [`Msg::Deadline`]: the board's settle
    /// time (a move that may still be on its way, a mismatch to report).
    pub fn next_deadline(&self) -> Option<Instant> {
        self.parts.next_deadline(&self.game)
    }

    /// The prompt of line mode: whose move and the move number, and a
    /// standing draw offer; once the game is over, how it ended.
    pub fn prompt(&self) -> String {
        // The question waits: the new game behind it is not the one played.
        if self.mode.asking_resume() {
            return self.talk.text("prompt_resume", &[]);
        }
        let p = status::prompt_of_game(&self.game, &self.parts, &self.talk);
        if self.parts.journal.failing() {
            // Unsaved moves are never silent; a copy saved since the last
            // move holds them (issue 30).
            if let Some(path) = self.parts.journal.copy_current() {
                return self
                    .talk
                    .text("prompt_saved_copy", &[("prompt", &p), ("path", path)]);
            }
            return self.talk.text("prompt_not_saved", &[("prompt", &p)]);
        }
        p
    }

    /// Ask a question that the next line answers.  An arbiter's
    /// confirmation waiting (possible with keys, which do not answer it)
    /// is cancelled and said so, as any line but yes cancels it; the
    /// resume question is never replaced (keys answer it too, so nothing
    /// else is asked while it waits).
    fn ask(&mut self, q: Question, out: &mut Vec<Effect>) {
        match &self.mode {
            Mode::AskingResume(_) => {}
            Mode::ArbiterPending(_) => {
                self.mode = Mode::Question(q);
                let t = self.talk.text("arbiter_cancelled", &[]);
                self.voice(out).say(t, Priority::Normal, SayKind::Game);
            }
            Mode::Playing | Mode::Question(_) => self.mode = Mode::Question(q),
        }
    }

    /// Handle one message.
    #[must_use]
    pub fn update(&mut self, msg: Msg, now: Instant) -> Vec<Effect> {
        let mut out = Vec::new();
        let was_quitting = self.quitting;
        // Ctrl-C, SIGTERM, SIGHUP: leaving is not held for the broadcast.
        let interrupted = matches!(msg, Msg::Interrupted);
        // How the actions of this message came, for a tournament game's log.
        if let Some(t) = &mut self.parts.tournament {
            t.heard(&msg);
        }
        // The clock first: a flag that fell before this message wins.
        let voice = &mut voice::Voice::new(&mut self.talk, &mut out);
        let flag = (self.parts.clock.as_mut()).and_then(|c| c.tick(&self.game, now, voice));
        if let Some(side) = flag {
            self.flag_fell(side, &mut out);
        }
        match msg {
            // What a line is depends on the mode: the answer to what was
            // asked, else a move or a command (a question's answer among
            // them: `on_line`).
            Msg::Line(line) => match self.mode {
                Mode::AskingResume(_) => {
                    let answer = self.talk.answer(&line);
                    self.on_resume_answer(answer, now, &mut out);
                }
                Mode::ArbiterPending(_) => {
                    // Yes carries it out; anything else cancels.
                    let first = line.split_whitespace().next().unwrap_or("");
                    let yes = self.talk.keymap.command(first) == Some(PlayerAction::Accept);
                    self.arbiter_answered(yes, now, &mut out);
                    self.sync_seat(Seat::Player, now, &mut out);
                }
                Mode::Playing | Mode::Question(_) => {
                    self.on_line(&line, now, &mut out);
                    self.sync_seat(Seat::Player, now, &mut out);
                }
            },
            // A key answers the resume question like a line (before, a
            // key could ask another question behind it, which the next
            // line after the answer then confirmed in the resumed game).
            Msg::Key(action, _) if self.mode.asking_resume() => {
                self.on_resume_answer(Some(action), now, &mut out)
            }
            Msg::Journal(crate::scoresheet::JournalStatus::Digest(d)) => {
                let t = self.parts.tournament.as_mut();
                let voice = &mut voice::Voice::new(&mut self.talk, &mut out);
                tournament::digest_said(t, &d, &mut self.parts.companion, voice);
            }
            Msg::Journal(status) => {
                let mut v = voice::Voice::new(&mut self.talk, &mut out);
                self.parts.journal.on_status(status, &mut v);
            }
            Msg::Resume(offer) => self.on_resume_offer(*offer, now, &mut out),
            Msg::Exported(result) => {
                if let Ok(path) = &result {
                    self.parts.journal.copied(path);
                }
                scoresheet::say_exported(result, &mut self.voice(&mut out));
            }
            Msg::Board(event) => {
                let notes = self.parts.boards.link(Seat::Player, event, now);
                self.on_seat_notes(Seat::Player, notes, now, &mut out);
            }
            Msg::EndOfInput | Msg::Interrupted if self.parts.journal.failing() => {
                // Unsaved moves are never silent, even when leaving.
                let t = self.parts.journal.saved_where_bye(&self.talk);
                self.voice(&mut out)
                    .say(t, Priority::Normal, SayKind::Error);
                if matches!(msg, Msg::Interrupted)
                    || !self.parts.engine_defers_quit(
                        &self.game,
                        self.settings.me,
                        self.mode.asking_resume(),
                    )
                {
                    let t = self.talk.text("goodbye", &[]);
                    self.voice(&mut out).info(t);
                    self.quitting = true;
                    out.push(Effect::Quit);
                }
            }
            Msg::EndOfInput => {
                // In a terminal, Ctrl-D in mid-game is a quit: said.
                if self.settings.ask_before_leaving && status::in_progress(&self.game) {
                    let t = self.talk.text("goodbye", &[]);
                    self.voice(&mut out).info(t);
                }
                // The engine's move is never dropped: quit after it.
                if !self.parts.engine_defers_quit(
                    &self.game,
                    self.settings.me,
                    self.mode.asking_resume(),
                ) {
                    self.quitting = true;
                    out.push(Effect::Quit);
                }
            }
            Msg::Interrupted => {
                let t = self.talk.text("goodbye", &[]);
                self.voice(&mut out).info(t);
                self.quitting = true;
                out.push(Effect::Quit);
            }
            Msg::Engine(io) => {
                if let Some(e) = &mut self.parts.engine {
                    e.handle_io(io, now);
                }
            }
            Msg::Deadline => {
                // A hang of the engine is found here.
                if let Some(e) = &mut self.parts.engine {
                    e.handle_time(now);
                }
                for seat in [Seat::Player, Seat::Opponent] {
                    let notes = self.parts.boards.tick(seat, now);
                    self.on_seat_notes(seat, notes, now, &mut out);
                }
                let over = self.game.is_over();
                if let Some(o) = &mut self.parts.online {
                    let notes = o.tick(now, over, &mut voice::Voice::new(&mut self.talk, &mut out));
                    self.on_online_notes(notes, now, &mut out);
                }
                if let Some(b) = &mut self.parts.broadcast {
                    b.tick(now, &mut voice::Voice::new(&mut self.talk, &mut out));
                }
            }
            Msg::Speech(status) => status::speech(status, &mut self.voice(&mut out)),
            Msg::Audio(status) => status::audio(status, &mut self.voice(&mut out)),
            Msg::Problem(p) => status::problem(&p, &mut self.voice(&mut out)),
            Msg::BoardChosen(choice) => {
                let voice = &mut voice::Voice::new(&mut self.talk, &mut out);
                (self.parts.boards).chosen(Seat::Player, choice, &self.game, voice);
            }
            Msg::Key(action, arg) => {
                self.key(action, arg, now, &mut out);
                self.sync_seat(Seat::Player, now, &mut out);
            }
            Msg::KeyHelp(lines) => {
                let t = self.talk.text("help_intro", &[]);
                self.voice(&mut out).info(t);
                for (action, keys) in lines {
                    let t = self.talk.phraser.key_help(action.key(), &keys);
                    self.voice(&mut out).info(t);
                }
            }
            Msg::Start => {
                // A resume question waiting is the first thing said.
                if let Some(review) = &mut self.parts.review {
                    // The only game of the file opened; else the games.
                    if review.count() == 1 {
                        let note = review.open(1);
                        self.on_review_note(note, PlayerAction::Game, &mut out);
                    } else {
                        review.say_start(&mut voice::Voice::new(&mut self.talk, &mut out));
                    }
                } else {
                    // (A game resumed at once has said so.)
                    // (Online, the game is lichess's: its start is said.)
                    if !self.mode.asking_resume()
                        && !self.parts.journal.resumed()
                        && self.parts.online.is_none()
                    {
                        let t = status::opening(&self.game, &self.talk, &self.prompt());
                        self.voice(&mut out).say(t, Priority::Normal, SayKind::Game);
                    }
                    self.parts.tournament_started(
                        self.mode.asking_resume(),
                        self.settings.me,
                        &mut voice::Voice::new(&mut self.talk, &mut out),
                    );
                    if let Some(c) = &mut self.parts.clock {
                        c.begin(&self.game, now);
                    }
                    if let Some(e) = &mut self.parts.engine {
                        let note = e.start(now);
                        self.on_engine_notes(vec![note], now, &mut out);
                    }
                    if let Some(o) = &mut self.parts.online {
                        o.start(&mut voice::Voice::new(&mut self.talk, &mut out));
                    }
                }
            }
            Msg::OpponentBoardChosen(choice) => {
                let voice = &mut voice::Voice::new(&mut self.talk, &mut out);
                (self.parts.boards).chosen(Seat::Opponent, choice, &self.game, voice);
            }
            Msg::OpponentBoard(event) => {
                let notes = self.parts.boards.link(Seat::Opponent, event, now);
                self.on_seat_notes(Seat::Opponent, notes, now, &mut out);
            }
            Msg::CompanionChosen(choice) => {
                let note = self.parts.companion.chosen(choice);
                self.on_companion_note(note, now, &mut out);
            }
            Msg::Companion(event) => {
                if let Some(note) = self.parts.companion.handle(event) {
                    self.on_companion_note(note, now, &mut out);
                }
            }
            Msg::CompanionReleased { code } => {
                let note = self.parts.companion.released(code);
                self.on_companion_note(note, now, &mut out);
            }
            Msg::Lichess(io) => self.on_lichess(io, now, &mut out),
            Msg::Broadcast { seq, outcome } => {
                if let Some(b) = &mut self.parts.broadcast {
                    b.done(
                        seq,
                        outcome,
                        now,
                        &mut voice::Voice::new(&mut self.talk, &mut out),
                    );
                }
            }
        }
        // Every change of the game not yet given to the parts.
        self.settle(now, &mut out);
        // The opponent's board awaits whatever changed the game.
        self.sync_seat(board::Seat::Opponent, now, &mut out);
        self.engine_step(now, &mut out);
        self.settle(now, &mut out);
        // A draw offer that lapsed in this update is said after the move,
        // so the player who offered knows.
        if let Some(offerer) = self.parts.offers.take_lapsed(&self.game) {
            let side = self.talk.phraser.side(offerer);
            let t = self.talk.text("draw_offer_lapsed", &[("side", &side)]);
            self.voice(&mut out).say(t, Priority::Normal, SayKind::Game);
        }
        // A tournament game's end: both players asked to confirm.
        if let Some(t) = &mut self.parts.tournament {
            let (over, page) = (self.game.is_over(), self.parts.companion.running());
            t.over(over, page, &mut voice::Voice::new(&mut self.talk, &mut out));
        }
        // Leaving in order (quit, the end of input, SIGTERM, SIGHUP): both
        // times are journalled, so that a resume gives no thinking time back.
        if self.quitting && !was_quitting {
            if let Some(t) = &mut self.parts.tournament {
                t.stopped(self.settings.me, &mut self.parts.journal);
            }
            let over = self.game.is_over();
            let clock = self.parts.clock.as_ref().map(clock::ClockPart::clock);
            self.parts.journal.reading(over, clock, now);
        }
        // The journal's effects of this update, put before all others.
        if !self.mode.asking_resume() {
            let seen = scoresheet::Observed {
                game: &self.game,
                epoch: self.parts.journal.epoch,
                clock: self.parts.clock.as_ref().map(|p| p.clock().clone()),
                press: self.parts.clock.as_ref().and_then(|p| p.presser.pending()),
                board: self.parts.boards.awaiting(board::Seat::Player),
                opponent: self.parts.boards.awaiting(board::Seat::Opponent),
            };
            self.parts.journal.poll(&seen, now, &mut out);
        }
        if self.parts.broadcast.is_some() {
            // The scoresheet is copied only when the game is to be offered.
            let wanted = self
                .parts
                .broadcast
                .as_ref()
                .is_some_and(|b| b.wants_game());
            let record = self.parts.journal.in_memory().filter(|_| wanted);
            let game = &self.game;
            if let Some(b) = &mut self.parts.broadcast {
                let pgn = || broadcast::pgn_of(game, record);
                b.poll(pgn, now, &mut voice::Voice::new(&mut self.talk, &mut out));
                b.hold_quit(now, interrupted, &mut self.talk, &mut out);
            }
        }
        if let Some(o) = &mut self.parts.online {
            o.hold_quit(now, interrupted, &mut self.talk, &mut out);
        }
        if let Some(epoch) = self.parts.journal.begun() {
            // The opponent's seat, so that a resumed game gives the page its seat back.
            out.extend(self.parts.companion.journal(epoch));
        }
        self.parts.companion.flash(&out);
        let clock = self.parts.clock.as_ref().map(clock::ClockPart::clock);
        self.parts.companion.set_clocks(clock, now);
        out
    }

    /// The app's voice for this update's effects (`voice.rs`).
    fn voice<'a>(&'a mut self, out: &'a mut Vec<Effect>) -> voice::Voice<'a> {
        voice::Voice::new(&mut self.talk, out)
    }

    /// A line typed while playing, or answering the question asked.
    fn on_line(&mut self, line: &str, now: Instant, out: &mut Vec<Effect>) {
        // The piece of a promotion the board cannot see (D.2.1: it must be
        // named).
        let role = match self.parts.boards.player() {
            Some(b) if b.awaiting_promotion() => {
                let words: Vec<&MoveWords> = self.talk.arg_words.iter().collect();
                promotion_role(line, &words)
            }
            _ => None,
        };
        if let (Some(role), Some(b)) = (role, self.parts.boards.player_mut()) {
            let notes = b.promote(role);
            self.on_seat_notes(Seat::Player, notes, now, out);
            return;
        }
        // The same for a pawn on the last rank of the opponent's board.
        if self.parts.boards.opponent_asks_promotion() {
            let words: Vec<&MoveWords> = self.talk.arg_words.iter().collect();
            if let Some(role) = promotion_role(line, &words)
                && let Some(notes) = self.parts.boards.promote_opponent(None, role)
            {
                self.on_seat_notes(Seat::Opponent, notes, now, out);
                return;
            }
        }
        // The number of the lichess game to play, when asked which: in
        // digits or in words.
        if let Some(o) = &mut self.parts.online
            && o.choosing()
            && let Some(n) = self.talk.phraser.read_number(line)
            && let Ok(n) = usize::try_from(n)
            && let Some(notes) = o.choose(n, &mut voice::Voice::new(&mut self.talk, out))
        {
            self.on_online_notes(notes, now, out);
            return;
        }
        let words: Vec<&MoveWords> = self.talk.arg_words.iter().collect();
        let input = read_line(
            line,
            &self.talk.keymap,
            &ArgReader {
                vocabularies: &words,
            },
        );
        // A piece word alone: the answer to a promotion question, or a
        // piece with no question.
        let piece_alone = match &input {
            Input::Move(text) if !text.contains(char::is_whitespace) => {
                crate::words::role_named(text, &words)
            }
            _ => None,
        };
        let promotion_piece = match &input {
            Input::Move(text) => crate::words::promotion_role_named(text, &words),
            _ => None,
        };
        let alone = match &input {
            Input::Request(r) => r.alone(),
            _ => None,
        };
        match (self.mode.take_question(), alone) {
            (Some(Question::Confirm(asked)), Some(a))
                if a == asked || a == PlayerAction::Accept =>
            {
                return self.on_action_confirmed(asked, now, out);
            }
            (Some(Question::Confirm(_)), Some(PlayerAction::Decline)) => {
                let t = self.talk.text("confirm_cancelled", &[]);
                return self.voice(out).info(t);
            }
            (Some(Question::TakebackAfterEnd), Some(PlayerAction::Accept)) => {
                let v = &mut voice::Voice::new(&mut self.talk, out);
                let note = self.parts.ask_takeback(true, &self.game, &self.settings, v);
                return self.on_takeback(note, now, out);
            }
            (Some(Question::TakebackAfterEnd), Some(PlayerAction::Decline)) => {
                let t = self.talk.text("takeback_after_end_kept", &[]);
                return self.voice(out).info(t);
            }
            (Some(Question::Promotion(moves)), _) if promotion_piece.is_some() => {
                if let Some(mv) = moves.iter().find(|m| m.promotion() == promotion_piece) {
                    return self.play(*mv, now, out);
                }
            }
            _ => {}
        }
        match input {
            Input::Empty => {
                let t = self.prompt();
                self.voice(out).info(t);
            }
            Input::Move(_) if self.parts.review.is_some() => {
                self.voice(out).error("review_not_here", &[])
            }
            Input::Move(_) if piece_alone.is_some() && self.game.result().is_none() => {
                let piece = piece_alone
                    .map(|r| self.talk.phraser.piece(r))
                    .unwrap_or_default();
                let t = self.talk.text("promotion_not_asked", &[("piece", &piece)]);
                self.voice(out).say(t, Priority::Normal, SayKind::Error);
            }
            Input::Move(text) => self.on_move_text(&text, now, out),
            Input::BadArguments { command, problem } => {
                let t = self.talk.arg_problem(command, &problem);
                self.voice(out).say(t, Priority::Normal, SayKind::Error);
            }
            Input::Request(r) => self.dispatch(r, now, out),
        }
    }

    fn on_move_text(&mut self, text: &str, now: Instant, out: &mut Vec<Effect>) {
        if let Some(t) = status::over_state(&self.game, &self.parts, &self.talk) {
            self.voice(out).say(t, Priority::Normal, SayKind::Error);
            return;
        }
        if (self.parts.online.as_ref()).is_some_and(|o| {
            let voice = &mut voice::Voice::new(&mut self.talk, out);
            o.refuses_move(&self.game, self.settings.me, voice)
        }) {
            return;
        }
        if self
            .parts
            .engine_has_the_move(&self.game, self.settings.me, self.mode.asking_resume())
        {
            // Judged first: a line that is no move at all ("xyz") is said
            // as such; a move is the engine's to make.
            let t = match self.talk.reader.read(text, self.game.position()) {
                Err(e @ crate::notation::InputError::NotUnderstood { .. }) => {
                    self.talk.phraser.input_error(&e, self.game.position())
                }
                _ => self.talk.text("engine_thinking", &[]),
            };
            self.voice(out).say(t, Priority::Normal, SayKind::Error);
            return;
        }
        match self.talk.reader.read(text, self.game.position()) {
            Ok(mv) => self.play(mv, now, out),
            Err(e) => {
                let pos = self.game.position();
                if let Some(moves) = crate::notation::promotion_choices(&e, pos) {
                    // bxa8: ask which piece, as the board does.
                    self.ask(Question::Promotion(moves), out);
                    let t = self.talk.text("promotion_which", &[]);
                    self.voice(out).info(t);
                    return;
                }
                let t = self.talk.phraser.input_error(&e, pos);
                self.voice(out).say(t, Priority::Normal, SayKind::Error);
            }
        }
    }

    /// Play a legal move and announce it (and the end of the game, if it
    /// ends); the parts hear of it right after the announcement.
    fn play(&mut self, mv: Move, now: Instant, out: &mut Vec<Effect>) {
        let before = self.game.position().clone();
        let Ok(changes) = self.change(change::Edit::Play(mv)) else {
            // The reader only returns legal moves; say so if that ever fails.
            let t = self.talk.text("not_understood", &[("input", "?")]);
            self.voice(out).say(t, Priority::Normal, SayKind::Error);
            return;
        };
        let (me, confirm) = (self.settings.me, self.settings.confirm_own_moves);
        let check = self.game.position().is_check();
        self.voice(out)
            .announce_move(&before, mv, check, me, confirm);
        self.settle(now, out);
        for change in changes {
            if let change::GameChange::Ended(r) = change {
                let t = self.talk.phraser.game_over(r.reason, r.outcome.winner());
                self.voice(out).say(t, Priority::Urgent, SayKind::Game);
            }
        }
    }
}

#[cfg(test)]
mod tests;
