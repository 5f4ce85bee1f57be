//! The `--time SPEC` notation.
//!
//! ```text
//! SPEC    = PRESET | "hourglass:" TIME | PERIOD { "," PERIOD }
//! PERIOD  = [ MOVES "/" ] TIME [ BONUS ]
//! TIME    = MIN | M ":" SS          minutes, or minutes and seconds
//! BONUS   = "+" SEC                 Fischer increment per move
//!         | "d" SEC                 simple (US) delay
//!         | "b" SEC                 Bronstein delay
//! ```
//!
//! Examples: `90+30`, `5+0`, `3+2`, `0:30+0`, `1:30+2`, `5d3`, `5b3`,
//! `40/90,30+30`, `40/120,60`, `hourglass:5`, `rapid`.  Every period but the
//! last has a move count.  When only the last period has a bonus, it counts
//! from move 1 in every period (FIDE's "30 seconds per move from move 1");
//! to give it to the last period alone, write `+0` on the others:
//! `40/120+0,60+30`.

use std::time::Duration;

use super::control::{Bonus, ControlError, Period, TimeControl, preset};

/// What is wrong with a SPEC.  The words for each are in the voices files
/// (see `clock::words`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum SpecError {
    /// Nothing was given.
    Empty,
    /// A word that is not a preset name.
    UnknownName(String),
    /// Where a number was expected there is this text.
    NotANumber(String),
    /// `M:SS` with seconds of 60 or more.
    SecondsTooLarge(String),
    /// A period has a move count but no time after the `/`.
    MissingTime(String),
    /// A period asks for zero moves.
    ZeroMoves(String),
    /// A period before the last has no move count (`90,30`).
    MovesMissing(String),
    /// The last period has a move count (`40/90`): nothing says what
    /// happens after it.
    LastPeriodHasMoves(String),
    /// No time at all (`0+0`).
    NoTime,
    /// A number too large to be a time.
    TooLarge(String),
}

/// The longest time a SPEC may give one period: 24 hours.
const MAX_TIME: Duration = Duration::from_secs(24 * 3600);

/// Parse a SPEC (see the module docs).
pub fn parse(spec: &str) -> Result<TimeControl, SpecError> {
    let spec = spec.trim();
    if spec.is_empty() {
        return Err(SpecError::Empty);
    }
    if let Some(p) = preset(spec) {
        return parse(p.spec);
    }
    let lower = spec.to_ascii_lowercase();
    if let Some(rest) = lower.strip_prefix("hourglass:") {
        let t = time(rest.trim())?;
        return TimeControl::hourglass(t).map_err(|_| SpecError::NoTime);
    }
    if lower.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return Err(SpecError::UnknownName(spec.to_owned()));
    }
    let parts: Vec<&str> = lower.split(',').map(str::trim).collect();
    let mut periods = Vec::with_capacity(parts.len());
    let mut explicit = Vec::with_capacity(parts.len());
    for part in &parts {
        let (p, has_bonus) = period(part)?;
        periods.push(p);
        explicit.push(has_bonus);
    }
    // A bonus on the last period only counts from move 1.
    let n = periods.len();
    if n > 1 && explicit[n - 1] && !explicit[..n - 1].iter().any(|b| *b) {
        let bonus = periods[n - 1].bonus;
        for p in &mut periods[..n - 1] {
            p.bonus = bonus;
        }
    }
    TimeControl::periods(periods).map_err(|e| match e {
        ControlError::NoPeriods => SpecError::Empty,
        ControlError::OpenPeriodNotLast(i) => SpecError::MovesMissing(parts[i].to_owned()),
        ControlError::LastPeriodHasMoves => SpecError::LastPeriodHasMoves(parts[n - 1].to_owned()),
        ControlError::ZeroMoves(i) => SpecError::ZeroMoves(parts[i].to_owned()),
        ControlError::NoTime => SpecError::NoTime,
    })
}

