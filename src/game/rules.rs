//! The competition rules that bring time into a game, per edition of the
//! FIDE Laws, as data: what an illegal move completed costs (7.5), what an
//! incorrect draw claim costs (9.5), when a flag fall is a loss and when a
//! draw (6.9), and how rapid and blitz differ (Appendices A and B).
//!
//! Sources (in `shared/laws/`): the Italian 2017 text, the 2018 Article 7
//! and A.4.2, the Greek 2014 text (same as 2017 for these rules) and the
//! Italian 1997 text (10.3, 9.5 b, C.3), whose claim penalty is the "older"
//! one of `fritz15-article9-draws-it.txt`.  The 2023 edition (no text of it
//! there) as FIDE published its changes against 2018 (summarised in
//! `shared/design/CLOCK_AND_RULES.md`): one minute, not two, for an illegal
//! move and for an incorrect claim in rapid as in blitz; a resignation
//! against a side that cannot checkmate by any series of legal moves is a
//! draw (5.1.2).

use std::collections::{HashSet, VecDeque};
use std::fmt;
use std::time::Duration;

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, Color, EnPassantMode, Position};

use super::{EndReason, Game, GameError, GameResult};
use crate::clock::{Category, TimeControl};

/// An edition of the Laws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Edition {
    /// In force from 1 January 2023: as 2018, but rapid's time penalties
    /// are blitz's (one minute), and resigning against a side that cannot
    /// mate draws (5.1.2).
    #[default]
    Fide2023,
    /// In force from 1 January 2018: 7.5.3 (pressing without a move) and
    /// 7.5.4 (two hands) are illegal moves; rapid and blitz follow 7.5.5.
    Fide2018,
    /// In force from 1 July 2017 (and, for these rules, 2014).
    Fide2017,
    /// The 1997 text: the third illegal move loses; an incorrect claim
    /// halves the claimant's time (at most 3 minutes) and gives the opponent 3.
    Fide1997,
}

/// What an incorrect draw claim costs (9.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClaimRule {
    /// 2014 and later: the opponent gets this much more time (blitz: see
    /// [`EditionRules::blitz_penalty`]).
    OpponentGains,
    /// Older: the claimant loses half their time, at most `max_loss`; the
    /// opponent gets `opponent_gains`.
    Halve {
        max_loss: Duration,
        opponent_gains: Duration,
    },
}

/// How an illegal move is treated in rapid and blitz games without full
/// supervision (A.4, B.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnsupervisedIllegal {
    /// The first illegal move loses (when seen or claimed before the
    /// opponent moves): 2017 A.4.2, 1997 C.3.
    Loses,
    /// As in standard play: 2018 A.4.2 applies 7.5.5.
    AsStandard,
}

/// What a resignation gives (5.1.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResignRule {
    /// The opponent wins (before 2023).
    OpponentWins,
    /// The opponent wins, unless they cannot checkmate by any series of
    /// legal moves: then a draw (2023).
    DrawIfOpponentCannotMate,
}

/// One edition's rules, as data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EditionRules {
    /// Which.
    pub edition: Edition,
    /// Its name on the command line (`--rules`).
    pub name: &'static str,
    /// Illegal moves that cost only time: the next one loses.
    pub illegal_moves_forgiven: u32,
    /// The time the opponent gets for each forgiven illegal move (7.5.5).
    pub illegal_penalty: Duration,
    /// Pressing the clock without moving counts as an illegal move (7.5.3, 2018).
    pub press_without_move_is_illegal: bool,
    /// Moving with two hands counts as an illegal move (7.5.4, 2018).
    pub two_hands_is_illegal: bool,
    /// A pawn left unpromoted on the last rank becomes a queen (7.5.2).
    pub unpromoted_pawn_becomes_queen: bool,
    /// What an incorrect claim costs.
    pub claim: ClaimRule,
    /// The time the opponent gets for an incorrect claim (standard, rapid).
    pub claim_penalty: Duration,
    /// In blitz the time penalties of Articles 7 and 9 are this much (B.2).
    pub blitz_penalty: Duration,
    /// In rapid they are at most this much (2023: as in blitz; before, as
    /// in standard play).
    pub rapid_penalty: Duration,
    /// What a resignation gives.
    pub resignation: ResignRule,
    /// Rapid and blitz without full supervision.
    pub unsupervised_illegal: UnsupervisedIllegal,
    /// Blitz: base time + 60 increments up to and including this (B.1).
    pub blitz_up_to: Duration,
    /// Rapid: base time + 60 increments below this (A.1).
    pub rapid_below: Duration,
}

