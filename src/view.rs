//! What the screen shows, as plain data: the view model shared by the
//! full-screen view ([`crate::ui::tui`]) and the opponent's page.  It is
//! built by [`View::build`] from the game state and holds no reference into
//! the app, so a front end can keep it, compare it with the next one (redraw
//! only on change) or send it elsewhere.
//!
//! Every text in it is already in the player's language (from the voices
//! files); the renderers only lay it out.

use std::time::Duration;

use shakmaty::{Color, Piece, Position, Square};

use crate::board::{Sensed, SquareDiff};
use crate::game::Game;
use crate::phrase::Phraser;
use crate::words::vocab::MoveWords;

/// Everything the full-screen view shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct View {
    pub board: BoardView,
    /// The side to move.
    pub turn: Color,
    /// "White to move, move 12." (with "in check" when it is).
    pub turn_text: String,
    /// Every move played, oldest first.
    pub moves: Vec<MoveEntry>,
    /// The last sentence said: what a deaf opponent reads.
    pub announcement: Option<String>,
    /// Both clocks, when a clock runs.
    pub clocks: Option<ClockView>,
    /// The standing draw offer, as a sentence ("White offers a draw.").
    pub offer: Option<String>,
    /// The result when the game is over ("Checkmate. White wins, 1-0.").
    pub result: Option<String>,
    /// Who offers the standing draw (the side of `offer`).
    pub offer_by: Option<Color>,
    /// The result as the scoresheet writes it ("1-0", "0-1", "1/2-1/2").
    pub outcome: Option<String>,
    /// The full-move number of the position.
    pub fullmove: u32,
    /// The tactile board: its link and how it agrees with the game.
    pub link: LinkView,
    /// The one-line input field.
    pub input: InputView,
    /// A short line under the board (e.g. what the cursor is on, a
    /// question such as which piece a pawn becomes).
    pub status: String,
    /// Texts of the frame itself, in the player's language.
    pub labels: Labels,
}

/// The board as drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardView {
    /// The piece on each square, indexed by `Square as usize` (a1 = 0,
    /// h8 = 63).
    pub pieces: Vec<Option<Piece>>,
    /// White's first rank at the bottom (else Black's).
    pub white_at_bottom: bool,
    /// From and to square of the last move (the king's squares for castling).
    pub last_move: Option<(Square, Square)>,
    /// The king in check.
    pub check: Option<Square>,
    /// Squares where the tactile board disagrees with the game.
    pub mismatch: Vec<SquareDiff>,
    /// The exploration cursor.
    pub cursor: Option<Square>,
    /// The piece chosen with the cursor, waiting for its target square.
    pub selected: Option<Square>,
    /// File names a..h as letters, and in the move words (Appendix D:
    /// "Anna" .. "Hector").
    pub file_letters: [String; 8],
    pub file_words: [String; 8],
    /// Rank names 1..8 as digits and in the move words ("eins" .. "acht").
    pub rank_digits: [String; 8],
    pub rank_words: [String; 8],
    /// The piece letters of the move words (for the letter style), indexed
    /// by `Role as usize - 1` (pawn, knight, bishop, rook, queen, king).
    pub piece_letters: [char; 6],
}

impl BoardView {
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.pieces.get(sq as usize).copied().flatten()
    }

    /// Is `sq` one the tactile board disagrees on?
    pub fn is_mismatch(&self, sq: Square) -> bool {
        self.mismatch.iter().any(|d| d.square == sq)
    }
}

/// One move of the move list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveEntry {
    /// The full-move number.
    pub number: u32,
    pub by: Color,
    /// SAN with `+`/`#`.
    pub san: String,
    /// As announced, in the move words ("Springer Felix drei").
    pub spoken: String,
}

/// Both clocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockView {
    pub white: Duration,
    pub black: Duration,
    /// The clock that runs, if one does.
    pub running: Option<Color>,
}

