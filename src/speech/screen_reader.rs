//! Speaking through the running screen reader (NVDA, JAWS on Windows), and
//! the order in which hector looks for a way to speak: the first screen
//! reader that runs, else the system's voices (told with the reason), else
//! the link falls back to printing as everywhere.
//!
//! The clients themselves are platform code (`windows.rs`); the order
//! and the backend around a client are here, on every platform, so that they
//! are tested with fake clients wherever the tests run.

use super::backend::{
    SpeechBackend, SpeechError, SpeechRoute, SpeechSettings, Started, VoiceInfo, choose_voice,
};
use super::utterance::Part;

/// A screen reader's client: speaks with the reader's own voice, settings
/// and braille display.
pub trait ScreenReader {
    /// The reader's name as players know it ("NVDA", "JAWS").
    fn name(&self) -> &'static str;
    /// Whether the reader runs now.
    fn running(&mut self) -> bool;
    /// Hand it a sentence (it queues it behind what it is saying).
    fn speak(&mut self, text: &str) -> Result<(), SpeechError>;
    /// Cut off what it is saying.
    fn silence(&mut self) -> Result<(), SpeechError>;
}

/// A [`SpeechBackend`] that speaks through a screen reader.  Screen readers
/// report neither the start nor the end of a sentence: the link estimates
/// how long one takes.  Rate, pitch, volume and voice are the reader's.
pub struct ScreenReaderBackend {
    reader: Box<dyn ScreenReader>,
}

impl SpeechBackend for ScreenReaderBackend {
    fn name(&self) -> String {
        self.reader.name().to_owned()
    }

    fn speak(&mut self, text: &str, _lang: &str) -> Result<Started, SpeechError> {
        self.reader.speak(text)?;
        Ok(Started {
            id: None,
            voice: Some(self.reader.name().to_owned()),
        })
    }

    fn stop(&mut self) -> Result<(), SpeechError> {
        self.reader.silence()
    }

    fn apply_settings(&mut self, _settings: &SpeechSettings) -> Result<(), SpeechError> {
        // The player set the reader's rate and voice in the reader itself.
        Ok(())
    }

    fn voices(&mut self) -> Result<Vec<VoiceInfo>, SpeechError> {
        Ok(Vec::new())
    }

    fn reports_end(&self) -> bool {
        false
    }

    fn route(&self) -> Option<SpeechRoute> {
        Some(SpeechRoute::ScreenReader(self.reader.name().to_owned()))
    }
}

/// The system's voices, with the route told at start (no screen reader
/// runs; whether a German voice is there for the Appendix D words).
pub struct SystemVoices {
    inner: Box<dyn SpeechBackend>,
    no_german: bool,
}

impl SystemVoices {
    /// Wrap the system voices' backend; its voices are listed once to know
    /// whether a German one is installed (a failed listing counts as yes:
    /// nothing is claimed that was not seen).
    pub fn new(mut inner: Box<dyn SpeechBackend>) -> Self {
        let no_german = match inner.voices() {
            Ok(voices) => !voices.is_empty() && choose_voice(&voices, "de").is_none(),
            Err(_) => false,
        };
        SystemVoices { inner, no_german }
    }
}

impl SpeechBackend for SystemVoices {
    fn name(&self) -> String {
        self.inner.name()
    }
    fn speak(&mut self, text: &str, lang: &str) -> Result<Started, SpeechError> {
        self.inner.speak(text, lang)
    }
    fn stop(&mut self) -> Result<(), SpeechError> {
        self.inner.stop()
    }
    fn apply_settings(&mut self, settings: &SpeechSettings) -> Result<(), SpeechError> {
        self.inner.apply_settings(settings)
    }
    fn voices(&mut self) -> Result<Vec<VoiceInfo>, SpeechError> {
        self.inner.voices()
    }
    fn reports_end(&self) -> bool {
        self.inner.reports_end()
    }
    fn mixes_languages(&self) -> bool {
        self.inner.mixes_languages()
    }
    fn speak_mixed(&mut self, parts: &[Part], lang: &str) -> Result<Started, SpeechError> {
        self.inner.speak_mixed(parts, lang)
    }
    fn route(&self) -> Option<SpeechRoute> {
        Some(SpeechRoute::SystemVoices {
            no_german: self.no_german,
        })
    }
}

