//! The `tts` crate: the system speech service on Windows (Tolk, i.e. the
//! running screen reader such as NVDA or JAWS, when one is there; else WinRT)
//! and macOS (AVFoundation / AppKit).  Also compiles, and works, on Linux,
//! where hector prefers [`super::sd`] for its fast voice switching.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

use tts::{Tts, UtteranceId, Voice};

use super::backend::{
    BackendEvent, EventSink, Range, SpeechBackend, SpeechError, SpeechSettings, Started, VoiceInfo,
    c_safe, choose_voice,
};

/// The `tts` crate's default backend for this platform.
pub struct TtsBackend {
    tts: Tts,
    features: tts::Features,
    /// The engine's voices, listed once on first need.
    voices: Option<Vec<Voice>>,
    /// Voice chosen per language (None: no voice of that language).
    chosen: HashMap<String, Option<Voice>>,
    current_voice: Option<String>,
}

/// The events carry the crate's platform-specific id; hector needs a number.
/// Debug is implemented on every platform (on macOS nothing else is).
fn id_key(id: &UtteranceId) -> u64 {
    let mut h = DefaultHasher::new();
    format!("{id:?}").hash(&mut h);
    h.finish()
}

fn failed(what: &'static str) -> impl FnOnce(tts::Error) -> SpeechError {
    move |e| SpeechError::Failed(format!("{what}: {e}"))
}

impl TtsBackend {
    /// Open the platform's default speech backend and route its utterance
    /// callbacks to `events` where it has them.
    pub fn open(events: EventSink) -> Result<Self, SpeechError> {
        let tts = Tts::default().map_err(|e| SpeechError::Unavailable(e.to_string()))?;
        let features = tts.supported_features();
        if features.utterance_callbacks {
            let sink = events.clone();
            tts.on_utterance_begin(Some(Box::new(move |id| {
                sink.send(BackendEvent::Began(id_key(&id)))
            })))
            .map_err(failed("begin callback"))?;
            let sink = events.clone();
            tts.on_utterance_end(Some(Box::new(move |id| {
                sink.send(BackendEvent::Ended(id_key(&id)))
            })))
            .map_err(failed("end callback"))?;
            let sink = events;
            tts.on_utterance_stop(Some(Box::new(move |id| {
                sink.send(BackendEvent::Stopped(id_key(&id)))
            })))
            .map_err(failed("stop callback"))?;
        }
        Ok(TtsBackend {
            tts,
            features,
            voices: None,
            chosen: HashMap::new(),
            current_voice: None,
        })
    }

    fn voice_for(&mut self, lang: &str) -> Option<Voice> {
        if let Some(v) = self.chosen.get(lang) {
            return v.clone();
        }
        if self.voices.is_none() {
            self.voices = Some(self.tts.voices().unwrap_or_default());
        }
        let all = self.voices.as_deref().unwrap_or_default();
        let infos: Vec<VoiceInfo> = all.iter().map(info).collect();
        let chosen = choose_voice(&infos, lang)
            .and_then(|c| all.iter().find(|v| v.name() == c.name))
            .cloned();
        self.chosen.insert(lang.to_owned(), chosen.clone());
        chosen
    }
}

fn info(v: &Voice) -> VoiceInfo {
    VoiceInfo {
        name: v.name(),
        language: v.language().to_string(),
        variant: None,
    }
}

impl SpeechBackend for TtsBackend {
    fn name(&self) -> String {
        "tts".into()
    }

    fn speak(&mut self, text: &str, lang: &str) -> Result<Started, SpeechError> {
        if self.features.voice
            && !lang.is_empty()
            && let Some(voice) = self.voice_for(lang)
            && self.current_voice.as_deref() != Some(voice.name().as_str())
        {
            self.tts.set_voice(&voice).map_err(failed("set voice"))?;
            self.current_voice = Some(voice.name());
        }
        let id = self
            .tts
            .speak(c_safe(text), false)
            .map_err(failed("speak"))?;
        Ok(Started {
            id: id.as_ref().map(id_key),
            voice: self.current_voice.clone(),
        })
    }

    fn stop(&mut self) -> Result<(), SpeechError> {
        if self.features.stop {
            self.tts.stop().map_err(failed("stop"))?;
        }
        Ok(())
    }

    fn apply_settings(&mut self, settings: &SpeechSettings) -> Result<(), SpeechError> {
        let s = settings.clamped();
        let t = &mut self.tts;
        if self.features.rate {
            let r = Range {
                min: t.min_rate(),
                normal: t.normal_rate(),
                max: t.max_rate(),
            };
            t.set_rate(r.map_signed(s.rate)).map_err(failed("rate"))?;
        }
        if self.features.pitch {
            let r = Range {
                min: t.min_pitch(),
                normal: t.normal_pitch(),
                max: t.max_pitch(),
            };
            t.set_pitch(r.map_signed(s.pitch))
                .map_err(failed("pitch"))?;
        }
        if self.features.volume {
            let r = Range {
                min: t.min_volume(),
                normal: t.normal_volume(),
                max: t.max_volume(),
            };
            t.set_volume(r.map_unit(s.volume))
                .map_err(failed("volume"))?;
        }
        Ok(())
    }

    fn voices(&mut self) -> Result<Vec<VoiceInfo>, SpeechError> {
        if !self.features.voice {
            return Ok(Vec::new());
        }
        let voices = self.tts.voices().map_err(failed("voices"))?;
        let infos = voices.iter().map(info).collect();
        self.voices = Some(voices);
        Ok(infos)
    }

    fn reports_end(&self) -> bool {
        self.features.utterance_callbacks
    }
}
