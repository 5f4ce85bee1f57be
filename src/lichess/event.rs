//! The lines of lichess's two NDJSON streams as typed events.
//!
//! `/api/stream/event` (the account's stream): `gameStart`, `gameFinish`,
//! `challenge`, `challengeCanceled`, `challengeDeclined`.
//! `/api/board/game/stream/{id}` (one game's stream): `gameFull`,
//! `gameState`, `chatLine`, `opponentGone`.
//!
//! A line is decoded by [`account_line`] or [`game_line`]: an empty line
//! (lichess sends one every few seconds to keep the stream open) is
//! `Ok(None)`, a kind we do not know is `Ok(Some(…::Other))`, fields we do
//! not know are ignored, and a line that is not the JSON the description
//! promises is an [`DecodeError`] — never a panic.

use serde::Deserialize;

/// One line of the account's event stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AccountEvent {
    /// A game of ours started (or is going on when the stream opens).
    GameStart(GameInfo),
    /// A game of ours ended.
    GameFinish(GameInfo),
    /// A challenge to us, or one we made.
    Challenge(Challenge),
    /// A challenge was withdrawn by the one who made it.
    ChallengeCanceled(Challenge),
    /// A challenge was declined (with the reason lichess gives, if any).
    ChallengeDeclined(Challenge),
    /// A kind of event this version does not know (ignored).
    Other,
}

/// One line of a game's stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameEvent {
    /// The whole game: always the first line of the stream.
    Full(Box<GameFull>),
    /// The moves, clocks, offers and status after a change.
    State(GameState),
    /// A line of the chat.
    Chat(ChatLine),
    /// The opponent left the game (or came back).
    OpponentGone {
        /// Whether the opponent is gone.
        gone: bool,
        /// In how many seconds a win may be claimed, when given.
        claim_win_in_seconds: Option<u32>,
    },
    /// A kind of event this version does not know (ignored).
    Other,
}

/// A line that is not what the API describes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    /// What was wrong (from the JSON reader), for the log; never spoken.
    pub detail: String,
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "not a lichess event: {}", self.detail)
    }
}

/// A side of the board as lichess writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// White.
    White,
    /// Black.
    Black,
}

/// A game as the account stream describes it (`GameEventInfo`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GameInfo {
    /// The game's id (eight characters).
    pub game_id: String,
    /// Our colour in it.
    #[serde(default)]
    pub color: Option<Side>,
    /// Whether it counts for rating.
    #[serde(default)]
    pub rated: bool,
    /// The opponent, when named.
    #[serde(default)]
    pub opponent: Option<InfoOpponent>,
    /// Whether it is our turn.
    #[serde(default)]
    pub is_my_turn: Option<bool>,
    /// The winner, once finished (none for a draw).
    #[serde(default)]
    pub winner: Option<Side>,
    /// Whether the Board API may play it (`compat.board`).
    #[serde(default)]
    pub compat: Option<Compat>,
    /// The variant (`standard`, `chess960`, `fromPosition`, …).
    #[serde(default)]
    pub variant: Option<Variant>,
    /// The speed (`blitz`, `correspondence`, …), when given.
    #[serde(default)]
    pub speed: Option<Speed>,
    /// Seconds left to the player on the clock, or until a correspondence
    /// move is due, when given.
    #[serde(default)]
    pub seconds_left: Option<u64>,
    /// How the game came about (`friend`, `lobby`, `ai`, `pool`, …).
    #[serde(default)]
    pub source: Option<String>,
    /// Whether the player has moved in it yet.
    #[serde(default)]
    pub has_moved: Option<bool>,
}

impl GameInfo {
    /// Whether the Board API may play this game: lichess says so in
    /// `compat.board` (`schemas/GameCompat.yaml`); a game without the field
    /// is taken as playable.
    #[must_use]
    pub fn board_compatible(&self) -> bool {
        self.compat.is_none_or(|c| c.board)
    }
}

/// A game's speed, as lichess reckons it (`schemas/Speed.yaml`): from the
/// start time plus forty moves' increment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Speed {
    /// Under 30 seconds, estimated.
    UltraBullet,
    /// Under 3 minutes.
    Bullet,
    /// Under 8 minutes.
    Blitz,
    /// Under 25 minutes.
    Rapid,
    /// 25 minutes or more.
    Classical,
    /// Days per move, no clock.
    Correspondence,
}

impl Speed {
    /// The speed of a clock of `limit_s` seconds plus `increment_s` a move:
    /// lichess's estimate, `limit + 40 × increment` (scalachess's
    /// `Speed.apply`: ultraBullet to 29 s, bullet to 179 s, blitz to 479 s,
    /// rapid to 1,499 s, classical beyond).
    #[must_use]
    pub fn of_clock(limit_s: u32, increment_s: u32) -> Self {
        let estimate = u64::from(limit_s) + 40 * u64::from(increment_s);
        match estimate {
            0..30 => Self::UltraBullet,
            30..180 => Self::Bullet,
            180..480 => Self::Blitz,
            480..1500 => Self::Rapid,
            _ => Self::Classical,
        }
    }
}

