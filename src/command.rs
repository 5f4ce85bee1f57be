//! A typed line read as a command (through the keymap) with typed
//! arguments, or passed on as a move.

use shakmaty::{Color, File, Rank, Role, Square};

use crate::action::PlayerAction;
use crate::keymap::Keymap;
use crate::scoresheet::ExportFormat;
use crate::words::arguments::{Arg as Word, argument};
use crate::words::vocab::MoveWords;
use crate::words::{fold, role_named};

/// Whose pieces a command is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Mine,
    Theirs,
    Colour(Color),
}

impl Side {
    /// The colour it names for the player who plays `me`.
    pub fn colour(self, me: Color) -> Color {
        match self {
            Side::Mine => me,
            Side::Theirs => !me,
            Side::Colour(c) => c,
        }
    }
}

/// An action asked for (a typed line, a key), with what it was given:
/// the one form every way of asking takes to the App's one dispatch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The row of the action table.
    pub action: PlayerAction,
    /// Its argument, checked (none: the word or key alone).
    pub arg: Arg,
}

/// What an action was given with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arg {
    /// Nothing: the word or the key alone.
    None,
    /// A square (`square e4`, `moves e4`, the cursor's square).
    Square(Square),
    /// A square and, perhaps, a side (`attackers e4 black`).
    SquareSide(Square, Option<Side>),
    /// A side and, perhaps, a kind of piece (`pieces black knight`).
    Pieces { side: Side, role: Option<Role> },
    /// A rank (`rank 3`, a key's rank).
    Rank(Rank),
    /// A file (`file e`, a key's file).
    File(File),
    /// A kind of piece (a key's: the next knight).
    Role(Role),
    /// A count (`last 3`).
    Count(usize),
    /// Words as typed: a claim's intended move, a chat line, a review's
    /// move number, game number or search.
    Text(String),
    /// An export format (`save brf`).
    Format(ExportFormat),
    /// A file to save in (`save game.pgn`): a name with a dot or a slash,
    /// its format by its ending (PGN when none fits).
    Path(String),
    /// A question to the clock.
    Time(TimeQuery),
    /// An arbiter function (carried out after a confirmation).
    Arbiter(ArbiterOp),
    /// An action named (`help rank`).
    Action(PlayerAction),
}

impl Request {
    /// `action` with `arg`.
    pub fn new(action: PlayerAction, arg: Arg) -> Request {
        Request { action, arg }
    }

    /// The action, when it was asked for alone (a yes, a no, a quit).
    pub fn alone(&self) -> Option<PlayerAction> {
        (self.arg == Arg::None).then_some(self.action)
    }

    /// The words given with it, if any.
    pub fn text(&self) -> Option<&str> {
        match &self.arg {
            Arg::Text(t) => Some(t),
            _ => None,
        }
    }
}

/// What the clock is asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeQuery {
    /// Both times.
    Both,
    /// One side's time.
    Side(Side),
    /// The number of moves played (D.2.6.1).
    Moves,
    /// The time the last move took.
    Last,
}

/// An arbiter function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArbiterOp {
    /// Stop both clocks.
    Stop,
    /// Start the clock again.
    Start,
    /// Add time to a side.
    Add(Side, std::time::Duration),
    /// Take time from a side.
    Remove(Side, std::time::Duration),
    /// Set the move counter (moves completed by each side).
    Moves(u32),
    /// An illegal move completed by a side (7.5): restored and penalised.
    Illegal(Side),
    /// Declare the result: the winner, or `None` for a draw.
    Result(Option<Color>),
    /// Say the arbiter's pairing code of a tournament game (for the
    /// arbiter's phone); nothing to confirm.
    Code,
}

/// Minutes ("2") or minutes and seconds ("1:30").
fn minutes(word: &str) -> Option<std::time::Duration> {
    let secs = match word.split_once(':') {
        Some((m, s)) if s.len() == 2 => {
            let s: u64 = s.parse().ok().filter(|s| *s < 60)?;
            m.parse::<u64>().ok()?.checked_mul(60)?.checked_add(s)?
        }
        Some(_) => return None,
        None => word.parse::<u64>().ok()?.checked_mul(60)?,
    };
    (secs > 0 && secs <= 24 * 3600).then(|| std::time::Duration::from_secs(secs))
}

/// What a typed line is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    Empty,
    /// An action, with its arguments checked.
    Request(Request),
    /// A command word with arguments that did not make sense: the command
    /// and what was wrong with them.
    BadArguments {
        command: PlayerAction,
        problem: ArgProblem,
    },
    /// Anything else: read it as a move.
    Move(String),
}

