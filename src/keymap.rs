//! Key bindings of line mode: which typed words call which [`PlayerAction`]
//! (`keymaps/line.toml`, one entry per action).  The built-in file is compiled in; a user file is
//! validated and, when broken, reported with file, line and key while the
//! built-in one is used.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use crate::action::PlayerAction;
use crate::toml_error::{DataFileError, FileProblem, SettingError};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct KeymapFile {
    commands: BTreeMap<String, Vec<String>>,
    /// The words of each message language (`[language.de]`), accepted
    /// besides `[commands]` when that language is the player's.
    #[serde(default)]
    language: BTreeMap<String, BTreeMap<String, Vec<String>>>,
}

/// A keymap file that could not be used: where, and what is wrong (worded
/// by `Phraser::file_problem`).
pub type KeymapError = DataFileError;

/// A command word that a player could mean as (the start of) a move: a
/// square, a file letter, castling, a short SAN move, or an Appendix D file
/// or rank word.  Such a word would hide the move, so it is refused.
fn looks_like_a_move(word: &str) -> bool {
    // Greek file letters (α..θ, Appendix C) count as a..h.
    let w: String = crate::words::fold(word)
        .chars()
        .map(|c| match c {
            'α'..='θ' => char::from(b'a' + (u32::from(c) - u32::from('α')) as u8),
            c => c,
        })
        .collect();
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
    appendix_d_square_words().contains(&w)
}

/// The Appendix D file and rank words, folded once per process.
fn appendix_d_square_words() -> &'static [String] {
    static WORDS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    WORDS.get_or_init(|| {
        let d = &crate::words::vocab::appendix_d().moves;
        d.files
            .iter()
            .chain(d.ranks.iter())
            .map(|x| crate::words::fold(x))
            .collect()
    })
}

#[cfg(test)]
mod move_word_tests {
    use super::*;

    #[test]
    fn words_that_are_moves_are_refused_with_the_key() {
        for w in [
            "e4", "a", "Nf3", "exd5", "o-o", "Anna", "eins", "e8q", "ε4", "Ιζ3", "δxε5", "α",
        ] {
            assert!(looks_like_a_move(w), "{w}");
        }
        for w in [
            "help",
            "?",
            "q",
            "r",
            "mv",
            "last",
            "pieces",
            "att",
            "βοήθεια",
            "κομμάτια",
        ] {
            assert!(!looks_like_a_move(w), "{w}");
        }
        let (name, text) = LINE_KEYMAP_SOURCE;
        let bad = text.replacen("\"material\",", "\"material\", \"e4\",", 1);
        assert_ne!(bad, text);
        let e = Keymap::parse(name, &bad).unwrap_err();
        assert_eq!(e.key.as_deref(), Some("commands.material"), "{e:?}");
        assert_eq!(e.problem, FileProblem::MoveWord("e4".into()), "{e:?}");
    }
}

/// The built-in line-mode keymap.
pub const LINE_KEYMAP_SOURCE: (&str, &str) =
    ("keymaps/line.toml", include_str!("../keymaps/line.toml"));

/// One language's words: folded word to action, and each action's words.
type LanguageWords = (
    BTreeMap<String, PlayerAction>,
    BTreeMap<PlayerAction, Vec<String>>,
);

/// Words to commands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keymap {
    words: BTreeMap<String, PlayerAction>,
    by_command: BTreeMap<PlayerAction, Vec<String>>,
    /// Per language code: its own words (folded) and, per action, its words
    /// in the file's order (the first is the one `help` says).
    languages: BTreeMap<String, LanguageWords>,
    /// The player's language code, whose words are accepted and said.
    lang: String,
}

