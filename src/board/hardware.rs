//! Board descriptions: one TOML file per supported board in `hardware/`
//! (protocol, serial settings, device name patterns, orientation, settle
//! time).  The files shipped with hector are compiled in; a user's file is
//! parsed the same way, and every error names the file, the line and the
//! key.

use std::time::Duration;

use serde::Deserialize;

use super::infer::TrackerConfig;
use super::protocol::Protocol;
use super::sensed::Orientation;
use crate::toml_error::FileError;

/// The built-in files: (name for messages, text).
pub const BUILTIN_SOURCES: [(&str, &str); 3] = [
    ("hardware/dgt.toml", include_str!("../../hardware/dgt.toml")),
    (
        "hardware/millennium.toml",
        include_str!("../../hardware/millennium.toml"),
    ),
    (
        "hardware/occupancy.toml",
        include_str!("../../hardware/occupancy.toml"),
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
            _ => Err(format!(
                "`serial.baud` must be between 1 and 4000000, not {v}"
            )),
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
            _ => Err(format!("`serial.data_bits` must be 5, 6, 7 or 8, not {v}")),
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
            _ => Err(format!("`serial.stop_bits` must be 1 or 2, not {v}")),
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
            Err(format!(
                "`settle_ms` must be at most {MAX_SETTLE_MS}, not {v}"
            ))
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

/// One hardware file.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardDescription {
    /// Name for messages ("DGT e-board").
    pub name: String,
    pub protocol: Protocol,
    #[serde(default)]
    pub settle_ms: SettleMs,
    #[serde(default)]
    pub orientation: OrientationSetting,
    /// Port name patterns; `*` matches any characters.
    pub devices: Vec<String>,
    pub serial: SerialSettings,
}

impl BoardDescription {
    /// The settle time.
    pub fn settle(&self) -> Duration {
        Duration::from_millis(self.settle_ms.0)
    }

    /// How a [`Tracker`](super::infer::Tracker) should treat this board.
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

/// A hardware file that could not be used: which file, where, and why.
pub type HardwareError = FileError;

/// Parse the text of a hardware file named `file` (for error messages).
pub fn parse_board_file(file: &str, text: &str) -> Result<BoardDescription, HardwareError> {
    toml::from_str::<BoardDescription>(text).map_err(|e| FileError::from_toml(file, text, &e))
}

/// All built-in board descriptions.  The built-in files are tested to
/// parse (`builtin_files_parse`), so none is ever left out in a release.
pub fn builtins() -> Vec<BoardDescription> {
    BUILTIN_SOURCES
        .iter()
        .filter_map(|(name, text)| parse_board_file(name, text).ok())
        .collect()
}

/// The built-in description of a protocol's board.
pub fn builtin(protocol: Protocol) -> Option<BoardDescription> {
    builtins().into_iter().find(|b| b.protocol == protocol)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_files_parse() {
        for (name, text) in BUILTIN_SOURCES {
            parse_board_file(name, text).unwrap_or_else(|e| panic!("{e}"));
        }
        assert_eq!(builtins().len(), 3);
    }

    #[test]
    fn builtin_serial_settings_match_the_protocols() {
        let dgt = builtin(Protocol::Dgt).unwrap_or_else(|| panic!("dgt.toml is built in"));
        assert_eq!(dgt.serial.baud.get(), 9600);
        assert_eq!(dgt.serial.data_bits.get(), 8);
        assert_eq!(dgt.serial.parity, Parity::None);
        let mil = builtin(Protocol::Millennium).unwrap_or_else(|| panic!("built in"));
        assert_eq!(mil.serial.baud.get(), 38400);
        assert_eq!(mil.serial.data_bits.get(), 7);
        assert_eq!(mil.serial.parity, Parity::Odd);
        assert_eq!(mil.serial.stop_bits.get(), 1);
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
        assert!(e.to_string().starts_with("mine.toml, line 11, key flow: "));
    }

    #[test]
    fn bad_values_are_named_with_their_line() {
        let text = GOOD.replace("data_bits = 8", "data_bits = 9");
        let e = parse_board_file("mine.toml", &text).err();
        let e = e.unwrap_or_else(|| panic!("9 data bits accepted"));
        assert_eq!(e.key.as_deref(), Some("serial.data_bits"));
        assert_eq!(e.line, Some(8));
        let text = GOOD.replace("protocol = \"occupancy\"", "protocol = \"usb\"");
        let e = parse_board_file("mine.toml", &text).err();
        let e = e.unwrap_or_else(|| panic!("unknown protocol accepted"));
        assert_eq!(e.line, Some(3));
        let text = GOOD.replace("baud = 9600\n", "");
        let e = parse_board_file("mine.toml", &text).err();
        let e = e.unwrap_or_else(|| panic!("missing baud accepted"));
        assert_eq!(e.key.as_deref(), Some("baud"));
        let text = GOOD.replace("devices", "settle_ms = 9000\ndevices");
        let e = parse_board_file("mine.toml", &text).err();
        assert_eq!(e.and_then(|e| e.key), Some("settle_ms".to_owned()));
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
