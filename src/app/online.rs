//! A game on lichess, one more part of the App: the server's moves
//! announced like any opponent's (each once, across reconnects), the
//! player's moves posted in UCI (a refused one said and taken back),
//! draw, resignation and takeback asked of the server, engine help off
//! (fair play), and the link's faults said once.
//!
//! The protocol is `crate::lichess` (sans-IO); the network is the front
//! end's ([`LichessOrder`] out, [`Msg::Lichess`](crate::msg::Msg) in).

use std::time::{Duration, Instant};

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Color, Move, Position};

use super::App;
use crate::action::PlayerAction as Action;
use crate::game::{EndReason, Game, GameError, GameResult};
use crate::lichess::api::{Reply, Request};
use crate::lichess::event::{AccountEvent, GameEvent, GameFull, Side};
use crate::lichess::io::{LichessIo, Stream};
use crate::lichess::schedule::{Link, LinkNotice};
use crate::lichess::sync::{Change, GameSync};
use crate::msg::{Effect, LichessOrder};
use crate::speech::{Priority, SayKind};

/// How an online game begins.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OnlineStart {
    /// Challenge this player.
    Challenge {
        /// Their lichess name.
        user: String,
        /// Seconds on each clock at the start.
        limit_s: u32,
        /// Seconds added per move.
        increment_s: u32,
        /// The colour asked for (none: random).
        color: Option<Color>,
        /// Rated or casual.
        rated: bool,
    },
    /// Seek a real-time game against anyone (rapid or classical).
    Seek {
        /// Seconds on each clock at the start.
        limit_s: u32,
        /// Seconds added per move.
        increment_s: u32,
        /// The colour asked for (none: random).
        color: Option<Color>,
        /// Rated or casual.
        rated: bool,
    },
    /// Join the game going on (the first `gameStart` of the account).
    Join,
}

/// The online game's state.
#[derive(Debug)]
pub(super) struct OnlinePlay {
    start: OnlineStart,
    game_id: Option<String>,
    side: Option<Side>,
    sync: Option<GameSync>,
    link: Link,
    /// A move of the server's is being played into the game: not posted.
    applying: bool,
    /// A challenge made to the player, waiting for `accept` or `decline`.
    challenge: Option<String>,
    /// The opponent has left the game (`opponentGone`).
    gone: bool,
    /// A draw was offered in this game (by either side): a `draw` end
    /// is then one by agreement.
    offers_made: bool,
    /// Our own names on lichess (name and id), whose chat lines are not
    /// news to us.
    me_names: Vec<String>,
    /// Chat lines not yet heard, oldest first.
    unheard: Vec<crate::lichess::event::ChatLine>,
    /// When a chat notice was last said.
    chat_said_at: Option<Instant>,
    /// The opponent gone: when lichess lets the win be claimed (said then;
    /// a `claim` before is told how long to wait).
    claim_at: Option<Instant>,
    /// A game rejoined after hector stopped, before its `gameFull` came:
    /// `Some(true)` once lichess out of reach was said (branch record).
    rejoin: Option<bool>,
    /// White's and Black's names on lichess, for the full-screen view's
    /// clocks (branch walk).
    players: Option<[String; 2]>,
}

/// A chat line holds at most this many characters on lichess.
const CHAT_MAX: usize = 140;
/// After a chat notice, further lines are only counted for this long
/// (then said again, with their count): a talkative opponent does not
/// fill the game with notices.
const CHAT_QUIET: Duration = Duration::from_secs(30);
/// At most this many unheard lines are kept (the oldest go first).
const CHAT_KEPT: usize = 50;

impl OnlinePlay {
    /// When the link down for long must be said.
    pub(super) fn deadline(&self) -> Option<Instant> {
        match (self.link.deadline(), self.claim_at) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The game's id and its sync, once both are known.
    pub(super) fn game_and_sync(&mut self) -> Option<(String, &mut GameSync)> {
        Some((self.game_id.clone()?, self.sync.as_mut()?))
    }

    /// A game of the journal's rejoined by its id, as `side`, with the
    /// moves heard before hector stopped (`app/online_record.rs`).
    pub(super) fn rejoining(game_id: String, side: Side, sync: GameSync) -> OnlinePlay {
        OnlinePlay {
            start: OnlineStart::Join,
            game_id: Some(game_id),
            side: Some(side),
            sync: Some(sync),
            link: Link::default(),
            applying: false,
            challenge: None,
            gone: false,
            offers_made: false,
            me_names: Vec::new(),
            unheard: Vec::new(),
            chat_said_at: None,
            claim_at: None,
            rejoin: Some(false),
            players: None,
        }
    }
}

fn side_of(c: Color) -> Side {
    match c {
        Color::White => Side::White,
        Color::Black => Side::Black,
    }
}

fn colour_of(s: Side) -> Color {
    match s {
        Side::White => Color::White,
        Side::Black => Color::Black,
    }
}

impl App {
    /// Play on lichess (started with the session, [`crate::msg::Msg::Start`]).
    pub(super) fn set_online(&mut self, start: OnlineStart) {
        self.parts.online = Some(OnlinePlay {
            start,
            game_id: None,
            side: None,
            sync: None,
            link: Link::default(),
            applying: false,
            challenge: None,
            gone: false,
            offers_made: false,
            me_names: Vec::new(),
            unheard: Vec::new(),
            chat_said_at: None,
            claim_at: None,
            rejoin: None,
            players: None,
        });
    }

