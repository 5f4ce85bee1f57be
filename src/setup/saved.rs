//! The saved games from the command line: a typed key (`hector resume
//! KEY`, `hector export KEY`) resolved into one game or the sentences
//! that say why not, the lines of `hector games` (every file in the
//! folder, a game or not), and the game `hector play` goes on with (never
//! one another hector has open: that one is offered to watch).

use std::path::Path;

use crate::phrase::Phraser;
use crate::scoresheet::{
    GameId, GameSummary, Listing, NotAGame, NotPlain, OtherFile, ResumeChoice, ResumeOffer, Store,
    not_plain,
};

use super::typed::PlayArgs;

/// The store of journals: `$XDG_DATA_HOME/hector/games` (or the
/// platform's data folder).
#[must_use]
pub fn store() -> Store {
    Store::new(Store::default_dir().unwrap_or_else(|| std::path::PathBuf::from("hector-games")))
}

/// One line of `hector games`: a damaged game with its file, never hidden
/// (for the arbiter); any other as [`game_line`].
#[must_use]
pub fn listing_line(phraser: &Phraser, number: usize, g: &GameSummary) -> String {
    if g.damaged {
        return phraser.message(
            "games_line_damaged",
            &[
                ("number", &number.to_string()),
                ("id", g.id.as_str()),
                ("path", &g.path.display().to_string()),
            ],
        );
    }
    game_line(phraser, number, g)
}

/// One saved game as `hector games` lists it: "3. 20261125-…, …".
#[must_use]
pub fn game_line(phraser: &Phraser, number: usize, g: &GameSummary) -> String {
    let fmt = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute] UTC");
    let date = g
        .started
        .and_then(|d| d.format(&fmt).ok())
        .unwrap_or_default();
    let result = match &g.result {
        Some(r) => r.clone(),
        None => phraser.message("game_unfinished", &[]),
    };
    // An online game's players with their ratings, and where it was played.
    let player = |name: &str, elo: &Option<String>, side| {
        let name = phraser.player(name, side);
        match elo {
            Some(r) if g.online.is_some() => {
                phraser.message("games_player_rating", &[("name", &name), ("rating", r)])
            }
            _ => name,
        }
    };
    phraser.message(
        if g.online.is_some() {
            "games_line_lichess"
        } else {
            "games_line"
        },
        &[
            ("number", &number.to_string()),
            ("id", g.id.as_str()),
            ("date", &date),
            (
                "white",
                &player(&g.white, &g.white_elo, shakmaty::Color::White),
            ),
            (
                "black",
                &player(&g.black, &g.black_elo, shakmaty::Color::Black),
            ),
            ("result", &result),
            ("moves", &g.plies.div_ceil(2).to_string()),
        ],
    )
}

/// The saved game `key` names (its id, its number in `hector games`, or
/// the start of its id), readable.
///
/// # Errors
///
/// The sentences to say: that there is none, or the games it fits when
/// several do (each as `hector games` lists it), or that it is damaged.
pub fn find_game(store: &Store, key: &str, phraser: &Phraser) -> Result<GameSummary, Vec<String>> {
    match store.find(key) {
        Some(g) if g.damaged => Err(vec![phraser.message(
            "game_damaged",
            &[
                ("id", g.id.as_str()),
                ("path", &g.path.display().to_string()),
            ],
        )]),
        Some(g) => Ok(g),
        None => {
            let fits = store.matching(key);
            if fits.len() < 2 {
                return Err(vec![phraser.message("no_such_saved_game", &[("id", key)])]);
            }
            let count = fits.len().to_string();
            let mut said =
                vec![phraser.message("saved_game_ambiguous", &[("id", key), ("count", &count)])];
            said.extend(fits.iter().map(|(n, g)| game_line(phraser, *n, g)));
            Err(said)
        }
    }
}

/// The game `hector play` goes on with, and a sentence to say first.
#[derive(Debug)]
pub struct ResumePlan {
    /// The game offered (asked, or at once), if any.
    pub offer: Option<ResumeOffer>,
    /// Said before the game: why a saved game is not offered.
    pub said: Option<String>,
    /// The game asked for is open in another hector: nothing is written
    /// to it here; the player is offered to watch it (issue 31).
    pub open_elsewhere: Option<GameId>,
}

