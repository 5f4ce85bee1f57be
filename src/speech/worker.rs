//! The speech worker: the thread that drives the sans-IO [`SpeechLink`]
//! against a real speech engine, so that the game never waits on speech.
//!
//! ```text
//! app ──SpeechHandle::say──▶ worker thread ──calls──▶ engine thread (owns the backend)
//!                             ▲   │                      │
//!                             └───┼── replies, begin/end ┘
//!                                 └──▶ SpeechStatus (fell back, reconnected, began, ended)
//! ```
//!
//! Every decision (what to say next, when the engine hangs, when to print,
//! when to reconnect) is the link's; this file only runs threads, moves
//! messages and reads the clock.  The engine lives on its own thread and
//! may hang in any call: an abandoned engine thread stays stuck without
//! holding anything up.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use super::Utterance;
use super::backend::{BackendFactory, EventSink, SpeechError, SpeechSettings, VoiceInfo};
use super::link::{ALLOWANCES, Call, Conn, EngineInfo, Input, Output, Reply, SpeechLink};
pub use super::link::{FallBack, LinkConfig, SpeechMode, SpeechStatus};

/// Receives [`SpeechStatus`] reports, on the worker thread: must not block.
pub type StatusSink = Arc<dyn Fn(SpeechStatus) + Send + Sync>;
/// Receives printed lines, on the worker thread: must not block.
pub type LineSink = Arc<dyn Fn(&str) + Send + Sync>;

/// How the worker runs: the link's tunables (mode, voice settings,
/// queue policy, pace, timeouts) and where printed lines go.
#[derive(Clone, Default)]
pub struct WorkerConfig {
    /// Speak, print, or speak when the service answers; rate, pitch and
    /// volume; when waiting sentences are dropped; the timeouts.
    pub link: LinkConfig,
    /// Where lines go in print mode and while speech has fallen back.
    /// `None`: the front end shows every line itself (line mode), print nothing.
    pub print: Option<LineSink>,
}

impl fmt::Debug for WorkerConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WorkerConfig")
            .field("link", &self.link)
            .field("print", &self.print.is_some())
            .finish()
    }
}

/// The backend for this platform: speech-dispatcher on Linux; on Windows
/// the running screen reader (NVDA, JAWS), else the OneCore voices
/// (`speech::windows`, Windows only); the `tts` crate's default elsewhere (AVFoundation
/// on macOS).
pub fn system_factory() -> BackendFactory {
    #[cfg(windows)]
    {
        super::windows::factory()
    }
    #[cfg(not(windows))]
    {
        Arc::new(|sink: EventSink| {
            #[cfg(target_os = "linux")]
            let backend = super::sd::SpeechDispatcherBackend::open(sink)?;
            #[cfg(not(target_os = "linux"))]
            let backend = super::tts_backend::TtsBackend::open(sink)?;
            Ok(Box::new(backend) as Box<dyn super::backend::SpeechBackend>)
        })
    }
}

/// The app's side of the worker: cheap to clone; never blocks.
#[derive(Clone)]
pub struct SpeechHandle {
    tx: Sender<Input>,
}

impl SpeechHandle {
    /// Queue a sentence.  Returns at once, whatever the engine does.
    pub fn say(&self, utterance: Utterance) {
        // A worker that has shut down has nothing left to say.
        let _ = self.tx.send(Input::Say(utterance));
    }

    /// Silence the sentence being spoken (and waiting ones that are not urgent).
    pub fn silence(&self) {
        let _ = self.tx.send(Input::Silence);
    }

