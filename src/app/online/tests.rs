use std::time::{Duration, Instant};

use super::*;
use crate::app::App;
use crate::app::tests::said;
use crate::lichess::event;
use crate::msg::Msg;
use crate::words::Lang;
use shakmaty::uci::UciMove;

/// An app in an online game as White against Mary, on a virtual clock.
struct Rig {
    app: App,
    t0: Instant,
}

fn sent(e: &[Effect]) -> Vec<Request> {
    e.iter()
        .filter_map(|x| match x {
            Effect::Lichess(LichessOrder::Send(r)) => Some(r.clone()),
            _ => None,
        })
        .collect()
}

fn state(moves: &str, extra: &str) -> String {
    format!(
        r#"{{"type":"gameState","moves":"{moves}","wtime":1,"btime":1,"winc":0,"binc":0,"status":"started"{extra}}}"#
    )
}

impl Rig {
    fn new() -> Rig {
        let mut app = App::builder().lang(Lang::En).build();
        app.set_online(OnlineStart::Join);
        let mut r = Rig {
            app,
            t0: Instant::now(),
        };
        r.msg(0, Msg::Start);
        let start = r#"{"type":"gameStart","game":{"gameId":"g1","color":"white","opponent":{"username":"Mary","rating":1600},"compat":{"board":true}}}"#;
        let e = r.io(
            0,
            LichessIo::Account(Box::new(event::account_line(start).unwrap().unwrap())),
        );
        assert!(e.contains(&Effect::Lichess(LichessOrder::OpenGameStream("g1".into()))));
        let full = r#"{"type":"gameFull","id":"g1","white":{"id":"me","name":"Me"},"black":{"id":"mary","name":"Mary","rating":1600},"initialFen":"startpos","state":{"type":"gameState","moves":"","wtime":1,"btime":1,"winc":0,"binc":0,"status":"started"}}"#;
        let s = said(&r.game(0, full));
        assert_eq!(
            s,
            ["The game against Mary, rated 1600, begins. You play White."]
        );
        r
    }

    fn at(&self, ms: u64) -> Instant {
        self.t0 + Duration::from_millis(ms)
    }

    fn msg(&mut self, ms: u64, m: Msg) -> Vec<Effect> {
        let now = self.at(ms);
        self.app.update(m, now)
    }

    fn io(&mut self, ms: u64, io: LichessIo) -> Vec<Effect> {
        self.msg(ms, Msg::Lichess(io))
    }

    fn game(&mut self, ms: u64, line: &str) -> Vec<Effect> {
        let e = event::game_line(line).unwrap().unwrap();
        self.io(ms, LichessIo::Game("g1".into(), e))
    }

    fn typed(&mut self, ms: u64, line: &str) -> Vec<Effect> {
        self.msg(ms, Msg::Line(line.into()))
    }
}

#[test]
fn the_players_move_is_posted_and_the_echo_not_said_again() {
    let mut r = Rig::new();
    let e = r.typed(10, "e4");
    assert_eq!(
        sent(&e),
        [Request::Move {
            game: "g1".into(),
            uci: "e2e4".into(),
            offering_draw: false
        }]
    );
    // A second move before the reply is refused, nothing sent.
    let e = r.typed(20, "d4");
    assert_eq!(said(&e), ["It is your opponent's move; wait for it."]);
    assert!(sent(&e).is_empty());
    // The server's echo of e4 is not said again; Black's reply is.
    let e = r.game(30, &state("e2e4 e7e5", ""));
    assert_eq!(said(&e), ["Bauer Eva fünf"]);
    assert_eq!(r.app.game().history().len(), 2);
}

#[test]
fn a_move_before_the_game_is_said_to_wait() {
    let mut app = App::builder().lang(Lang::En).build();
    app.set_online(OnlineStart::Join);
    let e = app.update(Msg::Line("e4".into()), Instant::now());
    assert_eq!(said(&e), ["The game has not begun yet."]);
    assert!(sent(&e).is_empty());
}

