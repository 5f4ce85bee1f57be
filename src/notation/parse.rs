//! Syntax: a typed line read into [`Reading`]s, without looking at the board.
//!
//! A line is split into chunks (at spaces and commas).  A chunk, or a run of
//! chunks, may be a word of a vocabulary ("Springer", "Felix", "drei",
//! "Kurze Rochade", "promotes to"); a chunk may also be compact notation
//! ("Nf3", "exd5", "e:d5", "g1-f3", "e8=Q", "O-O"), read character by
//! character.  Every way of reading the line is tried: a letter such as `R`
//! is a rook in English and a king in Italian, a lower-case `b` is the
//! b-file or (typed carelessly) a bishop.  Each complete reading that fits
//! the move grammar becomes a [`Reading`]; choosing between them is the job
//! of `resolve`, which knows the position.
//!
//! All words come from the [`MoveWords`] of the vocabularies; the only
//! literals here are punctuation and the ASCII spellings of castling
//! (`O-O`, `0-0`, `oo`) and en passant (`e.p.`).

use shakmaty::{CastlingSide, File, Rank, Role};

use super::error::Attempt;
use crate::words::fold;
use crate::words::vocab::{Lang, MoveWords};

/// Where a word or a letter comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Vocabulary {
    /// The FIDE Appendix D words (German letters).
    AppendixD,
    /// A message language.
    Lang(Lang),
}

impl Vocabulary {
    /// This vocabulary as a bit of a [`Sources`] set.
    pub(crate) fn bit(self) -> Sources {
        match self {
            Vocabulary::AppendixD => 1,
            Vocabulary::Lang(Lang::En) => 2,
            Vocabulary::Lang(Lang::De) => 4,
            Vocabulary::Lang(Lang::It) => 8,
            Vocabulary::Lang(Lang::El) => 16,
        }
    }
}

/// A set of [`Vocabulary`]s, one bit each.
pub(crate) type Sources = u8;

/// Longest line read at all (in characters); longer lines are not moves.
const MAX_INPUT_CHARS: usize = 120;
/// Most chunks in a line.
const MAX_CHUNKS: usize = 16;
/// Most ways to read one chunk of compact notation.
const MAX_CHUNK_READINGS: usize = 64;
/// Most ways to read a whole line.
const MAX_SEQUENCES: usize = 512;
/// Most tokens in one reading (a long form has at most ten).
const MAX_TOKENS: usize = 12;

/// What a word, a letter or a sign means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tok {
    Piece(Role),
    File(File),
    Rank(Rank),
    Capture,
    Promote,
    Castle(CastlingSide),
    /// Check and mate words or signs, en passant, dashes, filler words.
    Ignore,
}

/// One token of a reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Lexeme {
    tok: Tok,
    /// For pieces: the vocabularies in which this word or letter names this
    /// piece.  `None`: the same in every vocabulary.
    sources: Option<Sources>,
    /// False when the letter was read against its case (a lower-case `b`
    /// read as a bishop, an upper-case `E` read as the e-file).
    exact: bool,
}

impl Lexeme {
    fn plain(tok: Tok) -> Lexeme {
        Lexeme {
            tok,
            sources: None,
            exact: true,
        }
    }
}

/// A vocabulary word or phrase, folded (see [`fold`]).
#[derive(Debug, Clone)]
struct Phrase {
    words: Vec<String>,
    /// The phrase as the vocabulary spells it (for the case of one-letter words).
    original: String,
    tok: Tok,
    sources: Option<Sources>,
}

/// A SAN piece letter.
#[derive(Debug, Clone)]
struct Letter {
    chars: Vec<char>,
    role: Role,
    sources: Sources,
}

/// One way to read a line: what was asked for, and how good a reading it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Reading {
    pub attempt: Attempt,
    /// Every letter was read with its proper case.
    pub exact: bool,
    /// Every piece word or letter belongs to the player's language (or to
    /// Appendix D, which every player may use).
    pub in_player: bool,
}

impl Reading {
    /// Lower is better: exact readings first, then readings in the player's
    /// language.
    pub(crate) fn level(&self) -> u8 {
        (u8::from(!self.exact) << 1) | u8::from(!self.in_player)
    }
}

/// All words and letters the reader knows.
#[derive(Debug, Clone, Default)]
pub(crate) struct Lexicon {
    phrases: Vec<Phrase>,
    letters: Vec<Letter>,
    /// File letters of the vocabularies besides a..h (Greek α..θ), in
    /// lower case: read inside compact notation (`Ιζ3`, `δxε5`).
    file_chars: Vec<(char, File)>,
}

