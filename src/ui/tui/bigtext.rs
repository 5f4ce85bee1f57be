//! Large text: a sentence in letters eight pixels high, drawn with block
//! characters — what a deaf opponent (or a player who sees large shapes
//! better than print) reads from across the table.  The letters are the
//! 8x8 bitmap font of the `font8x8` crate (Latin, Latin-1, Greek).
//!
//! Two sizes: half blocks (`▀ ▄ █`, a letter 8 cells wide and 4 high;
//! these three characters are in every console font) and, where a sentence
//! would not fit, quadrant blocks (`▖ ▝ ▙ ...`, 4 cells wide and 4 high).

use font8x8::UnicodeFonts;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;

use super::render::wrap;

/// How many pixels of a letter one cell shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pixels {
    /// One pixel wide, two high: a letter is 8 cells wide.
    Half,
    /// Two pixels wide, two high: a letter is 4 cells wide.
    Quadrant,
}

impl Pixels {
    /// A letter's width in cells.
    pub fn letter_width(self) -> u16 {
        match self {
            Pixels::Half => 8,
            Pixels::Quadrant => 4,
        }
    }
}

/// A text line's height in cells (8 pixel rows, two a cell).
pub const LINE_HEIGHT: u16 = 4;

/// The font's rows of a character (bit 0 is the leftmost pixel).  Greek
/// letters with an accent that the font lacks are built from their base
/// letter and the accent: a tonos or a dialytika above a small letter, a
/// tonos before a capital (the letter moved right to make room), as Greek
/// print does.  A reader of the large text sees "Έγινε", not "Εγινε".
pub fn glyph(c: char) -> Option<[u8; 8]> {
    if let Some(rows) = font_glyph(c) {
        return Some(rows);
    }
    match c {
        'ό' => above(font_glyph('ο')?, TONOS),
        'ύ' => above(font_glyph('υ')?, TONOS),
        'ώ' => above(font_glyph('ω')?, TONOS),
        'ϊ' => above(font_glyph('ι')?, DIALYTIKA),
        'ϋ' => above(font_glyph('υ')?, DIALYTIKA),
        'Ά' => before(font_glyph('Α')?),
        'Έ' => before(font_glyph('Ε')?),
        'Ή' => before(font_glyph('Η')?),
        'Ί' => before(font_glyph('Ι')?),
        'Ό' => before(font_glyph('Ο')?),
        'Ύ' => before(font_glyph('Υ')?),
        'Ώ' => before(font_glyph('Ω')?),
        '«' | '»' | '“' | '”' | '„' => font_glyph('"'),
        '‘' | '’' => font_glyph('\''),
        '–' | '—' => font_glyph('-'),
        _ => None,
    }
}

/// The tonos above a small letter, as the font draws it on ί and έ.
const TONOS: u8 = 0b0011_1000;
/// The dialytika above a small letter, as the font draws it on ΐ.
const DIALYTIKA: u8 = 0b0010_0001;

fn font_glyph(c: char) -> Option<[u8; 8]> {
    font8x8::BASIC_FONTS
        .get(c)
        .or_else(|| font8x8::LATIN_FONTS.get(c))
        .or_else(|| font8x8::GREEK_FONTS.get(c))
        .or_else(|| font8x8::MISC_FONTS.get(c))
}

/// A small letter (its top row is empty) with a mark in its top row.
fn above(mut rows: [u8; 8], mark: u8) -> Option<[u8; 8]> {
    rows[0] |= mark;
    Some(rows)
}

/// A capital with a tonos before it: the letter moved right by two pixels
/// (one if it is wide) and a stroke in the two top rows of the first
/// column.
fn before(mut rows: [u8; 8]) -> Option<[u8; 8]> {
    let used = rows.iter().fold(0u8, |a, r| a | r);
    let free_right = used.leading_zeros().min(2);
    for r in &mut rows {
        *r <<= free_right;
    }
    // A wide letter (Ε, Ο, Ω) moves one pixel only: its first column is
    // left blank beside the tonos, so the two do not touch.
    for r in &mut rows[..2] {
        *r = (*r & !0b10) | 1;
    }
    Some(rows)
}

