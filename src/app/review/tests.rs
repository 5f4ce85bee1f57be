use std::time::Instant;

use super::*;
use crate::app::App;
use crate::msg::Effect;
use crate::msg::Msg;

const FILE: &str = "[White \"Anna\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n[Date \"2026.01.02\"]\n\n1. e4 {[%clk 0:04:58]} e5 {(=)} 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n\
[White \"Carla\"]\n[Black \"Dieter Müller\"]\n[Result \"*\"]\n\n1. d4 d5 2. Ke3 *\n";

fn app() -> App {
    let mut a = App::builder().build();
    a.start_review(PgnFile::from_bytes(FILE.as_bytes().to_vec()).unwrap());
    a
}

fn said(a: &mut App, line: &str) -> Vec<String> {
    let msg = if line.is_empty() {
        Msg::Start
    } else {
        Msg::Line(line.into())
    };
    a.update(msg, Instant::now())
        .into_iter()
        .filter_map(|e| match e {
            Effect::Say(u) => Some(u.text),
            _ => None,
        })
        .collect()
}

/// Why a FEN is not a legal position, in hector's words in each
/// language: never the chess library's English.
#[test]
fn a_bad_fens_reason_is_in_the_players_language() {
    use crate::words::Lang;
    let e = crate::scoresheet::start::from_fen("4k3/8/8/8/8/8/8/8 w - - 0 1").unwrap_err();
    let e2 = crate::scoresheet::start::from_fen("4k3/8/8/8/8/8/8/P3K3 w - - 0 1").unwrap_err();
    let want = [
        (
            Lang::En,
            "The FEN is not a legal position: a king is missing.",
            "The FEN is not a legal position: a pawn stands on the first or eighth rank.",
        ),
        (
            Lang::De,
            "Die FEN ist keine erlaubte Stellung: ein König fehlt.",
            "Die FEN ist keine erlaubte Stellung: ein Bauer steht auf der ersten oder achten Reihe.",
        ),
        (
            Lang::It,
            "La FEN non è una posizione legale: manca un re.",
            "La FEN non è una posizione legale: un pedone si trova sulla prima o sull'ottava traversa.",
        ),
        (
            Lang::El,
            "Το FEN δεν είναι νόμιμη θέση: λείπει ένας βασιλιάς.",
            "Το FEN δεν είναι νόμιμη θέση: ένα πιόνι βρίσκεται στην πρώτη ή στην όγδοη οριζόντια.",
        ),
    ];
    for (lang, king, pawn) in want {
        let a = App::builder().lang(lang).build();
        assert_eq!(start_error_sentence(a.phraser(), &e), king, "{lang:?}");
        assert_eq!(start_error_sentence(a.phraser(), &e2), pawn, "{lang:?}");
    }
    // Every problem has its own words in every language.
    for lang in Lang::ALL {
        let a = App::builder().lang(lang).build();
        let all = [
            PositionProblem::EmptyBoard,
            PositionProblem::MissingKing,
            PositionProblem::TooManyKings,
            PositionProblem::PawnsOnBackRank,
            PositionProblem::CastlingRights,
            PositionProblem::EnPassantSquare,
            PositionProblem::OppositeCheck,
            PositionProblem::ImpossibleCheck,
            PositionProblem::TooMuchMaterial,
            PositionProblem::Other,
        ];
        let words: std::collections::HashSet<String> = all
            .iter()
            .map(|p| a.phraser().message(position_problem_key(*p), &[]))
            .collect();
        assert_eq!(words.len(), all.len(), "{lang:?}");
        assert!(
            words.iter().all(|w| !w.contains('_') && !w.is_empty()),
            "{lang:?}: {words:?}"
        );
    }
}

