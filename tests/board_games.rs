//! The player's board over real pseudo-terminals: the `hector` binary is
//! started with `--board PROTOCOL:/dev/pts/N` and the test writes, into the
//! master end, the bytes a board of that protocol would send (encoded by
//! `hector::testing::SimBoard`).  Every announcement line is checked.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

use hector::io::Protocol;
use hector::testing::{DgtClockReading, DgtClockSide, HandStep, Master, SimBoard};
use shakmaty::san::San;
use shakmaty::{Board, Chess, Color, Move, Position, Square};

use crate::util::{Hector, PTY_LOCK, await_request, clean_config_dir, new_pty};

/// How long one announcement may take to come.
const WAIT: Duration = Duration::from_secs(4);
/// Between two messages of one move: less than the settle time, as a hand
/// sliding a piece.
const HAND: Duration = Duration::from_millis(15);

/// `hector play --board BOARD`.
fn start(board: &str) -> Hector {
    Hector::play(&["--board", board]).waiting(WAIT)
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

    /// Wait for hector's request (it has opened the port), then answer it
    /// with the whole board, as a board does.
    fn answer(&mut self) {
        let Some(m) = &mut self.master else {
            panic!("no board plugged in");
        };
        await_request(m, WAIT);
        self.dump();
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

    /// The DGT 3000 on the board shows White (on the left) `white` and
    /// Black `black` seconds, the lever high on `high`'s side (None: the
    /// clock stopped), `flag`'s flag down.
    fn clock(&mut self, white: u64, black: u64, high: Option<Color>, flag: Option<Color>) {
        let side = |c: Color| match c {
            Color::White => DgtClockSide::Left,
            Color::Black => DgtClockSide::Right,
        };
        let reading = DgtClockReading {
            left: Duration::from_secs(white),
            right: Duration::from_secs(black),
            left_flag: flag == Some(Color::White),
            right_flag: flag == Some(Color::Black),
            running: high.is_some(),
            high: high.map_or(DgtClockSide::Left, side),
            battery_low: false,
        };
        let bytes = self.sim.clock(&reading);
        self.write(&bytes);
    }

    fn act(&mut self, action: HandStep) {
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
    connected_with(protocol, &[])
}

/// As [`connected`], with more options for `hector play`.
fn connected_with(protocol: Protocol, options: &[&str]) -> (Hector, TestBoard) {
    let (master, path) = new_pty();
    let spec = format!("{}:{path}", protocol.name());
    let mut args = vec!["--board", spec.as_str()];
    args.extend_from_slice(options);
    let mut hector = Hector::play(&args).waiting(WAIT);
    hector.expect("New game. White to move.");
    let mut board = TestBoard::new(master, protocol);
    // "Board connected" only once the board answered with a position.
    board.answer();
    hector.expect("Board connected.");
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
    board.act(HandStep::Lift(Square::F3));
    board.act(HandStep::Place(Square::F5, Color::White.knight()));
    hector.expect("Illegal move on the board. Put the pieces back as they were.");
    hector.expect(&format!(
        "Mismatch on two squares: Felix drei should have the white Springer, it is empty. Felix fünf {extra_square}"
    ));
    board.act(HandStep::Lift(Square::F5));
    board.act(HandStep::Place(Square::F3, Color::White.knight()));
    hector.expect("Board matches the game.");

    // The opponent's pawn knocked one square on: reported, repeated on
    // request, fixed.
    board.act(HandStep::Lift(Square::H7));
    board.act(HandStep::Place(Square::H6, Color::Black.pawn()));
    let report = format!(
        "Mismatch on two squares: Hector sieben should have the black Bauer, it is empty. Hector sechs {illegal_fix}"
    );
    // A whole move of the side not to move: whose move it is (issue 18);
    // `board` gives the squares.
    hector.expect("White is to move. Put the pieces back as they were.");
    hector.type_line("board");
    hector.expect(&report);
    board.act(HandStep::Lift(Square::H6));
    board.act(HandStep::Place(Square::H7, Color::Black.pawn()));
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
/// The settle time is a second here, so that a rest of 120 ms stays well
/// short of it on a loaded machine (with the default 300 ms, a test thread
/// late by 180 ms once made a rest a move).
fn slow_slide(protocol: Protocol) {
    let (mut hector, mut board) = connected_with(protocol, &["--settle-ms", "1000"]);
    for (san, said) in [("e4", "Bauer Eva vier"), ("e5", "Bauer Eva fünf")] {
        board.play(san);
        hector.expect(said);
    }
    let queen = Color::White.queen();
    board.act(HandStep::Lift(Square::D1));
    for sq in [Square::E2, Square::F3, Square::G4] {
        board.act(HandStep::Place(sq, queen));
        std::thread::sleep(Duration::from_millis(120));
        board.act(HandStep::Lift(sq));
    }
    board.act(HandStep::Place(Square::H5, queen));
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
/// path) the missing move is asked for, then confirmed when made.
fn pulled_cable(protocol: Protocol) {
    let dir = clean_config_dir();
    let link = dir.join("board");
    let (master, path) = new_pty();
    std::os::unix::fs::symlink(&path, &link).expect("symlink");
    let mut hector = start(&format!("{}:{}", protocol.name(), link.display()));
    hector.expect("New game. White to move.");
    let mut board = TestBoard::new(master, protocol);
    board.answer();
    hector.expect("Board connected.");
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
    board.answer();
    // The move typed meanwhile is to be made: an instruction, no mismatch.
    hector.expect_all(&[
        "Board connected again.",
        "On your board: black Bauer from Eva sieben to Eva fünf.",
    ]);
    board.play("e5");
    hector.expect("Done: Bauer Eva fünf.");
    // The game goes on from the board.
    board.play("Nf3");
    hector.expect("Springer Felix drei");
    hector.quit();
}

#[test]
fn dgt_pulled_cable_then_back_with_nothing_lost() {
    pulled_cable(Protocol::Dgt);
}

#[test]
fn millennium_pulled_cable_then_back_with_nothing_lost() {
    pulled_cable(Protocol::Millennium);
}

#[test]
fn occupancy_pulled_cable_then_back_with_nothing_lost() {
    pulled_cable(Protocol::Occupancy);
}

/// `hector board sim --protocol PROTOCOL` on its own pseudo-terminal:
/// the simulator, its standard input, the device path it printed and its
/// output (kept open while the test runs, so the simulator can print).
fn start_simulator(
    protocol: &str,
) -> (
    std::process::Child,
    std::process::ChildStdin,
    String,
    BufReader<std::process::ChildStdout>,
) {
    let guard = PTY_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let mut sim = Command::new(env!("CARGO_BIN_EXE_hector"))
        .args(["board", "sim", "--protocol", protocol])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the simulator starts");
    let sim_in = sim.stdin.take().expect("piped stdin");
    let mut sim_out = BufReader::new(sim.stdout.take().expect("piped stdout"));
    let mut first = String::new();
    sim_out.read_line(&mut first).expect("the device line");
    drop(guard);
    let path = first
        .trim()
        .strip_prefix("Simulated board at ")
        .unwrap_or_else(|| panic!("{first:?}"))
        .to_owned();
    (sim, sim_in, path, sim_out)
}

/// `hector board sim` on its own pseudo-terminal: `hector board probe`
/// finds its protocol, and `hector play` plays the moves typed into it.
#[test]
fn simulator_probe_and_play() {
    let (mut sim, mut sim_in, path, _sim_out) = start_simulator("occupancy");

    let probe = Command::new(env!("CARGO_BIN_EXE_hector"))
        .args(["board", "probe", &path])
        .output()
        .expect("probe runs");
    assert_eq!(
        String::from_utf8_lossy(&probe.stdout),
        format!("{path}: occupancy (Tactile board (occupancy sensors))\n")
    );
    assert!(probe.status.success());

    let mut hector = start(&format!("occupancy:{path}"));
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

/// `hector board sim --protocol dgt` with its `clock` lines: the clock on
/// the simulated board is the game's clock.
#[test]
fn simulator_with_a_dgt_clock() {
    let (mut sim, mut sim_in, path, _sim_out) = start_simulator("dgt");
    let mut hector = start(&format!("dgt:{path}"));
    hector.expect_all(&["New game. White to move.", "Board connected."]);
    let mut sim_says = |line: &str| writeln!(sim_in, "{line}").expect("the simulator reads");
    sim_says("clock 2:05 3:00 left");
    hector.expect("Clock on the board: hector says its times.");
    sim_says("e4");
    hector.expect("Bauer Eva vier");
    sim_says("clock 2:04 3:00 right");
    sim_says("clock 2:04 0:00 right flag right");
    hector.expect("Black's flag has fallen. White wins, one to zero.");
    hector.quit();
    sim_says("quit");
    let _ = sim.wait();
}

/// Longer than the settle time: a hand that pauses between two steps.
const PAUSE: Duration = Duration::from_millis(600);

impl TestBoard {
    /// The actions of one move, with a pause after each but the last.
    fn slowly(&mut self, actions: &[HandStep]) {
        for (i, a) in actions.iter().enumerate() {
            self.act(*a);
            if i + 1 < actions.len() {
                std::thread::sleep(PAUSE);
            }
        }
    }

    /// The awaited move `san` is made on the board with `actions`.
    fn make(&mut self, san: &str, actions: &[HandStep]) {
        let m = self.mv(san);
        self.slowly(actions);
        self.pos.play_unchecked(m);
    }
}

/// Item 3: the opponent's captures typed on the keyboard are instructions,
/// made on the board in both orders (captured piece first, captured piece
/// last) with pauses longer than the settle time: no mismatch is said, only
/// "Done" (quit checks that nothing else came).
fn awaited_captures(protocol: Protocol) {
    let (mut hector, mut board) = connected(protocol);
    board.play("e4");
    hector.expect("Bauer Eva vier");
    hector.type_line("d5");
    hector.expect_all(&[
        "Bauer David fünf",
        "On your board: black Bauer from David sieben to David fünf.",
    ]);
    board.make(
        "d5",
        &[
            HandStep::Lift(Square::D7),
            HandStep::Place(Square::D5, Color::Black.pawn()),
        ],
    );
    hector.expect("Done: Bauer David fünf.");
    board.play("exd5");
    hector.expect("Bauer Eva schlägt David fünf");

    // The captured piece removed first.
    hector.type_line("Qxd5");
    hector.expect_all(&[
        "Dame schlägt David fünf",
        "On your board: black Dame from David acht to David fünf. Remove the white Bauer from David fünf.",
    ]);
    board.make(
        "Qxd5",
        &[
            HandStep::Lift(Square::D5),
            HandStep::Lift(Square::D8),
            HandStep::Place(Square::D5, Color::Black.queen()),
        ],
    );
    hector.expect("Done: Dame schlägt David fünf.");
    board.play("Nc3");
    hector.expect("Springer Cesar drei");

    // The capturing piece lifted first, the captured piece removed last.
    hector.type_line("Qxa2");
    hector.expect_all(&[
        "Dame schlägt Anna zwei",
        "On your board: black Dame from David fünf to Anna zwei. Remove the white Bauer from Anna zwei.",
    ]);
    board.make(
        "Qxa2",
        &[
            HandStep::Lift(Square::D5),
            HandStep::Lift(Square::A2),
            HandStep::Place(Square::A2, Color::Black.queen()),
        ],
    );
    hector.expect("Done: Dame schlägt Anna zwei.");
    // The game goes on from the board.
    board.play("Rxa2");
    hector.expect("Turm schlägt Anna zwei");
    hector.type_line("board");
    hector.expect("Board matches the game.");
    hector.quit();
}

#[test]
fn dgt_awaited_captures_in_both_orders_are_quiet() {
    awaited_captures(Protocol::Dgt);
}

#[test]
fn millennium_awaited_captures_in_both_orders_are_quiet() {
    awaited_captures(Protocol::Millennium);
}

#[test]
fn occupancy_awaited_captures_in_both_orders_are_quiet() {
    awaited_captures(Protocol::Occupancy);
}

/// Item 3: the knight set on a wrong square is a mismatch (after the
/// settle time); set on the right one, the move is done.
fn wrong_square_then_right(protocol: Protocol, extra: &str) {
    let (mut hector, mut board) = connected(protocol);
    board.play("e4");
    hector.expect("Bauer Eva vier");
    hector.type_line("Nc6");
    hector.expect_all(&[
        "Springer Cesar sechs",
        "On your board: black Springer from Bella acht to Cesar sechs.",
    ]);
    board.act(HandStep::Lift(Square::B8));
    std::thread::sleep(PAUSE);
    board.act(HandStep::Place(Square::A6, Color::Black.knight()));
    hector.expect(&format!(
        "Mismatch on two squares: Cesar sechs should have the black Springer, it is empty. Anna sechs {extra}"
    ));
    board.make(
        "Nc6",
        &[
            HandStep::Lift(Square::A6),
            HandStep::Place(Square::C6, Color::Black.knight()),
        ],
    );
    // Taken off the wrong square and held: the mismatch is gone, what
    // remains to do is said (issue 18).
    hector.expect_all(&[
        "On your board: black Springer from Bella acht to Cesar sechs.",
        "Done: Springer Cesar sechs.",
    ]);
    hector.quit();
}

#[test]
fn dgt_awaited_move_on_a_wrong_square_then_the_right_one() {
    wrong_square_then_right(Protocol::Dgt, "should be empty, it has the black Springer.");
}

#[test]
fn millennium_awaited_move_on_a_wrong_square_then_the_right_one() {
    wrong_square_then_right(
        Protocol::Millennium,
        "should be empty, it has the black Springer.",
    );
}

#[test]
fn occupancy_awaited_move_on_a_wrong_square_then_the_right_one() {
    wrong_square_then_right(Protocol::Occupancy, "should be empty.");
}

/// Item 4: White castles on the board rook first (a second between the
/// steps, longer than the settle time); Black's castling, typed, is made
/// king first, with the same pauses: no mismatch, then "Done".
fn castling_in_any_order(protocol: Protocol) {
    let (mut hector, mut board) = connected(protocol);
    for (san, said) in [
        ("e4", "Bauer Eva vier"),
        ("e5", "Bauer Eva fünf"),
        ("Nf3", "Springer Felix drei"),
        ("Nf6", "Springer Felix sechs"),
        ("Bc4", "Läufer Cesar vier"),
        ("Bc5", "Läufer Cesar fünf"),
    ] {
        board.play(san);
        hector.expect(said);
    }
    let (wk, wr) = (Color::White.king(), Color::White.rook());
    let (bk, br) = (Color::Black.king(), Color::Black.rook());
    // White: rook first.
    let m = board.mv("O-O");
    for a in [
        HandStep::Lift(Square::H1),
        HandStep::Place(Square::F1, wr),
        HandStep::Lift(Square::E1),
        HandStep::Place(Square::G1, wk),
    ] {
        board.act(a);
        std::thread::sleep(Duration::from_secs(1));
    }
    board.pos.play_unchecked(m);
    hector.expect("Kurze Rochade");
    // Black's castling typed: made king first.
    hector.type_line("O-O");
    hector.expect_all(&[
        "Kurze Rochade",
        "On your board: black König from Eva acht to Gustav acht, and black Turm from Hector acht to Felix acht.",
    ]);
    board.make(
        "O-O",
        &[
            HandStep::Lift(Square::E8),
            HandStep::Place(Square::G8, bk),
            HandStep::Lift(Square::H8),
            HandStep::Place(Square::F8, br),
        ],
    );
    hector.expect("Done: Kurze Rochade.");
    hector.quit();
}

#[test]
fn dgt_castling_rook_first_and_king_first() {
    castling_in_any_order(Protocol::Dgt);
}

#[test]
fn millennium_castling_rook_first_and_king_first() {
    castling_in_any_order(Protocol::Millennium);
}

#[test]
fn occupancy_castling_rook_first_and_king_first() {
    castling_in_any_order(Protocol::Occupancy);
}

/// Item 5: a port that opens but never answers is said to be silent, and
/// `board` never says that it matches the game.
fn silent_port(protocol: Protocol) {
    let (_master, path) = new_pty();
    let mut hector = start(&format!("{}:{path}", protocol.name()));
    hector.expect("New game. White to move.");
    hector.expect(&format!("The board on {path} does not answer; retrying."));
    hector.type_line("board");
    hector.expect(&format!("The board on {path} does not answer; retrying."));
    hector.type_line("e4");
    hector.expect("Bauer Eva vier");
    hector.quit();
}

#[test]
fn dgt_silent_port_is_said_and_never_matches() {
    silent_port(Protocol::Dgt);
}

#[test]
fn millennium_silent_port_is_said_and_never_matches() {
    silent_port(Protocol::Millennium);
}

#[test]
fn occupancy_silent_port_is_said_and_never_matches() {
    silent_port(Protocol::Occupancy);
}

/// Item 5: a port that does not exist is named with the reason, never as
/// "disconnected"; the keyboard plays on.
#[test]
fn missing_port_gives_the_reason_for_every_protocol() {
    for protocol in Protocol::ALL {
        let port = "/dev/hector-no-such-board";
        let mut hector = start(&format!("{}:{port}", protocol.name()));
        hector.expect("New game. White to move.");
        let why = format!("Cannot open {port}: no such device.");
        hector.expect(&why);
        hector.type_line("board");
        hector.expect(&why);
        hector.type_line("e4");
        hector.expect("Bauer Eva vier");
        hector.quit();
    }
}

/// Item 5: an unknown protocol is named; a port to probe that cannot be
/// opened says why.
#[test]
fn unknown_protocol_and_unopenable_probe_are_named() {
    let mut hector = start("foo:/dev/ttyUSB0");
    hector.expect_all(&[
        "Unknown board protocol foo in foo:/dev/ttyUSB0: use dgt, millennium or occupancy, e.g. dgt:/dev/ttyUSB0, or a Bluetooth board: chessnut, move, pegasus or eone.",
        "New game. White to move.",
    ]);
    hector.type_line("board");
    hector.expect("No board is connected.");
    hector.quit();
    let mut hector = start("/dev/hector-no-such-board");
    hector.expect_all(&[
        "Cannot open /dev/hector-no-such-board: no such device.",
        "New game. White to move.",
    ]);
    hector.quit();
}

/// `hector board probe` tells "cannot open" from "no board answered".
#[test]
fn probe_tells_cannot_open_from_no_answer() {
    let dir = clean_config_dir();
    let probe = |port: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_hector"))
            .args(["board", "probe", port])
            .env("XDG_CONFIG_HOME", &dir)
            .env("HOME", &dir)
            .env("XDG_DATA_HOME", crate::util::own_data_dir())
            .output()
            .expect("probe runs");
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            out.status.success(),
        )
    };
    assert_eq!(
        probe("/dev/hector-no-such-board"),
        (
            "Cannot open /dev/hector-no-such-board: no such device.\n".to_owned(),
            false
        )
    );
    let (_master, path) = new_pty();
    assert_eq!(
        probe(&path),
        (format!("{path}: no board answered.\n"), false)
    );
}

/// Item 3 through `update`: while an awaited capture is made on the board,
/// in either order and with the settle time passing between the steps, no
/// mismatch sentence and no mismatch tone; a wrong square gets both.
#[test]
fn no_mismatch_tone_while_the_awaited_move_is_made() {
    use hector::io::{LinkEvent, SayKind, Tone};
    use hector::testing::{BoardSession, TrackerConfig};
    use hector::{App, Effect, Msg};
    use std::time::Instant;

    /// Past the settle time, then `action` on the board.
    fn step(
        app: &mut App,
        sim: &mut SimBoard,
        now: &mut Instant,
        action: Option<HandStep>,
    ) -> Vec<Effect> {
        *now += Duration::from_millis(700);
        let mut e = app.update(Msg::Deadline, *now);
        if let Some(a) = action {
            e.extend(app.update(Msg::Board(LinkEvent::Bytes(sim.act(a))), *now));
        }
        e
    }

    fn mismatches(effects: &[Effect]) -> usize {
        effects
            .iter()
            .filter(|e| match e {
                Effect::Tone(Tone::Mismatch) => true,
                Effect::Say(u) => u.kind == SayKind::Mismatch,
                _ => false,
            })
            .count()
    }

    for protocol in Protocol::ALL {
        for captured_first in [true, false] {
            let mut app = App::builder().build();
            let config = TrackerConfig {
                detect_rotation: false,
                ..TrackerConfig::default()
            };
            hector::testing::attach_board(
                &mut app,
                BoardSession::new(protocol, config, &Chess::default(), false),
            );
            let mut now = Instant::now();
            let mut sim = SimBoard::new(protocol, Board::new());
            let mut effects = app.update(Msg::Board(LinkEvent::Connected), now);
            effects.extend(app.update(Msg::Board(LinkEvent::Bytes(sim.dump())), now));
            for (typed, actions) in [
                (
                    "e4",
                    vec![
                        HandStep::Lift(Square::E2),
                        HandStep::Place(Square::E4, Color::White.pawn()),
                    ],
                ),
                (
                    "d5",
                    vec![
                        HandStep::Lift(Square::D7),
                        HandStep::Place(Square::D5, Color::Black.pawn()),
                    ],
                ),
            ] {
                effects.extend(app.update(Msg::Line(typed.into()), now));
                for a in actions {
                    effects.extend(step(&mut app, &mut sim, &mut now, Some(a)));
                }
            }
            effects.extend(app.update(Msg::Line("exd5".into()), now));
            let lift_first = if captured_first {
                Square::D5
            } else {
                Square::E4
            };
            let lift_second = if captured_first {
                Square::E4
            } else {
                Square::D5
            };
            for a in [
                HandStep::Lift(lift_first),
                HandStep::Lift(lift_second),
                HandStep::Place(Square::D5, Color::White.pawn()),
            ] {
                effects.extend(step(&mut app, &mut sim, &mut now, Some(a)));
            }
            effects.extend(step(&mut app, &mut sim, &mut now, None));
            assert_eq!(mismatches(&effects), 0, "{protocol:?}: {effects:?}");
            let done = effects
                .iter()
                .filter(|e| matches!(e, Effect::Say(u) if u.text.starts_with("Done: ")))
                .count();
            assert_eq!(done, 3, "{protocol:?}: {effects:?}");

            // Black's knight typed and set on a wrong square: both.
            let e = app.update(Msg::Line("Nc6".into()), now);
            assert_eq!(mismatches(&e), 0);
            let mut e = step(
                &mut app,
                &mut sim,
                &mut now,
                Some(HandStep::Lift(Square::B8)),
            );
            e.extend(step(
                &mut app,
                &mut sim,
                &mut now,
                Some(HandStep::Place(Square::A6, Color::Black.knight())),
            ));
            e.extend(step(&mut app, &mut sim, &mut now, None));
            assert_eq!(mismatches(&e), 2, "{protocol:?}: {e:?}");
        }
    }
}

/// A DGT board with a DGT 3000: hector says that clock's times, its
/// thresholds and its flag; the lever is the press, and a press on an
/// illegal move completes it (7.5.1).
#[test]
fn dgt_board_with_a_clock_is_the_clock() {
    let (mut hector, mut board) = connected(Protocol::Dgt);
    // White's time runs: its side of the clock is White's.
    board.clock(125, 180, Some(Color::White), None);
    hector.expect("Clock on the board: hector says its times.");
    hector.type_line("time");
    hector.expect("White: two minutes five seconds. Black: three minutes.");
    // A knight move that is not one, and the lever pressed at once.
    board.act(HandStep::Lift(Square::G1));
    board.act(HandStep::Place(Square::G3, Color::White.knight()));
    board.clock(124, 180, Some(Color::Black), None);
    hector.expect("Illegal move on the board. Put the pieces back as they were.");
    // Without --time the clock's first reading (3 minutes) makes it a
    // blitz game: 1 minute (B.2).
    hector.expect("Black gets one minute.");
    // After the settle time, the corrections (the illegal move is not said
    // again).
    hector.expect(
        "Mismatch on two squares: Gustav eins should have the white Springer, it is empty. \
         Gustav drei should be empty, it has the white Springer.",
    );
    board.act(HandStep::Lift(Square::G3));
    board.act(HandStep::Place(Square::G1, Color::White.knight()));
    hector.expect("Board matches the game.");
    // The arbiter gives the move back to White and Black its minute.
    board.clock(124, 240, Some(Color::White), None);
    board.play("e4");
    hector.expect("Bauer Eva vier");
    board.clock(122, 240, Some(Color::Black), None);
    board.play("e5");
    hector.expect("Bauer Eva fünf");
    // White's clock runs down through its 2 minutes: said by hector
    // between two readings, as with its own clock.
    board.clock(121, 238, Some(Color::White), None);
    hector.expect("White: two minutes left.");
    hector.type_line("press");
    hector.expect("The clock on the board keeps the time: use its lever and its buttons.");
    // The flag shown by the clock ends the game at once.
    board.clock(0, 238, Some(Color::White), Some(Color::White));
    hector.expect("White's flag has fallen. Black wins, zero to one.");
    hector.quit();
}

/// Issue 10, resume: the opponent's move typed on the keyboard waits to be
/// made on the player's board ("On your board: …") when hector is killed
/// (SIGKILL).  Resumed (`--resume`, the board on a new port), the
/// instruction is said again once the board answers, the move made on the
/// board with a pause longer than the settle time is quiet until it is
/// done ("Done: …"), and no mismatch comes between (every line is
/// checked; `quit` checks nothing else came).
#[test]
fn an_awaited_move_is_awaited_again_after_a_kill_and_resume() {
    let home = clean_config_dir();
    let (master, path) = new_pty();
    let mut hector = Hector::play_in(&home, &["--board", &format!("dgt:{path}")]).waiting(WAIT);
    hector.expect("New game. White to move.");
    let mut board = TestBoard::new(master, Protocol::Dgt);
    board.answer();
    hector.expect("Board connected.");
    board.play("e4");
    hector.expect("Bauer Eva vier");
    hector.type_line("e5");
    let instruction = "On your board: black Bauer from Eva sieben to Eva fünf.";
    hector.expect_all(&["Bauer Eva fünf", instruction]);
    // Killed before the move is made on the board.
    drop(hector);
    // The same board (still showing 1. e4) on a new port.
    let (master, path) = new_pty();
    board.master = Some(master);
    let mut hector =
        Hector::play_in(&home, &["--board", &format!("dgt:{path}"), "--resume"]).waiting(WAIT);
    hector.expect_all(&[
        "Game resumed. White to move, move 2.",
        "The last move was Bauer Eva fünf.",
    ]);
    board.answer();
    hector.expect_all(&["Board connected.", instruction]);
    board.make(
        "e5",
        &[
            HandStep::Lift(Square::E7),
            HandStep::Place(Square::E5, Color::Black.pawn()),
        ],
    );
    hector.expect("Done: Bauer Eva fünf.");
    // The game goes on from the board.
    board.play("Nf3");
    hector.expect("Springer Felix drei");
    hector.quit();
    let _ = std::fs::remove_dir_all(&home);
}
