//! The full-screen view end to end: the real binary in a real terminal
//! (tmux), played by typing, by cursor keys and by a mouse click, read back
//! with `capture-pane`; and the terminal given back after `quit`, Ctrl-C
//! and SIGTERM (tmux leaves the alternate screen, mouse reporting is off,
//! the shell echoes again).
//!
//! Waiting for the screen polls tmux (a real terminal has no other way to
//! tell that it was drawn); no test logic depends on the time it takes.

use std::process::Command;
use std::time::{Duration, Instant};

use crate::tmux::Tmux;
use crate::util::clean_config_dir;

/// The tests' terminal: a shell in a tmux session, hector started in it.
trait Shell {
    /// A session of `width`×`height` running a shell that says `READY$`.
    fn start(width: u16, height: u16) -> Self;
    /// Start hector's full-screen view in the shell.
    fn hector(&self);
    /// Start it with `env` set (`NAME=value ...`) and more arguments.
    fn hector_with(&self, env: &str, args: &str);
    /// The shell's screen is back: no alternate screen, no mouse reports,
    /// and the terminal echoes a typed line again (no raw mode left).
    fn assert_restored(&self);
    /// The pid of the program running in the shell.
    fn child_pid(&self) -> String;
}

impl Shell for Tmux {
    fn start(width: u16, height: u16) -> Tmux {
        let name = format!(
            "hector-tui-{}-{}",
            std::process::id(),
            Instant::now().elapsed().as_nanos() ^ u128::from(rand_bits())
        );
        let shell = [
            "env",
            "PS1=READY$ ",
            "TERM=xterm-256color",
            "bash",
            "--norc",
            "--noprofile",
        ];
        let t = Tmux::run(name, width, height, &shell);
        t.wait_for("READY$");
        t
    }

    fn hector(&self) {
        self.hector_with("", "");
    }

    fn hector_with(&self, env: &str, args: &str) {
        let dir = clean_config_dir();
        let cmd = format!(
            "XDG_CONFIG_HOME={d} HOME={d} XDG_DATA_HOME={d}/data {env} {bin} play --ui tui --speech print --no-sound {args}",
            d = dir.display(),
            bin = env!("CARGO_BIN_EXE_hector")
        );
        self.literal(&cmd);
        self.keys(&["Enter"]);
        self.wait_for("White to move, move 1.");
        // The whole first frame, not the part of it written so far.
        self.settled();
        assert_eq!(self.format("#{alternate_on}"), "1");
    }

    fn assert_restored(&self) {
        let end = Instant::now() + Duration::from_secs(10);
        while self.format("#{alternate_on}") != "0" {
            assert!(Instant::now() < end, "still on the alternate screen");
            std::thread::sleep(Duration::from_millis(30));
        }
        assert_eq!(self.format("#{mouse_any_flag}"), "0", "mouse reports off");
        assert_eq!(self.format("#{mouse_sgr_flag}"), "0");
        self.literal("echo back-$((40+2))");
        self.keys(&["Enter"]);
        let s = self.wait_for("back-42");
        // The command line as typed (echo on) and its answer on a line of
        // its own (output processing on).
        assert!(s.contains("READY$ echo back-$((40+2))"), "{s}");
        assert!(s.lines().any(|l| l == "back-42"), "{s}");
    }

    fn child_pid(&self) -> String {
        let shell = self.format("#{pane_pid}");
        let out = Command::new("pgrep")
            .args(["-P", &shell])
            .output()
            .expect("pgrep runs");
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    }
}

fn rand_bits() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos().into())
        .unwrap_or(0)
}

/// The 1-based terminal cell at the middle of square `file``rank` on the
/// screen, read from the coordinates drawn at the board's edges.
fn cell_of(screen: &str, file: char, rank: char) -> (usize, usize) {
    let lines: Vec<&str> = screen.lines().collect();
    let row = lines
        .iter()
        .position(|l| l.starts_with(rank) && (l.len() == 1 || l[1..].starts_with(' ')))
        .unwrap_or_else(|| panic!("rank label {rank}:\n{screen}"));
    let files = lines
        .iter()
        .find(|l| {
            let t: String = l.chars().filter(|c| !c.is_whitespace()).collect();
            t == "abcdefgh"
        })
        .expect("file labels");
    let col = files.chars().position(|c| c == file).expect("file label");
    (col + 1, row + 1)
}

