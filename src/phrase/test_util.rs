//! Positions for the phrasing tests, reached by playing SAN moves.

use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::{CastlingMode, Chess, Move, Position};

/// The moves of `line` ("1. e4 e5 2. Nf3"; move numbers are skipped), each
/// with the position before it.  Panics on an illegal move: a broken test.
pub fn history(line: &str) -> Vec<(Chess, Move)> {
    let mut pos = Chess::default();
    let mut out = Vec::new();
    for word in line.split_whitespace().filter(|w| !w.ends_with('.')) {
        let san = San::from_ascii(word.as_bytes()).unwrap_or_else(|_| panic!("SAN {word}"));
        let mv = san
            .to_move(&pos)
            .unwrap_or_else(|e| panic!("{word} in {line}: {e}"));
        out.push((pos.clone(), mv));
        pos.play_unchecked(mv);
    }
    out
}

/// The position after `line`.
pub fn play(line: &str) -> Chess {
    match history(line).pop() {
        Some((mut pos, mv)) => {
            pos.play_unchecked(mv);
            pos
        }
        None => Chess::default(),
    }
}

/// The last move of `line` and the position before it.
pub fn last(line: &str) -> (Chess, Move) {
    history(line).pop().expect("a line with moves")
}

/// A position from FEN.
pub fn fen(text: &str) -> Chess {
    let fen: Fen = text.parse().expect("FEN");
    fen.into_position(CastlingMode::Standard)
        .expect("legal FEN")
}
