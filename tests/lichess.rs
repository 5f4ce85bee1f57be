//! Online play on lichess, against a stand-in for its API on loopback
//! (tests/support/lichess.rs): the account (login, logout, a refused
//! token), and the token never shown, logged or written but where it is
//! kept.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::lichess_server::StandIn;
use crate::util::hector_with_token as run;
use crate::util::{
    clean_config_dir, files_with, hector_command, is_first_move_deadline, token_file,
};

const TOKEN: &str = "lip_standInSecret0123456789";

#[test]
fn login_checks_the_token_says_the_name_keeps_it_and_logout_forgets_it() {
    let server = StandIn::start(TOKEN, "Georges");
    let home = clean_config_dir();
    let r = run(
        &home,
        &["lichess", "login", "--lichess-url", &server.url],
        None,
        &format!("{TOKEN}\n"),
    );
    assert!(r.success, "{} {}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("Logged in to lichess as Georges."),
        "{}",
        r.stdout
    );
    // The scopes first (`/api/token/test`), then the name.
    assert_eq!(
        server.state.lock().unwrap().log,
        ["POST /api/token/test", "GET /api/account"]
    );
    let kept = token_file(&home);
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), TOKEN);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&kept).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    // Never shown, nor written anywhere but its own file.
    assert!(!r.stdout.contains(TOKEN) && !r.stderr.contains(TOKEN));
    assert!(files_with(&home, TOKEN).iter().all(|p| *p == kept));

    let r = run(&home, &["lichess", "logout"], None, "");
    assert!(r.success);
    assert!(r.stdout.contains("Logged out."), "{}", r.stdout);
    assert!(!kept.exists());
    let r = run(&home, &["lichess", "logout"], None, "");
    assert!(
        r.stdout.contains("No lichess token is kept"),
        "{}",
        r.stdout
    );
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_refused_token_is_said_with_how_to_make_a_new_one_in_every_language() {
    let server = StandIn::start(TOKEN, "Georges");
    let home = clean_config_dir();
    let wrong = "lip_wrongWrongWrong";
    for (lang, want) in [
        (
            "en",
            "lichess refused this token. Make a new one on lichess: Preferences, API access tokens, with the scope board:play.",
        ),
        ("de", "lichess hat dieses Token abgelehnt."),
        ("it", "lichess ha rifiutato questo token."),
        ("el", "Το lichess απέρριψε αυτό το token."),
    ] {
        let r = run(
            &home,
            &[
                "lichess",
                "login",
                "--lichess-url",
                &server.url,
                "--lang",
                lang,
            ],
            None,
            &format!("{wrong}\n"),
        );
        assert!(!r.success);
        assert!(r.stdout.contains(want), "{lang}: {}", r.stdout);
        assert!(!r.stdout.contains(wrong) && !r.stderr.contains(wrong));
    }
    assert!(!token_file(&home).exists(), "a refused token is not kept");
    let _ = std::fs::remove_dir_all(&home);
}

