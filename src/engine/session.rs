//! The engine session: a sans-IO state machine for one UCI engine.
//!
//! Fed the engine's lines ([`EngineSession::handle_line`]), its exit
//! ([`EngineSession::handle_exit`]) and the passing of time
//! ([`EngineSession::handle_timeout`], with `now` given by the caller, so
//! tests run on a virtual clock), and asked for searches.  It is polled
//! for the lines to write ([`EngineSession::poll_transmit`]), for events
//! ([`EngineSession::poll_event`]) and for its next deadline.
//!
//! The life of a session:
//!
//! ```text
//! start ─ uci ─▶ AwaitUciOk ─ uciok: setoption…, ucinewgame, isready ─▶ AwaitReadyOk
//!   ─ readyok ─▶ Ready ─ search: position, go ─▶ Searching ─ bestmove ─▶ Ready
//!                  ▲                                  └─ (ponder) go ponder ─▶ Pondering
//!                  └──────── bestmove (discarded) ◀─ stop ─ Stopping ◀────────────┘
//! any state ─ crash, hang, garbage, illegal bestmove ─▶ Failed (one Fault event)
//! ```
//!
//! A hint, a threat or an evaluation is searched at full strength: the
//! level's `setoption` lines are lifted before it and sent again before
//! the engine's next move of its own.
//!
//! A search asked for before the engine is ready waits for it.  A hint or
//! an evaluation asked for while the engine thinks about its own move is
//! refused ([`SearchError::Busy`]); one asked for while another hint or the
//! ponder search runs stops that search (its `bestmove` is discarded).

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};
use shakmaty_uci::{UciInfo, UciMessage, UciOptionConfig, UciTimeControl};

use super::eval::Score;
use super::settings::{EngineSettings, OptionNote, Strength, Wanted};

/// How the engine ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExitInfo {
    /// Its exit code, when it exited.
    pub code: Option<i32>,
    /// The signal that ended it, when one did (Unix).
    pub signal: Option<i32>,
}

impl std::fmt::Display for ExitInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.code, self.signal) {
            (Some(c), _) => write!(f, "exit code {c}"),
            (None, Some(s)) => write!(f, "signal {s}"),
            (None, None) => write!(f, "ended"),
        }
    }
}

/// What happens to the engine's process: what its driver (`process`,
/// the only module that starts and reads it) hands to the session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProcessEvent {
    /// One line the engine wrote (without its newline; bytes that are not
    /// UTF-8 replaced).
    Line(String),
    /// The engine's output ended and it is gone (`None`: its status could
    /// not be read).
    Exited(Option<ExitInfo>),
    /// The engine could not be started (reported by the front end that
    /// tried).
    StartFailed(Fault),
}

/// A [`ProcessEvent`] of one engine process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineIo {
    /// Which start of the engine this is about.
    pub generation: u64,
    /// What happened.
    pub event: ProcessEvent,
}

/// How long the engine may take before it counts as hanging.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    /// From `uci` to `uciok`.
    pub handshake: Duration,
    /// From `isready` to `readyok` (a large `Hash` takes a while).
    pub ready: Duration,
    /// Beyond a search's own time, before its `bestmove` is given up; also
    /// how long a `stop` may take.
    pub margin: Duration,
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts {
            handshake: Duration::from_secs(10),
            ready: Duration::from_secs(20),
            margin: Duration::from_secs(3),
        }
    }
}

/// How long an engine that has not answered `uci` with `uciok` is waited
/// for before the player hears that hector waits for it (`/bin/cat`, which
/// echoes, a program that is no engine, an engine slow to start).
pub const SILENCE_NOTICE: Duration = Duration::from_secs(2);

/// How many lines in a row the engine may send that are not UCI at all
/// before it counts as broken.
pub const GARBAGE_LIMIT: u32 = 20;
/// How much of a garbage line is kept to be said.
const GARBAGE_SAMPLE: usize = 60;
/// A depth search has no time of its own: this long, plus the margin.
#[cfg(any(test, feature = "test-support"))]
const DEPTH_TIME: Duration = Duration::from_secs(30);

/// Why a search is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// The engine's own move in the game.
    Move,
    /// The best move for the player.
    Hint,
    /// What the opponent would play if it were their move.
    Threat,
    /// The evaluation of the position.
    Eval,
}

