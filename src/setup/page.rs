//! The opponent's page: `--companion [ADDR:PORT]` over the settings'
//! `[companion]` resolved into the address the server listens on, the
//! names a browser may use for this computer, and what the app is told
//! once the server runs or could not start (in the player's language).

use std::net::{SocketAddr, ToSocketAddrs};

use crate::companion::DEFAULT_LISTEN;
use crate::config::CompanionSettings;
use crate::msg::CompanionChoice;
use crate::phrase::Phraser;

/// Where the page is served, as typed: `--companion` (with an address, or
/// none for the settings' or the default one) or `[companion] enabled`;
/// `None`: no page.  An empty address is the default one.
#[must_use]
pub fn page_listen(typed: Option<&str>, settings: &CompanionSettings) -> Option<String> {
    let from_settings = || settings.listen.clone().unwrap_or_default();
    match typed {
        Some(addr) if !addr.is_empty() => Some(addr.to_owned()),
        Some(_) => Some(from_settings()),
        None if settings.enabled => Some(from_settings()),
        None => None,
    }
}

/// The address `listen` names, or what the app is told when it names
/// none.
///
/// # Errors
///
/// [`CompanionChoice::Failed`], worded in the player's language, when
/// `listen` is no address and port.
pub fn page_address(listen: &str, phraser: &Phraser) -> Result<SocketAddr, CompanionChoice> {
    if listen.is_empty() {
        return Ok(DEFAULT_LISTEN);
    }
    listen
        .to_socket_addrs()
        .ok()
        .and_then(|mut a| a.next())
        .ok_or_else(|| {
            page_failed(
                listen,
                phraser.message(
                    "companion_not_an_address",
                    &[("default", &DEFAULT_LISTEN.to_string())],
                ),
            )
        })
}

/// What the app is told when the page cannot be served at `listen`.
#[must_use]
pub fn page_failed(listen: &str, why: String) -> CompanionChoice {
    let address = if listen.is_empty() {
        DEFAULT_LISTEN.to_string()
    } else {
        listen.to_owned()
    };
    CompanionChoice::Failed { address, why }
}

/// This computer's name (empty when it cannot be read).
#[must_use]
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_owned())
        .unwrap_or_default()
}

/// The names a browser may send as `Host` off loopback (hector says the
/// first): the host name, and the same under mDNS.
#[must_use]
pub fn host_names(host: &str) -> Vec<String> {
    if host.is_empty() {
        Vec::new()
    } else {
        vec![host.to_owned(), format!("{host}.local")]
    }
}

/// What the app is told once the server listens at `bound`: the address
/// to open in a browser (every address of this computer is named by its
/// host name) and the pairing code.
#[must_use]
pub fn page_ready(bound: SocketAddr, host: &str, code: Option<String>) -> CompanionChoice {
    let address = if bound.ip().is_unspecified() {
        let host = if host.is_empty() { "localhost" } else { host };
        format!("http://{host}:{}/", bound.port())
    } else {
        format!("http://{bound}/")
    };
    CompanionChoice::Ready { address, code }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phrase::{MoveOptions, MoveStyle};
    use crate::words::vocab::Lang;

    fn phraser(lang: Lang) -> Phraser {
        Phraser::builtin(MoveStyle::AppendixD, lang, MoveOptions::default())
    }

    #[test]
    fn the_command_line_over_the_settings() {
        let off = CompanionSettings::default();
        let on = CompanionSettings {
            enabled: true,
            listen: Some("0.0.0.0:9000".into()),
            ..CompanionSettings::default()
        };
        assert_eq!(page_listen(None, &off), None);
        assert_eq!(page_listen(Some(""), &off).as_deref(), Some(""));
        assert_eq!(page_listen(None, &on).as_deref(), Some("0.0.0.0:9000"));
        assert_eq!(page_listen(Some(""), &on).as_deref(), Some("0.0.0.0:9000"));
        assert_eq!(
            page_listen(Some("127.0.0.1:8500"), &on).as_deref(),
            Some("127.0.0.1:8500")
        );
    }

    #[test]
    fn an_address_or_why_not_in_the_players_language() {
        let en = phraser(Lang::En);
        assert_eq!(page_address("", &en), Ok(DEFAULT_LISTEN));
        assert_eq!(
            page_address("127.0.0.1:8500", &en),
            Ok("127.0.0.1:8500".parse().unwrap())
        );
        let Err(CompanionChoice::Failed { address, why }) = page_address("nowhere", &en) else {
            panic!("an address");
        };
        assert_eq!(address, "nowhere");
        assert_eq!(why, "not an address and port such as 127.0.0.1:8421");
        let Err(CompanionChoice::Failed { why, .. }) = page_address("nowhere", &phraser(Lang::De))
        else {
            panic!("an address");
        };
        assert!(
            why.contains("127.0.0.1:8421") && !why.contains("such as"),
            "{why}"
        );
        assert_eq!(
            page_failed("", "busy".into()),
            CompanionChoice::Failed {
                address: "127.0.0.1:8421".into(),
                why: "busy".into()
            }
        );
    }

    #[test]
    fn the_address_said_names_this_computer_on_every_address() {
        let code = Some("1234".to_owned());
        assert_eq!(
            page_ready("0.0.0.0:8421".parse().unwrap(), "study", code.clone()),
            CompanionChoice::Ready {
                address: "http://study:8421/".into(),
                code: code.clone()
            }
        );
        assert_eq!(
            page_ready("0.0.0.0:8421".parse().unwrap(), "", None),
            CompanionChoice::Ready {
                address: "http://localhost:8421/".into(),
                code: None
            }
        );
        assert_eq!(
            page_ready("127.0.0.1:8421".parse().unwrap(), "study", None),
            CompanionChoice::Ready {
                address: "http://127.0.0.1:8421/".into(),
                code: None
            }
        );
        assert_eq!(host_names(""), Vec::<String>::new());
        assert_eq!(host_names("study"), ["study", "study.local"]);
    }
}
