//! Key bindings of line mode: which typed words call which [`Action`]
//! (`keymaps/line.toml`, one entry per action).  The built-in file is compiled in; a user file is
//! validated and, when broken, reported with file, line and key while the
//! built-in one is used.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use crate::action::Action;
use crate::toml_error::FileError;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct KeymapFile {
    commands: BTreeMap<String, Vec<String>>,
}

/// A keymap file that could not be used.
pub type KeymapError = FileError;

/// A command word that a player could mean as (the start of) a move: a
/// square, a file letter, castling, a short SAN move, or an Appendix D file
/// or rank word.  Such a word would hide the move, so it is refused.
fn looks_like_a_move(word: &str) -> bool {
    let w = crate::words::fold(word);
    let b = w.as_bytes();
    let file = |c: u8| (b'a'..=b'h').contains(&c);
    let rank = |c: u8| (b'1'..=b'8').contains(&c);
    let castles = ["o-o", "0-0", "oo", "00", "o-o-o", "0-0-0", "ooo", "000"];
    if castles.contains(&w.as_str()) {
        return true;
    }
    // "a", "e4", "exd5", "nf3", "sf3", "e8q" ...
    let has_square = b.windows(2).any(|p| file(p[0]) && rank(p[1]));
    if (b.len() == 1 && file(b[0])) || (b.len() <= 6 && has_square) {
        return true;
    }
    let d = crate::words::vocab::builtin_appendix_d().moves;
    d.files
        .iter()
        .chain(d.ranks.iter())
        .any(|x| crate::words::fold(x) == w)
}

#[cfg(test)]
mod move_word_tests {
    use super::*;

    #[test]
    fn words_that_are_moves_are_refused_with_the_key() {
        for w in ["e4", "a", "Nf3", "exd5", "o-o", "Anna", "eins", "e8q"] {
            assert!(looks_like_a_move(w), "{w}");
        }
        for w in ["help", "?", "q", "r", "mv", "last", "pieces", "att"] {
            assert!(!looks_like_a_move(w), "{w}");
        }
        let (name, text) = LINE_KEYMAP_SOURCE;
        let bad = text.replacen("\"material\",", "\"material\", \"e4\",", 1);
        assert_ne!(bad, text);
        let e = Keymap::parse(name, &bad).unwrap_err();
        assert_eq!(e.key.as_deref(), Some("commands.material"), "{e:?}");
        assert!(e.detail.contains("\"e4\" could be read as a move"), "{e:?}");
    }
}

/// The built-in line-mode keymap.
pub const LINE_KEYMAP_SOURCE: (&str, &str) =
    ("keymaps/line.toml", include_str!("../keymaps/line.toml"));

/// Words to commands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keymap {
    words: BTreeMap<String, Action>,
    by_command: BTreeMap<Action, Vec<String>>,
}

