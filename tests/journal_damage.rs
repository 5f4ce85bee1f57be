//! A real journal (a game of four moves each with a clock: 17 records)
//! damaged the ways a disk, an editor or a power cut damage it, then
//! resumed through the real binary with yes and with no: the whole damaged
//! file is copied aside before anything is cut (no intact record lost from
//! disk), the player hears one sentence of what was restored and where
//! the file is kept, and the exported PGN is a prefix of the real game.
//! Also: exports never write over a journal, journals are private under
//! umask 022, and a journal that cannot be written is said at `quit`.

use std::path::{Path, PathBuf};

use crate::util::{QUIET, Run, clean_config_dir, hector_command_after, run_piped};

/// The real game.
const GAME: [&str; 8] = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"];

/// `hector ARGS` under umask 022 with its own config and data folders, in
/// `cwd`, `script` on its standard input.
fn hector(data: &Path, cwd: &Path, args: &[&str], script: &str) -> Run {
    let config = clean_config_dir();
    let mut cmd = hector_command_after("umask 022", &config, data);
    cmd.args(args).args(QUIET).current_dir(cwd);
    let run = run_piped(cmd, script.as_bytes());
    let _ = std::fs::remove_dir_all(&config);
    run
}

/// A folder removed at the end.
struct Dir(PathBuf);

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn dir() -> Dir {
    let d = clean_config_dir();
    std::fs::create_dir_all(&d).expect("folder");
    Dir(d)
}

fn games(data: &Path) -> PathBuf {
    data.join("hector").join("games")
}

/// The one journal in the games folder.
fn journal_of(data: &Path) -> PathBuf {
    let mut found: Vec<PathBuf> = std::fs::read_dir(games(data))
        .expect("games folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    found.remove(0)
}

/// Plays the real game with a clock: its journal's path and lines.
fn real_game(data: &Path) -> (PathBuf, Vec<String>) {
    let script: String = GAME.iter().map(|m| format!("{m}\n")).collect();
    let run = hector(
        data,
        data,
        &["play", "--time", "5+0", "--white", "Anna", "--black", "Bob"],
        &script,
    );
    assert!(run.success, "{}", run.stderr);
    let path = journal_of(data);
    let text = std::fs::read_to_string(&path).expect("journal");
    let lines: Vec<String> = text.split_inclusive('\n').map(String::from).collect();
    // A header, 16 records of moves and presses, and the clock as the game
    // was left (written on every orderly exit).
    assert_eq!(lines.len(), 19, "{text}");
    assert!(lines[18].contains(" clock reading "), "{text}");
    (path, lines)
}

/// The moves of a PGN file, in order.
fn pgn_moves(pgn: &str) -> Vec<String> {
    let mut movetext = String::new();
    let mut depth = 0;
    for line in pgn.lines().filter(|l| !l.starts_with('[')) {
        for c in line.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ if depth == 0 => movetext.push(c),
                _ => {}
            }
        }
        movetext.push(' ');
    }
    movetext
        .split_whitespace()
        .filter(|t| !t.ends_with('.') && !["*", "1-0", "0-1", "1/2-1/2"].contains(t))
        .map(|t| t.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.'))
        .filter(|t| !t.is_empty())
        .map(String::from)
        .collect()
}

