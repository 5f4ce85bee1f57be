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
            problems.push(StartProblem::Settings(e));
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
            problems.extend(errors.into_iter().map(StartProblem::Settings));
            map
        }
    };
    (look, keymap, problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_files_with_problems_are_reported() {
        let dir = std::env::temp_dir().join(format!("hector-tui-setup-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let theme = dir.join("theme.toml");
        std::fs::write(&theme, "[colours]\ncheck = \"purple\"\n").unwrap();
        let keys = dir.join("tui.toml");
        std::fs::write(
            &keys,
            "[keys]\nsquare = [\"k\"]\nflip_view = [\"Ctrl-v\"]\n",
        )
        .unwrap();
        let settings = ViewSettings {
            theme: "yellow-on-black".into(),
            theme_file: Some(theme),
            pieces: "blocks".into(),
            keymap: Some(keys),
            ..ViewSettings::default()
        };
        let (look, map, problems) = load(&settings);
        assert_eq!(
            look.theme,
            Theme::yellow_on_black(),
            "the named theme stands in"
        );
        assert_eq!(look.pieces, PieceStyle::Blocks);
        assert_eq!(problems.len(), 2, "{problems:?}");
        let text: Vec<String> = problems
            .iter()
            .map(|p| match p {
                StartProblem::Settings(e) | StartProblem::Voice(e) => e.to_string(),
                StartProblem::Setting(e) => e.to_file_error().to_string(),
            })
            .collect();
        assert!(text[0].ends_with("theme.toml, line 2, key colours.check: \"purple\" is not a colour; use one of black, red, green, yellow, blue, magenta, cyan, gray, dark-gray, light-red, light-green, light-yellow, light-blue, light-magenta, light-cyan, white"), "{text:?}");
        assert!(
            text[1].contains(
                "tui.toml, line 2, key keys.square: the key k is already the key of next_king"
            ),
            "{text:?}"
        );
        // The rest of the key file applies.
        assert_eq!(
            map.action(&super::super::keys::KeyChord::parse("Ctrl-v").unwrap()),
            Some("flip_view")
        );
        std::fs::remove_dir_all(&dir).ok();
    }
}
