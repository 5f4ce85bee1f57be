//! The command line's own words: `hector --help`, a colour option mixed
//! up, and the sentences of `say --move` and `resume` (issue 30, items 14
//! and 17).

use crate::util::{Run, clean_config_dir, hector, hector_in};

fn help(args: &[&str]) -> Run {
    let run = hector(args, "");
    assert!(run.success, "{}{}", run.stdout, run.stderr);
    run
}

/// Issue 30, item 14: `hector --help` was 184 lines (every option of a
/// game twice) with no example of how to begin.  It is short, with the
/// commands and examples of a clock game, a board, the engine and
/// lichess; every option of a game is `hector play --help`.
#[test]
fn the_help_is_short_and_shows_how_to_begin() {
    for flag in ["--help", "-h"] {
        let run = help(&[flag]);
        let lines = run.lines();
        assert!(lines.len() <= 40, "{} lines:\n{}", lines.len(), run.stdout);
        for example in [
            "hector play --time 90+30",
            "hector play --board auto",
            "hector play --engine --level 3",
            "hector lichess login",
            "hector play --lichess --challenge NAME",
            "hector play --help",
        ] {
            assert!(run.stdout.contains(example), "{example}:\n{}", run.stdout);
        }
        assert!(!run.stdout.contains("--settle-ms"), "{}", run.stdout);
    }
    let play = help(&["play", "--help"]);
    for option in ["--settle-ms", "--engine", "--time", "--colour", "--me"] {
        assert!(play.stdout.contains(option), "{option}: {}", play.stdout);
    }
}

/// Issue 27, items 5 and 6: `hector --help`'s examples were English for
/// every player.  They are in the player's language, known before clap
/// reads the line as the start-up knows it: `--lang`, else the settings
/// file's `language`, else English.  clap's own descriptions stay English.
#[test]
fn the_help_shows_how_to_begin_in_the_players_language() {
    let home = clean_config_dir();
    std::fs::create_dir_all(home.join("hector")).expect("settings folder");
    std::fs::write(
        home.join("hector").join("config.toml"),
        "[announce]\nlanguage = \"de\"\n",
    )
    .expect("settings written");
    let run = hector_in(&home, &["--help"], "");
    assert!(run.success, "{}", run.stderr);
    for line in [
        "So fängst du an:",
        "  hector                                   eine Partie an einer Tastatur, Züge getippt",
        "  hector play --time 90+30                 mit sprechender Uhr (90 Minuten, 30 s pro Zug)",
        "  hector play --engine --me black --time 10+5   die Engine spielt Weiß, mit Uhr",
        "  hector play --lichess --challenge NAME --time 10+5 --color black",
        "--color ist die Farbe, die du dir bei lichess wünschst.  Alle Optionen einer Partie: \
         hector play --help.",
    ] {
        assert!(run.lines().contains(&line), "{line}:\n{}", run.stdout);
    }
    assert!(!run.stdout.contains("How to begin"), "{}", run.stdout);
    // `--lang` comes before the settings file.
    let run = hector_in(&home, &["--lang", "it", "--help"], "");
    assert!(
        run.lines()
            .contains(&"  hector review games.pgn                  scorri le partite di un file"),
        "{}",
        run.stdout
    );
    let _ = std::fs::remove_dir_all(&home);
    // No settings: English.
    let run = help(&["--help"]);
    assert!(
        run.lines().contains(
            &"  hector                                   a game at one keyboard, moves typed"
        ),
        "{}",
        run.stdout
    );
}

/// Issue 30, item 14: `--colour black` got "error: unexpected argument
/// 'black' found"; the answer names the right option.
#[test]
fn a_colour_given_to_the_wrong_option_is_answered_with_the_right_one() {
    let run = hector(&["play", "--colour", "black"], "");
    assert!(!run.success);
    assert_eq!(
        run.stderr.trim(),
        "hector: --colour takes no colour: it says the colour before each move. Your colour is \
         --me black; the colour you ask of lichess is --color black.",
        "{}",
        run.stdout
    );
    let run = hector(&["--lang", "it", "--color", "white"], "");
    assert!(!run.success);
    assert!(
        run.stderr
            .contains("Il tuo colore in una partita qui è --me white."),
        "{}",
        run.stderr
    );
}

/// Issue 30, item 17: `hector say --move e8=Q` was refused without saying
/// that the move is read in the starting position.
#[test]
fn say_move_says_it_reads_the_starting_position() {
    let run = hector(&["say", "--move", "e8=Q"], "");
    assert!(!run.success);
    assert_eq!(
        run.stdout.trim(),
        "Eva acht wird Dame is not legal: nothing can reach Eva acht. hector say --move reads \
         a move in the starting position."
    );
}

/// Issue 30, item 17: `hector resume 5` said "Say hector games": a shell
/// command, not a word to say.
#[test]
fn resume_of_no_game_names_the_command_that_lists_them() {
    let run = hector(&["resume", "5"], "");
    assert!(
        run.stdout.contains(
            "There is no saved game \"5\". The command hector games lists the saved games."
        ),
        "{}",
        run.stdout
    );
}