    /// The session begins: the account's stream, and the challenge.
    pub(super) fn online_start(&mut self, out: &mut Vec<Effect>) {
        let Some(o) = &self.parts.online else {
            return;
        };
        if o.rejoin.is_some() {
            // A game rejoined: its stream is open already.
            return;
        }
        out.push(Effect::Lichess(LichessOrder::OpenAccountStream));
        let t = match o.start.clone() {
            OnlineStart::Challenge {
                user,
                limit_s,
                increment_s,
                color,
                rated,
            } => {
                out.push(Effect::Lichess(LichessOrder::Send(Request::Challenge {
                    user: user.clone(),
                    limit_s,
                    increment_s,
                    color: color.map(side_of),
                    rated,
                })));
                self.message("lichess_challenge_sent", &[("name", &user)])
            }
            OnlineStart::Seek {
                limit_s,
                increment_s,
                color,
                rated,
            } => {
                out.push(Effect::Lichess(LichessOrder::Seek(Request::Seek {
                    limit_s,
                    increment_s,
                    color: color.map(side_of),
                    rated,
                })));
                let key = if rated {
                    "lichess_seeking_rated"
                } else {
                    "lichess_seeking_casual"
                };
                self.message(
                    key,
                    &[
                        ("minutes", &(limit_s / 60).to_string()),
                        ("seconds", &increment_s.to_string()),
                    ],
                )
            }
            OnlineStart::Join => self.message("lichess_waiting", &[]),
        };
        self.say(out, t, Priority::Normal, SayKind::Game);
    }

    /// Time passed: the link down for long is said.
    pub(super) fn online_tick(&mut self, now: Instant, out: &mut Vec<Effect>) {
        let notice = self.parts.online.as_mut().and_then(|o| o.link.tick(now));
        // A game rejoined out of reach has said so already.
        let said = self
            .parts
            .online
            .as_ref()
            .is_some_and(|o| o.rejoin == Some(true));
        if notice == Some(LinkNotice::Offline) && !said {
            let t = self.message("lichess_offline", &[]);
            self.say(out, t, Priority::Urgent, SayKind::Info);
        }
        let claimable = self.parts.online.as_mut().is_some_and(|o| {
            let due = o.gone && o.claim_at.is_some_and(|t| now >= t);
            if due {
                o.claim_at = None;
            }
            due
        });
        if claimable && !self.game.is_over() {
            let t = self.message("lichess_claim_now", &[]);
            self.say(out, t, Priority::Urgent, SayKind::Game);
        }
    }

    /// What the network brought.
    pub(super) fn on_lichess(&mut self, io: LichessIo, now: Instant, out: &mut Vec<Effect>) {
        if self.parts.online.is_none() {
            return;
        }
        match io {
            LichessIo::StreamOpen(_) => {
                let back = self.parts.online.as_mut().and_then(|o| o.link.up());
                if back == Some(LinkNotice::Back) {
                    let t = self.message("lichess_back", &[]);
                    self.say(out, t, Priority::Normal, SayKind::Info);
                }
            }
            LichessIo::StreamDown(_) => {
                if let Some(o) = &mut self.parts.online {
                    o.link.down(now);
                }
                self.rejoin_unreachable(out);
            }
            LichessIo::StreamRefused(_, 401) => {
                let t = self.message("lichess_token_refused", &[]);
                self.say(out, t, Priority::Urgent, SayKind::Error);
            }
            LichessIo::StreamRefused(Stream::Game(_), _) => {
                let t = self.message("lichess_game_gone", &[]);
                self.say(out, t, Priority::Urgent, SayKind::Error);
            }
            LichessIo::StreamRefused(Stream::Account, status) => {
                let t = self.message(
                    "lichess_unreachable",
                    &[("error", &format!("HTTP {status}"))],
                );
                self.say(out, t, Priority::Urgent, SayKind::Error);
            }
            LichessIo::StreamEnded(_) | LichessIo::BadLine(..) => {}
            LichessIo::Account(event) => self.on_account_event(*event, out),
            LichessIo::Game(id, event) => {
                let ours = self
                    .parts
                    .online
                    .as_ref()
                    .is_some_and(|o| o.game_id.as_deref() == Some(id.as_str()));
                if ours {
                    self.on_game_event(event, now, out);
                }
            }
            LichessIo::Reply(request, reply) => self.on_reply(&request, reply, now, out),
            LichessIo::RateLimited => {
                let t = self.message("lichess_rate_limited", &[]);
                self.say(out, t, Priority::Normal, SayKind::Info);
            }
        }
        // The opponent's move (a takeback, a refused move taken back, the
        // game read again) is awaited on the player's board.
        self.sync_board(now, out);
    }

    fn on_account_event(&mut self, event: AccountEvent, out: &mut Vec<Effect>) {
        match event {
            AccountEvent::GameStart(info) => {
                let Some(o) = &mut self.parts.online else {
                    return;
                };
                if o.game_id.is_some() || info.compat.is_some_and(|c| !c.board) {
                    return;
                }
                o.game_id = Some(info.game_id.clone());
                o.side = info.color;
                if let Some(side) = info.color {
                    self.settings.me = colour_of(side);
                }
                // Said when the game's stream brings it (`gameFull`): then
                // moves can be played.
                out.push(Effect::Lichess(LichessOrder::OpenGameStream(info.game_id)));
            }
            AccountEvent::ChallengeDeclined(c) => {
                // The reason in hector's words (lichess's text is English).
                let key = match c.decline_reason_key.as_deref() {
                    Some("later") => "lichess_declined_later",
                    Some("tooFast") => "lichess_declined_too_fast",
                    Some("tooSlow") => "lichess_declined_too_slow",
                    Some("timeControl") => "lichess_declined_time_control",
                    Some("rated") => "lichess_declined_rated",
                    Some("casual") => "lichess_declined_casual",
                    _ => "lichess_challenge_declined",
                };
                let name = c.dest_user.map(|p| p.name).unwrap_or_default();
                let t = self.message(key, &[("name", &name)]);
                self.say(out, t, Priority::Urgent, SayKind::Game);
            }
            AccountEvent::Challenge(c) => self.on_challenge(c, out),
            AccountEvent::ChallengeCanceled(c) => {
                let Some(o) = &mut self.parts.online else {
                    return;
                };
                if o.challenge.as_deref() == Some(c.id.as_str()) {
                    o.challenge = None;
                    let name = c.challenger.map(|p| p.name).unwrap_or_default();
                    let t = self.message("lichess_challenge_canceled", &[("name", &name)]);
                    self.say(out, t, Priority::Normal, SayKind::Game);
                }
            }
            AccountEvent::GameFinish(_) | AccountEvent::Other => {}
        }
    }

