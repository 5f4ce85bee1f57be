//! The engine session and its process driver with real processes: small
//! fake engines (tests/engines/*.sh) for every fault, and the real
//! Stockfish (the Debian package, installed by scripts/deps.sh) at a low
//! level.  Lines arrive in real time; a hang is found by passing the
//! session an instant past its deadline (no test sleeps to wait for one).

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use hector::io::{EngineSettings, EngineStrength as Strength};
use hector::testing::{
    EngineCommand, EngineEvent, EngineExit as ExitInfo, EngineFault as Fault, EngineIo,
    EngineOptionNote as OptionNote, EngineProcess, EngineScore as Score, EngineSession,
    EngineTimeouts as Timeouts, EngineWaiting as Waiting, EngineWanted as Wanted, ProcessEvent,
    SearchLimit as Limit, SearchPurpose as Purpose, SearchRequest, SearchResult,
};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, Move, Position};

fn fake(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/engines")
        .join(name)
        .display()
        .to_string()
}

/// A session wired to a running process.
struct Live {
    process: Option<EngineProcess>,
    session: EngineSession,
    rx: Receiver<EngineIo>,
    pid: u32,
}

impl Live {
    fn start(program: &str, settings: EngineSettings) -> Result<Live, Fault> {
        let cmd = EngineCommand::locate(Some(program))?;
        let (tx, rx) = mpsc::channel();
        let process = EngineProcess::spawn(&cmd, 7, move |io| tx.send(io).is_ok())?;
        let pid = process.id();
        let mut live = Live {
            process: Some(process),
            session: EngineSession::new(settings, Timeouts::default()),
            rx,
            pid,
        };
        live.session.start(Instant::now());
        live.flush();
        Ok(live)
    }

    fn flush(&mut self) {
        while let Some(line) = self.session.poll_transmit() {
            if let Some(p) = &self.process {
                p.send(line);
            }
        }
    }

    /// The next event, feeding the session what the process sends for at
    /// most `limit` of real time.
    fn next_event(&mut self, limit: Duration) -> Option<EngineEvent> {
        let end = Instant::now() + limit;
        loop {
            if let Some(e) = self.session.poll_event() {
                return Some(e);
            }
            let left = end.checked_duration_since(Instant::now())?;
            let io = self.rx.recv_timeout(left).ok()?;
            assert_eq!(io.generation, 7);
            match io.event {
                ProcessEvent::Line(l) => self.session.handle_line(&l, Instant::now()),
                ProcessEvent::Exited(x) => self.session.handle_exit(x),
                ProcessEvent::StartFailed(f) => self.session.fail(f),
            }
            self.flush();
        }
    }

    fn ready(&mut self) -> Vec<OptionNote> {
        let mut notes = Vec::new();
        loop {
            match self.next_event(Duration::from_secs(20)) {
                Some(EngineEvent::Ready { .. }) => return notes,
                Some(EngineEvent::Note(n)) => notes.push(n),
                other => panic!("not ready: {other:?}"),
            }
        }
    }

    fn search(&mut self, req: SearchRequest) {
        self.session.search(req, Instant::now()).expect("search");
        self.flush();
    }

    fn best(&mut self) -> SearchResult {
        match self.next_event(Duration::from_secs(20)) {
            Some(EngineEvent::BestMove(r)) => r,
            other => panic!("no bestmove: {other:?}"),
        }
    }

    fn fault(&mut self) -> Fault {
        match self.next_event(Duration::from_secs(20)) {
            Some(EngineEvent::Fault(f)) => f,
            other => panic!("no fault: {other:?}"),
        }
    }
}

fn game_request(purpose: Purpose, moves: &[Move], limit: Limit) -> SearchRequest {
    SearchRequest {
        purpose,
        start: Chess::default(),
        mode: CastlingMode::Standard,
        moves: moves.to_vec(),
        limit,
    }
}

fn mv(pos: &Chess, uci: &str) -> Move {
    uci.parse::<UciMove>()
        .expect("uci")
        .to_move(pos)
        .expect("legal")
}

const QUICK: Limit = Limit::MoveTime(Duration::from_millis(30));

/// Every process whose process group is `pgid`, zombies included.
fn group_members(pgid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return out;
    };
    for entry in dir.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // pid (comm) state ppid pgrp ...
        let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.get(2).and_then(|g| g.parse::<u32>().ok()) == Some(pgid) {
            out.push(pid);
        }
    }
    out
}

