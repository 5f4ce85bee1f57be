//! Reading a settings file so that a mistake costs only its own key.
//!
//! A settings file is read key by key: each key is tried on its own against
//! [`Config`], and one that does not fit is reported (file, line, dotted key,
//! what it takes and what was found) and keeps its default, while every
//! other key of the file is used.  A line that is not TOML at all costs that
//! line.  Numbers out of range, and NaN, are reported and brought into range.
//! Language codes are read without regard to case.
//!
//! The problems are values ([`SettingProblem`]), worded by the phrasing in
//! the player's language.

use toml::{Table, Value};

use crate::board::hardware::MAX_SETTLE_MS;
use crate::config::Config;
use crate::toml_error::{Expect, SettingError, SettingProblem, line_of};

const MOVES: &[&str] = &["appendix-d", "language"];
const LANGS: &[&str] = &["en", "de", "it", "el"];
const FORMS: &[&str] = &["short", "long"];
const COLOURS: &[&str] = &["white", "black", "random"];
const SPEECH_MODES: &[&str] = &["auto", "tts", "print", "both"];

/// What each known setting takes.  Settings not listed here are still
/// read (and checked by [`Config`]); the list only words the errors.
const SCHEMA: &[(&str, Expect)] = &[
    ("announce.moves", Expect::OneOf(MOVES)),
    ("announce.language", Expect::OneOf(LANGS)),
    ("announce.form", Expect::OneOf(FORMS)),
    ("announce.name_captured", Expect::Bool),
    ("announce.say_colour", Expect::Bool),
    ("announce.say_number", Expect::Bool),
    ("announce.pawn_word", Expect::Bool),
    ("announce.confirm_own_moves", Expect::Bool),
    ("files.moves_voice", Expect::Text),
    ("files.messages_voice", Expect::Text),
    ("files.line_keymap", Expect::Text),
    ("game.my_colour", Expect::OneOf(COLOURS)),
    ("game.rated", Expect::Bool),
    ("speech.mode", Expect::OneOf(SPEECH_MODES)),
    ("speech.rate", Expect::Number { min: -1, max: 1 }),
    ("speech.pitch", Expect::Number { min: -1, max: 1 }),
    ("speech.volume", Expect::Number { min: 0, max: 1 }),
    ("tones.volume", Expect::Number { min: 0, max: 1 }),
    ("tones.opponent_move", Expect::Bool),
    ("tones.check", Expect::Bool),
    ("tones.low_time", Expect::Bool),
    ("tones.flag_fall", Expect::Bool),
    ("tones.mismatch", Expect::Bool),
    ("tones.error", Expect::Bool),
    ("tones.bell_fallback", Expect::Bool),
    ("board.port", Expect::Text),
    ("board.announce_touch", Expect::Bool),
    (
        "board.settle_ms",
        Expect::Whole {
            min: 0,
            max: MAX_SETTLE_MS as i64,
        },
    ),
    ("engine.play", Expect::Bool),
    ("engine.path", Expect::Text),
    ("engine.level", Expect::Whole { min: 1, max: 20 }),
    (
        "engine.elo",
        Expect::Whole {
            min: 500,
            max: 3500,
        },
    ),
    (
        "engine.move_time_ms",
        Expect::Whole {
            min: 1,
            max: 3_600_000,
        },
    ),
    (
        "engine.help_time_ms",
        Expect::Whole {
            min: 1,
            max: 600_000,
        },
    ),
    ("engine.threads", Expect::Whole { min: 1, max: 1024 }),
    (
        "engine.hash_mb",
        Expect::Whole {
            min: 1,
            max: 1_048_576,
        },
    ),
    ("engine.ponder", Expect::Bool),
    ("engine.options", Expect::Table),
    ("companion.enabled", Expect::Bool),
    ("companion.listen", Expect::Text),
    ("companion.view_without_code", Expect::Bool),
    ("companion.require_code", Expect::Bool),
    ("players.me", Expect::Text),
    ("players.white", Expect::Text),
    ("players.black", Expect::Text),
];

