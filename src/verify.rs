//! `hector verify FILE`: a journal, or a PGN exported from one, checked
//! and said in one sentence in the player's language: whether the record
//! is whole, the digest it ends with (in the short form an arbiter notes
//! on the result slip), its mode, the questions asked and refused, and
//! where it breaks if it does.  And `hector export --arbiter`'s log: the
//! journal's records, one a line, under that sentence.
//!
//! The checking is `scoresheet::verify`'s (sans-IO); this module reads
//! the files and words the result.

use std::path::{Path, PathBuf};

use crate::export::ExportError;
use crate::phrase::Phraser;
use crate::scoresheet::pgn::HECTOR_DIGEST;
use crate::scoresheet::record::{Record, hex, parse_journal};
use crate::scoresheet::review::PgnFile;
use crate::scoresheet::verify::{self, Check, State, short_digest};
use shakmaty::Position;

use crate::scoresheet::{GameId, Store, replay};

/// What `hector verify` found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    /// The one sentence.
    pub sentence: String,
    /// The record proves itself (whole, or whole but for a torn last
    /// record; a PGN that agrees with such a record).
    pub proven: bool,
}

/// Checks `path`: a journal, or a PGN exported from one (found in `store`
/// by the digest it names).
pub fn verify(path: &Path, store: &Store, phraser: &Phraser) -> Verified {
    let file = path.display().to_string();
    match std::fs::read(path) {
        Ok(bytes) => verify_bytes(&file, &bytes, store, phraser),
        Err(e) => Verified {
            sentence: phraser.message(
                "verify_unreadable",
                &[("file", &file), ("why", &e.to_string())],
            ),
            proven: false,
        },
    }
}

/// [`verify()`] on a file already read, named `file` in the sentence.
pub fn verify_bytes(file: &str, bytes: &[u8], store: &Store, phraser: &Phraser) -> Verified {
    let c = verify::check(bytes);
    if c.state != State::NotJournal {
        return Verified {
            sentence: journal_sentence(file, &c, phraser),
            proven: c.proven(),
        };
    }
    let Ok(pgn) = PgnFile::from_bytes(bytes.to_vec()) else {
        return Verified {
            sentence: phraser.message("verify_not_journal", &[("file", file)]),
            proven: false,
        };
    };
    let first = pgn.entry(1).ok();
    let tag = |name: &str| {
        first
            .as_ref()?
            .hector
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.trim().to_ascii_lowercase())
    };
    let Some(digest) = tag(HECTOR_DIGEST).filter(|d| d.len() == 64) else {
        return Verified {
            sentence: phraser.message("verify_pgn_unsigned", &[("file", file)]),
            proven: false,
        };
    };
    let short = hex_short(&digest);
    let f = ("file", file);
    let d = ("digest", short.as_str());
    for (id, records) in journals_with(store, &digest) {
        let id = id.to_string();
        let Some(differs) = first_difference(&records, &pgn) else {
            continue;
        };
        if let Some(number) = differs {
            return Verified {
                sentence: phraser.message(
                    "verify_pgn_differs",
                    &[f, ("id", &id), d, ("move", &number.to_string())],
                ),
                proven: false,
            };
        }
        let c = verify::of_records(&records);
        return Verified {
            sentence: phraser.message(
                "verify_pgn_agrees",
                &[
                    f,
                    ("id", &id),
                    d,
                    ("records", &c.records.to_string()),
                    ("mode", &phraser.mode_word(c.mode())),
                    ("asked", &c.asked.to_string()),
                    ("refused", &c.refused.to_string()),
                ],
            ),
            proven: true,
        };
    }
    let device = tag(crate::scoresheet::pgn::HECTOR_DEVICE).unwrap_or_else(|| "?".into());
    Verified {
        sentence: phraser.message("verify_pgn_no_journal", &[f, d, ("device", &device)]),
        proven: false,
    }
}

/// The sentence of a journal checked.
fn journal_sentence(file: &str, c: &Check, phraser: &Phraser) -> String {
    let digest = c.digest.as_ref().map_or_else(|| "?".into(), short_digest);
    let records = c.records.to_string();
    let mode = phraser.mode_word(c.mode());
    let asked = c.asked.to_string();
    let refused = c.refused.to_string();
    let mut args = vec![
        ("file", file),
        ("records", records.as_str()),
        ("mode", mode.as_str()),
        ("asked", asked.as_str()),
        ("refused", refused.as_str()),
        ("digest", digest.as_str()),
    ];
    let (key, extra) = match &c.state {
        State::Whole => ("verify_whole", None),
        State::Torn { line } => ("verify_torn", Some(("line", line.to_string()))),
        State::Broken(w) => ("verify_broken", Some(("why", phraser.journal_damage(w)))),
        State::NoChain => ("verify_no_chain", None),
        State::NotJournal => ("verify_not_journal", None),
    };
    if let Some((k, v)) = &extra {
        args.push((k, v.as_str()));
    }
    phraser.message(key, &args)
}

