//! The page's own words, in every language hector has: the `page_*`
//! messages of the voices files (en, de, it, el), sent once inside the page
//! as JSON.  The page starts in the blind player's language; the opponent
//! may choose theirs (kept in the browser).  Templates keep their
//! placeholders (`{squares}`, `{san}` …); the page fills them.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::phrase::Phraser;
use crate::words::Lang;
use crate::words::vocab;

/// The prefix of the page's message keys in the voices files.
pub const PREFIX: &str = "page_";

/// The page's words in every language, and which one it starts in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PageLabels {
    /// The language the page starts in (the blind player's).
    pub default: String,
    /// Language code → key (without the prefix) → template.
    pub langs: BTreeMap<String, BTreeMap<String, String>>,
}

impl PageLabels {
    /// The built-in words of every language, starting in `default` (an
    /// unknown code starts in English).
    pub fn builtin(default: &str) -> PageLabels {
        let langs: BTreeMap<String, BTreeMap<String, String>> = Lang::ALL
            .into_iter()
            .map(|lang| (lang.code().to_owned(), page_messages(&vocab::builtin(lang))))
            .collect();
        let default = if langs.contains_key(default) {
            default.to_owned()
        } else {
            Lang::En.code().to_owned()
        };
        PageLabels { default, langs }
    }

    /// Every language, starting in the blind player's, whose words are
    /// the player's own (a voices file of theirs may change them).
    pub fn for_player(phraser: &Phraser) -> PageLabels {
        let mut labels = PageLabels::builtin(phraser.msg_lang());
        let code = phraser.msg_lang().to_owned();
        let keys: Vec<String> = labels
            .langs
            .get(Lang::En.code())
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default();
        let own: BTreeMap<String, String> = keys
            .into_iter()
            .map(|k| {
                // Rendered with no arguments: the placeholders stay.
                let text = phraser.message(&format!("{PREFIX}{k}"), &[]);
                (k, text)
            })
            .collect();
        labels.default = code.clone();
        labels.langs.insert(code, own);
        labels
    }

    /// The JSON put into the page: safe inside a `<script>` element (no
    /// `</` or `<!--` can end or confuse it).
    pub fn to_script_json(&self) -> String {
        serde_json::to_string(self)
            .unwrap_or_else(|_| "null".into())
            .replace('<', "\\u003c")
    }
}

impl Default for PageLabels {
    fn default() -> PageLabels {
        PageLabels::builtin(Lang::En.code())
    }
}

/// The `page_*` messages of a voices file, without the prefix.
fn page_messages(vf: &vocab::VoiceFile) -> BTreeMap<String, String> {
    vf.messages
        .iter()
        .filter_map(|(k, v)| k.strip_prefix(PREFIX).map(|k| (k.to_owned(), v.clone())))
        .collect()
}

/// The marker in `page.html` that the labels replace.
pub const MARKER: &str = "/*HECTOR_LABELS*/null";

/// The page with its words in it.
pub fn page_with(page: &str, labels: &PageLabels) -> String {
    page.replacen(MARKER, &labels.to_script_json(), 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phrase::{MoveOptions, MoveStyle};

    #[test]
    fn every_language_has_every_page_word() {
        let l = PageLabels::builtin("de");
        assert_eq!(l.default, "de");
        let en = &l.langs["en"];
        assert!(en.len() > 60, "{}", en.len());
        for lang in ["de", "it", "el"] {
            let other = &l.langs[lang];
            let a: Vec<_> = en.keys().collect();
            let b: Vec<_> = other.keys().collect();
            assert_eq!(a, b, "{lang}");
            // Translated, not copied: most words differ from English.
            let same = en.iter().filter(|(k, v)| other[*k] == **v).count();
            assert!(same < 5, "{lang}: {same} page words are the English ones");
        }
        assert_eq!(l.langs["el"]["seat_opponent"], "Παίζεις αυτή την παρτίδα.");
        assert_eq!(
            l.langs["it"]["tactile_differs"],
            "La scacchiera del giocatore differisce su {squares}."
        );
    }

    #[test]
    fn the_player_language_starts_and_unknown_falls_back_to_english() {
        let p = Phraser::builtin(MoveStyle::AppendixD, Lang::It, MoveOptions::default());
        let l = PageLabels::for_player(&p);
        assert_eq!(l.default, "it");
        assert_eq!(l.langs["it"]["resign"], "Abbandona");
        assert_eq!(PageLabels::builtin("xx").default, "en");
    }

    #[test]
    fn the_json_cannot_end_the_script_element() {
        let mut l = PageLabels::default();
        l.langs
            .entry("en".into())
            .or_default()
            .insert("title".into(), "</script><script>alert(1)</script>".into());
        let page = page_with(
            "<script id=l type=application/json>/*HECTOR_LABELS*/null</script>",
            &l,
        );
        assert_eq!(page.matches("</script>").count(), 1, "{page}");
        let json = page
            .trim_start_matches("<script id=l type=application/json>")
            .trim_end_matches("</script>");
        let v: serde_json::Value = serde_json::from_str(json).unwrap();
        assert_eq!(
            v["langs"]["en"]["title"],
            "</script><script>alert(1)</script>"
        );
    }
}
