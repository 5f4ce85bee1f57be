//! Playing against a UCI engine: the engine's moves (announced like an
//! opponent's, then awaited on the player's board), hints, evaluations,
//! threats, take-backs, faults said once, and restarts.
//!
//! The engine's process belongs to the front end; the app drives the
//! [`EngineSession`] and asks for the process through
//! [`EngineOrder`]s.  Each start of the engine has a generation: lines of
//! an engine that was restarted are not mistaken for the new one's.

use crate::words::Lang;
use crate::words::arguments::{self, Arg};
use std::time::{Duration, Instant};

use shakmaty::{Color, Position};

use super::App;
use crate::action::PlayerAction;
use crate::engine::{
    EngineEvent, EngineIo, EngineSession, EngineSettings, Limit, ProcessEvent, Purpose,
    SearchError, SearchRequest, SearchResult, Timeouts,
};
use crate::msg::{Effect, EngineOrder};
use crate::speech::{Priority, SayKind};

/// How the engine is used in a session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineSetup {
    /// The program (`None`: `stockfish`).
    pub program: Option<String>,
    /// Strength and options.
    pub settings: EngineSettings,
    /// The engine's time per move.
    pub move_time: Duration,
    /// The time for a hint, an evaluation or a threat.
    pub help_time: Duration,
    /// How long the engine may take to answer.
    pub timeouts: Timeouts,
}

impl Default for EngineSetup {
    fn default() -> Self {
        EngineSetup {
            program: None,
            settings: EngineSettings::default(),
            move_time: Duration::from_secs(1),
            help_time: Duration::from_millis(500),
            timeouts: Timeouts::default(),
        }
    }
}

/// Something asked of the engine by a command; done at the end of the
/// update, where `now` is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum EngineAsk {
    Search(Purpose),
    Restart,
    /// Stop the engine's search (its move was taken back).
    Cancel,
    /// A new game: `ucinewgame`.
    NewGame,
}

/// A `takeback` with the player's board: the moves are taken back in the
/// game as the board takes them back, one by one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct TakebackAwaited {
    /// The number of moves the game has once all are taken back.
    target: usize,
    /// The moves taken back, in words, oldest first.
    moves: Vec<String>,
    /// What to do on the board, said again on a second `takeback`.
    instruction: String,
}

/// Why a search was not started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SearchTrouble {
    /// The threat was asked while the side to move is in check.
    InCheck,
    /// The session refused it.
    Engine(SearchError),
}

/// The engine of the session.
pub(super) struct EnginePlay {
    setup: EngineSetup,
    session: EngineSession,
    generation: u64,
    asks: Vec<EngineAsk>,
    /// The input ended while the engine had the move: quit after it.
    quit_after_move: bool,
}

impl EnginePlay {
    /// When the engine session next wants a look (its time-outs).
    pub(super) fn next_deadline(&self) -> Option<Instant> {
        self.session.next_deadline()
    }

    pub(super) fn new(setup: EngineSetup) -> EnginePlay {
        let session = EngineSession::new(setup.settings.clone(), setup.timeouts);
        EnginePlay {
            setup,
            session,
            generation: 0,
            asks: Vec::new(),
            quit_after_move: false,
        }
    }
}

impl App {
    /// Play against an engine (started with the session, [`crate::msg::Msg::Start`]).
    pub(super) fn set_engine(&mut self, setup: EngineSetup) {
        self.parts.engine = Some(EnginePlay::new(setup));
        self.journal_engine_side(Some(!self.settings.me));
    }

    /// A rated game, or one with an arbiter: no hint, evaluation, threat or
    /// take-back (at start-up: [`super::AppBuilder::rated`]).
    pub(super) fn set_rated(&mut self, rated: bool) {
        self.settings.rated = rated;
    }

    /// The side the engine plays, when there is one.
    pub fn engine_side(&self) -> Option<Color> {
        self.parts.engine.as_ref().map(|_| !self.settings.me)
    }

