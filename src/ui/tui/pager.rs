//! A page of text over the board that scrolls: the key help (`?`) and the
//! history of what hector said.  A pure state machine: keys in, what to do
//! out; the lines are wrapped to the width they are drawn at, so nothing is
//! cut off at any size.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::{Block, Borders, Clear, Widget};

use super::render::wrap;
use super::theme::Theme;

/// A key the page understands (the rest are ignored while it is open).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PagerKey {
    Up,
    Down,
    PageUp,
    PageDown,
    Home,
    End,
    /// Read the lines shown aloud.
    Read,
    Close,
}

/// Rows under the text for where the page stands and its keys.
const FOOTER_ROWS: u16 = 2;

/// What the page asks of the view after a key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PagerOutcome {
    /// Drawn again (scrolled, or nothing changed).
    Stay,
    /// Say these entries (what the page shows).
    Read(Vec<String>),
    Close,
}

/// The page: a title, its entries (a sentence or a key line each), and the
/// first wrapped row shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pager {
    pub title: String,
    pub entries: Vec<String>,
    /// The first row shown, in wrapped rows; `None`: the end ("now").
    top: Option<usize>,
}

/// The page's frame in a terminal of `area`: the whole screen but the
/// bottom line (the input field stays in sight).
pub fn frame(area: Rect) -> Rect {
    Rect::new(
        area.x,
        area.y,
        area.width,
        area.height.saturating_sub(1).max(3),
    )
}

impl Pager {
    /// A page shown from its start.
    pub fn at_start(title: String, entries: Vec<String>) -> Pager {
        Pager {
            title,
            entries,
            top: Some(0),
        }
    }

    /// A page shown at its end (the history: the latest sentence last).
    pub fn at_end(title: String, entries: Vec<String>) -> Pager {
        Pager {
            title,
            entries,
            top: None,
        }
    }

    /// The rows of text (entries wrapped to `width`), with the entry each
    /// row belongs to.
    fn rows(&self, width: u16) -> Vec<(usize, String)> {
        self.entries
            .iter()
            .enumerate()
            .flat_map(|(i, e)| {
                let lines = wrap(e, usize::from(width));
                let lines = if lines.is_empty() {
                    vec![String::new()]
                } else {
                    lines
                };
                lines.into_iter().map(move |l| (i, l))
            })
            .collect()
    }

    /// The text rows and the rows free for them inside the frame of
    /// `area` (borders, and the footer's rows).
    fn geometry(area: Rect) -> (u16, usize) {
        let f = frame(area);
        (
            f.width.saturating_sub(2).max(1),
            usize::from(f.height.saturating_sub(2 + FOOTER_ROWS)).max(1),
        )
    }

    /// The first row shown and the rows shown, on a screen of `area`.
    pub fn shown(&self, area: Rect) -> (usize, usize, usize) {
        let (w, rows) = Pager::geometry(area);
        let total = self.rows(w).len();
        let last_top = total.saturating_sub(rows);
        let top = self.top.map_or(last_top, |t| t.min(last_top));
        (top, (top + rows).min(total), total)
    }

    /// A key, on a screen of `area`.
    pub fn key(&mut self, key: PagerKey, area: Rect) -> PagerOutcome {
        let (w, rows) = Pager::geometry(area);
        let (top, bottom, total) = self.shown(area);
        let last_top = total.saturating_sub(rows);
        let step = rows.saturating_sub(1).max(1);
        let new_top = match key {
            PagerKey::Close => return PagerOutcome::Close,
            PagerKey::Read => {
                let all = self.rows(w);
                let mut ids: Vec<usize> = all[top..bottom].iter().map(|(i, _)| *i).collect();
                ids.dedup();
                return PagerOutcome::Read(
                    ids.into_iter()
                        .filter_map(|i| self.entries.get(i).cloned())
                        .collect(),
                );
            }
            PagerKey::Up => top.saturating_sub(1),
            PagerKey::Down => top + 1,
            PagerKey::PageUp => top.saturating_sub(step),
            PagerKey::PageDown => top + step,
            PagerKey::Home => 0,
            PagerKey::End => last_top,
        };
        // At the end the page stays at the end (new sentences come in view).
        self.top = (new_top < last_top).then_some(new_top);
        PagerOutcome::Stay
    }

    /// A new entry at the end (a history kept open sees what is said).
    pub fn push(&mut self, entry: String) {
        self.entries.push(entry);
    }

