//! The clock in words: times as "4 minutes 12 seconds" (never "04:12",
//! which a voice reads as a time of day), announcements, SPEC errors.  All
//! words come from the `[messages]` of the voices files through [`Words`].

use std::time::Duration;

use shakmaty::Color;

use super::announce::Announcement;
use super::spec::SpecError;

/// Where the words come from: a message template by key with its
/// placeholders filled, and the name of a side.
pub trait Words {
    /// The message `key` with `args` filled in.
    fn message(&self, key: &str, args: &[(&str, &str)]) -> String;
    /// "White" / "Black" in the player's language.
    fn side(&self, color: Color) -> String;
}

/// A time in words: hours, minutes and seconds (to the nearest second),
/// leaving out the parts that are zero.
pub fn time(w: &dyn Words, d: Duration) -> String {
    // Rounded to the nearest second (a clock that shows 4.99 s says 5).
    let total = (d + Duration::from_millis(500)).as_secs();
    if total == 0 {
        return if d.is_zero() {
            w.message("time_none", &[])
        } else {
            w.message("time_under_second", &[])
        };
    }
    let (h, m, s) = (total / 3600, total / 60 % 60, total % 60);
    // Each template says its number in words with the right form of the
    // noun ("{count:minute}": "one minute", "eine Minute", "μία ώρα").
    let unit = |n: u64, key: &str| w.message(key, &[("count", &n.to_string())]);
    let mut parts = Vec::new();
    if h > 0 {
        parts.push(unit(h, "time_hours"));
    }
    if m > 0 {
        parts.push(unit(m, "time_minutes"));
    }
    if s > 0 {
        parts.push(unit(s, "time_seconds"));
    }
    match parts.as_slice() {
        [a] => a.clone(),
        [a, b] => w.message("time_two_parts", &[("a", a), ("b", b)]),
        [a, b, c] => w.message("time_three_parts", &[("a", a), ("b", b), ("c", c)]),
        _ => w.message("time_none", &[]),
    }
}

/// One announcement as a sentence.
pub fn announcement(w: &dyn Words, a: &Announcement) -> String {
    match *a {
        Announcement::Threshold { side, left } => w.message(
            "clock_threshold",
            &[("side", &w.side(side)), ("time", &time(w, left))],
        ),
        Announcement::Countdown { seconds, .. } => {
            w.message("clock_countdown", &[("count", &seconds.to_string())])
        }
        Announcement::BothTimes { white, black, .. } => both(w, white, black),
        Announcement::PeriodEnd { side, moves, added } => w.message(
            "clock_period_end",
            &[
                ("side", &w.side(side)),
                ("count", &moves.to_string()),
                ("time", &time(w, added)),
            ],
        ),
    }
}

/// Both times: "White: 4 minutes. Black: 3 minutes 10 seconds."
pub fn both(w: &dyn Words, white: Duration, black: Duration) -> String {
    w.message(
        "clock_both",
        &[
            ("white", &w.side(Color::White)),
            ("white_time", &time(w, white)),
            ("black", &w.side(Color::Black)),
            ("black_time", &time(w, black)),
        ],
    )
}

/// One side's time: "White: 4 minutes 12 seconds."
pub fn side_time(w: &dyn Words, side: Color, left: Duration) -> String {
    w.message(
        "clock_side",
        &[("side", &w.side(side)), ("time", &time(w, left))],
    )
}

/// The number of moves played (D.2.6.1).
pub fn moves(w: &dyn Words, moves: u32) -> String {
    match moves {
        0 => w.message("clock_moves_none", &[]),
        n => w.message("clock_moves", &[("count", &n.to_string())]),
    }
}

/// The time a side used on its last move.
pub fn last_move(w: &dyn Words, side: Color, used: Option<Duration>) -> String {
    match used {
        Some(d) => w.message(
            "clock_last",
            &[("side", &w.side(side)), ("time", &time(w, d))],
        ),
        None => w.message("clock_last_none", &[("side", &w.side(side))]),
    }
}

/// What is wrong with a `--time` SPEC.
pub fn spec_error(w: &dyn Words, e: &SpecError) -> String {
    let input = |key: &str, text: &str| w.message(key, &[("input", text)]);
    match e {
        SpecError::Empty => w.message("spec_empty", &[]),
        SpecError::UnknownName(t) => {
            let names: Vec<&str> = super::control::PRESETS.iter().map(|p| p.name).collect();
            w.message(
                "spec_unknown_name",
                &[("input", t), ("list", &names.join(", "))],
            )
        }
        SpecError::NotANumber(t) if t.is_empty() => w.message("spec_number_missing", &[]),
        SpecError::NotANumber(t) => input("spec_not_a_number", t),
        SpecError::SecondsTooLarge(t) => input("spec_seconds", t),
        SpecError::MissingTime(t) => input("spec_missing_time", t),
        SpecError::ZeroMoves(t) => input("spec_zero_moves", t),
        SpecError::MovesMissing(t) => input("spec_moves_missing", t),
        SpecError::LastPeriodHasMoves(t) => input("spec_last_has_moves", t),
        SpecError::NoTime => w.message("spec_no_time", &[]),
        SpecError::TooLarge(t) => input("spec_too_large", t),
    }
}