/// How long the engine may think.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// `go movetime`.
    MoveTime(Duration),
    /// `go depth` (the tests: a search that ends by itself).
    #[cfg(any(test, feature = "test-support"))]
    Depth(u8),
    /// `go wtime btime winc binc [movestogo]`: the engine plays on the clock.
    Clock {
        /// White's time left (`wtime`).
        white: Duration,
        /// Black's time left (`btime`).
        black: Duration,
        /// White's increment per move (`winc`).
        white_inc: Duration,
        /// Black's increment per move (`binc`).
        black_inc: Duration,
        /// Moves to the end of the period (`movestogo`), if it has one.
        moves_to_go: Option<u8>,
    },
}

impl Limit {
    /// The longest the engine may think with `turn` to move.
    fn time(self, turn: shakmaty::Color) -> Duration {
        match self {
            Limit::MoveTime(d) => d,
            #[cfg(any(test, feature = "test-support"))]
            Limit::Depth(_) => DEPTH_TIME,
            Limit::Clock {
                white,
                black,
                white_inc,
                black_inc,
                ..
            } => match turn {
                shakmaty::Color::White => white + white_inc,
                shakmaty::Color::Black => black + black_inc,
            },
        }
    }

    fn go(self, ponder: bool) -> String {
        let msg = match self {
            Limit::MoveTime(d) => UciMessage::go_movetime(d),
            #[cfg(any(test, feature = "test-support"))]
            Limit::Depth(d) => UciMessage::Go {
                time_control: None,
                search_control: Some(shakmaty_uci::UciSearchControl::depth(d)),
            },
            Limit::Clock {
                white,
                black,
                white_inc,
                black_inc,
                moves_to_go,
            } => UciMessage::Go {
                time_control: Some(UciTimeControl::TimeLeft {
                    white_time: Some(white),
                    black_time: Some(black),
                    white_increment: Some(white_inc),
                    black_increment: Some(black_inc),
                    moves_to_go,
                }),
                search_control: None,
            },
        };
        let line = msg.to_string();
        if ponder {
            // The crate's `go ponder` carries no times: `go ponder` followed
            // by the limit's own parameters.
            let rest = line.strip_prefix("go").unwrap_or("");
            format!("go ponder{rest}")
        } else {
            line
        }
    }
}

/// What to search: the game from its start position, its moves, a limit.
#[derive(Debug, Clone)]
pub struct SearchRequest {
    /// Why the search is made (the engine's move, a hint, ...).
    pub purpose: Purpose,
    /// The game's start position.
    pub start: Chess,
    /// Chess960 games send castling as king-takes-rook.
    pub mode: CastlingMode,
    /// The moves played from `start`.
    pub moves: Vec<Move>,
    /// How long or deep to search.
    pub limit: Limit,
}

impl SearchRequest {
    /// The threat: `pos` with the other side to move (a null move).  `None`
    /// when that is not a legal position (the side to move is in check).
    pub fn threat(pos: &Chess, mode: CastlingMode, limit: Limit) -> Option<SearchRequest> {
        let swapped = pos.clone().swap_turn().ok()?;
        Some(SearchRequest {
            purpose: Purpose::Threat,
            start: swapped,
            mode,
            moves: Vec::new(),
            limit,
        })
    }
}

/// Names a search, to match its result to the request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SearchId(u64);

/// Why a search was not started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchError {
    /// The engine is thinking about its own move.
    Busy,
    /// The engine has failed (its fault was said) or was told to quit.
    Failed,
    /// A move of the request is not legal in its position.
    NotLegal,
    /// The position has no legal move (the game is over).
    NoMoves,
}

/// The answer to a search.
#[derive(Debug, Clone)]
pub struct SearchResult {
    /// The search this answers.
    #[cfg_attr(
        not(any(test, feature = "test-support")),
        expect(
            dead_code,
            reason = "the app has one search at a time; the tests match ids"
        )
    )]
    pub id: SearchId,
    /// Why it was made.
    pub purpose: Purpose,
    /// The position searched.
    pub position: Chess,
    /// The best move, legal in `position`.
    pub best: Move,
    /// The reply the engine expects, when it said one and it is legal.
    #[cfg_attr(
        not(any(test, feature = "test-support")),
        expect(
            dead_code,
            reason = "read by the tests; the app's threat asks a search of its own"
        )
    )]
    pub ponder: Option<Move>,
    /// The last score of the main line, from White's side.
    pub score: Option<Score>,
}

