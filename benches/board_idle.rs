//! An e-board at rest, through the real binary in line mode: `hector play
//! --board PROTOCOL:PTY --prompt never`, the board simulated on a
//! pseudo-terminal (it answers hector's first request with the start
//! position, then sends nothing), for DGT, Millennium and occupancy at
//! once.  After a second to settle, `BOARD_IDLE_SECS` of rest (default 60
//! under `cargo bench`, 2 under `cargo test`): hector's CPU (the sum of its
//! threads' `/proc/PID/task/*/schedstat`) and its context switches (their
//! `status`: how often a thread woke), each a minute.  Target: under 10 ms
//! of CPU a minute, woken by the board's bytes and not by a timer.
//!
//! The Bluetooth LE boards beside them (Linux): a Chessnut Air, a Pegasus,
//! an eONE, and a Chessnut out of reach from the start, each on a fake
//! BlueZ of its own (`tests/support/bluez.rs`), hector started with
//! `--board KIND:ADDRESS` and `DBUS_SYSTEM_BUS_ADDRESS`, measured once it
//! has said "Board connected." (its start position read; "not in reach"
//! for the one away).  Skipped with one line when `dbus-daemon` or
//! python3-dbusmock is missing.
//!
//! Then, one hector at a time, the latency that must not suffer: twelve
//! knight moves made on each board (both sides), each timed from the
//! write of its last message to the announcement's line, in
//! `BOARD_LATENCY_ROUNDS` fresh games (default 5 under `cargo bench`, 1
//! under `cargo test`), the builds in turn (p50, p90 and max).
//!
//! `BOARD_IDLE_OTHER=/path/to/hector` measures another build (an older
//! one) beside this one, over the same seconds, for a comparison in one
//! run.
//!
//! `cargo bench --features test-support --bench board_idle`.  Linux only
//! (`/proc`).
#![allow(
    missing_docs,
    clippy::expect_used,
    clippy::unwrap_used,
    reason = "a benchmark: set-up may panic"
)]

#[cfg(target_os = "linux")]
#[path = "../tests/support/bluez.rs"]
#[allow(dead_code, reason = "the bench uses only some of the fake's controls")]
mod bluez;
mod common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};

/// The number of the next hector started (its games folder).
static NEXT: AtomicUsize = AtomicUsize::new(0);
use std::time::{Duration, Instant};

use common::{cpu_ns, env_u64, switches};
use hector::io::Protocol;
use hector::testing::{Master, SimBoard, pseudo_board};

/// One hector with its simulated board.
struct Idle {
    label: String,
    child: Child,
    /// Kept open: the board stays plugged in.  `None` for a Bluetooth
    /// board (on the fake BlueZ).
    master: Option<Master>,
    sim: Option<SimBoard>,
    said: Arc<Mutex<Vec<String>>>,
    /// Each line with the time it was read.
    lines: Receiver<(Instant, String)>,
}

impl Drop for Idle {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A hector started: the process, its lines so far, and each line with
/// the time it was read.
type Started = (Child, Arc<Mutex<Vec<String>>>, Receiver<(Instant, String)>);

/// hector in line mode with `--board SPEC`, its lines collected.
fn spawn(bin: &str, spec: &str, env: &[(&str, &str)], home: &std::path::Path) -> Started {
    let mut child = Command::new(bin)
        .args([
            "play",
            "--board",
            spec,
            "--prompt",
            "never",
            "--speech",
            "print",
            "--no-sound",
        ])
        .env("XDG_CONFIG_HOME", home)
        // A games folder of its own: no game of another run to resume.
        .env(
            "XDG_DATA_HOME",
            home.join(format!("data-{}", NEXT.fetch_add(1, Ordering::Relaxed))),
        )
        .env("HOME", home)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("hector starts");
    let said = Arc::new(Mutex::new(Vec::new()));
    let out = child.stdout.take().expect("stdout");
    let kept = Arc::clone(&said);
    let (tx, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for l in BufReader::new(out).lines().map_while(Result::ok) {
            let _ = tx.send((Instant::now(), l.clone()));
            kept.lock().unwrap().push(l);
        }
    });
    (child, said, lines)
}

