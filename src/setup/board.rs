//! The boards: `--board` and `--opponent-board` (or the settings'
//! `[board] port`) resolved into what the app is told and the port the
//! runtime opens.  Finding and probing go through [`Ports`], so that the
//! resolution is tested without a port.

use std::time::Duration;

use crate::board::cli::{self as board_cli, Probed};
use crate::board::hardware::BoardDescription;
use crate::board::spec::{BoardSpec, parse_spec};
use crate::board::transport::PortSettings;
use crate::config::BoardSettings;
use crate::msg::{BoardChoice, BoardProblem};

use super::typed::PlayArgs;

/// The longest a reminder of a move still to be made waits: a reminder
/// an hour late is still a reminder.
const LONGEST_REMINDER: Duration = Duration::from_secs(3600);

/// Where boards are looked for.
pub trait Ports {
    /// The first board found on this machine's ports, and its port.
    fn find(&mut self) -> Option<(BoardDescription, String)>;
    /// Which protocol answers on the port at `path`.
    fn probe(&mut self, path: &str) -> Probed;
}

/// This machine's serial ports.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemPorts;

impl Ports for SystemPorts {
    fn find(&mut self) -> Option<(BoardDescription, String)> {
        board_cli::find_board()
    }

    fn probe(&mut self, path: &str) -> Probed {
        board_cli::probe(path)
    }
}

/// What a board's value resolves to.
#[derive(Debug, Clone, PartialEq)]
pub struct BoardPlan {
    /// What the app is told ([`Msg::BoardChosen`](crate::msg::Msg::BoardChosen)
    /// or `OpponentBoardChosen`).
    pub choice: BoardChoice,
    /// The port the runtime opens, and its line settings (none when no
    /// board is used).
    pub open: Option<(String, PortSettings)>,
}

impl BoardPlan {
    fn missing(problem: BoardProblem) -> BoardPlan {
        BoardPlan {
            choice: BoardChoice::Missing(problem),
            open: None,
        }
    }
}