/// The first of `readers` that runs (they are given in order of
/// preference); else the system's voices that `voices` opens; its error
/// when there are none either (the link then prints, or rings the bell).
pub fn open_in_order(
    readers: Vec<Box<dyn ScreenReader>>,
    voices: impl FnOnce() -> Result<Box<dyn SpeechBackend>, SpeechError>,
) -> Result<Box<dyn SpeechBackend>, SpeechError> {
    for mut reader in readers {
        if reader.running() {
            return Ok(Box::new(ScreenReaderBackend { reader }));
        }
    }
    voices().map(|inner| Box::new(SystemVoices::new(inner)) as Box<dyn SpeechBackend>)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// A screen reader that runs or not, and records what it was handed.
    pub(crate) struct FakeReader {
        pub name: &'static str,
        pub running: bool,
        pub said: Arc<Mutex<Vec<String>>>,
    }

    impl ScreenReader for FakeReader {
        fn name(&self) -> &'static str {
            self.name
        }
        fn running(&mut self) -> bool {
            self.running
        }
        fn speak(&mut self, text: &str) -> Result<(), SpeechError> {
            self.said
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(format!("{}: {text}", self.name));
            Ok(())
        }
        fn silence(&mut self) -> Result<(), SpeechError> {
            self.said
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(format!("{}: (silence)", self.name));
            Ok(())
        }
    }

    pub(crate) fn reader(
        name: &'static str,
        running: bool,
        said: &Arc<Mutex<Vec<String>>>,
    ) -> Box<dyn ScreenReader> {
        Box::new(FakeReader {
            name,
            running,
            said: said.clone(),
        })
    }

    /// System voices with these languages.
    struct Voices(Vec<&'static str>);

    impl SpeechBackend for Voices {
        fn name(&self) -> String {
            "voices".into()
        }
        fn speak(&mut self, _: &str, _: &str) -> Result<Started, SpeechError> {
            Ok(Started::default())
        }
        fn stop(&mut self) -> Result<(), SpeechError> {
            Ok(())
        }
        fn apply_settings(&mut self, _: &SpeechSettings) -> Result<(), SpeechError> {
            Ok(())
        }
        fn voices(&mut self) -> Result<Vec<VoiceInfo>, SpeechError> {
            Ok(self
                .0
                .iter()
                .map(|l| VoiceInfo {
                    name: format!("voice-{l}"),
                    language: (*l).into(),
                    variant: None,
                })
                .collect())
        }
        fn reports_end(&self) -> bool {
            true
        }
    }

    fn voices(langs: Vec<&'static str>) -> Result<Box<dyn SpeechBackend>, SpeechError> {
        Ok(Box::new(Voices(langs)))
    }

    #[test]
    fn the_first_running_reader_speaks() {
        let said = Arc::new(Mutex::new(Vec::new()));
        let readers = vec![reader("NVDA", false, &said), reader("JAWS", true, &said)];
        let mut b = match open_in_order(readers, || voices(vec!["en-US"])) {
            Ok(b) => b,
            Err(e) => panic!("{e}"),
        };
        assert_eq!(b.route(), Some(SpeechRoute::ScreenReader("JAWS".into())));
        assert_eq!(b.name(), "JAWS");
        assert!(!b.reports_end());
        let started = b.speak("Springer f3", "de").unwrap();
        assert_eq!(started.id, None);
        b.stop().unwrap();
        assert_eq!(
            *said.lock().unwrap(),
            ["JAWS: Springer f3", "JAWS: (silence)"]
        );
    }

    #[test]
    fn nvda_before_jaws_when_both_run() {
        let said = Arc::new(Mutex::new(Vec::new()));
        let readers = vec![reader("NVDA", true, &said), reader("JAWS", true, &said)];
        let b = open_in_order(readers, || voices(vec![])).unwrap();
        assert_eq!(b.route(), Some(SpeechRoute::ScreenReader("NVDA".into())));
    }

    #[test]
    fn without_a_reader_the_system_voices_speak_and_say_why() {
        let said = Arc::new(Mutex::new(Vec::new()));
        let readers = vec![reader("NVDA", false, &said), reader("JAWS", false, &said)];
        let b = open_in_order(readers, || voices(vec!["en-US", "de-DE"])).unwrap();
        assert_eq!(
            b.route(),
            Some(SpeechRoute::SystemVoices { no_german: false })
        );
        assert!(b.reports_end(), "the voices' own events are kept");
        let b = open_in_order(Vec::new(), || voices(vec!["en-US", "it-IT"])).unwrap();
        assert_eq!(
            b.route(),
            Some(SpeechRoute::SystemVoices { no_german: true })
        );
        assert!(said.lock().unwrap().is_empty());
    }

    #[test]
    fn without_reader_or_voices_the_error_is_kept() {
        let r = open_in_order(Vec::new(), || {
            Err(SpeechError::Unavailable("no voices".into()))
        });
        assert_eq!(r.err(), Some(SpeechError::Unavailable("no voices".into())));
    }
}
