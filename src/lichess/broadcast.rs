//! Pushing an over-the-board game to a lichess broadcast round
//! (`POST /api/broadcast/round/{id}/push`, the PGN as the body, a token
//! with the `study:write` scope), sans-IO.
//!
//! Only the newest PGN matters: each one holds the whole game, so a PGN
//! waiting to go is replaced by a newer one (coalesced), and a push that
//! failed is not sent again when a newer one is waiting.  One request at
//! a time; a failure (no network, 5xx) is tried again after the growing
//! pause of [`Backoff`]; a 429 waits a full minute; a refused token or an
//! unknown round stops the pushes and is said once.  Being away (no push
//! through for `schedule::OFFLINE_AFTER`, five seconds) is said once, and being back once.  The
//! caller gives `now`; nothing here reads a clock or a socket.

use std::time::Instant;

use super::schedule::{Backoff, Link, LinkNotice, RATE_LIMIT_WAIT};

/// A broadcast round's id: eight letters or digits, as lichess makes them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundId(String);

impl RoundId {
    /// The id as typed, or none when it is not eight letters or digits.
    #[must_use]
    pub fn parse(s: &str) -> Option<Self> {
        let s = s.trim();
        (s.len() == 8 && s.bytes().all(|b| b.is_ascii_alphanumeric())).then(|| Self(s.to_owned()))
    }

    /// The id.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The push endpoint's path.
    #[must_use]
    pub fn push_path(&self) -> String {
        format!("/api/broadcast/round/{}/push", self.0)
    }
}

/// One push to make: the whole game as PGN, numbered so that its answer
/// is matched with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Push {
    /// Counts the PGNs offered; a newer one has a higher number.
    pub seq: u64,
    /// The PGN text.
    pub pgn: String,
}

/// How a push ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PushOutcome {
    /// 2xx, the game taken (lichess may still have refused the PGN in
    /// its answer: `pgn_error`).
    Accepted {
        /// lichess's complaint about the game's PGN, if any.
        pgn_error: Option<String>,
    },
    /// 401 or 403: the token is refused (or lacks `study:write`, or the
    /// round is not the token's).  Nothing more is pushed.
    TokenRefused,
    /// 404: no such round.  Nothing more is pushed.
    NoSuchRound,
    /// Another 4xx (lichess's text): the PGN was refused.
    Refused(String),
    /// 429: wait a full minute.
    RateLimited,
    /// No answer (no network, a timeout, 5xx): tried again.
    Failed,
}

/// What the player is told of the broadcast.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PushNotice {
    /// No push has gone through for a while (said once).
    Away,
    /// Pushes go through again (said once, after [`PushNotice::Away`]).
    Back,
    /// lichess asked for a pause: the next push waits a minute.
    RateLimited,
    /// The token is refused: the broadcast stops.
    TokenRefused,
    /// There is no such round: the broadcast stops.
    NoSuchRound,
    /// lichess refused the game's PGN (said once, until a push is taken).
    PgnRefused(String),
}

/// The push queue of one broadcast round.
#[derive(Debug, Clone)]
pub struct Pusher {
    round: RoundId,
    /// The newest PGN not yet sent (or to be sent again).
    waiting: Option<Push>,
    in_flight: Option<Push>,
    seq: u64,
    /// The newest PGN lichess has taken.
    taken: Option<u64>,
    not_before: Option<Instant>,
    backoff: Backoff,
    link: Link,
    stopped: bool,
    pgn_refusal_told: bool,
}

impl Pusher {
    /// Nothing pushed yet.
    #[must_use]
    pub fn new(round: RoundId) -> Self {
        Self {
            round,
            waiting: None,
            in_flight: None,
            seq: 0,
            taken: None,
            not_before: None,
            backoff: Backoff::default(),
            link: Link::default(),
            stopped: false,
            pgn_refusal_told: false,
        }
    }

    /// The round pushed to.
    #[must_use]
    pub fn round(&self) -> &RoundId {
        &self.round
    }

