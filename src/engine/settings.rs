//! What the player asks of the engine, and how it is fitted to the options
//! the engine offers (its `option name … type …` lines).
//!
//! Nothing is sent that the engine did not offer: an option it lacks
//! becomes an [`OptionNote::NotOffered`] the app says once ("this engine
//! does not offer a strength in Elo; it plays at full strength"), and a
//! number outside the offered range is brought into it and said
//! ([`OptionNote::Adjusted`]).

use shakmaty_uci::UciOptionConfig;

/// How strongly the engine plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Strength {
    /// Full strength.
    #[default]
    Full,
    /// A skill level, 1 (weakest) to 20 (full strength): the engine's
    /// `Skill Level` option.
    Level(u8),
    /// A rating: `UCI_LimitStrength` and `UCI_Elo`.
    Elo(u32),
}

/// The player's wishes for an engine.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EngineSettings {
    /// How strong the engine should play.
    pub strength: Strength,
    /// `Threads` (the engine's default when `None`).
    pub threads: Option<u32>,
    /// `Hash` in MB (the engine's default when `None`).
    pub hash_mb: Option<u32>,
    /// Think while the player thinks (`Ponder`, `go ponder`).
    pub ponder: bool,
    /// Any other UCI options, by name, as the settings file gives them.
    pub options: Vec<(String, String)>,
}

/// An option the player wanted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Wanted {
    /// `Skill Level` (a level 1..20).
    SkillLevel,
    /// `UCI_LimitStrength` with `UCI_Elo`.
    Elo,
    /// `Threads`.
    Threads,
    /// `Hash`.
    Hash,
    /// `Ponder`.
    Ponder,
    /// `UCI_Chess960`.
    Chess960,
    /// An option from the settings file's list, by name.
    Named(String),
}

/// Something about the options to tell the player once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionNote {
    /// The engine does not offer it; it is left out (for a strength: the
    /// engine plays at full strength).
    NotOffered(Wanted),
    /// The number asked for is outside what the engine offers; `used` is
    /// the nearest it offers.
    Adjusted {
        /// The option.
        wanted: Wanted,
        /// The number asked for.
        asked: i64,
        /// The nearest number the engine offers, used instead.
        used: i64,
    },
    /// A value the option cannot take (a word for a number, a choice it
    /// does not have); the option is left at the engine's default.
    BadValue {
        /// The option's name.
        name: String,
        /// The value it cannot take.
        value: String,
    },
}

/// The `setoption` lines to send (name as the engine spells it, value) and
/// the notes for the player.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Fitted {
    pub set: Vec<(String, String)>,
    pub notes: Vec<OptionNote>,
    /// Pondering is wanted and the engine offers it.
    pub ponder: bool,
    /// The engine offers `UCI_Chess960`.
    pub chess960: bool,
    /// The strength lines of `set` (`Skill Level`, `UCI_LimitStrength`,
    /// `UCI_Elo`): sent again before the engine's own move after a help
    /// search lifted them.
    pub weak: Vec<(String, String)>,
    /// The lines that lift the strength limit (`Skill Level` at its
    /// maximum, `UCI_LimitStrength` off): a hint, a threat or an
    /// evaluation is searched at full strength whatever the level.
    pub full: Vec<(String, String)>,
}

fn find<'a>(offered: &'a [UciOptionConfig], name: &str) -> Option<&'a UciOptionConfig> {
    offered
        .iter()
        .find(|o| o.get_name().eq_ignore_ascii_case(name))
}

/// A number for a spin option, brought into its range.
fn spin(
    offered: &[UciOptionConfig],
    name: &str,
    wanted: Wanted,
    asked: i64,
    out: &mut Fitted,
) -> bool {
    match find(offered, name) {
        Some(UciOptionConfig::Spin {
            name: real,
            min,
            max,
            ..
        }) => {
            let mut used = asked;
            if let Some(min) = min {
                used = used.max(*min);
            }
            if let Some(max) = max {
                used = used.min(*max);
            }
            if used != asked {
                out.notes.push(OptionNote::Adjusted {
                    wanted,
                    asked,
                    used,
                });
            }
            out.set.push((real.clone(), used.to_string()));
            true
        }
        _ => {
            out.notes.push(OptionNote::NotOffered(wanted));
            false
        }
    }
}

