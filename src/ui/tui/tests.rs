//! Rendering tests: the view drawn on ratatui's `TestBackend` at several
//! sizes, read back cell by cell.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use ratatui::style::{Color, Modifier};
use shakmaty::{Color as Side, Piece, Square};

use super::glyph::PieceStyle;
use super::render::{Look, render, square_at, square_rect};
use super::theme::Theme;
use crate::board::{Sensed, SquareDiff};
use crate::game::Game;
use crate::phrase::{MoveOptions, MoveStyle, Phraser};
use crate::view::{BoardInfo, ClockView, LinkState, UiState, View, ViewInput};
use crate::words::Lang;
use crate::words::vocab::builtin_appendix_d;

const SIZES: [(u16, u16); 3] = [(80, 24), (120, 40), (200, 60)];

fn game_of(moves: &[&str]) -> Game {
    let mut g = Game::new();
    for m in moves {
        let san: shakmaty::san::San = m.parse().unwrap();
        let mv = san.to_move(g.position()).unwrap();
        g.play(mv).unwrap();
    }
    g
}

struct Setup {
    game: Game,
    me: Side,
    ui: UiState,
    board: Option<BoardInfo>,
    clocks: Option<ClockView>,
    announcement: Option<String>,
}

impl Setup {
    fn new(game: Game) -> Setup {
        Setup {
            game,
            me: Side::White,
            ui: UiState::default(),
            board: None,
            clocks: None,
            announcement: None,
        }
    }

    fn view(&self) -> View {
        let phraser = Phraser::builtin(MoveStyle::AppendixD, Lang::En, MoveOptions::default());
        let d = builtin_appendix_d().moves;
        View::build(&ViewInput {
            game: &self.game,
            phraser: &phraser,
            appendix_d: &d,
            me: self.me,
            announcement: self.announcement.as_deref(),
            clocks: self.clocks,
            board: self.board.clone(),
            ui: &self.ui,
        })
    }
}

fn draw(view: &View, look: &Look, w: u16, h: u16) -> Buffer {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| render(f, view, look)).unwrap();
    t.backend().buffer().clone()
}

