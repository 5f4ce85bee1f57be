use super::*;
use crate::app::App;
use crate::app::tests::said;
use crate::companion::Side;
use crate::companion::{MoveInput, Snapshot, Tactile};
use crate::msg::Msg;
use crate::view::UiState;
use crate::words::Lang;
use shakmaty::{Color, Square};

fn page(a: &mut App, action: OpponentAction) -> Vec<Effect> {
    a.update(
        Msg::Companion(CompanionEvent::Action(action)),
        Instant::now(),
    )
}

fn tap(from: Square, to: Square) -> OpponentAction {
    OpponentAction::Move(MoveInput::FromTo {
        from,
        to,
        promotion: None,
    })
}

fn line(a: &mut App, text: &str) -> Vec<String> {
    said(&a.update(Msg::Line(text.into()), Instant::now()))
}

#[test]
fn a_tap_is_the_opponents_move_announced_urgently() {
    let mut a = App::builder().build();
    line(&mut a, "e4");
    let e = page(&mut a, tap(Square::E7, Square::E5));
    assert!(
        matches!(&e[..], [Effect::Say(u), Effect::Tone(Tone::OpponentMove)] if u.priority == Priority::Urgent && u.text == "Bauer Eva fünf"),
        "{e:?}"
    );
    assert_eq!(a.game().history().len(), 2);
    // The page shows what was said, in SAN and in words, from Black's side.
    let s = a.companion_snapshot();
    let last = s.last_move.expect("a last move");
    assert_eq!(
        (last.san.as_str(), last.words.as_str()),
        ("e5", "Bauer Eva fünf")
    );
    assert_eq!(last.lang, "de");
    assert_eq!(s.opponent, Side::Black);
    assert!(s.legal.is_empty(), "White to move: nothing for the page");
}

#[test]
fn a_typed_san_from_the_page_is_read_like_a_typed_line() {
    let mut a = App::builder().build();
    line(&mut a, "d4");
    let e = page(&mut a, OpponentAction::Move(MoveInput::San("Nf6".into())));
    assert_eq!(said(&e), vec!["Springer Felix sechs"]);
}

#[test]
fn not_their_move_and_illegal_moves_change_nothing_and_are_shown_on_the_page() {
    let mut a = App::builder().build();
    let e = page(&mut a, tap(Square::E7, Square::E5));
    assert!(e.is_empty(), "the blind player hears nothing: {e:?}");
    let n1 = a.companion_snapshot().notice.expect("a notice");
    assert_eq!(n1.text, "It is not your move.");
    line(&mut a, "e4");
    let e = page(&mut a, tap(Square::E7, Square::E4));
    assert!(e.is_empty(), "{e:?}");
    let n2 = a.companion_snapshot().notice.expect("a notice");
    assert_eq!(n2.text, "That move is not legal here.");
    assert!(n2.id > n1.id);
    // Both by key too: the page says them in the opponent's language.
    assert_eq!(n1.key.as_deref(), Some("companion_not_their_move"));
    assert_eq!(n2.key.as_deref(), Some("companion_illegal"));
    let labels = crate::companion::PageLabels::builtin("en");
    for key in ["companion_not_their_move", "companion_illegal"] {
        for (lang, words) in &labels.langs {
            let shown = &words[&format!("notice_{key}")];
            let v = crate::words::vocab::builtin(
                crate::words::Lang::ALL
                    .into_iter()
                    .find(|l| l.code() == lang)
                    .expect("a language"),
            );
            assert_eq!(Some(shown), v.messages.get(key), "{lang} {key}");
        }
    }
    let e = page(&mut a, OpponentAction::Move(MoveInput::San("Ke2".into())));
    assert!(e.is_empty());
    assert_eq!(a.game().history().len(), 1);
    // A good move clears the notice.
    page(&mut a, tap(Square::E7, Square::E5));
    assert_eq!(a.companion_snapshot().notice, None);
}

