//! A game pushed live to a lichess broadcast round (`--broadcast ROUND`),
//! one more part of the App: after every change of the game (a move, a
//! takeback, its end) the whole game as PGN is offered to the sans-IO
//! push queue (`crate::lichess::broadcast`), which decides what goes out
//! and when; the front end carries out [`Effect::BroadcastPush`] and
//! brings the answer back as [`Msg::Broadcast`](crate::msg::Msg).  The
//! game never waits for the network: a push is an effect like any other,
//! and its faults are said once, at the information level.

use std::time::{Duration, Instant};

use super::change::GameChange;
use super::voice::{Talk, Voice};
use crate::game::Game;
use crate::lichess::broadcast::{PushNotice, PushOutcome, Pusher, RoundId};
use crate::msg::Effect;
use crate::scoresheet::GameRecord;
use crate::speech::{Priority, SayKind};

/// The broadcast part: the queue, and the game as last offered.
#[derive(Debug)]
pub(super) struct Broadcast {
    pusher: Pusher,
    /// The game changed since it was last offered (or was never offered).
    changed: bool,
    /// Leaving was asked while lichess lacked the last moves: the session
    /// ends when they are taken, or at this time.
    quit_by: Option<Instant>,
}

/// How long leaving waits for the last moves to reach lichess.
pub(super) const QUIT_WAIT: Duration = Duration::from_secs(10);

impl Broadcast {
    /// Push the game to the broadcast round `round`.
    pub(super) fn new(round: RoundId) -> Broadcast {
        Broadcast {
            pusher: Pusher::new(round),
            changed: true,
            quit_by: None,
        }
    }

    /// When the queue wants to be woken (a retry, the away notice), or
    /// leaving can wait no longer.
    pub(super) fn deadline(&self) -> Option<Instant> {
        [self.pusher.deadline(), self.quit_by]
            .into_iter()
            .flatten()
            .min()
    }

    /// Whether lichess has the game as it is now (what the tests check).
    #[cfg(test)]
    pub(super) fn up_to_date(&self) -> bool {
        self.pusher.up_to_date()
    }

    /// The game changed: offered again at the end of the update (a move,
    /// a take-back, its end, another game; not an offer or a claim alone).
    pub(super) fn on_change(&mut self, change: &GameChange) {
        if matches!(
            change,
            GameChange::Moved { .. }
                | GameChange::TakenBack(_)
                | GameChange::Ended(_)
                | GameChange::Replaced(_)
        ) {
            self.changed = true;
        }
    }

    /// Whether the game is to be offered at the end of this update.
    pub(super) fn wants_game(&self) -> bool {
        self.changed
    }

    /// Nothing more to push: all taken, or the pushes stopped.
    fn settled(&self) -> bool {
        self.pusher.up_to_date() || self.pusher.stopped()
    }

    /// After an update: the game (as `pgn` writes it) offered again when
    /// it changed, and the push that may go now sent.
    pub(super) fn poll(&mut self, pgn: impl FnOnce() -> String, now: Instant, v: &mut Voice<'_>) {
        if std::mem::take(&mut self.changed) {
            self.pusher.offer(pgn());
        }
        self.send(now, v);
    }

    /// At the end of an update (its effects `out`): leaving waits (at most
    /// [`QUIT_WAIT`]) until lichess has the last moves, and says so.  An
    /// interruption (Ctrl-C, SIGTERM, SIGHUP) is not held; the end of the
    /// input while waiting is.
    pub(super) fn hold_quit(
        &mut self,
        now: Instant,
        interrupted: bool,
        talk: &mut Talk,
        out: &mut Vec<Effect>,
    ) {
        if interrupted {
            self.quit_by = None;
            return;
        }
        if let Some(by) = self.quit_by {
            let settled = self.settled();
            if settled || now >= by {
                self.quit_by = None;
                if !settled {
                    let mut v = Voice::new(talk, out);
                    v.say_key(
                        "broadcast_last_not_sent",
                        &[],
                        Priority::Info,
                        SayKind::Info,
                    );
                }
                if !out.contains(&Effect::Quit) {
                    out.push(Effect::Quit);
                }
            } else {
                // Still waiting (a second `quit`, the end of the input).
                out.retain(|e| e != &Effect::Quit);
            }
            return;
        }
        if out.contains(&Effect::Quit) && !self.settled() {
            out.retain(|e| e != &Effect::Quit);
            self.quit_by = Some(now + QUIT_WAIT);
            let mut v = Voice::new(talk, out);
            v.say_key("broadcast_sending_last", &[], Priority::Info, SayKind::Info);
        }
    }