    /// A challenge to the player, while waiting for a game: said in words
    /// (who, rating, time, rated) and asked about.  Only standard chess
    /// with a clock is offered; one challenge is asked about at a time.
    fn on_challenge(&mut self, c: crate::lichess::event::Challenge, out: &mut Vec<Effect>) {
        let Some(o) = &mut self.parts.online else {
            return;
        };
        let to_us = c.direction.as_deref() != Some("out");
        let Some(crate::lichess::event::TimeControl::Clock { limit, increment }) =
            c.time_control.clone()
        else {
            return;
        };
        if !to_us
            || o.game_id.is_some()
            || o.challenge.is_some()
            || o.start != OnlineStart::Join
            || !c.is_standard()
        {
            return;
        }
        o.challenge = Some(c.id.clone());
        let (name, rating) = c
            .challenger
            .map(|p| (p.name, p.rating.map(|r| r.to_string()).unwrap_or_default()))
            .unwrap_or_default();
        let minutes = (limit / 60).to_string();
        let seconds = increment.to_string();
        let key = if c.rated {
            "lichess_challenged_rated"
        } else {
            "lichess_challenged_casual"
        };
        let t = self.message(
            key,
            &[
                ("name", &name),
                ("rating", &rating),
                ("minutes", &minutes),
                ("seconds", &seconds),
            ],
        );
        self.say(out, t, Priority::Urgent, SayKind::Game);
    }

    fn on_game_event(&mut self, event: GameEvent, now: Instant, out: &mut Vec<Effect>) {
        match event {
            GameEvent::Full(full) => self.on_game_full(&full, now, out),
            GameEvent::State(state) => {
                let changes = match self.parts.online.as_mut().and_then(|o| o.sync.as_mut()) {
                    Some(s) => s.update(&state),
                    None => return,
                };
                self.apply_changes(changes, now, out);
                self.online_follow_clock(now);
            }
            // Still gone: lichess's countdown, followed quietly.
            GameEvent::OpponentGone {
                gone: true,
                claim_win_in_seconds,
            } if self.parts.online.as_ref().is_some_and(|o| o.gone) => {
                if let Some(o) = &mut self.parts.online
                    && o.claim_at.is_some()
                {
                    o.claim_at = claim_win_in_seconds
                        .filter(|s| *s > 0)
                        .map(|s| now + Duration::from_secs(u64::from(s)));
                }
            }
            GameEvent::OpponentGone { gone: false, .. }
                if self.parts.online.as_ref().is_some_and(|o| !o.gone) => {}
            GameEvent::OpponentGone {
                gone: true,
                claim_win_in_seconds,
            } => {
                let wait = claim_win_in_seconds.unwrap_or(0);
                if let Some(o) = &mut self.parts.online {
                    o.gone = true;
                    o.claim_at = (wait > 0).then(|| now + Duration::from_secs(u64::from(wait)));
                }
                let t = self.message("lichess_opponent_gone", &[]);
                self.say(out, t, Priority::Urgent, SayKind::Game);
                let t = if wait > 0 {
                    self.message("lichess_claim_in", &[("seconds", &wait.to_string())])
                } else {
                    self.message("lichess_claim_now", &[])
                };
                self.say(out, t, Priority::Urgent, SayKind::Game);
            }
            GameEvent::OpponentGone { gone: false, .. } => {
                if let Some(o) = &mut self.parts.online {
                    o.gone = false;
                    o.claim_at = None;
                }
                let t = self.message("lichess_opponent_back", &[]);
                self.say(out, t, Priority::Normal, SayKind::Game);
            }
            GameEvent::Chat(line) => self.online_chat_line(line, now, out),
            GameEvent::Other => {}
        }
    }

    fn on_game_full(&mut self, full: &GameFull, now: Instant, out: &mut Vec<Effect>) {
        let Some(o) = &mut self.parts.online else {
            return;
        };
        // A game rejoined: it is reached.
        let rejoined = o.rejoin.take().is_some();
        o.players = Some([full.white.name.clone(), full.black.name.clone()]);
        let changes = match &mut o.sync {
            // A reconnect: only what was missed.
            Some(s) => s.full(full),
            None => {
                let side = o.side.unwrap_or(side_of(self.settings.me));
                let mut sync = GameSync::new(side, &full.initial_fen);
                let changes = sync.full(full);
                o.sync = Some(sync);
                let (us, them) = match side {
                    Side::White => (&full.white, &full.black),
                    Side::Black => (&full.black, &full.white),
                };
                o.me_names = [us.name.to_lowercase(), us.id.to_lowercase()]
                    .into_iter()
                    .filter(|n| !n.is_empty())
                    .collect();
                let (name, rating) = (them.name.clone(), them.rating);
                let clock = full.clock;
                let game = if full.initial_fen == "startpos" {
                    Ok(Game::new())
                } else {
                    Game::from_fen(&full.initial_fen)
                };
                match game {
                    Ok(g) => {
                        self.replace_game(g);
                        self.journal_online_game(full, side);
                        self.online_clock(clock);
                        self.say_online_start(&name, rating, out);
                    }
                    Err(_) => {
                        let t = self.message("lichess_position_unknown", &[]);
                        self.say(out, t, Priority::Urgent, SayKind::Error);
                        return;
                    }
                }
                changes
            }
        };
        let changes = if rejoined {
            self.rejoin_resend(changes, out)
        } else {
            changes
        };
        // A game rejoined that ended meanwhile: the moves missed first,
        // then that it ended while hector was away (unless a move ended
        // it, said as such), then its end.
        let mut changes = changes;
        let end = changes
            .iter()
            .position(|c| matches!(c, Change::Ended { .. }))
            .filter(|_| rejoined);
        if let Some(i) = end {
            let rest = changes.split_off(i);
            self.apply_changes(changes, now, out);
            if !self.game.is_over() {
                let t = self.message("lichess_ended_away", &[]);
                self.say(out, t, Priority::Urgent, SayKind::Game);
            }
            changes = rest;
        }
        self.apply_changes(changes, now, out);
        self.online_follow_clock(now);
    }

