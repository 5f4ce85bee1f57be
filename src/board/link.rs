//! What crosses the edge between the serial thread and the app: the
//! link's events and why a port could not be used.  Plain data, no I/O:
//! the sans-IO board session is fed them,
//! the app words them, and `transport` (the only module that touches
//! `serialport`) produces them, as `quinn-proto` owns the events that
//! `quinn` carries.

/// Why a port could not be used: the app words it in the player's
/// language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PortError {
    /// Nothing at that path (no board plugged in, or a wrong name).
    NoSuchDevice,
    /// The user may not open it (on Linux: not in the dialout group).
    PermissionDenied,
    /// Another program holds it.
    Busy,
    /// The path is not a serial port (a file, a directory).
    NotASerialPort,
    /// The port stopped working while open (a pulled cable).
    Gone,
    /// Something else; the system's own description.
    Other(String),
}

/// What happens on the link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkEvent {
    /// The port is open (first time, or back after a loss).  Whether a
    /// board answers on it is not known yet.
    Connected,
    /// Bytes read from the board, as they came (not whole messages).
    Bytes(Vec<u8>),
    /// The port could not be opened or went away; said once per loss.
    Disconnected(PortError),
}
