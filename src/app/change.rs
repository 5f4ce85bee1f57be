//! The one way the game changes, and the one stream that tells the parts.
//!
//! Whatever changes the game (a move typed, made on a board, by the engine,
//! by the opponent on their page or on lichess; a take-back; an offer, its
//! answer; a claim; a resignation; the end by a flag, an illegal move or
//! the arbiter; a new, resumed or rejoined game) is an [`Edit`] passed to
//! [`App::change`], the only code that writes `App::game`.  It answers
//! with what changed ([`GameChange`]) and puts the same changes on the
//! App's queue; [`App::settle`] gives each queued change once to every part
//! that follows the game, in one place and one order: the boards, the
//! lichess game, the offers, the clock, the broadcast.  The App settles
//! where the order of what is said matters (right after a move is
//! announced) and, for whatever is left, at the end of every update (as
//! gitui routes its news through one queue, `src/queue.rs`).
//!
//! Before, the parts heard of a move in two ways: pushed, one by one,
//! from `App::play`, and pulled after `update` by comparing the game
//! with what each had seen; the lichess part needed a flag set around a
//! call so as not to post the server's own move back.

use std::time::Instant;

use shakmaty::{Chess, Color, Move};

use super::App;
use super::voice::Voice;
use crate::game::{Claim, ClaimOutcome, Game, GameError, GameResult};
use crate::msg::Effect;

/// A change asked of the game.
#[derive(Debug, Clone)]
pub(super) enum Edit {
    /// Play a legal move.
    Play(Move),
    /// Take back the last `n` moves (fewer if the game has fewer).
    TakeBack(usize),
    /// `by` offers a draw.
    OfferDraw(Color),
    /// `by` accepts the standing offer.
    AcceptDraw(Color),
    /// `by` declines the standing offer.
    DeclineDraw(Color),
    /// `by` resigns.
    Resign(Color),
    /// `by` claims a draw, on the position or on an intended move.
    Claim {
        by: Color,
        claim: Claim,
        intended: Option<Move>,
    },
    /// The game ends by a rule outside the board (a flag, an illegal move,
    /// the arbiter, the server's word).
    End(GameResult),
    /// Another game in its place (a new one, a resumed one, one set up).
    Replace(Game),
    /// The game shown in a review, at another move (no game is played).
    Show(Game),
}

/// What changed in the game.
#[derive(Debug, Clone)]
pub(super) enum GameChange {
    /// `by` played `mv` in `before`; `lapsed`: the opponent's offer that
    /// stood and lapsed by this move (9.1.2.3).
    Moved {
        before: Box<Chess>,
        mv: Move,
        by: Color,
        lapsed: Option<Color>,
    },
    /// These moves were taken back (the last first).
    TakenBack(usize),
    /// `by` offered a draw.
    Offered(Color),
    /// `by` declined the standing offer.
    Declined(Color),
    /// A claim was decided (its outcome as the rules gave it).
    Claimed(ClaimOutcome),
    /// The game ended.
    Ended(GameResult),
    /// Another game is played: this one, as it was given (its moves, if
    /// any, are part of it).
    Replaced(Box<Game>),
    /// A review shows another move of its game.
    Shown,
}

