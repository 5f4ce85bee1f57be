use super::*;
use crate::board::event::Decoder;
use crate::board::protocol::{AnyDecoder, Protocol};
use crate::board::sim::{HandStep, SimBoard, move_actions};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Color, Piece};

const STEP: Duration = Duration::from_millis(20);

fn fen(text: &str) -> Chess {
    text.parse::<Fen>()
        .ok()
        .and_then(|f| f.into_position(CastlingMode::Standard).ok())
        .unwrap_or_else(|| panic!("valid test FEN {text}"))
}

fn uci(pos: &Chess, text: &str) -> Move {
    text.parse::<UciMove>()
        .ok()
        .and_then(|u| u.to_move(pos).ok())
        .unwrap_or_else(|| panic!("{text} is legal in the test position"))
}

/// A simulated board wired through its decoder into a tracker, with a
/// virtual clock.
struct Rig {
    sim: SimBoard,
    decoder: AnyDecoder,
    tracker: Tracker,
    now: Instant,
    out: Vec<Inferred>,
}

impl Rig {
    fn new(sim: SimBoard, position: Chess) -> Rig {
        let decoder = sim.protocol().decoder();
        let mut rig = Rig {
            sim,
            decoder,
            tracker: Tracker::new(position, TrackerConfig::default()),
            now: Instant::now(),
            out: Vec::new(),
        };
        let dump = rig.sim.dump();
        rig.bytes(&dump);
        rig
    }

    fn start(protocol: Protocol) -> Rig {
        Rig::new(SimBoard::new(protocol, Board::new()), Chess::new())
    }

    fn bytes(&mut self, bytes: &[u8]) {
        for event in self.decoder.feed(bytes) {
            let inferred = self.tracker.feed(&event, self.now);
            self.out.extend(inferred);
        }
    }

    fn act(&mut self, action: HandStep) {
        self.now += STEP;
        let bytes = self.sim.act(action);
        self.bytes(&bytes);
    }

    fn lift(&mut self, sq: Square) {
        self.act(HandStep::Lift(sq));
    }

    fn place(&mut self, sq: Square, piece: Piece) {
        self.act(HandStep::Place(sq, piece));
    }

    /// Do the hand actions of `text` in the tracker's position.
    fn hand(&mut self, text: &str, slide: bool) -> Move {
        let pos = self.tracker.position().clone();
        let m = uci(&pos, text);
        for a in move_actions(&pos, m, slide) {
            self.act(a);
        }
        m
    }

    fn wait(&mut self, d: Duration) {
        self.now += d;
        let inferred = self.tracker.tick(self.now);
        self.out.extend(inferred);
    }

    /// Run the clock to the tracker's deadline, if any.
    fn settle(&mut self) {
        if let Some(at) = self.tracker.next_deadline() {
            self.now = self.now.max(at);
            let inferred = self.tracker.tick(self.now);
            self.out.extend(inferred);
        }
    }

    fn take(&mut self) -> Vec<Inferred> {
        std::mem::take(&mut self.out)
    }

    /// Outcomes other than touches.
    fn take_untouched(&mut self) -> Vec<Inferred> {
        self.take()
            .into_iter()
            .filter(|i| !matches!(i, Inferred::Touched(_)))
            .collect()
    }
}

/// A game with captures, en passant, a promotion with capture, and both
/// castlings.
const GAME: &[&str] = &[
    "e2e4", "d7d5", "e4e5", "f7f5", "e5f6", "b8c6", "f6g7", "d8d6", "g7h8q", "c8e6", "g1f3",
    "e8c8", "f1c4", "d5c4", "e1g1", "d6d2", "c1d2", "d8d2", "d1d2",
];

fn play_whole_game(mut rig: Rig, slide: bool) {
    assert_eq!(rig.take(), vec![]);
    for text in GAME {
        let m = rig.hand(text, slide);
        let mut got = rig.take_untouched();
        if got.is_empty() {
            rig.settle();
            got = rig.take_untouched();
        }
        if let [Inferred::NeedPromotionPiece { from, to }] = got.as_slice() {
            assert_eq!((Some(*from), *to), (m.from(), m.to()));
            let role = m.promotion().unwrap_or(Role::Queen);
            got = rig.tracker.promote(role);
        }
        assert_eq!(got, vec![Inferred::Move(m)], "{text}");
    }
    rig.settle();
    assert_eq!(rig.take(), vec![]);
    let mut expected = Chess::new();
    for text in GAME {
        let m = uci(&expected, text);
        expected.play_unchecked(m);
    }
    assert_eq!(rig.tracker.position(), &expected);
}

#[test]
fn whole_game_on_a_dgt_board() {
    play_whole_game(Rig::start(Protocol::Dgt), false);
}

#[test]
fn whole_game_on_a_dgt_board_with_pieces_slid() {
    play_whole_game(Rig::start(Protocol::Dgt), true);
}

#[test]
fn whole_game_on_a_millennium_board() {
    play_whole_game(Rig::start(Protocol::Millennium), true);
}

#[test]
fn whole_game_on_an_occupancy_board() {
    play_whole_game(Rig::start(Protocol::Occupancy), false);
}

#[test]
fn whole_game_on_an_occupancy_board_sending_lift_and_place() {
    let sim = SimBoard::new(Protocol::Occupancy, Board::new()).with_event_lines(true);
    play_whole_game(Rig::new(sim, Chess::new()), true);
}

