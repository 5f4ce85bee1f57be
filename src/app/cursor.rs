//! The full-screen view's square cursor: exploring the board square by
//! square (each step said: "Felix drei: weißer Springer"), jumping to a
//! rank, a file or the next piece of a kind, and choosing a move with it
//! (the piece, then its square; a promotion asks which piece).  Keys and
//! mouse clicks arrive as [`Msg::Key`](crate::msg::Msg::Key).

use std::time::Instant;

use shakmaty::{CastlingSide, Color, File, Move, Position, Rank, Role, Square};

use super::App;
use crate::msg::Effect;
use crate::speech::{Priority, SayKind};

/// Where the cursor is and what it has chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Cursor {
    pub(super) square: Square,
    /// The piece chosen to move.
    pub(super) chosen: Option<Square>,
    /// A pawn move waiting for its promotion piece.
    pub(super) promoting: Option<(Square, Square)>,
    /// The board shown from the other side than the player's.
    pub(super) flipped: bool,
}

impl Cursor {
    /// On the player's king's square.
    pub(super) fn new(me: Color) -> Cursor {
        Cursor {
            square: match me {
                Color::White => Square::E1,
                Color::Black => Square::E8,
            },
            chosen: None,
            promoting: None,
            flipped: false,
        }
    }
}

/// The square a move goes to as a player points at it: the king's square
/// for castling (shakmaty's `to` is the rook's).
fn target(mv: &Move, mover: Color) -> Square {
    match *mv {
        Move::Castle { king, rook } => CastlingSide::from_king_side(rook > king).king_to(mover),
        _ => mv.to(),
    }
}

impl App {
    /// The cursor's square.
    pub fn cursor(&self) -> Square {
        self.parts.view.cursor.square
    }

    /// The piece chosen with the cursor, waiting for its target.
    pub fn chosen(&self) -> Option<Square> {
        self.parts.view.cursor.chosen
    }

    /// The board is shown from the other side than the player's.
    pub fn view_flipped(&self) -> bool {
        self.parts.view.cursor.flipped
    }

    /// White's first rank at the bottom of the full-screen view.
    pub fn white_at_bottom(&self) -> bool {
        (self.settings.me == Color::White) != self.parts.view.cursor.flipped
    }

    /// The last sentence said (what the full-screen view shows large).
    pub fn last_said_text(&self) -> Option<&str> {
        self.talk.last_said.as_ref().map(|u| u.text.as_str())
    }

    /// Drop the piece chosen (or the promotion asked for), and say so.
    pub(super) fn cursor_cancel(&mut self, out: &mut Vec<Effect>) {
        if self.parts.view.cursor.chosen.take().is_some()
            | self.parts.view.cursor.promoting.take().is_some()
        {
            let t = self.message("cursor_cancelled", &[]);
            self.info(out, t);
        }
    }

    /// Show the board from the other side, and say whose side is below.
    pub(super) fn flip_view(&mut self, out: &mut Vec<Effect>) {
        self.parts.view.cursor.flipped = !self.parts.view.cursor.flipped;
        let bottom = if self.white_at_bottom() {
            Color::White
        } else {
            Color::Black
        };
        let side = self.talk.phraser.side(bottom);
        let t = self.message("view_flipped", &[("side", &side)]);
        self.info(out, t);
    }

    /// Say the cursor's square and what is on it.
    fn say_cursor(&mut self, out: &mut Vec<Effect>) {
        let t = self
            .talk
            .phraser
            .square_contents(self.game.position(), self.parts.view.cursor.square);
        // Exploring interrupts itself: each step replaces the last.
        self.say(out, t, Priority::Info, SayKind::Info);
    }

    pub(super) fn go(&mut self, sq: Square, out: &mut Vec<Effect>) {
        self.parts.view.cursor.square = sq;
        self.say_cursor(out);
    }

