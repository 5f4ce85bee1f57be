//! What hector says of itself rather than of the game: how it speaks
//! (a screen reader, the system's voices, a fallback), whether it has
//! sound, and the problems found at start-up.

use super::App;
use crate::audio::AudioStatus;
use crate::msg::{Effect, StartProblem};
use crate::speech::{Priority, SayKind, SpeechRoute, SpeechStatus};

impl App {
    /// The speech backend's news, in the player's words.
    pub(super) fn on_speech_status(&mut self, status: SpeechStatus, out: &mut Vec<Effect>) {
        match status {
            SpeechStatus::FellBack { reason, .. } => {
                // The reason in the player's words, not the library's.
                let why = self.message(reason.key(), &[]);
                let t = self.message("speech_fell_back", &[("why", &why)]);
                self.say(out, t, Priority::Normal, SayKind::Info);
            }
            SpeechStatus::Speaking { route } => {
                // Which way hector speaks, and why, once at start.
                let t = match route {
                    SpeechRoute::ScreenReader(reader) => {
                        self.message("speech_via_reader", &[("reader", &reader)])
                    }
                    SpeechRoute::SystemVoices { no_german } => {
                        let mut t = self.message("speech_via_voices", &[]);
                        if no_german {
                            t.push(' ');
                            t.push_str(&self.message("speech_no_german_voice", &[]));
                        }
                        t
                    }
                };
                self.say(out, t, Priority::Normal, SayKind::Info);
            }
            SpeechStatus::Reconnected { .. } => {
                let t = self.message("speech_back", &[]);
                self.say(out, t, Priority::Normal, SayKind::Info);
            }
            SpeechStatus::Began { .. } | SpeechStatus::Ended { .. } => {}
        }
    }

    /// Whether sounds can be played.
    pub(super) fn on_audio_status(&mut self, status: AudioStatus, out: &mut Vec<Effect>) {
        match status {
            AudioStatus::Unavailable { bell, .. } => {
                let key = if bell {
                    "sound_unavailable"
                } else {
                    "sound_unavailable_silent"
                };
                let t = self.message(key, &[]);
                self.say(out, t, Priority::Normal, SayKind::Info);
            }
            AudioStatus::Available => {}
        }
    }

    /// A problem found at start-up, said in the player's language (no
    /// error tone: the session has not begun).
    pub(super) fn on_problem(&mut self, p: &StartProblem, out: &mut Vec<Effect>) {
        let t = match p {
            StartProblem::Voice(e) => self.talk.phraser.voice_error(e),
            StartProblem::Setting(e) => self.talk.phraser.setting_error(e),
            StartProblem::Settings(e) => {
                let place = self.talk.phraser.place(&e.file, e.line, e.key.as_deref());
                self.message("config_error", &[("place", &place), ("detail", &e.detail)])
            }
        };
        self.say_quietly(out, t, SayKind::Error);
    }
}
