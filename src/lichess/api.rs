//! The requests hector makes of lichess, as data: which method, which
//! path, which form fields (`application/x-www-form-urlencoded`), written
//! from the API description.  The HTTP client (`net::lichess`) sends them;
//! the answers come back as [`Reply`].  What lichess's Board API will not
//! play (a time control too fast, an increment too long, days it does not
//! offer, an AI level out of range) is refused here, before anything is
//! sent ([`check_clock`], [`check_days`], [`check_ai_level`]).

use super::event::{DecodeError, Side, Speed};

/// A request of the Board API (or the account's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// `GET /api/account`: who the token belongs to.
    Account,
    /// Play a move (UCI), offering or accepting a draw with it.
    Move {
        /// The game's id.
        game: String,
        /// The move, UCI.
        uci: String,
        /// Offer (or accept) a draw with it.
        offering_draw: bool,
    },
    /// Offer or accept a draw (`true`), or decline one (`false`).
    Draw {
        /// The game's id.
        game: String,
        /// Yes or no.
        yes: bool,
    },
    /// Propose or accept a takeback (`true`), or decline one (`false`).
    Takeback {
        /// The game's id.
        game: String,
        /// Yes or no.
        yes: bool,
    },
    /// Resign.
    Resign {
        /// The game's id.
        game: String,
    },
    /// Abort (before each side has moved).
    Abort {
        /// The game's id.
        game: String,
    },
    /// Claim the win when the opponent is gone.
    ClaimVictory {
        /// The game's id.
        game: String,
    },
    /// Write in the players' chat.
    Chat {
        /// The game's id.
        game: String,
        /// What to write.
        text: String,
    },
    /// Challenge a player.
    Challenge {
        /// Their user name.
        user: String,
        /// Seconds at the start (none: correspondence is not offered).
        limit_s: u32,
        /// Seconds added per move.
        increment_s: u32,
        /// The colour asked for (none: random).
        color: Option<Side>,
        /// Rated or casual.
        rated: bool,
    },
    /// Seek a real-time game (`POST /api/board/seek`): the request stays
    /// open until a game starts; closing it cancels the seek.
    Seek {
        /// Seconds at the start (whole minutes: lichess takes minutes).
        limit_s: u32,
        /// Seconds added per move.
        increment_s: u32,
        /// The colour asked for (none: random).
        color: Option<Side>,
        /// Rated or casual.
        rated: bool,
    },
    /// Accept a challenge made to us.
    Accept {
        /// The challenge's id.
        id: String,
    },
    /// Decline a challenge made to us.
    Decline {
        /// The challenge's id.
        id: String,
    },
    /// Challenge a player to a correspondence game (days per move, no
    /// clock): `tags/challenges/api-challenge-username.yaml`, `days`.
    Correspondence {
        /// Their user name.
        user: String,
        /// Days per move (1, 2, 3, 5, 7, 10 or 14).
        days: u8,
        /// The colour asked for (none: random).
        color: Option<Side>,
        /// Rated or casual.
        rated: bool,
    },
    /// A game against lichess's computer (`POST /api/challenge/ai`,
    /// `tags/challenges/api-challenge-ai.yaml`): it starts at once, on the
    /// event stream.
    ChallengeAi {
        /// Its level, 1 to 8.
        level: u8,
        /// A clock, or days per move.
        pace: Pace,
        /// The colour asked for (none: random).
        color: Option<Side>,
    },
    /// Withdraw a challenge of ours, or abort the game it became before a
    /// move (`tags/challenges/api-challenge-challengeId-cancel.yaml`).
    CancelChallenge {
        /// The challenge's id (the game's too).
        id: String,
    },
    /// Which account and scopes the token has (`POST /api/token/test`,
    /// `tags/oauth/api-token-test.yaml`): the client puts its own token in
    /// the body, so no token is ever held in a request.
    TokenTest,
    /// The account's games in progress, most urgent first
    /// (`GET /api/account/playing`, `tags/games/api-account-playing.yaml`).
    Playing,
}

/// A game's pace: a clock, or days per move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pace {
    /// Seconds at the start and seconds added per move.
    Clock {
        /// Seconds at the start.
        limit_s: u32,
        /// Seconds added per move.
        increment_s: u32,
    },
    /// Days per move.
    Days(u8),
}