/// Why a challenge was declined (`declineReasonKey`, written lower case:
/// `schemas/ChallengeDeclinedJson.yaml`, `toofast`, `timecontrol`, …).
/// Read without regard to case, so `tooFast` (the form a decline is *sent*
/// with, `tags/challenges/api-challenge-challengeId-decline.yaml`) is read
/// too; a key not known is [`DeclineReason::Generic`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeclineReason {
    /// No reason given.
    Generic,
    /// Not now.
    Later,
    /// The time control is too fast for them.
    TooFast,
    /// Too slow for them.
    TooSlow,
    /// They do not play this time control.
    TimeControl,
    /// They would rather play rated.
    Rated,
    /// They would rather play casual.
    Casual,
    /// They play standard chess only.
    Standard,
    /// They do not play this variant.
    Variant,
    /// They do not play bots.
    NoBot,
    /// They play bots only.
    OnlyBot,
}

impl DeclineReason {
    /// The reason for a key, any case.
    #[must_use]
    pub fn from_key(key: &str) -> Self {
        match key.to_ascii_lowercase().as_str() {
            "later" => Self::Later,
            "toofast" => Self::TooFast,
            "tooslow" => Self::TooSlow,
            "timecontrol" => Self::TimeControl,
            "rated" => Self::Rated,
            "casual" => Self::Casual,
            "standard" => Self::Standard,
            "variant" => Self::Variant,
            "nobot" => Self::NoBot,
            "onlybot" => Self::OnlyBot,
            _ => Self::Generic,
        }
    }
}

fn decline_reason<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<DeclineReason>, D::Error> {
    Ok(Option::<String>::deserialize(d)?.map(|k| DeclineReason::from_key(&k)))
}

/// The opponent in [`GameInfo`].
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct InfoOpponent {
    /// Their user name (or the AI's name).
    #[serde(default, deserialize_with = "cleaned")]
    pub username: String,
    /// Their rating, when they have one.
    #[serde(default)]
    pub rating: Option<u32>,
    /// The AI's level (1 to 8), for lichess's own engine.
    #[serde(default)]
    pub ai: Option<u8>,
}

/// Which APIs may play a game or challenge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub struct Compat {
    /// Bots may play it.
    #[serde(default)]
    pub bot: bool,
    /// The Board API may play it.
    #[serde(default)]
    pub board: bool,
}

/// A challenge (`ChallengeJson`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Challenge {
    /// Its id (to accept or decline it).
    pub id: String,
    /// Who made it.
    pub challenger: Option<Player>,
    /// Who it is for (none for an open challenge).
    #[serde(default)]
    pub dest_user: Option<Player>,
    /// Whether the game would be rated.
    #[serde(default)]
    pub rated: bool,
    /// The variant; only standard chess is played here.
    #[serde(default)]
    pub variant: Option<Variant>,
    /// The time control.
    #[serde(default)]
    pub time_control: Option<TimeControl>,
    /// The colour asked for by the challenger (`white`, `black`, `random`).
    #[serde(default)]
    pub color: Option<String>,
    /// `in` (to us) or `out` (ours), when lichess says.
    #[serde(default)]
    pub direction: Option<String>,
    /// Why it was declined, for `challengeDeclined`.
    #[serde(default)]
    pub decline_reason: Option<String>,
    /// The same as a key (lower case on the wire): what hector says.
    #[serde(default, deserialize_with = "decline_reason")]
    pub decline_reason_key: Option<DeclineReason>,
    /// The speed, when given.
    #[serde(default)]
    pub speed: Option<Speed>,
    /// The position it starts from, for `fromPosition` and Chess960.
    #[serde(default)]
    pub initial_fen: Option<String>,
}

impl Challenge {
    /// Whether this is a standard-chess game (the only kind hector plays).
    #[must_use]
    pub fn is_standard(&self) -> bool {
        self.variant.as_ref().is_none_or(|v| v.key == "standard")
    }

    /// Whether `me` (a lichess id or name, any case) made it: lichess's
    /// event stream sends our own challenges too, with no `direction`
    /// (`tags/board/api-stream-event.yaml`: "A player sends you a
    /// challenge or you challenge someone").
    #[must_use]
    pub fn is_from(&self, me: &str) -> bool {
        self.challenger
            .as_ref()
            .is_some_and(|p| p.id.eq_ignore_ascii_case(me) || p.name.eq_ignore_ascii_case(me))
    }
}

