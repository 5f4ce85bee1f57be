//! Running the real binary with a script on standard input.
// The board helpers serve the Unix-only modules.
#![cfg_attr(windows, allow(dead_code, unused_imports))]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// An empty config directory so that the user's own settings never leak
/// into a test.
pub fn clean_config_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "hector-test-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0)
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Output of one run.
pub struct Run {
    pub stdout: String,
    pub stderr: String,
    pub success: bool,
}

impl Run {
    pub fn lines(&self) -> Vec<&str> {
        self.stdout.lines().collect()
    }
}

/// Run `hector ARGS` with `script` piped to standard input.
pub fn hector(args: &[&str], script: &str) -> Run {
    let home = clean_config_dir();
    let run = hector_in(&home, args, script);
    let _ = std::fs::remove_dir_all(&home);
    run
}

/// Run `hector ARGS` with raw bytes (maybe not UTF-8) on standard input.
pub fn hector_bytes(args: &[&str], input: &[u8]) -> Run {
    let home = clean_config_dir();
    let mut cmd = hector_command(&home, &home.join("data"));
    cmd.args(args).args(QUIET);
    let run = run_piped(cmd, input);
    let _ = std::fs::remove_dir_all(&home);
    run
}

/// Speech and tones off: the lines are what is checked, and a test must
/// not depend on a sound card or a speech daemon.
pub const QUIET: [&str; 3] = ["--speech", "print", "--no-sound"];

/// The `hector` binary as a command with the environment every run needs:
/// `HOME` and `XDG_CONFIG_HOME` at `config_home`, `XDG_DATA_HOME` (where
/// games are journalled) at `data_home`, and never the developer's secret
/// store.  The caller adds the arguments (and [`QUIET`]) and how it is run.
pub fn hector_command(config_home: &Path, data_home: &Path) -> Command {
    own_environment(
        Command::new(env!("CARGO_BIN_EXE_hector")),
        config_home,
        data_home,
    )
}

/// [`hector_command`] started by `sh` after `shell` (`umask 022`, `ulimit
/// -n 256`): the limits and modes a user's shell gives it.  The caller's
/// arguments follow as hector's.
pub fn hector_command_after(shell: &str, config_home: &Path, data_home: &Path) -> Command {
    let mut sh = Command::new("sh");
    sh.arg("-c")
        .arg(format!("{shell} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_hector"));
    own_environment(sh, config_home, data_home)
}

fn own_environment(mut cmd: Command, config_home: &Path, data_home: &Path) -> Command {
    cmd.env("XDG_CONFIG_HOME", config_home)
        .env("HOME", config_home)
        .env("XDG_DATA_HOME", data_home)
        // Never the developer's secret store (a lichess token kept there).
        .env("HECTOR_TOKEN_STORE", "file");
    cmd
}

/// Run `cmd` with `input` on its standard input (written from a thread,
/// so that a large input cannot dead-lock on full pipes) to its end.
pub fn run_piped(mut cmd: Command, input: &[u8]) -> Run {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("hector starts");
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = input.to_owned();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("hector runs");
    writer.join().expect("writer thread");
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        success: out.status.success(),
    }
}

/// Run `hector ARGS` with `config_home` as XDG_CONFIG_HOME.  Speech and
/// tones are off (`--speech print --no-sound`): the lines are what is
/// checked, and a test must not depend on a sound card or a speech daemon.
pub fn hector_in(config_home: &std::path::Path, args: &[&str], script: &str) -> Run {
    // Every run journals into a folder of its own: no run is offered
    // another's unfinished game.  It is removed after the run.
    let data = clean_config_dir();
    let run = hector_at(config_home, &data, config_home, args, script);
    let _ = std::fs::remove_dir_all(&data);
    run
}

/// Run `hector ARGS` with `config_home` as XDG_CONFIG_HOME, `data_home` as
/// XDG_DATA_HOME (where games are journalled) and `cwd` as the working
/// folder (where `export` writes).
pub fn hector_at(
    config_home: &std::path::Path,
    data_home: &std::path::Path,
    cwd: &std::path::Path,
    args: &[&str],
    script: &str,
) -> Run {
    let mut cmd = hector_command(config_home, data_home);
    cmd.args(args).args(QUIET).current_dir(cwd);
    run_piped(cmd, script.as_bytes())
}

