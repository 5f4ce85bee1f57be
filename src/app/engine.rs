//! Playing against a UCI engine: the engine's moves (announced like an
//! opponent's, then awaited on the player's board), hints, evaluations,
//! threats, faults said once, and restarts.
//!
//! The engine's process belongs to the front end; the part drives the
//! [`EngineSession`] and asks for the process through
//! [`EngineOrder`]s.  Each start of the engine has a generation: lines of
//! an engine that was restarted are not mistaken for the new one's.
//!
//! The shape of the part: [`EnginePlay`] keeps its state to itself and
//! decides alone, from the game (and the clock) it is shown; each of its
//! methods returns [`EngineNote`]s, which [`App`] turns into effects.  An
//! order for the process is a note passed on as an effect unchanged; what
//! needs the player's words (the engine is ready, a fault, an answer) or
//! changes the game (the engine's move, a draw accepted) is a note the App
//! words or plays.  Notes, not `Vec<Effect>`, because the engine's move
//! changes the game and wakes other parts (the clock, the boards, the
//! journal), which only the App may do; as with the clock's
//! [`ClockNote`](super::clock::ClockNote).

use crate::words::Lang;
use crate::words::arguments::{self, Arg};
use std::time::{Duration, Instant};

use shakmaty::{Color, Position};

use super::App;
use crate::action::PlayerAction;
use crate::clock::Clock;
use crate::engine::{
    EngineEvent, EngineIo, EngineSession, EngineSettings, Limit, ProcessEvent, Purpose,
    SearchError, SearchRequest, SearchResult, Timeouts,
};
use crate::game::Game;
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

/// Why a search was not started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SearchTrouble {
    /// The threat was asked while the side to move is in check.
    InCheck,
    /// The session refused it.
    Engine(SearchError),
}

