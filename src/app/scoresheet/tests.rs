use std::time::Instant;

use super::*;
use crate::app::App;
use crate::app::board::Seat;
use crate::app::tests::said;
use crate::msg::Msg;
use crate::scoresheet::record::ReadWarning;
use crate::scoresheet::record::Record;
use crate::scoresheet::replay;
use crate::scoresheet::{ExportFormat, ResumeChoice, ResumeOffer};

fn app() -> App {
    let mut a = App::builder().build();
    a.enable_journal(StartInfo {
        white: "Anna".into(),
        black: "Bob".into(),
        ..StartInfo::default()
    });
    a
}

/// Plays lines; returns every effect.
fn run(a: &mut App, lines: &[&str]) -> Vec<Effect> {
    let mut all = Vec::new();
    for l in lines {
        all.extend(a.update(Msg::Line((*l).into()), Instant::now()));
    }
    all
}

/// The journal the effects describe, as records.
fn journal(effects: &[Effect]) -> Vec<Record> {
    let mut recs = Vec::new();
    for e in effects {
        let events = match e {
            Effect::Journal(JournalOp::Begin(s)) => vec![Event::Start(s.clone())],
            Effect::Journal(JournalOp::Append(e)) => vec![e.clone()],
            Effect::Journal(JournalOp::AppendAll(v)) => v.clone(),
            _ => continue,
        };
        for event in events {
            recs.push(Record {
                seq: recs.len() as u64 + 1,
                at: time::OffsetDateTime::UNIX_EPOCH,
                event,
            });
        }
    }
    recs
}

fn sans(g: &Game) -> Vec<String> {
    g.history().iter().map(|m| m.san.to_string()).collect()
}

#[test]
fn the_journal_is_written_before_anything_is_said() {
    let mut a = app();
    let e = a.update(Msg::Line("e4".into()), Instant::now());
    assert!(
        matches!(e[0], Effect::Journal(JournalOp::Begin(_))),
        "{e:?}"
    );
    assert!(matches!(
        &e[1],
        Effect::Journal(JournalOp::Append(Event::Move { san, .. })) if san == "e4"
    ));
    assert!(matches!(e[2], Effect::Say(_)));
    // Begun once; a question changes nothing and writes nothing.
    let e = a.update(Msg::Line("e5".into()), Instant::now());
    assert!(matches!(e[0], Effect::Journal(JournalOp::Append(_))));
    let e = a.update(Msg::Line("material".into()), Instant::now());
    assert!(!e.iter().any(|e| matches!(e, Effect::Journal(_))));
}

#[test]
fn no_journal_without_a_move_and_none_when_not_enabled() {
    let mut a = app();
    let e = a.update(Msg::Start, Instant::now());
    assert!(!e.iter().any(|e| matches!(e, Effect::Journal(_))));
    let mut plain = App::builder().build();
    let e = run(&mut plain, &["e4"]);
    assert!(!e.iter().any(|e| matches!(e, Effect::Journal(_))));
}

/// The journal of a game with offers, a decline, a refused claim on a
/// move, a take-back through `new`-less play and a resignation replays
/// to the very same game.
#[test]
fn the_journal_replays_to_the_same_game() {
    let mut a = app();
    let lines = [
        "e4",
        "e5",
        "draw",
        "decline",
        "Nf3",
        "Nf6",
        "draw",
        "Ng1",
        "Ng8",
        "claim Nf3",
        "Nf6",
        "Ng1",
        "Ng8",
        "claim",
        "Nf3",
        "draw",
        "Nc6",
        "resign",
    ];
    let effects = run(&mut a, &lines);
    let recs = journal(&effects);
    let r = replay(&recs).unwrap();
    assert_eq!(r.warnings, vec![]);
    assert_eq!(sans(&r.game), sans(a.game()));
    let offers = |g: &Game| g.history().iter().map(|m| m.draw_offer).collect::<Vec<_>>();
    assert_eq!(offers(&r.game), offers(a.game()));
    assert_eq!(r.game.result(), a.game().result());
    assert!(a.game().result().is_some());
    assert!(
        recs.iter().any(|r| matches!(
            r.event,
            Event::Claim {
                intended: Some(_),
                upheld: false,
                ..
            }
        )),
        "{recs:?}"
    );
}

#[test]
fn an_upheld_claim_on_a_move_is_one_record() {
    let mut a = app();
    let effects = run(
        &mut a,
        &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "claim Ng8"],
    );
    let recs = journal(&effects);
    let r = replay(&recs).unwrap();
    assert_eq!(r.warnings, vec![]);
    assert_eq!(r.game.result(), a.game().result());
    assert!(matches!(recs.last().unwrap().event, Event::Result { .. }));
}

/// The date on the scoresheet is the one start-up gives: the app
/// reads no calendar, so a test's journal is the same on any day.
#[test]
fn the_scoresheet_date_is_the_one_given() {
    for date in ["2026.11.26", ""] {
        let mut a = App::builder().build();
        a.enable_journal(StartInfo {
            date: date.into(),
            ..StartInfo::default()
        });
        let e = run(&mut a, &["e4"]);
        let Some(Effect::Journal(JournalOp::Begin(start))) = e.first() else {
            panic!("no journal begun: {e:?}")
        };
        assert_eq!(start.date, date);
    }
}

#[test]
fn a_new_game_begins_a_new_journal() {
    let mut a = app();
    run(&mut a, &["e4", "new"]);
    let e = run(&mut a, &["d4"]);
    assert!(
        matches!(e[0], Effect::Journal(JournalOp::Begin(_))),
        "{e:?}"
    );
}

fn offer(choice: ResumeChoice) -> ResumeOffer {
    let mut a = app();
    let recs = journal(&run(&mut a, &["e4", "e5", "Nf3"]));
    ResumeOffer {
        id: GameId::parse("20261122-190000").unwrap(),
        started: None,
        resumed: replay(&recs).unwrap(),
        read_warnings: vec![ReadWarning::Torn { line: 9 }],
        damage: Some(crate::scoresheet::replay::Damage {
            from_line: 9,
            to_line: 9,
            kept_in: Ok("/g/20261122-190000.txt.damaged".into()),
            continued: None,
        }),
        choice,
        asking_keep: false,
    }
}

#[test]
fn the_resume_question_names_only_players_who_have_names() {
    let mut o = offer(ResumeChoice::Ask);
    o.damage = None;
    o.started = Some(time::macros::datetime!(2026-11-22 19:00 UTC));
    o.resumed.start.white = String::new();
    o.resumed.start.black = String::new();
    let e = app().update(Msg::Resume(Box::new(o.clone())), Instant::now());
    // Issue 30, item 15: the time it began (the journal's) and the last
    // move tell saved games apart.
    assert_eq!(
        said(&e)[0],
        "An unfinished game of November twenty-second, two thousand twenty-six, begun at \
             19:00 UTC, can be resumed, two moves played. The last move was Springer Felix \
             drei. Resume it? Yes or no."
    );
    o.resumed.start.white = "Anna".into();
    let e = app().update(Msg::Resume(Box::new(o.clone())), Instant::now());
    assert_eq!(
        said(&e)[0],
        "An unfinished game of November twenty-second, two thousand twenty-six, begun at \
             19:00 UTC, can be resumed: Anna against Black, two moves played. The last move \
             was Springer Felix drei. Resume it? Yes or no."
    );
    // A lichess game is said to be one, resumed there.
    use crate::scoresheet::record::online_key;
    let extra = &mut o.resumed.start.extra;
    extra.push((online_key::GAME.into(), "AbCd1234".into()));
    extra.push((online_key::SIDE.into(), "white".into()));
    o.resumed.start.black = "bob".into();
    assert!(o.resumed.start.online().is_some(), "a lichess game");
    let e = app().update(Msg::Resume(Box::new(o)), Instant::now());
    assert_eq!(
        said(&e)[0],
        "An unfinished game on lichess, of November twenty-second, two thousand twenty-six, \
             begun at 19:00 UTC, can be resumed there: Anna against bob, two moves played. \
             The last move was Springer Felix drei. Resume it? Yes or no."
    );
}

