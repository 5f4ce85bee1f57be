//! The journal's line format, tested: every kind of record read back as
//! written (and, by property tests, any value of each), every way a line or
//! an event fails named, the chain, torn and damaged journals.

use super::*;
use time::macros::datetime;

pub(crate) fn all_kinds() -> Vec<Event> {
    vec![
        Event::Start(Box::new(StartInfo {
            white: "Anna \"the rock\" Müller".into(),
            black: "Bob\\B".into(),
            event: "Club championship".into(),
            site: "Bern".into(),
            round: "3".into(),
            date: "2026.11.22".into(),
            fen: None,
            time_control: Some("5400+30".into()),
            clock: Some("90+30".into()),
            rules: Some("fide-2017".into()),
            board: None,
            extra: vec![("x-future".into(), "a=b c".into())],
        })),
        Event::Move {
            number: 1,
            by: Color::White,
            san: "e4".into(),
            uci: "e2e4".into(),
        },
        Event::Move {
            number: 12,
            by: Color::Black,
            san: "Qh4#".into(),
            uci: "d8h4".into(),
        },
        Event::TakeBack,
        Event::TakebackRequest {
            by: Color::White,
            answer: TakebackAnswer::Refused,
            number: 2,
            mover: Color::White,
            san: "Nf3".into(),
            uci: "g1f3".into(),
        },
        Event::Offer { by: Color::White },
        Event::Accept { by: Color::Black },
        Event::Decline { by: Color::Black },
        Event::Claim {
            by: Color::White,
            claim: Claim::Repetition,
            intended: None,
            upheld: false,
        },
        Event::Claim {
            by: Color::Black,
            claim: Claim::FiftyMoves,
            intended: Some((60, "Kf7".into(), "e8f7".into())),
            upheld: true,
        },
        Event::Resign { by: Color::Black },
        Event::Clock(ClockEvent::Press {
            by: Color::White,
            white_ms: 5_385_123,
            black_ms: 5_400_000,
        }),
        Event::Clock(ClockEvent::Reading {
            white_ms: 1,
            black_ms: -250,
            running: None,
        }),
        Event::Clock(ClockEvent::Reading {
            white_ms: 1,
            black_ms: 2,
            running: Some(Color::Black),
        }),
        Event::Clock(ClockEvent::Started {
            white_ms: 60_000,
            black_ms: 60_000,
            running: Color::White,
        }),
        Event::Clock(ClockEvent::Stopped {
            white_ms: 0,
            black_ms: 12,
        }),
        Event::Clock(ClockEvent::Adjusted {
            side: Color::Black,
            delta_ms: -120_000,
            white_ms: 3,
            black_ms: 4,
        }),
        Event::Clock(ClockEvent::Flag {
            side: Color::White,
            white_ms: 0,
            black_ms: 4,
        }),
        Event::Clock(ClockEvent::AwaitingPress {
            by: Color::Black,
            white_ms: 61_000,
            black_ms: 59_500,
        }),
        Event::Penalty(Penalty {
            against: Color::White,
            reason: "illegal-move".into(),
            white_delta_ms: 0,
            black_delta_ms: 120_000,
            note: "7.5.3".into(),
        }),
        Event::Arbiter {
            action: "stop".into(),
            note: "pieces knocked over".into(),
        },
        Event::Mismatch {
            board: BoardOf::Player,
            diff: "f3 should have the white knight, it is empty".into(),
        },
        Event::MismatchResolved {
            board: BoardOf::Player,
        },
        Event::Mismatch {
            board: BoardOf::Opponent,
            diff: "e4: game P, board empty".into(),
        },
        Event::MismatchResolved {
            board: BoardOf::Opponent,
        },
        Event::BoardAwait {
            board: BoardOf::Player,
            uci: Some("e7e5".into()),
        },
        Event::BoardDone {
            board: BoardOf::Player,
            uci: "e7e5".into(),
        },
        Event::BoardAwait {
            board: BoardOf::Player,
            uci: None,
        },
        Event::BoardAwait {
            board: BoardOf::Opponent,
            uci: Some("g1f3".into()),
        },
        Event::BoardDone {
            board: BoardOf::Opponent,
            uci: "g1f3".into(),
        },
        Event::Result {
            outcome: KnownOutcome::Draw,
            reason: "agreement".into(),
        },
        Event::SetAside,
        Event::Resumed,
        Event::Note {
            text: "line one\nline two \u{7}".into(),
        },
        Event::Companion {
            token_sha256: Some(
                "4b2a3e8e1b1c2f5a5e1f0d3c9a7b6e5d4c3b2a1908f7e6d5c4b3a29180706050".into(),
            ),
        },
        Event::Companion { token_sha256: None },
        Event::Action(Action {
            by: Color::White,
            what: "attackers".into(),
            arg: "e4".into(),
            via: Via::Typed,
            allowed: false,
        }),
        Event::Action(Action {
            by: Color::Black,
            what: "move".into(),
            arg: String::new(),
            via: Via::Page,
            allowed: true,
        }),
        Event::Confirm {
            by: Color::Black,
            outcome: KnownOutcome::Draw,
            via: Via::Page,
        },
    ]
}