/// What `key` takes, when it is a known setting.
pub fn expected(key: &str) -> Option<Expect> {
    SCHEMA.iter().find(|(k, _)| *k == key).map(|(_, e)| *e)
}

/// A value as the player wrote it, short.
fn shown(v: &Value) -> String {
    let s = match v {
        Value::String(s) => format!("\"{s}\""),
        Value::Float(f) if f.is_nan() => "nan".to_owned(),
        Value::Float(f) if f.abs() >= 1e6 => format!("{f:e}"),
        other => other.to_string(),
    };
    crate::words::quote(&s)
}

/// Load the settings file at `path`.  A missing file is silent when it is
/// the usual place (`named` false) and a problem when it was named on the
/// command line.
pub fn load(path: &std::path::Path, named: bool) -> (Config, Vec<SettingError>) {
    let file = path.display().to_string();
    let whole = |problem| SettingError {
        file: file.clone(),
        line: None,
        key: None,
        problem,
    };
    match std::fs::read(path) {
        Ok(bytes) => {
            // A line that is not UTF-8 costs that line only.
            let (text, mut problems) = crate::toml_error::text_of(&file, &bytes);
            let (config, rest) = read(&file, &text);
            problems.extend(rest);
            problems.sort_by_key(|p| p.line);
            (config, problems)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let problems = if named {
                vec![whole(SettingProblem::NoSuchFile)]
            } else {
                Vec::new()
            };
            (Config::default(), problems)
        }
        Err(e) => (
            Config::default(),
            vec![whole(SettingProblem::Unreadable(
                crate::toml_error::IoWhy::of(&e),
            ))],
        ),
    }
}

/// Read `text` (the contents of `file`): the settings, and every problem.
pub fn read(file: &str, text: &str) -> (Config, Vec<SettingError>) {
    let mut errors = Vec::new();
    let table = parse_forgiving(file, text, &mut errors);
    let mut good = Table::new();
    for (section, value) in table {
        let Value::Table(keys) = value else {
            errors.push(error_at(
                file,
                text,
                None,
                &section,
                SettingProblem::Unknown,
            ));
            continue;
        };
        // A table hector does not have costs that table alone, said once.
        if !known_table(file, &section) {
            errors.push(error_at(
                file,
                text,
                None,
                &section,
                SettingProblem::UnknownTable,
            ));
            continue;
        }
        let mut kept = Table::new();
        for (key, value) in keys {
            let dotted = format!("{section}.{key}");
            let value = normalise(&dotted, value);
            let value = match clamp(&dotted, &value) {
                Some((used, problem)) => {
                    errors.push(error_at(file, text, Some(&section), &key, problem));
                    used
                }
                None => value,
            };
            match try_one(file, &section, &key, &value) {
                Ok(()) => {
                    kept.insert(key, value);
                }
                Err(unknown) => {
                    let problem = if unknown {
                        SettingProblem::Unknown
                    } else {
                        SettingProblem::Wrong {
                            expect: expected(&dotted),
                            found: shown(&value),
                        }
                    };
                    errors.push(error_at(file, text, Some(&section), &key, problem));
                }
            }
        }
        good.insert(section, Value::Table(kept));
    }
    let config = assemble(file, good);
    // In the order of the file.
    errors.sort_by_key(|e| e.line.unwrap_or(usize::MAX));
    (config, errors)
}

/// The settings kept, as one [`Config`].  Every table was checked on its
/// own; should the whole still not be a good file, the tables are taken
/// one by one, so that one table never costs the others.
fn assemble(file: &str, good: Table) -> Config {
    if let Some(c) = toml::to_string(&good)
        .ok()
        .and_then(|t| Config::parse(file, &t).ok())
    {
        return c;
    }
    let mut kept = Table::new();
    for (section, value) in good {
        let mut with = kept.clone();
        with.insert(section, value);
        if toml::to_string(&with)
            .ok()
            .is_some_and(|t| Config::parse(file, &t).is_ok())
        {
            kept = with;
        }
    }
    toml::to_string(&kept)
        .ok()
        .and_then(|t| Config::parse(file, &t).ok())
        .unwrap_or_default()
}

