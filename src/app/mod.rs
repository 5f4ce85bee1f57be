//! The game in progress and everything said about it: [`App::update`] takes
//! what happened and returns what to do.  No I/O, no clock of its own: the
//! caller passes `now`, so every behaviour is tested by feeding messages.

use std::time::Instant;

use shakmaty::{Color, Move, Position};

use crate::action::PlayerAction;
use crate::audio::Tone;
use crate::board::BoardSession;
use crate::board::session::promotion_role;
use crate::command::{ArgProblem, ArgReader, Command, Input, read_line};
use crate::game::Game;
use crate::msg::{Effect, Msg};
use crate::notation::Reader;
use crate::phrase::Phraser;
use crate::speech::{Part, Priority, SayKind, Utterance};
use crate::words::vocab::MoveWords;
use board::Seat;

mod board;
mod broadcast;
mod builder;
mod clock;
mod commands;
mod companion;
mod cursor;
mod engine;
mod look;
mod offers;
mod online;
mod online_record;
mod review;
mod scoresheet;
mod status;
mod takeback;

pub use review::{pgn_problem_sentence, start_error_sentence};
mod opponent_board;
mod parts;

pub use builder::AppBuilder;
pub use clock::ClockSetup;
pub use engine::EngineSetup;
pub use online::OnlineStart;

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
/// kept beside the mode (`Parts::review`, `Boards::takeback_awaited`).
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

/// All state of the session: the game, what the next line answers, and
/// the parts that follow the game (`parts.rs`).
///
/// Behaviour is grouped by concern, each with its own `impl App` block:
/// typed lines and commands (`commands.rs`), offers and claims
/// (`offers.rs`), the player's board (`board.rs`), the clock
/// (`clock.rs`) and so on.  A new part is one more field of `Parts` and
/// one more file beside these.
pub struct App {
    game: Game,
    /// What the next line answers (a question, a confirmation).
    mode: Mode,
    /// Words, reader, key map: how the app talks with the player.
    talk: parts::Talk,
    /// Whose pieces are "mine", and the player's choices.
    settings: parts::Settings,
    /// The boards, clock, engine, journal, page, review, offers, view.
    parts: parts::Parts,
    /// True once the session is ending (the [`Effect::Quit`] was given).
    quitting: bool,
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

    /// True once the session is ending (the [`Effect::Quit`] was given).
    pub fn quitting(&self) -> bool {
        self.quitting
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
        if self.asking_resume() {
            return self.message("prompt_resume", &[]);
        }
        let p = self.prompt_of_game();
        if self.journal_failing() {
            // Unsaved moves are never silent.
            return self.message("prompt_not_saved", &[("prompt", &p)]);
        }
        p
    }

    fn prompt_of_game(&self) -> String {
        if let Some(t) = self.game_over_state() {
            return t;
        }
        if let Some(t) = self.online_waiting_prompt() {
            return t;
        }
        let pos = self.game.position();
        match self.game.pending_offer() {
            Some(by) if !pos.is_check() => {
                let side = self.talk.phraser.side(pos.turn());
                let offerer = self.talk.phraser.side(by);
                let number = pos.fullmoves().to_string();
                self.message(
                    "prompt_offer",
                    &[("side", &side), ("number", &number), ("offerer", &offerer)],
                )
            }
            _ => self.talk.phraser.turn(pos),
        }
    }

    /// A game that has begun and not ended: leaving it loses something.
    fn game_in_progress(&self) -> bool {
        !self.game.history().is_empty() && self.game.result().is_none()
    }

    /// The resume question waits for its answer.
    fn asking_resume(&self) -> bool {
        matches!(self.mode, Mode::AskingResume(_))
    }

    /// The question waiting, if one is.
    fn question(&self) -> Option<&Question> {
        match &self.mode {
            Mode::Question(q) => Some(q),
            _ => None,
        }
    }

