//! Words that change with the word after them, once a sentence is put
//! together: Italian elision and the euphonic d ("una ora" → "un'ora",
//! "della otto" → "dell'otto", "e e4" → "ed e4"), Greek final ν
//! ("την βασίλισσα" → "τη βασίλισσα"), German contractions ("von dem" →
//! "vom").  The rules are data: `[[joins]]` in a voices file.

use serde::Deserialize;

use super::numbers::NumberWords;

/// One rule: `word` becomes `becomes` when the next word begins with one of
/// `before` (or with none of `unless_before`), or, with `next`, the two
/// words `word next` become `becomes`.  A `becomes` that ends in an
/// apostrophe is written together with the next word.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Join {
    pub word: String,
    pub becomes: String,
    /// Beginnings of the next word (lower case) that make the change.
    #[serde(default)]
    pub before: Vec<String>,
    /// Beginnings of the next word that prevent it; every other word makes it.
    #[serde(default)]
    pub unless_before: Vec<String>,
    /// The exact next word, for a contraction of two words into one.
    #[serde(default)]
    pub next: Option<String>,
}

impl Join {
    /// Does this rule change `word` followed by `next` (said as `spoken`)?
    fn applies(&self, word: &str, spoken_next: &str) -> bool {
        if !self.is_word(word) {
            return false;
        }
        if let Some(n) = &self.next {
            return spoken_next == n.to_lowercase();
        }
        if spoken_next.is_empty() {
            return false;
        }
        let starts = |list: &[String]| list.iter().any(|p| spoken_next.starts_with(p.as_str()));
        if !self.before.is_empty() {
            starts(&self.before)
        } else if !self.unless_before.is_empty() {
            !starts(&self.unless_before)
        } else {
            false
        }
    }

    /// Is `word` this rule's word (case ignored)?  No allocation: it is
    /// asked of every word of every sentence.
    fn is_word(&self, word: &str) -> bool {
        let lower = |s: &str| s.chars().flat_map(char::to_lowercase).collect::<Vec<_>>();
        self.word.len() == word.len() && lower(&self.word) == lower(word)
    }

    /// A problem with the rule, for the voices file check.
    pub fn problem(&self) -> Option<String> {
        let kinds = usize::from(!self.before.is_empty())
            + usize::from(!self.unless_before.is_empty())
            + usize::from(self.next.is_some());
        if self.word.trim().is_empty() || self.word.contains(' ') {
            return Some("`word` must be one word".to_owned());
        }
        (kinds != 1).then(|| "give exactly one of `before`, `unless_before` or `next`".to_owned())
    }
}

/// `text` with the joins applied.  Words are split at single spaces; a
/// word in digits counts by how it is said ("8" is "otto" in Italian).
pub fn apply(text: &str, joins: &[Join], numbers: Option<&NumberWords>) -> String {
    if joins.is_empty() || !text.contains(' ') {
        return text.to_owned();
    }
    let words: Vec<&str> = text.split(' ').collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        let next = words.get(i + 1).copied();
        let rule = next.and_then(|n| {
            // A word after an opening quote joins nothing; nor does a word
            // no rule names (most words: the next one is not looked at).
            if word.starts_with(['"', '(', '«']) || word.is_empty() {
                return None;
            }
            let named: Vec<&Join> = joins.iter().filter(|j| j.is_word(word)).collect();
            if named.is_empty() {
                return None;
            }
            let said = spoken_start(n, numbers);
            named.into_iter().find(|j| j.applies(word, &said))
        });
        match rule {
            Some(j) => {
                let becomes = keep_capital(word, &j.becomes);
                if j.next.is_some() {
                    out.push_str(&becomes);
                    i += 1; // the next word is part of the contraction
                    let next = words[i];
                    let bare = next.trim_end_matches(PUNCTUATION);
                    out.push_str(&next[bare.len()..]);
                } else if becomes.ends_with('\'') || becomes.ends_with('’') {
                    out.push_str(&becomes);
                    i += 1;
                    out.push_str(words[i]);
                } else {
                    out.push_str(&becomes);
                }
            }
            None => out.push_str(word),
        }
        if i + 1 < words.len() {
            out.push(' ');
        }
        i += 1;
    }
    out
}

