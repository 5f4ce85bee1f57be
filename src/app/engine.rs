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
//! methods returns [`EngineNote`]s: what is words only it says itself
//! ([`say`]), the rest the App acts on (`app/notes.rs`).  An
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

use super::voice::Voice;
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

impl EnginePlay {
    /// `hint`, `eval`, `threat`, `engine`: asked for now, done at the end
    /// of the update (`engine`: a restart, said).
    pub(super) fn action(&mut self, action: PlayerAction, v: &mut Voice<'_>) {
        let ask = match action {
            PlayerAction::Hint => EngineAsk::Search(Purpose::Hint),
            PlayerAction::Eval => EngineAsk::Search(Purpose::Eval),
            PlayerAction::Threat => EngineAsk::Search(Purpose::Threat),
            _ => {
                let t = v.text("engine_restarting", &[]);
                v.info(t);
                EngineAsk::Restart
            }
        };
        self.ask(ask);
    }
}

/// The words that start the engine again, for the sentences that say so:
/// "engine restart", "Schachprogramm neustart".
fn restart_words(v: &Voice<'_>) -> String {
    let word = v.talk().word(PlayerAction::Engine);
    let lang = Lang::ALL
        .into_iter()
        .find(|l| l.code() == v.phraser().msg_lang())
        .unwrap_or_default();
    format!("{word} {}", arguments::word_of(lang, Arg::Restart))
}

/// The engine's answer to the player's draw offer standing in `game`,
/// by the evaluation of its search (`score`, from White's side): accepted
/// when the engine is worse, else declined (its move then made); `None`
/// when the player offers no draw.
pub(super) fn answers_offer(
    score: Option<crate::engine::Score>,
    game: &Game,
    me: Color,
) -> Option<bool> {
    (game.pending_offer() == Some(me)).then(|| score.is_some_and(|s| s.accepts_draw(!me)))
}

/// A note of the engine part that is words only, said (an order passed
/// on as its effect); the others (the engine ready, its move, a search in
/// a game over) are given back for the App.
#[must_use]
pub(super) fn say(note: EngineNote, v: &mut Voice<'_>) -> Option<EngineNote> {
    let args_of =
        |args: &[(&'static str, String)]| -> Vec<(&'static str, String)> { args.to_vec() };
    match note {
        EngineNote::Order(order) => v.effect(Effect::Engine(order)),
        EngineNote::Notice { key, args } => {
            let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
            v.say_key(key, &args, Priority::Normal, SayKind::Info);
        }
        EngineNote::Waiting => {
            let t = v.text("engine_waiting", &[]);
            v.info(t);
        }
        EngineNote::Fault { key, args } => {
            let mut args = args_of(&args);
            args.push(("restart", restart_words(v)));
            let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
            v.say_key(key, &args, Priority::Urgent, SayKind::Error);
        }
        EngineNote::Refused(SearchTrouble::InCheck) => {
            let t = v.text("engine_in_check", &[]);
            v.info(t);
        }
        EngineNote::Refused(SearchTrouble::Engine(e)) => {
            let key = match e {
                SearchError::Busy => "engine_busy",
                SearchError::Failed => "engine_off",
                SearchError::NotLegal | SearchError::NoMoves => "engine_no_answer",
            };
            let restart = restart_words(v);
            let t = v.text(key, &[("restart", &restart)]);
            v.info(t);
        }
        EngineNote::Answer(r) if r.purpose != Purpose::Move => say_help(&r, v),
        other => return Some(other),
    }
    None
}

/// The engine is ready: its name, and the side the player (`me`) plays.
pub(super) fn say_ready(name: &str, me: Color, v: &mut Voice<'_>) {
    let side = v.phraser().side(me);
    v.say_key(
        "engine_ready",
        &[("name", name), ("side", &side)],
        Priority::Normal,
        SayKind::Info,
    );
}

/// A hint, a threat or an evaluation, said.
fn say_help(r: &SearchResult, v: &mut Voice<'_>) {
    match r.purpose {
        Purpose::Hint | Purpose::Threat => {
            let mv = v.phraser().say_move(&r.position, r.best);
            let key = if r.purpose == Purpose::Hint {
                "engine_hint"
            } else {
                "engine_threat"
            };
            let t = v.text(key, &[("move", &mv)]);
            v.info(t);
        }
        Purpose::Eval => {
            let t = match r.score {
                Some(score) => {
                    let phrase = score.phrase();
                    let args = phrase.args(|c| v.phraser().side(c));
                    let args: Vec<(&str, &str)> =
                        args.iter().map(|(k, v)| (*k, v.as_str())).collect();
                    v.text(phrase.key, &args)
                }
                None => v.text("engine_no_answer", &[]),
            };
            v.info(t);
        }
        Purpose::Move => {}
    }
}

#[cfg(test)]
mod tests;
