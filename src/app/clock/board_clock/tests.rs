use super::super::ClockSetup;
use super::*;
use crate::app::App;
use crate::app::tests::said;
use crate::board::link::LinkEvent;
use crate::board::sim::{HandStep, SimBoard};
use crate::board::{BoardSession, Protocol, TrackerConfig};
use crate::clock::PressMode;
use crate::clock::{Clock, parse_spec};
use crate::game::Game;
use crate::game::rules::Edition;
use crate::msg::Effect;
use crate::msg::Msg;
use shakmaty::Board;
use shakmaty::san::San;
use shakmaty::{Position, Square};
use std::time::{Duration, Instant};

const SETTLE: Duration = Duration::from_millis(300);

fn s(n: u64) -> Duration {
    Duration::from_secs(n)
}

/// A game from `fen` (None: the start) with a DGT board connected at
/// `t0`, and hector's clock set by `spec` (None: none).
struct Table {
    a: App,
    sim: SimBoard,
    t0: Instant,
}

impl Table {
    fn new(fen: Option<&str>, spec: Option<&str>, f: impl FnOnce(&mut ClockSetup)) -> Table {
        let setup = spec.map(|spec| {
            let mut setup = ClockSetup::new(parse_spec(spec).unwrap());
            f(&mut setup);
            setup
        });
        let mut a = App::builder().clock(setup).build();
        if let Some(fen) = fen {
            a.game = Game::from_fen(fen).unwrap();
        }
        let config = TrackerConfig {
            settle: SETTLE,
            detect_rotation: false,
            ..TrackerConfig::default()
        };
        a.attach_board(BoardSession::new(
            Protocol::Dgt,
            config,
            a.game().position(),
            false,
        ));
        let t0 = Instant::now();
        let _ = a.update(Msg::Start, t0);
        let _ = a.update(Msg::Board(LinkEvent::Connected), t0);
        let sim = SimBoard::new(Protocol::Dgt, a.game().position().board().clone());
        let e = a.update(Msg::Board(LinkEvent::Bytes(sim.dump())), t0);
        assert_eq!(said(&e), vec!["Board connected."]);
        Table { a, sim, t0 }
    }

    fn at(&self, secs: u64) -> Instant {
        self.t0 + s(secs)
    }

    /// The clock on the board shows White `white` and Black `black`
    /// seconds (White on the left), the lever high on `high`'s side.
    fn clock(&mut self, white: u64, black: u64, high: Option<Color>, at: Instant) -> Vec<String> {
        self.clock_flag(white, black, high, None, at)
    }

    fn clock_flag(
        &mut self,
        white: u64,
        black: u64,
        high: Option<Color>,
        flag: Option<Color>,
        at: Instant,
    ) -> Vec<String> {
        let side = |c: Color| match c {
            Color::White => ClockSide::Left,
            Color::Black => ClockSide::Right,
        };
        let r = ClockReading {
            left: s(white),
            right: s(black),
            left_flag: flag == Some(Color::White),
            right_flag: flag == Some(Color::Black),
            running: high.is_some(),
            high: high.map_or(ClockSide::Left, side),
            battery_low: false,
        };
        let bytes = self.sim.clock(&r);
        said(&self.a.update(Msg::Board(LinkEvent::Bytes(bytes)), at))
    }

    fn line(&mut self, text: &str, at: Instant) -> Vec<String> {
        said(&self.a.update(Msg::Line(text.into()), at))
    }

    fn act(&mut self, action: HandStep, at: Instant) -> Vec<String> {
        let bytes = self.sim.act(action);
        said(&self.a.update(Msg::Board(LinkEvent::Bytes(bytes)), at))
    }

    /// Play `san` on the board (the game's position).
    fn play(&mut self, san: &str, at: Instant) -> Vec<String> {
        let pos = self.a.game().position().clone();
        let m = san
            .parse::<San>()
            .ok()
            .and_then(|s| s.to_move(&pos).ok())
            .unwrap_or_else(|| panic!("{san} is legal"));
        let mut out = Vec::new();
        for bytes in self.sim.play(&pos, m, false) {
            out.extend(said(
                &self.a.update(Msg::Board(LinkEvent::Bytes(bytes)), at),
            ));
        }
        out
    }

