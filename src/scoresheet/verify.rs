//! A scoresheet that proves itself: a journal checked record by record
//! (its checksums, its numbers, its chain of SHA-256 digests), what it
//! ends with, and what it says of the game's mode and the questions the
//! players asked.  Sans-IO: bytes in, a [`Check`] out; `hector verify`
//! reads the file and says the check in one sentence.
//!
//! What the chain proves, and what it does not: every record carries the
//! digest of the line before it, so a record changed, removed, moved or
//! put in between breaks the chain where it is, and a torn last record (a
//! crash) is only a record cut off.  Anyone can compute SHA-256, so a
//! whole file made again with a new chain reads as whole: its last digest
//! then differs from the one said at the board and noted on the result
//! slip ([`short_digest`]), which is what ties the file to the game.

use super::record::{Action, Digest, Event, GameMode, ReadWarning, StartInfo, hex, line_digest};
use super::record::{Record, parse_journal};

/// What a check found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum State {
    /// Every record is there, in order, and the chain holds to the end.
    Whole,
    /// Whole up to the last record, which was cut off as it was written
    /// (a crash or a power cut): no change to the record.
    Torn {
        /// The torn line.
        line: usize,
    },
    /// The chain, a checksum or the numbering breaks here: the records
    /// from here on are not part of the proven record.
    Broken(ReadWarning),
    /// A journal of before the chain (format 1): it cannot prove itself.
    NoChain,
    /// Not a journal at all.
    NotJournal,
}

/// A journal checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// Whole, torn, broken, without a chain.
    pub state: State,
    /// The records of the proven part (up to the break).
    pub records: usize,
    /// The digest the proven part ends with (a chained journal's).
    pub digest: Option<Digest>,
    /// The game's start record, if it can be read.
    pub start: Option<StartInfo>,
    /// The questions asked in the proven part (the arbiter's log).
    pub asked: usize,
    /// Of those, the ones the game's mode refused.
    pub refused: usize,
}

impl Check {
    /// The mode the start record gives (none: a journal of before modes).
    pub fn mode(&self) -> Option<GameMode> {
        self.start.as_ref().and_then(StartInfo::mode)
    }

    /// Whether the record proves itself up to its end (a torn last
    /// record included).
    pub fn proven(&self) -> bool {
        matches!(self.state, State::Whole | State::Torn { .. })
    }
}

impl Action {
    /// A question about the game (a sighted player's look at the board,
    /// or help the position computes), as opposed to an act of play or of
    /// hector itself.
    pub fn is_question(&self) -> bool {
        !matches!(
            self.what.as_str(),
            "move"
                | "claim"
                | "offer"
                | "accept"
                | "decline"
                | "resign"
                | "press"
                | "pause"
                | "resume"
                | "start"
                | "stop"
                | "confirm"
                | "arbiter"
        )
    }
}

/// Checks a journal's bytes.
pub fn check(bytes: &[u8]) -> Check {
    if !super::record::is_journal_start(bytes) {
        return Check {
            state: State::NotJournal,
            records: 0,
            digest: None,
            start: None,
            asked: 0,
            refused: 0,
        };
    }
    let parsed = parse_journal(bytes);
    let state = if !parsed.chained {
        State::NoChain
    } else {
        match parsed.warnings.iter().find(|w| w.stops()) {
            None => State::Whole,
            Some(ReadWarning::Torn { line }) => State::Torn { line: *line },
            Some(w) => State::Broken(w.clone()),
        }
    };
    Check {
        state,
        digest: parsed.digest,
        ..of_records(&parsed.records)
    }
}

/// What records already read and proven say (whole, without a digest):
/// their number, the start record, the questions.
pub fn of_records(records: &[Record]) -> Check {
    let (asked, refused) = questions(records);
    Check {
        state: State::Whole,
        records: records.len(),
        digest: None,
        start: start_of(records),
        asked,
        refused,
    }
}

fn start_of(records: &[Record]) -> Option<StartInfo> {
    match &records.first()?.event {
        Event::Start(s) => Some((**s).clone()),
        _ => None,
    }
}

/// Questions asked, and refused, among these records.
fn questions(records: &[Record]) -> (usize, usize) {
    records
        .iter()
        .filter_map(|r| match &r.event {
            Event::Action(a) if a.is_question() => Some(a.allowed),
            _ => None,
        })
        .fold((0, 0), |(asked, refused), allowed| {
            (asked + 1, refused + usize::from(!allowed))
        })
}

