//! The board commands of the command line: `hector board list`, `hector board probe PORT` and the simulator
//! `hector board sim`.  The serial port itself is only touched through
//! [`transport`].

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use shakmaty::{Board, Chess, Color, Piece, Position, Square};

use super::dgt_clock::{ClockReading, ClockSide};
use super::event::{BoardEvent, Decoder};
use super::hardware::{self, BoardDescription};
use super::link::PortError;
use super::protocol::{Command, Protocol};
use super::sim::{HandStep, SimBoard};
use super::transport::{self, Master, PortSettings};
use crate::notation::Reader;
use crate::words::vocab::{self, Lang};

/// How long a probe waits for an answer.
pub const PROBE_WAIT: Duration = Duration::from_millis(500);

/// What probing a port found.
#[derive(Debug, Clone, PartialEq)]
pub enum Probed {
    /// A board of this description answered.
    Found(BoardDescription),
    /// The port opened, but no protocol answered.
    NoAnswer,
    /// The port could not be opened.
    CannotOpen(PortError),
}

/// The built-in description of `protocol` (every protocol has one: the
/// built-in files are tested to parse).
pub fn description(protocol: Protocol) -> Option<BoardDescription> {
    hardware::builtin(protocol)
}

/// Whether `bytes` hold at least one valid message of `protocol`.
pub fn answers(protocol: Protocol, bytes: &[u8]) -> bool {
    protocol
        .decoder()
        .feed(bytes)
        .iter()
        .any(|e| !matches!(e, BoardEvent::Garbage { .. }))
}

/// Try `protocol` on the port at `path`: whether it answered.
pub fn probe_with(path: &str, description: &BoardDescription) -> Result<bool, PortError> {
    let p = description.protocol;
    let mut request = p.encode(Command::Version);
    request.extend(p.encode(Command::SendBoard));
    let settings = PortSettings::from_description(&description.serial);
    transport::exchange(path, settings, &request, PROBE_WAIT).map(|bytes| answers(p, &bytes))
}

/// Which protocol answers on the port at `path` (the first that does).
pub fn probe(path: &str) -> Probed {
    for d in hardware::builtins() {
        match probe_with(path, &d) {
            Ok(true) => return Probed::Found(d),
            Ok(false) => {}
            Err(e) => return Probed::CannotOpen(e),
        }
    }
    Probed::NoAnswer
}

/// Find a board: the first port whose name fits a board's device names
/// and that answers that board's protocol.
pub fn find_board() -> Option<(BoardDescription, String)> {
    let ports = transport::list_ports().ok()?;
    for (port, _) in ports {
        for d in hardware::builtins() {
            if d.matches_device(&port) && probe_with(&port, &d) == Ok(true) {
                return Some((d, port));
            }
        }
    }
    None
}

/// `hector board list`: one line per serial port (none when there is
/// none: the command says so in the player's language).
pub fn list_lines() -> Result<Vec<String>, String> {
    let ports = transport::list_ports()?;
    Ok(ports
        .into_iter()
        .map(|(name, what)| format!("{name}: {what}"))
        .collect())
}

/// What the simulator does with one line typed or scripted.
#[derive(Debug, Clone, PartialEq, Eq)]
enum SimCommand {
    Move(String),
    Unplug,
    Plug,
    Garbage(usize),
    Put(Square, Piece),
    Clear(Square),
    New,
    Dump,
    Quit,
    /// A DGT 3000 on the board shows this (DGT only).
    Clock(ClockReading),
}

/// `M:SS` or `H:MM:SS`.
fn clock_time(w: &str) -> Option<Duration> {
    let parts: Vec<u64> = w
        .split(':')
        .map(|p| p.parse().ok())
        .collect::<Option<_>>()?;
    let secs = match parts.as_slice() {
        [m, s] if *s < 60 => m * 60 + s,
        [h, m, s] if *m < 60 && *s < 60 => h * 3600 + m * 60 + s,
        _ => return None,
    };
    Some(Duration::from_secs(secs))
}

