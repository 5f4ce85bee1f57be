//! The engine's process: the only module that starts, writes to, reads
//! from and ends it.  No protocol knowledge here (that is the session's).
//!
//! A reader thread passes every line the engine writes, and finally its
//! exit, to a callback (the app's channel), tagged with the process's
//! generation so that lines of an engine that was restarted are told
//! apart.  Writes go through a writer thread: an engine that stops reading
//! never blocks the caller.  A waiter thread blocks in the wait for the
//! engine's end (`shared_child`: the wait does not free the pid, so a kill
//! from another thread meanwhile is safe) and hands the exit over: nobody
//! polls.  Dropping the [`EngineProcess`] closes the engine's input (UCI
//! engines end on it), waits a moment for that exit, then kills the
//! engine's whole process group: no zombies.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

use shared_child::SharedChild;

use super::session::{EngineIo, ExitInfo, Fault, ProcessEvent};

/// The longest line kept from the engine; the rest of a longer one is cut.
const MAX_LINE: u64 = 64 * 1024;
/// How long an engine may take to end by itself (after `quit`, or after
/// closing its output) before it is killed.
const EXIT_GRACE: Duration = Duration::from_millis(300);

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

/// The program to run and its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineCommand {
    /// The program (a name looked up on the PATH, or a path).
    pub program: PathBuf,
    /// Its arguments.
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

/// The engine's exit, once the waiter thread saw it.
#[derive(Default)]
struct Exit {
    /// `Some` once the engine is gone and reaped (its status, if read).
    status: Mutex<Option<Option<ExitInfo>>>,
    ended: Condvar,
}

impl Exit {
    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Option<ExitInfo>>> {
        self.status.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The waiter thread: the engine is gone.
    fn set(&self, info: Option<ExitInfo>) {
        *self.lock() = Some(info);
        self.ended.notify_all();
    }

    /// Block until the engine is gone, at most `limit` (`None`: for
    /// ever); its exit, or `None` when it still runs.
    fn wait(&self, limit: Option<Duration>) -> Option<Option<ExitInfo>> {
        let guard = self.lock();
        let guard = match limit {
            Some(d) => {
                self.ended
                    .wait_timeout_while(guard, d, |s| s.is_none())
                    .unwrap_or_else(PoisonError::into_inner)
                    .0
            }
            None => self
                .ended
                .wait_while(guard, |s| s.is_none())
                .unwrap_or_else(PoisonError::into_inner),
        };
        *guard
    }
}

/// The engine's process and its exit, shared by the owner, the reader
/// thread and the waiter thread.
struct Shared {
    child: SharedChild,
    exit: Exit,
}

impl Shared {
    /// Kill the engine and everything it started (its process group),
    /// unless it is gone already.  Safe while the waiter thread waits: the
    /// pid is not freed before the waiter reaps it.
    fn kill(&self) {
        if self.exit.lock().is_some() {
            return;
        }
        #[cfg(unix)]
        kill_group(self.child.id());
        let _ = self.child.kill();
    }

    /// Wait up to `grace` for the engine to end by itself, then kill it;
    /// its exit.
    fn end(&self, grace: Duration) -> Option<ExitInfo> {
        if let Some(done) = self.exit.wait(Some(grace)) {
            return done;
        }
        self.kill();
        self.exit.wait(None).flatten()
    }
}

/// SIGKILL to the process group `pid` leads (the engine and what it
/// started, e.g. the engine behind a wrapper script).
#[cfg(unix)]
fn kill_group(pid: u32) {
    if let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    }
}

/// The waiter thread: block until the engine ends, reap it, and end what
/// it left behind in its process group.
fn wait_for_exit(shared: &Shared) {
    let info = shared.child.wait().ok().map(exit_info);
    #[cfg(unix)]
    kill_group(shared.child.id());
    shared.exit.set(info);
}

/// A running engine.  Dropping it ends the engine.
pub struct EngineProcess {
    generation: u64,
    out: Option<Sender<String>>,
    shared: Arc<Shared>,
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
        let child = SharedChild::spawn(&mut command).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => Fault::NotFound {
                program: program.clone(),
            },
            _ => Fault::CannotStart {
                program: program.clone(),
                why: e.to_string(),
            },
        })?;
        let shared = Arc::new(Shared {
            child,
            exit: Exit::default(),
        });
        let (Some(stdin), Some(stdout)) = (shared.child.take_stdin(), shared.child.take_stdout())
        else {
            shared.kill();
            let _ = shared.child.wait();
            return Err(Fault::CannotStart {
                program,
                why: "no pipes".to_owned(),
            });
        };
        let waiter = Arc::clone(&shared);
        if let Err(e) = std::thread::Builder::new()
            .name("engine-waiter".into())
            .spawn(move || wait_for_exit(&waiter))
        {
            // No waiter: the engine is ended and reaped here.
            shared.kill();
            let _ = shared.child.wait();
            return Err(Fault::CannotStart {
                program,
                why: e.to_string(),
            });
        }
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
    #[cfg(any(test, feature = "test-support"))]
    pub fn id(&self) -> u32 {
        self.shared.child.id()
    }

    /// End the engine now (after a fault: it is not asked to quit), and
    /// wait until it is reaped.
    pub fn kill(&mut self) {
        self.out = None;
        self.shared.kill();
        self.shared.exit.wait(None);
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        // Closing its input ends a UCI engine; give it a moment, then kill.
        self.out = None;
        self.shared.end(EXIT_GRACE);
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

fn read_lines<F>(stdout: ChildStdout, shared: &Shared, generation: u64, mut on_event: F)
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
    // The output ended: the engine is ending (or closed its output and
    // went on: then it is ended).
    let info = shared.end(EXIT_GRACE);
    if listening {
        on_event(EngineIo {
            generation,
            event: ProcessEvent::Exited(info),
        });
    }
}