    /// The engine is alive and it is its move.
    pub(super) fn engine_has_the_move(&self) -> bool {
        self.parts.engine.as_ref().is_some_and(|e| !e.session.is_over())
            && self.game.turn() != self.settings.me
            && !self.game.is_over()
            // Not while a take-back is being made on the board.
            && self.parts.boards.takeback_awaited.is_none()
            // Not while the player is asked whether to resume a game: the
            // game to play is not known yet.
            && !self.asking_resume()
    }

    /// The input ended: quit now, or after the engine's move.
    pub(super) fn engine_defers_quit(&mut self) -> bool {
        if self.engine_has_the_move()
            && let Some(e) = &mut self.parts.engine
        {
            e.quit_after_move = true;
            return true;
        }
        false
    }

    /// Start the engine, or start it again.
    pub(super) fn engine_start(&mut self, now: Instant, out: &mut Vec<Effect>) {
        let Some(e) = &mut self.parts.engine else {
            return;
        };
        e.generation += 1;
        e.session = EngineSession::new(e.setup.settings.clone(), e.setup.timeouts);
        out.push(Effect::Engine(EngineOrder::Start {
            generation: e.generation,
            program: e.setup.program.clone(),
        }));
        e.session.start(now);
    }

    /// What the engine's process reported.
    pub(super) fn on_engine_io(&mut self, io: EngineIo, now: Instant) {
        let Some(e) = &mut self.parts.engine else {
            return;
        };
        if io.generation != e.generation {
            return;
        }
        match io.event {
            ProcessEvent::Line(line) => e.session.handle_line(&line, now),
            ProcessEvent::Exited(exit) => e.session.handle_exit(exit),
            ProcessEvent::StartFailed(fault) => e.session.fail(fault),
        }
    }

    /// Time passed: a hang is found here.
    pub(super) fn engine_tick(&mut self, now: Instant) {
        if let Some(e) = &mut self.parts.engine {
            e.session.handle_timeout(now);
        }
    }

    /// After every message: commands carried out, the engine's turn asked
    /// for, its lines sent, its events said.
    pub(super) fn engine_step(&mut self, now: Instant, out: &mut Vec<Effect>) {
        let asks = match &mut self.parts.engine {
            Some(e) => std::mem::take(&mut e.asks),
            None => return,
        };
        for ask in asks {
            self.engine_do(ask, now, out);
        }
        // The events first: a `bestmove` just read is the engine's move,
        // played before the turn is looked at.
        let mut asked = false;
        loop {
            let Some(e) = &mut self.parts.engine else {
                return;
            };
            let generation = e.generation;
            while let Some(line) = e.session.poll_transmit() {
                out.push(Effect::Engine(EngineOrder::Send { generation, line }));
            }
            if let Some(event) = e.session.poll_event() {
                self.on_engine_event(event, now, out);
            } else if !asked {
                asked = true;
                self.engine_maybe_move(now);
            } else {
                break;
            }
        }
        if let Some(e) = &mut self.parts.engine
            && e.quit_after_move
            && !self.quitting
            && !self.engine_has_the_move()
        {
            self.quitting = true;
            out.push(Effect::Quit);
        }
    }

