//! Draw claims by the player to move: threefold repetition (9.2) and 50
//! moves (9.3), on the current position or on an intended move (9.5).

use shakmaty::{Color, Move, Position};

use super::EndReason;
use super::core::Game;
use super::types::{Claim, ClaimOutcome, ClaimRefused, GameError, GameResult};

/// Occurrences of one position a repetition claim needs (9.2.1).
const THREEFOLD: usize = 3;
/// Half-moves without a capture or pawn move a 50-move claim needs (9.3).
const FIFTY_MOVES: u32 = 100;

impl Game {
    /// `by` claims a draw, on the current position (`intended == None`,
    /// 9.2.1.2 and 9.3.2) or on the move they intend to play (9.2.1.1 and
    /// 9.3.1).
    ///
    /// - Only the player to move may claim; anyone else is refused with
    ///   `ClaimRefused::NotYourTurn` and nothing changes.
    /// - An intended move is played in every case: recorded before the draw
    ///   when the claim is correct, made as 9.5.3 requires when it is not.
    ///   An illegal intended move is an error and nothing changes.
    /// - A refused claim stands as a draw offer by the claimant (9.1.2.3),
    ///   unless an offer of the opponent's is standing.
    pub fn claim(
        &mut self,
        by: Color,
        claim: Claim,
        intended: Option<Move>,
    ) -> Result<ClaimOutcome, GameError> {
        self.ensure_running()?;
        if by != self.turn() {
            return Ok(ClaimOutcome::Refused {
                reason: ClaimRefused::NotYourTurn,
                played: None,
                draw_offer: false,
            });
        }
        let played = match intended {
            None => None,
            Some(mv) => {
                if !self.position.is_legal(mv) {
                    return Err(GameError::IllegalMove);
                }
                let played = self.play_legal(mv).clone();
                if let Some(result) = self.result {
                    return Ok(ClaimOutcome::EndedByMove(result));
                }
                Some(played)
            }
        };
        match self.verify(claim) {
            Ok(reason) => {
                let result = GameResult::draw(reason);
                self.result = Some(result);
                self.offer = None;
                Ok(ClaimOutcome::Drawn(result))
            }
            Err(reason) => {
                let draw_offer = self.offer.is_none_or(|o| o == by);
                if draw_offer {
                    self.offer = Some(by);
                }
                let played = match played {
                    Some(mut played) => {
                        // The offer was made with the claim, before the move.
                        played.draw_offer = draw_offer;
                        if let Some(last) = self.history.last_mut() {
                            last.draw_offer = draw_offer;
                        }
                        Some(played)
                    }
                    None => None,
                };
                Ok(ClaimOutcome::Refused {
                    reason,
                    played,
                    draw_offer,
                })
            }
        }
    }

