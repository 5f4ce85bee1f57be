//! From settings to an app's builder: loads the user's files over the built-in
//! ones, with the command line's [`Overrides`] over them, and turns every
//! broken file into a sentence to say at start-up while going on with the
//! built-in default.

use std::path::PathBuf;

use shakmaty::Color;

use crate::app::{App, AppBuilder, ClockSetup};
use crate::audio::ToneSettings;
use crate::config::{BoardSettings, ColourChoice, CompanionSettings, Config, EngineConfig};
use crate::keymap::Keymap;
use crate::msg::StartProblem;
use crate::notation::Reader;
use crate::phrase::{MoveOptions, MoveStyle, Phraser};
use crate::speech::{SpeechMode, SpeechSettings};
use crate::toml_error::FileError;
use crate::words::vocab::{self, Lang};

use super::typed::Overrides;

/// The app's parts and the problems to say before the first prompt (as
/// [`Msg::Problem`](crate::msg::Msg::Problem)s, before [`Msg::Start`](crate::msg::Msg::Start)).
pub struct Started {
    /// The app's parts from the settings; the command gives it how the
    /// session starts (journal, position, engine, review, look) and builds it.
    pub app: AppBuilder,
    /// The player's words, for what is said before the app runs.
    pub phraser: Phraser,
    /// Problems with the user's files, to give to the app as messages.
    pub problems: Vec<StartProblem>,
    /// Speech mode and voice settings.
    pub speech: SpeechMode,
    /// Rate, pitch and volume.
    pub speech_settings: SpeechSettings,
    /// Tones, with every tone off under `--no-sound`.
    pub tones: ToneSettings,
    /// The `[board]` settings (the command line may override them).
    pub board: BoardSettings,
    /// A `--time` that cannot be used, in the player's language.
    pub clock_error: Option<String>,
    /// The `[view]` settings (front end, theme, keys).
    pub view: crate::config::ViewSettings,
    /// The `[engine]` settings (the command line may override them).
    pub engine: EngineConfig,
    /// The `[companion]` settings (the command line may override them).
    pub companion: CompanionSettings,
    /// The `[players]` settings: names for the scoresheet (`--white` and
    /// `--black` come first).
    pub players: crate::config::PlayersSettings,
}

impl Started {
    /// True when at least one tone may sound.
    pub fn any_tone(&self) -> bool {
        let t = &self.tones;
        t.volume > 0.0
            && (t.opponent_move || t.check || t.low_time || t.flag_fall || t.mismatch || t.error)
    }
}

/// The name and text of a user's file, if one is set and can be read.
fn read_user_file(
    path: Option<&PathBuf>,
    problems: &mut Vec<StartProblem>,
) -> Option<(String, String)> {
    let path = path?;
    let name = path.display().to_string();
    match std::fs::read_to_string(path) {
        Ok(text) => Some((name, text)),
        Err(e) => {
            problems.push(StartProblem::Voice(FileError::unreadable(&name, &e)));
            None
        }
    }
}

