//! The runtime: the one loop around [`App::update`], the one effect
//! dispatcher, and the one place where threads are started and feed the
//! loop.
//!
//! Every thread that tells the app something (the speech worker, the tone
//! player, the boards' links, the engine's process, the companion server,
//! the signals, a front end's reader of keys or lines, later online play)
//! sends it through a [`Feed`] into the runtime's one channel.  The loop
//! takes what wakes it, gives the front end the chance to turn it into a
//! [`Msg`] (a key becomes an action), gives the message to the app with the
//! time it arrived, and carries out the effects in order: speech and tones,
//! bytes to the boards, the journal written and flushed before anything
//! after it is said, the exports, the engine's orders, the opponent's page.
//!
//! Line mode and the full-screen view are front ends ([`FrontEnd`]): they
//! show what the app says and read what the player does; they own no
//! thread of the game and carry out no effect.
//!
//! A new part that talks to the app from a thread of its own (online play,
//! say) is one `start_…` method here that hands its thread a clone of the
//! [`Feed`] and keeps its handle in [`Outputs`], and, when the app orders
//! it about, one arm in `dispatch` for its [`Effect`].

use std::io;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};

use crate::app::App;
use crate::audio::{BellSink, ToneHandle, TonePlayer, ToneSettings};
use crate::board::gatt::{BleLink, BleTarget, BoardLink};
use crate::board::link::LinkEvent;
use crate::board::transport::{Link, PortSettings};
use crate::companion::Snapshot;
use crate::engine::{EngineCommand, EngineIo, EngineProcess, ProcessEvent};
use crate::msg::{Effect, EngineOrder, LichessOrder, Msg, SaveFailure};
use crate::net::companion::{CompanionConfig, CompanionServer};
use crate::scoresheet::{ExportFormat, Sink};
use crate::speech::{
    LinkConfig as SpeechLinkConfig, SpeechHandle, SpeechMode, SpeechSettings, SpeechWorker,
    Utterance, WorkerConfig,
};

/// What wakes the loop.
#[derive(Debug)]
pub enum Wake {
    /// A message for the app (from any thread).
    App(Msg),
    /// An event of the terminal, for the full-screen view to read.
    Terminal(crossterm::event::Event),
    /// The front end's own time came (the clock's face changes), not the
    /// app's: nothing for the app.
    Tick,
}

/// A thread's way into the loop: cloned for each thread that feeds it.
#[derive(Clone)]
pub struct Feed(Sender<Wake>);

impl Feed {
    /// Give the app a message; false once the loop has ended.
    pub fn send(&self, msg: Msg) -> bool {
        self.0.send(Wake::App(msg)).is_ok()
    }

    /// A terminal event for the front end; false once the loop has ended.
    pub(crate) fn terminal(&self, event: crossterm::event::Event) -> bool {
        self.0.send(Wake::Terminal(event)).is_ok()
    }
}

/// A front end of the runtime: it shows what the app says and turns what
/// the player does into messages.
pub trait FrontEnd {
    /// Start reading the player (its thread feeds the loop through `feed`).
    ///
    /// # Errors
    ///
    /// The front end cannot start.
    fn start(&mut self, feed: &Feed) -> io::Result<()>;

    /// A sentence the app says, before it is spoken.
    ///
    /// # Errors
    ///
    /// The screen cannot be written.
    fn said(&mut self, u: &Utterance, app: &App) -> io::Result<()>;

    /// Everything the app asked for is done: show the app as it is now
    /// (the prompt, the board), before the loop waits.
    ///
    /// # Errors
    ///
    /// The screen cannot be written.
    fn show(&mut self, app: &App) -> io::Result<()>;

    /// When the front end must wake besides the app's deadline (the next
    /// second a running clock shows); `None`: only the app's.
    fn wake_at(&self, _app: &App, _now: Instant) -> Option<Instant> {
        None
    }

    /// What woke the loop, as the message for the app; `None` when it was
    /// for the front end only (a key that scrolls, a resize, a tick).
    fn take(&mut self, wake: Wake, app: &App, outputs: &Outputs) -> Option<Msg>;

    /// The session ends.
    ///
    /// # Errors
    ///
    /// The screen cannot be written.
    fn quit(&mut self) -> io::Result<()>;
}