/// Issue 18: a 10,000-game file printed 10,000 lines.  Above twenty
/// games the count and how to choose one; `games` lists them.
#[test]
fn a_long_file_says_its_count_and_how_to_choose_not_every_game() {
    let one = "[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 *\n\n";
    let mut a = App::builder().build();
    a.start_review(PgnFile::from_bytes(one.repeat(21).into_bytes()).unwrap());
    assert_eq!(
        said(&mut a, ""),
        [
            "Twenty-one games in the file.",
            "Say game and a number to choose one, or find and a name."
        ]
    );
    assert_eq!(said(&mut a, "games").len(), 21);
    let mut a = App::builder().build();
    a.start_review(PgnFile::from_bytes(one.repeat(20).into_bytes()).unwrap());
    assert_eq!(said(&mut a, "").len(), 22, "twenty are listed");
}

/// Issue 18: comments and annotations were silently dropped.
#[test]
fn comments_and_annotations_are_heard_on_request() {
    let text =
        "[White \"A\"]\n[Black \"B\"]\n\n{Opening} 1. e4 $1 {The best by test} e5 2. f4 ?? *\n";
    let mut a = App::builder().build();
    a.start_review(PgnFile::from_bytes(text.as_bytes().to_vec()).unwrap());
    said(&mut a, "");
    assert_eq!(
        said(&mut a, "comment"),
        ["There is no move yet: say next for the first move."]
    );
    assert_eq!(
        said(&mut a, "next"),
        ["1. Bauer Eva vier; say comment to hear its comment."]
    );
    assert_eq!(
        said(&mut a, "comment"),
        ["1. Bauer Eva vier: good move; The best by test"]
    );
    assert_eq!(said(&mut a, "next"), ["1... Bauer Eva fünf"]);
    assert_eq!(
        said(&mut a, "comment"),
        ["There is no comment on 1... Bauer Eva fünf."]
    );
    said(&mut a, "next");
    assert_eq!(said(&mut a, "comment"), ["2. Bauer Felix vier: blunder"]);
}

/// Issue 18: variations were silently dropped.
#[test]
fn variations_are_heard_on_request() {
    let text = "[White \"A\"]\n\n1. e4 e5 (1... c5 2. Nf3) (1... e6) 2. Nf3 *\n";
    let mut a = App::builder().build();
    a.start_review(PgnFile::from_bytes(text.as_bytes().to_vec()).unwrap());
    said(&mut a, "");
    said(&mut a, "next");
    assert_eq!(
        said(&mut a, "variations"),
        ["There is no variation instead of 1. Bauer Eva vier."]
    );
    assert_eq!(
        said(&mut a, "next"),
        ["1... Bauer Eva fünf; say variations to hear the other moves."]
    );
    assert_eq!(
        said(&mut a, "variations"),
        [
            "Instead of 1... Bauer Eva fünf: 1... Bauer Cesar fünf, 2. Springer Felix drei.",
            "Or: 1... Bauer Eva sechs."
        ]
    );
    // The main line goes on.
    assert_eq!(said(&mut a, "next"), ["2. Springer Felix drei"]);
}

#[test]
fn the_games_are_listed_chosen_and_stepped_through() {
    let mut a = app();
    let s = said(&mut a, "");
    assert_eq!(s[0], "Two games in the file.");
    assert_eq!(
        s[1],
        "Game 1: Anna against Bob, White won, January second, two thousand twenty-six."
    );
    assert_eq!(s[2], "Game 2: Carla against Dieter Müller, unfinished.");
    assert_eq!(
        said(&mut a, "next"),
        vec!["Choose a game first: say game and its number."]
    );
    assert_eq!(
        said(&mut a, "find muller"),
        vec!["Game 2: Carla against Dieter Müller, unfinished."]
    );
    assert_eq!(
        said(&mut a, "game 1"),
        vec!["Game 1: Anna against Bob, White won. Four moves. Say next for the first move."]
    );
    assert_eq!(
        said(&mut a, "next"),
        vec!["1. Bauer Eva vier; clock four minutes fifty-eight seconds."]
    );
    assert_eq!(
        said(&mut a, "next"),
        vec!["1... Bauer Eva fünf, with a draw offer"]
    );
    // Exploration works on the position reached.
    assert_eq!(said(&mut a, "square e5"), vec!["Eva fünf: black Bauer"]);
    assert_eq!(
        said(&mut a, "previous"),
        vec!["Back, before 1... Bauer Eva fünf, with a draw offer."]
    );
    assert_eq!(said(&mut a, "goto 3"), vec!["3. Läufer Cesar vier"]);
    assert_eq!(a.game().history().len(), 5);
    let end = said(&mut a, "end");
    assert_eq!(
        end,
        vec!["End of the game: 4. Dame schlägt Felix sieben, Schachmatt. Result: White won."]
    );
    assert_eq!(said(&mut a, "next"), vec!["That was the last move."]);
    assert_eq!(
        said(&mut a, "start"),
        vec!["Start position. White to move, move 1."]
    );
    assert_eq!(
        said(&mut a, "e4"),
        vec!["In review, say next, previous, goto and a move number, start or end."]
    );
}