/// Build the app from the settings file (if any) and the command line.
pub fn start(over: &Overrides) -> Started {
    let mut problems = Vec::new();
    let path = over.config.clone().or_else(Config::default_path);
    let mut config = match path {
        Some(p) => {
            // Each bad key is reported and keeps its default; the rest of
            // the file is used.  A file named with --config must exist.
            let (c, errors) = crate::settings_file::load(&p, over.config.is_some());
            problems.extend(errors.into_iter().map(StartProblem::Setting));
            c
        }
        None => Config::default(),
    };
    let a = &mut config.announce;
    if let Some(m) = over.words.moves {
        a.moves = m;
    }
    if let Some(l) = over.words.language {
        a.language = l;
    }
    if let Some(f) = over.words.form {
        a.form = f;
    }
    a.name_captured |= over.words.captured;
    a.say_colour |= over.colour;
    a.say_number |= over.numbers;
    if over.words.no_pawn_word {
        a.pawn_word = false;
    }
    if over.no_confirm {
        a.confirm_own_moves = false;
    }
    if let Some(me) = over.me {
        config.game.my_colour = me;
    }

    let lang: Lang = config.announce.language;
    let opts = MoveOptions {
        form: config.announce.form,
        name_captured: config.announce.name_captured,
        say_colour: config.announce.say_colour,
        say_number: config.announce.say_number,
        pawn_word: config.announce.pawn_word,
    };
    let style = config.announce.moves;
    let messages_text = read_user_file(config.files.messages_voice.as_ref(), &mut problems);
    // With the language's own move words, a user's messages file gives
    // the move words too.
    let moves_text = match style {
        MoveStyle::AppendixD => read_user_file(config.files.moves_voice.as_ref(), &mut problems),
        MoveStyle::Language => messages_text.clone(),
    };
    let (phraser, voice_errors) = Phraser::load_or_builtin(
        style,
        lang,
        moves_text.as_ref().map(|(n, t)| (n.as_str(), t.as_str())),
        messages_text
            .as_ref()
            .map(|(n, t)| (n.as_str(), t.as_str())),
        opts,
    );
    let mut seen = Vec::new();
    for e in voice_errors {
        // The same file given for both is reported once.
        if !seen.contains(&e) {
            seen.push(e.clone());
            problems.push(StartProblem::Voice(e));
        }
    }
    let keymap = match &config.files.line_keymap {
        None => Keymap::builtin(),
        Some(p) => match Keymap::load(p) {
            Ok((keymap, damaged)) => {
                problems.extend(damaged.into_iter().map(StartProblem::Setting));
                keymap
            }
            Err(e) => {
                problems.push(StartProblem::File(e));
                Keymap::builtin()
            }
        },
    };
    let mut languages: Vec<(Lang, vocab::MoveWords)> = Lang::ALL
        .into_iter()
        .map(|l| (l, vocab::builtin(l).moves))
        .collect();
    let appendix_d = match style {
        MoveStyle::AppendixD => phraser.move_words().clone(),
        MoveStyle::Language => {
            if let Some(entry) = languages.iter_mut().find(|(l, _)| *l == lang) {
                entry.1 = phraser.move_words().clone();
            }
            vocab::builtin_appendix_d().moves
        }
    };
    let reader = Reader::new(appendix_d, languages.clone(), lang);
    let me = match config.game.my_colour {
        ColourChoice::Is(c) => c,
        ColourChoice::Random => random_colour(),
    };
    let (clock, clock_error) = clock_setup(&config.clock, over, &phraser, me);
    let app = App::builder()
        .clock(clock)
        .lang(lang)
        .me(me)
        .confirm_own_moves(config.announce.confirm_own_moves)
        .phraser(phraser.clone())
        .reader(reader)
        .keymap(keymap)
        .arg_words(languages.into_iter().map(|(_, w)| w).collect())
        .rated(config.game.rated);
    let mut tones = config.tones;
    if over.no_sound {
        tones.opponent_move = false;
        tones.check = false;
        tones.low_time = false;
        tones.flag_fall = false;
        tones.mismatch = false;
        tones.error = false;
    }
    Started {
        app,
        phraser,
        problems,
        speech: over.speech.unwrap_or_else(|| config.speech.mode()),
        speech_settings: config.speech.settings(),
        tones,
        board: config.board.clone(),
        clock_error,
        view: config.view.clone(),
        engine: config.engine.clone(),
        companion: config.companion.clone(),
        players: config.players.clone(),
    }
}

/// The clock from `[clock]` and the command line; a `--time` that cannot
/// be used gives no clock and the sentence that says why.
fn clock_setup(
    settings: &crate::config::ClockSettings,
    over: &Overrides,
    phraser: &Phraser,
    me: Color,
) -> (Option<ClockSetup>, Option<String>) {
    use crate::clock::{PressMode, Schedule, parse_spec, words};
    use crate::game::rules::Edition;
    let Some(spec) = over.time.as_ref().or(settings.time.as_ref()) else {
        return (None, None);
    };
    let control = match parse_spec(spec) {
        Ok(c) => c,
        Err(e) => return (None, Some(words::spec_error(phraser, &e))),
    };
    let mut setup = ClockSetup::new(control);
    let rules = over.rules.as_deref().unwrap_or(&settings.rules);
    setup.edition = Edition::from_name(rules).unwrap_or_default();
    setup.supervised = settings.supervised;
    setup.press = if over.press_separately || settings.press == "separate" {
        PressMode::Separate
    } else {
        PressMode::OnMove
    };
    let mut players = shakmaty::ByColor::new_with(|_| true);
    match settings.announce_for.as_str() {
        "mine" => players[!me] = false,
        "theirs" => players[me] = false,
        "none" => players = shakmaty::ByColor::new_with(|_| false),
        _ => {}
    }
    setup.schedule = Schedule {
        thresholds: settings
            .thresholds
            .iter()
            .map(|s| std::time::Duration::from_secs(*s))
            .collect(),
        countdown: settings.countdown,
        every_moves: (settings.every_moves > 0).then_some(settings.every_moves),
        players,
        period_end: true,
    };
    (Some(setup), None)
}

/// White or Black, by chance (`--me random`).
fn random_colour() -> Color {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0),
    );
    if h.finish().is_multiple_of(2) {
        Color::White
    } else {
        Color::Black
    }
}
