//! The talking clock through the real binary in line mode, on a short real
//! clock: moves, `time` requests, a threshold, the flag fall with its result.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use crate::util::{clean_config_dir, hector};

/// A running hector whose lines arrive with the time they were read.
struct Live {
    child: Child,
    lines: Receiver<(Instant, String)>,
    started: Instant,
}

impl Live {
    fn start(args: &[&str], config: Option<&str>) -> Live {
        let home = clean_config_dir();
        if let Some(text) = config {
            let dir = home.join("hector");
            std::fs::create_dir_all(&dir).expect("config dir");
            std::fs::write(dir.join("config.toml"), text).expect("config file");
        }
        let mut child = Command::new(env!("CARGO_BIN_EXE_hector"))
            .args(args)
            .args(["--speech", "print", "--no-sound"])
            .env("XDG_CONFIG_HOME", &home)
            .env("HOME", &home)
            .env("XDG_DATA_HOME", crate::util::own_data_dir())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("hector starts");
        let started = Instant::now();
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(l) = line else { break };
                if tx.send((Instant::now(), l)).is_err() {
                    break;
                }
            }
        });
        Live {
            child,
            lines: rx,
            started,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.child.stdin.as_mut().expect("piped stdin");
        writeln!(stdin, "{line}").expect("hector reads");
        stdin.flush().expect("flush");
    }

    /// The next line, within `within`.
    fn next(&self, within: Duration) -> (Duration, String) {
        let (at, l) = self
            .lines
            .recv_timeout(within)
            .unwrap_or_else(|_| panic!("no line within {within:?}"));
        (at - self.started, l)
    }

    fn finish(mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.wait();
    }
}

#[test]
fn moves_press_the_clock_and_time_answers_in_words() {
    let run = hector(
        &["play", "--time", "0:05+1"],
        "e4\ntime\ntime moves\ne5\ntime last\ntime mine\n",
    );
    assert!(run.success, "{}", run.stderr);
    let lines = run.lines();
    assert_eq!(lines[0], "New game. White to move.");
    assert_eq!(lines[1], "Bauer Eva vier");
    // White pressed with 5 s left and got 1 s; Black's time runs.
    assert_eq!(lines[2], "White: six seconds. Black: five seconds.");
    assert_eq!(lines[3], "One move played.");
    assert_eq!(lines[4], "Bauer Eva fünf");
    assert_eq!(lines[5], "Black's last move took less than a second.");
    assert_eq!(lines[6], "White: six seconds.");
    assert!(!run.stdout.contains(":0"), "never 0:05 for a voice");
}

#[test]
fn a_threshold_then_the_flag_fall_ends_the_game() {
    let mut live = Live::start(
        &["play", "--time", "0:05+1"],
        Some("[clock]\nthresholds = [3]\n"),
    );
    let wait = Duration::from_secs(10);
    assert_eq!(live.next(wait).1, "New game. White to move.");
    live.send("e4");
    let (moved, l) = live.next(wait);
    assert_eq!(l, "Bauer Eva vier");
    // Black's 5 seconds run: "3 seconds left" after 2 s, the flag after 5 s.
    let (at, l) = live.next(wait);
    assert_eq!(l, "Black: three seconds left.");
    assert!(
        at >= moved + Duration::from_millis(1900),
        "{at:?} {moved:?}"
    );
    let (at, l) = live.next(wait);
    assert_eq!(l, "Black's flag has fallen. White wins, one to zero.");
    assert!(
        at >= moved + Duration::from_millis(4900),
        "{at:?} {moved:?}"
    );
    assert!(
        at < moved + Duration::from_millis(5900),
        "at once: {at:?} {moved:?}"
    );
    live.send("Nf3");
    assert_eq!(
        live.next(wait).1,
        "Game over: White won on time, Black's flag fell, one to zero. Say new for a new game."
    );
    live.send("time");
    assert_eq!(live.next(wait).1, "White: six seconds. Black: no time.");
    live.finish();
}

#[test]
fn a_wrong_time_control_says_what_is_wrong() {
    let run = hector(&["play", "--time", "40/90"], "");
    assert!(!run.success);
    assert_eq!(
        run.stderr.trim(),
        "hector: --time: \"40/90\": the last period is for the rest of the game and has no move count, like 40/90,30."
    );
    let run = hector(&["play", "--time", "1:75+0", "--lang", "it"], "");
    assert!(
        run.stderr.contains("i secondi vanno scritti con due cifre"),
        "{}",
        run.stderr
    );
}

#[test]
fn presets_and_the_rules_edition_are_accepted() {
    let run = hector(&["play", "--time", "rapid", "--rules", "2017"], "time\n");
    assert!(run.success, "{}", run.stderr);
    assert_eq!(
        run.lines()[1],
        "White: fifteen minutes. Black: fifteen minutes."
    );
}
