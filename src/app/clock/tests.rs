use super::*;
use crate::app::App;
use crate::app::tests::said;
use crate::clock::parse_spec;

use crate::msg::Msg;
use crate::speech::Utterance;

fn s(n: u64) -> Duration {
    Duration::from_secs(n)
}

fn app_with(spec: &str, f: impl FnOnce(&mut ClockSetup)) -> (App, Instant) {
    let mut setup = ClockSetup::new(parse_spec(spec).unwrap());
    f(&mut setup);
    let mut a = App::builder().clock(Some(setup)).build();
    let t0 = Instant::now();
    let _ = a.update(Msg::Start, t0);
    (a, t0)
}

fn utterances(e: &[Effect]) -> Vec<Utterance> {
    e.iter()
        .filter_map(|e| match e {
            Effect::Say(u) => Some(u.clone()),
            _ => None,
        })
        .collect()
}

fn line(a: &mut App, text: &str, now: Instant) -> Vec<String> {
    said(&a.update(Msg::Line(text.into()), now))
}

#[test]
fn a_resigned_game_stops_its_clock() {
    // Seen in the full-screen view: after a resignation the clock ran
    // on (only a mating move or a flag stopped it).
    let (mut a, t0) = app_with("5+0", |_| {});
    line(&mut a, "e4", t0 + s(1));
    line(&mut a, "resign", t0 + s(5));
    line(&mut a, "resign", t0 + s(5));
    assert!(a.game().is_over(), "resigned");
    let c = a.clock().unwrap();
    assert!(!c.is_running());
    assert_eq!(c.remaining(Color::Black, t0 + s(100)), s(296));
    assert_eq!(
        crate::view::ClockView::next_change(c, t0 + s(100)),
        None,
        "nothing left to redraw"
    );
}

#[test]
fn a_takeback_gives_the_clock_back_to_the_side_to_move() {
    // Seen in a game: after `takeback` White was to move while Black's
    // time ran on.
    let (mut a, t0) = app_with("5+0", |_| {});
    line(&mut a, "e4", t0 + s(10));
    line(&mut a, "takeback", t0 + s(12));
    let c = a.clock().unwrap();
    assert_eq!(c.side_to_move(), Some(Color::White));
    assert!(c.is_running());
    // Issue 30, item 1: the clock shows again what it showed before the
    // move (Black's two seconds are Black's again); White's time runs
    // again from there.
    assert_eq!(c.remaining(Color::Black, t0 + s(30)), s(300));
    assert_eq!(c.remaining(Color::White, t0 + s(30)), s(300 - 10 - 18));
    // A move waiting for its separate press is taken back with it.
    let (mut a, t0) = app_with("5+0", |c| c.press = PressMode::Separate);
    line(&mut a, "e4", t0 + s(10));
    line(&mut a, "takeback", t0 + s(11));
    line(&mut a, "d4", t0 + s(13));
    line(&mut a, "press", t0 + s(14));
    let c = a.clock().unwrap();
    assert_eq!(c.side_to_move(), Some(Color::Black));
    assert_eq!(c.remaining(Color::White, t0 + s(14)), s(287));
}

/// Issue 30, item 1: five rounds of a move and its take-back gained about
/// two minutes with the increment kept.  Now a move taken back keeps
/// neither its increment nor the opponent's time spent since.
#[test]
fn a_take_back_keeps_no_increment() {
    let (mut a, t0) = app_with("3+2", |_| {});
    line(&mut a, "e4", t0 + s(5));
    line(&mut a, "e5", t0 + s(8));
    let mut t = t0 + s(10);
    for _ in 0..5 {
        line(&mut a, "Nf3", t);
        t += s(1);
        line(&mut a, "takeback", t);
    }
    let c = a.clock().unwrap();
    assert_eq!(a.game().history().len(), 2);
    // White: 180 - 5 + 2 = 177, then 2 s thinking before the first Nf3.
    assert_eq!(c.remaining(Color::White, t), s(175));
    assert_eq!(c.remaining(Color::Black, t), s(179));
}

