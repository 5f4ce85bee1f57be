//! A scripted speech backend for tests and benchmarks: records every call
//! with its time, reports begin/end events when told to (or by itself after a
//! set duration), and can be told to fail or to hang like a stuck daemon.

use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::backend::{
    BackendEvent, BackendFactory, EventSink, SpeechBackend, SpeechError, SpeechSettings, Started,
    VoiceInfo,
};
use super::utterance::Part;

/// One call the worker made.
#[derive(Debug, Clone, PartialEq)]
pub enum FakeCall {
    /// A backend was created (the n-th connection, from 1).
    Open(usize),
    /// `speak` was entered at `at`.
    Speak {
        /// The sentence.
        text: String,
        /// Its language code.
        lang: String,
        /// The id the worker gave it.
        id: u64,
        /// When the call was entered.
        at: Instant,
    },
    /// `speak_mixed` was entered at `at` (only when told to mix languages).
    SpeakMixed {
        /// The sentence's parts, by language.
        parts: Vec<Part>,
        /// The language of the sentence as a whole.
        lang: String,
        /// The id the worker gave it.
        id: u64,
        /// When the call was entered.
        at: Instant,
    },
    /// `stop` was called (speech cut off).
    Stop,
    /// The settings (rate, pitch, volume) were applied.
    Settings(SpeechSettings),
    /// The voices were listed.
    Voices,
}

#[derive(Default)]
struct State {
    calls: Vec<FakeCall>,
    opens: usize,
    next_id: u64,
    fail_open: Option<String>,
    hang_open: bool,
    hang_speak: bool,
    hang_all: bool,
    no_end_events: bool,
    auto_end: Option<Duration>,
    mixes: bool,
    sink: Option<EventSink>,
    voices: Vec<VoiceInfo>,
}

/// The remote control of the fake backends a factory creates.  Clones share
/// one state.
#[derive(Clone, Default)]
pub struct FakeControl {
    state: Arc<(Mutex<State>, Condvar)>,
}

impl FakeControl {
    /// A fake that answers at once and reports events only when told to.
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A test that panicked while holding the lock already failed; keep going.
        self.state.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn change(&self, f: impl FnOnce(&mut State)) {
        f(&mut self.lock());
        self.state.1.notify_all();
    }

    /// The factory the worker uses to create backends.
    pub fn factory(&self) -> BackendFactory {
        let control = self.clone();
        Arc::new(move |sink: EventSink| {
            let mut st = control.lock();
            st.opens += 1;
            let n = st.opens;
            st.calls.push(FakeCall::Open(n));
            control.state.1.notify_all();
            while st.hang_open || st.hang_all {
                st = control.state.1.wait(st).unwrap_or_else(|e| e.into_inner());
            }
            if let Some(why) = st.fail_open.clone() {
                return Err(SpeechError::Unavailable(why));
            }
            st.sink = Some(sink);
            Ok(Box::new(FakeBackend {
                control: control.clone(),
            }) as Box<dyn SpeechBackend>)
        })
    }

    /// Every call so far.
    pub fn calls(&self) -> Vec<FakeCall> {
        self.lock().calls.clone()
    }

    /// The texts spoken so far, in order.
    pub fn spoken(&self) -> Vec<String> {
        self.lock()
            .calls
            .iter()
            .filter_map(|c| match c {
                FakeCall::Speak { text, .. } => Some(text.clone()),
                FakeCall::SpeakMixed { parts, .. } => {
                    Some(parts.iter().map(|p| p.text.as_str()).collect())
                }
                _ => None,
            })
            .collect()
    }

    /// Opening fails with this reason (None: opens fine).
    pub fn set_fail_open(&self, why: Option<&str>) {
        self.change(|s| s.fail_open = why.map(Into::into));
    }

    /// Opening blocks until released.
    pub fn set_hang_open(&self, hang: bool) {
        self.change(|s| s.hang_open = hang);
    }

    /// `speak` blocks until released (the hung daemon).
    pub fn set_hang_speak(&self, hang: bool) {
        self.change(|s| s.hang_speak = hang);
    }

    /// Every call blocks until released.
    pub fn set_hang_all(&self, hang: bool) {
        self.change(|s| s.hang_all = hang);
    }

    /// The backend does not report end events (like Tolk).
    pub fn set_no_end_events(&self, no: bool) {
        self.change(|s| s.no_end_events = no);
    }

    /// Report Began at once and Ended after `d` for every sentence.
    pub fn set_auto_end(&self, d: Option<Duration>) {
        self.change(|s| s.auto_end = d);
    }

    /// The backend speaks sentences of several languages as one (as
    /// speech-dispatcher does with SSML).
    pub fn set_mixes_languages(&self, mixes: bool) {
        self.change(|s| s.mixes = mixes);
    }