    /// The limit of the engine's own move: on the clock while one runs
    /// (`go wtime btime winc binc movestogo`), else its time per move.
    fn engine_move_limit(&self, now: Instant) -> Option<Limit> {
        let move_time = self.parts.engine.as_ref()?.setup.move_time;
        let Some(clock) = self.clock().filter(|c| c.is_running()) else {
            return Some(Limit::MoveTime(move_time));
        };
        let control = clock.control();
        let periods = control.period_list();
        // What each side gets back for a move: a delay is safe to count as
        // an increment (a move within it costs nothing either).
        let inc = |side: Color| {
            control
                .period(clock.period(side))
                .map_or(Duration::ZERO, |p| p.bonus.amount())
        };
        // The moves left to the next time control of the side to move.
        let turn = self.game.turn();
        let made = clock.moves(turn);
        let mut end = 0u32;
        let mut moves_to_go = None;
        for p in &periods {
            let Some(m) = p.moves else { break };
            end = end.saturating_add(m);
            if made < end {
                moves_to_go = u8::try_from(end - made).ok();
                break;
            }
        }
        Some(Limit::Clock {
            white: clock.remaining(Color::White, now),
            black: clock.remaining(Color::Black, now),
            white_inc: inc(Color::White),
            black_inc: inc(Color::Black),
            moves_to_go,
        })
    }

    /// Ask the engine to search the game now: for its own move (on the
    /// clock or its time per move) or for a hint, an evaluation or the
    /// threat (its help time).
    fn engine_search(&mut self, purpose: Purpose, now: Instant) -> Result<(), SearchTrouble> {
        let limit = match purpose {
            Purpose::Move => self.engine_move_limit(now),
            _ => self
                .parts
                .engine
                .as_ref()
                .map(|e| Limit::MoveTime(e.setup.help_time)),
        };
        let Some(limit) = limit else {
            return Err(SearchTrouble::Engine(SearchError::Failed));
        };
        let req = if purpose == Purpose::Threat {
            // The threat of a side in check is the check.
            SearchRequest::threat(self.game.position(), self.game.castling_mode(), limit)
                .ok_or(SearchTrouble::InCheck)?
        } else {
            SearchRequest {
                purpose,
                start: self.game.start().clone(),
                mode: self.game.castling_mode(),
                moves: self.game.history().iter().map(|p| p.mv).collect(),
                limit,
            }
        };
        match &mut self.parts.engine {
            Some(e) => e
                .session
                .search(req, now)
                .map(|_| ())
                .map_err(SearchTrouble::Engine),
            None => Err(SearchTrouble::Engine(SearchError::Failed)),
        }
    }

    /// Ask for the engine's move when it is its turn.
    fn engine_maybe_move(&mut self, now: Instant) {
        if !self.engine_has_the_move()
            || self
                .parts
                .engine
                .as_ref()
                .is_none_or(|e| e.session.thinking_about_move())
        {
            return;
        }
        // Refused only for a game with no move left (over).
        let _ = self.engine_search(Purpose::Move, now);
    }

    /// The word that starts the engine again, for the sentences that say so.
    fn restart_word(&self) -> String {
        let word = self
            .talk
            .keymap
            .words(PlayerAction::Engine)
            .first()
            .cloned()
            .unwrap_or_else(|| PlayerAction::Engine.key().to_owned());
        // "engine restart", "Schachprogramm neustart": the player's words.
        let lang = Lang::ALL
            .into_iter()
            .find(|l| l.code() == self.talk.phraser.msg_lang())
            .unwrap_or_default();
        format!("{word} {}", arguments::word_of(lang, Arg::Restart))
    }

    /// `hint`, `eval`, `threat`, `engine`: asked for now, done at the end of
    /// the update.
    pub(super) fn engine_action(&mut self, action: PlayerAction, out: &mut Vec<Effect>) {
        let purpose = match action {
            PlayerAction::Hint => Some(Purpose::Hint),
            PlayerAction::Eval => Some(Purpose::Eval),
            PlayerAction::Threat => Some(Purpose::Threat),
            _ => None,
        };
        if self.parts.engine.is_none() {
            let t = self.message("engine_none", &[]);
            self.info(out, t);
            return;
        }
        let ask = match purpose {
            Some(p) => EngineAsk::Search(p),
            None => {
                let t = self.message("engine_restarting", &[]);
                self.info(out, t);
                EngineAsk::Restart
            }
        };
        if let Some(e) = &mut self.parts.engine {
            e.asks.push(ask);
        }
    }