/// One period; also whether it wrote its own bonus.
fn period(text: &str) -> Result<(Period, bool), SpecError> {
    if text.is_empty() {
        return Err(SpecError::NotANumber(String::new()));
    }
    let (moves, rest) = match text.split_once('/') {
        Some((m, rest)) => {
            let m = m.trim();
            let moves: u32 = number(m)?
                .try_into()
                .map_err(|_| SpecError::TooLarge(m.to_owned()))?;
            if moves == 0 {
                return Err(SpecError::ZeroMoves(text.to_owned()));
            }
            if rest.trim().is_empty() {
                return Err(SpecError::MissingTime(text.to_owned()));
            }
            (Some(moves), rest.trim())
        }
        None => (None, text),
    };
    let split = rest.find(['+', 'd', 'b']);
    let (time_text, bonus) = match split {
        Some(i) => {
            let (t, b) = rest.split_at(i);
            let secs = b[1..].trim();
            let d = Duration::from_secs(number(secs)?);
            if d > MAX_TIME {
                return Err(SpecError::TooLarge(secs.to_owned()));
            }
            let bonus = match &b[..1] {
                "+" if d.is_zero() => Bonus::None,
                "+" => Bonus::Increment(d),
                "d" => Bonus::UsDelay(d),
                _ => Bonus::Bronstein(d),
            };
            (t.trim(), Some(bonus))
        }
        None => (rest, None),
    };
    if time_text.is_empty() {
        return Err(SpecError::MissingTime(text.to_owned()));
    }
    Ok((
        Period {
            moves,
            time: time(time_text)?,
            bonus: bonus.unwrap_or_default(),
        },
        bonus.is_some(),
    ))
}

/// `MIN` or `M:SS`.
fn time(text: &str) -> Result<Duration, SpecError> {
    let d = match text.split_once(':') {
        Some((m, s)) => {
            let secs = number(s)?;
            if secs >= 60 || s.len() != 2 {
                return Err(SpecError::SecondsTooLarge(text.to_owned()));
            }
            Duration::from_secs(
                number(m)?
                    .checked_mul(60)
                    .and_then(|m| m.checked_add(secs))
                    .ok_or_else(|| SpecError::TooLarge(text.to_owned()))?,
            )
        }
        None => Duration::from_secs(
            number(text)?
                .checked_mul(60)
                .ok_or_else(|| SpecError::TooLarge(text.to_owned()))?,
        ),
    };
    if d > MAX_TIME {
        return Err(SpecError::TooLarge(text.to_owned()));
    }
    Ok(d)
}