/// Issue 30, item 2: on a DGT board, the pawn set on g8, lifted, and the
/// queen set there 1.5 s later was called an illegal move 0.4 s after the
/// pawn touched g8.  It is quiet until the press (docs/boards.md), then the
/// queen is the move; the pawn left there is judged by the press.
#[test]
fn a_pawn_set_on_the_last_rank_is_quiet_until_its_piece_comes() {
    let pos = fen("k7/6P1/8/8/8/8/8/K7 w - - 0 1");
    let start = || {
        let mut rig = Rig::new(
            SimBoard::new(Protocol::Dgt, pos.board().clone()),
            pos.clone(),
        );
        rig.take();
        rig.lift(Square::G7);
        rig.place(Square::G8, Color::White.pawn());
        rig
    };
    let mut rig = start();
    rig.wait(Duration::from_millis(400));
    rig.wait(Duration::from_millis(1100));
    assert_eq!(rig.take_untouched(), vec![], "quiet with the pawn on g8");
    assert_eq!(
        rig.tracker.illegal_shown(),
        Some((Square::G7, Square::G8)),
        "a press now completes an unpromoted pawn (7.5.2)"
    );
    rig.lift(Square::G8);
    rig.place(Square::G8, Color::White.queen());
    rig.settle();
    assert_eq!(
        rig.take_untouched(),
        vec![Inferred::Move(uci(&pos, "g7g8q"))]
    );
    // Left on g8 past the grace time with no press: the mismatch, never
    // an illegal move called without the press.
    let mut rig = start();
    rig.wait(DEFAULT_GRACE);
    let out = rig.take_untouched();
    assert!(matches!(out.as_slice(), [Inferred::Mismatch(_)]), "{out:?}");
}

#[test]
fn occupancy_promotion_asks_for_the_piece() {
    let pos = fen("8/4P3/8/8/8/8/8/k3K3 w - - 0 1");
    let mut rig = Rig::new(SimBoard::new(Protocol::Occupancy, pos.board().clone()), pos);
    rig.hand("e7e8n", false);
    assert_eq!(
        rig.take_untouched(),
        vec![Inferred::NeedPromotionPiece {
            from: Square::E7,
            to: Square::E8
        }]
    );
    assert_eq!(
        rig.tracker.pending_promotion(),
        Some((Square::E7, Square::E8))
    );
    // A king is no answer; a knight is.
    assert_eq!(rig.tracker.promote(Role::King), vec![]);
    let got = rig.tracker.promote(Role::Knight);
    let pos = fen("8/4P3/8/8/8/8/8/k3K3 w - - 0 1");
    assert_eq!(got, vec![Inferred::Move(uci(&pos, "e7e8n"))]);
    assert_eq!(
        rig.tracker.position().board().piece_at(Square::E8),
        Some(Color::White.knight())
    );
    // Nothing pending any more.
    assert_eq!(rig.tracker.promote(Role::Queen), vec![]);
}

#[test]
fn slide_is_announced_only_after_the_settle_time() {
    let pos = fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    let mut rig = Rig::new(SimBoard::new(Protocol::Dgt, pos.board().clone()), pos);
    let m = rig.hand("a1a5", true);
    // Passed a2, a3, a4 and stands on a5: nothing announced yet.
    assert_eq!(rig.take(), vec![Inferred::Touched(Square::A1)]);
    let deadline = rig.tracker.next_deadline();
    assert_eq!(deadline, Some(rig.now + DEFAULT_SETTLE));
    rig.wait(DEFAULT_SETTLE - Duration::from_millis(1));
    assert_eq!(rig.take(), vec![]);
    rig.wait(Duration::from_millis(1));
    assert_eq!(rig.take(), vec![Inferred::Move(m)]);
    assert_eq!(rig.tracker.next_deadline(), None);
}

#[test]
fn a_settled_move_is_announced_before_the_next_change() {
    // The app missed the deadline: the next event still announces the
    // settled move first.
    let pos = fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    let mut rig = Rig::new(SimBoard::new(Protocol::Dgt, pos.board().clone()), pos);
    let m = rig.hand("a1a5", false);
    rig.take();
    rig.now += Duration::from_secs(2);
    rig.lift(Square::E8);
    assert_eq!(rig.take()[0], Inferred::Move(m));
}

#[test]
fn knight_move_is_announced_at_once() {
    let mut rig = Rig::start(Protocol::Dgt);
    let m = rig.hand("g1f3", false);
    assert_eq!(
        rig.take(),
        vec![Inferred::Touched(Square::G1), Inferred::Move(m)]
    );
    assert_eq!(rig.tracker.next_deadline(), None);
}

#[test]
fn slider_at_the_edge_or_blocked_is_announced_at_once() {
    let pos = fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    let mut rig = Rig::new(
        SimBoard::new(Protocol::Millennium, pos.board().clone()),
        pos.clone(),
    );
    let m = rig.hand("a1a8", true);
    assert_eq!(rig.take_untouched(), vec![Inferred::Move(m)]);
    // Stopped by its own king (no castling right: not half a castling).
    let pos = fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    let mut rig = Rig::new(SimBoard::new(Protocol::Dgt, pos.board().clone()), pos);
    let m = rig.hand("a1d1", true);
    assert_eq!(rig.take_untouched(), vec![Inferred::Move(m)]);
    // A pawn's single step waits: it may be on its way to the fourth rank.
    let pos = fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    let mut rig = Rig::new(SimBoard::new(Protocol::Dgt, pos.board().clone()), pos);
    let m = rig.hand("e2e3", false);
    assert_eq!(rig.take_untouched(), vec![]);
    rig.settle();
    assert_eq!(rig.take(), vec![Inferred::Move(m)]);
}

