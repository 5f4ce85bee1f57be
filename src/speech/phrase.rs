//! The [`Phraser`]: moves and events turned into one sentence each, from the
//! move words of one voices file and the messages of another.
//!
//! Two settings are independent: the move words ([`MoveStyle`]: FIDE
//! Appendix D, or the message language's own words) and the message
//! language.  Every word and every template comes from `voices/*.toml`; the
//! code only picks templates and fills them in.

use std::collections::BTreeMap;

use serde::Deserialize;
use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::{CastlingSide, Chess, Color, Move, Piece, Position, Role, Square};

use super::messages::check_messages;
use super::template;
use super::vocab::{
    self, Colours, GenderedPhrase, Lang, MoveWords, VoiceError, VoiceFile, parse_voice_file,
};

/// How a move is said.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MoveStyle {
    /// FIDE Appendix D words (`voices/appendix-d.toml`), German for the rest.
    #[default]
    AppendixD,
    /// The message language's own move words.
    Language,
}

/// How much a move announcement says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Form {
    /// As on a scoresheet: "Springer Felix drei".
    #[default]
    Short,
    /// With the from-square: "Springer Gustav eins Felix drei".
    Long,
}

/// The options of a move announcement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MoveOptions {
    pub form: Form,
    /// Name the captured piece: "Bauer Eva vier schlägt Bauer David fünf".
    pub name_captured: bool,
    /// Say the side first: "Weiß, Springer Felix drei".
    pub say_colour: bool,
    /// Say the move number: "12. Springer Felix drei".
    pub say_number: bool,
    /// Say the pawn word: "Bauer Eva vier" rather than "Eva vier".
    pub pawn_word: bool,
}

impl Default for MoveOptions {
    fn default() -> Self {
        MoveOptions {
            form: Form::Short,
            name_captured: false,
            say_colour: false,
            say_number: false,
            pawn_word: true,
        }
    }
}

/// Turns events into sentences.  Cheap to clone; built once at start-up.
#[derive(Debug, Clone)]
pub struct Phraser {
    pub(super) words: MoveWords,
    pub(super) move_lang: String,
    pub(super) msg_lang: String,
    pub(super) colours: Colours,
    pub(super) messages: BTreeMap<String, String>,
    pub(super) opts: MoveOptions,
}

/// A voices file to load: its name (for errors) and its text.
pub type Source<'a> = (&'a str, &'a str);

impl Phraser {
    /// A phraser from parsed files: `moves` gives the move words, `messages`
    /// the colours and messages (checked against the built-in English file).
    /// The parsed files do not know their name or lines, so an error names
    /// the message language's code as the file and has no line; use
    /// [`Phraser::from_sources`] for errors with file and line.
    ///
    /// # Errors
    ///
    /// [`VoiceError`] when `messages` has no `[colours]`, lacks a message key,
    /// has an unknown key or a template with an unknown placeholder.
    pub fn new(
        moves: &VoiceFile,
        messages: &VoiceFile,
        opts: MoveOptions,
    ) -> Result<Phraser, VoiceError> {
        check_messages(&messages.language.code, messages, None)?;
        Ok(Phraser::from_checked(moves, messages, opts))
    }

    /// A phraser from the text of two voices files, each `(name, text)`.
    ///
    /// # Errors
    ///
    /// [`VoiceError`] naming the file, line and key of the first problem.
    pub fn from_sources(
        moves: Source<'_>,
        messages: Source<'_>,
        opts: MoveOptions,
    ) -> Result<Phraser, VoiceError> {
        let moves_file = parse_voice_file(moves.0, moves.1)?;
        let messages_file = parse_voice_file(messages.0, messages.1)?;
        check_messages(messages.0, &messages_file, Some(messages.1))?;
        Ok(Phraser::from_checked(&moves_file, &messages_file, opts))
    }

    /// The user's files where given and good, the built-in ones otherwise.
    /// Every file that could not be used is returned as an error (to be
    /// announced, e.g. with [`Phraser::voice_error`]).
    pub fn load_or_builtin(
        style: MoveStyle,
        lang: Lang,
        moves: Option<Source<'_>>,
        messages: Option<Source<'_>>,
        opts: MoveOptions,
    ) -> (Phraser, Vec<VoiceError>) {
        let mut errors = Vec::new();
        let moves_file = moves
            .and_then(|(name, text)| {
                parse_voice_file(name, text)
                    .map_err(|e| errors.push(e))
                    .ok()
            })
            .unwrap_or_else(|| builtin_moves(style, lang));
        let messages_file = messages
            .and_then(|(name, text)| {
                parse_voice_file(name, text)
                    .and_then(|vf| check_messages(name, &vf, Some(text)).map(|()| vf))
                    .map_err(|e| errors.push(e))
                    .ok()
            })
            .unwrap_or_else(|| vocab::builtin(lang));
        (
            Phraser::from_checked(&moves_file, &messages_file, opts),
            errors,
        )
    }

