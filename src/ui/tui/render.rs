//! Drawing the view: a pure function of a [`View`] and the [`Look`] into a
//! ratatui buffer.  No state, no I/O: the same view always gives the same
//! cells, which is what the rendering tests check.

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::widgets::{Block, Borders, Paragraph, Widget, Wrap};
use shakmaty::{Color, File, Rank, Square};

use super::bigtext;
use super::glyph::{GLYPH_H, GLYPH_W, PieceStyle, figurine, pixels};
use super::theme::Theme;
use crate::view::{ClockView, MIN_HEIGHT, MIN_WIDTH, View, mismatch_marks};

/// How the view is drawn (settings).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Look {
    /// The colours.
    pub theme: Theme,
    /// How pieces are drawn: letters, figurines or block glyphs.
    pub pieces: PieceStyle,
    /// Coordinates as Appendix D words ("Anna", "eins") instead of a..h, 1..8.
    pub coord_words: bool,
    /// The move list in SAN (else as spoken).
    pub san_moves: bool,
    /// The last announcement in large letters (what a deaf opponent reads).
    pub large_text: bool,
}

impl Default for Look {
    fn default() -> Look {
        Look {
            theme: Theme::high_contrast_dark(),
            pieces: PieceStyle::Letters,
            coord_words: false,
            san_moves: false,
            large_text: false,
        }
    }
}

/// Rows the move list keeps under a long announcement.
const MOVE_ROWS: usize = 3;

/// The side panel is at least this wide when it stands beside the board.
const PANEL_MIN: u16 = 30;

/// Draw into a frame (and place the terminal cursor in the input field
/// when it has the focus): ratatui's way, for the tests and the benches
/// (the view's own loop keeps its frames: [`draw`], [`input_cursor`]).
#[cfg_attr(
    not(any(test, feature = "test-support")),
    allow(dead_code, reason = "the tests' and benches' way to draw a frame")
)]
pub fn render(frame: &mut Frame<'_>, view: &View, look: &Look) {
    let area = frame.area();
    draw(view, look, area, frame.buffer_mut());
    if let Some(p) = input_cursor(view, area) {
        frame.set_cursor_position(p);
    }
}

/// Where the terminal cursor stands: in the input field when it has the
/// focus.
pub fn input_cursor(view: &View, area: Rect) -> Option<Position> {
    if !view.input.focused || too_small(area) {
        return None;
    }
    let x = area.x
        + 2
        + view
            .input
            .cursor
            .min(usize::from(area.width.saturating_sub(3))) as u16;
    Some(Position::new(x, area.bottom() - 1))
}

fn too_small(area: Rect) -> bool {
    area.width < MIN_WIDTH || area.height < MIN_HEIGHT
}

/// Draw the whole view into `buf` over `area`, a blank buffer (a frame's
/// buffer is: ratatui resets it after each frame).
pub fn draw(view: &View, look: &Look, area: Rect, buf: &mut Buffer) {
    let theme = &look.theme;
    let text = Style::new().fg(theme.text.fg).bg(theme.text.bg);
    buf.set_style(area, text);
    if too_small(area) {
        Paragraph::new(view.labels.too_small.as_str())
            .style(text.add_modifier(Modifier::BOLD))
            .wrap(Wrap { trim: true })
            .render(area, buf);
        return;
    }
    let input_row = Rect::new(area.x, area.bottom() - 1, area.width, 1);
    let status_row = Rect::new(area.x, area.bottom() - 2, area.width, 1);
    draw_input(view, theme, input_row, buf);
    buf.set_stringn(
        status_row.x,
        status_row.y,
        &view.status,
        usize::from(status_row.width),
        text,
    );

    let Some(lay) = layout(view, look, area) else {
        return;
    };
    draw_board(view, look, &lay.geo, lay.board, buf);
    draw_panel(view, look, lay.panel, lay.band.is_none(), buf);
    if let Some(band) = &lay.band {
        let style = Style::new()
            .fg(theme.accent.fg)
            .bg(theme.text.bg)
            .add_modifier(Modifier::BOLD);
        bigtext::draw(&band.lines, band.pixels, band.area, style, buf);
    }
}

/// Where the squares, the panel and the large text stand.
struct Layout {
    geo: BoardGeometry,
    board: Rect,
    panel: Rect,
    /// The last announcement in large letters, across the screen under the
    /// board.
    band: Option<Band>,
}

struct Band {
    area: Rect,
    pixels: bigtext::Pixels,
    lines: Vec<String>,
}

