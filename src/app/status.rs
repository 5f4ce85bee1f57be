//! What hector says of itself rather than of the game: how it speaks
//! (a screen reader, the system's voices, a fallback), whether it has
//! sound, and the problems found at start-up.

use super::voice::Voice;
use crate::audio::AudioStatus;
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
