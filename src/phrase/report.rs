//! Sentences about things that went wrong or ended: input errors, the end of
//! the game, a board that does not match the game.

use crate::words::quote;
use shakmaty::san::San;
use shakmaty::{CastlingSide, Chess, Color, Move, Position, Rank, Role, Square};

use super::phraser::{Form, Phraser};
use crate::board::{Sensed, SquareDiff};
use crate::game::EndReason;
use crate::notation::{Attempt, IllegalReason, InputError};

impl Phraser {
    /// The sentence for a typed line that gave no legal move; `pos` is the
    /// position it was typed in.
    pub fn input_error(&self, err: &InputError, pos: &Chess) -> String {
        // A sentence begins with a capital, also when it begins with a
        // move in words ("Pawn e5 is Black's move", not "pawn e5 …").
        capitalised(self.input_error_words(err, pos))
    }

    fn input_error_words(&self, err: &InputError, pos: &Chess) -> String {
        match err {
            InputError::NotUnderstood { input } => {
                self.message("not_understood", &[("input", &quote(input))])
            }
            InputError::Illegal {
                attempt,
                reason: IllegalReason::NotYourMove,
            } if self.other_sides_move(attempt, pos).is_some() => {
                let (said, owner) = self.other_sides_move(attempt, pos).unwrap_or_default();
                let side = self.side(pos.turn());
                self.message(
                    "not_your_turn",
                    &[("move", &said), ("owner", &owner), ("side", &side)],
                )
            }
            InputError::Illegal { attempt, reason } => {
                let said = self.attempt(attempt);
                let reason = self.reason(attempt, *reason, pos);
                self.message("illegal", &[("move", &said), ("reason", &reason)])
            }
            InputError::Ambiguous { candidates, .. } => {
                let what = self.ambiguous(candidates, pos);
                // How to choose: each move as it can be typed.
                let list = self.candidate_list(candidates, pos);
                let choose = self.message("ambiguous_choose", &[("list", &list)]);
                if what.contains(&list) {
                    what
                } else {
                    let sep = self.message("sentence_separator", &[]);
                    format!("{what}{sep}{choose}")
                }
            }
            InputError::NotAPawnMove {
                attempt,
                candidates,
            } => {
                let square = attempt.to.map(|to| self.square(to)).unwrap_or_default();
                let list = self.candidate_list(candidates, pos);
                // A pawn that could only capture there: it cannot go
                // straight there.
                let key = if candidates.iter().any(|m| m.role() == Role::Pawn) {
                    "not_a_pawn_push"
                } else {
                    "not_a_pawn_move"
                };
                self.message(key, &[("square", &square), ("list", &list)])
            }
            InputError::AmbiguousReading { input, candidates } => {
                let list = self.candidate_list(candidates, pos);
                self.message(
                    "ambiguous_reading",
                    &[("input", &quote(input)), ("list", &list)],
                )
            }
        }
    }