/// A journal of before the chain (format 1) of these events.
fn journal_v1(events: &[Event]) -> String {
    let mut s = format!("{HEADER_1}\n");
    for (i, e) in events.iter().enumerate() {
        s.push_str(&format_record(
            i as u64 + 1,
            datetime!(2026-11-22 19:23:46.120 UTC),
            e,
            None,
        ));
    }
    s
}

#[test]
fn every_kind_reads_back_as_written() {
    let events = all_kinds();
    let text = journal_of(&events);
    let parsed = parse_journal(text.as_bytes());
    assert_eq!(parsed.warnings, vec![]);
    assert_eq!(parsed.good_len, text.len());
    let back: Vec<Event> = parsed.records.iter().map(|r| r.event.clone()).collect();
    assert_eq!(back, events);
    assert_eq!(parsed.records[3].seq, 4);
    assert_eq!(parsed.records[0].at, datetime!(2026-11-22 19:23:46.120 UTC));
}

#[test]
fn records_are_one_readable_line_each() {
    let text = journal_of(&all_kinds());
    assert_eq!(text.lines().count(), all_kinds().len() + 1);
    assert!(text.contains("2 2026-11-22T19:23:46.120Z move 1. e4 e2e4 prev="));
    assert!(text.contains("clock press white white=1:29:45.123 black=1:30:00.000 prev="));
    assert!(text.contains("move 12... Qh4# d8h4 prev="));
    assert!(text.contains("claim black fifty-moves with 60... Kf7 e8f7 upheld prev="));
    assert!(text.contains("clock awaiting-press black white=0:01:01.000 black=0:00:59.500 prev="));
    assert!(text.contains("board await e7e5 prev="));
    assert!(text.contains("board done e7e5 prev="));
    assert!(text.contains("board await none prev="));
    assert!(text.contains("board await opponent g1f3 prev="));
    assert!(text.contains("board done opponent g1f3 prev="));
}

#[test]
fn the_companion_record_holds_the_digest_and_no_code() {
    let digest = crate::companion::gate::token_sha256("0123456789abcdef0123456789abcdef");
    assert_eq!(sha256_hex("0123456789abcdef0123456789abcdef"), digest);
    let seat = Event::Companion {
        token_sha256: Some(digest.clone()),
    };
    assert_eq!(
        seat.to_string(),
        format!("companion token=sha256:{digest} code=none")
    );
    assert_eq!(
        Event::Companion { token_sha256: None }.to_string(),
        "companion token=none code=none"
    );
}

