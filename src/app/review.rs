//! Reviewing a PGN file (`hector review FILE.pgn`): the games listed,
//! chosen by number or found by name, and stepped through: next, previous,
//! goto a move, start, end.  Each step is announced with the clock time
//! when the file has one; every exploration command works on the position
//! reached.  A malformed game is reported with its number and line; the
//! others stay usable, and the moves before an illegal one can be
//! reviewed.  The game shown follows the cursor a move at a time, as the
//! record has it (a record may go on past a fivefold repetition).  A long
//! comment is said a piece at a time: "(more: say comment)".

use shakmaty::{Color, Position};

use super::voice::{Talk, Voice};
use crate::action::PlayerAction;
use crate::game::Game;
use crate::phrase::Phraser;
use std::ops::ControlFlow;

use crate::scoresheet::review::{GameEntry, PgnFile, PgnProblem, Ply, Review};
use crate::scoresheet::start::{FenField, PositionProblem, StartError};
use crate::speech::{Priority, SayKind};

/// Up to this many games, opening a file lists them.
const LIST_AT_START: usize = 20;
/// The characters of a comment said at once; `comment` again says the
/// next piece.
const COMMENT_PIECE: usize = 400;

/// What a review's action asked for comes to.
#[derive(Debug)]
pub(super) enum Asked {
    /// The review's note, for the App (the game shown follows it).
    Note(Box<ReviewNote>),
    /// Outside a review: said so, with the action's help.
    Said,
    /// The review has no answer for it: the action goes on to its handler.
    Unanswered,
}

/// A review's own action (`action`, with its argument): the review's
/// note; outside a review, said so with its help.
pub(super) fn ask(
    review: Option<&mut ReviewState>,
    action: PlayerAction,
    arg: Option<&str>,
    v: &mut Voice<'_>,
) -> Asked {
    let Some(state) = review else {
        let t = v.talk().help_line(action);
        let t = v.text("review_only", &[("help", &t)]);
        v.say(t, Priority::Normal, SayKind::Error);
        return Asked::Said;
    };
    match state.handle(action, arg) {
        Some(note) => Asked::Note(Box::new(note)),
        None => Asked::Unanswered,
    }
}

/// The file under review and the game chosen.
#[derive(Debug)]
pub(super) struct ReviewState {
    file: PgnFile,
    current: Option<(usize, Review)>,
    /// The game number and the cursor the shown game was made for.
    shown: Option<(usize, usize)>,
    /// How much of the comment at the cursor was said (in characters):
    /// the next `comment` goes on from there.
    comment_said: usize,
}

/// What the review part made of an action, for the App to say: the part
/// moves its cursor and knows the file; the App has the words, and shows
/// the game at the cursor ([`ReviewState::follow`]).
#[derive(Debug, Clone)]
pub(super) enum ReviewNote {
    /// List the games of these numbers (`None`: all).
    List(Option<Vec<usize>>),
    /// A game was opened: its number, how many moves it has, and where
    /// its moves stop before their end (an illegal move).
    Opened {
        number: usize,
        moves: usize,
        stopped: Option<PgnProblem>,
    },
    /// The game asked for cannot be opened.
    Problem(PgnProblem),
    /// `find` found no game.
    FoundNone(String),
    /// The argument is not a number.
    NotANumber(String),
    /// The action needs an argument: its help.
    Help,
    /// No game is open.
    NoGame,
    /// Stepped to this move (`next`, `goto`).
    Step(Ply),
    /// Stepped back over this move.
    Back(Ply),
    /// At the start, in this position.
    AtStart(shakmaty::Chess),
    /// At the end: the last move, the result (PGN), and where the moves
    /// stopped before the game's end.
    AtEnd {
        last: Option<Ply>,
        result: String,
        stopped: Option<PgnProblem>,
    },
    /// No move after this one: where the moves stopped.
    Stopped(PgnProblem),
    /// The move reached, for its variations.
    Variations(Ply),
    /// The move reached, for its comment: said from `from` characters on.
    Comment { ply: Ply, from: usize },
    /// The step cannot be made: the phrase that says why.
    Refused {
        key: &'static str,
        args: Vec<(&'static str, String)>,
    },
}

impl ReviewState {
    /// Review `file`; no game chosen yet.
    pub(super) fn new(file: PgnFile) -> ReviewState {
        ReviewState {
            file,
            current: None,
            shown: None,
            comment_said: 0,
        }
    }