    /// Change rate, pitch and volume.
    pub fn set_settings(&self, settings: SpeechSettings) {
        let _ = self.tx.send(Input::Settings(settings));
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
        let link = SpeechLink::new(config.link, Instant::now());
        let driver = Driver {
            link,
            factory,
            status,
            print: config.print,
            tx,
            engines: HashMap::new(),
        };
        let join = thread::Builder::new()
            .name("hector-speech".into())
            .spawn(move || driver.run(rx))
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
        let _ = self.handle.tx.send(Input::Shutdown(grace));
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

/// Tells the link that an engine thread ended, whichever way it ends.
struct ClosedGuard {
    conn: Conn,
    tx: Sender<Input>,
}

impl Drop for ClosedGuard {
    fn drop(&mut self) {
        let _ = self.tx.send(Input::Closed { conn: self.conn });
    }
}

/// The worker's end of one engine thread.  Dropping it abandons the engine:
/// the thread stops speech and ends as soon as its current call returns,
/// without running the calls still queued for it (a daemon that comes back
/// from a hang must not read out minutes-old sentences).
struct EngineLink {
    calls: Sender<(u64, Call)>,
    abandoned: Arc<AtomicBool>,
}

impl Drop for EngineLink {
    fn drop(&mut self) {
        self.abandoned.store(true, Ordering::SeqCst);
    }
}

fn spawn_engine(conn: Conn, factory: BackendFactory, to_worker: Sender<Input>) -> EngineLink {
    let (calls, rx) = mpsc::channel::<(u64, Call)>();
    let guard = ClosedGuard {
        conn,
        tx: to_worker.clone(),
    };
    let abandoned = Arc::new(AtomicBool::new(false));
    let flag = abandoned.clone();
    // When no thread can be started the closure, and with it the guard, is
    // dropped: the link hears that the engine is gone.
    let _ = thread::Builder::new()
        .name(format!("hector-speech-engine-{conn}"))
        .spawn(move || {
            let _guard = guard;
            let events = to_worker.clone();
            let sink = EventSink::new(move |event, at| {
                let _ = events.send(Input::Engine { conn, event, at });
            });
            let mut backend = match factory(sink) {
                Ok(b) => b,
                Err(e) => {
                    let _ = to_worker.send(Input::Opened {
                        conn,
                        result: Err(e),
                    });
                    return;
                }
            };
            let info = EngineInfo {
                name: backend.name(),
                reports_end: backend.reports_end(),
                mixes_languages: backend.mixes_languages(),
                route: backend.route(),
            };
            let _ = to_worker.send(Input::Opened {
                conn,
                result: Ok(info),
            });
            for (seq, call) in rx {
                if flag.load(Ordering::SeqCst) {
                    break;
                }
                let result = match call {
                    Call::Speak { text, lang } => backend.speak(&text, &lang).map(Reply::Started),
                    Call::SpeakMixed { parts, lang } => {
                        backend.speak_mixed(&parts, &lang).map(Reply::Started)
                    }
                    Call::Stop => backend.stop().map(|_| Reply::Done),
                    Call::Settings(s) => backend.apply_settings(&s).map(|_| Reply::Done),
                };
                let reply = Input::Replied { conn, seq, result };
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
    EngineLink { calls, abandoned }
}

/// The worker thread: carries out the link's outputs and feeds it what
/// happens, with the time.
struct Driver {
    link: SpeechLink,
    factory: BackendFactory,
    status: StatusSink,
    print: Option<LineSink>,
    tx: Sender<Input>,
    engines: HashMap<Conn, EngineLink>,
}

impl Driver {
    fn run(mut self, rx: Receiver<Input>) {
        loop {
            let now = Instant::now();
            if self.link.poll_timeout().is_some_and(|at| at <= now) {
                self.link.handle_timeout(now);
            }
            self.carry_out();
            if self.link.is_done() {
                break;
            }
            let input = match self.link.poll_timeout() {
                Some(at) => rx.recv_timeout(at.saturating_duration_since(Instant::now())),
                None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
            };
            match input {
                Ok(input) => self.link.handle(input, Instant::now()),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
    }

    fn carry_out(&mut self) {
        while let Some(output) = self.link.poll() {
            match output {
                Output::Open(conn) => {
                    let engine = spawn_engine(conn, self.factory.clone(), self.tx.clone());
                    self.engines.insert(conn, engine);
                }
                Output::Call { conn, seq, call } => {
                    let sent = self
                        .engines
                        .get(&conn)
                        .is_some_and(|e| e.calls.send((seq, call)).is_ok());
                    if !sent {
                        self.link.handle(Input::Closed { conn }, Instant::now());
                    }
                }
                Output::Abandon(conn) => {
                    self.engines.remove(&conn);
                }
                Output::Print(line) => {
                    if let Some(print) = &self.print {
                        print(&line);
                    }
                }
                Output::Report(status) => (self.status)(status),
            }
        }
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
/// up to 60 s: espeak-ng lists about 13 000 voices in 1.5 s on an idle
/// machine, and took over 20 s on a loaded one.
pub fn list_voices() -> Result<Vec<VoiceInfo>, SpeechError> {
    list_voices_with(system_factory(), Duration::from_secs(60))
}

/// [`list_voices`] with any backend.
pub fn list_voices_with(
    factory: BackendFactory,
    timeout: Duration,
) -> Result<Vec<VoiceInfo>, SpeechError> {
    with_backend(factory, timeout, "voices", |b| b.voices())
}

/// Speak `utterance` (perhaps of several languages) with any backend and
/// wait until it has been spoken.
pub fn say_utterance_once(
    factory: BackendFactory,
    utterance: Utterance,
    settings: SpeechSettings,
) -> Result<(), SpeechError> {
    let (tx, rx) = mpsc::channel();
    let status: StatusSink = Arc::new(move |s| {
        let _ = tx.send(s);
    });
    let link = LinkConfig {
        mode: SpeechMode::Tts,
        settings,
        retry_first: Duration::from_secs(3600),
        ..LinkConfig::default()
    };
    let pieces = u32::try_from(utterance.voiced().len()).unwrap_or(u32::MAX);
    let limit = link.open_timeout
        + link.call_timeout.saturating_mul(pieces.saturating_add(2))
        + link.pace.estimate(&utterance.text, &settings) * (ALLOWANCES + 1);
    let config = WorkerConfig { link, print: None };
    let worker = SpeechWorker::spawn(config, factory, status);
    worker.handle().say(utterance);
    let deadline = Instant::now() + limit;
    let result = loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(SpeechStatus::Ended { .. }) => break Ok(()),
            Ok(SpeechStatus::FellBack { why, reason }) => {
                break Err(match reason {
                    FallBack::Unavailable => SpeechError::Unavailable(why),
                    FallBack::NoAnswer => SpeechError::Timeout("say"),
                    FallBack::Silent | FallBack::Unfinished | FallBack::Failed => {
                        SpeechError::Failed(why)
                    }
                });
            }
            Ok(_) => {}
            Err(_) => break Err(SpeechError::Timeout("say")),
        }
    };
    worker.shutdown(Duration::ZERO);
    result
}

#[cfg(test)]
mod tests {
    //! The thread around the link, on a fake engine.  The decisions are
    //! tested in [`super::super::link`] on a virtual clock; these tests only
    //! check that the driver carries them out, and wait for conditions,
    //! never for a set time.

    use super::*;
    use crate::speech::fake::{FakeCall, FakeControl};
    use crate::speech::{Part, Priority, SayKind};
    use std::sync::Mutex;

    const WAIT: Duration = Duration::from_secs(5);

    fn urgent(text: &str) -> Utterance {
        Utterance::new(text, "de", Priority::Urgent, SayKind::Move)
    }

    struct Rig {
        fake: FakeControl,
        worker: SpeechWorker,
        status: Receiver<SpeechStatus>,
        printed: Arc<Mutex<Vec<String>>>,
        lines: Receiver<()>,
    }

    fn rig_with(config: WorkerConfig, setup: impl FnOnce(&FakeControl)) -> Rig {
        let fake = FakeControl::new();
        setup(&fake);
        let (tx, status) = mpsc::channel();
        let printed = Arc::new(Mutex::new(Vec::new()));
        let sink = printed.clone();
        let (line_tx, lines) = mpsc::channel();
        let config = WorkerConfig {
            print: Some(Arc::new(move |line: &str| {
                sink.lock().unwrap().push(line.to_owned());
                let _ = line_tx.send(());
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
            lines,
        }
    }

    fn tts() -> WorkerConfig {
        WorkerConfig {
            link: LinkConfig {
                mode: SpeechMode::Tts,
                call_timeout: Duration::from_millis(100),
                open_timeout: Duration::from_millis(300),
                retry_first: Duration::from_secs(3600),
                ..LinkConfig::default()
            },
            print: None,
        }
    }

    /// [`tts`] in another mode.
    fn in_mode(mode: SpeechMode) -> WorkerConfig {
        let mut c = tts();
        c.link.mode = mode;
        c
    }

    impl Rig {
        /// Wait until `n` lines have been printed.
        fn wait_printed(&self, n: usize) -> Vec<String> {
            while self.printed.lock().unwrap().len() < n {
                if self.lines.recv_timeout(WAIT).is_err() {
                    break;
                }
            }
            self.printed.lock().unwrap().clone()
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
    }

    #[test]
    fn say_reaches_the_engine_and_begin_and_end_come_back() {
        let r = rig_with(tts(), |f| f.set_auto_end(Some(Duration::ZERO)));
        r.worker.handle().say(urgent("Springer Felix drei"));
        let seen = r
            .until(|s| matches!(s, SpeechStatus::Ended { .. }))
            .expect("ended");
        assert!(matches!(&seen[0], SpeechStatus::Began { voice: Some(v), .. } if v == "fake-de"));
        assert!(r.fake.calls().iter().any(|c| matches!(c,
            FakeCall::Speak { text, lang, .. } if text == "Springer Felix drei" && lang == "de")));
        assert!(r.printed.lock().unwrap().is_empty());
    }

    #[test]
    fn a_mixed_sentence_goes_to_a_mixing_engine_in_one_call() {
        let r = rig_with(tts(), |f| {
            f.set_auto_end(Some(Duration::ZERO));
            f.set_mixes_languages(true);
        });
        let parts = vec![
            Part::new("Felix sechs", "de"),
            Part::new(" is attacked by ", "en"),
            Part::new("Springer Gustav acht", "de"),
        ];
        let sentence = Utterance::mixed(parts.clone(), "en", Priority::Info, SayKind::Info);
        r.worker.handle().say(sentence);
        assert!(
            r.until(|s| matches!(s, SpeechStatus::Ended { .. }))
                .is_some()
        );
        assert!(r.fake.calls().iter().any(|c| matches!(c,
            FakeCall::SpeakMixed { parts: p, lang, .. } if *p == parts && lang == "en")));
    }

    #[test]
    fn settings_reach_the_engine() {
        let r = rig_with(tts(), |_| {});
        let s = SpeechSettings {
            rate: 0.5,
            pitch: 0.0,
            volume: 0.5,
        };
        r.worker.handle().set_settings(s);
        assert!(
            r.fake
                .wait_for(WAIT, |c| c.contains(&FakeCall::Settings(s)))
        );
    }

    #[test]
    fn a_hung_engine_never_blocks_say_and_its_sentences_are_printed() {
        let r = rig_with(tts(), |f| f.set_hang_speak(true));
        let t = Instant::now();
        for i in 0..100 {
            r.worker.handle().say(urgent(&format!("move {i}")));
        }
        assert!(t.elapsed() < Duration::from_millis(50), "say blocked");
        assert!(
            r.until(|s| matches!(s, SpeechStatus::FellBack { .. }))
                .is_some()
        );
        let printed = r.wait_printed(100);
        assert_eq!(printed.len(), 100);
        assert_eq!(printed[99], "move 99");
        // The stuck call returns: the abandoned engine stops instead of
        // speaking the calls queued behind it.
        r.fake.set_hang_speak(false);
        assert!(r.fake.wait_for(WAIT, |c| c.contains(&FakeCall::Stop)));
        assert_eq!(r.fake.spoken(), ["move 0"]);
    }

    #[test]
    fn dropping_the_worker_returns_even_with_a_hung_engine() {
        let r = rig_with(tts(), |f| f.set_hang_all(true));
        r.worker.handle().say(urgent("e4"));
        let t = Instant::now();
        let fake = r.fake.clone();
        drop(r);
        assert!(t.elapsed() < Duration::from_millis(500));
        fake.set_hang_all(false);
    }

    #[test]
    fn shutdown_returns_once_the_last_sentence_is_said() {
        let r = rig_with(tts(), |f| f.set_auto_end(Some(Duration::from_millis(20))));
        r.worker.handle().say(urgent("Matt"));
        let t = Instant::now();
        let Rig { worker, status, .. } = r;
        worker.shutdown(Duration::from_secs(5));
        assert!(t.elapsed() < Duration::from_secs(2));
        assert!(
            status
                .try_iter()
                .any(|s| matches!(s, SpeechStatus::Ended { .. }))
        );
    }

    #[test]
    fn print_mode_prints_without_an_engine() {
        let r = rig_with(in_mode(SpeechMode::Print), |_| {});
        r.worker.handle().say(urgent("e4"));
        let Rig {
            worker,
            fake,
            printed,
            ..
        } = r;
        worker.shutdown(Duration::from_secs(1));
        assert_eq!(*printed.lock().unwrap(), ["e4"]);
        assert!(fake.calls().is_empty());
    }

    #[test]
    fn say_once_waits_for_the_end() {
        let fake = FakeControl::new();
        fake.set_auto_end(Some(Duration::from_millis(20)));
        let r = say_utterance_once(
            fake.factory(),
            Utterance::new("Springer Felix drei", "de", Priority::Urgent, SayKind::Info),
            SpeechSettings::default(),
        );
        assert_eq!(r, Ok(()));
        assert_eq!(fake.spoken(), ["Springer Felix drei"]);
    }

    #[test]
    fn say_once_reports_a_missing_service() {
        let fake = FakeControl::new();
        fake.set_fail_open(Some("nothing there"));
        let x = Utterance::new("x", "en", Priority::Urgent, SayKind::Info);
        let r = say_utterance_once(fake.factory(), x, SpeechSettings::default());
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
            list_voices_with(fake.factory(), Duration::from_millis(50)),
            Err(SpeechError::Timeout("voices"))
        );
        fake.set_hang_open(false);
    }
}
