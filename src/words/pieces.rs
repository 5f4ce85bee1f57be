//! Piece words read back: the one place a typed piece word or letter
//! ("Springer", "knight", "N", "S") becomes a [`Role`].

use shakmaty::Role;

use super::fold::{fold, folds_to};
use super::vocab::MoveWords;

/// The English piece names, understood in every language.
const ENGLISH: [(&str, Role); 6] = [
    ("king", Role::King),
    ("queen", Role::Queen),
    ("rook", Role::Rook),
    ("bishop", Role::Bishop),
    ("knight", Role::Knight),
    ("pawn", Role::Pawn),
];

/// The English letters of the pieces a pawn may become.
const ENGLISH_PROMOTION_LETTERS: [(&str, Role); 4] = [
    ("q", Role::Queen),
    ("r", Role::Rook),
    ("b", Role::Bishop),
    ("n", Role::Knight),
];

/// Every piece a word may name, in order of preference: an English piece
/// name first, then each vocabulary's piece words and letters in turn.
fn roles_named<'a>(
    word: &str,
    vocabularies: &'a [&'a MoveWords],
    roles: &'a [Role],
) -> impl Iterator<Item = Role> + 'a {
    let w: std::rc::Rc<str> = fold(word).into();
    let english = ENGLISH
        .iter()
        .filter(|(name, _)| **name == *w)
        .map(|(_, r)| *r)
        .filter(|r| roles.contains(r))
        .collect::<Vec<_>>();
    english
        .into_iter()
        .chain(vocabularies.iter().flat_map(move |v| {
            let w = w.clone();
            roles.iter().copied().filter(move |role| {
                folds_to(v.piece(*role), &w)
                    || v.letters.letter(*role).is_some_and(|l| folds_to(l, &w))
            })
        }))
}

/// The piece a word names ("knight", "Springer", "S", "cavallo"), in the
/// words of any of `vocabularies`.
pub fn role_named(word: &str, vocabularies: &[&MoveWords]) -> Option<Role> {
    roles_named(word, vocabularies, &Role::ALL).next()
}

/// The piece a pawn becomes, named by a word or letter (`Dame`, `=Q`,
/// `knight`); kings and pawns are not promotion pieces.
pub fn promotion_role_named(word: &str, vocabularies: &[&MoveWords]) -> Option<Role> {
    let w = fold(word.trim().trim_start_matches('='));
    if w.is_empty() {
        return None;
    }
    if let Some((_, r)) = ENGLISH_PROMOTION_LETTERS.iter().find(|(l, _)| *l == w) {
        return Some(*r);
    }
    const PROMOTION: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];
    roles_named(&w, vocabularies, &PROMOTION).next()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::vocab::{Lang, builtin, builtin_appendix_d};

    #[test]
    fn piece_words_of_every_vocabulary() {
        let d = builtin_appendix_d().moves;
        let it = builtin(Lang::It).moves;
        let v = [&d, &it];
        assert_eq!(role_named("knight", &v), Some(Role::Knight));
        assert_eq!(role_named("Läufer", &v), Some(Role::Bishop));
        assert_eq!(role_named("LAEUFER", &v), Some(Role::Bishop));
        assert_eq!(role_named("cavallo", &v), Some(Role::Knight));
        assert_eq!(role_named("S", &v), Some(Role::Knight));
        assert_eq!(role_named("purple", &v), None);
    }

    #[test]
    fn promotion_pieces_only() {
        let d = builtin_appendix_d().moves;
        let v = [&d];
        assert_eq!(promotion_role_named("=Q", &v), Some(Role::Queen));
        assert_eq!(promotion_role_named("Dame", &v), Some(Role::Queen));
        assert_eq!(promotion_role_named(" n ", &v), Some(Role::Knight));
        assert_eq!(promotion_role_named("König", &v), None);
        assert_eq!(promotion_role_named("pawn", &v), None);
        assert_eq!(promotion_role_named("", &v), None);
    }
}
