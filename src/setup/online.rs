//! lichess from the command line: `--lichess` with `--challenge`,
//! `--seek`, `--color`, `--time`, `--rated` (and `--game`, `--days`,
//! `--ai`) resolved into how the online game begins, and `--broadcast`
//! into its round; or the reason nothing is started, said in the player's
//! language.  What lichess's Board API would not play (a challenge faster
//! than blitz, a seek faster than rapid, an increment too long, days or
//! an AI level it does not offer) is refused here, before anything is
//! sent (`lichess::api::check_clock`).

use shakmaty::Color;

use crate::app::OnlineStart;
use crate::lichess::api::{self, Asking, Pace, TimeRefusal};
use crate::lichess::broadcast::RoundId;
use crate::phrase::Phraser;
use crate::scoresheet::{ResumeChoice, ResumeOffer, Store};

use super::typed::{ChallengeColor, PlayArgs};

/// A challenge's or a seek's time when none is typed.
const DEFAULT_TIME: &str = "15+10";

/// Why an online game or a broadcast is not started: hector says it and
/// ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// No lichess token (`hector lichess login`, `LICHESS_TOKEN`).
    NoToken,
    /// An option that only a challenge or a seek uses (`--color`,
    /// `--time`), given to join a game.
    OptionUnused(&'static str),
    /// A `--time` that is not MIN+SEC in lichess's bounds.
    TimeForm,
    /// A seek faster than rapid (lichess takes none).
    SeekTooFast,
    /// A challenge or a game against the AI faster than blitz (the Board
    /// API does not play it).
    FasterThanBlitz,
    /// An increment over what lichess takes (60 s; a seek's 180 s).
    IncrementTooLong(u32),
    /// A start time lichess does not offer.
    StartNotOffered,
    /// Days per move lichess does not offer.
    DaysNotOffered,
    /// An AI level lichess does not have.
    AiLevel,
    /// A `--game` that is no lichess game's id.
    GameIdForm,
    /// A `--broadcast` that is no round id.
    RoundForm,
    /// A broadcast without a token.
    BroadcastNoToken,
}

impl Refusal {
    /// What is said.
    #[must_use]
    pub fn sentence(&self, phraser: &Phraser) -> String {
        match self {
            Refusal::NoToken => phraser.message("lichess_no_token", &[]),
            Refusal::OptionUnused(option) => {
                phraser.message("lichess_option_unused", &[("option", option)])
            }
            Refusal::TimeForm => phraser.message("lichess_time_form", &[]),
            Refusal::SeekTooFast => phraser.message("lichess_seek_too_fast", &[]),
            Refusal::FasterThanBlitz => phraser.message("lichess_time_too_fast", &[]),
            Refusal::IncrementTooLong(max) => {
                phraser.message("lichess_increment_too_long", &[("max", &max.to_string())])
            }
            Refusal::StartNotOffered => phraser.message("lichess_start_not_offered", &[]),
            Refusal::DaysNotOffered => phraser.message("lichess_days_not_offered", &[]),
            Refusal::AiLevel => phraser.message("lichess_ai_level_range", &[]),
            Refusal::GameIdForm => phraser.message("lichess_game_id_form", &[]),
            Refusal::RoundForm => phraser.message("broadcast_round_form", &[]),
            Refusal::BroadcastNoToken => phraser.message("broadcast_no_token", &[]),
        }
    }

    /// hector's exit code: 2 for what was typed wrong, 1 for what is
    /// missing.
    #[must_use]
    pub fn exit_code(&self) -> u8 {
        match self {
            Refusal::NoToken => 1,
            _ => 2,
        }
    }
}

impl From<TimeRefusal> for Refusal {
    fn from(r: TimeRefusal) -> Self {
        match r {
            TimeRefusal::FasterThanRapid => Refusal::SeekTooFast,
            TimeRefusal::FasterThanBlitz => Refusal::FasterThanBlitz,
            TimeRefusal::IncrementTooLong { max_s } => Refusal::IncrementTooLong(max_s),
            TimeRefusal::StartNotOffered => Refusal::StartNotOffered,
        }
    }
}

