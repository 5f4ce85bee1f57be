//! Issue 20, item 3: a tactile board in an online game, through the binary
//! against the stand-in lichess server (tests/support/lichess.rs) with a
//! simulated DGT board on a pseudo-terminal: the player's moves made on
//! the board are posted in UCI, the opponent's moves are said once and
//! awaited on the board, a refused move is taken back from the board's
//! expectation, and a move missed while the stream was down is awaited
//! after the reconnect.

use std::path::Path;
use std::time::Duration;

use hector::io::Protocol;
use hector::testing::HandStep;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Move, Position, Square};

use crate::lichess_server::StandIn;
use crate::util::{Hector, Tactile, clean_config_dir, is_first_move_deadline, new_pty};

const TOKEN: &str = "lip_boardStandIn0123456789";
/// How long one announcement may take to come.
const WAIT: Duration = Duration::from_secs(6);
/// Between two messages of one move: less than the settle time.
const HAND: Duration = Duration::from_millis(15);

fn uci(pos: &Chess, m: &str) -> Move {
    UciMove::from_ascii(m.as_bytes())
        .ok()
        .and_then(|u| u.to_move(pos).ok())
        .unwrap_or_else(|| panic!("{m} is legal"))
}

/// `hector play --lichess --challenge Mary --color white` against the
/// stand-in, on a DGT board; the game begun and the board connected.
fn online_on_dgt(server: &StandIn, home: &Path) -> (Hector, Tactile) {
    online_on_dgt_as(server, home, "white")
}

/// The same with the colour `color`.
fn online_on_dgt_as(server: &StandIn, home: &Path, color: &str) -> (Hector, Tactile) {
    let (master, path) = new_pty();
    let port = format!("dgt:{path}");
    let args = [
        "--lichess",
        "--lichess-url",
        server.url.as_str(),
        "--lang",
        "en",
        "--moves",
        "language",
        "--board",
        port.as_str(),
        "--challenge",
        "Mary",
        "--color",
        color,
        "--time",
        "10+5",
    ];
    let mut h =
        Hector::play_with(home, &args, &[("LICHESS_TOKEN", Path::new(TOKEN))]).waiting(WAIT);
    let mut board = Tactile::new(master, Protocol::Dgt);
    board.answer(WAIT);
    let side = if color == "white" { "White" } else { "Black" };
    // (The strict stand-in gives Mary her own rating whichever her colour.)
    let start = format!("The game against Mary, rated 1600, begins. You play {side}.");
    // The board and lichess answer in either order; White hears lichess's
    // deadline for the first move after the start (Black after White's).
    let (mut connected, mut begun, mut deadline) = (false, false, color != "white");
    while !(connected && begun && deadline) {
        let line = h.until("the board connected and the game begun", |l| {
            l == "Board connected." || l == start || is_first_move_deadline(l, 30)
        });
        connected |= line == "Board connected.";
        begun |= line == start;
        deadline |= is_first_move_deadline(&line, 30);
    }
    (h, board)
}

/// The moves the stand-in was asked to make, in UCI.
fn posted(server: &StandIn) -> Vec<String> {
    let s = server.state.lock().unwrap();
    s.log
        .iter()
        .filter_map(|l| l.strip_prefix("POST /api/board/game/stand1n0/move/"))
        .map(str::to_owned)
        .collect()
}

/// How many of `lines` are `line`.
fn count(lines: &[String], line: &str) -> usize {
    lines.iter().filter(|l| *l == line).count()
}

/// A whole game by challenge: White's moves made on the board and posted
/// in UCI; Black's said once and awaited on the board; a wrong square
/// reported as offline; the board quiet once it matches; mate said.
#[test]
fn a_whole_game_on_the_board_posted_in_uci_and_the_replies_awaited() {
    let server = StandIn::start(TOKEN, "Georges");
    server.state.lock().unwrap().replies = ["e7e5", "d8h4"].map(String::from).into();
    let home = clean_config_dir();
    let (mut h, mut board) = online_on_dgt(&server, &home);
    let mut pos = Chess::default();
    let m = uci(&pos, "f2f3");
    board.play(&pos, m, HAND);
    pos.play_unchecked(m);
    h.expect("pawn f3");
    h.expect("pawn e5");
    h.expect("On your board: black pawn from e7 to e5.");
    // The pawn set down on e6: a wrong square, as offline.
    board.act(HandStep::Lift(Square::E7), HAND);
    board.act(HandStep::Place(Square::E6, Color::Black.pawn()), HAND);
    h.expect(
        "Mismatch on two squares: e5 should have the black pawn, it is empty. \
         e6 should be empty, it has the black pawn.",
    );
    board.act(HandStep::Lift(Square::E6), HAND);
    board.act(HandStep::Place(Square::E5, Color::Black.pawn()), HAND);
    h.expect("Done: pawn e5.");
    pos.play_unchecked(uci(&pos, "e7e5"));
    // Quiet once the board matches.
    h.silent_for(Duration::from_millis(800));
    let m = uci(&pos, "g2g4");
    board.play(&pos, m, HAND);
    pos.play_unchecked(m);
    h.expect("pawn g4");
    h.expect("Queen h4, checkmate");
    h.expect("Checkmate. Black wins, zero to one.");
    h.expect("On your board: black queen from d8 to h4.");
    let m = uci(&pos, "d8h4");
    board.play(&pos, m, HAND);
    h.expect("Done: queen h4, checkmate.");
    h.silent_for(Duration::from_millis(800));
    let lines = h.close();
    for once in [
        "pawn e5",
        "Queen h4, checkmate",
        "Done: pawn e5.",
        "Done: queen h4, checkmate.",
    ] {
        assert_eq!(count(&lines, once), 1, "{once}: {lines:#?}");
    }
    assert_eq!(posted(&server), ["f2f3", "g2g4"]);
    let _ = std::fs::remove_dir_all(&home);
}

