//! Online play on lichess, against a stand-in for its API on loopback
//! (tests/support/lichess.rs): the account (login, logout, a refused
//! token), and the token never shown, logged or written but where it is
//! kept.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::lichess_server::StandIn;
use crate::util::{Run, clean_config_dir};

const TOKEN: &str = "lip_standInSecret0123456789";

/// `hector ARGS` with `home` as HOME and XDG_CONFIG_HOME, its own
/// XDG_DATA_HOME, no LICHESS_TOKEN of the developer's (unless `env_token`).
fn run(home: &Path, args: &[&str], env_token: Option<&str>, input: &str) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hector"));
    cmd.args(args)
        .args(["--speech", "print", "--no-sound"])
        .env("XDG_CONFIG_HOME", home)
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env_remove("LICHESS_TOKEN")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(t) = env_token {
        cmd.env("LICHESS_TOKEN", t);
    }
    let mut child = cmd.spawn().expect("hector starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_owned();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("hector runs");
    writer.join().expect("writer");
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        success: out.status.success(),
    }
}

fn token_file(home: &Path) -> PathBuf {
    home.join("hector").join("lichess-token")
}

/// Every file under `dir` but the token's own, that contains `needle`.
fn files_with(dir: &Path, needle: &str, keep: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return found;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            found.extend(files_with(&p, needle, keep));
        } else if p != keep
            && std::fs::read(&p)
                .map(|b| String::from_utf8_lossy(&b).contains(needle))
                .unwrap_or(false)
        {
            found.push(p);
        }
    }
    found
}

#[test]
fn login_checks_the_token_says_the_name_keeps_it_and_logout_forgets_it() {
    let server = StandIn::start(TOKEN, "Georges");
    let home = clean_config_dir();
    let r = run(
        &home,
        &["lichess", "login", "--lichess-url", &server.url],
        None,
        &format!("{TOKEN}\n"),
    );
    assert!(r.success, "{} {}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("Logged in to lichess as Georges."),
        "{}",
        r.stdout
    );
    assert_eq!(server.state.lock().unwrap().log, ["GET /api/account"]);
    let kept = token_file(&home);
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), TOKEN);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&kept).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    // Never shown, nor written anywhere but its own file.
    assert!(!r.stdout.contains(TOKEN) && !r.stderr.contains(TOKEN));
    assert!(files_with(&home, TOKEN, &kept).is_empty());

    let r = run(&home, &["lichess", "logout"], None, "");
    assert!(r.success);
    assert!(r.stdout.contains("Logged out."), "{}", r.stdout);
    assert!(!kept.exists());
    let r = run(&home, &["lichess", "logout"], None, "");
    assert!(
        r.stdout.contains("No lichess token is kept"),
        "{}",
        r.stdout
    );
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_refused_token_is_said_with_how_to_make_a_new_one_in_every_language() {
    let server = StandIn::start(TOKEN, "Georges");
    let home = clean_config_dir();
    let wrong = "lip_wrongWrongWrong";
    for (lang, want) in [
        (
            "en",
            "lichess refused this token. Make a new one on lichess: Preferences, API access tokens, with the scope board:play.",
        ),
        ("de", "lichess hat dieses Token abgelehnt."),
        ("it", "lichess ha rifiutato questo token."),
        ("el", "Το lichess απέρριψε αυτό το token."),
    ] {
        let r = run(
            &home,
            &[
                "lichess",
                "login",
                "--lichess-url",
                &server.url,
                "--lang",
                lang,
            ],
            None,
            &format!("{wrong}\n"),
        );
        assert!(!r.success);
        assert!(r.stdout.contains(want), "{lang}: {}", r.stdout);
        assert!(!r.stdout.contains(wrong) && !r.stderr.contains(wrong));
    }
    assert!(!token_file(&home).exists(), "a refused token is not kept");
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn login_waits_when_lichess_asks_and_says_so() {
    let server = StandIn::start(TOKEN, "Georges");
    server.state.lock().unwrap().rate_limit = 1;
    let home = clean_config_dir();
    let r = run(
        &home,
        &["lichess", "login", "--lichess-url", &server.url],
        None,
        &format!("{TOKEN}\n"),
    );
    assert!(!r.success);
    assert!(
        r.stdout
            .contains("lichess asks us to wait. Try again in a minute."),
        "{}",
        r.stdout
    );
    assert!(!token_file(&home).exists());
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn no_token_typed_changes_nothing() {
    let home = clean_config_dir();
    // Nothing listens here: no request may be made anyway.
    let r = run(
        &home,
        &["lichess", "login", "--lichess-url", "http://127.0.0.1:9"],
        None,
        "\n",
    );
    assert!(!r.success);
    assert!(r.stdout.contains("No token was given."), "{}", r.stdout);
    let _ = std::fs::remove_dir_all(&home);
}
