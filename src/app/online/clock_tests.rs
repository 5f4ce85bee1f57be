use std::time::{Duration, Instant};

use shakmaty::Color;

use super::*;
use crate::app::App;
use crate::lichess::event;
use crate::msg::Msg;
use crate::words::Lang;

#[test]
fn the_servers_clock_is_hectors_clock() {
    let t0 = Instant::now();
    let mut app = App::builder().lang(Lang::En).build();
    app.set_online(OnlineStart::Join);
    let io = |line: &str, game: bool| {
        if game {
            LichessIo::Game("g1".into(), event::game_line(line).unwrap().unwrap())
        } else {
            LichessIo::Account(Box::new(event::account_line(line).unwrap().unwrap()))
        }
    };
    let _ = app.update(
        Msg::Lichess(io(
            r#"{"type":"gameStart","game":{"gameId":"g1","color":"white"}}"#,
            false,
        )),
        t0,
    );
    let full = r#"{"type":"gameFull","id":"g1","white":{"id":"me","name":"Me"},"black":{"id":"mary","name":"Mary"},"initialFen":"startpos","clock":{"initial":600000,"increment":5000},"state":{"type":"gameState","moves":"","wtime":600000,"btime":600000,"winc":5000,"binc":5000,"status":"started"}}"#;
    let _ = app.update(Msg::Lichess(io(full, true)), t0);
    let clock = app.clock().expect("a clock");
    assert_eq!(clock.remaining(Color::White, t0), Duration::from_secs(600));
    assert!(!clock.is_running(), "not before each side's first move");
    let _ = app.update(Msg::Line("e4".into()), t0);
    let state = r#"{"type":"gameState","moves":"e2e4 e7e5","wtime":598000,"btime":593500,"winc":5000,"binc":5000,"status":"started"}"#;
    let t1 = t0 + Duration::from_secs(3);
    let _ = app.update(Msg::Lichess(io(state, true)), t1);
    let clock = app.clock().expect("a clock");
    assert_eq!(
        clock.remaining(Color::Black, t1),
        Duration::from_millis(593_500)
    );
    // White's time runs from the state on.
    let t2 = t1 + Duration::from_secs(2);
    assert_eq!(
        clock.remaining(Color::White, t2),
        Duration::from_millis(596_000)
    );
}

/// The server's clock speaks as hector's does: a threshold of the
/// player's time (two minutes) is said once, when lichess's time of
/// the side to move runs past it; the flag is lichess's to call.
#[test]
fn the_servers_clock_says_its_thresholds() {
    let t0 = Instant::now();
    let mut app = App::builder().lang(Lang::En).build();
    app.set_online(OnlineStart::Join);
    let game = |line: &str| {
        Msg::Lichess(LichessIo::Game(
            "g1".into(),
            event::game_line(line).unwrap().unwrap(),
        ))
    };
    let start = r#"{"type":"gameStart","game":{"gameId":"g1","color":"white"}}"#;
    let _ = app.update(
        Msg::Lichess(LichessIo::Account(Box::new(
            event::account_line(start).unwrap().unwrap(),
        ))),
        t0,
    );
    let full = r#"{"type":"gameFull","id":"g1","white":{"id":"me","name":"Me"},"black":{"id":"mary","name":"Mary"},"initialFen":"startpos","clock":{"initial":180000,"increment":0},"state":{"type":"gameState","moves":"","wtime":180000,"btime":180000,"winc":0,"binc":0,"status":"started"}}"#;
    let _ = app.update(game(full), t0);
    let _ = app.update(Msg::Line("e4".into()), t0);
    let state = r#"{"type":"gameState","moves":"e2e4 e7e5","wtime":125000,"btime":170000,"winc":0,"binc":0,"status":"started"}"#;
    let _ = app.update(game(state), t0);
    let said_between = |app: &mut App, from: u64, to: u64| -> Vec<String> {
        (from..=to)
            .flat_map(|s| app.update(Msg::Deadline, t0 + Duration::from_secs(s)))
            .filter_map(|e| match e {
                Effect::Say(u) => Some(u.text),
                _ => None,
            })
            .collect()
    };
    let before = said_between(&mut app, 1, 4);
    assert!(
        before.is_empty(),
        "nothing before the threshold: {before:?}"
    );
    let after = said_between(&mut app, 5, 12);
    assert_eq!(after.len(), 1, "said once: {after:?}");
    assert!(
        after[0].contains("2 minutes") || after[0].contains("two minutes"),
        "{after:?}"
    );
}
