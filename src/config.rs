//! Settings: built-in defaults, an optional user file merged over them
//! (`$XDG_CONFIG_HOME/hector/config.toml`, else `~/.config/hector/config.toml`),
//! and the command line over both.
//!
//! Every key is optional in the file; a key that is missing keeps its
//! default.  A file that does not parse, or has an unknown key or a wrong
//! value, is reported with file, line and key, and the defaults are used.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use shakmaty::Color;

use crate::audio::ToneSettings;
use crate::phrase::{Form, MoveStyle};
use crate::speech::{SpeechMode, SpeechSettings};
use crate::toml_error::FileError;
use crate::words::Lang;

/// `[announce]`: what is said and how.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Announce {
    pub moves: MoveStyle,
    pub language: Lang,
    pub form: Form,
    /// Name the captured piece ("schlägt Bauer David fünf").
    pub name_captured: bool,
    /// Say the colour before the move.
    pub say_colour: bool,
    /// Say the move number before the move.
    pub say_number: bool,
    /// Say "Bauer" before pawn moves.
    pub pawn_word: bool,
    /// Confirm the player's own moves (the opponent's are always said).
    pub confirm_own_moves: bool,
}

impl Default for Announce {
    fn default() -> Self {
        Announce {
            moves: MoveStyle::AppendixD,
            language: Lang::En,
            form: Form::Short,
            name_captured: false,
            say_colour: false,
            say_number: false,
            pawn_word: true,
            confirm_own_moves: true,
        }
    }
}

/// `[files]`: the user's own copies of the data files.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Files {
    /// Move words used with `moves = "appendix-d"` (a copy of voices/appendix-d.toml).
    pub moves_voice: Option<PathBuf>,
    /// Message language file (a copy of voices/en.toml etc.).
    pub messages_voice: Option<PathBuf>,
    /// Line-mode keymap (a copy of keymaps/line.toml).
    pub line_keymap: Option<PathBuf>,
}

/// `[game]`: how the game at this keyboard is played.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GameSettings {
    /// The colour whose pieces are "mine" (`"white"`, `"black"`, or
    /// `"random"` against an engine, in the file).
    #[serde(deserialize_with = "colour")]
    pub my_colour: ColourChoice,
    /// A rated game, or one with an arbiter: no hint, evaluation, threat or
    /// take-back.
    pub rated: bool,
}

/// The player's colour as chosen in the settings or on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColourChoice {
    /// This colour.
    Is(Color),
    /// White or Black by chance, when the game starts.
    Random,
}

/// A colour as written in a settings file or on the command line.
pub fn parse_colour(text: &str) -> Result<ColourChoice, String> {
    match text {
        "white" => Ok(ColourChoice::Is(Color::White)),
        "black" => Ok(ColourChoice::Is(Color::Black)),
        "random" => Ok(ColourChoice::Random),
        other => Err(format!(
            "\"{other}\" is not a colour: use \"white\", \"black\" or \"random\""
        )),
    }
}

fn colour<'de, D: serde::Deserializer<'de>>(d: D) -> Result<ColourChoice, D::Error> {
    let text = String::deserialize(d)?;
    parse_colour(&text).map_err(serde::de::Error::custom)
}

impl Default for GameSettings {
    fn default() -> Self {
        GameSettings {
            my_colour: ColourChoice::Is(Color::White),
            rated: false,
        }
    }
}

/// `[speech]`: how sentences are spoken.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Speech {
    /// "auto" (speak when the speech service answers, else print), "tts",
    /// "print" or "both".
    pub mode: String,
    /// -1 (slowest) to 1 (fastest); 0 is the voice's normal rate.
    pub rate: f32,
    /// -1 (lowest) to 1 (highest).
    pub pitch: f32,
    /// 0 (silent) to 1 (loudest).
    pub volume: f32,
}