fn click(t: &Tmux, (col, row): (usize, usize)) {
    // An SGR mouse report: the press, then the release (which must not
    // count a second time).
    t.literal(&format!("\x1b[<0;{col};{row}M"));
    t.literal(&format!("\x1b[<0;{col};{row}m"));
}

#[test]
fn cursor_keys_typing_and_a_mouse_click() {
    let t = Tmux::start(100, 30);
    t.hector();
    // Each cursor step is said (and shown: the status line, the large
    // announcement).
    t.keys(&["Up"]);
    let s = t.wait_for("Eva zwei: white Bauer");
    assert!(s.contains("[  P  ]"), "the cursor's marks:\n{s}");
    t.keys(&["n"]);
    t.wait_for("Bella acht: black Springer");
    t.keys(&["G"]);
    t.wait_for("Gustav acht: black Springer");
    t.keys(&["1"]);
    t.wait_for("Gustav eins: white Springer");
    // A move with the cursor: Enter on the piece, Enter on its square.
    t.keys(&["Enter"]);
    t.wait_for("Gustav eins: white Springer. Now its square.");
    t.keys(&["3", "F"]);
    t.wait_for("Felix drei: empty");
    t.keys(&["Enter"]);
    t.wait_for("1. Springer Felix drei");
    // A typed move in the input field.
    t.keys(&["Tab"]);
    t.literal("d5");
    t.wait_for("> d5");
    t.keys(&["Enter"]);
    t.wait_for("1... Bauer David fünf");
    // A move by mouse: click the pawn, click its square.
    let s = t.screen();
    click(&t, cell_of(&s, 'd', '2'));
    t.wait_for("David zwei: white Bauer. Now its square.");
    click(&t, cell_of(&s, 'd', '4'));
    let s = t.wait_for("2. Bauer David vier");
    assert!(s.contains("Black to move, move 2."), "{s}");
    // The key help, shown (and said).
    t.keys(&["?"]);
    t.wait_for("Up: the cursor one square up.");
    // (The help is a page now that only its keys close: tmux's name of the
    // key is Escape; "Esc" typed the letters E, s, c.)
    t.keys(&["Escape"]);
    gone(&t, "Up: the cursor one square up.");
    // quit typed in the input field: a game is in progress, so hector asks;
    // the quit key (Ctrl-Q) answers.
    t.keys(&["Tab"]);
    t.literal("quit");
    t.keys(&["Enter"]);
    t.wait_for("A game is in progress. Say quit again to leave, or no to go on.");
    t.keys(&["C-q"]);
    t.assert_restored();
}

#[test]
fn ctrl_c_restores_the_terminal() {
    let t = Tmux::start(80, 24);
    t.hector();
    t.keys(&["Up"]);
    t.wait_for("Eva zwei");
    t.keys(&["C-c"]);
    t.assert_restored();
}

#[test]
fn sigterm_restores_the_terminal() {
    let t = Tmux::start(80, 24);
    t.hector();
    let pid = t.child_pid();
    assert!(!pid.is_empty());
    let ok = Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .expect("kill runs")
        .success();
    assert!(ok);
    t.assert_restored();
}

#[test]
fn too_small_then_resized() {
    let t = Tmux::start(30, 10);
    let dir = clean_config_dir();
    t.literal(&format!(
        "XDG_CONFIG_HOME={d} HOME={d} XDG_DATA_HOME={d}/data {bin} play --ui tui --speech print --no-sound",
        d = dir.display(),
        bin = env!("CARGO_BIN_EXE_hector")
    ));
    t.keys(&["Enter"]);
    t.wait_for("too small");
    t.tmux(&["resize-window", "-t", &t.name, "-x", "100", "-y", "30"]);
    t.wait_for("White to move, move 1.");
    t.keys(&["C-q"]);
    t.assert_restored();
}

