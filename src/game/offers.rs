//! Draw offers (9.1), draw by agreement (5.2.3) and resignation (5.1.2).

use shakmaty::{Color, Position};

use super::EndReason;
use super::core::Game;
use super::types::{GameError, GameResult};

impl Game {
    /// The side whose draw offer stands, if any.
    pub fn pending_offer(&self) -> Option<Color> {
        self.offer
    }

    /// `by` offers a draw.  Made after their move, it is recorded as (=) on
    /// that move; made by the side to move before moving, it is recorded on
    /// their next move (9.1.2.1: valid at any time).  It stands until the
    /// opponent accepts, declines or moves.
    pub fn offer_draw(&mut self, by: Color) -> Result<(), GameError> {
        self.ensure_running()?;
        if let Some(offerer) = self.offer {
            return Err(GameError::OfferPending { by: offerer });
        }
        self.offer = Some(by);
        if by != self.turn()
            && let Some(last) = self.history.last_mut()
            && last.by == by
        {
            last.draw_offer = true;
        }
        Ok(())
    }

    /// `by` accepts the opponent's standing offer: the game is drawn.
    pub fn accept_draw(&mut self, by: Color) -> Result<GameResult, GameError> {
        self.answerable_by(by)?;
        if !self.both_have_moved() {
            return Err(GameError::AgreementTooEarly);
        }
        let result = GameResult::draw(EndReason::Agreement);
        self.result = Some(result);
        self.offer = None;
        Ok(result)
    }

    /// `by` declines the opponent's standing offer.
    pub fn decline_draw(&mut self, by: Color) -> Result<(), GameError> {
        self.answerable_by(by)?;
        self.offer = None;
        Ok(())
    }

    /// `by` resigns and the opponent wins, whatever they have left (5.1.2
    /// before 2023; an online game, whose server decides).  The rules
    /// editions' own: [`Game::resign_under`].
    pub fn resign(&mut self, by: Color) -> Result<GameResult, GameError> {
        self.resign_under(by, super::rules::Edition::Fide2018)
    }

    /// Whether `by` can answer the standing offer.
    fn answerable_by(&self, by: Color) -> Result<(), GameError> {
        self.ensure_running()?;
        match self.offer {
            None => Err(GameError::NoOffer),
            Some(offerer) if offerer == by => Err(GameError::OwnOffer),
            Some(_) => Ok(()),
        }
    }