/// Run `hector ARGS` (quiet, as [`hector_in`]) with `home` as HOME and
/// XDG_CONFIG_HOME and `home/data` as XDG_DATA_HOME, the lichess token in
/// the environment only when `token` is given (never the developer's),
/// `input` on its standard input.
pub fn hector_with_token(home: &Path, args: &[&str], token: Option<&str>, input: &str) -> Run {
    let mut cmd = hector_command(home, &home.join("data"));
    cmd.args(args).args(QUIET).env_remove("LICHESS_TOKEN");
    if let Some(t) = token {
        cmd.env("LICHESS_TOKEN", t);
    }
    run_piped(cmd, input.as_bytes())
}

/// Where `hector lichess login` keeps the token when no secret store
/// answers: `lichess-token` in the settings folder under `home`.
pub fn token_file(home: &Path) -> PathBuf {
    home.join("hector").join("lichess-token")
}

/// Every file under `dir` (its folders searched too) that contains
/// `needle`: where a secret must not be.
pub fn files_with(dir: &Path, needle: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            found.extend(files_with(&p, needle));
        } else if std::fs::read(&p).is_ok_and(|b| String::from_utf8_lossy(&b).contains(needle)) {
            found.push(p);
        }
    }
    found
}

/// Run `hector ARGS` in a config folder of its own (removed after) with
/// games journalled in `data_home`.
pub fn hector_data(data_home: &std::path::Path, args: &[&str], script: &str) -> Run {
    let config = clean_config_dir();
    let run = hector_at(&config, data_home, &config, args, script);
    let _ = std::fs::remove_dir_all(&config);
    run
}

// ---------------------------------------------------------------------------
// `hector play` driven line by line, and a tactile board on a
// pseudo-terminal: shared by the board, engine and companion tests.

use std::io::{BufRead, BufReader};
use std::process::{Child, ChildStdin};
use std::sync::Mutex;
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant, SystemTime};

use hector::io::Protocol;
use hector::testing::{Master, SimBoard, pseudo_board};
use shakmaty::{Board, Chess, Move};

/// `TTYPort::pair` must not run on several threads at once, and no child
/// may be started while a pseudo-terminal is being opened (it would
/// inherit its descriptors).
pub static PTY_LOCK: Mutex<()> = Mutex::new(());

/// A new pseudo-terminal: the master end, and the slave's path.
pub fn new_pty() -> (Master, String) {
    let _g = PTY_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    pseudo_board().expect("a pseudo-terminal")
}

/// The running `hector play ...`, read line by line; each line stamped
/// with the time it was read.  The next line is typed after the answer to
/// the last one came, as a player would.
pub struct Hector {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(SystemTime, String)>,
    /// Every line read so far, for the failure messages.
    pub seen: Vec<String>,
    /// How long one line may take to come.
    wait: Duration,
    /// The home directory made for this run alone, removed at the end.
    own_home: Option<PathBuf>,
    /// Lines said only when the machine is slow (read, kept in `seen`,
    /// never returned).
    skipped: Vec<&'static str>,
}

impl Hector {
    /// `hector play ARGS --prompt never --speech print --no-sound`, in a
    /// clean config and data directory.
    pub fn play(args: &[&str]) -> Hector {
        let home = clean_config_dir();
        let mut h = Hector::play_in(&home, args);
        h.own_home = Some(home);
        h
    }

    /// The same with `home` as HOME and XDG_CONFIG_HOME, and `home/data`
    /// as XDG_DATA_HOME (where games are journalled): two runs in one
    /// `home` see each other's unfinished game.
    pub fn play_in(home: &std::path::Path, args: &[&str]) -> Hector {
        Hector::play_with(home, args, &[])
    }

    /// The same with these variables in hector's environment (and so in
    /// an engine's it starts).
    pub fn play_with(
        home: &std::path::Path,
        args: &[&str],
        envs: &[(&str, &std::path::Path)],
    ) -> Hector {
        Hector::spawn(hector_command(home, &home.join("data")), args, envs)
    }

    /// `hector play ARGS` (as [`Hector::play`]) with at most `nofile` open
    /// files (`ulimit -n`).
    pub fn play_limited(nofile: u32, args: &[&str]) -> Hector {
        let home = clean_config_dir();
        let limited =
            hector_command_after(&format!("ulimit -n {nofile}"), &home, &home.join("data"));
        let mut h = Hector::spawn(limited, args, &[]);
        h.own_home = Some(home);
        h
    }

