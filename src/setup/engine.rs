//! The engine to play against: `--engine`, `--level`, `--elo`,
//! `--move-time` and `--ponder` over the settings' `[engine]`.

use std::time::Duration;

use crate::app::EngineSetup;
use crate::config::EngineConfig;
use crate::engine::{EngineSettings, Strength};

use super::typed::PlayArgs;

/// The engine of `--engine` or of `[engine] play = true`, with the
/// command line over the settings; `None`: no engine is played.
#[must_use]
pub fn engine_setup(typed: &PlayArgs, config: &EngineConfig) -> Option<EngineSetup> {
    if typed.engine.is_none() && !config.play {
        return None;
    }
    // `--engine` alone (an empty value) names no program: the settings'
    // path, else the default engine.
    let program = typed
        .engine
        .clone()
        .filter(|p| !p.is_empty())
        .or_else(|| config.path.clone());
    // One strength at a time, the command line's first.
    let strength = match (typed.level, typed.elo, config.level, config.elo) {
        (Some(l), ..) => Strength::Level(l),
        (None, Some(e), ..) => Strength::Elo(e),
        (None, None, Some(l), _) => Strength::Level(l),
        (None, None, None, Some(e)) => Strength::Elo(e),
        (None, None, None, None) => Strength::Full,
    };
    let options = config
        .options
        .iter()
        .map(|(k, v)| {
            let value = match v {
                toml::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            (k.clone(), value)
        })
        .collect();
    Some(EngineSetup {
        program,
        settings: EngineSettings {
            strength,
            threads: config.threads,
            hash_mb: config.hash_mb,
            ponder: typed.ponder || config.ponder,
            options,
        },
        // A zero time would ask for no search at all: a millisecond at least.
        move_time: Duration::from_millis(typed.move_time.unwrap_or(config.move_time_ms).max(1)),
        help_time: Duration::from_millis(config.help_time_ms.max(1)),
        ..EngineSetup::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::typed::tests::play;

    #[test]
    fn no_engine_unless_asked_for_on_the_line_or_in_the_settings() {
        let config = EngineConfig::default();
        assert!(engine_setup(&play(&[]), &config).is_none());
        let on = EngineConfig {
            play: true,
            ..EngineConfig::default()
        };
        let s = engine_setup(&play(&[]), &on).unwrap();
        assert_eq!(s.program, None);
        assert_eq!(s.settings.strength, Strength::Full);
        assert_eq!(s.move_time, Duration::from_millis(1000));
    }

    #[test]
    fn the_program_typed_comes_before_the_settings_path() {
        let config = EngineConfig {
            path: Some("/opt/sf".into()),
            ..EngineConfig::default()
        };
        let bare = engine_setup(&play(&["--engine"]), &config).unwrap();
        assert_eq!(bare.program.as_deref(), Some("/opt/sf"));
        let named = engine_setup(&play(&["--engine", "/usr/games/x"]), &config).unwrap();
        assert_eq!(named.program.as_deref(), Some("/usr/games/x"));
        let none = engine_setup(&play(&["--engine"]), &EngineConfig::default()).unwrap();
        assert_eq!(none.program, None);
    }

    #[test]
    fn one_strength_the_command_lines_first() {
        let config = EngineConfig {
            play: true,
            level: Some(4),
            elo: Some(1500),
            ..EngineConfig::default()
        };
        let strength = |typed: &[&str], c: &EngineConfig| {
            engine_setup(&play(typed), c).unwrap().settings.strength
        };
        assert_eq!(strength(&["--level", "12"], &config), Strength::Level(12));
        assert_eq!(strength(&["--elo", "1800"], &config), Strength::Elo(1800));
        assert_eq!(strength(&[], &config), Strength::Level(4));
        let elo_only = EngineConfig {
            level: None,
            ..config.clone()
        };
        assert_eq!(strength(&[], &elo_only), Strength::Elo(1500));
    }

    #[test]
    fn options_times_and_pondering() {
        let mut config = EngineConfig {
            play: true,
            move_time_ms: 0,
            help_time_ms: 0,
            threads: Some(2),
            hash_mb: Some(64),
            ..EngineConfig::default()
        };
        config
            .options
            .insert("Contempt".into(), toml::Value::Integer(20));
        config
            .options
            .insert("SyzygyPath".into(), toml::Value::String("/tb".into()));
        let s = engine_setup(&play(&[]), &config).unwrap();
        assert_eq!(
            s.settings.options,
            vec![
                ("Contempt".to_owned(), "20".to_owned()),
                ("SyzygyPath".to_owned(), "/tb".to_owned())
            ]
        );
        assert_eq!(s.move_time, Duration::from_millis(1));
        assert_eq!(s.help_time, Duration::from_millis(1));
        assert_eq!(
            (s.settings.threads, s.settings.hash_mb),
            (Some(2), Some(64))
        );
        assert!(!s.settings.ponder);
        let s = engine_setup(&play(&["--ponder", "--move-time", "250"]), &config).unwrap();
        assert!(s.settings.ponder);
        assert_eq!(s.move_time, Duration::from_millis(250));
    }
}
