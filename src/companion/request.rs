//! What a browser may ask, read from a request's method, target, headers
//! and body without any I/O: [`parse`] is a pure function, so malformed and
//! oversized requests are tested (property tests below) without a socket.
//!
//! The server reads at most [`MAX_BODY`] bytes of a body (one more, to know
//! it was too long) and hands them here; nothing here can panic on input.

use serde::Deserialize;
use shakmaty::{Role, Square};

/// The largest body any request may carry.  The biggest real one (a move
/// with a promotion) is under 60 bytes.
pub const MAX_BODY: usize = 512;
/// The longest request target (path and query).
pub const MAX_TARGET: usize = 256;
/// The longest header value looked at (token, host, origin).
pub const MAX_HEADER_VALUE: usize = 256;
/// The header that carries the token of a paired browser.  A custom header
/// also means no other web site can make a browser send an action: a
/// cross-site request with it needs a CORS preflight, which is never
/// allowed.
pub const TOKEN_HEADER: &str = "x-hector-token";

/// One thing a browser asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    /// The page itself.
    Page,
    /// Whether a pairing code is needed, and whether watching is allowed.
    Info,
    /// The push channel (Server-Sent Events) of state snapshots.
    Events,
    /// The current state once (JSON).
    State,
    /// Pair with the code (empty when none is needed); `watch` asks for a
    /// watcher's seat instead of the opponent's.
    Pair { code: String, watch: bool },
    /// An action of the opponent.
    Act(OpponentAction),
    /// The opponent leaves the seat (the page's "Leave" button).
    Bye,
    /// One of the arbiter's functions, from the arbiter's page.
    Arbiter(ArbiterRequest),
    /// A tournament game's action log, for the arbiter's page.
    Log,
}

/// An arbiter's function given on the arbiter's page of a tournament game
/// (each confirmed there first): the functions of `arbiter …` at the
/// keyboard that a phone offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArbiterRequest {
    /// Stop both clocks.
    Stop,
    /// Start the clock again.
    Start,
    /// Add `seconds` to a side's time.
    Add {
        /// The side given the time.
        side: shakmaty::Color,
        /// How much, 1 second to 24 hours.
        seconds: u32,
    },
    /// An illegal move completed by a side (Article 7.5).
    Illegal(shakmaty::Color),
    /// The result: the winner, or `None` for a draw.
    Result(Option<shakmaty::Color>),
}

/// What the opponent does on the page.  The app treats each like a line the
/// blind player typed for the opponent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpponentAction {
    /// A move, typed or tapped.
    Move(MoveInput),
    /// The opponent offers a draw.
    OfferDraw,
    /// The opponent accepts the blind player's draw offer.
    AcceptDraw,
    /// The opponent declines the blind player's draw offer.
    DeclineDraw,
    /// The opponent resigns.
    Resign,
    /// The opponent confirms the result of a tournament game (Article
    /// 8.7: their signature on the scoresheet).
    ConfirmResult,
    /// The opponent accepts the blind player's take-back request (issue
    /// 30: a take-back is the opponent's to allow, 4.6, 6.2).
    AcceptTakeback,
    /// The opponent refuses it: the move stands.
    RefuseTakeback,
    /// The opponent claims a draw (9.2, 9.3: threefold repetition or the
    /// 50-move rule), on the position now or on the move they intend to
    /// play (issue 30).
    ClaimDraw(Option<MoveInput>),
}

/// A move as the page sends it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveInput {
    /// Typed in Standard Algebraic Notation (syntax checked loosely here;
    /// the app's notation reader decides).
    San(String),
    /// Tapped: a piece and its target (a castling king tapped to its target
    /// or onto its rook).
    FromTo {
        /// The square of the piece tapped first.
        from: Square,
        /// The square tapped second.
        to: Square,
        /// The piece a pawn becomes, when it promotes.
        promotion: Option<Role>,
    },
}