#[test]
fn without_a_clock_time_says_so_and_no_deadline() {
    let mut a = App::builder().build();
    let t0 = Instant::now();
    let _ = a.update(Msg::Start, t0);
    assert_eq!(a.next_deadline(), None);
    assert_eq!(
        line(&mut a, "time", t0),
        vec!["There is no clock in this game. Start hector with --time, for example --time 90+30."]
    );
    assert_eq!(line(&mut a, "time moves", t0), vec!["No moves played yet."]);
}

#[test]
fn a_typed_move_presses_and_time_answers_in_words() {
    let (mut a, t0) = app_with("5+3", |_| {});
    // The first thing due: 2 minutes left for White.
    assert_eq!(a.next_deadline(), Some(t0 + s(180)));
    line(&mut a, "e4", t0 + s(12));
    // White: 300 - 12 + 3; Black's time runs.
    assert_eq!(
        line(&mut a, "time", t0 + s(20)),
        vec!["White: four minutes fifty-one seconds. Black: four minutes fifty-two seconds."]
    );
    assert_eq!(
        line(&mut a, "time mine", t0 + s(20)),
        vec!["White: four minutes fifty-one seconds."]
    );
    assert_eq!(
        line(&mut a, "time theirs", t0 + s(20)),
        vec!["Black: four minutes fifty-two seconds."]
    );
    assert_eq!(
        line(&mut a, "time last", t0 + s(20)),
        vec!["White's last move took twelve seconds."]
    );
    assert_eq!(
        line(&mut a, "time moves", t0 + s(20)),
        vec!["One move played."]
    );
    let e = a.update(Msg::Line("time".into()), t0 + s(21));
    let u = &utterances(&e)[0];
    assert_eq!((u.kind, u.priority), (SayKind::Clock, Priority::Info));
}

#[test]
fn thresholds_are_said_at_their_deadline_never_before_a_move() {
    let (mut a, t0) = app_with("1+0", |_| {});
    // 30 s left at t0 + 30: the loop sleeps until then.
    assert_eq!(a.next_deadline(), Some(t0 + s(30)));
    let e = a.update(Msg::Deadline, t0 + s(30));
    let u = utterances(&e);
    assert_eq!(u[0].text, "White: thirty seconds left.");
    // A clock sentence: it waits behind moves and collapses when stale.
    assert_eq!(
        (u[0].kind, u[0].priority),
        (SayKind::Clock, Priority::Normal)
    );
    assert!(e.contains(&Effect::Tone(Tone::LowTime)));
    assert_eq!(a.next_deadline(), Some(t0 + s(50)));
    // A move and a threshold due at the same moment: the move first.
    let e = a.update(Msg::Line("e4".into()), t0 + s(50));
    assert_eq!(said(&e), vec!["White: ten seconds left.", "Bauer Eva vier"]);
}

#[test]
fn the_flag_fall_ends_the_game_with_its_result() {
    let (mut a, t0) = app_with("0:05+1", |_| {});
    line(&mut a, "e4", t0 + s(1));
    assert_eq!(a.next_deadline(), Some(t0 + s(6)));
    let e = a.update(Msg::Deadline, t0 + s(6));
    assert_eq!(
        said(&e),
        vec!["Black's flag has fallen. White wins, one to zero."]
    );
    assert!(e.contains(&Effect::Tone(Tone::FlagFall)));
    let u = &utterances(&e)[0];
    assert_eq!(u.priority, Priority::Urgent);
    assert_eq!(
        a.game().result().map(|r| r.reason),
        Some(EndReason::TimeForfeit)
    );
    assert_eq!(a.next_deadline(), None);
    assert_eq!(
        line(&mut a, "e5", t0 + s(7)),
        vec![
            "Game over: White won on time, Black's flag fell, one to zero. Say new for a new game."
        ]
    );
}

#[test]
fn a_move_typed_after_the_flag_fell_is_too_late() {
    let (mut a, t0) = app_with("0:05+1", |_| {});
    // The loop was busy: the move arrives after the deadline.
    let e = line(&mut a, "e4", t0 + s(5));
    assert_eq!(
        e,
        vec![
            "White's flag has fallen. Black wins, zero to one.",
            "Game over: Black won on time, White's flag fell, zero to one. Say new for a new game."
        ]
    );
    assert!(a.game().history().is_empty());
}

