//! Scoresheet benchmarks.
//!
//! - Journal append + flush (fsync) of one move: it sits on the path of
//!   every announcement.  Target: p99 under 10 ms.  Beside it: a move and
//!   its clock press as two appends and as one write (what the app asks
//!   for), and the floor: the same bytes written and `fdatasync`ed with
//!   nothing of hector's around them.  Measured here (a shared virtual
//!   machine): the journal is at the floor (p50 about 4 ms for both); the
//!   flush is the disk's, the same for `fsync` and `fdatasync`, and for a
//!   file made longer ahead and written over (tried, no gain: kept out).
//! - The cost of one record before the flush, with the chain (issue 29:
//!   the record formatted with the SHA-256 of the line before, and its own
//!   digest taken for the next) beside today's without it: goal well under
//!   a millisecond a record.  Reading back the same, a whole journal of
//!   500 records parsed with its chain checked, and without.
//! - Review of a 10,000-game PGN file: open it (the index of all games)
//!   and read the last game fully, in the process.  Target: under 100 ms.
//! - Review through the binary of generated files of 10,000 and 100,000
//!   games (13 MB and 131 MB, about 1.3 KB a game, clocks on every move;
//!   written into `target/bench-review/`, not committed): from starting
//!   `hector review FILE` to the last move of the last game said ("game N",
//!   "end"; targets 50 ms and 250 ms), `find` of a name over all games
//!   (target 300 ms), and hector's peak resident memory (`VmHWM`, target
//!   40 MB for the 100,000 games).  `REVIEW_GB=1` adds a file of 1 GB;
//!   `REVIEW_OTHER=/path/to/hector` measures another build (an older one)
//!   in turn with this one; `REVIEW_TRIALS` (default 5) runs of each.
//!
//! Run with `cargo bench --features test-support --bench scoresheet`.  Prints p50/p99 of single
//! calls, then criterion's own statistics.  Under `cargo test` only the
//! 10,000-game file is used, once.

#![allow(
    missing_docs,
    clippy::expect_used,
    clippy::unwrap_used,
    reason = "a benchmark: criterion_group! makes public functions; set-up may panic"
)]

use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use shakmaty::Color;

use hector::testing::{
    ClockEvent, Journal, JournalEvent as Event, format_record, line_digest, parse_journal,
};
use hector::{PgnFile, StartInfo, Store};

fn percentiles(mut v: Vec<Duration>) -> (Duration, Duration) {
    v.sort();
    let p = |q: f64| v[((v.len() as f64 - 1.0) * q) as usize];
    (p(0.50), p(0.99))
}

fn journal(dir: &std::path::Path) -> Journal {
    let _ = std::fs::remove_dir_all(dir);
    let store = Store::new(dir.to_path_buf());
    let (_, j, r) = store.begin(&StartInfo::default(), time::OffsetDateTime::now_utc());
    r.expect("journal written");
    j
}

fn a_move(i: u64) -> Event {
    Event::Move {
        number: (i / 2 + 1) as u32,
        by: if i.is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        },
        san: "Nf3".into(),
        uci: "g1f3".into(),
    }
}