/// The game to go on with: `hector resume KEY`'s, or the newest
/// unfinished one (asked about, or at once with `--resume`); none with
/// `--no-resume`, `--fen` or `--pgn`.  A game played on lichess is rejoined
/// there with the player's token: without one it is not resumed offline
/// (`--resume` or `hector resume` says why and stops; otherwise the
/// question is not asked and a new game begins, the online one kept).
///
/// # Errors
///
/// The sentences to say before hector stops.
pub fn resume_plan(
    store: &Store,
    typed: &PlayArgs,
    key: Option<&str>,
    has_token: bool,
    phraser: &Phraser,
) -> Result<ResumePlan, Vec<String>> {
    let mut said = None;
    let offer = match key {
        Some(key) => {
            let g = match find_game(store, key, phraser) {
                Ok(g) => g,
                // A file named like the game that is not one: said why.
                Err(not_found) => {
                    return Err(
                        not_a_game_named(store, key, phraser).map_or(not_found, |line| vec![line])
                    );
                }
            };
            if store.open_elsewhere(&g.id) {
                return Ok(ResumePlan {
                    offer: None,
                    said: None,
                    open_elsewhere: Some(g.id),
                });
            }
            match ResumeOffer::load(store, &g.id, ResumeChoice::Now) {
                Ok(o) => Some(o),
                Err(e) => return Err(vec![unreadable(phraser, &g, &e)]),
            }
        }
        None if typed.no_resume || typed.fen.is_some() || typed.pgn.is_some() => None,
        None => match store.resumable() {
            Some(g) if store.open_elsewhere(&g.id) => {
                if typed.resume {
                    return Ok(ResumePlan {
                        offer: None,
                        said: None,
                        open_elsewhere: Some(g.id),
                    });
                }
                let id = g.id.as_str();
                said = Some(phraser.message("game_open_elsewhere_new", &[("id", id)]));
                None
            }
            Some(g) => {
                let choice = if typed.resume {
                    ResumeChoice::Now
                } else {
                    ResumeChoice::Ask
                };
                match ResumeOffer::load(store, &g.id, choice) {
                    Ok(o) => Some(o),
                    Err(e) => {
                        said = Some(unreadable(phraser, &g, &e));
                        None
                    }
                }
            }
            // `--resume` says what it could not resume (issue 31).
            None if typed.resume => {
                said = store
                    .list_all()
                    .ok()
                    .and_then(|l| newest_unresumable(phraser, &l));
                None
            }
            None => None,
        },
    };
    let online = offer
        .as_ref()
        .is_some_and(|o| o.resumed.start.online().is_some());
    if !online || has_token {
        return Ok(ResumePlan {
            offer,
            said,
            open_elsewhere: None,
        });
    }
    let said = phraser.message("lichess_no_token", &[]);
    if offer.is_some_and(|o| o.choice == ResumeChoice::Now) {
        return Err(vec![said]);
    }
    Ok(ResumePlan {
        offer: None,
        said: Some(said),
        open_elsewhere: None,
    })
}

/// A saved game that could not be read: why, in the player's words where
/// hector knows them (a file refused unread), else the system's.
fn unreadable(phraser: &Phraser, g: &GameSummary, e: &std::io::Error) -> String {
    let why = match not_plain(e) {
        Some(kind) => why_not_plain(phraser, kind),
        None => e.to_string(),
    };
    phraser.message(
        "game_unreadable",
        &[
            ("id", g.id.as_str()),
            ("path", &g.path.display().to_string()),
            ("why", &why),
        ],
    )
}

/// Why a file is not a game, as a clause of the player's language.
#[must_use]
pub fn why_not_a_game(phraser: &Phraser, why: &NotAGame) -> String {
    match why {
        NotAGame::NotPlain(kind) => why_not_plain(phraser, kind),
        NotAGame::Empty => phraser.message("not_game_empty", &[]),
        NotAGame::DamagedCopy => phraser.message("not_game_damaged_copy", &[]),
        NotAGame::Name => phraser.message("not_game_name", &[]),
    }
}

