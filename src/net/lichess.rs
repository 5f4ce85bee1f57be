//! Online play's HTTP client on the shared runtime: reqwest with rustls.
//! Three kinds of task, none of which decides anything: the account's
//! event stream, one game's stream (each cut into lines, decoded by the
//! sans-IO `lichess::event`, handed on as [`LichessIo`] through a sink,
//! reconnecting after `lichess::schedule::Backoff`'s pause), and the
//! request queue, which sends one request at a time as
//! `lichess::schedule::Scheduler` allows.  The token goes into the
//! `Authorization` header and nowhere else.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::runtime::Handle;
use tokio::sync::mpsc;

use crate::lichess::api::{self, Method, Reply, Request};
use crate::lichess::event::{self, DecodeError, GameEvent, Lines};
use crate::lichess::io::{LichessIo, Stream};
use crate::lichess::schedule::{Backoff, Outcome, Scheduler};
use crate::lichess::token::Token;

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
    /// The TLS set-up failed.
    pub fn new(base: &str, token: Token) -> Result<Self, String> {
        let http = reqwest::Client::builder()
            .user_agent(concat!("hector/", env!("CARGO_PKG_VERSION")))
            .connect_timeout(CONNECT_TIMEOUT)
            .build()
            .map_err(|e| e.to_string())?;
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

    /// Sends one request and reads its answer.
    pub async fn send(&self, request: &Request) -> Reply {
        let (method, path, form) = request.http();
        let mut b = self.builder(method, &path).timeout(REQUEST_TIMEOUT);
        if method == Method::Post {
            b = b.form(&form);
        }
        match b.send().await {
            Err(e) => Reply::Failed(without_url(&e)),
            Ok(r) => {
                let status = r.status().as_u16();
                let body = r.text().await.unwrap_or_default();
                match status {
                    200..=299 => Reply::Done(body),
                    429 => Reply::RateLimited,
                    500..=599 => Reply::Failed(format!("HTTP {status}")),
                    _ => Reply::Refused {
                        status,
                        error: api::error_text(&body),
                    },
                }
            }
        }
    }
}

impl Client {
    /// Sends a request whose answer is held open (a seek) and reads it to
    /// its end, with no time limit but lichess's keep-alive lines.
    async fn hold(&self, request: &Request) -> Reply {
        let (method, path, form) = request.http();
        let b = self.builder(method, &path).form(&form);
        let mut r = match b.send().await {
            Err(e) => return Reply::Failed(without_url(&e)),
            Ok(r) => r,
        };
        let status = r.status().as_u16();
        match status {
            200..=299 => {}
            429 => return Reply::RateLimited,
            400..=499 => {
                let body = r.text().await.unwrap_or_default();
                return Reply::Refused {
                    status,
                    error: api::error_text(&body),
                };
            }
            _ => return Reply::Failed(format!("HTTP {status}")),
        }
        loop {
            match tokio::time::timeout(STREAM_SILENCE, r.chunk()).await {
                Ok(Ok(Some(_))) => {}
                Ok(Ok(None)) => return Reply::Done(String::new()),
                Ok(Err(e)) => return Reply::Failed(without_url(&e)),
                Err(_) => return Reply::Failed("no keep-alive".to_owned()),
            }
        }
    }
}

/// reqwest's error without the URL (the text is logged).
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
    handle.spawn(async move {
        let reply = client.hold(&request).await;
        let _ = sink(LichessIo::Reply(request, reply));
    });
    Ok(handle)
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
            let reply = client.send(&r).await;
            let outcome = match &reply {
                Reply::RateLimited => Outcome::RateLimited,
                Reply::Failed(_) => Outcome::Failed,
                Reply::Done(_) | Reply::Refused { .. } => Outcome::Answered,
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
}