/// A player as challenges and games name them.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Player {
    /// The lower-case id.
    #[serde(default)]
    pub id: String,
    /// The name as written.
    #[serde(default, deserialize_with = "cleaned")]
    pub name: String,
    /// The rating, when given.
    #[serde(default)]
    pub rating: Option<u32>,
    /// The title (`GM`, `BOT`, …), when there is one.
    #[serde(default, deserialize_with = "cleaned_opt")]
    pub title: Option<String>,
    /// lichess's AI level, for a game against its engine.
    #[serde(default, rename = "aiLevel")]
    pub ai_level: Option<u8>,
    /// Whether the rating is provisional.
    #[serde(default)]
    pub provisional: bool,
}

/// A variant (`key` is `standard` for chess).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Variant {
    /// The variant's key (`schemas/VariantKey.yaml`).
    pub key: String,
    /// Its name as lichess writes it (`Crazyhouse`), when given.
    #[serde(default)]
    pub name: Option<String>,
}

/// What hector makes of a variant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VariantKind {
    /// Standard chess from the start.
    Standard,
    /// Standard chess from a set-up position (`fromPosition`): castling is
    /// written king to rook.
    FromPosition,
    /// Chess960: castling written king to rook.
    Chess960,
    /// Another game hector does not play (crazyhouse, atomic, …): its name.
    Other(String),
}

impl Variant {
    /// The kind, by the key.
    #[must_use]
    pub fn kind(&self) -> VariantKind {
        match self.key.as_str() {
            "standard" => VariantKind::Standard,
            "fromPosition" => VariantKind::FromPosition,
            "chess960" => VariantKind::Chess960,
            _ => VariantKind::Other(self.name.clone().unwrap_or_else(|| self.key.clone())),
        }
    }
}

/// A challenge's time control.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum TimeControl {
    /// A clock: seconds at the start and seconds added per move.
    Clock {
        /// Seconds at the start.
        limit: u32,
        /// Seconds added after each move.
        increment: u32,
    },
    /// Days per move.
    Correspondence {
        /// Days for each move.
        #[serde(rename = "daysPerTurn", default)]
        days_per_turn: u32,
    },
    /// No clock.
    Unlimited,
}

/// The whole game, first line of a game's stream (`GameFullEvent`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GameFull {
    /// The game's id.
    pub id: String,
    /// The variant.
    #[serde(default)]
    pub variant: Option<Variant>,
    /// The clock's start and increment, in milliseconds (none without a
    /// clock).
    #[serde(default)]
    pub clock: Option<FullClock>,
    /// Whether it counts for rating.
    #[serde(default)]
    pub rated: bool,
    /// White.
    pub white: Player,
    /// Black.
    pub black: Player,
    /// The starting position (`startpos` or a FEN).
    #[serde(default = "startpos")]
    pub initial_fen: String,
    /// The moves, clocks and status now.
    pub state: GameState,
    /// The speed (`correspondence` for a game of days).
    #[serde(default)]
    pub speed: Option<Speed>,
    /// Days per move, for a correspondence game (which has no clock).
    #[serde(default)]
    pub days_per_turn: Option<u32>,
}

impl GameFull {
    /// The variant's kind (standard when lichess does not say).
    #[must_use]
    pub fn variant_kind(&self) -> VariantKind {
        self.variant
            .as_ref()
            .map_or(VariantKind::Standard, Variant::kind)
    }

    /// Whether it is a correspondence game (days per move, no clock).
    #[must_use]
    pub fn is_correspondence(&self) -> bool {
        self.speed == Some(Speed::Correspondence) || self.days_per_turn.is_some()
    }
}

fn startpos() -> String {
    "startpos".to_owned()
}

/// A game's clock in [`GameFull`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub struct FullClock {
    /// Milliseconds at the start.
    pub initial: u64,
    /// Milliseconds added after each move.
    pub increment: u64,
}

/// The state of a game (`GameStateEvent`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct GameState {
    /// All the moves from the start, UCI, separated by spaces.
    #[serde(default)]
    pub moves: String,
    /// White's time left, milliseconds.
    #[serde(default)]
    pub wtime: u64,
    /// Black's time left, milliseconds.
    #[serde(default)]
    pub btime: u64,
    /// White's increment, milliseconds.
    #[serde(default)]
    pub winc: u64,
    /// Black's increment, milliseconds.
    #[serde(default)]
    pub binc: u64,
    /// `started`, `mate`, `resign`, … (see [`GameState::is_over`]).
    #[serde(default = "started")]
    pub status: String,
    /// The winner, once over (none for a draw).
    #[serde(default)]
    pub winner: Option<Side>,
    /// White offers a draw.
    #[serde(default)]
    pub wdraw: bool,
    /// Black offers a draw.
    #[serde(default)]
    pub bdraw: bool,
    /// White proposes a takeback.
    #[serde(default)]
    pub wtakeback: bool,
    /// Black proposes a takeback.
    #[serde(default)]
    pub btakeback: bool,
    /// Before each side's first move: the time left to make it, after which
    /// lichess aborts the game (`schemas/GameStateEvent.yaml`).
    #[serde(default)]
    pub expiration: Option<Expiration>,
}