/// `clock LEFT RIGHT left|right|stop [flag left|right]`.
fn clock_line(words: &[&str]) -> Option<ClockReading> {
    let [left, right, lever, rest @ ..] = words else {
        return None;
    };
    let (running, high) = match *lever {
        "left" => (true, ClockSide::Left),
        "right" => (true, ClockSide::Right),
        "stop" => (false, ClockSide::Left),
        _ => return None,
    };
    let flag = match rest {
        [] => None,
        ["flag", "left"] => Some(ClockSide::Left),
        ["flag", "right"] => Some(ClockSide::Right),
        _ => return None,
    };
    Some(ClockReading {
        left: clock_time(left)?,
        right: clock_time(right)?,
        left_flag: flag == Some(ClockSide::Left),
        right_flag: flag == Some(ClockSide::Right),
        running,
        high,
        battery_low: false,
    })
}

fn parse_sim_line(line: &str) -> Option<SimCommand> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let square = |w: &str| w.parse::<Square>().ok();
    Some(match words.as_slice() {
        [] => return None,
        [w, ..] if w.starts_with('#') => return None,
        ["unplug"] => SimCommand::Unplug,
        ["plug"] => SimCommand::Plug,
        ["garbage", n] => SimCommand::Garbage(n.parse().ok()?),
        ["put", sq, p] => {
            let c = p.chars().next()?;
            SimCommand::Put(square(sq)?, Piece::from_char(c)?)
        }
        ["clear", sq] => SimCommand::Clear(square(sq)?),
        ["new"] => SimCommand::New,
        ["dump"] => SimCommand::Dump,
        ["quit"] => SimCommand::Quit,
        // A wrong clock line is said as not a command.
        ["clock", rest @ ..] if clock_line(rest).is_some() => SimCommand::Clock(clock_line(rest)?),
        _ => SimCommand::Move(line.trim().to_owned()),
    })
}

/// Settings of `hector board sim`.
#[derive(Debug, Clone)]
pub struct SimOptions {
    /// The protocol the simulated board speaks.
    pub protocol: Protocol,
    /// Keep a symbolic link here pointing at the current device.
    pub link: Option<PathBuf>,
    /// Play these lines first (moves and commands).
    pub script: Option<PathBuf>,
    /// Set sliding pieces down on every square they cross.
    pub slide: bool,
    /// Seconds between scripted lines.
    pub pace: Duration,
}

/// Noise for `garbage N`: a fixed pseudo-random sequence (no clock, so a
/// demo can be repeated byte for byte).
fn noise(n: usize, seed: &mut u32) -> Vec<u8> {
    (0..n)
        .map(|_| {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 17;
            *seed ^= *seed << 5;
            // Bytes a decoder cannot take for a message start.
            (*seed & 0x3f) as u8 | 0x20
        })
        .collect()
}

fn point_link(link: &Path, target: &str) -> Result<(), String> {
    let _ = std::fs::remove_file(link);
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(target, link).map_err(|e| format!("{}: {e}", link.display()))
    }
    #[cfg(not(unix))]
    {
        let _ = target;
        Err("--link needs a Unix system".to_owned())
    }
}

fn sim_reader() -> Reader {
    let languages: Vec<(Lang, vocab::MoveWords)> = Lang::ALL
        .into_iter()
        .map(|l| (l, vocab::builtin(l).moves))
        .collect();
    Reader::new(vocab::builtin_appendix_d().moves, languages, Lang::En)
}

/// The simulated board's state.
struct Sim {
    options: SimOptions,
    board: SimBoard,
    position: Chess,
    reader: Reader,
    master: Option<Master>,
    seed: u32,
}

impl Sim {
    fn open(&mut self) -> Result<(), String> {
        let (master, path) = transport::pseudo_board()?;
        self.master = Some(master);
        match &self.options.link {
            Some(link) => {
                point_link(link, &path)?;
                println!("Simulated board at {path}, linked from {}", link.display());
            }
            None => println!("Simulated board at {path}"),
        }
        Ok(())
    }

