//! Linux: speech-dispatcher, spoken to directly.
//!
//! The `tts` crate wraps the same library, but selecting a voice through it
//! re-lists every voice of the engine on each call (13 000 espeak-ng voices,
//! 1.4 s measured), which a game that switches between a German move voice and
//! the message language cannot afford.  `SET SELF LANGUAGE` takes one round
//! trip and lets the daemon pick its voice for that language.

use speech_dispatcher::{Connection, Mode, Priority as SdPriority};

use super::backend::{
    BackendEvent, EventSink, Range, SpeechBackend, SpeechError, SpeechSettings, Started, VoiceInfo,
    c_safe,
};

/// speech-dispatcher's ranges (SSIP: rate and pitch −100..100, normal 0;
/// volume −100..100, normal 100).
const RATE: Range = Range {
    min: -100.0,
    normal: 0.0,
    max: 100.0,
};
const PITCH: Range = RATE;
const VOLUME: Range = Range {
    min: -100.0,
    normal: 100.0,
    max: 100.0,
};

/// A connection to speech-dispatcher (the address comes from
/// `SPEECHD_ADDRESS`, else the user's default socket).
pub struct SpeechDispatcherBackend {
    conn: Connection,
    lang: Option<String>,
}

impl SpeechDispatcherBackend {
    /// Connect and route the begin/end/cancel notifications to `events`.
    pub fn open(events: EventSink) -> Result<Self, SpeechError> {
        let conn = Connection::open("hector", "speech", "hector", Mode::Threaded)
            .map_err(|e| SpeechError::Unavailable(format!("speech-dispatcher: {e}")))?;
        let sink = events.clone();
        conn.on_begin(Some(Box::new(move |msg, _client| {
            sink.send(BackendEvent::Began(msg as u64))
        })));
        let sink = events.clone();
        conn.on_end(Some(Box::new(move |msg, _client| {
            sink.send(BackendEvent::Ended(msg as u64))
        })));
        let sink = events;
        conn.on_cancel(Some(Box::new(move |msg, _client| {
            sink.send(BackendEvent::Stopped(msg as u64))
        })));
        Ok(SpeechDispatcherBackend { conn, lang: None })
    }
}

fn failed(what: &str) -> impl FnOnce(speech_dispatcher::Error) -> SpeechError + '_ {
    move |e| SpeechError::Failed(format!("speech-dispatcher {what}: {e}"))
}

impl SpeechBackend for SpeechDispatcherBackend {
    fn name(&self) -> String {
        "speech-dispatcher".into()
    }

    fn speak(&mut self, text: &str, lang: &str) -> Result<Started, SpeechError> {
        let lang = c_safe(lang);
        if !lang.is_empty() && self.lang.as_deref() != Some(lang.as_str()) {
            self.conn
                .set_language(lang.as_str())
                .map_err(failed("set language"))?;
            self.lang = Some(lang.clone());
        }
        let id = self
            .conn
            .say(SdPriority::Important, c_safe(text))
            .ok_or_else(|| SpeechError::Failed("speech-dispatcher refused the text".into()))?;
        Ok(Started {
            id: Some(id),
            voice: self.lang.as_ref().map(|l| format!("language {l}")),
        })
    }

    fn stop(&mut self) -> Result<(), SpeechError> {
        self.conn.cancel().map_err(failed("cancel"))
    }

    fn apply_settings(&mut self, settings: &SpeechSettings) -> Result<(), SpeechError> {
        let s = settings.clamped();
        self.conn
            .set_voice_rate(RATE.map_signed(s.rate).round() as i32)
            .map_err(failed("rate"))?;
        self.conn
            .set_voice_pitch(PITCH.map_signed(s.pitch).round() as i32)
            .map_err(failed("pitch"))?;
        self.conn
            .set_volume(VOLUME.map_unit(s.volume).round() as i32)
            .map_err(failed("volume"))
    }

    fn voices(&mut self) -> Result<Vec<VoiceInfo>, SpeechError> {
        let voices = self
            .conn
            .list_synthesis_voices()
            .map_err(failed("list voices"))?;
        Ok(voices
            .into_iter()
            .map(|v| VoiceInfo {
                name: v.name,
                language: v.language,
                variant: v.variant,
            })
            .collect())
    }

    fn reports_end(&self) -> bool {
        true
    }
}
