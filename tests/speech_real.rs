//! hector's speech worker against a real, private speech-dispatcher with
//! espeak-ng, its audio captured by ALSA's `file` plugin (HEADLESS.md).
//!
//! A separate test binary: the client finds the daemon through the process
//! environment (`SPEECHD_ADDRESS`), so the tests here run one at a time.
#![allow(
    unsafe_code,
    clippy::expect_used,
    clippy::unwrap_used,
    reason = "test set-up: the process environment, helpers outside #[test]"
)]

#[path = "support/speechd.rs"]
mod speechd;

use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use hector::io::{
    Priority, SayKind, SpeechLinkConfig, SpeechMode, SpeechStatus, SpeechWorker, Utterance,
    WorkerConfig,
};
use speechd::PrivateSpeechd;

static SERIAL: Mutex<()> = Mutex::new(());

/// An empty directory for XDG_CONFIG_HOME and HOME, so that no settings
/// file of the user's leaks into a test.
fn empty_config_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("hector-speech-config-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    dir
}

/// Start a daemon and point this process's speech client at it.  Fails the
/// test (does not skip it) when speech-dispatcher is missing.
fn daemon() -> (MutexGuard<'static, ()>, PrivateSpeechd) {
    let guard = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let daemon = PrivateSpeechd::start().unwrap_or_else(|e| panic!("{e}"));
    // SAFETY (set_var): the tests of this binary hold SERIAL, and nothing
    // else in the process reads the environment meanwhile.
    unsafe { std::env::set_var("SPEECHD_ADDRESS", daemon.address()) };
    (guard, daemon)
}

fn move_utterance(text: &str) -> Utterance {
    Utterance::new(text, "de", Priority::Urgent, SayKind::Move)
}

fn status_channel() -> (
    Arc<dyn Fn(SpeechStatus) + Send + Sync>,
    Receiver<SpeechStatus>,
) {
    let (tx, rx) = mpsc::channel();
    (
        Arc::new(move |s| {
            let _ = tx.send(s);
        }),
        rx,
    )
}

/// Status reports until one matches, failing the test after `limit`.
fn until(
    rx: &Receiver<SpeechStatus>,
    limit: Duration,
    what: &str,
    pred: impl Fn(&SpeechStatus) -> bool,
) -> Vec<SpeechStatus> {
    let deadline = Instant::now() + limit;
    let mut seen = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(s) => {
                let done = pred(&s);
                seen.push(s);
                if done {
                    return seen;
                }
            }
            Err(_) => panic!("no {what} within {limit:?}; saw {seen:?}"),
        }
    }
}

/// 16-bit PCM samples of a WAV file written by ALSA's file plugin, and its
/// sample rate and channel count.
fn wav_samples(bytes: &[u8]) -> (Vec<i16>, u32, u16) {
    assert!(
        bytes.len() > 44 && &bytes[0..4] == b"RIFF",
        "not a WAV file"
    );
    let channels = u16::from_le_bytes([bytes[22], bytes[23]]);
    let rate = u32::from_le_bytes([bytes[24], bytes[25], bytes[26], bytes[27]]);
    let bits = u16::from_le_bytes([bytes[34], bytes[35]]);
    assert_eq!(bits, 16, "16-bit samples expected");
    // The data chunk follows the fmt chunk; find it rather than assume 44.
    let data = bytes
        .windows(4)
        .position(|w| w == b"data")
        .map(|p| p + 8)
        .expect("data chunk");
    let samples = bytes[data..]
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect();
    (samples, rate, channels)
}

