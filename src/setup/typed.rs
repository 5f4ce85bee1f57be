//! What was typed: the command line as clap reads it, kept close to the
//! flags (nothing resolved, no file read, no port opened).  What it
//! resolves to is the work of the modules beside this one; `main` parses
//! and dispatches.  The split follows ripgrep's (`flags/lowargs.rs`, what
//! was typed, and `flags/hiargs.rs`, what it means).
//!
//! The doc comments of these types are the command line's help text.

use std::path::PathBuf;

use clap::builder::PossibleValuesParser;
use clap::{Parser, Subcommand};

use crate::board::Protocol;
use crate::board::hardware::MAX_SETTLE_MS;
use crate::config::ColourChoice;
use crate::phrase::{Form, MoveStyle};
use crate::scoresheet::ExportFormat;
use crate::speech::SpeechMode;
use crate::words::vocab::Lang;

/// hector: chess for blind and visually impaired players.
///
/// Moves are announced the FIDE Appendix D way (Anna, Bella, Cesar ...;
/// eins, zwei ...; König, Dame, Turm, Läufer, Springer, Bauer) and every
/// announcement is printed as one line for screen readers and braille
/// displays.  Without a command, hector starts a game (`hector play`).
#[derive(Debug, Parser)]
#[command(
    name = "hector",
    version,
    args_conflicts_with_subcommands = true,
    // Short: the commands and how to begin.  Every option of a game is
    // `hector play --help` (issue 30: 184 lines, each play option twice).
    help_template = "{before-help}{about-with-newline}\n{usage-heading} {usage}\n\nCommands:\n{subcommands}{after-help}",
)]
pub struct Cli {
    /// The command (none: `play`).
    #[command(subcommand)]
    pub command: Option<Cmd>,
    /// `play`'s options, given without the command.
    /// How the game is played.
    #[command(flatten)]
    pub play: PlayArgs,
}

/// How to begin, under `hector --help`: each example's arguments after
/// `hector` (data: typed the same in every language) and the key of what
/// it does (empty: said by the example before it).
const EXAMPLES: &[(&[&str], &str)] = &[
    (&[], "cli_example_game"),
    (&["play", "--time", "90+30"], "cli_example_clock"),
    (
        &["play", "--board", "auto", "--time", "5+3"],
        "cli_example_board",
    ),
    (&["play", "--engine", "--level", "3"], "cli_example_engine"),
    (
        &["play", "--engine", "--me", "black", "--time", "10+5"],
        "cli_example_engine_black",
    ),
    (&["lichess", "login"], "cli_example_login"),
    (
        &[
            "play",
            "--lichess",
            "--challenge",
            "NAME",
            "--time",
            "10+5",
            "--color",
            "black",
        ],
        "",
    ),
    (&["play", "--ui", "tui"], "cli_example_tui"),
    (&["review", "games.pgn"], "cli_example_review"),
];

/// `hector --help`'s examples in the player's language: the commands in
/// a column, what each does beside it, then the colour options.  clap's
/// own texts (the commands' and options' descriptions) stay English.
pub fn examples(lang: Lang) -> String {
    let phraser = crate::phrase::Phraser::builtin(MoveStyle::AppendixD, lang, Default::default());
    let mut out = format!("{}\n", phraser.message("cli_examples_heading", &[]));
    for (args, key) in EXAMPLES {
        let command = std::iter::once("hector")
            .chain(args.iter().copied())
            .collect::<Vec<_>>()
            .join(" ");
        if key.is_empty() {
            out.push_str(&format!("  {command}\n"));
        } else {
            let what = phraser.message(key, &[]);
            out.push_str(&format!("  {command:<38}   {what}\n"));
        }
    }
    out.push('\n');
    out.push_str(&phraser.message("cli_examples_colours", &[]));
    out
}

/// The player's language before clap has read the command line (for
/// `hector --help` and the colour mix-up), decided as the start-up does
/// (`setup::settings::start`): `--lang`, else the settings file's
/// `announce.language` (`--config`, else the one in the config folder),
/// else English.
pub fn language_before_parsing(args: &[String]) -> Lang {
    let value = |flag: &str| {
        args.windows(2)
            .find(|w| w[0] == flag)
            .map(|w| w[1].clone())
            .or_else(|| {
                args.iter()
                    .find_map(|a| a.strip_prefix(&format!("{flag}=")))
                    .map(str::to_owned)
            })
    };
    let typed = value("--lang").and_then(|code| {
        Lang::ALL
            .into_iter()
            .find(|l| l.code() == code.to_lowercase())
    });
    typed.unwrap_or_else(|| {
        value("--config")
            .map(PathBuf::from)
            .or_else(crate::config::Config::default_path)
            .map(|path| crate::settings_file::load(&path, false).0.announce.language)
            .unwrap_or_default()
    })
}

