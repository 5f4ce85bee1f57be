//! The game a session starts: the scoresheet's names and event
//! (`--white`, `--black`, `--event` over the settings' `[players]`) and
//! the position (`--fen`, or a game of `--pgn` from its end).

use shakmaty::Color;

use crate::config::PlayersSettings;
use crate::game::Game;
use crate::scoresheet::StartInfo;
use crate::scoresheet::start::{StartError, from_fen, from_pgn};

use super::typed::PlayArgs;

/// How a game over the board begins.
#[derive(Debug)]
pub struct GameStart {
    /// The journal's start record: the names, the event, the date.
    pub journal: StartInfo,
    /// The position to start from with its own record (`--fen`, `--pgn`),
    /// the names typed over the file's.
    pub from: Option<(Game, StartInfo)>,
}

/// The game of `typed`, with the settings' players (`me` on the player's
/// colour `me`) and today's date (`YYYY.MM.DD`).
///
/// # Errors
///
/// A `--fen` or `--pgn` that cannot be used.
pub fn game_start(
    typed: &PlayArgs,
    players: &PlayersSettings,
    me: Color,
    today: String,
) -> Result<GameStart, StartError> {
    let (white, black) = players.names(me);
    let journal = StartInfo {
        white: typed.white.clone().unwrap_or(white),
        black: typed.black.clone().unwrap_or(black),
        event: typed.event.clone().unwrap_or_default(),
        date: today,
        ..StartInfo::default()
    };
    let from = match (&typed.fen, &typed.pgn) {
        (Some(fen), _) => Some(from_fen(fen)?),
        (None, Some(path)) => Some(from_pgn(path, typed.game)?),
        (None, None) => None,
    };
    let from = from.map(|(game, mut info)| {
        let given = [
            (&typed.white, &mut info.white),
            (&typed.black, &mut info.black),
            (&typed.event, &mut info.event),
        ];
        for (typed, field) in given {
            if let Some(v) = typed {
                field.clone_from(v);
            }
        }
        (game, info)
    });
    Ok(GameStart { journal, from })
}

#[cfg(test)]
mod tests {
    use shakmaty::Position;

    use super::*;
    use crate::setup::typed::tests::play;

    const FEN: &str = "8/8/8/8/8/8/5k2/7K w - - 0 1";

    #[test]
    fn the_names_typed_over_the_settings_players() {
        let players = PlayersSettings {
            me: Some("Ilse".into()),
            white: None,
            black: Some("Club".into()),
        };
        let s = game_start(&play(&[]), &players, Color::White, "2026.11.27".into()).unwrap();
        assert_eq!(
            (s.journal.white.as_str(), s.journal.black.as_str()),
            ("Ilse", "Club")
        );
        assert_eq!(s.journal.date, "2026.11.27");
        assert!(s.from.is_none());
        let typed = play(&["--white", "Anna", "--event", "Open"]);
        let s = game_start(&typed, &players, Color::Black, String::new()).unwrap();
        assert_eq!(s.journal.white, "Anna");
        // The settings' black comes before `me` on black.
        assert_eq!(s.journal.black, "Club");
        assert_eq!(s.journal.event, "Open");
    }

    #[test]
    fn a_position_keeps_the_names_typed() {
        let typed = play(&["--fen", FEN, "--black", "Ben"]);
        let s = game_start(
            &typed,
            &PlayersSettings::default(),
            Color::White,
            String::new(),
        )
        .unwrap();
        let (game, info) = s.from.unwrap();
        assert_eq!(info.black, "Ben");
        assert_eq!(info.fen.as_deref(), Some(FEN));
        assert_eq!(game.position().board().occupied().count(), 2);
        let bad = play(&["--fen", "8/8/8 w - - 0 1"]);
        assert!(
            game_start(
                &bad,
                &PlayersSettings::default(),
                Color::White,
                String::new()
            )
            .is_err()
        );
    }
}
