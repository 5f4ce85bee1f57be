//! The companion's HTTP server: hyper's HTTP/1 server on the [`crate::net`]
//! runtime carries the bytes; `companion::request::parse` reads each
//! request and the `Gate` decides it, both without I/O.  The push channel
//! is Server-Sent Events: every open page gets each new snapshot (and a
//! heartbeat, so a page that went away is noticed).
//!
//! The app talks to the server through [`CompanionServer::publish`] (a new
//! snapshot for every page) and hears from it through the sink given to
//! [`CompanionServer::start`] ([`CompanionEvent`]s).  Nothing a page — or
//! anything else on the network — sends can block the app or take the
//! server down ([`ServerLimits`]):
//!
//! - a body is refused by its `Content-Length` before a byte of it is read
//!   (nothing is ever allocated from a header), and read for a bounded
//!   time;
//! - the request head is bounded in bytes and header lines, and must
//!   arrive within a time (an idle connection is closed);
//! - one request per connection (no keep-alive: nothing waits idle
//!   between requests);
//! - at most [`ServerLimits::max_connections`] connections: the next one
//!   closes the oldest that has not sent its request yet, or is refused;
//!   running out of file descriptors pauses accepting, it never ends it;
//! - a push channel whose page does not read is closed: when its queue of
//!   snapshots is full, or when a write has waited [`ServerLimits::stall`];
//! - a failure of the accept loop (a bug, a broken socket) is said to the
//!   player once ([`CompanionEvent::ServerFailed`]) and the server starts
//!   again on the same address by itself.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Body, Frame as BodyFrame, Incoming, SizeHint};
use hyper::header::{CONTENT_LENGTH, CONTENT_TYPE, HeaderValue};
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpSocket};
use tokio::sync::{Notify, mpsc, watch};

use crate::companion::gate::{
    Answer, CompanionEvent, Gate, GateConfig, Limits, Pairing, Role, os_entropy,
};
use crate::companion::labels::{PageLabels, page_with};
use crate::companion::request::{MAX_BODY, RequestError, parse};
use crate::companion::snapshot::Snapshot;

/// The page, embedded in the binary.
pub const PAGE: &str = include_str!("../companion/page.html");

pub use crate::companion::DEFAULT_LISTEN;

/// The limits of the HTTP server itself (the gate's [`Limits`] are about
/// pairing and requests).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServerLimits {
    /// Connections open at once.
    pub max_connections: usize,
    /// The request's head (first line and headers) must have come this
    /// long after the connection opened; an idle connection is closed then.
    pub head_timeout: Duration,
    /// The body must have come this long after the head.
    pub body_timeout: Duration,
    /// A write that cannot go on this long (the peer does not read) closes
    /// the connection.
    pub stall: Duration,
    /// The request's head in bytes, at most.
    pub max_head_bytes: usize,
    /// Header lines, at most.
    pub max_headers: usize,
    /// The socket's sending buffer (bytes): what a page that does not read
    /// can hold up before its writes wait.
    pub send_buffer: usize,
}

impl Default for ServerLimits {
    fn default() -> ServerLimits {
        ServerLimits {
            max_connections: 128,
            head_timeout: Duration::from_secs(5),
            body_timeout: Duration::from_secs(5),
            stall: Duration::from_secs(5),
            max_head_bytes: 8 * 1024,
            max_headers: 32,
            send_buffer: 8 * 1024,
        }
    }
}

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
    /// The HTTP server's own limits.
    pub server: ServerLimits,
    /// This computer's names a browser may use besides its IP addresses
    /// (the host name hector says in the address).
    pub host_names: Vec<String>,
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
    /// A tournament game: the arbiter's seat is open, with a code of its
    /// own ([`CompanionServer::arbiter_code`]).
    pub arbiter: bool,
    /// Tests only: the accept loop panics at this accepted connection (the
    /// first time only), to show the server says so and starts again.
    #[cfg(any(test, feature = "test-support"))]
    pub fail_at: Option<u32>,
}

impl Default for CompanionConfig {
    fn default() -> CompanionConfig {
        CompanionConfig {
            listen: DEFAULT_LISTEN,
            view_without_code: false,
            require_code: false,
            limits: Limits::default(),
            server: ServerLimits::default(),
            host_names: Vec::new(),
            heartbeat: Duration::from_secs(1),
            labels: PageLabels::default(),
            resume: None,
            arbiter: false,
            #[cfg(any(test, feature = "test-support"))]
            fail_at: None,
        }
    }
}

/// Where the app hears the companion's events.
pub type Sink = Box<dyn Fn(CompanionEvent) + Send + Sync>;