/// Where the effects of the app go besides the front end: the threads and
/// files of the session, each when it runs.
#[derive(Default)]
pub struct Outputs {
    /// The speech worker, unless only printing.
    speech: Option<SpeechHandle>,
    /// The tone player, unless every tone is off.
    tones: Option<ToneHandle>,
    /// The link to the player's board.
    board: Option<BoardLink>,
    /// The link to the opponent's board.
    opponent_board: Option<BoardLink>,
    /// The opponent's screen (companion page), when it runs.
    companion: Option<CompanionServer>,
    /// The journal files (every game is journalled when set).
    journal: Option<Sink>,
    /// The network side of an online game on lichess.
    lichess: Option<LichessLink>,
    /// The lichess client of a broadcast (`--broadcast`).
    broadcast: Option<BroadcastLink>,
}

/// The pushes of a broadcast carried out on the shared runtime
/// (`net::broadcast`); each answer feeds the loop as [`Msg::Broadcast`].
struct BroadcastLink {
    client: crate::net::lichess::Client,
    feed: Feed,
}

impl BroadcastLink {
    /// Starts one push; one that cannot start is a failed push (retried
    /// by the app's queue).
    fn push(
        &self,
        round: crate::lichess::broadcast::RoundId,
        p: crate::lichess::broadcast::Push,
    ) -> Option<Msg> {
        let feed = self.feed.clone();
        let seq = p.seq;
        let sink: crate::net::broadcast::Sink =
            Arc::new(move |seq, outcome| feed.send(Msg::Broadcast { seq, outcome }));
        crate::net::broadcast::spawn_push(self.client.clone(), round, p, sink)
            .err()
            .map(|_| Msg::Broadcast {
                seq,
                outcome: crate::lichess::broadcast::PushOutcome::Failed,
            })
    }
}

/// The network side of an online game: the app's [`LichessOrder`]s carried
/// out on the shared runtime (`net::lichess`); what comes back feeds the
/// loop as [`Msg::Lichess`].
struct LichessLink {
    client: crate::net::lichess::Client,
    feed: Feed,
    /// The request queue, started with the first request.
    requests: Option<tokio::sync::mpsc::UnboundedSender<crate::lichess::api::Request>>,
}

impl LichessLink {
    fn sink(&self) -> crate::net::lichess::Sink {
        let feed = self.feed.clone();
        Arc::new(move |io| feed.send(Msg::Lichess(io)))
    }

    /// Carries out one order; a stream or queue that cannot start is the
    /// message returned (the link said to be down).
    fn order(&mut self, order: LichessOrder) -> Option<Msg> {
        use crate::lichess::io::{LichessIo, Stream};
        let started = match order {
            LichessOrder::OpenAccountStream => {
                crate::net::lichess::spawn_account_stream(self.client.clone(), self.sink())
                    .map(|_| ())
                    .map_err(|_| Stream::Account)
            }
            LichessOrder::OpenGameStream(id) => {
                crate::net::lichess::spawn_game_stream(self.client.clone(), id.clone(), self.sink())
                    .map(|_| ())
                    .map_err(|_| Stream::Game(id))
            }
            LichessOrder::Seek(request) => {
                crate::net::lichess::spawn_seek(self.client.clone(), request, self.sink())
                    .map(|_| ())
                    .map_err(|_| Stream::Account)
            }
            LichessOrder::Send(request) => {
                if self.requests.is_none() {
                    self.requests =
                        crate::net::lichess::spawn_requests(self.client.clone(), self.sink()).ok();
                }
                match &self.requests {
                    Some(q) if q.send(request).is_ok() => Ok(()),
                    _ => Err(Stream::Account),
                }
            }
        };
        started
            .err()
            .map(|s| Msg::Lichess(LichessIo::StreamDown(s)))
    }
}

impl Outputs {
    /// Says the utterance, when speech is on.
    pub fn say(&self, u: &Utterance) {
        if let Some(s) = &self.speech {
            s.say(u.clone());
        }
    }

    /// Stops speaking at once.
    pub fn silence(&self) {
        if let Some(s) = &self.speech {
            s.silence();
        }
    }
}

/// Which board a link reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardSide {
    /// The player's own board.
    Mine,
    /// The opponent's board.
    Opponent,
}

