//! A typed line read as a command (through the keymap) with typed
//! arguments, or passed on as a move.

use shakmaty::{Color, File, Rank, Role, Square};

use crate::action::PlayerAction;
use crate::keymap::Keymap;
use crate::scoresheet::ExportFormat;
use crate::words::arguments::{Arg, argument};
use crate::words::vocab::MoveWords;
use crate::words::{fold, role_named};

/// Whose pieces a command is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Mine,
    Theirs,
    Colour(Color),
}

/// An [`PlayerAction`] asked for on a typed line, with its arguments checked.
/// Actions without arguments are [`Command::Do`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `say TEXT`: a line for the lichess players' chat, as typed.
    Say(String),
    Square(Square),
    Pieces {
        side: Side,
        role: Option<Role>,
    },
    Rank(Rank),
    File(File),
    Attackers {
        square: Square,
        side: Option<Side>,
    },
    Defenders {
        square: Square,
        side: Option<Side>,
    },
    Moves(Square),
    Last(usize),
    /// A claim, with the intended move's text if one was given.
    Claim(Option<String>),
    /// Save the scoresheet, in the format named (PGN when none is).
    Export(Option<ExportFormat>),
    /// Save the scoresheet in this file (`save game.pgn`): a name with a
    /// dot or a slash, its format by its ending (PGN when none fits).
    ExportTo(String),
    /// A review action with its argument (`goto N`, `game N`, `find TEXT`).
    Review(PlayerAction, Option<String>),
    /// A question to the clock.
    Time(TimeQuery),
    /// An arbiter function (carried out after a confirmation).
    Arbiter(ArbiterOp),
    /// The help of one command (`help rank`).
    HelpOn(PlayerAction),
    /// An action that takes no arguments.
    Do(PlayerAction),
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
    Command(Command),
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
        match argument(word, &Arg::SIDES)? {
            Arg::Mine => Some(Side::Mine),
            Arg::Theirs => Some(Side::Theirs),
            Arg::White => Some(Side::Colour(Color::White)),
            Arg::Black => Some(Side::Colour(Color::Black)),
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
    let square_only = |make: fn(Square) -> Command| match args.square(rest) {
        _ if rest.is_empty() => bad(ArgProblem::Missing),
        Some((sq, n)) if n == rest.len() => Input::Command(make(sq)),
        Some((_, n)) => bad(ArgProblem::TooMany(rest[n..].join(" "))),
        None => bad(ArgProblem::NoSquare(rest.join(" "))),
    };
    match name {
        PlayerAction::Square => square_only(Command::Square),
        PlayerAction::Moves => square_only(Command::Moves),
        PlayerAction::Attackers | PlayerAction::Defenders => {
            let make = |square, side| match name {
                PlayerAction::Attackers => Command::Attackers { square, side },
                _ => Command::Defenders { square, side },
            };
            match args.square(rest) {
                _ if rest.is_empty() => bad(ArgProblem::Missing),
                Some((square, n)) if n == rest.len() => Input::Command(make(square, None)),
                Some((square, n)) if n + 1 == rest.len() => match args.side(rest[n]) {
                    Some(side) => Input::Command(make(square, Some(side))),
                    None => bad(ArgProblem::NoSide(rest[n].to_owned())),
                },
                Some((_, n)) => bad(ArgProblem::TooMany(rest[n + 1..].join(" "))),
                None => bad(ArgProblem::NoSquare(rest.join(" "))),
            }
        }
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
            Input::Command(Command::Pieces { side, role })
        }
        PlayerAction::Rank => match rest {
            [] => bad(ArgProblem::Missing),
            [w] => args.rank(w).map_or_else(
                || bad(ArgProblem::NoRank((*w).to_owned())),
                |r| Input::Command(Command::Rank(r)),
            ),
            [_, more @ ..] => bad(ArgProblem::TooMany(more.join(" "))),
        },
        PlayerAction::File => match rest {
            [] => bad(ArgProblem::Missing),
            [w] => args.file(w).map_or_else(
                || bad(ArgProblem::NoFile((*w).to_owned())),
                |f| Input::Command(Command::File(f)),
            ),
            [_, more @ ..] => bad(ArgProblem::TooMany(more.join(" "))),
        },
        PlayerAction::Last => match rest {
            [] => Input::Command(Command::Last(1)),
            [n] => match n.parse::<usize>() {
                Ok(n) if (1..=1000).contains(&n) => Input::Command(Command::Last(n)),
                _ => bad(ArgProblem::NoCount((*n).to_owned())),
            },
            [_, more @ ..] => bad(ArgProblem::TooMany(more.join(" "))),
        },
        PlayerAction::Claim => {
            Input::Command(Command::Claim((!rest.is_empty()).then(|| rest.join(" "))))
        }
        PlayerAction::Export => match rest {
            [] => Input::Command(Command::Export(None)),
            [w] => match ExportFormat::from_name(w) {
                Some(f) => Input::Command(Command::Export(Some(f))),
                None if w.contains(['.', '/', '\\']) => {
                    Input::Command(Command::ExportTo((*w).to_owned()))
                }
                None => bad(ArgProblem::NoFormat((*w).to_owned())),
            },
            [_, more @ ..] => bad(ArgProblem::TooMany(more.join(" "))),
        },
        PlayerAction::Goto | PlayerAction::Game | PlayerAction::Find => Input::Command(
            Command::Review(name, (!rest.is_empty()).then(|| rest.join(" "))),
        ),
        PlayerAction::Time => {
            let q = match rest {
                [] => Some(TimeQuery::Both),
                [w] => match argument(w, &[Arg::Moves, Arg::Last, Arg::Both]) {
                    Some(Arg::Moves) => Some(TimeQuery::Moves),
                    Some(Arg::Last) => Some(TimeQuery::Last),
                    Some(_) => Some(TimeQuery::Both),
                    None => args.side(w).map(TimeQuery::Side),
                },
                _ => None,
            };
            match (q, rest) {
                (Some(q), _) => Input::Command(Command::Time(q)),
                (None, [w]) => bad(ArgProblem::NoTimeQuery((*w).to_owned())),
                (None, _) => bad(ArgProblem::TooMany(rest[1..].join(" "))),
            }
        }
        PlayerAction::Arbiter => {
            // The operation's word in any language (`add`, `dazu`,
            // `aggiungi`, `πρόσθεσε`), then its own arguments.
            const OPS: [Arg; 7] = [
                Arg::Stop,
                Arg::Start,
                Arg::Add,
                Arg::Remove,
                Arg::Moves,
                Arg::Illegal,
                Arg::Result,
            ];
            let cmd = |op| Input::Command(Command::Arbiter(op));
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
                (Arg::Stop, []) => cmd(ArbiterOp::Stop),
                (Arg::Start, []) => cmd(ArbiterOp::Start),
                (Arg::Add, [side, t]) => {
                    side_and_time(side, t).map_or_else(|e| e, |(s, d)| cmd(ArbiterOp::Add(s, d)))
                }
                (Arg::Remove, [side, t]) => {
                    side_and_time(side, t).map_or_else(|e| e, |(s, d)| cmd(ArbiterOp::Remove(s, d)))
                }
                (Arg::Moves, [n]) => n.parse().map_or_else(
                    |_| bad(ArgProblem::NoCount((*n).to_owned())),
                    |n| cmd(ArbiterOp::Moves(n)),
                ),
                (Arg::Illegal, [side]) => args.side(side).map_or_else(
                    || bad(ArgProblem::NoSide((*side).to_owned())),
                    |s| cmd(ArbiterOp::Illegal(s)),
                ),
                (Arg::Result, [r]) => match *r {
                    "1-0" => cmd(ArbiterOp::Result(Some(Color::White))),
                    "0-1" => cmd(ArbiterOp::Result(Some(Color::Black))),
                    "1/2-1/2" | "½-½" => cmd(ArbiterOp::Result(None)),
                    r => argument(r, &[Arg::Draw]).map_or_else(
                        || bad(ArgProblem::NoResult(r.to_owned())),
                        |_| cmd(ArbiterOp::Result(None)),
                    ),
                },
                // Stop and start take nothing more; the others their words.
                (Arg::Stop | Arg::Start, extra) => bad(ArgProblem::TooMany(extra.join(" "))),
                (Arg::Add | Arg::Remove, [_, _, extra @ ..])
                | (Arg::Moves | Arg::Illegal | Arg::Result, [_, extra @ ..])
                    if !extra.is_empty() =>
                {
                    bad(ArgProblem::TooMany(extra.join(" ")))
                }
                _ => bad(ArgProblem::Missing),
            }
        }
        // `engine` or `engine restart` (in any of the three languages).
        PlayerAction::Engine => match rest {
            [] => Input::Command(Command::Do(PlayerAction::Engine)),
            [w] if argument(w, &[Arg::Restart]).is_some() => {
                Input::Command(Command::Do(PlayerAction::Engine))
            }
            [_, ..] => bad(ArgProblem::TooMany(rest.join(" "))),
        },
        PlayerAction::Help => match rest {
            [] => Input::Command(Command::Do(PlayerAction::Help)),
            [w] => keymap.command(w).map_or_else(
                || bad(ArgProblem::NoCommand((*w).to_owned())),
                |a| Input::Command(Command::HelpOn(a)),
            ),
            [_, more @ ..] => bad(ArgProblem::TooMany(more.join(" "))),
        },
        // The text as typed (its case and spacing), after the word.
        PlayerAction::Say if !rest.is_empty() => {
            let text = line.trim_start().get(first.len()..).unwrap_or("").trim();
            Input::Command(Command::Say(text.to_owned()))
        }
        other if rest.is_empty() => Input::Command(Command::Do(other)),
        _ => bad(ArgProblem::TooMany(rest.join(" "))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
        assert_eq!(read("save"), Input::Command(Command::Export(None)));
        assert_eq!(
            read("save Games/Final.pgn"),
            Input::Command(Command::ExportTo("Games/Final.pgn".into()))
        );
        assert_eq!(
            read("export BRF"),
            Input::Command(Command::Export(Some(ExportFormat::Brf)))
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
        assert_eq!(read("time"), Input::Command(Command::Time(TimeQuery::Both)));
        assert_eq!(
            read("clock mine"),
            Input::Command(Command::Time(TimeQuery::Side(Side::Mine)))
        );
        assert_eq!(
            read("time theirs"),
            Input::Command(Command::Time(TimeQuery::Side(Side::Theirs)))
        );
        assert_eq!(
            read("time moves"),
            Input::Command(Command::Time(TimeQuery::Moves))
        );
        assert_eq!(
            read("time last"),
            Input::Command(Command::Time(TimeQuery::Last))
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
            Input::Command(Command::Arbiter(ArbiterOp::Add(
                Side::Colour(Color::White),
                std::time::Duration::from_secs(120)
            )))
        );
        assert_eq!(
            read("arbiter remove black 1:30"),
            Input::Command(Command::Arbiter(ArbiterOp::Remove(
                Side::Colour(Color::Black),
                std::time::Duration::from_secs(90)
            )))
        );
        assert_eq!(
            read("arbiter moves 30"),
            Input::Command(Command::Arbiter(ArbiterOp::Moves(30)))
        );
        assert_eq!(
            read("arbiter result 0-1"),
            Input::Command(Command::Arbiter(ArbiterOp::Result(Some(Color::Black))))
        );
        assert_eq!(
            read("arbiter illegal theirs"),
            Input::Command(Command::Arbiter(ArbiterOp::Illegal(Side::Theirs)))
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
            assert_eq!(read(s), Input::Command(Command::Square(Square::F3)), "{s}");
        }
        assert_eq!(
            read("square Hector fünf"),
            Input::Command(Command::Square(Square::H5))
        );
        assert_eq!(
            read("square hector fuenf"),
            Input::Command(Command::Square(Square::H5))
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
            Input::Command(Command::Pieces {
                side: Side::Mine,
                role: None
            })
        );
        assert_eq!(
            read("pieces black Springer"),
            Input::Command(Command::Pieces {
                side: Side::Colour(Color::Black),
                role: Some(Role::Knight)
            })
        );
        assert_eq!(
            read("pieces theirs knight"),
            Input::Command(Command::Pieces {
                side: Side::Theirs,
                role: Some(Role::Knight)
            })
        );
    }

    #[test]
    fn ranks_files_last_claim() {
        assert_eq!(
            read("rank vier"),
            Input::Command(Command::Rank(Rank::Fourth))
        );
        assert_eq!(read("rank 4"), Input::Command(Command::Rank(Rank::Fourth)));
        assert_eq!(read("file Eva"), Input::Command(Command::File(File::E)));
        assert_eq!(read("last"), Input::Command(Command::Last(1)));
        assert_eq!(read("last 6"), Input::Command(Command::Last(6)));
        assert_eq!(read("claim"), Input::Command(Command::Claim(None)));
        assert_eq!(
            read("say  Good luck,  Mary! "),
            Input::Command(Command::Say("Good luck,  Mary!".into()))
        );
        assert_eq!(read("say"), Input::Command(Command::Do(PlayerAction::Say)));
        assert_eq!(
            read("claim Springer Felix drei"),
            Input::Command(Command::Claim(Some("Springer Felix drei".into())))
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
            Input::Command(Command::HelpOn(PlayerAction::Rank))
        );
        assert_eq!(
            read("help reihe"),
            Input::Command(Command::HelpOn(PlayerAction::Rank))
        );
        assert_eq!(
            read("defenders e4 black"),
            Input::Command(Command::Defenders {
                square: Square::E4,
                side: Some(Side::Colour(Color::Black))
            })
        );
    }
}