    /// `command` (from [`hector_command`], with its environment) playing.
    fn spawn(mut command: Command, args: &[&str], envs: &[(&str, &std::path::Path)]) -> Hector {
        let guard = PTY_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let mut child = command
            .arg("play")
            .args(args)
            .args(["--prompt", "never"])
            .args(QUIET)
            .envs(envs.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("hector starts");
        drop(guard);
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send((SystemTime::now(), line)).is_err() {
                    return;
                }
            }
        });
        Hector {
            child,
            stdin,
            lines,
            seen: Vec::new(),
            wait: Duration::from_secs(6),
            own_home: None,
            skipped: Vec::new(),
        }
    }

    /// How long one line may take to come (6 s unless told).
    pub fn waiting(mut self, wait: Duration) -> Hector {
        self.wait = wait;
        self
    }

    /// Lines to pass over: those hector says only when the machine is slow,
    /// such as "Waiting for the engine." when Stockfish takes over two
    /// seconds to start under load (its timing is tested on a virtual clock).
    pub fn skipping(mut self, line: &'static str) -> Hector {
        self.skipped.push(line);
        self
    }

    /// hector's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether hector is still running.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    pub fn type_line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("input open");
        writeln!(stdin, "{line}").expect("hector reads its input");
        stdin.flush().expect("flush");
    }

    fn all(&self) -> String {
        self.seen.join("\n")
    }

    /// The next line and when it was read; `waiting_for` names it in the
    /// failure message.
    pub fn next_stamped(&mut self, waiting_for: &str, wait: Duration) -> (SystemTime, String) {
        loop {
            match self.lines.recv_timeout(wait) {
                Ok((t, line)) => {
                    self.seen.push(line.clone());
                    if !self.skipped.contains(&line.as_str()) {
                        return (t, line);
                    }
                }
                Err(_) => panic!(
                    "no line {waiting_for:?} within {wait:?}; all lines so far:\n{}",
                    self.all()
                ),
            }
        }
    }

    /// The next line.
    pub fn next(&mut self) -> String {
        self.next_stamped("", self.wait).1
    }

    /// The next line must be `want`; when it was read.
    pub fn expect(&mut self, want: &str) -> SystemTime {
        let (t, line) = self.next_stamped(want, self.wait);
        assert_eq!(line, want, "all lines so far:\n{}", self.all());
        t
    }

    pub fn expect_all(&mut self, want: &[&str]) {
        for w in want {
            self.expect(w);
        }
    }

    /// The next line, which must start with `prefix`.
    pub fn expect_start(&mut self, prefix: &str) -> String {
        let (_, line) = self.next_stamped(prefix, self.wait);
        assert!(
            line.starts_with(prefix),
            "{line:?} should start with {prefix:?}; all lines so far:\n{}",
            self.all()
        );
        line
    }

    /// Lines until one satisfies `want` (`what` names it in the failure
    /// message); that line.
    pub fn until(&mut self, what: &str, want: impl Fn(&str) -> bool) -> String {
        loop {
            let (_, line) = self.next_stamped(what, self.wait);
            if want(&line) {
                return line;
            }
        }
    }

    /// Skip lines until one equals `want`; when it was read.
    pub fn skip_to(&mut self, want: &str, wait: Duration) -> SystemTime {
        loop {
            let (t, line) = self.next_stamped(want, wait);
            if line == want {
                return t;
            }
        }
    }

    /// Nothing more is said for `d`.
    pub fn silent_for(&mut self, d: Duration) {
        if let Ok((_, line)) = self.lines.recv_timeout(d) {
            panic!("unexpected {line:?}; all lines so far:\n{}", self.all());
        }
    }

    /// End the input; hector must end by itself, cleanly.  Every line.
    pub fn close(mut self) -> Vec<String> {
        self.stdin = None;
        let end = Instant::now() + self.wait;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                assert!(status.success(), "{status:?}");
                break;
            }
            assert!(Instant::now() < end, "hector did not end");
            std::thread::sleep(Duration::from_millis(20));
        }
        while let Ok((_, l)) = self.lines.recv_timeout(Duration::from_millis(200)) {
            self.seen.push(l);
        }
        std::mem::take(&mut self.seen)
    }

    /// Send `signal` (`TERM`, `HUP`, `INT`) with kill(1); hector must end
    /// by itself, cleanly.  Every line said since the last expected one.
    pub fn signal(mut self, signal: &str) -> Vec<String> {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill")
            .args([&format!("-{signal}"), &pid])
            .status()
            .expect("kill runs");
        assert!(sent.success(), "kill -{signal} {pid}");
        let end = Instant::now() + self.wait;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                assert!(status.success(), "{status:?}");
                break;
            }
            assert!(Instant::now() < end, "hector did not end on SIG{signal}");
            std::thread::sleep(Duration::from_millis(20));
        }
        let mut rest = Vec::new();
        while let Ok((_, l)) = self.lines.recv_timeout(Duration::from_millis(200)) {
            rest.push(l);
        }
        rest
    }

    /// Quit: everything said before "Goodbye." must have been expected.
    pub fn quit(mut self) {
        self.type_line("quit");
        self.expect("Goodbye.");
        let _ = self.child.wait();
    }
}

