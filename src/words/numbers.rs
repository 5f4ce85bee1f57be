//! Numbers and counts in words: "four minutes twelve seconds", "ein Zug",
//! "zwei Züge", "una mossa", "μία κίνηση", never digits for a voice.
//!
//! The words are data (`[numbers]` and `[nouns]` in a voices file); the code
//! only puts them together: a unit (0..19), a ten and a unit joined by the
//! file's pattern, hundreds, thousands.  A few knobs say how a language
//! joins them (Italian drops a vowel, "ventuno"; Greek numbers agree with
//! their noun in every part, "είκοσι μία κινήσεις").  Past 999 999 the
//! digits are kept.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::template;
use super::vocab::Gender;

/// `[numbers]` in a voices file: the words a number is said with.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NumberWords {
    /// 0 to 19, as said when counting ("one", "eins", "uno", "ένα").
    pub units: [String; 20],
    /// 20, 30 … 90.
    pub tens: [String; 8],
    /// A ten and a unit: `{ten}` and `{unit}` ("{ten}-{unit}",
    /// "{unit}und{ten}").
    pub ten_and_unit: String,
    /// 100, 200 … 900.
    pub hundreds: [String; 9],
    /// A hundred and the rest below it: `{hundred}` and `{rest}`.
    pub hundred_and_rest: String,
    /// 1000 ("one thousand", "tausend", "mille", "χίλια").
    pub thousand: String,
    /// Several thousands: `{count}` is the number of thousands in words
    /// ("{count} thousand", "{count}mila").
    pub thousands: String,
    /// The gender the number of thousands takes (Greek "τρεις χιλιάδες").
    #[serde(default)]
    pub thousands_gender: Option<Gender>,
    /// Thousands and the rest below them: `{thousand}` and `{rest}`.
    pub thousand_and_rest: String,
    /// Beginnings of a unit or ten that make the vowel at the end of a ten
    /// or a hundred written right before it drop (Italian `["u", "o"]`:
    /// venti + uno = "ventuno", cento + ottanta = "centottanta").
    #[serde(default)]
    pub elide_before: Vec<String>,
    /// Every part of a number agrees with the noun's gender (Greek
    /// "διακόσιες είκοσι μία"), not only a number that is one word alone.
    #[serde(default)]
    pub agree_in_compounds: bool,
    /// Before a noun, the unit that ends a number after a hundred or a
    /// thousand agrees with it too (German "hundertein Züge", where the
    /// number alone is "hunderteins").
    #[serde(default)]
    pub last_unit_agrees: bool,
    /// The form a unit takes joined to a ten ("3" = "tré": "ventitré";
    /// "1" = "ein": "einundzwanzig").
    #[serde(default)]
    pub with_ten: BTreeMap<String, String>,
    /// The form a unit takes after a hundred or a thousand ("3" = "tré":
    /// "centotré").
    #[serde(default)]
    pub after_hundred: BTreeMap<String, String>,
    /// The form a hundred or a thousand takes with more after it
    /// ("100" = "εκατόν": "εκατόν ένα").
    #[serde(default)]
    pub with_rest: BTreeMap<String, String>,
    /// The forms before a masculine, feminine or neuter noun, for the
    /// numbers that change ("1" = "ein" / "eine", "3" = "τρεις").
    #[serde(default)]
    pub m: BTreeMap<String, String>,
    #[serde(default)]
    pub f: BTreeMap<String, String>,
    #[serde(default)]
    pub n: BTreeMap<String, String>,
}

/// A noun that is counted (`[nouns]`): "move" / "moves", and its gender.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Noun {
    /// After the number one: "move", "Zug", "mossa", "κίνηση".
    pub one: String,
    /// After every other number: "moves", "Züge", "mosse", "κινήσεις".
    pub many: String,
    /// The gender the number agrees with (masculine when left out).
    #[serde(default)]
    pub gender: Gender,
    /// Written together with the number: German "dreimal".
    #[serde(default)]
    pub joined: bool,
}

/// The largest number said in words; larger ones keep their digits.
pub const LARGEST_IN_WORDS: u64 = 999_999;

impl NumberWords {
    /// `n` in words, in the form for a noun of `gender` (`None`: as counted
    /// aloud, "eins").  `None` past [`LARGEST_IN_WORDS`].
    pub fn cardinal(&self, n: u64, gender: Option<Gender>) -> Option<String> {
        if n > LARGEST_IN_WORDS {
            return None;
        }
        Some(self.number(n, gender, true))
    }

    /// `n` in words, or its digits when it is too large.
    pub fn say(&self, n: u64, gender: Option<Gender>) -> String {
        self.cardinal(n, gender).unwrap_or_else(|| n.to_string())
    }

    /// `n` with its noun: "one move", "zwei Züge", "un'ora" comes from
    /// "una ora" and the joins.
    pub fn counted(&self, n: u64, noun: &Noun) -> String {
        let word = if n == 1 { &noun.one } else { &noun.many };
        let space = if noun.joined { "" } else { " " };
        format!("{}{space}{word}", self.say(n, Some(noun.gender)))
    }

