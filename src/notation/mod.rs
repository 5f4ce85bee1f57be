//! Move input: what a player types, in any supported form, turned into a
//! legal [`Move`] of the current position, or an [`InputError`] that says
//! which kind of problem it is.
//!
//! Syntax (`parse`) is kept apart from rules (`resolve`): a line is first read
//! into one or more [`Attempt`]s (a letter may mean different pieces in
//! different languages), then each attempt is matched against the legal
//! moves of the position.
//!
//! Forms understood (all words come from the vocabularies, so a user's
//! edited voices file changes them):
//! - SAN with the piece letters of every vocabulary (`Nf3`, `Sf3`, `Cf3`),
//!   captures with `x`, `:` or nothing (`exd5`, `e:d5`, `ed5`), check and
//!   comment signs ignored (`+ # ! ?`), a leading move number ignored;
//! - castling `O-O`, `0-0`, `oo`, `O-O-O`, `0-0-0`, `ooo`, the castling
//!   words of every vocabulary, and the king's move (`e1g1`, or king takes
//!   own rook as in Chess960);
//! - promotion `e8=Q`, `e8Q`, `e8(Q)`, `e8/Q`, `e8 promotes to Queen`,
//!   `Bauer Eva acht wird Dame`; the piece must be named (D.2.1);
//! - long algebraic and UCI: `g1f3`, `g1-f3`, `Ng1-f3`, `Ng1xf3`, `e7e8q`;
//! - words, any case, umlauts or their ASCII spelling: `Springer Felix drei`,
//!   `Felix drei` (a pawn if one can go there, else the only piece that
//!   can), `Springer Bella David zwei`, `Springer Gustav eins Felix drei`,
//!   `Bauer Eva vier schlägt Bauer David fünf`, `knight takes e5`,
//!   `pedone e prende d5`, `Kurze Rochade`; a square may be two words
//!   (`f 3`, `Felix 3`).
//!
//! When a letter means different pieces in different vocabularies (`R`:
//! English rook, Italian king; `b`: the b-file or, typed in lower case, a
//! bishop), the position decides.  If more than one reading is legal, a
//! reading with every letter in its proper case wins; then one in the
//! player's language (Appendix D counts as every player's); if readings
//! equally good remain, [`InputError::AmbiguousReading`] asks which.

mod error;
mod parse;
mod resolve;

pub use error::{Attempt, IllegalReason, InputError};

use shakmaty::{Chess, Move, Position, Role};

use crate::words::vocab::{Lang, MoveWords, builtin, builtin_appendix_d};
use parse::{Lexicon, Sources, Vocabulary};

/// A promotion typed without its piece (`bxa8`): the legal promotions it
/// can mean, one per piece, so that the player can be asked which.
pub fn promotion_choices(err: &InputError, pos: &Chess) -> Option<Vec<Move>> {
    let InputError::Illegal {
        attempt,
        reason: IllegalReason::PromotionPieceMissing,
    } = err
    else {
        return None;
    };
    let to = attempt.to?;
    let moves: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| m.role() == Role::Pawn && m.to() == to && m.promotion().is_some())
        .filter(|m| {
            attempt
                .from_file
                .is_none_or(|f| m.from().map(|s| s.file()) == Some(f))
        })
        .filter(|m| {
            attempt
                .from_rank
                .is_none_or(|r| m.from().map(|s| s.rank()) == Some(r))
        })
        .collect();
    let mut froms: Vec<_> = moves.iter().filter_map(|m| m.from()).collect();
    froms.dedup();
    // Only when the piece is all that is missing: one pawn, one square.
    (froms.len() == 1).then_some(moves)
}

/// All vocabularies the reader understands, plus which language is the
/// player's.
#[derive(Debug, Clone)]
pub struct Reader {
    lexicon: Lexicon,
    player: Lang,
}

impl Reader {
    /// A reader of the Appendix D words (German letters) and the words of
    /// each language in `languages`; `player` is the configured message
    /// language, which wins when a line can be read two ways.
    pub fn new(appendix_d: MoveWords, languages: Vec<(Lang, MoveWords)>, player: Lang) -> Reader {
        let mut all: Vec<(Vocabulary, &MoveWords)> = vec![(Vocabulary::AppendixD, &appendix_d)];
        all.extend(
            languages
                .iter()
                .map(|(lang, w)| (Vocabulary::Lang(*lang), w)),
        );
        Reader {
            lexicon: Lexicon::new(&all),
            player,
        }
    }

    /// A reader of all built-in vocabulary files.
    pub fn builtin(player: Lang) -> Reader {
        let languages = Lang::ALL
            .into_iter()
            .map(|lang| (lang, builtin(lang).moves))
            .collect();
        Reader::new(builtin_appendix_d().moves, languages, player)
    }

    /// The same reader, also ignoring these filler words wherever they
    /// stand (`"to"`, `"nach"`: `Knight to f3`, `Springer nach Felix drei`).
    /// A filler may be a phrase of several words.
    pub fn with_fillers<I, S>(mut self, fillers: I) -> Reader
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        for word in fillers {
            self.lexicon.add_filler(word.as_ref());
        }
        self
    }

    /// The player's language.
    pub fn player(&self) -> Lang {
        self.player
    }

    /// Read one typed line in the position.  Commands are not handled here
    /// (the app checks commands first).  Never panics.
    pub fn read(&self, input: &str, pos: &Chess) -> Result<Move, InputError> {
        let readings = self.lexicon.readings(input, self.player_sources());
        resolve::resolve(&readings, input, pos)
    }

    /// The vocabularies whose readings count as the player's.
    fn player_sources(&self) -> Sources {
        Vocabulary::Lang(self.player).bit() | Vocabulary::AppendixD.bit()
    }
}

#[cfg(test)]
mod tests;
