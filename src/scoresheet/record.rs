//! The journal's line format: one event a line, readable by a person (an
//! arbiter can follow the moves with their times, D.2.9), checked by a
//! checksum, parsed back without loss.  Sans-IO: text in, values out.
//!
//! ```text
//! # hector scoresheet journal, format 1. One record a line: number, time (UTC), event, ~checksum.
//! 1 2026-11-22T19:23:46.120Z start white="Anna" black="Bob" date=2026.11.22 time-control="5400+30" ~1c0f3a9e
//! 2 2026-11-22T19:24:01.003Z move 1. e4 e2e4 ~5e0d8c11
//! 3 2026-11-22T19:24:01.010Z clock press white white=1:29:45.123 black=1:30:00.000 ~0a4b61f2
//! 4 2026-11-22T19:24:09.500Z move 1... e5 e7e5 ~...
//! 5 2026-11-22T19:24:12.000Z offer black ~...
//! 6 2026-11-22T19:30:00.000Z result 1/2-1/2 agreement ~...
//! ```
//!
//! Every record ends with `~` and the CRC-32 of the text before ` ~`, and
//! with a line feed.  A record without its line feed or with a wrong
//! checksum at the end of the file is torn (the power went while it was
//! being written): it is dropped with a warning.  Times of the clock are
//! `h:mm:ss.mmm` (milliseconds, exact; a leading `-` below zero).  Free text
//! is quoted with `\"`, `\\`, `\n` escapes, so a record is always one line.

use std::fmt::Write;

use shakmaty::{Color, KnownOutcome};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::game::Claim;

/// The first line of every journal.
pub const HEADER: &str = "# hector scoresheet journal, format 1. One record a line: number, time (UTC), event, ~checksum.";

/// What the game was started with: players, event, start position, time
/// control.  Unknown keys of newer versions are kept in `extra`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StartInfo {
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The event (tournament) name.
    pub event: String,
    /// Where the game is played.
    pub site: String,
    /// The round, as in PGN (`3`, `3.1`).
    pub round: String,
    /// `YYYY.MM.DD`, as in PGN.
    pub date: String,
    /// The start position when it is not the standard one.
    pub fen: Option<String>,
    /// PGN `TimeControl` form, e.g. `5400+30` or `40/5400:1800+30`.
    pub time_control: Option<String>,
    /// The clock's own specification, as typed (e.g. `90+30`).
    pub clock: Option<String>,
    /// The rules edition, e.g. `fide-2017`.
    pub rules: Option<String>,
    /// The board, e.g. `dgt:/dev/ttyUSB0`.
    pub board: Option<String>,
    /// Keys and values this version does not know, kept as read.
    pub extra: Vec<(String, String)>,
}

/// The start record's keys of an online game (kept among the start's
/// other keys, so a journal of before reads as it did and an older hector
/// keeps them as unknown keys).
pub mod online_key {
    /// The lichess game's id.
    pub const GAME: &str = "lichess-game";
    /// The server it is played on (`https://lichess.org`).
    pub const URL: &str = "lichess-url";
    /// The side the player has there, `white` or `black`.
    pub const SIDE: &str = "lichess-side";
    /// White's rating.
    pub const WHITE_ELO: &str = "white-elo";
    /// Black's rating.
    pub const BLACK_ELO: &str = "black-elo";
    /// `yes` for a rated game, `no` for a casual one.
    pub const RATED: &str = "rated";
}

/// An online game as its start record names it: where to rejoin it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OnlineGame {
    /// The server (`https://lichess.org`), without a trailing `/`.
    pub url: String,
    /// The game's id on it.
    pub game: String,
    /// The player's side.
    pub side: Color,
}