    /// The voices the fake offers.
    pub fn set_voices(&self, voices: Vec<VoiceInfo>) {
        self.change(|s| s.voices = voices);
    }

    /// Report an event for sentence `id` now.
    pub fn emit(&self, event: BackendEvent) {
        let sink = self.lock().sink.clone();
        if let Some(sink) = sink {
            sink.send(event);
        }
    }

    /// The id of the last sentence spoken.
    pub fn last_id(&self) -> Option<u64> {
        self.lock().calls.iter().rev().find_map(|c| match c {
            FakeCall::Speak { id, .. } | FakeCall::SpeakMixed { id, .. } => Some(*id),
            _ => None,
        })
    }

    /// Report the end of the last sentence spoken.
    pub fn end_last(&self) {
        if let Some(id) = self.last_id() {
            self.emit(BackendEvent::Began(id));
            self.emit(BackendEvent::Ended(id));
        }
    }

    /// Wait until `pred` holds for the calls so far, or `timeout` passes.
    pub fn wait_for(&self, timeout: Duration, pred: impl Fn(&[FakeCall]) -> bool) -> bool {
        let deadline = Instant::now() + timeout;
        let mut st = self.lock();
        loop {
            if pred(&st.calls) {
                return true;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            st = match self.state.1.wait_timeout(st, left) {
                Ok((g, _)) => g,
                Err(e) => e.into_inner().0,
            };
        }
    }

    /// Wait until `n` sentences have been spoken.
    pub fn wait_spoken(&self, n: usize, timeout: Duration) -> bool {
        self.wait_for(timeout, |calls| {
            calls
                .iter()
                .filter(|c| matches!(c, FakeCall::Speak { .. } | FakeCall::SpeakMixed { .. }))
                .count()
                >= n
        })
    }
}

/// The backend the factory hands out.
struct FakeBackend {
    control: FakeControl,
}

impl FakeBackend {
    /// Record a call (after waiting while told to hang).
    fn record(&self, call: impl FnOnce(&mut State) -> FakeCall, hang_speak: bool) -> State {
        let mut st = self.control.lock();
        while st.hang_all || (hang_speak && st.hang_speak) {
            st = self
                .control
                .state
                .1
                .wait(st)
                .unwrap_or_else(|e| e.into_inner());
        }
        let c = call(&mut st);
        st.calls.push(c);
        self.control.state.1.notify_all();
        State {
            auto_end: st.auto_end,
            sink: st.sink.clone(),
            next_id: st.next_id,
            no_end_events: st.no_end_events,
            voices: st.voices.clone(),
            ..State::default()
        }
    }
}

impl FakeBackend {
    /// Report begin and end when told to; the answer to a speak call.
    fn started(&self, st: State, lang: &str) -> Started {
        let id = st.next_id;
        if let (Some(d), Some(sink), false) = (st.auto_end, st.sink, st.no_end_events) {
            std::thread::spawn(move || {
                sink.send(BackendEvent::Began(id));
                std::thread::sleep(d);
                sink.send(BackendEvent::Ended(id));
            });
        }
        Started {
            id: (!st.no_end_events).then_some(id),
            voice: Some(format!("fake-{lang}")),
        }
    }
}

impl SpeechBackend for FakeBackend {
    fn name(&self) -> String {
        "fake".into()
    }

    fn speak(&mut self, text: &str, lang: &str) -> Result<Started, SpeechError> {
        let at = Instant::now();
        let st = self.record(
            |s| {
                s.next_id += 1;
                FakeCall::Speak {
                    text: text.into(),
                    lang: lang.into(),
                    id: s.next_id,
                    at,
                }
            },
            true,
        );
        Ok(self.started(st, lang))
    }

    fn mixes_languages(&self) -> bool {
        self.control.lock().mixes
    }

    fn speak_mixed(&mut self, parts: &[Part], lang: &str) -> Result<Started, SpeechError> {
        let at = Instant::now();
        let st = self.record(
            |s| {
                s.next_id += 1;
                FakeCall::SpeakMixed {
                    parts: parts.to_vec(),
                    lang: lang.into(),
                    id: s.next_id,
                    at,
                }
            },
            true,
        );
        let langs: Vec<&str> = parts.iter().map(|p| p.lang.as_str()).collect();
        Ok(self.started(st, &langs.join("+")))
    }

    fn stop(&mut self) -> Result<(), SpeechError> {
        self.record(|_| FakeCall::Stop, false);
        Ok(())
    }

    fn apply_settings(&mut self, settings: &SpeechSettings) -> Result<(), SpeechError> {
        self.record(|_| FakeCall::Settings(*settings), false);
        Ok(())
    }

    fn voices(&mut self) -> Result<Vec<VoiceInfo>, SpeechError> {
        Ok(self.record(|_| FakeCall::Voices, false).voices)
    }

    fn reports_end(&self) -> bool {
        !self.control.lock().no_end_events
    }
}
