//! The game in progress and everything said about it: [`App::update`] takes
//! what happened and returns what to do.  No I/O, no clock of its own: the
//! caller passes `now`, so every behaviour is tested by feeding messages.

use std::time::Instant;

use shakmaty::{Color, Move, Position};

use crate::action::PlayerAction;
use crate::audio::{AudioStatus, Tone};
use crate::board::BoardSession;
use crate::board::session::promotion_role;
use crate::command::{ArgProblem, ArgReader, Command, Input, read_line};
use crate::game::Game;
use crate::keymap::Keymap;
use crate::msg::{Effect, Msg, StartProblem};
use crate::notation::Reader;
use crate::phrase::Phraser;
use crate::speech::{Part, Priority, SayKind, SpeechRoute, SpeechStatus, Utterance};
use crate::words::vocab::MoveWords;

mod board;
mod builder;
mod clock;
mod commands;
mod companion;
mod cursor;
mod engine;
mod look;
mod offers;
mod online;
mod review;
mod scoresheet;

pub use review::{pgn_problem_sentence, start_error_sentence};
mod opponent_board;

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

/// All state of the session.
///
/// The state is grouped by concern, each with its own `impl App` block:
/// typed lines and commands (`commands.rs`), offers and claims
/// (`offers.rs`), the player's board (`board.rs`).  A clock, a second board
/// (the opponent's) or a scoresheet is one more field here and one more
/// file beside these.
pub struct App {
    game: Game,
    phraser: Phraser,
    reader: Reader,
    keymap: Keymap,
    /// Vocabularies for command arguments (squares, pieces).
    arg_words: Vec<MoveWords>,
    /// Whose pieces are "mine".
    me: Color,
    /// Say the player's own moves too (the opponent's are always said).
    confirm_own_moves: bool,
    /// Ask before `new` or `quit` ends a game in progress.
    ask_before_leaving: bool,
    /// A question waiting for its answer.
    question: Option<Question>,
    /// A draw offer typed by the player to move, made with their next
    /// move (9.1.2.1).
    kept_offer: Option<Color>,
    /// The standing offer was declined in words during this update (the
    /// engine's answer): its lapse is not said as well.
    offer_declined: bool,
    last_said: Option<Utterance>,
    quitting: bool,
    /// The player's board, when one is used.
    board: Option<BoardSession>,
    /// The journal's view of the game, when games are journalled.
    sheet: Option<scoresheet::Sheet>,
    /// Counts replacements of `game` (new game, resumed game).
    epoch: u64,
    /// A saved game waits for the answer: resume it?
    asking_resume: Option<Box<crate::scoresheet::ResumeOffer>>,
    /// A PGN file under review (`hector review`).
    review: Option<review::ReviewState>,
    /// The clock, when the game is played with one (`--time`).
    clock: Option<clock::ClockPart>,
    /// An arbiter function waiting for its confirmation.
    arbiter_pending: Option<crate::command::ArbiterOp>,
    /// The time of the message being handled.
    now: Option<Instant>,
    /// The full-screen view's square cursor and the move chosen with it.
    cursor: cursor::Cursor,
    /// The engine played against, when there is one (`app/engine.rs`).
    engine: Option<engine::EnginePlay>,
    /// A rated game or one with an arbiter: no hint, eval, threat, takeback.
    rated: bool,
    /// A `takeback` waiting to be made on the player's board.
    takeback_awaited: Option<engine::TakebackAwaited>,
    /// The opponent's screen (companion page).
    companion: companion::CompanionState,
    /// The opponent's own board, when one is used.
    opponent_board: Option<BoardSession>,
    /// How the full-screen view looks (changed by the look actions).
    look: crate::view::ViewLook,
    /// The game on lichess, when online (`app/online.rs`).
    online: Option<online::OnlinePlay>,
}

impl App {
    /// An app with the built-in words and settings, changed as wanted; it
    /// reads no file.
    pub fn builder() -> AppBuilder {
        AppBuilder::default()
    }

    /// Use a board (its session starts at the game's position).
    pub fn attach_board(&mut self, session: BoardSession) {
        self.board = Some(session);
    }

    /// Ask before `new` or `quit` ends a game in progress (a player at a
    /// terminal; not a script on standard input).
    pub fn set_ask_before_leaving(&mut self, yes: bool) {
        self.ask_before_leaving = yes;
    }

    /// The board session, if a board is used.
    pub fn board(&self) -> Option<&BoardSession> {
        self.board.as_ref()
    }

    /// The game in progress.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The phrasing, in the player's words.
    pub fn phraser(&self) -> &Phraser {
        &self.phraser
    }

    /// The reader of typed moves, with the player's vocabularies.
    pub fn reader(&self) -> &Reader {
        &self.reader
    }

    /// Whose pieces are "mine".
    pub fn me(&self) -> Color {
        self.me
    }

    /// True once the session is ending (the [`Effect::Quit`] was given).
    pub fn quitting(&self) -> bool {
        self.quitting
    }