#[test]
fn draw_offer_from_the_page_and_its_acceptance() {
    let mut a = App::builder().build();
    line(&mut a, "e4");
    page(&mut a, tap(Square::E7, Square::E5));
    let e = page(&mut a, OpponentAction::OfferDraw);
    assert_eq!(said(&e), vec!["Black offers a draw."]);
    assert_eq!(a.companion_snapshot().draw_offer, Some(Side::Black));
    // The blind player declines; then offers, and the page accepts.
    line(&mut a, "decline");
    line(&mut a, "Nf3");
    line(&mut a, "draw");
    assert_eq!(a.companion_snapshot().draw_offer, Some(Side::White));
    let e = page(&mut a, OpponentAction::AcceptDraw);
    assert_eq!(said(&e), vec!["Draw by agreement, half a point each."]);
    let end = a.companion_snapshot().end.expect("over");
    assert_eq!(end.result, "1/2-1/2");
    // Nothing more from the page once it is over.
    let e = page(&mut a, tap(Square::B8, Square::C6));
    assert!(e.is_empty());
}

#[test]
fn resigning_on_the_page_ends_the_game_for_the_opponent() {
    let mut a = App::builder().build();
    let e = page(&mut a, OpponentAction::Resign);
    assert_eq!(said(&e), vec!["Black resigns. White wins, one to zero."]);
    assert_eq!(
        a.companion_snapshot().end.map(|e| e.result),
        Some("1-0".into())
    );
}

#[test]
fn how_the_game_ended_is_on_the_page_in_every_language() {
    // A Greek or German opponent's page reads the end in its own
    // language, not only in the blind player's English.
    let mut a = App::builder().build();
    page(&mut a, OpponentAction::Resign);
    let end = a.companion_snapshot().end.expect("over");
    assert_eq!(end.how.len(), Lang::ALL.len());
    assert_eq!(end.how["en"], "White won, Black resigned");
    for code in ["de", "it", "el"] {
        assert!(!end.how[code].is_empty());
        assert_ne!(end.how[code], end.how["en"], "{code}");
    }
    assert!(end.how["el"].contains("Λευκά"), "{}", end.how["el"]);
}

#[test]
fn declining_with_no_offer_is_shown_on_the_page() {
    let mut a = App::builder().me(Color::Black).build();
    let e = page(&mut a, OpponentAction::DeclineDraw);
    assert!(e.is_empty());
    assert_eq!(
        a.companion_snapshot().notice.map(|n| n.text),
        Some("There is no draw offer.".into())
    );
}

#[test]
fn connected_and_disconnected_are_said() {
    let mut a = App::builder().build();
    let e = a.update(Msg::Companion(CompanionEvent::Connected), Instant::now());
    assert_eq!(said(&e), vec!["The opponent's screen is connected."]);
    let e = a.update(Msg::Companion(CompanionEvent::Disconnected), Instant::now());
    assert_eq!(said(&e), vec!["The opponent's screen is disconnected."]);
    let paired = CompanionEvent::Paired(crate::companion::Pairing {
        token_sha256: crate::companion::gate::token_sha256("0123456789abcdef0123456789abcdef"),
    });
    let e = a.update(Msg::Companion(paired), Instant::now());
    assert!(e.is_empty());
}

#[test]
fn wrong_codes_from_another_device_and_a_server_failure_are_said_in_the_players_language() {
    use crate::words::Lang;
    let cases = [
        (
            Lang::En,
            "Someone is guessing the pairing code; each wrong guess now makes them wait longer.",
            "The opponent's screen failed. It is starting again by itself.",
        ),
        (
            Lang::De,
            "Jemand versucht, den Kopplungscode zu erraten; nach jedem falschen Versuch muss er nun länger warten.",
            "Der Bildschirm des Gegners ist ausgefallen. Er startet von selbst neu.",
        ),
    ];
    for (lang, wrong, failed) in cases {
        let mut a = App::builder().lang(lang).build();
        let e = a.update(Msg::Companion(CompanionEvent::WrongCodes), Instant::now());
        assert_eq!(said(&e), vec![wrong]);
        let e = a.update(Msg::Companion(CompanionEvent::ServerFailed), Instant::now());
        assert_eq!(said(&e), vec![failed]);
        // Neither changes the game or the page's seat.
        assert_eq!(a.game().history().len(), 0);
    }
}

