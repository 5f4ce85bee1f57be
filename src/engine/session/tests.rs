//! The session on a virtual clock: every test feeds lines and instants and
//! reads what would be written and said.

use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, Move, Position};

use super::*;
use crate::engine::settings::Strength;

const STOCKFISH_UCI: &[&str] = &[
    "Stockfish 15.1 by the Stockfish developers (see AUTHORS file)",
    "id name Stockfish 15.1",
    "id author the Stockfish developers (see AUTHORS file)",
    "",
    "option name Debug Log File type string default ",
    "option name Threads type spin default 1 min 1 max 1024",
    "option name Hash type spin default 16 min 1 max 33554432",
    "option name Clear Hash type button",
    "option name Ponder type check default false",
    "option name MultiPV type spin default 1 min 1 max 500",
    "option name Skill Level type spin default 20 min 0 max 20",
    "option name UCI_Chess960 type check default false",
    "option name UCI_LimitStrength type check default false",
    "option name UCI_Elo type spin default 1350 min 1350 max 2850",
    "uciok",
];

struct Bench {
    s: EngineSession,
    t0: Instant,
}

impl Bench {
    fn new(settings: EngineSettings) -> Bench {
        Bench {
            s: EngineSession::new(settings, Timeouts::default()),
            t0: Instant::now(),
        }
    }

    fn at(&self, ms: u64) -> Instant {
        self.t0 + Duration::from_millis(ms)
    }

    fn feed(&mut self, ms: u64, lines: &[&str]) {
        let now = self.at(ms);
        for l in lines {
            self.s.handle_line(l, now);
        }
    }

    fn sent(&mut self) -> Vec<String> {
        std::iter::from_fn(|| self.s.poll_transmit()).collect()
    }

    fn events(&mut self) -> Vec<EngineEvent> {
        std::iter::from_fn(|| self.s.poll_event()).collect()
    }

    /// Through the handshake with Stockfish's options.
    fn ready(settings: EngineSettings) -> Bench {
        let mut b = Bench::new(settings);
        b.s.start(b.at(0));
        b.feed(10, STOCKFISH_UCI);
        b.feed(20, &["readyok"]);
        b.sent();
        b.events();
        assert!(b.s.is_ready());
        b
    }
}

fn uci(pos: &Chess, s: &str) -> Move {
    s.parse::<UciMove>()
        .expect("uci")
        .to_move(pos)
        .expect("legal")
}

fn request(purpose: Purpose, moves: &[&str], limit: Limit) -> SearchRequest {
    let mut pos = Chess::default();
    let mut ms = Vec::new();
    for m in moves {
        let mv = uci(&pos, m);
        pos.play_unchecked(mv);
        ms.push(mv);
    }
    SearchRequest {
        purpose,
        start: Chess::default(),
        mode: CastlingMode::Standard,
        moves: ms,
        limit,
    }
}

const HALF_SECOND: Limit = Limit::MoveTime(Duration::from_millis(500));

fn faults(events: &[EngineEvent]) -> Vec<Fault> {
    events
        .iter()
        .filter_map(|e| match e {
            EngineEvent::Fault(f) => Some(f.clone()),
            _ => None,
        })
        .collect()
}