/// Rows the board needs at the least (squares one row high, the file
/// names, and a little panel).
const BOARD_MIN_ROWS: u16 = 12;

/// Where everything stands in `area`: `None` when the terminal is too small
/// for the board.
fn layout(view: &View, look: &Look, area: Rect) -> Option<Layout> {
    if too_small(area) {
        return None;
    }
    let mut main = Rect::new(area.x, area.y, area.width, area.height - 2);
    // The large text takes at most two fifths of the rows, and only when
    // all of it fits there; else it is shown in the panel's frame.
    let band = match (&view.announcement, look.large_text) {
        (Some(text), true) => {
            let budget = (main.height * 2 / 5).min(main.height.saturating_sub(BOARD_MIN_ROWS));
            bigtext::fit(text, main.width, budget).map(|(pixels, lines)| {
                let h = lines.len() as u16 * bigtext::LINE_HEIGHT;
                main.height -= h;
                Band {
                    area: Rect::new(main.x, main.bottom(), main.width, h),
                    pixels,
                    lines,
                }
            })
        }
        _ => None,
    };
    let geo = BoardGeometry::fit(main, look.coord_words);
    let (board, panel) = geo.areas(main);
    Some(Layout {
        geo,
        board,
        panel,
        band,
    })
}

/// The cells of square `sq` on a screen of `area`.
pub fn square_rect(view: &View, look: &Look, area: Rect, sq: Square) -> Option<Rect> {
    let Layout { geo, board, .. } = layout(view, look, area)?;
    let (col, row) = screen_pos(sq, view.board.white_at_bottom);
    Some(Rect::new(
        board.x + geo.margin + col * geo.sq_w,
        board.y + row * geo.sq_h,
        geo.sq_w,
        geo.sq_h,
    ))
}

/// The square under a screen cell (a mouse click), if any.
pub fn square_at(view: &View, look: &Look, area: Rect, cell: Position) -> Option<Square> {
    Square::ALL
        .into_iter()
        .find(|sq| square_rect(view, look, area, *sq).is_some_and(|r| r.contains(cell)))
}

/// The size of the squares and where the board stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct BoardGeometry {
    /// A square's width and height in cells.
    sq_w: u16,
    sq_h: u16,
    /// Columns left of the board for the rank names.
    margin: u16,
    /// The panel beside the board (else below it).
    beside: bool,
}

impl BoardGeometry {
    fn width(&self) -> u16 {
        self.margin + 8 * self.sq_w
    }

    fn height(&self) -> u16 {
        8 * self.sq_h + 1
    }

    /// The largest squares that fit in `main` with the panel beside the
    /// board, or below it when the terminal is narrow.
    fn fit(main: Rect, words: bool) -> BoardGeometry {
        let margin = if words { 7 } else { 2 };
        let mut best = None;
        for sq_h in (1..=12u16).rev() {
            let sq_w = 2 * sq_h + 1;
            let g = BoardGeometry {
                sq_w,
                sq_h,
                margin,
                beside: true,
            };
            if g.height() <= main.height && g.width() + 1 + PANEL_MIN <= main.width {
                best = Some(g);
                break;
            }
        }
        best.unwrap_or_else(|| {
            // Narrow: the panel goes below; squares as large as leave it
            // three rows.
            let mut sq_h = 1;
            while sq_h < 12 {
                let next = BoardGeometry {
                    sq_w: 2 * (sq_h + 1) + 1,
                    sq_h: sq_h + 1,
                    margin,
                    beside: false,
                };
                if next.width() <= main.width && next.height() + 3 <= main.height {
                    sq_h += 1;
                } else {
                    break;
                }
            }
            BoardGeometry {
                sq_w: 2 * sq_h + 1,
                sq_h,
                margin,
                beside: false,
            }
        })
    }

    /// The board's rectangle (centred in its part) and the panel's.
    fn areas(&self, main: Rect) -> (Rect, Rect) {
        let (w, h) = (self.width().min(main.width), self.height().min(main.height));
        if self.beside {
            let panel_w = main
                .width
                .saturating_sub(w + 1)
                .max(PANEL_MIN)
                .min(main.width);
            let part_w = main.width - panel_w;
            let board = Rect::new(
                main.x + part_w.saturating_sub(w) / 2,
                main.y + (main.height - h) / 2,
                w,
                h,
            );
            // The panel takes what the board leaves, at most 60 columns
            // and at least PANEL_MIN.
            let free = main.width - (board.right() - main.x) - 1;
            let pw = free.min(60).max(PANEL_MIN.min(free));
            let panel = Rect::new(board.right() + 1, main.y, pw, main.height);
            (board, panel)
        } else {
            let board = Rect::new(main.x + (main.width - w) / 2, main.y, w, h);
            let panel = Rect::new(main.x, main.y + h, main.width, main.height - h);
            (board, panel)
        }
    }
}

