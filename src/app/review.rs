//! Reviewing a PGN file (`hector review FILE.pgn`): the games listed,
//! chosen by number or found by name, and stepped through: next, previous,
//! goto a move, start, end.  Each step is announced with the clock time
//! when the file has one; every exploration command works on the position
//! reached.  A malformed game is reported with its number and line; the
//! others stay usable.

use shakmaty::{Color, Position};

use super::App;
use crate::action::PlayerAction;
use crate::game::Game;
use crate::msg::Effect;
use crate::phrase::Phraser;
use crate::scoresheet::review::{PgnFile, PgnProblem, Ply, Review};
use crate::scoresheet::start::{FenField, PositionProblem, StartError};
use crate::speech::{Priority, SayKind};

/// Up to this many games, opening a file lists them.
const LIST_AT_START: usize = 20;

/// The file under review and the game chosen.
#[derive(Debug, Clone)]
pub(super) struct ReviewState {
    file: PgnFile,
    current: Option<(usize, Review)>,
}

/// A PGN file's problem in the player's words.
pub fn pgn_problem_sentence(phraser: &Phraser, p: &PgnProblem) -> String {
    match p {
        PgnProblem::NoSuchFile => {
            let why = phraser.message("file_not_found", &[]);
            phraser.message("pgn_unreadable", &[("why", &why)])
        }
        PgnProblem::NotAllowed => {
            let why = phraser.message("file_not_allowed", &[]);
            phraser.message("pgn_unreadable", &[("why", &why)])
        }
        PgnProblem::IsAFolder => {
            let why = phraser.message("file_is_folder", &[]);
            phraser.message("pgn_unreadable", &[("why", &why)])
        }
        PgnProblem::Io(why) => phraser.message("pgn_unreadable", &[("why", why)]),
        PgnProblem::NoGames => phraser.message("pgn_no_games", &[]),
        PgnProblem::NoSuchGame { number, count } => phraser.message(
            "pgn_no_such_game",
            &[
                ("number", &number.to_string()),
                ("count", &count.to_string()),
            ],
        ),
        PgnProblem::IllegalMove {
            game,
            line,
            number,
            by,
            san,
        } => phraser.message(
            "pgn_illegal_move",
            &[
                ("game", &game.to_string()),
                ("line", &line.to_string()),
                (
                    "move",
                    &format!(
                        "{number}{} {san}",
                        if *by == Color::White { "." } else { "..." }
                    ),
                ),
            ],
        ),
        PgnProblem::UnterminatedComment { game, line } => phraser.message(
            "pgn_unterminated_comment",
            &[("game", &game.to_string()), ("line", &line.to_string())],
        ),
        PgnProblem::BadFen { game, line, fen } => phraser.message(
            "pgn_bad_fen",
            &[
                ("game", &game.to_string()),
                ("line", &line.to_string()),
                ("fen", fen),
            ],
        ),
    }
}

/// A `--fen` or `--pgn` problem in the player's words.
pub fn start_error_sentence(phraser: &Phraser, e: &StartError) -> String {
    match e {
        StartError::FenSyntax {
            field: FenField::Board,
            text,
            rank: Some(rank),
        } => phraser.message(
            "fen_bad_rank",
            &[("rank", &rank.to_string()), ("text", text)],
        ),
        StartError::FenSyntax { field, text, .. } => phraser.message(
            "fen_bad_field",
            &[("field", &field.number().to_string()), ("text", text)],
        ),
        StartError::FenPosition { problems } => phraser.message(
            "fen_illegal",
            &[(
                "why",
                &problems
                    .iter()
                    .map(|p| phraser.message(position_problem_key(*p), &[]))
                    .collect::<Vec<_>>()
                    .join("; "),
            )],
        ),
        StartError::Pgn(p) => pgn_problem_sentence(phraser, p),
    }
}

/// The message key of why a FEN's position is not legal: hector's own
/// words in the player's language, never the chess library's.
pub fn position_problem_key(p: PositionProblem) -> &'static str {
    match p {
        PositionProblem::EmptyBoard => "fen_problem_empty_board",
        PositionProblem::MissingKing => "fen_problem_missing_king",
        PositionProblem::TooManyKings => "fen_problem_too_many_kings",
        PositionProblem::PawnsOnBackRank => "fen_problem_pawns_on_back_rank",
        PositionProblem::CastlingRights => "fen_problem_castling_rights",
        PositionProblem::EnPassantSquare => "fen_problem_en_passant",
        PositionProblem::OppositeCheck => "fen_problem_opposite_check",
        PositionProblem::ImpossibleCheck => "fen_problem_impossible_check",
        PositionProblem::TooMuchMaterial => "fen_problem_too_much_material",
        PositionProblem::Other => "fen_problem_other",
    }
}

