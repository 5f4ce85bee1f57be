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
    pub mode: SpeechMode,
    pub settings: SpeechSettings,
    pub policy: QueuePolicy,
    /// How long sentences take.
    pub pace: Pace,
    /// Longest wait for one engine call (speak, stop, settings).
    pub call_timeout: Duration,
    /// Longest wait for the engine to open.
    pub open_timeout: Duration,
    /// First pause before reconnecting; doubles up to `retry_max`.
    pub retry_first: Duration,
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
mod tests {
    //! The link on a virtual clock, against a simulated engine: no threads,
    //! no sleeps; every deadline is stepped to exactly.

    use super::*;
    use crate::speech::SayKind;

    const MS: Duration = Duration::from_millis(1);

    fn u(text: &str, priority: Priority, kind: SayKind) -> Utterance {
        Utterance::new(text, "de", priority, kind)
    }

    fn urgent(text: &str) -> Utterance {
        u(text, Priority::Urgent, SayKind::Move)
    }

    fn attacked() -> Utterance {
        Utterance::mixed(
            vec![
                Part::new("Felix sechs", "de"),
                Part::new(" is attacked by ", "en"),
                Part::new("Springer Gustav acht", "de"),
                Part::new(".", "en"),
            ],
            "en",
            Priority::Normal,
            SayKind::Info,
        )
    }

    /// How the simulated engine opens.
    #[derive(Debug, Clone, PartialEq)]
    enum Open {
        Ok,
        Fail(&'static str),
        Hang,
    }

    /// When the simulated engine reports begin and end.
    #[derive(Debug, Clone, Copy, PartialEq)]
    enum Events {
        /// Only when the test says so.
        Manual,
        /// Began at once, Ended this long after.
        Auto(Duration),
        /// The engine reports none (like Tolk).
        None,
    }

    /// The speech-engine side, simulated: answers the link's outputs as a
    /// real engine thread would, at the virtual time.
    struct Sim {
        link: SpeechLink,
        now: Instant,
        open: Open,
        hang_speak: bool,
        hang_all: bool,
        events: Events,
        mixes: bool,
        /// The route every engine opened reports.
        route: Option<SpeechRoute>,
        next_id: u64,
        /// Engines opened, in order.
        opens: Vec<Conn>,
        /// Engines abandoned.
        abandoned: Vec<Conn>,
        /// Engines stuck in a call (or in opening).
        stuck: Vec<Conn>,
        /// Every call, with its engine.
        calls: Vec<(Conn, Call)>,
        /// The id of the last speak call answered.
        last_id: Option<(Conn, u64)>,
        printed: Vec<String>,
        reports: Vec<SpeechStatus>,
        timed: Vec<(Instant, Input)>,
    }

    fn fast(mode: SpeechMode) -> LinkConfig {
        LinkConfig {
            mode,
            call_timeout: 150 * MS,
            open_timeout: 300 * MS,
            retry_first: 200 * MS,
            retry_max: 400 * MS,
            pace: Pace {
                base: Duration::from_secs(1),
                per_char: Duration::ZERO,
            },
            ..LinkConfig::default()
        }
    }

    /// Fast deadlines and sentences taken to last 50 ms.
    fn quick(mode: SpeechMode) -> LinkConfig {
        LinkConfig {
            pace: Pace {
                base: 50 * MS,
                per_char: Duration::ZERO,
            },
            ..fast(mode)
        }
    }

    impl Sim {
        fn with(cfg: LinkConfig, setup: impl FnOnce(&mut Sim)) -> Sim {
            let now = Instant::now();
            let mut sim = Sim {
                link: SpeechLink::new(cfg, now),
                now,
                open: Open::Ok,
                hang_speak: false,
                hang_all: false,
                events: Events::Manual,
                mixes: false,
                route: None,
                next_id: 0,
                opens: Vec::new(),
                abandoned: Vec::new(),
                stuck: Vec::new(),
                calls: Vec::new(),
                last_id: None,
                printed: Vec::new(),
                reports: Vec::new(),
                timed: Vec::new(),
            };
            setup(&mut sim);
            sim.pump();
            sim
        }

        fn new(mode: SpeechMode) -> Sim {
            Sim::with(fast(mode), |_| {})
        }

        fn current(&self) -> Option<Conn> {
            self.opens
                .iter()
                .rev()
                .find(|c| !self.abandoned.contains(c))
                .copied()
        }

