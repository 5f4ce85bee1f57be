//! The full-screen view's settings read: the look (theme, piece style) and
//! the key map, with every file that cannot be used reported (and the
//! built-in one used instead).

use super::glyph::PieceStyle;
use super::keys::KeyMap;
use super::render::Look;
use super::theme::Theme;
use crate::config::ViewSettings;
use crate::msg::StartProblem;

/// The look and the keys of the `[view]` settings, and the problems with
/// the user's files (to be said at start-up).
pub fn load(settings: &ViewSettings) -> (Look, KeyMap, Vec<StartProblem>) {
    let mut problems = Vec::new();
    let builtin = Theme::builtin(&settings.theme).unwrap_or_else(Theme::high_contrast_dark);
    let theme = match &settings.theme_file {
        None => builtin,
        Some(p) => Theme::load(p).unwrap_or_else(|e| {
            problems.push(StartProblem::File(e));
            builtin
        }),
    };
    let look = Look {
        theme,
        pieces: PieceStyle::from_name(&settings.pieces).unwrap_or_default(),
        coord_words: settings.coordinate_words,
        san_moves: settings.san_moves,
        large_text: settings.large_text,
    };
    let keymap = match &settings.keymap {
        None => KeyMap::builtin(),
        Some(p) => {
            let (map, errors) = KeyMap::load_user(p);
            problems.extend(errors.into_iter().map(StartProblem::File));
            map
        }
    };
    (look, keymap, problems)
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;
    use crate::app::App;
    use crate::msg::{Effect, Msg};
    use crate::words::Lang;

    /// What an app in `lang` says of the start-up problems.
    fn said(lang: Lang, problems: &[StartProblem]) -> Vec<String> {
        let mut app = App::builder().lang(lang).build();
        problems
            .iter()
            .flat_map(|p| app.update(Msg::Problem(p.clone()), Instant::now()))
            .filter_map(|e| match e {
                Effect::Say(u) => Some(u.text),
                _ => None,
            })
            .collect()
    }

    /// Issue 27, items 5 and 6: what is wrong in the player's theme and
    /// key map was said in English inside the German sentence ("„purple“
    /// is not a colour …. Es gelten die Voreinstellungen."), and a file
    /// the toml crate cannot read in the crate's English.  Now a German
    /// player hears only German, with file, line and key; the built-in
    /// theme stands in and the rest of the key map applies.
    #[test]
    fn a_german_player_hears_a_broken_theme_and_key_map_in_german() {
        let dir = std::env::temp_dir().join(format!("hector-tui-setup-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let theme = dir.join("theme.toml");
        std::fs::write(&theme, "[colours]\ncheck = \"purple\"\n").unwrap();
        let keys = dir.join("tui.toml");
        std::fs::write(
            &keys,
            "[keys]\nsquare = [\"k\"]\nflip_view = [\"Ctrl-v\"]\nhelp = [\"Hyper-h\"]\nteleport = [\"t\"]\n",
        )
        .unwrap();
        let mut settings = ViewSettings {
            theme: "yellow-on-black".into(),
            theme_file: Some(theme.clone()),
            pieces: "blocks".into(),
            keymap: Some(keys.clone()),
            ..ViewSettings::default()
        };
        let (look, map, problems) = load(&settings);
        assert_eq!(
            look.theme,
            Theme::yellow_on_black(),
            "the named theme stands in"
        );
        assert_eq!(look.pieces, PieceStyle::Blocks);
        let (t, k) = (theme.display(), keys.display());
        assert_eq!(
            said(Lang::De, &problems),
            vec![
                format!(
                    "{t}, Zeile 2, Schlüssel colours.check: „purple“ ist keine Farbe; nimm eine \
                     von black, red, green, yellow, blue, magenta, cyan, gray, dark-gray, \
                     light-red, light-green, light-yellow, light-blue, light-magenta, light-cyan, \
                     white. Es gelten die Voreinstellungen."
                ),
                format!(
                    "{k}, Zeile 4, Schlüssel keys.help: „Hyper-h“ ist keine Taste; schreibe ein \
                     Zeichen oder eine von Up, Down, Left, Right, Enter, Esc, Tab, BackTab, \
                     Space, Backspace, Delete, Insert, Home, End, PageUp, PageDown, F1 bis F12, \
                     mit Ctrl- oder Alt- davor. Es gelten die Voreinstellungen."
                ),
                format!(
                    "{k}, Zeile 5, Schlüssel keys.teleport: „teleport“ ist keine Aktion der \
                     Vollbildansicht. Es gelten die Voreinstellungen."
                ),
                format!(
                    "{k}, Zeile 2, Schlüssel keys.square: die Taste k gehört schon zu next_king \
                     und bleibt dort. Es gelten die Voreinstellungen."
                ),
            ]
        );
        // The same problems in English, as before.
        let english = said(Lang::En, &problems);
        assert!(
            english[3].ends_with(
                "key keys.square: the key k is already the key of next_king; it stays with \
                 next_king. Using the defaults."
            ),
            "{english:?}"
        );
        // The rest of the key file applies.
        assert_eq!(
            map.action(&super::super::keys::KeyChord::parse("Ctrl-v").unwrap()),
            Some("flip_view")
        );

        // A theme file the toml crate cannot read: its line, in German,
        // not the crate's English ("invalid table header").
        std::fs::write(&theme, "base = \"dark\"\n[colours\n").unwrap();
        settings.keymap = None;
        let (_, _, problems) = load(&settings);
        let german = said(Lang::De, &problems);
        assert_eq!(german.len(), 1, "{german:?}");
        assert!(
            german[0].starts_with(&format!("{t}, Zeile 2")),
            "{german:?}"
        );
        assert!(
            german[0].ends_with(
                ": diese Zeile ist nicht lesbar; prüfe Anführungszeichen und Klammern. Es gelten \
                 die Voreinstellungen."
            ),
            "{german:?}"
        );
        // A theme file that is not there.
        settings.theme_file = Some(dir.join("missing.toml"));
        let (_, _, problems) = load(&settings);
        assert_eq!(
            said(Lang::De, &problems),
            vec![format!(
                "{}: kann nicht gelesen werden (diese Datei gibt es nicht). Es gelten die \
                 Voreinstellungen.",
                dir.join("missing.toml").display()
            )]
        );
        std::fs::remove_dir_all(&dir).ok();
    }
}
