//! A fake BlueZ on a private system bus, for the Bluetooth LE boards: a
//! `dbus-daemon` with a system-bus configuration of its own, and Debian's
//! python3-dbusmock running `fake_bluez.py` (the `bluez5` template mended
//! and three boards added, see that file) on it.  hector and the
//! independent client (bleak) are pointed at it with
//! `DBUS_SYSTEM_BUS_ADDRESS`; the test moves the pieces, takes a board out
//! of reach and back, through the fake's `org.hector.FakeBoards` interface
//! (with `dbus-send`).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The system-bus configuration: anyone may own any name and send and
/// receive anything (BlueZ's own policy file allows its clients the same
/// on org.bluez).
const BUS_CONFIG: &str = r#"<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=SOCKET</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_type="method_call"/>
    <allow send_type="signal"/>
    <allow send_type="method_return"/>
    <allow send_type="error"/>
    <allow receive_type="method_call"/>
    <allow receive_type="signal"/>
    <allow receive_type="method_return"/>
    <allow receive_type="error"/>
  </policy>
</busconfig>
"#;

/// The fake's template, beside this file.
fn template() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/fake_bluez.py")
}

/// The bus and the fake BlueZ on it; both ended when dropped.
pub struct FakeBluez {
    bus: Child,
    fake: Child,
    address: String,
    dir: PathBuf,
}

impl FakeBluez {
    /// Start the bus and the fake; ready when org.bluez answers.
    pub fn start() -> FakeBluez {
        let dir = std::env::temp_dir().join(format!(
            "hector-bluez-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0)
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let socket = dir.join("bus");
        let config = dir.join("system.conf");
        std::fs::write(
            &config,
            BUS_CONFIG.replace("SOCKET", &socket.to_string_lossy()),
        )
        .unwrap();
        let mut bus = Command::new("dbus-daemon")
            .arg(format!("--config-file={}", config.display()))
            .args(["--nofork", "--print-address=1"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("dbus-daemon (package dbus-daemon: scripts/deps.sh)");
        let mut address = String::new();
        BufReader::new(bus.stdout.take().unwrap())
            .read_line(&mut address)
            .unwrap();
        let address = address.trim().to_owned();
        assert!(address.starts_with("unix:"), "{address:?}");
        let log = std::fs::File::create(dir.join("fake.log")).unwrap();
        let fake = Command::new("/usr/bin/python3")
            .args(["-m", "dbusmock", "--system", "--template"])
            .arg(template())
            .env("DBUS_SYSTEM_BUS_ADDRESS", &address)
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(Stdio::null())
            .spawn()
            .expect("python3-dbusmock (scripts/deps.sh)");
        let f = FakeBluez {
            bus,
            fake,
            address,
            dir,
        };
        let t = Instant::now();
        while !f
            .send(
                "org.freedesktop.DBus",
                "/org/freedesktop/DBus",
                "org.freedesktop.DBus.NameHasOwner",
                &["string:org.bluez"],
            )
            .contains("boolean true")
        {
            assert!(
                t.elapsed() < Duration::from_secs(10),
                "the fake BlueZ never took org.bluez"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        f
    }

    /// `DBUS_SYSTEM_BUS_ADDRESS` for hector and bleak.
    pub fn address(&self) -> &str {
        &self.address
    }

    /// What the fake logged (its method calls and signals), for failures.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("fake.log")).unwrap_or_default()
    }

    fn send(&self, dest: &str, path: &str, method: &str, args: &[&str]) -> String {
        let out = Command::new("dbus-send")
            .env("DBUS_SYSTEM_BUS_ADDRESS", &self.address)
            .args([
                "--system",
                "--print-reply",
                &format!("--dest={dest}"),
                path,
                method,
            ])
            .args(args)
            .output()
            .expect("dbus-send (package dbus-bin)");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        if !out.status.success() && dest == "org.bluez" {
            panic!(
                "{method} {args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        text
    }

    fn control(&self, method: &str, args: &[&str]) -> String {
        self.send(
            "org.bluez",
            "/",
            &format!("org.hector.FakeBoards.{method}"),
            args,
        )
    }

    /// How many clients are connected to the bus now (the fake, hector's
    /// connections, this question's own).
    pub fn connections(&self) -> usize {
        self.send(
            "org.freedesktop.DBus",
            "/org/freedesktop/DBus",
            "org.freedesktop.DBus.ListNames",
            &[],
        )
        .matches("string \":")
        .count()
    }

    /// A board nearby: `kind` chessnut, chessnut-move, pegasus or eone,
    /// showing the starting position.
    pub fn add_board(&self, kind: &str, address: &str, name: &str, rssi: i16) {
        self.control(
            "AddBoard",
            &[
                &format!("string:{kind}"),
                &format!("string:{address}"),
                &format!("string:{name}"),
                &format!("int16:{rssi}"),
            ],
        );
    }

    /// The board now shows `placement` (a FEN board part).
    pub fn set_position(&self, address: &str, placement: &str) {
        self.control(
            "SetPosition",
            &[&format!("string:{address}"), &format!("string:{placement}")],
        );
    }

    /// What the board shows (a FEN board part).
    pub fn position(&self, address: &str) -> String {
        let out = self.control("Position", &[&format!("string:{address}")]);
        out.lines()
            .find_map(|l| l.trim().strip_prefix("string \""))
            .map(|s| s.trim_end_matches('"').to_owned())
            .unwrap_or_default()
    }

    /// The board goes out of reach (or comes back).
    pub fn set_in_reach(&self, address: &str, in_reach: bool) {
        self.control(
            "SetInReach",
            &[&format!("string:{address}"), &format!("boolean:{in_reach}")],
        );
    }

    /// The board's battery charge.
    pub fn set_battery(&self, address: &str, percent: u8) {
        self.control(
            "SetBattery",
            &[&format!("string:{address}"), &format!("byte:{percent}")],
        );
    }

    /// A Chessnut Move cannot move a piece that involves `square`.
    pub fn refuse(&self, address: &str, square: &str) {
        self.control(
            "Refuse",
            &[&format!("string:{address}"), &format!("string:{square}")],
        );
    }

    /// Everything written to the board, a hex string a write.
    pub fn written(&self, address: &str) -> Vec<String> {
        let out = self.control("Written", &[&format!("string:{address}")]);
        out.lines()
            .filter_map(|l| l.trim().strip_prefix("string \""))
            .map(|s| s.trim_end_matches('"').to_owned())
            .collect()
    }
}

impl Drop for FakeBluez {
    fn drop(&mut self) {
        let _ = self.fake.kill();
        let _ = self.fake.wait();
        let _ = self.bus.kill();
        let _ = self.bus.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