impl Pace {
    fn form(self, out: &mut Vec<(&'static str, String)>) {
        match self {
            Self::Clock {
                limit_s,
                increment_s,
            } => {
                out.push(("clock.limit", limit_s.to_string()));
                out.push(("clock.increment", increment_s.to_string()));
            }
            Self::Days(d) => out.push(("days", d.to_string())),
        }
    }
}

/// An HTTP method (only the two lichess's Board API uses).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// GET.
    Get,
    /// POST.
    Post,
}

/// Why no answer came, as data: the phrasing words it
/// (`Phraser::lichess_no_answer`), never the HTTP client's English.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoAnswer {
    /// An error status of lichess's own (a server error, 5xx; or one no
    /// sentence of its own has).
    Status(u16),
    /// The connection failed, or no answer came in time.
    System(crate::toml_error::IoWhy),
}

/// How a request was answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// Done (2xx), with the body (JSON) for the requests that read it.
    Done(String),
    /// Refused: the HTTP status and lichess's `error` text when there is
    /// one (for the log; the player hears a sentence of hector's own).
    Refused {
        /// The HTTP status.
        status: u16,
        /// lichess's message.
        error: String,
    },
    /// HTTP 429: too many requests; retried after a minute.
    RateLimited,
    /// No answer: the network or the server failed.
    Failed(NoAnswer),
    /// An answer longer than [`MAX_REPLY`]: no more of it was read, and
    /// nothing of it is used (a server that sends hundreds of megabytes
    /// is not let fill the memory).
    TooLong {
        /// The HTTP status it came with.
        status: u16,
    },
}

/// The longest answer hector reads, 4 MiB (the longest lichess sends to a
/// Board API client, fifty games in progress, is a few tens of KiB); the
/// streams' lines are bounded apart (`event::Lines::MAX`).
pub const MAX_REPLY: usize = 4 << 20;

fn colour(side: Option<Side>) -> &'static str {
    match side {
        Some(Side::White) => "white",
        Some(Side::Black) => "black",
        None => "random",
    }
}

