//! A real terminal for the full-screen view: one tmux session on a tmux
//! server of its own (tests run in parallel; a server ends with its last
//! session), killed when dropped.  Shared by the tests (`tui_tmux`) and the
//! idle bench (`tui_idle`).

use std::process::Command;
use std::time::{Duration, Instant};

/// One tmux session and its server.
pub struct Tmux {
    /// The server's socket name, also the session's name.
    pub name: String,
}

impl Tmux {
    /// A `width`×`height` session named `name` running `command` (its
    /// first word the program, as tmux runs it without a shell).
    pub fn run(name: String, width: u16, height: u16, command: &[&str]) -> Tmux {
        let ok = Command::new("tmux")
            .args(["-L", &name, "-f", "/dev/null"])
            .args(["new-session", "-d", "-s", &name, "-x"])
            .arg(width.to_string())
            .arg("-y")
            .arg(height.to_string())
            .args(command)
            .status()
            .expect("tmux runs")
            .success();
        assert!(ok, "tmux session starts");
        Tmux { name }
    }

    /// A tmux command on this server; what it printed.
    pub fn tmux(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .args(["-L", &self.name])
            .args(args)
            .output()
            .expect("tmux runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Keys by tmux name ("Up", "Enter", "C-c", "n").
    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", &self.name];
        args.extend_from_slice(keys);
        self.tmux(&args);
    }

    /// Text sent as it is (also escape sequences: mouse reports).
    pub fn literal(&self, text: &str) {
        self.tmux(&["send-keys", "-t", &self.name, "-l", text]);
    }

    /// The screen's text.
    pub fn screen(&self) -> String {
        self.tmux(&["capture-pane", "-p", "-t", &self.name])
    }

    /// A tmux format of the pane (`#{pane_pid}`, `#{alternate_on}`).
    pub fn format(&self, f: &str) -> String {
        self.tmux(&["display-message", "-p", "-t", &self.name, f])
            .trim()
            .to_owned()
    }

    /// The screen once two captures 50 ms apart are the same (10 s at
    /// most): a frame is written in pieces, and on a loaded machine a
    /// capture can fall between them.
    pub fn settled(&self) -> String {
        let end = Instant::now() + Duration::from_secs(10);
        let mut last = self.screen();
        loop {
            std::thread::sleep(Duration::from_millis(50));
            let s = self.screen();
            if s == last {
                return s;
            }
            assert!(Instant::now() < end, "the screen never settled:\n{s}");
            last = s;
        }
    }

    /// The screen once it shows `text` (10 s at most), also when the text
    /// is wrapped in the announcement's frame.
    pub fn wait_for(&self, text: &str) -> String {
        let end = Instant::now() + Duration::from_secs(10);
        loop {
            let s = self.screen();
            let flat = s
                .replace(['│', '┌', '┐', '└', '┘', '─'], " ")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            if s.contains(text) || flat.contains(text) {
                return s;
            }
            assert!(
                Instant::now() < end,
                "waited for {text:?}; the screen:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(30));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.name, "kill-server"])
            .status();
    }
}