        /// Carry out the link's outputs, answering as the engine would.
        fn pump(&mut self) {
            while let Some(out) = self.link.poll() {
                match out {
                    Output::Open(conn) => {
                        self.opens.push(conn);
                        if self.hang_all || self.open == Open::Hang {
                            self.stuck.push(conn);
                            continue;
                        }
                        let result = match self.open {
                            Open::Fail(why) => Err(SpeechError::Unavailable(why.into())),
                            _ => Ok(EngineInfo {
                                name: "sim".into(),
                                reports_end: self.events != Events::None,
                                mixes_languages: self.mixes,
                                route: self.route.clone(),
                            }),
                        };
                        let failed = result.is_err();
                        self.link.handle(Input::Opened { conn, result }, self.now);
                        if failed {
                            self.link.handle(Input::Closed { conn }, self.now);
                        }
                    }
                    Output::Call { conn, seq, call } => {
                        self.calls.push((conn, call.clone()));
                        if self.abandoned.contains(&conn) {
                            self.link.handle(Input::Closed { conn }, self.now);
                            continue;
                        }
                        let speaks = matches!(call, Call::Speak { .. } | Call::SpeakMixed { .. });
                        if self.hang_all || (speaks && self.hang_speak) {
                            if !self.stuck.contains(&conn) {
                                self.stuck.push(conn);
                            }
                            continue;
                        }
                        let reply = if speaks {
                            self.next_id += 1;
                            let id = self.next_id;
                            self.last_id = Some((conn, id));
                            let lang = match &call {
                                Call::Speak { lang, .. } => lang.clone(),
                                Call::SpeakMixed { parts, .. } => parts
                                    .iter()
                                    .map(|p| p.lang.as_str())
                                    .collect::<Vec<_>>()
                                    .join("+"),
                                _ => String::new(),
                            };
                            if let Events::Auto(d) = self.events {
                                let at = self.now;
                                let began = BackendEvent::Began(id);
                                let ended = BackendEvent::Ended(id);
                                self.timed.push((
                                    at,
                                    Input::Engine {
                                        conn,
                                        event: began,
                                        at,
                                    },
                                ));
                                let at = at + d;
                                self.timed.push((
                                    at,
                                    Input::Engine {
                                        conn,
                                        event: ended,
                                        at,
                                    },
                                ));
                            }
                            Reply::Started(Started {
                                id: (self.events != Events::None).then_some(id),
                                voice: Some(format!("sim-{lang}")),
                            })
                        } else {
                            Reply::Done
                        };
                        let input = Input::Replied {
                            conn,
                            seq,
                            result: Ok(reply),
                        };
                        self.link.handle(input, self.now);
                    }
                    Output::Abandon(conn) => {
                        if !self.abandoned.contains(&conn) {
                            self.abandoned.push(conn);
                            // A free engine thread ends; a stuck one stays.
                            if !self.stuck.contains(&conn) {
                                self.link.handle(Input::Closed { conn }, self.now);
                            }
                        }
                    }
                    Output::Print(line) => self.printed.push(line),
                    Output::Report(status) => self.reports.push(status),
                }
            }
        }

        fn input(&mut self, input: Input) {
            self.link.handle(input, self.now);
            self.pump();
        }

        fn say(&mut self, u: Utterance) {
            self.input(Input::Say(u));
        }

        /// Let `d` pass: timed engine events and the link's deadlines, in
        /// order, each at its exact time.
        fn advance(&mut self, d: Duration) {
            let target = self.now + d;
            loop {
                let event_at = self.timed.iter().map(|(t, _)| *t).min();
                let next = event_at.into_iter().chain(self.link.poll_timeout()).min();
                let Some(next) = next.filter(|t| *t <= target) else {
                    break;
                };
                self.now = self.now.max(next);
                if event_at.is_some_and(|t| t <= self.now) {
                    let i = self
                        .timed
                        .iter()
                        .position(|(t, _)| *t <= self.now)
                        .unwrap_or_default();
                    let (_, input) = self.timed.remove(i);
                    self.input(input);
                } else {
                    self.link.handle_timeout(self.now);
                    self.pump();
                }
            }
            self.now = target;
        }

        /// Stuck calls return: an abandoned engine's thread then ends.
        fn release(&mut self) {
            self.hang_speak = false;
            self.hang_all = false;
            self.open = Open::Ok;
            for conn in std::mem::take(&mut self.stuck) {
                if self.abandoned.contains(&conn) {
                    self.input(Input::Closed { conn });
                }
            }
        }

        fn emit(&mut self, event: BackendEvent) {
            let conn = self.current().unwrap_or_default();
            let at = self.now;
            self.input(Input::Engine { conn, event, at });
        }

        fn last_id(&self) -> u64 {
            self.last_id.map(|(_, id)| id).unwrap_or_default()
        }

        /// The engine finishes the last sentence it was given.
        fn end_last(&mut self) {
            let id = self.last_id();
            self.emit(BackendEvent::Began(id));
            self.emit(BackendEvent::Ended(id));
        }

        /// Speak calls as "text" (mixed ones as "[lang]text|..."), stops as "STOP".
        fn script(&self) -> Vec<String> {
            self.calls
                .iter()
                .filter_map(|(_, c)| match c {
                    Call::Speak { text, .. } => Some(text.clone()),
                    Call::SpeakMixed { parts, .. } => Some(
                        parts
                            .iter()
                            .map(|p| format!("[{}]{}", p.lang, p.text))
                            .collect::<Vec<_>>()
                            .join("|"),
                    ),
                    Call::Stop => Some("STOP".into()),
                    Call::Settings(_) => None,
                })
                .collect()
        }

