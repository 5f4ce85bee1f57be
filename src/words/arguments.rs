//! The words of a command's arguments (`time mine`, `arbiter add`,
//! `engine restart`), from `[arguments]` in the message voices files: the
//! words of every built-in language are understood, English always among
//! them, and `help` names those of the player's language.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use super::fold::fold;
use super::vocab::{Lang, builtin};

/// One argument word's meaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Arg {
    Mine,
    Theirs,
    White,
    Black,
    Both,
    Moves,
    Last,
    Stop,
    Start,
    Add,
    Remove,
    Illegal,
    Result,
    Draw,
    Restart,
    Code,
}

impl Arg {
    /// Every argument, with its key in `[arguments]`.
    pub const ALL: [(Arg, &'static str); 16] = [
        (Arg::Mine, "mine"),
        (Arg::Theirs, "theirs"),
        (Arg::White, "white"),
        (Arg::Black, "black"),
        (Arg::Both, "both"),
        (Arg::Moves, "moves"),
        (Arg::Last, "last"),
        (Arg::Stop, "stop"),
        (Arg::Start, "start"),
        (Arg::Add, "add"),
        (Arg::Remove, "remove"),
        (Arg::Illegal, "illegal"),
        (Arg::Result, "result"),
        (Arg::Draw, "draw"),
        (Arg::Restart, "restart"),
        (Arg::Code, "code"),
    ];

    /// The key of this argument in `[arguments]`.
    pub fn key(self) -> &'static str {
        Arg::ALL
            .iter()
            .find(|(a, _)| *a == self)
            .map_or("", |(_, k)| k)
    }

    /// The sides a side argument may name.
    pub const SIDES: [Arg; 4] = [Arg::Mine, Arg::Theirs, Arg::White, Arg::Black];
}

/// `[arguments]` of a voices file: each argument key and its words.
pub type ArgumentWords = BTreeMap<String, Vec<String>>;

/// Every built-in language's words, folded, with their meaning.
fn known() -> &'static [(String, Arg)] {
    static KNOWN: OnceLock<Vec<(String, Arg)>> = OnceLock::new();
    KNOWN.get_or_init(|| {
        let mut out = Vec::new();
        for lang in Lang::ALL {
            let words = builtin(lang).arguments;
            for (arg, key) in Arg::ALL {
                for w in words.get(key).into_iter().flatten() {
                    out.push((fold(w), arg));
                }
            }
        }
        out
    })
}

/// The argument `word` names, among `allowed`, in the words of any
/// built-in language (case, umlauts and accents ignored).
pub fn argument(word: &str, allowed: &[Arg]) -> Option<Arg> {
    let w = fold(word);
    known()
        .iter()
        .find(|(k, a)| *k == w && allowed.contains(a))
        .map(|(_, a)| *a)
}

/// The word `help` says for `arg` in `lang`: its first word there.
pub fn word_of(lang: Lang, arg: Arg) -> String {
    builtin(lang)
        .arguments
        .get(arg.key())
        .and_then(|w| w.first().cloned())
        .unwrap_or_else(|| arg.key().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_has_words_for_every_argument() {
        for lang in Lang::ALL {
            let words = builtin(lang).arguments;
            for (_, key) in Arg::ALL {
                let list = words.get(key).map(Vec::as_slice).unwrap_or_default();
                assert!(!list.is_empty(), "{} has no word for {key}", lang.code());
            }
            assert!(
                words.keys().all(|k| Arg::ALL.iter().any(|(_, a)| a == k)),
                "{}: unknown argument key",
                lang.code()
            );
        }
    }

    #[test]
    fn words_of_every_language_are_understood() {
        assert_eq!(argument("mine", &Arg::SIDES), Some(Arg::Mine));
        assert_eq!(argument("MEINE", &Arg::SIDES), Some(Arg::Mine));
        assert_eq!(argument("Weiß", &Arg::SIDES), Some(Arg::White));
        assert_eq!(argument("δικά", &Arg::SIDES), Some(Arg::Mine));
        assert_eq!(argument("ultima", &[Arg::Last]), Some(Arg::Last));
        assert_eq!(argument("κινήσεις", &[Arg::Moves]), Some(Arg::Moves));
        assert_eq!(argument("aggiungi", &[Arg::Add]), Some(Arg::Add));
        assert_eq!(argument("neustart", &[Arg::Restart]), Some(Arg::Restart));
        // Only among the arguments the command takes.
        assert_eq!(argument("mine", &[Arg::Moves]), None);
        assert_eq!(argument("purple", &Arg::SIDES), None);
    }

    #[test]
    fn help_names_the_argument_words_of_the_players_language() {
        let time = [
            Arg::Mine,
            Arg::Theirs,
            Arg::White,
            Arg::Black,
            Arg::Moves,
            Arg::Last,
        ];
        let arbiter = [
            Arg::Stop,
            Arg::Start,
            Arg::Add,
            Arg::Remove,
            Arg::Moves,
            Arg::Illegal,
            Arg::Result,
            Arg::Draw,
            Arg::Code,
        ];
        for lang in Lang::ALL {
            let messages = builtin(lang).messages;
            let words_in = |key: &str| -> Vec<String> {
                messages[key]
                    .split(|c: char| !c.is_alphanumeric())
                    .map(fold)
                    .collect()
            };
            for (key, args) in [
                ("help_time", &time[..]),
                ("help_arbiter", &arbiter[..]),
                ("help_engine", &[Arg::Restart][..]),
            ] {
                let said = words_in(key);
                for arg in args {
                    let w = fold(&word_of(lang, *arg));
                    assert!(said.contains(&w), "{} {key}: {w}", lang.code());
                    assert_eq!(argument(&w, &[*arg]), Some(*arg));
                }
                if lang != Lang::En {
                    for english in ["mine", "theirs", "last", "illegal", "remove", "restart"] {
                        assert!(
                            !said.iter().any(|w| w == english),
                            "{} {key}: {english}",
                            lang.code()
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn in_one_language_a_word_has_one_meaning_among_a_commands_arguments() {
        let groups: [&[Arg]; 3] = [
            &[
                Arg::Mine,
                Arg::Theirs,
                Arg::White,
                Arg::Black,
                Arg::Both,
                Arg::Moves,
                Arg::Last,
            ],
            &[
                Arg::Stop,
                Arg::Start,
                Arg::Add,
                Arg::Remove,
                Arg::Moves,
                Arg::Illegal,
                Arg::Result,
            ],
            &[Arg::Mine, Arg::Theirs, Arg::White, Arg::Black, Arg::Draw],
        ];
        for lang in Lang::ALL {
            let words = builtin(lang).arguments;
            for group in groups {
                let mut seen: Vec<String> = Vec::new();
                for arg in group {
                    for w in words.get(arg.key()).into_iter().flatten() {
                        let f = fold(w);
                        assert!(!seen.contains(&f), "{}: {w} twice", lang.code());
                        seen.push(f);
                    }
                }
            }
        }
    }
}