/// Issue 30, item 6: the draw says whose flag fell (and the prompt too).
#[test]
fn a_flag_against_a_lone_king_is_a_draw_that_says_whose_flag() {
    let from = |fen: &str| {
        let setup = ClockSetup::new(parse_spec("0:05+0").unwrap());
        let mut a = App::builder().clock(Some(setup)).build();
        a.game = Game::from_fen(fen).unwrap();
        let t0 = Instant::now();
        let _ = a.update(Msg::Start, t0);
        let mut said = said(&a.update(Msg::Deadline, t0 + s(5)));
        said.push(a.prompt());
        said
    };
    // White has a lone king. White's flag: Black can mate, a loss.
    assert_eq!(
        from("4k3/8/8/8/8/8/r7/4K3 w - - 0 1"),
        vec![
            "White's flag has fallen. Black wins, zero to one.",
            "Game over: Black won on time, White's flag fell, zero to one. Say new for a new game."
        ]
    );
    // Black's flag: White cannot mate, a draw (6.9).
    let drawn = vec![
        "Black's flag has fallen, but White cannot checkmate. Draw, half a point each.",
        "Game over: drawn, Black's flag fell but White could not checkmate, half a point each. Say new for a new game.",
    ];
    assert_eq!(from("4k3/8/8/8/8/8/r7/4K3 b - - 0 1"), drawn);
    // A pawn wall no king can pass: a draw too, though material remains.
    assert_eq!(
        from("k7/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/K7 b - - 0 1"),
        drawn
    );
}

#[test]
fn separate_press_d28() {
    let (mut a, t0) = app_with("5+0", |c| c.press = PressMode::Separate);
    line(&mut a, "e4", t0 + s(2));
    // White's time still runs until the press.
    assert_eq!(a.clock().and_then(Clock::side_to_move), Some(Color::White));
    assert_eq!(
        line(&mut a, "press", t0 + s(4)),
        vec!["White: four minutes fifty-six seconds."]
    );
    assert_eq!(a.clock().and_then(Clock::side_to_move), Some(Color::Black));
    assert_eq!(
        line(&mut a, "press", t0 + s(5)),
        vec!["There is no move to complete with the press."]
    );
    // The opponent's move presses their own clock.
    line(&mut a, "e5", t0 + s(6));
    assert_eq!(a.clock().and_then(Clock::side_to_move), Some(Color::White));
}

#[test]
fn pause_and_resume() {
    let (mut a, t0) = app_with("5+0", |_| {});
    assert_eq!(line(&mut a, "pause", t0 + s(10)), vec!["Clock stopped."]);
    assert_eq!(a.next_deadline(), None);
    assert_eq!(
        line(&mut a, "pause", t0 + s(11)),
        vec!["The clock is already stopped."]
    );
    // Issue 18: `time` said the times as if they ran.
    assert_eq!(
        line(&mut a, "time", t0 + s(50)),
        vec!["White: four minutes fifty seconds. Black: five minutes. The clock is stopped."]
    );
    assert_eq!(
        line(&mut a, "time black", t0 + s(50)),
        vec!["Black: five minutes. The clock is stopped."]
    );
    assert_eq!(line(&mut a, "resume", t0 + s(100)), vec!["Clock running."]);
    assert_eq!(
        line(&mut a, "time", t0 + s(100)),
        vec!["White: four minutes fifty seconds. Black: five minutes."]
    );
    // 290 s left: "2 minutes" is due 170 s after the resume.
    assert_eq!(a.next_deadline(), Some(t0 + s(100 + 170)));
}

