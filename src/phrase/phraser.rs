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

use super::messages::{check_messages, complete_from};
use crate::words::joins::{self, Join};
use crate::words::template;
use crate::words::vocab::{
    self, Colours, Gender, GenderedPhrase, Lang, MoveWords, VoiceError, VoiceFile, parse_voice_file,
};

/// How a move is said.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum MoveStyle {
    /// FIDE Appendix D words (`voices/appendix-d.toml`), German for the rest.
    #[default]
    AppendixD,
    /// The message language's own move words.
    Language,
}

/// How much a move announcement says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Deserialize, clap::ValueEnum)]
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
    /// Short (as on a scoresheet) or long (with the from-square).
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
    /// Numbers in words and the counted nouns of the message language.
    pub(super) counting: template::Counting,
    /// Elision and other joins of the message language.
    pub(super) joins: Vec<Join>,
    pub(super) opts: MoveOptions,
    /// The single words of the move words (squares, pieces, castling,
    /// check …), for [`Phraser::by_language`]: gathered once, not for
    /// every sentence said.
    move_vocabulary: Vec<String>,
}

/// A voices file to load: its name (for errors) and its text.
pub type Source<'a> = (&'a str, &'a str);

/// The single words (runs of letters and digits) of the move words: the
/// files and ranks, the pieces (one and many), castling, captures, check
/// and mate, en passant, promotion and the sides' names.
fn move_vocabulary(w: &MoveWords) -> Vec<String> {
    let roles = [
        Role::King,
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ];
    let mut vocabulary: Vec<String> = Vec::new();
    for phrase in w
        .files
        .iter()
        .chain(&w.ranks)
        .map(String::as_str)
        .chain(roles.iter().map(|r| w.piece(*r)))
        .chain(roles.iter().map(|r| w.plural(*r)))
        .chain([
            w.short_castle.as_str(),
            w.long_castle.as_str(),
            w.captures.as_str(),
            w.check.as_str(),
            w.checkmate.as_str(),
            w.en_passant.as_str(),
            w.promotes.as_str(),
        ])
        .chain(
            [Color::White, Color::Black]
                .into_iter()
                .filter_map(|c| w.side(c)),
        )
    {
        for word in phrase
            .split(|c: char| !c.is_alphanumeric())
            .filter(|s| !s.is_empty())
        {
            if !vocabulary.iter().any(|v| v == word) {
                vocabulary.push(word.to_owned());
            }
        }
    }
    vocabulary
}