impl StartInfo {
    /// The value of a key kept beside the known ones.
    pub fn extra_value(&self, key: &str) -> Option<&str> {
        self.extra
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a key kept beside the known ones (replacing its value).
    pub fn set_extra(&mut self, key: &str, value: &str) {
        match self.extra.iter_mut().find(|(k, _)| k == key) {
            Some((_, v)) => value.clone_into(v),
            None => self.extra.push((key.to_owned(), value.to_owned())),
        }
    }

    /// The server an online game is played on (`https://lichess.org`).
    pub fn set_online_server(&mut self, url: &str) {
        self.set_extra(online_key::URL, url.trim_end_matches('/'));
    }

    /// The online game this record is of, if it is one.
    pub fn online(&self) -> Option<OnlineGame> {
        let game = self.extra_value(online_key::GAME)?.trim();
        if game.is_empty() {
            return None;
        }
        let side = match self.extra_value(online_key::SIDE)? {
            "white" => Color::White,
            "black" => Color::Black,
            _ => return None,
        };
        let url = self.extra_value(online_key::URL).unwrap_or_default();
        Some(OnlineGame {
            url: url.trim_end_matches('/').to_owned(),
            game: game.to_owned(),
            side,
        })
    }

    /// A side's rating, if the record has it.
    pub fn elo(&self, side: Color) -> Option<&str> {
        let key = match side {
            Color::White => online_key::WHITE_ELO,
            Color::Black => online_key::BLACK_ELO,
        };
        self.extra_value(key).filter(|v| !v.trim().is_empty())
    }
}

/// A clock event; all times in milliseconds remaining (after the event).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockEvent {
    /// `by` pressed the clock after their move.
    Press {
        /// The side that pressed.
        by: Color,
        /// White's time left.
        white_ms: i64,
        /// Black's time left.
        black_ms: i64,
    },
    /// A reading (e.g. on request or periodically); `running` is the side
    /// whose time runs.
    Reading {
        /// White's time left.
        white_ms: i64,
        /// Black's time left.
        black_ms: i64,
        /// The side whose time runs (none: stopped).
        running: Option<Color>,
    },
    /// The clock started, `running`'s time runs.
    Started {
        /// White's time left.
        white_ms: i64,
        /// Black's time left.
        black_ms: i64,
        /// The side whose time runs.
        running: Color,
    },
    /// Both clocks stopped (arbiter, game over).
    Stopped {
        /// White's time left.
        white_ms: i64,
        /// Black's time left.
        black_ms: i64,
    },
    /// Time added (positive) or taken away for `side`.
    Adjusted {
        /// The side whose time changed.
        side: Color,
        /// The change (negative: taken away).
        delta_ms: i64,
        /// White's time left.
        white_ms: i64,
        /// Black's time left.
        black_ms: i64,
    },
    /// `side`'s flag fell.
    Flag {
        /// The side whose flag fell.
        side: Color,
        /// White's time left.
        white_ms: i64,
        /// Black's time left.
        black_ms: i64,
    },
    /// `by` moved and has not pressed yet (a separate press, D.2.8): the
    /// mover's time still runs until the press.
    AwaitingPress {
        /// The side that moved.
        by: Color,
        /// White's time left.
        white_ms: i64,
        /// Black's time left.
        black_ms: i64,
    },
}

impl ClockEvent {
    /// The remaining times (white, black) after the event.
    pub fn times(&self) -> (i64, i64) {
        match *self {
            ClockEvent::Press {
                white_ms, black_ms, ..
            }
            | ClockEvent::Reading {
                white_ms, black_ms, ..
            }
            | ClockEvent::Started {
                white_ms, black_ms, ..
            }
            | ClockEvent::Stopped { white_ms, black_ms }
            | ClockEvent::Adjusted {
                white_ms, black_ms, ..
            }
            | ClockEvent::Flag {
                white_ms, black_ms, ..
            }
            | ClockEvent::AwaitingPress {
                white_ms, black_ms, ..
            } => (white_ms, black_ms),
        }
    }
}

/// A penalty (7.5 illegal move, 9.5 incorrect claim, 11.x): who, why (a
/// word such as `illegal-move`), and the time it changed for each side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Penalty {
    /// The side penalised.
    pub against: Color,
    /// Why, as a word (`illegal-move`, `incorrect-claim`).
    pub reason: String,
    /// The change to White's time, in milliseconds.
    pub white_delta_ms: i64,
    /// The change to Black's time, in milliseconds.
    pub black_delta_ms: i64,
    /// The arbiter's note.
    pub note: String,
}

/// One event of a game, as the journal records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// The first record.
    Start(Box<StartInfo>),
    /// A move: its number, the side, SAN (with `+`/`#`) and UCI.
    Move {
        /// The full-move number.
        number: u32,
        /// The side that moved.
        by: Color,
        /// The move in SAN, with `+` or `#`.
        san: String,
        /// The move in UCI (`e2e4`, `e7e8q`).
        uci: String,
    },
    /// The last move was taken back (board take-back, arbiter correction).
    TakeBack,
    /// A draw offer.
    Offer {
        /// The side that offers.
        by: Color,
    },
    /// A draw offer accepted.
    Accept {
        /// The side that accepts.
        by: Color,
    },
    /// A draw offer declined.
    Decline {
        /// The side that declines.
        by: Color,
    },
    /// A draw claim (9.2, 9.3), on the position or on an intended move
    /// (which the claim plays), and the verdict.
    Claim {
        /// The side that claims.
        by: Color,
        /// What is claimed (threefold repetition, fifty moves).
        claim: Claim,
        /// The intended move: number, SAN and UCI, as in [`Event::Move`].
        intended: Option<(u32, String, String)>,
        /// The claim was found correct.
        upheld: bool,
    },
    /// A resignation.
    Resign {
        /// The side that resigns.
        by: Color,
    },
    /// Something the clock did.
    Clock(ClockEvent),
    /// A penalty given.
    Penalty(Penalty),
    /// An arbiter's action: a word (`stop`, `add-time`, `correction` …)
    /// and a note.
    Arbiter {
        /// What the arbiter did, as a word.
        action: String,
        /// The arbiter's note.
        note: String,
    },
    /// A board differs from the game (D.2.9); a neutral description.
    Mismatch {
        /// Whose board differs.
        board: BoardOf,
        /// The squares that differ, described.
        diff: String,
    },
    /// That board agrees with the game again.
    MismatchResolved {
        /// Whose board agrees again.
        board: BoardOf,
    },
    /// A board awaits this move (UCI), made by other means: on the blind
    /// player's board a move typed, the engine's or the opponent's page's,
    /// said as "On your board: …"; on the opponent's board the blind
    /// player's move.  `None`: no move is awaited there any more (the game
    /// changed otherwise).
    BoardAwait {
        /// Which board awaits it.
        board: BoardOf,
        /// The move, in UCI.
        uci: Option<String>,
    },
    /// The awaited move was made on that board.
    BoardDone {
        /// Which board made it.
        board: BoardOf,
        /// The move, in UCI.
        uci: String,
    },
    /// The result and why (`checkmate`, `agreement`, `time-forfeit` …).
    Result {
        /// Who won, or a draw.
        outcome: KnownOutcome,
        /// Why, as a word.
        reason: String,
    },
    /// The player chose not to resume the game now.
    SetAside,
    /// The game was resumed after the program stopped.
    Resumed,
    /// A free note, kept with the record.
    Note {
        /// The note's text.
        text: String,
    },
    /// The opponent's page (the companion) was paired: the SHA-256 of its
    /// token (never the token, never the pairing code); `None` when the
    /// seat was freed.  Read back when the game is resumed after a restart,
    /// so the page that still holds the token is the opponent again
    /// without a code.
    Companion {
        /// The SHA-256 of the page's token, 64 lower-case hex digits (none:
        /// the seat was freed).
        token_sha256: Option<String>,
    },
}