    /// The built-in words: Appendix D or `lang`'s move words, `lang`'s
    /// messages.  The built-in files are checked by the tests
    /// (`builtin_message_files_pass`).
    pub fn builtin(style: MoveStyle, lang: Lang, opts: MoveOptions) -> Phraser {
        Phraser::from_checked(&builtin_moves(style, lang), &vocab::builtin(lang), opts)
    }

    fn from_checked(moves: &VoiceFile, messages: &VoiceFile, opts: MoveOptions) -> Phraser {
        let colours = messages.colours.clone().unwrap_or_else(|| {
            // Only reached with a file that skipped `check_messages`: fall
            // back to the English colours rather than fail.
            vocab::builtin(Lang::En)
                .colours
                .unwrap_or_else(|| empty_colours())
        });
        Phraser {
            words: moves.moves.clone(),
            move_lang: moves.language.code.clone(),
            msg_lang: messages.language.code.clone(),
            colours,
            messages: messages.messages.clone(),
            opts,
        }
    }

    /// The move options in use.
    pub fn options(&self) -> MoveOptions {
        self.opts
    }

    /// Change the move options.
    pub fn set_options(&mut self, opts: MoveOptions) {
        self.opts = opts;
    }

    /// Language code of the move words ("de" for Appendix D): selects the
    /// voice a move announcement is spoken with.
    pub fn move_lang(&self) -> &str {
        &self.move_lang
    }

    /// Language code of the messages.
    pub fn msg_lang(&self) -> &str {
        &self.msg_lang
    }

    /// The move words in use (also what typed moves are read with).
    pub fn move_words(&self) -> &MoveWords {
        &self.words
    }

    /// Any message by key, filled with `args`.  An unknown key gives the key
    /// itself, so a missing message is audible but never a crash.
    pub fn message(&self, key: &str, args: &[(&str, &str)]) -> String {
        match self.messages.get(key) {
            Some(t) => template::render(t, args),
            None => key.to_owned(),
        }
    }

    /// A square in the move words: "Felix drei".
    pub fn square(&self, sq: Square) -> String {
        self.words.square(sq)
    }

    /// A piece word: "Springer".
    pub fn piece(&self, role: Role) -> String {
        self.words.piece(role).to_owned()
    }

    /// A piece with its colour, in the message language, with the move
    /// words' piece word and gender: "white Springer", "weiße Dame".
    pub fn coloured_piece(&self, piece: Piece) -> String {
        let phrase = match piece.color {
            Color::White => &self.colours.white_piece,
            Color::Black => &self.colours.black_piece,
        };
        self.gendered(phrase, piece.role)
    }

    /// The same with the definite article where the language has one:
    /// "the white Springer", "der weiße Springer".
    pub fn the_coloured_piece(&self, piece: Piece) -> String {
        let phrase = match piece.color {
            Color::White => self.colours.the_white_piece.as_ref(),
            Color::Black => self.colours.the_black_piece.as_ref(),
        };
        match phrase {
            Some(p) => self.gendered(p, piece.role),
            None => self.coloured_piece(piece),
        }
    }

    fn gendered(&self, phrase: &GenderedPhrase, role: Role) -> String {
        let form = phrase.for_gender(self.words.gender(role));
        template::render(form, &[("piece", self.words.piece(role))])
    }

    /// A side in the message language: "White", "Weiß", "Bianco".
    pub fn side(&self, color: Color) -> String {
        match color {
            Color::White => self.colours.white.clone(),
            Color::Black => self.colours.black.clone(),
        }
    }

    /// A side in the move words when they name the sides, for a move said
    /// with its colour (spoken with the move voice).
    fn move_side(&self, color: Color) -> String {
        self.words
            .side(color)
            .map_or_else(|| self.side(color), str::to_owned)
    }

    /// The announcement of `mv`, played in `before`: the move in the chosen
    /// form with check or mate, then the move number and the side if the
    /// options ask for them.  `mv` should be legal in `before`; an illegal
    /// move is still described, without check or mate.
    pub fn say_move(&self, before: &Chess, mv: Move) -> String {
        let mut said = self.move_phrase(before, mv);
        if self.opts.say_number {
            let key = match before.turn() {
                Color::White => "move_number_white",
                Color::Black => "move_number_black",
            };
            let number = before.fullmoves().to_string();
            said = self.message(key, &[("number", &number), ("move", &said)]);
        }
        if self.opts.say_colour {
            let side = self.move_side(before.turn());
            said = self.message("move_side", &[("side", &side), ("move", &said)]);
        }
        said
    }

    /// The move with check or mate, without number or side.
    pub fn move_phrase(&self, before: &Chess, mv: Move) -> String {
        let san_plus = SanPlus::from_move(before.clone(), mv);
        let body = self.move_body(mv, san_plus.san, self.opts.form);
        let check = match san_plus.suffix {
            Some(Suffix::Check) => &self.words.check,
            Some(Suffix::Checkmate) => &self.words.checkmate,
            None => return body,
        };
        self.message("move_check", &[("move", &body), ("check", check)])
    }