/// `text` in large letters in `width` x `height` cells: the largest size at
/// which all of it fits, and its lines.  `None` when it fits at no size.
pub fn fit(text: &str, width: u16, height: u16) -> Option<(Pixels, Vec<String>)> {
    [Pixels::Half, Pixels::Quadrant].into_iter().find_map(|px| {
        let per_line = width / px.letter_width();
        if per_line == 0 {
            return None;
        }
        // The large size cuts no word in two; the small one, if it must.
        if px == Pixels::Half
            && text
                .split_whitespace()
                .any(|w| w.chars().count() > usize::from(per_line))
        {
            return None;
        }
        let lines = wrap(text, usize::from(per_line));
        (!lines.is_empty() && lines.len() as u16 * LINE_HEIGHT <= height).then_some((px, lines))
    })
}

/// Draw `lines` in large letters, each line centred in `area`.
pub fn draw(lines: &[String], px: Pixels, area: Rect, style: Style, buf: &mut Buffer) {
    for (i, line) in lines.iter().enumerate() {
        let y = area.y + i as u16 * LINE_HEIGHT;
        if y + LINE_HEIGHT > area.bottom() {
            return;
        }
        let w = line.chars().count() as u16 * px.letter_width();
        let mut x = area.x + area.width.saturating_sub(w) / 2;
        for c in line.chars() {
            if x + px.letter_width() > area.right() {
                break;
            }
            let rows = glyph(c).unwrap_or([0; 8]);
            draw_letter(&rows, px, x, y, style, buf);
            x += px.letter_width();
        }
    }
}

