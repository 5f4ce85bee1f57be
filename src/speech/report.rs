//! Sentences about things that went wrong or ended: input errors, the end of
//! the game, a board that does not match the game.

use shakmaty::san::San;
use shakmaty::{Chess, Color, Move, Position, Role};

use super::phrase::{Form, Phraser};
use crate::board::{Sensed, SquareDiff};
use crate::game::EndReason;
use crate::notation::{Attempt, IllegalReason, InputError};

impl Phraser {
    /// The sentence for a typed line that gave no legal move; `pos` is the
    /// position it was typed in.
    pub fn input_error(&self, err: &InputError, pos: &Chess) -> String {
        match err {
            InputError::NotUnderstood { input } => {
                self.message("not_understood", &[("input", input)])
            }
            InputError::Illegal { attempt, reason } => {
                let said = self.attempt(attempt);
                let reason = self.reason(attempt, *reason, pos);
                self.message("illegal", &[("move", &said), ("reason", &reason)])
            }
            InputError::Ambiguous { candidates, .. } => self.ambiguous(candidates, pos),
            InputError::AmbiguousReading { input, candidates } => {
                let list = self.candidate_list(candidates, pos);
                self.message("ambiguous_reading", &[("input", input), ("list", &list)])
            }
        }
    }

    /// What the player said, in the move words: "Springer Felix drei".
    fn attempt(&self, a: &Attempt) -> String {
        let w = &self.words;
        if let Some(side) = a.castle {
            return self.castle(side).to_owned();
        }
        let mut parts: Vec<String> = Vec::new();
        match a.role {
            Some(Role::Pawn) if !self.opts.pawn_word => {}
            Some(role) => parts.push(w.piece(role).to_owned()),
            None => {}
        }
        match (a.from(), a.from_file, a.from_rank) {
            (Some(sq), _, _) => parts.push(w.square(sq)),
            (None, Some(f), _) => parts.push(w.file(f).to_owned()),
            (None, None, Some(r)) => parts.push(w.rank(r).to_owned()),
            (None, None, None) => {}
        }
        if a.capture {
            parts.push(w.captures.clone());
        }
        if let Some(to) = a.to {
            parts.push(w.square(to));
        }
        if let Some(p) = a.promotion {
            parts.push(w.promotes.clone());
            parts.push(w.piece(p).to_owned());
        }
        if parts.is_empty() {
            return self.message("this_move", &[]);
        }
        parts.join(" ")
    }

    /// The reason part of "… is not legal: {reason}."
    fn reason(&self, a: &Attempt, reason: IllegalReason, pos: &Chess) -> String {
        let turn = self.side(pos.turn());
        let square = |sq| self.square(sq);
        match reason {
            IllegalReason::NoPieceCanReach => match (a.role, a.to) {
                (Some(role), Some(to)) => self.message(
                    "reason_no_piece_can_reach",
                    &[("piece", &self.piece(role)), ("square", &square(to))],
                ),
                (None, Some(to)) => {
                    self.message("reason_nothing_can_reach", &[("square", &square(to))])
                }
                (_, None) => self.message("reason_no_such_move", &[]),
            },
            IllegalReason::NoPieceOnSquare => match a.from() {
                Some(from) => match (pos.board().piece_at(from), a.role) {
                    (None, _) => self.message("reason_square_empty", &[("square", &square(from))]),
                    (Some(_), Some(role)) => self.message(
                        "reason_no_piece_there",
                        &[("piece", &self.piece(role)), ("square", &square(from))],
                    ),
                    (Some(_), None) => self.message("reason_no_such_move", &[]),
                },
                None => self.message("reason_no_such_move", &[]),
            },
            IllegalReason::NotYourMove => {
                let theirs = a
                    .from()
                    .and_then(|sq| pos.board().piece_at(sq).map(|p| (sq, p)))
                    .filter(|(_, p)| p.color != pos.turn());
                match theirs {
                    Some((sq, p)) => self.message(
                        "reason_opponents_piece",
                        &[
                            ("piece", &self.the_coloured_piece(p)),
                            ("square", &square(sq)),
                            ("owner", &self.side(p.color)),
                            ("side", &turn),
                        ],
                    ),
                    None => self.message("reason_not_your_move", &[("side", &turn)]),
                }
            }
            IllegalReason::Pinned => self.message("reason_pinned", &[]),
            IllegalReason::KingInCheck => self.message("reason_king_in_check", &[]),
            IllegalReason::KingWouldBeInCheck => self.message("reason_king_would_be_in_check", &[]),
            IllegalReason::CastlingNotAllowed => self.message("reason_castling_not_allowed", &[]),
            IllegalReason::PromotionPieceMissing => {
                self.message("reason_promotion_piece_missing", &[])
            }
            IllegalReason::NotAPromotion => self.message("reason_not_a_promotion", &[]),
            IllegalReason::GameOver => self.message("reason_game_over", &[]),
        }
    }

