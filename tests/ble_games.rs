//! The Bluetooth LE boards through the real `hector` binary and the real
//! Bluetooth code (btleplug's BlueZ path over D-Bus): a fake BlueZ on a
//! private system bus (`support/bluez.rs`, `support/fake_bluez.py`) holds
//! the boards, which answer as their published protocols say; the test
//! moves the pieces on them as a hand does, takes a board out of reach and
//! brings it back.  Every line hector prints (line mode, printed speech)
//! is checked.  The fake itself is checked with bleak, a BlueZ client of
//! its own.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use hector::io::Protocol;
use hector::testing::{HandStep, SimBoard, move_actions};
use shakmaty::san::San;
use shakmaty::{Board, Chess, Color, Move, Position, Square};

use crate::bluez::FakeBluez;
use crate::util::{Hector, clean_config_dir};

/// How long one announcement may take to come (finding and connecting a
/// board takes a few seconds on a loaded machine).
const WAIT: Duration = Duration::from_secs(15);

const CHESSNUT: &str = "C0:FF:EE:00:00:01";
const PEGASUS: &str = "C0:FF:EE:00:00:02";
const EONE: &str = "C0:FF:EE:00:00:03";
const MOVE: &str = "C0:FF:EE:00:00:04";

/// A board on the fake, moved as a hand moves pieces, with the game it has
/// played.
struct Hand<'a> {
    bluez: &'a FakeBluez,
    address: &'static str,
    sim: SimBoard,
    pos: Chess,
}

impl Hand<'_> {
    fn new<'a>(bluez: &'a FakeBluez, address: &'static str) -> Hand<'a> {
        Hand {
            bluez,
            address,
            sim: SimBoard::new(Protocol::Chessnut, Board::new()),
            pos: Chess::default(),
        }
    }

    fn show(&self) {
        self.bluez
            .set_position(self.address, &self.sim.board().to_string());
    }

    fn act(&mut self, step: HandStep) {
        let _ = self.sim.act(step);
        self.show();
    }

    fn mv(&self, san: &str) -> Move {
        san.parse::<San>()
            .ok()
            .and_then(|s| s.to_move(&self.pos).ok())
            .unwrap_or_else(|| panic!("{san} is legal"))
    }

    /// Play `san` with the hand: lifted, then set down (no slide: the fake
    /// notifies each change, slower than a hand slides).
    fn play(&mut self, san: &str) {
        let m = self.mv(san);
        self.play_move(m);
    }

    fn play_move(&mut self, m: Move) {
        for step in move_actions(&self.pos, m, false) {
            self.act(step);
        }
        self.pos.play_unchecked(m);
    }
}

/// `hector play --board SPEC` with the fake's bus.
fn start(bluez: &FakeBluez, home: &Path, spec: &str, more: &[&str]) -> Hector {
    let mut args = vec!["--board", spec];
    args.extend_from_slice(more);
    Hector::play_with(
        home,
        &args,
        &[("DBUS_SYSTEM_BUS_ADDRESS", Path::new(bluez.address()))],
    )
    .waiting(WAIT)
}

/// A short game with a capture and castling, and what hector says.
const GAME: [(&str, &str); 8] = [
    ("e4", "Bauer Eva vier"),
    ("d5", "Bauer David fünf"),
    ("exd5", "Bauer Eva schlägt David fünf"),
    ("Nf6", "Springer Felix sechs"),
    ("Nf3", "Springer Felix drei"),
    ("Nxd5", "Springer schlägt David fünf"),
    ("Bc4", "Läufer Cesar vier"),
    ("e6", "Bauer Eva sechs"),
];

