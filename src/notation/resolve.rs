//! Rules: the [`Reading`]s of a line matched against the legal moves of the
//! position, and, when none fits, the reason why.
//!
//! All chess rules come from shakmaty; the only board arithmetic here is the
//! "could this piece go there if checks did not matter" test that tells a
//! pinned piece from a piece that cannot reach the square at all.

use shakmaty::attacks;
use shakmaty::{
    Bitboard, CastlingSide, Chess, Color, File, Move, Piece, Position, Rank, Role, Square,
};

use super::error::{Attempt, IllegalReason, InputError};
use super::parse::Reading;

/// Which pieces an attempt can mean.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RoleRule {
    /// The piece was named.
    Exactly(Role),
    /// No piece named, but a from-file or from-rank: a pawn (`ed5`).
    PawnOnly,
    /// Only the target square (`f3`, `Felix drei`): a pawn, as in SAN.
    /// When no pawn can go there but pieces can, the player is asked
    /// which of them was meant ([`InputError::NotAPawnMove`]): another
    /// piece is never played for a bare square.
    PawnThenAny,
    /// A whole from-square (`g1f3`): whatever stands there.
    Any,
}

impl RoleRule {
    fn of(attempt: &Attempt) -> RoleRule {
        match attempt.role {
            Some(role) => RoleRule::Exactly(role),
            None if attempt.from().is_some() => RoleRule::Any,
            None if attempt.from_file.is_some() || attempt.from_rank.is_some() => {
                RoleRule::PawnOnly
            }
            None => RoleRule::PawnThenAny,
        }
    }

    /// The role filters to try, in order: the first that gives a result wins.
    fn stages(self) -> &'static [Option<Role>] {
        match self {
            RoleRule::Exactly(Role::Pawn) | RoleRule::PawnOnly => &[Some(Role::Pawn)],
            RoleRule::Exactly(Role::Knight) => &[Some(Role::Knight)],
            RoleRule::Exactly(Role::Bishop) => &[Some(Role::Bishop)],
            RoleRule::Exactly(Role::Rook) => &[Some(Role::Rook)],
            RoleRule::Exactly(Role::Queen) => &[Some(Role::Queen)],
            RoleRule::Exactly(Role::King) => &[Some(Role::King)],
            RoleRule::PawnThenAny => &[Some(Role::Pawn)],
            RoleRule::Any => &[None],
        }
    }
}

/// The one legal move the readings of `input` give, or why there is none.
/// `readings` must be sorted best first (see [`Reading::level`]).
pub(crate) fn resolve(readings: &[Reading], input: &str, pos: &Chess) -> Result<Move, InputError> {
    let Some(best) = readings.first() else {
        return Err(InputError::NotUnderstood {
            input: input.to_owned(),
        });
    };
    if pos.is_game_over() {
        return Err(InputError::Illegal {
            attempt: best.attempt,
            reason: IllegalReason::GameOver,
        });
    }
    let legal: Vec<Move> = pos.legal_moves().into_iter().collect();
    let results: Vec<(&Reading, Result<Vec<Move>, Miss>)> = readings
        .iter()
        .map(|r| (r, matching(&r.attempt, pos, &legal)))
        .collect();

    let Some(level) = results
        .iter()
        .filter(|(_, res)| res.is_ok())
        .map(|(r, _)| r.level())
        .min()
    else {
        // Nothing legal: the best reading's reason, the most telling reason
        // among readings equally good.
        let (reading, miss) = results
            .iter()
            .filter_map(|(r, res)| res.as_ref().err().map(|e| (*r, e)))
            .min_by_key(|(r, miss)| (r.level(), miss.rank()))
            .unwrap_or((best, &Miss::Reason(IllegalReason::NoPieceCanReach)));
        return Err(match miss {
            Miss::Reason(reason) => InputError::Illegal {
                attempt: reading.attempt,
                reason: *reason,
            },
            Miss::NotAPawn(candidates) => InputError::NotAPawnMove {
                attempt: reading.attempt,
                candidates: candidates.clone(),
            },
        });
    };

    let winners: Vec<(&Reading, &Vec<Move>)> = results
        .iter()
        .filter(|(r, _)| r.level() == level)
        .filter_map(|(r, res)| res.as_ref().ok().map(|m| (*r, m)))
        .collect();
    let mut all: Vec<Move> = winners
        .iter()
        .flat_map(|(_, m)| m.iter().copied())
        .collect();
    sort_moves(&mut all);
    all.dedup();
    match (&all[..], &winners[..]) {
        ([only], _) => Ok(*only),
        (_, [(reading, _)]) => Err(InputError::Ambiguous {
            attempt: reading.attempt,
            candidates: all,
        }),
        _ if winners.iter().all(|(_, m)| m.len() == all.len()) => {
            // Several readings, all meaning the same moves.
            Err(InputError::Ambiguous {
                attempt: winners[0].0.attempt,
                candidates: all,
            })
        }
        _ => Err(InputError::AmbiguousReading {
            input: input.to_owned(),
            candidates: all,
        }),
    }
}

