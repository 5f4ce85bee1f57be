//! Benchmark of issue #13's headline number: from the engine's `bestmove`
//! line to the app's say-effect announcing the engine's move (the line
//! parsed by shakmaty-uci, checked against the position, played, phrased).
//! Target: under 1 ms at the 99th percentile.  Measured without a board
//! and with a DGT board attached (the move is then also handed to the
//! board's tracker to be awaited).
//!
//! Run with `cargo bench --features test-support --bench engine`.  Prints p50/p99 of single calls,
//! then criterion's own statistics.
#![allow(
    missing_docs,
    clippy::expect_used,
    clippy::unwrap_used,
    reason = "a benchmark: criterion_group! makes public functions; set-up may panic"
)]

use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use shakmaty::Board;

use hector::io::{LinkEvent, Protocol};
use hector::testing::{BoardSession, EngineIo, EngineOrder, ProcessEvent, SimBoard, TrackerConfig};
use hector::{App, Effect, EngineSetup, Msg};

fn line(generation: u64, text: &str) -> Msg {
    Msg::Engine(EngineIo {
        generation,
        event: ProcessEvent::Line(text.to_owned()),
    })
}

/// An app playing White against a (fake) engine that has done its
/// handshake; the generation of its process.
fn app(with_board: bool) -> (App, u64) {
    let mut app = App::builder().engine(Some(EngineSetup::default())).build();
    let now = Instant::now();
    if with_board {
        let session = BoardSession::new(
            Protocol::Dgt,
            TrackerConfig::default(),
            app.game().position(),
            false,
        );
        hector::testing::attach_board(&mut app, session);
        let _ = app.update(Msg::Board(LinkEvent::Connected), now);
        let sim = SimBoard::new(Protocol::Dgt, Board::new());
        let _ = app.update(Msg::Board(LinkEvent::Bytes(sim.dump())), now);
    }
    let generation = app
        .update(Msg::Start, now)
        .iter()
        .find_map(|e| match e {
            Effect::Engine(EngineOrder::Start { generation, .. }) => Some(*generation),
            _ => None,
        })
        .expect("the engine is started");
    let _ = app.update(line(generation, "uciok"), now);
    let _ = app.update(line(generation, "readyok"), now);
    (app, generation)
}

/// The player's move: the engine is asked for its answer.
fn prepare(app: &mut App) {
    let now = Instant::now();
    let _ = app.update(Msg::Line("e4".into()), now);
    assert_eq!(app.game().history().len(), 1);
}

/// The timed part: the `bestmove` line in, the say-effect out.
fn answer(app: &mut App, generation: u64) -> Vec<Effect> {
    let effects = app.update(
        line(generation, "bestmove e7e5 ponder g1f3"),
        Instant::now(),
    );
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::Say(u) if u.text == "Bauer Eva fünf")),
        "the engine's move is said: {effects:?}"
    );
    effects
}

/// Back to the start for the next round.
fn reset(app: &mut App) {
    let _ = app.update(Msg::Line("takeback".into()), Instant::now());
    assert!(app.game().history().is_empty());
}

fn percentiles(with_board: bool) {
    let (mut app, generation) = app(with_board);
    let mut times: Vec<Duration> = (0..3000)
        .map(|_| {
            prepare(&mut app);
            let t = Instant::now();
            let effects = answer(&mut app, generation);
            let d = t.elapsed();
            drop(effects);
            reset(&mut app);
            d
        })
        .collect();
    times.sort();
    let at = |p: usize| times[(times.len() * p / 100).min(times.len() - 1)];
    println!(
        "bestmove line to say-effect{}: p50 {:?}, p99 {:?}, max {:?}",
        if with_board { " (DGT board)" } else { "" },
        at(50),
        at(99),
        times[times.len() - 1]
    );
}

fn bestmove(c: &mut Criterion) {
    percentiles(false);
    percentiles(true);
    let mut group = c.benchmark_group("engine bestmove to announcement");
    for with_board in [false, true] {
        let (mut app, generation) = app(with_board);
        let name = if with_board {
            "with DGT board"
        } else {
            "keyboard"
        };
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    prepare(&mut app);
                    let t = Instant::now();
                    let effects = answer(&mut app, generation);
                    total += t.elapsed();
                    drop(effects);
                    reset(&mut app);
                }
                total
            });
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(50)
        .measurement_time(Duration::from_secs(3));
    targets = bestmove
}
criterion_main!(benches);
