//! Online play's HTTP client on the shared runtime: reqwest with rustls.
//! Three kinds of task, none of which decides anything: the account's
//! event stream, one game's stream (each cut into lines, decoded by the
//! sans-IO `lichess::event`, handed on as [`LichessIo`] through a sink,
//! reconnecting after `lichess::schedule::Backoff`'s pause), and the
//! request queue, which sends one request at a time as
//! `lichess::schedule::Scheduler` allows.  The token goes into the
//! `Authorization` header and nowhere else (and, for `/api/token/test`
//! alone, into that request's body, which lichess's description asks
//! for).  Every answer is read bounded: a stream's lines at
//! `event::Lines::MAX`, every other answer at [`api::MAX_REPLY`]; a
//! gzip-encoded answer is decoded first (reqwest's `gzip`), so the bounds
//! are on what is decoded.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::runtime::Handle;
use tokio::sync::mpsc;

use crate::lichess::api::{self, Method, NoAnswer, Reply, Request};
use crate::lichess::event::{self, DecodeError, GameEvent, Lines};
use crate::lichess::io::{LichessIo, Stream};
use crate::lichess::schedule::{Backoff, Outcome, Scheduler};
use crate::lichess::token::Token;
use crate::toml_error::IoWhy;

/// Where [`LichessIo`] goes (to the app, as a `Msg`).  Returns `false`
/// once nobody listens: the task ends.
pub type Sink = Arc<dyn Fn(LichessIo) -> bool + Send + Sync>;

/// A connection's settings: the server and the token.
#[derive(Clone)]
pub struct Client {
    http: reqwest::Client,
    base: String,
    token: Token,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("base", &self.base)
            .finish_non_exhaustive()
    }
}

/// Connecting waits at most this long; a stream with nothing (not even
/// lichess's empty keep-alive line, sent every few seconds) for this long
/// is taken as dropped.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
const STREAM_SILENCE: Duration = Duration::from_secs(20);
const REQUEST_TIMEOUT: Duration = Duration::from_secs(15);

impl Client {
    /// A client of the server at `base` (`https://lichess.org`, or a
    /// stand-in on loopback in tests).
    ///
    /// # Errors
    ///
    /// The TLS set-up failed: why, as far as hector can word it.
    pub fn new(base: &str, token: Token) -> Result<Self, IoWhy> {
        let http = reqwest::Client::builder()
            .user_agent(concat!("hector/", env!("CARGO_PKG_VERSION")))
            .connect_timeout(CONNECT_TIMEOUT)
            .build()
            .map_err(|e| IoWhy::of_error(&e))?;
        Ok(Self {
            http,
            base: base.trim_end_matches('/').to_owned(),
            token,
        })
    }

    pub(super) fn builder(&self, method: Method, path: &str) -> reqwest::RequestBuilder {
        let url = format!("{}{path}", self.base);
        let b = match method {
            Method::Get => self.http.get(url),
            Method::Post => self.http.post(url),
        };
        b.bearer_auth(self.token.secret())
    }

    /// Sends one request and reads its answer (at most
    /// [`api::MAX_REPLY`] of it).
    pub async fn send(&self, request: &Request) -> Reply {
        let (method, path, form) = request.http();
        let mut b = self.builder(method, &path).timeout(REQUEST_TIMEOUT);
        if *request == Request::TokenTest {
            // The one request whose body is the token itself, as lichess
            // asks (`tags/oauth/api-token-test.yaml`: text/plain).
            b = b
                .header(reqwest::header::CONTENT_TYPE, "text/plain")
                .body(self.token.secret().to_owned());
        } else if method == Method::Post {
            b = b.form(&form);
        }
        match b.send().await {
            Err(e) => Reply::Failed(no_answer(&e)),
            Ok(mut r) => {
                let status = r.status().as_u16();
                let Some(body) = read_bounded(&mut r).await else {
                    return match status {
                        500..=599 => Reply::Failed(NoAnswer::Status(status)),
                        _ => Reply::TooLong { status },
                    };
                };
                match status {
                    200..=299 => Reply::Done(body),
                    429 => Reply::RateLimited,
                    500..=599 => Reply::Failed(NoAnswer::Status(status)),
                    _ => Reply::Refused {
                        status,
                        error: api::error_text(&body),
                    },
                }
            }
        }
    }
}