#[test]
fn a_file_that_cannot_be_read_is_said_in_the_players_words() {
    let missing = PgnFile::read(std::path::Path::new("/nonexistent/games.pgn")).unwrap_err();
    assert_eq!(missing, PgnProblem::NoSuchFile);
    let folder = PgnFile::read(&std::env::temp_dir()).unwrap_err();
    assert_eq!(folder, PgnProblem::IsAFolder);
    let said = |lang| {
        let p = Phraser::builtin(
            crate::phrase::MoveStyle::AppendixD,
            lang,
            Default::default(),
        );
        pgn_problem_sentence(&p, &missing)
    };
    assert_eq!(
        said(crate::words::Lang::En),
        "The PGN file cannot be read: there is no such file."
    );
    assert_eq!(
        said(crate::words::Lang::De),
        "Die PGN-Datei ist nicht lesbar: diese Datei gibt es nicht."
    );
}

#[test]
fn a_word_that_is_not_a_number_is_named() {
    let mut a = app();
    said(&mut a, "");
    assert_eq!(
        said(&mut a, "game x"),
        vec!["\"x\" is not a number. game N: in review, choose game N."]
    );
    assert_eq!(
        said(&mut a, "find"),
        vec!["find NAME: in review, the games of a player or an event."]
    );
    said(&mut a, "game 1");
    assert_eq!(
        said(&mut a, "goto x"),
        vec!["\"x\" is not a number. goto N: in review, the move numbered N."]
    );
}

#[test]
fn a_game_without_names_is_white_against_black() {
    let mut a = App::builder().build();
    let pgn = "[White \"?\"]\n[Black \"\"]\n[Result \"*\"]\n[Date \"????.??.??\"]\n\n1. e4 *\n";
    a.start_review(PgnFile::from_bytes(pgn.as_bytes().to_vec()).unwrap());
    let s = said(&mut a, "");
    assert!(
        s.contains(
            &"Game 1: White against Black, unfinished. One move. Say next for the first move."
                .to_owned()
        ) || s.contains(&"Game 1: White against Black, unfinished.".to_owned()),
        "{s:?}"
    );
    assert!(s.iter().all(|l| !l.contains('?')), "{s:?}");
    assert_eq!(
        said(&mut a, "games"),
        vec!["Game 1: White against Black, unfinished."]
    );
}

