use super::*;
use crate::audio::Tone;
use crate::game::Game;
use crate::msg::StartProblem;
use crate::speech::{FallBack, SpeechRoute, SpeechStatus};
use crate::words::Lang;
use proptest::prelude::*;
use shakmaty::Color;

fn app() -> App {
    App::builder().build()
}

/// The sentences said among `effects`, in order: the one helper of the
/// app's test modules.
pub(crate) fn said(effects: &[Effect]) -> Vec<String> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Say(u) => Some(u.text.clone()),
            _ => None,
        })
        .collect()
}

fn line(app: &mut App, text: &str) -> Vec<String> {
    said(&app.update(Msg::Line(text.into()), Instant::now()))
}

/// The app reads no clock and no calendar: the time comes with each
/// message (`update(msg, now)`) and the date from start-up.  Every file
/// of `src/app` but its tests is read for the calls that would.
#[test]
fn the_app_reads_no_clock_of_its_own() {
    fn visit(dir: &std::path::Path, found: &mut Vec<String>, files: &mut usize) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            panic!("cannot read {}", dir.display())
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                visit(&path, found, files);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs")
                || path
                    .file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n == "tests.rs" || n.ends_with("_tests.rs"))
            {
                continue;
            }
            *files += 1;
            let text = std::fs::read_to_string(&path).unwrap();
            // Inline test modules are the file's end.
            let code = text.split("#[cfg(test)]").next().unwrap_or("");
            for call in ["Instant::now", "SystemTime::now", "now_utc", "now_local"] {
                if code.contains(call) {
                    found.push(format!("{}: {call}", path.display()));
                }
            }
        }
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/app");
    let (mut found, mut files) = (Vec::new(), 0);
    visit(&dir, &mut found, &mut files);
    assert!(files >= 15, "only {files} files read");
    assert_eq!(found, Vec::<String>::new());
}

#[test]
fn appendix_d_words_in_an_english_answer_are_marked_for_the_german_voice() {
    let mut a = app();
    for m in ["e4", "e5", "Nf3"] {
        let _ = a.update(Msg::Line(m.into()), Instant::now());
    }
    let e = a.update(Msg::Line("attackers e5".into()), Instant::now());
    let Some(Effect::Say(u)) = e.iter().find(|e| matches!(e, Effect::Say(_))) else {
        panic!("nothing said: {e:?}")
    };
    assert_eq!(u.text, "Eva fünf is attacked by Springer Felix drei.");
    assert_eq!(u.lang, "en");
    let voiced: Vec<(String, String)> = u.voiced().into_iter().map(|p| (p.text, p.lang)).collect();
    let want = [
        ("Eva fünf", "de"),
        (" is attacked by ", "en"),
        ("Springer Felix drei", "de"),
        (".", "en"),
    ];
    assert_eq!(voiced, want.map(|(t, l)| (t.to_owned(), l.to_owned())));
    // A move alone stays one German sentence.
    let e = a.update(Msg::Line("Nc6".into()), Instant::now());
    let Some(Effect::Say(m)) = e.iter().find(|e| matches!(e, Effect::Say(_))) else {
        panic!("nothing said: {e:?}")
    };
    assert_eq!((m.lang.as_str(), m.parts.len()), ("de", 0));
}

#[test]
fn opponents_move_is_urgent_own_move_is_a_confirmation() {
    let mut a = app();
    let e = a.update(Msg::Line("e4".into()), Instant::now());
    assert!(
        matches!(&e[..], [Effect::Say(u)] if u.priority == Priority::Normal && u.kind == SayKind::Move && u.lang == "de")
    );
    let e = a.update(Msg::Line("e5".into()), Instant::now());
    assert!(
        matches!(&e[..], [Effect::Say(u), Effect::Tone(Tone::OpponentMove)] if u.priority == Priority::Urgent)
    );
}

#[test]
fn tones_for_check_and_errors() {
    let mut a = app();
    for m in ["e4", "f6", "d4", "g5"] {
        line(&mut a, m);
    }
    // Mate: the check tone, then the result.
    let e = a.update(Msg::Line("Qh5".into()), Instant::now());
    assert!(e.contains(&Effect::Tone(Tone::Check)), "{e:?}");
    let e = a.update(Msg::Line("xyz".into()), Instant::now());
    assert_eq!(e.last(), Some(&Effect::Tone(Tone::Error)));
}

#[test]
fn the_speech_route_is_said_in_the_players_words() {
    let mut a = app();
    let route = |r| Msg::Speech(SpeechStatus::Speaking { route: r });
    let e = a.update(
        route(SpeechRoute::ScreenReader("NVDA".into())),
        Instant::now(),
    );
    assert_eq!(said(&e), vec!["Speaking through NVDA."]);
    let e = a.update(
        route(SpeechRoute::SystemVoices { no_german: false }),
        Instant::now(),
    );
    assert_eq!(
        said(&e),
        vec!["No screen reader is running: speaking with the Windows voices."]
    );
    let e = a.update(
        route(SpeechRoute::SystemVoices { no_german: true }),
        Instant::now(),
    );
    assert_eq!(
        said(&e),
        vec![
            "No screen reader is running: speaking with the Windows voices. \
                 No German voice is installed: the same voice reads the chess words."
        ]
    );
}

#[test]
fn speech_falling_back_is_said_once_in_words() {
    let mut a = app();
    let e = a.update(
        Msg::Speech(SpeechStatus::FellBack {
            why: "the speech service stopped answering (speak)".into(),
            reason: FallBack::NoAnswer,
        }),
        Instant::now(),
    );
    assert_eq!(
        said(&e),
        vec!["Speech is not working: the speech service does not answer. Printing only."]
    );
}

