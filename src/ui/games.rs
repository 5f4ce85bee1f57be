//! The games folder in words: the files that are not saved games, and why
//! a game cannot be resumed (issue 31: nothing in the folder is hidden).

use crate::phrase::Phraser;
use crate::scoresheet::{GameSummary, NotAGame, NotPlain, OtherFile};

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

/// What `--resume` could not resume, and why: a damaged game, or a file
/// named like a journal that is not one.
pub fn cannot_resume(phraser: &Phraser, id: &str, why: &str) -> String {
    phraser.message("resume_cannot", &[("id", id), ("why", why)])
}

/// A damaged game's reason, for [`cannot_resume`].
pub fn damaged_why(phraser: &Phraser, g: &GameSummary) -> String {
    phraser.message(
        "resume_cannot_damaged",
        &[("path", &g.path.display().to_string())],
    )
}

/// The newest thing `--resume` would have taken that cannot be resumed:
/// a damaged game or a journal's name holding no readable game, newer
/// than every game that can be; its id and why.
pub fn newest_unresumable(
    phraser: &Phraser,
    listing: &crate::scoresheet::Listing,
) -> Option<(String, String)> {
    let newest_ok = listing
        .games
        .iter()
        .filter(|g| !g.damaged)
        .map(|g| g.id.as_str())
        .max();
    let damaged = listing
        .games
        .iter()
        .filter(|g| g.damaged)
        .map(|g| (g.id.as_str().to_owned(), damaged_why(phraser, g)));
    let others = listing.others.iter().filter_map(|f| {
        let id = f.name.strip_suffix(".txt")?;
        crate::scoresheet::GameId::parse(id)?;
        Some((id.to_owned(), why_not_a_game(phraser, &f.why)))
    });
    damaged
        .chain(others)
        .filter(|(id, _)| newest_ok.is_none_or(|ok| id.as_str() > ok))
        .max_by(|a, b| a.0.cmp(&b.0))
}