impl Drop for Hector {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if let Some(home) = &self.own_home {
            let _ = std::fs::remove_dir_all(home);
        }
    }
}

/// Wait until hector writes its request to the board on `master` (it has
/// opened the port).
pub fn await_request(master: &mut Master, wait: Duration) {
    let mut buf = [0u8; 64];
    let deadline = Instant::now() + wait;
    while master
        .read_within(&mut buf, Duration::from_millis(50))
        .map_or(true, |n| n == 0)
    {
        assert!(
            Instant::now() < deadline,
            "hector did not ask for the board"
        );
    }
}

/// A simulated tactile board on the master end of a pseudo-terminal.
pub struct Tactile {
    pub master: Master,
    pub sim: SimBoard,
}

impl Tactile {
    /// A board of `protocol` showing the start position.
    pub fn new(master: Master, protocol: Protocol) -> Tactile {
        Tactile {
            master,
            sim: SimBoard::new(protocol, Board::new()),
        }
    }

    /// Wait for hector's request, then answer it with the whole board, as
    /// a board does ("Board connected" comes only then).
    pub fn answer(&mut self, wait: Duration) {
        await_request(&mut self.master, wait);
        let dump = self.sim.dump();
        self.master.write_all(&dump).expect("write to the board");
    }

    /// One action of the hand (a piece lifted or set down), then `hand`.
    pub fn act(&mut self, action: hector::testing::HandStep, hand: Duration) {
        let bytes = self.sim.act(action);
        self.master.write_all(&bytes).expect("write to the board");
        std::thread::sleep(hand);
    }

    /// Make `m` (from `pos`) with the hand, `hand` between two messages;
    /// when its last message was written.
    pub fn play(&mut self, pos: &Chess, m: Move, hand: Duration) -> SystemTime {
        let mut t = SystemTime::now();
        for bytes in self.sim.play(pos, m, false) {
            self.master.write_all(&bytes).expect("write to the board");
            t = SystemTime::now();
            std::thread::sleep(hand);
        }
        t
    }
}

/// A fresh, empty folder for XDG_DATA_HOME (where games are journalled).
/// Every run that sets its own HOME sets this too: a runner that exports
/// XDG_DATA_HOME would otherwise share one games folder
/// between tests run at once, and one test's unfinished game would be
/// offered to another.
pub fn own_data_dir() -> PathBuf {
    clean_config_dir().join("data")
}

/// English words for 0..=99, as hector says numbers in English.
pub fn english_number(n: u32) -> String {
    const ONES: [&str; 20] = [
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
    ];
    const TENS: [&str; 10] = [
        "", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
    ];
    match n {
        0..=19 => ONES[n as usize].to_string(),
        20..=99 if n.is_multiple_of(10) => TENS[(n / 10) as usize].to_string(),
        20..=99 => format!("{}-{}", TENS[(n / 10) as usize], ONES[(n % 10) as usize]),
        _ => n.to_string(),
    }
}

/// lichess's deadline for the first move as said: its `millisToMove` less
/// the time since the game began (`expiration.idleMillis`), which on a
/// loaded machine or under Wine is a few seconds of real time.  Up to ten
/// seconds short of `full` is right; anything else is not.
pub fn is_first_move_deadline(line: &str, full: u32) -> bool {
    (full.saturating_sub(10)..=full).any(|n| {
        line == format!(
            "Make your first move within {} seconds, or lichess aborts the game.",
            english_number(n)
        )
    })
}