/// A key that asks a question while the arbiter's confirmation waits
/// cancels it, said, as any line but yes does.  Before the one mode,
/// the arbiter's question stayed behind the new one, and the "yes"
/// meant for the new one confirmed the arbiter's instead.
#[test]
fn a_question_asked_by_a_key_cancels_the_arbiters_confirmation() {
    use crate::action::{KeyArg, PlayerAction};
    let setup = ClockSetup::new(parse_spec("5+0").unwrap());
    let mut a = App::builder()
        .clock(Some(setup))
        .ask_before_leaving(true)
        .build();
    let t0 = Instant::now();
    let _ = a.update(Msg::Start, t0);
    line(&mut a, "e4", t0);
    line(&mut a, "arbiter add black 2", t0);
    let e = a.update(Msg::Key(PlayerAction::Resign, KeyArg::None), t0);
    assert_eq!(
        said(&e),
        vec![
            "Arbiter action cancelled.",
            "Resigning ends the game. Say resign again to resign, or no to go on."
        ]
    );
    assert_eq!(line(&mut a, "no", t0), vec!["The game goes on."]);
    assert_eq!(line(&mut a, "time black", t0), vec!["Black: five minutes."]);
}

#[test]
fn arbiter_adds_time_after_yes_and_cancels_otherwise() {
    let (mut a, t0) = app_with("5+0", |_| {});
    assert_eq!(
        line(&mut a, "arbiter add black 2", t0),
        vec!["Arbiter: add two minutes to Black. Say yes to confirm; anything else cancels."]
    );
    assert_eq!(line(&mut a, "e4", t0), vec!["Arbiter action cancelled."]);
    assert!(a.game().history().is_empty(), "the line only cancelled");
    line(&mut a, "arbiter add black 2", t0);
    assert_eq!(
        line(&mut a, "yes", t0),
        vec!["Arbiter: add two minutes to Black. Done."]
    );
    assert_eq!(
        line(&mut a, "time black", t0),
        vec!["Black: seven minutes."]
    );
    line(&mut a, "arbiter stop", t0 + s(1));
    line(&mut a, "yes", t0 + s(1));
    assert_eq!(a.next_deadline(), None);
    line(&mut a, "arbiter result draw", t0 + s(2));
    assert_eq!(
        line(&mut a, "yes", t0 + s(2)),
        vec![
            "Arbiter: the result half a point each. Done.",
            "The arbiter declares the game drawn, half a point each."
        ]
    );
}

#[test]
fn illegal_moves_by_edition() {
    // 2018, standard: first +2 minutes to the opponent, second loses.
    let (mut a, t0) = app_with("90+30", |_| {});
    line(&mut a, "e4", t0 + s(1));
    line(&mut a, "arbiter illegal white", t0 + s(2));
    let t = line(&mut a, "yes", t0 + s(2));
    assert_eq!(
        t,
        vec![
            "Arbiter: an illegal move by White, the position before it restored. Done.",
            "Black gets two minutes."
        ]
    );
    assert!(a.game().history().is_empty());
    assert_eq!(a.clock().and_then(Clock::side_to_move), Some(Color::White));
    line(&mut a, "d4", t0 + s(3));
    line(&mut a, "arbiter illegal white", t0 + s(4));
    let t = line(&mut a, "yes", t0 + s(4));
    assert_eq!(
        t[1],
        "White loses for an illegal move. Black wins, zero to one."
    );
    // 1997: the second costs time, the third loses.
    let (mut b, t0) = app_with("90+30", |c| c.edition = Edition::Fide1997);
    for i in 0..2 {
        line(&mut b, "e4", t0);
        line(&mut b, "arbiter illegal white", t0);
        let t = line(&mut b, "yes", t0);
        assert_eq!(t[1], "Black gets two minutes.", "illegal move {i}");
    }
    line(&mut b, "e4", t0);
    line(&mut b, "arbiter illegal white", t0);
    assert!(line(&mut b, "yes", t0)[1].contains("zero to one"));
}

#[test]
fn incorrect_claims_cost_time_by_edition() {
    for (edition, expect) in [
        (
            Edition::Fide2018,
            "Incorrect claim: Black gets two minutes.",
        ),
        (
            Edition::Fide1997,
            "Incorrect claim: White loses three minutes; Black gets three minutes.",
        ),
    ] {
        let (mut a, t0) = app_with("90+30", |c| c.edition = edition);
        let t = line(&mut a, "claim", t0 + s(1));
        assert_eq!(t.last().map(String::as_str), Some(expect), "{edition}");
    }
}