#[cfg(test)]
mod tests {
    #[cfg(unix)]
    use std::time::Instant;

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
        // `sh` is on every Unix PATH.
        #[cfg(unix)]
        {
            let sh = EngineCommand::locate(Some("sh")).expect("sh");
            assert!(sh.program.is_absolute());
        }
    }

    /// `sh -c SCRIPT` as an engine, its events on a channel.
    #[cfg(unix)] // Unix only: the engines here are sh scripts
    fn sh(script: &str) -> (EngineProcess, mpsc::Receiver<EngineIo>) {
        let cmd = EngineCommand {
            program: PathBuf::from("/bin/sh"),
            args: vec!["-c".into(), script.into()],
        };
        let (tx, rx) = mpsc::channel();
        let p = EngineProcess::spawn(&cmd, 1, move |io| tx.send(io).is_ok()).expect("sh runs");
        (p, rx)
    }

    /// The events until the exit, and the exit.
    #[cfg(unix)] // Unix only: the engines here are sh scripts
    fn until_exit(rx: &mpsc::Receiver<EngineIo>) -> (Vec<String>, Option<ExitInfo>) {
        let mut lines = Vec::new();
        loop {
            match rx.recv_timeout(Duration::from_secs(5)).map(|io| io.event) {
                Ok(ProcessEvent::Line(l)) => lines.push(l),
                Ok(ProcessEvent::Exited(x)) => return (lines, x),
                other => panic!("{other:?} after {lines:?}"),
            }
        }
    }

    /// The names of this process's threads.
    #[cfg(unix)] // Unix only: the engines here are sh scripts
    fn thread_names() -> Vec<String> {
        std::fs::read_dir("/proc/self/task")
            .map(|d| {
                d.flatten()
                    .filter_map(|t| std::fs::read_to_string(t.path().join("comm")).ok())
                    .map(|c| c.trim().to_owned())
                    .collect()
            })
            .unwrap_or_default()
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_waiter_thread_blocks_for_the_exit_and_reports_it_with_its_code() {
        let (p, rx) = sh("echo one; read x; echo two; exit 4");
        assert_eq!(
            rx.recv_timeout(Duration::from_secs(5)).map(|io| io.event),
            Ok(ProcessEvent::Line("one".into()))
        );
        // While the engine runs, a thread of its own waits for its end.
        assert!(
            thread_names().iter().any(|n| n == "engine-waiter"),
            "{:?}",
            thread_names()
        );
        p.send("go".into());
        let t = Instant::now();
        let (lines, exit) = until_exit(&rx);
        assert_eq!(lines, ["two"]);
        assert_eq!(
            exit,
            Some(ExitInfo {
                code: Some(4),
                signal: None
            })
        );
        // At once, not after the grace time.
        assert!(t.elapsed() < EXIT_GRACE, "{:?}", t.elapsed());
        drop(p);
    }

    #[cfg(unix)] // Unix only: the engine is a sh script
    #[test]
    fn an_engine_that_closes_its_output_but_runs_on_is_killed_after_the_grace() {
        let (p, rx) = sh("exec >&-; exec sleep 600");
        let t = Instant::now();
        let (lines, exit) = until_exit(&rx);
        assert!(lines.is_empty(), "{lines:?}");
        assert_eq!(exit.and_then(|e| e.signal), Some(9), "{exit:?}");
        assert!(t.elapsed() >= EXIT_GRACE, "{:?}", t.elapsed());
        drop(p);
    }

    #[cfg(unix)] // Unix only: the engine is a sh script
    #[test]
    fn kill_while_the_waiter_waits_reaps_the_engine_at_once() {
        let (mut p, rx) = sh("echo up; exec sleep 600");
        assert_eq!(
            rx.recv_timeout(Duration::from_secs(5)).map(|io| io.event),
            Ok(ProcessEvent::Line("up".into()))
        );
        let pid = p.id();
        let t = Instant::now();
        p.kill();
        assert!(t.elapsed() < EXIT_GRACE, "{:?}", t.elapsed());
        // Reaped: no zombie left with its pid.
        assert!(
            !std::path::Path::new(&format!("/proc/{pid}")).exists(),
            "{pid} is still there"
        );
        let (_, exit) = until_exit(&rx);
        assert_eq!(exit.and_then(|e| e.signal), Some(9), "{exit:?}");
        // Dropping a killed engine does not wait again.
        let t = Instant::now();
        drop(p);
        assert!(t.elapsed() < EXIT_GRACE, "{:?}", t.elapsed());
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
