//! `takeback`: the last move (against the engine, the last pair) taken
//! back in the game, and on the player's board when one answers: there
//! the moves are awaited one by one ([`TakebackAwaited`]).  After the end,
//! both players may agree to reopen a game that ended on the board.  What
//! is taken back is the App's rules (`app/rules.rs`).

/// A `takeback` with the player's board: the moves are taken back in the
/// game as the board takes them back, one by one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct TakebackAwaited {
    /// The number of moves the game has once all are taken back.
    pub(super) target: usize,
    /// The moves taken back, in words, oldest first.
    pub(super) moves: Vec<String>,
    /// What to do on the board, said again on a second `takeback`.
    pub(super) instruction: String,
}
