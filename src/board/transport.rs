//! The serial transport: the only module that touches `serialport`.
//!
//! A reader thread opens the port, passes every chunk of bytes it reads to a
//! callback (the app's channel), writes what the app asks it to, and when
//! the port goes away (a pulled cable) reports it once and tries to open it
//! again every second.  No protocol knowledge here: codecs are sans-IO.

use std::io::{ErrorKind, Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

#[cfg(unix)]
use serialport::SerialPort;

pub use serialport::{DataBits, Parity, StopBits};

use super::link::{LinkEvent, PortError};

/// How often a lost port is tried again.
pub const RETRY_EVERY: Duration = Duration::from_secs(1);
/// How long one read waits before the thread looks at its out-queue.
const READ_TIMEOUT: Duration = Duration::from_millis(20);

/// Line settings of a serial port.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PortSettings {
    /// The speed, in bits per second.
    pub baud: u32,
    /// Data bits per character.
    pub data_bits: DataBits,
    /// The parity bit.
    pub parity: Parity,
    /// Stop bits per character.
    pub stop_bits: StopBits,
}

impl PortSettings {
    /// The settings of a hardware file.
    pub fn from_description(s: &super::hardware::SerialSettings) -> PortSettings {
        use super::hardware::Parity as P;
        PortSettings {
            baud: s.baud.get(),
            data_bits: match s.data_bits.get() {
                5 => DataBits::Five,
                6 => DataBits::Six,
                7 => DataBits::Seven,
                _ => DataBits::Eight,
            },
            parity: match s.parity {
                P::None => Parity::None,
                P::Odd => Parity::Odd,
                P::Even => Parity::Even,
            },
            stop_bits: if s.stop_bits.get() == 2 {
                StopBits::Two
            } else {
                StopBits::One
            },
        }
    }
}

/// Why a port failed, from an error of the serial port library.
fn serial_error(e: &serialport::Error) -> PortError {
    match e.kind() {
        serialport::ErrorKind::Io(ErrorKind::NotFound) => PortError::NoSuchDevice,
        serialport::ErrorKind::Io(ErrorKind::PermissionDenied) => PortError::PermissionDenied,
        // The library reports a port locked by another program (EBUSY)
        // as "no device".
        serialport::ErrorKind::NoDevice => PortError::Busy,
        _ => PortError::Other(e.description.clone()),
    }
}

/// Why a port failed, from an I/O error on an open port.
fn io_error(e: &std::io::Error) -> PortError {
    match e.kind() {
        ErrorKind::NotFound => PortError::NoSuchDevice,
        ErrorKind::PermissionDenied => PortError::PermissionDenied,
        _ => PortError::Gone,
    }
}

