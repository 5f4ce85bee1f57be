use std::time::Instant;

use super::*;
use crate::app::App;
use crate::app::tests::said;
use crate::lichess::event;
use crate::msg::Msg;
use crate::words::Lang;

fn account(app: &mut App, line: &str) -> Vec<Effect> {
    let e = event::account_line(line).unwrap().unwrap();
    app.update(
        Msg::Lichess(LichessIo::Account(Box::new(e))),
        Instant::now(),
    )
}

const CHALLENGE: &str = r#"{"type":"challenge","challenge":{"id":"c1","url":"x","status":"created","challenger":{"id":"ann","name":"Ann","rating":1500},"destUser":{"id":"me","name":"Me"},"variant":{"key":"standard"},"rated":true,"speed":"rapid","timeControl":{"type":"clock","limit":600,"increment":5},"color":"random","perf":{"icon":"","name":"Rapid"}}}"#;

#[test]
fn before_the_game_the_prompt_says_waiting_or_asks_for_the_answer() {
    // branch walk: it said "White to move, move 1." while the
    // challenge was waiting for its answer.
    let mut app = App::builder().lang(Lang::En).build();
    app.set_online(OnlineStart::Join);
    assert_eq!(app.prompt(), "Waiting for the game on lichess.");
    account(&mut app, CHALLENGE);
    assert_eq!(
        app.prompt(),
        "A challenge waits for your answer: say accept or decline."
    );
}

#[test]
fn accept_or_decline_with_no_challenge_says_there_is_none() {
    let mut app = App::builder().lang(Lang::En).build();
    app.set_online(OnlineStart::Join);
    for word in ["accept", "decline"] {
        let e = app.update(Msg::Line(word.into()), Instant::now());
        assert_eq!(said(&e), ["There is no challenge to answer."], "{word}");
    }
    let e = app.update(Msg::Line("draw".into()), Instant::now());
    assert_eq!(said(&e), ["The game has not begun yet."]);
}

#[test]
fn a_challenge_is_said_in_words_and_answered() {
    let mut app = App::builder().lang(Lang::En).build();
    app.set_online(OnlineStart::Join);
    let e = account(&mut app, CHALLENGE);
    assert_eq!(
        said(&e),
        [
            "Ann, rated 1500, challenges you to a rated game, 10 minutes plus 5 seconds. Say accept or decline."
        ]
    );
    let e = app.update(Msg::Line("accept".into()), Instant::now());
    assert!(
        e.contains(&Effect::Lichess(LichessOrder::Send(Request::Accept {
            id: "c1".into()
        })))
    );
    // Said as sent: lichess may yet say the challenge is gone (branch
    // walk: "Challenge accepted." was then contradicted).
    assert_eq!(said(&e), ["Accepting the challenge."]);
    // A second challenge, declined.
    let e = account(&mut app, &CHALLENGE.replace("\"c1\"", "\"c2\""));
    assert_eq!(said(&e).len(), 1);
    let e = app.update(Msg::Line("decline".into()), Instant::now());
    assert!(
        e.contains(&Effect::Lichess(LichessOrder::Send(Request::Decline {
            id: "c2".into()
        })))
    );
}

#[test]
fn a_challenge_gone_before_the_answer_is_said_to_be_gone_not_a_game() {
    // branch walk: a 404 to accept or decline meant "lichess does not
    // know this game any more".
    for request in [
        Request::Accept { id: "c1".into() },
        Request::Decline { id: "c1".into() },
    ] {
        let mut app = App::builder().lang(Lang::En).build();
        app.set_online(OnlineStart::Join);
        let e = app.update(
            Msg::Lichess(LichessIo::Reply(
                request,
                Reply::Refused {
                    status: 404,
                    error: "Not found".into(),
                },
            )),
            Instant::now(),
        );
        assert_eq!(said(&e), ["That challenge is no longer on lichess."]);
    }
}

#[test]
fn a_declined_challenge_says_why_in_hectors_words() {
    for (lang, key, want) in [
        (
            Lang::En,
            "tooFast",
            "Ann declined the challenge: this time is too fast for them.",
        ),
        (Lang::En, "generic", "Ann declined the challenge."),
        (Lang::En, "somethingNew", "Ann declined the challenge."),
        (
            Lang::De,
            "later",
            "Ann hat die Herausforderung abgelehnt: jetzt nicht, vielleicht später.",
        ),
    ] {
        let mut app = App::builder().lang(lang).build();
        app.set_online(OnlineStart::Join);
        let declined = CHALLENGE
            .replacen("\"challenge\",", "\"challengeDeclined\",", 1)
            .replace(
                r#""destUser":{"id":"me","name":"Me"}"#,
                &format!(
                    r#""destUser":{{"id":"ann","name":"Ann"}},"declineReason":"I'm not accepting challenges at the moment.","declineReasonKey":"{key}""#
                ),
            );
        let s = said(&account(&mut app, &declined));
        assert_eq!(s, [want], "{key}");
    }
}

#[test]
fn a_seek_is_held_open_and_its_loss_before_a_game_is_said() {
    let seek = Request::Seek {
        limit_s: 900,
        increment_s: 10,
        color: None,
        rated: true,
    };
    let mut app = App::builder().lang(Lang::En).build();
    app.set_online(OnlineStart::Seek {
        limit_s: 900,
        increment_s: 10,
        color: None,
        rated: true,
    });
    let e = app.update(Msg::Start, Instant::now());
    assert!(e.contains(&Effect::Lichess(LichessOrder::Seek(seek.clone()))));
    assert_eq!(
        said(&e),
        ["Seeking a rated game, 15 minutes plus 10 seconds. Waiting for an opponent."]
    );
    // lichess ends the seek when a game starts: nothing to say.
    let done = Msg::Lichess(LichessIo::Reply(seek.clone(), Reply::Done(String::new())));
    assert!(said(&app.update(done, Instant::now())).is_empty());
    let lost = Msg::Lichess(LichessIo::Reply(
        seek,
        Reply::Failed(crate::lichess::api::NoAnswer::System(
            crate::toml_error::IoWhy::ConnectionReset,
        )),
    ));
    assert_eq!(
        said(&app.update(lost, Instant::now())),
        ["The seek ended without a game. Start hector again to seek once more."]
    );
    // Challenges to the player are not asked about while seeking.
    assert!(said(&account(&mut app, CHALLENGE)).is_empty());
}

#[test]
fn a_withdrawn_challenge_is_said_and_others_are_not_asked() {
    let mut app = App::builder().lang(Lang::En).build();
    app.set_online(OnlineStart::Join);
    account(&mut app, CHALLENGE);
    let canceled = CHALLENGE.replacen("\"challenge\",", "\"challengeCanceled\",", 1);
    assert_eq!(
        said(&account(&mut app, &canceled)),
        ["Ann withdrew the challenge."]
    );
    // Our own challenge, and one without a clock, are not asked about.
    let ours = CHALLENGE.replace("\"perf\"", "\"direction\":\"out\",\"perf\"");
    assert!(said(&account(&mut app, &ours)).is_empty());
    let unlimited = CHALLENGE.replace(
        r#"{"type":"clock","limit":600,"increment":5}"#,
        r#"{"type":"unlimited"}"#,
    );
    assert!(said(&account(&mut app, &unlimited)).is_empty());
}
