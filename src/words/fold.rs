//! Word comparison: one folding for every reader of typed words.

/// Lower case with German umlauts and ß spelled in ASCII, so that `Läufer`,
/// `LAEUFER` and `laeufer` (and `Fünf`, `fuenf`, `FUENF`) are the same word.
pub fn fold(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    for c in word.chars().flat_map(char::to_lowercase) {
        match c {
            'ä' => out.push_str("ae"),
            'ö' => out.push_str("oe"),
            'ü' => out.push_str("ue"),
            'ß' => out.push_str("ss"),
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
    }
}
