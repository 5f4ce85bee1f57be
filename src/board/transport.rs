//! The serial transport: the only module that touches `serialport`.
//!
//! A reader thread opens the port, passes every chunk of bytes it reads to a
//! callback (the app's channel), writes what the app asks it to, and when
//! the port goes away (a pulled cable) reports it once and tries to open it
//! again every second.  No protocol knowledge here: codecs are sans-IO.
//!
//! On Unix the thread sleeps in `poll(2)` on the port and on a pipe of its
//! own, with no timeout: it wakes when the board sends bytes, when the app
//! has bytes for the board (or the link is dropped: a byte on the pipe), and
//! never otherwise, so a board at rest costs no CPU.  Elsewhere (Windows)
//! it reads with a short timeout and looks at its queue between reads.

use std::io::{ErrorKind, Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

#[cfg(unix)]
use serialport::SerialPort;

pub use serialport::{DataBits, Parity, StopBits};

use super::link::{LinkEvent, PortError};

/// How often a lost port is tried again.
pub const RETRY_EVERY: Duration = Duration::from_secs(1);
/// How long one read waits before the thread looks at its out-queue where
/// it cannot sleep until bytes come (Windows), and how long a write may
/// wait for the port.
const READ_TIMEOUT: Duration = Duration::from_millis(20);

/// The port as this system opens it.
#[cfg(unix)]
type Port = serialport::TTYPort;
/// The port as this system opens it.
#[cfg(not(unix))]
type Port = serialport::COMPort;

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
    waker: Arc<Waker>,
    thread: Option<JoinHandle<()>>,
}

/// What wakes the reader thread besides the board: a byte on a pipe of its
/// own, written when bytes are queued for the board or the link ends.  At
/// most one byte waits on the pipe (`pending`), so a write to it never
/// blocks, however much is queued.
struct Waker {
    pending: AtomicBool,
    /// The pipe; `None` when it could not be made (no descriptors left):
    /// the thread then looks at its queue every [`READ_TIMEOUT`].
    #[cfg(unix)]
    pipe: Option<(std::io::PipeReader, std::io::PipeWriter)>,
}

impl Waker {
    fn new() -> Waker {
        Waker {
            pending: AtomicBool::new(false),
            #[cfg(unix)]
            pipe: std::io::pipe().ok(),
        }
    }

    /// Wake the thread (once, until it has looked).
    fn wake(&self) {
        if !self.pending.swap(true, Ordering::AcqRel) {
            #[cfg(unix)]
            if let Some((_, tx)) = &self.pipe {
                let _ = (&*tx).write(&[1]);
            }
        }
    }

    /// The thread is awake: the byte is taken, and the next wake writes
    /// another.  The queue is looked at after this.
    #[cfg(unix)]
    fn woken(&self) {
        if let Some((rx, _)) = &self.pipe {
            let _ = (&*rx).read(&mut [0u8; 8]);
        }
        self.pending.store(false, Ordering::Release);
    }
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
        let waker = Arc::new(Waker::new());
        let (stop2, waker2) = (Arc::clone(&stop), Arc::clone(&waker));
        let thread = std::thread::Builder::new()
            .name("board-link".into())
            .spawn(move || {
                let link = Thread {
                    out: &out_rx,
                    stop: &stop2,
                    waker: &waker2,
                };
                link.run(&path, settings, on_event);
            })
            .ok();
        Link {
            out,
            stop,
            waker,
            thread,
        }
    }

    /// Queue bytes for the board; never blocks.  Bytes queued while the
    /// port is away are dropped (the app asks for a full dump on return).
    pub fn send(&self, bytes: Vec<u8>) {
        if self.out.send(bytes).is_ok() {
            self.waker.wake();
        }
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Release);
        self.waker.wake();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn open(path: &str, s: PortSettings) -> Result<Port, PortError> {
    if let Some(e) = check_path(path) {
        return Err(e);
    }
    serialport::new(path, s.baud)
        .data_bits(s.data_bits)
        .parity(s.parity)
        .stop_bits(s.stop_bits)
        .timeout(READ_TIMEOUT)
        .open_native()
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

/// The reader thread's side of a [`Link`].
struct Thread<'a> {
    out: &'a Receiver<Vec<u8>>,
    stop: &'a AtomicBool,
    #[cfg_attr(not(unix), allow(dead_code, reason = "no wake pipe: timed reads"))]
    waker: &'a Waker,
}

/// Why serving an open port ended.
enum Served {
    /// The link is dropped, or the callback wants no more.
    Ended,
    /// The port went away.
    Lost(PortError),
}

