//! Text from outside made safe to print, speak, show and journal: the one
//! function every text hector did not write itself passes through where
//! it comes in (a PGN file's tags and comments, a lichess player's name and
//! chat, an engine's lines, a settings file's values, what the opponent's
//! page sends).
//!
//! Issue 31 found `^[]0;…^G^[[2J^[[8m` in a PGN tag, a lichess name and an
//! engine's output printed raw: a new window title, a cleared screen and
//! hidden text, and a screen reader reading garbage or nothing.  So:
//!
//! - an escape sequence goes whole (ECMA-48: `ESC [` … a final byte
//!   0x40–0x7E; `ESC ]`, `ESC P`, `ESC X`, `ESC ^`, `ESC _` … up to BEL or
//!   `ESC \`; any other `ESC` with its intermediates and final byte), and
//!   so do their 8-bit forms (U+009B CSI, U+009D OSC, U+0090 DCS …);
//! - every other control character (C0, DEL, C1) goes; a line feed, a
//!   carriage return or a tab becomes a space, so the text stays one line
//!   and its words stay apart;
//! - the bidirectional embeddings, overrides and isolates (U+202A–U+202E,
//!   U+2066–U+2069), the marks (U+200E, U+200F), the zero-width characters
//!   (U+200B–U+200D) and U+FEFF go: invisible, they can make a shown name
//!   read differently from what it holds.
//!
//! Typed text quoted back in a sentence is cleaned by this same function
//! (`words::quote` then cuts it short).

use std::borrow::Cow;

const ESC: char = '\u{1b}';
const BEL: char = '\u{7}';

/// The text with escape sequences, control characters and bidirectional
/// overrides taken out (see the module's rules); borrowed when there were
/// none.
pub fn clean(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ESC => match chars.next() {
                Some('[') => skip_csi(&mut chars),
                Some(']' | 'P' | 'X' | '^' | '_') => skip_string(&mut chars),
                Some(c) if (' '..='/').contains(&c) => {
                    // Intermediates, then the final byte.
                    while chars.next_if(|c| (' '..='/').contains(c)).is_some() {}
                    chars.next();
                }
                // ESC and the one character after it (its final byte).
                _ => {}
            },
            '\u{9b}' => skip_csi(&mut chars),
            '\u{9d}' | '\u{90}' | '\u{98}' | '\u{9e}' | '\u{9f}' => skip_string(&mut chars),
            '\r' => {
                chars.next_if_eq(&'\n');
                out.push(' ');
            }
            '\n' | '\t' => out.push(' '),
            c if is_unsafe(c) => {}
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// The text cleaned, owned.
pub fn cleaned(text: &str) -> String {
    clean(text).into_owned()
}

/// A character that is not kept as it is.
fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}')
}

/// A control sequence's parameters, intermediates and final byte.
fn skip_csi(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    for c in chars.by_ref() {
        if ('\u{40}'..='\u{7e}').contains(&c) {
            return;
        }
        if !('\u{20}'..='\u{3f}').contains(&c) {
            // Not a sequence after all: stop at the odd character (it is
            // dropped with the sequence).
            return;
        }
    }
}

/// A control string (OSC, DCS, SOS, PM, APC) up to its end: BEL, `ESC \`
/// or U+009C.
fn skip_string(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    while let Some(c) = chars.next() {
        match c {
            BEL | '\u{9c}' => return,
            ESC => {
                chars.next_if_eq(&'\\');
                return;
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_sequences_issue_31_found_go_whole() {
        let hostile = "Bob\u{1b}]0;pwned\u{7}\u{1b}[2J\u{1b}[8mhidden";
        assert_eq!(clean(hostile), "Bobhidden");
        assert_eq!(clean("a\u{1b}]2;t\u{1b}\\b"), "ab");
        assert_eq!(clean("a\u{1b}[1;31mred\u{1b}[0m"), "ared");
        assert_eq!(clean("a\u{9b}2Jb"), "ab");
        assert_eq!(clean("a\u{1b}(Bb\u{1b}cd"), "abd");
        assert_eq!(clean("tail\u{1b}"), "tail");
        assert_eq!(clean("osc\u{1b}]0;never ends"), "osc");
    }

    #[test]
    fn controls_and_overrides_go_lines_stay_apart() {
        assert_eq!(clean("one\ntwo\r\nthree\tfour"), "one two three four");
        assert_eq!(clean("a\u{0}b\u{7f}c\u{85}d\u{8}e"), "abcde");
        assert_eq!(clean("\u{202e}evil\u{202c} \u{2067}x\u{2069}"), "evil x");
        assert_eq!(clean("a\u{200b}b\u{200f}c\u{feff}"), "abc");
        // Accents, Greek and other scripts stay.
        let kept = "Ναι שלום Müller Ünal 王 ♞";
        assert!(matches!(clean(kept), Cow::Borrowed(_)));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// Whatever comes in, nothing that acts on a terminal or turns
        /// text around comes out, and clean text is left as it is.
        #[test]
        fn nothing_unsafe_comes_out(s in "(\\PC|[\u{0}-\u{1f}\u{7f}-\u{9f}\u{200b}-\u{200f}\u{202a}-\u{202e}\u{2066}-\u{2069}])*") {
            let out = clean(&s);
            prop_assert!(!out.chars().any(is_unsafe), "{out:?}");
            prop_assert_eq!(clean(&out), out.clone());
        }
    }
}