    fn running(&self) -> Option<Color> {
        self.a
            .clock()
            .filter(|c| c.is_running())
            .and_then(Clock::side_to_move)
    }
}

#[test]
fn the_clock_on_the_board_is_followed_and_its_lever_presses() {
    // No --time: the clock on the board brings the clock.
    let mut t = Table::new(None, None, |_| {});
    assert!(t.a.clock().is_none());
    let at = t.at(0);
    assert_eq!(
        t.clock(125, 125, Some(Color::White), at),
        vec!["Clock on the board: hector says its times."]
    );
    assert_eq!(
        t.line("time", t.at(1)),
        vec!["White: two minutes four seconds. Black: two minutes five seconds."]
    );
    // The same thresholds as hector's own clock, worked out between
    // two readings: 2 minutes for White 5 s after the reading.
    assert_eq!(t.a.next_deadline(), Some(t.at(5)));
    assert_eq!(
        said(&t.a.update(Msg::Deadline, t.at(5))),
        vec!["White: two minutes left."]
    );
    // A move on the board does not press: the lever does.
    assert_eq!(t.play("e4", t.at(6)), vec!["Bauer Eva vier"]);
    // Readings while White's move goes on (one a second on a board).
    assert!(t.clock(120, 125, Some(Color::White), t.at(6)).is_empty());
    assert_eq!(t.running(), Some(Color::White));
    assert!(t.clock(119, 125, Some(Color::Black), t.at(7)).is_empty());
    assert_eq!(t.running(), Some(Color::Black));
    assert_eq!(
        t.line("time last", t.at(8)),
        vec!["White's last move took seven seconds."]
    );
    assert_eq!(
        t.line("time white", t.at(8)),
        vec!["White: one minute fifty-nine seconds."]
    );
    // A reading below a threshold says it (Black's clock).
    assert_eq!(
        t.clock(119, 120, Some(Color::Black), t.at(12)),
        vec!["Black: two minutes left."]
    );
    // hector's own press and pause are the clock's buttons now.
    assert_eq!(
        t.line("pause", t.at(13)),
        vec!["The clock on the board keeps the time: use its lever and its buttons."]
    );
    // The next thing due is Black's minute, at the reading's 2:00
    // less 1:00; never a flag of hector's own: the board's clock
    // shows it.
    assert_eq!(t.a.next_deadline(), Some(t.at(72)));
    assert!(said(&t.a.update(Msg::Deadline, t.at(180))).is_empty());
    assert_eq!(
        t.clock_flag(119, 0, Some(Color::Black), Some(Color::Black), t.at(200)),
        vec!["Black's flag has fallen. White wins, one to zero."]
    );
    assert_eq!(
        t.a.game().result().map(|r| r.reason),
        Some(crate::game::EndReason::TimeForfeit)
    );
}

#[test]
fn thresholds_already_passed_when_the_clock_is_found_are_not_said() {
    // hector's own clock was set to 90 minutes; the clock on the board
    // shows 1:30 left: nothing of 10, 5 or 2 minutes is said.
    let mut t = Table::new(None, Some("90+30"), |_| {});
    assert_eq!(
        t.clock(90, 300, Some(Color::White), t.at(1)),
        vec!["Clock on the board: hector says its times."]
    );
    assert_eq!(t.a.next_deadline(), Some(t.at(31)));
    assert_eq!(
        said(&t.a.update(Msg::Deadline, t.at(31))),
        vec!["White: one minute left."]
    );
    // A new game: the clock set again is read afresh.
    t.line("new", t.at(40));
    assert!(t.clock(95, 95, Some(Color::White), t.at(41)).is_empty());
    assert_eq!(t.a.next_deadline(), Some(t.at(76)));
}

#[test]
fn the_side_of_the_clock_is_seen_from_whose_time_runs() {
    // White sits at the right of the clock: its time runs first.
    let mut t = Table::new(None, Some("40/90,30"), |_| {});
    let reading = ClockReading {
        left: s(5400),
        right: s(5399),
        left_flag: false,
        right_flag: false,
        running: true,
        high: ClockSide::Right,
        battery_low: false,
    };
    let bytes = t.sim.clock(&reading);
    let e = t.a.update(Msg::Board(LinkEvent::Bytes(bytes)), t.at(1));
    assert_eq!(said(&e), vec!["Clock on the board: hector says its times."]);
    assert_eq!(
        t.line("time white", t.at(1)),
        vec!["White: one hour twenty-nine minutes fifty-nine seconds."]
    );
    // The clock brought its own times: hector's 90 minutes give way.
    assert_eq!(t.running(), Some(Color::White));
}