/// The runtime of a session: its channel, its threads, its files.
pub struct Runtime {
    feed: Feed,
    rx: Receiver<Wake>,
    outputs: Outputs,
    engine: EngineSlot,
    /// The speech worker, kept to let the last sentence be heard.
    speech: Option<SpeechWorker>,
    /// The tone player, kept while the session runs.
    _tones: Option<TonePlayer>,
}

impl Default for Runtime {
    fn default() -> Self {
        Runtime::new()
    }
}

impl Runtime {
    /// A runtime with nothing started yet.
    pub fn new() -> Runtime {
        let (tx, rx) = channel();
        Runtime {
            feed: Feed(tx),
            rx,
            outputs: Outputs::default(),
            engine: EngineSlot::default(),
            speech: None,
            _tones: None,
        }
    }

    /// A way into the loop for a thread started outside (e.g. a network
    /// part): what it sends reaches the app as it arrives.
    pub fn feed(&self) -> Feed {
        self.feed.clone()
    }

    /// Ctrl-C, SIGTERM and SIGHUP (Ctrl-Break and closing the console
    /// window on Windows) become [`Msg::Interrupted`]: the session ends
    /// through `update` (a goodbye said, the terminal restored), not killed.
    pub fn watch_signals(&self) {
        watch_signals(&self.feed);
    }

    /// Start the speech worker (`Print`: none; every sentence is only
    /// printed).  Its status reaches the app as [`Msg::Speech`].
    pub fn start_speech(&mut self, mode: SpeechMode, settings: SpeechSettings) {
        if mode == SpeechMode::Print {
            return;
        }
        let feed = self.feed();
        let status = move |s| {
            feed.send(Msg::Speech(s));
        };
        let config = WorkerConfig {
            link: SpeechLinkConfig {
                mode,
                settings,
                ..SpeechLinkConfig::default()
            },
            print: None,
        };
        let worker = SpeechWorker::spawn_system(config, Arc::new(status));
        self.outputs.speech = Some(worker.handle());
        self.speech = Some(worker);
    }

    /// Start the tone player on the system's device (`bell`: rung instead
    /// while there is none).  Its status reaches the app as [`Msg::Audio`].
    pub fn start_tones(&mut self, settings: ToneSettings, bell: Option<BellSink>) {
        let feed = self.feed();
        let player = TonePlayer::spawn_default(
            settings,
            bell,
            Arc::new(move |s| {
                feed.send(Msg::Audio(s));
            }),
        );
        self.outputs.tones = Some(player.handle());
        self._tones = Some(player);
    }

    /// Open the link to a board on `path`; its events reach the app as
    /// [`Msg::Board`] or [`Msg::OpponentBoard`].
    pub fn open_board(&mut self, side: BoardSide, path: String, settings: PortSettings) {
        let feed = self.feed();
        let wrap: fn(LinkEvent) -> Msg = match side {
            BoardSide::Mine => Msg::Board,
            BoardSide::Opponent => Msg::OpponentBoard,
        };
        let link = BoardLink::Serial(Link::spawn(path, settings, move |e| feed.send(wrap(e))));
        match side {
            BoardSide::Mine => self.outputs.board = Some(link),
            BoardSide::Opponent => self.outputs.opponent_board = Some(link),
        }
    }

    /// Open the link to a Bluetooth LE board (`board::ble`), on the shared
    /// tokio runtime; its events reach the app as [`Msg::Board`] or
    /// [`Msg::OpponentBoard`], as a serial board's do.
    ///
    /// # Errors
    ///
    /// The shared runtime cannot be started.
    pub fn open_wireless_board(
        &mut self,
        side: BoardSide,
        target: BleTarget,
    ) -> std::io::Result<()> {
        let feed = self.feed();
        let wrap: fn(LinkEvent) -> Msg = match side {
            BoardSide::Mine => Msg::Board,
            BoardSide::Opponent => Msg::OpponentBoard,
        };
        let handle = crate::net::handle()?;
        let link =
            BoardLink::Wireless(BleLink::spawn(&handle, target, move |e| feed.send(wrap(e))));
        match side {
            BoardSide::Mine => self.outputs.board = Some(link),
            BoardSide::Opponent => self.outputs.opponent_board = Some(link),
        }
        Ok(())
    }