#[test]
fn resuming_asks_and_yes_restores_the_game() {
    let mut a = app();
    let e = a.update(
        Msg::Resume(Box::new(offer(ResumeChoice::Ask))),
        Instant::now(),
    );
    assert_eq!(
        said(&e)[0],
        "The journal of the saved game is damaged: its last record, line 9, was cut off as \
             it was written. It is restored up to 2. Springer Felix drei; line 9 could not be \
             used, and the whole file is kept in /g/20261122-190000.txt.damaged.",
        "said before the question"
    );
    assert!(said(&e)[1].contains("Resume it? Yes or no."), "{e:?}");
    let e = a.update(Msg::Start, Instant::now());
    assert!(said(&e).is_empty(), "the question stands");
    let e = a.update(Msg::Line("e4".into()), Instant::now());
    assert_eq!(
        said(&e),
        vec!["Please answer yes or no: resume the unfinished game?"]
    );
    let e = a.update(Msg::Line("yes".into()), Instant::now());
    assert_eq!(a.game().history().len(), 3);
    assert!(matches!(&e[0], Effect::Journal(JournalOp::Continue(_))));
    assert!(matches!(
        &e[1],
        Effect::Journal(JournalOp::Append(Event::Resumed))
    ));
    let s = said(&e);
    assert_eq!(s[0], "Game resumed. Black to move, move 2.");
    assert_eq!(s[1], "The last move was Springer Felix drei.");
    // The next move goes on in the same journal.
    let e = a.update(Msg::Line("Nc6".into()), Instant::now());
    assert!(matches!(
        &e[0],
        Effect::Journal(JournalOp::Append(Event::Move { san, .. })) if san == "Nc6"
    ));
}

/// Issue 18: while the resume question waits, the prompt asks it (it
/// said "White to move, move 1." of the new game behind it), and quit
/// (any of its words in the key map) leaves without answering: the
/// game is neither resumed nor set aside.
#[test]
fn the_resume_question_is_the_prompt_and_quit_leaves_from_it() {
    for word in ["quit", "q", "exit", "ende"] {
        let mut a = app();
        let _ = a.update(
            Msg::Resume(Box::new(offer(ResumeChoice::Ask))),
            Instant::now(),
        );
        assert_eq!(a.prompt(), "Resume the unfinished game? Yes or no");
        let e = a.update(Msg::Line(word.into()), Instant::now());
        assert_eq!(said(&e), vec!["Goodbye."], "{word}");
        assert!(e.iter().any(|e| matches!(e, Effect::Quit)), "{word}");
        assert!(
            !e.iter().any(|e| matches!(e, Effect::Journal(_))),
            "{word}: {e:?}"
        );
    }
}

/// A key answers the resume question as a line does.  Before the one
/// mode, a key could ask "resign?" behind the resume question, and
/// the line after "yes" then resigned the resumed game.
#[test]
fn keys_answer_the_resume_question_and_ask_nothing_behind_it() {
    use crate::action::{KeyArg, PlayerAction};
    let mut a = App::builder().ask_before_leaving(true).build();
    a.enable_journal(StartInfo::default());
    let _ = a.update(
        Msg::Resume(Box::new(offer(ResumeChoice::Ask))),
        Instant::now(),
    );
    let e = a.update(Msg::Key(PlayerAction::Resign, KeyArg::None), Instant::now());
    assert_eq!(
        said(&e),
        vec!["Please answer yes or no: resume the unfinished game?"]
    );
    let e = a.update(Msg::Key(PlayerAction::Accept, KeyArg::None), Instant::now());
    assert!(
        said(&e).iter().any(|s| s.starts_with("Game resumed.")),
        "{e:?}"
    );
    let e = a.update(Msg::Line("yes".into()), Instant::now());
    assert!(a.game().result().is_none(), "nothing was resigned: {e:?}");
    assert_eq!(a.game().history().len(), 3);
}

#[test]
fn no_sets_the_game_aside_and_starts_a_new_one() {
    let mut a = app();
    let _ = a.update(
        Msg::Resume(Box::new(offer(ResumeChoice::Ask))),
        Instant::now(),
    );
    let e = a.update(Msg::Line("nein".into()), Instant::now());
    assert!(matches!(
        &e[0],
        Effect::Journal(JournalOp::AppendTo(_, Event::SetAside))
    ));
    assert!(a.game().history().is_empty());
    assert_eq!(
        said(&e),
        vec!["The unfinished game is kept.", "New game. White to move."]
    );
    let e = a.update(
        Msg::Resume(Box::new(offer(ResumeChoice::Now))),
        Instant::now(),
    );
    assert!(said(&e).iter().any(|s| s.starts_with("Game resumed.")));
}

#[test]
fn a_failing_journal_is_said_once_and_its_recovery() {
    let mut a = app();
    let err = crate::scoresheet::journal::JournalError {
        kind: JournalErrorKind::DiskFull,
        path: "/x".into(),
        detail: "No space left on device".into(),
        first: true,
    };
    let e = a.update(
        Msg::Journal(JournalStatus::Failed(err.clone())),
        Instant::now(),
    );
    assert_eq!(
        said(&e),
        vec![
            "The scoresheet cannot be saved: the disk is full. The game goes on, and hector keeps trying."
        ]
    );
    let again = crate::scoresheet::journal::JournalError {
        first: false,
        ..err
    };
    let e = a.update(Msg::Journal(JournalStatus::Failed(again)), Instant::now());
    assert!(said(&e).is_empty());
    let e = a.update(
        Msg::Journal(JournalStatus::Recovered { waited: 3 }),
        Instant::now(),
    );
    assert_eq!(said(&e), vec!["The scoresheet is saved again."]);
}

/// Issue 31: a game another hector opened at the same moment is not
/// written here, and the player hears it in their words.
#[test]
fn a_game_open_in_another_window_is_said_in_the_players_words() {
    let mut a = app();
    let err = crate::scoresheet::journal::JournalError {
        kind: JournalErrorKind::OpenElsewhere,
        path: "/g/x.txt".into(),
        detail: "the game is open in another hector window".into(),
        first: true,
    };
    let e = a.update(Msg::Journal(JournalStatus::Failed(err)), Instant::now());
    assert_eq!(
        said(&e),
        vec![
            "This game is open in another hector window, so nothing is written to its scoresheet here. Say quit and go on in the other window."
        ]
    );
}

/// While the journal cannot be written the prompt says so; `quit` and
/// `new` say the game is not saved and offer `save FILE` (asked even
/// of a script), a second `quit` leaves; the end of the input says it
/// too; the next good write clears it.
#[test]
fn unsaved_moves_are_never_silent() {
    let failed = || {
        Msg::Journal(JournalStatus::Failed(
            crate::scoresheet::journal::JournalError {
                kind: JournalErrorKind::NotWritable,
                path: "/g/x.txt".into(),
                detail: "Permission denied".into(),
                first: true,
            },
        ))
    };
    let mut a = app();
    run(&mut a, &["e4"]);
    assert_eq!(a.prompt(), "Black to move, move 1.");
    let _ = a.update(failed(), Instant::now());
    assert_eq!(a.prompt(), "Black to move, move 1. Not saved.");
    let e = run(&mut a, &["quit"]);
    assert_eq!(
        said(&e),
        vec![
            "The game is not saved: its journal cannot be written. Say save and a file \
                 name, such as save game.pgn, to save it elsewhere, or say quit again to \
                 leave without saving."
        ]
    );
    assert!(!e.contains(&Effect::Quit));
    assert_eq!(
        run(&mut a, &["save /tmp/game.pgn"]),
        vec![Effect::ExportTo(ExportFormat::Pgn, "/tmp/game.pgn".into())]
    );
    assert_eq!(
        run(&mut a, &["save game.brf"]),
        vec![Effect::ExportTo(ExportFormat::Brf, "game.brf".into())]
    );
    run(&mut a, &["quit"]);
    assert!(run(&mut a, &["quit"]).contains(&Effect::Quit));
    // `new` the same way.
    let mut a = app();
    run(&mut a, &["e4"]);
    let _ = a.update(failed(), Instant::now());
    let e = run(&mut a, &["new"]);
    assert!(said(&e)[0].contains("or say new again"), "{e:?}");
    assert_eq!(a.game().history().len(), 1, "nothing lost yet");
    let e = run(&mut a, &["new"]);
    assert_eq!(said(&e), vec!["New game. White to move."]);
    // The end of the input.
    let mut a = app();
    run(&mut a, &["e4"]);
    let _ = a.update(failed(), Instant::now());
    let e = a.update(Msg::EndOfInput, Instant::now());
    assert_eq!(
        said(&e)[0],
        "The game is not saved: its journal could not be written."
    );
    assert!(e.contains(&Effect::Quit));
    // Written again: said, and the prompt is plain again.
    let mut a = app();
    run(&mut a, &["e4"]);
    let _ = a.update(failed(), Instant::now());
    let e = a.update(
        Msg::Journal(JournalStatus::Recovered { waited: 2 }),
        Instant::now(),
    );
    assert_eq!(said(&e), vec!["The scoresheet is saved again."]);
    assert_eq!(a.prompt(), "Black to move, move 1.");
    assert!(run(&mut a, &["quit"]).contains(&Effect::Quit));
}

