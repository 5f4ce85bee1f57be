//! Short generated tones (no sound files) for the moments a player may prefer
//! a sound to words: the opponent's move, check, low time, flag fall, a board
//! mismatch, an error.
//!
//! [`render`] is pure: a tone becomes samples.  [`TonePlayer`] plays them on
//! its own thread through cpal; with no sound device it rings the terminal
//! bell (or stays silent), never crashes, and keeps ALSA's own error messages
//! off the screen ([`silence_alsa_errors`]).

use std::f32::consts::PI;
use std::fmt;
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

/// The tones hector plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tone {
    /// The opponent moved.
    OpponentMove,
    /// A king is in check.
    Check,
    /// Little time is left on a clock.
    LowTime,
    /// A flag fell.
    FlagFall,
    /// The board differs from the game.
    Mismatch,
    /// An error was said (an illegal move, a line not understood).
    Error,
}

/// One note of a tone: a sine at `hz` for `ms` milliseconds (`hz` 0: a rest).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Note {
    pub hz: f32,
    pub ms: u32,
}

impl Tone {
    /// Every tone.
    pub const ALL: [Tone; 6] = [
        Tone::OpponentMove,
        Tone::Check,
        Tone::LowTime,
        Tone::FlagFall,
        Tone::Mismatch,
        Tone::Error,
    ];

    /// The notes: each tone differs in pitch and rhythm, so they can be told
    /// apart without looking.
    pub fn notes(self) -> &'static [Note] {
        match self {
            // One soft mid note: "your turn".
            Tone::OpponentMove => &[Note { hz: 660.0, ms: 120 }],
            // Two quick high notes.
            Tone::Check => &[
                Note { hz: 880.0, ms: 80 },
                Note { hz: 0.0, ms: 40 },
                Note { hz: 880.0, ms: 80 },
            ],
            // Three short pips.
            Tone::LowTime => &[
                Note { hz: 520.0, ms: 60 },
                Note { hz: 0.0, ms: 60 },
                Note { hz: 520.0, ms: 60 },
                Note { hz: 0.0, ms: 60 },
                Note { hz: 520.0, ms: 60 },
            ],
            // Falling, longer: the end of the clock.
            Tone::FlagFall => &[
                Note { hz: 784.0, ms: 150 },
                Note { hz: 523.0, ms: 150 },
                Note { hz: 392.0, ms: 300 },
            ],
            // A warble between two notes.
            Tone::Mismatch => &[
                Note { hz: 600.0, ms: 90 },
                Note { hz: 450.0, ms: 90 },
                Note { hz: 600.0, ms: 90 },
                Note { hz: 450.0, ms: 90 },
            ],
            // One low note.
            Tone::Error => &[Note { hz: 220.0, ms: 250 }],
        }
    }

    /// How long the tone lasts.
    pub fn duration(self) -> Duration {
        Duration::from_millis(self.notes().iter().map(|n| u64::from(n.ms)).sum())
    }
}

/// Loudest sample at volume 1 (headroom for the speech voice).
pub const PEAK: f32 = 0.5;
/// Fade in and out of each note, so notes start and stop without clicks.
pub const FADE_MS: u32 = 5;

/// Number of samples for `ms` milliseconds at `rate`.
fn samples_for(ms: u32, rate: u32) -> usize {
    usize::try_from(u64::from(ms) * u64::from(rate) / 1000).unwrap_or(usize::MAX)
}

/// The tone as mono samples in −1..1 at `sample_rate`, `volume` 0..1 (NaN
/// counts as 1).
pub fn render(tone: Tone, sample_rate: u32, volume: f32) -> Vec<f32> {
    let volume = if volume.is_nan() {
        1.0
    } else {
        volume.clamp(0.0, 1.0)
    };
    let amp = PEAK * volume;
    let rate = sample_rate.max(1) as f32;
    let mut out = Vec::new();
    for n in tone.notes() {
        let len = samples_for(n.ms, sample_rate);
        let fade = samples_for(FADE_MS, sample_rate).min(len / 2).max(1);
        out.extend((0..len).map(|i| {
            if n.hz <= 0.0 {
                return 0.0;
            }
            let edge = i.min(len - 1 - i);
            let env = if edge < fade {
                0.5 - 0.5 * (PI * edge as f32 / fade as f32).cos()
            } else {
                1.0
            };
            amp * env * (2.0 * PI * n.hz * i as f32 / rate).sin()
        }));
    }
    out
}