#[test]
fn the_address_and_code_are_said_and_release_needs_a_running_page() {
    let mut a = App::builder().build();
    assert_eq!(
        line(&mut a, "release"),
        vec!["No opponent's screen is running."]
    );
    let e = a.update(
        Msg::CompanionChosen(CompanionChoice::Ready {
            address: "http://192.0.2.1:8421/".into(),
            code: Some("4712".into()),
        }),
        Instant::now(),
    );
    assert_eq!(
        said(&e),
        vec![
            "The opponent's screen: open http://192.0.2.1:8421/ in a browser. Pairing code 4 7 1 2."
        ]
    );
    let e = a.update(Msg::Line("release".into()), Instant::now());
    assert_eq!(e, vec![Effect::CompanionRelease]);
    let e = a.update(
        Msg::CompanionReleased {
            code: Some("0815".into()),
        },
        Instant::now(),
    );
    assert_eq!(
        said(&e),
        vec!["The opponent's screen is free for another opponent. New pairing code 0 8 1 5."]
    );
}

#[test]
fn check_flashes_on_the_page_once_per_check() {
    let mut a = App::builder().build();
    for m in ["e4", "f6", "d4", "g5"] {
        line(&mut a, m);
    }
    assert_eq!(a.companion_snapshot().flash, None);
    line(&mut a, "Qh5");
    let f = a.companion_snapshot().flash.expect("a flash");
    assert_eq!(f.kind, FlashKind::Check);
    assert!(a.companion_snapshot().check);
    assert_eq!(
        a.companion_snapshot().flash,
        Some(f),
        "the same flash, not a new one"
    );
}

#[test]
fn the_tactile_board_awaits_the_opponents_move_from_the_page() {
    use crate::board::link::LinkEvent;
    use crate::board::sim::SimBoard;
    use crate::board::{BoardSession, Protocol, TrackerConfig};
    let mut a = App::builder().build();
    assert_eq!(a.companion_snapshot().tactile, Tactile::None);
    a.attach_board(BoardSession::new(
        Protocol::Dgt,
        TrackerConfig::default(),
        a.game().position(),
        false,
    ));
    let now = Instant::now();
    // Opened, nothing heard yet: waiting, not "disconnected".
    assert_eq!(a.companion_snapshot().tactile, Tactile::Waiting);
    let _ = a.update(Msg::Board(LinkEvent::Connected), now);
    assert_eq!(a.companion_snapshot().tactile, Tactile::Waiting);
    // Asked again and still quiet: quiet, still not "disconnected".
    let later = now + std::time::Duration::from_secs(10);
    let e = a.update(Msg::Deadline, later);
    assert!(
        e.iter().any(|e| matches!(e, Effect::ToBoard(_))),
        "asked again: {e:?}"
    );
    assert_eq!(a.companion_snapshot().tactile, Tactile::Quiet);
    let sim = SimBoard::new(Protocol::Dgt, shakmaty::Board::new());
    let _ = a.update(Msg::Board(LinkEvent::Bytes(sim.dump())), later);
    assert_eq!(a.companion_snapshot().tactile, Tactile::Agrees);
    // The cable pulled: disconnected (and back).
    let gone = LinkEvent::Disconnected(crate::board::PortError::Gone);
    let _ = a.update(Msg::Board(gone), later);
    assert_eq!(a.companion_snapshot().tactile, Tactile::Disconnected);
    let _ = a.update(Msg::Board(LinkEvent::Connected), later);
    let _ = a.update(Msg::Board(LinkEvent::Bytes(sim.dump())), later);
    assert_eq!(a.companion_snapshot().tactile, Tactile::Agrees);
    a.settings.me = Color::Black;
    page(&mut a, tap(Square::E2, Square::E4));
    let t = a.companion_snapshot().tactile;
    assert!(
        matches!(&t, Tactile::Awaiting { san } if san == "e4")
            || matches!(&t, Tactile::Differs { squares } if squares.len() == 2),
        "{t:?}"
    );
}

