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
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
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
    /// How long sentences take.
    pub pace: Pace,
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
            pace: Pace::default(),
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

/// The worker's end of one engine thread.  Dropping it abandons the engine:
/// the thread stops speech and ends as soon as its current call returns,
/// without running the calls still queued for it (a daemon that comes back
/// from a hang must not read out minutes-old sentences).
struct EngineLink {
    generation: u64,
    calls: Sender<(u64, Call)>,
    abandoned: Arc<AtomicBool>,
}

impl Drop for EngineLink {
    fn drop(&mut self) {
        self.abandoned.store(true, Ordering::SeqCst);
    }
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
    let abandoned = Arc::new(AtomicBool::new(false));
    let flag = abandoned.clone();
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
                if flag.load(Ordering::SeqCst) {
                    break;
                }
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
            if flag.load(Ordering::SeqCst) {
                // Abandoned (perhaps while stuck in a call that has now
                // returned): silence what that call may have started.
                let _ = backend.stop();
            }
        });
    if let Err(e) = spawned {
        // The closure (and the guard) were dropped; tell the worker now.
        let _ = on_fail.send(Event::Opened {
            generation,
            result: Err(SpeechError::Unavailable(format!("no thread: {e}"))),
        });
    }
    EngineLink {
        generation,
        calls,
        abandoned,
    }
}