/// Which tones sound, and how loud (config section).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ToneSettings {
    /// 0 (silent) to 1.
    pub volume: f32,
    /// Sound [`Tone::OpponentMove`].
    pub opponent_move: bool,
    /// Sound [`Tone::Check`].
    pub check: bool,
    /// Sound [`Tone::LowTime`].
    pub low_time: bool,
    /// Sound [`Tone::FlagFall`].
    pub flag_fall: bool,
    /// Sound [`Tone::Mismatch`].
    pub mismatch: bool,
    /// Sound [`Tone::Error`].
    pub error: bool,
    /// With no sound device, ring the terminal bell instead.
    pub bell_fallback: bool,
}

impl Default for ToneSettings {
    fn default() -> Self {
        ToneSettings {
            volume: 0.6,
            opponent_move: true,
            check: true,
            low_time: true,
            flag_fall: true,
            mismatch: true,
            error: true,
            bell_fallback: true,
        }
    }
}

impl ToneSettings {
    /// Whether `tone` is switched on (and the volume above zero).
    pub fn enabled(&self, tone: Tone) -> bool {
        let on = match tone {
            Tone::OpponentMove => self.opponent_move,
            Tone::Check => self.check,
            Tone::LowTime => self.low_time,
            Tone::FlagFall => self.flag_fall,
            Tone::Mismatch => self.mismatch,
            Tone::Error => self.error,
        };
        on && self.volume > 0.0
    }
}

/// Why a tone could not be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AudioError {
    /// No such output device.
    NoDevice(String),
    /// The device is there but cannot be opened or played on.
    Device(String),
}

impl fmt::Display for AudioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AudioError::NoDevice(what) => write!(f, "no sound device: {what}"),
            AudioError::Device(why) => write!(f, "sound device not usable: {why}"),
        }
    }
}

impl std::error::Error for AudioError {}

/// Where rendered tones go.
pub trait AudioOut {
    /// Find the device; returns its sample rate.
    fn open(&mut self) -> Result<u32, AudioError>;
    /// Play mono samples at that rate; returns when they have been played.
    fn play(&mut self, samples: &[f32]) -> Result<(), AudioError>;
}

/// Keep ALSA's own error messages (written straight to stderr by the C
/// library) off the screen, for the whole process.  Call before the TUI takes
/// the screen; [`TonePlayer`] calls it too.  Does nothing on systems without
/// ALSA.
pub fn silence_alsa_errors() {
    #[cfg(any(
        target_os = "linux",
        target_os = "dragonfly",
        target_os = "freebsd",
        target_os = "netbsd"
    ))]
    alsa_quiet::install();
}

#[cfg(any(
    target_os = "linux",
    target_os = "dragonfly",
    target_os = "freebsd",
    target_os = "netbsd"
))]
#[allow(unsafe_code)] // The one foreign call: alsa-lib's error handler.
mod alsa_quiet {
    use std::ffi::{c_char, c_int};
    use std::sync::Once;

    /// alsa-lib's handler type is variadic (`fmt, ...`); a handler that reads
    /// none of the variable arguments can be declared without them: on the
    /// System V x86-64 and AArch64 Linux ABIs the fixed arguments are passed
    /// identically and the callee need not touch the rest.
    type Handler = unsafe extern "C" fn(*const c_char, c_int, *const c_char, c_int, *const c_char);

    // libasound is linked already (cpal -> alsa -> alsa-sys).
    unsafe extern "C" {
        fn snd_lib_error_set_handler(handler: Option<Handler>) -> c_int;
    }