impl Cli {
    /// The command line as typed.  A mix-up of `--colour` (say the colour
    /// before each move) with `--me` or `--color` (the colour asked of
    /// lichess) is answered with a sentence that names the right option,
    /// in the player's language; any other error is clap's, and `--help`
    /// gives its examples in the player's language.
    pub fn read() -> Cli {
        use clap::{CommandFactory, FromArgMatches};
        let args: Vec<String> = std::env::args().collect();
        let lang = language_before_parsing(&args);
        let parsed = Cli::command()
            .after_help(examples(lang))
            .try_get_matches_from(&args)
            .and_then(|m| Cli::from_arg_matches(&m));
        match parsed {
            Ok(cli) => cli,
            Err(e) => {
                if e.kind() != clap::error::ErrorKind::DisplayHelp
                    && e.kind() != clap::error::ErrorKind::DisplayVersion
                    && let Some(sentence) = colour_mixup(&args, lang)
                {
                    eprintln!("hector: {sentence}");
                    std::process::exit(2);
                }
                e.exit()
            }
        }
    }
}

/// The sentence for `--colour black` (a switch given a colour) or
/// `--color black` without `--lichess`: what each option is, with the
/// colour typed, in `lang`; `None` when the line shows no such mix-up.
pub fn colour_mixup(args: &[String], lang: Lang) -> Option<String> {
    let colour_word = |w: &str| matches!(w.to_lowercase().as_str(), "white" | "black" | "random");
    let phraser = crate::phrase::Phraser::builtin(MoveStyle::AppendixD, lang, Default::default());
    let after = |flag: &str| {
        args.windows(2)
            .find(|w| w[0] == flag && colour_word(&w[1]))
            .map(|w| w[1].to_lowercase())
            .or_else(|| {
                args.iter()
                    .find_map(|a| a.strip_prefix(&format!("{flag}=")))
                    .filter(|c| colour_word(c))
                    .map(str::to_lowercase)
            })
    };
    if let Some(colour) = after("--colour") {
        return Some(phraser.message("cli_colour_mixup", &[("colour", &colour)]));
    }
    let lichess = args.iter().any(|a| a == "--lichess");
    match after("--color") {
        Some(colour) if !lichess => {
            Some(phraser.message("cli_color_without_lichess", &[("colour", &colour)]))
        }
        _ => None,
    }
}

/// hector's commands.
#[derive(Debug, Subcommand)]
pub enum Cmd {
    /// Play a game: two players at one keyboard, moves typed in any notation.
    Play(PlayArgs),
    /// List the speech voices of this machine: per language, how many and
    /// the one hector uses.
    Voices(VoicesArgs),
    /// Speak a sentence, or a move's announcement, to check that speech works.
    Say(SayArgs),
    /// The player's board: list ports, probe one, or simulate a board.
    #[command(subcommand)]
    Board(BoardCmd),
    /// List the saved games: number, id, date, players, result, moves.
    Games(GamesArgs),
    /// Go on with a saved game (by its id, number or the start of its id).
    Resume(ResumeArgs),
    /// Write a saved game's scoresheet as PGN, BRF, Unicode braille,
    /// large-print text or speech (WAV).
    Export(ExportArgs),
    /// Check a saved game's journal, or a PGN exported from one: whole or
    /// where broken, the digest it ends with, its mode, the questions.
    Verify(VerifyArgs),
    /// Step through the games of a PGN file: next, previous, goto N, start,
    /// end; games, game N, find NAME; every exploration command.
    Review(ReviewArgs),
    /// Online play on lichess: keep your personal API token (`login`),
    /// forget it (`logout`), hear your games in progress (`games`).
    #[command(subcommand)]
    Lichess(LichessCmd),
}

