//! The full-screen front end (`hector play --ui tui`): the terminal in raw
//! mode on the alternate screen, restored on every way out (quit, Ctrl-C,
//! SIGTERM and SIGHUP as `Msg::Interrupted` from `main`, an error, a
//! panic of the view's own thread).  A panic of another thread (a task of
//! the network, a worker) leaves the screen as it is: its message is kept
//! and printed once the terminal is given back.  Keys and mouse clicks become
//! `Msg::Key` for `App::update`; the view is redrawn only when what it shows
//! changed or the terminal was resized.

use std::io;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crossterm::event::{
    DisableMouseCapture, EnableMouseCapture, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers,
    MouseButton, MouseEventKind,
};
use crossterm::execute;
use ratatui::DefaultTerminal;
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};

use super::Theme;
use super::keys::{Binding, KeyMap, ViewAction};
use super::pager::{Pager, PagerKey, PagerOutcome};
use super::render::{Look, clock_cells, draw, input_cursor, redraw_clocks, square_at};
use crate::action::{KeyArg, PlayerAction};
use crate::app::App;
use crate::msg::{Effect, Msg};
use crate::runtime::{Feed, FrontEnd, Outputs, Runtime, Wake};
use crate::view::{ClockView, InputView, UiState, View, ViewLook};

/// Whether the terminal is hector's now (raw mode, alternate screen, mouse
/// reports): set when it is taken, cleared when it is given back.
static TERMINAL_TAKEN: AtomicBool = AtomicBool::new(false);

/// Give the terminal back as hector found it, once: on a panic the hook
/// does it, and the unwinding that follows must not do it again (leaving
/// the alternate screen twice moves the cursor back up over the panic's
/// message and the shell's prompt).
fn give_back() {
    if TERMINAL_TAKEN.swap(false, Ordering::SeqCst) {
        let _ = execute!(io::stdout(), DisableMouseCapture);
        ratatui::restore();
        let kept = std::mem::take(&mut *OTHER_PANICS.lock().unwrap_or_else(|e| e.into_inner()));
        for message in kept {
            eprintln!("{message}");
        }
    }
}

/// The view's thread: only its panic ends the view.
static VIEW_THREAD: Mutex<Option<std::thread::ThreadId>> = Mutex::new(None);

/// Messages of other threads' panics while the terminal is hector's (at
/// most a few kept).
static OTHER_PANICS: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Whether the panic now is another thread's while the view runs: it must
/// neither give the terminal back under the running view nor print over it.
fn keep_other_panic(info: &std::panic::PanicHookInfo<'_>) -> bool {
    let view = *VIEW_THREAD.lock().unwrap_or_else(|e| e.into_inner());
    if !TERMINAL_TAKEN.load(Ordering::SeqCst) || view == Some(std::thread::current().id()) {
        return false;
    }
    let name = std::thread::current()
        .name()
        .unwrap_or("a thread")
        .to_owned();
    let mut kept = OTHER_PANICS.lock().unwrap_or_else(|e| e.into_inner());
    if kept.len() < 8 {
        kept.push(format!("hector: thread '{name}' panicked: {info}"));
    }
    true
}

/// Take the terminal: raw mode, the alternate screen, and a panic hook
/// that gives it back before the panic's message is printed (a panic of
/// the view's thread; another thread's is kept for later, see above).
fn take() -> io::Result<DefaultTerminal> {
    *VIEW_THREAD.lock().unwrap_or_else(|e| e.into_inner()) = Some(std::thread::current().id());
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if keep_other_panic(info) {
            return;
        }
        give_back();
        hook(info);
    }));
    TERMINAL_TAKEN.store(true, Ordering::SeqCst);
    crossterm::terminal::enable_raw_mode()?;
    execute!(
        io::stdout(),
        crossterm::terminal::EnterAlternateScreen,
        EnableMouseCapture
    )?;
    ratatui::Terminal::new(ratatui::backend::CrosstermBackend::new(io::stdout()))
}

/// The terminal as hector found it, put back when dropped.
struct Restore;

impl Drop for Restore {
    fn drop(&mut self) {
        give_back();
    }
}