/// Whose board a mismatch is on: the blind player's tactile board, or the
/// opponent's own board (D.2.9 compares the two).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum BoardOf {
    /// The blind player's tactile board.
    #[default]
    Player,
    /// The opponent's own board.
    Opponent,
}

/// A record: its number, when it was written, and the event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The record's number, 1 for the first.
    pub seq: u64,
    /// When it was written (UTC).
    pub at: OffsetDateTime,
    /// What happened.
    pub event: Event,
}

/// What reading a journal found besides the records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadWarning {
    /// The last record was cut off (power cut mid-write) and was dropped.
    Torn {
        /// Its line number, from 1.
        line: usize,
    },
    /// A record in the middle is damaged; reading stopped before it.
    Damaged {
        /// Its line number, from 1.
        line: usize,
    },
    /// A record of a kind this version does not know; skipped.
    Unknown {
        /// Its line number, from 1.
        line: usize,
    },
    /// A whole record whose number is not the next one (a record before
    /// it is missing, or it was moved); reading stopped before it.
    OutOfSequence {
        /// Its line number, from 1.
        line: usize,
        /// The number the next record should have had.
        expected: u64,
        /// The number it has.
        found: u64,
    },
}

impl ReadWarning {
    /// The line the warning is about.
    pub fn line(&self) -> usize {
        match *self {
            ReadWarning::Torn { line }
            | ReadWarning::Damaged { line }
            | ReadWarning::Unknown { line }
            | ReadWarning::OutOfSequence { line, .. } => line,
        }
    }

    /// Whether reading stopped there (the rest of the file is not used).
    pub fn stops(&self) -> bool {
        !matches!(self, ReadWarning::Unknown { .. })
    }
}

/// A journal's text read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parsed {
    /// The whole records, in order.
    pub records: Vec<Record>,
    /// What was cut off, damaged or unknown.
    pub warnings: Vec<ReadWarning>,
    /// Bytes of whole records (and comments) from the start, up to the
    /// first unusable line: the journal's usable part.
    pub good_len: usize,
    /// Whole, checked records after the first unusable line, with their
    /// line numbers: kept on disk, and offered to the player when they
    /// continue the game (see `replay::continuation`, which stands on this file).
    pub after: Vec<(usize, Record)>,
    /// The lines of the file (a last line without its line feed counted).
    pub lines: usize,
}

impl Parsed {
    /// The first line that could not be used (reading stopped there), if
    /// any.
    pub fn first_unusable(&self) -> Option<usize> {
        self.warnings.iter().find(|w| w.stops()).map(|w| w.line())
    }
}

/// Formats a time in milliseconds as `h:mm:ss.mmm` (`-` before when below
/// zero).
pub fn format_ms(ms: i64) -> String {
    let sign = if ms < 0 { "-" } else { "" };
    let a = ms.unsigned_abs();
    format!(
        "{sign}{}:{:02}:{:02}.{:03}",
        a / 3_600_000,
        a / 60_000 % 60,
        a / 1000 % 60,
        a % 1000
    )
}

/// Reads `h:mm:ss.mmm` (also `h:mm:ss` and `mm:ss`).
pub fn parse_ms(s: &str) -> Option<i64> {
    let (neg, s) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let (hms, frac) = match s.split_once('.') {
        Some((a, b)) => (a, Some(b)),
        None => (s, None),
    };
    let parts: Vec<&str> = hms.split(':').collect();
    if parts.is_empty() || parts.len() > 3 || parts.iter().any(|p| p.is_empty()) {
        return None;
    }
    let mut secs: i64 = 0;
    for p in &parts {
        if !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        secs = secs.checked_mul(60)?.checked_add(p.parse::<i64>().ok()?)?;
    }
    let millis = match frac {
        None => 0,
        Some(f) if !f.is_empty() && f.len() <= 3 && f.bytes().all(|b| b.is_ascii_digit()) => {
            f.parse::<i64>().ok()? * 10_i64.pow(3 - f.len() as u32)
        }
        Some(_) => return None,
    };
    let total = secs.checked_mul(1000)?.checked_add(millis)?;
    Some(if neg { -total } else { total })
}