    /// The game as it is now: it replaces any PGN still waiting.
    pub fn offer(&mut self, pgn: String) {
        if self.stopped {
            return;
        }
        self.seq += 1;
        self.waiting = Some(Push { seq: self.seq, pgn });
    }

    /// The push to make now, if one may go: something waiting, none in
    /// flight, no pause running, not stopped.
    pub fn next(&mut self, now: Instant) -> Option<Push> {
        if self.stopped || self.in_flight.is_some() || self.not_before.is_some_and(|t| now < t) {
            return None;
        }
        self.not_before = None;
        let p = self.waiting.take()?;
        self.in_flight = Some(p.clone());
        Some(p)
    }

    /// The push numbered `seq` ended so.  What to tell the player, if
    /// anything.
    pub fn done(&mut self, seq: u64, outcome: PushOutcome, now: Instant) -> Option<PushNotice> {
        let sent = match self.in_flight.take() {
            Some(p) if p.seq == seq => p,
            // Not the push in flight (cannot happen): keep it in flight.
            other => {
                self.in_flight = other;
                return None;
            }
        };
        match outcome {
            PushOutcome::Accepted { pgn_error } => {
                self.backoff.reset();
                self.taken = Some(sent.seq);
                let back = self.link.up().map(|_| PushNotice::Back);
                match pgn_error {
                    Some(e) if !self.pgn_refusal_told => {
                        self.pgn_refusal_told = true;
                        Some(PushNotice::PgnRefused(e))
                    }
                    Some(_) => back,
                    None => {
                        self.pgn_refusal_told = false;
                        back
                    }
                }
            }
            PushOutcome::Refused(e) => {
                self.backoff.reset();
                let _ = self.link.up();
                (!std::mem::replace(&mut self.pgn_refusal_told, true))
                    .then_some(PushNotice::PgnRefused(e))
            }
            PushOutcome::TokenRefused | PushOutcome::NoSuchRound => {
                self.stopped = true;
                self.waiting = None;
                Some(if outcome == PushOutcome::TokenRefused {
                    PushNotice::TokenRefused
                } else {
                    PushNotice::NoSuchRound
                })
            }
            PushOutcome::RateLimited => {
                self.again(sent);
                self.not_before = Some(now + RATE_LIMIT_WAIT);
                Some(PushNotice::RateLimited)
            }
            PushOutcome::Failed => {
                self.again(sent);
                self.not_before = Some(now + self.backoff.fail());
                self.link.down(now);
                None
            }
        }
    }

    /// A push that did not go through waits again, unless a newer PGN
    /// took its place.
    fn again(&mut self, sent: Push) {
        if self.waiting.is_none() {
            self.waiting = Some(sent);
        }
    }

    /// Time passed: whether to say the broadcast is away.
    pub fn tick(&mut self, now: Instant) -> Option<PushNotice> {
        (self.link.tick(now) == Some(LinkNotice::Offline)).then_some(PushNotice::Away)
    }

    /// When [`Pusher::next`] or [`Pusher::tick`] has something to do
    /// that it has not now.
    #[must_use]
    pub fn deadline(&self) -> Option<Instant> {
        let retry = if self.stopped || self.in_flight.is_some() || self.waiting.is_none() {
            None
        } else {
            self.not_before
        };
        [retry, self.link.deadline()].into_iter().flatten().min()
    }

    /// Whether the newest PGN offered has been taken by lichess (nothing
    /// waits, nothing in flight).
    #[must_use]
    pub fn up_to_date(&self) -> bool {
        self.waiting.is_none() && self.in_flight.is_none() && self.taken == Some(self.seq)
    }

    /// Whether pushes stopped (a refused token, no such round).
    #[must_use]
    pub fn stopped(&self) -> bool {
        self.stopped
    }
}