/// The screen column and row (0..8, from the top-left) of a square.
fn screen_pos(sq: Square, white_at_bottom: bool) -> (u16, u16) {
    let f = u16::from(sq.file() as u8);
    let r = u16::from(sq.rank() as u8);
    if white_at_bottom {
        (f, 7 - r)
    } else {
        (7 - f, r)
    }
}

fn draw_board(view: &View, look: &Look, geo: &BoardGeometry, area: Rect, buf: &mut Buffer) {
    let theme = &look.theme;
    let b = &view.board;
    let coords = Style::new().fg(theme.coords.fg).bg(theme.coords.bg);
    let x0 = area.x + geo.margin;
    let y0 = area.y;
    for sq in Square::ALL {
        let (col, row) = screen_pos(sq, b.white_at_bottom);
        let rect = Rect::new(x0 + col * geo.sq_w, y0 + row * geo.sq_h, geo.sq_w, geo.sq_h);
        draw_square(view, look, sq, rect, buf);
    }
    // Rank names on the left, at each square's middle row.
    for rank in Rank::ALL {
        let (_, row) = screen_pos(Square::from_coords(File::A, rank), b.white_at_bottom);
        let name = if look.coord_words {
            &b.rank_words[rank as usize]
        } else {
            &b.rank_digits[rank as usize]
        };
        let w = usize::from(geo.margin - 1);
        let label: String = name.chars().take(w).collect();
        let pad = w.saturating_sub(label.chars().count()) as u16;
        buf.set_string(
            area.x + pad,
            y0 + row * geo.sq_h + geo.sq_h / 2,
            label,
            coords,
        );
    }
    // File names below, centred under each square.
    for file in File::ALL {
        let (col, _) = screen_pos(Square::from_coords(file, Rank::First), b.white_at_bottom);
        let name = if look.coord_words {
            &b.file_words[file as usize]
        } else {
            &b.file_letters[file as usize]
        };
        let label: String = name.chars().take(usize::from(geo.sq_w)).collect();
        let pad = (geo.sq_w - label.chars().count() as u16) / 2;
        buf.set_string(x0 + col * geo.sq_w + pad, y0 + 8 * geo.sq_h, label, coords);
    }
}

fn draw_square(view: &View, look: &Look, sq: Square, rect: Rect, buf: &mut Buffer) {
    let theme = &look.theme;
    let b = &view.board;
    let light = (sq.file() as u8 + sq.rank() as u8) % 2 == 1;
    let mut bg = if light {
        theme.light_square
    } else {
        theme.dark_square
    };
    let last = b.last_move.is_some_and(|(f, t)| f == sq || t == sq);
    let check = b.check == Some(sq);
    let selected = b.selected == Some(sq);
    let mismatch = b.is_mismatch(sq);
    let cursor = b.cursor == Some(sq);
    for (on, colour) in [
        (last, theme.last_move),
        (check, theme.check),
        (selected, theme.selected),
        (mismatch, theme.mismatch),
        (cursor, theme.cursor.bg),
    ] {
        if on {
            bg = colour;
        }
    }
    // The cells are blank already (`draw` clears the whole area first).
    let square_style = Style::new().bg(bg).fg(theme.cursor.fg);
    buf.set_style(rect, square_style);
    if let Some(piece) = b.piece_at(sq) {
        draw_piece(b, look, piece, rect, buf);
    }
    // Marks, so that nothing is told by colour alone.
    let mark = Style::new()
        .bg(bg)
        .fg(mark_fg(theme, bg))
        .add_modifier(Modifier::BOLD);
    let mid = rect.y + rect.height / 2;
    let (left, right) = (rect.x, rect.right() - 1);
    // The last move's squares: a hollow mark where the piece stood, a
    // full one where it went, in a corner the cursor's brackets (in the
    // middle row) do not cover.
    let last_mark = b.last_move.and_then(|(f, t)| {
        if t == sq {
            Some(LAST_TO)
        } else if f == sq {
            Some(LAST_FROM)
        } else {
            None
        }
    });
    if rect.height >= 2 {
        if let Some(m) = last_mark {
            // Two rows: the cursor's row is the bottom one; the mark goes
            // in the top row, beside the check's place.
            let (x, y) = if rect.height == 2 {
                (right.saturating_sub(1).max(left), rect.y)
            } else {
                (right, rect.bottom() - 1)
            };
            buf.set_string(x, y, m, mark);
        }
        if mismatch {
            buf.set_string(left, rect.y, "!", mark);
        }
        if check {
            buf.set_string(right, rect.y, "+", mark);
        }
        if selected {
            buf.set_string(left, rect.bottom() - 1, "*", mark);
        }
        if cursor {
            buf.set_string(left, mid, "[", mark);
            buf.set_string(right, mid, "]", mark);
        }
    } else {
        let l = if cursor {
            Some("[")
        } else if mismatch {
            Some("!")
        } else if selected {
            Some("*")
        } else {
            None
        };
        let r = if check {
            Some("+")
        } else if let Some(m) = last_mark {
            Some(m)
        } else if cursor {
            Some("]")
        } else {
            None
        };
        if let Some(l) = l {
            buf.set_string(left, mid, l, mark);
        }
        if let Some(r) = r {
            buf.set_string(right, mid, r, mark);
        }
    }
}