    /// "Two Springer can go to David zwei: from Bella eins or from Felix
    /// drei."  When the candidates do not share one destination from
    /// different squares, each candidate move is listed instead.
    fn ambiguous(&self, candidates: &[Move], pos: &Chess) -> String {
        let count = self.count_word(candidates.len());
        let same_to = candidates
            .first()
            .map(|m| m.to())
            .filter(|to| candidates.iter().all(|c| c.to() == *to && !c.is_castle()));
        let mut froms: Vec<_> = candidates.iter().filter_map(|m| m.from()).collect();
        froms.sort();
        froms.dedup();
        let distinct_froms = froms.len() == candidates.len();
        let (Some(to), true, true) = (same_to, distinct_froms, candidates.len() >= 2) else {
            let list = self.candidate_list(candidates, pos);
            return self.message("ambiguous_moves", &[("list", &list)]);
        };
        let square = self.square(to);
        let first_role = candidates[0].role();
        if candidates.iter().all(|m| m.role() == first_role) {
            let items: Vec<String> = candidates
                .iter()
                .filter_map(|m| m.from())
                .map(|from| self.message("ambiguous_from", &[("square", &self.square(from))]))
                .collect();
            let list = self.join(&items, "list_or");
            let pieces = self.words.plural(first_role);
            self.message(
                "ambiguous",
                &[
                    ("count", &count),
                    ("pieces", pieces),
                    ("square", &square),
                    ("list", &list),
                ],
            )
        } else {
            let items: Vec<String> = candidates
                .iter()
                .filter_map(|m| Some((m.role(), m.from()?)))
                .map(|(role, from)| {
                    self.message(
                        "ambiguous_piece_from",
                        &[("piece", &self.piece(role)), ("square", &self.square(from))],
                    )
                })
                .collect();
            let list = self.join(&items, "list_or");
            self.message(
                "ambiguous_pieces",
                &[("count", &count), ("square", &square), ("list", &list)],
            )
        }
    }

    /// The candidate moves, short form, joined with "or".
    fn candidate_list(&self, candidates: &[Move], pos: &Chess) -> String {
        let items: Vec<String> = candidates
            .iter()
            .map(|m| self.move_body(*m, San::from_move(pos, *m), Form::Short))
            .collect();
        self.join(&items, "list_or")
    }

    /// The end of the game: "Checkmate. White wins, 1-0."  `winner` is
    /// ignored for a draw; a win without a winner is said as "The game is
    /// over."
    pub fn game_over(&self, reason: EndReason, winner: Option<Color>) -> String {
        let draw_key = match reason {
            EndReason::Stalemate => Some("over_stalemate"),
            EndReason::DeadPosition => Some("over_dead_position"),
            EndReason::FivefoldRepetition => Some("over_fivefold"),
            EndReason::SeventyFiveMoves => Some("over_seventy_five"),
            EndReason::ThreefoldRepetition => Some("over_threefold"),
            EndReason::FiftyMoves => Some("over_fifty"),
            EndReason::Agreement => Some("over_agreement"),
            EndReason::Checkmate | EndReason::Resignation => None,
        };
        if let Some(key) = draw_key {
            let result = self.message("result_draw", &[]);
            return self.message(key, &[("result", &result)]);
        }
        let Some(winner) = winner else {
            return self.message("over_unknown", &[]);
        };
        let key = match reason {
            EndReason::Resignation => "over_resignation",
            _ => "over_checkmate",
        };
        let result = self.message(
            match winner {
                Color::White => "result_white",
                Color::Black => "result_black",
            },
            &[],
        );
        self.message(
            key,
            &[
                ("side", &self.side(winner)),
                ("loser", &self.side(!winner)),
                ("result", &result),
            ],
        )
    }

    /// The mismatch report (D.2.9), one clause per square in the given
    /// order: "Mismatch: Felix drei should have the white Springer, it is
    /// empty. Gustav eins should be empty."  With nothing left to fix:
    /// "Board matches the game."
    pub fn mismatch(&self, diffs: &[SquareDiff]) -> String {
        let items: Vec<String> = diffs.iter().filter_map(|d| self.diff(d)).collect();
        if items.is_empty() {
            return self.message("board_matches", &[]);
        }
        let list = items.join(&self.message("sentence_separator", &[]));
        self.message("mismatch", &[("list", &list)])
    }

    /// One square of a mismatch report; `None` when the square agrees.
    fn diff(&self, d: &SquareDiff) -> Option<String> {
        let square = self.square(d.square);
        let sq = ("square", square.as_str());
        match (d.expected, d.found) {
            (None, Sensed::Empty) => None,
            (Some(e), Sensed::Piece(f)) if e == f => None,
            (Some(e), found) => {
                let piece = self.the_coloured_piece(e);
                let args = [sq, ("piece", piece.as_str())];
                Some(match found {
                    Sensed::Empty => self.message("mismatch_missing", &args),
                    Sensed::Occupied => self.message("mismatch_unsure", &args),
                    Sensed::Piece(f) => {
                        let found = self.the_coloured_piece(f);
                        self.message(
                            "mismatch_wrong",
                            &[sq, ("piece", &piece), ("found", &found)],
                        )
                    }
                })
            }
            (None, Sensed::Piece(f)) => {
                let found = self.the_coloured_piece(f);
                Some(self.message("mismatch_extra", &[sq, ("found", &found)]))
            }
            (None, Sensed::Occupied) => Some(self.message("mismatch_extra_unknown", &[sq])),
        }
    }
}
