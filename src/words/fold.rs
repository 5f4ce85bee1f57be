//! Word comparison: one folding for every reader of typed words.

/// Lower case with German umlauts and ß spelled in ASCII, so that `Läufer`,
/// `LAEUFER` and `laeufer` (and `Fünf`, `fuenf`, `FUENF`) are the same word;
/// Greek without accents and with one sigma (`Πύργος` is `πυργοσ`).
pub fn fold(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    for c in word.chars().flat_map(char::to_lowercase) {
        match c {
            'ä' => out.push_str("ae"),
            'ö' => out.push_str("oe"),
            'ü' => out.push_str("ue"),
            'ß' => out.push_str("ss"),
            // Greek: accents, diaeresis and the final sigma do not matter.
            'ά' => out.push('α'),
            'έ' => out.push('ε'),
            'ή' => out.push('η'),
            'ί' | 'ϊ' | 'ΐ' => out.push('ι'),
            'ό' => out.push('ο'),
            'ύ' | 'ϋ' | 'ΰ' => out.push('υ'),
            'ώ' => out.push('ω'),
            'ς' => out.push('σ'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
