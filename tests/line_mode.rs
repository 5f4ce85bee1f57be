//! Line mode through the real binary: start-up, the end of input, broken
//! settings files, help, and one answer line for every line typed.

use crate::util::{clean_config_dir, hector, hector_in};

#[test]
fn end_of_input_ends_the_session_cleanly() {
    let run = hector(&["play"], "");
    assert!(run.success, "stderr: {}", run.stderr);
    assert_eq!(run.lines(), vec!["New game. White to move."]);
    assert_eq!(run.stderr, "");
}

#[test]
fn no_subcommand_plays_too() {
    let run = hector(&[], "e4\n");
    assert!(run.success);
    assert_eq!(
        run.lines(),
        vec!["New game. White to move.", "Bauer Eva vier"]
    );
}

#[test]
fn quit_says_goodbye_and_ignores_the_rest() {
    let run = hector(&["play"], "quit\ne4\n");
    assert!(run.success);
    assert_eq!(run.lines(), vec!["New game. White to move.", "Goodbye."]);
}

#[test]
fn repeat_works_from_the_first_line() {
    let run = hector(&["play"], "repeat\n");
    assert!(run.success);
    assert_eq!(
        run.lines(),
        vec!["New game. White to move.", "New game. White to move."]
    );
}

#[test]
fn help_lists_the_commands_of_the_moment_one_per_line() {
    use hector::PlayerAction as A;
    // Neither a review, nor a clock, an engine, a board or the opponent's
    // screen: their commands are not listed.
    let absent = [
        A::Next,
        A::Previous,
        A::First,
        A::End,
        A::Goto,
        A::Games,
        A::Game,
        A::Find,
        A::Comment,
        A::Variations,
        A::Time,
        A::Press,
        A::Pause,
        A::Resume,
        A::Hint,
        A::Eval,
        A::Threat,
        A::Engine,
        A::Board,
        A::Release,
        // Nor a lichess game.
        A::Abort,
        A::Chat,
        A::Say,
        // Nor a tournament game.
        A::Confirm,
    ];
    let listed: Vec<A> = A::ALL
        .iter()
        .copied()
        .filter(|a| !a.key_only() && !absent.contains(a))
        .collect();
    let run = hector(&["play"], "help\n");
    let lines = run.lines();
    // The new-game line, the help introduction, then one line per command.
    assert_eq!(lines.len(), 2 + listed.len(), "{lines:#?}");
    for (line, command) in lines[2..].iter().zip(&listed) {
        assert!(
            line.starts_with(command.key()),
            "{line:?} should start with {:?}",
            command.key()
        );
    }
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("help") && l.contains("help time")),
        "{lines:#?}"
    );
    // With a clock, the clock's commands are listed too; a command not
    // listed still has its help.
    let run = hector(&["play", "--time", "5+3"], "help\nhelp next\n");
    let lines = run.lines();
    for word in ["time", "press", "pause", "resume"] {
        assert!(
            lines.iter().any(|l| l.starts_with(word)),
            "{word}: {lines:#?}"
        );
    }
    assert!(!lines.iter().any(|l| l.starts_with("hint")), "{lines:#?}");
    assert_eq!(lines.last(), Some(&"next: in review, the next move."));
}

#[test]
fn broken_setting_is_reported_with_file_line_and_key_and_the_rest_of_the_file_is_used() {
    let dir = clean_config_dir();
    std::fs::create_dir_all(dir.join("hector")).unwrap();
    let file = dir.join("hector").join("config.toml");
    std::fs::write(&file, "[announce]\nform = \"long\"\nlanguage = \"fr\"\n").unwrap();
    let run = hector_in(&dir, &["play"], "Nf3\n");
    assert!(run.success);
    let lines = run.lines();
    assert_eq!(lines.len(), 3, "{lines:#?}");
    assert!(
        lines[0].contains(&file.display().to_string()),
        "{}",
        lines[0]
    );
    assert!(lines[0].contains("line 3"), "{}", lines[0]);
    assert!(lines[0].contains("key announce.language"), "{}", lines[0]);
    assert!(
        lines[0].contains("one of \"en\", \"de\", \"it\" or \"el\", found \"fr\""),
        "{}",
        lines[0]
    );
    // Only the bad key is set aside: the long form is used, in English.
    assert_eq!(lines[1], "New game. White to move.");
    assert_eq!(lines[2], "Springer Gustav eins Felix drei");
}