/// What was wrong with a command's words.  The text is the word (or
/// words) as typed, to be quoted back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArgProblem {
    /// The command needs words that were not given: its help says which.
    Missing,
    /// Not a rank ("rank 9").
    NoRank(String),
    /// Not a file ("file k").
    NoFile(String),
    /// Not a square.
    NoSquare(String),
    /// Not a side (white, black, mine, theirs).
    NoSide(String),
    /// Neither a side nor a piece.
    NoPieceOrSide(String),
    /// Not a number of moves from 1 to 1000.
    NoCount(String),
    /// Not an export format (pgn, brf, braille, text, speech).
    NoFormat(String),
    /// Not something the clock tells (mine, theirs, white, black, moves,
    /// last).
    NoTimeQuery(String),
    /// Not one of the arbiter's functions.
    NoArbiterOp(String),
    /// Not a time in minutes (`2`, `1:30`).
    NoMinutes(String),
    /// Not a result (1-0, 0-1, draw).
    NoResult(String),
    /// Words left over after a complete command.
    TooMany(String),
    /// `help WORD` with a word that names no command.
    NoCommand(String),
}

/// Reads command arguments in the words of any of the vocabularies.
pub struct ArgReader<'a> {
    pub vocabularies: &'a [&'a MoveWords],
}

impl ArgReader<'_> {
    fn file(&self, word: &str) -> Option<File> {
        let w = fold(word);
        if let [c] = w.as_bytes()
            && let Some(f) = File::from_char(char::from(*c))
        {
            return Some(f);
        }
        self.vocabularies.iter().find_map(|v| {
            v.files
                .iter()
                .position(|f| fold(f) == w)
                .map(|i| File::new(i as u32))
        })
    }

    fn rank(&self, word: &str) -> Option<Rank> {
        let w = fold(word);
        if let [c] = w.as_bytes()
            && let Some(r) = Rank::from_char(char::from(*c))
        {
            return Some(r);
        }
        self.vocabularies.iter().find_map(|v| {
            v.ranks
                .iter()
                .position(|r| fold(r) == w)
                .map(|i| Rank::new(i as u32))
        })
    }

    /// A square from the start of `words`: "f3", "f 3", "Felix drei".
    /// Returns the square and how many words it took.
    pub fn square(&self, words: &[&str]) -> Option<(Square, usize)> {
        let first = words.first()?;
        if let Ok(sq) = fold(first).parse::<Square>() {
            return Some((sq, 1));
        }
        // One word of a file letter and a rank digit in a vocabulary's
        // letters: the Greek "ε4".
        let folded = fold(first);
        let mut chars = folded.chars();
        if let (Some(f), Some(r), None) = (chars.next(), chars.next(), chars.next())
            && let Some(file) = self.file(&f.to_string())
            && let Some(rank) = self.rank(&r.to_string())
        {
            return Some((Square::from_coords(file, rank), 1));
        }
        let file = self.file(first)?;
        let rank = self.rank(words.get(1)?)?;
        Some((Square::from_coords(file, rank), 2))
    }

    fn role(&self, word: &str) -> Option<Role> {
        role_named(word, self.vocabularies)
    }

    fn side(&self, word: &str) -> Option<Side> {
        // The side words of every language (`[arguments]` in the voices).
        match argument(word, &Word::SIDES)? {
            Word::Mine => Some(Side::Mine),
            Word::Theirs => Some(Side::Theirs),
            Word::White => Some(Side::Colour(Color::White)),
            Word::Black => Some(Side::Colour(Color::Black)),
            _ => None,
        }
    }
}

