//! The speech worker: one thread that schedules sentences ([`SpeechQueue`]) and
//! talks to the speech engine, so that the game never waits on speech.
//!
//! ```text
//! app ──SpeechHandle::say──▶ worker thread ──calls──▶ engine thread (owns the backend)
//!                             ▲   │                      │
//!                             └───┼── replies, begin/end ┘
//!                                 └──▶ SpeechStatus (fell back, reconnected, began, ended)
//! ```
//!
//! The engine lives on its own thread and the worker waits for its answers
//! with deadlines: an engine that stops answering (speech-dispatcher hangs
//! without a sound server) is abandoned, the worker prints instead, tells the
//! user once, and later tries a fresh connection with growing pauses.

use std::collections::VecDeque;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use super::backend::{
    BackendEvent, BackendFactory, EventSink, SpeechError, SpeechSettings, Started, VoiceInfo,
};
use super::queue::{Action, QueuePolicy, SpeechQueue};
use super::{Priority, SayKind, Utterance};

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
    FellBack { why: String },
    /// Speech works again after a fall-back (sent when a sentence has been
    /// spoken through the new connection).
    Reconnected { backend: String },
    /// The engine began speaking a sentence (`at`: when the engine said so).
    Began {
        utterance: Utterance,
        voice: Option<String>,
        at: Instant,
    },
    /// The engine finished or cut off a sentence.
    Ended { utterance: Utterance, at: Instant },
}

/// Receives [`SpeechStatus`] reports, on the worker thread: must not block.
pub type StatusSink = Arc<dyn Fn(SpeechStatus) + Send + Sync>;
/// Receives printed lines, on the worker thread: must not block.
pub type LineSink = Arc<dyn Fn(&str) + Send + Sync>;

/// How the worker runs.
#[derive(Clone)]
pub struct WorkerConfig {
    pub mode: SpeechMode,
    pub settings: SpeechSettings,
    pub policy: QueuePolicy,
    /// Longest wait for one engine call (speak, stop, settings).
    pub call_timeout: Duration,
    /// Longest wait for the engine to open.
    pub open_timeout: Duration,
    /// First pause before reconnecting; doubles up to `retry_max`.
    pub retry_first: Duration,
    pub retry_max: Duration,
    /// Abandoned engine threads still stuck in a call; no new connection is
    /// tried while this many remain.
    pub max_stuck: usize,
    /// Where lines go in print mode and while speech has fallen back.
    /// `None`: the front end shows every line itself (line mode), print nothing.
    pub print: Option<LineSink>,
}

impl Default for WorkerConfig {
    fn default() -> Self {
        WorkerConfig {
            mode: SpeechMode::Auto,
            settings: SpeechSettings::default(),
            policy: QueuePolicy::default(),
            call_timeout: Duration::from_secs(2),
            open_timeout: Duration::from_secs(5),
            retry_first: Duration::from_secs(5),
            retry_max: Duration::from_secs(300),
            max_stuck: 3,
            print: None,
        }
    }
}

impl fmt::Debug for WorkerConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WorkerConfig")
            .field("mode", &self.mode)
            .field("settings", &self.settings)
            .field("call_timeout", &self.call_timeout)
            .field("open_timeout", &self.open_timeout)
            .field("print", &self.print.is_some())
            .finish_non_exhaustive()
    }
}

/// The backend for this platform: speech-dispatcher on Linux, the `tts`
/// crate's default elsewhere (Tolk/WinRT on Windows, AVFoundation on macOS).
pub fn system_factory() -> BackendFactory {
    Arc::new(|sink: EventSink| {
        #[cfg(target_os = "linux")]
        let backend = super::sd::SpeechDispatcherBackend::open(sink)?;
        #[cfg(not(target_os = "linux"))]
        let backend = super::tts_backend::TtsBackend::open(sink)?;
        Ok(Box::new(backend) as Box<dyn super::backend::SpeechBackend>)
    })
}

/// The `tts` crate's default backend on every platform (on Linux it, too,
/// reaches speech-dispatcher, but switches voices slowly).
pub fn tts_crate_factory() -> BackendFactory {
    Arc::new(|sink: EventSink| {
        Ok(Box::new(super::tts_backend::TtsBackend::open(sink)?)
            as Box<dyn super::backend::SpeechBackend>)
    })
}