/// An answer's body, read chunk by chunk: none once it passes
/// [`api::MAX_REPLY`] (the rest is never read: the connection is dropped),
/// the text (invalid UTF-8 replaced) otherwise.  A body broken off midway
/// is what came of it.
async fn read_bounded(r: &mut reqwest::Response) -> Option<String> {
    if r.content_length()
        .is_some_and(|n| n > api::MAX_REPLY as u64)
    {
        return None;
    }
    let mut body = Vec::new();
    while let Ok(Some(chunk)) = r.chunk().await {
        if body.len() + chunk.len() > api::MAX_REPLY {
            return None;
        }
        body.extend_from_slice(&chunk);
    }
    Some(String::from_utf8_lossy(&body).into_owned())
}

impl Client {
    /// Sends a request whose answer is held open (a seek; a challenge with
    /// `keepAliveStream`) and reads it to its end, with no time limit but
    /// lichess's keep-alive lines.  Its first line that is not empty (the
    /// challenge lichess made) goes to `first` as soon as it comes; the
    /// end is the reply: `Done` with that line (empty for a seek, which
    /// sends none) when lichess closed it.
    async fn hold(&self, request: &Request, first: impl FnOnce(&str) -> bool) -> Reply {
        let (method, path, form) = request.http();
        let b = self.builder(method, &path).form(&form);
        let mut r = match b.send().await {
            Err(e) => return Reply::Failed(no_answer(&e)),
            Ok(r) => r,
        };
        let status = r.status().as_u16();
        match status {
            200..=299 => {}
            429 => return Reply::RateLimited,
            400..=499 => {
                return match read_bounded(&mut r).await {
                    Some(body) => Reply::Refused {
                        status,
                        error: api::error_text(&body),
                    },
                    None => Reply::TooLong { status },
                };
            }
            _ => return Reply::Failed(NoAnswer::Status(status)),
        }
        let mut lines = Lines::default();
        let mut first = Some(first);
        let mut made = String::new();
        loop {
            let chunk = match tokio::time::timeout(STREAM_SILENCE, r.chunk()).await {
                Ok(Ok(Some(c))) => c,
                Ok(Ok(None)) => return Reply::Done(made),
                Ok(Err(e)) => return Reply::Failed(no_answer(&e)),
                // No keep-alive line in time.
                Err(_) => return Reply::Failed(NoAnswer::System(IoWhy::TimedOut)),
            };
            for line in lines.push(&chunk).into_iter().flatten() {
                if line.trim().is_empty() || !made.is_empty() {
                    continue;
                }
                made = line;
                if let Some(f) = first.take()
                    && !f(&made)
                {
                    return Reply::Done(made);
                }
            }
        }
    }
}

/// reqwest's error without the URL (the text is logged).
/// Why a request got no answer: a time limit, else the kind of the
/// connection's error inside reqwest's, else reqwest's text without the
/// URL.
fn no_answer(e: &reqwest::Error) -> NoAnswer {
    NoAnswer::System(if e.is_timeout() {
        IoWhy::TimedOut
    } else {
        match IoWhy::of_error(e) {
            IoWhy::Other(_) => IoWhy::Other(without_url(e)),
            why => why,
        }
    })
}

fn without_url(e: &reqwest::Error) -> String {
    let mut s = e.to_string();
    if let Some(url) = e.url() {
        s = s.replace(url.as_str(), "(url)");
    }
    s
}

/// Starts the account's event stream on the shared runtime.
///
/// # Errors
///
/// The runtime could not start.
pub fn spawn_account_stream(client: Client, sink: Sink) -> std::io::Result<Handle> {
    let handle = super::handle()?;
    handle.spawn(stream(client, Stream::Account, sink));
    Ok(handle)
}

