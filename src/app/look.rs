//! How the full-screen view looks: the look actions (`piece_style`,
//! `coordinates`, `move_list`, `theme`, `large_text`) change the
//! [`ViewLook`] the app keeps, and each change is said, so a player who
//! cannot see the screen knows what the sighted opponent now sees.

use super::voice::Voice;
use crate::action::PlayerAction;
use crate::view::{PieceStyle, ViewLook};

/// A look action: the look changed, and the change said.
pub(super) fn change(look: &mut ViewLook, action: PlayerAction, v: &mut Voice<'_>) {
    let key = match action {
        PlayerAction::PieceStyle => {
            look.pieces = look.pieces.next();
            match look.pieces {
                PieceStyle::Letters => "look_pieces_letters",
                PieceStyle::Figurines => "look_pieces_figurines",
                PieceStyle::Blocks => "look_pieces_blocks",
            }
        }
        PlayerAction::Coordinates => {
            look.coord_words = !look.coord_words;
            if look.coord_words {
                "look_coordinates_words"
            } else {
                "look_coordinates_letters"
            }
        }
        PlayerAction::MoveList => {
            look.san_moves = !look.san_moves;
            if look.san_moves {
                "look_moves_san"
            } else {
                "look_moves_spoken"
            }
        }
        PlayerAction::LargeText => {
            look.large_text = !look.large_text;
            if look.large_text {
                "look_large_text_on"
            } else {
                "look_large_text_off"
            }
        }
        PlayerAction::Theme => {
            look.next_theme();
            // The built-in themes have names in every language; the
            // player's own theme is called as its file calls it.
            let theme = look.theme.clone();
            let name = if crate::view::THEMES.contains(&theme.as_str()) {
                v.text(&format!("theme_{}", theme.replace('-', "_")), &[])
            } else {
                theme
            };
            let t = v.text("look_theme", &[("name", &name)]);
            v.info(t);
            return;
        }
        _ => return,
    };
    let t = v.text(key, &[]);
    v.info(t);
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use crate::action::{KeyArg, PlayerAction};
    use crate::app::App;
    use crate::msg::{Effect, Msg};
    use crate::view::PieceStyle;
    use crate::words::Lang;

    fn key(app: &mut App, a: PlayerAction) -> String {
        app.update(Msg::Key(a, KeyArg::None), Instant::now())
            .iter()
            .filter_map(|e| match e {
                Effect::Say(u) => Some(u.text.clone()),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn each_look_action_changes_the_look_and_says_so() {
        let mut app = App::builder().build();
        assert_eq!(app.view_state().look().pieces, PieceStyle::Letters);
        assert_eq!(
            key(&mut app, PlayerAction::PieceStyle),
            "Pieces as figurines."
        );
        assert_eq!(app.view_state().look().pieces, PieceStyle::Figurines);
        assert_eq!(
            key(&mut app, PlayerAction::PieceStyle),
            "Pieces as large shapes."
        );
        assert_eq!(
            key(&mut app, PlayerAction::PieceStyle),
            "Pieces as letters."
        );
        assert_eq!(
            key(&mut app, PlayerAction::Coordinates),
            "Coordinates in Appendix D words."
        );
        assert!(app.view_state().look().coord_words);
        assert_eq!(
            key(&mut app, PlayerAction::MoveList),
            "Move list in short notation."
        );
        assert!(app.view_state().look().san_moves);
        assert_eq!(
            key(&mut app, PlayerAction::LargeText),
            "The last sentence in large letters."
        );
        assert!(app.view_state().look().large_text);
        assert_eq!(
            key(&mut app, PlayerAction::Theme),
            "Theme: high contrast, light."
        );
        assert_eq!(
            key(&mut app, PlayerAction::Theme),
            "Theme: yellow on black."
        );
        assert_eq!(
            key(&mut app, PlayerAction::Theme),
            "Theme: high contrast, dark."
        );
        assert_eq!(app.view_state().look().theme, "high-contrast-dark");
    }

    #[test]
    fn the_players_own_theme_goes_round_with_the_others() {
        let mut app = App::builder().lang(Lang::De).build();
        let mut look = app.view_state().look().clone();
        look.themes.push("meins".into());
        look.theme = "yellow-on-black".into();
        app.set_look(look);
        assert_eq!(key(&mut app, PlayerAction::Theme), "Farbschema: meins.");
        assert_eq!(
            key(&mut app, PlayerAction::Theme),
            "Farbschema: hoher Kontrast, dunkel."
        );
    }
}