impl Lexicon {
    /// The lexicon of these vocabularies.
    pub(crate) fn new(vocabularies: &[(Vocabulary, &MoveWords)]) -> Lexicon {
        let mut lex = Lexicon::default();
        for (vocabulary, words) in vocabularies {
            lex.add_vocabulary(*vocabulary, words);
        }
        lex
    }

    fn add_vocabulary(&mut self, vocabulary: Vocabulary, w: &MoveWords) {
        let bit = vocabulary.bit();
        for (i, (file, rank)) in w.files.iter().zip(&w.ranks).enumerate() {
            // `i` < 8: the arrays have eight entries.
            let i = i as u32;
            self.add_phrase(file, Tok::File(File::new(i)), None);
            self.add_phrase(rank, Tok::Rank(Rank::new(i)), None);
            let mut chars = file.trim().chars().flat_map(char::to_lowercase);
            if let (Some(c), None) = (chars.next(), chars.next())
                && !c.is_ascii()
                && !self.file_chars.iter().any(|(x, _)| *x == c)
            {
                self.file_chars.push((unaccent(c), File::new(i)));
            }
        }
        for role in Role::ALL {
            self.add_phrase(w.piece(role), Tok::Piece(role), Some(bit));
            if let Some(letter) = w.letters.letter(role) {
                self.add_letter(letter, role, bit);
            }
        }
        self.add_phrase(&w.captures, Tok::Capture, None);
        self.add_phrase(&w.promotes, Tok::Promote, None);
        self.add_phrase(&w.short_castle, Tok::Castle(CastlingSide::KingSide), None);
        self.add_phrase(&w.long_castle, Tok::Castle(CastlingSide::QueenSide), None);
        for ignored in [&w.check, &w.checkmate, &w.en_passant] {
            self.add_phrase(ignored, Tok::Ignore, None);
        }
    }

    /// Words that may stand anywhere and mean nothing ("to", "nach").
    pub(crate) fn add_filler(&mut self, word: &str) {
        self.add_phrase(word, Tok::Ignore, None);
    }

    fn add_phrase(&mut self, text: &str, tok: Tok, sources: Option<Sources>) {
        let words: Vec<String> = fold(text).split_whitespace().map(str::to_owned).collect();
        if words.is_empty() {
            return;
        }
        if let Some(p) = self
            .phrases
            .iter_mut()
            .find(|p| p.words == words && p.tok == tok)
        {
            p.sources = match (p.sources, sources) {
                (Some(a), Some(b)) => Some(a | b),
                _ => None,
            };
            return;
        }
        self.phrases.push(Phrase {
            words,
            original: text.trim().to_owned(),
            tok,
            sources,
        });
    }

    fn add_letter(&mut self, letter: &str, role: Role, bit: Sources) {
        let chars: Vec<char> = letter.trim().chars().collect();
        if chars.is_empty() {
            return;
        }
        if let Some(l) = self
            .letters
            .iter_mut()
            .find(|l| l.chars == chars && l.role == role)
        {
            l.sources |= bit;
            return;
        }
        self.letters.push(Letter {
            chars,
            role,
            sources: bit,
        });
    }

    /// A file letter of a vocabulary beyond a..h (`ζ`); in capitals only
    /// where it cannot be a piece letter or the chunk is all capitals.
    fn file_char(&self, c: char, shouted: bool) -> Option<(Lexeme, usize)> {
        let lower = c.to_lowercase().next()?;
        let (_, file) = self.file_chars.iter().find(|(x, _)| *x == lower)?;
        let exact = c == lower;
        if !exact && !shouted && self.is_piece_letter(c) {
            return None;
        }
        Some((
            Lexeme {
                tok: Tok::File(*file),
                sources: None,
                exact,
            },
            1,
        ))
    }

    /// Whether `c` is, exactly as written, the first letter of a piece letter.
    fn is_piece_letter(&self, c: char) -> bool {
        self.letters.iter().any(|l| l.chars.first() == Some(&c))
    }