/// Starts a game's stream on the shared runtime; it ends with the game.
///
/// # Errors
///
/// The runtime could not start.
pub fn spawn_game_stream(client: Client, game: String, sink: Sink) -> std::io::Result<Handle> {
    let handle = super::handle()?;
    handle.spawn(stream(client, Stream::Game(game), sink));
    Ok(handle)
}

/// Starts the request queue; requests sent into the returned sender are
/// made one at a time, each answer handed to `sink`.
///
/// # Errors
///
/// The runtime could not start.
pub fn spawn_requests(
    client: Client,
    sink: Sink,
) -> std::io::Result<mpsc::UnboundedSender<Request>> {
    let handle = super::handle()?;
    let (tx, rx) = mpsc::unbounded_channel();
    handle.spawn(requests(client, rx, sink));
    Ok(tx)
}

/// Starts a seek (`POST /api/board/seek`) on the shared runtime: the
/// request is held open, as lichess asks, until the server ends it (a
/// game started: it comes on the account's stream).  Its answer goes to
/// `sink` as [`LichessIo::Reply`]: `Done` when lichess closed it, a refusal
/// or a failure otherwise.  Dropping the connection (hector quits: the
/// runtime ends) cancels the seek on lichess.
///
/// # Errors
///
/// The runtime could not start.
pub fn spawn_seek(client: Client, request: Request, sink: Sink) -> std::io::Result<Handle> {
    let handle = super::handle()?;
    handle.spawn(held(client, request, sink));
    Ok(handle)
}

/// A request whose answer lichess holds open, carried to its end: the
/// challenge lichess made is handed on as soon as it comes (a `Reply` with
/// its JSON, which holds its id, the game's to be), and a failure or
/// refusal at the end; a seek's or challenge's ordinary end (a game
/// began, the challenge was answered: the event stream says which) is
/// not handed on again.
async fn held(client: Client, request: Request, sink: Sink) {
    let mut told = false;
    let reply = client
        .hold(&request, |line| {
            told = true;
            sink(LichessIo::Reply(
                request.clone(),
                Reply::Done(line.to_owned()),
            ))
        })
        .await;
    if told && matches!(reply, Reply::Done(_)) {
        return;
    }
    let _ = sink(LichessIo::Reply(request, reply));
}

enum Ended {
    /// Closed or broken: reconnect.
    Dropped,
    /// Refused with this status: stop.
    Refused(u16),
    /// The game is over: stop.
    GameOver,
    /// Nobody listens: stop.
    Unheard,
}

async fn stream(client: Client, which: Stream, sink: Sink) {
    let path = match &which {
        Stream::Account => api::EVENT_STREAM.to_owned(),
        Stream::Game(id) => api::game_stream(id),
    };
    let mut backoff = Backoff::default();
    loop {
        let ended = read_stream(&client, &path, &which, &sink, &mut backoff).await;
        let go_on = match ended {
            Ended::Dropped => sink(LichessIo::StreamDown(which.clone())),
            Ended::Refused(status) => {
                sink(LichessIo::StreamRefused(which.clone(), status));
                false
            }
            Ended::GameOver => {
                sink(LichessIo::StreamEnded(which.clone()));
                false
            }
            Ended::Unheard => false,
        };
        if !go_on {
            return;
        }
        tokio::time::sleep(backoff.fail()).await;
    }
}