#[test]
fn every_bad_setting_is_said_and_out_of_range_numbers_are_clamped() {
    let dir = clean_config_dir();
    std::fs::create_dir_all(dir.join("hector")).unwrap();
    let file = dir.join("hector").join("config.toml");
    std::fs::write(
        &file,
        "[announce]\nlanguage = \"DE\"\nmoves = 3\n[speech]\nrate = 1e308\nvolum = 1\nnot toml at all\n",
    )
    .unwrap();
    let run = hector_in(&dir, &["play"], "Nf3\n");
    let lines = run.lines();
    assert_eq!(lines.len(), 6, "{lines:#?}");
    assert!(lines[0].ends_with("Zeile 3, Schlüssel announce.moves: erwartet eines von \"appendix-d\" oder \"language\", gefunden 3. Es bleibt die Voreinstellung."), "{}", lines[0]);
    assert!(lines[1].ends_with("Zeile 5, Schlüssel speech.rate: erwartet eine Zahl von -1 bis 1, gefunden 1e308. Verwendet wird 1."), "{}", lines[1]);
    assert!(lines[2].ends_with("Zeile 6, Schlüssel speech.volum: diese Einstellung gibt es nicht; sie wird ausgelassen."), "{}", lines[2]);
    assert!(
        lines[3].ends_with("Zeile 7: diese Zeile ist keine Einstellung und wird ausgelassen."),
        "{}",
        lines[3]
    );
    assert_eq!(lines[4], "Neue Partie. Weiß am Zug.");
}

/// Issue 18, item 10: an unknown table threw the whole file away (the
/// game came in English, short form); a key given twice was "not a
/// setting".  Each mistake now costs only its own table or key, and says
/// its line.
#[test]
fn an_unknown_table_or_a_duplicate_costs_only_itself() {
    let dir = clean_config_dir();
    std::fs::create_dir_all(dir.join("hector")).unwrap();
    let file = dir.join("hector").join("config.toml");
    std::fs::write(
        &file,
        "[announce]\nlanguage = \"de\"\nform = \"long\"\n[bogus]\nx = 1\n\
         [announce]\nform = \"short\"\n[tones]\ncheck = false\ncheck = true\n",
    )
    .unwrap();
    let run = hector_in(&dir, &["play"], "Nf3\n");
    let _ = std::fs::remove_dir_all(&dir);
    let lines = run.lines();
    let f = file.display().to_string();
    assert_eq!(
        lines,
        [
            format!(
                "{f}, Zeile 4: den Abschnitt [bogus] gibt es nicht; er wird mit seinen Schlüsseln ausgelassen."
            )
            .as_str(),
            format!(
                "{f}, Zeile 6: der Abschnitt [announce] steht zum zweiten Mal da (zuerst in Zeile 1); er wird hier mit seinen Schlüsseln ausgelassen."
            )
            .as_str(),
            format!(
                "{f}, Zeile 10, Schlüssel tones.check: diese Einstellung steht zum zweiten Mal da (zuerst in Zeile 9); sie wird hier ausgelassen."
            )
            .as_str(),
            "Neue Partie. Weiß am Zug.",
            "Springer Gustav eins Felix drei",
        ],
        "{lines:#?}"
    );
}

#[test]
fn a_settings_file_named_on_the_command_line_must_exist() {
    let run = crate::util::hector(&["--config", "/nonexistent/hector.toml"], "");
    assert_eq!(
        run.lines()[0],
        "The settings file /nonexistent/hector.toml does not exist. Using the defaults."
    );
}

#[test]
fn settings_file_and_command_line_are_merged_over_the_defaults() {
    let dir = clean_config_dir();
    std::fs::create_dir_all(dir.join("hector")).unwrap();
    std::fs::write(
        dir.join("hector").join("config.toml"),
        "[announce]\nform = \"long\"\n",
    )
    .unwrap();
    let run = hector_in(&dir, &["play"], "Nf3\n");
    assert_eq!(run.lines()[1], "Springer Gustav eins Felix drei");
    let run = hector_in(&dir, &["play", "--form", "short", "--lang", "de"], "Nf3\n");
    assert_eq!(run.lines()[1], "Springer Felix drei");
}

