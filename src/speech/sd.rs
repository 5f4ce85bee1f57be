//! Linux: speech-dispatcher, spoken to directly.
//!
//! The `tts` crate wraps the same library, but selecting a voice through it
//! re-lists every voice of the engine on each call (13 000 espeak-ng voices,
//! 1.4 s measured), which a game that switches between a German move voice and
//! the message language cannot afford.  `SET SELF LANGUAGE` takes one round
//! trip and lets the daemon pick its voice for that language.
//!
//! A sentence of several languages (an English sentence naming squares in
//! Appendix D words) goes as one SSML message, the foreign words in
//! `<voice xml:lang="de">` spans: espeak-ng reads each span with the voice
//! of its language and the rest with the sentence's (HEADLESS.md: `<s
//! xml:lang>` would leave the German voice on after the span).

use speech_dispatcher::{Connection, DataMode, Mode, Priority as SdPriority};

use super::backend::{
    BackendEvent, EventSink, Range, SpeechBackend, SpeechError, SpeechSettings, Started, VoiceInfo,
    c_safe, language_matches,
};
use super::utterance::Part;

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
    /// The connection is in SSML data mode.
    ssml: bool,
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
        Ok(SpeechDispatcherBackend {
            conn,
            lang: None,
            ssml: false,
        })
    }
}

impl SpeechDispatcherBackend {
    fn set_language(&mut self, lang: &str) -> Result<(), SpeechError> {
        let lang = c_safe(lang);
        if !lang.is_empty() && self.lang.as_deref() != Some(lang.as_str()) {
            self.conn
                .set_language(lang.as_str())
                .map_err(failed("set language"))?;
            self.lang = Some(lang);
        }
        Ok(())
    }

    fn set_ssml(&mut self, on: bool) -> Result<(), SpeechError> {
        if self.ssml != on {
            let mode = if on { DataMode::SSML } else { DataMode::Text };
            self.conn.set_data_mode(mode).map_err(failed("data mode"))?;
            self.ssml = on;
        }
        Ok(())
    }

    fn say(&mut self, text: String) -> Result<u64, SpeechError> {
        self.conn
            .say(SdPriority::Important, c_safe(&text))
            .ok_or_else(|| SpeechError::Failed("speech-dispatcher refused the text".into()))
    }
}

/// Text as SSML character data.
fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// One SSML message for a sentence in `lang` whose parts in other
/// languages are `<voice xml:lang>` spans.
pub fn ssml(parts: &[Part], lang: &str) -> String {
    let mut out = String::from("<speak>");
    for p in parts {
        let text = xml_escape(&p.text);
        if p.lang.is_empty() || language_matches(&p.lang, lang) {
            out.push_str(&text);
        } else {
            let tag: String = p
                .lang
                .chars()
                .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                .collect();
            out.push_str(&format!("<voice xml:lang=\"{tag}\">{text}</voice>"));
        }
    }
    out.push_str("</speak>");
    out
}

fn failed(what: &str) -> impl FnOnce(speech_dispatcher::Error) -> SpeechError + '_ {
    move |e| SpeechError::Failed(format!("speech-dispatcher {what}: {e}"))
}

impl SpeechBackend for SpeechDispatcherBackend {
    fn name(&self) -> String {
        "speech-dispatcher".into()
    }

    fn speak(&mut self, text: &str, lang: &str) -> Result<Started, SpeechError> {
        self.set_language(lang)?;
        self.set_ssml(false)?;
        let id = self.say(text.to_owned())?;
        Ok(Started {
            id: Some(id),
            voice: self.lang.as_ref().map(|l| format!("language {l}")),
        })
    }

    fn mixes_languages(&self) -> bool {
        true
    }

    fn speak_mixed(&mut self, parts: &[Part], lang: &str) -> Result<Started, SpeechError> {
        self.set_language(lang)?;
        self.set_ssml(true)?;
        let id = self.say(ssml(parts, lang))?;
        let mut langs: Vec<&str> = Vec::new();
        for p in parts {
            if !p.lang.is_empty() && !langs.contains(&p.lang.as_str()) {
                langs.push(&p.lang);
            }
        }
        Ok(Started {
            id: Some(id),
            voice: Some(format!("language {lang}, spans {}", langs.join("+"))),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn foreign_parts_become_voice_spans_and_text_is_escaped() {
        let parts = [
            Part::new("Felix sechs", "de"),
            Part::new(" is attacked by ", "en"),
            Part::new("Springer Gustav acht", "de"),
            Part::new(" <&>", "en-GB"),
        ];
        assert_eq!(
            ssml(&parts, "en"),
            "<speak><voice xml:lang=\"de\">Felix sechs</voice> is attacked by \
             <voice xml:lang=\"de\">Springer Gustav acht</voice> &lt;&amp;&gt;</speak>"
        );
    }

    #[test]
    fn a_language_tag_cannot_break_out_of_its_attribute() {
        let parts = [Part::new("x", "de\"><evil")];
        assert_eq!(
            ssml(&parts, "en"),
            "<speak><voice xml:lang=\"deevil\">x</voice></speak>"
        );
    }
}