        fn spoken(&self) -> Vec<String> {
            self.script().into_iter().filter(|s| s != "STOP").collect()
        }

        fn fell_back(&self) -> Vec<String> {
            self.reports
                .iter()
                .filter_map(|s| match s {
                    SpeechStatus::FellBack { why, .. } => Some(why.clone()),
                    _ => None,
                })
                .collect()
        }

        fn ended(&self) -> Vec<String> {
            self.reports
                .iter()
                .filter_map(|s| match s {
                    SpeechStatus::Ended { utterance, .. } => Some(utterance.text.clone()),
                    _ => None,
                })
                .collect()
        }

        fn reconnected(&self) -> usize {
            self.reports
                .iter()
                .filter(|s| matches!(s, SpeechStatus::Reconnected { .. }))
                .count()
        }
    }

    #[test]
    fn mode_parses_and_prints() {
        for (s, m) in [
            ("auto", SpeechMode::Auto),
            ("TTS", SpeechMode::Tts),
            (" print ", SpeechMode::Print),
            ("both", SpeechMode::Both),
        ] {
            assert_eq!(s.parse::<SpeechMode>(), Ok(m));
            assert_eq!(m.to_string(), s.trim().to_ascii_lowercase());
        }
        assert!(
            "loud"
                .parse::<SpeechMode>()
                .is_err_and(|e| e.contains("loud"))
        );
    }

    #[test]
    fn pace_is_longer_for_long_text_and_slow_rate() {
        let p = Pace::default();
        let normal = SpeechSettings::default();
        let slow = SpeechSettings {
            rate: -1.0,
            ..normal
        };
        assert_eq!(p.estimate("", &normal), 500 * MS);
        assert_eq!(p.estimate("0123456789", &normal), 1300 * MS);
        assert_eq!(p.estimate("0123456789", &slow), 3900 * MS);
    }

    #[test]
    fn say_reaches_the_engine_with_the_language_and_reports_begin_and_end() {
        let mut s = Sim::new(SpeechMode::Tts);
        s.say(urgent("Springer Felix drei"));
        assert!(s.calls.iter().any(|(_, c)| matches!(c,
            Call::Speak { text, lang } if text == "Springer Felix drei" && lang == "de")));
        s.end_last();
        assert!(
            matches!(&s.reports[0], SpeechStatus::Began { voice: Some(v), .. } if v == "sim-de")
        );
        assert_eq!(s.ended(), ["Springer Felix drei"]);
        assert!(s.printed.is_empty(), "speech works: nothing printed");
    }

    #[test]
    fn settings_are_applied_on_open_and_on_change_clamped() {
        let cfg = LinkConfig {
            settings: SpeechSettings {
                rate: 0.5,
                pitch: 0.0,
                volume: 1.0,
            },
            ..fast(SpeechMode::Tts)
        };
        let mut s = Sim::with(cfg, |_| {});
        s.input(Input::Settings(SpeechSettings {
            rate: 9.0,
            pitch: -0.2,
            volume: 0.5,
        }));
        let settings: Vec<SpeechSettings> = s
            .calls
            .iter()
            .filter_map(|(_, c)| match c {
                Call::Settings(s) => Some(*s),
                _ => None,
            })
            .collect();
        assert_eq!(
            settings,
            [
                SpeechSettings {
                    rate: 0.5,
                    pitch: 0.0,
                    volume: 1.0
                },
                SpeechSettings {
                    rate: 1.0,
                    pitch: -0.2,
                    volume: 0.5
                }
            ]
        );
    }

    #[test]
    fn urgent_interrupts_help_which_is_not_resumed() {
        let mut s = Sim::new(SpeechMode::Tts);
        s.say(u("help text", Priority::Info, SayKind::Info));
        s.say(urgent("Dame David acht"));
        s.end_last();
        s.advance(Duration::from_secs(5));
        assert_eq!(s.script(), ["help text", "STOP", "Dame David acht"]);
        assert_eq!(s.ended(), ["Dame David acht"]);
    }

    #[test]
    fn urgent_is_not_cut_off_by_lower_priority() {
        let mut s = Sim::new(SpeechMode::Tts);
        s.say(urgent("Bauer Eva vier"));
        s.say(u("illegal move", Priority::Normal, SayKind::Error));
        s.say(u("help", Priority::Info, SayKind::Info));
        assert_eq!(s.script(), ["Bauer Eva vier"], "nothing cut in");
        s.end_last();
        s.end_last();
        assert_eq!(s.script(), ["Bauer Eva vier", "illegal move", "help"]);
    }

