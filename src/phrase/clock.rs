//! The clock's words come from the Phraser's messages: [`Words`] for
//! [`Phraser`], so `clock::words` can say times, announcements and SPEC
//! errors in the player's language.

use shakmaty::Color;

use super::Phraser;
use crate::clock::words::Words;

impl Words for Phraser {
    fn message(&self, key: &str, args: &[(&str, &str)]) -> String {
        Phraser::message(self, key, args)
    }

    fn side(&self, color: Color) -> String {
        Phraser::side(self, color)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::Announcement;
    use crate::clock::SpecError;
    use crate::clock::words::{announcement, both, last_move, moves, spec_error, time};
    use crate::phrase::{MoveOptions, MoveStyle};
    use crate::words::Lang;
    use shakmaty::Color;
    use std::time::Duration;

    #[allow(non_snake_case)]
    fn Built(lang: Lang) -> Phraser {
        Phraser::builtin(MoveStyle::Language, lang, MoveOptions::default())
    }

    fn s(n: u64) -> Duration {
        Duration::from_secs(n)
    }

    #[test]
    fn times_in_words_in_three_languages() {
        let en = Built(Lang::En);
        assert_eq!(time(&en, s(252)), "4 minutes 12 seconds");
        assert_eq!(time(&en, s(60)), "1 minute");
        assert_eq!(time(&en, s(61)), "1 minute 1 second");
        assert_eq!(time(&en, s(3600 + 120 + 5)), "1 hour 2 minutes 5 seconds");
        assert_eq!(time(&en, Duration::from_millis(4999)), "5 seconds");
        assert_eq!(time(&en, Duration::from_millis(4400)), "4 seconds");
        assert_eq!(time(&en, Duration::from_millis(300)), "less than a second");
        assert_eq!(time(&en, Duration::ZERO), "no time");
        let de = Built(Lang::De);
        assert_eq!(time(&de, s(252)), "4 Minuten 12 Sekunden");
        assert_eq!(time(&de, s(61)), "1 Minute 1 Sekunde");
        let it = Built(Lang::It);
        assert_eq!(time(&it, s(252)), "4 minuti e 12 secondi");
        assert_eq!(time(&it, s(3661)), "1 ora, 1 minuto e 1 secondo");
        for w in [&en, &de, &it] {
            assert!(!time(w, s(252)).contains(':'));
        }
    }

    #[test]
    fn announcements_in_words() {
        let en = Built(Lang::En);
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
        let de = Built(Lang::De);
        assert_eq!(
            announcement(&de, &Announcement::Flag { side: Color::Black }),
            "Schwarz: Zeit überschritten."
        );
    }

    #[test]
    fn spec_errors_say_what_is_wrong() {
        let en = Built(Lang::En);
        let say = |spec: &str| spec_error(&en, &crate::clock::parse_spec(spec).unwrap_err());
        assert_eq!(
            say("1:75+0"),
            "\"1:75\": write the seconds with two digits, 00 to 59."
        );
        assert!(say("quick").contains("blitz"), "{}", say("quick"));
        assert!(say("40/90").contains("rest of the game"));
        assert!(say("90,30").contains("move count"));
        let it = Built(Lang::It);
        let e = spec_error(&it, &SpecError::NoTime);
        assert!(!e.is_empty() && e != "spec_no_time");
    }
}
