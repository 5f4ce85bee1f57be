//! Speech latency: from the app's `SpeechHandle::say` to the engine.
//!
//! 1. Fake engine: say -> the engine's `speak` call begins (the worker's own
//!    overhead; target p99 < 1 ms).
//! 2. Real private speech-dispatcher with espeak-ng (skipped with a message
//!    when it cannot start): say -> the utterance's begin callback.
//!
//! Percentiles are printed; criterion measures case 1 as well.
#![allow(
    missing_docs,
    unsafe_code,
    clippy::expect_used,
    clippy::unwrap_used,
    reason = "a benchmark: criterion_group! makes public functions; set-up may panic"
)]

#[allow(dead_code)] // the tests use more of the helper than the benchmark
#[path = "../tests/support/speechd.rs"]
mod speechd;

use std::sync::Arc;
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use hector::io::{
    Priority, SayKind, SpeechLinkConfig, SpeechMode, SpeechStatus, SpeechWorker, Utterance,
    WorkerConfig,
};
use hector::testing::{FakeCall, FakeControl};

fn move_utterance(text: &str) -> Utterance {
    Utterance::new(text, "de", Priority::Urgent, SayKind::Move)
}

fn worker_with(factory: hector::testing::BackendFactory) -> (SpeechWorker, Receiver<SpeechStatus>) {
    let (tx, rx) = mpsc::channel();
    let worker = SpeechWorker::spawn(
        WorkerConfig {
            link: SpeechLinkConfig {
                mode: SpeechMode::Tts,
                ..SpeechLinkConfig::default()
            },
            print: None,
        },
        factory,
        Arc::new(move |s| {
            let _ = tx.send(s);
        }),
    );
    (worker, rx)
}

fn wait_ended(rx: &Receiver<SpeechStatus>) -> Option<Vec<SpeechStatus>> {
    let mut seen = Vec::new();
    loop {
        let s = rx.recv_timeout(Duration::from_secs(20)).ok()?;
        let end = matches!(
            s,
            SpeechStatus::Ended { .. } | SpeechStatus::FellBack { .. }
        );
        seen.push(s);
        if end {
            return Some(seen);
        }
    }
}

/// Say one sentence on the fake engine; the time until its speak call began.
fn fake_once(
    fake: &FakeControl,
    worker: &SpeechWorker,
    rx: &Receiver<SpeechStatus>,
    n: usize,
) -> Duration {
    let said = Instant::now();
    worker.handle().say(move_utterance("Springer Felix drei"));
    let _ = wait_ended(rx);
    fake.calls()
        .iter()
        .filter_map(|c| match c {
            FakeCall::Speak { at, .. } => Some(*at),
            _ => None,
        })
        .nth(n)
        .map_or(Duration::MAX, |at| at.saturating_duration_since(said))
}

fn percentiles(name: &str, mut v: Vec<Duration>) {
    v.sort();
    let at = |p: f64| v[((v.len() as f64 - 1.0) * p).round() as usize];
    println!(
        "{name}: n={} p50={:?} p99={:?} max={:?}",
        v.len(),
        at(0.50),
        at(0.99),
        at(1.0)
    );
}

fn fake_engine(c: &mut Criterion) {
    let fake = FakeControl::new();
    fake.set_auto_end(Some(Duration::ZERO));
    let (worker, rx) = worker_with(fake.factory());
    let mut n = 0;
    let samples: Vec<Duration> = (0..2000)
        .map(|_| {
            let d = fake_once(&fake, &worker, &rx, n);
            n += 1;
            d
        })
        .collect();
    percentiles("say -> speak call (fake engine)", samples);
    c.bench_function("say_to_speak_call_fake", |b| {
        b.iter_custom(|iters| {
            (0..iters)
                .map(|_| {
                    let d = fake_once(&fake, &worker, &rx, n);
                    n += 1;
                    d
                })
                .sum()
        })
    });
}

fn real_daemon(_c: &mut Criterion) {
    let daemon = match speechd::PrivateSpeechd::start() {
        Ok(d) => d,
        Err(e) => {
            println!("say -> begin (speech-dispatcher): skipped: {e}");
            return;
        }
    };
    // SAFETY (set_var): single-threaded here; the worker reads it later.
    unsafe { std::env::set_var("SPEECHD_ADDRESS", daemon.address()) };
    let (worker, rx) = worker_with(hector::io::system_factory());
    let mut samples = Vec::new();
    for i in 0..40 {
        let text = ["Springer Felix drei", "Bauer Eva vier", "Dame David acht"][i % 3];
        let said = Instant::now();
        worker.handle().say(move_utterance(text));
        let Some(seen) = wait_ended(&rx) else {
            println!("say -> begin (speech-dispatcher): no answer, stopped");
            return;
        };
        for s in seen {
            match s {
                SpeechStatus::Began { at, .. } => samples.push(at.saturating_duration_since(said)),
                SpeechStatus::FellBack { why, .. } => {
                    println!("say -> begin (speech-dispatcher): fell back: {why}");
                    return;
                }
                _ => {}
            }
        }
    }
    percentiles(
        "say -> begin callback (speech-dispatcher + espeak-ng)",
        samples,
    );
    drop(worker);
    drop(daemon);
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_millis(500));
    targets = fake_engine, real_daemon
}
criterion_main!(benches);
