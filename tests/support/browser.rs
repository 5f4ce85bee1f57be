//! Headless Chromium for the companion tests, driven by playwright-core
//! (npm, installed into target/node by scripts/deps.sh) through
//! tests/support/browser.mjs: one JSON command per line.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

pub struct Browser {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

fn node_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/node/node_modules")
}

impl Browser {
    /// Start the driver and Chromium.  Panics with what is missing: the
    /// project's scripts install all of it (scripts/deps.sh).
    pub fn start() -> Browser {
        let modules = node_dir();
        assert!(
            modules.join("playwright-core").exists(),
            "playwright-core is missing from {}: run scripts/deps.sh",
            modules.display()
        );
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/support/browser.mjs");
        let mut child = Command::new("node")
            .arg(script)
            .env("HECTOR_NODE_DIR", &modules)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("node runs (scripts/deps.sh installs it)");
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        Browser {
            child,
            stdin,
            stdout,
        }
    }

    /// Send one command; the answer's value, or the driver's error.
    pub fn try_cmd(&mut self, cmd: Value) -> Result<Value, String> {
        let line = cmd.to_string();
        writeln!(self.stdin, "{line}").map_err(|e| e.to_string())?;
        self.stdin.flush().map_err(|e| e.to_string())?;
        let mut answer = String::new();
        self.stdout
            .read_line(&mut answer)
            .map_err(|e| e.to_string())?;
        let v: Value = serde_json::from_str(&answer)
            .map_err(|e| format!("driver said {answer:?} to {line}: {e}"))?;
        if v["ok"] == json!(true) {
            Ok(v["value"].clone())
        } else {
            Err(format!("{line}: {}", v["error"]))
        }
    }

    pub fn cmd(&mut self, cmd: Value) -> Value {
        match self.try_cmd(cmd) {
            Ok(v) => v,
            Err(e) => panic!("browser: {e}"),
        }
    }

    pub fn new_page(&mut self, url: &str) -> u64 {
        let page = self
            .cmd(json!({"op": "new_page"}))
            .as_u64()
            .expect("page id");
        self.cmd(json!({"op": "goto", "page": page, "url": url}));
        page
    }

    /// A page of `width`×`height` CSS pixels (a phone, a desktop).
    pub fn new_page_sized(&mut self, url: &str, width: u32, height: u32) -> u64 {
        let page = self
            .cmd(json!({"op": "new_page", "width": width, "height": height}))
            .as_u64()
            .expect("page id");
        self.cmd(json!({"op": "goto", "page": page, "url": url}));
        page
    }

    /// The serious and critical findings of the axe-core audit.
    pub fn axe(&mut self, page: u64) -> Vec<String> {
        serde_json::from_value(self.cmd(json!({"op": "axe", "page": page}))).unwrap_or_default()
    }

    pub fn text(&mut self, page: u64, sel: &str) -> String {
        self.cmd(json!({"op": "text", "page": page, "sel": sel}))
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    /// Wait until `sel` contains `text`; its whole text then.
    pub fn wait_text(&mut self, page: u64, sel: &str, text: &str) -> String {
        self.cmd(json!({"op": "wait_text", "page": page, "sel": sel, "text": text}))
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    pub fn try_wait_text(
        &mut self,
        page: u64,
        sel: &str,
        text: &str,
        timeout: Duration,
    ) -> Result<String, String> {
        self.try_cmd(
            json!({"op": "wait_text", "page": page, "sel": sel, "text": text,
            "timeout": timeout.as_millis() as u64}),
        )
        .map(|v| v.as_str().unwrap_or_default().to_owned())
    }

    pub fn attr(&mut self, page: u64, sel: &str, name: &str) -> Option<String> {
        self.cmd(json!({"op": "attr", "page": page, "sel": sel, "name": name}))
            .as_str()
            .map(str::to_owned)
    }

    pub fn click(&mut self, page: u64, sel: &str) {
        self.cmd(json!({"op": "click", "page": page, "sel": sel}));
    }

    pub fn fill(&mut self, page: u64, sel: &str, value: &str) {
        self.cmd(json!({"op": "fill", "page": page, "sel": sel, "value": value}));
    }

    pub fn press(&mut self, page: u64, sel: &str, key: &str) {
        self.cmd(json!({"op": "press", "page": page, "sel": sel, "key": key}));
    }

    pub fn eval(&mut self, page: u64, js: &str) -> Value {
        self.cmd(json!({"op": "eval", "page": page, "js": js}))
    }

    pub fn reload(&mut self, page: u64) {
        self.cmd(json!({"op": "reload", "page": page}));
    }

    /// Script errors seen on any page since the last call.
    pub fn errors(&mut self) -> Vec<String> {
        serde_json::from_value(self.cmd(json!({"op": "errors"}))).unwrap_or_default()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "{}", json!({"op": "quit"}));
        let _ = self.stdin.flush();
        for _ in 0..50 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