impl Keymap {
    /// Parse a keymap file's text; `file` names it in errors.
    pub fn parse(file: &str, text: &str) -> Result<Keymap, KeymapError> {
        let err = |line: Option<usize>, key: Option<String>, problem: FileProblem| KeymapError {
            file: file.to_owned(),
            line,
            key,
            problem,
        };
        let parsed: KeymapFile =
            toml::from_str(text).map_err(|e| DataFileError::from_toml(file, text, &e))?;
        let line_of_key = |key: &str| {
            text.lines()
                .position(|l| l.trim_start().starts_with(key))
                .map(|i| i + 1)
        };
        for name in parsed.commands.keys() {
            if PlayerAction::from_key(name).is_none() {
                return Err(err(
                    line_of_key(name),
                    Some(format!("commands.{name}")),
                    FileProblem::UnknownCommand(name.clone()),
                ));
            }
        }
        let mut words = BTreeMap::new();
        let mut by_command = BTreeMap::new();
        for &name in PlayerAction::ALL {
            if name.key_only() && !parsed.commands.contains_key(name.key()) {
                continue;
            }
            let Some(list) = parsed.commands.get(name.key()) else {
                return Err(err(
                    line_of_key("[commands]"),
                    Some(format!("commands.{}", name.key())),
                    FileProblem::MissingCommand(name.key().to_owned()),
                ));
            };
            if list.is_empty() {
                return Err(err(
                    line_of_key(name.key()),
                    Some(format!("commands.{}", name.key())),
                    FileProblem::NoWords,
                ));
            }
            for word in list {
                let w = word.trim().to_lowercase();
                if w.is_empty() || w.contains(char::is_whitespace) {
                    return Err(err(
                        line_of_key(name.key()),
                        Some(format!("commands.{}", name.key())),
                        FileProblem::NotOneWord(word.clone()),
                    ));
                }
                if looks_like_a_move(&w) {
                    return Err(err(
                        line_of_key(name.key()),
                        Some(format!("commands.{}", name.key())),
                        FileProblem::MoveWord(word.clone()),
                    ));
                }
                if let Some(other) = words.insert(w.clone(), name)
                    && other != name
                {
                    return Err(err(
                        line_of_key(name.key()),
                        Some(format!("commands.{}", name.key())),
                        FileProblem::WordTaken {
                            word: w.clone(),
                            other: other.key().to_owned(),
                        },
                    ));
                }
            }
            by_command.insert(name, list.clone());
        }
        // The `[commands]` words folded once, for the clash check of every
        // language's words.
        let folded: BTreeMap<String, PlayerAction> = words
            .iter()
            .map(|(k, a)| (crate::words::fold(k), *a))
            .collect();
        let mut languages = BTreeMap::new();
        for (code, table) in &parsed.language {
            let key = |name: &str| format!("language.{code}.{name}");
            let line = || {
                text.lines()
                    .position(|l| l.trim() == format!("[language.{code}]"))
                    .map(|i| i + 1)
            };
            // Where a word of this language is, for errors: the line of its
            // action after the language's table header.
            let line_in = |name: &str| {
                let start = line().unwrap_or(1);
                text.lines()
                    .enumerate()
                    .skip(start)
                    .find(|(_, l)| l.trim_start().starts_with(name))
                    .map(|(i, _)| i + 1)
            };
            for name in table.keys() {
                if PlayerAction::from_key(name).is_none() {
                    return Err(err(
                        line_in(name),
                        Some(key(name)),
                        FileProblem::UnknownCommand(name.clone()),
                    ));
                }
            }
            let mut own = BTreeMap::new();
            let mut lists = BTreeMap::new();
            for &name in PlayerAction::ALL {
                let Some(list) = table.get(name.key()) else {
                    if name.key_only() {
                        continue;
                    }
                    return Err(err(
                        line(),
                        Some(key(name.key())),
                        FileProblem::MissingCommand(name.key().to_owned()),
                    ));
                };
                if list.is_empty() {
                    return Err(err(
                        line_in(name.key()),
                        Some(key(name.key())),
                        FileProblem::NoWords,
                    ));
                }
                for word in list {
                    let w = crate::words::fold(word.trim());
                    let e = |problem: FileProblem| {
                        err(line_in(name.key()), Some(key(name.key())), problem)
                    };
                    if w.is_empty() || w.contains(char::is_whitespace) {
                        return Err(e(FileProblem::NotOneWord(word.clone())));
                    }
                    if looks_like_a_move(&w) {
                        return Err(e(FileProblem::MoveWord(word.clone())));
                    }
                    let clash = folded.get(&w).or_else(|| own.get(&w)).copied();
                    if let Some(other) = clash
                        && other != name
                    {
                        return Err(e(FileProblem::WordTaken {
                            word: word.clone(),
                            other: other.key().to_owned(),
                        }));
                    }
                    own.insert(w, name);
                }
                lists.insert(name, list.clone());
            }
            languages.insert(code.to_lowercase(), (own, lists));
        }
        Ok(Keymap {
            words,
            by_command,
            languages,
            lang: "en".to_owned(),
        })
    }