/// Frames queued per page before it counts as too slow.
const QUEUE: usize = 16;
/// Between a failure of the accept loop and the next start.
const RESTART_PAUSE: Duration = Duration::from_millis(500);
/// Between two tries to accept when the system refuses (no descriptors).
const ACCEPT_PAUSE: Duration = Duration::from_millis(50);

/// What a page's stream sends.
enum Frame {
    /// A snapshot, as an event (`data: {"seq":…,"state":…}`).
    State(Bytes),
    /// hector stops: the page closes this channel and comes back by itself.
    Bye,
}

struct Stream {
    tx: mpsc::Sender<Frame>,
    /// Closes the stream's connection.
    conn: Arc<Conn>,
}

/// One open connection, for the connection limit.
struct Conn {
    id: u64,
    /// Its request's head has come (it is no longer only idle).
    busy: AtomicBool,
    /// Close it now.
    kill: Notify,
}

#[derive(Default)]
struct Conns {
    next: u64,
    open: VecDeque<Arc<Conn>>,
}

struct Shared {
    gate: Mutex<Gate>,
    /// The latest state: its number, `{"seq":…,"state":…}`, and the same
    /// as a stream event.
    state: Mutex<(u64, Bytes, Bytes)>,
    streams: Mutex<Vec<Stream>>,
    conns: Mutex<Conns>,
    sink: Sink,
    heartbeat: Duration,
    limits: ServerLimits,
    /// The page with its words in it.
    page: Bytes,
    /// A tournament game's action log, `{"log":[…]}` (the arbiter's page's).
    log: Mutex<Bytes>,
    /// The gate's next deadline may have changed (a stream closed).
    gate_changed: Notify,
    /// The failure was said (once).
    failure_said: AtomicBool,
    accepted: AtomicU32,
    fail_at: Option<u32>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic in another task while holding the lock leaves plain data
    // behind; go on with it rather than take the app down.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Shared {
    fn new(config: &CompanionConfig, local_addr: SocketAddr, sink: Sink) -> Shared {
        let mut gate = Gate::new(
            GateConfig {
                listen: local_addr,
                view_without_code: config.view_without_code,
                require_code: config.require_code,
                limits: config.limits,
                host_names: config.host_names.clone(),
            },
            os_entropy(),
        );
        if let Some(p) = &config.resume {
            gate.restore(p);
        }
        if config.arbiter {
            gate.open_arbiter_seat();
        }
        #[cfg(any(test, feature = "test-support"))]
        let fail_at = config.fail_at;
        #[cfg(not(any(test, feature = "test-support")))]
        let fail_at = None;
        let json = r#"{"seq":0,"state":null}"#;
        Shared {
            gate: Mutex::new(gate),
            state: Mutex::new((0, Bytes::from_static(json.as_bytes()), event(json))),
            streams: Mutex::new(Vec::new()),
            conns: Mutex::new(Conns::default()),
            sink,
            heartbeat: config.heartbeat,
            limits: config.server,
            page: Bytes::from(page_with(PAGE, &config.labels)),
            log: Mutex::new(Bytes::from_static(br#"{"log":[]}"#)),
            gate_changed: Notify::new(),
            failure_said: AtomicBool::new(false),
            accepted: AtomicU32::new(0),
            fail_at,
        }
    }

    fn tell(&self, events: Vec<CompanionEvent>) {
        for e in events {
            (self.sink)(e);
        }
    }

    /// Every page's stream ends (hector stops).
    fn bye_all(&self) {
        let mut streams = lock(&self.streams);
        for s in streams.iter() {
            if s.tx.try_send(Frame::Bye).is_err() {
                s.conn.kill.notify_one();
            }
        }
        streams.clear();
    }

    /// A new connection: its place, or none (every place holds a request
    /// being answered).  Over the limit the oldest idle connection gives
    /// its place.
    fn admit(&self) -> Option<Arc<Conn>> {
        let mut conns = lock(&self.conns);
        if conns.open.len() >= self.limits.max_connections {
            let idle = conns
                .open
                .iter()
                .position(|c| !c.busy.load(Ordering::SeqCst))?;
            if let Some(old) = conns.open.remove(idle) {
                old.kill.notify_one();
            }
        }
        conns.next += 1;
        let conn = Arc::new(Conn {
            id: conns.next,
            busy: AtomicBool::new(false),
            kill: Notify::new(),
        });
        conns.open.push_back(Arc::clone(&conn));
        Some(conn)
    }

    fn leave(&self, id: u64) {
        lock(&self.conns).open.retain(|c| c.id != id);
    }
}

/// A running companion server.  Dropping it stops the server.
pub struct CompanionServer {
    shared: Arc<Shared>,
    local_addr: SocketAddr,
    stop: watch::Sender<bool>,
    stopped: std::sync::mpsc::Receiver<()>,
}

fn bind(addr: SocketAddr) -> io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        TcpSocket::new_v4()?
    } else {
        TcpSocket::new_v6()?
    };
    #[cfg(unix)]
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    // Room for a burst of connections while the descriptors run out.
    socket.listen(1024)
}