/// Issue 30, item 11: after `save FILE` succeeded, `quit` still said the
/// game was not saved and asked again, and the prompt said "Not saved.".
/// The journal still cannot be written, but the file holds the game as
/// it stands: the prompt and `quit` say where it is, until the next move.
#[test]
fn a_game_saved_to_a_file_while_the_journal_fails_is_said_to_be_there() {
    let failed = Msg::Journal(JournalStatus::Failed(
        crate::scoresheet::journal::JournalError {
            kind: JournalErrorKind::NotWritable,
            path: "/g/x.txt".into(),
            detail: "Permission denied".into(),
            first: true,
        },
    ));
    let mut a = app();
    run(&mut a, &["e4"]);
    let _ = a.update(failed, Instant::now());
    run(&mut a, &["save /tmp/game.pgn"]);
    let e = a.update(Msg::Exported(Ok("/tmp/game.pgn".into())), Instant::now());
    assert_eq!(said(&e), vec!["Scoresheet saved: /tmp/game.pgn."]);
    assert_eq!(
        a.prompt(),
        "Black to move, move 1. Saved in /tmp/game.pgn only."
    );
    // A move since: the copy no longer holds the game.
    run(&mut a, &["e5"]);
    assert_eq!(a.prompt(), "White to move, move 2. Not saved.");
    assert!(!run(&mut a, &["quit"]).contains(&Effect::Quit), "asked");
    run(&mut a, &["save /tmp/game.pgn"]);
    let _ = a.update(Msg::Exported(Ok("/tmp/game.pgn".into())), Instant::now());
    let e = run(&mut a, &["quit"]);
    assert_eq!(
        said(&e),
        vec![
            "The game is saved in /tmp/game.pgn; its journal could not be written.",
            "Goodbye."
        ]
    );
    assert!(e.contains(&Effect::Quit));
}

#[test]
fn save_asks_for_the_export_in_a_format() {
    let mut a = app();
    assert_eq!(
        said(&run(&mut a, &["save"])),
        vec!["Nothing to save yet: no move has been played."]
    );
    run(&mut a, &["e4"]);
    assert_eq!(
        run(&mut a, &["save"]),
        vec![Effect::Export(ExportFormat::Pgn)]
    );
    assert_eq!(
        run(&mut a, &["speichern brf"]),
        vec![Effect::Export(ExportFormat::Brf)]
    );
    assert_eq!(
        said(&run(&mut a, &["save xyz"])),
        vec!["\"xyz\" is not a format: say pgn, brf, braille, text or speech."]
    );
    let e = a.update(Msg::Exported(Ok("/tmp/x.pgn".into())), Instant::now());
    assert_eq!(said(&e), vec!["Scoresheet saved: /tmp/x.pgn."]);
    let mut failed = |f| said(&a.update(Msg::Exported(Err(f)), Instant::now()));
    assert_eq!(
        failed(crate::msg::SaveFailure::NotWritable("/mnt/cd".into())),
        vec!["The scoresheet could not be saved: the folder /mnt/cd cannot be written."]
    );
    assert_eq!(
        failed(crate::msg::SaveFailure::DiskFull),
        vec!["The scoresheet could not be saved: the disk is full."]
    );
}

// ---- the clock, penalties, the arbiter, the board in the journal ----

use crate::app::ClockSetup;
use crate::scoresheet::record::{ClockEvent, Penalty};
use shakmaty::KnownOutcome;
use std::time::Duration;

fn secs(n: u64) -> Duration {
    Duration::from_secs(n)
}

fn clocked(spec: &str) -> (App, Instant) {
    let setup = ClockSetup::new(crate::clock::parse_spec(spec).unwrap());
    let mut a = App::builder().clock(Some(setup)).build();
    a.enable_journal(StartInfo {
        white: "Anna".into(),
        black: "Bob".into(),
        ..StartInfo::default()
    });
    let t0 = Instant::now();
    let e = a.update(Msg::Start, t0);
    assert!(
        !e.iter().any(|e| matches!(e, Effect::Journal(_))),
        "a clock started is no record: no file before the first move"
    );
    (a, t0)
}

fn at(a: &mut App, lines: &[(&str, Instant)]) -> Vec<Effect> {
    let mut all = Vec::new();
    for (l, now) in lines {
        all.extend(a.update(Msg::Line((*l).into()), *now));
    }
    all
}

fn events(effects: &[Effect]) -> Vec<Event> {
    journal(effects).into_iter().map(|r| r.event).collect()
}

fn clock_events_of(effects: &[Effect]) -> Vec<ClockEvent> {
    events(effects)
        .into_iter()
        .filter_map(|e| match e {
            Event::Clock(c) => Some(c),
            _ => None,
        })
        .collect()
}

/// Every press after a move is a record with both times (the moves
/// with their times, D.2.9); a pause, a resume and the arbiter's time
/// are records too, each with both times after it.
#[test]
fn presses_pauses_and_the_arbiter_are_journalled_with_both_times() {
    let (mut a, t0) = clocked("5+3");
    let e = at(
        &mut a,
        &[
            ("e4", t0 + secs(12)),
            ("e5", t0 + secs(20)),
            ("pause", t0 + secs(25)),
            ("resume", t0 + secs(100)),
            ("arbiter add black 2", t0 + secs(101)),
            ("yes", t0 + secs(101)),
        ],
    );
    let ev = events(&e);
    // The start record names the clock.
    let Event::Start(st) = &ev[0] else {
        panic!("{ev:?}")
    };
    assert_eq!(st.time_control.as_deref(), Some("300+3"));
    assert_eq!(st.clock.as_deref(), Some("5+3"));
    // The move, then the press with both times.
    assert!(matches!(&ev[1], Event::Move { san, .. } if san == "e4"));
    assert_eq!(
        ev[2],
        Event::Clock(ClockEvent::Press {
            by: Color::White,
            white_ms: 291_000,
            black_ms: 300_000
        })
    );
    assert_eq!(
        clock_events_of(&e)[1..],
        [
            ClockEvent::Press {
                by: Color::Black,
                white_ms: 291_000,
                black_ms: 295_000
            },
            ClockEvent::Stopped {
                white_ms: 286_000,
                black_ms: 295_000
            },
            ClockEvent::Started {
                white_ms: 286_000,
                black_ms: 295_000,
                running: Color::White
            },
            ClockEvent::Adjusted {
                side: Color::Black,
                delta_ms: 120_000,
                white_ms: 285_000,
                black_ms: 415_000
            },
        ]
    );
    assert!(ev.contains(&Event::Arbiter {
        action: "add-time".into(),
        note: "black 0:02:00.000".into()
    }));
    // Read back: the mover's time after each move, for %clk.
    let r = replay(&journal(&e)).unwrap();
    assert_eq!(r.record.clocks, vec![Some(291_000), Some(295_000)]);
    let rc = r.restored_clock().unwrap();
    assert_eq!((rc.white_ms, rc.black_ms), (285_000, 415_000));
    assert_eq!(rc.running, Some(Color::White));
}

