//! A stand-in for lichess on loopback, as strict as lichess: written from
//! the published API description (lichess-org/api, `doc/specs/`, cited by
//! file beside each behaviour) and, where the description is silent, from
//! lila's own code (cited by file).  Plain HTTP/1.1 on std threads,
//! chunked NDJSON for the streams.
//!
//! What lichess does on its own, it does here: the event stream opens with
//! every game in progress and every challenge open (a correspondence game
//! may be among them), keep-alive lines come on every stream, a challenge
//! goes through the event stream and starts its game under its own id,
//! one not kept alive expires after 20 s, declines carry lower-case keys,
//! a token without the scope gets 403 `Missing scope`, bullet games are
//! not the Board API's, the first move has a deadline and a game whose
//! first move does not come is aborted, seeks expire, moves are checked
//! against the rules (shakmaty) and castling is written king to rook in
//! Chess960 and `fromPosition` games.  What the *people* do (the opponent's
//! replies and answers, other games going on, delays) is the test's to
//! set, in [`State`]; the times lichess keeps (7 s between keep-alive
//! lines, 20 s for a challenge, the first move's limit) can be shortened
//! there too.
#![allow(dead_code)]

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

/// What a challenged player does with the player's challenge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// Accepts it (after [`State::answer_after_ms`]).
    Accept,
    /// Declines it with this `declineReasonKey` (lower case on the wire,
    /// `schemas/ChallengeDeclinedJson.yaml`).
    Decline(String),
    /// Never answers.
    Ignore,
}

/// A challenge the player made.
#[derive(Debug, Clone)]
pub struct Challenge {
    /// Its id, which becomes the game's (`tags/challenges/api-challenge-username.yaml`).
    pub id: String,
    /// Who it is for.
    pub dest: String,
    /// The clock (seconds), or none for days.
    pub clock: Option<(u32, u32)>,
    /// Days per move, for a correspondence challenge.
    pub days: Option<u32>,
    /// The colour asked for.
    pub color: String,
    /// Rated or not.
    pub rated: bool,
    /// `created`, `accepted`, `declined`, `canceled`, `expired`.
    pub status: String,
    /// When it was made.
    pub made: Instant,
    /// Whether a connection holds it open (`keepAliveStream`), and since
    /// when it is not held (a real-time challenge expires 20 s after).
    pub held: bool,
    /// When it was last held (or made).
    pub last_held: Instant,
}

/// The stand-in's state, shared with the test.
pub struct State {
    /// The token it accepts.
    pub token: String,
    /// Its scopes (`tags/oauth/api-token-test.yaml` says them; each
    /// endpoint accepts those its description lists under `security`).
    pub scopes: Vec<String>,
    /// The account's name.
    pub username: String,
    /// Live events of the account's stream, in order: each stream sends
    /// those that come after it opened (what is going on when it opens is
    /// sent first, from the games and challenges).
    pub events: Vec<String>,
    /// The game the tests play (the one a challenge, a seek or the AI
    /// started, or one set by the test).
    pub game: Option<Game>,
    /// Other games of the account in progress (a correspondence game,
    /// another real-time one): `gameStart` for each when the event stream
    /// opens, as lichess does.
    pub others: Vec<Game>,
    /// The challenges the player made.
    pub challenges: Vec<Challenge>,
    /// What challenged players do.
    pub answer: Answer,
    /// How long they take, milliseconds.
    pub answer_after_ms: u64,
    /// A real-time challenge not kept alive expires after this long (20 s
    /// on lichess: `tags/challenges/api-challenge-username.yaml`).
    pub challenge_expiry_ms: u64,
    /// The keep-alive line's period on the event stream and a game's (7 s:
    /// `tags/board/api-stream-event.yaml`) and on a held challenge.
    pub keepalive_ms: u64,
    /// The keep-alive line's period on a seek (lila sends one every 3 s).
    pub seek_keepalive_ms: u64,
    /// A seek with no opponent closes, with no game, after this long (none:
    /// it waits until hector closes it).
    pub seek_expiry_ms: Option<u64>,
    /// The time for each side's first move (lila's `timeForFirstMove`,
    /// 30 s for a rapid game), after which the game is aborted.
    pub first_move_ms: u64,
    /// The opponent's answers to the player's moves, in order.
    pub replies: VecDeque<String>,
    /// Moves refused with 400 (on top of those the rules refuse).
    pub refuse: Vec<String>,
    /// How many of the next requests get 429.
    pub rate_limit: usize,
    /// Drop the game stream (no final chunk) once it has this many moves.
    pub drop_at: Option<usize>,
    /// Every request's first line (without the token: it is a header).
    pub log: Vec<String>,
    /// Every header block and body received (for the token search).
    pub raw: Vec<String>,
    /// A seek finds an opponent of this name (none: the seek waits).
    pub seek_opponent: Option<String>,
    /// Seeks whose connection hector closed while waiting.
    pub seeks_cancelled: usize,
    /// Seeks lichess closed with no game (expired).
    pub seeks_expired: usize,
    /// Lines for the game stream, sent in order as they are added (an
    /// opponent's chat line, `opponentGone`, states).
    pub game_lines: Vec<String>,
    /// The opponent accepts the player's draw offer.
    pub accept_draw: bool,
    /// The opponent's answer to the player's takeback request (none: no
    /// answer).
    pub takeback_answer: Option<bool>,
    /// The `clock_step_ms` of the games challenges make.
    pub clock_step_ms: u64,
    /// Each reply comes in a state of its own, after the player's move was
    /// sent in one, as lichess does.
    pub replies_apart: bool,
    /// The network is away: every connection is closed unanswered.
    pub unreachable: bool,
    /// The held challenge's connection breaks (no final chunk, no `done`):
    /// lichess then lets the challenge expire unheld.
    pub drop_held: bool,
    /// Connections closed so while `unreachable`.
    pub dropped: usize,
    /// Streams and answers gzip-encoded when hector accepts it (as lichess
    /// behind its proxy may).
    pub gzip: bool,
    /// gzip-encoded whatever hector accepts (a proxy on the way that
    /// compresses anyway: issue 31.7's hostile server).
    pub gzip_always: bool,
    /// Broadcast: each PGN pushed, with its round id.
    pub pushes: Vec<(String, String)>,
    /// Broadcast: pushes are answered 503.
    pub push_503: bool,
    /// Broadcast: push connections are closed unanswered.
    pub push_dropped: bool,
    /// Broadcast: pushes that were answered 503 or dropped.
    pub push_failures: usize,
    /// Challenge ids the player cancelled (`/api/challenge/{id}/cancel`).
    pub cancelled: Vec<String>,
    /// A hostile server: `/api/account/playing` answers with this many
    /// bytes of blank space after its JSON (issue 31.5).
    pub pad_replies: usize,
    next_id: u32,
}

impl Default for State {
    fn default() -> Self {
        State {
            token: String::new(),
            scopes: vec!["board:play".into(), "study:write".into()],
            username: String::new(),
            events: Vec::new(),
            game: None,
            others: Vec::new(),
            challenges: Vec::new(),
            answer: Answer::Accept,
            answer_after_ms: 100,
            challenge_expiry_ms: 20_000,
            keepalive_ms: 7_000,
            seek_keepalive_ms: 3_000,
            seek_expiry_ms: None,
            first_move_ms: 30_000,
            replies: VecDeque::new(),
            refuse: Vec::new(),
            rate_limit: 0,
            drop_at: None,
            log: Vec::new(),
            raw: Vec::new(),
            seek_opponent: None,
            seeks_cancelled: 0,
            seeks_expired: 0,
            game_lines: Vec::new(),
            accept_draw: false,
            takeback_answer: None,
            clock_step_ms: 0,
            replies_apart: false,
            unreachable: false,
            drop_held: false,
            dropped: 0,
            gzip: false,
            gzip_always: false,
            pushes: Vec::new(),
            push_503: false,
            push_dropped: false,
            push_failures: 0,
            cancelled: Vec::new(),
            pad_replies: 0,
            next_id: 0,
        }
    }
}