const fn min(m: u64) -> Duration {
    Duration::from_secs(m * 60)
}

const RULES_2023: EditionRules = EditionRules {
    edition: Edition::Fide2023,
    name: "2023",
    illegal_moves_forgiven: 1,
    illegal_penalty: min(2),
    press_without_move_is_illegal: true,
    two_hands_is_illegal: true,
    unpromoted_pawn_becomes_queen: true,
    claim: ClaimRule::OpponentGains,
    claim_penalty: min(2),
    blitz_penalty: min(1),
    rapid_penalty: min(1),
    resignation: ResignRule::DrawIfOpponentCannotMate,
    unsupervised_illegal: UnsupervisedIllegal::AsStandard,
    blitz_up_to: min(10),
    rapid_below: min(60),
};

const RULES_2018: EditionRules = EditionRules {
    edition: Edition::Fide2018,
    name: "2018",
    illegal_moves_forgiven: 1,
    illegal_penalty: min(2),
    press_without_move_is_illegal: true,
    two_hands_is_illegal: true,
    unpromoted_pawn_becomes_queen: true,
    claim: ClaimRule::OpponentGains,
    claim_penalty: min(2),
    blitz_penalty: min(1),
    rapid_penalty: min(2),
    resignation: ResignRule::OpponentWins,
    unsupervised_illegal: UnsupervisedIllegal::AsStandard,
    blitz_up_to: min(10),
    rapid_below: min(60),
};

const RULES_2017: EditionRules = EditionRules {
    edition: Edition::Fide2017,
    name: "2017",
    illegal_moves_forgiven: 1,
    illegal_penalty: min(2),
    press_without_move_is_illegal: false,
    two_hands_is_illegal: false,
    unpromoted_pawn_becomes_queen: true,
    claim: ClaimRule::OpponentGains,
    claim_penalty: min(2),
    blitz_penalty: min(1),
    rapid_penalty: min(2),
    resignation: ResignRule::OpponentWins,
    unsupervised_illegal: UnsupervisedIllegal::Loses,
    blitz_up_to: min(10),
    rapid_below: min(60),
};

const RULES_1997: EditionRules = EditionRules {
    edition: Edition::Fide1997,
    name: "1997",
    illegal_moves_forgiven: 2,
    illegal_penalty: min(2),
    press_without_move_is_illegal: false,
    two_hands_is_illegal: false,
    unpromoted_pawn_becomes_queen: false,
    claim: ClaimRule::Halve {
        max_loss: min(3),
        opponent_gains: min(3),
    },
    claim_penalty: min(3),
    // The 1997 text has no shorter blitz penalty.
    blitz_penalty: min(2),
    rapid_penalty: min(3),
    resignation: ResignRule::OpponentWins,
    unsupervised_illegal: UnsupervisedIllegal::Loses,
    // C.1: blitz under 15 minutes; B.1: rapid from 15 to 60 minutes.
    blitz_up_to: Duration::from_secs(15 * 60 - 1),
    rapid_below: Duration::from_secs(60 * 60 + 1),
};

impl Edition {
    /// Every edition, newest first.
    pub const ALL: [Edition; 4] = [
        Edition::Fide2023,
        Edition::Fide2018,
        Edition::Fide2017,
        Edition::Fide1997,
    ];

    /// The edition called `name` (`2023`, `2018`, `2017`, `2014` (same
    /// rules as 2017 here), `1997`, `older`, `newest`, `latest`).
    pub fn from_name(name: &str) -> Option<Edition> {
        match name.trim().to_ascii_lowercase().as_str() {
            "2023" | "newest" | "latest" => Some(Edition::Fide2023),
            "2018" => Some(Edition::Fide2018),
            "2017" | "2014" => Some(Edition::Fide2017),
            "1997" | "older" | "old" => Some(Edition::Fide1997),
            _ => None,
        }
    }

    /// Its rules.
    pub fn rules(self) -> &'static EditionRules {
        match self {
            Edition::Fide2023 => &RULES_2023,
            Edition::Fide2018 => &RULES_2018,
            Edition::Fide2017 => &RULES_2017,
            Edition::Fide1997 => &RULES_1997,
        }
    }
}

impl fmt::Display for Edition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.rules().name)
    }
}

