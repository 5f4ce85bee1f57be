//! Playing against an engine through the real binary in line mode: real
//! Stockfish at level 1 (a game, hint, eval, threat, takeback), the fake
//! engines of tests/engines for the faults, and a simulated tactile board
//! on a pseudo-terminal on which the engine's move is awaited and
//! confirmed.  hector is driven line by line, as a player would: the next
//! line is typed after the answer to the last one came.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use hector::io::Protocol;
use hector::{Lang, Reader};
use shakmaty::{Chess, Move, Position};

use crate::util::{Hector, Tactile, clean_config_dir, new_pty};

/// How long one answer may take (Stockfish's move time is 50 ms).
const WAIT: Duration = Duration::from_secs(10);
/// Between two messages of one move on the tactile board.
const HAND: Duration = Duration::from_millis(15);

fn fake(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/engines")
        .join(name)
        .display()
        .to_string()
}

/// `hector play ARGS`, answers awaited up to `WAIT`.
fn start(args: &[&str]) -> Hector {
    Hector::play(args)
        .waiting(WAIT)
        .skipping("Waiting for the engine.")
}

/// A move as hector announced it, read back by hector's own reader in the
/// test's copy of the position ("Springer Felix drei, Schach" too).
fn read_announced(text: &str, pos: &Chess) -> Move {
    let reader = Reader::builtin(Lang::En);
    let move_part = text.split(',').next().unwrap_or(text).trim();
    reader
        .read(move_part, pos)
        .unwrap_or_else(|e| panic!("{text:?} is not a legal move here: {e:?}"))
}

const STOCKFISH_LOW: &[&str] = &["--engine", "--level", "1", "--move-time", "50"];

#[test]
fn game_against_stockfish_at_level_one_with_hint_eval_threat_and_takeback() {
    let mut args = STOCKFISH_LOW.to_vec();
    args.extend(["--me", "white", "--no-confirm"]);
    let mut h = start(&args);
    h.expect("New game. White to move.");
    h.expect("Stockfish 15.1 is ready; you play White.");
    let mut pos = Chess::default();
    for _ in 0..6 {
        // The player follows the engine's hint (said in Appendix D words,
        // which hector reads as a move).
        h.type_line("hint");
        let hint = h.expect_start("Hint: ");
        // Without a ", Schach" after it.
        let mv_text = hint
            .trim_start_matches("Hint: ")
            .trim_end_matches('.')
            .split(',')
            .next()
            .unwrap_or_default()
            .to_owned();
        let mine = read_announced(&mv_text, &pos);
        pos.play_unchecked(mine);
        h.type_line(&mv_text);
        // The engine's answer: announced, and legal.
        let answer = h.next();
        let theirs = read_announced(&answer, &pos);
        pos.play_unchecked(theirs);
        if pos.is_game_over() {
            break;
        }
    }
    h.type_line("eval");
    let eval = h.next();
    assert!(
        ["equal", "better", "winning", "mates"]
            .iter()
            .any(|w| eval.contains(w)),
        "{eval}"
    );
    h.type_line("threat");
    if pos.is_check() {
        // The engine's last move gave check: that is the threat.
        h.expect("The side to move is in check: that is the threat.");
    } else {
        let threat = h.expect_start("The threat: ");
        let swapped = pos.clone().swap_turn().expect("not in check");
        let threat_move = threat
            .trim_start_matches("The threat: ")
            .trim_end_matches('.')
            .to_owned();
        read_announced(&threat_move, &swapped);
    }
    // Take back the last pair: the player is to move again in the position
    // two plies back.
    h.type_line("takeback");
    h.expect_start("Taken back: ");
    h.type_line("turn");
    h.expect_start("White to move");
    h.type_line("quit");
    h.expect("Goodbye.");
    h.close();
}

#[test]
fn engine_plays_white_when_the_player_is_black() {
    let mut args = STOCKFISH_LOW.to_vec();
    args.extend(["--me", "black"]);
    let mut h = start(&args);
    h.expect("New game. White to move.");
    h.expect("Stockfish 15.1 is ready; you play Black.");
    let first = h.next();
    read_announced(&first, &Chess::default());
    // A move typed for the engine's side while it thinks is refused.
    h.type_line("quit");
    h.expect("Goodbye.");
    h.close();
}

