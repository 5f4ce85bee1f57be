//! Issue 18, the board and move items, through the real binary: a typed
//! square alone, the resume question, typed moves waiting to be made on
//! the player's board (DGT over a pseudo-terminal).

use std::time::Duration;

use hector::io::Protocol;
use hector::testing::HandStep;
use shakmaty::san::San;
use shakmaty::{Chess, Color, Move, Position, Square};

use crate::util::{Hector, Tactile, clean_config_dir, hector, hector_at, new_pty};

/// Between two messages of one move: less than the settle time.
const HAND: Duration = Duration::from_millis(15);

/// Item 2: a square alone is a pawn move.  `f7` after 1. e4 e5 2. Qh5
/// Nc6 played Qxf7+; now it asks, plays nothing, and the game goes on.
#[test]
fn a_square_alone_never_plays_a_piece() {
    let run = hector(&[], "e4\ne5\nQh5\nNc6\nf7\nturn\nQxf7\n");
    let lines = run.lines();
    assert_eq!(
        lines[5..],
        [
            "No pawn can go to Felix sieben. Did you mean Dame schlägt Felix sieben?",
            "White to move, move 3.",
            "Dame schlägt Felix sieben, Schach",
        ],
        "{}",
        run.stdout
    );
}

/// How long one announcement may take to come.
const WAIT: Duration = Duration::from_secs(4);
/// Longer than the settle time: a hand that stops.
const PAUSE: Duration = Duration::from_millis(700);

fn mv(pos: &Chess, san: &str) -> Move {
    san.parse::<San>()
        .ok()
        .and_then(|s| s.to_move(pos).ok())
        .unwrap_or_else(|| panic!("{san} is legal"))
}

/// hector on a DGT board in `home` (`extra` arguments), the board
/// answering with the start position.
fn on_dgt(home: &std::path::Path, extra: &[&str]) -> (Hector, Tactile) {
    let (master, path) = new_pty();
    let port = format!("dgt:{path}");
    let mut args = vec!["--board", port.as_str()];
    args.extend_from_slice(extra);
    let hector = Hector::play_in(home, &args).waiting(WAIT);
    (hector, Tactile::new(master, Protocol::Dgt))
}

/// A new game on a DGT board in `home`, the board connected.
fn connected_dgt(home: &std::path::Path) -> (Hector, Tactile) {
    let (mut hector, mut board) = on_dgt(home, &[]);
    hector.expect("New game. White to move.");
    board.answer(WAIT);
    hector.expect("Board connected.");
    (hector, board)
}

/// Item 1: Black typed `c5`, the pawn went c7→b6 on the board, the
/// mismatch was said; hector is killed.  Restarted, the board is compared
/// with the resumed game, never judged: answering yes to the question
/// says the same as `--resume` (the mismatch, no illegal move, no time
/// given to the opponent).
fn a_mismatch_then_killed(home: &std::path::Path) -> Tactile {
    let (mut hector, mut board) = on_dgt(home, &["--time", "90+30"]);
    hector.expect("New game. White to move.");
    board.answer(WAIT);
    hector.expect("Board connected.");
    let start = Chess::default();
    board.play(&start, mv(&start, "e4"), HAND);
    hector.expect("Bauer Eva vier");
    hector.type_line("c5");
    hector.expect_all(&[
        "Bauer Cesar fünf",
        "On your board: black Bauer from Cesar sieben to Cesar fünf.",
    ]);
    board.act(HandStep::Lift(Square::C7), PAUSE);
    board.act(HandStep::Place(Square::B6, Color::Black.pawn()), HAND);
    hector.expect(MISMATCH_B6);
    drop(hector);
    board
}

const MISMATCH_B6: &str = "Mismatch on two squares: Cesar fünf should have the black Bauer, it is empty. \
     Bella sechs should be empty, it has the black Bauer.";

/// What hector says after the resume: the same either way.
fn after_resume(hector: &mut Hector, board: &mut Tactile, answer: bool) {
    hector.expect("The last move was Bauer Cesar fünf.");
    let clocks = hector.expect_start("White: ");
    if answer {
        board.answer(WAIT);
        hector.expect("Board connected.");
    }
    hector.expect(MISMATCH_B6);
    // Black's clock (not running) as it was: no time given for a penalty.
    hector.type_line("time");
    let black = |line: &str| line.split("Black: ").nth(1).map(str::to_owned);
    let time = hector.next();
    assert_eq!(black(&time), black(&clocks), "{time}");
    hector.silent_for(Duration::from_millis(500));
}

#[test]
fn yes_to_the_resume_question_compares_the_board_as_resume_does() {
    for flag in [true, false] {
        let home = clean_config_dir();
        let board = a_mismatch_then_killed(&home);
        let extra: &[&str] = if flag { &["--resume"] } else { &[] };
        let (mut hector, mut new_board) = on_dgt(&home, extra);
        new_board.sim = board.sim;
        if flag {
            hector.expect("Game resumed. White to move, move 2.");
            after_resume(&mut hector, &mut new_board, true);
        } else {
            // The board answers while the question waits.
            hector.expect_start("An unfinished game of");
            new_board.answer(WAIT);
            hector.expect("Board connected.");
            hector.type_line("yes");
            hector.expect("Game resumed. White to move, move 2.");
            after_resume(&mut hector, &mut new_board, false);
        }
        hector.quit();
        let _ = std::fs::remove_dir_all(&home);
    }
}

