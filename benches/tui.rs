//! Benchmark of the full-screen view: the time to draw one frame of a game
//! in the middle (a move list, a mismatch, clocks, an announcement) into a
//! ratatui buffer, at 120x40 and at 200x60.  Target: p99 under 1 ms.
//!
//! Run with `cargo bench --bench tui`.  Prints p50/p99 of single frames,
//! then criterion's own statistics.
#![allow(
    missing_docs,
    clippy::expect_used,
    clippy::unwrap_used,
    reason = "a benchmark: criterion_group! makes public functions; set-up may panic"
)]

use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use shakmaty::{Color, Piece, Square};

use hector::ui::tui::{Look, PieceStyle, render};
use hector::view::{BoardInfo, ClockView, LinkState, UiState, View, ViewInput};
use hector::{Game, Lang, MoveOptions, MoveStyle, Phraser, Sensed, SquareDiff, builtin_appendix_d};

fn view() -> View {
    let mut game = Game::new();
    let moves = [
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3",
        "d6", "c3", "O-O", "h3", "Nb8", "d4", "Nbd7", "c4", "c6", "cxb5", "axb5", "Nc3", "Bb7",
    ];
    for m in moves {
        let san: shakmaty::san::San = m.parse().expect("SAN");
        let mv = san.to_move(game.position()).expect("legal");
        game.play(mv).expect("legal");
    }
    let phraser = Phraser::builtin(MoveStyle::AppendixD, Lang::De, MoveOptions::default());
    let d = builtin_appendix_d().moves;
    let ui = UiState {
        cursor: Some(Square::F3),
        status: "Felix drei: weißer Springer".into(),
        ..UiState::default()
    };
    View::build(&ViewInput {
        game: &game,
        phraser: &phraser,
        appendix_d: &d,
        me: Color::White,
        announcement: Some("Läufer Bella sieben"),
        clocks: Some(ClockView {
            white: Duration::from_secs(4321),
            black: Duration::from_secs(3999),
            running: Some(Color::White),
        }),
        board: Some(BoardInfo {
            state: LinkState::Connected,
            mismatch: vec![SquareDiff {
                square: Square::B7,
                expected: Some(Piece::from_char('b').expect("piece")),
                found: Sensed::Empty,
            }],
        }),
        ui: &ui,
    })
}

/// Nanoseconds this thread has run on a CPU (Linux; 0 elsewhere): frames
/// measured in CPU time are not lengthened by other programs' load.
fn thread_cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

fn percentiles(label: &str, mut f: impl FnMut()) {
    let cpu0 = thread_cpu_ns();
    for _ in 0..2000 {
        f();
    }
    let cpu = (thread_cpu_ns() - cpu0) / 2000;
    println!("{label}: mean CPU time {:.3} ms a frame", cpu as f64 / 1e6);
    let mut times: Vec<Duration> = (0..2000)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    println!(
        "{label}: p50 {:?}, p99 {:?}, max {:?}",
        times[times.len() / 2],
        times[times.len() * 99 / 100],
        times[times.len() - 1]
    );
}

fn bench(c: &mut Criterion) {
    let v = view();
    for (w, h) in [(120u16, 40u16), (200, 60)] {
        for (name, pieces) in [
            ("letters", PieceStyle::Letters),
            ("blocks", PieceStyle::Blocks),
        ] {
            let look = Look {
                pieces,
                ..Look::default()
            };
            let mut term = Terminal::new(TestBackend::new(w, h)).expect("test backend");
            let label = format!("frame {w}x{h} {name}");
            percentiles(&label, || {
                term.draw(|f| render(f, &v, &look)).expect("draw");
            });
            c.bench_function(&label, |b| {
                b.iter(|| {
                    term.draw(|f| render(f, &v, &look)).expect("draw");
                })
            });
        }
    }
    percentiles("view model build", || {
        std::hint::black_box(view());
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