/// A whole game on a board of `kind` at `address`; a mismatch and its
/// fix; the board out of reach in mid-game, a move typed meanwhile, the
/// board back and compared.  `occupancy`: the board knows no pieces.
fn whole_game(kind: &str, address: &'static str, name: &str, spec: &str, occupancy: bool) {
    let bluez = FakeBluez::start();
    bluez.add_board(kind, address, name, -50);
    let home = clean_config_dir();
    let mut hector = start(&bluez, &home, spec, &[]);
    hector.expect("New game. White to move.");
    hector.expect("Board connected.");
    let mut hand = Hand::new(&bluez, address);
    for (san, said) in GAME {
        hand.play(san);
        hector.expect(said);
    }
    hand.play("O-O");
    hector.expect("Kurze Rochade");

    // A pawn of the side that has just moved knocked one square on, and
    // put back.
    hand.act(HandStep::Lift(Square::A2));
    hand.act(HandStep::Place(Square::A3, Color::White.pawn()));
    hector.expect("Black is to move. Put the pieces back as they were.");
    hector.type_line("board");
    let fix = if occupancy {
        "should be empty."
    } else {
        "should be empty, it has the white Bauer."
    };
    hector.expect(&format!(
        "Mismatch on two squares: Anna zwei should have the white Bauer, it is empty. Anna drei {fix}"
    ));
    hand.act(HandStep::Lift(Square::A3));
    hand.act(HandStep::Place(Square::A2, Color::White.pawn()));
    hector.expect("Board matches the game.");

    // Out of reach: said once; a move typed meanwhile.
    bluez.set_in_reach(address, false);
    hector.expect(
        "The board is out of reach or asleep. Play on with the keyboard; hector keeps looking for it.",
    );
    hector.type_line("Be7");
    hector.expect("Läufer Eva sieben");
    // Looked for again and again, over one connection to the Bluetooth
    // service (a new one at each try would pile up over a long absence).
    let clients = bluez.connections();
    std::thread::sleep(Duration::from_secs(7));
    assert_eq!(bluez.connections(), clients, "{}", bluez.log());
    bluez.set_in_reach(address, true);
    hector.expect_all(&[
        "Board connected again.",
        "On your board: black Läufer from Felix acht to Eva sieben.",
    ]);
    hand.play("Be7");
    hector.expect("Done: Läufer Eva sieben.");
    // The board's lights showed the move to make (f8 and e7), and went
    // out once it was made: the Chessnut's `0a 08` and a byte a rank, the
    // Pegasus's `60 07 …` with DGT's square numbers (e7 = 12, f8 = 5), the
    // eONE's ChessLink `L` (then `X`, all off).
    let (lit, off) = match kind {
        "chessnut" => ("0a080408000000000000", "0a080000000000000000"),
        "pegasus" => ("6007050300020c0500", "60020000"),
        _ => ("4c", "58"),
    };
    let lit_then_off = |written: &[String]| {
        written
            .iter()
            .position(|w| w.starts_with(lit))
            .is_some_and(|at| written[at..].iter().any(|w| w.starts_with(off)))
    };
    // The writes reach the board a moment after the sentence.
    let t = std::time::Instant::now();
    let mut written = bluez.written(address);
    while !lit_then_off(&written) && t.elapsed() < Duration::from_secs(3) {
        std::thread::sleep(Duration::from_millis(50));
        written = bluez.written(address);
    }
    assert!(lit_then_off(&written), "{written:?}");
    hand.play("d4");
    hector.expect("Bauer David vier");
    hector.quit();
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn chessnut_air_plays_a_whole_game_out_of_reach_and_back() {
    whole_game(
        "chessnut",
        CHESSNUT,
        "Chessnut Air",
        &format!("chessnut:{CHESSNUT}"),
        false,
    );
}

#[test]
fn pegasus_plays_a_whole_game_out_of_reach_and_back() {
    whole_game("pegasus", PEGASUS, "DGT_PEGASUS_A1", "pegasus", true);
}

#[test]
fn eone_plays_a_whole_game_out_of_reach_and_back() {
    whole_game("eone", EONE, "MILLENNIUM CHESS", "eone", false);
}

/// bleak, a BlueZ client of its own, finds, connects, subscribes and
/// writes to the fake's Chessnut: the fake answers it as a Chessnut on
/// BlueZ would (so a fault hector's plumbing hides is not hidden by a
/// fake kinder than BlueZ).
#[test]
fn an_independent_client_reads_the_fake_boards() {
    let bluez = FakeBluez::start();
    bluez.add_board("chessnut", CHESSNUT, "Chessnut Air", -50);
    bluez.add_board("pegasus", PEGASUS, "DGT_PEGASUS_A1", -70);
    let python = venv_python();
    let run = |args: &[&str]| {
        let out = Command::new(&python)
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/bleak_client.py"))
            .args(args)
            .env("DBUS_SYSTEM_BUS_ADDRESS", bluez.address())
            .output()
            .expect("bleak (scripts/venv.sh)");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(out.status.success(), "{text}\n{}", bluez.log());
        text
    };
    let position = "1b7e8262-2877-41c3-b46e-cf057c562023";
    let answers = "1b7e8273-2877-41c3-b46e-cf057c562023";
    let text = run(&[
        CHESSNUT,
        "1b7e8272-2877-41c3-b46e-cf057c562023",
        &format!("{position},{answers}"),
        "210100",
        "290100",
    ]);
    // The starting position, h8 first (Chessnut_eBoards §2), and the
    // battery (§4).
    let start = hex(&hector::testing::chessnut_position(&Board::new()));
    assert!(
        text.contains(&format!("notify {position} {start}")),
        "{text}"
    );
    assert!(
        text.contains(&format!("notify {answers} 2a025000")),
        "{text}"
    );
    assert!(text.contains("found Chessnut Air"), "{text}");
    assert!(text.ends_with("disconnected\n"), "{text}");
    // The Pegasus: nothing useful before its key, then a board dump of
    // 0s and 1s, 20 bytes a notification.
    let uart = "6e400003-b5a3-f393-e0a9-e50e24dcca9e";
    let text = run(&[
        PEGASUS,
        "6e400002-b5a3-f393-e0a9-e50e24dcca9e",
        uart,
        "42",
        "6307bef5aedda95f00",
        "42",
    ]);
    let notes: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix(&format!("notify {uart} ")))
        .collect();
    assert_eq!(notes.first(), Some(&"7f"), "{text}");
    let dump: String = notes[1..].concat();
    assert_eq!(
        dump,
        hex(&hector::testing::pegasus_occupancy(Board::new().occupied())),
        "{text}"
    );
    assert!(notes[1..].iter().all(|n| n.len() <= 40), "{text}");
    // The eONE: ChessLink's `S` (odd parity, block check) answered with
    // the `s` status of the 64 squares, 20 bytes a notification, through
    // characteristics found by what they can do.
    bluez.add_board("eone", EONE, "MILLENNIUM CHESS", -60);
    let notify = "49535343-1e4d-4bd9-ba61-23c647249616";
    let text = run(&[
        EONE,
        "49535343-8841-43f4-a8d4-ecbe34729bb3",
        notify,
        "d3b5b3",
    ]);
    assert!(
        text.contains(&format!(
            "char 49535343-fe7d-4ae5-8fa9-9fafd205e455 {notify} notify"
        )),
        "{text}"
    );
    let status: String = text
        .lines()
        .filter_map(|l| l.strip_prefix(&format!("notify {notify} ")))
        .collect();
    assert_eq!(
        status,
        hex(&SimBoard::new(Protocol::Millennium, Board::new()).dump()),
        "{text}"
    );
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn venv_python() -> String {
    let out = Command::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/venv.sh"))
        .output()
        .expect("scripts/venv.sh");
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// The Chessnut Move against Stockfish: the player's moves made by hand,
/// the engine's made by the board itself (said, then checked when its
/// report comes back); a move it cannot make (a square it is refused) is
/// said as a move to make by hand, and awaited as today.
#[test]
fn the_chessnut_move_makes_the_engines_moves() {
    let bluez = FakeBluez::start();
    bluez.add_board("chessnut-move", MOVE, "Chessnut Move", -55);
    let home = clean_config_dir();
    // `chessnut` names the Move too: it is told apart when heard.
    let mut hector = start(
        &bluez,
        &home,
        "chessnut",
        &[
            "--engine",
            "--level",
            "1",
            "--move-time",
            "50",
            "--me",
            "white",
            "--no-confirm",
        ],
    )
    .skipping("Waiting for the engine.");
    hector.expect("New game. White to move.");
    // The engine and the board get ready side by side.
    let mut two = [hector.next(), hector.next()];
    two.sort();
    assert_eq!(
        two,
        [
            "Board connected.",
            "Stockfish 15.1 is ready; you play White."
        ],
        "{:?}",
        hector.seen
    );
    let mut hand = Hand::new(&bluez, MOVE);
    for (i, mine) in ["e4", "d4", "Nf3"].into_iter().enumerate() {
        if i == 2 {
            // The board cannot move pieces off this rank any more.
            for f in ["a", "b", "c", "d", "e", "f", "g", "h"] {
                bluez.refuse(MOVE, &format!("{f}7"));
                bluez.refuse(MOVE, &format!("{f}8"));
                bluez.refuse(MOVE, &format!("{f}6"));
                bluez.refuse(MOVE, &format!("{f}5"));
            }
        }
        hand.play(mine);
        // The player's own move on the board is not said back to them;
        // the engine's answer is.
        let theirs = hector.next();
        let m = read_announced(&theirs, &hand.pos);
        hector.expect("Your board makes the move.");
        if i < 2 {
            hector.expect(&format!("Done: {theirs}."));
            hand.pos.play_unchecked(m);
            hand.sim = SimBoard::new(Protocol::Chessnut, hand.pos.board().clone());
            assert_eq!(
                bluez.position(MOVE),
                hand.pos.board().to_string(),
                "the board made {theirs}"
            );
        } else {
            hector.expect("Your board could not make the move: make it by hand.");
            let todo = hector.expect_start("On your board: ");
            assert!(todo.contains("black"), "{todo}");
            hand.play_move(m);
            hector.expect(&format!("Done: {theirs}."));
        }
    }
    // What the board was told: the real-time report on, then a target
    // position per engine move (chess_move_api §3).
    let written = bluez.written(MOVE);
    assert_eq!(
        written.first().map(String::as_str),
        Some("210100"),
        "{written:?}"
    );
    assert_eq!(
        written.get(1).map(String::as_str),
        Some("41010c"),
        "{written:?}"
    );
    assert_eq!(
        written.iter().filter(|w| w.starts_with("4221")).count(),
        3,
        "{written:?}"
    );
    hector.quit();
    let _ = std::fs::remove_dir_all(&home);
}

/// A move as hector announced it ("Springer Felix sechs"), read back in
/// `pos`.
fn read_announced(text: &str, pos: &Chess) -> Move {
    let reader = hector::Reader::builtin(hector::Lang::En);
    let part = text.split(',').next().unwrap_or(text).trim();
    reader
        .read(part, pos)
        .unwrap_or_else(|e| panic!("{text:?} is not a legal move here: {e:?}"))
}

/// `hector board list`: the serial ports, then the boards advertising
/// nearby, strongest first, each with the `--board` that chooses it.
#[test]
fn board_list_names_the_boards_nearby() {
    let bluez = FakeBluez::start();
    bluez.add_board("pegasus", PEGASUS, "DGT_PEGASUS_A1", -80);
    bluez.add_board("chessnut", CHESSNUT, "Chessnut Air", -50);
    let home = clean_config_dir();
    let out = Command::new(env!("CARGO_BIN_EXE_hector"))
        .args(["board", "list"])
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", &home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("DBUS_SYSTEM_BUS_ADDRESS", bluez.address())
        .output()
        .expect("hector board list");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let boards: Vec<&str> = text.lines().filter(|l| l.contains("nearby")).collect();
    assert_eq!(
        boards,
        [
            format!("Chessnut Air, nearby, strong signal: --board chessnut:{CHESSNUT}"),
            format!("DGT_PEGASUS_A1, nearby, weak signal: --board pegasus:{PEGASUS}"),
        ],
        "{text}"
    );
    // Without Bluetooth (no bus at all), the ports are listed and why no
    // board could be looked for is said.
    let out = Command::new(env!("CARGO_BIN_EXE_hector"))
        .args(["board", "list"])
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", &home)
        .env("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent/bus")
        .output()
        .expect("hector board list");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        text.lines()
            .any(|l| l == "No Bluetooth on this computer, or it is switched off."),
        "{text}"
    );
    // In the player's language.
    std::fs::create_dir_all(home.join("hector")).unwrap();
    std::fs::write(
        home.join("hector/config.toml"),
        "[announce]\nlanguage = \"de\"\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_hector"))
        .args(["board", "list"])
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", &home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("DBUS_SYSTEM_BUS_ADDRESS", bluez.address())
        .output()
        .expect("hector board list");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        text.lines().any(|l| l
            == format!("Chessnut Air, in der Nähe, starkes Signal: --board chessnut:{CHESSNUT}")),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&home);
}

