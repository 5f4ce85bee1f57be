//! The `hector` command line.

use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand};

use hector::cli::{BoardSpec, Probed, SimOptions};
use hector::io::{
    CompanionConfig, DEFAULT_LISTEN, FallBack, Part, PortSettings, Priority, Protocol, SayKind,
    SpeechMode, Utterance,
};
use hector::{
    BoardChoice, BoardProblem, BoardSettings, BoardSide, CompanionChoice, CompanionSettings,
    Effect, EngineConfig, EngineSetup, ExportFormat, LineMode, Msg, Overrides, PromptMode,
    ResumeChoice, ResumeOffer, Runtime, Sink, StartInfo, Store, WordsOverrides, start,
};

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
    /// Step through the games of a PGN file: next, previous, goto N, start,
    /// end; games, game N, find NAME; every exploration command.
    Review(ReviewArgs),
    /// Online play on lichess: keep your personal API token (`login`), or
    /// forget it (`logout`).
    #[command(subcommand)]
    Lichess(LichessCmd),
}

#[derive(Debug, Subcommand)]
enum LichessCmd {
    /// Paste your lichess token (not shown): hector checks it with lichess,
    /// says your account's name and keeps it for your games.
    Login(LichessArgs),
    /// Forget the kept token.
    Logout(LichessArgs),
}

#[derive(Debug, Clone, clap::Args)]
struct LichessArgs {
    /// The lichess server.
    #[arg(long = "lichess-url", value_name = "URL", default_value = hector::cli::LICHESS_URL)]
    url: String,
    #[command(flatten)]
    settings: Overrides,
}

#[derive(Debug, Clone, clap::Args)]
struct GamesArgs {
    #[command(flatten)]
    settings: WordsOverrides,
}

#[derive(Debug, Clone, clap::Args)]
struct ResumeArgs {
    /// The game: its id, its number in `hector games`, or the start of its id.
    id: String,
    #[command(flatten)]
    play: PlayArgs,
}

#[derive(Debug, Clone, clap::Args)]
struct ReviewArgs {
    /// The PGN file.
    file: std::path::PathBuf,
    #[command(flatten)]
    play: PlayArgs,
}

#[derive(Debug, Clone, clap::Args)]
struct ExportArgs {
    /// The game: its id, its number in `hector games`, or the start of its id.
    id: String,
    /// The format.
    #[arg(long, value_enum, default_value = "pgn")]
    format: ExportFormat,
    /// The file to write (default: ID.EXT in this folder; `-`: standard
    /// output).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<std::path::PathBuf>,
    /// Overwrite the file if it exists (never a game's journal).
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    settings: WordsOverrides,
}