fn bench_journal(c: &mut Criterion) {
    // In target/, on the disk the games folder would be on.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-journal");
    let mut j = journal(&dir);
    let mut times = Vec::new();
    for i in 0..500 {
        let t = Instant::now();
        j.append(&a_move(i)).expect("append");
        times.push(t.elapsed());
    }
    let (p50, p99) = percentiles(times);
    println!("journal append+fsync of one move: p50 {p50:?}, p99 {p99:?} (target p99 < 10 ms)");
    // A move in a game with a clock: the move and the press after it, as
    // two appends (two flushes) and as one write flushed once (what the
    // app asks for: the events of one update together).
    let press = |i: u64| {
        Event::Clock(ClockEvent::Press {
            by: Color::White,
            white_ms: 5_400_000 - i as i64,
            black_ms: 5_400_000,
        })
    };
    let (mut two, mut one) = (Vec::new(), Vec::new());
    for i in 0..200 {
        let t = Instant::now();
        j.append(&a_move(i)).expect("append");
        j.append(&press(i)).expect("append");
        two.push(t.elapsed());
        let t = Instant::now();
        j.append_all(&[a_move(i), press(i)]).expect("append");
        one.push(t.elapsed());
    }
    let (p50, p99) = percentiles(two);
    println!("a move and its press, two appends: p50 {p50:?}, p99 {p99:?}");
    let (p50, p99) = percentiles(one);
    println!("a move and its press, one write: p50 {p50:?}, p99 {p99:?}");
    // The floor: the same bytes written and flushed with nothing of
    // hector's around them (fdatasync on a file kept open).
    let raw_path = dir.join("raw.txt");
    let mut raw = std::fs::File::create(&raw_path).expect("raw file");
    let line = b"12 2026-11-22T19:24:01.003Z move 6. Nf3 g1f3 ~5e0d8c11\n";
    let mut floor = Vec::new();
    for _ in 0..500 {
        let t = Instant::now();
        std::io::Write::write_all(&mut raw, line).expect("write");
        raw.sync_data().expect("fdatasync");
        floor.push(t.elapsed());
    }
    let (p50, p99) = percentiles(floor);
    println!("floor, write+fdatasync of the same bytes: p50 {p50:?}, p99 {p99:?}");
    let mut i = 0;
    c.bench_function("journal append+fsync", |b| {
        b.iter(|| {
            i += 1;
            j.append(&a_move(i)).expect("append")
        })
    });
    let _ = std::fs::remove_dir_all(&dir);
}

/// A record's cost before the flush: formatted, and with the chain its
/// digest taken, beside the same record without the chain (format 1).
fn bench_chain(c: &mut Criterion) {
    let at = time::OffsetDateTime::now_utc();
    let press = Event::Clock(ClockEvent::Press {
        by: Color::White,
        white_ms: 5_385_123,
        black_ms: 5_400_000,
    });
    let events: Vec<Event> = (0..500).flat_map(|i| [a_move(i), press.clone()]).collect();
    let per_record = |chained: bool| {
        let mut prev = line_digest(b"header\n");
        let mut times = Vec::new();
        let mut text = String::new();
        for (i, e) in events.iter().enumerate() {
            let t = Instant::now();
            let line = format_record(i as u64 + 1, at, e, chained.then_some(&prev));
            if chained {
                prev = line_digest(line.as_bytes());
            }
            times.push(t.elapsed());
            text.push_str(&line);
        }
        (percentiles(times), text)
    };
    let ((p50, p99), _) = per_record(false);
    println!("one record formatted, without the chain (format 1): p50 {p50:?}, p99 {p99:?}");
    let ((p50, p99), _) = per_record(true);
    println!(
        "one record formatted and chained (SHA-256 of the line): p50 {p50:?}, p99 {p99:?} (goal well under 1 ms)"
    );
    // Reading back: a whole journal of 1,000 records.
    let journal = |chained: bool| {
        let mut prev = line_digest(b"# hector scoresheet journal, format 2. One record a line: number, time (UTC), event, prev=SHA-256 of the line before, ~checksum.\n");
        let mut s = String::from(if chained {
            "# hector scoresheet journal, format 2. One record a line: number, time (UTC), event, prev=SHA-256 of the line before, ~checksum.\n"
        } else {
            "# hector scoresheet journal, format 1. One record a line: number, time (UTC), event, ~checksum.\n"
        });
        for (i, e) in events.iter().enumerate() {
            let line = format_record(i as u64 + 1, at, e, chained.then_some(&prev));
            prev = line_digest(line.as_bytes());
            s.push_str(&line);
        }
        s.into_bytes()
    };
    for chained in [false, true] {
        let bytes = journal(chained);
        let parsed = parse_journal(&bytes);
        assert_eq!(parsed.records.len(), events.len(), "chained {chained}");
        assert!(parsed.warnings.is_empty(), "chained {chained}");
        let mut times = Vec::new();
        for _ in 0..20 {
            let t = Instant::now();
            let _ = parse_journal(&bytes);
            times.push(t.elapsed());
        }
        let (p50, _) = percentiles(times);
        println!(
            "read back 1,000 records {}: p50 {p50:?} ({:?} a record)",
            if chained {
                "with the chain checked"
            } else {
                "without the chain"
            },
            p50 / 1000
        );
    }
    let mut prev = line_digest(b"header\n");
    let mut i = 0u64;
    c.bench_function("record formatted and chained", |b| {
        b.iter(|| {
            i += 1;
            let line = format_record(i, at, &press, Some(&prev));
            prev = line_digest(line.as_bytes());
            line
        })
    });
    let mut i = 0u64;
    c.bench_function("record formatted, no chain", |b| {
        b.iter(|| {
            i += 1;
            format_record(i, at, &press, None)
        })
    });
}

