//! The seam between the speech worker and a speech engine: the
//! [`SpeechBackend`] trait, the events an engine reports, voices and settings.

use std::fmt;
use std::sync::Arc;
use std::sync::mpsc::Sender;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::utterance::Part;

/// Why speech failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpeechError {
    /// The speech service could not be reached or refused the connection.
    Unavailable(String),
    /// A call to the service failed.
    Failed(String),
    /// The service did not answer in time (it hangs).
    Timeout(&'static str),
}

impl fmt::Display for SpeechError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpeechError::Unavailable(why) => write!(f, "speech service not available: {why}"),
            SpeechError::Failed(why) => write!(f, "speech failed: {why}"),
            SpeechError::Timeout(call) => {
                write!(f, "the speech service stopped answering ({call})")
            }
        }
    }
}

impl std::error::Error for SpeechError {}

/// One voice a backend offers.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VoiceInfo {
    /// The name to select it by.
    pub name: String,
    /// Its language tag as the backend reports it ("de", "en-GB", ...).
    pub language: String,
    /// A variant of a base voice ("Anika" for espeak-ng's "German+Anika"), if any.
    pub variant: Option<String>,
}

/// Whether a voice of `language` (a tag such as "de-AT") speaks `lang` ("de").
pub fn language_matches(language: &str, lang: &str) -> bool {
    let primary = |tag: &str| {
        tag.split(['-', '_'])
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase()
    };
    !lang.is_empty() && primary(language) == primary(lang)
}

/// The voice to use for `lang`: one whose language is exactly `lang`, else one
/// of the same primary language; among equals a base voice (no variant), then
/// the shortest name.  `None`: no such voice, keep the backend's default.
pub fn choose_voice<'a>(voices: &'a [VoiceInfo], lang: &str) -> Option<&'a VoiceInfo> {
    voices
        .iter()
        .filter(|v| language_matches(&v.language, lang))
        .min_by_key(|v| {
            (
                !v.language.eq_ignore_ascii_case(lang),
                v.variant.is_some(),
                v.name.len(),
                v.name.clone(),
            )
        })
}

/// Voices grouped by primary language, each group sorted by name, for
/// `hector voices`.
pub fn voices_by_language(
    voices: &[VoiceInfo],
) -> std::collections::BTreeMap<String, Vec<&VoiceInfo>> {
    let mut map: std::collections::BTreeMap<String, Vec<&VoiceInfo>> = Default::default();
    for v in voices {
        let primary = v
            .language
            .split(['-', '_'])
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        map.entry(primary).or_default().push(v);
    }
    for group in map.values_mut() {
        group.sort();
    }
    map
}

/// Width of the lines of `hector voices --all`.
const VOICES_WIDTH: usize = 79;

/// The lines of `hector voices`: for hector's own languages (`own`, e.g.
/// en, de, it, el) the number of voices and the one hector uses
/// (`choose_voice`), then how many other languages there are.  With `all`,
/// every language, each followed by its voices and variants, wrapped.
pub fn voices_summary(voices: &[VoiceInfo], own: &[&str], all: bool) -> Vec<String> {
    let mut lines = Vec::new();
    let by_language = voices_by_language(voices);
    let mut others = 0;
    for (lang, group) in &by_language {
        if !all && !own.contains(&lang.as_str()) {
            others += 1;
            continue;
        }
        let owned: Vec<VoiceInfo> = group.iter().map(|v| (*v).clone()).collect();
        let chosen = choose_voice(&owned, lang).map_or("", |v| v.name.as_str());
        let count = match group.len() {
            1 => "1 voice".to_owned(),
            n => format!("{n} voices"),
        };
        lines.push(format!("{lang}: {count}; hector uses {chosen}"));
        if all {
            let mut line = String::from("   ");
            for (k, v) in group.iter().enumerate() {
                let item = if k + 1 < group.len() {
                    format!(" {},", v.name)
                } else {
                    format!(" {}", v.name)
                };
                if line.len() > 3 && line.chars().count() + item.chars().count() > VOICES_WIDTH {
                    lines.push(std::mem::replace(&mut line, String::from("   ")));
                }
                line.push_str(&item);
            }
            lines.push(line);
        }
    }
    for lang in own {
        if !by_language.contains_key(*lang) {
            lines.push(format!("{lang}: no voice; its sentences are printed only"));
        }
    }
    if others > 0 {
        lines.push(format!(
            "{others} other languages have voices: hector voices --all lists them."
        ));
    }
    lines
}