/// A journal whose game is resumed in a new session, `later` after the
/// last record: the clocks as of the last record, nothing charged for
/// the time between, the running side's time running from the resume.
#[test]
fn resumed_clocks_are_as_of_the_last_record() {
    let (mut a, t0) = clocked("5+3");
    let e = at(
        &mut a,
        &[
            ("e4", t0 + secs(12)),
            ("e5", t0 + secs(20)),
            ("Nf3", t0 + secs(31)),
        ],
    );
    let r = replay(&journal(&e)).unwrap();
    // A session without --time: the game's own clock comes back.
    let mut b = App::builder().build();
    b.enable_journal(StartInfo::default());
    let later = t0 + secs(3600);
    let offer = ResumeOffer {
        id: GameId::parse("20261122-190000").unwrap(),
        started: None,
        resumed: r,
        read_warnings: vec![],
        damage: None,
        asking_keep: false,
        choice: ResumeChoice::Now,
    };
    let e = b.update(Msg::Resume(Box::new(offer)), later);
    assert!(
        !events(&e).iter().any(|e| matches!(e, Event::Clock(_))),
        "restoring is not an event: {e:?}"
    );
    assert_eq!(
        said(&e).last().map(String::as_str),
        Some("White: four minutes forty-three seconds. Black: four minutes fifty-five seconds.")
    );
    let c = b.clock().expect("the game's clock");
    assert_eq!(c.remaining(Color::White, later), secs(283));
    assert_eq!(c.remaining(Color::Black, later), secs(295));
    assert_eq!(c.side_to_move(), Some(Color::Black));
    assert!(c.is_running());
    assert_eq!(c.moves(Color::White), 2);
    let _ = b.update(Msg::Start, later);
    // Black's time runs from the resume on; the next press says so.
    let e = b.update(Msg::Line("Nc6".into()), later + secs(5));
    assert_eq!(
        clock_events_of(&e),
        vec![ClockEvent::Press {
            by: Color::Black,
            white_ms: 283_000,
            black_ms: 293_000
        }]
    );
}

/// A flag fall: the flag record, then the result.  Resumed, the game
/// is over (not an unfinished game to go on with).
#[test]
fn a_flag_fall_is_journalled_and_resumes_as_over() {
    let (mut a, t0) = clocked("0:05+1");
    let mut e = at(&mut a, &[("e4", t0 + secs(1))]);
    e.extend(a.update(Msg::Deadline, t0 + secs(6)));
    let ev = events(&e);
    let n = ev.len();
    assert_eq!(
        ev[n - 2],
        Event::Clock(ClockEvent::Flag {
            side: Color::Black,
            white_ms: 5_000,
            black_ms: 0
        })
    );
    assert_eq!(
        ev[n - 1],
        Event::Result {
            outcome: KnownOutcome::Decisive {
                winner: Color::White
            },
            reason: "time-forfeit".into()
        }
    );
    let r = replay(&journal(&e)).unwrap();
    assert!(r.game.is_over());
    assert_eq!(
        r.game.result().map(|g| g.reason),
        Some(EndReason::TimeForfeit)
    );
    let mut b = app();
    let offer = ResumeOffer {
        id: GameId::parse("20261122-190000").unwrap(),
        started: None,
        resumed: r,
        read_warnings: vec![],
        damage: None,
        asking_keep: false,
        choice: ResumeChoice::Now,
    };
    let e = b.update(Msg::Resume(Box::new(offer)), t0 + secs(60));
    assert!(b.game().is_over());
    assert!(
        said(&e).iter().any(|s| s.contains("one to zero")),
        "the result is said: {:?}",
        said(&e)
    );
    let e = run(&mut b, &["e5"]);
    assert!(said(&e)[0].starts_with("Game over"), "{:?}", said(&e));
    assert!(!e.iter().any(|e| matches!(e, Effect::Journal(_))));
}

/// The arbiter's result and a second illegal move (a loss) come back
/// as the end of the game too.
#[test]
fn an_arbiter_result_and_an_illegal_move_loss_resume_as_over() {
    let (mut a, t0) = clocked("90+30");
    let e = at(
        &mut a,
        &[
            ("e4", t0 + secs(1)),
            ("arbiter illegal white", t0 + secs(2)),
            ("yes", t0 + secs(2)),
        ],
    );
    let ev = events(&e);
    let i = ev
        .iter()
        .position(|e| matches!(e, Event::Arbiter { .. }))
        .unwrap();
    assert_eq!(
        ev[i],
        Event::Arbiter {
            action: "illegal-move".into(),
            note: "white".into()
        }
    );
    assert_eq!(ev[i + 1], Event::TakeBack);
    assert_eq!(
        ev[i + 2],
        Event::Penalty(Penalty {
            against: Color::White,
            reason: "illegal-move".into(),
            white_delta_ms: 0,
            black_delta_ms: 120_000,
            note: "7.5".into()
        })
    );
    assert!(matches!(ev[i + 3], Event::Clock(_)), "{ev:?}");
    // Resumed: one illegal move counted, so the second loses.
    let r = replay(&journal(&e)).unwrap();
    assert_eq!(r.illegal_moves[Color::White], 1);
    let mut b = App::builder().build();
    b.enable_journal(StartInfo::default());
    let offer = |r| ResumeOffer {
        id: GameId::parse("20261122-190000").unwrap(),
        started: None,
        resumed: r,
        read_warnings: vec![],
        damage: None,
        asking_keep: false,
        choice: ResumeChoice::Now,
    };
    let _ = b.update(Msg::Resume(Box::new(offer(r))), t0 + secs(10));
    let mut e = at(
        &mut b,
        &[
            ("d4", t0 + secs(11)),
            ("arbiter illegal white", t0 + secs(12)),
        ],
    );
    e.extend(b.update(Msg::Line("yes".into()), t0 + secs(12)));
    assert!(b.game().is_over());
    let ev = events(&e);
    assert!(ev.contains(&Event::Result {
        outcome: KnownOutcome::Decisive {
            winner: Color::Black
        },
        reason: "illegal-move".into()
    }));
    // Declared by the arbiter: over too.
    let (mut c, t0) = clocked("90+30");
    let e = at(
        &mut c,
        &[
            ("e4", t0 + secs(1)),
            ("arbiter result draw", t0 + secs(2)),
            ("yes", t0 + secs(2)),
        ],
    );
    let r = replay(&journal(&e)).unwrap();
    assert!(r.game.is_over());
    assert_eq!(
        r.game.result().map(|g| g.reason),
        Some(EndReason::ArbiterDecision)
    );
    let mut d = app();
    let _ = d.update(Msg::Resume(Box::new(offer(r))), t0 + secs(5));
    assert!(d.game().is_over());
}

/// An incorrect claim's penalty is journalled after the claim, with
/// the time it gave.
#[test]
fn an_incorrect_claims_penalty_is_journalled() {
    let (mut a, t0) = clocked("90+30");
    let e = at(&mut a, &[("e4", t0 + secs(1)), ("claim", t0 + secs(2))]);
    let ev = events(&e);
    let i = ev
        .iter()
        .position(|e| matches!(e, Event::Claim { upheld: false, .. }))
        .unwrap();
    assert_eq!(
        ev[i + 1],
        Event::Penalty(Penalty {
            against: Color::Black,
            reason: "incorrect-claim".into(),
            white_delta_ms: 120_000,
            black_delta_ms: 0,
            note: "9.5.3".into()
        })
    );
    assert!(matches!(
        ev[i + 2],
        Event::Clock(ClockEvent::Adjusted {
            side: Color::White,
            delta_ms: 120_000,
            ..
        })
    ));
}

