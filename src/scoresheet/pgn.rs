//! PGN export: the Seven Tag Roster first (Event, Site, Date, Round, White,
//! Black, Result), then `SetUp`/`FEN` for a game from a position,
//! `TimeControl`, `Termination`; the moves with `{[%clk h:mm:ss]}` after
//! each when a clock ran, draw offers as `{(=)}` (a bare `=` is read as an
//! evaluation by other programs), claims, penalties and arbiter actions as
//! comments, and the result.  Lines are at most 79 characters.

use std::fmt::Write;

use shakmaty::Color;

use super::replay::{GameRecord, Note};

/// hector's own PGN tag of the game's mode (`casual`, `rated`, `tournament`).
pub const HECTOR_MODE: &str = "HectorMode";
/// hector's own PGN tag of the id of the device the game was kept on.
pub const HECTOR_DEVICE: &str = "HectorDevice";
/// hector's own PGN tag of the SHA-256 digest the game's journal ended
/// with when it was exported (64 hex digits).
pub const HECTOR_DIGEST: &str = "HectorDigest";

/// The PGN `Termination` tag for a result's reason word.
pub fn termination(reason: Option<&str>) -> &'static str {
    match reason {
        None => "unterminated",
        Some("time-forfeit") => "time forfeit",
        Some("illegal-move" | "illegal-moves" | "rules-infraction") => "rules infraction",
        Some("arbiter" | "arbiter-decision" | "adjudication") => "adjudication",
        Some("abandoned") => "abandoned",
        Some(_) => "normal",
    }
}

fn tag_value(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_control())
        .flat_map(|c| match c {
            '"' => vec!['\\', '"'],
            '\\' => vec!['\\', '\\'],
            c => vec![c],
        })
        .collect()
}

fn or_unknown(s: &str) -> &str {
    if s.trim().is_empty() { "?" } else { s }
}

/// `h:mm:ss` for `%clk` (whole seconds, rounded down; never negative).
pub fn clk(ms: i64) -> String {
    let s = ms.max(0) / 1000;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// Comment text without braces.
fn comment_text(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '{' | '}' => '-',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect()
}

/// A journal's word in plain English for a reader of the PGN:
/// `incorrect-claim` is "incorrect claim".
fn token_words(token: &str) -> String {
    token.replace('-', " ")
}

fn note_text(n: &Note) -> String {
    let side = |c: Color| if c == Color::White { "White" } else { "Black" };
    comment_text(&match n {
        Note::Claim { by, claim, upheld } => format!(
            "{} claims a draw by {}: {}",
            side(*by),
            match claim {
                crate::game::Claim::Repetition => "threefold repetition (9.2)",
                crate::game::Claim::FiftyMoves => "the 50-move rule (9.3)",
            },
            if *upheld { "upheld" } else { "refused" }
        ),
        Note::Penalty(p) => {
            let mut s = format!(
                "Penalty against {}: {}",
                side(p.against),
                token_words(&p.reason)
            );
            for (c, d) in [
                (Color::White, p.white_delta_ms),
                (Color::Black, p.black_delta_ms),
            ] {
                if d != 0 {
                    let _ = write!(
                        s,
                        ", {} {}{}",
                        side(c),
                        if d > 0 { "+" } else { "-" },
                        clk(d.abs())
                    );
                }
            }
            if !p.note.is_empty() {
                let _ = write!(s, " ({})", p.note);
            }
            s
        }
        Note::Arbiter { action, note } => {
            let action = token_words(action);
            if note.is_empty() {
                format!("Arbiter: {action}")
            } else {
                format!("Arbiter: {action} ({note})")
            }
        }
        Note::TakenBack {
            by,
            number,
            san,
            at,
            ..
        } => {
            let dots = if *by == Color::White { "." } else { "..." };
            match at {
                Some((h, m)) => format!("Taken back at {h:02}:{m:02}: {number}{dots} {san}"),
                None => format!("Taken back: {number}{dots} {san}"),
            }
        }
        Note::TakebackNotMade {
            by,
            lapsed,
            mover,
            number,
            san,
            at,
            ..
        } => {
            let dots = if *mover == Color::White { "." } else { "..." };
            let asker = if *by == Color::White {
                "White"
            } else {
                "Black"
            };
            let how = if *lapsed {
                // A move was made meanwhile.
                "lapsed"
            } else {
                "refused"
            };
            match at {
                Some((h, m)) => format!(
                    "Take-back of {number}{dots} {san} asked by {asker}, {how} at {h:02}:{m:02}"
                ),
                None => format!("Take-back of {number}{dots} {san} asked by {asker}, {how}"),
            }
        }
        Note::Text(t) => t.clone(),
    })
}

/// Wraps tokens into lines of at most `width` characters.
fn wrap(tokens: &[String], width: usize) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    for t in tokens {
        let len = t.chars().count();
        if line_len > 0 && line_len + 1 + len > width {
            out.push('\n');
            line_len = 0;
        }
        if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(t);
        line_len += len;
    }
    out.push('\n');
    out
}