#[test]
fn repeat_says_the_last_announcement_again() {
    let mut a = app();
    assert_eq!(line(&mut a, "repeat"), vec!["Nothing to repeat."]);
    line(&mut a, "Nf3");
    assert_eq!(line(&mut a, "repeat"), vec!["Springer Felix drei"]);
}

#[test]
fn flip_changes_whose_pieces_are_mine() {
    let mut a = app();
    assert_eq!(line(&mut a, "flip"), vec!["You play Black."]);
    assert_eq!(a.me(), Color::Black);
    // White's move is now the opponent's: urgent.
    let e = a.update(Msg::Line("e4".into()), Instant::now());
    assert!(
        matches!(&e[..], [Effect::Say(u), Effect::Tone(Tone::OpponentMove)] if u.priority == Priority::Urgent)
    );
    assert_eq!(
        line(&mut a, "pieces theirs Springer"),
        line(&mut a, "pieces white knight")
    );
}

#[test]
fn own_moves_can_go_unconfirmed_but_the_opponents_never() {
    let mut a = App::builder().confirm_own_moves(false).build();
    assert!(line(&mut a, "e4").is_empty());
    assert_eq!(line(&mut a, "e5"), vec!["Bauer Eva fünf"]);
}

#[test]
fn draw_offer_declined_then_lapses() {
    let mut a = app();
    line(&mut a, "e4");
    assert_eq!(line(&mut a, "draw"), vec!["White offers a draw."]);
    assert_eq!(line(&mut a, "decline"), vec!["Black declines the draw."]);
    assert_eq!(line(&mut a, "accept"), vec!["There is no draw offer."]);
}

#[test]
fn silence_and_quit_are_effects() {
    let mut a = app();
    assert_eq!(
        a.update(Msg::Line("silence".into()), Instant::now()),
        vec![Effect::Silence]
    );
    let e = a.update(Msg::Line("quit".into()), Instant::now());
    assert_eq!(e.last(), Some(&Effect::Quit));
    assert!(a.quitting);
}

#[test]
fn the_start_is_said_by_update_and_can_be_repeated() {
    let mut a = app();
    let e = a.update(Msg::Start, Instant::now());
    assert_eq!(said(&e), vec!["New game. White to move."]);
    assert_eq!(line(&mut a, "repeat"), vec!["New game. White to move."]);
}

#[test]
fn a_game_set_up_elsewhere_begins_with_whose_move_it_is() {
    let mut a = app();
    a.game = Game::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 30").expect("valid");
    let e = a.update(Msg::Start, Instant::now());
    assert_eq!(said(&e), vec!["Game set up. Black to move, move 30."]);
}

#[test]
fn a_start_up_problem_is_said_in_words_without_a_tone() {
    let mut a = app();
    let problem = StartProblem::File(crate::toml_error::DataFileError {
        file: "c.toml".into(),
        line: Some(3),
        key: Some("commands.help".into()),
        problem: crate::toml_error::FileProblem::NoWords,
    });
    let e = a.update(Msg::Problem(problem), Instant::now());
    assert!(
        matches!(&e[..], [Effect::Say(u)] if u.kind == SayKind::Error),
        "{e:?}"
    );
    assert!(said(&e)[0].contains("c.toml"), "{e:?}");
}

