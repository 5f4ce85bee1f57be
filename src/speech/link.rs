//! The speech link, sans-IO: every decision of the speech worker — which
//! sentence next, what to cut off, what to collapse ([`SpeechQueue`]), when
//! the engine is taken as hung, when to print instead, when to try a new
//! connection and when to trust it again — as a pure state machine.
//!
//! It is driven the way `quinn-proto` drives a connection: feed it what
//! happened with [`handle`](SpeechLink::handle) (a sentence to say, an answer
//! from the engine, an engine event), tell it the time has come with
//! [`handle_timeout`](SpeechLink::handle_timeout) at
//! [`poll_timeout`](SpeechLink::poll_timeout), and carry out what
//! [`poll`](SpeechLink::poll) returns: open an engine, call it, abandon it,
//! print a line, report a status.  It never reads a clock, starts a thread
//! or blocks; the worker (`worker.rs`, which stands on this file) is the
//! thin thread that does.
//!
//! ```text
//!            Input (say, silence, settings, opened, replied, engine event, closed)
//!   driver ─────────────────────────────────▶ SpeechLink ──poll──▶ Output
//!     │  handle_timeout(now) at poll_timeout()      (open, call, abandon, print, report)
//! ```

use std::collections::{BTreeSet, VecDeque};
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use super::backend::{BackendEvent, SpeechError, SpeechRoute, SpeechSettings, Started};
use super::queue::{QueuePolicy, SpeechOrder, SpeechQueue};
use super::utterance::Part;
use super::{Priority, Utterance};

/// How hector speaks (`--speech`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SpeechMode {
    /// Speak when the speech service answers at start; otherwise print, say
    /// once why, and do not try again.
    #[default]
    Auto,
    /// Speak; when the service is missing or stops answering, print
    /// meanwhile and keep trying to reconnect.
    Tts,
    /// Never speak; lines only (for users whose screen reader reads them).
    Print,
    /// Speak and print every line.
    Both,
}

impl FromStr for SpeechMode {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(SpeechMode::Auto),
            "tts" => Ok(SpeechMode::Tts),
            "print" => Ok(SpeechMode::Print),
            "both" => Ok(SpeechMode::Both),
            other => Err(format!(
                "unknown speech mode \"{other}\": use auto, tts, print or both"
            )),
        }
    }
}

impl fmt::Display for SpeechMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SpeechMode::Auto => "auto",
            SpeechMode::Tts => "tts",
            SpeechMode::Print => "print",
            SpeechMode::Both => "both",
        })
    }
}

/// What the worker tells the app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpeechStatus {
    /// Speech stopped working (or never did): lines are printed instead.
    /// Sent once per failure, not again for failed reconnection attempts.
    /// `reason` is for the player (worded by the phrasing, in the player's
    /// language); `why` is the detail in English, for a log.
    FellBack {
        /// The detail, in English, for a log.
        why: String,
        /// The reason, for the player.
        reason: FallBack,
    },
    /// The first engine opened and tells how it speaks (a screen reader, or
    /// the system's voices because none runs): said once, at start.
    Speaking {
        /// The route the engine took.
        route: SpeechRoute,
    },
    /// Speech works again after a fall-back (sent when a sentence has been
    /// spoken through the new connection).
    Reconnected {
        /// The backend's name.
        backend: String,
    },
    /// The engine began speaking a sentence (`at`: when the engine said so).
    Began {
        /// The sentence.
        utterance: Utterance,
        /// The voice speaking it, when the engine names it.
        voice: Option<String>,
        /// When the engine said so.
        at: Instant,
    },
    /// The engine finished or cut off a sentence.
    Ended {
        /// The sentence.
        utterance: Utterance,
        /// When the engine said so.
        at: Instant,
    },
}

/// Why speech fell back to printing, in words a player understands (the
/// message key [`FallBack::key`] gives them in the player's language).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FallBack {
    /// No speech service could be reached.
    Unavailable,
    /// The speech service did not answer in time (it hangs).
    NoAnswer,
    /// It accepts sentences but does not speak them.
    Silent,
    /// It began a sentence and never finished it.
    Unfinished,
    /// A call to it failed, or its thread ended.
    Failed,
}