/// A request read from the wire.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiRequest {
    pub route: Route,
    /// The token from the header, or for the push channel (EventSource
    /// cannot set headers) from the query.
    pub token: Option<String>,
    /// The Host header, checked against the address the server listens on
    /// (a defence against DNS rebinding).
    pub host: Option<String>,
    /// The Origin header, when the browser sent one.
    pub origin: Option<String>,
}

/// Why a request was refused.  Each has an HTTP status and one clear
/// sentence for the page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RequestError {
    /// No such route.
    NotFound,
    /// The route exists, not for this method.
    MethodNotAllowed,
    /// The target is longer than `MAX_TARGET`.
    TargetTooLong,
    /// The body is longer than `MAX_BODY`.
    BodyTooLarge,
    /// The body did not come in time (the server's read timeout).
    TooSlow,
    /// A header value is longer than `MAX_HEADER_VALUE`.
    HeaderTooLong,
    /// An action without `Content-Type: application/json`.
    NotJson,
    /// The body is not the JSON this route expects.
    BadBody(String),
    /// A square that is not one (`e4`): the text sent.
    BadSquare(String),
    /// A typed move that cannot be a move, and why.
    BadMove(String),
    /// No token, or one that is not (or no longer) this page's.
    NotPaired,
    /// Paired as a watcher: watchers cannot act.
    WatcherCannotAct,
    /// The pairing code is not the one hector said.
    WrongCode,
    /// Too many wrong codes: pairing waits a while.
    PairingLocked,
    /// The opponent's seat is taken; the blind player can release it.
    SeatTaken,
    /// Watching needs the code on this address.
    CodeNeededToWatch,
    /// The Host header is not this server's address.
    BadHost,
    /// An Origin other than this page.
    BadOrigin,
    /// Too many requests from this address.
    TooManyRequests,
    /// Too many pages are watching.
    TooManyWatchers,
}

impl RequestError {
    /// The HTTP status of the answer.
    pub fn status(&self) -> u16 {
        match self {
            RequestError::NotFound => 404,
            RequestError::MethodNotAllowed => 405,
            RequestError::TargetTooLong => 414,
            RequestError::BodyTooLarge => 413,
            RequestError::TooSlow => 408,
            RequestError::HeaderTooLong => 431,
            RequestError::NotJson => 415,
            RequestError::BadBody(_) | RequestError::BadSquare(_) | RequestError::BadMove(_) => 400,
            RequestError::NotPaired | RequestError::WrongCode | RequestError::CodeNeededToWatch => {
                401
            }
            RequestError::WatcherCannotAct | RequestError::BadHost | RequestError::BadOrigin => 403,
            RequestError::SeatTaken => 409,
            RequestError::PairingLocked | RequestError::TooManyRequests => 429,
            RequestError::TooManyWatchers => 503,
        }
    }

