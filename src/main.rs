//! The `hector` command line: what was typed ([`Cli`]) goes to start-up's
//! resolution (`hector::cli`: the settings, the engine, the boards, the
//! page, lichess, the saved games), what it refuses is said in the
//! player's language, and what it resolves to starts the runtime.  The
//! command line's own commands are `hector::cli::commands`; the decisions
//! are in the library, tested there.

use std::process::ExitCode;
use std::time::Instant;

use hector::cli::{Cli, Cmd, PlayArgs, Refusal, ReviewArgs, SystemPorts, UiKind, commands};
use hector::io::{CompanionConfig, PageLabels, Pairing};
use hector::{
    BoardChoice, BoardSettings, BoardSide, CompanionChoice, CompanionSettings, Effect, LineMode,
    Msg, Phraser, ResumeOffer, Runtime, Sink, StartInfo, start,
};

fn main() -> ExitCode {
    let cli = Cli::read();
    match &cli.command {
        Some(Cmd::Play(args)) => play_game(args, None),
        Some(Cmd::Voices(args)) => commands::voices(args),
        Some(Cmd::Say(args)) => commands::say(args),
        Some(Cmd::Board(cmd)) => commands::board(cmd),
        Some(Cmd::Games(args)) => commands::games(args),
        Some(Cmd::Resume(args)) => play_game(&args.play, Some(&args.id)),
        Some(Cmd::Export(args)) => commands::export(args),
        Some(Cmd::Verify(args)) => commands::verify(args),
        Some(Cmd::Review(args)) => review(args),
        Some(Cmd::Lichess(cmd)) => commands::lichess(cmd),
        None => play_game(&cli.play, None),
    }
}

/// A refusal of start-up, said; hector's exit code for it.
fn refuse(refusal: &Refusal, phraser: &Phraser) -> ExitCode {
    println!("{}", refusal.sentence(phraser));
    ExitCode::from(refusal.exit_code())
}

fn has_token() -> bool {
    hector::cli::find_lichess_token().is_some()
}

/// Today's date (UTC) as in PGN, for the scoresheet (the app reads no
/// calendar of its own).
fn today() -> String {
    let fmt = time::macros::format_description!("[year].[month].[day]");
    time::OffsetDateTime::now_utc()
        .format(&fmt)
        .unwrap_or_default()
}

/// `hector play`, `hector resume ID`: a game over the board, journalled.
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
        match hector::cli::broadcast_round(given, has_token()) {
            Ok(round) => started.app = started.app.broadcast(round),
            Err(r) => return refuse(&r, &started.phraser),
        }
    }
    let me = started.app.given_me();
    match hector::cli::game_start(args, &started.players, me, today()) {
        Ok(game) => {
            started.app = started.app.journal(game.journal);
            if let Some((position, info)) = game.from {
                started.app = started.app.start_from(position, info);
            }
        }
        Err(e) => {
            println!("{}", hector::start_error_sentence(&started.phraser, &e));
            return ExitCode::FAILURE;
        }
    }
    let store = hector::cli::store();
    match hector::cli::resume_plan(&store, args, resume_id, has_token(), &started.phraser) {
        // Another hector has the game open: watch it or leave it.
        Ok(hector::cli::ResumePlan {
            open_elsewhere: Some(id),
            ..
        }) => commands::watch_elsewhere(&started, &store, &id),
        Ok(plan) => {
            if let Some(s) = &plan.said {
                println!("{s}");
            }
            run_session(started, args, plan.offer, None)
        }
        Err(said) => commands::stop_saying(&said),
    }
}

