//! Measurements of the talking clock through the real binary in line mode:
//!
//! 1. CPU time used by hector over a minute of a running clock (target:
//!    under 10 ms per minute: the loop sleeps until the next deadline, it
//!    does not tick).  Read from `/proc/PID/task/*/schedstat` (nanoseconds
//!    on the CPU, all threads).
//! 2. Lateness of the flag-fall line against the deadline, over many
//!    trials (target: p99 under 5 ms).  Each trial types `new` and waits
//!    for the flag of a 1-second clock; the deadline is taken as the
//!    moment `new` was written plus 1 s, so the figure is an upper bound:
//!    it also holds the time hector took to read `new` and to print.
//!
//! 3. The same two with a DGT 3000 on a DGT board over a pseudo-terminal:
//!    the CPU over a minute of readings (one a second) and the time from
//!    the clock's flag message to the flag line.
//!
//! `cargo bench --profile dev --features test-support --bench clock` (CLOCK_CPU_SECS, default 60;
//! CLOCK_TRIALS, default 100; the board part also under `cargo test` with
//! CLOCK_BOARD=1).  Linux only (`/proc`).
#![allow(
    missing_docs,
    clippy::expect_used,
    clippy::unwrap_used,
    reason = "a benchmark: criterion_group! makes public functions; set-up may panic"
)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

mod common;
use common::{cpu_ns, env_u64};

/// The configuration home of the hector under measurement (removed at the end).
fn home() -> std::path::PathBuf {
    std::env::temp_dir().join(format!("hector-clock-bench-{}", std::process::id()))
}

fn spawn(time: &str) -> (Child, Receiver<(Instant, String)>) {
    let home = home();
    std::fs::create_dir_all(&home).expect("temp dir");
    let mut child = Command::new(env!("CARGO_BIN_EXE_hector"))
        .args(["play", "--time", time, "--speech", "print", "--no-sound"])
        .env("XDG_CONFIG_HOME", &home)
        .env("HOME", &home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("hector starts");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(l) = line else { break };
            if tx.send((Instant::now(), l)).is_err() {
                break;
            }
        }
    });
    (child, rx)
}

fn cpu_per_minute(secs: u64) {
    // 1:30 so that the one-minute threshold is said during the minute.
    let (mut child, rx) = spawn("1:30+0");
    let _ = rx.recv_timeout(Duration::from_secs(10));
    std::thread::sleep(Duration::from_millis(500));
    let before = cpu_ns(child.id());
    let t0 = Instant::now();
    std::thread::sleep(Duration::from_secs(secs));
    let after = cpu_ns(child.id());
    let wall = t0.elapsed();
    let said: Vec<String> = rx.try_iter().map(|(_, l)| l).collect();
    drop(child.stdin.take());
    let _ = child.kill();
    let _ = child.wait();
    let ms = (after - before) as f64 / 1e6;
    let per_min = ms * 60.0 / wall.as_secs_f64();
    println!(
        "clock/cpu: {ms:.3} ms of CPU over {:.1} s of a running clock = {per_min:.3} ms per minute (target < 10); said meanwhile: {said:?}",
        wall.as_secs_f64()
    );
}

fn flag_lateness(trials: u64) {
    let (mut child, rx) = spawn("0:01+0");
    let stdin = child.stdin.as_mut().expect("stdin");
    let wait = Duration::from_secs(10);
    let mut late = Vec::new();
    // The first game's flag, then one `new` per trial.
    while let Ok((_, l)) = rx.recv_timeout(wait) {
        if l.contains("flag") {
            break;
        }
    }
    for _ in 0..trials {
        let sent = Instant::now();
        writeln!(stdin, "new").expect("write");
        stdin.flush().expect("flush");
        let deadline = sent + Duration::from_secs(1);
        loop {
            let Ok((at, l)) = rx.recv_timeout(wait) else {
                panic!("no flag within {wait:?}");
            };
            if l.contains("flag") {
                late.push(at.saturating_duration_since(deadline));
                break;
            }
        }
    }
    drop(child.stdin.take());
    let _ = child.wait();
    late.sort();
    let q = |p: f64| late[((late.len() as f64 - 1.0) * p).round() as usize];
    println!(
        "clock/flag lateness over {} trials (upper bound): p50 {:.3} ms, p90 {:.3} ms, p99 {:.3} ms, max {:.3} ms (target p99 < 5)",
        late.len(),
        q(0.5).as_secs_f64() * 1e3,
        q(0.9).as_secs_f64() * 1e3,
        q(0.99).as_secs_f64() * 1e3,
        q(1.0).as_secs_f64() * 1e3,
    );
}

