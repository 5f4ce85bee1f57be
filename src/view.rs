//! What the screen shows, as plain data: the view model shared by the
//! full-screen view (`ui::tui`) and the opponent's page.  It is
//! built by [`View::build`] from the game state and holds no reference into
//! the app, so a front end can keep it, compare it with the next one (redraw
//! only on change) or send it elsewhere.
//!
//! Every text in it is already in the player's language (from the voices
//! files); the renderers only lay it out.

use std::time::{Duration, Instant};

use shakmaty::{Color, Piece, Position, Square};

use crate::board::{Sensed, SquareDiff};
use crate::clock::Clock;
use crate::game::Game;
use crate::phrase::Phraser;
use crate::words::vocab::MoveWords;

/// Everything the full-screen view shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct View {
    /// The board: pieces, last move, check, mismatches, cursor.
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
    /// The result when the game is over ("Checkmate. White wins, one to zero.").
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
    /// The game's mode when it limits what may be asked ("Tournament
    /// game"), with what its arbiter allowed and, once the record is
    /// closed, its digest.
    pub mode: Option<String>,
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
    /// File names in the move words.
    pub file_words: [String; 8],
    /// Rank names 1..8 as digits and in the move words ("eins" .. "acht").
    pub rank_digits: [String; 8],
    /// Rank names in the move words.
    pub rank_words: [String; 8],
    /// The piece letters of the move words (for the letter style), indexed
    /// by `Role as usize - 1` (pawn, knight, bishop, rook, queen, king).
    pub piece_letters: [char; 6],
}

impl BoardView {
    /// The piece on `sq`, if any.
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
    /// The side that moved.
    pub by: Color,
    /// SAN with `+`/`#`.
    pub san: String,
    /// As announced, in the move words ("Springer Felix drei").
    pub spoken: String,
}

/// Both clocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockView {
    /// White's time left.
    pub white: Duration,
    /// Black's time left.
    pub black: Duration,
    /// The clock that runs, if one does.
    pub running: Option<Color>,
}

/// Whole seconds, rounded up: a running clock shows 0:00 only when its
/// flag has fallen, and a time changes on the screen once a second.
fn whole_seconds_up(d: Duration) -> Duration {
    Duration::from_secs(d.as_secs() + u64::from(d.subsec_nanos() > 0))
}

impl ClockView {
    /// Both clocks at `now`, in whole seconds (rounded up, as a clock
    /// shows them): two views at instants within the same shown second are
    /// equal, so a front end that redraws on change redraws once a second
    /// at most.
    pub fn of(clock: &Clock, now: Instant) -> ClockView {
        let running = if clock.is_running() {
            clock.side_to_move()
        } else {
            None
        };
        let shown = |side: Color| {
            let left = clock.remaining(side, now);
            // With the hourglass the waiting side gains what the running
            // side uses: rounded down, the two change at the same instant.
            if clock.control().is_hourglass() && running == Some(!side) {
                Duration::from_secs(left.as_secs())
            } else {
                whole_seconds_up(left)
            }
        };
        ClockView {
            white: shown(Color::White),
            black: shown(Color::Black),
            running,
        }
    }

    /// When [`ClockView::of`] next shows something else: the instant the
    /// running clock reaches its next whole second.  `None` when no time
    /// runs: then nothing on the screen changes by itself, and the loop
    /// sleeps until an event.
    pub fn next_change(clock: &Clock, now: Instant) -> Option<Instant> {
        if !clock.is_running() {
            return None;
        }
        let side = clock.side_to_move()?;
        let shown = whole_seconds_up(clock.remaining(side, now)).as_secs();
        // The shown time drops when the time left reaches one second less.
        let n = shown.checked_sub(1)?;
        clock
            .when_remaining(Duration::from_secs(n))
            .map(|at| at.max(now + Duration::from_nanos(1)))
    }
}

/// The state of the tactile board's link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkState {
    /// No board is used.
    NoBoard,
    /// The board answers.
    Connected,
    /// The board is gone (a pulled cable, a lost port) or its port
    /// cannot be opened.
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
    /// The link's state.
    pub state: LinkState,
    /// The state, or the mismatch, as a sentence ("Board matches the game.").
    pub text: Option<String>,
}

/// The one-line input field.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InputView {
    /// What has been typed.
    pub text: String,
    /// The cursor, in characters from the start.
    pub cursor: usize,
    /// Keys go to the field (else they are commands).
    pub focused: bool,
}

/// The frame's own words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Labels {
    /// "White", in the player's language.
    pub white: String,
    /// "Black", in the player's language.
    pub black: String,
    /// Shown instead of the board when the terminal is too small.
    pub too_small: String,
    /// The input field's prompt when it is empty.
    pub input_hint: String,
    /// The last row of an answer too long for its frame: where the rest
    /// is ("… The rest is in the history: h.").
    pub answer_more: String,
}