/// What is left of the game after a damage, and what is heard.
struct Case {
    name: &'static str,
    /// The damaged file from the real journal's lines.
    damage: fn(&[String]) -> Vec<u8>,
    /// The sentence heard (its start up to the copy's path).
    sentence: &'static str,
    /// The moves restored.
    restored: usize,
    /// Records after the damage continue the game: asked whether to keep
    /// them (yes), and the moves then.
    continues: Option<usize>,
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "a garbage line",
            damage: |l| {
                let mut l = l.to_vec();
                l.insert(7, "this line is garbage\n".into());
                l.concat().into_bytes()
            },
            sentence: "The journal of the saved game is damaged: line 8 does not end with a \
                       checksum. It is restored up to 2. Springer Felix drei; lines 8 to {end} \
                       could not be used, and the whole file is kept in ",
            restored: 3,
            continues: Some(8),
        },
        Case {
            name: "a changed byte",
            damage: |l| {
                let mut b = l.concat().into_bytes();
                // In 3. Bb5 (line 11): its checksum fails.
                let at = l[..10].concat().len() + 30;
                b[at] ^= 0x01;
                b
            },
            sentence: "The journal of the saved game is damaged: line 11 does not match its \
                       checksum. It is restored up to 2... Springer Cesar sechs; lines 11 to {end} \
                       could not be used, and the whole file is kept in ",
            restored: 4,
            continues: None,
        },
        Case {
            name: "NUL bytes",
            damage: |l| {
                let mut b = l.concat().into_bytes();
                // In 3... a6 (line 13).
                let at = l[..12].concat().len() + 10;
                b[at..at + 12].fill(0);
                b
            },
            sentence: "The journal of the saved game is damaged: line 13 does not match its \
                       checksum. It is restored up to 3. Läufer Bella fünf; lines 13 to {end} could \
                       not be used, and the whole file is kept in ",
            restored: 5,
            continues: None,
        },
        Case {
            name: "a deleted record",
            damage: |l| {
                let mut l = l.to_vec();
                // sed -i '9d': 2... Nc6.
                l.remove(8);
                l.concat().into_bytes()
            },
            sentence: "The journal of the saved game is damaged: line 9 holds record 9 where \
                       record 8 belongs. It is restored up to 2. Springer Felix drei; lines 9 to \
                       {end} could not be used, and the whole file is kept in ",
            restored: 3,
            continues: None,
        },
        Case {
            name: "a torn last record",
            damage: |l| {
                let mut b = l.concat().into_bytes();
                b.truncate(b.len() - l[18].len() / 2);
                b
            },
            sentence: "The journal of the saved game is damaged: its last record, line {end}, was \
                       cut off as it was written. It is restored up to 4... Springer Felix sechs; \
                       line {end} could not be used, and the whole file is kept in ",
            restored: 8,
            continues: None,
        },
    ]
}

/// Every damage, resumed with yes and with no.
#[test]
fn each_damage_resumed_with_yes_and_no_keeps_every_intact_record() {
    let real = dir();
    let (real_path, lines) = real_game(&real.0);
    let name = real_path.file_name().expect("name").to_owned();
    for case in cases() {
        for answer in ["yes", "no"] {
            let what = format!("{} answered {answer}", case.name);
            let data = dir();
            std::fs::create_dir_all(games(&data.0)).expect("games");
            let path = games(&data.0).join(&name);
            let damaged = (case.damage)(&lines);
            std::fs::write(&path, &damaged).expect("damaged journal");
            // Yes to resume; yes again to keep what continues the game.
            let script = match (answer, case.continues) {
                ("yes", Some(_)) => "yes\nyes\n",
                ("yes", None) => "yes\n",
                _ => "no\n",
            };
            let run = hector(&data.0, &data.0, &["play"], script);
            assert!(run.success, "{what}: {}", run.stderr);
            let copy = PathBuf::from(format!("{}.damaged", path.display()));
            let heard = run.lines();
            // The damaged file's last line.
            let end = damaged
                .split(|b| *b == b'\n')
                .filter(|l| !l.is_empty())
                .count();
            let sentence = case.sentence.replace("{end}", &end.to_string());
            assert_eq!(
                heard[0],
                format!("{sentence}{}.", copy.display()),
                "{what}: said first, before the question"
            );
            assert!(
                heard[1].ends_with("Resume it? Yes or no."),
                "{what}: {heard:?}"
            );
            // The whole damaged file, byte for byte, beside the journal.
            assert_eq!(
                std::fs::read(&copy).expect("the copy"),
                damaged,
                "{what}: nothing lost from disk"
            );
            let kept = std::fs::read_to_string(&path).expect("journal");
            let parsed = hector::testing::parse_journal(kept.as_bytes());
            assert_eq!(
                parsed.warnings,
                vec![],
                "{what}: the journal is whole again"
            );
            let out = data.0.join("out.pgn");
            let export = hector(
                &data.0,
                &data.0,
                &["export", "1", "-o", out.to_str().expect("path")],
                "",
            );
            assert!(export.success, "{what}: {}", export.stdout);
            let moves = pgn_moves(&std::fs::read_to_string(&out).expect("pgn"));
            let want = match (answer, case.continues) {
                (_, Some(all)) => all,
                _ => case.restored,
            };
            assert_eq!(moves, GAME[..want], "{what}: a prefix of the real game");
            if answer == "yes" {
                let resumed = heard
                    .iter()
                    .find(|l| l.starts_with("Game resumed."))
                    .unwrap_or_else(|| panic!("{what}: {heard:?}"));
                let turn = if want % 2 == 0 { "White" } else { "Black" };
                assert!(resumed.contains(turn), "{what}: {resumed}");
            } else {
                assert!(
                    heard.contains(&"The unfinished game is kept."),
                    "{what}: {heard:?}"
                );
            }
            if case.continues.is_some() {
                let keep = if answer == "yes" {
                    "The records after the damage, lines 9 to 20, are kept in the game."
                } else {
                    "The records after the damage continue the game and are kept with it."
                };
                assert!(heard.contains(&keep), "{what}: {heard:?}");
            }
        }
    }
}