    /// The gendered form of the number `value`, if the file has one.
    fn gendered(&self, value: u64, gender: Option<Gender>) -> Option<&String> {
        let table = match gender? {
            Gender::Masculine => &self.m,
            Gender::Feminine => &self.f,
            Gender::Neuter => &self.n,
        };
        table.get(&value.to_string())
    }

    /// `whole`: `n` is the whole number (not a part of a longer one).
    fn number(&self, n: u64, gender: Option<Gender>, whole: bool) -> String {
        if n < 1000 {
            return self.below_thousand(n, gender, whole);
        }
        let (count, rest) = (n / 1000, n % 1000);
        let agree = (whole && rest == 0) || self.agree_in_compounds;
        let thousand = if count == 1 {
            let plain = match self.with_rest.get("1000") {
                Some(w) if rest > 0 => w,
                _ => &self.thousand,
            };
            agree
                .then(|| self.gendered(1000, gender))
                .flatten()
                .unwrap_or(plain)
                .clone()
        } else {
            let count = self.below_thousand(count, self.thousands_gender, false);
            template::render(&self.thousands, &[("count", &count)])
        };
        if rest == 0 {
            return thousand;
        }
        let rest = self.below_thousand(rest, gender, self.tail_agrees(whole, gender));
        template::render(
            &self.thousand_and_rest,
            &[("thousand", &thousand), ("rest", &rest)],
        )
    }

    /// Whether the end of a whole number said before a noun takes the
    /// noun's form (see `last_unit_agrees`).
    fn tail_agrees(&self, whole: bool, gender: Option<Gender>) -> bool {
        whole && self.last_unit_agrees && gender.is_some()
    }

    fn below_thousand(&self, n: u64, gender: Option<Gender>, whole: bool) -> String {
        let (h, rest) = (n / 100, n % 100);
        if h == 0 {
            return self.below_hundred(n, gender, whole);
        }
        let agree = self.agree_in_compounds || (whole && rest == 0);
        let value = h * 100;
        let plain = &self.hundreds[(h - 1) as usize];
        let hundred = match (rest, self.with_rest.get(&value.to_string())) {
            (1.., Some(w)) => w,
            _ => agree
                .then(|| self.gendered(value, gender))
                .flatten()
                .unwrap_or(plain),
        };
        if rest == 0 {
            return hundred.clone();
        }
        let rest = self.below_hundred(rest, gender, self.tail_agrees(whole, gender));
        self.join(
            &self.hundred_and_rest,
            ("hundred", hundred),
            ("rest", &rest),
        )
    }

    fn below_hundred(&self, n: u64, gender: Option<Gender>, whole: bool) -> String {
        if n < 20 {
            let table = (!whole).then_some(&self.after_hundred);
            return self.unit(n, gender, whole, table);
        }
        let ten = &self.tens[(n / 10 - 2) as usize];
        match n % 10 {
            0 => ten.clone(),
            u => {
                let unit = self.unit(u, gender, false, Some(&self.with_ten));
                self.join(&self.ten_and_unit, ("ten", ten), ("unit", &unit))
            }
        }
    }

    /// A unit 0..19: its gendered form where it agrees, its form in a
    /// longer number (`compound`), else the counting form.
    fn unit(
        &self,
        n: u64,
        gender: Option<Gender>,
        whole: bool,
        compound: Option<&BTreeMap<String, String>>,
    ) -> String {
        let agree = whole || self.agree_in_compounds;
        if agree && let Some(g) = self.gendered(n, gender) {
            return g.clone();
        }
        if let Some(c) = compound.and_then(|t| t.get(&n.to_string())) {
            return c.clone();
        }
        self.units[n as usize].clone()
    }

    /// Fill a join pattern; with `elide_before`, a part ending in a vowel
    /// written right before a part beginning so loses that vowel.
    fn join(&self, pattern: &str, a: (&str, &str), b: (&str, &str)) -> String {
        if self.elide_before.is_empty() {
            return template::render(pattern, &[a, b]);
        }
        // Mark the boundary, fill, then elide across the mark.
        const MARK: char = '\u{1}';
        let marked = template::render(pattern, &[(a.0, &format!("{}{MARK}", a.1)), b]);
        let mut out = String::with_capacity(marked.len());
        let mut chars = marked.chars().peekable();
        while let Some(c) = chars.next() {
            if c == MARK {
                let rest: String = chars.clone().collect();
                let elides = self
                    .elide_before
                    .iter()
                    .any(|p| rest.starts_with(p.as_str()));
                if elides && out.chars().last().is_some_and(is_vowel) {
                    out.pop();
                }
                continue;
            }
            out.push(c);
        }
        out
    }
}