/// The first complaint in a push's answer (`{"games":[{"tags":…,
/// "error":"…"}]}`), if lichess had one about the game.
#[must_use]
pub fn pgn_error(body: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Answer {
        #[serde(default)]
        games: Vec<Game>,
    }
    #[derive(serde::Deserialize)]
    struct Game {
        #[serde(default)]
        error: Option<String>,
    }
    serde_json::from_str::<Answer>(body)
        .ok()?
        .games
        .into_iter()
        .find_map(|g| g.error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lichess::schedule::{BACKOFF_CAP, BACKOFF_FIRST};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn pusher() -> Pusher {
        Pusher::new(RoundId::parse("abcd1234").unwrap())
    }

    const OK: PushOutcome = PushOutcome::Accepted { pgn_error: None };

    #[test]
    fn round_ids_are_eight_letters_or_digits() {
        assert_eq!(
            RoundId::parse(" Ab12cD34 ").unwrap().push_path(),
            "/api/broadcast/round/Ab12cD34/push"
        );
        for bad in ["", "abc", "abcd12345", "abcd/234", "abcd 234", "abcdé23"] {
            assert_eq!(RoundId::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn only_the_newest_pgn_goes_and_one_at_a_time() {
        let t0 = Instant::now();
        let mut p = pusher();
        assert_eq!(p.next(t0), None, "nothing offered");
        p.offer("1. e4".into());
        let first = p.next(t0).unwrap();
        assert_eq!(first.pgn, "1. e4");
        p.offer("1. e4 e5".into());
        p.offer("1. e4 e5 2. Nf3".into());
        assert_eq!(p.next(t0), None, "one in flight");
        assert_eq!(p.done(first.seq, OK, t0), None);
        assert!(!p.up_to_date());
        let second = p.next(t0).unwrap();
        assert_eq!(second.pgn, "1. e4 e5 2. Nf3", "the middle one coalesced");
        assert_eq!(p.next(t0), None);
        p.done(second.seq, OK, t0);
        assert!(p.up_to_date());
        assert_eq!(p.next(t0), None);
        assert_eq!(p.deadline(), None);
    }

    #[test]
    fn a_failed_push_is_retried_after_the_backoff_unless_a_newer_one_waits() {
        let t0 = Instant::now();
        let mut p = pusher();
        p.offer("A".into());
        let a = p.next(t0).unwrap();
        assert_eq!(p.done(a.seq, PushOutcome::Failed, t0), None);
        assert_eq!(p.deadline(), Some(t0 + BACKOFF_FIRST));
        assert_eq!(p.next(t0 + ms(499)), None);
        let again = p.next(t0 + ms(500)).unwrap();
        assert_eq!(again, a, "the same PGN again");
        // It fails again while a newer PGN comes: the newer one goes.
        p.offer("B".into());
        p.done(again.seq, PushOutcome::Failed, t0 + ms(500));
        assert_eq!(p.deadline(), Some(t0 + ms(1500)));
        let b = p.next(t0 + ms(1500)).unwrap();
        assert_eq!(b.pgn, "B");
        p.done(b.seq, OK, t0 + ms(1500));
        assert!(p.up_to_date());
    }

    #[test]
    fn the_pause_grows_to_ten_seconds_and_never_more() {
        let mut t = Instant::now();
        let mut p = pusher();
        p.offer("A".into());
        let mut pauses = Vec::new();
        for _ in 0..9 {
            let push = p.next(t).unwrap();
            p.done(push.seq, PushOutcome::Failed, t);
            let retry = p.not_before.unwrap();
            pauses.push(retry.duration_since(t).as_millis());
            t = retry;
        }
        assert_eq!(
            pauses,
            [500, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000, 10_000]
        );
        assert_eq!(BACKOFF_CAP, Duration::from_secs(10));
    }

    #[test]
    fn away_is_said_once_after_five_seconds_and_back_once() {
        let t0 = Instant::now();
        let mut p = pusher();
        p.offer("A".into());
        let mut now = t0;
        let mut said = Vec::new();
        // Fail for 30 s of virtual time, moves still coming.
        while now < t0 + Duration::from_secs(30) {
            if let Some(n) = p.tick(now) {
                said.push((now.duration_since(t0), n));
            }
            if let Some(push) = p.next(now) {
                p.done(push.seq, PushOutcome::Failed, now);
                p.offer(format!("{}+", push.pgn));
            }
            now = p.deadline().unwrap_or(now + ms(100)).max(now + ms(1));
        }
        assert_eq!(said, [(Duration::from_secs(5), PushNotice::Away)]);
        let push = p.next(now).unwrap();
        assert_eq!(p.done(push.seq, OK, now), Some(PushNotice::Back));
        p.offer("B".into());
        let b = p.next(now).unwrap();
        assert_eq!(p.done(b.seq, OK, now), None, "back said once");
        // A short failure is not said at all.
        p.offer("C".into());
        let c = p.next(now).unwrap();
        p.done(c.seq, PushOutcome::Failed, now);
        assert_eq!(p.tick(now + ms(400)), None);
        let c = p.next(now + ms(500)).unwrap();
        assert_eq!(p.done(c.seq, OK, now + ms(500)), None);
        assert_eq!(p.tick(now + Duration::from_secs(10)), None);
    }

    #[test]
    fn a_429_waits_a_full_minute() {
        let t0 = Instant::now();
        let mut p = pusher();
        p.offer("A".into());
        let a = p.next(t0).unwrap();
        assert_eq!(
            p.done(a.seq, PushOutcome::RateLimited, t0),
            Some(PushNotice::RateLimited)
        );
        p.offer("B".into());
        assert_eq!(p.deadline(), Some(t0 + RATE_LIMIT_WAIT));
        assert_eq!(p.next(t0 + ms(59_999)), None);
        assert_eq!(p.next(t0 + RATE_LIMIT_WAIT).unwrap().pgn, "B");
    }

    #[test]
    fn a_refused_token_or_round_stops_the_pushes_and_is_said_once() {
        for (outcome, notice) in [
            (PushOutcome::TokenRefused, PushNotice::TokenRefused),
            (PushOutcome::NoSuchRound, PushNotice::NoSuchRound),
        ] {
            let t0 = Instant::now();
            let mut p = pusher();
            p.offer("A".into());
            let a = p.next(t0).unwrap();
            assert_eq!(p.done(a.seq, outcome, t0), Some(notice));
            assert!(p.stopped());
            p.offer("B".into());
            assert_eq!(p.next(t0 + Duration::from_secs(3600)), None);
            assert_eq!(p.deadline(), None);
            assert_eq!(p.tick(t0 + Duration::from_secs(3600)), None);
        }
    }

    #[test]
    fn a_refused_pgn_is_said_once_until_one_is_taken() {
        let t0 = Instant::now();
        let mut p = pusher();
        let bad = || PushOutcome::Accepted {
            pgn_error: Some("Invalid PGN".into()),
        };
        for (i, outcome) in [bad(), PushOutcome::Refused("Bad".into()), bad(), OK, bad()]
            .into_iter()
            .enumerate()
        {
            p.offer(format!("{i}"));
            let push = p.next(t0).unwrap();
            let said = p.done(push.seq, outcome, t0);
            let want = match i {
                0 => Some(PushNotice::PgnRefused("Invalid PGN".into())),
                4 => Some(PushNotice::PgnRefused("Invalid PGN".into())),
                _ => None,
            };
            assert_eq!(said, want, "push {i}");
        }
    }

    #[test]
    fn an_answer_to_another_push_changes_nothing() {
        let t0 = Instant::now();
        let mut p = pusher();
        p.offer("A".into());
        let a = p.next(t0).unwrap();
        assert_eq!(p.done(a.seq + 7, OK, t0), None);
        assert_eq!(p.next(t0), None, "still in flight");
        p.done(a.seq, OK, t0);
        assert!(p.up_to_date());
    }

    #[test]
    fn the_answers_complaint_is_read() {
        assert_eq!(
            pgn_error(r#"{"games":[{"tags":{"White":"A"},"moves":3}]}"#),
            None
        );
        assert_eq!(
            pgn_error(r#"{"games":[{"tags":{},"error":"Illegal move"}]}"#).as_deref(),
            Some("Illegal move")
        );
        assert_eq!(pgn_error("not json"), None);
    }
}