#[test]
fn the_page_shows_that_the_player_is_fixing_the_board_not_waiting() {
    use crate::board::link::LinkEvent;
    use crate::board::sim::{HandStep, SimBoard};
    use crate::board::{BoardSession, Protocol, TrackerConfig};
    let settle = std::time::Duration::from_millis(300);
    let mut a = App::builder().build();
    a.settings.me = Color::Black;
    a.attach_board(BoardSession::new(
        Protocol::Dgt,
        TrackerConfig {
            settle,
            detect_rotation: false,
            ..TrackerConfig::default()
        },
        a.game().position(),
        false,
    ));
    let now = Instant::now();
    let _ = a.update(Msg::Board(LinkEvent::Connected), now);
    let mut sim = SimBoard::new(Protocol::Dgt, shakmaty::Board::new());
    let _ = a.update(Msg::Board(LinkEvent::Bytes(sim.dump())), now);
    // The opponent plays e4 on the page: it waits to be made on the
    // player's board.
    page(&mut a, tap(Square::E2, Square::E4));
    let t1 = Instant::now();
    assert_eq!(
        a.companion_snapshot().tactile,
        Tactile::Awaiting { san: "e4".into() }
    );
    // The player moves another pawn: after the settle time hector says
    // the board differs; the page says the board is being put right.
    for action in [
        HandStep::Lift(Square::D2),
        HandStep::Place(Square::D4, Color::White.pawn()),
    ] {
        let _ = a.update(Msg::Board(LinkEvent::Bytes(sim.act(action))), t1);
    }
    let _ = a.update(Msg::Deadline, t1 + settle * 2);
    let t = a.companion_snapshot().tactile;
    match &t {
        Tactile::Fixing { squares, san } => {
            assert_eq!(san.as_deref(), Some("e4"), "{t:?}");
            assert!(squares.iter().any(|s| s == "d4"), "{t:?}");
        }
        other => panic!("not fixing: {other:?}"),
    }
    // Put right and the move made: the board agrees.
    for action in [
        HandStep::Lift(Square::D4),
        HandStep::Place(Square::D2, Color::White.pawn()),
        HandStep::Lift(Square::E2),
        HandStep::Place(Square::E4, Color::White.pawn()),
    ] {
        let _ = a.update(
            Msg::Board(LinkEvent::Bytes(sim.act(action))),
            t1 + settle * 3,
        );
    }
    let _ = a.update(Msg::Deadline, t1 + settle * 5);
    assert_eq!(a.companion_snapshot().tactile, Tactile::Agrees);
}

#[test]
fn the_page_shows_the_view_model_and_both_clocks() {
    use crate::clock::parse_spec;
    let setup = crate::app::ClockSetup::new(parse_spec("0:05+0").unwrap());
    let mut a = App::builder().clock(Some(setup)).build();
    let t0 = Instant::now();
    let _ = a.update(Msg::Start, t0);
    let c = a
        .companion_snapshot()
        .clocks
        .expect("clocks while a clock runs");
    assert_eq!((c.white_ms, c.black_ms), (5_000, 5_000));
    assert_eq!(c.running, Some(Side::White));
    let _ = a.update(
        Msg::Line("e4".into()),
        t0 + std::time::Duration::from_secs(2),
    );
    let s = a.companion_snapshot();
    let c = s.clocks.clone().expect("clocks");
    assert_eq!((c.white_ms, c.black_ms), (3_000, 5_000));
    assert_eq!(c.running, Some(Side::Black));
    // Everything else is the full-screen view's model, drawn for the page.
    let view = a.view_model(&UiState::default());
    let from_view = Snapshot::from_view(&view, a.game().position(), Color::Black, "de");
    assert_eq!(s.board, from_view.board);
    assert_eq!(s.last_move, from_view.last_move);
    assert_eq!(s.clocks, from_view.clocks);
    let last = s.last_move.expect("a last move");
    assert_eq!(last.words, view.moves[0].spoken);
    assert_eq!((last.san.as_str(), last.number), ("e4", 1));
    // No clock: none shown.
    assert_eq!(App::builder().build().companion_snapshot().clocks, None);
}

#[test]
fn the_seat_is_journalled_with_the_game_and_freed() {
    use crate::scoresheet::StartInfo;
    let mut a = App::builder().build();
    a.enable_journal(StartInfo::default());
    let seat = crate::companion::Pairing {
        token_sha256: crate::companion::gate::token_sha256("0123456789abcdef0123456789abcdef"),
    };
    let e = a.update(
        Msg::Companion(CompanionEvent::Paired(seat.clone())),
        Instant::now(),
    );
    assert!(e.is_empty(), "no journal before the first move: {e:?}");
    let journalled = |e: &[Effect]| -> Vec<Event> {
        e.iter()
            .filter_map(|e| match e {
                Effect::Journal(JournalOp::Append(ev @ Event::Companion { .. })) => {
                    Some(ev.clone())
                }
                _ => None,
            })
            .collect()
    };
    let e = a.update(Msg::Line("e4".into()), Instant::now());
    assert!(
        matches!(e[0], Effect::Journal(JournalOp::Begin(_))),
        "{e:?}"
    );
    assert_eq!(
        journalled(&e),
        vec![Event::Companion {
            token_sha256: Some(seat.token_sha256.clone()),
        }]
    );
    // Once per game.
    let e = a.update(Msg::Line("e5".into()), Instant::now());
    assert!(journalled(&e).is_empty());
    // Freed by the blind player: journalled as free, the new code not
    // written.
    let e = a.update(
        Msg::CompanionReleased {
            code: Some("0815".into()),
        },
        Instant::now(),
    );
    assert_eq!(
        journalled(&e),
        vec![Event::Companion { token_sha256: None }]
    );
}