/// A vowel of the Latin, Greek or accented alphabets (for elision).
pub fn is_vowel(c: char) -> bool {
    let lower: String = c.to_lowercase().collect();
    "aeiouàèéìíòóùúαεηιουωάέήίόύώ".contains(lower.as_str()) && !lower.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::vocab::{Lang, builtin};

    fn numbers(lang: Lang) -> NumberWords {
        builtin(lang)
            .numbers
            .expect("every message language has [numbers]")
    }

    fn noun(lang: Lang, name: &str) -> Noun {
        builtin(lang).nouns.get(name).cloned().expect(name)
    }

    #[test]
    fn english_numbers() {
        let en = numbers(Lang::En);
        let say = |n| en.say(n, None);
        assert_eq!(say(0), "zero");
        assert_eq!(say(4), "four");
        assert_eq!(say(12), "twelve");
        assert_eq!(say(21), "twenty-one");
        assert_eq!(say(40), "forty");
        assert_eq!(say(105), "one hundred and five");
        assert_eq!(say(1000), "one thousand");
        assert_eq!(say(2024), "two thousand twenty-four");
        assert_eq!(say(1_000_000), "1000000");
    }

    #[test]
    fn german_numbers_and_gender() {
        let de = numbers(Lang::De);
        let say = |n| de.say(n, None);
        assert_eq!(say(1), "eins");
        assert_eq!(say(21), "einundzwanzig");
        assert_eq!(say(37), "siebenunddreißig");
        assert_eq!(say(100), "hundert");
        assert_eq!(say(112), "hundertzwölf");
        assert_eq!(say(2000), "zweitausend");
        let zug = noun(Lang::De, "move");
        let minute = noun(Lang::De, "minute");
        assert_eq!(de.counted(1, &zug), "ein Zug");
        assert_eq!(de.counted(2, &zug), "zwei Züge");
        assert_eq!(de.counted(1, &minute), "eine Minute");
        assert_eq!(de.counted(21, &minute), "einundzwanzig Minuten");
        // The number alone ends in "eins", before a noun in "ein"/"eine".
        assert_eq!(say(101), "hunderteins");
        assert_eq!(de.counted(101, &zug), "hundertein Züge");
        assert_eq!(de.counted(1001, &minute), "tausendeine Minuten");
        assert_eq!(de.counted(112, &zug), "hundertzwölf Züge");
        let mal = noun(Lang::De, "time");
        assert_eq!(de.counted(1, &mal), "einmal");
        assert_eq!(de.counted(2, &mal), "zweimal");
    }

    #[test]
    fn italian_numbers_drop_vowels() {
        let it = numbers(Lang::It);
        let say = |n| it.say(n, None);
        assert_eq!(say(21), "ventuno");
        assert_eq!(say(28), "ventotto");
        assert_eq!(say(23), "ventitré");
        assert_eq!(say(33), "trentatré");
        assert_eq!(say(45), "quarantacinque");
        assert_eq!(say(108), "centotto");
        assert_eq!(say(180), "centottanta");
        assert_eq!(say(1000), "mille");
        assert_eq!(say(2001), "duemilauno");
        let mossa = noun(Lang::It, "move");
        let minuto = noun(Lang::It, "minute");
        assert_eq!(it.counted(1, &mossa), "una mossa");
        assert_eq!(it.counted(2, &mossa), "due mosse");
        assert_eq!(it.counted(1, &minuto), "un minuto");
        assert_eq!(it.counted(12, &minuto), "dodici minuti");
    }

    #[test]
    fn greek_numbers_agree_with_their_noun() {
        let el = numbers(Lang::El);
        let say = |n| el.say(n, None);
        assert_eq!(say(1), "ένα");
        assert_eq!(say(21), "είκοσι ένα");
        assert_eq!(say(101), "εκατόν ένα");
        assert_eq!(say(100), "εκατό");
        let kinisi = noun(Lang::El, "move");
        let lepto = noun(Lang::El, "minute");
        let ora = noun(Lang::El, "hour");
        assert_eq!(el.counted(1, &kinisi), "μία κίνηση");
        assert_eq!(el.counted(2, &kinisi), "δύο κινήσεις");
        assert_eq!(el.counted(3, &kinisi), "τρεις κινήσεις");
        assert_eq!(el.counted(14, &kinisi), "δεκατέσσερις κινήσεις");
        assert_eq!(el.counted(24, &kinisi), "είκοσι τέσσερις κινήσεις");
        assert_eq!(el.counted(201, &kinisi), "διακόσιες μία κινήσεις");
        assert_eq!(el.counted(3, &lepto), "τρία λεπτά");
        assert_eq!(el.counted(4, &lepto), "τέσσερα λεπτά");
        assert_eq!(el.counted(1, &lepto), "ένα λεπτό");
        assert_eq!(el.counted(1, &ora), "μία ώρα");
        assert_eq!(el.counted(3000, &kinisi), "τρεις χιλιάδες κινήσεις");
        assert_eq!(el.counted(1000, &kinisi), "χίλιες κινήσεις");
    }

    #[test]
    fn every_language_says_every_small_number_without_digits() {
        for lang in Lang::ALL {
            let words = numbers(lang);
            for n in 0..=LARGEST_IN_WORDS {
                if n > 2100 && n % 997 != 0 {
                    continue;
                }
                for g in [None, Some(Gender::Masculine), Some(Gender::Feminine)] {
                    let s = words.say(n, g);
                    assert!(
                        !s.chars().any(|c| c.is_ascii_digit() || c == '{'),
                        "{lang:?} {n}: {s}"
                    );
                }
            }
        }
    }
}
