//! The journal's line format: one event a line, readable by a person (an
//! arbiter can follow the moves with their times, D.2.9), checked by a
//! checksum, chained by SHA-256, parsed back without loss.  Sans-IO: text
//! in, values out.
//!
//! ```text
//! # hector scoresheet journal, format 2. One record a line: number, time (UTC), event, prev=SHA-256 of the line before, ~checksum.
//! 1 2026-11-22T19:23:46.120Z start white="Anna" black="Bob" … mode="rated" device="…" prev=5c1e… ~1c0f3a9e
//! 2 2026-11-22T19:24:01.003Z move 1. e4 e2e4 prev=9a47… ~5e0d8c11
//! 3 2026-11-22T19:24:01.010Z clock press white white=1:29:45.123 black=1:30:00.000 prev=… ~0a4b61f2
//! 4 2026-11-22T19:24:09.500Z move 1... e5 e7e5 prev=… ~…
//! 5 2026-11-22T19:24:12.000Z offer black prev=… ~…
//! 6 2026-11-22T19:30:00.000Z result 1/2-1/2 agreement prev=… ~…
//! ```
//!
//! Every record ends with `~` and the CRC-32 of the text before ` ~`, and
//! with a line feed; before that, `prev=` and the SHA-256 of the line
//! before it (the first record: of the header line), so a record changed,
//! removed, moved or put in breaks the chain at the line after it, and the
//! digest of the last line stands for the whole record (see
//! `scoresheet::verify`).  Journals of format 1 (before the chain) have
//! no `prev=` and are read as they always were.  A record without its
//! line feed or with a wrong checksum at the end of the file is torn (the
//! power went while it was being written): it is dropped with a warning;
//! a chain that does not hold is never taken for that.  Times of the clock
//! are `h:mm:ss.mmm` (milliseconds, exact; a leading `-` below zero).  Free
//! text is quoted with `\"`, `\\`, `\n` escapes, so a record is always one
//! line.
//!
//! Each part of a record (a side, a time, a move, a quoted text …) is a
//! type that writes itself with `Display` and reads itself back with
//! `FromStr`; [`Event`], [`StartInfo`], [`ClockEvent`], [`Penalty`] and
//! [`Action`] are written and read the same way, and reading says why a
//! line cannot be used ([`LineError`], [`EventError`]).

use std::fmt::{self, Write};
use std::str::FromStr;

use sha2::{Digest as _, Sha256};
use shakmaty::{Color, KnownOutcome};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::game::Claim;

/// The first line of every new journal (format 2: each record carries the
/// SHA-256 of the line before it).
pub const HEADER: &str = "# hector scoresheet journal, format 2. One record a line: number, time (UTC), event, prev=SHA-256 of the line before, ~checksum.";

/// The first line of the journals of before the chain (format 1): still
/// read, and continued in their own format.
pub const HEADER_1: &str = "# hector scoresheet journal, format 1. One record a line: number, time (UTC), event, ~checksum.";

/// Whether `bytes` begin as a journal of either format.
pub fn is_journal_start(bytes: &[u8]) -> bool {
    bytes.starts_with(HEADER.as_bytes()) || bytes.starts_with(HEADER_1.as_bytes())
}

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

/// The start record's keys of a scoresheet that proves itself (kept
/// among the start's other keys, as the online ones are).
pub mod start_key {
    /// The game's mode: `casual`, `rated`, `tournament`.
    pub const MODE: &str = "mode";
    /// The id of the device the game was kept on.
    pub const DEVICE: &str = "device";
}

/// A game's mode, as the start record keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameMode {
    /// Any game: every help is there.
    Casual,
    /// A rated game (`--rated`): no engine, hint or take-back.
    Rated,
    /// A tournament game with an arbiter (Article 11.3): nothing the
    /// position computes (not built yet: the record keeps room for it).
    Tournament,
}

impl fmt::Display for GameMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameMode::Casual => "casual",
            GameMode::Rated => "rated",
            GameMode::Tournament => "tournament",
        })
    }
}

impl FromStr for GameMode {
    type Err = EventError;
    fn from_str(s: &str) -> Result<Self, EventError> {
        match s {
            "casual" => Ok(GameMode::Casual),
            "rated" => Ok(GameMode::Rated),
            "tournament" => Ok(GameMode::Tournament),
            other => Err(EventError::Bad {
                part: Part::Word,
                found: other.to_owned(),
            }),
        }
    }
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

    /// The game's mode (casual, rated, tournament), if the record says.
    pub fn mode(&self) -> Option<GameMode> {
        self.extra_value(start_key::MODE)?.parse().ok()
    }

    /// Sets the game's mode.
    pub fn set_mode(&mut self, mode: GameMode) {
        self.set_extra(start_key::MODE, &mode.to_string());
    }

    /// The id of the device (this hector's data folder) the game was kept
    /// on, if the record says.
    pub fn device(&self) -> Option<&str> {
        self.extra_value(start_key::DEVICE)
            .filter(|v| !v.trim().is_empty())
    }