    fn send(&mut self, bytes: &[u8]) {
        if let Some(m) = &mut self.master
            && m.write_all(bytes).is_err()
        {
            // Nobody reads the other end yet; the dump is asked for later.
        }
    }

    /// Answer the requests waiting on the master.
    fn serve(&mut self, wait: Duration) {
        let Some(m) = &mut self.master else {
            std::thread::sleep(wait);
            return;
        };
        let mut buf = [0u8; 256];
        match m.read_within(&mut buf, wait) {
            Ok(0) => {}
            Ok(n) => {
                let answer = self.board.answer(&buf[..n]);
                self.send(&answer);
            }
            // No program has the device open (yet): nothing to answer.
            Err(_) => std::thread::sleep(wait),
        }
    }

    /// Carry out one line; false to stop.
    fn line(&mut self, line: &str) -> bool {
        let Some(command) = parse_sim_line(line) else {
            return true;
        };
        match command {
            SimCommand::Quit => return false,
            SimCommand::Unplug => {
                self.master = None;
                println!("Unplugged.");
            }
            SimCommand::Plug => {
                if self.master.is_none()
                    && let Err(e) = self.open()
                {
                    println!("Cannot plug in: {e}");
                }
            }
            SimCommand::Garbage(n) => {
                // Ended by a newline: a text protocol loses the noisy line,
                // not the next message.
                let mut bytes = noise(n, &mut self.seed);
                bytes.push(b'\n');
                self.send(&bytes);
            }
            SimCommand::Put(sq, piece) => {
                let bytes = self.board.act(HandStep::Place(sq, piece));
                self.send(&bytes);
            }
            SimCommand::Clear(sq) => {
                let bytes = self.board.act(HandStep::Lift(sq));
                self.send(&bytes);
            }
            SimCommand::New => {
                self.position = Chess::default();
                let bytes = self.board.set_board(Board::new());
                self.send(&bytes);
            }
            SimCommand::Dump => {
                let bytes = self.board.dump();
                self.send(&bytes);
            }
            SimCommand::Clock(reading) => {
                let bytes = self.board.clock(&reading);
                if bytes.is_empty() {
                    println!("Only a DGT board has a clock.");
                }
                self.send(&bytes);
            }
            SimCommand::Move(text) => match self.reader.read(&text, &self.position) {
                Ok(m) => {
                    if self.board.board() != self.position.board() {
                        // A wrong placement was made: start from the game.
                        let bytes = self.board.set_board(self.position.board().clone());
                        self.send(&bytes);
                    }
                    for bytes in self.board.play(&self.position, m, self.options.slide) {
                        self.send(&bytes);
                    }
                    self.position.play_unchecked(m);
                    let side = match self.position.turn() {
                        Color::White => "White",
                        Color::Black => "Black",
                    };
                    println!("Played {text}. {side} to move.");
                }
                Err(_) => println!("Not a move here or not a command: {text}"),
            },
        }
        true
    }
}