#[test]
fn speaks_an_appendix_d_move_with_a_german_voice_into_the_capture_file() {
    let (_serial, daemon) = daemon();
    let (status, rx) = status_channel();
    let worker = SpeechWorker::spawn_system(
        WorkerConfig {
            link: SpeechLinkConfig {
                mode: SpeechMode::Tts,
                ..SpeechLinkConfig::default()
            },
            print: None,
        },
        status,
    );
    let said = Instant::now();
    worker.handle().say(move_utterance("Springer Felix drei"));
    let seen = until(&rx, Duration::from_secs(20), "end of speech", |s| {
        assert!(!matches!(s, SpeechStatus::FellBack { .. }), "{s:?}");
        matches!(s, SpeechStatus::Ended { .. })
    });
    let began = seen
        .iter()
        .find_map(|s| match s {
            SpeechStatus::Began { voice, at, .. } => Some((voice.clone(), *at)),
            _ => None,
        })
        .expect("a begin report");
    assert_eq!(began.0.as_deref(), Some("language de"));
    eprintln!("say -> begin: {:?}", began.1 - said);
    worker.shutdown(Duration::from_secs(1));

    // The daemon was asked for German and passed German to espeak-ng.
    let log = daemon.log_text();
    assert!(
        log.contains("SET SELF LANGUAGE de"),
        "client did not set German"
    );
    assert!(log.contains("language=de"), "synthesizer not told German");
    assert!(
        log.contains("Springer Felix drei"),
        "text not in the daemon log"
    );

    // Audio was produced: about a second of speech, not silence.
    let bytes = std::fs::read(&daemon.capture).expect("capture file written");
    let (samples, rate, channels) = wav_samples(&bytes);
    let loud = samples.iter().filter(|s| s.unsigned_abs() > 1000).count();
    let secs = samples.len() as f64 / f64::from(rate) / f64::from(channels.max(1));
    eprintln!(
        "captured {} bytes, {rate} Hz x{channels}, {secs:.2} s, {loud} loud samples",
        bytes.len()
    );
    assert!(secs > 0.5 && secs < 10.0, "{secs} s of audio");
    assert!(
        loud > rate as usize / 10,
        "only {loud} loud samples: silence?"
    );
}

#[test]
fn a_daemon_that_stops_answering_is_detected_and_printing_takes_over() {
    let (_serial, daemon) = daemon();
    let (status, rx) = status_channel();
    let printed = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = printed.clone();
    let worker = SpeechWorker::spawn_system(
        WorkerConfig {
            link: SpeechLinkConfig {
                mode: SpeechMode::Tts,
                call_timeout: Duration::from_millis(500),
                open_timeout: Duration::from_secs(1),
                retry_first: Duration::from_millis(300),
                retry_max: Duration::from_millis(600),
                ..SpeechLinkConfig::default()
            },
            print: Some(Arc::new(move |line: &str| {
                sink.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(line.into())
            })),
        },
        status,
    );
    let h = worker.handle();
    h.say(move_utterance("Bauer Eva vier"));
    until(&rx, Duration::from_secs(20), "first sentence", |s| {
        matches!(s, SpeechStatus::Ended { .. })
    });

    // Freeze the daemon: every call now blocks, as in the measured hang.
    daemon.signal("STOP");
    let t = Instant::now();
    h.say(move_utterance("Springer Felix drei"));
    h.say(move_utterance("Dame David acht"));
    assert!(t.elapsed() < Duration::from_millis(20), "say blocked");
    let seen = until(&rx, Duration::from_secs(10), "fall-back", |s| {
        matches!(s, SpeechStatus::FellBack { .. })
    });
    eprintln!("hang detected after {:?}: {:?}", t.elapsed(), seen.last());
    // The lines follow the report (printed by the worker right after it).
    let lines = || printed.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let deadline = Instant::now() + Duration::from_secs(5);
    while lines().len() < 2 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(lines(), ["Springer Felix drei", "Dame David acht"]);

    // Thaw it: a fresh connection is made and speech comes back.
    daemon.signal("CONT");
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut reconnected = false;
    while !reconnected && Instant::now() < deadline {
        h.say(move_utterance("Turm Anna eins"));
        let wait = Instant::now() + Duration::from_millis(700);
        while let Ok(s) = rx.recv_timeout(wait.saturating_duration_since(Instant::now())) {
            assert!(
                !matches!(s, SpeechStatus::FellBack { .. }),
                "reported twice"
            );
            if matches!(s, SpeechStatus::Reconnected { .. }) {
                reconnected = true;
                break;
            }
        }
    }
    assert!(reconnected, "speech did not come back");
    drop(worker);
}