enum Event {
    Say(Utterance),
    Silence,
    Settings(SpeechSettings),
    Shutdown(Duration),
    Opened {
        generation: u64,
        result: Result<Opened, SpeechError>,
    },
    Reply {
        generation: u64,
        seq: u64,
        result: Result<Reply, SpeechError>,
    },
    Backend {
        generation: u64,
        event: BackendEvent,
        at: Instant,
    },
}

struct Opened {
    name: String,
    reports_end: bool,
}

enum Call {
    Speak { text: String, lang: String },
    Stop,
    Settings(SpeechSettings),
}

enum Reply {
    Started(Started),
    Done,
}

/// The app's side of the worker: cheap to clone; never blocks.
#[derive(Clone)]
pub struct SpeechHandle {
    tx: Sender<Event>,
}

impl SpeechHandle {
    /// Queue a sentence.  Returns at once, whatever the engine does.
    pub fn say(&self, utterance: Utterance) {
        // A worker that has shut down has nothing left to say.
        let _ = self.tx.send(Event::Say(utterance));
    }

    /// Silence the sentence being spoken (and waiting ones that are not urgent).
    pub fn silence(&self) {
        let _ = self.tx.send(Event::Silence);
    }

    /// Change rate, pitch and volume.
    pub fn set_settings(&self, settings: SpeechSettings) {
        let _ = self.tx.send(Event::Settings(settings));
    }
}

/// The running worker.  Dropping it stops speech at once; see
/// [`shutdown`](Self::shutdown) to let the last sentence finish.
pub struct SpeechWorker {
    handle: SpeechHandle,
    join: Option<JoinHandle<()>>,
}

impl SpeechWorker {
    /// Start the worker with the engines `factory` creates.  Returns at once;
    /// the engine is opened on its own thread.
    pub fn spawn(config: WorkerConfig, factory: BackendFactory, status: StatusSink) -> Self {
        let (tx, rx) = mpsc::channel();
        let handle = SpeechHandle { tx: tx.clone() };
        let worker = Worker::new(config, factory, status, tx);
        let join = thread::Builder::new()
            .name("hector-speech".into())
            .spawn(move || worker.run(rx))
            .ok();
        SpeechWorker { handle, join }
    }

    /// Start the worker with this platform's speech service.
    pub fn spawn_system(config: WorkerConfig, status: StatusSink) -> Self {
        Self::spawn(config, system_factory(), status)
    }

    /// A handle for the app.
    pub fn handle(&self) -> SpeechHandle {
        self.handle.clone()
    }

    /// Let speech finish for at most `grace`, then stop the worker.
    pub fn shutdown(mut self, grace: Duration) {
        self.stop(grace);
    }

    fn stop(&mut self, grace: Duration) {
        let _ = self.handle.tx.send(Event::Shutdown(grace));
        if let Some(join) = self.join.take() {
            // The worker thread never blocks on the engine, so this returns
            // within `grace` plus a moment.
            let _ = join.join();
        }
    }
}

impl Drop for SpeechWorker {
    fn drop(&mut self) {
        self.stop(Duration::ZERO);
    }
}

/// Counts engine threads that are alive; decremented when one ends.
struct AliveGuard(Arc<AtomicUsize>);

