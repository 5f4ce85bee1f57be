//! Checking a message-language voices file: it must have `[colours]`, every
//! message key of the built-in English file and no other, and its templates
//! may use only the placeholders the program fills for that key.
//!
//! The built-in English file is the reference: a key's placeholders are the
//! ones its English template uses, plus the few in [`EXTRA_PLACEHOLDERS`]
//! that the program also fills for languages that word it differently.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use toml::de::{DeTable, DeValue};

use crate::words::template;
use crate::words::vocab::{self, GenderedPhrase, Lang, VoiceError, VoiceFile};

/// Placeholders filled for a key beyond those its English template uses.
const EXTRA_PLACEHOLDERS: &[(&str, &[&str])] = &[
    ("reason_opponents_piece", &["square", "owner"]),
    ("attackers", &["side"]),
    ("attackers_none", &["side"]),
    ("defenders", &["side"]),
    ("defenders_none", &["side"]),
    ("config_error", &["place"]),
    // "kein Bauer", "keine Dame": the word for "no" agrees with the piece.
    ("reason_no_piece_can_reach", &["no_piece"]),
];

/// The one placeholder of a colour phrase.
const COLOUR_PLACEHOLDER: &str = "piece";

/// The placeholders the program fills for message `key`; `None` for a key
/// the built-in English file does not have.
pub fn allowed_placeholders(key: &str) -> Option<BTreeSet<String>> {
    let template = reference().messages.get(key)?;
    let mut names: BTreeSet<String> = template::placeholders(template)
        .map(|s| s.into_iter().map(str::to_owned).collect())
        .unwrap_or_default();
    for (k, extra) in EXTRA_PLACEHOLDERS {
        if *k == key {
            names.extend(extra.iter().map(|s| (*s).to_owned()));
        }
    }
    Some(names)
}

/// The built-in English template of message `key`: what a voice that
/// lacks the key says instead.
pub fn english(key: &str) -> Option<&'static String> {
    reference().messages.get(key)
}

/// The built-in English file, parsed once: the reference for every check.
fn reference() -> &'static VoiceFile {
    static REFERENCE: OnceLock<VoiceFile> = OnceLock::new();
    REFERENCE.get_or_init(|| vocab::builtin(Lang::En))
}

/// 1-based line of the key at `path` (e.g. `["messages", "prompt"]`) in the
/// TOML `text`, or of the deepest table on the path that exists.
pub fn key_line(text: &str, path: &[&str]) -> Option<usize> {
    let doc = DeTable::parse(text).ok()?;
    let mut table: &DeTable = doc.get_ref();
    let mut line = None;
    for name in path {
        let Some((k, v)) = table.iter().find(|(k, _)| k.get_ref().as_ref() == *name) else {
            return line;
        };
        line = Some(crate::toml_error::line_of(text, k.span().start));
        match v.get_ref() {
            DeValue::Table(t) => table = t,
            _ => return line,
        }
    }
    line
}

/// Check the `[colours]` and `[messages]` of a message-language file.
/// `file` names it in the error; `text`, its source when known, gives the
/// line numbers.
pub fn check_messages(file: &str, vf: &VoiceFile, text: Option<&str>) -> Result<(), VoiceError> {
    let error = |path: &[&str], detail: String| VoiceError {
        file: file.to_owned(),
        line: text.and_then(|t| key_line(t, path)),
        key: Some(path.join(".")),
        detail,
    };
    let Some(colours) = &vf.colours else {
        return Err(error(&["colours"], "missing table `[colours]`".to_owned()));
    };
    let phrases = [
        ("white_piece", Some(&colours.white_piece)),
        ("black_piece", Some(&colours.black_piece)),
        ("the_white_piece", colours.the_white_piece.as_ref()),
        ("the_black_piece", colours.the_black_piece.as_ref()),
        ("no_piece", colours.no_piece.as_ref()),
    ];
    for (name, phrase) in phrases {
        let Some(phrase) = phrase else { continue };
        check_phrase(phrase, |gender, detail| {
            error(&["colours", name, gender], detail)
        })?;
    }
    if vf.numbers.is_none() {
        return Err(error(&["numbers"], "missing table `[numbers]`".to_owned()));
    }
    if let Some((i, p)) = vf
        .joins
        .iter()
        .enumerate()
        .find_map(|(i, j)| j.problem().map(|p| (i, p)))
    {
        return Err(error(&["joins"], format!("join {}: {p}", i + 1)));
    }
    let reference = vocab::builtin(Lang::En);
    if let Some(key) = reference
        .messages
        .keys()
        .find(|k| !vf.messages.contains_key(*k))
    {
        // The key is not in the file: point at the [messages] table.
        let mut e = error(&["messages"], format!("missing key `{key}`"));
        e.key = Some(format!("messages.{key}"));
        return Err(e);
    }
    for (key, value) in &vf.messages {
        let path = ["messages", key.as_str()];
        let Some(allowed) = allowed_placeholders(key) else {
            return Err(error(&path, format!("unknown key `{key}`")));
        };
        let used = template::placeholders(value).map_err(|e| error(&path, e.to_string()))?;
        let nouns = template::nouns(value).map_err(|e| error(&path, e.to_string()))?;
        if let Some(noun) = nouns.iter().find(|n| !vf.nouns.contains_key(**n)) {
            return Err(error(
                &path,
                format!("`{{…:{noun}}}` counts a noun that `[nouns]` does not have"),
            ));
        }
        if let Some(bad) = used.iter().find(|u| !allowed.contains(**u)) {
            let known: Vec<String> = allowed.iter().map(|a| format!("{{{a}}}")).collect();
            return Err(error(
                &path,
                format!(
                    "unknown placeholder `{{{bad}}}` (known here: {})",
                    known.join(" ")
                ),
            ));
        }
    }
    Ok(())
}

