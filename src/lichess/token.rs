//! The player's personal API token: a secret that is never printed,
//! logged, journalled or exported.  Its `Debug` and `Display` say only
//! that there is one; the HTTP client reads it through
//! [`Token::secret`] for the `Authorization` header and nowhere else.

/// A lichess personal API token.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Token(hidden)")
    }
}

impl std::fmt::Display for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("(token hidden)")
    }
}

impl Token {
    /// A token as typed or read: spaces around it dropped; none when
    /// empty, longer than 200 characters, or holding anything but
    /// printable ASCII (it goes into an HTTP header).
    #[must_use]
    pub fn parse(s: &str) -> Option<Self> {
        let s = s.trim();
        (!s.is_empty() && s.len() <= 200 && s.bytes().all(|b| b.is_ascii_graphic()))
            .then(|| Self(s.to_owned()))
    }

    /// The secret itself, for the `Authorization` header and the store.
    #[must_use]
    pub fn secret(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_secret_is_never_formatted() {
        let t = Token::parse("  lip_abcDEF123  ").unwrap();
        assert_eq!(t.secret(), "lip_abcDEF123");
        assert!(!format!("{t:?} {t} {:?}", Some(&t)).contains("abc"));
    }

    #[test]
    fn bad_tokens_are_refused() {
        for bad in ["", "   ", "a b", "lip_\u{e9}", "x\ny", &"x".repeat(201)] {
            assert_eq!(Token::parse(bad), None, "{bad:?}");
        }
    }
}