/// Candidates in a stable order: by from-square, then target, then promotion.
fn sort_moves(moves: &mut [Move]) {
    moves.sort_by_key(|m| (m.from(), m.to(), m.promotion()));
}

/// Why no legal move fits one reading.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Miss {
    /// The move cannot be played, for this reason.
    Reason(IllegalReason),
    /// A bare square no pawn can go to, and the legal piece moves that go
    /// there (at least one), for the question which was meant.
    NotAPawn(Vec<Move>),
}

impl Miss {
    /// Lower is more telling: the pieces that can go to a bare square and a
    /// reason that names a concrete obstacle beat "no such piece".
    fn rank(&self) -> u8 {
        match self {
            Miss::NotAPawn(_) => 0,
            Miss::Reason(IllegalReason::NoPieceCanReach) => 3,
            Miss::Reason(IllegalReason::NoPieceOnSquare | IllegalReason::NotYourMove) => 2,
            Miss::Reason(_) => 1,
        }
    }
}

impl From<IllegalReason> for Miss {
    fn from(reason: IllegalReason) -> Miss {
        Miss::Reason(reason)
    }
}

/// The legal moves that fit `attempt` (at least one), or why there are none.
fn matching(attempt: &Attempt, pos: &Chess, legal: &[Move]) -> Result<Vec<Move>, Miss> {
    if RoleRule::of(attempt) == RoleRule::PawnThenAny
        && let Some(to) = attempt.to
        && attempt.castle.is_none()
        && !legal.iter().any(|m| {
            m.role() == Role::Pawn
                && fits_squares(*m, attempt, to, pos)
                && bare_square_fits(*m, attempt)
        })
    {
        // A bare square is a pawn move (SAN): no pawn can go there, so ask
        // which move was meant rather than play one.
        let mut pieces: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| !m.is_castle() && m.to() == to)
            .collect();
        if !pieces.is_empty() {
            sort_moves(&mut pieces);
            return Err(Miss::NotAPawn(pieces));
        }
    }
    matching_reason(attempt, pos, legal).map_err(Miss::from)
}

/// [`matching`] for a reading that is not a bare square no pawn reaches.
fn matching_reason(
    attempt: &Attempt,
    pos: &Chess,
    legal: &[Move],
) -> Result<Vec<Move>, IllegalReason> {
    if let Some(side) = attempt.castle {
        let moves: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| m.castling_side() == Some(side))
            .collect();
        return if moves.is_empty() {
            Err(IllegalReason::CastlingNotAllowed)
        } else {
            Ok(moves)
        };
    }
    let Some(to) = attempt.to else {
        return Err(IllegalReason::NoPieceCanReach);
    };
    // The moves that fit everything but the promotion piece.
    let rule = RoleRule::of(attempt);
    let loose: Vec<Move> = rule
        .stages()
        .iter()
        .map(|role| {
            legal
                .iter()
                .copied()
                .filter(|m| {
                    role.is_none_or(|r| m.role() == r)
                        && fits_squares(*m, attempt, to, pos)
                        && (rule != RoleRule::PawnThenAny || bare_square_fits(*m, attempt))
                })
                .collect::<Vec<Move>>()
        })
        .find(|moves| !moves.is_empty())
        .unwrap_or_default();
    if loose.is_empty() {
        return Err(diagnose(attempt, to, pos));
    }
    let moves: Vec<Move> = loose
        .iter()
        .copied()
        .filter(|m| m.promotion() == attempt.promotion)
        .collect();
    match (moves.is_empty(), attempt.promotion) {
        (false, _) => Ok(moves),
        // Every fitting move is a promotion: the piece must be named (D.2.1).
        (true, None) => Err(IllegalReason::PromotionPieceMissing),
        (true, Some(_)) => Err(IllegalReason::NotAPromotion),
    }
}

/// Whether a pawn move `m` is what a bare square means: a move straight
/// ahead, or a capture only when a capture was said (`x d5`, `takes d5`):
/// `d5` never plays `exd5`.
fn bare_square_fits(m: Move, attempt: &Attempt) -> bool {
    m.role() == Role::Pawn && (attempt.capture || !m.is_capture())
}