/// What may follow a word without belonging to it.
const PUNCTUATION: [char; 10] = [',', '.', ';', ':', '!', '?', ')', '"', '»', '·'];

/// How the next word begins when said, lower case: its letters, or for
/// digits the number's word.
fn spoken_start(next: &str, numbers: Option<&NumberWords>) -> String {
    let next = next.trim_start_matches(['"', '(', '«']);
    let digits: String = next.chars().take_while(char::is_ascii_digit).collect();
    if !digits.is_empty()
        && let (Ok(n), Some(numbers)) = (digits.parse::<u64>(), numbers)
    {
        return numbers.say(n, None).to_lowercase();
    }
    next.trim_end_matches(PUNCTUATION).to_lowercase()
}

/// `becomes` with a capital when `word` had one ("Una ora" → "Un'ora").
fn keep_capital(word: &str, becomes: &str) -> String {
    let capital = word.chars().next().is_some_and(char::is_uppercase);
    let mut chars = becomes.chars();
    match (capital, chars.next()) {
        (true, Some(c)) => c.to_uppercase().chain(chars).collect(),
        _ => becomes.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::vocab::{Lang, builtin};

    fn join(lang: Lang, text: &str) -> String {
        let vf = builtin(lang);
        apply(text, &vf.joins, vf.numbers.as_ref())
    }

    #[test]
    fn italian_elision_and_euphonic_d() {
        assert_eq!(join(Lang::It, "una ora"), "un'ora");
        assert_eq!(
            join(Lang::It, "Una ora e due minuti"),
            "Un'ora e due minuti"
        );
        assert_eq!(join(Lang::It, "d4, e3 e e4"), "d4, e3 ed e4");
        assert_eq!(join(Lang::It, "dalla d2 e Eva"), "dalla d2 ed Eva");
        assert_eq!(join(Lang::It, "della 8"), "dell'8");
        assert_eq!(join(Lang::It, "della otto"), "dell'otto");
        assert_eq!(join(Lang::It, "della 2"), "della 2");
        assert_eq!(join(Lang::It, "la ultima mossa"), "l'ultima mossa");
        assert_eq!(
            join(Lang::It, "una mossa e un minuto"),
            "una mossa e un minuto"
        );
        // Not across punctuation, and idempotent.
        assert_eq!(join(Lang::It, "e, e4"), "e, e4");
        assert_eq!(join(Lang::It, "un'ora ed e4"), "un'ora ed e4");
    }

    #[test]
    fn german_contractions_and_greek_final_nu() {
        assert_eq!(join(Lang::De, "von dem Brett"), "vom Brett");
        assert_eq!(join(Lang::De, "in dem Zug"), "im Zug");
        assert_eq!(join(Lang::El, "την βασίλισσα"), "τη βασίλισσα");
        assert_eq!(join(Lang::El, "την ώρα"), "την ώρα");
        assert_eq!(join(Lang::El, "την ντάμα"), "την ντάμα");
        assert_eq!(join(Lang::El, "στην μία"), "στη μία");
        assert_eq!(
            join(Lang::El, "Έπεσε η σημαία των Λευκά."),
            "Έπεσε η σημαία των Λευκών."
        );
        assert_eq!(
            join(Lang::El, "κίνηση των Μαύρα, αλλά"),
            "κίνηση των Μαύρων, αλλά"
        );
        assert_eq!(join(Lang::El, "στην ένατη"), "στην ένατη");
        // English has no joins: nothing changes.
        assert_eq!(join(Lang::En, "una ora"), "una ora");
    }

    #[test]
    fn rules_are_checked() {
        let j = Join {
            word: "la".into(),
            becomes: "l'".into(),
            before: vec![],
            unless_before: vec![],
            next: None,
        };
        assert!(j.problem().is_some());
        for lang in Lang::ALL {
            for j in builtin(lang).joins {
                assert_eq!(j.problem(), None, "{lang:?} {j:?}");
            }
        }
    }
}