/// The real binary: `hector say --move Nf3` prints the announcement and
/// speaks it in German through the daemon (audio in the capture file).
#[test]
fn hector_say_move_speaks_the_announcement_in_german() {
    let (_guard, daemon) = daemon();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hector"))
        .env("XDG_CONFIG_HOME", empty_config_dir())
        .env("HOME", empty_config_dir())
        .env("XDG_DATA_HOME", empty_config_dir().join("data"))
        .args(["say", "--move", "Nf3"])
        .env("SPEECHD_ADDRESS", daemon.address())
        .output()
        .expect("hector runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "stdout: {stdout}");
    assert_eq!(stdout.trim(), "Springer Felix drei");
    let wav = std::fs::read(&daemon.capture).unwrap_or_default();
    let (samples, _, _) = wav_samples(&wav);
    assert!(
        samples.iter().filter(|s| s.unsigned_abs() > 1000).count() > 1000,
        "no speech in the capture ({} bytes)",
        wav.len()
    );
    assert!(daemon.log_text().contains("SET SELF LANGUAGE de"));
}

/// A game in line mode with `--speech tts`: every move is printed and
/// spoken, and the goodbye is heard before hector exits.
#[test]
fn line_mode_speaks_every_move_through_the_daemon() {
    let (_guard, daemon) = daemon();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hector"))
        .env("XDG_CONFIG_HOME", empty_config_dir())
        .env("HOME", empty_config_dir())
        .env("XDG_DATA_HOME", empty_config_dir().join("data"))
        .args(["play", "--speech", "tts", "--no-sound", "--no-resume"])
        .env("SPEECHD_ADDRESS", daemon.address())
        // The game's journal goes to a folder of its own.
        .env(
            "XDG_DATA_HOME",
            std::env::temp_dir().join(format!("hector-speech-data-{}", std::process::id())),
        )
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("hector starts");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("piped");
        stdin.write_all(b"e4\ne5\nquit\n").expect("write");
    }
    let out = child.wait_with_output().expect("hector runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        vec![
            "New game. White to move.",
            "Bauer Eva vier",
            "Bauer Eva fünf",
            "Goodbye."
        ]
    );
    let log = daemon.log_text();
    for sentence in ["Bauer Eva vier", "Bauer Eva fünf"] {
        assert!(log.contains(sentence), "{sentence} not sent to the daemon");
    }
    let wav = std::fs::read(&daemon.capture).unwrap_or_default();
    let (samples, _, _) = wav_samples(&wav);
    assert!(samples.iter().filter(|s| s.unsigned_abs() > 1000).count() > 1000);
}