#[test]
fn castling_king_first_waits_on_f1_then_completes() {
    let pos = fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    let mut rig = Rig::new(
        SimBoard::new(Protocol::Dgt, pos.board().clone()),
        pos.clone(),
    );
    rig.lift(Square::E1);
    rig.place(Square::F1, Color::White.king());
    // Kf1 is legal but the king may be on its way to g1.
    assert_eq!(rig.take(), vec![Inferred::Touched(Square::E1)]);
    assert!(rig.tracker.next_deadline().is_some());
    rig.lift(Square::F1);
    rig.place(Square::G1, Color::White.king());
    assert_eq!(rig.tracker.next_deadline(), None);
    rig.lift(Square::H1);
    rig.place(Square::F1, Color::White.rook());
    assert_eq!(
        rig.take(),
        vec![
            Inferred::Touched(Square::H1),
            Inferred::Move(uci(&pos, "e1g1"))
        ]
    );
}

#[test]
fn take_back_is_reported_and_then_the_mismatch() {
    let mut rig = Rig::start(Protocol::Dgt);
    let m = rig.hand("e2e4", false);
    assert_eq!(rig.take_untouched(), vec![Inferred::Move(m)]);
    rig.lift(Square::E4);
    rig.place(Square::E2, Color::White.pawn());
    assert_eq!(rig.take(), vec![Inferred::TakeBack]);
    // Not accepted: the mismatch follows after the settle time.
    rig.settle();
    let got = rig.take();
    assert!(
        matches!(got.as_slice(), [Inferred::Mismatch(d)] if d.len() == 2 && d[0].square == Square::E4),
        "{got:?}"
    );
    // Accepted by the app: the board agrees with the game again.
    let got = rig.tracker.set_game(&Chess::new(), None, rig.now);
    assert_eq!(got, vec![Inferred::Matches]);
}

#[test]
fn take_back_accepted_at_once_needs_no_report() {
    let mut rig = Rig::start(Protocol::Occupancy);
    rig.hand("g1f3", false);
    rig.take();
    rig.hand("g8f6", false);
    rig.take();
    let before = rig.tracker.position().clone();
    rig.lift(Square::F6);
    rig.place(Square::G8, Color::Black.knight());
    assert_eq!(rig.take(), vec![Inferred::TakeBack]);
    let mut prev = Chess::new();
    prev.play_unchecked(uci(&prev, "g1f3"));
    assert_ne!(prev, before);
    assert_eq!(
        rig.tracker.set_game(&prev, Some(&Chess::new()), rig.now),
        vec![]
    );
    rig.settle();
    assert_eq!(rig.take(), vec![]);
}

/// Issue 18, item 1: a board seen first (hector restarted) or a game
/// set under a board is compared with the game, never judged: the
/// knight on g3 is a mismatch, not an illegal move.
#[test]
fn a_board_seen_first_or_under_a_new_game_is_compared_not_judged() {
    let mut shown = Board::new();
    shown.discard_piece_at(Square::G1);
    shown.set_piece_at(Square::G3, Color::White.knight());
    let mut rig = Rig::new(SimBoard::new(Protocol::Dgt, shown.clone()), Chess::new());
    rig.settle();
    let got = rig.take();
    assert!(
        matches!(&got[..], [Inferred::Mismatch(d)] if d.len() == 2),
        "{got:?}"
    );
    // A game set by other means under a board: 1. e4 e5 with the
    // knight on g3.
    let mut e4e5 = Chess::new();
    e4e5.play_unchecked(uci(&e4e5, "e2e4"));
    e4e5.play_unchecked(uci(&e4e5, "e7e5"));
    let mut shown = e4e5.board().clone();
    shown.discard_piece_at(Square::G1);
    shown.set_piece_at(Square::G3, Color::White.knight());
    let mut rig = Rig::new(SimBoard::new(Protocol::Dgt, shown), Chess::new());
    rig.take();
    let mut got = rig.tracker.set_game(&e4e5, None, rig.now);
    rig.settle();
    got.extend(rig.take());
    assert!(
        matches!(&got[..], [Inferred::Mismatch(d)] if d.len() == 2),
        "{got:?}"
    );
}

/// Issue 18: Black moving first on the board is said as whose move it
/// is, not as a mismatch on two squares; put back, the board matches.
#[test]
fn a_move_out_of_turn_says_whose_move_it_is() {
    // (An occupancy board at the start reads it as White's d2-d4 on a
    // board turned round.)
    for protocol in Protocol::ALL.into_iter().filter(|p| p.identifies_pieces()) {
        let mut rig = Rig::start(protocol);
        rig.lift(Square::E7);
        rig.place(Square::E5, Color::Black.pawn());
        rig.settle();
        let got = rig.take();
        assert!(
            matches!(&got[..], [Inferred::OutOfTurn { side: Color::White, diffs }] if diffs.len() == 2),
            "{protocol:?}: {got:?}"
        );
        rig.lift(Square::E5);
        rig.place(Square::E7, Color::Black.pawn());
        assert_eq!(rig.take(), vec![Inferred::Matches], "{protocol:?}");
    }
}