/// The page part on its own: the seat is journalled once per game and
/// change (freed: without a token), `release` needs a running page, and
/// tones become numbered flashes.
#[test]
fn the_page_part_journals_its_seat_once_per_game_and_change() {
    use crate::companion::Pairing;
    let mut part = CompanionState::default();
    assert_eq!(part.journal(1), None, "no seat yet");
    assert_eq!(
        part.release(),
        CompanionNote::Answer {
            key: "companion_none",
            args: Vec::new()
        }
    );
    let ready = part.chosen(CompanionChoice::Ready {
        address: "http://127.0.0.1:1/".into(),
        code: Some("4712".into()),
    });
    assert_eq!(
        ready,
        CompanionNote::Say {
            key: "companion_ready_code",
            args: vec![
                ("address", "http://127.0.0.1:1/".into()),
                ("code", "4 7 1 2".into())
            ],
            urgent: false
        }
    );
    assert_eq!(part.release(), CompanionNote::Release);
    let digest = "ab".repeat(32);
    assert_eq!(
        part.handle(CompanionEvent::Paired(Pairing {
            token_sha256: digest.clone()
        })),
        None
    );
    let paired = Event::Companion {
        token_sha256: Some(digest),
    };
    assert_eq!(
        part.journal(1),
        Some(Effect::Journal(JournalOp::Append(paired.clone())))
    );
    assert_eq!(part.journal(1), None, "once per game");
    assert_eq!(
        part.journal(2),
        Some(Effect::Journal(JournalOp::Append(paired))),
        "again in the next game"
    );
    assert!(matches!(
        part.handle(CompanionEvent::Left),
        Some(CompanionNote::Say {
            key: "companion_left",
            ..
        })
    ));
    assert_eq!(
        part.journal(2),
        Some(Effect::Journal(JournalOp::Append(Event::Companion {
            token_sha256: None
        })))
    );
    assert!(matches!(
        part.handle(CompanionEvent::Disconnected),
        Some(CompanionNote::Say { urgent: true, .. })
    ));
    part.flash(&[
        Effect::Tone(Tone::Check),
        Effect::Quit,
        Effect::Tone(Tone::FlagFall),
    ]);
    assert_eq!(
        part.flash,
        Some(Flash {
            kind: FlashKind::Flag,
            id: 2
        })
    );
}

/// The page paired: an opponent holds its seat.
fn paired(a: &mut App, now: Instant) {
    let _ = a.update(
        Msg::CompanionChosen(CompanionChoice::Ready {
            address: "http://192.0.2.1:8421/".into(),
            code: None,
        }),
        now,
    );
    let seat = CompanionEvent::Paired(crate::companion::Pairing {
        token_sha256: crate::companion::gate::token_sha256("0123456789abcdef0123456789abcdef"),
    });
    let _ = a.update(Msg::Companion(seat), now);
}