#[test]
fn input_ending_while_the_engine_thinks_waits_for_its_move() {
    let args = [
        "--engine",
        "--level",
        "1",
        "--move-time",
        "300",
        "--no-confirm",
    ];
    let mut h = start(&args);
    h.expect("New game. White to move.");
    h.type_line("e4");
    let lines = h.close();
    // Ready, then the engine's answer: never dropped.
    let last = lines.last().expect("lines");
    let mut pos = Chess::default();
    pos.play_unchecked(read_announced("e4", &pos));
    read_announced(last, &pos);
}

#[test]
fn rated_game_has_no_help() {
    let mut args = STOCKFISH_LOW.to_vec();
    args.push("--rated");
    let mut h = start(&args);
    h.expect("New game. White to move.");
    h.expect_start("Stockfish");
    for cmd in ["hint", "eval", "threat", "takeback"] {
        h.type_line(cmd);
        h.expect("Not in a rated game.");
    }
    h.type_line("quit");
    h.expect("Goodbye.");
    h.close();
}

const ON_KEYBOARD: &str = "The game is as it was: play on at the keyboard, or say engine restart.";

#[test]
fn missing_engine_is_said_once_and_the_game_goes_on() {
    let mut h = start(&["--engine", "/nonexistent/engine"]);
    h.expect("New game. White to move.");
    h.expect("No chess engine found: /nonexistent/engine. Play goes on at the keyboard.");
    h.type_line("e4");
    h.expect("Bauer Eva vier");
    h.type_line("e5");
    h.expect("Bauer Eva fünf");
    h.type_line("hint");
    h.expect("The engine is not running; say engine restart to start it again.");
    h.type_line("quit");
    h.expect("Goodbye.");
    h.close();
}

#[test]
fn crash_in_mid_game_is_said_once_then_keyboard_then_restart() {
    let mut h = start(&["--engine", &fake("crash.sh")]);
    h.expect("New game. White to move.");
    h.expect("Crash is ready; you play White.");
    h.type_line("e4");
    h.expect("Bauer Eva vier");
    h.expect("Bauer Eva fünf");
    h.type_line("Nf3");
    h.expect("Springer Felix drei");
    h.expect(&format!("The engine stopped working. {ON_KEYBOARD}"));
    h.silent_for(Duration::from_millis(300));
    // The sighted opponent plays Black's move at the keyboard.
    h.type_line("Nc6");
    h.expect("Springer Cesar sechs");
    h.type_line("engine restart");
    h.expect("Starting the engine again.");
    h.expect("Crash is ready; you play White.");
    h.type_line("quit");
    h.expect("Goodbye.");
    h.close();
}

#[test]
fn illegal_bestmove_and_garbage_are_said_once() {
    let mut h = start(&["--engine", &fake("illegal.sh")]);
    h.expect("New game. White to move.");
    h.expect("Illegal is ready; you play White.");
    h.type_line("d4");
    h.expect("Bauer David vier");
    h.expect(&format!(
        "The engine answered with an illegal move, e2e5. {ON_KEYBOARD}"
    ));
    h.type_line("turn");
    h.expect_start("Black to move");
    h.type_line("quit");
    h.expect("Goodbye.");
    h.close();

    let mut h = start(&["--engine", &fake("garbage.sh")]);
    h.expect("New game. White to move.");
    h.expect("Garbage is ready; you play White.");
    h.type_line("d4");
    h.expect("Bauer David vier");
    h.expect(&format!(
        "The engine sends lines that are not chess engine talk: #!~ noise 19 ~!#. {ON_KEYBOARD}"
    ));
    h.silent_for(Duration::from_millis(300));
    h.type_line("quit");
    h.expect("Goodbye.");
    h.close();
}

#[test]
fn hanging_engine_is_said_after_its_time_and_margin() {
    let mut h = start(&["--engine", &fake("hang.sh"), "--move-time", "100"]);
    h.expect("New game. White to move.");
    h.expect("Hang is ready; you play White.");
    h.type_line("e4");
    h.expect("Bauer Eva vier");
    h.expect("Bauer Eva fünf");
    let t = Instant::now();
    h.type_line("Nf3");
    h.expect("Springer Felix drei");
    h.expect(&format!("The engine does not answer. {ON_KEYBOARD}"));
    // 100 ms to think and 3 s of margin.
    assert!(
        t.elapsed() >= Duration::from_millis(3_000),
        "{:?}",
        t.elapsed()
    );
    h.type_line("quit");
    h.expect("Goodbye.");
    h.close();
}