#[test]
fn a_clear_token_of_an_older_journal_is_read_as_its_digest() {
    let token = "0123456789abcdef0123456789abcdef";
    let body = format!("1 2026-11-22T19:23:46.120Z companion token={token} code=4712");
    let line = format!("{body} ~{:08x}\n", crc32fast::hash(body.as_bytes()));
    let text = format!("{HEADER_1}\n{line}");
    let parsed = parse_journal(text.as_bytes());
    assert_eq!(parsed.warnings, vec![]);
    assert_eq!(
        parsed.records[0].event,
        Event::Companion {
            token_sha256: Some(crate::companion::gate::token_sha256(token))
        }
    );
    // Written again, neither the token nor the code is in it.
    let again = parsed.records[0].event.to_string();
    assert!(!again.contains(token) && !again.contains("4712"), "{again}");
    // A freed seat of before.
    assert_eq!(
        "companion token=none code=0815".parse::<Event>(),
        Ok(Event::Companion { token_sha256: None })
    );
}

#[test]
fn times_are_exact_milliseconds() {
    for ms in [
        0,
        1,
        999,
        1000,
        59_999,
        3_600_000,
        5_385_123,
        -250,
        36_000_000_001,
    ] {
        assert_eq!(parse_ms(&format_ms(ms)), Some(ms), "{ms}");
    }
    assert_eq!(parse_ms("1:30:00"), Some(5_400_000));
    assert_eq!(parse_ms("5:00.5"), Some(300_500));
    assert_eq!(parse_ms("x"), None);
    assert_eq!(parse_ms("1::0"), None);
}

/// The journal cut at every byte offset of its last record: the record
/// is dropped with a warning, everything before it is kept, and the
/// good length points at its start.
#[test]
fn a_torn_last_record_is_dropped_at_every_cut() {
    let events = all_kinds();
    let text = journal_of(&events);
    let whole = parse_journal(text.as_bytes());
    let last_start = text[..text.len() - 1].rfind('\n').unwrap() + 1;
    for cut in last_start..text.len() {
        let parsed = parse_journal(&text.as_bytes()[..cut]);
        let n = events.len() - 1;
        assert_eq!(parsed.records.len(), n, "cut at {cut}");
        assert_eq!(parsed.records[..], whole.records[..n], "cut at {cut}");
        assert_eq!(parsed.good_len, last_start, "cut at {cut}");
        if cut == last_start {
            assert_eq!(parsed.warnings, vec![], "nothing of it was written");
        } else {
            assert_eq!(
                parsed.warnings,
                vec![ReadWarning::Torn {
                    line: events.len() + 1
                }],
                "cut at {cut}"
            );
        }
    }
}

#[test]
fn a_last_record_with_garbage_is_torn_and_a_damaged_middle_stops_reading() {
    let events = all_kinds();
    let text = journal_of(&events);
    let last_start = text[..text.len() - 1].rfind('\n').unwrap() + 1;
    // Zeros where the last record should be (delayed allocation).
    let mut zeros = text.as_bytes()[..last_start].to_vec();
    zeros.extend(std::iter::repeat_n(0u8, 40));
    zeros.push(b'\n');
    let p = parse_journal(&zeros);
    assert_eq!(p.records.len(), events.len() - 1);
    assert!(matches!(p.warnings[..], [ReadWarning::Torn { .. }]));
    // One byte changed in the third record.
    let mut bad = text.clone().into_bytes();
    let third = text.match_indices('\n').nth(2).unwrap().0 + 5;
    bad[third] ^= 1;
    let p = parse_journal(&bad);
    assert_eq!(p.records.len(), 2);
    assert_eq!(
        p.warnings,
        vec![ReadWarning::Damaged {
            line: 4,
            why: LineError::Checksum
        }]
    );
}

#[test]
fn an_unknown_kind_is_skipped_with_a_warning() {
    let mut text = journal_v1(&all_kinds()[..2]);
    let body = "3 2026-11-22T19:23:47Z hover white";
    text.push_str(&format!(
        "{body} ~{:08x}\n",
        crc32fast::hash(body.as_bytes())
    ));
    text.push_str(&format_record(
        4,
        datetime!(2026-11-22 19:24:00 UTC),
        &Event::TakeBack,
        None,
    ));
    let p = parse_journal(text.as_bytes());
    assert_eq!(p.records.len(), 3);
    assert_eq!(p.warnings, vec![ReadWarning::Unknown { line: 4 }]);
    assert_eq!(p.good_len, text.len());
}