/// Path segments are ids and user names: letters, digits, `_` and `-`.
/// Anything else is percent-encoded so that no input can change the path.
#[must_use]
pub fn segment(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b == b'_' || b == b'-' {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

impl Request {
    /// The method, the path (from the server's root) and the form.
    #[must_use]
    pub fn http(&self) -> (Method, String, Vec<(&'static str, String)>) {
        let board = |game: &str, what: &str| format!("/api/board/game/{}/{what}", segment(game));
        let yes_no = |yes: bool| if yes { "yes" } else { "no" };
        match self {
            Self::Account => (Method::Get, "/api/account".to_owned(), Vec::new()),
            Self::Move {
                game,
                uci,
                offering_draw,
            } => {
                let mut path = board(game, &format!("move/{}", segment(uci)));
                if *offering_draw {
                    path.push_str("?offeringDraw=true");
                }
                (Method::Post, path, Vec::new())
            }
            Self::Draw { game, yes } => (
                Method::Post,
                board(game, &format!("draw/{}", yes_no(*yes))),
                Vec::new(),
            ),
            Self::Takeback { game, yes } => (
                Method::Post,
                board(game, &format!("takeback/{}", yes_no(*yes))),
                Vec::new(),
            ),
            Self::Resign { game } => (Method::Post, board(game, "resign"), Vec::new()),
            Self::Abort { game } => (Method::Post, board(game, "abort"), Vec::new()),
            Self::ClaimVictory { game } => (Method::Post, board(game, "claim-victory"), Vec::new()),
            Self::Chat { game, text } => (
                Method::Post,
                board(game, "chat"),
                vec![("room", "player".to_owned()), ("text", text.clone())],
            ),
            Self::Challenge {
                user,
                limit_s,
                increment_s,
                color,
                rated,
            } => (
                Method::Post,
                format!("/api/challenge/{}", segment(user)),
                vec![
                    ("rated", rated.to_string()),
                    ("clock.limit", limit_s.to_string()),
                    ("clock.increment", increment_s.to_string()),
                    ("color", colour(*color).to_owned()),
                    ("variant", "standard".to_owned()),
                    // Without it a real-time challenge expires after 20 s
                    // unanswered; with it, it lives while the answer is
                    // held open (`tags/challenges/api-challenge-username.yaml`).
                    ("keepAliveStream", "true".to_owned()),
                ],
            ),
            Self::Correspondence {
                user,
                days,
                color,
                rated,
            } => {
                let mut form = vec![("rated", rated.to_string())];
                Pace::Days(*days).form(&mut form);
                form.push(("color", colour(*color).to_owned()));
                form.push(("variant", "standard".to_owned()));
                (
                    Method::Post,
                    format!("/api/challenge/{}", segment(user)),
                    form,
                )
            }
            Self::ChallengeAi { level, pace, color } => {
                let mut form = vec![("level", level.to_string())];
                pace.form(&mut form);
                form.push(("color", colour(*color).to_owned()));
                form.push(("variant", "standard".to_owned()));
                (Method::Post, "/api/challenge/ai".to_owned(), form)
            }
            Self::CancelChallenge { id } => (
                Method::Post,
                format!("/api/challenge/{}/cancel", segment(id)),
                Vec::new(),
            ),
            Self::TokenTest => (Method::Post, "/api/token/test".to_owned(), Vec::new()),
            Self::Playing => (
                Method::Get,
                "/api/account/playing?nb=50".to_owned(),
                Vec::new(),
            ),
            Self::Seek {
                limit_s,
                increment_s,
                color,
                rated,
            } => (
                Method::Post,
                "/api/board/seek".to_owned(),
                vec![
                    ("rated", rated.to_string()),
                    ("time", (limit_s / 60).to_string()),
                    ("increment", increment_s.to_string()),
                    ("color", colour(*color).to_owned()),
                    ("variant", "standard".to_owned()),
                ],
            ),
            Self::Accept { id } => (
                Method::Post,
                format!("/api/challenge/{}/accept", segment(id)),
                Vec::new(),
            ),
            Self::Decline { id } => (
                Method::Post,
                format!("/api/challenge/{}/decline", segment(id)),
                Vec::new(),
            ),
        }
    }
}

impl Request {
    /// Whether lichess holds the answer open (a real-time seek; a
    /// challenge with `keepAliveStream`): it is not waited for in the queue
    /// of requests, which go one at a time.
    #[must_use]
    pub fn held_open(&self) -> bool {
        matches!(self, Self::Seek { .. } | Self::Challenge { .. })
    }
}

/// How a game is asked for: the Board API's limits differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asking {
    /// A challenge to a player.
    Challenge,
    /// A seek against anyone.
    Seek,
    /// A game against lichess's computer.
    Ai,
}

/// Why lichess would not play a time control through the Board API.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeRefusal {
    /// Faster than blitz (a challenge, the AI): lila's
    /// `Challenge.isBoardCompatible` is `speed >= Blitz`, and a game of
    /// another speed comes with `compat.board: false`.
    FasterThanBlitz,
    /// Faster than rapid (a seek): the Board section of
    /// `doc/specs/lichess-api.yaml`, "Rapid, Classical and Correspondence
    /// only. For direct challenges, games vs AI, and bulk pairing, Blitz is
    /// also possible."
    FasterThanRapid,
    /// An increment longer than lichess takes (60 s in a challenge, 180 s
    /// in a seek).
    IncrementTooLong {
        /// The most it takes, seconds.
        max_s: u32,
    },
    /// A start time lichess does not offer: 0, 15, 30, 45, 60 or 90 seconds,
    /// or whole minutes up to three hours (a seek: whole minutes).
    StartNotOffered,
}

/// The longest start time lichess offers, three hours.
pub const MAX_LIMIT_S: u32 = 3 * 60 * 60;

/// Checks a clock against the Board API's limits before anything is sent;
/// the game's speed when lichess would play it.
///
/// # Errors
///
/// Why lichess would refuse it, or start a game hector cannot play.
pub fn check_clock(asking: Asking, limit_s: u32, increment_s: u32) -> Result<Speed, TimeRefusal> {
    // `clock.limit`: "0, 15, 30, 45, 60, 90, and any multiple of 60 up to
    // 10800"; a seek's `time` is in minutes, 0 to 180
    // (`tags/challenges/api-challenge-username.yaml`, `tags/board/api-board-seek.yaml`).
    let offered = match asking {
        Asking::Seek => limit_s.is_multiple_of(60),
        Asking::Challenge | Asking::Ai => {
            matches!(limit_s, 0 | 15 | 30 | 45 | 90) || limit_s.is_multiple_of(60)
        }
    };
    if !offered || limit_s > MAX_LIMIT_S {
        return Err(TimeRefusal::StartNotOffered);
    }
    let max_s = match asking {
        Asking::Seek => 180,
        Asking::Challenge | Asking::Ai => 60,
    };
    if increment_s > max_s {
        return Err(TimeRefusal::IncrementTooLong { max_s });
    }
    let speed = Speed::of_clock(limit_s, increment_s);
    match asking {
        Asking::Seek if speed < Speed::Rapid => Err(TimeRefusal::FasterThanRapid),
        Asking::Challenge | Asking::Ai if speed < Speed::Blitz => Err(TimeRefusal::FasterThanBlitz),
        _ => Ok(speed),
    }
}

/// The days per move lichess offers a correspondence game.
pub const DAYS: [u8; 7] = [1, 2, 3, 5, 7, 10, 14];

/// Whether lichess offers `days` per move.
#[must_use]
pub fn check_days(days: u32) -> bool {
    DAYS.iter().any(|d| u32::from(*d) == days)
}

/// Whether lichess has an AI of this level (1 to 8).
#[must_use]
pub fn check_ai_level(level: u32) -> bool {
    (1..=8).contains(&level)
}

/// The server when none is given.
pub const DEFAULT_URL: &str = "https://lichess.org";

/// A lichess game's id from what was typed: the id itself, or an address
/// that ends with it (`https://lichess.org/AbCd1234`, with the player's
/// four letters after it or not).
#[must_use]
pub fn game_id(given: &str) -> Option<String> {
    let last = given.trim().trim_end_matches('/').rsplit('/').next()?;
    let id: String = last.chars().take(8).collect();
    (id.len() == 8
        && (last.len() == 8 || last.len() == 12)
        && last.chars().all(|c| c.is_ascii_alphanumeric()))
    .then_some(id)
}

/// The account stream's path.
pub const EVENT_STREAM: &str = "/api/stream/event";

/// A game's stream path.
#[must_use]
pub fn game_stream(game: &str) -> String {
    format!("/api/board/game/stream/{}", segment(game))
}

/// The account, from `GET /api/account`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
pub struct Account {
    /// The lower-case id.
    pub id: String,
    /// The name as written (cleaned: text from outside).
    #[serde(deserialize_with = "super::event::cleaned")]
    pub username: String,
}

fn decoded<T: serde::de::DeserializeOwned>(body: &str) -> Result<T, DecodeError> {
    serde_json::from_str(body).map_err(|e| DecodeError {
        detail: e.to_string(),
    })
}

/// Reads `GET /api/account`'s body.
///
/// # Errors
///
/// The body is not an account.
pub fn account(body: &str) -> Result<Account, DecodeError> {
    decoded(body)
}

/// A token as `POST /api/token/test` describes it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TokenInfo {
    /// The account's id.
    #[serde(default)]
    pub user_id: String,
    /// The scopes, comma-separated (empty: none).
    #[serde(default)]
    pub scopes: String,
}