/// Records after the damage that continue the game, left out at the
/// player's word: the game goes on from before the damage, and the copy
/// keeps them.
#[test]
fn records_after_the_damage_can_be_left_out() {
    let real = dir();
    let (real_path, lines) = real_game(&real.0);
    let data = dir();
    std::fs::create_dir_all(games(&data.0)).expect("games");
    let path = games(&data.0).join(real_path.file_name().expect("name"));
    let mut l = lines.clone();
    l.insert(7, "garbage\n".into());
    std::fs::write(&path, l.concat()).expect("damaged");
    let run = hector(&data.0, &data.0, &["play"], "yes\nmaybe\nno\n");
    let heard = run.lines();
    let copy = format!("{}.damaged", path.display());
    assert_eq!(
        heard[2],
        "The records after the damage, lines 9 to 20, are intact and continue the game up to \
         4... Springer Felix sechs. Keep them in the game? Yes or no."
    );
    assert_eq!(
        heard[3],
        "Please answer yes or no: keep the records after the damage in the game?"
    );
    assert_eq!(
        heard[4],
        format!(
            "The records after the damage, lines 9 to 20, are left out of the game; the copy \
             in {copy} keeps them."
        )
    );
    assert_eq!(heard[5], "Game resumed. Black to move, move 2.");
    assert_eq!(std::fs::read(&copy).expect("copy"), l.concat().into_bytes());
    let parsed = hector::testing::parse_journal(&std::fs::read(&path).expect("journal"));
    assert_eq!(parsed.warnings, vec![]);
    // The usable part (6 records), then the resume.
    assert!(parsed.records.len() >= 7, "{parsed:?}");
    assert_eq!(
        parsed.records[..6],
        hector::testing::parse_journal(l.concat().as_bytes()).records[..]
    );
    assert_eq!(
        parsed.records[6].event,
        hector::testing::JournalEvent::Resumed
    );
}

/// A start record that cannot be read: listed by `hector games` as
/// damaged with its file, not offered, and left as it is.
#[test]
fn a_damaged_start_record_is_listed_never_hidden() {
    let real = dir();
    let (real_path, lines) = real_game(&real.0);
    let data = dir();
    std::fs::create_dir_all(games(&data.0)).expect("games");
    let path = games(&data.0).join(real_path.file_name().expect("name"));
    let mut l = lines.clone();
    l[1] = l[1].replacen("Anna", "Anne", 1);
    let damaged = l.concat();
    std::fs::write(&path, &damaged).expect("damaged");
    let id = path
        .file_stem()
        .expect("stem")
        .to_string_lossy()
        .into_owned();
    let run = hector(&data.0, &data.0, &["games"], "");
    assert_eq!(
        run.lines(),
        [format!(
            "1. {id}: damaged, it cannot be read. The file is {}.",
            path.display()
        )]
    );
    let run = hector(&data.0, &data.0, &["play"], "");
    assert_eq!(run.lines(), ["New game. White to move."]);
    let said = format!(
        "The saved game {id} is damaged: its start cannot be read, so it can be neither \
         resumed nor exported. The file is {}.",
        path.display()
    );
    for args in [&["resume", "1"][..], &["export", "1"][..]] {
        let run = hector(&data.0, &data.0, args, "");
        assert!(!run.success);
        assert_eq!(run.lines(), [said.as_str()], "{args:?}");
    }
    assert_eq!(std::fs::read_to_string(&path).expect("journal"), damaged);
}