fn side_word(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn parse_side(s: &str) -> Option<Color> {
    match s {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

fn claim_word(c: Claim) -> &'static str {
    match c {
        Claim::Repetition => "threefold-repetition",
        Claim::FiftyMoves => "fifty-moves",
    }
}

fn parse_claim(s: &str) -> Option<Claim> {
    match s {
        "threefold-repetition" => Some(Claim::Repetition),
        "fifty-moves" => Some(Claim::FiftyMoves),
        _ => None,
    }
}

/// `1-0`, `0-1`, `1/2-1/2`.
pub fn outcome_str(o: KnownOutcome) -> &'static str {
    o.as_str()
}

pub fn parse_outcome(s: &str) -> Option<KnownOutcome> {
    match s {
        "1-0" => Some(KnownOutcome::Decisive {
            winner: Color::White,
        }),
        "0-1" => Some(KnownOutcome::Decisive {
            winner: Color::Black,
        }),
        "1/2-1/2" => Some(KnownOutcome::Draw),
        _ => None,
    }
}

/// Quotes free text: one line, `"` and `\` escaped.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Splits a record's text into tokens: separated by spaces, `"…"` quoted
/// parts (also inside a token, as in `white="Anna B"`) unquoted.
fn tokens(s: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_token = false;
    let mut chars = s.chars();
    while let Some(ch) = chars.next() {
        match ch {
            ' ' => {
                if in_token {
                    out.push(std::mem::take(&mut cur));
                    in_token = false;
                }
            }
            '"' => {
                in_token = true;
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => match chars.next()? {
                            'n' => cur.push('\n'),
                            'r' => cur.push('\r'),
                            't' => cur.push('\t'),
                            'u' => {
                                if chars.next()? != '{' {
                                    return None;
                                }
                                let mut hex = String::new();
                                loop {
                                    match chars.next()? {
                                        '}' => break,
                                        h => hex.push(h),
                                    }
                                }
                                let code = u32::from_str_radix(&hex, 16).ok()?;
                                cur.push(char::from_u32(code)?);
                            }
                            c => cur.push(c),
                        },
                        c => cur.push(c),
                    }
                }
            }
            c => {
                in_token = true;
                cur.push(c);
            }
        }
    }
    if in_token {
        out.push(cur);
    }
    Some(out)
}

fn move_text(number: u32, by: Color) -> String {
    match by {
        Color::White => format!("{number}."),
        Color::Black => format!("{number}..."),
    }
}

fn parse_move_number(s: &str) -> Option<(u32, Color)> {
    if let Some(n) = s.strip_suffix("...") {
        Some((n.parse().ok()?, Color::Black))
    } else {
        Some((s.strip_suffix('.')?.parse().ok()?, Color::White))
    }
}

fn times(white_ms: i64, black_ms: i64) -> String {
    format!(
        "white={} black={}",
        format_ms(white_ms),
        format_ms(black_ms)
    )
}