/// One thing a message-language file lacks or has wrong: the dotted key
/// (`messages.goodbye`) and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gap {
    pub key: String,
    pub detail: String,
    /// The key is in the file but cannot be used as written.
    pub wrong: bool,
}

/// What a message-language file lacks against the built-in English one:
/// each missing key, each key that English does not have, each key whose
/// placeholders are not the English ones (a translation that drops
/// `{move}` would leave the move unsaid), each counted noun the file does
/// not define, and missing number words.
pub fn gaps(vf: &VoiceFile) -> Vec<Gap> {
    let reference = reference();
    let mut out = Vec::new();
    let gap = |key: String, detail: String, wrong: bool| Gap { key, detail, wrong };
    if vf.colours.is_none() {
        out.push(gap(
            "colours".into(),
            "missing table `[colours]`".into(),
            false,
        ));
    }
    if vf.numbers.is_none() {
        out.push(gap(
            "numbers".into(),
            "missing table `[numbers]`".into(),
            false,
        ));
    }
    for noun in reference.nouns.keys() {
        if !vf.nouns.contains_key(noun) {
            out.push(gap(
                format!("nouns.{noun}"),
                format!("missing noun `{noun}`"),
                false,
            ));
        }
    }
    for arg in reference.arguments.keys() {
        if vf.arguments.get(arg).is_none_or(Vec::is_empty) {
            out.push(gap(
                format!("arguments.{arg}"),
                format!("missing argument words `{arg}`"),
                false,
            ));
        }
    }
    for (i, join) in vf.joins.iter().enumerate() {
        if let Some(p) = join.problem() {
            out.push(gap(format!("joins[{i}]"), p, true));
        }
    }
    for key in reference.messages.keys() {
        if !vf.messages.contains_key(key) {
            out.push(gap(
                format!("messages.{key}"),
                format!("missing key `messages.{key}`"),
                false,
            ));
        }
    }
    for (key, value) in &vf.messages {
        let path = format!("messages.{key}");
        let Some(en) = reference.messages.get(key) else {
            out.push(gap(path, format!("unknown key `messages.{key}`"), true));
            continue;
        };
        let want = template::placeholders(en).unwrap_or_default();
        let (Ok(used), Ok(nouns)) = (template::placeholders(value), template::nouns(value)) else {
            out.push(gap(path, format!("`messages.{key}` does not parse"), true));
            continue;
        };
        let allowed = allowed_placeholders(key).unwrap_or_default();
        // A key with extra placeholders may be worded with those instead
        // ("il pezzo in {square} è del {owner}" for "that is {piece}").
        let reworded = EXTRA_PLACEHOLDERS.iter().any(|(k, _)| k == key);
        let lost: Vec<&&str> = want
            .iter()
            .filter(|w| !reworded && !used.contains(**w))
            .collect();
        let extra: Vec<&&str> = used.iter().filter(|u| !allowed.contains(**u)).collect();
        if !lost.is_empty() || !extra.is_empty() {
            out.push(gap(
                path.clone(),
                format!(
                    "`messages.{key}` placeholders differ from English: missing {lost:?}, unknown {extra:?}"
                ),
                true,
            ));
        }
        // A noun missing from `[nouns]` that English has is a gap of its
        // own (above); one that no file has is this template's fault.
        let unknown = |n: &&str| !vf.nouns.contains_key(*n) && !reference.nouns.contains_key(*n);
        if let Some(noun) = nouns.iter().find(|n| unknown(n)) {
            out.push(gap(
                path,
                format!("`messages.{key}` counts `{noun}`, which `[nouns]` does not have"),
                true,
            ));
        }
    }
    out
}