#[test]
fn odd_free_text_stays_on_one_line() {
    let e = Event::Note {
        text: "\"}{ ~0000 \\ \n".into(),
    };
    let line = format_record(1, datetime!(2026-01-01 0:00 UTC), &e, None);
    assert_eq!(line.matches('\n').count(), 1);
    let p = parse_journal(line.as_bytes());
    assert_eq!(p.records[0].event, e);
}

/// A record deleted from the middle: its number is missing, reading
/// stops before the record that follows the gap, and the whole
/// records after it are kept aside in `after`.
#[test]
fn a_missing_record_stops_reading_at_the_gap() {
    let events = all_kinds();
    let text = journal_of(&events[..6]);
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    // Line 4 holds record 3.
    let cut: String = lines
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != 3)
        .map(|(_, l)| *l)
        .collect();
    let p = parse_journal(cut.as_bytes());
    assert_eq!(p.records.len(), 2);
    assert_eq!(
        p.warnings,
        vec![ReadWarning::OutOfSequence {
            line: 4,
            expected: 3,
            found: 4
        }]
    );
    assert_eq!(p.first_unusable(), Some(4));
    assert_eq!(p.good_len, lines[..3].concat().len());
    let after: Vec<(usize, u64)> = p.after.iter().map(|(l, r)| (*l, r.seq)).collect();
    assert_eq!(after, vec![(4, 4), (5, 5), (6, 6)]);
    assert_eq!(p.lines, 6);
}

/// A garbage line in the middle: reading stops there; the whole
/// records after it are read into `after`, a second bad line is
/// skipped.
#[test]
fn records_after_a_damaged_line_are_read_aside() {
    let text = journal_of(&all_kinds()[..5]);
    let mut lines: Vec<String> = text.split_inclusive('\n').map(String::from).collect();
    lines.insert(3, "garbage\n".into());
    lines.insert(5, "\0\0\0\n".into());
    let bad: String = lines.concat();
    let p = parse_journal(bad.as_bytes());
    assert_eq!(p.records.len(), 2);
    assert_eq!(
        p.warnings,
        vec![ReadWarning::Damaged {
            line: 4,
            why: LineError::NoChecksum
        }]
    );
    let after: Vec<(usize, u64)> = p.after.iter().map(|(l, r)| (*l, r.seq)).collect();
    assert_eq!(after, vec![(5, 3), (7, 4), (8, 5)]);
    assert_eq!(p.lines, 8);
}

/// A record of an unknown kind keeps its place in the numbering: the
/// record after it is not out of sequence.
#[test]
fn an_unknown_kind_counts_in_the_sequence() {
    let mut text = journal_v1(&all_kinds()[..2]);
    let body = "3 2026-11-22T19:23:47Z hover white";
    text.push_str(&format!(
        "{body} ~{:08x}\n",
        crc32fast::hash(body.as_bytes())
    ));
    text.push_str(&format_record(
        4,
        datetime!(2026-11-22 19:24:00 UTC),
        &Event::TakeBack,
        None,
    ));
    let p = parse_journal(text.as_bytes());
    assert_eq!(p.records.len(), 3);
    assert_eq!(p.first_unusable(), None);
}

#[test]
fn a_journal_of_before_the_chain_reads_as_written() {
    let events = all_kinds();
    let text = journal_v1(&events);
    assert!(!text.contains(" prev="));
    let parsed = parse_journal(text.as_bytes());
    assert_eq!(parsed.warnings, vec![]);
    assert!(!parsed.chained);
    assert_eq!(parsed.digest, None);
    let back: Vec<Event> = parsed.records.iter().map(|r| r.event.clone()).collect();
    assert_eq!(back, events);
    // Its header is the journal's first line too.
    assert!(is_journal_start(text.as_bytes()));
    assert!(is_journal_start(journal_of(&events).as_bytes()));
    assert!(!is_journal_start(b"[Event \"x\"]"));
}