/// What the session was waiting for when time ran out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Waiting {
    /// `uciok`: the engine may not speak UCI.
    Handshake,
    /// `readyok`.
    Ready,
    /// `bestmove` of a search.
    Move,
    /// `bestmove` after `stop`.
    Stop,
}

/// Something wrong with the engine, said once; the session is over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// No program by that name or path.
    NotFound {
        /// The program as it was named.
        program: String,
    },
    /// The program is there but could not be started.
    CannotStart {
        /// The program as it was named.
        program: String,
        /// The system's reason.
        why: String,
    },
    /// The engine ended by itself.
    Crashed {
        /// How it ended, when known.
        exit: Option<ExitInfo>,
    },
    /// No answer in time.
    Hung {
        /// What the engine did not answer.
        waiting: Waiting,
    },
    /// Lines that are not UCI (the last one kept, shortened).
    Garbage {
        /// The last such line, shortened.
        line: String,
    },
    /// A `bestmove` that is not legal in the position.
    IllegalMove {
        /// The move as the engine wrote it.
        uci: String,
    },
}

impl Fault {
    /// The message key saying this fault and its placeholders.
    pub fn phrase(&self) -> (&'static str, Vec<(&'static str, String)>) {
        match self {
            Fault::NotFound { program } => ("engine_not_found", vec![("program", program.clone())]),
            Fault::CannotStart { program, why } => (
                "engine_cannot_start",
                vec![("program", program.clone()), ("why", why.clone())],
            ),
            Fault::Crashed { .. } => ("engine_crashed", vec![]),
            Fault::Hung { .. } => ("engine_hung", vec![]),
            Fault::Garbage { line } => ("engine_garbage", vec![("line", line.clone())]),
            Fault::IllegalMove { uci } => ("engine_illegal_move", vec![("move", uci.clone())]),
        }
    }
}

impl OptionNote {
    /// The message key saying this note and its placeholders.
    pub fn phrase(&self) -> (&'static str, Vec<(&'static str, String)>) {
        match self {
            OptionNote::NotOffered(Wanted::Elo) => ("engine_no_elo", vec![]),
            OptionNote::NotOffered(Wanted::SkillLevel) => ("engine_no_level", vec![]),
            OptionNote::NotOffered(Wanted::Ponder) => ("engine_no_ponder", vec![]),
            OptionNote::NotOffered(Wanted::Chess960) => ("engine_no_chess960", vec![]),
            OptionNote::NotOffered(w) => ("engine_no_option", vec![("option", option_name(w))]),
            OptionNote::Adjusted {
                wanted,
                asked,
                used,
            } => {
                let key = match wanted {
                    Wanted::Elo => "engine_elo_adjusted",
                    Wanted::SkillLevel => "engine_level_adjusted",
                    _ => "engine_option_adjusted",
                };
                let mut args = vec![("asked", asked.to_string()), ("used", used.to_string())];
                if key == "engine_option_adjusted" {
                    args.push(("option", option_name(wanted)));
                }
                (key, args)
            }
            OptionNote::BadValue { name, value } => (
                "engine_bad_value",
                vec![("option", name.clone()), ("value", value.clone())],
            ),
        }
    }
}

/// The UCI name of an option wanted.
fn option_name(w: &Wanted) -> String {
    match w {
        Wanted::SkillLevel => "Skill Level".to_owned(),
        Wanted::Elo => "UCI_Elo".to_owned(),
        Wanted::Threads => "Threads".to_owned(),
        Wanted::Hash => "Hash".to_owned(),
        Wanted::Ponder => "Ponder".to_owned(),
        Wanted::Chess960 => "UCI_Chess960".to_owned(),
        Wanted::Named(n) => n.clone(),
    }
}

