//! The message keys in the code tied to the voices (issue 27 item 6).
//!
//! Every `.rs` file under `src/` is read (test code left out: `tests.rs`,
//! `…_tests.rs`,
//! files under a `tests/` folder, `#[cfg(test)]` items) and cut into
//! tokens.  Two things are checked against the four built-in voices:
//!
//! - **A key in the code that no voice has** fails, naming `file:line` and
//!   the key.  A key is a string literal `^[a-z][a-z0-9_]*$` passed where a
//!   function takes a message key ([`KEY_ARGS`]: `message`, `text`,
//!   `say_key`, `error`, … and the argument it is in), or one of the keys
//!   built at run time, asked of the code that builds them (every
//!   [`PlayerAction`]'s `help_…`, the built-in themes' `theme_…`).  A
//!   function that takes `key: &str` and `args: &[(&str, &str)]` is a key
//!   function; one missing from [`KEY_ARGS`] fails too, so a new one cannot
//!   slip by.
//! - **A voice key that nothing uses** fails, naming the voice file, its
//!   line and the key.  A key is used when it stands as a literal anywhere
//!   in the code that is not a test (a table of keys: `X => "key"`, `("key",
//!   args)`), when a run-time family builds it ([`families`]), or, for the
//!   `page_…` words, when the companion page asks for it.
//!
//! A new call of another part passes as soon as its key is in the voices:
//! nothing here lists the keys themselves.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::action::PlayerAction;
use crate::words::vocab::{self, Lang};

/// The functions that take a message key, and the argument (from 0) it is
/// in.  Closures count by their name too (`refused("review_no_more")`).
const KEY_ARGS: &[(&str, usize)] = &[
    // Phraser::message, App::message, the clock's words' message.
    ("message", 0),
    // Talk::text, Voice::text.
    ("text", 0),
    ("say_key", 0),
    // Voice::error.
    ("error", 0),
    // CompanionState::notify_key(talk, key).
    ("notify_key", 1),
    // Phraser::join(items, last): the key of the word before the last.
    ("join", 1),
    // Phraser::attack_sentence(pos, sq, by, key, none).
    ("attack_sentence", 3),
    ("attack_sentence", 4),
    // The refusals of the review (`app/review.rs`) and the clock spec's
    // input errors (`clock/words.rs`): closures taking the key.
    ("refused", 0),
    ("input", 0),
];

/// The only texts of two or more words in the app, the start-up and the
/// front ends that are not in the voices, with why: (file, the text's
/// beginning, why).  A record's data and the developer's texts stay; those
/// marked "left" a player reads in English still, and are to go.  Every
/// other sentence a player hears or reads comes from the voices.
const NOT_WORDING: &[(&str, &str, &str)] = &[
    (
        "src/app/online_record.rs",
        "{kind} game on lichess",
        "the PGN Event tag of a lichess game: the record's data, as lichess's own tags",
    ),
    (
        "src/app/rules.rs",
        "7.5",
        "the journal's note of a penalty (the Article it applies): the record's data",
    ),
    (
        "src/keymap.rs",
        "built-in keymap parses",
        "an `expect`'s message, for the developer: the compiled-in key map is tested to parse",
    ),
    (
        "src/app/scoresheet/mod.rs",
        "the journal's stream of changes",
        "a debug assertion's message, for the developer",
    ),
];

/// Where the code may hold no wording: the app, the start-up, the front
/// ends, and the readers of the player's data files whose problems are
/// said (the line-mode key map, the board files).
const CHECKED: &[&str] = &[
    "src/app/",
    "src/setup/",
    "src/ui/",
    "src/keymap.rs",
    "src/board/hardware.rs",
];

/// Whether a string literal reads as wording: two words of letters side
/// by side.
fn reads_as_wording(s: &str) -> bool {
    let words: Vec<&str> = s.split(' ').collect();
    words.windows(2).any(|w| {
        w.iter()
            .all(|w| w.chars().count() >= 2 && w.chars().all(char::is_alphabetic))
    })
}