    /// Sets the device's id.
    pub fn set_device(&mut self, id: &str) {
        self.set_extra(start_key::DEVICE, id);
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
    /// A take-back asked of the opponent (issue 30: the scoresheet records
    /// everything that happened), and how it ended: one record when asked,
    /// one when answered.  An accepted one is followed by `takeback`.
    TakebackRequest {
        /// The side that asks.
        by: Color,
        /// Asked, or how it ended.
        answer: TakebackAnswer,
        /// The move asked to be taken back: number, side, SAN and UCI, as
        /// in [`Event::Move`].
        number: u32,
        /// The side whose move it is.
        mover: Color,
        /// The move in SAN.
        san: String,
        /// The move in UCI.
        uci: String,
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
    /// A player's action, for the arbiter's log of a tournament game: a
    /// question asked, allowed or refused; a move and how it was given;
    /// hector started or stopped.  Nothing in the game changes by it.
    Action(Action),
    /// A side (or the arbiter, `via=arbiter`) confirmed the result (8.7:
    /// the signatures on the scoresheet).
    Confirm {
        /// The side that confirms.
        by: Color,
        /// The result confirmed.
        outcome: KnownOutcome,
        /// How: in hector, on the page, by the arbiter.
        via: Via,
    },
}

/// Where a take-back request stands: asked, or how it ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TakebackAnswer {
    /// Asked, waiting for the answer.
    Asked,
    /// The opponent accepted (the move is taken back).
    Accepted,
    /// The opponent refused (the move stands).
    Refused,
    /// A move was made meanwhile: the request ended unanswered.
    Lapsed,
}

impl fmt::Display for TakebackAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TakebackAnswer::Asked => "asked",
            TakebackAnswer::Accepted => "accepted",
            TakebackAnswer::Refused => "refused",
            TakebackAnswer::Lapsed => "lapsed",
        })
    }
}

impl FromStr for TakebackAnswer {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        match s {
            "asked" => Ok(TakebackAnswer::Asked),
            "accepted" => Ok(TakebackAnswer::Accepted),
            "refused" => Ok(TakebackAnswer::Refused),
            "lapsed" => Ok(TakebackAnswer::Lapsed),
            _ => Err(()),
        }
    }
}

impl Field for TakebackAnswer {
    const PART: Part = Part::Result;
}

/// A player's action as the arbiter's log keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Action {
    /// Whose action.
    pub by: Color,
    /// What, as the action's name (`attackers`, `move`, `claim`, `pause`,
    /// `start`).
    pub what: String,
    /// What it was given (`e4`), or nothing.
    pub arg: String,
    /// How it was given.
    pub via: Via,
    /// Answered or done (`allowed`), or refused by the game's mode.
    pub allowed: bool,
}

/// How an action came: typed, a key, the board, the opponent's page, the
/// arbiter, hector itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Via {
    /// A line typed.
    Typed,
    /// A key of the full-screen view.
    Key,
    /// The tactile board.
    Board,
    /// The opponent's page.
    Page,
    /// The arbiter.
    Arbiter,
    /// hector itself (started, stopped, resumed).
    Hector,
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
        /// Why it cannot be used.
        why: LineError,
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
            | ReadWarning::Damaged { line, .. }
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
    /// The journal is chained (format 2): each record carries the digest
    /// of the line before it.
    pub chained: bool,
    /// A chained journal's digest of its last usable line (of the header
    /// when it has no record yet): what the next record carries, and what
    /// the whole usable record ends with.
    pub digest: Option<Digest>,
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

// ---------------------------------------------------------------------
// The codec.  Every part of a record's text is a type that writes itself
// (`Display`) and reads itself back (`FromStr`), side by side; a record
// kind is one `Display` arm and one reading function built of them, and
// reading says why a line failed ([`EventError`], [`LineError`]).

/// The part of a record that could not be read: what the player hears
/// when a saved game's record is damaged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Part {
    /// A side (`white`, `black`), or whose clock runs.
    Side,
    /// A time of the clock or a change of it.
    Time,
    /// A move: its number, SAN or UCI.
    Move,
    /// What a draw claim claims.
    Claim,
    /// A result or a verdict (`1-0`, `upheld`).
    Result,
    /// A quoted text, or a `key=value` of the start record.
    Text,
    /// A word (a reason, an arbiter's action, how an action was given).
    Word,
}

/// Why an event's text cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventError {
    /// No text at all.
    Empty,
    /// A quoted text without its closing quote, or with a bad escape.
    Quoting,
    /// A kind this version does not know (a newer hector's): skipped, not
    /// damage.
    UnknownKind(String),
    /// A part the kind needs is missing.
    Missing(Part),
    /// A part is there but cannot be read.
    Bad {
        /// Which part.
        part: Part,
        /// What stands there.
        found: String,
    },
    /// Words after the record's last part.
    Extra(String),
}

impl EventError {
    /// The part that failed (for a quoting error the text).
    pub fn part(&self) -> Option<Part> {
        match self {
            EventError::Missing(p) | EventError::Bad { part: p, .. } => Some(*p),
            EventError::Quoting => Some(Part::Text),
            EventError::Empty | EventError::UnknownKind(_) | EventError::Extra(_) => None,
        }
    }
}

impl fmt::Display for EventError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EventError::Empty => f.write_str("no event"),
            EventError::Quoting => f.write_str("a quoted text is not closed"),
            EventError::UnknownKind(k) => write!(f, "unknown kind of record {k:?}"),
            EventError::Missing(p) => write!(f, "the {p:?} is missing"),
            EventError::Bad { part, found } => write!(f, "{found:?} is not a {part:?}"),
            EventError::Extra(w) => write!(f, "{w:?} after the end of the record"),
        }
    }
}

impl std::error::Error for EventError {}

/// One part of a record's text: written by `Display`, read back by
/// `FromStr`; [`Field::PART`] names it when it cannot be read.
trait Field: fmt::Display + FromStr {
    const PART: Part;
}

/// A side: `white`, `black`.
struct SideWord(Color);

impl fmt::Display for SideWord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.0 {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

impl FromStr for SideWord {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        match s {
            "white" => Ok(SideWord(Color::White)),
            "black" => Ok(SideWord(Color::Black)),
            _ => Err(()),
        }
    }
}