/// Issue 30, item 1: with the opponent on the page, `takeback` took the
/// move back at once and kept its increment.  Now it is a request the
/// opponent answers on the page; refused, the move stands; accepted, it
/// is taken back and the clock shows what it showed before the move.
#[test]
fn a_takeback_is_a_request_the_opponent_answers_on_the_page() {
    use crate::app::ClockSetup;
    use std::time::Duration;
    let s = Duration::from_secs;
    let setup = ClockSetup::new(crate::clock::parse_spec("3+2").unwrap());
    let mut a = App::builder().clock(Some(setup)).build();
    let t0 = Instant::now();
    let _ = a.update(Msg::Start, t0);
    paired(&mut a, t0);
    let at = |a: &mut App, text: &str, t: Instant| said(&a.update(Msg::Line(text.into()), t));
    let act = |a: &mut App, action: OpponentAction, t: Instant| {
        said(&a.update(Msg::Companion(CompanionEvent::Action(action)), t))
    };
    at(&mut a, "e4", t0 + s(5));
    act(&mut a, tap(Square::E7, Square::E5), t0 + s(8));
    at(&mut a, "Nf3", t0 + s(10));
    assert_eq!(
        at(&mut a, "takeback", t0 + s(11)),
        [
            "Take-back of Springer Felix drei asked of your opponent. The move stands until they accept."
        ]
    );
    assert_eq!(a.game().history().len(), 3, "the move stands");
    assert_eq!(
        a.companion_snapshot().takeback_asked.as_deref(),
        Some("2. Nf3")
    );
    assert_eq!(
        at(&mut a, "takeback", t0 + s(12)),
        ["Still waiting for your opponent's answer to the take-back of Springer Felix drei."]
    );
    // Refused: the move stands, the request is gone.
    assert_eq!(
        act(&mut a, OpponentAction::RefuseTakeback, t0 + s(13)),
        ["Your opponent refuses the take-back. The move stands."]
    );
    assert_eq!(a.game().history().len(), 3);
    assert_eq!(a.companion_snapshot().takeback_asked, None);
    let e = a.update(
        Msg::Companion(CompanionEvent::Action(OpponentAction::AcceptTakeback)),
        t0 + s(14),
    );
    assert!(said(&e).is_empty(), "no request: nothing for the player");
    assert_eq!(
        a.companion_snapshot().notice.map(|n| n.text),
        Some("No take-back is asked now.".into())
    );
    // Asked again and accepted: taken back, the clock as before Nf3
    // (White 180 - 5 + 2 - 2 = 175; Black 180 - 3 + 2 = 179).
    at(&mut a, "takeback", t0 + s(15));
    assert_eq!(
        act(&mut a, OpponentAction::AcceptTakeback, t0 + s(20)),
        [
            "Your opponent accepts the take-back.",
            "Taken back: Springer Felix drei."
        ]
    );
    assert_eq!(a.game().history().len(), 2);
    let c = a.clock().unwrap();
    assert_eq!(c.side_to_move(), Some(Color::White));
    assert_eq!(c.remaining(Color::White, t0 + s(20)), s(175));
    assert_eq!(c.remaining(Color::Black, t0 + s(20)), s(179));
    // A request lapses with the next move.
    at(&mut a, "Nc3", t0 + s(21));
    at(&mut a, "takeback", t0 + s(22));
    act(&mut a, tap(Square::B8, Square::C6), t0 + s(23));
    assert_eq!(a.companion_snapshot().takeback_asked, None);
    act(&mut a, OpponentAction::AcceptTakeback, t0 + s(24));
    assert_eq!(
        a.game().history().len(),
        4,
        "a lapsed request takes nothing back"
    );
}

/// Issue 30: "the scoresheet records everything that happened": a
/// take-back asked and refused, or lapsed by the next move, was nowhere on
/// it.  Now both are journalled and are notes of the exports.
#[test]
fn a_takeback_refused_or_lapsed_is_on_the_scoresheet() {
    use crate::export::render;
    use crate::scoresheet::ExportFormat;
    use crate::scoresheet::replay::Note;
    let mut a = App::builder()
        .journal(crate::scoresheet::record::StartInfo::default())
        .build();
    let t0 = Instant::now();
    let _ = a.update(Msg::Start, t0);
    paired(&mut a, t0);
    let at = |a: &mut App, text: &str| said(&a.update(Msg::Line(text.into()), t0));
    let act = |a: &mut App, action: OpponentAction| {
        said(&a.update(Msg::Companion(CompanionEvent::Action(action)), t0))
    };
    at(&mut a, "e4");
    act(&mut a, tap(Square::E7, Square::E5));
    at(&mut a, "Nf3");
    at(&mut a, "takeback");
    act(&mut a, OpponentAction::RefuseTakeback);
    at(&mut a, "takeback");
    // The opponent plays on instead: the request ends, said.
    let t = act(&mut a, tap(Square::B8, Square::C6));
    assert_eq!(
        t.last().map(String::as_str),
        Some(
            "The take-back of Springer Felix drei was not made: the game went on with the next move."
        ),
        "{t:?}"
    );
    let rec = a.parts.journal.in_memory().expect("a scoresheet");
    let notes: Vec<(bool, &str)> = rec
        .notes
        .iter()
        .flatten()
        .filter_map(|n| match n {
            Note::TakebackNotMade {
                by: Color::White,
                lapsed,
                san,
                ..
            } => Some((*lapsed, san.as_str())),
            _ => None,
        })
        .collect();
    assert_eq!(notes, [(false, "Nf3"), (true, "Nf3")]);
    let text = String::from_utf8(render(ExportFormat::Text, &rec, a.phraser())).unwrap();
    assert!(
        text.contains("White asked to take back 2. Springer Felix drei; the opponent refused."),
        "{text}"
    );
    assert!(
        text.contains(
            "White asked to take back 2. Springer Felix drei; the game went on without it."
        ),
        "{text}"
    );
    let pgn = String::from_utf8(render(ExportFormat::Pgn, &rec, a.phraser())).unwrap();
    let flat = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("{Take-back of 2. Nf3 asked by White, refused}"),
        "{pgn}"
    );
}

