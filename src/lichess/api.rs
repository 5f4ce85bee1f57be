//! The requests hector makes of lichess, as data: which method, which
//! path, which form fields (`application/x-www-form-urlencoded`), written
//! from the API description.  The HTTP client (`net::lichess`) sends them;
//! the answers come back as [`Reply`].

use super::event::Side;

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
}

/// An HTTP method (only the two lichess's Board API uses).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// GET.
    Get,
    /// POST.
    Post,
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
    Failed(String),
}

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
                ],
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

/// Whether lichess takes a real-time seek of this time control: rapid or
/// classical only, as lichess reckons speed (the start time plus forty
/// moves' increment, eight minutes or more).
#[must_use]
pub fn seek_allowed(limit_s: u32, increment_s: u32) -> bool {
    u64::from(limit_s) + 40 * u64::from(increment_s) >= RAPID_FROM_S
}

/// The server when none is given.
pub const DEFAULT_URL: &str = "https://lichess.org";

/// Where lichess's rapid begins, in estimated seconds (blitz below).
pub const RAPID_FROM_S: u64 = 8 * 60;

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
    /// The name as written.
    pub username: String,
}

/// Reads `GET /api/account`'s body.
///
/// # Errors
///
/// The body is not an account.
pub fn account(body: &str) -> Result<Account, super::event::DecodeError> {
    serde_json::from_str(body).map_err(|e| super::event::DecodeError {
        detail: e.to_string(),
    })
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
        assert!(seek_allowed(480, 0));
        assert!(!seek_allowed(420, 0));
        assert!(!seek_allowed(300, 3));
        assert!(!seek_allowed(180, 2));
        assert!(seek_allowed(120, 12));
        assert!(seek_allowed(10_800, 180));
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