#[test]
fn on_the_tactile_board_the_engines_move_is_awaited_and_confirmed() {
    let (master, path) = new_pty();
    let board_arg = format!("dgt:{path}");
    let mut args = STOCKFISH_LOW.to_vec();
    args.extend(["--board", &board_arg, "--no-confirm"]);
    let mut h = start(&args);
    let mut board = Tactile::new(master, Protocol::Dgt);
    h.expect("New game. White to move.");
    // "Board connected" only once the board answered with a position.
    board.answer(Duration::from_secs(5));
    let mut first_two = [h.next(), h.next()];
    first_two.sort();
    assert_eq!(
        first_two,
        [
            "Board connected.".to_owned(),
            "Stockfish 15.1 is ready; you play White.".to_owned()
        ]
    );
    let mut pos = Chess::default();
    for _ in 0..3 {
        // The player's move, made on the board.
        h.type_line("hint");
        let hint = h.expect_start("Hint: ");
        let mine = read_announced(
            hint.trim_start_matches("Hint: ").trim_end_matches('.'),
            &pos,
        );
        board.play(&pos, mine, HAND);
        pos.play_unchecked(mine);
        // The engine's move: announced, then made on the board by the
        // player and confirmed.
        let answer = h.next();
        let theirs = read_announced(&answer, &pos);
        // What to do on the board: an instruction, never a mismatch.
        let instruction = h.expect_start("On your board: ");
        assert!(instruction.contains(" from "), "{instruction}");
        board.play(&pos, theirs, HAND);
        pos.play_unchecked(theirs);
        h.expect(&format!("Done: {answer}."));
    }
    h.type_line("board");
    h.expect("Board matches the game.");
    h.type_line("quit");
    h.expect("Goodbye.");
    h.close();
}

/// Stockfish behind tests/engines/logging.sh, which copies every line
/// hector sends it to a file: hector, and the path of that file.
fn logged_stockfish(args: &[&str]) -> (Hector, PathBuf, PathBuf) {
    let home = clean_config_dir();
    let log = home.join("engine.log");
    let engine = fake("logging.sh");
    let mut all = vec!["--engine", &engine];
    all.extend(args);
    let h = Hector::play_with(&home, &all, &[("HECTOR_ENGINE_LOG", &log)])
        .waiting(WAIT)
        .skipping("Waiting for the engine.");
    (h, log, home)
}

/// The move in `text`, if it is one that is legal in `pos`.
fn move_in(text: &str, pos: &Chess) -> Option<Move> {
    let reader = Reader::builtin(Lang::En);
    let move_part = text.split(',').next().unwrap_or(text).trim();
    reader.read(move_part, pos).ok()
}

/// Lines until one is a legal move in `pos` (clock sentences may come
/// between).
fn next_move(h: &mut Hector, pos: &Chess) -> (String, Move) {
    loop {
        let line = h.next();
        if let Some(m) = move_in(&line, pos) {
            return (line, m);
        }
    }
}

/// Lines until one starts with `prefix`.
fn next_starting(h: &mut Hector, prefix: &str) -> String {
    loop {
        let line = h.next();
        if line.starts_with(prefix) {
            return line;
        }
    }
}

/// The `go` lines of the engine's log with their numbers by name.
fn go_lines(log: &Path) -> Vec<Vec<(String, u64)>> {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    text.lines()
        .filter(|l| l.starts_with("go "))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().skip(1).collect();
            words
                .chunks(2)
                .map(|kv| {
                    (
                        kv[0].to_owned(),
                        kv.get(1).and_then(|v| v.parse().ok()).unwrap_or(0),
                    )
                })
                .collect()
        })
        .collect()
}

