//! A game on lichess, one more part of the App: the server's moves
//! announced like any opponent's (each once, across reconnects), the
//! player's moves posted in UCI (a refused one said and taken back),
//! draw, resignation and takeback asked of the server, engine help off
//! (fair play), and the link's faults said once.
//!
//! The protocol is `crate::lichess` (sans-IO); the network is the front
//! end's ([`LichessOrder`] out, [`Msg::Lichess`](crate::msg::Msg) in).
//!
//! The part ([`OnlinePlay`]) handles what the network brings, the time,
//! the player's actions and the game's changes with methods of its own,
//! is shown the game it needs, speaks what only it knows through the
//! [`Voice`] it is lent, and answers with [`OnlineNote`]s what only the
//! App may do: change the game, follow the server's clock, journal the
//! game's start or its voiding.

use std::time::{Duration, Instant};

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Color, Move};

use super::change::{Edit, GameChange};
use super::voice::{Talk, Voice};
use crate::action::PlayerAction as Action;
use crate::game::{EndReason, Game, GameError, GameResult};
use crate::lichess::api::{NoAnswer, Pace, Playing, Reply, Request};
use crate::lichess::event::{
    AccountEvent, ChatLine, GameEvent, GameFull, GameInfo, GameState, Side, Speed, VariantKind,
    Warning,
};
use crate::lichess::io::{LichessIo, Stream};
use crate::lichess::moves;
use crate::lichess::schedule::{Link, LinkNotice};
use crate::lichess::sync::{Change, GameSync};
use crate::msg::{Effect, LichessOrder};
use crate::scoresheet::record::StartInfo;
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
    /// Challenge this player to a correspondence game: days per move, no
    /// clock.
    Correspondence {
        /// Their lichess name.
        user: String,
        /// Days per move (1, 2, 3, 5, 7, 10 or 14).
        days: u8,
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
    /// A game against lichess's computer at this level (1 to 8).
    Ai {
        /// Its level.
        level: u8,
        /// A clock, or days per move.
        pace: Pace,
        /// The colour asked for (none: random).
        color: Option<Color>,
    },
    /// This game of the player's in progress (`--game ID`).
    Game {
        /// Its id.
        id: String,
    },
    /// Join the game going on: one just begun, the only one in progress,
    /// or the one the player chooses among those in progress.
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
    /// A line of the players' room came in the quiet after a notice: its
    /// writer, said with the count once the quiet is over.
    chat_pending: Option<String>,
    /// The opponent gone: when lichess lets the win be claimed (said then;
    /// a `claim` before is told how long to wait).
    claim_at: Option<Instant>,
    /// A game rejoined after hector stopped, before its `gameFull` came:
    /// `Some(true)` once lichess out of reach was said (branch record).
    rejoin: Option<bool>,
    /// White's and Black's names on lichess, for the full-screen view's
    /// clocks (branch walk).
    players: Option<[String; 2]>,
    /// The id of the game the player asked for (the challenge's, the
    /// AI's, `--game`'s), once known: the only `gameStart` joined.
    awaited: Option<String>,
    /// `gameStart`s that came before lichess's answer gave that id.
    early: Vec<GameInfo>,
    /// The challenge (or the AI's game) asked for at the start has had no
    /// answer yet.
    asking: bool,
    /// Joining: the games in progress the event stream brought, and when
    /// to choose among them (the stream sends them all as it opens).
    candidates: Vec<GameInfo>,
    decide_at: Option<Instant>,
    /// The player is asked which of `candidates` to play.
    choosing: bool,
    /// How lichess writes castling in this game (king to rook in Chess960
    /// and `fromPosition` games).
    mode: CastlingMode,
    /// The game has a clock (not a correspondence game).
    clocked: bool,
    /// A correspondence game's days per move.
    days: Option<u32>,
    /// The first move's deadline: said once, then again with ten seconds
    /// left (at this time).
    first_move_said: bool,
    first_move_ten: Option<Instant>,
    /// A seek lichess closed: when to say that no game came of it.
    seek_closed_at: Option<Instant>,
    /// The player's move posted and not yet brought back by lichess: when
    /// to say so, the position it was made in, and the move.
    unreceived: Option<(Instant, Box<shakmaty::Chess>, Move)>,
    /// The token's refusal was said (once, whatever refused it).
    token_said: bool,
    /// Leaving, held (at most until then) until lichess has what it must:
    /// the challenge's withdrawal, the player's last move.
    quit_by: Option<Instant>,
    /// The withdrawal of the challenge was sent, not yet answered.
    cancelling: bool,
}

/// What the online part answers that only the App may do.
#[derive(Debug)]
pub(super) enum OnlineNote {
    /// lichess says which side the player has.
    Side(Color),
    /// The game's first `gameFull`: this game begins (its start record
    /// and its clock from `full`, as `side`), against `them`.
    Begin {
        game: Game,
        full: Box<GameFull>,
        side: Side,
    },
    /// What the server's game brought since it was last heard, to be
    /// applied in order ([`OnlinePlay::apply`]); `rejoined`: the first
    /// news of a game rejoined after hector stopped.
    Changes {
        changes: Vec<Change>,
        rejoined: bool,
    },
    /// The game changes as the server has it (a move, a take-back, the
    /// game read again, an offer).
    Edit(Edit),
    /// The game ended on lichess: the result, and lichess's own sentence
    /// where hector's would not be true (none: hector's).
    End {
        result: GameResult,
        own: Option<String>,
    },
    /// The game came to nothing (aborted, never started): its journal is
    /// set aside, with lichess's status.
    Void(String),
    /// The player's move `uci` was refused: it is taken back.
    MoveRefused,
    /// A sentence of the part's, said after what the notes before it say
    /// (the first move's deadline after the game's start).
    Tell(String),
}

/// What the online part did with an action.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Taken {
    /// Not an action that means something else online.
    No,
    /// Done (asked of the server, or refused and said).
    Yes,
    /// The standing offer was declined on the server: decline it in the
    /// game too.
    Declined,
}

/// A chat line holds at most this many characters on lichess.
const CHAT_MAX: usize = 140;
/// After a chat notice, further lines are only counted for this long
/// (then said again, with their count): a talkative opponent does not
/// fill the game with notices.
const CHAT_QUIET: Duration = Duration::from_secs(30);
/// At most this many unheard lines are kept (the oldest go first).
const CHAT_KEPT: usize = 50;
/// The event stream sends every game in progress as it opens: those that
/// come within this time are chosen among together.
const JOIN_WINDOW: Duration = Duration::from_millis(400);
/// A `gameStart` may come just after the seek's request ends: a seek
/// closed with no game is said after this.
const SEEK_GRACE: Duration = Duration::from_secs(3);
/// A move lichess has not brought back after this is said not received.
const MOVE_UNRECEIVED: Duration = Duration::from_secs(3);
/// Leaving waits at most this long for lichess to have the last move or
/// the challenge's withdrawal.
const QUIT_WAIT: Duration = Duration::from_secs(4);
/// More moves than this in one state (a game taken up after a long
/// absence, a flood) are said as one sentence, not each.
pub(super) const FLOOD: usize = 8;

impl OnlinePlay {
    /// A game to begin as `start` says.
    pub(super) fn new(start: OnlineStart) -> OnlinePlay {
        let awaited = match &start {
            OnlineStart::Game { id } => Some(id.clone()),
            _ => None,
        };
        OnlinePlay {
            start,
            game_id: None,
            side: None,
            sync: None,
            link: Link::default(),
            challenge: None,
            gone: false,
            offers_made: false,
            me_names: Vec::new(),
            unheard: Vec::new(),
            chat_said_at: None,
            chat_pending: None,
            claim_at: None,
            rejoin: None,
            players: None,
            awaited,
            early: Vec::new(),
            asking: false,
            candidates: Vec::new(),
            decide_at: None,
            choosing: false,
            mode: CastlingMode::Standard,
            clocked: true,
            days: None,
            first_move_said: false,
            first_move_ten: None,
            seek_closed_at: None,
            unreceived: None,
            token_said: false,
            quit_by: None,
            cancelling: false,
        }
    }