/// A sentence that has begun may take this many estimates before the
/// engine is taken as broken.
const ALLOWANCES: u32 = 2;
/// Longest wait from the engine accepting a sentence to its beginning, as a
/// multiple of the call timeout (measured: 2–30 ms on a working daemon).
const BEGIN_WITHIN_CALLS: u32 = 1;
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
    /// Printed already (while a reconnected engine is on probation).
    printed: bool,
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
                now >= at || (self.queue.is_idle() && !matches!(self.link, Link::Starting { .. }))
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
                let check = up.speaking.as_ref().map(|s| s.check_at);
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
                    && up
                        .call(Call::Settings(self.settings), "settings", deadline)
                        .is_err()
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
        let estimate = |u: &Utterance| self.cfg.pace.estimate(&u.text, &self.settings);
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
                        (true, Some(id)) => {
                            // It must begin soon (events that came before
                            // this answer are replayed now and may move this).
                            sp.check_at = now + self.cfg.call_timeout * BEGIN_WITHIN_CALLS;
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
                            sp.check_at = now + estimate(&sp.utterance);
                            Next::Report(SpeechStatus::Began {
                                utterance: sp.utterance.clone(),
                                voice: sp.voice.clone(),
                                at: now,
                            })
                        }
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
                    sp.check_at = at
                        + self.cfg.pace.estimate(&sp.utterance.text, &self.settings) * ALLOWANCES;
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
            Link::Up(up) => Self::check_up(up, now),
        };
        self.then(next, now);
    }

    /// Deadlines of a working connection: unanswered calls, overlong sentences.
    fn check_up(up: &mut Up, now: Instant) -> Next {
        if let Some((_, _, what)) = up.inflight.iter().find(|(_, d, _)| now >= *d) {
            return Next::FallBack(SpeechError::Timeout(what).to_string());
        }
        let Some(sp) = up.speaking.as_mut() else {
            return Next::Nothing;
        };
        if now < sp.check_at {
            return Next::Nothing;
        }
        if !up.reports_end || (sp.replied && sp.id.is_none()) {
            // No events: the estimate is all there is.
            return Next::Finish;
        }
        if !sp.began {
            // The measured daemon hang: sentences are accepted, never spoken.
            return Next::FallBack(
                "the speech service accepts sentences but does not speak".into(),
            );
        }
        Next::FallBack("the speech service never finished a sentence".into())
    }

    /// Speech failed: abandon the engine, print what it had not said, tell
    /// the user (once), and reconnect later if `retry`.
    fn fall_back(&mut self, why: String, retry: bool, now: Instant) {
        let printed = match &self.link {
            Link::Up(up) => up
                .speaking
                .as_ref()
                .filter(|s| s.printed)
                .map(|s| s.utterance.clone()),
            _ => None,
        };
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
        let mut unsaid = self.queue.drain();
        if printed.is_some() && unsaid.first() == printed.as_ref() {
            unsaid.remove(0);
        }
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
                    // A reconnected engine is on probation until it has
                    // spoken a sentence: print meanwhile, so that a daemon
                    // that is still broken costs the player nothing.
                    let printed = up.retried && self.cfg.mode != SpeechMode::Both;
                    if printed && let Some(print) = &self.cfg.print {
                        print(&u.text);
                    }
                    let call = Call::Speak {
                        text: u.text.clone(),
                        lang: u.lang.clone(),
                    };
                    let check_at = deadline + self.cfg.pace.estimate(&u.text, &self.settings);
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
                                printed,
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
    f: impl FnOnce(&mut dyn super::backend::SpeechBackend) -> Result<T, SpeechError> + Send + 'static,
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
        + config.pace.estimate(text, &settings) * (ALLOWANCES + 1);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::speech::fake::{FakeCall, FakeControl};
    use std::sync::Mutex;

    const WAIT: Duration = Duration::from_secs(5);

    fn u(text: &str, priority: Priority, kind: SayKind) -> Utterance {
        Utterance {
            text: text.into(),
            lang: "de".into(),
            priority,
            kind,
        }
    }

    fn urgent(text: &str) -> Utterance {
        u(text, Priority::Urgent, SayKind::Move)
    }

    /// A worker on a fake engine, with fast deadlines, its status reports and
    /// its printed lines.
    struct Rig {
        fake: FakeControl,
        worker: SpeechWorker,
        status: Receiver<SpeechStatus>,
        printed: Arc<Mutex<Vec<String>>>,
    }

    fn fast(mode: SpeechMode) -> WorkerConfig {
        WorkerConfig {
            mode,
            call_timeout: Duration::from_millis(150),
            open_timeout: Duration::from_millis(300),
            retry_first: Duration::from_millis(200),
            retry_max: Duration::from_millis(400),
            pace: Pace {
                base: Duration::from_secs(1),
                per_char: Duration::ZERO,
            },
            ..WorkerConfig::default()
        }
    }

    /// Fast deadlines and sentences taken to last 50 ms.
    fn quick(mode: SpeechMode) -> WorkerConfig {
        WorkerConfig {
            pace: Pace {
                base: Duration::from_millis(50),
                per_char: Duration::ZERO,
            },
            ..fast(mode)
        }
    }

    fn rig_with(config: WorkerConfig, setup: impl FnOnce(&FakeControl)) -> Rig {
        let fake = FakeControl::new();
        setup(&fake);
        let (tx, status) = mpsc::channel();
        let printed = Arc::new(Mutex::new(Vec::new()));
        let sink = printed.clone();
        let config = WorkerConfig {
            print: Some(Arc::new(move |line: &str| {
                sink.lock().unwrap().push(line.to_owned())
            })),
            ..config
        };
        let worker = SpeechWorker::spawn(
            config,
            fake.factory(),
            Arc::new(move |s| {
                let _ = tx.send(s);
            }),
        );
        Rig {
            fake,
            worker,
            status,
            printed,
        }
    }

    fn rig(mode: SpeechMode) -> Rig {
        rig_with(fast(mode), |_| {})
    }

    impl Rig {
        fn say(&self, u: Utterance) {
            self.worker.handle().say(u);
        }

        /// Status reports until one matches `pred` (included), or None.
        fn until(&self, pred: impl Fn(&SpeechStatus) -> bool) -> Option<Vec<SpeechStatus>> {
            let deadline = Instant::now() + WAIT;
            let mut seen = Vec::new();
            loop {
                let left = deadline.saturating_duration_since(Instant::now());
                let s = self.status.recv_timeout(left).ok()?;
                let done = pred(&s);
                seen.push(s);
                if done {
                    return Some(seen);
                }
            }
        }

        fn ended(&self, text: &str) -> bool {
            self.until(
                |s| matches!(s, SpeechStatus::Ended { utterance, .. } if utterance.text == text),
            )
            .is_some()
        }

        fn printed(&self) -> Vec<String> {
            self.printed.lock().unwrap().clone()
        }

        fn wait_printed(&self, n: usize) -> bool {
            let deadline = Instant::now() + WAIT;
            while Instant::now() < deadline {
                if self.printed().len() >= n {
                    return true;
                }
                thread::sleep(Duration::from_millis(5));
            }
            false
        }

        /// Wait until connection `n` is open and the worker has taken it
        /// up (it applies the settings first thing).
        fn wait_connected(&self, n: usize) -> bool {
            self.fake.wait_for(WAIT, |calls| {
                calls
                    .iter()
                    .skip_while(|c| **c != FakeCall::Open(n))
                    .any(|c| matches!(c, FakeCall::Settings(_)))
            })
        }

        fn opens(&self) -> usize {
            self.fake
                .calls()
                .iter()
                .filter(|c| matches!(c, FakeCall::Open(_)))
                .count()
        }

        /// The speak and stop calls, as "text" and "STOP".
        fn script(&self) -> Vec<String> {
            self.fake
                .calls()
                .into_iter()
                .filter_map(|c| match c {
                    FakeCall::Speak { text, .. } => Some(text),
                    FakeCall::Stop => Some("STOP".into()),
                    _ => None,
                })
                .collect()
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
        assert!("loud".parse::<SpeechMode>().unwrap_err().contains("loud"));
    }

    #[test]
    fn pace_is_longer_for_long_text_and_slow_rate() {
        let p = Pace::default();
        let normal = SpeechSettings::default();
        let slow = SpeechSettings {
            rate: -1.0,
            ..normal
        };
        assert_eq!(p.estimate("", &normal), Duration::from_millis(500));
        assert_eq!(
            p.estimate("0123456789", &normal),
            Duration::from_millis(1300)
        );
        assert_eq!(p.estimate("0123456789", &slow), Duration::from_millis(3900));
    }

    #[test]
    fn say_reaches_the_engine_with_the_language_and_reports_begin_and_end() {
        let r = rig(SpeechMode::Tts);
        r.say(urgent("Springer Felix drei"));
        assert!(r.fake.wait_spoken(1, WAIT));
        let calls = r.fake.calls();
        assert!(calls.iter().any(|c| matches!(c,
            FakeCall::Speak { text, lang, .. } if text == "Springer Felix drei" && lang == "de")));
        r.fake.end_last();
        let seen = r
            .until(|s| matches!(s, SpeechStatus::Ended { .. }))
            .expect("ended");
        assert!(matches!(&seen[0], SpeechStatus::Began { voice: Some(v), .. } if v == "fake-de"));
        assert!(r.printed().is_empty(), "speech works: nothing printed");
    }

    #[test]
    fn settings_are_applied_on_open_and_on_change_clamped() {
        let cfg = WorkerConfig {
            settings: SpeechSettings {
                rate: 0.5,
                pitch: 0.0,
                volume: 1.0,
            },
            ..fast(SpeechMode::Tts)
        };
        let r = rig_with(cfg, |_| {});
        assert!(r.fake.wait_for(WAIT, |c| {
            c.iter().any(|c| matches!(c, FakeCall::Settings(_)))
        }));
        r.worker.handle().set_settings(SpeechSettings {
            rate: 9.0,
            pitch: -0.2,
            volume: 0.5,
        });
        let want = FakeCall::Settings(SpeechSettings {
            rate: 1.0,
            pitch: -0.2,
            volume: 0.5,
        });
        assert!(r.fake.wait_for(WAIT, |c| c.contains(&want)));
        let first = r
            .fake
            .calls()
            .into_iter()
            .find(|c| matches!(c, FakeCall::Settings(_)));
        assert_eq!(
            first,
            Some(FakeCall::Settings(SpeechSettings {
                rate: 0.5,
                pitch: 0.0,
                volume: 1.0
            }))
        );
    }

    #[test]
    fn urgent_interrupts_help_which_is_not_resumed() {
        let r = rig(SpeechMode::Tts);
        r.say(u("help text", Priority::Info, SayKind::Info));
        assert!(r.fake.wait_spoken(1, WAIT));
        r.say(urgent("Dame David acht"));
        assert!(r.fake.wait_spoken(2, WAIT));
        r.fake.end_last();
        assert!(r.ended("Dame David acht"));
        thread::sleep(Duration::from_millis(100));
        assert_eq!(r.script(), ["help text", "STOP", "Dame David acht"]);
    }

    #[test]
    fn urgent_is_not_cut_off_by_lower_priority() {
        let r = rig(SpeechMode::Tts);
        r.say(urgent("Bauer Eva vier"));
        assert!(r.fake.wait_spoken(1, WAIT));
        r.say(u("illegal move", Priority::Normal, SayKind::Error));
        r.say(u("help", Priority::Info, SayKind::Info));
        thread::sleep(Duration::from_millis(100));
        assert_eq!(r.script(), ["Bauer Eva vier"], "nothing cut in");
        r.fake.end_last();
        assert!(r.fake.wait_spoken(2, WAIT));
        r.fake.end_last();
        assert!(r.fake.wait_spoken(3, WAIT));
        assert_eq!(r.script(), ["Bauer Eva vier", "illegal move", "help"]);
    }

    #[test]
    fn an_end_for_a_stopped_sentence_does_not_end_the_next() {
        let r = rig(SpeechMode::Tts);
        r.say(u("help", Priority::Info, SayKind::Info));
        assert!(r.fake.wait_spoken(1, WAIT));
        let help_id = r.fake.last_id().expect("spoken");
        r.say(urgent("Turm Anna eins"));
        r.say(urgent("Läufer Cäsar vier"));
        assert!(r.fake.wait_spoken(2, WAIT));
        r.fake.emit(BackendEvent::Stopped(help_id));
        r.fake.emit(BackendEvent::Ended(help_id));
        thread::sleep(Duration::from_millis(100));
        assert_eq!(r.fake.spoken().len(), 2, "the second move still waits");
        r.fake.end_last();
        assert!(r.fake.wait_spoken(3, WAIT));
    }

    #[test]
    fn moves_keep_order_and_stale_clock_readings_collapse() {
        let r = rig(SpeechMode::Tts);
        r.say(urgent("e4"));
        assert!(r.fake.wait_spoken(1, WAIT));
        for t in ["3:00", "2:59", "2:58"] {
            r.say(u(t, Priority::Normal, SayKind::Clock));
        }
        r.say(urgent("e5"));
        r.say(urgent("Sf3"));
        for n in 2..=4 {
            r.fake.end_last();
            assert!(r.fake.wait_spoken(n, WAIT));
        }
        assert_eq!(r.script(), ["e4", "e5", "Sf3", "2:58"]);
    }

    #[test]
    fn clock_waits_for_a_move_confirmation() {
        let r = rig(SpeechMode::Tts);
        r.say(u("Turm Anna eins", Priority::Info, SayKind::Move));
        assert!(r.fake.wait_spoken(1, WAIT));
        r.say(u("1 minute", Priority::Normal, SayKind::Clock));
        thread::sleep(Duration::from_millis(100));
        assert_eq!(r.script(), ["Turm Anna eins"]);
        r.fake.end_last();
        assert!(r.fake.wait_spoken(2, WAIT));
        assert_eq!(r.script(), ["Turm Anna eins", "1 minute"]);
    }

    #[test]
    fn silence_stops_the_sentence_and_drops_waiting_chatter() {
        let r = rig(SpeechMode::Tts);
        r.say(u("a long help text", Priority::Info, SayKind::Info));
        assert!(r.fake.wait_spoken(1, WAIT));
        r.say(u("more help", Priority::Info, SayKind::Game));
        r.worker.handle().silence();
        assert!(r.fake.wait_for(WAIT, |c| c.contains(&FakeCall::Stop)));
        thread::sleep(Duration::from_millis(100));
        assert_eq!(r.script(), ["a long help text", "STOP"]);
    }

    #[test]
    fn say_never_blocks_on_a_hung_engine_and_falls_back_once() {
        let r = rig(SpeechMode::Tts);
        r.fake.set_hang_speak(true);
        let t = Instant::now();
        for i in 0..100 {
            r.say(urgent(&format!("move {i}")));
        }
        assert!(t.elapsed() < Duration::from_millis(50), "say blocked");
        let seen = r
            .until(|s| matches!(s, SpeechStatus::FellBack { .. }))
            .expect("fell back");
        let SpeechStatus::FellBack { why } = seen.last().cloned().expect("one") else {
            unreachable!("until returns the matching status last")
        };
        assert!(why.contains("stopped answering"), "{why}");
        // Everything unsaid is printed, in order, nothing lost.
        assert!(r.wait_printed(100));
        assert_eq!(r.printed()[0], "move 0");
        assert_eq!(r.printed()[99], "move 99");
        // Later sentences are printed at once; no second report while the
        // reconnection attempts keep failing.
        r.say(urgent("Springer Felix drei"));
        assert!(r.wait_printed(101));
        thread::sleep(Duration::from_millis(1500));
        assert!(r.opens() >= 2, "tried to reconnect");
        let more: Vec<_> = r.status.try_iter().collect();
        assert!(
            !more
                .iter()
                .any(|s| matches!(s, SpeechStatus::FellBack { .. })),
            "{more:?}"
        );
        r.fake.set_hang_speak(false);
    }

    #[test]
    fn engine_that_never_ends_a_sentence_and_then_hangs_is_detected() {
        // The measured daemon hang: the sentence begins, never ends, and
        // every later call blocks.
        let r = rig(SpeechMode::Tts);
        r.say(urgent("Springer Felix drei"));
        assert!(r.fake.wait_spoken(1, WAIT));
        let id = r.fake.last_id().expect("spoken");
        r.fake.emit(BackendEvent::Began(id));
        r.fake.set_hang_all(true);
        r.say(urgent("Bauer Eva vier"));
        assert!(
            r.until(|s| matches!(s, SpeechStatus::FellBack { .. }))
                .is_some()
        );
        assert!(r.wait_printed(2));
        assert_eq!(r.printed(), ["Springer Felix drei", "Bauer Eva vier"]);
        r.fake.set_hang_all(false);
    }

    #[test]
    fn reconnects_after_a_hang_and_says_so_once_speech_works() {
        let r = rig(SpeechMode::Tts);
        r.fake.set_hang_speak(true);
        r.say(urgent("e4"));
        assert!(
            r.until(|s| matches!(s, SpeechStatus::FellBack { .. }))
                .is_some()
        );
        r.fake.set_hang_speak(false);
        r.fake.set_auto_end(Some(Duration::from_millis(5)));
        // Wait for a fresh connection, then speak through it.
        assert!(r.wait_connected(2));
        r.say(urgent("e5"));
        let seen = r
            .until(|s| matches!(s, SpeechStatus::Reconnected { .. }))
            .expect("reconnected");
        assert!(
            seen.iter().any(
                |s| matches!(s, SpeechStatus::Ended { utterance, .. } if utterance.text == "e5")
            )
        );
    }

    #[test]
    fn auto_without_a_service_prints_says_why_once_and_does_not_retry() {
        let r = rig_with(fast(SpeechMode::Auto), |f| {
            f.set_fail_open(Some("no speech-dispatcher"))
        });
        r.say(urgent("e4"));
        r.say(urgent("e5"));
        let seen = r
            .until(|s| matches!(s, SpeechStatus::FellBack { .. }))
            .expect("fell back");
        assert!(
            matches!(seen.last(), Some(SpeechStatus::FellBack { why }) if why.contains("no speech-dispatcher"))
        );
        assert!(r.wait_printed(2));
        assert_eq!(r.printed(), ["e4", "e5"]);
        thread::sleep(Duration::from_millis(600));
        assert_eq!(r.opens(), 1);
        assert!(r.status.try_recv().is_err(), "said once");
    }

    #[test]
    fn tts_mode_keeps_trying_a_missing_service() {
        let r = rig_with(fast(SpeechMode::Tts), |f| f.set_fail_open(Some("down")));
        assert!(
            r.until(|s| matches!(s, SpeechStatus::FellBack { .. }))
                .is_some()
        );
        assert!(r.fake.wait_for(WAIT, |c| c.contains(&FakeCall::Open(3))));
    }

    #[test]
    fn an_engine_that_hangs_while_opening_is_given_up() {
        let r = rig_with(fast(SpeechMode::Auto), |f| f.set_hang_open(true));
        r.say(urgent("e4"));
        let seen = r
            .until(|s| matches!(s, SpeechStatus::FellBack { .. }))
            .expect("fell back");
        assert!(
            matches!(seen.last(), Some(SpeechStatus::FellBack { why }) if why.contains("did not answer"))
        );
        assert!(r.wait_printed(1));
        r.fake.set_hang_open(false);
    }

    #[test]
    fn sentences_wait_while_the_engine_opens() {
        let r = rig_with(fast(SpeechMode::Tts), |f| f.set_hang_open(true));
        r.say(urgent("e4"));
        thread::sleep(Duration::from_millis(50));
        r.fake.set_hang_open(false);
        assert!(r.fake.wait_spoken(1, WAIT));
        assert!(r.printed().is_empty());
    }

    #[test]
    fn stuck_engine_threads_limit_reconnection_attempts() {
        let cfg = WorkerConfig {
            max_stuck: 2,
            ..fast(SpeechMode::Tts)
        };
        let r = rig_with(cfg, |f| f.set_hang_open(true));
        thread::sleep(Duration::from_millis(2500));
        assert_eq!(r.opens(), 2, "no third thread while two are stuck");
        r.fake.set_hang_open(false);
    }

    #[test]
    fn print_mode_never_opens_an_engine() {
        let r = rig(SpeechMode::Print);
        r.say(urgent("e4"));
        r.say(u("help", Priority::Info, SayKind::Info));
        assert!(r.wait_printed(2));
        assert_eq!(r.printed(), ["e4", "help"]);
        assert_eq!(r.opens(), 0);
    }

    #[test]
    fn both_mode_prints_at_once_and_speaks() {
        let r = rig(SpeechMode::Both);
        r.say(urgent("e4"));
        r.say(urgent("e5"));
        assert!(r.wait_printed(2));
        assert!(r.fake.wait_spoken(1, WAIT));
        assert_eq!(r.fake.spoken(), ["e4"], "e5 waits for e4 to end");
    }

    #[test]
    fn both_mode_does_not_print_twice_on_fall_back() {
        let r = rig(SpeechMode::Both);
        r.fake.set_hang_speak(true);
        r.say(urgent("e4"));
        assert!(
            r.until(|s| matches!(s, SpeechStatus::FellBack { .. }))
                .is_some()
        );
        thread::sleep(Duration::from_millis(50));
        assert_eq!(r.printed(), ["e4"]);
        r.fake.set_hang_speak(false);
    }

    #[test]
    fn engine_without_end_events_moves_on_after_the_estimate() {
        let r = rig_with(quick(SpeechMode::Tts), |f| f.set_no_end_events(true));
        r.say(urgent("e4"));
        r.say(urgent("e5"));
        assert!(r.ended("e4"));
        assert!(r.ended("e5"));
        assert_eq!(r.fake.spoken(), ["e4", "e5"]);
    }

    #[test]
    fn an_engine_that_accepts_sentences_but_never_begins_them_is_given_up() {
        // Measured: speech-dispatcher with its stock configuration and no
        // sound server answers every call but speaks nothing.
        let r = rig_with(quick(SpeechMode::Tts), |_| {});
        r.say(urgent("e4"));
        r.say(urgent("e5"));
        let seen = r
            .until(|s| matches!(s, SpeechStatus::FellBack { .. }))
            .expect("fell back");
        assert!(
            matches!(seen.last(), Some(SpeechStatus::FellBack { why }) if why.contains("does not speak"))
        );
        assert!(r.wait_printed(2));
        assert_eq!(r.printed(), ["e4", "e5"]);
    }

    #[test]
    fn a_sentence_that_began_may_take_longer_than_its_estimate() {
        let cfg = WorkerConfig {
            pace: Pace {
                base: Duration::from_millis(300),
                per_char: Duration::ZERO,
            },
            ..fast(SpeechMode::Tts)
        };
        let r = rig_with(cfg, |_| {});
        r.say(urgent("a long sentence"));
        assert!(r.fake.wait_spoken(1, WAIT));
        let id = r.fake.last_id().expect("spoken");
        r.fake.emit(BackendEvent::Began(id));
        // Past the estimate (300 ms), within twice it.
        thread::sleep(Duration::from_millis(400));
        r.fake.emit(BackendEvent::Ended(id));
        assert!(r.ended("a long sentence"));
        r.say(urgent("e4"));
        assert!(r.fake.wait_spoken(2, WAIT));
        assert!(r.printed().is_empty(), "no fall-back");
    }

    #[test]
    fn a_sentence_that_began_and_never_ends_gives_the_engine_up() {
        let r = rig_with(quick(SpeechMode::Tts), |_| {});
        r.say(urgent("e4"));
        assert!(r.fake.wait_spoken(1, WAIT));
        let id = r.fake.last_id().expect("spoken");
        r.fake.emit(BackendEvent::Began(id));
        let seen = r
            .until(|s| matches!(s, SpeechStatus::FellBack { .. }))
            .expect("fell back");
        assert!(
            matches!(seen.last(), Some(SpeechStatus::FellBack { why }) if why.contains("never finished"))
        );
    }

    #[test]
    fn a_reconnected_engine_is_on_probation_and_its_lines_are_printed() {
        let r = rig_with(quick(SpeechMode::Tts), |_| {});
        r.say(urgent("e4"));
        assert!(
            r.until(|s| matches!(s, SpeechStatus::FellBack { .. }))
                .is_some()
        );
        assert!(r.wait_printed(1));
        // Connection 2: still broken (never begins); its sentence is
        // printed at once and not again when it is given up.
        assert!(r.wait_connected(2));
        r.say(urgent("e5"));
        assert!(r.wait_printed(2));
        assert!(r.fake.wait_spoken(2, WAIT));
        // Connection 3 works.
        r.fake.set_auto_end(Some(Duration::from_millis(5)));
        assert!(
            r.wait_connected(3),
            "{:?} {:?}",
            r.fake.calls(),
            r.printed()
        );
        r.say(urgent("e6"));
        assert!(
            r.until(|s| matches!(s, SpeechStatus::Reconnected { .. }))
                .is_some()
        );
        r.say(urgent("e7"));
        assert!(r.ended("e7"));
        assert_eq!(r.printed(), ["e4", "e5", "e6"], "e7 spoken only");
        assert!(
            r.fake
                .spoken()
                .ends_with(&["e6".to_string(), "e7".to_string()])
        );
    }

    #[test]
    fn fast_engine_events_racing_the_reply_are_handled() {
        let r = rig(SpeechMode::Tts);
        r.fake.set_auto_end(Some(Duration::ZERO));
        for i in 0..50 {
            r.say(urgent(&format!("m{i}")));
        }
        assert!(r.ended("m49"));
        assert_eq!(r.fake.spoken().len(), 50);
    }

    #[test]
    fn shutdown_lets_the_sentence_finish_within_grace() {
        let r = rig(SpeechMode::Tts);
        r.fake.set_auto_end(Some(Duration::from_millis(100)));
        r.say(urgent("Matt"));
        assert!(r.fake.wait_spoken(1, WAIT));
        let t = Instant::now();
        let Rig { worker, status, .. } = r;
        worker.shutdown(Duration::from_secs(2));
        assert!(t.elapsed() < Duration::from_secs(1));
        assert!(
            status
                .try_iter()
                .any(|s| matches!(s, SpeechStatus::Ended { .. }))
        );
    }

    #[test]
    fn dropping_the_worker_returns_even_with_a_hung_engine() {
        let r = rig(SpeechMode::Tts);
        r.fake.set_hang_all(true);
        r.say(urgent("e4"));
        let t = Instant::now();
        let fake = r.fake.clone();
        drop(r);
        assert!(t.elapsed() < Duration::from_millis(500));
        fake.set_hang_all(false);
    }

    #[test]
    fn say_once_waits_for_the_end() {
        let fake = FakeControl::new();
        fake.set_auto_end(Some(Duration::from_millis(20)));
        let r = say_once_with(
            fake.factory(),
            "Springer Felix drei",
            "de",
            SpeechSettings::default(),
        );
        assert_eq!(r, Ok(()));
        assert_eq!(fake.spoken(), ["Springer Felix drei"]);
    }

    #[test]
    fn say_once_reports_a_missing_service() {
        let fake = FakeControl::new();
        fake.set_fail_open(Some("nothing there"));
        let r = say_once_with(fake.factory(), "x", "en", SpeechSettings::default());
        assert!(matches!(r, Err(SpeechError::Unavailable(why)) if why.contains("nothing there")));
    }

    #[test]
    fn list_voices_returns_the_engine_voices_or_times_out() {
        let fake = FakeControl::new();
        let german = VoiceInfo {
            name: "German".into(),
            language: "de".into(),
            variant: None,
        };
        fake.set_voices(vec![german.clone()]);
        assert_eq!(list_voices_with(fake.factory(), WAIT), Ok(vec![german]));
        fake.set_hang_open(true);
        assert_eq!(
            list_voices_with(fake.factory(), Duration::from_millis(100)),
            Err(SpeechError::Timeout("voices"))
        );
        fake.set_hang_open(false);
    }

    #[test]
    fn an_abandoned_engine_says_nothing_more_when_it_comes_back() {
        let r = rig(SpeechMode::Tts);
        r.fake.set_hang_speak(true);
        r.say(u("help", Priority::Info, SayKind::Info));
        assert!(
            r.fake
                .wait_for(WAIT, |c| c.iter().any(|c| matches!(c, FakeCall::Open(_))))
        );
        // Interrupts: a stop and a speak queue up behind the stuck call.
        r.say(urgent("e4"));
        assert!(
            r.until(|s| matches!(s, SpeechStatus::FellBack { .. }))
                .is_some()
        );
        r.fake.set_hang_speak(false);
        // The stuck speak returns; the engine then stops instead of going on.
        assert!(r.fake.wait_for(WAIT, |c| c.contains(&FakeCall::Stop)));
        thread::sleep(Duration::from_millis(100));
        let first_engine: Vec<_> = r
            .fake
            .calls()
            .into_iter()
            .take_while(|c| *c != FakeCall::Open(2))
            .filter_map(|c| match c {
                FakeCall::Speak { text, .. } => Some(text),
                _ => None,
            })
            .collect();
        assert_eq!(first_engine, ["help"]);
    }
}