/// The screen as text, one line a row (trailing blanks cut).
fn text(buf: &Buffer) -> String {
    let a = buf.area;
    let mut out = String::new();
    for y in a.top()..a.bottom() {
        let mut line = String::new();
        for x in a.left()..a.right() {
            line.push_str(buf[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn full(w: u16, h: u16) -> Rect {
    Rect::new(0, 0, w, h)
}

/// The piece's letter on a square (read back from the large letter where
/// the square has room for one), with the colours at its centre.
fn centre(buf: &Buffer, view: &View, look: &Look, sq: Square) -> (String, Color, Color) {
    let a = buf.area;
    let r = square_rect(view, look, a, sq).unwrap();
    let c = &buf[(r.x + r.width / 2, r.y + r.height / 2)];
    let colours = (c.fg, c.bg);
    if look.pieces == PieceStyle::Letters
        && let Some((px, at)) = super::render::big_letter_at(r)
    {
        let cells = |b: &Buffer| -> String {
            (at.y..at.bottom())
                .flat_map(|y| (at.x..at.right()).map(move |x| (x, y)))
                .map(|p| b[p].symbol().to_owned())
                .collect()
        };
        let shown = cells(buf);
        if shown.trim().is_empty() {
            return (" ".into(), colours.0, colours.1);
        }
        for l in view.board.piece_letters {
            for c in [l.to_ascii_uppercase(), l.to_ascii_lowercase()] {
                let mut scratch = Buffer::empty(a);
                super::bigtext::draw(
                    &[c.to_string()],
                    px,
                    at,
                    ratatui::style::Style::new(),
                    &mut scratch,
                );
                if cells(&scratch) == shown {
                    return (c.to_string(), colours.0, colours.1);
                }
            }
        }
        return (format!("?{shown}"), colours.0, colours.1);
    }
    (c.symbol().to_owned(), colours.0, colours.1)
}

/// The background of a square's corner cell (no piece there).
fn square_bg(buf: &Buffer, view: &View, look: &Look, sq: Square) -> Color {
    let r = square_rect(view, look, buf.area, sq).unwrap();
    buf[(r.x + r.width - 1, r.y + r.height - 1)].bg
}

#[test]
fn start_position_at_every_size() {
    let view = Setup::new(Game::new()).view();
    let look = Look::default();
    let mut last_width = 0;
    for (w, h) in SIZES {
        let buf = draw(&view, &look, w, h);
        let r = square_rect(&view, &look, full(w, h), Square::A1).unwrap();
        assert!(
            r.width > last_width,
            "{w}x{h}: squares grow with the screen"
        );
        last_width = r.width;
        // White at the bottom: a1 bottom left, h8 top right.
        let h8 = square_rect(&view, &look, full(w, h), Square::H8).unwrap();
        assert!(h8.x > r.x && h8.y < r.y);
        for (sq, piece) in [
            (Square::E1, "K"),
            (Square::D1, "D"),
            (Square::G1, "S"),
            (Square::E8, "k"),
            (Square::A7, "p"),
            (Square::C1, "L"),
            (Square::H8, "t"),
        ] {
            assert_eq!(centre(&buf, &view, &look, sq).0, piece, "{w}x{h} {sq}");
        }
        assert_eq!(centre(&buf, &view, &look, Square::E4).0, " ");
        let screen = text(&buf);
        assert!(
            screen.contains("White to move, move 1."),
            "{w}x{h}:\n{screen}"
        );
        // The file letters under the board, the input hint at the bottom.
        let files_row = screen.lines().nth(usize::from(r.bottom())).unwrap();
        let letters: String = files_row.chars().filter(|c| !c.is_whitespace()).collect();
        assert_eq!(letters, "abcdefgh", "{w}x{h}");
        assert!(
            screen
                .lines()
                .last()
                .unwrap()
                .starts_with("> Tab: type a move")
        );
        // The board is centred in its part: as much room above as below.
        let h1 = square_rect(&view, &look, full(w, h), Square::H1).unwrap();
        let above = h8.y;
        let below = (h - 2) - (h1.bottom() + 1);
        assert!(
            above.abs_diff(below) <= 1,
            "{w}x{h}: {above} above, {below} below"
        );
    }
}

#[test]
fn capture_with_check() {
    let mut s = Setup::new(game_of(&["e4", "e5", "Nf3", "d6", "Bc4", "h6", "Bxf7+"]));
    s.announcement = Some("Läufer nimmt Felix sieben, Schach".into());
    let view = s.view();
    let look = Look::default();
    let t = &look.theme;
    for (w, h) in SIZES {
        let buf = draw(&view, &look, w, h);
        // The capturing bishop on f7, the last move's squares marked.
        assert_eq!(centre(&buf, &view, &look, Square::F7).0, "L");
        assert_eq!(square_bg(&buf, &view, &look, Square::C4), t.last_move);
        assert_eq!(square_bg(&buf, &view, &look, Square::F7), t.last_move);
        // The king in check: its square and a "+" mark.
        assert_eq!(square_bg(&buf, &view, &look, Square::E8), t.check);
        let r = square_rect(&view, &look, full(w, h), Square::E8).unwrap();
        let marks: String = (r.x..r.right())
            .map(|x| buf[(x, r.y)].symbol().to_owned())
            .collect();
        let mid: String = (r.x..r.right())
            .map(|x| buf[(x, r.y + r.height / 2)].symbol().to_owned())
            .collect();
        assert!(
            marks.contains('+') || mid.contains('+'),
            "{w}x{h}: {marks:?} {mid:?}"
        );
        let screen = text(&buf);
        assert!(
            screen.contains("Black to move, move 4, in check."),
            "{screen}"
        );
        // The announcement, and the move as spoken in the move list.
        assert!(
            screen.contains("Läufer nimmt Felix sieben, Schach"),
            "{screen}"
        );
        assert!(screen.contains("4. Läufer"), "{screen}");
    }
    let san = Look {
        san_moves: true,
        ..Look::default()
    };
    let screen = text(&draw(&view, &san, 120, 40));
    assert!(screen.contains("4. Bxf7+"), "{screen}");
    assert!(screen.contains("2. Nf3  d6"), "{screen}");
}

#[test]
fn flipped_board() {
    let mut s = Setup::new(game_of(&["e4"]));
    s.me = Side::Black;
    let view = s.view();
    let look = Look::default();
    for (w, h) in SIZES {
        let buf = draw(&view, &look, w, h);
        let a = full(w, h);
        let h1 = square_rect(&view, &look, a, Square::H1).unwrap();
        let a8 = square_rect(&view, &look, a, Square::A8).unwrap();
        // Black at the bottom: h1 top left, a8 bottom right.
        assert!(h1.x < a8.x && h1.y < a8.y);
        assert_eq!(centre(&buf, &view, &look, Square::E8).0, "k");
        let files_row = text(&buf)
            .lines()
            .nth(usize::from(a8.bottom()))
            .unwrap()
            .to_owned();
        let letters: String = files_row.chars().filter(|c| !c.is_whitespace()).collect();
        assert_eq!(letters, "hgfedcba", "{w}x{h}");
    }
    // Turned back by the front end's flip.
    s.ui.flipped = true;
    let view = s.view();
    let a = full(80, 24);
    let h1 = square_rect(&view, &look, a, Square::H1).unwrap();
    let a8 = square_rect(&view, &look, a, Square::A8).unwrap();
    assert!(h1.x > a8.x && h1.y > a8.y);
}

#[test]
fn board_mismatch_is_marked_and_listed() {
    let mut s = Setup::new(game_of(&["e4"]));
    s.board = Some(BoardInfo {
        state: LinkState::Connected,
        mismatch: vec![
            SquareDiff {
                square: Square::E4,
                expected: Some(Piece::from_char('P').unwrap()),
                found: Sensed::Empty,
            },
            SquareDiff {
                square: Square::E2,
                expected: None,
                found: Sensed::Piece(Piece::from_char('P').unwrap()),
            },
        ],
    });
    let view = s.view();
    let look = Look::default();
    for (w, h) in SIZES {
        let buf = draw(&view, &look, w, h);
        for sq in [Square::E4, Square::E2] {
            let r = square_rect(&view, &look, full(w, h), sq).unwrap();
            assert_eq!(buf[(r.x, r.y)].symbol(), "!", "{w}x{h} {sq}");
            assert_eq!(
                buf[(r.x + r.width - 1, r.y + r.height - 1)].bg,
                look.theme.mismatch
            );
        }
        let screen = text(&buf);
        assert!(screen.contains("!e4:P/- !e2:-/P"), "{w}x{h}\n{screen}");
        assert!(
            screen.contains("Mismatch on two squares: Eva vier"),
            "{screen}"
        );
    }
}

#[test]
fn too_small_says_so() {
    let view = Setup::new(Game::new()).view();
    for (w, h) in [(30, 10), (80, 12), (20, 40)] {
        let screen = text(&draw(&view, &Look::default(), w, h));
        let flat = screen.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.starts_with("The window is too small for the board. Make it at least 36 columns wide and 14 lines high."),
            "{w}x{h}:\n{screen}"
        );
        assert!(!screen.contains("White to move"));
        assert_eq!(
            square_rect(&view, &Look::default(), full(w, h), Square::E1),
            None
        );
    }
    // Just large enough: the board is drawn.
    let buf = draw(&view, &Look::default(), 36, 14);
    assert_eq!(centre(&buf, &view, &Look::default(), Square::E1).0, "K");
}

#[test]
fn each_theme_colours_the_important_cells() {
    let mut s = Setup::new(game_of(&["e4", "e5", "Nf3", "d6", "Bc4", "h6", "Bxf7+"]));
    s.ui.cursor = Some(Square::D4);
    s.ui.selected = Some(Square::D6);
    s.board = Some(BoardInfo {
        state: LinkState::Connected,
        mismatch: vec![SquareDiff {
            square: Square::A3,
            expected: None,
            found: Sensed::Occupied,
        }],
    });
    let view = s.view();
    for theme in Theme::all_builtin() {
        let look = Look {
            theme: theme.clone(),
            ..Look::default()
        };
        let t = &theme;
        let buf = draw(&view, &look, 120, 40);
        let n = &t.name;
        // a1 dark, b1 light (bottom-right cells are free of pieces' boxes).
        assert_eq!(
            square_bg(&buf, &view, &look, Square::H3),
            t.light_square,
            "{n}"
        );
        assert_eq!(
            square_bg(&buf, &view, &look, Square::G3),
            t.dark_square,
            "{n}"
        );
        let (k, fg, bg) = centre(&buf, &view, &look, Square::E1);
        assert_eq!(
            (k.as_str(), fg, bg),
            ("K", t.white_piece.fg, t.white_piece.bg),
            "{n}"
        );
        let (k, fg, bg) = centre(&buf, &view, &look, Square::E8);
        assert_eq!(
            (k.as_str(), fg, bg),
            ("k", t.black_piece.fg, t.black_piece.bg),
            "{n}"
        );
        let r = square_rect(&view, &look, buf.area, Square::E1).unwrap();
        assert!(
            buf[(r.x + r.width / 2, r.y + r.height / 2)]
                .modifier
                .contains(Modifier::BOLD)
        );
        assert_eq!(
            square_bg(&buf, &view, &look, Square::C4),
            t.last_move,
            "{n}"
        );
        assert_eq!(square_bg(&buf, &view, &look, Square::E8), t.check, "{n}");
        assert_eq!(square_bg(&buf, &view, &look, Square::A3), t.mismatch, "{n}");
        assert_eq!(square_bg(&buf, &view, &look, Square::D6), t.selected, "{n}");
        assert_eq!(
            square_bg(&buf, &view, &look, Square::D4),
            t.cursor.bg,
            "{n}"
        );
        // The cursor's brackets.
        let r = square_rect(&view, &look, buf.area, Square::D4).unwrap();
        let mid = r.y + r.height / 2;
        assert_eq!(buf[(r.x, mid)].symbol(), "[", "{n}");
        assert_eq!(buf[(r.right() - 1, mid)].symbol(), "]", "{n}");
        // Text around the board.
        let screen = text(&buf);
        let row = screen
            .lines()
            .position(|l| l.contains("Black to move"))
            .unwrap() as u16;
        let col = screen
            .lines()
            .nth(usize::from(row))
            .unwrap()
            .find("Black")
            .unwrap() as u16;
        let c = &buf[(col, row)];
        assert_eq!((c.fg, c.bg), (t.accent.fg, t.accent.bg), "{n}");
        let input = &buf[(0, 39)];
        assert_eq!((input.fg, input.bg), (t.input.fg, t.input.bg), "{n}");
    }
}

#[test]
fn piece_styles() {
    let view = Setup::new(Game::new()).view();
    let figs = Look {
        pieces: PieceStyle::Figurines,
        ..Look::default()
    };
    let buf = draw(&view, &figs, 80, 24);
    assert_eq!(centre(&buf, &view, &figs, Square::E1).0, "♔");
    assert_eq!(centre(&buf, &view, &figs, Square::D8).0, "♛");
    // Large glyphs where the squares have room: the rook's battlements.
    let blocks = Look {
        pieces: PieceStyle::Blocks,
        ..Look::default()
    };
    let buf = draw(&view, &blocks, 200, 60);
    let r = square_rect(&view, &blocks, buf.area, Square::A1).unwrap();
    let screen = text(&buf);
    let top_of_glyph = (r.y..r.bottom())
        .map(|y| screen.lines().nth(usize::from(y)).unwrap().to_owned())
        .find(|l| l.contains("██  ██  ██"));
    assert!(top_of_glyph.is_some(), "{screen}");
    // Too small for glyphs: letters.
    let buf = draw(&view, &blocks, 80, 24);
    assert_eq!(centre(&buf, &view, &blocks, Square::E1).0, "K");
}

#[test]
fn coordinates_in_words() {
    let view = Setup::new(Game::new()).view();
    let look = Look {
        coord_words: true,
        ..Look::default()
    };
    let screen = text(&draw(&view, &look, 200, 60));
    for w in ["Anna", "Bella", "Cesar", "Hector", "eins", "acht", "sieben"] {
        assert!(screen.contains(w), "{w}\n{screen}");
    }
}

#[test]
fn clocks_in_large_digits() {
    let mut s = Setup::new(game_of(&["e4"]));
    s.clocks = Some(ClockView {
        white: std::time::Duration::from_secs(5 * 60 + 7),
        black: std::time::Duration::from_secs(3600 + 23 * 60 + 45),
        running: Some(Side::Black),
    });
    let view = s.view();
    let screen = text(&draw(&view, &Look::default(), 120, 40));
    assert!(screen.contains("> Black"), "{screen}");
    assert!(screen.contains("  White"), "{screen}");
    // "5:07" in large digits: the top row of 5, colon, 0 and 7.
    assert!(screen.contains("█▀▀   █▀█ ▀▀█"), "{screen}");
    // A tall screen: the digits of the large-text font.
    let screen = text(&draw(&view, &Look::default(), 200, 60));
    for row in large_rows("5:07") {
        assert!(screen.contains(&row), "{row:?}\n{screen}");
    }
    // A low screen: one line each.
    let screen = text(&draw(&view, &Look::default(), 60, 14));
    assert!(screen.contains("> Black 1:23:45"), "{screen}");
    assert!(screen.contains("  White 5:07"), "{screen}");
}

/// The rows of `text` as `bigtext` draws it with half blocks, each letter
/// eight cells wide, read independently from the font.
fn large_rows(text: &str) -> [String; 4] {
    std::array::from_fn(|cy| {
        text.chars()
            .map(|c| {
                let g = super::bigtext::glyph(c).unwrap();
                (0..8)
                    .map(|x| match (g[2 * cy] >> x & 1, g[2 * cy + 1] >> x & 1) {
                        (1, 1) => '█',
                        (1, 0) => '▀',
                        (0, 1) => '▄',
                        _ => ' ',
                    })
                    .collect::<String>()
            })
            .collect::<String>()
            .trim_end()
            .to_owned()
    })
}

#[test]
fn the_last_announcement_in_large_letters() {
    let mut s = Setup::new(game_of(&["e4", "e5", "Nf3"]));
    s.announcement = Some("Springer Felix drei".into());
    let view = s.view();
    let off = Look::default();
    let on = Look {
        large_text: true,
        ..Look::default()
    };
    // Off: the sentence in the panel's frame, in normal letters.
    let screen = text(&draw(&view, &off, 120, 40));
    assert!(screen.contains("│Springer Felix drei"), "{screen}");
    assert!(!screen.contains(&large_rows("Springer")[1]), "{screen}");
    for (w, h) in [(120, 40), (200, 60)] {
        let buf = draw(&view, &on, w, h);
        let screen = text(&buf);
        // On: across the screen under the board, eight cells a letter.
        for row in large_rows("Springer Felix") {
            assert!(screen.contains(&row), "{w}x{h}: {row:?}\n{screen}");
        }
        // Bold, in the theme's accent colour.
        let rows: Vec<&str> = screen.lines().collect();
        let y = rows
            .iter()
            .position(|l| l.contains(&large_rows("Springer Felix")[0]))
            .unwrap();
        let x = rows[y].chars().position(|c| c != ' ').unwrap() as u16;
        let cell = &buf[(x, y as u16)];
        assert_eq!(cell.fg, on.theme.accent.fg);
        assert!(cell.modifier.contains(Modifier::BOLD));
        // The board is still whole, above it.
        let r = square_rect(&view, &on, buf.area, Square::A1).unwrap();
        assert!(r.bottom() <= y as u16, "{w}x{h}");
        assert_eq!(centre(&buf, &view, &on, Square::E1).0, "K");
    }
    // 80x24: two lines ("Springer", "Felix drei"), the board smaller.
    let screen = text(&draw(&view, &on, 80, 24));
    for row in large_rows("Felix drei") {
        assert!(screen.contains(&row), "{row:?}\n{screen}");
    }
    // Where even those do not fit, the frame in the panel stays.
    s.announcement = Some("Checkmate. White wins, one to nothing, after a long fight.".into());
    let screen = text(&draw(&s.view(), &on, 80, 24));
    assert!(screen.contains("│Checkmate. White wins"), "{screen}");
}

#[test]
fn a_finished_game_shows_how_it_ended_not_whose_move() {
    // Regression (seen playing under tmux): after mate the panel said
    // "Black to move, move 4, in check." above "Checkmate. White wins".
    let s = Setup::new(game_of(&["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]));
    let view = s.view();
    let screen = text(&draw(&view, &Look::default(), 120, 40));
    assert!(
        screen.contains("Checkmate. White wins, one to zero."),
        "{screen}"
    );
    assert!(!screen.contains("to move"), "{screen}");
}

#[test]
fn mouse_cells_map_to_squares() {
    let view = Setup::new(Game::new()).view();
    let look = Look::default();
    let a = full(120, 40);
    for sq in [Square::A1, Square::E4, Square::H8] {
        let r = square_rect(&view, &look, a, sq).unwrap();
        assert_eq!(
            square_at(&view, &look, a, Position::new(r.x, r.y)),
            Some(sq)
        );
        assert_eq!(
            square_at(
                &view,
                &look,
                a,
                Position::new(r.right() - 1, r.bottom() - 1)
            ),
            Some(sq)
        );
    }
    assert_eq!(square_at(&view, &look, a, Position::new(119, 0)), None);
}

#[test]
fn input_field_shows_the_typed_line() {
    let mut s = Setup::new(Game::new());
    s.ui.input.text = "Springer Felix drei".into();
    s.ui.input.cursor = 19;
    s.ui.input.focused = true;
    let view = s.view();
    let mut t = Terminal::new(TestBackend::new(80, 24)).unwrap();
    t.draw(|f| render(f, &view, &Look::default())).unwrap();
    let screen = text(t.backend().buffer());
    assert_eq!(screen.lines().last(), Some("> Springer Felix drei"));
    assert_eq!(t.get_cursor_position().unwrap(), Position::new(21, 23));
}

/// A text capture of the view, for docs/full-screen.md (`cargo test --lib
/// print_capture -- --nocapture --ignored`).
#[test]
#[ignore]
fn print_capture() {
    let mut s = Setup::new(game_of(&["e4", "e5", "Nf3", "d6", "Bc4", "h6", "Bxf7+"]));
    s.announcement = Some("Läufer nimmt Felix sieben, Schach".into());
    s.ui.cursor = Some(Square::E8);
    s.ui.status = "Emil acht: schwarzer König".into();
    s.clocks = Some(ClockView {
        white: std::time::Duration::from_secs(25 * 60 + 12),
        black: std::time::Duration::from_secs(24 * 60 + 3),
        running: Some(Side::Black),
    });
    let view = s.view();
    println!("{}", text(&draw(&view, &Look::default(), 80, 24)));
    println!("{}", text(&draw(&view, &Look::default(), 120, 40)));
    let large = Look {
        large_text: true,
        pieces: PieceStyle::Blocks,
        ..Look::default()
    };
    println!("{}", text(&draw(&view, &large, 120, 40)));
}

#[test]
fn the_last_move_is_marked_by_a_shape_also_under_the_cursor() {
    let mut s = Setup::new(game_of(&["e4", "e5", "Nf3"]));
    s.ui.cursor = Some(Square::F3);
    let view = s.view();
    let look = Look::default();
    for (w, h) in SIZES {
        let buf = draw(&view, &look, w, h);
        let cells = |sq: Square| -> String {
            let r = square_rect(&view, &look, buf.area, sq).unwrap();
            (r.y..r.bottom())
                .flat_map(|y| (r.x..r.right()).map(move |x| (x, y)))
                .map(|p| buf[p].symbol().to_owned())
                .collect()
        };
        // g1 (from) hollow, f3 (to, under the cursor) full.
        assert!(
            cells(Square::G1).contains(super::render::LAST_FROM),
            "{w}x{h}"
        );
        let f3 = cells(Square::F3);
        assert!(f3.contains(super::render::LAST_TO), "{w}x{h}: {f3:?}");
        assert!(f3.contains('['), "{w}x{h}: the cursor too: {f3:?}");
        // No other square carries the marks.
        for sq in Square::ALL {
            if sq != Square::G1 && sq != Square::F3 {
                let c = cells(sq);
                assert!(
                    !c.contains(super::render::LAST_FROM) && !c.contains(super::render::LAST_TO),
                    "{w}x{h} {sq}"
                );
            }
        }
    }
}

#[test]
fn pieces_are_drawn_large_where_the_square_has_room() {
    let view = Setup::new(Game::new()).view();
    let look = Look::default();
    for (w, h, large) in [(80, 24, false), (120, 40, true), (200, 60, true)] {
        let buf = draw(&view, &look, w, h);
        let r = square_rect(&view, &look, buf.area, Square::D1).unwrap();
        let inked = (r.y..r.bottom())
            .flat_map(|y| (r.x..r.right()).map(move |x| (x, y)))
            .filter(|p| !buf[*p].symbol().trim().is_empty())
            .count();
        if large {
            assert!(inked >= 6, "{w}x{h}: the queen fills {inked} cells");
            assert!(super::render::big_letter_at(r).is_some());
        } else {
            assert_eq!(inked, 1, "{w}x{h}: one letter in a small square");
        }
        // Still read back as the letter (capital: White; small: Black).
        assert_eq!(centre(&buf, &view, &look, Square::D1).0, "D", "{w}x{h}");
        assert_eq!(centre(&buf, &view, &look, Square::D8).0, "d", "{w}x{h}");
    }
}

/// The text inside the answer's frame, its rows joined by a space.
fn framed(screen: &str) -> String {
    let col = screen
        .lines()
        .find_map(|l| l.chars().position(|c| c == '┌'))
        .expect("a frame");
    let mut inside = Vec::new();
    let mut open = false;
    for line in screen.lines() {
        let part: String = line.chars().skip(col).collect();
        if part.starts_with('┌') {
            open = true;
        } else if part.starts_with('└') {
            break;
        } else if open {
            inside.push(
                part.trim_matches(|c: char| c == '│' || c.is_whitespace())
                    .to_owned(),
            );
        }
    }
    inside.join(" ")
}

/// Issue 30, item 10: a long mismatch answer was cut mid-sentence at
/// 80×24 ("…Gustav acht should have the") and its rest given only as a
/// code list ("!e1:K/- !e3:-/K").  The frame shows whole sentences: all of
/// the answer, or those that fit and where the rest is.
#[test]
fn a_long_mismatch_is_never_cut_in_a_sentence_at_80x24() {
    let phraser = Phraser::builtin(MoveStyle::AppendixD, Lang::En, MoveOptions::default());
    let start = shakmaty::Board::new();
    let moved = |from: &str, to: &str| {
        let (from, to): (Square, Square) = (from.parse().unwrap(), to.parse().unwrap());
        let p = start.piece_at(from).unwrap();
        [
            SquareDiff {
                square: from,
                expected: Some(p),
                found: Sensed::Empty,
            },
            SquareDiff {
                square: to,
                expected: None,
                found: Sensed::Piece(p),
            },
        ]
    };
    for pairs in [
        &[("e1", "e3"), ("d1", "d3"), ("g8", "f6"), ("b1", "c3")][..],
        &[
            ("e1", "e3"),
            ("d1", "d3"),
            ("g8", "f6"),
            ("b1", "c3"),
            ("g1", "h3"),
            ("b8", "a6"),
            ("f1", "b5"),
            ("c8", "g4"),
        ][..],
    ] {
        let diffs: Vec<SquareDiff> = pairs.iter().flat_map(|(f, t)| moved(f, t)).collect();
        let sentence = phraser.mismatch(&diffs);
        let mut s = Setup::new(Game::new());
        s.board = Some(BoardInfo {
            state: LinkState::Connected,
            mismatch: diffs,
        });
        s.announcement = Some(sentence.clone());
        let view = s.view();
        let screen = text(&draw(&view, &Look::default(), 80, 24));
        let shown = framed(&screen);
        let more = "... The rest is in the history: h.";
        let said = shown.trim_end_matches(more).trim();
        assert!(!said.is_empty(), "{screen}");
        assert!(
            sentence.starts_with(said),
            "{said:?}\nnot the start of\n{sentence:?}\n{screen}"
        );
        assert!(
            said == sentence || (shown.ends_with(more) && said.ends_with(['.', ':'])),
            "cut in a sentence: {shown:?}\n{screen}"
        );
        if pairs.len() == 4 {
            assert_eq!(said, sentence, "four moved pieces fit whole:\n{screen}");
        } else {
            assert!(shown.ends_with(more), "{screen}");
        }
    }
}

#[test]
fn a_long_answer_gets_the_rows_it_needs() {
    let mut s = Setup::new(game_of(&["e4", "e5"]));
    let words: Vec<String> = (0..60).map(|i| format!("w{i}")).collect();
    s.announcement = Some(words.join(" "));
    let view = s.view();
    for (w, h) in [(120, 40), (200, 60)] {
        let screen = text(&draw(&view, &Look::default(), w, h));
        assert!(screen.contains("w59"), "{w}x{h}:\n{screen}");
        // And the move list still shows.
        assert!(screen.contains("1. Bauer"), "{w}x{h}:\n{screen}");
    }
}

/// The xterm palette's colour (what the contrast is measured against).
fn xterm_rgb(c: Color) -> (u8, u8, u8) {
    match c {
        Color::Black => (0, 0, 0),
        Color::Red => (0xcd, 0, 0),
        Color::Green => (0, 0xcd, 0),
        Color::Yellow => (0xcd, 0xcd, 0),
        Color::Blue => (0, 0, 0xee),
        Color::Magenta => (0xcd, 0, 0xcd),
        Color::Cyan => (0, 0xcd, 0xcd),
        Color::Gray => (0xe5, 0xe5, 0xe5),
        Color::DarkGray => (0x7f, 0x7f, 0x7f),
        Color::LightYellow => (0xff, 0xff, 0),
        Color::White => (0xff, 0xff, 0xff),
        other => panic!("not in the themes: {other:?}"),
    }
}

/// WCAG relative luminance.
fn luminance(c: Color) -> f64 {
    let (r, g, b) = xterm_rgb(c);
    let lin = |v: u8| {
        let v = f64::from(v) / 255.0;
        if v <= 0.039_28 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
}

fn contrast(a: Color, b: Color) -> f64 {
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

#[test]
fn the_armies_differ_in_luminance_and_contrast_seven_to_one() {
    for t in [Theme::high_contrast_dark(), Theme::high_contrast_light()] {
        for (army, pair) in [("white", t.white_piece), ("black", t.black_piece)] {
            let c = contrast(pair.fg, pair.bg);
            assert!(c >= 7.0, "{} {army}: {c:.1}:1", t.name);
        }
        // The white army is the brighter one from a distance (its box).
        assert!(
            luminance(t.white_piece.bg) > luminance(t.black_piece.bg),
            "{}",
            t.name
        );
    }
    // Drawn as blocks, a piece keeps its colours: letter colour on its box.
    let view = Setup::new(Game::new()).view();
    let blocks = Look {
        pieces: PieceStyle::Blocks,
        ..Look::default()
    };
    let buf = draw(&view, &blocks, 200, 60);
    let t = &blocks.theme;
    for (sq, pair) in [(Square::A1, t.white_piece), (Square::A8, t.black_piece)] {
        let r = square_rect(&view, &blocks, buf.area, sq).unwrap();
        let body: Vec<_> = (r.y..r.bottom())
            .flat_map(|y| (r.x..r.right()).map(move |x| (x, y)))
            .filter(|p| buf[*p].symbol() == "█")
            .map(|p| (buf[p].fg, buf[p].bg))
            .collect();
        assert!(!body.is_empty(), "{sq}");
        assert!(
            body.iter().all(|c| *c == (pair.fg, pair.bg)),
            "{sq}: {body:?}"
        );
    }
    // Drawn large, the black army is hollow: the same figure with less
    // ink than the white one (rook against rook, queen against queen).
    let ink = |sq: Square| -> usize {
        let r = square_rect(&view, &blocks, buf.area, sq).unwrap();
        (r.y..r.bottom())
            .flat_map(|y| (r.x..r.right()).map(move |x| (x, y)))
            .map(|p| match buf[p].symbol() {
                "█" => 2,
                "▀" | "▄" => 1,
                _ => 0,
            })
            .sum()
    };
    for (white, black) in [(Square::A1, Square::A8), (Square::D1, Square::D8)] {
        let (w, b) = (ink(white), ink(black));
        assert!(b > 0 && b < w, "{white} {w} against {black} {b}");
    }
    // Small (80x24: one letter) the two are told apart by case.
    let small = draw(&view, &blocks, 80, 24);
    assert_eq!(centre(&small, &view, &blocks, Square::A8).0, "t");
}

/// Issue 32, item 3: a second of a running clock redrew the whole view.
/// Only the clocks are drawn over the frame on the screen now; what that
/// gives is cell for cell the full frame of the new second, at every size
/// and look, over a change of the clock's width (10:00 to 9:59, 1:00:00 to
/// 59:59) and of the side that runs; where the clocks would take other
/// rows, nothing is drawn and a full frame is asked for.
#[test]
fn the_clocks_alone_redrawn_give_the_full_frame() {
    use super::render::redraw_clocks;
    use std::time::Duration;
    let secs = Duration::from_secs;
    let steps = [
        (
            secs(600),
            secs(5400),
            Some(Side::White),
            secs(599),
            secs(5400),
            Some(Side::White),
        ),
        (
            secs(3600),
            secs(61),
            Some(Side::Black),
            secs(3600),
            secs(60),
            Some(Side::Black),
        ),
        (
            secs(3600),
            secs(3600),
            Some(Side::Black),
            secs(3600),
            secs(3599),
            Some(Side::Black),
        ),
        (
            secs(300),
            secs(290),
            Some(Side::White),
            secs(300),
            secs(290),
            Some(Side::Black),
        ),
        (
            secs(59),
            secs(8),
            Some(Side::Black),
            secs(59),
            secs(7),
            Some(Side::Black),
        ),
    ];
    let mut partial = 0;
    for (w, h) in SIZES.into_iter().chain([(40, 16), (100, 70)]) {
        for large_text in [false, true] {
            let look = Look {
                large_text,
                ..Look::default()
            };
            for &(w0, b0, r0, w1, b1, r1) in &steps {
                let mut s = Setup::new(game_of(&["e4", "e5", "Nf3"]));
                s.announcement = Some("Springer Felix drei.".into());
                let was = ClockView {
                    white: w0,
                    black: b0,
                    running: r0,
                };
                s.clocks = Some(was);
                let before = draw(&s.view(), &look, w, h);
                s.clocks = Some(ClockView {
                    white: w1,
                    black: b1,
                    running: r1,
                });
                let view = s.view();
                let full = draw(&view, &look, w, h);
                let mut buf = before.clone();
                if redraw_clocks(&view, &was, &look, buf.area, &mut buf) {
                    partial += 1;
                    assert_eq!(
                        text(&buf),
                        text(&full),
                        "{w}x{h} {was:?} -> {:?}",
                        view.clocks
                    );
                    assert_eq!(buf, full, "{w}x{h}: the same cells and colours");
                } else {
                    assert_eq!(buf, before, "untouched when refused");
                }
            }
        }
    }
    assert!(partial >= 30, "most seconds are drawn alone: {partial}");
}