/// Item 4: Black typed `a5`, the pawn was set on a6 and left there: a
/// wrong square, said after the settle time (it was 15 s of silence, then
/// a six-square mismatch after the next move); set on a5, it is done.
#[test]
fn a_pawn_short_of_its_double_step_is_a_wrong_square() {
    let home = clean_config_dir();
    let (mut hector, mut board) = connected_dgt(&home);
    let start = Chess::default();
    board.play(&start, mv(&start, "e4"), HAND);
    hector.expect("Bauer Eva vier");
    hector.type_line("a5");
    hector.expect_all(&[
        "Bauer Anna fünf",
        "On your board: black Bauer from Anna sieben to Anna fünf.",
    ]);
    board.act(HandStep::Lift(Square::A7), HAND);
    board.act(HandStep::Place(Square::A6, Color::Black.pawn()), HAND);
    hector.expect(
        "Mismatch on two squares: Anna fünf should have the black Bauer, it is empty. \
         Anna sechs should be empty, it has the black Bauer.",
    );
    board.act(HandStep::Lift(Square::A6), HAND);
    board.act(HandStep::Place(Square::A5, Color::Black.pawn()), HAND);
    hector.expect("Done: Bauer Anna fünf.");
    hector.quit();
    let _ = std::fs::remove_dir_all(&home);
}

/// Item 3: White typed `Bb5`, not yet made on the board; Black typed `a6`.
/// Both moves are asked for in order (it dropped the first and said a
/// four-square mismatch), the board is quiet on its way to them, each is
/// done in order; a piece set on no path to them is a mismatch, and taken
/// back, what remains to do is said again.
#[test]
fn a_reply_typed_before_the_move_is_on_the_board_is_queued() {
    let home = clean_config_dir();
    let (mut hector, mut board) = connected_dgt(&home);
    let mut pos = Chess::default();
    for (san, said) in [
        ("e4", "Bauer Eva vier"),
        ("e5", "Bauer Eva fünf"),
        ("Nf3", "Springer Felix drei"),
        ("Nc6", "Springer Cesar sechs"),
    ] {
        let m = mv(&pos, san);
        board.play(&pos, m, HAND);
        hector.expect(said);
        pos.play_unchecked(m);
    }
    hector.type_line("Bb5");
    let bishop = "On your board: white Läufer from Felix eins to Bella fünf.";
    hector.expect_all(&["Läufer Bella fünf", bishop]);
    hector.type_line("a6");
    let both = format!("{bishop} Then black Bauer from Anna sieben to Anna sechs.");
    hector.expect_all(&["Bauer Anna sechs", &both]);
    // A white knight set on a3: on no path to them.
    board.act(HandStep::Lift(Square::B1), HAND);
    board.act(HandStep::Place(Square::A3, Color::White.knight()), HAND);
    hector.expect(
        "Mismatch on two squares: Bella eins should have the white Springer, it is empty. \
         Anna drei should be empty, it has the white Springer.",
    );
    board.act(HandStep::Lift(Square::A3), HAND);
    board.act(HandStep::Place(Square::B1, Color::White.knight()), HAND);
    hector.expect(&both);
    // The reply first, with a pause: quiet; then the bishop: both done.
    board.act(HandStep::Lift(Square::A7), PAUSE);
    board.act(HandStep::Place(Square::A6, Color::Black.pawn()), PAUSE);
    board.act(HandStep::Lift(Square::F1), PAUSE);
    board.act(HandStep::Place(Square::B5, Color::White.bishop()), HAND);
    hector.expect_all(&["Done: Läufer Bella fünf.", "Done: Bauer Anna sechs."]);
    hector.type_line("board");
    hector.expect("Board matches the game.");
    hector.quit();
    let _ = std::fs::remove_dir_all(&home);
}

/// Black moving first on the board: "White is to move", not "Mismatch on
/// two squares"; put back, the board matches.
#[test]
fn black_moving_first_on_the_board_hears_whose_move_it_is() {
    let home = clean_config_dir();
    let (mut hector, mut board) = connected_dgt(&home);
    board.act(HandStep::Lift(Square::E7), HAND);
    board.act(HandStep::Place(Square::E5, Color::Black.pawn()), HAND);
    hector.expect("White is to move. Put the pieces back as they were.");
    board.act(HandStep::Lift(Square::E5), HAND);
    board.act(HandStep::Place(Square::E7, Color::Black.pawn()), HAND);
    hector.expect("Board matches the game.");
    hector.quit();
    let _ = std::fs::remove_dir_all(&home);
}

