//! The lichess token in the system's secret store: a real Secret Service
//! (gnome-keyring-daemon) on a private D-Bus session bus of the test's own,
//! with its keyring in the test's own folder.  `login` keeps the token
//! there and writes no file; a game reads it from there; `logout` removes
//! it.  Without a store (no bus), the 0600 file, as tests/lichess.rs shows
//! in detail.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::lichess_server::StandIn;
use crate::util::{Run, clean_config_dir, files_with, token_file};

const TOKEN: &str = "lip_storeSecret0123456789";

/// A private session bus and a gnome-keyring-daemon on it, its login
/// keyring made and unlocked; both ended when dropped.
struct SecretService {
    bus: Child,
    keyring: Child,
    address: String,
}

impl SecretService {
    fn start(home: &Path) -> SecretService {
        let run = home.join("run");
        std::fs::create_dir_all(&run).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&run, std::fs::Permissions::from_mode(0o700)).unwrap();
        }
        let env = |c: &mut Command| {
            c.env("HOME", home)
                .env("XDG_CONFIG_HOME", home)
                .env("XDG_DATA_HOME", home.join("data"))
                .env("XDG_RUNTIME_DIR", &run)
                .env_remove("DISPLAY")
                .env_remove("WAYLAND_DISPLAY");
        };
        let mut c = Command::new("dbus-daemon");
        c.args(["--session", "--nofork", "--print-address=1"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        env(&mut c);
        let mut bus = c
            .spawn()
            .expect("dbus-daemon (package dbus-daemon: scripts/deps.sh)");
        let mut address = String::new();
        BufReader::new(bus.stdout.take().unwrap())
            .read_line(&mut address)
            .unwrap();
        let address = address.trim().to_owned();
        assert!(address.starts_with("unix:"), "{address:?}");
        let mut c = Command::new("gnome-keyring-daemon");
        c.args(["--foreground", "--unlock", "--components=secrets"])
            .env("DBUS_SESSION_BUS_ADDRESS", &address)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        env(&mut c);
        let mut keyring = c
            .spawn()
            .expect("gnome-keyring-daemon (package gnome-keyring: scripts/deps.sh)");
        // The login keyring's password: made with it, and unlocked.
        let mut stdin = keyring.stdin.take().unwrap();
        stdin.write_all(b"test-password").unwrap();
        drop(stdin);
        let s = SecretService {
            bus,
            keyring,
            address,
        };
        // Ready when the Secret Service's name is on the bus (at most 10 s).
        let t = Instant::now();
        while !s.ask("NameHasOwner").contains("boolean true") {
            assert!(
                t.elapsed() < Duration::from_secs(10),
                "gnome-keyring-daemon never took org.freedesktop.secrets"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        s
    }

    /// `dbus-send` on the private bus: whether the Secret Service is there
    /// (`NameHasOwner`), or the items kept for hector's token (`Search`).
    fn ask(&self, what: &str) -> String {
        let mut c = Command::new("dbus-send");
        c.env("DBUS_SESSION_BUS_ADDRESS", &self.address)
            .args(["--session", "--print-reply"]);
        if what == "NameHasOwner" {
            c.args([
                "--dest=org.freedesktop.DBus",
                "/org/freedesktop/DBus",
                "org.freedesktop.DBus.NameHasOwner",
                "string:org.freedesktop.secrets",
            ]);
        } else {
            c.args([
                "--dest=org.freedesktop.secrets",
                "/org/freedesktop/secrets",
                "org.freedesktop.Secret.Service.SearchItems",
                "dict:string:string:service,hector,username,lichess-token",
            ]);
        }
        let out = c.output().expect("dbus-send (package dbus-bin)");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// The items of the store that hold hector's token (by their paths).
    fn items(&self) -> usize {
        self.ask("Search")
            .matches("/org/freedesktop/secrets/collection/")
            .count()
    }
}

impl Drop for SecretService {
    fn drop(&mut self) {
        let _ = self.keyring.kill();
        let _ = self.keyring.wait();
        let _ = self.bus.kill();
        let _ = self.bus.wait();
    }
}

/// `hector ARGS` in `home` on the bus `bus` (none: no bus at all), with
/// no LICHESS_TOKEN and the store allowed.
fn hector(home: &Path, bus: Option<&str>, args: &[&str], input: &str) -> Run {
    let mut c = Command::new(env!("CARGO_BIN_EXE_hector"));
    c.args(args)
        .args(["--speech", "print", "--no-sound"])
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("XDG_RUNTIME_DIR", home.join("run"))
        .env_remove("LICHESS_TOKEN")
        .env_remove("HECTOR_TOKEN_STORE")
        .env_remove("DISPLAY")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    match bus {
        Some(a) => c.env("DBUS_SESSION_BUS_ADDRESS", a),
        // No session bus: a path where none listens.
        None => c.env(
            "DBUS_SESSION_BUS_ADDRESS",
            format!("unix:path={}", home.join("no-bus").display()),
        ),
    };
    let mut child = c.spawn().expect("hector starts");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_owned();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("hector runs");
    writer.join().unwrap();
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        success: out.status.success(),
    }
}

#[test]
fn login_keeps_the_token_in_the_secret_store_a_game_reads_it_and_logout_removes_it() {
    let server = StandIn::start(TOKEN, "Georges");
    let home = clean_config_dir();
    let store = SecretService::start(&home);
    assert_eq!(store.items(), 0);

    let login = ["lichess", "login", "--lichess-url", &server.url];
    let r = hector(&home, Some(&store.address), &login, &format!("{TOKEN}\n"));
    assert!(r.success, "{} {}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains(
            "Logged in to lichess as Georges. The token is kept in this computer's secret store"
        ),
        "{}",
        r.stdout
    );
    assert_eq!(store.items(), 1, "one item in the Secret Service");
    assert!(!token_file(&home).exists(), "no file when a store keeps it");
    // The keyring's own file exists and holds the token only encrypted.
    assert!(home.join("data/keyrings").is_dir());
    let clear = files_with(&home, TOKEN);
    assert!(clear.is_empty(), "the token in the clear in {clear:?}");

    // A game finds the token in the store: the push carries it.
    let r = hector(
        &home,
        Some(&store.address),
        &[
            "play",
            "--broadcast",
            "Rnd0042x",
            "--lichess-url",
            &server.url,
        ],
        "e4\n",
    );
    assert!(r.success, "{} {}", r.stdout, r.stderr);
    let pushed = server.state.lock().unwrap().pushes.len();
    assert!(pushed >= 1, "{}", r.stdout);
    assert!(!r.stdout.contains("refused"), "{}", r.stdout);

    let r = hector(&home, Some(&store.address), &["lichess", "logout"], "");
    assert!(r.stdout.contains("Logged out."), "{}", r.stdout);
    assert_eq!(store.items(), 0, "removed from the store");
    let r = hector(&home, Some(&store.address), &["lichess", "logout"], "");
    assert!(
        r.stdout.contains("No lichess token is kept"),
        "{}",
        r.stdout
    );
    drop(store);
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn without_a_store_the_token_goes_to_the_private_file_and_logout_removes_it() {
    let server = StandIn::start(TOKEN, "Georges");
    let home = clean_config_dir();
    let login = ["lichess", "login", "--lichess-url", &server.url];
    let r = hector(&home, None, &login, &format!("{TOKEN}\n"));
    assert!(r.success, "{} {}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .contains("Logged in to lichess as Georges. The token is kept for your next games."),
        "{}",
        r.stdout
    );
    assert_eq!(std::fs::read_to_string(token_file(&home)).unwrap(), TOKEN);
    let r = hector(&home, None, &["lichess", "logout"], "");
    assert!(r.stdout.contains("Logged out."), "{}", r.stdout);
    assert!(!token_file(&home).exists());
    let _ = std::fs::remove_dir_all(&home);
}
