//! Board descriptions: one TOML file per supported board in `hardware/`
//! (protocol, serial settings or the Bluetooth LE board it is, device name
//! patterns, orientation, settle time).  The files shipped with hector are compiled in; a user's file is
//! parsed the same way, and every error names the file, the line and the
//! key.

use std::time::Duration;

use serde::Deserialize;

use super::infer::TrackerConfig;
use super::protocol::Protocol;
use super::sensed::Orientation;
use super::wireless::BleKind;
use crate::toml_error::{DataFileError, Expect, FileProblem};

/// The built-in files: (name for messages, text).
pub const BUILTIN_SOURCES: [(&str, &str); 6] = [
    ("hardware/dgt.toml", include_str!("../../hardware/dgt.toml")),
    (
        "hardware/millennium.toml",
        include_str!("../../hardware/millennium.toml"),
    ),
    (
        "hardware/occupancy.toml",
        include_str!("../../hardware/occupancy.toml"),
    ),
    (
        "hardware/chessnut.toml",
        include_str!("../../hardware/chessnut.toml"),
    ),
    (
        "hardware/pegasus.toml",
        include_str!("../../hardware/pegasus.toml"),
    ),
    (
        "hardware/eone.toml",
        include_str!("../../hardware/eone.toml"),
    ),
];

/// Serial parity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Parity {
    None,
    Odd,
    Even,
}

/// Which way round the board stands, as written in a hardware file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OrientationSetting {
    /// Detect a board turned round.
    #[default]
    Auto,
    Normal,
    Rotated,
}

/// Baud rate, 1 to 4 000 000.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(try_from = "u64")]
pub struct Baud(u32);

impl TryFrom<u64> for Baud {
    type Error = String;
    fn try_from(v: u64) -> Result<Self, String> {
        match u32::try_from(v) {
            Ok(b) if (1..=4_000_000).contains(&b) => Ok(Baud(b)),
            _ => Err(v.to_string()),
        }
    }
}

impl Baud {
    pub const fn get(self) -> u32 {
        self.0
    }
}

/// Data bits, 5 to 8.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(try_from = "u64")]
pub struct DataBits(u8);

impl TryFrom<u64> for DataBits {
    type Error = String;
    fn try_from(v: u64) -> Result<Self, String> {
        match v {
            5..=8 => Ok(DataBits(v as u8)),
            _ => Err(v.to_string()),
        }
    }
}

impl DataBits {
    pub const fn get(self) -> u8 {
        self.0
    }
}

/// Stop bits, 1 or 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(try_from = "u64")]
pub struct StopBits(u8);

impl TryFrom<u64> for StopBits {
    type Error = String;
    fn try_from(v: u64) -> Result<Self, String> {
        match v {
            1 | 2 => Ok(StopBits(v as u8)),
            _ => Err(v.to_string()),
        }
    }
}

impl StopBits {
    pub const fn get(self) -> u8 {
        self.0
    }
}

/// The longest settle time, in milliseconds, wherever it is given (a
/// hardware file, the settings, `--settle-ms`): a move that stands five
/// seconds is made.
pub const MAX_SETTLE_MS: u64 = 5000;

/// Settle time in milliseconds, at most [`MAX_SETTLE_MS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(try_from = "u64")]
pub struct SettleMs(u64);

impl TryFrom<u64> for SettleMs {
    type Error = String;
    fn try_from(v: u64) -> Result<Self, String> {
        if v <= MAX_SETTLE_MS {
            Ok(SettleMs(v))
        } else {
            Err(v.to_string())
        }
    }
}

impl Default for SettleMs {
    fn default() -> Self {
        SettleMs(300)
    }
}

/// Serial line settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SerialSettings {
    pub baud: Baud,
    pub data_bits: DataBits,
    pub parity: Parity,
    pub stop_bits: StopBits,
}

/// Which Bluetooth LE board a file describes (`board = "chessnut"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(try_from = "String")]
pub struct WirelessBoard(pub BleKind);

impl TryFrom<String> for WirelessBoard {
    type Error = String;
    fn try_from(v: String) -> Result<Self, String> {
        BleKind::from_word(&v).map(WirelessBoard).ok_or(v)
    }
}

