//! Issue 12's latency figures, measured many times over real loopback
//! sockets: the app, its companion server (hyper on its tokio thread + Server-Sent
//! Events) and a page's push channel read by a client here.
//!
//! - **board → page**: from the last board message of a move handed to
//!   `App::update` to the page's push channel delivering the snapshot with
//!   that move (the app's work, the snapshot built from the view model, the
//!   JSON, the server thread, the socket).
//! - **tap → announcement**: from the page's `POST /api/move` written to
//!   the socket to the say-effect of the move returned by `App::update`
//!   (HTTP parsing, the pairing gate, the app's channel, the app).
//! - **typed move → page**: from a move typed in line mode (no board)
//!   handed to `App::update` to the page's push channel delivering it.
//!
//! What the browser adds (its JavaScript drawing the board) is measured by
//! the end-to-end test `companion_game::latency_board_to_page_and_tap_to_announcement`
//! in headless Chromium.  Target of the issue: p99 under 50 ms each.
//!
//! `cargo bench --features test-support --bench companion` (`HECTOR_BENCH_PLIES=N`, default 2000
//! plies: half timed each way).  Prints n, p50, p99 and max.
#![allow(
    missing_docs,
    clippy::expect_used,
    clippy::unwrap_used,
    reason = "a benchmark: set-up may panic"
)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use shakmaty::san::SanPlus;
use shakmaty::{Board, Chess, Move, Position};

use hector::io::{CompanionConfig, CompanionEvent, CompanionServer};
use hector::io::{LinkEvent, Protocol};
use hector::testing::{BoardSession, SimBoard, TrackerConfig};
use hector::testing::{CompanionLimits, Snapshot, page_squares};
use hector::{App, Effect, Msg};

/// A fresh game: the app with a connected DGT board at the start (no
/// settle wait: the figure is the software's, not the hardware file's).
fn new_game() -> (App, SimBoard) {
    let mut app = App::builder().build();
    let config = TrackerConfig {
        settle: Duration::ZERO,
        detect_rotation: false,
        ..TrackerConfig::default()
    };
    let session = BoardSession::new(Protocol::Dgt, config, app.game().position(), false);
    hector::testing::attach_board(&mut app, session);
    let now = Instant::now();
    let _ = app.update(Msg::Board(LinkEvent::Connected), now);
    let sim = SimBoard::new(Protocol::Dgt, Board::new());
    let _ = app.update(Msg::Board(LinkEvent::Bytes(sim.dump())), now);
    (app, sim)
}

/// What the front end's loop does after each message: deadlines that are
/// due, then the snapshot published if it changed.
fn settle_and_publish(
    app: &mut App,
    server: &CompanionServer,
    shown: &mut Option<Snapshot>,
    mut effects: Vec<Effect>,
) -> Vec<Effect> {
    while app.next_deadline().is_some_and(|d| d <= Instant::now()) {
        effects.extend(app.update(Msg::Deadline, Instant::now()));
    }
    let now = app.companion_snapshot();
    if shown.as_ref() != Some(&now) {
        server.publish(&now);
        *shown = Some(now);
    }
    effects
}

/// The push channel as a page opens it; each `data:` line with the time it
/// arrived.
fn open_events(addr: SocketAddr, token: &str) -> Receiver<(Instant, String)> {
    let mut s = TcpStream::connect(addr).expect("connect");
    write!(
        s,
        "GET /events?token={token} HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
    )
    .expect("request");
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(s).lines().map_while(Result::ok) {
            if let Some(data) = line.strip_prefix("data: ")
                && tx.send((Instant::now(), data.to_owned())).is_err()
            {
                return;
            }
        }
    });
    rx
}

/// One request, the connection closed after it; the body.
fn request(addr: SocketAddr, method: &str, path: &str, token: Option<&str>, body: &str) -> String {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_nodelay(true).ok();
    let token = token
        .map(|t| format!("X-Hector-Token: {t}\r\n"))
        .unwrap_or_default();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n{token}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .expect("request");
    let mut text = String::new();
    let _ = s.read_to_string(&mut text);
    text.split("\r\n\r\n").nth(1).unwrap_or_default().to_owned()
}

fn report(name: &str, v: &mut [f64]) {
    v.sort_by(|a, b| a.total_cmp(b));
    let at = |p: f64| v[((v.len() as f64 - 1.0) * p).round() as usize];
    println!(
        "companion {name}: n={} p50={:.3} ms p99={:.3} ms max={:.3} ms",
        v.len(),
        at(0.5),
        at(0.99),
        at(1.0)
    );
}

/// A varied legal move (no promotion: the page would ask for the piece;
/// no rook move while its side may still castle: on the board a rook
/// h1-f1 is also the first half of a castling, and the tracker gives the
/// king 2.5 s before it announces the rook move: a figure of the board's
/// rules, not of the page).
fn pick(pos: &Chess, seed: &mut u64) -> Option<Move> {
    let castles = pos.castles().has_color(pos.turn());
    let moves: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| m.promotion().is_none())
        .filter(|m| !(castles && m.role() == shakmaty::Role::Rook))
        .collect();
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    (!moves.is_empty()).then(|| moves[(*seed % moves.len() as u64) as usize])
}