    /// How many games the file has.
    pub(super) fn count(&self) -> usize {
        self.file.count()
    }

    /// The game open and its tags.
    fn entry(&self) -> Option<&crate::scoresheet::review::GameEntry> {
        self.current.as_ref().map(|(_, r)| &r.game.entry)
    }

    /// A comment piece was said: the next `comment` goes on after it (or
    /// starts again after the last).
    fn comment_said(&mut self, upto: Option<usize>) {
        self.comment_said = upto.unwrap_or(0);
    }

    /// Open game `number` of the file (its cursor at the start).
    #[must_use]
    pub(super) fn open(&mut self, number: usize) -> ReviewNote {
        match self.file.game(number) {
            Ok(g) => {
                // Moves as on a scoresheet: a game that starts with Black's
                // move counts that move number too.
                let black_first = usize::from(Position::turn(&g.start) == Color::Black);
                let moves = (g.plies.len() + black_first).div_ceil(2);
                let stopped = g.stopped.clone();
                self.current = Some((number, Review::new(g)));
                self.comment_said = 0;
                ReviewNote::Opened {
                    number,
                    moves,
                    stopped,
                }
            }
            Err(p) => ReviewNote::Problem(p),
        }
    }

    /// Brings `game` to the review's cursor: its start and the moves up
    /// to it, as the record has them.  A step of one move plays or takes
    /// back that move; anything else replays the game from its start.
    /// `false` when no game is open (nothing to show).
    pub(super) fn follow(&mut self, game: &mut Game) -> bool {
        let Some((number, r)) = self.current.as_ref() else {
            return false;
        };
        let (number, at) = (*number, r.at());
        let plies = &r.game.plies;
        let was = self
            .shown
            .filter(|&(n, a)| n == number && a == game.ply_count());
        match was {
            Some((_, a)) if a == at => {}
            Some((_, a)) if a + 1 == at => {
                if game.record(plies[a].mv).is_ok() {
                    game.settle();
                }
            }
            Some((_, a)) if a == at + 1 => {
                let _ = game.undo_last();
            }
            _ => {
                *game = Game::from_position(r.game.start.clone());
                for p in &plies[..at] {
                    if game.record(p.mv).is_err() {
                        break;
                    }
                }
                game.settle();
            }
        }
        self.shown = Some((number, game.ply_count()));
        true
    }

