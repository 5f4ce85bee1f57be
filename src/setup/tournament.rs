//! `--tournament [FILE]`: a tournament game, and what its arbiter allowed
//! for this player in FILE, a settings file of one table:
//!
//! ```toml
//! [tournament]
//! allow = ["material"]
//! ```
//!
//! Only questions about the position can be allowed (attackers,
//! defenders, moves, material: `PlayerAction::allowable`), never the
//! engine, a take-back or leaving the game.  A tournament game has no
//! engine to play against: one set up (`--engine`, `[engine] play`) is
//! refused, as a setting that would turn the help back on.

use std::path::Path;

use serde::Deserialize;

use crate::action::PlayerAction;
use crate::app::{EngineSetup, TournamentSetup};
use crate::phrase::Phraser;
use crate::toml_error::IoWhy;

/// Why a tournament game cannot start as asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TournamentRefusal {
    /// The arbiter's file cannot be read.
    Unreadable {
        /// The file.
        path: String,
        /// Why the system refused it.
        why: IoWhy,
    },
    /// It is not a file of one `[tournament]` table with `allow`.
    NotSettings {
        /// The file.
        path: String,
        /// What the reader found wrong.
        why: String,
    },
    /// It allows what a tournament game cannot allow.
    CannotAllow {
        /// The file.
        path: String,
        /// The name given.
        name: String,
    },
    /// An engine is set up to play: a tournament game has none.
    Engine,
}

impl TournamentRefusal {
    /// The refusal in the player's words.
    pub fn sentence(&self, phraser: &Phraser) -> String {
        match self {
            TournamentRefusal::Unreadable { path, why } => phraser.message(
                "tournament_file_unreadable",
                &[("path", path), ("why", &phraser.io_why(why))],
            ),
            TournamentRefusal::NotSettings { path, why } => {
                phraser.message("tournament_file_bad", &[("path", path), ("why", why)])
            }
            TournamentRefusal::CannotAllow { path, name } => {
                let allowable: Vec<String> = PlayerAction::ALL
                    .iter()
                    .filter(|a| a.allowable())
                    .map(|a| a.key().to_owned())
                    .collect();
                phraser.message(
                    "tournament_cannot_allow",
                    &[
                        ("path", path),
                        ("name", &crate::words::quote(name)),
                        ("allowable", &phraser.list(&allowable)),
                    ],
                )
            }
            TournamentRefusal::Engine => phraser.message("tournament_engine", &[]),
        }
    }
}

/// The arbiter's file: one table.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ArbiterFile {
    tournament: ArbiterTable,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ArbiterTable {
    #[serde(default)]
    allow: Vec<String>,
}

/// `--tournament` as typed (`Some("")`: without a file) into the game's
/// setup, checked against the engine the session would play.
///
/// # Errors
///
/// The file cannot be read or allows what cannot be allowed; an engine
/// is set up.
pub fn tournament_setup(
    given: Option<&str>,
    engine: Option<&EngineSetup>,
) -> Result<Option<TournamentSetup>, TournamentRefusal> {
    let Some(given) = given else {
        return Ok(None);
    };
    if engine.is_some() {
        return Err(TournamentRefusal::Engine);
    }
    if given.is_empty() {
        return Ok(Some(TournamentSetup::default()));
    }
    let path = Path::new(given);
    let text = std::fs::read_to_string(path).map_err(|e| TournamentRefusal::Unreadable {
        path: given.to_owned(),
        why: IoWhy::of(&e),
    })?;
    allowed_in(&text, given).map(Some)
}

/// The arbiter's file's text (named `path`) into the setup.
fn allowed_in(text: &str, path: &str) -> Result<TournamentSetup, TournamentRefusal> {
    let file: ArbiterFile = toml::from_str(text).map_err(|e| TournamentRefusal::NotSettings {
        path: path.to_owned(),
        why: e.message().to_owned(),
    })?;
    TournamentSetup::from_names(&file.tournament.allow).map_err(|name| {
        TournamentRefusal::CannotAllow {
            path: path.to_owned(),
            name,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_arbiters_file_allows_questions_only() {
        let s = allowed_in(
            "[tournament]\nallow = [\"material\", \"moves\"]\n",
            "a.toml",
        )
        .unwrap();
        assert_eq!(s.allowed, [PlayerAction::Material, PlayerAction::Moves]);
        assert_eq!(
            allowed_in("[tournament]\nallow = [\"hint\"]\n", "a.toml"),
            Err(TournamentRefusal::CannotAllow {
                path: "a.toml".into(),
                name: "hint".into()
            })
        );
        // Nothing allowed: an empty table is a tournament game as any.
        assert_eq!(
            allowed_in("[tournament]\n", "a.toml"),
            Ok(TournamentSetup::default())
        );
        for bad in [
            "[tournament]\nallowed = []\n",
            "[game]\nrated = false\n",
            "allow =",
        ] {
            assert!(
                matches!(
                    allowed_in(bad, "a.toml"),
                    Err(TournamentRefusal::NotSettings { .. })
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn without_the_option_no_tournament_and_with_an_engine_a_refusal() {
        assert_eq!(tournament_setup(None, None), Ok(None));
        assert_eq!(
            tournament_setup(Some(""), None),
            Ok(Some(TournamentSetup::default()))
        );
        let engine = EngineSetup::default();
        assert_eq!(
            tournament_setup(Some(""), Some(&engine)),
            Err(TournamentRefusal::Engine)
        );
        assert_eq!(
            tournament_setup(Some("/nonexistent/arbiter.toml"), None),
            Err(TournamentRefusal::Unreadable {
                path: "/nonexistent/arbiter.toml".into(),
                why: IoWhy::NotFound
            })
        );
    }

    #[test]
    fn every_refusal_is_said_in_every_language() {
        use crate::phrase::{MoveOptions, MoveStyle};
        use crate::words::Lang;
        let refusals = [
            TournamentRefusal::Unreadable {
                path: "a.toml".into(),
                why: IoWhy::NotFound,
            },
            TournamentRefusal::NotSettings {
                path: "a.toml".into(),
                why: "unknown field".into(),
            },
            TournamentRefusal::CannotAllow {
                path: "a.toml".into(),
                name: "hint".into(),
            },
            TournamentRefusal::Engine,
        ];
        for lang in Lang::ALL {
            let p = Phraser::builtin(MoveStyle::AppendixD, lang, MoveOptions::default());
            for r in &refusals {
                let s = r.sentence(&p);
                assert!(!s.contains('{') && !s.is_empty(), "{s}");
            }
        }
    }
}