fn start(bin: &str, label: &str, protocol: Protocol, home: &std::path::Path) -> Idle {
    let (mut master, path) = pseudo_board().expect("a pseudo-terminal");
    let (child, said, lines) = spawn(bin, &format!("{}:{path}", protocol.name()), &[], home);
    // hector's request, then the board's answer: the start position.
    let sim = SimBoard::new(protocol, shakmaty::Board::new());
    let mut buf = [0u8; 256];
    let until = Instant::now() + Duration::from_secs(10);
    while master
        .read_within(&mut buf, Duration::from_millis(50))
        .unwrap_or(0)
        == 0
    {
        assert!(Instant::now() < until, "hector did not ask the board");
    }
    master.write_all(&sim.dump()).expect("the board answers");
    Idle {
        label: format!("{label} {}", protocol.name()),
        child,
        master: Some(master),
        sim: Some(sim),
        said,
        lines,
    }
}

/// Twelve knight moves made on the board, both sides: from the write of
/// each move's last message to its announcement's line.
fn latency(r: &mut Idle) -> Vec<Duration> {
    use shakmaty::{Chess, Position};
    let mut pos = Chess::default();
    let mut times = Vec::new();
    for san in [
        "Nf3", "Nf6", "Ng1", "Ng8", "Nc3", "Nc6", "Nb1", "Nb8", "Nf3", "Nf6", "Ng1", "Ng8",
    ] {
        let m = san
            .parse::<shakmaty::san::San>()
            .unwrap()
            .to_move(&pos)
            .unwrap();
        let mut steps = r.sim.as_mut().expect("a serial board").play(&pos, m, false);
        let last = steps.pop().expect("a move has a last step");
        let master = r.master.as_mut().expect("a serial board");
        for s in steps {
            master.write_all(&s).expect("the board writes");
        }
        std::thread::sleep(Duration::from_millis(50));
        while r.lines.try_recv().is_ok() {}
        let t = Instant::now();
        r.master
            .as_mut()
            .expect("a serial board")
            .write_all(&last)
            .expect("the board writes");
        let (at, _) = r
            .lines
            .recv_timeout(Duration::from_secs(5))
            .unwrap_or_else(|_| {
                panic!(
                    "{}: {san} was not said: {:?}",
                    r.label,
                    r.said.lock().unwrap()
                )
            });
        times.push(at - t);
        pos.play_unchecked(m);
        std::thread::sleep(Duration::from_millis(50));
    }
    times
}

/// The Bluetooth boards at rest on the fake BlueZ: a Chessnut Air, a
/// Pegasus and an eONE in reach, and a Chessnut out of reach (looked for
/// again and again), for each build.
const WIRELESS: [(&str, &str, bool); 4] = [
    ("chessnut", "Chessnut Air", true),
    ("pegasus", "DGT_PEGASUS_A1", true),
    ("eone", "MILLENNIUM CHESS", true),
    ("chessnut", "Chessnut Air", false),
];

/// Whether the fake BlueZ can run here: `dbus-daemon` and Debian's
/// python3-dbusmock (`scripts/deps.sh` installs both).
fn fake_bluez_missing() -> Option<&'static str> {
    let runs = |cmd: &str, args: &[&str]| {
        Command::new(cmd)
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if !runs("dbus-daemon", &["--version"]) {
        Some("dbus-daemon")
    } else if !runs("/usr/bin/python3", &["-c", "import dbusmock"]) {
        Some("python3-dbusmock")
    } else {
        None
    }
}

