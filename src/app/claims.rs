//! Draw claims (FIDE 9.2, 9.3, 9.5): by the blind player at the keyboard,
//! or by the opponent on their page (issue 30), on the position or on an
//! intended move.  This part reads who claims and the move they intend
//! ([`read`]), which rule is claimed ([`kind`]) and words a refusal
//! ([`refusal`]); the claim itself changes the game and the clock, so the
//! App decides it (`App::claim_by`, through `App::change`).

use shakmaty::{Chess, Color, Move, Position};

use super::companion::CompanionState;
use super::voice::{Talk, Voice};
use crate::companion::MoveInput;
use crate::companion::snapshot::resolve_tap;
use crate::game::{Claim, ClaimRefused, Game};
use crate::speech::{Priority, SayKind};

/// Who claims, with the move they intend as they gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Claimant {
    /// The player to move, at the keyboard (the move typed).
    Player(Option<String>),
    /// The opponent on their page (typed or tapped there).
    Page(Option<MoveInput>),
}

/// The side claiming in `game` (the player plays `me`) and the move it
/// intends; none when the claim cannot be made: the opponent claims only
/// on their move (9.2), and a move that cannot be read is said to the
/// player or shown on the page.  The opponent's claim is said to the
/// player.
pub(super) fn read(
    claimant: Claimant,
    game: &Game,
    me: Color,
    page: &mut CompanionState,
    voice: &mut Voice,
) -> Option<(Color, Option<Move>)> {
    let pos = game.position();
    let talk = voice.talk();
    match claimant {
        Claimant::Player(None) => Some((pos.turn(), None)),
        Claimant::Player(Some(text)) => match talk.reader.read(&text, pos) {
            Ok(mv) => Some((pos.turn(), Some(mv))),
            Err(e) => {
                let t = talk.phraser.input_error(&e, pos);
                voice.say(t, Priority::Normal, SayKind::Error);
                None
            }
        },
        Claimant::Page(intended) => {
            let them = !me;
            if pos.turn() != them {
                page.notify_key(talk, "companion_claim_needs_turn");
                return None;
            }
            let mv = match intended {
                None => None,
                Some(MoveInput::San(text)) => match talk.reader.read(&text, pos) {
                    Ok(mv) => Some(mv),
                    Err(e) => {
                        page.notify(talk.phraser.input_error(&e, pos), None);
                        return None;
                    }
                },
                Some(MoveInput::FromTo {
                    from,
                    to,
                    promotion,
                }) => match resolve_tap(pos, from, to, promotion) {
                    Some(mv) => Some(mv),
                    None => {
                        page.notify_key(talk, "companion_illegal");
                        return None;
                    }
                },
            };
            let side = talk.phraser.side(them);
            let t = match mv {
                Some(m) => {
                    let words = talk.phraser.say_move(pos, m);
                    talk.text("opponent_claims_with", &[("side", &side), ("move", &words)])
                }
                None => talk.text("opponent_claims", &[("side", &side)]),
            };
            voice.say(t, Priority::Urgent, SayKind::Game);
            Some((them, mv))
        }
    }
}

/// The rule claimed in `pos`, on the intended move `mv` if any: 50 moves
/// when the count is there (after the move), else repetition.
pub(super) fn kind(pos: &Chess, mv: Option<Move>) -> Claim {
    let halfmoves_after = match mv {
        Some(m) => pos.clone().play(m).map(|p| p.halfmoves()).unwrap_or(0),
        None => pos.halfmoves(),
    };
    if halfmoves_after >= 100 {
        Claim::FiftyMoves
    } else {
        Claim::Repetition
    }
}

/// Why a claim was refused, in words; a claim that counts as a draw
/// offer (`draw_offer`, 9.1.2.3) says so.
pub(super) fn refusal(talk: &Talk, reason: ClaimRefused, draw_offer: bool) -> String {
    let t = match reason {
        ClaimRefused::Repetition { occurrences: 1 } => {
            talk.text("claim_refused_repetition_once", &[])
        }
        ClaimRefused::Repetition { occurrences } => talk.text(
            "claim_refused_repetition",
            &[("count", &occurrences.to_string())],
        ),
        ClaimRefused::FiftyMoves { halfmoves } => talk.text(
            "claim_refused_fifty",
            &[("count", &(halfmoves / 2).to_string())],
        ),
        ClaimRefused::NotYourTurn => talk.text("claim_needs_turn", &[]),
    };
    if draw_offer {
        format!("{t} {}", talk.text("claim_is_offer", &[]))
    } else {
        t
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::Square;

    use super::*;
    use crate::app::App;
    use crate::app::tests::said;

    /// The part alone: the player's claim is the side's to move, its
    /// move read or the error said; the opponent's only on their move
    /// (the page told otherwise), said to the player when made.
    #[test]
    fn who_claims_and_on_what_move() {
        let mut talk = App::builder().build().talk;
        let mut page = CompanionState::default();
        let mut out = Vec::new();
        let game = Game::new();
        let v = &mut Voice::new(&mut talk, &mut out);
        let me = Color::White;
        let player = read(Claimant::Player(None), &game, me, &mut page, v);
        assert_eq!(player, Some((Color::White, None)));
        let typed = Claimant::Player(Some("Nf3".into()));
        let (by, mv) = read(typed, &game, me, &mut page, v).unwrap();
        assert_eq!((by, mv.map(|m| m.to())), (Color::White, Some(Square::F3)));
        assert_eq!(
            read(
                Claimant::Player(Some("zz9".into())),
                &game,
                me,
                &mut page,
                v
            ),
            None
        );
        // Not the opponent's move: nothing said to the player.
        assert_eq!(read(Claimant::Page(None), &game, me, &mut page, v), None);
        assert_eq!(said(&out).len(), 1, "{:?}", said(&out));
        let v = &mut Voice::new(&mut talk, &mut out);
        let black = read(Claimant::Page(None), &game, Color::Black, &mut page, v);
        assert_eq!(black, Some((Color::White, None)));
        assert_eq!(said(&out).len(), 2, "the opponent's claim is said");
    }

    /// Fifty moves when the count reaches a hundred half-moves (with the
    /// intended move), else repetition; a refusal says why, and that it
    /// counts as an offer when it does.
    #[test]
    fn the_rule_claimed_and_the_refusal_in_words() {
        let talk = App::builder().build().talk;
        let fen = "8/8/8/4k3/8/8/8/4K2R w - - 99 80";
        let pos: Chess = fen
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        assert_eq!(kind(&pos, None), Claim::Repetition);
        let quiet = pos
            .legal_moves()
            .into_iter()
            .find(|m| m.role() == shakmaty::Role::Rook && !m.is_capture())
            .unwrap();
        assert_eq!(kind(&pos, Some(quiet)), Claim::FiftyMoves);
        let alone = refusal(&talk, ClaimRefused::NotYourTurn, false);
        let offer = refusal(&talk, ClaimRefused::NotYourTurn, true);
        assert!(offer.starts_with(&alone) && offer.len() > alone.len());
    }
}