/// A Bluetooth LE board's table.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BluetoothSettings {
    /// Which board it is.
    pub board: WirelessBoard,
    /// The names it advertises; `*` matches any characters (for the
    /// reader: hector recognises the boards by [`BleKind::recognise`]).
    #[serde(default)]
    pub names: Vec<String>,
}

/// One hardware file.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardDescription {
    /// Name for messages ("DGT e-board").
    pub name: String,
    /// The protocol the board speaks.
    pub protocol: Protocol,
    /// How long a move that could still be on its way must stand.
    #[serde(default)]
    pub settle_ms: SettleMs,
    /// Which way round the board stands.
    #[serde(default)]
    pub orientation: OrientationSetting,
    /// Port name patterns; `*` matches any characters.
    #[serde(default)]
    pub devices: Vec<String>,
    /// A board on a serial port: its line settings.
    #[serde(default)]
    pub serial: Option<SerialSettings>,
    /// A Bluetooth LE board: which one.
    #[serde(default)]
    pub bluetooth: Option<BluetoothSettings>,
}

impl BoardDescription {
    /// The settle time.
    pub fn settle(&self) -> Duration {
        Duration::from_millis(self.settle_ms.0)
    }

    /// How a tracker (`infer::Tracker`) should treat this board.
    pub fn tracker_config(&self) -> TrackerConfig {
        let (orientation, detect_rotation) = match self.orientation {
            OrientationSetting::Auto => (Orientation::Normal, true),
            OrientationSetting::Normal => (Orientation::Normal, false),
            OrientationSetting::Rotated => (Orientation::Rotated, false),
        };
        TrackerConfig {
            settle: self.settle(),
            orientation,
            detect_rotation,
            ..TrackerConfig::default()
        }
    }

    /// Whether a port name matches one of the device patterns.
    pub fn matches_device(&self, port: &str) -> bool {
        self.devices.iter().any(|p| wildcard_match(p, port))
    }
}

/// Whether `text` matches `pattern`, where `*` stands for any characters.
pub fn wildcard_match(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0, 0);
    // Position of the last `*` in the pattern and the text index it
    // matched up to.
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ti));
            pi += 1;
        } else if pi < p.len() && p[pi] == t[ti] {
            pi += 1;
            ti += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|c| *c == '*')
}

/// A hardware file that could not be used: which file, where, and why
/// (worded by `Phraser::file_problem`).
pub type HardwareError = DataFileError;

/// What a checked key of a board file takes, for the sentence that says a
/// value did not fit.  The checks themselves are the `TryFrom`s above,
/// whose error is only the value refused: what the player hears is worded
/// from this.
fn takes(key: &str) -> Option<Expect> {
    Some(match key {
        "serial.baud" => Expect::Whole {
            min: 1,
            max: 4_000_000,
        },
        "serial.data_bits" => Expect::OneOf(&["5", "6", "7", "8"]),
        "serial.stop_bits" => Expect::OneOf(&["1", "2"]),
        "settle_ms" => Expect::Whole {
            min: 0,
            max: MAX_SETTLE_MS as i64,
        },
        "bluetooth.board" => Expect::OneOf(&["chessnut", "pegasus", "eone"]),
        _ => return None,
    })
}

/// Parse the text of a hardware file named `file` (for error messages).
pub fn parse_board_file(file: &str, text: &str) -> Result<BoardDescription, HardwareError> {
    let d = toml::from_str::<BoardDescription>(text).map_err(|e| {
        let mut err = DataFileError::from_toml(file, text, &e);
        // A value one of the checks refused: the key says what it takes.
        if matches!(err.problem, FileProblem::Syntax | FileProblem::WrongValue)
            && let Some(expect) = err.key.as_deref().and_then(takes)
        {
            let found = e.span().and_then(|s| text.get(s)).unwrap_or_default();
            err.problem = FileProblem::Wrong {
                expect,
                found: found.trim().trim_matches('"').to_owned(),
            };
        }
        err
    })?;
    if d.serial.is_some() == d.bluetooth.is_some() {
        return Err(DataFileError::at_key(
            file,
            text,
            "protocol",
            FileProblem::SerialOrBluetooth,
        ));
    }
    Ok(d)
}