/// Whether hector has a table of this name.
fn known_table(file: &str, section: &str) -> bool {
    let mut outer = Table::new();
    outer.insert(section.to_owned(), Value::Table(Table::new()));
    toml::to_string(&outer)
        .ok()
        .is_none_or(|t| match Config::parse(file, &t) {
            Ok(_) => true,
            Err(e) => !e.detail.starts_with("unknown field"),
        })
}

/// The name of the table a header line opens (`[speech]` → `speech`).
fn header_name(line: &str) -> Option<String> {
    let l = line.trim();
    if l.starts_with("[[") {
        return None;
    }
    l.strip_prefix('[')
        .and_then(|r| r.split_once(']').map(|(n, _)| n.trim().to_owned()))
}

/// The table a line (1-based) is in: the last header above it.
fn table_of_line(lines: &[String], line: usize) -> Option<String> {
    lines
        .iter()
        .take(line.saturating_sub(1))
        .rev()
        .find_map(|l| header_name(l))
}

/// A duplicate at `line` (1-based) in `lines`: the lines it costs (its
/// own; for a table, its header and every line to the next header), and
/// the problem with the table or key it concerns.  `None`: the first
/// occurrence is not found (a duplicate inside an inline table), to be
/// treated as a broken line.
fn duplicate_at(
    lines: &[String],
    line: usize,
) -> Option<(std::ops::Range<usize>, Option<String>, SettingProblem)> {
    let here = lines.get(line.checked_sub(1)?)?;
    if let Some(name) = header_name(here) {
        let first = lines
            .iter()
            .take(line - 1)
            .position(|l| header_name(l).as_deref() == Some(name.as_str()))?
            + 1;
        let end = lines
            .iter()
            .enumerate()
            .skip(line)
            .find(|(_, l)| header_name(l).is_some())
            .map_or(lines.len(), |(i, _)| i);
        return Some((
            line - 1..end,
            Some(name),
            SettingProblem::DuplicateTable { first },
        ));
    }
    let key = here.split_once('=')?.0.trim().trim_matches('"').to_owned();
    let section = table_of_line(lines, line);
    let before = lines[..line - 1].join("\n");
    let first = line_of_key(&before, section.as_deref(), &key)?;
    let dotted = match section {
        Some(s) => format!("{s}.{key}"),
        None => key,
    };
    Some((
        line - 1..line,
        Some(dotted),
        SettingProblem::Duplicate { first },
    ))
}

/// The file as a table; a line that is not TOML is reported and left out,
/// a key or table given twice is reported as such and its second
/// occurrence left out (at most 50 such mistakes).
fn parse_forgiving(file: &str, text: &str, errors: &mut Vec<SettingError>) -> Table {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    for _ in 0..50 {
        let current = lines.join("\n");
        match current.parse::<Table>() {
            Ok(t) => return t,
            Err(e) => {
                let Some(span) = e.span() else { break };
                let line = line_of(&current, span.start);
                let duplicate = if e.message().starts_with("duplicate key") {
                    duplicate_at(&lines, line)
                } else {
                    None
                };
                if let Some((cost, key, problem)) = duplicate {
                    errors.push(SettingError {
                        file: file.to_owned(),
                        line: Some(line),
                        key,
                        problem,
                    });
                    for l in &mut lines[cost] {
                        l.clear();
                    }
                    continue;
                }
                errors.push(SettingError {
                    file: file.to_owned(),
                    line: Some(line),
                    key: None,
                    problem: SettingProblem::Syntax,
                });
                match lines.get_mut(line.saturating_sub(1)) {
                    Some(l) if !l.is_empty() => l.clear(),
                    _ => break,
                }
            }
        }
    }
    Table::new()
}

/// Whether `section.key = value` alone is a good settings file: `Err(true)`
/// when the key (or section) is unknown.
fn try_one(file: &str, section: &str, key: &str, value: &Value) -> Result<(), bool> {
    let mut inner = Table::new();
    inner.insert(key.to_owned(), value.clone());
    let mut outer = Table::new();
    outer.insert(section.to_owned(), Value::Table(inner));
    let text = toml::to_string(&outer).map_err(|_| false)?;
    match Config::parse(file, &text) {
        Ok(_) => Ok(()),
        Err(e) => Err(e.detail.starts_with("unknown field")),
    }
}