    fn send(&mut self, now: Instant, v: &mut Voice<'_>) {
        if let Some(push) = self.pusher.next(now) {
            v.effect(Effect::BroadcastPush(self.pusher.round().clone(), push));
        }
    }

    /// Time passed: the away notice, a retry.
    pub(super) fn tick(&mut self, now: Instant, v: &mut Voice<'_>) {
        let notice = self.pusher.tick(now);
        self.say(notice, v);
        self.send(now, v);
    }

    /// A push's answer.
    pub(super) fn done(&mut self, seq: u64, outcome: PushOutcome, now: Instant, v: &mut Voice<'_>) {
        let notice = self.pusher.done(seq, outcome, now);
        self.say(notice, v);
        self.send(now, v);
    }

    fn say(&self, notice: Option<PushNotice>, v: &mut Voice<'_>) {
        let Some(notice) = notice else {
            return;
        };
        let round = self.pusher.round().as_str().to_owned();
        let t = match notice {
            PushNotice::Away => v.text("broadcast_away", &[]),
            PushNotice::Back => v.text("broadcast_back", &[]),
            PushNotice::RateLimited => v.text("broadcast_rate_limited", &[]),
            PushNotice::TokenRefused => v.text("broadcast_token_refused", &[]),
            PushNotice::NoSuchRound => v.text("broadcast_no_such_round", &[("round", &round)]),
            PushNotice::PgnRefused(e) => v.text("broadcast_pgn_refused", &[("error", &e)]),
        };
        v.say(t, Priority::Info, SayKind::Info);
    }
}