#[test]
fn illegal_move_is_reported_with_the_correction_until_fixed() {
    let mut rig = Rig::start(Protocol::Dgt);
    rig.lift(Square::G1);
    rig.place(Square::G3, Color::White.knight());
    assert_eq!(rig.take(), vec![Inferred::Touched(Square::G1)]);
    rig.settle();
    let got = rig.take();
    assert_eq!(
        got,
        vec![
            Inferred::Illegal {
                from: Square::G1,
                to: Square::G3
            },
            Inferred::Mismatch(vec![
                SquareDiff {
                    square: Square::G1,
                    expected: Some(Color::White.knight()),
                    found: Sensed::Empty
                },
                SquareDiff {
                    square: Square::G3,
                    expected: None,
                    found: Sensed::Piece(Color::White.knight())
                },
            ])
        ]
    );
    assert_eq!(rig.tracker.reported_mismatch().len(), 2);
    // Back to a legal state: the knight returns home.
    rig.lift(Square::G3);
    rig.place(Square::G1, Color::White.knight());
    assert_eq!(rig.take(), vec![Inferred::Matches]);
    assert!(rig.tracker.reported_mismatch().is_empty());
}

#[test]
fn illegal_capture_on_an_occupancy_board() {
    // The bishop c1 "captures" h6 through its own pawn d2.
    let pos = fen("rnbqkbnr/ppppppp1/7p/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2");
    let mut rig = Rig::new(SimBoard::new(Protocol::Occupancy, pos.board().clone()), pos);
    rig.lift(Square::H6);
    rig.lift(Square::C1);
    rig.place(Square::H6, Color::White.bishop());
    assert_eq!(rig.take(), vec![Inferred::Touched(Square::C1)]);
    rig.settle();
    let got = rig.take();
    assert_eq!(
        got.first(),
        Some(&Inferred::Illegal {
            from: Square::C1,
            to: Square::H6
        })
    );
}

#[test]
fn keyboard_move_is_reported_until_executed_on_the_board() {
    let mut rig = Rig::start(Protocol::Dgt);
    rig.hand("e2e4", false);
    rig.take();
    // The opponent's move arrives by keyboard.
    let mut game = rig.tracker.position().clone();
    let reply = uci(&game, "e7e5");
    game.play_unchecked(reply);
    let got = rig.tracker.set_position(&game, rig.now);
    let instruction = Instruction::new(rig.tracker.previous.as_ref().unwrap(), reply);
    assert_eq!(got, vec![Inferred::Instruction(vec![instruction.unwrap()])]);
    assert_eq!(rig.tracker.awaiting_execution(), Some(reply));
    // Not a mismatch, however long the settle time.
    rig.wait(DEFAULT_SETTLE * 3);
    assert_eq!(rig.take(), vec![]);
    // Setting the same position again changes nothing.
    assert_eq!(rig.tracker.set_position(&game, rig.now), vec![]);
    // Executing it: no touch (it is not the player's piece), no take-back.
    rig.lift(Square::E7);
    rig.place(Square::E5, Color::Black.pawn());
    assert_eq!(rig.take(), vec![Inferred::Executed(reply)]);
    assert_eq!(rig.tracker.awaiting_execution(), None);
    // And the player's own next move is recognised as usual.
    let m = rig.hand("g1f3", false);
    assert_eq!(rig.take_untouched(), vec![Inferred::Move(m)]);
}

#[test]
fn a_position_far_from_the_old_one_is_no_take_back() {
    let mut rig = Rig::start(Protocol::Dgt);
    let far = fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    let got = rig.tracker.set_position(&far, rig.now);
    assert!(
        matches!(got.as_slice(), [Inferred::Mismatch(d)] if d.len() == 4),
        "{got:?}"
    );
    assert_eq!(rig.tracker.awaiting_execution(), None);
    // The board still shows the old position (the start): neither a
    // take-back nor a new game, however the player touches it.
    rig.lift(Square::A7);
    rig.place(Square::A7, Color::Black.pawn());
    rig.settle();
    assert_eq!(rig.take(), vec![]);
}

#[test]
fn piece_put_on_the_wrong_square_is_reported_then_fixed() {
    let mut rig = Rig::start(Protocol::Occupancy);
    rig.hand("d2d4", false);
    rig.take();
    let mut game = rig.tracker.position().clone();
    let reply = uci(&game, "g8f6");
    game.play_unchecked(reply);
    let got = rig.tracker.set_position(&game, rig.now);
    assert_eq!(got.len(), 1);
    // The knight goes to h6 instead of f6.
    rig.lift(Square::G8);
    rig.place(Square::H6, Color::Black.knight());
    rig.settle();
    let got = rig.take();
    assert_eq!(
        got,
        vec![Inferred::Mismatch(vec![
            SquareDiff {
                square: Square::F6,
                expected: Some(Color::Black.knight()),
                found: Sensed::Empty
            },
            SquareDiff {
                square: Square::H6,
                expected: None,
                found: Sensed::Occupied
            },
        ])]
    );
    rig.lift(Square::H6);
    rig.place(Square::F6, Color::Black.knight());
    assert_eq!(rig.take(), vec![Inferred::Executed(reply)]);
}