/// The chain: each record carries the digest of the line before; the
/// journal's digest is its last line's.
#[test]
fn a_chained_journal_carries_the_digest_of_each_line_before() {
    let text = journal_of(&all_kinds()[..3]);
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    for pair in lines.windows(2) {
        let want = format!(" prev={} ~", hex(&line_digest(pair[0].as_bytes())));
        assert!(pair[1].contains(&want), "{}", pair[1]);
    }
    let parsed = parse_journal(text.as_bytes());
    assert!(parsed.chained);
    assert_eq!(
        parsed.digest,
        Some(line_digest(lines[lines.len() - 1].as_bytes()))
    );
    // Only the header: the digest is the header's.
    let head = format!("{HEADER}\n");
    assert_eq!(
        parse_journal(head.as_bytes()).digest,
        Some(line_digest(head.as_bytes()))
    );
}

/// A record changed and its checksum made again: the chain breaks at
/// the line after it, and a chain that does not hold on the last line
/// is damage, never a torn write.
#[test]
fn an_edit_with_a_new_checksum_breaks_the_chain() {
    let text = journal_of(&all_kinds()[..6]);
    let mut lines: Vec<String> = text.split_inclusive('\n').map(String::from).collect();
    // Line 3 is record 2 (1. e4): made 1. d4.
    let edited = lines[2].replace("move 1. e4 e2e4", "move 1. d4 d2d4");
    let body = edited.rsplit_once(" ~").unwrap().0.to_owned();
    lines[2] = format!("{body} ~{:08x}\n", crc32fast::hash(body.as_bytes()));
    let p = parse_journal(lines.concat().as_bytes());
    assert_eq!(p.records.len(), 2, "the edited record itself still fits");
    assert_eq!(
        p.warnings,
        vec![ReadWarning::Damaged {
            line: 4,
            why: LineError::Chain
        }]
    );
    // On the last line.
    let last = lines.len() - 1;
    let body = lines[last].replace("prev=", "prev=0");
    let body = body.rsplit_once(" ~").unwrap().0.to_owned();
    let mut l2: Vec<String> = text.split_inclusive('\n').map(String::from).collect();
    l2[last] = format!("{body} ~{:08x}\n", crc32fast::hash(body.as_bytes()));
    let p = parse_journal(l2.concat().as_bytes());
    assert_eq!(
        p.warnings,
        vec![ReadWarning::Damaged {
            line: last + 1,
            why: LineError::Chain
        }]
    );
    // A record without its digest in a chained journal.
    let body = format!("7 2026-11-22T19:23:46.120Z {}", Event::TakeBack);
    let mut l3 = text.clone();
    l3.push_str(&format!(
        "{body} ~{:08x}\n",
        crc32fast::hash(body.as_bytes())
    ));
    assert_eq!(
        parse_journal(l3.as_bytes()).warnings,
        vec![ReadWarning::Damaged {
            line: 8,
            why: LineError::NoChain
        }]
    );
}

/// Every way a line fails says why.
#[test]
fn each_line_error_is_named() {
    let line = |body: &str| format!("{body} ~{:08x}", crc32fast::hash(body.as_bytes()));
    let err = |l: &str| parse_line(l, false).err();
    assert_eq!(
        err("1 2026-11-22T19:23:46Z takeback"),
        Some(LineError::NoChecksum)
    );
    assert_eq!(
        err("1 2026-11-22T19:23:46Z takeback ~zz"),
        Some(LineError::NoChecksum)
    );
    assert_eq!(
        err("1 2026-11-22T19:23:46Z takeback ~00000000"),
        Some(LineError::Checksum)
    );
    assert_eq!(
        err(&line("one 2026-11-22T19:23:46Z takeback")),
        Some(LineError::Number)
    );
    assert_eq!(err(&line("1 yesterday takeback")), Some(LineError::Time));
    assert_eq!(
        err(&line("1 2026-11-22T19:23:46Z offer blue")),
        Some(LineError::Event(EventError::Bad {
            part: Part::Side,
            found: "blue".into()
        }))
    );
    assert_eq!(
        parse_line(&line("1 2026-11-22T19:23:46Z takeback"), true).err(),
        Some(LineError::NoChain)
    );
    // Bytes that are not text, a line without its end.
    let text = journal_v1(&all_kinds()[..3]);
    let mut bad = text.clone().into_bytes();
    let at = text.find("move").unwrap();
    bad[at] = 0xff;
    assert_eq!(
        parse_journal(&bad).warnings,
        vec![ReadWarning::Damaged {
            line: 3,
            why: LineError::NotText
        }]
    );
    assert!(LineError::Cut.can_be_torn());
    assert!(!LineError::Chain.can_be_torn());
}