    /// Every grammatical reading of `input`, best first, without duplicates.
    /// `player` is the [`Sources`] set that counts as the player's language.
    pub(crate) fn readings(&self, input: &str, player: Sources) -> Vec<Reading> {
        if input.chars().count() > MAX_INPUT_CHARS {
            return Vec::new();
        }
        let chunks = split_chunks(input);
        if chunks.is_empty() || chunks.len() > MAX_CHUNKS {
            return Vec::new();
        }
        let folded: Vec<String> = chunks.iter().map(|c| fold(c)).collect();
        let options: Vec<Vec<(Vec<Lexeme>, usize)>> = (0..chunks.len())
            .map(|i| self.options_at(&chunks, &folded, i))
            .collect();
        let mut sequences = Vec::new();
        walk(&options, 0, &mut Vec::new(), &mut sequences);

        let mut readings: Vec<Reading> = Vec::new();
        for seq in &sequences {
            let Some(attempt) = grammar(seq) else {
                continue;
            };
            let reading = Reading {
                attempt,
                exact: seq.iter().all(|l| l.exact),
                in_player: seq
                    .iter()
                    .all(|l| l.sources.is_none_or(|s| s & player != 0)),
            };
            match readings.iter_mut().find(|r| r.attempt == reading.attempt) {
                Some(r) if r.level() > reading.level() => *r = reading,
                Some(_) => {}
                None => readings.push(reading),
            }
        }
        readings.sort_by_key(Reading::level);
        readings
    }

    /// The ways to read the line at chunk `i`: tokens and how many chunks
    /// they take.  `folded`: the chunks, [`fold`]ed.
    fn options_at(
        &self,
        chunks: &[&str],
        folded: &[String],
        i: usize,
    ) -> Vec<(Vec<Lexeme>, usize)> {
        let mut options: Vec<(Vec<Lexeme>, usize)> = Vec::new();
        for p in &self.phrases {
            let n = p.words.len();
            if folded.get(i..i + n) == Some(&p.words[..]) {
                let exact = n > 1 || p.original.chars().count() > 1 || p.original == chunks[i];
                let lexeme = Lexeme {
                    tok: p.tok,
                    sources: p.sources,
                    exact,
                };
                options.push((vec![lexeme], n));
            }
        }
        for lexemes in self.lex_chunk(chunks[i]) {
            options.push((lexemes, 1));
        }
        for option in &mut options {
            option.0.retain(|l| l.tok != Tok::Ignore);
        }
        let mut unique: Vec<(Vec<Lexeme>, usize)> = Vec::new();
        for option in options {
            if !unique.contains(&option) {
                unique.push(option);
            }
        }
        unique
    }

    /// The ways to read one chunk as compact notation.
    fn lex_chunk(&self, chunk: &str) -> Vec<Vec<Lexeme>> {
        if let Some(side) = castling_notation(chunk) {
            return vec![vec![Lexeme::plain(Tok::Castle(side))]];
        }
        let folded = fold(chunk);
        if folded == "e.p" || folded == "ep" {
            return vec![vec![Lexeme::plain(Tok::Ignore)]];
        }
        let chars: Vec<char> = chunk.chars().map(unaccent).collect();
        let mut out = Vec::new();
        // In a chunk typed all in capitals, `B` may be the b-file too.
        let shouted = !chars.iter().any(|c| c.is_lowercase());
        self.lex_chars(&chars, 0, shouted, &mut Vec::new(), &mut out);
        out
    }

    /// The ways to read `chars` from `p` on, appended to `out`.  `shouted`:
    /// the chunk has no lower-case letter, so a capital may be a file.
    fn lex_chars(
        &self,
        chars: &[char],
        p: usize,
        shouted: bool,
        cur: &mut Vec<Lexeme>,
        out: &mut Vec<Vec<Lexeme>>,
    ) {
        if out.len() >= MAX_CHUNK_READINGS || cur.len() > MAX_TOKENS {
            return;
        }
        let Some(&c) = chars.get(p) else {
            out.push(cur.clone());
            return;
        };
        let mut alternatives: Vec<(Lexeme, usize)> = Vec::new();
        let sign = |tok| Some((Lexeme::plain(tok), 1));
        let single = match c {
            // The Greek χ too: the x of a Greek keyboard.
            'x' | 'X' | ':' | '×' | 'χ' | 'Χ' => sign(Tok::Capture),
            '-' | '–' | '—' | ')' => sign(Tok::Ignore),
            '=' | '/' | '(' => sign(Tok::Promote),
            '1'..='8' => sign(Tok::Rank(Rank::new(u32::from(c) - u32::from('1')))),
            'a'..='h' => sign(Tok::File(File::new(u32::from(c) - u32::from('a')))),
            'A'..='H' if shouted || !self.is_piece_letter(c) => Some((
                Lexeme {
                    tok: Tok::File(File::new(u32::from(c) - u32::from('A'))),
                    sources: None,
                    exact: false,
                },
                1,
            )),
            _ => self.file_char(c, shouted),
        };
        alternatives.extend(single);
        for letter in &self.letters {
            let n = letter.chars.len();
            let Some(typed) = chars.get(p..p + n) else {
                continue;
            };
            let exact = typed == &letter.chars[..];
            let same = exact
                || typed
                    .iter()
                    .zip(&letter.chars)
                    .all(|(a, b)| a.to_lowercase().eq(b.to_lowercase()));
            // A Latin letter that looks like a Greek piece letter (`A` for
            // `Α`, `P` for `Ρ`, `I` for `Ι`), typed on a Latin keyboard;
            // only where it is no letter of its own (`B` is a bishop).
            let lookalike = !same
                && typed.iter().zip(&letter.chars).all(|(a, b)| {
                    !self.is_piece_letter(*a)
                        && !('a'..='h').contains(a)
                        && greek_lookalike(*a)
                            .is_some_and(|g| g.to_lowercase().eq(b.to_lowercase()))
                });
            if same || lookalike {
                let lexeme = Lexeme {
                    tok: Tok::Piece(letter.role),
                    sources: Some(letter.sources),
                    exact,
                };
                alternatives.push((lexeme, n));
            }
        }
        for (lexeme, n) in alternatives {
            cur.push(lexeme);
            self.lex_chars(chars, p + n, shouted, cur, out);
            cur.pop();
        }
    }
}

