//! How a piece is drawn: a letter, a figurine, or a large glyph of block
//! characters for players who see shapes better than letters.

use shakmaty::{Color, Role};

pub use crate::view::PieceStyle;

/// The figurine of a piece.
pub fn figurine(color: Color, role: Role) -> char {
    match (color, role) {
        (Color::White, Role::King) => '♔',
        (Color::White, Role::Queen) => '♕',
        (Color::White, Role::Rook) => '♖',
        (Color::White, Role::Bishop) => '♗',
        (Color::White, Role::Knight) => '♘',
        (Color::White, Role::Pawn) => '♙',
        (Color::Black, Role::King) => '♚',
        (Color::Black, Role::Queen) => '♛',
        (Color::Black, Role::Rook) => '♜',
        (Color::Black, Role::Bishop) => '♝',
        (Color::Black, Role::Knight) => '♞',
        (Color::Black, Role::Pawn) => '♟',
    }
}

/// Width of a glyph in cells.
pub const GLYPH_W: usize = 5;
/// Height of a glyph in cells (each cell holds two pixel rows).
pub const GLYPH_H: usize = 3;

/// The shape of each piece, 5 pixels wide and 6 high (`#` is body).
fn shape(role: Role) -> [&'static str; 6] {
    match role {
        Role::Pawn => [".....", "..#..", ".###.", "..#..", ".###.", "#####"],
        Role::Knight => [".##..", "####.", "#.##.", "..##.", ".###.", "#####"],
        Role::Bishop => ["..#..", ".#.#.", ".##..", ".###.", "..#..", "#####"],
        Role::Rook => ["#.#.#", "#####", ".###.", ".###.", ".###.", "#####"],
        Role::Queen => ["#.#.#", ".###.", "#####", ".###.", ".###.", "#####"],
        Role::King => ["..#..", "#####", "..#..", ".###.", ".###.", "#####"],
    }
}

/// The shape as pixels: 6 rows of 5, `true` for the body.
pub fn pixels(role: Role) -> [[bool; GLYPH_W]; 2 * GLYPH_H] {
    let s = shape(role);
    std::array::from_fn(|y| std::array::from_fn(|x| s[y].as_bytes()[x] == b'#'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glyphs_differ_for_every_role() {
        let all: Vec<_> = Role::ALL.iter().map(|r| pixels(*r)).collect();
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert_ne!(a, b);
            }
        }
        assert_eq!(pixels(Role::Rook)[0], [true, false, true, false, true]);
    }

    #[test]
    fn style_names() {
        assert_eq!(PieceStyle::from_name("blocks"), Some(PieceStyle::Blocks));
        assert_eq!(PieceStyle::from_name("letters"), Some(PieceStyle::Letters));
        assert_eq!(PieceStyle::from_name("x"), None);
    }
}