/// The rig at `fen` with `text` (legal there) awaited on the board.
fn awaiting(protocol: Protocol, fen_text: &str, text: &str) -> (Rig, Move) {
    let pos = fen(fen_text);
    let mut rig = Rig::new(SimBoard::new(protocol, pos.board().clone()), pos.clone());
    assert_eq!(rig.take(), vec![]);
    let m = uci(&pos, text);
    let got = rig.tracker.await_move(m, rig.now);
    assert_eq!(
        got,
        vec![Inferred::Instruction(vec![
            Instruction::new(&pos, m).unwrap()
        ])]
    );
    (rig, m)
}

/// Do `steps` with a pause longer than the settle time after each:
/// nothing may be said until the last.
fn quietly(rig: &mut Rig, steps: &[HandStep]) -> Vec<Inferred> {
    for (i, a) in steps.iter().enumerate() {
        rig.act(*a);
        if i + 1 < steps.len() {
            rig.wait(DEFAULT_SETTLE * 3);
            let got = rig.take();
            assert_eq!(got, vec![], "after {a:?}");
        }
    }
    rig.take()
}

const CAPTURE: &str = "4k3/8/8/5b2/8/3B4/8/4K3 b - - 0 1";

/// Issue 18, item 3: a reply typed before the typed move was made on
/// the board joins it: one instruction names both in order, the board
/// is quiet on its way to either (in either order), and each is done
/// in order; a state on no path to them is a mismatch.
#[test]
fn a_reply_typed_before_the_move_is_made_is_queued() {
    const SPANISH: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let before = fen(SPANISH);
    for protocol in Protocol::ALL {
        for reply_first in [false, true] {
            let (mut rig, bb5) = awaiting(protocol, SPANISH, "f1b5");
            let mut after = before.clone();
            after.play_unchecked(bb5);
            let a6 = uci(&after, "a7a6");
            let got = rig.tracker.await_move(a6, rig.now);
            let want = vec![
                Instruction::new(&before, bb5).unwrap(),
                Instruction::new(&after, a6).unwrap(),
            ];
            assert_eq!(got, vec![Inferred::Instruction(want)], "{protocol:?}");
            let (first, second) = if reply_first {
                (
                    [
                        HandStep::Lift(Square::A7),
                        HandStep::Place(Square::A6, Color::Black.pawn()),
                    ],
                    [
                        HandStep::Lift(Square::F1),
                        HandStep::Place(Square::B5, Color::White.bishop()),
                    ],
                )
            } else {
                (
                    [
                        HandStep::Lift(Square::F1),
                        HandStep::Place(Square::B5, Color::White.bishop()),
                    ],
                    [
                        HandStep::Lift(Square::A7),
                        HandStep::Place(Square::A6, Color::Black.pawn()),
                    ],
                )
            };
            let got = quietly(&mut rig, &[first[0], first[1]]);
            if reply_first {
                assert_eq!(got, vec![], "{protocol:?}");
            } else {
                assert_eq!(got, vec![Inferred::Executed(bb5)], "{protocol:?}");
            }
            rig.wait(DEFAULT_SETTLE * 3);
            assert_eq!(rig.take(), vec![], "{protocol:?}");
            let got = quietly(&mut rig, &[second[0], second[1]]);
            let want = if reply_first {
                vec![Inferred::Executed(bb5), Inferred::Executed(a6)]
            } else {
                vec![Inferred::Executed(a6)]
            };
            assert_eq!(got, want, "{protocol:?} reply first: {reply_first}");
            assert_eq!(rig.tracker.awaiting_execution(), None);
        }
        // A piece on no path to them: a mismatch after the settle time.
        let (mut rig, bb5) = awaiting(protocol, SPANISH, "f1b5");
        let mut after = before.clone();
        after.play_unchecked(bb5);
        let _ = rig.tracker.await_move(uci(&after, "a7a6"), rig.now);
        rig.lift(Square::B1);
        rig.place(Square::A3, Color::White.knight());
        rig.settle();
        let got = rig.take_untouched();
        assert!(
            matches!(&got[..], [Inferred::Mismatch(d)] if d.len() == 2),
            "{protocol:?}: {got:?}"
        );
    }
}

#[test]
fn an_awaited_capture_is_quiet_in_either_order() {
    let bishop = Color::Black.bishop();
    for protocol in Protocol::ALL {
        // The captured piece removed first.
        let (mut rig, m) = awaiting(protocol, CAPTURE, "f5d3");
        let got = quietly(
            &mut rig,
            &[
                HandStep::Lift(Square::D3),
                HandStep::Lift(Square::F5),
                HandStep::Place(Square::D3, bishop),
            ],
        );
        assert_eq!(got, vec![Inferred::Executed(m)], "{protocol:?}");
        // The capturing piece lifted first, the captured one last.
        let (mut rig, m) = awaiting(protocol, CAPTURE, "f5d3");
        let got = quietly(
            &mut rig,
            &[
                HandStep::Lift(Square::F5),
                HandStep::Lift(Square::D3),
                HandStep::Place(Square::D3, bishop),
            ],
        );
        assert_eq!(got, vec![Inferred::Executed(m)], "{protocol:?}");
        assert_eq!(rig.tracker.awaiting_execution(), None);
    }
}

