//! Issue 8 through the real binary: what a player hears is calm, true and
//! useful.  Piped scripts for what a script sees; a real terminal (through
//! `script`, which gives hector a pseudo-terminal as its controlling
//! terminal) for what only a player at a terminal gets.

// Helpers of the Unix-only tests go unused under Windows.
#![cfg_attr(windows, allow(dead_code, unused_imports))]
use std::io::{Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::util::{clean_config_dir, hector, hector_at};

#[test]
fn after_the_end_every_line_says_how_the_game_ended() {
    let run = hector(&[], "e4\nf6\nd4\ng5\nQh5\nturn\n\nNc6\nsquare h5\n");
    let over = "Game over: White won by checkmate, one to zero. Say new for a new game.";
    assert_eq!(
        run.lines()[7..],
        [over, over, over, "Hector fünf: white Dame"],
        "{}",
        run.stdout
    );
}

#[test]
fn errors_say_what_was_wrong() {
    let run = hector(
        &[],
        "rank 9\nhelp rank\ne5\nd4\nd5\nNf3\nNf6\nNd2\nattackers d4 black\ndefenders d4 white\n",
    );
    assert_eq!(
        run.lines()[1..4],
        [
            "There is no rank 9: say a rank from 1 to 8.",
            "rank 4: the pieces on a rank.",
            "Bauer Eva fünf is Black's move, but it is White's turn.",
        ],
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains(
        "Two Springer can go to David zwei: from Bella eins or from Felix drei. \
         Say Springer Bella David zwei or Springer Felix David zwei."
    ));
    let n = run.lines().len();
    assert_eq!(
        run.lines()[n - 2..],
        [
            "Nothing attacks David vier.",
            "David vier is defended by Dame David eins and Springer Felix drei.",
        ],
        "{}",
        run.stdout
    );
}

#[test]
fn a_promotion_typed_without_its_piece_is_asked_about() {
    let run = hector(
        &[],
        "e4\nd5\nexd5\nc6\ndxc6\nNf6\ncxb7\nNbd7\nbxa8\nSpringer\nDame\n",
    );
    let lines = run.lines();
    let n = lines.len();
    assert_eq!(
        lines[n - 3..],
        [
            "Which piece does the pawn become? Say Dame, Turm, Läufer or Springer.",
            "Bauer Bella schlägt Anna acht wird Springer",
            "Dame alone is not a move: no question waits for a piece. Say the whole move, such as Dame Felix drei.",
        ],
        "{}",
        run.stdout
    );
}

#[test]
fn escape_sequences_typed_are_not_echoed_and_invalid_utf8_keeps_the_line() {
    let long = "y".repeat(100);
    let script = format!("\u{1b}[31mred\u{1b}[0m\n{long}\n");
    let mut bytes = script.into_bytes();
    bytes.extend_from_slice(b"zz\xff\xfeqq\n");
    let run = crate::util::hector_bytes(&[], &bytes);
    assert!(!run.stdout.contains('\u{1b}'), "{:?}", run.stdout);
    let lines = run.lines();
    assert!(lines[1].starts_with("\"red\" is not a move"), "{lines:?}");
    assert!(lines[2].contains('…') && lines[2].len() < 140, "{lines:?}");
    assert!(
        lines[3].contains("zz") && lines[3].contains("qq"),
        "{lines:?}"
    );
}

#[test]
fn less_to_listen_to_through_the_binary() {
    let run = hector(&[], "pieces black\ne4\ne5\ndraw\nNf3\nlast\n");
    let lines = run.lines();
    assert_eq!(
        lines[1],
        "Black, sixteen pieces: König Eva acht; Dame David acht; Türme Anna acht and Hector acht; \
         Läufer Cesar acht and Felix acht; Springer Bella acht and Gustav acht; \
         Bauern on all files of sieben."
    );
    assert_eq!(
        lines[4..],
        [
            "Your draw offer will be made with your next move.",
            "Springer Felix drei",
            "White offers a draw.",
            "Last move: 2. Springer Felix drei.",
        ],
        "{}",
        run.stdout
    );
}

/// hector in a real terminal: `script` runs it on a pseudo-terminal that
/// is its controlling terminal (so Ctrl-C typed is a SIGINT), and copies
/// what we write to the terminal's input.
#[cfg(unix)] // Unix only: a pseudo-terminal through `script`
struct Terminal {
    child: Child,
    output: Arc<Mutex<String>>,
}

#[cfg(unix)] // Unix only: a pseudo-terminal through `script`
impl Terminal {
    fn start(args: &str) -> Terminal {
        let home = clean_config_dir();
        let cmd = format!(
            "{} --speech print --no-sound {args}",
            env!("CARGO_BIN_EXE_hector")
        );
        let mut child = Command::new("script")
            .args(["-qfec", &cmd, "/dev/null"])
            .env("XDG_CONFIG_HOME", &home)
            .env("HOME", &home)
            .env("XDG_DATA_HOME", crate::util::own_data_dir())
            .env("TERM", "dumb")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("script starts");
        let mut stdout = child.stdout.take().expect("piped");
        let output = Arc::new(Mutex::new(String::new()));
        let sink = Arc::clone(&output);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut buf) {
                if n == 0 {
                    break;
                }
                if let Ok(mut o) = sink.lock() {
                    o.push_str(&String::from_utf8_lossy(&buf[..n]));
                }
            }
        });
        Terminal { child, output }
    }

    fn text(&self) -> String {
        self.output.lock().map(|o| o.clone()).unwrap_or_default()
    }

    /// Wait (at most 10 s) until the output holds `text`.
    fn wait_for(&self, text: &str) {
        let start = Instant::now();
        while !self.text().contains(text) {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "waited for {text:?}; got {:?}",
                self.text()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn type_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.child.stdin.as_mut().expect("piped");
        stdin.write_all(bytes).expect("typed");
        stdin.flush().expect("flushed");
    }

    fn type_line(&mut self, line: &str) {
        self.type_bytes(format!("{line}\r").as_bytes());
    }

    /// Wait (at most 10 s) for the end; true if it ended by itself.
    fn ended(&mut self) -> bool {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(10) {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        false
    }

    /// The pid of hector itself (the child of `script`).
    fn hector_pid(&self) -> Option<String> {
        let out = Command::new("pgrep")
            .args(["-P", &self.child.id().to_string()])
            .output()
            .ok()?;
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .next()
            .map(str::to_owned)
    }
}

#[cfg(unix)] // Unix only: a pseudo-terminal through `script`, signals
#[test]
fn in_a_terminal_quit_in_mid_game_asks_first() {
    let mut t = Terminal::start("");
    t.wait_for("White to move, move 1. > ");
    t.type_line("e4");
    t.wait_for("Bauer Eva vier");
    t.type_line("quit");
    t.wait_for("A game is in progress. Say quit again to leave, or no to go on.");
    t.type_line("no");
    t.wait_for("The game goes on.");
    t.type_line("new");
    t.wait_for("Say new again to start a new game");
    t.type_line("e5");
    t.wait_for("Bauer Eva fünf");
    t.type_line("quit");
    t.wait_for("Say quit again");
    t.type_line("quit");
    t.wait_for("Goodbye.");
    assert!(t.ended(), "{}", t.text());
}

#[cfg(unix)] // Unix only: a pseudo-terminal through `script`, signals
#[test]
fn in_a_terminal_ctrl_c_and_sigterm_say_goodbye_and_end_cleanly() {
    let mut t = Terminal::start("");
    t.wait_for("White to move, move 1. > ");
    t.type_line("e4");
    t.wait_for("Bauer Eva vier");
    t.type_bytes(b"\x03");
    t.wait_for("Goodbye.");
    assert!(t.ended(), "{}", t.text());

    let mut t = Terminal::start("");
    t.wait_for("White to move, move 1. > ");
    t.type_line("d4");
    t.wait_for("Bauer David vier");
    let pid = t.hector_pid().expect("hector runs under script");
    let killed = Command::new("kill").args(["-TERM", &pid]).status();
    assert!(killed.is_ok_and(|s| s.success()));
    t.wait_for("Goodbye.");
    assert!(t.ended(), "{}", t.text());
}

#[cfg(unix)] // Unix only: a pseudo-terminal through `script`, signals
#[test]
fn in_a_terminal_the_end_of_input_in_mid_game_is_a_quit() {
    let mut t = Terminal::start("");
    t.wait_for("White to move, move 1. > ");
    t.type_line("e4");
    t.wait_for("Bauer Eva vier");
    t.type_bytes(b"\x04");
    t.wait_for("Goodbye.");
    assert!(t.ended(), "{}", t.text());
}

#[test]
fn a_journal_that_cannot_be_written_is_said_once_and_export_still_has_every_move() {
    let home = clean_config_dir();
    // The data folder is a file: no journal can be made under it.
    let data = home.join("not-a-folder");
    std::fs::write(&data, "").unwrap();
    let run = hector_at(&home, &data, &home, &["play"], "e4\ne5\nNf3\nexport\n");
    let lines = run.lines();
    let failed: Vec<_> = lines
        .iter()
        .filter(|l| l.starts_with("The scoresheet cannot be saved"))
        .collect();
    assert_eq!(failed.len(), 1, "{lines:#?}");
    assert!(
        failed[0]
            .ends_with("that folder cannot be written. The game goes on, and hector keeps trying."),
        "{lines:#?}"
    );
    // Unsaved moves are never silent, even at the end of the input; once
    // exported, the game is in that file, and said to be (issue 30, item
    // 11: it was "The game is not saved" after a good export too).
    let saved = lines
        .iter()
        .find_map(|l| l.strip_prefix("Scoresheet saved: "))
        .and_then(|l| l.strip_suffix('.'))
        .unwrap_or_else(|| panic!("exported: {lines:#?}"));
    assert_eq!(
        lines[lines.len() - 2..],
        [
            format!("The game is saved in {saved}; its journal could not be written.").as_str(),
            "Goodbye."
        ],
        "{lines:#?}"
    );
    let saved = lines[lines.len() - 3];
    let path = saved
        .strip_prefix("Scoresheet saved: ")
        .and_then(|p| p.strip_suffix('.'))
        .unwrap_or_else(|| panic!("{lines:#?}"));
    let pgn = std::fs::read_to_string(path).unwrap();
    assert!(pgn.contains("1. e4 e5 2. Nf3 *"), "{pgn}");
    let _ = std::fs::remove_dir_all(&home);
}

/// Issue 18, item 9, through the binary: `takeback` after a resignation
/// (or a mate) no longer reopens the game by itself; it asks whether both
/// players agree, and "no" keeps the result, on the scoresheet too.
#[test]
fn a_finished_game_stays_finished_unless_both_agree() {
    let home = clean_config_dir();
    let data = home.join("data");
    let run = hector_at(
        &home,
        &data,
        &home,
        &["play"],
        "e4\ne5\nresign\ntakeback\nno\nNf3\nsave\n",
    );
    assert_eq!(
        run.lines()[3..6],
        [
            "White resigns. Black wins, zero to one.",
            "The game is over. Taking back Bauer Eva fünf reopens it only if both players agree. \
             Say yes if you both agree, or no.",
            "The result stands.",
        ],
        "{}",
        run.stdout
    );
    let saved = std::fs::read_dir(&home)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "pgn"))
        .expect("the saved PGN");
    let pgn = std::fs::read_to_string(&saved).unwrap();
    assert!(pgn.contains("1. e4 e5 0-1"), "{pgn}");
    // Mate, then both agree: the mating move is taken back and the game
    // goes on.
    let run = hector(&[], "f3\ne5\ng4\nQh4\ntakeback\nyes\nQg5\n");
    assert_eq!(
        run.lines()[5..],
        [
            "Checkmate. Black wins, zero to one.",
            "The game is over. Taking back Dame Hector vier, Schachmatt reopens it only if both \
             players agree. Say yes if you both agree, or no.",
            "Taken back: Dame Hector vier, Schachmatt.",
            "Dame Gustav fünf",
        ],
        "{}",
        run.stdout
    );
    let _ = std::fs::remove_dir_all(&home);
}

/// Issue 18, item 9: in a terminal, `resign` asks first, like `quit`.
#[cfg(unix)] // Unix only: a pseudo-terminal through `script`
#[test]
fn in_a_terminal_resign_asks_first() {
    let mut t = Terminal::start("");
    t.wait_for("White to move, move 1. > ");
    t.type_line("e4");
    t.wait_for("Bauer Eva vier");
    t.type_line("resign");
    t.wait_for("Resigning ends the game. Say resign again to resign, or no to go on.");
    t.type_line("no");
    t.wait_for("The game goes on.");
    t.type_line("resign");
    t.wait_for("Say resign again");
    t.type_line("resign");
    t.wait_for("Black resigns. White wins, one to zero.");
    t.type_line("quit");
    t.wait_for("Goodbye.");
    assert!(t.ended(), "{}", t.text());
}