impl ClockView {
    /// Both clocks of `clock` at `now`; the running side when its time
    /// runs (not while paused or after a flag fell).
    pub fn of(clock: &crate::clock::Clock, now: std::time::Instant) -> ClockView {
        ClockView {
            white: clock.remaining(Color::White, now),
            black: clock.remaining(Color::Black, now),
            running: clock.is_running().then(|| clock.side_to_move()).flatten(),
        }
    }
}

/// The state of the tactile board's link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkState {
    /// No board is used.
    NoBoard,
    Connected,
    Disconnected,
    /// The board waits to be told which piece a pawn became.
    AwaitingPromotion,
    /// The port is open and no board has answered yet.
    Waiting,
    /// The port is open and the board stays quiet (it was asked again and
    /// is still asked): not the same as a pulled cable.
    Quiet,
}

/// The tactile board as shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkView {
    pub state: LinkState,
    /// The state, or the mismatch, as a sentence ("Board matches the game.").
    pub text: Option<String>,
}

/// The one-line input field.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InputView {
    pub text: String,
    /// The cursor, in characters from the start.
    pub cursor: usize,
    /// Keys go to the field (else they are commands).
    pub focused: bool,
}

/// The frame's own words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Labels {
    pub white: String,
    pub black: String,
    /// Shown instead of the board when the terminal is too small.
    pub too_small: String,
    /// The input field's prompt when it is empty.
    pub input_hint: String,
}

/// The front end's own state that the view shows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UiState {
    pub cursor: Option<Square>,
    pub selected: Option<Square>,
    pub input: InputView,
    pub status: String,
    /// Show the board turned round from what the player's side gives.
    pub flipped: bool,
}

/// The tactile board as the view needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardInfo {
    pub state: LinkState,
    pub mismatch: Vec<SquareDiff>,
}

impl BoardInfo {
    /// The state of a board session.
    pub fn of(session: &crate::board::BoardSession) -> BoardInfo {
        use crate::board::LinkState as Link;
        let state = if !session.connected() {
            match session.link_state() {
                Link::Starting | Link::Waiting { said: false, .. } => LinkState::Waiting,
                Link::Waiting { said: true, .. } => LinkState::Quiet,
                Link::Live | Link::Lost { .. } | Link::CannotOpen(_) => LinkState::Disconnected,
            }
        } else if session.awaiting_promotion() {
            LinkState::AwaitingPromotion
        } else {
            LinkState::Connected
        };
        let mismatch = if state == LinkState::Connected {
            session.tracker().mismatch()
        } else {
            Vec::new()
        };
        BoardInfo { state, mismatch }
    }
}

/// What the view is built from.
pub struct ViewInput<'a> {
    pub game: &'a Game,
    /// The player's words (messages and move words).
    pub phraser: &'a Phraser,
    /// The Appendix D words, for coordinates in words.
    pub appendix_d: &'a MoveWords,
    /// The blind player's side: the board is seen from it.
    pub me: Color,
    pub announcement: Option<&'a str>,
    pub clocks: Option<ClockView>,
    pub board: Option<BoardInfo>,
    pub ui: &'a UiState,
}

