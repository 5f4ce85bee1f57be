//! A stand-in for lichess's API on loopback, written from the published
//! description (lichess-org/api, `doc/specs`): the account, the event
//! stream, one Board API game with its stream, moves, draw, resign, abort
//! and challenges.  Plain HTTP/1.1 on std threads, chunked NDJSON for the
//! streams.  What it does next is set by the test (the opponent's replies,
//! moves to refuse, 429s to give, the game stream to drop once).
#![allow(dead_code)]

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The stand-in's state, shared with the test.
#[derive(Default)]
pub struct State {
    /// The token it accepts.
    pub token: String,
    /// The account's name.
    pub username: String,
    /// Lines for the event stream, in order (each stream sends them all).
    pub events: Vec<String>,
    /// The game: its id, our colour, the opponent, the moves, the status.
    pub game: Option<Game>,
    /// The opponent's answers to the player's moves, in order.
    pub replies: VecDeque<String>,
    /// Moves refused with 400.
    pub refuse: Vec<String>,
    /// How many of the next requests get 429.
    pub rate_limit: usize,
    /// Drop the game stream (no final chunk) once it has this many moves.
    pub drop_at: Option<usize>,
    /// Every request's first line (without the token: it is a header).
    pub log: Vec<String>,
    /// Every header block and body received (for the token search).
    pub raw: Vec<String>,
    /// (branch online) A seek finds an opponent of this name (none: the
    /// seek waits until hector closes it).
    pub seek_opponent: Option<String>,
    /// (branch online) Seeks whose connection hector closed while waiting.
    pub seeks_cancelled: usize,
    /// (branch online) Lines for the game stream, sent in order as they
    /// are added (an opponent's chat line, `opponentGone`, states).
    pub game_lines: Vec<String>,
    /// (branch online) The opponent accepts the player's draw offer.
    pub accept_draw: bool,
    /// (branch online) The opponent's answer to the player's takeback
    /// request (none: no answer).
    pub takeback_answer: Option<bool>,
    /// The `clock_step_ms` of the games challenges make (branch record).
    pub clock_step_ms: u64,
    /// Each reply comes in a state of its own, after the player's move
    /// was sent in one, as lichess does (branch record: each move's clock).
    pub replies_apart: bool,
    /// The network is away: every connection is closed unanswered
    /// (branch record).
    pub unreachable: bool,
    /// Connections closed so while `unreachable`.
    pub dropped: usize,
    /// Broadcast (branch broadcast): each PGN pushed, with its round id.
    pub pushes: Vec<(String, String)>,
    /// Broadcast: pushes are answered 503.
    pub push_503: bool,
    /// Broadcast: push connections are closed unanswered (the network away).
    pub push_dropped: bool,
    /// Broadcast: pushes that were answered 503 or dropped.
    pub push_failures: usize,
}

/// The game of the stand-in.
#[derive(Clone, Default)]
pub struct Game {
    /// The id.
    pub id: String,
    /// Whether the player has White.
    pub white: bool,
    /// The opponent's name.
    pub opponent: String,
    /// The moves, UCI.
    pub moves: Vec<String>,
    /// lichess's status.
    pub status: String,
    /// The winner, `white` or `black`.
    pub winner: Option<String>,
    /// Changed at each move or end.
    pub version: u64,
    /// The opponent offers a draw.
    pub draw_offer: bool,
    /// (branch online) The opponent asks for a takeback.
    pub their_takeback: bool,
    /// (branch online) The player's takeback request is up.
    pub our_takeback: bool,
    /// Milliseconds each side's clock loses per move it makes (0: the
    /// clocks stay at ten minutes) (branch record: the %clk of exports).
    pub clock_step_ms: u64,
    /// The opponent's reply, made once the player's move was streamed
    /// (`replies_apart`).
    pub later: Option<String>,
}

/// The running stand-in.
pub struct StandIn {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    /// Its state.
    pub state: Arc<Mutex<State>>,
}

