//! The engine's process: the only module that starts, writes to, reads
//! from and ends it.  No protocol knowledge here (that is the session's).
//!
//! A reader thread passes every line the engine writes, and finally its
//! exit, to a callback (the app's channel), tagged with the process's
//! generation so that lines of an engine that was restarted are told
//! apart.  Writes go through a writer thread: an engine that stops reading
//! never blocks the caller.  Dropping the [`EngineProcess`] closes the
//! engine's input (UCI engines end on it), waits a moment, then kills the
//! engine's whole process group and reaps it: no zombies.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use super::session::Fault;

/// The longest line kept from the engine; the rest of a longer one is cut.
const MAX_LINE: u64 = 64 * 1024;
/// How long an engine may take to end by itself (after `quit`, or after
/// closing its output) before it is killed.
const EXIT_GRACE: Duration = Duration::from_millis(300);
const POLL: Duration = Duration::from_millis(10);

/// How the engine ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExitInfo {
    /// Its exit code, when it exited.
    pub code: Option<i32>,
    /// The signal that ended it, when one did (Unix).
    pub signal: Option<i32>,
}

impl std::fmt::Display for ExitInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.code, self.signal) {
            (Some(c), _) => write!(f, "exit code {c}"),
            (None, Some(s)) => write!(f, "signal {s}"),
            (None, None) => write!(f, "ended"),
        }
    }
}

fn exit_info(status: std::process::ExitStatus) -> ExitInfo {
    #[cfg(unix)]
    let signal = std::os::unix::process::ExitStatusExt::signal(&status);
    #[cfg(not(unix))]
    let signal = None;
    ExitInfo {
        code: status.code(),
        signal,
    }
}

/// What happens to the process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProcessEvent {
    /// One line the engine wrote (without its newline; bytes that are not
    /// UTF-8 replaced).
    Line(String),
    /// The engine's output ended and it is gone (`None`: its status could
    /// not be read).
    Exited(Option<ExitInfo>),
    /// The engine could not be started (reported by the front end that
    /// tried).
    StartFailed(Fault),
}

/// A [`ProcessEvent`] of one engine process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineIo {
    /// Which start of the engine this is about.
    pub generation: u64,
    pub event: ProcessEvent,
}

/// The program to run and its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineCommand {
    pub program: PathBuf,
    pub args: Vec<String>,
}

/// Where engines are looked for besides the `PATH` (Debian puts Stockfish
/// in /usr/games, which not every `PATH` has).
const EXTRA_DIRS: &[&str] = &["/usr/games", "/usr/local/games"];

/// The name of the engine used when none is given.
pub const DEFAULT_ENGINE: &str = "stockfish";

impl EngineCommand {
    /// Find `name` (a path, or a program name looked up on the `PATH` and in
    /// /usr/games).  `None` means [`DEFAULT_ENGINE`].
    ///
    /// # Errors
    ///
    /// [`Fault::NotFound`] when there is no such program.
    pub fn locate(name: Option<&str>) -> Result<EngineCommand, Fault> {
        let name = name.unwrap_or(DEFAULT_ENGINE);
        let not_found = || Fault::NotFound {
            program: name.to_owned(),
        };
        let path = Path::new(name);
        if path.components().count() > 1 || path.is_absolute() {
            return if path.is_file() {
                Ok(EngineCommand {
                    program: path.to_path_buf(),
                    args: Vec::new(),
                })
            } else {
                Err(not_found())
            };
        }
        let path_var = std::env::var_os("PATH").unwrap_or_default();
        let dirs = std::env::split_paths(&path_var).chain(EXTRA_DIRS.iter().map(PathBuf::from));
        for dir in dirs {
            for candidate in [dir.join(name), dir.join(format!("{name}.exe"))] {
                if candidate.is_file() {
                    return Ok(EngineCommand {
                        program: candidate,
                        args: Vec::new(),
                    });
                }
            }
        }
        Err(not_found())
    }
}

/// The child and whether it was reaped, shared by the reader thread (which
/// reaps it when its output ends) and the owner (which ends it on drop).
struct Shared {
    child: Child,
    reaped: Option<Option<ExitInfo>>,
}

fn lock(m: &Mutex<Shared>) -> std::sync::MutexGuard<'_, Shared> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Kill the engine and everything it started (its process group), unless
/// it was reaped already.
fn kill(shared: &mut Shared) {
    if shared.reaped.is_some() {
        return;
    }
    #[cfg(unix)]
    {
        let pid = rustix::process::Pid::from_child(&shared.child);
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    }
    let _ = shared.child.kill();
}

/// Reap the child if it ended; after `grace` kill it and reap it.
fn reap(shared: &Mutex<Shared>, grace: Duration) -> Option<ExitInfo> {
    let mut waited = Duration::ZERO;
    loop {
        {
            let mut s = lock(shared);
            if let Some(done) = s.reaped {
                return done;
            }
            match s.child.try_wait() {
                Ok(Some(status)) => {
                    let info = Some(exit_info(status));
                    // Anything it started that is still there goes too.
                    #[cfg(unix)]
                    {
                        let pid = rustix::process::Pid::from_child(&s.child);
                        let _ =
                            rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
                    }
                    s.reaped = Some(info);
                    return info;
                }
                Ok(None) if waited >= grace => {
                    kill(&mut s);
                    let info = s.child.wait().ok().map(exit_info);
                    s.reaped = Some(info);
                    return info;
                }
                Ok(None) => {}
                Err(_) => {
                    s.reaped = Some(None);
                    return None;
                }
            }
        }
        std::thread::sleep(POLL);
        waited += POLL;
    }
}