#[test]
fn on_a_short_clock_the_engine_plays_on_its_time_and_presses_its_clock() {
    let (mut h, log, home) = logged_stockfish(&[
        "--level",
        "1",
        "--time",
        "0:20+1",
        "--me",
        "white",
        "--no-confirm",
    ]);
    h.expect("New game. White to move.");
    h.expect("Stockfish 15.1 is ready; you play White.");
    let mut pos = Chess::default();
    let rounds = 3;
    for _ in 0..rounds {
        h.type_line("hint");
        let hint = next_starting(&mut h, "Hint: ");
        let said = hint.trim_start_matches("Hint: ").trim_end_matches('.');
        let said = said.split(',').next().unwrap_or(said).to_owned();
        let mine = move_in(&said, &pos).unwrap_or_else(|| panic!("{hint}"));
        h.type_line(&said);
        pos.play_unchecked(mine);
        let (_, theirs) = next_move(&mut h, &pos);
        pos.play_unchecked(theirs);
        // The engine's move pressed its clock: its last move has a time.
        h.type_line("time last");
        let last = next_starting(&mut h, "Black's last move took ");
        assert!(!last.contains("no move"), "{last}");
    }
    // Both clocks ran and got their increments.
    h.type_line("time");
    let both = next_starting(&mut h, "White: ");
    assert!(both.contains(". Black: "), "{both}");
    h.type_line("quit");
    next_starting(&mut h, "Goodbye.");
    drop(h);

    // Each move of the engine was asked on the clock, with both times.
    let gos: Vec<_> = go_lines(&log)
        .into_iter()
        .filter(|g| g.iter().any(|(k, _)| k == "wtime"))
        .collect();
    assert_eq!(gos.len(), rounds, "{gos:?}");
    let get = |g: &[(String, u64)], key: &str| {
        g.iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| *v)
            .unwrap_or_else(|| panic!("no {key} in {g:?}"))
    };
    let mut last_btime = u64::MAX;
    for g in &gos {
        assert_eq!((get(g, "winc"), get(g, "binc")), (1000, 1000), "{g:?}");
        // White has moved: its time was pressed (at most 20 s + the
        // increments); Black's is what the engine has left.
        assert!(get(g, "wtime") <= 20_000 + 3 * 1000, "{g:?}");
        let btime = get(g, "btime");
        assert!(btime <= 20_000 + 3 * 1000, "{g:?}");
        assert!(btime <= last_btime.saturating_add(1000), "{gos:?}");
        last_btime = btime;
    }
    // The engine's own time was used: the last btime is below the first
    // plus the increments it earned.
    assert!(
        get(&gos[rounds - 1], "btime") < get(&gos[0], "btime") + 2 * 1000,
        "{gos:?}"
    );
    let _ = std::fs::remove_dir_all(home);
}

/// A script typed all at once: its second move comes while the engine
/// thinks.  It is refused with a clear sentence in the player's language;
/// the engine's move still comes, and the game is e4 and that move.
#[test]
fn a_move_piped_while_the_engine_thinks_is_refused_and_nothing_is_lost() {
    for (lang, sentence) in [
        ("en", "The engine is thinking; wait for its move."),
        ("de", "Das Schachprogramm denkt nach; warte auf seinen Zug."),
    ] {
        let run = crate::util::hector(
            &[
                "play",
                "--lang",
                lang,
                "--engine",
                "--level",
                "1",
                "--move-time",
                "300",
                "--no-confirm",
            ],
            "e4\nd4\n",
        );
        assert!(run.success, "{}", run.stderr);
        let lines = run.lines();
        assert_eq!(
            lines.iter().filter(|l| **l == sentence).count(),
            1,
            "{lines:?}"
        );
        // d4 was not played; the engine's answer to e4 was, last of all.
        assert!(!lines.contains(&"Bauer David vier"), "{lines:?}");
        let mut pos = Chess::default();
        pos.play_unchecked(read_announced("e4", &pos));
        let last = lines.last().expect("lines");
        read_announced(last, &pos);
    }
}