/// Issue 27 items 5 and 6: what is wrong in a line-mode key map or a
/// board file was an English detail inside the German sentence ("„…“:
/// \"e4\" could be read as a move: choose another word. Es gelten die
/// Voreinstellungen."); now each problem is data, worded in German.
#[test]
fn a_german_player_hears_a_broken_line_key_map_and_board_file_in_german() {
    let dir = std::env::temp_dir().join(format!("hector-line-keys-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp folder");
    let (_, builtin) = crate::keymap::LINE_KEYMAP_SOURCE;
    let broken = |name: &str, text: String| {
        assert_ne!(text, builtin, "{name} changes the file");
        let path = dir.join(name);
        std::fs::write(&path, text).expect("written");
        let e = crate::keymap::Keymap::load(&path).expect_err("refused");
        (path.display().to_string(), StartProblem::File(e))
    };
    let line_of = |text: &str, start: &str| {
        1 + text
            .lines()
            .position(|l| l.starts_with(start))
            .expect("the line is there")
    };
    let moved = builtin.replacen("\"material\",", "\"material\", \"e4\",", 1);
    let taken = builtin.replace("[\"flip\"]", "[\"flip\", \"help\"]");
    let unknown = builtin.replace("flip      =", "flop      =");
    let (l_moved, l_taken, l_unknown) = (
        line_of(&moved, "material"),
        line_of(&taken, "help"),
        line_of(&unknown, "flop"),
    );
    let (f_moved, moved) = broken("moved.toml", moved);
    let (f_taken, taken) = broken("taken.toml", taken);
    let (f_unknown, unknown) = broken("unknown.toml", unknown);
    let missing = dir.join("missing.toml");
    let missing_said = missing.display().to_string();
    let missing = StartProblem::File(
        crate::keymap::Keymap::load(&missing).expect_err("there is no such file"),
    );
    let board = |text: String| {
        let e = crate::board::hardware::parse_board_file("brett.toml", &text).expect_err("refused");
        StartProblem::File(e)
    };
    let good = "name = \"Test\"\nprotocol = \"occupancy\"\ndevices = [\"/dev/ttyUSB*\"]\n\
                [serial]\nbaud = 9600\ndata_bits = 8\nparity = \"none\"\nstop_bits = 1\n";
    let problems = [
        moved,
        taken,
        unknown,
        missing,
        board(good.replace("data_bits = 8", "data_bits = 9")),
        board(good.replace("\"occupancy\"", "\"usb\"")),
        board(good.replace("parity = \"none\"", "parity = \"keine\"")),
        board(good.split("[serial]").next().unwrap_or_default().to_owned()),
    ];
    let mut a = App::builder().lang(Lang::De).build();
    let said_de: Vec<String> = problems
        .iter()
        .flat_map(|p| said(&a.update(Msg::Problem(p.clone()), Instant::now())))
        .collect();
    assert_eq!(
        said_de,
        vec![
            format!(
                "{f_moved}, Zeile {l_moved}, Schlüssel commands.material: „e4“ könnte als Zug \
                 gelesen werden; wähle ein anderes Wort. Es gelten die Voreinstellungen."
            ),
            format!(
                "{f_taken}, Zeile {l_taken}, Schlüssel commands.help: „help“ ist schon ein Wort \
                 für flip. Es gelten die Voreinstellungen."
            ),
            format!(
                "{f_unknown}, Zeile {l_unknown}, Schlüssel commands.flop: „flop“ ist kein Befehl \
                 der Zeilenansicht. Es gelten die Voreinstellungen."
            ),
            format!(
                "{missing_said}: kann nicht gelesen werden (diese Datei gibt es nicht). Es \
                 gelten die Voreinstellungen."
            ),
            "brett.toml, Zeile 6, Schlüssel serial.data_bits: erwartet eines von \"5\", \"6\", \
             \"7\" oder \"8\", gefunden 9. Es gelten die Voreinstellungen."
                .to_owned(),
            "brett.toml, Zeile 2, Schlüssel protocol: „usb“ ist nicht eines von \"dgt\", \
             \"millennium\", \"occupancy\", \"chessnut\", \"chessnutmove\", \"pegasus\" oder \"eone\". Es \
             gelten die Voreinstellungen."
                .to_owned(),
            "brett.toml, Zeile 7, Schlüssel serial.parity: „keine“ ist nicht eines von \"none\", \
             \"odd\" oder \"even\". Es gelten die Voreinstellungen."
                .to_owned(),
            "brett.toml, Zeile 2, Schlüssel protocol: eine Brettdatei braucht entweder eine \
             Tabelle [serial] oder eine Tabelle [bluetooth], nicht beide. Es gelten die \
             Voreinstellungen."
                .to_owned(),
        ]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_board_chosen_at_start_up_arrives_as_a_message() {
    use crate::msg::{BoardChoice, BoardProblem};
    let mut a = app();
    let e = a.update(
        Msg::BoardChosen(BoardChoice::Missing(BoardProblem::NoAnswer {
            port: "/dev/ttyX".into(),
        })),
        Instant::now(),
    );
    assert_eq!(said(&e).len(), 1);
    assert!(said(&e)[0].contains("/dev/ttyX"), "{e:?}");
    assert!(a.board().is_none());
    let e = a.update(
        Msg::BoardChosen(BoardChoice::Opened {
            protocol: crate::board::Protocol::Dgt,
            port: "/dev/ttyY".into(),
            config: crate::board::TrackerConfig::default(),
            announce_touch: false,
        }),
        Instant::now(),
    );
    assert!(e.is_empty());
    assert!(a.board().is_some());
    // Opened, but nothing known yet: neither "matches" nor
    // "disconnected".
    assert_eq!(
        line(&mut a, "board"),
        vec!["The board on /dev/ttyY has not answered yet."]
    );
}

#[test]
fn the_end_of_input_is_the_quit_effect() {
    let mut a = app();
    assert_eq!(
        a.update(Msg::EndOfInput, Instant::now()),
        vec![Effect::Quit]
    );
}

#[test]
fn an_action_without_its_arguments_gets_its_help() {
    let mut a = app();
    let mut out = Vec::new();
    a.dispatch(
        crate::command::Request::new(
            crate::action::PlayerAction::Square,
            crate::command::Arg::None,
        ),
        Instant::now(),
        &mut out,
    );
    assert_eq!(said(&out), line(&mut a, "square"));
}

#[test]
fn new_game_starts_again() {
    let mut a = app();
    line(&mut a, "e4");
    assert_eq!(line(&mut a, "new"), vec!["New game. White to move."]);
    assert!(a.game().history().is_empty());
}

#[test]
fn fifty_move_claim_on_an_intended_move() {
    let mut a = app();
    a.game = Game::from_fen("8/8/4k3/8/8/2K5/8/R7 w - - 99 80").expect("valid");
    assert_eq!(
        line(&mut a, "claim Ra2"),
        vec![
            "Turm Anna zwei",
            "Draw by the 50-move rule, half a point each."
        ]
    );
}

mod board {
    use super::*;
    use crate::board::link::LinkEvent;
    use crate::board::sim::{HandStep, SimBoard};
    use crate::board::{Protocol, TrackerConfig};
    use shakmaty::{Board, Chess, Square, san::San};
    use std::time::Duration;

    const SETTLE: Duration = Duration::from_millis(300);

    /// An app with a connected board of `protocol` at the start position.
    fn with_board(protocol: Protocol, touch: bool) -> (App, SimBoard, Instant) {
        let mut a = app();
        let config = TrackerConfig {
            settle: SETTLE,
            detect_rotation: false,
            ..TrackerConfig::default()
        };
        a.attach_board(BoardSession::new(
            protocol,
            config,
            a.game().position(),
            touch,
        ));
        let now = Instant::now();
        let e = a.update(Msg::Board(LinkEvent::Connected), now);
        // Open, but nothing is known until the board answers.
        assert!(said(&e).is_empty(), "{e:?}");
        assert!(
            e.iter()
                .any(|e| matches!(e, Effect::ToBoard(b) if !b.is_empty()))
        );
        let sim = SimBoard::new(protocol, Board::new());
        let e = a.update(Msg::Board(LinkEvent::Bytes(sim.dump())), now);
        assert_eq!(said(&e), vec!["Board connected."]);
        (a, sim, now)
    }

    /// Play `san` on the simulated board; what is said.
    fn on_board(a: &mut App, sim: &mut SimBoard, san: &str, now: Instant) -> Vec<String> {
        let pos = a
            .board()
            .map(|b| b.tracker().position().clone())
            .unwrap_or_default();
        let m = san.parse::<San>().ok().and_then(|s| s.to_move(&pos).ok());
        let Some(m) = m else {
            panic!("{san} is legal");
        };
        let mut out = Vec::new();
        for bytes in sim.play(&pos, m, false) {
            out.extend(said(&a.update(Msg::Board(LinkEvent::Bytes(bytes)), now)));
        }
        out
    }

    fn act(a: &mut App, sim: &mut SimBoard, action: HandStep, now: Instant) -> Vec<String> {
        let bytes = sim.act(action);
        said(&a.update(Msg::Board(LinkEvent::Bytes(bytes)), now))
    }

    fn tick(a: &mut App, now: Instant) -> Vec<String> {
        said(&a.update(Msg::Deadline, now))
    }

    #[test]
    fn a_move_on_the_board_is_played_and_said() {
        let (mut a, mut sim, now) = with_board(Protocol::Dgt, false);
        assert_eq!(
            on_board(&mut a, &mut sim, "Nf3", now),
            vec!["Springer Felix drei"]
        );
        assert_eq!(a.game().history().len(), 1);
        // The opponent's move from the board is urgent, with its tone.
        let pos = a.game().position().clone();
        let m = "Nf6".parse::<San>().ok().and_then(|s| s.to_move(&pos).ok());
        let mut effects = Vec::new();
        for bytes in sim.play(&pos, m.unwrap_or_else(|| panic!("legal")), false) {
            effects.extend(a.update(Msg::Board(LinkEvent::Bytes(bytes)), now));
        }
        assert!(
            effects.contains(&Effect::Tone(Tone::OpponentMove)),
            "{effects:?}"
        );
    }

    #[test]
    fn a_move_that_could_go_further_waits_for_the_settle_time() {
        let (mut a, mut sim, now) = with_board(Protocol::Millennium, false);
        // e2-e3: the pawn could still be on its way to e4.
        assert!(on_board(&mut a, &mut sim, "e3", now).is_empty());
        assert_eq!(a.next_deadline(), Some(now + SETTLE));
        assert!(tick(&mut a, now + SETTLE / 2).is_empty());
        assert_eq!(tick(&mut a, now + SETTLE), vec!["Bauer Eva drei"]);
        assert_eq!(a.next_deadline(), None);
    }

    #[test]
    fn a_typed_move_is_awaited_on_the_board_then_confirmed() {
        let (mut a, mut sim, now) = with_board(Protocol::Dgt, false);
        let t = line(&mut a, "e4");
        // The move, then what to do on the board: an instruction, no
        // mismatch.
        assert_eq!(
            t,
            vec![
                "Bauer Eva vier",
                "On your board: white Bauer from Eva zwei to Eva vier."
            ]
        );
        let pos = Chess::default();
        let m = "e4".parse::<San>().ok().and_then(|s| s.to_move(&pos).ok());
        let mut out = Vec::new();
        for bytes in sim.play(&pos, m.unwrap_or_else(|| panic!("legal")), false) {
            out.extend(said(&a.update(Msg::Board(LinkEvent::Bytes(bytes)), now)));
        }
        assert_eq!(out, vec!["Done: Bauer Eva vier."]);
        assert_eq!(line(&mut a, "board"), vec!["Board matches the game."]);
    }

    #[test]
    fn a_wrong_square_is_reported_on_request_and_when_fixed() {
        let (mut a, mut sim, now) = with_board(Protocol::Dgt, false);
        assert!(act(&mut a, &mut sim, HandStep::Lift(Square::H7), now).is_empty());
        assert!(tick(&mut a, now + SETTLE).len() == 1);
        let report =
            "Mismatch on one square: Hector sieben should have the black Bauer, it is empty.";
        assert_eq!(line(&mut a, "board"), vec![report]);
        let e = a.update(Msg::Line("board".into()), now);
        assert!(matches!(&e[..], [Effect::Say(u)] if u.kind == SayKind::Mismatch));
        let back = act(
            &mut a,
            &mut sim,
            HandStep::Place(Square::H7, Color::Black.pawn()),
            now,
        );
        assert_eq!(back, vec!["Board matches the game."]);
    }

    #[test]
    fn a_mismatch_is_urgent_with_its_tone() {
        let (mut a, mut sim, now) = with_board(Protocol::Dgt, false);
        act(&mut a, &mut sim, HandStep::Lift(Square::A7), now);
        let e = a.update(Msg::Deadline, now + SETTLE);
        assert!(
            matches!(&e[..], [Effect::Say(u), Effect::Tone(Tone::Mismatch)] if u.priority == Priority::Urgent && u.kind == SayKind::Mismatch),
            "{e:?}"
        );
    }

    #[test]
    fn an_illegal_move_on_the_board_is_said() {
        let (mut a, mut sim, now) = with_board(Protocol::Dgt, false);
        act(&mut a, &mut sim, HandStep::Lift(Square::G1), now);
        act(
            &mut a,
            &mut sim,
            HandStep::Place(Square::G3, Color::White.knight()),
            now,
        );
        let t = tick(&mut a, now + SETTLE);
        assert_eq!(
            t[0],
            "Illegal move on the board. Put the pieces back as they were."
        );
        assert!(t[1].starts_with("Mismatch on "), "{t:?}");
        assert!(a.game().history().is_empty());
    }

    #[test]
    fn the_board_taken_back_undoes_the_move() {
        let (mut a, mut sim, now) = with_board(Protocol::Dgt, false);
        on_board(&mut a, &mut sim, "Nf3", now);
        let t = act(&mut a, &mut sim, HandStep::Lift(Square::F3), now);
        assert!(t.is_empty(), "{t:?}");
        let t = act(
            &mut a,
            &mut sim,
            HandStep::Place(Square::G1, Color::White.knight()),
            now,
        );
        assert_eq!(t, vec!["Move taken back."]);
        assert!(a.game().history().is_empty());
        // And the game goes on from there.
        assert_eq!(
            on_board(&mut a, &mut sim, "e4", now),
            vec!["Bauer Eva vier"]
        );
    }

    /// Issue 30, item 1: with the opponent on the page, a move taken back
    /// on the board was "Move taken back." at once.  Now it is a request:
    /// the move stands and the board differs until the opponent answers;
    /// accepted, the move is taken back in the game; refused, the board is
    /// put right.
    #[test]
    fn a_move_taken_back_on_the_board_is_a_request_with_the_opponent_away() {
        use crate::companion::{CompanionEvent, OpponentAction, Pairing};
        use crate::msg::CompanionChoice;
        let (mut a, mut sim, now) = with_board(Protocol::Dgt, false);
        let _ = a.update(
            Msg::CompanionChosen(CompanionChoice::Ready {
                address: "http://192.0.2.1:8421/".into(),
                code: None,
            }),
            now,
        );
        let seat = Pairing {
            token_sha256: crate::companion::gate::token_sha256("0123456789abcdef0123456789abcdef"),
        };
        let _ = a.update(Msg::Companion(CompanionEvent::Paired(seat)), now);
        let answer = |a: &mut App, action: OpponentAction| {
            said(&a.update(Msg::Companion(CompanionEvent::Action(action)), now))
        };
        on_board(&mut a, &mut sim, "Nf3", now);
        act(&mut a, &mut sim, HandStep::Lift(Square::F3), now);
        let t = act(
            &mut a,
            &mut sim,
            HandStep::Place(Square::G1, Color::White.knight()),
            now,
        );
        assert_eq!(
            t.first().map(String::as_str),
            Some(
                "Take-back of Springer Felix drei asked of your opponent. The move stands until they accept."
            ),
            "{t:?}"
        );
        assert_eq!(a.game().history().len(), 1, "the move stands");
        assert_eq!(
            a.companion_snapshot().takeback_asked.as_deref(),
            Some("1. Nf3")
        );
        // Refused: the board differs from the game, to be put right.
        let t = answer(&mut a, OpponentAction::RefuseTakeback);
        assert_eq!(
            t[0],
            "Your opponent refuses the take-back. The move stands."
        );
        assert_eq!(a.game().history().len(), 1);
        let t = line(&mut a, "board");
        assert!(t[0].starts_with("Mismatch on "), "{t:?}");
        // Asked again (typed) and accepted: the board already shows it.
        line(&mut a, "takeback");
        let t = answer(&mut a, OpponentAction::AcceptTakeback);
        assert_eq!(
            t,
            [
                "Your opponent accepts the take-back.",
                "Taken back: Springer Felix drei."
            ]
        );
        assert!(a.game().history().is_empty());
        assert_eq!(line(&mut a, "board"), vec!["Board matches the game."]);
    }

    #[test]
    fn occupancy_promotion_asks_for_the_piece() {
        let (mut a, mut sim, now) = with_board(Protocol::Occupancy, false);
        let fen = "8/4P3/8/7k/8/8/P7/4K3 w - - 0 1";
        a.game = Game::from_fen(fen).unwrap_or_else(|_| panic!("valid"));
        let pos = a.game.position().clone();
        let notes = a
            .parts
            .boards
            .player_mut()
            .map(|b| b.game_replaced(&pos, None, now));
        assert!(notes.is_some());
        sim.set_board(pos.board().clone());
        let e = a.update(Msg::Board(LinkEvent::Bytes(sim.dump())), now);
        assert_eq!(said(&e), vec!["Board matches the game."]);
        let t = on_board(&mut a, &mut sim, "e8=Q", now);
        assert_eq!(
            t,
            vec!["Which piece does the pawn become? Say Dame, Turm, Läufer or Springer."]
        );
        assert_eq!(
            line(&mut a, "Springer"),
            vec!["Bauer Eva acht wird Springer"]
        );
    }

    #[test]
    fn touches_are_said_only_when_wanted() {
        let (mut a, mut sim, now) = with_board(Protocol::Dgt, true);
        let t = act(&mut a, &mut sim, HandStep::Lift(Square::G1), now);
        assert_eq!(t, vec!["Touched: Springer Gustav eins."]);
        let (mut b, mut sim, now) = with_board(Protocol::Dgt, false);
        assert!(act(&mut b, &mut sim, HandStep::Lift(Square::G1), now).is_empty());
    }

    #[test]
    fn a_pulled_cable_is_said_once_and_the_keyboard_plays_on() {
        let (mut a, sim, now) = with_board(Protocol::Dgt, false);
        let gone = || LinkEvent::Disconnected(crate::board::PortError::Gone);
        let e = a.update(Msg::Board(gone()), now);
        assert_eq!(
            said(&e),
            vec!["Board disconnected. Play on with the keyboard."]
        );
        let e = a.update(Msg::Board(gone()), now);
        assert!(said(&e).is_empty());
        assert_eq!(line(&mut a, "e4"), vec!["Bauer Eva vier"]);
        assert_eq!(
            line(&mut a, "board"),
            vec!["The board is not connected. Play on with the keyboard."]
        );
        let e = a.update(Msg::Board(LinkEvent::Connected), now);
        assert!(said(&e).is_empty());
        let e = a.update(Msg::Board(LinkEvent::Bytes(sim.dump())), now);
        assert_eq!(
            said(&e),
            vec![
                "Board connected again.",
                "On your board: white Bauer from Eva zwei to Eva vier."
            ]
        );
    }

    #[test]
    fn a_board_turned_round_is_said_and_read_that_way() {
        let mut a = app();
        a.attach_board(BoardSession::new(
            Protocol::Dgt,
            TrackerConfig::default(),
            a.game().position(),
            false,
        ));
        let now = Instant::now();
        let _ = a.update(Msg::Board(LinkEvent::Connected), now);
        let mut sim = SimBoard::new(Protocol::Dgt, Board::new())
            .with_orientation(crate::board::sensed::Orientation::Rotated);
        let e = a.update(Msg::Board(LinkEvent::Bytes(sim.dump())), now);
        assert_eq!(
            said(&e),
            vec![
                "Board connected.",
                "The board stands turned round; read that way from now on."
            ]
        );
        assert_eq!(
            on_board(&mut a, &mut sim, "Nf3", now),
            vec!["Springer Felix drei"]
        );
    }

    #[test]
    fn the_board_command_without_a_board() {
        let mut a = app();
        assert_eq!(line(&mut a, "board"), vec!["No board is connected."]);
        assert_eq!(a.next_deadline(), None);
        // Bytes for a board that is not there change nothing.
        let e = a.update(Msg::Board(LinkEvent::Bytes(vec![1, 2, 3])), Instant::now());
        assert!(e.is_empty());
    }

    #[test]
    fn a_new_game_on_the_board_is_asked_about() {
        let (mut a, mut sim, now) = with_board(Protocol::Millennium, false);
        on_board(&mut a, &mut sim, "Nf3", now);
        on_board(&mut a, &mut sim, "Nf6", now);
        let bytes = sim.set_board(Board::new());
        let e = a.update(Msg::Board(LinkEvent::Bytes(bytes)), now);
        assert_eq!(
            said(&e),
            vec!["The board shows the starting position. Say new to start a new game."]
        );
        assert_eq!(line(&mut a, "new"), vec!["New game. White to move."]);
        assert_eq!(
            on_board(&mut a, &mut sim, "d4", now),
            vec!["Bauer David vier"]
        );
    }
}

/// Issue 8: what a player hears must be calm, true and useful.
mod trust {
    use super::*;

    fn asking() -> App {
        App::builder().ask_before_leaving(true).build()
    }

    fn mate(a: &mut App) {
        for m in ["e4", "f6", "d4", "g5", "Qh5"] {
            line(a, m);
        }
    }

    #[test]
    fn game_over_is_a_state_for_the_prompt_turn_an_empty_line_and_a_move() {
        let mut a = app();
        mate(&mut a);
        let over = "Game over: White won by checkmate, one to zero. Say new for a new game.";
        assert_eq!(a.prompt(), over);
        assert_eq!(line(&mut a, "turn"), vec![over]);
        assert_eq!(line(&mut a, ""), vec![over]);
        assert_eq!(line(&mut a, "Nc6"), vec![over]);
        // Exploration works on the final position.
        assert_eq!(line(&mut a, "square h5"), vec!["Hector fünf: white Dame"]);
        let mut b = app();
        line(&mut b, "resign");
        assert_eq!(
            b.prompt(),
            "Game over: Black won, White resigned, zero to one. Say new for a new game."
        );
        let mut c = App::builder().lang(Lang::De).build();
        for m in ["e4", "e5", "Sf3"] {
            line(&mut c, m);
        }
        line(&mut c, "remis");
        line(&mut c, "annehmen");
        assert_eq!(
            c.prompt(),
            "Partie zu Ende: remis durch Vereinbarung, je ein halber Punkt. Sag neu für eine neue Partie."
        );
    }

    #[test]
    fn quit_and_new_in_mid_game_ask_first() {
        let mut a = asking();
        // No game in progress: nothing to lose, no question.
        let e = a.update(Msg::Line("new".into()), Instant::now());
        assert_eq!(said(&e), vec!["New game. White to move."]);
        line(&mut a, "e4");
        assert_eq!(
            line(&mut a, "quit"),
            vec!["A game is in progress. Say quit again to leave, or no to go on."]
        );
        assert_eq!(line(&mut a, "no"), vec!["The game goes on."]);
        assert!(!a.quitting);
        assert_eq!(a.game().history().len(), 1);
        line(&mut a, "new");
        // Any other line forgets the question and is read as usual.
        assert_eq!(line(&mut a, "e5"), vec!["Bauer Eva fünf"]);
        assert_eq!(a.game().history().len(), 2);
        line(&mut a, "new");
        assert_eq!(line(&mut a, "yes"), vec!["New game. White to move."]);
        line(&mut a, "d4");
        line(&mut a, "q");
        let e = a.update(Msg::Line("quit".into()), Instant::now());
        assert_eq!(said(&e), vec!["Goodbye."]);
        assert_eq!(e.last(), Some(&Effect::Quit));
    }

    /// Issue 18, item 9: `resign` ends the game for good, so it is
    /// asked like `new` and `quit` (in a terminal).
    #[test]
    fn resign_asks_first() {
        let mut a = asking();
        line(&mut a, "e4");
        assert_eq!(
            line(&mut a, "resign"),
            vec!["Resigning ends the game. Say resign again to resign, or no to go on."]
        );
        assert_eq!(line(&mut a, "no"), vec!["The game goes on."]);
        assert!(!a.game().is_over());
        line(&mut a, "resign");
        assert_eq!(
            line(&mut a, "yes"),
            vec!["Black resigns. White wins, one to zero."]
        );
        let mut b = asking();
        // Before the first move too; the same word again confirms.
        line(&mut b, "resign");
        assert_eq!(
            line(&mut b, "resign"),
            vec!["White resigns. Black wins, zero to one."]
        );
        assert!(b.game().is_over());
        // In German.
        let mut c = App::builder()
            .lang(Lang::De)
            .ask_before_leaving(true)
            .build();
        assert_eq!(
            line(&mut c, "aufgeben"),
            vec![
                "Aufgeben beendet die Partie. Sag noch einmal aufgeben, um aufzugeben, oder nein, um weiterzuspielen."
            ]
        );
    }

    /// Issue 18: a draw offer that lapsed (the opponent moved) was not
    /// said; the player who offered heard only the move.
    #[test]
    fn a_lapsed_draw_offer_is_said() {
        let mut a = app();
        line(&mut a, "e4");
        assert_eq!(line(&mut a, "draw"), vec!["White offers a draw."]);
        assert_eq!(
            line(&mut a, "e5"),
            vec![
                "Bauer Eva fünf",
                "White's draw offer lapses: the move declines it."
            ]
        );
        assert_eq!(a.game().pending_offer(), None);
        // An offer kept for the offerer's own move is made with it, and
        // a decline is said as a decline, not as a lapse.
        line(&mut a, "draw");
        assert_eq!(
            line(&mut a, "Nf3"),
            vec!["Springer Felix drei", "White offers a draw."]
        );
        assert_eq!(line(&mut a, "decline"), vec!["Black declines the draw."]);
        let mut b = App::builder().lang(Lang::It).build();
        line(&mut b, "e4");
        line(&mut b, "patta");
        assert_eq!(
            line(&mut b, "e5"),
            vec![
                "Bauer Eva fünf",
                "La proposta di patta del Bianco decade: la mossa la rifiuta."
            ]
        );
    }

    #[test]
    fn a_script_is_not_asked() {
        let mut a = app();
        line(&mut a, "e4");
        let e = a.update(Msg::Line("quit".into()), Instant::now());
        assert_eq!(e.last(), Some(&Effect::Quit));
    }

    #[test]
    fn a_signal_or_the_end_of_input_in_mid_game_says_goodbye() {
        let mut a = asking();
        line(&mut a, "e4");
        let e = a.update(Msg::EndOfInput, Instant::now());
        assert_eq!(said(&e), vec!["Goodbye."]);
        assert_eq!(e.last(), Some(&Effect::Quit));
        let mut b = app();
        let e = b.update(Msg::Interrupted, Instant::now());
        assert_eq!(said(&e), vec!["Goodbye."]);
        assert_eq!(e.last(), Some(&Effect::Quit));
    }

    #[test]
    fn bad_arguments_say_what_is_wrong() {
        let mut a = app();
        assert_eq!(
            line(&mut a, "rank 9"),
            vec!["There is no rank 9: say a rank from 1 to 8."]
        );
        assert_eq!(
            line(&mut a, "file z"),
            vec!["There is no file z: say a file from a to h."]
        );
        assert_eq!(line(&mut a, "rank"), vec!["rank 4: the pieces on a rank."]);
        assert_eq!(
            line(&mut a, "help rank"),
            vec!["rank 4: the pieces on a rank."]
        );
        assert_eq!(
            line(&mut a, "help frobnicate"),
            vec!["\"frobnicate\" is not a command. Say help for the list."]
        );
        let e = a.update(Msg::Line("rank 9".into()), Instant::now());
        assert_eq!(e.last(), Some(&Effect::Tone(Tone::Error)));
    }

    #[test]
    fn attackers_and_defenders_of_either_side() {
        let mut a = app();
        for m in ["e4", "d5"] {
            line(&mut a, m);
        }
        assert_eq!(
            line(&mut a, "attackers d5 white"),
            vec!["David fünf is attacked by Bauer Eva vier."]
        );
        assert_eq!(
            line(&mut a, "defenders d5 black"),
            vec!["David fünf is defended by Dame David acht."]
        );
        assert_eq!(
            line(&mut a, "attackers e4 black"),
            vec!["Eva vier is attacked by Bauer David fünf."]
        );
        assert_eq!(
            line(&mut a, "defenders e4 white"),
            vec!["Nothing defends Eva vier."]
        );
    }

    #[test]
    fn a_promotion_without_its_piece_asks_which() {
        let mut a = app();
        a.game = Game::from_fen("8/1P5k/8/8/8/8/7P/4K3 w - - 0 1").expect("valid");
        assert_eq!(
            line(&mut a, "b8"),
            vec!["Which piece does the pawn become? Say Dame, Turm, Läufer or Springer."]
        );
        assert_eq!(
            line(&mut a, "Springer"),
            vec!["Bauer Bella acht wird Springer"]
        );
        // A piece word with no question waiting says so.
        assert_eq!(
            line(&mut a, "Dame"),
            vec![
                "Dame alone is not a move: no question waits for a piece. \
                     Say the whole move, such as Dame Felix drei."
            ]
        );
    }

    #[test]
    fn a_move_of_the_side_not_to_move_names_it_and_whose_turn_it_is() {
        let mut a = app();
        assert_eq!(
            line(&mut a, "e5"),
            vec!["Bauer Eva fünf is Black's move, but it is White's turn."]
        );
    }

    #[test]
    fn typed_text_is_quoted_back_safely() {
        let mut a = app();
        let t = line(
            &mut a,
            "\u{1b}[31mred\u{1b}[0m words and more words to make it longer than forty",
        );
        assert_eq!(t.len(), 1);
        assert!(!t[0].contains('\u{1b}'), "{t:?}");
        assert!(t[0].starts_with("\"red words"), "{t:?}");
        assert!(t[0].contains('…'), "{t:?}");
    }

    #[test]
    fn an_offer_typed_by_the_player_to_move_is_made_with_their_move() {
        let mut a = app();
        line(&mut a, "e4");
        line(&mut a, "e5");
        assert_eq!(
            line(&mut a, "draw"),
            vec!["Your draw offer will be made with your next move."]
        );
        assert_eq!(a.game().pending_offer(), None);
        assert_eq!(
            line(&mut a, "Nf3"),
            vec!["Springer Felix drei", "White offers a draw."]
        );
        assert_eq!(a.game().pending_offer(), Some(Color::White));
        assert_eq!(a.prompt(), "Black to move, move 2; White offers a draw.");
        assert_eq!(
            line(&mut a, "turn"),
            vec!["Black to move, move 2; White offers a draw."]
        );
    }

    #[test]
    fn less_to_listen_to() {
        let mut a = app();
        assert_eq!(
            line(&mut a, "pieces white"),
            vec![
                "White, sixteen pieces: König Eva eins; Dame David eins; Türme Anna eins and Hector eins; \
                     Läufer Cesar eins and Felix eins; Springer Bella eins and Gustav eins; \
                     Bauern on all files of zwei."
            ]
        );
        line(&mut a, "e4");
        assert_eq!(line(&mut a, "last"), vec!["Last move: 1. Bauer Eva vier."]);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    /// Any line that is not a command word gets exactly one answer, in
    /// the start position and in the middle of a game.
    #[test]
    fn random_lines_get_exactly_one_answer(text in "\\PC{0,40}", moves in 0usize..6) {
        let mut a = app();
        for m in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"].iter().take(moves) {
            line(&mut a, m);
        }
        let first = text.split_whitespace().next().unwrap_or("");
        prop_assume!(a.talk.keymap.command(first).is_none());
        let answer = line(&mut a, &text);
        prop_assert_eq!(answer.len(), 1, "{:?} -> {:?}", text, answer);
    }
}

/// The one writer of the game (`change.rs`): a mating move is a move and
/// the end; a take-back of two moves is one change; an illegal move
/// changes nothing and queues nothing; the queue is given out once (a
/// second settle gives nothing again).
#[test]
fn the_game_changes_in_one_place_and_each_change_is_given_once() {
    use super::change::{Edit, GameChange};
    let mut a = app();
    for l in ["f3", "e5", "g4"] {
        line(&mut a, l);
    }
    let mate = shakmaty::san::San::from_ascii(b"Qh4")
        .unwrap()
        .to_move(a.game.position())
        .unwrap();
    let changes = a.change(Edit::Play(mate)).unwrap();
    assert!(
        matches!(
            changes[..],
            [
                GameChange::Moved {
                    by: Color::Black,
                    ..
                },
                GameChange::Ended(_)
            ]
        ),
        "{changes:?}"
    );
    assert_eq!(a.changes.len(), 2, "queued for the parts");
    let mut out = Vec::new();
    a.settle(Instant::now(), &mut out);
    assert!(a.changes.is_empty());
    assert!(
        a.clock().is_none() && out.is_empty(),
        "no part to speak: {out:?}"
    );
    let back = a.change(Edit::TakeBack(2)).unwrap();
    assert!(matches!(back[..], [GameChange::TakenBack(2)]), "{back:?}");
    assert_eq!(a.game.history().len(), 2);
    let illegal = a.change(Edit::Play(mate));
    assert!(illegal.is_err(), "Qh4 is not legal with White to move");
    assert_eq!(a.changes.len(), 1, "only the take-back is queued");
    a.settle(Instant::now(), &mut out);
    a.settle(Instant::now(), &mut out);
    assert!(a.changes.is_empty());
}