/// `hector board sim`: a board on a pseudo-terminal, driven by the lines
/// of `input` (standard input) after the script.
pub fn run_sim(options: SimOptions, input: impl BufRead + Send + 'static) -> Result<(), String> {
    let mut sim = Sim {
        board: SimBoard::new(options.protocol, Board::new()),
        position: Chess::default(),
        reader: sim_reader(),
        master: None,
        seed: 0x9e37_79b9,
        options,
    };
    sim.open()?;
    let script: Vec<String> = match &sim.options.script {
        Some(path) => std::fs::read_to_string(path)
            .map_err(|e| format!("{}: {e}", path.display()))?
            .lines()
            .map(str::to_owned)
            .collect(),
        None => Vec::new(),
    };
    let (tx, rx) = mpsc::channel::<Option<String>>();
    std::thread::spawn(move || {
        for line in input.lines() {
            match line {
                Ok(l) => {
                    if tx.send(Some(l)).is_err() {
                        return;
                    }
                }
                Err(_) => break,
            }
        }
        let _ = tx.send(None);
    });
    for line in script {
        let until = std::time::Instant::now() + sim.options.pace;
        while std::time::Instant::now() < until {
            sim.serve(Duration::from_millis(20));
        }
        if !sim.line(&line) {
            return Ok(());
        }
    }
    loop {
        sim.serve(Duration::from_millis(20));
        match rx.try_recv() {
            Ok(Some(line)) => {
                if !sim.line(&line) {
                    return Ok(());
                }
            }
            Ok(None) | Err(mpsc::TryRecvError::Disconnected) => return Ok(()),
            Err(mpsc::TryRecvError::Empty) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sim_lines() {
        assert_eq!(parse_sim_line("  "), None);
        assert_eq!(parse_sim_line("# comment"), None);
        assert_eq!(parse_sim_line("garbage 12"), Some(SimCommand::Garbage(12)));
        assert_eq!(
            parse_sim_line("put e4 P"),
            Some(SimCommand::Put(Square::E4, Color::White.pawn()))
        );
        assert_eq!(
            parse_sim_line("clear a1"),
            Some(SimCommand::Clear(Square::A1))
        );
        assert_eq!(parse_sim_line("Nf3"), Some(SimCommand::Move("Nf3".into())));
        assert_eq!(parse_sim_line("put e9 P"), None);
        let clock = |l: &str| match parse_sim_line(l) {
            Some(SimCommand::Clock(r)) => Some(r),
            _ => None,
        };
        let r = clock("clock 5:00 1:30:05 right flag left").unwrap_or_else(|| panic!("a clock"));
        assert_eq!(
            (
                r.left,
                r.right,
                r.high,
                r.running,
                r.left_flag,
                r.right_flag
            ),
            (
                Duration::from_secs(300),
                Duration::from_secs(5405),
                ClockSide::Right,
                true,
                true,
                false
            )
        );
        assert!(clock("clock 5:00 5:00 stop").is_some_and(|r| !r.running));
        assert_eq!(clock("clock 5:60 5:00 left"), None);
        assert_eq!(clock("clock 5:00 5:00 up"), None);
        assert_eq!(
            parse_sim_line("clock 5:00 left"),
            Some(SimCommand::Move("clock 5:00 left".into()))
        );
    }

    #[test]
    fn noise_is_never_a_message_start() {
        let mut seed = 1;
        let bytes = noise(500, &mut seed);
        assert_eq!(bytes.len(), 500);
        for p in Protocol::ALL {
            assert!(!answers(p, &bytes), "{p:?}");
        }
    }

    #[test]
    fn probing_a_missing_port_says_it_cannot_be_opened() {
        assert_eq!(
            probe("/dev/hector-no-such-port"),
            Probed::CannotOpen(PortError::NoSuchDevice)
        );
    }

    #[test]
    fn a_valid_message_answers_the_probe() {
        for p in Protocol::ALL {
            let sim = SimBoard::new(p, Board::new());
            assert!(answers(p, &sim.version()), "{p:?}");
        }
        assert!(!answers(Protocol::Dgt, b"hello"));
    }

    #[test]
    fn the_simulator_plays_typed_moves() {
        let mut sim = Sim {
            options: SimOptions {
                protocol: Protocol::Occupancy,
                link: None,
                script: None,
                slide: false,
                pace: Duration::ZERO,
            },
            board: SimBoard::new(Protocol::Occupancy, Board::new()),
            position: Chess::default(),
            reader: sim_reader(),
            master: None,
            seed: 1,
        };
        assert!(sim.line("e4"));
        assert!(sim.line("Springer Felix sechs"));
        assert_eq!(
            sim.position.board().piece_at(Square::F6),
            Some(Color::Black.knight())
        );
        assert_eq!(sim.board.board(), sim.position.board());
        assert!(sim.line("put e5 p"));
        assert!(sim.board.board().piece_at(Square::E5).is_some());
        assert!(!sim.line("quit"));
    }
}