/// Every way an event fails says why: which part, what stands there.
#[test]
fn each_event_error_is_named() {
    let err = |s: &str| s.parse::<Event>().err();
    assert_eq!(err(""), Some(EventError::Empty));
    assert_eq!(err("note \"open"), Some(EventError::Quoting));
    assert_eq!(err("note \"\\u{zz}\""), Some(EventError::Quoting));
    assert_eq!(
        err("hover white"),
        Some(EventError::UnknownKind("hover".into()))
    );
    assert_eq!(err("offer"), Some(EventError::Missing(Part::Side)));
    assert_eq!(err("takeback now"), Some(EventError::Extra("now".into())));
    let bad = |part, found: &str| {
        Some(EventError::Bad {
            part,
            found: found.into(),
        })
    };
    assert_eq!(err("move 1 e4 e2e4"), bad(Part::Move, "1"));
    assert_eq!(err("move 1. e4"), Some(EventError::Missing(Part::Move)));
    assert_eq!(
        err("clock press white white=1:00 black=soon"),
        bad(Part::Time, "black=soon")
    );
    assert_eq!(
        err("clock reading white=1:00 black=1:00 running=grey"),
        bad(Part::Side, "running=grey")
    );
    assert_eq!(err("clock tick"), bad(Part::Word, "tick"));
    assert_eq!(
        err("claim white perpetual refused"),
        bad(Part::Claim, "perpetual")
    );
    assert_eq!(
        err("claim white fifty-moves maybe"),
        bad(Part::Result, "maybe")
    );
    // The intended move of a claim is the claimant's.
    assert_eq!(
        err("claim white fifty-moves with 60... Kf7 e8f7 upheld"),
        bad(Part::Move, "60...")
    );
    assert_eq!(err("result 2-0 checkmate"), bad(Part::Result, "2-0"));
    // The quotes are gone once the words are read.
    assert_eq!(err("arbiter stop memo=\"x\""), bad(Part::Text, "memo=x"));
    assert_eq!(err("start white"), bad(Part::Text, "white"));
    assert_eq!(err("board hover e2e4"), bad(Part::Word, "hover"));
    assert_eq!(
        err("action white attackers \"e4\" via=telepathy refused"),
        bad(Part::Word, "via=telepathy")
    );
    assert_eq!(
        err("action white attackers \"e4\" via=typed perhaps"),
        bad(Part::Result, "perhaps")
    );
    assert_eq!(
        err("companion token=none"),
        Some(EventError::Missing(Part::Word))
    );
    assert_eq!("rated".parse::<GameMode>(), Ok(GameMode::Rated));
    assert_eq!(err("offer blue").and_then(|e| e.part()), Some(Part::Side));
    assert_eq!(EventError::Quoting.part(), Some(Part::Text));
}

#[test]
fn the_start_record_keeps_mode_and_device() {
    let mut s = StartInfo::default();
    assert_eq!(s.mode(), None);
    assert_eq!(s.device(), None);
    s.set_mode(GameMode::Rated);
    s.set_device("7f3a-19c2");
    s.set_mode(GameMode::Tournament);
    let back: StartInfo = s.to_string().parse().unwrap();
    assert_eq!(back.mode(), Some(GameMode::Tournament));
    assert_eq!(back.device(), Some("7f3a-19c2"));
    assert_eq!(back, s);
    assert_eq!(
        s.to_string(),
        "white=\"\" black=\"\" event=\"\" site=\"\" round=\"\" date=\"\" mode=\"tournament\" device=\"7f3a-19c2\""
    );
}

mod round_trip {
    use super::*;
    use proptest::prelude::*;

    fn side() -> impl Strategy<Value = Color> {
        prop_oneof![Just(Color::White), Just(Color::Black)]
    }

