//! A typed line read as a command (through the keymap) with typed
//! arguments, or passed on as a move.

use shakmaty::{Color, File, Rank, Role, Square};

use crate::action::Action;
use crate::keymap::Keymap;
use crate::words::vocab::MoveWords;
use crate::words::{fold, role_named};

/// Whose pieces a command is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Mine,
    Theirs,
    Colour(Color),
}

/// An [`Action`] asked for on a typed line, with its arguments checked.
/// Actions without arguments are [`Command::Do`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
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
    /// The help of one command (`help rank`).
    HelpOn(Action),
    /// An action that takes no arguments.
    Do(Action),
}

/// What a typed line is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    Empty,
    Command(Command),
    /// A command word with arguments that did not make sense: the command
    /// and what was wrong with them.
    BadArguments {
        command: Action,
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
        let file = self.file(first)?;
        let rank = self.rank(words.get(1)?)?;
        Some((Square::from_coords(file, rank), 2))
    }

    fn role(&self, word: &str) -> Option<Role> {
        role_named(word, self.vocabularies)
    }

    fn side(&self, word: &str) -> Option<Side> {
        match fold(word).as_str() {
            "mine" | "my" | "me" | "meine" | "miei" => Some(Side::Mine),
            "theirs" | "their" | "opponent" | "gegner" => Some(Side::Theirs),
            "white" | "weiss" | "bianco" => Some(Side::Colour(Color::White)),
            "black" | "schwarz" | "nero" => Some(Side::Colour(Color::Black)),
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
        Action::Square => square_only(Command::Square),
        Action::Moves => square_only(Command::Moves),
        Action::Attackers | Action::Defenders => {
            let make = |square, side| match name {
                Action::Attackers => Command::Attackers { square, side },
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
        Action::Pieces => {
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
        Action::Rank => match rest {
            [] => bad(ArgProblem::Missing),
            [w] => args.rank(w).map_or_else(
                || bad(ArgProblem::NoRank((*w).to_owned())),
                |r| Input::Command(Command::Rank(r)),
            ),
            [_, more @ ..] => bad(ArgProblem::TooMany(more.join(" "))),
        },
        Action::File => match rest {
            [] => bad(ArgProblem::Missing),
            [w] => args.file(w).map_or_else(
                || bad(ArgProblem::NoFile((*w).to_owned())),
                |f| Input::Command(Command::File(f)),
            ),
            [_, more @ ..] => bad(ArgProblem::TooMany(more.join(" "))),
        },
        Action::Last => match rest {
            [] => Input::Command(Command::Last(1)),
            [n] => match n.parse::<usize>() {
                Ok(n) if (1..=1000).contains(&n) => Input::Command(Command::Last(n)),
                _ => bad(ArgProblem::NoCount((*n).to_owned())),
            },
            [_, more @ ..] => bad(ArgProblem::TooMany(more.join(" "))),
        },
        Action::Claim => Input::Command(Command::Claim((!rest.is_empty()).then(|| rest.join(" ")))),
        // `engine` or `engine restart` (in any of the three languages).
        Action::Engine => match rest {
            [] => Input::Command(Command::Do(Action::Engine)),
            [w] if matches!(
                fold(w).as_str(),
                "restart" | "start" | "neustart" | "neu" | "riavvia" | "riavvio"
            ) =>
            {
                Input::Command(Command::Do(Action::Engine))
            }
            [_, ..] => bad(ArgProblem::TooMany(rest.join(" "))),
        },
        Action::Help => match rest {
            [] => Input::Command(Command::Do(Action::Help)),
            [w] => keymap.command(w).map_or_else(
                || bad(ArgProblem::NoCommand((*w).to_owned())),
                |a| Input::Command(Command::HelpOn(a)),
            ),
            [_, more @ ..] => bad(ArgProblem::TooMany(more.join(" "))),
        },
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
            read("claim Springer Felix drei"),
            Input::Command(Command::Claim(Some("Springer Felix drei".into())))
        );
    }

    #[test]
    fn bad_arguments_are_reported_not_read_as_moves() {
        assert_eq!(
            read("square z9"),
            Input::BadArguments {
                command: Action::Square,
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
            bad(Action::Rank, ArgProblem::NoRank("9".into()))
        );
        assert_eq!(read("rank"), bad(Action::Rank, ArgProblem::Missing));
        assert_eq!(
            read("file k"),
            bad(Action::File, ArgProblem::NoFile("k".into()))
        );
        assert_eq!(
            read("rank 4 5"),
            bad(Action::Rank, ArgProblem::TooMany("5".into()))
        );
        assert_eq!(
            read("last many"),
            bad(Action::Last, ArgProblem::NoCount("many".into()))
        );
        assert_eq!(
            read("attackers e4 purple"),
            bad(Action::Attackers, ArgProblem::NoSide("purple".into()))
        );
        assert_eq!(
            read("pieces purple"),
            bad(Action::Pieces, ArgProblem::NoPieceOrSide("purple".into()))
        );
        assert_eq!(
            read("help me"),
            bad(Action::Help, ArgProblem::NoCommand("me".into()))
        );
        assert_eq!(
            read("material now"),
            bad(Action::Material, ArgProblem::TooMany("now".into()))
        );
    }

    #[test]
    fn help_on_one_command_and_defenders_of_a_side() {
        assert_eq!(
            read("help rank"),
            Input::Command(Command::HelpOn(Action::Rank))
        );
        assert_eq!(
            read("help reihe"),
            Input::Command(Command::HelpOn(Action::Rank))
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