/// The mark of the last move's from-square.
pub const LAST_FROM: &str = "○";
/// The mark of the last move's to-square.
pub const LAST_TO: &str = "●";

/// A mark's colour on a background: the theme's text colour unless that is
/// the background itself.
fn mark_fg(theme: &Theme, bg: ratatui::style::Color) -> ratatui::style::Color {
    use ratatui::style::Color as C;
    let dark_bg = matches!(bg, C::Black | C::Blue | C::Red | C::Magenta | C::DarkGray);
    let _ = theme;
    if dark_bg { C::White } else { C::Black }
}

fn draw_piece(
    b: &crate::view::BoardView,
    look: &Look,
    piece: shakmaty::Piece,
    rect: Rect,
    buf: &mut Buffer,
) {
    let theme = &look.theme;
    let pair = match piece.color {
        Color::White => theme.white_piece,
        Color::Black => theme.black_piece,
    };
    let big = rect.height >= GLYPH_H as u16 && rect.width >= GLYPH_W as u16 + 2;
    let letter = piece_letter(b, piece);
    // A letter in the large-text font where the square has room for one
    // (4 rows); a figurine is drawn as a block figure (the font has none).
    if look.pieces == PieceStyle::Letters
        && let Some((px, at)) = big_letter_at(rect)
        && bigtext::glyph(letter).is_some()
    {
        let style = Style::new()
            .fg(pair.fg)
            .bg(pair.bg)
            .add_modifier(Modifier::BOLD);
        // The piece's box, a cell wider than the letter on each side.
        buf.set_style(Rect::new(at.x - 1, at.y, at.width + 2, at.height), style);
        bigtext::draw(&[letter.to_string()], px, at, style, buf);
        return;
    }
    if look.pieces != PieceStyle::Letters && big {
        // Body in the piece's letter colour on its box, as the letter is
        // drawn: the white army's box is the light one, so from a distance
        // the white pieces are the brighter ones.
        let scale = ((rect.width - 2) / GLYPH_W as u16)
            .min(rect.height / GLYPH_H as u16)
            .max(1);
        let gw = GLYPH_W as u16 * scale;
        let gh = GLYPH_H as u16 * scale;
        let gx = rect.x + (rect.width - gw) / 2;
        let gy = rect.y + (rect.height - gh) / 2;
        let style = Style::new().fg(pair.fg).bg(pair.bg);
        buf.set_style(
            Rect::new(
                gx.saturating_sub(1).max(rect.x),
                gy,
                (gw + 2).min(rect.width),
                gh,
            ),
            style,
        );
        let g = pixels(piece.role);
        // The figure at the drawn size, a sub-pixel a half cell.  Where it
        // is drawn twice as large or more, the black army is drawn hollow
        // (its outline): the two armies differ in shape, and from a
        // distance in how much light they give, not only in colour.
        let hollow = piece.color == Color::Black && scale >= 2;
        let on = |x: i32, y: i32| -> bool {
            let (Ok(x), Ok(y)) = (u16::try_from(x), u16::try_from(y)) else {
                return false;
            };
            if x >= gw || y >= 2 * gh {
                return false;
            }
            g[usize::from(y / scale)][usize::from(x / scale)]
        };
        let lit = |x: i32, y: i32| -> bool {
            on(x, y) && !(hollow && on(x - 1, y) && on(x + 1, y) && on(x, y - 1) && on(x, y + 1))
        };
        for cy in 0..gh {
            for cx in 0..gw {
                let (x, y) = (i32::from(cx), 2 * i32::from(cy));
                let top = lit(x, y);
                let bottom = lit(x, y + 1);
                let ch = match (top, bottom) {
                    (true, true) => '█',
                    (true, false) => '▀',
                    (false, true) => '▄',
                    (false, false) => ' ',
                };
                if let Some(c) = buf.cell_mut((gx + cx, gy + cy)) {
                    c.set_char(ch).set_style(style);
                }
            }
        }
        return;
    }
    let ch = match look.pieces {
        PieceStyle::Figurines => figurine(piece.color, piece.role),
        _ => letter,
    };
    let style = Style::new()
        .fg(pair.fg)
        .bg(pair.bg)
        .add_modifier(Modifier::BOLD);
    let token_w = if rect.width >= 5 { 3 } else { 1 };
    let tx = rect.x + (rect.width - token_w) / 2;
    let ty = rect.y + rect.height / 2;
    for i in 0..token_w {
        let c = if i == token_w / 2 { ch } else { ' ' };
        if let Some(cell) = buf.cell_mut((tx + i, ty)) {
            cell.set_char(c).set_style(style);
        }
    }
}