impl CompanionServer {
    /// Listen on `config.listen` (port 0: any free port) and serve.
    ///
    /// # Errors
    ///
    /// The address cannot be listened on, or the runtime cannot start.
    pub fn start(config: CompanionConfig, sink: Sink) -> io::Result<CompanionServer> {
        let runtime = super::handle()?;
        let listener = {
            let _in_runtime = runtime.enter();
            bind(config.listen)?
        };
        let local_addr = listener.local_addr()?;
        let shared = Arc::new(Shared::new(&config, local_addr, sink));
        let (stop, stop_rx) = watch::channel(false);
        let (stopped_tx, stopped) = std::sync::mpsc::channel();
        runtime.spawn(supervise(
            Arc::clone(&shared),
            listener,
            local_addr,
            stop_rx.clone(),
            stopped_tx,
        ));
        runtime.spawn(watch_gate(Arc::clone(&shared), stop_rx));
        Ok(CompanionServer {
            shared,
            local_addr,
            stop,
            stopped,
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

    /// The arbiter's code of a tournament game (`CompanionConfig::arbiter`).
    pub fn arbiter_code(&self) -> Option<String> {
        lock(&self.shared.gate).arbiter_code().map(str::to_owned)
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
        let frame = {
            let mut state = lock(&self.shared.state);
            let seq = state.0 + 1;
            let json = format!(r#"{{"seq":{seq},"state":{}}}"#, snapshot.to_json());
            let frame = event(&json);
            *state = (seq, Bytes::from(json), frame.clone());
            frame
        };
        let log = serde_json::json!({ "log": snapshot.arbiter_log }).to_string();
        *lock(&self.shared.log) = Bytes::from(log);
        broadcast(&self.shared, &frame);
    }

    /// Free the opponent's seat (the blind player's command); a new code
    /// is made.
    pub fn release(&self) {
        let events = lock(&self.shared.gate).release();
        self.shared.tell(events);
    }
}

impl Drop for CompanionServer {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
        // Tell every page; its stream ends and its connection closes.
        self.shared.bye_all();
        // The listener is closed when the accept loop has ended.
        let _ = self.stopped.recv_timeout(Duration::from_secs(2));
    }
}

/// A snapshot as one stream event (a frame is one line of JSON: serde_json
/// escapes newlines).
fn event(json: &str) -> Bytes {
    let mut b = Vec::with_capacity(json.len() + 8);
    b.extend_from_slice(b"data: ");
    b.extend_from_slice(json.as_bytes());
    b.extend_from_slice(b"\n\n");
    Bytes::from(b)
}

fn broadcast(shared: &Shared, frame: &Bytes) {
    lock(&shared.streams).retain(|s| match s.tx.try_send(Frame::State(frame.clone())) {
        Ok(()) => true,
        // Too slow (it does not read) or gone: close it; a real page
        // reconnects by itself and gets the whole state again.
        Err(_) => {
            s.conn.kill.notify_one();
            false
        }
    });
}

/// Run the accept loop; when it fails (or panics), say so once and start
/// it again on the same address.
async fn supervise(
    shared: Arc<Shared>,
    first: TcpListener,
    addr: SocketAddr,
    mut stop: watch::Receiver<bool>,
    stopped: std::sync::mpsc::Sender<()>,
) {
    let mut listener = Some(first);
    loop {
        let l = match listener.take() {
            Some(l) => l,
            None => match bind(addr) {
                Ok(l) => l,
                Err(_) => {
                    if pause(&mut stop, RESTART_PAUSE).await {
                        break;
                    }
                    continue;
                }
            },
        };
        let run = tokio::spawn(accept_loop(l, Arc::clone(&shared), stop.clone()));
        match run.await {
            Ok(Ok(())) => break,
            // An error the loop cannot go on from, or a panic (tokio caught
            // it; the task's listener is closed).
            Ok(Err(_)) | Err(_) => {
                if !shared.failure_said.swap(true, Ordering::SeqCst) {
                    (shared.sink)(CompanionEvent::ServerFailed);
                }
                if pause(&mut stop, RESTART_PAUSE).await {
                    break;
                }
            }
        }
    }
    let _ = stopped.send(());
}

/// Wait `d`; true when the server is stopping.
async fn pause(stop: &mut watch::Receiver<bool>, d: Duration) -> bool {
    if *stop.borrow() {
        return true;
    }
    tokio::select! {
        () = tokio::time::sleep(d) => *stop.borrow(),
        _ = stop.changed() => true,
    }
}

/// An accept error that passes: no descriptors or memory for now, a
/// connection reset before it was taken.
fn passing(e: &io::Error) -> bool {
    use io::ErrorKind as K;
    if matches!(
        e.kind(),
        K::ConnectionAborted
            | K::ConnectionReset
            | K::Interrupted
            | K::WouldBlock
            | K::TimedOut
            | K::OutOfMemory
    ) {
        return true;
    }
    #[cfg(unix)]
    {
        use rustix::io::Errno;
        let errno = Errno::from_io_error(e);
        if errno.is_some_and(|n| {
            [
                Errno::MFILE,
                Errno::NFILE,
                Errno::NOBUFS,
                Errno::NOMEM,
                Errno::PROTO,
                Errno::PERM,
            ]
            .contains(&n)
        }) {
            return true;
        }
    }
    false
}

async fn accept_loop(
    listener: TcpListener,
    shared: Arc<Shared>,
    mut stop: watch::Receiver<bool>,
) -> io::Result<()> {
    if *stop.borrow() {
        return Ok(());
    }
    loop {
        let accepted = tokio::select! {
            r = listener.accept() => r,
            _ = stop.changed() => return Ok(()),
        };
        match accepted {
            Ok((stream, peer)) => {
                let n = shared.accepted.fetch_add(1, Ordering::SeqCst) + 1;
                if shared.fail_at == Some(n) {
                    #[allow(clippy::panic, reason = "tests only: a failure on demand")]
                    {
                        panic!("companion test failure at connection {n}");
                    }
                }
                let Some(conn) = shared.admit() else {
                    // Every place answers a request: refused.
                    continue;
                };
                let _ = stream.set_nodelay(true);
                let _ =
                    socket2::SockRef::from(&stream).set_send_buffer_size(shared.limits.send_buffer);
                let shared = Arc::clone(&shared);
                tokio::spawn(async move {
                    let _leave = Leave(&shared, conn.id);
                    serve_connection(stream, peer.ip(), &shared, &conn).await;
                });
            }
            Err(e) if passing(&e) => {
                if pause(&mut stop, ACCEPT_PAUSE).await {
                    return Ok(());
                }
            }
            Err(e) => return Err(e),
        }
    }
}

/// Gives a connection's place back however its task ends.
struct Leave<'a>(&'a Shared, u64);

impl Drop for Leave<'_> {
    fn drop(&mut self) {
        self.0.leave(self.1);
    }
}

/// Serve one connection (one request) until it ends or is closed.
async fn serve_connection<T>(io: T, peer: IpAddr, shared: &Arc<Shared>, conn: &Arc<Conn>)
where
    T: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let limits = shared.limits;
    let io = TokioIo::new(Stalling::new(io, limits.stall));
    let service = {
        let shared = Arc::clone(shared);
        let conn = Arc::clone(conn);
        hyper::service::service_fn(move |req| {
            let shared = Arc::clone(&shared);
            let conn = Arc::clone(&conn);
            async move { Ok::<_, Infallible>(respond(req, peer, &shared, &conn).await) }
        })
    };
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.head_timeout)
        .keep_alive(false)
        .half_close(true)
        .max_headers(limits.max_headers)
        .max_buf_size(limits.max_head_bytes.max(8192))
        .max_header_size(limits.max_head_bytes)
        .auto_date_header(false);
    let serving = builder.serve_connection(io, service);
    tokio::select! {
        _ = serving => {}
        () = conn.kill.notified() => {}
    }
}