    /// One square in a direction (files, ranks); at the edge the cursor
    /// stays and its square is said again.
    pub(super) fn step(&mut self, df: i32, dr: i32, out: &mut Vec<Effect>) {
        let sq = self.parts.view.cursor.square;
        let f = i32::from(sq.file() as u8) + df;
        let r = i32::from(sq.rank() as u8) + dr;
        if let (Ok(f), Ok(r)) = (u32::try_from(f), u32::try_from(r))
            && f < 8
            && r < 8
        {
            self.parts.view.cursor.square = Square::from_coords(File::new(f), Rank::new(r));
        }
        self.say_cursor(out);
    }

    /// The next piece of a kind after the cursor (a1, b1, ... h8, round).
    pub(super) fn next_piece(&mut self, role: Role, out: &mut Vec<Effect>) {
        let board = self.game.position().board();
        let start = self.parts.view.cursor.square as usize;
        let found = (1..=64)
            .map(|i| Square::new(((start + i) % 64) as u32))
            .find(|s| board.role_at(*s) == Some(role));
        match found {
            Some(s) => self.go(s, out),
            None => {
                let piece = self.talk.phraser.piece(role);
                let t = self.message("cursor_none", &[("piece", &piece)]);
                self.info(out, t);
            }
        }
    }

    /// Enter (or a click): choose the piece, then its square.
    pub(super) fn select(&mut self, now: Instant, out: &mut Vec<Effect>) {
        let sq = self.parts.view.cursor.square;
        let pos = self.game.position().clone();
        if self.parts.view.cursor.promoting.is_some() {
            self.ask_promotion(out);
            return;
        }
        let own = pos.board().color_at(sq) == Some(pos.turn());
        let Some(from) = self
            .parts
            .view
            .cursor
            .chosen
            .filter(|from| *from != sq && !own)
        else {
            if self.parts.view.cursor.chosen == Some(sq) {
                self.parts.view.cursor.chosen = None;
                let t = self.message("cursor_cancelled", &[]);
                self.info(out, t);
            } else if own && !self.game.is_over() {
                self.parts.view.cursor.chosen = Some(sq);
                let t = self.talk.phraser.square_contents(&pos, sq);
                let t = self.message("cursor_chosen", &[("piece", &t)]);
                self.info(out, t);
            } else {
                let square = self.talk.phraser.square(sq);
                let side = self.talk.phraser.side(pos.turn());
                let t = self.message("cursor_not_own", &[("square", &square), ("side", &side)]);
                self.say(out, t, Priority::Normal, SayKind::Error);
            }
            return;
        };
        let moves: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.from() == Some(from) && target(m, pos.turn()) == sq)
            .collect();
        self.parts.view.cursor.chosen = None;
        match moves.as_slice() {
            [] => {
                // The reader says why, as for a typed move.
                let text = format!("{from}{sq}");
                self.on_move_text(&text, now, out);
            }
            [m] if m.promotion().is_none() => self.play(*m, now, out),
            _ => {
                self.parts.view.cursor.promoting = Some((from, sq));
                self.ask_promotion(out);
            }
        }
    }

    fn ask_promotion(&mut self, out: &mut Vec<Effect>) {
        let names: Vec<String> = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight]
            .into_iter()
            .map(|r| self.talk.phraser.piece(r))
            .collect();
        let comma = self.message("list_comma", &[]);
        let or = self.message("list_or", &[]);
        let list = format!("{}{or}{}", names[..3].join(&comma), names[3]);
        let t = self.message("cursor_promotion", &[("list", &list)]);
        self.say(out, t, Priority::Normal, SayKind::Info);
    }

    pub(super) fn promote_to(&mut self, role: Role, now: Instant, out: &mut Vec<Effect>) {
        let Some((from, to)) = self.parts.view.cursor.promoting else {
            return;
        };
        let pos = self.game.position().clone();
        let mv = pos
            .legal_moves()
            .into_iter()
            .find(|m| m.from() == Some(from) && m.to() == to && m.promotion() == Some(role));
        match mv {
            Some(m) => {
                self.parts.view.cursor.promoting = None;
                self.play(m, now, out);
            }
            None => self.ask_promotion(out),
        }
    }
}

#[cfg(test)]
mod tests;