    #[test]
    fn an_end_for_a_stopped_sentence_does_not_end_the_next() {
        let mut s = Sim::new(SpeechMode::Tts);
        s.say(u("help", Priority::Info, SayKind::Info));
        let help = s.last_id();
        s.say(urgent("Turm Anna eins"));
        s.say(urgent("Läufer Cäsar vier"));
        s.emit(BackendEvent::Stopped(help));
        s.emit(BackendEvent::Ended(help));
        assert_eq!(s.spoken().len(), 2, "the second move still waits");
        s.end_last();
        assert_eq!(s.spoken().len(), 3);
    }

    #[test]
    fn moves_keep_order_and_stale_clock_readings_collapse() {
        let mut s = Sim::new(SpeechMode::Tts);
        s.say(urgent("e4"));
        for t in ["3:00", "2:59", "2:58"] {
            s.say(u(t, Priority::Normal, SayKind::Clock));
        }
        s.say(urgent("e5"));
        s.say(urgent("Sf3"));
        for _ in 0..4 {
            s.end_last();
        }
        assert_eq!(s.script(), ["e4", "e5", "Sf3", "2:58"]);
    }

    #[test]
    fn a_clock_reading_that_waited_too_long_is_dropped() {
        let cfg = LinkConfig {
            policy: QueuePolicy {
                stale_after: Duration::from_secs(5),
            },
            pace: Pace {
                base: Duration::from_secs(10),
                per_char: Duration::ZERO,
            },
            ..fast(SpeechMode::Tts)
        };
        let mut s = Sim::with(cfg, |_| {});
        s.say(urgent("e4"));
        let id = s.last_id();
        s.emit(BackendEvent::Began(id));
        s.say(u("2:00", Priority::Normal, SayKind::Clock));
        s.advance(Duration::from_secs(6));
        s.emit(BackendEvent::Ended(id));
        assert_eq!(s.script(), ["e4"], "the old reading is not said");
        assert!(s.link.poll_timeout().is_none());
    }

    #[test]
    fn clock_waits_for_a_move_confirmation() {
        let mut s = Sim::new(SpeechMode::Tts);
        s.say(u("Turm Anna eins", Priority::Info, SayKind::Move));
        s.say(u("1 minute", Priority::Normal, SayKind::Clock));
        assert_eq!(s.script(), ["Turm Anna eins"]);
        s.end_last();
        assert_eq!(s.script(), ["Turm Anna eins", "1 minute"]);
    }

    #[test]
    fn silence_stops_the_sentence_and_drops_waiting_chatter() {
        let mut s = Sim::new(SpeechMode::Tts);
        s.say(u("a long help text", Priority::Info, SayKind::Info));
        s.say(u("more help", Priority::Info, SayKind::Game));
        s.input(Input::Silence);
        s.advance(Duration::from_secs(5));
        assert_eq!(s.script(), ["a long help text", "STOP"]);
        assert!(s.fell_back().is_empty());
    }

    #[test]
    fn a_hung_engine_is_given_up_once_and_everything_unsaid_is_printed() {
        let mut s = Sim::new(SpeechMode::Tts);
        s.hang_speak = true;
        for i in 0..100 {
            s.say(urgent(&format!("move {i}")));
        }
        s.advance(149 * MS);
        assert!(s.fell_back().is_empty(), "within the call timeout");
        s.advance(MS);
        assert_eq!(s.fell_back().len(), 1);
        assert!(s.fell_back()[0].contains("stopped answering"));
        // Everything unsaid is printed, in order, nothing lost.
        assert_eq!(s.printed.len(), 100);
        assert_eq!(s.printed[0], "move 0");
        assert_eq!(s.printed[99], "move 99");
        // Later sentences are printed at once; no second report while the
        // reconnection attempts keep failing (their speak calls hang too).
        s.say(urgent("Springer Felix drei"));
        assert_eq!(s.printed.len(), 101);
        s.advance(Duration::from_secs(2));
        assert!(s.opens.len() >= 2, "tried to reconnect: {:?}", s.opens);
        assert_eq!(s.fell_back().len(), 1);
    }

    #[test]
    fn engine_that_never_ends_a_sentence_and_then_hangs_is_detected() {
        // The measured daemon hang: the sentence begins, never ends, and
        // every later call blocks.
        let mut s = Sim::new(SpeechMode::Tts);
        s.say(urgent("Springer Felix drei"));
        let id = s.last_id();
        s.emit(BackendEvent::Began(id));
        s.hang_all = true;
        s.say(urgent("Bauer Eva vier"));
        // Begun at t=0, allowed twice its 1 s estimate.
        s.advance(1999 * MS);
        assert!(s.fell_back().is_empty());
        s.advance(MS);
        assert!(s.fell_back()[0].contains("never finished"));
        assert_eq!(s.printed, ["Springer Felix drei", "Bauer Eva vier"]);
    }

