//! Where a TOML file went wrong, for errors that name the file, the line
//! and the key: one error type for every data file hector reads (settings,
//! voices, keymaps, hardware descriptions), one for a single key of a
//! settings file that did not fit ([`SettingError`]: the settings reader
//! finds it, the phrasing words it, both stand above this module), and one
//! for the full-screen view's key map and theme ([`DataFileError`], worded
//! the same way).

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

/// "file, line 3, key k" for the developer's texts (a test's panic, a
/// log); the player hears `Phraser::place`.
fn write_place(
    f: &mut fmt::Formatter<'_>,
    file: &str,
    line: Option<usize>,
    key: Option<&str>,
) -> fmt::Result {
    write!(f, "{file}")?;
    if let Some(line) = line {
        write!(f, ", line {line}")?;
    }
    if let Some(key) = key {
        write!(f, ", key {key}")?;
    }
    Ok(())
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_place(f, &self.file, self.line, self.key.as_deref())?;
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

/// What is wrong in one of the full-screen view's files (the key map,
/// the theme), as data: the phrasing words it in the player's language
/// (`Phraser::file_problem`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileProblem {
    /// The file could not be read.
    Unreadable(IoWhy),
    /// A line the TOML reader cannot read (the toml crate's own message is
    /// not said: it is English).
    Syntax,
    /// A key the file may not have.
    UnknownKey,
    /// A key the file must have (its name).
    MissingKey(String),
    /// A value of the wrong kind (a text for a list, a number for a text).
    WrongValue,
    /// An empty text given as a key.
    EmptyKey,
    /// A text that is not a key, and the named keys there are.
    NotAKey { text: String, names: Vec<String> },
    /// A name that is not an action of the full-screen view.
    NotAnAction(String),
    /// A key another action already has: it stays with that one.
    KeyTaken { key: String, other: String },
    /// A base theme that does not exist, and the themes there are.
    UnknownTheme { name: String, names: Vec<String> },
    /// A colour name that does not exist, and the colours there are.
    NotAColour { name: String, names: Vec<String> },
    /// A colour that is no background on every terminal, and those that are.
    NotABackground { name: String, names: Vec<String> },
    /// A foreground equal to its background: nothing would show.
    SameColours,
    /// Light and dark squares of the same colour.
    SameSquares,
    /// A value the key does not take: what it takes, and what was found.
    Wrong { expect: Expect, found: String },
    /// A word the key does not take, and the words it does (serde's
    /// "unknown variant" of a fixed list: its words are the file's data).
    NotOneOf { found: String, names: Vec<String> },
    /// A name in the line-mode key map that is no command.
    UnknownCommand(String),
    /// A command the line-mode key map does not give (its name).
    MissingCommand(String),
    /// A command given no word.
    NoWords,
    /// A command word that is empty or more than one word.
    NotOneWord(String),
    /// A command word that could be read as a move.
    MoveWord(String),
    /// A command word that another command already has.
    WordTaken { word: String, other: String },
    /// A board file with neither or both of `[serial]` and `[bluetooth]`.
    SerialOrBluetooth,
}

/// Why the system refused to read or write a file or to connect: the
/// common kinds of [`std::io::Error`], worded by the phrasing in the
/// player's language (`Phraser::io_why`); the system's own text only for
/// a kind hector has no words for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IoWhy {
    /// There is no such file.
    NotFound,
    /// The player may not read or write it.
    NotAllowed,
    /// It is a folder.
    IsAFolder,
    /// A part of the path is a file, not a folder.
    NotAFolder,
    /// The file system is read-only.
    ReadOnly,
    /// The disk (or the player's quota) is full.
    StorageFull,
    /// It exists already.
    AlreadyExists,
    /// No answer in time.
    TimedOut,
    /// The other side refused the connection.
    ConnectionRefused,
    /// The connection was cut (reset, aborted, a broken pipe).
    ConnectionReset,
    /// The network or the host cannot be reached.
    Unreachable,
    /// Another reason: the system's own text.
    Other(String),
}

