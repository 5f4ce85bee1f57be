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
    pub fn start_review(&mut self, file: PgnFile) {
        self.review = Some(ReviewState {
            file,
            current: None,
        });
    }

    /// Whether a file is being reviewed.
    pub fn reviewing(&self) -> bool {
        self.review.is_some()
    }

    /// The first sentences of a review: the games, or the only one opened.
    pub(super) fn review_start(&mut self, out: &mut Vec<Effect>) {
        let Some(state) = &self.review else {
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
        let Some(state) = &self.review else {
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
                        ("white", &self.phraser.player(&g.white, Color::White)),
                        ("black", &self.phraser.player(&g.black, Color::Black)),
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
        let Some(state) = &mut self.review else {
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
                        ("white", &self.phraser.player(&e.white, Color::White)),
                        ("black", &self.phraser.player(&e.black, Color::Black)),
                        ("result", &self.result_words(&e.result)),
                        ("moves", &moves.to_string()),
                    ],
                );
                self.say(out, t, Priority::Normal, SayKind::Game);
            }
            Err(p) => {
                let t = pgn_problem_sentence(&self.phraser, &p);
                self.say(out, t, Priority::Normal, SayKind::Error);
            }
        }
    }

    /// The sentence of a step: the move with its number, the draw offer,
    /// the clock.
    fn step_sentence(&self, p: &Ply) -> String {
        let words = self.phraser.say_move(&p.before, p.mv);
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
                &[("move", &t), ("clock", &review_clock(&self.phraser, ms))],
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
                        let words = self.phraser.say_move(before, *mv);
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
        let words = self.phraser.say_move(&p.before, p.mv);
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
        }) = &self.review
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
        if !matches!(
            action,
            PlayerAction::Next
                | PlayerAction::Previous
                | PlayerAction::First
                | PlayerAction::End
                | PlayerAction::Goto
                | PlayerAction::Games
                | PlayerAction::Game
                | PlayerAction::Find
                | PlayerAction::Comment
                | PlayerAction::Variations
        ) {
            return false;
        }
        let Some(state) = &mut self.review else {
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
                let turn = self.phraser.turn(&r.position());
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
mod tests {
    use std::time::Instant;

    use super::*;
    use crate::msg::Msg;

    const FILE: &str = "[White \"Anna\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n[Date \"2026.01.02\"]\n\n1. e4 {[%clk 0:04:58]} e5 {(=)} 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n\
[White \"Carla\"]\n[Black \"Dieter Müller\"]\n[Result \"*\"]\n\n1. d4 d5 2. Ke3 *\n";

    fn app() -> App {
        let mut a = App::builder().build();
        a.start_review(PgnFile::from_bytes(FILE.as_bytes().to_vec()).unwrap());
        a
    }

    fn said(a: &mut App, line: &str) -> Vec<String> {
        let msg = if line.is_empty() {
            Msg::Start
        } else {
            Msg::Line(line.into())
        };
        a.update(msg, Instant::now())
            .into_iter()
            .filter_map(|e| match e {
                Effect::Say(u) => Some(u.text),
                _ => None,
            })
            .collect()
    }

    /// Why a FEN is not a legal position, in hector's words in each
    /// language: never the chess library's English.
    #[test]
    fn a_bad_fens_reason_is_in_the_players_language() {
        use crate::words::Lang;
        let e = crate::scoresheet::start::from_fen("4k3/8/8/8/8/8/8/8 w - - 0 1").unwrap_err();
        let e2 = crate::scoresheet::start::from_fen("4k3/8/8/8/8/8/8/P3K3 w - - 0 1").unwrap_err();
        let want = [
            (
                Lang::En,
                "The FEN is not a legal position: a king is missing.",
                "The FEN is not a legal position: a pawn stands on the first or eighth rank.",
            ),
            (
                Lang::De,
                "Die FEN ist keine erlaubte Stellung: ein König fehlt.",
                "Die FEN ist keine erlaubte Stellung: ein Bauer steht auf der ersten oder achten Reihe.",
            ),
            (
                Lang::It,
                "La FEN non è una posizione legale: manca un re.",
                "La FEN non è una posizione legale: un pedone si trova sulla prima o sull'ottava traversa.",
            ),
            (
                Lang::El,
                "Το FEN δεν είναι νόμιμη θέση: λείπει ένας βασιλιάς.",
                "Το FEN δεν είναι νόμιμη θέση: ένα πιόνι βρίσκεται στην πρώτη ή στην όγδοη οριζόντια.",
            ),
        ];
        for (lang, king, pawn) in want {
            let a = App::builder().lang(lang).build();
            assert_eq!(start_error_sentence(a.phraser(), &e), king, "{lang:?}");
            assert_eq!(start_error_sentence(a.phraser(), &e2), pawn, "{lang:?}");
        }
        // Every problem has its own words in every language.
        for lang in Lang::ALL {
            let a = App::builder().lang(lang).build();
            let all = [
                PositionProblem::EmptyBoard,
                PositionProblem::MissingKing,
                PositionProblem::TooManyKings,
                PositionProblem::PawnsOnBackRank,
                PositionProblem::CastlingRights,
                PositionProblem::EnPassantSquare,
                PositionProblem::OppositeCheck,
                PositionProblem::ImpossibleCheck,
                PositionProblem::TooMuchMaterial,
                PositionProblem::Other,
            ];
            let words: std::collections::HashSet<String> = all
                .iter()
                .map(|p| a.phraser().message(position_problem_key(*p), &[]))
                .collect();
            assert_eq!(words.len(), all.len(), "{lang:?}");
            assert!(
                words.iter().all(|w| !w.contains('_') && !w.is_empty()),
                "{lang:?}: {words:?}"
            );
        }
    }

    /// Issue 18: a 10,000-game file printed 10,000 lines.  Above twenty
    /// games the count and how to choose one; `games` lists them.
    #[test]
    fn a_long_file_says_its_count_and_how_to_choose_not_every_game() {
        let one = "[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 *\n\n";
        let mut a = App::builder().build();
        a.start_review(PgnFile::from_bytes(one.repeat(21).into_bytes()).unwrap());
        assert_eq!(
            said(&mut a, ""),
            [
                "Twenty-one games in the file.",
                "Say game and a number to choose one, or find and a name."
            ]
        );
        assert_eq!(said(&mut a, "games").len(), 21);
        let mut a = App::builder().build();
        a.start_review(PgnFile::from_bytes(one.repeat(20).into_bytes()).unwrap());
        assert_eq!(said(&mut a, "").len(), 22, "twenty are listed");
    }

    /// Issue 18: comments and annotations were silently dropped.
    #[test]
    fn comments_and_annotations_are_heard_on_request() {
        let text =
            "[White \"A\"]\n[Black \"B\"]\n\n{Opening} 1. e4 $1 {The best by test} e5 2. f4 ?? *\n";
        let mut a = App::builder().build();
        a.start_review(PgnFile::from_bytes(text.as_bytes().to_vec()).unwrap());
        said(&mut a, "");
        assert_eq!(
            said(&mut a, "comment"),
            ["There is no move yet: say next for the first move."]
        );
        assert_eq!(
            said(&mut a, "next"),
            ["1. Bauer Eva vier; say comment to hear its comment."]
        );
        assert_eq!(
            said(&mut a, "comment"),
            ["1. Bauer Eva vier: good move; The best by test"]
        );
        assert_eq!(said(&mut a, "next"), ["1... Bauer Eva fünf"]);
        assert_eq!(
            said(&mut a, "comment"),
            ["There is no comment on 1... Bauer Eva fünf."]
        );
        said(&mut a, "next");
        assert_eq!(said(&mut a, "comment"), ["2. Bauer Felix vier: blunder"]);
    }

    /// Issue 18: variations were silently dropped.
    #[test]
    fn variations_are_heard_on_request() {
        let text = "[White \"A\"]\n\n1. e4 e5 (1... c5 2. Nf3) (1... e6) 2. Nf3 *\n";
        let mut a = App::builder().build();
        a.start_review(PgnFile::from_bytes(text.as_bytes().to_vec()).unwrap());
        said(&mut a, "");
        said(&mut a, "next");
        assert_eq!(
            said(&mut a, "variations"),
            ["There is no variation instead of 1. Bauer Eva vier."]
        );
        assert_eq!(
            said(&mut a, "next"),
            ["1... Bauer Eva fünf; say variations to hear the other moves."]
        );
        assert_eq!(
            said(&mut a, "variations"),
            [
                "Instead of 1... Bauer Eva fünf: 1... Bauer Cesar fünf, 2. Springer Felix drei.",
                "Or: 1... Bauer Eva sechs."
            ]
        );
        // The main line goes on.
        assert_eq!(said(&mut a, "next"), ["2. Springer Felix drei"]);
    }

    #[test]
    fn the_games_are_listed_chosen_and_stepped_through() {
        let mut a = app();
        let s = said(&mut a, "");
        assert_eq!(s[0], "Two games in the file.");
        assert_eq!(s[1], "Game 1: Anna against Bob, White won, 2026.01.02.");
        assert_eq!(s[2], "Game 2: Carla against Dieter Müller, unfinished.");
        assert_eq!(
            said(&mut a, "next"),
            vec!["Choose a game first: say game and its number."]
        );
        assert_eq!(
            said(&mut a, "find muller"),
            vec!["Game 2: Carla against Dieter Müller, unfinished."]
        );
        assert_eq!(
            said(&mut a, "game 1"),
            vec!["Game 1: Anna against Bob, White won. Four moves. Say next for the first move."]
        );
        assert_eq!(
            said(&mut a, "next"),
            vec!["1. Bauer Eva vier; clock four minutes fifty-eight seconds."]
        );
        assert_eq!(
            said(&mut a, "next"),
            vec!["1... Bauer Eva fünf, with a draw offer"]
        );
        // Exploration works on the position reached.
        assert_eq!(said(&mut a, "square e5"), vec!["Eva fünf: black Bauer"]);
        assert_eq!(
            said(&mut a, "previous"),
            vec!["Back, before 1... Bauer Eva fünf, with a draw offer."]
        );
        assert_eq!(said(&mut a, "goto 3"), vec!["3. Läufer Cesar vier"]);
        assert_eq!(a.game().history().len(), 5);
        let end = said(&mut a, "end");
        assert_eq!(
            end,
            vec!["End of the game: 4. Dame schlägt Felix sieben, Schachmatt. Result: White won."]
        );
        assert_eq!(said(&mut a, "next"), vec!["That was the last move."]);
        assert_eq!(
            said(&mut a, "start"),
            vec!["Start position. White to move, move 1."]
        );
        assert_eq!(
            said(&mut a, "e4"),
            vec!["In review, say next, previous, goto and a move number, start or end."]
        );
    }

    #[test]
    fn a_file_that_cannot_be_read_is_said_in_the_players_words() {
        let missing = PgnFile::read(std::path::Path::new("/nonexistent/games.pgn")).unwrap_err();
        assert_eq!(missing, PgnProblem::NoSuchFile);
        let folder = PgnFile::read(&std::env::temp_dir()).unwrap_err();
        assert_eq!(folder, PgnProblem::IsAFolder);
        let said = |lang| {
            let p = Phraser::builtin(
                crate::phrase::MoveStyle::AppendixD,
                lang,
                Default::default(),
            );
            pgn_problem_sentence(&p, &missing)
        };
        assert_eq!(
            said(crate::words::Lang::En),
            "The PGN file cannot be read: there is no such file."
        );
        assert_eq!(
            said(crate::words::Lang::De),
            "Die PGN-Datei ist nicht lesbar: diese Datei gibt es nicht."
        );
    }

    #[test]
    fn a_word_that_is_not_a_number_is_named() {
        let mut a = app();
        said(&mut a, "");
        assert_eq!(
            said(&mut a, "game x"),
            vec!["\"x\" is not a number. game N: in review, choose game N."]
        );
        assert_eq!(
            said(&mut a, "find"),
            vec!["find NAME: in review, the games of a player or an event."]
        );
        said(&mut a, "game 1");
        assert_eq!(
            said(&mut a, "goto x"),
            vec!["\"x\" is not a number. goto N: in review, the move numbered N."]
        );
    }

    #[test]
    fn a_game_without_names_is_white_against_black() {
        let mut a = App::builder().build();
        let pgn = "[White \"?\"]\n[Black \"\"]\n[Result \"*\"]\n[Date \"????.??.??\"]\n\n1. e4 *\n";
        a.start_review(PgnFile::from_bytes(pgn.as_bytes().to_vec()).unwrap());
        let s = said(&mut a, "");
        assert!(
            s.contains(
                &"Game 1: White against Black, unfinished. One move. Say next for the first move."
                    .to_owned()
            ) || s.contains(&"Game 1: White against Black, unfinished.".to_owned()),
            "{s:?}"
        );
        assert!(s.iter().all(|l| !l.contains('?')), "{s:?}");
        assert_eq!(
            said(&mut a, "games"),
            vec!["Game 1: White against Black, unfinished."]
        );
    }

    #[test]
    fn a_malformed_game_names_game_and_line_and_the_others_stay_usable() {
        let mut a = app();
        said(&mut a, "");
        assert_eq!(
            said(&mut a, "game 2"),
            vec!["Game 2, line 12: 2. Ke3 is not a legal move."]
        );
        assert_eq!(
            said(&mut a, "game 3"),
            vec!["There is no game 3: the file has two games."]
        );
        assert!(said(&mut a, "game 1")[0].starts_with("Game 1: Anna"));
    }

    #[test]
    fn review_actions_outside_review_say_so() {
        let mut a = App::builder().build();
        let s = said(&mut a, "next");
        assert!(s[0].contains("hector review"), "{s:?}");
    }
}
