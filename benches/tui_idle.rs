//! The CPU an idle full-screen view uses while a clock runs, measured on
//! the real binary in a real terminal: `hector play --ui tui --time 90+30
//! --speech print --no-sound` in a tmux session of 120×40, White plays
//! e4 (so Black's clock runs), then nobody touches a key for
//! `TUI_IDLE_SECS` seconds (default 60).  The CPU is the sum of hector's
//! threads' `/proc/PID/task/*/schedstat` over that time, given in ms per
//! minute (target: under 15 ms a minute: one wake-up a second, only the
//! clocks drawn).  Beside it: the context switches of its threads (how
//! often one woke), and the bytes hector wrote to the terminal (tmux
//! `pipe-pane`) with the frames in them: ratatui ends every whole frame by
//! hiding or showing the cursor (`ESC [ ? 25 l` / `h`); a second that
//! draws only the clocks writes their changed cells and no such sequence.
//!
//! `TUI_IDLE_OTHER=/path/to/hector` measures another build (an older one)
//! the same way, in a second session over the same seconds, for a
//! comparison in one run.
//!
//! `cargo bench --bench tui_idle`; under `cargo test --all-targets` (no
//! `--bench`) only 2 seconds.  Linux only (`/proc`).
#![allow(
    missing_docs,
    clippy::expect_used,
    clippy::unwrap_used,
    reason = "a benchmark: set-up may panic"
)]

mod common;
#[allow(
    dead_code,
    reason = "the tests use more of the helper than the benchmark"
)]
#[path = "../tests/support/tmux.rs"]
mod tmux;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use common::{cpu_ns, env_u64, switches};
use tmux::Tmux;

/// The temporary directory (configuration home, terminal output), removed
/// on drop.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// hector as the session's only program (`env` execs it, so the pane's
/// process is hector itself), with a clean configuration home.  The
/// session is killed (with hector) before the directory is removed.
fn start(bin: &str, which: &str) -> (Tmux, TempDir, u32) {
    let name = format!("hector-tui-idle-{}-{which}", std::process::id());
    let dir = TempDir(std::env::temp_dir().join(&name));
    std::fs::create_dir_all(&dir.0).expect("temp dir");
    let home = dir.0.display().to_string();
    let config = format!("XDG_CONFIG_HOME={home}");
    let home = format!("HOME={home}");
    let command = [
        "env",
        "TERM=xterm-256color",
        &config,
        &home,
        bin,
        "play",
        "--ui",
        "tui",
        "--time",
        "90+30",
        "--speech",
        "print",
        "--no-sound",
    ];
    let s = Tmux::run(name, 120, 40, &command);
    s.wait_for("White to move, move 1.");
    let pid = s.format("#{pane_pid}").parse().expect("the pane's pid");
    (s, dir, pid)
}

/// One hector in its terminal, Black's clock running.
struct Run {
    label: &'static str,
    s: Tmux,
    dir: TempDir,
    pid: u32,
}

fn begin(label: &'static str, bin: &str) -> Run {
    let (s, dir, pid) = start(bin, label.split(' ').next().unwrap_or(label));
    // White moves: Black's clock runs from now on.
    s.keys(&["Tab"]);
    s.literal("e4");
    s.keys(&["Enter"]);
    s.wait_for("Bauer Eva vier");
    Run { label, s, dir, pid }
}

fn main() {
    let bench = std::env::args().any(|a| a == "--bench");
    let secs = env_u64("TUI_IDLE_SECS", if bench { 60 } else { 2 }).max(1);
    let mut runs = vec![begin("this build", env!("CARGO_BIN_EXE_hector"))];
    if let Ok(other) = std::env::var("TUI_IDLE_OTHER") {
        runs.push(begin("other build", &other));
    }
    std::thread::sleep(Duration::from_millis(500));
    // What hector writes to the terminal from now on.
    let outs: Vec<PathBuf> = runs
        .iter()
        .map(|r| {
            let out = r.dir.0.join("pane.out");
            r.s.tmux(&[
                "pipe-pane",
                "-t",
                &r.s.name,
                &format!("cat > '{}'", out.display()),
            ]);
            out
        })
        .collect();
    let before: Vec<(u64, u64)> = runs
        .iter()
        .map(|r| (cpu_ns(r.pid), switches(r.pid)))
        .collect();
    let t0 = Instant::now();
    std::thread::sleep(Duration::from_secs(secs));
    let after: Vec<(u64, u64)> = runs
        .iter()
        .map(|r| (cpu_ns(r.pid), switches(r.pid)))
        .collect();
    let wall = t0.elapsed();
    for r in &runs {
        r.s.tmux(&["pipe-pane", "-t", &r.s.name]);
    }
    std::thread::sleep(Duration::from_millis(200));
    for (((r, out), (cpu0, sw0)), (cpu1, sw1)) in runs.iter().zip(&outs).zip(before).zip(after) {
        let bytes = std::fs::read(out).unwrap_or_default();
        let frames = bytes
            .windows(6)
            .filter(|w| *w == b"\x1b[?25l" || *w == b"\x1b[?25h")
            .count();
        assert!(cpu0 > 0 && cpu1 >= cpu0, "hector's CPU was read");
        let ms = (cpu1 - cpu0) as f64 / 1e6;
        let per_min = ms * 60.0 / wall.as_secs_f64();
        let woke = (sw1 - sw0) as f64 * 60.0 / wall.as_secs_f64();
        println!(
            "tui_idle {}: {ms:.3} ms of CPU over {:.1} s of a running clock at 120x40 = {per_min:.3} ms per minute (target < 15); {woke:.0} wake-ups a minute; {} bytes to the terminal, {frames} whole frames",
            r.label,
            wall.as_secs_f64(),
            bytes.len()
        );
    }
    // hector and its terminal first, then the directory.
    for r in runs {
        let Run { s, dir, .. } = r;
        drop(s);
        drop(dir);
    }
}