/// What a response's body is: all at once, or the push channel.
enum Out {
    Full(Full<Bytes>),
    Events(Box<Events>),
}

impl Body for Out {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<BodyFrame<Bytes>, Infallible>>> {
        match self.get_mut() {
            Out::Full(f) => Pin::new(f).poll_frame(cx),
            Out::Events(e) => e.poll(cx),
        }
    }

    fn is_end_stream(&self) -> bool {
        match self {
            Out::Full(f) => f.is_end_stream(),
            Out::Events(_) => false,
        }
    }

    fn size_hint(&self) -> SizeHint {
        match self {
            Out::Full(f) => f.size_hint(),
            Out::Events(_) => SizeHint::default(),
        }
    }
}

/// A page's push channel: the first frame, then each snapshot, a heartbeat
/// when nothing happens, `bye` when hector stops.
struct Events {
    first: Option<Bytes>,
    rx: mpsc::Receiver<Frame>,
    heartbeat: Duration,
    tick: Pin<Box<tokio::time::Sleep>>,
    done: bool,
    _closed: Closed,
}

/// Tells the gate the stream closed, however it ends.
struct Closed {
    shared: Arc<Shared>,
    token: Option<String>,
}

impl Drop for Closed {
    fn drop(&mut self) {
        lock(&self.shared.gate).stream_closed(self.token.as_deref(), Instant::now());
        self.shared.gate_changed.notify_one();
    }
}

