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
    use crate::clock::spec::SpecError;
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
    fn times_in_words_in_four_languages() {
        let en = Built(Lang::En);
        assert_eq!(time(&en, s(252)), "four minutes twelve seconds");
        assert_eq!(time(&en, s(60)), "one minute");
        assert_eq!(time(&en, s(61)), "one minute one second");
        assert_eq!(
            time(&en, s(3600 + 120 + 5)),
            "one hour two minutes five seconds"
        );
        assert_eq!(time(&en, Duration::from_millis(4999)), "five seconds");
        assert_eq!(time(&en, Duration::from_millis(4400)), "four seconds");
        assert_eq!(time(&en, Duration::from_millis(300)), "less than a second");
        assert_eq!(time(&en, Duration::ZERO), "no time");
        assert_eq!(time(&en, s(5400)), "one hour thirty minutes");
        let de = Built(Lang::De);
        assert_eq!(time(&de, s(252)), "vier Minuten zwölf Sekunden");
        assert_eq!(time(&de, s(61)), "eine Minute eine Sekunde");
        assert_eq!(
            time(&de, s(3600 + 21 * 60)),
            "eine Stunde einundzwanzig Minuten"
        );
        let it = Built(Lang::It);
        assert_eq!(time(&it, s(252)), "quattro minuti e dodici secondi");
        assert_eq!(time(&it, s(3661)), "un'ora, un minuto e un secondo");
        assert_eq!(time(&it, s(60 + 8)), "un minuto e otto secondi");
        assert_eq!(time(&it, s(23 * 60)), "ventitré minuti");
        let el = Built(Lang::El);
        assert_eq!(time(&el, s(252)), "τέσσερα λεπτά δώδεκα δευτερόλεπτα");
        assert_eq!(time(&el, s(3600 + 60)), "μία ώρα ένα λεπτό");
        assert_eq!(time(&el, s(3 * 3600)), "τρεις ώρες");
        assert_eq!(time(&el, s(3 * 60 + 1)), "τρία λεπτά ένα δευτερόλεπτο");
        for w in [&en, &de, &it, &el] {
            for n in [0, 1, 9, 59, 61, 252, 3599, 3600, 7322, 86_399] {
                let t = time(w, s(n));
                assert!(!t.chars().any(|c| c.is_ascii_digit() || c == ':'), "{t}");
            }
        }
    }

    #[test]
    fn counts_have_their_plural_forms() {
        let en = Built(Lang::En);
        assert_eq!(moves(&en, 1), "One move played.");
        assert_eq!(moves(&en, 2), "Two moves played.");
        let de = Built(Lang::De);
        assert_eq!(moves(&de, 1), "Ein Zug gespielt.");
        assert_eq!(moves(&de, 2), "Zwei Züge gespielt.");
        let it = Built(Lang::It);
        assert_eq!(moves(&it, 1), "Una mossa giocata.");
        assert_eq!(moves(&it, 2), "Due mosse giocate.");
        let el = Built(Lang::El);
        assert_eq!(moves(&el, 1), "Έγινε μία κίνηση.");
        assert_eq!(moves(&el, 2), "Έγιναν δύο κινήσεις.");
        assert_eq!(moves(&el, 24), "Έγιναν είκοσι τέσσερις κινήσεις.");
        let a = Announcement::PeriodEnd {
            side: Color::White,
            moves: 40,
            added: s(1800),
        };
        assert_eq!(
            announcement(&it, &a),
            "Bianco: quaranta mosse giocate; trenta minuti in più."
        );
        assert_eq!(
            announcement(&el, &a),
            "Λευκά: έγιναν σαράντα κινήσεις· τριάντα λεπτά επιπλέον."
        );
        let c = Announcement::Countdown {
            side: Color::White,
            seconds: 7,
        };
        assert_eq!(announcement(&de, &c), "sieben");
    }

    #[test]
    fn announcements_in_words() {
        let en = Built(Lang::En);
        let a = Announcement::Threshold {
            side: Color::White,
            left: s(300),
        };
        assert_eq!(announcement(&en, &a), "White: five minutes left.");
        let a = Announcement::PeriodEnd {
            side: Color::Black,
            moves: 40,
            added: s(1800),
        };
        assert_eq!(
            announcement(&en, &a),
            "Black: forty moves made; thirty minutes added."
        );
        let a = Announcement::Countdown {
            side: Color::White,
            seconds: 7,
        };
        assert_eq!(announcement(&en, &a), "seven");
        assert_eq!(
            both(&en, s(252), s(190)),
            "White: four minutes twelve seconds. Black: three minutes ten seconds."
        );
        assert_eq!(moves(&en, 0), "No moves played yet.");
        assert_eq!(moves(&en, 23), "Twenty-three moves played.");
        assert_eq!(
            last_move(&en, Color::White, Some(s(12))),
            "White's last move took twelve seconds."
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