/// hector with `--board KIND:ADDRESS` on the fake's bus, once it has said
/// what it found: the board connected (its start position read) or, for
/// a board out of reach, not in reach.
fn start_wireless(
    bin: &str,
    label: &str,
    kind: &str,
    address: &str,
    in_reach: bool,
    bus: &str,
    home: &std::path::Path,
) -> Idle {
    let (child, said, lines) = spawn(
        bin,
        &format!("{kind}:{address}"),
        &[("DBUS_SYSTEM_BUS_ADDRESS", bus)],
        home,
    );
    let label = format!(
        "{label} {kind} (Bluetooth{})",
        if in_reach { "" } else { ", out of reach" }
    );
    let wanted = if in_reach {
        "Board connected."
    } else {
        "not in reach"
    };
    let until = Instant::now() + Duration::from_secs(30);
    while !said.lock().unwrap().iter().any(|l| l.contains(wanted)) {
        assert!(
            Instant::now() < until,
            "{label}: never said {wanted:?}: {:?}",
            said.lock().unwrap()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    Idle {
        label,
        child,
        master: None,
        sim: None,
        said,
        lines,
    }
}

fn main() {
    let bench = std::env::args().any(|a| a == "--bench");
    let secs = env_u64("BOARD_IDLE_SECS", if bench { 60 } else { 2 }).max(1);
    let home = std::env::temp_dir().join(format!("hector-board-idle-{}", std::process::id()));
    std::fs::create_dir_all(&home).expect("temp dir");
    let mut bins = vec![("this build", env!("CARGO_BIN_EXE_hector").to_owned())];
    if let Ok(other) = std::env::var("BOARD_IDLE_OTHER") {
        bins.push(("other build", other));
    }
    let mut runs: Vec<Idle> = Vec::new();
    for p in Protocol::ALL {
        for (label, bin) in &bins {
            runs.push(start(bin, label, p, &home));
        }
    }
    // The Bluetooth boards, each on a fake BlueZ (and bus) of its own: a
    // client of BlueZ hears every device's signals on its bus (btleplug
    // listens to all of org.bluez's PropertiesChanged), so the Pegasus's
    // answers every 2 s, or a board looked for again and again, would
    // wake the others; on a player's computer there is one board.
    let mut fakes = Vec::new();
    match fake_bluez_missing() {
        Some(what) => {
            println!("board_idle: Bluetooth boards skipped: {what} is missing (scripts/deps.sh)");
        }
        None => {
            for (label, bin) in &bins {
                for (kind, name, in_reach) in WIRELESS {
                    let fake = bluez::FakeBluez::start();
                    let address = "C0:FF:EE:00:00:01";
                    fake.add_board(kind, address, name, -50);
                    if !in_reach {
                        fake.set_in_reach(address, false);
                    }
                    runs.push(start_wireless(
                        bin,
                        label,
                        kind,
                        address,
                        in_reach,
                        fake.address(),
                        &home,
                    ));
                    fakes.push(fake);
                }
            }
        }
    }
    std::thread::sleep(Duration::from_secs(1));
    let before: Vec<(u64, u64)> = runs
        .iter()
        .map(|r| (cpu_ns(r.child.id()), switches(r.child.id())))
        .collect();
    let t0 = Instant::now();
    std::thread::sleep(Duration::from_secs(secs));
    let wall = t0.elapsed().as_secs_f64();
    for (r, (cpu0, sw0)) in runs.iter().zip(before) {
        let cpu = cpu_ns(r.child.id()).saturating_sub(cpu0) as f64 / 1e6;
        let sw = switches(r.child.id()).saturating_sub(sw0) as f64;
        let said = r.said.lock().unwrap().clone();
        let away = r.label.contains("out of reach");
        assert!(
            said.iter().any(|l| l.contains("Board connected")) != away,
            "{}: the board answered: {said:?}",
            r.label
        );
        // Still connected, and matching the game, at the end.
        assert!(
            !said.iter().any(|l| l.contains("out of reach")
                || l.contains("Mismatch")
                || l.contains("Put the pieces")),
            "{}: {said:?}",
            r.label
        );
        println!(
            "board_idle {}: {cpu:.3} ms of CPU and {sw:.0} wake-ups over {wall:.1} s at rest = {:.3} ms and {:.1} wake-ups a minute (target < 10 ms)",
            r.label,
            cpu * 60.0 / wall,
            sw * 60.0 / wall
        );
    }
    drop(runs);
    drop(fakes);
    // The latency, one hector at a time, in fresh games, the builds in
    // turn.
    let rounds = env_u64("BOARD_LATENCY_ROUNDS", if bench { 5 } else { 1 }).max(1);
    let mut times: Vec<(String, Vec<Duration>)> = Vec::new();
    for _ in 0..rounds {
        for p in Protocol::ALL {
            for (label, bin) in &bins {
                let mut r = start(bin, label, p, &home);
                std::thread::sleep(Duration::from_millis(300));
                let t = latency(&mut r);
                match times.iter_mut().find(|(l, _)| *l == r.label) {
                    Some((_, all)) => all.extend(t),
                    None => times.push((r.label.clone(), t)),
                }
            }
        }
    }
    for (label, mut t) in times {
        t.sort();
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        println!(
            "board_idle {label}: knight move on the board, last message to its line: p50 {:.3} ms, p90 {:.3} ms, max {:.3} ms ({} moves)",
            ms(t[t.len() / 2]),
            ms(t[t.len() * 9 / 10]),
            ms(t[t.len() - 1]),
            t.len()
        );
    }
    let _ = std::fs::remove_dir_all(&home);
}