/// A file of `n` games of 40 moves each.
fn big_pgn(n: usize) -> Vec<u8> {
    let moves = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 \
8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. c4 c6 12. cxb5 axb5 13. Nc3 Bb7 14. Bg5 b4 \
15. Nb1 h6 16. Bh4 c5 17. dxe5 Nxe4 18. Bxe7 Qxe7 19. exd6 Qf6 20. Nbd2 Nxd6 1/2-1/2";
    let mut s = String::new();
    for i in 0..n {
        let _ = write!(
            s,
            "[Event \"Bench\"]\n[Site \"?\"]\n[Date \"2026.11.22\"]\n[Round \"{i}\"]\n\
[White \"Player {i}\"]\n[Black \"Opponent {i}\"]\n[Result \"1/2-1/2\"]\n\n{moves}\n\n"
        );
    }
    s.into_bytes()
}

fn open_and_last(data: &[u8]) -> usize {
    let f = PgnFile::from_bytes(data.to_vec()).expect("index");
    let last = f.count();
    f.game(last).expect("last game").plies.len()
}

/// The moves of every generated game, each with its clock.
fn clocked_moves() -> String {
    let sans = "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7 \
c4 c6 cxb5 axb5 Nc3 Bb7 Bg5 b4 Nb1 h6 Bh4 c5 dxe5 Nxe4 Bxe7 Qxe7 exd6 Qf6 Nbd2 Nxd6";
    let mut out = String::new();
    for (i, san) in sans.split_whitespace().enumerate() {
        if i % 2 == 0 {
            let _ = write!(out, "{}. ", i / 2 + 1);
        }
        let left = 300 - 7 * (i / 2);
        let _ = write!(out, "{san} {{[%clk 0:{:02}:{:02}]}} ", left / 60, left % 60);
        if i % 6 == 5 {
            out.push('\n');
        }
    }
    out.push_str("1/2-1/2");
    out
}

/// Game `i` of a generated file into `game`.
fn game_text(i: usize, moves: &str, game: &mut String) {
    game.clear();
    let _ = write!(
        game,
        "[Event \"Generated Open {}\"]\n[Site \"Somewhere {}\"]\n[Date \"2026.{:02}.{:02}\"]\n[Round \"{}\"]\n\
[White \"Player{i:06}, Anna\"]\n[Black \"Opponent{i:06}, Bruno\"]\n[Result \"1/2-1/2\"]\n\
[WhiteElo \"{}\"]\n[BlackElo \"{}\"]\n[WhiteTitle \"FM\"]\n[BlackTitle \"IM\"]\n[ECO \"C92\"]\n\
[Opening \"Ruy Lopez: Closed, Breyer Defence\"]\n[EventDate \"2026.11.01\"]\n[PlyCount \"40\"]\n\
[Annotator \"hector bench\"]\n[TimeControl \"300+0\"]\n\n{moves}\n\n",
        i / 100,
        i % 37,
        1 + i % 12,
        1 + i % 28,
        1 + i % 9,
        1500 + i % 900,
        1500 + (i * 7) % 900
    );
}

/// A PGN file of `n` games at `path` (about 1.3 KB a game), unless one of
/// that size is there already; its size.
fn generate(path: &Path, n: usize) -> u64 {
    let moves = clocked_moves();
    let mut game = String::new();
    let mut want = 0u64;
    for i in 0..n {
        game_text(i, &moves, &mut game);
        want += game.len() as u64;
    }
    if std::fs::metadata(path).map(|m| m.len()).ok() == Some(want) {
        return want;
    }
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).expect("bench file"));
    for i in 0..n {
        game_text(i, &moves, &mut game);
        f.write_all(game.as_bytes()).expect("write");
    }
    f.flush().expect("write");
    want
}