/// Why a file was refused unread (or could not be read).
#[must_use]
pub fn why_not_plain(phraser: &Phraser, kind: &NotPlain) -> String {
    match kind {
        NotPlain::Folder => phraser.message("not_game_folder", &[]),
        NotPlain::Link => phraser.message("not_game_link", &[]),
        NotPlain::Special => phraser.message("not_game_special", &[]),
        NotPlain::NoPermission => phraser.message("not_game_no_permission", &[]),
        NotPlain::Unreadable(why) => {
            phraser.message("not_game_unreadable", &[("why", &phraser.io_why(why))])
        }
    }
}

/// A file of the games folder that is not a game, as `hector games` lists
/// it after the games: its name, why, and its path (never hidden).
#[must_use]
pub fn other_file_line(phraser: &Phraser, f: &OtherFile) -> String {
    phraser.message(
        "games_other",
        &[
            ("name", &f.name),
            ("why", &why_not_a_game(phraser, &f.why)),
            ("path", &f.path.display().to_string()),
        ],
    )
}

/// What could not be resumed, why, and its file.
fn cannot_resume(phraser: &Phraser, id: &str, why: &str, path: &Path) -> String {
    phraser.message(
        "resume_cannot",
        &[
            ("id", id),
            ("why", why),
            ("path", &path.display().to_string()),
        ],
    )
}

/// `key` names a file of the games folder (`KEY.txt`) that is not a game:
/// why it cannot be resumed.
fn not_a_game_named(store: &Store, key: &str, phraser: &Phraser) -> Option<String> {
    let listing = store.list_all().ok()?;
    let f = listing
        .others
        .iter()
        .find(|f| f.name.strip_suffix(".txt") == Some(key))?;
    Some(cannot_resume(
        phraser,
        key,
        &why_not_a_game(phraser, &f.why),
        &f.path,
    ))
}