impl Default for Speech {
    fn default() -> Self {
        let s = SpeechSettings::default();
        Speech {
            mode: SpeechMode::default().to_string(),
            rate: s.rate,
            pitch: s.pitch,
            volume: s.volume,
        }
    }
}

impl Speech {
    /// The mode; checked when the file is read.
    pub fn mode(&self) -> SpeechMode {
        self.mode.parse().unwrap_or_default()
    }

    /// Rate, pitch and volume, clamped into their ranges.
    pub fn settings(&self) -> SpeechSettings {
        SpeechSettings {
            rate: self.rate,
            pitch: self.pitch,
            volume: self.volume,
        }
        .clamped()
    }
}

/// `[board]`: the player's tactile or electronic board.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BoardSettings {
    /// "auto", "dgt:/dev/ttyUSB0" (PROTOCOL:PORT) or a port; none: no board.
    pub port: Option<String>,
    /// Say which piece is touched (D.2.2).
    pub announce_touch: bool,
    /// Override the hardware file's settle time, in milliseconds.
    pub settle_ms: Option<u64>,
    /// Seconds a move to be made on the board (typed by the opponent) may
    /// stay unmade, with nothing happening on the board, before the
    /// mismatch is said once as a reminder (default 15).
    pub remind_after_s: Option<u64>,
}

/// `[clock]`: the talking clock (FIDE D.2.6.1) and the rules edition.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ClockSettings {
    /// The time control in the `--time` notation ("90+30", "40/90,30+30",
    /// "5d3", "hourglass:5", a preset name); none: no clock.
    pub time: Option<String>,
    /// The rules edition: "2023" (the newest), "2018", "2017" or "1997"
    /// ("older").
    pub rules: String,
    /// Seconds left at which the time is said, each once.
    pub thresholds: Vec<u64>,
    /// Count the last ten seconds aloud.
    pub countdown: bool,
    /// Say both times after every this many moves (0: never).
    pub every_moves: u32,
    /// Whose thresholds are said: "both", "mine", "theirs" or "none".
    pub announce_for: String,
    /// "move" (a move presses the clock) or "separate" (a press after the
    /// move, FIDE D.2.8).
    pub press: String,
    /// An arbiter supervises the game fully (A.3, B.3); false: A.4, B.4.
    pub supervised: bool,
}

impl Default for ClockSettings {
    fn default() -> Self {
        ClockSettings {
            time: None,
            rules: "2023".to_owned(),
            thresholds: crate::clock::announce::DEFAULT_THRESHOLDS.to_vec(),
            countdown: false,
            every_moves: 0,
            announce_for: "both".to_owned(),
            press: "move".to_owned(),
            supervised: true,
        }
    }
}

/// `[view]`: the front end and the full-screen view's look.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ViewSettings {
    /// "line" (default) or "tui"; `--ui` wins.
    pub ui: String,
    /// "high-contrast-dark", "high-contrast-light" or "yellow-on-black".
    pub theme: String,
    /// A theme file of your own (TOML), used instead of `theme`.
    pub theme_file: Option<PathBuf>,
    /// "letters", "figurines" or "blocks" (large shapes).
    pub pieces: String,
    /// Coordinates in Appendix D words ("Anna", "eins") instead of a1.
    pub coordinate_words: bool,
    /// The move list in SAN instead of as spoken.
    pub san_moves: bool,
    /// The last announcement in large letters (for a deaf opponent, or a
    /// player who sees large shapes better).
    pub large_text: bool,
    /// Your key map for the full-screen view (merged over keymaps/tui.toml).
    pub keymap: Option<PathBuf>,
}

impl Default for ViewSettings {
    fn default() -> ViewSettings {
        ViewSettings {
            ui: "line".into(),
            theme: "high-contrast-dark".into(),
            theme_file: None,
            pieces: "letters".into(),
            coordinate_words: false,
            san_moves: false,
            large_text: false,
            keymap: None,
        }
    }
}