/// The engine and everything it started are gone (and reaped) soon after.
fn assert_group_gone(pgid: u32) {
    let end = Instant::now() + Duration::from_secs(3);
    while !group_members(pgid).is_empty() {
        assert!(
            Instant::now() < end,
            "left behind: {:?}",
            group_members(pgid)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn missing_engine_is_not_found() {
    let err = Live::start("/nonexistent/dir/stockfish", EngineSettings::default()).err();
    assert_eq!(
        err,
        Some(Fault::NotFound {
            program: "/nonexistent/dir/stockfish".into()
        })
    );
    let err = Live::start("hector-no-such-engine", EngineSettings::default()).err();
    assert!(matches!(err, Some(Fault::NotFound { .. })), "{err:?}");
    let (key, args) = err.expect("fault").phrase();
    assert_eq!(key, "engine_not_found");
    assert_eq!(args, [("program", "hector-no-such-engine".to_owned())]);
}

#[test]
fn engine_that_cannot_run_is_said_with_the_reason() {
    let dir = std::env::temp_dir().join(format!("hector-engine-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let file: PathBuf = dir.join("not-executable");
    std::fs::write(&file, "#!/bin/sh\n").expect("write");
    let err = Live::start(&file.display().to_string(), EngineSettings::default()).err();
    let _ = std::fs::remove_dir_all(&dir);
    match err {
        Some(Fault::CannotStart { why, .. }) => {
            assert!(why.to_lowercase().contains("permission"), "{why}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn crash_in_mid_game_is_one_fault_with_the_exit() {
    let mut e = Live::start(&fake("crash.sh"), EngineSettings::default()).expect("start");
    e.ready();
    let start = Chess::default();
    let e4 = mv(&start, "e2e4");
    e.search(game_request(Purpose::Move, &[e4], QUICK));
    let r = e.best();
    assert_eq!(r.best.to_string(), "e7-e5");
    let mut pos = start.clone();
    pos.play_unchecked(e4);
    let e5 = mv(&pos, "e7e5");
    pos.play_unchecked(e5);
    let nf3 = mv(&pos, "g1f3");
    e.search(game_request(Purpose::Move, &[e4, e5, nf3], QUICK));
    assert_eq!(
        e.fault(),
        Fault::Crashed {
            exit: Some(ExitInfo {
                code: Some(3),
                signal: None
            })
        }
    );
    assert!(
        e.next_event(Duration::from_millis(100)).is_none(),
        "said once"
    );
    let pid = e.pid;
    drop(e);
    assert_group_gone(pid);
}

#[test]
fn hang_is_found_by_the_deadline_and_the_engine_is_ended_with_its_children() {
    let mut e = Live::start(&fake("hang.sh"), EngineSettings::default()).expect("start");
    e.ready();
    e.search(game_request(Purpose::Move, &[], QUICK));
    assert_eq!(e.best().best.to_string(), "e2-e4");
    let start = Chess::default();
    e.search(game_request(Purpose::Move, &[mv(&start, "e2e4")], QUICK));
    assert!(e.next_event(Duration::from_millis(200)).is_none());
    // The sleeping child is there now.
    assert!(
        group_members(e.pid).len() >= 2,
        "{:?}",
        group_members(e.pid)
    );
    // Before its time and margin: nothing.  After: a hang.
    let deadline = e.session.next_deadline().expect("a deadline");
    e.session
        .handle_timeout(deadline - Duration::from_millis(1));
    assert!(e.session.poll_event().is_none());
    e.session.handle_timeout(deadline);
    assert_eq!(
        e.session.poll_event().map(|ev| match ev {
            EngineEvent::Fault(f) => f,
            other => panic!("{other:?}"),
        }),
        Some(Fault::Hung {
            waiting: Waiting::Move
        })
    );
    let pid = e.pid;
    let t = Instant::now();
    if let Some(p) = &mut e.process {
        p.kill();
    }
    drop(e);
    assert!(t.elapsed() < Duration::from_secs(1), "{:?}", t.elapsed());
    assert_group_gone(pid);
}

#[test]
fn garbage_lines_are_one_fault() {
    let mut e = Live::start(&fake("garbage.sh"), EngineSettings::default()).expect("start");
    e.ready();
    e.search(game_request(Purpose::Move, &[], QUICK));
    match e.fault() {
        Fault::Garbage { line } => assert!(line.contains("noise"), "{line}"),
        other => panic!("{other:?}"),
    }
    assert!(
        e.next_event(Duration::from_millis(100)).is_none(),
        "said once"
    );
}

#[test]
fn a_program_that_is_not_an_engine_is_said_as_garbage_at_its_deadline() {
    let mut e = Live::start(&fake("notuci.sh"), EngineSettings::default()).expect("start");
    assert!(e.next_event(Duration::from_millis(300)).is_none());
    e.session
        .handle_timeout(Instant::now() + Timeouts::default().handshake);
    // The wait for the handshake is said first (after 2 s), then the fault.
    assert!(matches!(e.session.poll_event(), Some(EngineEvent::Silent)));
    match e.session.poll_event() {
        Some(EngineEvent::Fault(Fault::Garbage { line })) => {
            assert_eq!(line, "What do you mean by 'uci'?")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn illegal_bestmove_is_a_fault() {
    let mut e = Live::start(&fake("illegal.sh"), EngineSettings::default()).expect("start");
    e.ready();
    let start = Chess::default();
    e.search(game_request(Purpose::Move, &[mv(&start, "e2e4")], QUICK));
    assert_eq!(e.fault(), Fault::IllegalMove { uci: "e2e5".into() });
}

fn stockfish(settings: EngineSettings) -> Live {
    Live::start("stockfish", settings).expect("stockfish is installed (scripts/deps.sh)")
}

#[test]
fn stockfish_at_level_one_plays_legal_moves_for_both_sides() {
    let mut e = stockfish(EngineSettings {
        strength: Strength::Level(1),
        threads: Some(1),
        hash_mb: Some(16),
        ..EngineSettings::default()
    });
    assert!(e.ready().is_empty());
    assert!(
        e.session.name().is_some_and(|n| n.starts_with("Stockfish")),
        "{:?}",
        e.session.name()
    );
    let mut pos = Chess::default();
    let mut moves = Vec::new();
    for _ in 0..16 {
        if pos.is_game_over() {
            break;
        }
        e.search(game_request(Purpose::Move, &moves, QUICK));
        let r = e.best();
        assert!(pos.is_legal(r.best), "{:?} in {:?}", r.best, pos);
        pos.play_unchecked(r.best);
        moves.push(r.best);
    }
    assert!(moves.len() >= 10);
    e.session.quit();
    e.flush();
    let pid = e.pid;
    drop(e);
    assert_group_gone(pid);
}

#[test]
fn stockfish_evaluates_in_words_and_finds_a_mate() {
    let mut e = stockfish(EngineSettings::default());
    e.ready();
    // White has an extra queen.
    let fen: shakmaty::fen::Fen = "4k3/8/8/8/8/8/3QPPPP/4K3 w - - 0 1".parse().expect("fen");
    let pos: Chess = fen.into_position(CastlingMode::Standard).expect("pos");
    e.search(SearchRequest {
        purpose: Purpose::Eval,
        start: pos,
        mode: CastlingMode::Standard,
        moves: vec![],
        limit: Limit::Depth(8),
    });
    let r = e.best();
    let phrase = r.score.expect("a score").phrase();
    assert_eq!(
        (phrase.key, phrase.side),
        ("eval_winning", Some(Color::White))
    );
    // Black mates in one (fool's mate).
    let start = Chess::default();
    let mut p = start.clone();
    let mut moves = Vec::new();
    for m in ["f2f3", "e7e5", "g2g4"] {
        let x = mv(&p, m);
        p.play_unchecked(x);
        moves.push(x);
    }
    e.search(game_request(Purpose::Hint, &moves, Limit::Depth(6)));
    let r = e.best();
    assert_eq!(r.best.to_string(), "Qd8-h4");
    assert_eq!(
        r.score,
        Some(Score::Mate {
            winner: Color::Black,
            moves: 1
        })
    );
}

#[test]
fn stockfish_elo_below_its_range_is_adjusted_and_said() {
    let mut e = stockfish(EngineSettings {
        strength: Strength::Elo(800),
        ..EngineSettings::default()
    });
    let notes = e.ready();
    match notes.as_slice() {
        [
            OptionNote::Adjusted {
                wanted: Wanted::Elo,
                asked: 800,
                used,
            },
        ] => assert!(*used > 800),
        other => panic!("{other:?}"),
    }
    e.search(game_request(Purpose::Move, &[], QUICK));
    assert!(Chess::default().is_legal(e.best().best));
}

#[test]
fn stockfish_on_the_clock_and_pondering() {
    let mut e = stockfish(EngineSettings {
        strength: Strength::Level(1),
        ponder: true,
        ..EngineSettings::default()
    });
    e.ready();
    // Stockfish names the reply it expects only when its line is longer than
    // one move (UCI allows a bestmove without one): on a crowded machine a
    // search on a 1.5 s clock can be that shallow, so it is asked again with
    // more time on its clock, and each answer must come within that time.
    let mut named = None;
    for ms in [1_500, 6_000, 20_000] {
        let clock = Limit::Clock {
            white: Duration::from_millis(ms),
            black: Duration::from_millis(ms),
            white_inc: Duration::ZERO,
            black_inc: Duration::ZERO,
            moves_to_go: None,
        };
        let t = Instant::now();
        e.search(game_request(Purpose::Move, &[], clock));
        let r = e.best();
        assert!(
            t.elapsed() < Duration::from_millis(ms),
            "{:?} on a clock of {ms} ms",
            t.elapsed()
        );
        if let Some(reply) = r.ponder {
            named = Some((r.best, reply, clock));
            break;
        }
    }
    // Stockfish ponders on the reply it named; playing that reply is a
    // ponderhit, and the answer still comes.
    if let Some((best, reply, clock)) = named {
        let moves = vec![best, reply];
        e.search(game_request(Purpose::Move, &moves, clock));
        let r2 = e.best();
        let mut pos = Chess::default();
        for m in &moves {
            pos.play_unchecked(*m);
        }
        assert!(pos.is_legal(r2.best));
    } else {
        panic!("Stockfish gave no ponder move, even with 20 s on its clock");
    }
}