/// `hector lichess login|logout|games`.
#[derive(Debug, Subcommand)]
pub enum LichessCmd {
    /// Paste your lichess token (not shown): hector checks it with lichess,
    /// says your account's name and keeps it for your games.
    Login(LichessArgs),
    /// Forget the kept token.
    Logout(LichessArgs),
    /// Your games in progress on lichess (correspondence ones too): whose
    /// move, the time left, each game's id for `play --lichess --game ID`.
    Games(LichessArgs),
}

/// The options of `hector lichess login|logout|games`.
#[derive(Debug, Clone, clap::Args)]
pub struct LichessArgs {
    /// The lichess server.
    #[arg(long = "lichess-url", value_name = "URL", default_value = crate::lichess::api::DEFAULT_URL)]
    pub url: String,
    /// The settings over the settings file.
    #[command(flatten)]
    pub settings: Overrides,
}

/// The options of `hector games`.
#[derive(Debug, Clone, clap::Args)]
pub struct GamesArgs {
    /// The words of the listing.
    #[command(flatten)]
    pub settings: PrintOnly,
}

/// `hector resume ID`: the game and how it goes on.
#[derive(Debug, Clone, clap::Args)]
pub struct ResumeArgs {
    /// The game: its id, its number in `hector games`, or the start of its id.
    pub id: String,
    /// How the game is played.
    #[command(flatten)]
    pub play: PlayArgs,
}

/// `hector review FILE`: the file and how it is shown.
#[derive(Debug, Clone, clap::Args)]
pub struct ReviewArgs {
    /// The PGN file.
    pub file: std::path::PathBuf,
    /// How the game is played.
    #[command(flatten)]
    pub play: PlayArgs,
}

/// `hector export ID`: the game, the format, the file.
#[derive(Debug, Clone, clap::Args)]
pub struct ExportArgs {
    /// The game: its id, its number in `hector games`, or the start of its id.
    pub id: String,
    /// The format.
    #[arg(long, value_enum, default_value = "pgn")]
    pub format: ExportFormat,
    /// The file to write (default: ID.EXT in this folder; `-`: standard
    /// output).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<std::path::PathBuf>,
    /// Overwrite the file if it exists (never a game's journal).
    #[arg(long)]
    pub force: bool,
    /// Also write the arbiter's log beside it (ID.arbiter.txt): the
    /// record checked, its digest, and every record of the journal.
    #[arg(long)]
    pub arbiter: bool,
    /// The words of the export.
    #[command(flatten)]
    pub settings: PrintOnly,
}

/// The options of `hector verify FILE`.
#[derive(Debug, Clone, clap::Args)]
pub struct VerifyArgs {
    /// The journal (a file of the games folder) or the PGN file.
    pub file: std::path::PathBuf,
    /// The words of the sentence.
    #[command(flatten)]
    pub settings: PrintOnly,
}

/// `hector board list|probe|sim`.
#[derive(Debug, Subcommand)]
pub enum BoardCmd {
    /// List the serial ports of this machine.
    List,
    /// Tell which board protocol answers on PORT.
    Probe {
        /// The port, e.g. /dev/ttyUSB0 or COM3.
        port: String,
    },
    /// Simulate a board on a pseudo-terminal: prints its device path, then
    /// plays the moves typed (any notation) or scripted.  Other lines:
    /// `unplug`, `plug`, `garbage N`, `put e4 P`, `clear e4`, `new`,
    /// `dump`, `quit`.
    Sim(SimArgs),
}

/// `hector board sim`'s options.
#[derive(Debug, Clone, clap::Args)]
pub struct SimArgs {
    /// The protocol the simulated board speaks.
    #[arg(long, value_parser = PossibleValuesParser::new(Protocol::ALL.map(Protocol::name)))]
    pub protocol: String,
    /// Keep a symbolic link at PATH to the device (also after unplug/plug),
    /// so that hector can be started with --board PROTOCOL:PATH.
    #[arg(long, value_name = "PATH")]
    pub link: Option<std::path::PathBuf>,
    /// Play the lines of FILE first.
    #[arg(long, value_name = "FILE")]
    pub script: Option<std::path::PathBuf>,
    /// Seconds between the lines of the script.
    #[arg(long, default_value = "1")]
    pub pace: f64,
    /// Set sliding pieces down on every square they pass over.
    #[arg(long)]
    pub slide: bool,
}