/// A running engine.  Dropping it ends the engine.
pub struct EngineProcess {
    generation: u64,
    out: Option<Sender<String>>,
    shared: Arc<Mutex<Shared>>,
}

impl std::fmt::Debug for EngineProcess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EngineProcess")
            .field("generation", &self.generation)
            .finish_non_exhaustive()
    }
}

impl EngineProcess {
    /// Start the engine.  `on_event` is called from the reader thread for
    /// every line and once for the exit; when it returns false the thread
    /// stops passing lines on.
    ///
    /// # Errors
    ///
    /// [`Fault::NotFound`] or [`Fault::CannotStart`].
    pub fn spawn<F>(cmd: &EngineCommand, generation: u64, on_event: F) -> Result<Self, Fault>
    where
        F: FnMut(EngineIo) -> bool + Send + 'static,
    {
        let program = cmd.program.display().to_string();
        let mut command = Command::new(&cmd.program);
        command
            .args(&cmd.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        // Its own process group: ended as a whole, and not hit by the
        // terminal's Ctrl-C (hector ends it itself).
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn().map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => Fault::NotFound {
                program: program.clone(),
            },
            _ => Fault::CannotStart {
                program: program.clone(),
                why: e.to_string(),
            },
        })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(Fault::CannotStart {
                program,
                why: "no pipes".to_owned(),
            });
        };
        let shared = Arc::new(Mutex::new(Shared {
            child,
            reaped: None,
        }));
        let (out, out_rx) = mpsc::channel();
        let spawned = std::thread::Builder::new()
            .name("engine-writer".into())
            .spawn(move || write_lines(stdin, &out_rx))
            .and_then(|_| {
                let shared = Arc::clone(&shared);
                std::thread::Builder::new()
                    .name("engine-reader".into())
                    .spawn(move || read_lines(stdout, &shared, generation, on_event))
            });
        let process = EngineProcess {
            generation,
            out: Some(out),
            shared,
        };
        match spawned {
            Ok(_) => Ok(process),
            // `process` is dropped here: the engine is ended.
            Err(e) => Err(Fault::CannotStart {
                program,
                why: e.to_string(),
            }),
        }
    }

    /// Which start of the engine this is.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Queue a line for the engine; never blocks.
    pub fn send(&self, line: String) {
        if let Some(out) = &self.out {
            let _ = out.send(line);
        }
    }

    /// The engine's process id.
    pub fn id(&self) -> u32 {
        lock(&self.shared).child.id()
    }

    /// End the engine now (after a fault: it is not asked to quit).
    pub fn kill(&mut self) {
        self.out = None;
        let mut s = lock(&self.shared);
        kill(&mut s);
        let info = s.child.wait().ok().map(exit_info);
        if s.reaped.is_none() {
            s.reaped = Some(info);
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        // Closing its input ends a UCI engine; give it a moment, then kill.
        self.out = None;
        reap(&self.shared, EXIT_GRACE);
    }
}

fn write_lines(mut stdin: ChildStdin, lines: &Receiver<String>) {
    for line in lines {
        let ok = stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush());
        if ok.is_err() {
            // The engine is gone; the reader reports it.
            return;
        }
    }
}

fn read_lines<F>(stdout: ChildStdout, shared: &Mutex<Shared>, generation: u64, mut on_event: F)
where
    F: FnMut(EngineIo) -> bool,
{
    let mut reader = BufReader::new(stdout);
    let mut buf = Vec::new();
    let mut listening = true;
    loop {
        buf.clear();
        match reader.by_ref().take(MAX_LINE).read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if !listening {
            continue;
        }
        let text = String::from_utf8_lossy(&buf);
        let line = text.trim_end_matches(['\n', '\r']).to_owned();
        listening = on_event(EngineIo {
            generation,
            event: ProcessEvent::Line(line),
        });
    }
    let info = reap(shared, EXIT_GRACE);
    if listening {
        on_event(EngineIo {
            generation,
            event: ProcessEvent::Exited(info),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locate_missing_and_present() {
        assert_eq!(
            EngineCommand::locate(Some("/nonexistent/engine")),
            Err(Fault::NotFound {
                program: "/nonexistent/engine".into()
            })
        );
        assert!(matches!(
            EngineCommand::locate(Some("no-such-engine-hector")),
            Err(Fault::NotFound { .. })
        ));
        // `sh` is on every PATH this runs on.
        let sh = EngineCommand::locate(Some("sh")).expect("sh");
        assert!(sh.program.is_absolute());
    }

    #[test]
    fn exit_info_words() {
        let e = ExitInfo {
            code: Some(3),
            signal: None,
        };
        assert_eq!(e.to_string(), "exit code 3");
        let s = ExitInfo {
            code: None,
            signal: Some(9),
        };
        assert_eq!(s.to_string(), "signal 9");
    }
}
