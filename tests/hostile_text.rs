//! Text from outside (issue 31.4): escape sequences in a PGN file's tags
//! and comments, an engine's name and lines, a settings file's names and
//! what the opponent's page sends reached the terminal raw (a new window
//! title, a cleared screen, hidden text: `^[]0;…^G^[[2J^[[8m`), and were
//! journalled.  Each source through the real binary: nothing hector
//! prints, journals or answers holds an escape or another control
//! character.  (A lichess name and chat line: `lichess::a_hostile_name_and_chat_line_are_said_clean`.)
//! Also issue 31.6: one byte that is not UTF-8 in the settings file or a
//! key map costs its own line, said with file, line and key.

use std::path::{Path, PathBuf};

use crate::util::{Run, clean_config_dir, hector_at};

/// The sequences issue 31 sent: a window title, a cleared screen, hidden
/// text.
const HOSTILE: &str = "\u{1b}]0;pwned\u{7}\u{1b}[2J\u{1b}[8m";

/// A folder removed at the end.
struct Home(PathBuf);

impl Drop for Home {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn home() -> Home {
    Home(clean_config_dir())
}

/// `hector ARGS` in `home` (config, `home/data` for the games, `home` the
/// working folder).
fn run(home: &Path, args: &[&str], script: &str) -> Run {
    hector_at(home, &home.join("data"), home, args, script)
}

/// No escape or other control character in what was printed.
fn clean(what: &str, out: &str) {
    let bad: Vec<(usize, &str)> = out
        .lines()
        .enumerate()
        .filter(|(_, l)| l.chars().any(|c| c.is_control() && c != '\t'))
        .collect();
    assert!(bad.is_empty(), "{what}: control characters in {bad:?}");
}

/// Every file under the games folder, as text: no control character but
/// line feeds.
fn journals_clean(home: &Path) {
    let dir = home.join("data").join("hector").join("games");
    for e in std::fs::read_dir(&dir).expect("games").flatten() {
        let bytes = std::fs::read(e.path()).expect("journal");
        assert!(
            !bytes.iter().any(|&b| b == 0x1b || b == 0x07),
            "{:?}: {}",
            e.path(),
            String::from_utf8_lossy(&bytes)
        );
    }
}

#[test]
fn pgn_tags_and_comments_are_said_shown_and_journalled_clean() {
    let home = home();
    let file = home.0.join("hostile.pgn");
    let pgn = format!(
        "[Event \"Club{HOSTILE}\"]\n[White \"Anna{HOSTILE}\"]\n[Black \"\u{202e}Bob\"]\n\
         [Result \"*\"]\n\n1. e4 {{ look {HOSTILE}here }} e5 *\n"
    );
    std::fs::write(&file, pgn).expect("pgn");
    let f = file.to_str().expect("path");
    let r = run(&home.0, &["review", f], "next\ncomment\n");
    clean("review", &r.stdout);
    let lines = r.lines();
    assert!(
        lines[0].starts_with("Game 1: Anna against Bob"),
        "{}",
        r.stdout
    );
    assert!(
        lines.iter().any(|l| l.ends_with(": look here")),
        "{}",
        r.stdout
    );
    // A game set up from it: journalled and listed clean.
    let r = run(&home.0, &["play", "--pgn", f], "Nf3\nquit\n");
    clean("play --pgn", &r.stdout);
    journals_clean(&home.0);
    let r = run(&home.0, &["games"], "");
    clean("games", &r.stdout);
    assert!(r.stdout.contains("Anna against Bob"), "{}", r.stdout);
}

#[cfg(unix)] // Unix only: a sh script engine
#[test]
fn an_engines_name_and_lines_are_said_clean() {
    let home = home();
    let engine = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/hostile.sh");
    let r = run(
        &home.0,
        &["play", "--engine", engine.to_str().expect("path")],
        "d4\n",
    );
    clean("engine", &r.stdout);
    let lines = r.lines();
    assert!(
        lines.contains(&"EvilFish is ready; you play White."),
        "{}",
        r.stdout
    );
    assert!(
        lines
            .iter()
            .any(|l| l
                .starts_with("The engine sends lines that are not chess engine talk: noise 19.")),
        "{}",
        r.stdout
    );
}

#[test]
fn names_from_the_settings_file_are_said_and_journalled_clean() {
    let home = home();
    std::fs::create_dir_all(home.0.join("hector")).expect("config");
    std::fs::write(
        home.0.join("hector/config.toml"),
        "[players]\nwhite = \"Anna\\u001b]0;pwned\\u0007\\u001b[2J\"\nblack = \"\\u202eBob\\u001b[8m\"\n",
    )
    .expect("settings");
    let r = run(&home.0, &["play"], "e4\nquit\n");
    clean("play", &r.stdout);
    journals_clean(&home.0);
    let r = run(&home.0, &["games"], "");
    clean("games", &r.stdout);
    assert!(r.stdout.contains(": Anna against Bob, "), "{}", r.stdout);
}

#[cfg(unix)] // Unix only: the companion's tests run on Linux
#[test]
fn what_the_page_sends_comes_back_clean() {
    use std::io::{Read, Write};
    let mut h = crate::util::Hector::play(&["--companion", "127.0.0.1:0"]);
    let first = h.next();
    let port: u16 = first
        .split("http://127.0.0.1:")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("{first}"));
    let body = r#"{"from":"\u001b]0;x\u0007e2","to":"\u202ee4"}"#;
    let raw = format!(
        "POST /api/move HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connects");
    s.set_read_timeout(Some(std::time::Duration::from_secs(5)))
        .expect("timeout");
    s.write_all(raw.as_bytes()).expect("sent");
    let mut answer = String::new();
    let _ = s.read_to_string(&mut answer);
    let json = answer.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or("");
    let v: serde_json::Value = serde_json::from_str(json).unwrap_or_else(|_| panic!("{answer}"));
    let message = v["message"].as_str().expect("a message");
    assert!(
        !message.chars().any(|c| c.is_control() || c == '\u{202e}'),
        "{message:?}"
    );
    assert!(message.contains("is not a square"), "{message}");
    h.type_line("quit");
    h.skip_to("Goodbye.", std::time::Duration::from_secs(6));
}

