//! The command line's own commands: `hector board`, `voices`, `say`,
//! `games`, `lichess`, `export`.  Each says its lines in the player's
//! language (the settings file's), on standard output, and returns
//! hector's exit code; `main` only picks one.

use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use crate::board::Protocol;
use crate::board::cli::{self as board_cli, Probed, SimOptions};
use crate::export;
use crate::msg::{Effect, Msg};
use crate::scoresheet::{GameId, Store};
use crate::setup::saved::other_file_line;
use crate::setup::typed::{
    BoardCmd, ExportArgs, GamesArgs, LichessCmd, SayArgs, VerifyArgs, VoicesArgs,
};
use crate::setup::{Overrides, Started, find_game, listing_line, start, store};
use crate::speech::{
    FallBack, Part, Priority, SayKind, SpeechMode, Utterance, list_voices, say_utterance_once,
    system_factory, voices_summary,
};
use crate::words::vocab::Lang;

use super::watch;

/// One line on standard output; false once nobody reads it any more
/// (`hector games | head`), so that a listing stops quietly instead of
/// panicking on the closed pipe.
pub fn print_line(line: &str) -> bool {
    writeln!(std::io::stdout().lock(), "{line}").is_ok()
}

/// The sentences that say why hector stops, then its failure.
pub fn stop_saying(said: &[String]) -> ExitCode {
    for line in said {
        if !print_line(line) {
            break;
        }
    }
    ExitCode::FAILURE
}

/// `hector board ...`, worded in the player's language (from the settings
/// file).
pub fn board(cmd: &BoardCmd) -> ExitCode {
    let phraser = || start(&Overrides::default()).phraser;
    match cmd {
        BoardCmd::List => {
            let phraser = phraser();
            let code = match board_cli::list_lines() {
                Ok(lines) if lines.is_empty() => {
                    println!("{}", phraser.message("board_list_none", &[]));
                    ExitCode::SUCCESS
                }
                Ok(lines) => {
                    for l in lines {
                        if !print_line(&l) {
                            return ExitCode::SUCCESS;
                        }
                    }
                    ExitCode::SUCCESS
                }
                Err(why) => {
                    println!("{}", phraser.message("board_list_failed", &[("why", &why)]));
                    ExitCode::FAILURE
                }
            };
            // Then the Bluetooth LE boards advertising nearby.
            for l in nearby_lines(&phraser, board_cli::nearby()) {
                if !print_line(&l) {
                    break;
                }
            }
            code
        }
        BoardCmd::Probe { port } => match board_cli::probe(port) {
            Probed::Found(d) => {
                println!("{port}: {} ({})", d.protocol.name(), d.name);
                ExitCode::SUCCESS
            }
            Probed::NoAnswer => {
                println!(
                    "{}",
                    phraser().message("board_probe_none", &[("port", port)])
                );
                ExitCode::FAILURE
            }
            Probed::CannotOpen(e) => {
                println!("{}", phraser().cannot_open(port, &e));
                ExitCode::FAILURE
            }
        },
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
            match board_cli::run_sim(options, stdin) {
                Ok(()) => ExitCode::SUCCESS,
                Err(why) => {
                    println!(
                        "{}",
                        phraser().message("board_sim_failed", &[("why", &why)])
                    );
                    ExitCode::FAILURE
                }
            }
        }
    }
}

/// `hector voices`: one line per language.
pub fn voices(args: &VoicesArgs) -> ExitCode {
    match list_voices() {
        Ok(list) => {
            let own: Vec<&str> = Lang::ALL.iter().map(|l| l.code()).collect();
            for line in voices_summary(&list, &own, args.all) {
                // A closed pipe (`hector voices | head`) ends the list quietly.
                if !print_line(&line) {
                    break;
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            let phraser = start(&Overrides::default()).phraser;
            let why = phraser.message(FallBack::from_error(&e).key(), &[]);
            println!("{}", phraser.message("voices_failed", &[("why", &why)]));
            ExitCode::FAILURE
        }
    }
}

/// `hector say TEXT` / `hector say --move Nf3`: print and speak one sentence.
pub fn say(args: &SayArgs) -> ExitCode {
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
                // The move is read in the starting position: said, so that
                // e8=Q refused is not taken for a fault in reading it.
                println!(
                    "{} {}",
                    phraser.input_error(&e, &pos),
                    phraser.message("say_move_from_start", &[])
                );
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
    let factory = system_factory();
    match say_utterance_once(factory, utterance, started.speech_settings) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let why = phraser.message(FallBack::from_error(&e).key(), &[]);
            println!("{}", phraser.message("speech_fell_back", &[("why", &why)]));
            ExitCode::FAILURE
        }
    }
}

/// `hector games`: one line per saved game, oldest first.
pub fn games(args: &GamesArgs) -> ExitCode {
    let phraser = start(&Overrides::from(&args.settings)).phraser;
    let store = store();
    let listing = match store.list_all() {
        Ok(l) => l,
        Err(e) => {
            let path = store.dir().display().to_string();
            let why = e.to_string();
            let said = phraser.message("games_list_failed", &[("path", &path), ("why", &why)]);
            println!("{said}");
            return ExitCode::FAILURE;
        }
    };
    if listing.games.is_empty() {
        println!("{}", phraser.message("games_none", &[]));
    }
    for (i, g) in listing.games.iter().enumerate() {
        if !print_line(&listing_line(&phraser, i + 1, g)) {
            return ExitCode::SUCCESS;
        }
    }
    // Every other file in the folder, with why it is not a game: never
    // hidden (issue 31).
    for f in &listing.others {
        if !print_line(&other_file_line(&phraser, f)) {
            break;
        }
    }
    ExitCode::SUCCESS
}