    fn board() -> impl Strategy<Value = BoardOf> {
        prop_oneof![Just(BoardOf::Player), Just(BoardOf::Opponent)]
    }

    fn outcome() -> impl Strategy<Value = KnownOutcome> {
        prop_oneof![
            Just(KnownOutcome::Draw),
            side().prop_map(|winner| KnownOutcome::Decisive { winner }),
        ]
    }

    fn via() -> impl Strategy<Value = Via> {
        prop_oneof![
            Just(Via::Typed),
            Just(Via::Key),
            Just(Via::Board),
            Just(Via::Page),
            Just(Via::Arbiter),
            Just(Via::Hector),
        ]
    }

    /// A word as the records write one: no space, quote, backslash or
    /// control character.
    fn word() -> impl Strategy<Value = String> {
        "[A-Za-z0-9+#=/.:@-]{1,12}"
    }

    /// A move's word that is not `none` (a board that awaits nothing).
    fn move_word() -> impl Strategy<Value = String> {
        word().prop_filter("not none", |w| w != "none")
    }

    fn ms() -> impl Strategy<Value = i64> {
        -1_000_000_000_000i64..1_000_000_000_000
    }

    fn text() -> impl Strategy<Value = String> {
        any::<String>()
    }

    fn start() -> impl Strategy<Value = StartInfo> {
        let known = [
            "white",
            "black",
            "event",
            "site",
            "round",
            "date",
            "fen",
            "time-control",
            "clock",
            "rules",
            "board",
        ];
        let key = "[a-z][a-z0-9-]{0,10}"
            .prop_filter("not a known key", move |k| !known.contains(&k.as_str()));
        (
            (text(), text(), text(), text(), text(), text()),
            (
                proptest::option::of(text()),
                proptest::option::of(text()),
                proptest::option::of(text()),
                proptest::option::of(text()),
                proptest::option::of(text()),
            ),
            proptest::collection::vec((key, text()), 0..4),
        )
            .prop_map(
                |(
                    (white, black, event, site, round, date),
                    (fen, time_control, clock, rules, board),
                    extra,
                )| StartInfo {
                    white,
                    black,
                    event,
                    site,
                    round,
                    date,
                    fen,
                    time_control,
                    clock,
                    rules,
                    board,
                    extra,
                },
            )
    }

    fn clock() -> impl Strategy<Value = ClockEvent> {
        prop_oneof![
            (side(), ms(), ms()).prop_map(|(by, white_ms, black_ms)| ClockEvent::Press {
                by,
                white_ms,
                black_ms
            }),
            (ms(), ms(), proptest::option::of(side())).prop_map(|(white_ms, black_ms, running)| {
                ClockEvent::Reading {
                    white_ms,
                    black_ms,
                    running,
                }
            }),
            (ms(), ms(), side()).prop_map(|(white_ms, black_ms, running)| {
                ClockEvent::Started {
                    white_ms,
                    black_ms,
                    running,
                }
            }),
            (ms(), ms())
                .prop_map(|(white_ms, black_ms)| ClockEvent::Stopped { white_ms, black_ms }),
            (side(), ms(), ms(), ms()).prop_map(|(side, delta_ms, white_ms, black_ms)| {
                ClockEvent::Adjusted {
                    side,
                    delta_ms,
                    white_ms,
                    black_ms,
                }
            }),
            (side(), ms(), ms()).prop_map(|(side, white_ms, black_ms)| ClockEvent::Flag {
                side,
                white_ms,
                black_ms
            }),
            (side(), ms(), ms()).prop_map(|(by, white_ms, black_ms)| {
                ClockEvent::AwaitingPress {
                    by,
                    white_ms,
                    black_ms,
                }
            }),
        ]
    }