/// `hector play --lichess`: the game is the server's; its clock too, so
/// `--time` is the challenge's, not a clock of hector's own.
fn play_online(args: &PlayArgs) -> ExitCode {
    let mut settings = args.settings.clone();
    let time = settings.time.take();
    let mut started = start(&settings);
    if !has_token() {
        return refuse(&Refusal::NoToken, &started.phraser);
    }
    let online = match hector::cli::online_start(args, time.as_deref()) {
        Ok(o) => o,
        Err(r) => return refuse(&r, &started.phraser),
    };
    let store = hector::cli::store();
    // `--game ID` whose journal is kept (a correspondence game quit
    // between moves): taken up as `--resume` does, its moves not said
    // again.
    if let hector::OnlineStart::Game { id } = &online
        && let Some(offer) = hector::cli::saved_online_game(&store, id)
    {
        return run_session(started, args, Some(offer), None);
    }
    // An online game left unfinished is gone on with by resuming it (its
    // journal, its moves not said again): said, in case that was meant.
    if store.resumable().is_some_and(|g| g.online.is_some()) {
        let said = started.phraser.message("lichess_unfinished_saved", &[]);
        println!("{said}");
    }
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
    let engine = hector::cli::engine_setup(args, &started.engine);
    // A tournament game (`--tournament [FILE]`): what its arbiter allowed,
    // and no engine to play.
    let tournament =
        match hector::cli::tournament_setup(args.tournament.as_deref(), engine.as_ref()) {
            Ok(t) => t,
            Err(refusal) => {
                println!("{}", refusal.sentence(&started.phraser));
                return ExitCode::FAILURE;
            }
        };
    // A tournament game's page has the arbiter's seat (a game resumed
    // keeps its record's mode).
    let arbiter_seat = tournament.is_some()
        || offer
            .as_ref()
            .is_some_and(|o| hector::TournamentSetup::of_start(&o.resumed.start).is_some());
    let mut builder = std::mem::take(&mut started.app)
        .engine(engine)
        .tournament(tournament)
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
    let boards = &started.board;
    if let Some(spec) = args.board.as_ref().or(boards.port.as_ref()) {
        let choice = open_board(spec, args, boards, &mut runtime, BoardSide::Mine);
        effects.extend(app.update(Msg::BoardChosen(choice), now));
    }
    if let Some(spec) = &args.opponent_board {
        let choice = open_board(spec, args, boards, &mut runtime, BoardSide::Opponent);
        effects.extend(app.update(Msg::OpponentBoardChosen(choice), now));
    }
    // The opponent's page paired before hector stopped, kept in the
    // journal of the game being resumed: it gets its seat back.
    let resume_seat = offer
        .as_ref()
        .and_then(|o| o.resumed.companion.clone())
        .map(|token_sha256| Pairing { token_sha256 })
        .filter(Pairing::is_well_formed);
    if let Some(listen) = hector::cli::page_listen(args.companion.as_deref(), &started.companion) {
        let labels = PageLabels::for_player(app.phraser());
        let (choice, serving, arbiter_code) = start_companion(
            &listen,
            &started.companion,
            labels,
            resume_seat.clone(),
            arbiter_seat,
            &started.phraser,
            &mut runtime,
        );
        effects.extend(app.update(Msg::CompanionChosen(choice), now));
        if let Some(code) = arbiter_code {
            let seat = hector::io::CompanionEvent::ArbiterCode(code);
            effects.extend(app.update(Msg::Companion(seat), now));
        }
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
        runtime.keep_journal(Sink::new(hector::cli::store()));
    }
    let lichess_url = rejoin_url
        .as_deref()
        .or(args.lichess.then_some(args.lichess_url.as_str()));
    if let Some(url) = lichess_url
        && let Some(token) = hector::cli::find_lichess_token()
        && let Err(why) = runtime.start_lichess(url, token)
    {
        let said = started.phraser.message(
            "lichess_cannot_start",
            &[("why", &started.phraser.io_why(&why))],
        );
        eprintln!("{said}");
    }
    if args.broadcast.is_some()
        && !reviewing
        && let Some(token) = hector::cli::find_lichess_token()
        && let Err(why) = runtime.start_broadcast(&args.lichess_url, token)
    {
        let said = started.phraser.message(
            "broadcast_cannot_start",
            &[("why", &started.phraser.io_why(&why))],
        );
        eprintln!("{said}");
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
            let why = e.to_string();
            eprintln!(
                "{}",
                started.phraser.message("session_failed", &[("why", &why)])
            );
            ExitCode::FAILURE
        }
    }
}

/// The board of `spec`, its port opened by the runtime when one is found:
/// what the app is told.
fn open_board(
    spec: &str,
    args: &PlayArgs,
    settings: &BoardSettings,
    runtime: &mut Runtime,
    side: BoardSide,
) -> BoardChoice {
    let plan = hector::cli::board_plan(spec, args, settings, &mut SystemPorts);
    if let Some((path, line)) = plan.open {
        runtime.open_board(side, path, line);
    }
    if let Some(target) = plan.wireless
        && let Err(e) = runtime.open_wireless_board(side, target)
    {
        return BoardChoice::Missing(hector::BoardProblem::CannotOpen {
            port: "Bluetooth".into(),
            error: hector::io::PortError::Other(e.to_string()),
        });
    }
    plan.choice
}

/// Start the opponent's screen on `listen` (empty: the default address):
/// what the app is told, and whether it is served.
fn start_companion(
    listen: &str,
    settings: &CompanionSettings,
    labels: PageLabels,
    resume: Option<Pairing>,
    arbiter: bool,
    phraser: &Phraser,
    runtime: &mut Runtime,
) -> (CompanionChoice, bool, Option<String>) {
    let addr = match hector::cli::page_address(listen, phraser) {
        Ok(a) => a,
        Err(failed) => return (failed, false, None),
    };
    let host = hector::cli::host_name();
    #[allow(unused_mut, reason = "changed only in tests")]
    let mut config = CompanionConfig {
        listen: addr,
        view_without_code: settings.view_without_code,
        require_code: settings.require_code,
        labels,
        resume,
        arbiter,
        host_names: hector::cli::host_names(&host),
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
        Ok(server) => (
            hector::cli::page_ready(server.local_addr(), &host, server.code()),
            true,
            server.arbiter_code(),
        ),
        Err(e) => (hector::cli::page_failed(listen, e.to_string()), false, None),
    }
}