/// `[engine]`: playing against a UCI engine (home play).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EngineConfig {
    /// Play against the engine (as `--engine` does).
    pub play: bool,
    /// The engine program: a path or a name on the PATH; none: `stockfish`.
    pub path: Option<String>,
    /// Skill level 1 (weakest) to 20 (full strength).
    pub level: Option<u8>,
    /// A rating (`UCI_LimitStrength`/`UCI_Elo`), when the engine offers it.
    pub elo: Option<u32>,
    /// The engine's time per move, in milliseconds (without a clock).
    pub move_time_ms: u64,
    /// The time for a hint, an evaluation or a threat, in milliseconds.
    pub help_time_ms: u64,
    /// UCI `Threads` and `Hash` (MB); none: the engine's own.
    pub threads: Option<u32>,
    /// UCI `Hash` in MB; none: the engine's own.
    pub hash_mb: Option<u32>,
    /// Let the engine think in the player's time.
    pub ponder: bool,
    /// Any other UCI options, by name.
    pub options: std::collections::BTreeMap<String, toml::Value>,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            play: false,
            path: None,
            level: None,
            elo: None,
            move_time_ms: 1000,
            help_time_ms: 500,
            threads: None,
            hash_mb: None,
            ponder: false,
            options: std::collections::BTreeMap::new(),
        }
    }
}

impl ClockSettings {
    /// What is wrong with the settings, as (key, detail).
    fn check(&self) -> Result<(), (&'static str, String)> {
        if let Some(t) = &self.time
            && let Err(e) = crate::clock::parse_spec(t)
        {
            // Only the key reaches the player (the settings reader words
            // it in their language); the detail is for logs and tests.
            return Err((
                "clock.time",
                format!("\"{t}\" is not a time control: {e:?}"),
            ));
        }
        if crate::game::rules::Edition::from_name(&self.rules).is_none() {
            return Err((
                "clock.rules",
                format!(
                    "\"{}\" is not a rules edition: use 2023, 2018, 2017 or 1997",
                    self.rules
                ),
            ));
        }
        if !matches!(
            self.announce_for.as_str(),
            "both" | "mine" | "theirs" | "none"
        ) {
            return Err((
                "clock.announce_for",
                format!("\"{}\": use both, mine, theirs or none", self.announce_for),
            ));
        }
        if !matches!(self.press.as_str(), "move" | "separate") {
            return Err((
                "clock.press",
                format!("\"{}\": use move or separate", self.press),
            ));
        }
        Ok(())
    }
}

/// `[companion]`: the opponent's screen (a page served by hector).
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CompanionSettings {
    /// Serve the page in every game (the command line's `--companion`
    /// does it for one).
    pub enabled: bool,
    /// ADDRESS:PORT to listen on; none: 127.0.0.1:8421 (this computer
    /// only).  Any other address asks the opponent for a pairing code.
    pub listen: Option<String>,
    /// On a network address, let browsers watch without the code (they
    /// still need it to play).
    pub view_without_code: bool,
    /// Ask for the pairing code on this computer too.
    pub require_code: bool,
}

/// `[players]`: the names on the scoresheet (PGN `White` and `Black`).
/// `--white` and `--black` on the command line come first, then `white`
/// and `black` here, then `me` on the player's own colour.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PlayersSettings {
    /// The player's own name, put on their colour's side.
    pub me: Option<String>,
    /// White's name.
    pub white: Option<String>,
    /// Black's name.
    pub black: Option<String>,
}

impl PlayersSettings {
    /// The names of White and Black (empty when unknown): `white` and
    /// `black` when set, else `me` on `my_colour`.
    pub fn names(&self, my_colour: Color) -> (String, String) {
        fn set(s: &Option<String>) -> Option<&str> {
            s.as_deref().map(str::trim).filter(|s| !s.is_empty())
        }
        let me = set(&self.me);
        let name = |side: Color, given: &Option<String>| {
            set(given)
                .or(me.filter(|_| side == my_colour))
                .unwrap_or_default()
                .to_owned()
        };
        (
            name(Color::White, &self.white),
            name(Color::Black, &self.black),
        )
    }
}