impl App {
    /// "\"x\" is not a number." and the command's help.
    fn not_a_number(&self, word: &str, action: PlayerAction) -> String {
        let help = self.help_line(action);
        let input = crate::words::quote(word);
        self.message("arg_not_a_number", &[("input", &input), ("help", &help)])
    }

    /// A PGN result in words, never as digits for a voice: "White won",
    /// "drawn", "unfinished" for "*" and none.
    fn result_words(&self, result: &str) -> String {
        match result.trim() {
            "" | "*" | "?" => self.message("game_unfinished", &[]),
            "1-0" => self.message("review_result_white", &[]),
            "0-1" => self.message("review_result_black", &[]),
            "1/2-1/2" | "½-½" => self.message("review_result_draw", &[]),
            r => r.to_owned(),
        }
    }

    /// Review this file instead of playing.
    pub(super) fn start_review(&mut self, file: PgnFile) {
        self.parts.review = Some(ReviewState {
            file,
            current: None,
        });
    }

    /// Whether a file is being reviewed.
    pub fn reviewing(&self) -> bool {
        self.parts.review.is_some()
    }

    /// The first sentences of a review: the games, or the only one opened.
    pub(super) fn review_start(&mut self, out: &mut Vec<Effect>) {
        let Some(state) = &self.parts.review else {
            return;
        };
        let count = state.file.games.len();
        if count == 1 {
            self.open_game(1, out);
            return;
        }
        let t = self.message("review_file", &[("count", &count.to_string())]);
        self.say(out, t, Priority::Normal, SayKind::Info);
        // A long file is not read out game by game: its count, and how to
        // choose or find one (`games` lists them all on request).
        if count <= LIST_AT_START {
            self.list_games(None, out);
        }
        let t = self.message("review_choose", &[]);
        self.info(out, t);
    }

    fn list_games(&mut self, only: Option<&[usize]>, out: &mut Vec<Effect>) {
        let Some(state) = &self.parts.review else {
            return;
        };
        let lines: Vec<String> = state
            .file
            .games
            .iter()
            .filter(|g| only.is_none_or(|o| o.contains(&g.number)))
            .map(|g| {
                // A date the PGN does not know ("????.??.??") is not said.
                let dated = !g.date.trim().is_empty() && !g.date.starts_with('?');
                self.message(
                    if dated {
                        "review_game_line"
                    } else {
                        "review_game_line_undated"
                    },
                    &[
                        ("number", &g.number.to_string()),
                        ("white", &self.talk.phraser.player(&g.white, Color::White)),
                        ("black", &self.talk.phraser.player(&g.black, Color::Black)),
                        ("result", &self.result_words(&g.result)),
                        ("date", &g.date),
                    ],
                )
            })
            .collect();
        for t in lines {
            self.info(out, t);
        }
    }

    fn open_game(&mut self, number: usize, out: &mut Vec<Effect>) {
        let Some(state) = &mut self.parts.review else {
            return;
        };
        match state.file.game(number) {
            Ok(g) => {
                let e = g.entry.clone();
                // Moves as on a scoresheet: a game that starts with Black's
                // move counts that move number too.
                let black_first = usize::from(shakmaty::Position::turn(&g.start) == Color::Black);
                let moves = (g.plies.len() + black_first).div_ceil(2);
                self.game = Game::from_position(g.start.clone());
                state.current = Some((number, Review::new(g)));
                let t = self.message(
                    "review_opened",
                    &[
                        ("number", &number.to_string()),
                        ("white", &self.talk.phraser.player(&e.white, Color::White)),
                        ("black", &self.talk.phraser.player(&e.black, Color::Black)),
                        ("result", &self.result_words(&e.result)),
                        ("moves", &moves.to_string()),
                    ],
                );
                self.say(out, t, Priority::Normal, SayKind::Game);
            }
            Err(p) => {
                let t = pgn_problem_sentence(&self.talk.phraser, &p);
                self.say(out, t, Priority::Normal, SayKind::Error);
            }
        }
    }

