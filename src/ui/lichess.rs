//! `hector lichess login` and `hector lichess logout`: the player's
//! personal API token, read without echo, checked with lichess (its
//! scopes by `POST /api/token/test`: without `board:play` it is refused
//! and the scope named; the account's name by `GET /api/account`) and kept
//! for the next games; where a game finds it (`LICHESS_TOKEN` first); and
//! `hector lichess games`, the games in progress in words.
//!
//! The token is kept in the system's secret store where there is one (the
//! `keyring` crate: the Secret Service over D-Bus on Linux, Windows
//! Credential Manager, the macOS Keychain), else in a file only the
//! player may read (0600 on Unix; on Windows in the player's own roaming
//! profile), `lichess-token` in hector's settings folder.  A game reads
//! `LICHESS_TOKEN` first, then the store, then the file; `logout` removes
//! both.

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

use crate::lichess::api::{self, NoAnswer, Reply, Request};
use crate::lichess::token::Token;
use crate::net::lichess::Client;
use crate::phrase::Phraser;
use crate::toml_error::IoWhy;

pub use crate::lichess::api::DEFAULT_URL;

/// The environment variable that gives the token.
pub const TOKEN_VAR: &str = "LICHESS_TOKEN";

/// Where the token is kept: `lichess-token` in hector's settings folder.
#[must_use]
pub fn token_file() -> Option<PathBuf> {
    crate::config::Config::default_path().and_then(|p| p.parent().map(|d| d.join("lichess-token")))
}

/// The secret store's names for the token: the service and the user.
const STORE_SERVICE: &str = "hector";
const STORE_USER: &str = "lichess-token";

/// The environment variable that keeps the token out of the secret store
/// (`file`: the file only; for a machine whose store asks for a password
/// no one is there to type, and for the tests).
pub const STORE_VAR: &str = "HECTOR_TOKEN_STORE";

/// The token's entry in the system's secret store, if the platform has
/// one and [`STORE_VAR`] does not say `file` (whether a store answers is
/// known only when it is asked).
fn store_entry() -> Option<keyring::Entry> {
    if std::env::var(STORE_VAR).is_ok_and(|v| v.trim() == "file") {
        return None;
    }
    keyring::Entry::new(STORE_SERVICE, STORE_USER).ok()
}

/// The token kept in the secret store, if a store answers and holds one.
fn store_token() -> Option<Token> {
    store_entry()?
        .get_password()
        .ok()
        .and_then(|s| Token::parse(&s))
}

/// The token to play with: `LICHESS_TOKEN`, else the one kept by `login`
/// in the secret store, else in the file.
#[must_use]
pub fn find_token() -> Option<Token> {
    if let Some(t) = std::env::var(TOKEN_VAR).ok().and_then(|v| Token::parse(&v)) {
        return Some(t);
    }
    if let Some(t) = store_token() {
        return Some(t);
    }
    let path = token_file()?;
    std::fs::read_to_string(path)
        .ok()
        .and_then(|s| Token::parse(&s))
}

/// Where `login` kept the token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeptIn {
    /// The system's secret store.
    Store,
    /// The 0600 file.
    File,
}

/// Why the token could not be kept.
#[derive(Debug)]
pub enum KeepFailure {
    /// No store answered and hector has no settings folder for the file
    /// (no home folder is set).
    NoFolder,
    /// No store answered and the file could not be written.
    Io(std::io::Error),
}

/// Keeps the token in the secret store when one answers (and then removes
/// an older file), else in the file.
///
/// # Errors
///
/// No store, and the file could not be written.
pub fn keep(token: &Token) -> Result<KeptIn, KeepFailure> {
    if let Some(entry) = store_entry()
        && entry.set_password(token.secret()).is_ok()
    {
        // Read back: a store that takes a secret and loses it is no store.
        if entry.get_password().ok().as_deref() == Some(token.secret()) {
            if let Some(path) = token_file() {
                let _ = std::fs::remove_file(path);
            }
            return Ok(KeptIn::Store);
        }
    }
    keep_in_file(token_file().as_deref(), token)
}