/// The newest thing `--resume` would have taken that cannot be resumed:
/// a damaged game or a journal's name holding no readable game, newer
/// than every game that can be; what is said of it.
fn newest_unresumable(phraser: &Phraser, listing: &Listing) -> Option<String> {
    let newest_ok = listing
        .games
        .iter()
        .filter(|g| !g.damaged)
        .map(|g| g.id.as_str())
        .max();
    let damaged = listing.games.iter().filter(|g| g.damaged).map(|g| {
        let why = phraser.message("resume_cannot_damaged", &[]);
        (g.id.as_str().to_owned(), why, g.path.clone())
    });
    let others = listing.others.iter().filter_map(|f| {
        let id = f.name.strip_suffix(".txt")?;
        GameId::parse(id)?;
        Some((
            id.to_owned(),
            why_not_a_game(phraser, &f.why),
            f.path.clone(),
        ))
    });
    let (id, why, path) = damaged
        .chain(others)
        .filter(|(id, _, _)| newest_ok.is_none_or(|ok| id.as_str() > ok))
        .max_by(|a, b| a.0.cmp(&b.0))?;
    Some(cannot_resume(phraser, &id, &why, &path))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phrase::{MoveOptions, MoveStyle};
    use crate::scoresheet::StartInfo;
    use crate::scoresheet::record::online_key;
    use crate::setup::typed::tests::play;
    use crate::words::vocab::Lang;

    fn en() -> Phraser {
        Phraser::builtin(MoveStyle::AppendixD, Lang::En, MoveOptions::default())
    }

    /// A store in a folder of its own, with games begun at these times
    /// (seconds after 2026-11-25 10:00 UTC); `online` ones are lichess's.
    fn store_with(name: &str, games: &[(i64, bool)]) -> (Store, std::path::PathBuf) {
        let dir =
            std::env::temp_dir().join(format!("hector-setup-saved-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::new(dir.clone());
        for (s, online) in games {
            let mut info = StartInfo {
                white: "Anna".into(),
                black: "Ben".into(),
                ..StartInfo::default()
            };
            if *online {
                info.set_online_server("https://lichess.org");
                info.extra
                    .push((online_key::GAME.into(), "AbCd1234".into()));
                info.extra.push((online_key::SIDE.into(), "white".into()));
            }
            let at = time::macros::datetime!(2026-11-25 10:00 UTC) + time::Duration::seconds(*s);
            let (_, _, written) = store.begin(&info, at);
            written.unwrap();
        }
        (store, dir)
    }

    #[test]
    fn a_key_names_one_game_or_says_why_not() {
        let (store, dir) = store_with("find", &[(0, false), (1, false), (3600, false)]);
        let p = en();
        let g = find_game(&store, "3", &p).unwrap();
        assert_eq!(g.id.as_str(), "20261125-110000");
        assert_eq!(
            find_game(&store, "1999", &p).unwrap_err(),
            // Issue 30, item 17: a shell command, never a word to say.
            ["There is no saved game \"1999\". The command hector games lists the saved games."]
        );
        // Two games fit: both are listed with their numbers.
        let said = find_game(&store, "20261125-1000", &p).unwrap_err();
        assert_eq!(said.len(), 3, "{said:?}");
        assert!(said[1].starts_with("1. 20261125-100000"), "{said:?}");
        assert!(said[2].starts_with("2. 20261125-100001"), "{said:?}");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn the_unfinished_game_is_asked_about_or_taken_at_once() {
        let (store, dir) = store_with("resume", &[(0, false)]);
        let p = en();
        let asked = resume_plan(&store, &play(&[]), None, false, &p).unwrap();
        assert_eq!(asked.offer.map(|o| o.choice), Some(ResumeChoice::Ask));
        let now = resume_plan(&store, &play(&["--resume"]), None, false, &p).unwrap();
        assert_eq!(now.offer.map(|o| o.choice), Some(ResumeChoice::Now));
        for typed in [
            &["--no-resume"][..],
            &["--fen", "8/8/8/8/8/8/8/K1k5 w - - 0 1"],
        ] {
            let plan = resume_plan(&store, &play(typed), None, false, &p).unwrap();
            assert!(plan.offer.is_none() && plan.said.is_none(), "{typed:?}");
        }
        let by_key = resume_plan(&store, &play(&[]), Some("1"), false, &p).unwrap();
        assert_eq!(by_key.offer.map(|o| o.choice), Some(ResumeChoice::Now));
        let _ = std::fs::remove_dir_all(dir);
    }

    /// Issue 31: a game another hector has open is never offered here:
    /// `--resume` and a key offer to watch it, a plain start says so and
    /// begins a new game.
    #[test]
    fn a_game_open_elsewhere_is_offered_to_watch_never_resumed() {
        let (store, dir) = store_with("elsewhere", &[(0, false)]);
        let p = en();
        let id = store.list().unwrap()[0].id.clone();
        let held = store.lock(&id).unwrap();
        for (typed, key) in [(&["--resume"][..], None), (&[][..], Some("1"))] {
            let plan = resume_plan(&store, &play(typed), key, false, &p).unwrap();
            assert!(plan.offer.is_none(), "{typed:?}");
            assert_eq!(plan.open_elsewhere.as_ref(), Some(&id), "{typed:?}");
        }
        let plan = resume_plan(&store, &play(&[]), None, false, &p).unwrap();
        assert!(plan.offer.is_none() && plan.open_elsewhere.is_none());
        assert_eq!(
            plan.said.as_deref(),
            Some(
                "The unfinished game 20261125-100000 is open in another hector window; \
                 it is not resumed here."
            )
        );
        drop(held);
        let plan = resume_plan(&store, &play(&["--resume"]), None, false, &p).unwrap();
        assert_eq!(plan.offer.map(|o| o.choice), Some(ResumeChoice::Now));
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn an_online_game_without_a_token_is_not_resumed_offline() {
        let (store, dir) = store_with("online", &[(0, true)]);
        let p = en();
        let no_token = "No lichess token. Run hector lichess login first, or set LICHESS_TOKEN.";
        let plan = resume_plan(&store, &play(&[]), None, false, &p).unwrap();
        assert!(plan.offer.is_none());
        assert_eq!(plan.said.as_deref(), Some(no_token));
        assert_eq!(
            resume_plan(&store, &play(&["--resume"]), None, false, &p).unwrap_err(),
            [no_token]
        );
        assert_eq!(
            resume_plan(&store, &play(&[]), Some("1"), false, &p).unwrap_err(),
            [no_token]
        );
        let plan = resume_plan(&store, &play(&[]), None, true, &p).unwrap();
        assert_eq!(plan.offer.map(|o| o.choice), Some(ResumeChoice::Ask));
        let _ = std::fs::remove_dir_all(dir);
    }
}