impl Event {
    /// The event's text in a record (without number, time and checksum).
    pub fn to_text(&self) -> String {
        match self {
            Event::Start(s) => {
                let mut out = String::from("start");
                let mut kv = |k: &str, v: &str| {
                    let _ = write!(out, " {k}={}", quote(v));
                };
                kv("white", &s.white);
                kv("black", &s.black);
                kv("event", &s.event);
                kv("site", &s.site);
                kv("round", &s.round);
                kv("date", &s.date);
                for (k, v) in [
                    ("fen", &s.fen),
                    ("time-control", &s.time_control),
                    ("clock", &s.clock),
                    ("rules", &s.rules),
                    ("board", &s.board),
                ] {
                    if let Some(v) = v {
                        kv(k, v);
                    }
                }
                for (k, v) in &s.extra {
                    kv(k, v);
                }
                out
            }
            Event::Move {
                number,
                by,
                san,
                uci,
            } => format!("move {} {san} {uci}", move_text(*number, *by)),
            Event::TakeBack => "takeback".into(),
            Event::Offer { by } => format!("offer {}", side_word(*by)),
            Event::Accept { by } => format!("accept {}", side_word(*by)),
            Event::Decline { by } => format!("decline {}", side_word(*by)),
            Event::Claim {
                by,
                claim,
                intended,
                upheld,
            } => {
                let mut out = format!("claim {} {}", side_word(*by), claim_word(*claim));
                if let Some((n, san, uci)) = intended {
                    let _ = write!(out, " with {} {san} {uci}", move_text(*n, *by));
                }
                out.push_str(if *upheld { " upheld" } else { " refused" });
                out
            }
            Event::Resign { by } => format!("resign {}", side_word(*by)),
            Event::Clock(c) => match *c {
                ClockEvent::Press {
                    by,
                    white_ms,
                    black_ms,
                } => format!(
                    "clock press {} {}",
                    side_word(by),
                    times(white_ms, black_ms)
                ),
                ClockEvent::Reading {
                    white_ms,
                    black_ms,
                    running,
                } => format!(
                    "clock reading {} running={}",
                    times(white_ms, black_ms),
                    running.map_or("none", side_word)
                ),
                ClockEvent::Started {
                    white_ms,
                    black_ms,
                    running,
                } => format!(
                    "clock start {} running={}",
                    times(white_ms, black_ms),
                    side_word(running)
                ),
                ClockEvent::Stopped { white_ms, black_ms } => {
                    format!("clock stop {}", times(white_ms, black_ms))
                }
                ClockEvent::Adjusted {
                    side,
                    delta_ms,
                    white_ms,
                    black_ms,
                } => format!(
                    "clock adjust {} {}{} {}",
                    side_word(side),
                    if delta_ms >= 0 { "+" } else { "" },
                    format_ms(delta_ms),
                    times(white_ms, black_ms)
                ),
                ClockEvent::Flag {
                    side,
                    white_ms,
                    black_ms,
                } => format!(
                    "clock flag {} {}",
                    side_word(side),
                    times(white_ms, black_ms)
                ),
                ClockEvent::AwaitingPress {
                    by,
                    white_ms,
                    black_ms,
                } => format!(
                    "clock awaiting-press {} {}",
                    side_word(by),
                    times(white_ms, black_ms)
                ),
            },
            Event::Penalty(p) => format!(
                "penalty {} {} white={}{} black={}{} note={}",
                side_word(p.against),
                token_word(&p.reason),
                if p.white_delta_ms >= 0 { "+" } else { "" },
                format_ms(p.white_delta_ms),
                if p.black_delta_ms >= 0 { "+" } else { "" },
                format_ms(p.black_delta_ms),
                quote(&p.note)
            ),
            Event::Arbiter { action, note } => {
                format!("arbiter {} note={}", token_word(action), quote(note))
            }
            Event::Mismatch {
                board: BoardOf::Player,
                diff,
            } => format!("mismatch {}", quote(diff)),
            Event::Mismatch {
                board: BoardOf::Opponent,
                diff,
            } => format!("mismatch opponent {}", quote(diff)),
            Event::MismatchResolved {
                board: BoardOf::Player,
            } => "mismatch-resolved".into(),
            Event::MismatchResolved {
                board: BoardOf::Opponent,
            } => "mismatch-resolved opponent".into(),
            Event::BoardAwait { board, uci } => format!(
                "board await {}{}",
                board_word(*board),
                uci.as_deref().map_or("none".into(), token_word)
            ),
            Event::BoardDone { board, uci } => {
                format!("board done {}{}", board_word(*board), token_word(uci))
            }
            Event::Result { outcome, reason } => {
                format!("result {} {}", outcome_str(*outcome), token_word(reason))
            }
            Event::SetAside => "set-aside".into(),
            Event::Resumed => "resumed".into(),
            Event::Note { text } => format!("note {}", quote(text)),
            // `token=sha256:HEX code=none`: the shape of the records of
            // before, whose readers take it as a token they cannot use.
            Event::Companion { token_sha256 } => format!(
                "companion token={} code=none",
                token_sha256
                    .as_deref()
                    .map_or("none".into(), |d| format!("sha256:{}", token_word(d)))
            ),
        }
    }