/// Issue 18, item 4: a piece set down on its path, short of its
/// square (the pawn on a6 for a7-a5, the bishop on e4 for f5xd3), is a
/// wrong square: a mismatch after the settle time, like any other;
/// then the move made is done.
#[test]
fn an_awaited_move_stopped_short_is_a_mismatch_after_the_settle_time() {
    for protocol in Protocol::ALL {
        let (mut rig, m) = awaiting(protocol, "4k3/p7/8/8/8/8/8/4K3 b - - 0 1", "a7a5");
        rig.lift(Square::A7);
        rig.place(Square::A6, Color::Black.pawn());
        assert_eq!(rig.take(), vec![], "{protocol:?}");
        rig.settle();
        let got = rig.take();
        assert!(
            matches!(&got[..], [Inferred::Mismatch(d)] if d.len() == 2),
            "{protocol:?}: {got:?}"
        );
        rig.lift(Square::A6);
        rig.place(Square::A5, Color::Black.pawn());
        assert_eq!(rig.take(), vec![Inferred::Executed(m)], "{protocol:?}");
        let (mut rig, _) = awaiting(protocol, CAPTURE, "f5d3");
        rig.lift(Square::F5);
        rig.place(Square::E4, Color::Black.bishop());
        rig.settle();
        let got = rig.take();
        assert!(
            matches!(&got[..], [Inferred::Mismatch(_)]),
            "{protocol:?}: {got:?}"
        );
    }
}

#[test]
fn an_occupancy_capture_is_done_only_once_the_captured_piece_is_off() {
    let (mut rig, m) = awaiting(Protocol::Occupancy, CAPTURE, "f5d3");
    // The capturing bishop in the hand: the occupancy already looks
    // like the position after the capture.
    rig.lift(Square::F5);
    rig.wait(DEFAULT_SETTLE * 3);
    assert_eq!(rig.take(), vec![]);
    assert!(rig.tracker.on_the_way());
    rig.lift(Square::D3);
    rig.place(Square::D3, Color::Black.bishop());
    assert_eq!(rig.take(), vec![Inferred::Executed(m)]);
}

#[test]
fn an_awaited_move_to_a_wrong_square_is_a_mismatch_then_done() {
    for protocol in Protocol::ALL {
        let (mut rig, m) = awaiting(
            protocol,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "b8c6",
        );
        rig.lift(Square::B8);
        rig.place(Square::A6, Color::Black.knight());
        // Set down for less than the settle time: nothing yet.
        assert_eq!(rig.take(), vec![]);
        rig.settle();
        let got = rig.take();
        assert!(
            matches!(got.as_slice(), [Inferred::Mismatch(d)] if d.len() == 2),
            "{protocol:?}: {got:?}"
        );
        // The knight taken off the wrong square and held: the
        // mismatch is gone, what remains to do is said once the board
        // is still.
        rig.lift(Square::A6);
        rig.wait(DEFAULT_SETTLE * 3);
        assert!(
            matches!(rig.take().as_slice(), [Inferred::Instruction(i)] if i.len() == 1 && i[0].mv == m),
            "{protocol:?}"
        );
        rig.place(Square::C6, Color::Black.knight());
        assert_eq!(rig.take(), vec![Inferred::Executed(m)], "{protocol:?}");
    }
}

#[test]
fn an_awaited_castling_in_any_order() {
    let pos = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1";
    let king = Color::Black.king();
    let rook = Color::Black.rook();
    let orders: [&[HandStep]; 3] = [
        &[
            HandStep::Lift(Square::E8),
            HandStep::Place(Square::G8, king),
            HandStep::Lift(Square::H8),
            HandStep::Place(Square::F8, rook),
        ],
        &[
            HandStep::Lift(Square::H8),
            HandStep::Place(Square::F8, rook),
            HandStep::Lift(Square::E8),
            HandStep::Place(Square::G8, king),
        ],
        &[
            HandStep::Lift(Square::E8),
            HandStep::Lift(Square::H8),
            HandStep::Place(Square::F8, rook),
            HandStep::Place(Square::G8, king),
        ],
    ];
    for protocol in Protocol::ALL {
        for steps in orders {
            let (mut rig, m) = awaiting(protocol, pos, "e8h8");
            let got = quietly(&mut rig, steps);
            assert_eq!(got, vec![Inferred::Executed(m)], "{protocol:?} {steps:?}");
        }
    }
}

#[test]
fn an_awaited_move_left_undone_is_reminded_once() {
    let (mut rig, m) = awaiting(
        Protocol::Dgt,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "b8c6",
    );
    assert_eq!(rig.tracker.next_deadline(), Some(rig.now + DEFAULT_GRACE));
    rig.wait(DEFAULT_GRACE - Duration::from_secs(1));
    assert_eq!(rig.take(), vec![]);
    // Lifting the knight puts the reminder off.
    rig.lift(Square::B8);
    rig.wait(DEFAULT_GRACE - Duration::from_secs(1));
    assert_eq!(rig.take(), vec![]);
    rig.wait(Duration::from_secs(1));
    let got = rig.take();
    assert!(
        matches!(got.as_slice(), [Inferred::Mismatch(d)] if d[0].square == Square::C6),
        "{got:?}"
    );
    // Once.
    assert_eq!(rig.tracker.next_deadline(), None);
    rig.wait(DEFAULT_GRACE * 2);
    assert_eq!(rig.take(), vec![]);
    rig.place(Square::C6, Color::Black.knight());
    assert_eq!(rig.take(), vec![Inferred::Executed(m)]);
}