#[test]
fn the_clock_stops_for_a_claim_and_runs_again_after_it() {
    // A correct claim: the game ends and the times stand still.
    let (mut a, t0) = app_with("5+0", |_| {});
    for (i, m) in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]
        .iter()
        .enumerate()
    {
        line(&mut a, m, t0 + s(i as u64 + 1));
    }
    let t = line(&mut a, "claim Ng8", t0 + s(10));
    assert!(
        t.last().is_some_and(|l| l.contains("half a point each")),
        "{t:?}"
    );
    let both = "White: four minutes fifty-six seconds. Black: four minutes fifty-four seconds.";
    assert_eq!(line(&mut a, "time", t0 + s(10)), vec![both]);
    assert_eq!(line(&mut a, "time", t0 + s(100)), vec![both]);
    // An incorrect claim on an intended move: the move is made and
    // presses the clock; the opponent's time runs (blitz: 1 minute
    // to White for the claim).
    let (mut a, t0) = app_with("5+0", |_| {});
    line(&mut a, "e4", t0 + s(1));
    let t = line(&mut a, "claim e5", t0 + s(3));
    assert!(t.contains(&"Bauer Eva fünf".to_string()), "{t:?}");
    assert_eq!(a.clock().and_then(Clock::side_to_move), Some(Color::White));
    assert!(a.clock().is_some_and(Clock::is_running));
    assert_eq!(
        line(&mut a, "time", t0 + s(13)),
        vec!["White: five minutes forty-nine seconds. Black: four minutes fifty-eight seconds."]
    );
    // An incorrect claim without a move: the claimant's time runs on.
    let (mut a, t0) = app_with("5+0", |_| {});
    line(&mut a, "claim", t0 + s(4));
    assert!(a.clock().is_some_and(Clock::is_running));
    assert_eq!(
        line(&mut a, "time white", t0 + s(10)),
        vec!["White: four minutes fifty seconds."]
    );
}

#[test]
fn the_arbiter_setting_the_move_counter_gives_periods_and_rearms() {
    let (mut a, t0) = app_with("2/1,1", |_| {});
    line(&mut a, "arbiter moves 2", t0 + s(10));
    let t = line(&mut a, "yes", t0 + s(10));
    assert_eq!(
        t,
        vec![
            "Arbiter: set the move counter to two. Done.",
            "White: two moves made; one minute added.",
            "Black: two moves made; one minute added."
        ]
    );
    assert_eq!(
        line(&mut a, "time", t0 + s(10)),
        vec!["White: one minute fifty seconds. Black: two minutes."]
    );
    // The 1-minute threshold, passed before, is armed again: said
    // when White's time reaches it.
    assert_eq!(a.next_deadline(), Some(t0 + s(60)));
    assert_eq!(
        said(&a.update(Msg::Deadline, t0 + s(60))),
        vec!["White: one minute left."]
    );
    // Set back and passed again by moves: no second minute.
    line(&mut a, "arbiter moves 1", t0 + s(61));
    line(&mut a, "yes", t0 + s(61));
    line(&mut a, "e4", t0 + s(62));
    let t = line(&mut a, "e5", t0 + s(63));
    assert_eq!(t, vec!["Bauer Eva fünf"]);
    assert_eq!(
        line(&mut a, "time black", t0 + s(63)),
        vec!["Black: one minute fifty-nine seconds."]
    );
}

#[test]
fn new_game_sets_the_clock_again() {
    let (mut a, t0) = app_with("1+0", |_| {});
    line(&mut a, "e4", t0 + s(20));
    line(&mut a, "new", t0 + s(30));
    assert_eq!(a.next_deadline(), Some(t0 + s(60)));
    assert_eq!(
        line(&mut a, "time", t0 + s(30)),
        vec!["White: one minute. Black: one minute."]
    );
}