impl Keymap {
    /// Parse a keymap file's text; `file` names it in errors.
    pub fn parse(file: &str, text: &str) -> Result<Keymap, KeymapError> {
        let err = |line: Option<usize>, key: Option<String>, detail: String| KeymapError {
            file: file.to_owned(),
            line,
            key,
            detail,
        };
        let parsed: KeymapFile =
            toml::from_str(text).map_err(|e| FileError::from_toml(file, text, &e))?;
        let line_of_key = |key: &str| {
            text.lines()
                .position(|l| l.trim_start().starts_with(key))
                .map(|i| i + 1)
        };
        for name in parsed.commands.keys() {
            if Action::from_key(name).is_none() {
                let names: Vec<&str> = Action::ALL.iter().map(|a| a.key()).collect();
                return Err(err(
                    line_of_key(name),
                    Some(format!("commands.{name}")),
                    format!(
                        "unknown command `{name}`, expected one of {}",
                        names.join(", ")
                    ),
                ));
            }
        }
        let mut words = BTreeMap::new();
        let mut by_command = BTreeMap::new();
        for &name in Action::ALL {
            if name.key_only() && !parsed.commands.contains_key(name.key()) {
                continue;
            }
            let Some(list) = parsed.commands.get(name.key()) else {
                return Err(err(
                    line_of_key("[commands]"),
                    Some(format!("commands.{}", name.key())),
                    "missing command".to_owned(),
                ));
            };
            if list.is_empty() {
                return Err(err(
                    line_of_key(name.key()),
                    Some(format!("commands.{}", name.key())),
                    "a command needs at least one word".to_owned(),
                ));
            }
            for word in list {
                let w = word.trim().to_lowercase();
                if w.is_empty() || w.contains(char::is_whitespace) {
                    return Err(err(
                        line_of_key(name.key()),
                        Some(format!("commands.{}", name.key())),
                        format!("\"{word}\" must be one word"),
                    ));
                }
                if looks_like_a_move(&w) {
                    return Err(err(
                        line_of_key(name.key()),
                        Some(format!("commands.{}", name.key())),
                        format!("\"{word}\" could be read as a move: choose another word"),
                    ));
                }
                if let Some(other) = words.insert(w.clone(), name)
                    && other != name
                {
                    return Err(err(
                        line_of_key(name.key()),
                        Some(format!("commands.{}", name.key())),
                        format!("\"{w}\" is also a word for {}", other.key()),
                    ));
                }
            }
            by_command.insert(name, list.clone());
        }
        Ok(Keymap { words, by_command })
    }

    /// The built-in keymap; it is tested to parse (`builtin_keymap_parses`).
    #[allow(clippy::expect_used, reason = "compiled-in data, tested to parse")]
    pub fn builtin() -> Keymap {
        let (name, text) = LINE_KEYMAP_SOURCE;
        Keymap::parse(name, text).expect("built-in keymap parses (tested)")
    }

    /// Read a user keymap file.
    pub fn load(path: &Path) -> Result<Keymap, KeymapError> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| FileError::unreadable(&name, &e))?;
        Keymap::parse(&name, &text)
    }

    /// The action a word calls, if any (case-insensitive).
    pub fn command(&self, word: &str) -> Option<Action> {
        self.words.get(&word.to_lowercase()).copied()
    }

    /// The words of a command, the first being its main name.
    pub fn words(&self, name: Action) -> &[String] {
        self.by_command.get(&name).map(Vec::as_slice).unwrap_or(&[])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_keymap_parses() {
        let (name, text) = LINE_KEYMAP_SOURCE;
        let k = Keymap::parse(name, text).unwrap();
        assert_eq!(k.command("HELP"), Some(Action::Help));
        assert_eq!(k.command("q"), Some(Action::Quit));
        assert_eq!(k.command("Nf3"), None);
        for &c in Action::ALL.iter().filter(|a| !a.key_only()) {
            assert!(!k.words(c).is_empty(), "{c:?}");
        }
    }

    #[test]
    fn duplicate_word_is_reported_with_line_and_key() {
        let (_, text) = LINE_KEYMAP_SOURCE;
        let broken = text.replace("[\"flip\"]", "[\"flip\", \"help\"]");
        let e = Keymap::parse("k.toml", &broken).unwrap_err();
        assert_eq!(e.key.as_deref(), Some("commands.help"));
        let line = broken.lines().position(|l| l.starts_with("help")).unwrap() + 1;
        assert_eq!(e.line, Some(line));
        assert!(e.detail.contains("\"help\" is also a word for flip"), "{e}");
    }

    #[test]
    fn unknown_command_is_reported() {
        let (_, text) = LINE_KEYMAP_SOURCE;
        let broken = text.replace("flip      =", "flop      =");
        let e = Keymap::parse("k.toml", &broken).unwrap_err();
        assert!(e.line.is_some());
        assert!(e.to_string().contains("flop"), "{e}");
    }

    #[test]
    fn missing_command_is_reported() {
        let (_, text) = LINE_KEYMAP_SOURCE;
        let broken: String = text
            .lines()
            .filter(|l| !l.starts_with("material"))
            .map(|l| format!("{l}\n"))
            .collect();
        let e = Keymap::parse("k.toml", &broken).unwrap_err();
        assert_eq!(e.key.as_deref(), Some("commands.material"));
    }
}
