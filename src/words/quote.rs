//! Typed text quoted back in a sentence: cut short, and stripped of
//! control characters and terminal escape sequences, so that nothing typed
//! can change the terminal or fill a braille display.

/// At most this many characters of typed text are quoted back.
pub const QUOTE_MAX: usize = 40;

/// `text` made safe to say and print: cleaned as all text from outside is
/// ([`fn@super::clean`]: escape sequences, control characters and
/// bidirectional overrides taken out), runs of spaces made one, and cut to
/// [`QUOTE_MAX`] characters with "…" after a cut.
pub fn quote(text: &str) -> String {
    let clean = super::clean(text);
    let words: Vec<&str> = clean.split_whitespace().collect();
    let joined = words.join(" ");
    if joined.chars().count() <= QUOTE_MAX {
        return joined;
    }
    let cut: String = joined.chars().take(QUOTE_MAX - 1).collect();
    format!("{}…", cut.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_and_controls_are_removed() {
        assert_eq!(quote("\u{1b}[31mabc\u{1b}[0m"), "abc");
        assert_eq!(quote("a\u{1b}]0;title\u{7}b"), "ab");
        assert_eq!(quote("x\ty\u{0}z\r"), "x yz");
        assert_eq!(quote("\u{202e}evil"), "evil");
        assert_eq!(quote("ok   words"), "ok words");
    }

    #[test]
    fn long_text_is_cut_with_an_ellipsis() {
        let long = "a".repeat(100);
        let q = quote(&long);
        assert_eq!(q.chars().count(), QUOTE_MAX);
        assert!(q.ends_with('…'));
        assert_eq!(quote("short"), "short");
    }

    #[test]
    fn nothing_typed_survives_as_a_control_character() {
        for c in (0u32..0x20).chain(0x7f..0xa0) {
            let Some(c) = char::from_u32(c) else { continue };
            let q = quote(&format!("a{c}[1mb"));
            assert!(!q.chars().any(char::is_control), "{c:?} -> {q:?}");
        }
    }
}