#[test]
fn a_declined_offer_is_gone_here_too_and_no_offer_cannot_be_answered() {
    // branch walk: with no offer, "decline" said "Draw declined." and
    // asked lichess; a declined offer stayed in the prompt and
    // "lapsed" at the next move.
    let mut r = Rig::new();
    r.typed(10, "e4");
    r.game(20, &state("e2e4 e7e5", ""));
    for (ms, word) in [(25, "decline"), (26, "accept")] {
        let e = r.typed(ms, word);
        assert_eq!(said(&e), ["There is no draw offer."], "{word}");
        assert!(sent(&e).is_empty(), "{word}");
    }
    r.game(30, &state("e2e4 e7e5", r#","bdraw":true"#));
    let e = r.typed(40, "decline");
    assert_eq!(said(&e), ["Draw declined."]);
    assert_eq!(r.app.game().pending_offer(), None);
    let e = r.typed(50, "Nf3");
    assert!(
        !said(&e).iter().any(|s| s.contains("lapses")),
        "{:?}",
        said(&e)
    );
    assert_eq!(sent(&e).len(), 1);
}

#[test]
fn the_full_screen_views_clocks_name_the_players() {
    // branch walk: they said only "White" and "Black"; the opponent's
    // name was nowhere on the screen once the first sentence was gone.
    let r = Rig::new();
    let labels = r.app.view_model(&crate::view::UiState::default()).labels;
    assert_eq!(labels.white, "White: Me");
    assert_eq!(labels.black, "Black: Mary");
}

#[test]
fn the_other_side_cannot_be_taken_online() {
    let mut r = Rig::new();
    let e = r.typed(10, "flip");
    assert_eq!(
        said(&e),
        ["In a lichess game your colour stays: you play White."]
    );
    assert_eq!(r.app.settings.me, Color::White);
}

#[test]
fn after_the_end_the_prompt_says_quit_not_new() {
    // branch walk: it said "Say new for a new game.", and "new" is
    // refused online.
    let mut r = Rig::new();
    r.typed(10, "e4");
    r.game(20, &state("e2e4 e7e5", ""));
    let over = r#"{"type":"gameState","moves":"e2e4 e7e5","wtime":1,"btime":1,"winc":0,"binc":0,"status":"resign","winner":"black"}"#;
    r.game(30, over);
    assert_eq!(
        r.app.prompt(),
        "Game over: Black won, White resigned, zero to one. Say quit to close hector; a new lichess game is a new start."
    );
}

#[test]
fn draw_both_ways_takeback_and_resign_go_to_the_server() {
    let mut r = Rig::new();
    r.typed(10, "e4");
    r.game(20, &state("e2e4 e7e5", ""));
    let e = r.game(30, &state("e2e4 e7e5", r#","bdraw":true"#));
    assert_eq!(said(&e), ["Black offers a draw."]);
    let e = r.typed(40, "accept");
    assert_eq!(
        sent(&e),
        [Request::Draw {
            game: "g1".into(),
            yes: true
        }]
    );
    let e = r.typed(50, "decline");
    assert_eq!(
        sent(&e),
        [Request::Draw {
            game: "g1".into(),
            yes: false
        }]
    );
    let e = r.typed(60, "draw");
    assert_eq!(said(&e), ["Draw offer sent."]);
    let e = r.typed(70, "takeback");
    assert_eq!(
        sent(&e),
        [Request::Takeback {
            game: "g1".into(),
            yes: true
        }]
    );
    let e = r.game(80, &state("e2e4 e7e5", r#","btakeback":true"#));
    assert_eq!(
        said(&e),
        ["Your opponent asks to take back a move. Say takeback to agree, or decline to refuse."]
    );
    // `takeback` agrees (the same request as asking).
    let e = r.typed(85, "takeback");
    assert_eq!(
        sent(&e),
        [Request::Takeback {
            game: "g1".into(),
            yes: true
        }]
    );
    let e = r.typed(90, "resign");
    assert_eq!(sent(&e), [Request::Resign { game: "g1".into() }]);
    // The game ends when the server says so, with its reason.
    let over = r#"{"type":"gameState","moves":"e2e4 e7e5","wtime":1,"btime":1,"winc":0,"binc":0,"status":"resign","winner":"black"}"#;
    let e = r.game(100, over);
    assert_eq!(said(&e).len(), 1);
    assert!(r.app.game().is_over());
    assert!(said(&r.game(110, over)).is_empty(), "said once");
}

#[test]
fn new_never_leaves_the_lichess_game_behind() {
    let mut r = Rig::new();
    let e = r.typed(10, "new");
    assert_eq!(
        said(&e),
        ["The lichess game goes on: resign it first, or play on."]
    );
    assert!(sent(&e).is_empty());
    assert_eq!(r.app.game().history().len(), 0);
    r.typed(20, "e4");
    let over = r#"{"type":"gameState","moves":"e2e4","wtime":1,"btime":1,"winc":0,"binc":0,"status":"resign","winner":"white"}"#;
    let e = r.game(30, over);
    assert!(!said(&e).is_empty());
    let e = r.typed(40, "new");
    assert_eq!(
        said(&e),
        ["A new lichess game needs a new start: quit, then start hector with --lichess again."]
    );
    assert_eq!(r.app.game().history().len(), 1);
}

#[test]
fn a_takeback_on_the_server_takes_the_moves_back_here() {
    let mut r = Rig::new();
    r.typed(10, "e4");
    r.game(20, &state("e2e4 e7e5", ""));
    let e = r.game(30, &state("e2e4", ""));
    assert_eq!(said(&e), ["Taken back on lichess: Bauer Eva fünf."]);
    assert_eq!(r.app.game().history().len(), 1);
}

#[test]
fn the_link_down_is_said_once_after_five_seconds_and_back_once() {
    let mut r = Rig::new();
    r.io(1000, LichessIo::StreamDown(Stream::Game("g1".into())));
    assert_eq!(r.app.next_deadline(), Some(r.at(6000)));
    assert!(said(&r.msg(5999, Msg::Deadline)).is_empty());
    let e = r.msg(6000, Msg::Deadline);
    assert_eq!(
        said(&e),
        ["The connection to lichess is lost. hector keeps trying."]
    );
    assert!(said(&r.msg(9000, Msg::Deadline)).is_empty());
    let e = r.io(9500, LichessIo::StreamOpen(Stream::Game("g1".into())));
    assert_eq!(said(&e), ["The connection to lichess is back."]);
    // A short drop is not said at all.
    r.io(10_000, LichessIo::StreamDown(Stream::Game("g1".into())));
    let e = r.io(11_000, LichessIo::StreamOpen(Stream::Game("g1".into())));
    assert!(said(&e).is_empty());
}

#[test]
fn opponent_gone_and_aborted_are_said() {
    let mut r = Rig::new();
    let e = r.game(
        10,
        r#"{"type":"opponentGone","gone":true,"claimWinInSeconds":30}"#,
    );
    assert_eq!(
        said(&e),
        [
            "Your opponent left the game.",
            "You may claim the win in 30 seconds."
        ]
    );
    // Too early: how long, and nothing sent (lichess would refuse it).
    let e = r.typed(15, "claim");
    assert!(sent(&e).is_empty());
    assert_eq!(said(&e), ["You may claim the win in 30 seconds."]);
    let e = r.typed(20_010, "claim");
    assert_eq!(said(&e), ["You may claim the win in 10 seconds."]);
    // lichess's countdown again: followed, not said.
    let e = r.game(
        20_020,
        r#"{"type":"opponentGone","gone":true,"claimWinInSeconds":10}"#,
    );
    assert!(said(&e).is_empty());
    assert_eq!(r.app.next_deadline(), Some(r.at(30_020)));
    assert!(said(&r.msg(30_019, Msg::Deadline)).is_empty());
    let e = r.msg(30_020, Msg::Deadline);
    assert_eq!(said(&e), ["You may claim the win now: say claim."]);
    assert_eq!(r.app.next_deadline(), None);
    let e = r.typed(30_030, "claim");
    assert_eq!(sent(&e), [Request::ClaimVictory { game: "g1".into() }]);
    assert_eq!(said(&e), ["Win claimed."]);
    let e = r.game(30_040, r#"{"type":"opponentGone","gone":false}"#);
    assert_eq!(said(&e), ["Your opponent is back."]);
    assert!(said(&r.game(30_041, r#"{"type":"opponentGone","gone":false}"#)).is_empty());
    let e = r.typed(30_045, "claim");
    assert!(sent(&e).is_empty());
    assert_eq!(
        said(&e),
        ["Your opponent has not left the game; there is no win to claim."]
    );
    let aborted = r#"{"type":"gameState","moves":"","wtime":1,"btime":1,"winc":0,"binc":0,"status":"aborted"}"#;
    assert_eq!(said(&r.game(30_050, aborted)), ["The game was aborted."]);
}

#[test]
fn a_game_ended_while_away_is_said_on_return() {
    let mut r = Rig::new();
    r.typed(10, "e4");
    r.io(20, LichessIo::StreamDown(Stream::Game("g1".into())));
    r.msg(6_000, Msg::Deadline);
    r.io(9_000, LichessIo::StreamOpen(Stream::Game("g1".into())));
    let full = r#"{"type":"gameFull","id":"g1","white":{"id":"me","name":"Me"},"black":{"id":"mary","name":"Mary","rating":1600},"initialFen":"startpos","state":{"type":"gameState","moves":"e2e4 e7e5","wtime":1,"btime":1,"winc":0,"binc":0,"status":"outoftime","winner":"black"}}"#;
    let e = r.game(9_010, full);
    assert_eq!(
        said(&e),
        [
            "Bauer Eva fünf",
            "White's flag has fallen. Black wins, zero to one."
        ]
    );
    assert!(r.app.game().is_over());
}

#[test]
fn events_of_another_game_are_not_ours() {
    let mut r = Rig::new();
    let e = event::game_line(&state("e2e4", "")).unwrap().unwrap();
    let out = r.io(10, LichessIo::Game("other".into(), e));
    assert!(said(&out).is_empty());
    assert!(r.app.game().history().is_empty());
}

#[test]
fn an_impossible_move_is_said_not_a_panic() {
    let mut r = Rig::new();
    // A move that is not legal here (never expected from lichess).
    let e = r.game(10, &state("e2e5", ""));
    assert_eq!(
        said(&e),
        ["lichess sent a move hector cannot play here: e2e5."]
    );
}

// --- branch online: abort, takeback both ways, the end's reasons,
// chat, errors ---

fn over(moves: &str, status: &str, winner: Option<&str>) -> String {
    let w = winner
        .map(|w| format!(r#","winner":"{w}""#))
        .unwrap_or_default();
    format!(
        r#"{{"type":"gameState","moves":"{moves}","wtime":1,"btime":1,"winc":0,"binc":0,"status":"{status}"{w}}}"#
    )
}

#[test]
fn abort_only_before_both_sides_have_moved() {
    let mut r = Rig::new();
    let e = r.typed(10, "abort");
    assert_eq!(sent(&e), [Request::Abort { game: "g1".into() }]);
    assert_eq!(said(&e), ["Abort sent."]);
    r.typed(20, "e4");
    let e = r.typed(25, "abort");
    assert_eq!(sent(&e).len(), 1, "one move: still allowed");
    r.game(30, &state("e2e4 e7e5", ""));
    let e = r.typed(40, "abort");
    assert!(sent(&e).is_empty());
    assert_eq!(
        said(&e),
        ["Both sides have moved: the game can no longer be aborted. Resign, or offer a draw."]
    );
    assert_eq!(
        said(&r.game(50, &over("e2e4 e7e5", "aborted", None))),
        ["The game was aborted."]
    );
}

#[test]
fn the_opponents_takeback_is_agreed_or_refused_and_ours_refused_is_said() {
    let mut r = Rig::new();
    r.typed(10, "e4");
    r.game(20, &state("e2e4 e7e5", ""));
    r.game(30, &state("e2e4 e7e5", r#","btakeback":true"#));
    let e = r.typed(40, "decline");
    assert_eq!(
        sent(&e),
        [Request::Takeback {
            game: "g1".into(),
            yes: false
        }]
    );
    assert_eq!(said(&e), ["Takeback refused."]);
    r.game(50, &state("e2e4 e7e5", ""));
    r.game(60, &state("e2e4 e7e5", r#","btakeback":true"#));
    let e = r.typed(70, "accept");
    assert_eq!(
        sent(&e),
        [Request::Takeback {
            game: "g1".into(),
            yes: true
        }]
    );
    assert_eq!(said(&e), ["Takeback agreed."]);
    // With no request up, decline is the draw's again (an offer
    // standing: with none, nothing is asked).
    r.game(80, &state("e2e4", r#","bdraw":true"#));
    let e = r.typed(90, "decline");
    assert_eq!(
        sent(&e),
        [Request::Draw {
            game: "g1".into(),
            yes: false
        }]
    );
    // Ours asked, then taken down with no move back: refused.
    r.typed(100, "takeback");
    r.game(110, &state("e2e4", r#","wtakeback":true"#));
    let e = r.game(120, &state("e2e4", ""));
    assert_eq!(said(&e), ["Your opponent refused the takeback."]);
}

#[test]
fn the_end_is_said_with_its_reason() {
    let cases: [(&str, &str, Option<&str>, &str); 8] = [
        (
            "e2e4",
            "resign",
            Some("white"),
            "Black resigns. White wins, one to zero.",
        ),
        (
            "e2e4",
            "outoftime",
            Some("black"),
            "White's flag has fallen. Black wins, zero to one.",
        ),
        (
            "e2e4",
            "timeout",
            Some("white"),
            "Black left the game, and the win was claimed. White wins, one to zero.",
        ),
        (
            "e2e4",
            "draw",
            None,
            "lichess declares the game drawn, half a point each.",
        ),
        (
            "e2e4",
            "noStart",
            None,
            "The game was cancelled: the first move was not made in time.",
        ),
        ("", "aborted", None, "The game was aborted."),
        (
            "e2e4",
            "cheat",
            Some("white"),
            "lichess ended the game for a breach of its fair-play rules. White wins, one to zero.",
        ),
        (
            "e2e4",
            "unknownFinish",
            None,
            "lichess ended the game as a draw, half a point each.",
        ),
    ];
    for (moves, status, winner, want) in cases {
        let mut r = Rig::new();
        if !moves.is_empty() {
            r.typed(10, "e4");
            r.game(15, &state(moves, ""));
        }
        let e = r.game(20, &over(moves, status, winner));
        assert_eq!(said(&e), [want], "{status}");
    }
    // A draw after an offer is one by agreement.
    let mut r = Rig::new();
    r.typed(10, "e4");
    r.game(15, &state("e2e4 e7e5", r#","bdraw":true"#));
    let e = r.game(20, &over("e2e4 e7e5", "draw", None));
    assert_eq!(said(&e), ["Draw by agreement, half a point each."]);
}

#[test]
fn the_end_is_said_in_every_language_with_every_placeholder_filled() {
    let statuses = [
        ("resign", Some("white")),
        ("outoftime", Some("black")),
        ("outoftime", None),
        ("timeout", Some("white")),
        ("draw", None),
        ("noStart", None),
        ("aborted", None),
        ("cheat", Some("black")),
        ("unknownFinish", Some("white")),
        ("unknownFinish", None),
    ];
    for lang in [Lang::En, Lang::De, Lang::It, Lang::El] {
        let mut seen = std::collections::HashSet::new();
        for (status, winner) in statuses {
            let mut app = App::builder().lang(lang).build();
            app.set_online(OnlineStart::Join);
            let t0 = Instant::now();
            let start = r#"{"type":"gameStart","game":{"gameId":"g1","color":"white","compat":{"board":true}}}"#;
            let _ = app.update(
                Msg::Lichess(LichessIo::Account(Box::new(
                    event::account_line(start).unwrap().unwrap(),
                ))),
                t0,
            );
            let full = r#"{"type":"gameFull","id":"g1","white":{"id":"me","name":"Me"},"black":{"id":"mary","name":"Mary"},"initialFen":"startpos","state":{"type":"gameState","moves":"","wtime":1,"btime":1,"winc":0,"binc":0,"status":"started"}}"#;
            let _ = app.update(
                Msg::Lichess(LichessIo::Game(
                    "g1".into(),
                    event::game_line(full).unwrap().unwrap(),
                )),
                t0,
            );
            let e = app.update(
                Msg::Lichess(LichessIo::Game(
                    "g1".into(),
                    event::game_line(&over("", status, winner))
                        .unwrap()
                        .unwrap(),
                )),
                t0,
            );
            let s = said(&e);
            assert_eq!(s.len(), 1, "{lang:?} {status}: {s:?}");
            assert!(!s[0].contains('{') && !s[0].is_empty(), "{lang:?}: {s:?}");
            seen.insert(s[0].clone());
        }
        assert_eq!(
            seen.len(),
            statuses.len(),
            "{lang:?}: each end its own words"
        );
    }
}

fn chat(user: &str, room: &str, text: &str) -> String {
    format!(r#"{{"type":"chatLine","room":"{room}","username":"{user}","text":"{text}"}}"#)
}

#[test]
fn chat_is_counted_never_in_a_moves_place_and_read_on_request() {
    let mut r = Rig::new();
    let e = r.typed(10, "chat");
    assert_eq!(said(&e), ["No chat messages you have not heard."]);
    // Our own line is not news, nor lichess's English notes.
    assert!(said(&r.game(20, &chat("Me", "player", "hello"))).is_empty());
    assert!(said(&r.game(25, &chat("lichess", "player", "Takeback sent"))).is_empty());
    let e = r.game(30, &chat("Mary", "player", "good luck"));
    assert_eq!(said(&e), ["A chat message from Mary. Say chat to hear it."]);
    assert!(e.iter().all(|x| match x {
        Effect::Say(u) => u.priority != Priority::Urgent,
        _ => true,
    }));
    // Within the quiet time, only counted; spectators never announced.
    assert!(said(&r.game(1_000, &chat("Mary", "player", "have fun"))).is_empty());
    assert!(said(&r.game(2_000, &chat("Bob", "spectator", "nice"))).is_empty());
    // Issue 30, item 5: the count in words, and brought up to date when
    // the quiet is over (three lines unheard, not the count of the first
    // notice).
    let e = r.msg(30_100, Msg::Deadline);
    assert_eq!(
        said(&e),
        ["Three chat messages not heard yet, the last from Mary. Say chat to hear them."]
    );
    let e = r.game(31_000, &chat("Mary", "player", "sorry\\u0007"));
    assert!(said(&e).is_empty(), "a new quiet: {:?}", said(&e));
    let e = r.msg(60_100, Msg::Deadline);
    assert_eq!(
        said(&e),
        ["Four chat messages not heard yet, the last from Mary. Say chat to hear them."]
    );
    let e = r.typed(32_000, "chat");
    assert_eq!(
        said(&e),
        [
            "Mary says: good luck",
            "Mary says: have fun",
            "A spectator, Bob, says: nice",
            "Mary says: sorry",
        ]
    );
    assert_eq!(
        said(&r.typed(33_000, "chat")),
        ["No chat messages you have not heard."]
    );
    // After reading, the next line is said at once.
    let e = r.game(34_000, &chat("Mary", "player", "gg"));
    assert_eq!(said(&e), ["A chat message from Mary. Say chat to hear it."]);
}

#[test]
fn help_lists_abort_chat_and_say_only_online() {
    let mut r = Rig::new();
    let help = said(&r.typed(10, "help"));
    for line in [
        "abort: abort the lichess game, before both sides have moved.",
        "chat: hear the lichess chat lines you have not heard yet.",
        "say TEXT: write TEXT in the lichess players' chat.",
    ] {
        assert!(help.iter().any(|l| l == line), "{line}: {help:#?}");
    }
    let mut app = App::builder().lang(Lang::En).build();
    let help = said(&app.update(Msg::Line("help".into()), Instant::now()));
    assert!(help.iter().all(|l| !l.contains("lichess")), "{help:#?}");
    let e = app.update(Msg::Line("chat".into()), Instant::now());
    assert_eq!(said(&e), ["This is for a game on lichess."]);
    let e = app.update(Msg::Line("say hi".into()), Instant::now());
    assert_eq!(said(&e), ["This is for a game on lichess."]);
}

#[test]
fn say_writes_in_the_players_chat() {
    let mut r = Rig::new();
    let e = r.typed(10, "say Good luck, Mary!");
    assert_eq!(
        sent(&e),
        [Request::Chat {
            game: "g1".into(),
            text: "Good luck, Mary!".into()
        }]
    );
    assert_eq!(said(&e), ["Written in the chat."]);
    let long = format!("say {}", "x".repeat(141));
    let e = r.typed(20, &long);
    assert!(sent(&e).is_empty());
    assert_eq!(
        said(&e),
        ["A chat line holds at most 140 characters; this one has 141. Nothing was sent."]
    );
    let e = r.typed(30, "say");
    assert!(sent(&e).is_empty());
    assert_eq!(
        said(&e),
        ["say TEXT: write TEXT in the lichess players' chat."]
    );
}

#[test]
fn lichess_english_stays_out_of_hectors_sentences() {
    let mut r = Rig::new();
    let refused = |request: Request, status: u16, error: &str| {
        LichessIo::Reply(
            request,
            Reply::Refused {
                status,
                error: error.into(),
            },
        )
    };
    let draw = Request::Draw {
        game: "g1".into(),
        yes: true,
    };
    let e = r.io(
        10,
        refused(draw.clone(), 400, "Not your turn, or game already over"),
    );
    assert_eq!(
        said(&e),
        ["lichess refused: it is not your turn there, or the game is over."]
    );
    let e = r.io(20, refused(draw, 400, "Something unheard of"));
    assert_eq!(
        said(&e),
        [
            "lichess refused the request.",
            "lichess says: Something unheard of"
        ]
    );
    let challenge = Request::Challenge {
        user: "Nobody".into(),
        limit_s: 600,
        increment_s: 0,
        color: None,
        rated: false,
    };
    let e = r.io(30, refused(challenge.clone(), 404, "Not found"));
    assert_eq!(said(&e), ["lichess has no player named Nobody."]);
    let e = r.io(
        40,
        refused(challenge, 400, "Nobody does not accept challenges."),
    );
    assert_eq!(said(&e), ["Nobody does not accept this challenge now."]);
}

#[test]
fn in_other_languages_no_english_of_lichess_inside_a_sentence() {
    let mut app = App::builder().lang(Lang::De).build();
    app.set_online(OnlineStart::Join);
    let e = app.update(
        Msg::Lichess(LichessIo::Reply(
            Request::Resign { game: "g1".into() },
            Reply::Refused {
                status: 400,
                error: "Not your turn, or game already over".into(),
            },
        )),
        Instant::now(),
    );
    let s = said(&e);
    assert_eq!(s.len(), 1);
    assert!(!s[0].contains("Not your turn"), "{s:?}");
    assert!(s[0].starts_with("lichess hat abgelehnt"), "{s:?}");
}

/// The part alone, with the stream of changes: a move of the player's that
/// the server has not brought is posted, once; a move the server brought
/// (the game has no more moves than lichess) is not posted back, whoever
/// made it; the opponent's moves never are.  (Before the stream, a flag
/// set around the server's move kept it from being posted.)
#[test]
fn the_part_posts_the_players_move_and_never_one_the_server_brought() {
    use crate::app::change::GameChange;
    let mut game = crate::game::Game::new();
    let moved = |game: &mut crate::game::Game, uci: &str| {
        let mv = UciMove::from_ascii(uci.as_bytes())
            .unwrap()
            .to_move(game.position())
            .unwrap();
        let before = game.position().clone();
        let by = game.play(mv).unwrap().by;
        GameChange::Moved {
            before: Box::new(before),
            mv,
            by,
            lapsed: None,
        }
    };
    // lichess has e2e4 (the player's, made on another device).
    let sync = GameSync::resumed(Side::White, "startpos", vec!["e2e4".into()]);
    let mut part = OnlinePlay::rejoining("g1".into(), Side::White, sync);
    let e4 = moved(&mut game, "e2e4");
    assert_eq!(
        part.on_change(&e4, Color::White, game.history().len(), Instant::now()),
        None,
        "brought by the server"
    );
    let e5 = moved(&mut game, "e7e5");
    assert_eq!(
        part.on_change(&e5, Color::White, game.history().len(), Instant::now()),
        None,
        "the opponent's"
    );
    let nf3 = moved(&mut game, "g1f3");
    assert_eq!(
        part.on_change(&nf3, Color::White, game.history().len(), Instant::now()),
        Some(Effect::Lichess(LichessOrder::Send(Request::Move {
            game: "g1".into(),
            uci: "g1f3".into(),
            offering_draw: false,
        }))),
        "the player's own, new to lichess"
    );
    assert_eq!(
        part.on_change(&GameChange::TakenBack(1), Color::White, 2, Instant::now()),
        None,
        "a take-back posts nothing"
    );
}

/// An answer of lichess's too long to read (over 4 MiB, left unread by the
/// client): said in one sentence, the game going on.
#[test]
fn an_answer_too_long_is_said_in_one_sentence() {
    let mut r = Rig::new();
    let draw = Request::Draw {
        game: "g1".into(),
        yes: true,
    };
    let e = r.io(10, LichessIo::Reply(draw, Reply::TooLong { status: 200 }));
    assert_eq!(
        said(&e),
        ["lichess sent an answer too long to read; hector left it unread."]
    );
    r.typed(20, "e4");
    assert_eq!(r.app.game().history().len(), 1);
}

/// A correspondence game (days per move, no clock): no clock follows
/// lichess's times, which are days in milliseconds.
#[test]
fn a_correspondence_game_has_no_clock() {
    let mut app = App::builder().lang(Lang::En).build();
    app.set_online(OnlineStart::Game {
        id: "corr0001".into(),
    });
    let t0 = Instant::now();
    let _ = app.update(Msg::Start, t0);
    let start = r#"{"type":"gameStart","game":{"gameId":"corr0001","color":"white","speed":"correspondence","hasMoved":true,"opponent":{"username":"Bob","rating":1600},"compat":{"board":true}}}"#;
    let e = app.update(
        Msg::Lichess(LichessIo::Account(Box::new(
            event::account_line(start).unwrap().unwrap(),
        ))),
        t0,
    );
    assert!(e.contains(&Effect::Lichess(LichessOrder::OpenGameStream(
        "corr0001".into()
    ))));
    let full = r#"{"type":"gameFull","id":"corr0001","speed":"correspondence","daysPerTurn":3,"clock":null,"white":{"id":"me","name":"Me"},"black":{"id":"bob","name":"Bob","rating":1600},"initialFen":"startpos","state":{"type":"gameState","moves":"e2e4 e7e5","wtime":259200000,"btime":259200000,"winc":0,"binc":0,"status":"started"}}"#;
    let e = app.update(
        Msg::Lichess(LichessIo::Game(
            "corr0001".into(),
            event::game_line(full).unwrap().unwrap(),
        )),
        t0,
    );
    assert_eq!(
        said(&e),
        [
            "The game against Bob, rated 1600, begins. You play White.",
            "Bauer Eva vier",
            "Bauer Eva fünf"
        ]
    );
    assert!(app.parts.clock.is_none(), "no clock part");
    let e = app.update(Msg::Line("time".into()), t0);
    assert_eq!(
        said(&e),
        ["This correspondence game has no clock: lichess gives three days a move."]
    );
    let online = app.parts.online.as_ref().unwrap();
    assert!(online.server_clock(2).is_none(), "no server clock");
}