/// The Greek capital a Latin letter looks like (`P` is `Ρ`), if any.
fn greek_lookalike(c: char) -> Option<char> {
    let pairs = [
        ('A', 'Α'),
        ('B', 'Β'),
        ('E', 'Ε'),
        ('Z', 'Ζ'),
        ('H', 'Η'),
        ('I', 'Ι'),
        ('K', 'Κ'),
        ('M', 'Μ'),
        ('N', 'Ν'),
        ('O', 'Ο'),
        ('P', 'Ρ'),
        ('T', 'Τ'),
        ('X', 'Χ'),
        ('Y', 'Υ'),
    ];
    let upper = c.to_uppercase().next()?;
    pairs.iter().find(|(l, _)| *l == upper).map(|(_, g)| *g)
}

/// A letter without its accent (Greek `ά` is `α`, `Ί` is `Ι`), keeping
/// its case: accents do not matter in typed moves.
fn unaccent(c: char) -> char {
    match c {
        'ά' => 'α',
        'έ' => 'ε',
        'ή' => 'η',
        'ί' | 'ϊ' | 'ΐ' => 'ι',
        'ό' => 'ο',
        'ύ' | 'ϋ' | 'ΰ' => 'υ',
        'ώ' => 'ω',
        'Ά' => 'Α',
        'Έ' => 'Ε',
        'Ή' => 'Η',
        'Ί' | 'Ϊ' => 'Ι',
        'Ό' => 'Ο',
        'Ύ' | 'Ϋ' => 'Υ',
        'Ώ' => 'Ω',
        c => c,
    }
}

/// Every sequence of tokens that reads the whole line, from chunk `i` on.
fn walk(
    options: &[Vec<(Vec<Lexeme>, usize)>],
    i: usize,
    cur: &mut Vec<Lexeme>,
    out: &mut Vec<Vec<Lexeme>>,
) {
    if out.len() >= MAX_SEQUENCES || cur.len() > MAX_TOKENS {
        return;
    }
    let Some(here) = options.get(i) else {
        out.push(cur.clone());
        return;
    };
    for (lexemes, n) in here {
        let len = cur.len();
        cur.extend_from_slice(lexemes);
        walk(options, i + n, cur, out);
        cur.truncate(len);
    }
}

/// The chunks of a line: split at white space, commas and semicolons, with
/// move numbers ("12.", "12...") and trailing check, mate and comment signs
/// (`+ # ! ?`) and full stops removed.
fn split_chunks(input: &str) -> Vec<&str> {
    input
        .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .map(|chunk| {
            let digits = chunk.len() - chunk.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            let rest = &chunk[digits..];
            let without_number = if digits > 0 && rest.starts_with('.') {
                rest.trim_start_matches('.')
            } else {
                chunk
            };
            let signs = ['+', '#', '!', '?', '.', '†'];
            let chunk = without_number.trim_end_matches(signs);
            // `exd6e.p.`: the en passant mark written onto the move.
            chunk
                .strip_suffix("e.p")
                .or_else(|| chunk.strip_suffix("E.P"))
                .map_or(chunk, |c| c.trim_end_matches(signs))
        })
        .filter(|chunk| !chunk.is_empty())
        .collect()
}