/// A game of the account's.
#[derive(Clone)]
pub struct Game {
    /// The id.
    pub id: String,
    /// Whether the player has White.
    pub white: bool,
    /// The opponent's name (empty for lichess's AI).
    pub opponent: String,
    /// The opponent's rating.
    pub opponent_rating: u32,
    /// lichess's AI level, for a game against it.
    pub ai_level: Option<u8>,
    /// The moves, UCI as lichess writes them.
    pub moves: Vec<String>,
    /// lichess's status.
    pub status: String,
    /// The winner, `white` or `black`.
    pub winner: Option<String>,
    /// Changed at each move or end.
    pub version: u64,
    /// The opponent offers a draw.
    pub draw_offer: bool,
    /// The opponent asks for a takeback.
    pub their_takeback: bool,
    /// The player's takeback request is up.
    pub our_takeback: bool,
    /// Milliseconds each side's clock loses per move it makes.
    pub clock_step_ms: u64,
    /// The opponent's reply, made once the player's move was streamed.
    pub later: Option<String>,
    /// `standard`, `chess960`, `fromPosition`, `crazyhouse`, …
    pub variant: String,
    /// The starting position, for `fromPosition` and Chess960.
    pub initial_fen: Option<String>,
    /// The clock, seconds at the start and per move; none for days.
    pub clock: Option<(u32, u32)>,
    /// Days per move (a correspondence game, no clock).
    pub days: Option<u32>,
    /// Rated or casual.
    pub rated: bool,
    /// `friend` (a challenge), `lobby` (a seek), `ai`.
    pub source: String,
    /// When the last move was made, or the game began.
    pub last_move_at: Instant,
}

impl Default for Game {
    fn default() -> Self {
        Game {
            id: String::new(),
            white: true,
            opponent: String::new(),
            opponent_rating: 1600,
            ai_level: None,
            moves: Vec::new(),
            status: "started".into(),
            winner: None,
            version: 0,
            draw_offer: false,
            their_takeback: false,
            our_takeback: false,
            clock_step_ms: 0,
            later: None,
            variant: "standard".into(),
            initial_fen: None,
            clock: Some((600, 5)),
            days: None,
            rated: false,
            source: "friend".into(),
            last_move_at: Instant::now(),
        }
    }
}

impl Game {
    /// A correspondence game against `opponent`, `days` a move, with these
    /// moves made (the player White).
    pub fn correspondence(id: &str, opponent: &str, days: u32, moves: &[&str]) -> Game {
        Game {
            id: id.into(),
            opponent: opponent.into(),
            moves: moves.iter().map(|m| (*m).to_owned()).collect(),
            clock: None,
            days: Some(days),
            ..Game::default()
        }
    }

    fn castling(&self) -> CastlingMode {
        // lila writes castling king to rook in these games
        // (`schemas/GameStateEvent.yaml`, "King to rook for Chess960-
        // compatible castling notation"; scalachess's UciDump by variant).
        if matches!(self.variant.as_str(), "chess960" | "fromPosition") {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }

    /// The position now (the moves that do not play stop it).
    pub fn position(&self) -> Chess {
        let mut pos: Chess = self
            .initial_fen
            .as_deref()
            .and_then(|f| f.parse::<Fen>().ok())
            .and_then(|f| f.into_position(self.castling()).ok())
            .unwrap_or_default();
        for m in &self.moves {
            match UciMove::from_ascii(m.as_bytes())
                .ok()
                .and_then(|u| u.to_move(&pos).ok())
            {
                Some(mv) => pos.play_unchecked(mv),
                None => break,
            }
        }
        pos
    }

    fn fen(&self) -> String {
        Fen::from_position(&self.position(), EnPassantMode::Legal).to_string()
    }

    fn players_turn(&self) -> bool {
        self.position().turn().is_white() == self.white
    }

    /// Speed as lichess reckons it (`schemas/Speed.yaml`; scalachess's
    /// `Speed`: the start plus forty moves' increment).
    fn speed(&self) -> &'static str {
        match self.clock {
            None => "correspondence",
            Some((l, i)) => match u64::from(l) + 40 * u64::from(i) {
                0..30 => "ultraBullet",
                30..180 => "bullet",
                180..480 => "blitz",
                480..1500 => "rapid",
                _ => "classical",
            },
        }
    }

    /// Whether the Board API plays it: rapid or slower, or blitz for a
    /// challenge or the AI; correspondence always (lila's
    /// `Game.isBoardCompatible`: `Speed(clock) >= Rapid || (hasAi ||
    /// friend || api) && Speed >= Blitz`).
    pub fn board_compatible(&self) -> bool {
        match self.speed() {
            "correspondence" | "rapid" | "classical" => true,
            "blitz" => self.source == "friend" || self.source == "ai",
            _ => false,
        }
    }

    /// Before each side's first move, on a clock, against a person: lila's
    /// `Game.expirable`; `expiration` is then in every `gameState`
    /// (`schemas/GameStateEvent.yaml`).
    fn expirable(&self) -> bool {
        self.status == "started"
            && self.moves.len() < 2
            && self.ai_level.is_none()
            && self.clock.is_some()
    }

    fn over(&self) -> bool {
        !matches!(self.status.as_str(), "created" | "started")
    }
}

/// The running stand-in.
pub struct StandIn {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    /// Its state.
    pub state: Arc<Mutex<State>>,
}

impl StandIn {
    /// Starts it on a free loopback port; it ends with the test process.
    pub fn start(token: &str, username: &str) -> StandIn {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        let url = format!("http://{}", listener.local_addr().expect("address"));
        let state = Arc::new(Mutex::new(State {
            token: token.to_owned(),
            username: username.to_owned(),
            ..State::default()
        }));
        let s = state.clone();
        std::thread::spawn(move || {
            for conn in listener.incoming().flatten() {
                let s = s.clone();
                std::thread::spawn(move || {
                    let _ = serve(conn, &s);
                });
            }
        });
        let s = state.clone();
        // lichess's own clock: challenges answered or expired, first
        // moves not made in time. Bounded: a test lasts less than minutes.
        std::thread::spawn(move || {
            let t = Instant::now();
            while t.elapsed() < Duration::from_secs(600) {
                std::thread::sleep(Duration::from_millis(20));
                tick(&mut s.lock().unwrap());
            }
        });
        StandIn { url, state }
    }

    /// `hector play --lichess ARGS` against this stand-in with `token`
    /// in the environment, in English, moves in the language's words.
    pub fn play(&self, home: &std::path::Path, token: &str, args: &[&str]) -> crate::util::Hector {
        let mut all = vec![
            "--lichess",
            "--lichess-url",
            self.url.as_str(),
            "--lang",
            "en",
            "--moves",
            "language",
        ];
        all.extend_from_slice(args);
        crate::util::Hector::play_with(
            home,
            &all,
            &[("LICHESS_TOKEN", std::path::Path::new(token))],
        )
    }