impl FallBack {
    /// The reason for a failed engine call or connection.
    pub fn from_error(e: &SpeechError) -> Self {
        match e {
            SpeechError::Unavailable(_) => FallBack::Unavailable,
            SpeechError::Timeout(_) => FallBack::NoAnswer,
            SpeechError::Failed(_) => FallBack::Failed,
        }
    }

    /// The message key of the reason (`voices/*.toml`, `[messages]`).
    pub fn key(self) -> &'static str {
        match self {
            FallBack::Unavailable => "speech_why_unavailable",
            FallBack::NoAnswer => "speech_why_no_answer",
            FallBack::Silent => "speech_why_silent",
            FallBack::Unfinished => "speech_why_unfinished",
            FallBack::Failed => "speech_why_failed",
        }
    }
}

/// How long a sentence may take to speak.  An engine that has not finished
/// a sentence within twice this after it began is taken as broken; for an
/// engine that reports no ends, the sentence is taken as finished after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pace {
    pub base: Duration,
    pub per_char: Duration,
}

impl Default for Pace {
    /// 0.5 s plus 80 ms a character (espeak-ng's German voice takes 76 ms a
    /// character at normal rate: "Springer Felix drei" 1.45 s).
    fn default() -> Self {
        Pace {
            base: Duration::from_millis(500),
            per_char: Duration::from_millis(80),
        }
    }
}

impl Pace {
    /// The time allowed for `text`, longer at slow rates (three times at −1).
    pub fn estimate(&self, text: &str, settings: &SpeechSettings) -> Duration {
        // Per mille, so that normal rate is exact: 1000 at rate 0 and above,
        // 3000 at −1.
        let slow = 1000 + (2000.0 * (-settings.clamped().rate).max(0.0)) as u32;
        let chars = u32::try_from(text.chars().count()).unwrap_or(u32::MAX);
        (self.base + self.per_char.saturating_mul(chars)).saturating_mul(slow) / 1000
    }
}

/// The link's tunables.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinkConfig {
    /// Speak, print, or speak when the service answers.
    pub mode: SpeechMode,
    /// Rate, pitch and volume.
    pub settings: SpeechSettings,
    /// When waiting sentences are dropped.
    pub policy: QueuePolicy,
    /// How long sentences take.
    pub pace: Pace,
    /// Longest wait for one engine call (speak, stop, settings).
    pub call_timeout: Duration,
    /// Longest wait for the engine to open.
    pub open_timeout: Duration,
    /// First pause before reconnecting; doubles up to `retry_max`.
    pub retry_first: Duration,
    /// The longest pause between reconnection attempts.
    pub retry_max: Duration,
    /// Engines still alive (stuck in a call after being abandoned); no new
    /// connection is tried while this many remain.
    pub max_stuck: usize,
}

impl Default for LinkConfig {
    fn default() -> Self {
        LinkConfig {
            mode: SpeechMode::Auto,
            settings: SpeechSettings::default(),
            policy: QueuePolicy::default(),
            pace: Pace::default(),
            call_timeout: Duration::from_secs(2),
            open_timeout: Duration::from_secs(5),
            retry_first: Duration::from_secs(5),
            retry_max: Duration::from_secs(300),
            max_stuck: 3,
        }
    }
}

/// One connection to the engine (one engine thread), numbered from 1.
pub type Conn = u64;

/// A call to the engine.
#[derive(Debug, Clone, PartialEq)]
pub enum Call {
    /// Speak `text` in a voice of `lang`.
    Speak {
        text: String,
        lang: String,
    },
    /// Speak one sentence of parts in several languages as one utterance
    /// (only to an engine that [mixes languages](EngineInfo::mixes_languages)).
    SpeakMixed {
        parts: Vec<Part>,
        lang: String,
    },
    Stop,
    Settings(SpeechSettings),
}

/// What an engine that opened says about itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineInfo {
    pub name: String,
    /// It reports the end of every sentence.
    pub reports_end: bool,
    /// It speaks a sentence of several languages as one utterance.
    pub mixes_languages: bool,
    /// How it speaks, told to the player once when it first opens.
    pub route: Option<SpeechRoute>,
}

/// The answer to a [`Call`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    Started(Started),
    Done,
}