impl App {
    /// Change the game: the one place it is written.  The changes are
    /// returned (for the caller to word) and queued for the parts
    /// ([`App::settle`]).  Nothing changes on an error.
    pub(super) fn change(&mut self, edit: Edit) -> Result<Vec<GameChange>, GameError> {
        let edition = self.parts.edition();
        let game = &mut self.game;
        let was_over = game.result();
        let mut changes = Vec::new();
        match edit {
            Edit::Play(mv) => {
                let before = game.position().clone();
                let offer = game.pending_offer();
                let by = game.play(mv)?.by;
                changes.push(GameChange::Moved {
                    before: Box::new(before),
                    mv,
                    by,
                    lapsed: offer.filter(|o| *o != by),
                });
            }
            Edit::TakeBack(n) => {
                let mut count = 0;
                while count < n && game.undo_last().is_some() {
                    count += 1;
                }
                if count > 0 {
                    changes.push(GameChange::TakenBack(count));
                }
            }
            Edit::OfferDraw(by) => {
                game.offer_draw(by)?;
                changes.push(GameChange::Offered(by));
            }
            Edit::AcceptDraw(by) => {
                game.accept_draw(by)?;
            }
            Edit::DeclineDraw(by) => {
                game.decline_draw(by)?;
                changes.push(GameChange::Declined(by));
            }
            Edit::Resign(by) => {
                // Its result by the game's rules edition (a lone king
                // against a resignation draws by 2023).
                game.resign_under(by, edition)?;
            }
            Edit::Claim {
                by,
                claim,
                intended,
            } => {
                let before = game.position().clone();
                let offer = game.pending_offer();
                let outcome = game.claim(by, claim, intended)?;
                let played = match &outcome {
                    ClaimOutcome::Refused { played, .. } => played.as_ref().map(|p| p.mv),
                    ClaimOutcome::Drawn(_) | ClaimOutcome::EndedByMove(_) => intended,
                };
                if let Some(mv) = played {
                    changes.push(GameChange::Moved {
                        before: Box::new(before),
                        mv,
                        by,
                        lapsed: offer.filter(|o| *o != by),
                    });
                }
                changes.push(GameChange::Claimed(outcome));
            }
            Edit::End(result) => {
                if !game.end_by_rule(result) {
                    return Err(GameError::GameOver);
                }
            }
            Edit::Replace(new) => {
                changes.push(GameChange::Replaced(Box::new(new.clone())));
                *game = new;
            }
            Edit::Show(shown) => {
                *game = shown;
                changes.push(GameChange::Shown);
            }
        }
        if let Some(result) = game.result().filter(|_| was_over.is_none()) {
            changes.push(GameChange::Ended(result));
        }
        if changes.iter().any(|c| matches!(c, GameChange::Replaced(_))) {
            self.parts.journal.epoch += 1;
        }
        self.changes.extend(changes.iter().cloned());
        Ok(changes)
    }

    /// Another game in place of this one (a new one, one set up, resumed
    /// or lichess's).
    pub(super) fn replace_game(&mut self, game: Game) {
        let _ = self.change(Edit::Replace(game));
    }

    /// Give every change queued since the last time once to every part
    /// that follows the game, in order.  A part's answer may change the
    /// game again (an offer kept for the move is made with it): that
    /// change is given out in the same call.
    pub(super) fn settle(&mut self, now: Instant, out: &mut Vec<Effect>) {
        while !self.changes.is_empty() {
            let change = self.changes.remove(0);
            self.give(&change, now, out);
        }
    }

    /// One change, to each part in turn.
    fn give(&mut self, change: &GameChange, now: Instant, out: &mut Vec<Effect>) {
        if let Some(sheet) = &mut self.parts.journal.sheet {
            sheet.hear(change);
        }
        if let Some(t) = &mut self.parts.tournament {
            t.hear(change, &mut self.parts.journal);
        }
        self.parts.boards.on_change(change);
        if let Some(b) = &mut self.parts.broadcast {
            b.on_change(change);
        }
        let plies = self.game.history().len();
        if let Some(o) = &mut self.parts.online {
            out.extend(o.on_change(change, self.settings.me, plies, now));
        }
        // A take-back asked ends with the next move (issue 30) and with any
        // other take-back (accepted, the arbiter's).
        self.parts.takeback.on_change(
            change,
            &self.game,
            self.settings.me,
            &mut self.parts.journal,
            &mut Voice::new(&mut self.talk, out),
        );
        let over = self.game.is_over();
        // (None stands when it is: a refused claim with its move is one.)
        if let Some(action) = self.parts.offers.due(change, over)
            && self.game.pending_offer().is_none()
        {
            // The offer typed before this move is made now (9.1.2.1).
            self.draw_action(action, false, out);
        }
        let me = self.settings.me;
        if let Some(c) = &mut self.parts.clock
            && let Some(side) = c.on_change(
                change,
                &self.game,
                me,
                now,
                &mut Voice::new(&mut self.talk, out),
            )
        {
            self.flag_fell(side, out);
        }
    }
}