    unsafe extern "C" fn quiet(
        _file: *const c_char,
        _line: c_int,
        _function: *const c_char,
        _err: c_int,
        _fmt: *const c_char,
    ) {
    }

    static ONCE: Once = Once::new();

    pub(super) fn install() {
        ONCE.call_once(|| {
            // SAFETY: sets a process-wide function pointer in alsa-lib; the
            // handler ignores its arguments and lives for the whole program.
            unsafe {
                snd_lib_error_set_handler(Some(quiet));
            }
        });
    }
}

/// Tones through cpal, on the system's default output.
pub struct CpalOut {
    device: Option<(cpal::Device, cpal::SupportedStreamConfig)>,
}

impl CpalOut {
    /// The default output, not opened yet.
    pub fn new() -> Self {
        CpalOut { device: None }
    }
}

impl AudioOut for CpalOut {
    fn open(&mut self) -> Result<u32, AudioError> {
        use cpal::traits::{DeviceTrait, HostTrait};
        silence_alsa_errors();
        let host = cpal::default_host();
        let device = host
            .default_output_device()
            .ok_or_else(|| AudioError::NoDevice("no default output".into()))?;
        let config = device
            .default_output_config()
            .map_err(|e| AudioError::Device(e.to_string()))?;
        let rate = config.sample_rate();
        self.device = Some((device, config));
        Ok(rate)
    }

    fn play(&mut self, samples: &[f32]) -> Result<(), AudioError> {
        use cpal::SampleFormat as F;
        let Some((device, config)) = &self.device else {
            return Err(AudioError::NoDevice("not opened".into()));
        };
        let stream_config: cpal::StreamConfig = config.config();
        let samples: Arc<[f32]> = samples.into();
        let (done_tx, done_rx) = mpsc::channel();
        let result = match config.sample_format() {
            F::F32 => play_as::<f32>(device, stream_config, samples.clone(), done_tx),
            F::I16 => play_as::<i16>(device, stream_config, samples.clone(), done_tx),
            F::U16 => play_as::<u16>(device, stream_config, samples.clone(), done_tx),
            F::I32 => play_as::<i32>(device, stream_config, samples.clone(), done_tx),
            F::U32 => play_as::<u32>(device, stream_config, samples.clone(), done_tx),
            F::I8 => play_as::<i8>(device, stream_config, samples.clone(), done_tx),
            F::U8 => play_as::<u8>(device, stream_config, samples.clone(), done_tx),
            F::F64 => play_as::<f64>(device, stream_config, samples.clone(), done_tx),
            other => Err(AudioError::Device(format!("sample format {other}"))),
        };
        let stream = match result {
            Ok(s) => s,
            Err(e) => {
                // Look for the device again next time.
                self.device = None;
                return Err(e);
            }
        };
        let rate = config.sample_rate().max(1);
        let length = Duration::from_secs_f64(samples.len() as f64 / f64::from(rate));
        // The callback reports once it has also handed over PAD of silence
        // after the tone: on a real device that takes PAD in real time, by
        // when the tone has sounded from the device's buffer; ALSA's null
        // and file devices take everything at once, and the stream is
        // dropped at once instead of spinning out a timed wait.
        let _ = done_rx.recv_timeout(length + PAD + Duration::from_secs(1));
        drop(stream);
        Ok(())
    }
}

/// Silence played after a tone before its stream is closed.
const PAD: Duration = Duration::from_millis(200);