/// Run the full-screen view as the front end of `runtime` until the player
/// quits or a signal ends it.
///
/// # Errors
///
/// The terminal cannot be set up or written to.
pub fn run(
    runtime: &mut Runtime,
    app: &mut App,
    startup: Vec<Effect>,
    look: Look,
    keymap: KeyMap,
) -> io::Result<()> {
    // Given back on every way out: returns and errors (the guard), panics
    // (the hook).
    let _restore = Restore;
    let terminal = take()?;
    let mut front = Front::new(terminal, look, keymap);
    runtime.run(app, startup, &mut front)
}

/// The look the app starts with (the look actions change it): the
/// settings' look, with the themes the theme action goes round.
pub fn first_look(look: &Look) -> ViewLook {
    ViewLook {
        pieces: look.pieces,
        coord_words: look.coord_words,
        san_moves: look.san_moves,
        large_text: look.large_text,
        theme: look.theme.name.clone(),
        themes: themes_of(look).iter().map(|t| t.name.clone()).collect(),
    }
}

/// The themes the theme action goes round: the built-in ones and the
/// player's own.
fn themes_of(look: &Look) -> Vec<Theme> {
    let mut themes: Vec<Theme> = Theme::all_builtin().into();
    if !themes.iter().any(|t| t.name == look.theme.name) {
        themes.push(look.theme.clone());
    }
    themes
}

/// How many sentences the history keeps.
const HISTORY: usize = 500;

/// The view's own state: the terminal, the input field, the look, the
/// help shown.
struct Front {
    terminal: DefaultTerminal,
    look: Look,
    keymap: KeyMap,
    input: InputView,
    last_view: Option<View>,
    size: Rect,
    /// The key help or the history, over the board.
    page: Option<Pager>,
    /// Every sentence said, the oldest first (at most `HISTORY` of them).
    history: Vec<String>,
    /// The themes the theme action goes round (the built-in ones and the
    /// player's own).
    themes: Vec<Theme>,
    /// Woken only because the clock's face changed: nothing else did.
    clock_only: bool,
    /// The answer to the line just typed, gathered as it is said: when it
    /// is several sentences (`help`, a review's `games`), it opens on a
    /// page, where all of it can be read (the frame shows one sentence).
    answer: Option<Answer>,
    /// The frame on the screen (as drawn last).
    screen: Buffer,
    /// The next frame, drawn before it is compared with the screen's.
    next: Buffer,
}

/// The sentences of information said in answer to one typed line.
struct Answer {
    /// The line typed (the page's title).
    line: String,
    said: Vec<String>,
}

/// An answer of this many sentences or more opens on a page.
const PAGE_ANSWER: usize = 3;

impl FrontEnd for Front {
    /// The terminal's events (keys, clicks, resizes) feed the loop.
    fn start(&mut self, feed: &Feed) -> io::Result<()> {
        let feed = feed.clone();
        std::thread::spawn(move || {
            while let Ok(e) = crossterm::event::read() {
                if !feed.terminal(e) {
                    return;
                }
            }
        });
        Ok(())
    }

    fn said(&mut self, u: &crate::speech::Utterance, app: &App) -> io::Result<()> {
        self.remember(&u.text, app);
        if let Some(a) = self.answer.as_mut()
            && u.kind == crate::speech::SayKind::Info
        {
            a.said.push(u.text.clone());
        }
        Ok(())
    }

    fn show(&mut self, app: &App) -> io::Result<()> {
        self.page_long_answer();
        self.redraw(app)
    }

    /// The next second the running clock shows: no ticking.
    fn wake_at(&self, app: &App, now: Instant) -> Option<Instant> {
        if app.game().is_over() {
            return None;
        }
        app.clock().and_then(|c| ClockView::next_change(c, now))
    }

    fn take(&mut self, wake: Wake, app: &App, outputs: &Outputs) -> Option<Msg> {
        self.clock_only = matches!(wake, Wake::Tick);
        match wake {
            Wake::App(m) => Some(m),
            Wake::Terminal(e) => self.on_term(e, app, outputs),
            // Only the clock's face changed: draw it, nothing for the app.
            Wake::Tick => None,
        }
    }