/// `hector lichess login` at `url` with `typed` on its input fails,
/// says `said` and keeps no token.
fn login_fails(url: &str, typed: &str, said: &str) {
    let home = clean_config_dir();
    let r = run(
        &home,
        &["lichess", "login", "--lichess-url", url],
        None,
        typed,
    );
    assert!(!r.success);
    assert!(r.stdout.contains(said), "{}", r.stdout);
    assert!(!token_file(&home).exists());
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn login_waits_when_lichess_asks_and_says_so() {
    let server = StandIn::start(TOKEN, "Georges");
    server.state.lock().unwrap().rate_limit = 1;
    login_fails(
        &server.url,
        &format!("{TOKEN}\n"),
        "lichess asks us to wait. Try again in a minute.",
    );
}

#[test]
fn no_connection_is_said_and_nothing_kept() {
    // Nothing listens on port 9 of loopback.
    login_fails(
        "http://127.0.0.1:9",
        &format!("{TOKEN}\n"),
        "lichess could not be reached. Check the connection and try again.",
    );
}

#[test]
fn no_token_typed_changes_nothing() {
    // Nothing listens here: no request may be made anyway.
    login_fails("http://127.0.0.1:9", "\n", "No token was given.");
}

use crate::util::Hector;

/// `hector play --lichess ARGS` against the stand-in, moves said in
/// English words.
fn online(server: &StandIn, home: &Path, args: &[&str]) -> Hector {
    server.play(home, TOKEN, args)
}

fn challenge_as_white(server: &StandIn, home: &Path) -> Hector {
    let mut h = online(
        server,
        home,
        &["--challenge", "Mary", "--color", "white", "--time", "10+5"],
    );
    h.until("the challenge", |l| {
        l == "Challenge sent to Mary. Waiting for the answer."
    });
    h.until("the start", |l| {
        l == "The game against Mary, rated 1600, begins. You play White."
    });
    // lichess's deadline for the first move (`expiration`), said once.
    let line = h.next();
    assert!(is_first_move_deadline(&line, 30), "{line:?}");
    h
}

#[test]
fn a_whole_game_by_challenge_each_move_said_once_and_the_token_never_shown() {
    let server = StandIn::start(TOKEN, "Georges");
    server.state.lock().unwrap().replies = ["e7e5", "d8h4"].map(String::from).into();
    let home = clean_config_dir();
    let mut h = challenge_as_white(&server, &home);
    // The clock is the server's: 10 minutes each (the stand-in's gameFull).
    h.type_line("time");
    // (Stopped until each side has made a first move, as on lichess.)
    h.expect("White: ten minutes. Black: ten minutes. The clock is stopped.");
    h.type_line("f3");
    let e5 = h.until("Black's reply", |l| l.contains("e5"));
    h.type_line("g4");
    h.until("the mate", |l| l.contains("h4"));
    h.expect("Checkmate. Black wins, zero to one.");
    let lines = h.close();
    // Black's moves said once each.
    assert_eq!(lines.iter().filter(|l| **l == e5).count(), 1, "{lines:#?}");
    assert_eq!(
        lines.iter().filter(|l| l.contains("h4")).count(),
        1,
        "{lines:#?}"
    );
    let s = server.state.lock().unwrap();
    let posts: Vec<&str> = s
        .log
        .iter()
        .map(String::as_str)
        .filter(|l| l.starts_with("POST"))
        .collect();
    assert_eq!(
        posts,
        [
            "POST /api/challenge/Mary",
            "POST /api/board/game/stand1n0/move/f2f3",
            "POST /api/board/game/stand1n0/move/g2g4",
        ]
    );
    let challenge = s
        .raw
        .iter()
        .find(|r| r.starts_with("POST /api/challenge"))
        .unwrap();
    assert!(challenge.contains("clock.limit=600") && challenge.contains("clock.increment=5"));
    assert!(challenge.contains("color=white") && challenge.contains("rated=false"));
    // The token: never said, never in a file.
    assert!(lines.iter().all(|l| !l.contains(TOKEN)));
    assert!(files_with(&home, TOKEN).is_empty());
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_refused_move_is_said_and_taken_back() {
    let server = StandIn::start(TOKEN, "Georges");
    {
        let mut s = server.state.lock().unwrap();
        s.refuse = vec!["e2e4".into()];
        s.replies = ["d7d5"].map(String::from).into();
    }
    let home = clean_config_dir();
    let mut h = challenge_as_white(&server, &home);
    h.type_line("e4");
    h.until("the refusal", |l| {
        l.starts_with("lichess refused")
            && l.ends_with("The move is taken back; it is still your move.")
    });
    // The position is the server's again: d4 is legal and goes.
    h.type_line("d4");
    h.until("Black's reply", |l| l.contains("d5"));
    h.close();
    let s = server.state.lock().unwrap();
    assert_eq!(s.game.as_ref().unwrap().moves, ["d2d4", "d7d5"]);
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn the_stream_dropped_mid_game_resumes_with_no_move_lost_or_said_twice() {
    let server = StandIn::start(TOKEN, "Georges");
    {
        let mut s = server.state.lock().unwrap();
        // The stream breaks when the first pair of moves is made: the
        // reply is only in the gameFull of the reconnect.
        s.drop_at = Some(2);
        s.replies = ["e7e5", "b8c6"].map(String::from).into();
    }
    let home = clean_config_dir();
    let mut h = challenge_as_white(&server, &home);
    h.type_line("e4");
    let e5 = h.until("Black's reply after the reconnect", |l| l.contains("e5"));
    h.type_line("Nf3");
    let c6 = h.until("the next reply", |l| l.contains("c6"));
    let lines = h.close();
    assert_eq!(lines.iter().filter(|l| **l == e5).count(), 1, "{lines:#?}");
    assert_eq!(lines.iter().filter(|l| **l == c6).count(), 1, "{lines:#?}");
    let s = server.state.lock().unwrap();
    let streams = s
        .log
        .iter()
        .filter(|l| l.starts_with("GET /api/board/game/stream/"))
        .count();
    assert_eq!(streams, 2, "one reconnect: {:?}", s.log);
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn fair_play_no_engine_help_online() {
    let server = StandIn::start(TOKEN, "Georges");
    let home = clean_config_dir();
    let mut h = challenge_as_white(&server, &home);
    for help in ["hint", "eval", "threat"] {
        h.type_line(help);
        h.expect("No engine help in a lichess game: lichess forbids it.");
    }
    h.close();
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_429_is_said_and_the_request_waits() {
    let server = StandIn::start(TOKEN, "Georges");
    let home = clean_config_dir();
    let mut h = challenge_as_white(&server, &home);
    server.state.lock().unwrap().rate_limit = 1;
    h.type_line("e4");
    h.until("the wait", |l| {
        l == "lichess asks us to wait. hector waits a full minute before asking again."
    });
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let moves = server
        .state
        .lock()
        .unwrap()
        .log
        .iter()
        .filter(|l| l.contains("/move/"))
        .count();
    assert_eq!(moves, 1, "not asked again within the minute");
    h.close();
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_refused_token_in_a_game_is_said() {
    let server = StandIn::start(TOKEN, "Georges");
    let home = clean_config_dir();
    let mut all = vec![
        "--lichess",
        "--lichess-url",
        server.url.as_str(),
        "--lang",
        "en",
    ];
    all.extend_from_slice(&["--challenge", "Mary"]);
    let mut h = Hector::play_with(&home, &all, &[("LICHESS_TOKEN", Path::new("lip_wrong"))]);
    h.until("the refusal", |l| {
        l.starts_with("lichess refused this token. Make a new one on lichess")
    });
    h.close();
    let _ = std::fs::remove_dir_all(&home);
}

// --- branch online: seek, abort, takeback, draw, resign, chat, errors ---

#[test]
fn a_whole_game_by_seek() {
    let server = StandIn::start(TOKEN, "Georges");
    {
        let mut s = server.state.lock().unwrap();
        s.seek_opponent = Some("Zoe".into());
        s.replies = ["e7e5", "d8h4"].map(String::from).into();
    }
    let home = clean_config_dir();
    let mut h = online(
        &server,
        &home,
        &["--seek", "--time", "10+5", "--color", "white"],
    );
    h.until("the seek", |l| {
        l == "Seeking a casual game, 10 minutes plus 5 seconds. Waiting for an opponent."
    });
    h.until("the start", |l| {
        l == "The game against Zoe, rated 1600, begins. You play White."
    });
    h.type_line("f3");
    h.until("Black's reply", |l| l.contains("e5"));
    h.type_line("g4");
    h.until("the mate", |l| l.contains("h4"));
    h.expect("Checkmate. Black wins, zero to one.");
    let lines = h.close();
    assert!(
        !lines.iter().any(|l| l.contains("seek ended")),
        "{lines:#?}"
    );
    let s = server.state.lock().unwrap();
    let seek = s
        .raw
        .iter()
        .find(|r| r.starts_with("POST /api/board/seek"))
        .expect("a seek");
    assert!(
        seek.contains("time=10") && seek.contains("increment=5"),
        "{seek}"
    );
    assert!(seek.contains("color=white") && seek.contains("rated=false"));
    let posts: Vec<&str> = s
        .log
        .iter()
        .map(String::as_str)
        .filter(|l| l.starts_with("POST"))
        .collect();
    assert_eq!(
        posts,
        [
            "POST /api/board/seek",
            "POST /api/board/game/seek1n0g/move/f2f3",
            "POST /api/board/game/seek1n0g/move/g2g4",
        ]
    );
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_seek_is_cancelled_when_the_player_quits() {
    let server = StandIn::start(TOKEN, "Georges");
    let home = clean_config_dir();
    let mut h = online(&server, &home, &["--seek", "--time", "15+10", "--rated"]);
    h.until("the seek", |l| {
        l == "Seeking a rated game, 15 minutes plus 10 seconds. Waiting for an opponent."
    });
    server.wait_for("the seek", |s| {
        s.log.iter().any(|l| l == "POST /api/board/seek")
    });
    assert_eq!(server.state.lock().unwrap().seeks_cancelled, 0);
    h.close();
    server.wait_for("the seek closed", |s| s.seeks_cancelled == 1);
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_seek_shorter_than_rapid_is_refused_in_one_sentence() {
    let home = clean_config_dir();
    // Nothing listens here: no request may be made.
    for (lang, want) in [
        (
            "en",
            "lichess takes seeks for rapid and classical games only: at least 8 minutes, with the increment counted 40 times. For a faster game, challenge a player with --challenge.",
        ),
        ("de", "lichess nimmt Suchen nur für Schnellschach"),
        ("it", "lichess accetta ricerche solo per partite rapid"),
        ("el", "Το lichess δέχεται αναζητήσεις μόνο"),
    ] {
        let r = run(
            &home,
            &[
                "play",
                "--lichess",
                "--seek",
                "--time",
                "5+3",
                "--lichess-url",
                "http://127.0.0.1:9",
                "--lang",
                lang,
            ],
            Some(TOKEN),
            "",
        );
        assert!(!r.success);
        assert!(r.stdout.contains(want), "{lang}: {}", r.stdout);
    }
    let _ = std::fs::remove_dir_all(&home);
}

/// Changes the stand-in's game as the opponent would (a new version: the
/// game stream sends the state).
fn opponent(server: &StandIn, f: impl FnOnce(&mut crate::lichess_server::Game)) {
    let mut s = server.state.lock().unwrap();
    let g = s.game.as_mut().expect("a game");
    f(g);
    g.version += 1;
}

/// A line on the game stream, as the opponent's side of lichess sends it.
fn game_line(server: &StandIn, line: &str) {
    server
        .state
        .lock()
        .unwrap()
        .game_lines
        .push(line.to_owned());
}

#[test]
fn a_draw_offered_and_accepted_both_ways() {
    // The opponent offers; the player accepts.
    let server = StandIn::start(TOKEN, "Georges");
    server.state.lock().unwrap().replies = ["e7e5"].map(String::from).into();
    let home = clean_config_dir();
    let mut h = challenge_as_white(&server, &home);
    h.type_line("e4");
    h.until("Black's reply", |l| l.contains("e5"));
    opponent(&server, |g| g.draw_offer = true);
    h.expect("Black offers a draw.");
    h.type_line("accept");
    h.expect("Draw accepted.");
    h.expect("Draw by agreement, half a point each.");
    h.close();
    assert!(
        server
            .posts()
            .contains(&"POST /api/board/game/stand1n0/draw/yes".to_owned())
    );
    let _ = std::fs::remove_dir_all(&home);

    // The player offers; the opponent accepts.
    let server = StandIn::start(TOKEN, "Georges");
    {
        let mut s = server.state.lock().unwrap();
        s.replies = ["e7e5"].map(String::from).into();
        s.accept_draw = true;
    }
    let home = clean_config_dir();
    let mut h = challenge_as_white(&server, &home);
    h.type_line("e4");
    h.until("Black's reply", |l| l.contains("e5"));
    h.type_line("draw");
    h.expect("Draw offer sent.");
    h.expect("Draw by agreement, half a point each.");
    h.close();
    assert!(
        server
            .posts()
            .contains(&"POST /api/board/game/stand1n0/draw/yes".to_owned())
    );
    let _ = std::fs::remove_dir_all(&home);
}

/// Issue 30.12. Before: with a draw offer and a takeback request both
/// standing, `decline` answered the draw and nothing said the takeback
/// request still waited.
#[test]
fn a_draw_declined_says_the_takeback_request_still_waits() {
    let server = StandIn::start(TOKEN, "Georges");
    server.state.lock().unwrap().replies = ["e7e5"].map(String::from).into();
    let home = clean_config_dir();
    let mut h = challenge_as_white(&server, &home);
    h.type_line("e4");
    h.until("Black's reply", |l| l.contains("e5"));
    opponent(&server, |g| {
        g.draw_offer = true;
        g.their_takeback = true;
    });
    h.until("the takeback request", |l| {
        l.starts_with("Your opponent asks to take back a move.")
    });
    h.type_line("decline");
    h.expect("Draw declined.");
    h.expect("Your opponent's takeback request still waits. Say takeback to agree, or decline to refuse.");
    h.type_line("decline");
    h.expect("Takeback refused.");
    server.wait_for("the refusal", |s| {
        s.log.iter().any(|l| l.ends_with("/takeback/no"))
    });
    h.close();
    let p = server.posts();
    assert!(
        p.contains(&"POST /api/board/game/stand1n0/draw/no".to_owned()),
        "{p:?}"
    );
    assert!(
        p.contains(&"POST /api/board/game/stand1n0/takeback/no".to_owned()),
        "{p:?}"
    );
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn abort_before_the_moves_ends_the_game() {
    let server = StandIn::start(TOKEN, "Georges");
    let home = clean_config_dir();
    let mut h = challenge_as_white(&server, &home);
    h.type_line("abort");
    h.expect("Abort sent.");
    h.expect("The game was aborted.");
    h.type_line("e4");
    h.expect("The game is already over on lichess.");
    h.close();
    assert_eq!(
        server.posts(),
        [
            "POST /api/challenge/Mary",
            "POST /api/board/game/stand1n0/abort"
        ]
    );
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn takeback_both_ways_agreed_and_refused() {
    let server = StandIn::start(TOKEN, "Georges");
    server.state.lock().unwrap().replies = ["e7e5", "c7c5"].map(String::from).into();
    let home = clean_config_dir();
    let mut h = challenge_as_white(&server, &home);
    h.type_line("e4");
    h.until("Black's reply", |l| l.contains("e5"));
    // Ours, refused.
    server.state.lock().unwrap().takeback_answer = Some(false);
    h.type_line("takeback");
    h.expect("Takeback asked for.");
    h.expect("Your opponent refused the takeback.");
    // Ours, agreed: both moves go back.
    server.state.lock().unwrap().takeback_answer = Some(true);
    h.type_line("takeback");
    h.expect("Takeback asked for.");
    h.expect("Taken back on lichess: pawn e4, pawn e5.");
    h.type_line("e4");
    h.until("Black's other reply", |l| l.contains("c5"));
    // Theirs, agreed: their move goes back.
    opponent(&server, |g| g.their_takeback = true);
    h.expect(
        "Your opponent asks to take back a move. Say takeback to agree, or decline to refuse.",
    );
    h.type_line("takeback");
    h.expect("Takeback agreed.");
    h.expect("Taken back on lichess: pawn c5.");
    // Theirs, refused.
    opponent(&server, |g| g.their_takeback = true);
    h.expect(
        "Your opponent asks to take back a move. Say takeback to agree, or decline to refuse.",
    );
    h.type_line("decline");
    h.expect("Takeback refused.");
    server.wait_for("the refusal", |s| {
        s.log.iter().any(|l| l.ends_with("/takeback/no"))
    });
    h.close();
    let p = server.posts();
    let tb: Vec<&str> = p
        .iter()
        .map(String::as_str)
        .filter(|l| l.contains("/takeback/"))
        .collect();
    assert_eq!(
        tb,
        [
            "POST /api/board/game/stand1n0/takeback/yes",
            "POST /api/board/game/stand1n0/takeback/yes",
            "POST /api/board/game/stand1n0/takeback/yes",
            "POST /api/board/game/stand1n0/takeback/no",
        ]
    );
    assert_eq!(
        server.state.lock().unwrap().game.as_ref().unwrap().moves,
        ["e2e4"]
    );
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn the_opponent_gone_then_the_win_claimed() {
    let server = StandIn::start(TOKEN, "Georges");
    server.state.lock().unwrap().replies = ["e7e5"].map(String::from).into();
    let home = clean_config_dir();
    let mut h = challenge_as_white(&server, &home);
    h.type_line("e4");
    h.until("Black's reply", |l| l.contains("e5"));
    h.type_line("claim");
    h.expect("Your opponent has not left the game; there is no win to claim.");
    game_line(
        &server,
        r#"{"type":"opponentGone","gone":true,"claimWinInSeconds":0}"#,
    );
    h.expect("Your opponent left the game.");
    h.expect("You may claim the win now: say claim.");
    h.type_line("claim");
    h.expect("Win claimed.");
    h.expect("Black left the game, and the win was claimed. White wins, one to zero.");
    // Issue 30.4: not "the arbiter's decision", in the prompt, the text
    // export and the PGN.
    h.type_line("");
    let prompt = h.until("the prompt", |l| l.contains("left the game"));
    assert!(
        prompt.contains("White won, Black left the game"),
        "{prompt}"
    );
    let lines = h.close();
    assert!(lines.iter().all(|l| !l.contains("arbiter")), "{lines:#?}");
    assert!(
        server
            .posts()
            .contains(&"POST /api/board/game/stand1n0/claim-victory".to_owned())
    );
    let export = |format: &str| {
        let out = hector_command(&home, &home.join("data"))
            .args(["export", "1", "--format", format, "-o", "-", "--lang", "en"])
            .output()
            .expect("hector runs");
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let text = export("text");
    assert!(text.contains("White won, Black left the game"), "{text}");
    assert!(!text.contains("arbiter"), "{text}");
    let pgn = export("pgn");
    assert!(pgn.contains("[Termination \"abandoned\"]"), "{pgn}");
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn chat_both_ways() {
    let server = StandIn::start(TOKEN, "Georges");
    server.state.lock().unwrap().replies = ["e7e5"].map(String::from).into();
    let home = clean_config_dir();
    let mut h = challenge_as_white(&server, &home);
    game_line(
        &server,
        r#"{"type":"chatLine","room":"player","username":"Mary","text":"good luck"}"#,
    );
    h.expect("A chat message from Mary. Say chat to hear it.");
    h.type_line("chat");
    h.expect("Mary says: good luck");
    h.type_line("say Thank you, you too!");
    h.expect("Written in the chat.");
    server.wait_for("the chat line", |s| {
        s.raw
            .iter()
            .any(|r| r.starts_with("POST /api/board/game/stand1n0/chat"))
    });
    // Our own line comes back from lichess: not news; the next of hers is.
    game_line(
        &server,
        r#"{"type":"chatLine","room":"spectator","username":"Bob","text":"nice game"}"#,
    );
    game_line(
        &server,
        r#"{"type":"chatLine","room":"player","username":"Mary","text":"thanks"}"#,
    );
    h.expect("Two chat messages not heard yet, the last from Mary. Say chat to hear them.");
    h.type_line("chat");
    h.expect("A spectator, Bob, says: nice game");
    h.expect("Mary says: thanks");
    h.type_line("chat");
    h.expect("No chat messages you have not heard.");
    h.close();
    let s = server.state.lock().unwrap();
    let chat = s
        .raw
        .iter()
        .find(|r| r.starts_with("POST /api/board/game/stand1n0/chat"))
        .unwrap();
    assert!(
        chat.ends_with("room=player&text=Thank+you%2C+you+too%21"),
        "{chat}"
    );
    let _ = std::fs::remove_dir_all(&home);
}

/// Issue 31.4: a lichess player's name and chat line with escape
/// sequences (a window title, a cleared screen, hidden text) and a
/// bidirectional override are said clean.
#[test]
fn a_hostile_name_and_chat_line_are_said_clean() {
    let server = StandIn::start(TOKEN, "Georges");
    server.state.lock().unwrap().replies = ["e7e5"].map(String::from).into();
    let home = clean_config_dir();
    let mut h = challenge_as_white(&server, &home);
    game_line(
        &server,
        r#"{"type":"chatLine","room":"player","username":"Ma\u001b]0;pwned\u0007ry","text":"good\u001b[2J luck\u001b[8m \u202eevil"}"#,
    );
    h.expect("A chat message from Mary. Say chat to hear it.");
    h.type_line("chat");
    h.expect("Mary says: good luck evil");
    h.close();
    let _ = std::fs::remove_dir_all(&home);
}

/// hector at a terminal (`script` gives it a pseudo-terminal), where
/// `resign` asks first.
#[cfg(unix)]
#[test]
fn resign_asks_first_at_a_terminal_then_goes_to_lichess() {
    use std::io::Read;
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};
    let server = StandIn::start(TOKEN, "Georges");
    server.state.lock().unwrap().replies = ["e7e5"].map(String::from).into();
    let home = clean_config_dir();
    let cmd = format!(
        "{} play --speech print --no-sound --lang en --moves language --lichess --lichess-url {} --challenge Mary --color white --time 10+5",
        env!("CARGO_BIN_EXE_hector"),
        server.url
    );
    let mut child = Command::new("script")
        .args(["-qfec", &cmd, "/dev/null"])
        .env("XDG_CONFIG_HOME", &home)
        .env("HOME", &home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("LICHESS_TOKEN", TOKEN)
        .env("TERM", "dumb")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("script starts");
    let mut stdout = child.stdout.take().expect("piped");
    let output = Arc::new(Mutex::new(String::new()));
    let sink = Arc::clone(&output);
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = stdout.read(&mut buf) {
            if n == 0 {
                break;
            }
            sink.lock()
                .unwrap()
                .push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    });
    let text = || output.lock().unwrap().clone();
    let wait_for = |want: &str| {
        let t = Instant::now();
        while !text().contains(want) {
            assert!(
                t.elapsed() < Duration::from_secs(10),
                "waited for {want:?}; got {:?}",
                text()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    let mut stdin = child.stdin.take().expect("piped");
    let mut type_line = |line: &str| {
        stdin
            .write_all(format!("{line}\r").as_bytes())
            .expect("typed");
        stdin.flush().expect("flushed");
    };
    wait_for("You play White.");
    type_line("e4");
    wait_for("pawn e5");
    type_line("resign");
    wait_for("Resigning ends the game. Say resign again to resign, or no to go on.");
    type_line("no");
    wait_for("The game goes on.");
    assert!(!server.posts().iter().any(|p| p.ends_with("/resign")));
    type_line("resign");
    wait_for("Say resign again");
    type_line("resign");
    wait_for("White resigns. Black wins, zero to one.");
    type_line("quit");
    wait_for("Goodbye.");
    let t = Instant::now();
    while !matches!(child.try_wait(), Ok(Some(_))) && t.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(
        server
            .posts()
            .iter()
            .filter(|p| p.ends_with("/resign"))
            .count(),
        1
    );
    let _ = std::fs::remove_dir_all(&home);
}

/// A whole online game on a DGT board (simulated on a pseudo-terminal):
/// the player's moves made on the board are posted in UCI, the opponent's
/// are said and awaited on the board.
#[cfg(unix)]
#[test]
fn a_whole_online_game_on_a_dgt_board() {
    use hector::io::Protocol;
    use shakmaty::san::San;
    use shakmaty::{Chess, Move, Position};
    use std::time::Duration;

    use crate::util::{Tactile, new_pty};

    const HAND: Duration = Duration::from_millis(15);
    let mv = |pos: &Chess, san: &str| -> Move {
        san.parse::<San>()
            .ok()
            .and_then(|s| s.to_move(pos).ok())
            .unwrap_or_else(|| panic!("{san} is legal"))
    };
    let server = StandIn::start(TOKEN, "Georges");
    server.state.lock().unwrap().replies = ["e7e5", "d8h4"].map(String::from).into();
    let home = clean_config_dir();
    let (master, path) = new_pty();
    let port = format!("dgt:{path}");
    let mut h = online(
        &server,
        &home,
        &[
            "--board",
            &port,
            "--challenge",
            "Mary",
            "--color",
            "white",
            "--time",
            "10+5",
        ],
    );
    let mut board = Tactile::new(master, Protocol::Dgt);
    board.answer(Duration::from_secs(6));
    // The board and the game start in either order.
    let (mut connected, mut started) = (false, false);
    while !(connected && started) {
        let l = h.next();
        connected |= l == "Board connected.";
        started |= l == "The game against Mary, rated 1600, begins. You play White.";
    }
    let mut pos = Chess::default();
    let play = |board: &mut Tactile, pos: &mut Chess, san: &str| {
        let m = mv(pos, san);
        board.play(pos, m, HAND);
        pos.play_unchecked(m);
    };
    play(&mut board, &mut pos, "f3");
    h.until("f3 said", |l| l.contains("f3"));
    let instruction = h.until("the reply awaited on the board", |l| {
        l.starts_with("On your board:") && l.contains("e5")
    });
    assert!(instruction.contains("e7"), "{instruction}");
    play(&mut board, &mut pos, "e5");
    h.until("the reply made", |l| {
        l.starts_with("Done:") && l.contains("e5")
    });
    play(&mut board, &mut pos, "g4");
    h.until("g4 said", |l| l.contains("g4"));
    // The mate said, and awaited on the board (in either order).
    let (mut awaited, mut over) = (false, false);
    while !(awaited && over) {
        let l = h.next();
        awaited |= l == "On your board: black queen from d8 to h4.";
        over |= l == "Checkmate. Black wins, zero to one.";
    }
    play(&mut board, &mut pos, "Qh4#");
    h.until("the mate made", |l| {
        l.starts_with("Done:") && l.contains("h4")
    });
    h.close();
    let p = server.posts();
    assert_eq!(
        p,
        [
            "POST /api/challenge/Mary",
            "POST /api/board/game/stand1n0/move/f2f3",
            "POST /api/board/game/stand1n0/move/g2g4",
        ]
    );
    let _ = std::fs::remove_dir_all(&home);
}