impl View {
    /// The view of the game and the front end's state.
    pub fn build(input: &ViewInput<'_>) -> View {
        let game = input.game;
        let phraser = input.phraser;
        let pos = game.position();
        let board = pos.board();
        let pieces = Square::ALL.iter().map(|sq| board.piece_at(*sq)).collect();
        let last_move = game.last_move().map(|m| {
            let from = m.mv.from().unwrap_or_else(|| m.mv.to());
            let to = match m.mv {
                shakmaty::Move::Castle { king, rook } => {
                    let side = shakmaty::CastlingSide::from_king_side(rook > king);
                    side.king_to(m.by)
                }
                _ => m.mv.to(),
            };
            (from, to)
        });
        let check = pos.is_check().then(|| board.king_of(pos.turn())).flatten();
        let moves = game
            .positions()
            .map(|(before, played)| MoveEntry {
                number: played.number,
                by: played.by,
                san: played.san.to_string(),
                spoken: phraser.move_phrase(before, played.mv),
            })
            .collect();
        let offer = game
            .pending_offer()
            .map(|by| phraser.message("draw_offered", &[("side", &phraser.side(by))]));
        let result = game
            .result()
            .map(|r| phraser.game_over(r.reason, r.outcome.winner()));
        let (link, mismatch) = match &input.board {
            None => (
                LinkView {
                    state: LinkState::NoBoard,
                    text: None,
                },
                Vec::new(),
            ),
            Some(info) => {
                let text = match info.state {
                    LinkState::NoBoard => None,
                    LinkState::Connected => Some(phraser.mismatch(&info.mismatch)),
                    LinkState::Disconnected => Some(phraser.message("board_not_connected", &[])),
                    LinkState::AwaitingPromotion => Some(phraser.message("board_promotion", &[])),
                    LinkState::Waiting => Some(phraser.message("view_board_waiting", &[])),
                    LinkState::Quiet => Some(phraser.message("view_board_quiet", &[])),
                };
                (
                    LinkView {
                        state: info.state,
                        text,
                    },
                    info.mismatch.clone(),
                )
            }
        };
        let words = phraser.move_words();
        let letters = |role: shakmaty::Role| {
            words
                .letters
                .letter(role)
                .and_then(|l| l.chars().next())
                .unwrap_or_else(|| role.upper_char())
        };
        let ui = input.ui;
        View {
            board: BoardView {
                pieces,
                white_at_bottom: (input.me == Color::White) != ui.flipped,
                last_move,
                check,
                mismatch,
                cursor: ui.cursor,
                selected: ui.selected,
                file_letters: std::array::from_fn(|i| char::from(b'a' + i as u8).to_string()),
                file_words: input.appendix_d.files.clone(),
                rank_digits: std::array::from_fn(|i| (i + 1).to_string()),
                rank_words: input.appendix_d.ranks.clone(),
                piece_letters: shakmaty::Role::ALL.map(letters),
            },
            turn: pos.turn(),
            turn_text: phraser.turn(pos),
            moves,
            announcement: input.announcement.map(str::to_owned),
            clocks: input.clocks,
            offer,
            result,
            offer_by: game.pending_offer(),
            outcome: game.result().map(|r| r.outcome.as_str().to_owned()),
            fullmove: pos.fullmoves().get(),
            link,
            input: ui.input.clone(),
            status: ui.status.clone(),
            labels: Labels {
                white: phraser.side(Color::White),
                black: phraser.side(Color::Black),
                too_small: phraser.message(
                    "view_too_small",
                    &[
                        ("width", &crate::ui::tui::render::MIN_WIDTH.to_string()),
                        ("height", &crate::ui::tui::render::MIN_HEIGHT.to_string()),
                    ],
                ),
                input_hint: phraser.message("view_input_hint", &[]),
            },
        }
    }
}

/// `m`, a move of the game, in SAN with `+`/`#` (its UCI form if the game
/// never made it).
pub fn san_in(game: &Game, m: shakmaty::Move) -> String {
    game.positions()
        .rev()
        .find(|(_, played)| played.mv == m)
        .map(|(before, _)| shakmaty::san::SanPlus::from_move(before.clone(), m).to_string())
        .unwrap_or_else(|| m.to_string())
}