/// The short form of a digest written as 64 hex digits.
fn hex_short(digest: &str) -> String {
    let mut d = [0u8; 32];
    for (i, b) in d.iter_mut().enumerate() {
        *b = digest
            .get(i * 2..i * 2 + 2)
            .and_then(|h| u8::from_str_radix(h, 16).ok())
            .unwrap_or_default();
    }
    short_digest(&d)
}

/// The saved games whose proven record holds a line with this digest,
/// with their records up to it.
fn journals_with(store: &Store, digest: &str) -> Vec<(GameId, Vec<Record>)> {
    let Ok(games) = store.list() else {
        return Vec::new();
    };
    games
        .into_iter()
        .filter_map(|g| {
            let (bytes, _) = store.read_bytes(&g.id).ok()?;
            Some((g.id, verify::records_up_to(&bytes, digest)?))
        })
        .collect()
}

/// Whether a PGN's first game is the game of these records: `None` when
/// they are no game, `Some(None)` when every move agrees, `Some(Some(n))`
/// the move number where they first differ.
fn first_difference(records: &[Record], pgn: &PgnFile) -> Option<Option<u32>> {
    let game = replay(records)?.game;
    let g = pgn.game(1).ok()?;
    if &g.start != game.start() {
        return Some(Some(g.start.fullmoves().get()));
    }
    let journal = game.history();
    let n = journal.len().max(g.plies.len());
    for i in 0..n {
        match (journal.get(i), g.plies.get(i)) {
            (Some(a), Some(b)) if a.mv == b.mv => {}
            (a, b) => {
                return Some(Some(
                    a.map(|m| m.number).or(b.map(|p| p.number)).unwrap_or(1),
                ));
            }
        }
    }
    Some(None)
}

/// `hector export --arbiter`: the action log, beside the export at
/// `beside` (`ID.arbiter.txt` for `ID.pgn`): the verify sentence, the
/// digest in full, then the journal's records, one a line, as the journal
/// holds them (number, time, event), without their chain and checksum.
pub fn write_arbiter_log(
    store: &Store,
    id: &GameId,
    beside: &Path,
    phraser: &Phraser,
    force: bool,
) -> Result<PathBuf, ExportError> {
    let bytes = std::fs::read(store.path_of(id))
        .map_err(|e| ExportError::NoGame(format!("{}: {e}", store.path_of(id).display())))?;
    let log = arbiter_log(&store.path_of(id).display().to_string(), &bytes, phraser);
    let path = arbiter_log_path(beside);
    crate::export::write_bytes(&path, log.as_bytes(), force)?;
    Ok(path)
}

/// Where the arbiter's log of an export goes: `ID.arbiter.txt` beside
/// `ID.pgn`.
pub fn arbiter_log_path(beside: &Path) -> PathBuf {
    let stem = beside
        .file_name()
        .and_then(|n| n.to_str())
        .map(|n| n.split('.').next().unwrap_or(n).to_owned())
        .unwrap_or_else(|| "game".into());
    beside.with_file_name(format!("{stem}.arbiter.txt"))
}

/// The arbiter's log of a journal's bytes.
pub fn arbiter_log(file: &str, bytes: &[u8], phraser: &Phraser) -> String {
    let c = verify::check(bytes);
    let mut out = journal_sentence(file, &c, phraser);
    out.push('\n');
    if let Some(d) = &c.digest {
        out.push_str(&format!("SHA-256 {} ({})\n", hex(d), short_digest(d)));
    }
    out.push('\n');
    let parsed = parse_journal(bytes);
    let fmt = time::macros::format_description!(
        "[year]-[month]-[day] [hour]:[minute]:[second].[subsecond digits:3] UTC"
    );
    for r in &parsed.records {
        let at =
            r.at.to_offset(time::UtcOffset::UTC)
                .format(&fmt)
                .unwrap_or_default();
        out.push_str(&format!("{} {at} {}\n", r.seq, r.event));
    }
    out
}