/// The first move's deadline (`expiration` in a `gameState`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Expiration {
    /// Milliseconds since the last move, or since the game began.
    pub idle_millis: u64,
    /// Milliseconds each side has for its first move.
    pub millis_to_move: u64,
}

impl Expiration {
    /// Milliseconds left before the game is aborted, as the state was sent.
    #[must_use]
    pub fn millis_left(&self) -> u64 {
        self.millis_to_move.saturating_sub(self.idle_millis)
    }
}

fn started() -> String {
    "started".to_owned()
}

impl GameState {
    /// Whether the game is over (any status but `created` and `started`).
    #[must_use]
    pub fn is_over(&self) -> bool {
        !matches!(self.status.as_str(), "created" | "started")
    }

    /// The moves, one UCI string each.
    pub fn move_list(&self) -> impl Iterator<Item = &str> {
        self.moves.split_whitespace()
    }
}

/// A line of the chat (`ChatLineEvent`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ChatLine {
    /// `player` or `spectator`.
    #[serde(default)]
    pub room: String,
    /// Who wrote it (`lichess` for the server's own notes).
    #[serde(default, deserialize_with = "cleaned")]
    pub username: String,
    /// What they wrote.
    #[serde(default, deserialize_with = "cleaned")]
    pub text: String,
}

/// A name or a chat line from lichess: text from outside, cleaned of
/// escape sequences and control characters before it is said, shown or
/// journalled (issue 31: an opponent's name reached the terminal raw).
pub(super) fn cleaned<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let s = String::deserialize(d)?;
    Ok(crate::words::cleaned(&s))
}

/// The same for a text that may be missing or `null` (a title).
fn cleaned_opt<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let s = Option::<String>::deserialize(d)?;
    Ok(s.map(|s| crate::words::cleaned(&s)))
}

impl ChatLine {
    /// Whether lichess itself wrote it (its notes and warnings).
    #[must_use]
    pub fn is_from_lichess(&self) -> bool {
        self.username.eq_ignore_ascii_case("lichess")
    }

    /// lichess's warning to a player in the chat, when this line is one.
    /// lila writes them as "Warning, {user}. Failing to start games will
    /// result in a temporary ban." (or as the translation key
    /// `playbanFeedbackNoStart`): lila's
    /// `modules/playban/src/main/PlaybanFeedback.scala`.  Read loosely,
    /// for lichess's words may change; any other warning of a ban is
    /// [`Warning::Other`].
    #[must_use]
    pub fn warning(&self) -> Option<Warning> {
        if !self.is_from_lichess() {
            return None;
        }
        let t = self.text.to_lowercase();
        let has = |words: &[&str]| words.iter().any(|w| t.contains(w));
        if !has(&["warning", "playbanfeedback", "ban"]) {
            return None;
        }
        Some(if has(&["failing to start", "nostart"]) {
            Warning::NoStart
        } else if has(&["aborting", "feedbackabort"]) {
            Warning::Abort
        } else if has(&["leaving games", "ragequit"]) {
            Warning::RageQuit
        } else if has(&["time run out", "sitting"]) {
            Warning::Sitting
        } else if has(&["resigning games", "quickresign", "resigning too"]) {
            Warning::QuickResign
        } else {
            Warning::Other
        })
    }
}

/// What lichess warns a player of, in its chat (a temporary ban follows
/// if it goes on).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Warning {
    /// Aborting too many games.
    Abort,
    /// Not making the first move in time.
    NoStart,
    /// Leaving games without resigning.
    RageQuit,
    /// Letting the time run out instead of resigning.
    Sitting,
    /// Resigning games too quickly.
    QuickResign,
    /// Another warning.
    Other,
}

#[derive(Deserialize)]
struct Tagged {
    #[serde(rename = "type")]
    kind: String,
}

#[derive(Deserialize)]
struct WithGame {
    game: GameInfo,
}