/// `O-O`, `0-0`, `oo` (two) or `O-O-O`, `0-0-0`, `ooo` (three), dashes
/// optional; the letter O may be the Greek omicron (`ο-ο`, as a Greek
/// keyboard types it).
fn castling_notation(chunk: &str) -> Option<CastlingSide> {
    let mut count = 0;
    for c in chunk.chars() {
        match c {
            'O' | 'o' | '0' | 'Ο' | 'ο' | 'Ό' | 'ό' => count += 1,
            '-' => {}
            _ => return None,
        }
    }
    match count {
        2 => Some(CastlingSide::KingSide),
        3 => Some(CastlingSide::QueenSide),
        _ => None,
    }
}

/// Where the grammar is in a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Before a capture sign.
    Before,
    /// After a capture sign; `piece_allowed` until the captured piece or
    /// a square coordinate was read.
    AfterCapture { piece_allowed: bool },
    /// After a promotion sign or word: the piece must follow.
    PromotionSign,
    /// After the promotion piece: nothing may follow.
    Done,
}

/// The move the tokens describe, if they fit
/// `[piece] [from] [capture [captured piece]] to [[promotes] piece]`
/// or are a single castling token.
fn grammar(seq: &[Lexeme]) -> Option<Attempt> {
    let toks: Vec<Tok> = seq.iter().map(|l| l.tok).collect();
    if let [Tok::Castle(side)] = toks[..] {
        return Some(Attempt {
            castle: Some(side),
            ..Attempt::default()
        });
    }
    let (role, rest) = match toks.split_first() {
        Some((Tok::Piece(role), rest)) => (Some(*role), rest),
        _ => (None, &toks[..]),
    };
    let mut before = Vec::new();
    let mut after = Vec::new();
    let mut capture = false;
    let mut promotion = None;
    let mut state = State::Before;
    for &tok in rest {
        state = match (state, tok) {
            (State::Before, Tok::File(_) | Tok::Rank(_)) => {
                before.push(tok);
                State::Before
            }
            (State::Before, Tok::Capture) => {
                capture = true;
                State::AfterCapture {
                    piece_allowed: true,
                }
            }
            (
                State::AfterCapture {
                    piece_allowed: true,
                },
                Tok::Piece(_),
            ) => State::AfterCapture {
                piece_allowed: false,
            },
            (State::AfterCapture { .. }, Tok::File(_) | Tok::Rank(_)) => {
                after.push(tok);
                State::AfterCapture {
                    piece_allowed: false,
                }
            }
            (State::Before | State::AfterCapture { .. }, Tok::Promote) => State::PromotionSign,
            (
                State::Before
                | State::AfterCapture {
                    piece_allowed: false,
                },
                Tok::Piece(r),
            )
            | (State::PromotionSign, Tok::Piece(r)) => {
                promotion = Some(r);
                State::Done
            }
            _ => return None,
        };
    }
    if state == State::PromotionSign {
        return None;
    }
    if matches!(promotion, Some(Role::King | Role::Pawn)) {
        return None;
    }
    let (from, to) = if capture {
        (&before[..], &after[..])
    } else {
        before.split_at(before.len().checked_sub(2)?)
    };
    let (Tok::File(to_file), Tok::Rank(to_rank)) = (*to.first()?, *to.get(1)?) else {
        return None;
    };
    if to.len() != 2 {
        return None;
    }
    let (from_file, from_rank) = match *from {
        [] => (None, None),
        [Tok::File(f)] => (Some(f), None),
        [Tok::Rank(r)] => (None, Some(r)),
        [Tok::File(f), Tok::Rank(r)] => (Some(f), Some(r)),
        _ => return None,
    };
    // A pawn's from-file alone is only written for a capture (`ed5`), never
    // as its own file (`cc3`): that is a carelessly typed piece letter.
    if matches!(role, None | Some(Role::Pawn)) && from_rank.is_none() && from_file == Some(to_file)
    {
        return None;
    }
    Some(Attempt {
        role,
        from_file,
        from_rank,
        to: Some(shakmaty::Square::from_coords(to_file, to_rank)),
        castle: None,
        promotion,
        capture,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::vocab::{builtin, builtin_appendix_d};
    use shakmaty::Square;

    fn lexicon() -> Lexicon {
        let d = builtin_appendix_d().moves;
        let langs: Vec<(Vocabulary, MoveWords)> = Lang::ALL
            .into_iter()
            .map(|l| (Vocabulary::Lang(l), builtin(l).moves))
            .collect();
        let mut all: Vec<(Vocabulary, &MoveWords)> = vec![(Vocabulary::AppendixD, &d)];
        all.extend(langs.iter().map(|(v, w)| (*v, w)));
        Lexicon::new(&all)
    }

    fn attempts(input: &str) -> Vec<Attempt> {
        lexicon()
            .readings(input, Vocabulary::Lang(Lang::En).bit())
            .into_iter()
            .map(|r| r.attempt)
            .collect()
    }

    #[test]
    fn chunks_drop_numbers_and_signs() {
        assert_eq!(split_chunks("12. Nf3+"), vec!["Nf3"]);
        assert_eq!(split_chunks("12...Nf3!?"), vec!["Nf3"]);
        assert_eq!(split_chunks("e8=Q, Schach"), vec!["e8=Q", "Schach"]);
        assert_eq!(split_chunks("exd6 e.p."), vec!["exd6"]);
        assert_eq!(split_chunks("exd6e.p.+"), vec!["exd6"]);
        assert_eq!(split_chunks("Felix 3"), vec!["Felix", "3"]);
    }

    #[test]
    fn castling_spellings() {
        for s in ["O-O", "0-0", "oo", "o-o", "OO"] {
            assert_eq!(castling_notation(s), Some(CastlingSide::KingSide), "{s}");
        }
        for s in ["O-O-O", "0-0-0", "ooo"] {
            assert_eq!(castling_notation(s), Some(CastlingSide::QueenSide), "{s}");
        }
        // Issue 18: castling typed on a Greek keyboard (omicron).
        for s in ["ο-ο", "Ο-Ο", "οο"] {
            assert_eq!(castling_notation(s), Some(CastlingSide::KingSide), "{s}");
        }
        for s in ["ο-ο-ο", "Ο-Ο-Ο"] {
            assert_eq!(castling_notation(s), Some(CastlingSide::QueenSide), "{s}");
        }
        for s in ["O", "O-O-O-O", "O-X", ""] {
            assert_eq!(castling_notation(s), None, "{s}");
        }
    }

    #[test]
    fn long_form_with_captured_piece() {
        let a = attempts("Bauer Eva vier schlägt Bauer David fünf");
        assert_eq!(a.len(), 1);
        assert_eq!(a[0].role, Some(Role::Pawn));
        assert_eq!(a[0].from(), Some(Square::E4));
        assert_eq!(a[0].to, Some(Square::D5));
        assert!(a[0].capture);
    }

    #[test]
    fn r_is_read_two_ways() {
        let readings = lexicon().readings("Re2", Vocabulary::Lang(Lang::En).bit());
        let roles: Vec<(Option<Role>, bool)> = readings
            .iter()
            .map(|r| (r.attempt.role, r.in_player))
            .collect();
        assert_eq!(
            roles,
            vec![(Some(Role::Rook), true), (Some(Role::King), false)]
        );
    }

    #[test]
    fn lower_case_b_is_file_first() {
        let readings = lexicon().readings("bc3", Vocabulary::Lang(Lang::De).bit());
        assert_eq!(readings[0].attempt.from_file, Some(File::B));
        assert_eq!(readings[0].attempt.role, None);
        assert!(readings[0].exact);
        assert!(
            readings
                .iter()
                .any(|r| r.attempt.role == Some(Role::Bishop) && !r.exact)
        );
    }

    #[test]
    fn grammar_rejects_nonsense() {
        for s in [
            "", "Nz9", "xyz", "N", "e", "e9", "Nf3f", "e8=", "e8=K", "e8=P", "Kurze", "f3 x", "x",
            "e8==Q",
        ] {
            assert!(attempts(s).is_empty(), "{s:?} gave {:?}", attempts(s));
        }
    }

    #[test]
    fn overlong_input_is_not_read() {
        assert!(attempts(&"e4 ".repeat(60)).is_empty());
        assert!(attempts(&"a ".repeat(17)).is_empty());
    }

    #[test]
    fn promotion_forms() {
        for s in [
            "e8=Q",
            "e8Q",
            "e8(Q)",
            "e8/Q",
            "e8 promotes to Queen",
            "e8 wird Dame",
        ] {
            let a = attempts(s);
            assert!(
                a.iter()
                    .any(|a| a.promotion == Some(Role::Queen) && a.to == Some(Square::E8)),
                "{s}: {a:?}"
            );
        }
    }
}
