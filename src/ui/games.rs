//! The games folder in words: the files that are not saved games, and why
//! a game cannot be resumed (issue 31: nothing in the folder is hidden).

use std::path::{Path, PathBuf};

use crate::phrase::Phraser;
use crate::scoresheet::{NotAGame, NotPlain, OtherFile};

/// Why a file is not a game, as a clause of the player's language.
pub fn why_not_a_game(phraser: &Phraser, why: &NotAGame) -> String {
    match why {
        NotAGame::NotPlain(kind) => why_not_plain(phraser, kind),
        NotAGame::Empty => phraser.message("not_game_empty", &[]),
        NotAGame::DamagedCopy => phraser.message("not_game_damaged_copy", &[]),
        NotAGame::Name => phraser.message("not_game_name", &[]),
    }
}

/// Why a file was refused unread (or could not be read).
pub fn why_not_plain(phraser: &Phraser, kind: &NotPlain) -> String {
    match kind {
        NotPlain::Folder => phraser.message("not_game_folder", &[]),
        NotPlain::Link => phraser.message("not_game_link", &[]),
        NotPlain::Special => phraser.message("not_game_special", &[]),
        NotPlain::Unreadable(why) => phraser.message("not_game_unreadable", &[("why", why)]),
    }
}

/// A file of the games folder that is not a game, as `hector games` lists
/// it: its name, why, and its path.
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

/// What `--resume` could not resume, why, and its file: a damaged game,
/// or a file named like a journal that is not one.
pub fn cannot_resume(phraser: &Phraser, id: &str, why: &str, path: &Path) -> String {
    phraser.message(
        "resume_cannot",
        &[
            ("id", id),
            ("why", why),
            ("path", &path.display().to_string()),
        ],
    )
}

/// The newest thing `--resume` would have taken that cannot be resumed:
/// a damaged game or a journal's name holding no readable game, newer
/// than every game that can be: what [`cannot_resume`] says of it.
pub fn newest_unresumable(
    phraser: &Phraser,
    listing: &crate::scoresheet::Listing,
) -> Option<String> {
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
        crate::scoresheet::GameId::parse(id)?;
        Some((
            id.to_owned(),
            why_not_a_game(phraser, &f.why),
            f.path.clone(),
        ))
    });
    let (id, why, path): (String, String, PathBuf) = damaged
        .chain(others)
        .filter(|(id, _, _)| newest_ok.is_none_or(|ok| id.as_str() > ok))
        .max_by(|a, b| a.0.cmp(&b.0))?;
    Some(cannot_resume(phraser, &id, &why, &path))
}