    /// 5.2.3: each player has made at least one move, in this game's record
    /// or (for a game set up from a position) before its start.
    fn both_have_moved(&self) -> bool {
        let start = &self.start;
        let before_start = |c: Color| {
            start.fullmoves().get() > 1 || (c == Color::White && start.turn() == Color::Black)
        };
        Color::ALL
            .iter()
            .all(|&c| before_start(c) || self.history.iter().any(|m| m.by == c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::test_util::play_all;

    fn opened() -> Game {
        let mut g = Game::new();
        play_all(&mut g, &["e4", "e5"]);
        g
    }

    #[test]
    fn offer_after_a_move_is_recorded_on_it_and_can_be_accepted() {
        let mut g = opened();
        play_all(&mut g, &["Nf3"]);
        g.offer_draw(Color::White).unwrap();
        assert_eq!(g.pending_offer(), Some(Color::White));
        assert!(g.history()[2].draw_offer);
        assert!(!g.history()[1].draw_offer);
        let r = g.accept_draw(Color::Black).unwrap();
        assert_eq!(r, GameResult::draw(EndReason::Agreement));
        assert_eq!(g.result(), Some(r));
        assert_eq!(g.pending_offer(), None);
    }

    #[test]
    fn offer_can_be_declined() {
        let mut g = opened();
        g.offer_draw(Color::Black).unwrap();
        g.decline_draw(Color::White).unwrap();
        assert_eq!(g.pending_offer(), None);
        assert_eq!(g.result(), None);
        assert!(g.history()[1].draw_offer, "the (=) stays on the scoresheet");
        assert_eq!(g.accept_draw(Color::White), Err(GameError::NoOffer));
    }

    #[test]
    fn offer_lapses_when_the_opponent_moves() {
        let mut g = opened();
        g.offer_draw(Color::Black).unwrap();
        play_all(&mut g, &["Nf3"]);
        assert_eq!(g.pending_offer(), None);
        assert_eq!(g.accept_draw(Color::White), Err(GameError::NoOffer));
        assert!(!g.history()[2].draw_offer);
    }

    #[test]
    fn own_offer_cannot_be_accepted_or_declined() {
        let mut g = opened();
        g.offer_draw(Color::Black).unwrap();
        assert_eq!(g.accept_draw(Color::Black), Err(GameError::OwnOffer));
        assert_eq!(g.decline_draw(Color::Black), Err(GameError::OwnOffer));
        assert_eq!(g.result(), None);
        assert_eq!(g.pending_offer(), Some(Color::Black));
    }

    #[test]
    fn offer_before_moving_is_recorded_on_the_next_move_and_stands() {
        let mut g = opened();
        g.offer_draw(Color::White).unwrap();
        assert!(!g.history()[1].draw_offer);
        play_all(&mut g, &["Nf3"]);
        assert!(g.history()[2].draw_offer);
        assert_eq!(g.pending_offer(), Some(Color::White));
        play_all(&mut g, &["Nc6"]);
        assert_eq!(g.pending_offer(), None);
    }

    #[test]
    fn a_second_offer_while_one_stands_is_refused() {
        let mut g = opened();
        g.offer_draw(Color::Black).unwrap();
        assert_eq!(
            g.offer_draw(Color::White),
            Err(GameError::OfferPending { by: Color::Black })
        );
        assert_eq!(
            g.offer_draw(Color::Black),
            Err(GameError::OfferPending { by: Color::Black })
        );
    }

    #[test]
    fn agreement_needs_a_move_by_each_player() {
        let mut g = Game::new();
        play_all(&mut g, &["e4"]);
        g.offer_draw(Color::White).unwrap();
        assert_eq!(
            g.accept_draw(Color::Black),
            Err(GameError::AgreementTooEarly)
        );
        assert_eq!(g.result(), None);
        // From a position in mid-game both have moved already.
        let mut g = Game::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 30").unwrap();
        g.offer_draw(Color::White).unwrap();
        assert!(g.accept_draw(Color::Black).is_ok());
    }

    #[test]
    fn resignation_ends_the_game_for_either_side() {
        let mut g = opened();
        let r = g.resign(Color::Black).unwrap();
        assert_eq!(r, GameResult::win(Color::White, EndReason::Resignation));
        assert_eq!(g.result(), Some(r));
        let mut g = opened();
        let r = g.resign(Color::White).unwrap();
        assert_eq!(r.winner(), Some(Color::Black));
    }

    #[test]
    fn nothing_is_accepted_after_resignation() {
        let mut g = opened();
        g.offer_draw(Color::Black).unwrap();
        g.resign(Color::White).unwrap();
        assert_eq!(g.pending_offer(), None);
        assert_eq!(g.offer_draw(Color::White), Err(GameError::GameOver));
        assert_eq!(g.accept_draw(Color::White), Err(GameError::GameOver));
        assert_eq!(g.decline_draw(Color::White), Err(GameError::GameOver));
        assert_eq!(g.resign(Color::Black), Err(GameError::GameOver));
        let mv = g.position().legal_moves()[0];
        assert_eq!(g.play(mv).err(), Some(GameError::GameOver));
        assert_eq!(
            g.result(),
            Some(GameResult::win(Color::Black, EndReason::Resignation))
        );
    }

    #[test]
    fn offer_at_the_start_by_the_side_not_to_move_is_recorded_nowhere() {
        let mut g = Game::new();
        g.offer_draw(Color::Black).unwrap();
        assert_eq!(g.pending_offer(), Some(Color::Black));
        play_all(&mut g, &["e4"]);
        assert_eq!(g.pending_offer(), None);
        assert!(!g.history()[0].draw_offer);
    }
}
