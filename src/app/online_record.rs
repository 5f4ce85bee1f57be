//! The online game's record: its start record names the lichess game
//! (id, server, the player's side), both players with their ratings, the
//! time control and whether it is rated; the site is the game's address.
//! The token is never part of it.  Each move's clock is the server's (the
//! clock follows it), so the exports carry lichess's `%clk`.

use std::time::{Duration, Instant};

use shakmaty::{ByColor, CastlingMode, Color};

use super::App;
use super::online::OnlinePlay;
use crate::lichess::api::Request;
use crate::lichess::event::{FullClock, GameFull, Side};
use crate::lichess::sync::{Change, GameSync};
use crate::msg::{Effect, LichessOrder};
use crate::scoresheet::record::{Event, StartInfo, online_key};
use crate::scoresheet::replay::RestoredClock;
use crate::speech::{Priority, SayKind};

/// The PGN `TimeControl` of lichess's clock (`600+5`), or `-` untimed.
fn time_control(full: &GameFull) -> String {
    match full.clock {
        Some(c) => format!("{}+{}", c.initial / 1000, c.increment / 1000),
        None => "-".to_owned(),
    }
}

/// lichess's clock from a `TimeControl` of the record (`600+5`).
fn clock_of(time_control: Option<&str>) -> Option<FullClock> {
    let (initial, increment) = time_control?.split_once('+')?;
    Some(FullClock {
        initial: initial.trim().parse::<u64>().ok()?.checked_mul(1000)?,
        increment: increment.trim().parse::<u64>().ok()?.checked_mul(1000)?,
    })
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

    /// The online game came to nothing (aborted, or its first move not
    /// made in time): no result, so its journal, if begun, says so and
    /// sets the game aside, never to be offered for resuming.
    pub(super) fn journal_online_void(&mut self, status: &str) {
        if self.journal_begun().is_none() {
            return;
        }
        self.journal_event(Event::Note {
            text: format!("lichess: {status}"),
        });
        self.journal_event(Event::SetAside);
    }

    /// The `gameFull` of a game rejoined lacks the player's last move:
    /// hector stopped before lichess had it.  The move is sent now, not
    /// taken back (lichess confirms it as any).
    pub(super) fn rejoin_resend(
        &mut self,
        changes: Vec<Change>,
        out: &mut Vec<Effect>,
    ) -> Vec<Change> {
        let me = self.settings.me;
        let mine = self
            .game
            .last_move()
            .filter(|m| m.by == me)
            .map(|m| m.mv.to_uci(CastlingMode::Standard).to_string());
        let (Some(uci), [Change::TakenBack { count: 1 }]) = (mine, &changes[..]) else {
            return changes;
        };
        let Some((game, sync)) = self.parts.online.as_mut().and_then(|o| o.game_and_sync()) else {
            return changes;
        };
        sync.sent(&uci);
        out.push(Effect::Lichess(LichessOrder::Send(Request::Move {
            game,
            uci,
            offering_draw: false,
        })));
        Vec::new()
    }

    /// A game resumed from its journal that was played on lichess: rejoined
    /// by its id.  Its stream is opened again; the `gameFull` it begins
    /// with brings what happened meanwhile (each move the opponent made
    /// said once, in order; the end, if it came).  The clock is lichess's,
    /// its times the server's.
    pub(super) fn online_rejoin(
        &mut self,
        start: &StartInfo,
        last: Option<RestoredClock>,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
        let Some(online) = start.online() else {
            return;
        };
        self.settings.me = online.side;
        let side = match online.side {
            Color::White => Side::White,
            Color::Black => Side::Black,
        };
        let heard: Vec<String> = self
            .game
            .history()
            .iter()
            .map(|m| m.mv.to_uci(CastlingMode::Standard).to_string())
            .collect();
        let fen = start.fen.as_deref().unwrap_or("startpos");
        let sync = GameSync::resumed(side, fen, heard);
        self.parts.online = Some(OnlinePlay::rejoining(online.game.clone(), side, sync));
        self.online_clock(clock_of(start.time_control.as_deref()));
        // Until lichess tells them, the times last journalled, stopped.
        if let (Some(part), Some(last)) = (&mut self.parts.clock, last) {
            let ms = |v: i64| Duration::from_millis(u64::try_from(v).unwrap_or(0));
            let times = ByColor {
                white: ms(last.white_ms),
                black: ms(last.black_ms),
            };
            part.clock.follow(times, None, now);
        }
        out.push(Effect::Lichess(LichessOrder::OpenGameStream(online.game)));
        let them = match online.side {
            Color::White => &start.black,
            Color::Black => &start.white,
        };
        let t = self.message("lichess_rejoining", &[("name", them)]);
        self.say(out, t, Priority::Normal, SayKind::Game);
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
        let line = crate::scoresheet::Event::Start(Box::new(s.clone())).to_string();
        assert_eq!(
            line.parse::<crate::scoresheet::Event>(),
            Ok(crate::scoresheet::Event::Start(Box::new(s)))
        );
    }

    fn said(e: &[Effect]) -> Vec<String> {
        e.iter()
            .filter_map(|x| match x {
                Effect::Say(u) => Some(u.text.clone()),
                _ => None,
            })
            .collect()
    }

    /// An app resuming an online game, as White against Bob, after
    /// 1. e4 e5 2. Nf3 (the last press journalled).
    fn resumed_online(t0: std::time::Instant) -> (App, Vec<Effect>) {
        use crate::scoresheet::record::{ClockEvent, Event, Record};
        use crate::scoresheet::{GameId, ResumeChoice, ResumeOffer, replay};
        let mut start = StartInfo::default();
        start.set_online_server("https://lichess.org");
        online_start_info(&mut start, &full(true, r#","rating":1622"#), Side::White);
        let events = [
            Event::Start(Box::new(start)),
            Event::Move {
                number: 1,
                by: Color::White,
                san: "e4".into(),
                uci: "e2e4".into(),
            },
            Event::Move {
                number: 1,
                by: Color::Black,
                san: "e5".into(),
                uci: "e7e5".into(),
            },
            Event::Move {
                number: 2,
                by: Color::White,
                san: "Nf3".into(),
                uci: "g1f3".into(),
            },
            Event::Clock(ClockEvent::Press {
                by: Color::White,
                white_ms: 590_000,
                black_ms: 595_000,
            }),
        ];
        let records: Vec<Record> = events
            .into_iter()
            .enumerate()
            .map(|(i, event)| Record {
                seq: i as u64 + 1,
                at: time::OffsetDateTime::UNIX_EPOCH,
                event,
            })
            .collect();
        let offer = ResumeOffer {
            id: GameId::parse("20261126-190000").unwrap(),
            started: None,
            resumed: replay(&records).unwrap(),
            read_warnings: vec![],
            damage: None,
            asking_keep: false,
            choice: ResumeChoice::Now,
        };
        let mut app = App::builder().lang(crate::words::Lang::En).build();
        app.enable_journal(StartInfo::default());
        let e = app.update(crate::msg::Msg::Resume(Box::new(offer)), t0);
        (app, e)
    }

    fn game_line(app: &mut App, at: std::time::Instant, line: &str) -> Vec<Effect> {
        let event = crate::lichess::event::game_line(line).unwrap().unwrap();
        let io = crate::lichess::io::LichessIo::Game("AbCd1234".into(), event);
        app.update(crate::msg::Msg::Lichess(io), at)
    }

    #[test]
    fn a_resumed_online_game_is_rejoined_by_its_id_and_only_new_moves_are_said() {
        let t0 = std::time::Instant::now();
        let (mut app, e) = resumed_online(t0);
        assert!(
            e.contains(&Effect::Lichess(LichessOrder::OpenGameStream(
                "AbCd1234".into()
            ))),
            "{e:?}"
        );
        assert_eq!(
            said(&e).last().map(String::as_str),
            Some("Rejoining the lichess game against Bob.")
        );
        // Until lichess answers, the times last journalled, stopped.
        let c = app.clock().expect("lichess's clock");
        assert_eq!(
            c.remaining(Color::White, t0 + std::time::Duration::from_secs(9)),
            std::time::Duration::from_millis(590_000)
        );
        assert!(!c.is_running());
        // Start-up after the resume opens nothing else and says nothing.
        let e = app.update(crate::msg::Msg::Start, t0);
        assert!(!e.iter().any(|e| matches!(e, Effect::Lichess(_))), "{e:?}");
        // The gameFull: one move made meanwhile, said once.
        let full_line = r#"{"type":"gameFull","id":"AbCd1234","rated":true,"white":{"id":"ann","name":"Ann","rating":1510},"black":{"id":"bob","name":"Bob","rating":1622},"initialFen":"startpos","clock":{"initial":600000,"increment":5000},"state":{"type":"gameState","moves":"e2e4 e7e5 g1f3 b8c6","wtime":590000,"btime":580000,"winc":5000,"binc":5000,"status":"started"}}"#;
        let e = game_line(&mut app, t0, full_line);
        // (Appendix D's words, the default.)
        assert_eq!(said(&e), ["Springer Cesar sechs"]);
        // Journalled on the same journal, with the server's clock.
        let journalled: Vec<&crate::scoresheet::Event> = e
            .iter()
            .filter_map(|e| match e {
                Effect::Journal(crate::scoresheet::JournalOp::AppendAll(v)) => Some(v.iter()),
                _ => None,
            })
            .flatten()
            .collect();
        assert!(
            matches!(
                journalled[..],
                [
                    crate::scoresheet::Event::Move { .. },
                    crate::scoresheet::Event::Clock(crate::scoresheet::record::ClockEvent::Press {
                        by: Color::Black,
                        white_ms: 590_000,
                        black_ms: 580_000
                    })
                ]
            ),
            "{journalled:?}"
        );
        // The same gameFull again (a reconnect): nothing.
        assert!(said(&game_line(&mut app, t0, full_line)).is_empty());
        // The clock is lichess's: the player's time runs.
        let c = app.clock().expect("lichess's clock");
        assert_eq!(
            c.remaining(Color::Black, t0),
            std::time::Duration::from_millis(580_000)
        );
    }

    #[test]
    fn the_players_move_lichess_never_got_is_sent_again_not_taken_back() {
        let t0 = std::time::Instant::now();
        let (mut app, _) = resumed_online(t0);
        // lichess has only 1. e4 e5: 2. Nf3 never reached it.
        let full_line = r#"{"type":"gameFull","id":"AbCd1234","rated":true,"white":{"id":"ann","name":"Ann"},"black":{"id":"bob","name":"Bob"},"initialFen":"startpos","state":{"type":"gameState","moves":"e2e4 e7e5","wtime":590000,"btime":595000,"winc":5000,"binc":5000,"status":"started"}}"#;
        let e = game_line(&mut app, t0, full_line);
        assert!(said(&e).is_empty(), "{:?}", said(&e));
        assert!(
            e.contains(&Effect::Lichess(LichessOrder::Send(Request::Move {
                game: "AbCd1234".into(),
                uci: "g1f3".into(),
                offering_draw: false
            }))),
            "{e:?}"
        );
        assert_eq!(app.game.history().len(), 3);
        // lichess confirms it: not said again; the reply is.
        let state = r#"{"type":"gameState","moves":"e2e4 e7e5 g1f3","wtime":590000,"btime":595000,"winc":5000,"binc":5000,"status":"started"}"#;
        assert!(said(&game_line(&mut app, t0, state)).is_empty());
        let state = r#"{"type":"gameState","moves":"e2e4 e7e5 g1f3 b8c6","wtime":590000,"btime":580000,"winc":5000,"binc":5000,"status":"started"}"#;
        assert_eq!(
            said(&game_line(&mut app, t0, state)),
            ["Springer Cesar sechs"]
        );
    }

    #[test]
    fn a_game_ended_meanwhile_is_said_and_completed() {
        let t0 = std::time::Instant::now();
        let (mut app, _) = resumed_online(t0);
        let over = r#"{"type":"gameFull","id":"AbCd1234","rated":true,"white":{"id":"ann","name":"Ann"},"black":{"id":"bob","name":"Bob"},"initialFen":"startpos","state":{"type":"gameState","moves":"e2e4 e7e5 g1f3","wtime":590000,"btime":1000,"winc":5000,"binc":5000,"status":"resign","winner":"white"}}"#;
        let e = game_line(&mut app, t0, over);
        assert_eq!(
            said(&e),
            [
                "The game ended on lichess while hector was away.",
                "Black resigns. White wins, 1-0."
            ]
        );
        assert!(app.game.is_over());
        let result = e.iter().any(|e| match e {
            Effect::Journal(crate::scoresheet::JournalOp::Append(ev)) => {
                matches!(ev, crate::scoresheet::Event::Result { .. })
            }
            Effect::Journal(crate::scoresheet::JournalOp::AppendAll(v)) => v
                .iter()
                .any(|ev| matches!(ev, crate::scoresheet::Event::Result { .. })),
            _ => false,
        });
        assert!(result, "{e:?}");
    }

    #[test]
    fn a_game_ended_meanwhile_after_a_move_says_the_move_first() {
        let t0 = std::time::Instant::now();
        let (mut app, _) = resumed_online(t0);
        let over = r#"{"type":"gameFull","id":"AbCd1234","white":{"id":"ann","name":"Ann"},"black":{"id":"bob","name":"Bob"},"initialFen":"startpos","state":{"type":"gameState","moves":"e2e4 e7e5 g1f3 b8c6","wtime":590000,"btime":1000,"winc":5000,"binc":5000,"status":"resign","winner":"white"}}"#;
        assert_eq!(
            said(&game_line(&mut app, t0, over)),
            [
                "Springer Cesar sechs",
                "The game ended on lichess while hector was away.",
                "Black resigns. White wins, 1-0."
            ]
        );
    }

    #[test]
    fn an_aborted_game_is_set_aside_in_its_journal() {
        let t0 = std::time::Instant::now();
        let (mut app, _) = resumed_online(t0);
        let aborted = r#"{"type":"gameFull","id":"AbCd1234","white":{"id":"ann","name":"Ann"},"black":{"id":"bob","name":"Bob"},"initialFen":"startpos","state":{"type":"gameState","moves":"e2e4 e7e5 g1f3","wtime":590000,"btime":1000,"winc":5000,"binc":5000,"status":"aborted"}}"#;
        let e = game_line(&mut app, t0, aborted);
        assert!(
            said(&e).contains(&"The game was aborted.".to_owned()),
            "{e:?}"
        );
        let journalled: Vec<&Event> = e
            .iter()
            .filter_map(|e| match e {
                Effect::Journal(crate::scoresheet::JournalOp::AppendAll(v)) => Some(v.iter()),
                _ => None,
            })
            .flatten()
            .collect();
        assert_eq!(
            journalled,
            [
                &Event::Note {
                    text: "lichess: aborted".into()
                },
                &Event::SetAside
            ]
        );
    }

    #[test]
    fn lichess_out_of_reach_on_rejoining_is_said_once_and_the_game_kept() {
        use crate::lichess::io::{LichessIo, Stream};
        let t0 = std::time::Instant::now();
        let (mut app, _) = resumed_online(t0);
        let ms = |n: u64| t0 + std::time::Duration::from_millis(n);
        let down =
            || crate::msg::Msg::Lichess(LichessIo::StreamDown(Stream::Game("AbCd1234".into())));
        assert_eq!(
            said(&app.update(down(), ms(100))),
            [
                "lichess cannot be reached now. The game is kept: resume it later with hector play --resume."
            ]
        );
        assert!(said(&app.update(down(), ms(700))).is_empty());
        // Not said again as a lost connection after five seconds.
        assert!(said(&app.update(crate::msg::Msg::Deadline, ms(6000))).is_empty());
        assert!(said(&app.update(down(), ms(12_000))).is_empty());
        assert!(!app.game.is_over());
    }

    /// The journal fuzz target's seeds: an online game's journal reads
    /// back with its game, ratings and clocks; the journal of before (a
    /// game over the board) reads as it did, no online game in it.
    #[test]
    fn the_journal_seeds_read_online_and_before() {
        use crate::scoresheet::record::parse_journal;
        let online = include_bytes!("../../fuzz/seeds/journal/lichess");
        let parsed = parse_journal(&online[2..]);
        assert!(parsed.warnings.is_empty(), "{:?}", parsed.warnings);
        let r = crate::scoresheet::replay(&parsed.records).unwrap();
        let game = r.start.online().unwrap();
        assert_eq!(
            (game.url.as_str(), game.game.as_str(), game.side),
            ("https://lichess.org", "stand1n0", Color::White)
        );
        assert_eq!(r.record.clocks.len(), 4);
        assert!(r.record.clocks.iter().all(Option::is_some));
        let pgn = crate::scoresheet::pgn::to_pgn(&r.record);
        assert!(pgn.contains("[WhiteElo \"1500\"]"), "{pgn}");
        let before = include_bytes!("../../fuzz/seeds/journal/game");
        let parsed = parse_journal(&before[2..]);
        let r = crate::scoresheet::replay(&parsed.records).unwrap();
        assert_eq!(r.start.online(), None);
        assert_eq!(r.start.elo(Color::White), None);
        assert!(!crate::scoresheet::pgn::to_pgn(&r.record).contains("Elo"));
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