    /// A game of the journal's rejoined by its id, as `side`, with the
    /// moves heard before hector stopped (`app/online_record.rs`).
    pub(super) fn rejoining(game_id: String, side: Side, sync: GameSync) -> OnlinePlay {
        OnlinePlay {
            game_id: Some(game_id),
            side: Some(side),
            sync: Some(sync),
            rejoin: Some(false),
            ..OnlinePlay::new(OnlineStart::Join)
        }
    }

    /// A game of the journal (`start`, played on lichess) rejoined by its
    /// id, with the moves of `game` heard before hector stopped; the
    /// player's side.  None for a game not played on lichess.
    pub(super) fn rejoin(start: &StartInfo, game: &Game) -> Option<(OnlinePlay, Color)> {
        let online = start.online()?;
        let side = side_of(online.side);
        let mode = game.castling_mode();
        let heard: Vec<String> = game
            .history()
            .iter()
            .map(|m| moves::write(&m.mv, mode))
            .collect();
        let fen = start.fen.as_deref().unwrap_or("startpos");
        let sync = GameSync::resumed(side, fen, heard);
        let mut part = OnlinePlay::rejoining(online.game, side, sync);
        part.mode = mode;
        // A correspondence game's record has no time control of a clock.
        part.clocked = super::online_record::clock_of(start.time_control.as_deref()).is_some();
        Some((part, online.side))
    }

    /// The game is being rejoined (its stream opened again), against the
    /// opponent the start record names, the player playing `me`: said.
    pub(super) fn say_rejoining(&self, start: &StartInfo, me: Color, v: &mut Voice<'_>) {
        if let Some(id) = self.game_id.clone() {
            v.effect(Effect::Lichess(LichessOrder::OpenGameStream(id)));
        }
        let them = match me {
            Color::White => &start.black,
            Color::Black => &start.white,
        };
        v.say_key(
            "lichess_rejoining",
            &[("name", them)],
            Priority::Normal,
            SayKind::Game,
        );
    }

    /// The first `gameFull` of a game rejoined lacks the player's last
    /// move (`mine`, the game's last if it is the player's): hector stopped
    /// before lichess had it.  The move is sent now, not taken back
    /// (lichess confirms it as any): the changes are then none, and the
    /// effect that sends it.
    #[must_use]
    pub(super) fn resend_missing(
        &mut self,
        changes: Vec<Change>,
        mine: Option<Move>,
    ) -> (Vec<Change>, Option<Effect>) {
        let mode = self.mode;
        let uci = mine.map(|m| moves::write(&m, mode));
        let (Some(uci), [Change::TakenBack { count: 1 }]) = (uci, &changes[..]) else {
            return (changes, None);
        };
        let Some((game, sync)) = self.game_and_sync() else {
            return (changes, None);
        };
        sync.sent(&uci);
        let send = Effect::Lichess(LichessOrder::Send(Request::Move {
            game,
            uci,
            offering_draw: false,
        }));
        (Vec::new(), Some(send))
    }