/// Keeps the token in the file at `path`, if hector has a settings folder.
fn keep_in_file(path: Option<&Path>, token: &Token) -> Result<KeptIn, KeepFailure> {
    let path = path.ok_or(KeepFailure::NoFolder)?;
    keep_token(path, token).map_err(KeepFailure::Io)?;
    Ok(KeptIn::File)
}

/// Why the token could not be kept, in the player's words.
fn not_kept(phraser: &Phraser, f: &KeepFailure) -> String {
    match f {
        KeepFailure::NoFolder => phraser.message("lichess_token_no_folder", &[]),
        KeepFailure::Io(e) => {
            let why = phraser.io_why(&IoWhy::of(e));
            phraser.message("lichess_token_not_kept", &[("error", &why)])
        }
    }
}

/// Writes the token where only the player can read it (a file made with
/// mode 0600 and moved into place, so no reader ever sees half of it).
///
/// # Errors
///
/// The folder or the file could not be written.
pub fn keep_token(path: &Path, token: &Token) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension("new");
    let _ = std::fs::remove_file(&tmp);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut f = options.open(&tmp)?;
    f.write_all(token.secret().as_bytes())?;
    f.sync_all()?;
    drop(f);
    std::fs::rename(&tmp, path)
}

/// What `login` and `logout` end with: the sentence to print, and whether
/// it went well.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Said {
    /// The sentence.
    pub sentence: String,
    /// Whether the command did what was asked.
    pub ok: bool,
}

/// Reads the token: without echo from a terminal, else one line of the
/// standard input (a script, a test).
fn read_secret() -> Option<String> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return read_hidden();
    }
    let mut line = String::new();
    stdin.lock().read_line(&mut line).ok()?;
    Some(line)
}

/// A line typed with the terminal's echo off (crossterm's raw mode, on
/// Unix and Windows alike); Enter ends it, Escape or Ctrl-C gives up.
fn read_hidden() -> Option<String> {
    use crossterm::event::{Event, KeyCode, KeyEventKind, KeyModifiers, read};
    crossterm::terminal::enable_raw_mode().ok()?;
    let mut line = String::new();
    let got = loop {
        match read() {
            Ok(Event::Key(k)) if k.kind != KeyEventKind::Release => match k.code {
                KeyCode::Enter => break Some(line),
                KeyCode::Esc => break None,
                KeyCode::Char('c') if k.modifiers.contains(KeyModifiers::CONTROL) => break None,
                KeyCode::Char(c) => line.push(c),
                KeyCode::Backspace => {
                    line.pop();
                }
                _ => {}
            },
            Ok(Event::Paste(s)) => line.push_str(&s),
            Ok(_) => {}
            Err(_) => break None,
        }
    };
    let _ = crossterm::terminal::disable_raw_mode();
    println!();
    got
}

/// `hector lichess login`: asks for the token, checks it, keeps it.
#[must_use]
pub fn login(phraser: &Phraser, base: &str) -> Said {
    print!("{} ", phraser.message("lichess_token_ask", &[]));
    let _ = std::io::stdout().flush();
    let Some(token) = read_secret().and_then(|s| Token::parse(&s)) else {
        return Said {
            sentence: phraser.message("lichess_token_none", &[]),
            ok: false,
        };
    };
    let name = match check(base, &token) {
        Ok(name) => name,
        Err(sentence) => {
            return Said {
                sentence: sentence_of(phraser, &sentence),
                ok: false,
            };
        }
    };
    match keep(&token) {
        Ok(KeptIn::File) => Said {
            sentence: phraser.message("lichess_logged_in", &[("name", name.as_str())]),
            ok: true,
        },
        Ok(KeptIn::Store) => Said {
            sentence: phraser.message("lichess_logged_in_store", &[("name", name.as_str())]),
            ok: true,
        },
        Err(e) => Said {
            sentence: not_kept(phraser, &e),
            ok: false,
        },
    }
}