    /// The game's clock is the server's: a clock of hector's that follows
    /// it (spoken and shown as any, its thresholds included).
    pub(super) fn online_clock(&mut self, clock: Option<crate::lichess::event::FullClock>) {
        let Some(c) = clock else {
            return;
        };
        let bonus = match c.increment {
            0 => crate::clock::Bonus::None,
            ms => crate::clock::Bonus::Increment(Duration::from_millis(ms)),
        };
        if let Ok(control) =
            crate::clock::TimeControl::sudden_death(Duration::from_millis(c.initial), bonus)
        {
            let setup = super::ClockSetup::new(control);
            self.parts.clock = Some(super::clock::ClockPart::following_elsewhere(setup));
        }
    }

    /// The server's times, as of now: the side to move's runs (from the
    /// second move on: lichess starts the clocks after each side's first).
    fn online_follow_clock(&mut self, now: Instant) {
        let Some(sync) = self.parts.online.as_ref().and_then(|o| o.sync.as_ref()) else {
            return;
        };
        let Some(c) = sync.clock() else {
            return;
        };
        if sync.moves().len() == self.game.history().len() {
            self.journal_server_press(c.white_ms, c.black_ms);
        }
        let Some(sync) = self.parts.online.as_ref().and_then(|o| o.sync.as_ref()) else {
            return;
        };
        let running =
            (sync.moves().len() >= 2 && !sync.is_over()).then(|| colour_of(sync.to_move()));
        let times = shakmaty::ByColor {
            white: Duration::from_millis(c.white_ms),
            black: Duration::from_millis(c.black_ms),
        };
        if let Some(part) = &mut self.parts.clock {
            part.clock.follow(times, running, now);
        }
    }

    /// A game being rejoined cannot be reached: said once, and the game
    /// is kept for later (its journal stays unfinished).
    fn rejoin_unreachable(&mut self, out: &mut Vec<Effect>) {
        let Some(o) = self
            .parts
            .online
            .as_mut()
            .filter(|o| o.rejoin == Some(false))
        else {
            return;
        };
        o.rejoin = Some(true);
        let t = self.message("lichess_rejoin_offline", &[]);
        self.say(out, t, Priority::Urgent, SayKind::Info);
    }

    fn say_online_start(&mut self, name: &str, rating: Option<u32>, out: &mut Vec<Effect>) {
        let side = self.talk.phraser.side(self.settings.me);
        let t = match rating {
            Some(r) => self.message(
                "lichess_game_started_rating",
                &[("name", name), ("rating", &r.to_string()), ("side", &side)],
            ),
            None => self.message("lichess_game_started", &[("name", name), ("side", &side)]),
        };
        self.say(out, t, Priority::Urgent, SayKind::Game);
    }

    fn apply_changes(&mut self, changes: Vec<Change>, now: Instant, out: &mut Vec<Effect>) {
        for change in changes {
            match change {
                Change::Move { uci, .. } => self.play_server_move(&uci, now, out),
                Change::Confirmed { .. } => {}
                Change::TakenBack { count } => {
                    for _ in 0..count {
                        self.game.undo_last();
                    }
                    let t = self.message("lichess_taken_back", &[]);
                    self.say(out, t, Priority::Urgent, SayKind::Game);
                }
                Change::Replaced { moves } => {
                    let mut game = Game::new();
                    for uci in &moves {
                        if let Some(mv) = server_move(game.position(), uci) {
                            let _ = game.play(mv);
                        }
                    }
                    self.replace_game(game);
                    let t = self.message("lichess_resynced", &[]);
                    self.say(out, t, Priority::Urgent, SayKind::Game);
                }
                Change::DrawOffered { by } => {
                    if let Some(o) = &mut self.parts.online {
                        o.offers_made = true;
                    }
                    let _ = self.game.offer_draw(colour_of(by));
                    let side = self.talk.phraser.side(colour_of(by));
                    let t = self.message("draw_offered", &[("side", &side)]);
                    self.say(out, t, Priority::Urgent, SayKind::Game);
                }
                Change::TakebackProposed { .. } => {
                    let t = self.message("lichess_takeback_proposed", &[]);
                    self.say(out, t, Priority::Urgent, SayKind::Game);
                }
                Change::TakebackDeclined => {
                    let t = self.message("lichess_takeback_declined", &[]);
                    self.say(out, t, Priority::Urgent, SayKind::Game);
                }
                Change::Ended { status, winner } => self.online_ended(&status, winner, out),
            }
        }
    }

    fn play_server_move(&mut self, uci: &str, now: Instant, out: &mut Vec<Effect>) {
        match server_move(self.game.position(), uci) {
            Some(mv) => {
                if let Some(o) = &mut self.parts.online {
                    o.applying = true;
                }
                self.play(mv, now, out);
                if let Some(o) = &mut self.parts.online {
                    o.applying = false;
                }
            }
            None => {
                let t = self.message("lichess_move_unreadable", &[("move", uci)]);
                self.say(out, t, Priority::Urgent, SayKind::Error);
            }
        }
    }

