//! Any bytes as a journal file, whole and torn at any byte (the first two
//! bytes of the input choose the cut): reading never panics; the records
//! it uses are numbered one after the other; its usable part reads back
//! as the same records with nothing left out; a file torn anywhere gives
//! a prefix of the records of the whole file; replaying, the records
//! after a damage, and the PGN export of what was read never panic.  Each
//! event read, written again (`Display`), reads back (`FromStr`), and once
//! written it is written the same way ever after.
#![no_main]

use hector::testing::{JournalEvent as Event, journal_continuation, parse_journal, replay, to_pgn};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (cut, file) = match data {
        [a, b, rest @ ..] => (usize::from(u16::from_le_bytes([*a, *b])), rest),
        _ => (0, data),
    };
    let whole = parse_journal(file);
    assert!(whole.good_len <= file.len());
    for pair in whole.records.windows(2) {
        assert_eq!(pair[1].seq, pair[0].seq + 1, "in sequence");
    }
    if let Some(first) = whole.records.first() {
        assert_eq!(first.seq, 1);
    }
    for r in whole.records.iter().chain(whole.after.iter().map(|(_, r)| r)) {
        let once: Event = match r.event.to_string().parse() {
            Ok(e) => e,
            Err(e) => panic!("{} written again does not read: {e}", r.event),
        };
        assert_eq!(once.to_string().parse::<Event>().as_ref(), Ok(&once));
    }
    let usable = parse_journal(&file[..whole.good_len]);
    assert_eq!(usable.records, whole.records);
    assert_eq!(usable.first_unusable(), None);
    assert!(usable.after.is_empty());
    // Torn at any byte: what is read is a prefix of the whole file's.
    let torn = parse_journal(&file[..cut.min(file.len())]);
    assert!(torn.records.len() <= whole.records.len());
    assert_eq!(torn.records[..], whole.records[..torn.records.len()]);
    if let Some(r) = replay(&whole.records) {
        let _ = to_pgn(&r.record);
    }
    if let Some(c) = journal_continuation(&whole) {
        assert!(!whole.after.is_empty());
        let _ = to_pgn(&c.resumed.record);
    }
});
