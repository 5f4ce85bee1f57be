//! Draw offers, claims and resignation (FIDE 9.1, 9.2, 9.3, 5.1.2).
//!
//! The offers part ([`Offers`]) keeps what lies between moves: an offer
//! typed by the player to move, made with their next move (9.1.2.1), and
//! the offer that stood when a message came, so that one the opponent let
//! lapse by moving is said (9.1.2.3).  It decides from the game it is
//! shown and answers in plain values (an offer to make now, a side whose
//! offer lapsed); the App makes the offer and words it, as the game is the
//! App's.  Claims and resignation change the game alone: App methods.

use std::time::Instant;

use shakmaty::{Color, Position};

use super::App;
use crate::game::{Claim, ClaimOutcome, ClaimRefused, Game, GameError};
use crate::msg::Effect;
use crate::speech::{Priority, SayKind};

/// Draw offers between moves.
#[derive(Debug, Default)]
pub(super) struct Offers {
    /// A draw offer typed by the player to move, made with their next
    /// move (9.1.2.1).
    kept: Option<Color>,
    /// The standing offer was declined in words during this update (the
    /// engine's answer): its lapse is not said as well.
    declined: bool,
    /// The offer standing when this update began, and the moves made then.
    before: (Option<Color>, usize),
}

impl Offers {
    /// A message begins: the offer standing in `game` now is remembered.
    pub(super) fn begin(&mut self, game: &Game) {
        self.before = (game.pending_offer(), game.history().len());
        self.declined = false;
    }

    /// `draw` typed by `me`: kept for `me`'s next move when it is `me`'s
    /// move and no offer stands (true), else to be made now (false).
    #[must_use]
    pub(super) fn keep_typed(&mut self, game: &Game, me: Color) -> bool {
        if game.turn() == me && game.pending_offer().is_none() {
            self.kept = Some(me);
            return true;
        }
        false
    }

    /// `mover` has moved and the game goes on: whether an offer they kept
    /// is to be made now.
    #[must_use]
    pub(super) fn moved(&mut self, mover: Color) -> bool {
        if self.kept == Some(mover) {
            self.kept = None;
            return true;
        }
        false
    }

    /// A new game: no offer is kept.
    pub(super) fn forget(&mut self) {
        self.kept = None;
    }

    /// The standing offer was declined in words in this update.
    pub(super) fn declined_in_words(&mut self) {
        self.declined = true;
    }

    /// The side whose offer, standing when this update began, lapsed
    /// because the opponent moved instead of answering (9.1.2.3); not one
    /// declined in words, nor in a game that ended.
    #[must_use]
    pub(super) fn lapsed(&self, game: &Game) -> Option<Color> {
        let (Some(offerer), plies) = self.before else {
            return None;
        };
        let lapsed = !self.declined
            && game.pending_offer().is_none()
            && !game.is_over()
            && game.history().get(plies).is_some_and(|m| m.by != offerer);
        lapsed.then_some(offerer)
    }
}

impl App {
    /// A draw offer that lapsed in this update is said after the move, so
    /// the player who offered knows.
    pub(super) fn say_lapsed_offer(&mut self, out: &mut Vec<Effect>) {
        if let Some(offerer) = self.parts.offers.lapsed(&self.game) {
            let side = self.talk.phraser.side(offerer);
            let t = self.message("draw_offer_lapsed", &[("side", &side)]);
            self.say(out, t, Priority::Normal, SayKind::Game);
        }
    }

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
        if self.parts.offers.keep_typed(&self.game, self.settings.me) {
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
        if self.game.resign_under(by, self.edition()).is_ok()
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

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::san::San;

    fn play(game: &mut Game, text: &str) {
        let mv = text
            .parse::<San>()
            .expect("san")
            .to_move(game.position())
            .expect("legal");
        game.play(mv).expect("played");
    }

    /// The part alone: `draw` typed on one's own move is kept for that
    /// move and made once, not on the opponent's; typed on the
    /// opponent's move, it is made now.
    #[test]
    fn a_typed_offer_is_kept_for_the_own_next_move_only() {
        let mut game = Game::new();
        let mut offers = Offers::default();
        assert!(!offers.keep_typed(&game, Color::Black), "not Black's move");
        assert!(offers.keep_typed(&game, Color::White));
        assert!(!offers.moved(Color::Black));
        assert!(offers.moved(Color::White), "made with White's move");
        assert!(!offers.moved(Color::White), "once");
        assert!(offers.keep_typed(&game, Color::White));
        offers.forget();
        assert!(!offers.moved(Color::White), "a new game forgets it");
        play(&mut game, "e4");
        game.offer_draw(Color::White).expect("offered");
        assert!(!offers.keep_typed(&game, Color::Black), "an offer stands");
    }

    /// An offer that stood when the message came lapses when the opponent
    /// moves instead (9.1.2.3); not when declined in words, nor when the
    /// game ended, nor when the offerer moved.
    #[test]
    fn an_offer_lapses_when_the_opponent_moves_instead() {
        let mut offers = Offers::default();
        let mut game = Game::new();
        play(&mut game, "e4");
        game.offer_draw(Color::White).expect("offered");
        offers.begin(&game);
        assert_eq!(offers.lapsed(&game), None, "nothing happened yet");
        let mut moved = game.clone();
        play(&mut moved, "e5");
        assert_eq!(offers.lapsed(&moved), Some(Color::White));
        offers.declined_in_words();
        assert_eq!(offers.lapsed(&moved), None, "declined: said already");
        offers.begin(&game);
        let mut over = game.clone();
        over.resign(Color::Black).expect("resigned");
        assert_eq!(offers.lapsed(&over), None);
        offers.begin(&Game::new());
        assert_eq!(offers.lapsed(&moved), None, "no offer stood");
    }
}
