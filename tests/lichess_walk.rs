//! Online play walked as a player would (branch walk): the faults found by
//! playing against the stand-in by hand, each with a test that drives the
//! real binary; and, `#[ignore]`d, the stand-in kept up for a person to
//! play against (`walk_by_hand`).

use std::path::Path;
use std::time::{Duration, Instant};

use crate::lichess_server::StandIn;
use crate::util::{Run, clean_config_dir, hector_with_token};

const TOKEN: &str = "lip_standInSecret0123456789";

/// `hector play --lichess ARGS` with the stand-in's token in the
/// environment, its own HOME and XDG_* folders, nothing on its input.
fn online_run(server: &StandIn, args: &[&str]) -> Run {
    let home = clean_config_dir();
    let mut all = vec!["play", "--lichess", "--lichess-url", server.url.as_str()];
    all.extend_from_slice(args);
    all.extend(["--lang", "en"]);
    let run = hector_with_token(&home, &all, Some(TOKEN), "");
    let _ = std::fs::remove_dir_all(&home);
    run
}

#[test]
fn color_or_time_without_a_challenge_or_seek_is_refused_in_one_sentence() {
    // Before: `--color black` with plain `--lichess` joined the game going
    // on and ignored the colour without a word.
    let server = StandIn::start(TOKEN, "Georges");
    for (args, option) in [
        (&["--color", "black"][..], "--color"),
        (&["--time", "10+5"][..], "--time"),
    ] {
        let r = online_run(&server, args);
        assert!(!r.success, "{}", r.stdout);
        assert_eq!(
            r.lines(),
            [format!(
                "{option} is only for a challenge or a seek: add --challenge NAME or --seek, or leave {option} out. Nothing was started."
            )],
            "{}",
            r.stderr
        );
    }
    // Nothing was asked of lichess.
    assert!(server.state.lock().unwrap().log.is_empty());
}

/// Keeps the stand-in up (at most 20 minutes) for playing by hand:
///
/// ```text
/// cargo test --features test-support --test tests lichess_walk::walk_by_hand -- --ignored --nocapture
/// ```
///
/// It prints its URL and writes it to `/tmp/hector-walk/url`; then
/// `LICHESS_TOKEN=lip_standInSecret0123456789 hector play --lichess
/// --lichess-url URL --challenge Mary …` (with its own HOME and XDG_*).
/// Lines appended to `/tmp/hector-walk/cmd` script the opponent:
/// `reply e7e5` (the next answers), `clear` (no answers queued), `reset` (no game, no events), `step MS` (each move costs MS of
/// the clock in the next game), `draw` (Mary offers a draw),
/// `chat TEXT`, `challenge` (Ann challenges the player), `corr ID NAME
/// DAYS` (a correspondence game in progress), `corrmove ID UCI` (the
/// opponent's move in it), `gone` / `back` (Mary leaves, comes back), `takeback`,
/// `drop` (the game stream breaks at the next move), `resign` (Mary
/// resigns), `stop`.
#[test]
#[ignore = "by hand: keeps the stand-in up for a person to play against"]
fn walk_by_hand() {
    let dir = Path::new("/tmp/hector-walk");
    std::fs::create_dir_all(dir).expect("walk folder");
    let server = StandIn::start(TOKEN, "Georges");
    server.state.lock().unwrap().replies = ["e7e5", "b8c6", "g8f6", "f8c5", "d7d6", "e8g8"]
        .map(String::from)
        .into();
    std::fs::write(dir.join("url"), &server.url).expect("url file");
    std::fs::write(dir.join("cmd"), "").expect("cmd file");
    println!("stand-in at {}", server.url);
    let start = Instant::now();
    let mut done = 0;
    while start.elapsed() < Duration::from_secs(20 * 60) {
        std::thread::sleep(Duration::from_millis(200));
        let text = std::fs::read_to_string(dir.join("cmd")).unwrap_or_default();
        let lines: Vec<String> = text.lines().skip(done).map(str::to_owned).collect();
        for line in lines {
            done += 1;
            let (verb, rest) = line.split_once(' ').unwrap_or((line.as_str(), ""));
            println!("walk: {verb} {rest}");
            let mut s = server.state.lock().unwrap();
            let me = s.username.clone();
            let them = s
                .game
                .as_ref()
                .map(|g| g.opponent.clone())
                .unwrap_or_default();
            match verb {
                "reply" => s.replies.push_back(rest.to_owned()),
                "clear" => s.replies.clear(),
                // Each side's clock loses MS a move in the games that
                // challenges make from now on (lichess's times).
                "step" => s.clock_step_ms = rest.trim().parse().unwrap_or(0),
                // No game going on, no events: as before a first game.
                "reset" => {
                    s.game = None;
                    s.events.clear();
                }
                // A challenge made to the player (accepting it gets 404
                // from the stand-in: as if withdrawn meanwhile).
                "challenge" => s.events.push(format!(
                    r#"{{"type":"challenge","challenge":{{"id":"c{done}","url":"x","status":"created","challenger":{{"id":"ann","name":"Ann","rating":1500}},"destUser":{{"id":"{lower}","name":"{me}"}},"variant":{{"key":"standard"}},"rated":true,"speed":"rapid","timeControl":{{"type":"clock","limit":600,"increment":5}},"color":"random","perf":{{"name":"Rapid"}}}}}}"#,
                    lower = me.to_lowercase()
                )),
                // A correspondence game in progress: `corr ID NAME DAYS`.
                "corr" => {
                    let w: Vec<&str> = rest.split_whitespace().collect();
                    if let [id, name, days] = w[..] {
                        let days = days.parse().unwrap_or(3);
                        s.others
                            .push(crate::lichess_server::Game::correspondence(id, name, days, &[]));
                    }
                }
                // The opponent's move in it while hector is closed: `corrmove ID UCI`.
                "corrmove" => {
                    if let Some((id, uci)) = rest.split_once(' ')
                        && let Some(g) = s.others.iter_mut().find(|g| g.id == id)
                    {
                        g.moves.push(uci.trim().to_owned());
                        g.version += 1;
                    }
                }
                "drop" => s.drop_at = s.game.as_ref().map(|g| g.moves.len() + 1),
                "chat" => s.game_lines.push(format!(
                    r#"{{"type":"chatLine","room":"player","username":"{them}","text":"{rest}"}}"#
                )),
                "gone" => s
                    .game_lines
                    .push(r#"{"type":"opponentGone","gone":true,"claimWinInSeconds":30}"#.into()),
                "back" => s
                    .game_lines
                    .push(r#"{"type":"opponentGone","gone":false}"#.into()),
                "stop" => return,
                _ => {
                    if let Some(g) = s.game.as_mut() {
                        match verb {
                            "draw" => g.draw_offer = true,
                            "takeback" => g.their_takeback = true,
                            "resign" => {
                                g.status = "resign".into();
                                g.winner = Some(if g.white { "white" } else { "black" }.into());
                            }
                            _ => println!("walk: unknown {verb} (me {me})"),
                        }
                        g.version += 1;
                    }
                }
            }
        }
    }
}