/// Issue 30, item 13: a game with an illegal move could not be reviewed
/// at all ("game 2" repeated the error, "next" said "Choose a game
/// first").  The moves before it are played, and where it stands is said
/// on opening, after the last of them and at the end.
#[test]
fn a_malformed_game_names_game_and_line_and_the_others_stay_usable() {
    let mut a = app();
    said(&mut a, "");
    assert_eq!(
        said(&mut a, "game 2"),
        vec![
            "Game 2: Carla against Dieter Müller, unfinished. One move. Say next for the first move.",
            "Game 2, line 12: 2. Ke3 is not a legal move. The moves before it can be reviewed."
        ]
    );
    assert_eq!(said(&mut a, "next"), ["1. Bauer David vier"]);
    assert_eq!(said(&mut a, "next"), ["1... Bauer David fünf"]);
    assert_eq!(
        said(&mut a, "next"),
        ["Game 2, line 12: 2. Ke3 is not a legal move."]
    );
    assert_eq!(
        said(&mut a, "end"),
        [
            "End of the readable moves: 1... Bauer David fünf. Game 2, line 12: 2. Ke3 is not a legal move."
        ]
    );
    assert_eq!(
        said(&mut a, "last 2"),
        ["Last moves: 1. Bauer David vier, Bauer David fünf."]
    );
    assert_eq!(
        said(&mut a, "game 3"),
        vec!["There is no game 3: the file has two games."]
    );
    assert!(said(&mut a, "game 1")[0].starts_with("Game 1: Anna"));
}

#[test]
fn review_actions_outside_review_say_so() {
    let mut a = App::builder().build();
    let s = said(&mut a, "next");
    assert!(s[0].contains("hector review"), "{s:?}");
}

/// The review part alone: it lists, finds and opens games, moves its
/// cursor, refuses what cannot be done, and gives the game at its cursor.
#[test]
fn the_review_part_moves_its_cursor_and_gives_the_game_there() {
    let mut part = ReviewState::new(PgnFile::from_bytes(FILE.as_bytes().to_vec()).unwrap());
    assert_eq!(part.count(), 2);
    assert!(matches!(
        part.handle(PlayerAction::Next, None),
        Some(ReviewNote::NoGame)
    ));
    let mut shown = Game::new();
    part.follow(&mut shown);
    assert_eq!(shown.history().len(), 0);
    assert!(matches!(
        part.handle(PlayerAction::Find, Some("Müller")),
        Some(ReviewNote::List(Some(found))) if found == [2]
    ));
    assert!(matches!(
        part.handle(PlayerAction::Game, Some("zwei")),
        Some(ReviewNote::NotANumber(w)) if w == "zwei"
    ));
    assert!(matches!(
        part.handle(PlayerAction::Game, Some("1")),
        Some(ReviewNote::Opened {
            number: 1,
            moves: 4,
            stopped: None
        })
    ));
    part.follow(&mut shown);
    assert_eq!(shown.history().len(), 0);
    assert!(matches!(
        part.handle(PlayerAction::Previous, None),
        Some(ReviewNote::Refused {
            key: "review_at_start_already",
            ..
        })
    ));
    assert!(matches!(
        part.handle(PlayerAction::Next, None),
        Some(ReviewNote::Step(p)) if p.number == 1 && p.clock_ms == Some(298_000)
    ));
    assert!(matches!(
        part.handle(PlayerAction::Goto, Some("9")),
        Some(ReviewNote::Refused {
            key: "review_no_move",
            ..
        })
    ));
    assert!(matches!(
        part.handle(PlayerAction::End, None),
        Some(ReviewNote::AtEnd { last: Some(_), ref result, stopped: None }) if result == "1-0"
    ));
    part.follow(&mut shown);
    assert_eq!(shown.history().len(), 7);
    assert!(shown.position().is_checkmate());
    assert!(
        shown.is_over(),
        "the rules' ending is settled at the cursor"
    );
    assert!(matches!(
        part.handle(PlayerAction::Previous, None),
        Some(ReviewNote::Back(_))
    ));
    part.follow(&mut shown);
    assert_eq!(shown.history().len(), 6);
    assert!(!shown.is_over());
    assert!(part.handle(PlayerAction::Board, None).is_none());
}

