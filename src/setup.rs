//! From settings to a running app: loads the user's files over the built-in
//! ones, and turns every broken file into a sentence to say at start-up
//! while going on with the built-in default.

use std::path::PathBuf;

use shakmaty::Color;

use crate::app::{App, AppSetup};
use crate::config::{Config, MoveForm, MovesStyle};
use crate::keymap::Keymap;
use crate::notation::Reader;
use crate::speech::vocab::{self, Lang, VoiceFile};
use crate::speech::{Form, MoveOptions, Phraser};

/// Settings given on the command line, over the settings file.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct Overrides {
    /// How moves are said: FIDE Appendix D words (default) or the message language's words.
    #[arg(long, value_enum)]
    pub moves: Option<MovesStyle>,
    /// Language of every other message: en, de or it.
    #[arg(long = "lang", value_enum)]
    pub language: Option<crate::config::Language>,
    /// Short form (as on a scoresheet) or long form (with the from-square).
    #[arg(long, value_enum)]
    pub form: Option<MoveForm>,
    /// Name the captured piece ("schlägt Bauer David fünf").
    #[arg(long)]
    pub captured: bool,
    /// Say the colour before each move.
    #[arg(long)]
    pub colour: bool,
    /// Say the move number before each move.
    #[arg(long)]
    pub numbers: bool,
    /// Leave out the pawn word ("Eva vier" instead of "Bauer Eva vier").
    #[arg(long)]
    pub no_pawn_word: bool,
    /// Do not confirm your own moves (the opponent's are always said).
    #[arg(long)]
    pub no_confirm: bool,
    /// Your colour: the side whose pieces are "mine" (white or black).
    #[arg(long, value_parser = ["white", "black"])]
    pub me: Option<String>,
    /// Settings file to read instead of the one in your config directory.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// The app and the sentences to say before the first prompt.
pub struct Started {
    pub app: App,
    pub startup_messages: Vec<String>,
}

fn voice_or_builtin(
    path: Option<&PathBuf>,
    builtin: VoiceFile,
    problems: &mut Vec<String>,
) -> VoiceFile {
    match path {
        None => builtin,
        Some(p) => match vocab::load_voice_file(p) {
            Ok(v) => v,
            Err(e) => {
                problems.push(e.to_string());
                builtin
            }
        },
    }
}

/// Build the app from the settings file (if any) and the command line.
pub fn start(over: &Overrides) -> Started {
    let mut problems = Vec::new();
    let path = over.config.clone().or_else(Config::default_path);
    let mut config = match path {
        Some(p) => {
            let (c, e) = Config::load(&p);
            if let Some(e) = e {
                problems.push(e.to_string());
            }
            c
        }
        None => Config::default(),
    };
    let a = &mut config.announce;
    if let Some(m) = over.moves {
        a.moves = m;
    }
    if let Some(l) = over.language {
        a.language = l;
    }
    if let Some(f) = over.form {
        a.form = f;
    }
    a.name_captured |= over.captured;
    a.say_colour |= over.colour;
    a.say_number |= over.numbers;
    if over.no_pawn_word {
        a.pawn_word = false;
    }
    if over.no_confirm {
        a.confirm_own_moves = false;
    }
    if let Some(me) = &over.me {
        config.game.my_colour.clone_from(me);
    }

    let lang: Lang = config.announce.language.into();
    let messages = voice_or_builtin(
        config.files.messages_voice.as_ref(),
        vocab::builtin(lang),
        &mut problems,
    );
    let moves = match config.announce.moves {
        MovesStyle::AppendixD => voice_or_builtin(
            config.files.moves_voice.as_ref(),
            vocab::builtin_appendix_d(),
            &mut problems,
        ),
        MovesStyle::Language => messages.clone(),
    };
    let opts = MoveOptions {
        form: match config.announce.form {
            MoveForm::Short => Form::Short,
            MoveForm::Long => Form::Long,
        },
        name_captured: config.announce.name_captured,
        say_colour: config.announce.say_colour,
        say_number: config.announce.say_number,
        pawn_word: config.announce.pawn_word,
    };
    let phraser = match Phraser::new(&moves, &messages, opts) {
        Ok(p) => p,
        Err(e) => {
            problems.push(e.to_string());
            let style = match config.announce.moves {
                MovesStyle::AppendixD => crate::speech::MoveStyle::AppendixD,
                MovesStyle::Language => crate::speech::MoveStyle::Language,
            };
            Phraser::builtin(style, lang, opts)
        }
    };
    let keymap = match &config.files.line_keymap {
        None => Keymap::builtin(),
        Some(p) => Keymap::load(p).unwrap_or_else(|e| {
            problems.push(e.to_string());
            Keymap::builtin()
        }),
    };
    let mut languages: Vec<(Lang, vocab::MoveWords)> = Lang::ALL
        .into_iter()
        .map(|l| (l, vocab::builtin(l).moves))
        .collect();
    if let Some(entry) = languages.iter_mut().find(|(l, _)| *l == lang) {
        entry.1 = messages.moves.clone();
    }
    let appendix_d = match config.announce.moves {
        MovesStyle::AppendixD => moves.moves.clone(),
        MovesStyle::Language => vocab::builtin_appendix_d().moves,
    };
    let reader = Reader::new(appendix_d, languages.clone(), lang);
    let me = if config.game.my_colour == "black" {
        Color::Black
    } else {
        Color::White
    };
    let app = App::new(AppSetup {
        phraser,
        reader,
        keymap,
        arg_words: languages.into_iter().map(|(_, w)| w).collect(),
        me,
        confirm_own_moves: config.announce.confirm_own_moves,
    });
    let startup_messages = problems
        .into_iter()
        .map(|p| app.phraser().message("settings_problem", &[("problem", &p)]))
        .collect();
    Started {
        app,
        startup_messages,
    }
}