#[test]
fn the_lever_pressed_on_an_illegal_move_completes_it() {
    let mut t = Table::new(None, Some("90+30"), |_| {});
    t.clock(5400, 5400, Some(Color::White), t.at(0));
    t.act(HandStep::Lift(Square::G1), t.at(1));
    t.act(HandStep::Place(Square::G3, Color::White.knight()), t.at(1));
    // Pressed before the settle time: complete, and illegal (7.5.1).
    let e = t.clock(5399, 5400, Some(Color::Black), t.at(1));
    assert_eq!(
        e,
        vec![
            "Illegal move on the board. Put the pieces back as they were.",
            "Black gets two minutes."
        ]
    );
    assert!(t.a.game().history().is_empty());
    // Put back, the knight moved legally, pressed: a move.
    t.act(HandStep::Lift(Square::G3), t.at(2));
    t.act(HandStep::Place(Square::G1, Color::White.knight()), t.at(2));
    t.clock(5399, 5520, Some(Color::White), t.at(3));
    assert_eq!(t.play("Nf3", t.at(4)), vec!["Springer Felix drei"]);
    assert!(t.clock(5398, 5520, Some(Color::Black), t.at(4)).is_empty());
    assert_eq!(t.a.game().history().len(), 1);
    // Black's second illegal move is its first: 2 minutes to White.
    t.act(HandStep::Lift(Square::B8), t.at(5));
    t.act(HandStep::Place(Square::B6, Color::Black.knight()), t.at(5));
    let e = t.clock(5398, 5519, Some(Color::White), t.at(6));
    assert_eq!(e[1], "White gets two minutes.");
    // Its second loses; the clock stands still from then on, and
    // nothing more is said of it.
    t.act(HandStep::Lift(Square::B6), t.at(7));
    t.act(HandStep::Place(Square::B8, Color::Black.knight()), t.at(7));
    t.clock(5520, 5519, Some(Color::Black), t.at(8));
    t.act(HandStep::Lift(Square::G8), t.at(9));
    t.act(HandStep::Place(Square::G5, Color::Black.knight()), t.at(9));
    let e = t.clock(5520, 5518, Some(Color::White), t.at(10));
    assert_eq!(
        e[1],
        "Black loses for an illegal move. White wins, one to zero."
    );
    assert_eq!(e.len(), 2, "{e:?}");
    assert!(!t.a.clock().is_some_and(Clock::is_running));
    assert!(t.clock(5519, 5518, Some(Color::White), t.at(11)).is_empty());
    // White's one move was counted once, though the arbiter moved the
    // lever back over it.
    assert_eq!(t.a.clock().map(|c| c.moves(Color::White)), Some(1));
}

#[test]
fn a_move_waiting_for_its_settle_time_is_complete_at_the_press() {
    let mut t = Table::new(None, Some("90+30"), |_| {});
    t.clock(5400, 5400, Some(Color::White), t.at(0));
    // A rook's pawn could go on: e3 waits for the settle time.
    assert!(t.play("e3", t.at(1)).is_empty());
    assert_eq!(
        t.clock(5399, 5400, Some(Color::Black), t.at(1)),
        vec!["Bauer Eva drei"]
    );
    assert_eq!(t.a.game().history().len(), 1);
}

#[test]
fn pressing_without_moving_by_edition() {
    for (edition, expect) in [
        (
            Edition::Fide2018,
            vec![
                "White pressed the clock without moving: that counts as an illegal move.",
                "Black gets two minutes.",
            ],
        ),
        (Edition::Fide2017, vec![]),
    ] {
        let mut t = Table::new(None, Some("90+30"), |c| c.edition = edition);
        t.clock(5400, 5400, Some(Color::White), t.at(0));
        assert_eq!(
            t.clock(5399, 5400, Some(Color::Black), t.at(1)),
            expect,
            "{edition}"
        );
    }
    // Black starting White's clock at the start is no move of Black's.
    let mut t = Table::new(None, Some("90+30"), |_| {});
    t.clock(5400, 5400, None, t.at(0));
    assert!(t.clock(5400, 5400, Some(Color::White), t.at(1)).is_empty());
    assert_eq!(t.a.clock().map(|c| c.moves(Color::Black)), Some(0));
}