    fn engine_do(&mut self, ask: EngineAsk, now: Instant, out: &mut Vec<Effect>) {
        match ask {
            EngineAsk::Restart => self.engine_start(now, out),
            EngineAsk::Cancel => {
                if let Some(e) = &mut self.parts.engine {
                    e.session.cancel(now);
                }
            }
            EngineAsk::NewGame => {
                if let Some(e) = &mut self.parts.engine {
                    e.session.new_game(now);
                }
            }
            EngineAsk::Search(purpose) => {
                if self.game.is_over() {
                    if let Some(t) = self.game_is_over() {
                        self.info(out, t);
                    }
                    return;
                }
                let key = match self.engine_search(purpose, now) {
                    Ok(()) => return,
                    Err(SearchTrouble::InCheck) => {
                        let t = self.message("engine_in_check", &[]);
                        self.info(out, t);
                        return;
                    }
                    Err(SearchTrouble::Engine(SearchError::Busy)) => "engine_busy",
                    Err(SearchTrouble::Engine(SearchError::Failed)) => "engine_off",
                    Err(SearchTrouble::Engine(SearchError::NotLegal | SearchError::NoMoves)) => {
                        "engine_no_answer"
                    }
                };
                let restart = self.restart_word();
                let t = self.message(key, &[("restart", &restart)]);
                self.info(out, t);
            }
        }
    }

    /// `new`: the engine starts a new game too.
    pub(super) fn engine_new_game(&mut self) {
        if let Some(e) = &mut self.parts.engine {
            e.asks.push(EngineAsk::NewGame);
        }
    }

    /// `takeback`: the last move pair (the engine's reply and the player's
    /// move), or the player's move while the engine thinks; without an
    /// engine, the last move.  A board then shows what to put back.
    pub(super) fn take_back(&mut self, now: Instant, out: &mut Vec<Effect>) {
        if self.settings.rated {
            let t = self.message("help_off_rated", &[]);
            self.info(out, t);
            return;
        }
        if self.game.is_over() {
            self.takeback_after_end(out);
            return;
        }
        if let Some(a) = &self.parts.boards.takeback_awaited {
            let t = a.instruction.clone();
            self.say(out, t, Priority::Normal, SayKind::Board);
            return;
        }
        self.take_back_moves(now, out);
    }

    /// `takeback` after the end: a finished game stays finished.  In a
    /// two-player game both players may agree to reopen it, when it ended
    /// on the board or by the players (not by a flag, an illegal move too
    /// many or the arbiter); against the engine, never.
    fn takeback_after_end(&mut self, out: &mut Vec<Effect>) {
        use crate::game::EndReason;
        let by_the_clock_or_the_arbiter = self.game.result().is_some_and(|r| {
            matches!(
                r.reason,
                EndReason::TimeForfeit | EndReason::IllegalMove | EndReason::ArbiterDecision
            )
        });
        if self.parts.engine.is_some()
            || by_the_clock_or_the_arbiter
            || self.game.history().is_empty()
        {
            let t = self.message("takeback_after_end_refused", &[]);
            self.say(out, t, Priority::Normal, SayKind::Error);
            return;
        }
        let last = self
            .game
            .positions()
            .next_back()
            .map(|(before, played)| self.talk.phraser.say_move(before, played.mv))
            .unwrap_or_default();
        self.ask(super::Question::TakebackAfterEnd, out);
        let t = self.message("takeback_after_end_ask", &[("moves", &last)]);
        self.info(out, t);
    }

    /// Both players agreed to take back after the end: the last move is
    /// taken back, the game goes on, and so does its clock.
    pub(super) fn take_back_agreed(&mut self, now: Instant, out: &mut Vec<Effect>) {
        if !self.game.is_over() || self.settings.rated || self.parts.engine.is_some() {
            return self.take_back(now, out);
        }
        self.take_back_moves(now, out);
        if !self.game.is_over()
            && let Some(part) = &mut self.parts.clock
            && part.clock.is_paused()
            && !part.follows_board()
        {
            let _ = part.clock.resume(now);
        }
    }