impl Events {
    fn poll(&mut self, cx: &mut Context<'_>) -> Poll<Option<Result<BodyFrame<Bytes>, Infallible>>> {
        if self.done {
            return Poll::Ready(None);
        }
        if let Some(first) = self.first.take() {
            return Poll::Ready(Some(Ok(BodyFrame::data(first))));
        }
        match self.rx.poll_recv(cx) {
            Poll::Ready(Some(Frame::State(b))) => {
                let next = tokio::time::Instant::now() + self.heartbeat;
                self.tick.as_mut().reset(next);
                return Poll::Ready(Some(Ok(BodyFrame::data(b))));
            }
            Poll::Ready(Some(Frame::Bye)) => {
                self.done = true;
                let bye = Bytes::from_static(b"event: bye\ndata: {}\n\n");
                return Poll::Ready(Some(Ok(BodyFrame::data(bye))));
            }
            Poll::Ready(None) => return Poll::Ready(None),
            Poll::Pending => {}
        }
        if self.tick.as_mut().poll(cx).is_ready() {
            let next = tokio::time::Instant::now() + self.heartbeat;
            self.tick.as_mut().reset(next);
            return Poll::Ready(Some(Ok(BodyFrame::data(Bytes::from_static(b": ping\n\n")))));
        }
        Poll::Pending
    }
}

/// The socket, with a bound on how long a write may wait: a peer that
/// stops reading cannot hold a connection (and its stream's place) open.
struct Stalling<T> {
    inner: T,
    stall: Duration,
    waiting: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl<T> Stalling<T> {
    fn new(inner: T, stall: Duration) -> Stalling<T> {
        Stalling {
            inner,
            stall,
            waiting: None,
        }
    }

    fn bound<R>(&mut self, cx: &mut Context<'_>, r: Poll<io::Result<R>>) -> Poll<io::Result<R>> {
        match r {
            Poll::Pending => {
                let stall = self.stall;
                let sleep = self
                    .waiting
                    .get_or_insert_with(|| Box::pin(tokio::time::sleep(stall)));
                if sleep.as_mut().poll(cx).is_ready() {
                    return Poll::Ready(Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        "the peer does not read",
                    )));
                }
                Poll::Pending
            }
            ready => {
                self.waiting = None;
                ready
            }
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Stalling<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Stalling<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let r = Pin::new(&mut this.inner).poll_write(cx, buf);
        this.bound(cx, r)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let r = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        this.bound(cx, r)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let r = Pin::new(&mut this.inner).poll_flush(cx);
        this.bound(cx, r)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let r = Pin::new(&mut this.inner).poll_shutdown(cx);
        this.bound(cx, r)
    }
}

/// Read the body: refused by its declared length before a byte is read,
/// at most `MAX_BODY` bytes, within the body timeout.
async fn read_body(
    headers: &hyper::HeaderMap,
    body: Incoming,
    timeout: Duration,
) -> Result<Vec<u8>, RequestError> {
    let declared = headers
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|s| s.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY as u64) {
        return Err(RequestError::BodyTooLarge);
    }
    match tokio::time::timeout(timeout, Limited::new(body, MAX_BODY).collect()).await {
        Ok(Ok(collected)) => Ok(collected.to_bytes().to_vec()),
        Ok(Err(e))
            if e.downcast_ref::<http_body_util::LengthLimitError>()
                .is_some() =>
        {
            Err(RequestError::BodyTooLarge)
        }
        Ok(Err(_)) => Err(RequestError::BadBody("the body was cut off".into())),
        Err(_) => Err(RequestError::TooSlow),
    }
}