    /// Every kind of record, with any values it can hold.
    fn event() -> impl Strategy<Value = Event> {
        prop_oneof![
            start().prop_map(|s| Event::Start(Box::new(s))),
            (any::<u32>(), side(), move_word(), move_word()).prop_map(|(number, by, san, uci)| {
                Event::Move {
                    number,
                    by,
                    san,
                    uci,
                }
            }),
            Just(Event::TakeBack),
            (
                side(),
                prop_oneof![
                    Just(TakebackAnswer::Asked),
                    Just(TakebackAnswer::Accepted),
                    Just(TakebackAnswer::Refused),
                    Just(TakebackAnswer::Lapsed)
                ],
                any::<u32>(),
                side(),
                move_word(),
                move_word()
            )
                .prop_map(|(by, answer, number, mover, san, uci)| {
                    Event::TakebackRequest {
                        by,
                        answer,
                        number,
                        mover,
                        san,
                        uci,
                    }
                }),
            side().prop_map(|by| Event::Offer { by }),
            side().prop_map(|by| Event::Accept { by }),
            side().prop_map(|by| Event::Decline { by }),
            (
                side(),
                prop_oneof![Just(Claim::Repetition), Just(Claim::FiftyMoves)],
                proptest::option::of((any::<u32>(), move_word(), move_word())),
                any::<bool>()
            )
                .prop_map(|(by, claim, intended, upheld)| Event::Claim {
                    by,
                    claim,
                    intended,
                    upheld
                }),
            side().prop_map(|by| Event::Resign { by }),
            clock().prop_map(Event::Clock),
            (side(), word(), ms(), ms(), text()).prop_map(
                |(against, reason, white_delta_ms, black_delta_ms, note)| {
                    Event::Penalty(Penalty {
                        against,
                        reason,
                        white_delta_ms,
                        black_delta_ms,
                        note,
                    })
                }
            ),
            (word(), text()).prop_map(|(action, note)| Event::Arbiter { action, note }),
            (board(), text()).prop_map(|(board, diff)| Event::Mismatch { board, diff }),
            board().prop_map(|board| Event::MismatchResolved { board }),
            (board(), proptest::option::of(move_word()))
                .prop_map(|(board, uci)| Event::BoardAwait { board, uci }),
            (board(), move_word()).prop_map(|(board, uci)| Event::BoardDone { board, uci }),
            (outcome(), word()).prop_map(|(outcome, reason)| Event::Result { outcome, reason }),
            Just(Event::SetAside),
            Just(Event::Resumed),
            text().prop_map(|text| Event::Note { text }),
            proptest::option::of(word()).prop_map(|token_sha256| Event::Companion { token_sha256 }),
            (side(), word(), text(), via(), any::<bool>()).prop_map(
                |(by, what, arg, via, allowed)| Event::Action(Action {
                    by,
                    what,
                    arg,
                    via,
                    allowed
                })
            ),
            (side(), outcome(), via()).prop_map(|(by, outcome, via)| Event::Confirm {
                by,
                outcome,
                via
            }),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Display, then FromStr, gives the event back.
        #[test]
        fn every_event_reads_back(e in event()) {
            let text = e.to_string();
            prop_assert!(!text.contains('\n'), "{text}");
            prop_assert_eq!(text.parse::<Event>(), Ok(e));
        }

        /// A whole record line, chained or not, reads back too.
        #[test]
        fn every_record_line_reads_back(e in event(), seq in 1u64..1_000_000, prev in any::<[u8; 32]>()) {
            let at = datetime!(2026-11-22 19:23:46.120 UTC);
            for link in [None, Some(&prev)] {
                let line = format_record(seq, at, &e, link);
                let (read, carried) = parse_line(line.trim_end_matches('\n'), link.is_some())
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
                prop_assert_eq!(carried.map(str::to_owned), link.map(|d| hex(d)));
                match read {
                    Read::Record(r) => prop_assert_eq!(r, Record { seq, at, event: e.clone() }),
                    Read::Unknown(_) => prop_assert!(false, "read as unknown"),
                }
            }
        }

        /// The parts that are types of their own read back alone.
        #[test]
        fn clock_events_penalties_and_starts_read_back(c in clock(), s in start()) {
            prop_assert_eq!(c.to_string().parse::<ClockEvent>(), Ok(c));
            prop_assert_eq!(s.to_string().parse::<StartInfo>(), Ok(s));
        }
    }
}