/// The game as PGN text (one game, ending with an empty line).
pub fn to_pgn(rec: &GameRecord) -> String {
    let s = &rec.start;
    let result = rec.result.as_ref().map_or("*", |(o, _)| o.as_str());
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        let _ = writeln!(out, "[{name} \"{}\"]", tag_value(value));
    };
    tag("Event", or_unknown(&s.event));
    tag("Site", or_unknown(&s.site));
    tag(
        "Date",
        if s.date.is_empty() {
            "????.??.??"
        } else {
            &s.date
        },
    );
    tag("Round", if s.round.is_empty() { "-" } else { &s.round });
    tag("White", or_unknown(&s.white));
    tag("Black", or_unknown(&s.black));
    tag("Result", result);
    // An online game's ratings, as lichess writes them.
    for (name, side) in [("WhiteElo", Color::White), ("BlackElo", Color::Black)] {
        if let Some(elo) = s.elo(side) {
            tag(name, elo);
        }
    }
    if let Some(fen) = &s.fen {
        tag("SetUp", "1");
        tag("FEN", fen);
    }
    tag("TimeControl", s.time_control.as_deref().unwrap_or("-"));
    tag(
        "Termination",
        termination(rec.result.as_ref().map(|(_, r)| r.as_str())),
    );
    // A scoresheet that proves itself: the game's mode, the device it was
    // kept on, and the digest its journal ended with (`hector verify`
    // finds the journal by it).
    if let Some(mode) = s.mode() {
        tag(HECTOR_MODE, &mode.to_string());
    }
    if let Some(device) = s.device() {
        tag(HECTOR_DEVICE, device);
    }
    if let Some(d) = &rec.digest {
        tag(HECTOR_DIGEST, &super::record::hex(d));
    }
    out.push('\n');

    let mut tokens: Vec<String> = Vec::new();
    let comment = |tokens: &mut Vec<String>, text: String| {
        // Split long comments into words so lines stay short.
        let words: Vec<&str> = text.split_whitespace().collect();
        match words.len() {
            0 => {}
            1 => tokens.push(format!("{{{}}}", words[0])),
            n => {
                for (i, w) in words.iter().enumerate() {
                    tokens.push(match i {
                        0 => format!("{{{w}"),
                        i if i == n - 1 => format!("{w}}}"),
                        _ => w.to_string(),
                    });
                }
            }
        }
    };
    for n in rec.notes.first().into_iter().flatten() {
        comment(&mut tokens, note_text(n));
    }
    let mut need_number = true;
    for (i, m) in rec.game.history().iter().enumerate() {
        match m.by {
            Color::White => tokens.push(format!("{}.", m.number)),
            Color::Black if need_number => tokens.push(format!("{}...", m.number)),
            Color::Black => {}
        }
        tokens.push(m.san.to_string());
        need_number = false;
        if rec.clock_ran
            && let Some(Some(ms)) = rec.clocks.get(i)
        {
            tokens.push(format!("{{[%clk {}]}}", clk(*ms)));
            need_number = true;
        }
        if m.draw_offer {
            tokens.push("{(=)}".into());
            need_number = true;
        }
        for n in rec.notes.get(i + 1).into_iter().flatten() {
            comment(&mut tokens, note_text(n));
            need_number = true;
        }
    }
    tokens.push(result.to_string());
    out.push_str(&wrap(&tokens, 79));
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Claim, Game};
    use crate::scoresheet::record::{Penalty, StartInfo};
    use shakmaty::san::San;

    fn play(g: &mut Game, sans: &[&str]) {
        for s in sans {
            let m = s.parse::<San>().unwrap().to_move(g.position()).unwrap();
            g.play(m).unwrap();
        }
    }

    /// The mode, the device and the journal's digest in tags of their
    /// own, after the others; read back by the PGN reader.
    #[test]
    fn a_journals_pgn_names_its_mode_device_and_digest() {
        let mut g = Game::new();
        play(&mut g, &["e4", "e5"]);
        let mut start = StartInfo::default();
        start.set_mode(crate::scoresheet::record::GameMode::Rated);
        start.set_device("6b1f0c2e-8d3a-4f5b-9c7d-2e1a0b3c4d5e");
        let mut rec = GameRecord::of_game(start, g);
        rec.digest = Some([0xab; 32]);
        let pgn = to_pgn(&rec);
        let digest = "ab".repeat(32);
        assert!(pgn.contains("[HectorMode \"rated\"]\n"), "{pgn}");
        assert!(
            pgn.contains("[HectorDevice \"6b1f0c2e-8d3a-4f5b-9c7d-2e1a0b3c4d5e\"]\n"),
            "{pgn}"
        );
        assert!(
            pgn.contains(&format!("[HectorDigest \"{digest}\"]\n")),
            "{pgn}"
        );
        let file = crate::scoresheet::review::PgnFile::from_bytes(pgn.into_bytes()).unwrap();
        assert_eq!(
            file.entry(1).unwrap().hector,
            vec![
                ("HectorMode".to_string(), "rated".to_string()),
                (
                    "HectorDevice".to_string(),
                    "6b1f0c2e-8d3a-4f5b-9c7d-2e1a0b3c4d5e".to_string()
                ),
                ("HectorDigest".to_string(), digest),
            ]
        );
        // A game without them: none.
        let plain = to_pgn(&GameRecord::of_game(StartInfo::default(), Game::new()));
        assert!(!plain.contains("[Hector"), "{plain}");
    }

    #[test]
    fn seven_tags_first_then_time_control_and_termination() {
        let mut g = Game::new();
        play(&mut g, &["f3", "e5", "g4", "Qh4#"]);
        let rec = GameRecord::of_game(
            StartInfo {
                white: "Anna \"A\"".into(),
                black: "Bob".into(),
                date: "2026.11.22".into(),
                ..StartInfo::default()
            },
            g,
        );
        let pgn = to_pgn(&rec);
        let tags: Vec<&str> = pgn
            .lines()
            .take_while(|l| l.starts_with('['))
            .map(|l| l[1..].split(' ').next().unwrap())
            .collect();
        assert_eq!(
            tags,
            [
                "Event",
                "Site",
                "Date",
                "Round",
                "White",
                "Black",
                "Result",
                "TimeControl",
                "Termination"
            ]
        );
        assert!(pgn.contains("[White \"Anna \\\"A\\\"\"]"));
        assert!(pgn.contains("[Result \"0-1\"]"));
        assert!(pgn.contains("[Termination \"normal\"]"));
        assert!(pgn.contains("\n1. f3 e5 2. g4 Qh4# 0-1\n"));
    }

    #[test]
    fn an_online_game_has_its_address_and_both_ratings() {
        let mut g = Game::new();
        play(&mut g, &["e4"]);
        let mut start = StartInfo {
            white: "Georges".into(),
            black: "Mary".into(),
            site: "https://lichess.org/AbCd1234".into(),
            time_control: Some("600+5".into()),
            ..StartInfo::default()
        };
        start.set_extra("white-elo", "1500");
        start.set_extra("black-elo", "1600");
        let pgn = to_pgn(&GameRecord::of_game(start, g));
        let tags: Vec<&str> = pgn.lines().take_while(|l| l.starts_with('[')).collect();
        assert_eq!(
            tags,
            [
                "[Event \"?\"]",
                "[Site \"https://lichess.org/AbCd1234\"]",
                "[Date \"????.??.??\"]",
                "[Round \"-\"]",
                "[White \"Georges\"]",
                "[Black \"Mary\"]",
                "[Result \"*\"]",
                "[WhiteElo \"1500\"]",
                "[BlackElo \"1600\"]",
                "[TimeControl \"600+5\"]",
                "[Termination \"unterminated\"]",
            ]
        );
    }

    #[test]
    fn clocks_offers_and_notes_are_comments() {
        let mut g = Game::new();
        play(&mut g, &["e4", "e5", "Nf3"]);
        g.offer_draw(Color::White).unwrap();
        let mut rec = GameRecord::of_game(StartInfo::default(), g);
        rec.clock_ran = true;
        rec.clocks = vec![Some(5_399_999), Some(5_390_000), Some(3_600_000)];
        rec.notes[2].push(Note::Penalty(Penalty {
            against: Color::Black,
            reason: "illegal-move".into(),
            white_delta_ms: 120_000,
            black_delta_ms: 0,
            note: String::new(),
        }));
        rec.notes[3].push(Note::Claim {
            by: Color::Black,
            claim: Claim::Repetition,
            upheld: false,
        });
        rec.notes[3].push(Note::Penalty(Penalty {
            against: Color::Black,
            reason: "incorrect-claim".into(),
            white_delta_ms: 60_000,
            black_delta_ms: 0,
            note: "9.5.3".into(),
        }));
        rec.notes[3].push(Note::Arbiter {
            action: "add-time".into(),
            note: "white 0:01:00.000".into(),
        });
        let pgn = to_pgn(&rec);
        let movetext: String = pgn
            .split("\n\n")
            .nth(1)
            .unwrap()
            .replace('\n', " ")
            .trim()
            .to_string();
        assert_eq!(
            movetext,
            "1. e4 {[%clk 1:29:59]} 1... e5 {[%clk 1:29:50]} {Penalty against Black: \
             illegal move, White +0:02:00} 2. Nf3 {[%clk 1:00:00]} {(=)} {Black claims a \
             draw by threefold repetition (9.2): refused} {Penalty against Black: incorrect \
             claim, White +0:01:00 (9.5.3)} {Arbiter: add time (white 0:01:00.000)} *"
        );
        assert!(pgn.lines().all(|l| l.chars().count() <= 79));
        assert!(pgn.contains("[Termination \"unterminated\"]"));
    }

    #[test]
    fn a_game_from_a_position_has_setup_and_fen() {
        let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 30";
        let mut g = Game::from_fen(fen).unwrap();
        play(&mut g, &["Kd7"]);
        let rec = GameRecord::of_game(
            StartInfo {
                fen: Some(fen.into()),
                ..StartInfo::default()
            },
            g,
        );
        let pgn = to_pgn(&rec);
        assert!(pgn.contains("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 30\"]"));
        assert!(pgn.contains("\n30... Kd7 *\n"));
    }
}