/// Issue 31.6: one byte that is not UTF-8 anywhere in the settings file
/// (even a comment) dropped the whole file, the German language with it.
#[test]
fn a_settings_line_that_is_not_utf8_costs_that_line_only() {
    let home = home();
    std::fs::create_dir_all(home.0.join("hector")).expect("config");
    let file = home.0.join("hector").join("config.toml");
    std::fs::write(
        &file,
        b"# Einstellungen f\xfcr hector\n[announce]\nlanguage = \"de\"\nform = \"l\xf6ng\"\nmoves = \"language\"\n",
    )
    .expect("settings");
    let r = run(&home.0, &["play"], "Nf3\n");
    let f = file.display().to_string();
    assert_eq!(
        r.lines(),
        [
            format!(
                "{f}, Zeile 4, Schlüssel announce.form: diese Zeile enthält ein Byte, das kein \
                 Text ist (kein UTF-8), deshalb wird sie ausgelassen."
            )
            .as_str(),
            "Neue Partie. Weiß am Zug.",
            "Springer f3",
        ],
        "{}",
        r.stdout
    );
}

/// Issue 31.6: in a key map it dropped the key map, with Rust's "stream
/// did not contain valid UTF-8" in a German sentence.  Now the damaged
/// line costs that command its own words (it keeps the built-in ones); the
/// rest of the player's key map is used.
#[test]
fn a_key_map_line_that_is_not_utf8_costs_that_key_only() {
    let home = home();
    std::fs::create_dir_all(home.0.join("hector")).expect("config");
    let keys = home.0.join("hector").join("keys.toml");
    let builtin =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("keymaps/line.toml"))
            .expect("the built-in key map");
    // The player's own word for `material`, a comment that is not UTF-8,
    // and a damaged line for `turn`.
    let mut lines: Vec<Vec<u8>> = builtin.lines().map(|l| l.as_bytes().to_vec()).collect();
    let at = |lines: &Vec<Vec<u8>>, start: &str| {
        lines
            .iter()
            .position(|l| l.starts_with(start.as_bytes()))
            .expect(start)
    };
    let m = at(&lines, "material ");
    lines[m] = b"material = [\"material\", \"mat\", \"stand\"]".to_vec();
    let c = at(&lines, "[commands]");
    lines.insert(c + 1, b"# Tasten f\xfcr mich".to_vec());
    let t = at(&lines, "turn ");
    lines[t] = b"turn      = [\"turn\", \"wh\xf6se\", \"w\"]".to_vec();
    std::fs::write(&keys, lines.join(&b'\n')).expect("keys");
    std::fs::write(
        home.0.join("hector/config.toml"),
        // A literal string: a Windows path's backslashes stay as they are.
        format!(
            "[announce]\nlanguage = \"de\"\n[files]\nline_keymap = '{}'\n",
            keys.display()
        ),
    )
    .expect("settings");
    let r = run(&home.0, &["play"], "stand\nturn\n");
    let k = keys.display().to_string();
    assert!(!r.stdout.contains("stream did not contain"), "{}", r.stdout);
    let lines = r.lines();
    assert_eq!(
        lines[0],
        format!(
            "{k}, Zeile {}, Schlüssel commands.turn: diese Zeile enthält ein Byte, das kein \
             Text ist (kein UTF-8), deshalb wird sie ausgelassen.",
            t + 1
        ),
        "{}",
        r.stdout
    );
    assert_eq!(lines[1], "Neue Partie. Weiß am Zug.");
    // The player's word `stand` is used, and `turn` keeps its built-in
    // words: the same sentences as the built-in key map's words give.
    let other = self::home();
    let builtin_run = run(&other.0, &["play", "--lang", "de"], "material\nturn\n");
    let want = builtin_run.lines();
    assert_eq!(want[0], "Neue Partie. Weiß am Zug.");
    assert_eq!(lines[2..], want[1..], "{}", r.stdout);
}