    /// Reads an event's text; `None` when it is not one this version knows
    /// or it is malformed.
    pub fn from_text(s: &str) -> Option<Event> {
        let t = tokens(s)?;
        let w: Vec<&str> = t.iter().map(String::as_str).collect();
        let kv = |i: usize| -> Option<(i64, i64)> {
            let white = parse_ms(w.get(i)?.strip_prefix("white=")?)?;
            let black = parse_ms(w.get(i + 1)?.strip_prefix("black=")?)?;
            Some((white, black))
        };
        let ev = match *w.first()? {
            "start" => {
                let mut s = StartInfo::default();
                for tok in &w[1..] {
                    let (k, v) = tok.split_once('=')?;
                    let v = v.to_string();
                    match k {
                        "white" => s.white = v,
                        "black" => s.black = v,
                        "event" => s.event = v,
                        "site" => s.site = v,
                        "round" => s.round = v,
                        "date" => s.date = v,
                        "fen" => s.fen = Some(v),
                        "time-control" => s.time_control = Some(v),
                        "clock" => s.clock = Some(v),
                        "rules" => s.rules = Some(v),
                        "board" => s.board = Some(v),
                        _ => s.extra.push((k.to_string(), v)),
                    }
                }
                Event::Start(Box::new(s))
            }
            "move" if w.len() == 4 => {
                let (number, by) = parse_move_number(w[1])?;
                Event::Move {
                    number,
                    by,
                    san: w[2].into(),
                    uci: w[3].into(),
                }
            }
            "takeback" if w.len() == 1 => Event::TakeBack,
            "offer" if w.len() == 2 => Event::Offer {
                by: parse_side(w[1])?,
            },
            "accept" if w.len() == 2 => Event::Accept {
                by: parse_side(w[1])?,
            },
            "decline" if w.len() == 2 => Event::Decline {
                by: parse_side(w[1])?,
            },
            "claim" => {
                let by = parse_side(w.get(1)?)?;
                let claim = parse_claim(w.get(2)?)?;
                let (intended, verdict) = match w.len() {
                    4 => (None, w[3]),
                    8 if w[3] == "with" => {
                        let (n, mover) = parse_move_number(w[4])?;
                        if mover != by {
                            return None;
                        }
                        (Some((n, w[5].to_string(), w[6].to_string())), w[7])
                    }
                    _ => return None,
                };
                let upheld = match verdict {
                    "upheld" => true,
                    "refused" => false,
                    _ => return None,
                };
                Event::Claim {
                    by,
                    claim,
                    intended,
                    upheld,
                }
            }
            "resign" if w.len() == 2 => Event::Resign {
                by: parse_side(w[1])?,
            },
            "clock" => {
                let c = match *w.get(1)? {
                    "press" if w.len() == 5 => {
                        let (white_ms, black_ms) = kv(3)?;
                        ClockEvent::Press {
                            by: parse_side(w[2])?,
                            white_ms,
                            black_ms,
                        }
                    }
                    "reading" if w.len() == 5 => {
                        let (white_ms, black_ms) = kv(2)?;
                        let running = match w[4].strip_prefix("running=")? {
                            "none" => None,
                            s => Some(parse_side(s)?),
                        };
                        ClockEvent::Reading {
                            white_ms,
                            black_ms,
                            running,
                        }
                    }
                    "start" if w.len() == 5 => {
                        let (white_ms, black_ms) = kv(2)?;
                        ClockEvent::Started {
                            white_ms,
                            black_ms,
                            running: parse_side(w[4].strip_prefix("running=")?)?,
                        }
                    }
                    "stop" if w.len() == 4 => {
                        let (white_ms, black_ms) = kv(2)?;
                        ClockEvent::Stopped { white_ms, black_ms }
                    }
                    "adjust" if w.len() == 6 => {
                        let (white_ms, black_ms) = kv(4)?;
                        ClockEvent::Adjusted {
                            side: parse_side(w[2])?,
                            delta_ms: parse_ms(w[3])?,
                            white_ms,
                            black_ms,
                        }
                    }
                    "flag" if w.len() == 5 => {
                        let (white_ms, black_ms) = kv(3)?;
                        ClockEvent::Flag {
                            side: parse_side(w[2])?,
                            white_ms,
                            black_ms,
                        }
                    }
                    "awaiting-press" if w.len() == 5 => {
                        let (white_ms, black_ms) = kv(3)?;
                        ClockEvent::AwaitingPress {
                            by: parse_side(w[2])?,
                            white_ms,
                            black_ms,
                        }
                    }
                    _ => return None,
                };
                Event::Clock(c)
            }
            "penalty" if w.len() == 6 => {
                let (white_delta_ms, black_delta_ms) = kv(3)?;
                Event::Penalty(Penalty {
                    against: parse_side(w[1])?,
                    reason: w[2].into(),
                    white_delta_ms,
                    black_delta_ms,
                    note: w[5].strip_prefix("note=")?.into(),
                })
            }
            "arbiter" if w.len() == 3 => Event::Arbiter {
                action: w[1].into(),
                note: w[2].strip_prefix("note=")?.into(),
            },
            "mismatch" if w.len() == 2 => Event::Mismatch {
                board: BoardOf::Player,
                diff: w[1].into(),
            },
            "mismatch" if w.len() == 3 && w[1] == "opponent" => Event::Mismatch {
                board: BoardOf::Opponent,
                diff: w[2].into(),
            },
            "mismatch-resolved" if w.len() == 1 => Event::MismatchResolved {
                board: BoardOf::Player,
            },
            "mismatch-resolved" if w.len() == 2 && w[1] == "opponent" => Event::MismatchResolved {
                board: BoardOf::Opponent,
            },
            "board" if (w.len() == 3 || (w.len() == 4 && w[2] == "opponent")) => {
                let board = if w.len() == 4 {
                    BoardOf::Opponent
                } else {
                    BoardOf::Player
                };
                let uci = w[w.len() - 1];
                match w[1] {
                    "await" => Event::BoardAwait {
                        board,
                        uci: (uci != "none").then(|| uci.to_owned()),
                    },
                    "done" => Event::BoardDone {
                        board,
                        uci: uci.into(),
                    },
                    _ => return None,
                }
            }
            "result" if w.len() == 3 => Event::Result {
                outcome: parse_outcome(w[1])?,
                reason: w[2].into(),
            },
            "set-aside" if w.len() == 1 => Event::SetAside,
            "resumed" if w.len() == 1 => Event::Resumed,
            "note" if w.len() == 2 => Event::Note { text: w[1].into() },
            "companion" if w.len() == 3 => {
                let token = w[1].strip_prefix("token=")?;
                // The code is not used (a journal of before held it in
                // the clear; a restarted hector draws a new one).
                w[2].strip_prefix("code=")?;
                Event::Companion {
                    token_sha256: match token {
                        "none" => None,
                        t => Some(match t.strip_prefix("sha256:") {
                            Some(digest) => digest.to_owned(),
                            // A journal of before: the token in the clear,
                            // kept in memory as its digest only.
                            None => sha256_hex(t),
                        }),
                    },
                }
            }
            _ => return None,
        };
        Some(ev)
    }
}