/// `hector export` never writes over a journal, whatever `--force` says,
/// and its default names (here in the games folder itself) are never a
/// journal's.
#[test]
fn exports_never_write_over_a_journal() {
    let data = dir();
    let (path, lines) = real_game(&data.0);
    let folder = games(&data.0);
    let whole = lines.concat();
    for format in ["text", "pgn", "brf", "braille"] {
        let run = hector(
            &data.0,
            &folder,
            &["export", "1", "--format", format, "--force"],
            "",
        );
        assert!(run.success, "{format}: {}", run.stdout);
        assert_eq!(std::fs::read_to_string(&path).expect("journal"), whole);
    }
    let id = path
        .file_stem()
        .expect("stem")
        .to_string_lossy()
        .into_owned();
    assert!(folder.join(format!("{id}.text.txt")).exists());
    // An export there is no journal: written over with --force.
    let run = hector(
        &data.0,
        &folder,
        &["export", "1", "--format", "text", "--force"],
        "",
    );
    assert!(run.success, "{}", run.stdout);
    // Named with -o: refused, in the player's words.
    for target in [path.clone(), PathBuf::from(path.file_name().expect("name"))] {
        let run = hector(
            &data.0,
            &folder,
            &[
                "export",
                "1",
                "--format",
                "text",
                "--force",
                "-o",
                target.to_str().expect("path"),
            ],
            "",
        );
        assert!(!run.success);
        assert_eq!(
            run.lines(),
            [format!(
                "{} is the journal of a saved game, and hector never writes over it. Name \
                 another file.",
                target.display()
            )]
        );
        assert_eq!(std::fs::read_to_string(&path).expect("journal"), whole);
    }
    // A journal copied elsewhere is a journal too.
    let elsewhere = data.0.join("copy.txt");
    std::fs::write(&elsewhere, &whole).expect("copy");
    let run = hector(
        &data.0,
        &data.0,
        &[
            "export",
            "1",
            "--force",
            "-o",
            elsewhere.to_str().expect("path"),
        ],
        "",
    );
    assert!(!run.success);
    assert_eq!(std::fs::read_to_string(&elsewhere).expect("copy"), whole);
}

/// Under umask 022 the journal is 0600 and its folders 0700; so is a
/// damaged journal's copy.
#[cfg(unix)]
#[test]
fn journals_are_private_under_umask_022() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| std::fs::metadata(p).expect("mode").permissions().mode() & 0o777;
    let data = dir();
    let (path, lines) = real_game(&data.0);
    assert_eq!(mode(&path), 0o600);
    assert_eq!(mode(&games(&data.0)), 0o700);
    assert_eq!(mode(&data.0.join("hector")), 0o700);
    let mut l = lines.clone();
    l.insert(5, "garbage\n".into());
    std::fs::write(&path, l.concat()).expect("damaged");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    let run = hector(&data.0, &data.0, &["play"], "yes\nno\n");
    assert!(run.success);
    let copy = PathBuf::from(format!("{}.damaged", path.display()));
    assert_eq!(mode(&copy), 0o600);
    assert_eq!(mode(&path), 0o600, "the contained journal");
}

/// A journal that cannot be written: `quit` says the game is not saved
/// and offers `save FILE`, which saves the moves kept in memory.
#[test]
fn quit_with_an_unwritable_journal_offers_save_file() {
    let data = dir();
    std::fs::create_dir_all(data.0.join("hector")).expect("folder");
    // A file where the games folder should be: nothing can be written.
    std::fs::write(games(&data.0), b"not a folder").expect("blocker");
    let saved = data.0.join("kept.pgn");
    let script = format!("e4\ne5\nquit\nsave {}\nquit\n", saved.display());
    let run = hector(&data.0, &data.0, &["play", "--no-resume"], &script);
    assert!(run.success, "{}", run.stderr);
    let heard = run.lines();
    let at = heard
        .iter()
        .position(|l| l.starts_with("The game is not saved: its journal cannot be written."))
        .unwrap_or_else(|| panic!("{heard:?}"));
    assert!(heard[at].contains("save game.pgn"), "{}", heard[at]);
    assert_eq!(
        heard[at + 1],
        format!("Scoresheet saved: {}.", saved.display())
    );
    assert_eq!(heard.last(), Some(&"Goodbye."));
    let moves = pgn_moves(&std::fs::read_to_string(&saved).expect("saved"));
    assert_eq!(moves, ["e4", "e5"]);
}