    fn quit(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Front {
    fn new(terminal: DefaultTerminal, look: Look, keymap: KeyMap) -> Front {
        Front {
            terminal,
            themes: themes_of(&look),
            look,
            keymap,
            input: InputView::default(),
            last_view: None,
            size: Rect::default(),
            page: None,
            history: Vec::new(),
            clock_only: false,
            answer: None,
            screen: Buffer::default(),
            next: Buffer::default(),
        }
    }

    /// The answer to the line typed, all of it said: several sentences
    /// open on a page from their start (issue 30: a typed `help` showed
    /// only its last line at 80×24).
    fn page_long_answer(&mut self) {
        let Some(a) = self.answer.take() else {
            return;
        };
        if a.said.len() >= PAGE_ANSWER && self.page.is_none() {
            self.page = Some(Pager::at_start(a.line, a.said));
            self.last_view = None;
        }
    }

    /// The view at `now` (the clocks as they stand then): the app's view
    /// model with this front end's state.
    fn view(&self, app: &App, now: Instant) -> View {
        let shown = app.view_state();
        let ui = UiState {
            cursor: Some(shown.cursor()),
            selected: shown.chosen(),
            input: self.input.clone(),
            status: app
                .phraser()
                .square_contents(app.game().position(), shown.cursor()),
            flipped: shown.flipped(),
        };
        let mut view = app.view_model(&ui);
        view.clocks = app.clock().map(|c| ClockView::of(c, now));
        view
    }

    /// Draw when the view or the terminal's size changed.
    /// When only the clock's second changed (`clock_only`: no message
    /// reached the app since the last frame), only the clocks are drawn
    /// ([`Front::clocks_only`]); else the whole view.
    fn redraw(&mut self, app: &App) -> io::Result<()> {
        let now = Instant::now();
        if self.clock_only && self.clocks_only(app, now)? {
            return Ok(());
        }
        let size = self.terminal.size()?;
        let size = Rect::new(0, 0, size.width, size.height);
        let view = match &self.last_view {
            Some(last) if self.clock_only => {
                let mut v = last.clone();
                v.clocks = app.clock().map(|c| ClockView::of(c, now));
                v
            }
            _ => self.view(app, now),
        };
        let look = self.current_look(app);
        if self.last_view.as_ref() == Some(&view) && size == self.size && look == self.look {
            return Ok(());
        }
        self.look = look;
        self.paint(&view, app, size)?;
        self.size = size;
        self.last_view = Some(view);
        Ok(())
    }

    /// Draw the whole view (and the page over it) into the next frame and
    /// write the cells that differ from the screen's, as ratatui's own
    /// `draw` does, but with the frames kept here: the clocks alone can
    /// then be drawn over the screen's frame without a copy of it.
    fn paint(&mut self, view: &View, app: &App, size: Rect) -> io::Result<()> {
        use ratatui::backend::Backend;
        if self.screen.area != size {
            // A new size (or the first frame): from a blank screen.
            self.screen = Buffer::empty(size);
            self.next = Buffer::empty(size);
            self.terminal
                .backend_mut()
                .clear_region(ratatui::backend::ClearType::All)?;
        }
        self.next.reset();
        draw(view, &self.look, size, &mut self.next);
        if let Some(p) = &self.page {
            let phraser = app.phraser();
            let footer = |from: usize, to: usize, total: usize| {
                phraser.message(
                    "view_pager_footer",
                    &[
                        ("from", &from.to_string()),
                        ("to", &to.to_string()),
                        ("total", &total.to_string()),
                    ],
                )
            };
            p.draw(size, &self.look.theme, &footer, &mut self.next);
        }
        let backend = self.terminal.backend_mut();
        backend.draw(self.screen.diff(&self.next).into_iter())?;
        match input_cursor(view, size) {
            Some(at) => {
                backend.set_cursor_position(at)?;
                backend.show_cursor()?;
            }
            None => backend.hide_cursor()?,
        }
        Backend::flush(backend)?;
        std::mem::swap(&mut self.screen, &mut self.next);
        Ok(())
    }

    /// Only the clocks' second changed: the clocks alone are drawn over the
    /// frame on the screen, and only their changed cells written; `false`
    /// when a full frame is needed (the input field's cursor shown, a page
    /// open, no frame yet, clocks that take other rows).  The size is the
    /// last frame's: a resize comes as an event, and a full frame after it.
    fn clocks_only(&mut self, app: &App, now: Instant) -> io::Result<bool> {
        use ratatui::backend::Backend;
        let Some(last) = self.last_view.as_mut() else {
            return Ok(false);
        };
        let size = self.size;
        if self.screen.area != size || self.page.is_some() || last.input.focused {
            return Ok(false);
        }
        let clocks = app.clock().map(|c| ClockView::of(c, now));
        if clocks == last.clocks {
            return Ok(true);
        }
        let (Some(new), Some(was)) = (clocks, last.clocks) else {
            return Ok(false);
        };
        last.clocks = Some(new);
        // The clocks' cells of the screen into the scratch frame, the new
        // clocks drawn there, and the cells that differ written and kept.
        let Some(cells) = clock_cells(last, &self.look, size) else {
            last.clocks = Some(was);
            return Ok(false);
        };
        for y in cells.top()..cells.bottom() {
            for x in cells.left()..cells.right() {
                self.next[(x, y)].clone_from(&self.screen[(x, y)]);
            }
        }
        if !redraw_clocks(last, &was, &self.look, size, &mut self.next) {
            last.clocks = Some(was);
            return Ok(false);
        }
        let mut changed = Vec::new();
        for y in cells.top()..cells.bottom() {
            for x in cells.left()..cells.right() {
                if self.next[(x, y)] != self.screen[(x, y)] {
                    changed.push((x, y));
                }
            }
        }
        let backend = self.terminal.backend_mut();
        backend.draw(changed.iter().map(|&(x, y)| (x, y, &self.next[(x, y)])))?;
        Backend::flush(backend)?;
        for (x, y) in changed {
            self.screen[(x, y)].clone_from(&self.next[(x, y)]);
        }
        Ok(true)
    }

    /// A terminal event: a message for the app, or a change of the view.
    fn on_term(&mut self, e: Event, app: &App, outputs: &Outputs) -> Option<Msg> {
        match e {
            Event::Key(k) if k.kind == KeyEventKind::Press => self.on_key(k, app, outputs),
            Event::Mouse(m) => match m.kind {
                // Only the press counts, not the release.
                MouseEventKind::Down(MouseButton::Left) => {
                    let view = self.last_view.as_ref()?;
                    let sq =
                        square_at(view, &self.look, self.size, Position::new(m.column, m.row))?;
                    Some(Msg::Key(PlayerAction::Select, KeyArg::Square(sq)))
                }
                _ => None,
            },
            Event::Resize(..) => {
                self.last_view = None;
                None
            }
            _ => None,
        }
    }

    fn on_key(&mut self, k: KeyEvent, app: &App, outputs: &Outputs) -> Option<Msg> {
        // Tests only: a panic on demand, to check the terminal is given back.
        #[cfg(feature = "test-support")]
        if k.code == KeyCode::F(12) && std::env::var_os("HECTOR_TEST_PANIC_ON_F12").is_some() {
            #[allow(clippy::panic, reason = "the test of the panic path asks for it")]
            {
                panic!("test panic on F12");
            }
        }
        if self.page.is_some() {
            return self.on_page_key(k, app, outputs);
        }
        // Ctrl-C is an interrupt, as in line mode (raw mode turns the
        // terminal's SIGINT into this key).
        if k.code == KeyCode::Char('c') && k.modifiers.contains(KeyModifiers::CONTROL) {
            return Some(Msg::Interrupted);
        }
        if self.input.focused {
            return self.edit(k);
        }
        match self.keymap.binding_of(&k)? {
            Binding::App(PlayerAction::Help, _) => {
                let (lines, page) = key_help(app, &self.keymap);
                self.page = Some(page);
                self.last_view = None;
                Some(Msg::KeyHelp(lines))
            }
            Binding::App(a, arg) => Some(Msg::Key(a, arg)),
            Binding::View(v) => {
                self.on_view(v, app);
                None
            }
        }
    }

    fn on_view(&mut self, v: ViewAction, app: &App) {
        match v {
            ViewAction::Input => self.input.focused = true,
            ViewAction::History => {
                let phraser = app.phraser();
                let entries = if self.history.is_empty() {
                    vec![phraser.message("view_history_empty", &[])]
                } else {
                    self.history.clone()
                };
                self.page = Some(Pager::at_end(
                    phraser.message("view_history_title", &[]),
                    entries,
                ));
            }
        }
        self.last_view = None;
    }

    /// A sentence said: into the history (and the history page, when it
    /// is open at the end).
    fn remember(&mut self, text: &str, app: &App) {
        if self.history.len() >= HISTORY {
            self.history.remove(0);
        }
        self.history.push(text.to_owned());
        let title = app.phraser().message("view_history_title", &[]);
        if let Some(p) = self.page.as_mut().filter(|p| p.title == title) {
            if p.entries.len() == 1 && self.history.len() == 1 {
                // "Nothing said yet." goes.
                p.entries.clear();
            }
            p.push(text.to_owned());
            self.last_view = None;
        }
    }

    /// A key while the help or the history is shown: it scrolls, reads
    /// aloud or closes the page; other keys do nothing.
    fn on_page_key(&mut self, k: KeyEvent, app: &App, outputs: &Outputs) -> Option<Msg> {
        if k.code == KeyCode::Char('c') && k.modifiers.contains(KeyModifiers::CONTROL) {
            return Some(Msg::Interrupted);
        }
        let key = match k.code {
            KeyCode::Up => PagerKey::Up,
            KeyCode::Down => PagerKey::Down,
            KeyCode::PageUp => PagerKey::PageUp,
            KeyCode::PageDown | KeyCode::Char(' ') => PagerKey::PageDown,
            KeyCode::Home => PagerKey::Home,
            KeyCode::End => PagerKey::End,
            KeyCode::Enter | KeyCode::Char('.') => PagerKey::Read,
            KeyCode::Esc | KeyCode::Char('q' | '?' | 'h') | KeyCode::F(1) => PagerKey::Close,
            _ => return None,
        };
        let page = self.page.as_mut()?;
        self.last_view = None;
        match page.key(key, self.size) {
            PagerOutcome::Stay => {}
            PagerOutcome::Close => {
                self.page = None;
                // Whatever the help was saying stops with it.
                outputs.silence();
            }
            PagerOutcome::Read(entries) => {
                let lang = app.phraser().msg_lang().to_owned();
                outputs.silence();
                for e in entries {
                    outputs.say(&crate::speech::Utterance::new(
                        e,
                        lang.clone(),
                        crate::speech::Priority::Normal,
                        crate::speech::SayKind::Info,
                    ));
                }
            }
        }
        None
    }

    /// The look to draw with: the app's choices (changed by the look
    /// actions) in this front end's colours.
    fn current_look(&self, app: &App) -> Look {
        let chosen = app.view_state().look();
        let theme = self
            .themes
            .iter()
            .find(|t| t.name == chosen.theme)
            .unwrap_or(&self.look.theme)
            .clone();
        Look {
            theme,
            pieces: chosen.pieces,
            coord_words: chosen.coord_words,
            san_moves: chosen.san_moves,
            large_text: chosen.large_text,
        }
    }

    /// A key while the input field has the focus: the line is edited;
    /// Enter sends it as a typed line, Esc leaves the field.
    fn edit(&mut self, k: KeyEvent) -> Option<Msg> {
        let chars: Vec<char> = self.input.text.chars().collect();
        let cur = self.input.cursor.min(chars.len());
        let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
        match k.code {
            KeyCode::Char('u') if ctrl => {
                self.input.text.clear();
                self.input.cursor = 0;
            }
            KeyCode::Char(c) if !ctrl => {
                let mut chars = chars;
                chars.insert(cur, c);
                self.input.text = chars.into_iter().collect();
                self.input.cursor = cur + 1;
            }
            KeyCode::Backspace if cur > 0 => {
                let mut chars = chars;
                chars.remove(cur - 1);
                self.input.text = chars.into_iter().collect();
                self.input.cursor = cur - 1;
            }
            KeyCode::Delete if cur < chars.len() => {
                let mut chars = chars;
                chars.remove(cur);
                self.input.text = chars.into_iter().collect();
            }
            KeyCode::Left => self.input.cursor = cur.saturating_sub(1),
            KeyCode::Right => self.input.cursor = (cur + 1).min(chars.len()),
            KeyCode::Home => self.input.cursor = 0,
            KeyCode::End => self.input.cursor = chars.len(),
            KeyCode::Esc => self.input.focused = false,
            KeyCode::Enter => {
                let line = std::mem::take(&mut self.input.text);
                self.input.cursor = 0;
                self.input.focused = false;
                self.answer = Some(Answer {
                    line: line.trim().to_owned(),
                    said: Vec::new(),
                });
                return Some(Msg::Line(line));
            }
            _ => {}
        }
        None
    }
}

/// The key help: each action with its keys, for the app to say
/// ([`Msg::KeyHelp`]), and the page that shows them in the same words
/// ([`crate::phrase::Phraser::key_help`]) with the view's own keys after them.
fn key_help(app: &App, keymap: &KeyMap) -> (Vec<(PlayerAction, String)>, Pager) {
    // Only what applies now: no review keys in a game, no lichess keys
    // at the board (issue 30: 69 lines in an ordinary game).
    let lines: Vec<(PlayerAction, String)> = keys_of_actions(keymap)
        .into_iter()
        .filter(|(a, _)| app.key_applies_now(*a))
        .collect();
    let phraser = app.phraser();
    let mut entries: Vec<String> = lines
        .iter()
        .map(|(a, k)| phraser.key_help(a.key(), k))
        .collect();
    // The view's own keys (on the screen only: the app says the actions).
    for (name, key) in [
        ("input", "view_help_input"),
        ("history", "view_help_history"),
    ] {
        let keys: Vec<String> = keymap.keys(name).iter().map(ToString::to_string).collect();
        if !keys.is_empty() {
            entries.push(phraser.message(key, &[("command", &keys.join(" "))]));
        }
    }
    let page = Pager::at_start(phraser.message("view_help_title", &[]), entries);
    (lines, page)
}

/// Each action with its keys ("Up", "1 2 3 4 5 6 7 8").
fn keys_of_actions(keymap: &KeyMap) -> Vec<(PlayerAction, String)> {
    let mut out: Vec<(PlayerAction, Vec<String>)> = Vec::new();
    for (name, keys) in keymap.bindings() {
        let Some(Binding::App(a, _)) = super::keys::binding(name) else {
            continue;
        };
        let keys: Vec<String> = keys.iter().map(ToString::to_string).collect();
        match out.iter_mut().find(|(b, _)| *b == a) {
            Some((_, list)) => list.extend(keys),
            None => out.push((a, keys)),
        }
    }
    out.into_iter()
        .filter(|(_, k)| !k.is_empty())
        .map(|(a, k)| (a, k.join(" ")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::Lang;

    /// The view's help page words every action as the app says it: the
    /// spoken key help and the page are the same sentences, in the
    /// player's language, and the page adds only the view's own keys.
    #[test]
    fn the_help_page_says_what_the_app_says() {
        let mut app = App::builder().lang(Lang::De).build();
        let keymap = KeyMap::builtin();
        let (lines, page) = key_help(&app, &keymap);
        let said: Vec<String> = app
            .update(Msg::KeyHelp(lines.clone()), Instant::now())
            .into_iter()
            .filter_map(|e| match e {
                Effect::Say(u) => Some(u.text),
                _ => None,
            })
            .collect();
        // The first sentence said is the introduction.
        assert_eq!(said.len(), lines.len() + 1);
        assert_eq!(page.entries[..lines.len()], said[1..]);
        assert_eq!(page.entries.len(), lines.len() + 2, "{:?}", page.entries);
        assert!(
            page.entries.iter().any(|e| e.starts_with("Tab")),
            "{:?}",
            page.entries
        );
        assert_ne!(page.title, "The keys");
    }

    /// Issue 30, item 9: the keys page pasted line-mode arguments after
    /// the keys ("Space s f3", "a e4", "? F1 and a command's word") and
    /// listed the review's and lichess's keys in an ordinary game (69
    /// lines).  It lists what applies now, each key with what it does.
    #[test]
    fn the_keys_page_lists_what_applies_now_without_typed_arguments() {
        let app = App::builder().lang(Lang::En).build();
        let (_, page) = key_help(&app, &KeyMap::builtin());
        let entries = page.entries.join("\n");
        assert!(
            entries.contains("Space s: what is on the square under the cursor."),
            "{entries}"
        );
        assert!(
            entries.contains("a: what attacks the square under the cursor."),
            "{entries}"
        );
        for wrong in [" f3:", " e4:", "Space s f3", "a e4", "such as ? F1 time"] {
            assert!(!entries.contains(wrong), "{wrong}: {entries}");
        }
        for elsewhere in ["in review", "lichess", "the clock", "the engine"] {
            assert!(!entries.contains(elsewhere), "{elsewhere}: {entries}");
        }
        assert!(
            page.entries.len() < 45,
            "{} lines: {entries}",
            page.entries.len()
        );
        // In a review its keys come, and the game's go.
        let file = "[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 *\n";
        let review =
            crate::scoresheet::review::PgnFile::from_bytes(file.as_bytes().to_vec()).unwrap();
        let app = App::builder().lang(Lang::En).review(review).build();
        let (_, page) = key_help(&app, &KeyMap::builtin());
        let entries = page.entries.join("\n");
        assert!(entries.contains("in review, the next move."), "{entries}");
        assert!(!entries.contains("offer a draw"), "{entries}");
    }
}