/// Whether a side can still checkmate by any series of legal moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MateAbility {
    /// A mate by that side was found, or its material is enough and the
    /// search was not exhaustive (the usual case: the loss stands).
    Yes,
    /// Proven impossible: insufficient material, or every reachable
    /// position was looked at and none is a mate by that side.
    No,
}

/// The positions [`can_mate`] looks at before it gives up proving a mate
/// impossible.
pub const SEARCH_LIMIT: usize = 4_000;

/// Can `side` checkmate in `pos` by any series of legal moves (6.9, 7.5.5,
/// A.4.3)?  Stronger than insufficient material: it explores every position
/// reachable by any moves of both sides (up to [`SEARCH_LIMIT`] of them),
/// so blocked pawn walls where no king can get through are found dead.
/// A side with a queen or a rook is taken as able to mate without a search.
pub fn can_mate(pos: &Chess, side: Color) -> MateAbility {
    if pos.has_insufficient_material(side) {
        return MateAbility::No;
    }
    // A queen or a rook: taken as able to mate without a search (a wall
    // that stops even them is too rare to pay a search after every move).
    if (pos.board().by_color(side) & pos.board().rooks_and_queens()).any() {
        return MateAbility::Yes;
    }
    let key = |p: &Chess| -> Zobrist64 { p.zobrist_hash(EnPassantMode::Legal) };
    let mut seen: HashSet<Zobrist64> = HashSet::new();
    let mut queue = VecDeque::new();
    seen.insert(key(pos));
    queue.push_back(pos.clone());
    while let Some(p) = queue.pop_front() {
        if p.turn() != side && p.is_checkmate() {
            return MateAbility::Yes;
        }
        if p.has_insufficient_material(side) {
            continue;
        }
        for m in p.legal_moves() {
            let mut next = p.clone();
            next.play_unchecked(m);
            if seen.insert(key(&next)) {
                if seen.len() > SEARCH_LIMIT {
                    return MateAbility::Yes;
                }
                queue.push_back(next);
            }
        }
    }
    MateAbility::No
}

/// How a game ends by a rule of this module.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// `loser` loses.
    Loss { loser: Color },
    /// A draw: the opponent could not have mated.
    Draw,
}

/// What an illegal move completed costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IllegalPenalty {
    /// The position before it is restored; the opponent gets this much.
    TimeToOpponent(Duration),
    /// The game ends.
    GameOver(Verdict),
}

/// What an incorrect claim costs (9.5.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClaimPenalty {
    /// Taken from the claimant's time.
    pub claimant_loses: Duration,
    /// Added to the opponent's time.
    pub opponent_gains: Duration,
}

/// The rules of one game: an edition, the kind of game, and whether an
/// arbiter supervises it fully (A.3, B.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleSet {
    /// The edition.
    pub edition: Edition,
    /// Standard, rapid or blitz.
    pub category: Category,
    /// Full supervision (A.3, B.3): the rules for standard play apply.
    pub supervised: bool,
}

impl RuleSet {
    /// The rules for a game played with `control` (its category by the
    /// edition's limits), fully supervised.
    pub fn for_control(edition: Edition, control: Option<&TimeControl>) -> RuleSet {
        let r = edition.rules();
        RuleSet {
            edition,
            category: control
                .map(|c| c.category_with(r.blitz_up_to, r.rapid_below))
                .unwrap_or(Category::Standard),
            supervised: true,
        }
    }