/// `hector voices`'s options.
#[derive(Debug, Clone, clap::Args)]
pub struct VoicesArgs {
    /// List every language with voices (not only hector's own four), and
    /// every voice and variant of each.
    #[arg(long)]
    pub all: bool,
}

/// `hector say`: what to say and how.
#[derive(Debug, Clone, clap::Args)]
pub struct SayArgs {
    /// Read TEXT as a move from the starting position and speak its
    /// announcement, e.g. `hector say --move Nf3`.
    #[arg(long = "move")]
    pub as_move: bool,
    /// The settings over the settings file.
    #[command(flatten)]
    pub settings: Overrides,
    /// What to say.
    #[arg(required = true, num_args = 1..)]
    pub text: Vec<String>,
}

/// How a game is played: `hector play`'s options, and `resume`'s and
/// `review`'s.
#[derive(Debug, Clone, clap::Args)]
pub struct PlayArgs {
    /// The settings over the settings file.
    #[command(flatten)]
    pub settings: Overrides,
    /// Front end: line mode for screen readers and braille displays.
    /// (default: `ui` in the settings' `[view]`, else line).
    #[arg(long, value_enum)]
    pub ui: Option<UiKind>,
    /// When to print the prompt (whose move, move number).
    #[arg(long, value_enum, default_value = "auto")]
    pub prompt: PromptMode,
    /// The player's board: `auto` (find one), PROTOCOL:PORT (dgt, millennium
    /// or occupancy, e.g. dgt:/dev/ttyUSB0) or PORT (probe the protocol).
    #[arg(long, value_name = "SPEC")]
    pub board: Option<String>,
    /// Say which piece is touched on the board (D.2.2).
    #[arg(long)]
    pub announce_touch: bool,
    /// Milliseconds a move that could still be on its way must stand
    /// before it is announced, at most 5000 (default: the board's hardware
    /// file).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(..=MAX_SETTLE_MS))]
    pub settle_ms: Option<u64>,
    /// Resume the unfinished game without asking.
    #[arg(long, conflicts_with = "no_resume")]
    pub resume: bool,
    /// Do not offer to resume an unfinished game (it stays saved).
    #[arg(long)]
    pub no_resume: bool,
    /// Start from this position (FEN).
    #[arg(long, value_name = "FEN", conflicts_with = "pgn")]
    pub fen: Option<String>,
    /// Continue a game of this PGN file from its end.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<std::path::PathBuf>,
    /// Which game: of the PGN file, its number (1 = the first, the
    /// default); with --lichess, the lichess game to play, by its id or
    /// address (a correspondence game, or any in progress: `hector lichess
    /// games` lists them).  One option for both: clap holds one `--game`.
    #[arg(long, value_name = "N|ID")]
    pub game: Option<String>,
    /// White's name for the scoresheet.
    #[arg(long, value_name = "NAME")]
    pub white: Option<String>,
    /// Black's name for the scoresheet.
    #[arg(long, value_name = "NAME")]
    pub black: Option<String>,
    /// The event's name for the scoresheet.
    #[arg(long, value_name = "NAME")]
    pub event: Option<String>,
    /// Play against a UCI engine: PATH, or `stockfish` on the PATH (and in
    /// /usr/games) when no PATH is given.  `--me` is your colour.
    #[arg(long, value_name = "PATH", num_args = 0..=1, default_missing_value = "")]
    pub engine: Option<String>,
    /// The engine's skill level, 1 (weakest) to 20 (full strength).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=20))]
    pub level: Option<u8>,
    /// The engine's strength as a rating, when the engine offers it (not
    /// with --level: one strength at a time).
    #[arg(long, value_name = "N", conflicts_with = "level")]
    pub elo: Option<u32>,
    /// The engine's time per move, in milliseconds.
    #[arg(long, value_name = "MS")]
    pub move_time: Option<u64>,
    /// Let the engine think in your time (UCI ponder).
    #[arg(long)]
    pub ponder: bool,
    /// A rated game: no help the position computes (attackers,
    /// defenders, a piece's moves, material), no hint, eval, threat or
    /// takeback (FIDE Laws Article 11.3).
    #[arg(long)]
    pub rated: bool,
    /// A tournament game with an arbiter (implies --rated): nothing beyond
    /// the board, every action recorded, the result confirmed by both
    /// players.  FILE: the arbiter's settings, `[tournament] allow =
    /// ["material"]`, what they allow this player beyond that.
    #[arg(long, value_name = "FILE", num_args = 0..=1, default_missing_value = "")]
    pub tournament: Option<String>,
    /// Serve the opponent's screen: a page for the opponent's browser that
    /// shows every move and takes theirs.  Default 127.0.0.1:8421 (this
    /// computer only); on another address (e.g. 0.0.0.0:8421 for the
    /// network) the page asks for the pairing code hector says.
    #[arg(long, value_name = "ADDR:PORT", num_args = 0..=1, default_missing_value = "")]
    pub companion: Option<String>,
    /// The opponent's own electronic board, same forms as --board: their
    /// moves made on it are announced and awaited on the player's board,
    /// the player's moves are awaited on it, differences are reported.
    #[arg(long, value_name = "SPEC")]
    pub opponent_board: Option<String>,
    /// Play on lichess, with the token of `hector lichess login` or
    /// LICHESS_TOKEN: challenge a player (--challenge), or join the game
    /// you have going on there.
    #[arg(long)]
    pub lichess: bool,
    /// Challenge this lichess player (with --time MIN+SEC, --color, --rated).
    #[arg(long, value_name = "USER", requires = "lichess")]
    pub challenge: Option<String>,
    /// Seek a lichess game against anyone (with --time MIN+SEC, --color,
    /// --rated): rapid or classical only, as lichess asks; the seek is
    /// cancelled when you quit before a game starts.
    #[arg(long, requires = "lichess", conflicts_with = "challenge")]
    pub seek: bool,
    /// The colour you ask for in a challenge or a seek.
    #[arg(long, value_enum, requires = "lichess")]
    pub color: Option<ChallengeColor>,
    /// A correspondence challenge: days per move (1, 2, 3, 5, 7, 10 or 14),
    /// with --challenge or --ai, instead of --time.
    #[arg(long, value_name = "N", requires = "lichess", conflicts_with = "seek")]
    pub days: Option<u32>,
    /// Play lichess's computer at this level (1 to 8), with --time or --days.
    #[arg(long, value_name = "LEVEL", requires = "lichess", conflicts_with_all = ["challenge", "seek"])]
    pub ai: Option<u32>,
    /// The lichess server.
    #[arg(long = "lichess-url", value_name = "URL", default_value = crate::lichess::api::DEFAULT_URL)]
    pub lichess_url: String,
    /// Push this over-the-board game live to a lichess broadcast round
    /// (its 8-letter id), with a token that has the study:write scope.
    #[arg(long, value_name = "ROUND_ID", conflicts_with = "lichess")]
    pub broadcast: Option<String>,
}