    /// The POST requests it was sent, in order (`POST /api/…`).
    pub fn posts(&self) -> Vec<String> {
        self.state
            .lock()
            .unwrap()
            .log
            .iter()
            .filter(|l| l.starts_with("POST"))
            .cloned()
            .collect()
    }

    /// Waits (at most 10 s) until `f` holds of the state.
    pub fn wait_for(&self, what: &str, f: impl Fn(&State) -> bool) {
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(10) {
            if f(&self.state.lock().unwrap()) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("the stand-in never saw: {what}");
    }
}

/// What lichess does with time: challenges answered or expired, games
/// whose first move did not come aborted.
fn tick(s: &mut State) {
    let now = Instant::now();
    let me = s.username.clone();
    let mut started = Vec::new();
    let mut events = Vec::new();
    for c in s.challenges.iter_mut().filter(|c| c.status == "created") {
        // Not kept alive: a real-time challenge expires after 20 s, with no
        // event (`tags/challenges/api-challenge-username.yaml`).
        if c.clock.is_some()
            && !c.held
            && now.duration_since(c.last_held) >= Duration::from_millis(s.challenge_expiry_ms)
        {
            c.status = "expired".into();
            continue;
        }
        if now.duration_since(c.made) < Duration::from_millis(s.answer_after_ms) {
            continue;
        }
        match &s.answer {
            Answer::Ignore => {}
            Answer::Decline(key) => {
                c.status = "declined".into();
                let mut j = challenge_json(c, &me, "declined");
                j["declineReason"] = json!(decline_text(key));
                j["declineReasonKey"] = json!(key);
                events.push(json!({"type": "challengeDeclined", "challenge": j}).to_string());
            }
            Answer::Accept => {
                c.status = "accepted".into();
                // The game's id is the challenge's.
                let white = match c.color.as_str() {
                    "white" => true,
                    "black" => false,
                    _ => c.id.len() % 2 == 0,
                };
                started.push(Game {
                    id: c.id.clone(),
                    white,
                    opponent: c.dest.clone(),
                    clock: c.clock,
                    days: c.days,
                    rated: c.rated,
                    clock_step_ms: s.clock_step_ms,
                    source: "friend".into(),
                    ..Game::default()
                });
            }
        }
    }
    s.events.extend(events);
    for g in started {
        let line = game_start(&g);
        s.events.push(line);
        s.game = Some(g);
    }
    // The first move's deadline passed: the game is over, `noStart`, and
    // the player who did not move is warned in the chat by "lichess"
    // (lila's `PlaybanFeedback.noStart`).
    let limit = Duration::from_millis(s.first_move_ms);
    let mut warn = None;
    for g in s.game.iter_mut().chain(s.others.iter_mut()) {
        if g.expirable() && now.duration_since(g.last_move_at) >= limit {
            let white_to_move = g.position().turn().is_white();
            g.status = "noStart".into();
            g.winner = Some(if white_to_move { "black" } else { "white" }.into());
            g.version += 1;
            if white_to_move == g.white {
                warn = Some(format!(
                    "Warning, {me}. Failing to start games will result in a temporary ban."
                ));
            }
        }
    }
    if let Some(text) = warn {
        s.game_lines.push(
            json!({"type": "chatLine", "room": "player", "username": "lichess", "text": text})
                .to_string(),
        );
    }
}

/// lila's English for a decline (`declineReason`, translated for the
/// challenger on lichess; here in English).
fn decline_text(key: &str) -> &'static str {
    match key {
        "later" => "I'm not accepting challenges at the moment, please try again later.",
        "toofast" => {
            "This time control is too fast for me, please challenge again with a slower game."
        }
        "tooslow" => {
            "This time control is too slow for me, please challenge again with a faster game."
        }
        "timecontrol" => "I'm not accepting challenges with this time control.",
        "rated" => "Please send me a rated challenge instead.",
        "casual" => "Please send me a casual challenge instead.",
        "standard" => "I'm not accepting variant challenges right now.",
        "variant" => "I'm not willing to play this variant right now.",
        "nobot" => "I'm not accepting challenges from bots.",
        "onlybot" => "I'm only accepting challenges from bots.",
        _ => "I'm not accepting challenges at the moment.",
    }
}

/// `schemas/ChallengeJson.yaml` (no `direction` on the event stream, as in
/// `examples/stream-challenge.json.yaml`).
fn challenge_json(c: &Challenge, me: &str, status: &str) -> Value {
    let time_control = match (c.clock, c.days) {
        (Some((limit, increment)), _) => {
            json!({"type": "clock", "limit": limit, "increment": increment, "show": format!("{}+{increment}", limit / 60)})
        }
        (None, Some(d)) => json!({"type": "correspondence", "daysPerTurn": d}),
        (None, None) => json!({"type": "unlimited"}),
    };
    let speed = Game {
        clock: c.clock,
        ..Game::default()
    }
    .speed();
    json!({
        "id": c.id,
        "url": format!("https://lichess.org/{}", c.id),
        "status": status,
        "challenger": {"id": me.to_lowercase(), "name": me, "rating": 1500},
        "destUser": {"id": c.dest.to_lowercase(), "name": c.dest, "rating": 1600},
        "variant": {"key": "standard", "name": "Standard", "short": "Std"},
        "rated": c.rated,
        "speed": speed,
        "timeControl": time_control,
        "color": c.color,
        "finalColor": "white",
        "perf": {"icon": "", "name": "Rapid"},
    })
}

/// `gameStart` (`schemas/GameEventInfo.yaml`, `examples/stream-gameStart.json.yaml`,
/// `…-ai.json.yaml`): `compat.board` false for a game the Board API does
/// not play.
fn game_start(g: &Game) -> String {
    let opponent = match g.ai_level {
        Some(level) => {
            json!({"id": null, "username": format!("Stockfish level {level}"), "ai": level})
        }
        None => {
            json!({"id": g.opponent.to_lowercase(), "username": g.opponent, "rating": g.opponent_rating})
        }
    };
    let seconds_left = match (g.clock, g.days) {
        (Some(_), _) => {
            let (w, b) = clocks(g);
            (if g.white { w } else { b }) / 1000
        }
        (None, Some(d)) => u64::from(d) * 86_400,
        (None, None) => 0,
    };
    let speed = g.speed();
    json!({
        "type": "gameStart",
        "game": {
            "fullId": format!("{}abcd", g.id),
            "gameId": g.id,
            "fen": g.fen(),
            "color": if g.white { "white" } else { "black" },
            "lastMove": g.moves.last().cloned().unwrap_or_default(),
            "source": g.source,
            "status": {"id": 20, "name": "started"},
            "variant": {"key": g.variant, "name": variant_name(&g.variant)},
            "speed": speed,
            "perf": speed,
            "rated": g.rated,
            "hasMoved": !g.moves.is_empty(),
            "opponent": opponent,
            "isMyTurn": g.players_turn(),
            "secondsLeft": seconds_left,
            "compat": {"bot": g.source != "lobby", "board": g.board_compatible()},
            "id": g.id,
        }
    })
    .to_string()
}

fn variant_name(key: &str) -> &str {
    match key {
        "standard" => "Standard",
        "chess960" => "Chess960",
        "fromPosition" => "From Position",
        "crazyhouse" => "Crazyhouse",
        "atomic" => "Atomic",
        other => other,
    }
}

/// A player of `gameFull` (lila's `BotJsonView.playerJson`): the AI has
/// its `aiLevel` and no id or name.
fn player(name: &str, rating: u32, ai: Option<u8>) -> Value {
    match ai {
        Some(level) => json!({"aiLevel": level}),
        None => json!({"id": name.to_lowercase(), "name": name, "title": null, "rating": rating}),
    }
}