    /// The edition's data.
    pub fn rules(&self) -> &'static EditionRules {
        self.edition.rules()
    }

    /// A time penalty of Article 7 or 9 in this kind of game (B.2; 2023
    /// A.2 the same for rapid).
    fn penalty(&self, standard: Duration) -> Duration {
        match self.category {
            Category::Blitz => standard.min(self.rules().blitz_penalty),
            Category::Rapid => standard.min(self.rules().rapid_penalty),
            Category::Standard => standard,
        }
    }

    fn loss_unless_dead(offender: Color, opponent_can_mate: MateAbility) -> Verdict {
        match opponent_can_mate {
            MateAbility::Yes => Verdict::Loss { loser: offender },
            MateAbility::No => Verdict::Draw,
        }
    }

    /// `offender` completed an illegal move, having completed
    /// `earlier` before it in this game.  `opponent_can_mate`: whether the
    /// opponent can still mate in the restored position.
    pub fn illegal_move(
        &self,
        offender: Color,
        earlier: u32,
        opponent_can_mate: MateAbility,
    ) -> IllegalPenalty {
        let r = self.rules();
        let unsupervised_loss = self.category != Category::Standard
            && !self.supervised
            && r.unsupervised_illegal == UnsupervisedIllegal::Loses;
        if unsupervised_loss || earlier >= r.illegal_moves_forgiven {
            IllegalPenalty::GameOver(Self::loss_unless_dead(offender, opponent_can_mate))
        } else {
            IllegalPenalty::TimeToOpponent(self.penalty(r.illegal_penalty))
        }
    }

    /// `flagged`'s flag fell (6.9; A.4.3 and B.4 the same for the result).
    pub fn flag_fall(&self, flagged: Color, opponent_can_mate: MateAbility) -> Verdict {
        Self::loss_unless_dead(flagged, opponent_can_mate)
    }

    /// An incorrect claim by a player with `claimant_left` on the clock.
    pub fn incorrect_claim(&self, claimant_left: Duration) -> ClaimPenalty {
        let r = self.rules();
        match r.claim {
            ClaimRule::OpponentGains => ClaimPenalty {
                claimant_loses: Duration::ZERO,
                opponent_gains: self.penalty(r.claim_penalty),
            },
            ClaimRule::Halve {
                max_loss,
                opponent_gains,
            } => ClaimPenalty {
                claimant_loses: (claimant_left / 2).min(max_loss),
                opponent_gains: self.penalty(opponent_gains),
            },
        }
    }
}

impl EditionRules {
    /// `resigner` resigns (5.1.2); `opponent_can_mate`: whether the
    /// opponent can still mate in the position.
    pub fn resignation(&self, resigner: Color, opponent_can_mate: MateAbility) -> Verdict {
        match self.resignation {
            ResignRule::OpponentWins => Verdict::Loss { loser: resigner },
            ResignRule::DrawIfOpponentCannotMate => {
                RuleSet::loss_unless_dead(resigner, opponent_can_mate)
            }
        }
    }
}

impl Verdict {
    /// The game result of this verdict for `reason`.
    pub fn result(self, reason: EndReason) -> GameResult {
        match self {
            Verdict::Loss { loser } => GameResult::win(!loser, reason),
            Verdict::Draw => GameResult::draw(reason),
        }
    }
}

impl Game {
    /// `by` resigns under `edition`'s Article 5.1.2: the opponent wins,
    /// or (2023) the game is drawn when the opponent cannot checkmate by
    /// any series of legal moves.
    pub fn resign_under(&mut self, by: Color, edition: Edition) -> Result<GameResult, GameError> {
        self.ensure_running()?;
        let rules = edition.rules();
        let verdict = match rules.resignation {
            ResignRule::OpponentWins => Verdict::Loss { loser: by },
            ResignRule::DrawIfOpponentCannotMate => {
                rules.resignation(by, can_mate(self.position(), !by))
            }
        };
        let result = verdict.result(EndReason::Resignation);
        self.result = Some(result);
        self.offer = None;
        Ok(result)
    }