/// The colour asked for in a lichess challenge or seek.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ChallengeColor {
    White,
    Black,
    Random,
}

/// When to print the prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PromptMode {
    /// When standard input is a terminal.
    Auto,
    /// Always, also when standard input is a pipe.
    Always,
    /// Never: only the announcements are printed.
    Never,
}

/// The front end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum UiKind {
    /// One line per announcement; reads well with screen readers.
    Line,
    /// The full-screen view: a large, high-contrast board, the move list,
    /// the last announcement; every change is also spoken.
    Tui,
}

/// The words: how moves and messages are said and written, read by every
/// command that speaks or writes.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct WordsOverrides {
    /// How moves are said and written: FIDE Appendix D words (default) or the message language's words.
    #[arg(long, value_enum)]
    pub moves: Option<MoveStyle>,
    /// Language of the messages: en, de, it or el.
    #[arg(long = "lang", value_enum)]
    pub language: Option<Lang>,
    /// Short form (as on a scoresheet) or long form (with the from-square).
    #[arg(long, value_enum)]
    pub form: Option<Form>,
    /// Name the captured piece ("schlägt Bauer David fünf").
    #[arg(long)]
    pub captured: bool,
    /// Leave out the pawn word ("Eva vier" instead of "Bauer Eva vier").
    #[arg(long)]
    pub no_pawn_word: bool,
}