/// The engine's move is journalled like any other; a game stopped while
/// the engine thought resumes with the engine to move, and it moves.
#[test]
fn a_resumed_engine_game_goes_on_with_the_engine_to_move() {
    let home = clean_config_dir();
    // Stopped hard while the engine thinks (5 s) about its answer to e4.
    let mut h = Hector::play_in(&home, &["--engine", "--move-time", "5000", "--me", "white"])
        .waiting(WAIT)
        .skipping("Waiting for the engine.");
    h.expect("New game. White to move.");
    h.expect("Stockfish 15.1 is ready; you play White.");
    h.type_line("e4");
    h.expect("Bauer Eva vier");
    drop(h);

    // Resumed: Black, the engine, is to move, and moves.
    let mut h = Hector::play_in(
        &home,
        &[
            "--engine",
            "--level",
            "1",
            "--move-time",
            "50",
            "--me",
            "white",
            "--resume",
        ],
    )
    .waiting(WAIT)
    .skipping("Waiting for the engine.");
    h.expect("Game resumed. Black to move, move 1.");
    h.expect("The last move was Bauer Eva vier.");
    h.expect("Stockfish 15.1 is ready; you play White.");
    let mut pos = Chess::default();
    pos.play_unchecked(read_announced("e4", &pos));
    let answer = h.next();
    let theirs = read_announced(&answer, &pos);
    pos.play_unchecked(theirs);
    drop(h);

    // The engine's move was journalled: resumed again, it is the last
    // move, and the player is to move.
    let mut h = Hector::play_in(
        &home,
        &[
            "--engine",
            "--level",
            "1",
            "--move-time",
            "50",
            "--me",
            "white",
            "--resume",
        ],
    )
    .waiting(WAIT)
    .skipping("Waiting for the engine.");
    h.expect("Game resumed. White to move, move 2.");
    h.expect(&format!("The last move was {answer}."));
    h.expect("Stockfish 15.1 is ready; you play White.");
    h.silent_for(Duration::from_millis(500));
    h.quit();
    let _ = std::fs::remove_dir_all(home);
}

/// While hector asks whether to resume, the engine does not move in the
/// new game behind the question; after yes it moves in the resumed one.
#[test]
fn no_engine_move_while_the_resume_question_waits() {
    let home = clean_config_dir();
    let mut h = Hector::play_in(&home, &["--engine", "--move-time", "2000", "--me", "black"])
        .waiting(WAIT)
        .skipping("Waiting for the engine.");
    h.expect("New game. White to move.");
    h.expect("Stockfish 15.1 is ready; you play Black.");
    let pos = Chess::default();
    let first = h.next();
    read_announced(&first, &pos);
    h.type_line("a6");
    h.expect("Bauer Anna sechs");
    // Stopped while the engine thinks about its second move.
    drop(h);

    let args = [
        "--engine",
        "--level",
        "1",
        "--move-time",
        "50",
        "--me",
        "black",
    ];
    let mut h = Hector::play_in(&home, &args)
        .waiting(WAIT)
        .skipping("Waiting for the engine.");
    let offer = h.expect_start("An unfinished game of ");
    assert!(
        offer.contains("one move played. The last move was ")
            && offer.ends_with(". Resume it? Yes or no."),
        "{offer}"
    );
    h.expect("Stockfish 15.1 is ready; you play Black.");
    // White's engine would have the move in a new game: it waits.
    h.silent_for(Duration::from_millis(700));
    h.type_line("yes");
    h.expect("Game resumed. White to move, move 2.");
    h.expect("The last move was Bauer Anna sechs.");
    let mut pos = Chess::default();
    pos.play_unchecked(read_announced(&first, &pos));
    pos.play_unchecked(read_announced("a6", &pos));
    read_announced(&h.next(), &pos);
    h.quit();
    let _ = std::fs::remove_dir_all(home);
}

/// A Chess960 start (`--fen` with Shredder castling) goes to the engine
/// with UCI_Chess960 on, from its FEN, castling sent as king takes rook;
/// the engine's answer is legal in the Chess960 game.
#[test]
fn a_chess960_game_goes_to_the_engine_as_chess960() {
    let fen = "4rkr1/pppppppp/8/8/8/8/PPPPPPPP/4RKR1 w GEge - 0 1";
    let (mut h, log, home) = logged_stockfish(&[
        "--fen",
        fen,
        "--level",
        "1",
        "--move-time",
        "50",
        "--me",
        "white",
        "--no-confirm",
    ]);
    h.expect("Game set up. White to move, move 1.");
    h.expect("Stockfish 15.1 is ready; you play White.");
    let mut pos: Chess = fen
        .parse::<shakmaty::fen::Fen>()
        .expect("fen")
        .into_position(shakmaty::CastlingMode::Chess960)
        .expect("a Chess960 position");
    // Long castling: the king from f1 to c1, the rook from e1 to d1.
    h.type_line("O-O-O");
    let castle = read_announced("O-O-O", &pos);
    pos.play_unchecked(castle);
    let answer = h.next();
    let theirs = read_announced(&answer, &pos);
    pos.play_unchecked(theirs);
    assert_eq!(
        pos.board().king_of(shakmaty::Color::White),
        Some(shakmaty::Square::C1)
    );
    h.quit();
    let sent = std::fs::read_to_string(&log).expect("the engine's log");
    let lines: Vec<&str> = sent.lines().collect();
    let on = lines
        .iter()
        .position(|l| *l == "setoption name UCI_Chess960 value true")
        .unwrap_or_else(|| panic!("UCI_Chess960 never set: {lines:?}"));
    let position = lines
        .iter()
        .position(|l| l.starts_with("position "))
        .unwrap_or_else(|| panic!("no position: {lines:?}"));
    assert!(on < position, "{lines:?}");
    // From the FEN, the castling as king takes rook (f1e1, not f1c1).
    let line = lines[position];
    assert!(
        line.starts_with("position fen 4rkr1/pppppppp/8/8/8/8/PPPPPPPP/4RKR1 w "),
        "{line}"
    );
    assert!(line.ends_with(" moves f1e1"), "{line}");
    let _ = std::fs::remove_dir_all(home);
}