    /// Play on lichess at `base` with the player's token: the app's
    /// [`Effect::Lichess`] orders open the streams and send the requests;
    /// what comes back reaches the app as [`Msg::Lichess`].
    ///
    /// # Errors
    ///
    /// The HTTP client cannot be made (its TLS set-up).
    pub fn start_lichess(
        &mut self,
        base: &str,
        token: crate::lichess::token::Token,
    ) -> Result<(), crate::toml_error::IoWhy> {
        let client = crate::net::lichess::Client::new(base, token)?;
        self.outputs.lichess = Some(LichessLink {
            client,
            feed: self.feed(),
            requests: None,
        });
        Ok(())
    }

    /// Push the game to a lichess broadcast round at `base` with the
    /// organiser's token: the app's [`Effect::BroadcastPush`] are carried
    /// out on the shared runtime; their answers reach the app as
    /// [`Msg::Broadcast`].
    ///
    /// # Errors
    ///
    /// The HTTP client cannot be made (its TLS set-up).
    pub fn start_broadcast(
        &mut self,
        base: &str,
        token: crate::lichess::token::Token,
    ) -> Result<(), crate::toml_error::IoWhy> {
        let client = crate::net::lichess::Client::new(base, token)?;
        self.outputs.broadcast = Some(BroadcastLink {
            client,
            feed: self.feed(),
        });
        Ok(())
    }

    /// Serve the opponent's screen; its events reach the app as
    /// [`Msg::Companion`].
    ///
    /// # Errors
    ///
    /// The server cannot listen on its address.
    pub fn start_companion(&mut self, config: CompanionConfig) -> io::Result<&CompanionServer> {
        let feed = self.feed();
        let sink = Box::new(move |e| {
            feed.send(Msg::Companion(e));
        });
        let server = CompanionServer::start(config, sink)?;
        Ok(self.outputs.companion.insert(server))
    }

    /// Journal every game into `sink`.
    pub fn keep_journal(&mut self, sink: Sink) {
        self.outputs.journal = Some(sink);
    }

    /// Run the session until the app quits: `startup` are the effects to
    /// carry out first (the start-up's sentences).  The engine ends with
    /// it, whatever ended it; then the front end gives the screen back, and
    /// [`Runtime::finish`] lets the last sentence be heard.
    ///
    /// # Errors
    ///
    /// The front end cannot start or cannot write to the screen.
    pub fn run(
        &mut self,
        app: &mut App,
        startup: Vec<Effect>,
        front: &mut impl FrontEnd,
    ) -> io::Result<()> {
        let result = self.run_loop(app, startup, front);
        self.engine = EngineSlot::default();
        result
    }

    /// The session is over: the speech worker is given a moment to finish
    /// the last sentence ("Goodbye."), then every thread ends.
    pub fn finish(mut self) {
        if let Some(worker) = self.speech.take() {
            worker.shutdown(Duration::from_secs(3));
        }
    }

    fn run_loop(
        &mut self,
        app: &mut App,
        startup: Vec<Effect>,
        front: &mut impl FrontEnd,
    ) -> io::Result<()> {
        front.start(&self.feed)?;
        let mut effects: std::collections::VecDeque<Effect> = startup.into();
        // What the opponent's page shows now: a new snapshot goes out only
        // when something it shows changed.
        let mut shown: Option<Snapshot> = None;
        loop {
            while let Some(e) = effects.pop_front() {
                if let Effect::Quit = e {
                    return front.quit();
                }
                let follow = self.dispatch(app, e, front)?;
                effects.extend(follow);
            }
            if let Some(c) = &self.outputs.companion {
                let now = app.companion_snapshot();
                if shown.as_ref() != Some(&now) {
                    c.publish(&now);
                    shown = Some(now);
                }
            }
            front.show(app)?;
            let wake = self.wait(app, front);
            if let Some(m) = front.take(wake, app, &self.outputs) {
                effects = app.update(m, Instant::now()).into();
            }
        }
    }

