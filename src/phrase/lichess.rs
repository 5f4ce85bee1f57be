//! A lichess game in words: the games in progress (`hector lichess games`,
//! and the choice among them when hector joins one), each with its
//! opponent, pace, whose move it is and the time left.

use super::phraser::Phraser;
use crate::lichess::api::Playing;
use crate::lichess::event::{Speed, VariantKind};

impl Phraser {
    /// Why lichess gave no answer, as a sentence: "lichess answered with
    /// an error 502.", "lichess could not be reached: the connection was
    /// refused."
    pub fn lichess_no_answer(&self, why: &crate::lichess::api::NoAnswer) -> String {
        use crate::lichess::api::NoAnswer;
        match why {
            NoAnswer::Status(status) => {
                self.message("lichess_answered_error", &[("status", &status.to_string())])
            }
            NoAnswer::System(why) => {
                self.message("lichess_unreachable", &[("error", &self.io_why(why))])
            }
        }
    }

    /// The games in progress, in words: how many, then one sentence each, a
    /// line each (a screen reader's reading keys step through them).
    #[must_use]
    pub fn lichess_games(&self, games: &[Playing]) -> String {
        if games.is_empty() {
            return self.message("lichess_games_none", &[]);
        }
        let mut out = vec![self.message(
            "lichess_games_count",
            &[("count", &games.len().to_string())],
        )];
        out.extend(games.iter().map(|g| self.lichess_game(g)));
        out.join("\n")
    }

    /// One game in progress: "Against Bob, correspondence, your move, two
    /// days left, game corrBob1." (and that hector cannot play it, when so).
    #[must_use]
    pub fn lichess_game(&self, g: &Playing) -> String {
        let name = match &g.opponent {
            Some(o) if o.ai.is_some() => self.message(
                "lichess_ai_name",
                &[("level", &o.ai.unwrap_or_default().to_string())],
            ),
            Some(o) => o.username.clone(),
            None => String::new(),
        };
        let pace = match g.speed {
            Some(Speed::Correspondence) => "lichess_speed_correspondence",
            Some(Speed::Classical) => "lichess_speed_classical",
            Some(Speed::Rapid) => "lichess_speed_rapid",
            Some(Speed::Blitz) => "lichess_speed_blitz",
            Some(Speed::Bullet | Speed::UltraBullet) => "lichess_speed_bullet",
            None => "lichess_speed_unknown",
        };
        let turn = if g.is_my_turn {
            "lichess_turn_yours"
        } else {
            "lichess_turn_theirs"
        };
        let left = g.seconds_left.map(|s| self.time_left(s));
        let playable = g.compat.is_none_or(|c| c.board)
            && g.variant
                .as_ref()
                .is_none_or(|v| !matches!(v.kind(), VariantKind::Other(_)));
        let args = [
            ("name", name.as_str()),
            ("pace", &self.message(pace, &[])),
            ("turn", &self.message(turn, &[])),
            ("id", g.game_id.as_str()),
        ];
        let mut line = match &left {
            Some(left) => {
                let mut a = args.to_vec();
                a.push(("left", left.as_str()));
                self.message("lichess_games_line", &a)
            }
            None => self.message("lichess_games_line_no_time", &args),
        };
        if !playable {
            line.push(' ');
            line.push_str(&self.message("lichess_games_unplayable", &[]));
        }
        line
    }

    /// "two days left", "five hours left", "three minutes left".
    fn time_left(&self, seconds: u64) -> String {
        const DAY: u64 = 24 * 60 * 60;
        if seconds >= DAY {
            self.message(
                "lichess_left_days",
                &[("days", &(seconds / DAY).to_string())],
            )
        } else if seconds >= 60 * 60 {
            self.message(
                "lichess_left_hours",
                &[("hours", &(seconds / 3600).to_string())],
            )
        } else {
            let minutes = seconds.div_ceil(60);
            self.message("lichess_left_minutes", &[("minutes", &minutes.to_string())])
        }
    }
}