/// Rate, pitch and volume as the user sets them, independent of the engine.
///
/// `rate` and `pitch` run from −1 (slowest, lowest) through 0 (the engine's
/// normal) to 1 (fastest, highest); `volume` from 0 (quietest) to 1 (loudest).
/// Values outside are clamped; NaN counts as the default.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SpeechSettings {
    /// Speed, −1 to 1.
    pub rate: f32,
    /// Pitch, −1 to 1.
    pub pitch: f32,
    /// Loudness, 0 to 1.
    pub volume: f32,
}

impl Default for SpeechSettings {
    fn default() -> Self {
        SpeechSettings {
            rate: 0.0,
            pitch: 0.0,
            volume: 1.0,
        }
    }
}

impl SpeechSettings {
    /// The settings forced into their ranges.
    pub fn clamped(self) -> Self {
        let d = SpeechSettings::default();
        let fix = |v: f32, lo: f32, hi: f32, default: f32| {
            if v.is_nan() { default } else { v.clamp(lo, hi) }
        };
        SpeechSettings {
            rate: fix(self.rate, -1.0, 1.0, d.rate),
            pitch: fix(self.pitch, -1.0, 1.0, d.pitch),
            volume: fix(self.volume, 0.0, 1.0, d.volume),
        }
    }
}

/// An engine's range for one setting.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Range {
    pub min: f32,
    pub normal: f32,
    pub max: f32,
}

impl Range {
    /// Map a user value in −1..1 onto the range: −1 → min, 0 → normal, 1 → max.
    pub fn map_signed(self, v: f32) -> f32 {
        let v = if v.is_nan() { 0.0 } else { v.clamp(-1.0, 1.0) };
        let out = if v >= 0.0 {
            self.normal + v * (self.max - self.normal)
        } else {
            self.normal + v * (self.normal - self.min)
        };
        self.clamp(out)
    }

    /// Map a user value in 0..1 onto the range: 0 → min, 1 → max.
    pub fn map_unit(self, v: f32) -> f32 {
        let v = if v.is_nan() { 1.0 } else { v.clamp(0.0, 1.0) };
        self.clamp(self.min + v * (self.max - self.min))
    }

    fn clamp(self, v: f32) -> f32 {
        let (lo, hi) = if self.min <= self.max {
            (self.min, self.max)
        } else {
            (self.max, self.min)
        };
        v.clamp(lo, hi)
    }
}

/// What an engine tells about its sentences, from its own threads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackendEvent {
    /// The sentence with this id started sounding.
    Began(u64),
    /// The sentence with this id finished.
    Ended(u64),
    /// The sentence with this id was cut off.
    Stopped(u64),
}

/// Where an engine sends its [`BackendEvent`]s (cheap to clone, never blocks).
#[derive(Clone)]
pub struct EventSink(Arc<dyn Fn(BackendEvent, Instant) + Send + Sync>);

impl EventSink {
    /// A sink that calls `f` for every event.
    pub fn new(f: impl Fn(BackendEvent, Instant) + Send + Sync + 'static) -> Self {
        EventSink(Arc::new(f))
    }

    /// A sink that sends every event down a channel.
    pub fn channel(tx: Sender<(BackendEvent, Instant)>) -> Self {
        EventSink::new(move |e, at| {
            // The receiver gone means nobody listens any more: nothing to do.
            let _ = tx.send((e, at));
        })
    }

    /// Report an event that happened now.
    pub fn send(&self, event: BackendEvent) {
        (self.0)(event, Instant::now())
    }
}

impl fmt::Debug for EventSink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("EventSink")
    }
}

