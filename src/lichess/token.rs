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
    /// The longest token taken.  lichess's tokens "can be increased
    /// without notice. Make sure your application can handle at least 512
    /// characters" (`doc/specs/lichess-api.yaml`, Token format): 4,096
    /// leaves room, and still bounds what goes into a header.
    pub const MAX: usize = 4096;

    /// A token as typed or read: spaces around it dropped; none when
    /// empty, longer than [`Token::MAX`], or holding anything but printable
    /// ASCII (it goes into an HTTP header).
    #[must_use]
    pub fn parse(s: &str) -> Option<Self> {
        let s = s.trim();
        (!s.is_empty() && s.len() <= Self::MAX && s.bytes().all(|b| b.is_ascii_graphic()))
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
        for bad in ["", "   ", "a b", "lip_\u{e9}", "x\ny", &"x".repeat(4097)] {
            assert_eq!(Token::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn a_token_of_512_characters_and_more_is_taken() {
        for n in [201, 512, 4096] {
            let long = format!("lip_{}", "a".repeat(n - 4));
            assert_eq!(Token::parse(&long).map(|t| t.secret().len()), Some(n));
        }
    }
}