/// What happened, for [`SpeechLink::handle`].
#[derive(Debug, Clone, PartialEq)]
pub enum Input {
    /// The app wants a sentence said.
    Say(Utterance),
    /// The player silences speech.
    Silence,
    /// New rate, pitch and volume.
    Settings(SpeechSettings),
    /// Finish within `grace`, then stop.
    Shutdown(Duration),
    /// Engine `conn` opened (or could not).
    Opened {
        conn: Conn,
        result: Result<EngineInfo, SpeechError>,
    },
    /// Engine `conn` answered call `seq`.
    Replied {
        conn: Conn,
        seq: u64,
        result: Result<Reply, SpeechError>,
    },
    /// Engine `conn` reported an event that happened `at`.
    Engine {
        conn: Conn,
        event: BackendEvent,
        at: Instant,
    },
    /// Engine `conn` is gone: its thread ended or cannot be reached.
    Closed { conn: Conn },
}

/// What to do, from [`SpeechLink::poll`].
#[derive(Debug, Clone, PartialEq)]
pub enum Output {
    /// Open engine `conn` (on a thread of its own: opening may hang).
    Open(Conn),
    /// Make call `seq` on engine `conn`; answer with [`Input::Replied`].
    Call { conn: Conn, seq: u64, call: Call },
    /// Forget engine `conn`: it must say nothing more (a thread stuck in it
    /// stops speech when its call returns, and runs no call still queued).
    Abandon(Conn),
    /// Print this line (when the app prints lines at all).
    Print(String),
    /// Tell the app.
    Report(SpeechStatus),
}

/// A sentence that has begun may take this many estimates before the
/// engine is taken as broken.
pub const ALLOWANCES: u32 = 2;
/// Longest wait from the engine accepting a sentence to its beginning, as a
/// multiple of the call timeout (measured: 2–30 ms on a working daemon).
const BEGIN_WITHIN_CALLS: u32 = 1;
/// Begin/end events kept while the answer to `speak` is on its way.
const MAX_EARLY: usize = 32;

/// The sentence the engine is speaking.
#[derive(Debug)]
struct Speaking {
    utterance: Utterance,
    /// The text of the call in flight (one part, or the whole sentence).
    piece: String,
    /// Parts still to speak after this one, for an engine that does not
    /// mix languages: the queue keeps them together as one sentence.
    rest: VecDeque<Part>,
    seq: u64,
    replied: bool,
    id: Option<u64>,
    voice: Option<String>,
    /// This piece began.
    began: bool,
    /// Began was reported for the sentence.
    told_began: bool,
    /// When to check on the engine (or, without end events, take the piece
    /// as ended).
    check_at: Instant,
    /// Printed already (while a reconnected engine is on probation).
    printed: bool,
}