    /// Take back the last move (with an engine, the last pair).
    fn take_back_moves(&mut self, now: Instant, out: &mut Vec<Effect>) {
        let plies = match &self.parts.engine {
            Some(_) if self.game.turn() == self.settings.me => 2,
            _ => 1,
        };
        let plies = plies.min(self.game.history().len());
        if plies == 0 {
            let t = self.message("nothing_to_take_back", &[]);
            self.info(out, t);
            return;
        }
        let mut taken: Vec<String> = self
            .game
            .positions()
            .rev()
            .take(plies)
            .map(|(before, played)| self.talk.phraser.say_move(before, played.mv))
            .collect();
        taken.reverse();
        if let Some(e) = &mut self.parts.engine {
            e.asks.push(EngineAsk::Cancel);
        }
        // With a board that answers, the moves it shows are taken back on
        // it; moves not made there yet (still awaited), at once.  A board
        // that shows none of these positions is told its mismatch instead.
        let on_board = match self.parts.boards.player.as_ref().filter(|b| b.connected()) {
            Some(b) => {
                let sensed = b.tracker().sensed();
                let states = std::iter::once(self.game.position())
                    .chain(self.game.positions().rev().take(plies).map(|(p, _)| p));
                let not_made = sensed.and_then(|s| {
                    states
                        .enumerate()
                        .find(|(_, p)| s.matches(p.board()))
                        .map(|(k, _)| k)
                });
                not_made.map_or(0, |k| plies - k.min(plies))
            }
            None => 0,
        };
        for _ in on_board..plies {
            self.game.undo_last();
        }
        self.clock_took_back(now);
        if on_board == 0 {
            self.parts.boards.takeback_awaited = None;
            let t = self.message("taken_back", &[("moves", &taken.join(", "))]);
            self.say(out, t, Priority::Normal, SayKind::Game);
            return;
        }
        // What to take back on the board, the last move first.
        let mut to_undo: Vec<String> = taken.iter().take(on_board).cloned().collect();
        to_undo.reverse();
        let t = self.message("takeback_on_board", &[("moves", &to_undo.join(", "))]);
        self.parts.boards.takeback_awaited = Some(TakebackAwaited {
            target: self.game.history().len().saturating_sub(on_board),
            moves: taken,
            instruction: t.clone(),
        });
        self.say(out, t, Priority::Normal, SayKind::Board);
    }

    /// The board took back the game's last move (the game has undone it):
    /// part of an awaited `takeback`, said once all are taken back; true
    /// when it was.
    pub(super) fn board_took_back(&mut self, out: &mut Vec<Effect>) -> bool {
        let Some(awaited) = &self.parts.boards.takeback_awaited else {
            return false;
        };
        let len = self.game.history().len();
        if len > awaited.target {
            return true;
        }
        let moves = awaited.moves.join(", ");
        self.parts.boards.takeback_awaited = None;
        let t = self.message("taken_back", &[("moves", &moves)]);
        self.say(out, t, Priority::Normal, SayKind::Game);
        true
    }

    /// The board is gone while a take-back was awaited there: the moves
    /// are taken back in the game now.
    pub(super) fn takeback_without_board(&mut self, now: Instant, out: &mut Vec<Effect>) {
        let Some(target) = self
            .parts
            .boards
            .takeback_awaited
            .as_ref()
            .map(|a| a.target)
        else {
            return;
        };
        while self.game.history().len() > target {
            if self.game.undo_last().is_none() {
                break;
            }
        }
        self.clock_took_back(now);
        self.board_took_back(out);
    }

    /// A move was played, or the game replaced, while a take-back was
    /// awaited on the board: the take-back is given up.
    pub(super) fn takeback_given_up(&mut self) {
        self.parts.boards.takeback_awaited = None;
    }