/// The SHA-256 of a companion token read in the clear from a journal of
/// before, as 64 lower-case hex digits (the gate's `token_sha256`).
fn sha256_hex(token: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `opponent ` before what is said of the opponent's board.
fn board_word(board: BoardOf) -> &'static str {
    match board {
        BoardOf::Player => "",
        BoardOf::Opponent => "opponent ",
    }
}

/// A word usable as one token: spaces and quotes replaced by `-`.
fn token_word(s: &str) -> String {
    let w: String = s
        .chars()
        .map(|c| {
            if c.is_whitespace() || c == '"' || c == '\\' || c.is_control() {
                '-'
            } else {
                c
            }
        })
        .collect();
    if w.is_empty() { "-".into() } else { w }
}

fn timestamp(at: OffsetDateTime) -> String {
    let fmt = time::macros::format_description!(
        "[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z"
    );
    at.to_offset(time::UtcOffset::UTC)
        .format(&fmt)
        .unwrap_or_else(|_| "1970-01-01T00:00:00.000Z".into())
}

/// One record as a line, with checksum and line feed.
pub fn format_record(seq: u64, at: OffsetDateTime, event: &Event) -> String {
    let body = format!("{seq} {} {}", timestamp(at), event.to_text());
    let crc = crc32fast::hash(body.as_bytes());
    format!("{body} ~{crc:08x}\n")
}

/// Reads one line (without its line feed); `None` when damaged,
/// `Some(Err(seq))` when whole but of an unknown kind (its number kept:
/// it counts in the sequence).
fn parse_line(line: &str) -> Option<Result<Record, u64>> {
    let (body, crc) = line.rsplit_once(" ~")?;
    let crc = u32::from_str_radix(crc, 16).ok()?;
    if crc != crc32fast::hash(body.as_bytes()) {
        return None;
    }
    let mut parts = body.splitn(3, ' ');
    let seq: u64 = parts.next()?.parse().ok()?;
    let at = OffsetDateTime::parse(parts.next()?, &Rfc3339).ok()?;
    let rest = parts.next()?;
    Some(
        Event::from_text(rest)
            .map(|event| Record { seq, at, event })
            .ok_or(seq),
    )
}

/// One line of a journal, read.
enum Line {
    Record(Record),
    /// Whole, of a kind this version does not know, with its number.
    Unknown(u64),
    Comment,
    /// Cut off, damaged, not text.
    Bad,
}

/// Reads a journal's text.  Never fails: reading stops at the first line
/// that cannot be used — torn (the last line, cut off), damaged (its
/// checksum or form is wrong, bytes that are not text) or out of sequence
/// (its number is not the next one: a record is missing) — with a warning.
/// The whole, checked records after that line are read too, into
/// [`Parsed::after`], for the player to keep if they continue the game.
pub fn parse_journal(text: &[u8]) -> Parsed {
    let mut records: Vec<Record> = Vec::new();
    let mut warnings = Vec::new();
    let mut after = Vec::new();
    let mut good_len = 0;
    let mut pos = 0;
    let mut line_no = 0;
    let mut stopped = false;
    let mut last_seq = 0;
    while pos < text.len() {
        line_no += 1;
        let (line, next, whole) = match text[pos..].iter().position(|&b| b == b'\n') {
            Some(i) => (&text[pos..pos + i], pos + i + 1, true),
            None => (&text[pos..], text.len(), false),
        };
        pos = next;
        let last = next >= text.len();
        let parsed = if !whole {
            Line::Bad
        } else {
            match std::str::from_utf8(line) {
                Err(_) => Line::Bad,
                Ok(l) if l.starts_with('#') || l.trim().is_empty() => Line::Comment,
                Ok(l) => match parse_line(l) {
                    None => Line::Bad,
                    Some(Ok(r)) => Line::Record(r),
                    Some(Err(seq)) => Line::Unknown(seq),
                },
            }
        };
        if stopped {
            if let Line::Record(r) = parsed {
                after.push((line_no, r));
            }
            continue;
        }
        let seq = match &parsed {
            Line::Record(r) => Some(r.seq),
            Line::Unknown(seq) => Some(*seq),
            _ => None,
        };
        if let Some(found) = seq
            && found != last_seq + 1
        {
            warnings.push(ReadWarning::OutOfSequence {
                line: line_no,
                expected: last_seq + 1,
                found,
            });
            if let Line::Record(r) = parsed {
                after.push((line_no, r));
            }
            stopped = true;
            continue;
        }
        match parsed {
            Line::Record(r) => {
                last_seq = r.seq;
                records.push(r);
                good_len = next;
            }
            Line::Unknown(seq) => {
                last_seq = seq;
                warnings.push(ReadWarning::Unknown { line: line_no });
                good_len = next;
            }
            Line::Comment => good_len = next,
            Line::Bad if last => {
                warnings.push(ReadWarning::Torn { line: line_no });
                stopped = true;
            }
            Line::Bad => {
                warnings.push(ReadWarning::Damaged { line: line_no });
                stopped = true;
            }
        }
    }
    Parsed {
        records,
        warnings,
        good_len,
        after,
        lines: line_no,
    }
}