fn best(events: &[EngineEvent]) -> Vec<SearchResult> {
    events
        .iter()
        .filter_map(|e| match e {
            EngineEvent::BestMove(r) => Some(r.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn handshake_sets_offered_options_then_ready() {
    let mut b = Bench::new(EngineSettings {
        strength: Strength::Level(4),
        threads: Some(1),
        hash_mb: Some(32),
        ..EngineSettings::default()
    });
    b.s.start(b.at(0));
    assert_eq!(b.sent(), ["uci"]);
    // First the notice of a slow handshake, then the hang.
    assert_eq!(b.s.next_deadline(), Some(b.at(2_000)));
    b.feed(10, STOCKFISH_UCI);
    assert_eq!(
        b.sent(),
        [
            "setoption name Threads value 1",
            "setoption name Hash value 32",
            "setoption name Skill Level value 4",
            "ucinewgame",
            "isready"
        ]
    );
    assert_eq!(b.s.next_deadline(), Some(b.at(20_010)));
    assert!(b.events().is_empty(), "nothing said before readyok");
    b.feed(30, &["readyok"]);
    let ev = b.events();
    assert!(matches!(
        ev.as_slice(),
        [EngineEvent::Ready { name: Some(n) }] if n == "Stockfish 15.1"
    ));
    assert!(b.s.is_ready());
    assert_eq!(b.s.next_deadline(), None);
}

#[test]
fn elo_not_offered_is_one_note() {
    let mut b = Bench::new(EngineSettings {
        strength: Strength::Elo(1600),
        ..EngineSettings::default()
    });
    b.s.start(b.at(0));
    b.feed(10, &["id name Tiny", "uciok"]);
    assert_eq!(b.sent(), ["uci", "ucinewgame", "isready"]);
    let ev = b.events();
    assert!(matches!(
        ev.as_slice(),
        [EngineEvent::Note(OptionNote::NotOffered(Wanted::Elo))]
    ));
    let (key, _) = OptionNote::NotOffered(Wanted::Elo).phrase();
    assert_eq!(key, "engine_no_elo");
}

#[test]
fn elo_sets_limit_strength() {
    let mut b = Bench::new(EngineSettings {
        strength: Strength::Elo(1600),
        ..EngineSettings::default()
    });
    b.s.start(b.at(0));
    b.feed(10, STOCKFISH_UCI);
    let sent = b.sent();
    assert!(sent.contains(&"setoption name UCI_LimitStrength value true".to_owned()));
    assert!(sent.contains(&"setoption name UCI_Elo value 1600".to_owned()));
}

#[test]
fn no_uciok_is_a_hang_said_once() {
    let mut b = Bench::new(EngineSettings::default());
    b.s.start(b.at(0));
    // An echo (`/bin/cat`) is no answer.
    b.feed(5, &["uci"]);
    b.s.handle_timeout(b.at(1_999));
    assert!(b.events().is_empty());
    // Issue 18: the wait is said after two seconds, once.
    b.s.handle_timeout(b.at(2_000));
    assert!(matches!(b.events().as_slice(), [EngineEvent::Silent]));
    b.s.handle_timeout(b.at(9_999));
    assert!(b.events().is_empty());
    b.s.handle_timeout(b.at(10_000));
    assert_eq!(
        faults(&b.events()),
        [Fault::Hung {
            waiting: Waiting::Handshake
        }]
    );
    b.s.handle_timeout(b.at(20_000));
    b.s.handle_exit(None);
    assert!(b.events().is_empty(), "a fault is said once");
    assert!(b.s.is_over());
}

#[test]
fn no_readyok_is_a_hang() {
    let mut b = Bench::new(EngineSettings::default());
    b.s.start(b.at(0));
    b.feed(10, &["uciok"]);
    b.s.handle_timeout(b.at(20_010));
    assert_eq!(
        faults(&b.events()),
        [Fault::Hung {
            waiting: Waiting::Ready
        }]
    );
}

#[test]
fn search_sends_position_and_go_and_returns_a_legal_move_with_score() {
    let mut b = Bench::ready(EngineSettings::default());
    let id =
        b.s.search(request(Purpose::Move, &["e2e4"], HALF_SECOND), b.at(100))
            .expect("search");
    assert_eq!(
        b.sent(),
        ["position startpos moves e2e4", "go movetime 500"]
    );
    assert!(b.s.thinking_about_move());
    // Black to move: +35 for Black is -35 from White's side.
    b.feed(
        300,
        &[
            "info depth 1 seldepth 1 multipv 1 score cp 35 nodes 20 nps 10000 hashfull 0 tbhits 0 time 2 pv c7c5",
            "info depth 2 seldepth 2 multipv 1 score cp 40 lowerbound nodes 40 nps 10000 time 3 pv c7c5",
            "bestmove e7e5 ponder g1f3",
        ],
    );
    let r = best(&b.events());
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].id, id);
    assert_eq!(r[0].purpose, Purpose::Move);
    assert_eq!(r[0].score, Some(Score::Cp(-35)));
    assert_eq!(r[0].best.to_string(), "e7-e5");
    assert_eq!(r[0].ponder.map(|m| m.to_string()), Some("Ng1-f3".into()));
    assert!(b.s.is_ready());
    assert!(b.sent().is_empty(), "no ponder unless set");
}

#[test]
fn mate_score_from_the_side_to_move() {
    let mut b = Bench::ready(EngineSettings::default());
    b.s.search(
        request(Purpose::Eval, &["f2f3", "e7e5", "g2g4"], HALF_SECOND),
        b.at(0),
    )
    .expect("search");
    b.feed(50, &["info depth 1 score mate 1 pv d8h4", "bestmove d8h4"]);
    let r = best(&b.events());
    assert_eq!(
        r[0].score,
        Some(Score::Mate {
            winner: Color::Black,
            moves: 1
        })
    );
}

#[test]
fn search_before_ready_waits_for_readyok() {
    let mut b = Bench::new(EngineSettings::default());
    b.s.start(b.at(0));
    b.s.search(request(Purpose::Move, &[], HALF_SECOND), b.at(1))
        .expect("queued");
    assert_eq!(b.sent(), ["uci"]);
    b.feed(10, &["uciok"]);
    assert_eq!(b.sent(), ["ucinewgame", "isready"]);
    b.feed(20, &["readyok"]);
    assert_eq!(b.sent(), ["position startpos", "go movetime 500"]);
    // Its deadline counts from when it was sent.
    assert_eq!(b.s.next_deadline(), Some(b.at(20 + 500 + 3_000)));
}

#[test]
fn no_bestmove_in_time_plus_margin_is_a_hang() {
    let mut b = Bench::ready(EngineSettings::default());
    b.s.search(request(Purpose::Move, &[], HALF_SECOND), b.at(1_000))
        .expect("search");
    b.feed(1_400, &["info depth 3 score cp 20 pv e2e4"]);
    b.s.handle_timeout(b.at(4_499));
    assert!(b.events().is_empty());
    b.s.handle_timeout(b.at(4_500));
    assert_eq!(
        faults(&b.events()),
        [Fault::Hung {
            waiting: Waiting::Move
        }]
    );
    // Late lines change nothing.
    b.feed(5_000, &["bestmove e2e4"]);
    assert!(b.events().is_empty());
    assert_eq!(
        b.s.search(request(Purpose::Move, &[], HALF_SECOND), b.at(6_000))
            .err(),
        Some(SearchError::Failed)
    );
    assert!(b.sent().is_empty());
}

#[test]
fn clock_limit_goes_with_times_and_the_side_to_moves_deadline() {
    let mut b = Bench::ready(EngineSettings::default());
    let limit = Limit::Clock {
        white: Duration::from_secs(60),
        black: Duration::from_secs(30),
        white_inc: Duration::from_secs(2),
        black_inc: Duration::from_secs(1),
        moves_to_go: None,
    };
    b.s.search(request(Purpose::Move, &["d2d4"], limit), b.at(0))
        .expect("search");
    // Black to move: at most a sane share of Black's time, 30 s over 30
    // moves and three quarters of the 1 s increment.
    assert_eq!(
        b.sent(),
        [
            "position startpos moves d2d4",
            "go wtime 60000 btime 30000 winc 2000 binc 1000 movetime 1750"
        ]
    );
    // That share and the margin.
    assert_eq!(b.s.next_deadline(), Some(b.at(4_750)));
}

/// Issue 30, item 16: with `--level 2 --time 10+5` Stockfish thought 46 s
/// over its first move (measured: `go wtime 600000 btime 600000 winc 5000
/// binc 5000` at Skill Level 2, load 17 on two cores).  A weak level
/// thinks briefly, and on the clock the engine never gets more than a
/// sane share of its time.
#[test]
fn a_weak_level_thinks_briefly_and_the_clock_is_never_spent_whole() {
    let ten_five = Limit::Clock {
        white: Duration::from_secs(600),
        black: Duration::from_secs(600),
        white_inc: Duration::from_secs(5),
        black_inc: Duration::from_secs(5),
        moves_to_go: None,
    };
    let white = shakmaty::Color::White;
    let cap = |strength| crate::engine::session::move_cap(strength, ten_five, white);
    assert_eq!(cap(Strength::Level(2)), Some(Duration::from_secs(1)));
    assert_eq!(cap(Strength::Level(1)), Some(Duration::from_millis(500)));
    assert_eq!(cap(Strength::Elo(1500)), Some(Duration::from_secs(3)));
    // Full strength: 600 s / 30 + 3.75 s.
    assert_eq!(cap(Strength::Full), Some(Duration::from_millis(23_750)));
    assert_eq!(cap(Strength::Level(20)), cap(Strength::Full));
    // Little time left: never more than a quarter of it.
    let short = Limit::Clock {
        white: Duration::from_secs(8),
        black: Duration::from_secs(8),
        white_inc: Duration::from_secs(30),
        black_inc: Duration::from_secs(30),
        moves_to_go: Some(1),
    };
    assert_eq!(
        crate::engine::session::move_cap(Strength::Full, short, white),
        Some(Duration::from_secs(2))
    );
    // The time per move (no clock) is the player's setting, untouched.
    let per_move = Limit::MoveTime(Duration::from_millis(1000));
    assert_eq!(
        crate::engine::session::move_cap(Strength::Full, per_move, white),
        None
    );
    let mut b = Bench::ready(EngineSettings {
        strength: Strength::Level(2),
        ..EngineSettings::default()
    });
    b.s.search(request(Purpose::Move, &[], ten_five), b.at(0))
        .expect("search");
    let sent = b.sent();
    assert_eq!(
        sent.last().map(String::as_str),
        Some("go wtime 600000 btime 600000 winc 5000 binc 5000 movetime 1000"),
        "{sent:?}"
    );
    // A hint is the player's help: not capped by the level.
    b.feed(1_000, &["bestmove e2e4"]);
    let _ = b.s.poll_event();
    let _ = b.sent();
    b.s.search(
        request(
            Purpose::Hint,
            &[],
            Limit::MoveTime(Duration::from_millis(500)),
        ),
        b.at(1_000),
    )
    .expect("hint");
    assert!(b.sent().iter().any(|l| l == "go movetime 500"));
}

#[test]
fn garbage_lines_in_a_row_are_one_fault() {
    let mut b = Bench::ready(EngineSettings::default());
    b.s.search(request(Purpose::Move, &[], HALF_SECOND), b.at(0))
        .expect("search");
    for i in 0..GARBAGE_LIMIT - 1 {
        b.feed(10, &[&format!("@@@ noise {i}")]);
    }
    assert!(b.events().is_empty());
    b.feed(10, &["@@@ last noise"]);
    assert_eq!(
        faults(&b.events()),
        [Fault::Garbage {
            line: "@@@ last noise".into()
        }]
    );
}

#[test]
fn some_garbage_between_good_lines_is_tolerated() {
    let mut b = Bench::ready(EngineSettings::default());
    b.s.search(request(Purpose::Move, &[], HALF_SECOND), b.at(0))
        .expect("search");
    for _ in 0..GARBAGE_LIMIT * 2 {
        b.feed(10, &["%%% noise", "info depth 1 score cp 10 pv e2e4"]);
    }
    // Fields this parser does not know make an info line harmless, not
    // garbage.
    b.feed(
        10,
        &["info depth 9 score cp 12 wdl 100 800 100 pv e2e4"; GARBAGE_LIMIT as usize],
    );
    b.feed(20, &["bestmove e2e4"]);
    let ev = b.events();
    assert!(faults(&ev).is_empty());
    assert_eq!(best(&ev).len(), 1);
}

#[test]
fn garbage_then_silence_is_said_as_garbage() {
    let mut b = Bench::new(EngineSettings::default());
    b.s.start(b.at(0));
    b.feed(10, &["Hello, I am not a chess engine"]);
    b.s.handle_timeout(b.at(10_000));
    assert_eq!(
        faults(&b.events()),
        [Fault::Garbage {
            line: "Hello, I am not a chess engine".into()
        }]
    );
}

#[test]
fn illegal_bestmove_is_a_fault() {
    let mut b = Bench::ready(EngineSettings::default());
    b.s.search(request(Purpose::Move, &["e2e4"], HALF_SECOND), b.at(0))
        .expect("search");
    b.feed(100, &["bestmove e2e4"]);
    let ev = b.events();
    assert!(best(&ev).is_empty());
    assert_eq!(faults(&ev), [Fault::IllegalMove { uci: "e2e4".into() }]);
    let (key, args) = faults(&ev)[0].phrase();
    assert_eq!(key, "engine_illegal_move");
    assert_eq!(args, [("move", "e2e4".to_owned())]);
}

#[test]
fn bestmove_that_is_no_move_is_a_fault() {
    let mut b = Bench::ready(EngineSettings::default());
    b.s.search(request(Purpose::Move, &[], HALF_SECOND), b.at(0))
        .expect("search");
    b.feed(100, &["bestmove (none)"]);
    assert_eq!(
        faults(&b.events()),
        [Fault::IllegalMove {
            uci: "(none)".into()
        }]
    );
}

#[test]
fn exit_is_a_crash_unless_asked_to_quit() {
    let mut b = Bench::ready(EngineSettings::default());
    b.s.search(request(Purpose::Move, &[], HALF_SECOND), b.at(0))
        .expect("search");
    let exit = ExitInfo {
        code: None,
        signal: Some(11),
    };
    b.s.handle_exit(Some(exit));
    assert_eq!(faults(&b.events()), [Fault::Crashed { exit: Some(exit) }]);

    let mut q = Bench::ready(EngineSettings::default());
    q.s.quit();
    assert_eq!(q.sent(), ["quit"]);
    q.s.handle_exit(None);
    assert!(q.events().is_empty());
}

#[test]
fn hint_while_engine_thinks_its_move_is_busy() {
    let mut b = Bench::ready(EngineSettings::default());
    b.s.search(request(Purpose::Move, &[], HALF_SECOND), b.at(0))
        .expect("search");
    b.sent();
    assert_eq!(
        b.s.search(request(Purpose::Hint, &[], HALF_SECOND), b.at(10))
            .err(),
        Some(SearchError::Busy)
    );
    assert!(b.sent().is_empty());
}

#[test]
fn a_new_request_stops_a_hint_and_its_answer_is_discarded() {
    let mut b = Bench::ready(EngineSettings::default());
    b.s.search(request(Purpose::Hint, &[], HALF_SECOND), b.at(0))
        .expect("hint");
    b.sent();
    let eval =
        b.s.search(request(Purpose::Eval, &[], HALF_SECOND), b.at(10))
            .expect("eval");
    assert_eq!(b.sent(), ["stop"]);
    assert_eq!(b.s.next_deadline(), Some(b.at(3_010)));
    b.feed(20, &["bestmove d2d4"]);
    assert!(best(&b.events()).is_empty(), "the hint's answer is dropped");
    assert_eq!(b.sent(), ["position startpos", "go movetime 500"]);
    b.feed(600, &["info depth 5 score cp 30 pv e2e4", "bestmove e2e4"]);
    let r = best(&b.events());
    assert_eq!((r[0].id, r[0].purpose), (eval, Purpose::Eval));
}

#[test]
fn no_answer_to_stop_is_a_hang() {
    let mut b = Bench::ready(EngineSettings::default());
    b.s.search(request(Purpose::Hint, &[], HALF_SECOND), b.at(0))
        .expect("hint");
    b.s.cancel(b.at(100));
    b.s.handle_timeout(b.at(3_100));
    assert_eq!(
        faults(&b.events()),
        [Fault::Hung {
            waiting: Waiting::Stop
        }]
    );
}

#[test]
fn ponder_on_the_expected_reply_then_ponderhit() {
    let mut b = Bench::ready(EngineSettings {
        ponder: true,
        ..EngineSettings::default()
    });
    b.s.search(request(Purpose::Move, &["e2e4"], HALF_SECOND), b.at(0))
        .expect("search");
    b.sent();
    b.feed(500, &["bestmove e7e5 ponder g1f3"]);
    assert_eq!(best(&b.events()).len(), 1);
    assert_eq!(
        b.sent(),
        [
            "position startpos moves e2e4 e7e5 g1f3",
            "go ponder movetime 500"
        ]
    );
    assert_eq!(b.s.next_deadline(), None, "pondering has no deadline");
    // The player plays the expected move.
    b.s.search(
        request(Purpose::Move, &["e2e4", "e7e5", "g1f3"], HALF_SECOND),
        b.at(5_000),
    )
    .expect("search");
    assert_eq!(b.sent(), ["ponderhit"]);
    assert_eq!(b.s.next_deadline(), Some(b.at(8_500)));
    b.feed(5_200, &["bestmove b8c6 ponder f1b5"]);
    let r = best(&b.events());
    assert_eq!(r[0].best.to_string(), "Nb8-c6");
}

#[test]
fn ponder_miss_stops_and_searches_the_real_position() {
    let mut b = Bench::ready(EngineSettings {
        ponder: true,
        ..EngineSettings::default()
    });
    b.s.search(request(Purpose::Move, &["e2e4"], HALF_SECOND), b.at(0))
        .expect("search");
    b.feed(500, &["bestmove e7e5 ponder g1f3"]);
    b.sent();
    b.events();
    b.s.search(
        request(Purpose::Move, &["e2e4", "e7e5", "f1c4"], HALF_SECOND),
        b.at(5_000),
    )
    .expect("search");
    assert_eq!(b.sent(), ["stop"]);
    b.feed(5_010, &["bestmove b8c6"]);
    assert!(best(&b.events()).is_empty(), "the ponder answer is dropped");
    assert_eq!(
        b.sent(),
        ["position startpos moves e2e4 e7e5 f1c4", "go movetime 500"]
    );
}

#[test]
fn no_ponder_when_the_engine_does_not_offer_it() {
    let mut b = Bench::new(EngineSettings {
        ponder: true,
        ..EngineSettings::default()
    });
    b.s.start(b.at(0));
    b.feed(10, &["uciok", "readyok"]);
    let ev = b.events();
    assert!(matches!(
        ev.first(),
        Some(EngineEvent::Note(OptionNote::NotOffered(Wanted::Ponder)))
    ));
    b.sent();
    b.s.search(request(Purpose::Move, &[], HALF_SECOND), b.at(20))
        .expect("search");
    b.feed(500, &["bestmove e2e4 ponder e7e5"]);
    b.sent();
    assert!(b.s.is_ready());
}

#[test]
fn new_game_stops_the_search_then_ucinewgame() {
    let mut b = Bench::ready(EngineSettings::default());
    b.s.search(request(Purpose::Move, &[], HALF_SECOND), b.at(0))
        .expect("search");
    b.sent();
    b.s.new_game(b.at(100));
    assert_eq!(b.sent(), ["stop"]);
    b.feed(110, &["bestmove e2e4"]);
    assert!(best(&b.events()).is_empty());
    assert_eq!(b.sent(), ["ucinewgame", "isready"]);
    b.feed(120, &["readyok"]);
    assert!(b.events().is_empty(), "ready is said only the first time");
    assert!(b.s.is_ready());
}

#[test]
fn threat_searches_the_position_with_the_other_side_to_move() {
    let mut pos = Chess::default();
    pos.play_unchecked(uci(&pos, "e2e4"));
    let req = SearchRequest::threat(&pos, CastlingMode::Standard, HALF_SECOND).expect("threat");
    assert_eq!(req.purpose, Purpose::Threat);
    let mut b = Bench::ready(EngineSettings::default());
    b.s.search(req, b.at(0)).expect("search");
    assert_eq!(
        b.sent()[0],
        "position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1"
    );
    // In check, the other side cannot move: no threat search.
    let fen: Fen = "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1".parse().expect("fen");
    let check: Chess = fen.into_position(CastlingMode::Standard).expect("position");
    assert!(SearchRequest::threat(&check, CastlingMode::Standard, HALF_SECOND).is_none());
}

#[test]
fn bad_requests_are_refused() {
    let mut b = Bench::ready(EngineSettings::default());
    let mut req = request(Purpose::Move, &[], HALF_SECOND);
    req.moves = vec![Move::Normal {
        role: shakmaty::Role::King,
        from: shakmaty::Square::E1,
        capture: None,
        to: shakmaty::Square::E3,
        promotion: None,
    }];
    assert_eq!(b.s.search(req, b.at(0)).err(), Some(SearchError::NotLegal));
    let mated = request(
        Purpose::Move,
        &["f2f3", "e7e5", "g2g4", "d8h4"],
        HALF_SECOND,
    );
    assert_eq!(b.s.search(mated, b.at(0)).err(), Some(SearchError::NoMoves));
    assert!(b.sent().is_empty());
}

#[test]
fn chess960_sets_the_option_and_sends_king_takes_rook() {
    let mut b = Bench::ready(EngineSettings::default());
    let fen: Fen = "1r2k3/8/8/8/8/8/8/1R3K1R w Hb - 0 1".parse().expect("fen");
    let start: Chess = fen.into_position(CastlingMode::Chess960).expect("position");
    let castle = Move::Castle {
        king: shakmaty::Square::F1,
        rook: shakmaty::Square::H1,
    };
    assert!(start.is_legal(castle));
    let req = SearchRequest {
        purpose: Purpose::Move,
        start,
        mode: CastlingMode::Chess960,
        moves: vec![castle],
        limit: HALF_SECOND,
    };
    b.s.search(req, b.at(0)).expect("search");
    let sent = b.sent();
    assert_eq!(sent[0], "setoption name UCI_Chess960 value true");
    assert!(sent[1].starts_with("position fen 1r2k3/"), "{}", sent[1]);
    assert!(sent[1].ends_with("moves f1h1"), "{}", sent[1]);
}

#[test]
fn chess960_castling_from_the_engine_is_read_as_king_takes_rook() {
    let mut b = Bench::ready(EngineSettings::default());
    let fen: Fen = "1r2k3/8/8/8/8/8/8/1R3K1R w Hb - 0 1".parse().expect("fen");
    let start: Chess = fen.into_position(CastlingMode::Chess960).expect("position");
    let req = SearchRequest {
        purpose: Purpose::Move,
        start,
        mode: CastlingMode::Chess960,
        moves: vec![],
        limit: HALF_SECOND,
    };
    b.s.search(req, b.at(0)).expect("search");
    b.sent();
    b.feed(100, &["bestmove f1h1"]);
    let r = best(&b.events());
    assert_eq!(
        r.first().map(|r| r.best),
        Some(Move::Castle {
            king: shakmaty::Square::F1,
            rook: shakmaty::Square::H1,
        })
    );
}

/// Issue 18, item 8: at level 1 the hint came from the weakened engine.
#[test]
fn help_searches_lift_the_level_and_the_engines_move_restores_it() {
    for (strength, full, weak) in [
        (
            Strength::Level(1),
            vec!["setoption name Skill Level value 20"],
            vec!["setoption name Skill Level value 1"],
        ),
        (
            Strength::Elo(1500),
            vec!["setoption name UCI_LimitStrength value false"],
            vec![
                "setoption name UCI_LimitStrength value true",
                "setoption name UCI_Elo value 1500",
            ],
        ),
    ] {
        let mut b = Bench::ready(EngineSettings {
            strength,
            ..EngineSettings::default()
        });
        // The engine's move: at the level set in the handshake.
        b.s.search(request(Purpose::Move, &[], HALF_SECOND), b.at(0))
            .expect("move");
        assert_eq!(b.sent(), ["position startpos", "go movetime 500"]);
        b.feed(500, &["bestmove e2e4"]);
        b.events();
        // Hint, threat and eval: lifted once, at full strength.
        let mut expected: Vec<String> = full.iter().map(|l| (*l).to_owned()).collect();
        expected.extend([
            "position startpos moves e2e4".into(),
            "go movetime 500".into(),
        ]);
        b.s.search(request(Purpose::Hint, &["e2e4"], HALF_SECOND), b.at(600))
            .expect("hint");
        assert_eq!(b.sent(), expected);
        b.feed(1_100, &["bestmove e7e5"]);
        b.s.search(request(Purpose::Eval, &["e2e4"], HALF_SECOND), b.at(1_200))
            .expect("eval");
        assert_eq!(
            b.sent(),
            ["position startpos moves e2e4", "go movetime 500"],
            "already lifted"
        );
        b.feed(1_700, &["bestmove e7e5"]);
        // The engine's next move: the level again, before `go`.
        b.s.search(
            request(Purpose::Move, &["e2e4", "e7e5", "g1f3"], HALF_SECOND),
            b.at(1_800),
        )
        .expect("move");
        let mut expected: Vec<String> = weak.iter().map(|l| (*l).to_owned()).collect();
        expected.extend([
            "position startpos moves e2e4 e7e5 g1f3".into(),
            "go movetime 500".into(),
        ]);
        assert_eq!(b.sent(), expected);
    }
    // At full strength nothing is lifted.
    let mut b = Bench::ready(EngineSettings::default());
    b.s.search(request(Purpose::Hint, &[], HALF_SECOND), b.at(0))
        .expect("hint");
    assert_eq!(b.sent(), ["position startpos", "go movetime 500"]);
}