impl Field for SideWord {
    const PART: Part = Part::Side;
}

/// Whose time runs: a side, or `none`.
struct Running(Option<Color>);

impl fmt::Display for Running {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(c) => SideWord(c).fmt(f),
            None => f.write_str("none"),
        }
    }
}

impl FromStr for Running {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        match s {
            "none" => Ok(Running(None)),
            s => Ok(Running(Some(s.parse::<SideWord>()?.0))),
        }
    }
}

impl Field for Running {
    const PART: Part = Part::Side;
}

/// A clock's time, `h:mm:ss.mmm` (see [`format_ms`]).
struct Ms(i64);

impl fmt::Display for Ms {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_ms(self.0))
    }
}

impl FromStr for Ms {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        parse_ms(s).map(Ms).ok_or(())
    }
}

impl Field for Ms {
    const PART: Part = Part::Time;
}

/// A change of a clock, always signed: `+0:02:00.000`, `-0:01:00.000`.
struct Delta(i64);

impl fmt::Display for Delta {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 >= 0 {
            f.write_str("+")?;
        }
        f.write_str(&format_ms(self.0))
    }
}

impl FromStr for Delta {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        parse_ms(s).map(Delta).ok_or(())
    }
}

impl Field for Delta {
    const PART: Part = Part::Time;
}

/// A move's number and side, as a scoresheet writes it: `12.`, `12...`.
struct MoveNo(u32, Color);

impl fmt::Display for MoveNo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.1 {
            Color::White => write!(f, "{}.", self.0),
            Color::Black => write!(f, "{}...", self.0),
        }
    }
}

impl FromStr for MoveNo {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        let (n, by) = match s.strip_suffix("...") {
            Some(n) => (n, Color::Black),
            None => (s.strip_suffix('.').ok_or(())?, Color::White),
        };
        Ok(MoveNo(n.parse().map_err(|_| ())?, by))
    }
}

impl Field for MoveNo {
    const PART: Part = Part::Move;
}

/// One word of free form (a reason, an action): spaces, quotes and
/// control characters become `-`, an empty word is `-`.
struct Word(String);

impl fmt::Display for Word {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&token_word(&self.0))
    }
}

impl FromStr for Word {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        Ok(Word(s.to_owned()))
    }
}

impl Field for Word {
    const PART: Part = Part::Word;
}

/// A move's SAN or UCI: one word.
struct MoveWord(String);

impl fmt::Display for MoveWord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&token_word(&self.0))
    }
}

impl FromStr for MoveWord {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        Ok(MoveWord(s.to_owned()))
    }
}

impl Field for MoveWord {
    const PART: Part = Part::Move;
}

/// Free text, quoted (see [`quote`]); the quotes are gone when it is read.
struct Text(String);

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&quote(&self.0))
    }
}

impl FromStr for Text {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        Ok(Text(s.to_owned()))
    }
}

impl Field for Text {
    const PART: Part = Part::Text;
}

/// What a claim claims: `threefold-repetition`, `fifty-moves`.
struct ClaimWord(Claim);

impl fmt::Display for ClaimWord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.0 {
            Claim::Repetition => "threefold-repetition",
            Claim::FiftyMoves => "fifty-moves",
        })
    }
}

impl FromStr for ClaimWord {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        match s {
            "threefold-repetition" => Ok(ClaimWord(Claim::Repetition)),
            "fifty-moves" => Ok(ClaimWord(Claim::FiftyMoves)),
            _ => Err(()),
        }
    }
}

impl Field for ClaimWord {
    const PART: Part = Part::Claim;
}

/// A claim's verdict: `upheld` or `refused`.
struct Verdict(bool);

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0 { "upheld" } else { "refused" })
    }
}

impl FromStr for Verdict {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        match s {
            "upheld" => Ok(Verdict(true)),
            "refused" => Ok(Verdict(false)),
            _ => Err(()),
        }
    }
}

impl Field for Verdict {
    const PART: Part = Part::Result;
}

/// An action's verdict: `allowed` or `refused`.
struct Allowed(bool);

impl fmt::Display for Allowed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0 { "allowed" } else { "refused" })
    }
}

impl FromStr for Allowed {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        match s {
            "allowed" => Ok(Allowed(true)),
            "refused" => Ok(Allowed(false)),
            _ => Err(()),
        }
    }
}

impl Field for Allowed {
    const PART: Part = Part::Result;
}

/// A result: `1-0`, `0-1`, `1/2-1/2`.
struct Outcome(KnownOutcome);

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.as_str())
    }
}

impl FromStr for Outcome {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        parse_outcome(s).map(Outcome).ok_or(())
    }
}

impl Field for Outcome {
    const PART: Part = Part::Result;
}

/// A result as the journal and PGN write it.
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

