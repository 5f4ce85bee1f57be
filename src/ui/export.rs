//! Writing a scoresheet export to a file, in the player's words: used by
//! `hector export` and by `save` during a game.  Never overwrites a file
//! unless told to (`--force`).

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use shakmaty::Color;

use crate::game::{EndReason, PlayedMove};
use crate::phrase::Phraser;
use crate::scoresheet::text::Labels;
use crate::scoresheet::{
    ExportFormat, GameId, GameRecord, Store, braille, pgn, replay, speech, text,
};

/// Why an export was not written.
#[derive(Debug, PartialEq, Eq)]
pub enum ExportError {
    /// The file exists (and `--force` was not given).
    Exists(PathBuf),
    /// The file is a game's journal (or a damaged journal's copy): never
    /// written over, whatever `--force` says.
    IsJournal(PathBuf),
    /// The saved game cannot be read.
    NoGame(String),
    /// The folder may not be written (permissions, a read-only disk).
    NotWritable(PathBuf),
    /// The disk is full.
    DiskFull(PathBuf),
    /// Writing failed.
    Io(String),
}

impl ExportError {
    /// A failed write of `path`, by what the system said.
    fn writing(path: &Path, e: &std::io::Error) -> ExportError {
        use std::io::ErrorKind as K;
        match e.kind() {
            K::AlreadyExists => ExportError::Exists(path.to_path_buf()),
            K::PermissionDenied | K::ReadOnlyFilesystem => {
                ExportError::NotWritable(path.parent().unwrap_or(path).to_path_buf())
            }
            K::StorageFull | K::QuotaExceeded => ExportError::DiskFull(path.to_path_buf()),
            _ => ExportError::Io(format!("{}: {e}", path.display())),
        }
    }
}

impl std::fmt::Display for ExportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExportError::Exists(p) => {
                write!(f, "{} exists already (--force overwrites it)", p.display())
            }
            ExportError::IsJournal(p) => {
                write!(
                    f,
                    "{} is a game's journal and is never written over",
                    p.display()
                )
            }
            ExportError::NoGame(e) => write!(f, "{e}"),
            ExportError::NotWritable(p) => {
                write!(f, "{}: the folder cannot be written", p.display())
            }
            ExportError::DiskFull(p) => write!(f, "{}: the disk is full", p.display()),
            ExportError::Io(e) => write!(f, "{e}"),
        }
    }
}

/// A saved game's scoresheet.
pub fn record_of(store: &Store, id: &GameId) -> Result<GameRecord, ExportError> {
    let parsed = store
        .read(id)
        .map_err(|e| ExportError::NoGame(format!("{}: {e}", store.path_of(id).display())))?;
    let r = replay(&parsed.records)
        .ok_or_else(|| ExportError::NoGame(format!("{}: no start record", id)))?;
    Ok(r.record)
}

fn end_reason(word: &str) -> Option<EndReason> {
    Some(match word {
        "checkmate" => EndReason::Checkmate,
        "stalemate" => EndReason::Stalemate,
        "dead-position" => EndReason::DeadPosition,
        "fivefold-repetition" => EndReason::FivefoldRepetition,
        "seventy-five-moves" => EndReason::SeventyFiveMoves,
        "threefold-repetition" => EndReason::ThreefoldRepetition,
        "fifty-moves" => EndReason::FiftyMoves,
        "agreement" => EndReason::Agreement,
        "resignation" => EndReason::Resignation,
        _ => return None,
    })
}

/// The sentence of a record's result, if the game is over.
pub fn result_sentence(rec: &GameRecord, phraser: &Phraser) -> Option<String> {
    let (outcome, reason) = rec.result.as_ref()?;
    Some(match end_reason(reason) {
        Some(r) => phraser.game_over(r, outcome.winner()),
        None => phraser.message("over_unknown", &[]),
    })
}

/// A move as announced, with its number.
fn announce(phraser: &Phraser, before: &shakmaty::Chess, m: &PlayedMove) -> String {
    let words = phraser.say_move(before, m.mv);
    let key = match m.by {
        Color::White => "move_number_white",
        Color::Black => "move_number_black",
    };
    phraser.message(key, &[("number", &m.number.to_string()), ("move", &words)])
}