/// What the session tells the app.
#[derive(Debug, Clone)]
pub enum EngineEvent {
    /// Handshake and options done; the engine takes searches.
    Ready {
        /// The engine's name (`id name`), when it gave one.
        name: Option<String>,
    },
    /// About an option (not offered, adjusted): say once.
    Note(OptionNote),
    /// The engine has not finished its handshake in [`SILENCE_NOTICE`]:
    /// hector still waits for it.
    Silent,
    /// A search's answer.
    BestMove(SearchResult),
    /// The engine failed; the session is over.  Say once.
    Fault(Fault),
}

/// How long a skill level below full strength may think about its move,
/// a level: level 1 half a second, level 10 five seconds.  A weak engine
/// that thinks long plays no better and keeps its opponent waiting
/// (issue 30: Stockfish at level 2 on 10+5 took 46 s over its first move).
pub const LEVEL_THINK: Duration = Duration::from_millis(500);

/// How long an engine limited to a rating may think, a rating point
/// (1500 Elo: three seconds).
const ELO_THINK: Duration = Duration::from_millis(2);

/// The longest the engine may think about its own move on the clock:
/// a sane share of its time, whatever its own time management says: the
/// time left over the moves to go (at most 30 are counted), and three
/// quarters of the increment, never more than a quarter of what is left;
/// for a weak level or a rating, also the time that level thinks.
pub fn move_cap(strength: Strength, limit: Limit, turn: shakmaty::Color) -> Option<Duration> {
    let level = match strength {
        Strength::Level(n) if n < 20 => Some(LEVEL_THINK * u32::from(n.max(1))),
        Strength::Elo(e) => Some(ELO_THINK * e),
        _ => None,
    };
    let share = match limit {
        Limit::Clock {
            white,
            black,
            white_inc,
            black_inc,
            moves_to_go,
        } => {
            let (left, inc) = match turn {
                shakmaty::Color::White => (white, white_inc),
                shakmaty::Color::Black => (black, black_inc),
            };
            let moves = moves_to_go.map_or(30, |m| u32::from(m).clamp(1, 30));
            Some((left / moves + inc * 3 / 4).min(left / 4))
        }
        _ => None,
    };
    let cap = match (level, share) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (_, share) => share,
    };
    // Whole milliseconds, as sent; a search of no time at all is no search.
    cap.map(|c| Duration::from_millis(u64::try_from(c.as_millis()).unwrap_or(u64::MAX).max(1)))
}

/// A search as sent to the engine.
#[derive(Debug, Clone)]
struct Search {
    id: SearchId,
    purpose: Purpose,
    /// The `position` line's parts: start (None: `startpos`), moves.
    root: Option<Fen>,
    moves: Vec<UciMove>,
    chess960: bool,
    /// The position searched.
    pos: Chess,
    limit: Limit,
    /// The engine's own move on the clock: the longest it may think
    /// ([`move_cap`]), sent as `movetime` beside the clock's times (the
    /// engine stops at whichever comes first).
    cap: Option<Duration>,
}

impl Search {
    /// The `go` line: the limit's, with the cap as `movetime`.
    fn go_line(&self, ponder: bool) -> String {
        let mut line = self.limit.go(ponder);
        if let Some(cap) = self.cap {
            line.push_str(&format!(" movetime {}", cap.as_millis()));
        }
        line
    }

    /// The longest the engine may think (its deadline, before the margin).
    fn think_time(&self) -> Duration {
        let time = self.limit.time(self.pos.turn());
        self.cap.map_or(time, |c| c.min(time))
    }

    fn position_line(&self) -> String {
        UciMessage::Position {
            startpos: self.root.is_none(),
            fen: self.root.clone(),
            moves: self.moves.clone(),
        }
        .to_string()
    }

    fn mode(&self) -> CastlingMode {
        if self.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }
}

#[derive(Debug)]
enum State {
    NotStarted,
    AwaitUciOk {
        deadline: Instant,
    },
    AwaitReadyOk {
        deadline: Instant,
        first: bool,
    },
    Ready,
    Searching {
        search: Search,
        deadline: Instant,
        score: Option<Score>,
    },
    /// `go ponder` on the expected reply; no deadline.
    Pondering {
        search: Search,
    },
    /// `stop` sent; the `bestmove` that follows is discarded.
    Stopping {
        deadline: Instant,
    },
    Failed,
    /// Told to quit (the tests; hector ends an engine by ending its process).
    #[cfg(any(test, feature = "test-support"))]
    Quit,
}

