use std::time::{Duration, Instant};

use super::*;
use crate::app::App;
use crate::app::tests::said;
use crate::engine::EngineIo;
use crate::msg::Msg;

/// An app playing Black's side... White against a fake engine whose
/// lines the test types, on a virtual clock.
struct Rig {
    app: App,
    t0: Instant,
    sent: Vec<String>,
    generation: u64,
}

impl Rig {
    fn new(me: Color) -> Rig {
        let mut app = App::builder().me(me).build();
        app.set_engine(EngineSetup {
            program: Some("fake".into()),
            ..EngineSetup::default()
        });
        let mut rig = Rig {
            app,
            t0: Instant::now(),
            sent: Vec::new(),
            generation: 0,
        };
        rig.msg(0, Msg::Start);
        rig
    }

    fn at(&self, ms: u64) -> Instant {
        self.t0 + Duration::from_millis(ms)
    }

    fn msg(&mut self, ms: u64, m: Msg) -> Vec<String> {
        let now = self.at(ms);
        let effects = self.app.update(m, now);
        let mut said = Vec::new();
        for e in effects {
            match e {
                Effect::Say(u) => said.push(u.text),
                Effect::Engine(EngineOrder::Start { generation, .. }) => {
                    self.generation = generation;
                }
                Effect::Engine(EngineOrder::Send { line, .. }) => self.sent.push(line),
                _ => {}
            }
        }
        said
    }

    fn engine(&mut self, ms: u64, line: &str) -> Vec<String> {
        let io = EngineIo {
            generation: self.generation,
            event: ProcessEvent::Line(line.into()),
        };
        self.msg(ms, Msg::Engine(io))
    }

    fn typed(&mut self, ms: u64, line: &str) -> Vec<String> {
        self.msg(ms, Msg::Line(line.into()))
    }

    fn sent(&mut self) -> Vec<String> {
        std::mem::take(&mut self.sent)
    }

    fn ready(me: Color) -> Rig {
        let mut r = Rig::new(me);
        r.engine(1, "id name Fake");
        r.engine(1, "uciok");
        let said = r.engine(2, "readyok");
        let side = if me == Color::White { "White" } else { "Black" };
        assert_eq!(said, [format!("Fake is ready; you play {side}.")]);
        r
    }
}

#[test]
fn engines_move_is_announced_as_the_opponents_and_hint_follows() {
    let mut r = Rig::ready(Color::White);
    assert_eq!(r.sent(), ["uci", "ucinewgame", "isready"]);
    assert_eq!(r.typed(10, "hint"), Vec::<String>::new());
    assert_eq!(r.sent(), ["position startpos", "go movetime 500"]);
    assert_eq!(r.engine(500, "bestmove e2e4"), ["Hint: Bauer Eva vier."]);
    assert_eq!(r.typed(600, "c4"), ["Bauer Cesar vier"]);
    assert_eq!(
        r.sent(),
        ["position startpos moves c2c4", "go movetime 1000"]
    );
    assert_eq!(r.engine(1_600, "bestmove e7e5"), ["Bauer Eva fünf"]);
    r.typed(1_700, "hint");
    assert_eq!(
        r.sent(),
        ["position startpos moves c2c4 e7e5", "go movetime 500"]
    );
}

fn effects(r: &mut Rig, ms: u64, m: Msg) -> Vec<Effect> {
    let now = r.at(ms);
    r.app.update(m, now)
}

/// A rig whose game has a clock of `spec`.
fn ready_on_clock(me: Color, spec: &str) -> Rig {
    let control = crate::clock::spec::parse(spec).expect("a clock");
    let mut app = App::builder()
        .me(me)
        .clock(Some(super::super::ClockSetup::new(control)))
        .build();
    app.set_engine(EngineSetup {
        program: Some("fake".into()),
        ..EngineSetup::default()
    });
    let mut r = Rig {
        app,
        t0: Instant::now(),
        sent: Vec::new(),
        generation: 0,
    };
    r.msg(0, Msg::Start);
    r.engine(1, "uciok");
    r.engine(2, "readyok");
    r
}