/// The piece style (a setting).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PieceStyle {
    /// The piece letters of the move words, upper case for White.
    #[default]
    Letters,
    /// Unicode chess figurines (♔ ♚ ...).
    Figurines,
    /// Shapes drawn with block characters, as large as the square allows.
    Blocks,
}

impl PieceStyle {
    /// From the settings' word.
    pub fn from_name(name: &str) -> Option<PieceStyle> {
        match name {
            "letters" => Some(PieceStyle::Letters),
            "figurines" => Some(PieceStyle::Figurines),
            "blocks" | "large" => Some(PieceStyle::Blocks),
            _ => None,
        }
    }

    /// The next style, in turn.
    pub fn next(self) -> PieceStyle {
        match self {
            PieceStyle::Letters => PieceStyle::Figurines,
            PieceStyle::Figurines => PieceStyle::Blocks,
            PieceStyle::Blocks => PieceStyle::Letters,
        }
    }
}

/// Below this size the view says the terminal is too small.
pub const MIN_WIDTH: u16 = 36;
/// Below this height the view says the terminal is too small.
pub const MIN_HEIGHT: u16 = 14;

/// The built-in colour themes, in the order the theme action goes round.
pub const THEMES: [&str; 3] = [
    "high-contrast-dark",
    "high-contrast-light",
    "yellow-on-black",
];

/// How the full-screen view looks, as far as the player changes it with the
/// look actions (`piece_style`, `coordinates`, `move_list`, `theme`,
/// `large_text`).  The app keeps it, so each change goes through
/// `App::update` and is said; the front end draws with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ViewLook {
    pub pieces: PieceStyle,
    /// Coordinates in Appendix D words ("Anna", "eins") instead of a1.
    pub coord_words: bool,
    /// The move list in SAN (else as spoken).
    pub san_moves: bool,
    /// The last announcement in large letters.
    pub large_text: bool,
    /// The theme's name: one of `themes`.
    pub theme: String,
    /// The themes to go round: the built-in ones and the player's own.
    pub themes: Vec<String>,
}

impl Default for ViewLook {
    fn default() -> ViewLook {
        ViewLook {
            pieces: PieceStyle::Letters,
            coord_words: false,
            san_moves: false,
            large_text: false,
            theme: THEMES[0].to_owned(),
            themes: THEMES.iter().map(|t| (*t).to_owned()).collect(),
        }
    }
}

impl ViewLook {
    /// The next theme, in turn.
    pub fn next_theme(&mut self) {
        let i = self
            .themes
            .iter()
            .position(|t| *t == self.theme)
            .map_or(0, |i| i + 1);
        if let Some(t) = self.themes.get(i % self.themes.len().max(1)) {
            self.theme = t.clone();
        }
    }
}

/// The front end's own state that the view shows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UiState {
    /// The exploration cursor.
    pub cursor: Option<Square>,
    /// The piece chosen with the cursor, waiting for its target square.
    pub selected: Option<Square>,
    /// The input field.
    pub input: InputView,
    /// The line under the board.
    pub status: String,
    /// Show the board turned round from what the player's side gives.
    pub flipped: bool,
}