/// A piece's letter: capital for White, small for Black (the two armies
/// differ in shape, not only in colour).
fn piece_letter(b: &crate::view::BoardView, piece: shakmaty::Piece) -> char {
    let c = b.piece_letters[piece.role as usize - 1];
    match piece.color {
        Color::White => c.to_ascii_uppercase(),
        Color::Black => c.to_ascii_lowercase(),
    }
}

/// The size and the cells of a large letter that fits a square of `rect`
/// with a cell to spare on each side: `None` when the square is too small
/// (the letter is then one cell).
pub fn big_letter_at(rect: Rect) -> Option<(bigtext::Pixels, Rect)> {
    if rect.height < bigtext::LINE_HEIGHT {
        return None;
    }
    let px = [bigtext::Pixels::Half, bigtext::Pixels::Quadrant]
        .into_iter()
        .find(|px| px.letter_width() + 2 <= rect.width)?;
    let (w, h) = (px.letter_width(), bigtext::LINE_HEIGHT);
    Some((
        px,
        Rect::new(
            rect.x + (rect.width - w) / 2,
            rect.y + (rect.height - h) / 2,
            w,
            h,
        ),
    ))
}

fn draw_input(view: &View, theme: &Theme, row: Rect, buf: &mut Buffer) {
    let style = Style::new().fg(theme.input.fg).bg(theme.input.bg);
    buf.set_style(row, style);
    buf.set_string(row.x, row.y, ">", style.add_modifier(Modifier::BOLD));
    let width = usize::from(row.width.saturating_sub(2));
    if view.input.text.is_empty() && !view.input.focused {
        buf.set_stringn(
            row.x + 2,
            row.y,
            &view.labels.input_hint,
            width,
            style.add_modifier(Modifier::DIM),
        );
    } else {
        // Keep the cursor in sight: show the end of a long line.
        let chars: Vec<char> = view.input.text.chars().collect();
        let start = view.input.cursor.saturating_sub(width.saturating_sub(1));
        let shown: String = chars.iter().skip(start).take(width).collect();
        buf.set_string(row.x + 2, row.y, shown, style);
    }
}

/// Large digits: 3 cells wide, 3 high (two pixel rows a cell).
fn big_digit(c: char) -> Option<[&'static str; 3]> {
    Some(match c {
        '0' => ["█▀█", "█ █", "▀▀▀"],
        '1' => ["▄█ ", " █ ", "▀▀▀"],
        '2' => ["▀▀█", "█▀▀", "▀▀▀"],
        '3' => ["▀▀█", " ▀█", "▀▀▀"],
        '4' => ["█ █", "▀▀█", "  ▀"],
        '5' => ["█▀▀", "▀▀█", "▀▀▀"],
        '6' => ["█▀▀", "█▀█", "▀▀▀"],
        '7' => ["▀▀█", "  █", "  ▀"],
        '8' => ["█▀█", "█▀█", "▀▀▀"],
        '9' => ["█▀█", "▀▀█", "▀▀▀"],
        ':' => [" ", "▀", "▀"],
        _ => return None,
    })
}

