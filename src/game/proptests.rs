//! Random sequences of every operation never panic and keep the game's
//! invariants.

use proptest::prelude::*;
use shakmaty::{Chess, Color, Position};

use super::{Claim, ClaimOutcome, Game, GameError};

/// One thing a player or arbiter can do.
#[derive(Debug, Clone)]
enum Op {
    /// The n-th legal move (modulo their number).
    Move(usize),
    Claim(Color, Claim, Option<usize>),
    Offer(Color),
    Accept(Color),
    Decline(Color),
    Resign(Color),
    Undo,
}

fn color() -> impl Strategy<Value = Color> {
    prop_oneof![Just(Color::White), Just(Color::Black)]
}

fn op() -> impl Strategy<Value = Op> {
    let claim = prop_oneof![Just(Claim::Repetition), Just(Claim::FiftyMoves)];
    prop_oneof![
        20 => any::<usize>().prop_map(Op::Move),
        3 => (color(), claim, proptest::option::of(any::<usize>()))
            .prop_map(|(c, k, m)| Op::Claim(c, k, m)),
        2 => color().prop_map(Op::Offer),
        2 => color().prop_map(Op::Accept),
        1 => color().prop_map(Op::Decline),
        1 => color().prop_map(Op::Resign),
        3 => Just(Op::Undo),
    ]
}

/// Single moves from the start of the game to `pos`, by its counters.
fn plies(pos: &Chess) -> u64 {
    (u64::from(pos.fullmoves().get()) - 1) * 2 + u64::from(pos.turn() == Color::Black)
}

fn nth_legal(g: &Game, n: usize) -> Option<shakmaty::Move> {
    let moves = g.position().legal_moves();
    moves.get(n % moves.len().max(1)).copied()
}

fn apply(g: &mut Game, op: &Op) {
    let was_over = g.is_over();
    let len = g.history().len();
    match *op {
        Op::Move(n) => {
            if let Some(mv) = nth_legal(g, n) {
                let r = g.play(mv).map(|_| ());
                assert_eq!(r.is_ok(), !was_over);
            }
        }
        Op::Claim(c, k, m) => {
            let mv = m.and_then(|n| nth_legal(g, n));
            match g.claim(c, k, mv) {
                Err(e) => assert_eq!(e, GameError::GameOver),
                Ok(ClaimOutcome::Drawn(r)) => assert_eq!(g.result(), Some(r)),
                Ok(ClaimOutcome::EndedByMove(r)) => assert_eq!(g.result(), Some(r)),
                Ok(ClaimOutcome::Refused { played, .. }) => {
                    assert!(!g.is_over() || played.is_some());
                    let expected = len + usize::from(played.is_some());
                    assert_eq!(g.history().len(), expected);
                }
            }
        }
        Op::Offer(c) => {
            if g.offer_draw(c).is_ok() {
                assert_eq!(g.pending_offer(), Some(c));
            }
        }
        Op::Accept(c) => {
            let offer = g.pending_offer();
            if g.accept_draw(c).is_ok() {
                assert_eq!(offer, Some(!c));
                assert!(g.is_over());
            }
        }
        Op::Decline(c) => {
            if g.decline_draw(c).is_ok() {
                assert_eq!(g.pending_offer(), None);
            }
        }
        Op::Resign(c) => {
            if g.resign(c).is_ok() {
                assert_eq!(g.result().and_then(|r| r.winner()), Some(!c));
            }
        }
        Op::Undo => {
            let undone = g.undo_last();
            assert_eq!(undone.is_some(), len > 0);
        }
    }
    if was_over && !matches!(op, Op::Undo) {
        assert_eq!(g.history().len(), len, "nothing is played after the end");
    }
}

fn check_invariants(g: &Game) {
    assert_eq!(
        g.history().len() as u64,
        plies(g.position()) - plies(g.start())
    );
    assert_eq!(g.positions().len(), g.history().len());
    assert_eq!(&g.replay(), g.position());
    assert!(g.repetitions() >= 1);
    if g.is_over() {
        assert_eq!(g.pending_offer(), None);
    }
    for (before, m) in g.positions() {
        assert_eq!(before.turn(), m.by);
        assert_eq!(before.fullmoves().get(), m.number);
    }
    let text = g.pgn_movetext();
    assert!(text.ends_with(g.result().map_or("*", |r| r.outcome.as_str())));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_operations_keep_the_game_consistent(ops in proptest::collection::vec(op(), 0..120)) {
        let mut g = Game::new();
        for op in &ops {
            apply(&mut g, op);
            check_invariants(&g);
        }
    }

    #[test]
    fn random_play_from_a_sparse_position(ops in proptest::collection::vec(op(), 0..200)) {
        // Few pieces: repetitions, dead positions and long quiet runs happen.
        let mut g = Game::from_fen("4k3/8/8/8/8/8/1n6/R3K3 w Q - 90 60")
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        for op in &ops {
            apply(&mut g, op);
            check_invariants(&g);
        }
    }
}