#[derive(Debug)]
struct Up {
    conn: Conn,
    info: EngineInfo,
    next_seq: u64,
    /// Calls not answered yet: (seq, deadline, what).
    inflight: Vec<(u64, Instant, &'static str)>,
    speaking: Option<Speaking>,
    early: Vec<(BackendEvent, Instant)>,
    /// This connection came from a retry: on probation until it has spoken.
    retried: bool,
}

impl Up {
    fn call(
        &mut self,
        out: &mut VecDeque<Output>,
        call: Call,
        what: &'static str,
        deadline: Instant,
    ) -> u64 {
        self.next_seq += 1;
        let seq = self.next_seq;
        out.push_back(Output::Call {
            conn: self.conn,
            seq,
            call,
        });
        self.inflight.push((seq, deadline, what));
        seq
    }
}

#[derive(Debug)]
enum State {
    /// Print only, never connect.
    Off,
    /// Opening the first connection; sentences wait.
    Starting {
        conn: Conn,
        deadline: Instant,
        held: Vec<Utterance>,
    },
    Up(Box<Up>),
    /// Fallen back: print; try a new connection at `retry_at`.
    Down {
        retry_at: Instant,
        probe: Option<(Conn, Instant)>,
    },
}

/// What to do once a borrow of the state has ended.
enum Next {
    Nothing,
    Replay(Vec<(BackendEvent, Instant)>),
    Report(SpeechStatus),
    PieceDone,
    FallBack(FallBack, String),
}

/// The speech link.  See the module documentation.
#[derive(Debug)]
pub struct SpeechLink {
    cfg: LinkConfig,
    settings: SpeechSettings,
    queue: SpeechQueue,
    state: State,
    next_conn: Conn,
    /// Engines whose threads have not ended (the current one included).
    live: BTreeSet<Conn>,
    backoff: Duration,
    /// A fall-back was reported and speech has not worked since.
    in_episode: bool,
    /// The route of an engine was told (once per session).
    route_told: bool,
    exit_at: Option<Instant>,
    done: bool,
    out: VecDeque<Output>,
    /// The engine has begun a sentence at least once: it speaks.
    proven: bool,
}

/// At the end of the session, how long an engine that has never begun a
/// sentence is waited for (a daemon that takes sentences and never speaks
/// them, with no sound server, would hold a piped `quit` for the whole
/// grace).
pub const UNPROVEN_GRACE: Duration = Duration::from_millis(500);

impl SpeechLink {
    /// A link that opens its first engine at once (unless it only prints).
    pub fn new(cfg: LinkConfig, now: Instant) -> Self {
        let mut out = VecDeque::new();
        let mut live = BTreeSet::new();
        let state = if cfg.mode == SpeechMode::Print {
            State::Off
        } else {
            out.push_back(Output::Open(1));
            live.insert(1);
            State::Starting {
                conn: 1,
                deadline: now + cfg.open_timeout,
                held: Vec::new(),
            }
        };
        SpeechLink {
            settings: cfg.settings.clamped(),
            queue: SpeechQueue::new(cfg.policy),
            backoff: cfg.retry_first,
            cfg,
            state,
            next_conn: 2,
            live,
            in_episode: false,
            route_told: false,
            exit_at: None,
            done: false,
            out,
            proven: false,
        }
    }

    /// The next thing to do, if any.
    pub fn poll(&mut self) -> Option<Output> {
        self.out.pop_front()
    }

    /// When [`handle_timeout`](Self::handle_timeout) must be called next.
    pub fn poll_timeout(&self) -> Option<Instant> {
        if self.done {
            return None;
        }
        let state = match &self.state {
            State::Off => None,
            State::Starting { deadline, .. } => Some(*deadline),
            State::Down { retry_at, probe } => match probe {
                Some((_, deadline)) => Some(*deadline),
                None => Some(*retry_at),
            },
            State::Up(up) => {
                let calls = up.inflight.iter().map(|(_, d, _)| *d).min();
                let check = up.speaking.as_ref().map(|s| s.check_at);
                calls.into_iter().chain(check).min()
            }
        };
        state.into_iter().chain(self.exit_at).min()
    }

    /// After a shutdown: everything is said (or the grace is over).  The
    /// driver stops once it has carried out the last outputs.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// The number of engines whose threads have not ended.
    #[cfg(test)]
    pub fn live_engines(&self) -> usize {
        self.live.len()
    }

    /// Something happened.
    pub fn handle(&mut self, input: Input, now: Instant) {
        if self.done {
            return;
        }
        match input {
            Input::Say(u) => {
                if self.prints_on_say() {
                    self.print(&u.text);
                }
                if let State::Starting { held, .. } = &mut self.state {
                    held.push(u);
                } else {
                    let actions = self.queue.push(u, now);
                    self.run_actions(actions, now);
                }
            }
            Input::Silence => {
                if let State::Starting { held, .. } = &mut self.state {
                    held.retain(|u| u.priority == Priority::Urgent);
                } else {
                    let actions = self.queue.silence(now);
                    self.run_actions(actions, now);
                }
            }
            Input::Settings(s) => {
                self.settings = s.clamped();
                let deadline = now + self.cfg.call_timeout;
                if let State::Up(up) = &mut self.state {
                    up.call(
                        &mut self.out,
                        Call::Settings(self.settings),
                        "settings",
                        deadline,
                    );
                }
            }
            Input::Shutdown(grace) => {
                let grace = if self.proven {
                    grace
                } else {
                    grace.min(UNPROVEN_GRACE)
                };
                self.exit_at = Some(now + grace);
            }
            Input::Opened { conn, result } => self.opened(conn, result, now),
            Input::Replied { conn, seq, result } => self.replied(conn, seq, result, now),
            Input::Engine { conn, event, at } => self.engine_event(conn, event, at, now),
            Input::Closed { conn } => self.closed(conn, now),
        }
        self.check_exit(now);
    }