    /// Sleep until something feeds the loop, the app's next deadline, or
    /// the front end's own time: no ticking.
    fn wait(&self, app: &App, front: &impl FrontEnd) -> Wake {
        let deadline = app.next_deadline();
        let front_at = front.wake_at(app, Instant::now());
        let Some(at) = [deadline, front_at].into_iter().flatten().min() else {
            return self.rx.recv().unwrap_or(Wake::App(Msg::EndOfInput));
        };
        match self
            .rx
            .recv_timeout(at.saturating_duration_since(Instant::now()))
        {
            Ok(w) => w,
            // Only the front end's time came: nothing for the app.
            Err(RecvTimeoutError::Timeout)
                if front_at.is_some() && deadline.is_none_or(|d| d > Instant::now()) =>
            {
                Wake::Tick
            }
            Err(RecvTimeoutError::Timeout) => Wake::App(Msg::Deadline),
            Err(RecvTimeoutError::Disconnected) => Wake::App(Msg::EndOfInput),
        }
    }

    /// Carry out one effect (not [`Effect::Quit`]); what became of it, when
    /// the app must know at once, is given to the app, and its effects are
    /// returned to be carried out next.
    fn dispatch(
        &mut self,
        app: &mut App,
        effect: Effect,
        front: &mut impl FrontEnd,
    ) -> io::Result<Vec<Effect>> {
        let out = &self.outputs;
        let told = match effect {
            Effect::Say(u) => {
                front.said(&u, app)?;
                out.say(&u);
                None
            }
            Effect::Silence => {
                out.silence();
                None
            }
            Effect::Tone(t) => {
                if let Some(tones) = &out.tones {
                    tones.play(t);
                }
                None
            }
            Effect::ToBoard(bytes) => {
                if let Some(b) = &out.board {
                    b.send(bytes);
                }
                None
            }
            Effect::ToOpponentBoard(bytes) => {
                if let Some(b) = &out.opponent_board {
                    b.send(bytes);
                }
                None
            }
            Effect::Journal(op) => {
                // Written and flushed before anything after it is said;
                // what became of it is told to the app at once.
                let mut more = Vec::new();
                if let Some(j) = &mut self.outputs.journal {
                    for status in j.apply(op) {
                        more.extend(app.update(Msg::Journal(status), Instant::now()));
                    }
                }
                return Ok(more);
            }
            Effect::Export(format) => Some(Msg::Exported(save(app, out, format, None))),
            Effect::ExportTo(format, path) => {
                Some(Msg::Exported(save(app, out, format, Some(path))))
            }
            // An engine that cannot start is said at once.
            Effect::Engine(order) => self.engine.order(order, &self.feed),
            Effect::Lichess(order) => self.outputs.lichess.as_mut().and_then(|l| l.order(order)),
            Effect::BroadcastPush(round, p) => self
                .outputs
                .broadcast
                .as_ref()
                .and_then(|b| b.push(round, p)),
            Effect::CompanionRelease => out.companion.as_ref().map(|c| {
                c.release();
                Msg::CompanionReleased { code: c.code() }
            }),
            Effect::Quit => None,
        };
        Ok(match told {
            Some(m) => app.update(m, Instant::now()),
            None => Vec::new(),
        })
    }
}

/// Ctrl-C, SIGTERM and SIGHUP become [`Msg::Interrupted`].
#[cfg(unix)]
fn watch_signals(feed: &Feed) {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    let feed = feed.clone();
    std::thread::spawn(move || {
        for _ in signals.forever() {
            if !feed.send(Msg::Interrupted) {
                break;
            }
        }
    });
}

/// Ctrl-C, Ctrl-Break and closing the console window become
/// [`Msg::Interrupted`], as the signals do on Unix.
#[cfg(windows)]
fn watch_signals(feed: &Feed) {
    let feed = feed.clone();
    crate::win_console::on_console_events(move || {
        // The session has ended already when nobody listens.
        feed.send(Msg::Interrupted);
    });
}

#[cfg(not(any(unix, windows)))]
fn watch_signals(_feed: &Feed) {}

/// The engine's process, started, fed and ended as the app orders
/// ([`EngineOrder`]).  Dropping it ends the engine.
#[derive(Default)]
struct EngineSlot {
    process: Option<EngineProcess>,
}