/// A clock's time as shown: h:mm:ss, or m:ss under an hour.
pub fn clock_text(d: std::time::Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// Width of `text` in large digits.
fn big_width(text: &str) -> u16 {
    text.chars()
        .map(|c| match c {
            ':' => 2,
            _ => 4,
        })
        .sum()
}

fn draw_big(text: &str, x: u16, y: u16, style: Style, buf: &mut Buffer) {
    let mut x = x;
    for c in text.chars() {
        let Some(rows) = big_digit(c) else { continue };
        for (i, row) in rows.iter().enumerate() {
            buf.set_string(x, y + i as u16, row, style);
        }
        x += if c == ':' { 2 } else { 4 };
    }
}

fn draw_panel(view: &View, look: &Look, area: Rect, announcement: bool, buf: &mut Buffer) {
    let theme = &look.theme;
    let text = Style::new().fg(theme.text.fg).bg(theme.text.bg);
    let accent = Style::new()
        .fg(theme.accent.fg)
        .bg(theme.accent.bg)
        .add_modifier(Modifier::BOLD);
    let mut y = area.y;
    let bottom = area.bottom();
    let width = area.width;
    // A block of wrapped text, at most `max_rows` rows.
    let para = |y: &mut u16, text: &str, style: Style, max_rows: u16, buf: &mut Buffer| {
        for line in wrap(text, usize::from(width))
            .into_iter()
            .take(usize::from(max_rows))
        {
            if *y >= bottom {
                return;
            }
            buf.set_stringn(area.x, *y, line, usize::from(width), style);
            *y += 1;
        }
    };

    // Whose move; once the game is over, only how it ended (no one is
    // "to move" then).
    match &view.result {
        Some(r) => para(&mut y, r, accent, 2, buf),
        None => para(&mut y, &view.turn_text, accent, 2, buf),
    }
    // A tournament game's mode (and its digest, once closed).
    if let Some(m) = &view.mode {
        para(&mut y, m, text, 2, buf);
    }

    // Clocks.
    if let Some(c) = view.clocks {
        draw_clocks(
            view,
            &c,
            look,
            Rect::new(area.x, y, width, bottom - y),
            &mut y,
            buf,
        );
    }

    // The draw offer and the board.
    if let Some(o) = &view.offer {
        para(&mut y, &format!("= {o}"), accent, 3, buf);
    }
    if let Some(t) = &view.link.text {
        para(&mut y, t, text, 4, buf);
    }
    let answer = view.announcement.as_ref().filter(|_| announcement);
    let inner_w = width.saturating_sub(2).max(1);
    let lines = answer.map_or_else(Vec::new, |a| wrap(a, usize::from(inner_w)));
    let keep = move_lines(view, look.san_moves).len().min(MOVE_ROWS) as u16;
    if !view.board.mismatch.is_empty() {
        let items: Vec<String> = view
            .board
            .mismatch
            .iter()
            .map(|d| {
                let (e, f) = mismatch_marks(d, &view.board.piece_letters);
                format!("!{}:{e}/{f}", d.square)
            })
            .collect();
        let codes = items.join(" ");
        let code_rows = wrap(&codes, usize::from(width)).len().min(3) as u16;
        // The squares in short beside the board only when the answer (the
        // mismatch in words) has its whole frame beside them: the words
        // come first (issue 30: the answer was cut and its rest left as
        // codes).  The board marks the squares with `!` in any case.
        let answer_rows = lines.len() as u16 + 2;
        if answer.is_none() || y + code_rows + answer_rows + keep <= bottom {
            para(&mut y, &codes, accent, 3, buf);
        }
    }

    // The last announcement, large: bold in a frame.
    if let Some(a) = answer
        && y + 3 <= bottom
    {
        // The frame grows with the answer, leaving the move list a few
        // rows when all of it fits, else taking them too; an answer longer
        // still shows its whole sentences that fit and says where the rest
        // is (the history, `h`), never a sentence cut in two.
        let avail = bottom - y;
        let keep = if lines.len() as u16 + 2 + keep <= avail {
            keep
        } else {
            0
        };
        let room = avail.saturating_sub(keep).max(3);
        let lines = if lines.len() as u16 + 2 <= room {
            lines
        } else {
            // The note of the rest always shows: sentences give way to it.
            let note = wrap(&view.labels.answer_more, usize::from(inner_w));
            let rows = usize::from(room - 2).saturating_sub(note.len()).max(1);
            let mut shown = whole_sentences(a, usize::from(inner_w), rows);
            shown.extend(note);
            shown
        };
        let rows = (lines.len() as u16 + 2).min(room);
        let rect = Rect::new(area.x, y, width, rows);
        Block::new()
            .borders(Borders::ALL)
            .style(text)
            .render(rect, buf);
        for (i, l) in lines.iter().take(usize::from(rows - 2)).enumerate() {
            buf.set_stringn(
                area.x + 1,
                y + 1 + i as u16,
                l,
                usize::from(inner_w),
                accent,
            );
        }
        y += rows;
    }

    // The move list: as many of the last moves as fit.
    if y < bottom {
        let rows = usize::from(bottom - y);
        let lines = move_lines(view, look.san_moves);
        let start = lines.len().saturating_sub(rows);
        for (i, l) in lines[start..].iter().enumerate() {
            buf.set_stringn(area.x, y + i as u16, l, usize::from(width), text);
        }
    }
}

/// How large the clocks are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ClockSize {
    /// The digits of the large-text font (8 cells wide, 4 rows).
    Huge,
    /// 3x3 digits.
    Large,
    /// One line each.
    Line,
}