    /// The time from [`poll_timeout`](Self::poll_timeout) has come (calling
    /// it early does no harm).
    pub fn handle_timeout(&mut self, now: Instant) {
        if self.done {
            return;
        }
        let next = match &mut self.state {
            State::Off | State::Starting { .. } | State::Down { .. } => {
                self.link_timeout(now);
                Next::Nothing
            }
            State::Up(up) => Self::check_up(up, now),
        };
        self.then(next, now);
        self.check_exit(now);
    }

    fn link_timeout(&mut self, now: Instant) {
        match &mut self.state {
            State::Starting { deadline, .. } if now >= *deadline => {
                let why = format!(
                    "the speech service did not answer within {} s",
                    self.cfg.open_timeout.as_secs_f32()
                );
                let held = self.abandon_current();
                self.fall_back(FallBack::NoAnswer, why, true, now);
                for u in held {
                    let actions = self.queue.push(u, now);
                    self.run_actions(actions, now);
                }
            }
            State::Down {
                probe: Some((conn, deadline)),
                ..
            } if now >= *deadline => {
                self.out.push_back(Output::Abandon(*conn));
                self.retry_later(now);
            }
            State::Down {
                retry_at,
                probe: probe @ None,
            } if now >= *retry_at => {
                if self.live.len() >= self.cfg.max_stuck {
                    *retry_at = now + self.backoff;
                } else {
                    let conn = self.next_conn;
                    self.next_conn += 1;
                    self.live.insert(conn);
                    self.out.push_back(Output::Open(conn));
                    *probe = Some((conn, now + self.cfg.open_timeout));
                }
            }
            _ => {}
        }
    }

    fn check_exit(&mut self, now: Instant) {
        let Some(at) = self.exit_at else {
            return;
        };
        let idle = self.queue.is_idle() && !matches!(self.state, State::Starting { .. });
        if now >= at || idle {
            self.done = true;
            if let State::Up(up) = &mut self.state
                && up.speaking.take().is_some()
            {
                // Best effort: nobody waits for the answer.
                let deadline = now + self.cfg.call_timeout;
                up.call(&mut self.out, Call::Stop, "stop", deadline);
            }
        }
    }

    fn print(&mut self, text: &str) {
        self.out.push_back(Output::Print(text.to_owned()));
    }

    fn report(&mut self, status: SpeechStatus) {
        self.out.push_back(Output::Report(status));
    }

    /// Lines are printed when they arrive (mode `both`), not when spoken.
    fn prints_on_say(&self) -> bool {
        self.cfg.mode == SpeechMode::Both
    }

    /// Abandon the engine of the current state (leaving `Off`); the
    /// sentences held while it was opening.
    fn abandon_current(&mut self) -> Vec<Utterance> {
        match std::mem::replace(&mut self.state, State::Off) {
            State::Off => Vec::new(),
            State::Starting { conn, held, .. } => {
                self.out.push_back(Output::Abandon(conn));
                held
            }
            State::Up(up) => {
                self.out.push_back(Output::Abandon(up.conn));
                Vec::new()
            }
            State::Down { probe, .. } => {
                if let Some((conn, _)) = probe {
                    self.out.push_back(Output::Abandon(conn));
                }
                Vec::new()
            }
        }
    }