/// How `hector play --lichess` begins: a challenge, a seek, or joining the
/// game going on.  `time` is the typed `--time` (on lichess the clock is
/// the server's: the option is the challenge's, not hector's clock).
///
/// # Errors
///
/// The [`Refusal`] to say: `--color` or `--time` without a challenge or a
/// seek, a time that is not MIN+SEC, a time control lichess's Board API
/// would not play, days or an AI level lichess does not offer, a `--game`
/// that is no game's id, options the game asked for does not use.
pub fn online_start(typed: &PlayArgs, time: Option<&str>) -> Result<OnlineStart, Refusal> {
    if let Some(given) = &typed.game {
        let id = api::game_id(given).ok_or(Refusal::GameIdForm)?;
        // The game is lichess's already: its colour and time are its own.
        let unused = [
            (typed.color.is_some(), "--color"),
            (time.is_some(), "--time"),
            (typed.days.is_some(), "--days"),
            (typed.challenge.is_some(), "--challenge"),
            (typed.ai.is_some(), "--ai"),
        ];
        if let Some((_, option)) = unused.iter().find(|(given, _)| *given) {
            return Err(Refusal::OptionUnused(option));
        }
        return Ok(OnlineStart::Game { id });
    }
    if let Some(level) = typed.ai
        && !api::check_ai_level(level)
    {
        return Err(Refusal::AiLevel);
    }
    let asks = typed.challenge.is_some() || typed.seek || typed.ai.is_some();
    // Joining a game already going on would ignore them.
    if !asks {
        let unused = [
            (typed.color.is_some(), "--color"),
            (time.is_some(), "--time"),
            (typed.days.is_some(), "--days"),
        ];
        if let Some((_, option)) = unused.iter().find(|(given, _)| *given) {
            return Err(Refusal::OptionUnused(option));
        }
        return Ok(OnlineStart::Join);
    }
    let color = match typed.color {
        Some(ChallengeColor::White) => Some(Color::White),
        Some(ChallengeColor::Black) => Some(Color::Black),
        Some(ChallengeColor::Random) | None => None,
    };
    if let Some(days) = typed.days {
        let days = u8::try_from(days)
            .ok()
            .filter(|d| api::check_days(u32::from(*d)))
            .ok_or(Refusal::DaysNotOffered)?;
        if time.is_some() {
            return Err(Refusal::OptionUnused("--time"));
        }
        return match (&typed.challenge, typed.ai) {
            (_, Some(level)) => Ok(OnlineStart::Ai {
                level: ai_level(level)?,
                pace: Pace::Days(days),
                color,
            }),
            (Some(user), None) => Ok(OnlineStart::Correspondence {
                user: user.clone(),
                days,
                color,
                rated: typed.rated,
            }),
            // A seek by days is not the Board API's.
            (None, None) => Err(Refusal::OptionUnused("--days")),
        };
    }
    let (limit_s, increment_s) =
        online_time(time.unwrap_or(DEFAULT_TIME)).ok_or(Refusal::TimeForm)?;
    let asking = match (&typed.challenge, typed.ai) {
        (_, Some(_)) => Asking::Ai,
        (Some(_), None) => Asking::Challenge,
        (None, None) => Asking::Seek,
    };
    api::check_clock(asking, limit_s, increment_s)?;
    match (&typed.challenge, typed.ai) {
        (_, Some(level)) => Ok(OnlineStart::Ai {
            level: ai_level(level)?,
            pace: Pace::Clock {
                limit_s,
                increment_s,
            },
            color,
        }),
        (Some(user), _) => Ok(OnlineStart::Challenge {
            user: user.clone(),
            limit_s,
            increment_s,
            color,
            rated: typed.rated,
        }),
        (None, None) => Ok(OnlineStart::Seek {
            limit_s,
            increment_s,
            color,
            rated: typed.rated,
        }),
    }
}

