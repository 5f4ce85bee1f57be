//! Benchmark of issue #4's headline number: from the last byte of the
//! board message that completes a move to the app's say-effect, for a
//! knight move (announced at once, no settle wait).  Target: under 1 ms at
//! the 99th percentile.  The settle time for moves that could still be on
//! their way (sliders, single pawn steps) is the hardware file's
//! `settle_ms`, 300 ms for every built-in board.
//!
//! Run with `cargo bench --features test-support --bench board`.  Prints p50/p99 of single calls,
//! then criterion's own statistics.
#![allow(
    missing_docs,
    clippy::expect_used,
    clippy::unwrap_used,
    reason = "a benchmark: criterion_group! makes public functions; set-up may panic"
)]

use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use shakmaty::{Board, Color, Square};

use hector::io::{LinkEvent, Protocol};
use hector::testing::{BoardSession, HandStep, SimBoard, TrackerConfig};
use hector::{App, Effect, Msg, Overrides, start};

/// An app with a connected board of `protocol` showing the start position.
fn app_with_board(protocol: Protocol) -> (App, SimBoard) {
    let dir = std::env::temp_dir().join("hector-bench-no-config");
    let mut app = start(&Overrides {
        config: Some(dir.join("none.toml")),
        ..Overrides::default()
    })
    .app
    .build();
    let session = BoardSession::new(
        protocol,
        TrackerConfig::default(),
        app.game().position(),
        false,
    );
    hector::testing::attach_board(&mut app, session);
    let now = Instant::now();
    let _ = app.update(Msg::Board(LinkEvent::Connected), now);
    let sim = SimBoard::new(protocol, Board::new());
    let _ = app.update(Msg::Board(LinkEvent::Bytes(sim.dump())), now);
    (app, sim)
}

/// Set the board back to the start (the app takes the move back), lift
/// the knight; return the bytes that put it on f3.
fn prepare(app: &mut App, sim: &mut SimBoard) -> Vec<u8> {
    let now = Instant::now();
    let dump = sim.set_board(Board::new());
    let _ = app.update(Msg::Board(LinkEvent::Bytes(dump)), now);
    assert!(app.game().history().is_empty(), "the move was taken back");
    let lift = sim.act(HandStep::Lift(Square::G1));
    let _ = app.update(Msg::Board(LinkEvent::Bytes(lift)), now);
    sim.act(HandStep::Place(Square::F3, Color::White.knight()))
}

/// The timed part: the last message in, the say-effect out.
fn complete(app: &mut App, last: Vec<u8>) -> Vec<Effect> {
    let effects = app.update(Msg::Board(LinkEvent::Bytes(last)), Instant::now());
    assert!(
        effects.iter().any(|e| matches!(e, Effect::Say(_))),
        "the move is said: {effects:?}"
    );
    effects
}

fn percentiles(protocol: Protocol) {
    let (mut app, mut sim) = app_with_board(protocol);
    let mut times: Vec<Duration> = (0..3000)
        .map(|_| {
            let last = prepare(&mut app, &mut sim);
            let t = Instant::now();
            let effects = complete(&mut app, last);
            let d = t.elapsed();
            drop(effects);
            d
        })
        .collect();
    times.sort();
    let at = |p: usize| times[(times.len() * p / 100).min(times.len() - 1)];
    println!(
        "{}: last byte to say-effect, knight move: p50 {:?}, p99 {:?}, max {:?}",
        protocol.name(),
        at(50),
        at(99),
        times[times.len() - 1]
    );
}

/// A new game with the knight move typed (awaited on the board) and the
/// knight lifted; return the bytes that put it on f3.
fn prepare_awaited(app: &mut App, sim: &mut SimBoard) -> Vec<u8> {
    let now = Instant::now();
    let dump = sim.set_board(Board::new());
    let _ = app.update(Msg::Board(LinkEvent::Bytes(dump)), now);
    let _ = app.update(Msg::Line("new".into()), now);
    let _ = app.update(Msg::Line("Nf3".into()), now);
    let lift = sim.act(HandStep::Lift(Square::G1));
    let _ = app.update(Msg::Board(LinkEvent::Bytes(lift)), now);
    sim.act(HandStep::Place(Square::F3, Color::White.knight()))
}

/// Issue 8 item 3: from the last byte of the board message that completes
/// a typed (awaited) move to the "Done" effect.
fn awaited_percentiles(protocol: Protocol) {
    let (mut app, mut sim) = app_with_board(protocol);
    let mut times: Vec<Duration> = (0..1000)
        .map(|_| {
            let last = prepare_awaited(&mut app, &mut sim);
            let t = Instant::now();
            let effects = app.update(Msg::Board(LinkEvent::Bytes(last)), Instant::now());
            let d = t.elapsed();
            assert!(
                effects
                    .iter()
                    .any(|e| matches!(e, Effect::Say(u) if u.text.starts_with("Done"))),
                "the awaited move is done: {effects:?}"
            );
            d
        })
        .collect();
    times.sort();
    let at = |p: usize| times[(times.len() * p / 100).min(times.len() - 1)];
    println!(
        "{}: last byte to \"Done\", typed knight move made on the board: p50 {:?}, p99 {:?}, max {:?}",
        protocol.name(),
        at(50),
        at(99),
        times[times.len() - 1]
    );
}

/// The serial boards' protocols and the Bluetooth LE boards' (a
/// notification's bytes reach the app as a serial read's do: from there
/// on, hector's own time is the same path).
fn protocols() -> impl Iterator<Item = Protocol> {
    Protocol::ALL
        .into_iter()
        .chain([Protocol::Chessnut, Protocol::Pegasus])
}

fn knight_move(c: &mut Criterion) {
    for p in protocols() {
        percentiles(p);
    }
    for p in protocols() {
        awaited_percentiles(p);
    }
    let mut group = c.benchmark_group("board message to announcement");
    for p in protocols() {
        let (mut app, mut sim) = app_with_board(p);
        group.bench_function(format!("{} knight move", p.name()), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let last = prepare(&mut app, &mut sim);
                    let t = Instant::now();
                    let effects = complete(&mut app, last);
                    total += t.elapsed();
                    drop(effects);
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
    targets = knight_move
}
criterion_main!(benches);
