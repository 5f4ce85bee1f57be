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
    pub fn set_engine(&mut self, setup: EngineSetup) {
        self.engine = Some(EnginePlay::new(setup));
        self.journal_engine_side(Some(!self.me));
    }

    /// A rated game, or one with an arbiter: no hint, evaluation, threat or
    /// take-back.
    pub fn set_rated(&mut self, rated: bool) {
        self.rated = rated;
    }

    /// The side the engine plays, when there is one.
    pub fn engine_side(&self) -> Option<Color> {
        self.engine.as_ref().map(|_| !self.me)
    }

    pub(super) fn engine_deadline(&self) -> Option<Instant> {
        self.engine.as_ref().and_then(|e| e.session.next_deadline())
    }

    /// The engine is alive and it is its move.
    pub(super) fn engine_has_the_move(&self) -> bool {
        self.engine.as_ref().is_some_and(|e| !e.session.is_over())
            && self.game.turn() != self.me
            && !self.game.is_over()
            // Not while a take-back is being made on the board.
            && self.takeback_awaited.is_none()
            // Not while the player is asked whether to resume a game: the
            // game to play is not known yet.
            && self.asking_resume.is_none()
    }

    /// The input ended: quit now, or after the engine's move.
    pub(super) fn engine_defers_quit(&mut self) -> bool {
        if self.engine_has_the_move()
            && let Some(e) = &mut self.engine
        {
            e.quit_after_move = true;
            return true;
        }
        false
    }

    /// Start the engine, or start it again.
    pub(super) fn engine_start(&mut self, now: Instant, out: &mut Vec<Effect>) {
        let Some(e) = &mut self.engine else {
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
        let Some(e) = &mut self.engine else {
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
        if let Some(e) = &mut self.engine {
            e.session.handle_timeout(now);
        }
    }

    /// After every message: commands carried out, the engine's turn asked
    /// for, its lines sent, its events said.
    pub(super) fn engine_step(&mut self, now: Instant, out: &mut Vec<Effect>) {
        let asks = match &mut self.engine {
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
            let Some(e) = &mut self.engine else {
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
        if let Some(e) = &mut self.engine
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
        let move_time = self.engine.as_ref()?.setup.move_time;
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
        match &mut self.engine {
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
            .keymap
            .words(PlayerAction::Engine)
            .first()
            .cloned()
            .unwrap_or_else(|| PlayerAction::Engine.key().to_owned());
        // "engine restart", "Schachprogramm neustart": the player's words.
        let lang = Lang::ALL
            .into_iter()
            .find(|l| l.code() == self.phraser.msg_lang())
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
        if self.engine.is_none() {
            let t = self.message("engine_none", &[]);
            self.info(out, t);
            return;
        }
        if purpose.is_some() && self.rated {
            let t = self.message("help_off_rated", &[]);
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
        if let Some(e) = &mut self.engine {
            e.asks.push(ask);
        }
    }

    fn engine_do(&mut self, ask: EngineAsk, now: Instant, out: &mut Vec<Effect>) {
        match ask {
            EngineAsk::Restart => self.engine_start(now, out),
            EngineAsk::Cancel => {
                if let Some(e) = &mut self.engine {
                    e.session.cancel(now);
                }
            }
            EngineAsk::NewGame => {
                if let Some(e) = &mut self.engine {
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
        if let Some(e) = &mut self.engine {
            e.asks.push(EngineAsk::NewGame);
        }
    }

    /// `takeback`: the last move pair (the engine's reply and the player's
    /// move), or the player's move while the engine thinks; without an
    /// engine, the last move.  A board then shows what to put back.
    pub(super) fn take_back(&mut self, out: &mut Vec<Effect>) {
        if self.rated {
            let t = self.message("help_off_rated", &[]);
            self.info(out, t);
            return;
        }
        if self.game.is_over() {
            self.takeback_after_end(out);
            return;
        }
        if let Some(a) = &self.takeback_awaited {
            let t = a.instruction.clone();
            self.say(out, t, Priority::Normal, SayKind::Board);
            return;
        }
        self.take_back_moves(out);
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
        if self.engine.is_some() || by_the_clock_or_the_arbiter || self.game.history().is_empty() {
            let t = self.message("takeback_after_end_refused", &[]);
            self.say(out, t, Priority::Normal, SayKind::Error);
            return;
        }
        let last = self
            .game
            .positions()
            .next_back()
            .map(|(before, played)| self.phraser.say_move(before, played.mv))
            .unwrap_or_default();
        self.question = Some(super::Question::TakebackAfterEnd);
        let t = self.message("takeback_after_end_ask", &[("moves", &last)]);
        self.info(out, t);
    }

    /// Both players agreed to take back after the end: the last move is
    /// taken back, the game goes on, and so does its clock.
    pub(super) fn take_back_agreed(&mut self, out: &mut Vec<Effect>) {
        if !self.game.is_over() || self.rated || self.engine.is_some() {
            return self.take_back(out);
        }
        self.take_back_moves(out);
        if !self.game.is_over()
            && let (Some(part), Some(now)) = (&mut self.clock, self.now)
            && part.clock.is_paused()
            && !part.follows_board()
        {
            let _ = part.clock.resume(now);
        }
    }

    /// Take back the last move (with an engine, the last pair).
    fn take_back_moves(&mut self, out: &mut Vec<Effect>) {
        let plies = match &self.engine {
            Some(_) if self.game.turn() == self.me => 2,
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
            .map(|(before, played)| self.phraser.say_move(before, played.mv))
            .collect();
        taken.reverse();
        if let Some(e) = &mut self.engine {
            e.asks.push(EngineAsk::Cancel);
        }
        // With a board that answers, the moves it shows are taken back on
        // it; moves not made there yet (still awaited), at once.  A board
        // that shows none of these positions is told its mismatch instead.
        let on_board = match self.board.as_ref().filter(|b| b.connected()) {
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
        self.clock_took_back();
        if on_board == 0 {
            self.takeback_awaited = None;
            let t = self.message("taken_back", &[("moves", &taken.join(", "))]);
            self.say(out, t, Priority::Normal, SayKind::Game);
            return;
        }
        // What to take back on the board, the last move first.
        let mut to_undo: Vec<String> = taken.iter().take(on_board).cloned().collect();
        to_undo.reverse();
        let t = self.message("takeback_on_board", &[("moves", &to_undo.join(", "))]);
        self.takeback_awaited = Some(TakebackAwaited {
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
        let Some(awaited) = &self.takeback_awaited else {
            return false;
        };
        let len = self.game.history().len();
        if len > awaited.target {
            return true;
        }
        let moves = awaited.moves.join(", ");
        self.takeback_awaited = None;
        let t = self.message("taken_back", &[("moves", &moves)]);
        self.say(out, t, Priority::Normal, SayKind::Game);
        true
    }

    /// The board is gone while a take-back was awaited there: the moves
    /// are taken back in the game now.
    pub(super) fn takeback_without_board(&mut self, out: &mut Vec<Effect>) {
        let Some(target) = self.takeback_awaited.as_ref().map(|a| a.target) else {
            return;
        };
        while self.game.history().len() > target {
            if self.game.undo_last().is_none() {
                break;
            }
        }
        self.clock_took_back();
        self.board_took_back(out);
    }

    /// A move was played, or the game replaced, while a take-back was
    /// awaited on the board: the take-back is given up.
    pub(super) fn takeback_given_up(&mut self) {
        self.takeback_awaited = None;
    }

    fn on_engine_event(&mut self, event: EngineEvent, now: Instant, out: &mut Vec<Effect>) {
        match event {
            EngineEvent::Ready { name } => {
                let name = name
                    .or_else(|| self.engine.as_ref().and_then(|e| e.setup.program.clone()))
                    .unwrap_or_else(|| crate::engine::DEFAULT_ENGINE.to_owned());
                self.journal_engine_name(!self.me, &name);
                let side = self.phraser.side(self.me);
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
                if let Some(e) = &self.engine {
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
                    if self.game.pending_offer() == Some(self.me) {
                        let engine = !self.me;
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
                        self.offer_declined = true;
                    }
                    // Announced like the opponent's move; a board then
                    // awaits it.
                    self.play(r.best, out);
                    self.sync_board(now, out);
                }
            }
            Purpose::Hint | Purpose::Threat => {
                let mv = self.phraser.say_move(&r.position, r.best);
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
                        let args = phrase.args(|c| self.phraser.side(c));
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
mod tests {
    use std::time::{Duration, Instant};

    use super::*;
    use crate::engine::EngineIo;
    use crate::msg::Msg;

    /// An app playing Black's side... White against a fake engine whose
    /// lines the test types, on a virtual clock.
    struct Rig {
        app: App,
        t0: Instant,
        sent: Vec<String>,
        generation: u64,
    }

    impl Rig {
        fn new(me: Color) -> Rig {
            let mut app = App::builder().me(me).build();
            app.set_engine(EngineSetup {
                program: Some("fake".into()),
                ..EngineSetup::default()
            });
            let mut rig = Rig {
                app,
                t0: Instant::now(),
                sent: Vec::new(),
                generation: 0,
            };
            rig.msg(0, Msg::Start);
            rig
        }

        fn at(&self, ms: u64) -> Instant {
            self.t0 + Duration::from_millis(ms)
        }

        fn msg(&mut self, ms: u64, m: Msg) -> Vec<String> {
            let now = self.at(ms);
            let effects = self.app.update(m, now);
            let mut said = Vec::new();
            for e in effects {
                match e {
                    Effect::Say(u) => said.push(u.text),
                    Effect::Engine(EngineOrder::Start { generation, .. }) => {
                        self.generation = generation;
                    }
                    Effect::Engine(EngineOrder::Send { line, .. }) => self.sent.push(line),
                    _ => {}
                }
            }
            said
        }

        fn engine(&mut self, ms: u64, line: &str) -> Vec<String> {
            let io = EngineIo {
                generation: self.generation,
                event: ProcessEvent::Line(line.into()),
            };
            self.msg(ms, Msg::Engine(io))
        }

        fn typed(&mut self, ms: u64, line: &str) -> Vec<String> {
            self.msg(ms, Msg::Line(line.into()))
        }

        fn sent(&mut self) -> Vec<String> {
            std::mem::take(&mut self.sent)
        }

        fn ready(me: Color) -> Rig {
            let mut r = Rig::new(me);
            r.engine(1, "id name Fake");
            r.engine(1, "uciok");
            let said = r.engine(2, "readyok");
            let side = if me == Color::White { "White" } else { "Black" };
            assert_eq!(said, [format!("Fake is ready; you play {side}.")]);
            r
        }
    }

    #[test]
    fn engines_move_is_announced_as_the_opponents_and_hint_follows() {
        let mut r = Rig::ready(Color::White);
        assert_eq!(r.sent(), ["uci", "ucinewgame", "isready"]);
        assert_eq!(r.typed(10, "hint"), Vec::<String>::new());
        assert_eq!(r.sent(), ["position startpos", "go movetime 500"]);
        assert_eq!(r.engine(500, "bestmove e2e4"), ["Hint: Bauer Eva vier."]);
        assert_eq!(r.typed(600, "c4"), ["Bauer Cesar vier"]);
        assert_eq!(
            r.sent(),
            ["position startpos moves c2c4", "go movetime 1000"]
        );
        assert_eq!(r.engine(1_600, "bestmove e7e5"), ["Bauer Eva fünf"]);
        r.typed(1_700, "hint");
        assert_eq!(
            r.sent(),
            ["position startpos moves c2c4 e7e5", "go movetime 500"]
        );
    }

    fn effects(r: &mut Rig, ms: u64, m: Msg) -> Vec<Effect> {
        let now = r.at(ms);
        r.app.update(m, now)
    }

    /// A rig whose game has a clock of `spec`.
    fn ready_on_clock(me: Color, spec: &str) -> Rig {
        let control = crate::clock::spec::parse(spec).expect("a clock");
        let mut app = App::builder()
            .me(me)
            .clock(Some(super::super::ClockSetup::new(control)))
            .build();
        app.set_engine(EngineSetup {
            program: Some("fake".into()),
            ..EngineSetup::default()
        });
        let mut r = Rig {
            app,
            t0: Instant::now(),
            sent: Vec::new(),
            generation: 0,
        };
        r.msg(0, Msg::Start);
        r.engine(1, "uciok");
        r.engine(2, "readyok");
        r
    }

    #[test]
    fn on_a_running_clock_the_engine_gets_both_times_and_its_move_presses_it() {
        // 5 minutes + 2 seconds; the player (White) thinks 10 s.
        let mut r = ready_on_clock(Color::White, "5+2");
        r.sent();
        r.typed(10_000, "e4");
        // White's clock: 300 s - 10 s + 2 s; Black's untouched.
        assert_eq!(
            r.sent(),
            [
                "position startpos moves e2e4",
                "go wtime 292000 btime 300000 winc 2000 binc 2000"
            ]
        );
        // The engine thinks 3 s: its move presses its clock.
        assert_eq!(r.engine(13_000, "bestmove e7e5"), ["Bauer Eva fünf"]);
        let clock = r.app.clock().expect("a clock");
        assert_eq!(clock.moves(Color::Black), 1);
        assert_eq!(clock.side_to_move(), Some(Color::White));
        assert_eq!(
            clock.remaining(Color::Black, r.at(13_000)),
            Duration::from_secs(299)
        );
        // A hint still thinks for its own time, not on the clock.
        r.typed(14_000, "hint");
        assert_eq!(r.sent().last().map(String::as_str), Some("go movetime 500"));
        r.engine(14_500, "bestmove g1f3");
        r.typed(15_000, "Nf3");
        assert_eq!(
            r.sent(),
            [
                "position startpos moves e2e4 e7e5 g1f3",
                "go wtime 292000 btime 299000 winc 2000 binc 2000"
            ]
        );
        // The hang deadline: the engine's whole time and increment, and
        // the margin.
        assert_eq!(
            r.app.engine_deadline(),
            Some(r.at(15_000 + 301_000 + 3_000))
        );
    }

    #[test]
    fn moves_to_go_counts_to_the_next_time_control() {
        let mut r = ready_on_clock(Color::Black, "40/90+30,30+30");
        let sent = r.sent();
        assert_eq!(
            &sent[sent.len() - 2..],
            [
                "position startpos",
                "go wtime 5400000 btime 5400000 winc 30000 binc 30000 movestogo 40"
            ]
        );
    }

    #[test]
    fn a_paused_clock_gives_the_engine_its_time_per_move() {
        let mut r = ready_on_clock(Color::White, "5+2");
        r.sent();
        r.typed(10, "pause");
        r.typed(20, "e4");
        assert_eq!(
            r.sent(),
            ["position startpos moves e2e4", "go movetime 1000"]
        );
    }

    #[test]
    fn engine_plays_first_when_the_player_is_black() {
        let mut r = Rig::new(Color::Black);
        r.engine(1, "uciok");
        r.engine(2, "readyok");
        let sent = r.sent();
        assert_eq!(
            &sent[sent.len() - 2..],
            ["position startpos", "go movetime 1000"]
        );
        let generation = r.generation;
        let e = effects(
            &mut r,
            900,
            Msg::Engine(EngineIo {
                generation,
                event: ProcessEvent::Line("bestmove d2d4".into()),
            }),
        );
        // Urgent, with the opponent's tone: never cut off.
        assert!(e.iter().any(|x| matches!(x, Effect::Say(u)
            if u.text == "Bauer David vier" && u.priority == Priority::Urgent)));
        assert!(e.contains(&Effect::Tone(crate::audio::Tone::OpponentMove)));
    }

    #[test]
    fn a_move_typed_for_the_engine_while_it_thinks_is_refused() {
        let mut r = Rig::ready(Color::White);
        r.typed(10, "e4");
        assert_eq!(
            r.typed(20, "e5"),
            ["The engine is thinking; wait for its move."]
        );
        // Issue 18: a line that is no move at all is judged first.
        let said = r.typed(25, "xyz");
        assert_eq!(said.len(), 1);
        assert!(!said[0].contains("engine"), "{said:?}");
        assert!(said[0].contains("xyz"), "{said:?}");
        assert_eq!(r.app.game().history().len(), 1);
        assert_eq!(
            r.typed(30, "hint"),
            ["The engine is thinking about its move; ask again after it."]
        );
    }

    #[test]
    fn the_restart_is_named_and_understood_in_the_players_words() {
        for (lang, restart) in [
            (Lang::De, "schachprogramm neustart"),
            (Lang::It, "motore riavvia"),
            (Lang::El, "μηχανή επανεκκίνηση"),
        ] {
            let mut app = App::builder().me(Color::White).lang(lang).build();
            app.set_engine(EngineSetup {
                program: Some("fake".into()),
                ..EngineSetup::default()
            });
            let mut r = Rig {
                app,
                t0: Instant::now(),
                sent: Vec::new(),
                generation: 0,
            };
            r.msg(0, Msg::Start);
            r.engine(1, "uciok");
            r.engine(2, "readyok");
            r.typed(10, "e4");
            let generation = r.generation;
            let said = r.msg(
                20,
                Msg::Engine(EngineIo {
                    generation,
                    event: ProcessEvent::Exited(None),
                }),
            );
            assert!(said[0].ends_with(&format!("{restart}.")), "{said:?}");
            let old = r.generation;
            r.typed(30, restart);
            assert_eq!(r.generation, old + 1, "{restart}");
        }
    }

    #[test]
    fn fault_is_said_once_the_engine_killed_and_the_keyboard_plays_on() {
        let mut r = Rig::ready(Color::White);
        r.typed(10, "e4");
        let generation = r.generation;
        let e = effects(
            &mut r,
            20,
            Msg::Engine(EngineIo {
                generation,
                event: ProcessEvent::Exited(None),
            }),
        );
        let said: Vec<&str> = e
            .iter()
            .filter_map(|x| match x {
                Effect::Say(u) => Some(u.text.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(
            said,
            [
                "The engine stopped working. The game is as it was: play on at the keyboard, or say engine restart."
            ]
        );
        assert!(e.contains(&Effect::Engine(EngineOrder::Kill {
            generation: r.generation
        })));
        // Late lines of the dead engine and its exit again: nothing.
        assert!(r.engine(30, "bestmove e7e5").is_empty());
        // Black's move at the keyboard.
        assert_eq!(r.typed(40, "e5"), ["Bauer Eva fünf"]);
        // Restart: a new generation; the old one's lines are ignored.
        let old = r.generation;
        assert_eq!(
            r.typed(50, "engine restart"),
            ["Starting the engine again."]
        );
        assert_eq!(r.generation, old + 1);
        assert!(r.sent().ends_with(&["uci".to_owned()]));
        let stale = EngineIo {
            generation: old,
            event: ProcessEvent::Line("uciok".into()),
        };
        assert!(r.msg(60, Msg::Engine(stale)).is_empty());
        r.engine(70, "id name Fake");
        r.engine(70, "uciok");
        assert_eq!(r.engine(80, "readyok"), ["Fake is ready; you play White."]);
    }

    /// Issue 18: a draw offer to the engine was never answered.
    #[test]
    fn a_draw_offer_is_answered_by_the_engines_evaluation() {
        let mut r = Rig::ready(Color::White);
        r.typed(10, "e4");
        r.engine(900, "bestmove e7e5");
        r.typed(1_000, "Nf3");
        assert_eq!(r.typed(1_010, "draw"), ["White offers a draw."]);
        // Black sees itself about equal: declines, and moves.
        r.engine(1_500, "info depth 12 score cp -20 pv b8c6");
        assert_eq!(
            r.engine(1_900, "bestmove b8c6"),
            ["Black declines the draw.", "Springer Cesar sechs"]
        );
        assert_eq!(r.app.game().pending_offer(), None);
        r.typed(2_000, "Bc4");
        r.typed(2_010, "draw");
        // Black worse by most of a pawn (the engine scores from its side).
        r.engine(2_500, "info depth 12 score cp -90 pv g8f6");
        assert_eq!(
            r.engine(2_900, "bestmove g8f6"),
            ["Draw accepted.", "Draw by agreement, 1/2-1/2."]
        );
        assert!(r.app.game().is_over());
        assert_eq!(r.app.game().history().len(), 5, "no move after the draw");
    }

    /// Issue 18: the engine's name was not recorded as its player's name.
    #[test]
    fn the_engines_name_is_its_players_name_on_the_scoresheet() {
        use crate::scoresheet::StartInfo;
        for (given, expected) in [("", "Fake"), ("Deep Thought", "Deep Thought")] {
            let mut r = Rig::new(Color::White);
            r.app.enable_journal(StartInfo {
                white: "Anna".into(),
                black: given.into(),
                ..StartInfo::default()
            });
            r.engine(1, "id name Fake");
            r.engine(1, "uciok");
            r.engine(2, "readyok");
            r.typed(10, "e4");
            let rec = r.app.scoresheet_in_memory().expect("begun");
            assert_eq!(
                (rec.start.white.as_str(), rec.start.black.as_str()),
                ("Anna", expected)
            );
        }
    }

    /// Issue 18: a silent engine (`/bin/cat`) gave 10 s of silence.
    #[test]
    fn a_silent_engine_is_said_to_be_waited_for_after_two_seconds() {
        let mut r = Rig::new(Color::White);
        assert!(r.msg(1_999, Msg::Deadline).is_empty());
        assert_eq!(r.msg(2_000, Msg::Deadline), ["Waiting for the engine."]);
        // Once; then the hang at its own deadline.
        assert!(r.msg(5_000, Msg::Deadline).is_empty());
        assert_eq!(r.app.next_deadline(), Some(r.at(10_000)));
        let said = r.msg(10_000, Msg::Deadline);
        assert!(
            said[0].starts_with("The engine does not answer."),
            "{said:?}"
        );
    }

    #[test]
    fn hang_is_found_by_the_deadline_message() {
        let mut r = Rig::ready(Color::White);
        r.typed(10, "e4");
        // 1 s to think and 3 s of margin.
        assert_eq!(r.app.next_deadline(), Some(r.at(4_010)));
        assert!(r.msg(4_009, Msg::Deadline).is_empty());
        assert_eq!(
            r.msg(4_010, Msg::Deadline),
            [
                "The engine does not answer. The game is as it was: play on at the keyboard, or say engine restart."
            ]
        );
        assert_eq!(r.app.next_deadline(), None);
    }

    #[test]
    fn takeback_of_the_pair_and_a_stale_answer_is_dropped() {
        let mut r = Rig::ready(Color::White);
        r.typed(10, "e4");
        r.engine(900, "bestmove e7e5");
        r.typed(1_000, "d4");
        r.sent();
        // Taken back while the engine thinks: the player's move only, and
        // the search is stopped.
        assert_eq!(
            r.typed(1_100, "takeback"),
            ["Taken back: Bauer David vier."]
        );
        assert_eq!(r.sent(), ["stop"]);
        assert!(
            r.engine(1_150, "bestmove d7d5").is_empty(),
            "stale: not played"
        );
        assert_eq!(r.app.game().history().len(), 2);
        // On the player's move: the pair.
        assert_eq!(
            r.typed(1_200, "takeback"),
            ["Taken back: Bauer Eva vier, Bauer Eva fünf."]
        );
        assert_eq!(r.app.game().history().len(), 0);
        assert_eq!(
            r.typed(1_300, "takeback"),
            ["There is no move to take back."]
        );
    }

    fn said_of(e: Vec<Effect>) -> Vec<String> {
        e.into_iter()
            .filter_map(|x| match x {
                Effect::Say(u) => Some(u.text),
                _ => None,
            })
            .collect()
    }

    fn typed_in(a: &mut App, now: Instant, line: &str) -> Vec<String> {
        said_of(a.update(Msg::Line(line.into()), now))
    }

    /// Issue 18, item 9: `takeback` undid a resignation, and a mate, at
    /// once.  A finished game stays finished: in a two-player game both
    /// players may agree to reopen it; against the engine, never; in a
    /// rated game, never.
    #[test]
    fn a_finished_game_stays_finished() {
        let now = Instant::now();
        let mut a = App::builder().build();
        for l in ["e4", "e5"] {
            typed_in(&mut a, now, l);
        }
        assert_eq!(
            typed_in(&mut a, now, "resign"),
            ["White resigns. Black wins, 0-1."]
        );
        assert_eq!(
            typed_in(&mut a, now, "takeback"),
            [
                "The game is over. Taking back Bauer Eva fünf reopens it only if both players agree. \
              Say yes if you both agree, or no."
            ]
        );
        assert_eq!(typed_in(&mut a, now, "no"), ["The result stands."]);
        assert!(a.game().is_over());
        // Any other line leaves the question: still over.
        typed_in(&mut a, now, "takeback");
        typed_in(&mut a, now, "turn");
        assert!(a.game().is_over());
        typed_in(&mut a, now, "takeback");
        assert_eq!(
            typed_in(&mut a, now, "yes"),
            ["Taken back: Bauer Eva fünf."]
        );
        assert!(!a.game().is_over());
        assert_eq!(a.game().history().len(), 1);

        // Fool's mate against the engine: refused.
        let mut r = Rig::ready(Color::Black);
        r.engine(100, "bestmove f2f3");
        r.typed(200, "e5");
        r.engine(300, "bestmove g2g4");
        r.typed(400, "Qh4");
        assert!(r.app.game().is_over());
        assert_eq!(
            r.typed(500, "takeback"),
            ["The game is over, and a finished game is not taken back. Say new for a new game."]
        );
        // No question waits: yes is a draw acceptance, and the game is over.
        assert_eq!(
            r.typed(600, "yes"),
            ["Game over: Black won by checkmate, 0-1. Say new for a new game."]
        );
        assert!(r.app.game().is_over());

        // Rated: refused.
        let mut a = App::builder().build();
        a.set_rated(true);
        typed_in(&mut a, now, "e4");
        typed_in(&mut a, now, "resign");
        assert_eq!(typed_in(&mut a, now, "takeback"), ["Not in a rated game."]);
        assert!(a.game().is_over());
    }

    /// A flag fall is not the players' to undo: refused, even with both
    /// players at one keyboard; an agreed take-back after a resignation
    /// lets the clock run again.
    #[test]
    fn a_flag_fall_is_never_taken_back_and_an_agreed_takeback_restarts_the_clock() {
        let setup = super::super::ClockSetup::new(crate::clock::spec::parse("0:10+0").unwrap());
        let mut a = App::builder().clock(Some(setup.clone())).build();
        let t0 = Instant::now();
        a.update(Msg::Start, t0);
        typed_in(&mut a, t0 + Duration::from_secs(1), "e4");
        a.update(Msg::Deadline, t0 + Duration::from_secs(12));
        assert!(a.game().is_over());
        assert_eq!(
            typed_in(&mut a, t0 + Duration::from_secs(13), "takeback"),
            ["The game is over, and a finished game is not taken back. Say new for a new game."]
        );
        let mut a = App::builder().clock(Some(setup)).build();
        a.update(Msg::Start, t0);
        typed_in(&mut a, t0 + Duration::from_secs(1), "e4");
        typed_in(&mut a, t0 + Duration::from_secs(2), "resign");
        typed_in(&mut a, t0 + Duration::from_secs(3), "takeback");
        typed_in(&mut a, t0 + Duration::from_secs(3), "yes");
        let c = a.clock().expect("a clock");
        assert!(c.is_running());
        assert_eq!(c.side_to_move(), Some(Color::White));
    }

    #[test]
    fn eval_and_threat_in_words() {
        let mut r = Rig::ready(Color::White);
        r.typed(10, "eval");
        r.engine(20, "info depth 10 score cp 112 pv e2e4");
        assert_eq!(
            r.engine(500, "bestmove e2e4"),
            ["White is better by about a pawn."]
        );
        r.typed(600, "threat");
        assert_eq!(r.sent().last().map(String::as_str), Some("go movetime 500"));
        assert_eq!(
            r.engine(1_100, "bestmove e7e5"),
            ["The threat: Bauer Eva fünf."]
        );
        r.typed(1_200, "e4");
        r.engine(2_000, "bestmove d8h4");
    }

    #[test]
    fn rated_and_no_engine() {
        let mut r = Rig::ready(Color::White);
        r.app.set_rated(true);
        assert_eq!(r.typed(10, "hint"), ["Not in a rated game."]);
        assert_eq!(r.typed(10, "takeback"), ["Not in a rated game."]);
        let mut plain = App::builder().build();
        let said = |e: Vec<Effect>| -> Vec<String> {
            e.into_iter()
                .filter_map(|x| match x {
                    Effect::Say(u) => Some(u.text),
                    _ => None,
                })
                .collect()
        };
        let now = Instant::now();
        assert_eq!(
            said(plain.update(Msg::Line("eval".into()), now)),
            ["There is no engine in this game."]
        );
        plain.update(Msg::Line("e4".into()), now);
        assert_eq!(
            said(plain.update(Msg::Line("takeback".into()), now)),
            ["Taken back: Bauer Eva vier."]
        );
    }

    #[test]
    fn end_of_input_waits_for_the_engines_move() {
        let mut r = Rig::ready(Color::White);
        r.typed(10, "e4");
        let e = effects(&mut r, 20, Msg::EndOfInput);
        assert!(!e.contains(&Effect::Quit));
        let generation = r.generation;
        let e = effects(
            &mut r,
            900,
            Msg::Engine(EngineIo {
                generation,
                event: ProcessEvent::Line("bestmove e7e5".into()),
            }),
        );
        assert!(
            e.iter()
                .any(|x| matches!(x, Effect::Say(u) if u.text == "Bauer Eva fünf"))
        );
        assert_eq!(e.last(), Some(&Effect::Quit));
    }

    /// A ready rig with a DGT board attached and answering; e4 made on
    /// it, e5 the engine's answer (awaited on the board).
    fn board_rig() -> (Rig, crate::board::sim::SimBoard) {
        use crate::board::sim::SimBoard;
        use crate::board::{BoardSession, LinkEvent, Protocol, TrackerConfig};
        use shakmaty::{Board, Chess, Square};
        let mut r = Rig::ready(Color::White);
        let config = TrackerConfig {
            detect_rotation: false,
            ..TrackerConfig::default()
        };
        r.app.attach_board(BoardSession::new(
            Protocol::Dgt,
            config,
            &Chess::default(),
            false,
        ));
        let mut sim = SimBoard::new(Protocol::Dgt, Board::new());
        r.msg(3, Msg::Board(LinkEvent::Connected));
        r.msg(3, Msg::Board(LinkEvent::Bytes(sim.dump())));
        let start = Chess::default();
        let e4 = start
            .legal_moves()
            .into_iter()
            .find(|m| m.to() == Square::E4)
            .expect("e4");
        let mut said = Vec::new();
        for bytes in sim.play(&start, e4, false) {
            said.extend(r.msg(10, Msg::Board(LinkEvent::Bytes(bytes))));
        }
        assert_eq!(said, ["Bauer Eva vier"]);
        assert_eq!(
            r.engine(900, "bestmove e7e5"),
            [
                "Bauer Eva fünf",
                "On your board: black Bauer from Eva sieben to Eva fünf."
            ]
        );
        (r, sim)
    }

    /// e5 made on the board of a [`board_rig`].
    fn make_e5(r: &mut Rig, sim: &mut crate::board::sim::SimBoard) {
        use crate::board::LinkEvent;
        use crate::board::sim::HandStep;
        use shakmaty::Square;
        let mut said = r.msg(
            950,
            Msg::Board(LinkEvent::Bytes(sim.act(HandStep::Lift(Square::E7)))),
        );
        said.extend(r.msg(
            960,
            Msg::Board(LinkEvent::Bytes(
                sim.act(HandStep::Place(Square::E5, Color::Black.pawn())),
            )),
        ));
        assert_eq!(said, ["Done: Bauer Eva fünf."]);
    }

    #[test]
    fn moves_never_made_on_the_board_are_taken_back_at_once() {
        use crate::board::sim::SimBoard;
        use crate::board::{BoardSession, LinkEvent, Protocol, TrackerConfig};
        use shakmaty::{Board, Chess};
        let mut r = Rig::ready(Color::White);
        r.app.attach_board(BoardSession::new(
            Protocol::Dgt,
            TrackerConfig::default(),
            &Chess::default(),
            false,
        ));
        let sim = SimBoard::new(Protocol::Dgt, Board::new());
        r.msg(3, Msg::Board(LinkEvent::Connected));
        r.msg(3, Msg::Board(LinkEvent::Bytes(sim.dump())));
        // e4 typed, e5 the engine's: neither made on the board.
        r.typed(10, "e4");
        r.engine(900, "bestmove e7e5");
        // Both awaited on the board in order, no mismatch said (issue 18):
        // nothing to resolve when they are taken back.
        assert_eq!(
            r.typed(1_000, "takeback"),
            ["Taken back: Bauer Eva vier, Bauer Eva fünf."]
        );
        assert_eq!(r.app.game().history().len(), 0);
    }

    #[test]
    fn a_takeback_awaited_on_a_board_that_goes_away_is_made_in_the_game() {
        use crate::board::{LinkEvent, PortError};
        let (mut r, mut sim) = board_rig();
        make_e5(&mut r, &mut sim);
        assert_eq!(
            r.typed(1_000, "takeback"),
            ["On your board, take back: Bauer Eva fünf, Bauer Eva vier."]
        );
        assert_eq!(r.app.game().history().len(), 2);
        let said = r.msg(1_100, Msg::Board(LinkEvent::Disconnected(PortError::Gone)));
        assert_eq!(
            said,
            [
                "Board disconnected. Play on with the keyboard.",
                "Taken back: Bauer Eva vier, Bauer Eva fünf."
            ]
        );
        assert_eq!(r.app.game().history().len(), 0);
    }

    #[test]
    fn a_new_game_gives_up_an_awaited_takeback() {
        let (mut r, mut sim) = board_rig();
        make_e5(&mut r, &mut sim);
        r.typed(1_000, "takeback");
        // (The board still shows the old game: a mismatch follows.)
        let said = r.typed(1_100, "new");
        assert_eq!(
            said.first().map(String::as_str),
            Some("New game. White to move.")
        );
        r.engine(1_150, "readyok");
        // Nothing of the old take-back is left.
        assert_eq!(
            r.typed(1_160, "takeback"),
            ["There is no move to take back."]
        );
        // The engine is not held back by the old take-back: as White's
        // opponent it waits for the player's move, and then answers.
        r.sent();
        r.typed(1_200, "d4");
        assert!(
            r.sent().iter().any(|l| l.starts_with("go ")),
            "the engine thinks again"
        );
    }

    #[test]
    fn takeback_with_the_engines_move_not_yet_on_the_board() {
        use crate::board::LinkEvent;
        use crate::board::sim::HandStep;
        use shakmaty::Square;
        let (mut r, mut sim) = board_rig();
        // Taken back before e5 was made on the board: e5 at once, e4 on
        // the board.
        r.sent();
        assert_eq!(
            r.typed(1_000, "takeback"),
            ["On your board, take back: Bauer Eva vier."]
        );
        assert_eq!(r.app.game().history().len(), 1);
        assert!(r.sent().iter().all(|l| !l.starts_with("go")));
        let mut said = r.msg(
            1_100,
            Msg::Board(LinkEvent::Bytes(sim.act(HandStep::Lift(Square::E4)))),
        );
        said.extend(r.msg(
            1_200,
            Msg::Board(LinkEvent::Bytes(
                sim.act(HandStep::Place(Square::E2, Color::White.pawn())),
            )),
        ));
        assert_eq!(said, ["Taken back: Bauer Eva vier, Bauer Eva fünf."]);
        assert_eq!(r.app.game().history().len(), 0);
        // The player's move again, typed this time.
        assert_eq!(
            r.typed(1_300, "d4"),
            [
                "Bauer David vier",
                "On your board: white Bauer from David zwei to David vier."
            ]
        );
        assert_eq!(
            r.sent(),
            ["position startpos moves d2d4", "go movetime 1000"]
        );
    }
}