/// The export as bytes (all but speech).
pub fn render(format: ExportFormat, rec: &GameRecord, phraser: &Phraser) -> Vec<u8> {
    match format {
        ExportFormat::Pgn => pgn::to_pgn(rec).into_bytes(),
        ExportFormat::Brf => braille::to_brf(rec).into_bytes(),
        ExportFormat::Braille => braille::to_unicode(rec).into_bytes(),
        ExportFormat::Text | ExportFormat::Speech => {
            let labels = Labels {
                white: phraser.side(Color::White),
                black: phraser.side(Color::Black),
                date: phraser.message("label_date", &[]),
                event: phraser.message("label_event", &[]),
                time_control: phraser.message("label_time_control", &[]),
                result: phraser.message("label_result", &[]),
            };
            let say = |before: &shakmaty::Chess, m: &PlayedMove| phraser.say_move(before, m.mv);
            let result = result_sentence(rec, phraser);
            text::to_text(rec, &labels, &say, result.as_deref()).into_bytes()
        }
    }
}

/// Writes the export to `path` (not over an existing file unless `force`).
pub fn write(
    format: ExportFormat,
    rec: &GameRecord,
    phraser: &Phraser,
    path: &Path,
    force: bool,
) -> Result<(), ExportError> {
    if is_journal(path) {
        return Err(ExportError::IsJournal(path.to_path_buf()));
    }
    if !force && path.exists() {
        return Err(ExportError::Exists(path.to_path_buf()));
    }
    if format == ExportFormat::Speech {
        let lines = speech::script(
            rec,
            &|b, m| announce(phraser, b, m),
            result_sentence(rec, phraser),
        );
        // Written beside, then moved: a failed run leaves no half file.
        let tmp = path.with_extension("wav.part");
        speech::write_wav(&lines, phraser.move_lang(), &tmp)
            .map_err(|e| ExportError::Io(e.to_string()))?;
        if !force && path.exists() {
            let _ = fs::remove_file(&tmp);
            return Err(ExportError::Exists(path.to_path_buf()));
        }
        return fs::rename(&tmp, path).map_err(|e| ExportError::Io(e.to_string()));
    }
    let bytes = render(format, rec, phraser);
    let mut f = if force {
        OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)
    } else {
        OpenOptions::new().write(true).create_new(true).open(path)
    }
    .map_err(|e| ExportError::writing(path, &e))?;
    f.write_all(&bytes)
        .and_then(|_| f.sync_all())
        .map_err(|e| ExportError::writing(path, &e))
}

/// Whether `path` is a game's journal, or a damaged journal's copy: a
/// file that begins with the journal's first line, or a file in the games
/// folder (followed through links) named as a journal (`ID.txt`) or a copy
/// (`ID.txt.damaged…`).
pub fn is_journal(path: &Path) -> bool {
    use std::io::Read;
    let mut head = vec![0u8; crate::scoresheet::record::HEADER.len()];
    let begins_as_journal = fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|()| head == crate::scoresheet::record::HEADER.as_bytes());
    let in_store = || {
        let dir = Store::default_dir().and_then(|d| fs::canonicalize(d).ok());
        let parent = fs::canonicalize(path)
            .ok()
            .and_then(|p| p.parent().map(Path::to_path_buf));
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let journal_name = name.split_once(".txt").is_some_and(|(id, rest)| {
            GameId::parse(id).is_some() && (rest.is_empty() || rest.starts_with(".damaged"))
        });
        journal_name && matches!((dir, parent), (Some(d), Some(p)) if d == p)
    };
    begins_as_journal || in_store()
}

/// A file name in `dir` for a game's export that does not exist yet:
/// `ID.pgn`, `ID-2.pgn` …
pub fn free_path(dir: &Path, id: &GameId, format: ExportFormat) -> PathBuf {
    let mut n = 1;
    loop {
        let name = if n == 1 {
            format!("{}.{}", id, format.extension())
        } else {
            format!("{}-{n}.{}", id, format.extension())
        };
        let p = dir.join(name);
        if !p.exists() {
            return p;
        }
        n += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Error, ErrorKind};

    #[test]
    fn a_failed_write_is_told_by_what_the_system_said() {
        let path = Path::new("/games/x.pgn");
        let e = |k| ExportError::writing(path, &Error::from(k));
        assert_eq!(
            e(ErrorKind::PermissionDenied),
            ExportError::NotWritable("/games".into())
        );
        assert_eq!(
            e(ErrorKind::ReadOnlyFilesystem),
            ExportError::NotWritable("/games".into())
        );
        assert_eq!(
            e(ErrorKind::StorageFull),
            ExportError::DiskFull(path.into())
        );
        assert_eq!(
            e(ErrorKind::AlreadyExists),
            ExportError::Exists(path.into())
        );
        assert!(matches!(e(ErrorKind::Other), ExportError::Io(_)));
    }
}