/// A Chessnut with a low battery: said once when it connects, with what
/// to do; `--board auto` finds it when no serial board answers.
#[test]
fn auto_finds_a_wireless_board_and_a_low_battery_is_said() {
    let bluez = FakeBluez::start();
    bluez.add_board("chessnut", CHESSNUT, "Chessnut Air", -50);
    bluez.set_battery(CHESSNUT, 15);
    let home = clean_config_dir();
    let mut hector = start(&bluez, &home, "auto", &[]);
    hector.expect("New game. White to move.");
    hector.expect("Board connected.");
    hector.expect("The board's battery is low: 15 percent. Charge it soon.");
    let mut hand = Hand::new(&bluez, CHESSNUT);
    hand.play("e4");
    hector.expect("Bauer Eva vier");
    hector.quit();
    let _ = std::fs::remove_dir_all(&home);
}

/// A board kept in the settings (`[board] port`) is looked for again at
/// every start: no `--board` needed.
#[test]
fn a_board_kept_in_the_settings_is_found_at_the_next_start() {
    let bluez = FakeBluez::start();
    bluez.add_board("eone", EONE, "MILLENNIUM CHESS", -60);
    let home = clean_config_dir();
    std::fs::create_dir_all(home.join("hector")).unwrap();
    std::fs::write(
        home.join("hector/config.toml"),
        format!("[board]\nport = \"eone:{EONE}\"\n"),
    )
    .unwrap();
    for _ in 0..2 {
        let mut hector = Hector::play_with(
            &home,
            &[],
            &[("DBUS_SYSTEM_BUS_ADDRESS", Path::new(bluez.address()))],
        )
        .waiting(WAIT);
        hector.expect("New game. White to move.");
        hector.expect("Board connected.");
        hector.type_line("quit");
        hector.expect("Goodbye.");
        hector.close();
    }
    let _ = std::fs::remove_dir_all(&home);
}