/// What [`SpeechBackend::speak`] started.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Started {
    /// The id the backend's events will carry for this sentence; `None` when
    /// the backend reports no events for it.
    pub id: Option<u64>,
    /// The voice (or language) the sentence is spoken with, for the record.
    pub voice: Option<String>,
}

/// How a backend speaks, for the one sentence said at start ("Speaking
/// through NVDA.").  Backends of a single kind (speech-dispatcher) have none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpeechRoute {
    /// Through the running screen reader (its own voice, rate and braille
    /// display), named as players know it: "NVDA", "JAWS".
    ScreenReader(String),
    /// With the system's voices, because no screen reader is running.
    SystemVoices {
        /// No German voice is installed: the Appendix D words are read by
        /// the voice of the player's language.
        no_german: bool,
    },
}

/// A speech engine.  All calls come from one thread (the one that created
/// the backend); any of them may block for as long as the engine hangs.
pub trait SpeechBackend {
    /// A short name for messages ("speech-dispatcher").
    fn name(&self) -> String;
    /// Start speaking `text` with a voice of language `lang`; returns at once.
    fn speak(&mut self, text: &str, lang: &str) -> Result<Started, SpeechError>;
    /// Stop the sentence being spoken.
    fn stop(&mut self) -> Result<(), SpeechError>;
    /// Apply rate, pitch and volume, mapped into the engine's ranges.
    fn apply_settings(&mut self, settings: &SpeechSettings) -> Result<(), SpeechError>;
    /// The voices the engine offers.
    fn voices(&mut self) -> Result<Vec<VoiceInfo>, SpeechError>;
    /// Whether [`BackendEvent::Ended`] is reported for sentences (otherwise
    /// the worker estimates how long a sentence takes).
    fn reports_end(&self) -> bool;
    /// Whether [`speak_mixed`](Self::speak_mixed) speaks a sentence in
    /// several languages as one utterance, each part in its own voice
    /// (speech-dispatcher: SSML language spans).  Otherwise the worker
    /// speaks the parts one after another.
    fn mixes_languages(&self) -> bool {
        false
    }
    /// Start speaking one sentence whose `parts` are in different languages
    /// (`lang`: the sentence's own language); returns at once.  Called only
    /// when [`mixes_languages`](Self::mixes_languages) is true.
    fn speak_mixed(&mut self, parts: &[Part], lang: &str) -> Result<Started, SpeechError> {
        let text: String = parts.iter().map(|p| p.text.as_str()).collect();
        self.speak(&text, lang)
    }
    /// How this backend speaks, when the player is told at start.
    fn route(&self) -> Option<SpeechRoute> {
        None
    }
}

/// Creates a backend, on the thread that will own it, with the sink for its
/// events.
pub type BackendFactory =
    Arc<dyn Fn(EventSink) -> Result<Box<dyn SpeechBackend>, SpeechError> + Send + Sync>;

