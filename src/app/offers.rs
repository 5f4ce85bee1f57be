//! Draw offers, claims and resignation (FIDE 9.1, 9.2, 9.3, 5.1.2).
//!
//! The offers part ([`Offers`]) keeps what lies between moves: an offer
//! typed by the player to move, made with their next move (9.1.2.1), and
//! the offer that stood when a message came, so that one the opponent let
//! lapse by moving is said (9.1.2.3).  It decides from the game it is
//! shown and answers in plain values (an offer to make now, a side whose
//! offer lapsed); the App makes the offer and words it, as the game is the
//! App's.  Claims and resignation change the game alone: the App's rules
//! (`app/rules.rs`).

use shakmaty::Color;

use super::change::{Edit, GameChange};
use super::companion::CompanionState;
use super::online::game_error_key;
use super::voice::Voice;
use crate::game::{Game, GameError};
use crate::speech::{Priority, SayKind};

/// A draw action or resignation of the player at the keyboard (or of the
/// side it is for: the engine's declined offer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum DrawAction {
    /// `draw` typed: kept for the player's next move when it is theirs.
    Typed,
    /// An offer made now by the side that has just moved (9.1.2.1).
    Offer,
    /// The standing offer accepted by the side to move.
    Accept,
    /// The standing offer declined by the side to move.
    Decline,
    /// The side to move resigns.
    Resign,
}

/// Draw offers between moves.
#[derive(Debug, Default)]
pub(super) struct Offers {
    /// A draw offer typed by the player to move, made with their next
    /// move (9.1.2.1).
    kept: Option<Color>,
    /// The side whose offer lapsed because the opponent moved instead of
    /// answering (9.1.2.3), not said yet.
    lapsed: Option<Color>,
}

impl Offers {
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

    /// The game changed: a move lets the opponent's offer lapse, and
    /// makes the mover's kept offer due.  True when the offer kept for
    /// this move is to be made now (the game goes on: `over` false).
    #[must_use]
    pub(super) fn on_change(&mut self, change: &GameChange, over: bool) -> bool {
        match change {
            GameChange::Moved { by, lapsed, .. } => {
                if lapsed.is_some() {
                    self.lapsed = *lapsed;
                }
                if !over && self.kept == Some(*by) {
                    self.kept = None;
                    return true;
                }
                false
            }
            GameChange::Replaced(_) => {
                self.lapsed = None;
                false
            }
            _ => false,
        }
    }

    /// The game changed ([`Offers::on_change`]): the draw action due now,
    /// the offer kept for this move.
    #[must_use]
    pub(super) fn due(&mut self, change: &GameChange, over: bool) -> Option<DrawAction> {
        self.on_change(change, over).then_some(DrawAction::Offer)
    }

    /// A new game: no offer is kept.
    pub(super) fn forget(&mut self) {
        self.kept = None;
    }

    /// The side whose offer lapsed since this was last asked (9.1.2.3),
    /// once; none in a game that ended, or with an offer standing again.
    #[must_use]
    pub(super) fn take_lapsed(&mut self, game: &Game) -> Option<Color> {
        self.lapsed
            .take()
            .filter(|_| !game.is_over() && game.pending_offer().is_none())
    }
}

impl Offers {
    /// `action` in `game` (the player plays `me`): the change to make, or
    /// none when a typed offer is kept for the player's next move (said).
    #[must_use]
    pub(super) fn ask(
        &mut self,
        action: DrawAction,
        game: &Game,
        me: Color,
        voice: &mut Voice,
    ) -> Option<Edit> {
        let turn = game.turn();
        Some(match action {
            DrawAction::Typed if self.keep_typed(game, me) => {
                let t = voice.text("offer_kept", &[]);
                voice.info(t);
                return None;
            }
            // The player who has just moved; before the first move, the
            // player to move.
            DrawAction::Typed | DrawAction::Offer if game.history().is_empty() => {
                Edit::OfferDraw(turn)
            }
            DrawAction::Typed | DrawAction::Offer => Edit::OfferDraw(!turn),
            DrawAction::Accept => Edit::AcceptDraw(turn),
            DrawAction::Decline => Edit::DeclineDraw(turn),
            DrawAction::Resign => Edit::Resign(turn),
        })
    }

    /// The opponent's draw action on their page (`them`): offer, accept or
    /// decline; none for any other (the page's own handling).
    #[must_use]
    pub(super) fn of_page(action: DrawAction, them: Color) -> Option<Edit> {
        match action {
            DrawAction::Offer => Some(Edit::OfferDraw(them)),
            DrawAction::Accept => Some(Edit::AcceptDraw(them)),
            DrawAction::Decline => Some(Edit::DeclineDraw(them)),
            DrawAction::Typed | DrawAction::Resign => None,
        }
    }
}