    /// The move alone, in `form`: no check, number or side.  `san` gives the
    /// disambiguation of the short form.
    pub(super) fn move_body(&self, mv: Move, san: San, form: Form) -> String {
        let w = &self.words;
        match mv {
            Move::Castle { king, rook } => {
                let side = if rook.file() > king.file() {
                    CastlingSide::KingSide
                } else {
                    CastlingSide::QueenSide
                };
                self.castle(side).to_owned()
            }
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => self.piece_move(role, from, capture, to, promotion, false, san, form),
            Move::EnPassant { from, to } => self.piece_move(
                Role::Pawn,
                from,
                Some(Role::Pawn),
                to,
                None,
                true,
                san,
                form,
            ),
            Move::Put { role, to } => [w.piece(role).to_owned(), w.square(to)].join(" "),
        }
    }

    pub(super) fn castle(&self, side: CastlingSide) -> &str {
        match side {
            CastlingSide::KingSide => &self.words.short_castle,
            CastlingSide::QueenSide => &self.words.long_castle,
        }
    }

    #[allow(clippy::too_many_arguments)] // the parts of one move
    fn piece_move(
        &self,
        role: Role,
        from: Square,
        capture: Option<Role>,
        to: Square,
        promotion: Option<Role>,
        en_passant: bool,
        san: San,
        form: Form,
    ) -> String {
        let w = &self.words;
        let mut parts: Vec<String> = Vec::new();
        if role != Role::Pawn || self.opts.pawn_word {
            parts.push(w.piece(role).to_owned());
        }
        match form {
            Form::Long => parts.push(w.square(from)),
            Form::Short => {
                if let San::Normal { file, rank, .. } = san {
                    match (file, rank) {
                        (Some(f), Some(r)) => parts.push(w.square(Square::from_coords(f, r))),
                        (Some(f), None) => parts.push(w.file(f).to_owned()),
                        (None, Some(r)) => parts.push(w.rank(r).to_owned()),
                        (None, None) => {}
                    }
                }
            }
        }
        if let Some(captured) = capture {
            parts.push(w.captures.clone());
            if self.opts.name_captured {
                parts.push(w.piece(captured).to_owned());
            }
        }
        parts.push(w.square(to));
        if let Some(p) = promotion {
            parts.push(w.promotes.clone());
            parts.push(w.piece(p).to_owned());
        }
        if en_passant {
            parts.push(w.en_passant.clone());
        }
        parts.join(" ")
    }

    /// "{piece} {square}" from the message language's `piece_at`.
    pub(super) fn piece_at(&self, role: Role, sq: Square) -> String {
        let piece = self.piece(role);
        let square = self.square(sq);
        self.message("piece_at", &[("piece", &piece), ("square", &square)])
    }

    /// "a, b and c" with `last` ("list_and" / "list_or") before the last item.
    pub(super) fn join(&self, items: &[String], last: &str) -> String {
        let comma = self.message("list_comma", &[]);
        let last = self.message(last, &[]);
        match items {
            [] => String::new(),
            [one] => one.clone(),
            [init @ .., tail] => format!("{}{last}{tail}", init.join(&comma)),
        }
    }

    /// A count that begins a sentence: "Two", "Zwei"; digits past the words.
    pub(super) fn count_word(&self, n: usize) -> String {
        self.messages
            .get(&format!("count_{n}"))
            .cloned()
            .unwrap_or_else(|| n.to_string())
    }

    /// Announce a voices file that could not be used.
    pub fn voice_error(&self, err: &VoiceError) -> String {
        let place = self.place(&err.file, err.line, err.key.as_deref());
        self.message(
            "voices_error",
            &[("place", &place), ("detail", &err.detail)],
        )
    }

    /// "file, line 3, key moves.captures", as far as they are known.
    pub fn place(&self, file: &str, line: Option<usize>, key: Option<&str>) -> String {
        let mut place = file.to_owned();
        if let Some(line) = line {
            let line = line.to_string();
            place = self.message("place_line", &[("place", &place), ("line", &line)]);
        }
        if let Some(key) = key {
            place = self.message("place_key", &[("place", &place), ("key", key)]);
        }
        place
    }
}

fn builtin_moves(style: MoveStyle, lang: Lang) -> VoiceFile {
    match style {
        MoveStyle::AppendixD => vocab::builtin_appendix_d(),
        MoveStyle::Language => vocab::builtin(lang),
    }
}

fn empty_colours() -> Colours {
    let phrase = GenderedPhrase {
        m: "{piece}".to_owned(),
        f: None,
        n: None,
    };
    Colours {
        white_piece: phrase.clone(),
        black_piece: phrase,
        white: String::new(),
        black: String::new(),
        the_white_piece: None,
        the_black_piece: None,
    }
}