impl Thread<'_> {
    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Acquire)
    }

    fn run<F>(&self, path: &str, settings: PortSettings, mut on_event: F)
    where
        F: FnMut(LinkEvent) -> bool,
    {
        let mut down_reported = false;
        while !self.stopped() {
            let mut port = match open(path, settings) {
                Ok(p) => p,
                Err(e) => {
                    if !down_reported {
                        down_reported = true;
                        if !on_event(LinkEvent::Disconnected(e)) {
                            return;
                        }
                    }
                    self.wait(RETRY_EVERY);
                    continue;
                }
            };
            // Anything queued while the port was away is stale.
            while self.out.try_recv().is_ok() {}
            if !on_event(LinkEvent::Connected) {
                return;
            }
            match self.serve(&mut port, &mut on_event) {
                Served::Ended => return,
                Served::Lost(why) => {
                    down_reported = true;
                    if !on_event(LinkEvent::Disconnected(why)) {
                        return;
                    }
                }
            }
            self.wait(RETRY_EVERY);
        }
    }

    /// Write what is queued for the board.
    fn write_queued(&self, port: &mut Port) -> Result<(), PortError> {
        while let Ok(bytes) = self.out.try_recv() {
            port.write_all(&bytes)
                .and_then(|()| port.flush())
                .map_err(|e| io_error(&e))?;
        }
        Ok(())
    }

    /// One read from a port that has bytes (or has gone): `Err` when it
    /// went away, `Ok(false)` when the callback wants no more.
    fn read_once<F>(
        port: &mut Port,
        buf: &mut [u8],
        hung_up: bool,
        on_event: &mut F,
    ) -> Result<bool, PortError>
    where
        F: FnMut(LinkEvent) -> bool,
    {
        match port.read(buf) {
            Ok(0) if hung_up => Err(PortError::Gone),
            Ok(0) => Ok(true),
            Ok(n) => Ok(on_event(LinkEvent::Bytes(buf[..n].to_vec()))),
            Err(e) if e.kind() == ErrorKind::TimedOut || e.kind() == ErrorKind::Interrupted => {
                if hung_up {
                    Err(PortError::Gone)
                } else {
                    Ok(true)
                }
            }
            Err(e) => Err(io_error(&e)),
        }
    }
}

#[cfg(unix)]
impl Thread<'_> {
    /// Serve an open port: sleep in `poll(2)` until the board sends bytes
    /// or the app wakes the thread (bytes to write, the end), with no
    /// timeout.
    fn serve<F>(&self, port: &mut Port, on_event: &mut F) -> Served
    where
        F: FnMut(LinkEvent) -> bool,
    {
        use rustix::event::{PollFd, PollFlags, poll};
        let Ok(fd) = descriptor(port) else {
            return self.serve_timed(port, on_event);
        };
        let Some((wake, _)) = &self.waker.pipe else {
            return self.serve_timed(port, on_event);
        };
        let mut buf = [0u8; 512];
        loop {
            if self.stopped() {
                return Served::Ended;
            }
            if let Err(e) = self.write_queued(port) {
                return Served::Lost(e);
            }
            let mut fds = [
                PollFd::new(&fd, PollFlags::IN),
                PollFd::new(wake, PollFlags::IN),
            ];
            match poll(&mut fds, None) {
                Ok(_) => {}
                Err(rustix::io::Errno::INTR) => continue,
                Err(e) => return Served::Lost(PortError::Other(e.to_string())),
            }
            let (board, woken) = (fds[0].revents(), fds[1].revents());
            if !woken.is_empty() {
                self.waker.woken();
            }
            if board.is_empty() {
                continue;
            }
            let hung_up = board.intersects(PollFlags::HUP | PollFlags::ERR | PollFlags::NVAL);
            match Self::read_once(port, &mut buf, hung_up, on_event) {
                Ok(true) => {}
                Ok(false) => return Served::Ended,
                Err(e) => return Served::Lost(e),
            }
        }
    }

    /// Wait `total` before the port is tried again, woken early only by
    /// the end.
    fn wait(&self, total: Duration) {
        use rustix::event::{PollFd, PollFlags, Timespec, poll};
        let Some((wake, _)) = &self.waker.pipe else {
            return sleep_unless_stopped(self.stop, total);
        };
        let until = Instant::now() + total;
        while !self.stopped() {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return;
            }
            let timeout = Timespec {
                tv_sec: i64::try_from(left.as_secs()).unwrap_or(i64::MAX),
                tv_nsec: i64::from(left.subsec_nanos()),
            };
            let mut fds = [PollFd::new(wake, PollFlags::IN)];
            match poll(&mut fds, Some(&timeout)) {
                Ok(_) if !fds[0].revents().is_empty() => self.waker.woken(),
                Ok(_) | Err(rustix::io::Errno::INTR) => {}
                Err(_) => return sleep_unless_stopped(self.stop, left),
            }
        }
    }
}

#[cfg(not(unix))]
impl Thread<'_> {
    fn serve<F>(&self, port: &mut Port, on_event: &mut F) -> Served
    where
        F: FnMut(LinkEvent) -> bool,
    {
        self.serve_timed(port, on_event)
    }

    fn wait(&self, total: Duration) {
        sleep_unless_stopped(self.stop, total);
    }
}