    fn opened(&mut self, conn: Conn, result: Result<EngineInfo, SpeechError>, now: Instant) {
        let starting = match &self.state {
            State::Starting { conn: c, .. } if *c == conn => true,
            State::Down {
                probe: Some((c, _)),
                ..
            } if *c == conn => false,
            _ => {
                // An abandoned connection answering late.
                if result.is_ok() {
                    self.out.push_back(Output::Abandon(conn));
                }
                return;
            }
        };
        let held = match std::mem::replace(&mut self.state, State::Off) {
            State::Starting { held, .. } => held,
            _ => Vec::new(),
        };
        match result {
            Ok(info) => {
                if !self.route_told
                    && let Some(route) = info.route.clone()
                {
                    self.route_told = true;
                    self.report(SpeechStatus::Speaking { route });
                }
                let mut up = Box::new(Up {
                    conn,
                    info,
                    next_seq: 0,
                    inflight: Vec::new(),
                    speaking: None,
                    early: Vec::new(),
                    retried: !starting,
                });
                up.call(
                    &mut self.out,
                    Call::Settings(self.settings),
                    "settings",
                    now + self.cfg.call_timeout,
                );
                self.state = State::Up(up);
            }
            Err(e) if starting => {
                self.out.push_back(Output::Abandon(conn));
                let retry = self.cfg.mode != SpeechMode::Auto;
                self.fall_back(FallBack::from_error(&e), e.to_string(), retry, now);
            }
            Err(_) => {
                self.out.push_back(Output::Abandon(conn));
                self.retry_later(now);
            }
        }
        for u in held {
            let actions = self.queue.push(u, now);
            self.run_actions(actions, now);
        }
    }

    fn closed(&mut self, conn: Conn, now: Instant) {
        self.live.remove(&conn);
        let current = match &self.state {
            State::Up(up) => up.conn == conn,
            State::Starting { conn: c, .. } => *c == conn,
            State::Down {
                probe: Some((c, _)),
                ..
            } => *c == conn,
            _ => false,
        };
        if current {
            // The engine thread ended without a word (a panic in the
            // engine, or it could not be started).
            let why = SpeechError::Unavailable("the speech thread ended".into());
            match &self.state {
                State::Up(_) => self.fall_back(FallBack::Failed, why.to_string(), true, now),
                _ => self.opened(conn, Err(why), now),
            }
        }
    }

    fn retry_later(&mut self, now: Instant) {
        self.state = State::Down {
            retry_at: now + self.backoff,
            probe: None,
        };
        self.backoff = (self.backoff * 2).min(self.cfg.retry_max);
    }

    fn replied(&mut self, conn: Conn, seq: u64, result: Result<Reply, SpeechError>, now: Instant) {
        let pace = self.cfg.pace;
        let settings = self.settings;
        let call_timeout = self.cfg.call_timeout;
        let next = {
            let State::Up(up) = &mut self.state else {
                return;
            };
            let up: &mut Up = up;
            if up.conn != conn {
                return;
            }
            up.inflight.retain(|(s, _, _)| *s != seq);
            let Some(sp) = up.speaking.as_mut() else {
                return;
            };
            match result {
                Ok(Reply::Started(started)) if sp.seq == seq => {
                    sp.replied = true;
                    sp.id = started.id;
                    if started.voice.is_some() || sp.voice.is_none() {
                        sp.voice = started.voice;
                    }
                    match (up.info.reports_end, sp.id) {
                        (true, Some(id)) => {
                            // It must begin soon (events that came before
                            // this answer are replayed now and may move this).
                            sp.check_at = now + call_timeout * BEGIN_WITHIN_CALLS;
                            Next::Replay(
                                std::mem::take(&mut up.early)
                                    .into_iter()
                                    .filter(|(e, _)| event_id(*e) == id)
                                    .collect(),
                            )
                        }
                        _ => {
                            // No events for this sentence: it begins now and
                            // ends when the estimate runs out.
                            sp.began = true;
                            sp.check_at = now + pace.estimate(&sp.piece, &settings);
                            if sp.told_began {
                                Next::Nothing
                            } else {
                                sp.told_began = true;
                                Next::Report(SpeechStatus::Began {
                                    utterance: sp.utterance.clone(),
                                    voice: sp.voice.clone(),
                                    at: now,
                                })
                            }
                        }
                    }
                }
                Err(e) if sp.seq == seq => Next::FallBack(FallBack::from_error(&e), e.to_string()),
                _ => Next::Nothing,
            }
        };
        self.then(next, now);
    }

    fn then(&mut self, next: Next, now: Instant) {
        match next {
            Next::Nothing => {}
            Next::Replay(events) => {
                for (event, at) in events {
                    self.speaking_event(event, at, now);
                }
            }
            Next::Report(status) => self.report(status),
            Next::PieceDone => self.piece_done(now, now),
            Next::FallBack(reason, why) => self.fall_back(reason, why, true, now),
        }
    }

