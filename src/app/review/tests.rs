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

#[test]
fn a_malformed_game_names_game_and_line_and_the_others_stay_usable() {
    let mut a = app();
    said(&mut a, "");
    assert_eq!(
        said(&mut a, "game 2"),
        vec!["Game 2, line 12: 2. Ke3 is not a legal move."]
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
    assert!(part.game_at_cursor().is_none());
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
            moves: 4
        })
    ));
    assert_eq!(part.game_at_cursor().map(|g| g.history().len()), Some(0));
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
        Some(ReviewNote::AtEnd { last: Some(_), ref result }) if result == "1-0"
    ));
    let at_end = part.game_at_cursor().expect("a game");
    assert_eq!(at_end.history().len(), 7);
    assert!(at_end.position().is_checkmate());
    assert!(part.handle(PlayerAction::Board, None).is_none());
}