fn draw_letter(rows: &[u8; 8], px: Pixels, x: u16, y: u16, style: Style, buf: &mut Buffer) {
    let on = |row: usize, col: u16| rows[row] & (1 << col) != 0;
    for cy in 0..LINE_HEIGHT {
        let (top, bottom) = (usize::from(2 * cy), usize::from(2 * cy + 1));
        for cx in 0..px.letter_width() {
            let ch = match px {
                Pixels::Half => match (on(top, cx), on(bottom, cx)) {
                    (true, true) => '█',
                    (true, false) => '▀',
                    (false, true) => '▄',
                    (false, false) => ' ',
                },
                Pixels::Quadrant => {
                    let (l, r) = (2 * cx, 2 * cx + 1);
                    let bits = usize::from(on(top, l))
                        | usize::from(on(top, r)) << 1
                        | usize::from(on(bottom, l)) << 2
                        | usize::from(on(bottom, r)) << 3;
                    [
                        ' ', '▘', '▝', '▀', '▖', '▌', '▞', '▛', '▗', '▚', '▐', '▜', '▄', '▙', '▟',
                        '█',
                    ][bits]
                }
            };
            if let Some(cell) = buf.cell_mut((x + cx, y + cy)) {
                cell.set_char(ch).set_style(style);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pixels of a drawn letter read back from the cells.
    fn read_back(buf: &Buffer, x: u16, y: u16, px: Pixels) -> [u8; 8] {
        let mut rows = [0u8; 8];
        for cy in 0..LINE_HEIGHT {
            for cx in 0..px.letter_width() {
                let ch = buf[(x + cx, y + cy)].symbol().chars().next().unwrap_or(' ');
                let (tl, tr, bl, br) = match ch {
                    '█' => (true, true, true, true),
                    '▀' => (true, true, false, false),
                    '▄' => (false, false, true, true),
                    '▘' => (true, false, false, false),
                    '▝' => (false, true, false, false),
                    '▖' => (false, false, true, false),
                    '▗' => (false, false, false, true),
                    '▌' => (true, false, true, false),
                    '▐' => (false, true, false, true),
                    '▞' => (false, true, true, false),
                    '▚' => (true, false, false, true),
                    '▛' => (true, true, true, false),
                    '▜' => (true, true, false, true),
                    '▙' => (true, false, true, true),
                    '▟' => (false, true, true, true),
                    _ => (false, false, false, false),
                };
                let (t, b) = (usize::from(2 * cy), usize::from(2 * cy + 1));
                match px {
                    Pixels::Half => {
                        // A half block fills the cell's width: one pixel.
                        rows[t] |= u8::from(tl) << cx;
                        rows[b] |= u8::from(bl) << cx;
                    }
                    Pixels::Quadrant => {
                        rows[t] |= u8::from(tl) << (2 * cx) | u8::from(tr) << (2 * cx + 1);
                        rows[b] |= u8::from(bl) << (2 * cx) | u8::from(br) << (2 * cx + 1);
                    }
                }
            }
        }
        rows
    }

    #[test]
    fn letters_read_back_at_both_sizes() {
        for px in [Pixels::Half, Pixels::Quadrant] {
            let text = "Sä Ω";
            let area = Rect::new(0, 0, 4 * px.letter_width(), LINE_HEIGHT);
            let mut buf = Buffer::empty(area);
            draw(&[text.to_owned()], px, area, Style::new(), &mut buf);
            for (i, c) in text.chars().enumerate() {
                let x = i as u16 * px.letter_width();
                assert_eq!(read_back(&buf, x, 0, px), glyph(c).unwrap(), "{c} {px:?}");
            }
        }
    }

    #[test]
    fn every_letter_of_the_voices_has_a_glyph() {
        for lang in crate::words::Lang::ALL {
            let v = crate::words::vocab::builtin(lang);
            for text in v.messages.values() {
                for c in text
                    .chars()
                    .filter(|c| !c.is_whitespace() && *c != '{' && *c != '}')
                {
                    assert!(glyph(c).is_some(), "{c:?} ({}) in {text:?}", lang.code());
                }
            }
        }
    }

    #[test]
    fn greek_accents_are_drawn() {
        let pixels = |rows: [u8; 8]| rows.iter().map(|r| r.count_ones()).sum::<u32>();
        for (accented, base) in [
            ('ά', 'α'),
            ('έ', 'ε'),
            ('ή', 'η'),
            ('ί', 'ι'),
            ('ό', 'ο'),
            ('ύ', 'υ'),
            ('ώ', 'ω'),
            ('ϊ', 'ι'),
            ('ϋ', 'υ'),
            ('ΐ', 'ι'),
            ('ΰ', 'υ'),
            ('Ά', 'Α'),
            ('Έ', 'Ε'),
            ('Ή', 'Η'),
            ('Ί', 'Ι'),
            ('Ό', 'Ο'),
            ('Ύ', 'Υ'),
            ('Ώ', 'Ω'),
        ] {
            let (a, b) = (glyph(accented).unwrap(), glyph(base).unwrap());
            assert_ne!(a, b, "{accented} is drawn as {base}");
            // The letter is all there, with the accent's pixels besides.
            assert!(pixels(a) > pixels(b), "{accented}");
        }
        // The tonos of a capital stands before it, in the top rows.
        let e = glyph('Έ').unwrap();
        assert_eq!((e[0] & 0b11, e[1] & 0b11, e[6] & 1), (1, 1, 0));
    }

    #[test]
    fn the_largest_size_that_fits() {
        let s = "Springer Felix drei";
        // 60 cells: 7 letters a line in half blocks would cut "Springer":
        // quadrants, 15 letters a line.
        assert_eq!(
            fit(s, 60, 12),
            Some((
                Pixels::Quadrant,
                vec!["Springer Felix".into(), "drei".into()]
            ))
        );
        let (px, lines) = fit(s, 120, 8).unwrap();
        assert_eq!((px, lines.len()), (Pixels::Half, 2));
        assert_eq!(lines, vec!["Springer Felix", "drei"]);
        // Too narrow for half blocks in one line of four rows: quadrants.
        let (px, lines) = fit(s, 80, 4).unwrap();
        assert_eq!((px, lines), (Pixels::Quadrant, vec![s.to_owned()]));
        assert_eq!(fit(s, 40, 4), None);
    }
}