/// The wording in the app, the start-up, the front ends and the data-file
/// readers that no voice holds: each literal of non-test code in
/// [`CHECKED`] (attributes left out) that reads as words and is not in
/// [`NOT_WORDING`], as `file:line: "text"`.
fn wording_in_code(files: &[(String, String)]) -> Vec<String> {
    let mut out = Vec::new();
    for (file, src) in files {
        if !CHECKED.iter().any(|d| file.starts_with(d)) {
            continue;
        }
        let toks = without_tests(tokens(src));
        let mut in_attribute = 0;
        for (i, (tok, line)) in toks.iter().enumerate() {
            // An attribute's texts (`reason = "…"`) are for the developer.
            match tok {
                Tok::Punct('#') if matches!(toks.get(i + 1), Some((Tok::Punct('['), _))) => {
                    in_attribute = 1;
                }
                Tok::Punct('[') if in_attribute > 0 && toks[i - 1].0 != Tok::Punct('#') => {
                    in_attribute += 1;
                }
                Tok::Punct(']') if in_attribute > 0 => in_attribute -= 1,
                _ => {}
            }
            let Tok::Str(text) = tok else { continue };
            if in_attribute > 0 {
                continue;
            }
            let allowed = NOT_WORDING
                .iter()
                .any(|(f, start, _)| f == file && text.starts_with(start));
            if reads_as_wording(text) && !allowed {
                out.push(format!(
                    "{file}:{line}: {text:?} is wording: put it in the voices"
                ));
            }
        }
    }
    out
}

/// Named texts: (a file's name, its text).
type Texts = Vec<(String, String)>;

/// One token of Rust source and its 1-based line.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Ident(String),
    Str(String),
    Punct(char),
}

