//! The games folder as issue 31 found it: two copies of hector on one game
//! overwrote each other's moves; one byte that is not UTF-8 in a comment
//! made a game unreadable; a folder, a file of mode 0000, a link to
//! `/dev/zero` or a journal cut inside its start were hidden by `hector
//! games`, and a FIFO named like a journal hung it.  Each case through the
//! real binary.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use hector::App;
use shakmaty::san::San;
use shakmaty::{Chess, Position};

use crate::util::{Hector, Run, clean_config_dir};

const WAIT: Duration = Duration::from_secs(8);

/// A folder removed at the end.
struct Home(PathBuf);

impl Drop for Home {
    fn drop(&mut self) {
        // A folder of mode 0000 inside is made removable first.
        let _ = Command::new("chmod")
            .args(["-R", "u+rwx"])
            .arg(&self.0)
            .status();
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn games(home: &Path) -> PathBuf {
    home.join("data").join("hector").join("games")
}

/// `hector ARGS` in `home` (its config and `home/data` its data), `script`
/// on its input, ended after `WAIT` if it has not ended by itself (a hang
/// fails the test instead of hanging it).
fn hector(home: &Path, args: &[&str], script: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hector"))
        .args(args)
        .args(["--speech", "print", "--no-sound"])
        .env("XDG_CONFIG_HOME", home)
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("HECTOR_TOKEN_STORE", "file")
        .current_dir(home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("hector starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let script = script.to_owned();
    std::thread::spawn(move || {
        let _ = stdin.write_all(script.as_bytes());
    });
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let out = match rx.recv_timeout(WAIT) {
        Ok(out) => out.expect("hector runs"),
        Err(_) => {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            panic!("hector {args:?} hung");
        }
    };
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        success: out.status.success(),
    }
}

/// A game of `moves` played and left unfinished in `home`: its journal.
fn left_game(home: &Path, moves: &[&str]) -> PathBuf {
    let script: String = moves.iter().map(|m| format!("{m}\n")).collect();
    let run = hector(home, &["play", "--no-resume"], &format!("{script}quit\n"));
    assert!(run.success, "{}", run.stdout);
    newest_journal(home)
}

fn newest_journal(home: &Path) -> PathBuf {
    let mut found: Vec<PathBuf> = std::fs::read_dir(games(home))
        .expect("games folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    found.sort();
    found.pop().expect("a journal")
}

fn id_of(path: &Path) -> String {
    path.file_stem()
        .expect("a name")
        .to_string_lossy()
        .into_owned()
}

/// The sentence hector says for `san` played in `pos`.
fn said(pos: &mut Chess, san: &str) -> String {
    let m = san
        .parse::<San>()
        .expect("SAN")
        .to_move(pos)
        .expect("legal");
    let s = App::builder().build().phraser().say_move(pos, m);
    pos.play_unchecked(m);
    s
}

/// Issue 31.2: two processes resuming one journal each appended at their
/// own offset, and moves were lost.  Now the second hector says the game
/// is open in another window and writes nothing to it: it may leave, or
/// watch the moves said as they land, until the other window closes the
/// game; then the game resumes there as usual, every move in its journal.
#[test]
fn a_second_hector_on_an_open_game_leaves_it_or_watches_it() {
    let home = Home(clean_config_dir());
    let journal = left_game(&home.0, &["e4"]);
    let id = id_of(&journal);
    let mut pos = Chess::default();
    said(&mut pos, "e4");

    // The first window resumes the game.
    let mut first = Hector::play_in(&home.0, &["--resume"]).waiting(WAIT);
    first.until("the game resumed", |l| l.starts_with("Game resumed."));
    let open = format!(
        "The game {id} is open in another hector window, and nothing is written to it here. \
         Watch it here? Yes or no."
    );

    // A second leaves it.
    let before = std::fs::read(&journal).expect("journal");
    let run = hector(&home.0, &["play", "--resume"], "no\n");
    assert_eq!(
        run.lines(),
        [open.as_str(), "The game is left to the other window."]
    );
    assert!(!run.success);
    let run = hector(&home.0, &["resume", &id], "maybe\n");
    assert_eq!(
        run.lines(),
        [
            open.as_str(),
            "Please answer yes or no: watch the game here?",
            "The game is left to the other window.",
        ],
        "the input ended"
    );
    // A plain `play` begins a game of its own.
    let run = hector(&home.0, &["play"], "quit\n");
    assert_eq!(
        run.lines()[..2],
        [
            format!(
                "The unfinished game {id} is open in another hector window; it is not resumed here."
            ),
            "New game. White to move.".to_owned(),
        ]
    );
    assert_eq!(std::fs::read(&journal).expect("journal"), before);

    // A third watches it.
    let mut watcher = Hector::play_in(&home.0, &["--resume"]).waiting(WAIT);
    watcher.expect(&open);
    watcher.type_line("yes");
    watcher.expect(&format!("Watching the game {id}, one move played."));
    watcher.expect(&format!(
        "The last move was {}.",
        said(&mut Chess::default(), "e4")
    ));
    watcher.expect(
        "Each move is said as it is played in the other window. Type quit to stop watching.",
    );
    for san in ["e5", "Nf3"] {
        let want = said(&mut pos, san);
        let t0 = Instant::now();
        first.type_line(san);
        first.skip_to(&want, WAIT);
        watcher.expect(&want);
        assert!(t0.elapsed() < Duration::from_secs(2), "{:?}", t0.elapsed());
    }
    first.type_line("quit");
    first.skip_to("Goodbye.", WAIT);
    watcher.expect("The other window has closed the game.");
    let _ = watcher.close();

    // Every move is in the journal once, in sequence; it resumes here now.
    let text = std::fs::read(&journal).expect("journal");
    let parsed = hector::testing::parse_journal(&text);
    assert!(parsed.warnings.is_empty(), "{:?}", parsed.warnings);
    let moves: Vec<String> = parsed
        .records
        .iter()
        .filter_map(|r| match &r.event {
            hector::testing::JournalEvent::Move { san, .. } => Some(san.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(moves, ["e4", "e5", "Nf3"]);
    let mut again = Hector::play_in(&home.0, &["--resume"]).waiting(WAIT);
    again.until("the game resumed", |l| l.starts_with("Game resumed."));
    again.type_line("quit");
    again.skip_to("Goodbye.", WAIT);
}

/// Issue 31.3: one byte that is not UTF-8 in the first line's comment
/// (records and checksums intact) made the game unreadable: listed as
/// damaged, not exported, and `--resume` began a new game without a word.
#[test]
fn a_comment_that_is_not_utf8_costs_no_record() {
    let home = Home(clean_config_dir());
    let journal = left_game(&home.0, &["e4", "e5"]);
    let id = id_of(&journal);
    let mut bytes = std::fs::read(&journal).expect("journal");
    assert_eq!(bytes[0], b'#');
    bytes[2] = 0xff;
    std::fs::write(&journal, &bytes).expect("written");
    let run = hector(&home.0, &["games"], "");
    assert_eq!(run.lines().len(), 1, "{}", run.stdout);
    assert!(
        run.lines()[0].starts_with(&format!("1. {id}, ")) && run.lines()[0].contains("one move"),
        "{}",
        run.stdout
    );
    let run = hector(&home.0, &["export", &id, "--format", "pgn", "-o", "-"], "");
    assert!(run.success, "{}", run.stdout);
    assert!(run.stdout.contains("1. e4 e5"), "{}", run.stdout);
    let run = hector(&home.0, &["play", "--resume"], "quit\n");
    assert!(
        run.lines().iter().any(|l| l.starts_with("Game resumed.")),
        "{}",
        run.stdout
    );
    assert!(
        std::fs::read(&journal)
            .expect("journal")
            .starts_with(&bytes)
    );
}

/// Issue 31.3: every file in the games folder is listed with why it is
/// not a game; special files are refused without being opened for reading
/// (a FIFO hung `games`, `play` and `resume` for good); `--resume` says
/// what it could not resume.
#[test]
fn every_file_in_the_games_folder_is_listed_and_special_files_are_refused_unread() {
    let home = Home(clean_config_dir());
    let good = left_game(&home.0, &["e4"]);
    let dir = games(&home.0);
    let name = |n: u32| format!("2099010{n}-120000.txt");
    // A folder, a link to /dev/zero, a FIFO, a file of mode 0000, a journal
    // cut inside its start record, one of comments only, a note.
    std::fs::create_dir(dir.join(name(1))).expect("folder");
    std::os::unix::fs::symlink("/dev/zero", dir.join(name(2))).expect("link");
    let fifo = dir.join(name(3));
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    let text = std::fs::read_to_string(&good).expect("journal");
    let start_at = text.find('\n').expect("a header") + 1;
    let start_len = text[start_at..].find('\n').expect("a start record");
    let locked = dir.join(name(4));
    std::fs::write(&locked, &text).expect("copy");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).expect("chmod");
    // Root reads a file of mode 0000 (CI runs as root): then it is a game.
    let root = std::fs::read(&locked).is_ok();
    std::fs::write(dir.join(name(5)), &text[..start_at + start_len / 2]).expect("cut");
    std::fs::write(dir.join(name(6)), &text[..start_at]).expect("comments only");
    std::fs::write(dir.join("notes.pgn"), "my notes").expect("notes");

    let t0 = Instant::now();
    let run = hector(&home.0, &["games"], "");
    assert!(t0.elapsed() < WAIT, "no hang");
    let path = |n: u32| dir.join(name(n)).display().to_string();
    let id = |n: u32| name(n).trim_end_matches(".txt").to_owned();
    let lines = run.lines();
    assert!(
        lines[0].starts_with(&format!("1. {}, ", id_of(&good))),
        "{lines:?}"
    );
    let mut want = Vec::new();
    if root {
        assert!(
            lines[1].starts_with(&format!("2. {}, ", id(4))),
            "{lines:?}"
        );
    }
    let n = if root { 3 } else { 2 };
    want.push(format!(
        "{n}. {}: damaged, it cannot be read. The file is {}.",
        id(5),
        path(5)
    ));
    want.push(format!(
        "{}: not a game, a folder. The file is {}.",
        name(1),
        path(1)
    ));
    want.push(format!(
        "{}: not a game, a link to another file, not opened. The file is {}.",
        name(2),
        path(2)
    ));
    want.push(format!(
        "{}: not a game, a special file such as a pipe, not opened. The file is {}.",
        name(3),
        path(3)
    ));
    if !root {
        want.push(format!(
            "{}: not a game, its permissions do not let hector read it. The file is {}.",
            name(4),
            path(4)
        ));
    }
    want.push(format!(
        "{}: not a game, it holds no game, its start was never written. The file is {}.",
        name(6),
        path(6)
    ));
    want.push(format!(
        "notes.pgn: not a game, its name is not a saved game's. The file is {}.",
        dir.join("notes.pgn").display()
    ));
    let skip = if root { 2 } else { 1 };
    assert_eq!(lines[skip..], want[..], "{}", run.stdout);

    // `--resume` says what it could not resume (the newest), then a new
    // game begins; `resume` of each special file says why, unread.  (The
    // file of mode 0000 is a game root can read, and the good game would
    // be resumed: both taken away.)
    std::fs::remove_file(&locked).expect("removed");
    std::fs::remove_file(&good).expect("removed");
    let run = hector(&home.0, &["play", "--resume"], "quit\n");
    assert_eq!(
        run.lines()[..2],
        [
            format!(
                "The saved game {} cannot be resumed: it holds no game, its start was never \
                 written. The file is {}.",
                id(6),
                path(6)
            ),
            "New game. White to move.".to_owned(),
        ],
        "{}",
        run.stdout
    );
    for (n, why) in [
        (1, "a folder"),
        (2, "a link to another file, not opened"),
        (3, "a special file such as a pipe, not opened"),
    ] {
        let run = hector(&home.0, &["resume", &id(n)], "");
        assert!(!run.success);
        assert_eq!(
            run.lines(),
            [format!(
                "The saved game {} cannot be resumed: {why}. The file is {}.",
                id(n),
                path(n)
            )],
            "{}",
            run.stdout
        );
    }
}