/// Settings given on the command line, over the settings file: the words
/// and how a game is played.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct Overrides {
    /// The words.
    #[command(flatten)]
    pub words: WordsOverrides,
    /// Say the colour before each move.
    #[arg(long)]
    pub colour: bool,
    /// Say the move number before each move.
    #[arg(long)]
    pub numbers: bool,
    /// Do not confirm your own moves (the opponent's are always said).
    #[arg(long)]
    pub no_confirm: bool,
    /// Your colour: the side whose pieces are "mine" (white, black, or
    /// random against an engine).
    #[arg(long, value_name = "COLOUR", value_parser = crate::config::parse_colour)]
    pub me: Option<ColourChoice>,
    /// Speech: auto (speak when the speech service answers, else print),
    /// tts, print (lines only, for your own screen reader) or both.  Line
    /// mode prints every sentence in any mode.
    #[arg(long, value_name = "MODE", value_parser = parse_speech_mode)]
    pub speech: Option<SpeechMode>,
    /// No tones (opponent's move, check, error ...).
    #[arg(long)]
    pub no_sound: bool,
    /// Play with a talking clock: MIN+SEC (90+30, 3+2), M:SS+SEC (0:30+0),
    /// periods MOVES/MIN,... (40/90,30+30), a delay dSEC or bSEC after the
    /// base (5d3 US delay, 5b3 Bronstein), hourglass:MIN, or a preset
    /// (bullet, blitz, blitz5, rapid, rapid25, classical, fide, ...).
    #[arg(long = "time", value_name = "SPEC")]
    pub time: Option<String>,
    /// The FIDE Laws edition for penalties and resignation: 2023 (the
    /// default; also "newest" or "latest"), 2018, 2017 (also "2014": its
    /// penalties are the same) or 1997 (also "older" or "old").
    #[arg(long, value_name = "EDITION", value_parser = ["2023", "newest", "latest", "2018", "2017", "2014", "1997", "older", "old"])]
    pub rules: Option<String>,
    /// Press the clock separately after your move (FIDE D.2.8): `press`.
    #[arg(long)]
    pub press_separately: bool,
    /// Settings file to read instead of the one in your config directory.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// The options of the commands that only write words (`games`,
/// `export`): the words, not the play options.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct PrintOnly {
    /// The words.
    #[command(flatten)]
    pub words: WordsOverrides,
    /// Accepted so that one set of options serves every command (these
    /// commands print only).
    #[arg(long, value_name = "MODE", value_parser = parse_speech_mode, hide = true)]
    pub speech: Option<SpeechMode>,
    /// Accepted, as `--speech`: these commands make no tones.
    #[arg(long, hide = true)]
    pub no_sound: bool,
    /// Settings file to read instead of the one in your config directory.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

impl From<&PrintOnly> for Overrides {
    fn from(p: &PrintOnly) -> Overrides {
        Overrides {
            words: p.words.clone(),
            speech: p.speech,
            no_sound: p.no_sound,
            config: p.config.clone(),
            ..Overrides::default()
        }
    }
}

fn parse_speech_mode(s: &str) -> Result<SpeechMode, String> {
    s.parse()
}

#[cfg(test)]
pub(super) mod tests {
    use clap::Parser;

    use super::{Cli, PlayArgs};
    use crate::words::vocab::Lang;

    /// `play`'s options as typed after `hector` (no command).
    pub(crate) fn play(typed: &[&str]) -> PlayArgs {
        let line = std::iter::once("hector").chain(typed.iter().copied());
        match Cli::try_parse_from(line) {
            Ok(cli) => cli.play,
            Err(e) => panic!("{typed:?}: {e}"),
        }
    }

    #[test]
    fn the_command_line_is_well_formed() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    #[test]
    fn the_words_are_read_by_play_and_by_the_printing_commands() {
        let p = play(&["--lang", "de", "--no-pawn-word", "--colour"]);
        assert_eq!(
            p.settings.words.language,
            Some(crate::words::vocab::Lang::De)
        );
        assert!(p.settings.words.no_pawn_word && p.settings.colour);
        let cli =
            Cli::try_parse_from(["hector", "games", "--lang", "it", "--speech", "print"]).unwrap();
        let Some(super::Cmd::Games(g)) = cli.command else {
            panic!("not games: {cli:?}");
        };
        let over = super::Overrides::from(&g.settings);
        assert_eq!(over.words.language, Some(crate::words::vocab::Lang::It));
        assert_eq!(over.speech, Some(crate::speech::SpeechMode::Print));
        // The play options are not the printing commands'.
        assert!(Cli::try_parse_from(["hector", "games", "--time", "5+3"]).is_err());
    }

