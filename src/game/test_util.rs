//! Helpers for the tests of this module: moves from SAN.

use shakmaty::Move;
use shakmaty::san::San;

use super::Game;

/// The move `text` (SAN) in the game's current position; panics in a test
/// if it is not legal there.
pub(super) fn san(game: &Game, text: &str) -> Move {
    let san: San = text
        .trim_end_matches(['+', '#'])
        .parse()
        .unwrap_or_else(|e| panic!("bad SAN {text}: {e:?}"));
    san.to_move(game.position())
        .unwrap_or_else(|e| panic!("{text} not legal: {e:?}"))
}

/// Plays the moves given in SAN; panics in a test if one is refused.
pub(super) fn play_all(game: &mut Game, moves: &[&str]) {
    for text in moves {
        let mv = san(game, text);
        if let Err(e) = game.play(mv) {
            panic!("{text} refused: {e}");
        }
    }
}