/// `gameFull` (`schemas/GameFullEvent.yaml`; lila's `BotJsonView`): no
/// `clock` and a `daysPerTurn` for a correspondence game.
fn game_full(g: &Game, me: &str, first_move_ms: u64) -> String {
    let (w, b) = if g.white {
        (
            player(me, 1500, None),
            player(&g.opponent, g.opponent_rating, g.ai_level),
        )
    } else {
        (
            player(&g.opponent, g.opponent_rating, g.ai_level),
            player(me, 1500, None),
        )
    };
    let mut j = json!({
        "type": "gameFull",
        "id": g.id,
        "variant": {"key": g.variant, "name": variant_name(&g.variant), "short": "Std"},
        "speed": g.speed(),
        "perf": {"name": g.speed()},
        "rated": g.rated,
        "createdAt": 1,
        "white": w,
        "black": b,
        "initialFen": g.initial_fen.clone().unwrap_or_else(|| "startpos".into()),
        "state": game_state_value(g, first_move_ms),
    });
    if let Some((limit, increment)) = g.clock {
        j["clock"] =
            json!({"initial": u64::from(limit) * 1000, "increment": u64::from(increment) * 1000});
    }
    if let Some(d) = g.days {
        j["daysPerTurn"] = json!(d);
    }
    j.to_string()
}

fn game_state(g: &Game, first_move_ms: u64) -> String {
    game_state_value(g, first_move_ms).to_string()
}

/// `gameState` (`schemas/GameStateEvent.yaml`; lila's `BotJsonView.gameState`):
/// the times are each side's remaining milliseconds (a correspondence
/// game's are the days left to move); `expiration` before both have moved.
fn game_state_value(g: &Game, first_move_ms: u64) -> Value {
    let (wdraw, bdraw) = if g.white {
        (false, g.draw_offer)
    } else {
        (g.draw_offer, false)
    };
    let (wtb, btb) = if g.white {
        (g.our_takeback, g.their_takeback)
    } else {
        (g.their_takeback, g.our_takeback)
    };
    let (wtime, btime) = clocks(g);
    let inc = g.clock.map_or(0, |(_, i)| u64::from(i) * 1000);
    let mut j = json!({
        "type": "gameState",
        "moves": g.moves.join(" "),
        "wtime": wtime,
        "btime": btime,
        "winc": inc,
        "binc": inc,
        "status": g.status,
        "wdraw": wdraw,
        "bdraw": bdraw,
        "wtakeback": wtb,
        "btakeback": btb,
    });
    if let Some(w) = &g.winner {
        j["winner"] = json!(w);
    }
    if g.expirable() {
        let idle = u64::try_from(g.last_move_at.elapsed().as_millis()).unwrap_or(u64::MAX);
        j["expiration"] = json!({"idleMillis": idle, "millisToMove": first_move_ms});
    }
    j
}

/// Both clocks: the start, less `clock_step_ms` per move of each side; a
/// correspondence game's days in milliseconds.
fn clocks(g: &Game) -> (u64, u64) {
    let Some((limit, _)) = g.clock else {
        let d = u64::from(g.days.unwrap_or(0)) * 86_400_000;
        return (d, d);
    };
    let start = u64::from(limit) * 1000;
    let white_moves = g.moves.len().div_ceil(2) as u64;
    let black_moves = (g.moves.len() / 2) as u64;
    (
        start.saturating_sub(white_moves * g.clock_step_ms),
        start.saturating_sub(black_moves * g.clock_step_ms),
    )
}

/// The scopes an endpoint accepts (its `security` in the description);
/// empty: any token.
fn accepted_scopes(method: &str, segs: &[&str]) -> &'static [&'static str] {
    match (method, segs) {
        // tags/account/api-account.yaml, tags/games/api-account-playing.yaml
        (_, ["api", "account", ..]) => &[],
        // tags/board/api-stream-event.yaml
        (_, ["api", "stream", "event"]) => &["challenge:read", "bot:play", "board:play"],
        // tags/challenges/*
        (_, ["api", "challenge", ..]) => &["challenge:write", "bot:play", "board:play"],
        // tags/broadcasts: pushing a round's PGN
        (_, ["api", "broadcast", ..]) => &["study:write"],
        // tags/board/*
        _ => &["board:play"],
    }
}