/// The records of a chained journal up to the line whose digest is
/// `digest_hex` (what a PGN exported from it names), when the chain holds
/// up to there; `None` when no such line is in its proven part.
pub fn records_up_to(bytes: &[u8], digest_hex: &str) -> Option<Vec<Record>> {
    let mut end = 0;
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        end += line.len();
        if line.ends_with(b"\n") && hex(&line_digest(line)) == digest_hex {
            let parsed = parse_journal(&bytes[..end]);
            let proven = parsed.chained && parsed.first_unusable().is_none();
            return proven.then_some(parsed.records);
        }
    }
    None
}

/// A digest in the short form an arbiter notes on the result slip and
/// hector says: its first 40 bits as twelve decimal digits in three groups
/// of four (`0815 4711 2342`).
pub fn short_digest(d: &Digest) -> String {
    let n = d[..5]
        .iter()
        .fold(0u64, |acc, &b| (acc << 8) | u64::from(b))
        % 1_000_000_000_000;
    let s = format!("{n:012}");
    format!("{} {} {}", &s[0..4], &s[4..8], &s[8..12])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoresheet::record::journal_of;
    use crate::scoresheet::record::{HEADER_1, LineError, Via, format_record};
    use shakmaty::Color;
    use time::macros::datetime;

    fn game() -> Vec<Event> {
        let mut start = StartInfo {
            white: "Anna".into(),
            black: "Bob".into(),
            ..StartInfo::default()
        };
        start.set_mode(GameMode::Rated);
        start.set_device("6b1f0c2e-8d3a-4f5b-9c7d-2e1a0b3c4d5e");
        let mv = |number, by, san: &str, uci: &str| Event::Move {
            number,
            by,
            san: san.into(),
            uci: uci.into(),
        };
        let question = |what: &str, allowed| {
            Event::Action(Action {
                by: Color::White,
                what: what.into(),
                arg: "e4".into(),
                via: Via::Typed,
                allowed,
            })
        };
        vec![
            Event::Start(Box::new(start)),
            mv(1, Color::White, "e4", "e2e4"),
            question("square", true),
            mv(1, Color::Black, "e5", "e7e5"),
            question("attackers", false),
            Event::Action(Action {
                by: Color::White,
                what: "move".into(),
                arg: "Nf3".into(),
                via: Via::Board,
                allowed: true,
            }),
            mv(2, Color::White, "Nf3", "g1f3"),
            Event::Offer { by: Color::White },
        ]
    }

    fn lines(text: &str) -> Vec<String> {
        text.split_inclusive('\n').map(String::from).collect()
    }

    /// A line's checksum made again after it was changed: the forger's
    /// first step.
    fn recrc(line: &str) -> String {
        let body = line.trim_end().rsplit_once(" ~").unwrap().0.to_owned();
        format!("{body} ~{:08x}\n", crc32fast::hash(body.as_bytes()))
    }

    #[test]
    fn a_whole_record_says_its_digest_mode_and_questions() {
        let text = journal_of(&game());
        let c = check(text.as_bytes());
        assert_eq!(c.state, State::Whole);
        assert!(c.proven());
        assert_eq!(c.records, 8);
        assert_eq!(c.mode(), Some(GameMode::Rated));
        assert_eq!((c.asked, c.refused), (2, 1));
        let last = lines(&text).pop().unwrap();
        assert_eq!(c.digest, Some(line_digest(last.as_bytes())));
    }

    #[test]
    fn an_edit_is_found() {
        let mut l = lines(&journal_of(&game()));
        // 1... e5 made 1... c5, its checksum made again.
        l[4] = recrc(&l[4].replace("move 1... e5 e7e5", "move 1... c5 c7c5"));
        let c = check(l.concat().as_bytes());
        assert_eq!(
            c.state,
            State::Broken(ReadWarning::Damaged {
                line: 6,
                why: LineError::Chain
            })
        );
        assert_eq!(c.records, 4, "the records before the break");
        // The edit without a new checksum: found on its own line.
        let mut l = lines(&journal_of(&game()));
        l[4] = l[4].replace("e5 e7e5", "c5 c7c5");
        assert_eq!(
            check(l.concat().as_bytes()).state,
            State::Broken(ReadWarning::Damaged {
                line: 5,
                why: LineError::Checksum
            })
        );
    }

    #[test]
    fn a_deleted_record_is_found() {
        let mut l = lines(&journal_of(&game()));
        // The refused question, record 5 (line 6), taken out.
        l.remove(5);
        let c = check(l.concat().as_bytes());
        assert_eq!(
            c.state,
            State::Broken(ReadWarning::OutOfSequence {
                line: 6,
                expected: 5,
                found: 6
            })
        );
        // Taken out and the rest numbered again: the chain breaks.
        let mut l = lines(&journal_of(&game()));
        l.remove(5);
        for (i, line) in l.iter_mut().enumerate().skip(5) {
            let rest = line.split_once(' ').unwrap().1.to_owned();
            *line = recrc(&format!("{i} {rest}"));
        }
        assert_eq!(
            check(l.concat().as_bytes()).state,
            State::Broken(ReadWarning::Damaged {
                line: 6,
                why: LineError::Chain
            })
        );
    }

    #[test]
    fn a_reordered_pair_is_found() {
        let mut l = lines(&journal_of(&game()));
        l.swap(6, 7);
        let c = check(l.concat().as_bytes());
        assert_eq!(
            c.state,
            State::Broken(ReadWarning::OutOfSequence {
                line: 7,
                expected: 6,
                found: 7
            })
        );
        // Swapped with their numbers swapped too.
        let mut l = lines(&journal_of(&game()));
        l.swap(6, 7);
        for (i, line) in l.iter_mut().enumerate().skip(6).take(2) {
            let rest = line.split_once(' ').unwrap().1.to_owned();
            *line = recrc(&format!("{i} {rest}"));
        }
        assert_eq!(
            check(l.concat().as_bytes()).state,
            State::Broken(ReadWarning::Damaged {
                line: 7,
                why: LineError::Chain
            })
        );
    }

    /// A record put at the end by hand: with a made-up digest the chain
    /// breaks there; with the right one (anyone can compute it) the file
    /// reads as whole, but its digest is no longer the one said at the
    /// board.
    #[test]
    fn an_appended_forgery_is_found() {
        let text = journal_of(&game());
        let honest = check(text.as_bytes());
        let at = datetime!(2026-11-22 19:30 UTC);
        let resign = Event::Resign { by: Color::Black };
        let forged = format!("{text}{}", format_record(9, at, &resign, Some(&[7u8; 32])));
        assert_eq!(
            check(forged.as_bytes()).state,
            State::Broken(ReadWarning::Damaged {
                line: 10,
                why: LineError::Chain
            })
        );
        let last = lines(&text).pop().unwrap();
        let chained = format!(
            "{text}{}",
            format_record(9, at, &resign, Some(&line_digest(last.as_bytes())))
        );
        let c = check(chained.as_bytes());
        assert_eq!(c.state, State::Whole);
        assert_ne!(c.digest, honest.digest);
        assert_ne!(
            short_digest(&c.digest.unwrap()),
            short_digest(&honest.digest.unwrap())
        );
    }

    /// A crash while the last record was written: not foul play.
    #[test]
    fn a_torn_last_record_is_not_foul_play() {
        let text = journal_of(&game());
        let whole = lines(&text);
        let last_start = text.len() - whole[whole.len() - 1].len();
        for cut in last_start + 1..text.len() {
            let c = check(&text.as_bytes()[..cut]);
            assert_eq!(c.state, State::Torn { line: 9 }, "cut at {cut}");
            assert!(c.proven());
            assert_eq!(c.records, 7);
            assert_eq!(
                c.digest,
                Some(line_digest(whole[whole.len() - 2].as_bytes())),
                "the digest of the last whole record"
            );
        }
    }

    #[test]
    fn a_journal_of_before_the_chain_says_so() {
        let mut text = format!("{HEADER_1}\n");
        for (i, e) in game().iter().enumerate() {
            text.push_str(&format_record(
                i as u64 + 1,
                datetime!(2026-11-22 19:23 UTC),
                e,
                None,
            ));
        }
        let c = check(text.as_bytes());
        assert_eq!(c.state, State::NoChain);
        assert_eq!(c.digest, None);
        assert_eq!(c.records, 8);
        assert!(!c.proven());
        assert_eq!(check(b"[Event \"x\"]\n").state, State::NotJournal);
    }

    #[test]
    fn a_pgn_finds_its_records_by_digest() {
        let text = journal_of(&game());
        let l = lines(&text);
        let at_move = hex(&line_digest(l[4].as_bytes()));
        let recs = records_up_to(text.as_bytes(), &at_move).unwrap();
        assert_eq!(recs.len(), 4);
        assert_eq!(records_up_to(text.as_bytes(), &"0".repeat(64)), None);
        // Not when the chain breaks before it.
        let mut bad = l.clone();
        bad[2] = recrc(&bad[2].replace("e4 e2e4", "d4 d2d4"));
        assert_eq!(records_up_to(bad.concat().as_bytes(), &at_move), None);
    }

    #[test]
    fn the_short_digest_is_three_groups_of_four_digits() {
        assert_eq!(short_digest(&[0u8; 32]), "0000 0000 0000");
        let mut d = [0u8; 32];
        d[..5].copy_from_slice(&[0xff; 5]);
        // 2^40 - 1 = 1099511627775, its last twelve digits.
        assert_eq!(short_digest(&d), "0995 1162 7775");
        let s = short_digest(&line_digest(b"x\n"));
        assert_eq!(s.len(), 14);
        assert!(s.chars().all(|c| c.is_ascii_digit() || c == ' '));
    }
}