    /// The action of review `action` with its argument: the games listed,
    /// found or opened, the cursor moved.  `None` for an action that is
    /// not one of review.
    #[must_use]
    pub(super) fn handle(&mut self, action: PlayerAction, arg: Option<&str>) -> Option<ReviewNote> {
        let number = |a: &str| a.parse::<u32>().ok();
        match action {
            PlayerAction::Games => return Some(ReviewNote::List(None)),
            PlayerAction::Game => {
                return Some(match arg.map(|a| (a, a.parse::<usize>().ok())) {
                    Some((_, Some(n))) => self.open(n),
                    Some((word, None)) => ReviewNote::NotANumber(word.to_owned()),
                    None => ReviewNote::Help,
                });
            }
            PlayerAction::Find => {
                let text = arg.unwrap_or("").trim();
                if text.is_empty() {
                    return Some(ReviewNote::Help);
                }
                return Some(match self.file.search(text) {
                    Ok(found) if found.is_empty() => ReviewNote::FoundNone(text.to_owned()),
                    Ok(found) => ReviewNote::List(Some(found)),
                    Err(p) => ReviewNote::Problem(p),
                });
            }
            _ => {}
        }
        let comment_from = std::mem::take(&mut self.comment_said);
        let Some((_, r)) = &mut self.current else {
            return Some(ReviewNote::NoGame);
        };
        let refused = |key| ReviewNote::Refused {
            key,
            args: Vec::new(),
        };
        let reached = |r: &Review| {
            r.at()
                .checked_sub(1)
                .and_then(|i| r.game.plies.get(i))
                .cloned()
        };
        Some(match action {
            PlayerAction::Next => match r.forward() {
                Some(p) => ReviewNote::Step(p.clone()),
                None => match r.game.stopped.clone() {
                    Some(p) => ReviewNote::Stopped(p),
                    None => refused("review_no_more"),
                },
            },
            PlayerAction::Previous => match r.back() {
                Some(p) => ReviewNote::Back(p.clone()),
                None => refused("review_at_start_already"),
            },
            PlayerAction::First => {
                r.start();
                ReviewNote::AtStart(r.position())
            }
            PlayerAction::End => {
                let result = r
                    .game
                    .outcome
                    .map(|o| o.to_string())
                    .unwrap_or_else(|| "*".into());
                let last = r.end().cloned();
                ReviewNote::AtEnd {
                    last,
                    result,
                    stopped: r.game.stopped.clone(),
                }
            }
            PlayerAction::Variations => match reached(r) {
                Some(p) => ReviewNote::Variations(p),
                None => refused("review_comment_before"),
            },
            PlayerAction::Comment => match reached(r) {
                Some(ply) => ReviewNote::Comment {
                    ply,
                    from: comment_from,
                },
                None => refused("review_comment_before"),
            },
            PlayerAction::Goto => match arg.map(|a| (a, number(a))) {
                Some((_, Some(n))) => match r.jump(n) {
                    Some(p) => ReviewNote::Step(p.clone()),
                    None => ReviewNote::Refused {
                        key: "review_no_move",
                        args: vec![("number", n.to_string())],
                    },
                },
                Some((word, None)) => ReviewNote::NotANumber(word.to_owned()),
                None => ReviewNote::Help,
            },
            _ => return None,
        })
    }
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
        PgnProblem::TagTooLong { game, line } => phraser.message(
            "pgn_tag_too_long",
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

impl ReviewState {
    /// The first sentences of a review of more than one game: the games
    /// (a long file is not read out game by game), how to choose one.
    pub(super) fn say_start(&self, v: &mut Voice<'_>) {
        let count = self.count();
        v.say_key(
            "review_file",
            &[("count", &count.to_string())],
            Priority::Normal,
            SayKind::Info,
        );
        // Its count, and how to choose or find one (`games` lists them
        // all on request).
        if count <= LIST_AT_START {
            self.list_games(None, v);
        }
        let t = v.text("review_choose", &[]);
        v.info(t);
    }

    /// The games of these numbers (`None`: all), one sentence each,
    /// their tags read from the file now.
    fn list_games(&self, only: Option<&[usize]>, v: &mut Voice<'_>) {
        let talk = v.talk();
        let mut lines = Vec::new();
        let mut line = |g: GameEntry| {
            // A date the PGN does not know ("????.??.??") is not said.
            let dated = !g.date.trim().is_empty() && !g.date.starts_with('?');
            lines.push(
                talk.text(
                    if dated {
                        "review_game_line"
                    } else {
                        "review_game_line_undated"
                    },
                    &[
                        ("number", &g.number.to_string()),
                        ("white", &talk.phraser.player(&g.white, Color::White)),
                        ("black", &talk.phraser.player(&g.black, Color::Black)),
                        ("result", &result_words(talk, &g.result)),
                        // In words: a voice hears no digits (issue 30).
                        (
                            "date",
                            &talk
                                .phraser
                                .pgn_date_words(&g.date)
                                .unwrap_or_else(|| g.date.clone()),
                        ),
                    ],
                ),
            );
        };
        let read = match only {
            None => self.file.each_entry(|g| {
                line(g);
                ControlFlow::Continue(())
            }),
            Some(numbers) => numbers
                .iter()
                .try_for_each(|&n| self.file.entry(n).map(&mut line)),
        };
        if let Err(p) = read {
            lines.push(pgn_problem_sentence(&talk.phraser, &p));
        }
        for t in lines {
            v.info(t);
        }
    }

    /// The review's note for `action`, in words.
    pub(super) fn say(&mut self, note: ReviewNote, action: PlayerAction, v: &mut Voice<'_>) {
        let talk = v.talk();
        let said = match note {
            ReviewNote::List(only) => return self.list_games(only.as_deref(), v),
            ReviewNote::Opened {
                number,
                moves,
                stopped,
            } => {
                let Some(e) = self.entry().cloned() else {
                    return;
                };
                let t = talk.text(
                    "review_opened",
                    &[
                        ("number", &number.to_string()),
                        ("white", &talk.phraser.player(&e.white, Color::White)),
                        ("black", &talk.phraser.player(&e.black, Color::Black)),
                        ("result", &result_words(talk, &e.result)),
                        ("moves", &moves.to_string()),
                    ],
                );
                // Where the moves stop before the game's end (an illegal
                // move): said at once, the moves before it reviewable.
                let stop = stopped.map(|p| {
                    let problem = pgn_problem_sentence(&talk.phraser, &p);
                    talk.text("review_stopped", &[("problem", &problem)])
                });
                v.say(t, Priority::Normal, SayKind::Game);
                if let Some(t) = stop {
                    v.say(t, Priority::Normal, SayKind::Error);
                }
                return;
            }
            ReviewNote::Problem(p) => Err(pgn_problem_sentence(&talk.phraser, &p)),
            ReviewNote::FoundNone(text) => Err(talk.text("review_found_none", &[("text", &text)])),
            ReviewNote::NotANumber(word) => {
                let help = talk.help_line(action);
                let input = crate::words::quote(&word);
                Err(talk.text("arg_not_a_number", &[("input", &input), ("help", &help)]))
            }
            ReviewNote::Help => Err(talk.help_line(action)),
            ReviewNote::NoGame => Err(talk.text("review_no_game", &[])),
            ReviewNote::Step(p) => Ok(step_sentence(talk, &p)),
            ReviewNote::Back(p) => {
                let m = step_sentence(talk, &p);
                Ok(talk.text("review_back", &[("move", &m)]))
            }
            ReviewNote::AtStart(pos) => {
                let turn = talk.phraser.turn(&pos);
                Ok(talk.text("review_at_start", &[("turn", &turn)]))
            }
            ReviewNote::AtEnd {
                last,
                result,
                stopped,
            } => {
                let result = result_words(talk, &result);
                let m = last.map(|p| step_sentence(talk, &p)).unwrap_or_default();
                match stopped {
                    Some(p) if m.is_empty() => Err(pgn_problem_sentence(&talk.phraser, &p)),
                    Some(p) => {
                        let problem = pgn_problem_sentence(&talk.phraser, &p);
                        Ok(talk.text("review_at_stop", &[("move", &m), ("problem", &problem)]))
                    }
                    None => Ok(talk.text("review_at_end", &[("move", &m), ("result", &result)])),
                }
            }
            ReviewNote::Stopped(p) => Err(pgn_problem_sentence(&talk.phraser, &p)),
            ReviewNote::Variations(p) => {
                for t in variation_sentences(talk, &p) {
                    v.info(t);
                }
                return;
            }
            ReviewNote::Comment { ply, from } => {
                // Said as information, not as a step.
                let (t, upto) = comment_sentence(talk, &ply, from);
                self.comment_said(upto);
                return v.info(t);
            }
            ReviewNote::Refused { key, args } => {
                let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
                Err(talk.text(key, &args))
            }
        };
        match said {
            Ok(t) => v.say(t, Priority::Normal, SayKind::Move),
            Err(t) => v.say(t, Priority::Normal, SayKind::Error),
        }
    }
}

/// A PGN result in words, never as digits for a voice: "White won",
/// "drawn", "unfinished" for "*" and none.
fn result_words(talk: &Talk, result: &str) -> String {
    match result.trim() {
        "" | "*" | "?" => talk.text("game_unfinished", &[]),
        "1-0" => talk.text("review_result_white", &[]),
        "0-1" => talk.text("review_result_black", &[]),
        "1/2-1/2" | "½-½" => talk.text("review_result_draw", &[]),
        r => r.to_owned(),
    }
}

/// The sentence of a step: the move with its number, the draw offer,
/// the clock.
fn step_sentence(talk: &Talk, p: &Ply) -> String {
    let mut t = ply_words(talk, p);
    if p.offer {
        t = talk.text("review_with_offer", &[("move", &t)]);
    }
    if let Some(ms) = p.clock_ms {
        t = talk.text(
            "review_with_clock",
            // In words, as the clock said it ("four minutes fifty-eight
            // seconds"), never "0:04:58" for a voice; whole seconds as
            // in the PGN.
            &[("move", &t), ("clock", &review_clock(&talk.phraser, ms))],
        );
    }
    if !p.comment.is_empty() || !p.nags.is_empty() {
        t = talk.text("review_has_comment", &[("move", t.trim_end_matches('.'))]);
    }
    if !p.variations.is_empty() {
        t = talk.text(
            "review_has_variations",
            &[("move", t.trim_end_matches('.'))],
        );
    }
    t
}

/// `variations`: the variations given instead of the move reached, each
/// with its moves numbered as on a scoresheet.
fn variation_sentences(talk: &Talk, p: &Ply) -> Vec<String> {
    let m = ply_words(talk, p);
    if p.variations.is_empty() {
        return vec![talk.text("review_no_variations", &[("move", &m)])];
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
                    let words = talk.phraser.say_move(before, *mv);
                    let number = before.fullmoves().get().to_string();
                    talk.text(key, &[("number", &number), ("move", &words)])
                })
                .collect();
            let moves = moves.join(", ");
            if k == 0 {
                talk.text("review_variations", &[("move", &m), ("moves", &moves)])
            } else {
                talk.text("review_variation_or", &[("moves", &moves)])
            }
        })
        .collect()
}