/// A move the server refuses after it was made on the board: said, and
/// the board's expectation taken back: the piece is to go back, the board
/// matches once it has, and the next move made there is posted.
#[test]
fn a_refused_move_made_on_the_board_is_taken_back_from_its_expectation() {
    let server = StandIn::start(TOKEN, "Georges");
    {
        let mut s = server.state.lock().unwrap();
        s.refuse = vec!["g1f3".into()];
        s.replies = ["e7e5", "d7d5"].map(String::from).into();
    }
    let home = clean_config_dir();
    let (mut h, mut board) = online_on_dgt(&server, &home);
    let mut pos = Chess::default();
    let m = uci(&pos, "e2e4");
    board.play(&pos, m, HAND);
    pos.play_unchecked(m);
    h.expect("pawn e4");
    h.expect("pawn e5");
    h.expect("On your board: black pawn from e7 to e5.");
    let m = uci(&pos, "e7e5");
    board.play(&pos, m, HAND);
    pos.play_unchecked(m);
    h.expect("Done: pawn e5.");
    let before = pos.clone();
    let m = uci(&pos, "g1f3");
    board.play(&pos, m, HAND);
    h.expect("Knight f3");
    h.expect("lichess refused knight f3. Take the move back on your board; it is still your move.");
    h.expect(
        "Mismatch on two squares: g1 should have the white knight, it is empty. \
         f3 should be empty, it has the white knight.",
    );
    board.act(HandStep::Lift(Square::F3), HAND);
    board.act(HandStep::Place(Square::G1, Color::White.knight()), HAND);
    h.expect("Board matches the game.");
    let m = uci(&before, "d2d4");
    board.play(&before, m, HAND);
    h.expect("pawn d4");
    h.expect("pawn d5");
    h.close();
    assert_eq!(posted(&server), ["e2e4", "g1f3", "d2d4"]);
    let _ = std::fs::remove_dir_all(&home);
}

/// The stream dropped while the opponent moves: after the reconnect the
/// missed move is said once and awaited on the board once.
#[test]
fn a_move_missed_while_the_stream_was_down_is_awaited_on_the_board_once() {
    let server = StandIn::start(TOKEN, "Georges");
    {
        let mut s = server.state.lock().unwrap();
        s.drop_at = Some(2);
        s.replies = ["e7e5", "b8c6"].map(String::from).into();
    }
    let home = clean_config_dir();
    let (mut h, mut board) = online_on_dgt(&server, &home);
    let mut pos = Chess::default();
    let m = uci(&pos, "e2e4");
    board.play(&pos, m, HAND);
    pos.play_unchecked(m);
    h.expect("pawn e4");
    h.expect("pawn e5");
    h.expect("On your board: black pawn from e7 to e5.");
    let m = uci(&pos, "e7e5");
    board.play(&pos, m, HAND);
    pos.play_unchecked(m);
    h.expect("Done: pawn e5.");
    let m = uci(&pos, "g1f3");
    board.play(&pos, m, HAND);
    pos.play_unchecked(m);
    h.expect("Knight f3");
    h.expect("Knight c6");
    h.expect("On your board: black knight from b8 to c6.");
    let m = uci(&pos, "b8c6");
    board.play(&pos, m, HAND);
    h.expect("Done: knight c6.");
    h.silent_for(Duration::from_millis(800));
    let lines = h.close();
    for once in [
        "pawn e5",
        "On your board: black pawn from e7 to e5.",
        "Done: pawn e5.",
    ] {
        assert_eq!(count(&lines, once), 1, "{once}: {lines:#?}");
    }
    let s = server.state.lock().unwrap();
    let streams = s
        .log
        .iter()
        .filter(|l| l.starts_with("GET /api/board/game/stream/"))
        .count();
    assert_eq!(streams, 2, "one reconnect: {:?}", s.log);
    drop(s);
    assert_eq!(posted(&server), ["e2e4", "g1f3"]);
    let _ = std::fs::remove_dir_all(&home);
}

