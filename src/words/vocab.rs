//! The vocabulary files under `voices/`: the words moves are said with and
//! the templates of every message.
//!
//! The built-in files are compiled in with `include_str!`; a user file is
//! read at start-up and, if it is broken, reported with file, line and key
//! while the built-in default is used instead.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;

use crate::toml_error::FileError;
use shakmaty::{ByRole, Color, File, Rank, Role, Square};

/// A language of the messages and of the move words: the one language
/// type of hector (settings, command line, vocabularies, the reader).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Deserialize, clap::ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// German.
    De,
    /// Italian.
    It,
    /// Greek (the terms of the Greek FIDE Laws text).
    El,
}

impl Lang {
    /// Every language, in the order of the built-in files.
    pub const ALL: [Lang; 4] = [Lang::En, Lang::De, Lang::It, Lang::El];

    /// The language code ("en"), as in the voices files and for the voice.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::De => "de",
            Lang::It => "it",
            Lang::El => "el",
        }
    }

    /// The built-in vocabulary file of this language.
    pub fn builtin_source(self) -> (&'static str, &'static str) {
        match self {
            Lang::En => ("voices/en.toml", include_str!("../../voices/en.toml")),
            Lang::De => ("voices/de.toml", include_str!("../../voices/de.toml")),
            Lang::It => ("voices/it.toml", include_str!("../../voices/it.toml")),
            Lang::El => ("voices/el.toml", include_str!("../../voices/el.toml")),
        }
    }
}

/// The built-in Appendix D move vocabulary.
pub const APPENDIX_D_SOURCE: (&str, &str) = (
    "voices/appendix-d.toml",
    include_str!("../../voices/appendix-d.toml"),
);

/// Grammatical gender of a piece word, for colour adjectives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
pub enum Gender {
    #[default]
    #[serde(rename = "m")]
    Masculine,
    #[serde(rename = "f")]
    Feminine,
    #[serde(rename = "n")]
    Neuter,
}

/// One word per piece kind, as written in a voices file.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PieceTable<T> {
    pub king: T,
    pub queen: T,
    pub rook: T,
    pub bishop: T,
    pub knight: T,
    pub pawn: T,
}

impl<T> PieceTable<T> {
    /// The entry of `role`.
    pub fn get(&self, role: Role) -> &T {
        match role {
            Role::King => &self.king,
            Role::Queen => &self.queen,
            Role::Rook => &self.rook,
            Role::Bishop => &self.bishop,
            Role::Knight => &self.knight,
            Role::Pawn => &self.pawn,
        }
    }
}

impl<T: Clone> PieceTable<T> {
    pub fn to_by_role(&self) -> ByRole<T> {
        ByRole {
            pawn: self.pawn.clone(),
            knight: self.knight.clone(),
            bishop: self.bishop.clone(),
            rook: self.rook.clone(),
            queen: self.queen.clone(),
            king: self.king.clone(),
        }
    }
}

/// SAN letters for the five pieces (pawns have none).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LetterTable {
    pub king: String,
    pub queen: String,
    pub rook: String,
    pub bishop: String,
    pub knight: String,
}

impl LetterTable {
    /// The letter of `role`, `None` for a pawn.
    pub fn letter(&self, role: Role) -> Option<&str> {
        match role {
            Role::King => Some(&self.king),
            Role::Queen => Some(&self.queen),
            Role::Rook => Some(&self.rook),
            Role::Bishop => Some(&self.bishop),
            Role::Knight => Some(&self.knight),
            Role::Pawn => None,
        }
    }

    /// Every role whose letter is `letter` (case-sensitive).
    pub fn roles_for(&self, letter: &str) -> Vec<Role> {
        [
            Role::King,
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
        ]
        .into_iter()
        .filter(|r| self.letter(*r) == Some(letter))
        .collect()
    }
}