    /// Draw over the screen `area`; `footer(from, to, total)` is the line
    /// under the text that says where the page stands and its keys.
    pub fn draw(
        &self,
        area: Rect,
        theme: &Theme,
        footer: &dyn Fn(usize, usize, usize) -> String,
        buf: &mut Buffer,
    ) {
        let rect = frame(area).intersection(area);
        if rect.width < 3 || rect.height < 3 {
            return;
        }
        let style = Style::new().fg(theme.text.fg).bg(theme.text.bg);
        let accent = Style::new()
            .fg(theme.accent.fg)
            .bg(theme.accent.bg)
            .add_modifier(Modifier::BOLD);
        Clear.render(rect, buf);
        buf.set_style(rect, style);
        Block::new()
            .borders(Borders::ALL)
            .title(format!(" {} ", self.title))
            .title_style(accent)
            .style(style)
            .render(rect, buf);
        let (w, _) = Pager::geometry(area);
        let rows = self.rows(w);
        let (top, bottom, total) = self.shown(area);
        for (i, (_, line)) in rows[top..bottom].iter().enumerate() {
            buf.set_stringn(
                rect.x + 1,
                rect.y + 1 + i as u16,
                line,
                usize::from(w),
                style,
            );
        }
        let from = if total == 0 { 0 } else { top + 1 };
        let foot = footer(from, bottom, total);
        let foot_row = rect.bottom().saturating_sub(1 + FOOTER_ROWS);
        for (i, line) in wrap(&foot, usize::from(w))
            .iter()
            .take(usize::from(FOOTER_ROWS))
            .enumerate()
        {
            buf.set_stringn(
                rect.x + 1,
                foot_row + i as u16,
                line,
                usize::from(w),
                accent,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(n: usize) -> Vec<String> {
        (1..=n).map(|i| format!("line {i}")).collect()
    }

    fn text(buf: &Buffer) -> String {
        let a = buf.area;
        (a.y..a.bottom())
            .map(|y| {
                (a.x..a.right())
                    .map(|x| buf[(x, y)].symbol().to_owned())
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn every_line_can_be_reached_at_the_smallest_size() {
        let area = Rect::new(0, 0, 80, 24);
        let mut p = Pager::at_start("Keys".into(), entries(57));
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..20 {
            let mut buf = Buffer::empty(area);
            p.draw(
                area,
                &Theme::high_contrast_dark(),
                &|a, b, t| format!("{a}-{b}/{t}"),
                &mut buf,
            );
            let t = text(&buf);
            for i in 1..=57 {
                if t.contains(&format!("line {i} ")) {
                    seen.insert(i);
                }
            }
            p.key(PagerKey::PageDown, area);
        }
        assert_eq!(seen.len(), 57, "{seen:?}");
        // 24 rows: the frame leaves the input row, borders and footer: 19.
        assert_eq!(p.shown(area), (38, 57, 57));
        p.key(PagerKey::Home, area);
        assert_eq!(p.shown(area), (0, 19, 57));
        p.key(PagerKey::Down, area);
        p.key(PagerKey::Down, area);
        assert_eq!(p.shown(area).0, 2);
        p.key(PagerKey::Up, area);
        assert_eq!(p.shown(area).0, 1);
        p.key(PagerKey::End, area);
        assert_eq!(p.shown(area).0, 38);
        assert_eq!(p.key(PagerKey::Close, area), PagerOutcome::Close);
    }

    #[test]
    fn the_history_opens_at_now_and_follows_new_sentences() {
        let area = Rect::new(0, 0, 80, 24);
        let mut p = Pager::at_end("Said".into(), entries(30));
        assert_eq!(p.shown(area), (11, 30, 30));
        p.push("line 31".into());
        assert_eq!(p.shown(area), (12, 31, 31));
        p.key(PagerKey::PageUp, area);
        p.key(PagerKey::Down, area);
        assert_eq!(p.shown(area).0, 1);
        // Scrolled back, it stays where it was when more is said.
        p.push("line 32".into());
        assert_eq!(p.shown(area).0, 1);
        // End jumps back to now.
        p.key(PagerKey::End, area);
        p.push("line 33".into());
        assert_eq!(p.shown(area), (14, 33, 33));
    }

    #[test]
    fn read_says_the_entries_shown_once_each() {
        let area = Rect::new(0, 0, 40, 10);
        // A long entry wraps over several rows: read once.
        let long = "a sentence that is long enough to wrap over rows of the page".to_owned();
        let mut p = Pager::at_start("Said".into(), vec![long.clone(), "short".into()]);
        assert_eq!(
            p.key(PagerKey::Read, area),
            PagerOutcome::Read(vec![long, "short".into()])
        );
    }

    #[test]
    fn a_long_answer_is_readable_to_the_end() {
        let area = Rect::new(0, 0, 80, 24);
        let long: Vec<String> = (0..40).map(|i| format!("word{i}")).collect();
        let p = Pager::at_end("Said".into(), vec![long.join(" ")]);
        let mut buf = Buffer::empty(area);
        p.draw(
            area,
            &Theme::high_contrast_dark(),
            &|_, _, _| String::new(),
            &mut buf,
        );
        assert!(text(&buf).contains("word39"), "{}", text(&buf));
    }
}