/// The scope every game of hector's needs: `board:play` (the event stream,
/// challenges, seeks, moves: `doc/specs/lichess-api.yaml`, Board).
pub const PLAY_SCOPE: &str = "board:play";

impl TokenInfo {
    /// Whether the token has `scope`.
    #[must_use]
    pub fn has(&self, scope: &str) -> bool {
        self.scopes.split(',').any(|s| s.trim() == scope)
    }
}

/// Reads `POST /api/token/test`'s body for one token: its description, or
/// none when lichess does not know it (`null`).
///
/// # Errors
///
/// The body is not the object the description promises.
pub fn token_info(body: &str) -> Result<Option<TokenInfo>, DecodeError> {
    let map: std::collections::BTreeMap<String, Option<TokenInfo>> = decoded(body)?;
    match map.into_values().next() {
        Some(info) => Ok(info),
        None => Err(DecodeError {
            detail: "no token in the answer".to_owned(),
        }),
    }
}

/// A game in progress, from `GET /api/account/playing`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Playing {
    /// The game's id.
    pub game_id: String,
    /// The player's colour in it.
    #[serde(default)]
    pub color: Option<Side>,
    /// Whether it is the player's move.
    #[serde(default)]
    pub is_my_turn: bool,
    /// The opponent.
    #[serde(default)]
    pub opponent: Option<super::event::InfoOpponent>,
    /// Its speed.
    #[serde(default)]
    pub speed: Option<Speed>,
    /// Seconds left: the player's clock, or until a correspondence move is
    /// due.
    #[serde(default)]
    pub seconds_left: Option<u64>,
    /// The variant.
    #[serde(default)]
    pub variant: Option<super::event::Variant>,
    /// Rated or casual.
    #[serde(default)]
    pub rated: bool,
    /// Whether the Board API may play it, when lichess says.
    #[serde(default)]
    pub compat: Option<super::event::Compat>,
}

