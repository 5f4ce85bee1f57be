//! Issue 18, the board and move items, through the real binary: a typed
//! square alone, the resume question, typed moves waiting to be made on
//! the player's board (DGT over a pseudo-terminal).

use crate::util::hector;

/// Item 2: a square alone is a pawn move.  `f7` after 1. e4 e5 2. Qh5
/// Nc6 played Qxf7+; now it asks, plays nothing, and the game goes on.
#[test]
fn a_square_alone_never_plays_a_piece() {
    let run = hector(&[], "e4\ne5\nQh5\nNc6\nf7\nturn\nQxf7\n");
    let lines = run.lines();
    assert_eq!(
        lines[5..],
        [
            "No pawn can go to Felix sieben. Did you mean Dame schlägt Felix sieben?",
            "White to move, move 3.",
            "Dame schlägt Felix sieben, Schach",
        ],
        "{}",
        run.stdout
    );
}