async fn respond(
    req: Request<Incoming>,
    peer: IpAddr,
    shared: &Arc<Shared>,
    conn: &Arc<Conn>,
) -> Response<Out> {
    conn.busy.store(true, Ordering::SeqCst);
    let (parts, body) = req.into_parts();
    let body = read_body(&parts.headers, body, shared.limits.body_timeout).await;
    let target = parts
        .uri
        .path_and_query()
        .map(|p| p.as_str())
        .unwrap_or("/");
    let headers: Vec<(&str, std::borrow::Cow<'_, str>)> = parts
        .headers
        .iter()
        .map(|(n, v)| (n.as_str(), String::from_utf8_lossy(v.as_bytes())))
        .collect();
    let header_refs: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (*n, v.as_ref())).collect();
    let parsed = body.and_then(|b| parse(parts.method.as_str(), target, &header_refs, &b));
    let (answer, events) = lock(&shared.gate).decide(peer, parsed, Instant::now());
    shared.tell(events);
    let status = answer.status();
    let json = "application/json";
    match answer {
        Answer::Page => response(status, "text/html; charset=utf-8", shared.page.clone()),
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
            response(status, json, Bytes::from(text))
        }
        Answer::State => {
            let state = lock(&shared.state).1.clone();
            response(status, json, state)
        }
        Answer::Log => {
            let log = lock(&shared.log).clone();
            response(status, json, log)
        }
        Answer::Paired { token, role } => {
            let text = serde_json::json!({"token": token, "role": role_name(role)}).to_string();
            response(status, json, Bytes::from(text))
        }
        Answer::Accepted => response(status, json, Bytes::from_static(br#"{"ok":true}"#)),
        Answer::Refused(e) => response(status, json, Bytes::from(e.to_json())),
        Answer::Stream { token } => open_stream(token, shared, conn),
    }
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Opponent => "opponent",
        Role::Watcher => "watcher",
        Role::Arbiter => "arbiter",
    }
}

const SAFETY_HEADERS: [(&str, &str); 4] = [
    ("cache-control", "no-store"),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
    (
        "content-security-policy",
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; \
         connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; \
         frame-ancestors 'none'",
    ),
];

fn with_headers(status: u16, content_type: &'static str, body: Out) -> Response<Out> {
    let mut r = Response::new(body);
    *r.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST);
    let h = r.headers_mut();
    for (name, value) in SAFETY_HEADERS {
        h.insert(name, HeaderValue::from_static(value));
    }
    h.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    r
}

fn response(status: u16, content_type: &'static str, body: Bytes) -> Response<Out> {
    with_headers(status, content_type, Out::Full(Full::new(body)))
}

/// Answer with an endless `text/event-stream`: it runs until the
/// connection closes, which HTTP/1.1 allows for a response without a length
/// (hyper writes it chunked).
fn open_stream(token: Option<String>, shared: &Arc<Shared>, conn: &Arc<Conn>) -> Response<Out> {
    let (tx, rx) = mpsc::channel::<Frame>(QUEUE);
    let current = lock(&shared.state).2.clone();
    let mut first = Vec::with_capacity(current.len() + 16);
    // Reconnect a second after a drop.
    first.extend_from_slice(b"retry: 1000\n\n");
    first.extend_from_slice(&current);
    let events = lock(&shared.gate).stream_opened(token.as_deref());
    lock(&shared.streams).push(Stream {
        tx,
        conn: Arc::clone(conn),
    });
    shared.tell(events);
    let body = Events {
        first: Some(Bytes::from(first)),
        rx,
        heartbeat: shared.heartbeat,
        tick: Box::pin(tokio::time::sleep(shared.heartbeat)),
        done: false,
        _closed: Closed {
            shared: Arc::clone(shared),
            token,
        },
    };
    with_headers(200, "text/event-stream", Out::Events(Box::new(body)))
}

/// Time passes for the gate: the opponent's page gone for the grace time
/// is said disconnected.
async fn watch_gate(shared: Arc<Shared>, mut stop: watch::Receiver<bool>) {
    loop {
        let deadline = lock(&shared.gate).next_deadline();
        let sleep: Pin<Box<dyn Future<Output = ()> + Send>> = match deadline {
            Some(d) => Box::pin(tokio::time::sleep_until(d.into())),
            None => Box::pin(std::future::pending()),
        };
        tokio::select! {
            () = sleep => {}
            () = shared.gate_changed.notified() => {}
            _ = stop.changed() => return,
        }
        let events = lock(&shared.gate).tick(Instant::now());
        shared.tell(events);
    }
}

/// The server's HTTP path without a socket, for the fuzz target and tests:
/// one connection's bytes through hyper, the server's limits, the request
/// reader and the gate, on an in-memory stream.
#[cfg(any(test, feature = "test-support"))]
pub mod bytes_in {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    struct Rig {
        runtime: tokio::runtime::Runtime,
        shared: Arc<Shared>,
        config: CompanionConfig,
    }