impl Drop for AliveGuard {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The worker's end of one engine thread.
struct EngineLink {
    generation: u64,
    calls: Sender<(u64, Call)>,
}

fn spawn_engine(
    generation: u64,
    factory: BackendFactory,
    to_worker: Sender<Event>,
    alive: &Arc<AtomicUsize>,
) -> EngineLink {
    let (calls, rx) = mpsc::channel::<(u64, Call)>();
    alive.fetch_add(1, Ordering::SeqCst);
    let guard = AliveGuard(alive.clone());
    let on_fail = to_worker.clone();
    let spawned = thread::Builder::new()
        .name(format!("hector-speech-engine-{generation}"))
        .spawn(move || {
            let _guard = guard;
            let events = to_worker.clone();
            let sink = EventSink::new(move |event, at| {
                let _ = events.send(Event::Backend {
                    generation,
                    event,
                    at,
                });
            });
            let mut backend = match factory(sink) {
                Ok(b) => b,
                Err(e) => {
                    let _ = to_worker.send(Event::Opened {
                        generation,
                        result: Err(e),
                    });
                    return;
                }
            };
            let opened = Opened {
                name: backend.name(),
                reports_end: backend.reports_end(),
            };
            let _ = to_worker.send(Event::Opened {
                generation,
                result: Ok(opened),
            });
            for (seq, call) in rx {
                let result = match call {
                    Call::Speak { text, lang } => backend.speak(&text, &lang).map(Reply::Started),
                    Call::Stop => backend.stop().map(|_| Reply::Done),
                    Call::Settings(s) => backend.apply_settings(&s).map(|_| Reply::Done),
                };
                let reply = Event::Reply {
                    generation,
                    seq,
                    result,
                };
                if to_worker.send(reply).is_err() {
                    break;
                }
            }
        });
    if let Err(e) = spawned {
        // The closure (and the guard) were dropped; tell the worker now.
        let _ = on_fail.send(Event::Opened {
            generation,
            result: Err(SpeechError::Unavailable(format!("no thread: {e}"))),
        });
    }
    EngineLink { generation, calls }
}

/// How often an engine that answers but reports no end is asked again
/// before the sentence is taken as finished.
const MAX_CHECKS: u32 = 2;
/// Begin/end events kept while the answer to `speak` is on its way.
const MAX_EARLY: usize = 32;

/// What to do once the borrow of the link has ended.
enum Next {
    Nothing,
    Replay(Vec<(BackendEvent, Instant)>),
    Report(SpeechStatus),
    Finish,
    FallBack(String),
}

/// The sentence the engine is speaking.
struct Speaking {
    utterance: Utterance,
    seq: u64,
    replied: bool,
    id: Option<u64>,
    voice: Option<String>,
    began: bool,
    /// When to check on the engine (or, without end events, take it as ended).
    check_at: Instant,
    checks: u32,
    probe: Option<u64>,
}

struct Up {
    engine: EngineLink,
    name: String,
    reports_end: bool,
    next_seq: u64,
    /// Calls not answered yet: (seq, deadline, what).
    inflight: Vec<(u64, Instant, &'static str)>,
    speaking: Option<Speaking>,
    early: Vec<(BackendEvent, Instant)>,
    /// This connection came from a retry: report Reconnected on first success.
    retried: bool,
}

impl Up {
    fn call(&mut self, call: Call, what: &'static str, deadline: Instant) -> Result<u64, ()> {
        self.next_seq += 1;
        let seq = self.next_seq;
        self.engine.calls.send((seq, call)).map_err(|_| ())?;
        self.inflight.push((seq, deadline, what));
        Ok(seq)
    }
}

enum Link {
    /// Print only, never connect.
    Off,
    /// Opening the first connection; sentences wait.
    Starting {
        engine: EngineLink,
        deadline: Instant,
        held: Vec<Utterance>,
    },
    Up(Box<Up>),
    /// Fallen back: print; try a new connection at `retry_at`.
    Down {
        retry_at: Instant,
        probe: Option<(EngineLink, Instant)>,
    },
}

struct Worker {
    cfg: WorkerConfig,
    settings: SpeechSettings,
    factory: BackendFactory,
    status: StatusSink,
    tx: Sender<Event>,
    queue: SpeechQueue,
    link: Link,
    next_generation: u64,
    alive: Arc<AtomicUsize>,
    backoff: Duration,
    /// A fall-back was reported and speech has not worked since.
    in_episode: bool,
    exit_at: Option<Instant>,
}

/// How long a sentence may take to speak before the worker checks on the
/// engine: generous (1 s plus 100 ms a character, more at slow rates).
pub fn estimate_duration(text: &str, settings: &SpeechSettings) -> Duration {
    let s = settings.clamped();
    let slow = 1.0 + 2.0 * (-s.rate).max(0.0);
    let chars = text.chars().count() as f32;
    Duration::from_secs_f32((1.0 + 0.1 * chars) * slow)
}

impl Worker {
    fn new(
        cfg: WorkerConfig,
        factory: BackendFactory,
        status: StatusSink,
        tx: Sender<Event>,
    ) -> Self {
        let now = Instant::now();
        let alive = Arc::new(AtomicUsize::new(0));
        let link = if cfg.mode == SpeechMode::Print {
            Link::Off
        } else {
            Link::Starting {
                engine: spawn_engine(1, factory.clone(), tx.clone(), &alive),
                deadline: now + cfg.open_timeout,
                held: Vec::new(),
            }
        };
        Worker {
            settings: cfg.settings.clamped(),
            queue: SpeechQueue::new(cfg.policy),
            backoff: cfg.retry_first,
            cfg,
            factory,
            status,
            tx,
            link,
            next_generation: 2,
            alive,
            in_episode: false,
            exit_at: None,
        }
    }

