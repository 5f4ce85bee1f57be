//! What hector says of itself rather than of the game: how it speaks
//! (a screen reader, the system's voices, a fallback), whether it has
//! sound, and the problems found at start-up; and how the game ended, in
//! words ([`over_sentence`], [`over_state`]).

use shakmaty::{Color, Position};

use super::parts::Parts;
use super::voice::{Talk, Voice};
use crate::audio::AudioStatus;
use crate::game::{EndReason, Game};
use crate::msg::StartProblem;
use crate::speech::{Priority, SayKind, SpeechRoute, SpeechStatus};

/// The speech backend's news, in the player's words.
pub(super) fn speech(status: SpeechStatus, v: &mut Voice<'_>) {
    match status {
        SpeechStatus::FellBack { reason, .. } => {
            // The reason in the player's words, not the library's.
            let why = v.text(reason.key(), &[]);
            v.say_key(
                "speech_fell_back",
                &[("why", &why)],
                Priority::Normal,
                SayKind::Info,
            );
        }
        SpeechStatus::Speaking { route } => {
            // Which way hector speaks, and why, once at start.
            let t = match route {
                SpeechRoute::ScreenReader(reader) => {
                    v.text("speech_via_reader", &[("reader", &reader)])
                }
                SpeechRoute::SystemVoices { no_german } => {
                    let mut t = v.text("speech_via_voices", &[]);
                    if no_german {
                        t.push(' ');
                        t.push_str(&v.text("speech_no_german_voice", &[]));
                    }
                    t
                }
            };
            v.say(t, Priority::Normal, SayKind::Info);
        }
        SpeechStatus::Reconnected { .. } => {
            v.say_key("speech_back", &[], Priority::Normal, SayKind::Info);
        }
        SpeechStatus::Began { .. } | SpeechStatus::Ended { .. } => {}
    }
}

/// Whether sounds can be played.
pub(super) fn audio(status: AudioStatus, v: &mut Voice<'_>) {
    match status {
        AudioStatus::Unavailable { bell, .. } => {
            let key = if bell {
                "sound_unavailable"
            } else {
                "sound_unavailable_silent"
            };
            v.say_key(key, &[], Priority::Normal, SayKind::Info);
        }
        AudioStatus::Available => {}
    }
}

/// A problem found at start-up, said in the player's language (no error
/// tone: the session has not begun).
pub(super) fn problem(p: &StartProblem, v: &mut Voice<'_>) {
    let t = match p {
        StartProblem::Voice(e) => v.phraser().voice_error(e),
        StartProblem::Setting(e) => v.phraser().setting_error(e),
        StartProblem::File(e) => v.phraser().file_problem(e),
    };
    v.say_quietly(t, SayKind::Error);
}

/// How `game` ended, said as it ends; none while it goes on.
pub(super) fn over_sentence(game: &Game, parts: &Parts, talk: &Talk) -> Option<String> {
    let r = game.result()?;
    if let Some(side) = flag_drawn(game, parts) {
        return Some(talk.phraser.flag_fell_drawn(side));
    }
    Some(talk.phraser.game_over(r.reason, r.outcome.winner()))
}

/// The side whose flag fell, when the game ended drawn by it (the other
/// could not mate): said by name (issue 30, item 6).
fn flag_drawn(game: &Game, parts: &Parts) -> Option<Color> {
    let r = game.result()?;
    if r.reason != EndReason::TimeForfeit || r.outcome.winner().is_some() {
        return None;
    }
    parts.clock.as_ref()?.clock().flagged()
}

/// "Game over: White won by checkmate, one to zero. Say new for a new
/// game." (online, lichess's words); none while the game goes on.
pub(super) fn over_state(game: &Game, parts: &Parts, talk: &Talk) -> Option<String> {
    let r = game.result()?;
    if let Some(o) = &parts.online {
        return Some(o.over_state(talk, r.reason, r.outcome.winner()));
    }
    if let Some(side) = flag_drawn(game, parts) {
        return Some(talk.phraser.flag_fell_drawn_state(side));
    }
    Some(talk.phraser.game_over_state(r.reason, r.outcome.winner()))
}

/// The prompt of line mode for `game`: how it ended, what lichess waits
/// for, or whose move and the move number with a standing draw offer.
pub(super) fn prompt_of_game(game: &Game, parts: &Parts, talk: &Talk) -> String {
    if let Some(t) = over_state(game, parts, talk) {
        return t;
    }
    if let Some(t) = parts.online.as_ref().and_then(|o| o.waiting_prompt(talk)) {
        return t;
    }
    let pos = game.position();
    match game.pending_offer() {
        Some(by) if !pos.is_check() => {
            let side = talk.phraser.side(pos.turn());
            let offerer = talk.phraser.side(by);
            let number = pos.fullmoves().to_string();
            talk.text(
                "prompt_offer",
                &[("side", &side), ("number", &number), ("offerer", &offerer)],
            )
        }
        _ => talk.phraser.turn(pos),
    }
}

/// A game that has begun and not ended: leaving it loses something.
pub(super) fn in_progress(game: &Game) -> bool {
    !game.history().is_empty() && game.result().is_none()
}

/// The first sentence of a game: "New game. White to move.", or for a
/// game set up from a FEN or continued from a PGN file, whose move it is
/// there ("Game set up. Black to move, move 2.", `prompt` the turn).
pub(super) fn opening(game: &Game, talk: &Talk, prompt: &str) -> String {
    let standard = game.history().is_empty() && *game.start() == shakmaty::Chess::default();
    if standard {
        talk.text("new_game", &[])
    } else {
        talk.text("game_set_up", &[("turn", prompt)])
    }
}
