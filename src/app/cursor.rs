//! The full-screen view's square cursor: exploring the board square by
//! square (each step said: "Felix drei: weißer Springer"), jumping to a
//! rank, a file or the next piece of a kind, and choosing a move with it
//! (the piece, then its square; a promotion asks which piece).  Keys and
//! mouse clicks arrive as [`Msg::Key`](crate::msg::Msg::Key).

use shakmaty::{CastlingSide, Color, File, Move, Position, Rank, Role, Square};

use super::App;
use crate::action::{KeyArg, PlayerAction};
use crate::command::{Command, Side};
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
        self.cursor.square
    }

    /// The piece chosen with the cursor, waiting for its target.
    pub fn chosen(&self) -> Option<Square> {
        self.cursor.chosen
    }

    /// The board is shown from the other side than the player's.
    pub fn view_flipped(&self) -> bool {
        self.cursor.flipped
    }

    /// White's first rank at the bottom of the full-screen view.
    pub fn white_at_bottom(&self) -> bool {
        (self.me == Color::White) != self.cursor.flipped
    }

    /// The last sentence said (what the full-screen view shows large).
    pub fn last_said_text(&self) -> Option<&str> {
        self.last_said.as_ref().map(|u| u.text.as_str())
    }

    pub(super) fn on_key(&mut self, action: PlayerAction, arg: KeyArg, out: &mut Vec<Effect>) {
        // The question whether both players agree to take back after the
        // end is answered by the next key, like by the next line.
        if self.question == Some(super::Question::TakebackAfterEnd) {
            self.question = None;
            match action {
                PlayerAction::Accept => return self.take_back_agreed(out),
                PlayerAction::Decline => {
                    let t = self.message("takeback_after_end_kept", &[]);
                    return self.info(out, t);
                }
                _ => {}
            }
        }
        let sq = self.cursor.square;
        let up = if self.white_at_bottom() { 1 } else { -1 };
        match action {
            PlayerAction::CursorUp => self.step(0, up, out),
            PlayerAction::CursorDown => self.step(0, -up, out),
            PlayerAction::CursorRight => self.step(up, 0, out),
            PlayerAction::CursorLeft => self.step(-up, 0, out),
            PlayerAction::CursorRank => match arg {
                KeyArg::Rank(r) => self.go(Square::from_coords(sq.file(), r), out),
                _ => self.key_needs_arg(action, out),
            },
            PlayerAction::CursorFile => match arg {
                KeyArg::File(f) => self.go(Square::from_coords(f, sq.rank()), out),
                _ => self.key_needs_arg(action, out),
            },
            PlayerAction::NextPiece => match arg {
                KeyArg::Role(role) if self.cursor.promoting.is_some() => self.promote_to(role, out),
                KeyArg::Role(role) => self.next_piece(role, out),
                _ => self.key_needs_arg(action, out),
            },
            PlayerAction::Select => {
                if let KeyArg::Square(s) = arg {
                    self.cursor.square = s;
                }
                self.select(out);
            }
            PlayerAction::Cancel => {
                if self.cursor.chosen.take().is_some() | self.cursor.promoting.take().is_some() {
                    let t = self.message("cursor_cancelled", &[]);
                    self.info(out, t);
                }
            }
            PlayerAction::FlipView => {
                self.cursor.flipped = !self.cursor.flipped;
                let bottom = if self.white_at_bottom() {
                    Color::White
                } else {
                    Color::Black
                };
                let side = self.phraser.side(bottom);
                let t = self.message("view_flipped", &[("side", &side)]);
                self.info(out, t);
            }
            PlayerAction::PieceStyle
            | PlayerAction::Coordinates
            | PlayerAction::MoveList
            | PlayerAction::Theme
            | PlayerAction::LargeText => self.on_look(action, out),
            // Questions about the cursor's square, rank and file.
            PlayerAction::Square => self.on_command(Command::Square(sq), out),
            PlayerAction::Attackers => self.on_command(
                Command::Attackers {
                    square: sq,
                    side: None,
                },
                out,
            ),
            PlayerAction::Defenders => self.on_command(
                Command::Defenders {
                    square: sq,
                    side: None,
                },
                out,
            ),
            PlayerAction::Moves => self.on_command(Command::Moves(sq), out),
            PlayerAction::Rank => self.on_command(Command::Rank(sq.rank()), out),
            PlayerAction::File => self.on_command(Command::File(sq.file()), out),
            PlayerAction::Pieces => self.on_command(
                Command::Pieces {
                    side: Side::Mine,
                    role: None,
                },
                out,
            ),
            PlayerAction::Last => self.on_command(Command::Last(1), out),
            // The same key again answers "are you sure?".
            PlayerAction::Quit | PlayerAction::New | PlayerAction::Resign
                if self.question == Some(super::Question::Confirm(action)) =>
            {
                self.question = None;
                self.on_action_confirmed(action, out);
            }
            PlayerAction::Claim => self.on_command(Command::Claim(None), out),
            PlayerAction::Time => {
                self.on_command(Command::Time(crate::command::TimeQuery::Both), out)
            }
            other => self.on_action(other, out),
        }
    }

    fn key_needs_arg(&mut self, action: PlayerAction, out: &mut Vec<Effect>) {
        let t = self.help_line(action);
        self.say(out, t, Priority::Normal, SayKind::Error);
    }

    /// Say the cursor's square and what is on it.
    fn say_cursor(&mut self, out: &mut Vec<Effect>) {
        let t = self
            .phraser
            .square_contents(self.game.position(), self.cursor.square);
        // Exploring interrupts itself: each step replaces the last.
        self.say(out, t, Priority::Info, SayKind::Info);
    }

    fn go(&mut self, sq: Square, out: &mut Vec<Effect>) {
        self.cursor.square = sq;
        self.say_cursor(out);
    }

    /// One square in a direction (files, ranks); at the edge the cursor
    /// stays and its square is said again.
    fn step(&mut self, df: i32, dr: i32, out: &mut Vec<Effect>) {
        let sq = self.cursor.square;
        let f = i32::from(sq.file() as u8) + df;
        let r = i32::from(sq.rank() as u8) + dr;
        if let (Ok(f), Ok(r)) = (u32::try_from(f), u32::try_from(r))
            && f < 8
            && r < 8
        {
            self.cursor.square = Square::from_coords(File::new(f), Rank::new(r));
        }
        self.say_cursor(out);
    }

    /// The next piece of a kind after the cursor (a1, b1, ... h8, round).
    fn next_piece(&mut self, role: Role, out: &mut Vec<Effect>) {
        let board = self.game.position().board();
        let start = self.cursor.square as usize;
        let found = (1..=64)
            .map(|i| Square::new(((start + i) % 64) as u32))
            .find(|s| board.role_at(*s) == Some(role));
        match found {
            Some(s) => self.go(s, out),
            None => {
                let piece = self.phraser.piece(role);
                let t = self.message("cursor_none", &[("piece", &piece)]);
                self.info(out, t);
            }
        }
    }

    /// Enter (or a click): choose the piece, then its square.
    fn select(&mut self, out: &mut Vec<Effect>) {
        let sq = self.cursor.square;
        let pos = self.game.position().clone();
        if self.cursor.promoting.is_some() {
            self.ask_promotion(out);
            return;
        }
        let own = pos.board().color_at(sq) == Some(pos.turn());
        let Some(from) = self.cursor.chosen.filter(|from| *from != sq && !own) else {
            if self.cursor.chosen == Some(sq) {
                self.cursor.chosen = None;
                let t = self.message("cursor_cancelled", &[]);
                self.info(out, t);
            } else if own && !self.game.is_over() {
                self.cursor.chosen = Some(sq);
                let t = self.phraser.square_contents(&pos, sq);
                let t = self.message("cursor_chosen", &[("piece", &t)]);
                self.info(out, t);
            } else {
                let square = self.phraser.square(sq);
                let side = self.phraser.side(pos.turn());
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
        self.cursor.chosen = None;
        match moves.as_slice() {
            [] => {
                // The reader says why, as for a typed move.
                let text = format!("{from}{sq}");
                self.on_move_text(&text, out);
            }
            [m] if m.promotion().is_none() => self.play(*m, out),
            _ => {
                self.cursor.promoting = Some((from, sq));
                self.ask_promotion(out);
            }
        }
    }

    fn ask_promotion(&mut self, out: &mut Vec<Effect>) {
        let names: Vec<String> = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight]
            .into_iter()
            .map(|r| self.phraser.piece(r))
            .collect();
        let comma = self.message("list_comma", &[]);
        let or = self.message("list_or", &[]);
        let list = format!("{}{or}{}", names[..3].join(&comma), names[3]);
        let t = self.message("cursor_promotion", &[("list", &list)]);
        self.say(out, t, Priority::Normal, SayKind::Info);
    }

    fn promote_to(&mut self, role: Role, out: &mut Vec<Effect>) {
        let Some((from, to)) = self.cursor.promoting else {
            return;
        };
        let pos = self.game.position().clone();
        let mv = pos
            .legal_moves()
            .into_iter()
            .find(|m| m.from() == Some(from) && m.to() == to && m.promotion() == Some(role));
        match mv {
            Some(m) => {
                self.cursor.promoting = None;
                self.play(m, out);
            }
            None => self.ask_promotion(out),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;
    use crate::msg::Msg;
    use crate::words::Lang;

    fn said(effects: &[Effect]) -> Vec<String> {
        effects
            .iter()
            .filter_map(|e| match e {
                Effect::Say(u) => Some(u.text.clone()),
                _ => None,
            })
            .collect()
    }

    fn key(app: &mut App, action: PlayerAction, arg: KeyArg) -> Vec<String> {
        said(&app.update(Msg::Key(action, arg), Instant::now()))
    }

    fn de() -> App {
        App::builder().lang(Lang::De).build()
    }

    /// The take-back question after the end is answered by a key too, and
    /// any other key forgets it: a later yes takes nothing back.
    #[test]
    fn the_takeback_question_after_the_end_is_answered_by_a_key() {
        let now = Instant::now();
        let mut a = App::builder().build();
        for l in ["e4", "e5", "resign", "takeback"] {
            a.update(Msg::Line(l.into()), now);
        }
        a.update(Msg::Key(PlayerAction::Decline, KeyArg::None), now);
        assert!(a.game().is_over());
        a.update(Msg::Line("takeback".into()), now);
        a.update(Msg::Key(PlayerAction::CursorUp, KeyArg::None), now);
        a.update(Msg::Key(PlayerAction::Accept, KeyArg::None), now);
        assert!(a.game().is_over(), "the question was forgotten");
        a.update(Msg::Line("takeback".into()), now);
        a.update(Msg::Key(PlayerAction::Accept, KeyArg::None), now);
        assert!(!a.game().is_over());
    }

    #[test]
    fn each_step_is_said() {
        let mut a = de();
        assert_eq!(a.cursor(), Square::E1);
        assert_eq!(
            key(&mut a, PlayerAction::CursorUp, KeyArg::None),
            ["Eva zwei: weißer Bauer"]
        );
        assert_eq!(a.cursor(), Square::E2);
        key(&mut a, PlayerAction::CursorRank, KeyArg::Rank(Rank::First));
        assert_eq!(
            key(&mut a, PlayerAction::CursorRight, KeyArg::None),
            ["Felix eins: weißer Läufer"]
        );
        assert_eq!(
            key(&mut a, PlayerAction::CursorRight, KeyArg::None),
            ["Gustav eins: weißer Springer"]
        );
        assert_eq!(
            key(&mut a, PlayerAction::CursorRank, KeyArg::Rank(Rank::Third)),
            ["Gustav drei: leer"]
        );
        assert_eq!(
            key(&mut a, PlayerAction::CursorFile, KeyArg::File(File::A)),
            ["Anna drei: leer"]
        );
    }

    #[test]
    fn edge_keeps_the_cursor() {
        let mut a = App::builder().build();
        key(&mut a, PlayerAction::CursorDown, KeyArg::None);
        assert_eq!(a.cursor(), Square::E1);
        key(&mut a, PlayerAction::CursorFile, KeyArg::File(File::H));
        key(&mut a, PlayerAction::CursorRight, KeyArg::None);
        assert_eq!(a.cursor(), Square::H1);
    }

    #[test]
    fn seen_from_black_up_is_down() {
        let mut a = App::builder().me(Color::Black).build();
        assert_eq!(a.cursor(), Square::E8);
        assert!(!a.white_at_bottom());
        key(&mut a, PlayerAction::CursorUp, KeyArg::None);
        assert_eq!(a.cursor(), Square::E7);
        key(&mut a, PlayerAction::CursorRight, KeyArg::None);
        assert_eq!(a.cursor(), Square::D7);
        // Flipped to White's view: up is towards rank 8 again.
        let t = key(&mut a, PlayerAction::FlipView, KeyArg::None);
        assert_eq!(t, ["The board is shown from White's side."]);
        key(&mut a, PlayerAction::CursorUp, KeyArg::None);
        assert_eq!(a.cursor(), Square::D8);
    }

    #[test]
    fn next_piece_of_a_kind() {
        let mut a = de();
        assert_eq!(
            key(&mut a, PlayerAction::NextPiece, KeyArg::Role(Role::Knight)),
            ["Gustav eins: weißer Springer"]
        );
        key(&mut a, PlayerAction::NextPiece, KeyArg::Role(Role::Knight));
        assert_eq!(a.cursor(), Square::B8);
        key(&mut a, PlayerAction::NextPiece, KeyArg::Role(Role::Knight));
        assert_eq!(a.cursor(), Square::G8);
        key(&mut a, PlayerAction::NextPiece, KeyArg::Role(Role::Knight));
        assert_eq!(a.cursor(), Square::B1, "round again");
        // A kind that is not on the board.
        let mut c = App::builder().build();
        c.game = crate::game::Game::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(
            key(&mut c, PlayerAction::NextPiece, KeyArg::Role(Role::Queen)),
            ["There is no Dame on the board."]
        );
    }

    #[test]
    fn choose_a_move_with_enter_enter() {
        let mut a = App::builder().build();
        key(&mut a, PlayerAction::NextPiece, KeyArg::Role(Role::Knight));
        let t = key(&mut a, PlayerAction::Select, KeyArg::None);
        assert_eq!(t, ["Gustav eins: white Springer. Now its square."]);
        assert_eq!(a.chosen(), Some(Square::G1));
        key(&mut a, PlayerAction::CursorRank, KeyArg::Rank(Rank::Third));
        key(&mut a, PlayerAction::CursorFile, KeyArg::File(File::F));
        let t = key(&mut a, PlayerAction::Select, KeyArg::None);
        assert_eq!(t, ["Springer Felix drei"]);
        assert_eq!(a.chosen(), None);
        assert_eq!(a.game().ply_count(), 1);
    }

    #[test]
    fn click_piece_click_target() {
        let mut a = App::builder().build();
        key(&mut a, PlayerAction::Select, KeyArg::Square(Square::E2));
        let t = key(&mut a, PlayerAction::Select, KeyArg::Square(Square::E4));
        assert_eq!(t, ["Bauer Eva vier"]);
        // Black's turn: a click on a white piece is refused.
        let t = key(&mut a, PlayerAction::Select, KeyArg::Square(Square::D2));
        assert_eq!(t, ["David zwei: choose a piece of Black."]);
    }

    #[test]
    fn illegal_target_says_why_and_castling_by_the_king() {
        let mut a = App::builder().build();
        key(&mut a, PlayerAction::Select, KeyArg::Square(Square::E2));
        let t = key(&mut a, PlayerAction::Select, KeyArg::Square(Square::E5));
        assert_eq!(t.len(), 1);
        assert!(t[0].contains("not legal"), "{t:?}");
        let mut b = App::builder().build();
        b.game = crate::game::Game::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        key(&mut b, PlayerAction::Select, KeyArg::Square(Square::E1));
        let t = key(&mut b, PlayerAction::Select, KeyArg::Square(Square::G1));
        assert_eq!(t.len(), 1, "{t:?}");
        assert_eq!(
            b.game().position().board().king_of(Color::White),
            Some(Square::G1)
        );
    }

    #[test]
    fn promotion_asks_which_piece() {
        let mut a = App::builder().build();
        a.game = crate::game::Game::from_fen("7k/P7/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
        key(&mut a, PlayerAction::Select, KeyArg::Square(Square::A7));
        let t = key(&mut a, PlayerAction::Select, KeyArg::Square(Square::A8));
        assert_eq!(
            t,
            ["Which piece does the pawn become: Dame, Turm, Läufer or Springer?"]
        );
        // Enter again only asks again.
        let t = key(&mut a, PlayerAction::Select, KeyArg::None);
        assert_eq!(t.len(), 1);
        let t = key(&mut a, PlayerAction::NextPiece, KeyArg::Role(Role::Knight));
        assert_eq!(t, ["Bauer Anna acht wird Springer"]);
        assert_eq!(
            a.game().position().board().role_at(Square::A8),
            Some(Role::Knight)
        );
    }

    #[test]
    fn quit_key_twice_during_a_game() {
        let mut a = App::builder().ask_before_leaving(true).build();
        key(&mut a, PlayerAction::Select, KeyArg::Square(Square::E2));
        key(&mut a, PlayerAction::Select, KeyArg::Square(Square::E4));
        let e = a.update(Msg::Key(PlayerAction::Quit, KeyArg::None), Instant::now());
        assert!(!e.contains(&Effect::Quit));
        assert_eq!(
            said(&e),
            ["A game is in progress. Say quit again to leave, or no to go on."]
        );
        let e = a.update(Msg::Key(PlayerAction::Quit, KeyArg::None), Instant::now());
        assert!(e.contains(&Effect::Quit), "{e:?}");
    }

    #[test]
    fn cancel_drops_the_choice() {
        let mut a = App::builder().build();
        key(&mut a, PlayerAction::Select, KeyArg::Square(Square::G1));
        let t = key(&mut a, PlayerAction::Cancel, KeyArg::None);
        assert_eq!(t, ["Choice dropped."]);
        assert_eq!(a.chosen(), None);
        // Nothing chosen: nothing said.
        assert!(key(&mut a, PlayerAction::Cancel, KeyArg::None).is_empty());
    }

    #[test]
    fn questions_about_the_cursor_square() {
        let mut a = App::builder().build();
        key(&mut a, PlayerAction::CursorFile, KeyArg::File(File::F));
        key(&mut a, PlayerAction::CursorRank, KeyArg::Rank(Rank::Third));
        // An empty square: what of the side not to move attacks it.
        let t = key(&mut a, PlayerAction::Attackers, KeyArg::None);
        assert_eq!(t, ["Nothing attacks Felix drei."]);
        let t = key(&mut a, PlayerAction::Defenders, KeyArg::None);
        assert_eq!(t.len(), 1);
        assert!(t[0].contains("Felix drei"), "{t:?}");
        let t = key(&mut a, PlayerAction::Square, KeyArg::None);
        assert_eq!(t, ["Felix drei: empty"]);
    }
}