/// A board that differs from the game is journalled with what differs
/// (D.2.9), and so is its resolution.
#[test]
fn a_board_mismatch_and_its_resolution_are_journalled() {
    use crate::board::link::LinkEvent;
    use crate::board::sim::{HandStep, SimBoard};
    use crate::board::{BoardSession, Protocol, TrackerConfig};
    use shakmaty::{Board, Square};
    let settle = std::time::Duration::from_millis(300);
    let mut a = app();
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
    let mut sim = SimBoard::new(Protocol::Dgt, Board::new());
    let _ = a.update(Msg::Board(LinkEvent::Bytes(sim.dump())), now);
    // Before the first move: no saved game for pieces being set up.
    let e = a.update(
        Msg::Board(LinkEvent::Bytes(sim.act(HandStep::Lift(Square::H7)))),
        now,
    );
    let mut all = e;
    all.extend(a.update(Msg::Deadline, now + settle));
    assert!(!all.iter().any(|e| matches!(e, Effect::Journal(_))));
    all.extend(a.update(
        Msg::Board(LinkEvent::Bytes(
            sim.act(HandStep::Place(Square::H7, Color::Black.pawn())),
        )),
        now + settle,
    ));
    // Once the game is on: the mismatch, then its resolution.
    all.extend(run(&mut a, &["e4"]));
    for action in [
        HandStep::Lift(Square::E2),
        HandStep::Place(Square::E4, Color::White.pawn()),
    ] {
        all.extend(a.update(Msg::Board(LinkEvent::Bytes(sim.act(action))), now + settle));
    }
    all.extend(a.update(Msg::Deadline, now + settle * 3));
    let t1 = now + settle * 4;
    all.extend(a.update(
        Msg::Board(LinkEvent::Bytes(sim.act(HandStep::Lift(Square::H2)))),
        t1,
    ));
    all.extend(a.update(Msg::Deadline, t1 + settle));
    all.extend(a.update(
        Msg::Board(LinkEvent::Bytes(
            sim.act(HandStep::Place(Square::H2, Color::White.pawn())),
        )),
        t1 + settle * 2,
    ));
    let ev = events(&all);
    let i = ev
        .iter()
        .position(|e| matches!(e, Event::Mismatch { .. }))
        .unwrap_or_else(|| panic!("{ev:?} {:?}", said(&all)));
    assert_eq!(
        ev[i],
        Event::Mismatch {
            board: BoardOf::Player,
            diff: "h2: game P, board empty".into()
        }
    );
    assert_eq!(
        ev[i + 1],
        Event::MismatchResolved {
            board: BoardOf::Player
        }
    );
    let r = replay(&journal(&all)).unwrap();
    assert_eq!(r.mismatch, None);
    let cut = journal(&all)[..=i].to_vec();
    assert_eq!(
        replay(&cut).unwrap().mismatch.as_deref(),
        Some("h2: game P, board empty")
    );
}

/// A move and the press after it are one write, flushed once: a kill
/// never leaves the move on disk without its clock times.
#[test]
fn a_move_and_its_press_are_one_write() {
    let (mut a, t0) = clocked("5+3");
    let e = a.update(Msg::Line("e4".into()), t0 + secs(2));
    assert!(matches!(&e[0], Effect::Journal(JournalOp::Begin(_))));
    assert!(
        matches!(&e[1], Effect::Journal(JournalOp::AppendAll(v))
            if matches!(v[..], [Event::Move { .. }, Event::Clock(ClockEvent::Press { .. })])),
        "{e:?}"
    );
    assert!(matches!(e[2], Effect::Say(_)));
}

/// A game that ends with the clock running (here a resignation) has
/// the times at its end on the scoresheet, before the result.
#[test]
fn the_times_at_the_end_are_recorded() {
    let (mut a, t0) = clocked("5+0");
    let e = at(&mut a, &[("e4", t0 + secs(3)), ("resign", t0 + secs(10))]);
    let ev = events(&e);
    let n = ev.len();
    assert_eq!(
        ev[n - 3..],
        [
            Event::Clock(ClockEvent::Stopped {
                white_ms: 297_000,
                black_ms: 293_000
            }),
            Event::Resign { by: Color::Black },
            Event::Result {
                outcome: KnownOutcome::Decisive {
                    winner: Color::White
                },
                reason: "resignation".into()
            }
        ]
    );
    // Said once: nothing more is journalled as time goes by.
    let e = a.update(Msg::Line("time".into()), t0 + secs(20));
    assert!(!e.iter().any(|e| matches!(e, Effect::Journal(_))));
}

/// The clock that ran while the resume question waited, declined:
/// no saved game is begun by the clock alone; nor by an arbiter's
/// action that did nothing.
#[test]
fn the_clock_alone_begins_no_saved_game() {
    let (mut a, t0) = clocked("5+0");
    let mut e = a.update(
        Msg::Resume(Box::new(offer(ResumeChoice::Ask))),
        t0 + secs(1),
    );
    e.extend(a.update(Msg::Line("no".into()), t0 + secs(30)));
    e.extend(at(
        &mut a,
        &[("pause", t0 + secs(31)), ("resume", t0 + secs(40))],
    ));
    e.extend(at(
        &mut a,
        &[
            ("arbiter illegal black", t0 + secs(41)),
            ("yes", t0 + secs(41)),
        ],
    ));
    let journalled: Vec<&Effect> = e
        .iter()
        .filter(|e| {
            matches!(
                e,
                Effect::Journal(
                    JournalOp::Begin(_) | JournalOp::Append(_) | JournalOp::AppendAll(_)
                )
            )
        })
        .collect();
    assert!(journalled.is_empty(), "{journalled:?}");
    // The first move begins it, with both times.
    let e = a.update(Msg::Line("e4".into()), t0 + secs(50));
    let ev = events(&e);
    assert!(matches!(ev[0], Event::Start(_)));
    assert!(matches!(ev[1], Event::Move { .. }));
    assert!(
        matches!(ev[2], Event::Clock(ClockEvent::Press { .. })),
        "{ev:?}"
    );
    assert!(
        !ev.iter().any(|e| matches!(e, Event::Arbiter { .. })),
        "{ev:?}"
    );
}

/// The opponent's own board (the second board of D.2.9): its
/// mismatches and their resolution are journalled as the opponent's.
#[test]
fn the_opponents_board_mismatches_are_journalled_as_theirs() {
    use crate::board::link::LinkEvent;
    use crate::board::sim::{HandStep, SimBoard};
    use crate::board::{BoardSession, Protocol, TrackerConfig};
    use shakmaty::{Board, Square};
    let settle = std::time::Duration::from_millis(300);
    let mut a = app();
    a.parts.boards.open(
        Seat::Opponent,
        BoardSession::new(
            Protocol::Dgt,
            TrackerConfig {
                settle,
                detect_rotation: false,
                ..TrackerConfig::default()
            },
            a.game().position(),
            false,
        ),
    );
    let now = Instant::now();
    let _ = a.update(Msg::OpponentBoard(LinkEvent::Connected), now);
    let mut sim = SimBoard::new(Protocol::Dgt, Board::new());
    let _ = a.update(Msg::OpponentBoard(LinkEvent::Bytes(sim.dump())), now);
    let mut all = run(&mut a, &["e4"]);
    let mut act =
        |a: &mut App, action, t| a.update(Msg::OpponentBoard(LinkEvent::Bytes(sim.act(action))), t);
    all.extend(act(&mut a, HandStep::Lift(Square::E2), now));
    all.extend(act(
        &mut a,
        HandStep::Place(Square::E4, Color::White.pawn()),
        now,
    ));
    all.extend(a.update(Msg::Deadline, now + settle));
    let t1 = now + settle * 2;
    all.extend(act(&mut a, HandStep::Lift(Square::H2), t1));
    all.extend(a.update(Msg::Deadline, t1 + settle));
    all.extend(act(
        &mut a,
        HandStep::Place(Square::H2, Color::White.pawn()),
        t1 + settle * 2,
    ));
    all.extend(a.update(Msg::Deadline, t1 + settle * 3));
    let ev: Vec<Event> = events(&all)
        .into_iter()
        .filter(|e| matches!(e, Event::Mismatch { .. } | Event::MismatchResolved { .. }))
        .collect();
    assert_eq!(
        ev,
        vec![
            Event::Mismatch {
                board: BoardOf::Opponent,
                diff: "h2: game P, board empty".into()
            },
            Event::MismatchResolved {
                board: BoardOf::Opponent
            }
        ],
        "{:?}",
        said(&all)
    );
}

// ---- what a resume brings back: the board's expectations, the press ----

