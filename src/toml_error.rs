//! Where a TOML file went wrong, for error messages that name the file, the
//! line and the key.

/// 1-based line number of byte offset `offset` in `text`.
pub fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1
}

/// The line and the key of a parse error.  The key is the one a "missing
/// field" / "unknown field" message names, else the key of the `key =
/// value` line the error points into.
pub fn locate(text: &str, err: &toml::de::Error) -> (Option<usize>, Option<String>) {
    let msg = err.message();
    let span = err.span();
    let line = span.as_ref().map(|s| line_of(text, s.start));
    let named = if msg.contains("missing field") || msg.contains("unknown field") {
        msg.split('`').nth(1).map(str::to_owned)
    } else {
        None
    };
    let key = named.or_else(|| {
        let start = span.as_ref()?.start.min(text.len());
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let this_line = text[line_start..].lines().next()?;
        let (k, _) = this_line.split_once('=')?;
        Some(k.trim().to_owned())
    });
    (line, key)
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
    }

    fn err(text: &str) -> (Option<usize>, Option<String>) {
        let e = toml::from_str::<T>(text).unwrap_err();
        locate(text, &e)
    }

    #[test]
    fn wrong_type_names_the_key_of_its_line() {
        assert_eq!(err("a = 1\nb = 3\n"), (Some(2), Some("b".into())));
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
}