/// The clock part on its own, on a virtual clock: quiet before anything
/// is due, the one-minute threshold, the flag, and nothing once over.
#[test]
fn the_clock_part_reports_what_time_brings() {
    let mut part = ClockPart::new(ClockSetup::new(parse_spec("2+0").unwrap()));
    let t0 = Instant::now();
    part.clock.start(Color::White, t0).unwrap();
    let game = Game::new();
    assert_eq!(part.handle_time(&game, t0 + s(10)), ClockNote::Quiet);
    let ClockNote::Announce(said) = part.handle_time(&game, t0 + s(61)) else {
        panic!("the one-minute mark is said")
    };
    assert!(
        matches!(
            said[..],
            [Announcement::Threshold {
                side: Color::White,
                ..
            }]
        ),
        "{said:?}"
    );
    assert_eq!(part.handle_time(&game, t0 + s(62)), ClockNote::Quiet);
    assert_eq!(
        part.handle_time(&game, t0 + s(121)),
        ClockNote::FlagFell(Color::White)
    );
    let mut over = Game::new();
    over.resign(Color::Black).unwrap();
    assert_eq!(part.handle_time(&over, t0 + s(200)), ClockNote::Quiet);
}

/// The clock part alone (no App): an illegal move's penalty gives the
/// opponent time first (said, journalled through `penalised`), and one
/// too many ends the game by the result it returns; the part does not
/// end the game itself.
#[test]
fn the_part_alone_penalises_illegal_moves_and_returns_the_end() {
    let t0 = Instant::now();
    let mut talk = App::builder().build().talk;
    let mut journal = crate::app::scoresheet::Journal::default();
    let game = Game::new();
    let mut part = ClockPart::new(ClockSetup::new(parse_spec("90+30").unwrap()));
    part.begin(&game, t0);
    let mut out = Vec::new();
    let v = &mut Voice::new(&mut talk, &mut out);
    let before = part.clock().remaining(Color::Black, t0);
    let end = part.penalised(
        Color::White,
        ("illegal-move", "7.5"),
        t0,
        &mut journal,
        |p| p.illegal_penalty(Color::White, &game, t0, v),
    );
    assert_eq!(end, None);
    assert!(part.clock().remaining(Color::Black, t0) > before);
    assert_eq!(said(&out).len(), 1, "{:?}", said(&out));
    let mut end = None;
    for _ in 0..3 {
        let v = &mut Voice::new(&mut talk, &mut out);
        end = part.illegal_penalty(Color::White, &game, t0, v);
        if end.is_some() {
            break;
        }
    }
    let end = end.expect("one illegal move too many ends the game");
    assert_eq!(end.reason, EndReason::IllegalMove);
    assert!(!part.clock().is_running(), "the clock stops");
}

/// `time` without a clock is left to the App (false); the moves of the
/// game are counted without one (D.2.6.1); with one, it is read and said.
#[test]
fn the_part_alone_says_the_time_or_leaves_no_clock_to_the_app() {
    let t0 = Instant::now();
    let mut talk = App::builder().build().talk;
    let mut journal = crate::app::scoresheet::Journal::default();
    let game = Game::new();
    let mut out = Vec::new();
    let v = &mut Voice::new(&mut talk, &mut out);
    assert!(!say_time(
        None,
        TimeQuery::Both,
        Color::White,
        &game,
        &mut journal,
        t0,
        v
    ));
    assert!(say_time(
        None,
        TimeQuery::Moves,
        Color::White,
        &game,
        &mut journal,
        t0,
        v
    ));
    let mut part = ClockPart::new(ClockSetup::new(parse_spec("5+0").unwrap()));
    part.begin(&game, t0);
    assert!(say_time(
        Some(&part),
        TimeQuery::Both,
        Color::White,
        &game,
        &mut journal,
        t0,
        v
    ));
    assert_eq!(said(&out).len(), 2);
    let v = &mut Voice::new(&mut talk, &mut out);
    // Paused: refused for no clock, paused and resumed with one.
    assert_eq!(pause(None, false, &game, t0, v), None);
    assert_eq!(pause(Some(&mut part), false, &game, t0, v), None);
    assert!(!part.clock().is_running());
    assert_eq!(pause(Some(&mut part), true, &game, t0, v), None);
    assert!(part.clock().is_running());
    assert_eq!(said(&out).len(), 5);
}