/// One engine's protocol state.
#[derive(Debug)]
pub struct EngineSession {
    settings: EngineSettings,
    timeouts: Timeouts,
    state: State,
    transmit: VecDeque<String>,
    events: VecDeque<EngineEvent>,
    name: Option<String>,
    offered: Vec<UciOptionConfig>,
    /// Ponder is wanted and offered.
    ponder: bool,
    chess960_offered: bool,
    chess960_on: bool,
    chess960_said: bool,
    /// Not-UCI lines in a row, and the last of them.
    garbage: u32,
    garbage_line: Option<String>,
    next_id: u64,
    /// A search waiting for the engine to be ready.
    queued: Option<Search>,
    /// `ucinewgame` to send once the engine is ready.
    new_game: bool,
    /// The strength lines of the player's level, and the lines that lift
    /// them (see [`super::settings::Fitted`]).
    weak: Vec<(String, String)>,
    full: Vec<(String, String)>,
    /// The limit is lifted now (the last search was a help search).
    lifted: bool,
    /// When to say that hector still waits for the handshake (once;
    /// `uciok` clears it).
    silent_at: Option<Instant>,
}

impl EngineSession {
    /// A session for an engine to be started with these wishes and
    /// patience.
    pub fn new(settings: EngineSettings, timeouts: Timeouts) -> EngineSession {
        EngineSession {
            settings,
            timeouts,
            state: State::NotStarted,
            transmit: VecDeque::new(),
            events: VecDeque::new(),
            name: None,
            offered: Vec::new(),
            ponder: false,
            chess960_offered: false,
            chess960_on: false,
            chess960_said: false,
            garbage: 0,
            garbage_line: None,
            next_id: 0,
            queued: None,
            new_game: false,
            weak: Vec::new(),
            full: Vec::new(),
            lifted: false,
            silent_at: None,
        }
    }

    /// Begin the handshake (`uci`).
    pub fn start(&mut self, now: Instant) {
        if matches!(self.state, State::NotStarted) {
            self.send(UciMessage::Uci.to_string());
            self.state = State::AwaitUciOk {
                deadline: now + self.timeouts.handshake,
            };
            self.silent_at = Some(now + SILENCE_NOTICE);
        }
    }

    /// The engine's name (`id name`), once it said it.
    #[cfg(any(test, feature = "test-support"))]
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// True when the engine takes a search at once.
    #[cfg(any(test, feature = "test-support"))]
    pub fn is_ready(&self) -> bool {
        matches!(self.state, State::Ready)
    }

    /// True once the engine failed (or was told to quit).
    pub fn is_over(&self) -> bool {
        match self.state {
            State::Failed => true,
            #[cfg(any(test, feature = "test-support"))]
            State::Quit => true,
            _ => false,
        }
    }

    /// True while the engine thinks about its own move.
    pub fn thinking_about_move(&self) -> bool {
        self.current_purpose() == Some(Purpose::Move)
    }

    fn current_purpose(&self) -> Option<Purpose> {
        match &self.state {
            State::Searching { search, .. } => Some(search.purpose),
            _ => self.queued.as_ref().map(|s| s.purpose),
        }
    }

    /// The next line to write to the engine.
    pub fn poll_transmit(&mut self) -> Option<String> {
        self.transmit.pop_front()
    }

    /// The next event for the app.
    pub fn poll_event(&mut self) -> Option<EngineEvent> {
        self.events.pop_front()
    }