/// Whether `m` goes to `to` from where the attempt said.  A castling move
/// fits the king's from-square with the rook's square (Chess960 style) or,
/// in the standard set-up, the king's target (`e1g1`).
fn fits_squares(m: Move, attempt: &Attempt, to: Square, pos: &Chess) -> bool {
    let from_fits = |from: Square| {
        attempt.from_file.is_none_or(|f| f == from.file())
            && attempt.from_rank.is_none_or(|r| r == from.rank())
    };
    match m {
        Move::Normal { from, to: t, .. } | Move::EnPassant { from, to: t } => {
            t == to && from_fits(from)
        }
        Move::Castle { king, rook } => {
            let standard = king.file() == File::E && matches!(rook.file(), File::A | File::H);
            let side = CastlingSide::from_king_side(king < rook);
            attempt.from() == Some(king)
                && (to == rook || (standard && to == side.king_to(pos.turn())))
        }
        Move::Put { .. } => false,
    }
}

/// Why no legal move fits an attempt with target `to`.
fn diagnose(attempt: &Attempt, to: Square, pos: &Chess) -> IllegalReason {
    let rule = RoleRule::of(attempt);
    let board = pos.board();
    if let Some(from) = attempt.from() {
        match board.piece_at(from) {
            None => return IllegalReason::NoPieceOnSquare,
            Some(p) if p.color != pos.turn() => return IllegalReason::NotYourMove,
            Some(p)
                if p.role == Role::King
                    && from.rank() == to.rank()
                    && from.file().distance(to.file()) >= 2 =>
            {
                return IllegalReason::CastlingNotAllowed;
            }
            Some(_) => {}
        }
    }
    if let Some((_, role)) = could_go(attempt, to, pos, pos.turn(), rule).first() {
        return if *role == Role::King {
            IllegalReason::KingWouldBeInCheck
        } else if pos.is_check() {
            IllegalReason::KingInCheck
        } else {
            IllegalReason::Pinned
        };
    }
    if could_go(attempt, to, pos, !pos.turn(), rule).is_empty() {
        IllegalReason::NoPieceCanReach
    } else {
        IllegalReason::NotYourMove
    }
}

/// The pieces of `color` that fit the attempt and could move to `to` if
/// checks did not matter, sorted by square.
fn could_go(
    attempt: &Attempt,
    to: Square,
    pos: &Chess,
    color: Color,
    rule: RoleRule,
) -> Vec<(Square, Role)> {
    let board = pos.board();
    let mut pieces = board.by_color(color);
    if let Some(f) = attempt.from_file {
        pieces &= Bitboard::from_file(f);
    }
    if let Some(r) = attempt.from_rank {
        pieces &= Bitboard::from_rank(r);
    }
    for role in rule.stages() {
        let found: Vec<(Square, Role)> = pieces
            .into_iter()
            .filter_map(|sq| board.role_at(sq).map(|r| (sq, r)))
            .filter(|(sq, r)| {
                role.is_none_or(|want| want == *r) && reaches(pos, color, *sq, *r, to)
            })
            .collect();
        if !found.is_empty() {
            return found;
        }
    }
    Vec::new()
}

