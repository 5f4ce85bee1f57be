//! lichess from the command line: `--lichess` with `--challenge`,
//! `--seek`, `--color`, `--time` and `--rated` resolved into how the
//! online game begins, and `--broadcast` into its round; or the reason
//! nothing is started, said in the player's language.

use shakmaty::Color;

use crate::app::OnlineStart;
use crate::lichess::api::seek_allowed;
use crate::lichess::broadcast::RoundId;
use crate::phrase::Phraser;

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

/// How `hector play --lichess` begins: a challenge, a seek, or joining the
/// game going on.  `time` is the typed `--time` (on lichess the clock is
/// the server's: the option is the challenge's, not hector's clock).
///
/// # Errors
///
/// The [`Refusal`] to say: `--color` or `--time` without a challenge or a
/// seek, a time that is not MIN+SEC, a seek faster than rapid.
pub fn online_start(typed: &PlayArgs, time: Option<&str>) -> Result<OnlineStart, Refusal> {
    let asks = typed.challenge.is_some() || typed.seek;
    // Joining a game already going on would ignore them.
    if !asks {
        let unused = [
            (typed.color.is_some(), "--color"),
            (time.is_some(), "--time"),
        ];
        if let Some((_, option)) = unused.iter().find(|(given, _)| *given) {
            return Err(Refusal::OptionUnused(option));
        }
        return Ok(OnlineStart::Join);
    }
    let (limit_s, increment_s) =
        online_time(time.unwrap_or(DEFAULT_TIME)).ok_or(Refusal::TimeForm)?;
    let color = match typed.color {
        Some(ChallengeColor::White) => Some(Color::White),
        Some(ChallengeColor::Black) => Some(Color::Black),
        Some(ChallengeColor::Random) | None => None,
    };
    match &typed.challenge {
        Some(user) => Ok(OnlineStart::Challenge {
            user: user.clone(),
            limit_s,
            increment_s,
            color,
            rated: typed.rated,
        }),
        // lichess takes real-time seeks of rapid or classical only.
        None if !seek_allowed(limit_s, increment_s) => Err(Refusal::SeekTooFast),
        None => Ok(OnlineStart::Seek {
            limit_s,
            increment_s,
            color,
            rated: typed.rated,
        }),
    }
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
