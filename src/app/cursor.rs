//! The full-screen view's square cursor: exploring the board square by
//! square (each step said: "Felix drei: weißer Springer"), jumping to a
//! rank, a file or the next piece of a kind, and choosing a move with it
//! (the piece, then its square; a promotion asks which piece).  Keys and
//! mouse clicks arrive as [`Msg::Key`](crate::msg::Msg::Key).

use shakmaty::{CastlingSide, Chess, Color, File, Move, Position, Rank, Role, Square};

use super::voice::Voice;
use crate::game::Game;
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

/// What the cursor answers that only the App may do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum CursorNote {
    /// Play this move (chosen with the cursor).
    Play(Move),
    /// No legal move goes there: the move as typed (`e2e5`), for the
    /// reader to say why.
    Typed(String),
}

impl Cursor {
    /// Say the cursor's square and what is on it in `pos`.
    fn say_square(&self, pos: &Chess, v: &mut Voice<'_>) {
        let t = v.phraser().square_contents(pos, self.square);
        // Exploring interrupts itself: each step replaces the last.
        v.say(t, Priority::Info, SayKind::Info);
    }

    /// To `sq`, said.
    pub(super) fn go(&mut self, sq: Square, pos: &Chess, v: &mut Voice<'_>) {
        self.square = sq;
        self.say_square(pos, v);
    }

    /// One square in a direction (files, ranks); at the edge the cursor
    /// stays and its square is said again.
    pub(super) fn step(&mut self, df: i32, dr: i32, pos: &Chess, v: &mut Voice<'_>) {
        let f = i32::from(self.square.file() as u8) + df;
        let r = i32::from(self.square.rank() as u8) + dr;
        if let (Ok(f), Ok(r)) = (u32::try_from(f), u32::try_from(r))
            && f < 8
            && r < 8
        {
            self.square = Square::from_coords(File::new(f), Rank::new(r));
        }
        self.say_square(pos, v);
    }

    /// The next piece of a kind after the cursor (a1, b1, ... h8, round).
    pub(super) fn next_piece(&mut self, role: Role, pos: &Chess, v: &mut Voice<'_>) {
        let board = pos.board();
        let start = self.square as usize;
        let found = (1..=64)
            .map(|i| Square::new(((start + i) % 64) as u32))
            .find(|s| board.role_at(*s) == Some(role));
        match found {
            Some(s) => self.go(s, pos, v),
            None => {
                let piece = v.phraser().piece(role);
                let t = v.text("cursor_none", &[("piece", &piece)]);
                v.info(t);
            }
        }
    }

    /// Drop the piece chosen (or the promotion asked for), and say so.
    pub(super) fn cancel(&mut self, v: &mut Voice<'_>) {
        if self.chosen.take().is_some() | self.promoting.take().is_some() {
            let t = v.text("cursor_cancelled", &[]);
            v.info(t);
        }
    }

    /// Show the board from the other side, and say whose side is below
    /// (`me`: the player's, below unless flipped).
    pub(super) fn flip(&mut self, me: Color, v: &mut Voice<'_>) {
        self.flipped = !self.flipped;
        let bottom = if self.white_at_bottom(me) {
            Color::White
        } else {
            Color::Black
        };
        let side = v.phraser().side(bottom);
        let t = v.text("view_flipped", &[("side", &side)]);
        v.info(t);
    }

    /// White's first rank at the bottom, for the player `me`.
    pub(super) fn white_at_bottom(&self, me: Color) -> bool {
        (me == Color::White) != self.flipped
    }

    /// Enter (or a click): choose the piece, then its square, in `game`.
    #[must_use]
    pub(super) fn select(&mut self, game: &Game, v: &mut Voice<'_>) -> Option<CursorNote> {
        let sq = self.square;
        let pos = game.position();
        if self.promoting.is_some() {
            ask_promotion(v);
            return None;
        }
        let own = pos.board().color_at(sq) == Some(pos.turn());
        let Some(from) = self.chosen.filter(|from| *from != sq && !own) else {
            if self.chosen == Some(sq) {
                self.chosen = None;
                let t = v.text("cursor_cancelled", &[]);
                v.info(t);
            } else if own && !game.is_over() {
                self.chosen = Some(sq);
                let t = v.phraser().square_contents(pos, sq);
                let t = v.text("cursor_chosen", &[("piece", &t)]);
                v.info(t);
            } else {
                let square = v.phraser().square(sq);
                let side = v.phraser().side(pos.turn());
                v.error("cursor_not_own", &[("square", &square), ("side", &side)]);
            }
            return None;
        };
        let moves: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.from() == Some(from) && target(m, pos.turn()) == sq)
            .collect();
        self.chosen = None;
        match moves.as_slice() {
            // The reader says why, as for a typed move.
            [] => Some(CursorNote::Typed(format!("{from}{sq}"))),
            [m] if m.promotion().is_none() => Some(CursorNote::Play(*m)),
            _ => {
                self.promoting = Some((from, sq));
                ask_promotion(v);
                None
            }
        }
    }

    /// The piece for the pawn waiting to promote: its move, or the
    /// question again.
    #[must_use]
    pub(super) fn promote_to(
        &mut self,
        role: Role,
        pos: &Chess,
        v: &mut Voice<'_>,
    ) -> Option<CursorNote> {
        let (from, to) = self.promoting?;
        let mv = pos
            .legal_moves()
            .into_iter()
            .find(|m| m.from() == Some(from) && m.to() == to && m.promotion() == Some(role));
        match mv {
            Some(m) => {
                self.promoting = None;
                Some(CursorNote::Play(m))
            }
            None => {
                ask_promotion(v);
                None
            }
        }
    }
}

/// Which piece the pawn becomes, asked.
fn ask_promotion(v: &mut Voice<'_>) {
    let names: Vec<String> = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight]
        .into_iter()
        .map(|r| v.phraser().piece(r))
        .collect();
    let comma = v.text("list_comma", &[]);
    let or = v.text("list_or", &[]);
    let list = format!("{}{or}{}", names[..3].join(&comma), names[3]);
    v.say_key(
        "cursor_promotion",
        &[("list", &list)],
        Priority::Normal,
        SayKind::Info,
    );
}

#[cfg(test)]
mod tests;
