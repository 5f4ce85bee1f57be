//! Time controls: what a tournament clock is set to.  A control is one or
//! more periods (the last one lasts for the rest of the game), each with its
//! own bonus (Fischer increment, US delay, Bronstein delay), or an
//! hourglass.  Built only through [`TimeControl::periods`],
//! [`TimeControl::sudden_death`], [`TimeControl::hourglass`] or the SPEC
//! parser, so a control always has a last period without a move count.

use std::fmt;
use std::time::Duration;

/// What a player gets for each move besides the period's time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Bonus {
    /// Nothing.
    #[default]
    None,
    /// Fischer: this much is added after each completed move (FIDE 6.3).
    Increment(Duration),
    /// Simple (US) delay: the main time starts to run only after this much
    /// of each move; a move within the delay leaves it unchanged.
    UsDelay(Duration),
    /// Bronstein: the time used on a move, up to this much, is given back
    /// after the move.
    Bronstein(Duration),
}

impl Bonus {
    /// The seconds of the bonus (0 for none).
    pub fn amount(self) -> Duration {
        match self {
            Bonus::None => Duration::ZERO,
            Bonus::Increment(d) | Bonus::UsDelay(d) | Bonus::Bronstein(d) => d,
        }
    }
}

/// One period of a control.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Period {
    /// The moves to make in this period; `None` for the rest of the game.
    pub moves: Option<u32>,
    /// The time the period adds to the player's clock (time saved in an
    /// earlier period carries over, 6.3.2).
    pub time: Duration,
    /// The bonus for each move made in this period.
    pub bonus: Bonus,
}

/// Why periods cannot make a time control.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ControlError {
    /// No period at all.
    NoPeriods,
    /// A period other than the last has no move count (the one at this
    /// 0-based index).
    OpenPeriodNotLast(usize),
    /// The last period has a move count: the game would have no time after it.
    LastPeriodHasMoves,
    /// A period's move count is zero (the one at this 0-based index).
    ZeroMoves(usize),
    /// The first period has no time and no bonus to play with.
    NoTime,
}

/// The time control of a game.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TimeControl {
    kind: Kind,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Kind {
    Periods(Vec<Period>),
    Hourglass(Duration),
}

/// The kind of game FIDE's appendices make of a control (A.1, B.1), by the
/// 2017 thresholds; see `game::rules` (above) for the older ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Category {
    /// Standard play.
    Standard,
    /// Appendix A.
    Rapid,
    /// Appendix B.
    Blitz,
}

impl TimeControl {
    /// Periods in order; the last one has no move count.
    pub fn periods(periods: Vec<Period>) -> Result<TimeControl, ControlError> {
        let Some(last) = periods.last() else {
            return Err(ControlError::NoPeriods);
        };
        if last.moves.is_some() {
            return Err(ControlError::LastPeriodHasMoves);
        }
        for (i, p) in periods.iter().enumerate() {
            match p.moves {
                Some(0) => return Err(ControlError::ZeroMoves(i)),
                None if i + 1 < periods.len() => return Err(ControlError::OpenPeriodNotLast(i)),
                _ => {}
            }
        }
        if periods[0].time.is_zero() && periods[0].bonus == Bonus::None {
            return Err(ControlError::NoTime);
        }
        Ok(TimeControl {
            kind: Kind::Periods(periods),
        })
    }

    /// One period for the whole game.
    pub fn sudden_death(time: Duration, bonus: Bonus) -> Result<TimeControl, ControlError> {
        TimeControl::periods(vec![Period {
            moves: None,
            time,
            bonus,
        }])
    }

    /// An hourglass: the time one player uses is added to the other's.
    pub fn hourglass(each: Duration) -> Result<TimeControl, ControlError> {
        if each.is_zero() {
            return Err(ControlError::NoTime);
        }
        Ok(TimeControl {
            kind: Kind::Hourglass(each),
        })
    }

    /// The periods; an hourglass is one period of its time.
    pub fn period_list(&self) -> Vec<Period> {
        match &self.kind {
            Kind::Periods(p) => p.clone(),
            Kind::Hourglass(t) => vec![Period {
                moves: None,
                time: *t,
                bonus: Bonus::None,
            }],
        }
    }

    /// Whether this is an hourglass.
    pub fn is_hourglass(&self) -> bool {
        matches!(self.kind, Kind::Hourglass(_))
    }

    /// The time each player starts with.
    pub fn initial(&self) -> Duration {
        match &self.kind {
            Kind::Periods(p) => p[0].time,
            Kind::Hourglass(t) => *t,
        }
    }