/// The journal of lichess game `id` left unfinished (a correspondence
/// game quit between moves), to be taken up again by `--game ID` as
/// `--resume` would: its moves are not said again, the game goes on from
/// where it was.  None when there is none, or it cannot be read.
#[must_use]
pub fn saved_online_game(store: &Store, id: &str) -> Option<ResumeOffer> {
    let g = store.list().ok()?.into_iter().rev().find(|g| {
        g.unfinished()
            && !g.set_aside
            && g.online
                .as_deref()
                .is_some_and(|a| a.rsplit('/').next() == Some(id))
    })?;
    ResumeOffer::load(store, &g.id, ResumeChoice::Now).ok()
}

/// An AI level as lichess takes it (checked before: 1 to 8).
fn ai_level(level: u32) -> Result<u8, Refusal> {
    u8::try_from(level)
        .ok()
        .filter(|l| api::check_ai_level(u32::from(*l)))
        .ok_or(Refusal::AiLevel)
}

/// lichess's time control, MIN+SEC (`10+5`): seconds at the start and
/// seconds added per move, as lichess bounds them (1 to 180 minutes, at
/// most 180 seconds added).
#[must_use]
pub fn online_time(spec: &str) -> Option<(u32, u32)> {
    let (min, sec) = spec.trim().split_once('+')?;
    let min: u32 = min.trim().parse().ok()?;
    let sec: u32 = sec.trim().parse().ok()?;
    ((1..=180).contains(&min) && sec <= 180).then_some((min * 60, sec))
}