    /// End the game by a rule outside the moves (a flag fall, an illegal
    /// move too many, the arbiter).  Returns false if it was already over.
    pub fn end_by_rule(&mut self, result: GameResult) -> bool {
        if self.result.is_some() {
            return false;
        }
        self.result = Some(result);
        self.offer = None;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::parse_spec;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    fn rules(edition: Edition, spec: &str) -> RuleSet {
        RuleSet::for_control(edition, Some(&parse_spec(spec).unwrap()))
    }

    fn m(n: u64) -> Duration {
        min(n)
    }

    #[test]
    fn a_game_ended_by_a_rule_stays_ended() {
        let mut g = Game::new();
        let r = Verdict::Loss {
            loser: Color::White,
        }
        .result(EndReason::TimeForfeit);
        assert_eq!(r.winner(), Some(Color::Black));
        assert!(g.end_by_rule(r));
        assert!(g.is_over());
        assert!(!g.end_by_rule(Verdict::Draw.result(EndReason::ArbiterDecision)));
        assert_eq!(g.result(), Some(r));
    }

    #[test]
    fn editions_by_name() {
        assert_eq!(Edition::from_name("2023"), Some(Edition::Fide2023));
        assert_eq!(Edition::from_name("newest"), Some(Edition::Fide2023));
        assert_eq!(Edition::from_name(" Latest "), Some(Edition::Fide2023));
        assert_eq!(Edition::from_name("2018"), Some(Edition::Fide2018));
        assert_eq!(Edition::from_name("2014"), Some(Edition::Fide2017));
        assert_eq!(Edition::from_name("older"), Some(Edition::Fide1997));
        assert_eq!(Edition::from_name("2030"), None);
        assert_eq!(Edition::default(), Edition::Fide2023);
        for e in Edition::ALL {
            assert_eq!(Edition::from_name(&e.to_string()), Some(e));
        }
    }

    #[test]
    fn categories_per_edition() {
        assert_eq!(rules(Edition::Fide2018, "3+2").category, Category::Blitz);
        assert_eq!(rules(Edition::Fide2018, "15+10").category, Category::Rapid);
        assert_eq!(
            rules(Edition::Fide2018, "90+30").category,
            Category::Standard
        );
        // 12 minutes: rapid by 2017, blitz by 1997 (under 15).
        assert_eq!(rules(Edition::Fide2017, "12+0").category, Category::Rapid);
        assert_eq!(rules(Edition::Fide1997, "12+0").category, Category::Blitz);
        // 60 minutes: standard by 2017, rapid by 1997 (15 to 60).
        assert_eq!(
            rules(Edition::Fide2017, "60+0").category,
            Category::Standard
        );
        assert_eq!(rules(Edition::Fide1997, "60+0").category, Category::Rapid);
        assert_eq!(
            RuleSet::for_control(Edition::Fide2018, None).category,
            Category::Standard
        );
    }

    #[test]
    fn flag_fall_with_and_without_mating_material() {
        let r = rules(Edition::Fide2018, "5+0");
        // White (K+R) can mate: Black's flag loses.
        let p = pos("4k3/8/8/8/8/8/8/R3K3 b - - 0 1");
        assert_eq!(can_mate(&p, Color::White), MateAbility::Yes);
        assert_eq!(
            r.flag_fall(Color::Black, can_mate(&p, Color::White)),
            Verdict::Loss {
                loser: Color::Black
            }
        );
        // White has a lone king: a draw.
        let p = pos("4k3/8/8/8/8/8/r7/4K3 w - - 0 1");
        assert_eq!(can_mate(&p, Color::Black), MateAbility::Yes);
        assert_eq!(can_mate(&p, Color::White), MateAbility::No);
        assert_eq!(
            r.flag_fall(Color::Black, can_mate(&p, Color::White)),
            Verdict::Draw
        );
        // A knight alone cannot mate a bare king ...
        let p = pos("4k3/8/8/8/8/8/8/1N2K3 b - - 0 1");
        assert_eq!(can_mate(&p, Color::White), MateAbility::No);
        // ... but can with the help of a black pawn.
        let p = pos("4k3/4p3/8/8/8/8/8/1N2K3 b - - 0 1");
        assert_eq!(can_mate(&p, Color::White), MateAbility::Yes);
    }

    #[test]
    fn a_blocked_pawn_wall_is_found_dead() {
        // Enough material by count, but no king can pass the wall and no
        // pawn can move or capture: insufficient material does not see it.
        let p = pos("k7/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/K7 w - - 0 1");
        assert!(!p.has_insufficient_material(Color::White));
        assert_eq!(can_mate(&p, Color::White), MateAbility::No);
        assert_eq!(can_mate(&p, Color::Black), MateAbility::No);
        let r = rules(Edition::Fide2018, "5+0");
        assert_eq!(
            r.flag_fall(Color::Black, can_mate(&p, Color::White)),
            Verdict::Draw
        );
    }

    #[test]
    fn a_helpmate_in_a_few_moves_is_found() {
        // K+B vs K+N: no forced mate, but a helpmate exists (the black king
        // in the corner, its own knight blocking): the flag loses.
        let p = pos("7k/8/8/8/8/8/8/B3K1n1 b - - 0 1");
        assert!(!p.has_insufficient_material(Color::White));
        assert_eq!(can_mate(&p, Color::White), MateAbility::Yes);
    }

    #[test]
    fn illegal_moves_2018_and_2017_standard() {
        for e in [Edition::Fide2018, Edition::Fide2017] {
            let r = rules(e, "90+30");
            assert_eq!(
                r.illegal_move(Color::White, 0, MateAbility::Yes),
                IllegalPenalty::TimeToOpponent(m(2)),
                "{e}"
            );
            assert_eq!(
                r.illegal_move(Color::White, 1, MateAbility::Yes),
                IllegalPenalty::GameOver(Verdict::Loss {
                    loser: Color::White
                })
            );
            assert_eq!(
                r.illegal_move(Color::White, 1, MateAbility::No),
                IllegalPenalty::GameOver(Verdict::Draw)
            );
        }
        assert!(Edition::Fide2018.rules().press_without_move_is_illegal);
        assert!(Edition::Fide2018.rules().two_hands_is_illegal);
        assert!(!Edition::Fide2017.rules().press_without_move_is_illegal);
        assert!(Edition::Fide2017.rules().unpromoted_pawn_becomes_queen);
    }

    #[test]
    fn illegal_moves_1997_third_loses() {
        let r = rules(Edition::Fide1997, "90+30");
        assert_eq!(
            r.illegal_move(Color::Black, 0, MateAbility::Yes),
            IllegalPenalty::TimeToOpponent(m(2))
        );
        assert_eq!(
            r.illegal_move(Color::Black, 1, MateAbility::Yes),
            IllegalPenalty::TimeToOpponent(m(2))
        );
        assert_eq!(
            r.illegal_move(Color::Black, 2, MateAbility::Yes),
            IllegalPenalty::GameOver(Verdict::Loss {
                loser: Color::Black
            })
        );
    }

    #[test]
    fn illegal_moves_in_rapid_and_blitz() {
        // Blitz: the penalty is 1 minute (B.2).
        let blitz = rules(Edition::Fide2018, "3+2");
        assert_eq!(
            blitz.illegal_move(Color::White, 0, MateAbility::Yes),
            IllegalPenalty::TimeToOpponent(m(1))
        );
        // Without full supervision: 2017 loses at once, 2018 as standard.
        let mut r17 = rules(Edition::Fide2017, "15+10");
        r17.supervised = false;
        assert_eq!(
            r17.illegal_move(Color::White, 0, MateAbility::Yes),
            IllegalPenalty::GameOver(Verdict::Loss {
                loser: Color::White
            })
        );
        assert_eq!(
            r17.illegal_move(Color::White, 0, MateAbility::No),
            IllegalPenalty::GameOver(Verdict::Draw)
        );
        let mut r18 = rules(Edition::Fide2018, "15+10");
        r18.supervised = false;
        assert_eq!(
            r18.illegal_move(Color::White, 0, MateAbility::Yes),
            IllegalPenalty::TimeToOpponent(m(2))
        );
        // Supervised 2017 rapid follows the standard rules.
        let r17s = rules(Edition::Fide2017, "15+10");
        assert_eq!(
            r17s.illegal_move(Color::White, 0, MateAbility::Yes),
            IllegalPenalty::TimeToOpponent(m(2))
        );
    }

    #[test]
    fn incorrect_claims_per_edition() {
        let r = rules(Edition::Fide2018, "90+30");
        assert_eq!(
            r.incorrect_claim(m(50)),
            ClaimPenalty {
                claimant_loses: Duration::ZERO,
                opponent_gains: m(2)
            }
        );
        assert_eq!(
            rules(Edition::Fide2017, "90+30").incorrect_claim(m(50)),
            r.incorrect_claim(m(50))
        );
        assert_eq!(
            rules(Edition::Fide2017, "3+2")
                .incorrect_claim(m(2))
                .opponent_gains,
            m(1)
        );
        // Older: half the claimant's time, at most 3 minutes; 3 to the opponent.
        let old = rules(Edition::Fide1997, "90+30");
        assert_eq!(
            old.incorrect_claim(m(50)),
            ClaimPenalty {
                claimant_loses: m(3),
                opponent_gains: m(3)
            }
        );
        assert_eq!(old.incorrect_claim(m(4)).claimant_loses, m(2));
    }

    /// 2023: an illegal move costs one minute in rapid and blitz, two in
    /// standard; the second still loses (a draw when the opponent cannot
    /// mate).  2018 keeps two minutes in rapid.
    #[test]
    fn illegal_moves_2023_by_category() {
        for (spec, category, minutes) in [
            ("90+30", Category::Standard, 2),
            ("15+10", Category::Rapid, 1),
            ("25+10", Category::Rapid, 1),
            ("3+2", Category::Blitz, 1),
            ("5+0", Category::Blitz, 1),
        ] {
            let r = rules(Edition::Fide2023, spec);
            assert_eq!(r.category, category, "{spec}");
            assert_eq!(
                r.illegal_move(Color::White, 0, MateAbility::Yes),
                IllegalPenalty::TimeToOpponent(m(minutes)),
                "{spec}"
            );
            assert_eq!(
                r.illegal_move(Color::White, 1, MateAbility::Yes),
                IllegalPenalty::GameOver(Verdict::Loss {
                    loser: Color::White
                }),
                "{spec}"
            );
            assert_eq!(
                r.illegal_move(Color::Black, 1, MateAbility::No),
                IllegalPenalty::GameOver(Verdict::Draw),
                "{spec}"
            );
        }
        // Unsupervised rapid: as standard's rule, with rapid's minute.
        let mut r = rules(Edition::Fide2023, "15+10");
        r.supervised = false;
        assert_eq!(
            r.illegal_move(Color::White, 0, MateAbility::Yes),
            IllegalPenalty::TimeToOpponent(m(1))
        );
        assert_eq!(
            rules(Edition::Fide2018, "15+10").illegal_move(Color::White, 0, MateAbility::Yes),
            IllegalPenalty::TimeToOpponent(m(2))
        );
        let r23 = Edition::Fide2023.rules();
        assert!(r23.press_without_move_is_illegal && r23.two_hands_is_illegal);
    }

    /// 2023: an incorrect claim gives the opponent one minute in rapid and
    /// blitz, two in standard; the claimant loses nothing.
    #[test]
    fn incorrect_claims_2023_by_category() {
        for (spec, minutes) in [("90+30", 2), ("60+0", 2), ("15+10", 1), ("3+2", 1)] {
            assert_eq!(
                rules(Edition::Fide2023, spec).incorrect_claim(m(30)),
                ClaimPenalty {
                    claimant_loses: Duration::ZERO,
                    opponent_gains: m(minutes)
                },
                "{spec}"
            );
        }
        assert_eq!(
            rules(Edition::Fide2018, "15+10")
                .incorrect_claim(m(30))
                .opponent_gains,
            m(2)
        );
        // 1997's rapid claim penalty stays three minutes.
        assert_eq!(
            rules(Edition::Fide1997, "30+0")
                .incorrect_claim(m(30))
                .opponent_gains,
            m(3)
        );
    }

    /// 5.1.2 as amended in 2023: resigning against a side that cannot
    /// mate by any series of legal moves is a draw; against one that can,
    /// a loss.  Before 2023 it is always a loss.
    #[test]
    fn resignation_against_bare_kings_and_mating_material() {
        let game = |fen: &str| Game::from_position(pos(fen));
        // White (king and rook) resigns against a bare black king.
        let bare = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
        let mut g = game(bare);
        assert_eq!(
            g.resign_under(Color::White, Edition::Fide2023),
            Ok(GameResult::draw(EndReason::Resignation))
        );
        assert!(g.is_over());
        assert_eq!(
            g.resign_under(Color::White, Edition::Fide2023),
            Err(GameError::GameOver)
        );
        // Black resigns against the rook: White wins.
        let mut g = game(bare);
        assert_eq!(
            g.resign_under(Color::Black, Edition::Fide2023),
            Ok(GameResult::win(Color::White, EndReason::Resignation))
        );
        // A lone knight against a pawn can still mate (a helpmate): a loss.
        let mut g = game("4k3/4p3/8/8/8/8/8/1N2K3 b - - 0 1");
        assert_eq!(
            g.resign_under(Color::Black, Edition::Fide2023),
            Ok(GameResult::win(Color::White, EndReason::Resignation))
        );
        // The same resignation against the bare king under 2018, and
        // `resign` (lichess's, whose server decides): a loss.
        for e in [Edition::Fide2018, Edition::Fide2017, Edition::Fide1997] {
            let mut g = game(bare);
            assert_eq!(
                g.resign_under(Color::White, e),
                Ok(GameResult::win(Color::Black, EndReason::Resignation)),
                "{e}"
            );
        }
        let mut g = game(bare);
        assert_eq!(
            g.resign(Color::White),
            Ok(GameResult::win(Color::Black, EndReason::Resignation))
        );
        // The rule as data.
        assert_eq!(
            Edition::Fide2023
                .rules()
                .resignation(Color::White, MateAbility::No),
            Verdict::Draw
        );
        assert_eq!(
            Edition::Fide2018
                .rules()
                .resignation(Color::White, MateAbility::No),
            Verdict::Loss {
                loser: Color::White
            }
        );
    }
}
