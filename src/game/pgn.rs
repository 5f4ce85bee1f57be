//! The scoresheet as PGN movetext.

use std::fmt::Write;

use shakmaty::Color;

use super::core::Game;

impl Game {
    /// The moves in SAN with move numbers, `{(=)}` after each move that
    /// came with a draw offer, and the result (`*` while the game goes on).
    /// A game that starts with Black to move begins with `N...`.
    pub fn pgn_movetext(&self) -> String {
        let mut out = String::new();
        let mut need_number = true;
        for m in &self.history {
            if !out.is_empty() {
                out.push(' ');
            }
            // Writing to a String cannot fail.
            let _ = match (m.by, need_number) {
                (Color::White, _) => write!(out, "{}. {}", m.number, m.san),
                (Color::Black, true) => write!(out, "{}... {}", m.number, m.san),
                (Color::Black, false) => write!(out, "{}", m.san),
            };
            need_number = false;
            if m.draw_offer {
                out.push_str(" {(=)}");
                need_number = true;
            }
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(self.result.map_or("*", |r| r.outcome.as_str()));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::test_util::play_all;

    #[test]
    fn movetext_numbers_moves_and_ends_with_the_result() {
        let mut g = Game::new();
        assert_eq!(g.pgn_movetext(), "*");
        play_all(&mut g, &["f3", "e5", "g4", "Qh4#"]);
        assert_eq!(g.pgn_movetext(), "1. f3 e5 2. g4 Qh4# 0-1");
    }

    #[test]
    fn movetext_marks_draw_offers() {
        let mut g = Game::new();
        play_all(&mut g, &["e4", "e5", "Nf3"]);
        g.offer_draw(Color::White).unwrap();
        play_all(&mut g, &["Nc6"]);
        g.offer_draw(Color::Black).unwrap();
        g.accept_draw(Color::White).unwrap();
        assert_eq!(
            g.pgn_movetext(),
            "1. e4 e5 2. Nf3 {(=)} 2... Nc6 {(=)} 1/2-1/2"
        );
    }

    #[test]
    fn movetext_from_a_position_with_black_to_move() {
        let mut g = Game::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 30").unwrap();
        play_all(&mut g, &["Kd7", "e4"]);
        assert_eq!(g.pgn_movetext(), "30... Kd7 31. e4 *");
    }
}