impl Thread<'_> {
    /// Serve an open port reading with a short timeout, the queue looked
    /// at between reads (where the thread cannot sleep until bytes come).
    fn serve_timed<F>(&self, port: &mut Port, on_event: &mut F) -> Served
    where
        F: FnMut(LinkEvent) -> bool,
    {
        let mut buf = [0u8; 512];
        loop {
            if self.stopped() {
                return Served::Ended;
            }
            if let Err(e) = self.write_queued(port) {
                return Served::Lost(e);
            }
            match Self::read_once(port, &mut buf, false, on_event) {
                Ok(true) => {}
                Ok(false) => return Served::Ended,
                Err(e) => return Served::Lost(e),
            }
        }
    }
}

fn sleep_unless_stopped(stop: &AtomicBool, total: Duration) {
    let step = READ_TIMEOUT;
    let mut waited = Duration::ZERO;
    while waited < total && !stop.load(Ordering::Acquire) {
        std::thread::sleep(step);
        waited += step;
    }
}

/// A copy of the port's descriptor to wait on (the library gives only
/// the raw number).
#[cfg(unix)]
#[allow(unsafe_code)] // Descriptor duplication; see the SAFETY note.
fn descriptor(port: &Port) -> std::io::Result<std::os::fd::OwnedFd> {
    use std::os::fd::{AsRawFd, BorrowedFd};
    // SAFETY: the descriptor is open and owned by `port`, which outlives
    // the borrow.  `try_clone_to_owned` duplicates it with F_DUPFD_CLOEXEC.
    unsafe { BorrowedFd::borrow_raw(port.as_raw_fd()) }.try_clone_to_owned()
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
    let deadline = Instant::now() + wait;
    let mut got = Vec::new();
    let mut buf = [0u8; 512];
    while Instant::now() < deadline {
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

    /// The context switches of this process's threads named `name`, by
    /// thread id.
    #[cfg(target_os = "linux")]
    fn switches(name: &str) -> std::collections::HashMap<String, u64> {
        let mut out = std::collections::HashMap::new();
        for t in std::fs::read_dir("/proc/self/task")
            .into_iter()
            .flatten()
            .flatten()
        {
            let comm = std::fs::read_to_string(t.path().join("comm")).unwrap_or_default();
            if comm.trim() != name {
                continue;
            }
            let status = std::fs::read_to_string(t.path().join("status")).unwrap_or_default();
            let n: u64 = status
                .lines()
                .filter(|l| l.contains("ctxt_switches"))
                .filter_map(|l| l.split_whitespace().last()?.parse::<u64>().ok())
                .sum();
            out.insert(t.file_name().to_string_lossy().into_owned(), n);
        }
        out
    }

    /// Issue 32, item 1: the reader woke every 20 ms though no byte came
    /// (about 50 context switches a second).  It sleeps until the board
    /// sends bytes or the app has bytes for it, and both still pass at once.
    #[cfg(target_os = "linux")]
    #[test]
    fn an_idle_link_sleeps_until_bytes_come() {
        let _g = PTY_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let before = switches("board-link");
        let (mut master, path) = pseudo_terminal().unwrap();
        let (tx, rx) = mpsc::channel();
        let link = Link::spawn(path, SETTINGS, move |e| tx.send(e).is_ok());
        wait_for(&rx, |e| *e == LinkEvent::Connected);
        std::thread::sleep(Duration::from_millis(100));
        let ours: Vec<String> = switches("board-link")
            .into_keys()
            .filter(|t| !before.contains_key(t))
            .collect();
        assert_eq!(ours.len(), 1, "one new reader thread");
        let at = |t: &str| switches("board-link").get(t).copied().unwrap_or(0);
        let start = at(&ours[0]);
        std::thread::sleep(Duration::from_secs(1));
        let idle = at(&ours[0]) - start;
        assert!(idle <= 2, "{idle} wake-ups in an idle second");
        // Bytes from the board and for it still pass at once.
        let t = Instant::now();
        master.write_all(b"x").unwrap();
        wait_for(&rx, |e| matches!(e, LinkEvent::Bytes(_)));
        link.send(vec![0x42]);
        master.set_timeout(Duration::from_secs(2)).unwrap();
        let mut one = [0u8; 1];
        master.read_exact(&mut one).unwrap();
        assert_eq!(one, [0x42]);
        assert!(
            t.elapsed() < Duration::from_millis(500),
            "{:?}",
            t.elapsed()
        );
        // Dropping the link ends the sleeping thread at once.
        let t = Instant::now();
        drop(link);
        assert!(
            t.elapsed() < Duration::from_millis(500),
            "{:?}",
            t.elapsed()
        );
    }

    #[test]
    fn a_missing_port_is_reported_once_and_retried() {
        // Under the lock too: the idle test counts the readers it finds.
        let _g = PTY_LOCK.lock().unwrap_or_else(|e| e.into_inner());
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