    /// The game's end as lichess reports it, with its reason in words.
    fn online_ended(&mut self, status: &str, winner: Option<Side>, out: &mut Vec<Effect>) {
        let winner = winner.map(colour_of);
        let agreed = self.parts.online.as_ref().is_some_and(|o| o.offers_made);
        // The result for the scoresheet, and a sentence of lichess's own
        // where hector's would not be true (none: hector's says it).
        let (result, own) = match (status, winner) {
            ("aborted", _) => {
                self.journal_online_void(status);
                let t = self.message("lichess_aborted", &[]);
                self.say(out, t, Priority::Urgent, SayKind::Game);
                return;
            }
            ("noStart", _) => {
                self.journal_online_void(status);
                let t = self.message("lichess_over_nostart", &[]);
                self.say(out, t, Priority::Urgent, SayKind::Game);
                return;
            }
            // Mate and stalemate are the game's own: already said.
            ("mate" | "stalemate", _) if self.game.is_over() => return,
            ("mate", Some(w)) => (GameResult::win(w, EndReason::Checkmate), None),
            ("stalemate", _) => (GameResult::draw(EndReason::Stalemate), None),
            ("resign", Some(w)) => (GameResult::win(w, EndReason::Resignation), None),
            ("outoftime", Some(w)) => (GameResult::win(w, EndReason::TimeForfeit), None),
            ("outoftime", None) => (GameResult::draw(EndReason::TimeForfeit), None),
            // lichess's `timeout`: the opponent left and the win was claimed.
            ("timeout", Some(w)) => (
                GameResult::win(w, EndReason::ArbiterDecision),
                Some("lichess_over_timeout"),
            ),
            ("cheat", Some(w)) => (
                GameResult::win(w, EndReason::ArbiterDecision),
                Some("lichess_over_cheat"),
            ),
            // A draw of the game's own (repetition, 75 moves, dead
            // position) was said as it happened.
            ("draw", None) if self.game.is_over() => return,
            ("draw", None) if agreed => (GameResult::draw(EndReason::Agreement), None),
            ("draw", None) => (
                GameResult::draw(EndReason::ArbiterDecision),
                Some("lichess_over_draw"),
            ),
            (_, Some(w)) => (
                GameResult::win(w, EndReason::ArbiterDecision),
                Some("lichess_over_other_win"),
            ),
            (_, None) => (
                GameResult::draw(EndReason::ArbiterDecision),
                Some("lichess_over_other_draw"),
            ),
        };
        if !self.game.end_by_rule(result) {
            return;
        }
        let t = match own {
            Some(key) => {
                let result = match winner {
                    Some(Color::White) => self.message("result_white", &[]),
                    Some(Color::Black) => self.message("result_black", &[]),
                    None => self.message("result_draw", &[]),
                };
                let (side, loser) = match winner {
                    Some(w) => (self.talk.phraser.side(w), self.talk.phraser.side(!w)),
                    None => (String::new(), String::new()),
                };
                Some(self.message(
                    key,
                    &[("side", &side), ("loser", &loser), ("result", &result)],
                ))
            }
            None => self.game_over_sentence(),
        };
        if let Some(t) = t {
            self.say(out, t, Priority::Urgent, SayKind::Game);
        }
    }

    fn on_reply(&mut self, request: &Request, reply: Reply, now: Instant, out: &mut Vec<Effect>) {
        let (status, error) = match reply {
            Reply::Refused { status, error } => (status, error),
            // A seek lost before a game began (a game's start comes on
            // the account's stream, not here).
            Reply::Failed(_) | Reply::RateLimited if matches!(request, Request::Seek { .. }) => {
                if self
                    .parts
                    .online
                    .as_ref()
                    .is_some_and(|o| o.game_id.is_none())
                {
                    let t = self.message("lichess_seek_lost", &[]);
                    self.say(out, t, Priority::Urgent, SayKind::Error);
                }
                return;
            }
            _ => return,
        };
        match request {
            Request::Move { uci, .. } => {
                let pending = self
                    .parts
                    .online
                    .as_ref()
                    .and_then(|o| o.sync.as_ref())
                    .and_then(|s| s.pending().map(str::to_owned));
                if pending.as_deref() != Some(uci.as_str()) {
                    return;
                }
                if let Some(s) = self.parts.online.as_mut().and_then(|o| o.sync.as_mut()) {
                    s.refused();
                }
                // The move is taken back: the game is the server's again.
                let said = match self.game.positions().last() {
                    Some((before, played)) => self.talk.phraser.say_move(before, played.mv),
                    None => uci.clone(),
                };
                let refused = self.game.positions().last().map(|(_, p)| p.mv);
                let key = if self.board_shows_game() {
                    "lichess_move_refused_board"
                } else {
                    "lichess_move_refused"
                };
                self.game.undo_last();
                let t = self.message(key, &[("move", &said)]);
                self.say(out, t, Priority::Urgent, SayKind::Error);
                if let Some(mv) = refused {
                    self.board_move_refused(mv, now, out);
                }
            }
            _ => self.say_refusal(request, status, &error, out),
        }
    }

