//! Issue 29's tournament mode through the real `hector` binary: a game on
//! a simulated DGT board with a clock where every refused question is
//! refused and recorded, a crash (SIGKILL) and resume that keep the mode
//! and the chain, the digest said at the end that `hector verify` gives
//! too; and the opponent's confirmation of the result tapped on the
//! companion page in headless Chromium, landing in the record.

use std::path::{Path, PathBuf};
use std::time::Duration;

use hector::io::Protocol;
use shakmaty::san::San;
use shakmaty::{Chess, Move, Position};

use crate::util::{Hector, Tactile, clean_config_dir, hector_data, new_pty};

const WAIT: Duration = Duration::from_secs(8);
const HAND: Duration = Duration::from_millis(15);
const REFUSED: &str = "Not in a tournament game: the rules allow no help beyond the board.";
const MODE: &str =
    "A tournament game: no help beyond the board, and every action is recorded for the arbiter.";

/// The one journal of `data` (XDG_DATA_HOME).
fn only_journal(data: &Path) -> PathBuf {
    let store = hector::Store::new(data.join("hector").join("games"));
    store
        .list()
        .ok()
        .and_then(|mut l| l.pop())
        .map(|g| g.path)
        .expect("a journal")
}

fn mv(pos: &Chess, san: &str) -> Move {
    san.parse::<San>()
        .ok()
        .and_then(|s| s.to_move(pos).ok())
        .unwrap_or_else(|| panic!("{san} is legal"))
}

/// `hector verify` on the journal of `data`: its sentence.
fn verify(data: &Path) -> String {
    let journal = only_journal(data);
    let run = hector_data(data, &["verify", journal.to_str().expect("a path")], "");
    assert!(run.success, "{}{}", run.stdout, run.stderr);
    run.lines()[0].to_string()
}

/// The digest said at the end ("… Its digest: 1234 5678 9012.").
fn said_digest(line: &str) -> String {
    line.strip_prefix("The record is closed. Its digest: ")
        .and_then(|d| d.strip_suffix('.'))
        .unwrap_or_else(|| panic!("the digest is said: {line:?}"))
        .to_owned()
}