#[test]
fn a_move_that_is_not_legal_is_not_awaited() {
    let mut rig = Rig::start(Protocol::Dgt);
    let bad = uci(&fen(CAPTURE), "f5d3");
    assert_eq!(rig.tracker.await_move(bad, rig.now), vec![]);
    assert_eq!(rig.tracker.awaiting_execution(), None);
    assert_eq!(rig.tracker.position(), &Chess::new());
}

/// The player's own castling, in every order, on every board.
#[test]
fn castling_in_any_order_on_every_board() {
    let pos = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    let king = Color::White.king();
    let rook = Color::White.rook();
    for protocol in Protocol::ALL {
        for (side, k_to, r_from, r_to) in [
            ("e1h1", Square::G1, Square::H1, Square::F1),
            ("e1a1", Square::C1, Square::A1, Square::D1),
        ] {
            let orders: [Vec<HandStep>; 3] = [
                vec![
                    HandStep::Lift(Square::E1),
                    HandStep::Place(k_to, king),
                    HandStep::Lift(r_from),
                    HandStep::Place(r_to, rook),
                ],
                vec![
                    HandStep::Lift(r_from),
                    HandStep::Place(r_to, rook),
                    HandStep::Lift(Square::E1),
                    HandStep::Place(k_to, king),
                ],
                vec![
                    HandStep::Lift(Square::E1),
                    HandStep::Lift(r_from),
                    HandStep::Place(r_to, rook),
                    HandStep::Place(k_to, king),
                ],
            ];
            for steps in orders {
                let p = fen(pos);
                let mut rig = Rig::new(SimBoard::new(protocol, p.board().clone()), p.clone());
                for (i, a) in steps.iter().enumerate() {
                    rig.act(*a);
                    if i + 1 < steps.len() {
                        // A second between the halves, as a hand does.
                        rig.wait(Duration::from_secs(1));
                        let got = rig.take_untouched();
                        assert_eq!(got, vec![], "{protocol:?} {side} after {a:?}");
                    }
                }
                assert_eq!(
                    rig.take_untouched(),
                    vec![Inferred::Move(uci(&p, side))],
                    "{protocol:?} {side} {steps:?}"
                );
            }
        }
    }
}

#[test]
fn a_rook_beside_its_king_left_there_is_a_rook_move() {
    let pos = fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    let mut rig = Rig::new(
        SimBoard::new(Protocol::Dgt, pos.board().clone()),
        pos.clone(),
    );
    rig.lift(Square::H1);
    rig.place(Square::F1, Color::White.rook());
    rig.take();
    assert_eq!(
        rig.tracker.next_deadline(),
        Some(rig.now + DEFAULT_CASTLE_WAIT)
    );
    rig.settle();
    assert_eq!(rig.take(), vec![Inferred::Move(uci(&pos, "h1f1"))]);
}

#[test]
fn rotated_dgt_board_is_detected_at_the_start_position() {
    let sim = SimBoard::new(Protocol::Dgt, Board::new()).with_orientation(Orientation::Rotated);
    let mut rig = Rig::new(sim, Chess::new());
    assert_eq!(rig.take(), vec![Inferred::Rotated(Orientation::Rotated)]);
    assert_eq!(rig.tracker.orientation(), Orientation::Rotated);
    assert_eq!(
        rig.tracker.board_squares(Bitboard::from_square(Square::A1)),
        Bitboard::from_square(Square::H8)
    );
    let m = rig.hand("e2e4", false);
    assert_eq!(
        rig.take(),
        vec![Inferred::Touched(Square::E2), Inferred::Move(m)]
    );
}

#[test]
fn rotated_occupancy_board_is_detected_on_the_first_move() {
    let sim =
        SimBoard::new(Protocol::Occupancy, Board::new()).with_orientation(Orientation::Rotated);
    let mut rig = Rig::new(sim, Chess::new());
    // The start position looks the same either way round.
    assert_eq!(rig.take(), vec![]);
    let m = rig.hand("g1f3", false);
    assert_eq!(
        rig.take(),
        vec![Inferred::Rotated(Orientation::Rotated), Inferred::Move(m)]
    );
    let m = rig.hand("d7d5", false);
    assert_eq!(
        rig.take(),
        vec![Inferred::Touched(Square::D7), Inferred::Move(m)]
    );
}

#[test]
fn fixed_orientation_is_not_second_guessed() {
    let config = TrackerConfig {
        detect_rotation: false,
        ..TrackerConfig::default()
    };
    let mut tracker = Tracker::new(Chess::new(), config);
    let rotated = SensedBoard::from_board(&Board::new()).rotated();
    let got = tracker.feed(&BoardEvent::Snapshot(rotated), Instant::now());
    assert_eq!(got, vec![]);
    assert_eq!(tracker.orientation(), Orientation::Normal);
    assert!(tracker.next_deadline().is_some());
}

#[test]
fn touched_only_for_the_side_to_move() {
    let mut rig = Rig::start(Protocol::Occupancy);
    rig.lift(Square::E7);
    assert_eq!(rig.take(), vec![]);
    rig.place(Square::E7, Color::Black.pawn());
    rig.lift(Square::B1);
    assert_eq!(rig.take(), vec![Inferred::Touched(Square::B1)]);
    // Put back: in sync again; nothing was reported, nothing to clear.
    rig.place(Square::B1, Color::White.knight());
    rig.lift(Square::B1);
    assert_eq!(rig.take(), vec![]);
}