/// Splits a record's text into words: separated by spaces, `"…"` quoted
/// parts (also inside a word, as in `white="Anna B"`) unquoted.
fn words_of(s: &str) -> Result<Vec<String>, EventError> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = s.chars();
    let next = |chars: &mut std::str::Chars<'_>| chars.next().ok_or(EventError::Quoting);
    while let Some(ch) = chars.next() {
        match ch {
            ' ' => {
                if in_word {
                    out.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match next(&mut chars)? {
                        '"' => break,
                        '\\' => match next(&mut chars)? {
                            'n' => cur.push('\n'),
                            'r' => cur.push('\r'),
                            't' => cur.push('\t'),
                            'u' => {
                                if next(&mut chars)? != '{' {
                                    return Err(EventError::Quoting);
                                }
                                let mut hex = String::new();
                                loop {
                                    match next(&mut chars)? {
                                        '}' => break,
                                        h => hex.push(h),
                                    }
                                }
                                let c = u32::from_str_radix(&hex, 16)
                                    .ok()
                                    .and_then(char::from_u32)
                                    .ok_or(EventError::Quoting)?;
                                cur.push(c);
                            }
                            c => cur.push(c),
                        },
                        c => cur.push(c),
                    }
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        out.push(cur);
    }
    Ok(out)
}

/// The words of a record's text, read one part after the other.
struct Words<'a> {
    words: &'a [String],
    at: usize,
}

impl<'a> Words<'a> {
    fn new(words: &'a [String]) -> Words<'a> {
        Words { words, at: 0 }
    }

    /// Words not read yet.
    fn left(&self) -> usize {
        self.words.len() - self.at
    }

    fn next_word(&mut self, part: Part) -> Result<&'a str, EventError> {
        let w = self.words.get(self.at).ok_or(EventError::Missing(part))?;
        self.at += 1;
        Ok(w)
    }

    /// The next part.
    fn take<F: Field>(&mut self) -> Result<F, EventError> {
        let w = self.next_word(F::PART)?;
        w.parse().map_err(|_| EventError::Bad {
            part: F::PART,
            found: w.to_owned(),
        })
    }

    /// The next part, written `key=value`.
    fn keyed<F: Field>(&mut self, key: &str) -> Result<F, EventError> {
        let w = self.next_word(F::PART)?;
        w.strip_prefix(key)
            .and_then(|r| r.strip_prefix('='))
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| EventError::Bad {
                part: F::PART,
                found: w.to_owned(),
            })
    }

    /// Both sides' times, `white=… black=…`.
    fn times(&mut self) -> Result<(i64, i64), EventError> {
        Ok((self.keyed::<Ms>("white")?.0, self.keyed::<Ms>("black")?.0))
    }

    /// `word` when it is the next word and `then` more words follow it:
    /// read.
    fn optional(&mut self, word: &str, then: usize) -> bool {
        let here = self.left() == then + 1 && self.words.get(self.at).is_some_and(|w| w == word);
        if here {
            self.at += 1;
        }
        here
    }

    /// `opponent` before what is said of the opponent's board, when
    /// `then` more words follow it.
    fn board(&mut self, then: usize) -> BoardOf {
        if self.optional("opponent", then) {
            BoardOf::Opponent
        } else {
            BoardOf::Player
        }
    }

    /// Nothing may follow.
    fn end(&self) -> Result<(), EventError> {
        match self.words.get(self.at) {
            None => Ok(()),
            Some(w) => Err(EventError::Extra(w.clone())),
        }
    }
}

/// Both sides' times as a record writes them.
struct Times(i64, i64);

impl fmt::Display for Times {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "white={} black={}", Ms(self.0), Ms(self.1))
    }
}

/// `opponent ` before what is said of the opponent's board.
struct BoardWord(BoardOf);

impl fmt::Display for BoardWord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            BoardOf::Player => Ok(()),
            BoardOf::Opponent => f.write_str("opponent "),
        }
    }
}

/// A value that is read from the words of a record (after its kind).
trait ReadWords: Sized {
    fn read(w: &mut Words<'_>) -> Result<Self, EventError>;
}

/// Reads a whole text as one `T`.
fn read_all<T: ReadWords>(s: &str) -> Result<T, EventError> {
    let words = words_of(s)?;
    let mut w = Words::new(&words);
    let v = T::read(&mut w)?;
    w.end()?;
    Ok(v)
}

/// The start record's keys and values, in this order: the players, the
/// event, where, the round and the date always, then those that are set,
/// then the keys this version keeps without knowing them.
impl fmt::Display for StartInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        let mut kv = |f: &mut fmt::Formatter<'_>, k: &str, v: &str| {
            let sep = if first { "" } else { " " };
            first = false;
            // A key is one word without `=` (one read from a damaged file
            // may not be).
            let k = token_word(k).replace('=', "-");
            write!(f, "{sep}{k}={}", Text(v.to_owned()))
        };
        kv(f, "white", &self.white)?;
        kv(f, "black", &self.black)?;
        kv(f, "event", &self.event)?;
        kv(f, "site", &self.site)?;
        kv(f, "round", &self.round)?;
        kv(f, "date", &self.date)?;
        for (k, v) in [
            ("fen", &self.fen),
            ("time-control", &self.time_control),
            ("clock", &self.clock),
            ("rules", &self.rules),
            ("board", &self.board),
        ] {
            if let Some(v) = v {
                kv(f, k, v)?;
            }
        }
        for (k, v) in &self.extra {
            kv(f, k, v)?;
        }
        Ok(())
    }
}

impl ReadWords for StartInfo {
    fn read(w: &mut Words<'_>) -> Result<Self, EventError> {
        let mut s = StartInfo::default();
        while w.left() > 0 {
            let word = w.next_word(Part::Text)?;
            let (k, v) = word.split_once('=').ok_or_else(|| EventError::Bad {
                part: Part::Text,
                found: word.to_owned(),
            })?;
            let v = v.to_owned();
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
                _ => s.extra.push((k.to_owned(), v)),
            }
        }
        Ok(s)
    }
}

impl FromStr for StartInfo {
    type Err = EventError;
    fn from_str(s: &str) -> Result<Self, EventError> {
        read_all(s)
    }
}