#[test]
fn an_unpromoted_pawn_becomes_a_queen_and_is_penalised() {
    let fen = "8/4P3/8/8/8/8/8/k3K3 w - - 0 1";
    let mut t = Table::new(Some(fen), Some("90+30"), |_| {});
    t.clock(5400, 5400, Some(Color::White), t.at(0));
    t.act(HandStep::Lift(Square::E7), t.at(1));
    t.act(HandStep::Place(Square::E8, Color::White.pawn()), t.at(1));
    let e = t.clock(5399, 5400, Some(Color::Black), t.at(2));
    assert_eq!(
        e[..3],
        [
            "The pawn was not promoted: it becomes a queen.",
            "Bauer Eva acht wird Dame",
            "Black gets two minutes."
        ]
    );
    assert_eq!(
        e.get(3).map(String::as_str),
        Some(
            "On your board: white Bauer from Eva sieben to Eva acht. \
                 Put the white Dame on Eva acht instead of the pawn."
        )
    );
    assert_eq!(t.a.game().history().len(), 1);
    // The press counted the move.
    assert_eq!(t.a.clock().map(|c| c.moves(Color::White)), Some(1));
    // 1997: no queen; an illegal move like any other.
    let mut t = Table::new(Some(fen), Some("90+30"), |c| c.edition = Edition::Fide1997);
    t.clock(5400, 5400, Some(Color::White), t.at(0));
    t.act(HandStep::Lift(Square::E7), t.at(1));
    t.act(HandStep::Place(Square::E8, Color::White.pawn()), t.at(1));
    let e = t.clock(5399, 5400, Some(Color::Black), t.at(2));
    assert_eq!(e[1], "Black gets two minutes.");
    assert!(t.a.game().history().is_empty());
}

#[test]
fn an_illegal_move_announced_is_completed_when_the_announcement_presses() {
    // hector's own clock, pressed by the announcement: the announced
    // illegal move is complete (7.5.1): 2 minutes, then the game.
    let mut t = Table::new(None, Some("90+30"), |_| {});
    t.act(HandStep::Lift(Square::G1), t.at(1));
    t.act(HandStep::Place(Square::G3, Color::White.knight()), t.at(1));
    let e = said(&t.a.update(Msg::Deadline, t.at(1) + SETTLE));
    assert_eq!(
        e[0],
        "Illegal move on the board. Put the pieces back as they were."
    );
    assert_eq!(e[1], "Black gets two minutes.");
    assert_eq!(
        t.line("time black", t.at(2)),
        vec!["Black: one hour thirty-two minutes."]
    );
    t.act(HandStep::Lift(Square::G3), t.at(3));
    t.act(HandStep::Place(Square::G1, Color::White.knight()), t.at(3));
    t.act(HandStep::Lift(Square::B1), t.at(4));
    t.act(HandStep::Place(Square::B4, Color::White.knight()), t.at(4));
    let e = said(&t.a.update(Msg::Deadline, t.at(4) + SETTLE));
    assert_eq!(
        e[1],
        "White loses for an illegal move. Black wins, zero to one."
    );
    // With separate presses the announcement completes nothing.
    let mut t = Table::new(None, Some("90+30"), |c| c.press = PressMode::Separate);
    t.act(HandStep::Lift(Square::G1), t.at(1));
    t.act(HandStep::Place(Square::G3, Color::White.knight()), t.at(1));
    let e = said(&t.a.update(Msg::Deadline, t.at(1) + SETTLE));
    assert_eq!(e.len(), 2, "{e:?}");
    assert!(e[1].starts_with("Mismatch"), "{e:?}");
    // ... the press does (7.5.1).
    assert_eq!(
        t.line("press", t.at(2)),
        vec![
            "Illegal move on the board. Put the pieces back as they were.",
            "Black gets two minutes."
        ]
    );
}

