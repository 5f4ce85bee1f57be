//! Benchmark of the full-screen view: the time to draw one frame of a game
//! in the middle (a move list, a mismatch, clocks, an announcement) into a
//! ratatui buffer, at 120x40 and at 200x60.  Target: p99 under 1 ms.
//!
//! Run with `cargo bench --features test-support --bench tui`.  Prints p50/p99 of single frames,
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

use hector::testing::{
    BoardInfo, ClockView, LinkState, Look, PieceStyle, UiState, View, ViewInput,
    render_tui as render,
};
use hector::testing::{Sensed, SquareDiff, builtin_appendix_d};
use hector::{Game, Lang, MoveOptions, MoveStyle, Phraser};

/// What the app holds: a game in the middle, the player's words.
fn parts() -> (Game, Phraser) {
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
    (game, phraser)
}

/// Nanoseconds this thread has run on a CPU (`CLOCK_THREAD_CPUTIME_ID`):
/// frames measured in CPU time are not lengthened by other programs' load
/// on a shared machine (wall time is printed too).
#[allow(
    unsafe_code,
    reason = "clock_gettime of the thread's CPU clock; std has no safe way to read it"
)]
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec for the call.
    let r = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(r, 0, "clock_gettime");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

fn report(label: &str, what: &str, mut times: Vec<Duration>) {
    times.sort();
    println!(
        "{label}: {what} p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        times[times.len() / 2].as_secs_f64() * 1e3,
        times[times.len() * 99 / 100].as_secs_f64() * 1e3,
        times[times.len() - 1].as_secs_f64() * 1e3
    );
}

/// p50 and p99 of 2000 single frames, in CPU time and in wall time.
fn percentiles(label: &str, mut f: impl FnMut()) {
    for _ in 0..200 {
        f();
    }
    let (mut cpu, mut wall) = (Vec::new(), Vec::new());
    for _ in 0..2000 {
        let (c, t) = (thread_cpu(), Instant::now());
        f();
        wall.push(t.elapsed());
        cpu.push(thread_cpu() - c);
    }
    report(label, "CPU", cpu);
    report(label, "wall", wall);
}

fn bench(c: &mut Criterion) {
    let (game, phraser) = parts();
    let d = builtin_appendix_d().moves;
    // The view of it, as the loop builds it after a change.
    let view_of = || {
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
    };
    let v = view_of();
    for (w, h) in [(120u16, 40u16), (200, 60)] {
        for (name, pieces, large_text) in [
            ("letters", PieceStyle::Letters, false),
            ("blocks", PieceStyle::Blocks, false),
            ("blocks+large text", PieceStyle::Blocks, true),
        ] {
            let look = Look {
                pieces,
                large_text,
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
        std::hint::black_box(view_of());
    });
    // A whole frame as the loop makes it after a move: the view built
    // from the game, then drawn.
    let look = Look::default();
    let mut term = Terminal::new(TestBackend::new(120, 40)).expect("test backend");
    percentiles("build and draw 120x40", || {
        let v = view_of();
        term.draw(|f| render(f, &v, &look)).expect("draw");
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