    /// A refusal in hector's words; lichess's own (English) text only for
    /// one hector does not know, in a sentence apart.
    fn say_refusal(&mut self, request: &Request, status: u16, error: &str, out: &mut Vec<Effect>) {
        use crate::lichess::api::{Failure, failure};
        let user = match request {
            Request::Challenge { user, .. } => Some(user.as_str()),
            _ => None,
        };
        let name = user.unwrap_or("");
        let f = failure(user.is_some(), status, error);
        // A challenge answered after it was withdrawn or expired is gone,
        // not a game (branch walk).
        let answering = matches!(request, Request::Accept { .. } | Request::Decline { .. });
        let (key, quoted) = match &f {
            Failure::NotFound if answering => ("lichess_challenge_gone", None),
            Failure::TokenRefused => ("lichess_token_refused", None),
            Failure::NoSuchUser => ("lichess_err_no_user", None),
            Failure::ChallengeRefused => ("lichess_err_challenge_refused", None),
            Failure::NotYourTurn => ("lichess_err_not_your_turn", None),
            Failure::GameOver => ("lichess_err_game_over", None),
            Failure::NotFound if user.is_none() => ("lichess_game_gone", None),
            Failure::NotFound | Failure::Other(_) if user.is_some() => {
                ("lichess_challenge_failed", Some(error))
            }
            Failure::NotFound | Failure::Other(_) => ("lichess_refused", Some(error)),
        };
        let t = self.message(key, &[("name", name)]);
        self.say(out, t, Priority::Urgent, SayKind::Error);
        if let Some(e) = quoted.filter(|e| !e.trim().is_empty()) {
            let t = self.message("lichess_says", &[("error", e)]);
            self.say(out, t, Priority::Normal, SayKind::Error);
        }
    }

    /// Whether the player's board, connected, shows the game's position
    /// (branch `board`).
    fn board_shows_game(&self) -> bool {
        self.parts
            .boards
            .player()
            .filter(|b| b.connected())
            .and_then(|b| b.tracker().sensed())
            .is_some_and(|s| s.matches(self.game.position().board()))
    }

    /// The player's board (branch `board`): a refused move made there (by
    /// lichess, or made for the opponent) is to be put back, never taken
    /// as the move made again.
    pub(super) fn board_move_refused(&mut self, mv: Move, now: Instant, out: &mut Vec<Effect>) {
        let game = &self.game;
        let Some(b) = self.parts.boards.player_mut() else {
            return;
        };
        // (The board already expects the game's position: nothing to do.)
        if b.tracker().position() == game.position() {
            return;
        }
        let previous = game.positions().next_back().map(|(before, _)| before);
        let notes = b.move_refused(game.position(), previous, mv, now);
        self.on_board_notes(notes, now, out);
    }

    /// A move typed while it is not the player's turn online, or before
    /// the game has begun: said, and nothing sent.
    pub(super) fn online_refuses_move(&mut self, out: &mut Vec<Effect>) -> bool {
        let Some(o) = &self.parts.online else {
            return false;
        };
        let key = match &o.sync {
            None => "lichess_no_game_yet",
            // Over on lichess (aborted, say) while the game here has no
            // result: no move goes.
            Some(s) if s.is_over() && !self.game.is_over() => "lichess_err_game_over",
            Some(s) if s.is_over() => return false,
            Some(s) if s.pending().is_some() || s.to_move() != side_of(self.settings.me) => {
                "lichess_not_your_move"
            }
            Some(_) => return false,
        };
        let t = self.message(key, &[]);
        self.say(out, t, Priority::Normal, SayKind::Error);
        true
    }

    /// The player's move was just played into the game: posted.
    pub(super) fn online_moved(&mut self, mv: Move, mover: Color, out: &mut Vec<Effect>) {
        let me = self.settings.me;
        let Some(o) = &mut self.parts.online else {
            return;
        };
        if o.applying || mover != me {
            return;
        }
        let (Some(id), Some(sync)) = (o.game_id.clone(), o.sync.as_mut()) else {
            return;
        };
        let uci = mv.to_uci(CastlingMode::Standard).to_string();
        sync.sent(&uci);
        out.push(Effect::Lichess(LichessOrder::Send(Request::Move {
            game: id,
            uci,
            offering_draw: false,
        })));
    }

    /// The full-screen view's clock labels online: each side with its
    /// player's name on lichess ("Black: Mary"), so that the view shows
    /// who the opponent is (branch walk).
    pub(super) fn online_labels(&self, labels: &mut crate::view::Labels) {
        let Some([white, black]) = self.parts.online.as_ref().and_then(|o| o.players.clone())
        else {
            return;
        };
        for (label, name) in [(&mut labels.white, white), (&mut labels.black, black)] {
            if !name.is_empty() {
                *label = self.message("lichess_clock_side", &[("side", label), ("name", &name)]);
            }
        }
    }

    /// The player's word for an action (the first of the line keymap).
    fn online_word(&self, action: Action) -> String {
        self.talk
            .keymap
            .words(action)
            .first()
            .cloned()
            .unwrap_or_else(|| action.key().to_owned())
    }

    /// The prompt before the online game begins: not "White to move,
    /// move 1" (nothing can be played yet); a challenge made to the
    /// player asks for its answer (branch walk).  None offline or once
    /// the game is there.
    pub(super) fn online_waiting_prompt(&self) -> Option<String> {
        let o = self.parts.online.as_ref()?;
        if o.game_id.is_some() {
            return None;
        }
        Some(if o.challenge.is_some() {
            let accept = self.online_word(Action::Accept);
            let decline = self.online_word(Action::Decline);
            self.message(
                "lichess_prompt_challenge",
                &[("accept", &accept), ("decline", &decline)],
            )
        } else {
            self.message("lichess_prompt_waiting", &[])
        })
    }

    /// The state of an online game that is over, for the prompt: a new
    /// lichess game is a new start, so it does not say "Say new" (branch
    /// walk).  None offline.
    pub(super) fn online_over_state(
        &self,
        reason: EndReason,
        winner: Option<Color>,
    ) -> Option<String> {
        self.parts.online.as_ref()?;
        let how = self.talk.phraser.how_it_ended(reason, winner);
        let result = self.message(
            match winner {
                Some(Color::White) => "result_white",
                Some(Color::Black) => "result_black",
                None => "result_draw",
            },
            &[],
        );
        let quit = self.online_word(Action::Quit);
        Some(self.message(
            "lichess_over_state",
            &[("how", &how), ("result", &result), ("command", &quit)],
        ))
    }

