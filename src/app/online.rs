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
use crate::game::{EndReason, Game, GameResult};
use crate::lichess::api::{Reply, Request};
use crate::lichess::event::{AccountEvent, GameEvent, GameFull, Side};
use crate::lichess::schedule::{Link, LinkNotice};
use crate::lichess::sync::{Change, GameSync};
use crate::msg::{Effect, LichessOrder};
use crate::net::lichess::{LichessIo, Stream};
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
}

impl OnlinePlay {
    /// When the link down for long must be said.
    pub(super) fn deadline(&self) -> Option<Instant> {
        self.link.deadline()
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
        });
    }

    /// The session begins: the account's stream, and the challenge.
    pub(super) fn online_start(&mut self, out: &mut Vec<Effect>) {
        let Some(o) = &self.parts.online else {
            return;
        };
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
            OnlineStart::Join => self.message("lichess_waiting", &[]),
        };
        self.say(out, t, Priority::Normal, SayKind::Game);
    }

    /// Time passed: the link down for long is said.
    pub(super) fn online_tick(&mut self, now: Instant, out: &mut Vec<Effect>) {
        let notice = self.parts.online.as_mut().and_then(|o| o.link.tick(now));
        if notice == Some(LinkNotice::Offline) {
            let t = self.message("lichess_offline", &[]);
            self.say(out, t, Priority::Urgent, SayKind::Info);
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
        // The player's board follows (branch `board`): the opponent's move
        // awaited there, a refused move's piece to be put back.
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
                let name = c.dest_user.map(|p| p.name).unwrap_or_default();
                let t = self.message("lichess_challenge_declined", &[("name", &name)]);
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
            GameEvent::OpponentGone { gone, .. }
                if self.parts.online.as_ref().is_some_and(|o| o.gone == gone) => {}
            GameEvent::OpponentGone { gone: true, .. } => {
                if let Some(o) = &mut self.parts.online {
                    o.gone = true;
                }
                let t = self.message("lichess_opponent_gone", &[]);
                self.say(out, t, Priority::Urgent, SayKind::Game);
            }
            GameEvent::OpponentGone { gone: false, .. } => {
                if let Some(o) = &mut self.parts.online {
                    o.gone = false;
                }
                let t = self.message("lichess_opponent_back", &[]);
                self.say(out, t, Priority::Normal, SayKind::Game);
            }
            GameEvent::Chat(_) | GameEvent::Other => {}
        }
    }

    fn on_game_full(&mut self, full: &GameFull, now: Instant, out: &mut Vec<Effect>) {
        let Some(o) = &mut self.parts.online else {
            return;
        };
        let changes = match &mut o.sync {
            // A reconnect: only what was missed.
            Some(s) => s.full(full),
            None => {
                let side = o.side.unwrap_or(side_of(self.settings.me));
                let mut sync = GameSync::new(side, &full.initial_fen);
                let changes = sync.full(full);
                o.sync = Some(sync);
                let them = match side {
                    Side::White => &full.black,
                    Side::Black => &full.white,
                };
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
        self.apply_changes(changes, now, out);
        self.online_follow_clock(now);
    }

    /// The game's clock is the server's: a clock of hector's that follows
    /// it (spoken and shown as any, its thresholds included).
    fn online_clock(&mut self, clock: Option<crate::lichess::event::FullClock>) {
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
                    let _ = self.game.offer_draw(colour_of(by));
                    let side = self.talk.phraser.side(colour_of(by));
                    let t = self.message("draw_offered", &[("side", &side)]);
                    self.say(out, t, Priority::Urgent, SayKind::Game);
                }
                Change::TakebackProposed { .. } => {
                    let t = self.message("lichess_takeback_proposed", &[]);
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

    fn online_ended(&mut self, status: &str, winner: Option<Side>, out: &mut Vec<Effect>) {
        let winner = winner.map(colour_of);
        let result = match (status, winner) {
            ("aborted" | "noStart", _) => {
                let t = self.message("lichess_aborted", &[]);
                self.say(out, t, Priority::Urgent, SayKind::Game);
                return;
            }
            // Mate and stalemate are the game's own: already said.
            ("mate" | "stalemate", _) if self.game.is_over() => return,
            ("resign", Some(w)) => GameResult::win(w, EndReason::Resignation),
            ("outoftime" | "timeout", Some(w)) => GameResult::win(w, EndReason::TimeForfeit),
            ("draw", None) => GameResult::draw(EndReason::Agreement),
            (_, Some(w)) => GameResult::win(w, EndReason::ArbiterDecision),
            (_, None) => GameResult::draw(EndReason::ArbiterDecision),
        };
        if self.game.end_by_rule(result)
            && let Some(t) = self.game_over_sentence()
        {
            self.say(out, t, Priority::Urgent, SayKind::Game);
        }
    }

    fn on_reply(&mut self, request: &Request, reply: Reply, now: Instant, out: &mut Vec<Effect>) {
        let Reply::Refused { error, .. } = reply else {
            return;
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
            Request::Challenge { user, .. } => {
                let t = self.message(
                    "lichess_challenge_failed",
                    &[("name", user.as_str()), ("error", error.as_str())],
                );
                self.say(out, t, Priority::Urgent, SayKind::Error);
            }
            _ => {
                let t = self.message("lichess_refused", &[("error", error.as_str())]);
                self.say(out, t, Priority::Normal, SayKind::Error);
            }
        }
    }

    /// Whether the player's board, connected, shows the game's position
    /// (branch `board`).
    fn board_shows_game(&self) -> bool {
        self.parts
            .boards
            .player
            .as_ref()
            .filter(|b| b.connected())
            .and_then(|b| b.tracker().sensed())
            .is_some_and(|s| s.matches(self.game.position().board()))
    }

    /// The player's board (branch `board`): a refused move made there (by
    /// lichess, or made for the opponent) is to be put back, never taken
    /// as the move made again.
    pub(super) fn board_move_refused(&mut self, mv: Move, now: Instant, out: &mut Vec<Effect>) {
        let game = &self.game;
        let Some(b) = self.parts.boards.player.as_mut() else {
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
            Action::Hint | Action::Eval | Action::Threat | Action::Engine => {
                let t = self.message("lichess_no_engine", &[]);
                self.say(out, t, Priority::Normal, SayKind::Error);
                true
            }
            Action::Draw | Action::Accept | Action::Decline | Action::Takeback => {
                let Some(game) = game else {
                    let t = self.message("lichess_no_game_yet", &[]);
                    self.say(out, t, Priority::Normal, SayKind::Error);
                    return true;
                };
                let (request, key) = match action {
                    Action::Draw => (Request::Draw { game, yes: true }, "lichess_draw_sent"),
                    Action::Accept => (Request::Draw { game, yes: true }, "lichess_accept_sent"),
                    Action::Decline => (Request::Draw { game, yes: false }, "lichess_decline_sent"),
                    _ => (
                        Request::Takeback { game, yes: true },
                        "lichess_takeback_sent",
                    ),
                };
                out.push(Effect::Lichess(LichessOrder::Send(request)));
                let t = self.message(key, &[]);
                self.info(out, t);
                true
            }
            _ => false,
        }
    }

    /// `claim` online: the win, when the opponent has left (lichess says
    /// after how long it may be claimed, and refuses it before).
    pub(super) fn online_claim(&mut self, out: &mut Vec<Effect>) -> bool {
        let Some(o) = &self.parts.online else {
            return false;
        };
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
mod tests {
    use std::time::{Duration, Instant};

    use super::*;
    use crate::lichess::event;
    use crate::msg::Msg;
    use crate::words::Lang;

    /// An app in an online game as White against Mary, on a virtual clock.
    struct Rig {
        app: App,
        t0: Instant,
    }

    fn said(e: &[Effect]) -> Vec<String> {
        e.iter()
            .filter_map(|x| match x {
                Effect::Say(u) => Some(u.text.clone()),
                _ => None,
            })
            .collect()
    }

    fn sent(e: &[Effect]) -> Vec<Request> {
        e.iter()
            .filter_map(|x| match x {
                Effect::Lichess(LichessOrder::Send(r)) => Some(r.clone()),
                _ => None,
            })
            .collect()
    }

    fn state(moves: &str, extra: &str) -> String {
        format!(
            r#"{{"type":"gameState","moves":"{moves}","wtime":1,"btime":1,"winc":0,"binc":0,"status":"started"{extra}}}"#
        )
    }

    impl Rig {
        fn new() -> Rig {
            let mut app = App::builder().lang(Lang::En).build();
            app.set_online(OnlineStart::Join);
            let mut r = Rig {
                app,
                t0: Instant::now(),
            };
            r.msg(0, Msg::Start);
            let start = r#"{"type":"gameStart","game":{"gameId":"g1","color":"white","opponent":{"username":"Mary","rating":1600},"compat":{"board":true}}}"#;
            let e = r.io(
                0,
                LichessIo::Account(Box::new(event::account_line(start).unwrap().unwrap())),
            );
            assert!(e.contains(&Effect::Lichess(LichessOrder::OpenGameStream("g1".into()))));
            let full = r#"{"type":"gameFull","id":"g1","white":{"id":"me","name":"Me"},"black":{"id":"mary","name":"Mary","rating":1600},"initialFen":"startpos","state":{"type":"gameState","moves":"","wtime":1,"btime":1,"winc":0,"binc":0,"status":"started"}}"#;
            let s = said(&r.game(0, full));
            assert_eq!(
                s,
                ["The game against Mary, rated 1600, begins. You play White."]
            );
            r
        }

        fn at(&self, ms: u64) -> Instant {
            self.t0 + Duration::from_millis(ms)
        }

        fn msg(&mut self, ms: u64, m: Msg) -> Vec<Effect> {
            let now = self.at(ms);
            self.app.update(m, now)
        }

        fn io(&mut self, ms: u64, io: LichessIo) -> Vec<Effect> {
            self.msg(ms, Msg::Lichess(io))
        }

        fn game(&mut self, ms: u64, line: &str) -> Vec<Effect> {
            let e = event::game_line(line).unwrap().unwrap();
            self.io(ms, LichessIo::Game("g1".into(), e))
        }

        fn typed(&mut self, ms: u64, line: &str) -> Vec<Effect> {
            self.msg(ms, Msg::Line(line.into()))
        }
    }

    #[test]
    fn the_players_move_is_posted_and_the_echo_not_said_again() {
        let mut r = Rig::new();
        let e = r.typed(10, "e4");
        assert_eq!(
            sent(&e),
            [Request::Move {
                game: "g1".into(),
                uci: "e2e4".into(),
                offering_draw: false
            }]
        );
        // A second move before the reply is refused, nothing sent.
        let e = r.typed(20, "d4");
        assert_eq!(said(&e), ["It is your opponent's move; wait for it."]);
        assert!(sent(&e).is_empty());
        // The server's echo of e4 is not said again; Black's reply is.
        let e = r.game(30, &state("e2e4 e7e5", ""));
        assert_eq!(said(&e), ["Bauer Eva fünf"]);
        assert_eq!(r.app.game().history().len(), 2);
    }

    #[test]
    fn a_move_before_the_game_is_said_to_wait() {
        let mut app = App::builder().lang(Lang::En).build();
        app.set_online(OnlineStart::Join);
        let e = app.update(Msg::Line("e4".into()), Instant::now());
        assert_eq!(said(&e), ["The game has not begun yet."]);
        assert!(sent(&e).is_empty());
    }

    #[test]
    fn draw_both_ways_takeback_and_resign_go_to_the_server() {
        let mut r = Rig::new();
        r.typed(10, "e4");
        r.game(20, &state("e2e4 e7e5", ""));
        let e = r.game(30, &state("e2e4 e7e5", r#","bdraw":true"#));
        assert_eq!(said(&e), ["Black offers a draw."]);
        let e = r.typed(40, "accept");
        assert_eq!(
            sent(&e),
            [Request::Draw {
                game: "g1".into(),
                yes: true
            }]
        );
        let e = r.typed(50, "decline");
        assert_eq!(
            sent(&e),
            [Request::Draw {
                game: "g1".into(),
                yes: false
            }]
        );
        let e = r.typed(60, "draw");
        assert_eq!(said(&e), ["Draw offer sent."]);
        let e = r.typed(70, "takeback");
        assert_eq!(
            sent(&e),
            [Request::Takeback {
                game: "g1".into(),
                yes: true
            }]
        );
        let e = r.game(80, &state("e2e4 e7e5", r#","btakeback":true"#));
        assert_eq!(
            said(&e),
            ["Your opponent asks to take back a move. Say takeback to agree."]
        );
        // `takeback` agrees (the same request as asking).
        let e = r.typed(85, "takeback");
        assert_eq!(
            sent(&e),
            [Request::Takeback {
                game: "g1".into(),
                yes: true
            }]
        );
        let e = r.typed(90, "resign");
        assert_eq!(sent(&e), [Request::Resign { game: "g1".into() }]);
        // The game ends when the server says so, with its reason.
        let over = r#"{"type":"gameState","moves":"e2e4 e7e5","wtime":1,"btime":1,"winc":0,"binc":0,"status":"resign","winner":"black"}"#;
        let e = r.game(100, over);
        assert_eq!(said(&e).len(), 1);
        assert!(r.app.game().is_over());
        assert!(said(&r.game(110, over)).is_empty(), "said once");
    }

    #[test]
    fn new_never_leaves_the_lichess_game_behind() {
        let mut r = Rig::new();
        let e = r.typed(10, "new");
        assert_eq!(
            said(&e),
            ["The lichess game goes on: resign it first, or play on."]
        );
        assert!(sent(&e).is_empty());
        assert_eq!(r.app.game().history().len(), 0);
        r.typed(20, "e4");
        let over = r#"{"type":"gameState","moves":"e2e4","wtime":1,"btime":1,"winc":0,"binc":0,"status":"resign","winner":"white"}"#;
        let e = r.game(30, over);
        assert!(!said(&e).is_empty());
        let e = r.typed(40, "new");
        assert_eq!(
            said(&e),
            ["A new lichess game needs a new start: quit, then start hector with --lichess again."]
        );
        assert_eq!(r.app.game().history().len(), 1);
    }

    #[test]
    fn a_takeback_on_the_server_takes_the_moves_back_here() {
        let mut r = Rig::new();
        r.typed(10, "e4");
        r.game(20, &state("e2e4 e7e5", ""));
        let e = r.game(30, &state("e2e4", ""));
        assert_eq!(said(&e), ["Moves were taken back on lichess."]);
        assert_eq!(r.app.game().history().len(), 1);
    }

    #[test]
    fn the_link_down_is_said_once_after_five_seconds_and_back_once() {
        let mut r = Rig::new();
        r.io(1000, LichessIo::StreamDown(Stream::Game("g1".into())));
        assert_eq!(r.app.next_deadline(), Some(r.at(6000)));
        assert!(said(&r.msg(5999, Msg::Deadline)).is_empty());
        let e = r.msg(6000, Msg::Deadline);
        assert_eq!(
            said(&e),
            ["The connection to lichess is lost. hector keeps trying."]
        );
        assert!(said(&r.msg(9000, Msg::Deadline)).is_empty());
        let e = r.io(9500, LichessIo::StreamOpen(Stream::Game("g1".into())));
        assert_eq!(said(&e), ["The connection to lichess is back."]);
        // A short drop is not said at all.
        r.io(10_000, LichessIo::StreamDown(Stream::Game("g1".into())));
        let e = r.io(11_000, LichessIo::StreamOpen(Stream::Game("g1".into())));
        assert!(said(&e).is_empty());
    }

    #[test]
    fn opponent_gone_and_aborted_are_said() {
        let mut r = Rig::new();
        let e = r.game(
            10,
            r#"{"type":"opponentGone","gone":true,"claimWinInSeconds":30}"#,
        );
        assert_eq!(said(&e), ["Your opponent left the game."]);
        let e = r.typed(15, "claim");
        assert_eq!(sent(&e), [Request::ClaimVictory { game: "g1".into() }]);
        assert_eq!(said(&e), ["Win claimed."]);
        let e = r.game(20, r#"{"type":"opponentGone","gone":false}"#);
        assert_eq!(said(&e), ["Your opponent is back."]);
        assert!(said(&r.game(21, r#"{"type":"opponentGone","gone":false}"#)).is_empty());
        let e = r.typed(25, "claim");
        assert!(sent(&e).is_empty());
        assert_eq!(
            said(&e),
            ["Your opponent has not left the game; there is no win to claim."]
        );
        let aborted = r#"{"type":"gameState","moves":"","wtime":1,"btime":1,"winc":0,"binc":0,"status":"aborted"}"#;
        assert_eq!(said(&r.game(30, aborted)), ["The game was aborted."]);
    }

    #[test]
    fn events_of_another_game_are_not_ours() {
        let mut r = Rig::new();
        let e = event::game_line(&state("e2e4", "")).unwrap().unwrap();
        let out = r.io(10, LichessIo::Game("other".into(), e));
        assert!(said(&out).is_empty());
        assert!(r.app.game().history().is_empty());
    }

    #[test]
    fn an_impossible_move_is_said_not_a_panic() {
        let mut r = Rig::new();
        // A move that is not legal here (never expected from lichess).
        let e = r.game(10, &state("e2e5", ""));
        assert_eq!(
            said(&e),
            ["lichess sent a move hector cannot play here: e2e5."]
        );
    }
}

#[cfg(test)]
mod challenge_tests {
    use std::time::Instant;

    use super::*;
    use crate::lichess::event;
    use crate::msg::Msg;
    use crate::words::Lang;

    fn said(e: &[Effect]) -> Vec<String> {
        e.iter()
            .filter_map(|x| match x {
                Effect::Say(u) => Some(u.text.clone()),
                _ => None,
            })
            .collect()
    }

    fn account(app: &mut App, line: &str) -> Vec<Effect> {
        let e = event::account_line(line).unwrap().unwrap();
        app.update(
            Msg::Lichess(LichessIo::Account(Box::new(e))),
            Instant::now(),
        )
    }

    const CHALLENGE: &str = r#"{"type":"challenge","challenge":{"id":"c1","url":"x","status":"created","challenger":{"id":"ann","name":"Ann","rating":1500},"destUser":{"id":"me","name":"Me"},"variant":{"key":"standard"},"rated":true,"speed":"rapid","timeControl":{"type":"clock","limit":600,"increment":5},"color":"random","perf":{"icon":"","name":"Rapid"}}}"#;

    #[test]
    fn a_challenge_is_said_in_words_and_answered() {
        let mut app = App::builder().lang(Lang::En).build();
        app.set_online(OnlineStart::Join);
        let e = account(&mut app, CHALLENGE);
        assert_eq!(
            said(&e),
            [
                "Ann, rated 1500, challenges you to a rated game, 10 minutes plus 5 seconds. Say accept or decline."
            ]
        );
        let e = app.update(Msg::Line("accept".into()), Instant::now());
        assert!(
            e.contains(&Effect::Lichess(LichessOrder::Send(Request::Accept {
                id: "c1".into()
            })))
        );
        assert_eq!(said(&e), ["Challenge accepted."]);
        // A second challenge, declined.
        let e = account(&mut app, &CHALLENGE.replace("\"c1\"", "\"c2\""));
        assert_eq!(said(&e).len(), 1);
        let e = app.update(Msg::Line("decline".into()), Instant::now());
        assert!(
            e.contains(&Effect::Lichess(LichessOrder::Send(Request::Decline {
                id: "c2".into()
            })))
        );
    }

    #[test]
    fn a_withdrawn_challenge_is_said_and_others_are_not_asked() {
        let mut app = App::builder().lang(Lang::En).build();
        app.set_online(OnlineStart::Join);
        account(&mut app, CHALLENGE);
        let canceled = CHALLENGE.replacen("\"challenge\",", "\"challengeCanceled\",", 1);
        assert_eq!(
            said(&account(&mut app, &canceled)),
            ["Ann withdrew the challenge."]
        );
        // Our own challenge, and one without a clock, are not asked about.
        let ours = CHALLENGE.replace("\"perf\"", "\"direction\":\"out\",\"perf\"");
        assert!(said(&account(&mut app, &ours)).is_empty());
        let unlimited = CHALLENGE.replace(
            r#"{"type":"clock","limit":600,"increment":5}"#,
            r#"{"type":"unlimited"}"#,
        );
        assert!(said(&account(&mut app, &unlimited)).is_empty());
    }
}

#[cfg(test)]
mod clock_tests {
    use std::time::{Duration, Instant};

    use shakmaty::Color;

    use super::*;
    use crate::lichess::event;
    use crate::msg::Msg;
    use crate::words::Lang;

    #[test]
    fn the_servers_clock_is_hectors_clock() {
        let t0 = Instant::now();
        let mut app = App::builder().lang(Lang::En).build();
        app.set_online(OnlineStart::Join);
        let io = |line: &str, game: bool| {
            if game {
                LichessIo::Game("g1".into(), event::game_line(line).unwrap().unwrap())
            } else {
                LichessIo::Account(Box::new(event::account_line(line).unwrap().unwrap()))
            }
        };
        let _ = app.update(
            Msg::Lichess(io(
                r#"{"type":"gameStart","game":{"gameId":"g1","color":"white"}}"#,
                false,
            )),
            t0,
        );
        let full = r#"{"type":"gameFull","id":"g1","white":{"id":"me","name":"Me"},"black":{"id":"mary","name":"Mary"},"initialFen":"startpos","clock":{"initial":600000,"increment":5000},"state":{"type":"gameState","moves":"","wtime":600000,"btime":600000,"winc":5000,"binc":5000,"status":"started"}}"#;
        let _ = app.update(Msg::Lichess(io(full, true)), t0);
        let clock = app.clock().expect("a clock");
        assert_eq!(clock.remaining(Color::White, t0), Duration::from_secs(600));
        assert!(!clock.is_running(), "not before each side's first move");
        let _ = app.update(Msg::Line("e4".into()), t0);
        let state = r#"{"type":"gameState","moves":"e2e4 e7e5","wtime":598000,"btime":593500,"winc":5000,"binc":5000,"status":"started"}"#;
        let t1 = t0 + Duration::from_secs(3);
        let _ = app.update(Msg::Lichess(io(state, true)), t1);
        let clock = app.clock().expect("a clock");
        assert_eq!(
            clock.remaining(Color::Black, t1),
            Duration::from_millis(593_500)
        );
        // White's time runs from the state on.
        let t2 = t1 + Duration::from_secs(2);
        assert_eq!(
            clock.remaining(Color::White, t2),
            Duration::from_millis(596_000)
        );
    }
}