/// Peak resident memory of `pid` (`VmHWM`), in KB.
fn peak_kb(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        .unwrap_or(0)
}

/// One run of `bin review file`: the time from its start to the first
/// line that contains `until` after `script` was written (the script
/// written at once, or after the first line when `after_first`), and the
/// peak memory then.
fn review_run(
    bin: &str,
    file: &Path,
    script: &str,
    until: &str,
    after_first: bool,
) -> (Duration, Duration, u64) {
    let home = std::env::temp_dir().join(format!("hector-review-bench-{}", std::process::id()));
    std::fs::create_dir_all(&home).expect("temp dir");
    let t0 = Instant::now();
    let mut child = Command::new(bin)
        .arg("review")
        .arg(file)
        .args(["--speech", "print", "--no-sound"])
        .env("XDG_CONFIG_HOME", &home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("HOME", &home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("hector starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let mut asked = t0;
    if after_first {
        let first = lines.next().expect("a first line").expect("text");
        assert!(!first.is_empty());
        asked = Instant::now();
    }
    stdin.write_all(script.as_bytes()).expect("script");
    let mut seen = Vec::new();
    let done = loop {
        let l = lines.next().expect("the line awaited").expect("text");
        if l.contains(until) {
            break Instant::now();
        }
        seen.push(l);
        assert!(seen.len() < 100, "{until:?} never came: {seen:?}");
    };
    let peak = peak_kb(child.id());
    drop(stdin);
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&home);
    (done - t0, done - asked, peak)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// The generated files reviewed through the binary (see the module's
/// documentation).
fn review_binary(bench: bool) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-review");
    std::fs::create_dir_all(&dir).expect("bench dir");
    let trials = if bench { common_trials() } else { 1 };
    let mut sizes = vec![10_000];
    if bench {
        sizes.push(100_000);
        if std::env::var_os("REVIEW_GB").is_some() {
            sizes.push(760_000);
        }
    }
    let mut bins = vec![("this build", env!("CARGO_BIN_EXE_hector").to_owned())];
    if let Ok(other) = std::env::var("REVIEW_OTHER") {
        bins.push(("other build", other));
    }
    for n in sizes {
        let path: PathBuf = dir.join(format!("games-{n}.pgn"));
        let bytes = generate(&path, n);
        let script = format!("game {n}\nend\n");
        let find = format!("find Player{:06}\n", n - 1);
        for (label, bin) in &bins {
            let (mut to_end, mut to_find, mut peak) = (Vec::new(), Vec::new(), 0);
            // In turn with the other build: one run of each, then again.
            for _ in 0..trials {
                let (t, _, p) = review_run(bin, &path, &script, "End of the game", false);
                to_end.push(t);
                peak = peak.max(p);
                let (_, t, p) = review_run(bin, &path, &find, &format!("Game {n}:"), true);
                to_find.push(t);
                peak = peak.max(p);
            }
            println!(
                "review {label}: {n} games ({:.0} MB): start to the last game's last move said p50 {:?}; find over all games p50 {:?}; peak resident {:.1} MB ({trials} runs each)",
                bytes as f64 / 1e6,
                median(to_end),
                median(to_find),
                peak as f64 / 1024.0
            );
        }
        if n > 100_000 {
            let _ = std::fs::remove_file(&path);
        }
    }
}

fn common_trials() -> usize {
    std::env::var("REVIEW_TRIALS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5usize)
        .max(1)
}

fn bench_review(c: &mut Criterion) {
    review_binary(std::env::args().any(|a| a == "--bench"));
    let data = big_pgn(10_000);
    let mut times = Vec::new();
    for _ in 0..20 {
        let t = Instant::now();
        assert_eq!(open_and_last(&data), 40);
        times.push(t.elapsed());
    }
    let (p50, p99) = percentiles(times);
    println!(
        "open a 10,000-game PGN ({} MB) and read the last game: p50 {p50:?}, max of 20 {p99:?} (target < 100 ms)",
        data.len() / 1_000_000
    );
    c.bench_function("review: open 10,000 games, last game", |b| {
        b.iter(|| open_and_last(&data))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench_journal, bench_chain, bench_review
}
criterion_main!(benches);
