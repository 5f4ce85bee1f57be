//! The online game's record, through the binary against the stand-in
//! lichess (tests/support/lichess.rs): the journal's start record (game,
//! server, players, ratings, time control, never the token), `hector
//! games`, the PGN export's headers and `%clk`, and resuming after a
//! SIGKILL: the game rejoined by its id, the moves made meanwhile said
//! once, a game ended meanwhile completed.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::lichess_server::StandIn;
use crate::util::{Hector, Run, clean_config_dir, files_with};

const TOKEN: &str = "lip_recordSecret0123456789";

fn games_dir(home: &Path) -> PathBuf {
    home.join("data").join("hector").join("games")
}

/// The one journal of the games folder, as text.
fn journal(home: &Path) -> String {
    let files: Vec<PathBuf> = std::fs::read_dir(games_dir(home))
        .expect("games folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    assert_eq!(files.len(), 1, "one journal: {files:?}");
    std::fs::read_to_string(&files[0]).expect("journal")
}

/// `hector ARGS` (not `play`) with the same home, token in the
/// environment, nothing on standard input.
fn hector(home: &Path, args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_hector"))
        .args(args)
        .env("XDG_CONFIG_HOME", home)
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("LICHESS_TOKEN", TOKEN)
        .output()
        .expect("hector runs");
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        success: out.status.success(),
    }
}

/// `hector play ARGS` with the token, moves said in English words.
fn play(home: &Path, args: &[&str]) -> Hector {
    let mut all = vec!["--lang", "en", "--moves", "language"];
    all.extend_from_slice(args);
    Hector::play_with(home, &all, &[("LICHESS_TOKEN", Path::new(TOKEN))])
}

/// A game by challenge, as White, against Mary (1600 on the stand-in).
fn challenge(server: &StandIn, home: &Path) -> Hector {
    let mut h = play(
        home,
        &[
            "--lichess",
            "--lichess-url",
            &server.url,
            "--challenge",
            "Mary",
            "--color",
            "white",
            "--time",
            "10+5",
        ],
    );
    h.until("the start", |l| {
        l == "The game against Mary, rated 1600, begins. You play White."
    });
    h
}

#[test]
fn the_online_game_is_journalled_listed_and_exported_with_its_site_ratings_and_clocks() {
    let server = StandIn::start(TOKEN, "Georges");
    {
        let mut s = server.state.lock().unwrap();
        s.replies = ["e7e5", "d8h4"].map(String::from).into();
        s.clock_step_ms = 7_000;
        s.replies_apart = true;
    }
    let home = clean_config_dir();
    let mut h = challenge(&server, &home);
    h.type_line("f3");
    h.until("Black's reply", |l| l.contains("e5"));
    h.type_line("g4");
    h.until("the mate", |l| l.contains("h4"));
    h.expect("Checkmate. Black wins, zero to one.");
    h.close();

    // The journal: the game, the server, both players and ratings, the
    // time control, rated or not; the server's clock after each move.
    let text = journal(&home);
    let start = text.lines().nth(1).expect("start record");
    let site = format!("{}/stand1n0", server.url);
    for want in [
        "start white=\"Georges\" black=\"Mary\"".to_owned(),
        format!("site=\"{site}\""),
        "time-control=\"600+5\"".to_owned(),
        format!("lichess-url=\"{}\"", server.url),
        "lichess-game=\"stand1n0\"".to_owned(),
        "lichess-side=\"white\"".to_owned(),
        "white-elo=\"1500\"".to_owned(),
        "black-elo=\"1600\"".to_owned(),
        "rated=\"no\"".to_owned(),
    ] {
        assert!(start.contains(&want), "{want} in {start}");
    }
    let presses: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_once(" clock press ").map(|(_, p)| p))
        .map(|p| p.split(" prev=").next().unwrap())
        .collect();
    assert_eq!(
        presses,
        [
            "white white=0:09:53.000 black=0:10:00.000",
            "black white=0:09:53.000 black=0:09:53.000",
            "white white=0:09:46.000 black=0:09:53.000",
            "black white=0:09:46.000 black=0:09:46.000",
        ],
        "{text}"
    );
    // Only the server's times: no reading of the clock that follows it.
    assert!(!text.contains(" clock reading "), "{text}");
    // The token: in no file, said nowhere.
    assert!(files_with(&home, TOKEN).is_empty());

    // Listed with the opponent's name and rating, on lichess.
    let run = hector(&home, &["games", "--lang", "en"]);
    assert!(run.success, "{}", run.stderr);
    let line = run.lines()[0].to_owned();
    assert!(
        line.starts_with("1. ")
            && line.ends_with(": Georges (1500) against Mary (1600), on lichess, 0-1, two moves."),
        "{line}"
    );

    // The PGN: the game's address, names, ratings, time control, %clk.
    let out = home.join("game.pgn");
    let run = hector(
        &home,
        &[
            "export",
            "1",
            "--format",
            "pgn",
            "-o",
            out.to_str().unwrap(),
        ],
    );
    assert!(run.success, "{}", run.stdout);
    let pgn = std::fs::read_to_string(&out).unwrap();
    assert!(!pgn.contains(TOKEN));
    for tag in [
        format!("[Site \"{site}\"]"),
        "[White \"Georges\"]".to_owned(),
        "[Black \"Mary\"]".to_owned(),
        "[WhiteElo \"1500\"]".to_owned(),
        "[BlackElo \"1600\"]".to_owned(),
        "[TimeControl \"600+5\"]".to_owned(),
    ] {
        assert!(pgn.contains(&tag), "{tag} in {pgn}");
    }
    let moves = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        moves.contains(
            "1. f3 {[%clk 0:09:53]} 1... e5 {[%clk 0:09:53]} 2. g4 {[%clk 0:09:46]} 2... Qh4# {[%clk 0:09:46]} 0-1"
        ),
        "{pgn}"
    );
    #[cfg(unix)]
    python_chess_reads(&out, &site);

    // The text export shows the ratings and the address.
    let run = hector(
        &home,
        &["export", "1", "--format", "text", "-o", "-", "--lang", "en"],
    );
    assert!(run.success);
    assert!(
        run.stdout.contains("Georges (1500)") && run.stdout.contains("Mary (1600)"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(&format!("Site: {site}")),
        "{}",
        run.stdout
    );
    let _ = std::fs::remove_dir_all(&home);
}