impl IoWhy {
    /// Why `e` happened, as far as hector can word it.
    pub fn of(e: &std::io::Error) -> IoWhy {
        use std::io::ErrorKind as K;
        match e.kind() {
            K::NotFound => IoWhy::NotFound,
            K::PermissionDenied => IoWhy::NotAllowed,
            K::IsADirectory => IoWhy::IsAFolder,
            K::NotADirectory => IoWhy::NotAFolder,
            K::ReadOnlyFilesystem => IoWhy::ReadOnly,
            K::StorageFull | K::QuotaExceeded => IoWhy::StorageFull,
            K::AlreadyExists => IoWhy::AlreadyExists,
            K::TimedOut => IoWhy::TimedOut,
            K::ConnectionRefused => IoWhy::ConnectionRefused,
            K::ConnectionReset | K::ConnectionAborted | K::BrokenPipe | K::NotConnected => {
                IoWhy::ConnectionReset
            }
            K::HostUnreachable | K::NetworkUnreachable | K::NetworkDown => IoWhy::Unreachable,
            _ => IoWhy::Other(e.to_string()),
        }
    }

    /// Why an error of a library happened: the kind of the first
    /// [`std::io::Error`] among its sources (a connection's error inside
    /// an HTTP client's), else its own text.
    pub fn of_error(e: &(dyn std::error::Error + 'static)) -> IoWhy {
        let mut source = Some(e);
        while let Some(err) = source {
            if let Some(io) = err.downcast_ref::<std::io::Error>() {
                return IoWhy::of(io);
            }
            source = err.source();
        }
        IoWhy::Other(e.to_string())
    }
}

/// One problem in a file of the full-screen view, where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataFileError {
    /// The file's name or path, as the player gave it.
    pub file: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// The dotted key at fault, when known (`keys.square`).
    pub key: Option<String>,
    /// What is wrong.
    pub problem: FileProblem,
}

impl fmt::Display for DataFileError {
    /// For the developer (a test's panic, a log): the player hears
    /// `Phraser::file_problem`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_place(f, &self.file, self.line, self.key.as_deref())?;
        write!(f, ": {:?}", self.problem)
    }
}

impl std::error::Error for DataFileError {}

impl DataFileError {
    /// A problem found after parsing, at `key` (the line is looked up as
    /// [`FileError::at_key`] does).
    pub fn at_key(file: &str, text: &str, key: &str, problem: FileProblem) -> DataFileError {
        let place = FileError::at_key(file, text, key, String::new());
        DataFileError {
            file: place.file,
            line: place.line,
            key: place.key,
            problem,
        }
    }

    /// A file that could not be read at all.
    pub fn unreadable(file: &str, e: &std::io::Error) -> DataFileError {
        DataFileError {
            file: file.to_owned(),
            line: None,
            key: None,
            problem: FileProblem::Unreadable(IoWhy::of(e)),
        }
    }