impl StandIn {
    /// Starts it on a free loopback port; it ends with the test process.
    pub fn start(token: &str, username: &str) -> StandIn {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        let url = format!("http://{}", listener.local_addr().expect("address"));
        let state = Arc::new(Mutex::new(State {
            token: token.to_owned(),
            username: username.to_owned(),
            ..State::default()
        }));
        let s = state.clone();
        std::thread::spawn(move || {
            for conn in listener.incoming().flatten() {
                let s = s.clone();
                std::thread::spawn(move || {
                    let _ = serve(conn, &s);
                });
            }
        });
        StandIn { url, state }
    }

    /// Waits (at most 10 s) until `f` holds of the state.
    pub fn wait_for(&self, what: &str, f: impl Fn(&State) -> bool) {
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(10) {
            if f(&self.state.lock().unwrap()) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("the stand-in never saw: {what}");
    }
}

fn game_full(g: &Game, me: &str) -> String {
    let (w, b) = if g.white {
        (me, g.opponent.as_str())
    } else {
        (g.opponent.as_str(), me)
    };
    format!(
        r#"{{"type":"gameFull","id":"{}","variant":{{"key":"standard","name":"Standard"}},"speed":"rapid","perf":{{"name":"Rapid"}},"rated":false,"createdAt":1,"white":{{"id":"{}","name":"{w}","rating":1500}},"black":{{"id":"{}","name":"{b}","rating":1600}},"initialFen":"startpos","clock":{{"initial":600000,"increment":5000}},"state":{}}}"#,
        g.id,
        w.to_lowercase(),
        b.to_lowercase(),
        game_state(g)
    )
}

fn game_state(g: &Game) -> String {
    let winner = g
        .winner
        .as_ref()
        .map(|w| format!(r#","winner":"{w}""#))
        .unwrap_or_default();
    let (wdraw, bdraw) = if g.white {
        (false, g.draw_offer)
    } else {
        (g.draw_offer, false)
    };
    let (wtb, btb) = if g.white {
        (g.our_takeback, g.their_takeback)
    } else {
        (g.their_takeback, g.our_takeback)
    };
    let (wtime, btime) = clocks(g);
    format!(
        r#"{{"type":"gameState","moves":"{}","wtime":{wtime},"btime":{btime},"winc":5000,"binc":5000,"status":"{}"{winner},"wdraw":{wdraw},"bdraw":{bdraw},"wtakeback":{wtb},"btakeback":{btb}}}"#,
        g.moves.join(" "),
        g.status
    )
}

/// Both clocks: ten minutes, less `clock_step_ms` per move of each side.
fn clocks(g: &Game) -> (u64, u64) {
    let white_moves = g.moves.len().div_ceil(2) as u64;
    let black_moves = (g.moves.len() / 2) as u64;
    (
        600_000u64.saturating_sub(white_moves * g.clock_step_ms),
        600_000u64.saturating_sub(black_moves * g.clock_step_ms),
    )
}

fn serve(mut conn: TcpStream, state: &Arc<Mutex<State>>) -> std::io::Result<()> {
    conn.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(conn.try_clone()?);
    loop {
        let mut first = String::new();
        if reader.read_line(&mut first)? == 0 {
            return Ok(());
        }
        let first = first.trim_end().to_owned();
        {
            // The network away: every request's connection closed unanswered.
            let mut s = state.lock().unwrap();
            if s.unreachable {
                s.dropped += 1;
                drop(s);
                return conn.shutdown(std::net::Shutdown::Both);
            }
        }
        let mut headers = String::new();
        let mut length = 0usize;
        loop {
            let mut h = String::new();
            if reader.read_line(&mut h)? == 0 {
                return Ok(());
            }
            if h == "\r\n" {
                break;
            }
            if let Some(v) = h.to_ascii_lowercase().strip_prefix("content-length:") {
                length = v.trim().parse().unwrap_or(0);
            }
            headers.push_str(&h);
        }
        let mut body = vec![0; length.min(1 << 16)];
        reader.read_exact(&mut body)?;
        let body = String::from_utf8_lossy(&body).into_owned();
        let mut parts = first.split(' ');
        let method = parts.next().unwrap_or("").to_owned();
        let path = parts.next().unwrap_or("").to_owned();
        let authorised = {
            let mut s = state.lock().unwrap();
            s.log.push(format!("{method} {path}"));
            s.raw.push(format!("{first}\n{headers}\n{body}"));
            let want = format!("authorization: bearer {}", s.token.to_ascii_lowercase());
            headers
                .lines()
                .any(|l| l.trim().to_ascii_lowercase() == want)
        };
        if path.starts_with("/api/broadcast/") {
            let mut s = state.lock().unwrap();
            if s.push_dropped || s.push_503 {
                s.push_failures += 1;
                if s.push_dropped {
                    drop(s);
                    return conn.shutdown(std::net::Shutdown::Both);
                }
                drop(s);
                respond(&mut conn, 503, "Service Unavailable")?;
                continue;
            }
        }
        if !authorised {
            respond(&mut conn, 401, r#"{"error":"No such token"}"#)?;
            continue;
        }
        {
            let mut s = state.lock().unwrap();
            if s.rate_limit > 0 {
                s.rate_limit -= 1;
                drop(s);
                respond(&mut conn, 429, r#"{"error":"Too many requests"}"#)?;
                continue;
            }
        }
        let segs: Vec<&str> = path.split('?').next().unwrap_or("").split('/').collect();
        match (method.as_str(), &segs[1..]) {
            ("GET", ["api", "account"]) => {
                let name = state.lock().unwrap().username.clone();
                respond(
                    &mut conn,
                    200,
                    &format!(r#"{{"id":"{}","username":"{name}"}}"#, name.to_lowercase()),
                )?;
            }
            ("GET", ["api", "stream", "event"]) => return event_stream(conn, state),
            ("GET", ["api", "board", "game", "stream", id]) => {
                let id = (*id).to_owned();
                return game_stream(conn, state, &id);
            }
            ("POST", ["api", "board", "game", _, "move", uci]) => {
                let uci = (*uci).to_owned();
                let mut s = state.lock().unwrap();
                if s.refuse.contains(&uci) {
                    drop(s);
                    respond(
                        &mut conn,
                        400,
                        r#"{"error":"Piece does not exist on that square"}"#,
                    )?;
                    continue;
                }
                let reply = s.replies.pop_front();
                let apart = s.replies_apart;
                if let Some(g) = s.game.as_mut() {
                    g.moves.push(uci);
                    g.version += 1;
                    if apart {
                        g.later = reply;
                    } else if let Some(r) = reply {
                        g.moves.push(r);
                        g.version += 1;
                    }
                }
                drop(s);
                respond(&mut conn, 200, r#"{"ok":true}"#)?;
            }
            ("POST", ["api", "board", "game", _, what, rest @ ..]) => {
                let what = (*what).to_owned();
                let yes = rest.first().is_none_or(|a| *a == "yes");
                let mut s = state.lock().unwrap();
                let white = s.game.as_ref().is_some_and(|g| g.white);
                let me = s.username.clone();
                let accept_draw = s.accept_draw;
                let takeback_answer = s.takeback_answer;
                let mut lines = Vec::new();
                if let Some(g) = s.game.as_mut() {
                    let ours_last = |g: &Game| (g.moves.len() % 2 == 1) == g.white;
                    match what.as_str() {
                        "resign" => {
                            g.status = "resign".into();
                            g.winner = Some(if white { "black" } else { "white" }.into());
                        }
                        "abort" => g.status = "aborted".into(),
                        "draw" if yes && (g.draw_offer || accept_draw) => g.status = "draw".into(),
                        "draw" if !yes => g.draw_offer = false,
                        "claim-victory" => {
                            g.status = "timeout".into();
                            g.winner = Some(if white { "white" } else { "black" }.into());
                        }
                        // The opponent's request answered: yes takes back
                        // to their turn.
                        "takeback" if g.their_takeback => {
                            g.their_takeback = false;
                            if yes {
                                let n = if ours_last(g) { 2 } else { 1 };
                                let keep = g.moves.len().saturating_sub(n);
                                g.moves.truncate(keep);
                            }
                        }
                        // Ours: the opponent's answer (yes: back to our turn).
                        "takeback" if yes => match takeback_answer {
                            Some(true) => {
                                let n = if ours_last(g) { 1 } else { 2 };
                                let keep = g.moves.len().saturating_sub(n);
                                g.moves.truncate(keep);
                            }
                            Some(false) => {
                                g.our_takeback = true;
                                lines.push(game_state(g));
                                g.our_takeback = false;
                            }
                            None => g.our_takeback = true,
                        },
                        "chat" => {
                            // lichess sends the player's own line back.
                            let text = body
                                .split('&')
                                .find_map(|kv| kv.strip_prefix("text="))
                                .unwrap_or("")
                                .replace('+', " ");
                            lines.push(format!(
                                r#"{{"type":"chatLine","room":"player","username":"{me}","text":"{text}"}}"#
                            ));
                        }
                        _ => {}
                    }
                    g.version += 1;
                }
                s.game_lines.extend(lines);
                drop(s);
                respond(&mut conn, 200, r#"{"ok":true}"#)?;
            }
            ("POST", ["api", "board", "seek"]) => return seek(conn, state, &body),
            ("POST", ["api", "challenge", user]) => {
                let user = (*user).to_owned();
                let mut s = state.lock().unwrap();
                let white = body.contains("color=white");
                let game = Game {
                    id: "stand1n0".into(),
                    white,
                    opponent: user.clone(),
                    status: "started".into(),
                    clock_step_ms: s.clock_step_ms,
                    ..Game::default()
                };
                let color = if white { "white" } else { "black" };
                s.events.push(format!(
                    r#"{{"type":"gameStart","game":{{"fullId":"stand1n0abcd","gameId":"stand1n0","color":"{color}","rated":false,"opponent":{{"id":"{}","username":"{user}","rating":1600}},"isMyTurn":{white},"compat":{{"bot":false,"board":true}}}}}}"#,
                    user.to_lowercase()
                ));
                s.game = Some(game);
                drop(s);
                respond(
                    &mut conn,
                    200,
                    r#"{"id":"chall123","url":"http://x/chall123","status":"created"}"#,
                )?;
            }
            // The broadcast push (branch broadcast): the PGN is the body.
            ("POST", ["api", "broadcast", "round", round, "push"]) if round.len() == 8 => {
                let round = (*round).to_owned();
                let plain = headers
                    .to_ascii_lowercase()
                    .contains("content-type: text/plain");
                let moves = body.matches('.').count();
                state.lock().unwrap().pushes.push((round, body));
                if plain {
                    respond(
                        &mut conn,
                        200,
                        &format!(r#"{{"games":[{{"tags":{{}},"moves":{moves}}}]}}"#),
                    )?;
                } else {
                    respond(&mut conn, 400, r#"{"error":"Expected text/plain"}"#)?;
                }
            }
            _ => respond(&mut conn, 404, r#"{"error":"Not found"}"#)?,
        }
    }
}

fn respond(conn: &mut TcpStream, status: u16, body: &str) -> std::io::Result<()> {
    write!(
        conn,
        "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )?;
    conn.flush()
}

fn chunk(conn: &mut TcpStream, line: &str) -> std::io::Result<()> {
    let line = format!("{line}\n");
    write!(conn, "{:x}\r\n{line}\r\n", line.len())?;
    conn.flush()
}

fn stream_head(conn: &mut TcpStream) -> std::io::Result<()> {
    write!(
        conn,
        "HTTP/1.1 200 OK\r\ncontent-type: application/x-ndjson\r\ntransfer-encoding: chunked\r\n\r\n"
    )?;
    conn.flush()
}

fn event_stream(mut conn: TcpStream, state: &Arc<Mutex<State>>) -> std::io::Result<()> {
    stream_head(&mut conn)?;
    let mut sent = 0;
    let t = Instant::now();
    // Bounded: a test lasts less than a minute.
    while t.elapsed() < Duration::from_secs(60) {
        let lines: Vec<String> = state.lock().unwrap().events[sent..].to_vec();
        for l in &lines {
            chunk(&mut conn, l)?;
        }
        sent += lines.len();
        std::thread::sleep(Duration::from_millis(10));
    }
    Ok(())
}

fn game_stream(mut conn: TcpStream, state: &Arc<Mutex<State>>, id: &str) -> std::io::Result<()> {
    let (full, mut version) = {
        let s = state.lock().unwrap();
        match s.game.as_ref().filter(|g| g.id == id) {
            Some(g) => (game_full(g, &s.username), g.version),
            None => {
                drop(s);
                return respond(&mut conn, 404, r#"{"error":"No such game"}"#);
            }
        }
    };
    stream_head(&mut conn)?;
    chunk(&mut conn, &full)?;
    let mut extra = state.lock().unwrap().game_lines.len();
    let t = Instant::now();
    while t.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(5));
        let lines: Vec<String> = state.lock().unwrap().game_lines[extra..].to_vec();
        for l in &lines {
            chunk(&mut conn, l)?;
        }
        extra += lines.len();
        let mut s = state.lock().unwrap();
        let drop_at = s.drop_at;
        let Some(g) = s.game.clone() else {
            return Ok(());
        };
        if g.version == version {
            // The player's move is streamed: now the reply, if it waits.
            if let Some(game) = s.game.as_mut()
                && let Some(r) = game.later.take()
            {
                game.moves.push(r);
                game.version += 1;
            }
            continue;
        }
        version = g.version;
        if drop_at.is_some_and(|n| g.moves.len() >= n) {
            // The connection breaks: no final chunk.
            s.drop_at = None;
            drop(s);
            return conn.shutdown(std::net::Shutdown::Both);
        }
        drop(s);
        chunk(&mut conn, &game_state(&g))?;
        if g.status != "started" {
            write!(conn, "0\r\n\r\n")?;
            return conn.flush();
        }
    }
    Ok(())
}

/// (branch online) `POST /api/board/seek`: held open with keep-alive
/// lines; with an opponent set, a game starts (on the event stream) and
/// the seek's answer ends, as on lichess; without, it waits until hector
/// closes the connection (which cancels the seek), counted.
fn seek(mut conn: TcpStream, state: &Arc<Mutex<State>>, body: &str) -> std::io::Result<()> {
    stream_head(&mut conn)?;
    chunk(&mut conn, "")?;
    let opponent = state.lock().unwrap().seek_opponent.clone();
    if let Some(user) = opponent {
        let white = !body.contains("color=black");
        let color = if white { "white" } else { "black" };
        let mut s = state.lock().unwrap();
        s.events.push(format!(
            r#"{{"type":"gameStart","game":{{"fullId":"seek1n0gabcd","gameId":"seek1n0g","color":"{color}","rated":false,"opponent":{{"id":"{}","username":"{user}","rating":1600}},"isMyTurn":{white},"compat":{{"bot":false,"board":true}}}}}}"#,
            user.to_lowercase()
        ));
        s.game = Some(Game {
            id: "seek1n0g".into(),
            white,
            opponent: user,
            status: "started".into(),
            ..Game::default()
        });
        drop(s);
        std::thread::sleep(Duration::from_millis(50));
        write!(conn, "0\r\n\r\n")?;
        return conn.flush();
    }
    conn.set_read_timeout(Some(Duration::from_millis(50)))?;
    let t = Instant::now();
    let mut buf = [0u8; 64];
    while t.elapsed() < Duration::from_secs(60) {
        match conn.read(&mut buf) {
            Ok(0) => {
                state.lock().unwrap().seeks_cancelled += 1;
                return Ok(());
            }
            Ok(_) => {}
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(_) => {
                state.lock().unwrap().seeks_cancelled += 1;
                return Ok(());
            }
        }
    }
    Ok(())
}