/// Why a token could not be checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckFailure {
    /// lichess refused it (401).
    Refused,
    /// lichess knows it, but it lacks this scope.
    MissingScope(&'static str),
    /// An answer longer than hector reads.
    TooLong,
    /// lichess asked us to wait (429).
    RateLimited,
    /// lichess answered with an error status (not 401, 403, 429: those
    /// have their own), or the system could not ask (the network runtime
    /// or the HTTP client could not start).
    NoAnswer(NoAnswer),
    /// An answer of another kind than the one asked for.
    Unexpected,
    /// No answer at all: no connection, or no answer in time.
    NoConnection,
}

fn sentence_of(phraser: &Phraser, f: &CheckFailure) -> String {
    match f {
        CheckFailure::Refused => phraser.message("lichess_token_refused", &[]),
        CheckFailure::MissingScope(scope) => {
            phraser.message("lichess_token_scope", &[("scope", scope)])
        }
        CheckFailure::TooLong => phraser.message("lichess_reply_too_long", &[]),
        CheckFailure::RateLimited => phraser.message("lichess_login_rate_limited", &[]),
        CheckFailure::NoConnection => phraser.message("lichess_no_connection", &[]),
        CheckFailure::Unexpected => phraser.message("lichess_unexpected_answer", &[]),
        CheckFailure::NoAnswer(why) => phraser.lichess_no_answer(why),
    }
}

/// One request, carried on the shared runtime and waited for.
fn ask(client: &Client, request: Request) -> Result<Reply, CheckFailure> {
    let handle = crate::net::handle().map_err(|e| system(IoWhy::of(&e)))?;
    let (tx, rx) = std::sync::mpsc::channel();
    let client = client.clone();
    handle.spawn(async move {
        let _ = tx.send(client.send(&request).await);
    });
    // The task ended without an answer: none came.
    rx.recv().map_err(|_| CheckFailure::NoConnection)
}

/// The system could not ask.
fn system(why: IoWhy) -> CheckFailure {
    CheckFailure::NoAnswer(NoAnswer::System(why))
}

/// A reply that is not `Done`, as a failure.
fn failed(reply: Reply) -> CheckFailure {
    match reply {
        Reply::Refused { status: 401, .. } => CheckFailure::Refused,
        Reply::Refused { status: 403, .. } => CheckFailure::MissingScope(api::PLAY_SCOPE),
        // lichess's own error text is English: the status is said.
        Reply::Refused { status, .. } => CheckFailure::NoAnswer(NoAnswer::Status(status)),
        Reply::RateLimited => CheckFailure::RateLimited,
        Reply::TooLong { .. } => CheckFailure::TooLong,
        Reply::Failed(_) => CheckFailure::NoConnection,
        Reply::Done(_) => CheckFailure::Unexpected,
    }
}

/// Asks lichess whose token this is and what it may do: the account's
/// name, when the token has the scope every game needs (`board:play`).
///
/// # Errors
///
/// Refused, without the scope, rate-limited or no answer.
pub fn check(base: &str, token: &Token) -> Result<String, CheckFailure> {
    let client = Client::new(base, token.clone()).map_err(system)?;
    // The scopes first (`tags/oauth/api-token-test.yaml`): `/api/account`
    // answers any token, and one without `board:play` fails only later,
    // in the game, with 403 "Missing scope".
    match ask(&client, Request::TokenTest)? {
        Reply::Done(body) => match api::token_info(&body) {
            Ok(None) => return Err(CheckFailure::Refused),
            Ok(Some(info)) if !info.has(api::PLAY_SCOPE) => {
                return Err(CheckFailure::MissingScope(api::PLAY_SCOPE));
            }
            Ok(Some(_)) => {}
            Err(_) => return Err(CheckFailure::Unexpected),
        },
        other => return Err(failed(other)),
    }
    match ask(&client, Request::Account)? {
        Reply::Done(body) => api::account(&body)
            .map(|a| a.username)
            .map_err(|_| CheckFailure::Unexpected),
        other => Err(failed(other)),
    }
}