/// A clock event without the word `clock`: `press white white=… black=…`.
impl fmt::Display for ClockEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ClockEvent::Press {
                by,
                white_ms,
                black_ms,
            } => write!(f, "press {} {}", SideWord(by), Times(white_ms, black_ms)),
            ClockEvent::Reading {
                white_ms,
                black_ms,
                running,
            } => write!(
                f,
                "reading {} running={}",
                Times(white_ms, black_ms),
                Running(running)
            ),
            ClockEvent::Started {
                white_ms,
                black_ms,
                running,
            } => write!(
                f,
                "start {} running={}",
                Times(white_ms, black_ms),
                SideWord(running)
            ),
            ClockEvent::Stopped { white_ms, black_ms } => {
                write!(f, "stop {}", Times(white_ms, black_ms))
            }
            ClockEvent::Adjusted {
                side,
                delta_ms,
                white_ms,
                black_ms,
            } => write!(
                f,
                "adjust {} {} {}",
                SideWord(side),
                Delta(delta_ms),
                Times(white_ms, black_ms)
            ),
            ClockEvent::Flag {
                side,
                white_ms,
                black_ms,
            } => write!(f, "flag {} {}", SideWord(side), Times(white_ms, black_ms)),
            ClockEvent::AwaitingPress {
                by,
                white_ms,
                black_ms,
            } => write!(
                f,
                "awaiting-press {} {}",
                SideWord(by),
                Times(white_ms, black_ms)
            ),
        }
    }
}

impl ReadWords for ClockEvent {
    fn read(w: &mut Words<'_>) -> Result<Self, EventError> {
        let what = w.next_word(Part::Word)?;
        Ok(match what {
            "press" => {
                let by = w.take::<SideWord>()?.0;
                let (white_ms, black_ms) = w.times()?;
                ClockEvent::Press {
                    by,
                    white_ms,
                    black_ms,
                }
            }
            "reading" => {
                let (white_ms, black_ms) = w.times()?;
                ClockEvent::Reading {
                    white_ms,
                    black_ms,
                    running: w.keyed::<Running>("running")?.0,
                }
            }
            "start" => {
                let (white_ms, black_ms) = w.times()?;
                ClockEvent::Started {
                    white_ms,
                    black_ms,
                    running: w.keyed::<SideWord>("running")?.0,
                }
            }
            "stop" => {
                let (white_ms, black_ms) = w.times()?;
                ClockEvent::Stopped { white_ms, black_ms }
            }
            "adjust" => {
                let side = w.take::<SideWord>()?.0;
                let delta_ms = w.take::<Delta>()?.0;
                let (white_ms, black_ms) = w.times()?;
                ClockEvent::Adjusted {
                    side,
                    delta_ms,
                    white_ms,
                    black_ms,
                }
            }
            "flag" => {
                let side = w.take::<SideWord>()?.0;
                let (white_ms, black_ms) = w.times()?;
                ClockEvent::Flag {
                    side,
                    white_ms,
                    black_ms,
                }
            }
            "awaiting-press" => {
                let by = w.take::<SideWord>()?.0;
                let (white_ms, black_ms) = w.times()?;
                ClockEvent::AwaitingPress {
                    by,
                    white_ms,
                    black_ms,
                }
            }
            other => {
                return Err(EventError::Bad {
                    part: Part::Word,
                    found: other.to_owned(),
                });
            }
        })
    }
}

impl FromStr for ClockEvent {
    type Err = EventError;
    fn from_str(s: &str) -> Result<Self, EventError> {
        read_all(s)
    }
}

/// A penalty without the word `penalty`: `white illegal-move white=+0:00:00.000
/// black=+0:02:00.000 note="7.5.3"`.
impl fmt::Display for Penalty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} white={} black={} note={}",
            SideWord(self.against),
            Word(self.reason.clone()),
            Delta(self.white_delta_ms),
            Delta(self.black_delta_ms),
            Text(self.note.clone())
        )
    }
}

impl ReadWords for Penalty {
    fn read(w: &mut Words<'_>) -> Result<Self, EventError> {
        Ok(Penalty {
            against: w.take::<SideWord>()?.0,
            reason: w.take::<Word>()?.0,
            white_delta_ms: w.keyed::<Delta>("white")?.0,
            black_delta_ms: w.keyed::<Delta>("black")?.0,
            note: w.keyed::<Text>("note")?.0,
        })
    }
}

impl FromStr for Penalty {
    type Err = EventError;
    fn from_str(s: &str) -> Result<Self, EventError> {
        read_all(s)
    }
}

/// How an action was given: its word in the record.
impl fmt::Display for Via {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Via::Typed => "typed",
            Via::Key => "key",
            Via::Board => "board",
            Via::Page => "page",
            Via::Arbiter => "arbiter",
            Via::Hector => "hector",
        })
    }
}

impl FromStr for Via {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        Ok(match s {
            "typed" => Via::Typed,
            "key" => Via::Key,
            "board" => Via::Board,
            "page" => Via::Page,
            "arbiter" => Via::Arbiter,
            "hector" => Via::Hector,
            _ => return Err(()),
        })
    }
}

impl Field for Via {
    const PART: Part = Part::Word;
}

/// An action without the word `action`: `white attackers "e4" via=typed
/// refused`.
impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} via={} {}",
            SideWord(self.by),
            Word(self.what.clone()),
            Text(self.arg.clone()),
            self.via,
            Allowed(self.allowed)
        )
    }
}

impl ReadWords for Action {
    fn read(w: &mut Words<'_>) -> Result<Self, EventError> {
        Ok(Action {
            by: w.take::<SideWord>()?.0,
            what: w.take::<Word>()?.0,
            arg: w.take::<Text>()?.0,
            via: w.keyed::<Via>("via")?,
            allowed: w.take::<Allowed>()?.0,
        })
    }
}