/// What the engine part reports: the App passes orders on, words the
/// rest, and plays the engine's move.
#[derive(Debug, Clone)]
pub(super) enum EngineNote {
    /// For the engine's process: passed on as [`Effect::Engine`].
    Order(EngineOrder),
    /// The engine is ready; its name (its own, else the program's).
    Ready(String),
    /// About an option (not offered, adjusted): a phrase, said once.
    Notice {
        key: &'static str,
        args: Vec<(&'static str, String)>,
    },
    /// The engine has not finished its handshake: it is still waited for.
    Waiting,
    /// The engine failed (a phrase); its process is killed (an order
    /// follows).
    Fault {
        key: &'static str,
        args: Vec<(&'static str, String)>,
    },
    /// An answer about the game as it is now (answers about a position
    /// that is gone are dropped by the part).
    Answer(SearchResult),
    /// A search the player asked for could not be made.
    Refused(SearchTrouble),
    /// A search was asked in a game that is over.
    GameOver,
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

    /// When the engine session next wants a look (its time-outs).
    pub(super) fn next_deadline(&self) -> Option<Instant> {
        self.session.next_deadline()
    }

    /// The engine is alive, and `me`'s opponent is to move in `game`, which
    /// goes on; `held`: the game is not to be played on yet (a take-back
    /// awaited on the board, a resume question).
    pub(super) fn has_the_move(&self, game: &Game, me: Color, held: bool) -> bool {
        !self.session.is_over() && game.turn() != me && !game.is_over() && !held
    }

    /// Something asked by a command, carried out at the end of the update
    /// ([`EnginePlay::carry_out`]).
    pub(super) fn ask(&mut self, ask: EngineAsk) {
        self.asks.push(ask);
    }

    /// Its move was taken back: the search for it is stopped (at the end
    /// of the update).
    pub(super) fn cancel_search(&mut self) {
        self.asks.push(EngineAsk::Cancel);
    }

    /// The input ended while the engine has the move: quit after it.
    pub(super) fn quit_after_its_move(&mut self) {
        self.quit_after_move = true;
    }

    /// Whether to quit now: the input ended and the engine's move is made.
    #[must_use]
    pub(super) fn quit_due(&self, has_the_move: bool) -> bool {
        self.quit_after_move && !has_the_move
    }

    /// Start the engine, or start it again: a new generation.
    #[must_use]
    pub(super) fn start(&mut self, now: Instant) -> EngineNote {
        self.generation += 1;
        self.session = EngineSession::new(self.setup.settings.clone(), self.setup.timeouts);
        self.session.start(now);
        EngineNote::Order(EngineOrder::Start {
            generation: self.generation,
            program: self.setup.program.clone(),
        })
    }

    /// What the engine's process reported (another generation's lines are
    /// dropped).  What follows comes out of [`EnginePlay::poll`].
    pub(super) fn handle_io(&mut self, io: EngineIo, now: Instant) {
        if io.generation != self.generation {
            return;
        }
        match io.event {
            ProcessEvent::Line(line) => self.session.handle_line(&line, now),
            ProcessEvent::Exited(exit) => self.session.handle_exit(exit),
            ProcessEvent::StartFailed(fault) => self.session.fail(fault),
        }
    }

    /// Time passed: a hang is found here.
    pub(super) fn handle_time(&mut self, now: Instant) {
        self.session.handle_timeout(now);
    }

    /// The asks of this update, carried out in `game`, on its clock.
    #[must_use]
    pub(super) fn carry_out(
        &mut self,
        game: &Game,
        clock: Option<&Clock>,
        now: Instant,
    ) -> Vec<EngineNote> {
        let mut notes = Vec::new();
        for ask in std::mem::take(&mut self.asks) {
            match ask {
                EngineAsk::Restart => notes.push(self.start(now)),
                EngineAsk::Cancel => self.session.cancel(now),
                EngineAsk::NewGame => self.session.new_game(now),
                EngineAsk::Search(_) if game.is_over() => notes.push(EngineNote::GameOver),
                EngineAsk::Search(purpose) => {
                    if let Err(trouble) = self.search(purpose, game, clock, now) {
                        notes.push(EngineNote::Refused(trouble));
                    }
                }
            }
        }
        notes
    }

    /// The lines to send, and the next event of the session as a note:
    /// empty when there is nothing more.  An answer about a position that
    /// is no longer `game`'s is passed over.
    #[must_use]
    pub(super) fn poll(&mut self, game: &Game) -> Vec<EngineNote> {
        let generation = self.generation;
        let mut notes: Vec<EngineNote> = std::iter::from_fn(|| self.session.poll_transmit())
            .map(|line| EngineNote::Order(EngineOrder::Send { generation, line }))
            .collect();
        while let Some(event) = self.session.poll_event() {
            let note = match event {
                EngineEvent::Ready { name } => EngineNote::Ready(
                    name.or_else(|| self.setup.program.clone())
                        .unwrap_or_else(|| crate::engine::DEFAULT_ENGINE.to_owned()),
                ),
                EngineEvent::Note(note) => {
                    let (key, args) = note.phrase();
                    EngineNote::Notice { key, args }
                }
                EngineEvent::Silent => EngineNote::Waiting,
                EngineEvent::Fault(fault) => {
                    let (key, args) = fault.phrase();
                    notes.push(EngineNote::Fault { key, args });
                    EngineNote::Order(EngineOrder::Kill { generation })
                }
                EngineEvent::BestMove(r) if !answers(&r, game) => continue,
                EngineEvent::BestMove(r) => EngineNote::Answer(r),
            };
            notes.push(note);
            break;
        }
        notes
    }

    /// Ask for the engine's move when `has_the_move` and it is not
    /// thinking about it already.
    pub(super) fn ask_move(
        &mut self,
        game: &Game,
        has_the_move: bool,
        clock: Option<&Clock>,
        now: Instant,
    ) {
        if !has_the_move || self.session.thinking_about_move() {
            return;
        }
        // Refused only for a game with no move left (over).
        let _ = self.search(Purpose::Move, game, clock, now);
    }

    /// The limit of the engine's own move: on the clock while one runs
    /// (`go wtime btime winc binc movestogo`), else its time per move.
    fn move_limit(&self, game: &Game, clock: Option<&Clock>, now: Instant) -> Limit {
        let Some(clock) = clock.filter(|c| c.is_running()) else {
            return Limit::MoveTime(self.setup.move_time);
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
        let made = clock.moves(game.turn());
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
        Limit::Clock {
            white: clock.remaining(Color::White, now),
            black: clock.remaining(Color::Black, now),
            white_inc: inc(Color::White),
            black_inc: inc(Color::Black),
            moves_to_go,
        }
    }

    /// Ask the engine to search `game` now: for its own move (on the
    /// clock or its time per move) or for a hint, an evaluation or the
    /// threat (its help time).
    fn search(
        &mut self,
        purpose: Purpose,
        game: &Game,
        clock: Option<&Clock>,
        now: Instant,
    ) -> Result<(), SearchTrouble> {
        let limit = match purpose {
            Purpose::Move => self.move_limit(game, clock, now),
            _ => Limit::MoveTime(self.setup.help_time),
        };
        let req = if purpose == Purpose::Threat {
            // The threat of a side in check is the check.
            SearchRequest::threat(game.position(), game.castling_mode(), limit)
                .ok_or(SearchTrouble::InCheck)?
        } else {
            SearchRequest {
                purpose,
                start: game.start().clone(),
                mode: game.castling_mode(),
                moves: game.history().iter().map(|p| p.mv).collect(),
                limit,
            }
        };
        self.session
            .search(req, now)
            .map(|_| ())
            .map_err(SearchTrouble::Engine)
    }
}

/// Whether an answer is about `game` as it is now (not a position taken
/// back or of another game).  A threat is searched with the other side
/// to move.
fn answers(r: &SearchResult, game: &Game) -> bool {
    let pos = game.position();
    match r.purpose {
        Purpose::Threat => r.position.board() == pos.board() && r.position.turn() != pos.turn(),
        _ => &r.position == pos,
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
        // The start record, when not written yet, says the mode.
        self.journal_start_with(|s| {
            s.set_mode(if rated {
                crate::scoresheet::record::GameMode::Rated
            } else {
                crate::scoresheet::record::GameMode::Casual
            });
        });
    }

    /// The side the engine plays, when there is one.
    pub fn engine_side(&self) -> Option<Color> {
        self.parts.engine.as_ref().map(|_| !self.settings.me)
    }

    /// The engine is alive and it is its move: not while a take-back is
    /// being made on the board, nor while the player is asked whether to
    /// resume a game (the game to play is not known yet).
    pub(super) fn engine_has_the_move(&self) -> bool {
        let held = self.parts.boards.takeback_awaited.is_some() || self.asking_resume();
        self.parts
            .engine
            .as_ref()
            .is_some_and(|e| e.has_the_move(&self.game, self.settings.me, held))
    }

    /// The input ended: quit now, or after the engine's move.
    pub(super) fn engine_defers_quit(&mut self) -> bool {
        if self.engine_has_the_move()
            && let Some(e) = &mut self.parts.engine
        {
            e.quit_after_its_move();
            return true;
        }
        false
    }

    /// Start the engine, or start it again.
    pub(super) fn engine_start(&mut self, now: Instant, out: &mut Vec<Effect>) {
        if let Some(e) = &mut self.parts.engine {
            let note = e.start(now);
            self.on_engine_notes(vec![note], now, out);
        }
    }

    /// After every message: commands carried out, the engine's turn asked
    /// for, its lines sent, its events said.
    pub(super) fn engine_step(&mut self, now: Instant, out: &mut Vec<Effect>) {
        let clock = self
            .parts
            .clock
            .as_ref()
            .map(super::clock::ClockPart::clock);
        let notes = match &mut self.parts.engine {
            Some(e) => e.carry_out(&self.game, clock, now),
            None => return,
        };
        self.on_engine_notes(notes, now, out);
        // The events first: a `bestmove` just read is the engine's move,
        // played before the turn is looked at.
        let mut asked = false;
        loop {
            let Some(e) = &mut self.parts.engine else {
                return;
            };
            let notes = e.poll(&self.game);
            let event = notes.iter().any(|n| !matches!(n, EngineNote::Order(_)));
            self.on_engine_notes(notes, now, out);
            if event {
                continue;
            }
            if asked {
                break;
            }
            asked = true;
            let has_the_move = self.engine_has_the_move();
            let clock = self
                .parts
                .clock
                .as_ref()
                .map(super::clock::ClockPart::clock);
            if let Some(e) = &mut self.parts.engine {
                e.ask_move(&self.game, has_the_move, clock, now);
            }
        }
        let has_the_move = self.engine_has_the_move();
        if self
            .parts
            .engine
            .as_ref()
            .is_some_and(|e| e.quit_due(has_the_move))
            && !self.quitting
        {
            self.quitting = true;
            out.push(Effect::Quit);
        }
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
            e.ask(ask);
        }
    }

    /// `new`: the engine starts a new game too.
    pub(super) fn engine_new_game(&mut self) {
        if let Some(e) = &mut self.parts.engine {
            e.ask(EngineAsk::NewGame);
        }
    }

    /// The engine part's notes: orders passed on, the rest said or played.
    fn on_engine_notes(&mut self, notes: Vec<EngineNote>, now: Instant, out: &mut Vec<Effect>) {
        for note in notes {
            match note {
                EngineNote::Order(order) => out.push(Effect::Engine(order)),
                EngineNote::Ready(name) => {
                    self.journal_engine_name(!self.settings.me, &name);
                    let side = self.talk.phraser.side(self.settings.me);
                    let t = self.message("engine_ready", &[("name", &name), ("side", &side)]);
                    self.say(out, t, Priority::Normal, SayKind::Info);
                }
                EngineNote::Notice { key, args } => {
                    let args: Vec<(&str, &str)> =
                        args.iter().map(|(k, v)| (*k, v.as_str())).collect();
                    let t = self.message(key, &args);
                    self.say(out, t, Priority::Normal, SayKind::Info);
                }
                EngineNote::Waiting => {
                    let t = self.message("engine_waiting", &[]);
                    self.info(out, t);
                }
                EngineNote::Fault { key, mut args } => {
                    args.push(("restart", self.restart_word()));
                    let args: Vec<(&str, &str)> =
                        args.iter().map(|(k, v)| (*k, v.as_str())).collect();
                    let t = self.message(key, &args);
                    self.say(out, t, Priority::Urgent, SayKind::Error);
                }
                EngineNote::Answer(r) => self.on_engine_answer(r, now, out),
                EngineNote::GameOver => {
                    if let Some(t) = self.game_is_over() {
                        self.info(out, t);
                    }
                }
                EngineNote::Refused(SearchTrouble::InCheck) => {
                    let t = self.message("engine_in_check", &[]);
                    self.info(out, t);
                }
                EngineNote::Refused(SearchTrouble::Engine(e)) => {
                    let key = match e {
                        SearchError::Busy => "engine_busy",
                        SearchError::Failed => "engine_off",
                        SearchError::NotLegal | SearchError::NoMoves => "engine_no_answer",
                    };
                    let restart = self.restart_word();
                    let t = self.message(key, &[("restart", &restart)]);
                    self.info(out, t);
                }
            }
        }
    }

    /// An answer about the game as it is: the engine's move played (or the
    /// player's draw offer answered), a hint, threat or evaluation said.
    fn on_engine_answer(&mut self, r: SearchResult, now: Instant, out: &mut Vec<Effect>) {
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
                        self.parts.offers.declined_in_words();
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