/// The board of `spec` (`auto`, `PROTOCOL:PORT` or a port to probe), with
/// `--settle-ms` and `--announce-touch` over the settings' `[board]`.
pub fn board_plan(
    spec: &str,
    typed: &PlayArgs,
    settings: &BoardSettings,
    ports: &mut impl Ports,
) -> BoardPlan {
    let parsed = match parse_spec(spec) {
        Ok(s) => s,
        Err(error) => {
            return BoardPlan::missing(BoardProblem::Spec {
                spec: spec.to_owned(),
                error,
            });
        }
    };
    let (description, path) = match parsed {
        BoardSpec::Auto => match ports.find() {
            Some(found) => found,
            None => return BoardPlan::missing(BoardProblem::NotFound),
        },
        BoardSpec::Probe(path) => match ports.probe(&path) {
            Probed::Found(d) => (d, path),
            Probed::NoAnswer => return BoardPlan::missing(BoardProblem::NoAnswer { port: path }),
            Probed::CannotOpen(error) => {
                return BoardPlan::missing(BoardProblem::CannotOpen { port: path, error });
            }
        },
        BoardSpec::Port { protocol, path } => match board_cli::description(protocol) {
            Some(d) => (d, path),
            None => return BoardPlan::missing(BoardProblem::NotFound),
        },
    };
    let mut config = description.tracker_config();
    if let Some(ms) = typed.settle_ms.or(settings.settle_ms) {
        config.settle = Duration::from_millis(ms);
    }
    if let Some(s) = settings.remind_after_s {
        config.grace = Duration::from_secs(s).min(LONGEST_REMINDER);
    }
    BoardPlan {
        choice: BoardChoice::Opened {
            protocol: description.protocol,
            port: path.clone(),
            config,
            announce_touch: typed.announce_touch || settings.announce_touch,
        },
        open: Some((path, PortSettings::from_description(&description.serial))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Protocol;
    use crate::board::link::PortError;
    use crate::setup::typed::tests::play;

    /// Ports that answer as told, and remember what was asked.
    #[derive(Default)]
    struct Stand {
        found: Option<(BoardDescription, String)>,
        probed: Option<Probed>,
        asked: Vec<String>,
    }

    impl Ports for Stand {
        fn find(&mut self) -> Option<(BoardDescription, String)> {
            self.asked.push("find".into());
            self.found.clone()
        }
        fn probe(&mut self, path: &str) -> Probed {
            self.asked.push(format!("probe {path}"));
            self.probed.clone().unwrap_or(Probed::NoAnswer)
        }
    }

    fn dgt() -> BoardDescription {
        board_cli::description(Protocol::Dgt).unwrap()
    }

    #[test]
    fn a_value_that_cannot_be_read_touches_no_port() {
        let mut ports = Stand::default();
        let plan = board_plan(
            "nonsense:",
            &play(&[]),
            &BoardSettings::default(),
            &mut ports,
        );
        assert!(
            matches!(
                &plan.choice,
                BoardChoice::Missing(BoardProblem::Spec { spec, .. }) if spec == "nonsense:"
            ),
            "{plan:?}"
        );
        assert_eq!(plan.open, None);
        assert!(ports.asked.is_empty());
    }

    #[test]
    fn auto_finds_and_a_port_alone_is_probed() {
        let settings = BoardSettings::default();
        let mut none = Stand::default();
        let plan = board_plan("auto", &play(&[]), &settings, &mut none);
        assert_eq!(plan.choice, BoardChoice::Missing(BoardProblem::NotFound));
        assert_eq!(none.asked, ["find"]);

        let mut found = Stand {
            found: Some((dgt(), "/dev/ttyACM0".into())),
            ..Stand::default()
        };
        let plan = board_plan("auto", &play(&[]), &settings, &mut found);
        let (port, line) = plan.open.clone().unwrap();
        assert_eq!(port, "/dev/ttyACM0");
        assert_eq!(line, PortSettings::from_description(&dgt().serial));
        assert!(matches!(
            plan.choice,
            BoardChoice::Opened {
                protocol: Protocol::Dgt,
                ..
            }
        ));

        let mut silent = Stand::default();
        let plan = board_plan("/dev/ttyUSB3", &play(&[]), &settings, &mut silent);
        assert_eq!(
            plan.choice,
            BoardChoice::Missing(BoardProblem::NoAnswer {
                port: "/dev/ttyUSB3".into()
            })
        );
        assert_eq!(silent.asked, ["probe /dev/ttyUSB3"]);

        let mut refused = Stand {
            probed: Some(Probed::CannotOpen(PortError::PermissionDenied)),
            ..Stand::default()
        };
        let plan = board_plan("/dev/ttyUSB3", &play(&[]), &settings, &mut refused);
        assert_eq!(
            plan.choice,
            BoardChoice::Missing(BoardProblem::CannotOpen {
                port: "/dev/ttyUSB3".into(),
                error: PortError::PermissionDenied
            })
        );
        assert_eq!(plan.open, None);
    }

    #[test]
    fn a_protocol_and_port_is_opened_without_probing() {
        let mut ports = Stand::default();
        let plan = board_plan(
            "millennium:/dev/rfcomm0",
            &play(&[]),
            &BoardSettings::default(),
            &mut ports,
        );
        assert!(ports.asked.is_empty());
        assert_eq!(plan.open.map(|(p, _)| p).as_deref(), Some("/dev/rfcomm0"));
        let BoardChoice::Opened {
            protocol,
            port,
            config,
            announce_touch,
        } = plan.choice
        else {
            panic!("not opened");
        };
        assert_eq!(protocol, Protocol::Millennium);
        assert_eq!(port, "/dev/rfcomm0");
        let builtin = board_cli::description(Protocol::Millennium)
            .unwrap()
            .tracker_config();
        assert_eq!(config, builtin);
        assert!(!announce_touch);
    }

    #[test]
    fn the_command_line_over_the_board_settings() {
        let settings = BoardSettings {
            announce_touch: false,
            settle_ms: Some(700),
            remind_after_s: Some(100_000),
            ..BoardSettings::default()
        };
        let opened = |typed: &[&str]| {
            let plan = board_plan("dgt:/dev/x", &play(typed), &settings, &mut Stand::default());
            match plan.choice {
                BoardChoice::Opened {
                    config,
                    announce_touch,
                    ..
                } => (config, announce_touch),
                BoardChoice::Missing(p) => panic!("{p:?}"),
            }
        };
        let (config, touch) = opened(&[]);
        assert_eq!(config.settle, Duration::from_millis(700));
        // A reminder waits an hour at the most.
        assert_eq!(config.grace, LONGEST_REMINDER);
        assert!(!touch);
        let (config, touch) = opened(&["--settle-ms", "120", "--announce-touch"]);
        assert_eq!(config.settle, Duration::from_millis(120));
        assert!(touch);
    }
}
