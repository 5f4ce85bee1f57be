//! The player's board over real pseudo-terminals: the `hector` binary is
//! started with `--board PROTOCOL:/dev/pts/N` and the test writes, into the
//! master end, the bytes a board of that protocol would send (encoded by
//! `hector::SimBoard`).  Every announcement line is checked.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Mutex;
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use hector::{Master, Protocol, SimAction as Action, SimBoard, pseudo_board};
use shakmaty::san::San;
use shakmaty::{Board, Chess, Color, Move, Position, Square};

use crate::util::clean_config_dir;

/// `TTYPort::pair` must not run on several threads at once.
pub(crate) static PTY_LOCK: Mutex<()> = Mutex::new(());

/// How long one announcement may take to come.
const WAIT: Duration = Duration::from_secs(4);
/// Between two messages of one move: less than the settle time, as a hand
/// sliding a piece.
const HAND: Duration = Duration::from_millis(15);

fn new_pty() -> (Master, String) {
    let _g = PTY_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    pseudo_board().expect("a pseudo-terminal")
}

/// The running `hector play --board ...`, read line by line.
struct Hector {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    seen: Vec<String>,
}

impl Hector {
    fn start(board: &str) -> Hector {
        let dir = clean_config_dir();
        // Not while another test opens a pseudo-terminal: the child would
        // inherit its descriptors.
        let guard = PTY_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let mut child = Command::new(env!("CARGO_BIN_EXE_hector"))
            .args(["play", "--board", board, "--prompt", "never"])
            .args(["--speech", "print", "--no-sound"])
            .env("XDG_CONFIG_HOME", &dir)
            .env("HOME", &dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("hector starts");
        drop(guard);
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Hector {
            child,
            stdin,
            lines,
            seen: Vec::new(),
        }
    }

    fn type_line(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("hector reads its input");
        self.stdin.flush().expect("flush");
    }

    /// The next line must be `want`.
    fn expect(&mut self, want: &str) {
        match self.lines.recv_timeout(WAIT) {
            Ok(line) => {
                self.seen.push(line.clone());
                assert_eq!(line, want, "all lines so far:\n{}", self.seen.join("\n"));
            }
            Err(_) => panic!(
                "no line {want:?} within {WAIT:?}; all lines so far:\n{}",
                self.seen.join("\n")
            ),
        }
    }

    fn expect_all(&mut self, want: &[&str]) {
        for w in want {
            self.expect(w);
        }
    }

    /// Quit: nothing else may have been said before "Goodbye.".
    fn quit(mut self) {
        self.type_line("quit");
        self.expect("Goodbye.");
        let _ = self.child.wait();
    }
}

impl Drop for Hector {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The simulated board on the master end, with the game it has played.
struct TestBoard {
    /// None while the cable is pulled.
    master: Option<Master>,
    sim: SimBoard,
    pos: Chess,
    seed: u32,
}

impl TestBoard {
    fn new(master: Master, protocol: Protocol) -> TestBoard {
        TestBoard {
            master: Some(master),
            sim: SimBoard::new(protocol, Board::new()),
            pos: Chess::default(),
            seed: 0x1234_5678,
        }
    }

    fn write(&mut self, bytes: &[u8]) {
        if let Some(m) = &mut self.master {
            m.write_all(bytes).expect("write to the board");
        }
    }

    fn dump(&mut self) {
        let bytes = self.sim.dump();
        self.write(&bytes);
    }

    fn mv(&self, san: &str) -> Move {
        san.parse::<San>()
            .ok()
            .and_then(|s| s.to_move(&self.pos).ok())
            .unwrap_or_else(|| panic!("{san} is legal"))
    }

    /// Play `san` with the hand: sliders are set down on the squares they
    /// pass over (the king of a castling is not: a king step would be a
    /// move).
    fn play(&mut self, san: &str) {
        let m = self.mv(san);
        let slide = !m.is_castle();
        for bytes in self.sim.play(&self.pos, m, slide) {
            self.write(&bytes);
            std::thread::sleep(HAND);
        }
        self.pos.play_unchecked(m);
    }

    fn act(&mut self, action: Action) {
        let bytes = self.sim.act(action);
        self.write(&bytes);
        std::thread::sleep(HAND);
    }