/// The game as PGN for the broadcast: the scoresheet when the game is
/// journalled (`record`: names, event, clock times), else the moves with
/// the tags the game knows.
pub(super) fn pgn_of(game: &Game, record: Option<GameRecord>) -> String {
    if let Some(record) = record {
        return crate::scoresheet::pgn::to_pgn(&record);
    }
    let result = game.result().map_or("*", |r| r.outcome.as_str());
    let mut pgn = format!(
        "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"-\"]\n\
         [White \"?\"]\n[Black \"?\"]\n[Result \"{result}\"]\n"
    );
    if game.start() != &shakmaty::Chess::default() {
        let fen = shakmaty::fen::Fen::from_position(game.start(), shakmaty::EnPassantMode::Legal);
        pgn.push_str(&format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n"));
    }
    pgn.push('\n');
    pgn.push_str(&game.pgn_movetext());
    pgn.push_str("\n\n");
    pgn
}

/// The push a test expects next from these effects.
#[cfg(test)]
pub(super) fn pushes(out: &[Effect]) -> Vec<crate::lichess::broadcast::Push> {
    out.iter()
        .filter_map(|e| match e {
            Effect::BroadcastPush(_, p) => Some(p.clone()),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::App;
    use crate::app::tests::said;
    use crate::lichess::broadcast::Push;
    use crate::msg::Msg;
    use std::time::Duration;

    fn app() -> App {
        let mut app = App::builder()
            .broadcast(RoundId::parse("abcd1234").unwrap())
            .build();
        let _ = app.update(Msg::Start, Instant::now());
        app
    }

    fn answer(app: &mut App, p: &Push, outcome: PushOutcome, now: Instant) -> Vec<Effect> {
        app.update(
            Msg::Broadcast {
                seq: p.seq,
                outcome,
            },
            now,
        )
    }

    const OK: PushOutcome = PushOutcome::Accepted { pgn_error: None };

    #[test]
    fn every_move_is_pushed_as_the_whole_game() {
        let t0 = Instant::now();
        let mut app = App::builder()
            .broadcast(RoundId::parse("abcd1234").unwrap())
            .build();
        let out = app.update(Msg::Start, t0);
        let first = pushes(&out);
        assert_eq!(first.len(), 1, "the empty game shows the game in the round");
        assert!(first[0].pgn.contains("[Result \"*\"]"));
        let out = answer(&mut app, &first[0], OK, t0);
        assert!(pushes(&out).is_empty());
        let out = app.update(Msg::Line("e4".into()), t0);
        let p = pushes(&out);
        assert_eq!(p.len(), 1);
        assert!(p[0].pgn.contains("1. e4 *"), "{}", p[0].pgn);
        // The game's sentence is said before the push goes out.
        let say = out.iter().position(|e| matches!(e, Effect::Say(_)));
        let push = out
            .iter()
            .position(|e| matches!(e, Effect::BroadcastPush(..)));
        assert!(say.is_some() && say < push, "{out:?}");
        answer(&mut app, &p[0], OK, t0);
        assert_eq!(
            app.parts.broadcast.as_ref().map(|b| b.up_to_date()),
            Some(true)
        );
        // A line that changes nothing pushes nothing.
        let out = app.update(Msg::Line("repeat".into()), t0);
        assert!(pushes(&out).is_empty());
    }

    #[test]
    fn moves_made_while_a_push_is_out_are_coalesced_and_the_end_is_pushed() {
        let t0 = Instant::now();
        let mut app = app();
        // The opening push is still out; three moves come.
        let opening = Push {
            seq: 1,
            pgn: String::new(),
        };
        for m in ["f3", "e5", "g4"] {
            let out = app.update(Msg::Line(m.into()), t0);
            assert!(pushes(&out).is_empty(), "one at a time");
        }
        let out = answer(&mut app, &opening, OK, t0);
        let p = pushes(&out);
        assert_eq!(p.len(), 1);
        assert!(p[0].pgn.contains("1. f3 e5 2. g4 *"), "{}", p[0].pgn);
        let out = app.update(Msg::Line("Qh4".into()), t0);
        assert!(pushes(&out).is_empty());
        let out = answer(&mut app, &p[0], OK, t0);
        let last = pushes(&out);
        assert!(
            last[0].pgn.contains("2. g4 Qh4# 0-1") && last[0].pgn.contains("[Result \"0-1\"]"),
            "{}",
            last[0].pgn
        );
        answer(&mut app, &last[0], OK, t0);
        assert_eq!(
            app.parts.broadcast.as_ref().map(|b| b.up_to_date()),
            Some(true)
        );
    }

    #[test]
    fn the_network_away_is_said_once_retried_and_back_once() {
        let t0 = Instant::now();
        let mut app = app();
        let mut inflight = Push {
            seq: 1,
            pgn: String::new(),
        };
        let mut now = t0;
        let mut heard = Vec::new();
        let mut moves = ["e4", "e5", "Nf3", "Nc6", "Bb5"].into_iter();
        // Thirty seconds of virtual time with no network, a move now and then.
        while now < t0 + Duration::from_secs(30) {
            let mut out = answer(&mut app, &inflight, PushOutcome::Failed, now);
            if let Some(m) = moves.next() {
                out.extend(app.update(Msg::Line(m.into()), now));
            }
            heard.extend(said(&out));
            let Some(next) = app.next_deadline() else {
                panic!("a retry is always due")
            };
            now = next;
            let out = app.update(Msg::Deadline, now);
            heard.extend(said(&out));
            let p = pushes(&out);
            if let Some(p) = p.first() {
                inflight = p.clone();
            }
        }
        let away = heard
            .iter()
            .filter(|s| s.contains("broadcast cannot reach"))
            .count();
        assert_eq!(away, 1, "{heard:?}");
        let out = answer(&mut app, &inflight, OK, now);
        let back: Vec<_> = said(&out);
        assert_eq!(back.len(), 1, "{back:?}");
        assert!(back[0].contains("reaches lichess again"), "{back:?}");
        assert!(inflight.pgn.contains("3. Bb5 *"), "{}", inflight.pgn);
        assert_eq!(
            app.parts.broadcast.as_ref().map(|b| b.up_to_date()),
            Some(true)
        );
    }

    #[test]
    fn a_refused_token_is_said_once_and_the_game_goes_on() {
        let t0 = Instant::now();
        let mut app = app();
        let opening = Push {
            seq: 1,
            pgn: String::new(),
        };
        let out = answer(&mut app, &opening, PushOutcome::TokenRefused, t0);
        let s = said(&out);
        assert_eq!(s.len(), 1);
        assert!(s[0].contains("study:write"), "{s:?}");
        let out = app.update(Msg::Line("e4".into()), t0);
        assert!(pushes(&out).is_empty());
        assert!(!said(&out).iter().any(|s| s.contains("broadcast")));
        assert_eq!(app.next_deadline(), None);
    }

    #[test]
    fn leaving_waits_for_the_last_moves_and_no_longer_than_ten_seconds() {
        let t0 = Instant::now();
        let mut a = app();
        let opening = Push {
            seq: 1,
            pgn: String::new(),
        };
        answer(&mut a, &opening, OK, t0);
        let out = a.update(Msg::Line("e4".into()), t0);
        let p = pushes(&out)[0].clone();
        let out = a.update(Msg::EndOfInput, t0);
        assert!(!out.contains(&Effect::Quit), "held: {out:?}");
        assert!(said(&out).iter().any(|s| s.contains("being sent")));
        assert_eq!(a.next_deadline(), Some(t0 + QUIT_WAIT));
        // The push is taken: the session ends.
        let out = answer(&mut a, &p, OK, t0 + Duration::from_secs(1));
        assert!(out.contains(&Effect::Quit), "{out:?}");

        // Never taken: ten seconds, then it ends and says so.
        let mut a = app_with_push_out();
        let out = a.update(Msg::Line("quit".into()), t0);
        assert!(!out.contains(&Effect::Quit), "held: {out:?}");
        let out = a.update(Msg::Deadline, t0 + QUIT_WAIT - Duration::from_millis(1));
        assert!(!out.contains(&Effect::Quit));
        let out = a.update(Msg::Deadline, t0 + QUIT_WAIT);
        assert!(out.contains(&Effect::Quit), "{out:?}");
        assert!(
            said(&out).iter().any(|s| s.contains("did not get")),
            "{out:?}"
        );

        // Interrupted (Ctrl-C, SIGTERM): not held, even while waiting;
        // the end of the input while waiting is held.
        let mut a = app_with_push_out();
        let out = a.update(Msg::Interrupted, t0);
        assert!(out.contains(&Effect::Quit), "{out:?}");
        let mut a = app_with_push_out();
        let _ = a.update(Msg::Line("quit".into()), t0);
        let out = a.update(Msg::EndOfInput, t0);
        assert!(!out.contains(&Effect::Quit), "{out:?}");
        let out = a.update(Msg::Interrupted, t0);
        assert!(out.contains(&Effect::Quit), "{out:?}");

        // Up to date: not held at all.
        let mut a = app();
        answer(&mut a, &opening, OK, t0);
        let out = a.update(Msg::EndOfInput, t0);
        assert!(out.contains(&Effect::Quit), "{out:?}");
    }

    /// An app whose opening push is still out.
    fn app_with_push_out() -> App {
        app()
    }

    #[test]
    fn a_game_without_a_broadcast_pushes_nothing() {
        let mut app = App::builder().build();
        let mut out = app.update(Msg::Start, Instant::now());
        out.extend(app.update(Msg::Line("e4".into()), Instant::now()));
        assert!(pushes(&out).is_empty());
        assert_eq!(app.parts.broadcast.as_ref().map(|b| b.up_to_date()), None);
    }

    /// The part alone, with the stream of changes: the game is offered at
    /// the first poll, then again only after a move, a take-back, its end
    /// or another game (not after an offer alone); a poll without a
    /// change writes no PGN.
    #[test]
    fn the_part_offers_the_game_again_only_after_a_change() {
        let t0 = Instant::now();
        let voice_out = |b: &mut Broadcast, written: &mut u32| {
            let mut talk = App::builder().build().talk;
            let mut out = Vec::new();
            b.poll(
                || {
                    *written += 1;
                    String::new()
                },
                t0,
                &mut Voice::new(&mut talk, &mut out),
            );
        };
        let mut b = Broadcast::new(RoundId::parse("abcd1234").unwrap());
        let mut written = 0;
        voice_out(&mut b, &mut written);
        assert_eq!(written, 1, "the game as it begins");
        voice_out(&mut b, &mut written);
        assert_eq!(written, 1, "nothing changed");
        b.on_change(&GameChange::Offered(shakmaty::Color::White));
        voice_out(&mut b, &mut written);
        assert_eq!(written, 1, "an offer alone");
        b.on_change(&GameChange::TakenBack(1));
        voice_out(&mut b, &mut written);
        assert_eq!(written, 2, "a take-back");
    }
}