    #[test]
    fn the_route_is_told_once_when_the_first_engine_opens() {
        let nvda = SpeechRoute::ScreenReader("NVDA".into());
        let mut s = Sim::with(fast(SpeechMode::Tts), |s| s.route = Some(nvda.clone()));
        s.hang_speak = true;
        s.say(urgent("e4"));
        s.advance(150 * MS);
        let told = |s: &Sim| -> Vec<SpeechRoute> {
            s.reports
                .iter()
                .filter_map(|r| match r {
                    SpeechStatus::Speaking { route } => Some(route.clone()),
                    _ => None,
                })
                .collect()
        };
        assert_eq!(told(&s), std::slice::from_ref(&nvda));
        // The engine hangs, another is opened: the route is not told again.
        assert_eq!(s.fell_back().len(), 1);
        s.release();
        s.events = Events::Auto(5 * MS);
        s.advance(200 * MS);
        assert_eq!(s.opens, [1, 2]);
        s.say(urgent("e5"));
        s.advance(5 * MS);
        assert_eq!(s.reconnected(), 1);
        assert_eq!(told(&s), [nvda]);
    }

    #[test]
    fn an_engine_without_a_route_tells_none() {
        let mut s = Sim::new(SpeechMode::Tts);
        s.events = Events::Auto(5 * MS);
        s.say(urgent("e4"));
        s.advance(10 * MS);
        assert_eq!(s.ended(), ["e4"]);
        assert!(
            !s.reports
                .iter()
                .any(|r| matches!(r, SpeechStatus::Speaking { .. })),
            "{:?}",
            s.reports
        );
    }

    #[test]
    fn reconnects_after_a_hang_and_says_so_once_speech_works() {
        let mut s = Sim::new(SpeechMode::Tts);
        s.hang_speak = true;
        s.say(urgent("e4"));
        s.advance(150 * MS);
        assert_eq!(s.fell_back().len(), 1);
        s.release();
        s.events = Events::Auto(5 * MS);
        // The first retry comes after 200 ms.
        s.advance(199 * MS);
        assert_eq!(s.opens, [1]);
        s.advance(MS);
        assert_eq!(s.opens, [1, 2]);
        s.say(urgent("e5"));
        s.advance(5 * MS);
        assert_eq!(s.reconnected(), 1);
        assert_eq!(s.ended(), ["e5"]);
        assert_eq!(s.printed, ["e4", "e5"], "e5 printed while on probation");
        s.say(urgent("e6"));
        s.advance(5 * MS);
        assert_eq!(s.printed, ["e4", "e5"], "trusted again: e6 spoken only");
        assert_eq!(s.reconnected(), 1);
    }

    #[test]
    fn auto_without_a_service_prints_says_why_once_and_does_not_retry() {
        let mut s = Sim::with(fast(SpeechMode::Auto), |s| {
            s.open = Open::Fail("no speech-dispatcher")
        });
        s.say(urgent("e4"));
        s.say(urgent("e5"));
        assert_eq!(s.fell_back().len(), 1);
        assert!(s.fell_back()[0].contains("no speech-dispatcher"));
        assert_eq!(s.printed, ["e4", "e5"]);
        s.advance(Duration::from_secs(600));
        assert_eq!(s.opens, [1]);
        assert_eq!(s.link.poll_timeout(), None, "nothing left to wait for");
    }

    #[test]
    fn tts_mode_keeps_trying_a_missing_service_with_growing_pauses() {
        let mut s = Sim::with(fast(SpeechMode::Tts), |s| s.open = Open::Fail("down"));
        assert_eq!(s.fell_back().len(), 1);
        // Pauses 200, 400, 400 ms (capped).
        s.advance(200 * MS);
        assert_eq!(s.opens, [1, 2]);
        s.advance(399 * MS);
        assert_eq!(s.opens, [1, 2]);
        s.advance(MS);
        assert_eq!(s.opens, [1, 2, 3]);
        s.advance(400 * MS);
        assert_eq!(s.opens, [1, 2, 3, 4]);
        assert_eq!(s.fell_back().len(), 1, "said once");
    }

    #[test]
    fn an_engine_that_hangs_while_opening_is_given_up() {
        let mut s = Sim::with(fast(SpeechMode::Auto), |s| s.open = Open::Hang);
        s.say(urgent("e4"));
        assert!(s.printed.is_empty(), "held while opening");
        s.advance(300 * MS);
        assert!(s.fell_back()[0].contains("did not answer"));
        assert_eq!(s.printed, ["e4"]);
        assert_eq!(s.abandoned, [1]);
    }

    #[test]
    fn sentences_wait_while_the_engine_opens() {
        let mut s = Sim::with(fast(SpeechMode::Tts), |s| s.open = Open::Hang);
        s.say(urgent("e4"));
        s.advance(50 * MS);
        let info = EngineInfo {
            name: "sim".into(),
            reports_end: true,
            mixes_languages: false,
            route: None,
        };
        s.input(Input::Opened {
            conn: 1,
            result: Ok(info),
        });
        assert_eq!(s.spoken(), ["e4"]);
        assert!(s.printed.is_empty());
    }