/// Issue 8 item 10: an English sentence naming squares and a piece in
/// Appendix D words is one SSML message whose German words are a German
/// voice span; the daemon hands exactly that to espeak-ng, with English as
/// the sentence's language, and audio comes out.
#[test]
fn an_english_sentence_speaks_its_appendix_d_words_in_the_german_voice() {
    use hector::io::Part;
    let (_serial, daemon) = daemon();
    let (status, rx) = status_channel();
    let worker = SpeechWorker::spawn_system(
        WorkerConfig {
            link: SpeechLinkConfig {
                mode: SpeechMode::Tts,
                ..SpeechLinkConfig::default()
            },
            print: None,
        },
        status,
    );
    let sentence = Utterance::mixed(
        vec![
            Part::new("Felix sechs", "de"),
            Part::new(" is attacked by ", "en"),
            Part::new("Springer Gustav acht", "de"),
            Part::new(".", "en"),
        ],
        "en",
        Priority::Normal,
        SayKind::Info,
    );
    assert_eq!(
        sentence.text,
        "Felix sechs is attacked by Springer Gustav acht."
    );
    worker.handle().say(sentence);
    let seen = until(&rx, Duration::from_secs(20), "end of speech", |s| {
        assert!(!matches!(s, SpeechStatus::FellBack { .. }), "{s:?}");
        matches!(s, SpeechStatus::Ended { .. })
    });
    let voice = seen.iter().find_map(|s| match s {
        SpeechStatus::Began { voice, .. } => voice.clone(),
        _ => None,
    });
    assert_eq!(voice.as_deref(), Some("language en, spans de+en"));
    worker.shutdown(Duration::from_secs(1));

    let log = daemon.log_text();
    assert!(log.contains("SET SELF LANGUAGE en"), "sentence not English");
    assert!(log.contains("SET SELF SSML_MODE on"), "SSML mode not set");
    let sent = "<speak><voice xml:lang=\"de\">Felix sechs</voice> is attacked by \
                <voice xml:lang=\"de\">Springer Gustav acht</voice>.</speak>";
    assert!(log.contains(sent), "the SSML was not sent as is");
    // What the daemon passed on to the synthesizer: the same spans (with
    // its index marks added), and English for the sentence.
    let spans = "<voice xml:lang=\"de\">Felix sechs</voice> is attacked by \
                 <voice xml:lang=\"de\">Springer Gustav acht</voice>";
    assert!(
        log.lines()
            .any(|l| l.contains("Command sent to output module") && l.contains(spans)),
        "the spans did not reach espeak-ng"
    );
    assert!(log.contains("language=en"), "synthesizer not told English");
    let wav = std::fs::read(&daemon.capture).unwrap_or_default();
    let (samples, rate, channels) = wav_samples(&wav);
    let secs = samples.len() as f64 / f64::from(rate) / f64::from(channels.max(1));
    eprintln!("mixed sentence: {secs:.2} s of audio");
    assert!(secs > 1.0, "{secs} s of audio");
}