    /// A parse error of `text` (the contents of `file`): its line and key
    /// as [`FileError::from_toml`] finds them, and what kind of error the
    /// toml crate's message names (serde's fixed openings: "unknown
    /// field", "unknown variant" with its words, "missing field",
    /// "invalid type"/"invalid value"/"invalid length"); any other is a
    /// line that is not TOML.
    pub fn from_toml(file: &str, text: &str, e: &toml::de::Error) -> DataFileError {
        let place = FileError::from_toml(file, text, e);
        let detail = place.detail.as_str();
        let problem = if detail.starts_with("unknown field") {
            FileProblem::UnknownKey
        } else if let Some(rest) = detail.strip_prefix("unknown variant ") {
            // "unknown variant `usb`, expected one of `dgt`, `millennium`"
            // or "expected `none` or `odd`": the words in backquotes.
            let mut quoted = rest.split('`').skip(1).step_by(2).map(str::to_owned);
            let found = quoted.next().unwrap_or_default();
            FileProblem::NotOneOf {
                found,
                names: quoted.collect(),
            }
        } else if detail.starts_with("missing field") {
            FileProblem::MissingKey(place.key.clone().unwrap_or_default())
        } else if detail.starts_with("invalid ") {
            FileProblem::WrongValue
        } else {
            FileProblem::Syntax
        };
        DataFileError {
            file: place.file,
            line: place.line,
            key: place.key,
            problem,
        }
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
    Unreadable(IoWhy),
    /// A line that is not TOML: it was left out.
    Syntax,
    /// A line with a byte that is not UTF-8 (outside a comment): it was
    /// left out, and the rest of the file is used.
    NotText,
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

/// The text of a settings or key-map file read as bytes, so that damage
/// costs only its own line (issue 31: one byte that is not UTF-8 anywhere,
/// even in a comment, dropped the whole file).  A comment's bytes that are
/// not UTF-8 are read as `?` (a comment costs nothing); a line with such a
/// byte before its comment is left out (made empty, so that every other
/// line keeps its number) and reported with its line and its key (the
/// table it is in and the name before its `=`, when they can be read).
pub fn text_of(file: &str, bytes: &[u8]) -> (String, Vec<SettingError>) {
    let mut text = String::with_capacity(bytes.len());
    let mut problems = Vec::new();
    let mut table: Option<String> = None;
    for (i, line) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
        let (body, end) = match line.strip_suffix(b"\n") {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        let comment = comment_start(body);
        let (code, rest) = body.split_at(comment.unwrap_or(body.len()));
        match std::str::from_utf8(code) {
            Ok(code) => {
                let t = code.trim();
                if let Some(name) = t.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
                    table = Some(name.trim_matches(['[', ']', ' ']).to_owned());
                }
                text.push_str(code);
                text.push_str(&String::from_utf8_lossy(rest).replace('\u{fffd}', "?"));
            }
            Err(_) => {
                let name = code
                    .iter()
                    .position(|&b| b == b'=')
                    .and_then(|eq| std::str::from_utf8(&code[..eq]).ok())
                    .map(|k| k.trim().trim_matches('"').to_owned())
                    .filter(|k| !k.is_empty());
                let key = match (&table, name) {
                    (Some(t), Some(k)) => Some(format!("{t}.{k}")),
                    (None, Some(k)) => Some(k),
                    (_, None) => None,
                };
                problems.push(SettingError {
                    file: file.to_owned(),
                    line: Some(i + 1),
                    key,
                    problem: SettingProblem::NotText,
                });
            }
        }
        text.push_str(end);
    }
    (text, problems)
}

/// Where a line's comment begins: its first `#` outside a string.
fn comment_start(line: &[u8]) -> Option<usize> {
    let mut quote: Option<u8> = None;
    let mut escaped = false;
    for (i, &b) in line.iter().enumerate() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if b == b'\\' && q == b'"' {
                    escaped = true;
                } else if b == q {
                    quote = None;
                }
            }
            None if b == b'"' || b == b'\'' => quote = Some(b),
            None if b == b'#' => return Some(i),
            None => {}
        }
    }
    None
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

    /// Issue 31: one byte that is not UTF-8 dropped a whole settings file
    /// or key map.  Now it costs its own line, said with line and key; in a
    /// comment it costs nothing.
    #[test]
    fn a_byte_that_is_not_utf8_costs_its_own_line() {
        let bytes = b"# caf\xe9\n[announce]\nlanguage = \"de\" # \xff\nform = \"l\xf6ng\"\n\xfe\nmoves = \"language\"";
        let (text, problems) = text_of("c.toml", bytes);
        assert_eq!(
            text,
            "# caf?\n[announce]\nlanguage = \"de\" # ?\n\n\nmoves = \"language\""
        );
        let at: Vec<(Option<usize>, Option<&str>)> = problems
            .iter()
            .map(|p| (p.line, p.key.as_deref()))
            .collect();
        assert_eq!(at, vec![(Some(4), Some("announce.form")), (Some(5), None)]);
        assert!(
            problems
                .iter()
                .all(|p| p.problem == SettingProblem::NotText)
        );
        // A `#` inside a string is not a comment.
        assert_eq!(comment_start(br#"a = "x#y" # z"#), Some(10));
        assert_eq!(comment_start(br#"a = 'x#y'"#), None);
    }

    #[test]
    fn display_names_file_line_and_key() {
        let e = FileError::at_key("k.toml", "x = 1\n[t]\nmode = 2\n", "t.mode", "bad".into());
        assert_eq!(e.to_string(), "k.toml, line 3, key t.mode: bad");
    }
}
