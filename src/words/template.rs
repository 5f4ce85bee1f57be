//! Message templates: text with `{name}` placeholders.  `{{` and `}}` stand
//! for literal braces.  Templates are checked once, when a voices file is
//! loaded ([`placeholders`]); rendering never fails and never panics.
//!
//! A number is said in words with its noun by `{count:move}` ("two moves",
//! "ein Zug", "μία κίνηση": the noun from `[nouns]`, the number words from
//! `[numbers]`), or alone by `{count:#}` ("four"); `{count|one|many}` picks
//! text by the number, for the words that agree with it ("Έγινε" /
//! "Έγιναν").  A sentence that begins with a number in words begins with a
//! capital.

use std::collections::{BTreeMap, BTreeSet};

use super::numbers::{Noun, NumberWords};

/// What is wrong with a template, for a [`super::vocab::VoiceError`] detail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TemplateError {
    /// A `{` with no `}` after it.
    Unclosed,
    /// A `}` that closes nothing (write `}}` for a literal brace).
    StrayClose,
    /// `{}` or a name with characters other than letters, digits and `_`.
    BadName(String),
    /// `{count|one}`: a choice needs the text for one and for many.
    BadChoice(String),
}

impl std::fmt::Display for TemplateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TemplateError::Unclosed => write!(f, "a `{{` is not closed by `}}`"),
            TemplateError::StrayClose => write!(f, "a `}}` closes nothing (write `}}}}`)"),
            TemplateError::BadName(name) => write!(f, "`{{{name}}}` is not a placeholder name"),
            TemplateError::BadChoice(body) => write!(
                f,
                "`{{{body}}}` needs two texts, for one and for many: {{name|one|many}}"
            ),
        }
    }
}

/// One piece of a template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part<'a> {
    Text(&'a str),
    Slot(&'a str),
    /// `{name:noun}`: the number `name` in words with `noun` (`#`: alone).
    Counted(&'a str, &'a str),
    /// `{name|one|many}`: `one` when `name` is 1, else `many`.
    Choice(&'a str, &'a str, &'a str),
}

fn valid_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Split a template into text and placeholders.
fn parts(template: &str) -> Result<Vec<Part<'_>>, TemplateError> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(i) = rest.find(['{', '}']) {
        if i > 0 {
            out.push(Part::Text(&rest[..i]));
        }
        let tail = &rest[i..];
        if let Some(after) = tail.strip_prefix("{{") {
            out.push(Part::Text("{"));
            rest = after;
        } else if let Some(after) = tail.strip_prefix("}}") {
            out.push(Part::Text("}"));
            rest = after;
        } else if tail.starts_with('}') {
            return Err(TemplateError::StrayClose);
        } else {
            // tail starts with a single '{' (one byte)
            let body = &tail[1..];
            let end = body.find('}').ok_or(TemplateError::Unclosed)?;
            out.push(slot(&body[..end])?);
            rest = &body[end + 1..];
        }
    }
    if !rest.is_empty() {
        out.push(Part::Text(rest));
    }
    Ok(out)
}

/// One `{...}`: a name, a counted name or a choice.
fn slot(body: &str) -> Result<Part<'_>, TemplateError> {
    let bad = || TemplateError::BadName(body.to_owned());
    if let Some((name, forms)) = body.split_once('|') {
        let (one, many) = forms
            .split_once('|')
            .filter(|(_, many)| !many.contains('|'))
            .ok_or_else(|| TemplateError::BadChoice(body.to_owned()))?;
        return valid_name(name)
            .then_some(Part::Choice(name, one, many))
            .ok_or_else(bad);
    }
    if let Some((name, noun)) = body.split_once(':') {
        return (valid_name(name) && (noun == "#" || valid_name(noun)))
            .then_some(Part::Counted(name, noun))
            .ok_or_else(bad);
    }
    valid_name(body).then_some(Part::Slot(body)).ok_or_else(bad)
}

/// The placeholder names a template uses.
pub fn placeholders(template: &str) -> Result<BTreeSet<&str>, TemplateError> {
    Ok(parts(template)?
        .into_iter()
        .filter_map(|p| match p {
            Part::Slot(name) | Part::Counted(name, _) | Part::Choice(name, ..) => Some(name),
            Part::Text(_) => None,
        })
        .collect())
}

/// The counted nouns a template names (`move` in `{count:move}`).
pub fn nouns(template: &str) -> Result<BTreeSet<&str>, TemplateError> {
    Ok(parts(template)?
        .into_iter()
        .filter_map(|p| match p {
            Part::Counted(_, noun) if noun != "#" => Some(noun),
            _ => None,
        })
        .collect())
}

/// How numbers are said: the words of `[numbers]` and `[nouns]`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counting {
    pub numbers: Option<NumberWords>,
    pub nouns: BTreeMap<String, Noun>,
}

impl Counting {
    /// `value` (digits) with `noun` in words: "two moves"; digits are kept
    /// for what is not a whole number, or without number words.
    fn counted(&self, value: &str, noun: &str) -> String {
        let n = value.trim().parse::<u64>().ok();
        let word = self.nouns.get(noun);
        match (n, &self.numbers, word) {
            (Some(n), Some(numbers), Some(word)) => numbers.counted(n, word),
            (Some(n), Some(numbers), None) => numbers.say(n, None),
            (_, _, Some(word)) => {
                let form = if n == Some(1) { &word.one } else { &word.many };
                format!("{value} {form}")
            }
            _ => value.to_owned(),
        }
    }
}