    fn on_engine_event(&mut self, event: EngineEvent, now: Instant, out: &mut Vec<Effect>) {
        match event {
            EngineEvent::Ready { name } => {
                let name = name
                    .or_else(|| {
                        self.parts
                            .engine
                            .as_ref()
                            .and_then(|e| e.setup.program.clone())
                    })
                    .unwrap_or_else(|| crate::engine::DEFAULT_ENGINE.to_owned());
                self.journal_engine_name(!self.settings.me, &name);
                let side = self.talk.phraser.side(self.settings.me);
                let t = self.message("engine_ready", &[("name", &name), ("side", &side)]);
                self.say(out, t, Priority::Normal, SayKind::Info);
            }
            EngineEvent::Note(note) => {
                let (key, args) = note.phrase();
                let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
                let t = self.message(key, &args);
                self.say(out, t, Priority::Normal, SayKind::Info);
            }
            EngineEvent::BestMove(r) => self.on_engine_answer(r, now, out),
            EngineEvent::Silent => {
                let t = self.message("engine_waiting", &[]);
                self.info(out, t);
            }
            EngineEvent::Fault(fault) => {
                let (key, mut args) = fault.phrase();
                args.push(("restart", self.restart_word()));
                let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
                let t = self.message(key, &args);
                self.say(out, t, Priority::Urgent, SayKind::Error);
                if let Some(e) = &self.parts.engine {
                    out.push(Effect::Engine(EngineOrder::Kill {
                        generation: e.generation,
                    }));
                }
            }
        }
    }

    fn on_engine_answer(&mut self, r: SearchResult, now: Instant, out: &mut Vec<Effect>) {
        let pos = self.game.position();
        // An answer about a position that is gone (a move taken back, a
        // new game) is not said.
        let current = match r.purpose {
            Purpose::Threat => r.position.board() == pos.board() && r.position.turn() != pos.turn(),
            _ => &r.position == pos,
        };
        if !current {
            return;
        }
        match r.purpose {
            Purpose::Move => {
                if self.engine_has_the_move() {
                    // The player's draw offer is answered by the engine's
                    // evaluation: accepted when it is worse, else declined
                    // and its move made.
                    if self.game.pending_offer() == Some(self.settings.me) {
                        let engine = !self.settings.me;
                        let accept = r.score.is_some_and(|s| s.accepts_draw(engine));
                        if accept && self.game.accept_draw(engine).is_ok() {
                            let t = self.message("draw_accepted", &[]);
                            self.say(out, t, Priority::Urgent, SayKind::Game);
                            if let Some(t) = self.game_over_sentence() {
                                self.say(out, t, Priority::Urgent, SayKind::Game);
                            }
                            return;
                        }
                        self.decline_draw(out);
                        self.parts.offers.declined = true;
                    }
                    // Announced like the opponent's move; a board then
                    // awaits it.
                    self.play(r.best, now, out);
                    self.sync_board(now, out);
                }
            }
            Purpose::Hint | Purpose::Threat => {
                let mv = self.talk.phraser.say_move(&r.position, r.best);
                let key = if r.purpose == Purpose::Hint {
                    "engine_hint"
                } else {
                    "engine_threat"
                };
                let t = self.message(key, &[("move", &mv)]);
                self.info(out, t);
            }
            Purpose::Eval => {
                let t = match r.score {
                    Some(score) => {
                        let phrase = score.phrase();
                        let args = phrase.args(|c| self.talk.phraser.side(c));
                        let args: Vec<(&str, &str)> =
                            args.iter().map(|(k, v)| (*k, v.as_str())).collect();
                        self.message(phrase.key, &args)
                    }
                    None => self.message("engine_no_answer", &[]),
                };
                self.info(out, t);
            }
        }
    }
}

#[cfg(test)]
mod tests;
