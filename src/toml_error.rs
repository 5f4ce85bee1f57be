//! Where a TOML file went wrong, for errors that name the file, the line
//! and the key: one error type for every data file hector reads (settings,
//! voices, keymaps, hardware descriptions), and one for a single key of a
//! settings file that did not fit ([`SettingError`]: the settings reader
//! finds it, the phrasing words it, both stand above this module).

use std::fmt;

/// A data file that could not be used: which file, where, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileError {
    /// The file's name or path, as the player gave it.
    pub file: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// The key at fault, when known (e.g. `moves.pieces.queen`).
    pub key: Option<String>,
    /// What is wrong.
    pub detail: String,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(line) = self.line {
            write!(f, ", line {line}")?;
        }
        if let Some(key) = &self.key {
            write!(f, ", key {key}")?;
        }
        write!(f, ": {}", self.detail)
    }
}

impl std::error::Error for FileError {}

impl FileError {
    /// A problem found after parsing, at `key` (the line is looked up).
    pub fn at_key(file: &str, text: &str, key: &str, detail: String) -> FileError {
        let last = key.rsplit('.').next().unwrap_or(key);
        FileError {
            file: file.to_owned(),
            line: text
                .lines()
                .position(|l| {
                    let l = l.trim_start();
                    l.starts_with(last) && l[last.len()..].trim_start().starts_with('=')
                })
                .map(|i| i + 1),
            key: Some(key.to_owned()),
            detail,
        }
    }

    /// A file that could not be read at all.
    pub fn unreadable(file: &str, e: &std::io::Error) -> FileError {
        FileError {
            file: file.to_owned(),
            line: None,
            key: None,
            detail: e.to_string(),
        }
    }

    /// A parse error of `text` (the contents of `file`).  The key is the
    /// one a "missing field" / "unknown field" message names, else the key
    /// whose entry the error points into.
    pub fn from_toml(file: &str, text: &str, e: &toml::de::Error) -> FileError {
        let detail = e.message().trim().to_owned();
        let named = (detail.starts_with("missing field") || detail.starts_with("unknown field"))
            .then(|| key_in_message(&detail))
            .flatten();
        let key = named.or_else(|| e.span().and_then(|s| key_path_at(text, s.start)));
        FileError {
            file: file.to_owned(),
            line: e.span().map(|s| line_of(text, s.start)),
            key,
            detail,
        }
    }
}

/// 1-based line number of byte offset `offset` in `text`.
pub fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1
}

/// The key named in a serde message such as "missing field `captures`" or
/// "unknown field `queeen`, expected ...".
fn key_in_message(msg: &str) -> Option<String> {
    let start = msg.find('`')? + 1;
    let len = msg[start..].find('`')?;
    Some(msg[start..start + len].to_owned())
}

/// The dotted path of the key whose entry holds byte `offset` of the TOML
/// `text` ("messages.goodbye"), or else of a key on the same line (a syntax
/// error), read as far as the text parses.
pub fn key_path_at(text: &str, offset: usize) -> Option<String> {
    use std::ops::Range;
    use toml::de::{DeTable, DeValue};
    /// Depth first: a table's span may cover only its header, so every
    /// table is searched, not only those whose span holds the offset.
    fn find(
        table: &DeTable<'_>,
        hit: &dyn Fn(Range<usize>, Option<Range<usize>>) -> bool,
        path: &mut Vec<String>,
    ) -> bool {
        for (k, v) in table.iter() {
            path.push(k.get_ref().to_string());
            let found = match v.get_ref() {
                DeValue::Table(t) => hit(k.span(), None) || find(t, hit, path),
                _ => hit(k.span(), Some(v.span())),
            };
            if found {
                return true;
            }
            path.pop();
        }
        false
    }
    let (doc, _errors) = DeTable::parse_recoverable(text);
    let holds = |k: Range<usize>, v: Option<Range<usize>>| {
        k.contains(&offset) || v.is_some_and(|v| v.contains(&offset))
    };
    let line = line_of(text, offset);
    let same_line = |k: Range<usize>, _: Option<Range<usize>>| line_of(text, k.start) == line;
    let mut path = Vec::new();
    if find(doc.get_ref(), &holds, &mut path) || find(doc.get_ref(), &same_line, &mut path) {
        Some(path.join("."))
    } else {
        None
    }
}

/// What a setting takes, for the sentence that says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    /// `true` or `false`.
    Bool,
    /// One of these words.
    OneOf(&'static [&'static str]),
    /// A number in this range.
    Number { min: i64, max: i64 },
    /// A whole number in this range.
    Whole { min: i64, max: i64 },
    /// A text (a path, a port, an address).
    Text,
    /// A table of names and values.
    Table,
}

/// What was wrong with one setting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettingProblem {
    /// The file named on the command line does not exist: the defaults
    /// are used.
    NoSuchFile,
    /// The file could not be read (the system's reason): the defaults are
    /// used.
    Unreadable(String),
    /// A line that is not TOML: it was left out.
    Syntax,
    /// A key that hector does not have.
    Unknown,
    /// A table that hector does not have: it and its keys are left out.
    UnknownTable,
    /// A key given a second time in its table (first on line `first`):
    /// the first is used, this one is left out.
    Duplicate { first: usize },
    /// A table given a second time (first on line `first`): the first is
    /// used, this one and its keys are left out.
    DuplicateTable { first: usize },
    /// A value that does not fit: the key keeps its default.
    Wrong {
        expect: Option<Expect>,
        found: String,
    },
    /// A number out of range (or NaN): `used` is used instead.
    Clamped {
        expect: Expect,
        found: String,
        used: String,
    },
}

/// One problem in a settings file, where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingError {
    pub file: String,
    pub line: Option<usize>,
    /// The dotted key, table included (`speech.rate`).
    pub key: Option<String>,
    pub problem: SettingProblem,
}

impl SettingError {
    /// The error as a [`FileError`] with an English detail (for places that
    /// have no phrasing, e.g. a log).
    pub fn to_file_error(&self) -> FileError {
        FileError {
            file: self.file.clone(),
            line: self.line,
            key: self.key.clone(),
            detail: format!("{:?}", self.problem),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct T {
        a: u32,
        b: bool,
        #[serde(default)]
        inner: Option<Inner>,
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Inner {
        c: u32,
    }

    fn err(text: &str) -> (Option<usize>, Option<String>) {
        let e = toml::from_str::<T>(text).unwrap_err();
        let f = FileError::from_toml("t.toml", text, &e);
        assert_eq!(f.file, "t.toml");
        (f.line, f.key)
    }

    #[test]
    fn wrong_type_names_the_key_of_its_line() {
        assert_eq!(err("a = 1\nb = 3\n"), (Some(2), Some("b".into())));
        assert_eq!(
            err("a = 1\nb = true\n[inner]\nc = \"x\"\n"),
            (Some(4), Some("inner.c".into()))
        );
    }

    #[test]
    fn unknown_and_missing_fields_are_named() {
        assert_eq!(err("a = 1\nb = true\nc = 2\n"), (Some(3), Some("c".into())));
        assert_eq!(err("a = 1\n").1, Some("b".into()));
    }

    #[test]
    fn syntax_error_has_a_line() {
        assert_eq!(err("a = 1\nb = \n").0, Some(2));
    }

    #[test]
    fn display_names_file_line_and_key() {
        let e = FileError::at_key("k.toml", "x = 1\n[t]\nmode = 2\n", "t.mode", "bad".into());
        assert_eq!(e.to_string(), "k.toml, line 3, key t.mode: bad");
    }
}
