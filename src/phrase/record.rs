//! The scoresheet's own words: why a saved game's journal cannot be used
//! from a line on, and a game's mode.

use super::Phraser;
use crate::scoresheet::record::{GameMode, LineError, Part, ReadWarning};

impl Phraser {
    /// Why a journal cannot be used from this line on, as a clause: "line
    /// 8 does not match its checksum".
    pub fn journal_damage(&self, w: &ReadWarning) -> String {
        let line = w.line().to_string();
        let l = ("line", line.as_str());
        match w {
            ReadWarning::Torn { .. } => self.message("journal_why_torn", &[l]),
            ReadWarning::Unknown { .. } => self.message("journal_why_form", &[l]),
            ReadWarning::OutOfSequence {
                expected, found, ..
            } => self.message(
                "journal_why_sequence",
                &[
                    l,
                    ("expected", &expected.to_string()),
                    ("found", &found.to_string()),
                ],
            ),
            ReadWarning::Damaged { why, .. } => match why {
                LineError::Cut => self.message("journal_why_torn", &[l]),
                LineError::NotText => self.message("journal_why_not_text", &[l]),
                LineError::NoChecksum => self.message("journal_why_no_checksum", &[l]),
                LineError::Checksum => self.message("journal_why_checksum", &[l]),
                LineError::NoChain => self.message("journal_why_no_chain", &[l]),
                LineError::Chain => self.message("journal_why_chain", &[l]),
                LineError::Number => self.message("journal_why_number", &[l]),
                LineError::Time => self.message("journal_why_time", &[l]),
                LineError::Event(e) => match e.part() {
                    Some(part) => self.message(
                        "journal_why_part",
                        &[l, ("part", &self.message(part_key(part), &[]))],
                    ),
                    None => self.message("journal_why_form", &[l]),
                },
            },
        }
    }

    /// A game's mode in a word ("rated"); a record of before modes says
    /// it was not recorded.
    pub fn mode_word(&self, mode: Option<GameMode>) -> String {
        self.message(
            match mode {
                Some(GameMode::Casual) => "mode_casual",
                Some(GameMode::Rated) => "mode_rated",
                Some(GameMode::Tournament) => "mode_tournament",
                None => "mode_unknown",
            },
            &[],
        )
    }
}

/// The voice key of a record's part.
fn part_key(part: Part) -> &'static str {
    match part {
        Part::Side => "journal_part_side",
        Part::Time => "journal_part_time",
        Part::Move => "journal_part_move",
        Part::Claim => "journal_part_claim",
        Part::Result => "journal_part_result",
        Part::Text => "journal_part_text",
        Part::Word => "journal_part_word",
    }
}

#[cfg(test)]
mod tests {
    use crate::phrase::{MoveOptions, MoveStyle, Phraser};
    use crate::scoresheet::record::{EventError, GameMode, LineError, Part, ReadWarning};
    use crate::words::Lang;

    fn p(lang: Lang) -> Phraser {
        Phraser::builtin(MoveStyle::Language, lang, MoveOptions::default())
    }

    fn damaged(why: LineError) -> ReadWarning {
        ReadWarning::Damaged { line: 8, why }
    }

    /// Each way a line fails has its words, in every language.
    #[test]
    fn each_damage_is_said_with_its_reason() {
        let en = p(Lang::En);
        let cases = [
            (
                ReadWarning::Torn { line: 8 },
                "its last record, line 8, was cut off as it was written",
            ),
            (damaged(LineError::NotText), "line 8 is not text"),
            (
                damaged(LineError::NoChecksum),
                "line 8 does not end with a checksum",
            ),
            (
                damaged(LineError::Checksum),
                "line 8 does not match its checksum",
            ),
            (
                damaged(LineError::NoChain),
                "line 8 lacks the digest of the line before it",
            ),
            (
                damaged(LineError::Chain),
                "line 8 does not follow the line before it",
            ),
            (
                damaged(LineError::Number),
                "the record number on line 8 cannot be read",
            ),
            (
                damaged(LineError::Time),
                "the time on line 8 cannot be read",
            ),
            (
                damaged(LineError::Event(EventError::Bad {
                    part: Part::Time,
                    found: "soon".into(),
                })),
                "on line 8, the time cannot be read",
            ),
            (
                damaged(LineError::Event(EventError::Extra("x".into()))),
                "line 8 is not in the journal's form",
            ),
            (
                ReadWarning::OutOfSequence {
                    line: 8,
                    expected: 7,
                    found: 8,
                },
                "line 8 holds record 8 where record 7 belongs",
            ),
        ];
        for (w, said) in &cases {
            assert_eq!(en.journal_damage(w), *said);
        }
        for lang in [Lang::De, Lang::It, Lang::El] {
            let other = p(lang);
            let mut seen = std::collections::HashSet::new();
            for (w, english) in &cases {
                let s = other.journal_damage(w);
                assert_ne!(&s, english, "{lang:?}: not English");
                assert!(s.contains('8'), "{lang:?}: {s}");
                assert!(seen.insert(s.clone()), "{lang:?}: said twice: {s}");
            }
        }
        for part in [
            Part::Side,
            Part::Time,
            Part::Move,
            Part::Claim,
            Part::Result,
            Part::Text,
            Part::Word,
        ] {
            let w = damaged(LineError::Event(EventError::Missing(part)));
            assert!(!en.journal_damage(&w).contains("journal_part"), "{part:?}");
        }
    }

    #[test]
    fn modes_have_words() {
        for lang in [Lang::En, Lang::De, Lang::It, Lang::El] {
            let words: std::collections::HashSet<String> = [
                Some(GameMode::Casual),
                Some(GameMode::Rated),
                Some(GameMode::Tournament),
                None,
            ]
            .into_iter()
            .map(|m| p(lang).mode_word(m))
            .collect();
            assert_eq!(words.len(), 4, "{lang:?}");
        }
        assert_eq!(
            p(Lang::En).mode_word(Some(GameMode::Rated)),
            "a rated game throughout"
        );
    }
}