fn play_as<T>(
    device: &cpal::Device,
    config: cpal::StreamConfig,
    samples: Arc<[f32]>,
    done: Sender<()>,
) -> Result<cpal::Stream, AudioError>
where
    T: cpal::SizedSample + cpal::FromSample<f32>,
{
    use cpal::traits::{DeviceTrait, StreamTrait};
    let channels = usize::from(config.channels.max(1));
    let pad = usize::try_from(u64::from(config.sample_rate) * PAD.as_millis() as u64 / 1000)
        .unwrap_or(usize::MAX);
    let mut pos = 0usize;
    let mut told = false;
    let stream = device
        .build_output_stream(
            config,
            move |data: &mut [T], _: &cpal::OutputCallbackInfo| {
                for frame in data.chunks_mut(channels) {
                    let v = samples.get(pos).copied().unwrap_or(0.0);
                    pos = pos.saturating_add(1);
                    frame.fill(T::from_sample(v));
                }
                if pos >= samples.len().saturating_add(pad) && !told {
                    told = true;
                    let _ = done.send(());
                }
            },
            // Errors while playing end the tone early; nothing to tell.
            |_err| {},
            None,
        )
        .map_err(|e| AudioError::Device(e.to_string()))?;
    stream
        .play()
        .map_err(|e| AudioError::Device(e.to_string()))?;
    Ok(stream)
}

/// What the tone player tells the app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AudioStatus {
    /// Tones cannot be played; sent once.  `bell`: the terminal bell rings
    /// for each tone instead (otherwise tones are silent).  `why` is the
    /// sound library's own text, for a log, not for the player.
    Unavailable {
        /// The sound library's message.
        why: String,
        /// The terminal bell rings instead.
        bell: bool,
    },
    /// The device works again.
    Available,
}

/// Rings the bell (on the player thread; must not block).
pub type BellSink = Arc<dyn Fn() + Send + Sync>;
/// Receives [`AudioStatus`] reports.
pub type AudioStatusSink = Arc<dyn Fn(AudioStatus) + Send + Sync>;

/// The terminal bell: BEL to standard output.
///
/// On Unix the BEL goes to a duplicate of the standard output descriptor,
/// not through Rust's `Stdout`: the front end holds the `Stdout` lock for as
/// long as it runs, and a bell that waited for it would ring at exit.
pub fn terminal_bell() -> BellSink {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        if let Ok(fd) = std::io::stdout().as_fd().try_clone_to_owned() {
            let file = std::sync::Mutex::new(std::fs::File::from(fd));
            return Arc::new(move || {
                use std::io::Write;
                let mut f = file.lock().unwrap_or_else(|e| e.into_inner());
                // A bell that cannot be written is a bell not heard.
                let _ = f.write_all(b"\x07");
            });
        }
    }
    Arc::new(|| {
        use std::io::Write;
        let mut out = std::io::stdout();
        // A bell that cannot be written is a bell not heard; nothing else to do.
        let _ = out.write_all(b"\x07").and_then(|_| out.flush());
    })
}

/// The terminal bell when standard output is a terminal; `None` otherwise
/// (a BEL in a pipe or a file is noise, not a sound).
pub fn terminal_bell_if_tty() -> Option<BellSink> {
    use std::io::IsTerminal;
    std::io::stdout().is_terminal().then(terminal_bell)
}

enum ToneCmd {
    Play(Tone),
    Settings(ToneSettings),
    Shutdown,
}

/// The app's side of the tone player: cheap to clone, never blocks.
#[derive(Clone)]
pub struct ToneHandle {
    tx: Sender<ToneCmd>,
}

impl ToneHandle {
    /// Play `tone` if it is switched on.  Returns at once.
    pub fn play(&self, tone: Tone) {
        let _ = self.tx.send(ToneCmd::Play(tone));
    }

    /// Change which tones sound and how loud.
    pub fn set_settings(&self, settings: ToneSettings) {
        let _ = self.tx.send(ToneCmd::Settings(settings));
    }
}

/// How long to wait before looking for a sound device again.
pub const RETRY_DEVICE: Duration = Duration::from_secs(30);

/// A thread that plays tones one after another.
pub struct TonePlayer {
    handle: ToneHandle,
    join: Option<JoinHandle<()>>,
}