    fn engine_event(&mut self, conn: Conn, event: BackendEvent, at: Instant, now: Instant) {
        let State::Up(up) = &mut self.state else {
            return;
        };
        if up.conn != conn {
            return;
        }
        let Some(sp) = &up.speaking else {
            return; // the end of a sentence that was stopped
        };
        if !sp.replied {
            if up.early.len() < MAX_EARLY {
                up.early.push((event, at));
            }
            return;
        }
        if sp.id == Some(event_id(event)) {
            self.speaking_event(event, at, now);
        }
    }

    fn speaking_event(&mut self, event: BackendEvent, at: Instant, now: Instant) {
        let pace = self.cfg.pace;
        let settings = self.settings;
        let State::Up(up) = &mut self.state else {
            return;
        };
        let Some(sp) = up.speaking.as_mut() else {
            return;
        };
        match event {
            BackendEvent::Began(_) => {
                self.proven = true;
                if !sp.began {
                    sp.began = true;
                    sp.check_at = at + pace.estimate(&sp.piece, &settings) * ALLOWANCES;
                    if !sp.told_began {
                        sp.told_began = true;
                        let status = SpeechStatus::Began {
                            utterance: sp.utterance.clone(),
                            voice: sp.voice.clone(),
                            at,
                        };
                        self.out.push_back(Output::Report(status));
                    }
                }
            }
            BackendEvent::Ended(_) => self.piece_done(now, at),
            // Cut off by someone else: the rest of the sentence goes too.
            BackendEvent::Stopped(_) => self.finish_current(now, at),
        }
    }

    /// The engine is done with the piece in flight: speak the next part of
    /// the sentence, or finish it.
    fn piece_done(&mut self, now: Instant, at: Instant) {
        let deadline = now + self.cfg.call_timeout;
        let State::Up(up) = &mut self.state else {
            return;
        };
        let Some(sp) = up.speaking.as_mut() else {
            return;
        };
        let Some(next) = sp.rest.pop_front() else {
            self.finish_current(now, at);
            return;
        };
        let check_at = deadline + self.cfg.pace.estimate(&next.text, &self.settings);
        sp.piece = next.text.clone();
        sp.replied = false;
        sp.id = None;
        sp.began = false;
        sp.check_at = check_at;
        let seq = up.call(
            &mut self.out,
            Call::Speak {
                text: next.text,
                lang: next.lang,
            },
            "speak",
            deadline,
        );
        up.early.clear();
        if let Some(sp) = up.speaking.as_mut() {
            sp.seq = seq;
        }
    }

    /// The engine is done with the current sentence: report, start the next.
    fn finish_current(&mut self, now: Instant, at: Instant) {
        let State::Up(up) = &mut self.state else {
            return;
        };
        let Some(sp) = up.speaking.take() else {
            return;
        };
        up.early.clear();
        let mut reports = vec![SpeechStatus::Ended {
            utterance: sp.utterance,
            at,
        }];
        if up.retried {
            up.retried = false;
            self.backoff = self.cfg.retry_first;
            if self.in_episode {
                self.in_episode = false;
                reports.push(SpeechStatus::Reconnected {
                    backend: up.info.name.clone(),
                });
            }
        }
        for r in reports {
            self.report(r);
        }
        let actions = self.queue.finished(now);
        self.run_actions(actions, now);
    }

    /// Deadlines of a working connection: unanswered calls, overlong sentences.
    fn check_up(up: &mut Up, now: Instant) -> Next {
        if let Some((_, _, what)) = up.inflight.iter().find(|(_, d, _)| now >= *d) {
            let e = SpeechError::Timeout(what);
            return Next::FallBack(FallBack::from_error(&e), e.to_string());
        }
        let Some(sp) = up.speaking.as_mut() else {
            return Next::Nothing;
        };
        if now < sp.check_at {
            return Next::Nothing;
        }
        if !up.info.reports_end || (sp.replied && sp.id.is_none()) {
            // No events: the estimate is all there is.
            return Next::PieceDone;
        }
        if !sp.began {
            // The measured daemon hang: sentences are accepted, never spoken.
            return Next::FallBack(
                FallBack::Silent,
                "the speech service accepts sentences but does not speak".into(),
            );
        }
        Next::FallBack(
            FallBack::Unfinished,
            "the speech service never finished a sentence".into(),
        )
    }

