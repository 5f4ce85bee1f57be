//! Running the real binary with a script on standard input.

use std::io::Write;
use std::path::PathBuf;
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
    hector_in(&clean_config_dir(), args, script)
}

/// Run `hector ARGS` with raw bytes (maybe not UTF-8) on standard input.
pub fn hector_bytes(args: &[&str], input: &[u8]) -> Run {
    let home = clean_config_dir();
    let mut child = Command::new(env!("CARGO_BIN_EXE_hector"))
        .args(args)
        .args(["--speech", "print", "--no-sound"])
        .env("XDG_CONFIG_HOME", &home)
        .env("HOME", &home)
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
    let mut child = Command::new(env!("CARGO_BIN_EXE_hector"))
        .args(args)
        .args(["--speech", "print", "--no-sound"])
        .env("XDG_CONFIG_HOME", config_home)
        .env("HOME", config_home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("hector starts");
    let mut stdin = child.stdin.take().expect("piped stdin");
    let script = script.to_owned();
    // Write from a thread so a large script cannot dead-lock on full pipes.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(script.as_bytes());
    });
    let out = child.wait_with_output().expect("hector runs");
    writer.join().expect("writer thread");
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        success: out.status.success(),
    }
}
