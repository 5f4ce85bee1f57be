//! `takeback`: the last move (against the engine, the last pair) taken
//! back in the game, and on the player's board when one answers: there
//! the moves are awaited one by one ([`TakebackAwaited`]).  After the end,
//! both players may agree to reopen a game that ended on the board.

use std::time::Instant;

use shakmaty::Position;

use super::App;
use super::change::Edit;
use crate::msg::Effect;
use crate::speech::{Priority, SayKind};

/// A `takeback` with the player's board: the moves are taken back in the
/// game as the board takes them back, one by one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct TakebackAwaited {
    /// The number of moves the game has once all are taken back.
    target: usize,
    /// The moves taken back, in words, oldest first.
    moves: Vec<String>,
    /// What to do on the board, said again on a second `takeback`.
    instruction: String,
}

impl App {
    /// `takeback`: the last move pair (the engine's reply and the player's
    /// move), or the player's move while the engine thinks; without an
    /// engine, the last move.  A board then shows what to put back.
    pub(super) fn take_back(&mut self, now: Instant, out: &mut Vec<Effect>) {
        if self.settings.rated {
            let t = self.message("help_off_rated", &[]);
            self.info(out, t);
            return;
        }
        if self.game.is_over() {
            self.takeback_after_end(out);
            return;
        }
        if let Some(a) = &self.parts.boards.takeback_awaited {
            let t = a.instruction.clone();
            self.say(out, t, Priority::Normal, SayKind::Board);
            return;
        }
        self.take_back_moves(now, out);
    }

    /// `takeback` after the end: a finished game stays finished.  In a
    /// two-player game both players may agree to reopen it, when it ended
    /// on the board or by the players (not by a flag, an illegal move too
    /// many or the arbiter); against the engine, never.
    fn takeback_after_end(&mut self, out: &mut Vec<Effect>) {
        use crate::game::EndReason;
        let by_the_clock_or_the_arbiter = self.game.result().is_some_and(|r| {
            matches!(
                r.reason,
                EndReason::TimeForfeit | EndReason::IllegalMove | EndReason::ArbiterDecision
            )
        });
        if self.parts.engine.is_some()
            || by_the_clock_or_the_arbiter
            || self.game.history().is_empty()
        {
            let t = self.message("takeback_after_end_refused", &[]);
            self.say(out, t, Priority::Normal, SayKind::Error);
            return;
        }
        let last = self
            .game
            .positions()
            .next_back()
            .map(|(before, played)| self.talk.phraser.say_move(before, played.mv))
            .unwrap_or_default();
        self.ask(super::Question::TakebackAfterEnd, out);
        let t = self.message("takeback_after_end_ask", &[("moves", &last)]);
        self.info(out, t);
    }

    /// Both players agreed to take back after the end: the last move is
    /// taken back, the game goes on, and so does its clock.
    pub(super) fn take_back_agreed(&mut self, now: Instant, out: &mut Vec<Effect>) {
        if !self.game.is_over() || self.settings.rated || self.parts.engine.is_some() {
            return self.take_back(now, out);
        }
        self.take_back_moves(now, out);
        if !self.game.is_over()
            && let Some(part) = &mut self.parts.clock
            && part.clock.is_paused()
            && !part.follows_board()
        {
            let _ = part.clock.resume(now);
        }
    }

    /// Take back the last move (with an engine, the last pair).
    fn take_back_moves(&mut self, now: Instant, out: &mut Vec<Effect>) {
        let plies = match &self.parts.engine {
            Some(_) if self.game.turn() == self.settings.me => 2,
            _ => 1,
        };
        let plies = plies.min(self.game.history().len());
        if plies == 0 {
            let t = self.message("nothing_to_take_back", &[]);
            self.info(out, t);
            return;
        }
        let mut taken: Vec<String> = self
            .game
            .positions()
            .rev()
            .take(plies)
            .map(|(before, played)| self.talk.phraser.say_move(before, played.mv))
            .collect();
        taken.reverse();
        if let Some(e) = &mut self.parts.engine {
            e.cancel_search();
        }
        // With a board that answers, the moves it shows are taken back on
        // it; moves not made there yet (still awaited), at once.  A board
        // that shows none of these positions is told its mismatch instead.
        let on_board = match self.parts.boards.player().filter(|b| b.connected()) {
            Some(b) => {
                let sensed = b.tracker().sensed();
                let states = std::iter::once(self.game.position())
                    .chain(self.game.positions().rev().take(plies).map(|(p, _)| p));
                let not_made = sensed.and_then(|s| {
                    states
                        .enumerate()
                        .find(|(_, p)| s.matches(p.board()))
                        .map(|(k, _)| k)
                });
                not_made.map_or(0, |k| plies - k.min(plies))
            }
            None => 0,
        };
        self.take_back_in_game(plies - on_board, now, out);
        if on_board == 0 {
            self.parts.boards.takeback_awaited = None;
            let t = self.message("taken_back", &[("moves", &taken.join(", "))]);
            self.say(out, t, Priority::Normal, SayKind::Game);
            return;
        }
        // What to take back on the board, the last move first.
        let mut to_undo: Vec<String> = taken.iter().take(on_board).cloned().collect();
        to_undo.reverse();
        let t = self.message("takeback_on_board", &[("moves", &to_undo.join(", "))]);
        self.parts.boards.takeback_awaited = Some(TakebackAwaited {
            target: self.game.history().len().saturating_sub(on_board),
            moves: taken,
            instruction: t.clone(),
        });
        self.say(out, t, Priority::Normal, SayKind::Board);
    }

    /// The board took back the game's last move (the game has undone it):
    /// part of an awaited `takeback`, said once all are taken back; true
    /// when it was.
    pub(super) fn board_took_back(&mut self, out: &mut Vec<Effect>) -> bool {
        let Some(awaited) = &self.parts.boards.takeback_awaited else {
            return false;
        };
        let len = self.game.history().len();
        if len > awaited.target {
            return true;
        }
        let moves = awaited.moves.join(", ");
        self.parts.boards.takeback_awaited = None;
        let t = self.message("taken_back", &[("moves", &moves)]);
        self.say(out, t, Priority::Normal, SayKind::Game);
        true
    }

    /// The board is gone while a take-back was awaited there: the moves
    /// are taken back in the game now.
    pub(super) fn takeback_without_board(&mut self, now: Instant, out: &mut Vec<Effect>) {
        let Some(target) = self
            .parts
            .boards
            .takeback_awaited
            .as_ref()
            .map(|a| a.target)
        else {
            return;
        };
        let n = self.game.history().len().saturating_sub(target);
        self.take_back_in_game(n, now, out);
        self.board_took_back(out);
    }

    /// `n` moves taken back in the game (the clock hears of it); none: the
    /// clock still forgets a press it waited for.
    fn take_back_in_game(&mut self, n: usize, now: Instant, out: &mut Vec<Effect>) {
        match self.change(Edit::TakeBack(n)) {
            Ok(c) if !c.is_empty() => self.settle(now, out),
            _ => {
                if let Some(part) = &mut self.parts.clock {
                    part.took_back(&self.game, now);
                }
            }
        }
    }
}