    /// A short machine-readable name (the page picks its own words by it).
    pub fn code(&self) -> &'static str {
        match self {
            RequestError::NotFound => "not_found",
            RequestError::MethodNotAllowed => "method_not_allowed",
            RequestError::TargetTooLong => "target_too_long",
            RequestError::BodyTooLarge => "body_too_large",
            RequestError::TooSlow => "too_slow",
            RequestError::HeaderTooLong => "header_too_long",
            RequestError::NotJson => "not_json",
            RequestError::BadBody(_) => "bad_body",
            RequestError::BadSquare(_) => "bad_square",
            RequestError::BadMove(_) => "bad_move",
            RequestError::NotPaired => "not_paired",
            RequestError::WatcherCannotAct => "watcher",
            RequestError::WrongCode => "wrong_code",
            RequestError::PairingLocked => "pairing_locked",
            RequestError::SeatTaken => "seat_taken",
            RequestError::CodeNeededToWatch => "code_needed",
            RequestError::BadHost => "bad_host",
            RequestError::BadOrigin => "bad_origin",
            RequestError::TooManyRequests => "too_many_requests",
            RequestError::TooManyWatchers => "too_many_watchers",
        }
    }

    /// One sentence for the page (shown to the opponent, not spoken).
    pub fn message(&self) -> String {
        match self {
            RequestError::NotFound => "There is nothing at this address.".into(),
            RequestError::MethodNotAllowed => {
                "This address does not take that kind of request.".into()
            }
            RequestError::TargetTooLong => "The address is too long.".into(),
            RequestError::BodyTooLarge => {
                format!("The request is too long (at most {MAX_BODY} bytes).")
            }
            RequestError::HeaderTooLong => "A request header is too long.".into(),
            RequestError::TooSlow => "The request came too slowly.".into(),
            RequestError::NotJson => "The request must be JSON.".into(),
            RequestError::BadBody(why) => format!("The request is not understood: {why}."),
            RequestError::BadSquare(s) => format!("{s} is not a square."),
            RequestError::BadMove(why) => format!("That is not a move: {why}."),
            RequestError::NotPaired => "This page is not paired: enter the code again.".into(),
            RequestError::WatcherCannotAct => {
                "This page is watching: only the paired opponent can play.".into()
            }
            RequestError::WrongCode => {
                "Wrong code. Ask the player for the code hector said.".into()
            }
            RequestError::PairingLocked => {
                "Too many wrong codes. Wait a minute and try again.".into()
            }
            RequestError::SeatTaken => {
                "Another opponent is paired. The player can release them; until then you can watch."
                    .into()
            }
            RequestError::CodeNeededToWatch => "Enter the code to watch this game.".into(),
            RequestError::BadHost => {
                "This page was opened under an address hector does not serve.".into()
            }
            RequestError::BadOrigin => "Requests from other web sites are refused.".into(),
            RequestError::TooManyRequests => "Too many requests: wait a moment.".into(),
            RequestError::TooManyWatchers => "Too many pages are watching this game.".into(),
        }
    }

    /// The JSON body of the answer: `{"error": code, "message": sentence}`.
    pub fn to_json(&self) -> String {
        serde_json::json!({ "error": self.code(), "message": self.message() }).to_string()
    }
}

