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
//! - Review of a 10,000-game PGN file: open it (the index of all games)
//!   and read the last game fully.  Target: under 100 ms.
//!
//! Run with `cargo bench --features test-support --bench scoresheet`.  Prints p50/p99 of single
//! calls, then criterion's own statistics.

#![allow(
    missing_docs,
    clippy::expect_used,
    clippy::unwrap_used,
    reason = "a benchmark: criterion_group! makes public functions; set-up may panic"
)]

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use shakmaty::Color;

use hector::testing::{ClockEvent, Journal, JournalEvent as Event};
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

fn bench_review(c: &mut Criterion) {
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
    targets = bench_journal, bench_review
}
criterion_main!(benches);
