//! Word comparison: one folding for every reader of typed words.

/// Lower case with German umlauts and ß spelled in ASCII, so that `Läufer`,
/// `LAEUFER` and `laeufer` (and `Fünf`, `fuenf`, `FUENF`) are the same word;
/// Greek without accents and with one sigma (`Πύργος` is `πυργοσ`).
pub fn fold(word: &str) -> String {
    folded(word).collect()
}

/// `word` folded (as [`fold`]) is `folded`, compared without building the
/// folded word: the readers of typed lines compare a word with every piece
/// word of every vocabulary.
pub fn folds_to(word: &str, folded_word: &str) -> bool {
    folded(word).eq(folded_word.chars())
}

/// The characters of `word` folded.
fn folded(word: &str) -> impl Iterator<Item = char> + '_ {
    word.chars().flat_map(char::to_lowercase).flat_map(|c| {
        let (a, b) = match c {
            'ä' => ('a', Some('e')),
            'ö' => ('o', Some('e')),
            'ü' => ('u', Some('e')),
            'ß' => ('s', Some('s')),
            // Greek: accents, diaeresis and the final sigma do not matter.
            'ά' => ('α', None),
            'έ' => ('ε', None),
            'ή' => ('η', None),
            'ί' | 'ϊ' | 'ΐ' => ('ι', None),
            'ό' => ('ο', None),
            'ύ' | 'ϋ' | 'ΰ' => ('υ', None),
            'ώ' => ('ω', None),
            'ς' => ('σ', None),
            c => (c, None),
        };
        std::iter::once(a).chain(b)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_to_is_fold_compared() {
        for (word, other) in [
            ("Läufer", "laeufer"),
            ("Läufer", "laufer"),
            ("Πύργος", "πυργοσ"),
            ("ß", "ss"),
            ("ß", "s"),
            ("", ""),
            ("K", "k"),
        ] {
            assert_eq!(folds_to(word, other), fold(word) == other, "{word} {other}");
        }
    }

    #[test]
    fn fold_spells_out_umlauts() {
        assert_eq!(fold("Läufer"), "laeufer");
        assert_eq!(fold("FÜNF"), "fuenf");
        assert_eq!(fold("weiß"), "weiss");
        assert_eq!(fold("KÖNIG"), "koenig");
        assert_eq!(fold("schlägt"), "schlaegt");
        assert_eq!(fold("Fuß"), "fuss");
        assert_eq!(fold("Πύργος"), "πυργοσ");
        assert_eq!(fold("ΠΥΡΓΟΣ"), fold("πύργος"));
        assert_eq!(fold("Ίππος"), "ιπποσ");
    }
}