fn main() {
    let plies: usize = std::env::var("HECTOR_BENCH_PLIES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    let (tx, events) = channel();
    let server = CompanionServer::start(
        CompanionConfig {
            listen: "127.0.0.1:0".parse().expect("address"),
            // One address making thousands of moves: the figure is not the
            // rate limiter's.
            limits: CompanionLimits {
                burst: u32::MAX,
                per_second: u32::MAX,
                ..CompanionLimits::default()
            },
            ..CompanionConfig::default()
        },
        Box::new(move |e| {
            let _ = tx.send(e);
        }),
    )
    .expect("server");
    let addr = server.local_addr();
    let paired = request(addr, "POST", "/api/pair", None, "{}");
    let token = serde_json::from_str::<serde_json::Value>(&paired).expect("json")["token"]
        .as_str()
        .expect("a token")
        .to_owned();
    let frames = open_events(addr, &token);
    let (mut app, mut sim) = new_game();
    let mut shown = None;
    settle_and_publish(&mut app, &server, &mut shown, Vec::new());
    let (mut to_page, mut to_said) = (Vec::new(), Vec::new());
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut game_plies = 0;
    for _ in 0..plies {
        let pos = app.game().position().clone();
        let m = match pick(&pos, &mut seed) {
            Some(m) if !pos.is_game_over() && game_plies < 120 => m,
            _ => {
                // A new game on the same page.
                (app, sim) = new_game();
                game_plies = 0;
                settle_and_publish(&mut app, &server, &mut shown, Vec::new());
                continue;
            }
        };
        game_plies += 1;
        let san = SanPlus::from_move(pos.clone(), m).to_string();
        let want = format!("\"san\":\"{san}\"");
        while frames.try_recv().is_ok() {}
        let bytes = sim.play(&pos, m, false);
        let blind = pos.turn() == app.me();
        if blind {
            // The blind player's move on the tactile board → the page.
            let (last, first) = bytes.split_last().expect("a message");
            for b in first {
                let e = app.update(Msg::Board(LinkEvent::Bytes(b.clone())), Instant::now());
                settle_and_publish(&mut app, &server, &mut shown, e);
            }
            let t0 = Instant::now();
            let e = app.update(Msg::Board(LinkEvent::Bytes(last.clone())), t0);
            settle_and_publish(&mut app, &server, &mut shown, e);
            let seen = loop {
                let Ok((t, data)) = frames.recv_timeout(Duration::from_secs(5)) else {
                    panic!(
                        "the page never got {san} ({}) in {}: played {}, said {:?}",
                        shakmaty::uci::UciMove::from_standard(m),
                        shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal),
                        app.game().history().len(),
                        app.last_said_text()
                    );
                };
                if data.contains(&want) {
                    break t;
                }
            };
            to_page.push((seen - t0).as_secs_f64() * 1000.0);
        } else {
            // The opponent's tap on the page → the announcement.
            let (from, to) = page_squares(&m, pos.turn());
            let body = format!(r#"{{"from":"{from}","to":"{to}"}}"#);
            let t0 = Instant::now();
            let mut s = TcpStream::connect(addr).expect("connect");
            s.set_nodelay(true).ok();
            write!(
                s,
                "POST /api/move HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nX-Hector-Token: {token}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            )
            .expect("request");
            let said = loop {
                let ev = events
                    .recv_timeout(Duration::from_secs(5))
                    .expect("the tap reaches the app");
                if !matches!(ev, CompanionEvent::Action(_)) {
                    continue;
                }
                let e = app.update(Msg::Companion(ev), Instant::now());
                let done = Instant::now();
                assert!(
                    e.iter().any(|e| matches!(e, Effect::Say(_))),
                    "the tap {san} is said: {e:?}"
                );
                settle_and_publish(&mut app, &server, &mut shown, e);
                break done;
            };
            to_said.push((said - t0).as_secs_f64() * 1000.0);
            let mut rest = String::new();
            let _ = s.read_to_string(&mut rest);
            // The tactile board makes it too (awaited there).
            for b in bytes {
                let e = app.update(Msg::Board(LinkEvent::Bytes(b)), Instant::now());
                settle_and_publish(&mut app, &server, &mut shown, e);
            }
        }
    }
    report("board move -> page push channel", &mut to_page);
    report("tap (POST /api/move) -> announcement", &mut to_said);
    let mut typed = typed_to_page(&server, &frames, plies / 2);
    report("typed move -> page push channel", &mut typed);
}

/// A move typed in line mode (no board: the blind player types both
/// sides) → the page's push channel delivering it; in ms.
fn typed_to_page(
    server: &CompanionServer,
    frames: &Receiver<(Instant, String)>,
    plies: usize,
) -> Vec<f64> {
    let mut app = App::builder().build();
    let mut shown = None;
    settle_and_publish(&mut app, server, &mut shown, Vec::new());
    let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
    let mut game_plies = 0;
    let mut out = Vec::new();
    for _ in 0..plies {
        let pos = app.game().position().clone();
        let m = match pick(&pos, &mut seed) {
            Some(m) if !pos.is_game_over() && game_plies < 120 => m,
            _ => {
                app = App::builder().build();
                game_plies = 0;
                settle_and_publish(&mut app, server, &mut shown, Vec::new());
                continue;
            }
        };
        game_plies += 1;
        let san = SanPlus::from_move(pos.clone(), m).to_string();
        let want = format!("\"san\":\"{san}\"");
        while frames.try_recv().is_ok() {}
        let t0 = Instant::now();
        let e = app.update(Msg::Line(san.clone()), t0);
        settle_and_publish(&mut app, server, &mut shown, e);
        let seen = loop {
            let (t, data) = frames
                .recv_timeout(Duration::from_secs(5))
                .unwrap_or_else(|_| panic!("the page never got the typed {san}"));
            if data.contains(&want) {
                break t;
            }
        };
        out.push((seen - t0).as_secs_f64() * 1000.0);
    }
    out
}
