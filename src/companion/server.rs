//! The companion's HTTP server: tiny_http (a small synchronous server, no
//! async runtime to compile) carries the bytes; [`parse`] reads each
//! request and the [`Gate`] decides it, both without I/O.  The push
//! channel is Server-Sent Events: one thread per open page writes each new
//! snapshot (and a heartbeat, so a page that went away is noticed).
//!
//! The app talks to the server through [`CompanionServer::publish`] (a new
//! snapshot for every page) and hears from it through the sink given to
//! [`CompanionServer::start`] ([`CompanionEvent`]s).  Nothing a page sends
//! can block the app: the sink is called from the server's thread, bodies
//! are bounded, a page too slow to take its snapshots is dropped (it
//! reconnects and gets the whole state again).

use std::io::{self, Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::gate::{Answer, CompanionEvent, Gate, GateConfig, Limits, Pairing, Role, os_entropy};
use super::labels::{PageLabels, page_with};
use super::request::{MAX_BODY, parse};
use super::snapshot::Snapshot;

/// The page, embedded in the binary.
pub const PAGE: &str = include_str!("page.html");

/// The default address: loopback, so nothing on the network can reach it.
pub const DEFAULT_LISTEN: SocketAddr = SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 8421);

/// How the server is set up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompanionConfig {
    /// The address and port the server listens on.
    pub listen: SocketAddr,
    /// Watching without the code on a non-loopback address.
    pub view_without_code: bool,
    /// Ask for the pairing code on loopback too.
    pub require_code: bool,
    /// The rate, watcher and wrong-code limits.
    pub limits: Limits,
    /// How often an idle push channel sends a heartbeat (a closed page is
    /// noticed at the second failed write).
    pub heartbeat: Duration,
    /// The page's own words in every language, starting in the blind
    /// player's.
    pub labels: PageLabels,
    /// The pairing already given to the opponent's page before a restart
    /// of hector (kept in the journal): that page is the opponent again
    /// without asking for a code.
    pub resume: Option<Pairing>,
}

impl Default for CompanionConfig {
    fn default() -> CompanionConfig {
        CompanionConfig {
            listen: DEFAULT_LISTEN,
            view_without_code: false,
            require_code: false,
            limits: Limits::default(),
            heartbeat: Duration::from_secs(1),
            labels: PageLabels::default(),
            resume: None,
        }
    }
}

/// Where the app hears the companion's events.
pub type Sink = Box<dyn Fn(CompanionEvent) + Send + Sync>;

/// Frames queued per page before it counts as too slow.
const QUEUE: usize = 16;

/// What a page's thread writes.
enum Frame {
    /// A snapshot (`{"seq":…,"state":…}`).
    State(Arc<str>),
    /// hector stops: the page closes this channel and comes back by itself.
    Bye,
}

struct Stream {
    tx: SyncSender<Frame>,
}

