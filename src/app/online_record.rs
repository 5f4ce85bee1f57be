//! The online game's record: its start record names the lichess game
//! (id, server, the player's side), both players with their ratings, the
//! time control and whether it is rated; the site is the game's address.
//! The token is never part of it.  Each move's clock is the server's (the
//! clock follows it), so the exports carry lichess's `%clk`.

use super::App;
use crate::lichess::event::{GameFull, Side};
use crate::scoresheet::record::{StartInfo, online_key};

/// The PGN `TimeControl` of lichess's clock (`600+5`), or `-` untimed.
fn time_control(full: &GameFull) -> String {
    match full.clock {
        Some(c) => format!("{}+{}", c.initial / 1000, c.increment / 1000),
        None => "-".to_owned(),
    }
}

/// The game's address on its server: `https://lichess.org/ID`.
pub(super) fn game_address(url: &str, id: &str) -> String {
    format!("{}/{id}", url.trim_end_matches('/'))
}

/// The start record of an online game, as its first `gameFull` tells it;
/// `start` keeps what the session gave (the date, the server).
pub(super) fn online_start_info(start: &mut StartInfo, full: &GameFull, side: Side) {
    start.white.clone_from(&full.white.name);
    start.black.clone_from(&full.black.name);
    if start.event.trim().is_empty() {
        let kind = if full.rated { "Rated" } else { "Casual" };
        start.event = format!("{kind} game on lichess");
    }
    let url = start
        .extra_value(online_key::URL)
        .unwrap_or("https://lichess.org")
        .to_owned();
    start.site = game_address(&url, &full.id);
    start.set_extra(online_key::URL, url.trim_end_matches('/'));
    start.set_extra(online_key::GAME, &full.id);
    start.set_extra(
        online_key::SIDE,
        match side {
            Side::White => "white",
            Side::Black => "black",
        },
    );
    for (key, player) in [
        (online_key::WHITE_ELO, &full.white),
        (online_key::BLACK_ELO, &full.black),
    ] {
        match player.rating {
            Some(r) => start.set_extra(key, &r.to_string()),
            None => start.extra.retain(|(k, _)| k != key),
        }
    }
    start.set_extra(online_key::RATED, if full.rated { "yes" } else { "no" });
    start.time_control = Some(time_control(full));
    // lichess's clock is not one of hector's to set up again on resume:
    // the server's times come back with the game.
    start.clock = None;
}

impl App {
    /// The online game has begun (its first `gameFull`): the journal's
    /// start record says which game it is, who plays, rated or not.
    pub(super) fn journal_online_game(&mut self, full: &GameFull, side: Side) {
        self.journal_start_with(|start| online_start_info(start, full, side));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lichess::event::GameEvent;
    use shakmaty::Color;

    fn full(rated: bool, black_rating: &str) -> GameFull {
        let line = format!(
            r#"{{"type":"gameFull","id":"AbCd1234","rated":{rated},"white":{{"id":"ann","name":"Ann","rating":1510}},"black":{{"id":"bob","name":"Bob"{black_rating}}},"initialFen":"startpos","clock":{{"initial":600000,"increment":5000}},"state":{{"type":"gameState","moves":"","wtime":600000,"btime":600000,"winc":5000,"binc":5000,"status":"started"}}}}"#
        );
        match crate::lichess::event::game_line(&line) {
            Ok(Some(GameEvent::Full(f))) => *f,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_start_record_names_the_game_players_ratings_and_clock() {
        let mut s = StartInfo {
            date: "2026.11.26".into(),
            ..StartInfo::default()
        };
        s.set_extra(online_key::URL, "http://127.0.0.1:8080/");
        online_start_info(&mut s, &full(true, r#","rating":1622"#), Side::Black);
        assert_eq!((s.white.as_str(), s.black.as_str()), ("Ann", "Bob"));
        assert_eq!(s.site, "http://127.0.0.1:8080/AbCd1234");
        assert_eq!(s.time_control.as_deref(), Some("600+5"));
        assert_eq!(s.elo(Color::White), Some("1510"));
        assert_eq!(s.elo(Color::Black), Some("1622"));
        assert_eq!(s.extra_value(online_key::RATED), Some("yes"));
        assert_eq!(s.event, "Rated game on lichess");
        let online = s.online().unwrap();
        assert_eq!(online.url, "http://127.0.0.1:8080");
        assert_eq!(online.game, "AbCd1234");
        assert_eq!(online.side, Color::Black);
        // Read back from the journal's line as written.
        let line = crate::scoresheet::Event::Start(Box::new(s.clone())).to_text();
        assert_eq!(
            crate::scoresheet::Event::from_text(&line),
            Some(crate::scoresheet::Event::Start(Box::new(s)))
        );
    }

    #[test]
    fn an_unrated_player_has_no_rating_and_the_default_server_is_lichess() {
        let mut s = StartInfo::default();
        online_start_info(&mut s, &full(false, ""), Side::White);
        assert_eq!(s.site, "https://lichess.org/AbCd1234");
        assert_eq!(s.elo(Color::Black), None);
        assert_eq!(s.extra_value(online_key::RATED), Some("no"));
        assert_eq!(s.event, "Casual game on lichess");
    }
}