/// Read a typed line.
pub fn read_line(line: &str, keymap: &Keymap, args: &ArgReader<'_>) -> Input {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((first, rest)) = words.split_first() else {
        return Input::Empty;
    };
    let Some(name) = keymap.command(first) else {
        return Input::Move(line.trim().to_owned());
    };
    let bad = |problem: ArgProblem| Input::BadArguments {
        command: name,
        problem,
    };
    let ok = |arg: Arg| Input::Request(Request::new(name, arg));
    let square_only = || match args.square(rest) {
        _ if rest.is_empty() => bad(ArgProblem::Missing),
        Some((sq, n)) if n == rest.len() => ok(Arg::Square(sq)),
        Some((_, n)) => bad(ArgProblem::TooMany(rest[n..].join(" "))),
        None => bad(ArgProblem::NoSquare(rest.join(" "))),
    };
    match name {
        PlayerAction::Square | PlayerAction::Moves => square_only(),
        PlayerAction::Attackers | PlayerAction::Defenders => match args.square(rest) {
            _ if rest.is_empty() => bad(ArgProblem::Missing),
            Some((square, n)) if n == rest.len() => ok(Arg::SquareSide(square, None)),
            Some((square, n)) if n + 1 == rest.len() => match args.side(rest[n]) {
                Some(side) => ok(Arg::SquareSide(square, Some(side))),
                None => bad(ArgProblem::NoSide(rest[n].to_owned())),
            },
            Some((_, n)) => bad(ArgProblem::TooMany(rest[n + 1..].join(" "))),
            None => bad(ArgProblem::NoSquare(rest.join(" "))),
        },
        PlayerAction::Pieces => {
            let mut side = Side::Mine;
            let mut role = None;
            for w in rest {
                if let Some(s) = args.side(w) {
                    side = s;
                } else if let Some(r) = args.role(w) {
                    role = Some(r);
                } else {
                    return bad(ArgProblem::NoPieceOrSide((*w).to_owned()));
                }
            }
            ok(Arg::Pieces { side, role })
        }
        PlayerAction::Rank => match rest {
            [] => bad(ArgProblem::Missing),
            [w] => args.rank(w).map_or_else(
                || bad(ArgProblem::NoRank((*w).to_owned())),
                |r| ok(Arg::Rank(r)),
            ),
            [_, more @ ..] => bad(ArgProblem::TooMany(more.join(" "))),
        },
        PlayerAction::File => match rest {
            [] => bad(ArgProblem::Missing),
            [w] => args.file(w).map_or_else(
                || bad(ArgProblem::NoFile((*w).to_owned())),
                |f| ok(Arg::File(f)),
            ),
            [_, more @ ..] => bad(ArgProblem::TooMany(more.join(" "))),
        },
        PlayerAction::Last => match rest {
            [] => ok(Arg::Count(1)),
            [n] => match n.parse::<usize>() {
                Ok(n) if (1..=1000).contains(&n) => ok(Arg::Count(n)),
                _ => bad(ArgProblem::NoCount((*n).to_owned())),
            },
            [_, more @ ..] => bad(ArgProblem::TooMany(more.join(" "))),
        },
        PlayerAction::Claim | PlayerAction::Goto | PlayerAction::Game | PlayerAction::Find => {
            ok(match rest {
                [] => Arg::None,
                _ => Arg::Text(rest.join(" ")),
            })
        }
        PlayerAction::Export => match rest {
            [] => ok(Arg::None),
            [w] => match ExportFormat::from_name(w) {
                Some(f) => ok(Arg::Format(f)),
                None if w.contains(['.', '/', '\\']) => ok(Arg::Path((*w).to_owned())),
                None => bad(ArgProblem::NoFormat((*w).to_owned())),
            },
            [_, more @ ..] => bad(ArgProblem::TooMany(more.join(" "))),
        },
        PlayerAction::Time => {
            let q = match rest {
                [] => Some(TimeQuery::Both),
                [w] => match argument(w, &[Word::Moves, Word::Last, Word::Both]) {
                    Some(Word::Moves) => Some(TimeQuery::Moves),
                    Some(Word::Last) => Some(TimeQuery::Last),
                    Some(_) => Some(TimeQuery::Both),
                    None => args.side(w).map(TimeQuery::Side),
                },
                _ => None,
            };
            match (q, rest) {
                (Some(q), _) => ok(Arg::Time(q)),
                (None, [w]) => bad(ArgProblem::NoTimeQuery((*w).to_owned())),
                (None, _) => bad(ArgProblem::TooMany(rest[1..].join(" "))),
            }
        }
        PlayerAction::Arbiter => {
            // The operation's word in any language (`add`, `dazu`,
            // `aggiungi`, `πρόσθεσε`), then its own arguments.
            const OPS: [Word; 8] = [
                Word::Stop,
                Word::Start,
                Word::Add,
                Word::Remove,
                Word::Moves,
                Word::Illegal,
                Word::Result,
                Word::Code,
            ];
            let cmd = |op| ok(Arg::Arbiter(op));
            let Some((w, more)) = rest.split_first() else {
                return bad(ArgProblem::Missing);
            };
            let Some(op) = argument(w, &OPS) else {
                return bad(ArgProblem::NoArbiterOp((*w).to_owned()));
            };
            let side_and_time = |side: &str, t: &str| match (args.side(side), minutes(t)) {
                (None, _) => Err(bad(ArgProblem::NoSide(side.to_owned()))),
                (_, None) => Err(bad(ArgProblem::NoMinutes(t.to_owned()))),
                (Some(s), Some(d)) => Ok((s, d)),
            };
            match (op, more) {
                (Word::Stop, []) => cmd(ArbiterOp::Stop),
                (Word::Code, []) => cmd(ArbiterOp::Code),
                (Word::Start, []) => cmd(ArbiterOp::Start),
                (Word::Add, [side, t]) => {
                    side_and_time(side, t).map_or_else(|e| e, |(s, d)| cmd(ArbiterOp::Add(s, d)))
                }
                (Word::Remove, [side, t]) => {
                    side_and_time(side, t).map_or_else(|e| e, |(s, d)| cmd(ArbiterOp::Remove(s, d)))
                }
                (Word::Moves, [n]) => n.parse().map_or_else(
                    |_| bad(ArgProblem::NoCount((*n).to_owned())),
                    |n| cmd(ArbiterOp::Moves(n)),
                ),
                (Word::Illegal, [side]) => args.side(side).map_or_else(
                    || bad(ArgProblem::NoSide((*side).to_owned())),
                    |s| cmd(ArbiterOp::Illegal(s)),
                ),
                (Word::Result, [r]) => match *r {
                    "1-0" => cmd(ArbiterOp::Result(Some(Color::White))),
                    "0-1" => cmd(ArbiterOp::Result(Some(Color::Black))),
                    "1/2-1/2" | "½-½" => cmd(ArbiterOp::Result(None)),
                    r => argument(r, &[Word::Draw]).map_or_else(
                        || bad(ArgProblem::NoResult(r.to_owned())),
                        |_| cmd(ArbiterOp::Result(None)),
                    ),
                },
                // Stop and start take nothing more; the others their words.
                (Word::Stop | Word::Start | Word::Code, extra) => {
                    bad(ArgProblem::TooMany(extra.join(" ")))
                }
                (Word::Add | Word::Remove, [_, _, extra @ ..])
                | (Word::Moves | Word::Illegal | Word::Result, [_, extra @ ..])
                    if !extra.is_empty() =>
                {
                    bad(ArgProblem::TooMany(extra.join(" ")))
                }
                _ => bad(ArgProblem::Missing),
            }
        }
        // `engine` or `engine restart` (in any of the three languages).
        PlayerAction::Engine => match rest {
            [] => ok(Arg::None),
            [w] if argument(w, &[Word::Restart]).is_some() => ok(Arg::None),
            [_, ..] => bad(ArgProblem::TooMany(rest.join(" "))),
        },
        PlayerAction::Help => match rest {
            [] => ok(Arg::None),
            [w] => keymap.command(w).map_or_else(
                || bad(ArgProblem::NoCommand((*w).to_owned())),
                |a| ok(Arg::Action(a)),
            ),
            [_, more @ ..] => bad(ArgProblem::TooMany(more.join(" "))),
        },
        // The text as typed (its case and spacing), after the word.
        PlayerAction::Say if !rest.is_empty() => {
            let text = line.trim_start().get(first.len()..).unwrap_or("").trim();
            ok(Arg::Text(text.to_owned()))
        }
        _ if rest.is_empty() => ok(Arg::None),
        _ => bad(ArgProblem::TooMany(rest.join(" "))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(action: PlayerAction, arg: Arg) -> Input {
        Input::Request(Request::new(action, arg))
    }
    use crate::words::vocab::{Lang, builtin, builtin_appendix_d};

    fn read(line: &str) -> Input {
        let d = builtin_appendix_d().moves;
        let en = builtin(Lang::En).moves;
        let de = builtin(Lang::De).moves;
        let vocabularies = [&d, &en, &de];
        read_line(
            line,
            &Keymap::builtin(),
            &ArgReader {
                vocabularies: &vocabularies,
            },
        )
    }

    #[test]
    fn export_reads_its_format_and_names_a_wrong_one() {
        assert_eq!(read("save"), req(PlayerAction::Export, Arg::None));
        assert_eq!(
            read("save Games/Final.pgn"),
            req(PlayerAction::Export, Arg::Path("Games/Final.pgn".into()))
        );
        assert_eq!(
            read("export BRF"),
            req(PlayerAction::Export, Arg::Format(ExportFormat::Brf))
        );
        assert_eq!(
            read("save foo"),
            Input::BadArguments {
                command: PlayerAction::Export,
                problem: ArgProblem::NoFormat("foo".into()),
            }
        );
        assert_eq!(
            read("save pgn now"),
            Input::BadArguments {
                command: PlayerAction::Export,
                problem: ArgProblem::TooMany("now".into()),
            }
        );
    }

    #[test]
    fn clock_questions_and_arbiter_functions() {
        assert_eq!(
            read("time"),
            req(PlayerAction::Time, Arg::Time(TimeQuery::Both))
        );
        assert_eq!(
            read("clock mine"),
            req(PlayerAction::Time, Arg::Time(TimeQuery::Side(Side::Mine)))
        );
        assert_eq!(
            read("time theirs"),
            req(PlayerAction::Time, Arg::Time(TimeQuery::Side(Side::Theirs)))
        );
        assert_eq!(
            read("time moves"),
            req(PlayerAction::Time, Arg::Time(TimeQuery::Moves))
        );
        assert_eq!(
            read("time last"),
            req(PlayerAction::Time, Arg::Time(TimeQuery::Last))
        );
        assert_eq!(
            read("time soon"),
            Input::BadArguments {
                command: PlayerAction::Time,
                problem: ArgProblem::NoTimeQuery("soon".into()),
            }
        );
        assert_eq!(
            read("arbiter add white 2"),
            req(
                PlayerAction::Arbiter,
                Arg::Arbiter(ArbiterOp::Add(
                    Side::Colour(Color::White),
                    std::time::Duration::from_secs(120)
                ))
            )
        );
        assert_eq!(
            read("arbiter remove black 1:30"),
            req(
                PlayerAction::Arbiter,
                Arg::Arbiter(ArbiterOp::Remove(
                    Side::Colour(Color::Black),
                    std::time::Duration::from_secs(90)
                ))
            )
        );
        assert_eq!(
            read("arbiter moves 30"),
            req(PlayerAction::Arbiter, Arg::Arbiter(ArbiterOp::Moves(30)))
        );
        assert_eq!(
            read("arbiter result 0-1"),
            req(
                PlayerAction::Arbiter,
                Arg::Arbiter(ArbiterOp::Result(Some(Color::Black)))
            )
        );
        assert_eq!(
            read("arbiter illegal theirs"),
            req(
                PlayerAction::Arbiter,
                Arg::Arbiter(ArbiterOp::Illegal(Side::Theirs))
            )
        );
        assert!(matches!(
            read("arbiter add white 0"),
            Input::BadArguments { .. }
        ));
        assert!(matches!(read("arbiter"), Input::BadArguments { .. }));
        // A wrong word is named with what was expected.
        let problem = |line: &str| match read(line) {
            Input::BadArguments { problem, .. } => problem,
            other => panic!("{line}: {other:?}"),
        };
        assert_eq!(
            problem("arbiter foo"),
            ArgProblem::NoArbiterOp("foo".into())
        );
        assert_eq!(
            problem("arbiter add purple 3"),
            ArgProblem::NoSide("purple".into())
        );
        assert_eq!(
            problem("arbiter remove white x"),
            ArgProblem::NoMinutes("x".into())
        );
        assert_eq!(
            problem("arbiter result maybe"),
            ArgProblem::NoResult("maybe".into())
        );
        assert_eq!(
            problem("arbiter illegal red"),
            ArgProblem::NoSide("red".into())
        );
        assert_eq!(
            problem("arbiter stop now"),
            ArgProblem::TooMany("now".into())
        );
        assert_eq!(
            problem("arbiter add white 2 more"),
            ArgProblem::TooMany("more".into())
        );
        assert_eq!(problem("arbiter add white"), ArgProblem::Missing);
    }

    #[test]
    fn squares_in_every_form() {
        for s in [
            "square f3",
            "sq F3",
            "what Felix drei",
            "square felix 3",
            "square f drei",
        ] {
            assert_eq!(
                read(s),
                req(PlayerAction::Square, Arg::Square(Square::F3)),
                "{s}"
            );
        }
        assert_eq!(
            read("square Hector fünf"),
            req(PlayerAction::Square, Arg::Square(Square::H5))
        );
        assert_eq!(
            read("square hector fuenf"),
            req(PlayerAction::Square, Arg::Square(Square::H5))
        );
    }

    #[test]
    fn moves_are_passed_on() {
        assert_eq!(read("Nf3"), Input::Move("Nf3".into()));
        assert_eq!(
            read("  Springer Felix drei "),
            Input::Move("Springer Felix drei".into())
        );
        assert_eq!(read("   "), Input::Empty);
    }

    #[test]
    fn pieces_with_side_and_kind() {
        assert_eq!(
            read("pieces"),
            req(
                PlayerAction::Pieces,
                Arg::Pieces {
                    side: Side::Mine,
                    role: None
                }
            )
        );
        assert_eq!(
            read("pieces black Springer"),
            req(
                PlayerAction::Pieces,
                Arg::Pieces {
                    side: Side::Colour(Color::Black),
                    role: Some(Role::Knight)
                }
            )
        );
        assert_eq!(
            read("pieces theirs knight"),
            req(
                PlayerAction::Pieces,
                Arg::Pieces {
                    side: Side::Theirs,
                    role: Some(Role::Knight)
                }
            )
        );
    }

    #[test]
    fn ranks_files_last_claim() {
        assert_eq!(
            read("rank vier"),
            req(PlayerAction::Rank, Arg::Rank(Rank::Fourth))
        );
        assert_eq!(
            read("rank 4"),
            req(PlayerAction::Rank, Arg::Rank(Rank::Fourth))
        );
        assert_eq!(
            read("file Eva"),
            req(PlayerAction::File, Arg::File(File::E))
        );
        assert_eq!(read("last"), req(PlayerAction::Last, Arg::Count(1)));
        assert_eq!(read("last 6"), req(PlayerAction::Last, Arg::Count(6)));
        assert_eq!(read("claim"), req(PlayerAction::Claim, Arg::None));
        assert_eq!(
            read("say  Good luck,  Mary! "),
            req(PlayerAction::Say, Arg::Text("Good luck,  Mary!".into()))
        );
        assert_eq!(read("say"), req(PlayerAction::Say, Arg::None));
        assert_eq!(
            read("claim Springer Felix drei"),
            req(PlayerAction::Claim, Arg::Text("Springer Felix drei".into()))
        );
    }

    #[test]
    fn bad_arguments_are_reported_not_read_as_moves() {
        assert_eq!(
            read("square z9"),
            Input::BadArguments {
                command: PlayerAction::Square,
                problem: ArgProblem::NoSquare("z9".into())
            }
        );
        assert!(matches!(read("rank"), Input::BadArguments { .. }));
        assert!(matches!(read("last -1"), Input::BadArguments { .. }));
        assert!(matches!(read("help me"), Input::BadArguments { .. }));
        assert!(matches!(
            read("attackers e4 purple"),
            Input::BadArguments { .. }
        ));
    }

    #[test]
    fn bad_arguments_say_what_was_wrong() {
        let bad = |command, problem| Input::BadArguments { command, problem };
        assert_eq!(
            read("rank 9"),
            bad(PlayerAction::Rank, ArgProblem::NoRank("9".into()))
        );
        assert_eq!(read("rank"), bad(PlayerAction::Rank, ArgProblem::Missing));
        assert_eq!(
            read("file k"),
            bad(PlayerAction::File, ArgProblem::NoFile("k".into()))
        );
        assert_eq!(
            read("rank 4 5"),
            bad(PlayerAction::Rank, ArgProblem::TooMany("5".into()))
        );
        assert_eq!(
            read("last many"),
            bad(PlayerAction::Last, ArgProblem::NoCount("many".into()))
        );
        assert_eq!(
            read("attackers e4 purple"),
            bad(PlayerAction::Attackers, ArgProblem::NoSide("purple".into()))
        );
        assert_eq!(
            read("pieces purple"),
            bad(
                PlayerAction::Pieces,
                ArgProblem::NoPieceOrSide("purple".into())
            )
        );
        assert_eq!(
            read("help me"),
            bad(PlayerAction::Help, ArgProblem::NoCommand("me".into()))
        );
        assert_eq!(
            read("material now"),
            bad(PlayerAction::Material, ArgProblem::TooMany("now".into()))
        );
    }

    #[test]
    fn help_on_one_command_and_defenders_of_a_side() {
        assert_eq!(
            read("help rank"),
            req(PlayerAction::Help, Arg::Action(PlayerAction::Rank))
        );
        assert_eq!(
            read("help reihe"),
            req(PlayerAction::Help, Arg::Action(PlayerAction::Rank))
        );
        assert_eq!(
            read("defenders e4 black"),
            req(
                PlayerAction::Defenders,
                Arg::SquareSide(Square::E4, Some(Side::Colour(Color::Black)))
            )
        );
    }
}