/// hector following a DGT 3000 on a DGT board over a pseudo-terminal.
/// Starts hector with `--board dgt:PTY`, answers its request with the
/// start position; returns the child, its lines and the board's end.
fn spawn_board() -> (
    Child,
    Receiver<(Instant, String)>,
    hector::testing::Master,
    hector::testing::SimBoard,
) {
    let (mut master, path) = hector::testing::pseudo_board().expect("a pseudo-terminal");
    let home = home();
    std::fs::create_dir_all(&home).expect("temp dir");
    let mut child = Command::new(env!("CARGO_BIN_EXE_hector"))
        .args([
            "play",
            "--board",
            &format!("dgt:{path}"),
            "--prompt",
            "never",
        ])
        .args(["--speech", "print", "--no-sound"])
        .env("XDG_CONFIG_HOME", &home)
        .env("HOME", &home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("hector starts");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(l) = line else { break };
            if tx.send((Instant::now(), l)).is_err() {
                break;
            }
        }
    });
    let sim = hector::testing::SimBoard::new(hector::io::Protocol::Dgt, shakmaty::Board::new());
    let mut buf = [0u8; 64];
    let until = Instant::now() + Duration::from_secs(10);
    while master
        .read_within(&mut buf, Duration::from_millis(50))
        .unwrap_or(0)
        == 0
    {
        assert!(Instant::now() < until, "hector did not ask for the board");
    }
    master.write_all(&sim.dump()).expect("write");
    (child, rx, master, sim)
}

fn reading(white: u64, black: u64, white_flag: bool) -> hector::testing::DgtClockReading {
    hector::testing::DgtClockReading {
        left: Duration::from_secs(white),
        right: Duration::from_secs(black),
        left_flag: white_flag,
        right_flag: false,
        running: true,
        high: hector::testing::DgtClockSide::Left,
        battery_low: false,
    }
}

/// The CPU hector uses following a DGT 3000 that sends its times once a
/// second (as the board does in its "nice" update mode while a clock
/// runs), and the time from the clock's flag message to the flag line.
fn board_clock(secs: u64, trials: u64) {
    let (mut child, rx, mut master, sim) = spawn_board();
    let wait = Duration::from_secs(10);
    std::thread::sleep(Duration::from_millis(500));
    let before = cpu_ns(child.id());
    let t0 = Instant::now();
    // CLOCK_BOARD_READINGS=0: the board alone, for the baseline.
    let readings = env_u64("CLOCK_BOARD_READINGS", 1) != 0;
    for i in 0..secs {
        if readings {
            master
                .write_all(&sim.clock(&reading(90 - i.min(89), 300, false)))
                .expect("write");
        }
        std::thread::sleep(Duration::from_secs(1));
    }
    let after = cpu_ns(child.id());
    let wall = t0.elapsed();
    let said: Vec<String> = rx.try_iter().map(|(_, l)| l).collect();
    let ms = (after - before) as f64 / 1e6;
    println!(
        "clock/board cpu: {ms:.3} ms of CPU over {:.1} s following a DGT 3000 (a reading a second) = {:.3} ms per minute; said: {said:?}",
        wall.as_secs_f64(),
        ms * 60.0 / wall.as_secs_f64()
    );
    let stdin = child.stdin.as_mut().expect("stdin");
    let mut late = Vec::new();
    for _ in 0..trials {
        writeln!(stdin, "new").expect("write");
        stdin.flush().expect("flush");
        while let Ok((_, l)) = rx.recv_timeout(wait) {
            if l.starts_with("New game") {
                break;
            }
        }
        let sent = Instant::now();
        master
            .write_all(&sim.clock(&reading(0, 300, true)))
            .expect("write");
        loop {
            let Ok((at, l)) = rx.recv_timeout(wait) else {
                panic!("no flag within {wait:?}");
            };
            if l.contains("flag") {
                late.push(at.saturating_duration_since(sent));
                break;
            }
        }
    }
    drop(child.stdin.take());
    let _ = child.kill();
    let _ = child.wait();
    late.sort();
    let q = |p: f64| late[((late.len() as f64 - 1.0) * p).round() as usize];
    println!(
        "clock/board flag: from the clock's flag message to the flag line, {} trials: p50 {:.3} ms, p90 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        late.len(),
        q(0.5).as_secs_f64() * 1e3,
        q(0.9).as_secs_f64() * 1e3,
        q(0.99).as_secs_f64() * 1e3,
        q(1.0).as_secs_f64() * 1e3,
    );
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --all-targets` runs this
    // too, without it: then only a short run (3 trials, 2 seconds).
    let bench = std::env::args().any(|a| a == "--bench");
    let (trials, secs) = if bench { (100, 60) } else { (3, 2) };
    let trials = env_u64("CLOCK_TRIALS", trials).max(1);
    let secs = env_u64("CLOCK_CPU_SECS", secs).max(1);
    flag_lateness(trials);
    cpu_per_minute(secs);
    if std::env::var_os("CLOCK_BOARD").is_some_and(|v| v != "0") || bench {
        board_clock(secs, trials);
    }
    let _ = std::fs::remove_dir_all(home());
}