impl From<&super::event::GameInfo> for Playing {
    /// A game in progress as the event stream's `gameStart` tells it (the
    /// same fields as `/api/account/playing`'s).
    fn from(g: &super::event::GameInfo) -> Self {
        Playing {
            game_id: g.game_id.clone(),
            color: g.color,
            is_my_turn: g.is_my_turn.unwrap_or(false),
            opponent: g.opponent.clone(),
            speed: g.speed,
            seconds_left: g.seconds_left,
            variant: g.variant.clone(),
            rated: g.rated,
            compat: g.compat,
        }
    }
}

/// Reads `GET /api/account/playing`'s body.
///
/// # Errors
///
/// The body is not the list the description promises.
pub fn playing(body: &str) -> Result<Vec<Playing>, DecodeError> {
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct NowPlaying {
        now_playing: Vec<Playing>,
    }
    decoded::<NowPlaying>(body).map(|n| n.now_playing)
}

/// The id of the challenge lichess made (its answer to a challenge, or the
/// first line of the answer held open): the game's id too, once accepted
/// (`tags/challenges/api-challenge-username.yaml`: "The game ID will be the
/// same as the challenge ID").  The AI's game answers with its id too.
#[must_use]
pub fn challenge_id(body: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Made {
        #[serde(default)]
        id: Option<String>,
        #[serde(default)]
        challenge: Option<Box<Made>>,
    }
    let line = body.lines().find(|l| !l.trim().is_empty())?;
    let made: Made = serde_json::from_str(line).ok()?;
    made.id.or_else(|| made.challenge.and_then(|c| c.id))
}

/// lichess's `{"error": "…"}` body, or the body itself when it is not one
/// (cut to 200 characters).
#[must_use]
pub fn error_text(body: &str) -> String {
    #[derive(serde::Deserialize)]
    struct E {
        error: serde_json::Value,
    }
    match serde_json::from_str::<E>(body) {
        Ok(E {
            error: serde_json::Value::String(s),
        }) => s,
        Ok(E { error }) => error.to_string(),
        Err(_) => body.chars().take(200).collect(),
    }
}

/// A refusal of lichess's, as hector says it: the known ones in its own
/// words (in the player's language), only an unknown one with lichess's
/// (English) text, quoted apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The token is refused (401).
    TokenRefused,
    /// No such player (a challenge to a name lichess does not know).
    NoSuchUser,
    /// The player challenged does not take challenges now (or not this one).
    ChallengeRefused,
    /// Not the player's turn there, or the game is over ("Not your turn,
    /// or game already over").
    NotYourTurn,
    /// The game is over (or cannot be aborted any more).
    GameOver,
    /// No such game or challenge (404).
    NotFound,
    /// The token lacks the scope this needs (403 `Missing scope`: lila's
    /// `LilaController.handleScopedFail`).
    MissingScope,
    /// Anything else: lichess's own text.
    Other(String),
}