#[derive(Deserialize)]
struct WithChallenge {
    challenge: Challenge,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Gone {
    gone: bool,
    #[serde(default)]
    claim_win_in_seconds: Option<u32>,
}

fn error(e: &serde_json::Error) -> DecodeError {
    DecodeError {
        detail: e.to_string(),
    }
}

fn tag(line: &str) -> Result<Option<String>, DecodeError> {
    if line.trim().is_empty() {
        return Ok(None);
    }
    serde_json::from_str::<Tagged>(line)
        .map(|t| Some(t.kind))
        .map_err(|e| error(&e))
}

/// One line of the account's event stream.
///
/// # Errors
///
/// The line is not JSON, has no `type`, or a known kind lacks a field the
/// description requires.
pub fn account_line(line: &str) -> Result<Option<AccountEvent>, DecodeError> {
    let Some(kind) = tag(line)? else {
        return Ok(None);
    };
    let game = |f: fn(GameInfo) -> AccountEvent| {
        serde_json::from_str::<WithGame>(line)
            .map(|w| f(w.game))
            .map_err(|e| error(&e))
    };
    let challenge = |f: fn(Challenge) -> AccountEvent| {
        serde_json::from_str::<WithChallenge>(line)
            .map(|w| f(w.challenge))
            .map_err(|e| error(&e))
    };
    let event = match kind.as_str() {
        "gameStart" => game(AccountEvent::GameStart)?,
        "gameFinish" => game(AccountEvent::GameFinish)?,
        "challenge" => challenge(AccountEvent::Challenge)?,
        "challengeCanceled" => challenge(AccountEvent::ChallengeCanceled)?,
        "challengeDeclined" => challenge(AccountEvent::ChallengeDeclined)?,
        _ => AccountEvent::Other,
    };
    Ok(Some(event))
}

/// One line of a game's stream.
///
/// # Errors
///
/// The line is not JSON, has no `type`, or a known kind lacks a field the
/// description requires.
pub fn game_line(line: &str) -> Result<Option<GameEvent>, DecodeError> {
    let Some(kind) = tag(line)? else {
        return Ok(None);
    };
    let event = match kind.as_str() {
        "gameFull" => GameEvent::Full(Box::new(serde_json::from_str(line).map_err(|e| error(&e))?)),
        "gameState" => GameEvent::State(serde_json::from_str(line).map_err(|e| error(&e))?),
        "chatLine" => GameEvent::Chat(serde_json::from_str(line).map_err(|e| error(&e))?),
        "opponentGone" => {
            let g: Gone = serde_json::from_str(line).map_err(|e| error(&e))?;
            GameEvent::OpponentGone {
                gone: g.gone,
                claim_win_in_seconds: g.claim_win_in_seconds,
            }
        }
        _ => GameEvent::Other,
    };
    Ok(Some(event))
}

/// Cuts a byte stream into lines: bytes in as they arrive, whole lines out.
/// A line longer than [`Lines::MAX`] is dropped whole (reported as an
/// error line) so a broken server cannot fill the memory.
#[derive(Debug, Default)]
pub struct Lines {
    buf: Vec<u8>,
    overlong: bool,
}

/// A line from [`Lines`]: its text, or the fact it was too long or not
/// UTF-8.
pub type LineResult = Result<String, DecodeError>;

impl Lines {
    /// The longest line kept (a `gameFull` of a long game is a few KiB).
    pub const MAX: usize = 1 << 20;

