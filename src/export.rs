//! Writing a scoresheet export to a file, in the player's words: used by
//! `hector export` and by `save` during a game.  Never overwrites a file
//! unless told to (`--force`).

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use shakmaty::Color;

use crate::game::{Claim, PlayedMove};
use crate::phrase::Phraser;
use crate::scoresheet::replay::Note;
use crate::scoresheet::text::Labels;
use crate::scoresheet::{
    ExportFormat, GameId, GameRecord, Store, braille, pgn, record, replay, speech, text,
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
    let mut rec = r.record;
    rec.digest = parsed.digest;
    Ok(rec)
}

/// The sentence of a record's result as said, if the game is over
/// ("White's flag has fallen. Black wins, zero to one.").
pub fn result_sentence(rec: &GameRecord, phraser: &Phraser) -> Option<String> {
    let (outcome, reason) = rec.result.as_ref()?;
    Some(match replay::parse_reason(reason) {
        Some(r) => phraser.game_over(r, outcome.winner()),
        None => phraser.message("over_unknown", &[]),
    })
}

/// A PGN `TimeControl` tag in words, for print that is read by people
/// ("5400+30": "one hour thirty minutes, plus thirty seconds a move";
/// "40/7200:3600": "forty moves in two hours, then one hour"); `None` for
/// "-", "?" or a tag this does not read.
pub fn time_control_words(tag: &str, phraser: &Phraser) -> Option<String> {
    use std::time::Duration;
    let time = |s: &str| -> Option<String> {
        let secs = s.parse::<u64>().ok()?;
        Some(crate::clock::words::time(
            phraser,
            Duration::from_secs(secs),
        ))
    };
    let field = |f: &str| -> Option<String> {
        if let Some(each) = f.strip_prefix('*') {
            return Some(phraser.message("tc_hourglass", &[("time", &time(each)?)]));
        }
        let (moves, rest) = match f.split_once('/') {
            Some((m, r)) => (Some(m.parse::<u32>().ok()?), r),
            None => (None, f),
        };
        let cut = rest.find(['+', 'd', 'b']);
        let (base, bonus) = match cut {
            Some(i) => (&rest[..i], Some((&rest[i..i + 1], &rest[i + 1..]))),
            None => (rest, None),
        };
        let mut period = time(base)?;
        if let Some(n) = moves {
            period = phraser.message("tc_moves", &[("count", &n.to_string()), ("time", &period)]);
        }
        Some(match bonus {
            None => period,
            Some((kind, amount)) => {
                let key = match kind {
                    "+" => "tc_increment",
                    "d" => "tc_delay",
                    _ => "tc_bronstein",
                };
                phraser.message(key, &[("period", &period), ("bonus", &time(amount)?)])
            }
        })
    };
    let mut parts = tag.trim().split(':').map(field);
    let mut said = parts.next()??;
    for p in parts {
        said = phraser.message("tc_then", &[("first", &said), ("rest", &p?)]);
    }
    Some(said)
}

/// How a record's game ended, without the result ("Black won on time,
/// White's flag fell"), when the reason is known.
fn how_it_ended(rec: &GameRecord, phraser: &Phraser) -> Option<String> {
    let (outcome, reason) = rec.result.as_ref()?;
    let reason = replay::parse_reason(reason)?;
    Some(phraser.how_it_ended(reason, outcome.winner()))
}