struct Shared {
    gate: Mutex<Gate>,
    /// The latest frame (`{"seq":…,"state":…}`) and its number.
    state: Mutex<(u64, Arc<str>)>,
    streams: Mutex<Vec<Stream>>,
    sink: Sink,
    stop: AtomicBool,
    heartbeat: Duration,
    /// The page with its words in it.
    page: String,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic in another thread while holding the lock leaves plain data
    // behind; go on with it rather than take the app down.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A running companion server.  Dropping it stops the server.
pub struct CompanionServer {
    shared: Arc<Shared>,
    server: Arc<tiny_http::Server>,
    local_addr: SocketAddr,
    thread: Option<JoinHandle<()>>,
}

impl CompanionServer {
    /// Listen on `config.listen` (port 0: any free port) and serve.
    pub fn start(config: CompanionConfig, sink: Sink) -> io::Result<CompanionServer> {
        let server = tiny_http::Server::http(config.listen).map_err(io::Error::other)?;
        let local_addr = server
            .server_addr()
            .to_ip()
            .ok_or_else(|| io::Error::other("not an IP address"))?;
        let mut gate = Gate::new(
            GateConfig {
                listen: local_addr,
                view_without_code: config.view_without_code,
                require_code: config.require_code,
                limits: config.limits,
            },
            os_entropy(),
        );
        if let Some(p) = &config.resume {
            gate.restore(p);
        }
        let shared = Arc::new(Shared {
            gate: Mutex::new(gate),
            state: Mutex::new((0, Arc::from(r#"{"seq":0,"state":null}"#))),
            streams: Mutex::new(Vec::new()),
            sink,
            stop: AtomicBool::new(false),
            heartbeat: config.heartbeat,
            page: page_with(PAGE, &config.labels),
        });
        let server = Arc::new(server);
        let thread = {
            let shared = Arc::clone(&shared);
            let server = Arc::clone(&server);
            std::thread::Builder::new()
                .name("companion".into())
                .spawn(move || serve(&server, &shared))?
        };
        Ok(CompanionServer {
            shared,
            server,
            local_addr,
            thread: Some(thread),
        })
    }

    /// The address the server listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// The address to open in a browser.  For an unspecified address
    /// (0.0.0.0) the machine's own address must be put in its place.
    pub fn url(&self) -> String {
        format!("http://{}/", self.local_addr)
    }

    /// The pairing code, when one is needed (not on loopback).
    pub fn code(&self) -> Option<String> {
        lock(&self.shared.gate).code().map(str::to_owned)
    }

    /// True while the opponent's page is showing the game.
    pub fn connected(&self) -> bool {
        lock(&self.shared.gate).connected()
    }

    /// True while an opponent holds the seat.
    pub fn paired(&self) -> bool {
        lock(&self.shared.gate).paired()
    }

    /// Show this state on every page.
    pub fn publish(&self, snapshot: &Snapshot) {
        let frame: Arc<str> = {
            let mut state = lock(&self.shared.state);
            let seq = state.0 + 1;
            let json = format!(r#"{{"seq":{seq},"state":{}}}"#, snapshot.to_json());
            *state = (seq, Arc::from(json));
            Arc::clone(&state.1)
        };
        broadcast(&self.shared, frame);
    }

    /// Free the opponent's seat (the blind player's command); a new code
    /// is made.
    pub fn release(&self) {
        let events = lock(&self.shared.gate).release();
        for e in events {
            (self.shared.sink)(e);
        }
    }
}

impl Drop for CompanionServer {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        self.server.unblock();
        // Tell every page (a connection handed over by tiny_http is not
        // closed by dropping the server), then let their threads end.
        let mut streams = lock(&self.shared.streams);
        for s in streams.iter() {
            let _ = s.tx.try_send(Frame::Bye);
        }
        streams.clear();
        drop(streams);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn broadcast(shared: &Shared, frame: Arc<str>) {
    lock(&shared.streams).retain(|s| match s.tx.try_send(Frame::State(Arc::clone(&frame))) {
        Ok(()) => true,
        // Too slow or gone: drop it; the page reconnects by itself.
        Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => false,
    });
}

fn serve(server: &tiny_http::Server, shared: &Arc<Shared>) {
    while !shared.stop.load(Ordering::SeqCst) {
        let now = Instant::now();
        let wait = lock(&shared.gate)
            .next_deadline()
            .map(|d| d.saturating_duration_since(now))
            .unwrap_or(Duration::from_millis(500))
            .clamp(Duration::from_millis(5), Duration::from_millis(500));
        match server.recv_timeout(wait) {
            Ok(Some(request)) => handle(request, shared),
            Ok(None) => {}
            Err(_) => break,
        }
        let events = lock(&shared.gate).tick(Instant::now());
        for e in events {
            (shared.sink)(e);
        }
    }
}

fn handle(mut request: tiny_http::Request, shared: &Arc<Shared>) {
    let peer = request
        .remote_addr()
        .map(SocketAddr::ip)
        .unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED));
    let mut body = Vec::new();
    if request.body_length().is_some_and(|n| n > MAX_BODY) {
        // Do not read what is refused anyway: one byte over says "too large".
        body.resize(MAX_BODY + 1, 0);
    } else {
        let _ = request
            .as_reader()
            .take((MAX_BODY + 1) as u64)
            .read_to_end(&mut body);
    }
    let method = request.method().as_str().to_owned();
    let url = request.url().to_owned();
    let headers: Vec<(String, String)> = request
        .headers()
        .iter()
        .map(|h| {
            (
                h.field.as_str().as_str().to_owned(),
                h.value.as_str().to_owned(),
            )
        })
        .collect();
    let header_refs: Vec<(&str, &str)> = headers
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    let parsed = parse(&method, &url, &header_refs, &body);
    let (answer, events) = lock(&shared.gate).decide(peer, parsed, Instant::now());
    for e in events {
        (shared.sink)(e);
    }
    let status = answer.status();
    match answer {
        Answer::Page => {
            let _ = request.respond(response(
                status,
                "text/html; charset=utf-8",
                shared.page.clone(),
            ));
        }
        Answer::Info {
            code_required,
            can_watch,
            role,
        } => {
            let text = serde_json::json!({
                "code_required": code_required,
                "can_watch": can_watch,
                "role": role.map(role_name),
            })
            .to_string();
            let _ = request.respond(response(status, "application/json", text));
        }
        Answer::State => {
            let text = lock(&shared.state).1.to_string();
            let _ = request.respond(response(status, "application/json", text));
        }
        Answer::Paired { token, role } => {
            let text = serde_json::json!({"token": token, "role": role_name(role)}).to_string();
            let _ = request.respond(response(status, "application/json", text));
        }
        Answer::Accepted => {
            let _ = request.respond(response(
                status,
                "application/json",
                r#"{"ok":true}"#.into(),
            ));
        }
        Answer::Refused(e) => {
            let _ = request.respond(response(status, "application/json", e.to_json()));
        }
        Answer::Stream { token } => open_stream(request, token, shared),
    }
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Opponent => "opponent",
        Role::Watcher => "watcher",
    }
}

fn header(name: &str, value: &str) -> Option<tiny_http::Header> {
    tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()).ok()
}

fn safety_headers() -> Vec<tiny_http::Header> {
    [
        ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        (
            "Content-Security-Policy",
            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; \
             connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; \
             frame-ancestors 'none'",
        ),
    ]
    .into_iter()
    .filter_map(|(n, v)| header(n, v))
    .collect()
}

fn response(
    status: u16,
    content_type: &str,
    body: String,
) -> tiny_http::Response<io::Cursor<Vec<u8>>> {
    let mut r = tiny_http::Response::from_string(body).with_status_code(status);
    for h in safety_headers()
        .into_iter()
        .chain(header("Content-Type", content_type))
    {
        r.add_header(h);
    }
    r
}

/// Answer with an endless `text/event-stream` and hand the connection to a
/// thread of its own.  tiny_http's `upgrade` writes the response head and
/// gives back the raw connection (its chunked writer would hold events
/// back until 8 KiB had gathered); the body then runs until the connection
/// closes, which HTTP/1.1 allows for a response without a length.
fn open_stream(request: tiny_http::Request, token: Option<String>, shared: &Arc<Shared>) {
    let mut head = tiny_http::Response::empty(200);
    for h in safety_headers()
        .into_iter()
        .chain(header("Content-Type", "text/event-stream"))
    {
        head.add_header(h);
    }
    let mut conn = request.upgrade("hector-events", head);
    let (tx, rx) = sync_channel::<Frame>(QUEUE);
    let first = Arc::clone(&lock(&shared.state).1);
    let events = lock(&shared.gate).stream_opened(token.as_deref());
    lock(&shared.streams).push(Stream { tx });
    for e in events {
        (shared.sink)(e);
    }
    let for_thread = Arc::clone(shared);
    let token_if_no_thread = token.clone();
    let spawned = std::thread::Builder::new()
        .name("companion-page".into())
        .spawn(move || {
            let _ = write_events(&mut *conn, &first, &rx, for_thread.heartbeat);
            lock(&for_thread.gate).stream_closed(token.as_deref(), Instant::now());
        });
    if spawned.is_err() {
        // No thread: the page's connection is dropped and it retries.
        lock(&shared.streams).pop();
        lock(&shared.gate).stream_closed(token_if_no_thread.as_deref(), Instant::now());
    }
}

fn write_events(
    conn: &mut dyn Write,
    first: &str,
    rx: &Receiver<Frame>,
    heartbeat: Duration,
) -> io::Result<()> {
    // Reconnect a second after a drop.
    write!(conn, "retry: 1000\n\n")?;
    write_frame(conn, first)?;
    loop {
        match rx.recv_timeout(heartbeat) {
            Ok(Frame::State(frame)) => write_frame(conn, &frame)?,
            Ok(Frame::Bye) => {
                conn.write_all(b"event: bye\ndata: {}\n\n")?;
                return conn.flush();
            }
            Err(RecvTimeoutError::Timeout) => {
                conn.write_all(b": ping\n\n")?;
                conn.flush()?;
            }
            Err(RecvTimeoutError::Disconnected) => return Ok(()),
        }
    }
}

fn write_frame(conn: &mut dyn Write, frame: &str) -> io::Result<()> {
    // A frame is one line of JSON (serde_json escapes newlines).
    conn.write_all(b"data: ")?;
    conn.write_all(frame.as_bytes())?;
    conn.write_all(b"\n\n")?;
    conn.flush()
}