    #[test]
    fn stuck_engine_threads_limit_reconnection_attempts() {
        let cfg = LinkConfig {
            max_stuck: 2,
            ..fast(SpeechMode::Tts)
        };
        let mut s = Sim::with(cfg, |s| s.open = Open::Hang);
        s.advance(Duration::from_secs(10));
        assert_eq!(s.opens, [1, 2], "no third thread while two are stuck");
        assert_eq!(s.link.live_engines(), 2);
        // One of them comes back and ends: a new attempt follows.
        s.input(Input::Closed { conn: 1 });
        s.open = Open::Ok;
        s.advance(Duration::from_secs(1));
        assert_eq!(s.opens, [1, 2, 3]);
    }

    #[test]
    fn print_mode_never_opens_an_engine() {
        let mut s = Sim::new(SpeechMode::Print);
        s.say(urgent("e4"));
        s.say(u("help", Priority::Info, SayKind::Info));
        assert_eq!(s.printed, ["e4", "help"]);
        assert!(s.opens.is_empty());
        assert!(s.reports.is_empty());
    }

    #[test]
    fn both_mode_prints_at_once_and_speaks() {
        let mut s = Sim::new(SpeechMode::Both);
        s.say(urgent("e4"));
        s.say(urgent("e5"));
        assert_eq!(s.printed, ["e4", "e5"]);
        assert_eq!(s.spoken(), ["e4"], "e5 waits for e4 to end");
    }

    #[test]
    fn both_mode_does_not_print_twice_on_fall_back() {
        let mut s = Sim::new(SpeechMode::Both);
        s.hang_speak = true;
        s.say(urgent("e4"));
        s.advance(Duration::from_secs(1));
        assert_eq!(s.fell_back().len(), 1);
        assert_eq!(s.printed, ["e4"]);
    }

    #[test]
    fn engine_without_end_events_moves_on_after_the_estimate() {
        let mut s = Sim::with(quick(SpeechMode::Tts), |s| s.events = Events::None);
        s.say(urgent("e4"));
        s.say(urgent("e5"));
        s.advance(49 * MS);
        assert_eq!(s.spoken(), ["e4"]);
        s.advance(MS);
        assert_eq!(s.spoken(), ["e4", "e5"]);
        s.advance(50 * MS);
        assert_eq!(s.ended(), ["e4", "e5"]);
        assert!(s.fell_back().is_empty());
    }

    #[test]
    fn an_engine_that_accepts_sentences_but_never_begins_them_is_given_up() {
        // Measured: speech-dispatcher with its stock configuration and no
        // sound server answers every call but speaks nothing.
        let mut s = Sim::new(SpeechMode::Tts);
        s.say(urgent("e4"));
        s.say(urgent("e5"));
        s.advance(149 * MS);
        assert!(s.fell_back().is_empty());
        s.advance(MS);
        assert!(s.fell_back()[0].contains("does not speak"));
        assert_eq!(s.printed, ["e4", "e5"]);
    }

    #[test]
    fn a_sentence_that_began_may_take_longer_than_its_estimate() {
        let cfg = LinkConfig {
            pace: Pace {
                base: 300 * MS,
                per_char: Duration::ZERO,
            },
            ..fast(SpeechMode::Tts)
        };
        let mut s = Sim::with(cfg, |_| {});
        s.say(urgent("a long sentence"));
        let id = s.last_id();
        s.emit(BackendEvent::Began(id));
        // Past the estimate (300 ms), within twice it.
        s.advance(400 * MS);
        s.emit(BackendEvent::Ended(id));
        assert_eq!(s.ended(), ["a long sentence"]);
        s.say(urgent("e4"));
        assert_eq!(s.spoken().len(), 2);
        assert!(s.printed.is_empty(), "no fall-back");
    }

    #[test]
    fn a_sentence_that_began_and_never_ends_gives_the_engine_up() {
        let mut s = Sim::with(quick(SpeechMode::Tts), |_| {});
        s.say(urgent("e4"));
        let id = s.last_id();
        s.emit(BackendEvent::Began(id));
        s.advance(99 * MS);
        assert!(s.fell_back().is_empty());
        s.advance(MS);
        assert!(s.fell_back()[0].contains("never finished"));
    }