/// Issue 31, item 7: in a 100,000-ply game, after `end` and `previous`,
/// `last 3` answered moves 7 and 8: the game shown was replayed under the
/// rules, which ended it at the first fivefold repetition.  It follows
/// the record now, a move at a time.
#[test]
fn last_moves_at_the_end_of_a_very_long_game_are_its_last() {
    let moves: String = (0..25_000)
        .map(|i| {
            let n = 2 * i + 1;
            format!("{n}. Nf3 Nf6 {}. Ng1 Ng8 ", n + 1)
        })
        .collect();
    let text = format!("[White \"A\"]\n[Black \"B\"]\n\n{moves}*\n");
    let mut a = App::builder().build();
    a.start_review(PgnFile::from_bytes(text.into_bytes()).unwrap());
    said(&mut a, "");
    said(&mut a, "end");
    assert_eq!(a.game().ply_count(), 100_000);
    said(&mut a, "previous");
    assert_eq!(a.game().ply_count(), 99_999);
    assert_eq!(
        said(&mut a, "last 3"),
        [
            "Last moves: 49999. Springer Felix drei, Springer Felix sechs; 50000. Springer Gustav eins."
        ]
    );
    said(&mut a, "next");
    assert_eq!(a.game().ply_count(), 100_000);
    said(&mut a, "goto 3");
    assert_eq!(a.game().ply_count(), 5);
}

/// Issue 31, item 5: a long comment was said whole (a 50 MB line).  It
/// is said a piece at a time, each piece cut after a word, with "(more:
/// say comment)"; the last piece has no such tail, and `comment` after it
/// starts again.  Stepping on starts the next move's comment afresh.
#[test]
fn a_long_comment_is_said_a_piece_at_a_time() {
    let words: Vec<String> = (0..300).map(|i| format!("w{i}")).collect();
    let long = words.join(" ");
    let text = format!("[White \"A\"]\n\n1. e4 {{{long}}} e5 {{short}} *\n");
    let mut a = App::builder().build();
    a.start_review(PgnFile::from_bytes(text.into_bytes()).unwrap());
    said(&mut a, "");
    said(&mut a, "next");
    let mut heard = Vec::new();
    for _ in 0..10 {
        let s = said(&mut a, "comment");
        assert_eq!(s.len(), 1);
        let piece = s[0].clone();
        assert!(piece.chars().count() <= COMMENT_PIECE + 60, "{piece}");
        let done = !piece.ends_with(" (more: say comment)");
        heard.push(piece);
        if done {
            break;
        }
    }
    assert!(heard.len() > 2, "{heard:?}");
    assert!(
        heard[0].starts_with("1. Bauer Eva vier: w0 w1 "),
        "{}",
        heard[0]
    );
    let said_words: Vec<&str> = heard
        .iter()
        .enumerate()
        .flat_map(|(i, p)| {
            let p = p.trim_end_matches(" (more: say comment)");
            let p = if i == 0 {
                &p["1. Bauer Eva vier: ".len()..]
            } else {
                p
            };
            p.split(' ')
        })
        .collect();
    assert_eq!(said_words, words, "every word once, in order");
    assert_eq!(said(&mut a, "comment")[0], heard[0]);
    said(&mut a, "next");
    assert_eq!(said(&mut a, "comment"), ["1... Bauer Eva fünf: short"]);
}

/// The review part alone answers a review's action: outside a review it
/// is said so (with an error), in one it is the review's note, and what
/// it has no answer for goes on.
#[test]
fn the_part_alone_answers_a_reviews_action_or_says_there_is_no_review() {
    use crate::app::tests::said;
    let mut talk = crate::app::App::builder().build().talk;
    let mut out = Vec::new();
    let v = &mut Voice::new(&mut talk, &mut out);
    assert!(matches!(
        ask(None, PlayerAction::Games, None, v),
        Asked::Said
    ));
    assert_eq!(said(&out).len(), 1, "{:?}", said(&out));
    out.clear();
    let file = "[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 *\n";
    let mut state = ReviewState::new(PgnFile::from_bytes(file.as_bytes().to_vec()).unwrap());
    let v = &mut Voice::new(&mut talk, &mut out);
    let asked = ask(Some(&mut state), PlayerAction::Games, None, v);
    assert!(
        matches!(&asked, Asked::Note(n) if matches!(**n, ReviewNote::List(None))),
        "{asked:?}"
    );
    assert!(out.is_empty(), "{out:?}");
}
