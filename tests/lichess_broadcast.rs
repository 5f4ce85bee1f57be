//! An over-the-board game pushed live to a lichess broadcast round
//! (`hector play --broadcast ROUND_ID`), through the binary, against the
//! stand-in on loopback (tests/support/lichess.rs): every move pushed as
//! the whole PGN, the network away (503s, then connections closed) and
//! back, the last PGN arriving whole, and the game's own sentences the
//! same as without a broadcast.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::lichess_server::StandIn;
use crate::util::{Hector, clean_config_dir, hector_with_token};

const TOKEN: &str = "lip_broadcastSecret0123456789";
const ROUND: &str = "Rnd0042x";

/// The lines of a game, with the broadcast's own sentences left out.
fn game_lines(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| !l.starts_with("The broadcast"))
        .cloned()
        .collect()
}

/// The game played as a player would, each move typed after the
/// sentences of the one before: every line said, the broadcast's
/// included.  `between(i)` runs before move `i` is typed.
fn play(h: &mut Hector, moves: &[&str], mut between: impl FnMut(usize, &mut Hector)) {
    for (i, m) in moves.iter().enumerate() {
        between(i, h);
        h.type_line(m);
        // The move's announcement, said at once whatever the network does.
        let t = Instant::now();
        h.until("the move said", |l| !l.starts_with("The broadcast"));
        assert!(
            t.elapsed() < Duration::from_secs(2),
            "{m} said after {:?}",
            t.elapsed()
        );
    }
}

fn pushes(server: &StandIn) -> Vec<(String, String)> {
    server.state.lock().unwrap().pushes.clone()
}

const MOVES: [&str; 4] = ["f3", "e5", "g4", "Qh4"];