/// The round of `--broadcast ID`, checked before the game begins.
///
/// # Errors
///
/// [`Refusal::RoundForm`] for an id that is not eight letters or digits,
/// [`Refusal::BroadcastNoToken`] without a token.
pub fn broadcast_round(given: &str, has_token: bool) -> Result<RoundId, Refusal> {
    let round = RoundId::parse(given).ok_or(Refusal::RoundForm)?;
    if has_token {
        Ok(round)
    } else {
        Err(Refusal::BroadcastNoToken)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phrase::{MoveOptions, MoveStyle};
    use crate::setup::typed::tests::play;
    use crate::words::vocab::Lang;

    fn start(typed: &[&str]) -> Result<OnlineStart, Refusal> {
        let mut args = vec!["--lichess"];
        args.extend_from_slice(typed);
        let p = play(&args);
        online_start(&p, p.settings.time.as_deref())
    }

    #[test]
    fn joining_takes_no_challenge_options() {
        assert_eq!(start(&[]), Ok(OnlineStart::Join));
        assert_eq!(
            start(&["--color", "white"]),
            Err(Refusal::OptionUnused("--color"))
        );
        assert_eq!(
            start(&["--time", "10+5"]),
            Err(Refusal::OptionUnused("--time"))
        );
    }

    #[test]
    fn a_challenge_with_its_time_colour_and_rating() {
        assert_eq!(
            start(&["--challenge", "bob"]),
            Ok(OnlineStart::Challenge {
                user: "bob".into(),
                limit_s: 900,
                increment_s: 10,
                color: None,
                rated: false
            })
        );
        assert_eq!(
            start(&[
                "--challenge",
                "bob",
                "--time",
                "3+2",
                "--color",
                "black",
                "--rated"
            ]),
            Ok(OnlineStart::Challenge {
                user: "bob".into(),
                limit_s: 180,
                increment_s: 2,
                color: Some(Color::Black),
                rated: true
            })
        );
        assert_eq!(
            start(&["--challenge", "bob", "--time", "90"]),
            Err(Refusal::TimeForm)
        );
    }

    #[test]
    fn a_seek_is_rapid_or_slower() {
        assert_eq!(
            start(&["--seek", "--time", "10+0", "--color", "random"]),
            Ok(OnlineStart::Seek {
                limit_s: 600,
                increment_s: 0,
                color: None,
                rated: false
            })
        );
        assert_eq!(
            start(&["--seek", "--time", "3+2"]),
            Err(Refusal::SeekTooFast)
        );
    }

    #[test]
    fn what_the_board_api_does_not_play_is_refused_before_sending() {
        // Bullet (1+0, 2+1) in a challenge; an increment over a minute.
        assert_eq!(
            start(&["--challenge", "bob", "--time", "1+0"]),
            Err(Refusal::FasterThanBlitz)
        );
        assert_eq!(
            start(&["--challenge", "bob", "--time", "2+1"]),
            Err(Refusal::FasterThanBlitz)
        );
        assert_eq!(
            start(&["--challenge", "bob", "--time", "10+61"]),
            Err(Refusal::IncrementTooLong(60))
        );
        assert_eq!(
            start(&["--seek", "--time", "10+181"]),
            Err(Refusal::TimeForm)
        );
        assert_eq!(start(&["--ai", "9"]), Err(Refusal::AiLevel));
        assert_eq!(
            start(&["--ai", "3", "--time", "1+0"]),
            Err(Refusal::FasterThanBlitz)
        );
        assert_eq!(
            start(&["--challenge", "bob", "--days", "4"]),
            Err(Refusal::DaysNotOffered)
        );
        assert_eq!(
            start(&["--days", "3"]),
            Err(Refusal::OptionUnused("--days"))
        );
        assert_eq!(start(&["--game", "nope"]), Err(Refusal::GameIdForm));
        assert_eq!(
            start(&["--game", "AbCd1234", "--time", "10+5"]),
            Err(Refusal::OptionUnused("--time"))
        );
        assert_eq!(
            start(&["--challenge", "bob", "--days", "3", "--time", "10+5"]),
            Err(Refusal::OptionUnused("--time"))
        );
    }

    #[test]
    fn a_game_by_id_by_days_and_against_the_ai() {
        assert_eq!(
            start(&["--game", "https://lichess.org/AbCd1234"]),
            Ok(OnlineStart::Game {
                id: "AbCd1234".into()
            })
        );
        assert_eq!(
            start(&["--challenge", "bob", "--days", "3", "--color", "white"]),
            Ok(OnlineStart::Correspondence {
                user: "bob".into(),
                days: 3,
                color: Some(Color::White),
                rated: false
            })
        );
        assert_eq!(
            start(&["--ai", "3"]),
            Ok(OnlineStart::Ai {
                level: 3,
                pace: Pace::Clock {
                    limit_s: 900,
                    increment_s: 10
                },
                color: None
            })
        );
        assert_eq!(
            start(&["--ai", "8", "--days", "2", "--color", "black"]),
            Ok(OnlineStart::Ai {
                level: 8,
                pace: Pace::Days(2),
                color: Some(Color::Black)
            })
        );
    }

    #[test]
    fn lichess_time_bounds() {
        assert_eq!(online_time(" 10 + 5 "), Some((600, 5)));
        assert_eq!(online_time("180+180"), Some((10_800, 180)));
        for bad in ["0+5", "181+0", "10+181", "10", "+5", "a+b", "10+-1"] {
            assert_eq!(online_time(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_broadcast_needs_a_round_and_a_token() {
        assert!(broadcast_round("AbCd1234", true).is_ok());
        assert_eq!(
            broadcast_round("AbCd1234", false),
            Err(Refusal::BroadcastNoToken)
        );
        assert_eq!(broadcast_round("short", true), Err(Refusal::RoundForm));
    }

    #[test]
    fn every_refusal_is_said_in_the_players_language() {
        let all = [
            Refusal::NoToken,
            Refusal::OptionUnused("--time"),
            Refusal::TimeForm,
            Refusal::SeekTooFast,
            Refusal::FasterThanBlitz,
            Refusal::IncrementTooLong(60),
            Refusal::StartNotOffered,
            Refusal::DaysNotOffered,
            Refusal::AiLevel,
            Refusal::GameIdForm,
            Refusal::RoundForm,
            Refusal::BroadcastNoToken,
        ];
        for lang in Lang::ALL {
            let p = Phraser::builtin(MoveStyle::AppendixD, lang, MoveOptions::default());
            for r in &all {
                let s = r.sentence(&p);
                assert!(!s.is_empty() && !s.contains('{'), "{lang:?} {r:?}: {s}");
            }
        }
        let en = Phraser::builtin(MoveStyle::AppendixD, Lang::En, MoveOptions::default());
        assert!(
            Refusal::OptionUnused("--time")
                .sentence(&en)
                .starts_with("--time is only")
        );
        assert_eq!(Refusal::NoToken.exit_code(), 1);
        assert_eq!(Refusal::TimeForm.exit_code(), 2);
    }
}