impl FromStr for Action {
    type Err = EventError;
    fn from_str(s: &str) -> Result<Self, EventError> {
        read_all(s)
    }
}

/// An event's text in a record (without number, time, chain and checksum).
impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Start(s) => write!(f, "start {s}"),
            Event::Move {
                number,
                by,
                san,
                uci,
            } => write!(
                f,
                "move {} {} {}",
                MoveNo(*number, *by),
                MoveWord(san.clone()),
                MoveWord(uci.clone())
            ),
            Event::TakeBack => f.write_str("takeback"),
            Event::Offer { by } => write!(f, "offer {}", SideWord(*by)),
            Event::Accept { by } => write!(f, "accept {}", SideWord(*by)),
            Event::Decline { by } => write!(f, "decline {}", SideWord(*by)),
            Event::Claim {
                by,
                claim,
                intended,
                upheld,
            } => {
                write!(f, "claim {} {}", SideWord(*by), ClaimWord(*claim))?;
                if let Some((n, san, uci)) = intended {
                    write!(
                        f,
                        " with {} {} {}",
                        MoveNo(*n, *by),
                        MoveWord(san.clone()),
                        MoveWord(uci.clone())
                    )?;
                }
                write!(f, " {}", Verdict(*upheld))
            }
            Event::Resign { by } => write!(f, "resign {}", SideWord(*by)),
            Event::Clock(c) => write!(f, "clock {c}"),
            Event::Penalty(p) => write!(f, "penalty {p}"),
            Event::Arbiter { action, note } => write!(
                f,
                "arbiter {} note={}",
                Word(action.clone()),
                Text(note.clone())
            ),
            Event::Mismatch { board, diff } => {
                write!(f, "mismatch {}{}", BoardWord(*board), Text(diff.clone()))
            }
            Event::MismatchResolved { board } => match board {
                BoardOf::Player => f.write_str("mismatch-resolved"),
                BoardOf::Opponent => f.write_str("mismatch-resolved opponent"),
            },
            Event::BoardAwait { board, uci } => match uci {
                Some(uci) => write!(
                    f,
                    "board await {}{}",
                    BoardWord(*board),
                    MoveWord(uci.clone())
                ),
                None => write!(f, "board await {}none", BoardWord(*board)),
            },
            Event::BoardDone { board, uci } => write!(
                f,
                "board done {}{}",
                BoardWord(*board),
                MoveWord(uci.clone())
            ),
            Event::Result { outcome, reason } => {
                write!(f, "result {} {}", Outcome(*outcome), Word(reason.clone()))
            }
            Event::SetAside => f.write_str("set-aside"),
            Event::Resumed => f.write_str("resumed"),
            Event::Note { text } => write!(f, "note {}", Text(text.clone())),
            Event::TakebackRequest {
                by,
                answer,
                number,
                mover,
                san,
                uci,
            } => write!(
                f,
                "takeback-request {} {answer} {} {} {}",
                SideWord(*by),
                MoveNo(*number, *mover),
                MoveWord(san.clone()),
                MoveWord(uci.clone())
            ),
            // `token=sha256:HEX code=none`: the shape of the records of
            // before, whose readers take it as a token they cannot use.
            Event::Companion { token_sha256 } => match token_sha256 {
                Some(d) => write!(f, "companion token=sha256:{} code=none", Word(d.clone())),
                None => f.write_str("companion token=none code=none"),
            },
            Event::Action(a) => write!(f, "action {a}"),
            Event::Confirm { by, via, outcome } => write!(
                f,
                "confirm {} {} via={via}",
                SideWord(*by),
                Outcome(*outcome)
            ),
        }
    }
}

impl FromStr for Event {
    type Err = EventError;