/// Issue 30, item 3: the page knew offer, accept and decline only, so the
/// sighted opponent's threefold or 50-move claim had to be typed on the
/// blind player's keyboard.  Now the page claims: on the opponent's move
/// only, said to the blind player, decided by the rules with the
/// edition's penalty for an incorrect claim, and on the scoresheet.
#[test]
fn the_opponent_claims_a_draw_from_the_page() {
    use crate::app::ClockSetup;
    use crate::scoresheet::replay::Note;
    use std::time::Duration;
    let setup = ClockSetup::new(crate::clock::parse_spec("5+0").unwrap());
    let mut a = App::builder()
        .clock(Some(setup))
        .journal(crate::scoresheet::record::StartInfo::default())
        .build();
    let t0 = Instant::now();
    let _ = a.update(Msg::Start, t0);
    let claim = |a: &mut App, san: Option<&str>| {
        let intended = san.map(|s| MoveInput::San(s.into()));
        said(&a.update(
            Msg::Companion(CompanionEvent::Action(OpponentAction::ClaimDraw(intended))),
            t0 + Duration::from_secs(2),
        ))
    };
    // Not their move: shown on the page, nothing for the player.
    assert!(claim(&mut a, None).is_empty());
    assert_eq!(
        a.companion_snapshot().notice.map(|n| n.text),
        Some("You can claim a draw only when it is your move.".into())
    );
    // An incorrect claim: refused, said, shown, and penalised by the
    // edition (9.5.3).
    line(&mut a, "e4");
    let t = claim(&mut a, None);
    assert_eq!(t[0], "Black claims a draw on the position now.");
    let refused =
        "Claim refused: the position has appeared only once. The claim stands as a draw offer.";
    assert_eq!(t[1], refused);
    assert!(t.len() >= 3, "the penalty is said: {t:?}");
    assert_eq!(
        a.companion_snapshot().notice.map(|n| n.text),
        Some(refused.into())
    );
    assert!(!a.game().is_over());
    // (The claim stood as Black's offer; White's move declines it.)
    // A correct claim on the intended move (9.2.1.1).
    for m in ["e5", "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"] {
        if a.game().turn() == Color::White {
            line(&mut a, m);
        } else {
            page(&mut a, OpponentAction::Move(MoveInput::San(m.into())));
        }
    }
    let t = claim(&mut a, Some("Ng8"));
    assert_eq!(
        t[0],
        "Black claims a draw on the move Springer Gustav acht."
    );
    assert!(a.game().is_over(), "{t:?}");
    let rec = a.parts.journal.in_memory().expect("a scoresheet");
    let claims: Vec<(Color, bool)> = rec
        .notes
        .iter()
        .flatten()
        .filter_map(|n| match n {
            Note::Claim { by, upheld, .. } => Some((*by, *upheld)),
            _ => None,
        })
        .collect();
    assert_eq!(claims, [(Color::Black, false), (Color::Black, true)]);
    assert!(
        rec.notes
            .iter()
            .flatten()
            .any(|n| matches!(n, Note::Penalty(p) if p.against == Color::Black))
    );
}