impl ClockSize {
    /// On a tall panel the digits of the large-text font, else 3x3 digits,
    /// else one line each: the largest that both times fit.
    fn of(c: &ClockView, area: Rect) -> ClockSize {
        let texts = [clock_text(c.white), clock_text(c.black)];
        let huge = texts
            .iter()
            .all(|t| t.chars().count() as u16 * bigtext::Pixels::Half.letter_width() <= area.width)
            && area.height >= 50;
        let large = texts.iter().all(|t| big_width(t) <= area.width) && area.height >= 16;
        if huge {
            ClockSize::Huge
        } else if large {
            ClockSize::Large
        } else {
            ClockSize::Line
        }
    }

    /// The rows of one side's clock.
    fn rows(self) -> u16 {
        match self {
            ClockSize::Huge => 1 + bigtext::LINE_HEIGHT,
            ClockSize::Large => 4,
            ClockSize::Line => 1,
        }
    }
}

/// Where the clocks of a full frame are drawn from (the area
/// [`draw_clocks`] is given) and the rows they take, with clocks `c`.
fn clocks_place(view: &View, c: &ClockView, look: &Look, area: Rect) -> Option<(Rect, u16)> {
    let panel = layout(view, look, area)?.panel;
    let turn = view.result.as_ref().unwrap_or(&view.turn_text);
    let above = (wrap(turn, usize::from(panel.width)).len().min(2) as u16).min(panel.height);
    let at = Rect::new(panel.x, panel.y + above, panel.width, panel.height - above);
    let size = ClockSize::of(c, at);
    let mut rows = 0;
    for _ in 0..2 {
        if rows >= at.height {
            break;
        }
        rows += size.rows();
    }
    Some((at, rows.min(at.height)))
}

/// The cells the clocks of `view` take in a full frame on `area`.
pub fn clock_cells(view: &View, look: &Look, area: Rect) -> Option<Rect> {
    if too_small(area) {
        return None;
    }
    let c = view.clocks?;
    let (at, rows) = clocks_place(view, &c, look, area)?;
    Some(Rect::new(at.x, at.y, at.width, rows))
}

/// Draw only the clocks of `view` into `buf`, which holds the full frame
/// of the same view with the clocks `was` (the frame on the screen): the
/// rest of the frame is left as it is.  `false`, and `buf` untouched, when
/// the clocks would take other rows (a full frame is needed then).
pub fn redraw_clocks(
    view: &View,
    was: &ClockView,
    look: &Look,
    area: Rect,
    buf: &mut Buffer,
) -> bool {
    let Some(now) = view.clocks else {
        return false;
    };
    if too_small(area) || buf.area != area {
        return false;
    }
    let (Some((at, rows)), Some(before)) = (
        clocks_place(view, &now, look, area),
        clocks_place(view, was, look, area),
    ) else {
        return false;
    };
    if (at, rows) != before || ClockSize::of(&now, at) != ClockSize::of(was, at) {
        return false;
    }
    // The cells as a full frame leaves them before drawing: blank, in the
    // text's colours.
    let cells = Rect::new(at.x, at.y, at.width, rows);
    for y in cells.top()..cells.bottom() {
        for x in cells.left()..cells.right() {
            buf[(x, y)].reset();
        }
    }
    let theme = &look.theme;
    buf.set_style(cells, Style::new().fg(theme.text.fg).bg(theme.text.bg));
    let mut y = at.y;
    draw_clocks(view, &now, look, at, &mut y, buf);
    true
}