/// The hand's actions that take back `m`, played from `before`: the
/// piece goes back, a captured piece is set down again.
fn undo_actions(before: &Chess, m: Move) -> Vec<hector::testing::HandStep> {
    use hector::testing::HandStep::{Lift, Place};
    use shakmaty::{File, Square};
    let us = before.turn();
    let board = before.board();
    let piece = |sq: Square| board.piece_at(sq).expect("a piece there");
    match m {
        Move::Normal {
            from, capture, to, ..
        } => {
            let mut a = vec![Lift(to), Place(from, piece(from))];
            if let Some(role) = capture {
                a.push(Place(to, role.of(!us)));
            }
            a
        }
        Move::EnPassant { from, to } => vec![
            Lift(to),
            Place(from, piece(from)),
            Place(Square::from_coords(to.file(), from.rank()), (!us).pawn()),
        ],
        Move::Castle { king, rook } => {
            let short = rook.file() > king.file();
            let (k, r) = if short {
                (File::G, File::F)
            } else {
                (File::C, File::D)
            };
            let rank = king.rank();
            vec![
                Lift(Square::from_coords(k, rank)),
                Lift(Square::from_coords(r, rank)),
                Place(king, piece(king)),
                Place(rook, piece(rook)),
            ]
        }
        Move::Put { .. } => Vec::new(),
    }
}

/// `takeback` with a tactile board: the player is asked to take back the
/// engine's move and their own on the board, last first; the game follows
/// the board, the engine does not move meanwhile, and "Taken back" is said
/// once both are.
#[test]
fn on_the_tactile_board_a_takeback_is_asked_for_and_awaited() {
    let (master, path) = new_pty();
    let board_arg = format!("dgt:{path}");
    let mut args = STOCKFISH_LOW.to_vec();
    args.extend(["--board", &board_arg, "--no-confirm"]);
    let mut h = start(&args);
    let mut board = Tactile::new(master, Protocol::Dgt);
    h.expect("New game. White to move.");
    board.answer(Duration::from_secs(5));
    let mut first_two = [h.next(), h.next()];
    first_two.sort();
    assert_eq!(
        first_two,
        [
            "Board connected.".to_owned(),
            "Stockfish 15.1 is ready; you play White.".to_owned()
        ]
    );
    let mut pos = Chess::default();
    // (before, move, words) of every move played.
    let mut played: Vec<(Chess, Move, String)> = Vec::new();
    for mine in ["e4", "Nf3"] {
        let m = read_announced(mine, &pos);
        let words = hector::App::builder().build().phraser().say_move(&pos, m);
        board.play(&pos, m, HAND);
        played.push((pos.clone(), m, words));
        pos.play_unchecked(m);
        let answer = h.next();
        let theirs = read_announced(&answer, &pos);
        h.expect_start("On your board: ");
        board.play(&pos, theirs, HAND);
        h.expect(&format!("Done: {answer}."));
        played.push((pos.clone(), theirs, answer));
        pos.play_unchecked(theirs);
    }
    let (mine, theirs) = (&played[2], &played[3]);
    h.type_line("takeback");
    h.expect(&format!(
        "On your board, take back: {}, {}.",
        theirs.2, mine.2
    ));
    // Asked again: the same.
    h.type_line("takeback");
    h.expect(&format!(
        "On your board, take back: {}, {}.",
        theirs.2, mine.2
    ));
    // The engine's move taken back on the board: nothing said yet, and
    // the engine does not play it again.
    for a in undo_actions(&theirs.0, theirs.1) {
        board.act(a, HAND);
    }
    h.silent_for(Duration::from_millis(800));
    for a in undo_actions(&mine.0, mine.1) {
        board.act(a, HAND);
    }
    h.expect(&format!("Taken back: {}, {}.", mine.2, theirs.2));
    h.type_line("turn");
    h.expect_start("White to move, move 2");
    h.type_line("board");
    h.expect("Board matches the game.");
    h.silent_for(Duration::from_millis(300));
    h.quit();
}