    fn run(mut self, rx: Receiver<Event>) {
        loop {
            let now = Instant::now();
            self.tick(now);
            if self.should_exit(now) {
                break;
            }
            let event = match self.next_deadline() {
                Some(at) => rx.recv_timeout(at.saturating_duration_since(Instant::now())),
                None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
            };
            match event {
                Ok(event) => self.handle(event, Instant::now()),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
        if let Link::Up(up) = &mut self.link
            && up.speaking.is_some()
        {
            // Best effort: nobody waits for the answer.
            let _ = up.engine.calls.send((0, Call::Stop));
        }
    }

    fn should_exit(&self, now: Instant) -> bool {
        match self.exit_at {
            None => false,
            Some(at) => {
                now >= at
                    || (self.queue.is_idle() && !matches!(self.link, Link::Starting { .. }))
            }
        }
    }

    fn next_deadline(&self) -> Option<Instant> {
        let link = match &self.link {
            Link::Off => None,
            Link::Starting { deadline, .. } => Some(*deadline),
            Link::Down { retry_at, probe } => match probe {
                Some((_, deadline)) => Some(*deadline),
                None => Some(*retry_at),
            },
            Link::Up(up) => {
                let calls = up.inflight.iter().map(|(_, d, _)| *d).min();
                let check = up
                    .speaking
                    .as_ref()
                    .filter(|s| s.probe.is_none())
                    .map(|s| s.check_at);
                calls.into_iter().chain(check).min()
            }
        };
        link.into_iter().chain(self.exit_at).min()
    }

    fn print(&self, text: &str) {
        if let Some(print) = &self.cfg.print {
            print(text);
        }
    }

    /// Lines are printed when they arrive (mode `both`), not when spoken.
    fn prints_on_say(&self) -> bool {
        self.cfg.mode == SpeechMode::Both
    }

    fn handle(&mut self, event: Event, now: Instant) {
        match event {
            Event::Say(u) => {
                if self.prints_on_say() {
                    self.print(&u.text);
                }
                if let Link::Starting { held, .. } = &mut self.link {
                    held.push(u);
                } else {
                    let actions = self.queue.push(u, now);
                    self.run_actions(actions, now);
                }
            }
            Event::Silence => {
                if let Link::Starting { held, .. } = &mut self.link {
                    held.retain(|u| u.priority == Priority::Urgent);
                } else {
                    let actions = self.queue.silence(now);
                    self.run_actions(actions, now);
                }
            }
            Event::Settings(s) => {
                self.settings = s.clamped();
                let deadline = now + self.cfg.call_timeout;
                if let Link::Up(up) = &mut self.link
                    && up.call(Call::Settings(self.settings), "settings", deadline).is_err()
                {
                    self.fall_back("the speech thread ended".into(), true, now);
                }
            }
            Event::Shutdown(grace) => self.exit_at = Some(now + grace),
            Event::Opened { generation, result } => self.opened(generation, result, now),
            Event::Reply {
                generation,
                seq,
                result,
            } => self.reply(generation, seq, result, now),
            Event::Backend {
                generation,
                event,
                at,
            } => self.backend_event(generation, event, at, now),
        }
    }

    fn opened(&mut self, generation: u64, result: Result<Opened, SpeechError>, now: Instant) {
        let starting = match &self.link {
            Link::Starting { engine, .. } if engine.generation == generation => true,
            Link::Down {
                probe: Some((engine, _)),
                ..
            } if engine.generation == generation => false,
            _ => return, // an abandoned connection answering late
        };
        let old = std::mem::replace(&mut self.link, Link::Off);
        let (engine, held) = match old {
            Link::Starting { engine, held, .. } => (engine, held),
            Link::Down {
                probe: Some((engine, _)),
                ..
            } => (engine, Vec::new()),
            other => {
                self.link = other;
                return;
            }
        };
        match result {
            Ok(opened) => {
                let mut up = Box::new(Up {
                    engine,
                    name: opened.name,
                    reports_end: opened.reports_end,
                    next_seq: 0,
                    inflight: Vec::new(),
                    speaking: None,
                    early: Vec::new(),
                    retried: !starting,
                });
                let sent = up.call(
                    Call::Settings(self.settings),
                    "settings",
                    now + self.cfg.call_timeout,
                );
                self.link = Link::Up(up);
                if sent.is_err() {
                    self.fall_back("the speech thread ended".into(), true, now);
                }
            }
            Err(e) if starting => {
                let retry = self.cfg.mode != SpeechMode::Auto;
                self.fall_back(e.to_string(), retry, now);
            }
            Err(_) => self.retry_later(now),
        }
        for u in held {
            let actions = self.queue.push(u, now);
            self.run_actions(actions, now);
        }
    }

    fn retry_later(&mut self, now: Instant) {
        self.link = Link::Down {
            retry_at: now + self.backoff,
            probe: None,
        };
        self.backoff = (self.backoff * 2).min(self.cfg.retry_max);
    }

    fn reply(
        &mut self,
        generation: u64,
        seq: u64,
        result: Result<Reply, SpeechError>,
        now: Instant,
    ) {
        let estimate = |u: &Utterance| estimate_duration(&u.text, &self.settings);
        let next = {
            let Link::Up(up) = &mut self.link else {
                return;
            };
            let up: &mut Up = up;
            if up.engine.generation != generation {
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
                    sp.voice = started.voice;
                    match (up.reports_end, sp.id) {
                        (true, Some(id)) => Next::Replay(
                            std::mem::take(&mut up.early)
                                .into_iter()
                                .filter(|(e, _)| event_id(*e) == id)
                                .collect(),
                        ),
                        _ => {
                            // No events for this sentence: it begins now and
                            // ends when the estimate runs out.
                            sp.began = true;
                            sp.check_at = now + estimate(&sp.utterance);
                            Next::Report(SpeechStatus::Began {
                                utterance: sp.utterance.clone(),
                                voice: sp.voice.clone(),
                                at: now,
                            })
                        }
                    }
                }
                Ok(Reply::Done) if sp.probe == Some(seq) => {
                    // The engine answers; the sentence is just long (or its
                    // end event got lost: after MAX_CHECKS, take it as done).
                    sp.probe = None;
                    sp.checks += 1;
                    if sp.checks >= MAX_CHECKS {
                        Next::Finish
                    } else {
                        sp.check_at = now + estimate(&sp.utterance);
                        Next::Nothing
                    }
                }
                Err(e) if sp.seq == seq => Next::FallBack(e.to_string()),
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
            Next::Report(status) => (self.status)(status),
            Next::Finish => self.finish_current(now, now),
            Next::FallBack(why) => self.fall_back(why, true, now),
        }
    }

    fn backend_event(&mut self, generation: u64, event: BackendEvent, at: Instant, now: Instant) {
        let Link::Up(up) = &mut self.link else {
            return;
        };
        if up.engine.generation != generation {
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
        let Link::Up(up) = &mut self.link else {
            return;
        };
        let Some(sp) = up.speaking.as_mut() else {
            return;
        };
        match event {
            BackendEvent::Began(_) => {
                if !sp.began {
                    sp.began = true;
                    (self.status)(SpeechStatus::Began {
                        utterance: sp.utterance.clone(),
                        voice: sp.voice.clone(),
                        at,
                    });
                }
            }
            BackendEvent::Ended(_) | BackendEvent::Stopped(_) => self.finish_current(now, at),
        }
    }

    /// The engine is done with the current sentence: report, start the next.
    fn finish_current(&mut self, now: Instant, at: Instant) {
        let Link::Up(up) = &mut self.link else {
            return;
        };
        let Some(sp) = up.speaking.take() else {
            return;
        };
        up.early.clear();
        (self.status)(SpeechStatus::Ended {
            utterance: sp.utterance,
            at,
        });
        if up.retried {
            up.retried = false;
            self.backoff = self.cfg.retry_first;
            if self.in_episode {
                self.in_episode = false;
                (self.status)(SpeechStatus::Reconnected {
                    backend: up.name.clone(),
                });
            }
        }
        let actions = self.queue.finished(now);
        self.run_actions(actions, now);
    }

    fn tick(&mut self, now: Instant) {
        let next = match &mut self.link {
            Link::Off => Next::Nothing,
            Link::Starting { deadline, .. } if now >= *deadline => {
                let why = format!(
                    "the speech service did not answer within {} s",
                    self.cfg.open_timeout.as_secs_f32()
                );
                let held = match std::mem::replace(&mut self.link, Link::Off) {
                    Link::Starting { held, .. } => held,
                    _ => Vec::new(),
                };
                self.fall_back(why, true, now);
                for u in held {
                    let actions = self.queue.push(u, now);
                    self.run_actions(actions, now);
                }
                Next::Nothing
            }
            Link::Starting { .. } => Next::Nothing,
            Link::Down { probe, .. } if probe.as_ref().is_some_and(|(_, d)| now >= *d) => {
                self.retry_later(now);
                Next::Nothing
            }
            Link::Down { retry_at, probe } => {
                if probe.is_none() && now >= *retry_at {
                    if self.alive.load(Ordering::SeqCst) >= self.cfg.max_stuck {
                        *retry_at = now + self.backoff;
                    } else {
                        let generation = self.next_generation;
                        self.next_generation += 1;
                        let engine = spawn_engine(
                            generation,
                            self.factory.clone(),
                            self.tx.clone(),
                            &self.alive,
                        );
                        *probe = Some((engine, now + self.cfg.open_timeout));
                    }
                }
                Next::Nothing
            }
            Link::Up(up) => Self::check_up(up, &self.settings, self.cfg.call_timeout, now),
        };
        self.then(next, now);
    }

    /// Deadlines of a working connection: unanswered calls, overlong sentences.
    fn check_up(up: &mut Up, settings: &SpeechSettings, call_timeout: Duration, now: Instant) -> Next {
        if let Some((_, _, what)) = up.inflight.iter().find(|(_, d, _)| now >= *d) {
            return Next::FallBack(SpeechError::Timeout(what).to_string());
        }
        let Some(sp) = up.speaking.as_mut() else {
            return Next::Nothing;
        };
        if sp.probe.is_some() || now < sp.check_at {
            return Next::Nothing;
        }
        if !up.reports_end || (sp.replied && sp.id.is_none()) {
            return Next::Finish;
        }
        // Still speaking long after it should have ended: is the engine
        // alive?  Ask something harmless.
        up.next_seq += 1;
        let seq = up.next_seq;
        sp.probe = Some(seq);
        if up.engine.calls.send((seq, Call::Settings(*settings))).is_err() {
            return Next::FallBack("the speech thread ended".into());
        }
        up.inflight.push((seq, now + call_timeout, "check"));
        Next::Nothing
    }

    /// Speech failed: abandon the engine, print what it had not said, tell
    /// the user (once), and reconnect later if `retry`.
    fn fall_back(&mut self, why: String, retry: bool, now: Instant) {
        // Dropping the link closes the engine's call channel: a thread stuck
        // in a call stays stuck (counted in `alive`), a free one ends.
        self.link = Link::Off;
        if retry {
            self.retry_later(now);
        }
        if !self.in_episode {
            self.in_episode = true;
            (self.status)(SpeechStatus::FellBack { why });
        }
        let unsaid = self.queue.drain();
        for u in unsaid {
            let actions = self.queue.push(u, now);
            self.run_actions(actions, now);
        }
    }

    fn run_actions(&mut self, actions: Vec<Action>, now: Instant) {
        let mut todo: VecDeque<Action> = actions.into();
        while let Some(action) = todo.pop_front() {
            let deadline = now + self.cfg.call_timeout;
            match (&mut self.link, action) {
                (Link::Up(up), Action::Stop) => {
                    up.speaking = None;
                    up.early.clear();
                    if up.call(Call::Stop, "stop", deadline).is_err() {
                        self.fall_back("the speech thread ended".into(), true, now);
                        return;
                    }
                }
                (Link::Up(up), Action::Speak(u)) => {
                    let call = Call::Speak {
                        text: u.text.clone(),
                        lang: u.lang.clone(),
                    };
                    let check_at = deadline + estimate_duration(&u.text, &self.settings);
                    match up.call(call, "speak", deadline) {
                        Ok(seq) => {
                            up.early.clear();
                            up.speaking = Some(Speaking {
                                utterance: u,
                                seq,
                                replied: false,
                                id: None,
                                voice: None,
                                began: false,
                                check_at,
                                checks: 0,
                                probe: None,
                            });
                        }
                        Err(()) => {
                            self.fall_back("the speech thread ended".into(), true, now);
                            return;
                        }
                    }
                }
                (_, Action::Stop) => {}
                (_, Action::Speak(u)) => {
                    if !self.prints_on_say() {
                        self.print(&u.text);
                    }
                    todo.extend(self.queue.finished(now));
                }
            }
        }
    }
}

fn event_id(event: BackendEvent) -> u64 {
    match event {
        BackendEvent::Began(id) | BackendEvent::Ended(id) | BackendEvent::Stopped(id) => id,
    }
}

/// Run `f` with a fresh backend on its own thread, giving up after `timeout`
/// (the thread is then left behind, stuck in the hung engine).
fn with_backend<T: Send + 'static>(
    factory: BackendFactory,
    timeout: Duration,
    what: &'static str,
    f: impl FnOnce(&mut dyn super::backend::SpeechBackend) -> Result<T, SpeechError>
    + Send
    + 'static,
) -> Result<T, SpeechError> {
    let (tx, rx) = mpsc::channel();
    thread::Builder::new()
        .name("hector-speech-once".into())
        .spawn(move || {
            let result = factory(EventSink::new(|_, _| {})).and_then(|mut b| f(b.as_mut()));
            let _ = tx.send(result);
        })
        .map_err(|e| SpeechError::Unavailable(format!("no thread: {e}")))?;
    rx.recv_timeout(timeout)
        .unwrap_or(Err(SpeechError::Timeout(what)))
}

/// The voices of this platform's speech service (`hector voices`).  Blocks
/// up to 20 s: espeak-ng lists about 13 000 voices in 1.5 s.
pub fn list_voices() -> Result<Vec<VoiceInfo>, SpeechError> {
    list_voices_with(system_factory(), Duration::from_secs(20))
}

/// [`list_voices`] with any backend.
pub fn list_voices_with(
    factory: BackendFactory,
    timeout: Duration,
) -> Result<Vec<VoiceInfo>, SpeechError> {
    with_backend(factory, timeout, "voices", |b| b.voices())
}

/// Speak one sentence and wait until it has been spoken (`hector say`).
pub fn say_once(text: &str, lang: &str, settings: SpeechSettings) -> Result<(), SpeechError> {
    say_once_with(system_factory(), text, lang, settings)
}

/// [`say_once`] with any backend.
pub fn say_once_with(
    factory: BackendFactory,
    text: &str,
    lang: &str,
    settings: SpeechSettings,
) -> Result<(), SpeechError> {
    let (tx, rx) = mpsc::channel();
    let status: StatusSink = Arc::new(move |s| {
        let _ = tx.send(s);
    });
    let config = WorkerConfig {
        mode: SpeechMode::Tts,
        settings,
        retry_first: Duration::from_secs(3600),
        ..WorkerConfig::default()
    };
    let limit = config.open_timeout
        + config.call_timeout * 3
        + estimate_duration(text, &settings) * (MAX_CHECKS + 1);
    let worker = SpeechWorker::spawn(config, factory, status);
    worker.handle().say(Utterance {
        text: text.to_owned(),
        lang: lang.to_owned(),
        priority: Priority::Urgent,
        kind: SayKind::Info,
    });
    let deadline = Instant::now() + limit;
    let result = loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(SpeechStatus::Ended { .. }) => break Ok(()),
            Ok(SpeechStatus::FellBack { why }) => break Err(SpeechError::Unavailable(why)),
            Ok(_) => {}
            Err(_) => break Err(SpeechError::Timeout("say")),
        }
    };
    worker.shutdown(Duration::ZERO);
    result
}