/// Whether a `role` of `color` on `from` moves to `to` by the way it moves,
/// ignoring checks.
fn reaches(pos: &Chess, color: Color, from: Square, role: Role, to: Square) -> bool {
    let board = pos.board();
    if board.by_color(color).contains(to) {
        return false;
    }
    let occupied = board.occupied();
    if role != Role::Pawn {
        return attacks::attacks(from, Piece { color, role }, occupied).contains(to);
    }
    if attacks::pawn_attacks(color, from).contains(to) {
        return board.by_color(!color).contains(to)
            || (color == pos.turn() && pos.maybe_ep_square() == Some(to));
    }
    let step = if color == Color::White { 8 } else { -8 };
    let Some(one) = from.offset(step) else {
        return false;
    };
    if occupied.contains(one) {
        return false;
    }
    if one == to {
        return true;
    }
    let start = if color == Color::White {
        Rank::Second
    } else {
        Rank::Seventh
    };
    from.rank() == start && one.offset(step) == Some(to) && !occupied.contains(to)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, File};

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .expect("test FEN parses")
            .into_position(CastlingMode::Standard)
            .expect("test FEN is a legal position")
    }

    fn reading(attempt: Attempt, exact: bool, in_player: bool) -> Reading {
        Reading {
            attempt,
            exact,
            in_player,
        }
    }

    fn to(role: Option<Role>, sq: Square) -> Attempt {
        Attempt {
            role,
            to: Some(sq),
            ..Attempt::default()
        }
    }

    /// Rooks e1 and e3 both reach e2.
    const ROOKS: &str = "6k1/8/8/8/8/4R3/8/4R1K1 w - - 0 1";

    #[test]
    fn no_reading_is_not_understood() {
        assert_eq!(
            resolve(&[], "zz", &Chess::default()),
            Err(InputError::NotUnderstood { input: "zz".into() })
        );
    }

    #[test]
    fn two_readings_with_the_same_moves_are_one_ambiguity() {
        let p = pos(ROOKS);
        let by_file = Attempt {
            from_file: Some(File::E),
            ..to(Some(Role::Rook), Square::E2)
        };
        let readings = [
            reading(to(Some(Role::Rook), Square::E2), true, true),
            reading(by_file, true, true),
        ];
        match resolve(&readings, "in", &p) {
            Err(InputError::Ambiguous {
                attempt,
                candidates,
            }) => {
                assert_eq!(attempt, readings[0].attempt);
                assert_eq!(candidates.len(), 2);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn two_readings_with_different_moves_ask_which() {
        let p = pos(ROOKS);
        let readings = [
            reading(to(Some(Role::Rook), Square::E2), true, false),
            reading(to(Some(Role::King), Square::F2), true, false),
        ];
        match resolve(&readings, "in", &p) {
            Err(InputError::AmbiguousReading { input, candidates }) => {
                assert_eq!(input, "in");
                // By from-square (a1, b1, ..., h1, a2, ...): e1, g1, e3.
                let from: Vec<Option<Square>> = candidates.iter().map(|m| m.from()).collect();
                assert_eq!(
                    from,
                    vec![Some(Square::E1), Some(Square::G1), Some(Square::E3)]
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_better_level_wins() {
        let p = pos(ROOKS);
        let king = reading(to(Some(Role::King), Square::F2), true, true);
        let rook = reading(to(Some(Role::Rook), Square::E2), true, false);
        let mut readings = [rook, king];
        readings.sort_by_key(Reading::level);
        assert_eq!(
            resolve(&readings, "in", &p).map(|m| m.role()),
            Ok(Role::King)
        );
    }

    #[test]
    fn exact_readings_come_before_the_players_language() {
        let inexact_players = reading(to(Some(Role::King), Square::F2), false, true);
        let exact_foreign = reading(to(Some(Role::Rook), Square::E2), true, false);
        assert!(exact_foreign.level() < inexact_players.level());
    }

    #[test]
    fn the_most_telling_reason_of_equal_readings() {
        // The rook f8 guards f2; the rook a1 cannot reach h3.
        let p = pos("5rk1/8/8/8/8/8/8/R5K1 w - - 0 1");
        let readings = [
            reading(to(Some(Role::Rook), Square::H3), true, false),
            reading(to(Some(Role::King), Square::F2), true, false),
        ];
        assert_eq!(
            resolve(&readings, "in", &p),
            Err(InputError::Illegal {
                attempt: readings[1].attempt,
                reason: IllegalReason::KingWouldBeInCheck
            })
        );
        // But a better reading's reason wins over a more telling one.
        let readings = [
            reading(to(Some(Role::Rook), Square::H3), true, true),
            reading(to(Some(Role::King), Square::F2), true, false),
        ];
        assert_eq!(
            resolve(&readings, "in", &p),
            Err(InputError::Illegal {
                attempt: readings[0].attempt,
                reason: IllegalReason::NoPieceCanReach
            })
        );
    }

    #[test]
    fn a_blocked_pawn_does_not_reach() {
        // A black knight on e3 blocks the e-pawn: not pinned, it cannot go.
        let p = pos("r1bqkbnr/pppppppp/8/8/8/4n3/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(!reaches(
            &p,
            Color::White,
            Square::E2,
            Role::Pawn,
            Square::E4
        ));
        assert!(!reaches(
            &p,
            Color::White,
            Square::E2,
            Role::Pawn,
            Square::E3
        ));
        assert!(reaches(
            &p,
            Color::White,
            Square::D2,
            Role::Pawn,
            Square::E3
        ));
        assert!(reaches(
            &p,
            Color::White,
            Square::D2,
            Role::Pawn,
            Square::D4
        ));
        assert!(!reaches(
            &p,
            Color::White,
            Square::D2,
            Role::Pawn,
            Square::D5
        ));
        assert!(reaches(
            &p,
            Color::Black,
            Square::E7,
            Role::Pawn,
            Square::E5
        ));
        assert_eq!(
            matching(&to(None, Square::E4), &p, &p.legal_moves()),
            Err(Miss::Reason(IllegalReason::NoPieceCanReach))
        );
    }
}