/// The words a move is said with (`[moves]` in a voices file).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveWords {
    /// Files a..h.
    pub files: [String; 8],
    /// Ranks 1..8.
    pub ranks: [String; 8],
    /// Between file and rank word of a square: " " for "Felix drei", "" for "f3".
    pub square_separator: String,
    pub short_castle: String,
    pub long_castle: String,
    pub captures: String,
    pub check: String,
    pub checkmate: String,
    pub en_passant: String,
    pub promotes: String,
    pub pieces: PieceTable<String>,
    #[serde(default = "default_genders")]
    pub genders: PieceTable<Gender>,
    pub letters: LetterTable,
    /// Plural piece words ("Türme"), for "Zwei Türme können ...".  The
    /// singular words are used when the table is absent.
    #[serde(default)]
    pub plurals: Option<PieceTable<String>>,
    /// The sides in this file's words ("Weiß"), for a move said with its
    /// colour.  The message language's side names are used when absent.
    #[serde(default)]
    pub sides: Option<SideWords>,
}

/// `[moves.sides]`: the two sides in the move words.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideWords {
    pub white: String,
    pub black: String,
}

fn default_genders() -> PieceTable<Gender> {
    PieceTable {
        king: Gender::Masculine,
        queen: Gender::Masculine,
        rook: Gender::Masculine,
        bishop: Gender::Masculine,
        knight: Gender::Masculine,
        pawn: Gender::Masculine,
    }
}

impl MoveWords {
    pub fn file(&self, file: File) -> &str {
        &self.files[usize::from(file)]
    }

    pub fn rank(&self, rank: Rank) -> &str {
        &self.ranks[usize::from(rank)]
    }

    pub fn square(&self, sq: Square) -> String {
        format!(
            "{}{}{}",
            self.file(sq.file()),
            self.square_separator,
            self.rank(sq.rank())
        )
    }

    pub fn piece(&self, role: Role) -> &str {
        match role {
            Role::King => &self.pieces.king,
            Role::Queen => &self.pieces.queen,
            Role::Rook => &self.pieces.rook,
            Role::Bishop => &self.pieces.bishop,
            Role::Knight => &self.pieces.knight,
            Role::Pawn => &self.pieces.pawn,
        }
    }

    /// The plural of a piece word; the singular when the file has no plurals.
    pub fn plural(&self, role: Role) -> &str {
        match &self.plurals {
            Some(p) => p.get(role),
            None => self.piece(role),
        }
    }

    /// The side in the move words, if the file names the sides.
    pub fn side(&self, color: Color) -> Option<&str> {
        let sides = self.sides.as_ref()?;
        Some(match color {
            Color::White => &sides.white,
            Color::Black => &sides.black,
        })
    }

    pub fn gender(&self, role: Role) -> Gender {
        match role {
            Role::King => self.genders.king,
            Role::Queen => self.genders.queen,
            Role::Rook => self.genders.rook,
            Role::Bishop => self.genders.bishop,
            Role::Knight => self.genders.knight,
            Role::Pawn => self.genders.pawn,
        }
    }
}

/// `[language]` in a voices file.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LanguageMeta {
    /// Language code of the words (selects the speech voice): "de", "en", "it".
    pub code: String,
    pub name: String,
}

/// Colour phrases by gender: `{piece}` is replaced by the piece word.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GenderedPhrase {
    pub m: String,
    #[serde(default)]
    pub f: Option<String>,
    #[serde(default)]
    pub n: Option<String>,
}

impl GenderedPhrase {
    pub fn for_gender(&self, g: Gender) -> &str {
        match g {
            Gender::Masculine => &self.m,
            Gender::Feminine => self.f.as_deref().unwrap_or(&self.m),
            Gender::Neuter => self.n.as_deref().unwrap_or(&self.m),
        }
    }
}

