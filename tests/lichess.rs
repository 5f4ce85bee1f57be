//! Online play on lichess, against a stand-in for its API on loopback
//! (tests/support/lichess.rs): the account (login, logout, a refused
//! token), and the token never shown, logged or written but where it is
//! kept.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::lichess_server::StandIn;
use crate::util::{Run, clean_config_dir};

const TOKEN: &str = "lip_standInSecret0123456789";

/// `hector ARGS` with `home` as HOME and XDG_CONFIG_HOME, its own
/// XDG_DATA_HOME, no LICHESS_TOKEN of the developer's (unless `env_token`).
fn run(home: &Path, args: &[&str], env_token: Option<&str>, input: &str) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hector"));
    cmd.args(args)
        .args(["--speech", "print", "--no-sound"])
        .env("XDG_CONFIG_HOME", home)
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join("data"))
        // The file, never the developer's secret store (tests/lichess_broadcast.rs
        // tests the store on a private D-Bus).
        .env("HECTOR_TOKEN_STORE", "file")
        .env_remove("LICHESS_TOKEN")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(t) = env_token {
        cmd.env("LICHESS_TOKEN", t);
    }
    let mut child = cmd.spawn().expect("hector starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_owned();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("hector runs");
    writer.join().expect("writer");
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        success: out.status.success(),
    }
}

fn token_file(home: &Path) -> PathBuf {
    home.join("hector").join("lichess-token")
}

/// Every file under `dir` but the token's own, that contains `needle`.
fn files_with(dir: &Path, needle: &str, keep: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return found;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            found.extend(files_with(&p, needle, keep));
        } else if p != keep
            && std::fs::read(&p)
                .map(|b| String::from_utf8_lossy(&b).contains(needle))
                .unwrap_or(false)
        {
            found.push(p);
        }
    }
    found
}

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
    assert_eq!(server.state.lock().unwrap().log, ["GET /api/account"]);
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
    assert!(files_with(&home, TOKEN, &kept).is_empty());

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

#[test]
fn login_waits_when_lichess_asks_and_says_so() {
    let server = StandIn::start(TOKEN, "Georges");
    server.state.lock().unwrap().rate_limit = 1;
    let home = clean_config_dir();
    let r = run(
        &home,
        &["lichess", "login", "--lichess-url", &server.url],
        None,
        &format!("{TOKEN}\n"),
    );
    assert!(!r.success);
    assert!(
        r.stdout
            .contains("lichess asks us to wait. Try again in a minute."),
        "{}",
        r.stdout
    );
    assert!(!token_file(&home).exists());
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn no_connection_is_said_and_nothing_kept() {
    let home = clean_config_dir();
    // Nothing listens on port 9 of loopback.
    let r = run(
        &home,
        &["lichess", "login", "--lichess-url", "http://127.0.0.1:9"],
        None,
        &format!("{TOKEN}\n"),
    );
    assert!(!r.success);
    assert!(
        r.stdout
            .contains("lichess could not be reached. Check the connection and try again."),
        "{}",
        r.stdout
    );
    assert!(!token_file(&home).exists());
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn no_token_typed_changes_nothing() {
    let home = clean_config_dir();
    // Nothing listens here: no request may be made anyway.
    let r = run(
        &home,
        &["lichess", "login", "--lichess-url", "http://127.0.0.1:9"],
        None,
        "\n",
    );
    assert!(!r.success);
    assert!(r.stdout.contains("No token was given."), "{}", r.stdout);
    let _ = std::fs::remove_dir_all(&home);
}

use crate::util::Hector;

/// `hector play --lichess ARGS` against the stand-in, moves said in
/// English words.
fn online(server: &StandIn, home: &Path, args: &[&str]) -> Hector {
    let mut all = vec![
        "--lichess",
        "--lichess-url",
        server.url.as_str(),
        "--lang",
        "en",
        "--moves",
        "language",
    ];
    all.extend_from_slice(args);
    Hector::play_with(home, &all, &[("LICHESS_TOKEN", Path::new(TOKEN))])
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
    h.expect("Checkmate. Black wins, 0-1.");
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
    assert!(files_with(&home, TOKEN, Path::new("")).is_empty());
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
        h.expect("Not in a lichess game: lichess forbids engine help.");
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