/// A tournament game on a simulated DGT board with a clock: the mode said
/// at the start; every question the position computes, the engine's
/// advice, a take-back, a new game and the other colour refused in one
/// sentence, what the board shows answered.  hector killed (SIGKILL) mid
/// game and started again without `--tournament`: the game resumes in the
/// tournament mode (still refused), the chain goes on whole.  At the end
/// the player confirms the result and the digest said is the one `hector
/// verify` gives; the journal holds each question with its verdict and
/// each move with how it came (the board's, typed), and both starts of
/// hector (a kill leaves no record of its own).
#[test]
fn a_tournament_game_on_a_board_refuses_records_survives_a_kill_and_proves_itself() {
    let home = clean_config_dir();
    let data = home.join("data");
    let (master, path) = new_pty();
    let board_arg = format!("dgt:{path}");
    let mut h = Hector::play_in(
        &home,
        &["--tournament", "--time", "15+10", "--board", &board_arg],
    )
    .waiting(WAIT);
    h.expect_all(&["New game. White to move.", MODE]);
    let mut board = Tactile::new(master, Protocol::Dgt);
    board.answer(WAIT);
    h.expect("Board connected.");
    let refused = [
        "attackers e4",
        "defenders e2",
        "moves g1",
        "material",
        "hint",
        "eval",
        "threat",
        "takeback",
        "new",
        "flip",
        "engine",
    ];
    for q in refused {
        h.type_line(q);
        h.expect(REFUSED);
    }
    // What the board shows is the player's by right.
    h.type_line("square e2");
    h.expect("Eva zwei: white Bauer");
    let mut pos = Chess::default();
    let e4 = mv(&pos, "e4");
    board.play(&pos, e4, HAND);
    pos.play_unchecked(e4);
    h.expect("Bauer Eva vier");
    // The opponent's move typed, then made on the player's board.
    h.type_line("e5");
    h.expect_all(&[
        "Bauer Eva fünf",
        "On your board: black Bauer from Eva sieben to Eva fünf.",
    ]);
    let e5 = mv(&pos, "e5");
    board.play(&pos, e5, HAND);
    pos.play_unchecked(e5);
    h.expect("Done: Bauer Eva fünf.");
    // Killed: nothing of hector's own leaving is done.
    drop(h);

    // Started again without --tournament: the record's mode holds.
    let (master, path) = new_pty();
    let board_arg = format!("dgt:{path}");
    let mut h = Hector::play_in(&home, &["--resume", "--board", &board_arg]).waiting(WAIT);
    h.skip_to(MODE, WAIT);
    board.master = master;
    board.answer(WAIT);
    h.skip_to("Board connected.", WAIT);
    h.type_line("attackers e5");
    h.expect(REFUSED);
    h.type_line("turn");
    h.expect_start("White to move");
    let nf3 = mv(&pos, "Nf3");
    board.play(&pos, nf3, HAND);
    pos.play_unchecked(nf3);
    h.expect("Springer Felix drei");
    // Black resigns (typed for the opponent at the keyboard).
    h.type_line("resign");
    h.skip_to(
        "Please confirm the result: say confirm. Your opponent signs the result slip.",
        WAIT,
    );
    h.type_line("confirm");
    h.expect("White confirmed the result.");
    let digest = said_digest(&h.next());
    h.type_line("quit");
    h.skip_to("Goodbye.", WAIT);
    drop(h);

    let sentence = verify(&data);
    assert!(
        sentence.contains("the record is whole")
            && sentence.contains("a tournament game throughout")
            && sentence.ends_with(&format!("it ends with digest {digest}.")),
        "{sentence}"
    );
    // Every refused question recorded as refused (twelve), with the one
    // allowed square and turn asked: fourteen asked.
    assert!(
        sentence.contains("questions asked: 14, refused: 12"),
        "{sentence}"
    );
    let text = std::fs::read_to_string(only_journal(&data)).expect("the journal");
    for (what, arg) in [("attackers", "e4"), ("moves", "g1"), ("material", "")] {
        let want = format!("action white {what} \"{arg}\" via=typed refused");
        assert!(text.contains(&want), "{want} in\n{text}");
    }
    for want in [
        "action white square \"e2\" via=typed allowed",
        "action white move \"e4\" via=board allowed",
        "action black move \"e5\" via=typed allowed",
        "action white start \"\" via=hector allowed",
        "confirm white 1-0 via=typed",
        // Typed at the keyboard, the resignation is the side to move's.
        "action black resign \"\" via=typed allowed",
    ] {
        assert!(text.contains(want), "{want} in\n{text}");
    }
    // Started twice (the first session and the resume), stopped once
    // (the kill leaves no record of its own; the quit after the closed
    // record writes none).
    assert_eq!(text.matches("action white start").count(), 2, "{text}");
    let _ = std::fs::remove_dir_all(&home);
}