#[test]
fn occupancy_capture_needs_the_captured_square_lifted() {
    // The bishop c4 can take f7 or b5: lifting it alone is no capture.
    let pos = fen("rnbqkbnr/p1pppppp/8/1p6/2B1P3/8/PPPP1PPP/RNBQK1NR w KQkq - 0 3");
    let mut rig = Rig::new(
        SimBoard::new(Protocol::Occupancy, pos.board().clone()),
        pos.clone(),
    );
    rig.lift(Square::C4);
    assert_eq!(rig.take(), vec![Inferred::Touched(Square::C4)]);
    assert_eq!(rig.tracker.next_deadline(), None);
    rig.settle();
    assert_eq!(rig.take(), vec![]);
    rig.lift(Square::B5);
    rig.place(Square::B5, Color::White.bishop());
    assert_eq!(rig.take(), vec![Inferred::Move(uci(&pos, "c4b5"))]);
}

#[test]
fn start_position_mid_game_is_a_new_game() {
    let mut rig = Rig::start(Protocol::Millennium);
    rig.hand("e2e4", false);
    rig.hand("e7e5", false);
    rig.take();
    let bytes = rig.sim.set_board(Board::new());
    rig.bytes(&bytes);
    assert_eq!(rig.take_untouched(), vec![Inferred::NewGame]);
    assert_eq!(rig.tracker.set_game(&Chess::new(), None, rig.now), vec![]);
}

#[test]
fn repeated_identical_snapshots_do_not_delay_a_move() {
    let pos = fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    let mut rig = Rig::new(
        SimBoard::new(Protocol::Millennium, pos.board().clone()),
        pos,
    );
    let m = rig.hand("a1a5", false);
    rig.take();
    let deadline = rig.tracker.next_deadline();
    // The board streams its status on every scan.
    for _ in 0..10 {
        rig.now += Duration::from_millis(25);
        let dump = rig.sim.dump();
        rig.bytes(&dump);
    }
    assert_eq!(rig.tracker.next_deadline(), deadline);
    rig.settle();
    assert_eq!(rig.take(), vec![Inferred::Move(m)]);
}

#[test]
fn nothing_is_judged_before_a_whole_board_arrives() {
    let mut tracker = Tracker::new(Chess::new(), TrackerConfig::default());
    let now = Instant::now();
    let got = tracker.feed(
        &BoardEvent::SquareChanged {
            square: Square::E2,
            sensed: Sensed::Empty,
        },
        now,
    );
    assert_eq!(got, vec![]);
    assert_eq!(tracker.sensed(), None);
    assert!(tracker.mismatch().is_empty());
    assert_eq!(tracker.next_deadline(), None);
    // The first whole board is compared with the game: a black pawn is
    // missing (White to move, so it is not a move in progress).
    let mut board = SensedBoard::from_board(&Board::new());
    board.set(Square::E7, Sensed::Empty);
    assert_eq!(tracker.feed(&BoardEvent::Snapshot(board), now), vec![]);
    assert_eq!(tracker.mismatch().len(), 1);
    let got = tracker.tick(now + DEFAULT_SETTLE);
    assert!(
        matches!(got.as_slice(), [Inferred::Mismatch(d)] if d[0].square == Square::E7),
        "{got:?}"
    );
}

#[test]
fn a_lifted_piece_held_in_the_hand_is_not_a_mismatch() {
    let mut rig = Rig::start(Protocol::Dgt);
    rig.lift(Square::D1);
    assert_eq!(rig.take(), vec![Inferred::Touched(Square::D1)]);
    assert_eq!(rig.tracker.next_deadline(), None);
    rig.wait(Duration::from_secs(30));
    assert_eq!(rig.take(), vec![]);
    assert_eq!(rig.tracker.mismatch().len(), 1);
}

#[test]
fn version_and_garbage_events_change_nothing() {
    let mut rig = Rig::start(Protocol::Dgt);
    let v = rig.sim.version();
    rig.bytes(&v);
    rig.bytes(&[0x01, 0x02, 0x8e, 0x00]);
    assert_eq!(rig.take(), vec![]);
}

/// Issue 20: a move made on the board and refused by lichess is taken
/// back from the game: the board still showing it is the mismatch to put
/// right (at once, and never the same move again); put back, it matches;
/// made anew, it is a move again.
#[test]
fn a_refused_move_still_on_the_board_is_a_mismatch_until_put_back() {
    for protocol in Protocol::ALL {
        let mut rig = Rig::start(protocol);
        let m = rig.hand("g1f3", false);
        let mut got = rig.take_untouched();
        if got.is_empty() {
            rig.settle();
            got = rig.take_untouched();
        }
        assert_eq!(got, vec![Inferred::Move(m)], "{protocol:?}");
        let got = rig.tracker.move_refused(&Chess::new(), None, m, rig.now);
        assert!(
            matches!(&got[..], [Inferred::Mismatch(d)] if d.len() == 2),
            "{protocol:?}: {got:?}"
        );
        rig.settle();
        assert_eq!(rig.take_untouched(), vec![], "{protocol:?}");
        rig.lift(Square::F3);
        rig.place(Square::G1, Color::White.knight());
        assert_eq!(
            rig.take_untouched(),
            vec![Inferred::Matches],
            "{protocol:?}"
        );
        let again = rig.hand("g1f3", false);
        rig.settle();
        assert_eq!(
            rig.take_untouched(),
            vec![Inferred::Move(again)],
            "{protocol:?}"
        );
    }
}