    /// When [`EngineSession::handle_timeout`] must be called.
    pub fn next_deadline(&self) -> Option<Instant> {
        match (self.silent_at, self.fault_deadline()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// When a missing answer becomes a fault.
    fn fault_deadline(&self) -> Option<Instant> {
        match &self.state {
            State::AwaitUciOk { deadline }
            | State::AwaitReadyOk { deadline, .. }
            | State::Searching { deadline, .. }
            | State::Stopping { deadline } => Some(*deadline),
            _ => None,
        }
    }

    fn send(&mut self, line: String) {
        self.transmit.push_back(line);
    }

    /// The engine failed: said once, nothing more is sent.
    pub fn fail(&mut self, fault: Fault) {
        if self.is_over() {
            return;
        }
        self.state = State::Failed;
        self.queued = None;
        self.silent_at = None;
        self.transmit.clear();
        self.events.push_back(EngineEvent::Fault(fault));
    }

    /// End the session politely (`quit`); the engine's exit is expected.
    #[cfg(any(test, feature = "test-support"))]
    pub fn quit(&mut self) {
        if !self.is_over() {
            if !matches!(self.state, State::NotStarted) {
                self.send(UciMessage::Quit.to_string());
            }
            self.state = State::Quit;
            self.queued = None;
        }
    }

    /// The engine process ended.
    pub fn handle_exit(&mut self, exit: Option<ExitInfo>) {
        self.fail(Fault::Crashed { exit });
    }

    /// Time passed: a deadline missed is a hang (or garbage, when the
    /// engine's last lines were not UCI).
    pub fn handle_timeout(&mut self, now: Instant) {
        if self.silent_at.is_some_and(|t| now >= t) {
            self.silent_at = None;
            self.events.push_back(EngineEvent::Silent);
        }
        let Some(deadline) = self.fault_deadline() else {
            return;
        };
        if now < deadline {
            return;
        }
        let waiting = match self.state {
            State::AwaitUciOk { .. } => Waiting::Handshake,
            State::AwaitReadyOk { .. } => Waiting::Ready,
            State::Stopping { .. } => Waiting::Stop,
            _ => Waiting::Move,
        };
        let fault = match self.garbage_line.take() {
            Some(line) if self.garbage > 0 => Fault::Garbage { line },
            _ => Fault::Hung { waiting },
        };
        self.fail(fault);
    }

    /// One line from the engine (without its newline).
    pub fn handle_line(&mut self, line: &str, now: Instant) {
        if self.is_over() {
            return;
        }
        // The engine's name, options and lines said back are text from
        // outside: no escape sequence reaches the terminal (issue 31).
        let line = crate::words::clean(line);
        let line = line.trim();
        if line.is_empty() {
            return;
        }
        match line.parse::<UciMessage>() {
            Ok(msg) => {
                self.garbage = 0;
                self.garbage_line = None;
                self.on_message(msg, now);
            }
            Err(_) => self.not_understood(line, now),
        }
    }

    fn not_understood(&mut self, line: &str, now: Instant) {
        let first = line.split_whitespace().next().unwrap_or("");
        if first.eq_ignore_ascii_case("bestmove") {
            // A bestmove that is not a move at all ("bestmove (none)",
            // "bestmove xyz").
            let uci = line[first.len()..].trim();
            let uci = uci.split_whitespace().next().unwrap_or(uci).to_owned();
            match &self.state {
                State::Searching { .. } => self.fail(Fault::IllegalMove { uci }),
                State::Stopping { .. } | State::Pondering { .. } => self.after_search(now),
                _ => {}
            }
            return;
        }
        // A UCI line this crate does not know in full (an engine's own
        // `info` fields, an option of an unusual form) is harmless.
        const UCI_WORDS: &[&str] = &[
            "id",
            "info",
            "option",
            "registration",
            "copyprotection",
            "uciok",
            "readyok",
        ];
        if UCI_WORDS.iter().any(|w| first.eq_ignore_ascii_case(w)) {
            return;
        }
        self.garbage += 1;
        let sample: String = line.chars().take(GARBAGE_SAMPLE).collect();
        self.garbage_line = Some(sample.clone());
        if self.garbage >= GARBAGE_LIMIT {
            self.fail(Fault::Garbage { line: sample });
        }
    }

    fn on_message(&mut self, msg: UciMessage, now: Instant) {
        match msg {
            UciMessage::Id { name: Some(n), .. } => self.name = Some(n),
            UciMessage::Option(o) => {
                if matches!(self.state, State::AwaitUciOk { .. }) {
                    self.offered.push(o);
                }
            }
            UciMessage::UciOk => {
                if matches!(self.state, State::AwaitUciOk { .. }) {
                    self.configure(now);
                }
            }
            UciMessage::ReadyOk => {
                if let State::AwaitReadyOk { first, .. } = self.state {
                    if first {
                        self.events.push_back(EngineEvent::Ready {
                            name: self.name.clone(),
                        });
                    }
                    self.state = State::Ready;
                    self.after_search(now);
                }
            }
            UciMessage::Info(info) => self.on_info(&info),
            UciMessage::BestMove { best_move, ponder } => self.on_bestmove(best_move, ponder, now),
            _ => {}
        }
    }

    /// After `uciok`: the options, a new game, `isready`.
    fn configure(&mut self, now: Instant) {
        self.silent_at = None;
        let fitted = self.settings.fit(&self.offered);
        for (name, value) in fitted.set {
            let value = if value.is_empty() { None } else { Some(value) };
            self.send(UciMessage::SetOption { name, value }.to_string());
        }
        self.events
            .extend(fitted.notes.into_iter().map(EngineEvent::Note));
        self.ponder = fitted.ponder;
        self.chess960_offered = fitted.chess960;
        self.weak = fitted.weak;
        self.full = fitted.full;
        self.lifted = false;
        self.send(UciMessage::UciNewGame.to_string());
        self.send(UciMessage::IsReady.to_string());
        self.new_game = false;
        self.state = State::AwaitReadyOk {
            deadline: now + self.timeouts.ready,
            first: true,
        };
    }

    fn on_info(&mut self, info: &UciInfo) {
        if let State::Searching { search, score, .. } = &mut self.state {
            if info.multi_pv.is_some_and(|n| n != 1) {
                return;
            }
            if let Some(s) = info
                .score
                .as_ref()
                .and_then(|s| Score::from_info(s, search.pos.turn()))
            {
                *score = Some(s);
            }
        }
    }

    fn on_bestmove(&mut self, best: UciMove, ponder: Option<UciMove>, now: Instant) {
        match std::mem::replace(&mut self.state, State::Ready) {
            State::Searching { search, score, .. } => {
                let Ok(best_move) = best.to_move(&search.pos) else {
                    self.state = State::Searching {
                        search,
                        deadline: now,
                        score,
                    };
                    self.fail(Fault::IllegalMove {
                        uci: best.to_string(),
                    });
                    return;
                };
                let mut after = search.pos.clone();
                after.play_unchecked(best_move);
                let ponder_move = ponder.and_then(|p| p.to_move(&after).ok());
                self.events.push_back(EngineEvent::BestMove(SearchResult {
                    id: search.id,
                    purpose: search.purpose,
                    position: search.pos.clone(),
                    best: best_move,
                    ponder: ponder_move,
                    score,
                }));
                if let (true, Purpose::Move, Some(p), None) =
                    (self.ponder, search.purpose, ponder_move, &self.queued)
                {
                    self.start_ponder(search, best_move, p);
                } else {
                    self.after_search(now);
                }
            }
            // The answer to a `stop`, or an engine that ended its ponder
            // search by itself: not wanted.
            State::Stopping { .. } | State::Pondering { .. } => self.after_search(now),
            other => self.state = other,
        }
    }

    /// Think on the expected reply while the player thinks.
    fn start_ponder(&mut self, mut search: Search, best: Move, reply: Move) {
        let mode = search.mode();
        search.moves.push(UciMove::from_move(best, mode));
        search.moves.push(UciMove::from_move(reply, mode));
        search.pos.play_unchecked(best);
        search.pos.play_unchecked(reply);
        self.send(search.position_line());
        self.send(search.go_line(true));
        self.state = State::Pondering { search };
    }

    /// The engine is free: a new game, the queued search, or ready.
    fn after_search(&mut self, now: Instant) {
        if self.new_game {
            self.new_game = false;
            self.send(UciMessage::UciNewGame.to_string());
            self.send(UciMessage::IsReady.to_string());
            self.state = State::AwaitReadyOk {
                deadline: now + self.timeouts.ready,
                first: false,
            };
            return;
        }
        self.state = State::Ready;
        if let Some(search) = self.queued.take() {
            self.go(search, now);
        }
    }

    fn go(&mut self, search: Search, now: Instant) {
        // A hint, a threat or an evaluation is searched at full strength;
        // the engine's own move at the player's level.
        let lift = search.purpose != Purpose::Move;
        if lift != self.lifted && !self.full.is_empty() {
            let lines = if lift { &self.full } else { &self.weak };
            let lines: Vec<String> = lines
                .iter()
                .map(|(name, value)| {
                    UciMessage::SetOption {
                        name: name.clone(),
                        value: Some(value.clone()),
                    }
                    .to_string()
                })
                .collect();
            for line in lines {
                self.send(line);
            }
            self.lifted = lift;
        }
        if search.chess960 != self.chess960_on {
            if self.chess960_offered {
                self.chess960_on = search.chess960;
                self.send(
                    UciMessage::SetOption {
                        name: "UCI_Chess960".to_owned(),
                        value: Some(search.chess960.to_string()),
                    }
                    .to_string(),
                );
            } else if search.chess960 && !self.chess960_said {
                self.chess960_said = true;
                self.events
                    .push_back(EngineEvent::Note(OptionNote::NotOffered(Wanted::Chess960)));
            }
        }
        self.send(search.position_line());
        self.send(search.go_line(false));
        let deadline = now + search.think_time() + self.timeouts.margin;
        self.state = State::Searching {
            search,
            deadline,
            score: None,
        };
    }

    fn stop(&mut self, now: Instant) {
        self.send(UciMessage::Stop.to_string());
        self.state = State::Stopping {
            deadline: now + self.timeouts.margin,
        };
    }

    /// Ask for a search.  Its answer comes as [`EngineEvent::BestMove`] with
    /// the returned id.
    ///
    /// # Errors
    ///
    /// [`SearchError::Busy`] while the engine thinks about its own move (and
    /// this is not that move), [`SearchError::Failed`] after a fault,
    /// [`SearchError::NotLegal`] or [`SearchError::NoMoves`] for a request
    /// that does not make a position with a move to find.
    pub fn search(&mut self, req: SearchRequest, now: Instant) -> Result<SearchId, SearchError> {
        if self.is_over() {
            return Err(SearchError::Failed);
        }
        let mut pos = req.start.clone();
        let mut moves = Vec::with_capacity(req.moves.len());
        for m in &req.moves {
            if !pos.is_legal(*m) {
                return Err(SearchError::NotLegal);
            }
            moves.push(UciMove::from_move(*m, req.mode));
            pos.play_unchecked(*m);
        }
        if pos.legal_moves().is_empty() {
            return Err(SearchError::NoMoves);
        }
        let chess960 = req.mode == CastlingMode::Chess960;
        let root = if !chess960 && req.start == Chess::default() {
            None
        } else {
            Some(Fen::from_position(&req.start, EnPassantMode::Legal))
        };
        let id = SearchId(self.next_id);
        let cap = if req.purpose == Purpose::Move {
            move_cap(self.settings.strength, req.limit, pos.turn())
        } else {
            None
        };
        let search = Search {
            id,
            purpose: req.purpose,
            root,
            moves,
            chess960,
            pos,
            limit: req.limit,
            cap,
        };
        if req.purpose != Purpose::Move && self.thinking_about_move() {
            return Err(SearchError::Busy);
        }
        self.next_id += 1;
        match std::mem::replace(&mut self.state, State::Ready) {
            State::Ready => self.go(search, now),
            State::Pondering { search: pondered }
                if req.purpose == Purpose::Move
                    && pondered.position_line() == search.position_line() =>
            {
                // The player made the expected reply.
                self.send(UciMessage::PonderHit.to_string());
                let deadline = now + search.think_time() + self.timeouts.margin;
                self.state = State::Searching {
                    search,
                    deadline,
                    score: None,
                };
            }
            State::Pondering { .. } | State::Searching { .. } => {
                self.stop(now);
                self.queued = Some(search);
            }
            other => {
                self.state = other;
                self.queued = Some(search);
            }
        }
        Ok(id)
    }

    /// Stop whatever the engine thinks about; its answer is discarded.
    /// (A move taken back while the engine thinks.)
    pub fn cancel(&mut self, now: Instant) {
        self.queued = None;
        if matches!(
            self.state,
            State::Searching { .. } | State::Pondering { .. }
        ) {
            self.stop(now);
        }
    }

    /// A new game: any search is stopped, then `ucinewgame` and `isready`.
    pub fn new_game(&mut self, now: Instant) {
        if self.is_over() {
            return;
        }
        self.cancel(now);
        match self.state {
            State::Ready => {
                self.new_game = true;
                self.after_search(now);
            }
            State::Stopping { .. } => self.new_game = true,
            // Not yet configured: the handshake sends `ucinewgame` itself.
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests;