/// A check option set to `true`.
fn check_on(offered: &[UciOptionConfig], name: &str, out: &mut Fitted) -> bool {
    match find(offered, name) {
        Some(UciOptionConfig::Check { name: real, .. }) => {
            out.set.push((real.clone(), "true".to_owned()));
            true
        }
        _ => false,
    }
}

impl EngineSettings {
    /// Fit the wishes to the options the engine offered.
    pub fn fit(&self, offered: &[UciOptionConfig]) -> Fitted {
        let mut out = Fitted {
            chess960: matches!(
                find(offered, "UCI_Chess960"),
                Some(UciOptionConfig::Check { .. })
            ),
            ..Fitted::default()
        };
        if let Some(t) = self.threads {
            spin(offered, "Threads", Wanted::Threads, i64::from(t), &mut out);
        }
        if let Some(h) = self.hash_mb {
            spin(offered, "Hash", Wanted::Hash, i64::from(h), &mut out);
        }
        match self.strength {
            Strength::Full => {}
            Strength::Level(n) => {
                if spin(
                    offered,
                    "Skill Level",
                    Wanted::SkillLevel,
                    i64::from(n),
                    &mut out,
                ) {
                    let max = match find(offered, "Skill Level") {
                        Some(UciOptionConfig::Spin { max, .. }) => max.unwrap_or(20),
                        _ => 20,
                    };
                    if let Some(line) = out.set.last().cloned() {
                        out.full.push((line.0.clone(), max.to_string()));
                        out.weak.push(line);
                    }
                }
            }
            Strength::Elo(elo) => {
                let limit = matches!(
                    find(offered, "UCI_LimitStrength"),
                    Some(UciOptionConfig::Check { .. })
                );
                let rating = matches!(find(offered, "UCI_Elo"), Some(UciOptionConfig::Spin { .. }));
                if limit && rating {
                    let from = out.set.len();
                    check_on(offered, "UCI_LimitStrength", &mut out);
                    spin(offered, "UCI_Elo", Wanted::Elo, i64::from(elo), &mut out);
                    out.weak = out.set[from..].to_vec();
                    if let Some((name, _)) = out.set.get(from) {
                        out.full.push((name.clone(), "false".to_owned()));
                    }
                } else {
                    out.notes.push(OptionNote::NotOffered(Wanted::Elo));
                }
            }
        }
        if self.ponder {
            if check_on(offered, "Ponder", &mut out) {
                out.ponder = true;
            } else {
                out.notes.push(OptionNote::NotOffered(Wanted::Ponder));
            }
        }
        for (name, value) in &self.options {
            named(offered, name, value, &mut out);
        }
        out
    }
}