/// Read one request.  `headers` are (name, value) pairs as received; names
/// are compared without regard to case.  `body` is what was read (at most
/// `MAX_BODY + 1` bytes).
pub fn parse(
    method: &str,
    target: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Result<ApiRequest, RequestError> {
    if target.len() > MAX_TARGET {
        return Err(RequestError::TargetTooLong);
    }
    if body.len() > MAX_BODY {
        return Err(RequestError::BodyTooLarge);
    }
    let header = |name: &str| -> Result<Option<String>, RequestError> {
        match headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)) {
            None => Ok(None),
            Some((_, v)) if v.len() > MAX_HEADER_VALUE => Err(RequestError::HeaderTooLong),
            Some((_, v)) => Ok(Some(v.trim().to_owned())),
        }
    };
    let (path, query) = match target.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (target, None),
    };
    let host = header("host")?;
    let origin = header("origin")?;
    let mut token = header(TOKEN_HEADER)?;
    let is_get = method == "GET" || method == "HEAD";
    let route = match (path, method) {
        ("/", _) | ("/index.html", _) if is_get => Route::Page,
        ("/api/info", _) if is_get => Route::Info,
        ("/api/state", _) if is_get => Route::State,
        // A tournament game's action log (the gate gives it to the
        // arbiter's page only).
        ("/api/log", "GET") => Route::Log,
        ("/api/log", _) => return Err(RequestError::MethodNotAllowed),
        ("/events", _) if is_get => {
            if token.is_none() {
                token = query.and_then(query_token);
            }
            Route::Events
        }
        ("/api/pair", "POST") => {
            let body: PairBody = json_body(headers, body)?;
            Route::Pair {
                code: body.code.unwrap_or_default(),
                watch: body.watch.unwrap_or(false),
            }
        }
        ("/api/move", "POST") => {
            let body: MoveBody = json_body(headers, body)?;
            Route::Act(OpponentAction::Move(move_input(body)?))
        }
        ("/api/draw", "POST") => {
            let body: DrawBody = json_body(headers, body)?;
            Route::Act(match body.action.as_str() {
                "offer" => OpponentAction::OfferDraw,
                "accept" => OpponentAction::AcceptDraw,
                "decline" => OpponentAction::DeclineDraw,
                _ => {
                    return Err(RequestError::BadBody(
                        "action must be offer, accept or decline".into(),
                    ));
                }
            })
        }
        ("/api/takeback", "POST") => {
            let body: DrawBody = json_body(headers, body)?;
            Route::Act(match body.action.as_str() {
                "accept" => OpponentAction::AcceptTakeback,
                "refuse" => OpponentAction::RefuseTakeback,
                _ => {
                    return Err(RequestError::BadBody(
                        "action must be accept or refuse".into(),
                    ));
                }
            })
        }
        ("/api/claim", "POST") => {
            let body: MoveBody = json_body(headers, body)?;
            let intended = match body {
                MoveBody {
                    san: None,
                    from: None,
                    to: None,
                    promotion: None,
                } => None,
                body => Some(move_input(body)?),
            };
            Route::Act(OpponentAction::ClaimDraw(intended))
        }
        ("/api/resign", "POST") => {
            let body: ResignBody = json_body(headers, body)?;
            if !body.confirm {
                return Err(RequestError::BadBody(
                    "resigning needs confirm: true".into(),
                ));
            }
            Route::Act(OpponentAction::Resign)
        }
        // A tournament game's result, confirmed (the same body as a
        // resignation's: an explicit yes).
        ("/api/confirm", "POST") => {
            let body: ResignBody = json_body(headers, body)?;
            if !body.confirm {
                return Err(RequestError::BadBody(
                    "confirming needs confirm: true".into(),
                ));
            }
            Route::Act(OpponentAction::ConfirmResult)
        }
        ("/api/bye", "POST") => Route::Bye,
        // A tournament arbiter's function (the gate lets only the
        // arbiter's page give it).
        ("/api/arbiter", "POST") => Route::Arbiter(arbiter_request(json_body(headers, body)?)?),
        ("/api/arbiter", _) => return Err(RequestError::MethodNotAllowed),
        ("/" | "/index.html" | "/api/info" | "/api/state" | "/events", _) => {
            return Err(RequestError::MethodNotAllowed);
        }
        (
            "/api/pair" | "/api/move" | "/api/draw" | "/api/takeback" | "/api/claim"
            | "/api/resign" | "/api/bye",
            _,
        ) => {
            return Err(RequestError::MethodNotAllowed);
        }
        ("/api/confirm", _) => return Err(RequestError::MethodNotAllowed),
        _ => return Err(RequestError::NotFound),
    };
    Ok(ApiRequest {
        route,
        token,
        host,
        origin,
    })
}

fn query_token(query: &str) -> Option<String> {
    query.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=')?;
        (k == "token" && !v.is_empty() && v.len() <= 64 && v.bytes().all(|b| b.is_ascii_hexdigit()))
            .then(|| v.to_owned())
    })
}

fn json_body<T: for<'de> Deserialize<'de>>(
    headers: &[(&str, &str)],
    body: &[u8],
) -> Result<T, RequestError> {
    let json = headers.iter().any(|(n, v)| {
        n.eq_ignore_ascii_case("content-type")
            && v.trim()
                .to_ascii_lowercase()
                .starts_with("application/json")
    });
    if !json {
        return Err(RequestError::NotJson);
    }
    serde_json::from_slice(body).map_err(|e| RequestError::BadBody(short_serde_error(&e)))
}