/// [`gaps`] as one line per problem; empty when the file is complete.  The
/// tests hold every built-in language to it.
#[cfg_attr(not(test), allow(dead_code))] // Used by the completeness tests.
pub fn incompleteness(vf: &VoiceFile) -> Vec<String> {
    gaps(vf).into_iter().map(|g| g.detail).collect()
}

/// A user's message file made whole: what it lacks or has wrong is taken
/// from `base` (the built-in file of its language), and each such key is
/// returned as an error naming the file, the line and the key, so that the
/// player hears it and nothing is lost.
pub fn complete_from(
    file: &str,
    text: &str,
    mut vf: VoiceFile,
    base: &VoiceFile,
) -> (VoiceFile, Vec<VoiceError>) {
    let mut errors = Vec::new();
    for g in gaps(&vf) {
        let path: Vec<&str> = g.key.split('.').collect();
        // A key that is missing is pointed at by its table's line.
        let line_path = if g.wrong {
            &path[..]
        } else {
            &path[..path.len().saturating_sub(1)]
        };
        errors.push(VoiceError {
            file: file.to_owned(),
            line: key_line(text, line_path),
            key: Some(g.key.clone()),
            detail: g.detail,
        });
        match path.as_slice() {
            ["colours"] => vf.colours.clone_from(&base.colours),
            ["numbers"] => vf.numbers.clone_from(&base.numbers),
            ["arguments", arg] => {
                if let Some(w) = base.arguments.get(*arg) {
                    vf.arguments.insert((*arg).to_owned(), w.clone());
                }
            }
            ["nouns", noun] => {
                if let Some(n) = base.nouns.get(*noun) {
                    vf.nouns.insert((*noun).to_owned(), n.clone());
                }
            }
            ["messages", key] => match base.messages.get(*key) {
                Some(m) => {
                    vf.messages.insert((*key).to_owned(), m.clone());
                }
                None => {
                    vf.messages.remove(*key);
                }
            },
            _ => {}
        }
    }
    vf.joins.retain(|j| j.problem().is_none());
    // Colour phrases with a wrong placeholder: the built-in ones.
    if let Err(e) = check_messages(file, &vf, Some(text))
        && e.key.as_deref().is_some_and(|k| k.starts_with("colours"))
    {
        vf.colours.clone_from(&base.colours);
        errors.push(e);
    }
    // A noun or template of the base that names a noun the file lacks.
    for (k, n) in &base.nouns {
        vf.nouns.entry(k.clone()).or_insert_with(|| n.clone());
    }
    (vf, errors)
}