impl TonePlayer {
    /// Play on the system's default device through cpal.
    /// `bell`: rung for each tone while there is no sound device (`None`:
    /// such tones are silent).
    pub fn spawn_default(
        settings: ToneSettings,
        bell: Option<BellSink>,
        status: AudioStatusSink,
    ) -> Self {
        Self::spawn(settings, Box::new(CpalOut::new()), bell, status)
    }

    /// Play through `out` (created here, used on the player thread).
    pub fn spawn(
        settings: ToneSettings,
        out: Box<dyn AudioOut + Send>,
        bell: Option<BellSink>,
        status: AudioStatusSink,
    ) -> Self {
        Self::spawn_with_retry(settings, out, bell, status, RETRY_DEVICE)
    }

    pub(crate) fn spawn_with_retry(
        settings: ToneSettings,
        out: Box<dyn AudioOut + Send>,
        bell: Option<BellSink>,
        status: AudioStatusSink,
        retry: Duration,
    ) -> Self {
        let (tx, rx) = mpsc::channel();
        let player = Player {
            settings,
            out,
            bell,
            status,
            retry,
            rate: None,
            retry_at: None,
            reported: false,
        };
        let join = thread::Builder::new()
            .name("hector-tones".into())
            .spawn(move || player.run(rx))
            .ok();
        TonePlayer {
            handle: ToneHandle { tx },
            join,
        }
    }

    /// A handle to ask for tones from any thread.
    pub fn handle(&self) -> ToneHandle {
        self.handle.clone()
    }
}

impl Drop for TonePlayer {
    fn drop(&mut self) {
        let _ = self.handle.tx.send(ToneCmd::Shutdown);
        if let Some(join) = self.join.take() {
            // At most the rest of one tone (under a second).
            let _ = join.join();
        }
    }
}

struct Player {
    settings: ToneSettings,
    out: Box<dyn AudioOut + Send>,
    bell: Option<BellSink>,
    status: AudioStatusSink,
    retry: Duration,
    rate: Option<u32>,
    retry_at: Option<Instant>,
    reported: bool,
}

impl Player {
    fn run(mut self, rx: Receiver<ToneCmd>) {
        while let Ok(cmd) = rx.recv() {
            // Tones that piled up while one played: each distinct one once,
            // in order (ten low-time pips in a row are one).
            let mut batch = vec![cmd];
            batch.extend(rx.try_iter());
            let mut tones: Vec<Tone> = Vec::new();
            for cmd in batch {
                match cmd {
                    ToneCmd::Play(t) => {
                        if !tones.contains(&t) {
                            tones.push(t);
                        }
                    }
                    ToneCmd::Settings(s) => self.settings = s,
                    ToneCmd::Shutdown => return,
                }
            }
            for tone in tones {
                self.play(tone);
            }
        }
    }

    fn play(&mut self, tone: Tone) {
        if !self.settings.enabled(tone) {
            return;
        }
        let now = Instant::now();
        // Reported after the bell has rung: the sentence that says the bell
        // rings never comes before the bell itself.
        let mut report = None;
        if self.rate.is_none() && self.retry_at.is_none_or(|t| now >= t) {
            match self.out.open() {
                Ok(rate) => {
                    self.rate = Some(rate);
                    self.retry_at = None;
                    if self.reported {
                        self.reported = false;
                        (self.status)(AudioStatus::Available);
                    }
                }
                Err(e) => report = self.failed(e, now),
            }
        }
        let played = match self.rate {
            Some(rate) => {
                let samples = render(tone, rate, self.settings.volume);
                match self.out.play(&samples) {
                    Ok(()) => true,
                    Err(e) => {
                        self.rate = None;
                        report = self.failed(e, now);
                        false
                    }
                }
            }
            None => false,
        };
        if !played
            && self.settings.bell_fallback
            && let Some(bell) = &self.bell
        {
            bell();
        }
        if let Some(status) = report {
            (self.status)(status);
        }
    }