/// The journal keeps the side the engine plays: resumed without `--me`,
/// the game goes on with its sides, and the engine, to move, moves.
#[test]
fn a_resumed_engine_game_keeps_its_sides() {
    let home = clean_config_dir();
    let mut h = Hector::play_in(&home, &["--engine", "--move-time", "2000", "--me", "black"])
        .waiting(WAIT)
        .skipping("Waiting for the engine.");
    h.expect("New game. White to move.");
    h.expect("Stockfish 15.1 is ready; you play Black.");
    let first = h.next();
    let mut pos = Chess::default();
    pos.play_unchecked(read_announced(&first, &pos));
    h.type_line("a6");
    h.expect("Bauer Anna sechs");
    pos.play_unchecked(read_announced("a6", &pos));
    drop(h);

    let args = ["--engine", "--level", "1", "--move-time", "50", "--resume"];
    let mut h = Hector::play_in(&home, &args)
        .waiting(WAIT)
        .skipping("Waiting for the engine.");
    h.expect("Game resumed. White to move, move 2.");
    h.expect("You play Black.");
    h.expect("The last move was Bauer Anna sechs.");
    h.expect("Stockfish 15.1 is ready; you play Black.");
    read_announced(&h.next(), &pos);
    h.quit();
    let _ = std::fs::remove_dir_all(home);
}

/// Issue 18, item 8: at `--level 1` the hint came from the weakened
/// engine.  Hint, threat and eval lift the level (`Skill Level` 20) and
/// the engine's own move gets level 1 back, before each `go`.
#[test]
fn help_is_searched_at_full_strength_and_the_engine_plays_at_its_level() {
    let (mut h, log, home) = logged_stockfish(&[
        "--level",
        "1",
        "--move-time",
        "50",
        "--me",
        "white",
        "--no-confirm",
    ]);
    h.expect("New game. White to move.");
    h.expect("Stockfish 15.1 is ready; you play White.");
    let mut pos = Chess::default();
    h.type_line("e4");
    pos.play_unchecked(move_in("e4", &pos).expect("e4"));
    let (_, reply) = next_move(&mut h, &pos);
    pos.play_unchecked(reply);
    for ask in ["hint", "threat", "eval"] {
        h.type_line(ask);
        h.next();
    }
    // d2-d4 is legal after any first move of Black's.
    h.type_line("d4");
    pos.play_unchecked(move_in("d4", &pos).expect("d4"));
    next_move(&mut h, &pos);
    h.type_line("quit");
    next_starting(&mut h, "Goodbye.");
    drop(h);
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    // Each `go` with the Skill Level in force at the time.
    let mut level = None;
    let mut gos = Vec::new();
    for line in text.lines() {
        if let Some(v) = line.strip_prefix("setoption name Skill Level value ") {
            level = Some(v.to_owned());
        }
        if line.starts_with("go ") {
            gos.push(level.clone().unwrap_or_default());
        }
    }
    // The engine's move, hint, threat, eval, the engine's move.
    assert_eq!(gos, ["1", "20", "20", "20", "1"], "{text}");
    let _ = std::fs::remove_dir_all(home);
}

/// Issue 18, item 8: `--level 5 --elo 2000` played at level 5 and said
/// nothing of the Elo.  The pair is refused, naming both.
#[test]
fn level_and_elo_together_are_refused() {
    let run = crate::util::hector(&["play", "--engine", "--level", "5", "--elo", "2000"], "");
    assert!(!run.success);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    assert!(
        run.stderr.contains("--elo") && run.stderr.contains("--level"),
        "{}",
        run.stderr
    );
}