    /// The actions that mean something else online: the engine's help is
    /// off (lichess forbids it), draw, resignation and takeback are asked
    /// of the server.  True when the action was taken here.
    pub(super) fn online_action(&mut self, action: Action, out: &mut Vec<Effect>) -> bool {
        let Some(o) = &self.parts.online else {
            return false;
        };
        let game = o.game_id.clone();
        if let Some(id) = o.challenge.clone()
            && matches!(action, Action::Accept | Action::Decline)
        {
            if let Some(o) = &mut self.parts.online {
                o.challenge = None;
            }
            let (request, key) = if action == Action::Accept {
                (Request::Accept { id }, "lichess_challenge_accepted")
            } else {
                (Request::Decline { id }, "lichess_challenge_declined_by_you")
            };
            out.push(Effect::Lichess(LichessOrder::Send(request)));
            let t = self.message(key, &[]);
            self.info(out, t);
            return true;
        }
        match action {
            // The game on lichess does not end because hector starts
            // another: its clock runs on.  After its end, a new online
            // game is a new start (`play --lichess`).
            Action::New => {
                let key = if game.is_some() && !self.game.is_over() {
                    "lichess_no_new_playing"
                } else {
                    "lichess_no_new_over"
                };
                let t = self.message(key, &[]);
                self.say(out, t, Priority::Normal, SayKind::Error);
                true
            }
            // The colour is lichess's: playing the other side would turn
            // the board and the offers round while the game stays the same
            // (branch walk: "flip" said "You play Black." as White).
            Action::Flip => {
                let side = self.talk.phraser.side(self.settings.me);
                let t = self.message("lichess_no_flip", &[("side", &side)]);
                self.say(out, t, Priority::Normal, SayKind::Error);
                true
            }
            Action::Hint | Action::Eval | Action::Threat | Action::Engine => {
                let t = self.message("lichess_no_engine", &[]);
                self.say(out, t, Priority::Normal, SayKind::Error);
                true
            }
            Action::Abort => {
                self.online_abort(out);
                true
            }
            Action::Chat => {
                self.online_chat(out);
                true
            }
            Action::Say => {
                // `say` alone: how to use it.
                let t = self.help_line(action);
                self.say(out, t, Priority::Normal, SayKind::Error);
                true
            }
            // The opponent's takeback request, answered (a draw offer
            // standing too is answered first: accept and decline are its).
            Action::Accept | Action::Decline | Action::Takeback
                if game.is_some() && self.takeback_asked() =>
            {
                let Some(game) = game else {
                    return true;
                };
                let yes = action != Action::Decline;
                let key = if yes {
                    "lichess_takeback_agreed"
                } else {
                    "lichess_takeback_refused_by_you"
                };
                out.push(Effect::Lichess(LichessOrder::Send(Request::Takeback {
                    game,
                    yes,
                })));
                let t = self.message(key, &[]);
                self.info(out, t);
                true
            }
            Action::Draw | Action::Accept | Action::Decline | Action::Takeback => {
                let Some(game) = game else {
                    // Before the game, accept and decline answer challenges
                    // (branch walk: "The game has not begun yet." did not
                    // say that none was there).
                    let key = if matches!(action, Action::Accept | Action::Decline) {
                        "lichess_no_challenge"
                    } else {
                        "lichess_no_game_yet"
                    };
                    let t = self.message(key, &[]);
                    self.say(out, t, Priority::Normal, SayKind::Error);
                    return true;
                };
                // A draw offer is answered only when the opponent's stands
                // (as at the board); declined, it no longer stands here
                // either (branch walk: before, "decline" with no offer
                // said "Draw declined.", and a declined offer was still
                // in the prompt and "lapsed" at the next move).
                if matches!(action, Action::Accept | Action::Decline) {
                    let me = self.settings.me;
                    let answered = match self.game.pending_offer() {
                        _ if action == Action::Decline => self.game.decline_draw(me),
                        None => Err(GameError::NoOffer),
                        Some(by) if by == me => Err(GameError::OwnOffer),
                        Some(_) => Ok(()),
                    };
                    if let Err(e) = answered {
                        let t = self.game_error(&e);
                        self.say(out, t, Priority::Normal, SayKind::Error);
                        return true;
                    }
                }
                let (request, key) = match action {
                    Action::Draw => (Request::Draw { game, yes: true }, "lichess_draw_sent"),
                    Action::Accept => (Request::Draw { game, yes: true }, "lichess_accept_sent"),
                    Action::Decline => (Request::Draw { game, yes: false }, "lichess_decline_sent"),
                    _ => (
                        Request::Takeback { game, yes: true },
                        "lichess_takeback_sent",
                    ),
                };
                if action == Action::Draw
                    && let Some(o) = &mut self.parts.online
                {
                    o.offers_made = true;
                }
                out.push(Effect::Lichess(LichessOrder::Send(request)));
                let t = self.message(key, &[]);
                self.info(out, t);
                true
            }
            _ => false,
        }
    }

    /// Whether the opponent's takeback request is up (and no draw offer
    /// of theirs, which `accept` and `decline` answer first).
    fn takeback_asked(&self) -> bool {
        self.parts
            .online
            .as_ref()
            .and_then(|o| o.sync.as_ref())
            .is_some_and(|s| s.takeback_asked() && !s.draw_asked())
    }

