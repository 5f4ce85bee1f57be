//! The `hector` command line.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use hector::msg::Effect;
use hector::setup::{Overrides, start};
use hector::speech::{Priority, SayKind, Utterance};
use hector::ui::line::{self, PromptMode};

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
    match args.ui {
        UiKind::Line => {
            match line::run(&mut started.app, effects, args.prompt, &mut line::PrintOnly) {
                Ok(()) => ExitCode::SUCCESS,
                // A closed standard output (e.g. `hector | head`) ends the session.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("hector: {e}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match &cli.command {
        Some(Cmd::Play(args)) => play(args),
        None => play(&cli.play),
    }
}