    /// When the link down for long must be said.
    pub(super) fn deadline(&self) -> Option<Instant> {
        // The end of a chat quiet with lines in it: their count is said.
        let chat = self
            .chat_said_at
            .filter(|_| self.chat_pending.is_some())
            .map(|t| t + CHAT_QUIET);
        [
            self.link.deadline(),
            self.claim_at,
            chat,
            self.decide_at,
            self.first_move_ten,
            self.seek_closed_at,
            self.unreceived.as_ref().map(|(t, ..)| *t),
            self.quit_by,
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// The game's id and its sync, once both are known.
    pub(super) fn game_and_sync(&mut self) -> Option<(String, &mut GameSync)> {
        Some((self.game_id.clone()?, self.sync.as_mut()?))
    }

    /// The session begins: the account's stream, and the challenge, the
    /// seek or the game against the AI.  A challenge is said sent once
    /// lichess has it (issue 30: it was said sent when lichess had refused
    /// it); the AI's game is said when it begins.
    pub(super) fn start(&mut self, v: &mut Voice<'_>) {
        if self.rejoin.is_some() {
            // A game rejoined: its stream is open already.
            return;
        }
        v.effect(Effect::Lichess(LichessOrder::OpenAccountStream));
        let t = match self.start.clone() {
            OnlineStart::Challenge {
                user,
                limit_s,
                increment_s,
                color,
                rated,
            } => {
                self.asking = true;
                v.effect(Effect::Lichess(LichessOrder::Send(Request::Challenge {
                    user,
                    limit_s,
                    increment_s,
                    color: color.map(side_of),
                    rated,
                })));
                return;
            }
            OnlineStart::Correspondence {
                user,
                days,
                color,
                rated,
            } => {
                self.asking = true;
                v.effect(Effect::Lichess(LichessOrder::Send(
                    Request::Correspondence {
                        user,
                        days,
                        color: color.map(side_of),
                        rated,
                    },
                )));
                return;
            }
            OnlineStart::Ai { level, pace, color } => {
                self.asking = true;
                v.effect(Effect::Lichess(LichessOrder::Send(Request::ChallengeAi {
                    level,
                    pace,
                    color: color.map(side_of),
                })));
                return;
            }
            OnlineStart::Seek {
                limit_s,
                increment_s,
                color,
                rated,
            } => {
                v.effect(Effect::Lichess(LichessOrder::Seek(Request::Seek {
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
                v.text(
                    key,
                    &[
                        ("minutes", &(limit_s / 60).to_string()),
                        ("seconds", &increment_s.to_string()),
                    ],
                )
            }
            OnlineStart::Game { id } => v.text("lichess_game_opening", &[("id", &id)]),
            OnlineStart::Join => v.text("lichess_waiting", &[]),
        };
        v.say(t, Priority::Normal, SayKind::Game);
    }

    /// The name of the player challenged, when a challenge was made.
    fn challenged(&self) -> Option<&str> {
        match &self.start {
            OnlineStart::Challenge { user, .. } | OnlineStart::Correspondence { user, .. } => {
                Some(user)
            }
            _ => None,
        }
    }

    /// Time passed: the link down for long is said, the win that may be
    /// claimed now (unless the game is `over`), the first move's last ten
    /// seconds, a seek that came to nothing, a move lichess has not
    /// received; the game to join chosen among those in progress.
    #[must_use]
    pub(super) fn tick(&mut self, now: Instant, over: bool, v: &mut Voice<'_>) -> Vec<OnlineNote> {
        if self.first_move_ten.is_some_and(|t| now >= t) {
            self.first_move_ten = None;
            if !over {
                v.say_key(
                    "lichess_first_move_ten",
                    &[],
                    Priority::Urgent,
                    SayKind::Game,
                );
            }
        }
        if self.seek_closed_at.is_some_and(|t| now >= t) {
            self.seek_closed_at = None;
            if self.game_id.is_none() {
                v.say_key("lichess_seek_lost", &[], Priority::Urgent, SayKind::Error);
            }
        }
        if self.unreceived.as_ref().is_some_and(|(t, ..)| now >= *t)
            && let Some((_, before, mv)) = self.unreceived.take()
            && self.sync.as_ref().is_some_and(|s| s.pending().is_some())
        {
            let said = v.phraser().say_move(&before, mv);
            v.say_key(
                "lichess_move_not_received",
                &[("move", &said)],
                Priority::Urgent,
                SayKind::Info,
            );
        }
        let notice = self.link.tick(now);
        // A game rejoined out of reach has said so already.
        if notice == Some(LinkNotice::Offline) && self.rejoin != Some(true) {
            v.say_key("lichess_offline", &[], Priority::Urgent, SayKind::Info);
        }
        let due = self.gone && self.claim_at.is_some_and(|t| now >= t);
        if due {
            self.claim_at = None;
        }
        if due && !over {
            v.say_key("lichess_claim_now", &[], Priority::Urgent, SayKind::Game);
        }
        // Lines that came in the quiet after a chat notice: said with
        // their count when it ends (issue 30: the count said was never
        // brought up to date).
        let quiet_over = self.chat_said_at.is_some_and(|t| now >= t + CHAT_QUIET);
        if quiet_over && let Some(name) = self.chat_pending.take() {
            self.chat_said_at = Some(now);
            self.chat_notice(&name, v);
        }
        if self.decide_at.is_some_and(|t| now >= t) {
            return self.decide(v);
        }
        Vec::new()
    }

    /// What the network brought, in the game `game` where the player
    /// plays `me`.
    #[must_use]
    pub(super) fn handle(
        &mut self,
        io: LichessIo,
        now: Instant,
        game: &Game,
        me: Color,
        v: &mut Voice<'_>,
    ) -> Vec<OnlineNote> {
        match io {
            LichessIo::StreamOpen(_) => {
                if self.link.up() == Some(LinkNotice::Back) {
                    v.say_key("lichess_back", &[], Priority::Normal, SayKind::Info);
                }
            }
            LichessIo::StreamDown(_) => {
                self.link.down(now);
                // A game being rejoined cannot be reached: said once, and
                // the game is kept for later (its journal stays unfinished).
                if self.rejoin == Some(false) {
                    self.rejoin = Some(true);
                    v.say_key(
                        "lichess_rejoin_offline",
                        &[],
                        Priority::Urgent,
                        SayKind::Info,
                    );
                }
            }
            LichessIo::StreamRefused(_, 401) => self.token_refused(v),
            // lichess's 403 is a scope the token lacks (lila's
            // `handleScopedFail`), not the server out of reach.
            LichessIo::StreamRefused(_, 403) => {
                v.say_key(
                    "lichess_missing_scope",
                    &[],
                    Priority::Urgent,
                    SayKind::Error,
                );
            }
            LichessIo::StreamRefused(Stream::Game(_), _) => {
                v.say_key("lichess_game_gone", &[], Priority::Urgent, SayKind::Error);
            }
            LichessIo::StreamRefused(Stream::Account, status) => {
                let said = v.phraser().lichess_no_answer(&NoAnswer::Status(status));
                v.say(said, Priority::Urgent, SayKind::Error);
            }
            LichessIo::StreamEnded(_) | LichessIo::BadLine(..) => {}
            LichessIo::Account(event) => return self.on_account_event(*event, now, v),
            LichessIo::Game(id, event) => {
                if self.game_id.as_deref() == Some(id.as_str()) {
                    return self.on_game_event(event, now, game, me, v);
                }
            }
            LichessIo::Reply(request, reply) => return self.on_reply(&request, reply, now, v),
            LichessIo::RateLimited => {
                v.say_key("lichess_rate_limited", &[], Priority::Normal, SayKind::Info);
            }
        }
        Vec::new()
    }

    /// The token was refused (401): said once, whichever request or
    /// stream met it first.
    fn token_refused(&mut self, v: &mut Voice<'_>) {
        if !std::mem::replace(&mut self.token_said, true) {
            v.say_key(
                "lichess_token_refused",
                &[],
                Priority::Urgent,
                SayKind::Error,
            );
        }
    }

    /// A game of the account's began, or is in progress (the event stream
    /// sends every one as it opens, `tags/board/api-stream-event.yaml`):
    /// joined only when it is the one the player asked for — the
    /// challenge's or the AI's (its id), `--game`'s, the seek's (one just
    /// begun from the lobby); joining with none, one just begun, the only
    /// one in progress, or the one the player chooses.
    fn on_game_start(
        &mut self,
        info: GameInfo,
        now: Instant,
        v: &mut Voice<'_>,
    ) -> Vec<OnlineNote> {
        if self.game_id.is_some() {
            return Vec::new();
        }
        match &self.start {
            OnlineStart::Challenge { .. }
            | OnlineStart::Correspondence { .. }
            | OnlineStart::Ai { .. }
            | OnlineStart::Game { .. } => match &self.awaited {
                Some(id) if *id == info.game_id => self.join(info, v),
                Some(_) => Vec::new(),
                None => {
                    self.early.push(info);
                    Vec::new()
                }
            },
            OnlineStart::Seek { .. } => {
                let from_lobby = info
                    .source
                    .as_deref()
                    .is_none_or(|s| matches!(s, "lobby" | "pool"));
                if from_lobby && just_begun(&info) {
                    self.join(info, v)
                } else {
                    Vec::new()
                }
            }
            OnlineStart::Join if self.choosing => Vec::new(),
            OnlineStart::Join if self.candidates.is_empty() && just_begun(&info) => {
                self.join(info, v)
            }
            OnlineStart::Join => {
                self.candidates.push(info);
                self.decide_at.get_or_insert(now + JOIN_WINDOW);
                Vec::new()
            }
        }
    }

    /// The games in progress are all in: the only one joined; with
    /// several, the player is asked which.
    fn decide(&mut self, v: &mut Voice<'_>) -> Vec<OnlineNote> {
        self.decide_at = None;
        let mut games = std::mem::take(&mut self.candidates);
        if games.len() < 2 {
            return games.pop().map(|g| self.join(g, v)).unwrap_or_default();
        }
        let count = games.len().to_string();
        v.say_key(
            "lichess_choose_game",
            &[("count", &count)],
            Priority::Urgent,
            SayKind::Game,
        );
        for (n, g) in games.iter().enumerate() {
            let line = v.phraser().lichess_game(&Playing::from(g));
            v.say(
                format!("{}. {line}", n + 1),
                Priority::Normal,
                SayKind::Game,
            );
        }
        self.candidates = games;
        self.choosing = true;
        Vec::new()
    }

    /// True while the player is asked which game in progress to play.
    pub(super) fn choosing(&self) -> bool {
        self.choosing
    }

    /// The player's answer to the choice among the games in progress: the
    /// `n`th (from 1).  None when no choice is asked.
    #[must_use]
    pub(super) fn choose(&mut self, n: usize, v: &mut Voice<'_>) -> Option<Vec<OnlineNote>> {
        if !self.choosing {
            return None;
        }
        let count = self.candidates.len();
        if !(1..=count).contains(&n) {
            v.error("lichess_choose_range", &[("count", &count.to_string())]);
            return Some(Vec::new());
        }
        let info = self.candidates.remove(n - 1);
        let notes = self.join(info, v);
        if self.game_id.is_some() {
            self.choosing = false;
            self.candidates.clear();
        }
        Some(notes)
    }

    /// This game is the player's: its stream opened (the game said when it
    /// brings the game, `gameFull`); one the Board API does not play, or of
    /// a variant hector does not play, said and left alone.
    fn join(&mut self, info: GameInfo, v: &mut Voice<'_>) -> Vec<OnlineNote> {
        if !info.board_compatible() {
            // lichess would refuse its stream (lila's `PlayApi`: "This game
            // cannot be played with the Board API").
            v.say_key(
                "lichess_game_not_board",
                &[],
                Priority::Urgent,
                SayKind::Error,
            );
            return Vec::new();
        }
        if let Some(VariantKind::Other(name)) = info.variant.as_ref().map(|v| v.kind()) {
            v.say_key(
                "lichess_variant_refused",
                &[("variant", &name)],
                Priority::Urgent,
                SayKind::Error,
            );
            return Vec::new();
        }
        self.game_id = Some(info.game_id.clone());
        self.side = info.color;
        self.early.clear();
        v.effect(Effect::Lichess(LichessOrder::OpenGameStream(info.game_id)));
        info.color
            .map(|s| OnlineNote::Side(colour_of(s)))
            .into_iter()
            .collect()
    }

    fn on_account_event(
        &mut self,
        event: AccountEvent,
        now: Instant,
        v: &mut Voice<'_>,
    ) -> Vec<OnlineNote> {
        match event {
            AccountEvent::GameStart(info) => return self.on_game_start(info, now, v),
            AccountEvent::ChallengeDeclined(c) => {
                // The reason in hector's words (lichess's text is English).
                use crate::lichess::event::DeclineReason as R;
                let key = match c.decline_reason_key {
                    Some(R::Later) => "lichess_declined_later",
                    Some(R::TooFast) => "lichess_declined_too_fast",
                    Some(R::TooSlow) => "lichess_declined_too_slow",
                    Some(R::TimeControl) => "lichess_declined_time_control",
                    Some(R::Rated) => "lichess_declined_rated",
                    Some(R::Casual) => "lichess_declined_casual",
                    Some(R::Standard) => "lichess_declined_standard",
                    Some(R::Variant) => "lichess_declined_variant",
                    Some(R::NoBot) => "lichess_declined_no_bot",
                    Some(R::OnlyBot) => "lichess_declined_only_bot",
                    Some(R::Generic) | None => "lichess_challenge_declined",
                };
                let name = c.dest_user.map(|p| p.name).unwrap_or_default();
                v.say_key(key, &[("name", &name)], Priority::Urgent, SayKind::Game);
            }
            AccountEvent::Challenge(c) => self.on_challenge(c, v),
            AccountEvent::ChallengeCanceled(c) => {
                if self.challenge.as_deref() == Some(c.id.as_str()) {
                    self.challenge = None;
                    let name = c.challenger.map(|p| p.name).unwrap_or_default();
                    v.say_key(
                        "lichess_challenge_canceled",
                        &[("name", &name)],
                        Priority::Normal,
                        SayKind::Game,
                    );
                }
            }
            AccountEvent::GameFinish(_) | AccountEvent::Other => {}
        }
        Vec::new()
    }

    /// A challenge to the player, while waiting for a game: said in words
    /// (who, rating, time, rated) and asked about.  Only standard chess
    /// with a clock is offered; one challenge is asked about at a time.
    fn on_challenge(&mut self, c: crate::lichess::event::Challenge, v: &mut Voice<'_>) {
        let to_us = c.direction.as_deref() != Some("out");
        let Some(crate::lichess::event::TimeControl::Clock { limit, increment }) =
            c.time_control.clone()
        else {
            return;
        };
        if !to_us
            || self.game_id.is_some()
            || self.challenge.is_some()
            || self.start != OnlineStart::Join
            || !c.is_standard()
        {
            return;
        }
        self.challenge = Some(c.id.clone());
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
        v.say_key(
            key,
            &[
                ("name", &name),
                ("rating", &rating),
                ("minutes", &minutes),
                ("seconds", &seconds),
            ],
            Priority::Urgent,
            SayKind::Game,
        );
    }

    fn on_game_event(
        &mut self,
        event: GameEvent,
        now: Instant,
        game: &Game,
        me: Color,
        v: &mut Voice<'_>,
    ) -> Vec<OnlineNote> {
        match event {
            GameEvent::Full(full) => return self.on_game_full(*full, now, me, v),
            GameEvent::State(state) => {
                if let Some(s) = self.sync.as_mut() {
                    let changes = s.update(&state);
                    let mut notes = vec![OnlineNote::Changes {
                        changes,
                        rejoined: false,
                    }];
                    notes.extend(self.first_move(&state, now, v));
                    return notes;
                }
            }
            // Still gone: lichess's countdown, followed quietly.
            GameEvent::OpponentGone {
                gone: true,
                claim_win_in_seconds,
            } if self.gone => {
                if self.claim_at.is_some() {
                    self.claim_at = claim_win_in_seconds
                        .filter(|s| *s > 0)
                        .map(|s| now + Duration::from_secs(u64::from(s)));
                }
            }
            GameEvent::OpponentGone { gone: false, .. } if !self.gone => {}
            GameEvent::OpponentGone {
                gone: true,
                claim_win_in_seconds,
            } => {
                let wait = claim_win_in_seconds.unwrap_or(0);
                self.gone = true;
                self.claim_at = (wait > 0).then(|| now + Duration::from_secs(u64::from(wait)));
                v.say_key(
                    "lichess_opponent_gone",
                    &[],
                    Priority::Urgent,
                    SayKind::Game,
                );
                let t = if wait > 0 {
                    v.text("lichess_claim_in", &[("seconds", &wait.to_string())])
                } else {
                    v.text("lichess_claim_now", &[])
                };
                v.say(t, Priority::Urgent, SayKind::Game);
            }
            GameEvent::OpponentGone { gone: false, .. } => {
                self.gone = false;
                self.claim_at = None;
                v.say_key(
                    "lichess_opponent_back",
                    &[],
                    Priority::Normal,
                    SayKind::Game,
                );
            }
            GameEvent::Chat(line) => self.chat_line(line, now, v),
            GameEvent::Other => {}
        }
        let _ = game;
        Vec::new()
    }

    /// Before the player's first move lichess gives its deadline
    /// (`expiration`, `schemas/GameStateEvent.yaml`) and aborts the game
    /// when it passes: said once, as a note after the game's news, and
    /// again with ten seconds left.  Once the player has moved, no more.
    fn first_move(
        &mut self,
        state: &GameState,
        now: Instant,
        v: &mut Voice<'_>,
    ) -> Option<OnlineNote> {
        let sync = self.sync.as_ref()?;
        let ours = sync.ours();
        let mine_made = (0..sync.moves().len()).any(|i| sync.side_at(i) == ours);
        let due = state
            .expiration
            .filter(|_| !mine_made && !sync.is_over() && sync.to_move() == ours);
        let Some(e) = due else {
            self.first_move_ten = None;
            return None;
        };
        let left = Duration::from_millis(e.millis_left());
        self.first_move_ten = left
            .checked_sub(Duration::from_secs(10))
            .filter(|d| !d.is_zero())
            .map(|d| now + d);
        if std::mem::replace(&mut self.first_move_said, true) {
            return None;
        }
        // Whole seconds, rounded up: 11.9 s left is "twelve seconds".
        let seconds = e.millis_left().div_ceil(1000).to_string();
        Some(OnlineNote::Tell(
            v.text("lichess_first_move", &[("seconds", &seconds)]),
        ))
    }

    fn on_game_full(
        &mut self,
        full: GameFull,
        now: Instant,
        me: Color,
        v: &mut Voice<'_>,
    ) -> Vec<OnlineNote> {
        // A game rejoined: it is reached.
        let rejoined = self.rejoin.take().is_some();
        self.players = Some([
            self.player_name(&full.white, v),
            self.player_name(&full.black, v),
        ]);
        // A correspondence game's times are days: no clock follows them.
        self.clocked = full.clock.is_some() && !full.is_correspondence();
        self.days = full.days_per_turn.filter(|_| full.is_correspondence());
        let mut notes = Vec::new();
        let changes = match &mut self.sync {
            // A reconnect: only what was missed.
            Some(s) => s.full(&full),
            None => {
                // Where it starts and how lichess writes its castling; a
                // variant hector does not play is said and left alone.
                let (start, mode) = match moves::start(&full) {
                    Ok(s) => s,
                    Err(why) => {
                        match why {
                            moves::Unplayable::Variant(name) => v.say_key(
                                "lichess_variant_refused",
                                &[("variant", &name)],
                                Priority::Urgent,
                                SayKind::Error,
                            ),
                            moves::Unplayable::Position => v.say_key(
                                "lichess_position_unknown",
                                &[],
                                Priority::Urgent,
                                SayKind::Error,
                            ),
                        }
                        return Vec::new();
                    }
                };
                self.mode = mode;
                let side = self.side.unwrap_or(side_of(me));
                let mut sync = GameSync::new(side, &full.initial_fen);
                let changes = sync.full(&full);
                self.sync = Some(sync);
                let us = match side {
                    Side::White => &full.white,
                    Side::Black => &full.black,
                };
                self.me_names = [us.name.to_lowercase(), us.id.to_lowercase()]
                    .into_iter()
                    .filter(|n| !n.is_empty())
                    .collect();
                let state = full.state.clone();
                notes.push(OnlineNote::Begin {
                    game: Game::from_position(start),
                    full: Box::new(full),
                    side,
                });
                notes.push(OnlineNote::Changes { changes, rejoined });
                notes.extend(self.first_move(&state, now, v));
                return notes;
            }
        };
        notes.push(OnlineNote::Changes { changes, rejoined });
        notes.extend(self.first_move(&full.state, now, v));
        notes
    }

    /// A player of the game by name; lichess's computer, which has none,
    /// by its level.
    fn player_name(&self, p: &crate::lichess::event::Player, v: &mut Voice<'_>) -> String {
        match p.ai_level {
            Some(level) if p.name.is_empty() => {
                v.text("lichess_ai_name", &[("level", &level.to_string())])
            }
            _ => p.name.clone(),
        }
    }

    /// The game begins: said with the opponent's name and rating, and the
    /// player's side (`me`).
    pub(super) fn say_begin(&self, full: &GameFull, me: Color, v: &mut Voice<'_>) {
        let them = match me {
            Color::White => &full.black,
            Color::Black => &full.white,
        };
        let side = v.phraser().side(me);
        let name = self.player_name(them, v);
        let t = match them.rating {
            _ if them.ai_level.is_some() && them.name.is_empty() => v.text(
                "lichess_game_started_ai",
                &[
                    ("level", &them.ai_level.unwrap_or_default().to_string()),
                    ("side", &side),
                ],
            ),
            Some(r) => v.text(
                "lichess_game_started_rating",
                &[("name", &name), ("rating", &r.to_string()), ("side", &side)],
            ),
            None => v.text("lichess_game_started", &[("name", &name), ("side", &side)]),
        };
        v.say(t, Priority::Urgent, SayKind::Game);
    }

    /// The server's clock after its changes: followed by the game's clock
    /// part (`clock`), and journalled when it brings both times of a move.
    pub(super) fn follow_clock(
        &self,
        game: &Game,
        journal: &mut super::scoresheet::Journal,
        clock: Option<&mut super::clock::ClockPart>,
        now: Instant,
    ) {
        let Some((c, running, all)) = self.server_clock(game.history().len()) else {
            return;
        };
        if all {
            journal.server_press(game, c.white_ms, c.black_ms);
        }
        let times = shakmaty::ByColor {
            white: std::time::Duration::from_millis(c.white_ms),
            black: std::time::Duration::from_millis(c.black_ms),
        };
        if let Some(part) = clock {
            part.clock.follow(times, running, now);
        }
    }

    /// The server's times as of now, for the clock that follows them (the
    /// side to move's runs from the second move on: lichess starts the
    /// clocks after each side's first), and whether the game here has all
    /// the server's moves (`plies`): the times then go into the journal.
    pub(super) fn server_clock(
        &self,
        plies: usize,
    ) -> Option<(crate::lichess::sync::ServerClock, Option<Color>, bool)> {
        let sync = self.sync.as_ref()?;
        // A correspondence game has no clock: its times are days.
        if !self.clocked {
            return None;
        }
        let c = sync.clock()?;
        let running =
            (sync.moves().len() >= 2 && !sync.is_over()).then(|| colour_of(sync.to_move()));
        Some((c, running, sync.moves().len() == plies))
    }

    /// One change of the server's game, in `game`: said where the part
    /// knows the words, and answered with what the App is to do.
    #[must_use]
    pub(super) fn apply(
        &mut self,
        change: Change,
        game: &Game,
        v: &mut Voice<'_>,
    ) -> Option<OnlineNote> {
        match change {
            Change::Move { uci, .. } => match server_move(game.position(), &uci) {
                // Heard from the server: not posted back (`on_change`).
                Some(mv) => Some(OnlineNote::Edit(Edit::Play(mv))),
                None => {
                    v.say_key(
                        "lichess_move_unreadable",
                        &[("move", &uci)],
                        Priority::Urgent,
                        SayKind::Error,
                    );
                    None
                }
            },
            Change::Confirmed { .. } => None,
            Change::TakenBack { count } => {
                // Which moves (issue 30.12: "Moves were taken back" did not
                // say).
                let mut taken: Vec<String> = game
                    .positions()
                    .rev()
                    .take(count)
                    .map(|(before, played)| v.phraser().say_move(before, played.mv))
                    .collect();
                taken.reverse();
                v.say_key(
                    "lichess_taken_back",
                    &[("moves", &taken.join(", "))],
                    Priority::Urgent,
                    SayKind::Game,
                );
                Some(OnlineNote::Edit(Edit::TakeBack(count)))
            }
            Change::Replaced { moves } => {
                // From where the game started (its FEN, its castling).
                let mut game = Game::from_position(game.start().clone());
                for uci in &moves {
                    if let Some(mv) = server_move(game.position(), uci) {
                        let _ = game.play(mv);
                    }
                }
                v.say_key("lichess_resynced", &[], Priority::Urgent, SayKind::Game);
                Some(OnlineNote::Edit(Edit::Replace(game)))
            }
            Change::DrawOffered { by } => {
                self.offers_made = true;
                let side = v.phraser().side(colour_of(by));
                v.say_key(
                    "draw_offered",
                    &[("side", &side)],
                    Priority::Urgent,
                    SayKind::Game,
                );
                Some(OnlineNote::Edit(Edit::OfferDraw(colour_of(by))))
            }
            Change::TakebackProposed { .. } => {
                v.say_key(
                    "lichess_takeback_proposed",
                    &[],
                    Priority::Urgent,
                    SayKind::Game,
                );
                None
            }
            Change::TakebackDeclined => {
                v.say_key(
                    "lichess_takeback_declined",
                    &[],
                    Priority::Urgent,
                    SayKind::Game,
                );
                None
            }
            Change::Ended { status, winner } => self.ended(&status, winner, game, v),
        }
    }

    /// The game's end as lichess reports it, with its reason in words.
    fn ended(
        &self,
        status: &str,
        winner: Option<Side>,
        game: &Game,
        v: &mut Voice<'_>,
    ) -> Option<OnlineNote> {
        let winner = winner.map(colour_of);
        let agreed = self.offers_made;
        // The result for the scoresheet, and a sentence of lichess's own
        // where hector's would not be true (none: hector's says it).
        let (result, own) = match (status, winner) {
            ("aborted", _) | ("noStart", _) => {
                let key = if status == "aborted" {
                    "lichess_aborted"
                } else {
                    "lichess_over_nostart"
                };
                v.say_key(key, &[], Priority::Urgent, SayKind::Game);
                return Some(OnlineNote::Void(status.to_owned()));
            }
            // Mate and stalemate are the game's own: already said.
            ("mate" | "stalemate", _) if game.is_over() => return None,
            ("mate", Some(w)) => (GameResult::win(w, EndReason::Checkmate), None),
            ("stalemate", _) => (GameResult::draw(EndReason::Stalemate), None),
            ("resign", Some(w)) => (GameResult::win(w, EndReason::Resignation), None),
            ("outoftime", Some(w)) => (GameResult::win(w, EndReason::TimeForfeit), None),
            ("outoftime", None) => (GameResult::draw(EndReason::TimeForfeit), None),
            // lichess's `timeout`: the opponent left and the win was claimed.
            // Issue 30.4: not "the arbiter's decision" (prompt, exports,
            // PGN `Termination "abandoned"`).
            ("timeout", Some(w)) => (
                GameResult::win(w, EndReason::Abandoned),
                Some("lichess_over_timeout"),
            ),
            ("timeout", None) => (GameResult::draw(EndReason::Abandoned), None),
            ("cheat", Some(w)) => (
                GameResult::win(w, EndReason::ArbiterDecision),
                Some("lichess_over_cheat"),
            ),
            // A draw of the game's own (repetition, 75 moves, dead
            // position) was said as it happened.
            ("draw", None) if game.is_over() => return None,
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
        let own = own.map(|key| {
            let result = v.text(result_key(winner), &[]);
            let (side, loser) = match winner {
                Some(w) => (v.phraser().side(w), v.phraser().side(!w)),
                None => (String::new(), String::new()),
            };
            v.text(
                key,
                &[("side", &side), ("loser", &loser), ("result", &result)],
            )
        });
        Some(OnlineNote::End { result, own })
    }

    fn on_reply(
        &mut self,
        request: &Request,
        reply: Reply,
        now: Instant,
        v: &mut Voice<'_>,
    ) -> Vec<OnlineNote> {
        let asked = matches!(
            request,
            Request::Challenge { .. }
                | Request::Correspondence { .. }
                | Request::ChallengeAi { .. }
        );
        if asked {
            self.asking = false;
        }
        if matches!(request, Request::CancelChallenge { .. }) {
            // Withdrawn (or already gone): leaving need wait no longer.
            self.cancelling = false;
            return Vec::new();
        }
        let (status, error) = match reply {
            Reply::Refused { status: 401, .. } => {
                self.token_refused(v);
                return Vec::new();
            }
            Reply::Refused { status, error } => (status, error),
            // lichess made the challenge (or the AI's game): its id is the
            // game's to come.
            Reply::Done(body) if asked => {
                if self.awaited.is_some() || self.game_id.is_some() {
                    return Vec::new();
                }
                let Some(id) = crate::lichess::api::challenge_id(&body) else {
                    return Vec::new();
                };
                self.awaited = Some(id.clone());
                if let Some(name) = self.challenged().map(str::to_owned) {
                    v.say_key(
                        "lichess_challenge_sent",
                        &[("name", &name)],
                        Priority::Normal,
                        SayKind::Game,
                    );
                }
                // The game may have begun before the answer came.
                let early = std::mem::take(&mut self.early);
                return match early.into_iter().find(|g| g.game_id == id) {
                    Some(info) => self.join(info, v),
                    None => Vec::new(),
                };
            }
            // A seek lichess closed: a game, if one began, comes on the
            // event stream, perhaps just after; none by then is said.
            Reply::Done(_) if matches!(request, Request::Seek { .. }) => {
                if self.game_id.is_none() {
                    self.seek_closed_at = Some(now + SEEK_GRACE);
                }
                return Vec::new();
            }
            // A seek lost before a game began (a game's start comes on
            // the account's stream, not here).
            Reply::Failed(_) | Reply::RateLimited if matches!(request, Request::Seek { .. }) => {
                if self.game_id.is_none() {
                    v.say_key("lichess_seek_lost", &[], Priority::Urgent, SayKind::Error);
                }
                return Vec::new();
            }
            // A challenge held open whose connection broke before an
            // answer, or one that never reached lichess: lost.
            Reply::Failed(why) if asked && self.game_id.is_none() => {
                let said = if self.awaited.is_some() {
                    let name = self.challenged().unwrap_or_default().to_owned();
                    v.text("lichess_challenge_lost", &[("name", &name)])
                } else {
                    v.phraser().lichess_no_answer(&why)
                };
                v.say(said, Priority::Urgent, SayKind::Error);
                return Vec::new();
            }
            Reply::TooLong { .. } => {
                v.say_key(
                    "lichess_reply_too_long",
                    &[],
                    Priority::Urgent,
                    SayKind::Error,
                );
                return Vec::new();
            }
            _ => return Vec::new(),
        };
        match request {
            Request::Move { uci, .. } => {
                let Some(sync) = self.sync.as_mut() else {
                    return Vec::new();
                };
                if sync.pending() != Some(uci.as_str()) {
                    return Vec::new();
                }
                sync.refused();
                self.unreceived = None;
                // The move is taken back: the game is the server's again.
                vec![OnlineNote::MoveRefused]
            }
            _ => {
                say_refusal(request, status, &error, v);
                Vec::new()
            }
        }
    }

    /// A move typed (or made on the board) while it is not the player's
    /// (`me`) turn online, or before the game has begun: said, and nothing
    /// sent.  True when refused.
    pub(super) fn refuses_move(&self, game: &Game, me: Color, v: &mut Voice<'_>) -> bool {
        let key = match &self.sync {
            None => "lichess_no_game_yet",
            // Over on lichess (aborted, say) while the game here has no
            // result: no move goes.
            Some(s) if s.is_over() && !game.is_over() => "lichess_err_game_over",
            Some(s) if s.is_over() => return false,
            Some(s) if s.pending().is_some() || s.to_move() != side_of(me) => {
                "lichess_not_your_move"
            }
            Some(_) => return false,
        };
        v.error(key, &[]);
        true
    }

    /// The game changed: a move of the player's (`me`) that the server
    /// has not brought (the game has more moves, `plies`, than lichess)
    /// is posted; a move heard from the server is not posted back.
    /// The move is written as lichess writes it in this game (castling
    /// king to rook in Chess960 and `fromPosition` games), so that its echo
    /// is the same text; not brought back after a few seconds, it is said.
    #[must_use]
    pub(super) fn on_change(
        &mut self,
        change: &GameChange,
        me: Color,
        plies: usize,
        now: Instant,
    ) -> Option<Effect> {
        let GameChange::Moved { mv, by, before, .. } = change else {
            return None;
        };
        let sync = self.sync.as_mut()?;
        if *by != me || plies <= sync.moves().len() {
            return None;
        }
        let game = self.game_id.clone()?;
        let uci = moves::write(mv, self.mode);
        sync.sent(&uci);
        self.first_move_ten = None;
        self.unreceived = Some((now + MOVE_UNRECEIVED, before.clone(), *mv));
        Some(Effect::Lichess(LichessOrder::Send(Request::Move {
            game,
            uci,
            offering_draw: false,
        })))
    }

    /// The full-screen view's clock labels online: each side with its
    /// player's name on lichess ("Black: Mary"), so that the view shows
    /// who the opponent is (branch walk).
    pub(super) fn labels(&self, labels: &mut crate::view::Labels, talk: &Talk) {
        let Some([white, black]) = self.players.clone() else {
            return;
        };
        for (label, name) in [(&mut labels.white, white), (&mut labels.black, black)] {
            if !name.is_empty() {
                *label = talk.text("lichess_clock_side", &[("side", label), ("name", &name)]);
            }
        }
    }

    /// The prompt before the online game begins: not "White to move,
    /// move 1" (nothing can be played yet); a challenge made to the
    /// player asks for its answer (branch walk).  None once the game is
    /// there.
    pub(super) fn waiting_prompt(&self, talk: &Talk) -> Option<String> {
        if self.game_id.is_some() {
            return None;
        }
        if self.choosing {
            return Some(talk.text("lichess_prompt_choose", &[]));
        }
        Some(if self.challenge.is_some() {
            let accept = talk.word(Action::Accept);
            let decline = talk.word(Action::Decline);
            talk.text(
                "lichess_prompt_challenge",
                &[("accept", &accept), ("decline", &decline)],
            )
        } else {
            talk.text("lichess_prompt_waiting", &[])
        })
    }

    /// The state of an online game that is over, for the prompt: a new
    /// lichess game is a new start, so it does not say "Say new" (branch
    /// walk).
    pub(super) fn over_state(
        &self,
        talk: &Talk,
        reason: EndReason,
        winner: Option<Color>,
    ) -> String {
        let how = talk.phraser.how_it_ended(reason, winner);
        let result = talk.text(result_key(winner), &[]);
        let quit = talk.word(Action::Quit);
        talk.text(
            "lichess_over_state",
            &[("how", &how), ("result", &result), ("command", &quit)],
        )
    }

    /// The actions that mean something else online: the engine's help is
    /// off (lichess forbids it), draw, resignation and takeback are asked
    /// of the server.  `game` is the game here, `me` the player's side.
    #[must_use]
    pub(super) fn action(
        &mut self,
        action: Action,
        game: &Game,
        me: Color,
        v: &mut Voice<'_>,
    ) -> Taken {
        let game_id = self.game_id.clone();
        if let Some(id) = self.challenge.clone()
            && matches!(action, Action::Accept | Action::Decline)
        {
            self.challenge = None;
            let (request, key) = if action == Action::Accept {
                (Request::Accept { id }, "lichess_challenge_accepted")
            } else {
                (Request::Decline { id }, "lichess_challenge_declined_by_you")
            };
            v.effect(Effect::Lichess(LichessOrder::Send(request)));
            let t = v.text(key, &[]);
            v.info(t);
            return Taken::Yes;
        }
        match action {
            // The game on lichess does not end because hector starts
            // another: its clock runs on.  After its end, a new online
            // game is a new start (`play --lichess`).
            Action::New => {
                let key = if game_id.is_some() && !game.is_over() {
                    "lichess_no_new_playing"
                } else {
                    "lichess_no_new_over"
                };
                v.error(key, &[]);
                Taken::Yes
            }
            // The colour is lichess's: playing the other side would turn
            // the board and the offers round while the game stays the same
            // (branch walk: "flip" said "You play Black." as White).
            Action::Flip => {
                let side = v.phraser().side(me);
                v.error("lichess_no_flip", &[("side", &side)]);
                Taken::Yes
            }
            Action::Hint | Action::Eval | Action::Threat | Action::Engine => {
                v.error("lichess_no_engine", &[]);
                Taken::Yes
            }
            Action::Abort => {
                self.abort(game, v);
                Taken::Yes
            }
            Action::Chat => {
                self.chat(v);
                Taken::Yes
            }
            // The opponent's takeback request, answered (a draw offer
            // standing too is answered first: accept and decline are its).
            Action::Accept | Action::Decline | Action::Takeback
                if game_id.is_some() && self.takeback_asked() =>
            {
                let Some(game) = game_id else {
                    return Taken::Yes;
                };
                let yes = action != Action::Decline;
                let key = if yes {
                    "lichess_takeback_agreed"
                } else {
                    "lichess_takeback_refused_by_you"
                };
                v.effect(Effect::Lichess(LichessOrder::Send(Request::Takeback {
                    game,
                    yes,
                })));
                let t = v.text(key, &[]);
                v.info(t);
                Taken::Yes
            }
            Action::Draw | Action::Accept | Action::Decline | Action::Takeback => {
                let Some(id) = game_id else {
                    // Before the game, accept and decline answer challenges
                    // (branch walk: "The game has not begun yet." did not
                    // say that none was there).
                    let key = if matches!(action, Action::Accept | Action::Decline) {
                        "lichess_no_challenge"
                    } else {
                        "lichess_no_game_yet"
                    };
                    v.error(key, &[]);
                    return Taken::Yes;
                };
                // A draw offer is answered only when the opponent's stands
                // (as at the board); declined, it no longer stands here
                // either (branch walk: before, "decline" with no offer
                // said "Draw declined.", and a declined offer was still
                // in the prompt and "lapsed" at the next move).
                if matches!(action, Action::Accept | Action::Decline) {
                    let answered = match game.pending_offer() {
                        _ if action == Action::Decline && game.is_over() => {
                            Err(GameError::GameOver)
                        }
                        None => Err(GameError::NoOffer),
                        Some(by) if by == me => Err(GameError::OwnOffer),
                        Some(_) => Ok(()),
                    };
                    if let Err(e) = answered {
                        v.error(game_error_key(&e), &[]);
                        return Taken::Yes;
                    }
                }
                let (request, key) = match action {
                    Action::Draw => (
                        Request::Draw {
                            game: id,
                            yes: true,
                        },
                        "lichess_draw_sent",
                    ),
                    Action::Accept => (
                        Request::Draw {
                            game: id,
                            yes: true,
                        },
                        "lichess_accept_sent",
                    ),
                    Action::Decline => (
                        Request::Draw {
                            game: id,
                            yes: false,
                        },
                        "lichess_decline_sent",
                    ),
                    _ => (
                        Request::Takeback {
                            game: id,
                            yes: true,
                        },
                        "lichess_takeback_sent",
                    ),
                };
                if action == Action::Draw {
                    self.offers_made = true;
                }
                v.effect(Effect::Lichess(LichessOrder::Send(request)));
                let t = v.text(key, &[]);
                v.info(t);
                // The opponent's takeback request, standing with the draw
                // offer just declined, still waits (issue 30.12).
                if action == Action::Decline
                    && let Some(s) = self.sync.as_mut()
                {
                    s.draw_declined();
                }
                if action == Action::Decline
                    && self.sync.as_ref().is_some_and(GameSync::takeback_asked)
                {
                    let t = v.text("lichess_takeback_still_waits", &[]);
                    v.info(t);
                }
                if action == Action::Decline {
                    Taken::Declined
                } else {
                    Taken::Yes
                }
            }
            _ => Taken::No,
        }
    }

    /// Whether the opponent's takeback request is up (and no draw offer
    /// of theirs, which `accept` and `decline` answer first).
    fn takeback_asked(&self) -> bool {
        self.sync
            .as_ref()
            .is_some_and(|s| s.takeback_asked() && !s.draw_asked())
    }

    /// `abort`: only before both sides have moved (lichess refuses it
    /// after), said so otherwise.
    fn abort(&self, game: &Game, v: &mut Voice<'_>) {
        let key = match (self.game_id.clone(), self.sync.as_ref()) {
            (Some(id), Some(s)) if !s.is_over() && s.moves().len() < 2 => {
                v.effect(Effect::Lichess(LichessOrder::Send(Request::Abort {
                    game: id,
                })));
                "lichess_abort_sent"
            }
            (Some(_), Some(s)) if s.is_over() => {
                let Some(r) = game.result() else {
                    return;
                };
                let t = self.over_state(v.talk(), r.reason, r.outcome.winner());
                v.say(t, Priority::Normal, SayKind::Error);
                return;
            }
            (Some(_), Some(_)) => "lichess_abort_too_late",
            _ => "lichess_no_game_yet",
        };
        let kind = if key == "lichess_abort_sent" {
            SayKind::Info
        } else {
            SayKind::Error
        };
        v.say_key(key, &[], Priority::Normal, kind);
    }

    /// A chat line came: kept to be heard with `chat`; the opponent's
    /// lines in the players' room are said to be there, never in place of
    /// a move (a notice of normal priority, after any announcement), and
    /// at most one notice in [`CHAT_QUIET`] (the count says the rest).
    fn chat_line(&mut self, line: ChatLine, now: Instant, v: &mut Voice<'_>) {
        let who = line.username.to_lowercase();
        // lichess's warnings of a temporary ban (lila's `PlaybanFeedback`)
        // are said at once, in hector's words.
        if let Some(w) = line.warning() {
            let key = match w {
                Warning::Abort => "lichess_warning_abort",
                Warning::NoStart => "lichess_warning_nostart",
                Warning::RageQuit => "lichess_warning_ragequit",
                Warning::Sitting => "lichess_warning_sitting",
                Warning::QuickResign => "lichess_warning_quickresign",
                Warning::Other => "lichess_warning_other",
            };
            let text: String = line
                .text
                .chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .take(CHAT_MAX)
                .collect();
            v.say_key(
                key,
                &[("text", text.trim())],
                Priority::Urgent,
                SayKind::Game,
            );
            return;
        }
        // lichess's own notes in the chat ("Takeback sent", "White offers
        // draw") are English and say what hector says itself: left out.
        if self.me_names.contains(&who) || who == "lichess" || line.text.trim().is_empty() {
            return;
        }
        let notice = line.room == "player";
        let name = line.username.clone();
        if self.unheard.len() >= CHAT_KEPT {
            self.unheard.remove(0);
        }
        self.unheard.push(line);
        if !notice {
            return;
        }
        if self.chat_said_at.is_some_and(|t| now < t + CHAT_QUIET) {
            self.chat_pending = Some(name);
            return;
        }
        self.chat_said_at = Some(now);
        self.chat_pending = None;
        self.chat_notice(&name, v);
    }

    /// "A chat message from Mary", "Three chat messages not heard yet, the
    /// last from Mary" (the count in words).
    fn chat_notice(&mut self, name: &str, v: &mut Voice<'_>) {
        let count = self.unheard.len();
        let t = if count == 1 {
            v.text("lichess_chat_one", &[("name", name)])
        } else {
            v.text(
                "lichess_chat_many",
                &[("count", &count.to_string()), ("name", name)],
            )
        };
        v.say(t, Priority::Normal, SayKind::Game);
    }

    /// `chat`: the lines not yet heard, oldest first, each its own
    /// sentence.
    fn chat(&mut self, v: &mut Voice<'_>) {
        let lines = std::mem::take(&mut self.unheard);
        self.chat_said_at = None;
        self.chat_pending = None;
        if lines.is_empty() {
            let t = v.text("lichess_chat_none", &[]);
            v.info(t);
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
            let t = v.text(key, &[("name", &l.username), ("text", text.trim())]);
            v.info(t);
        }
    }

    /// `say TEXT`: written in the players' chat.
    pub(super) fn say(&self, text: &str, v: &mut Voice<'_>) {
        let Some(game) = self.game_id.clone() else {
            v.error("lichess_no_game_yet", &[]);
            return;
        };
        let count = text.chars().count();
        if count > CHAT_MAX {
            v.error("lichess_chat_too_long", &[("count", &count.to_string())]);
            return;
        }
        v.effect(Effect::Lichess(LichessOrder::Send(Request::Chat {
            game,
            text: text.to_owned(),
        })));
        let t = v.text("lichess_chat_sent", &[]);
        v.info(t);
    }

    /// `claim` online: the win, when the opponent has left (lichess says
    /// after how long it may be claimed, and refuses it before).
    pub(super) fn claim(&self, now: Instant, v: &mut Voice<'_>) {
        if self.gone
            && let Some(at) = self.claim_at.filter(|t| now < *t)
        {
            // Whole seconds, rounded up: never "0 seconds" while it is early.
            let left = at.saturating_duration_since(now);
            let seconds = left.as_secs() + u64::from(left.subsec_nanos() > 0);
            v.error("lichess_claim_in", &[("seconds", &seconds.to_string())]);
            return;
        }
        let key = match (self.game_id.clone(), self.gone) {
            (None, _) => "lichess_no_game_yet",
            (Some(_), false) => "lichess_nothing_to_claim",
            (Some(game), true) => {
                v.effect(Effect::Lichess(LichessOrder::Send(Request::ClaimVictory {
                    game,
                })));
                "lichess_claim_sent"
            }
        };
        v.say_key(key, &[], Priority::Normal, SayKind::Info);
    }

    /// At the end of an update (its effects `out`): leaving is held, at
    /// most [`QUIT_WAIT`], while lichess lacks what it must have — the
    /// withdrawal of a challenge still waiting (sent now: lichess would
    /// keep it open for the opponent), the answer to the challenge asked
    /// (its refusal is said, issue 30), the player's last move.  An
    /// interruption (Ctrl-C, SIGTERM, SIGHUP) is not held.
    pub(super) fn hold_quit(
        &mut self,
        now: Instant,
        interrupted: bool,
        talk: &mut Talk,
        out: &mut Vec<Effect>,
    ) {
        let quits = out.contains(&Effect::Quit);
        if self.quit_by.is_none() {
            if !quits || interrupted {
                return;
            }
            let waiting = matches!(
                self.start,
                OnlineStart::Challenge { .. } | OnlineStart::Correspondence { .. }
            ) && self.game_id.is_none();
            if let Some(id) = self.awaited.clone().filter(|_| waiting) {
                self.cancelling = true;
                out.push(Effect::Lichess(LichessOrder::Send(
                    Request::CancelChallenge { id },
                )));
            }
        }
        let move_pending = self.sync.as_ref().is_some_and(|s| s.pending().is_some());
        let held = self.cancelling || self.asking || move_pending;
        let by = *self.quit_by.get_or_insert(now + QUIT_WAIT);
        if held && now < by {
            out.retain(|e| e != &Effect::Quit);
            return;
        }
        self.quit_by = None;
        if move_pending {
            let mut v = Voice::new(talk, out);
            v.say_key("lichess_quit_unsent", &[], Priority::Info, SayKind::Info);
        }
        if !out.contains(&Effect::Quit) {
            out.push(Effect::Quit);
        }
    }

    /// `time` in an online game without a clock (a correspondence game):
    /// its days a move, not the advice to start hector with `--time`.
    /// None when the game has a clock, or has not begun.
    pub(super) fn no_clock(&self, talk: &Talk) -> Option<String> {
        if self.clocked || self.game_id.is_none() {
            return None;
        }
        Some(match self.days {
            Some(d) => talk.text("lichess_time_days", &[("days", &d.to_string())]),
            None => talk.text("lichess_time_none", &[]),
        })
    }

    /// `resign`, confirmed: asked of the server, which ends the game.
    pub(super) fn resign(&self, v: &mut Voice<'_>) {
        let Some(game) = self.game_id.clone() else {
            v.error("lichess_no_game_yet", &[]);
            return;
        };
        v.effect(Effect::Lichess(LichessOrder::Send(Request::Resign {
            game,
        })));
    }
}

/// A refusal in hector's words; lichess's own (English) text only for
/// one hector does not know, in a sentence apart.
fn say_refusal(request: &Request, status: u16, error: &str, v: &mut Voice<'_>) {
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
        Failure::MissingScope => ("lichess_missing_scope", None),
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
    v.say_key(key, &[("name", name)], Priority::Urgent, SayKind::Error);
    if let Some(e) = quoted.filter(|e| !e.trim().is_empty()) {
        v.say_key(
            "lichess_says",
            &[("error", e)],
            Priority::Normal,
            SayKind::Error,
        );
    }
}

/// The message of a result: "1-0", "0-1", the draw.
fn result_key(winner: Option<Color>) -> &'static str {
    match winner {
        Some(Color::White) => "result_white",
        Some(Color::Black) => "result_black",
        None => "result_draw",
    }
}

/// The message key of an offer, acceptance or decline the game refused.
pub(super) fn game_error_key(e: &GameError) -> &'static str {
    match e {
        GameError::NoOffer => "no_offer",
        GameError::OwnOffer => "own_offer",
        GameError::OfferPending { .. } => "offer_pending",
        GameError::AgreementTooEarly => "too_early",
        GameError::GameOver | GameError::IllegalMove => "offer_not_now",
    }
}

/// A game that has just begun: not by correspondence, and the player has
/// not moved in it (lichess says `hasMoved`; a game that does not say is
/// taken as one).
fn just_begun(info: &GameInfo) -> bool {
    info.has_moved != Some(true) && info.speed != Some(Speed::Correspondence)
}

fn side_of(c: Color) -> Side {
    match c {
        Color::White => Side::White,
        Color::Black => Side::Black,
    }
}

pub(super) fn colour_of(s: Side) -> Color {
    match s {
        Side::White => Color::White,
        Side::Black => Color::Black,
    }
}

/// A move of the server's (UCI, king-to-rook castling too) in `pos`.
fn server_move(pos: &shakmaty::Chess, uci: &str) -> Option<Move> {
    UciMove::from_ascii(uci.as_bytes()).ok()?.to_move(pos).ok()
}

/// A game resumed from its journal (`start`) that was played on lichess:
/// rejoined by its id (`online`).  Its stream is opened again; the
/// `gameFull` it begins with brings what happened meanwhile (each move
/// the opponent made said once, in order; the end, if it came).  The
/// clock is lichess's (`clock`), its times the server's: until lichess
/// tells them, the times `last` journalled, stopped.  The player's side;
/// none for a game not played on lichess.
pub(super) fn rejoin(
    start: &StartInfo,
    last: Option<crate::scoresheet::replay::RestoredClock>,
    game: &Game,
    (online, clock): (
        &mut Option<OnlinePlay>,
        &mut Option<super::clock::ClockPart>,
    ),
    now: Instant,
    voice: &mut Voice,
) -> Option<Color> {
    let (part, me) = OnlinePlay::rejoin(start, game)?;
    *online = Some(part);
    if let Some(part) = super::online_record::clock_of(start.time_control.as_deref())
        .and_then(super::clock::ClockPart::following_lichess)
    {
        *clock = Some(part);
    }
    if let (Some(part), Some(last)) = (clock.as_mut(), last) {
        let ms = |v: i64| Duration::from_millis(u64::try_from(v).unwrap_or(0));
        let times = shakmaty::ByColor {
            white: ms(last.white_ms),
            black: ms(last.black_ms),
        };
        part.clock.follow(times, None, now);
    }
    if let Some(o) = online.as_ref() {
        o.say_rejoining(start, me, voice);
    }
    Some(me)
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod challenge_tests;

#[cfg(test)]
mod clock_tests;