fn serve(mut conn: TcpStream, state: &Arc<Mutex<State>>) -> std::io::Result<()> {
    conn.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(conn.try_clone()?);
    loop {
        let mut first = String::new();
        if reader.read_line(&mut first)? == 0 {
            return Ok(());
        }
        let first = first.trim_end().to_owned();
        {
            // The network away: every request's connection closed unanswered.
            let mut s = state.lock().unwrap();
            if s.unreachable {
                s.dropped += 1;
                drop(s);
                return conn.shutdown(std::net::Shutdown::Both);
            }
        }
        let mut headers = String::new();
        let mut length = 0usize;
        loop {
            let mut h = String::new();
            if reader.read_line(&mut h)? == 0 {
                return Ok(());
            }
            if h == "\r\n" {
                break;
            }
            if let Some(v) = h.to_ascii_lowercase().strip_prefix("content-length:") {
                length = v.trim().parse().unwrap_or(0);
            }
            headers.push_str(&h);
        }
        let mut body = vec![0; length.min(1 << 16)];
        reader.read_exact(&mut body)?;
        let body = String::from_utf8_lossy(&body).into_owned();
        let mut parts = first.split(' ');
        let method = parts.next().unwrap_or("").to_owned();
        let path = parts.next().unwrap_or("").to_owned();
        let gzip = {
            let s = state.lock().unwrap();
            s.gzip_always
                || s.gzip
                    && headers
                        .to_ascii_lowercase()
                        .contains("accept-encoding: gzip")
        };
        let mut out = Out {
            conn: &mut conn,
            gzip,
        };
        let token = {
            let mut s = state.lock().unwrap();
            s.log.push(format!("{method} {path}"));
            s.raw.push(format!("{first}\n{headers}\n{body}"));
            headers.lines().find_map(|l| {
                let l = l.trim();
                l.to_ascii_lowercase()
                    .starts_with("authorization: bearer ")
                    .then(|| l["authorization: bearer ".len()..].to_owned())
            })
        };
        let segs: Vec<&str> = path.split('?').next().unwrap_or("").split('/').collect();
        let segs = &segs[1..];
        let query = path.split_once('?').map_or("", |(_, q)| q).to_owned();
        // `POST /api/token/test` needs no token (`security: []`): the
        // tokens are the body, comma-separated; each is described, or null
        // (tags/oauth/api-token-test.yaml).
        if method == "POST" && segs == ["api", "token", "test"] {
            let s = state.lock().unwrap();
            let mut answer = serde_json::Map::new();
            for t in body.split(',').map(str::trim).filter(|t| !t.is_empty()) {
                let v = if t == s.token {
                    json!({"userId": s.username.to_lowercase(), "scopes": s.scopes.join(","), "expires": null})
                } else {
                    Value::Null
                };
                answer.insert(t.to_owned(), v);
            }
            drop(s);
            out.respond(200, &Value::Object(answer).to_string(), &[])?;
            continue;
        }
        if segs.first() == Some(&"api") && segs.get(1) == Some(&"broadcast") {
            let mut s = state.lock().unwrap();
            if s.push_dropped || s.push_503 {
                s.push_failures += 1;
                if s.push_dropped {
                    drop(s);
                    return out.conn.shutdown(std::net::Shutdown::Both);
                }
                drop(s);
                out.respond(503, "Service Unavailable", &[])?;
                continue;
            }
        }
        // A token lichess does not know: 401 (lila's `OAuthServer.NoSuchToken`).
        let (known, scopes) = {
            let s = state.lock().unwrap();
            (
                token.as_deref() == Some(s.token.as_str()),
                s.scopes.join(","),
            )
        };
        if !known {
            out.respond(401, r#"{"error":"No such token"}"#, &[])?;
            continue;
        }
        // A token without the scope: 403 "Missing scope", with the token's
        // scopes and those accepted in headers (lila's
        // `LilaController.handleScopedFail`, `OAuthServer.responseHeaders`).
        let accepted = accepted_scopes(&method, segs);
        let scope_headers = [
            ("X-OAuth-Scopes", scopes.clone()),
            ("X-Accepted-OAuth-Scopes", accepted.join(",")),
        ];
        if !accepted.is_empty() && !accepted.iter().any(|a| scopes.split(',').any(|s| s == *a)) {
            out.respond(403, r#"{"error":"Missing scope"}"#, &scope_headers)?;
            continue;
        }
        {
            let mut s = state.lock().unwrap();
            if s.rate_limit > 0 {
                s.rate_limit -= 1;
                drop(s);
                out.respond(429, r#"{"error":"Too many requests"}"#, &[])?;
                continue;
            }
        }
        let form = |key: &str| -> Option<String> {
            body.split('&').find_map(|kv| {
                let (k, v) = kv.split_once('=')?;
                (k == key).then(|| v.replace('+', " ").replace("%2B", "+"))
            })
        };
        match (method.as_str(), segs) {
            ("GET", ["api", "account"]) => {
                let name = state.lock().unwrap().username.clone();
                out.respond(
                    200,
                    &json!({"id": name.to_lowercase(), "username": name}).to_string(),
                    &scope_headers,
                )?;
            }
            // tags/games/api-account-playing.yaml: the games in progress,
            // the most urgent first.
            ("GET", ["api", "account", "playing"]) => {
                let s = state.lock().unwrap();
                let nb: usize = query
                    .split('&')
                    .find_map(|kv| kv.strip_prefix("nb="))
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(9)
                    .clamp(1, 50);
                let mut games: Vec<Value> = s
                    .game
                    .iter()
                    .chain(&s.others)
                    .filter(|g| !g.over())
                    .map(|g| {
                        let start: Value = serde_json::from_str(&game_start(g)).unwrap();
                        start["game"].clone()
                    })
                    .collect();
                games.sort_by_key(|g| {
                    (
                        !g["isMyTurn"].as_bool().unwrap_or(false),
                        g["secondsLeft"].as_u64().unwrap_or(0),
                    )
                });
                games.truncate(nb);
                let mine = games.iter().filter(|g| g["isMyTurn"] == true).count();
                let pad = s.pad_replies;
                drop(s);
                let mut answer = json!({"nbMyTurn": mine, "nowPlaying": games}).to_string();
                if pad > 0 {
                    // Sent as it is made: the stand-in itself stays small.
                    write!(
                        out.conn,
                        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{answer}",
                        answer.len() + pad
                    )?;
                    let blank = vec![b' '; 1 << 16];
                    let mut left = pad;
                    while left > 0 {
                        let n = left.min(blank.len());
                        if out.conn.write_all(&blank[..n]).is_err() {
                            return Ok(());
                        }
                        left -= n;
                    }
                    answer.clear();
                    continue;
                }
                out.respond(200, &answer, &scope_headers)?;
            }
            ("GET", ["api", "stream", "event"]) => return event_stream(out, state),
            ("GET", ["api", "board", "game", "stream", id]) => {
                let id = (*id).to_owned();
                return game_stream(out, state, &id);
            }
            ("POST", ["api", "board", "game", id, "move", uci]) => {
                let (id, uci) = ((*id).to_owned(), (*uci).to_owned());
                let (status, answer) = play_move(state, &id, &uci);
                out.respond(status, &answer, &scope_headers)?;
            }
            ("POST", ["api", "board", "game", _, what, rest @ ..]) => {
                let what = (*what).to_owned();
                let yes = rest.first().is_none_or(|a| *a == "yes");
                let (status, answer) = board_action(state, &what, yes, &body);
                out.respond(status, &answer, &scope_headers)?;
            }
            ("POST", ["api", "board", "seek"]) => return seek(out, state, &body),
            // tags/challenges/api-challenge-ai.yaml: the game starts at once.
            ("POST", ["api", "challenge", "ai"]) => {
                let level: u8 = form("level").and_then(|l| l.parse().ok()).unwrap_or(0);
                let clock = clock_of(&form);
                let days = form("days").and_then(|d| d.parse().ok());
                if !(1..=8).contains(&level) || clock_refused(clock, days) {
                    out.respond(400, r#"{"error":{"level":["Invalid value"]}}"#, &[])?;
                    continue;
                }
                let mut s = state.lock().unwrap();
                let id = fresh_id(&mut s, "aigam");
                let white = form("color").as_deref() != Some("black");
                let g = Game {
                    id: id.clone(),
                    white,
                    ai_level: Some(level),
                    clock,
                    days,
                    source: "ai".into(),
                    ..Game::default()
                };
                let line = game_start(&g);
                let answer = json!({"id": id, "variant": {"key": "standard", "name": "Standard", "short": "Std"}, "speed": g.speed(), "perf": g.speed(), "rated": false, "source": "ai", "fen": g.fen(), "turns": 0, "status": {"id": 20, "name": "started"}, "player": if white {"white"} else {"black"}, "fullId": format!("{id}abcd")});
                s.events.push(line);
                s.game = Some(g);
                drop(s);
                out.respond(201, &answer.to_string(), &scope_headers)?;
            }
            // tags/challenges/api-challenge-challengeId-cancel.yaml: a
            // challenge withdrawn, or its game aborted before a move.
            ("POST", ["api", "challenge", id, "cancel"]) => {
                let id = (*id).to_owned();
                let mut s = state.lock().unwrap();
                s.cancelled.push(id.clone());
                let mut found = false;
                for c in s.challenges.iter_mut().filter(|c| c.id == id) {
                    found = true;
                    if c.status == "created" {
                        c.status = "canceled".into();
                    }
                }
                if let Some(g) = s
                    .game
                    .as_mut()
                    .filter(|g| g.id == id && g.status == "started")
                {
                    found = true;
                    if g.moves.len() < 2 {
                        g.status = "aborted".into();
                        g.version += 1;
                    }
                }
                drop(s);
                if found {
                    out.respond(200, r#"{"ok":true}"#, &scope_headers)?;
                } else {
                    out.respond(404, r#"{"error":"Not found"}"#, &scope_headers)?;
                }
            }
            ("POST", ["api", "challenge", id, "accept" | "decline"]) => {
                let id = (*id).to_owned();
                let found = state.lock().unwrap().challenges.iter().any(|c| c.id == id);
                if found {
                    out.respond(200, r#"{"ok":true}"#, &scope_headers)?;
                } else {
                    out.respond(404, r#"{"error":"Not found"}"#, &scope_headers)?;
                }
            }
            ("POST", ["api", "challenge", user]) => {
                let user = (*user).to_owned();
                let clock = clock_of(&form);
                let days = form("days").and_then(|d| d.parse().ok());
                if clock_refused(clock, days) {
                    out.respond(
                        400,
                        r#"{"error":{"clock":["Invalid clock"]}}"#,
                        &scope_headers,
                    )?;
                    continue;
                }
                let keep_alive = form("keepAliveStream").as_deref() == Some("true");
                let mut s = state.lock().unwrap();
                let id = fresh_id(&mut s, "stand");
                let now = Instant::now();
                let c = Challenge {
                    id: id.clone(),
                    dest: user,
                    clock,
                    days,
                    color: form("color").unwrap_or_else(|| "random".into()),
                    rated: form("rated").as_deref() == Some("true"),
                    status: "created".into(),
                    made: now,
                    held: keep_alive,
                    last_held: now,
                };
                let me = s.username.clone();
                let mut made = challenge_json(&c, &me, "created");
                // "A player sends you a challenge or you challenge someone"
                // (tags/board/api-stream-event.yaml).
                s.events.push(json!({"type": "challenge", "challenge": made.clone(), "compat": {"bot": false, "board": true}}).to_string());
                s.challenges.push(c);
                drop(s);
                made["direction"] = json!("out");
                if keep_alive {
                    return held_challenge(out, state, &id, &made.to_string());
                }
                out.respond(200, &made.to_string(), &scope_headers)?;
            }
            // The broadcast push: the PGN is the body.
            ("POST", ["api", "broadcast", "round", round, "push"]) if round.len() == 8 => {
                let round = (*round).to_owned();
                let plain = headers
                    .to_ascii_lowercase()
                    .contains("content-type: text/plain");
                let moves = body.matches('.').count();
                state.lock().unwrap().pushes.push((round, body.clone()));
                if plain {
                    out.respond(
                        200,
                        &format!(r#"{{"games":[{{"tags":{{}},"moves":{moves}}}]}}"#),
                        &[],
                    )?;
                } else {
                    out.respond(400, r#"{"error":"Expected text/plain"}"#, &[])?;
                }
            }
            _ => out.respond(404, r#"{"error":"Not found"}"#, &[])?,
        }
    }
}

/// The eight-character id of a new challenge or game: `stand1n0` first
/// (the game ids the tests have always seen), then `stand1n1`, ….
fn fresh_id(s: &mut State, stem: &str) -> String {
    let n = s.next_id;
    s.next_id += 1;
    let id = format!("{stem}1n{n}");
    id.chars().take(8).collect()
}

/// The clock a form asks for, when it does.
fn clock_of(form: &dyn Fn(&str) -> Option<String>) -> Option<(u32, u32)> {
    let limit = form("clock.limit")?.parse().ok()?;
    let increment = form("clock.increment")?.parse().ok()?;
    Some((limit, increment))
}

/// What lichess refuses in a challenge's form: `clock.limit` other than 0,
/// 15, 30, 45, 90 or a multiple of 60 up to 10,800; an increment over 60;
/// days other than 1, 2, 3, 5, 7, 10, 14
/// (tags/challenges/api-challenge-username.yaml).
fn clock_refused(clock: Option<(u32, u32)>, days: Option<u32>) -> bool {
    match (clock, days) {
        (Some((l, i)), None) => {
            !(matches!(l, 0 | 15 | 30 | 45 | 90) || l % 60 == 0)
                || l > 10_800
                || i > 60
                || l + i == 0
        }
        (None, Some(d)) => ![1, 2, 3, 5, 7, 10, 14].contains(&d),
        (None, None) => false,
        (Some(_), Some(_)) => true,
    }
}

/// `POST /api/board/game/{id}/move/{uci}`: the move checked as lichess
/// checks it (lila's `PlayApi`: "No such game", "Not your turn, or game
/// already over", a move the rules refuse), then made; the opponent's
/// answer after it.
fn play_move(state: &Arc<Mutex<State>>, id: &str, uci: &str) -> (u16, String) {
    let mut s = state.lock().unwrap();
    if s.refuse.iter().any(|r| r == uci) {
        return (
            400,
            r#"{"error":"Piece does not exist on that square"}"#.into(),
        );
    }
    let reply = s.replies.front().cloned();
    let apart = s.replies_apart;
    // Any of the account's games (a correspondence game in progress too).
    let st = &mut *s;
    let Some(g) = st
        .game
        .iter_mut()
        .chain(st.others.iter_mut())
        .find(|g| g.id == id)
    else {
        return (404, r#"{"error":"No such game"}"#.into());
    };
    if !g.board_compatible() {
        return (
            400,
            r#"{"error":"This game cannot be played with the Board API."}"#.into(),
        );
    }
    if g.over() || !g.players_turn() {
        return (
            400,
            r#"{"error":"Not your turn, or game already over"}"#.into(),
        );
    }
    let pos = g.position();
    let Some(mv) = UciMove::from_ascii(uci.as_bytes())
        .ok()
        .and_then(|u| u.to_move(&pos).ok())
    else {
        return (
            400,
            format!(
                r#"{{"error":"Piece on {} cannot move to {}"}}"#,
                &uci[..2.min(uci.len())],
                uci.get(2..4).unwrap_or("")
            ),
        );
    };
    // Written as lichess writes it in this game (king to rook in Chess960
    // and fromPosition games).
    g.moves.push(mv.to_uci(g.castling()).to_string());
    g.last_move_at = Instant::now();
    g.version += 1;
    let over_now = g.position().is_game_over();
    if over_now {
        end_by_rules(g);
    }
    if !over_now && let Some(r) = reply {
        if apart {
            g.later = Some(r);
        } else {
            apply_reply(g, &r);
        }
        st.replies.pop_front();
    }
    (200, r#"{"ok":true}"#.into())
}

/// The opponent's move, in lichess's notation for the game.
fn apply_reply(g: &mut Game, r: &str) {
    let pos = g.position();
    let written = UciMove::from_ascii(r.as_bytes())
        .ok()
        .and_then(|u| u.to_move(&pos).ok())
        .map_or_else(|| r.to_owned(), |m| m.to_uci(g.castling()).to_string());
    g.moves.push(written);
    g.last_move_at = Instant::now();
    g.version += 1;
    if g.position().is_game_over() {
        end_by_rules(g);
    }
}

/// Mate or stalemate, as lichess ends a game.
fn end_by_rules(g: &mut Game) {
    let pos = g.position();
    if pos.is_checkmate() {
        g.status = "mate".into();
        g.winner = Some(
            if pos.turn().is_white() {
                "black"
            } else {
                "white"
            }
            .into(),
        );
    } else if pos.is_stalemate() {
        g.status = "stalemate".into();
    } else if pos.is_insufficient_material() {
        g.status = "draw".into();
    }
}

/// The Board API's other requests on a game: resign, abort, draw,
/// claim-victory, takeback, chat.
fn board_action(state: &Arc<Mutex<State>>, what: &str, yes: bool, body: &str) -> (u16, String) {
    let mut s = state.lock().unwrap();
    let white = s.game.as_ref().is_some_and(|g| g.white);
    let me = s.username.clone();
    let accept_draw = s.accept_draw;
    let takeback_answer = s.takeback_answer;
    let first_move_ms = s.first_move_ms;
    let mut lines = Vec::new();
    let mut answer = (200, r#"{"ok":true}"#.to_owned());
    if let Some(g) = s.game.as_mut() {
        let ours_last = |g: &Game| (g.moves.len() % 2 == 1) == g.white;
        match what {
            "resign" => {
                g.status = "resign".into();
                g.winner = Some(if white { "black" } else { "white" }.into());
            }
            // lila: abortable until both sides have moved.
            "abort" if g.moves.len() >= 2 => {
                answer = (
                    400,
                    r#"{"error":"This game can no longer be aborted."}"#.into(),
                );
            }
            "abort" => g.status = "aborted".into(),
            "draw" if yes && (g.draw_offer || accept_draw) => g.status = "draw".into(),
            "draw" if !yes => g.draw_offer = false,
            "claim-victory" => {
                g.status = "timeout".into();
                g.winner = Some(if white { "white" } else { "black" }.into());
            }
            // The opponent's request answered: yes takes back to their turn.
            "takeback" if g.their_takeback => {
                g.their_takeback = false;
                if yes {
                    let n = if ours_last(g) { 2 } else { 1 };
                    let keep = g.moves.len().saturating_sub(n);
                    g.moves.truncate(keep);
                }
            }
            // Ours: the opponent's answer (yes: back to our turn).
            "takeback" if yes => match takeback_answer {
                Some(true) => {
                    let n = if ours_last(g) { 1 } else { 2 };
                    let keep = g.moves.len().saturating_sub(n);
                    g.moves.truncate(keep);
                }
                Some(false) => {
                    g.our_takeback = true;
                    lines.push(game_state(g, first_move_ms));
                    g.our_takeback = false;
                }
                None => g.our_takeback = true,
            },
            "chat" => {
                // lichess sends the player's own line back.
                let text = body
                    .split('&')
                    .find_map(|kv| kv.strip_prefix("text="))
                    .unwrap_or("")
                    .replace('+', " ");
                lines.push(format!(
                    r#"{{"type":"chatLine","room":"player","username":"{me}","text":"{text}"}}"#
                ));
            }
            _ => {}
        }
        g.version += 1;
    } else {
        answer = (404, r#"{"error":"No such game"}"#.into());
    }
    s.game_lines.extend(lines);
    answer
}

/// Where a response goes: plainly, or gzip-encoded when the stand-in is
/// set to and hector accepts it.
struct Out<'a> {
    conn: &'a mut TcpStream,
    gzip: bool,
}

impl Out<'_> {
    fn respond(
        &mut self,
        status: u16,
        body: &str,
        headers: &[(&str, String)],
    ) -> std::io::Result<()> {
        let extra: String = headers
            .iter()
            .map(|(k, v)| format!("{k}: {v}\r\n"))
            .collect();
        let (bytes, encoding) = if self.gzip {
            (gz(body.as_bytes()), "content-encoding: gzip\r\n")
        } else {
            (body.as_bytes().to_vec(), "")
        };
        write!(
            self.conn,
            "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\n{extra}{encoding}content-length: {}\r\n\r\n",
            bytes.len()
        )?;
        self.conn.write_all(&bytes)?;
        self.conn.flush()
    }

    fn head(&mut self) -> std::io::Result<Stream<'_>> {
        let encoding = if self.gzip {
            "content-encoding: gzip\r\n"
        } else {
            ""
        };
        write!(
            self.conn,
            "HTTP/1.1 200 OK\r\ncontent-type: application/x-ndjson\r\n{encoding}transfer-encoding: chunked\r\n\r\n"
        )?;
        self.conn.flush()?;
        let encoder = self
            .gzip
            .then(|| flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default()));
        Ok(Stream {
            conn: self.conn,
            encoder,
        })
    }
}

fn gz(bytes: &[u8]) -> Vec<u8> {
    let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let _ = z.write_all(bytes);
    z.finish().unwrap_or_default()
}

/// An NDJSON stream's body, in chunks (gzip-encoded and flushed line by
/// line when so set).
struct Stream<'a> {
    conn: &'a mut TcpStream,
    encoder: Option<flate2::write::GzEncoder<Vec<u8>>>,
}

impl Stream<'_> {
    fn line(&mut self, line: &str) -> std::io::Result<()> {
        let line = format!("{line}\n");
        let bytes = match &mut self.encoder {
            Some(z) => {
                z.write_all(line.as_bytes())?;
                z.flush()?;
                std::mem::take(z.get_mut())
            }
            None => line.into_bytes(),
        };
        if bytes.is_empty() {
            return Ok(());
        }
        write!(self.conn, "{:x}\r\n", bytes.len())?;
        self.conn.write_all(&bytes)?;
        write!(self.conn, "\r\n")?;
        self.conn.flush()
    }

    fn end(mut self) -> std::io::Result<()> {
        if let Some(z) = self.encoder.take() {
            let rest = z.finish()?;
            if !rest.is_empty() {
                write!(self.conn, "{:x}\r\n", rest.len())?;
                self.conn.write_all(&rest)?;
                write!(self.conn, "\r\n")?;
            }
        }
        write!(self.conn, "0\r\n\r\n")?;
        self.conn.flush()
    }

    /// Whether hector closed its end (read without waiting long).
    fn closed(&mut self) -> bool {
        let _ = self.conn.set_read_timeout(Some(Duration::from_millis(1)));
        let mut buf = [0u8; 64];
        let gone = match self.conn.read(&mut buf) {
            Ok(0) => true,
            Ok(_) => false,
            Err(e) => !matches!(
                e.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ),
        };
        let _ = self.conn.set_read_timeout(Some(Duration::from_secs(10)));
        gone
    }
}

/// `GET /api/stream/event` (tags/board/api-stream-event.yaml): "When the
/// stream opens, all current challenges and games are sent", then each
/// event as it comes, and an empty line every 7 seconds.
fn event_stream(mut out: Out, state: &Arc<Mutex<State>>) -> std::io::Result<()> {
    let mut stream = out.head()?;
    let (opening, mut sent, every) = {
        let s = state.lock().unwrap();
        let me = s.username.clone();
        let mut lines: Vec<String> = s
            .game
            .iter()
            .chain(&s.others)
            .filter(|g| !g.over())
            .map(game_start)
            .collect();
        lines.extend(s.challenges.iter().filter(|c| c.status == "created").map(|c| {
            json!({"type": "challenge", "challenge": challenge_json(c, &me, "created"), "compat": {"bot": false, "board": true}}).to_string()
        }));
        (lines, s.events.len(), Duration::from_millis(s.keepalive_ms))
    };
    for l in &opening {
        stream.line(l)?;
    }
    let t = Instant::now();
    let mut alive = Instant::now();
    // Bounded: a test lasts less than a few minutes.
    while t.elapsed() < Duration::from_secs(300) {
        let lines: Vec<String> = {
            let s = state.lock().unwrap();
            sent = sent.min(s.events.len());
            s.events[sent..].to_vec()
        };
        for l in &lines {
            stream.line(l)?;
        }
        sent += lines.len();
        if alive.elapsed() >= every {
            stream.line("")?;
            alive = Instant::now();
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    Ok(())
}

/// `GET /api/board/game/stream/{id}` (tags/board/api-board-game-stream-gameId.yaml):
/// 404 for a game that is not the account's, 400 for one the Board API
/// does not play (lila's `PlayApi.WithPovAsBoard`); `gameFull` first, a
/// `gameState` at each change, chat and `opponentGone` lines, keep-alive
/// lines, and the end of the stream with the game.
fn game_stream(mut out: Out, state: &Arc<Mutex<State>>, id: &str) -> std::io::Result<()> {
    // The lines of the game's chat from now on: counted with the gameFull,
    // so that a line added as soon as the game is said is not lost.
    let (full, mut version, every, mut extra) = {
        let s = state.lock().unwrap();
        let game = s.game.iter().chain(&s.others).find(|g| g.id == id);
        match game {
            Some(g) if !g.board_compatible() => {
                drop(s);
                return out.respond(
                    400,
                    r#"{"error":"This game cannot be played with the Board API."}"#,
                    &[],
                );
            }
            Some(g) => (
                game_full(g, &s.username, s.first_move_ms),
                g.version,
                Duration::from_millis(s.keepalive_ms),
                s.game_lines.len(),
            ),
            None => {
                drop(s);
                return out.respond(404, r#"{"error":"No such game"}"#, &[]);
            }
        }
    };
    let mut stream = out.head()?;
    stream.line(&full)?;
    let t = Instant::now();
    let mut alive = Instant::now();
    while t.elapsed() < Duration::from_secs(300) {
        std::thread::sleep(Duration::from_millis(5));
        // The game's end goes before the chat lines written with it: lila
        // finishes a game first, then its `PlaybanFeedback` writes
        // the warning in the chat (`Finisher` calls the playban after the
        // game is over).
        let lines: Vec<String> = {
            let s = state.lock().unwrap();
            let changed = s
                .game
                .iter()
                .chain(&s.others)
                .find(|g| g.id == id)
                .is_some_and(|g| g.version != version && g.over());
            extra = extra.min(s.game_lines.len());
            if changed {
                Vec::new()
            } else {
                s.game_lines[extra..].to_vec()
            }
        };
        for l in &lines {
            stream.line(l)?;
        }
        extra += lines.len();
        if alive.elapsed() >= every {
            stream.line("")?;
            alive = Instant::now();
        }
        let mut s = state.lock().unwrap();
        let drop_at = s.drop_at;
        let in_focus = s.game.as_ref().is_some_and(|g| g.id == id);
        let Some(g) = s.game.iter().chain(&s.others).find(|g| g.id == id).cloned() else {
            return Ok(());
        };
        if g.version == version {
            // The player's move is streamed: now the reply, if it waits.
            if in_focus
                && let Some(game) = s.game.as_mut()
                && let Some(r) = game.later.take()
            {
                apply_reply(game, &r);
            }
            continue;
        }
        version = g.version;
        if drop_at.is_some_and(|n| g.moves.len() >= n) {
            // The connection breaks: no final chunk.
            s.drop_at = None;
            drop(s);
            return stream.conn.shutdown(std::net::Shutdown::Both);
        }
        let first_move_ms = s.first_move_ms;
        drop(s);
        stream.line(&game_state(&g, first_move_ms))?;
        if g.over() {
            // The chat lines lichess wrote at the end (a warning), after it.
            std::thread::sleep(Duration::from_millis(30));
            let lines: Vec<String> = state.lock().unwrap().game_lines[extra..].to_vec();
            for l in &lines {
                stream.line(l)?;
            }
            return stream.end();
        }
    }
    Ok(())
}

/// A challenge with `keepAliveStream` (tags/challenges/api-challenge-username.yaml):
/// the challenge as the first line, held open with keep-alive lines while
/// it waits (lila's `ChallengeKeepAliveStream`), `{"done":"accepted"}`
/// (or `declined`, `canceled`) and the end when it is answered; closed by
/// hector, it is no longer kept alive and expires 20 s later.
fn held_challenge(
    mut out: Out,
    state: &Arc<Mutex<State>>,
    id: &str,
    made: &str,
) -> std::io::Result<()> {
    let mut stream = out.head()?;
    stream.line(made)?;
    let every = Duration::from_millis(state.lock().unwrap().keepalive_ms);
    let t = Instant::now();
    let mut alive = Instant::now();
    while t.elapsed() < Duration::from_secs(300) {
        std::thread::sleep(Duration::from_millis(10));
        let status = {
            let mut s = state.lock().unwrap();
            let broken = std::mem::take(&mut s.drop_held);
            let Some(c) = s.challenges.iter_mut().find(|c| c.id == id) else {
                return Ok(());
            };
            c.last_held = Instant::now();
            if broken {
                c.held = false;
                drop(s);
                return stream.conn.shutdown(std::net::Shutdown::Both);
            }
            c.status.clone()
        };
        if status != "created" {
            let done = match status.as_str() {
                "accepted" => Some("accepted"),
                "declined" => Some("declined"),
                "canceled" => Some("canceled"),
                _ => None,
            };
            if let Some(d) = done {
                stream.line(&json!({ "done": d }).to_string())?;
            }
            return stream.end();
        }
        if stream.closed() {
            let mut s = state.lock().unwrap();
            if let Some(c) = s.challenges.iter_mut().find(|c| c.id == id) {
                c.held = false;
                c.last_held = Instant::now();
            }
            return Ok(());
        }
        if alive.elapsed() >= every {
            if stream.line("").is_err() {
                let mut s = state.lock().unwrap();
                if let Some(c) = s.challenges.iter_mut().find(|c| c.id == id) {
                    c.held = false;
                }
                return Ok(());
            }
            alive = Instant::now();
        }
    }
    Ok(())
}

/// `POST /api/board/seek` (tags/board/api-board-seek.yaml): rapid and
/// slower only (the Board section of `doc/specs/lichess-api.yaml`); held
/// open with an empty line every 3 s; with an opponent, a game starts (on
/// the event stream) and the seek's answer ends; "when the seek is
/// accepted, or expires, the server closes the connection"; closed by
/// hector, the seek is cancelled (counted).
fn seek(mut out: Out, state: &Arc<Mutex<State>>, body: &str) -> std::io::Result<()> {
    let field = |key: &str| -> Option<u32> {
        body.split('&')
            .find_map(|kv| kv.strip_prefix(&format!("{key}=")))
            .and_then(|v| v.parse().ok())
    };
    let (Some(minutes), Some(increment)) = (field("time"), field("increment")) else {
        return out.respond(400, r#"{"error":{"time":["This field is required"]}}"#, &[]);
    };
    let probe = Game {
        clock: Some((minutes * 60, increment)),
        source: "lobby".into(),
        ..Game::default()
    };
    if !probe.board_compatible() || minutes > 180 || increment > 180 {
        return out.respond(
            400,
            r#"{"error":"Invalid time control: the Board API plays rapid and classical seeks only"}"#,
            &[],
        );
    }
    let mut stream = out.head()?;
    stream.line("")?;
    let (opponent, every, expiry) = {
        let s = state.lock().unwrap();
        (
            s.seek_opponent.clone(),
            Duration::from_millis(s.seek_keepalive_ms),
            s.seek_expiry_ms.map(Duration::from_millis),
        )
    };
    if let Some(user) = opponent {
        let white = !body.contains("color=black");
        let mut s = state.lock().unwrap();
        let g = Game {
            id: "seek1n0g".into(),
            white,
            opponent: user,
            clock: Some((minutes * 60, increment)),
            source: "lobby".into(),
            rated: body.contains("rated=true"),
            ..Game::default()
        };
        let line = game_start(&g);
        s.events.push(line);
        s.game = Some(g);
        drop(s);
        std::thread::sleep(Duration::from_millis(50));
        return stream.end();
    }
    let t = Instant::now();
    let mut alive = Instant::now();
    while t.elapsed() < Duration::from_secs(300) {
        if expiry.is_some_and(|e| t.elapsed() >= e) {
            state.lock().unwrap().seeks_expired += 1;
            return stream.end();
        }
        if stream.closed() {
            state.lock().unwrap().seeks_cancelled += 1;
            return Ok(());
        }
        if alive.elapsed() >= every {
            if stream.line("").is_err() {
                state.lock().unwrap().seeks_cancelled += 1;
                return Ok(());
            }
            alive = Instant::now();
        }
        std::thread::sleep(Duration::from_millis(40));
    }
    Ok(())
}