impl Phraser {
    /// A phraser from parsed files: `moves` gives the move words, `messages`
    /// the colours and messages (checked against the built-in English file).
    /// The parsed files do not know their name or lines, so an error names
    /// the message language's code as the file and has no line; use
    /// [`Phraser::from_sources`] for errors with file and line.
    ///
    /// # Errors
    ///
    /// `VoiceError` when `messages` has no `[colours]`, lacks a message key,
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
    /// `VoiceError` naming the file, line and key of the first problem.
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
        // A user's message file that parses is used; what it lacks or has
        // wrong is said (file, line, key) and taken from the built-in file
        // of its language, so nothing is lost.
        let messages_file = messages
            .and_then(|(name, text)| {
                let vf = parse_voice_file(name, text)
                    .map_err(|e| errors.push(e))
                    .ok()?;
                let base_lang = Lang::ALL
                    .into_iter()
                    .find(|l| l.code() == vf.language.code)
                    .unwrap_or(lang);
                let (vf, gaps) = complete_from(name, text, vf, &vocab::builtin(base_lang));
                errors.extend(gaps);
                Some(vf)
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
        // Only a file that skipped `check_messages` lacks colours: fall back
        // to the English ones rather than fail.
        let colours = messages
            .colours
            .clone()
            .or_else(|| vocab::builtin(Lang::En).colours)
            .unwrap_or_else(empty_colours);
        Phraser {
            words: moves.moves.clone(),
            move_lang: moves.language.code.clone(),
            msg_lang: messages.language.code.clone(),
            colours,
            messages: messages.messages.clone(),
            counting: template::Counting {
                numbers: messages.numbers.clone(),
                nouns: messages.nouns.clone(),
            },
            joins: messages.joins.clone(),
            opts,
            move_vocabulary: move_vocabulary(&moves.moves),
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

    /// What the action named `action` does, reached by `keys` in the
    /// full-screen view: its `keys_<action>` sentence where the key acts
    /// on the cursor or says how to type it (no line-mode arguments after
    /// the keys: "Space s: what is on the square under the cursor."),
    /// else its `help_<action>`.
    pub fn key_help(&self, action: &str, keys: &str) -> String {
        let own = format!("keys_{action}");
        let key = if self.messages.contains_key(&own) {
            own
        } else {
            format!("help_{action}")
        };
        self.message(&key, &[("command", keys)])
    }

    /// Any message by key, filled with `args`.  A key this voice lacks
    /// is said in the built-in English sentence, and a key English lacks
    /// too as the key itself: never a crash for the player.  The tests of
    /// the crate panic instead, naming the key (`phrase/keys.rs` checks
    /// every key in the code against the voices before it runs).
    pub fn message(&self, key: &str, args: &[(&str, &str)]) -> String {
        let template = self
            .messages
            .get(key)
            .or_else(|| super::messages::english(key));
        #[cfg(test)]
        assert!(template.is_some(), "message key `{key}` is in no voice");
        match template {
            Some(t) => {
                let extra = self.implied_args(t, args);
                let mut all: Vec<(&str, &str)> = args.to_vec();
                all.extend(extra.iter().map(|(k, v)| (*k, v.as_str())));
                let words = self.english_piece_words();
                if words.is_empty() {
                    let said = template::render_counted(t, &all, &self.counting);
                    return joins::apply(&said, &self.joins, self.counting.numbers.as_ref());
                }
                // Names and typed text keep their capitals ("Anna Bishop"):
                // they are set aside while the piece words are cased.
                let kept: Vec<(usize, String)> = all
                    .iter()
                    .enumerate()
                    .filter(|(_, (k, v))| !PIECE_WORD_ARGS.contains(k) && has_any_word(v, &words))
                    .map(|(i, _)| (i, format!("\u{e000}{i}\u{e001}")))
                    .collect();
                for (i, mark) in &kept {
                    all[*i].1 = mark.as_str();
                }
                let said = template::render_counted(t, &all, &self.counting);
                let said = joins::apply(&said, &self.joins, self.counting.numbers.as_ref());
                let mut said = pieces_in_lower_case(&said, &words);
                for (i, mark) in &kept {
                    let original = args
                        .get(*i)
                        .map(|(_, v)| *v)
                        .or_else(|| extra.get(i - args.len()).map(|(_, v)| v.as_str()))
                        .unwrap_or_default();
                    said = said.replace(mark.as_str(), original);
                }
                said
            }
            None => key.to_owned(),
        }
    }

    /// The English move words' piece words that have a capital (King,
    /// Queens …); none when the move words are not English.  They are
    /// written with a capital where a move begins ("Queen h5"), in lower
    /// case inside a sentence ("the white queen", "no king can reach e2").
    /// Other languages keep theirs: German nouns (the Appendix D words) are
    /// capitalised, and so are the Greek FIDE Laws' piece names.
    fn english_piece_words(&self) -> Vec<&str> {
        if self.move_lang.split(['-', '_']).next() != Some("en") {
            return Vec::new();
        }
        [
            Role::King,
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
            Role::Pawn,
        ]
        .iter()
        .flat_map(|r| [self.words.piece(*r), self.words.plural(*r)])
        .filter(|w| w.chars().next().is_some_and(char::is_uppercase))
        .collect()
    }

    /// Placeholders every template may use, filled from the move words:
    /// `{promotion_pieces}` ("Dame, Turm, Läufer oder Springer",
    /// "Donna, Torre, Alfiere o Cavallo") and `{example_square}` (f3 in the
    /// move words: "Felix drei", "ζ3").
    fn implied_args(&self, template: &str, given: &[(&str, &str)]) -> Vec<(&'static str, String)> {
        let wants = |name: &str| {
            template.contains(&format!("{{{name}}}")) && !given.iter().any(|(k, _)| *k == name)
        };
        let mut out = Vec::new();
        if wants("promotion_pieces") {
            let names: Vec<String> = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight]
                .into_iter()
                .map(|r| self.piece(r))
                .collect();
            out.push(("promotion_pieces", self.join(&names, "list_or")));
        }
        if wants("example_square") {
            out.push(("example_square", self.square(Square::F3)));
        }
        out
    }

    /// A date in words, as the resume question says it ("November
    /// twenty-fifth, two thousand twenty-six", "fünfundzwanzigsten November
    /// zweitausendsechsundzwanzig"): a voice hears no digits.  A day or
    /// month out of range gives the digits.
    pub fn date_words(&self, year: i32, month: u8, day: u8) -> String {
        if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
            return format!("{year}-{month:02}-{day:02}");
        }
        let year = u64::try_from(year).map_or_else(|_| year.to_string(), |y| self.number(y));
        self.message(
            "date_words",
            &[
                ("day", &self.message(&format!("day_{day}"), &[])),
                ("month", &self.message(&format!("month_{month}"), &[])),
                ("year", &year),
            ],
        )
    }

    /// A PGN date ("2024.01.05") in words, as [`Phraser::date_words`]; a
    /// date with only its year known ("2024.??.??") is the year in words;
    /// `None` for a date not known at all or not a PGN date.
    pub fn pgn_date_words(&self, date: &str) -> Option<String> {
        let mut parts = date.trim().split('.');
        let year = parts.next()?.parse::<i32>().ok()?;
        let month = parts.next().and_then(|m| m.parse::<u8>().ok());
        let day = parts.next().and_then(|d| d.parse::<u8>().ok());
        Some(match (month, day) {
            (Some(m), Some(d)) => self.date_words(year, m, d),
            _ => u64::try_from(year).map_or_else(|_| year.to_string(), |y| self.number(y)),
        })
    }

    /// A number in words in the message language ("twelve", "zwölf"), as
    /// counted aloud; digits past the words.
    pub fn number(&self, n: u64) -> String {
        match &self.counting.numbers {
            Some(numbers) => numbers.say(n, None),
            None => n.to_string(),
        }
    }

    /// A number the player typed in words in the message language ("two",
    /// "zwei", "due", "δύο"; any gender's form), or in digits; up to 999.
    pub fn read_number(&self, text: &str) -> Option<u64> {
        let text = text.trim();
        if let Ok(n) = text.parse::<u64>() {
            return Some(n);
        }
        let numbers = self.counting.numbers.as_ref()?;
        let text = text.to_lowercase();
        let genders = [
            None,
            Some(Gender::Masculine),
            Some(Gender::Feminine),
            Some(Gender::Neuter),
        ];
        (0..1000).find(|&n| {
            genders.iter().any(|&g| {
                numbers
                    .cardinal(n, g)
                    .is_some_and(|w| w.to_lowercase() == text)
            })
        })
    }

    /// `text` cut into stretches by language, each with its language code,
    /// so that every word is spoken in its own voice: the move words in it
    /// (squares, pieces, castling, check: "Felix sechs", "Springer Gustav
    /// acht") in the move language, the rest in the message language.  The
    /// stretches, joined, are `text`; nothing is respelled.  One stretch
    /// when the move words are the message language's own.
    pub fn by_language<'t>(&self, text: &'t str) -> Vec<(&'t str, &str)> {
        let same = |a: &str, b: &str| {
            let primary = |t: &str| {
                t.split(['-', '_'])
                    .next()
                    .unwrap_or_default()
                    .to_ascii_lowercase()
            };
            primary(a) == primary(b)
        };
        if text.is_empty() || same(&self.move_lang, &self.msg_lang) {
            return vec![(text, self.msg_lang.as_str())];
        }
        let vocabulary = &self.move_vocabulary;
        // Words (runs of letters and digits) and what lies between them.
        let mut tokens: Vec<(usize, usize, bool)> = Vec::new();
        let mut start = 0;
        let mut in_word = false;
        for (i, c) in text.char_indices() {
            let word_char = c.is_alphanumeric();
            if word_char != in_word {
                if i > start {
                    tokens.push((start, i, in_word));
                }
                start = i;
                in_word = word_char;
            }
        }
        if start < text.len() {
            tokens.push((start, text.len(), in_word));
        }
        let is_move_word = |(a, b, word): (usize, usize, bool)| {
            word && vocabulary.iter().any(|v| *v == text[a..b])
        };
        // A stretch of move words: move words with only spaces between them.
        let mut marks = vec![false; tokens.len()];
        for (i, t) in tokens.iter().enumerate() {
            if is_move_word(*t) {
                marks[i] = true;
                if i >= 2
                    && marks[i - 2]
                    && text[tokens[i - 1].0..tokens[i - 1].1]
                        .chars()
                        .all(|c| c == ' ')
                {
                    marks[i - 1] = true;
                }
            }
        }
        let mut out: Vec<(&'t str, &str)> = Vec::new();
        let mut from = 0;
        for (i, (a, b, _)) in tokens.iter().enumerate() {
            let lang = if marks[i] {
                self.move_lang.as_str()
            } else {
                self.msg_lang.as_str()
            };
            match out.last_mut() {
                Some((stretch, l)) if *l == lang => *stretch = &text[from..*b],
                _ => {
                    from = *a;
                    out.push((&text[*a..*b], lang));
                }
            }
        }
        out
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

    /// "No" with a piece, agreeing with it: "no Bauer", "keine Dame",
    /// "nessun Cavallo" (the piece word alone in a file without it).
    pub fn no_piece(&self, role: Role) -> String {
        match &self.colours.no_piece {
            Some(p) => self.gendered(p, role),
            None => self.piece(role),
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

    /// A player's name, or the side's word when there is none (empty, or
    /// PGN's "?" and "-"): "White against Black", never "? against ?".
    pub fn player(&self, name: &str, color: Color) -> String {
        match name.trim() {
            "" | "?" | "-" => self.side(color),
            n => n.to_owned(),
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
        // The from-square, or in the short form the SAN's disambiguation.
        let origin = match (form, san) {
            (Form::Long, _) => Some(w.square(from)),
            (Form::Short, San::Normal { file, rank, .. }) => match (file, rank) {
                (Some(f), Some(r)) => Some(w.square(Square::from_coords(f, r))),
                (Some(f), None) => Some(w.file(f).to_owned()),
                (None, Some(r)) => Some(w.rank(r).to_owned()),
                (None, None) => None,
            },
            (Form::Short, _) => None,
        };
        match (origin, capture) {
            (Some(origin), None) if form == Form::Short => {
                // Written together like a square: "Bella David zwei", "bd2".
                parts.push(format!("{origin}{}{}", w.square_separator, w.square(to)));
            }
            (origin, capture) => {
                parts.extend(origin);
                if let Some(captured) = capture {
                    parts.push(w.captures.clone());
                    if self.opts.name_captured {
                        parts.push(w.piece(captured).to_owned());
                    }
                }
                parts.push(w.square(to));
            }
        }
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

    /// "a, b and c", as the message language writes a list.
    pub fn list(&self, items: &[String]) -> String {
        self.join(items, "list_and")
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
        no_piece: None,
    }
}

/// The placeholders whose values are hector's own words about pieces and
/// moves (cased like the sentence); every other value (a name, a path,
/// typed text) is kept as given.
const PIECE_WORD_ARGS: &[&str] = &[
    "piece",
    "pieces",
    "list",
    "found",
    "reason",
    "move",
    "moves",
    "castle",
    "rook",
    "what",
    "owner",
    "turn",
    "how",
    "reading",
    "check",
    "san",
    "promotion_pieces",
];

/// Whether `text` holds one of `words` as a whole word.
fn has_any_word(text: &str, words: &[&str]) -> bool {
    text.split(|c: char| !c.is_alphanumeric())
        .any(|w| words.contains(&w))
}

/// `words` in lower case wherever they are not the first word of a
/// sentence (the start, or after `.`, `!`, `?`).
fn pieces_in_lower_case(text: &str, words: &[&str]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut at_start = true;
    while let Some(c) = rest.chars().next() {
        let word_len = rest
            .find(|c: char| !c.is_alphanumeric())
            .unwrap_or(rest.len());
        if word_len == 0 {
            out.push(c);
            if c == '.' || c == '!' || c == '?' {
                at_start = true;
            } else if !c.is_whitespace() {
                at_start = false;
            }
            rest = &rest[c.len_utf8()..];
            continue;
        }
        let word = &rest[..word_len];
        if !at_start && words.contains(&word) {
            out.push_str(&word.to_lowercase());
        } else {
            out.push_str(word);
        }
        at_start = false;
        rest = &rest[word_len..];
    }
    out
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::phrase::test_util::last;
    use shakmaty::san::SanPlus;

    /// A number typed in words, as the player may when hector asks for one
    /// (which lichess game to play): before, digits only.
    #[test]
    fn a_number_typed_in_words_is_read_in_each_language() {
        let p = |lang| Phraser::builtin(MoveStyle::AppendixD, lang, MoveOptions::default());
        assert_eq!(p(Lang::En).read_number(" Two "), Some(2));
        assert_eq!(p(Lang::En).read_number("twenty-one"), Some(21));
        assert_eq!(p(Lang::De).read_number("zwei"), Some(2));
        assert_eq!(p(Lang::De).read_number("eins"), Some(1));
        assert_eq!(p(Lang::It).read_number("tre"), Some(3));
        assert_eq!(p(Lang::El).read_number("τρία"), Some(3));
        assert_eq!(p(Lang::El).read_number("τρεις"), Some(3));
        assert_eq!(p(Lang::En).read_number("12"), Some(12));
        assert_eq!(p(Lang::En).read_number("zwei"), None);
        assert_eq!(p(Lang::En).read_number("Nf3"), None);
    }

    /// Issue 30, item 17: a review's dates were said as digits
    /// ("2024.01.01").
    #[test]
    fn pgn_dates_in_words() {
        let de = Phraser::builtin(MoveStyle::AppendixD, Lang::De, MoveOptions::default());
        let en = Phraser::builtin(MoveStyle::AppendixD, Lang::En, MoveOptions::default());
        assert_eq!(
            en.pgn_date_words("2024.01.01").as_deref(),
            Some("January first, two thousand twenty-four")
        );
        assert_eq!(
            en.pgn_date_words("2024.??.??").as_deref(),
            Some("two thousand twenty-four")
        );
        assert_eq!(en.pgn_date_words("????.??.??"), None);
        let said = de.pgn_date_words("2024.01.01").unwrap_or_default();
        assert!(!said.chars().any(|c| c.is_ascii_digit()), "{said}");
    }

    #[test]
    fn appendix_d_words_in_a_message_are_stretches_of_their_own() {
        let p = appendix_d(MoveOptions::default());
        let text = "Felix sechs is attacked by Springer Gustav acht and Bauer Eva fünf.";
        let by = p.by_language(text);
        assert_eq!(
            by,
            [
                ("Felix sechs", "de"),
                (" is attacked by ", "en"),
                ("Springer Gustav acht", "de"),
                (" and ", "en"),
                ("Bauer Eva fünf", "de"),
                (".", "en"),
            ]
        );
        assert_eq!(by.iter().map(|(t, _)| *t).collect::<String>(), text);
        assert_eq!(p.by_language("White to move."), [("White to move.", "en")]);
        assert_eq!(
            p.by_language("Kurze Rochade, Schach"),
            [("Kurze Rochade", "de"), (", ", "en"), ("Schach", "de")]
        );
    }

    #[test]
    fn no_stretches_when_the_move_words_are_the_message_language() {
        let p = Phraser::builtin(MoveStyle::AppendixD, Lang::De, MoveOptions::default());
        assert_eq!(
            p.by_language("Felix sechs wird angegriffen"),
            [("Felix sechs wird angegriffen", "de")]
        );
        let p = Phraser::builtin(MoveStyle::Language, Lang::En, MoveOptions::default());
        assert_eq!(
            p.by_language("knight f3 is attacked"),
            [("knight f3 is attacked", "en")]
        );
    }

    fn appendix_d(opts: MoveOptions) -> Phraser {
        Phraser::builtin(MoveStyle::AppendixD, Lang::En, opts)
    }

    fn long_captured() -> MoveOptions {
        MoveOptions {
            form: Form::Long,
            name_captured: true,
            ..MoveOptions::default()
        }
    }

    /// Every row of the forms table in ANNOUNCEMENTS.md: the game that
    /// reaches the move, its SAN, the short form, the long form with the
    /// captured piece.
    const TABLE: [(&str, &str, &str, &str); 9] = [
        (
            "1. Nf3",
            "Nf3",
            "Springer Felix drei",
            "Springer Gustav eins Felix drei",
        ),
        ("1. e4", "e4", "Bauer Eva vier", "Bauer Eva zwei Eva vier"),
        (
            "1. e4 d5 2. exd5",
            "exd5",
            "Bauer Eva schlägt David fünf",
            "Bauer Eva vier schlägt Bauer David fünf",
        ),
        (
            "1. d4 d5 2. Nf3 Nf6 3. Nbd2",
            "Nbd2",
            "Springer Bella David zwei",
            "Springer Bella eins David zwei",
        ),
        (
            "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. Re1 d6 6. a4 a6 7. Ra3 h6 8. Rae3 h5 9. R1e2",
            "R1e2",
            "Turm eins Eva zwei",
            "Turm Eva eins Eva zwei",
        ),
        (
            "1. d4 d5 2. Nc3 Nc6 3. Bf4 Bf5 4. Qd2 Qd7 5. O-O-O",
            "O-O-O",
            "Lange Rochade",
            "Lange Rochade",
        ),
        (
            "1. e4 a6 2. e5 d5 3. exd6",
            "exd6",
            "Bauer Eva schlägt David sechs en passant",
            "Bauer Eva fünf schlägt Bauer David sechs en passant",
        ),
        (
            "1. e4 e5 2. d4 exd4 3. e5 f5 4. e6 Nf6 5. e7 Kf7 6. e8=Q+",
            "e8=Q+",
            "Bauer Eva acht wird Dame, Schach",
            "Bauer Eva sieben Eva acht wird Dame, Schach",
        ),
        (
            "1. e4 f6 2. d4 g5 3. Qh5#",
            "Qh5#",
            "Dame Hector fünf, Schachmatt",
            "Dame David eins Hector fünf, Schachmatt",
        ),
    ];

    #[test]
    fn forms_table_short() {
        let p = appendix_d(MoveOptions::default());
        for (line, san, short, _) in TABLE {
            let (pos, mv) = last(line);
            assert_eq!(SanPlus::from_move(pos.clone(), mv).to_string(), san);
            assert_eq!(p.say_move(&pos, mv), short, "{san}");
        }
    }

    #[test]
    fn forms_table_long_with_captured_piece() {
        let p = appendix_d(long_captured());
        for (line, san, _, long) in TABLE {
            let (pos, mv) = last(line);
            assert_eq!(p.say_move(&pos, mv), long, "{san}");
        }
    }

    #[test]
    fn appendix_d_words_do_not_depend_on_the_message_language() {
        for lang in Lang::ALL {
            let p = Phraser::builtin(MoveStyle::AppendixD, lang, MoveOptions::default());
            let (pos, mv) = last(TABLE[2].0);
            assert_eq!(p.say_move(&pos, mv), "Bauer Eva schlägt David fünf");
            assert_eq!(p.move_lang(), "de");
            assert_eq!(p.msg_lang(), lang.code());
        }
    }

    #[test]
    fn long_form_without_captured_piece() {
        let p = appendix_d(MoveOptions {
            form: Form::Long,
            ..MoveOptions::default()
        });
        let (pos, mv) = last("1. e4 d5 2. exd5");
        assert_eq!(p.say_move(&pos, mv), "Bauer Eva vier schlägt David fünf");
    }

    #[test]
    fn short_form_with_captured_piece() {
        let p = appendix_d(MoveOptions {
            name_captured: true,
            ..MoveOptions::default()
        });
        let (pos, mv) = last("1. e4 d5 2. exd5 Qxd5");
        assert_eq!(p.say_move(&pos, mv), "Dame schlägt Bauer David fünf");
    }

    #[test]
    fn short_castling() {
        let p = appendix_d(MoveOptions::default());
        let (pos, mv) = last("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O");
        assert_eq!(p.say_move(&pos, mv), "Kurze Rochade");
    }

    const ENGLISH: [(&str, &str); 8] = [
        ("1. Nf3", "Knight f3"),
        ("1. e4", "pawn e4"),
        ("1. e4 d5 2. exd5", "pawn e takes d5"),
        ("1. e4 e5 2. Nf3 f6 3. Nxe5", "Knight takes e5"),
        ("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O", "short castling"),
        (
            "1. d4 d5 2. Nc3 Nc6 3. Bf4 Bf5 4. Qd2 Qd7 5. O-O-O",
            "long castling",
        ),
        (
            "1. e4 e5 2. d4 exd4 3. e5 f5 4. e6 Nf6 5. e7 Kf7 6. e8=Q+",
            "pawn e8 promotes to queen, check",
        ),
        ("1. e4 f6 2. d4 g5 3. Qh5#", "Queen h5, checkmate"),
    ];

    #[test]
    fn english_move_words() {
        let p = Phraser::builtin(MoveStyle::Language, Lang::En, MoveOptions::default());
        assert_eq!(p.move_lang(), "en");
        for (line, said) in ENGLISH {
            let (pos, mv) = last(line);
            assert_eq!(p.say_move(&pos, mv), said);
        }
        let (pos, mv) = last("1. e4 a6 2. e5 d5 3. exd6");
        assert_eq!(p.say_move(&pos, mv), "pawn e takes d6 en passant");
        // the disambiguation is written to the square, as on a scoresheet
        let (pos, mv) = last(TABLE[3].0);
        assert_eq!(p.say_move(&pos, mv), "Knight bd2");
        let (pos, mv) = last(TABLE[4].0);
        assert_eq!(p.say_move(&pos, mv), "Rook 1e2");
    }

    #[test]
    fn italian_move_words() {
        let p = Phraser::builtin(MoveStyle::Language, Lang::It, MoveOptions::default());
        assert_eq!(p.move_lang(), "it");
        let expected = [
            "Cavallo f3",
            "pedone e4",
            "pedone e prende d5",
            "Cavallo prende e5",
            "arrocco corto",
            "arrocco lungo",
            "pedone e8 promuove a Donna, scacco",
            "Donna h5, scacco matto",
        ];
        for ((line, _), said) in ENGLISH.iter().zip(expected) {
            let (pos, mv) = last(line);
            assert_eq!(p.say_move(&pos, mv), said);
        }
    }

    #[test]
    fn german_move_words() {
        let p = Phraser::builtin(MoveStyle::Language, Lang::De, MoveOptions::default());
        let (pos, mv) = last("1. d4 d5 2. Nf3 Nf6 3. Nbd2");
        assert_eq!(p.say_move(&pos, mv), "Springer bd2");
        let (pos, mv) = last("1. e4 f6 2. d4 g5 3. Qh5#");
        assert_eq!(p.say_move(&pos, mv), "Dame h5, Schachmatt");
    }

    #[test]
    fn pawn_word_off() {
        let p = appendix_d(MoveOptions {
            pawn_word: false,
            ..MoveOptions::default()
        });
        let (pos, mv) = last("1. e4");
        assert_eq!(p.say_move(&pos, mv), "Eva vier");
        let (pos, mv) = last("1. e4 d5 2. exd5");
        assert_eq!(p.say_move(&pos, mv), "Eva schlägt David fünf");
        // the other pieces keep their word
        let (pos, mv) = last("1. Nf3");
        assert_eq!(p.say_move(&pos, mv), "Springer Felix drei");
        let long = appendix_d(MoveOptions {
            pawn_word: false,
            form: Form::Long,
            ..MoveOptions::default()
        });
        let (pos, mv) = last("1. e4");
        assert_eq!(long.say_move(&pos, mv), "Eva zwei Eva vier");
    }

    #[test]
    fn colour_and_number() {
        let both = MoveOptions {
            say_colour: true,
            say_number: true,
            ..MoveOptions::default()
        };
        let p = appendix_d(both);
        let (pos, mv) = last("1. e4 e5 2. Nf3");
        assert_eq!(p.say_move(&pos, mv), "Weiß, 2. Springer Felix drei");
        let (pos, mv) = last("1. e4 e5 2. Nf3 Nc6");
        assert_eq!(p.say_move(&pos, mv), "Schwarz, 2... Springer Cesar sechs");

        let colour = appendix_d(MoveOptions {
            say_colour: true,
            ..MoveOptions::default()
        });
        assert_eq!(colour.say_move(&pos, mv), "Schwarz, Springer Cesar sechs");
        let number = appendix_d(MoveOptions {
            say_number: true,
            ..MoveOptions::default()
        });
        assert_eq!(number.say_move(&pos, mv), "2... Springer Cesar sechs");

        let en = Phraser::builtin(MoveStyle::Language, Lang::En, both);
        assert_eq!(en.say_move(&pos, mv), "Black, 2... Knight c6");
        let it = Phraser::builtin(MoveStyle::Language, Lang::It, both);
        assert_eq!(it.say_move(&pos, mv), "Nero, 2... Cavallo c6");
    }

    #[test]
    fn colour_with_check() {
        let p = appendix_d(MoveOptions {
            say_colour: true,
            ..MoveOptions::default()
        });
        let (pos, mv) = last("1. e4 f6 2. d4 g5 3. Qh5#");
        assert_eq!(p.say_move(&pos, mv), "Weiß, Dame Hector fünf, Schachmatt");
    }

    #[test]
    fn words_of_squares_pieces_and_sides() {
        let en = appendix_d(MoveOptions::default());
        assert_eq!(en.square(Square::F3), "Felix drei");
        assert_eq!(en.piece(Role::Knight), "Springer");
        assert_eq!(en.side(Color::White), "White");
        assert_eq!(
            en.coloured_piece(Piece::from_char('N').unwrap()),
            "white Springer"
        );
        assert_eq!(
            en.coloured_piece(Piece::from_char('q').unwrap()),
            "black Dame"
        );
        assert_eq!(
            en.the_coloured_piece(Piece::from_char('q').unwrap()),
            "the black Dame"
        );

        let de = Phraser::builtin(MoveStyle::AppendixD, Lang::De, MoveOptions::default());
        assert_eq!(de.side(Color::White), "Weiß");
        assert_eq!(
            de.coloured_piece(Piece::from_char('N').unwrap()),
            "weißer Springer"
        );
        assert_eq!(
            de.coloured_piece(Piece::from_char('Q').unwrap()),
            "weiße Dame"
        );
        assert_eq!(
            de.coloured_piece(Piece::from_char('b').unwrap()),
            "schwarzer Läufer"
        );
        assert_eq!(
            de.the_coloured_piece(Piece::from_char('q').unwrap()),
            "die schwarze Dame"
        );

        let it = Phraser::builtin(MoveStyle::Language, Lang::It, MoveOptions::default());
        assert_eq!(it.side(Color::White), "Bianco");
        assert_eq!(it.square(Square::F3), "f3");
        assert_eq!(
            it.coloured_piece(Piece::from_char('N').unwrap()),
            "Cavallo bianco"
        );
        assert_eq!(
            it.coloured_piece(Piece::from_char('r').unwrap()),
            "Torre nera"
        );
        // no definite form in Italian: the plain one
        assert_eq!(
            it.the_coloured_piece(Piece::from_char('r').unwrap()),
            "Torre nera"
        );
    }

    #[test]
    #[should_panic(expected = "message key `no_such_key` is in no voice")]
    fn unknown_message_key_fails_a_test() {
        let p = appendix_d(MoveOptions::default());
        p.message("no_such_key", &[]);
    }

    #[test]
    fn a_key_the_voice_lacks_is_said_in_english() {
        let mut p = Phraser::builtin(MoveStyle::AppendixD, Lang::De, MoveOptions::default());
        let side = [("side", "Schwarz")];
        assert_eq!(p.message("draw_offered", &side), "Schwarz bietet Remis an.");
        assert!(p.messages.remove("draw_offered").is_some());
        assert_eq!(p.message("draw_offered", &side), "Schwarz offers a draw.");
    }

    #[test]
    fn known_message_keys_are_filled() {
        let p = appendix_d(MoveOptions::default());
        assert_eq!(
            p.message("draw_offered", &[("side", "Black")]),
            "Black offers a draw."
        );
    }

    #[test]
    fn options_can_change() {
        let mut p = appendix_d(MoveOptions::default());
        let (pos, mv) = last("1. Nf3");
        p.set_options(MoveOptions {
            form: Form::Long,
            ..p.options()
        });
        assert_eq!(p.say_move(&pos, mv), "Springer Gustav eins Felix drei");
    }

    #[test]
    fn from_sources_checks_the_message_file() {
        let moves = vocab::APPENDIX_D_SOURCE;
        let (_, en) = Lang::En.builtin_source();
        let broken = en.replace(
            "flipped = \"You play {side}.\"",
            "flipped = \"You play {sied}.\"",
        );
        let err = Phraser::from_sources(moves, ("mine.toml", &broken), MoveOptions::default())
            .unwrap_err();
        assert_eq!(err.file, "mine.toml");
        assert_eq!(err.key.as_deref(), Some("messages.flipped"));
        let line = broken
            .lines()
            .position(|l| l.starts_with("flipped"))
            .map(|i| i + 1);
        assert_eq!(err.line, line);

        let good = en.replace("Goodbye.", "Bye.");
        let p = Phraser::from_sources(moves, ("mine.toml", &good), MoveOptions::default()).unwrap();
        assert_eq!(p.message("goodbye", &[]), "Bye.");
    }

    #[test]
    fn new_checks_parsed_files() {
        let mut messages = vocab::builtin(Lang::It);
        let moves = vocab::builtin_appendix_d();
        assert!(Phraser::new(&moves, &messages, MoveOptions::default()).is_ok());
        messages.messages.remove("prompt");
        let err = Phraser::new(&moves, &messages, MoveOptions::default()).unwrap_err();
        assert_eq!(err.key.as_deref(), Some("messages.prompt"));
        assert_eq!(err.file, "it");
    }

    #[test]
    fn broken_user_files_fall_back_to_the_builtin_ones() {
        let (_, de) = Lang::De.builtin_source();
        let broken_messages = de.replace("goodbye = ", "goodbye = 3\n# ");
        let broken_moves = vocab::APPENDIX_D_SOURCE.1.replace("check = ", "chek = ");
        let (p, errors) = Phraser::load_or_builtin(
            MoveStyle::AppendixD,
            Lang::De,
            Some(("moves.toml", &broken_moves)),
            Some(("de.toml", &broken_messages)),
            MoveOptions::default(),
        );
        assert_eq!(errors.len(), 2);
        assert_eq!(errors[0].file, "moves.toml");
        assert_eq!(errors[1].file, "de.toml");
        assert_eq!(errors[1].key.as_deref(), Some("messages.goodbye"));
        assert_eq!(p.message("goodbye", &[]), "Auf Wiedersehen.");
        let (pos, mv) = last("1. e4 f6 2. d4 g5 3. Qh5#");
        assert_eq!(p.say_move(&pos, mv), "Dame Hector fünf, Schachmatt");
        assert_eq!(
            p.voice_error(&errors[1]),
            format!(
                "de.toml, Zeile {}, Schlüssel messages.goodbye: {}. Es gelten die eingebauten Wörter.",
                errors[1].line.unwrap(),
                errors[1].detail
            )
        );
    }

    #[test]
    fn an_incomplete_user_file_is_said_key_by_key_and_completed_from_the_builtin_one() {
        let (_, it) = Lang::It.builtin_source();
        let incomplete: String = it
            .lines()
            .filter(|l| !l.starts_with("goodbye =") && !l.starts_with("flipped ="))
            .map(|l| format!("{l}\n"))
            .collect::<String>()
            .replace("draw_accepted = \"", "draw_accepted = \"{mossa} ")
            .replace(
                "piece = { one = \"pezzo\", many = \"pezzi\", gender = \"m\" }\n",
                "",
            )
            .replace("Nuova partita. Muove il Bianco.", "Si comincia.");
        let (p, errors) = Phraser::load_or_builtin(
            MoveStyle::Language,
            Lang::En,
            None,
            Some(("mio.toml", &incomplete)),
            MoveOptions::default(),
        );
        let keys: Vec<&str> = errors.iter().filter_map(|e| e.key.as_deref()).collect();
        assert_eq!(
            keys,
            [
                "nouns.piece",
                "messages.flipped",
                "messages.goodbye",
                "messages.draw_accepted"
            ],
            "{errors:#?}"
        );
        assert!(errors.iter().all(|e| e.file == "mio.toml"));
        // A missing key is pointed at by the line of [messages].
        let messages_line = incomplete
            .lines()
            .position(|l| l == "[messages]")
            .map(|i| i + 1);
        assert_eq!(errors[1].line, messages_line);
        // Nothing lost: the file's own words where good, Italian for the rest
        // (the file's language, not the --lang one).
        assert_eq!(p.message("goodbye", &[]), "Arrivederci.");
        assert_eq!(p.message("draw_accepted", &[]), "Patta accettata.");
        assert_eq!(p.message("new_game", &[]), "Si comincia.");
        assert_eq!(
            p.message(
                "pieces_count",
                &[("side", "Bianco"), ("count", "1"), ("list", "x")]
            ),
            "Bianco, un pezzo: x."
        );
        assert_eq!(
            p.message("draw_offered", &[("side", "Nero")]),
            "Il Nero propone la patta."
        );
        // Each one is said in the player's words.
        assert!(
            p.voice_error(&errors[2]).starts_with("mio.toml, riga"),
            "{}",
            p.voice_error(&errors[2])
        );
    }

    #[test]
    fn the_promotion_question_names_the_pieces_in_the_move_words() {
        let ask = |style, lang| Phraser::builtin(style, lang, MoveOptions::default());
        assert_eq!(
            ask(MoveStyle::AppendixD, Lang::En).message("promotion_which", &[]),
            "Which piece does the pawn become? Say Dame, Turm, Läufer or Springer."
        );
        assert_eq!(
            ask(MoveStyle::Language, Lang::En).message("board_promotion", &[]),
            "Which piece does the pawn become? Say queen, rook, bishop or knight."
        );
        assert_eq!(
            ask(MoveStyle::AppendixD, Lang::De).message("promotion_which", &[]),
            "In welche Figur wird der Bauer umgewandelt? Sag Dame, Turm, Läufer oder Springer."
        );
        assert_eq!(
            ask(MoveStyle::Language, Lang::It).message("promotion_which", &[]),
            "A quale pezzo promuove il pedone? Di' Donna, Torre, Alfiere o Cavallo."
        );
        assert_eq!(
            ask(MoveStyle::AppendixD, Lang::It).message("board_promotion", &[]),
            "A quale pezzo promuove il pedone? Di' Dame, Turm, Läufer o Springer."
        );
        assert_eq!(
            ask(MoveStyle::Language, Lang::El).message("promotion_which", &[]),
            "Σε ποιο κομμάτι προάγεται το πιόνι; Πες Βασίλισσα, Πύργος, Αξιωματικός ή Ίππος."
        );
        let it = ask(MoveStyle::Language, Lang::It);
        assert_eq!(
            it.message("promotion_not_asked", &[("piece", "Cavallo")]),
            "Cavallo da solo non è una mossa: nessuna domanda attende un pezzo. \
             Di' la mossa intera, per esempio Cavallo f3."
        );
    }

    #[test]
    fn messages_are_joined_as_the_language_writes_them() {
        let it = Phraser::builtin(MoveStyle::Language, Lang::It, MoveOptions::default());
        // "e" before a square of the e-file is "ed"; "una ora" is "un'ora".
        let list = it.join(&["d4".into(), "e3".into(), "e4".into()], "list_and");
        assert_eq!(
            it.message(
                "moves_from",
                &[("piece", "Donna"), ("square", "d1"), ("list", &list)]
            ),
            "Donna d1 può andare in d4, e3 ed e4."
        );
        assert_eq!(
            it.message("clock_side", &[("side", "Bianco"), ("time", "x")]),
            "Bianco: x."
        );
        assert_eq!(
            it.message("review_file", &[("count", "1")]),
            "Una partita nel file."
        );
        assert_eq!(it.message("time_hours", &[("count", "1")]), "un'ora");
    }

    /// Issue 18, Greek grammar: "εναντίον" takes the genitive ("Λευκά
    /// εναντίον Μαύρα" was said), and a piece found on a square is said in
    /// the nominative it comes in ("έχει ο μαύρος Springer" was said).
    #[test]
    fn greek_sides_after_against_are_genitive() {
        let el = Phraser::builtin(MoveStyle::Language, Lang::El, MoveOptions::default());
        let (white, black) = (el.player("", Color::White), el.player("", Color::Black));
        assert_eq!(
            el.message(
                "review_game_line_undated",
                &[
                    ("number", "1"),
                    ("white", &white),
                    ("black", &black),
                    ("result", "1-0")
                ]
            ),
            "Παρτίδα 1: Λευκά εναντίον των Μαύρων, 1-0."
        );
        assert_eq!(
            el.message(
                "review_game_line_undated",
                &[
                    ("number", "1"),
                    ("white", &black),
                    ("black", &white),
                    ("result", "1-0")
                ]
            ),
            "Παρτίδα 1: Μαύρα εναντίον των Λευκών, 1-0."
        );
        // A name stays as it is.
        assert_eq!(
            el.message(
                "review_game_line_undated",
                &[
                    ("number", "1"),
                    ("white", "Anna"),
                    ("black", "Bob"),
                    ("result", "1-0")
                ]
            ),
            "Παρτίδα 1: Anna εναντίον Bob, 1-0."
        );
        let found = el.the_coloured_piece(shakmaty::Piece {
            color: Color::Black,
            role: Role::Knight,
        });
        let t = el.message("mismatch_extra", &[("square", "ε4"), ("found", &found)]);
        assert!(
            t.starts_with("Το ε4 πρέπει να είναι άδειο, αλλά βρίσκεται εκεί ο μαύρος "),
            "{t}"
        );
    }

    /// English piece words in lower case inside a sentence, but a name
    /// keeps its capitals.
    #[test]
    fn english_piece_words_inside_a_sentence_and_names() {
        let en = Phraser::builtin(MoveStyle::Language, Lang::En, MoveOptions::default());
        let black_king = en.the_coloured_piece(shakmaty::Piece {
            color: Color::Black,
            role: Role::King,
        });
        assert_eq!(
            en.message(
                "mismatch_extra",
                &[("square", "e4"), ("found", &black_king)]
            ),
            "e4 should be empty, it has the black king."
        );
        assert_eq!(
            en.message(
                "review_game_line_undated",
                &[
                    ("number", "1"),
                    ("white", "Anna Bishop"),
                    ("black", "Bob King"),
                    ("result", "1-0")
                ]
            ),
            "Game 1: Anna Bishop against Bob King, 1-0."
        );
        // Appendix D words are German nouns: capitals stay.
        let d = appendix_d(MoveOptions::default());
        assert_eq!(
            d.message(
                "mismatch_extra",
                &[("square", "Eva vier"), ("found", "the black König")]
            ),
            "Eva vier should be empty, it has the black König."
        );
    }

    /// Issue 18: the resume question said "2026-11-25 04:09 UTC"; a date
    /// is said in words in every language.
    #[test]
    fn dates_in_words() {
        let say = |lang| {
            Phraser::builtin(MoveStyle::Language, lang, MoveOptions::default())
                .date_words(2026, 11, 25)
        };
        assert_eq!(
            say(Lang::En),
            "November twenty-fifth, two thousand twenty-six"
        );
        assert_eq!(
            say(Lang::De),
            "fünfundzwanzigsten November zweitausendsechsundzwanzig"
        );
        assert_eq!(say(Lang::It), "del venticinque novembre duemilaventisei");
        assert_eq!(
            say(Lang::El),
            "στις είκοσι πέντε Νοεμβρίου δύο χιλιάδες είκοσι έξι"
        );
        let it = Phraser::builtin(MoveStyle::Language, Lang::It, MoveOptions::default());
        assert_eq!(
            it.date_words(2027, 8, 1),
            "del primo agosto duemilaventisette"
        );
        assert_eq!(
            it.date_words(2027, 8, 8),
            "dell'otto agosto duemilaventisette"
        );
        let el = Phraser::builtin(MoveStyle::Language, Lang::El, MoveOptions::default());
        assert_eq!(
            el.date_words(2027, 5, 1),
            "την πρώτη Μαΐου δύο χιλιάδες είκοσι επτά"
        );
    }

    /// Issue 18, German grammar: "bietet 1000 Elo nicht" said.
    #[test]
    fn german_engine_strength_sentence() {
        let de = Phraser::builtin(MoveStyle::Language, Lang::De, MoveOptions::default());
        assert_eq!(
            de.message(
                "engine_elo_adjusted",
                &[("asked", "1000"), ("used", "1320")]
            ),
            "Dieses Schachprogramm kann nicht mit 1000 Elo spielen; es spielt mit 1320 Elo."
        );
    }

    #[test]
    fn good_user_files_are_used() {
        let moves = vocab::APPENDIX_D_SOURCE
            .1
            .replace("\"Springer\"", "\"Pferd\"");
        let (p, errors) = Phraser::load_or_builtin(
            MoveStyle::AppendixD,
            Lang::En,
            Some(("moves.toml", &moves)),
            None,
            MoveOptions::default(),
        );
        assert!(errors.is_empty());
        let (pos, mv) = last("1. Nf3");
        assert_eq!(p.say_move(&pos, mv), "Pferd Felix drei");
    }

    #[test]
    fn place_says_what_is_known() {
        let p = appendix_d(MoveOptions::default());
        assert_eq!(p.place("a.toml", None, None), "a.toml");
        assert_eq!(p.place("a.toml", Some(3), None), "a.toml, line 3");
        assert_eq!(
            p.place("a.toml", Some(3), Some("k")),
            "a.toml, line 3, key k"
        );
        assert_eq!(p.place("a.toml", None, Some("k")), "a.toml, key k");
    }

    #[test]
    fn every_message_renders_without_leftover_placeholders() {
        // Fill every placeholder the program may fill: nothing of the form
        // {name} may remain in any language.
        for lang in Lang::ALL {
            let p = Phraser::builtin(MoveStyle::AppendixD, lang, MoveOptions::default());
            for key in vocab::builtin(Lang::En).messages.keys() {
                let names = crate::phrase::allowed_placeholders(key).unwrap();
                let args: Vec<(&str, &str)> = names.iter().map(|n| (n.as_str(), "X")).collect();
                let said = p.message(key, &args);
                assert!(!said.contains('{'), "{lang:?} {key}: {said}");
            }
        }
    }
}