    /// This key map for a player of language `code` ("de"): that
    /// language's words are accepted besides `[commands]`, and `help` says
    /// them.
    pub fn for_lang(mut self, code: &str) -> Keymap {
        self.lang = code.to_lowercase();
        self
    }

    /// The language codes that have their own words.
    pub fn languages(&self) -> impl Iterator<Item = &str> {
        self.languages.keys().map(String::as_str)
    }

    /// The built-in keymap; it is tested to parse (`builtin_keymap_parses`).
    #[allow(clippy::expect_used, reason = "compiled-in data, tested to parse")]
    pub fn builtin() -> Keymap {
        static BUILTIN: std::sync::OnceLock<Keymap> = std::sync::OnceLock::new();
        BUILTIN
            .get_or_init(|| {
                let (name, text) = LINE_KEYMAP_SOURCE;
                Keymap::parse(name, text).expect("built-in keymap parses (tested)")
            })
            .clone()
    }

    /// Read a user keymap file.  A line with a byte that is not UTF-8 costs
    /// that line only (a command's line gives it the built-in words),
    /// returned as a problem with its line and key (issue 31: it cost the
    /// whole key map, said with a Rust error text).
    pub fn load(path: &Path) -> Result<(Keymap, Vec<SettingError>), KeymapError> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| DataFileError::unreadable(&name, &e))?;
        let (text, damaged) = crate::toml_error::text_of(&name, &bytes);
        let text = Keymap::builtin_for_damaged(&text, &damaged);
        Ok((Keymap::parse(&name, &text)?, damaged))
    }

    /// The text with each damaged line of a command (left out, so empty)
    /// given that command's built-in words, so the key map stays whole.
    fn builtin_for_damaged(text: &str, damaged: &[SettingError]) -> String {
        let builtin = Keymap::builtin();
        let mut lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
        for d in damaged {
            let (Some(line), Some(key)) = (d.line, d.key.as_deref()) else {
                continue;
            };
            let Some((table, command)) = key.rsplit_once('.') else {
                continue;
            };
            let Some(action) = PlayerAction::from_key(command) else {
                continue;
            };
            let words: &[String] = match table.strip_prefix("language.") {
                Some(code) => builtin.words_of(code, action),
                None if table == "commands" => builtin
                    .by_command
                    .get(&action)
                    .map(Vec::as_slice)
                    .unwrap_or(&[]),
                None => &[],
            };
            if let Some(l) = lines.get_mut(line - 1)
                && !words.is_empty()
            {
                let list: Vec<String> = words.iter().map(|w| format!("{w:?}")).collect();
                *l = format!("{command} = [{}]", list.join(", "));
            }
        }
        lines.join("\n")
    }

    /// The action a word calls, if any (case-insensitive).
    pub fn command(&self, word: &str) -> Option<PlayerAction> {
        if let Some((own, _)) = self.languages.get(&self.lang)
            && let Some(a) = own.get(&crate::words::fold(word))
        {
            return Some(*a);
        }
        self.words.get(&word.to_lowercase()).copied()
    }

    /// The words of a command, the first being its main name: the words of
    /// the player's language first, then those of `[commands]`.
    pub fn words(&self, name: PlayerAction) -> Vec<String> {
        let own = self
            .languages
            .get(&self.lang)
            .and_then(|(_, lists)| lists.get(&name))
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        let common = self.by_command.get(&name).map(Vec::as_slice).unwrap_or(&[]);
        let mut out: Vec<String> = own.to_vec();
        for w in common {
            if !out
                .iter()
                .any(|o| crate::words::fold(o) == crate::words::fold(w))
            {
                out.push(w.clone());
            }
        }
        out
    }

    /// The words of a command in language `code` only (empty if it has none).
    pub fn words_of(&self, code: &str, name: PlayerAction) -> &[String] {
        self.languages
            .get(code)
            .and_then(|(_, lists)| lists.get(&name))
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_review_words_the_messages_name_are_the_review_actions() {
        // German review said "Sag weiter", but "weiter" lets the clock run
        // again: the word the review messages name must be the review's.
        let de = Keymap::builtin().for_lang("de");
        assert_eq!(de.command("vor"), Some(PlayerAction::Next));
        assert_eq!(de.command("weiter"), Some(PlayerAction::Resume));
        let voices = crate::words::vocab::builtin(crate::words::Lang::De);
        let opened = voices.messages.get("review_opened").map(String::as_str);
        assert!(opened.is_some_and(|t| t.contains("Sag vor ")), "{opened:?}");
    }

    #[test]
    fn builtin_keymap_parses() {
        let (name, text) = LINE_KEYMAP_SOURCE;
        let k = Keymap::parse(name, text).unwrap();
        assert_eq!(k.command("HELP"), Some(PlayerAction::Help));
        assert_eq!(k.command("q"), Some(PlayerAction::Quit));
        assert_eq!(k.command("Nf3"), None);
        for &c in PlayerAction::ALL.iter().filter(|a| !a.key_only()) {
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
        assert_eq!(
            e.problem,
            FileProblem::WordTaken {
                word: "help".into(),
                other: "flip".into()
            }
        );
    }

    #[test]
    fn unknown_command_is_reported() {
        let (_, text) = LINE_KEYMAP_SOURCE;
        let broken = text.replace("flip      =", "flop      =");
        let e = Keymap::parse("k.toml", &broken).unwrap_err();
        assert!(e.line.is_some());
        assert_eq!(e.problem, FileProblem::UnknownCommand("flop".into()));
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

#[cfg(test)]
mod language_tests {
    use super::*;
    use crate::words::Lang;

    #[test]
    fn every_action_has_words_in_every_message_language() {
        let k = Keymap::builtin();
        for lang in Lang::ALL {
            for &a in PlayerAction::ALL.iter().filter(|a| !a.key_only()) {
                assert!(
                    !k.words_of(lang.code(), a).is_empty(),
                    "{} has no {} word for {}",
                    LINE_KEYMAP_SOURCE.0,
                    lang.code(),
                    a.key()
                );
            }
        }
    }

    #[test]
    fn a_language_word_is_accepted_in_its_language_and_english_always() {
        let it = Keymap::builtin().for_lang("it");
        for (w, a) in [
            ("pezzi", PlayerAction::Pieces),
            ("casa", PlayerAction::Square),
            ("mosse", PlayerAction::Moves),
            ("traversa", PlayerAction::Rank),
            ("colonna", PlayerAction::File),
            // what a new player types to ask whose move it is
            ("turno", PlayerAction::Turn),
            ("pieces", PlayerAction::Pieces),
            ("help", PlayerAction::Help),
        ] {
            assert_eq!(it.command(w), Some(a), "{w}");
        }
        let de = Keymap::builtin().for_lang("de");
        assert_eq!(de.command("Züge"), Some(PlayerAction::Moves));
        assert_eq!(de.command("zuege"), Some(PlayerAction::Moves));
        assert_eq!(de.command("moves"), Some(PlayerAction::Moves));
        assert_eq!(de.command("zug"), Some(PlayerAction::Turn));
        assert_eq!(de.command("wer"), Some(PlayerAction::Turn));
        assert_eq!(de.command("pezzi"), None);
        assert_eq!(de.words(PlayerAction::Square)[0], "feld");
        let el = Keymap::builtin().for_lang("el");
        assert_eq!(el.command("ΚΟΜΜΑΤΙΑ"), Some(PlayerAction::Pieces));
        assert_eq!(el.command("κομματια"), Some(PlayerAction::Pieces));
        assert_eq!(Keymap::builtin().command("casa"), None);
    }

    #[test]
    fn a_language_word_that_is_another_command_or_a_move_is_refused() {
        let (name, text) = LINE_KEYMAP_SOURCE;
        let bad = text.replacen(
            "pieces    = [\"pezzi\"]",
            "pieces    = [\"pezzi\", \"mosse\"]",
            1,
        );
        assert_ne!(bad, text);
        let e = Keymap::parse(name, &bad).unwrap_err();
        assert!(matches!(e.problem, FileProblem::WordTaken { .. }), "{e:?}");
        assert!(
            e.key.as_deref().unwrap_or("").starts_with("language.it."),
            "{e:?}"
        );
        let bad = text.replacen(
            "square    = [\"casa\"]",
            "square    = [\"casa\", \"e4\"]",
            1,
        );
        assert_ne!(bad, text);
        let e = Keymap::parse(name, &bad).unwrap_err();
        assert_eq!(e.key.as_deref(), Some("language.it.square"), "{e:?}");
        assert_eq!(e.problem, FileProblem::MoveWord("e4".into()), "{e:?}");
        let bad = text.replacen("square    = [\"τετράγωνο\"]\n", "", 1);
        assert_ne!(bad, text);
        let e = Keymap::parse(name, &bad).unwrap_err();
        assert_eq!(e.key.as_deref(), Some("language.el.square"), "{e:?}");
    }
}