/// The tokens of `src` with their lines: comments dropped, string literals
/// (plain, raw, byte) as their text, character literals and lifetimes
/// dropped, numbers as identifiers.
fn tokens(src: &str) -> Vec<(Tok, usize)> {
    let s: Vec<char> = src.chars().collect();
    let at = |i: usize| s.get(i).copied().unwrap_or('\0');
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < s.len() {
        let c = s[i];
        let start_line = line;
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && at(i + 1) == '/' {
            while i < s.len() && s[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < s.len() {
                if s[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if s[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    line += usize::from(s[i] == '\n');
                    i += 1;
                }
            }
        } else if c == '"'
            || (c == 'b' && at(i + 1) == '"')
            || ((c == 'r' || (c == 'b' && at(i + 1) == 'r'))
                && matches!(at(i + 1 + usize::from(c == 'b')), '"' | '#'))
        {
            let raw = c == 'r' || at(i + 1) == 'r';
            let mut j = i;
            while s[j] != '"' && s[j] != '#' {
                j += 1;
            }
            let mut hashes = 0;
            while at(j) == '#' {
                hashes += 1;
                j += 1;
            }
            if at(j) != '"' {
                // `r#ident`: a raw identifier.
                out.push((Tok::Ident(String::new()), line));
                i = j;
                continue;
            }
            j += 1;
            let begin = j;
            while j < s.len() {
                if !raw && s[j] == '\\' {
                    line += usize::from(at(j + 1) == '\n');
                    j += 2;
                    continue;
                }
                if s[j] == '"' && (1..=hashes).all(|k| at(j + k) == '#') {
                    break;
                }
                line += usize::from(s[j] == '\n');
                j += 1;
            }
            let text: String = s[begin..j.min(s.len())].iter().collect();
            out.push((Tok::Str(text), start_line));
            i = j + 1 + hashes;
        } else if c == '\'' {
            // A character literal ('a', '\n', '\u{…}'), else a lifetime.
            let end = if at(i + 1) == '\\' {
                (i + 2..s.len()).find(|&j| s[j] == '\'')
            } else if at(i + 2) == '\'' {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(end) => i = end + 1,
                None => {
                    i += 1;
                    while i < s.len() && (s[i].is_alphanumeric() || s[i] == '_') {
                        i += 1;
                    }
                }
            }
        } else if c.is_alphanumeric() || c == '_' {
            let begin = i;
            while i < s.len() && (s[i].is_alphanumeric() || s[i] == '_') {
                i += 1;
            }
            out.push((Tok::Ident(s[begin..i].iter().collect()), line));
        } else {
            out.push((Tok::Punct(c), line));
            i += 1;
        }
    }
    out
}

/// `toks` without the items under `#[cfg(test)]` (or any `cfg` naming
/// `test` without `not`): the attribute and its item, up to its `;` or
/// its balanced braces.
fn without_tests(toks: Vec<(Tok, usize)>) -> Vec<(Tok, usize)> {
    let punct =
        |t: Option<&(Tok, usize)>, c: char| matches!(t, Some((Tok::Punct(p), _)) if *p == c);
    let ident = |t: Option<&(Tok, usize)>, w: &str| matches!(t, Some((Tok::Ident(i), _)) if i == w);
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if punct(toks.get(i), '#') && punct(toks.get(i + 1), '[') && ident(toks.get(i + 2), "cfg") {
            // The attribute's end.
            let mut j = i + 1;
            let mut depth = 0;
            loop {
                match toks.get(j) {
                    Some((Tok::Punct('['), _)) => depth += 1,
                    Some((Tok::Punct(']'), _)) => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    None => break,
                    _ => {}
                }
                j += 1;
            }
            let attr = &toks[i..j.min(toks.len())];
            let names = |w: &str| attr.iter().any(|(t, _)| *t == Tok::Ident(w.to_owned()));
            let test_support = attr
                .iter()
                .any(|(t, _)| *t == Tok::Str("test-support".into()));
            if (names("test") || test_support) && !names("not") {
                // Skip the item: to its `;` at depth 0 or its balanced `{…}`.
                let mut k = j + 1;
                let mut depth = 0;
                while k < toks.len() {
                    match &toks[k].0 {
                        Tok::Punct(';') if depth == 0 => break,
                        Tok::Punct('{') => depth += 1,
                        Tok::Punct('}') => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    k += 1;
                }
                i = k + 1;
                continue;
            }
        }
        out.push(toks[i].clone());
        i += 1;
    }
    out
}

/// Whether `s` has the shape of a message key.
fn key_shaped(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// What one source file says about keys.
#[derive(Debug, Default)]
struct Found {
    /// Keys passed to a key function: (line, key).
    keys: Vec<(usize, String)>,
    /// Every key-shaped literal outside test code.
    literals: BTreeSet<String>,
    /// Functions taking `key: &str` and `args`: (line, name).
    key_fns: Vec<(usize, String)>,
    /// The literals each `match` gives from its arms (`X => "key"`,
    /// `X => ("key", args)`, `X => Some("key")`): a table of keys when one
    /// of them is a key.
    tables: Vec<Vec<(usize, String)>>,
}

/// The keys, the literals and the key functions of one file's source.
fn scan(src: &str) -> Found {
    let toks = without_tests(tokens(src));
    let mut found = Found::default();
    for (i, (tok, line)) in toks.iter().enumerate() {
        match tok {
            Tok::Str(s) if key_shaped(s) => {
                found.literals.insert(s.clone());
            }
            Tok::Ident(name) if matches!(toks.get(i + 1), Some((Tok::Punct('('), _))) => {
                let wanted: Vec<usize> = KEY_ARGS
                    .iter()
                    .filter(|(f, _)| f == name)
                    .map(|(_, n)| *n)
                    .collect();
                let is_def = i > 0 && toks[i - 1].0 == Tok::Ident("fn".into());
                let args = arguments(&toks, i + 1);
                if is_def {
                    let has = |seq: &[Tok]| {
                        args.iter()
                            .any(|a| a.windows(seq.len()).any(|w| w.iter().map(|t| &t.0).eq(seq)))
                    };
                    let key = [
                        Tok::Ident("key".into()),
                        Tok::Punct(':'),
                        Tok::Punct('&'),
                        Tok::Ident("str".into()),
                    ];
                    if has(&key) && has(&[Tok::Ident("args".into())]) {
                        found.key_fns.push((*line, name.clone()));
                    }
                    continue;
                }
                for n in wanted {
                    if let Some([(Tok::Str(k), l)]) = args.get(n).map(Vec::as_slice) {
                        found.keys.push((*l, k.clone()));
                    }
                }
            }
            _ => {}
        }
    }
    found.tables = tables(&toks);
    found
}

/// For each `match`, the key-shaped literals its arms give: the value
/// right after an arm's `=>`, the first element of a tuple there, or the
/// value of a `Some(…)` there.
fn tables(toks: &[(Tok, usize)]) -> Vec<Vec<(usize, String)>> {
    let mut out = Vec::new();
    for (i, (tok, _)) in toks.iter().enumerate() {
        if *tok != Tok::Ident("match".into()) {
            continue;
        }
        // The body: the first `{` outside brackets after the scrutinee.
        let mut j = i + 1;
        let mut depth = 0;
        while j < toks.len() {
            match toks[j].0 {
                Tok::Punct('(' | '[') => depth += 1,
                Tok::Punct(')' | ']') => depth -= 1,
                Tok::Punct('{') if depth == 0 => break,
                _ => {}
            }
            j += 1;
        }
        let mut arms = Vec::new();
        let mut depth = 0;
        for k in j..toks.len() {
            match toks[k].0 {
                Tok::Punct('(' | '[' | '{') => depth += 1,
                Tok::Punct(')' | ']' | '}') => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                Tok::Punct('>') if depth == 1 && toks[k - 1].0 == Tok::Punct('=') => {
                    let value = match (toks.get(k + 1), toks.get(k + 2), toks.get(k + 3)) {
                        (Some((Tok::Str(v), l)), _, _) => Some((*l, v)),
                        (Some((Tok::Punct('('), _)), Some((Tok::Str(v), l)), _) => Some((*l, v)),
                        (
                            Some((Tok::Ident(s), _)),
                            Some((Tok::Punct('('), _)),
                            Some((Tok::Str(v), l)),
                        ) if s == "Some" => Some((*l, v)),
                        _ => None,
                    };
                    if let Some((l, v)) = value.filter(|(_, v)| key_shaped(v)) {
                        arms.push((l, v.clone()));
                    }
                }
                _ => {}
            }
        }
        if !arms.is_empty() {
            out.push(arms);
        }
    }
    out
}

/// The arguments of the call whose `(` is at `open`: each argument's tokens.
fn arguments(toks: &[(Tok, usize)], open: usize) -> Vec<Vec<(Tok, usize)>> {
    let mut args = vec![Vec::new()];
    let mut depth = 0;
    for t in &toks[open..] {
        match t.0 {
            Tok::Punct('(' | '[' | '{') => {
                depth += 1;
                if depth == 1 {
                    continue;
                }
            }
            Tok::Punct(')' | ']' | '}') => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            Tok::Punct(',') if depth == 1 => {
                args.push(Vec::new());
                continue;
            }
            _ => {}
        }
        if let Some(last) = args.last_mut() {
            last.push(t.clone());
        }
    }
    args
}

/// The `.rs` files under `dir` that are not test files, sorted.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let path = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if name != "tests" {
                out.extend(sources(&path));
            }
        } else if name.ends_with(".rs") && !name.ends_with("tests.rs") && name != "test_util.rs" {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// The keys built at run time, asked of the code that builds them: (key,
/// whether a voice must have it).  A key a voice may leave out falls back
/// to another (`keys_<action>` to `help_<action>`) or to digits.
fn families() -> Vec<(String, bool)> {
    let mut out = Vec::new();
    for a in PlayerAction::ALL {
        // Talk::help_line, App::help_of (dispatch.rs), action.rs's list.
        out.push((format!("help_{}", a.key()), true));
        // Phraser::key_help: the full-screen view's own wording.
        out.push((format!("keys_{}", a.key()), false));
    }
    // app/look.rs: the built-in themes by name.
    for t in crate::view::THEMES {
        out.push((format!("theme_{}", t.replace('-', "_")), true));
    }
    // Phraser::date_words.
    out.extend((1..=31).map(|d| (format!("day_{d}"), true)));
    out.extend((1..=12).map(|m| (format!("month_{m}"), true)));
    // app/review.rs: the six standard NAGs by number, others by nag_other.
    out.extend((1..=6).map(|n| (format!("nag_{n}"), true)));
    // Phraser::count_word: a count's word, digits past the voice's words.
    out.extend((2..=99).map(|n| (format!("count_{n}"), false)));
    out
}

/// The `page_…` keys the companion page asks for: `L("x")`, `data-l="x"`,
/// `data-l-aria="x"`, `LABELS.langs[code].x`, and the families it builds
/// (`L("piece_" + c)`): every word of the page, and every quoted one ending
/// in `_` as a prefix.
fn page_uses(page: &str) -> (BTreeSet<String>, Vec<String>) {
    let word = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_';
    let words: BTreeSet<String> = page
        .split(|c: char| !word(c))
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect();
    let prefixes = page
        .split(['"', '\''])
        .filter(|w| w.len() > 1 && w.ends_with('_') && w.chars().all(word))
        .map(str::to_owned)
        .collect();
    (words, prefixes)
}

/// One problem found: where, and what.
fn problem(place: String, what: &str) -> String {
    format!("{place}: {what}")
}

/// The check itself, on given sources and voices: the problems, one line
/// each, naming `file:line` and the key.
fn check(files: &Texts, page: &str, voices: &Texts) -> Vec<String> {
    let voice_keys: Vec<(String, BTreeMap<String, String>, &str)> = voices
        .iter()
        .map(|(name, text)| {
            let vf = vocab::parse_voice_file(name, text).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name.clone(), vf.messages, text.as_str())
        })
        .collect();
    let mut problems = Vec::new();
    let mut literals = BTreeSet::new();
    let missing_in = |key: &str| -> Vec<&str> {
        voice_keys
            .iter()
            .filter(|(_, m, _)| !m.contains_key(key))
            .map(|(n, _, _)| n.as_str())
            .collect()
    };
    let known: BTreeSet<&str> = KEY_ARGS.iter().map(|(f, _)| *f).collect();
    for (file, src) in files {
        let found = scan(src);
        for (line, key) in &found.keys {
            let missing = missing_in(key);
            if !missing.is_empty() {
                problems.push(problem(
                    format!("{file}:{line}"),
                    &format!("key `{key}` is in no voice ({})", missing.join(", ")),
                ));
            }
        }
        for (line, name) in &found.key_fns {
            if !known.contains(name.as_str()) {
                problems.push(problem(
                    format!("{file}:{line}"),
                    &format!("`fn {name}` takes a message key: add it to KEY_ARGS"),
                ));
            }
        }
        // A table of keys: every key-shaped literal its arms give is a key.
        let en = &voice_keys[0].1;
        for table in found
            .tables
            .iter()
            .filter(|t| t.iter().any(|(_, k)| en.contains_key(k)))
        {
            for (line, key) in table {
                let missing = missing_in(key);
                if !missing.is_empty() {
                    problems.push(problem(
                        format!("{file}:{line}"),
                        &format!(
                            "key `{key}` (in a table of keys) is in no voice ({})",
                            missing.join(", ")
                        ),
                    ));
                }
            }
        }
        literals.extend(found.literals);
    }
    let families = families();
    for (key, needed) in &families {
        let missing = missing_in(key);
        if *needed && !missing.is_empty() {
            problems.push(problem(
                "built at run time".to_owned(),
                &format!("key `{key}` is in no voice ({})", missing.join(", ")),
            ));
        }
    }
    let built: BTreeSet<&str> = families.iter().map(|(k, _)| k.as_str()).collect();
    let (page_words, page_prefixes) = page_uses(page);
    let used = |key: &str| {
        literals.contains(key)
            || built.contains(key)
            || key
                .strip_prefix(crate::companion::labels::PREFIX)
                .is_some_and(|k| {
                    page_words.contains(k)
                        || page_prefixes.iter().any(|p| k.starts_with(p.as_str()))
                })
    };
    for (name, messages, text) in &voice_keys {
        for key in messages.keys().filter(|k| !used(k)) {
            let line = super::messages::key_line(text, &["messages", key]).unwrap_or(0);
            problems.push(problem(
                format!("{name}:{line}"),
                &format!("key `{key}` is used by no code"),
            ));
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The crate's sources and the four built-in voices.
    fn crate_inputs() -> (Texts, String, Texts) {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let files: Vec<(String, String)> = sources(&root.join("src"))
            .into_iter()
            .map(|p| {
                let text = std::fs::read_to_string(&p).unwrap();
                // Named with '/' on every system (Windows writes '\\'),
                // as the checked folders and the planted files are.
                let name = p
                    .strip_prefix(root)
                    .unwrap_or(&p)
                    .display()
                    .to_string()
                    .replace('\\', "/");
                (name, text)
            })
            .collect();
        assert!(files.len() > 100, "only {} files", files.len());
        let page = std::fs::read_to_string(root.join("src/companion/page.html")).unwrap();
        let voices = Lang::ALL
            .into_iter()
            .map(|l| {
                let (name, text) = l.builtin_source();
                (name.to_owned(), text.to_owned())
            })
            .collect();
        (files, page, voices)
    }

    #[test]
    fn every_key_in_the_code_is_in_every_voice_and_every_voice_key_is_used() {
        let (files, page, voices) = crate_inputs();
        let problems = check(&files, &page, &voices);
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    #[test]
    fn the_app_the_start_up_and_the_front_ends_hold_no_wording() {
        let (mut files, _, _) = crate_inputs();
        let problems = wording_in_code(&files);
        assert!(problems.is_empty(), "{}", problems.join("\n"));
        // A planted sentence fails, naming its place; a key, a test's
        // sentence and an allowed record text do not.
        files.push((
            "src/app/planted.rs".to_owned(),
            "fn f() -> String {\n    let k = \"clock_stopped\";\n    format!(\"Your move was {k}\")\n}\n\
             #[cfg(test)]\nmod tests { const S: &str = \"Said in a test\"; }\n"
                .to_owned(),
        ));
        // The front ends are checked as the app: a key map's detail in
        // English (as `src/ui/tui/keys.rs` had before issue 27) fails.
        files.push((
            "src/ui/tui/planted.rs".to_owned(),
            "fn f(t: &str) -> String {\n    format!(\"{t} names no key\")\n}\n".to_owned(),
        ));
        // So are the line-mode key map and the board files (their details
        // were English until issue 27).
        let keymap = files
            .iter_mut()
            .find(|(f, _)| f == "src/keymap.rs")
            .expect("the key map is read");
        keymap.1.push_str(
            "\nfn planted(w: &str) -> String {\n    format!(\"{w} must be one word\")\n}\n",
        );
        let lines = keymap.1.lines().count();
        assert_eq!(
            wording_in_code(&files),
            vec![
                format!(
                    "src/keymap.rs:{}: \"{{w}} must be one word\" is wording: put it in the voices",
                    lines - 1
                ),
                "src/app/planted.rs:3: \"Your move was {k}\" is wording: put it in the voices"
                    .to_owned(),
                "src/ui/tui/planted.rs:2: \"{t} names no key\" is wording: put it in the voices"
                    .to_owned(),
            ]
        );
    }

    #[test]
    fn the_check_sees_the_calls_of_the_app() {
        let (files, _, _) = crate_inputs();
        let keys: usize = files.iter().map(|(_, s)| scan(s).keys.len()).sum();
        // About 400 calls with a key when the check came.
        assert!(keys > 350, "only {keys} keys found");
        let en = vocab::builtin(Lang::En).messages;
        let tables: usize = files
            .iter()
            .flat_map(|(_, s)| scan(s).tables)
            .filter(|t| t.iter().any(|(_, k)| en.contains_key(k)))
            .count();
        // About 40 tables of keys (`Reason::Later => "lichess_declined_later"`).
        assert!(tables > 35, "only {tables} tables of keys found");
    }

    #[test]
    fn a_misspelt_key_an_unused_voice_key_and_a_new_key_function_fail_by_name() {
        let (mut files, page, mut voices) = crate_inputs();
        files.push((
            "src/app/planted.rs".to_owned(),
            "fn f(v: &mut Voice<'_>) {\n    // \"a_comment\"\n    v.error(\n        \"clock_pres_nothing\",\n        &[],\n    );\n}\n\
             fn speak(&self, key: &str, args: &[(&str, &str)]) {}\n\
             fn why(r: R) -> &'static str { match r { R::A => \"clock_stopped\", R::B => (\"clock_stoped\", 1) } }\n\
             fn sign(n: i8) -> &'static str { match n { 1 => \"plus\", _ => \"minus_one\" } }\n\
             fn end(o: O) -> Option<&'static str> { match o { O::A => Some(\"over_stalemate\"), O::B => Some(\"over_stalemat\") } }\n\
             #[cfg(test)]\nmod tests { fn t(v: &mut Voice<'_>) { v.error(\"only_in_a_test\", &[]); } }\n"
                .to_owned(),
        ));
        for (_, text) in &mut voices {
            *text = text.replacen("[messages]\n", "[messages]\nnever_said = \"-\"\n", 1);
        }
        let problems = check(&files, &page, &voices);
        let want = [
            "src/app/planted.rs:4: key `clock_pres_nothing` is in no voice (voices/en.toml, voices/de.toml, voices/it.toml, voices/el.toml)",
            "src/app/planted.rs:8: `fn speak` takes a message key: add it to KEY_ARGS",
            "src/app/planted.rs:9: key `clock_stoped` (in a table of keys) is in no voice (voices/en.toml, voices/de.toml, voices/it.toml, voices/el.toml)",
            "src/app/planted.rs:11: key `over_stalemat` (in a table of keys) is in no voice (voices/en.toml, voices/de.toml, voices/it.toml, voices/el.toml)",
        ];
        for w in want {
            assert!(problems.iter().any(|p| p == w), "{w} not in {problems:#?}");
        }
        for (name, text) in &voices {
            let line = text
                .lines()
                .position(|l| l.starts_with("never_said"))
                .unwrap()
                + 1;
            let w = format!("{name}:{line}: key `never_said` is used by no code");
            assert!(problems.contains(&w), "{w} not in {problems:#?}");
        }
        assert_eq!(problems.len(), 8, "{problems:#?}");
    }

    #[test]
    fn tokens_keep_lines_and_skip_comments_chars_and_raw_strings() {
        let src = "a(\"k_1\") // \"no\"\n/* \"no\n */ 'x' '\\n' r#\"raw \"q\"\"# b(&'a x)\n\"two\nlines\" c";
        let toks = tokens(src);
        let strs: Vec<(String, usize)> = toks
            .iter()
            .filter_map(|(t, l)| match t {
                Tok::Str(s) => Some((s.clone(), *l)),
                _ => None,
            })
            .collect();
        assert_eq!(
            strs,
            vec![
                ("k_1".to_owned(), 1),
                ("raw \"q\"".to_owned(), 3),
                ("two\nlines".to_owned(), 4)
            ]
        );
        assert_eq!(toks.last(), Some(&(Tok::Ident("c".into()), 5)));
    }
}