fn draw_clocks(view: &View, c: &ClockView, look: &Look, area: Rect, y: &mut u16, buf: &mut Buffer) {
    let theme = &look.theme;
    let text = Style::new().fg(theme.text.fg).bg(theme.text.bg);
    let run = Style::new()
        .fg(theme.accent.fg)
        .bg(theme.accent.bg)
        .add_modifier(Modifier::BOLD);
    let sides = [
        (Color::White, &view.labels.white, c.white),
        (Color::Black, &view.labels.black, c.black),
    ];
    let size = ClockSize::of(c, area);
    let (huge, large) = (size == ClockSize::Huge, size == ClockSize::Large);
    for (side, name, d) in sides {
        if *y >= area.bottom() {
            return;
        }
        let running = c.running == Some(side);
        let style = if running { run } else { text };
        let mark = if running { "> " } else { "  " };
        let t = clock_text(d);
        if huge {
            buf.set_stringn(
                area.x,
                *y,
                format!("{mark}{name}"),
                usize::from(area.width),
                style,
            );
            let rect = Rect::new(area.x, *y + 1, area.width, bigtext::LINE_HEIGHT);
            let w = t.chars().count() as u16 * bigtext::Pixels::Half.letter_width();
            let left = Rect::new(area.x, rect.y, w.min(area.width), rect.height);
            bigtext::draw(&[t], bigtext::Pixels::Half, left, style, buf);
            *y += 1 + bigtext::LINE_HEIGHT;
        } else if large {
            buf.set_stringn(
                area.x,
                *y,
                format!("{mark}{name}"),
                usize::from(area.width),
                style,
            );
            draw_big(&t, area.x, *y + 1, style, buf);
            *y += 4;
        } else {
            buf.set_stringn(
                area.x,
                *y,
                format!("{mark}{name} {t}"),
                usize::from(area.width),
                style,
            );
            *y += 1;
        }
    }
}

/// The move list's lines: one a full move in SAN ("12. Nf3 Nc6"), or one
/// a move as spoken ("12. Springer Felix drei", "12... Springer Cäsar sechs").
fn move_lines(view: &View, san: bool) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for m in &view.moves {
        if san {
            match m.by {
                Color::White => out.push(format!("{}. {}", m.number, m.san)),
                Color::Black => match out.last_mut() {
                    Some(l) if view_white_moved(view, m) => {
                        l.push_str("  ");
                        l.push_str(&m.san);
                    }
                    _ => out.push(format!("{}... {}", m.number, m.san)),
                },
            }
        } else {
            let dots = if m.by == Color::White { "." } else { "..." };
            out.push(format!("{}{dots} {}", m.number, m.spoken));
        }
    }
    out
}

/// Did White move before this Black move in the same full move (in the list)?
fn view_white_moved(view: &View, m: &crate::view::MoveEntry) -> bool {
    view.moves
        .iter()
        .any(|o| o.by == Color::White && o.number == m.number)
}

/// The rows of as many whole sentences of `text` as fit in `rows` rows of
/// `width` columns (at least the rows of the first, cut, when even it does
/// not fit: something of the answer is always shown).
fn whole_sentences(text: &str, width: usize, rows: usize) -> Vec<String> {
    let mut sentences: Vec<&str> = Vec::new();
    let mut start = 0;
    for (i, c) in text.char_indices() {
        let end = i + c.len_utf8();
        let at_space = text[end..].starts_with(' ') || end == text.len();
        if matches!(c, '.' | '?' | '!' | ':') && at_space {
            sentences.push(text[start..end].trim());
            start = end;
        }
    }
    if start < text.len() && !text[start..].trim().is_empty() {
        sentences.push(text[start..].trim());
    }
    let mut shown: Vec<String> = Vec::new();
    let mut taken = String::new();
    for s in sentences {
        let next = if taken.is_empty() {
            s.to_owned()
        } else {
            format!("{taken} {s}")
        };
        let lines = wrap(&next, width);
        if lines.len() > rows {
            break;
        }
        taken = next;
        shown = lines;
    }
    if shown.is_empty() {
        shown = wrap(text, width).into_iter().take(rows).collect();
    }
    shown
}

/// Greedy word wrap to `width` columns (a word longer than a line is cut).
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut len = 0;
    for word in text.split_whitespace() {
        let mut word: Vec<char> = word.chars().collect();
        loop {
            let wl = word.len();
            if len > 0 && len + 1 + wl <= width {
                line.push(' ');
                line.extend(word.iter());
                len += 1 + wl;
                break;
            }
            if len > 0 {
                lines.push(std::mem::take(&mut line));
                len = 0;
            }
            if wl <= width {
                line.extend(word.iter());
                len = wl;
                break;
            }
            lines.push(word[..width].iter().collect());
            word.drain(..width);
        }
    }
    if len > 0 {
        lines.push(line);
    }
    lines
}