#[test]
fn broken_voices_file_is_reported_and_the_builtin_words_are_used() {
    let dir = clean_config_dir();
    std::fs::create_dir_all(dir.join("hector")).unwrap();
    let voice = dir.join("my-words.toml");
    let text =
        include_str!("../voices/appendix-d.toml").replace("knight = \"Springer\"", "knight = 7");
    std::fs::write(&voice, &text).unwrap();
    std::fs::write(
        dir.join("hector").join("config.toml"),
        format!("[files]\nmoves_voice = {:?}\n", voice.display().to_string()),
    )
    .unwrap();
    let run = hector_in(&dir, &["play"], "Nf3\n");
    let lines = run.lines();
    let line_no = text
        .lines()
        .position(|l| l.starts_with("knight = 7"))
        .unwrap()
        + 1;
    assert!(lines[0].contains("my-words.toml"), "{}", lines[0]);
    assert!(
        lines[0].contains(&format!("line {line_no}")),
        "{}",
        lines[0]
    );
    assert!(lines[0].contains("knight"), "{}", lines[0]);
    assert_eq!(lines[2], "Springer Felix drei");
}

#[test]
fn a_users_own_words_are_spoken_and_understood() {
    let dir = clean_config_dir();
    std::fs::create_dir_all(dir.join("hector")).unwrap();
    let voice = dir.join("my-words.toml");
    let text = include_str!("../voices/appendix-d.toml").replace("\"Springer\"", "\"Pferd\"");
    std::fs::write(&voice, &text).unwrap();
    std::fs::write(
        dir.join("hector").join("config.toml"),
        format!("[files]\nmoves_voice = {:?}\n", voice.display().to_string()),
    )
    .unwrap();
    let run = hector_in(&dir, &["play"], "Pferd Felix drei\n");
    assert_eq!(
        run.lines(),
        vec!["New game. White to move.", "Pferd Felix drei"]
    );
}

/// A small deterministic generator, so a failure can be replayed.
struct XorShift(u64);
impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

#[test]
fn random_lines_never_crash_and_each_gets_exactly_one_answer_line() {
    let pieces = [
        "Springer", "Felix", "drei", "x", "=", "Q", "e", "4", "O-O", "0-0-0", "ä", "ß", "🙂",
        "schlägt", "wird", "Dame", "takes", "z9", "\u{0}", "\t", "b", "R", "-", "#", "+", "!!",
        "Läufer", "prende", "Re2", "cavallo", "%", "\u{202e}", "9", "a1a1", "e7e8", "\\",
    ];
    let mut rng = XorShift(0x5eed_1234_abcd_ef01);
    let mut lines = Vec::new();
    while lines.len() < 400 {
        let n = 1 + rng.next() % 5;
        let words: Vec<&str> = (0..n).map(|_| rng.pick(&pieces)).collect();
        let sep = if rng.next().is_multiple_of(2) {
            " "
        } else {
            ""
        };
        let line = words.join(sep);
        // Commands and blank lines are not random input; keymap words are
        // excluded so that "help" cannot list 22 lines.
        let first = line.split_whitespace().next().unwrap_or("");
        if first.is_empty() || hector::Keymap::builtin().command(first).is_some() {
            continue;
        }
        lines.push(line);
    }
    let script: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let run = hector(&["play"], &script);
    assert!(run.success, "stderr: {}", run.stderr);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    let out = run.lines();
    // The new-game line, then one line per input line.  A random line that
    // happens to be a legal move that ends the game would add a result
    // line; the fixed seed gives none, and the count would show it.
    assert_eq!(
        out.len(),
        1 + lines.len(),
        "input: {lines:#?}\noutput: {out:#?}"
    );
}

#[test]
fn the_prompt_says_whose_move_and_the_move_number() {
    let run = hector(&["play", "--prompt", "always"], "e4\ne5\n");
    assert_eq!(
        run.stdout,
        "New game. White to move.\n\
         White to move, move 1. > Bauer Eva vier\n\
         Black to move, move 1. > Bauer Eva fünf\n\
         White to move, move 2. > "
    );
}
