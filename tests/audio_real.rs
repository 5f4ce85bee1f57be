//! Tones through cpal and ALSA, end to end.  Each check runs in a child
//! process (this test binary again, one `#[ignore]`d helper test) with its own
//! `ALSA_CONFIG_PATH`, so that the ALSA configuration is fresh and the
//! child's stderr can be checked for ALSA's own messages.
#![allow(
    clippy::expect_used,
    clippy::unwrap_used,
    reason = "test helpers outside #[test] functions"
)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use hector::io::{AudioStatus, Tone, TonePlayer, ToneSettings};

/// A fresh temporary directory.
fn temp_dir(tag: &str) -> PathBuf {
    let stamp = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    let dir =
        std::env::temp_dir().join(format!("hector-audio-{tag}-{}-{stamp}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Run helper test `name` in a child process with `asound` as the extra ALSA
/// configuration; returns (success, stdout, stderr).
fn child(name: &str, dir: &Path, asound: &str) -> (bool, String, String) {
    let conf = dir.join("asound.conf");
    std::fs::write(&conf, asound).expect("write asound.conf");
    let out = Command::new(std::env::current_exe().expect("test binary"))
        .args([
            "--exact",
            name,
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(
            "ALSA_CONFIG_PATH",
            format!("/usr/share/alsa/alsa.conf:{}", conf.display()),
        )
        .env("HECTOR_AUDIO_DIR", dir)
        .output()
        .expect("run the child");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn child_dir() -> PathBuf {
    PathBuf::from(std::env::var_os("HECTOR_AUDIO_DIR").expect("run by the parent test"))
}

/// Mono samples (first channel) and rate of a WAV file, 16-bit integer or
/// 32-bit float.
fn wav(bytes: &[u8]) -> (Vec<f32>, u32) {
    assert!(
        bytes.len() > 44 && &bytes[0..4] == b"RIFF",
        "not a WAV file"
    );
    let u16at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
    let u32at = |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    let (format, channels, rate, bits) = (u16at(20), u16at(22), u32at(24), u16at(34));
    let data = bytes
        .windows(4)
        .position(|w| w == b"data")
        .map(|p| p + 8)
        .expect("data chunk");
    let width = usize::from(bits / 8);
    let frame = width * usize::from(channels);
    let samples = bytes[data..]
        .chunks_exact(frame)
        .map(|f| match (format, bits) {
            (1, 16) => f32::from(i16::from_le_bytes([f[0], f[1]])) / 32768.0,
            (3, 32) => f32::from_le_bytes([f[0], f[1], f[2], f[3]]),
            (1, 32) => i32::from_le_bytes([f[0], f[1], f[2], f[3]]) as f32 / 2_147_483_648.0,
            other => panic!("unexpected WAV format {other:?}"),
        })
        .collect();
    (samples, rate)
}

fn goertzel(x: &[f32], rate: u32, hz: f32) -> f32 {
    let w = 2.0 * std::f32::consts::PI * hz / rate as f32;
    let c = 2.0 * w.cos();
    let (mut s1, mut s2) = (0.0f32, 0.0f32);
    for &v in x {
        let s = v + c * s1 - s2;
        s2 = s1;
        s1 = s;
    }
    (s1 * s1 + s2 * s2 - c * s1 * s2) / (x.len() as f32).powi(2)
}

fn assert_no_alsa_messages(stderr: &str) {
    assert!(
        !stderr.contains("ALSA lib"),
        "ALSA wrote to stderr:\n{stderr}"
    );
}

#[test]
fn a_tone_reaches_an_alsa_file_device_with_its_frequency_and_length() {
    let dir = temp_dir("file");
    let capture = dir.join("capture.wav");
    let asound = format!(
        "pcm.!default {{\n  type file\n  slave.pcm \"null\"\n  file \"{}\"\n  format \"wav\"\n}}\n",
        capture.display()
    );
    let (ok, stdout, stderr) = child("child_plays_the_error_tone", &dir, &asound);
    assert!(ok, "child failed:\n{stdout}\n{stderr}");
    assert_no_alsa_messages(&stderr);
    let (samples, rate) = wav(&std::fs::read(&capture).expect("captured"));
    // The error tone: 250 ms of 220 Hz, then silence.
    let loud: Vec<f32> = samples
        .iter()
        .copied()
        .skip_while(|s| s.abs() < 0.01)
        .collect();
    let sounding = loud
        .iter()
        .rposition(|s| s.abs() >= 0.01)
        .map_or(0, |p| p + 1);
    let secs = sounding as f32 / rate as f32;
    eprintln!(
        "captured {} samples at {rate} Hz; tone {secs:.3} s",
        samples.len()
    );
    assert!((secs - 0.25).abs() < 0.02, "tone lasted {secs} s");
    let tone = &loud[..sounding];
    let on = goertzel(tone, rate, 220.0);
    for off in [180.0, 280.0, 440.0] {
        assert!(on > 20.0 * goertzel(tone, rate, off), "220 Hz vs {off} Hz");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "helper: run by a_tone_reaches_an_alsa_file_device_with_its_frequency_and_length"]
fn child_plays_the_error_tone() {
    let _ = child_dir();
    let (tx, rx) = mpsc::channel();
    let player = TonePlayer::spawn_default(
        ToneSettings {
            volume: 1.0,
            ..ToneSettings::default()
        },
        Some(Arc::new(|| {
            panic!("the bell rang: the device did not work")
        })),
        Arc::new(move |s| {
            let _ = tx.send(s);
        }),
    );
    player.handle().play(Tone::Error);
    // The player returns from a tone after its length plus a margin.
    std::thread::sleep(Duration::from_millis(600));
    drop(player);
    assert!(rx.try_recv().is_err(), "no status: the device worked");
}

#[test]
fn a_missing_default_device_rings_the_bell_and_alsa_stays_quiet() {
    let dir = temp_dir("missing");
    let asound = "pcm.!default {\n  type hw\n  card \"hectornocard\"\n}\n";
    let (ok, stdout, stderr) = child("child_rings_the_bell", &dir, asound);
    assert!(ok, "child failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("BELLS 1"), "{stdout}");
    assert_no_alsa_messages(&stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "helper: run by a_missing_default_device_rings_the_bell_and_alsa_stays_quiet"]
fn child_rings_the_bell() {
    let _ = child_dir();
    let bells = Arc::new(AtomicUsize::new(0));
    let b = bells.clone();
    let (tx, rx) = mpsc::channel();
    let player = TonePlayer::spawn_default(
        ToneSettings::default(),
        Some(Arc::new(move || {
            b.fetch_add(1, Ordering::SeqCst);
        })),
        Arc::new(move |s| {
            let _ = tx.send(s);
        }),
    );
    player.handle().play(Tone::FlagFall);
    let status = rx.recv_timeout(Duration::from_secs(5)).expect("a status");
    assert!(
        matches!(status, AudioStatus::Unavailable { .. }),
        "{status:?}"
    );
    let deadline = Instant::now() + Duration::from_secs(5);
    while bells.load(Ordering::SeqCst) == 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    drop(player);
    println!("BELLS {}", bells.load(Ordering::SeqCst));
}

#[test]
fn alsa_would_print_on_a_missing_device_without_the_silencer() {
    // The control for the test above: the same device opened through cpal
    // without silencing the library does print, so an empty stderr there
    // means the silencer worked.
    let dir = temp_dir("control");
    let asound = "pcm.!default {\n  type hw\n  card \"hectornocard\"\n}\n";
    let (ok, stdout, stderr) = child("child_opens_without_silencer", &dir, asound);
    assert!(ok, "child failed:\n{stdout}\n{stderr}");
    assert!(
        stderr.contains("ALSA lib"),
        "ALSA printed nothing:\n{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "helper: run by alsa_would_print_on_a_missing_device_without_the_silencer"]
fn child_opens_without_silencer() {
    use cpal::traits::{DeviceTrait, HostTrait};
    let _ = child_dir();
    let host = cpal::default_host();
    if let Some(device) = host.default_output_device() {
        let _ = device.default_output_config();
    }
}

/// `hector play` with no sound device (ALSA's default names a card that
/// does not exist), reading `first` and then, once `wait_for` has been
/// printed, `quit`.  `terminal`: standard output is a pseudo-terminal
/// (through `script`, from util-linux), otherwise a pipe.  Returns all
/// output bytes.
fn play_without_sound(terminal: bool, first: &str, wait_for: &str) -> Vec<u8> {
    use std::io::{Read, Write};
    use std::process::Stdio;
    let dir = temp_dir("play");
    let conf = dir.join("asound.conf");
    std::fs::write(
        &conf,
        "pcm.!default {\n  type hw\n  card \"hectornocard\"\n}\n",
    )
    .expect("write asound.conf");
    let hector = env!("CARGO_BIN_EXE_hector");
    let args = "play --speech print";
    let mut cmd = if terminal {
        let mut c = Command::new("script");
        c.args(["-qfec", &format!("{hector} {args}"), "/dev/null"]);
        c
    } else {
        let mut c = Command::new(hector);
        c.args(args.split(' '));
        c
    };
    let mut child = cmd
        .env(
            "ALSA_CONFIG_PATH",
            format!("/usr/share/alsa/alsa.conf:{}", conf.display()),
        )
        .env("XDG_CONFIG_HOME", &dir)
        .env("HOME", &dir)
        .env("XDG_DATA_HOME", dir.join("data"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("hector starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel::<Vec<u8>>();
    let reader = std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = stdout.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    stdin.write_all(first.as_bytes()).expect("write");
    let mut out = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(20);
    while !String::from_utf8_lossy(&out).contains(wait_for) {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(bytes) => out.extend(bytes),
            Err(_) => panic!(
                "no {wait_for:?} within 20 s: {:?}",
                String::from_utf8_lossy(&out)
            ),
        }
    }
    stdin.write_all(b"quit\n").expect("write");
    drop(stdin);
    let _ = child.wait();
    while let Ok(bytes) = rx.recv_timeout(Duration::from_secs(5)) {
        out.extend(bytes);
    }
    let _ = reader.join();
    let _ = std::fs::remove_dir_all(&dir);
    out
}

const BELL_SENTENCE: &str =
    "No sound device was found, so the terminal bell rings instead of tones.";
const SILENT_SENTENCE: &str = "No sound device was found, so there are no tones.";

/// Issue 8 item 9: in a terminal, each error tone rings the bell when it
/// is due (before the next prompt, not at exit), and the message is one
/// plain sentence without the sound library's text.
#[test]
fn in_a_terminal_without_sound_the_bell_rings_for_each_tone_and_says_so() {
    let out = play_without_sound(true, "foo\n", BELL_SENTENCE);
    let text = String::from_utf8_lossy(&out).into_owned();
    let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    assert!(lines.contains(&BELL_SENTENCE), "{text:?}");
    assert!(!text.contains(".."), "double full stop: {text:?}");
    assert!(!text.contains("not available"), "library text: {text:?}");
    let bell = out.iter().position(|b| *b == 0x07).expect("the bell rang");
    let goodbye = text.find("Goodbye.").expect("goodbye");
    assert!(bell < goodbye, "the bell rang only at exit: {text:?}");
}

#[test]
fn in_a_pipe_without_sound_there_is_no_bell_and_the_message_says_so() {
    let out = play_without_sound(false, "foo\n", SILENT_SENTENCE);
    let text = String::from_utf8_lossy(&out).into_owned();
    assert!(text.lines().any(|l| l == SILENT_SENTENCE), "{text:?}");
    assert!(!out.contains(&0x07), "a bell in a pipe: {text:?}");
}
