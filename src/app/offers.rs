//! Draw offers, claims and resignation (FIDE 9.1, 9.2, 9.3, 5.1.2).

use std::time::Instant;

use shakmaty::Position;

use super::App;
use crate::game::{Claim, ClaimOutcome, ClaimRefused, GameError};
use crate::msg::Effect;
use crate::speech::{Priority, SayKind};

impl App {
    /// Refuse anything but exploration once the game is over.
    fn refuse_if_over(&mut self, out: &mut Vec<Effect>) -> bool {
        match self.game_is_over() {
            Some(t) => {
                self.say(out, t, Priority::Normal, SayKind::Error);
                true
            }
            None => false,
        }
    }

    /// `draw` typed at the keyboard: the offer of the player at it (the
    /// side that is "mine").  An offer is made after moving (9.1.2.1): typed
    /// while it is that player's move, it is kept and made with their next
    /// move, and hector says so.
    pub(super) fn typed_draw_offer(&mut self, out: &mut Vec<Effect>) {
        if self.refuse_if_over(out) {
            return;
        }
        if self.game.turn() == self.settings.me && self.game.pending_offer().is_none() {
            self.parts.offers.kept = Some(self.settings.me);
            let t = self.message("offer_kept", &[]);
            self.info(out, t);
            return;
        }
        self.offer_draw(out);
    }

    /// The player who has just moved offers a draw (9.1.2.1); before the
    /// first move, the player to move.
    pub(super) fn offer_draw(&mut self, out: &mut Vec<Effect>) {
        if self.refuse_if_over(out) {
            return;
        }
        let by = if self.game.history().is_empty() {
            self.game.turn()
        } else {
            !self.game.turn()
        };
        let t = match self.game.offer_draw(by) {
            Ok(()) => {
                let side = self.talk.phraser.side(by);
                self.message("draw_offered", &[("side", &side)])
            }
            Err(e) => self.game_error(&e),
        };
        self.say(out, t, Priority::Urgent, SayKind::Game);
    }

    pub(super) fn accept_draw(&mut self, out: &mut Vec<Effect>) {
        if self.refuse_if_over(out) {
            return;
        }
        let by = self.game.turn();
        match self.game.accept_draw(by) {
            Ok(_) => {
                let t = self.game_over_sentence().unwrap_or_default();
                self.say(out, t, Priority::Urgent, SayKind::Game);
            }
            Err(e) => {
                let t = self.game_error(&e);
                self.say(out, t, Priority::Normal, SayKind::Error);
            }
        }
    }

    /// The sentence for a refused offer, acceptance or decline.
    pub(super) fn game_error(&self, e: &GameError) -> String {
        match e {
            GameError::NoOffer => self.message("no_offer", &[]),
            GameError::OwnOffer => self.message("own_offer", &[]),
            GameError::OfferPending { .. } => self.message("offer_pending", &[]),
            GameError::AgreementTooEarly => self.message("too_early", &[]),
            GameError::GameOver | GameError::IllegalMove => self.message("offer_not_now", &[]),
        }
    }

    pub(super) fn decline_draw(&mut self, out: &mut Vec<Effect>) {
        if self.refuse_if_over(out) {
            return;
        }
        let by = self.game.turn();
        let t = match self.game.decline_draw(by) {
            Ok(()) => {
                let side = self.talk.phraser.side(by);
                self.message("draw_declined", &[("side", &side)])
            }
            Err(e) => self.game_error(&e),
        };
        self.say(out, t, Priority::Normal, SayKind::Game);
    }

    pub(super) fn resign(&mut self, out: &mut Vec<Effect>) {
        if self.refuse_if_over(out) || self.online_resign(out) {
            return;
        }
        let by = self.game.turn();
        if self.game.resign(by).is_ok()
            && let Some(t) = self.game_over_sentence()
        {
            self.say(out, t, Priority::Urgent, SayKind::Game);
        }
    }

    /// A draw claim by the player to move (9.2, 9.3), on the position now
    /// or on an intended move.  Which rule is claimed follows from the
    /// position: 50 moves when the count is there, else repetition.
    pub(super) fn claim(&mut self, intended: Option<String>, now: Instant, out: &mut Vec<Effect>) {
        if self.refuse_if_over(out) || self.online_claim(now, out) {
            return;
        }
        let pos = self.game.position().clone();
        let mv = match intended {
            None => None,
            Some(text) => match self.talk.reader.read(&text, &pos) {
                Ok(mv) => Some(mv),
                Err(e) => {
                    let t = self.talk.phraser.input_error(&e, &pos);
                    self.say(out, t, Priority::Normal, SayKind::Error);
                    return;
                }
            },
        };
        let halfmoves_after = match mv {
            Some(m) => pos.clone().play(m).map(|p| p.halfmoves()).unwrap_or(0),
            None => pos.halfmoves(),
        };
        let kind = if halfmoves_after >= 100 {
            Claim::FiftyMoves
        } else {
            Claim::Repetition
        };
        let by = pos.turn();
        self.note_claim(by, kind, mv);
        // The clock stops while the claim is decided (9.2, 9.5.1) and
        // stays stopped if the game ends.
        let held = self.clock_hold(now);
        match self.game.claim(by, kind, mv) {
            Ok(ClaimOutcome::Drawn(_)) | Ok(ClaimOutcome::EndedByMove(_)) => {
                if let Some(m) = mv {
                    self.announce_move(&pos, m, out);
                }
                let t = self.game_over_sentence().unwrap_or_default();
                self.say(out, t, Priority::Urgent, SayKind::Game);
            }
            Ok(ClaimOutcome::Refused {
                reason,
                played,
                draw_offer,
            }) => {
                let mut t = match reason {
                    ClaimRefused::Repetition { occurrences: 1 } => {
                        self.message("claim_refused_repetition_once", &[])
                    }
                    ClaimRefused::Repetition { occurrences } => self.message(
                        "claim_refused_repetition",
                        &[("count", &occurrences.to_string())],
                    ),
                    ClaimRefused::FiftyMoves { halfmoves } => self.message(
                        "claim_refused_fifty",
                        &[("count", &(halfmoves / 2).to_string())],
                    ),
                    ClaimRefused::NotYourTurn => self.message("claim_needs_turn", &[]),
                };
                if draw_offer {
                    // 9.1.2.3: a claim counts as a draw offer.
                    t = format!("{t} {}", self.message("claim_is_offer", &[]));
                }
                self.say(out, t, Priority::Normal, SayKind::Game);
                // 9.5.3: an incorrect claim costs time (by the edition).
                if reason != ClaimRefused::NotYourTurn {
                    self.penalised(by, "incorrect-claim", "9.5.3", now, |a| {
                        a.claim_penalty(by, now, out);
                    });
                }
                // The decision made, the clock runs again.
                self.clock_release(held, now);
                if let Some(p) = played {
                    // 9.5.3: the intended move must be made, and it
                    // presses the clock like any move.
                    self.announce_move(&pos, p.mv, out);
                    if let Some(t) = self.game_over_sentence() {
                        self.say(out, t, Priority::Urgent, SayKind::Game);
                    }
                    self.clock_moved(by, now, out);
                }
            }
            Err(_) => {
                self.clock_release(held, now);
                let t = self.message("claim_needs_turn", &[]);
                self.say(out, t, Priority::Normal, SayKind::Error);
            }
        }
    }
}