#[derive(Debug, Subcommand)]
enum BoardCmd {
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

#[derive(Debug, Clone, clap::Args)]
struct SimArgs {
    /// The protocol the simulated board speaks.
    #[arg(long, value_parser = ["dgt", "millennium", "occupancy"])]
    protocol: String,
    /// Keep a symbolic link at PATH to the device (also after unplug/plug),
    /// so that hector can be started with --board PROTOCOL:PATH.
    #[arg(long, value_name = "PATH")]
    link: Option<std::path::PathBuf>,
    /// Play the lines of FILE first.
    #[arg(long, value_name = "FILE")]
    script: Option<std::path::PathBuf>,
    /// Seconds between the lines of the script.
    #[arg(long, default_value = "1")]
    pace: f64,
    /// Set sliding pieces down on every square they pass over.
    #[arg(long)]
    slide: bool,
}

#[derive(Debug, Clone, clap::Args)]
struct VoicesArgs {
    /// List every language with voices (not only hector's own four), and
    /// every voice and variant of each.
    #[arg(long)]
    all: bool,
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
    /// (default: `ui` in the settings' `[view]`, else line).
    #[arg(long, value_enum)]
    ui: Option<UiKind>,
    /// When to print the prompt (whose move, move number).
    #[arg(long, value_enum, default_value = "auto")]
    prompt: PromptMode,
    /// The player's board: `auto` (find one), PROTOCOL:PORT (dgt, millennium
    /// or occupancy, e.g. dgt:/dev/ttyUSB0) or PORT (probe the protocol).
    #[arg(long, value_name = "SPEC")]
    board: Option<String>,
    /// Say which piece is touched on the board (D.2.2).
    #[arg(long)]
    announce_touch: bool,
    /// Milliseconds a move that could still be on its way must stand
    /// before it is announced (default: the board's hardware file).
    #[arg(long, value_name = "MS")]
    settle_ms: Option<u64>,
    /// Resume the unfinished game without asking.
    #[arg(long, conflicts_with = "no_resume")]
    resume: bool,
    /// Do not offer to resume an unfinished game (it stays saved).
    #[arg(long)]
    no_resume: bool,
    /// Start from this position (FEN).
    #[arg(long, value_name = "FEN", conflicts_with = "pgn")]
    fen: Option<String>,
    /// Continue a game of this PGN file from its end.
    #[arg(long, value_name = "FILE")]
    pgn: Option<std::path::PathBuf>,
    /// Which game of the PGN file (1 = the first).
    #[arg(long, value_name = "N", default_value = "1")]
    game: usize,
    /// White's name for the scoresheet.
    #[arg(long, value_name = "NAME")]
    white: Option<String>,
    /// Black's name for the scoresheet.
    #[arg(long, value_name = "NAME")]
    black: Option<String>,
    /// The event's name for the scoresheet.
    #[arg(long, value_name = "NAME")]
    event: Option<String>,
    /// Play against a UCI engine: PATH, or `stockfish` on the PATH (and in
    /// /usr/games) when no PATH is given.  `--me` is your colour.
    #[arg(long, value_name = "PATH", num_args = 0..=1, default_missing_value = "")]
    engine: Option<String>,
    /// The engine's skill level, 1 (weakest) to 20 (full strength).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=20))]
    level: Option<u8>,
    /// The engine's strength as a rating, when the engine offers it (not
    /// with --level: one strength at a time).
    #[arg(long, value_name = "N", conflicts_with = "level")]
    elo: Option<u32>,
    /// The engine's time per move, in milliseconds.
    #[arg(long, value_name = "MS")]
    move_time: Option<u64>,
    /// Let the engine think in your time (UCI ponder).
    #[arg(long)]
    ponder: bool,
    /// A rated game, or one with an arbiter: no hint, eval, threat or
    /// takeback.
    #[arg(long)]
    rated: bool,
    /// Serve the opponent's screen: a page for the opponent's browser that
    /// shows every move and takes theirs.  Default 127.0.0.1:8421 (this
    /// computer only); on another address (e.g. 0.0.0.0:8421 for the
    /// network) the page asks for the pairing code hector says.
    #[arg(long, value_name = "ADDR:PORT", num_args = 0..=1, default_missing_value = "")]
    companion: Option<String>,
    /// The opponent's own electronic board, same forms as --board: their
    /// moves made on it are announced and awaited on the player's board,
    /// the player's moves are awaited on it, differences are reported.
    #[arg(long, value_name = "SPEC")]
    opponent_board: Option<String>,
    /// Play on lichess, with the token of `hector lichess login` or
    /// LICHESS_TOKEN: challenge a player (--challenge), or join the game
    /// you have going on there.
    #[arg(long)]
    lichess: bool,
    /// Challenge this lichess player (with --time MIN+SEC, --color, --rated).
    #[arg(long, value_name = "USER", requires = "lichess")]
    challenge: Option<String>,
    /// Seek a lichess game against anyone (with --time MIN+SEC, --color,
    /// --rated): rapid or classical only, as lichess asks; the seek is
    /// cancelled when you quit before a game starts.
    #[arg(long, requires = "lichess", conflicts_with = "challenge")]
    seek: bool,
    /// The colour you ask for in a challenge or a seek.
    #[arg(long, value_enum, requires = "lichess")]
    color: Option<ChallengeColor>,
    /// The lichess server.
    #[arg(long = "lichess-url", value_name = "URL", default_value = hector::cli::LICHESS_URL)]
    lichess_url: String,
    /// Push this over-the-board game live to a lichess broadcast round
    /// (its 8-letter id), with a token that has the study:write scope.
    #[arg(long, value_name = "ROUND_ID", conflicts_with = "lichess")]
    broadcast: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum ChallengeColor {
    White,
    Black,
    Random,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum UiKind {
    /// One line per announcement; reads well with screen readers.
    Line,
    /// The full-screen view: a large, high-contrast board, the move list,
    /// the last announcement; every change is also spoken.
    Tui,
}

/// The store of journals: `$XDG_DATA_HOME/hector/games` (or the
/// platform's data folder).
fn store() -> Store {
    Store::new(Store::default_dir().unwrap_or_else(|| std::path::PathBuf::from("hector-games")))
}

fn play(args: &PlayArgs) -> ExitCode {
    play_game(args, None)
}

/// `hector review FILE.pgn`: line mode over a PGN file, nothing journalled.
fn review(args: &ReviewArgs) -> ExitCode {
    let started = start(&args.play.settings);
    match hector::PgnFile::read(&args.file) {
        Ok(file) => run_session(started, &args.play, None, Some(file)),
        Err(p) => {
            println!("{}", hector::pgn_problem_sentence(&started.phraser, &p));
            ExitCode::FAILURE
        }
    }
}

/// Today's date (UTC) as in PGN, for the scoresheet (the app reads no
/// calendar of its own).
fn today() -> String {
    let fmt = time::macros::format_description!("[year].[month].[day]");
    time::OffsetDateTime::now_utc()
        .format(&fmt)
        .unwrap_or_default()
}

fn play_game(args: &PlayArgs, resume_id: Option<&str>) -> ExitCode {
    if args.lichess {
        return play_online(args);
    }
    let mut started = start(&args.settings);
    if let Some(why) = started.clock_error.take() {
        eprintln!("hector: --time: {why}");
        return ExitCode::from(2);
    }
    if let Some(given) = &args.broadcast {
        // The round and the token are checked before the game begins.
        let Some(round) = hector::cli::BroadcastRound::parse(given) else {
            println!("{}", started.phraser.message("broadcast_round_form", &[]));
            return ExitCode::from(2);
        };
        if hector::cli::find_lichess_token().is_none() {
            println!("{}", started.phraser.message("broadcast_no_token", &[]));
            return ExitCode::from(2);
        }
        started.app = started.app.broadcast(round);
    }
    let store = store();
    // The names: --white and --black, else the settings' [players].
    let (white, black) = started.players.names(started.app.given_me());
    let start_info = StartInfo {
        white: args.white.clone().unwrap_or(white),
        black: args.black.clone().unwrap_or(black),
        event: args.event.clone().unwrap_or_default(),
        date: today(),
        ..StartInfo::default()
    };
    started.app = started.app.journal(start_info);
    let from = if let Some(fen) = &args.fen {
        Some(hector::start_from_fen(fen))
    } else {
        args.pgn
            .as_ref()
            .map(|p| hector::start_from_pgn(p, args.game))
    };
    match from {
        None => {}
        Some(Ok((game, mut info))) => {
            if let Some(w) = &args.white {
                info.white.clone_from(w);
            }
            if let Some(b) = &args.black {
                info.black.clone_from(b);
            }
            if let Some(e) = &args.event {
                info.event.clone_from(e);
            }
            started.app = started.app.start_from(game, info);
        }
        Some(Err(e)) => {
            println!("{}", hector::start_error_sentence(&started.phraser, &e));
            return ExitCode::FAILURE;
        }
    }
    let offer = match resume_id {
        Some(key) => match store.find(key) {
            Some(g) if g.damaged => {
                println!("{}", damaged_sentence(&started.phraser, &g));
                return ExitCode::FAILURE;
            }
            // Another hector has it open: never written to from here.
            Some(g) if store.open_elsewhere(&g.id) => {
                return open_elsewhere(&started, &store, &g.id);
            }
            Some(g) => match ResumeOffer::load(&store, &g.id, ResumeChoice::Now) {
                Ok(o) => Some(o),
                Err(e) => {
                    println!("{}", cannot_resume(&started.phraser, &g, &e));
                    return ExitCode::FAILURE;
                }
            },
            None => {
                // A file named like the game that is not one: say why.
                let listing = store.list_all().unwrap_or_default();
                let other = listing
                    .others
                    .iter()
                    .find(|f| f.name.strip_suffix(".txt").is_some_and(|id| id == key));
                match other {
                    Some(f) => println!(
                        "{}",
                        hector::cli::cannot_resume(
                            &started.phraser,
                            key,
                            &hector::cli::why_not_a_game(&started.phraser, &f.why),
                            &f.path,
                        )
                    ),
                    None => no_such_game(&started.phraser, &store, key),
                }
                return ExitCode::FAILURE;
            }
        },
        None if args.no_resume || args.fen.is_some() || args.pgn.is_some() => None,
        None => match store.resumable() {
            Some(g) if store.open_elsewhere(&g.id) => {
                if args.resume {
                    return open_elsewhere(&started, &store, &g.id);
                }
                let t = started
                    .phraser
                    .message("game_open_elsewhere_new", &[("id", g.id.as_str())]);
                println!("{t}");
                None
            }
            Some(g) => {
                let choice = if args.resume {
                    ResumeChoice::Now
                } else {
                    ResumeChoice::Ask
                };
                match ResumeOffer::load(&store, &g.id, choice) {
                    Ok(o) => Some(o),
                    Err(e) => {
                        println!("{}", cannot_resume(&started.phraser, &g, &e));
                        None
                    }
                }
            }
            None => {
                // `--resume` says what it could not resume (issue 31).
                if args.resume
                    && let Some(said) = hector::cli::newest_unresumable(
                        &started.phraser,
                        &store.list_all().unwrap_or_default(),
                    )
                {
                    println!("{said}");
                }
                None
            }
        },
    };
    // A game played on lichess is rejoined there, with the player's token.
    // Without one it is not resumed offline: `--resume` (or `hector
    // resume`) says why and stops; the question is not asked (a new game
    // begins, the online one stays saved).
    let mut offer = offer;
    let online = offer
        .as_ref()
        .is_some_and(|o| o.resumed.start.online().is_some());
    if online && hector::cli::find_lichess_token().is_none() {
        println!("{}", started.phraser.message("lichess_no_token", &[]));
        if offer
            .as_ref()
            .is_some_and(|o| o.choice == ResumeChoice::Now)
        {
            return ExitCode::FAILURE;
        }
        offer = None;
    }
    run_session(started, args, offer, None)
}

/// `hector play --lichess`: the game is the server's; its clock too, so
/// `--time` is the challenge's, not a clock of hector's own.
fn play_online(args: &PlayArgs) -> ExitCode {
    let mut settings = args.settings.clone();
    let time = settings.time.take();
    let mut started = start(&settings);
    if hector::cli::find_lichess_token().is_none() {
        println!("{}", started.phraser.message("lichess_no_token", &[]));
        return ExitCode::FAILURE;
    }
    // An online game left unfinished is gone on with by resuming it (its
    // journal, its moves not said again): said, in case that was meant.
    if store().resumable().is_some_and(|g| g.online.is_some()) {
        println!(
            "{}",
            started.phraser.message("lichess_unfinished_saved", &[])
        );
    }
    // --color and --time ask something of a challenge or a seek: joining
    // a game already going on would ignore them (branch walk).
    if args.challenge.is_none() && !args.seek {
        let unused = [
            (args.color.is_some(), "--color"),
            (time.is_some(), "--time"),
        ];
        if let Some((_, option)) = unused.iter().find(|(given, _)| *given) {
            let t = started
                .phraser
                .message("lichess_option_unused", &[("option", option)]);
            println!("{t}");
            return ExitCode::from(2);
        }
    }
    let color = match args.color {
        Some(ChallengeColor::White) => Some(shakmaty::Color::White),
        Some(ChallengeColor::Black) => Some(shakmaty::Color::Black),
        _ => None,
    };
    let given = (args.challenge.is_some() || args.seek)
        .then(|| online_time(time.as_deref().unwrap_or("15+10")));
    let (limit_s, increment_s) = match given {
        None => (0, 0),
        Some(Some(t)) => t,
        Some(None) => {
            println!("{}", started.phraser.message("lichess_time_form", &[]));
            return ExitCode::from(2);
        }
    };
    let online = match &args.challenge {
        None if args.seek => {
            // lichess takes real-time seeks of rapid or classical only.
            if !hector::cli::lichess_seek_allowed(limit_s, increment_s) {
                println!("{}", started.phraser.message("lichess_seek_too_fast", &[]));
                return ExitCode::from(2);
            }
            hector::OnlineStart::Seek {
                limit_s,
                increment_s,
                color,
                rated: args.rated,
            }
        }
        None => hector::OnlineStart::Join,
        Some(user) => hector::OnlineStart::Challenge {
            user: user.clone(),
            limit_s,
            increment_s,
            color,
            rated: args.rated,
        },
    };
    // The journal's start record: the server now, the game and its
    // players when the server tells them (never the token).
    let mut start_info = StartInfo {
        event: args.event.clone().unwrap_or_default(),
        date: today(),
        ..StartInfo::default()
    };
    start_info.set_online_server(&args.lichess_url);
    started.app = started.app.journal(start_info).online(online);
    run_session(started, args, None, None)
}

/// lichess's time control, MIN+SEC (`10+5`): seconds at the start and
/// seconds added per move.
fn online_time(spec: &str) -> Option<(u32, u32)> {
    let (min, sec) = spec.trim().split_once('+')?;
    let min: u32 = min.trim().parse().ok()?;
    let sec: u32 = sec.trim().parse().ok()?;
    ((1..=180).contains(&min) && sec <= 180).then_some((min * 60, sec))
}

/// The session: a game (journalled, perhaps resumed) or a review.
fn run_session(
    mut started: hector::Started,
    args: &PlayArgs,
    offer: Option<ResumeOffer>,
    review: Option<hector::PgnFile>,
) -> ExitCode {
    let reviewing = review.is_some();
    // The server of a game of lichess's being resumed (rejoined there).
    let rejoin_url = offer
        .as_ref()
        .and_then(|o| o.resumed.start.online())
        .map(|g| g.url);
    let ui = args.ui.unwrap_or(if started.view.ui == "tui" {
        UiKind::Tui
    } else {
        UiKind::Line
    });
    // The full-screen view's look and keys (its problems are said after
    // the first sentence).
    let tui = (ui == UiKind::Tui).then(|| hector::load_tui(&started.view));
    // How the session starts, given to the app before it is built.
    let mut builder = std::mem::take(&mut started.app)
        .engine(engine_setup(args, &started.engine))
        // A player at a terminal is asked before a stray `quit` or `new`
        // ends a game; a script on standard input is not.
        .ask_before_leaving(std::io::IsTerminal::is_terminal(&std::io::stdin()));
    if let Some(file) = review {
        builder = builder.review(file);
    }
    if args.rated {
        builder = builder.rated(true);
    }
    if let Some((look, _, _)) = &tui {
        builder = builder.look(hector::tui_first_look(look));
    }
    let mut app = builder.build();
    let mut runtime = Runtime::new();
    runtime.watch_signals();
    // Speech and tones first, before anything is printed: ALSA's own error
    // messages are silenced by the tone player as it opens the device.
    runtime.start_speech(started.speech, started.speech_settings);
    if started.any_tone() {
        // A bell only where a terminal hears it: never into a pipe.
        runtime.start_tones(started.tones, hector::io::terminal_bell_if_tty());
    }
    // Everything that happens at start-up goes through `update`: the
    // problems with the user's files, the board chosen, the first sentence.
    let now = Instant::now();
    let mut effects: Vec<Effect> = Vec::new();
    for p in std::mem::take(&mut started.problems) {
        effects.extend(app.update(Msg::Problem(p), now));
    }
    let board_settings = started.board.clone();
    if let Some(spec) = args.board.as_ref().or(board_settings.port.as_ref()) {
        let choice = choose_board(spec, args, &board_settings, &mut runtime, BoardSide::Mine);
        effects.extend(app.update(Msg::BoardChosen(choice), now));
    }
    if let Some(spec) = &args.opponent_board {
        let choice = choose_board(
            spec,
            args,
            &board_settings,
            &mut runtime,
            BoardSide::Opponent,
        );
        effects.extend(app.update(Msg::OpponentBoardChosen(choice), now));
    }
    let companion_settings = started.companion.clone();
    let listen = match &args.companion {
        Some(addr) if !addr.is_empty() => Some(addr.clone()),
        Some(_) => Some(companion_settings.listen.clone().unwrap_or_default()),
        None if companion_settings.enabled => {
            Some(companion_settings.listen.clone().unwrap_or_default())
        }
        None => None,
    };
    // The opponent's page paired before hector stopped, kept in the
    // journal of the game being resumed: it gets its seat back.
    let resume_seat = offer
        .as_ref()
        .and_then(|o| o.resumed.companion.clone())
        .map(|token_sha256| hector::io::Pairing { token_sha256 })
        .filter(hector::io::Pairing::is_well_formed);
    let labels = hector::io::PageLabels::for_player(app.phraser());
    if let Some(listen) = listen {
        let (choice, serving) = start_companion(
            &listen,
            &companion_settings,
            labels,
            resume_seat.clone(),
            &mut runtime,
        );
        effects.extend(app.update(Msg::CompanionChosen(choice), now));
        if let (Some(p), true) = (resume_seat, serving) {
            // The app knows the seat too (it goes on in the journal).
            let seat = hector::io::CompanionEvent::Paired(p);
            effects.extend(app.update(Msg::Companion(seat), now));
        }
    }
    if let Some(o) = offer {
        effects.extend(app.update(Msg::Resume(Box::new(o)), now));
    }
    effects.extend(app.update(Msg::Start, now));
    if !reviewing {
        runtime.keep_journal(Sink::new(store()));
    }
    let lichess_url = rejoin_url
        .as_deref()
        .or(args.lichess.then_some(args.lichess_url.as_str()));
    if let Some(url) = lichess_url
        && let Some(token) = hector::cli::find_lichess_token()
        && let Err(why) = runtime.start_lichess(url, token)
    {
        eprintln!("hector: lichess: {why}");
    }
    if args.broadcast.is_some()
        && !reviewing
        && let Some(token) = hector::cli::find_lichess_token()
        && let Err(why) = runtime.start_broadcast(&args.lichess_url, token)
    {
        eprintln!("hector: lichess: {why}");
    }
    let result = match tui {
        None => {
            // Standard output is the front end's until it returns.
            let mut front = LineMode::new(args.prompt);
            runtime.run(&mut app, effects, &mut front)
        }
        Some((look, keymap, problems)) => {
            for p in problems {
                effects.extend(app.update(Msg::Problem(p), Instant::now()));
            }
            // The terminal is given back when it returns.
            hector::run_tui(&mut runtime, &mut app, effects, look, keymap)
        }
    };
    // Let the last sentence ("Goodbye.") be heard.
    runtime.finish();
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

/// The engine of `--engine` or of `[engine] play = true`, with the
/// command line over the settings.
fn engine_setup(args: &PlayArgs, config: &EngineConfig) -> Option<EngineSetup> {
    use hector::io::{EngineSettings, EngineStrength as Strength};
    if args.engine.is_none() && !config.play {
        return None;
    }
    let program = args
        .engine
        .clone()
        .filter(|p| !p.is_empty())
        .or_else(|| config.path.clone());
    let strength = match (args.level, args.elo) {
        (Some(l), _) => Strength::Level(l),
        (None, Some(e)) => Strength::Elo(e),
        (None, None) => match (config.level, config.elo) {
            (Some(l), _) => Strength::Level(l),
            (None, Some(e)) => Strength::Elo(e),
            (None, None) => Strength::Full,
        },
    };
    let options = config
        .options
        .iter()
        .map(|(k, v)| {
            let value = match v {
                toml::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            (k.clone(), value)
        })
        .collect();
    Some(EngineSetup {
        program,
        settings: EngineSettings {
            strength,
            threads: config.threads,
            hash_mb: config.hash_mb,
            ponder: args.ponder || config.ponder,
            options,
        },
        move_time: Duration::from_millis(args.move_time.unwrap_or(config.move_time_ms).max(1)),
        help_time: Duration::from_millis(config.help_time_ms.max(1)),
        ..EngineSetup::default()
    })
}

/// Start the opponent's screen on `listen` (empty: the default address).
fn start_companion(
    listen: &str,
    settings: &CompanionSettings,
    labels: hector::io::PageLabels,
    resume: Option<hector::io::Pairing>,
    runtime: &mut Runtime,
) -> (CompanionChoice, bool) {
    use std::net::ToSocketAddrs;
    let addr = if listen.is_empty() {
        Ok(DEFAULT_LISTEN)
    } else {
        listen
            .to_socket_addrs()
            .ok()
            .and_then(|mut a| a.next())
            .ok_or_else(|| "not an address and port such as 127.0.0.1:8421".to_owned())
    };
    let shown = if listen.is_empty() {
        DEFAULT_LISTEN.to_string()
    } else {
        listen.to_owned()
    };
    let addr = match addr {
        Ok(a) => a,
        Err(why) => {
            return (
                CompanionChoice::Failed {
                    address: shown,
                    why,
                },
                false,
            );
        }
    };
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_owned())
        .unwrap_or_default();
    // The names a browser may send as Host off loopback (hector says the
    // first): the host name, and the same under mDNS.
    let host_names = if host.is_empty() {
        Vec::new()
    } else {
        vec![host.clone(), format!("{host}.local")]
    };
    #[allow(unused_mut, reason = "changed only in tests")]
    let mut config = CompanionConfig {
        listen: addr,
        view_without_code: settings.view_without_code,
        require_code: settings.require_code,
        labels,
        resume,
        host_names,
        ..CompanionConfig::default()
    };
    // Tests only: the server fails at this connection, to show it says so
    // and starts again.
    #[cfg(feature = "test-support")]
    {
        config.fail_at = std::env::var("HECTOR_TEST_COMPANION_FAIL_AT")
            .ok()
            .and_then(|n| n.parse().ok());
    }
    match runtime.start_companion(config) {
        Ok(server) => {
            let bound = server.local_addr();
            let address = if bound.ip().is_unspecified() {
                // Every address of this computer: name it by its host name.
                let host = if host.is_empty() {
                    "localhost".to_owned()
                } else {
                    host
                };
                format!("http://{host}:{}/", bound.port())
            } else {
                server.url()
            };
            let code = server.code();
            (CompanionChoice::Ready { address, code }, true)
        }
        Err(e) => (
            CompanionChoice::Failed {
                address: shown,
                why: e.to_string(),
            },
            false,
        ),
    }
}

/// Find or open the board of `--board SPEC` (the runtime keeps its link):
/// what the app is told.
fn choose_board(
    spec: &str,
    args: &PlayArgs,
    settings: &BoardSettings,
    runtime: &mut Runtime,
    side: BoardSide,
) -> BoardChoice {
    let missing = BoardChoice::Missing;
    let spec = match hector::cli::parse_board_spec(spec) {
        Ok(s) => s,
        Err(error) => {
            return missing(BoardProblem::Spec {
                spec: spec.to_owned(),
                error,
            });
        }
    };
    let (description, path) = match spec {
        BoardSpec::Auto => match hector::cli::find_board() {
            Some(found) => found,
            None => return missing(BoardProblem::NotFound),
        },
        BoardSpec::Probe(path) => match hector::cli::probe_board(&path) {
            Probed::Found(d) => (d, path),
            Probed::NoAnswer => return missing(BoardProblem::NoAnswer { port: path }),
            Probed::CannotOpen(error) => {
                return missing(BoardProblem::CannotOpen { port: path, error });
            }
        },
        BoardSpec::Port { protocol, path } => match hector::cli::board_description(protocol) {
            Some(d) => (d, path),
            None => return missing(BoardProblem::NotFound),
        },
    };
    let mut config = description.tracker_config();
    if let Some(ms) = args.settle_ms.or(settings.settle_ms) {
        config.settle = Duration::from_millis(ms);
    }
    if let Some(s) = settings.remind_after_s {
        // At most an hour: a reminder is still a reminder.
        config.grace = Duration::from_secs(s.min(3600));
    }
    let choice = BoardChoice::Opened {
        protocol: description.protocol,
        port: path.clone(),
        config,
        announce_touch: args.announce_touch || settings.announce_touch,
    };
    runtime.open_board(
        side,
        path,
        PortSettings::from_description(&description.serial),
    );
    choice
}

/// `hector board ...`.
fn board(cmd: &BoardCmd) -> ExitCode {
    match cmd {
        BoardCmd::List => match hector::cli::board_list() {
            Ok(lines) => {
                for l in lines {
                    if !print_line(&l) {
                        break;
                    }
                }
                ExitCode::SUCCESS
            }
            Err(e) => {
                println!("Cannot list the serial ports: {e}");
                ExitCode::FAILURE
            }
        },
        BoardCmd::Probe { port } => {
            // Worded in the player's language (from the settings file).
            let started = start(&Overrides::default());
            let phraser = &started.phraser;
            match hector::cli::probe_board(port) {
                Probed::Found(d) => {
                    println!("{port}: {} ({})", d.protocol.name(), d.name);
                    ExitCode::SUCCESS
                }
                Probed::NoAnswer => {
                    println!("{}", phraser.message("board_probe_none", &[("port", port)]));
                    ExitCode::FAILURE
                }
                Probed::CannotOpen(e) => {
                    println!("{}", phraser.cannot_open(port, &e));
                    ExitCode::FAILURE
                }
            }
        }
        BoardCmd::Sim(a) => {
            let protocol = Protocol::ALL
                .into_iter()
                .find(|p| p.name() == a.protocol)
                .unwrap_or(Protocol::Occupancy);
            let options = SimOptions {
                protocol,
                link: a.link.clone(),
                script: a.script.clone(),
                slide: a.slide,
                pace: Duration::from_secs_f64(a.pace.clamp(0.0, 3600.0)),
            };
            let stdin = std::io::BufReader::new(std::io::stdin());
            match hector::cli::run_sim(options, stdin) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    println!("hector board sim: {e}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}

/// `hector voices`: one line per language.
fn voices(args: &VoicesArgs) -> ExitCode {
    match hector::cli::list_voices() {
        Ok(list) => {
            let mut out = std::io::stdout().lock();
            let own: Vec<&str> = hector::Lang::ALL.iter().map(|l| l.code()).collect();
            for line in hector::cli::voices_summary(&list, &own, args.all) {
                // A closed pipe (`hector voices | head`) ends the list quietly.
                if writeln!(out, "{line}").is_err() {
                    break;
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            let why = e.to_string();
            println!(
                "Speech is not working: {}. Install speech-dispatcher and espeak-ng (see the README).",
                why.trim_end_matches('.')
            );
            ExitCode::FAILURE
        }
    }
}

/// `hector say TEXT` / `hector say --move Nf3`: print and speak one sentence.
fn say(args: &SayArgs) -> ExitCode {
    let mut started = start(&args.settings);
    if let Some(why) = started.clock_error.take() {
        eprintln!("hector: --time: {why}");
        return ExitCode::from(2);
    }
    let mut app = std::mem::take(&mut started.app).build();
    for p in std::mem::take(&mut started.problems) {
        for e in app.update(Msg::Problem(p), Instant::now()) {
            if let Effect::Say(u) = e {
                println!("{}", u.text);
            }
        }
    }
    let text = args.text.join(" ");
    let phraser = app.phraser();
    let (sentence, lang) = if args.as_move {
        let pos = shakmaty::Chess::default();
        match app.reader().read(&text, &pos) {
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
    if started.speech == SpeechMode::Print {
        // Printed is all that was asked for: the speech service is not touched.
        return ExitCode::SUCCESS;
    }
    // Appendix D words in a message are spoken in their own voice.
    let stretches = phraser.by_language(&sentence);
    let utterance = if stretches.len() > 1 {
        let parts = stretches
            .into_iter()
            .map(|(text, lang)| Part::new(text, lang))
            .collect();
        Utterance::mixed(parts, phraser.msg_lang(), Priority::Urgent, SayKind::Info)
    } else {
        Utterance::new(sentence.clone(), lang, Priority::Urgent, SayKind::Info)
    };
    let factory = hector::io::system_factory();
    match hector::cli::say_utterance_once(factory, utterance, started.speech_settings) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            println!(
                "{}",
                phraser.message(
                    "speech_fell_back",
                    &[("why", &phraser.message(FallBack::from_error(&e).key(), &[]))]
                )
            );
            ExitCode::FAILURE
        }
    }
}

/// `hector games`: one line per saved game, oldest first.
fn games(args: &GamesArgs) -> ExitCode {
    let started = start(&Overrides::from(&args.settings));
    let phraser = &started.phraser;
    let store = store();
    let listing = match store.list_all() {
        Ok(l) => l,
        Err(e) => {
            println!("{}: {e}", store.dir().display());
            return ExitCode::FAILURE;
        }
    };
    let list = &listing.games;
    if list.is_empty() {
        println!("{}", phraser.message("games_none", &[]));
    }
    for (i, g) in list.iter().enumerate() {
        if g.damaged {
            // Never hidden: listed with its file, for the arbiter.
            let line = phraser.message(
                "games_line_damaged",
                &[
                    ("number", &(i + 1).to_string()),
                    ("id", g.id.as_str()),
                    ("path", &g.path.display().to_string()),
                ],
            );
            if !print_line(&line) {
                break;
            }
            continue;
        }
        if !print_line(&game_line(phraser, i + 1, g)) {
            return ExitCode::SUCCESS;
        }
    }
    // Every other file in the folder, with why it is not a game: never
    // hidden (issue 31).
    for f in &listing.others {
        if !print_line(&hector::cli::other_file_line(phraser, f)) {
            break;
        }
    }
    ExitCode::SUCCESS
}

/// A game that could not be resumed: why, in the player's words where
/// hector knows them (a file refused unread), else the system's.
fn cannot_resume(phraser: &hector::Phraser, g: &hector::GameSummary, e: &std::io::Error) -> String {
    let why = match hector::not_plain(e) {
        Some(kind) => hector::cli::why_not_plain(phraser, kind),
        None => e.to_string(),
    };
    hector::cli::cannot_resume(phraser, g.id.as_str(), &why, &g.path)
}

/// `--resume` or `hector resume ID` of a game another hector has open:
/// said, and watched here if the player wants (issue 31).
fn open_elsewhere(
    started: &hector::Started,
    store: &hector::Store,
    id: &hector::GameId,
) -> ExitCode {
    let phraser = &started.phraser;
    let lines = hector::cli::typed_lines();
    let mut voice = hector::cli::WatchVoice::start(started.speech, started.speech_settings);
    let mut say = |s: &str| {
        print_line(s);
        voice.say(phraser, s);
    };
    let end = hector::cli::game_open_elsewhere(store, id, phraser, &lines, &mut say);
    voice.finish(std::time::Duration::from_secs(5));
    match end {
        hector::cli::WatchEnd::Ended | hector::cli::WatchEnd::Closed => ExitCode::SUCCESS,
        hector::cli::WatchEnd::Left | hector::cli::WatchEnd::Unreadable => ExitCode::FAILURE,
    }
}

/// One saved game as `hector games` lists it: "3. 20261125-…, …".
fn game_line(phraser: &hector::Phraser, number: usize, g: &hector::GameSummary) -> String {
    let fmt = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute] UTC");
    let date = g
        .started
        .and_then(|d| d.format(&fmt).ok())
        .unwrap_or_default();
    let result = match &g.result {
        Some(r) => r.clone(),
        None => phraser.message("game_unfinished", &[]),
    };
    // An online game's players with their ratings, and where it was played.
    let player = |name: &str, elo: &Option<String>, side| {
        let name = phraser.player(name, side);
        match elo {
            Some(r) if g.online.is_some() => {
                phraser.message("games_player_rating", &[("name", &name), ("rating", r)])
            }
            _ => name,
        }
    };
    phraser.message(
        if g.online.is_some() {
            "games_line_lichess"
        } else {
            "games_line"
        },
        &[
            ("number", &number.to_string()),
            ("id", g.id.as_str()),
            ("date", &date),
            (
                "white",
                &player(&g.white, &g.white_elo, shakmaty::Color::White),
            ),
            (
                "black",
                &player(&g.black, &g.black_elo, shakmaty::Color::Black),
            ),
            ("result", &result),
            ("moves", &g.plies.div_ceil(2).to_string()),
        ],
    )
}

/// No one saved game is `key`: the games it fits, when several do, each
/// as `hector games` lists it; otherwise that there is none.
fn no_such_game(phraser: &hector::Phraser, store: &hector::Store, key: &str) {
    let fits = store.matching(key);
    if fits.len() < 2 {
        println!("{}", phraser.message("no_such_saved_game", &[("id", key)]));
        return;
    }
    println!(
        "{}",
        phraser.message(
            "saved_game_ambiguous",
            &[("id", key), ("count", &fits.len().to_string())]
        )
    );
    for (n, g) in &fits {
        if !print_line(&game_line(phraser, *n, g)) {
            break;
        }
    }
}

/// One line of a listing on standard output; false once nobody reads it
/// any more (`hector games | head`), so that the listing stops quietly
/// instead of panicking on the closed pipe.
/// `hector lichess login|logout` (the work is in `hector::cli::lichess_login`).
fn lichess(cmd: &LichessCmd) -> ExitCode {
    let (LichessCmd::Login(args) | LichessCmd::Logout(args)) = cmd;
    let started = start(&args.settings);
    let phraser = &started.phraser;
    let said = match cmd {
        LichessCmd::Login(_) => hector::cli::lichess_login(phraser, &args.url),
        LichessCmd::Logout(_) => hector::cli::lichess_logout(phraser),
    };
    print_line(&said.sentence);
    if said.ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn print_line(line: &str) -> bool {
    use std::io::Write;
    writeln!(std::io::stdout().lock(), "{line}").is_ok()
}

/// A saved game whose start record cannot be read, said with its file.
fn damaged_sentence(phraser: &hector::Phraser, g: &hector::GameSummary) -> String {
    phraser.message(
        "game_damaged",
        &[
            ("id", g.id.as_str()),
            ("path", &g.path.display().to_string()),
        ],
    )
}

/// `hector export ID --format F [-o FILE] [--force]`.
fn export(args: &ExportArgs) -> ExitCode {
    let started = start(&Overrides::from(&args.settings));
    let phraser = &started.phraser;
    let store = store();
    let Some(g) = store.find(&args.id) else {
        no_such_game(phraser, &store, &args.id);
        return ExitCode::FAILURE;
    };
    if g.damaged {
        println!("{}", damaged_sentence(phraser, &g));
        return ExitCode::FAILURE;
    }
    let rec = match hector::cli::export_record_of(&store, &g.id) {
        Ok(r) => r,
        Err(e) => {
            println!(
                "{}",
                phraser.message("save_failed", &[("why", &e.to_string())])
            );
            return ExitCode::FAILURE;
        }
    };
    if args.output.as_deref() == Some(std::path::Path::new("-")) {
        return match hector::cli::export_to_stdout(args.format, &rec, phraser) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!(
                    "{}",
                    phraser.message("save_failed", &[("why", &e.to_string())])
                );
                ExitCode::FAILURE
            }
        };
    }
    let path = args.output.clone().unwrap_or_else(|| {
        std::path::PathBuf::from(format!("{}.{}", g.id, args.format.extension()))
    });
    match hector::cli::write_export(args.format, &rec, phraser, &path, args.force) {
        Ok(()) => {
            println!(
                "{}",
                phraser.message("saved", &[("path", &path.display().to_string())])
            );
            ExitCode::SUCCESS
        }
        Err(hector::cli::ExportError::IsJournal(p)) => {
            println!(
                "{}",
                phraser.message("export_is_journal", &[("path", &p.display().to_string())])
            );
            ExitCode::FAILURE
        }
        Err(e) => {
            println!(
                "{}",
                phraser.message("save_failed", &[("why", &e.to_string())])
            );
            ExitCode::FAILURE
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match &cli.command {
        Some(Cmd::Play(args)) => play(args),
        Some(Cmd::Voices(args)) => voices(args),
        Some(Cmd::Say(args)) => say(args),
        Some(Cmd::Board(cmd)) => board(cmd),
        Some(Cmd::Games(args)) => games(args),
        Some(Cmd::Resume(args)) => play_game(&args.play, Some(&args.id)),
        Some(Cmd::Export(args)) => export(args),
        Some(Cmd::Review(args)) => review(args),
        Some(Cmd::Lichess(cmd)) => lichess(cmd),
        None => play(&cli.play),
    }
}
