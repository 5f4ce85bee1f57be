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
    Defenders(Square),
    Moves(Square),
    Last(usize),
    /// A claim, with the intended move's text if one was given.
    Claim(Option<String>),
    /// An action that takes no arguments.
    Do(Action),
}

/// What a typed line is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    Empty,
    Command(Command),
    /// A command word with arguments that did not make sense: the command
    /// and what was wrong, for the help sentence.
    BadArguments {
        command: Action,
        args: String,
    },
    /// Anything else: read it as a move.
    Move(String),
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
    let bad = || Input::BadArguments {
        command: name,
        args: rest.join(" "),
    };
    let square_only = |make: fn(Square) -> Command| match args.square(rest) {
        Some((sq, n)) if n == rest.len() => Input::Command(make(sq)),
        _ => bad(),
    };
    let no_args = |c: Command| {
        if rest.is_empty() {
            Input::Command(c)
        } else {
            bad()
        }
    };
    match name {
        Action::Square => square_only(Command::Square),
        Action::Defenders => square_only(Command::Defenders),
        Action::Moves => square_only(Command::Moves),
        Action::Attackers => match args.square(rest) {
            Some((square, n)) if n == rest.len() => {
                Input::Command(Command::Attackers { square, side: None })
            }
            Some((square, n)) if n + 1 == rest.len() => match args.side(rest[n]) {
                Some(side) => Input::Command(Command::Attackers {
                    square,
                    side: Some(side),
                }),
                None => bad(),
            },
            _ => bad(),
        },
        Action::Pieces => {
            let mut side = Side::Mine;
            let mut role = None;
            for w in rest {
                if let Some(s) = args.side(w) {
                    side = s;
                } else if let Some(r) = args.role(w) {
                    role = Some(r);
                } else {
                    return bad();
                }
            }
            Input::Command(Command::Pieces { side, role })
        }
        Action::Rank => match rest {
            [w] => args
                .rank(w)
                .map_or_else(bad, |r| Input::Command(Command::Rank(r))),
            _ => bad(),
        },
        Action::File => match rest {
            [w] => args
                .file(w)
                .map_or_else(bad, |f| Input::Command(Command::File(f))),
            _ => bad(),
        },
        Action::Last => match rest {
            [] => Input::Command(Command::Last(1)),
            [n] => match n.parse::<usize>() {
                Ok(n) if (1..=1000).contains(&n) => Input::Command(Command::Last(n)),
                _ => bad(),
            },
            _ => bad(),
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
            _ => bad(),
        },
        other => no_args(Command::Do(other)),
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
                args: "z9".into()
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
}