    /// A move typed for the side not to move, when the other side has
    /// exactly that move: the move in words and its owner ("Bauer Eva
    /// fünf", "Black").
    fn other_sides_move(&self, a: &Attempt, pos: &Chess) -> Option<(String, String)> {
        let other = pos.clone().swap_turn().ok()?;
        let role = a.role.unwrap_or(Role::Pawn);
        let found: Vec<Move> = other
            .legal_moves()
            .into_iter()
            .filter(|m| match a.castle {
                Some(side) => m.castling_side() == Some(side),
                None => {
                    m.role() == role
                        && Some(m.to()) == a.to
                        && !m.is_castle()
                        && a.from_file
                            .is_none_or(|f| m.from().map(|s| s.file()) == Some(f))
                        && a.from_rank
                            .is_none_or(|r| m.from().map(|s| s.rank()) == Some(r))
                        && (a.promotion.is_none() || m.promotion() == a.promotion)
                }
            })
            .collect();
        let [m] = found[..] else {
            return None;
        };
        let said = self.move_body(m, San::from_move(&other, m), Form::Short);
        Some((said, self.side(other.turn())))
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
                    &[
                        ("piece", &self.piece(role)),
                        ("no_piece", &self.no_piece(role)),
                        ("square", &square(to)),
                    ],
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
            IllegalReason::CastlingNotAllowed => self.castling_reason(a, pos),
            IllegalReason::PromotionPieceMissing => {
                self.message("reason_promotion_piece_missing", &[])
            }
            IllegalReason::NotAPromotion => self.message("reason_not_a_promotion", &[]),
            IllegalReason::GameOver => self.message("reason_game_over", &[]),
        }
    }

    /// Why the castling asked for cannot be played, first what the player
    /// can see on the board: the right lost, the king in check, the pieces
    /// in the way ("Springer Gustav eins is in the way"), a square on the
    /// king's way attacked.
    fn castling_reason(&self, a: &Attempt, pos: &Chess) -> String {
        let turn = pos.turn();
        let board = pos.board();
        let king = board.king_of(turn);
        let side = a.castle.or_else(|| {
            let (king, to) = (king?, a.to?);
            (a.role == Some(Role::King) && to.rank() == king.rank() && to.distance(king) == 2)
                .then(|| CastlingSide::from_king_side(to.file() > king.file()))
        });
        let (Some(side), Some(king)) = (side, king) else {
            return self.message("reason_castling_not_allowed", &[]);
        };
        if pos.castles().rook(turn, side).is_none() {
            return self.message("reason_castling_no_right", &[]);
        }
        if pos.is_check() {
            return self.message("reason_castling_in_check", &[]);
        }
        let blockers = pos.castles().path(turn, side) & board.occupied();
        if blockers.any() {
            let items: Vec<String> = blockers
                .into_iter()
                .filter_map(|sq| {
                    let role = board.role_at(sq)?;
                    Some(format!("{} {}", self.piece(role), self.square(sq)))
                })
                .collect();
            let list = self.join(&items, "list_and");
            return self.message(
                "reason_castling_blocked",
                &[("list", &list), ("count", &items.len().to_string())],
            );
        }
        let king_to = Square::from_coords(side.king_to_file(), king.rank());
        let way = shakmaty::attacks::between(king, king_to).with(king_to);
        let attacked = way
            .into_iter()
            .find(|sq| board.attacks_to(*sq, !turn, board.occupied()).any());
        match attacked {
            Some(sq) => self.message("reason_castling_attacked", &[("square", &self.square(sq))]),
            None => self.message("reason_castling_not_allowed", &[]),
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
            // The count agrees with the noun "pieces" (Greek "Τρία κομμάτια").
            let n = candidates.len().to_string();
            self.message(
                "ambiguous_pieces",
                &[("count", &n), ("square", &square), ("list", &list)],
            )
        }
    }

    /// The candidate moves, short form, joined with "or".
    fn candidate_list(&self, candidates: &[Move], pos: &Chess) -> String {
        // Promotions in the order of the question: Dame, Turm, Läufer,
        // Springer, each pawn's together (the legal moves come knight
        // first).
        let rank = |m: &Move| match m.promotion() {
            Some(Role::Queen) => 0,
            Some(Role::Rook) => 1,
            Some(Role::Bishop) => 2,
            Some(_) => 3,
            None => 0,
        };
        let mut candidates = candidates.to_vec();
        if candidates.iter().any(|m| m.is_promotion()) {
            candidates.sort_by_key(|m| (m.from(), m.to(), rank(m)));
        }
        let items: Vec<String> = candidates
            .iter()
            .map(|m| self.move_body(*m, San::from_move(pos, *m), Form::Short))
            .collect();
        self.join(&items, "list_or")
    }

    /// The state of a game that is over, for the prompt, `turn` and a move
    /// typed after the end: "Game over: White won by checkmate, 1-0. Say
    /// new for a new game."
    pub fn game_over_state(&self, reason: EndReason, winner: Option<Color>) -> String {
        let how = self.how_it_ended(reason, winner);
        let result = self.result_said(winner);
        self.message("game_over_state", &[("how", &how), ("result", &result)])
    }

    /// How a game ended, without the result: "White won on time, Black's
    /// flag fell", "drawn by threefold repetition".
    pub fn how_it_ended(&self, reason: EndReason, winner: Option<Color>) -> String {
        let key = match reason {
            EndReason::Checkmate => "how_checkmate",
            EndReason::Resignation if winner.is_some() => "how_resignation",
            EndReason::Resignation => "how_resignation_draw",
            EndReason::Stalemate => "how_stalemate",
            EndReason::DeadPosition => "how_dead_position",
            EndReason::FivefoldRepetition => "how_fivefold",
            EndReason::SeventyFiveMoves => "how_seventy_five",
            EndReason::ThreefoldRepetition => "how_threefold",
            EndReason::FiftyMoves => "how_fifty",
            EndReason::Agreement => "how_agreement",
            EndReason::TimeForfeit if winner.is_some() => "how_time",
            EndReason::TimeForfeit => "how_time_draw",
            EndReason::IllegalMove if winner.is_some() => "how_illegal",
            EndReason::IllegalMove => "how_illegal_draw",
            EndReason::ArbiterDecision if winner.is_some() => "how_arbiter",
            EndReason::ArbiterDecision => "how_arbiter_draw",
            EndReason::Abandoned if winner.is_some() => "how_abandoned",
            EndReason::Abandoned => "how_abandoned_draw",
        };
        let (side, loser) = match winner {
            Some(w) => (self.side(w), self.side(!w)),
            None => (String::new(), String::new()),
        };
        self.message(key, &[("side", &side), ("loser", &loser)])
    }

    /// One problem of the settings file, in the player's words: "c.toml,
    /// line 2, key speech.rate: a number from -1 to 1, found 1e308. Using
    /// 1."
    pub fn setting_error(&self, e: &crate::toml_error::SettingError) -> String {
        use crate::toml_error::{Expect, SettingProblem};
        let place = self.place(&e.file, e.line, e.key.as_deref());
        let expect = |x: &Expect| self.expectation(x);
        let p = ("place", place.as_str());
        // A table is named in the sentence, not as a key.
        let at_line = self.place(&e.file, e.line, None);
        let table_place = ("place", at_line.as_str());
        let table = ("table", e.key.as_deref().unwrap_or_default());
        match &e.problem {
            SettingProblem::NoSuchFile => self.message("setting_no_file", &[("file", &e.file)]),
            SettingProblem::Unreadable(why) => {
                self.message("setting_unreadable", &[p, ("why", &self.io_why(why))])
            }
            SettingProblem::Syntax => self.message("setting_syntax", &[p]),
            SettingProblem::NotText => self.message("setting_not_text", &[p]),
            SettingProblem::Unknown => self.message("setting_unknown", &[p]),
            SettingProblem::UnknownTable => {
                self.message("setting_unknown_table", &[table_place, table])
            }
            SettingProblem::Duplicate { first } => {
                self.message("setting_duplicate", &[p, ("first", &first.to_string())])
            }
            SettingProblem::DuplicateTable { first } => self.message(
                "setting_duplicate_table",
                &[table_place, table, ("first", &first.to_string())],
            ),
            SettingProblem::Wrong {
                expect: Some(x),
                found,
            } => self.message(
                "setting_wrong",
                &[p, ("expect", &expect(x)), ("found", found)],
            ),
            SettingProblem::Wrong {
                expect: None,
                found,
            } => self.message("setting_wrong_value", &[p, ("found", found)]),
            SettingProblem::Clamped {
                expect: x,
                found,
                used,
            } => self.message(
                "setting_clamped",
                &[p, ("expect", &expect(x)), ("found", found), ("used", used)],
            ),
        }
    }

    /// Why the system refused a file or a connection, in the player's
    /// words ("there is no such file", "the disk is full"): the one place
    /// an [`std::io::Error`]'s kind is worded.  Only a kind hector has no
    /// words for keeps the system's own text.
    pub fn io_why(&self, why: &crate::toml_error::IoWhy) -> String {
        use crate::toml_error::IoWhy;
        let key = match why {
            IoWhy::NotFound => "file_not_found",
            IoWhy::NotAllowed => "file_not_allowed",
            IoWhy::IsAFolder => "file_is_folder",
            IoWhy::NotAFolder => "io_not_a_folder",
            IoWhy::ReadOnly => "io_read_only",
            IoWhy::StorageFull => "io_storage_full",
            IoWhy::AlreadyExists => "io_already_exists",
            IoWhy::TimedOut => "io_timed_out",
            IoWhy::ConnectionRefused => "io_connection_refused",
            IoWhy::ConnectionReset => "io_connection_reset",
            IoWhy::Unreachable => "io_unreachable",
            IoWhy::Other(text) => return text.clone(),
        };
        self.message(key, &[])
    }

    /// What a key takes, in words: "a whole number from 1 to 8", "one of
    /// \"none\", \"odd\" or \"even\"".
    pub fn expectation(&self, x: &crate::toml_error::Expect) -> String {
        use crate::toml_error::Expect;
        match x {
            Expect::Bool => self.message("expect_bool", &[]),
            Expect::OneOf(words) => {
                let items: Vec<String> = words.iter().map(|w| format!("\"{w}\"")).collect();
                let list = self.join(&items, "list_or");
                self.message("expect_one_of", &[("list", &list)])
            }
            Expect::Number { min, max } => self.message(
                "expect_number",
                &[("min", &min.to_string()), ("max", &max.to_string())],
            ),
            Expect::Whole { min, max } => self.message(
                "expect_whole",
                &[("min", &min.to_string()), ("max", &max.to_string())],
            ),
            Expect::Text => self.message("expect_text", &[]),
            Expect::Table => self.message("expect_table", &[]),
        }
    }

    /// A problem in a data file (the full-screen view's key map and theme,
    /// the line-mode key map, a board file), in the player's words: "tui.toml, line 3, key keys.teleport:
    /// \"teleport\" is not an action of the full-screen view. Using the
    /// defaults."
    pub fn file_problem(&self, e: &crate::toml_error::DataFileError) -> String {
        use crate::toml_error::FileProblem;
        let place = self.place(&e.file, e.line, e.key.as_deref());
        let names = |n: &[String]| n.join(", ");
        let detail = match &e.problem {
            FileProblem::Unreadable(why) => {
                self.message("view_file_unreadable", &[("why", &self.io_why(why))])
            }
            FileProblem::Syntax => self.message("view_file_syntax", &[]),
            FileProblem::UnknownKey => self.message("view_file_unknown_key", &[]),
            FileProblem::MissingKey(name) => {
                self.message("view_file_missing_key", &[("name", name)])
            }
            FileProblem::WrongValue => self.message("view_file_wrong_value", &[]),
            FileProblem::EmptyKey => self.message("keymap_empty_key", &[]),
            FileProblem::NotAKey { text, names: n } => {
                self.message("keymap_not_a_key", &[("text", text), ("names", &names(n))])
            }
            FileProblem::NotAnAction(name) => {
                self.message("keymap_not_an_action", &[("name", name)])
            }
            FileProblem::KeyTaken { key, other } => {
                self.message("keymap_key_taken", &[("chord", key), ("other", other)])
            }
            FileProblem::UnknownTheme { name, names: n } => self.message(
                "colours_unknown_theme",
                &[("name", name), ("names", &names(n))],
            ),
            FileProblem::NotAColour { name, names: n } => self.message(
                "colours_not_a_colour",
                &[("name", name), ("names", &names(n))],
            ),
            FileProblem::NotABackground { name, names: n } => self.message(
                "colours_not_a_background",
                &[("name", name), ("names", &names(n))],
            ),
            FileProblem::SameColours => self.message("colours_same_pair", &[]),
            FileProblem::SameSquares => self.message("colours_same_squares", &[]),
            FileProblem::Wrong { expect, found } => self.message(
                "file_wrong_value",
                &[("expect", &self.expectation(expect)), ("found", found)],
            ),
            FileProblem::NotOneOf { found, names } => {
                let items: Vec<String> = names.iter().map(|w| format!("\"{w}\"")).collect();
                let list = self.join(&items, "list_or");
                self.message("file_not_one_of", &[("found", found), ("list", &list)])
            }
            FileProblem::UnknownCommand(name) => {
                self.message("commands_unknown", &[("name", name)])
            }
            FileProblem::MissingCommand(name) => {
                self.message("commands_missing", &[("name", name)])
            }
            FileProblem::NoWords => self.message("commands_no_words", &[]),
            FileProblem::NotOneWord(word) => {
                self.message("commands_not_one_word", &[("word", word)])
            }
            FileProblem::MoveWord(word) => self.message("commands_move_word", &[("word", word)]),
            FileProblem::WordTaken { word, other } => {
                self.message("commands_word_taken", &[("word", word), ("other", other)])
            }
            FileProblem::SerialOrBluetooth => self.message("board_file_serial_or_bluetooth", &[]),
        };
        self.message("config_error", &[("place", &place), ("detail", &detail)])
    }

    /// The result as said: in words ("one to zero", "half a point each"),
    /// never symbols a voice reads as "one slash two dash ...".
    pub fn result_said(&self, winner: Option<Color>) -> String {
        self.message(
            match winner {
                Some(Color::White) => "result_white",
                Some(Color::Black) => "result_black",
                None => "result_draw",
            },
            &[],
        )
    }

    /// The result as printed on a scoresheet ("1-0", "1/2-1/2").
    pub fn result_printed(&self, winner: Option<Color>) -> String {
        self.message(
            match winner {
                Some(Color::White) => "score_white",
                Some(Color::Black) => "score_black",
                None => "score_draw",
            },
            &[],
        )
    }

    /// A flag fell and the other side cannot checkmate (a draw): whose
    /// flag, said ("White's flag has fallen, but Black cannot checkmate.
    /// Draw, half a point each.").
    pub fn flag_fell_drawn(&self, flagged: Color) -> String {
        self.message(
            "over_time_draw_side",
            &[
                ("loser", &self.side(flagged)),
                ("side", &self.side(!flagged)),
                ("result", &self.result_said(None)),
            ],
        )
    }

    /// [`Phraser::game_over_state`] of a game drawn when `flagged`'s flag
    /// fell: whose flag.
    pub fn flag_fell_drawn_state(&self, flagged: Color) -> String {
        let how = self.message(
            "how_time_draw_side",
            &[
                ("loser", &self.side(flagged)),
                ("side", &self.side(!flagged)),
            ],
        );
        let result = self.result_said(None);
        self.message("game_over_state", &[("how", &how), ("result", &result)])
    }

    /// The end of the game as said: "Checkmate. White wins, one to zero."
    /// `winner` is ignored for a draw; a win without a winner is said as
    /// "The game is over."
    pub fn game_over(&self, reason: EndReason, winner: Option<Color>) -> String {
        self.game_over_with(reason, winner, false)
    }

    /// The end of the game as printed on a scoresheet, the result in
    /// symbols: "Checkmate. White wins, 1-0."
    pub fn game_over_printed(&self, reason: EndReason, winner: Option<Color>) -> String {
        self.game_over_with(reason, winner, true)
    }

    fn game_over_with(&self, reason: EndReason, winner: Option<Color>, printed: bool) -> String {
        let result = |winner: Option<Color>| {
            if printed {
                self.result_printed(winner)
            } else {
                self.result_said(winner)
            }
        };
        let draw_key = match reason {
            EndReason::Stalemate => Some("over_stalemate"),
            EndReason::DeadPosition => Some("over_dead_position"),
            EndReason::FivefoldRepetition => Some("over_fivefold"),
            EndReason::SeventyFiveMoves => Some("over_seventy_five"),
            EndReason::ThreefoldRepetition => Some("over_threefold"),
            EndReason::FiftyMoves => Some("over_fifty"),
            EndReason::Agreement => Some("over_agreement"),
            EndReason::TimeForfeit if winner.is_none() => Some("over_time_draw"),
            EndReason::IllegalMove if winner.is_none() => Some("over_illegal_draw"),
            EndReason::ArbiterDecision if winner.is_none() => Some("over_arbiter_draw"),
            EndReason::Resignation if winner.is_none() => Some("over_resignation_draw"),
            EndReason::Abandoned if winner.is_none() => Some("over_abandoned_draw"),
            EndReason::Checkmate
            | EndReason::Resignation
            | EndReason::TimeForfeit
            | EndReason::IllegalMove
            | EndReason::ArbiterDecision
            | EndReason::Abandoned => None,
        };
        if let Some(key) = draw_key {
            return self.message(key, &[("result", &result(None))]);
        }
        let Some(winner) = winner else {
            return self.message("over_unknown", &[]);
        };
        let key = match reason {
            EndReason::Resignation => "over_resignation",
            EndReason::TimeForfeit => "over_time",
            EndReason::IllegalMove => "over_illegal",
            EndReason::ArbiterDecision => "over_arbiter",
            EndReason::Abandoned => "over_abandoned",
            _ => "over_checkmate",
        };
        self.message(
            key,
            &[
                ("side", &self.side(winner)),
                ("loser", &self.side(!winner)),
                ("result", &result(Some(winner))),
            ],
        )
    }

    /// The mismatch report (D.2.9), one clause per square in the given
    /// order: "Mismatch on two squares: Felix drei should have the white Springer, it is
    /// empty. Gustav eins should be empty."  With nothing left to fix:
    /// "Board matches the game."
    pub fn mismatch(&self, diffs: &[SquareDiff]) -> String {
        let items = self.mismatch_items(diffs);
        if items.is_empty() {
            return self.message("board_matches", &[]);
        }
        let list = items.join(&self.message("sentence_separator", &[]));
        // How many squares to put right, before the first of them.
        let count = self.mismatch_count(diffs).to_string();
        self.message("mismatch", &[("count", &count), ("list", &list)])
    }

    /// The squares of `diffs` that really differ.
    fn mismatch_count(&self, diffs: &[SquareDiff]) -> usize {
        diffs.iter().filter(|d| self.diff(d).is_some()).count()
    }

    /// The sentences of a mismatch, most useful first.  Three or more
    /// pieces of one side missing are one sentence, grouped by kind
    /// ("White: eleven pieces missing: …; Bauern on all files of zwei."), a
    /// whole back rank of them first ("White's back rank is empty.").
    fn mismatch_items(&self, diffs: &[SquareDiff]) -> Vec<String> {
        let missing = |color: Color| -> Vec<&SquareDiff> {
            diffs
                .iter()
                .filter(|d| {
                    d.found == Sensed::Empty && d.expected.is_some_and(|p| p.color == color)
                })
                .collect()
        };
        let grouped = |color: Color| missing(color).len() >= 3;
        let mut items = Vec::new();
        let mut said = [false, false];
        for d in diffs {
            let color = match d.expected {
                Some(p) if d.found == Sensed::Empty && grouped(p.color) => p.color,
                _ => {
                    items.extend(self.diff(d));
                    continue;
                }
            };
            let seen = &mut said[usize::from(color == Color::Black)];
            if std::mem::replace(seen, true) {
                continue;
            }
            items.extend(self.missing_group(color, &missing(color)));
        }
        items
    }

    /// The pieces of one side missing from the board (three or more).
    fn missing_group(&self, color: Color, missing: &[&SquareDiff]) -> Vec<String> {
        let mut board = shakmaty::Board::empty();
        for d in missing {
            if let Some(p) = d.expected {
                board.set_piece_at(d.square, p);
            }
        }
        let side = self.side(color);
        let mut out = Vec::new();
        let back = shakmaty::Bitboard::from_rank(color.fold_wb(Rank::First, Rank::Eighth));
        if (board.occupied() & back) == back {
            out.push(self.message("mismatch_back_rank", &[("side", &side)]));
            for sq in back {
                board.discard_piece_at(sq);
            }
        }
        let rest = board.occupied().count();
        if rest == 0 {
            return out;
        }
        if rest < 3 && !out.is_empty() {
            // A few left beside the back rank: each on its own.
            out.extend(
                missing
                    .iter()
                    .filter(|d| board.piece_at(d.square).is_some())
                    .filter_map(|d| self.diff(d)),
            );
            return out;
        }
        let groups: Vec<String> = [
            Role::King,
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
            Role::Pawn,
        ]
        .iter()
        .filter_map(|r| self.piece_group(&board, color, *r))
        .collect();
        let list = groups.join(&self.message("list_semicolon", &[]));
        out.push(self.message(
            "mismatch_missing_side",
            &[
                ("side", &side),
                ("count", &rest.to_string()),
                ("list", &list),
            ],
        ));
        out
    }

    /// A mismatch that changed since `before` was said: only what changed.
    /// Squares put right and nothing new: with a few squares left, what
    /// remains in full, otherwise which were put right and how many are to
    /// go; new squares: the count, then only the new ones.
    pub fn mismatch_update(&self, before: &[SquareDiff], now: &[SquareDiff]) -> String {
        if before.is_empty() || now.is_empty() {
            return self.mismatch(now);
        }
        let fresh: Vec<SquareDiff> = now
            .iter()
            .filter(|d| !before.contains(d))
            .copied()
            .collect();
        let fixed: Vec<&SquareDiff> = before
            .iter()
            .filter(|d| !now.iter().any(|n| n.square == d.square))
            .collect();
        let count = self.mismatch_count(now).to_string();
        if fresh.is_empty() {
            if now.len() <= 3 || fixed.is_empty() {
                let list = self
                    .mismatch_items(now)
                    .join(&self.message("sentence_separator", &[]));
                return self.message("mismatch_remains", &[("count", &count), ("list", &list)]);
            }
            let names: Vec<String> = fixed.iter().map(|d| self.square(d.square)).collect();
            let list = self.join(&names, "list_and");
            return self.message("mismatch_progress", &[("fixed", &list), ("count", &count)]);
        }
        if fresh.len() == now.len() {
            return self.mismatch(now);
        }
        let list = self
            .mismatch_items(&fresh)
            .join(&self.message("sentence_separator", &[]));
        self.message("mismatch_new", &[("count", &count), ("list", &list)])
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

/// `text` with its first letter a capital.
fn capitalised(text: String) -> String {
    match text.chars().next() {
        Some(c) if c.is_lowercase() => {
            let mut out: String = c.to_uppercase().collect();
            out.push_str(&text[c.len_utf8()..]);
            out
        }
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phrase::test_util::{last, play};
    use crate::phrase::{MoveOptions, MoveStyle};
    use crate::words::vocab::Lang;
    use shakmaty::{CastlingSide, Piece, Square};

    fn en() -> Phraser {
        Phraser::builtin(MoveStyle::AppendixD, Lang::En, MoveOptions::default())
    }

    fn de() -> Phraser {
        Phraser::builtin(MoveStyle::AppendixD, Lang::De, MoveOptions::default())
    }

    fn it() -> Phraser {
        Phraser::builtin(MoveStyle::Language, Lang::It, MoveOptions::default())
    }

    fn el() -> Phraser {
        Phraser::builtin(MoveStyle::AppendixD, Lang::El, MoveOptions::default())
    }

    fn illegal(attempt: Attempt, reason: IllegalReason) -> InputError {
        InputError::Illegal { attempt, reason }
    }

    fn to(role: Option<Role>, sq: Square) -> Attempt {
        Attempt {
            role,
            to: Some(sq),
            ..Attempt::default()
        }
    }

    fn piece(c: char) -> Piece {
        Piece::from_char(c).unwrap()
    }

    #[test]
    fn not_understood() {
        let err = InputError::NotUnderstood {
            input: "xyz".into(),
        };
        let pos = Chess::default();
        assert_eq!(
            en().input_error(&err, &pos),
            "\"xyz\" is not a move or a command. Say \"help\" for commands."
        );
        assert_eq!(
            de().input_error(&err, &pos),
            "\"xyz\" ist weder ein Zug noch ein Befehl. Sag \"hilfe\" für die Befehle."
        );
    }

    #[test]
    fn no_piece_can_reach() {
        let pos = play("1. Nf3 e5");
        let err = illegal(
            to(Some(Role::Knight), Square::F3),
            IllegalReason::NoPieceCanReach,
        );
        assert_eq!(
            en().input_error(&err, &pos),
            "Springer Felix drei is not legal: no Springer can reach Felix drei."
        );
        // Issue 30, item 17: "Eva acht ist mit Bauer nicht erreichbar"
        // lacked its article; the word for "no" agrees with the piece.
        assert_eq!(
            de().input_error(&err, &pos),
            "Springer Felix drei ist nicht erlaubt: kein Springer kann Felix drei erreichen."
        );
        let queen = illegal(
            to(Some(Role::Queen), Square::E8),
            IllegalReason::NoPieceCanReach,
        );
        assert_eq!(
            de().input_error(&queen, &pos),
            "Dame Eva acht ist nicht erlaubt: keine Dame kann Eva acht erreichen."
        );
        assert_eq!(
            it().input_error(&err, &pos),
            "Cavallo f3 non è legale: nessun Cavallo può raggiungere f3."
        );
        assert_eq!(
            it().input_error(&queen, &pos),
            "Donna e8 non è legale: nessuna Donna può raggiungere e8."
        );
        let el = Phraser::builtin(MoveStyle::Language, Lang::El, MoveOptions::default());
        assert!(
            el.input_error(&queen, &pos)
                .ends_with(": καμία Βασίλισσα δεν φτάνει στο ε8."),
            "{}",
            el.input_error(&queen, &pos)
        );
        let nothing = illegal(to(None, Square::E5), IllegalReason::NoPieceCanReach);
        assert_eq!(
            en().input_error(&nothing, &pos),
            "Eva fünf is not legal: nothing can reach Eva fünf."
        );
        let nowhere = illegal(
            Attempt {
                role: Some(Role::Knight),
                ..Attempt::default()
            },
            IllegalReason::NoPieceCanReach,
        );
        assert_eq!(
            en().input_error(&nowhere, &pos),
            "Springer is not legal: there is no such move."
        );
    }

    #[test]
    fn the_attempt_is_said_as_given() {
        let pos = Chess::default();
        let full = Attempt {
            role: Some(Role::Pawn),
            from_file: Some(shakmaty::File::E),
            from_rank: Some(shakmaty::Rank::Seventh),
            to: Some(Square::E8),
            capture: false,
            promotion: Some(Role::Queen),
            castle: None,
        };
        let err = illegal(full, IllegalReason::NoPieceOnSquare);
        assert_eq!(
            en().input_error(&err, &pos),
            "Bauer Eva sieben Eva acht wird Dame is not legal: there is no Bauer on Eva sieben."
        );
        let file_capture = Attempt {
            role: Some(Role::Pawn),
            from_file: Some(shakmaty::File::E),
            capture: true,
            to: Some(Square::D5),
            ..Attempt::default()
        };
        let err = illegal(file_capture, IllegalReason::NoPieceCanReach);
        assert_eq!(
            en().input_error(&err, &pos),
            "Bauer Eva schlägt David fünf is not legal: no Bauer can reach David fünf."
        );
        let no_pawn_word = Phraser::builtin(
            MoveStyle::AppendixD,
            Lang::En,
            MoveOptions {
                pawn_word: false,
                ..MoveOptions::default()
            },
        );
        assert_eq!(
            no_pawn_word.input_error(&err, &pos),
            "Eva schlägt David fünf is not legal: no Bauer can reach David fünf."
        );
        let empty = illegal(Attempt::default(), IllegalReason::GameOver);
        assert_eq!(
            en().input_error(&empty, &pos),
            "This move is not legal: the game is over."
        );
    }

    #[test]
    fn no_piece_on_square() {
        let pos = Chess::default();
        let from_empty = Attempt {
            role: Some(Role::Knight),
            from_file: Some(shakmaty::File::E),
            from_rank: Some(shakmaty::Rank::Fourth),
            to: Some(Square::F6),
            ..Attempt::default()
        };
        let err = illegal(from_empty, IllegalReason::NoPieceOnSquare);
        assert_eq!(
            en().input_error(&err, &pos),
            "Springer Eva vier Felix sechs is not legal: Eva vier is empty."
        );
        assert_eq!(
            de().input_error(&err, &pos),
            "Springer Eva vier Felix sechs ist nicht erlaubt: Eva vier ist leer."
        );
    }

    #[test]
    fn not_your_move() {
        // a black piece named while White is to move
        let pos = Chess::default();
        let black_knight = Attempt {
            role: Some(Role::Knight),
            from_file: Some(shakmaty::File::B),
            from_rank: Some(shakmaty::Rank::Eighth),
            to: Some(Square::C6),
            ..Attempt::default()
        };
        let err = illegal(black_knight, IllegalReason::NotYourMove);
        assert_eq!(
            en().input_error(&err, &pos),
            "Springer Cesar sechs is Black's move, but it is White's turn."
        );
        assert_eq!(
            de().input_error(&err, &pos),
            "Springer Cesar sechs ist ein Zug von Schwarz, aber Weiß ist am Zug."
        );
        assert_eq!(
            it().input_error(&err, &pos),
            "Cavallo c6 è una mossa del Nero, ma muove il Bianco."
        );
        // a piece of the side not to move, on a move it cannot make
        let nowhere = Attempt {
            role: Some(Role::Knight),
            from_file: Some(shakmaty::File::B),
            from_rank: Some(shakmaty::Rank::Eighth),
            to: Some(Square::C4),
            ..Attempt::default()
        };
        let err = illegal(nowhere, IllegalReason::NotYourMove);
        assert_eq!(
            en().input_error(&err, &pos),
            "Springer Bella acht Cesar vier is not legal: that is the black Springer, it is White's move."
        );
        // a move typed when it is the other side's turn
        let pos = play("1. e4");
        let err = illegal(
            to(Some(Role::Knight), Square::F3),
            IllegalReason::NotYourMove,
        );
        assert_eq!(
            en().input_error(&err, &pos),
            "Springer Felix drei is White's move, but it is Black's turn."
        );
    }

    /// Issue 30, item 17: "b8" with two pawns that can only capture there
    /// listed Springer first for each; the choices come Dame, Turm, Läufer,
    /// Springer, each pawn's together.
    #[test]
    fn promotion_choices_come_queen_first() {
        let pos: Chess = "1r5k/P1P5/8/8/8/8/8/K7 w - - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        let candidates: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.to() == Square::B8)
            .collect();
        // Whatever order they come in.
        let mut candidates = candidates;
        candidates.reverse();
        let err = InputError::NotAPawnMove {
            attempt: to(None, Square::B8),
            candidates,
        };
        let said = en().input_error(&err, &pos);
        let order: Vec<&str> = said
            .split(" wird ")
            .skip(1)
            .map(|w| w.split([',', ' ', '?']).next().unwrap_or(""))
            .collect();
        assert_eq!(
            order,
            [
                "Dame", "Turm", "Läufer", "Springer", "Dame", "Turm", "Läufer", "Springer"
            ],
            "{said}"
        );
        assert!(
            said.starts_with("No pawn can go straight to Bella acht. Did you mean Bauer Anna schlägt Bella acht wird Dame, "),
            "{said}"
        );
    }

    #[test]
    fn every_other_reason() {
        let pos = Chess::default();
        let cases = [
            (IllegalReason::Pinned, "the piece is pinned to its king"),
            (
                IllegalReason::KingInCheck,
                "the king is in check and this move does not answer it",
            ),
            (
                IllegalReason::KingWouldBeInCheck,
                "the king would be in check",
            ),
            (IllegalReason::NotAPromotion, "this move is not a promotion"),
            (IllegalReason::GameOver, "the game is over"),
        ];
        for (reason, said) in cases {
            let err = illegal(to(Some(Role::Knight), Square::F3), reason);
            assert_eq!(
                en().input_error(&err, &pos),
                format!("Springer Felix drei is not legal: {said}.")
            );
        }
        let castle = Attempt {
            castle: Some(CastlingSide::KingSide),
            ..Attempt::default()
        };
        // Issue 30, item 17: castling refused said no reason; the
        // reason is what the player can check on the board.
        let err = illegal(castle, IllegalReason::CastlingNotAllowed);
        assert_eq!(
            en().input_error(&err, &pos),
            "Kurze Rochade is not legal: Läufer Felix eins and Springer Gustav eins are in the way."
        );
        assert_eq!(
            de().input_error(&err, &pos),
            "Kurze Rochade ist nicht erlaubt: Läufer Felix eins und Springer Gustav eins stehen im Weg."
        );
        let one = play("1. Nf3 a6 2. g3 a5");
        assert_eq!(
            en().input_error(&err, &one),
            "Kurze Rochade is not legal: Läufer Felix eins is in the way."
        );
        let moved = play("1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. Rg1 a6 5. Rh1 a5");
        assert_eq!(
            en().input_error(&err, &moved),
            "Kurze Rochade is not legal: the king or that rook has already moved."
        );
        let by_king = Attempt {
            role: Some(Role::King),
            to: Some(Square::G1),
            ..Attempt::default()
        };
        let g1_attacked = play("1. f4 e5 2. fxe5 Bc5 3. Nf3 d6 4. g3 dxe5 5. Bg2 a6");
        let err = illegal(by_king, IllegalReason::CastlingNotAllowed);
        assert_eq!(
            en().input_error(&err, &g1_attacked),
            "König Gustav eins is not legal: Gustav eins, on the king's way, is attacked."
        );
        assert_eq!(
            it().input_error(&err, &g1_attacked),
            "Re g1 non è legale: la casa g1, sul percorso del Re, è attaccata."
        );
        let check = play("1. d4 e5 2. Nf3 Bb4+");
        assert_eq!(
            de().input_error(&illegal(castle, IllegalReason::CastlingNotAllowed), &check),
            "Kurze Rochade ist nicht erlaubt: der König steht im Schach."
        );
        let pos = play("1. e4 e5 2. d4 exd4 3. e5 f5 4. e6 Nf6 5. e7 Kf7");
        let err = illegal(
            to(Some(Role::Pawn), Square::E8),
            IllegalReason::PromotionPieceMissing,
        );
        assert_eq!(
            en().input_error(&err, &pos),
            "Bauer Eva acht is not legal: say which piece the pawn becomes."
        );
        assert_eq!(
            de().input_error(&err, &pos),
            "Bauer Eva acht ist nicht erlaubt: sag, in welche Figur sich der Bauer umwandelt."
        );
    }

    #[test]
    fn ambiguous_two_knights() {
        let pos = play("1. d4 d5 2. Nf3 Nf6");
        let candidates: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.role() == Role::Knight && m.to() == Square::D2)
            .collect();
        assert_eq!(candidates.len(), 2);
        let err = InputError::Ambiguous {
            attempt: to(Some(Role::Knight), Square::D2),
            candidates,
        };
        assert_eq!(
            en().input_error(&err, &pos),
            "Two Springer can go to David zwei: from Bella eins or from Felix drei. \
             Say Springer Bella David zwei or Springer Felix David zwei."
        );
        assert_eq!(
            de().input_error(&err, &pos),
            "Zwei Springer können nach David zwei: von Bella eins oder von Felix drei. \
             Sag Springer Bella David zwei oder Springer Felix David zwei."
        );
        assert_eq!(
            it().input_error(&err, &pos),
            "Due Cavalli possono andare in d2: da b1 o da f3. Di' Cavallo bd2 o Cavallo fd2."
        );
    }

    #[test]
    fn ambiguous_plural_and_three() {
        // three Rooks can go to d4; the Appendix D plural is "Türme"
        let pos = crate::phrase::test_util::fen("4k3/8/8/3R4/R6R/8/8/4K3 w - - 0 1");
        let candidates: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.role() == Role::Rook && m.to() == Square::D4)
            .collect();
        assert_eq!(candidates.len(), 3);
        let err = InputError::Ambiguous {
            attempt: to(Some(Role::Rook), Square::D4),
            candidates,
        };
        assert_eq!(
            de().input_error(&err, &pos),
            "Drei Türme können nach David vier: von Anna vier, von Hector vier oder von David fünf. \
             Sag Turm Anna David vier, Turm Hector David vier oder Turm David David vier."
        );
        assert_eq!(
            en().input_error(&err, &pos),
            "Three Türme can go to David vier: from Anna vier, from Hector vier or from David fünf. \
             Say Turm Anna David vier, Turm Hector David vier or Turm David David vier."
        );
    }

    #[test]
    fn ambiguous_different_pieces() {
        let pos = Chess::default();
        let candidates: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.to() == Square::F3)
            .collect();
        assert_eq!(candidates.len(), 2);
        let first = en().piece(candidates[0].role());
        let second = en().piece(candidates[1].role());
        let from = |m: &Move| en().square(m.from().unwrap());
        let err = InputError::Ambiguous {
            attempt: to(None, Square::F3),
            candidates: candidates.clone(),
        };
        assert_eq!(
            en().input_error(&err, &pos),
            format!(
                "Two pieces can go to Felix drei: {first} from {} or {second} from {}. \
                 Say {first} Felix drei or {second} Felix drei.",
                from(&candidates[0]),
                from(&candidates[1])
            )
        );
    }

    #[test]
    fn the_count_of_different_pieces_agrees_with_the_noun() {
        // After 1. d4 d5 four pieces can go to d2: Springer, Läufer, Dame, König.
        let pos = play("1. d4 d5");
        let candidates: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.to() == Square::D2)
            .collect();
        assert_eq!(candidates.len(), 4);
        let err = InputError::Ambiguous {
            attempt: to(None, Square::D2),
            candidates,
        };
        let said = |p: Phraser| p.input_error(&err, &pos);
        let el = Phraser::builtin(MoveStyle::Language, Lang::El, MoveOptions::default());
        // "κομμάτια" is neuter: "Τέσσερα", not "Τέσσερις".
        assert!(said(el).starts_with("Τέσσερα κομμάτια μπορούν"));
        assert!(said(en()).starts_with("Four pieces can go to David zwei: "));
        assert!(said(de()).starts_with("Vier Figuren können nach David zwei: "));
        assert!(said(it()).starts_with("Quattro pezzi possono andare in d2: "));
    }

    #[test]
    fn ambiguous_promotions_list_the_moves() {
        let (pos, _) = last("1. e4 e5 2. d4 exd4 3. e5 f5 4. e6 Nf6 5. e7 Kf7 6. e8=Q+");
        let candidates: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| {
                m.to() == Square::E8 && matches!(m.promotion(), Some(Role::Queen | Role::Rook))
            })
            .collect();
        assert_eq!(candidates.len(), 2);
        let err = InputError::Ambiguous {
            attempt: to(Some(Role::Pawn), Square::E8),
            candidates,
        };
        let said = en().input_error(&err, &pos);
        assert!(
            said == "That can mean Bauer Eva acht wird Dame or Bauer Eva acht wird Turm. Say which."
                || said
                    == "That can mean Bauer Eva acht wird Turm or Bauer Eva acht wird Dame. Say which.",
            "{said}"
        );
    }

    #[test]
    fn ambiguous_reading() {
        let pos = play("1. e4 e5 2. h4 h5 3. Rh3 a6 4. Re3 a5");
        let rook = shakmaty::san::San::from_ascii(b"Re2")
            .unwrap()
            .to_move(&pos)
            .unwrap();
        let king = shakmaty::san::San::from_ascii(b"Ke2")
            .unwrap()
            .to_move(&pos)
            .unwrap();
        let err = InputError::AmbiguousReading {
            input: "Re2".into(),
            candidates: vec![rook, king],
        };
        assert_eq!(
            en().input_error(&err, &pos),
            "\"Re2\" can mean Turm Eva zwei or König Eva zwei. Say which."
        );
        assert_eq!(
            de().input_error(&err, &pos),
            "\"Re2\" kann Turm Eva zwei oder König Eva zwei heißen. Sag, welcher Zug."
        );
    }

    #[test]
    fn game_over_for_every_reason() {
        let cases = [
            (
                EndReason::Checkmate,
                Some(Color::White),
                "Checkmate. White wins, one to zero.",
            ),
            (
                EndReason::Checkmate,
                Some(Color::Black),
                "Checkmate. Black wins, zero to one.",
            ),
            (
                EndReason::Resignation,
                Some(Color::White),
                "Black resigns. White wins, one to zero.",
            ),
            (
                EndReason::Stalemate,
                None,
                "Stalemate. Draw, half a point each.",
            ),
            (
                EndReason::DeadPosition,
                None,
                "Dead position: neither side can checkmate. Draw, half a point each.",
            ),
            (
                EndReason::FivefoldRepetition,
                None,
                "Draw by fivefold repetition, half a point each.",
            ),
            (
                EndReason::SeventyFiveMoves,
                None,
                "Draw by the 75-move rule, half a point each.",
            ),
            (
                EndReason::ThreefoldRepetition,
                None,
                "Draw by threefold repetition, half a point each.",
            ),
            (
                EndReason::FiftyMoves,
                None,
                "Draw by the 50-move rule, half a point each.",
            ),
            (
                EndReason::Agreement,
                None,
                "Draw by agreement, half a point each.",
            ),
            (
                EndReason::TimeForfeit,
                Some(Color::Black),
                "White's flag has fallen. Black wins, zero to one.",
            ),
            (
                EndReason::TimeForfeit,
                None,
                "A flag has fallen, but the other side cannot checkmate. Draw, half a point each.",
            ),
            (
                EndReason::IllegalMove,
                Some(Color::White),
                "Black loses for an illegal move. White wins, one to zero.",
            ),
            // inconsistent calls still give a sentence
            (EndReason::Checkmate, None, "The game is over."),
            (
                EndReason::Agreement,
                Some(Color::White),
                "Draw by agreement, half a point each.",
            ),
        ];
        for (reason, winner, said) in cases {
            assert_eq!(en().game_over(reason, winner), said, "{reason:?}");
        }
        assert_eq!(
            de().game_over(EndReason::Resignation, Some(Color::Black)),
            "Weiß gibt auf. Schwarz gewinnt, null zu eins."
        );
        assert_eq!(
            de().game_over(EndReason::ThreefoldRepetition, None),
            "Remis durch dreifache Stellungswiederholung, je ein halber Punkt."
        );
        assert_eq!(
            it().game_over(EndReason::Checkmate, Some(Color::White)),
            "Scacco matto. Vince il Bianco, uno a zero."
        );
    }

    /// Issue 30, item 6: a flag that fell against a side that cannot
    /// mate is said with whose flag it was, in every language.
    #[test]
    fn a_drawn_flag_says_whose_flag() {
        assert_eq!(
            en().flag_fell_drawn(Color::Black),
            "Black's flag has fallen, but White cannot checkmate. Draw, half a point each."
        );
        assert_eq!(
            de().flag_fell_drawn(Color::White),
            "Weiß: Zeit überschritten, aber Schwarz kann nicht mehr mattsetzen. Remis, je ein halber Punkt."
        );
        assert_eq!(
            it().flag_fell_drawn(Color::White),
            "Al Bianco è caduta la bandierina, ma il Nero non può dare scacco matto. Patta, mezzo punto a testa."
        );
        assert_eq!(
            el().flag_fell_drawn(Color::Black),
            "Έπεσε η σημαία των Μαύρων, αλλά τα Λευκά δεν μπορούν να κάνουν ματ. Ισοπαλία, μισός βαθμός για τον καθένα."
        );
        assert_eq!(
            en().flag_fell_drawn_state(Color::White),
            "Game over: drawn, White's flag fell but Black could not checkmate, half a point each. Say new for a new game."
        );
    }

    /// Issue 30, item 8: results are said in words in every language (a
    /// voice reads "1/2-1/2" as "one slash two dash one slash two"); the
    /// printed scoresheet keeps the symbols.
    #[test]
    fn results_are_said_in_words_and_printed_in_symbols() {
        let draw = EndReason::ThreefoldRepetition;
        for (p, said_draw) in [
            (en(), "Draw by threefold repetition, half a point each."),
            (
                de(),
                "Remis durch dreifache Stellungswiederholung, je ein halber Punkt.",
            ),
            (it(), "Patta per triplice ripetizione, mezzo punto a testa."),
            (
                el(),
                "Ισοπαλία με τριπλή επανάληψη, μισός βαθμός για τον καθένα.",
            ),
        ] {
            assert_eq!(p.game_over(draw, None), said_draw);
            for winner in [None, Some(Color::White), Some(Color::Black)] {
                let said = p.game_over(EndReason::Checkmate, winner);
                let said_state = p.game_over_state(EndReason::Agreement, winner);
                for s in [said, said_state] {
                    assert!(
                        !s.contains(['/', '½']) && !s.contains("1-0") && !s.contains("0-1"),
                        "{s}"
                    );
                }
            }
            assert!(p.game_over_printed(draw, None).ends_with(", 1/2-1/2."));
            assert!(
                p.game_over_printed(EndReason::Checkmate, Some(Color::Black))
                    .ends_with(", 0-1.")
            );
        }
        assert_eq!(
            it().game_over(EndReason::Resignation, Some(Color::Black)),
            "Il Bianco abbandona. Vince il Nero, zero a uno."
        );
    }

    #[test]
    fn mismatch_report() {
        let diffs = [
            SquareDiff {
                square: Square::F3,
                expected: Some(piece('N')),
                found: Sensed::Empty,
            },
            SquareDiff {
                square: Square::G1,
                expected: None,
                found: Sensed::Occupied,
            },
        ];
        assert_eq!(
            en().mismatch(&diffs),
            "Mismatch on two squares: Felix drei should have the white Springer, it is empty. Gustav eins should be empty."
        );
        assert_eq!(
            de().mismatch(&diffs),
            "Abweichung, zwei Felder: Auf Felix drei gehört der weiße Springer, das Feld ist leer. Gustav eins muss leer sein."
        );
    }

    /// The board as the sensors show `fen` (a board position).
    fn sensed_of(fen: &str) -> crate::board::sensed::SensedBoard {
        let board: shakmaty::Board = fen.parse().unwrap();
        crate::board::sensed::SensedBoard::from_board(&board)
    }

    /// Issue 18: a mismatch of many squares is grouped, the count first
    /// ("White's back rank is empty", "eight pieces missing: Bauern on all
    /// files of zwei"); while it is put right only what changed is said,
    /// and with a few squares left, what remains.
    #[test]
    fn a_big_mismatch_is_grouped_and_then_only_its_changes_are_said() {
        let start = shakmaty::Board::new();
        let kings = sensed_of("4k3/8/8/8/8/8/8/4K3");
        let all = crate::board::mismatch::diff(&start, &kings);
        assert_eq!(
            en().mismatch(&all),
            "Mismatch on thirty squares: White: fifteen pieces missing: Dame David eins; \
             Türme Anna eins and Hector eins; Läufer Cesar eins and Felix eins; \
             Springer Bella eins and Gustav eins; Bauern on all files of zwei. \
             Black: fifteen pieces missing: Dame David acht; Türme Anna acht and Hector acht; \
             Läufer Cesar acht and Felix acht; Springer Bella acht and Gustav acht; \
             Bauern on all files of sieben."
        );
        let empty = sensed_of("8/8/8/8/8/8/8/8");
        let none = crate::board::mismatch::diff(&start, &empty);
        let said = en().mismatch(&none);
        assert!(
            said.starts_with(
                "Mismatch on thirty-two squares: White's back rank is empty. \
                 White: eight pieces missing: Bauern on all files of zwei. \
                 Black's back rank is empty."
            ),
            "{said}"
        );
        // A piece set: only that.
        assert_eq!(
            en().mismatch_update(&none, &all),
            "Put right: Eva eins and Eva acht. Thirty squares to go."
        );
        // All but two set, then one wrong piece too.
        let nearly = sensed_of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPP2/RNBQKBNR");
        let two = crate::board::mismatch::diff(&start, &nearly);
        assert_eq!(
            en().mismatch_update(&all, &two),
            "Still to put right, two squares: Gustav zwei should have the white Bauer, it is empty. \
             Hector zwei should have the white Bauer, it is empty."
        );
        let worse = sensed_of("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPP2/RNBQKBNR");
        let three = crate::board::mismatch::diff(&start, &worse);
        assert_eq!(
            en().mismatch_update(&two, &three),
            "Mismatch on three squares, new: Felix drei should be empty, it has the white Springer."
        );
    }

    #[test]
    fn mismatch_with_identified_pieces() {
        let diffs = [
            SquareDiff {
                square: Square::D1,
                expected: Some(piece('Q')),
                found: Sensed::Piece(piece('q')),
            },
            SquareDiff {
                square: Square::E4,
                expected: None,
                found: Sensed::Piece(piece('P')),
            },
            SquareDiff {
                square: Square::E2,
                expected: Some(piece('P')),
                found: Sensed::Occupied,
            },
        ];
        assert_eq!(
            en().mismatch(&diffs),
            "Mismatch on three squares: David eins should have the white Dame, it has the black Dame. \
             Eva vier should be empty, it has the white Bauer. \
             Eva zwei should have the white Bauer, something is there."
        );
        assert_eq!(
            de().mismatch(&diffs[..1]),
            "Abweichung, ein Feld: Auf David eins gehört die weiße Dame, dort steht die schwarze Dame."
        );
        let it = Phraser::builtin(MoveStyle::Language, Lang::It, MoveOptions::default());
        assert!(
            it.mismatch(&diffs[..1])
                .starts_with("Differenza su una casa: "),
            "{}",
            it.mismatch(&diffs[..1])
        );
        assert!(it.mismatch(&diffs).starts_with("Differenza su tre case: "));
        let el = Phraser::builtin(MoveStyle::Language, Lang::El, MoveOptions::default());
        assert!(
            el.mismatch(&diffs[..1])
                .starts_with("Διαφορά σε ένα τετράγωνο: ")
        );
        assert!(
            el.mismatch(&diffs)
                .starts_with("Διαφορά σε τρία τετράγωνα: ")
        );
    }

    #[test]
    fn matching_board() {
        assert_eq!(en().mismatch(&[]), "Board matches the game.");
        // squares that agree are not reported
        let agree = [
            SquareDiff {
                square: Square::E1,
                expected: Some(piece('K')),
                found: Sensed::Piece(piece('K')),
            },
            SquareDiff {
                square: Square::E4,
                expected: None,
                found: Sensed::Empty,
            },
        ];
        assert_eq!(en().mismatch(&agree), "Board matches the game.");
        assert_eq!(
            de().mismatch(&agree),
            "Das Brett stimmt mit der Partie überein."
        );
    }
}