#[test]
fn on_a_running_clock_the_engine_gets_both_times_and_its_move_presses_it() {
    // 5 minutes + 2 seconds; the player (White) thinks 10 s.
    let mut r = ready_on_clock(Color::White, "5+2");
    r.sent();
    r.typed(10_000, "e4");
    // White's clock: 300 s - 10 s + 2 s; Black's untouched.
    assert_eq!(
        r.sent(),
        [
            "position startpos moves e2e4",
            "go wtime 292000 btime 300000 winc 2000 binc 2000 movetime 11500"
        ]
    );
    // The engine thinks 3 s: its move presses its clock.
    assert_eq!(r.engine(13_000, "bestmove e7e5"), ["Bauer Eva fünf"]);
    let clock = r.app.clock().expect("a clock");
    assert_eq!(clock.moves(Color::Black), 1);
    assert_eq!(clock.side_to_move(), Some(Color::White));
    assert_eq!(
        clock.remaining(Color::Black, r.at(13_000)),
        Duration::from_secs(299)
    );
    // A hint still thinks for its own time, not on the clock.
    r.typed(14_000, "hint");
    assert_eq!(r.sent().last().map(String::as_str), Some("go movetime 500"));
    r.engine(14_500, "bestmove g1f3");
    r.typed(15_000, "Nf3");
    assert_eq!(
        r.sent(),
        [
            "position startpos moves e2e4 e7e5 g1f3",
            "go wtime 292000 btime 299000 winc 2000 binc 2000 movetime 11466"
        ]
    );
    // The hang deadline: the longest it may think (the cap sent as
    // movetime), and the margin.
    assert_eq!(
        r.app
            .parts
            .engine
            .as_ref()
            .and_then(EnginePlay::next_deadline),
        Some(r.at(15_000 + 11_466 + 3_000))
    );
}

#[test]
fn moves_to_go_counts_to_the_next_time_control() {
    let mut r = ready_on_clock(Color::Black, "40/90+30,30+30");
    let sent = r.sent();
    assert_eq!(
        &sent[sent.len() - 2..],
        [
            "position startpos",
            "go wtime 5400000 btime 5400000 winc 30000 binc 30000 movestogo 40 movetime 202500"
        ]
    );
}

#[test]
fn a_paused_clock_gives_the_engine_its_time_per_move() {
    let mut r = ready_on_clock(Color::White, "5+2");
    r.sent();
    r.typed(10, "pause");
    r.typed(20, "e4");
    assert_eq!(
        r.sent(),
        ["position startpos moves e2e4", "go movetime 1000"]
    );
}

#[test]
fn engine_plays_first_when_the_player_is_black() {
    let mut r = Rig::new(Color::Black);
    r.engine(1, "uciok");
    r.engine(2, "readyok");
    let sent = r.sent();
    assert_eq!(
        &sent[sent.len() - 2..],
        ["position startpos", "go movetime 1000"]
    );
    let generation = r.generation;
    let e = effects(
        &mut r,
        900,
        Msg::Engine(EngineIo {
            generation,
            event: ProcessEvent::Line("bestmove d2d4".into()),
        }),
    );
    // Urgent, with the opponent's tone: never cut off.
    assert!(e.iter().any(|x| matches!(x, Effect::Say(u)
        if u.text == "Bauer David vier" && u.priority == Priority::Urgent)));
    assert!(e.contains(&Effect::Tone(crate::audio::Tone::OpponentMove)));
}

#[test]
fn a_move_typed_for_the_engine_while_it_thinks_is_refused() {
    let mut r = Rig::ready(Color::White);
    r.typed(10, "e4");
    assert_eq!(
        r.typed(20, "e5"),
        ["The engine is thinking; wait for its move."]
    );
    // Issue 18: a line that is no move at all is judged first.
    let said = r.typed(25, "xyz");
    assert_eq!(said.len(), 1);
    assert!(!said[0].contains("engine"), "{said:?}");
    assert!(said[0].contains("xyz"), "{said:?}");
    assert_eq!(r.app.game().history().len(), 1);
    assert_eq!(
        r.typed(30, "hint"),
        ["The engine is thinking about its move; ask again after it."]
    );
}

