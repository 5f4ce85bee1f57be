//! Message templates: text with `{name}` placeholders.  `{{` and `}}` stand
//! for literal braces.  Templates are checked once, when a voices file is
//! loaded ([`placeholders`]); rendering never fails and never panics.

use std::collections::BTreeSet;

/// What is wrong with a template, for a [`super::vocab::VoiceError`] detail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TemplateError {
    /// A `{` with no `}` after it.
    Unclosed,
    /// A `}` that closes nothing (write `}}` for a literal brace).
    StrayClose,
    /// `{}` or a name with characters other than letters, digits and `_`.
    BadName(String),
}

impl std::fmt::Display for TemplateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TemplateError::Unclosed => write!(f, "a `{{` is not closed by `}}`"),
            TemplateError::StrayClose => write!(f, "a `}}` closes nothing (write `}}}}`)"),
            TemplateError::BadName(name) => write!(f, "`{{{name}}}` is not a placeholder name"),
        }
    }
}

/// One piece of a template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part<'a> {
    Text(&'a str),
    Slot(&'a str),
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
            let name = &body[..end];
            if !valid_name(name) {
                return Err(TemplateError::BadName(name.to_owned()));
            }
            out.push(Part::Slot(name));
            rest = &body[end + 1..];
        }
    }
    if !rest.is_empty() {
        out.push(Part::Text(rest));
    }
    Ok(out)
}

/// The placeholder names a template uses.
pub fn placeholders(template: &str) -> Result<BTreeSet<&str>, TemplateError> {
    Ok(parts(template)?
        .into_iter()
        .filter_map(|p| match p {
            Part::Slot(name) => Some(name),
            Part::Text(_) => None,
        })
        .collect())
}

/// Fill a template.  A placeholder without a value stays as written
/// (`{name}`), and a template that does not parse is returned unchanged:
/// templates are checked when they are loaded, so neither happens with a
/// validated file.
pub fn render(template: &str, args: &[(&str, &str)]) -> String {
    let Ok(parts) = parts(template) else {
        return template.to_owned();
    };
    let mut out = String::with_capacity(template.len() + 16);
    for part in parts {
        match part {
            Part::Text(t) => out.push_str(t),
            Part::Slot(name) => match args.iter().find(|(k, _)| *k == name) {
                Some((_, v)) => out.push_str(v),
                None => {
                    out.push('{');
                    out.push_str(name);
                    out.push('}');
                }
            },
        }
    }
    out
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
    fn non_ascii_text_is_kept() {
        assert_eq!(
            render("Weiß: {x} – ü", &[("x", "König")]),
            "Weiß: König – ü"
        );
    }
}
