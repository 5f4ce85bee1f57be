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

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use common::{cpu_ns, env_u64};

/// A tmux server and session of its own, killed (with hector) on drop,
/// and the temporary directory (configuration home, terminal output).
struct Session {
    name: String,
    dir: PathBuf,
}

impl Session {
    fn tmux(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .args(["-L", &self.name])
            .args(args)
            .output()
            .expect("tmux runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", &self.name];
        args.extend_from_slice(keys);
        self.tmux(&args);
    }

    fn screen(&self) -> String {
        self.tmux(&["capture-pane", "-p", "-t", &self.name])
    }

    /// Wait (10 s at most) until the screen shows `text`.
    fn wait_for(&self, text: &str) {
        let end = Instant::now() + Duration::from_secs(10);
        loop {
            let s = self.screen();
            let flat = s
                .replace(['│', '┌', '┐', '└', '┘', '─'], " ")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            if s.contains(text) || flat.contains(text) {
                return;
            }
            assert!(
                Instant::now() < end,
                "waited for {text:?}; the screen:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.name, "kill-server"])
            .status();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// hector as the session's only program (`env` execs it, so the pane's
/// process is hector itself), with a clean configuration home.
fn start() -> (Session, u32) {
    let name = format!("hector-tui-idle-{}", std::process::id());
    let dir = std::env::temp_dir().join(&name);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let s = Session { name, dir };
    let home = s.dir.display().to_string();
    let ok = Command::new("tmux")
        .args(["-L", &s.name, "-f", "/dev/null"])
        .args(["new-session", "-d", "-s", &s.name, "-x", "120", "-y", "40"])
        .args(["env", "TERM=xterm-256color"])
        .arg(format!("XDG_CONFIG_HOME={home}"))
        .arg(format!("HOME={home}"))
        .arg(env!("CARGO_BIN_EXE_hector"))
        .args(["play", "--ui", "tui", "--time", "90+30"])
        .args(["--speech", "print", "--no-sound"])
        .status()
        .expect("tmux runs")
        .success();
    assert!(ok, "tmux session starts");
    s.wait_for("White to move, move 1.");
    let pid = s
        .tmux(&["display-message", "-p", "-t", &s.name, "#{pane_pid}"])
        .trim()
        .parse()
        .expect("the pane's pid");
    (s, pid)
}

fn main() {
    let bench = std::env::args().any(|a| a == "--bench");
    let secs = env_u64("TUI_IDLE_SECS", if bench { 60 } else { 2 }).max(1);
    let (s, pid) = start();
    // White moves: Black's clock runs from now on.
    s.keys(&["Tab"]);
    s.tmux(&["send-keys", "-t", &s.name, "-l", "e4"]);
    s.keys(&["Enter"]);
    s.wait_for("Bauer Eva vier");
    std::thread::sleep(Duration::from_millis(500));
    // What hector writes to the terminal from now on.
    let out = s.dir.join("pane.out");
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
}
