//! The `--board` value: which board to use.  Plain data and a parser, no
//! port and no I/O, so the messages and the phrasing can name its errors.

use super::protocol::Protocol;
use super::wireless::BleKind;

/// Which board to use, as given with `--board`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardSpec {
    /// Find a port that answers one of the protocols.
    Auto,
    /// This protocol on this port (`dgt:/dev/ttyUSB0`).
    Port {
        /// The board's protocol.
        protocol: Protocol,
        /// The serial port's path.
        path: String,
    },
    /// This port; probe which protocol answers.
    Probe(String),
    /// A Bluetooth LE board: of this kind (`chessnut`, `pegasus`, `eone`),
    /// at this address (`chessnut:C0:FF:EE:00:00:01`, `bluetooth:ADDRESS`),
    /// or both.
    Wireless {
        /// The kind, when given.
        kind: Option<BleKind>,
        /// The address, when given.
        address: Option<String>,
    },
}

/// What is wrong with a `--board` value (worded by the app).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpecError {
    /// Nothing given.
    Empty,
    /// `dgt:` with no port after it.
    MissingPort(Protocol),
    /// `foo:/dev/ttyUSB0`: no protocol has that name.
    UnknownProtocol(String),
}

/// Read a `--board` value: `auto`, `PROTOCOL:PATH` or a port path.
pub fn parse_spec(text: &str) -> Result<BoardSpec, SpecError> {
    let text = text.trim();
    if text == "auto" {
        return Ok(BoardSpec::Auto);
    }
    if text.is_empty() {
        return Err(SpecError::Empty);
    }
    let (word, rest) = text.split_once(':').unwrap_or((text, ""));
    let address = (!rest.is_empty()).then(|| rest.to_owned());
    if let Some(kind) = BleKind::from_word(word) {
        return Ok(BoardSpec::Wireless {
            kind: Some(kind),
            address,
        });
    }
    if matches!(word.to_ascii_lowercase().as_str(), "bluetooth" | "ble") {
        return Ok(BoardSpec::Wireless {
            kind: None,
            address,
        });
    }
    if let Some((name, path)) = text.split_once(':') {
        let folded = name.to_ascii_lowercase();
        if let Some(protocol) = Protocol::ALL.into_iter().find(|p| p.name() == folded) {
            if path.is_empty() {
                return Err(SpecError::MissingPort(protocol));
            }
            return Ok(BoardSpec::Port {
                protocol,
                path: path.to_owned(),
            });
        }
        // A word before the colon names a protocol (a single letter is a
        // Windows drive, a path has slashes).
        let word = name.len() >= 2
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if word {
            return Err(SpecError::UnknownProtocol(name.to_owned()));
        }
    }
    Ok(BoardSpec::Probe(text.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_specs() {
        assert_eq!(parse_spec("auto"), Ok(BoardSpec::Auto));
        assert_eq!(
            parse_spec("dgt:/dev/ttyUSB0"),
            Ok(BoardSpec::Port {
                protocol: Protocol::Dgt,
                path: "/dev/ttyUSB0".into()
            })
        );
        assert_eq!(
            parse_spec("/dev/ttyACM0"),
            Ok(BoardSpec::Probe("/dev/ttyACM0".into()))
        );
        assert_eq!(
            parse_spec("occupancy:"),
            Err(SpecError::MissingPort(Protocol::Occupancy))
        );
        assert_eq!(parse_spec(""), Err(SpecError::Empty));
        assert_eq!(
            parse_spec("foo:/dev/ttyUSB0"),
            Err(SpecError::UnknownProtocol("foo".into()))
        );
        assert_eq!(
            parse_spec("DGT:/dev/ttyUSB0"),
            Ok(BoardSpec::Port {
                protocol: Protocol::Dgt,
                path: "/dev/ttyUSB0".into()
            })
        );
        // A Windows port name is a port, not a protocol; so is a drive.
        assert_eq!(parse_spec("COM3"), Ok(BoardSpec::Probe("COM3".into())));
        assert_eq!(
            parse_spec(r"C:\ports\board"),
            Ok(BoardSpec::Probe(r"C:\ports\board".into()))
        );
        // Bluetooth LE boards, by kind, address or both.
        assert_eq!(
            parse_spec("chessnut"),
            Ok(BoardSpec::Wireless {
                kind: Some(BleKind::Chessnut),
                address: None
            })
        );
        assert_eq!(
            parse_spec("Pegasus:C0:FF:EE:00:00:01"),
            Ok(BoardSpec::Wireless {
                kind: Some(BleKind::Pegasus),
                address: Some("C0:FF:EE:00:00:01".into())
            })
        );
        assert_eq!(
            parse_spec("bluetooth:C0:FF:EE:00:00:02"),
            Ok(BoardSpec::Wireless {
                kind: None,
                address: Some("C0:FF:EE:00:00:02".into())
            })
        );
        assert_eq!(
            parse_spec("eone"),
            Ok(BoardSpec::Wireless {
                kind: Some(BleKind::Eone),
                address: None
            })
        );
        assert_eq!(
            parse_spec("/dev/serial/by-id/usb-x:y"),
            Ok(BoardSpec::Probe("/dev/serial/by-id/usb-x:y".into()))
        );
    }
}