    /// The device failed: look again later; the report to make, once.
    fn failed(&mut self, e: AudioError, now: Instant) -> Option<AudioStatus> {
        self.retry_at = Some(now + self.retry);
        if self.reported {
            return None;
        }
        self.reported = true;
        let bell = self.settings.bell_fallback && self.bell.is_some();
        Some(AudioStatus::Unavailable {
            why: e.to_string(),
            bell,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Power of `hz` in `x` (Goertzel), normalized by length.
    fn goertzel(x: &[f32], rate: u32, hz: f32) -> f32 {
        let w = 2.0 * PI * hz / rate as f32;
        let c = 2.0 * w.cos();
        let (mut s1, mut s2) = (0.0f32, 0.0f32);
        for &v in x {
            let s = v + c * s1 - s2;
            s2 = s1;
            s1 = s;
        }
        (s1 * s1 + s2 * s2 - c * s1 * s2) / (x.len() as f32).powi(2)
    }

    fn zero_crossings(x: &[f32]) -> usize {
        x.windows(2)
            .filter(|w| (w[0] <= 0.0) != (w[1] <= 0.0))
            .count()
    }

    /// The samples of each note of a rendered tone.
    fn segments(tone: Tone, rate: u32, samples: &[f32]) -> Vec<(Note, Vec<f32>)> {
        let mut at = 0;
        tone.notes()
            .iter()
            .map(|n| {
                let len = samples_for(n.ms, rate);
                let seg = samples[at..at + len].to_vec();
                at += len;
                (*n, seg)
            })
            .collect()
    }

    #[test]
    fn every_tone_has_the_length_of_its_notes() {
        for rate in [8000, 44_100, 48_000] {
            for tone in Tone::ALL {
                let want: usize = tone.notes().iter().map(|n| samples_for(n.ms, rate)).sum();
                assert_eq!(render(tone, rate, 1.0).len(), want, "{tone:?} at {rate}");
                let secs = want as f64 / f64::from(rate);
                assert!((secs - tone.duration().as_secs_f64()).abs() < 0.001);
            }
        }
    }

    #[test]
    fn every_note_sounds_at_its_frequency() {
        let rate = 48_000;
        for tone in Tone::ALL {
            let samples = render(tone, rate, 1.0);
            for (n, seg) in segments(tone, rate, &samples) {
                if n.hz == 0.0 {
                    assert!(seg.iter().all(|v| *v == 0.0), "{tone:?}: rest not silent");
                    continue;
                }
                // Zero crossings: two per period.
                let secs = seg.len() as f32 / rate as f32;
                let expect = 2.0 * n.hz * secs;
                let got = zero_crossings(&seg) as f32;
                assert!(
                    (got - expect).abs() <= 3.0,
                    "{tone:?} {n:?}: {got} vs {expect}"
                );
                // Goertzel: the note's frequency dominates its neighbours.
                let on = goertzel(&seg, rate, n.hz);
                for off in [n.hz * 0.8, n.hz * 1.25, n.hz * 2.0] {
                    assert!(
                        on > 20.0 * goertzel(&seg, rate, off),
                        "{tone:?} {n:?} vs {off}"
                    );
                }
            }
        }
    }

    #[test]
    fn notes_fade_in_and_out_without_clicks() {
        let samples = render(Tone::Error, 48_000, 1.0);
        assert!(samples[0].abs() < 1e-6);
        assert!(samples[samples.len() - 1].abs() < 0.01);
        let max_step = samples
            .windows(2)
            .map(|w| (w[1] - w[0]).abs())
            .fold(0.0, f32::max);
        // A 220 Hz sine at 0.5 peak moves at most 2π·220/48000·0.5 per sample.
        assert!(max_step < 0.02, "{max_step}");
    }

    #[test]
    fn volume_scales_the_peak() {
        let peak = |v| {
            render(Tone::OpponentMove, 48_000, v)
                .iter()
                .fold(0.0f32, |m, s| m.max(s.abs()))
        };
        assert!((peak(1.0) - PEAK).abs() < 0.01);
        assert!((peak(0.5) - PEAK / 2.0).abs() < 0.01);
        assert_eq!(peak(0.0), 0.0);
        assert!((peak(7.0) - PEAK).abs() < 0.01, "clamped");
        assert!((peak(f32::NAN) - PEAK).abs() < 0.01);
    }

    #[test]
    fn tones_are_distinct() {
        for (i, a) in Tone::ALL.iter().enumerate() {
            for b in &Tone::ALL[i + 1..] {
                assert_ne!(a.notes(), b.notes(), "{a:?} and {b:?}");
            }
        }
    }

    #[test]
    fn zero_rate_renders_nothing_and_does_not_panic() {
        assert!(render(Tone::Check, 0, 1.0).iter().all(|s| s.is_finite()));
    }

    #[test]
    fn settings_switch_each_tone_and_parse_from_partial_toml() {
        let s: ToneSettings = toml::from_str("check = false\nvolume = 0.3").expect("parses");
        assert!(!s.enabled(Tone::Check));
        assert!(s.enabled(Tone::FlagFall));
        assert_eq!(s.volume, 0.3);
        let silent = ToneSettings {
            volume: 0.0,
            ..ToneSettings::default()
        };
        assert!(Tone::ALL.iter().all(|t| !silent.enabled(*t)));
        assert!(toml::from_str::<ToneSettings>("chekc = true").is_err());
    }

    /// An output that records what it plays, or fails to open.
    #[derive(Clone, Default)]
    struct FakeOut {
        fail_open: bool,
        opens: Arc<AtomicUsize>,
        played: Arc<Mutex<Vec<usize>>>,
    }

    impl AudioOut for FakeOut {
        fn open(&mut self) -> Result<u32, AudioError> {
            self.opens.fetch_add(1, Ordering::SeqCst);
            if self.fail_open {
                Err(AudioError::NoDevice("none".into()))
            } else {
                Ok(8000)
            }
        }
        fn play(&mut self, samples: &[f32]) -> Result<(), AudioError> {
            self.played.lock().unwrap().push(samples.len());
            Ok(())
        }
    }

    struct Rig {
        player: TonePlayer,
        out: FakeOut,
        bells: Arc<AtomicUsize>,
        status: Receiver<AudioStatus>,
    }

    fn rig(out: FakeOut, settings: ToneSettings, retry: Duration) -> Rig {
        let bells = Arc::new(AtomicUsize::new(0));
        let b = bells.clone();
        let (tx, status) = mpsc::channel();
        let player = TonePlayer::spawn_with_retry(
            settings,
            Box::new(out.clone()),
            Some(Arc::new(move || {
                b.fetch_add(1, Ordering::SeqCst);
            })),
            Arc::new(move |s| {
                let _ = tx.send(s);
            }),
            retry,
        );
        Rig {
            player,
            out,
            bells,
            status,
        }
    }

    /// Drop the player and return what was played, how often the bell
    /// rang, the status reports and how often the device was opened.
    fn finish(r: Rig) -> (Vec<usize>, usize, Vec<AudioStatus>, usize) {
        let Rig {
            player,
            out,
            bells,
            status,
        } = r;
        drop(player);
        let played = out.played.lock().unwrap().clone();
        (
            played,
            bells.load(Ordering::SeqCst),
            status.try_iter().collect(),
            out.opens.load(Ordering::SeqCst),
        )
    }

    fn wait_until(f: impl Fn() -> bool) {
        let deadline = Instant::now() + Duration::from_secs(5);
        while !f() && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(2));
        }
    }

    #[test]
    fn player_plays_enabled_tones_at_the_device_rate() {
        let r = rig(
            FakeOut::default(),
            ToneSettings {
                check: false,
                ..ToneSettings::default()
            },
            RETRY_DEVICE,
        );
        let h = r.player.handle();
        h.play(Tone::Check);
        h.play(Tone::Error);
        let played = r.out.played.clone();
        wait_until(|| !played.lock().unwrap().is_empty());
        let (played, bells, status, _) = finish(r);
        assert_eq!(played, [render(Tone::Error, 8000, 0.6).len()]);
        assert_eq!(bells, 0);
        assert!(status.is_empty());
    }

    #[test]
    fn without_a_device_the_bell_rings_and_it_is_said_once() {
        let out = FakeOut {
            fail_open: true,
            ..FakeOut::default()
        };
        let r = rig(out, ToneSettings::default(), RETRY_DEVICE);
        let h = r.player.handle();
        h.play(Tone::Check);
        let bells = r.bells.clone();
        wait_until(|| bells.load(Ordering::SeqCst) == 1);
        h.play(Tone::FlagFall);
        wait_until(|| bells.load(Ordering::SeqCst) == 2);
        let (played, bells, status, opens) = finish(r);
        assert!(played.is_empty());
        assert_eq!(bells, 2);
        assert_eq!(opens, 1, "no new attempt before the retry time");
        assert_eq!(
            status,
            [AudioStatus::Unavailable {
                why: "no sound device: none".into(),
                bell: true,
            }]
        );
    }

    #[test]
    fn without_a_device_and_without_bell_it_stays_silent() {
        let out = FakeOut {
            fail_open: true,
            ..FakeOut::default()
        };
        let settings = ToneSettings {
            bell_fallback: false,
            ..ToneSettings::default()
        };
        let r = rig(out, settings, RETRY_DEVICE);
        r.player.handle().play(Tone::Error);
        let status = r.status.recv_timeout(Duration::from_secs(5));
        let (_, bells, _, _) = finish(r);
        assert!(matches!(
            status,
            Ok(AudioStatus::Unavailable { bell: false, .. })
        ));
        assert_eq!(bells, 0);
    }

    #[test]
    fn without_a_terminal_to_ring_it_says_the_tones_are_silent() {
        let out = FakeOut {
            fail_open: true,
            ..FakeOut::default()
        };
        let (tx, status) = mpsc::channel();
        let player = TonePlayer::spawn_with_retry(
            ToneSettings::default(),
            Box::new(out),
            None,
            Arc::new(move |s| {
                let _ = tx.send(s);
            }),
            RETRY_DEVICE,
        );
        player.handle().play(Tone::Error);
        let seen = status.recv_timeout(Duration::from_secs(5));
        assert!(matches!(
            seen,
            Ok(AudioStatus::Unavailable { bell: false, .. })
        ));
    }

    #[test]
    fn the_device_is_looked_for_again_after_the_retry_time() {
        let out = FakeOut {
            fail_open: true,
            ..FakeOut::default()
        };
        let r = rig(out, ToneSettings::default(), Duration::from_millis(20));
        let h = r.player.handle();
        h.play(Tone::Error);
        let bells = r.bells.clone();
        wait_until(|| bells.load(Ordering::SeqCst) == 1);
        thread::sleep(Duration::from_millis(40));
        h.play(Tone::Error);
        wait_until(|| bells.load(Ordering::SeqCst) == 2);
        let (_, _, _, opens) = finish(r);
        assert_eq!(opens, 2);
    }

    #[test]
    fn a_burst_of_the_same_tone_plays_it_once() {
        let r = rig(FakeOut::default(), ToneSettings::default(), RETRY_DEVICE);
        let h = r.player.handle();
        for _ in 0..10 {
            h.play(Tone::LowTime);
        }
        let played = r.out.played.clone();
        wait_until(|| !played.lock().unwrap().is_empty());
        thread::sleep(Duration::from_millis(50));
        let (played, _, _, _) = finish(r);
        // The first may start before the rest arrive: at most twice.
        assert!(!played.is_empty() && played.len() <= 2, "{played:?}");
    }

    #[test]
    fn playing_before_the_device_is_open_fails_quietly() {
        let mut out = CpalOut::new();
        assert!(matches!(out.play(&[0.0; 10]), Err(AudioError::NoDevice(_))));
    }
}