async fn read_stream(
    client: &Client,
    path: &str,
    which: &Stream,
    sink: &Sink,
    backoff: &mut Backoff,
) -> Ended {
    let Ok(mut response) = client.builder(Method::Get, path).send().await else {
        return Ended::Dropped;
    };
    let status = response.status().as_u16();
    match status {
        200..=299 => {}
        429 => {
            // A full minute, as lichess asks, before the next attempt.
            if !sink(LichessIo::RateLimited) {
                return Ended::Unheard;
            }
            tokio::time::sleep(crate::lichess::schedule::RATE_LIMIT_WAIT).await;
            return Ended::Dropped;
        }
        400..=499 => return Ended::Refused(status),
        _ => return Ended::Dropped,
    }
    backoff.reset();
    if !sink(LichessIo::StreamOpen(which.clone())) {
        return Ended::Unheard;
    }
    let mut lines = Lines::default();
    let mut over = false;
    loop {
        let chunk = match tokio::time::timeout(STREAM_SILENCE, response.chunk()).await {
            Ok(Ok(Some(c))) => c,
            Ok(Ok(None)) => {
                return if over {
                    Ended::GameOver
                } else {
                    Ended::Dropped
                };
            }
            Ok(Err(_)) | Err(_) => return Ended::Dropped,
        };
        for line in lines.push(&chunk) {
            let io = match line.and_then(|l| decode(which, &l)) {
                Ok(None) => continue,
                Ok(Some(io)) => io,
                Err(e) => LichessIo::BadLine(which.clone(), e),
            };
            if let LichessIo::Game(_, GameEvent::State(s)) = &io {
                over |= s.is_over();
            }
            if let LichessIo::Game(_, GameEvent::Full(f)) = &io {
                over |= f.state.is_over();
            }
            if !sink(io) {
                return Ended::Unheard;
            }
        }
    }
}

fn decode(which: &Stream, line: &str) -> Result<Option<LichessIo>, DecodeError> {
    Ok(match which {
        Stream::Account => event::account_line(line)?.map(|e| LichessIo::Account(Box::new(e))),
        Stream::Game(id) => event::game_line(line)?.map(|e| LichessIo::Game(id.clone(), e)),
    })
}