/// All built-in board descriptions.  The built-in files are tested to
/// parse (`builtin_files_parse`), so none is ever left out in a release.
pub fn builtins() -> Vec<BoardDescription> {
    BUILTIN_SOURCES
        .iter()
        .filter_map(|(name, text)| parse_board_file(name, text).ok())
        .collect()
}

/// The built-in description of a protocol's board on a serial port.
pub fn builtin(protocol: Protocol) -> Option<BoardDescription> {
    builtins()
        .into_iter()
        .find(|b| b.protocol == protocol && b.serial.is_some())
}

/// The built-in description of a Bluetooth LE board of `kind` (the Move
/// shares the Chessnut's file, with a protocol of its own).
pub fn builtin_wireless(kind: BleKind) -> Option<BoardDescription> {
    let mut d = builtins().into_iter().find(|b| {
        b.bluetooth
            .as_ref()
            .is_some_and(|w| w.board.0.accepts(kind) || kind.accepts(w.board.0))
    })?;
    d.protocol = kind.protocol();
    Some(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_files_parse() {
        for (name, text) in BUILTIN_SOURCES {
            parse_board_file(name, text).unwrap_or_else(|e| panic!("{e}"));
        }
        assert_eq!(builtins().len(), 6);
        for kind in BleKind::ALL {
            let d = builtin_wireless(kind).unwrap_or_else(|| panic!("{kind:?} is built in"));
            assert_eq!(d.protocol, kind.protocol());
            assert!(d.serial.is_none());
        }
        assert!(builtin(Protocol::Millennium).is_some_and(|d| d.serial.is_some()));
    }

    #[test]
    fn builtin_serial_settings_match_the_protocols() {
        let dgt = builtin(Protocol::Dgt).unwrap_or_else(|| panic!("dgt.toml is built in"));
        let serial = dgt
            .serial
            .unwrap_or_else(|| panic!("dgt.toml has [serial]"));
        assert_eq!(serial.baud.get(), 9600);
        assert_eq!(serial.data_bits.get(), 8);
        assert_eq!(serial.parity, Parity::None);
        let mil = builtin(Protocol::Millennium).unwrap_or_else(|| panic!("built in"));
        let serial = mil
            .serial
            .unwrap_or_else(|| panic!("millennium.toml has [serial]"));
        assert_eq!(serial.baud.get(), 38400);
        assert_eq!(serial.data_bits.get(), 7);
        assert_eq!(serial.parity, Parity::Odd);
        assert_eq!(serial.stop_bits.get(), 1);
        let occ = builtin(Protocol::Occupancy).unwrap_or_else(|| panic!("built in"));
        assert_eq!(occ.settle(), Duration::from_millis(300));
        assert!(occ.tracker_config().detect_rotation);
        assert!(dgt.matches_device("/dev/ttyACM0"));
        assert!(dgt.matches_device("/dev/rfcomm12"));
        assert!(!dgt.matches_device("/dev/ttyS0"));
    }

    const GOOD: &str = r#"
name = "Test"
protocol = "occupancy"
devices = ["/dev/ttyUSB*"]

[serial]
baud = 9600
data_bits = 8
parity = "none"
stop_bits = 1
"#;

    #[test]
    fn defaults_and_fixed_orientation() {
        let b = parse_board_file("t.toml", GOOD).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(b.settle(), Duration::from_millis(300));
        assert_eq!(b.orientation, OrientationSetting::Auto);
        let text = GOOD.replace(
            "devices",
            "orientation = \"rotated\"\nsettle_ms = 0\ndevices",
        );
        let b = parse_board_file("t.toml", &text).unwrap_or_else(|e| panic!("{e}"));
        let c = b.tracker_config();
        assert_eq!(c.orientation, Orientation::Rotated);
        assert!(!c.detect_rotation);
        assert_eq!(c.settle, Duration::ZERO);
    }

    #[test]
    fn unknown_key_is_named_with_its_line() {
        let text = GOOD.replace("stop_bits = 1", "stop_bits = 1\nflow = \"rts\"");
        let e = parse_board_file("mine.toml", &text).err();
        let e = e.unwrap_or_else(|| panic!("unknown key accepted"));
        assert_eq!(e.file, "mine.toml");
        assert_eq!(e.key.as_deref(), Some("flow"));
        assert_eq!(e.line, Some(11));
        assert_eq!(e.problem, FileProblem::UnknownKey);
    }

    #[test]
    fn bad_values_are_named_with_their_line() {
        let text = GOOD.replace("data_bits = 8", "data_bits = 9");
        let e = parse_board_file("mine.toml", &text).err();
        let e = e.unwrap_or_else(|| panic!("9 data bits accepted"));
        assert_eq!(e.key.as_deref(), Some("serial.data_bits"));
        assert_eq!(e.line, Some(8));
        assert_eq!(
            e.problem,
            FileProblem::Wrong {
                expect: Expect::OneOf(&["5", "6", "7", "8"]),
                found: "9".into()
            }
        );
        let text = GOOD.replace("protocol = \"occupancy\"", "protocol = \"usb\"");
        let e = parse_board_file("mine.toml", &text).err();
        let e = e.unwrap_or_else(|| panic!("unknown protocol accepted"));
        assert_eq!(e.line, Some(3));
        assert!(
            matches!(&e.problem, FileProblem::NotOneOf { found, names }
                if found == "usb" && names.first().map(String::as_str) == Some("dgt")),
            "{e:?}"
        );
        let text = GOOD.replace("baud = 9600\n", "");
        let e = parse_board_file("mine.toml", &text).err();
        let e = e.unwrap_or_else(|| panic!("missing baud accepted"));
        assert_eq!(e.key.as_deref(), Some("baud"));
        assert_eq!(e.problem, FileProblem::MissingKey("baud".into()));
        let text = GOOD.replace("devices", "settle_ms = 9000\ndevices");
        let e = parse_board_file("mine.toml", &text).err();
        let e = e.unwrap_or_else(|| panic!("9000 ms accepted"));
        assert_eq!(e.key.as_deref(), Some("settle_ms"));
        assert!(
            matches!(&e.problem, FileProblem::Wrong { found, .. } if found == "9000"),
            "{e:?}"
        );
    }

    #[test]
    fn a_file_is_serial_or_bluetooth() {
        let neither = GOOD.split("[serial]").next().unwrap_or_default().to_owned();
        let e = parse_board_file("mine.toml", &neither).err();
        assert!(e.is_some_and(|e| e.problem == FileProblem::SerialOrBluetooth));
        let both = format!("{GOOD}\n[bluetooth]\nboard = \"pegasus\"\n");
        assert!(parse_board_file("mine.toml", &both).is_err());
        let wireless = format!("{neither}\n[bluetooth]\nboard = \"eone\"\n");
        let d = parse_board_file("mine.toml", &wireless).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(d.bluetooth.map(|b| b.board.0), Some(BleKind::Eone));
        let wrong = format!("{neither}\n[bluetooth]\nboard = \"radio\"\n");
        let e = parse_board_file("mine.toml", &wrong).err();
        assert!(
            e.as_ref().is_some_and(|e| e.problem
                == FileProblem::Wrong {
                    expect: Expect::OneOf(&["chessnut", "pegasus", "eone"]),
                    found: "radio".into()
                }),
            "{e:?}"
        );
    }

    #[test]
    fn wildcards() {
        assert!(wildcard_match("/dev/ttyUSB*", "/dev/ttyUSB0"));
        assert!(wildcard_match("*", ""));
        assert!(wildcard_match("COM*", "COM3"));
        assert!(wildcard_match("/dev/*ACM*", "/dev/ttyACM1"));
        assert!(!wildcard_match("/dev/ttyUSB*", "/dev/ttyACM0"));
        assert!(!wildcard_match("COM", "COM1"));
        assert!(wildcard_match("a*b*c", "axxbyyc"));
        assert!(!wildcard_match("a*b*c", "axxbyy"));
    }
}