    /// The sentence of a step: the move with its number, the draw offer,
    /// the clock.
    fn step_sentence(&self, p: &Ply) -> String {
        let words = self.talk.phraser.say_move(&p.before, p.mv);
        let key = match p.by {
            Color::White => "move_number_white",
            Color::Black => "move_number_black",
        };
        let mut t = self.message(key, &[("number", &p.number.to_string()), ("move", &words)]);
        if p.offer {
            t = self.message("review_with_offer", &[("move", &t)]);
        }
        if let Some(ms) = p.clock_ms {
            t = self.message(
                "review_with_clock",
                // In words, as the clock said it ("four minutes fifty-eight
                // seconds"), never "0:04:58" for a voice; whole seconds as
                // in the PGN.
                &[
                    ("move", &t),
                    ("clock", &review_clock(&self.talk.phraser, ms)),
                ],
            );
        }
        if !p.comment.is_empty() || !p.nags.is_empty() {
            t = self.message("review_has_comment", &[("move", t.trim_end_matches('.'))]);
        }
        if !p.variations.is_empty() {
            t = self.message(
                "review_has_variations",
                &[("move", t.trim_end_matches('.'))],
            );
        }
        t
    }

    /// `variations`: the variations given instead of the move reached, each
    /// with its moves numbered as on a scoresheet.
    fn variation_sentences(&self, p: &Ply) -> Vec<String> {
        let m = self.ply_words(p);
        if p.variations.is_empty() {
            return vec![self.message("review_no_variations", &[("move", &m)])];
        }
        p.variations
            .iter()
            .enumerate()
            .map(|(k, v)| {
                let moves: Vec<String> = v
                    .iter()
                    .map(|(before, mv)| {
                        let key = match before.turn() {
                            Color::White => "move_number_white",
                            Color::Black => "move_number_black",
                        };
                        let words = self.talk.phraser.say_move(before, *mv);
                        let number = before.fullmoves().get().to_string();
                        self.message(key, &[("number", &number), ("move", &words)])
                    })
                    .collect();
                let moves = moves.join(", ");
                if k == 0 {
                    self.message("review_variations", &[("move", &m), ("moves", &moves)])
                } else {
                    self.message("review_variation_or", &[("moves", &moves)])
                }
            })
            .collect()
    }

    /// The move's number and words, without the clock or the offer.
    fn ply_words(&self, p: &Ply) -> String {
        let words = self.talk.phraser.say_move(&p.before, p.mv);
        let key = match p.by {
            Color::White => "move_number_white",
            Color::Black => "move_number_black",
        };
        self.message(key, &[("number", &p.number.to_string()), ("move", &words)])
    }

    /// `comment`: the annotation glyphs in words and the comment of the
    /// move reached.
    fn comment_sentence(&self, p: &Ply) -> String {
        let mut parts: Vec<String> = p
            .nags
            .iter()
            .map(|n| match n {
                1..=6 => self.message(&format!("nag_{n}"), &[]),
                n => self.message("nag_other", &[("number", &n.to_string())]),
            })
            .collect();
        if !p.comment.is_empty() {
            parts.push(p.comment.clone());
        }
        let m = self.ply_words(p);
        if parts.is_empty() {
            return self.message("review_no_comment", &[("move", &m)]);
        }
        self.message(
            "review_comment",
            &[("move", &m), ("comment", &parts.join("; "))],
        )
    }

    /// The game on the board follows the review's cursor.
    fn sync_review_game(&mut self) {
        let Some(ReviewState {
            current: Some((_, r)),
            ..
        }) = &self.parts.review
        else {
            return;
        };
        let mut g = Game::from_position(r.game.start.clone());
        for p in &r.game.plies[..r.at()] {
            if g.play(p.mv).is_err() {
                break;
            }
        }
        self.game = g;
    }

