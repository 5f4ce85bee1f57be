//! Numbers and times in words (issue 14): the cost of saying a clock time
//! and a counted sentence in each language, joins (elision) included.
//! Both are on the path of every clock announcement and `time` answer.
//!
//! `cargo bench --features test-support --bench words -- --warm-up-time 1 --measurement-time 3`.
#![allow(
    missing_docs,
    reason = "a benchmark: criterion_group! makes public functions"
)]

use std::time::Duration;

use criterion::{Criterion, black_box, criterion_group, criterion_main};

use hector::testing::{clock_both_times as both, clock_moves_played as moves};
use hector::{Lang, MoveOptions, MoveStyle, Phraser};

fn words(c: &mut Criterion) {
    let mut group = c.benchmark_group("words");
    for lang in Lang::ALL {
        let p = Phraser::builtin(MoveStyle::Language, lang, MoveOptions::default());
        let (white, black) = (Duration::from_secs(3_661), Duration::from_secs(252));
        group.bench_function(format!("both times {}", lang.code()), |b| {
            b.iter(|| both(&p, black_box(white), black_box(black)));
        });
        group.bench_function(format!("moves played {}", lang.code()), |b| {
            b.iter(|| moves(&p, black_box(41)));
        });
    }
    group.finish();
}

criterion_group!(benches, words);
criterion_main!(benches);