/// `hector lichess games`: the games in progress on lichess, most urgent
/// first, each in words (the opponent, its pace, whose move, the time
/// left, its id for `hector play --lichess --game ID`).
#[must_use]
pub fn games(phraser: &Phraser, base: &str) -> Said {
    let Some(token) = find_token() else {
        return Said {
            sentence: phraser.message("lichess_no_token", &[]),
            ok: false,
        };
    };
    let listed = Client::new(base, token).map_err(system).and_then(|client| {
        match ask(&client, Request::Playing)? {
            Reply::Done(body) => api::playing(&body).map_err(|_| CheckFailure::Unexpected),
            other => Err(failed(other)),
        }
    });
    match listed {
        Ok(games) => Said {
            sentence: phraser.lichess_games(&games),
            ok: true,
        },
        Err(f) => Said {
            sentence: sentence_of(phraser, &f),
            ok: false,
        },
    }
}

/// `hector lichess logout`: forgets the kept token, in the secret store
/// and in the file.
#[must_use]
pub fn logout(phraser: &Phraser) -> Said {
    // `NoEntry`: the store answered and holds none; any other error: no
    // store to answer.
    let from_store = store_entry().is_some_and(|e| e.delete_credential().is_ok());
    let from_file = match token_file().map(std::fs::remove_file) {
        None => Ok(false),
        Some(Ok(())) => Ok(true),
        Some(Err(e)) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Some(Err(e)) => Err(e),
    };
    match from_file {
        Ok(removed) if removed || from_store => Said {
            sentence: phraser.message("lichess_logged_out", &[]),
            ok: true,
        },
        Ok(_) => Said {
            sentence: phraser.message("lichess_logged_out_none", &[]),
            ok: true,
        },
        Err(e) => Said {
            sentence: not_kept(phraser, &KeepFailure::Io(e)),
            ok: false,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phrase::{MoveOptions, MoveStyle};
    use crate::words::Lang;

    /// Issue 27, items 5 and 6: "no settings folder" and "unexpected
    /// answer" were English inside the German sentence.  Now both are
    /// typed and said in the player's language.
    #[test]
    fn no_settings_folder_and_an_unexpected_answer_are_said_in_german() {
        let de = Phraser::builtin(MoveStyle::AppendixD, Lang::De, MoveOptions::default());
        let token = Token::parse("lip_abc").unwrap();
        let failure = keep_in_file(None, &token).unwrap_err();
        assert!(matches!(failure, KeepFailure::NoFolder), "{failure:?}");
        assert_eq!(
            not_kept(&de, &failure),
            "Das Token konnte nicht gespeichert werden: hector hat auf diesem System keinen \
             Einstellungsordner."
        );
        let failure = failed(Reply::Done(String::new()));
        assert_eq!(failure, CheckFailure::Unexpected);
        assert_eq!(
            sentence_of(&de, &failure),
            "lichess hat eine Antwort geschickt, die hector nicht erwartet hat. Versuche es \
             später noch einmal."
        );
    }

    /// Issue 27, items 5 and 6: a file the system refused, lichess's error
    /// status and a connection refused were said with the system's English
    /// ("Not a directory (os error 20)", "HTTP 502: Bad Gateway").  Now the
    /// common kinds are worded, in German for a German player.
    #[test]
    fn a_german_player_hears_system_errors_in_german() {
        use std::io::{Error, ErrorKind};
        let de = Phraser::builtin(MoveStyle::AppendixD, Lang::De, MoveOptions::default());
        let token = Token::parse("lip_abc").unwrap();
        // A real refusal: the settings folder's place is a file.
        let dir = std::env::temp_dir().join(format!("hector-token-io-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("a-file");
        std::fs::write(&file, "").unwrap();
        let failure = keep_in_file(Some(&file.join("sub").join("lichess-token")), &token);
        let failure = failure.err().unwrap();
        let said = not_kept(&de, &failure);
        if cfg!(unix) {
            assert_eq!(
                said,
                "Das Token konnte nicht gespeichert werden: ein Teil des Pfades ist eine Datei, \
                 kein Ordner."
            );
        } else {
            // Windows names this refusal by another kind (under Wine
            // "already exists"): worded all the same, never the system's.
            assert!(
                said.starts_with("Das Token konnte nicht gespeichert werden: ")
                    && !said.contains("os error"),
                "{said}"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
        for (kind, said) in [
            (
                ErrorKind::ReadOnlyFilesystem,
                "der Datenträger ist schreibgeschützt",
            ),
            (ErrorKind::StorageFull, "der Datenträger ist voll"),
            (ErrorKind::PermissionDenied, "keine Berechtigung"),
        ] {
            assert_eq!(
                not_kept(&de, &KeepFailure::Io(Error::from(kind))),
                format!("Das Token konnte nicht gespeichert werden: {said}.")
            );
        }
        // lichess's error status, in words; its own English text is not said.
        let failure = failed(Reply::Refused {
            status: 502,
            error: "Bad Gateway".into(),
        });
        assert_eq!(failure, CheckFailure::NoAnswer(NoAnswer::Status(502)));
        assert_eq!(
            sentence_of(&de, &failure),
            "lichess hat mit dem Fehler 502 geantwortet."
        );
        // A connection's error inside a library's error: its kind is found.
        #[derive(Debug)]
        struct Wrapped(Error);
        impl std::fmt::Display for Wrapped {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("error sending request")
            }
        }
        impl std::error::Error for Wrapped {
            fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
                Some(&self.0)
            }
        }
        let refused = Wrapped(Error::from(ErrorKind::ConnectionRefused));
        let failure = system(IoWhy::of_error(&refused));
        assert_eq!(
            sentence_of(&de, &failure),
            "lichess ist nicht erreichbar: die Verbindung wurde abgelehnt."
        );
        // Only a kind hector has no words for keeps the system's text.
        let odd = IoWhy::of_error(&Wrapped(Error::other("odd")));
        assert_eq!(odd, IoWhy::Other("odd".into()));
        let plain = IoWhy::of_error(&Error::other("plain"));
        assert_eq!(de.io_why(&plain), "plain");
    }

    /// Every worded kind has its own words in every language.
    #[test]
    fn every_worded_system_error_has_words_in_every_language() {
        let kinds = [
            IoWhy::NotFound,
            IoWhy::NotAllowed,
            IoWhy::IsAFolder,
            IoWhy::NotAFolder,
            IoWhy::ReadOnly,
            IoWhy::StorageFull,
            IoWhy::AlreadyExists,
            IoWhy::TimedOut,
            IoWhy::ConnectionRefused,
            IoWhy::ConnectionReset,
            IoWhy::Unreachable,
        ];
        let en = Phraser::builtin(MoveStyle::AppendixD, Lang::En, MoveOptions::default());
        for lang in Lang::ALL {
            let p = Phraser::builtin(MoveStyle::AppendixD, lang, MoveOptions::default());
            let said: std::collections::BTreeSet<String> =
                kinds.iter().map(|k| p.io_why(k)).collect();
            assert_eq!(said.len(), kinds.len(), "{lang:?}: {said:?}");
            if lang != Lang::En {
                for k in &kinds {
                    assert_ne!(p.io_why(k), en.io_why(k), "{lang:?} {k:?}");
                }
            }
        }
    }

    #[test]
    fn the_kept_token_is_private_and_whole() {
        let dir = std::env::temp_dir().join(format!("hector-token-{}", std::process::id()));
        let path = dir.join("sub").join("lichess-token");
        let t = Token::parse("lip_abc").unwrap();
        keep_token(&path, &t).unwrap();
        keep_token(&path, &Token::parse("lip_second").unwrap()).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "lip_second");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let _ = std::fs::remove_dir_all(dir);
    }
}