    /// The period a player is in after `moves_made` completed moves
    /// (0-based index), and the cumulative move count that ends it.
    pub fn period_after(&self, moves_made: u32) -> usize {
        let Kind::Periods(periods) = &self.kind else {
            return 0;
        };
        let mut end = 0u32;
        for (i, p) in periods.iter().enumerate() {
            match p.moves {
                Some(m) => {
                    end = end.saturating_add(m);
                    if moves_made < end {
                        return i;
                    }
                }
                None => return i,
            }
        }
        periods.len().saturating_sub(1)
    }

    /// The period (by 0-based index).
    pub fn period(&self, index: usize) -> Option<Period> {
        match &self.kind {
            Kind::Periods(p) => p.get(index).copied(),
            Kind::Hourglass(_) if index == 0 => self.period_list().first().copied(),
            Kind::Hourglass(_) => None,
        }
    }

    /// Whether completing move number `move_number` (1-based, of one
    /// player) ends a period, and if so the period that starts.
    pub fn period_starting_after(&self, move_number: u32) -> Option<(usize, Period)> {
        let Kind::Periods(periods) = &self.kind else {
            return None;
        };
        let mut end = 0u32;
        for (i, p) in periods.iter().enumerate() {
            let m = p.moves?;
            end = end.saturating_add(m);
            if end == move_number {
                return periods.get(i + 1).map(|next| (i + 1, *next));
            }
            if end > move_number {
                return None;
            }
        }
        None
    }

    /// Appendix A.1 / B.1 (2017): the time of the first period plus 60
    /// times its increment decides blitz (≤ 10 min), rapid (< 60 min) or
    /// standard.  `blitz_max` and `rapid_below` let older editions use
    /// their own limits.
    pub fn category_with(&self, blitz_max: Duration, rapid_below: Duration) -> Category {
        let p = self.period_list()[0];
        let total = p.time + p.bonus.amount() * 60;
        if total <= blitz_max {
            Category::Blitz
        } else if total < rapid_below {
            Category::Rapid
        } else {
            Category::Standard
        }
    }

    /// The control in the form of the PGN `TimeControl` tag (PGN standard
    /// 9.6.1): `40/5400+30:1800+30`, `300+2`, `*60` for an hourglass.  PGN
    /// has no form for delays: a US delay is written `300d3` and a
    /// Bronstein delay `300b3` (an extension readers may not know).
    pub fn pgn_tag(&self) -> String {
        match &self.kind {
            Kind::Hourglass(t) => format!("*{}", t.as_secs()),
            Kind::Periods(periods) => periods
                .iter()
                .map(|p| {
                    let mut s = String::new();
                    if let Some(m) = p.moves {
                        s.push_str(&format!("{m}/"));
                    }
                    s.push_str(&p.time.as_secs().to_string());
                    match p.bonus {
                        Bonus::None => {}
                        Bonus::Increment(d) => s.push_str(&format!("+{}", d.as_secs())),
                        Bonus::UsDelay(d) => s.push_str(&format!("d{}", d.as_secs())),
                        Bonus::Bronstein(d) => s.push_str(&format!("b{}", d.as_secs())),
                    }
                    s
                })
                .collect::<Vec<_>>()
                .join(":"),
        }
    }
}

/// Writes the control back in the `--time` notation (minutes where they
/// are whole, `M:SS` otherwise): parsing it gives the same control.
impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn time(d: Duration) -> String {
            let s = d.as_secs();
            if s.is_multiple_of(60) {
                (s / 60).to_string()
            } else {
                format!("{}:{:02}", s / 60, s % 60)
            }
        }
        match &self.kind {
            Kind::Hourglass(t) => write!(f, "hourglass:{}", time(*t)),
            Kind::Periods(periods) => {
                let parts: Vec<String> = periods
                    .iter()
                    .map(|p| {
                        let mut s = String::new();
                        if let Some(m) = p.moves {
                            s.push_str(&format!("{m}/"));
                        }
                        s.push_str(&time(p.time));
                        match p.bonus {
                            Bonus::None => s.push_str("+0"),
                            Bonus::Increment(d) => s.push_str(&format!("+{}", d.as_secs())),
                            Bonus::UsDelay(d) => s.push_str(&format!("d{}", d.as_secs())),
                            Bonus::Bronstein(d) => s.push_str(&format!("b{}", d.as_secs())),
                        }
                        s
                    })
                    .collect();
                f.write_str(&parts.join(","))
            }
        }
    }
}

/// A named control a player can give instead of the notation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Preset {
    /// The name on the command line.
    pub name: &'static str,
    /// The control in the `--time` notation.
    pub spec: &'static str,
}