/// An option from the settings file: set when offered and the value fits.
fn named(offered: &[UciOptionConfig], name: &str, value: &str, out: &mut Fitted) {
    let bad = || OptionNote::BadValue {
        name: name.to_owned(),
        value: value.to_owned(),
    };
    match find(offered, name) {
        None => out
            .notes
            .push(OptionNote::NotOffered(Wanted::Named(name.to_owned()))),
        Some(UciOptionConfig::Spin { .. }) => match value.trim().parse::<i64>() {
            Ok(n) => {
                spin(offered, name, Wanted::Named(name.to_owned()), n, out);
            }
            Err(_) => out.notes.push(bad()),
        },
        Some(UciOptionConfig::Check { name: real, .. }) => {
            match value.trim().to_ascii_lowercase().as_str() {
                v @ ("true" | "false") => out.set.push((real.clone(), v.to_owned())),
                _ => out.notes.push(bad()),
            }
        }
        Some(UciOptionConfig::Combo {
            name: real, var, ..
        }) => match var.iter().find(|v| v.eq_ignore_ascii_case(value.trim())) {
            Some(v) => out.set.push((real.clone(), v.clone())),
            None => out.notes.push(bad()),
        },
        Some(UciOptionConfig::String { name: real, .. }) => {
            out.set.push((real.clone(), value.to_owned()));
        }
        // A button has no value: it is pressed by naming it.
        Some(UciOptionConfig::Button { name: real }) => out.set.push((real.clone(), String::new())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The options Stockfish 15.1 offers that matter here.
    fn stockfish() -> Vec<UciOptionConfig> {
        [
            "option name Threads type spin default 1 min 1 max 1024",
            "option name Hash type spin default 16 min 1 max 33554432",
            "option name Ponder type check default false",
            "option name Skill Level type spin default 20 min 0 max 20",
            "option name UCI_Chess960 type check default false",
            "option name UCI_LimitStrength type check default false",
            "option name UCI_Elo type spin default 1350 min 1350 max 2850",
            "option name SyzygyPath type string default <empty>",
            "option name Clear Hash type button",
        ]
        .iter()
        .map(|l| match l.parse() {
            Ok(shakmaty_uci::UciMessage::Option(o)) => o,
            other => panic!("{l}: {other:?}"),
        })
        .collect()
    }

    fn set(f: &Fitted) -> Vec<(&str, &str)> {
        f.set
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect()
    }

    #[test]
    fn level_threads_hash_ponder() {
        let s = EngineSettings {
            strength: Strength::Level(3),
            threads: Some(2),
            hash_mb: Some(64),
            ponder: true,
            options: vec![],
        };
        let f = s.fit(&stockfish());
        assert_eq!(
            set(&f),
            [
                ("Threads", "2"),
                ("Hash", "64"),
                ("Skill Level", "3"),
                ("Ponder", "true")
            ]
        );
        assert!(f.notes.is_empty());
        assert!(f.ponder);
        assert!(f.chess960);
        // Lifted for help searches: the level at its maximum.
        assert_eq!(f.weak, [("Skill Level".to_owned(), "3".to_owned())]);
        assert_eq!(f.full, [("Skill Level".to_owned(), "20".to_owned())]);
    }

    #[test]
    fn elo_in_range_and_adjusted() {
        let s = EngineSettings {
            strength: Strength::Elo(1500),
            ..EngineSettings::default()
        };
        let f = s.fit(&stockfish());
        assert_eq!(
            set(&f),
            [("UCI_LimitStrength", "true"), ("UCI_Elo", "1500")]
        );
        assert_eq!(f.weak, f.set);
        assert_eq!(
            f.full,
            [("UCI_LimitStrength".to_owned(), "false".to_owned())]
        );
        let s = EngineSettings {
            strength: Strength::Elo(800),
            ..EngineSettings::default()
        };
        let f = s.fit(&stockfish());
        assert_eq!(
            set(&f),
            [("UCI_LimitStrength", "true"), ("UCI_Elo", "1350")]
        );
        assert_eq!(
            f.notes,
            [OptionNote::Adjusted {
                wanted: Wanted::Elo,
                asked: 800,
                used: 1350
            }]
        );
    }

    #[test]
    fn not_offered_is_said_and_nothing_sent() {
        let s = EngineSettings {
            strength: Strength::Elo(1500),
            ponder: true,
            ..EngineSettings::default()
        };
        let f = s.fit(&[]);
        assert!(f.set.is_empty());
        assert!(f.weak.is_empty() && f.full.is_empty());
        assert_eq!(
            f.notes,
            [
                OptionNote::NotOffered(Wanted::Elo),
                OptionNote::NotOffered(Wanted::Ponder)
            ]
        );
        assert!(!f.ponder);
        let s = EngineSettings {
            strength: Strength::Level(5),
            ..EngineSettings::default()
        };
        assert_eq!(
            s.fit(&[]).notes,
            [OptionNote::NotOffered(Wanted::SkillLevel)]
        );
    }

    #[test]
    fn named_options_by_kind() {
        let s = EngineSettings {
            options: vec![
                ("syzygypath".into(), "/tb".into()),
                ("Threads".into(), "many".into()),
                ("Ponder".into(), "TRUE".into()),
                ("Contempt".into(), "10".into()),
                ("Hash".into(), "0".into()),
            ],
            ..EngineSettings::default()
        };
        let f = s.fit(&stockfish());
        assert_eq!(
            set(&f),
            [("SyzygyPath", "/tb"), ("Ponder", "true"), ("Hash", "1")]
        );
        assert_eq!(
            f.notes,
            [
                OptionNote::BadValue {
                    name: "Threads".into(),
                    value: "many".into()
                },
                OptionNote::NotOffered(Wanted::Named("Contempt".into())),
                OptionNote::Adjusted {
                    wanted: Wanted::Named("Hash".into()),
                    asked: 0,
                    used: 1
                },
            ]
        );
    }
}