fn number(text: &str) -> Result<u64, SpecError> {
    let t = text.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(SpecError::NotANumber(t.to_owned()));
    }
    t.parse().map_err(|_| SpecError::TooLarge(t.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    fn one(spec: &str) -> Period {
        let c = parse(spec).unwrap_or_else(|e| panic!("{spec}: {e:?}"));
        let p = c.period_list();
        assert_eq!(p.len(), 1, "{spec}");
        p[0]
    }

    #[test]
    fn minutes_and_increment() {
        assert_eq!(
            one("90+30"),
            Period {
                moves: None,
                time: secs(5400),
                bonus: Bonus::Increment(secs(30))
            }
        );
        assert_eq!(one("5+0").bonus, Bonus::None);
        assert_eq!(one("5").time, secs(300));
        assert_eq!(one(" 3+2 ").bonus, Bonus::Increment(secs(2)));
    }

    #[test]
    fn minutes_and_seconds() {
        assert_eq!(one("0:30+0").time, secs(30));
        let p = one("1:30+2");
        assert_eq!((p.time, p.bonus), (secs(90), Bonus::Increment(secs(2))));
        assert_eq!(one("0:05+1").time, secs(5));
    }

    #[test]
    fn delays() {
        assert_eq!(one("5d3").bonus, Bonus::UsDelay(secs(3)));
        assert_eq!(one("5b3").bonus, Bonus::Bronstein(secs(3)));
        assert_eq!(one("5D3").bonus, Bonus::UsDelay(secs(3)));
        assert_eq!(one("0:45b5").time, secs(45));
    }

    #[test]
    fn periods_with_a_bonus_from_move_one() {
        let c = parse("40/90,30+30").unwrap();
        let p = c.period_list();
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].moves, Some(40));
        assert_eq!(p[0].time, secs(5400));
        assert_eq!(p[0].bonus, Bonus::Increment(secs(30)));
        assert_eq!(p[1].moves, None);
        assert_eq!(p[1].time, secs(1800));
        assert_eq!(p[1].bonus, Bonus::Increment(secs(30)));
        assert_eq!(c.pgn_tag(), "40/5400+30:1800+30");
    }

    #[test]
    fn periods_with_their_own_bonus() {
        let c = parse("40/120+0,60+30").unwrap();
        let p = c.period_list();
        assert_eq!(p[0].bonus, Bonus::None);
        assert_eq!(p[1].bonus, Bonus::Increment(secs(30)));
        let c = parse("40/120,60").unwrap();
        assert!(c.period_list().iter().all(|p| p.bonus == Bonus::None));
    }

    #[test]
    fn hourglass_and_presets() {
        let c = parse("hourglass:5").unwrap();
        assert!(c.is_hourglass());
        assert_eq!(c.initial(), secs(300));
        assert_eq!(parse("Hourglass:0:30").unwrap().initial(), secs(30));
        assert_eq!(parse("blitz").unwrap(), parse("3+2").unwrap());
        assert_eq!(parse("fide").unwrap(), parse("40/90,30+30").unwrap());
    }

    #[test]
    fn wrong_specs_say_what_is_wrong() {
        assert_eq!(parse(""), Err(SpecError::Empty));
        assert_eq!(parse("quick"), Err(SpecError::UnknownName("quick".into())));
        assert_eq!(parse("5+x"), Err(SpecError::NotANumber("x".into())));
        assert_eq!(
            parse("x+5").unwrap_err(),
            SpecError::UnknownName("x+5".into())
        );
        assert_eq!(parse("5++2"), Err(SpecError::NotANumber("+2".into())));
        assert_eq!(
            parse("1:75+0"),
            Err(SpecError::SecondsTooLarge("1:75".into()))
        );
        assert_eq!(
            parse("1:5+0"),
            Err(SpecError::SecondsTooLarge("1:5".into()))
        );
        assert_eq!(parse("40/"), Err(SpecError::MissingTime("40/".into())));
        assert_eq!(parse("0/90,30"), Err(SpecError::ZeroMoves("0/90".into())));
        assert_eq!(parse("90,30"), Err(SpecError::MovesMissing("90".into())));
        assert_eq!(
            parse("40/90"),
            Err(SpecError::LastPeriodHasMoves("40/90".into()))
        );
        assert_eq!(parse("0+0"), Err(SpecError::NoTime));
        assert_eq!(parse("hourglass:0"), Err(SpecError::NoTime));
        assert_eq!(
            parse("99999999999999999999"),
            Err(SpecError::TooLarge("99999999999999999999".into()))
        );
        assert_eq!(parse("2000+0"), Err(SpecError::TooLarge("2000".into())));
        assert_eq!(parse("5+"), Err(SpecError::NotANumber(String::new())));
        assert_eq!(parse("+5"), Err(SpecError::MissingTime("+5".into())));
        assert_eq!(
            parse("40/90,,30"),
            Err(SpecError::NotANumber(String::new()))
        );
    }

    #[test]
    fn a_delay_bonus_is_zero_allowed() {
        // `+0` is no bonus; `d0` is a delay of zero, which behaves the same.
        assert_eq!(one("5d0").bonus, Bonus::UsDelay(Duration::ZERO));
    }
}