/// Language codes and the other word settings are read without regard to
/// case.
fn normalise(dotted: &str, value: Value) -> Value {
    match (expected(dotted), value) {
        (Some(Expect::OneOf(_)), Value::String(s)) => Value::String(s.trim().to_lowercase()),
        // A name is said, shown and journalled: text from outside, cleaned
        // of escape sequences and control characters (issue 31).
        (_, Value::String(s)) if dotted.starts_with("players.") => {
            Value::String(crate::words::cleaned(&s))
        }
        (_, v) => v,
    }
}

/// A number out of its range (or NaN): the value to use and the problem.
fn clamp(dotted: &str, value: &Value) -> Option<(Value, SettingProblem)> {
    let expect = expected(dotted)?;
    match (expect, value) {
        (Expect::Number { min, max }, Value::Float(_) | Value::Integer(_)) => {
            let x = match value {
                Value::Float(f) => *f,
                Value::Integer(i) => *i as f64,
                _ => return None,
            };
            let (min, max) = (min as f64, max as f64);
            if (min..=max).contains(&x) {
                return None;
            }
            // NaN: the middle of the range would be a guess; use the
            // nearest end for an overflow, and leave NaN to the default.
            if x.is_nan() {
                return Some((
                    Value::Float(default_number(dotted)),
                    SettingProblem::Clamped {
                        expect,
                        found: shown(value),
                        used: trim_float(default_number(dotted)),
                    },
                ));
            }
            let used = x.clamp(min, max);
            Some((
                Value::Float(used),
                SettingProblem::Clamped {
                    expect,
                    found: shown(value),
                    used: trim_float(used),
                },
            ))
        }
        (Expect::Whole { min, max }, Value::Integer(i)) if !(min..=max).contains(i) => {
            let used = (*i).clamp(min, max);
            Some((
                Value::Integer(used),
                SettingProblem::Clamped {
                    expect,
                    found: shown(value),
                    used: used.to_string(),
                },
            ))
        }
        _ => None,
    }
}

fn default_number(dotted: &str) -> f64 {
    let d = Config::default();
    f64::from(match dotted {
        "speech.rate" => d.speech.rate,
        "speech.pitch" => d.speech.pitch,
        "speech.volume" => d.speech.volume,
        "tones.volume" => d.tones.volume,
        _ => 0.0,
    })
}

fn trim_float(x: f64) -> String {
    let s = format!("{x:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_owned()
    } else {
        s.to_owned()
    }
}

/// The error for `key` (in `section`, if any), with the line it is on.
fn error_at(
    file: &str,
    text: &str,
    section: Option<&str>,
    key: &str,
    problem: SettingProblem,
) -> SettingError {
    let dotted = match section {
        Some(s) => format!("{s}.{key}"),
        None => key.to_owned(),
    };
    SettingError {
        file: file.to_owned(),
        line: line_of_key(text, section, key),
        key: Some(dotted),
        problem,
    }
}