fn offer_of(recs: &[Record]) -> ResumeOffer {
    ResumeOffer {
        id: GameId::parse("20261122-190000").unwrap(),
        started: None,
        resumed: replay(recs).unwrap(),
        read_warnings: vec![],
        damage: None,
        asking_keep: false,
        choice: ResumeChoice::Now,
    }
}

/// A DGT board session (rotation known, settle time `settle`).
fn dgt_session(a: &App, settle: Duration) -> crate::board::BoardSession {
    crate::board::BoardSession::new(
        crate::board::Protocol::Dgt,
        crate::board::TrackerConfig {
            settle,
            detect_rotation: false,
            ..crate::board::TrackerConfig::default()
        },
        a.game().position(),
        false,
    )
}

fn mismatch_said(e: &[Effect]) -> bool {
    e.iter()
        .any(|e| matches!(e, Effect::Tone(crate::audio::Tone::Mismatch)))
        || said(e).iter().any(|s| s.starts_with("Mismatch"))
}

/// A move typed for the opponent is awaited on the player's board; the
/// journal says so.  Resumed (the board answering only after the
/// resume, as after a restart), the instruction is said again when
/// the board answers, the move made on the board is quiet until it is
/// done ("Done: …"), no mismatch comes between, and "done" is
/// journalled.
#[test]
fn the_move_awaited_on_the_board_is_awaited_again_after_a_resume() {
    use crate::board::link::LinkEvent;
    use crate::board::sim::{HandStep, SimBoard};
    use shakmaty::{Board, Square};
    let settle = Duration::from_millis(300);
    let mut a = app();
    a.attach_board(dgt_session(&a, settle));
    let now = Instant::now();
    let mut sim = SimBoard::new(crate::board::Protocol::Dgt, Board::new());
    let _ = a.update(Msg::Board(LinkEvent::Connected), now);
    let _ = a.update(Msg::Board(LinkEvent::Bytes(sim.dump())), now);
    let mut all = Vec::new();
    for (action, t) in [
        (HandStep::Lift(Square::E2), now),
        (HandStep::Place(Square::E4, Color::White.pawn()), now),
    ] {
        all.extend(a.update(Msg::Board(LinkEvent::Bytes(sim.act(action))), t));
    }
    all.extend(a.update(Msg::Deadline, now + settle));
    assert_eq!(a.game().history().len(), 1, "{:?}", said(&all));
    let e = a.update(Msg::Line("e5".into()), now + settle * 2);
    let instruction = said(&e)
        .into_iter()
        .find(|s| s.starts_with("On your board:"))
        .unwrap_or_else(|| panic!("{:?}", said(&e)));
    all.extend(e);
    let recs = journal(&all);
    assert!(
        recs.iter().any(|r| r.event
            == Event::BoardAwait {
                board: BoardOf::Player,
                uci: Some("e7e5".into())
            }),
        "{recs:?}"
    );
    // hector stops here (killed); a new one resumes the game.
    let mut b = app();
    b.attach_board(dgt_session(&b, settle));
    let t1 = now + secs(60);
    let e = b.update(Msg::Resume(Box::new(offer_of(&recs))), t1);
    assert!(
        !said(&e).iter().any(|s| s.starts_with("On your board")),
        "no board yet: {:?}",
        said(&e)
    );
    let _ = b.update(Msg::Board(LinkEvent::Connected), t1);
    let e = b.update(Msg::Board(LinkEvent::Bytes(sim.dump())), t1);
    assert_eq!(
        said(&e),
        vec!["Board connected.".to_string(), instruction.clone()]
    );
    // Made slowly (a pause longer than the settle time): quiet.
    let mut after = b.update(
        Msg::Board(LinkEvent::Bytes(sim.act(HandStep::Lift(Square::E7)))),
        t1 + settle,
    );
    after.extend(b.update(Msg::Deadline, t1 + settle * 3));
    assert!(said(&after).is_empty(), "{:?}", said(&after));
    let e = b.update(
        Msg::Board(LinkEvent::Bytes(
            sim.act(HandStep::Place(Square::E5, Color::Black.pawn())),
        )),
        t1 + settle * 4,
    );
    after.extend(e.clone());
    assert_eq!(said(&e), vec!["Done: Bauer Eva fünf."]);
    assert!(!mismatch_said(&after), "{:?}", said(&after));
    assert!(
        events(&e).contains(&Event::BoardDone {
            board: BoardOf::Player,
            uci: "e7e5".into()
        }),
        "{e:?}"
    );
    // Resumed with the board answering already (the question waited):
    // the instruction is said at once.
    let mut c = app();
    c.attach_board(dgt_session(&c, settle));
    let mut sim = SimBoard::new(crate::board::Protocol::Dgt, Board::new());
    for action in [
        HandStep::Lift(Square::E2),
        HandStep::Place(Square::E4, Color::White.pawn()),
    ] {
        sim.act(action);
    }
    let _ = c.update(Msg::Board(LinkEvent::Connected), t1);
    let _ = c.update(Msg::Board(LinkEvent::Bytes(sim.dump())), t1);
    let e = c.update(Msg::Resume(Box::new(offer_of(&recs))), t1 + settle);
    assert_eq!(said(&e).last(), Some(&instruction), "{:?}", said(&e));
    assert!(!mismatch_said(&e));
    // Nothing new on the scoresheet for what it said already.
    assert!(
        !events(&e)
            .iter()
            .any(|e| matches!(e, Event::BoardAwait { .. })),
        "{e:?}"
    );
}

/// A mismatch on the player's board, said and not resolved when hector
/// stopped: resumed, the board agreeing is "matches" (and the
/// resolution journalled); still differing, it is said again but not
/// journalled twice.
#[test]
fn a_standing_board_mismatch_is_resolved_or_said_again_after_a_resume() {
    use crate::board::link::LinkEvent;
    use crate::board::sim::{HandStep, SimBoard};
    use shakmaty::{Board, Square};
    let settle = Duration::from_millis(300);
    let now = Instant::now();
    let recs = {
        let mut a = app();
        a.attach_board(dgt_session(&a, settle));
        let mut sim = SimBoard::new(crate::board::Protocol::Dgt, Board::new());
        let _ = a.update(Msg::Board(LinkEvent::Connected), now);
        let _ = a.update(Msg::Board(LinkEvent::Bytes(sim.dump())), now);
        let mut all = Vec::new();
        for action in [
            HandStep::Lift(Square::E2),
            HandStep::Place(Square::E4, Color::White.pawn()),
        ] {
            all.extend(a.update(Msg::Board(LinkEvent::Bytes(sim.act(action))), now));
        }
        all.extend(a.update(Msg::Deadline, now + settle));
        all.extend(a.update(
            Msg::Board(LinkEvent::Bytes(sim.act(HandStep::Lift(Square::H2)))),
            now + settle * 2,
        ));
        all.extend(a.update(Msg::Deadline, now + settle * 3));
        assert!(mismatch_said(&all), "{:?}", said(&all));
        journal(&all)
    };
    assert_eq!(
        replay(&recs).unwrap().mismatch.as_deref(),
        Some("h2: game P, board empty")
    );
    let after_e4 = || {
        let mut sim = SimBoard::new(crate::board::Protocol::Dgt, Board::new());
        sim.act(HandStep::Lift(Square::E2));
        sim.act(HandStep::Place(Square::E4, Color::White.pawn()));
        sim
    };
    let t1 = now + secs(60);
    // The pawn was put back while hector was down.
    let mut b = app();
    b.attach_board(dgt_session(&b, settle));
    let _ = b.update(Msg::Resume(Box::new(offer_of(&recs))), t1);
    let _ = b.update(Msg::Board(LinkEvent::Connected), t1);
    let e = b.update(Msg::Board(LinkEvent::Bytes(after_e4().dump())), t1);
    assert_eq!(
        said(&e),
        vec!["Board connected.", "Board matches the game."]
    );
    assert_eq!(
        events(&e),
        vec![Event::MismatchResolved {
            board: BoardOf::Player
        }]
    );
    // Still missing: said again (after the settle time), not journalled
    // again; put back, resolved.
    let mut c = app();
    c.attach_board(dgt_session(&c, settle));
    let _ = c.update(Msg::Resume(Box::new(offer_of(&recs))), t1);
    let _ = c.update(Msg::Board(LinkEvent::Connected), t1);
    let mut sim = after_e4();
    sim.act(HandStep::Lift(Square::H2));
    let mut e = c.update(Msg::Board(LinkEvent::Bytes(sim.dump())), t1);
    e.extend(c.update(Msg::Deadline, t1 + settle));
    assert!(mismatch_said(&e), "{:?}", said(&e));
    assert!(!e.iter().any(|e| matches!(e, Effect::Journal(_))), "{e:?}");
    let e = c.update(
        Msg::Board(LinkEvent::Bytes(
            sim.act(HandStep::Place(Square::H2, Color::White.pawn())),
        )),
        t1 + settle * 2,
    );
    assert_eq!(said(&e), vec!["Board matches the game."]);
    assert_eq!(
        events(&e),
        vec![Event::MismatchResolved {
            board: BoardOf::Player
        }]
    );
}