/// A Windows port that could not be opened, "no device": held by
/// another program when Windows lists it, else missing.
fn windows_no_device(path: &str, listed: &[String]) -> PortError {
    let bare = |p: &str| p.trim_start_matches(r"\\.\").to_ascii_uppercase();
    if listed.iter().any(|l| bare(l) == bare(path)) {
        PortError::Busy
    } else {
        PortError::NoSuchDevice
    }
}

/// What the file system says about `path` before opening it: a
/// missing path or one that is no device is known without the library.
fn check_path(path: &str) -> Option<PortError> {
    if cfg!(not(unix)) {
        return None;
    }
    match std::fs::metadata(path) {
        Err(e) if e.kind() == ErrorKind::NotFound => Some(PortError::NoSuchDevice),
        Err(e) if e.kind() == ErrorKind::PermissionDenied => Some(PortError::PermissionDenied),
        Ok(m) if m.is_file() || m.is_dir() => Some(PortError::NotASerialPort),
        _ => None,
    }
}

/// A running link to one port.  Dropping it stops the thread.
pub struct Link {
    out: Sender<Vec<u8>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Link {
    /// Start the reader thread for `path`.  `on_event` is called from that
    /// thread; when it returns false the thread ends.
    pub fn spawn<F>(path: String, settings: PortSettings, on_event: F) -> Link
    where
        F: FnMut(LinkEvent) -> bool + Send + 'static,
    {
        let (out, out_rx) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let stop2 = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("board-link".into())
            .spawn(move || run(&path, settings, &out_rx, &stop2, on_event))
            .ok();
        Link { out, stop, thread }
    }

    /// Queue bytes for the board; never blocks.  Bytes queued while the
    /// port is away are dropped (the app asks for a full dump on return).
    pub fn send(&self, bytes: Vec<u8>) {
        let _ = self.out.send(bytes);
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn open(path: &str, s: PortSettings) -> Result<Box<dyn serialport::SerialPort>, PortError> {
    if let Some(e) = check_path(path) {
        return Err(e);
    }
    serialport::new(path, s.baud)
        .data_bits(s.data_bits)
        .parity(s.parity)
        .stop_bits(s.stop_bits)
        .timeout(READ_TIMEOUT)
        .open()
        .map_err(|e| match e.kind() {
            // Opened, but the terminal settings cannot be set: no tty.
            serialport::ErrorKind::Unknown
                if e.description.contains("ioctl") || e.description.contains("typewriter") =>
            {
                PortError::NotASerialPort
            }
            // Windows answers a missing port and one another program holds
            // alike (the library makes both "no device").
            serialport::ErrorKind::NoDevice if cfg!(windows) => {
                let listed: Vec<String> = serialport::available_ports()
                    .map(|ports| ports.into_iter().map(|p| p.port_name).collect())
                    .unwrap_or_default();
                windows_no_device(path, &listed)
            }
            _ => serial_error(&e),
        })
}

fn sleep_unless_stopped(stop: &AtomicBool, total: Duration) {
    let step = Duration::from_millis(20);
    let mut waited = Duration::ZERO;
    while waited < total && !stop.load(Ordering::Relaxed) {
        std::thread::sleep(step);
        waited += step;
    }
}

fn run<F>(
    path: &str,
    settings: PortSettings,
    out: &Receiver<Vec<u8>>,
    stop: &AtomicBool,
    mut on_event: F,
) where
    F: FnMut(LinkEvent) -> bool,
{
    let mut down_reported = false;
    let mut buf = [0u8; 512];
    while !stop.load(Ordering::Relaxed) {
        let mut port = match open(path, settings) {
            Ok(p) => p,
            Err(e) => {
                if !down_reported {
                    down_reported = true;
                    if !on_event(LinkEvent::Disconnected(e)) {
                        return;
                    }
                }
                sleep_unless_stopped(stop, RETRY_EVERY);
                continue;
            }
        };
        // Anything queued while the port was away is stale.
        while out.try_recv().is_ok() {}
        if !on_event(LinkEvent::Connected) {
            return;
        }
        let why = loop {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            let mut write_error = None;
            while let Ok(bytes) = out.try_recv() {
                if let Err(e) = port.write_all(&bytes).and_then(|()| port.flush()) {
                    write_error = Some(io_error(&e));
                    break;
                }
            }
            if let Some(e) = write_error {
                break e;
            }
            match port.read(&mut buf) {
                Ok(0) => {}
                Ok(n) => {
                    if !on_event(LinkEvent::Bytes(buf[..n].to_vec())) {
                        return;
                    }
                }
                Err(e) if e.kind() == ErrorKind::TimedOut || e.kind() == ErrorKind::Interrupted => {
                }
                Err(e) => break io_error(&e),
            }
        };
        down_reported = true;
        if !on_event(LinkEvent::Disconnected(why)) {
            return;
        }
        sleep_unless_stopped(stop, RETRY_EVERY);
    }
}

/// Open `path`, send `request`, and collect what the port answers within
/// `wait` (for probing which protocol a board speaks).
pub fn exchange(
    path: &str,
    settings: PortSettings,
    request: &[u8],
    wait: Duration,
) -> Result<Vec<u8>, PortError> {
    let mut port = open(path, settings)?;
    port.write_all(request)
        .and_then(|()| port.flush())
        .map_err(|e| io_error(&e))?;
    let deadline = std::time::Instant::now() + wait;
    let mut got = Vec::new();
    let mut buf = [0u8; 512];
    while std::time::Instant::now() < deadline {
        match port.read(&mut buf) {
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == ErrorKind::TimedOut || e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(io_error(&e)),
        }
    }
    Ok(got)
}

/// The master end of a `pseudo_terminal`: what a simulated board reads
/// requests from and writes its messages into.
pub struct Master(Box<dyn serialport::SerialPort>);

impl Master {
    /// Read what is there, waiting at most `wait`; `Ok(0)` when nothing came.
    pub fn read_within(&mut self, buf: &mut [u8], wait: Duration) -> std::io::Result<usize> {
        self.0.set_timeout(wait).map_err(std::io::Error::other)?;
        match self.0.read(buf) {
            Ok(n) => Ok(n),
            Err(e) if e.kind() == ErrorKind::TimedOut || e.kind() == ErrorKind::Interrupted => {
                Ok(0)
            }
            Err(e) => Err(e),
        }
    }

    /// Write all of `bytes`.
    pub fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.0.write_all(bytes)?;
        self.0.flush()
    }
}

/// A `pseudo_terminal` with its master wrapped.
#[cfg(unix)]
pub fn pseudo_board() -> Result<(Master, String), String> {
    pseudo_terminal().map(|(m, path)| (Master(Box::new(m)), path))
}

/// Pseudo-terminals are a Unix device: elsewhere there is no simulated board
/// to plug in (a real board, or a virtual serial port pair, is needed).
#[cfg(not(unix))]
pub fn pseudo_board() -> Result<(Master, String), String> {
    Err(NO_PSEUDO_TERMINAL.to_owned())
}

/// Why the board simulator cannot start on this system.
#[cfg(not(unix))]
pub const NO_PSEUDO_TERMINAL: &str =
    "the board simulator needs a Unix pseudo-terminal; this system has none";

/// The serial ports of this machine, with a description where one is known.
pub fn list_ports() -> Result<Vec<(String, String)>, String> {
    let ports = serialport::available_ports().map_err(|e| e.to_string())?;
    Ok(ports
        .into_iter()
        .map(|p| {
            let what = match p.port_type {
                serialport::SerialPortType::UsbPort(u) => format!(
                    "USB {:04x}:{:04x}{}",
                    u.vid,
                    u.pid,
                    u.product.map(|s| format!(" {s}")).unwrap_or_default()
                ),
                serialport::SerialPortType::BluetoothPort => "Bluetooth".to_owned(),
                serialport::SerialPortType::PciPort => "PCI".to_owned(),
                serialport::SerialPortType::Unknown => "serial".to_owned(),
            };
            (p.port_name, what)
        })
        .collect())
}

/// A pseudo-terminal pair standing in for a board: the master end for a
/// simulator, and the slave's path that hector opens like a real port.
/// `pair()` is not safe to call from several threads at once; callers in
/// tests serialise it.
#[cfg(unix)]
pub fn pseudo_terminal() -> Result<(serialport::TTYPort, String), String> {
    let (master, slave) = serialport::TTYPort::pair().map_err(|e| e.to_string())?;
    let name = slave
        .name()
        .ok_or_else(|| "the pseudo-terminal has no name".to_owned())?;
    // The slave handle is dropped: hector opens the path itself.  The pair
    // stays alive as long as the master is open.
    drop(slave);
    Ok((close_on_exec(master)?, name))
}

/// The same port on a descriptor that programs started later do not
/// inherit: `pair()` opens the master without `O_CLOEXEC`, and a copy held
/// by a child process would keep the "cable" plugged in after the
/// simulator closed its end.
#[cfg(unix)]
#[allow(unsafe_code)] // Descriptor duplication; see the SAFETY notes.
fn close_on_exec(port: serialport::TTYPort) -> Result<serialport::TTYPort, String> {
    use std::os::fd::{AsRawFd, BorrowedFd, FromRawFd, IntoRawFd};
    // SAFETY: the descriptor is open and owned by `port`, which outlives
    // the borrow.  `try_clone_to_owned` duplicates it with F_DUPFD_CLOEXEC.
    let copy = unsafe { BorrowedFd::borrow_raw(port.as_raw_fd()) }
        .try_clone_to_owned()
        .map_err(|e| e.to_string())?;
    drop(port);
    // SAFETY: `copy` is an open descriptor owned by nothing else; the
    // TTYPort takes it over and closes it when dropped.
    Ok(unsafe { serialport::TTYPort::from_raw_fd(copy.into_raw_fd()) })
}

#[cfg(all(test, unix))] // Unix only: every test here plugs a pseudo-terminal in
mod tests {
    use super::*;
    use std::sync::Mutex;
    use std::time::Instant;

    /// `TTYPort::pair` must not run on several threads at once.
    pub static PTY_LOCK: Mutex<()> = Mutex::new(());

    const SETTINGS: PortSettings = PortSettings {
        baud: 9600,
        data_bits: DataBits::Eight,
        parity: Parity::None,
        stop_bits: StopBits::One,
    };

    fn wait_for(rx: &Receiver<LinkEvent>, want: impl Fn(&LinkEvent) -> bool) -> Vec<LinkEvent> {
        let deadline = Instant::now() + Duration::from_secs(5);
        let mut seen = Vec::new();
        while Instant::now() < deadline {
            if let Ok(e) = rx.recv_timeout(Duration::from_millis(50)) {
                let done = want(&e);
                seen.push(e);
                if done {
                    return seen;
                }
            }
        }
        panic!("event not seen; got {seen:?}");
    }

    #[test]
    fn bytes_both_ways_then_pulled_cable_is_reported() {
        let _g = PTY_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let (mut master, path) = pseudo_terminal().unwrap();
        let (tx, rx) = mpsc::channel();
        let link = Link::spawn(path, SETTINGS, move |e| tx.send(e).is_ok());
        wait_for(&rx, |e| *e == LinkEvent::Connected);

        master.write_all(b"hello").unwrap();
        let mut got = Vec::new();
        for e in wait_for(&rx, |e| matches!(e, LinkEvent::Bytes(_))) {
            if let LinkEvent::Bytes(b) = e {
                got.extend(b);
            }
        }
        assert!(b"hello".starts_with(&got) && !got.is_empty(), "{got:?}");

        link.send(vec![0x42]);
        master.set_timeout(Duration::from_secs(2)).unwrap();
        let mut one = [0u8; 1];
        master.read_exact(&mut one).unwrap();
        assert_eq!(one, [0x42]);

        drop(master);
        let seen = wait_for(&rx, |e| matches!(e, LinkEvent::Disconnected(_)));
        assert!(matches!(seen.last(), Some(LinkEvent::Disconnected(_))));
        drop(link);
    }

    #[test]
    fn a_missing_port_is_reported_once_and_retried() {
        let (tx, rx) = mpsc::channel();
        let link = Link::spawn("/dev/hector-no-such-port".into(), SETTINGS, move |e| {
            tx.send(e).is_ok()
        });
        let first = rx.recv_timeout(Duration::from_secs(2)).unwrap();
        assert_eq!(first, LinkEvent::Disconnected(PortError::NoSuchDevice));
        // Two retries later, still only the one report.
        assert!(
            rx.recv_timeout(RETRY_EVERY * 2 + Duration::from_millis(300))
                .is_err()
        );
        drop(link);
    }

    #[test]
    fn why_a_port_cannot_be_opened() {
        assert_eq!(
            open("/dev/hector-no-such-port", SETTINGS).err(),
            Some(PortError::NoSuchDevice)
        );
        assert_eq!(open("/", SETTINGS).err(), Some(PortError::NotASerialPort));
        let file = std::env::temp_dir().join(format!("hector-not-a-port-{}", std::process::id()));
        std::fs::write(&file, b"x").unwrap();
        let got = open(&file.to_string_lossy(), SETTINGS).err();
        let _ = std::fs::remove_file(&file);
        assert_eq!(got, Some(PortError::NotASerialPort));
        // /dev/null is a device but no terminal.
        assert_eq!(
            open("/dev/null", SETTINGS).err(),
            Some(PortError::NotASerialPort)
        );
    }
}

#[cfg(test)]
mod port_error_tests {
    use super::{PortError, windows_no_device};

    #[test]
    fn a_windows_port_that_is_listed_is_held_else_missing() {
        let listed = ["COM3".to_owned(), r"\\.\COM12".to_owned()];
        assert_eq!(windows_no_device("COM3", &listed), PortError::Busy);
        assert_eq!(windows_no_device(r"\\.\com12", &listed), PortError::Busy);
        assert_eq!(windows_no_device("COM4", &listed), PortError::NoSuchDevice);
        assert_eq!(windows_no_device("COM3", &[]), PortError::NoSuchDevice);
    }
}