/// All settings.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// `[announce]`: what is said and how.
    pub announce: Announce,
    /// `[files]`: the user's own copies of the data files.
    pub files: Files,
    /// `[game]`: how the game at this keyboard is played.
    pub game: GameSettings,
    /// `[speech]`: how sentences are spoken.
    pub speech: Speech,
    /// `[tones]`: volume, and each tone on or off.
    pub tones: ToneSettings,
    /// `[board]`: the player's board.
    pub board: BoardSettings,
    /// `[view]`: the full-screen view.
    pub view: ViewSettings,
    /// `[clock]`: the talking clock.
    pub clock: ClockSettings,
    /// `[engine]`: the engine for home play.
    pub engine: EngineConfig,
    /// `[companion]`: the opponent's screen.
    pub companion: CompanionSettings,
    /// `[players]`: the names on the scoresheet.
    pub players: PlayersSettings,
}

/// A settings file that could not be used.
pub type ConfigError = FileError;

impl Config {
    /// Parse a settings file's text; `file` names it in errors.
    pub fn parse(file: &str, text: &str) -> Result<Config, ConfigError> {
        let config: Config =
            toml::from_str(text).map_err(|e| FileError::from_toml(file, text, &e))?;
        for (key, value, allowed) in [
            ("view.ui", &config.view.ui, &["line", "tui"][..]),
            (
                "view.theme",
                &config.view.theme,
                &[
                    "high-contrast-dark",
                    "high-contrast-light",
                    "yellow-on-black",
                ][..],
            ),
            (
                "view.pieces",
                &config.view.pieces,
                &["letters", "figurines", "blocks"][..],
            ),
        ] {
            if !allowed.contains(&value.as_str()) {
                return Err(FileError::at_key(
                    file,
                    text,
                    key,
                    format!("\"{value}\" is not one of {}", allowed.join(", ")),
                ));
            }
        }
        if config.engine.level.is_some_and(|l| !(1..=20).contains(&l)) {
            return Err(FileError::at_key(
                file,
                text,
                "engine.level",
                "the level is a number from 1 to 20".to_owned(),
            ));
        }
        if config.engine.level.is_some() && config.engine.elo.is_some() {
            return Err(FileError::at_key(
                file,
                text,
                "engine.elo",
                "give a level or an Elo, not both".to_owned(),
            ));
        }
        if let Err(e) = config.speech.mode.parse::<SpeechMode>() {
            return Err(FileError::at_key(file, text, "speech.mode", e));
        }
        if let Err((key, detail)) = config.clock.check() {
            return Err(FileError::at_key(file, text, key, detail));
        }
        Ok(config)
    }

    /// The user's settings file location (it may not exist):
    /// `$XDG_CONFIG_HOME/hector/config.toml` wherever that is set, else
    /// `~/.config/hector/config.toml`, on Windows `%APPDATA%\hector\config.toml`.
    pub fn default_path() -> Option<PathBuf> {
        let base = std::env::var_os("XDG_CONFIG_HOME")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(home_config)?;
        Some(base.join("hector").join("config.toml"))
    }

