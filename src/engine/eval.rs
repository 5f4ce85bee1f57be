//! An engine's evaluation in words: "White is better by about a pawn",
//! "Black mates in 3".
//!
//! [`Score`] is seen from White's side (the engine reports it from the side
//! to move; the session turns it round).  [`Score::phrase`] picks the
//! message key and its numbers; the words themselves are in the voices
//! files (`eval_*` keys), with `{side}` filled by the colour's word.

use shakmaty::Color;
use shakmaty_uci::UciInfoScore;

/// An evaluation, from White's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Centipawns: positive when White is better.
    Cp(i32),
    /// `winner` mates in `moves` moves (0: the side to move is mated).
    Mate {
        /// The side that mates.
        winner: Color,
        /// Moves of the winner until mate.
        moves: u32,
    },
}

/// Below this many centipawns the position is about equal.
const EQUAL_BELOW: u32 = 30;
/// Below this: slightly better.
const SLIGHTLY_BELOW: u32 = 80;
/// Below this: better by about a pawn.
const PAWN_BELOW: u32 = 150;
/// From this on: winning.
const WINNING_FROM: u32 = 500;

/// Which sentence says a score, with what to fill in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvalPhrase {
    /// The message key (`eval_equal`, `eval_slightly`, `eval_pawn`,
    /// `eval_pawns`, `eval_winning`, `eval_mate_in_one`, `eval_mate`,
    /// `eval_mated`).
    pub key: &'static str,
    /// The side that is better (fills `{side}`).
    pub side: Option<Color>,
    /// Pawns (`{pawns}`) or moves to mate (`{moves}`).
    pub number: Option<u32>,
}

impl EvalPhrase {
    /// The placeholders to fill, given the word for a side.
    pub fn args(&self, side_word: impl Fn(Color) -> String) -> Vec<(&'static str, String)> {
        let mut args = Vec::new();
        if let Some(side) = self.side {
            args.push(("side", side_word(side)));
        }
        if let Some(n) = self.number {
            let name = if self.key == "eval_mate" {
                "moves"
            } else {
                "pawns"
            };
            args.push((name, n.to_string()));
        }
        args
    }
}

/// An engine worse by this many centipawns or more accepts a draw offer.
pub const ACCEPT_DRAW_FROM: i32 = 50;

impl Score {
    /// Whether `side`, seeing this score, accepts a draw offer: when it is
    /// worse by half a pawn or more, or is being mated.
    pub fn accepts_draw(self, side: Color) -> bool {
        match self {
            Score::Cp(cp) => {
                let own = if side == Color::White { cp } else { -cp };
                own <= -ACCEPT_DRAW_FROM
            }
            Score::Mate { winner, .. } => winner != side,
        }
    }

    /// The score of an `info score` line, from the side to move (`turn`),
    /// turned to White's side.  Bounds (`lowerbound`, `upperbound`) are not
    /// scores of the position: `None`.
    pub fn from_info(info: &UciInfoScore, turn: Color) -> Option<Score> {
        if info.lower_bound || info.upper_bound {
            return None;
        }
        if let Some(m) = info.mate {
            let n = i32::from(m);
            let winner = if n > 0 { turn } else { !turn };
            return Some(Score::Mate {
                winner,
                moves: n.unsigned_abs(),
            });
        }
        let cp = info.cp?;
        Some(Score::Cp(match turn {
            Color::White => cp,
            Color::Black => cp.saturating_neg(),
        }))
    }