/// A claim, a penalty or an arbiter's action on the scoresheet, as a
/// sentence in the player's language; a result in it in symbols when
/// `printed` (the large-print and braille exports), else in words (the
/// spoken scoresheet).
pub fn note_sentence(note: &Note, phraser: &Phraser, printed: bool) -> String {
    let side = |c: Color| phraser.side(c);
    let time = |ms: i64| {
        crate::clock::words::time(phraser, std::time::Duration::from_millis(ms.unsigned_abs()))
    };
    match note {
        Note::Claim { by, claim, upheld } => {
            let key = match (claim, upheld) {
                (Claim::Repetition, true) => "note_claim_repetition_upheld",
                (Claim::Repetition, false) => "note_claim_repetition_refused",
                (Claim::FiftyMoves, true) => "note_claim_fifty_upheld",
                (Claim::FiftyMoves, false) => "note_claim_fifty_refused",
            };
            phraser.message(key, &[("side", &side(*by))])
        }
        Note::Penalty(p) => {
            let against = side(p.against);
            let mut t = match p.reason.as_str() {
                "illegal-move" => phraser.message("note_penalty_illegal", &[("side", &against)]),
                "incorrect-claim" => phraser.message("note_penalty_claim", &[("side", &against)]),
                other => phraser.message(
                    "note_penalty_other",
                    &[("side", &against), ("reason", &other.replace('-', " "))],
                ),
            };
            for (c, d) in [
                (Color::White, p.white_delta_ms),
                (Color::Black, p.black_delta_ms),
            ] {
                let key = match d.signum() {
                    1 => "penalty_time",
                    -1 => "note_time_loses",
                    _ => continue,
                };
                t.push(' ');
                t.push_str(&phraser.message(key, &[("side", &side(c)), ("time", &time(d))]));
            }
            t
        }
        Note::Arbiter { action, note } => {
            let mut words = note.split_whitespace();
            let first = words.next().unwrap_or("");
            let colour = match first {
                "white" => Some(Color::White),
                "black" => Some(Color::Black),
                _ => None,
            };
            let amount = words.next().and_then(record::parse_ms);
            let what = match (action.as_str(), colour, amount) {
                ("stop", ..) => phraser.message("arbiter_stop", &[]),
                ("start", ..) => phraser.message("arbiter_start", &[]),
                ("add-time", Some(c), Some(ms)) => {
                    phraser.message("arbiter_add", &[("side", &side(c)), ("time", &time(ms))])
                }
                ("remove-time", Some(c), Some(ms)) => {
                    phraser.message("arbiter_remove", &[("side", &side(c)), ("time", &time(ms))])
                }
                ("moves", ..) => phraser.message("arbiter_moves", &[("count", first)]),
                ("illegal-move", Some(c), _) => {
                    phraser.message("arbiter_illegal", &[("side", &side(c))])
                }
                ("result", ..) => {
                    let winner = match first {
                        "1-0" => Some(Color::White),
                        "0-1" => Some(Color::Black),
                        _ => None,
                    };
                    let result = if printed {
                        phraser.result_printed(winner)
                    } else {
                        phraser.result_said(winner)
                    };
                    phraser.message("arbiter_result", &[("result", &result)])
                }
                // A word this version does not know: as recorded.
                _ => format!("{} {note}", action.replace('-', " "))
                    .trim()
                    .to_owned(),
            };
            phraser.message("note_arbiter", &[("what", &what)])
        }
        Note::TakenBack {
            by,
            number,
            san,
            uci,
            fen,
            at,
        } => {
            // In words, as the moves are said and printed large (SAN if
            // the position cannot be read back).
            let words = taken_back_words(phraser, fen, uci).unwrap_or_else(|| san.clone());
            let key = match by {
                Color::White => "move_number_white",
                Color::Black => "move_number_black",
            };
            let numbered =
                phraser.message(key, &[("number", &number.to_string()), ("move", &words)]);
            match at {
                Some((h, m)) => phraser.message(
                    "note_taken_back_at",
                    &[("move", &numbered), ("time", &format!("{h:02}:{m:02}"))],
                ),
                None => phraser.message("note_taken_back", &[("move", &numbered)]),
            }
        }
        Note::TakebackNotMade {
            by,
            lapsed,
            mover,
            number,
            san,
            uci,
            fen,
            at,
        } => {
            let words = fen
                .as_deref()
                .and_then(|fen| taken_back_words(phraser, fen, uci))
                .unwrap_or_else(|| san.clone());
            let key = match mover {
                Color::White => "move_number_white",
                Color::Black => "move_number_black",
            };
            let numbered =
                phraser.message(key, &[("number", &number.to_string()), ("move", &words)]);
            let key = match (lapsed, at.is_some()) {
                (false, false) => "note_takeback_refused",
                (false, true) => "note_takeback_refused_at",
                (true, false) => "note_takeback_lapsed",
                (true, true) => "note_takeback_lapsed_at",
            };
            let time = at.map_or(String::new(), |(h, m)| format!("{h:02}:{m:02}"));
            phraser.message(
                key,
                &[
                    ("side", &phraser.side(*by)),
                    ("move", &numbered),
                    ("time", &time),
                ],
            )
        }
        Note::Text(t) => t.clone(),
    }
}