/// What a refusal (`status`, lichess's `error` text) means.  lichess's
/// texts are English and may change: they are matched loosely, and what
/// is not known stays [`Failure::Other`].
#[must_use]
pub fn failure(challenge: bool, status: u16, error: &str) -> Failure {
    let e = error.to_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| e.contains(w));
    if status == 401 {
        Failure::TokenRefused
    } else if status == 403 && has(&["missing scope"]) {
        Failure::MissingScope
    } else if challenge && (has(&["no such user", "user not found", "not found"]) || status == 404)
    {
        Failure::NoSuchUser
    } else if challenge
        && has(&[
            "not accept",
            "doesn't accept",
            "declin",
            "refuse",
            "blocked",
            "cannot challenge",
            "can't challenge",
            "cannot be challenged",
        ])
    {
        Failure::ChallengeRefused
    } else if has(&["not your turn"]) {
        Failure::NotYourTurn
    } else if has(&[
        "game is over",
        "already over",
        "finished",
        "can no longer",
        "cannot abort",
        "can't abort",
    ]) {
        Failure::GameOver
    } else if status == 404 {
        Failure::NotFound
    } else {
        Failure::Other(error.chars().take(200).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_id_is_read_alone_or_from_its_address() {
        assert_eq!(game_id("AbCd1234").as_deref(), Some("AbCd1234"));
        assert_eq!(
            game_id("https://lichess.org/AbCd1234wxyz/").as_deref(),
            Some("AbCd1234")
        );
        for bad in ["", "AbCd123", "AbCd12345", "AbCd-234", "../../x"] {
            assert_eq!(game_id(bad), None, "{bad}");
        }
    }

    #[test]
    fn paths_follow_the_api_description() {
        let g = "5IrD6Gzz".to_owned();
        let cases = [
            (
                Request::Move {
                    game: g.clone(),
                    uci: "e2e4".into(),
                    offering_draw: false,
                },
                "/api/board/game/5IrD6Gzz/move/e2e4",
            ),
            (
                Request::Move {
                    game: g.clone(),
                    uci: "e7e8q".into(),
                    offering_draw: true,
                },
                "/api/board/game/5IrD6Gzz/move/e7e8q?offeringDraw=true",
            ),
            (
                Request::Draw {
                    game: g.clone(),
                    yes: true,
                },
                "/api/board/game/5IrD6Gzz/draw/yes",
            ),
            (
                Request::Takeback {
                    game: g.clone(),
                    yes: false,
                },
                "/api/board/game/5IrD6Gzz/takeback/no",
            ),
            (
                Request::Resign { game: g.clone() },
                "/api/board/game/5IrD6Gzz/resign",
            ),
            (
                Request::Abort { game: g.clone() },
                "/api/board/game/5IrD6Gzz/abort",
            ),
            (
                Request::ClaimVictory { game: g.clone() },
                "/api/board/game/5IrD6Gzz/claim-victory",
            ),
            (
                Request::Accept { id: "abc".into() },
                "/api/challenge/abc/accept",
            ),
            (
                Request::Decline { id: "abc".into() },
                "/api/challenge/abc/decline",
            ),
        ];
        for (r, path) in cases {
            let (m, p, form) = r.http();
            assert_eq!((m, p.as_str()), (Method::Post, path));
            assert!(form.is_empty());
        }
        assert_eq!(Request::Account.http().0, Method::Get);
        assert_eq!(game_stream(&g), "/api/board/game/stream/5IrD6Gzz");
    }

    #[test]
    fn challenge_and_chat_send_their_form() {
        let (_, path, form) = Request::Challenge {
            user: "Mary".into(),
            limit_s: 600,
            increment_s: 5,
            color: Some(Side::Black),
            rated: true,
        }
        .http();
        assert_eq!(path, "/api/challenge/Mary");
        assert!(form.contains(&("clock.limit", "600".into())));
        assert!(form.contains(&("clock.increment", "5".into())));
        assert!(form.contains(&("color", "black".into())));
        assert!(form.contains(&("rated", "true".into())));
        let (_, path, form) = Request::Chat {
            game: "x".into(),
            text: "good luck".into(),
        }
        .http();
        assert_eq!(path, "/api/board/game/x/chat");
        assert_eq!(
            form,
            [("room", "player".into()), ("text", "good luck".into())]
        );
    }

    #[test]
    fn a_seek_sends_minutes_and_only_rapid_or_classical_is_allowed() {
        let (m, path, form) = Request::Seek {
            limit_s: 900,
            increment_s: 10,
            color: None,
            rated: false,
        }
        .http();
        assert_eq!((m, path.as_str()), (Method::Post, "/api/board/seek"));
        assert!(form.contains(&("time", "15".into())));
        assert!(form.contains(&("increment", "10".into())));
        assert!(form.contains(&("color", "random".into())));
        assert!(form.contains(&("rated", "false".into())));
        // 8+0 is rapid; 7+0 and 5+3 (5 + 2 = 7 minutes) are blitz; 3+2 is
        // blitz; 2+12 (2 + 8 = 10 minutes) is rapid.
        let seek = |l, i| check_clock(Asking::Seek, l, i);
        assert_eq!(seek(480, 0), Ok(Speed::Rapid));
        assert_eq!(seek(420, 0), Err(TimeRefusal::FasterThanRapid));
        assert_eq!(seek(300, 3), Err(TimeRefusal::FasterThanRapid));
        assert_eq!(seek(180, 2), Err(TimeRefusal::FasterThanRapid));
        assert_eq!(seek(120, 12), Ok(Speed::Rapid));
        assert_eq!(seek(10_800, 180), Ok(Speed::Classical));
        assert_eq!(
            seek(10_800, 181),
            Err(TimeRefusal::IncrementTooLong { max_s: 180 })
        );
        assert_eq!(seek(90, 30), Err(TimeRefusal::StartNotOffered));
    }

    #[test]
    fn a_challenge_is_blitz_or_slower_with_an_increment_of_a_minute_at_most() {
        let challenge = |l, i| check_clock(Asking::Challenge, l, i);
        // Bullet (1+0, 2+1: 60 s and 160 s estimated) is refused: lichess
        // starts such a game with compat.board false.
        assert_eq!(challenge(60, 0), Err(TimeRefusal::FasterThanBlitz));
        assert_eq!(challenge(120, 1), Err(TimeRefusal::FasterThanBlitz));
        assert_eq!(challenge(180, 0), Ok(Speed::Blitz));
        assert_eq!(challenge(300, 3), Ok(Speed::Blitz));
        assert_eq!(challenge(600, 5), Ok(Speed::Rapid));
        assert_eq!(
            challenge(600, 61),
            Err(TimeRefusal::IncrementTooLong { max_s: 60 })
        );
        assert_eq!(challenge(90, 60), Ok(Speed::Classical));
        assert_eq!(challenge(100, 60), Err(TimeRefusal::StartNotOffered));
        assert_eq!(challenge(10_860, 0), Err(TimeRefusal::StartNotOffered));
        assert_eq!(
            check_clock(Asking::Ai, 60, 2),
            Err(TimeRefusal::FasterThanBlitz)
        );
        assert!(check_days(14) && check_days(1) && !check_days(4) && !check_days(0));
        assert!(check_ai_level(1) && check_ai_level(8) && !check_ai_level(9) && !check_ai_level(0));
    }

    #[test]
    fn a_real_time_challenge_is_kept_alive_and_held_open() {
        let r = Request::Challenge {
            user: "Mary".into(),
            limit_s: 600,
            increment_s: 5,
            color: None,
            rated: false,
        };
        assert!(r.http().2.contains(&("keepAliveStream", "true".into())));
        assert!(r.held_open());
        assert!(!Request::Resign { game: "x".into() }.held_open());
        let (m, path, form) = Request::Correspondence {
            user: "Mary".into(),
            days: 3,
            color: Some(Side::White),
            rated: true,
        }
        .http();
        assert_eq!((m, path.as_str()), (Method::Post, "/api/challenge/Mary"));
        assert!(form.contains(&("days", "3".into())));
        assert!(!form.iter().any(|(k, _)| k.starts_with("clock")));
        let (_, path, form) = Request::ChallengeAi {
            level: 3,
            pace: Pace::Clock {
                limit_s: 600,
                increment_s: 0,
            },
            color: None,
        }
        .http();
        assert_eq!(path, "/api/challenge/ai");
        assert!(form.contains(&("level", "3".into())));
        assert!(form.contains(&("clock.limit", "600".into())));
        assert_eq!(
            Request::CancelChallenge { id: "ab12".into() }.http().1,
            "/api/challenge/ab12/cancel"
        );
        assert_eq!(Request::Playing.http().0, Method::Get);
        assert_eq!(Request::TokenTest.http().1, "/api/token/test");
    }

    #[test]
    fn the_token_test_playing_list_and_challenge_id_are_read() {
        // As in tags/oauth/api-token-test.yaml's example.
        let info = token_info(r#"{"lip_jose":{"userId":"jose","scopes":"challenge:read,board:play,bot:play","expires":null}}"#)
            .unwrap()
            .unwrap();
        assert_eq!(info.user_id, "jose");
        assert!(info.has("board:play") && !info.has("board"));
        assert_eq!(token_info(r#"{"lip_bad":null}"#).unwrap(), None);
        assert!(token_info("{}").is_err() && token_info("[]").is_err());
        let games = playing(r#"{"nbMyTurn":1,"nowPlaying":[{"gameId":"rCRw1AuO","fullId":"rCRw1AuOvonq","color":"black","fen":"x","hasMoved":true,"isMyTurn":false,"lastMove":"b8c6","opponent":{"id":"philippe","rating":1790,"username":"Philippe"},"perf":"correspondence","rated":false,"secondsLeft":1209600,"source":"friend","speed":"correspondence","variant":{"key":"standard","name":"Standard"}},{"gameId":"RwDo6DN6","color":"white","isMyTurn":true,"opponent":{"id":null,"username":"Stockfish level 1","ai":1},"speed":"blitz","secondsLeft":170}]}"#).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].speed, Some(Speed::Correspondence));
        assert_eq!(games[0].seconds_left, Some(1_209_600));
        assert_eq!(games[1].opponent.as_ref().and_then(|o| o.ai), Some(1));
        assert!(playing("{}").is_err());
        assert_eq!(
            challenge_id(
                r#"{"id":"uGK4MHaQ","url":"https://lichess.org/uGK4MHaQ","status":"created"}"#
            )
            .as_deref(),
            Some("uGK4MHaQ")
        );
        assert_eq!(
            challenge_id("\n{\"challenge\":{\"id\":\"x1\"}}\n").as_deref(),
            Some("x1")
        );
        assert_eq!(challenge_id("oops"), None);
        assert_eq!(failure(false, 403, "Missing scope"), Failure::MissingScope);
    }

    #[test]
    fn known_refusals_are_named_and_only_unknown_ones_keep_their_text() {
        assert_eq!(failure(true, 400, "No such user"), Failure::NoSuchUser);
        assert_eq!(failure(true, 404, r#"{"x":1}"#), Failure::NoSuchUser);
        assert_eq!(
            failure(true, 400, "Mary does not accept challenges."),
            Failure::ChallengeRefused
        );
        assert_eq!(
            failure(false, 400, "Not your turn, or game already over"),
            Failure::NotYourTurn
        );
        assert_eq!(
            failure(false, 400, "This game is already finished"),
            Failure::GameOver
        );
        assert_eq!(failure(false, 404, "Not found"), Failure::NotFound);
        assert_eq!(failure(false, 401, "No such token"), Failure::TokenRefused);
        assert_eq!(
            failure(false, 400, "Something new"),
            Failure::Other("Something new".into())
        );
    }

    #[test]
    fn no_input_leaves_its_path_segment() {
        assert_eq!(
            segment("../account?x=1 #"),
            "%2E%2E%2Faccount%3Fx%3D1%20%23"
        );
        let (_, p, _) = Request::Resign { game: "a/b".into() }.http();
        assert_eq!(p, "/api/board/game/a%2Fb/resign");
    }

    #[test]
    fn account_and_errors_are_read() {
        let a = account(r#"{"id":"georges","username":"Georges","perfs":{}}"#).unwrap();
        assert_eq!(a.username, "Georges");
        assert!(account("{}").is_err());
        assert_eq!(
            error_text(r#"{"error":"Not your turn, or game already over"}"#),
            "Not your turn, or game already over"
        );
        assert_eq!(error_text(r#"{"error":{"x":1}}"#), r#"{"x":1}"#);
        assert_eq!(error_text("plain"), "plain");
    }
}