#[cfg(test)]
mod tests {
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
        ]
    }

    fn journal_of(events: &[Event]) -> String {
        let mut s = format!("{HEADER}\n");
        for (i, e) in events.iter().enumerate() {
            s.push_str(&format_record(
                i as u64 + 1,
                datetime!(2026-11-22 19:23:46.120 UTC),
                e,
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
        assert!(text.contains("2 2026-11-22T19:23:46.120Z move 1. e4 e2e4 ~"));
        assert!(text.contains("clock press white white=1:29:45.123 black=1:30:00.000 ~"));
        assert!(text.contains("move 12... Qh4# d8h4 ~"));
        assert!(text.contains("claim black fifty-moves with 60... Kf7 e8f7 upheld ~"));
        assert!(text.contains("clock awaiting-press black white=0:01:01.000 black=0:00:59.500 ~"));
        assert!(text.contains("board await e7e5 ~"));
        assert!(text.contains("board done e7e5 ~"));
        assert!(text.contains("board await none ~"));
        assert!(text.contains("board await opponent g1f3 ~"));
        assert!(text.contains("board done opponent g1f3 ~"));
    }

    #[test]
    fn the_companion_record_holds_the_digest_and_no_code() {
        let digest = crate::companion::gate::token_sha256("0123456789abcdef0123456789abcdef");
        assert_eq!(sha256_hex("0123456789abcdef0123456789abcdef"), digest);
        let seat = Event::Companion {
            token_sha256: Some(digest.clone()),
        };
        assert_eq!(
            seat.to_text(),
            format!("companion token=sha256:{digest} code=none")
        );
        assert_eq!(
            Event::Companion { token_sha256: None }.to_text(),
            "companion token=none code=none"
        );
    }

    #[test]
    fn a_clear_token_of_an_older_journal_is_read_as_its_digest() {
        let token = "0123456789abcdef0123456789abcdef";
        let body = format!("1 2026-11-22T19:23:46.120Z companion token={token} code=4712");
        let line = format!("{body} ~{:08x}\n", crc32fast::hash(body.as_bytes()));
        let text = format!("{HEADER}\n{line}");
        let parsed = parse_journal(text.as_bytes());
        assert_eq!(parsed.warnings, vec![]);
        assert_eq!(
            parsed.records[0].event,
            Event::Companion {
                token_sha256: Some(crate::companion::gate::token_sha256(token))
            }
        );
        // Written again, neither the token nor the code is in it.
        let again = parsed.records[0].event.to_text();
        assert!(!again.contains(token) && !again.contains("4712"), "{again}");
        // A freed seat of before.
        assert_eq!(
            Event::from_text("companion token=none code=0815"),
            Some(Event::Companion { token_sha256: None })
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
        assert_eq!(p.warnings, vec![ReadWarning::Damaged { line: 4 }]);
    }

    #[test]
    fn an_unknown_kind_is_skipped_with_a_warning() {
        let mut text = journal_of(&all_kinds()[..2]);
        let body = "3 2026-11-22T19:23:47Z hover white";
        text.push_str(&format!(
            "{body} ~{:08x}\n",
            crc32fast::hash(body.as_bytes())
        ));
        text.push_str(&format_record(
            4,
            datetime!(2026-11-22 19:24:00 UTC),
            &Event::TakeBack,
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
        let line = format_record(1, datetime!(2026-01-01 0:00 UTC), &e);
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
        assert_eq!(p.warnings, vec![ReadWarning::Damaged { line: 4 }]);
        let after: Vec<(usize, u64)> = p.after.iter().map(|(l, r)| (*l, r.seq)).collect();
        assert_eq!(after, vec![(5, 3), (7, 4), (8, 5)]);
        assert_eq!(p.lines, 8);
    }

    /// A record of an unknown kind keeps its place in the numbering: the
    /// record after it is not out of sequence.
    #[test]
    fn an_unknown_kind_counts_in_the_sequence() {
        let mut text = journal_of(&all_kinds()[..2]);
        let body = "3 2026-11-22T19:23:47Z hover white";
        text.push_str(&format!(
            "{body} ~{:08x}\n",
            crc32fast::hash(body.as_bytes())
        ));
        text.push_str(&format_record(
            4,
            datetime!(2026-11-22 19:24:00 UTC),
            &Event::TakeBack,
        ));
        let p = parse_journal(text.as_bytes());
        assert_eq!(p.records.len(), 3);
        assert_eq!(p.first_unusable(), None);
    }
}