    /// When the app next wants a [`Msg::Deadline`]: the board's settle
    /// time (a move that may still be on its way, a mismatch to report).
    pub fn next_deadline(&self) -> Option<Instant> {
        let board = self.board.as_ref().and_then(BoardSession::next_deadline);
        let theirs = self
            .opponent_board
            .as_ref()
            .and_then(BoardSession::next_deadline);
        [
            board,
            theirs,
            self.engine_deadline(),
            self.clock_deadline(),
            self.online_deadline(),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// The prompt of line mode: whose move and the move number, and a
    /// standing draw offer; once the game is over, how it ended.
    pub fn prompt(&self) -> String {
        // The question waits: the new game behind it is not the one played.
        if self.asking_resume.is_some() {
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
        let pos = self.game.position();
        match self.game.pending_offer() {
            Some(by) if !pos.is_check() => {
                let side = self.phraser.side(pos.turn());
                let offerer = self.phraser.side(by);
                let number = pos.fullmoves().to_string();
                self.message(
                    "prompt_offer",
                    &[("side", &side), ("number", &number), ("offerer", &offerer)],
                )
            }
            _ => self.phraser.turn(pos),
        }
    }

    /// A game that has begun and not ended: leaving it loses something.
    fn game_in_progress(&self) -> bool {
        !self.game.history().is_empty() && self.game.result().is_none()
    }

    /// Handle one message.
    pub fn update(&mut self, msg: Msg, now: Instant) -> Vec<Effect> {
        let mut out = Vec::new();
        self.now = Some(now);
        let was_quitting = self.quitting;
        let offer_before = (self.game.pending_offer(), self.game.history().len());
        self.offer_declined = false;
        // The clock first: a flag that fell before this message wins.
        self.clock_tick(now, &mut out);
        match msg {
            Msg::Line(line) if self.asking_resume.is_some() => match self.answer(&line) {
                // Leaving answers nothing: the game stays to be resumed.
                Some(crate::action::PlayerAction::Quit) => {
                    self.asking_resume = None;
                    self.on_action_confirmed(crate::action::PlayerAction::Quit, &mut out);
                }
                Some(crate::action::PlayerAction::Accept) => {
                    self.on_resume_answer(Some(true), &mut out)
                }
                Some(crate::action::PlayerAction::Decline) => {
                    self.on_resume_answer(Some(false), &mut out);
                }
                _ => self.on_resume_answer(None, &mut out),
            },
            Msg::Line(line) => {
                self.on_line(&line, now, &mut out);
                self.sync_board(now, &mut out);
            }
            Msg::Journal(status) => self.on_journal(status, &mut out),
            Msg::Resume(offer) => self.on_resume_offer(*offer, &mut out),
            Msg::Exported(result) => self.on_exported(result, &mut out),
            Msg::Board(event) => {
                let notes = match &mut self.board {
                    Some(b) => b.link(event, now),
                    None => Vec::new(),
                };
                self.on_board_notes(notes, now, &mut out);
            }
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
                if self.ask_before_leaving && self.game_in_progress() {
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
            Msg::Engine(io) => self.on_engine_io(io, now),
            Msg::Deadline => {
                self.engine_tick(now);
                let notes = match &mut self.board {
                    Some(b) => b.tick(now),
                    None => Vec::new(),
                };
                self.on_board_notes(notes, now, &mut out);
                self.tick_opponent_board(now, &mut out);
                self.online_tick(now, &mut out);
            }
            Msg::Speech(SpeechStatus::FellBack { reason, .. }) => {
                // The reason in the player's words, not the library's.
                let why = self.message(reason.key(), &[]);
                let t = self.message("speech_fell_back", &[("why", &why)]);
                self.say(&mut out, t, Priority::Normal, SayKind::Info);
            }
            Msg::Speech(SpeechStatus::Speaking { route }) => {
                // Which way hector speaks, and why, once at start.
                let t = match route {
                    SpeechRoute::ScreenReader(reader) => {
                        self.message("speech_via_reader", &[("reader", &reader)])
                    }
                    SpeechRoute::SystemVoices { no_german } => {
                        let mut t = self.message("speech_via_voices", &[]);
                        if no_german {
                            t.push(' ');
                            t.push_str(&self.message("speech_no_german_voice", &[]));
                        }
                        t
                    }
                };
                self.say(&mut out, t, Priority::Normal, SayKind::Info);
            }
            Msg::Speech(SpeechStatus::Reconnected { .. }) => {
                let t = self.message("speech_back", &[]);
                self.say(&mut out, t, Priority::Normal, SayKind::Info);
            }
            Msg::Speech(SpeechStatus::Began { .. } | SpeechStatus::Ended { .. }) => {}
            Msg::Audio(AudioStatus::Unavailable { bell, .. }) => {
                let key = if bell {
                    "sound_unavailable"
                } else {
                    "sound_unavailable_silent"
                };
                let t = self.message(key, &[]);
                self.say(&mut out, t, Priority::Normal, SayKind::Info);
            }
            Msg::Audio(AudioStatus::Available) => {}
            Msg::Problem(p) => self.on_problem(&p, &mut out),
            Msg::BoardChosen(choice) => self.on_board_chosen(choice, now, &mut out),
            Msg::Key(action, arg) => {
                self.on_key(action, arg, &mut out);
                self.sync_board(now, &mut out);
            }
            Msg::KeyHelp(lines) => {
                let t = self.message("help_intro", &[]);
                self.info(&mut out, t);
                for (action, keys) in lines {
                    let t = self.message(&format!("help_{}", action.key()), &[("command", &keys)]);
                    self.info(&mut out, t);
                }
            }
            Msg::Start => {
                // A resume question waiting is the first thing said.
                if self.reviewing() {
                    self.review_start(&mut out);
                } else {
                    // (A game resumed at once has said so.)
                    if self.asking_resume.is_none() && !self.game_resumed() {
                        let t = self.opening_sentence();
                        self.say(&mut out, t, Priority::Normal, SayKind::Game);
                    }
                    self.clock_start(now);
                    self.engine_start(now, &mut out);
                    self.online_start(&mut out);
                }
            }
            Msg::OpponentBoardChosen(choice) => self.on_opponent_board_chosen(choice, &mut out),
            Msg::OpponentBoard(event) => self.on_opponent_board_link(event, now, &mut out),
            Msg::CompanionChosen(choice) => self.on_companion_chosen(choice, &mut out),
            Msg::Companion(event) => self.on_companion(event, now, &mut out),
            Msg::CompanionReleased { code } => self.on_companion_released(code, &mut out),
            Msg::Lichess(io) => self.on_lichess(io, now, &mut out),
        }
        // Whatever changed the game, the opponent's board awaits it.
        self.sync_opponent_board(now, &mut out);
        // However the game ended (resigned, agreed, claimed), its clock stops.
        self.clock_stop_when_over(now);
        self.engine_step(now, &mut out);
        self.say_lapsed_offer(offer_before, &mut out);
        // Leaving in order (quit, the end of input, SIGTERM, SIGHUP): both
        // times are journalled, so that a resume gives no thinking time back.
        if self.quitting && !was_quitting {
            self.journal_reading(now);
        }
        self.journal_effects(&mut out);
        self.journal_companion(&mut out);
        self.companion_flashes(&out);
        out
    }

    /// A draw offer that stood before this `update` lapsed because the
    /// opponent moved instead of answering (9.1.2.3): said after the move,
    /// so the player who offered knows.
    fn say_lapsed_offer(&mut self, before: (Option<Color>, usize), out: &mut Vec<Effect>) {
        let (Some(offerer), plies) = before else {
            return;
        };
        if self.offer_declined {
            return;
        }
        let lapsed = self.game.pending_offer().is_none()
            && !self.game.is_over()
            && self.game.history().len() > plies
            && self
                .game
                .history()
                .get(plies)
                .is_some_and(|m| m.by != offerer);
        if lapsed {
            let side = self.phraser.side(offerer);
            let t = self.message("draw_offer_lapsed", &[("side", &side)]);
            self.say(out, t, Priority::Normal, SayKind::Game);
        }
    }

    /// A typed line read as a command without arguments (yes, no, quit),
    /// in any language of the key map.
    fn answer(&self, line: &str) -> Option<crate::action::PlayerAction> {
        let words: Vec<&MoveWords> = self.arg_words.iter().collect();
        match read_line(
            line,
            &self.keymap,
            &ArgReader {
                vocabularies: &words,
            },
        ) {
            Input::Command(crate::command::Command::Do(action)) => Some(action),
            _ => None,
        }
    }

    /// A problem found at start-up, said in the player's language (no
    /// error tone: the session has not begun).
    fn on_problem(&mut self, p: &StartProblem, out: &mut Vec<Effect>) {
        let t = match p {
            StartProblem::Voice(e) => self.phraser.voice_error(e),
            StartProblem::Setting(e) => self.phraser.setting_error(e),
            StartProblem::Settings(e) => {
                let place = self.phraser.place(&e.file, e.line, e.key.as_deref());
                self.message("config_error", &[("place", &place), ("detail", &e.detail)])
            }
        };
        self.say_quietly(out, t, SayKind::Error);
    }

    /// Say one sentence and remember it for "repeat".
    fn say(&mut self, out: &mut Vec<Effect>, text: String, priority: Priority, kind: SayKind) {
        let lang = match kind {
            SayKind::Move => self.phraser.move_lang(),
            _ => self.phraser.msg_lang(),
        };
        // Appendix D words inside a message are spoken in the German voice.
        let stretches = self.phraser.by_language(&text);
        let u = if stretches.len() > 1 {
            let parts = stretches
                .into_iter()
                .map(|(text, lang)| Part::new(text, lang))
                .collect();
            Utterance::mixed(parts, self.phraser.msg_lang(), priority, kind)
        } else {
            Utterance::new(text, lang, priority, kind)
        };
        self.last_said = Some(u.clone());
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
        self.phraser.message(key, args)
    }

    fn on_line(&mut self, line: &str, now: Instant, out: &mut Vec<Effect>) {
        if self.arbiter_pending.is_some() {
            let first = line.split_whitespace().next().unwrap_or("");
            let yes = self.keymap.command(first) == Some(crate::action::PlayerAction::Accept);
            self.arbiter_answered(yes, now, out);
            return;
        }
        // The piece of a promotion the board cannot see (D.2.1: it must be
        // named).
        let role = match &self.board {
            Some(b) if b.awaiting_promotion() => {
                let words: Vec<&MoveWords> = self.arg_words.iter().collect();
                promotion_role(line, &words)
            }
            _ => None,
        };
        if let (Some(role), Some(b)) = (role, &mut self.board) {
            let notes = b.promote(role);
            self.on_board_notes(notes, now, out);
            return;
        }
        // The same for a pawn on the last rank of the opponent's board.
        if self.opponent_board_asks_promotion() {
            let words: Vec<&MoveWords> = self.arg_words.iter().collect();
            if let Some(role) = promotion_role(line, &words)
                && self.promote_on_opponent_board(None, role, now, out)
            {
                return;
            }
        }
        let words: Vec<&MoveWords> = self.arg_words.iter().collect();
        let input = read_line(
            line,
            &self.keymap,
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
        match (self.question.take(), &input) {
            (Some(Question::Confirm(asked)), Input::Command(Command::Do(a)))
                if *a == asked || *a == PlayerAction::Accept =>
            {
                return self.on_action_confirmed(asked, out);
            }
            (Some(Question::Confirm(_)), Input::Command(Command::Do(PlayerAction::Decline))) => {
                let t = self.message("confirm_cancelled", &[]);
                return self.info(out, t);
            }
            (
                Some(Question::TakebackAfterEnd),
                Input::Command(Command::Do(PlayerAction::Accept)),
            ) => {
                return self.take_back_agreed(out);
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
                    return self.play(*mv, out);
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
                    .map(|r| self.phraser.piece(r))
                    .unwrap_or_default();
                let t = self.message("promotion_not_asked", &[("piece", &piece)]);
                self.say(out, t, Priority::Normal, SayKind::Error);
            }
            Input::Move(text) => self.on_move_text(&text, out),
            Input::BadArguments { command, problem } => {
                let t = self.arg_problem(command, &problem);
                self.say(out, t, Priority::Normal, SayKind::Error);
            }
            Input::Command(c) => self.on_command(c, out),
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
        Some(self.phraser.game_over(r.reason, r.outcome.winner()))
    }

    /// "Game over: White won by checkmate, 1-0. Say new for a new game."
    fn game_over_state(&self) -> Option<String> {
        let r = self.game.result()?;
        Some(self.phraser.game_over_state(r.reason, r.outcome.winner()))
    }

    /// The same, said when something was asked that the end forbids.
    fn game_is_over(&self) -> Option<String> {
        self.game_over_state()
    }

    fn on_move_text(&mut self, text: &str, out: &mut Vec<Effect>) {
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
            let t = match self.reader.read(text, self.game.position()) {
                Err(e @ crate::notation::InputError::NotUnderstood { .. }) => {
                    self.phraser.input_error(&e, self.game.position())
                }
                _ => self.message("engine_thinking", &[]),
            };
            self.say(out, t, Priority::Normal, SayKind::Error);
            return;
        }
        match self.reader.read(text, self.game.position()) {
            Ok(mv) => self.play(mv, out),
            Err(e) => {
                let pos = self.game.position();
                if let Some(moves) = crate::notation::promotion_choices(&e, pos) {
                    // bxa8: ask which piece, as the board does.
                    self.question = Some(Question::Promotion(moves));
                    let t = self.message("promotion_which", &[]);
                    self.info(out, t);
                    return;
                }
                let t = self.phraser.input_error(&e, pos);
                self.say(out, t, Priority::Normal, SayKind::Error);
            }
        }
    }

    /// Play a legal move and announce it (and the end of the game, if it ends).
    fn play(&mut self, mv: Move, out: &mut Vec<Effect>) {
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
        } else if self.kept_offer == Some(before.turn()) {
            // The offer typed before this move is made now (9.1.2.1).
            self.kept_offer = None;
            self.offer_draw(out);
        }
        if let Some(now) = self.now {
            self.clock_moved(mover, now, out);
        }
    }

    /// Announce a move just played from `before`: the opponent's move is
    /// urgent and always said; the player's own is a confirmation.
    fn announce_move(&mut self, before: &shakmaty::Chess, mv: Move, out: &mut Vec<Effect>) {
        let sentence = self.phraser.say_move(before, mv);
        if before.turn() != self.me {
            self.say(out, sentence, Priority::Urgent, SayKind::Move);
            out.push(Effect::Tone(Tone::OpponentMove));
        } else if self.confirm_own_moves {
            self.say(out, sentence, Priority::Normal, SayKind::Move);
        }
        if self.game.position().is_check() {
            out.push(Effect::Tone(Tone::Check));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::speech::FallBack;
    use crate::words::Lang;
    use proptest::prelude::*;
    use shakmaty::Color;

    fn app() -> App {
        App::builder().build()
    }

    fn said(effects: &[Effect]) -> Vec<String> {
        effects
            .iter()
            .filter_map(|e| match e {
                Effect::Say(u) => Some(u.text.clone()),
                _ => None,
            })
            .collect()
    }

    fn line(app: &mut App, text: &str) -> Vec<String> {
        said(&app.update(Msg::Line(text.into()), Instant::now()))
    }

    #[test]
    fn appendix_d_words_in_an_english_answer_are_marked_for_the_german_voice() {
        let mut a = app();
        for m in ["e4", "e5", "Nf3"] {
            a.update(Msg::Line(m.into()), Instant::now());
        }
        let e = a.update(Msg::Line("attackers e5".into()), Instant::now());
        let Some(Effect::Say(u)) = e.iter().find(|e| matches!(e, Effect::Say(_))) else {
            panic!("nothing said: {e:?}")
        };
        assert_eq!(u.text, "Eva fünf is attacked by Springer Felix drei.");
        assert_eq!(u.lang, "en");
        let voiced: Vec<(String, String)> =
            u.voiced().into_iter().map(|p| (p.text, p.lang)).collect();
        let want = [
            ("Eva fünf", "de"),
            (" is attacked by ", "en"),
            ("Springer Felix drei", "de"),
            (".", "en"),
        ];
        assert_eq!(voiced, want.map(|(t, l)| (t.to_owned(), l.to_owned())));
        // A move alone stays one German sentence.
        let e = a.update(Msg::Line("Nc6".into()), Instant::now());
        let Some(Effect::Say(m)) = e.iter().find(|e| matches!(e, Effect::Say(_))) else {
            panic!("nothing said: {e:?}")
        };
        assert_eq!((m.lang.as_str(), m.parts.len()), ("de", 0));
    }

    #[test]
    fn opponents_move_is_urgent_own_move_is_a_confirmation() {
        let mut a = app();
        let e = a.update(Msg::Line("e4".into()), Instant::now());
        assert!(
            matches!(&e[..], [Effect::Say(u)] if u.priority == Priority::Normal && u.kind == SayKind::Move && u.lang == "de")
        );
        let e = a.update(Msg::Line("e5".into()), Instant::now());
        assert!(
            matches!(&e[..], [Effect::Say(u), Effect::Tone(Tone::OpponentMove)] if u.priority == Priority::Urgent)
        );
    }

    #[test]
    fn tones_for_check_and_errors() {
        let mut a = app();
        for m in ["e4", "f6", "d4", "g5"] {
            line(&mut a, m);
        }
        // Mate: the check tone, then the result.
        let e = a.update(Msg::Line("Qh5".into()), Instant::now());
        assert!(e.contains(&Effect::Tone(Tone::Check)), "{e:?}");
        let e = a.update(Msg::Line("xyz".into()), Instant::now());
        assert_eq!(e.last(), Some(&Effect::Tone(Tone::Error)));
    }

    #[test]
    fn the_speech_route_is_said_in_the_players_words() {
        let mut a = app();
        let route = |r| Msg::Speech(SpeechStatus::Speaking { route: r });
        let e = a.update(
            route(SpeechRoute::ScreenReader("NVDA".into())),
            Instant::now(),
        );
        assert_eq!(said(&e), vec!["Speaking through NVDA."]);
        let e = a.update(
            route(SpeechRoute::SystemVoices { no_german: false }),
            Instant::now(),
        );
        assert_eq!(
            said(&e),
            vec!["No screen reader is running: speaking with the Windows voices."]
        );
        let e = a.update(
            route(SpeechRoute::SystemVoices { no_german: true }),
            Instant::now(),
        );
        assert_eq!(
            said(&e),
            vec![
                "No screen reader is running: speaking with the Windows voices. \
                 No German voice is installed: the same voice reads the chess words."
            ]
        );
    }

    #[test]
    fn speech_falling_back_is_said_once_in_words() {
        let mut a = app();
        let e = a.update(
            Msg::Speech(SpeechStatus::FellBack {
                why: "the speech service stopped answering (speak)".into(),
                reason: FallBack::NoAnswer,
            }),
            Instant::now(),
        );
        assert_eq!(
            said(&e),
            vec!["Speech is not working: the speech service does not answer. Printing only."]
        );
    }

    #[test]
    fn repeat_says_the_last_announcement_again() {
        let mut a = app();
        assert_eq!(line(&mut a, "repeat"), vec!["Nothing to repeat."]);
        line(&mut a, "Nf3");
        assert_eq!(line(&mut a, "repeat"), vec!["Springer Felix drei"]);
    }

    #[test]
    fn flip_changes_whose_pieces_are_mine() {
        let mut a = app();
        assert_eq!(line(&mut a, "flip"), vec!["You play Black."]);
        assert_eq!(a.me(), Color::Black);
        // White's move is now the opponent's: urgent.
        let e = a.update(Msg::Line("e4".into()), Instant::now());
        assert!(
            matches!(&e[..], [Effect::Say(u), Effect::Tone(Tone::OpponentMove)] if u.priority == Priority::Urgent)
        );
        assert_eq!(
            line(&mut a, "pieces theirs Springer"),
            line(&mut a, "pieces white knight")
        );
    }

    #[test]
    fn own_moves_can_go_unconfirmed_but_the_opponents_never() {
        let mut a = App::builder().confirm_own_moves(false).build();
        assert!(line(&mut a, "e4").is_empty());
        assert_eq!(line(&mut a, "e5"), vec!["Bauer Eva fünf"]);
    }

    #[test]
    fn draw_offer_declined_then_lapses() {
        let mut a = app();
        line(&mut a, "e4");
        assert_eq!(line(&mut a, "draw"), vec!["White offers a draw."]);
        assert_eq!(line(&mut a, "decline"), vec!["Black declines the draw."]);
        assert_eq!(line(&mut a, "accept"), vec!["There is no draw offer."]);
    }

    #[test]
    fn silence_and_quit_are_effects() {
        let mut a = app();
        assert_eq!(
            a.update(Msg::Line("silence".into()), Instant::now()),
            vec![Effect::Silence]
        );
        let e = a.update(Msg::Line("quit".into()), Instant::now());
        assert_eq!(e.last(), Some(&Effect::Quit));
        assert!(a.quitting());
    }

    #[test]
    fn the_start_is_said_by_update_and_can_be_repeated() {
        let mut a = app();
        let e = a.update(Msg::Start, Instant::now());
        assert_eq!(said(&e), vec!["New game. White to move."]);
        assert_eq!(line(&mut a, "repeat"), vec!["New game. White to move."]);
    }

    #[test]
    fn a_game_set_up_elsewhere_begins_with_whose_move_it_is() {
        let mut a = app();
        a.game = Game::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 30").expect("valid");
        let e = a.update(Msg::Start, Instant::now());
        assert_eq!(said(&e), vec!["Game set up. Black to move, move 30."]);
    }

    #[test]
    fn a_start_up_problem_is_said_in_words_without_a_tone() {
        let mut a = app();
        let problem = StartProblem::Settings(crate::toml_error::FileError {
            file: "c.toml".into(),
            line: Some(3),
            key: Some("announce.moves".into()),
            detail: "bad".into(),
        });
        let e = a.update(Msg::Problem(problem), Instant::now());
        assert!(
            matches!(&e[..], [Effect::Say(u)] if u.kind == SayKind::Error),
            "{e:?}"
        );
        assert!(said(&e)[0].contains("c.toml"), "{e:?}");
    }

    #[test]
    fn the_board_chosen_at_start_up_arrives_as_a_message() {
        use crate::msg::{BoardChoice, BoardProblem};
        let mut a = app();
        let e = a.update(
            Msg::BoardChosen(BoardChoice::Missing(BoardProblem::NoAnswer {
                port: "/dev/ttyX".into(),
            })),
            Instant::now(),
        );
        assert_eq!(said(&e).len(), 1);
        assert!(said(&e)[0].contains("/dev/ttyX"), "{e:?}");
        assert!(a.board().is_none());
        let e = a.update(
            Msg::BoardChosen(BoardChoice::Opened {
                protocol: crate::board::Protocol::Dgt,
                port: "/dev/ttyY".into(),
                config: crate::board::TrackerConfig::default(),
                announce_touch: false,
            }),
            Instant::now(),
        );
        assert!(e.is_empty());
        assert!(a.board().is_some());
        // Opened, but nothing known yet: neither "matches" nor
        // "disconnected".
        assert_eq!(
            line(&mut a, "board"),
            vec!["The board on /dev/ttyY has not answered yet."]
        );
    }

    #[test]
    fn the_end_of_input_is_the_quit_effect() {
        let mut a = app();
        assert_eq!(
            a.update(Msg::EndOfInput, Instant::now()),
            vec![Effect::Quit]
        );
    }

    #[test]
    fn an_action_without_its_arguments_gets_its_help() {
        let mut a = app();
        let mut out = Vec::new();
        a.on_action(crate::action::PlayerAction::Square, &mut out);
        assert_eq!(said(&out), line(&mut a, "square"));
    }

    #[test]
    fn new_game_starts_again() {
        let mut a = app();
        line(&mut a, "e4");
        assert_eq!(line(&mut a, "new"), vec!["New game. White to move."]);
        assert!(a.game().history().is_empty());
    }

    #[test]
    fn fifty_move_claim_on_an_intended_move() {
        let mut a = app();
        a.game = Game::from_fen("8/8/4k3/8/8/2K5/8/R7 w - - 99 80").expect("valid");
        assert_eq!(
            line(&mut a, "claim Ra2"),
            vec!["Turm Anna zwei", "Draw by the 50-move rule, 1/2-1/2."]
        );
    }

    mod board {
        use super::*;
        use crate::board::sim::{HandStep, SimBoard};
        use crate::board::transport::LinkEvent;
        use crate::board::{Protocol, TrackerConfig};
        use shakmaty::{Board, Chess, Square, san::San};
        use std::time::Duration;

        const SETTLE: Duration = Duration::from_millis(300);

        /// An app with a connected board of `protocol` at the start position.
        fn with_board(protocol: Protocol, touch: bool) -> (App, SimBoard, Instant) {
            let mut a = app();
            let config = TrackerConfig {
                settle: SETTLE,
                detect_rotation: false,
                ..TrackerConfig::default()
            };
            a.attach_board(BoardSession::new(
                protocol,
                config,
                a.game().position(),
                touch,
            ));
            let now = Instant::now();
            let e = a.update(Msg::Board(LinkEvent::Connected), now);
            // Open, but nothing is known until the board answers.
            assert!(said(&e).is_empty(), "{e:?}");
            assert!(
                e.iter()
                    .any(|e| matches!(e, Effect::ToBoard(b) if !b.is_empty()))
            );
            let sim = SimBoard::new(protocol, Board::new());
            let e = a.update(Msg::Board(LinkEvent::Bytes(sim.dump())), now);
            assert_eq!(said(&e), vec!["Board connected."]);
            (a, sim, now)
        }

        /// Play `san` on the simulated board; what is said.
        fn on_board(a: &mut App, sim: &mut SimBoard, san: &str, now: Instant) -> Vec<String> {
            let pos = a
                .board()
                .map(|b| b.tracker().position().clone())
                .unwrap_or_default();
            let m = san.parse::<San>().ok().and_then(|s| s.to_move(&pos).ok());
            let Some(m) = m else {
                panic!("{san} is legal");
            };
            let mut out = Vec::new();
            for bytes in sim.play(&pos, m, false) {
                out.extend(said(&a.update(Msg::Board(LinkEvent::Bytes(bytes)), now)));
            }
            out
        }

        fn act(a: &mut App, sim: &mut SimBoard, action: HandStep, now: Instant) -> Vec<String> {
            let bytes = sim.act(action);
            said(&a.update(Msg::Board(LinkEvent::Bytes(bytes)), now))
        }

        fn tick(a: &mut App, now: Instant) -> Vec<String> {
            said(&a.update(Msg::Deadline, now))
        }

        #[test]
        fn a_move_on_the_board_is_played_and_said() {
            let (mut a, mut sim, now) = with_board(Protocol::Dgt, false);
            assert_eq!(
                on_board(&mut a, &mut sim, "Nf3", now),
                vec!["Springer Felix drei"]
            );
            assert_eq!(a.game().history().len(), 1);
            // The opponent's move from the board is urgent, with its tone.
            let pos = a.game().position().clone();
            let m = "Nf6".parse::<San>().ok().and_then(|s| s.to_move(&pos).ok());
            let mut effects = Vec::new();
            for bytes in sim.play(&pos, m.unwrap_or_else(|| panic!("legal")), false) {
                effects.extend(a.update(Msg::Board(LinkEvent::Bytes(bytes)), now));
            }
            assert!(
                effects.contains(&Effect::Tone(Tone::OpponentMove)),
                "{effects:?}"
            );
        }

        #[test]
        fn a_move_that_could_go_further_waits_for_the_settle_time() {
            let (mut a, mut sim, now) = with_board(Protocol::Millennium, false);
            // e2-e3: the pawn could still be on its way to e4.
            assert!(on_board(&mut a, &mut sim, "e3", now).is_empty());
            assert_eq!(a.next_deadline(), Some(now + SETTLE));
            assert!(tick(&mut a, now + SETTLE / 2).is_empty());
            assert_eq!(tick(&mut a, now + SETTLE), vec!["Bauer Eva drei"]);
            assert_eq!(a.next_deadline(), None);
        }

        #[test]
        fn a_typed_move_is_awaited_on_the_board_then_confirmed() {
            let (mut a, mut sim, now) = with_board(Protocol::Dgt, false);
            let t = line(&mut a, "e4");
            // The move, then what to do on the board: an instruction, no
            // mismatch.
            assert_eq!(
                t,
                vec![
                    "Bauer Eva vier",
                    "On your board: white Bauer from Eva zwei to Eva vier."
                ]
            );
            let pos = Chess::default();
            let m = "e4".parse::<San>().ok().and_then(|s| s.to_move(&pos).ok());
            let mut out = Vec::new();
            for bytes in sim.play(&pos, m.unwrap_or_else(|| panic!("legal")), false) {
                out.extend(said(&a.update(Msg::Board(LinkEvent::Bytes(bytes)), now)));
            }
            assert_eq!(out, vec!["Done: Bauer Eva vier."]);
            assert_eq!(line(&mut a, "board"), vec!["Board matches the game."]);
        }

        #[test]
        fn a_wrong_square_is_reported_on_request_and_when_fixed() {
            let (mut a, mut sim, now) = with_board(Protocol::Dgt, false);
            assert!(act(&mut a, &mut sim, HandStep::Lift(Square::H7), now).is_empty());
            assert!(tick(&mut a, now + SETTLE).len() == 1);
            let report =
                "Mismatch on one square: Hector sieben should have the black Bauer, it is empty.";
            assert_eq!(line(&mut a, "board"), vec![report]);
            let e = a.update(Msg::Line("board".into()), now);
            assert!(matches!(&e[..], [Effect::Say(u)] if u.kind == SayKind::Mismatch));
            let back = act(
                &mut a,
                &mut sim,
                HandStep::Place(Square::H7, Color::Black.pawn()),
                now,
            );
            assert_eq!(back, vec!["Board matches the game."]);
        }

        #[test]
        fn a_mismatch_is_urgent_with_its_tone() {
            let (mut a, mut sim, now) = with_board(Protocol::Dgt, false);
            act(&mut a, &mut sim, HandStep::Lift(Square::A7), now);
            let e = a.update(Msg::Deadline, now + SETTLE);
            assert!(
                matches!(&e[..], [Effect::Say(u), Effect::Tone(Tone::Mismatch)] if u.priority == Priority::Urgent && u.kind == SayKind::Mismatch),
                "{e:?}"
            );
        }

        #[test]
        fn an_illegal_move_on_the_board_is_said() {
            let (mut a, mut sim, now) = with_board(Protocol::Dgt, false);
            act(&mut a, &mut sim, HandStep::Lift(Square::G1), now);
            act(
                &mut a,
                &mut sim,
                HandStep::Place(Square::G3, Color::White.knight()),
                now,
            );
            let t = tick(&mut a, now + SETTLE);
            assert_eq!(
                t[0],
                "Illegal move on the board. Put the pieces back as they were."
            );
            assert!(t[1].starts_with("Mismatch on "), "{t:?}");
            assert!(a.game().history().is_empty());
        }

        #[test]
        fn the_board_taken_back_undoes_the_move() {
            let (mut a, mut sim, now) = with_board(Protocol::Dgt, false);
            on_board(&mut a, &mut sim, "Nf3", now);
            let t = act(&mut a, &mut sim, HandStep::Lift(Square::F3), now);
            assert!(t.is_empty(), "{t:?}");
            let t = act(
                &mut a,
                &mut sim,
                HandStep::Place(Square::G1, Color::White.knight()),
                now,
            );
            assert_eq!(t, vec!["Move taken back."]);
            assert!(a.game().history().is_empty());
            // And the game goes on from there.
            assert_eq!(
                on_board(&mut a, &mut sim, "e4", now),
                vec!["Bauer Eva vier"]
            );
        }

        #[test]
        fn occupancy_promotion_asks_for_the_piece() {
            let (mut a, mut sim, now) = with_board(Protocol::Occupancy, false);
            let fen = "8/4P3/8/7k/8/8/P7/4K3 w - - 0 1";
            a.game = Game::from_fen(fen).unwrap_or_else(|_| panic!("valid"));
            let pos = a.game.position().clone();
            let notes = a.board.as_mut().map(|b| b.game_replaced(&pos, None, now));
            assert!(notes.is_some());
            sim.set_board(pos.board().clone());
            let e = a.update(Msg::Board(LinkEvent::Bytes(sim.dump())), now);
            assert_eq!(said(&e), vec!["Board matches the game."]);
            let t = on_board(&mut a, &mut sim, "e8=Q", now);
            assert_eq!(
                t,
                vec!["Which piece does the pawn become? Say Dame, Turm, Läufer or Springer."]
            );
            assert_eq!(
                line(&mut a, "Springer"),
                vec!["Bauer Eva acht wird Springer"]
            );
        }

        #[test]
        fn touches_are_said_only_when_wanted() {
            let (mut a, mut sim, now) = with_board(Protocol::Dgt, true);
            let t = act(&mut a, &mut sim, HandStep::Lift(Square::G1), now);
            assert_eq!(t, vec!["Touched: Springer Gustav eins."]);
            let (mut b, mut sim, now) = with_board(Protocol::Dgt, false);
            assert!(act(&mut b, &mut sim, HandStep::Lift(Square::G1), now).is_empty());
        }

        #[test]
        fn a_pulled_cable_is_said_once_and_the_keyboard_plays_on() {
            let (mut a, sim, now) = with_board(Protocol::Dgt, false);
            let gone = || LinkEvent::Disconnected(crate::board::PortError::Gone);
            let e = a.update(Msg::Board(gone()), now);
            assert_eq!(
                said(&e),
                vec!["Board disconnected. Play on with the keyboard."]
            );
            let e = a.update(Msg::Board(gone()), now);
            assert!(said(&e).is_empty());
            assert_eq!(line(&mut a, "e4"), vec!["Bauer Eva vier"]);
            assert_eq!(
                line(&mut a, "board"),
                vec!["The board is not connected. Play on with the keyboard."]
            );
            let e = a.update(Msg::Board(LinkEvent::Connected), now);
            assert!(said(&e).is_empty());
            let e = a.update(Msg::Board(LinkEvent::Bytes(sim.dump())), now);
            assert_eq!(
                said(&e),
                vec![
                    "Board connected again.",
                    "On your board: white Bauer from Eva zwei to Eva vier."
                ]
            );
        }

        #[test]
        fn a_board_turned_round_is_said_and_read_that_way() {
            let mut a = app();
            a.attach_board(BoardSession::new(
                Protocol::Dgt,
                TrackerConfig::default(),
                a.game().position(),
                false,
            ));
            let now = Instant::now();
            a.update(Msg::Board(LinkEvent::Connected), now);
            let mut sim = SimBoard::new(Protocol::Dgt, Board::new())
                .with_orientation(crate::board::sensed::Orientation::Rotated);
            let e = a.update(Msg::Board(LinkEvent::Bytes(sim.dump())), now);
            assert_eq!(
                said(&e),
                vec![
                    "Board connected.",
                    "The board stands turned round; read that way from now on."
                ]
            );
            assert_eq!(
                on_board(&mut a, &mut sim, "Nf3", now),
                vec!["Springer Felix drei"]
            );
        }

        #[test]
        fn the_board_command_without_a_board() {
            let mut a = app();
            assert_eq!(line(&mut a, "board"), vec!["No board is connected."]);
            assert_eq!(a.next_deadline(), None);
            // Bytes for a board that is not there change nothing.
            let e = a.update(Msg::Board(LinkEvent::Bytes(vec![1, 2, 3])), Instant::now());
            assert!(e.is_empty());
        }

        #[test]
        fn a_new_game_on_the_board_is_asked_about() {
            let (mut a, mut sim, now) = with_board(Protocol::Millennium, false);
            on_board(&mut a, &mut sim, "Nf3", now);
            on_board(&mut a, &mut sim, "Nf6", now);
            let bytes = sim.set_board(Board::new());
            let e = a.update(Msg::Board(LinkEvent::Bytes(bytes)), now);
            assert_eq!(
                said(&e),
                vec!["The board shows the starting position. Say new to start a new game."]
            );
            assert_eq!(line(&mut a, "new"), vec!["New game. White to move."]);
            assert_eq!(
                on_board(&mut a, &mut sim, "d4", now),
                vec!["Bauer David vier"]
            );
        }
    }

    /// Issue 8: what a player hears must be calm, true and useful.
    mod trust {
        use super::*;

        fn asking() -> App {
            App::builder().ask_before_leaving(true).build()
        }

        fn mate(a: &mut App) {
            for m in ["e4", "f6", "d4", "g5", "Qh5"] {
                line(a, m);
            }
        }

        #[test]
        fn game_over_is_a_state_for_the_prompt_turn_an_empty_line_and_a_move() {
            let mut a = app();
            mate(&mut a);
            let over = "Game over: White won by checkmate, 1-0. Say new for a new game.";
            assert_eq!(a.prompt(), over);
            assert_eq!(line(&mut a, "turn"), vec![over]);
            assert_eq!(line(&mut a, ""), vec![over]);
            assert_eq!(line(&mut a, "Nc6"), vec![over]);
            // Exploration works on the final position.
            assert_eq!(line(&mut a, "square h5"), vec!["Hector fünf: white Dame"]);
            let mut b = app();
            line(&mut b, "resign");
            assert_eq!(
                b.prompt(),
                "Game over: Black won, White resigned, 0-1. Say new for a new game."
            );
            let mut c = App::builder().lang(Lang::De).build();
            for m in ["e4", "e5", "Sf3"] {
                line(&mut c, m);
            }
            line(&mut c, "remis");
            line(&mut c, "annehmen");
            assert_eq!(
                c.prompt(),
                "Partie zu Ende: remis durch Vereinbarung, 1/2-1/2. Sag neu für eine neue Partie."
            );
        }

        #[test]
        fn quit_and_new_in_mid_game_ask_first() {
            let mut a = asking();
            // No game in progress: nothing to lose, no question.
            let e = a.update(Msg::Line("new".into()), Instant::now());
            assert_eq!(said(&e), vec!["New game. White to move."]);
            line(&mut a, "e4");
            assert_eq!(
                line(&mut a, "quit"),
                vec!["A game is in progress. Say quit again to leave, or no to go on."]
            );
            assert_eq!(line(&mut a, "no"), vec!["The game goes on."]);
            assert!(!a.quitting());
            assert_eq!(a.game().history().len(), 1);
            line(&mut a, "new");
            // Any other line forgets the question and is read as usual.
            assert_eq!(line(&mut a, "e5"), vec!["Bauer Eva fünf"]);
            assert_eq!(a.game().history().len(), 2);
            line(&mut a, "new");
            assert_eq!(line(&mut a, "yes"), vec!["New game. White to move."]);
            line(&mut a, "d4");
            line(&mut a, "q");
            let e = a.update(Msg::Line("quit".into()), Instant::now());
            assert_eq!(said(&e), vec!["Goodbye."]);
            assert_eq!(e.last(), Some(&Effect::Quit));
        }

        /// Issue 18, item 9: `resign` ends the game for good, so it is
        /// asked like `new` and `quit` (in a terminal).
        #[test]
        fn resign_asks_first() {
            let mut a = asking();
            line(&mut a, "e4");
            assert_eq!(
                line(&mut a, "resign"),
                vec!["Resigning ends the game. Say resign again to resign, or no to go on."]
            );
            assert_eq!(line(&mut a, "no"), vec!["The game goes on."]);
            assert!(!a.game().is_over());
            line(&mut a, "resign");
            assert_eq!(line(&mut a, "yes"), vec!["Black resigns. White wins, 1-0."]);
            let mut b = asking();
            // Before the first move too; the same word again confirms.
            line(&mut b, "resign");
            assert_eq!(
                line(&mut b, "resign"),
                vec!["White resigns. Black wins, 0-1."]
            );
            assert!(b.game().is_over());
            // In German.
            let mut c = App::builder()
                .lang(Lang::De)
                .ask_before_leaving(true)
                .build();
            assert_eq!(
                line(&mut c, "aufgeben"),
                vec![
                    "Aufgeben beendet die Partie. Sag noch einmal aufgeben, um aufzugeben, oder nein, um weiterzuspielen."
                ]
            );
        }

        /// Issue 18: a draw offer that lapsed (the opponent moved) was not
        /// said; the player who offered heard only the move.
        #[test]
        fn a_lapsed_draw_offer_is_said() {
            let mut a = app();
            line(&mut a, "e4");
            assert_eq!(line(&mut a, "draw"), vec!["White offers a draw."]);
            assert_eq!(
                line(&mut a, "e5"),
                vec![
                    "Bauer Eva fünf",
                    "White's draw offer lapses: the move declines it."
                ]
            );
            assert_eq!(a.game().pending_offer(), None);
            // An offer kept for the offerer's own move is made with it, and
            // a decline is said as a decline, not as a lapse.
            line(&mut a, "draw");
            assert_eq!(
                line(&mut a, "Nf3"),
                vec!["Springer Felix drei", "White offers a draw."]
            );
            assert_eq!(line(&mut a, "decline"), vec!["Black declines the draw."]);
            let mut b = App::builder().lang(Lang::It).build();
            line(&mut b, "e4");
            line(&mut b, "patta");
            assert_eq!(
                line(&mut b, "e5"),
                vec![
                    "Bauer Eva fünf",
                    "La proposta di patta del Bianco decade: la mossa la rifiuta."
                ]
            );
        }

        #[test]
        fn a_script_is_not_asked() {
            let mut a = app();
            line(&mut a, "e4");
            let e = a.update(Msg::Line("quit".into()), Instant::now());
            assert_eq!(e.last(), Some(&Effect::Quit));
        }

        #[test]
        fn a_signal_or_the_end_of_input_in_mid_game_says_goodbye() {
            let mut a = asking();
            line(&mut a, "e4");
            let e = a.update(Msg::EndOfInput, Instant::now());
            assert_eq!(said(&e), vec!["Goodbye."]);
            assert_eq!(e.last(), Some(&Effect::Quit));
            let mut b = app();
            let e = b.update(Msg::Interrupted, Instant::now());
            assert_eq!(said(&e), vec!["Goodbye."]);
            assert_eq!(e.last(), Some(&Effect::Quit));
        }

        #[test]
        fn bad_arguments_say_what_is_wrong() {
            let mut a = app();
            assert_eq!(
                line(&mut a, "rank 9"),
                vec!["There is no rank 9: say a rank from 1 to 8."]
            );
            assert_eq!(
                line(&mut a, "file z"),
                vec!["There is no file z: say a file from a to h."]
            );
            assert_eq!(line(&mut a, "rank"), vec!["rank 4: the pieces on a rank."]);
            assert_eq!(
                line(&mut a, "help rank"),
                vec!["rank 4: the pieces on a rank."]
            );
            assert_eq!(
                line(&mut a, "help frobnicate"),
                vec!["\"frobnicate\" is not a command. Say help for the list."]
            );
            let e = a.update(Msg::Line("rank 9".into()), Instant::now());
            assert_eq!(e.last(), Some(&Effect::Tone(Tone::Error)));
        }

        #[test]
        fn attackers_and_defenders_of_either_side() {
            let mut a = app();
            for m in ["e4", "d5"] {
                line(&mut a, m);
            }
            assert_eq!(
                line(&mut a, "attackers d5 white"),
                vec!["David fünf is attacked by Bauer Eva vier."]
            );
            assert_eq!(
                line(&mut a, "defenders d5 black"),
                vec!["David fünf is defended by Dame David acht."]
            );
            assert_eq!(
                line(&mut a, "attackers e4 black"),
                vec!["Eva vier is attacked by Bauer David fünf."]
            );
            assert_eq!(
                line(&mut a, "defenders e4 white"),
                vec!["Nothing defends Eva vier."]
            );
        }

        #[test]
        fn a_promotion_without_its_piece_asks_which() {
            let mut a = app();
            a.game = Game::from_fen("8/1P5k/8/8/8/8/7P/4K3 w - - 0 1").expect("valid");
            assert_eq!(
                line(&mut a, "b8"),
                vec!["Which piece does the pawn become? Say Dame, Turm, Läufer or Springer."]
            );
            assert_eq!(
                line(&mut a, "Springer"),
                vec!["Bauer Bella acht wird Springer"]
            );
            // A piece word with no question waiting says so.
            assert_eq!(
                line(&mut a, "Dame"),
                vec![
                    "Dame alone is not a move: no question waits for a piece. \
                     Say the whole move, such as Dame Felix drei."
                ]
            );
        }

        #[test]
        fn a_move_of_the_side_not_to_move_names_it_and_whose_turn_it_is() {
            let mut a = app();
            assert_eq!(
                line(&mut a, "e5"),
                vec!["Bauer Eva fünf is Black's move, but it is White's turn."]
            );
        }

        #[test]
        fn typed_text_is_quoted_back_safely() {
            let mut a = app();
            let t = line(
                &mut a,
                "\u{1b}[31mred\u{1b}[0m words and more words to make it longer than forty",
            );
            assert_eq!(t.len(), 1);
            assert!(!t[0].contains('\u{1b}'), "{t:?}");
            assert!(t[0].starts_with("\"red words"), "{t:?}");
            assert!(t[0].contains('…'), "{t:?}");
        }

        #[test]
        fn an_offer_typed_by_the_player_to_move_is_made_with_their_move() {
            let mut a = app();
            line(&mut a, "e4");
            line(&mut a, "e5");
            assert_eq!(
                line(&mut a, "draw"),
                vec!["Your draw offer will be made with your next move."]
            );
            assert_eq!(a.game().pending_offer(), None);
            assert_eq!(
                line(&mut a, "Nf3"),
                vec!["Springer Felix drei", "White offers a draw."]
            );
            assert_eq!(a.game().pending_offer(), Some(Color::White));
            assert_eq!(a.prompt(), "Black to move, move 2; White offers a draw.");
            assert_eq!(
                line(&mut a, "turn"),
                vec!["Black to move, move 2; White offers a draw."]
            );
        }

        #[test]
        fn less_to_listen_to() {
            let mut a = app();
            assert_eq!(
                line(&mut a, "pieces white"),
                vec![
                    "White, sixteen pieces: König Eva eins; Dame David eins; Türme Anna eins and Hector eins; \
                     Läufer Cesar eins and Felix eins; Springer Bella eins and Gustav eins; \
                     Bauern on all files of zwei."
                ]
            );
            line(&mut a, "e4");
            assert_eq!(line(&mut a, "last"), vec!["Last move: 1. Bauer Eva vier."]);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// Any line that is not a command word gets exactly one answer, in
        /// the start position and in the middle of a game.
        #[test]
        fn random_lines_get_exactly_one_answer(text in "\\PC{0,40}", moves in 0usize..6) {
            let mut a = app();
            for m in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"].iter().take(moves) {
                line(&mut a, m);
            }
            let first = text.split_whitespace().next().unwrap_or("");
            prop_assume!(a.keymap.command(first).is_none());
            let answer = line(&mut a, &text);
            prop_assert_eq!(answer.len(), 1, "{:?} -> {:?}", text, answer);
        }
    }
}