    thread_local! {
        static RIG: Option<Rig> = rig();
    }

    fn rig() -> Option<Rig> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .ok()?;
        let config = CompanionConfig::default();
        let shared = Arc::new(Shared::new(&config, DEFAULT_LISTEN, Box::new(|_| {})));
        Some(Rig {
            runtime,
            shared,
            config,
        })
    }

    /// Serve `input` as one connection's bytes from `127.0.0.1` (the
    /// connection's writing side closed after it) to a server on
    /// 127.0.0.1:8421 with a fresh gate (codes and tokens of bytes 7); what
    /// the server answered.  A push channel is ended as soon as the server
    /// has nothing more to do (as when hector stops).
    pub fn serve(input: &[u8]) -> Vec<u8> {
        RIG.with(|rig| {
            let Some(rig) = rig else { return Vec::new() };
            let shared = &rig.shared;
            *lock(&shared.gate) = Gate::new(
                GateConfig {
                    listen: DEFAULT_LISTEN,
                    view_without_code: rig.config.view_without_code,
                    require_code: rig.config.require_code,
                    limits: rig.config.limits,
                    host_names: Vec::new(),
                },
                Box::new(|b: &mut [u8]| b.fill(7)),
            );
            rig.runtime.block_on(async {
                let (client, server) = tokio::io::duplex(64 * 1024);
                let Some(conn) = shared.admit() else {
                    return Vec::new();
                };
                let task = {
                    let shared = Arc::clone(shared);
                    tokio::spawn(async move {
                        let _leave = Leave(&shared, conn.id);
                        serve_connection(server, IpAddr::from([127, 0, 0, 1]), &shared, &conn)
                            .await;
                    })
                };
                let (mut rd, mut wr) = tokio::io::split(client);
                let writer = async {
                    let _ = wr.write_all(input).await;
                    let _ = wr.shutdown().await;
                };
                let reader = async {
                    let mut out = Vec::new();
                    let mut buf = [0u8; 8192];
                    let mut idle = 0;
                    loop {
                        tokio::select! {
                            biased;
                            r = rd.read(&mut buf) => match r {
                                Ok(0) | Err(_) => break,
                                Ok(n) => {
                                    out.extend_from_slice(&buf[..n]);
                                    idle = 0;
                                }
                            },
                            () = tokio::task::yield_now() => {
                                idle += 1;
                                if idle > 8 {
                                    // Only a push channel waits: end it.
                                    shared.bye_all();
                                }
                            }
                        }
                    }
                    out
                };
                let ((), out) = tokio::join!(writer, reader);
                let _ = task.await;
                out
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::bytes_in::serve;
    use super::*;
    use std::net::Ipv4Addr;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    fn status(out: &[u8]) -> u16 {
        String::from_utf8_lossy(out)
            .strip_prefix("HTTP/1.1 ")
            .and_then(|r| r.get(..3))
            .and_then(|c| c.parse().ok())
            .unwrap_or(0)
    }

    #[test]
    fn the_http_path_answers_and_refuses_by_the_header() {
        let host = "Host: 127.0.0.1:8421\r\n";
        let page = serve(format!("GET / HTTP/1.1\r\n{host}\r\n").as_bytes());
        assert_eq!(status(&page), 200);
        assert!(String::from_utf8_lossy(&page).contains("</html>"));
        // Refused by its length, no body sent at all.
        for n in ["513", "100000000000000"] {
            let out = serve(
                format!("POST /api/pair HTTP/1.1\r\n{host}Content-Type: application/json\r\nContent-Length: {n}\r\n\r\n")
                    .as_bytes(),
            );
            assert_eq!(status(&out), 413, "{n}");
        }
        // Too many header lines, a head too long.
        let many = "X-A: b\r\n".repeat(40);
        assert_eq!(
            status(&serve(
                format!("GET / HTTP/1.1\r\n{host}{many}\r\n").as_bytes()
            )),
            431
        );
        let long = "a".repeat(9000);
        assert_eq!(
            status(&serve(
                format!("GET / HTTP/1.1\r\n{host}X-A: {long}\r\n\r\n").as_bytes()
            )),
            431
        );
        // A body cut off: refused, not waited for.
        let cut = serve(
            format!("POST /api/pair HTTP/1.1\r\n{host}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{{").as_bytes(),
        );
        assert_eq!(status(&cut), 400);
        // The push channel: its first frame, then the end.
        let events = serve(format!("GET /events HTTP/1.1\r\n{host}\r\n").as_bytes());
        let text = String::from_utf8_lossy(&events);
        assert_eq!(status(&events), 200);
        assert!(
            text.contains("retry: 1000") && text.contains("event: bye"),
            "{text}"
        );
        // Garbage: a 400, or nothing at all.
        let junk = serve(b"\x00\xff GARBAGE\r\n\r\n");
        assert!(junk.is_empty() || status(&junk) == 400, "{junk:?}");
    }

    /// One connection served on tokio's paused clock (time jumps to the
    /// next timer when nothing else can run): the server's side, and when
    /// it ended.
    async fn served(
        shared: &Arc<Shared>,
        server: tokio::io::DuplexStream,
    ) -> tokio::task::JoinHandle<tokio::time::Instant> {
        let conn = shared.admit().unwrap();
        let shared = Arc::clone(shared);
        tokio::spawn(async move {
            serve_connection(server, IpAddr::V4(Ipv4Addr::LOCALHOST), &shared, &conn).await;
            tokio::time::Instant::now()
        })
    }

    #[test]
    fn idle_slow_and_unread_connections_end_on_time() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .start_paused(true)
            .build()
            .unwrap();
        rt.block_on(async {
            let config = CompanionConfig::default();
            let shared = Arc::new(Shared::new(&config, DEFAULT_LISTEN, Box::new(|_| {})));
            let limits = config.server;
            let host = "Host: 127.0.0.1:8421\r\n";

            // Nothing sent: closed at the head timeout.
            let (_idle, server) = tokio::io::duplex(4096);
            let t0 = tokio::time::Instant::now();
            let end = served(&shared, server).await.await.unwrap();
            assert_eq!(end - t0, limits.head_timeout);

            // A head, then 10 of 100 bytes: 408 at the body timeout.
            let (mut slow, server) = tokio::io::duplex(4096);
            let t0 = tokio::time::Instant::now();
            let task = served(&shared, server).await;
            let head = format!(
                "POST /api/pair HTTP/1.1\r\n{host}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n0123456789"
            );
            slow.write_all(head.as_bytes()).await.unwrap();
            let mut out = Vec::new();
            slow.read_to_end(&mut out).await.unwrap();
            let end = task.await.unwrap();
            assert!(String::from_utf8_lossy(&out).starts_with("HTTP/1.1 408"));
            assert_eq!(end - t0, limits.body_timeout);

            // A push channel that is never read: once a write waits, it is
            // closed after the stall bound, and its place is given back.
            let (mut unread, server) = tokio::io::duplex(1024);
            let task = served(&shared, server).await;
            let get = format!("GET /events HTTP/1.1\r\n{host}\r\n");
            unread.write_all(get.as_bytes()).await.unwrap();
            while lock(&shared.streams).is_empty() {
                tokio::task::yield_now().await;
            }
            let t0 = tokio::time::Instant::now();
            broadcast(&shared, &Bytes::from(vec![b'x'; 4000]));
            let end = task.await.unwrap();
            assert_eq!(end - t0, limits.stall);
            let mut gate = lock(&shared.gate);
            let (answer, _) = gate.decide(
                IpAddr::V4(Ipv4Addr::LOCALHOST),
                parse("GET", "/events", &[("Host", "127.0.0.1:8421")], b""),
                Instant::now(),
            );
            assert_eq!(answer, Answer::Stream { token: None });
            drop(unread);
        });
    }

    #[test]
    fn over_the_limit_the_oldest_idle_connection_gives_its_place() {
        let config = CompanionConfig {
            server: ServerLimits {
                max_connections: 3,
                ..ServerLimits::default()
            },
            ..CompanionConfig::default()
        };
        let shared = Shared::new(&config, DEFAULT_LISTEN, Box::new(|_| {}));
        let a = shared.admit().unwrap();
        let b = shared.admit().unwrap();
        let c = shared.admit().unwrap();
        a.busy.store(true, Ordering::SeqCst);
        // The fourth: b (the oldest idle) is told to close.
        let d = shared.admit().unwrap();
        let closed = |c: &Arc<Conn>| {
            let n = c.kill.notified();
            tokio::pin!(n);
            n.as_mut().enable()
        };
        assert!(closed(&b) && !closed(&a) && !closed(&c));
        // All busy: the next is refused, nothing closed.
        for x in [&c, &d] {
            x.busy.store(true, Ordering::SeqCst);
        }
        assert!(shared.admit().is_none());
        assert!(!closed(&a) && !closed(&c) && !closed(&d));
        shared.leave(a.id);
        assert!(shared.admit().is_some());
    }
}