#[test]
fn every_move_is_pushed_and_the_last_pgn_arrives_whole_after_the_network_was_away() {
    // The same game without a broadcast: what the player must hear.
    let mut plain = Hector::play(&["--white", "Ann", "--black", "Ben"]);
    play(&mut plain, &MOVES, |_, _| {});
    let reference = game_lines(&plain.close());

    let server = StandIn::start(TOKEN, "Organiser");
    let home = clean_config_dir();
    let args = [
        "--broadcast",
        ROUND,
        "--lichess-url",
        &server.url,
        "--white",
        "Ann",
        "--black",
        "Ben",
    ];
    let mut h = Hector::play_with(&home, &args, &[("LICHESS_TOKEN", Path::new(TOKEN))])
        .waiting(Duration::from_secs(20));
    play(&mut h, &MOVES, |i, _| match i {
        1 => server.wait_for("the opening and the first move pushed", |s| {
            s.pushes.last().is_some_and(|(_, b)| b.contains("1. f3 *"))
        }),
        2 => {
            server.wait_for("the second move pushed", |s| {
                s.pushes
                    .last()
                    .is_some_and(|(_, b)| b.contains("1. f3 e5 *"))
            });
            // lichess answers 503 while the last two moves are made.
            server.state.lock().unwrap().push_503 = true;
        }
        3 => {
            server.wait_for("a push refused with 503", |s| s.push_failures >= 1);
            // Then the network is away: connections closed unanswered.
            let mut s = server.state.lock().unwrap();
            s.push_503 = false;
            s.push_dropped = true;
            drop(s);
        }
        _ => {}
    });
    // Said once, five seconds after the first failure, and the game
    // meanwhile went on.
    h.skip_to(
        "The broadcast cannot reach lichess. The moves are kept and sent when it is back.",
        Duration::from_secs(15),
    );
    let failures = server.state.lock().unwrap().push_failures;
    assert!(failures >= 2, "retried while away: {failures}");
    server.state.lock().unwrap().push_dropped = false;
    h.skip_to(
        "The broadcast reaches lichess again.",
        Duration::from_secs(20),
    );
    server.wait_for("the final game pushed", |s| {
        s.pushes
            .last()
            .is_some_and(|(_, b)| b.contains("[Result \"0-1\"]"))
    });
    let lines = h.close();
    let said = lines.join("\n");
    assert_eq!(
        said.matches("The broadcast cannot reach lichess").count(),
        1,
        "{said}"
    );
    assert_eq!(
        said.matches("The broadcast reaches lichess again.").count(),
        1,
        "{said}"
    );
    assert_eq!(
        game_lines(&lines),
        reference,
        "the game's sentences are those of a game without a broadcast"
    );

    let all = pushes(&server);
    assert!(all.iter().all(|(r, _)| r == ROUND));
    let (_, last) = all.last().unwrap();
    assert!(last.contains("[White \"Ann\"]"), "{last}");
    assert!(last.contains("[Black \"Ben\"]"), "{last}");
    assert!(
        last.contains("1. f3 e5 2. g4 Qh4# 0-1"),
        "the whole game: {last}"
    );
    // One push at a time and only the newest: nothing older came after
    // the final game.
    let first_final = all.iter().position(|(_, b)| b.contains("0-1")).unwrap();
    assert!(all[first_final..].iter().all(|(_, b)| b.contains("0-1")));
    // The token went in headers only: never said, never journalled.
    assert!(!said.contains(TOKEN));
    let raw = server.state.lock().unwrap().raw.clone();
    assert!(raw.iter().all(|r| {
        !r.split_once("\n\n")
            .map_or("", |(_, body)| body)
            .contains(TOKEN)
    }));
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_refused_token_is_said_once_and_the_game_goes_on_without_pushes() {
    let server = StandIn::start(TOKEN, "Organiser");
    let home = clean_config_dir();
    let args = ["--broadcast", ROUND, "--lichess-url", &server.url];
    let mut h = Hector::play_with(&home, &args, &[("LICHESS_TOKEN", Path::new("lip_wrong"))]);
    h.skip_to(
        "lichess refused the broadcast: the token needs the scope study:write and the round must be yours. The game goes on without the broadcast.",
        Duration::from_secs(10),
    );
    play(&mut h, &["e4", "e5"], |_, _| {});
    let lines = h.close();
    let refused = lines.iter().filter(|l| l.contains("broadcast")).count();
    assert_eq!(refused, 1, "said once: {lines:?}");
    assert!(lines.contains(&"Bauer Eva fünf".to_owned()), "{lines:?}");
    let log = server.state.lock().unwrap().log.clone();
    let tried = log.iter().filter(|l| l.contains("/push")).count();
    assert_eq!(tried, 1, "not pushed again: {log:?}");
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_bad_round_id_or_no_token_is_said_before_the_game() {
    let home = clean_config_dir();
    let r = hector_with_token(&home, &["play", "--broadcast", "nope"], None, "");
    assert!(!r.success);
    assert!(
        r.stdout
            .contains("A broadcast round's id is the eight letters and digits"),
        "{}",
        r.stdout
    );
    let r = hector_with_token(
        &home,
        &["play", "--broadcast", ROUND, "--lang", "de"],
        None,
        "",
    );
    assert!(!r.success);
    assert!(
        r.stdout
            .contains("Eine Übertragung braucht ein lichess-Token mit dem Bereich study:write."),
        "{}",
        r.stdout
    );
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn leaving_waits_until_lichess_has_the_last_moves() {
    let server = StandIn::start(TOKEN, "Organiser");
    let home = clean_config_dir();
    let args = ["--broadcast", ROUND, "--lichess-url", &server.url];
    let mut h = Hector::play_with(&home, &args, &[("LICHESS_TOKEN", Path::new(TOKEN))]);
    play(&mut h, &["e4"], |_, _| {});
    server.wait_for("the first move pushed", |s| {
        s.pushes.last().is_some_and(|(_, b)| b.contains("1. e4 *"))
    });
    server.state.lock().unwrap().push_503 = true;
    play(&mut h, &["e5"], |_, _| {});
    server.wait_for("a push refused with 503", |s| s.push_failures >= 1);
    h.type_line("quit");
    h.skip_to(
        "The last moves are being sent to the broadcast. hector ends when lichess has them, in ten seconds at most.",
        Duration::from_secs(5),
    );
    assert!(h.alive(), "still sending");
    server.state.lock().unwrap().push_503 = false;
    let rest = h.close();
    assert!(!rest.iter().any(|l| l.contains("did not get")), "{rest:?}");
    let (_, last) = pushes(&server).last().cloned().unwrap();
    assert!(last.contains("1. e4 e5 *"), "{last}");
    let _ = std::fs::remove_dir_all(&home);
}