/// The line of `key =` inside `[section]` (or of `[key]` for a section).
fn line_of_key(text: &str, section: Option<&str>, key: &str) -> Option<usize> {
    let mut current: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        let l = line.trim();
        // A header has its closing bracket: "[board" is a broken line that
        // was left out, and the keys after it stay in the table before.
        if let Some(name) = l
            .strip_prefix('[')
            .and_then(|r| r.split_once(']').map(|(n, _)| n))
        {
            let name = name.trim().trim_matches('[').trim().to_owned();
            if section.is_none() && name == key {
                return Some(i + 1);
            }
            current = Some(name);
            continue;
        }
        let in_section = match section {
            Some(s) => current.as_deref() == Some(s),
            None => current.is_none(),
        };
        let this_key = l.split('=').next().map(|k| k.trim().trim_matches('"'));
        if in_section && l.contains('=') && this_key == Some(key) {
            return Some(i + 1);
        }
        // A dotted key at the top: `speech.rate = 2`.
        if let Some(s) = section
            && current.is_none()
            && this_key == Some(format!("{s}.{key}").as_str())
        {
            return Some(i + 1);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::Lang;

    #[test]
    fn a_bad_value_costs_only_its_key() {
        let text = "[announce]\nlanguage = \"de\"\nmoves = \"klingon\"\nform = \"long\"\n\
                    [speech]\nrate = 0.5\n";
        let (c, e) = read("c.toml", text);
        assert_eq!(c.announce.language, Lang::De);
        assert_eq!(c.announce.form, crate::phrase::Form::Long);
        assert_eq!(c.speech.rate, 0.5);
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(e[0].line, Some(3));
        assert_eq!(e[0].key.as_deref(), Some("announce.moves"));
        assert_eq!(
            e[0].problem,
            SettingProblem::Wrong {
                expect: Some(Expect::OneOf(MOVES)),
                found: "\"klingon\"".into()
            }
        );
    }

    #[test]
    fn every_error_is_reported_with_its_table() {
        let text =
            "[announce]\nlangauge = \"de\"\n[tones]\ncheck = 3\nchek = false\n[nonsense]\nx = 1\n";
        let (c, e) = read("c.toml", text);
        let keys: Vec<_> = e
            .iter()
            .map(|e| (e.line, e.key.clone().unwrap_or_default()))
            .collect();
        assert_eq!(
            keys,
            vec![
                (Some(2), "announce.langauge".to_owned()),
                (Some(4), "tones.check".to_owned()),
                (Some(5), "tones.chek".to_owned()),
                (Some(6), "nonsense".to_owned()),
            ]
        );
        assert!(c.tones.check, "the default is kept");
        assert_eq!(e[0].problem, SettingProblem::Unknown);
        assert_eq!(e[3].problem, SettingProblem::UnknownTable);
    }

    /// Issue 18, item 10: `[bogus]` threw the whole file away (English,
    /// the short form); it costs only its own table, said at its line.
    #[test]
    fn an_unknown_table_costs_only_itself() {
        let text = "[announce]\nlanguage = \"de\"\nform = \"long\"\n[bogus]\nx = 1\ny = 2\n\
                    [speech]\nrate = 0.5\n";
        let (c, e) = read("c.toml", text);
        assert_eq!(c.announce.language, Lang::De);
        assert_eq!(c.announce.form, crate::phrase::Form::Long);
        assert_eq!(c.speech.rate, 0.5);
        assert_eq!(
            e,
            vec![SettingError {
                file: "c.toml".into(),
                line: Some(4),
                key: Some("bogus".into()),
                problem: SettingProblem::UnknownTable
            }]
        );
    }

    /// A key given twice is a duplicate, not "not a setting": the first is
    /// used, the second left out, and the rest of the file is read.
    #[test]
    fn a_duplicate_key_is_reported_as_a_duplicate() {
        let text = "[announce]\nlanguage = \"de\"\nform = \"long\"\nlanguage = \"it\"\n\
                    [speech]\nrate = 0.5\n";
        let (c, e) = read("c.toml", text);
        assert_eq!(c.announce.language, Lang::De);
        assert_eq!(c.announce.form, crate::phrase::Form::Long);
        assert_eq!(c.speech.rate, 0.5);
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(e[0].line, Some(4));
        assert_eq!(e[0].key.as_deref(), Some("announce.language"));
        assert_eq!(e[0].problem, SettingProblem::Duplicate { first: 2 });
    }

    /// A table given twice: the first is used; the second, with its keys,
    /// is left out (its keys do not slip into the table before it).
    #[test]
    fn a_duplicate_table_costs_only_its_second_occurrence() {
        let text = "[announce]\nlanguage = \"de\"\n[speech]\nrate = 0.5\n\
                    [announce]\nform = \"long\"\n[tones]\ncheck = false\n";
        let (c, e) = read("c.toml", text);
        assert_eq!(c.announce.language, Lang::De);
        assert_eq!(c.announce.form, crate::phrase::Form::Short);
        assert_eq!(c.speech.rate, 0.5);
        assert!(!c.tones.check);
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(e[0].line, Some(5));
        assert_eq!(e[0].key.as_deref(), Some("announce"));
        assert_eq!(e[0].problem, SettingProblem::DuplicateTable { first: 1 });
    }

    #[test]
    fn numbers_out_of_range_and_nan_are_clamped_and_reported() {
        let text = "[speech]\nrate = 1e308\npitch = nan\nvolume = -2\n[board]\nsettle_ms = 99999\n";
        let (c, e) = read("c.toml", text);
        assert_eq!(c.speech.rate, 1.0);
        assert_eq!(c.speech.pitch, Config::default().speech.pitch);
        assert_eq!(c.speech.volume, 0.0);
        assert_eq!(c.board.settle_ms, Some(5000));
        assert_eq!(e.len(), 4, "{e:?}");
        assert_eq!(
            e[0].problem,
            SettingProblem::Clamped {
                expect: Expect::Number { min: -1, max: 1 },
                found: "1e308".into(),
                used: "1".into()
            }
        );
    }

    #[test]
    fn language_codes_ignore_case() {
        let (c, e) = read("c.toml", "[announce]\nlanguage = \"DE\"\n");
        assert!(e.is_empty(), "{e:?}");
        assert_eq!(c.announce.language, Lang::De);
    }

    #[test]
    fn a_line_that_is_not_toml_costs_that_line() {
        let text = "[announce]\nlanguage = \"it\"\nthis is not toml\nform = \"long\"\n";
        let (c, e) = read("c.toml", text);
        assert_eq!(c.announce.language, Lang::It);
        assert_eq!(c.announce.form, crate::phrase::Form::Long);
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(e[0].line, Some(3));
        assert_eq!(e[0].problem, SettingProblem::Syntax);
    }

    #[test]
    fn a_broken_header_is_a_line_left_out_and_the_keys_after_it_keep_their_lines() {
        // "[board" is left out; "port" then belongs to [announce], and is
        // reported on its own line.
        let text = "[announce]\nform = \"long\"\n[board\nport = 3\n";
        let (c, e) = read("c.toml", text);
        assert_eq!(c.announce.form, crate::phrase::Form::Long);
        let found: Vec<_> = e.iter().map(|e| (e.line, e.key.clone())).collect();
        assert_eq!(
            found,
            vec![(Some(3), None), (Some(4), Some("announce.port".to_owned()))]
        );
    }

    #[test]
    fn a_missing_file_is_a_problem_only_when_named() {
        let path = std::path::Path::new("/nonexistent/hector/config.toml");
        let (c, e) = load(path, false);
        assert_eq!(c, Config::default());
        assert!(e.is_empty());
        let (_, e) = load(path, true);
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].problem, SettingProblem::NoSuchFile);
    }

    /// The comments of the shipped data files name settings that exist.
    #[test]
    fn comments_in_the_data_files_name_real_settings() {
        let files = [
            include_str!("../voices/appendix-d.toml"),
            include_str!("../voices/en.toml"),
            include_str!("../voices/de.toml"),
            include_str!("../voices/it.toml"),
            include_str!("../keymaps/line.toml"),
        ];
        let mut named = 0;
        for text in files {
            for comment in text
                .lines()
                .filter_map(|l| l.split_once('#').map(|(_, c)| c))
            {
                for quoted in comment.split('`').skip(1).step_by(2) {
                    let dotted = quoted.split_whitespace().next().unwrap_or("");
                    let is_key = dotted.contains('.')
                        && dotted
                            .chars()
                            .all(|c| c.is_ascii_lowercase() || c == '_' || c == '.');
                    if is_key {
                        named += 1;
                        assert!(expected(dotted).is_some(), "{dotted} in: {comment}");
                    }
                }
            }
        }
        assert!(named >= 1, "the appendix-d file names its setting");
    }

    #[test]
    fn a_good_file_has_no_problems() {
        let text =
            "[announce]\nlanguage = \"de\"\n[engine]\nlevel = 3\n[engine.options]\nThreads = 2\n";
        let (c, e) = read("c.toml", text);
        assert!(e.is_empty(), "{e:?}");
        assert_eq!(c.engine.level, Some(3));
        assert_eq!(c.engine.options.len(), 1);
    }
}
