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

/// A time in words: hours, minutes and whole seconds (rounded down, as a
/// clock shows them), leaving out the parts that are zero.
pub fn time(w: &dyn Words, d: Duration) -> String {
    let total = d.as_secs();
    if total == 0 {
        return if d.is_zero() {
            w.message("time_none", &[])
        } else {
            w.message("time_under_second", &[])
        };
    }
    let (h, m, s) = (total / 3600, total / 60 % 60, total % 60);
    let unit = |n: u64, one: &str, many: &str| {
        if n == 1 {
            w.message(one, &[])
        } else {
            w.message(many, &[("count", &n.to_string())])
        }
    };
    let mut parts = Vec::new();
    if h > 0 {
        parts.push(unit(h, "time_hour_one", "time_hours"));
    }
    if m > 0 {
        parts.push(unit(m, "time_minute_one", "time_minutes"));
    }
    if s > 0 {
        parts.push(unit(s, "time_second_one", "time_seconds"));
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
        Announcement::Flag { side } => w.message("clock_flag", &[("side", &w.side(side))]),
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
        1 => w.message("clock_moves_one", &[]),
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

#[cfg(test)]
pub(crate) mod test_words {
    //! The built-in voices files as [`Words`], for tests.
    use super::Words;
    use crate::speech::vocab::Lang;
    use crate::speech::{MoveOptions, MoveStyle, Phraser};
    use shakmaty::Color;

    pub struct Built(pub Phraser);

    impl Built {
        pub fn new(lang: Lang) -> Built {
            Built(Phraser::builtin(
                MoveStyle::Language,
                lang,
                MoveOptions::default(),
            ))
        }
    }

    impl Words for Built {
        fn message(&self, key: &str, args: &[(&str, &str)]) -> String {
            self.0.message(key, args)
        }
        fn side(&self, color: Color) -> String {
            self.0.side(color)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::test_words::Built;
    use super::*;
    use crate::speech::vocab::Lang;

    fn s(n: u64) -> Duration {
        Duration::from_secs(n)
    }

    #[test]
    fn times_in_words_in_three_languages() {
        let en = Built::new(Lang::En);
        assert_eq!(time(&en, s(252)), "4 minutes 12 seconds");
        assert_eq!(time(&en, s(60)), "1 minute");
        assert_eq!(time(&en, s(61)), "1 minute 1 second");
        assert_eq!(time(&en, s(3600 + 120 + 5)), "1 hour 2 minutes 5 seconds");
        assert_eq!(time(&en, Duration::from_millis(4999)), "4 seconds");
        assert_eq!(time(&en, Duration::from_millis(300)), "less than a second");
        assert_eq!(time(&en, Duration::ZERO), "no time");
        let de = Built::new(Lang::De);
        assert_eq!(time(&de, s(252)), "4 Minuten 12 Sekunden");
        assert_eq!(time(&de, s(61)), "1 Minute 1 Sekunde");
        let it = Built::new(Lang::It);
        assert_eq!(time(&it, s(252)), "4 minuti e 12 secondi");
        assert_eq!(time(&it, s(3661)), "1 ora, 1 minuto e 1 secondo");
        for w in [&en, &de, &it] {
            assert!(!time(w, s(252)).contains(':'));
        }
    }

    #[test]
    fn announcements_in_words() {
        let en = Built::new(Lang::En);
        let a = Announcement::Threshold {
            side: Color::White,
            left: s(300),
        };
        assert_eq!(announcement(&en, &a), "White: 5 minutes left.");
        let a = Announcement::PeriodEnd {
            side: Color::Black,
            moves: 40,
            added: s(1800),
        };
        assert_eq!(
            announcement(&en, &a),
            "Black: 40 moves made; 30 minutes added."
        );
        let a = Announcement::Countdown {
            side: Color::White,
            seconds: 7,
        };
        assert_eq!(announcement(&en, &a), "7");
        assert_eq!(
            both(&en, s(252), s(190)),
            "White: 4 minutes 12 seconds. Black: 3 minutes 10 seconds."
        );
        assert_eq!(moves(&en, 0), "No moves played yet.");
        assert_eq!(moves(&en, 1), "1 move played.");
        assert_eq!(moves(&en, 23), "23 moves played.");
        assert_eq!(
            last_move(&en, Color::White, Some(s(12))),
            "White's last move took 12 seconds."
        );
        let de = Built::new(Lang::De);
        assert_eq!(
            announcement(&de, &Announcement::Flag { side: Color::Black }),
            "Schwarz: Zeit überschritten."
        );
    }

    #[test]
    fn spec_errors_say_what_is_wrong() {
        let en = Built::new(Lang::En);
        let say = |spec: &str| spec_error(&en, &super::super::spec::parse(spec).unwrap_err());
        assert_eq!(
            say("1:75+0"),
            "\"1:75\": write the seconds with two digits, 00 to 59."
        );
        assert!(say("quick").contains("blitz"), "{}", say("quick"));
        assert!(say("40/90").contains("rest of the game"));
        assert!(say("90,30").contains("move count"));
        let it = Built::new(Lang::It);
        let e = spec_error(&it, &SpecError::NoTime);
        assert!(!e.is_empty() && e != "spec_no_time");
    }
}