    /// The sentence for this score.
    pub fn phrase(self) -> EvalPhrase {
        match self {
            Score::Mate { winner, moves: 0 } => EvalPhrase {
                key: "eval_mated",
                side: Some(!winner),
                number: None,
            },
            Score::Mate { winner, moves: 1 } => EvalPhrase {
                key: "eval_mate_in_one",
                side: Some(winner),
                number: None,
            },
            Score::Mate { winner, moves } => EvalPhrase {
                key: "eval_mate",
                side: Some(winner),
                number: Some(moves),
            },
            Score::Cp(cp) => {
                let side = if cp >= 0 { Color::White } else { Color::Black };
                let size = cp.unsigned_abs();
                let (key, number) = if size < EQUAL_BELOW {
                    return EvalPhrase {
                        key: "eval_equal",
                        side: None,
                        number: None,
                    };
                } else if size < SLIGHTLY_BELOW {
                    ("eval_slightly", None)
                } else if size < PAWN_BELOW {
                    ("eval_pawn", None)
                } else if size < WINNING_FROM {
                    // Rounded to whole pawns: 150..249 is "about 2".
                    ("eval_pawns", Some((size + 50) / 100))
                } else {
                    ("eval_winning", None)
                };
                EvalPhrase {
                    key,
                    side: Some(side),
                    number,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draw_is_accepted_by_the_side_that_is_worse() {
        assert!(Score::Cp(-60).accepts_draw(Color::White));
        assert!(!Score::Cp(-60).accepts_draw(Color::Black));
        assert!(Score::Cp(50).accepts_draw(Color::Black));
        assert!(!Score::Cp(0).accepts_draw(Color::Black));
        assert!(!Score::Cp(49).accepts_draw(Color::Black));
        let mate = Score::Mate {
            winner: Color::White,
            moves: 3,
        };
        assert!(mate.accepts_draw(Color::Black));
        assert!(!mate.accepts_draw(Color::White));
    }

    fn info(cp: Option<i32>, mate: Option<i8>) -> UciInfoScore {
        UciInfoScore {
            cp,
            mate,
            lower_bound: false,
            upper_bound: false,
        }
    }

    #[test]
    fn turned_to_whites_side() {
        assert_eq!(
            Score::from_info(&info(Some(120), None), Color::Black),
            Some(Score::Cp(-120))
        );
        assert_eq!(
            Score::from_info(&info(Some(120), None), Color::White),
            Some(Score::Cp(120))
        );
        assert_eq!(
            Score::from_info(&info(None, Some(-3)), Color::White),
            Some(Score::Mate {
                winner: Color::Black,
                moves: 3
            })
        );
        assert_eq!(
            Score::from_info(&info(None, Some(2)), Color::Black),
            Some(Score::Mate {
                winner: Color::Black,
                moves: 2
            })
        );
        let mut bound = info(Some(50), None);
        bound.lower_bound = true;
        assert_eq!(Score::from_info(&bound, Color::White), None);
    }

    #[test]
    fn phrases_by_size() {
        let p = |cp| Score::Cp(cp).phrase();
        assert_eq!(p(10).key, "eval_equal");
        assert_eq!(p(-29).key, "eval_equal");
        assert_eq!(p(-40).key, "eval_slightly");
        assert_eq!(p(-40).side, Some(Color::Black));
        assert_eq!(p(100).key, "eval_pawn");
        assert_eq!(p(100).side, Some(Color::White));
        assert_eq!(p(160).key, "eval_pawns");
        assert_eq!(p(160).number, Some(2));
        assert_eq!(p(-349).number, Some(3));
        assert_eq!(p(700).key, "eval_winning");
        let m = Score::Mate {
            winner: Color::Black,
            moves: 3,
        }
        .phrase();
        assert_eq!(
            (m.key, m.side, m.number),
            ("eval_mate", Some(Color::Black), Some(3))
        );
        let one = Score::Mate {
            winner: Color::White,
            moves: 1,
        }
        .phrase();
        assert_eq!(one.key, "eval_mate_in_one");
        let mated = Score::Mate {
            winner: Color::White,
            moves: 0,
        }
        .phrase();
        assert_eq!((mated.key, mated.side), ("eval_mated", Some(Color::Black)));
    }

    #[test]
    fn args_fill_side_and_number() {
        let word = |c: Color| if c.is_white() { "White" } else { "Black" }.to_owned();
        let m = Score::Mate {
            winner: Color::Black,
            moves: 3,
        }
        .phrase();
        assert_eq!(
            m.args(word),
            [("side", "Black".to_owned()), ("moves", "3".to_owned())]
        );
        assert_eq!(
            Score::Cp(-210).phrase().args(word),
            [("side", "Black".to_owned()), ("pawns", "2".to_owned())]
        );
        assert!(Score::Cp(0).phrase().args(word).is_empty());
    }
}