/// What a mismatch square should hold and what the board has, as two short
/// marks for the list beside the board: a piece letter (upper case White),
/// `-` for empty, `?` for something unidentified.
pub fn mismatch_marks(d: &SquareDiff, letters: &[char; 6]) -> (String, String) {
    let piece = |p: Piece| {
        let c = letters[p.role as usize - 1];
        match p.color {
            Color::White => c.to_uppercase().to_string(),
            Color::Black => c.to_lowercase().to_string(),
        }
    };
    let expected = d.expected.map_or_else(|| "-".to_owned(), piece);
    let found = match d.found {
        Sensed::Empty => "-".to_owned(),
        Sensed::Occupied => "?".to_owned(),
        Sensed::Piece(p) => piece(p),
    };
    (expected, found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phrase::{MoveOptions, MoveStyle};
    use crate::words::Lang;
    use crate::words::vocab::builtin_appendix_d;

    pub(crate) fn build(game: &Game, me: Color, ui: &UiState, board: Option<BoardInfo>) -> View {
        let phraser = Phraser::builtin(MoveStyle::AppendixD, Lang::En, MoveOptions::default());
        let d = builtin_appendix_d().moves;
        View::build(&ViewInput {
            game,
            phraser: &phraser,
            appendix_d: &d,
            me,
            announcement: Some("Springer Felix drei"),
            clocks: None,
            board,
            ui,
        })
    }

    fn game_of(moves: &[&str]) -> Game {
        let mut g = Game::new();
        for m in moves {
            let san: shakmaty::san::San = m.parse().unwrap();
            let mv = san.to_move(g.position()).unwrap();
            g.play(mv).unwrap();
        }
        g
    }

    #[test]
    fn start_position() {
        let v = build(&Game::new(), Color::White, &UiState::default(), None);
        assert_eq!(
            v.board.piece_at(Square::E1),
            Some(Piece::from_char('K').unwrap())
        );
        assert_eq!(v.board.piece_at(Square::E4), None);
        assert!(v.board.white_at_bottom);
        assert_eq!(v.board.last_move, None);
        assert_eq!(v.board.check, None);
        assert_eq!(v.turn, Color::White);
        assert_eq!(v.turn_text, "White to move, move 1.");
        assert!(v.moves.is_empty());
        assert_eq!(v.link.state, LinkState::NoBoard);
        assert_eq!(v.board.file_words[7], "Hector");
        assert_eq!(v.board.rank_words[2], "drei");
        // Appendix D letters: S for Springer.
        assert_eq!(v.board.piece_letters[1], 'S');
    }

    #[test]
    fn moves_check_and_last_move() {
        let g = game_of(&["e4", "f5", "Qh5+"]);
        let v = build(&g, Color::Black, &UiState::default(), None);
        assert!(!v.board.white_at_bottom, "seen from Black");
        assert_eq!(v.board.last_move, Some((Square::D1, Square::H5)));
        assert_eq!(v.board.check, Some(Square::E8));
        assert_eq!(v.moves.len(), 3);
        assert_eq!(v.moves[2].san, "Qh5+");
        assert_eq!(v.moves[2].spoken, "Dame Hector fünf, Schach");
        assert_eq!(v.moves[1].by, Color::Black);
        assert_eq!(v.turn_text, "Black to move, move 2, in check.");
    }

    #[test]
    fn castling_shows_the_king_squares() {
        let g = game_of(&["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O"]);
        let v = build(&g, Color::White, &UiState::default(), None);
        assert_eq!(v.board.last_move, Some((Square::E1, Square::G1)));
    }

    #[test]
    fn flipped_by_the_front_end() {
        let ui = UiState {
            flipped: true,
            ..UiState::default()
        };
        let v = build(&Game::new(), Color::White, &ui, None);
        assert!(!v.board.white_at_bottom);
    }

    #[test]
    fn board_mismatch_and_offer() {
        let mut g = game_of(&["e4"]);
        g.offer_draw(Color::White).unwrap();
        let diff = SquareDiff {
            square: Square::E4,
            expected: Some(Piece::from_char('P').unwrap()),
            found: Sensed::Empty,
        };
        let info = BoardInfo {
            state: LinkState::Connected,
            mismatch: vec![diff],
        };
        let v = build(&g, Color::White, &UiState::default(), Some(info));
        assert!(v.board.is_mismatch(Square::E4));
        assert_eq!(
            v.link.text.as_deref(),
            Some("Mismatch: Eva vier should have the white Bauer, it is empty.")
        );
        assert_eq!(v.offer.as_deref(), Some("White offers a draw."));
        assert_eq!(
            mismatch_marks(&diff, &v.board.piece_letters),
            ("P".to_owned(), "-".to_owned())
        );
    }
}