#[test]
fn the_press_command_on_an_unpromoted_pawn() {
    let fen = "8/4P3/8/8/8/8/8/k3K3 w - - 0 1";
    let mut t = Table::new(Some(fen), Some("90+30"), |c| c.press = PressMode::Separate);
    t.act(HandStep::Lift(Square::E7), t.at(1));
    t.act(HandStep::Place(Square::E8, Color::White.pawn()), t.at(1));
    let e = t.line("press", t.at(2));
    assert_eq!(
        e[..3],
        [
            "The pawn was not promoted: it becomes a queen.",
            "Bauer Eva acht wird Dame",
            "Black gets two minutes."
        ]
    );
    // The press then completes the move: Black's time runs.
    assert_eq!(
        e.last().map(String::as_str),
        Some("White: one hour thirty minutes twenty-eight seconds.")
    );
    assert_eq!(t.running(), Some(Color::Black));
}

#[test]
fn the_press_command_without_a_move_by_edition() {
    let mut t = Table::new(None, Some("90+30"), |c| c.press = PressMode::Separate);
    assert_eq!(
        t.line("press", t.at(1)),
        vec![
            "White pressed the clock without moving: that counts as an illegal move.",
            "Black gets two minutes."
        ]
    );
    let mut t = Table::new(None, Some("90+30"), |c| {
        c.press = PressMode::Separate;
        c.edition = Edition::Fide2017;
    });
    assert_eq!(
        t.line("press", t.at(1)),
        vec!["There is no move to complete with the press."]
    );
}

#[test]
fn the_journal_has_the_presses_and_penalties_not_every_reading() {
    use crate::scoresheet::JournalOp;
    use crate::scoresheet::record::{ClockEvent, Event, StartInfo};
    let mut t = Table::new(None, Some("90+30"), |_| {});
    t.a.enable_journal(StartInfo::default());
    let t0 = t.t0;
    let feed = |t: &mut Table, r: (u64, u64, Color), at: Instant| {
        let side = |c: Color| match c {
            Color::White => ClockSide::Left,
            Color::Black => ClockSide::Right,
        };
        let reading = ClockReading {
            left: s(r.0),
            right: s(r.1),
            left_flag: false,
            right_flag: false,
            running: true,
            high: side(r.2),
            battery_low: false,
        };
        let bytes = t.sim.clock(&reading);
        t.a.update(Msg::Board(LinkEvent::Bytes(bytes)), at)
    };
    let mut effects = feed(&mut t, (5400, 5400, Color::White), t0);
    t.play("e4", t0 + s(1));
    for i in 1..5 {
        effects.extend(feed(&mut t, (5400 - i, 5400, Color::White), t0 + s(i)));
    }
    effects.extend(feed(&mut t, (5426, 5400, Color::Black), t0 + s(5)));
    for i in 6..9 {
        effects.extend(feed(&mut t, (5426, 5405 - i, Color::Black), t0 + s(i)));
    }
    t.act(HandStep::Lift(Square::G8), t0 + s(9));
    t.act(
        HandStep::Place(Square::G5, Color::Black.knight()),
        t0 + s(9),
    );
    effects.extend(feed(&mut t, (5426, 5396, Color::White), t0 + s(10)));
    let kinds: Vec<&str> = effects
        .iter()
        .flat_map(|e| match e {
            Effect::Journal(JournalOp::Append(ev)) => vec![ev.clone()],
            Effect::Journal(JournalOp::AppendAll(evs)) => evs.clone(),
            _ => Vec::new(),
        })
        .map(|ev| match ev {
            Event::Clock(ClockEvent::Press { .. }) => "press",
            Event::Clock(_) => "clock",
            Event::Penalty(_) => "penalty",
            _ => "other",
        })
        .collect();
    // A reading a second; recorded: White's press, Black's illegal move
    // completed by its press (the penalty, and the clock as it stood).
    assert_eq!(kinds, vec!["press", "penalty", "clock"], "{effects:?}");
}

