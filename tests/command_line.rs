//! The command line's own words: `hector --help`, a colour option mixed
//! up, and the sentences of `say --move` and `resume` (issue 30, items 14
//! and 17).

use crate::util::{Run, hector};

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