    /// Speech failed: abandon the engine, print what it had not said, tell
    /// the user (once), and reconnect later if `retry`.
    fn fall_back(&mut self, reason: FallBack, why: String, retry: bool, now: Instant) {
        let printed = match &self.state {
            State::Up(up) => up
                .speaking
                .as_ref()
                .filter(|s| s.printed)
                .map(|s| s.utterance.clone()),
            _ => None,
        };
        // A thread stuck in a call stays stuck (and counted in `live`); a
        // free one ends.
        let held = self.abandon_current();
        if retry {
            self.retry_later(now);
        }
        if !self.in_episode {
            self.in_episode = true;
            self.report(SpeechStatus::FellBack { why, reason });
        }
        let mut unsaid = self.queue.drain();
        if printed.is_some() && unsaid.first() == printed.as_ref() {
            unsaid.remove(0);
        }
        unsaid.extend(held);
        for u in unsaid {
            let actions = self.queue.push(u, now);
            self.run_actions(actions, now);
        }
    }

    fn run_actions(&mut self, actions: Vec<SpeechOrder>, now: Instant) {
        let mut todo: VecDeque<SpeechOrder> = actions.into();
        while let Some(action) = todo.pop_front() {
            let deadline = now + self.cfg.call_timeout;
            match (&mut self.state, action) {
                (State::Up(up), SpeechOrder::Stop) => {
                    up.speaking = None;
                    up.early.clear();
                    up.call(&mut self.out, Call::Stop, "stop", deadline);
                }
                (State::Up(up), SpeechOrder::Speak(u)) => {
                    // A reconnected engine is on probation until it has
                    // spoken a sentence: print meanwhile, so that a daemon
                    // that is still broken costs the player nothing.
                    let printed = up.retried && self.cfg.mode != SpeechMode::Both;
                    if printed {
                        self.out.push_back(Output::Print(u.text.clone()));
                    }
                    let (call, piece, rest) = speak_call(&u, up.info.mixes_languages);
                    let check_at = deadline + self.cfg.pace.estimate(&piece, &self.settings);
                    let seq = up.call(&mut self.out, call, "speak", deadline);
                    up.early.clear();
                    up.speaking = Some(Speaking {
                        utterance: u,
                        piece,
                        rest,
                        seq,
                        replied: false,
                        id: None,
                        voice: None,
                        began: false,
                        told_began: false,
                        check_at,
                        printed,
                    });
                }
                (_, SpeechOrder::Stop) => {}
                (_, SpeechOrder::Speak(u)) => {
                    if !self.prints_on_say() {
                        self.print(&u.text);
                    }
                    todo.extend(self.queue.finished(now));
                }
            }
        }
    }
}

/// The first call for `u`, the text it speaks, and the parts left for
/// later calls.  An engine that mixes languages gets the whole sentence at
/// once; any other gets it part by part (parts without a letter or digit,
/// such as the closing full stop, are not spoken on their own).
fn speak_call(u: &Utterance, mixes: bool) -> (Call, String, VecDeque<Part>) {
    let voiced = u.voiced();
    if voiced.len() > 1 && mixes {
        let call = Call::SpeakMixed {
            parts: voiced,
            lang: u.lang.clone(),
        };
        return (call, u.text.clone(), VecDeque::new());
    }
    let mut pieces: VecDeque<Part> = if voiced.len() > 1 {
        voiced
            .into_iter()
            .filter(|p| p.text.chars().any(char::is_alphanumeric))
            .map(|p| Part::new(p.text.trim(), p.lang))
            .collect()
    } else {
        voiced.into()
    };
    let first = pieces
        .pop_front()
        .unwrap_or_else(|| Part::new(u.text.clone(), u.lang.clone()));
    let piece = first.text.clone();
    let call = Call::Speak {
        text: first.text,
        lang: first.lang,
    };
    (call, piece, pieces)
}

fn event_id(event: BackendEvent) -> u64 {
    match event {
        BackendEvent::Began(id) | BackendEvent::Ended(id) | BackendEvent::Stopped(id) => id,
    }
}

#[cfg(test)]
mod tests;