/// D.2.8: the player moved and has not pressed.  The journal says the
/// move waits for its press; resumed (even in a session started
/// without separate presses), the mover's time runs on from the
/// recorded time, and `press` completes the move.
#[test]
fn a_move_waiting_for_its_separate_press_waits_again_after_a_resume() {
    let setup = ClockSetup {
        press: crate::clock::PressMode::Separate,
        ..ClockSetup::new(crate::clock::parse_spec("5+0").unwrap())
    };
    let mut a = App::builder().clock(Some(setup)).build();
    a.enable_journal(StartInfo::default());
    let t0 = Instant::now();
    let _ = a.update(Msg::Start, t0);
    let e = at(&mut a, &[("e4", t0 + secs(2))]);
    let ev = events(&e);
    assert!(matches!(ev[1], Event::Move { .. }), "{ev:?}");
    assert_eq!(
        ev[2],
        Event::Clock(ClockEvent::AwaitingPress {
            by: Color::White,
            white_ms: 298_000,
            black_ms: 300_000
        })
    );
    // The kill comes 5 seconds later: not charged.
    let mut b = App::builder()
        .clock(Some(ClockSetup::new(
            crate::clock::parse_spec("5+0").unwrap(),
        )))
        .build();
    b.enable_journal(StartInfo::default());
    let t1 = t0 + secs(7);
    let e = b.update(Msg::Resume(Box::new(offer_of(&journal(&e)))), t1);
    assert_eq!(
        said(&e).last().map(String::as_str),
        Some("Press the clock when you are sure of your move.")
    );
    assert!(!e.iter().any(|e| matches!(
        e,
        Effect::Journal(JournalOp::Append(Event::Clock(_)) | JournalOp::AppendAll(_))
    )));
    let _ = b.update(Msg::Start, t1);
    let c = b.clock().unwrap();
    assert_eq!(c.side_to_move(), Some(Color::White), "White's time runs");
    assert!(c.is_running());
    assert_eq!(c.remaining(Color::White, t1 + secs(3)), secs(295));
    let e = b.update(Msg::Line("press".into()), t1 + secs(3));
    assert_eq!(said(&e), vec!["White: four minutes fifty-five seconds."]);
    assert_eq!(
        events(&e),
        vec![Event::Clock(ClockEvent::Press {
            by: Color::White,
            white_ms: 295_000,
            black_ms: 300_000
        })]
    );
    assert_eq!(b.clock().unwrap().side_to_move(), Some(Color::Black));
}

/// `time`: the reading is journalled with both times, before it is
/// said; before the first move there is no saved game for it.
#[test]
fn a_time_reading_is_journalled_with_both_times() {
    let (mut a, t0) = clocked("5+0");
    let e = a.update(Msg::Line("time".into()), t0 + secs(1));
    assert!(!e.iter().any(|e| matches!(e, Effect::Journal(_))), "{e:?}");
    at(&mut a, &[("e4", t0 + secs(2))]);
    let e = a.update(Msg::Line("time".into()), t0 + secs(5));
    assert_eq!(
        e[0],
        Effect::Journal(JournalOp::Append(Event::Clock(ClockEvent::Reading {
            white_ms: 298_000,
            black_ms: 297_000,
            running: Some(Color::Black)
        })))
    );
    assert!(matches!(e[1], Effect::Say(_)));
    let e = a.update(Msg::Line("time white".into()), t0 + secs(6));
    assert!(matches!(
        e[0],
        Effect::Journal(JournalOp::Append(Event::Clock(ClockEvent::Reading { .. })))
    ));
    // Nothing else changed: the next move's press is as before.
    let e = a.update(Msg::Line("e5".into()), t0 + secs(8));
    assert!(events(&e).contains(&Event::Clock(ClockEvent::Press {
        by: Color::Black,
        white_ms: 298_000,
        black_ms: 294_000
    })));
}

/// Issue 18, item 6: leaving in order journals both times as they
/// are, so that a resume gives no thinking time back (it used to
/// restore the clock as of the last press).
#[test]
fn leaving_in_order_journals_both_times() {
    for how in ["quit", "a signal", "the end of input"] {
        let msg = match how {
            "quit" => Msg::Line("quit".into()),
            "a signal" => Msg::Interrupted,
            _ => Msg::EndOfInput,
        };
        let (mut a, t0) = clocked("5+0");
        at(&mut a, &[("e4", t0 + secs(2))]);
        let e = a.update(msg, t0 + secs(8));
        assert_eq!(e.last(), Some(&Effect::Quit), "{how}");
        assert_eq!(
            e[0],
            Effect::Journal(JournalOp::Append(Event::Clock(ClockEvent::Reading {
                white_ms: 298_000,
                black_ms: 294_000,
                running: Some(Color::Black)
            }))),
            "{how}: {e:?}"
        );
    }
    // Paused, the reading says so; before the first move there is no
    // saved game to write it to; after the end, nothing.
    let (mut a, t0) = clocked("5+0");
    at(&mut a, &[("e4", t0 + secs(2)), ("pause", t0 + secs(3))]);
    let e = a.update(Msg::Interrupted, t0 + secs(30));
    assert!(events(&e).contains(&Event::Clock(ClockEvent::Reading {
        white_ms: 298_000,
        black_ms: 299_000,
        running: None
    })));
    let (mut a, t0) = clocked("5+0");
    let e = a.update(Msg::Interrupted, t0 + secs(3));
    assert!(events(&e).is_empty(), "{e:?}");
    let (mut a, t0) = clocked("5+0");
    at(&mut a, &[("e4", t0 + secs(2)), ("resign", t0 + secs(3))]);
    let e = a.update(Msg::Interrupted, t0 + secs(9));
    assert!(events(&e).is_empty(), "{e:?}");
}

/// A game left for a new one with `new` stays unfinished: both times
/// go to its journal first.
#[test]
fn a_game_left_for_a_new_one_journals_both_times() {
    let (mut a, t0) = clocked("5+0");
    at(&mut a, &[("e4", t0 + secs(2))]);
    let id = GameId::parse("20261122-190000").unwrap();
    let _ = a.update(Msg::Journal(JournalStatus::Began(id.clone())), t0 + secs(2));
    let e = a.update(Msg::Line("new".into()), t0 + secs(8));
    assert!(
        e.contains(&Effect::Journal(JournalOp::AppendTo(
            id,
            Event::Clock(ClockEvent::Reading {
                white_ms: 298_000,
                black_ms: 294_000,
                running: Some(Color::Black)
            })
        ))),
        "{e:?}"
    );
    // The new game has nothing to write yet.
    assert!(
        !e.iter()
            .any(|x| matches!(x, Effect::Journal(JournalOp::Begin(_))))
    );
}