#[test]
fn a_clock_that_goes_away_is_said() {
    let mut t = Table::new(None, None, |_| {});
    t.clock(300, 300, Some(Color::White), t.at(0));
    let mut bytes = vec![0x8d, 0, 10, 0, 0, 0, 0, 0, 0, 0x20];
    let e = t.a.update(
        Msg::Board(LinkEvent::Bytes(std::mem::take(&mut bytes))),
        t.at(1),
    );
    assert_eq!(said(&e), vec!["The clock on the board no longer answers."]);
    assert_eq!(t.a.next_deadline(), None);
    let _ = Board::new();
}

/// The clock part alone (no App): a clock on the board found makes the
/// game's clock follow it; White's press after White's move is a press
/// said and counted once; a flag shown is returned, not decided.
#[test]
fn the_part_alone_follows_a_board_clock_its_lever_and_its_flag() {
    let t0 = Instant::now();
    let mut talk = App::builder().build().talk;
    let mut out = Vec::new();
    let reading = |left: u64, right: u64, high: ClockSide, flag: bool| ClockReading {
        left: s(left),
        right: s(right),
        left_flag: false,
        right_flag: flag,
        running: true,
        high,
        battery_low: false,
    };
    let mut game = Game::new();
    let mut slot: Option<ClockPart> = None;
    // The first reading: White (left, high) to move; a clock is made for it.
    let m = ClockMessage::Reading(reading(300, 300, ClockSide::Left, false));
    let v = &mut Voice::new(&mut talk, &mut out);
    let r = ClockPart::on_board_message(&mut slot, m, &game, t0, v).unwrap();
    assert_eq!(r.presser, None);
    assert_eq!(said(&out).len(), 1, "found: {:?}", said(&out));
    let v = &mut Voice::new(&mut talk, &mut out);
    let part = slot.as_mut().unwrap();
    assert!(part.follows_board());
    part.follow_reading(&r, false, &game, t0, v);
    assert_eq!(part.after_reading(&r, &game, t0, v), None);
    // White moves, then presses: the lever goes down on the left.
    let e4 = San::from_ascii(b"e4")
        .unwrap()
        .to_move(game.position())
        .unwrap();
    game.play(e4).unwrap();
    let m = ClockMessage::Reading(reading(290, 300, ClockSide::Right, false));
    let r = ClockPart::on_board_message(&mut slot, m, &game, t0 + s(10), v).unwrap();
    assert_eq!(r.presser, Some(shakmaty::Color::White));
    let part = slot.as_mut().unwrap();
    assert!(part.lever_completes(shakmaty::Color::White, &game));
    part.follow_reading(&r, true, &game, t0 + s(10), v);
    assert!(
        !part.lever_completes(shakmaty::Color::White, &game),
        "counted once"
    );
    assert_eq!(
        part.clock().remaining(shakmaty::Color::White, t0 + s(10)),
        s(290)
    );
    // Black's flag (right) shows: returned for the App to end the game.
    let m = ClockMessage::Reading(reading(290, 0, ClockSide::Right, true));
    let r = ClockPart::on_board_message(&mut slot, m, &game, t0 + s(400), v).unwrap();
    let part = slot.as_mut().unwrap();
    part.follow_reading(&r, false, &game, t0 + s(400), v);
    let flag = part.after_reading(&r, &game, t0 + s(400), v);
    assert_eq!(flag, Some(shakmaty::Color::Black));
    // The clock gone from the board: said, and the clock stops.
    let before = said(&out).len();
    let v = &mut Voice::new(&mut talk, &mut out);
    let none = ClockPart::on_board_message(&mut slot, ClockMessage::NoClock, &game, t0, v);
    assert_eq!(none, None);
    assert_eq!(said(&out).len(), before + 1);
    assert!(!slot.unwrap().clock().is_running());
}

/// The pawn the board shows on the last rank unpromoted becomes a queen
/// (7.5.2); any other piece, or a square short of the last rank, is none.
#[test]
fn an_unpromoted_pawn_on_the_last_rank_is_a_queen_promotion() {
    let game = Game::from_fen("8/P6k/8/8/8/8/8/K7 w - - 0 1").unwrap();
    let mv = unpromoted_pawn(&game, Square::A7, Square::A8).unwrap();
    assert_eq!(mv.promotion(), Some(shakmaty::Role::Queen));
    assert_eq!(unpromoted_pawn(&game, Square::A1, Square::A2), None);
    assert_eq!(unpromoted_pawn(&game, Square::A7, Square::B8), None);
}