/// Issue 8 item 9: `hector say --speech print` prints the sentence and
/// exits 0 without connecting to the speech service (here a socket that
/// would accept the connection).
#[test]
fn say_with_speech_print_prints_and_never_touches_the_speech_service() {
    let dir = std::env::temp_dir().join(format!("hector-say-print-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let socket = dir.join("speechd.sock");
    let _ = std::fs::remove_file(&socket);
    let listener = std::os::unix::net::UnixListener::bind(&socket).expect("bind");
    listener.set_nonblocking(true).expect("nonblocking");
    let t = Instant::now();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hector"))
        .env("XDG_CONFIG_HOME", empty_config_dir())
        .env("HOME", empty_config_dir())
        .env("XDG_DATA_HOME", empty_config_dir().join("data"))
        .args(["say", "--speech", "print", "--move", "Nf3"])
        .env(
            "SPEECHD_ADDRESS",
            format!("unix_socket:{}", socket.display()),
        )
        .output()
        .expect("hector runs");
    let elapsed = t.elapsed();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "Springer Felix drei\n"
    );
    assert!(
        matches!(listener.accept(), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock),
        "hector connected to the speech service"
    );
    eprintln!("say --speech print: {elapsed:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 8 item 9: `hector voices` is a summary, one line per language with
/// the number of voices and the one hector uses; `--all` adds every voice.
#[test]
fn voices_lists_per_language_the_count_and_the_voice_used() {
    let (_guard, daemon) = daemon();
    let run = |all: bool| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_hector"));
        cmd.env("XDG_CONFIG_HOME", empty_config_dir())
            .env("HOME", empty_config_dir())
            .env("XDG_DATA_HOME", empty_config_dir().join("data"));
        cmd.arg("voices");
        if all {
            cmd.arg("--all");
        }
        let out = cmd
            .env("SPEECHD_ADDRESS", daemon.address())
            .output()
            .expect("hector runs");
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let summary = run(false);
    let lines: Vec<&str> = summary.lines().collect();
    eprintln!(
        "hector voices: {} lines, {} bytes",
        lines.len(),
        summary.len()
    );
    let german = lines
        .iter()
        .find(|l| l.starts_with("de: "))
        .expect("a German line");
    assert!(german.ends_with("; hector uses German"), "{german}");
    // Issue 18: hector's own four languages, then the count of the others.
    let (last, langs) = lines.split_last().expect("lines");
    assert!(
        last.ends_with("other languages have voices: hector voices --all lists them."),
        "{last}"
    );
    assert_eq!(langs.len(), 4, "{summary}");
    for l in langs {
        let (lang, rest) = l.split_once(": ").expect("lang: ...");
        assert!(["en", "de", "it", "el"].contains(&lang), "{l}");
        assert!(
            rest.contains(" voice") && rest.contains("; hector uses "),
            "{l}"
        );
    }
    let all = run(true);
    assert!(all.len() > summary.len());
    assert!(all.contains("German+"), "variants listed with --all");
    assert!(all.lines().all(|l| l.chars().count() <= 79), "wrapped");
}

/// The whole chain, through the binary: in line mode an English answer
/// naming squares and pieces reaches the daemon as one SSML sentence whose
/// Appendix D words are German voice spans.
#[test]
fn line_mode_speaks_appendix_d_words_of_an_english_answer_in_german() {
    let (_guard, daemon) = daemon();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hector"))
        .env("XDG_CONFIG_HOME", empty_config_dir())
        .env("HOME", empty_config_dir())
        .env("XDG_DATA_HOME", empty_config_dir().join("data"))
        .args(["play", "--speech", "tts", "--no-sound"])
        .env("SPEECHD_ADDRESS", daemon.address())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("hector starts");
    use std::io::Write;
    let mut stdin = child.stdin.take().expect("piped");
    stdin
        .write_all(b"e4\ne5\nNf3\nattackers e5\n")
        .expect("write");
    // Quit only once the answer has reached the daemon (quitting first
    // would rightly cut it short).
    let ssml = "<speak><voice xml:lang=\"de\">Eva fünf</voice> is attacked by \
                <voice xml:lang=\"de\">Springer Felix drei</voice>.</speak>";
    let deadline = Instant::now() + Duration::from_secs(20);
    while !daemon.log_text().contains(ssml) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    stdin.write_all(b"quit\n").expect("write");
    drop(stdin);
    let out = child.wait_with_output().expect("hector runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout
            .lines()
            .any(|l| l == "Eva fünf is attacked by Springer Felix drei."),
        "{stdout}"
    );
    let log = daemon.log_text();
    assert!(log.contains(ssml), "the answer was not sent as SSML spans");
    assert!(log.contains("SET SELF LANGUAGE en"));
    // The moves themselves stay plain German sentences.
    assert!(
        log.contains("SET SELF SSML_MODE off"),
        "SSML left on for the moves"
    );
}

/// A Greek sentence with the Greek voice: `hector say --lang el --moves
/// language --move Nf3` prints and speaks "Ίππος ζ3" through the daemon,
/// which is asked for Greek (espeak-ng's `el`).
#[test]
fn hector_say_move_speaks_greek_with_a_greek_voice() {
    let (_guard, daemon) = daemon();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hector"))
        .env("XDG_CONFIG_HOME", empty_config_dir())
        .env("HOME", empty_config_dir())
        .env("XDG_DATA_HOME", empty_config_dir().join("data"))
        .args([
            "say", "--lang", "el", "--moves", "language", "--move", "Nf3",
        ])
        .env("SPEECHD_ADDRESS", daemon.address())
        .output()
        .expect("hector runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "stdout: {stdout}");
    assert_eq!(stdout.trim(), "Ίππος ζ3");
    let wav = std::fs::read(&daemon.capture).unwrap_or_default();
    let (samples, _, _) = wav_samples(&wav);
    assert!(
        samples.iter().filter(|s| s.unsigned_abs() > 1000).count() > 1000,
        "no speech in the capture ({} bytes)",
        wav.len()
    );
    let log = daemon.log_text();
    assert!(log.contains("SET SELF LANGUAGE el"), "{log}");
}