/// The usual controls.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "bullet",
        spec: "1+0",
    },
    Preset {
        name: "blitz",
        spec: "3+2",
    },
    Preset {
        name: "blitz5",
        spec: "5+0",
    },
    Preset {
        name: "blitz-delay",
        spec: "5d2",
    },
    Preset {
        name: "rapid",
        spec: "15+10",
    },
    Preset {
        name: "rapid25",
        spec: "25+10",
    },
    Preset {
        name: "classical",
        spec: "90+30",
    },
    Preset {
        name: "fide",
        spec: "40/90,30+30",
    },
    Preset {
        name: "classical-two-periods",
        spec: "40/120,60",
    },
    Preset {
        name: "classical-three-periods",
        spec: "40/120+0,20/60+0,15+30",
    },
    Preset {
        name: "hourglass",
        spec: "hourglass:5",
    },
];

/// The preset called `name` (any case).
pub fn preset(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn min(m: u64) -> Duration {
        Duration::from_secs(m * 60)
    }

    #[test]
    fn a_control_needs_an_open_last_period() {
        assert_eq!(TimeControl::periods(vec![]), Err(ControlError::NoPeriods));
        let p = |moves| Period {
            moves,
            time: min(10),
            bonus: Bonus::None,
        };
        assert_eq!(
            TimeControl::periods(vec![p(Some(40))]),
            Err(ControlError::LastPeriodHasMoves)
        );
        assert_eq!(
            TimeControl::periods(vec![p(None), p(None)]),
            Err(ControlError::OpenPeriodNotLast(0))
        );
        assert_eq!(
            TimeControl::periods(vec![p(Some(0)), p(None)]),
            Err(ControlError::ZeroMoves(0))
        );
        assert!(TimeControl::periods(vec![p(Some(40)), p(None)]).is_ok());
        assert_eq!(
            TimeControl::sudden_death(Duration::ZERO, Bonus::None),
            Err(ControlError::NoTime)
        );
    }

    #[test]
    fn periods_by_move_count() {
        let c = TimeControl::periods(vec![
            Period {
                moves: Some(40),
                time: min(120),
                bonus: Bonus::None,
            },
            Period {
                moves: Some(20),
                time: min(60),
                bonus: Bonus::None,
            },
            Period {
                moves: None,
                time: min(15),
                bonus: Bonus::Increment(Duration::from_secs(30)),
            },
        ])
        .unwrap();
        assert_eq!(c.period_after(0), 0);
        assert_eq!(c.period_after(39), 0);
        assert_eq!(c.period_after(40), 1);
        assert_eq!(c.period_after(59), 1);
        assert_eq!(c.period_after(60), 2);
        assert_eq!(c.period_after(500), 2);
        assert_eq!(c.period_starting_after(39), None);
        assert_eq!(c.period_starting_after(40).map(|(i, _)| i), Some(1));
        assert_eq!(
            c.period_starting_after(60).map(|(i, p)| (i, p.time)),
            Some((2, min(15)))
        );
        assert_eq!(c.period_starting_after(61), None);
        assert_eq!(c.pgn_tag(), "40/7200:20/3600:900+30");
    }

    #[test]
    fn categories_by_appendix_a_and_b() {
        let cat = |t: u64, inc: u64| {
            TimeControl::sudden_death(min(t), Bonus::Increment(Duration::from_secs(inc)))
                .unwrap()
                .category_with(min(10), min(60))
        };
        assert_eq!(cat(3, 2), Category::Blitz); // 3 + 2 = 5 min
        assert_eq!(cat(5, 5), Category::Blitz); // 5 + 5 = 10 min
        assert_eq!(cat(10, 5), Category::Rapid); // 15 min
        assert_eq!(cat(15, 10), Category::Rapid); // 25 min
        assert_eq!(cat(45, 15), Category::Standard); // 60 min
        assert_eq!(cat(90, 30), Category::Standard);
    }

    #[test]
    fn pgn_tags() {
        let c =
            TimeControl::sudden_death(min(5), Bonus::Increment(Duration::from_secs(3))).unwrap();
        assert_eq!(c.pgn_tag(), "300+3");
        assert_eq!(TimeControl::hourglass(min(1)).unwrap().pgn_tag(), "*60");
        let d = TimeControl::sudden_death(min(5), Bonus::UsDelay(Duration::from_secs(2))).unwrap();
        assert_eq!(d.pgn_tag(), "300d2");
    }

    #[test]
    fn every_preset_parses_and_round_trips() {
        for p in PRESETS {
            let c = super::super::spec::parse(p.spec)
                .unwrap_or_else(|e| panic!("preset {} ({}): {e:?}", p.name, p.spec));
            let again = super::super::spec::parse(&c.to_string()).unwrap();
            assert_eq!(c, again, "{}", p.name);
        }
        assert_eq!(preset("RAPID").map(|p| p.spec), Some("15+10"));
    }
}