/// Playing Black: the opponent's first move is awaited on the board; a
/// move typed instead of made on the board is posted once and awaited
/// there, and made on the board it is done, not posted again.
#[test]
fn as_black_a_typed_move_is_posted_once_and_awaited_on_the_board() {
    let server = StandIn::start(TOKEN, "Georges");
    server.state.lock().unwrap().replies = ["g1f3"].map(String::from).into();
    let home = clean_config_dir();
    let (mut h, mut board) = online_on_dgt_as(&server, &home, "black");
    // White (Mary) opens.
    {
        let mut s = server.state.lock().unwrap();
        let g = s.game.as_mut().unwrap();
        g.moves.push("e2e4".into());
        g.version += 1;
    }
    h.expect("pawn e4");
    h.expect("On your board: white pawn from e2 to e4.");
    let line = h.next();
    assert!(is_first_move_deadline(&line, 30), "{line:?}");
    let mut pos = Chess::default();
    let m = uci(&pos, "e2e4");
    board.play(&pos, m, HAND);
    pos.play_unchecked(m);
    h.expect("Done: pawn e4.");
    h.type_line("c5");
    h.expect("pawn c5");
    h.expect("On your board: black pawn from c7 to c5.");
    h.expect("Knight f3");
    h.expect("On your board: black pawn from c7 to c5. Then white knight from g1 to f3.");
    for m in ["c7c5", "g1f3"] {
        let m = uci(&pos, m);
        board.play(&pos, m, HAND);
        pos.play_unchecked(m);
    }
    h.expect("Done: pawn c5.");
    h.expect("Done: knight f3.");
    h.silent_for(Duration::from_millis(800));
    h.close();
    assert_eq!(posted(&server), ["c7c5"]);
    let _ = std::fs::remove_dir_all(&home);
}

/// The opponent's move made on the board before lichess sends it is not
/// played (only lichess moves for the opponent; it was played into the
/// game, and lichess's own move then "could not be played here"): said,
/// and when lichess sends it, it is announced and already done.
#[test]
fn the_opponents_move_made_on_the_board_first_waits_for_lichess() {
    let server = StandIn::start(TOKEN, "Georges");
    let home = clean_config_dir();
    let (mut h, mut board) = online_on_dgt(&server, &home);
    let mut pos = Chess::default();
    let m = uci(&pos, "e2e4");
    board.play(&pos, m, HAND);
    pos.play_unchecked(m);
    h.expect("pawn e4");
    let m = uci(&pos, "e7e5");
    board.play(&pos, m, HAND);
    h.expect("It is your opponent's move; wait for it.");
    h.expect(
        "Mismatch on two squares: e7 should have the black pawn, it is empty. \
         e5 should be empty, it has the black pawn.",
    );
    {
        let mut s = server.state.lock().unwrap();
        let g = s.game.as_mut().unwrap();
        g.moves.push("e7e5".into());
        g.version += 1;
    }
    h.expect("pawn e5");
    h.expect("Done: pawn e5.");
    pos.play_unchecked(m);
    let m = uci(&pos, "g1f3");
    board.play(&pos, m, HAND);
    h.expect("Knight f3");
    h.silent_for(Duration::from_millis(800));
    let lines = h.close();
    assert_eq!(count(&lines, "pawn e5"), 1, "{lines:#?}");
    assert_eq!(posted(&server), ["e2e4", "g1f3"]);
    let _ = std::fs::remove_dir_all(&home);
}

/// A typed move lichess refuses before it was made on the board: the
/// move is taken back, the board is no longer asked for it and stays
/// quiet; the next move made there is sent.
#[test]
fn a_refused_typed_move_is_no_longer_awaited_on_the_board() {
    let server = StandIn::start(TOKEN, "Georges");
    {
        let mut s = server.state.lock().unwrap();
        s.refuse = vec!["e2e4".into()];
        s.replies = ["d7d5"].map(String::from).into();
    }
    let home = clean_config_dir();
    let (mut h, mut board) = online_on_dgt(&server, &home);
    h.type_line("e4");
    h.expect("pawn e4");
    h.expect("On your board: white pawn from e2 to e4.");
    h.expect("lichess refused pawn e4. The move is taken back; it is still your move.");
    h.silent_for(Duration::from_millis(800));
    let pos = Chess::default();
    board.play(&pos, uci(&pos, "d2d4"), HAND);
    h.expect("pawn d4");
    h.expect("pawn d5");
    h.close();
    assert_eq!(posted(&server), ["e2e4", "d2d4"]);
    let _ = std::fs::remove_dir_all(&home);
}