    /// The question waiting, taken to be answered (the mode is back to
    /// playing); any other mode stays.
    fn take_question(&mut self) -> Option<Question> {
        match std::mem::take(&mut self.mode) {
            Mode::Question(q) => Some(q),
            other => {
                self.mode = other;
                None
            }
        }
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
                let t = self.message("arbiter_cancelled", &[]);
                self.say(out, t, Priority::Normal, SayKind::Game);
            }
            Mode::Playing | Mode::Question(_) => self.mode = Mode::Question(q),
        }
    }

    /// The answer to the resume question: quit leaves it for the next
    /// start, yes and no answer it, anything else asks again.
    fn answer_resume(&mut self, action: Option<PlayerAction>, now: Instant, out: &mut Vec<Effect>) {
        match action {
            // Leaving answers nothing: the game stays to be resumed.
            Some(PlayerAction::Quit) => {
                self.mode = Mode::Playing;
                self.on_action_confirmed(PlayerAction::Quit, now, out);
            }
            Some(PlayerAction::Accept) => self.on_resume_answer(Some(true), now, out),
            Some(PlayerAction::Decline) => self.on_resume_answer(Some(false), now, out),
            _ => self.on_resume_answer(None, now, out),
        }
    }

    /// Handle one message.
    #[must_use]
    pub fn update(&mut self, msg: Msg, now: Instant) -> Vec<Effect> {
        let mut out = Vec::new();
        let was_quitting = self.quitting;
        self.parts.offers.begin(&self.game);
        // Ctrl-C, SIGTERM, SIGHUP: leaving is not held for the broadcast.
        let interrupted = matches!(msg, Msg::Interrupted);
        // The clock first: a flag that fell before this message wins.
        self.clock_tick(now, &mut out);
        match msg {
            // What a line is depends on the mode: the answer to what was
            // asked, else a move or a command (a question's answer among
            // them: `on_line`).
            Msg::Line(line) => match self.mode {
                Mode::AskingResume(_) => {
                    let answer = self.answer(&line);
                    self.answer_resume(answer, now, &mut out);
                }
                Mode::ArbiterPending(_) => {
                    // Yes carries it out; anything else cancels.
                    let first = line.split_whitespace().next().unwrap_or("");
                    let yes = self.talk.keymap.command(first) == Some(PlayerAction::Accept);
                    self.arbiter_answered(yes, now, &mut out);
                    self.sync_board(now, &mut out);
                }
                Mode::Playing | Mode::Question(_) => {
                    self.on_line(&line, now, &mut out);
                    self.sync_board(now, &mut out);
                }
            },
            // A key answers the resume question like a line (before, a
            // key could ask another question behind it, which the next
            // line after the answer then confirmed in the resumed game).
            Msg::Key(action, _) if self.asking_resume() => {
                self.answer_resume(Some(action), now, &mut out)
            }
            Msg::Journal(status) => self.on_journal(status, &mut out),
            Msg::Resume(offer) => self.on_resume_offer(*offer, now, &mut out),
            Msg::Exported(result) => self.on_exported(result, &mut out),
            Msg::Board(event) => self.on_seat_link(Seat::Player, event, now, &mut out),
            Msg::EndOfInput | Msg::Interrupted if self.journal_failing() => {
                // Unsaved moves are never silent, even when leaving.
                let t = self.message("not_saved_bye", &[]);
                self.say(&mut out, t, Priority::Normal, SayKind::Error);
                if matches!(msg, Msg::Interrupted) || !self.engine_defers_quit() {
                    let t = self.message("goodbye", &[]);
                    self.info(&mut out, t);
                    self.quitting = true;
                    out.push(Effect::Quit);
                }
            }
            Msg::EndOfInput => {
                // In a terminal, Ctrl-D in mid-game is a quit: said.
                if self.settings.ask_before_leaving && self.game_in_progress() {
                    let t = self.message("goodbye", &[]);
                    self.info(&mut out, t);
                }
                // The engine's move is never dropped: quit after it.
                if !self.engine_defers_quit() {
                    self.quitting = true;
                    out.push(Effect::Quit);
                }
            }
            Msg::Interrupted => {
                let t = self.message("goodbye", &[]);
                self.info(&mut out, t);
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
                self.tick_seat(Seat::Player, now, &mut out);
                self.tick_seat(Seat::Opponent, now, &mut out);
                self.online_tick(now, &mut out);
                self.broadcast_tick(now, &mut out);
            }
            Msg::Speech(status) => self.on_speech_status(status, &mut out),
            Msg::Audio(status) => self.on_audio_status(status, &mut out),
            Msg::Problem(p) => self.on_problem(&p, &mut out),
            Msg::BoardChosen(choice) => self.on_seat_chosen(Seat::Player, choice, &mut out),
            Msg::Key(action, arg) => {
                self.on_key(action, arg, now, &mut out);
                self.sync_board(now, &mut out);
            }
            Msg::KeyHelp(lines) => {
                let t = self.message("help_intro", &[]);
                self.info(&mut out, t);
                for (action, keys) in lines {
                    let t = self.key_help_with(action, &keys);
                    self.info(&mut out, t);
                }
            }
            Msg::Start => {
                // A resume question waiting is the first thing said.
                if self.reviewing() {
                    self.review_start(&mut out);
                } else {
                    // (A game resumed at once has said so.)
                    // (Online, the game is lichess's: its start is said.)
                    if !self.asking_resume() && !self.game_resumed() && self.parts.online.is_none()
                    {
                        let t = self.opening_sentence();
                        self.say(&mut out, t, Priority::Normal, SayKind::Game);
                    }
                    self.clock_start(now);
                    self.engine_start(now, &mut out);
                    self.online_start(&mut out);
                }
            }
            Msg::OpponentBoardChosen(choice) => {
                self.on_seat_chosen(Seat::Opponent, choice, &mut out)
            }
            Msg::OpponentBoard(event) => self.on_seat_link(Seat::Opponent, event, now, &mut out),
            Msg::CompanionChosen(choice) => self.on_companion_chosen(choice, &mut out),
            Msg::Companion(event) => self.on_companion(event, now, &mut out),
            Msg::CompanionReleased { code } => self.on_companion_released(code, &mut out),
            Msg::Lichess(io) => self.on_lichess(io, now, &mut out),
            Msg::Broadcast { seq, outcome } => self.on_broadcast(seq, outcome, now, &mut out),
        }
        // Whatever changed the game, the opponent's board awaits it.
        self.sync_opponent_board(now, &mut out);
        // However the game ended (resigned, agreed, claimed), its clock stops.
        self.clock_stop_when_over(now);
        self.engine_step(now, &mut out);
        self.say_lapsed_offer(&mut out);
        // Leaving in order (quit, the end of input, SIGTERM, SIGHUP): both
        // times are journalled, so that a resume gives no thinking time back.
        if self.quitting && !was_quitting {
            self.journal_reading(now);
        }
        self.journal_effects(now, &mut out);
        self.broadcast_effects(now, &mut out);
        self.broadcast_hold_quit(now, interrupted, &mut out);
        if let Some(epoch) = self.journal_begun() {
            // The opponent's seat, so that a resumed game gives the page its seat back.
            out.extend(self.parts.companion.journal(epoch));
        }
        self.parts.companion.flash(&out);
        let clock = self.parts.clock.as_ref().map(clock::ClockPart::clock);
        self.parts.companion.set_clocks(clock, now);
        out
    }

    /// A typed line read as a command without arguments (yes, no, quit),
    /// in any language of the key map.
    fn answer(&self, line: &str) -> Option<crate::action::PlayerAction> {
        let words: Vec<&MoveWords> = self.talk.arg_words.iter().collect();
        match read_line(
            line,
            &self.talk.keymap,
            &ArgReader {
                vocabularies: &words,
            },
        ) {
            Input::Command(crate::command::Command::Do(action)) => Some(action),
            _ => None,
        }
    }

    /// Say one sentence and remember it for "repeat".
    fn say(&mut self, out: &mut Vec<Effect>, text: String, priority: Priority, kind: SayKind) {
        let lang = match kind {
            SayKind::Move => self.talk.phraser.move_lang(),
            _ => self.talk.phraser.msg_lang(),
        };
        // Appendix D words inside a message are spoken in the German voice.
        let stretches = self.talk.phraser.by_language(&text);
        let u = if stretches.len() > 1 {
            let parts = stretches
                .into_iter()
                .map(|(text, lang)| Part::new(text, lang))
                .collect();
            Utterance::mixed(parts, self.talk.phraser.msg_lang(), priority, kind)
        } else {
            Utterance::new(text, lang, priority, kind)
        };
        self.talk.last_said = Some(u.clone());
        out.push(Effect::Say(u));
        if kind == SayKind::Error {
            out.push(Effect::Tone(Tone::Error));
        }
    }

    /// Say one sentence, without the tone its kind may have.
    fn say_quietly(&mut self, out: &mut Vec<Effect>, text: String, kind: SayKind) {
        self.say(out, text, Priority::Normal, kind);
        if kind == SayKind::Error && out.last() == Some(&Effect::Tone(Tone::Error)) {
            out.pop();
        }
    }

    fn info(&mut self, out: &mut Vec<Effect>, text: String) {
        self.say(out, text, Priority::Info, SayKind::Info);
    }

    fn message(&self, key: &str, args: &[(&str, &str)]) -> String {
        self.talk.phraser.message(key, args)
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
        if self.opponent_board_asks_promotion() {
            let words: Vec<&MoveWords> = self.talk.arg_words.iter().collect();
            if let Some(role) = promotion_role(line, &words)
                && self.promote_on_opponent_board(None, role, now, out)
            {
                return;
            }
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
        match (self.take_question(), &input) {
            (Some(Question::Confirm(asked)), Input::Command(Command::Do(a)))
                if *a == asked || *a == PlayerAction::Accept =>
            {
                return self.on_action_confirmed(asked, now, out);
            }
            (Some(Question::Confirm(_)), Input::Command(Command::Do(PlayerAction::Decline))) => {
                let t = self.message("confirm_cancelled", &[]);
                return self.info(out, t);
            }
            (
                Some(Question::TakebackAfterEnd),
                Input::Command(Command::Do(PlayerAction::Accept)),
            ) => {
                return self.take_back_agreed(now, out);
            }
            (
                Some(Question::TakebackAfterEnd),
                Input::Command(Command::Do(PlayerAction::Decline)),
            ) => {
                let t = self.message("takeback_after_end_kept", &[]);
                return self.info(out, t);
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
                self.info(out, t);
            }
            Input::Move(_) if self.reviewing() => self.review_refuses(out),
            Input::Move(_) if piece_alone.is_some() && self.game.result().is_none() => {
                let piece = piece_alone
                    .map(|r| self.talk.phraser.piece(r))
                    .unwrap_or_default();
                let t = self.message("promotion_not_asked", &[("piece", &piece)]);
                self.say(out, t, Priority::Normal, SayKind::Error);
            }
            Input::Move(text) => self.on_move_text(&text, now, out),
            Input::BadArguments { command, problem } => {
                let t = self.arg_problem(command, &problem);
                self.say(out, t, Priority::Normal, SayKind::Error);
            }
            Input::Command(c) => self.on_command(c, now, out),
        }
    }

    /// The first sentence of a game: "New game. White to move.", or for a
    /// game set up from a FEN or continued from a PGN file, whose move it
    /// is there ("Game set up. Black to move, move 2.").
    fn opening_sentence(&self) -> String {
        let standard =
            self.game.history().is_empty() && *self.game.start() == shakmaty::Chess::default();
        if standard {
            self.message("new_game", &[])
        } else {
            let turn = self.prompt();
            self.message("game_set_up", &[("turn", &turn)])
        }
    }

    /// What was wrong with a command's words, or its help when words are
    /// missing.
    fn arg_problem(&self, command: PlayerAction, problem: &ArgProblem) -> String {
        let word = self
            .talk
            .keymap
            .words(command)
            .first()
            .cloned()
            .unwrap_or_else(|| command.key().to_owned());
        let (key, input) = match problem {
            ArgProblem::Missing => return self.help_line(command),
            ArgProblem::NoRank(w) => ("arg_no_rank", w),
            ArgProblem::NoFile(w) => ("arg_no_file", w),
            ArgProblem::NoSquare(w) => ("arg_no_square", w),
            ArgProblem::NoSide(w) => ("arg_no_side", w),
            ArgProblem::NoPieceOrSide(w) => ("arg_no_piece_or_side", w),
            ArgProblem::NoCount(w) => ("arg_no_count", w),
            ArgProblem::NoFormat(w) => ("arg_no_format", w),
            ArgProblem::NoArbiterOp(w) => ("arg_no_arbiter_op", w),
            ArgProblem::NoTimeQuery(w) => ("arg_no_time_query", w),
            ArgProblem::NoMinutes(w) => ("arg_no_minutes", w),
            ArgProblem::NoResult(w) => ("arg_no_result", w),
            ArgProblem::TooMany(w) => ("arg_too_many", w),
            ArgProblem::NoCommand(w) => ("help_unknown", w),
        };
        let input = crate::words::quote(input);
        self.message(key, &[("input", &input), ("command", &word)])
    }

    fn game_over_sentence(&self) -> Option<String> {
        let r = self.game.result()?;
        Some(self.talk.phraser.game_over(r.reason, r.outcome.winner()))
    }

    /// "Game over: White won by checkmate, one to zero. Say new for a new game."
    fn game_over_state(&self) -> Option<String> {
        let r = self.game.result()?;
        if let Some(t) = self.online_over_state(r.reason, r.outcome.winner()) {
            return Some(t);
        }
        Some(
            self.talk
                .phraser
                .game_over_state(r.reason, r.outcome.winner()),
        )
    }

    /// The same, said when something was asked that the end forbids.
    fn game_is_over(&self) -> Option<String> {
        self.game_over_state()
    }

    fn on_move_text(&mut self, text: &str, now: Instant, out: &mut Vec<Effect>) {
        if let Some(t) = self.game_is_over() {
            self.say(out, t, Priority::Normal, SayKind::Error);
            return;
        }
        if self.online_refuses_move(out) {
            return;
        }
        if self.engine_has_the_move() {
            // Judged first: a line that is no move at all ("xyz") is said
            // as such; a move is the engine's to make.
            let t = match self.talk.reader.read(text, self.game.position()) {
                Err(e @ crate::notation::InputError::NotUnderstood { .. }) => {
                    self.talk.phraser.input_error(&e, self.game.position())
                }
                _ => self.message("engine_thinking", &[]),
            };
            self.say(out, t, Priority::Normal, SayKind::Error);
            return;
        }
        match self.talk.reader.read(text, self.game.position()) {
            Ok(mv) => self.play(mv, now, out),
            Err(e) => {
                let pos = self.game.position();
                if let Some(moves) = crate::notation::promotion_choices(&e, pos) {
                    // bxa8: ask which piece, as the board does.
                    self.ask(Question::Promotion(moves), out);
                    let t = self.message("promotion_which", &[]);
                    self.info(out, t);
                    return;
                }
                let t = self.talk.phraser.input_error(&e, pos);
                self.say(out, t, Priority::Normal, SayKind::Error);
            }
        }
    }

    /// Play a legal move and announce it (and the end of the game, if it ends).
    fn play(&mut self, mv: Move, now: Instant, out: &mut Vec<Effect>) {
        let before = self.game.position().clone();
        let mover = before.turn();
        if self.game.play(mv).is_err() {
            // The reader only returns legal moves; say so if that ever fails.
            let t = self.message("not_understood", &[("input", "?")]);
            self.say(out, t, Priority::Normal, SayKind::Error);
            return;
        }
        self.takeback_given_up();
        self.announce_move(&before, mv, out);
        self.online_moved(mv, mover, out);
        if let Some(t) = self.game_over_sentence() {
            self.say(out, t, Priority::Urgent, SayKind::Game);
        } else if self.parts.offers.moved(mover) {
            // The offer typed before this move is made now (9.1.2.1).
            self.offer_draw(out);
        }
        self.clock_moved(mover, now, out);
    }

    /// Announce a move just played from `before`: the opponent's move is
    /// urgent and always said; the player's own is a confirmation.
    fn announce_move(&mut self, before: &shakmaty::Chess, mv: Move, out: &mut Vec<Effect>) {
        let sentence = self.talk.phraser.say_move(before, mv);
        if before.turn() != self.settings.me {
            self.say(out, sentence, Priority::Urgent, SayKind::Move);
            out.push(Effect::Tone(Tone::OpponentMove));
        } else if self.settings.confirm_own_moves {
            self.say(out, sentence, Priority::Normal, SayKind::Move);
        }
        if self.game.position().is_check() {
            out.push(Effect::Tone(Tone::Check));
        }
    }
}

#[cfg(test)]
mod tests;