/// The opponent's confirmation of the result (Article 8.7's signature),
/// tapped on the companion page in headless Chromium: the page shows the
/// tournament game, asks for the confirmation only once the game is over
/// and the player confirmed, the tap is said to the player, the record is
/// closed and its digest, said and shown on the page, is `hector verify`'s;
/// both confirmations are records, the page's `via=page`.
#[test]
fn the_opponents_confirmation_on_the_page_lands_in_the_record() {
    use crate::browser::Browser;
    let home = clean_config_dir();
    let data = home.join("data");
    let mut h =
        Hector::play_in(&home, &["--tournament", "--companion", "127.0.0.1:0"]).waiting(WAIT);
    let first = h.next();
    let url = first
        .strip_prefix("The opponent's screen: open ")
        .and_then(|r| r.strip_suffix(" in a browser."))
        .unwrap_or_else(|| panic!("the address is said first: {first:?}"))
        .to_owned();
    h.expect_all(&["New game. White to move.", MODE]);
    let mut b = Browser::start();
    let p = b.new_page(&url);
    b.wait_text(p, "#seat", "You play this game.");
    h.skip_to("The opponent's screen is connected.", WAIT);
    b.wait_text(p, "#t-mode", "Tournament game");
    assert_eq!(b.attr(p, "#tournament", "hidden"), None, "shown");
    assert!(
        b.attr(p, "#confirm-result", "hidden").is_some(),
        "no result yet"
    );
    // The opponent's page has no arbiter's functions and no action log.
    assert!(
        b.attr(p, "#arbiter", "hidden").is_some(),
        "not the arbiter's"
    );
    assert_eq!(b.text(p, "#arb-log"), "");
    h.type_line("e4");
    h.expect("Bauer Eva vier");
    // (Typed at hector's keyboard, a resignation is the side to move's.)
    h.type_line("resign");
    h.skip_to(
        "Please confirm the result: say confirm. Your opponent confirms it on their page.",
        WAIT,
    );
    h.type_line("confirm");
    h.expect_all(&[
        "White confirmed the result.",
        "Now Black confirms it on their page.",
    ]);
    b.wait_text(p, "#confirm-result", "Confirm the result");
    b.click(p, "#confirm-result");
    h.skip_to("Black confirmed the result.", WAIT);
    let digest = said_digest(&h.next());
    b.wait_text(p, "#t-digest", &digest);
    b.wait_text(p, "#t-confirmed", "You confirmed the result.");
    h.type_line("quit");
    h.skip_to("Goodbye.", WAIT);
    drop(h);
    let sentence = verify(&data);
    assert!(
        sentence.ends_with(&format!("it ends with digest {digest}.")),
        "{sentence}"
    );
    let text = std::fs::read_to_string(only_journal(&data)).expect("the journal");
    for want in ["confirm white 1-0 via=typed", "confirm black 1-0 via=page"] {
        assert!(text.contains(want), "{want} in\n{text}");
    }
    // The confirmation is the record's last.
    let last = text.lines().last().unwrap_or_default();
    assert!(last.contains(" confirm black 1-0 via=page "), "{last}");
    let _ = std::fs::remove_dir_all(&home);
}