/// Text safe for C strings: NUL bytes removed.
pub(crate) fn c_safe(text: &str) -> String {
    text.replace('\0', "")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(name: &str, language: &str, variant: Option<&str>) -> VoiceInfo {
        VoiceInfo {
            name: name.into(),
            language: language.into(),
            variant: variant.map(Into::into),
        }
    }

    #[test]
    fn german_voice_chosen_for_de_preferring_base_voice() {
        let voices = [
            v("English", "en", None),
            v("German+Anika", "de", Some("Anika")),
            v("German", "de", None),
            v("Swiss German", "de-CH", None),
        ];
        assert_eq!(
            choose_voice(&voices, "de").map(|v| v.name.as_str()),
            Some("German")
        );
        assert_eq!(
            choose_voice(&voices, "de-CH").map(|v| v.name.as_str()),
            Some("Swiss German")
        );
    }

    #[test]
    fn regional_voice_serves_primary_language() {
        let voices = [v("Anna", "de-DE", None), v("Alex", "en-US", None)];
        assert_eq!(
            choose_voice(&voices, "de").map(|v| v.name.as_str()),
            Some("Anna")
        );
        assert_eq!(
            choose_voice(&voices, "EN").map(|v| v.name.as_str()),
            Some("Alex")
        );
    }

    #[test]
    fn no_voice_for_language_keeps_default() {
        let voices = [v("English", "en", None)];
        assert_eq!(choose_voice(&voices, "it"), None);
        assert_eq!(choose_voice(&voices, ""), None);
    }

    #[test]
    fn voices_group_by_primary_language() {
        let voices = [
            v("German+Anika", "de", Some("Anika")),
            v("Swiss", "de-CH", None),
            v("English", "en", None),
        ];
        let map = voices_by_language(&voices);
        assert_eq!(map.keys().collect::<Vec<_>>(), ["de", "en"]);
        assert_eq!(map["de"].len(), 2);
    }

    /// Issue 18: `voices` listed 113 languages.  hector's own four, the
    /// count of the others; with --all every one, wrapped.
    #[test]
    fn the_summary_counts_voices_and_names_the_one_used() {
        let mut voices = vec![
            v("German+Anika", "de", Some("Anika")),
            v("German", "de", None),
            v("Swiss German", "de-CH", None),
            v("English", "en", None),
            v("French", "fr", None),
        ];
        for k in 0..30 {
            voices.push(v(&format!("Finnish variant {k}"), "fi", None));
        }
        assert_eq!(
            voices_summary(&voices, &["en", "de", "el"], false),
            [
                "de: 3 voices; hector uses German",
                "en: 1 voice; hector uses English",
                "el: no voice; its sentences are printed only",
                "2 other languages have voices: hector voices --all lists them."
            ]
        );
        let all = voices_summary(&voices, &["en", "de", "el"], true);
        assert_eq!(all[0], "de: 3 voices; hector uses German");
        assert_eq!(all[1], "    German, German+Anika, Swiss German");
        assert!(all.iter().any(|l| l.starts_with("fr: 1 voice")), "{all:?}");
        assert!(all.iter().all(|l| l.chars().count() <= 79), "{all:?}");
        let finnish: Vec<&String> = all.iter().filter(|l| l.contains("Finnish")).collect();
        assert!(finnish.len() > 5, "wrapped: {finnish:?}");
    }

    #[test]
    fn settings_clamp_and_nan_defaults() {
        let s = SpeechSettings {
            rate: 3.0,
            pitch: f32::NAN,
            volume: -2.0,
        }
        .clamped();
        assert_eq!(
            s,
            SpeechSettings {
                rate: 1.0,
                pitch: 0.0,
                volume: 0.0
            }
        );
    }

    #[test]
    fn signed_mapping_hits_min_normal_max() {
        // speech-dispatcher's rate range.
        let r = Range {
            min: -100.0,
            normal: 0.0,
            max: 100.0,
        };
        assert_eq!(r.map_signed(-1.0), -100.0);
        assert_eq!(r.map_signed(0.0), 0.0);
        assert_eq!(r.map_signed(0.5), 50.0);
        assert_eq!(r.map_signed(7.0), 100.0);
        // An asymmetric range (WinRT rate 0.5..6, normal 1).
        let w = Range {
            min: 0.5,
            normal: 1.0,
            max: 6.0,
        };
        assert_eq!(w.map_signed(-1.0), 0.5);
        assert_eq!(w.map_signed(1.0), 6.0);
        assert_eq!(w.map_signed(-0.5), 0.75);
    }

    #[test]
    fn unit_mapping_spans_the_range() {
        let r = Range {
            min: -100.0,
            normal: 100.0,
            max: 100.0,
        };
        assert_eq!(r.map_unit(0.0), -100.0);
        assert_eq!(r.map_unit(1.0), 100.0);
        assert_eq!(r.map_unit(0.5), 0.0);
        assert_eq!(r.map_unit(f32::NAN), 100.0);
    }

    #[test]
    fn c_safe_strips_nul() {
        assert_eq!(c_safe("a\0b"), "ab");
    }

    #[test]
    fn event_sink_channel_delivers() {
        let (tx, rx) = std::sync::mpsc::channel();
        let sink = EventSink::channel(tx);
        sink.send(BackendEvent::Ended(7));
        assert_eq!(rx.try_recv().map(|(e, _)| e), Ok(BackendEvent::Ended(7)));
    }
}