async fn requests(client: Client, mut rx: mpsc::UnboundedReceiver<Request>, sink: Sink) {
    let mut queue: Scheduler<Request> = Scheduler::new();
    loop {
        while let Some(r) = queue.next(Instant::now()) {
            if r.held_open() {
                // Held open by lichess until answered: carried apart, so
                // the moves and offers behind it are not kept waiting.
                tokio::spawn(held(client.clone(), r, sink.clone()));
                let _ = queue.done(Outcome::Answered, Instant::now());
                continue;
            }
            let reply = client.send(&r).await;
            let outcome = match &reply {
                Reply::RateLimited => Outcome::RateLimited,
                Reply::Failed(_) => Outcome::Failed,
                Reply::Done(_) | Reply::Refused { .. } | Reply::TooLong { .. } => Outcome::Answered,
            };
            if queue.done(outcome, Instant::now()).is_some() && !sink(LichessIo::RateLimited) {
                return;
            }
            // A failed or rate-limited request is tried again, silently,
            // after its wait: only answers go on.
            if outcome == Outcome::Answered && !sink(LichessIo::Reply(r, reply)) {
                return;
            }
        }
        let wait = queue
            .deadline()
            .map(|t| t.saturating_duration_since(Instant::now()));
        let got = match wait {
            Some(d) => match tokio::time::timeout(d, rx.recv()).await {
                Ok(got) => got,
                Err(_) => continue,
            },
            None => rx.recv().await,
        };
        match got {
            Some(r) => queue.push(r),
            None => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;
    use std::sync::mpsc as std_mpsc;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::{TcpListener, TcpStream};

    const TOKEN: &str = "lip_secretSECRET42";

    /// What the stand-in does with each connection, in order: the status,
    /// the chunks of the body, and whether to end the body properly.
    type Script = Vec<(u16, Vec<String>, bool)>;

    /// Each request's first line, and whether it carried the token.
    type Seen = Arc<Mutex<Vec<(String, bool)>>>;

    /// A stand-in on loopback, on a runtime of its own: answers each
    /// connection with the next entry of `script`, records each request's
    /// first line and whether it carried the token.
    fn stand_in(script: Script) -> (String, Seen) {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let seen2 = seen.clone();
        let (tx, rx) = std_mpsc::channel();
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                let l = TcpListener::bind("127.0.0.1:0").await.unwrap();
                tx.send(l.local_addr().unwrap()).unwrap();
                for (status, chunks, finish) in script {
                    let Ok(Ok((s, _))) =
                        tokio::time::timeout(Duration::from_secs(10), l.accept()).await
                    else {
                        return;
                    };
                    answer(s, status, chunks, finish, &seen2).await;
                }
            });
        });
        let addr = rx.recv_timeout(Duration::from_secs(5)).unwrap();
        (format!("http://{addr}"), seen)
    }

    async fn answer(
        mut s: TcpStream,
        status: u16,
        chunks: Vec<String>,
        finish: bool,
        seen: &Mutex<Vec<(String, bool)>>,
    ) {
        let mut head = Vec::new();
        let mut b = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") && head.len() < 8192 {
            if s.read(&mut b).await.unwrap_or(0) == 0 {
                return;
            }
            head.push(b[0]);
        }
        let head = String::from_utf8_lossy(&head).to_string();
        let first = head.lines().next().unwrap_or("").to_owned();
        let authorised = head
            .lines()
            .any(|l| l.eq_ignore_ascii_case(&format!("authorization: Bearer {TOKEN}")));
        seen.lock().unwrap().push((first, authorised));
        let mut out = format!(
            "HTTP/1.1 {status} X\r\ncontent-type: application/x-ndjson\r\ntransfer-encoding: chunked\r\n\r\n"
        );
        for c in &chunks {
            out.push_str(&format!("{:x}\r\n{c}\r\n", c.len()));
        }
        let _ = s.write_all(out.as_bytes()).await;
        if finish {
            let _ = s.write_all(b"0\r\n\r\n").await;
        }
        let _ = s.flush().await;
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    fn full(moves: &str, status: &str) -> String {
        format!(
            r#"{{"type":"gameFull","id":"g1","white":{{"id":"me","name":"Me"}},"black":{{"id":"mary","name":"Mary","rating":1500}},"rated":false,"initialFen":"startpos","state":{{"type":"gameState","moves":"{moves}","wtime":60000,"btime":60000,"winc":0,"binc":0,"status":"{status}"}}}}"#
        ) + "\n"
    }

    fn state(moves: &str, status: &str) -> String {
        format!(
            r#"{{"type":"gameState","moves":"{moves}","wtime":60000,"btime":60000,"winc":0,"binc":0,"status":"{status}"}}"#
        ) + "\n"
    }

    fn collect() -> (Sink, std_mpsc::Receiver<LichessIo>) {
        let (tx, rx) = std_mpsc::channel();
        let tx = Mutex::new(tx);
        (Arc::new(move |io| tx.lock().unwrap().send(io).is_ok()), rx)
    }

    fn next(rx: &std_mpsc::Receiver<LichessIo>) -> LichessIo {
        rx.recv_timeout(Duration::from_secs(10)).unwrap()
    }

    fn moves_of(io: &LichessIo) -> Option<String> {
        match io {
            LichessIo::Game(_, GameEvent::Full(f)) => Some(f.state.moves.clone()),
            LichessIo::Game(_, GameEvent::State(s)) => Some(s.moves.clone()),
            _ => None,
        }
    }

    #[test]
    fn a_game_stream_is_read_across_a_drop_and_ends_with_the_game() {
        // First connection: the game, one move, a line cut in two chunks,
        // a keep-alive, a broken line, then the connection breaks
        // (no final chunk).  Second: the whole game again, then its end.
        let st = state("e2e4 e7e5", "started");
        let (a, b) = st.split_at(20);
        let (base, seen) = stand_in(vec![
            (
                200,
                vec![
                    full("e2e4", "started"),
                    a.into(),
                    b.into(),
                    "\n".into(),
                    "{oops\n".into(),
                ],
                false,
            ),
            (
                200,
                vec![
                    full("e2e4 e7e5 g1f3", "started"),
                    state("e2e4 e7e5 g1f3", "resign"),
                ],
                true,
            ),
        ]);
        let client = Client::new(&base, Token::parse(TOKEN).unwrap()).unwrap();
        let (sink, rx) = collect();
        spawn_game_stream(client, "g1".into(), sink).unwrap();
        let g = Stream::Game("g1".into());
        assert_eq!(next(&rx), LichessIo::StreamOpen(g.clone()));
        assert_eq!(moves_of(&next(&rx)).as_deref(), Some("e2e4"));
        assert_eq!(moves_of(&next(&rx)).as_deref(), Some("e2e4 e7e5"));
        assert!(matches!(next(&rx), LichessIo::BadLine(..)));
        assert_eq!(next(&rx), LichessIo::StreamDown(g.clone()));
        let t = Instant::now();
        assert_eq!(next(&rx), LichessIo::StreamOpen(g.clone()));
        // The first reconnect waits the first backoff, 0.5 s.
        assert!(
            t.elapsed() >= Duration::from_millis(400),
            "{:?}",
            t.elapsed()
        );
        assert_eq!(moves_of(&next(&rx)).as_deref(), Some("e2e4 e7e5 g1f3"));
        assert_eq!(moves_of(&next(&rx)).as_deref(), Some("e2e4 e7e5 g1f3"));
        assert_eq!(next(&rx), LichessIo::StreamEnded(g));
        let seen = seen.lock().unwrap();
        assert_eq!(seen.len(), 2);
        for (line, authorised) in seen.iter() {
            assert_eq!(line, "GET /api/board/game/stream/g1 HTTP/1.1");
            assert!(authorised);
        }
    }

    #[test]
    fn a_refused_token_stops_the_stream() {
        let (base, seen) = stand_in(vec![(
            401,
            vec![r#"{"error":"No such token"}"#.into()],
            true,
        )]);
        let client = Client::new(&base, Token::parse(TOKEN).unwrap()).unwrap();
        let (sink, rx) = collect();
        spawn_account_stream(client, sink).unwrap();
        assert_eq!(next(&rx), LichessIo::StreamRefused(Stream::Account, 401));
        assert!(
            rx.recv_timeout(Duration::from_millis(1200)).is_err(),
            "not retried"
        );
        assert_eq!(seen.lock().unwrap().len(), 1);
    }

    #[test]
    fn requests_go_one_at_a_time_and_a_429_is_said() {
        let (base, seen) = stand_in(vec![
            (200, vec![r#"{"ok":true}"#.into()], true),
            (400, vec![r#"{"error":"Not your turn"}"#.into()], true),
            (429, vec![], true),
        ]);
        let client = Client::new(&base, Token::parse(TOKEN).unwrap()).unwrap();
        let (sink, rx) = collect();
        let tx = spawn_requests(client, sink).unwrap();
        let mv = |uci: &str| Request::Move {
            game: "g1".into(),
            uci: uci.into(),
            offering_draw: false,
        };
        for r in [
            mv("e2e4"),
            mv("d2d4"),
            Request::Resign { game: "g1".into() },
        ] {
            tx.send(r).unwrap();
        }
        assert_eq!(
            next(&rx),
            LichessIo::Reply(mv("e2e4"), Reply::Done(r#"{"ok":true}"#.into()))
        );
        assert_eq!(
            next(&rx),
            LichessIo::Reply(
                mv("d2d4"),
                Reply::Refused {
                    status: 400,
                    error: "Not your turn".into()
                }
            )
        );
        assert_eq!(next(&rx), LichessIo::RateLimited);
        // The resignation waits its minute: nothing more for now.
        assert!(rx.recv_timeout(Duration::from_millis(500)).is_err());
        let seen = seen.lock().unwrap();
        let lines: Vec<&str> = seen.iter().map(|(l, _)| l.as_str()).collect();
        assert_eq!(
            lines,
            [
                "POST /api/board/game/g1/move/e2e4 HTTP/1.1",
                "POST /api/board/game/g1/move/d2d4 HTTP/1.1",
                "POST /api/board/game/g1/resign HTTP/1.1",
            ]
        );
    }

    /// A stand-in that answers each connection, concurrently, with the
    /// next bytes of `answers` and holds it open for the given time
    /// (each request's first line recorded, its body too).
    fn raw_stand_in(answers: Vec<(Vec<u8>, Duration)>) -> (String, Seen, Arc<Mutex<Vec<String>>>) {
        let seen: Seen = Arc::new(Mutex::new(Vec::new()));
        let bodies = Arc::new(Mutex::new(Vec::new()));
        let (seen2, bodies2) = (seen.clone(), bodies.clone());
        let (tx, rx) = std_mpsc::channel();
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                let l = TcpListener::bind("127.0.0.1:0").await.unwrap();
                tx.send(l.local_addr().unwrap()).unwrap();
                let mut tasks = Vec::new();
                for (bytes, hold) in answers {
                    let Ok(Ok((mut s, _))) =
                        tokio::time::timeout(Duration::from_secs(10), l.accept()).await
                    else {
                        break;
                    };
                    let (seen, bodies) = (seen2.clone(), bodies2.clone());
                    tasks.push(tokio::spawn(async move {
                        let mut head = Vec::new();
                        let mut b = [0u8; 1];
                        while !head.ends_with(b"\r\n\r\n") && head.len() < 8192 {
                            if s.read(&mut b).await.unwrap_or(0) == 0 {
                                return;
                            }
                            head.push(b[0]);
                        }
                        let head = String::from_utf8_lossy(&head).to_string();
                        let length = head
                            .lines()
                            .find_map(|l| {
                                l.to_ascii_lowercase()
                                    .strip_prefix("content-length:")
                                    .map(|v| v.trim().parse::<usize>().unwrap_or(0))
                            })
                            .unwrap_or(0);
                        let mut body = vec![0; length];
                        let _ = s.read_exact(&mut body).await;
                        bodies
                            .lock()
                            .unwrap()
                            .push(String::from_utf8_lossy(&body).to_string());
                        let first = head.lines().next().unwrap_or("").to_owned();
                        seen.lock().unwrap().push((first, head.contains(TOKEN)));
                        let _ = s.write_all(&bytes).await;
                        let _ = s.flush().await;
                        tokio::time::sleep(hold).await;
                    }));
                }
                for t in tasks {
                    let _ = t.await;
                }
            });
        });
        let addr = rx.recv_timeout(Duration::from_secs(5)).unwrap();
        (format!("http://{addr}"), seen, bodies)
    }

    fn chunked(head: &str, chunks: &[&[u8]], end: bool) -> Vec<u8> {
        let mut out =
            format!("HTTP/1.1 200 OK\r\n{head}transfer-encoding: chunked\r\n\r\n").into_bytes();
        for c in chunks {
            out.extend_from_slice(format!("{:x}\r\n", c.len()).as_bytes());
            out.extend_from_slice(c);
            out.extend_from_slice(b"\r\n");
        }
        if end {
            out.extend_from_slice(b"0\r\n\r\n");
        }
        out
    }

    #[test]
    fn a_gzip_encoded_game_stream_is_read() {
        // Issue 31.7: a gzip-encoded stream was undecodable, and the game
        // said not begun.
        use flate2::{Compression, write::GzEncoder};
        use std::io::Write as _;
        let mut z = GzEncoder::new(Vec::new(), Compression::default());
        z.write_all(full("e2e4", "started").as_bytes()).unwrap();
        z.write_all(state("e2e4 e7e5", "resign").as_bytes())
            .unwrap();
        let gz = z.finish().unwrap();
        let (a, b) = gz.split_at(gz.len() / 2);
        let (base, _, _) = raw_stand_in(vec![(
            chunked(
                "content-type: application/x-ndjson\r\ncontent-encoding: gzip\r\n",
                &[a, b],
                true,
            ),
            Duration::from_millis(50),
        )]);
        let client = Client::new(&base, Token::parse(TOKEN).unwrap()).unwrap();
        let (sink, rx) = collect();
        spawn_game_stream(client, "g1".into(), sink).unwrap();
        assert_eq!(next(&rx), LichessIo::StreamOpen(Stream::Game("g1".into())));
        assert_eq!(moves_of(&next(&rx)).as_deref(), Some("e2e4"));
        assert_eq!(moves_of(&next(&rx)).as_deref(), Some("e2e4 e7e5"));
        assert_eq!(next(&rx), LichessIo::StreamEnded(Stream::Game("g1".into())));
    }

    #[test]
    fn an_overlong_reply_is_left_unread_and_the_queue_goes_on() {
        // Issue 31.5: a 100 MB answer to a move took hector to 321 MB.
        let big = vec![b' '; 256 * 1024];
        let many: Vec<&[u8]> = std::iter::repeat_n(big.as_slice(), 24).collect(); // 6 MiB
        let (base, seen, _) = raw_stand_in(vec![
            (
                chunked("content-type: application/json\r\n", &many, true),
                Duration::from_millis(50),
            ),
            (
                b"HTTP/1.1 400 X\r\ncontent-length: 200000000\r\n\r\n{}".to_vec(),
                Duration::from_millis(50),
            ),
            (
                chunked("", &[br#"{"ok":true}"#], true),
                Duration::from_millis(50),
            ),
        ]);
        let client = Client::new(&base, Token::parse(TOKEN).unwrap()).unwrap();
        let (sink, rx) = collect();
        let tx = spawn_requests(client, sink).unwrap();
        let mv = |uci: &str| Request::Move {
            game: "g1".into(),
            uci: uci.into(),
            offering_draw: false,
        };
        for m in ["e2e4", "d2d4", "c2c4"] {
            tx.send(mv(m)).unwrap();
        }
        assert_eq!(
            next(&rx),
            LichessIo::Reply(mv("e2e4"), Reply::TooLong { status: 200 })
        );
        assert_eq!(
            next(&rx),
            LichessIo::Reply(mv("d2d4"), Reply::TooLong { status: 400 })
        );
        assert_eq!(
            next(&rx),
            LichessIo::Reply(mv("c2c4"), Reply::Done(r#"{"ok":true}"#.into()))
        );
        assert_eq!(seen.lock().unwrap().len(), 3);
    }

    #[test]
    fn a_challenge_held_open_hands_on_its_id_and_the_moves_behind_it_go_on() {
        let challenge = Request::Challenge {
            user: "Mary".into(),
            limit_s: 600,
            increment_s: 5,
            color: None,
            rated: false,
        };
        let made = r#"{"id":"uGK4MHaQ","url":"https://lichess.org/uGK4MHaQ","status":"created"}"#;
        let (base, seen, bodies) = raw_stand_in(vec![
            (
                // Held open: the challenge, a keep-alive line, no end.
                chunked(
                    "content-type: application/x-ndjson\r\n",
                    &[format!("{made}\n").as_bytes(), b"\n"],
                    false,
                ),
                Duration::from_secs(3),
            ),
            (
                chunked("", &[br#"{"ok":true}"#], true),
                Duration::from_millis(50),
            ),
            (
                chunked(
                    "",
                    &[br#"{"lip_x":{"userId":"g","scopes":"board:play"}}"#],
                    true,
                ),
                Duration::from_millis(50),
            ),
        ]);
        let client = Client::new(&base, Token::parse(TOKEN).unwrap()).unwrap();
        let (sink, rx) = collect();
        let tx = spawn_requests(client, sink).unwrap();
        tx.send(challenge.clone()).unwrap();
        assert_eq!(
            next(&rx),
            LichessIo::Reply(challenge.clone(), Reply::Done(made.into()))
        );
        let resign = Request::Resign { game: "g1".into() };
        tx.send(resign.clone()).unwrap();
        assert_eq!(
            next(&rx),
            LichessIo::Reply(resign, Reply::Done(r#"{"ok":true}"#.into()))
        );
        tx.send(Request::TokenTest).unwrap();
        assert!(matches!(
            next(&rx),
            LichessIo::Reply(Request::TokenTest, Reply::Done(_))
        ));
        let seen = seen.lock().unwrap();
        assert_eq!(seen[0].0, "POST /api/challenge/Mary HTTP/1.1");
        assert_eq!(seen[2].0, "POST /api/token/test HTTP/1.1");
        let bodies = bodies.lock().unwrap();
        assert!(bodies[0].contains("keepAliveStream=true"), "{}", bodies[0]);
        // The token test's body is the token, as lichess asks.
        assert_eq!(bodies[2], TOKEN);
        // Then the held challenge breaks off (the stand-in lets go): said.
        assert!(matches!(
            rx.recv_timeout(Duration::from_secs(10)).unwrap(),
            LichessIo::Reply(Request::Challenge { .. }, Reply::Failed(_))
        ));
    }
}