/// The arbiter's phone (issue 29): the arbiter's code is said only when
/// asked (`arbiter code`); the page opened with `?arbiter` in headless
/// Chromium pairs with it as the arbiter, adds two minutes to White's
/// clock (confirmed on the page), and the player hears it; the journal
/// records the arbiter's function.  Without a tournament game there is no
/// arbiter's code.
#[test]
fn the_arbiters_page_adds_time_and_the_player_hears_it() {
    use crate::browser::Browser;
    let home = clean_config_dir();
    let data = home.join("data");
    let mut h = Hector::play_in(
        &home,
        &[
            "--tournament",
            "--time",
            "15+10",
            "--companion",
            "127.0.0.1:0",
        ],
    )
    .waiting(WAIT);
    let first = h.next();
    let url = first
        .strip_prefix("The opponent's screen: open ")
        .and_then(|r| r.strip_suffix(" in a browser."))
        .unwrap_or_else(|| panic!("the address is said first: {first:?}"))
        .to_owned();
    h.expect_all(&["New game. White to move.", MODE]);
    h.type_line("e4");
    h.expect("Bauer Eva vier");
    h.type_line("arbiter code");
    let said = h.until("the arbiter's code", |l| {
        l.starts_with("The arbiter's code: ")
    });
    let code: String = said
        .trim_start_matches("The arbiter's code: ")
        .split('.')
        .next()
        .unwrap_or_default()
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    assert_eq!(code.len(), 6, "{said}");
    let mut b = Browser::start();
    let p = b.new_page(&format!("{url}?arbiter"));
    b.wait_text(p, "#pair-h", "Pair with hector");
    b.fill(p, "#code", &code);
    b.click(p, "#pair-button");
    b.wait_text(p, "#seat", "You are the arbiter.");
    // The action log as it grows: the move, the code asked.  (The log is
    // read when the first state comes, which is also when the arbiter's
    // functions are shown: the seat's words come before both.)
    b.wait_text(p, "#arb-log", r#"action white move "e4" via=typed allowed"#);
    assert_eq!(
        b.attr(p, "#arbiter", "hidden"),
        None,
        "the arbiter's functions"
    );
    b.wait_text(
        p,
        "#arb-log",
        r#"action white arbiter "code" via=typed allowed"#,
    );
    b.fill(p, "#arb-minutes", "2");
    b.click(p, "#arb-add");
    let done = h.until("the arbiter's function said", |l| {
        l.starts_with("Arbiter: ")
    });
    assert!(
        done.contains("two minutes") && done.contains("White") && done.ends_with("Done."),
        "{done}"
    );
    b.wait_text(p, "#notice", "Done.");
    b.wait_text(
        p,
        "#arb-log",
        r#"action white arbiter "add white 2:00" via=arbiter allowed"#,
    );
    h.type_line("time white");
    h.expect_start("White: seventeen minutes");
    h.type_line("quit");
    h.skip_to("Goodbye.", WAIT);
    drop(h);
    let text = std::fs::read_to_string(only_journal(&data)).expect("the journal");
    assert!(text.contains("arbiter add-time"), "{text}");
    // A game that is not a tournament's has no arbiter's code.
    let mut h = Hector::play(&["--companion", "127.0.0.1:0"]).waiting(WAIT);
    h.skip_to("New game. White to move.", WAIT);
    h.type_line("arbiter code");
    h.expect(
        "There is no arbiter's code: only a tournament game with the opponent's screen has one.",
    );
    h.quit();
    let _ = std::fs::remove_dir_all(&home);
}

/// The arbiter's settings file through the binary: what it allows is
/// said at the start, answered, and written in the start record; a file
/// that allows the engine, and an engine to play against, are refused
/// before the game starts, with the reason.
#[test]
fn the_arbiters_file_allows_a_question_and_an_engine_is_refused() {
    let data = clean_config_dir();
    let file = data.join("arbiter.toml");
    std::fs::write(&file, "[tournament]\nallow = [\"material\"]\n").expect("the file");
    let f = file.to_str().expect("a path");
    let run = hector_data(&data, &["play", "--tournament", f], "material\nmoves g1\n");
    assert!(run.success, "{}", run.stderr);
    let lines = run.lines();
    assert_eq!(
        lines[..3],
        [
            "New game. White to move.",
            MODE,
            "The arbiter allows you: material.",
        ],
        "{lines:?}"
    );
    assert_ne!(lines[3], REFUSED, "material is allowed: {lines:?}");
    assert_eq!(lines[4], REFUSED, "{lines:?}");
    let text = std::fs::read_to_string(only_journal(&data)).expect("the journal");
    let start = text.lines().nth(1).unwrap_or_default();
    assert!(
        start.contains(r#"mode="tournament""#) && start.contains(r#"allow="material""#),
        "{start}"
    );
    std::fs::write(&file, "[tournament]\nallow = [\"hint\"]\n").expect("the file");
    let run = hector_data(&data, &["play", "--tournament", f], "");
    assert!(!run.success);
    assert!(
        run.stdout.starts_with(&format!(
            "The arbiter's file {f} allows hint, which a tournament game cannot allow. It may allow: attackers, defenders, moves and material."
        )),
        "{}",
        run.stdout
    );
    let run = hector_data(&data, &["play", "--tournament", "--engine"], "");
    assert!(!run.success);
    assert_eq!(
        run.lines(),
        [
            "A tournament game has no engine to play against: start it without --engine, or with play = false in the [engine] settings."
        ]
    );
    let _ = std::fs::remove_dir_all(&data);
}