#[test]
fn a_panic_restores_the_terminal() {
    let t = Tmux::start(80, 24);
    t.hector_with("HECTOR_TEST_PANIC_ON_F12=1 RUST_BACKTRACE=0", "");
    t.keys(&["Up"]);
    t.wait_for("Eva zwei");
    let pid = t.child_pid();
    // The test build panics on F12 when asked to.
    t.keys(&["F12"]);
    // Typed only once the program has ended (keys typed while it unwinds
    // are still its own).
    let end = Instant::now() + Duration::from_secs(10);
    while std::path::Path::new(&format!("/proc/{pid}")).exists() {
        assert!(Instant::now() < end, "hector still runs after its panic");
        std::thread::sleep(Duration::from_millis(30));
    }
    t.assert_restored();
    // The panic's message is on the shell's screen, not lost in the
    // alternate one.
    let s = t.screen();
    assert!(s.contains("test panic on F12"), "{s}");
}

/// The large digits of a clock's time as `render` draws them (a digit three
/// cells wide and a space, the colon one cell and a space), three rows.
fn big(time: &str) -> [String; 3] {
    let glyph = |c: char| -> [&str; 3] {
        match c {
            '0' => ["█▀█", "█ █", "▀▀▀"],
            '1' => ["▄█ ", " █ ", "▀▀▀"],
            '2' => ["▀▀█", "█▀▀", "▀▀▀"],
            '3' => ["▀▀█", " ▀█", "▀▀▀"],
            '4' => ["█ █", "▀▀█", "  ▀"],
            '5' => ["█▀▀", "▀▀█", "▀▀▀"],
            '6' => ["█▀▀", "█▀█", "▀▀▀"],
            '7' => ["▀▀█", "  █", "  ▀"],
            '8' => ["█▀█", "█▀█", "▀▀▀"],
            '9' => ["█▀█", "▀▀█", "▀▀▀"],
            _ => [" ", "▀", "▀"],
        }
    };
    std::array::from_fn(|row| {
        let parts: Vec<&str> = time.chars().map(|c| glyph(c)[row]).collect();
        parts.join(" ")
    })
}

/// Do three consecutive screen lines show `rows`, in the same columns?
/// (Columns are counted in characters: the board's large pieces before
/// the clock are block characters of several bytes.)
fn shows_big(screen: &str, rows: &[String; 3]) -> bool {
    let lines: Vec<Vec<char>> = screen.lines().map(|l| l.chars().collect()).collect();
    let want: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
    let at = |line: &[char], col: usize, row: &[char]| {
        line.get(col..col + row.len()).is_some_and(|l| l == row)
    };
    lines.windows(3).any(|w| {
        (0..w[0].len()).any(|col| {
            at(&w[0], col, &want[0]) && at(&w[1], col, &want[1]) && at(&w[2], col, &want[2])
        })
    })
}

/// CPU time (user and system, every thread) of a process so far, from
/// `/proc/PID/task/*/schedstat` (nanoseconds).
fn cpu_ns(pid: &str) -> u64 {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return 0;
    };
    tasks
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .sum()
}