/// `[colours]` in a message-language file.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Colours {
    /// "white {piece}" / "weißer {piece}" ...
    pub white_piece: GenderedPhrase,
    pub black_piece: GenderedPhrase,
    /// The sides as nouns: "White", "Weiß", "il Bianco".
    pub white: String,
    pub black: String,
    /// Definite forms, used where a sentence needs "the white {piece}" /
    /// "der weiße {piece}" (nominative).  The plain forms above are used when
    /// a language leaves them out (Italian, whose article depends on the
    /// word's first letters).
    #[serde(default)]
    pub the_white_piece: Option<GenderedPhrase>,
    #[serde(default)]
    pub the_black_piece: Option<GenderedPhrase>,
    /// "No" with a piece, agreeing with it: "kein {piece}" / "keine
    /// {piece}" ("kein Bauer kann Eva acht erreichen"); the piece word
    /// alone when a language leaves it out.
    #[serde(default)]
    pub no_piece: Option<GenderedPhrase>,
}

/// One voices file as written.  Move-only files (Appendix D) have no
/// colours and no messages.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VoiceFile {
    pub language: LanguageMeta,
    pub moves: MoveWords,
    #[serde(default)]
    pub colours: Option<Colours>,
    #[serde(default)]
    pub messages: BTreeMap<String, String>,
    /// How numbers are said in words (message languages).
    #[serde(default)]
    pub numbers: Option<super::numbers::NumberWords>,
    /// The nouns that are counted: `{count:move}` in a message.
    #[serde(default)]
    pub nouns: BTreeMap<String, super::numbers::Noun>,
    /// Words that change with the word after them (elision).
    #[serde(default)]
    pub joins: Vec<super::joins::Join>,
    /// The words of commands' arguments ("mine", "restart").
    #[serde(default)]
    pub arguments: super::arguments::ArgumentWords,
}

/// A voices file that could not be used: which file, where, and why.
pub type VoiceError = FileError;

/// Parse the text of a voices file named `file` (for error messages).
pub fn parse_voice_file(file: &str, text: &str) -> Result<VoiceFile, VoiceError> {
    let parsed =
        toml::from_str::<VoiceFile>(text).map_err(|e| FileError::from_toml(file, text, &e))?;
    match word_collision(&parsed.moves) {
        Some((key, detail)) => Err(FileError::at_key(file, text, &key, detail)),
        None => Ok(parsed),
    }
}

/// Two squares, ranks or pieces said with the same word cannot be told
/// apart by ear or read back: the first such word, as (dotted key, why).
fn word_collision(m: &MoveWords) -> Option<(String, String)> {
    let pieces = [
        ("king", &m.pieces.king),
        ("queen", &m.pieces.queen),
        ("rook", &m.pieces.rook),
        ("bishop", &m.pieces.bishop),
        ("knight", &m.pieces.knight),
        ("pawn", &m.pieces.pawn),
    ];
    let mut seen: Vec<(String, String)> = Vec::new();
    let named = m
        .files
        .iter()
        .enumerate()
        .map(|(i, w)| (format!("moves.files[{i}]"), w))
        .chain(
            m.ranks
                .iter()
                .enumerate()
                .map(|(i, w)| (format!("moves.ranks[{i}]"), w)),
        )
        .chain(
            pieces
                .iter()
                .map(|(k, w)| (format!("moves.pieces.{k}"), *w)),
        );
    for (key, word) in named {
        let folded = crate::words::fold(word);
        if folded.is_empty() {
            return Some((key, "a word cannot be empty".to_owned()));
        }
        if let Some((other, _)) = seen.iter().find(|(_, w)| *w == folded) {
            return Some((
                key,
                format!("\"{word}\" is also the word of {other}: each word must be different"),
            ));
        }
        seen.push((key, folded));
    }
    None
}

/// A built-in file, parsed and checked once per process (it is compiled
/// in, so every parse gives the same answer).
#[allow(clippy::expect_used, reason = "compiled-in data, tested to parse")]
fn parsed_once(
    slot: &'static OnceLock<VoiceFile>,
    (name, text): (&str, &str),
) -> &'static VoiceFile {
    slot.get_or_init(|| parse_voice_file(name, text).expect("built-in voices file parses (tested)"))
}