    /// Issue 27, items 5 and 6: `hector --help`'s examples were English
    /// whatever the player's language.  The language is known before clap
    /// reads the line as the start-up decides it: `--lang`, else the
    /// settings file's.
    #[test]
    fn the_language_is_known_before_the_line_is_read() {
        let line = |a: &[&str]| -> Vec<String> { a.iter().map(|s| s.to_string()).collect() };
        let dir = std::env::temp_dir().join(format!("hector-help-lang-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let settings = dir.join("config.toml");
        std::fs::write(&settings, "[announce]\nlanguage = \"it\"\n").unwrap();
        let config = settings.display().to_string();
        let lang = super::language_before_parsing;
        assert_eq!(lang(&line(&["hector", "--lang", "de", "--help"])), Lang::De);
        assert_eq!(lang(&line(&["hector", "play", "--lang=EL"])), Lang::El);
        assert_eq!(
            lang(&line(&["hector", "--config", &config, "--help"])),
            Lang::It
        );
        let given = format!("--config={config}");
        assert_eq!(lang(&line(&["hector", &given, "--lang", "de"])), Lang::De);
        let missing = dir.join("none.toml").display().to_string();
        assert_eq!(lang(&line(&["hector", "--config", &missing])), Lang::En);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Every example of `hector --help` is a command line hector reads,
    /// and each language says what it does in its own words.
    #[test]
    fn the_examples_are_command_lines_said_in_every_language() {
        for (args, _) in super::EXAMPLES {
            let line = std::iter::once("hector").chain(args.iter().copied());
            if let Err(e) = Cli::try_parse_from(line) {
                panic!("{args:?}: {e}");
            }
        }
        let en = super::examples(Lang::En);
        assert!(en.starts_with("How to begin:\n  hector "), "{en}");
        assert!(
            en.contains("  hector play --time 90+30                 with a talking clock"),
            "{en}"
        );
        // The commands stay, the words are each language's own.
        for lang in Lang::ALL.into_iter().filter(|l| *l != Lang::En) {
            let said = super::examples(lang);
            assert_eq!(said.lines().count(), en.lines().count(), "{lang:?}");
            for (line, english) in said.lines().zip(en.lines()) {
                if english.starts_with("  hector") {
                    let command = |l: &str| l.split("   ").next().map(str::to_owned);
                    assert_eq!(command(line), command(english), "{lang:?}");
                }
                if !english.ends_with("--color black") && !english.is_empty() {
                    assert_ne!(line, english, "{lang:?}: still English");
                }
            }
        }
    }

    /// Issue 30, item 14: `--colour black` got "unexpected argument
    /// 'black' found"; the answer names the right option, in the language
    /// typed.
    #[test]
    fn a_colour_mixup_names_the_right_option() {
        let args = |a: &[&str]| -> Vec<String> {
            std::iter::once("hector")
                .chain(a.iter().copied())
                .map(str::to_owned)
                .collect()
        };
        assert!(Cli::try_parse_from(args(&["--colour", "black"])).is_err());
        assert_eq!(
            super::colour_mixup(&args(&["play", "--colour", "black"]), Lang::En).as_deref(),
            Some(
                "--colour takes no colour: it says the colour before each move. Your colour is \
                 --me black; the colour you ask of lichess is --color black."
            )
        );
        let de = super::colour_mixup(&args(&["--lang", "de", "--colour", "White"]), Lang::De);
        assert!(
            de.as_deref().is_some_and(
                |s| s.contains("--me white") && s.starts_with("--colour nimmt keine Farbe")
            ),
            "{de:?}"
        );
        assert_eq!(
            super::colour_mixup(&args(&["play", "--color", "black"]), Lang::En).as_deref(),
            Some(
                "--color is the colour you ask of lichess, with --lichess. Your colour in a \
                 game here is --me black."
            )
        );
        assert_eq!(
            super::colour_mixup(&args(&["play", "--lichess", "--color", "black"]), Lang::En),
            None
        );
        assert_eq!(
            super::colour_mixup(&args(&["play", "--colour", "--me", "black"]), Lang::En),
            None
        );
    }

    #[test]
    fn the_settle_time_typed_has_the_files_bound() {
        let max = crate::board::hardware::MAX_SETTLE_MS.to_string();
        assert_eq!(play(&["--settle-ms", &max]).settle_ms, Some(5000));
        assert!(Cli::try_parse_from(["hector", "--settle-ms", "5001"]).is_err());
    }
}