    /// Noise on the line, ended by a newline (a text protocol loses that
    /// line, not the next).  Bytes below 0x60: never a message start.
    fn garbage(&mut self, n: usize) {
        let mut bytes: Vec<u8> = (0..n)
            .map(|_| {
                self.seed ^= self.seed << 13;
                self.seed ^= self.seed >> 17;
                self.seed ^= self.seed << 5;
                (self.seed % 0x40) as u8 + 0x20
            })
            .collect();
        bytes.push(b'\n');
        self.write(&bytes);
    }
}

/// The game: captures, both castlings, en passant and a promotion, with
/// what hector says for each move.
const GAME: [(&str, &str); 28] = [
    ("e4", "Bauer Eva vier"),
    ("d5", "Bauer David fünf"),
    ("exd5", "Bauer Eva schlägt David fünf"),
    ("Qxd5", "Dame schlägt David fünf"),
    ("Nc3", "Springer Cesar drei"),
    ("Qa5", "Dame Anna fünf"),
    ("d4", "Bauer David vier"),
    ("Nf6", "Springer Felix sechs"),
    ("Nf3", "Springer Felix drei"),
    ("Bf5", "Läufer Felix fünf"),
    ("Bd3", "Läufer David drei"),
    ("Bxd3", "Läufer schlägt David drei"),
    ("Qxd3", "Dame schlägt David drei"),
    ("Nc6", "Springer Cesar sechs"),
    ("Bd2", "Läufer David zwei"),
    ("e6", "Bauer Eva sechs"),
    ("O-O", "Kurze Rochade"),
    ("O-O-O", "Lange Rochade"),
    ("h4", "Bauer Hector vier"),
    ("Bd6", "Läufer David sechs"),
    ("h5", "Bauer Hector fünf"),
    ("g5", "Bauer Gustav fünf"),
    ("hxg6", "Bauer Hector schlägt Gustav sechs en passant"),
    ("Rhg8", "Turm Hector Gustav acht"),
    ("gxf7", "Bauer Gustav schlägt Felix sieben"),
    ("Be7", "Läufer Eva sieben"),
    ("fxg8=Q", "Bauer Felix schlägt Gustav acht wird Dame"),
    ("Rxg8", "Turm schlägt Gustav acht"),
];

/// Start hector on a fresh board of `protocol` showing the start position.
fn connected(protocol: Protocol) -> (Hector, TestBoard) {
    let (master, path) = new_pty();
    let mut hector = Hector::start(&format!("{}:{path}", protocol.name()));
    hector.expect_all(&["New game. White to move.", "Board connected."]);
    let mut board = TestBoard::new(master, protocol);
    board.dump();
    (hector, board)
}

/// The whole game on the board, slid and with noise between messages;
/// then an illegal move, a piece knocked onto a wrong square, and the
/// `board` command.  `occupied` names what an occupancy board cannot tell.
fn whole_game(protocol: Protocol, extra_square: &str, illegal_fix: &str) {
    let (mut hector, mut board) = connected(protocol);
    for (i, (san, said)) in GAME.iter().enumerate() {
        if i % 3 == 0 {
            board.garbage(40);
        }
        board.play(san);
        if *san == "fxg8=Q" && !protocol.identifies_pieces() {
            // D.2.1: the piece must be named.
            hector.expect("Which piece does the pawn become? Say Dame, Turm, Läufer or Springer.");
            hector.type_line("Dame");
        }
        hector.expect(said);
    }

    // A knight move that is not one (Article 7.5).
    board.act(Action::Lift(Square::F3));
    board.act(Action::Place(Square::F5, Color::White.knight()));
    hector.expect("Illegal move on the board. Put the pieces back as they were.");
    hector.expect(&format!(
        "Mismatch: Felix drei should have the white Springer, it is empty. Felix fünf {extra_square}"
    ));
    board.act(Action::Lift(Square::F5));
    board.act(Action::Place(Square::F3, Color::White.knight()));
    hector.expect("Board matches the game.");

    // The opponent's pawn knocked one square on: reported, repeated on
    // request, fixed.
    board.act(Action::Lift(Square::H7));
    board.act(Action::Place(Square::H6, Color::Black.pawn()));
    let report = format!(
        "Mismatch: Hector sieben should have the black Bauer, it is empty. Hector sechs {illegal_fix}"
    );
    hector.expect(&report);
    hector.type_line("board");
    hector.expect(&report);
    board.act(Action::Lift(Square::H6));
    board.act(Action::Place(Square::H7, Color::Black.pawn()));
    hector.expect("Board matches the game.");
    hector.type_line("board");
    hector.expect("Board matches the game.");
    hector.quit();
}

#[test]
fn dgt_board_plays_a_whole_game() {
    whole_game(
        Protocol::Dgt,
        "should be empty, it has the white Springer.",
        "should be empty, it has the black Bauer.",
    );
}

#[test]
fn millennium_board_plays_a_whole_game() {
    whole_game(
        Protocol::Millennium,
        "should be empty, it has the white Springer.",
        "should be empty, it has the black Bauer.",
    );
}

#[test]
fn occupancy_board_plays_a_whole_game_and_asks_for_the_promotion_piece() {
    whole_game(Protocol::Occupancy, "should be empty.", "should be empty.");
}

/// A queen slid slowly over three squares (each a legal queen move, set
/// down for less than the settle time) is announced once, where it stops.
fn slow_slide(protocol: Protocol) {
    let (mut hector, mut board) = connected(protocol);
    for (san, said) in [("e4", "Bauer Eva vier"), ("e5", "Bauer Eva fünf")] {
        board.play(san);
        hector.expect(said);
    }
    let queen = Color::White.queen();
    board.act(Action::Lift(Square::D1));
    for sq in [Square::E2, Square::F3, Square::G4] {
        board.act(Action::Place(sq, queen));
        std::thread::sleep(Duration::from_millis(120));
        board.act(Action::Lift(sq));
    }
    board.act(Action::Place(Square::H5, queen));
    board.pos.play_unchecked(board.mv("Qh5"));
    hector.expect("Dame Hector fünf");
    hector.quit();
}

#[test]
fn dgt_slow_slide_is_one_move() {
    slow_slide(Protocol::Dgt);
}

#[test]
fn millennium_slow_slide_is_one_move() {
    slow_slide(Protocol::Millennium);
}

#[test]
fn occupancy_slow_slide_is_one_move() {
    slow_slide(Protocol::Occupancy);
}

/// The cable pulled: hector says so, the opponent's move is typed
/// meanwhile, and when the board is back (a new device behind the same
/// path) the missing move is reported, then confirmed when made.
fn pulled_cable(protocol: Protocol, e7_extra: &str) {
    let dir = clean_config_dir();
    let link = dir.join("board");
    let (master, path) = new_pty();
    std::os::unix::fs::symlink(&path, &link).expect("symlink");
    let mut hector = Hector::start(&format!("{}:{}", protocol.name(), link.display()));
    hector.expect_all(&["New game. White to move.", "Board connected."]);
    let mut board = TestBoard::new(master, protocol);
    board.dump();
    board.play("e4");
    hector.expect("Bauer Eva vier");

    // Pull the cable, and type the opponent's move meanwhile.
    board.master = None;
    hector.expect("Board disconnected. Play on with the keyboard.");
    hector.type_line("e5");
    hector.expect("Bauer Eva fünf");

    // Plug it in again: a new device behind the same path.
    let (master, path) = new_pty();
    std::fs::remove_file(&link).expect("remove the old link");
    std::os::unix::fs::symlink(&path, &link).expect("symlink");
    board.master = Some(master);
    hector.expect("Board connected again.");
    board.dump();
    hector.expect(&format!(
        "Mismatch: Eva fünf should have the black Bauer, it is empty. Eva sieben {e7_extra}"
    ));
    board.play("e5");
    hector.expect("Done: Bauer Eva fünf.");
    // The game goes on from the board.
    board.play("Nf3");
    hector.expect("Springer Felix drei");
    hector.quit();
}

#[test]
fn dgt_pulled_cable_then_back_with_nothing_lost() {
    pulled_cable(Protocol::Dgt, "should be empty, it has the black Bauer.");
}

#[test]
fn millennium_pulled_cable_then_back_with_nothing_lost() {
    pulled_cable(
        Protocol::Millennium,
        "should be empty, it has the black Bauer.",
    );
}

#[test]
fn occupancy_pulled_cable_then_back_with_nothing_lost() {
    pulled_cable(Protocol::Occupancy, "should be empty.");
}

/// `hector board sim` on its own pseudo-terminal: `hector board probe`
/// finds its protocol, and `hector play` plays the moves typed into it.
#[test]
fn simulator_probe_and_play() {
    let guard = PTY_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let mut sim = Command::new(env!("CARGO_BIN_EXE_hector"))
        .args(["board", "sim", "--protocol", "occupancy"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the simulator starts");
    let mut sim_in = sim.stdin.take().expect("piped stdin");
    let mut sim_out = BufReader::new(sim.stdout.take().expect("piped stdout"));
    let mut first = String::new();
    sim_out.read_line(&mut first).expect("the device line");
    drop(guard);
    let path = first
        .trim()
        .strip_prefix("Simulated board at ")
        .unwrap_or_else(|| panic!("{first:?}"))
        .to_owned();

    let probe = Command::new(env!("CARGO_BIN_EXE_hector"))
        .args(["board", "probe", &path])
        .output()
        .expect("probe runs");
    assert_eq!(
        String::from_utf8_lossy(&probe.stdout),
        format!("{path}: occupancy (Tactile board (occupancy sensors))\n")
    );
    assert!(probe.status.success());

    let mut hector = Hector::start(&format!("occupancy:{path}"));
    hector.expect_all(&["New game. White to move.", "Board connected."]);
    for (typed, said) in [("e4", "Bauer Eva vier"), ("Sf6", "Springer Felix sechs")] {
        writeln!(sim_in, "garbage 30").expect("the simulator reads");
        writeln!(sim_in, "{typed}").expect("the simulator reads");
        hector.expect(said);
    }
    hector.quit();
    writeln!(sim_in, "quit").expect("the simulator reads");
    let _ = sim.wait();
}