    /// Whether the claim holds in the current position.
    fn verify(&self, claim: Claim) -> Result<EndReason, ClaimRefused> {
        match claim {
            Claim::Repetition => {
                let occurrences = self.repetitions();
                if occurrences >= THREEFOLD {
                    Ok(EndReason::ThreefoldRepetition)
                } else {
                    Err(ClaimRefused::Repetition { occurrences })
                }
            }
            Claim::FiftyMoves => {
                let halfmoves = self.position.halfmoves();
                if halfmoves >= FIFTY_MOVES {
                    Ok(EndReason::FiftyMoves)
                } else {
                    Err(ClaimRefused::FiftyMoves { halfmoves })
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::test_util::{play_all, san};

    const SHUFFLE: [&str; 4] = ["Nf3", "Nf6", "Ng1", "Ng8"];

    fn drawn(reason: EndReason) -> ClaimOutcome {
        ClaimOutcome::Drawn(GameResult::draw(reason))
    }

    #[test]
    fn threefold_claim_on_the_current_position() {
        let mut g = Game::new();
        play_all(&mut g, &SHUFFLE);
        play_all(&mut g, &SHUFFLE);
        assert_eq!(g.repetitions(), 3);
        let out = g.claim(Color::White, Claim::Repetition, None).unwrap();
        assert_eq!(out, drawn(EndReason::ThreefoldRepetition));
        assert_eq!(
            g.result(),
            Some(GameResult::draw(EndReason::ThreefoldRepetition))
        );
        assert_eq!(g.history().len(), 8);
    }

    #[test]
    fn threefold_claim_on_an_intended_move_records_it() {
        let mut g = Game::new();
        play_all(&mut g, &SHUFFLE);
        play_all(&mut g, &SHUFFLE[..3]);
        let mv = san(&g, "Ng8");
        let out = g.claim(Color::Black, Claim::Repetition, Some(mv)).unwrap();
        assert_eq!(out, drawn(EndReason::ThreefoldRepetition));
        assert_eq!(g.history().len(), 8);
        assert_eq!(g.last_move().unwrap().san.to_string(), "Ng8");
        assert_eq!(g.repetitions(), 3);
    }

    #[test]
    fn threefold_claim_refused_with_the_count_and_the_move_is_played() {
        let mut g = Game::new();
        play_all(&mut g, &SHUFFLE[..3]);
        let mv = san(&g, "Ng8");
        let out = g.claim(Color::Black, Claim::Repetition, Some(mv)).unwrap();
        let ClaimOutcome::Refused {
            reason,
            played,
            draw_offer,
        } = out
        else {
            panic!("expected a refusal, got {out:?}");
        };
        assert_eq!(reason, ClaimRefused::Repetition { occurrences: 2 });
        assert_eq!(played.unwrap().san.to_string(), "Ng8");
        assert!(draw_offer);
        assert_eq!(g.history().len(), 4);
        assert_eq!(g.result(), None);
        // 9.1.2.3: the claim counts as an offer, recorded on the move.
        assert!(g.history()[3].draw_offer);
        assert_eq!(g.pending_offer(), Some(Color::Black));
        play_all(&mut g, &["e4"]);
        assert_eq!(g.pending_offer(), None);
    }

    #[test]
    fn threefold_claim_refused_without_a_move_changes_only_the_offer() {
        let mut g = Game::new();
        play_all(&mut g, &SHUFFLE);
        let pos = g.position().clone();
        let out = g.claim(Color::White, Claim::Repetition, None).unwrap();
        assert_eq!(
            out,
            ClaimOutcome::Refused {
                reason: ClaimRefused::Repetition { occurrences: 2 },
                played: None,
                draw_offer: true,
            }
        );
        assert_eq!(g.position(), &pos);
        assert_eq!(g.history().len(), 4);
        assert_eq!(g.result(), None);
        assert_eq!(g.pending_offer(), Some(Color::White));
        // The opponent may accept the claim as an offer.
        assert!(g.accept_draw(Color::Black).is_ok());
    }

    #[test]
    fn claim_by_the_side_not_to_move_is_refused_and_nothing_happens() {
        let mut g = Game::new();
        play_all(&mut g, &SHUFFLE);
        play_all(&mut g, &SHUFFLE);
        let mv = san(&g, "e4");
        let out = g.claim(Color::Black, Claim::Repetition, Some(mv)).unwrap();
        assert_eq!(
            out,
            ClaimOutcome::Refused {
                reason: ClaimRefused::NotYourTurn,
                played: None,
                draw_offer: false,
            }
        );
        assert_eq!(g.history().len(), 8);
        assert_eq!(g.result(), None);
        assert_eq!(g.pending_offer(), None);
    }

    #[test]
    fn repetition_across_lost_castling_rights_is_refused() {
        let mut g = Game::new();
        play_all(&mut g, &["Nf3", "Nf6"]);
        play_all(&mut g, &["Rg1", "Rg8", "Rh1", "Rh8"]);
        play_all(&mut g, &["Rg1", "Rg8", "Rh1", "Rh8"]);
        // Same pieces three times, but the first had castling rights.
        let out = g.claim(Color::White, Claim::Repetition, None).unwrap();
        assert!(matches!(
            out,
            ClaimOutcome::Refused {
                reason: ClaimRefused::Repetition { occurrences: 2 },
                ..
            }
        ));
        g.decline_draw(Color::Black).unwrap();
        play_all(&mut g, &["Rg1", "Rg8", "Rh1", "Rh8"]);
        let out = g.claim(Color::White, Claim::Repetition, None).unwrap();
        assert_eq!(out, drawn(EndReason::ThreefoldRepetition));
    }

    #[test]
    fn repetition_across_an_en_passant_possibility_is_refused() {
        let mut g = Game::new();
        play_all(&mut g, &["e4", "Nf6", "e5", "d5"]);
        play_all(&mut g, &["Nc3", "Nc6", "Nb1", "Nb8"]);
        play_all(&mut g, &["Nc3", "Nc6", "Nb1", "Nb8"]);
        let out = g.claim(Color::White, Claim::Repetition, None).unwrap();
        assert!(matches!(
            out,
            ClaimOutcome::Refused {
                reason: ClaimRefused::Repetition { occurrences: 2 },
                ..
            }
        ));
    }

    const FIFTY: &str = "4k3/8/8/8/8/8/3r4/R3K3 w - - 99 80";

    #[test]
    fn fifty_move_claim_on_an_intended_quiet_move() {
        let mut g = Game::from_fen(FIFTY).unwrap();
        let mv = san(&g, "Ra8+");
        let out = g.claim(Color::White, Claim::FiftyMoves, Some(mv)).unwrap();
        assert_eq!(out, drawn(EndReason::FiftyMoves));
        assert_eq!(g.history().len(), 1);
        assert_eq!(g.result(), Some(GameResult::draw(EndReason::FiftyMoves)));
    }

    #[test]
    fn fifty_move_claim_on_the_current_position() {
        let mut g = Game::from_fen("4k3/8/8/8/8/8/3r4/R3K3 w - - 100 80").unwrap();
        let out = g.claim(Color::White, Claim::FiftyMoves, None).unwrap();
        assert_eq!(out, drawn(EndReason::FiftyMoves));
    }

    #[test]
    fn fifty_move_claim_refused_without_a_move() {
        let mut g = Game::from_fen(FIFTY).unwrap();
        let out = g.claim(Color::White, Claim::FiftyMoves, None).unwrap();
        assert_eq!(
            out,
            ClaimOutcome::Refused {
                reason: ClaimRefused::FiftyMoves { halfmoves: 99 },
                played: None,
                draw_offer: true,
            }
        );
        assert!(g.history().is_empty());
        assert_eq!(g.result(), None);
    }

    #[test]
    fn fifty_move_claim_refused_on_a_capture_and_the_capture_is_made() {
        let mut g = Game::from_fen(FIFTY).unwrap();
        let mv = san(&g, "Kxd2");
        let out = g.claim(Color::White, Claim::FiftyMoves, Some(mv)).unwrap();
        // K+R v K is not dead, so the game goes on.
        let ClaimOutcome::Refused { reason, played, .. } = out else {
            panic!("expected a refusal, got {out:?}");
        };
        assert_eq!(reason, ClaimRefused::FiftyMoves { halfmoves: 0 });
        assert_eq!(played.unwrap().san.to_string(), "Kxd2");
        assert_eq!(g.history().len(), 1);
        assert_eq!(g.result(), None);
    }

    #[test]
    fn fifty_move_claim_refused_one_move_short() {
        let mut g = Game::from_fen("4k3/8/8/8/8/8/3r4/R3K3 w - - 98 80").unwrap();
        let mv = san(&g, "Ra8+");
        let out = g.claim(Color::White, Claim::FiftyMoves, Some(mv)).unwrap();
        assert!(matches!(
            out,
            ClaimOutcome::Refused {
                reason: ClaimRefused::FiftyMoves { halfmoves: 99 },
                played: Some(_),
                ..
            }
        ));
        assert_eq!(g.turn(), Color::Black);
    }

    #[test]
    fn an_intended_move_that_mates_ends_the_game_by_mate() {
        let mut g = Game::from_fen("7k/R7/6K1/8/8/8/8/8 w - - 120 100").unwrap();
        let mv = san(&g, "Ra8#");
        let out = g.claim(Color::White, Claim::FiftyMoves, Some(mv)).unwrap();
        assert_eq!(
            out,
            ClaimOutcome::EndedByMove(GameResult::win(Color::White, EndReason::Checkmate))
        );
        assert_eq!(g.history().len(), 1);
    }

    #[test]
    fn an_illegal_intended_move_is_an_error_and_nothing_changes() {
        let mut g = Game::new();
        let mv = san(&g, "e4");
        play_all(&mut g, &["e4"]);
        assert_eq!(
            g.claim(Color::Black, Claim::Repetition, Some(mv)),
            Err(GameError::IllegalMove)
        );
        assert_eq!(g.history().len(), 1);
        assert_eq!(g.pending_offer(), None);
    }

    #[test]
    fn no_claim_after_the_end() {
        let mut g = Game::new();
        g.resign(Color::White).unwrap();
        assert_eq!(
            g.claim(Color::White, Claim::FiftyMoves, None),
            Err(GameError::GameOver)
        );
    }

    #[test]
    fn a_refused_claim_does_not_override_the_opponents_offer() {
        let mut g = Game::new();
        play_all(&mut g, &["e4", "e5"]);
        g.offer_draw(Color::White).unwrap();
        let out = g.claim(Color::Black, Claim::Repetition, None).unwrap();
        assert!(matches!(
            out,
            ClaimOutcome::Refused {
                draw_offer: false,
                ..
            }
        ));
        assert_eq!(g.pending_offer(), Some(Color::White));
    }
}