    /// Load `path`: a missing file gives the defaults silently; a broken one
    /// gives the defaults and the error to report.
    pub fn load(path: &Path) -> (Config, Option<ConfigError>) {
        match std::fs::read_to_string(path) {
            Ok(text) => match Config::parse(&path.display().to_string(), &text) {
                Ok(c) => (c, None),
                Err(e) => (Config::default(), Some(e)),
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (Config::default(), None),
            Err(e) => (
                Config::default(),
                Some(FileError::unreadable(&path.display().to_string(), &e)),
            ),
        }
    }
}

/// The folder of settings without `XDG_CONFIG_HOME`: `~/.config`.
#[cfg(not(windows))]
fn home_config() -> Option<PathBuf> {
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config"))
}

/// The folder of settings without `XDG_CONFIG_HOME`: the roaming
/// application data, `%APPDATA%`.
#[cfg(windows)]
fn home_config() -> Option<PathBuf> {
    directories::BaseDirs::new().map(|d| d.config_dir().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_file_is_all_defaults() {
        assert_eq!(Config::parse("c.toml", "").unwrap(), Config::default());
    }

    #[test]
    fn file_merges_over_defaults() {
        let c =
            Config::parse("c.toml", "[announce]\nlanguage = \"de\"\nform = \"long\"\n").unwrap();
        assert_eq!(c.announce.language, Lang::De);
        assert_eq!(c.announce.form, Form::Long);
        assert_eq!(c.announce.moves, MoveStyle::AppendixD);
        assert!(c.announce.pawn_word);
    }

    #[test]
    fn wrong_value_names_line_and_key() {
        let text = "[announce]\nlanguage = \"de\"\nmoves = \"klingon\"\n";
        let e = Config::parse("c.toml", text).unwrap_err();
        assert_eq!(e.line, Some(3));
        assert_eq!(e.key.as_deref(), Some("announce.moves"));
        assert_eq!(e.file, "c.toml");
    }

    #[test]
    fn unknown_key_names_line_and_key() {
        let text = "[announce]\nlangauge = \"de\"\n";
        let e = Config::parse("c.toml", text).unwrap_err();
        assert_eq!(e.line, Some(2));
        assert_eq!(e.key.as_deref(), Some("langauge"));
    }

    #[test]
    fn bad_colour_is_reported() {
        let e = Config::parse("c.toml", "[game]\nmy_colour = \"green\"\n").unwrap_err();
        assert_eq!(e.key.as_deref(), Some("game.my_colour"));
        assert_eq!(e.line, Some(2));
    }

    #[test]
    fn speech_and_tones_settings() {
        let c = Config::parse(
            "c.toml",
            "[speech]\nmode = \"print\"\nrate = 3.0\n[tones]\ncheck = false\n",
        )
        .unwrap();
        assert_eq!(c.speech.mode(), SpeechMode::Print);
        assert_eq!(c.speech.settings().rate, 1.0, "clamped");
        assert!(!c.tones.check);
        assert!(c.tones.error);
        let e = Config::parse("c.toml", "[speech]\nmode = \"loud\"\n").unwrap_err();
        assert_eq!(e.key.as_deref(), Some("speech.mode"));
        assert_eq!(e.line, Some(2));
        let e = Config::parse("c.toml", "[tones]\nchek = false\n").unwrap_err();
        assert_eq!(e.key.as_deref(), Some("chek"));
    }

    #[test]
    fn companion_settings() {
        let c = Config::parse(
            "c.toml",
            "[companion]\nenabled = true\nlisten = \"0.0.0.0:8421\"\nview_without_code = true\n",
        )
        .unwrap();
        assert!(c.companion.enabled && c.companion.view_without_code);
        assert_eq!(c.companion.listen.as_deref(), Some("0.0.0.0:8421"));
        assert!(!c.companion.require_code);
        let e = Config::parse("c.toml", "[companion]\nport = 3\n").unwrap_err();
        assert_eq!(e.line, Some(2), "{e:?}");
    }

    #[test]
    fn board_settings() {
        let c = Config::parse(
            "c.toml",
            "[board]\nport = \"dgt:/dev/ttyUSB0\"\nannounce_touch = true\n",
        )
        .unwrap();
        assert_eq!(c.board.port.as_deref(), Some("dgt:/dev/ttyUSB0"));
        assert!(c.board.announce_touch);
        assert_eq!(c.board.settle_ms, None);
        let e = Config::parse("c.toml", "[board]\nsettle_ms = -3\n").unwrap_err();
        assert_eq!(e.key.as_deref(), Some("board.settle_ms"));
        let c = Config::parse("c.toml", "[board]\nremind_after_s = 30\n").unwrap();
        assert_eq!(c.board.remind_after_s, Some(30));
    }

    #[test]
    fn clock_settings() {
        let c = Config::parse(
            "c.toml",
            "[clock]\ntime = \"40/90,30+30\"\nrules = \"2017\"\ncountdown = true\npress = \"separate\"\n",
        )
        .unwrap();
        assert_eq!(c.clock.time.as_deref(), Some("40/90,30+30"));
        assert!(c.clock.countdown);
        assert_eq!(c.clock.thresholds, vec![600, 300, 120, 60, 30, 10]);
        let e = Config::parse("c.toml", "[clock]\ntime = \"40/90\"\n").unwrap_err();
        assert_eq!(e.key.as_deref(), Some("clock.time"));
        assert_eq!(e.line, Some(2));
        assert!(e.detail.contains("LastPeriodHasMoves"), "{}", e.detail);
        let e = Config::parse("c.toml", "[clock]\nrules = \"1066\"\n").unwrap_err();
        assert_eq!(e.key.as_deref(), Some("clock.rules"));
        let e = Config::parse("c.toml", "[clock]\npress = \"foot\"\n").unwrap_err();
        assert_eq!(e.key.as_deref(), Some("clock.press"));
    }

    #[test]
    fn engine_settings_and_rated() {
        let c = Config::parse(
            "c.toml",
            "[game]\nmy_colour = \"random\"\nrated = true\n[engine]\nplay = true\npath = \"/usr/games/stockfish\"\nlevel = 3\nmove_time_ms = 200\nponder = true\n[engine.options]\nThreads = 2\nSyzygyPath = \"/tb\"\n",
        )
        .unwrap();
        assert!(c.game.rated);
        assert_eq!(c.game.my_colour, ColourChoice::Random);
        assert!(c.engine.play);
        assert_eq!(c.engine.level, Some(3));
        assert_eq!(c.engine.move_time_ms, 200);
        assert_eq!(c.engine.help_time_ms, 500);
        assert!(c.engine.ponder);
        assert_eq!(c.engine.options.len(), 2);
        let e = Config::parse("c.toml", "[engine]\nlevel = 5\nelo = 2000\n").unwrap_err();
        assert_eq!(e.key.as_deref(), Some("engine.elo"));
        assert!(e.to_string().contains("not both"), "{e}");
        let e = Config::parse("c.toml", "[engine]\nlevel = 25\n").unwrap_err();
        assert_eq!(e.key.as_deref(), Some("engine.level"));
        let e = Config::parse("c.toml", "[engine]\nlevl = 2\n").unwrap_err();
        assert!(
            e.key.as_deref().is_some_and(|k| k.ends_with("levl")),
            "{e:?}"
        );
    }

    #[test]
    fn missing_file_is_silent_defaults() {
        let (c, e) = Config::load(Path::new("/nonexistent/hector/config.toml"));
        assert_eq!(c, Config::default());
        assert_eq!(e, None);
    }

    #[test]
    fn players_names_for_the_scoresheet() {
        let c = Config::parse("c.toml", "[players]\nme = \"Anna Müller\"\n").unwrap();
        assert_eq!(
            c.players.names(Color::White),
            ("Anna Müller".to_owned(), String::new())
        );
        assert_eq!(
            c.players.names(Color::Black),
            (String::new(), "Anna Müller".to_owned())
        );
        let c = Config::parse(
            "c.toml",
            "[players]\nme = \"Anna\"\nwhite = \"Bob\"\nblack = \" \"\n",
        )
        .unwrap();
        // A name given for the colour wins; a blank one is no name.
        assert_eq!(
            c.players.names(Color::White),
            ("Bob".to_owned(), String::new())
        );
        assert_eq!(
            c.players.names(Color::Black),
            ("Bob".to_owned(), "Anna".to_owned())
        );
        let e = Config::parse("c.toml", "[players]\nreferee = \"X\"\n").unwrap_err();
        assert_eq!(e.line, Some(2), "{e:?}");
    }
}