/// The tactile board as the view needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardInfo {
    /// The link's state.
    pub state: LinkState,
    /// Where the board differs from the game (only when connected).
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
    /// The game.
    pub game: &'a Game,
    /// The player's words (messages and move words).
    pub phraser: &'a Phraser,
    /// The Appendix D words, for coordinates in words.
    pub appendix_d: &'a MoveWords,
    /// The blind player's side: the board is seen from it.
    pub me: Color,
    /// The last sentence said.
    pub announcement: Option<&'a str>,
    /// Both clocks, when a clock runs.
    pub clocks: Option<ClockView>,
    /// The tactile board, when one is used.
    pub board: Option<BoardInfo>,
    /// The front end's own state.
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
            mode: None,
            labels: Labels {
                white: phraser.side(Color::White),
                black: phraser.side(Color::Black),
                too_small: phraser.message(
                    "view_too_small",
                    &[
                        ("width", &MIN_WIDTH.to_string()),
                        ("height", &MIN_HEIGHT.to_string()),
                    ],
                ),
                input_hint: phraser.message("view_input_hint", &[]),
                answer_more: phraser.message("view_answer_more", &[]),
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

    fn clock(spec: &str, t0: Instant) -> Clock {
        let mut c = Clock::new(crate::clock::parse_spec(spec).unwrap());
        c.start(Color::White, t0).unwrap();
        c
    }

    #[test]
    fn clocks_in_whole_seconds_rounded_up() {
        let t0 = Instant::now();
        let c = clock("5+3", t0);
        let v = ClockView::of(&c, t0 + Duration::from_millis(1));
        assert_eq!(v.white, Duration::from_secs(300), "4:59.999 shows 5:00");
        assert_eq!(v.black, Duration::from_secs(300));
        assert_eq!(v.running, Some(Color::White));
        let v = ClockView::of(&c, t0 + Duration::from_millis(1000));
        assert_eq!(v.white, Duration::from_secs(299));
        // The view carries the clocks (for the TUI and the opponent's page).
        let mut ui = UiState::default();
        ui.status.clear();
        let phraser = Phraser::builtin(MoveStyle::AppendixD, Lang::En, MoveOptions::default());
        let d = builtin_appendix_d().moves;
        let game = Game::new();
        let view = View::build(&ViewInput {
            game: &game,
            phraser: &phraser,
            appendix_d: &d,
            me: Color::White,
            announcement: None,
            clocks: Some(v),
            board: None,
            ui: &ui,
        });
        assert_eq!(view.clocks, Some(v));
    }

    /// What a front end that redraws only when the view changed and sleeps
    /// until `next_change` does over `span`: the instants it draws at.
    fn frames(c: &Clock, t0: Instant, span: Duration) -> Vec<Duration> {
        let mut drawn = vec![Duration::ZERO];
        let mut shown = ClockView::of(c, t0);
        let mut now = t0;
        while let Some(at) = ClockView::next_change(c, now) {
            if at > t0 + span {
                break;
            }
            now = at;
            let v = ClockView::of(c, now);
            assert_ne!(v, shown, "woken at {:?} for nothing", now - t0);
            shown = v;
            drawn.push(now - t0);
        }
        drawn
    }

    #[test]
    fn a_running_clock_changes_once_a_second() {
        let t0 = Instant::now();
        let mut c = clock("5+3", t0);
        // A press at 0.4 s: Black's clock runs, White's got 3 s more.
        c.press(t0 + Duration::from_millis(400)).unwrap();
        let f = frames(&c, t0 + Duration::from_millis(400), Duration::from_secs(5));
        let secs: Vec<u128> = f.iter().map(Duration::as_millis).collect();
        assert_eq!(secs, vec![0, 1000, 2000, 3000, 4000, 5000]);
        // Between two changes the view stays the same (nothing to draw).
        let t = t0 + Duration::from_millis(400);
        for ms in [1, 300, 999] {
            assert_eq!(
                ClockView::of(&c, t + Duration::from_millis(ms)),
                ClockView::of(&c, t + Duration::from_millis(1))
            );
        }
    }

    #[test]
    fn a_stopped_clock_wakes_nobody() {
        let t0 = Instant::now();
        let mut c = clock("5+0", t0);
        c.pause(t0 + Duration::from_millis(2500)).unwrap();
        assert_eq!(
            ClockView::next_change(&c, t0 + Duration::from_secs(3)),
            None
        );
        let v = ClockView::of(&c, t0 + Duration::from_secs(60));
        assert_eq!((v.white, v.running), (Duration::from_secs(298), None));
        let ready = Clock::new(crate::clock::parse_spec("5+0").unwrap());
        assert_eq!(ClockView::next_change(&ready, t0), None);
    }

    #[test]
    fn a_delay_and_the_hourglass_change_when_shown_time_does() {
        let t0 = Instant::now();
        // US delay: the first 3 s of a move cost nothing.
        let c = clock("5d3", t0);
        let f = frames(&c, t0, Duration::from_secs(6));
        let ms: Vec<u128> = f.iter().map(Duration::as_millis).collect();
        assert_eq!(ms, vec![0, 4000, 5000, 6000]);
        // Hourglass: both clocks change each second, at the same instant.
        let c = clock("hourglass:1", t0);
        let f = frames(&c, t0 + Duration::from_millis(250), Duration::from_secs(2));
        let ms: Vec<u128> = f.iter().map(Duration::as_millis).collect();
        assert_eq!(ms, vec![0, 750, 1750]);
        let v = ClockView::of(&c, t0 + Duration::from_millis(2250));
        assert_eq!(
            (v.white, v.black),
            (Duration::from_secs(58), Duration::from_secs(62))
        );
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
            Some("Mismatch on one square: Eva vier should have the white Bauer, it is empty.")
        );
        assert_eq!(v.offer.as_deref(), Some("White offers a draw."));
        assert_eq!(
            mismatch_marks(&diff, &v.board.piece_letters),
            ("P".to_owned(), "-".to_owned())
        );
    }
}