    /// Takes the next bytes, gives back every line they complete.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<LineResult> {
        let mut out = Vec::new();
        for chunk in bytes.split_inclusive(|&b| b == b'\n') {
            let complete = chunk.last() == Some(&b'\n');
            let body = if complete {
                &chunk[..chunk.len() - 1]
            } else {
                chunk
            };
            if !self.overlong {
                if self.buf.len() + body.len() > Self::MAX {
                    self.overlong = true;
                    self.buf.clear();
                } else {
                    self.buf.extend_from_slice(body);
                }
            }
            if complete {
                if self.overlong {
                    out.push(Err(DecodeError {
                        detail: "line too long".to_owned(),
                    }));
                } else {
                    let line = std::mem::take(&mut self.buf);
                    out.push(String::from_utf8(line).map_err(|_| DecodeError {
                        detail: "not UTF-8".to_owned(),
                    }));
                }
                self.overlong = false;
                self.buf.clear();
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME_START: &str = r#"{"type":"gameStart","game":{"fullId":"0FgNPGRzhDaW","gameId":"0FgNPGRz","fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","color":"white","lastMove":"","source":"friend","status":{"id":20,"name":"started"},"variant":{"key":"standard","name":"Standard"},"speed":"blitz","perf":"blitz","rated":true,"hasMoved":false,"opponent":{"id":"aaron","username":"Aaron","rating":776},"isMyTurn":true,"secondsLeft":300,"rating":724,"compat":{"bot":false,"board":true},"id":"0FgNPGRz"}}"#;

    const CHALLENGE: &str = r#"{"type":"challenge","challenge":{"id":"H9fIRZUk","url":"https://lichess.org/H9fIRZUk","status":"created","challenger":{"id":"bot1","name":"Bot1","rating":1500,"title":"BOT","provisional":true,"online":true,"lag":4},"destUser":{"id":"bobby","name":"Bobby","rating":1635,"title":"GM"},"variant":{"key":"standard","name":"Standard","short":"Std"},"rated":true,"speed":"rapid","timeControl":{"type":"clock","limit":600,"increment":5,"show":"10+5"},"color":"random","finalColor":"black","perf":{"icon":"","name":"Rapid"},"direction":"in"},"compat":{"bot":false,"board":true}}"#;

    const GAME_FULL: &str = r#"{"id":"BEOucQJo","variant":{"key":"standard","name":"Standard","short":"Std"},"speed":"rapid","perf":{"name":"Rapid"},"rated":false,"createdAt":1745112707998,"white":{"id":"bobby","name":"Bobby","title":null,"rating":1751},"black":{"id":"mary","name":"Mary","title":null,"rating":1021},"initialFen":"startpos","clock":{"initial":900000,"increment":0},"type":"gameFull","state":{"type":"gameState","moves":"d2d3","wtime":900000,"btime":900000,"winc":0,"binc":0,"status":"started"}}"#;

    #[test]
    fn game_start_is_read_with_opponent_and_colour() {
        let Some(AccountEvent::GameStart(g)) = account_line(GAME_START).unwrap() else {
            panic!("not a gameStart");
        };
        assert_eq!(g.game_id, "0FgNPGRz");
        assert_eq!(g.color, Some(Side::White));
        assert!(g.rated);
        let o = g.opponent.clone().unwrap();
        assert_eq!((o.username.as_str(), o.rating), ("Aaron", Some(776)));
        assert_eq!(g.compat.map(|c| c.board), Some(true));
        assert!(g.board_compatible());
        assert_eq!(g.speed, Some(Speed::Blitz));
        assert_eq!(g.seconds_left, Some(300));
        assert_eq!(g.source.as_deref(), Some("friend"));
        assert_eq!(g.has_moved, Some(false));
        assert_eq!(g.variant.map(|v| v.kind()), Some(VariantKind::Standard));
    }

    #[test]
    fn declines_are_read_lower_case_and_any_case() {
        // schemas/ChallengeDeclinedJson.yaml: lower case on the wire.
        for (key, want) in [
            ("generic", DeclineReason::Generic),
            ("later", DeclineReason::Later),
            ("toofast", DeclineReason::TooFast),
            ("tooFast", DeclineReason::TooFast),
            ("tooslow", DeclineReason::TooSlow),
            ("timecontrol", DeclineReason::TimeControl),
            ("rated", DeclineReason::Rated),
            ("casual", DeclineReason::Casual),
            ("standard", DeclineReason::Standard),
            ("variant", DeclineReason::Variant),
            ("nobot", DeclineReason::NoBot),
            ("onlybot", DeclineReason::OnlyBot),
            ("somethingNew", DeclineReason::Generic),
        ] {
            assert_eq!(DeclineReason::from_key(key), want, "{key}");
        }
    }

    #[test]
    fn an_ai_game_a_correspondence_game_variants_and_the_deadline_are_read() {
        // examples/stream-gameStart-ai.json.yaml
        let ai = r#"{"type":"gameStart","game":{"fullId":"RwDo6DN68b8x","gameId":"RwDo6DN6","color":"black","source":"ai","variant":{"key":"standard","name":"Standard"},"speed":"correspondence","perf":"correspondence","rated":false,"hasMoved":false,"opponent":{"id":null,"username":"Stockfish level 1","ai":1},"isMyTurn":false,"compat":{"bot":false,"board":true},"id":"RwDo6DN6"}}"#;
        let Some(AccountEvent::GameStart(g)) = account_line(ai).unwrap() else {
            panic!("not a gameStart");
        };
        assert_eq!(g.opponent.and_then(|o| o.ai), Some(1));
        assert_eq!(g.speed, Some(Speed::Correspondence));
        let bullet = GAME_START.replace(r#""board":true"#, r#""board":false"#);
        let Some(AccountEvent::GameStart(g)) = account_line(&bullet).unwrap() else {
            panic!("not a gameStart");
        };
        assert!(!g.board_compatible());
        let full = GAME_FULL
            .replace(
                r#""key":"standard","name":"Standard""#,
                r#""key":"crazyhouse","name":"Crazyhouse""#,
            )
            .replace(
                r#""clock":{"initial":900000,"increment":0},"#,
                r#""daysPerTurn":3,"#,
            )
            .replace(r#""speed":"rapid""#, r#""speed":"correspondence""#)
            .replace(
                r#""status":"started"}"#,
                r#""status":"started","expiration":{"idleMillis":5000,"millisToMove":30000}}"#,
            );
        let Some(GameEvent::Full(f)) = game_line(&full).unwrap() else {
            panic!("not a gameFull");
        };
        assert_eq!(f.variant_kind(), VariantKind::Other("Crazyhouse".into()));
        assert!(f.is_correspondence() && f.clock.is_none());
        assert_eq!(f.days_per_turn, Some(3));
        assert_eq!(f.state.expiration.map(|e| e.millis_left()), Some(25_000));
        // The AI in a gameFull: its level, no id, no name.
        let ai_full = GAME_FULL.replace(
            r#"{"id":"mary","name":"Mary","title":null,"rating":1021}"#,
            r#"{"aiLevel":3}"#,
        );
        let Some(GameEvent::Full(f)) = game_line(&ai_full).unwrap() else {
            panic!("not a gameFull");
        };
        assert_eq!((f.black.ai_level, f.black.name.as_str()), (Some(3), ""));
    }

    #[test]
    fn lichess_warnings_in_the_chat_are_recognised() {
        let line = |user: &str, text: &str| ChatLine {
            room: "player".into(),
            username: user.into(),
            text: text.into(),
        };
        // lila's PlaybanFeedback, in English and as a translation key.
        for (text, want) in [
            (
                "Warning, bob. Failing to start games will result in a temporary ban.",
                Warning::NoStart,
            ),
            (
                "Warning, bob. Aborting too many games will result in a temporary ban.",
                Warning::Abort,
            ),
            (
                "Warning, bob. Leaving games without resigning will result in a temporary ban.",
                Warning::RageQuit,
            ),
            (
                "Warning, bob. Letting time run out instead of resigning will result in a temporary ban.",
                Warning::Sitting,
            ),
            ("i18n.playbanFeedbackNoStart bob", Warning::NoStart),
            ("Warning: something new that may ban you", Warning::Other),
        ] {
            assert_eq!(line("lichess", text).warning(), Some(want), "{text}");
        }
        assert_eq!(line("lichess", "Takeback sent").warning(), None);
        assert_eq!(line("mary", "Warning, you will be banned").warning(), None);
        assert!(line("Lichess", "x").is_from_lichess());
    }

    #[test]
    fn challenge_kinds_are_read_with_time_control() {
        let Some(AccountEvent::Challenge(c)) = account_line(CHALLENGE).unwrap() else {
            panic!("not a challenge");
        };
        assert_eq!(c.id, "H9fIRZUk");
        assert_eq!(c.challenger.as_ref().map(|p| p.name.as_str()), Some("Bot1"));
        assert_eq!(
            c.time_control,
            Some(TimeControl::Clock {
                limit: 600,
                increment: 5
            })
        );
        assert!(c.rated && c.is_standard());
        let canceled =
            CHALLENGE.replacen(r#""type":"challenge""#, r#""type":"challengeCanceled""#, 1);
        assert!(matches!(
            account_line(&canceled).unwrap(),
            Some(AccountEvent::ChallengeCanceled(c)) if c.id == "H9fIRZUk"
        ));
        let declined = CHALLENGE
            .replacen(r#""type":"challenge""#, r#""type":"challengeDeclined""#, 1)
            .replacen(r#""direction":"in""#, r#""direction":"out","declineReason":"I'm not accepting challenges at the moment.","declineReasonKey":"later""#, 1);
        let Some(AccountEvent::ChallengeDeclined(c)) = account_line(&declined).unwrap() else {
            panic!("not a decline");
        };
        assert_eq!(c.decline_reason_key, Some(DeclineReason::Later));
        assert!(c.decline_reason.unwrap().starts_with("I'm not"));
        let finish = GAME_START.replacen("gameStart", "gameFinish", 1);
        assert!(matches!(
            account_line(&finish).unwrap(),
            Some(AccountEvent::GameFinish(_))
        ));
    }

    #[test]
    fn game_full_carries_players_clock_and_state() {
        let Some(GameEvent::Full(g)) = game_line(GAME_FULL).unwrap() else {
            panic!("not a gameFull");
        };
        assert_eq!(g.id, "BEOucQJo");
        assert_eq!(g.white.name, "Bobby");
        assert_eq!(g.black.rating, Some(1021));
        assert_eq!(g.white.title, None);
        assert_eq!(
            g.clock,
            Some(FullClock {
                initial: 900_000,
                increment: 0
            })
        );
        assert_eq!(g.initial_fen, "startpos");
        assert_eq!(g.state.move_list().collect::<Vec<_>>(), ["d2d3"]);
        assert!(!g.state.is_over());
    }

    /// Issue 31: names, titles and chat from lichess are cleaned of
    /// escape sequences and control characters as they are read.
    #[test]
    fn names_titles_and_chat_are_read_clean() {
        let p: Player = serde_json::from_str(
            r#"{"id":"x","name":"Ma\u001b]0;pwned\u0007ry","title":"G\u001b[2JM\u202e"}"#,
        )
        .unwrap();
        assert_eq!((p.name.as_str(), p.title.as_deref()), ("Mary", Some("GM")));
        let p: Player = serde_json::from_str(r#"{"id":"x","name":"Bob","title":null}"#).unwrap();
        assert_eq!(p.title, None);
        let o: InfoOpponent = serde_json::from_str(r#"{"username":"A\u001b[8mnna"}"#).unwrap();
        assert_eq!(o.username, "Anna");
    }

    #[test]
    fn game_state_chat_and_gone_are_read() {
        let state = r#"{"type":"gameState","moves":"e2e4 c7c5","wtime":7598040,"btime":8395220,"winc":10000,"binc":10000,"wdraw":false,"bdraw":true,"status":"started"}"#;
        let Some(GameEvent::State(s)) = game_line(state).unwrap() else {
            panic!("not a state");
        };
        assert_eq!(s.move_list().count(), 2);
        assert!(s.bdraw && !s.wdraw && !s.wtakeback);
        assert_eq!((s.wtime, s.binc), (7_598_040, 10_000));
        let over = r#"{"type":"gameState","moves":"f2f3 e7e5 g2g4 d8h4","wtime":1,"btime":2,"winc":0,"binc":0,"status":"mate","winner":"black"}"#;
        let Some(GameEvent::State(s)) = game_line(over).unwrap() else {
            panic!("not a state");
        };
        assert!(s.is_over());
        assert_eq!(s.winner, Some(Side::Black));
        let chat = r#"{"type":"chatLine","username":"thibault","text":"Good luck, have fun","room":"player"}"#;
        assert_eq!(
            game_line(chat).unwrap(),
            Some(GameEvent::Chat(ChatLine {
                room: "player".into(),
                username: "thibault".into(),
                text: "Good luck, have fun".into()
            }))
        );
        let gone = r#"{"type":"opponentGone","gone":true,"claimWinInSeconds":8}"#;
        assert_eq!(
            game_line(gone).unwrap(),
            Some(GameEvent::OpponentGone {
                gone: true,
                claim_win_in_seconds: Some(8)
            })
        );
    }

    #[test]
    fn keep_alive_unknown_and_malformed_lines() {
        assert_eq!(game_line("").unwrap(), None);
        assert_eq!(account_line("  \r").unwrap(), None);
        assert_eq!(
            game_line(r#"{"type":"somethingNew","x":1}"#).unwrap(),
            Some(GameEvent::Other)
        );
        assert_eq!(
            account_line(r#"{"type":"somethingNew"}"#).unwrap(),
            Some(AccountEvent::Other)
        );
        for bad in [
            "{",
            "null",
            "[]",
            r#"{"no":"type"}"#,
            r#"{"type":5}"#,
            r#"{"type":"gameState","moves":7}"#,
            r#"{"type":"gameFull","id":"x"}"#,
            r#"{"type":"gameStart"}"#,
            r#"{"type":"opponentGone"}"#,
        ] {
            assert!(
                game_line(bad).is_err() || account_line(bad).is_err(),
                "{bad}"
            );
        }
        assert!(game_line(r#"{"type":"gameState","moves":7}"#).is_err());
        assert!(account_line(r#"{"type":"challenge","challenge":{}}"#).is_err());
    }

    #[test]
    fn lines_are_cut_across_chunks() {
        let mut l = Lines::default();
        assert!(l.push(b"{\"a\"").is_empty());
        let out = l.push(b":1}\n\n{\"b\":2}\n{\"c");
        assert_eq!(
            out,
            vec![
                Ok("{\"a\":1}".to_owned()),
                Ok(String::new()),
                Ok("{\"b\":2}".to_owned())
            ]
        );
        assert_eq!(l.push(b"\":3}\n"), vec![Ok("{\"c\":3}".to_owned())]);
        assert!(l.push(&[0xff, b'\n'])[0].is_err());
    }

    #[test]
    fn an_overlong_line_is_dropped_whole_and_the_next_is_read() {
        let mut l = Lines::default();
        let big = vec![b'x'; Lines::MAX / 2 + 1];
        assert!(l.push(&big).is_empty());
        assert!(l.push(&big).is_empty());
        let out = l.push(b"tail\n{}\n");
        assert_eq!(out.len(), 2);
        assert!(out[0].is_err());
        assert_eq!(out[1], Ok("{}".to_owned()));
    }

    proptest::proptest! {
        #[test]
        fn no_line_panics(s in ".{0,300}") {
            let _ = game_line(&s);
            let _ = account_line(&s);
        }

        #[test]
        fn no_json_panics(fields in proptest::collection::vec(("[a-zA-Z]{1,10}", "(null|true|1|-1|\"x\"|\\[\\]|\\{\\})"), 0..8),
                          kind in "(gameFull|gameState|chatLine|opponentGone|gameStart|gameFinish|challenge|challengeCanceled|challengeDeclined|x)") {
            let body: Vec<String> = fields.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect();
            let line = format!("{{\"type\":\"{kind}\",{}}}", body.join(","));
            let _ = game_line(&line);
            let _ = account_line(&line);
        }
    }
}