/// No Bluetooth on the computer (here: no system bus at all): said once,
/// in the player's words, and the game goes on with the keyboard.
#[test]
fn without_bluetooth_the_game_goes_on_with_the_keyboard() {
    let home = clean_config_dir();
    let mut hector = Hector::play_with(
        &home,
        &["--board", "chessnut"],
        &[(
            "DBUS_SYSTEM_BUS_ADDRESS",
            Path::new("unix:path=/nonexistent/bus"),
        )],
    )
    .waiting(WAIT);
    hector.expect("New game. White to move.");
    hector
        .expect("Cannot open Chessnut: this computer has no Bluetooth ready; switch Bluetooth on.");
    hector.type_line("e4");
    hector.expect("Bauer Eva vier");
    hector.silent_for(Duration::from_millis(2500));
    hector.quit();
    let _ = std::fs::remove_dir_all(&home);
}

/// A board connected and at rest is not asked whether it is still there:
/// hector sleeps until BlueZ says something (a loss is the device's
/// `Connected` going false, heard at once, as the whole games above
/// show).  The fake logs every call made to it; over five seconds of rest
/// a Chessnut Air (nothing asked of it on a timer) gets none.
#[test]
fn a_board_at_rest_is_not_asked_whether_it_is_there() {
    let bluez = FakeBluez::start();
    bluez.add_board("chessnut", CHESSNUT, "Chessnut Air", -50);
    let home = clean_config_dir();
    let mut hector = start(&bluez, &home, &format!("chessnut:{CHESSNUT}"), &[]);
    hector.expect("New game. White to move.");
    hector.expect("Board connected.");
    // The battery asked at connect, and its answer, settle.
    std::thread::sleep(Duration::from_secs(1));
    let before = bluez.log().len();
    std::thread::sleep(Duration::from_secs(5));
    let log = bluez.log();
    let asked: Vec<&str> = log[before..]
        .lines()
        .filter(|l| l.contains("Get") || l.contains("Read") || l.contains("Write"))
        .collect();
    assert!(asked.is_empty(), "{asked:#?}");
    // Still the board of the game.
    let mut hand = Hand::new(&bluez, CHESSNUT);
    hand.play("e4");
    hector.expect("Bauer Eva vier");
    hector.quit();
    let _ = std::fs::remove_dir_all(&home);
}
