//! Benchmarks of issue #2's headline numbers:
//! - reading a typed move and phrasing its announcement (target < 20 µs);
//! - the time from starting the binary to its first prompt (target < 50 ms).
//!
//! Run with `cargo bench --bench input`.
#![allow(
    missing_docs,
    clippy::expect_used,
    clippy::unwrap_used,
    reason = "a benchmark: criterion_group! makes public functions; set-up may panic"
)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use shakmaty::{Chess, Position};

use hector::{Lang, MoveOptions, MoveStyle, Phraser, Reader};

/// A middle-game position with many legal moves.
fn middle_game() -> Chess {
    let fen = "r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R2QK2R w KQ - 0 8";
    fen.parse::<shakmaty::fen::Fen>()
        .expect("valid FEN")
        .into_position(shakmaty::CastlingMode::Standard)
        .expect("legal position")
}

fn parse_and_phrase(c: &mut Criterion) {
    let reader = Reader::builtin(Lang::En);
    let phraser = Phraser::builtin(MoveStyle::AppendixD, Lang::En, MoveOptions::default());
    let pos = middle_game();
    let mut group = c.benchmark_group("typed move to announcement");
    for input in [
        "Ne5",
        "dxc5",
        "O-O",
        "Springer Eva fünf",
        "d1e2",
        "Laeufer Cesar zwei",
    ] {
        // Every input must be a legal move here, or the benchmark measures an error path.
        reader
            .read(input, &pos)
            .expect("legal in the benchmark position");
        group.bench_function(input, |b| {
            b.iter(|| {
                let mv = reader.read(black_box(input), &pos).expect("legal");
                black_box(phraser.say_move(&pos, mv))
            })
        });
    }
    group.finish();
    // Keep `Position` in use for the FEN helper's trait methods.
    assert!(pos.legal_moves().len() > 20);
}

/// Start the release binary and wait for its first prompt.
fn time_to_prompt() -> Duration {
    let exe = env!("CARGO_BIN_EXE_hector");
    let dir = std::env::temp_dir().join("hector-bench-config");
    let _ = std::fs::create_dir_all(&dir);
    let start = Instant::now();
    let mut child = Command::new(exe)
        .args([
            "play",
            "--prompt",
            "always",
            "--speech",
            "print",
            "--no-sound",
        ])
        .env("XDG_CONFIG_HOME", &dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("hector starts");
    let stdout = child.stdout.take().expect("piped");
    let mut reader = BufReader::new(stdout);
    // The first line is the new-game sentence; the prompt follows it
    // without a newline, so read until the prompt's "> ".
    let mut buf = Vec::new();
    loop {
        let n = reader
            .read_until(b'>', &mut buf)
            .expect("read hector's output");
        if n == 0 || buf.ends_with(b">") {
            break;
        }
    }
    let elapsed = start.elapsed();
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(b"quit\n");
    }
    let _ = child.wait();
    elapsed
}

fn startup(c: &mut Criterion) {
    let mut group = c.benchmark_group("start-up");
    group.sample_size(20);
    group.bench_function("binary start to first prompt", |b| {
        b.iter_custom(|iters| (0..iters).map(|_| time_to_prompt()).sum())
    });
    group.finish();
}

criterion_group!(benches, parse_and_phrase, startup);
criterion_main!(benches);