#[test]
fn a_running_clock_in_large_digits_redrawn_each_second() {
    let t = Tmux::start(120, 40);
    t.hector_with("", "--time 5+0");
    // Both clocks in large digits; White's runs from the first move.
    let s = t.screen();
    assert!(shows_big(&s, &big("5:00")), "{s}");
    t.keys(&["Tab"]);
    t.literal("e4");
    t.keys(&["Enter"]);
    t.wait_for("1. Bauer Eva vier");
    // Black's clock runs: the screen shows it fall second by second.
    let end = Instant::now() + Duration::from_secs(10);
    let mut seen = Vec::new();
    while seen.len() < 2 {
        let s = t.screen();
        for shown in ["4:59", "4:58", "4:57"] {
            if shows_big(&s, &big(shown)) && !seen.contains(&shown) {
                seen.push(shown);
            }
        }
        assert!(
            Instant::now() < end,
            "the running clock never changed:\n{s}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // Idle with a running clock: the program sleeps between the seconds
    // (a loop that ticked or redrew all the time would use far more).
    let pid = t.child_pid();
    let before = cpu_ns(&pid);
    std::thread::sleep(Duration::from_secs(3));
    let used = cpu_ns(&pid) - before;
    assert!(
        used < 20_000_000,
        "{} ms of CPU in 3 s idle",
        used / 1_000_000
    );
    t.keys(&["C-c"]);
    t.assert_restored();
}

/// One request on a connection of its own to the companion on `port`:
/// the answer's status (0: none).
fn companion_status(port: u16, raw: &str) -> u16 {
    use std::io::{Read, Write};
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    let Ok(mut s) = std::net::TcpStream::connect_timeout(&addr, Duration::from_secs(2)) else {
        return 0;
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
    let _ = s.write_all(raw.as_bytes());
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    String::from_utf8_lossy(&out)
        .strip_prefix("HTTP/1.1 ")
        .and_then(|r| r.get(..3))
        .and_then(|c| c.parse().ok())
        .unwrap_or(0)
}

#[test]
fn an_attack_on_the_companion_leaves_the_screen_whole() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let t = Tmux::start(100, 30);
    // The test build's server fails at its third connection.
    t.hector_with(
        "HECTOR_TEST_COMPANION_FAIL_AT=3 RUST_BACKTRACE=0",
        &format!("--companion 127.0.0.1:{port}"),
    );
    let host = format!("Host: 127.0.0.1:{port}\r\n");
    // The two lengths that took hector (and the terminal) down before.
    for length in ["100000000000000", "18446744073709551615"] {
        let raw = format!(
            "POST /api/move HTTP/1.1\r\n{host}Content-Type: application/json\r\nContent-Length: {length}\r\n\r\n{{"
        );
        let status = companion_status(port, &raw);
        assert!(status == 413 || status == 431, "{length}: {status}");
    }
    // The third: the server's accept loop panics; hector says so once and
    // starts it again; the screen stays hector's, whole.
    companion_status(port, &format!("GET / HTTP/1.1\r\n{host}\r\n"));
    let s = t.wait_for("The opponent's screen failed. It is starting again by itself.");
    assert!(
        !s.contains("panicked"),
        "a panic's message over the board:\n{s}"
    );
    assert_eq!(
        t.format("#{alternate_on}"),
        "1",
        "still the full-screen view"
    );
    assert_eq!(t.format("#{mouse_any_flag}"), "1", "mouse reports still on");
    let end = Instant::now() + Duration::from_secs(2);
    while companion_status(port, &format!("GET / HTTP/1.1\r\n{host}\r\n")) != 200 {
        assert!(Instant::now() < end, "the page is not served again");
        std::thread::sleep(Duration::from_millis(20));
    }
    // The view still answers keys.
    t.keys(&["Up"]);
    let s = t.wait_for("Eva zwei");
    assert!(!s.contains("panicked"), "{s}");
    t.keys(&["C-c"]);
    t.assert_restored();
    // The panic's message, kept while the view ran, is on the shell's
    // screen now.
    let s = t.wait_for("companion test failure at connection 3");
    assert!(s.contains("thread 'net' panicked"), "{s}");
}

/// The screen, flattened: frames' lines gone, words joined by one space
/// (a sentence wrapped over rows reads as one).
fn flat(screen: &str) -> String {
    screen
        .replace(['│', '┌', '┐', '└', '┘', '─'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The columns of the screen from the announcement's frame on (the panel
/// beside the board, or all of it when the panel is below).
fn panel(screen: &str) -> String {
    let col = screen
        .lines()
        .find_map(|l| l.chars().position(|c| c == '┌'))
        .unwrap_or(0);
    screen
        .lines()
        .map(|l| l.chars().skip(col).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Wait until the screen no longer shows `text` (10 s at most): a key
/// sent right after Escape would be read with it as an Alt key.
fn gone(t: &Tmux, text: &str) {
    let end = Instant::now() + Duration::from_secs(10);
    while t.screen().contains(text) {
        assert!(Instant::now() < end, "{text:?} stays:\n{}", t.screen());
        std::thread::sleep(Duration::from_millis(30));
    }
}

/// Keep a screen for a person to look at: HECTOR_SCREENSHOTS=/tmp cargo test ...
fn keep(name: &str, screen: &str) {
    if let Ok(dir) = std::env::var("HECTOR_SCREENSHOTS") {
        let _ = std::fs::write(format!("{dir}/{name}.txt"), screen);
    }
}

#[test]
fn help_history_last_move_and_large_pieces_at_three_sizes() {
    let answer_end = "Bauern Anna zwei, Bella zwei, Cesar zwei, David zwei, Felix zwei, \
                      Gustav zwei, Hector zwei and Eva vier.";
    for (w, h) in [(80u16, 24u16), (120, 40), (200, 60)] {
        let t = Tmux::start(w, h);
        t.hector();
        // The pieces at the start: large letters where the squares have room.
        let s = t.screen();
        let blocks = s
            .chars()
            .filter(|c| ('\u{2580}'..='\u{259f}').contains(c))
            .count();
        if w >= 120 {
            assert!(blocks > 32 * 4, "{w}x{h}: {blocks} block cells\n{s}");
        } else {
            assert_eq!(blocks, 0, "{w}x{h}: one letter a piece\n{s}");
        }
        // A move: its squares marked by shape, in plain text.
        t.keys(&["Tab"]);
        t.literal("e4");
        t.keys(&["Enter"]);
        let s = t.wait_for("1. Bauer");
        assert!(s.contains('○') && s.contains('●'), "{w}x{h}:\n{s}");
        keep(&format!("tui-{w}x{h}-move"), &s);
        // A long answer: on a tall screen the frame shows all of it; on
        // any screen the history does.
        t.keys(&["Tab"]);
        t.literal("pieces white");
        t.keys(&["Enter"]);
        let s = t.wait_for("White, sixteen pieces");
        keep(&format!("tui-{w}x{h}-answer"), &s);
        assert!(flat(&panel(&s)).contains(answer_end), "{w}x{h}:\n{s}");
        t.keys(&["h"]);
        let s = t.wait_for("What hector said");
        keep(&format!("tui-{w}x{h}-history"), &s);
        assert!(flat(&s).contains(answer_end), "{w}x{h}:\n{s}");
        // Scrolled back to the first sentence, then to now.
        t.keys(&["Home"]);
        t.wait_for("New game. White to move.");
        t.keys(&["End"]);
        t.wait_for(answer_end);
        t.keys(&["Escape"]);
        gone(&t, "What hector said");
        // The key help: a page that scrolls to its last line.
        t.keys(&["?"]);
        let s = t.wait_for("Up: the cursor one square up.");
        keep(&format!("tui-{w}x{h}-help"), &s);
        t.keys(&["End"]);
        let s = t.wait_for("Ctrl-q: leave hector.");
        keep(&format!("tui-{w}x{h}-help-end"), &s);
        // Other keys do nothing while it is open ("n" is no move here).
        t.keys(&["n"]);
        assert!(t.screen().contains("The keys"));
        t.keys(&["?"]);
        gone(&t, "The keys");
        t.keys(&["C-q"]);
        t.keys(&["C-q"]);
        t.assert_restored();
    }
}

/// Issue 30, item 9: at 80×24 a typed `help` showed only its last line
/// ("quit: leave hector."), the 23 others never reachable; the keys page
/// pasted line-mode arguments after the keys and listed the review's and
/// lichess's keys in an ordinary game.  The answer opens on a page from its
/// first line, scrolls to its last; the keys page says what each key does.
#[test]
fn a_typed_help_opens_whole_and_the_keys_page_lists_what_applies_at_80x24() {
    let t = Tmux::start(80, 24);
    t.hector();
    t.keys(&["Tab"]);
    t.literal("help");
    t.keys(&["Enter"]);
    let s = t.wait_for("Commands, one per line:");
    keep("tui-80x24-typed-help", &s);
    assert!(s.contains("Lines 1 to"), "{s}");
    assert!(flat(&s).contains("square f3: what is on a square."), "{s}");
    t.keys(&["End"]);
    let s = t.wait_for("quit: leave hector.");
    keep("tui-80x24-typed-help-end", &s);
    t.keys(&["Escape"]);
    // The page's footer goes with it (its first line left the screen at
    // End already).
    gone(&t, "Lines ");
    // The keys page: each key with what it does, only what applies now.
    t.keys(&["?"]);
    let s = t.wait_for("Space s: what is on the square under the cursor.");
    keep("tui-80x24-keys", &s);
    let mut all = flat(&s);
    for _ in 0..6 {
        t.keys(&["PageDown"]);
        std::thread::sleep(Duration::from_millis(150));
        all.push(' ');
        all.push_str(&flat(&t.screen()));
    }
    t.wait_for("Ctrl-q: leave hector.");
    for wrong in [
        "Space s f3",
        "a e4",
        "such as ? F1 time",
        "in review",
        "lichess",
    ] {
        assert!(!all.contains(wrong), "{wrong}: {all}");
    }
    t.keys(&["?"]);
    gone(&t, "The keys");
    t.keys(&["C-q"]);
    t.keys(&["C-q"]);
    t.assert_restored();
}

/// Issue 30.10: a long mismatch answer at 80×24 is shown in whole
/// sentences, with where the rest is, never cut in the middle of one
/// ("…Gustav acht should have the").  The board is `hector board sim` on a
/// pseudo-terminal, its pieces moved by a script once hector reads it.
#[test]
fn a_long_mismatch_is_shown_in_whole_sentences_at_80x24() {
    use std::process::Stdio;
    let dir = std::env::temp_dir().join(format!(
        "hector-mismatch-{}-{}",
        std::process::id(),
        rand_bits()
    ));
    std::fs::create_dir_all(&dir).expect("a folder");
    let link = dir.join("dgt");
    let script = dir.join("script");
    // Eight pieces moved off their squares: sixteen squares differ.
    std::fs::write(
        &script,
        "clear e1\nput e3 K\nclear d1\nput d3 Q\nclear g8\nput f6 n\nclear b1\nput c3 N\n\
         clear g1\nput h3 N\nclear b8\nput a6 n\nclear f1\nput b5 B\nclear c8\nput g4 b\n",
    )
    .expect("the script");
    let mut sim = Command::new(env!("CARGO_BIN_EXE_hector"))
        .args([
            "board",
            "sim",
            "--protocol",
            "dgt",
            "--pace",
            "0.05",
            "--link",
        ])
        .arg(&link)
        .arg("--script")
        .arg(&script)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("hector board sim");
    // The board is there once its link is (the script plays once hector
    // talks to it).
    let end = Instant::now() + Duration::from_secs(10);
    while !link.exists() {
        assert!(Instant::now() < end, "no board at {}", link.display());
        std::thread::sleep(Duration::from_millis(30));
    }
    let t = Tmux::start(80, 24);
    t.hector_with("", &format!("--board dgt:{}", link.display()));
    let s = t.wait_for("The rest is in the history: h.");
    keep("tui-80x24-long-mismatch", &s);
    let p = panel(&s);
    let framed: Vec<&str> = p
        .lines()
        .skip_while(|l| !l.contains('┌'))
        .take_while(|l| !l.contains('└'))
        .collect();
    let text = flat(&framed.join("\n"));
    let (shown, rest) = text
        .split_once(" ... ")
        .unwrap_or_else(|| panic!("no pointer to the rest:\n{s}"));
    assert!(shown.starts_with("Mismatch on sixteen squares"), "{s}");
    assert!(shown.ends_with('.'), "cut in a sentence: {shown:?}\n{s}");
    assert_eq!(rest, "The rest is in the history: h.", "{s}");
    t.keys(&["C-q"]);
    let _ = sim.kill();
    let _ = sim.wait();
    let _ = std::fs::remove_dir_all(&dir);
}