/// The built-in file of a language.  The built-in files are tested to parse
/// (`builtin_files_parse`), so this cannot fail in a released build.
pub fn builtin(lang: Lang) -> VoiceFile {
    static FILES: [OnceLock<VoiceFile>; Lang::ALL.len()] = [const { OnceLock::new() }; 4];
    parsed_once(&FILES[lang as usize], lang.builtin_source()).clone()
}

/// The built-in Appendix D move words, shared (no copy).
pub fn appendix_d() -> &'static VoiceFile {
    static FILE: OnceLock<VoiceFile> = OnceLock::new();
    parsed_once(&FILE, APPENDIX_D_SOURCE)
}

/// The built-in Appendix D move words, a copy to own.
pub fn builtin_appendix_d() -> VoiceFile {
    appendix_d().clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_that_collide_are_rejected_with_the_key() {
        let (name, text) = APPENDIX_D_SOURCE;
        let twice = text.replacen("\"Bella\"", "\"Anna\"", 1);
        assert_ne!(twice, text);
        let e = parse_voice_file(name, &twice).unwrap_err();
        assert_eq!(e.key.as_deref(), Some("moves.files[1]"), "{e:?}");
        assert!(e.detail.contains("moves.files[0]"), "{e:?}");
    }

    #[test]
    fn builtin_files_parse() {
        for lang in Lang::ALL {
            let (name, text) = lang.builtin_source();
            parse_voice_file(name, text).unwrap_or_else(|e| panic!("{e}"));
        }
        let (name, text) = APPENDIX_D_SOURCE;
        parse_voice_file(name, text).unwrap_or_else(|e| panic!("{e}"));
    }

    #[test]
    fn appendix_d_words() {
        let v = builtin_appendix_d().moves;
        assert_eq!(v.square(Square::F3), "Felix drei");
        assert_eq!(v.square(Square::H8), "Hector acht");
        assert_eq!(v.piece(Role::Bishop), "Läufer");
        assert_eq!(v.gender(Role::Queen), Gender::Feminine);
        assert_eq!(v.letters.roles_for("S"), vec![Role::Knight]);
    }

    #[test]
    fn broken_file_names_line_and_key() {
        let (_, text) = APPENDIX_D_SOURCE;
        let broken = text.replace("queen = \"Dame\"", "queeen = \"Dame\"");
        let err = parse_voice_file("my.toml", &broken).unwrap_err();
        assert_eq!(err.file, "my.toml");
        assert_eq!(err.key.as_deref(), Some("queeen"));
        let line = broken
            .lines()
            .position(|l| l.starts_with("queeen"))
            .map(|i| i + 1);
        assert_eq!(err.line, line);
    }

    #[test]
    fn missing_key_is_named() {
        let (_, text) = APPENDIX_D_SOURCE;
        let broken = text.replace("captures = \"schlägt\"\n", "");
        let err = parse_voice_file("my.toml", &broken).unwrap_err();
        assert_eq!(err.key.as_deref(), Some("captures"));
        assert!(err.line.is_some());
    }

    #[test]
    fn wrong_type_names_the_full_key() {
        let (_, text) = APPENDIX_D_SOURCE;
        let broken = text.replace("pawn = \"Bauer\"", "pawn = 6");
        let err = parse_voice_file("my.toml", &broken).unwrap_err();
        assert_eq!(err.key.as_deref(), Some("moves.pieces.pawn"));
        let line = broken.lines().position(|l| l == "pawn = 6").map(|i| i + 1);
        assert_eq!(err.line, line);
    }

    #[test]
    fn syntax_error_names_line_and_key() {
        let (_, text) = APPENDIX_D_SOURCE;
        let broken = text.replace("check = \"Schach\"", "check = \"Schach");
        let err = parse_voice_file("my.toml", &broken).unwrap_err();
        let line = broken
            .lines()
            .position(|l| l.starts_with("check ="))
            .map(|i| i + 1);
        assert_eq!(err.line, line);
        assert_eq!(err.key.as_deref(), Some("moves.check"), "{err}");
    }
}