#[test]
fn the_restart_is_named_and_understood_in_the_players_words() {
    for (lang, restart) in [
        (Lang::De, "schachprogramm neustart"),
        (Lang::It, "motore riavvia"),
        (Lang::El, "μηχανή επανεκκίνηση"),
    ] {
        let mut app = App::builder().me(Color::White).lang(lang).build();
        app.set_engine(EngineSetup {
            program: Some("fake".into()),
            ..EngineSetup::default()
        });
        let mut r = Rig {
            app,
            t0: Instant::now(),
            sent: Vec::new(),
            generation: 0,
        };
        r.msg(0, Msg::Start);
        r.engine(1, "uciok");
        r.engine(2, "readyok");
        r.typed(10, "e4");
        let generation = r.generation;
        let said = r.msg(
            20,
            Msg::Engine(EngineIo {
                generation,
                event: ProcessEvent::Exited(None),
            }),
        );
        assert!(said[0].ends_with(&format!("{restart}.")), "{said:?}");
        let old = r.generation;
        r.typed(30, restart);
        assert_eq!(r.generation, old + 1, "{restart}");
    }
}

#[test]
fn fault_is_said_once_the_engine_killed_and_the_keyboard_plays_on() {
    let mut r = Rig::ready(Color::White);
    r.typed(10, "e4");
    let generation = r.generation;
    let e = effects(
        &mut r,
        20,
        Msg::Engine(EngineIo {
            generation,
            event: ProcessEvent::Exited(None),
        }),
    );
    let said: Vec<&str> = e
        .iter()
        .filter_map(|x| match x {
            Effect::Say(u) => Some(u.text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(
        said,
        [
            "The engine stopped working. The game is as it was: play on at the keyboard, or say engine restart."
        ]
    );
    assert!(e.contains(&Effect::Engine(EngineOrder::Kill {
        generation: r.generation
    })));
    // Late lines of the dead engine and its exit again: nothing.
    assert!(r.engine(30, "bestmove e7e5").is_empty());
    // Black's move at the keyboard.
    assert_eq!(r.typed(40, "e5"), ["Bauer Eva fünf"]);
    // Restart: a new generation; the old one's lines are ignored.
    let old = r.generation;
    assert_eq!(
        r.typed(50, "engine restart"),
        ["Starting the engine again."]
    );
    assert_eq!(r.generation, old + 1);
    assert!(r.sent().ends_with(&["uci".to_owned()]));
    let stale = EngineIo {
        generation: old,
        event: ProcessEvent::Line("uciok".into()),
    };
    assert!(r.msg(60, Msg::Engine(stale)).is_empty());
    r.engine(70, "id name Fake");
    r.engine(70, "uciok");
    assert_eq!(r.engine(80, "readyok"), ["Fake is ready; you play White."]);
}

/// Issue 18: a draw offer to the engine was never answered.
#[test]
fn a_draw_offer_is_answered_by_the_engines_evaluation() {
    let mut r = Rig::ready(Color::White);
    r.typed(10, "e4");
    r.engine(900, "bestmove e7e5");
    r.typed(1_000, "Nf3");
    assert_eq!(r.typed(1_010, "draw"), ["White offers a draw."]);
    // Black sees itself about equal: declines, and moves.
    r.engine(1_500, "info depth 12 score cp -20 pv b8c6");
    assert_eq!(
        r.engine(1_900, "bestmove b8c6"),
        ["Black declines the draw.", "Springer Cesar sechs"]
    );
    assert_eq!(r.app.game().pending_offer(), None);
    r.typed(2_000, "Bc4");
    r.typed(2_010, "draw");
    // Black worse by most of a pawn (the engine scores from its side).
    r.engine(2_500, "info depth 12 score cp -90 pv g8f6");
    assert_eq!(
        r.engine(2_900, "bestmove g8f6"),
        ["Draw accepted.", "Draw by agreement, half a point each."]
    );
    assert!(r.app.game().is_over());
    assert_eq!(r.app.game().history().len(), 5, "no move after the draw");
}

/// Issue 18: the engine's name was not recorded as its player's name.
#[test]
fn the_engines_name_is_its_players_name_on_the_scoresheet() {
    use crate::scoresheet::StartInfo;
    for (given, expected) in [("", "Fake"), ("Deep Thought", "Deep Thought")] {
        let mut r = Rig::new(Color::White);
        r.app.enable_journal(StartInfo {
            white: "Anna".into(),
            black: given.into(),
            ..StartInfo::default()
        });
        r.engine(1, "id name Fake");
        r.engine(1, "uciok");
        r.engine(2, "readyok");
        r.typed(10, "e4");
        let rec = r.app.parts.journal.in_memory().expect("begun");
        assert_eq!(
            (rec.start.white.as_str(), rec.start.black.as_str()),
            ("Anna", expected)
        );
    }
}

/// Issue 18: a silent engine (`/bin/cat`) gave 10 s of silence.
#[test]
fn a_silent_engine_is_said_to_be_waited_for_after_two_seconds() {
    let mut r = Rig::new(Color::White);
    assert!(r.msg(1_999, Msg::Deadline).is_empty());
    assert_eq!(r.msg(2_000, Msg::Deadline), ["Waiting for the engine."]);
    // Once; then the hang at its own deadline.
    assert!(r.msg(5_000, Msg::Deadline).is_empty());
    assert_eq!(r.app.next_deadline(), Some(r.at(10_000)));
    let said = r.msg(10_000, Msg::Deadline);
    assert!(
        said[0].starts_with("The engine does not answer."),
        "{said:?}"
    );
}

#[test]
fn hang_is_found_by_the_deadline_message() {
    let mut r = Rig::ready(Color::White);
    r.typed(10, "e4");
    // 1 s to think and 3 s of margin.
    assert_eq!(r.app.next_deadline(), Some(r.at(4_010)));
    assert!(r.msg(4_009, Msg::Deadline).is_empty());
    assert_eq!(
        r.msg(4_010, Msg::Deadline),
        [
            "The engine does not answer. The game is as it was: play on at the keyboard, or say engine restart."
        ]
    );
    assert_eq!(r.app.next_deadline(), None);
}

#[test]
fn takeback_of_the_pair_and_a_stale_answer_is_dropped() {
    let mut r = Rig::ready(Color::White);
    r.typed(10, "e4");
    r.engine(900, "bestmove e7e5");
    r.typed(1_000, "d4");
    r.sent();
    // Taken back while the engine thinks: the player's move only, and
    // the search is stopped.
    assert_eq!(
        r.typed(1_100, "takeback"),
        ["Taken back: Bauer David vier."]
    );
    assert_eq!(r.sent(), ["stop"]);
    assert!(
        r.engine(1_150, "bestmove d7d5").is_empty(),
        "stale: not played"
    );
    assert_eq!(r.app.game().history().len(), 2);
    // On the player's move: the pair.
    assert_eq!(
        r.typed(1_200, "takeback"),
        ["Taken back: Bauer Eva vier, Bauer Eva fünf."]
    );
    assert_eq!(r.app.game().history().len(), 0);
    assert_eq!(
        r.typed(1_300, "takeback"),
        ["There is no move to take back."]
    );
}

fn typed_in(a: &mut App, now: Instant, line: &str) -> Vec<String> {
    said(&a.update(Msg::Line(line.into()), now))
}

/// Issue 18, item 9: `takeback` undid a resignation, and a mate, at
/// once.  A finished game stays finished: in a two-player game both
/// players may agree to reopen it; against the engine, never; in a
/// rated game, never.
#[test]
fn a_finished_game_stays_finished() {
    let now = Instant::now();
    let mut a = App::builder().build();
    for l in ["e4", "e5"] {
        typed_in(&mut a, now, l);
    }
    assert_eq!(
        typed_in(&mut a, now, "resign"),
        ["White resigns. Black wins, zero to one."]
    );
    assert_eq!(
        typed_in(&mut a, now, "takeback"),
        [
            "The game is over. Taking back Bauer Eva fünf reopens it only if both players agree. \
              Say yes if you both agree, or no."
        ]
    );
    assert_eq!(typed_in(&mut a, now, "no"), ["The result stands."]);
    assert!(a.game().is_over());
    // Any other line leaves the question: still over.
    typed_in(&mut a, now, "takeback");
    typed_in(&mut a, now, "turn");
    assert!(a.game().is_over());
    typed_in(&mut a, now, "takeback");
    assert_eq!(
        typed_in(&mut a, now, "yes"),
        ["Taken back: Bauer Eva fünf."]
    );
    assert!(!a.game().is_over());
    assert_eq!(a.game().history().len(), 1);

    // Fool's mate against the engine: refused.
    let mut r = Rig::ready(Color::Black);
    r.engine(100, "bestmove f2f3");
    r.typed(200, "e5");
    r.engine(300, "bestmove g2g4");
    r.typed(400, "Qh4");
    assert!(r.app.game().is_over());
    assert_eq!(
        r.typed(500, "takeback"),
        ["The game is over, and a finished game is not taken back. Say new for a new game."]
    );
    // No question waits: yes is a draw acceptance, and the game is over.
    assert_eq!(
        r.typed(600, "yes"),
        ["Game over: Black won by checkmate, zero to one. Say new for a new game."]
    );
    assert!(r.app.game().is_over());

    // Rated: refused.
    let mut a = App::builder().build();
    a.set_rated(true);
    typed_in(&mut a, now, "e4");
    typed_in(&mut a, now, "resign");
    assert_eq!(typed_in(&mut a, now, "takeback"), ["Not in a rated game."]);
    assert!(a.game().is_over());
}

/// A flag fall is not the players' to undo: refused, even with both
/// players at one keyboard; an agreed take-back after a resignation
/// lets the clock run again.
#[test]
fn a_flag_fall_is_never_taken_back_and_an_agreed_takeback_restarts_the_clock() {
    let setup = super::super::ClockSetup::new(crate::clock::spec::parse("0:10+0").unwrap());
    let mut a = App::builder().clock(Some(setup.clone())).build();
    let t0 = Instant::now();
    let _ = a.update(Msg::Start, t0);
    typed_in(&mut a, t0 + Duration::from_secs(1), "e4");
    let _ = a.update(Msg::Deadline, t0 + Duration::from_secs(12));
    assert!(a.game().is_over());
    assert_eq!(
        typed_in(&mut a, t0 + Duration::from_secs(13), "takeback"),
        ["The game is over, and a finished game is not taken back. Say new for a new game."]
    );
    let mut a = App::builder().clock(Some(setup)).build();
    let _ = a.update(Msg::Start, t0);
    typed_in(&mut a, t0 + Duration::from_secs(1), "e4");
    typed_in(&mut a, t0 + Duration::from_secs(2), "resign");
    typed_in(&mut a, t0 + Duration::from_secs(3), "takeback");
    typed_in(&mut a, t0 + Duration::from_secs(3), "yes");
    let c = a.clock().expect("a clock");
    assert!(c.is_running());
    assert_eq!(c.side_to_move(), Some(Color::White));
}

#[test]
fn eval_and_threat_in_words() {
    let mut r = Rig::ready(Color::White);
    r.typed(10, "eval");
    r.engine(20, "info depth 10 score cp 112 pv e2e4");
    assert_eq!(
        r.engine(500, "bestmove e2e4"),
        ["White is better by about a pawn."]
    );
    r.typed(600, "threat");
    assert_eq!(r.sent().last().map(String::as_str), Some("go movetime 500"));
    assert_eq!(
        r.engine(1_100, "bestmove e7e5"),
        ["The threat: Bauer Eva fünf."]
    );
    r.typed(1_200, "e4");
    r.engine(2_000, "bestmove d8h4");
}

#[test]
fn rated_and_no_engine() {
    let mut r = Rig::ready(Color::White);
    r.app.set_rated(true);
    assert_eq!(r.typed(10, "hint"), ["Not in a rated game."]);
    assert_eq!(r.typed(10, "takeback"), ["Not in a rated game."]);
    let mut plain = App::builder().build();
    let said = |e: Vec<Effect>| -> Vec<String> {
        e.into_iter()
            .filter_map(|x| match x {
                Effect::Say(u) => Some(u.text),
                _ => None,
            })
            .collect()
    };
    let now = Instant::now();
    assert_eq!(
        said(plain.update(Msg::Line("eval".into()), now)),
        ["There is no engine in this game."]
    );
    let _ = plain.update(Msg::Line("e4".into()), now);
    assert_eq!(
        said(plain.update(Msg::Line("takeback".into()), now)),
        ["Taken back: Bauer Eva vier."]
    );
}

#[test]
fn end_of_input_waits_for_the_engines_move() {
    let mut r = Rig::ready(Color::White);
    r.typed(10, "e4");
    let e = effects(&mut r, 20, Msg::EndOfInput);
    assert!(!e.contains(&Effect::Quit));
    let generation = r.generation;
    let e = effects(
        &mut r,
        900,
        Msg::Engine(EngineIo {
            generation,
            event: ProcessEvent::Line("bestmove e7e5".into()),
        }),
    );
    assert!(
        e.iter()
            .any(|x| matches!(x, Effect::Say(u) if u.text == "Bauer Eva fünf"))
    );
    assert_eq!(e.last(), Some(&Effect::Quit));
}

/// A ready rig with a DGT board attached and answering; e4 made on
/// it, e5 the engine's answer (awaited on the board).
fn board_rig() -> (Rig, crate::board::sim::SimBoard) {
    use crate::board::sim::SimBoard;
    use crate::board::{BoardSession, LinkEvent, Protocol, TrackerConfig};
    use shakmaty::{Board, Chess, Square};
    let mut r = Rig::ready(Color::White);
    let config = TrackerConfig {
        detect_rotation: false,
        ..TrackerConfig::default()
    };
    r.app.attach_board(BoardSession::new(
        Protocol::Dgt,
        config,
        &Chess::default(),
        false,
    ));
    let mut sim = SimBoard::new(Protocol::Dgt, Board::new());
    r.msg(3, Msg::Board(LinkEvent::Connected));
    r.msg(3, Msg::Board(LinkEvent::Bytes(sim.dump())));
    let start = Chess::default();
    let e4 = start
        .legal_moves()
        .into_iter()
        .find(|m| m.to() == Square::E4)
        .expect("e4");
    let mut said = Vec::new();
    for bytes in sim.play(&start, e4, false) {
        said.extend(r.msg(10, Msg::Board(LinkEvent::Bytes(bytes))));
    }
    assert_eq!(said, ["Bauer Eva vier"]);
    assert_eq!(
        r.engine(900, "bestmove e7e5"),
        [
            "Bauer Eva fünf",
            "On your board: black Bauer from Eva sieben to Eva fünf."
        ]
    );
    (r, sim)
}

/// e5 made on the board of a [`board_rig`].
fn make_e5(r: &mut Rig, sim: &mut crate::board::sim::SimBoard) {
    use crate::board::LinkEvent;
    use crate::board::sim::HandStep;
    use shakmaty::Square;
    let mut said = r.msg(
        950,
        Msg::Board(LinkEvent::Bytes(sim.act(HandStep::Lift(Square::E7)))),
    );
    said.extend(r.msg(
        960,
        Msg::Board(LinkEvent::Bytes(
            sim.act(HandStep::Place(Square::E5, Color::Black.pawn())),
        )),
    ));
    assert_eq!(said, ["Done: Bauer Eva fünf."]);
}

#[test]
fn moves_never_made_on_the_board_are_taken_back_at_once() {
    use crate::board::sim::SimBoard;
    use crate::board::{BoardSession, LinkEvent, Protocol, TrackerConfig};
    use shakmaty::{Board, Chess};
    let mut r = Rig::ready(Color::White);
    r.app.attach_board(BoardSession::new(
        Protocol::Dgt,
        TrackerConfig::default(),
        &Chess::default(),
        false,
    ));
    let sim = SimBoard::new(Protocol::Dgt, Board::new());
    r.msg(3, Msg::Board(LinkEvent::Connected));
    r.msg(3, Msg::Board(LinkEvent::Bytes(sim.dump())));
    // e4 typed, e5 the engine's: neither made on the board.
    r.typed(10, "e4");
    r.engine(900, "bestmove e7e5");
    // Both awaited on the board in order, no mismatch said (issue 18):
    // nothing to resolve when they are taken back.
    assert_eq!(
        r.typed(1_000, "takeback"),
        ["Taken back: Bauer Eva vier, Bauer Eva fünf."]
    );
    assert_eq!(r.app.game().history().len(), 0);
}

#[test]
fn a_takeback_awaited_on_a_board_that_goes_away_is_made_in_the_game() {
    use crate::board::{LinkEvent, PortError};
    let (mut r, mut sim) = board_rig();
    make_e5(&mut r, &mut sim);
    assert_eq!(
        r.typed(1_000, "takeback"),
        ["On your board, take back: Bauer Eva fünf, Bauer Eva vier."]
    );
    assert_eq!(r.app.game().history().len(), 2);
    let said = r.msg(1_100, Msg::Board(LinkEvent::Disconnected(PortError::Gone)));
    assert_eq!(
        said,
        [
            "Board disconnected. Play on with the keyboard.",
            "Taken back: Bauer Eva vier, Bauer Eva fünf."
        ]
    );
    assert_eq!(r.app.game().history().len(), 0);
}

#[test]
fn a_new_game_gives_up_an_awaited_takeback() {
    let (mut r, mut sim) = board_rig();
    make_e5(&mut r, &mut sim);
    r.typed(1_000, "takeback");
    // (The board still shows the old game: a mismatch follows.)
    let said = r.typed(1_100, "new");
    assert_eq!(
        said.first().map(String::as_str),
        Some("New game. White to move.")
    );
    r.engine(1_150, "readyok");
    // Nothing of the old take-back is left.
    assert_eq!(
        r.typed(1_160, "takeback"),
        ["There is no move to take back."]
    );
    // The engine is not held back by the old take-back: as White's
    // opponent it waits for the player's move, and then answers.
    r.sent();
    r.typed(1_200, "d4");
    assert!(
        r.sent().iter().any(|l| l.starts_with("go ")),
        "the engine thinks again"
    );
}

#[test]
fn takeback_with_the_engines_move_not_yet_on_the_board() {
    use crate::board::LinkEvent;
    use crate::board::sim::HandStep;
    use shakmaty::Square;
    let (mut r, mut sim) = board_rig();
    // Taken back before e5 was made on the board: e5 at once, e4 on
    // the board.
    r.sent();
    assert_eq!(
        r.typed(1_000, "takeback"),
        ["On your board, take back: Bauer Eva vier."]
    );
    assert_eq!(r.app.game().history().len(), 1);
    assert!(r.sent().iter().all(|l| !l.starts_with("go")));
    let mut said = r.msg(
        1_100,
        Msg::Board(LinkEvent::Bytes(sim.act(HandStep::Lift(Square::E4)))),
    );
    said.extend(r.msg(
        1_200,
        Msg::Board(LinkEvent::Bytes(
            sim.act(HandStep::Place(Square::E2, Color::White.pawn())),
        )),
    ));
    assert_eq!(said, ["Taken back: Bauer Eva vier, Bauer Eva fünf."]);
    assert_eq!(r.app.game().history().len(), 0);
    // The player's move again, typed this time.
    assert_eq!(
        r.typed(1_300, "d4"),
        [
            "Bauer David vier",
            "On your board: white Bauer from David zwei to David vier."
        ]
    );
    assert_eq!(
        r.sent(),
        ["position startpos moves d2d4", "go movetime 1000"]
    );
}

/// The part on its own, without an App: `game` with the moves of `uci`
/// played.
fn game_after(uci: &[&str]) -> crate::game::Game {
    let mut game = crate::game::Game::new();
    for text in uci {
        let mv = text
            .parse::<shakmaty::uci::UciMove>()
            .expect("uci")
            .to_move(game.position())
            .expect("legal");
        game.play(mv).expect("played");
    }
    game
}

/// The engine part ready for a game, with the orders it gave.
fn part_ready(t0: Instant) -> (EnginePlay, Vec<String>) {
    let mut part = EnginePlay::new(EngineSetup {
        program: Some("fake".into()),
        ..EngineSetup::default()
    });
    let EngineNote::Order(EngineOrder::Start { generation: 1, .. }) = part.start(t0) else {
        panic!("a start with generation 1");
    };
    let game = game_after(&[]);
    let mut lines = Vec::new();
    let mut ready = None;
    for line in ["", "uciok", "readyok"] {
        if !line.is_empty() {
            let event = ProcessEvent::Line(line.into());
            part.handle_io(
                EngineIo {
                    generation: 1,
                    event,
                },
                t0,
            );
        }
        loop {
            let notes = part.poll(&game);
            if notes.is_empty() {
                break;
            }
            for n in notes {
                match n {
                    EngineNote::Order(EngineOrder::Send { line, .. }) => lines.push(line),
                    EngineNote::Ready(name) => ready = Some(name),
                    other => panic!("{other:?}"),
                }
            }
        }
    }
    assert_eq!(ready.as_deref(), Some("fake"), "named after its program");
    (part, lines)
}

/// The part decides alone, from the game it is shown: the engine's turn,
/// its search, and an answer about a position taken back is passed over
/// while one about the game as it is comes out as a note.
#[test]
fn the_engine_part_searches_its_turn_and_passes_over_a_stale_answer() {
    let t0 = Instant::now();
    let (mut part, lines) = part_ready(t0);
    assert_eq!(lines, ["uci", "ucinewgame", "isready"]);
    let after_e4 = game_after(&["e2e4"]);
    assert!(part.has_the_move(&after_e4, Color::White, false));
    assert!(!part.has_the_move(&after_e4, Color::White, true), "held");
    assert!(!part.has_the_move(&after_e4, Color::Black, false));
    part.ask_move(&after_e4, true, None, t0);
    let sent: Vec<_> = part
        .poll(&after_e4)
        .into_iter()
        .map(|n| match n {
            EngineNote::Order(EngineOrder::Send { line, .. }) => line,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(sent, ["position startpos moves e2e4", "go movetime 1000"]);
    // The move was taken back meanwhile: the answer is not about this game.
    let io = |line: &str| EngineIo {
        generation: 1,
        event: ProcessEvent::Line(line.into()),
    };
    part.handle_io(io("bestmove e7e5"), t0 + Duration::from_millis(900));
    assert!(part.poll(&game_after(&[])).is_empty());
    // Asked again, its answer about the game as it is comes out.
    part.ask_move(&after_e4, true, None, t0 + Duration::from_secs(1));
    let _ = part.poll(&after_e4);
    part.handle_io(io("bestmove c7c5"), t0 + Duration::from_secs(2));
    let notes = part.poll(&after_e4);
    assert!(
        matches!(&notes[..], [EngineNote::Answer(r)] if r.purpose == Purpose::Move && r.best.to_string().contains("c5")),
        "{notes:?}"
    );
    // Lines of another generation are not this engine's.
    part.handle_io(
        EngineIo {
            generation: 7,
            event: ProcessEvent::Line("bestmove a7a6".into()),
        },
        t0 + Duration::from_secs(3),
    );
    assert!(part.poll(&after_e4).is_empty());
}

/// A fault comes out as a phrase and then the order that kills the
/// process; a search asked of a game that is over is said to be over.
#[test]
fn the_engine_part_notes_a_fault_then_kills_and_refuses_a_game_over() {
    let t0 = Instant::now();
    let (mut part, _) = part_ready(t0);
    let mut over = game_after(&[]);
    over.resign(Color::White).expect("resigned");
    part.ask(EngineAsk::Search(Purpose::Hint));
    assert!(matches!(
        &part.carry_out(&over, None, t0)[..],
        [EngineNote::GameOver]
    ));
    part.handle_io(
        EngineIo {
            generation: 1,
            event: ProcessEvent::Exited(None),
        },
        t0,
    );
    let notes = part.poll(&over);
    assert!(
        matches!(
            &notes[..],
            [
                EngineNote::Fault {
                    key: "engine_crashed",
                    ..
                },
                EngineNote::Order(EngineOrder::Kill { generation: 1 })
            ]
        ),
        "{notes:?}"
    );
    assert!(!part.has_the_move(&game_after(&["e2e4"]), Color::White, false));
    // Started again: a new generation.
    assert!(matches!(
        part.start(t0),
        EngineNote::Order(EngineOrder::Start { generation: 2, .. })
    ));
}

/// The part alone answers the player's draw offer by its search's
/// evaluation: accepted when the engine (Black here) is worse, declined
/// when it is not or says no score, and no answer without an offer.
#[test]
fn the_part_alone_answers_the_players_draw_offer_by_its_evaluation() {
    use crate::engine::Score;
    let mut game = Game::new();
    assert_eq!(
        answers_offer(Some(Score::Cp(300)), &game, Color::White),
        None
    );
    game.offer_draw(Color::White).unwrap();
    assert_eq!(
        answers_offer(Some(Score::Cp(300)), &game, Color::White),
        Some(true)
    );
    assert_eq!(
        answers_offer(Some(Score::Cp(0)), &game, Color::White),
        Some(false)
    );
    assert_eq!(answers_offer(None, &game, Color::White), Some(false));
    // The engine's own offer is not the player's.
    assert_eq!(
        answers_offer(Some(Score::Cp(300)), &game, Color::Black),
        None
    );
}