    #[test]
    fn a_reconnected_engine_is_on_probation_and_its_lines_are_printed() {
        let mut s = Sim::with(quick(SpeechMode::Tts), |_| {});
        s.say(urgent("e4"));
        s.advance(150 * MS);
        assert_eq!(s.fell_back().len(), 1);
        assert_eq!(s.printed, ["e4"]);
        // Connection 2 (after 200 ms): still broken (never begins); its
        // sentence is printed at once and not again when it is given up.
        s.advance(200 * MS);
        assert_eq!(s.opens, [1, 2]);
        s.say(urgent("e5"));
        assert_eq!(s.printed, ["e4", "e5"]);
        s.advance(150 * MS);
        assert_eq!(s.printed, ["e4", "e5"]);
        // Connection 3 (after 400 ms) works.
        s.events = Events::Auto(5 * MS);
        s.advance(400 * MS);
        assert_eq!(s.opens, [1, 2, 3]);
        s.say(urgent("e6"));
        s.advance(5 * MS);
        assert_eq!(s.reconnected(), 1);
        s.say(urgent("e7"));
        s.advance(5 * MS);
        assert_eq!(s.ended(), ["e6", "e7"]);
        assert_eq!(s.printed, ["e4", "e5", "e6"], "e7 spoken only");
        assert_eq!(s.fell_back().len(), 1);
    }

    #[test]
    fn engine_events_that_race_the_reply_are_kept_for_it() {
        let mut s = Sim::new(SpeechMode::Tts);
        // The engine answers the speak call late; its begin and end come first.
        s.hang_speak = true;
        s.say(urgent("m1"));
        s.say(urgent("m2"));
        let (conn, seq) = (1, 2); // call 1 applied the settings
        let at = s.now;
        s.input(Input::Engine {
            conn,
            event: BackendEvent::Began(77),
            at,
        });
        s.input(Input::Engine {
            conn,
            event: BackendEvent::Ended(77),
            at,
        });
        s.hang_speak = false;
        let started = Started {
            id: Some(77),
            voice: None,
        };
        s.input(Input::Replied {
            conn,
            seq,
            result: Ok(Reply::Started(started)),
        });
        assert_eq!(s.ended(), ["m1"]);
        assert_eq!(s.spoken(), ["m1", "m2"]);
    }

    #[test]
    fn shutdown_lets_the_sentence_finish_within_grace() {
        let mut s = Sim::with(fast(SpeechMode::Tts), |s| s.events = Events::Auto(100 * MS));
        s.say(urgent("Matt"));
        s.input(Input::Shutdown(Duration::from_secs(2)));
        assert!(!s.link.is_done());
        s.advance(100 * MS);
        assert!(s.link.is_done());
        assert_eq!(s.ended(), ["Matt"]);
        assert_eq!(s.script(), ["Matt"], "not cut off");
    }

    /// Issue 18: with a daemon that takes sentences and never speaks them,
    /// a piped `quit` waited the whole grace (2.3 s measured).
    #[test]
    fn an_engine_that_never_spoke_is_not_waited_for_at_the_end() {
        // The real timeouts: a sentence that never begins is given up
        // after the call timeout (2 s).
        let cfg = LinkConfig {
            mode: SpeechMode::Tts,
            ..LinkConfig::default()
        };
        let mut s = Sim::with(cfg, |s| s.events = Events::Manual);
        s.say(urgent("Goodbye."));
        s.input(Input::Shutdown(Duration::from_secs(3)));
        s.advance(UNPROVEN_GRACE - MS);
        assert!(!s.link.is_done());
        s.advance(MS);
        assert!(s.link.is_done());
        // An engine that has spoken gets the whole grace.
        let cfg = LinkConfig {
            mode: SpeechMode::Tts,
            ..LinkConfig::default()
        };
        let mut s = Sim::with(cfg, |s| s.events = Events::Auto(100 * MS));
        s.say(urgent("New game."));
        s.advance(200 * MS);
        s.events = Events::Manual;
        s.say(urgent("Goodbye."));
        s.input(Input::Shutdown(Duration::from_secs(3)));
        s.advance(UNPROVEN_GRACE);
        assert!(!s.link.is_done());
    }

    #[test]
    fn shutdown_stops_speech_when_the_grace_is_over() {
        let mut s = Sim::new(SpeechMode::Tts);
        s.say(urgent("Matt"));
        let id = s.last_id();
        s.emit(BackendEvent::Began(id));
        s.input(Input::Shutdown(Duration::from_millis(500)));
        s.advance(500 * MS);
        assert!(s.link.is_done());
        assert_eq!(s.script(), ["Matt", "STOP"]);
        assert_eq!(s.link.poll_timeout(), None);
    }

    #[test]
    fn a_given_up_engine_gets_no_more_calls() {
        let mut s = Sim::new(SpeechMode::Tts);
        s.hang_speak = true;
        s.say(u("help", Priority::Info, SayKind::Info));
        // Interrupts: a stop and a speak for the stuck engine.
        s.say(urgent("e4"));
        s.advance(150 * MS);
        assert_eq!(s.fell_back().len(), 1);
        let before = s.calls.len();
        s.release();
        s.say(urgent("e5"));
        assert!(
            s.calls[before..].iter().all(|(c, _)| *c != 1),
            "{:?}",
            s.calls
        );
        assert_eq!(s.abandoned, [1]);
    }