/// python-chess reads the PGN without an error: the tags and each move's
/// clock.
#[cfg(unix)] // Unix only: python-chess in a Linux virtual environment
fn python_chess_reads(file: &Path, site: &str) {
    let python = Command::new("bash")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/venv.sh"))
        .output()
        .expect("scripts/venv.sh runs");
    assert!(python.status.success());
    let python = String::from_utf8_lossy(&python.stdout).trim().to_owned();
    let script = r#"
import sys, json, chess.pgn
with open(sys.argv[1], encoding="utf-8") as f:
    game = chess.pgn.read_game(f)
print(json.dumps({
    "errors": [str(e) for e in game.errors],
    "tags": dict(game.headers),
    "clocks": [node.clock() for node in game.mainline()],
}))
"#;
    let out = Command::new(python)
        .args(["-c", script])
        .arg(file)
        .output()
        .expect("python runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&out.stdout).trim()).expect("json");
    assert_eq!(v["errors"], serde_json::json!([]));
    assert_eq!(v["tags"]["Site"], site);
    assert_eq!(v["tags"]["WhiteElo"], "1500");
    assert_eq!(v["tags"]["BlackElo"], "1600");
    assert_eq!(v["tags"]["TimeControl"], "600+5");
    assert_eq!(v["clocks"], serde_json::json!([593.0, 593.0, 586.0, 586.0]));
}

/// Waits (at most 10 s) until the journal holds `n` press records.
fn journal_presses(home: &Path, n: usize) {
    let end = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let have = std::fs::read_dir(games_dir(home))
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| std::fs::read_to_string(e.path()).ok())
            .map(|t| t.matches(" clock press ").count())
            .max()
            .unwrap_or(0);
        if have >= n {
            return;
        }
        assert!(
            std::time::Instant::now() < end,
            "the journal never had {n} presses"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// The opponent moves on the stand-in (the player's hector sees it if it
/// runs).
fn opponent_moves(server: &StandIn, uci: &str) {
    let mut s = server.state.lock().unwrap();
    let g = s.game.as_mut().unwrap();
    g.moves.push(uci.to_owned());
    g.version += 1;
}

/// A game as White against Mary: 1. e4 e5, then 2. Nf3 sent and
/// confirmed, and hector killed (SIGKILL) before Mary's reply.
fn killed_after_nf3(server: &StandIn, home: &Path) {
    {
        let mut s = server.state.lock().unwrap();
        s.replies = ["e7e5"].map(String::from).into();
        s.clock_step_ms = 3_000;
        s.replies_apart = true;
    }
    let mut h = challenge(server, home);
    h.type_line("e4");
    h.until("Black's reply", |l| l.contains("e5"));
    h.type_line("Nf3");
    server.wait_for("Nf3", |s| {
        s.game.as_ref().is_some_and(|g| g.moves.len() == 3)
    });
    journal_presses(home, 3);
    // SIGKILL: nothing of hector's own leaving is done.
    drop(h);
}

#[test]
fn after_sigkill_resume_rejoins_the_game_and_says_each_move_made_meanwhile_once() {
    let server = StandIn::start(TOKEN, "Georges");
    let home = clean_config_dir();
    killed_after_nf3(&server, &home);
    // While hector is away, Mary answers.
    opponent_moves(&server, "b8c6");
    let mut h = play(&home, &["--resume"]);
    h.until("the rejoining", |l| {
        l == "Rejoining the lichess game against Mary."
    });
    let c6 = h.until("the move made meanwhile", |l| l.contains("c6"));
    // The game goes on there: the player's move is posted.
    h.type_line("Bb5");
    server.wait_for("Bb5", |s| {
        s.game.as_ref().is_some_and(|g| g.moves.len() == 5)
    });
    opponent_moves(&server, "a7a6");
    let a6 = h.until("the next reply", |l| l.contains("a6"));
    let lines = h.close();
    let all: Vec<&String> = lines.iter().collect();
    assert_eq!(all.iter().filter(|l| ***l == c6).count(), 1, "{lines:#?}");
    assert_eq!(all.iter().filter(|l| ***l == a6).count(), 1, "{lines:#?}");
    // Nothing of before the kill is announced again as a move.
    assert!(
        !lines.iter().any(|l| l == "pawn e5" || l == "pawn e4"),
        "{lines:#?}"
    );
    let s = server.state.lock().unwrap();
    assert_eq!(
        s.game.as_ref().unwrap().moves,
        ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]
    );
    let streams = s
        .log
        .iter()
        .filter(|l| *l == "GET /api/board/game/stream/stand1n0")
        .count();
    assert_eq!(streams, 2, "rejoined by its id: {:?}", s.log);
    drop(s);
    // One journal, the game's, with every move once.
    let text = journal(&home);
    let moves: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_once(" move ").map(|(_, m)| m))
        .map(|m| m.split(" prev=").next().unwrap())
        .collect();
    assert_eq!(
        moves,
        [
            "1. e4 e2e4",
            "1... e5 e7e5",
            "2. Nf3 g1f3",
            "2... Nc6 b8c6",
            "3. Bb5 f1b5",
            "3... a6 a7a6"
        ],
        "{text}"
    );
    assert!(text.contains(" resumed prev="), "{text}");
    assert!(files_with(&home, TOKEN).is_empty());
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_game_ended_while_away_is_said_on_resume_and_its_record_completed() {
    let server = StandIn::start(TOKEN, "Georges");
    let home = clean_config_dir();
    killed_after_nf3(&server, &home);
    // While hector is away, Mary resigns.
    {
        let mut s = server.state.lock().unwrap();
        let g = s.game.as_mut().unwrap();
        g.status = "resign".into();
        g.winner = Some("white".into());
        g.version += 1;
    }
    let mut h = play(&home, &["--resume"]);
    h.until("the rejoining", |l| {
        l == "Rejoining the lichess game against Mary."
    });
    h.expect("The game ended on lichess while hector was away.");
    h.expect("Black resigns. White wins, one to zero.");
    h.close();
    let text = journal(&home);
    assert!(text.contains(" result 1-0 resignation prev="), "{text}");
    // Finished: listed with its result, and not offered again.
    let run = hector(&home, &["games", "--lang", "en"]);
    assert!(
        run.lines()[0]
            .ends_with(": Georges (1500) against Mary (1600), on lichess, 1-0, two moves."),
        "{}",
        run.stdout
    );
    let mut h = play(&home, &["--resume"]);
    h.expect("New game. White to move.");
    h.close();
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn without_network_the_resume_says_so_once_and_the_game_is_kept() {
    let server = StandIn::start(TOKEN, "Georges");
    let home = clean_config_dir();
    killed_after_nf3(&server, &home);
    server.state.lock().unwrap().unreachable = true;
    let before = journal(&home);
    let mut h = play(&home, &["--resume"]);
    h.until("the rejoining", |l| {
        l == "Rejoining the lichess game against Mary."
    });
    h.expect(
        "lichess cannot be reached now. The game is kept: resume it later with hector play --resume.",
    );
    // Retried meanwhile, and not said again.
    server.wait_for("two retries", |s| s.dropped >= 3);
    let lines = h.close();
    assert_eq!(
        lines.iter().filter(|l| l.contains("lichess")).count(),
        2,
        "rejoining, and out of reach said once: {lines:#?}"
    );
    // Kept for later: unfinished, its records as they were and the resume.
    let text = journal(&home);
    assert!(text.starts_with(&before), "{text}");
    assert!(!text.contains(" result "), "{text}");
    let run = hector(&home, &["games", "--lang", "en"]);
    assert!(
        run.lines()[0].contains("on lichess, unfinished"),
        "{}",
        run.stdout
    );
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn yes_to_the_resume_question_rejoins_and_without_a_token_it_is_not_asked() {
    let server = StandIn::start(TOKEN, "Georges");
    let home = clean_config_dir();
    killed_after_nf3(&server, &home);
    // No token: said, and a new game begins; the online game stays saved.
    // (An empty LICHESS_TOKEN: none, whatever the developer's is.)
    let mut h = Hector::play_with(
        &home,
        &["--lang", "en"],
        &[("LICHESS_TOKEN", Path::new(""))],
    );
    h.expect("No lichess token. Run hector lichess login first, or set LICHESS_TOKEN.");
    h.expect("New game. White to move.");
    h.close();
    let run = hector(&home, &["games", "--lang", "en"]);
    assert!(
        run.lines()[0].contains("on lichess, unfinished"),
        "{}",
        run.stdout
    );
    // With the token: asked, and yes rejoins.
    opponent_moves(&server, "b8c6");
    let mut h = play(&home, &[]);
    h.until("the question", |l| l.ends_with("Resume it? Yes or no."));
    h.type_line("yes");
    h.until("the rejoining", |l| {
        l == "Rejoining the lichess game against Mary."
    });
    h.until("the move made meanwhile", |l| l.contains("c6"));
    h.close();
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_move_lichess_never_got_before_the_kill_is_sent_on_resume() {
    let server = StandIn::start(TOKEN, "Georges");
    {
        let mut s = server.state.lock().unwrap();
        s.replies = ["e7e5"].map(String::from).into();
        s.replies_apart = true;
    }
    let home = clean_config_dir();
    let mut h = challenge(&server, &home);
    h.type_line("e4");
    h.until("Black's reply", |l| l.contains("e5"));
    // The network goes: Nf3 is journalled, and never reaches lichess.
    server.state.lock().unwrap().unreachable = true;
    h.type_line("Nf3");
    server.wait_for("the move tried", |s| s.dropped >= 1);
    assert!(journal(&home).contains(" move 2. Nf3 g1f3 prev="));
    drop(h);
    {
        let mut s = server.state.lock().unwrap();
        assert_eq!(s.game.as_ref().unwrap().moves, ["e2e4", "e7e5"]);
        s.unreachable = false;
        s.replies = ["b8c6"].map(String::from).into();
    }
    let mut h = play(&home, &["--resume"]);
    h.until("the rejoining", |l| {
        l == "Rejoining the lichess game against Mary."
    });
    let c6 = h.until("Mary's reply to the move sent again", |l| l.contains("c6"));
    let lines = h.close();
    assert!(
        !lines.iter().any(|l| l.contains("taken back")),
        "{lines:#?}"
    );
    assert_eq!(lines.iter().filter(|l| **l == c6).count(), 1, "{lines:#?}");
    assert_eq!(
        server.state.lock().unwrap().game.as_ref().unwrap().moves,
        ["e2e4", "e7e5", "g1f3", "b8c6"]
    );
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_new_online_game_says_an_unfinished_one_is_saved_and_how_to_go_on_with_it() {
    let server = StandIn::start(TOKEN, "Georges");
    let home = clean_config_dir();
    // Nothing saved: not said.
    let mut h = play(&home, &["--lichess", "--lichess-url", &server.url]);
    h.expect("Waiting for your lichess game to begin.");
    h.close();
    let server = StandIn::start(TOKEN, "Georges");
    killed_after_nf3(&server, &home);
    let mut h = play(&home, &["--lichess", "--lichess-url", &server.url]);
    h.expect(
        "An unfinished lichess game is saved: to go on with it, start hector play --resume instead.",
    );
    h.close();
    let _ = std::fs::remove_dir_all(&home);
}