fn short_serde_error(e: &serde_json::Error) -> String {
    use serde_json::error::Category;
    match e.classify() {
        Category::Syntax | Category::Eof => "it is not JSON".into(),
        Category::Data => {
            // serde's data errors name the field; keep them short.
            let s = e.to_string();
            let s = s.split(" at line").next().unwrap_or("wrong fields");
            // It names what the page sent: cleaned (issue 31).
            crate::words::cleaned(&s.chars().take(80).collect::<String>())
        }
        Category::Io => "it could not be read".into(),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PairBody {
    code: Option<String>,
    watch: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveBody {
    san: Option<String>,
    from: Option<String>,
    to: Option<String>,
    promotion: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DrawBody {
    action: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResignBody {
    confirm: bool,
}

/// The arbiter page's request: `{"op": "add", "side": "white", "seconds":
/// 120, "confirm": true}`; `op` one of stop, start, add, illegal, result
/// (`result`: "1-0", "0-1" or "1/2-1/2").
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ArbiterBody {
    op: String,
    #[serde(default)]
    side: Option<String>,
    #[serde(default)]
    seconds: Option<u32>,
    #[serde(default)]
    result: Option<String>,
    confirm: bool,
}

fn arbiter_request(body: ArbiterBody) -> Result<ArbiterRequest, RequestError> {
    let bad = |why: &str| RequestError::BadBody(why.to_owned());
    if !body.confirm {
        return Err(bad("an arbiter's function needs confirm: true"));
    }
    let side = || match body.side.as_deref() {
        Some("white") => Ok(shakmaty::Color::White),
        Some("black") => Ok(shakmaty::Color::Black),
        _ => Err(bad("side must be white or black")),
    };
    Ok(match body.op.as_str() {
        "stop" => ArbiterRequest::Stop,
        "start" => ArbiterRequest::Start,
        "add" => ArbiterRequest::Add {
            side: side()?,
            seconds: body
                .seconds
                .filter(|s| (1..=24 * 3600).contains(s))
                .ok_or_else(|| bad("seconds must be 1 to 86400"))?,
        },
        "illegal" => ArbiterRequest::Illegal(side()?),
        "result" => ArbiterRequest::Result(match body.result.as_deref() {
            Some("1-0") => Some(shakmaty::Color::White),
            Some("0-1") => Some(shakmaty::Color::Black),
            Some("1/2-1/2") => None,
            _ => return Err(bad("result must be 1-0, 0-1 or 1/2-1/2")),
        }),
        _ => return Err(bad("op must be stop, start, add, illegal or result")),
    })
}

/// The longest typed move looked at ("exd8=Q+" is 7; a little slack for
/// "O-O-O#" and spaces).
const MAX_SAN: usize = 12;

fn move_input(body: MoveBody) -> Result<MoveInput, RequestError> {
    match body {
        MoveBody {
            san: Some(san),
            from: None,
            to: None,
            promotion: None,
        } => {
            let san = san.trim();
            if san.is_empty() {
                return Err(RequestError::BadMove("it is empty".into()));
            }
            if san.chars().count() > MAX_SAN {
                return Err(RequestError::BadMove("it is too long".into()));
            }
            if !san
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-=+#x:!?".contains(c))
            {
                return Err(RequestError::BadMove(
                    "use letters, digits and - = + # x only".into(),
                ));
            }
            Ok(MoveInput::San(san.to_owned()))
        }
        MoveBody {
            san: None,
            from: Some(from),
            to: Some(to),
            promotion,
        } => {
            let square = |s: &str| -> Result<Square, RequestError> {
                // What the page sent is said back to it: cleaned of escape
                // sequences and control characters (issue 31).
                if s.len() != 2 {
                    let shown: String = s.chars().take(8).collect();
                    return Err(RequestError::BadSquare(crate::words::cleaned(&shown)));
                }
                s.parse::<Square>()
                    .map_err(|_| RequestError::BadSquare(crate::words::cleaned(s)))
            };
            let promotion = match promotion.as_deref() {
                None => None,
                Some("q") => Some(Role::Queen),
                Some("r") => Some(Role::Rook),
                Some("b") => Some(Role::Bishop),
                Some("n") => Some(Role::Knight),
                Some(_) => {
                    return Err(RequestError::BadMove("a promotion is q, r, b or n".into()));
                }
            };
            Ok(MoveInput::FromTo {
                from: square(&from)?,
                to: square(&to)?,
                promotion,
            })
        }
        _ => Err(RequestError::BadMove(
            "send either san, or from and to".into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const JSON: &[(&str, &str)] = &[
        ("Content-Type", "application/json"),
        ("Host", "127.0.0.1:8421"),
    ];

    fn post(path: &str, body: &str) -> Result<ApiRequest, RequestError> {
        parse("POST", path, JSON, body.as_bytes())
    }

    #[test]
    fn page_info_state_and_events() {
        assert_eq!(
            parse("GET", "/", &[], b"").map(|r| r.route),
            Ok(Route::Page)
        );
        assert_eq!(
            parse("GET", "/api/info", &[], b"").map(|r| r.route),
            Ok(Route::Info)
        );
        assert_eq!(
            parse("GET", "/api/state", &[], b"").map(|r| r.route),
            Ok(Route::State)
        );
        let ev = parse("GET", "/events?token=ab12", &[], b"").unwrap();
        assert_eq!(ev.route, Route::Events);
        assert_eq!(ev.token.as_deref(), Some("ab12"));
    }

    #[test]
    fn query_token_must_be_hex() {
        let ev = parse("GET", "/events?token=<script>", &[], b"").unwrap();
        assert_eq!(ev.token, None);
    }

    /// Issue 31: what the page sent is said back to it cleaned of escape
    /// sequences, control characters and bidirectional overrides.
    #[test]
    fn what_the_page_sent_comes_back_cleaned() {
        let hostile = [
            r#"{"from":"\u001b[","to":"e4"}"#,
            r#"{"from":"\u001b]0;x\u0007e2","to":"e4"}"#,
            r#"{"\u202e\u001b[2Jevil":1}"#,
        ];
        for body in hostile {
            let e = post("/api/move", body).unwrap_err();
            let json: serde_json::Value = serde_json::from_str(&e.to_json()).unwrap();
            let message = json["message"].as_str().unwrap();
            assert!(
                !message.chars().any(|c| c.is_control() || c == '\u{202e}'),
                "{body}: {message:?}"
            );
        }
    }

    #[test]
    fn moves_by_san_and_by_squares() {
        assert_eq!(
            post("/api/move", r#"{"san":" Nf3 "}"#).unwrap().route,
            Route::Act(OpponentAction::Move(MoveInput::San("Nf3".into())))
        );
        assert_eq!(
            post("/api/move", r#"{"from":"e7","to":"e8","promotion":"n"}"#)
                .unwrap()
                .route,
            Route::Act(OpponentAction::Move(MoveInput::FromTo {
                from: Square::E7,
                to: Square::E8,
                promotion: Some(Role::Knight)
            }))
        );
    }

    #[test]
    fn bad_moves_say_why() {
        assert_eq!(
            post("/api/move", r#"{"from":"e9","to":"e8"}"#),
            Err(RequestError::BadSquare("e9".into()))
        );
        assert!(matches!(
            post("/api/move", r#"{"san":"Nf3","from":"g1"}"#),
            Err(RequestError::BadMove(_))
        ));
        assert!(matches!(
            post("/api/move", r#"{"san":"<b>"}"#),
            Err(RequestError::BadMove(_))
        ));
        assert!(matches!(
            post("/api/move", r#"{"san":""}"#),
            Err(RequestError::BadMove(_))
        ));
        assert!(matches!(
            post("/api/move", r#"{"from":"e7","to":"e8","promotion":"k"}"#),
            Err(RequestError::BadMove(_))
        ));
        assert!(matches!(
            post("/api/move", r#"{"san":"Nf3","extra":1}"#),
            Err(RequestError::BadBody(_))
        ));
        assert!(matches!(
            post("/api/move", "Nf3"),
            Err(RequestError::BadBody(_))
        ));
    }

    #[test]
    fn draw_resign_pair_bye() {
        assert_eq!(
            post("/api/draw", r#"{"action":"offer"}"#).unwrap().route,
            Route::Act(OpponentAction::OfferDraw)
        );
        assert_eq!(
            post("/api/draw", r#"{"action":"accept"}"#).unwrap().route,
            Route::Act(OpponentAction::AcceptDraw)
        );
        assert_eq!(
            post("/api/draw", r#"{"action":"decline"}"#).unwrap().route,
            Route::Act(OpponentAction::DeclineDraw)
        );
        assert!(matches!(
            post("/api/draw", r#"{"action":"maybe"}"#),
            Err(RequestError::BadBody(_))
        ));
        assert_eq!(
            post("/api/resign", r#"{"confirm":true}"#).unwrap().route,
            Route::Act(OpponentAction::Resign)
        );
        assert!(matches!(
            post("/api/resign", r#"{"confirm":false}"#),
            Err(RequestError::BadBody(_))
        ));
        assert_eq!(
            post("/api/pair", r#"{"code":"1234"}"#).unwrap().route,
            Route::Pair {
                code: "1234".into(),
                watch: false
            }
        );
        assert_eq!(post("/api/bye", "").unwrap().route, Route::Bye);
    }

    /// A tournament game's confirmation of the result: an explicit yes,
    /// by POST only.
    #[test]
    fn a_confirmation_of_the_result_needs_an_explicit_yes() {
        assert_eq!(
            post("/api/confirm", r#"{"confirm":true}"#).unwrap().route,
            Route::Act(OpponentAction::ConfirmResult)
        );
        assert!(matches!(
            post("/api/confirm", r#"{"confirm":false}"#),
            Err(RequestError::BadBody(_))
        ));
        assert!(matches!(
            post("/api/confirm", "{}"),
            Err(RequestError::BadBody(_))
        ));
        assert_eq!(
            parse("GET", "/api/confirm", &[], b"").map(|r| r.route),
            Err(RequestError::MethodNotAllowed)
        );
    }

    /// The arbiter's functions: each needs an explicit yes and words it
    /// knows.
    #[test]
    fn an_arbiters_function_is_read_and_checked() {
        use shakmaty::Color;
        let route = |b: &str| post("/api/arbiter", b).map(|r| r.route);
        assert_eq!(
            route(r#"{"op":"add","side":"white","seconds":120,"confirm":true}"#),
            Ok(Route::Arbiter(ArbiterRequest::Add {
                side: Color::White,
                seconds: 120
            }))
        );
        assert_eq!(
            route(r#"{"op":"result","result":"1/2-1/2","confirm":true}"#),
            Ok(Route::Arbiter(ArbiterRequest::Result(None)))
        );
        assert_eq!(
            route(r#"{"op":"stop","confirm":true}"#),
            Ok(Route::Arbiter(ArbiterRequest::Stop))
        );
        for bad in [
            r#"{"op":"stop","confirm":false}"#,
            r#"{"op":"add","side":"white","seconds":0,"confirm":true}"#,
            r#"{"op":"add","side":"red","seconds":60,"confirm":true}"#,
            r#"{"op":"illegal","confirm":true}"#,
            r#"{"op":"result","result":"2-0","confirm":true}"#,
            r#"{"op":"flag","confirm":true}"#,
        ] {
            assert!(matches!(route(bad), Err(RequestError::BadBody(_))), "{bad}");
        }
    }

    #[test]
    fn actions_need_json_content_type() {
        assert_eq!(
            parse(
                "POST",
                "/api/move",
                &[("Content-Type", "text/plain")],
                br#"{"san":"e4"}"#
            ),
            Err(RequestError::NotJson)
        );
    }

    #[test]
    fn wrong_methods_and_paths() {
        assert_eq!(
            parse("GET", "/api/move", &[], b""),
            Err(RequestError::MethodNotAllowed)
        );
        assert_eq!(
            parse("DELETE", "/", &[], b""),
            Err(RequestError::MethodNotAllowed)
        );
        assert_eq!(
            parse("GET", "/etc/passwd", &[], b""),
            Err(RequestError::NotFound)
        );
    }

    #[test]
    fn oversized_parts_are_refused() {
        let long = "a".repeat(MAX_BODY + 1);
        assert_eq!(
            parse("POST", "/api/move", JSON, long.as_bytes()),
            Err(RequestError::BodyTooLarge)
        );
        let target = format!("/{}", "a".repeat(MAX_TARGET));
        assert_eq!(
            parse("GET", &target, &[], b""),
            Err(RequestError::TargetTooLong)
        );
        let token = "a".repeat(MAX_HEADER_VALUE + 1);
        assert_eq!(
            parse("GET", "/", &[(TOKEN_HEADER, token.as_str())], b""),
            Err(RequestError::HeaderTooLong)
        );
    }

    #[test]
    fn every_error_has_a_sentence_and_json() {
        let all = [
            RequestError::NotFound,
            RequestError::BadBody("x".into()),
            RequestError::SeatTaken,
            RequestError::TooManyWatchers,
        ];
        for e in all {
            assert!(e.message().ends_with('.'));
            let v: serde_json::Value = serde_json::from_str(&e.to_json()).unwrap();
            assert_eq!(v["error"], e.code());
            assert!((400..600).contains(&e.status()));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Arbitrary bytes anywhere: never a panic, and whatever is refused
        /// carries a 4xx/5xx status and a sentence.
        #[test]
        fn arbitrary_requests_never_panic(
            method in prop_oneof![Just("GET".to_string()), Just("POST".to_string()), "[A-Z]{0,8}"],
            path in prop_oneof![
                Just("/api/move".to_string()), Just("/api/pair".to_string()),
                Just("/api/draw".to_string()), Just("/events".to_string()),
                "/[ -~]{0,300}",
            ],
            ctype in prop_oneof![Just("application/json".to_string()), "[ -~]{0,40}"],
            token in "[ -~]{0,300}",
            body in proptest::collection::vec(any::<u8>(), 0..700),
        ) {
            let headers = [("content-type", ctype.as_str()), (TOKEN_HEADER, token.as_str())];
            match parse(&method, &path, &headers, &body) {
                Ok(req) => {
                    prop_assert!(body.len() <= MAX_BODY);
                    if let Route::Act(OpponentAction::Move(MoveInput::San(s))) = &req.route {
                        prop_assert!(s.chars().count() <= MAX_SAN);
                    }
                }
                Err(e) => {
                    prop_assert!(e.status() >= 400);
                    prop_assert!(!e.message().is_empty());
                }
            }
        }

        /// Structured but wrong JSON bodies for a move: refused or a move,
        /// never anything else.
        #[test]
        fn json_move_bodies(
            san in proptest::option::of("[ -~]{0,20}"),
            from in proptest::option::of("[a-j][0-9]{1,2}"),
            to in proptest::option::of("[a-j][0-9]{1,2}"),
            promo in proptest::option::of("[a-z]{0,2}"),
        ) {
            let body = serde_json::json!({"san": san, "from": from, "to": to, "promotion": promo});
            // Remove the nulls the way a browser would leave fields out.
            let body: serde_json::Map<String, serde_json::Value> = body.as_object().unwrap()
                .iter().filter(|(_, v)| !v.is_null()).map(|(k, v)| (k.clone(), v.clone())).collect();
            let text = serde_json::Value::Object(body).to_string();
            if let Ok(req) = post("/api/move", &text) {
                prop_assert!(matches!(req.route, Route::Act(OpponentAction::Move(_))));
            }
        }

        /// Oversized bodies are refused whatever they hold.
        #[test]
        fn oversized_bodies_refused(extra in 1usize..4096, byte in any::<u8>()) {
            let body = vec![byte; MAX_BODY + extra];
            prop_assert_eq!(parse("POST", "/api/move", JSON, &body), Err(RequestError::BodyTooLarge));
        }
    }
}