    #[test]
    fn every_fall_back_has_a_reason_for_the_player() {
        let reason = |s: &Sim| {
            s.reports.iter().find_map(|r| match r {
                SpeechStatus::FellBack { reason, .. } => Some(*reason),
                _ => None,
            })
        };
        let mut s = Sim::with(fast(SpeechMode::Auto), |s| s.open = Open::Fail("gone"));
        assert_eq!(reason(&s), Some(FallBack::Unavailable));
        s = Sim::with(fast(SpeechMode::Auto), |s| s.open = Open::Hang);
        s.advance(300 * MS);
        assert_eq!(reason(&s), Some(FallBack::NoAnswer));
        s = Sim::new(SpeechMode::Tts);
        s.hang_speak = true;
        s.say(urgent("e4"));
        s.advance(150 * MS);
        assert_eq!(reason(&s), Some(FallBack::NoAnswer));
        s = Sim::new(SpeechMode::Tts);
        s.say(urgent("e4"));
        s.advance(150 * MS);
        assert_eq!(reason(&s), Some(FallBack::Silent));
        s = Sim::new(SpeechMode::Tts);
        s.say(urgent("e4"));
        let id = s.last_id();
        s.emit(BackendEvent::Began(id));
        s.advance(Duration::from_secs(2));
        assert_eq!(reason(&s), Some(FallBack::Unfinished));
        s = Sim::new(SpeechMode::Tts);
        s.input(Input::Closed { conn: 1 });
        assert_eq!(reason(&s), Some(FallBack::Failed));
    }

    #[test]
    fn an_engine_thread_that_dies_is_a_fall_back() {
        let mut s = Sim::new(SpeechMode::Tts);
        s.say(urgent("e4"));
        s.input(Input::Closed { conn: 1 });
        assert!(s.fell_back()[0].contains("the speech thread ended"));
        assert_eq!(s.printed, ["e4"]);
    }

    #[test]
    fn a_mixed_sentence_is_one_call_to_an_engine_that_mixes_languages() {
        let mut s = Sim::with(fast(SpeechMode::Tts), |s| s.mixes = true);
        s.say(attacked());
        assert_eq!(
            s.script(),
            ["[de]Felix sechs|[en] is attacked by |[de]Springer Gustav acht|[en]."]
        );
        s.end_last();
        assert_eq!(
            s.ended(),
            ["Felix sechs is attacked by Springer Gustav acht."]
        );
    }

    #[test]
    fn a_mixed_sentence_is_spoken_part_by_part_and_kept_together() {
        let mut s = Sim::new(SpeechMode::Tts);
        s.say(attacked());
        // Sentences that arrive meanwhile wait for the whole sentence: a
        // newer one of the same kind does not collapse it.
        s.say(u("help", Priority::Info, SayKind::Info));
        s.say(u("illegal", Priority::Normal, SayKind::Error));
        s.say(u(
            "Felix sechs is defended",
            Priority::Normal,
            SayKind::Info,
        ));
        assert_eq!(s.script(), ["Felix sechs"]);
        s.end_last();
        assert_eq!(s.script(), ["Felix sechs", "is attacked by"]);
        s.end_last();
        assert_eq!(
            s.script(),
            ["Felix sechs", "is attacked by", "Springer Gustav acht"]
        );
        let langs: Vec<&str> = s
            .calls
            .iter()
            .filter_map(|(_, c)| match c {
                Call::Speak { lang, .. } => Some(lang.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(langs, ["de", "en", "de"]);
        assert!(s.ended().is_empty(), "one sentence until its last part");
        let began = s
            .reports
            .iter()
            .filter(|r| matches!(r, SpeechStatus::Began { .. }))
            .count();
        assert_eq!(began, 1);
        s.end_last();
        assert_eq!(
            s.ended(),
            ["Felix sechs is attacked by Springer Gustav acht."]
        );
        s.end_last();
        s.end_last();
        assert_eq!(s.spoken()[3..], ["illegal", "Felix sechs is defended"]);
    }

    #[test]
    fn interrupting_a_mixed_sentence_drops_its_remaining_parts() {
        let mut s = Sim::new(SpeechMode::Tts);
        s.say(attacked());
        s.end_last();
        s.say(urgent("Dame David acht"));
        s.end_last();
        s.advance(Duration::from_secs(5));
        assert_eq!(
            s.script(),
            ["Felix sechs", "is attacked by", "STOP", "Dame David acht"]
        );
    }

    #[test]
    fn each_part_of_a_mixed_sentence_is_watched_for_a_hang() {
        let mut s = Sim::new(SpeechMode::Tts);
        s.say(attacked());
        s.end_last();
        // The second part is accepted but never begins.
        s.advance(150 * MS);
        assert!(s.fell_back()[0].contains("does not speak"));
        assert_eq!(
            s.printed,
            ["Felix sechs is attacked by Springer Gustav acht."]
        );
    }
}
