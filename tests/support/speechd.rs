//! A private speech-dispatcher for tests and benchmarks (see HEADLESS.md):
//! its own config directory, socket, pid file and logs in a temporary
//! directory, espeak-ng as the synthesizer, and ALSA's `file` plugin as the
//! sound card, so the spoken audio lands in a WAV file.  Stopped (by its pid
//! file) when dropped, also when a test panics.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// A running private daemon.
pub struct PrivateSpeechd {
    pub dir: PathBuf,
    pub socket: PathBuf,
    pub capture: PathBuf,
    pub log: PathBuf,
    child: Option<Child>,
}

const STOCK_CONF: &str = "/etc/speech-dispatcher/speechd.conf";

impl PrivateSpeechd {
    /// Start a daemon.  Err (with the reason) when speech-dispatcher is not
    /// installed or does not come up.
    pub fn start() -> Result<Self, String> {
        let installed = Command::new("speech-dispatcher")
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !installed {
            return Err("speech-dispatcher is not installed (apt-get install \
                        speech-dispatcher speech-dispatcher-espeak-ng espeak-ng)"
                .into());
        }
        let stamp = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        let dir =
            std::env::temp_dir().join(format!("hector-speechd-{}-{stamp}", std::process::id()));
        let conf = dir.join("conf");
        let logs = dir.join("logs");
        fs::create_dir_all(&conf).map_err(|e| format!("{}: {e}", conf.display()))?;
        fs::create_dir_all(&logs).map_err(|e| format!("{}: {e}", logs.display()))?;
        let mut daemon = PrivateSpeechd {
            socket: dir.join("speechd.sock"),
            capture: dir.join("capture.wav"),
            log: logs.join("speech-dispatcher.log"),
            dir,
            child: None,
        };
        // The stock file plus: ALSA (no sound server here), espeak-ng, and a
        // log level that records the language sent to the synthesizer.
        let stock = fs::read_to_string(STOCK_CONF).unwrap_or_default();
        let stock: String = stock
            .lines()
            .filter(|l| !l.trim_start().starts_with("LogLevel"))
            .map(|l| format!("{l}\n"))
            .collect();
        let conf_text = format!(
            "{stock}\nLogLevel 5\nAudioOutputMethod \"alsa\"\nAudioALSADevice \"default\"\n\
             DefaultModule espeak-ng\n"
        );
        write(&conf.join("speechd.conf"), &conf_text)?;
        let asound = daemon.dir.join("asound.conf");
        write(
            &asound,
            &format!(
                "pcm.!default {{\n  type file\n  slave.pcm \"null\"\n  file \"{}\"\n  format \"wav\"\n}}\n",
                daemon.capture.display()
            ),
        )?;
        // Run in the foreground (-s) as this process's child rather than
        // daemonized (-d): a daemonized server is re-parented to init, and an
        // init that does not reap (containers, CI sandboxes) keeps it and its
        // synthesizer processes as zombies.  As our child it is reaped here,
        // and it reaps its own modules.
        let pidfile = daemon.dir.join("speechd.pid");
        let child = Command::new("speech-dispatcher")
            .args(["-s", "-t", "0", "-C"])
            .arg(&conf)
            .arg("-S")
            .arg(&daemon.socket)
            .arg("-P")
            .arg(&pidfile)
            .arg("-L")
            .arg(&logs)
            .env(
                "ALSA_CONFIG_PATH",
                format!("/usr/share/alsa/alsa.conf:{}", asound.display()),
            )
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot run speech-dispatcher: {e}"))?;
        daemon.child = Some(child);
        // Seconds on an idle machine; far longer on a loaded one.
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            if let Some(Ok(Some(status))) = daemon.child.as_mut().map(Child::try_wait) {
                return Err(format!(
                    "speech-dispatcher exited with {status} (log: {})",
                    daemon.log.display()
                ));
            }
            if daemon.socket.exists() {
                return Ok(daemon);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Err(format!(
            "speech-dispatcher did not come up (log: {})",
            daemon.log.display()
        ))
    }

    /// The value for `SPEECHD_ADDRESS`.
    pub fn address(&self) -> String {
        format!("unix_socket:{}", self.socket.display())
    }

    /// Send a signal ("STOP", "CONT", "TERM", "KILL") to the daemon.
    pub fn signal(&self, sig: &str) {
        if let Some(pid) = self.child.as_ref().map(Child::id) {
            let _ = Command::new("kill")
                .arg(format!("-{sig}"))
                .arg(pid.to_string())
                .stderr(Stdio::null())
                .status();
        }
    }

    /// The daemon's log so far.
    pub fn log_text(&self) -> String {
        fs::read(&self.log)
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default()
    }

    fn exited(&mut self) -> bool {
        self.child
            .as_mut()
            .is_none_or(|c| matches!(c.try_wait(), Ok(Some(_)) | Err(_)))
    }
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

impl Drop for PrivateSpeechd {
    fn drop(&mut self) {
        // A stopped daemon ignores TERM until continued.
        self.signal("CONT");
        self.signal("TERM");
        let deadline = Instant::now() + Duration::from_secs(2);
        while !self.exited() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        if !self.exited()
            && let Some(child) = self.child.as_mut()
        {
            let _ = child.kill();
            let _ = child.wait();
        }
        if std::env::var_os("HECTOR_KEEP_SPEECHD").is_none() {
            let _ = fs::remove_dir_all(&self.dir);
        }
    }
}
