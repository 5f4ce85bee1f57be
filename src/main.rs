//! The `hector` command line.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::{Arc, mpsc};
use std::time::Duration;

use clap::{Parser, Subcommand};

use hector::audio::TonePlayer;
use hector::msg::{Effect, Msg};
use hector::setup::{Overrides, start};
use hector::speech::{
    Priority, SayKind, SpeechMode, SpeechStatus, SpeechWorker, Utterance, WorkerConfig,
};
use hector::ui::line::{self, Outputs, PromptMode};

/// hector: chess for blind and visually impaired players.
///
/// Moves are announced the FIDE Appendix D way (Anna, Bella, Cesar ...;
/// eins, zwei ...; König, Dame, Turm, Läufer, Springer, Bauer) and every
/// announcement is printed as one line for screen readers and braille
/// displays.  Without a command, hector starts a game (`hector play`).
#[derive(Debug, Parser)]
#[command(name = "hector", version, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
    #[command(flatten)]
    play: PlayArgs,
}

#[derive(Debug, Subcommand)]
enum Cmd {
    /// Play a game: two players at one keyboard, moves typed in any notation.
    Play(PlayArgs),
    /// List the speech voices of this machine, by language.
    Voices,
    /// Speak a sentence, or a move's announcement, to check that speech works.
    Say(SayArgs),
}

#[derive(Debug, Clone, clap::Args)]
struct SayArgs {
    /// Read TEXT as a move from the starting position and speak its
    /// announcement, e.g. `hector say --move Nf3`.
    #[arg(long = "move")]
    as_move: bool,
    #[command(flatten)]
    settings: Overrides,
    /// What to say.
    #[arg(required = true, num_args = 1..)]
    text: Vec<String>,
}

#[derive(Debug, Clone, clap::Args)]
struct PlayArgs {
    #[command(flatten)]
    settings: Overrides,
    /// Front end: line mode for screen readers and braille displays.
    #[arg(long, value_enum, default_value = "line")]
    ui: UiKind,
    /// When to print the prompt (whose move, move number).
    #[arg(long, value_enum, default_value = "auto")]
    prompt: PromptMode,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum UiKind {
    /// One line per announcement; reads well with screen readers.
    Line,
}

fn play(args: &PlayArgs) -> ExitCode {
    let mut started = start(&args.settings);
    let (tx, rx) = mpsc::channel::<Msg>();
    // Speech and tones first, before anything is printed: ALSA's own error
    // messages are silenced by the tone player as it opens the device.
    let speech = match started.speech {
        SpeechMode::Print => None,
        mode => {
            let tx = tx.clone();
            let status = move |s: SpeechStatus| {
                if matches!(
                    s,
                    SpeechStatus::FellBack { .. } | SpeechStatus::Reconnected { .. }
                ) {
                    let _ = tx.send(Msg::Speech(s));
                }
            };
            let config = WorkerConfig {
                mode,
                settings: started.speech_settings,
                ..WorkerConfig::default()
            };
            Some(SpeechWorker::spawn_system(config, Arc::new(status)))
        }
    };
    let tones = started.any_tone().then(|| {
        let tx = tx.clone();
        // A bell only where a terminal hears it: never into a pipe.
        let bell: hector::audio::BellSink = if std::io::stdout().is_terminal() {
            hector::audio::terminal_bell()
        } else {
            Arc::new(|| {})
        };
        TonePlayer::spawn_default(
            started.tones,
            bell,
            Arc::new(move |s| {
                let _ = tx.send(Msg::Audio(s));
            }),
        )
    });
    let outputs = Outputs {
        speech: speech.as_ref().map(SpeechWorker::handle),
        tones: tones.as_ref().map(TonePlayer::handle),
    };

    let lang = started.app.phraser().msg_lang().to_owned();
    let mut effects: Vec<Effect> = started
        .startup_messages
        .into_iter()
        .map(|text| {
            Effect::Say(Utterance {
                text,
                lang: lang.clone(),
                priority: Priority::Normal,
                kind: SayKind::Error,
            })
        })
        .collect();
    effects.push(Effect::Say(Utterance {
        text: started.app.phraser().message("new_game", &[]),
        lang,
        priority: Priority::Normal,
        kind: SayKind::Game,
    }));
    let result = match args.ui {
        UiKind::Line => line::run(&mut started.app, effects, args.prompt, &outputs, tx, rx),
    };
    // Let the last sentence ("Goodbye.") be heard.
    if let Some(worker) = speech {
        worker.shutdown(Duration::from_secs(3));
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A closed standard output (e.g. `hector | head`) ends the session.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hector: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `hector voices`: one line per language.
fn voices() -> ExitCode {
    match hector::speech::list_voices() {
        Ok(list) => {
            let mut out = std::io::stdout().lock();
            for (lang, voices) in hector::speech::voices_by_language(&list) {
                let names: Vec<&str> = voices.iter().map(|v| v.name.as_str()).collect();
                // A closed pipe (`hector voices | head`) ends the list quietly.
                if writeln!(out, "{lang}: {} voices: {}", names.len(), names.join(", ")).is_err() {
                    break;
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!(
                "Speech is not working: {e}. Install speech-dispatcher and espeak-ng (see the README)."
            );
            ExitCode::FAILURE
        }
    }
}

/// `hector say TEXT` / `hector say --move Nf3`: print and speak one sentence.
fn say(args: &SayArgs) -> ExitCode {
    let started = start(&args.settings);
    for m in &started.startup_messages {
        println!("{m}");
    }
    let text = args.text.join(" ");
    let phraser = started.app.phraser();
    let (sentence, lang) = if args.as_move {
        let pos = shakmaty::Chess::default();
        match started.app.reader().read(&text, &pos) {
            Ok(mv) => (phraser.say_move(&pos, mv), phraser.move_lang().to_owned()),
            Err(e) => {
                println!("{}", phraser.input_error(&e, &pos));
                return ExitCode::FAILURE;
            }
        }
    } else {
        (text, phraser.msg_lang().to_owned())
    };
    println!("{sentence}");
    match hector::speech::say_once(&sentence, &lang, started.speech_settings) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            println!(
                "{}",
                phraser.message("speech_fell_back", &[("why", &e.to_string())])
            );
            ExitCode::FAILURE
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match &cli.command {
        Some(Cmd::Play(args)) => play(args),
        Some(Cmd::Voices) => voices(),
        Some(Cmd::Say(args)) => say(args),
        None => play(&cli.play),
    }
}