    /// `abort`: only before both sides have moved (lichess refuses it
    /// after), said so otherwise.
    fn online_abort(&mut self, out: &mut Vec<Effect>) {
        let Some(o) = &self.parts.online else {
            return;
        };
        let key = match (o.game_id.clone(), o.sync.as_ref()) {
            (Some(game), Some(s)) if !s.is_over() && s.moves().len() < 2 => {
                out.push(Effect::Lichess(LichessOrder::Send(Request::Abort { game })));
                "lichess_abort_sent"
            }
            (Some(_), Some(s)) if s.is_over() => {
                let Some(t) = self.game_is_over() else {
                    return;
                };
                self.say(out, t, Priority::Normal, SayKind::Error);
                return;
            }
            (Some(_), Some(_)) => "lichess_abort_too_late",
            _ => "lichess_no_game_yet",
        };
        let t = self.message(key, &[]);
        let kind = if key == "lichess_abort_sent" {
            SayKind::Info
        } else {
            SayKind::Error
        };
        self.say(out, t, Priority::Normal, kind);
    }

    /// A chat line came: kept to be heard with `chat`; the opponent's
    /// lines in the players' room are said to be there, never in place of
    /// a move (a notice of normal priority, after any announcement), and
    /// at most one notice in [`CHAT_QUIET`] (the count says the rest).
    fn online_chat_line(
        &mut self,
        line: crate::lichess::event::ChatLine,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
        let Some(o) = &mut self.parts.online else {
            return;
        };
        let who = line.username.to_lowercase();
        // lichess's own notes in the chat ("Takeback sent", "White offers
        // draw") are English and say what hector says itself: left out.
        if o.me_names.contains(&who) || who == "lichess" || line.text.trim().is_empty() {
            return;
        }
        let notice = line.room == "player";
        let name = line.username.clone();
        if o.unheard.len() >= CHAT_KEPT {
            o.unheard.remove(0);
        }
        o.unheard.push(line);
        if !notice || o.chat_said_at.is_some_and(|t| now < t + CHAT_QUIET) {
            return;
        }
        o.chat_said_at = Some(now);
        let count = o.unheard.len();
        let t = if count == 1 {
            self.message("lichess_chat_one", &[("name", &name)])
        } else {
            self.message(
                "lichess_chat_many",
                &[("count", &count.to_string()), ("name", &name)],
            )
        };
        self.say(out, t, Priority::Normal, SayKind::Game);
    }

    /// `chat`: the lines not yet heard, oldest first, each its own
    /// sentence.
    fn online_chat(&mut self, out: &mut Vec<Effect>) {
        let Some(o) = &mut self.parts.online else {
            return;
        };
        let lines = std::mem::take(&mut o.unheard);
        o.chat_said_at = None;
        if lines.is_empty() {
            let t = self.message("lichess_chat_none", &[]);
            self.info(out, t);
            return;
        }
        for l in lines {
            let key = if l.room == "spectator" {
                "lichess_chat_spectator"
            } else {
                "lichess_chat_line"
            };
            // Their text as written, on one line, without control
            // characters.
            let text: String = l
                .text
                .chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .take(CHAT_MAX)
                .collect();
            let t = self.message(key, &[("name", &l.username), ("text", text.trim())]);
            self.info(out, t);
        }
    }

    /// `say TEXT`: written in the players' chat.
    pub(super) fn online_say(&mut self, text: &str, out: &mut Vec<Effect>) {
        let Some(o) = &self.parts.online else {
            let t = self.message("lichess_only", &[]);
            self.say(out, t, Priority::Normal, SayKind::Error);
            return;
        };
        let Some(game) = o.game_id.clone() else {
            let t = self.message("lichess_no_game_yet", &[]);
            self.say(out, t, Priority::Normal, SayKind::Error);
            return;
        };
        let count = text.chars().count();
        if count > CHAT_MAX {
            let t = self.message("lichess_chat_too_long", &[("count", &count.to_string())]);
            self.say(out, t, Priority::Normal, SayKind::Error);
            return;
        }
        out.push(Effect::Lichess(LichessOrder::Send(Request::Chat {
            game,
            text: text.to_owned(),
        })));
        let t = self.message("lichess_chat_sent", &[]);
        self.info(out, t);
    }

    /// `claim` online: the win, when the opponent has left (lichess says
    /// after how long it may be claimed, and refuses it before).
    pub(super) fn online_claim(&mut self, now: Instant, out: &mut Vec<Effect>) -> bool {
        let Some(o) = &self.parts.online else {
            return false;
        };
        if o.gone
            && let Some(at) = o.claim_at.filter(|t| now < *t)
        {
            // Whole seconds, rounded up: never "0 seconds" while it is early.
            let left = at.saturating_duration_since(now);
            let seconds = left.as_secs() + u64::from(left.subsec_nanos() > 0);
            let t = self.message("lichess_claim_in", &[("seconds", &seconds.to_string())]);
            self.say(out, t, Priority::Normal, SayKind::Error);
            return true;
        }
        let key = match (o.game_id.clone(), o.gone) {
            (None, _) => "lichess_no_game_yet",
            (Some(_), false) => "lichess_nothing_to_claim",
            (Some(game), true) => {
                out.push(Effect::Lichess(LichessOrder::Send(Request::ClaimVictory {
                    game,
                })));
                "lichess_claim_sent"
            }
        };
        let t = self.message(key, &[]);
        self.say(out, t, Priority::Normal, SayKind::Info);
        true
    }

    /// `resign`, confirmed: asked of the server, which ends the game.
    pub(super) fn online_resign(&mut self, out: &mut Vec<Effect>) -> bool {
        let Some(o) = &self.parts.online else {
            return false;
        };
        let Some(game) = o.game_id.clone() else {
            let t = self.message("lichess_no_game_yet", &[]);
            self.say(out, t, Priority::Normal, SayKind::Error);
            return true;
        };
        out.push(Effect::Lichess(LichessOrder::Send(Request::Resign {
            game,
        })));
        true
    }
}

/// A move of the server's (UCI, king-to-rook castling too) in `pos`.
fn server_move(pos: &shakmaty::Chess, uci: &str) -> Option<Move> {
    UciMove::from_ascii(uci.as_bytes()).ok()?.to_move(pos).ok()
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod challenge_tests;

#[cfg(test)]
mod clock_tests;