impl EngineSlot {
    /// Carry out one order; the process's events go into `feed`.  An engine
    /// that cannot be started is the message returned, for the app at once.
    fn order(&mut self, order: EngineOrder, feed: &Feed) -> Option<Msg> {
        match order {
            EngineOrder::Start {
                generation,
                program,
            } => {
                // The old engine (if any) is ended first.
                self.process = None;
                let started = EngineCommand::locate(program.as_deref()).and_then(|cmd| {
                    let feed = feed.clone();
                    EngineProcess::spawn(&cmd, generation, move |io| feed.send(Msg::Engine(io)))
                });
                match started {
                    Ok(p) => self.process = Some(p),
                    Err(fault) => {
                        return Some(Msg::Engine(EngineIo {
                            generation,
                            event: ProcessEvent::StartFailed(fault),
                        }));
                    }
                }
            }
            EngineOrder::Send { generation, line } => {
                if let Some(p) = &self.process
                    && p.generation() == generation
                {
                    p.send(line);
                }
            }
            EngineOrder::Kill { generation } => {
                if let Some(p) = &mut self.process
                    && p.generation() == generation
                {
                    p.kill();
                    self.process = None;
                }
            }
        }
        None
    }
}

/// `save` during a game: the journal read back and written beside the
/// player, under a name that does not exist yet, or in the file named
/// (`save FILE`, never over an existing file or a journal).
fn save(
    app: &App,
    outputs: &Outputs,
    format: ExportFormat,
    file: Option<std::path::PathBuf>,
) -> Result<std::path::PathBuf, SaveFailure> {
    use crate::export::ExportError;
    // The journal on disk; when it cannot be read or written (the disk
    // failed, the game went on in memory), the scoresheet the app keeps.
    let on_disk = outputs
        .journal
        .as_ref()
        .filter(|_| !app.journal().failing());
    let from_disk = on_disk.and_then(|sink| {
        let id = sink.current()?.clone();
        crate::export::record_of(sink.store(), &id)
            .ok()
            .map(|rec| (id, rec))
    });
    let (id, rec) = match from_disk {
        Some(found) => found,
        None => {
            let rec = app
                .journal()
                .in_memory()
                .ok_or(SaveFailure::NothingToSave)?;
            let id = app.journal().id().cloned().unwrap_or_else(|| {
                crate::scoresheet::GameId::from_time(time::OffsetDateTime::now_utc())
            });
            (id, rec)
        }
    };
    let path = match file {
        Some(f) => f,
        None => {
            let dir = std::env::current_dir().map_err(|e| SaveFailure::Other(e.to_string()))?;
            crate::export::free_path(&dir, &id, format)
        }
    };
    crate::export::write(format, &rec, app.phraser(), &path, false).map_err(|e| match e {
        ExportError::NotWritable(folder) => SaveFailure::NotWritable(folder),
        ExportError::DiskFull(_) => SaveFailure::DiskFull,
        ExportError::IsJournal(p) => SaveFailure::IsJournal(p),
        other => SaveFailure::Other(other.to_string()),
    })?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::EngineSetup;

    /// A front end that types a script and keeps what it is told.
    #[derive(Default)]
    struct Script {
        lines: Vec<&'static str>,
        said: Vec<String>,
        shown: usize,
        quit: bool,
    }

    impl Script {
        fn new(lines: &[&'static str]) -> Script {
            Script {
                lines: lines.to_vec(),
                ..Script::default()
            }
        }
    }

    impl FrontEnd for Script {
        fn start(&mut self, feed: &Feed) -> io::Result<()> {
            for l in &self.lines {
                feed.send(Msg::Line((*l).to_owned()));
            }
            feed.send(Msg::EndOfInput);
            Ok(())
        }
        fn said(&mut self, u: &Utterance, _app: &App) -> io::Result<()> {
            self.said.push(u.text.clone());
            Ok(())
        }
        fn show(&mut self, _app: &App) -> io::Result<()> {
            self.shown += 1;
            Ok(())
        }
        fn take(&mut self, wake: Wake, _app: &App, _outputs: &Outputs) -> Option<Msg> {
            match wake {
                Wake::App(m) => Some(m),
                Wake::Terminal(_) | Wake::Tick => None,
            }
        }
        fn quit(&mut self) -> io::Result<()> {
            self.quit = true;
            Ok(())
        }
    }

    fn run(app: &mut App, runtime: Runtime, lines: &[&'static str]) -> Script {
        let startup = app.update(Msg::Start, Instant::now());
        let mut front = Script::new(lines);
        let mut runtime = runtime;
        runtime.run(app, startup, &mut front).unwrap();
        runtime.finish();
        front
    }

    /// The loop gives every line to the app in order and ends at `quit`:
    /// what comes after is never read.
    #[test]
    fn the_loop_runs_a_front_end_until_the_app_quits() {
        let mut app = App::builder().build();
        let front = run(&mut app, Runtime::new(), &["e4", "quit", "d4"]);
        assert!(front.quit);
        assert_eq!(app.game().ply_count(), 1, "{:?}", front.said);
        assert!(
            front.said.iter().any(|s| s.contains("Eva")),
            "{:?}",
            front.said
        );
        assert!(front.shown >= 2);
    }

    /// What became of an effect is told to the app at once, before the next
    /// message: an engine that cannot start is said before the goodbye.
    #[test]
    fn what_became_of_an_effect_is_told_to_the_app_at_once() {
        let mut app = App::builder()
            .engine(Some(EngineSetup {
                program: Some("/nonexistent/hector-engine".into()),
                ..EngineSetup::default()
            }))
            .build();
        let front = run(&mut app, Runtime::new(), &["quit"]);
        let goodbye = front.said.len() - 1;
        let failed = front
            .said
            .iter()
            .position(|s| s.contains("engine") || s.contains("Engine"))
            .unwrap_or_else(|| panic!("{:?}", front.said));
        assert!(failed < goodbye, "{:?}", front.said);
    }

    /// The engine ends with the loop, before the speech worker is given
    /// its moment (and before the front end gives the screen back).
    #[test]
    fn the_engine_ends_with_the_loop() {
        let hang = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/hang.sh");
        let mut app = App::builder()
            .engine(Some(EngineSetup {
                program: Some(hang.into()),
                ..EngineSetup::default()
            }))
            .build();
        let startup = app.update(Msg::Start, Instant::now());
        let mut runtime = Runtime::new();
        let mut front = Script::new(&["quit"]);
        runtime.run(&mut app, startup, &mut front).unwrap();
        assert!(front.quit);
        assert!(runtime.engine.process.is_none());
    }

    /// The journal is written as the app orders: the game played through
    /// the loop is in the store afterwards.
    #[test]
    fn the_journal_follows_the_game() {
        let dir = std::env::temp_dir().join(format!("hector-runtime-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = crate::scoresheet::Store::new(dir.clone());
        let mut runtime = Runtime::new();
        runtime.keep_journal(Sink::new(crate::scoresheet::Store::new(dir.clone())));
        let mut app = App::builder()
            .journal(crate::scoresheet::StartInfo::default())
            .build();
        run(&mut app, runtime, &["e4", "e5", "quit"]);
        let games = store.list().unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].plies, 2);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The front end's own time (the clock's face) wakes the loop without
    /// a message for the app; a message waiting comes first.
    #[test]
    fn the_front_ends_time_is_a_tick_for_it_alone() {
        struct Ticking(Script);
        impl FrontEnd for Ticking {
            fn start(&mut self, feed: &Feed) -> io::Result<()> {
                self.0.start(feed)
            }
            fn said(&mut self, u: &Utterance, app: &App) -> io::Result<()> {
                self.0.said(u, app)
            }
            fn show(&mut self, app: &App) -> io::Result<()> {
                self.0.show(app)
            }
            fn wake_at(&self, _app: &App, now: Instant) -> Option<Instant> {
                Some(now)
            }
            fn take(&mut self, wake: Wake, app: &App, outputs: &Outputs) -> Option<Msg> {
                self.0.take(wake, app, outputs)
            }
            fn quit(&mut self) -> io::Result<()> {
                self.0.quit()
            }
        }
        let app = App::builder().build();
        let runtime = Runtime::new();
        let front = Ticking(Script::default());
        assert!(matches!(runtime.wait(&app, &front), Wake::Tick));
        runtime.feed().send(Msg::Line("e4".into()));
        assert!(matches!(
            runtime.wait(&app, &front),
            Wake::App(Msg::Line(_))
        ));
        assert!(matches!(runtime.wait(&app, &front), Wake::Tick));
    }
}