/// Fill a template, saying counted numbers with `counting`.
pub fn render_counted(template: &str, args: &[(&str, &str)], counting: &Counting) -> String {
    let Ok(parts) = parts(template) else {
        return template.to_owned();
    };
    let sentence = template.trim_end().ends_with(['.', '?', '!']);
    let mut out = String::with_capacity(template.len() + 16);
    let value = |name: &str| args.iter().find(|(k, _)| *k == name).map(|(_, v)| *v);
    for part in parts {
        match part {
            Part::Text(t) => out.push_str(t),
            Part::Slot(name) => match value(name) {
                Some(v) => out.push_str(v),
                None => {
                    out.push('{');
                    out.push_str(name);
                    out.push('}');
                }
            },
            Part::Counted(name, noun) => match value(name) {
                Some(v) => {
                    let mut said = counting.counted(v, noun);
                    // A sentence that begins with the number: a capital.
                    // (A template that is not a sentence, "{count:minute}",
                    // is part of one and keeps its small letter.)
                    let before = out.trim_end();
                    if (before.is_empty() && sentence) || before.ends_with(['.', '?', '!']) {
                        capitalise(&mut said);
                    }
                    out.push_str(&said);
                }
                None => {
                    out.push('{');
                    out.push_str(name);
                    out.push('}');
                }
            },
            Part::Choice(name, one, many) => {
                let is_one = value(name).is_some_and(|v| v.trim() == "1");
                out.push_str(if is_one { one } else { many });
            }
        }
    }
    out
}

/// The first letter made a capital.
fn capitalise(s: &mut String) {
    if let Some(c) = s.chars().next() {
        let upper: String = c.to_uppercase().collect();
        s.replace_range(..c.len_utf8(), &upper);
    }
}

/// Fill a template.  A placeholder without a value stays as written
/// (`{name}`), and a template that does not parse is returned unchanged:
/// templates are checked when they are loaded, so neither happens with a
/// validated file.
pub fn render(template: &str, args: &[(&str, &str)]) -> String {
    render_counted(template, args, &Counting::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_placeholders() {
        assert_eq!(
            render(
                "{side} to move, move {number}.",
                &[("side", "White"), ("number", "12")]
            ),
            "White to move, move 12."
        );
    }

    #[test]
    fn missing_value_stays_visible() {
        assert_eq!(render("a {x} b", &[]), "a {x} b");
    }

    #[test]
    fn doubled_braces_are_literal() {
        assert_eq!(render("{{x}} {y}", &[("y", "1")]), "{x} 1");
        assert_eq!(placeholders("{{x}} {y}").unwrap().len(), 1);
    }

    #[test]
    fn lists_placeholders() {
        let names: Vec<_> = placeholders("{a}, {b} and {a}")
            .unwrap()
            .into_iter()
            .collect();
        assert_eq!(names, ["a", "b"]);
    }

    #[test]
    fn broken_templates_are_errors() {
        assert_eq!(placeholders("a {b"), Err(TemplateError::Unclosed));
        assert_eq!(placeholders("a } b"), Err(TemplateError::StrayClose));
        assert_eq!(
            placeholders("a {b c}"),
            Err(TemplateError::BadName("b c".into()))
        );
        assert_eq!(
            placeholders("{}"),
            Err(TemplateError::BadName(String::new()))
        );
        // and rendering them does not panic
        assert_eq!(render("a {b", &[("b", "x")]), "a {b");
    }

    #[test]
    fn counted_nouns_and_choices() {
        use crate::words::vocab::{Lang, builtin};
        let de = builtin(Lang::De);
        let counting = Counting {
            numbers: de.numbers.clone(),
            nouns: de.nouns.clone(),
        };
        let t = "{count:move} gespielt, {count|es bleibt|es bleiben} {n:#}.";
        assert_eq!(
            render_counted("{count:minute}", &[("count", "4")], &counting),
            "vier Minuten"
        );
        assert_eq!(
            render_counted(t, &[("count", "1"), ("n", "3")], &counting),
            "Ein Zug gespielt, es bleibt drei."
        );
        assert_eq!(
            render_counted(t, &[("count", "2"), ("n", "21")], &counting),
            "Zwei Züge gespielt, es bleiben einundzwanzig."
        );
        // Not a whole number: the digits, with the plural.
        assert_eq!(
            render_counted("{p:pawn}", &[("p", "1.5")], &counting),
            "1.5 Bauern"
        );
        assert_eq!(placeholders(t).unwrap().len(), 2);
        assert_eq!(nouns(t).unwrap().into_iter().collect::<Vec<_>>(), ["move"]);
        // Without number words the digits stay.
        assert_eq!(render("{count:move}", &[("count", "2")]), "2");
        assert_eq!(
            placeholders("{a|x}"),
            Err(TemplateError::BadChoice("a|x".into()))
        );
        assert_eq!(
            placeholders("{a:b c}"),
            Err(TemplateError::BadName("a:b c".into()))
        );
    }

    #[test]
    fn non_ascii_text_is_kept() {
        assert_eq!(
            render("Weiß: {x} – ü", &[("x", "König")]),
            "Weiß: König – ü"
        );
    }
}