/// The outcome of a draw action's `edit` said: made (`over`: the game's
/// end, when it ended), or why not.  An action of the opponent on their
/// `page` is said to the player at once when made; why not is shown on
/// the page.
pub(super) fn say_outcome(
    edit: &Edit,
    made: Result<(), GameError>,
    over: Option<String>,
    page: Option<&mut CompanionState>,
    voice: &mut Voice,
) {
    let side = |voice: &Voice, by: Color| voice.phraser().side(by);
    let e = match made {
        Ok(()) => {
            let (t, priority) = match edit {
                Edit::OfferDraw(by) => {
                    let side = side(voice, *by);
                    let t = voice.text("draw_offered", &[("side", &side)]);
                    (Some(t), Priority::Urgent)
                }
                Edit::AcceptDraw(_) => (Some(over.unwrap_or_default()), Priority::Urgent),
                Edit::DeclineDraw(by) => {
                    let side = side(voice, *by);
                    let t = voice.text("draw_declined", &[("side", &side)]);
                    let urgent = page.is_some();
                    (
                        Some(t),
                        if urgent {
                            Priority::Urgent
                        } else {
                            Priority::Normal
                        },
                    )
                }
                Edit::Resign(_) => (over, Priority::Urgent),
                _ => (None, Priority::Normal),
            };
            if let Some(t) = t {
                voice.say(t, priority, SayKind::Game);
            }
            return;
        }
        Err(e) => e,
    };
    if let Some(page) = page {
        page.notify(voice.text(game_error_key(&e), &[]), None);
        return;
    }
    match edit {
        Edit::OfferDraw(_) => {
            voice.say_key(game_error_key(&e), &[], Priority::Urgent, SayKind::Game);
        }
        Edit::AcceptDraw(_) => voice.error(game_error_key(&e), &[]),
        Edit::DeclineDraw(_) => {
            voice.say_key(game_error_key(&e), &[], Priority::Normal, SayKind::Game);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::san::San;

    /// `text` played in `game`, as the change the parts hear.
    fn play(game: &mut Game, text: &str) -> GameChange {
        let mv = text
            .parse::<San>()
            .expect("san")
            .to_move(game.position())
            .expect("legal");
        let before = game.position().clone();
        let offer = game.pending_offer();
        let by = game.play(mv).expect("played").by;
        GameChange::Moved {
            before: Box::new(before),
            mv,
            by,
            lapsed: offer.filter(|o| *o != by),
        }
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
        let e4 = play(&mut game.clone(), "e4");
        let mut black = game.clone();
        play(&mut black, "e4");
        let e5 = play(&mut black, "e5");
        assert!(!offers.on_change(&e5, false), "not with Black's move");
        assert!(
            !offers.on_change(&e4, true),
            "not when the move ended the game"
        );
        assert!(offers.on_change(&e4, false), "made with White's move");
        assert!(!offers.on_change(&e4, false), "once");
        assert!(offers.keep_typed(&game, Color::White));
        offers.forget();
        assert!(!offers.on_change(&e4, false), "a new game forgets it");
        play(&mut game, "e4");
        game.offer_draw(Color::White).expect("offered");
        assert!(!offers.keep_typed(&game, Color::Black), "an offer stands");
    }

    /// An offer that stood lapses when the opponent moves instead
    /// (9.1.2.3), said once; not when it was declined first, nor when the
    /// game ended, nor when the offerer moved.
    #[test]
    fn an_offer_lapses_when_the_opponent_moves_instead() {
        let mut offers = Offers::default();
        let mut game = Game::new();
        play(&mut game, "e4");
        game.offer_draw(Color::White).expect("offered");
        assert_eq!(offers.take_lapsed(&game), None, "nothing happened yet");
        let mut moved = game.clone();
        let e5 = play(&mut moved, "e5");
        let _ = offers.on_change(&e5, false);
        assert_eq!(offers.take_lapsed(&moved), Some(Color::White));
        assert_eq!(offers.take_lapsed(&moved), None, "once");
        let mut declined = game.clone();
        declined.decline_draw(Color::Black).expect("declined");
        let e5 = play(&mut declined, "e5");
        let _ = offers.on_change(&e5, false);
        assert_eq!(
            offers.take_lapsed(&declined),
            None,
            "declined: said already"
        );
        let mut over = moved.clone();
        let _ = offers.on_change(&play(&mut over.clone(), "Nf3"), false);
        over.resign(Color::Black).expect("resigned");
        assert_eq!(offers.take_lapsed(&over), None, "the game ended");
        let mut own = Game::new();
        own.offer_draw(Color::White).expect("offered before moving");
        let e4 = play(&mut own, "e4");
        let _ = offers.on_change(&e4, false);
        assert_eq!(offers.take_lapsed(&own), None, "the offerer moved");
    }

    /// The part alone decides whose draw action it is: `draw` typed on
    /// one's own move is kept (said), an offer is the side's that has just
    /// moved, acceptance, decline and resignation the side's to move; the
    /// outcome is worded, a refusal with the game's reason.
    #[test]
    fn the_part_decides_whose_draw_action_it_is_and_words_it() {
        use crate::app::App;
        use crate::app::tests::said;
        let mut talk = App::builder().build().talk;
        let mut out = Vec::new();
        let mut game = Game::new();
        let mut offers = Offers::default();
        let v = &mut Voice::new(&mut talk, &mut out);
        assert!(
            offers
                .ask(DrawAction::Typed, &game, Color::White, v)
                .is_none()
        );
        let _ = play(&mut game, "e4");
        let edit = offers.ask(DrawAction::Offer, &game, Color::White, v);
        assert!(matches!(edit, Some(Edit::OfferDraw(Color::White))));
        let edit = offers.ask(DrawAction::Accept, &game, Color::White, v);
        assert!(matches!(edit, Some(Edit::AcceptDraw(Color::Black))));
        let edit = offers.ask(DrawAction::Resign, &game, Color::White, v);
        assert!(matches!(edit, Some(Edit::Resign(Color::Black))));
        let edit = Edit::DeclineDraw(Color::Black);
        say_outcome(&edit, Err(GameError::NoOffer), None, None, v);
        say_outcome(&Edit::OfferDraw(Color::White), Ok(()), None, None, v);
        assert_eq!(said(&out).len(), 3, "{:?}", said(&out));
    }
}
