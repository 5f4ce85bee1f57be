//! The CPU an idle full-screen view uses while a clock runs, measured on
//! the real binary in a real terminal: `hector play --ui tui --time 90+30
//! --speech print --no-sound` in a tmux session of 120×40, White plays
//! e4 (so Black's clock runs), then nobody touches a key for
//! `TUI_IDLE_SECS` seconds (default 60).  The CPU is the sum of hector's
//! threads' `/proc/PID/task/*/schedstat` over that time, given in ms per
//! minute (target: under 30 ms a minute: one frame a second, nothing
//! between).  The redraws are counted in the bytes hector wrote to the
//! terminal (tmux `pipe-pane`): ratatui ends every frame by hiding or
//! showing the cursor (`ESC [ ? 25 l` / `h`), once a frame.
//!
//! `cargo bench --profile dev --bench tui_idle`; under `cargo test
//! --all-targets` (no `--bench`) only 2 seconds.  Linux only (`/proc`).
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

use common::{cpu_ns, env_u64};
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
fn start() -> (Tmux, TempDir, u32) {
    let name = format!("hector-tui-idle-{}", std::process::id());
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
        env!("CARGO_BIN_EXE_hector"),
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

fn main() {
    let bench = std::env::args().any(|a| a == "--bench");
    let secs = env_u64("TUI_IDLE_SECS", if bench { 60 } else { 2 }).max(1);
    let (s, dir, pid) = start();
    // White moves: Black's clock runs from now on.
    s.keys(&["Tab"]);
    s.literal("e4");
    s.keys(&["Enter"]);
    s.wait_for("Bauer Eva vier");
    std::thread::sleep(Duration::from_millis(500));
    // What hector writes to the terminal from now on.
    let out = dir.0.join("pane.out");
    s.tmux(&[
        "pipe-pane",
        "-t",
        &s.name,
        &format!("cat > '{}'", out.display()),
    ]);
    let before = cpu_ns(pid);
    let t0 = Instant::now();
    std::thread::sleep(Duration::from_secs(secs));
    let after = cpu_ns(pid);
    let wall = t0.elapsed();
    s.tmux(&["pipe-pane", "-t", &s.name]);
    std::thread::sleep(Duration::from_millis(200));
    let bytes = std::fs::read(&out).unwrap_or_default();
    let frames = bytes
        .windows(6)
        .filter(|w| *w == b"\x1b[?25l" || *w == b"\x1b[?25h")
        .count();
    assert!(before > 0 && after >= before, "hector's CPU was read");
    let ms = (after - before) as f64 / 1e6;
    let per_min = ms * 60.0 / wall.as_secs_f64();
    println!(
        "tui_idle: {ms:.3} ms of CPU over {:.1} s of a running clock at 120x40 = {per_min:.3} ms per minute (target < 30); {frames} redraws ({} bytes to the terminal)",
        wall.as_secs_f64(),
        bytes.len()
    );
    // hector and its terminal first, then the directory.
    drop(s);
    drop(dir);
}