/// `--resume` or `hector resume ID` of a game another hector has open
/// (issue 31): said, and watched here if the player wants; the sentences
/// are printed and spoken (`ui::watch`).
pub fn watch_elsewhere(started: &Started, store: &Store, id: &GameId) -> ExitCode {
    let phraser = &started.phraser;
    let lines = watch::typed_lines();
    let mut voice = watch::WatchVoice::start(started.speech, started.speech_settings);
    let mut say = |s: &str| {
        print_line(s);
        voice.say(phraser, s);
    };
    let end = watch::open_elsewhere(store, id, phraser, &lines, &mut say);
    voice.finish(Duration::from_secs(5));
    match end {
        watch::WatchEnd::Ended | watch::WatchEnd::Closed => ExitCode::SUCCESS,
        watch::WatchEnd::Left | watch::WatchEnd::Unreadable => ExitCode::FAILURE,
    }
}

/// `hector lichess login|logout|games` (the work is in `ui::lichess`).
pub fn lichess(cmd: &LichessCmd) -> ExitCode {
    let (LichessCmd::Login(args) | LichessCmd::Logout(args) | LichessCmd::Games(args)) = cmd;
    let phraser = start(&args.settings).phraser;
    let said = match cmd {
        LichessCmd::Login(_) => super::lichess::login(&phraser, &args.url),
        LichessCmd::Logout(_) => super::lichess::logout(&phraser),
        LichessCmd::Games(_) => super::lichess::games(&phraser, &args.url),
    };
    print_line(&said.sentence);
    if said.ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// `hector export ID --format F [-o FILE] [--force]`.
pub fn export(args: &ExportArgs) -> ExitCode {
    let phraser = start(&Overrides::from(&args.settings)).phraser;
    let store = store();
    let g = match find_game(&store, &args.id, &phraser) {
        Ok(g) => g,
        Err(said) => return stop_saying(&said),
    };
    let failed =
        |e: &dyn std::fmt::Display| phraser.message("save_failed", &[("why", &e.to_string())]);
    let rec = match export::record_of(&store, &g.id) {
        Ok(r) => r,
        Err(e) => {
            println!("{}", failed(&e));
            return ExitCode::FAILURE;
        }
    };
    if args.output.as_deref() == Some(std::path::Path::new("-")) {
        return match export::write_to_stdout(args.format, &rec, &phraser) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("{}", failed(&e));
                ExitCode::FAILURE
            }
        };
    }
    let path = args.output.clone().unwrap_or_else(|| {
        std::path::PathBuf::from(format!("{}.{}", g.id, args.format.extension()))
    });
    match export::write(args.format, &rec, &phraser, &path, args.force) {
        Ok(()) => {
            let said = path.display().to_string();
            println!("{}", phraser.message("saved", &[("path", &said)]));
            if !args.arbiter {
                return ExitCode::SUCCESS;
            }
            // The arbiter's log beside it.
            match crate::verify::write_arbiter_log(&store, &g.id, &path, &phraser, args.force) {
                Ok(log) => {
                    let log = log.display().to_string();
                    println!("{}", phraser.message("saved", &[("path", &log)]));
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    println!("{}", failed(&e));
                    ExitCode::FAILURE
                }
            }
        }
        Err(export::ExportError::IsJournal(p)) => {
            let path = p.display().to_string();
            println!(
                "{}",
                phraser.message("export_is_journal", &[("path", &path)])
            );
            ExitCode::FAILURE
        }
        Err(e) => {
            println!("{}", failed(&e));
            ExitCode::FAILURE
        }
    }
}

/// `hector verify FILE`: one sentence; success when the record proves
/// itself.
pub fn verify(args: &VerifyArgs) -> ExitCode {
    let phraser = start(&Overrides::from(&args.settings)).phraser;
    let v = crate::verify::verify(&args.file, &store(), &phraser);
    print_line(&v.sentence);
    if v.proven {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The boards heard nearby, strongest first, each with the `--board` that
/// chooses it ("Chessnut Air, nearby, strong signal: --board
/// chessnut:C0:FF:EE:00:00:01"), or why none could be looked for.
fn nearby_lines(
    phraser: &crate::phrase::Phraser,
    found: Result<Vec<crate::board::gatt::Nearby>, crate::board::link::PortError>,
) -> Vec<String> {
    use crate::board::wireless::Signal;
    match found {
        Ok(boards) if boards.is_empty() => vec![phraser.message("board_list_no_wireless", &[])],
        Ok(boards) => boards
            .into_iter()
            .map(|b| {
                let signal = phraser.message(Signal::of(b.rssi).key(), &[]);
                let spec = format!("{}:{}", b.kind.word(), b.address);
                phraser.message(
                    "board_list_nearby",
                    &[("name", &b.name), ("signal", &signal), ("spec", &spec)],
                )
            })
            .collect(),
        Err(_) => vec![phraser.message("board_list_no_bluetooth", &[])],
    }
}