/// Check the templates of one gendered colour phrase: `{piece}` only.
fn check_phrase(
    phrase: &GenderedPhrase,
    error: impl Fn(&str, String) -> VoiceError,
) -> Result<(), VoiceError> {
    let forms = [
        ("m", Some(&phrase.m)),
        ("f", phrase.f.as_ref()),
        ("n", phrase.n.as_ref()),
    ];
    for (gender, form) in forms {
        let Some(form) = form else { continue };
        let used = template::placeholders(form).map_err(|e| error(gender, e.to_string()))?;
        if let Some(bad) = used.iter().find(|u| **u != COLOUR_PLACEHOLDER) {
            return Err(error(
                gender,
                format!("unknown placeholder `{{{bad}}}` (known here: {{{COLOUR_PLACEHOLDER}}})"),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::vocab::parse_voice_file;

    fn en_text() -> &'static str {
        Lang::En.builtin_source().1
    }

    fn line_starting(text: &str, start: &str) -> Option<usize> {
        text.lines()
            .position(|l| l.starts_with(start))
            .map(|i| i + 1)
    }

    fn check_text(text: &str) -> Result<(), VoiceError> {
        let vf = parse_voice_file("my.toml", text)?;
        check_messages("my.toml", &vf, Some(text))
    }

    #[test]
    fn builtin_message_files_pass() {
        for lang in Lang::ALL {
            let (name, text) = lang.builtin_source();
            check_text(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }

    #[test]
    fn all_languages_have_the_same_keys() {
        let en: Vec<String> = vocab::builtin(Lang::En).messages.into_keys().collect();
        assert!(en.len() > 100, "only {} keys", en.len());
        for lang in Lang::ALL.into_iter().filter(|l| *l != Lang::En) {
            let keys: Vec<String> = vocab::builtin(lang).messages.into_keys().collect();
            assert_eq!(keys, en, "{lang:?}");
        }
    }

    #[test]
    fn every_language_is_complete_with_the_same_placeholders() {
        for lang in Lang::ALL {
            let problems = incompleteness(&vocab::builtin(lang));
            assert!(problems.is_empty(), "{}: {problems:#?}", lang.code());
        }
    }

    #[test]
    fn completeness_check_names_a_removed_key_and_a_lost_placeholder() {
        for lang in Lang::ALL.into_iter().filter(|l| *l != Lang::En) {
            let (_, text) = lang.builtin_source();
            let broken: String = text
                .lines()
                .filter(|l| !l.starts_with("goodbye ="))
                .map(|l| format!("{l}\n"))
                .collect();
            assert_ne!(broken, text);
            let vf = parse_voice_file("copy.toml", &broken).unwrap();
            let problems = incompleteness(&vf);
            assert_eq!(
                problems,
                vec!["missing key `messages.goodbye`".to_owned()],
                "{}",
                lang.code()
            );
            let mut vf = vocab::builtin(lang);
            vf.messages.insert("flipped".to_owned(), "-".to_owned());
            let problems = incompleteness(&vf);
            assert_eq!(problems.len(), 1, "{problems:?}");
            assert!(problems[0].contains("messages.flipped") && problems[0].contains("side"));
        }
    }

    #[test]
    fn extra_placeholders_name_real_keys() {
        let en = vocab::builtin(Lang::En);
        for (key, _) in EXTRA_PLACEHOLDERS {
            assert!(en.messages.contains_key(*key), "{key}");
        }
    }

    #[test]
    fn missing_key_names_file_table_line_and_key() {
        let text = en_text();
        let broken: String = text
            .lines()
            .filter(|l| !l.starts_with("goodbye ="))
            .map(|l| format!("{l}\n"))
            .collect();
        let err = check_text(&broken).unwrap_err();
        assert_eq!(err.file, "my.toml");
        assert_eq!(err.key.as_deref(), Some("messages.goodbye"));
        assert_eq!(err.line, line_starting(&broken, "[messages]"));
        assert!(err.detail.contains("goodbye"), "{}", err.detail);
    }

    #[test]
    fn unknown_placeholder_names_its_line() {
        let broken = en_text().replace(
            "flipped = \"You play {side}.\"",
            "flipped = \"You play {colour}.\"",
        );
        assert_ne!(broken, en_text());
        let err = check_text(&broken).unwrap_err();
        assert_eq!(err.key.as_deref(), Some("messages.flipped"));
        assert_eq!(err.line, line_starting(&broken, "flipped ="));
        assert!(err.detail.contains("{colour}"), "{}", err.detail);
        assert!(err.detail.contains("{side}"), "{}", err.detail);
    }

    #[test]
    fn extra_placeholder_is_accepted_where_the_program_fills_it() {
        let text = en_text().replace(
            "reason_opponents_piece = \"",
            "reason_opponents_piece = \"{owner} {square} ",
        );
        assert_ne!(text, en_text());
        check_text(&text).unwrap();
    }

    #[test]
    fn unclosed_brace_is_an_error() {
        let broken = en_text().replace(
            "flipped = \"You play {side}.\"",
            "flipped = \"You play {side.\"",
        );
        let err = check_text(&broken).unwrap_err();
        assert_eq!(err.key.as_deref(), Some("messages.flipped"));
        assert_eq!(err.line, line_starting(&broken, "flipped ="));
    }

    #[test]
    fn unknown_key_is_an_error() {
        let broken = en_text().replace("goodbye =", "goodby = \"Bye.\"\ngoodbye =");
        let err = check_text(&broken).unwrap_err();
        assert_eq!(err.key.as_deref(), Some("messages.goodby"));
        assert_eq!(err.line, line_starting(&broken, "goodby ="));
    }

    #[test]
    fn missing_colours_is_an_error() {
        let (_, text) = vocab::APPENDIX_D_SOURCE;
        let err = check_text(text).unwrap_err();
        assert_eq!(err.key.as_deref(), Some("colours"));
    }

    #[test]
    fn colour_phrase_placeholder_is_checked() {
        let broken = en_text().replace("m = \"white {piece}\"", "m = \"white {piec}\"");
        assert_ne!(broken, en_text());
        let err = check_text(&broken).unwrap_err();
        assert_eq!(err.key.as_deref(), Some("colours.white_piece.m"));
        let header = line_starting(&broken, "[colours.white_piece]").unwrap();
        assert_eq!(err.line, Some(header + 1));
    }

    #[test]
    fn broken_toml_names_file_line_and_key() {
        let broken = en_text().replace("goodbye = ", "goodbye = 3\nbad = ");
        let err = parse_voice_file("my.toml", &broken).unwrap_err();
        assert_eq!(err.file, "my.toml");
        assert!(err.line.is_some());
        assert_eq!(err.line, line_starting(&broken, "goodbye ="));
        assert_eq!(err.key.as_deref(), Some("messages.goodbye"), "{err}");
    }

    #[test]
    fn without_text_there_is_no_line() {
        let mut vf = vocab::builtin(Lang::De);
        vf.messages.remove("goodbye");
        let err = check_messages("de", &vf, None).unwrap_err();
        assert_eq!(err.line, None);
        assert_eq!(err.key.as_deref(), Some("messages.goodbye"));
    }
}