    /// A review action; `false` when the action is not one of review.
    pub(super) fn on_review_action(
        &mut self,
        action: PlayerAction,
        arg: Option<&str>,
        out: &mut Vec<Effect>,
    ) -> bool {
        if !action.of_review() {
            return false;
        }
        let Some(state) = &mut self.parts.review else {
            let t = self.help_line(action);
            let t = self.message("review_only", &[("help", &t)]);
            self.say(out, t, Priority::Normal, SayKind::Error);
            return true;
        };
        match action {
            PlayerAction::Games => {
                self.list_games(None, out);
                return true;
            }
            PlayerAction::Game => {
                match arg.map(|a| (a, a.parse::<usize>().ok())) {
                    Some((_, Some(n))) => self.open_game(n, out),
                    Some((word, None)) => {
                        let t = self.not_a_number(word, action);
                        self.say(out, t, Priority::Normal, SayKind::Error);
                    }
                    None => {
                        let t = self.help_line(action);
                        self.say(out, t, Priority::Normal, SayKind::Error);
                    }
                }
                return true;
            }
            PlayerAction::Find => {
                let text = arg.unwrap_or("").trim();
                if text.is_empty() {
                    let t = self.help_line(action);
                    self.say(out, t, Priority::Normal, SayKind::Error);
                    return true;
                }
                let found = state.file.search(text);
                if found.is_empty() {
                    let t = self.message("review_found_none", &[("text", text)]);
                    self.say(out, t, Priority::Normal, SayKind::Error);
                } else {
                    self.list_games(Some(&found), out);
                }
                return true;
            }
            _ => {}
        }
        let Some((_, r)) = &mut state.current else {
            let t = self.message("review_no_game", &[]);
            self.say(out, t, Priority::Normal, SayKind::Error);
            return true;
        };
        let said = match action {
            PlayerAction::Next => match r.forward().cloned() {
                Some(p) => Ok(self.step_sentence(&p)),
                None => Err(self.message("review_no_more", &[])),
            },
            PlayerAction::Previous => match r.back().cloned() {
                Some(p) => {
                    let m = self.step_sentence(&p);
                    Ok(self.message("review_back", &[("move", &m)]))
                }
                None => Err(self.message("review_at_start_already", &[])),
            },
            PlayerAction::First => {
                r.start();
                let turn = self.talk.phraser.turn(&r.position());
                Ok(self.message("review_at_start", &[("turn", &turn)]))
            }
            PlayerAction::End => {
                let result = r
                    .game
                    .outcome
                    .map(|o| o.to_string())
                    .unwrap_or_else(|| "*".into());
                let last = r.end().cloned();
                let result = self.result_words(&result);
                let m = last.map(|p| self.step_sentence(&p)).unwrap_or_default();
                Ok(self.message("review_at_end", &[("move", &m), ("result", &result)]))
            }
            PlayerAction::Variations => {
                match r.at().checked_sub(1).and_then(|i| r.game.plies.get(i)) {
                    Some(p) => {
                        let p = p.clone();
                        for t in self.variation_sentences(&p) {
                            self.info(out, t);
                        }
                        return true;
                    }
                    None => Err(self.message("review_comment_before", &[])),
                }
            }
            PlayerAction::Comment => {
                match r.at().checked_sub(1).and_then(|i| r.game.plies.get(i)) {
                    Some(p) => {
                        let p = p.clone();
                        // Said as information, not as a step.
                        let t = self.comment_sentence(&p);
                        self.info(out, t);
                        return true;
                    }
                    None => Err(self.message("review_comment_before", &[])),
                }
            }
            PlayerAction::Goto => match arg.map(|a| (a, a.parse::<u32>().ok())) {
                Some((_, Some(n))) => match r.jump(n).cloned() {
                    Some(p) => Ok(self.step_sentence(&p)),
                    None => Err(self.message("review_no_move", &[("number", &n.to_string())])),
                },
                Some((word, None)) => Err(self.not_a_number(word, action)),
                None => Err(self.help_line(action)),
            },
            _ => return false,
        };
        self.sync_review_game();
        match said {
            Ok(t) => self.say(out, t, Priority::Normal, SayKind::Move),
            Err(t) => self.say(out, t, Priority::Normal, SayKind::Error),
        }
        true
    }

    /// In review, what would change the game is not done.
    pub(super) fn review_refuses(&mut self, out: &mut Vec<Effect>) {
        let t = self.message("review_not_here", &[]);
        self.say(out, t, Priority::Normal, SayKind::Error);
    }
}

/// A `%clk` time of a reviewed game in words, to the second shown in
/// the PGN.
fn review_clock(phraser: &crate::phrase::Phraser, ms: i64) -> String {
    let seconds = u64::try_from(ms.max(0) / 1000).unwrap_or_default();
    crate::clock::words::time(phraser, std::time::Duration::from_secs(seconds))
}

#[cfg(test)]
mod tests;