    /// Reads an event's text; the error says why it is not one (a kind
    /// this version does not know is [`EventError::UnknownKind`]).
    fn from_str(s: &str) -> Result<Self, EventError> {
        let words = words_of(s)?;
        let mut w = Words::new(&words);
        let kind = w.next_word(Part::Word).map_err(|_| EventError::Empty)?;
        let ev = match kind {
            "start" => Event::Start(Box::new(StartInfo::read(&mut w)?)),
            "move" => {
                let MoveNo(number, by) = w.take()?;
                Event::Move {
                    number,
                    by,
                    san: w.take::<MoveWord>()?.0,
                    uci: w.take::<MoveWord>()?.0,
                }
            }
            "takeback" => Event::TakeBack,
            "offer" => Event::Offer {
                by: w.take::<SideWord>()?.0,
            },
            "accept" => Event::Accept {
                by: w.take::<SideWord>()?.0,
            },
            "decline" => Event::Decline {
                by: w.take::<SideWord>()?.0,
            },
            "claim" => {
                let by = w.take::<SideWord>()?.0;
                let claim = w.take::<ClaimWord>()?.0;
                let intended = if w.optional("with", 4) {
                    let no: MoveNo = w.take()?;
                    if no.1 != by {
                        return Err(EventError::Bad {
                            part: Part::Move,
                            found: no.to_string(),
                        });
                    }
                    Some((no.0, w.take::<MoveWord>()?.0, w.take::<MoveWord>()?.0))
                } else {
                    None
                };
                let upheld = w.take::<Verdict>()?.0;
                Event::Claim {
                    by,
                    claim,
                    intended,
                    upheld,
                }
            }
            "resign" => Event::Resign {
                by: w.take::<SideWord>()?.0,
            },
            "clock" => Event::Clock(ClockEvent::read(&mut w)?),
            "penalty" => Event::Penalty(Penalty::read(&mut w)?),
            "arbiter" => Event::Arbiter {
                action: w.take::<Word>()?.0,
                note: w.keyed::<Text>("note")?.0,
            },
            "mismatch" => Event::Mismatch {
                board: w.board(1),
                diff: w.take::<Text>()?.0,
            },
            "mismatch-resolved" => Event::MismatchResolved { board: w.board(0) },
            "board" => {
                let what = w.next_word(Part::Word)?;
                let board = w.board(1);
                let uci = w.take::<MoveWord>()?.0;
                match what {
                    "await" => Event::BoardAwait {
                        board,
                        uci: (uci != "none").then_some(uci),
                    },
                    "done" => Event::BoardDone { board, uci },
                    other => {
                        return Err(EventError::Bad {
                            part: Part::Word,
                            found: other.to_owned(),
                        });
                    }
                }
            }
            "result" => Event::Result {
                outcome: w.take::<Outcome>()?.0,
                reason: w.take::<Word>()?.0,
            },
            "set-aside" => Event::SetAside,
            "resumed" => Event::Resumed,
            "note" => Event::Note {
                text: w.take::<Text>()?.0,
            },
            "takeback-request" => {
                let by = w.take::<SideWord>()?.0;
                let answer = w.take::<TakebackAnswer>()?;
                let MoveNo(number, mover) = w.take()?;
                Event::TakebackRequest {
                    by,
                    answer,
                    number,
                    mover,
                    san: w.take::<MoveWord>()?.0,
                    uci: w.take::<MoveWord>()?.0,
                }
            }
            "companion" => {
                let token = w.keyed::<Word>("token")?.0;
                // The code is not used (a journal of before held it in
                // the clear; a restarted hector draws a new one).
                let _: Word = w.keyed("code")?;
                Event::Companion {
                    token_sha256: match token.as_str() {
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
            "action" => Event::Action(Action::read(&mut w)?),
            "confirm" => Event::Confirm {
                by: w.take::<SideWord>()?.0,
                outcome: w.take::<Outcome>()?.0,
                via: w.keyed::<Via>("via")?,
            },
            other => return Err(EventError::UnknownKind(other.to_owned())),
        };
        w.end()?;
        Ok(ev)
    }
}

/// The SHA-256 of a companion token read in the clear from a journal of
/// before, as 64 lower-case hex digits (the gate's `token_sha256`).
fn sha256_hex(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// Bytes as lower-case hex digits.
pub fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
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

/// Why a journal's line cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineError {
    /// The last line has no line feed: it was being written when the
    /// program or the machine stopped.
    Cut,
    /// Bytes that are not text.
    NotText,
    /// No checksum at the end (` ~` and eight hex digits).
    NoChecksum,
    /// The checksum does not match the line: changed or damaged on disk.
    Checksum,
    /// A chained journal's record without the digest of the line before.
    NoChain,
    /// The digest of the line before is not the one the record carries:
    /// a record before it was changed, removed or moved, or this one was
    /// put here.
    Chain,
    /// The record's number cannot be read.
    Number,
    /// The record's time cannot be read.
    Time,
    /// The event cannot be read.
    Event(EventError),
}

impl LineError {
    /// Whether a write cut short can explain it on the last line (which
    /// is then torn, not damaged): anything but a chain that does not
    /// hold, which no power cut makes.
    pub fn can_be_torn(&self) -> bool {
        !matches!(self, LineError::NoChain | LineError::Chain)
    }
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::Cut => f.write_str("the line has no end"),
            LineError::NotText => f.write_str("the line is not text"),
            LineError::NoChecksum => f.write_str("the line has no checksum"),
            LineError::Checksum => f.write_str("the checksum does not match"),
            LineError::NoChain => f.write_str("the digest of the line before is missing"),
            LineError::Chain => f.write_str("the digest of the line before does not match"),
            LineError::Number => f.write_str("the record's number cannot be read"),
            LineError::Time => f.write_str("the record's time cannot be read"),
            LineError::Event(e) => write!(f, "the event cannot be read: {e}"),
        }
    }
}

impl std::error::Error for LineError {}

/// A SHA-256 digest: of a journal's line, with its line feed.
pub type Digest = [u8; 32];

/// The digest of a line (its bytes and its line feed).
pub fn line_digest(line: &[u8]) -> Digest {
    Sha256::digest(line).into()
}

/// The word before a chained record's digest of the line before it.
const PREV: &str = " prev=";

/// One record as a line, with checksum and line feed; `prev`: the digest
/// of the line before it, in a chained journal.
pub fn format_record(seq: u64, at: OffsetDateTime, event: &Event, prev: Option<&Digest>) -> String {
    let mut body = format!("{seq} {} {event}", timestamp(at));
    if let Some(d) = prev {
        body.push_str(PREV);
        body.push_str(&hex(d));
    }
    let crc = crc32fast::hash(body.as_bytes());
    format!("{body} ~{crc:08x}\n")
}

/// A whole line read.
enum Read {
    Record(Record),
    /// Of a kind this version does not know, with its number (it counts in
    /// the sequence).
    Unknown(u64),
}

impl Read {
    fn seq(&self) -> u64 {
        match self {
            Read::Record(r) => r.seq,
            Read::Unknown(seq) => *seq,
        }
    }
}

/// Reads one line (without its line feed); in a chained journal, with the
/// digest of the line before that it carries (checked by the caller,
/// after the record's number).
fn parse_line(line: &str, chained: bool) -> Result<(Read, Option<&str>), LineError> {
    let (body, crc) = line.rsplit_once(" ~").ok_or(LineError::NoChecksum)?;
    if crc.len() != 8 {
        return Err(LineError::NoChecksum);
    }
    let crc = u32::from_str_radix(crc, 16).map_err(|_| LineError::NoChecksum)?;
    if crc != crc32fast::hash(body.as_bytes()) {
        return Err(LineError::Checksum);
    }
    let (body, prev) = if chained {
        let (rest, prev) = body.rsplit_once(PREV).ok_or(LineError::NoChain)?;
        (rest, Some(prev))
    } else {
        (body, None)
    };
    let mut parts = body.splitn(3, ' ');
    let seq: u64 = parts
        .next()
        .and_then(|s| s.parse().ok())
        .ok_or(LineError::Number)?;
    let at = parts
        .next()
        .and_then(|s| OffsetDateTime::parse(s, &Rfc3339).ok())
        .ok_or(LineError::Time)?;
    let read = match parts.next().unwrap_or_default().parse::<Event>() {
        Ok(event) => Read::Record(Record { seq, at, event }),
        Err(EventError::UnknownKind(_)) => Read::Unknown(seq),
        Err(e) => return Err(LineError::Event(e)),
    };
    Ok((read, prev))
}

/// One line of a journal, read.
enum Line {
    /// A whole record, and the digest of the line before that it carries.
    Read(Read, Option<String>),
    Comment,
    Bad(LineError),
}

/// Reads a journal's text.  Never fails: reading stops at the first line
/// that cannot be used — torn (the last line, cut off), damaged (its
/// checksum, its chain or its form is wrong, bytes that are not text) or
/// out of sequence (its number is not the next one: a record is missing)
/// — with a warning that says why.  The whole, checked records after that
/// line are read too, into [`Parsed::after`], for the player to keep if
/// they continue the game.
///
/// A journal that begins with [`HEADER`] is chained: every record carries
/// the SHA-256 of the line before it (the first, of the header), checked
/// here.  One that begins otherwise (format 1, before the chain) is read
/// as it always was.
pub fn parse_journal(text: &[u8]) -> Parsed {
    let first_line = text.split(|&b| b == b'\n').next().unwrap_or_default();
    let chained = first_line == HEADER.as_bytes() && text.len() > first_line.len();
    let mut records: Vec<Record> = Vec::new();
    let mut warnings = Vec::new();
    let mut after = Vec::new();
    let mut good_len = 0;
    let mut pos = 0;
    let mut line_no = 0;
    let mut stopped = false;
    let mut last_seq = 0;
    let mut digest: Option<Digest> = None;
    while pos < text.len() {
        line_no += 1;
        let (line, next, whole) = match text[pos..].iter().position(|&b| b == b'\n') {
            Some(i) => (&text[pos..pos + i], pos + i + 1, true),
            None => (&text[pos..], text.len(), false),
        };
        let with_feed = &text[pos..next];
        pos = next;
        let last = next >= text.len();
        let parsed = if !whole {
            Line::Bad(LineError::Cut)
        } else {
            match std::str::from_utf8(line) {
                Err(_) => Line::Bad(LineError::NotText),
                Ok(l) if l.starts_with('#') || l.trim().is_empty() => Line::Comment,
                Ok(l) => match parse_line(l, chained) {
                    Ok((read, prev)) => Line::Read(read, prev.map(str::to_owned)),
                    Err(e) => Line::Bad(e),
                },
            }
        };
        if stopped {
            if let Line::Read(Read::Record(r), _) = parsed {
                after.push((line_no, r));
            }
            continue;
        }
        if let Line::Read(read, _) = &parsed
            && read.seq() != last_seq + 1
        {
            warnings.push(ReadWarning::OutOfSequence {
                line: line_no,
                expected: last_seq + 1,
                found: read.seq(),
            });
            if let Line::Read(Read::Record(r), _) = parsed {
                after.push((line_no, r));
            }
            stopped = true;
            continue;
        }
        // In order: does it follow the line before it?
        let parsed = match parsed {
            Line::Read(_, Some(prev)) if digest.is_none_or(|d| prev != hex(&d)) => {
                Line::Bad(LineError::Chain)
            }
            other => other,
        };
        match parsed {
            Line::Read(read, _) => {
                match read {
                    Read::Record(r) => {
                        last_seq = r.seq;
                        records.push(r);
                    }
                    Read::Unknown(seq) => {
                        last_seq = seq;
                        warnings.push(ReadWarning::Unknown { line: line_no });
                    }
                }
                good_len = next;
                digest = Some(line_digest(with_feed));
            }
            Line::Comment => {
                good_len = next;
                // The header: the first record's line before.
                if line_no == 1 && chained {
                    digest = Some(line_digest(with_feed));
                }
            }
            Line::Bad(why) if last && why.can_be_torn() => {
                warnings.push(ReadWarning::Torn { line: line_no });
                stopped = true;
            }
            Line::Bad(why) => {
                warnings.push(ReadWarning::Damaged { line: line_no, why });
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
        chained,
        digest: digest.filter(|_| chained),
    }
}

#[cfg(test)]
mod tests;

/// A chained journal (format 2) of these events (for the tests of this
/// module and of `verify`).
#[cfg(test)]
pub(crate) fn journal_of(events: &[Event]) -> String {
    let head = format!("{HEADER}\n");
    let mut prev = line_digest(head.as_bytes());
    let mut s = head;
    for (i, e) in events.iter().enumerate() {
        let line = format_record(
            i as u64 + 1,
            time::macros::datetime!(2026-11-22 19:23:46.120 UTC),
            e,
            Some(&prev),
        );
        prev = line_digest(line.as_bytes());
        s.push_str(&line);
    }
    s
}