/// The resume question: `esci` (the Italian player's quit) leaves from it
/// and the game stays to be resumed; `hector resume 2026` that fits
/// several saved games lists them (it said there was none).
#[test]
fn the_resume_question_can_be_left_and_a_key_of_several_games_lists_them() {
    let home = clean_config_dir();
    let data = home.join("data");
    for game in ["e4\ne5\n", "d4\nd5\n"] {
        let run = hector_at(&home, &data, &home, &["play", "--no-resume"], game);
        assert!(run.success, "{}", run.stdout);
    }
    let run = hector_at(&home, &data, &home, &["play", "--lang", "it"], "esci\n");
    let lines = run.lines();
    assert!(lines[0].ends_with("Riprenderla? Sì o no."), "{lines:?}");
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(run.success);
    // Still offered.
    let run = hector_at(&home, &data, &home, &["play"], "quit\n");
    assert!(
        run.lines()[0].ends_with("Resume it? Yes or no."),
        "{}",
        run.stdout
    );
    // Both ids begin with the year.
    let year = &time_prefix(&data);
    let run = hector_at(&home, &data, &home, &["resume", year], "");
    assert!(!run.success);
    let lines = run.lines();
    assert_eq!(
        lines[0],
        format!("\"{year}\" fits two games: say the number or the whole id of one.")
    );
    assert!(
        lines[1].starts_with("1. ") && lines[2].starts_with("2. "),
        "{lines:?}"
    );
    assert!(
        lines[2].ends_with("White against Black, unfinished, one move."),
        "{lines:?}"
    );
    let _ = std::fs::remove_dir_all(&home);
}

/// The first four characters of the saved games' ids (the year).
fn time_prefix(data: &std::path::Path) -> String {
    let dir = std::fs::read_dir(data.join("hector").join("games"))
        .or_else(|_| std::fs::read_dir(data.join("hector")))
        .expect("the games folder");
    let names: Vec<String> = dir
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names
        .iter()
        .find(|n| n.len() > 4 && n[..4].chars().all(|c| c.is_ascii_digit()))
        .map(|n| n[..4].to_owned())
        .unwrap_or_else(|| panic!("no journal in {names:?}"))
}

/// Setting up the pieces on an empty board: the mismatch is said grouped
/// with the count first, then at each piece set only what changed, and
/// with a few squares left, what remains (it re-read every square at
/// every piece).
#[test]
fn setting_up_says_only_what_changed() {
    let home = clean_config_dir();
    let (master, path) = new_pty();
    let port = format!("dgt:{path}");
    let mut hector = Hector::play_in(&home, &["--board", &port]).waiting(WAIT);
    hector.expect("New game. White to move.");
    let mut board = Tactile {
        master,
        sim: hector::testing::SimBoard::new(Protocol::Dgt, shakmaty::Board::empty()),
    };
    board.answer(WAIT);
    hector.expect("Board connected.");
    hector.expect(
        "Mismatch on thirty-two squares: White's back rank is empty. \
         White: eight pieces missing: Bauern on all files of zwei. \
         Black's back rank is empty. \
         Black: eight pieces missing: Bauern on all files of sieben.",
    );
    board.act(HandStep::Place(Square::E1, Color::White.king()), HAND);
    hector.expect("Put right: Eva eins. Thirty-one squares to go.");
    let start = shakmaty::Board::new();
    for sq in start.occupied() {
        if sq == Square::E1 || sq == Square::A7 {
            continue;
        }
        let piece = start.piece_at(sq).expect("a piece");
        board.act(HandStep::Place(sq, piece), Duration::from_millis(2));
    }
    hector.expect(
        "Still to put right, one square: Anna sieben should have the black Bauer, it is empty.",
    );
    board.act(HandStep::Place(Square::A7, Color::Black.pawn()), HAND);
    hector.expect("Board matches the game.");
    hector.quit();
    let _ = std::fs::remove_dir_all(&home);
}

/// Item 3 after a restart: both moves still to make when hector is killed
/// are awaited again, in order, once the board answers.
#[test]
fn queued_moves_are_awaited_again_after_a_kill_and_resume() {
    let home = clean_config_dir();
    let (mut hector, board) = connected_dgt(&home);
    hector.type_line("e4");
    let e4 = "On your board: white Bauer from Eva zwei to Eva vier.";
    hector.expect_all(&["Bauer Eva vier", e4]);
    hector.type_line("c5");
    let both = format!("{e4} Then black Bauer from Cesar sieben to Cesar fünf.");
    hector.expect_all(&["Bauer Cesar fünf", &both]);
    drop(hector);
    let (mut hector, mut new_board) = on_dgt(&home, &["--resume"]);
    new_board.sim = board.sim;
    hector.expect_all(&[
        "Game resumed. White to move, move 2.",
        "The last move was Bauer Cesar fünf.",
    ]);
    new_board.answer(WAIT);
    hector.expect_all(&["Board connected.", &both]);
    let mut pos = Chess::default();
    for san in ["e4", "c5"] {
        let m = mv(&pos, san);
        new_board.play(&pos, m, HAND);
        pos.play_unchecked(m);
    }
    hector.expect_all(&["Done: Bauer Eva vier.", "Done: Bauer Cesar fünf."]);
    hector.quit();
    let _ = std::fs::remove_dir_all(&home);
}