/// A taken-back move in words, from the position before it.
fn taken_back_words(phraser: &Phraser, fen: &str, uci: &str) -> Option<String> {
    let fen: shakmaty::fen::Fen = fen.parse().ok()?;
    let uci: shakmaty::uci::UciMove = uci.parse().ok()?;
    [
        shakmaty::CastlingMode::Standard,
        shakmaty::CastlingMode::Chess960,
    ]
    .into_iter()
    .find_map(|mode| {
        let pos: shakmaty::Chess = fen.clone().into_position(mode).ok()?;
        let mv = uci.to_move(&pos).ok()?;
        Some(phraser.say_move(&pos, mv))
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

/// The spoken scoresheet's sentences, each cut by language as live
/// speech cuts it: the moves, the draw offers, the claims, penalties and
/// arbiter's actions, the result.
pub fn spoken(rec: &GameRecord, phraser: &Phraser) -> Vec<speech::Stretches> {
    let offer = |c: Color| phraser.message("draw_offered", &[("side", &phraser.side(c))]);
    let note = |n: &Note| note_sentence(n, phraser, false);
    speech::script(
        rec,
        &|b, m| announce(phraser, b, m),
        &offer,
        &note,
        result_sentence(rec, phraser),
    )
    .iter()
    .map(|sentence| {
        phraser
            .by_language(sentence)
            .into_iter()
            .map(|(text, lang)| (text.to_owned(), lang.to_owned()))
            .collect()
    })
    .collect()
}

/// The export as bytes (all but speech).
pub fn render(format: ExportFormat, rec: &GameRecord, phraser: &Phraser) -> Vec<u8> {
    match format {
        ExportFormat::Pgn => pgn::to_pgn(rec).into_bytes(),
        ExportFormat::Brf | ExportFormat::Braille => {
            let notes = |n: &Note| note_sentence(n, phraser, true);
            let words = braille::BrailleWords {
                white: phraser.side(Color::White),
                black: phraser.side(Color::Black),
                notes: &notes,
            };
            if format == ExportFormat::Brf {
                braille::to_brf(rec, &words).into_bytes()
            } else {
                braille::to_unicode(rec, &words).into_bytes()
            }
        }
        ExportFormat::Text | ExportFormat::Speech => {
            let labels = Labels {
                white: phraser.side(Color::White),
                black: phraser.side(Color::Black),
                date: phraser.message("label_date", &[]),
                event: phraser.message("label_event", &[]),
                time_control: phraser.message("label_time_control", &[]),
                result: phraser.message("label_result", &[]),
                site: phraser.message("label_site", &[]),
                time_control_words: rec
                    .start
                    .time_control
                    .as_deref()
                    .and_then(|tc| time_control_words(tc, phraser)),
            };
            let say = |before: &shakmaty::Chess, m: &PlayedMove| phraser.say_move(before, m.mv);
            let notes = |n: &Note| note_sentence(n, phraser, true);
            let how = how_it_ended(rec, phraser);
            text::to_text(rec, &labels, &say, &notes, how.as_deref()).into_bytes()
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
        let lines = spoken(rec, phraser);
        // Written beside, then moved: a failed run leaves no half file.
        let tmp = path.with_extension("wav.part");
        speech::write_wav(&lines, phraser.msg_lang(), &tmp)
            .map_err(|e| ExportError::Io(e.to_string()))?;
        if !force && path.exists() {
            let _ = fs::remove_file(&tmp);
            return Err(ExportError::Exists(path.to_path_buf()));
        }
        return fs::rename(&tmp, path).map_err(|e| ExportError::Io(e.to_string()));
    }
    write_bytes(path, &render(format, rec, phraser), force)
}

/// Writes `bytes` to `path` (not over an existing file unless `force`;
/// never over a journal), flushed.
pub fn write_bytes(path: &Path, bytes: &[u8], force: bool) -> Result<(), ExportError> {
    if is_journal(path) {
        return Err(ExportError::IsJournal(path.to_path_buf()));
    }
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
    f.write_all(bytes)
        .and_then(|_| f.sync_all())
        .map_err(|e| ExportError::writing(path, &e))
}

/// Whether `path` is a game's journal, or a damaged journal's copy: a
/// file that begins with the journal's first line, or a file in the games
/// folder (followed through links) named as a journal (`ID.txt`) or a copy
/// (`ID.txt.damaged…`).
pub fn is_journal(path: &Path) -> bool {
    use std::io::Read;
    let mut head = Vec::new();
    let begins_as_journal = fs::File::open(path)
        .and_then(|f| {
            f.take(crate::scoresheet::record::HEADER.len() as u64)
                .read_to_end(&mut head)
        })
        .is_ok_and(|_| crate::scoresheet::record::is_journal_start(&head));
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

/// Writes the export to standard output (`-o -`): the bytes only, for a
/// pipe (`hector export 3 --format text -o - | less`).
pub fn write_to_stdout(
    format: ExportFormat,
    rec: &GameRecord,
    phraser: &Phraser,
) -> Result<(), ExportError> {
    let bytes = if format == ExportFormat::Speech {
        // The voice writes a file: one of its own, read back and removed.
        let tmp = std::env::temp_dir().join(format!("hector-export-{}.wav", std::process::id()));
        let lines = spoken(rec, phraser);
        let written = speech::write_wav(&lines, phraser.msg_lang(), &tmp)
            .map_err(|e| ExportError::Io(e.to_string()))
            .and_then(|()| fs::read(&tmp).map_err(|e| ExportError::Io(e.to_string())));
        let _ = fs::remove_file(&tmp);
        written?
    } else {
        render(format, rec, phraser)
    };
    let mut out = std::io::stdout().lock();
    out.write_all(&bytes)
        .and_then(|()| out.flush())
        .map_err(|e| ExportError::Io(format!("standard output: {e}")))
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
    use crate::game::Game;
    use crate::phrase::{MoveOptions, MoveStyle};
    use crate::scoresheet::record::{Penalty, StartInfo};
    use crate::words::Lang;
    use shakmaty::san::San;
    use std::io::{Error, ErrorKind};

    fn phraser(lang: Lang) -> Phraser {
        Phraser::builtin(MoveStyle::AppendixD, lang, MoveOptions::default())
    }

    /// e4, e5 with Black's draw offer, then `end` on the game.
    fn record(end: impl FnOnce(&mut Game)) -> GameRecord {
        let mut g = Game::new();
        for s in ["e4", "e5"] {
            let m = s.parse::<San>().unwrap().to_move(g.position()).unwrap();
            g.play(m).unwrap();
        }
        g.offer_draw(Color::Black).unwrap();
        end(&mut g);
        GameRecord::of_game(StartInfo::default(), g)
    }

    /// Issue 30, item 17: the large-print export said "Time control:
    /// 5400+30"; it is in words, in the player's language.
    #[test]
    fn the_large_print_time_control_is_in_words() {
        let mut rec = record(|_| {});
        rec.start.time_control = Some("5400+30".into());
        let text = String::from_utf8(render(ExportFormat::Text, &rec, &phraser(Lang::En))).unwrap();
        assert!(
            text.contains("Time control: one hour thirty minutes, plus thirty seconds a move\n"),
            "{text}"
        );
        assert!(!text.contains("5400"), "{text}");
        let de = phraser(Lang::De);
        assert_eq!(
            time_control_words("40/7200:1800+30", &de).as_deref(),
            Some(
                "vierzig Züge in zwei Stunden, danach dreißig Minuten, dazu dreißig Sekunden je Zug"
            )
        );
        assert_eq!(
            time_control_words("*60", &phraser(Lang::It)).as_deref(),
            Some("clessidra, un minuto")
        );
        assert_eq!(time_control_words("-", &de), None);
        assert_eq!(
            time_control_words("300d2", &de).as_deref(),
            Some("fünf Minuten, mit zwei Sekunden Verzögerung je Zug")
        );
    }

    /// A resignation drawn by the 2023 Laws (the opponent cannot mate) is
    /// said as such in every language and in each export: PGN, text,
    /// braille, speech.
    #[test]
    fn a_drawn_resignation_is_said_as_such_in_every_export() {
        let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
        let mut g = Game::from_fen(fen).unwrap();
        g.resign_under(Color::White, crate::game::rules::Edition::Fide2023)
            .unwrap();
        let rec = GameRecord::of_game(StartInfo::default(), g);
        let pgn = String::from_utf8(render(ExportFormat::Pgn, &rec, &phraser(Lang::En))).unwrap();
        assert!(pgn.contains("[Result \"1/2-1/2\"]"), "{pgn}");
        assert!(pgn.contains("[Termination \"normal\"]"), "{pgn}");
        assert!(pgn.trim_end().ends_with("1/2-1/2"), "{pgn}");
        // Braille: the result 1/2-1/2 (as a draw by agreement has it).
        let cells =
            String::from_utf8(render(ExportFormat::Braille, &rec, &phraser(Lang::En))).unwrap();
        assert!(cells.contains("⠂⠌⠆⠤⠂⠌⠆"), "{cells}");
        for (lang, said) in [
            (
                Lang::En,
                "a player resigned but the other side could not checkmate",
            ),
            (
                Lang::De,
                "eine Seite hat aufgegeben, aber die andere Seite konnte nicht mattsetzen",
            ),
            (
                Lang::It,
                "un giocatore ha abbandonato ma l'altra parte non poteva dare scacco matto",
            ),
            (
                Lang::El,
                "μια πλευρά εγκατέλειψε αλλά η άλλη πλευρά δεν μπορούσε να κάνει ματ",
            ),
        ] {
            let p = phraser(lang);
            let text = String::from_utf8(render(ExportFormat::Text, &rec, &p)).unwrap();
            assert!(text.contains(said), "{lang:?}: {text}");
            let over = result_sentence(&rec, &p).unwrap();
            // Said in words (issue 30, item 8), never "1/2-1/2".
            assert!(over.contains(&p.result_said(None)), "{lang:?}: {over}");
            assert!(!over.contains("1/2"), "{lang:?}: {over}");
            assert_eq!(over, p.game_over(crate::game::EndReason::Resignation, None));
            let spoken: String = spoken(&rec, &p)
                .into_iter()
                .flatten()
                .map(|(t, _)| t)
                .collect::<Vec<_>>()
                .join(" ");
            assert!(spoken.contains(&over), "{lang:?}: {spoken}");
        }
        assert_eq!(
            phraser(Lang::En).game_over(crate::game::EndReason::Resignation, None),
            "A player resigns, but the other side cannot checkmate. Draw, half a point each."
        );
    }

    /// Issue 18, item 12: the whole recording was read in the German
    /// voice, and the draw offer was left out.
    #[test]
    fn the_spoken_scoresheet_speaks_each_stretch_in_its_language() {
        let rec = record(|g| {
            g.resign(Color::White).unwrap();
        });
        let en = spoken(&rec, &phraser(Lang::En));
        let pair = |t: &str, l: &str| (t.to_owned(), l.to_owned());
        assert_eq!(
            en,
            [
                vec![pair("1. ", "en"), pair("Bauer Eva vier", "de")],
                vec![pair("1... ", "en"), pair("Bauer Eva fünf", "de")],
                vec![pair("Black offers a draw.", "en")],
                vec![pair("White resigns. Black wins, zero to one.", "en")],
            ]
        );
        let it = spoken(&rec, &phraser(Lang::It));
        assert!(it[2].iter().all(|(_, l)| l == "it"), "{it:?}");
    }

    /// Issue 18, item 11: a flag fall said "(The game is over.)", a
    /// repetition said its result twice; penalties were missing.
    #[test]
    fn the_text_says_how_the_game_ended_and_its_penalties() {
        let p = phraser(Lang::En);
        let mut rec = record(|_| {});
        rec.result = Some((
            shakmaty::KnownOutcome::Decisive {
                winner: Color::Black,
            },
            "time-forfeit".into(),
        ));
        rec.notes[1].push(Note::Penalty(Penalty {
            against: Color::Black,
            reason: "incorrect-claim".into(),
            white_delta_ms: 120_000,
            black_delta_ms: 0,
            note: "9.5.3".into(),
        }));
        let text = String::from_utf8(render(ExportFormat::Text, &rec, &p)).unwrap();
        assert!(
            text.ends_with("Result: 0-1 (Black won on time, White's flag fell)\n"),
            "{text}"
        );
        assert!(
            text.contains("\n   Penalty: an incorrect claim by Black. White gets two minutes.\n"),
            "{text}"
        );
        rec.result = Some((shakmaty::KnownOutcome::Draw, "threefold-repetition".into()));
        let text = String::from_utf8(render(ExportFormat::Text, &rec, &p)).unwrap();
        assert!(
            text.ends_with("Result: 1/2-1/2 (drawn by threefold repetition)\n"),
            "{text}"
        );
    }

    /// Issue 30, item 1: a move taken back is on the scoresheet, with the
    /// time of day it was taken back: in the text and braille exports,
    /// spoken, and as a PGN comment.
    #[test]
    fn a_taken_back_move_is_on_every_scoresheet_with_its_time() {
        use crate::scoresheet::record::{Event, Record};
        let mv = |number, by, san: &str, uci: &str| Event::Move {
            number,
            by,
            san: san.into(),
            uci: uci.into(),
        };
        let at = time::macros::datetime!(2026-11-22 19:04 UTC);
        let records: Vec<Record> = [
            Event::Start(Box::default()),
            mv(1, Color::White, "e4", "e2e4"),
            mv(1, Color::Black, "e5", "e7e5"),
            mv(2, Color::White, "Nf3", "g1f3"),
            Event::TakeBack,
            mv(2, Color::White, "Nc3", "b1c3"),
        ]
        .into_iter()
        .enumerate()
        .map(|(i, event)| Record {
            seq: i as u64 + 1,
            at,
            event,
        })
        .collect();
        let rec = crate::scoresheet::replay::replay(&records).unwrap().record;
        let pgn = String::from_utf8(render(ExportFormat::Pgn, &rec, &phraser(Lang::En))).unwrap();
        assert!(
            pgn.contains("1. e4 e5 {Taken back at 19:04: 2. Nf3} 2. Nc3"),
            "{pgn}"
        );
        let text = String::from_utf8(render(ExportFormat::Text, &rec, &phraser(Lang::En))).unwrap();
        assert!(
            text.contains("Move taken back at 19:04: 2. Springer Felix drei."),
            "{text}"
        );
        let said: Vec<String> = spoken(&rec, &phraser(Lang::En))
            .into_iter()
            .map(|s| s.into_iter().map(|(t, _)| t).collect())
            .collect();
        assert!(
            said.iter().any(|s| s.contains("Move taken back at 19:04")),
            "{said:?}"
        );
        let brf = String::from_utf8(render(ExportFormat::Brf, &rec, &phraser(Lang::En))).unwrap();
        assert!(brf.contains(&braille::text_cells("taken")), "{brf}");
        for (lang, words) in [
            (Lang::De, "Zug um 19:04 Uhr zurückgenommen: 2. Springer"),
            (Lang::It, "Mossa ripresa alle 19:04: 2."),
            (Lang::El, "Η κίνηση πάρθηκε πίσω στις 19:04: 2."),
        ] {
            let text = String::from_utf8(render(ExportFormat::Text, &rec, &phraser(lang))).unwrap();
            assert!(text.contains(words), "{lang:?}: {text}");
        }
    }

    /// Issue 30: a take-back asked and refused, or lapsed, with the time
    /// of its record, on the text export in every language and the PGN.
    #[test]
    fn a_takeback_not_made_is_a_note_with_its_time() {
        use crate::scoresheet::record::{Event, Record, TakebackAnswer};
        let mv = |number, by, san: &str, uci: &str| Event::Move {
            number,
            by,
            san: san.into(),
            uci: uci.into(),
        };
        let ask = |answer| Event::TakebackRequest {
            by: Color::White,
            answer,
            number: 2,
            mover: Color::White,
            san: "Nf3".into(),
            uci: "g1f3".into(),
        };
        let at = time::macros::datetime!(2026-11-22 19:04 UTC);
        let records: Vec<Record> = [
            Event::Start(Box::default()),
            mv(1, Color::White, "e4", "e2e4"),
            mv(1, Color::Black, "e5", "e7e5"),
            mv(2, Color::White, "Nf3", "g1f3"),
            ask(TakebackAnswer::Asked),
            ask(TakebackAnswer::Refused),
            ask(TakebackAnswer::Asked),
            mv(2, Color::Black, "Nc6", "b8c6"),
            ask(TakebackAnswer::Lapsed),
        ]
        .into_iter()
        .enumerate()
        .map(|(i, event)| Record {
            seq: i as u64 + 1,
            at,
            event,
        })
        .collect();
        let rec = crate::scoresheet::replay::replay(&records).unwrap().record;
        let pgn = String::from_utf8(render(ExportFormat::Pgn, &rec, &phraser(Lang::En))).unwrap();
        let flat = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains("2. Nf3 {Take-back of 2. Nf3 asked by White, refused at 19:04} 2... Nc6 {Take-back of 2. Nf3 asked by White, lapsed at 19:04}"),
            "{pgn}"
        );
        for (lang, refused, lapsed) in [
            (
                Lang::En,
                "White asked to take back 2. Springer Felix drei; the opponent refused at 19:04.",
                "at 19:04 the game went on without it.",
            ),
            (
                Lang::De,
                "Weiß bat um Rücknahme von 2. Springer Felix drei; der Gegner lehnte um 19:04 Uhr ab.",
                "um 19:04 Uhr ging die Partie ohne sie weiter.",
            ),
            (
                Lang::It,
                "l'avversario ha rifiutato alle 19:04.",
                "alle 19:04 la partita è andata avanti senza ripresa.",
            ),
            (
                Lang::El,
                "ο αντίπαλος αρνήθηκε στις 19:04.",
                "στις 19:04 η παρτίδα συνεχίστηκε χωρίς αυτό.",
            ),
        ] {
            let text = String::from_utf8(render(ExportFormat::Text, &rec, &phraser(lang))).unwrap();
            assert!(text.contains(refused), "{lang:?}: {text}");
            assert!(text.contains(lapsed), "{lang:?}: {text}");
        }
    }

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