/// The blind player's move awaited on the opponent's own board comes
/// back after a resume: the board, still showing the position before
/// it, is no mismatch (the blind player hears nothing), and the move
/// made there is journalled as done.
#[test]
fn the_move_awaited_on_the_opponents_board_is_awaited_again() {
    use crate::board::link::LinkEvent;
    use crate::board::sim::{HandStep, SimBoard};
    use shakmaty::{Board, Square};
    let settle = Duration::from_millis(300);
    let now = Instant::now();
    let mut a = app();
    a.parts.boards.open(Seat::Opponent, dgt_session(&a, settle));
    let mut sim = SimBoard::new(crate::board::Protocol::Dgt, Board::new());
    let _ = a.update(Msg::OpponentBoard(LinkEvent::Connected), now);
    let _ = a.update(Msg::OpponentBoard(LinkEvent::Bytes(sim.dump())), now);
    let mut e = Vec::new();
    for (line, from, to, piece) in [
        ("e4", Square::E2, Square::E4, Color::White.pawn()),
        ("e5", Square::E7, Square::E5, Color::Black.pawn()),
    ] {
        e.extend(run(&mut a, &[line]));
        for action in [HandStep::Lift(from), HandStep::Place(to, piece)] {
            e.extend(a.update(Msg::OpponentBoard(LinkEvent::Bytes(sim.act(action))), now));
        }
    }
    e.extend(run(&mut a, &["Nf3"]));
    let recs = journal(&e);
    assert!(
        recs.iter().any(|r| r.event
            == Event::BoardAwait {
                board: BoardOf::Opponent,
                uci: Some("g1f3".into())
            }),
        "{recs:?}"
    );
    let mut b = app();
    b.parts.boards.open(Seat::Opponent, dgt_session(&b, settle));
    let t1 = now + secs(60);
    let _ = b.update(Msg::Resume(Box::new(offer_of(&recs))), t1);
    let nf3 = b.game().history()[2].mv;
    let _ = b.update(Msg::OpponentBoard(LinkEvent::Connected), t1);
    let mut e = b.update(Msg::OpponentBoard(LinkEvent::Bytes(sim.dump())), t1);
    e.extend(b.update(Msg::Deadline, t1 + settle * 2));
    assert_eq!(
        b.parts
            .boards
            .opponent()
            .and_then(|o| o.tracker().awaiting_execution()),
        Some(nf3)
    );
    assert!(!mismatch_said(&e), "{:?}", said(&e));
    assert!(!said(&e).iter().any(|s| s.contains("opponent's board: M")));
    let mut e = Vec::new();
    for action in [
        HandStep::Lift(Square::G1),
        HandStep::Place(Square::F3, Color::White.knight()),
    ] {
        e.extend(b.update(
            Msg::OpponentBoard(LinkEvent::Bytes(sim.act(action))),
            t1 + settle * 3,
        ));
    }
    assert!(
        events(&e).contains(&Event::BoardDone {
            board: BoardOf::Opponent,
            uci: "g1f3".into()
        }),
        "{e:?}"
    );
}

/// While the resume question waits, the board is not judged (it may
/// show the unfinished game): no move is taken from it, no mismatch
/// said.  Yes: the board is judged against the resumed game (the
/// awaited move's instruction); no: against the new game (the
/// mismatch in full, after "New game").
#[test]
fn the_board_is_judged_after_the_resume_question_is_answered() {
    use crate::board::link::LinkEvent;
    use crate::board::sim::{HandStep, SimBoard};
    use shakmaty::{Board, Square};
    let settle = Duration::from_millis(300);
    let now = Instant::now();
    let mut recs = journal(&run(&mut app(), &["e4", "e5", "Nf3"]));
    recs.push(Record {
        seq: recs.len() as u64 + 1,
        at: time::OffsetDateTime::UNIX_EPOCH,
        event: Event::BoardAwait {
            board: BoardOf::Player,
            uci: Some("g1f3".into()),
        },
    });
    let asked = |answer: &str| {
        let mut c = app();
        c.attach_board(dgt_session(&c, settle));
        let mut sim = SimBoard::new(crate::board::Protocol::Dgt, Board::new());
        sim.act(HandStep::Lift(Square::E2));
        sim.act(HandStep::Place(Square::E4, Color::White.pawn()));
        sim.act(HandStep::Lift(Square::E7));
        sim.act(HandStep::Place(Square::E5, Color::Black.pawn()));
        let mut o = offer_of(&recs);
        o.choice = ResumeChoice::Ask;
        let mut e = c.update(Msg::Resume(Box::new(o)), now);
        e.extend(c.update(Msg::Board(LinkEvent::Connected), now));
        e.extend(c.update(Msg::Board(LinkEvent::Bytes(sim.dump())), now));
        e.extend(c.update(Msg::Deadline, now + settle * 2));
        let before = said(&e);
        let e = c.update(Msg::Line(answer.into()), now + settle * 3);
        (c, before, said(&e))
    };
    let (c, before, after) = asked("yes");
    assert_eq!(before.len(), 2, "the question, then only: {before:?}");
    assert_eq!(before[1], "Board connected.");
    assert_eq!(c.game().history().len(), 3);
    assert_eq!(
        after.last().map(String::as_str),
        Some("On your board: white Springer from Gustav eins to Felix drei."),
        "{after:?}"
    );
    let (c, before, after) = asked("no");
    assert_eq!(before.len(), 2, "{before:?}");
    assert!(
        c.game().history().is_empty(),
        "no move taken from the board"
    );
    assert_eq!(after[1], "New game. White to move.");
    assert!(
        after.get(2).is_some_and(|s| s.starts_with("Mismatch")),
        "{after:?}"
    );
}

/// The journal part on its own: a clock set before the first move leaves
/// no file; the first move begins the journal and is appended in the same
/// update; the same game seen again writes nothing; a failure is said
/// once, until the journal recovers.
#[test]
fn the_sheet_alone_begins_with_the_first_move_and_writes_each_change_once() {
    let t0 = Instant::now();
    let mut game = Game::new();
    let mut sheet = Sheet::new(StartInfo::default(), &game, 0);
    let clock = Clock::new(crate::clock::parse_spec("5+0").expect("a control"));
    fn seen<'a>(game: &'a Game, clock: &Clock) -> Observed<'a> {
        Observed {
            game,
            epoch: 0,
            clock: Some(clock.clone()),
            press: None,
            board: None,
            opponent: None,
        }
    }
    assert_eq!(sheet.follow(&seen(&game, &clock), t0), Vec::new());
    let mv = "e2e4"
        .parse::<shakmaty::uci::UciMove>()
        .expect("uci")
        .to_move(game.position())
        .expect("legal");
    let before = game.position().clone();
    game.play(mv).expect("played");
    // The sheet hears the change from the App's stream.
    sheet.hear(&crate::app::change::GameChange::Moved {
        before: Box::new(before),
        mv,
        by: shakmaty::Color::White,
        lapsed: None,
    });
    let ops = sheet.follow(&seen(&game, &clock), t0);
    assert!(
        matches!(
            &ops[..],
            [
                Effect::Journal(JournalOp::Begin(_)),
                Effect::Journal(JournalOp::Append(Event::Move { san, .. }))
            ] if san == "e4"
        ),
        "{ops:?}"
    );
    assert_eq!(sheet.follow(&seen(&game, &clock), t0), Vec::new());
    let failed = || {
        JournalStatus::Failed(crate::scoresheet::journal::JournalError {
            kind: JournalErrorKind::DiskFull,
            path: std::path::PathBuf::from("/nowhere"),
            detail: String::new(),
            first: true,
        })
    };
    assert!(matches!(
        handle_status(Some(&mut sheet), failed()),
        JournalNote::Failed(_)
    ));
    assert!(matches!(
        handle_status(Some(&mut sheet), failed()),
        JournalNote::Quiet
    ));
    assert!(matches!(
        handle_status(Some(&mut sheet), JournalStatus::Recovered { waited: 1 }),
        JournalNote::Recovered
    ));
    assert!(matches!(
        handle_status(Some(&mut sheet), failed()),
        JournalNote::Failed(_)
    ));
}

/// Issue 30, item 15: `new` did not say the game left was kept.  Now it
/// does when its journal holds it (not for a game with nothing written,
/// nor while the journal cannot be written).
#[test]
fn new_says_the_game_left_is_kept() {
    let mut a = app();
    run(&mut a, &["e4"]);
    let e = run(&mut a, &["new"]);
    assert_eq!(
        said(&e),
        vec![
            "The game before is kept with your saved games.",
            "New game. White to move."
        ]
    );
    let e = run(&mut a, &["new"]);
    assert_eq!(
        said(&e),
        vec!["New game. White to move."],
        "nothing to keep"
    );
}