/// The move's number and words, without the clock or the offer.
fn ply_words(talk: &Talk, p: &Ply) -> String {
    let words = talk.phraser.say_move(&p.before, p.mv);
    let key = match p.by {
        Color::White => "move_number_white",
        Color::Black => "move_number_black",
    };
    talk.text(key, &[("number", &p.number.to_string()), ("move", &words)])
}

/// `comment`: the annotation glyphs in words and the comment of the move
/// reached, from character `from` on, at most [`COMMENT_PIECE`]
/// characters of it (cut after a word) with "(more: say comment)"; with
/// the characters said so far when more is left.
fn comment_sentence(talk: &Talk, p: &Ply, from: usize) -> (String, Option<usize>) {
    let mut parts: Vec<String> = p
        .nags
        .iter()
        .map(|n| match n {
            1..=6 => talk.text(&format!("nag_{n}"), &[]),
            n => talk.text("nag_other", &[("number", &n.to_string())]),
        })
        .collect();
    if !p.comment.is_empty() {
        parts.push(p.comment.clone());
    }
    let m = ply_words(talk, p);
    if parts.is_empty() {
        return (talk.text("review_no_comment", &[("move", &m)]), None);
    }
    let text = parts.join("; ");
    let (piece, upto) = comment_piece(&text, from);
    let piece = match upto {
        Some(_) => talk.text("review_comment_more", &[("text", piece)]),
        None => piece.to_owned(),
    };
    let t = if from == 0 {
        talk.text("review_comment", &[("move", &m), ("comment", &piece)])
    } else {
        piece
    };
    (t, upto)
}

/// The piece of `text` from character `from` on: at most
/// [`COMMENT_PIECE`] characters, cut after a word when one ends in the
/// piece, and where the next piece starts when more is left.
fn comment_piece(text: &str, from: usize) -> (&str, Option<usize>) {
    let start = text.char_indices().nth(from).map_or(0, |(i, _)| i);
    let rest = &text[start..];
    let Some((cut, _)) = rest.char_indices().nth(COMMENT_PIECE) else {
        return (rest, None);
    };
    let end = rest[..cut].rfind(' ').filter(|&i| i > 0).unwrap_or(cut);
    let piece = rest[..end].trim_end();
    let next = from + rest[..end].chars().count();
    // The space the piece was cut at is not said again.
    let next = next + usize::from(rest[end..].starts_with(' '));
    (piece, Some(next))
}

/// A `%clk` time of a reviewed game in words, to the second shown in
/// the PGN.
fn review_clock(phraser: &crate::phrase::Phraser, ms: i64) -> String {
    let seconds = u64::try_from(ms.max(0) / 1000).unwrap_or_default();
    crate::clock::words::time(phraser, std::time::Duration::from_secs(seconds))
}

#[cfg(test)]
mod tests;
