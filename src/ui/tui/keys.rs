//! Key bindings of the full-screen view (`keymaps/tui.toml`): keys to
//! action names.  The built-in map is compiled in and complete (every
//! action has a key); a user map lists only what it changes and is merged
//! over it.  A user entry that cannot be used (an unknown action, a key that
//! cannot be read, a key another action already has) is reported with file,
//! line and key, and the rest of the file still applies.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::Path;
use std::sync::OnceLock;

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use serde::Deserialize;

use shakmaty::{File, Rank, Role};

use crate::action::{KeyArg, PlayerAction};
use crate::toml_error::{DataFileError, FileProblem};

/// Every name a key can be bound to in the full-screen view, in the order
/// the help lists them: derived from the one table of actions
/// ([`crate::action::key_names`]: by key group, the cursor jumps by what
/// the key gives them, `rank_3`, `file_e`, `next_knight`), with the view's
/// own names (`input`, `history`) before the session's.
pub fn names() -> &'static [ActionName] {
    static NAMES: OnceLock<Vec<ActionName>> = OnceLock::new();
    NAMES.get_or_init(|| crate::action::key_names(&["input", "history"]))
}

/// An action's name, one of [`names`].
pub type ActionName = &'static str;

/// What a key does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Binding {
    /// An action of the one list, given to `App::update` as `Msg::Key`.
    App(PlayerAction, KeyArg),
    /// A change of the view's look only (no state of the game).
    View(ViewAction),
}

/// What only the view itself does with a key (no state of the game, and
/// nothing that line mode or the app need to know).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewAction {
    /// Type a line (a move or any line-mode command) in the input field.
    Input,
    /// The history of what hector said, to scroll and read again.
    History,
}

/// What the key map name `name` does.
pub fn binding(name: &str) -> Option<Binding> {
    let view = |v| Some(Binding::View(v));
    if name == "input" {
        return view(ViewAction::Input);
    }
    if name == "history" {
        return view(ViewAction::History);
    }
    if let Some(r) = name.strip_prefix("rank_") {
        let n: u32 = r.parse().ok().filter(|n| (1..=8).contains(n))?;
        return Some(Binding::App(
            PlayerAction::CursorRank,
            KeyArg::Rank(Rank::new(n - 1)),
        ));
    }
    if let Some(f) = name.strip_prefix("file_") {
        let c = f
            .chars()
            .next()
            .filter(|c| f.len() == 1 && ('a'..='h').contains(c))?;
        return Some(Binding::App(
            PlayerAction::CursorFile,
            KeyArg::File(File::new(u32::from(c) - u32::from('a'))),
        ));
    }
    if let Some(p) = name.strip_prefix("next_") {
        let role = match p {
            "king" => Role::King,
            "queen" => Role::Queen,
            "rook" => Role::Rook,
            "bishop" => Role::Bishop,
            "knight" => Role::Knight,
            "pawn" => Role::Pawn,
            _ => return None,
        };
        return Some(Binding::App(PlayerAction::NextPiece, KeyArg::Role(role)));
    }
    match PlayerAction::from_key(name)? {
        // These need what the key gives them: named as above.
        PlayerAction::CursorRank | PlayerAction::CursorFile | PlayerAction::NextPiece => None,
        a => Some(Binding::App(a, KeyArg::None)),
    }
}

/// One key with its modifiers, as written in a key map ("Ctrl-q", "K", "Up").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KeyChord {
    code: ChordCode,
    ctrl: bool,
    alt: bool,
    shift: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum ChordCode {
    Char(char),
    Named(Named),
    F(u8),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Named {
    Up,
    Down,
    Left,
    Right,
    Enter,
    Esc,
    Tab,
    BackTab,
    Space,
    Backspace,
    Delete,
    Insert,
    Home,
    End,
    PageUp,
    PageDown,
}

const NAMES: [(&str, Named); 16] = [
    ("Up", Named::Up),
    ("Down", Named::Down),
    ("Left", Named::Left),
    ("Right", Named::Right),
    ("Enter", Named::Enter),
    ("Esc", Named::Esc),
    ("Tab", Named::Tab),
    ("BackTab", Named::BackTab),
    ("Space", Named::Space),
    ("Backspace", Named::Backspace),
    ("Delete", Named::Delete),
    ("Insert", Named::Insert),
    ("Home", Named::Home),
    ("End", Named::End),
    ("PageUp", Named::PageUp),
    ("PageDown", Named::PageDown),
];

impl KeyChord {
    /// Read a key as written in a key map.
    ///
    /// # Errors
    ///
    /// Why the text is not a key, as data for the phrasing.
    pub fn parse(text: &str) -> Result<KeyChord, FileProblem> {
        let mut rest = text;
        let (mut ctrl, mut alt, mut shift) = (false, false, false);
        loop {
            let lower = rest.to_ascii_lowercase();
            if rest.chars().count() > 1 && lower.starts_with("ctrl-") {
                ctrl = true;
                rest = &rest[5..];
            } else if rest.chars().count() > 1 && lower.starts_with("alt-") {
                alt = true;
                rest = &rest[4..];
            } else if rest.chars().count() > 1 && lower.starts_with("shift-") {
                shift = true;
                rest = &rest[6..];
            } else {
                break;
            }
        }
        let mut chars = rest.chars();
        let code = match (chars.next(), chars.next()) {
            (None, _) => return Err(FileProblem::EmptyKey),
            (Some(' '), None) => ChordCode::Named(Named::Space),
            (Some(c), None) if !c.is_control() => {
                // Ctrl-letters arrive in lower case; Shift is in the letter.
                let c = if ctrl { c.to_ascii_lowercase() } else { c };
                if shift && c.is_alphabetic() {
                    shift = false;
                    ChordCode::Char(c.to_uppercase().next().unwrap_or(c))
                } else {
                    ChordCode::Char(c)
                }
            }
            _ => {
                if let Some((_, n)) = NAMES.iter().find(|(n, _)| n.eq_ignore_ascii_case(rest)) {
                    ChordCode::Named(*n)
                } else if let Some(n) = rest
                    .strip_prefix(['F', 'f'])
                    .and_then(|d| d.parse::<u8>().ok())
                    .filter(|n| (1..=12).contains(n))
                {
                    ChordCode::F(n)
                } else {
                    return Err(FileProblem::NotAKey {
                        text: text.to_owned(),
                        names: NAMES.map(|(n, _)| n.to_owned()).to_vec(),
                    });
                }
            }
        };
        let shift = shift && !matches!(code, ChordCode::Char(_));
        Ok(KeyChord {
            code,
            ctrl,
            alt,
            shift,
        })
    }

    /// The chord of a key event; `None` for a release or repeat-less kinds
    /// hector does not bind (only presses count).
    pub fn from_event(ev: &KeyEvent) -> Option<KeyChord> {
        if ev.kind != KeyEventKind::Press {
            return None;
        }
        let ctrl = ev.modifiers.contains(KeyModifiers::CONTROL);
        let alt = ev.modifiers.contains(KeyModifiers::ALT);
        let shift = ev.modifiers.contains(KeyModifiers::SHIFT);
        let named = |n| ChordCode::Named(n);
        let code = match ev.code {
            KeyCode::Char(' ') => named(Named::Space),
            KeyCode::Char(c) if ctrl => ChordCode::Char(c.to_ascii_lowercase()),
            KeyCode::Char(c) => ChordCode::Char(c),
            KeyCode::Up => named(Named::Up),
            KeyCode::Down => named(Named::Down),
            KeyCode::Left => named(Named::Left),
            KeyCode::Right => named(Named::Right),
            KeyCode::Enter => named(Named::Enter),
            KeyCode::Esc => named(Named::Esc),
            KeyCode::Tab => named(Named::Tab),
            KeyCode::BackTab => named(Named::BackTab),
            KeyCode::Backspace => named(Named::Backspace),
            KeyCode::Delete => named(Named::Delete),
            KeyCode::Insert => named(Named::Insert),
            KeyCode::Home => named(Named::Home),
            KeyCode::End => named(Named::End),
            KeyCode::PageUp => named(Named::PageUp),
            KeyCode::PageDown => named(Named::PageDown),
            KeyCode::F(n) if (1..=12).contains(&n) => ChordCode::F(n),
            _ => return None,
        };
        let is_char = matches!(code, ChordCode::Char(_));
        Some(KeyChord {
            code,
            ctrl,
            alt,
            shift: shift && !is_char && code != named(Named::BackTab),
        })
    }
}

impl fmt::Display for KeyChord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ctrl {
            f.write_str("Ctrl-")?;
        }
        if self.alt {
            f.write_str("Alt-")?;
        }
        if self.shift {
            f.write_str("Shift-")?;
        }
        match self.code {
            ChordCode::Char(c) => write!(f, "{c}"),
            ChordCode::F(n) => write!(f, "F{n}"),
            ChordCode::Named(n) => {
                let name = NAMES.iter().find(|(_, m)| *m == n).map_or("?", |(s, _)| s);
                f.write_str(name)
            }
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct KeyFile {
    keys: BTreeMap<String, Vec<String>>,
}

/// The built-in map of the full-screen view.
pub const TUI_KEYMAP_SOURCE: (&str, &str) = (
    "keymaps/tui.toml",
    include_str!("../../../keymaps/tui.toml"),
);

/// Keys to actions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyMap {
    by_chord: HashMap<KeyChord, ActionName>,
    by_action: BTreeMap<ActionName, Vec<KeyChord>>,
}

fn action_name(name: &str) -> Option<ActionName> {
    names()
        .iter()
        .copied()
        .find(|a| *a == name && binding(a).is_some())
}

impl KeyMap {
    /// The built-in map; it is tested to parse and to be complete
    /// (`builtin_map_is_complete`).
    pub fn builtin() -> KeyMap {
        let (file, text) = TUI_KEYMAP_SOURCE;
        let empty = KeyMap {
            by_chord: HashMap::new(),
            by_action: BTreeMap::new(),
        };
        let (map, errors) = empty.merge(file, text);
        debug_assert!(errors.is_empty(), "{errors:?}");
        map
    }

    /// This map with a user file's text merged over it: each action the
    /// file names gets the file's keys.  Every entry that cannot be used is
    /// returned as an error; the others apply.  A file that does not parse
    /// changes nothing.
    pub fn merge(&self, file: &str, text: &str) -> (KeyMap, Vec<DataFileError>) {
        let mut map = self.clone();
        let parsed: KeyFile = match toml::from_str(text) {
            Ok(p) => p,
            Err(e) => return (map, vec![DataFileError::from_toml(file, text, &e)]),
        };
        let mut errors = Vec::new();
        let at = |name: &str, problem: FileProblem| {
            DataFileError::at_key(file, text, &format!("keys.{name}"), problem)
        };
        // Which user entries are good, with their keys.
        let mut entries: Vec<(ActionName, Vec<KeyChord>)> = Vec::new();
        for (name, keys) in &parsed.keys {
            let Some(action) = action_name(name) else {
                errors.push(at(name, FileProblem::NotAnAction(name.clone())));
                continue;
            };
            let mut chords = Vec::new();
            for k in keys {
                match KeyChord::parse(k) {
                    Ok(c) if !chords.contains(&c) => chords.push(c),
                    Ok(_) => {}
                    Err(e) => errors.push(at(name, e)),
                }
            }
            // An entry none of whose keys could be read keeps the old keys.
            if chords.is_empty() && !keys.is_empty() {
                continue;
            }
            entries.push((action, chords));
        }
        // Replace the actions' keys, then bind; a key another action keeps
        // stays with that action.
        for (action, _) in &entries {
            if let Some(old) = map.by_action.insert(action, Vec::new()) {
                for c in old {
                    map.by_chord.remove(&c);
                }
            }
        }
        for (action, chords) in entries {
            for c in chords {
                match map.by_chord.get(&c) {
                    Some(other) if *other != action => {
                        errors.push(at(
                            action,
                            FileProblem::KeyTaken {
                                key: c.to_string(),
                                other: (*other).to_owned(),
                            },
                        ));
                    }
                    _ => {
                        map.by_chord.insert(c, action);
                        map.by_action.entry(action).or_default().push(c);
                    }
                }
            }
        }
        (map, errors)
    }

    /// The built-in map with the user file at `path` merged over it; a
    /// missing file is no error.
    pub fn load_user(path: &Path) -> (KeyMap, Vec<DataFileError>) {
        let builtin = KeyMap::builtin();
        let name = path.display().to_string();
        match std::fs::read_to_string(path) {
            Ok(text) => builtin.merge(&name, &text),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (builtin, Vec::new()),
            Err(e) => (builtin, vec![DataFileError::unreadable(&name, &e)]),
        }
    }

    /// The action a key calls.
    pub fn action(&self, chord: &KeyChord) -> Option<ActionName> {
        self.by_chord.get(chord).copied()
    }

    /// The action of a key event (presses only).
    pub fn action_of(&self, ev: &KeyEvent) -> Option<ActionName> {
        KeyChord::from_event(ev).and_then(|c| self.action(&c))
    }

    /// What a key event does (presses only).
    pub fn binding_of(&self, ev: &KeyEvent) -> Option<Binding> {
        self.action_of(ev).and_then(binding)
    }

    /// The keys of an action.
    pub fn keys(&self, action: &str) -> &[KeyChord] {
        self.by_action.get(action).map_or(&[], Vec::as_slice)
    }

    /// Every action with its keys, in the help's order.
    pub fn bindings(&self) -> impl Iterator<Item = (ActionName, &[KeyChord])> + '_ {
        names().iter().map(|a| (*a, self.keys(a)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chord(s: &str) -> KeyChord {
        KeyChord::parse(s).unwrap()
    }

    fn press(code: KeyCode, mods: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, mods)
    }

    #[test]
    fn builtin_map_is_complete() {
        let (file, text) = TUI_KEYMAP_SOURCE;
        let empty = KeyMap {
            by_chord: HashMap::new(),
            by_action: BTreeMap::new(),
        };
        let (map, errors) = empty.merge(file, text);
        assert!(errors.is_empty(), "{errors:?}");
        for (action, keys) in map.bindings() {
            assert!(!keys.is_empty(), "{action} has no key");
            assert!(binding(action).is_some(), "{action}");
        }
        // Every action of the one list has a key (the cursor jumps with
        // every rank, file and kind).
        let bound: Vec<Binding> = names().iter().filter_map(|a| binding(a)).collect();
        for a in PlayerAction::ALL {
            assert!(
                bound
                    .iter()
                    .any(|b| matches!(b, Binding::App(x, _) if x == a)),
                "{a:?} has no key"
            );
        }
        for r in Rank::ALL {
            assert!(bound.contains(&Binding::App(PlayerAction::CursorRank, KeyArg::Rank(r))));
        }
        for f in File::ALL {
            assert!(bound.contains(&Binding::App(PlayerAction::CursorFile, KeyArg::File(f))));
        }
        for role in Role::ALL {
            assert!(bound.contains(&Binding::App(PlayerAction::NextPiece, KeyArg::Role(role))));
        }
        assert_eq!(map.action(&chord("k")), Some("next_king"));
        assert_eq!(map.action(&chord("K")), None);
        assert_eq!(map.action(&chord("E")), Some("file_e"));
        assert_eq!(map.action(&chord("?")), Some("help"));
    }

    /// Every action of the table can be reached: by a key of the built-in
    /// full-screen map, and (but the view's own keys) by a word of the
    /// built-in line map in every language.
    #[test]
    fn every_action_is_reachable_by_a_key_or_a_word() {
        let keys = KeyMap::builtin();
        let words = crate::keymap::Keymap::builtin();
        for row in crate::action::TABLE {
            let keyed = names().iter().any(|n| {
                matches!(binding(n), Some(Binding::App(a, _)) if a == row.action)
                    && !keys.keys(n).is_empty()
            });
            assert!(keyed, "{} has no key in {}", row.name, TUI_KEYMAP_SOURCE.0);
            if row.action.key_only() {
                continue;
            }
            for lang in crate::words::Lang::ALL {
                assert!(
                    !words.words_of(lang.code(), row.action).is_empty(),
                    "{} has no {} word",
                    row.name,
                    lang.code()
                );
            }
        }
    }

    /// The names come from the table: the same names as the hand-kept
    /// list they replace (session 6), the view's own two besides.
    #[test]
    fn the_names_are_the_tables() {
        let before = [
            "cursor_up",
            "cursor_down",
            "cursor_left",
            "cursor_right",
            "rank_1",
            "rank_2",
            "rank_3",
            "rank_4",
            "rank_5",
            "rank_6",
            "rank_7",
            "rank_8",
            "file_a",
            "file_b",
            "file_c",
            "file_d",
            "file_e",
            "file_f",
            "file_g",
            "file_h",
            "next_king",
            "next_queen",
            "next_rook",
            "next_bishop",
            "next_knight",
            "next_pawn",
            "select",
            "cancel",
            "square",
            "attackers",
            "defenders",
            "moves",
            "pieces",
            "rank",
            "file",
            "material",
            "last",
            "turn",
            "repeat",
            "silence",
            "board",
            "draw",
            "accept",
            "decline",
            "claim",
            "resign",
            // (Added since: a tournament game's confirmation of the result.)
            "confirm",
            "new",
            "flip",
            // (Added since: a lichess game's.)
            "abort",
            "chat",
            "say",
            "release",
            "hint",
            "eval",
            "threat",
            "takeback",
            "engine",
            "export",
            "next",
            "previous",
            "start",
            "end",
            "goto",
            "games",
            "game",
            "find",
            "comment",
            "variations",
            "time",
            "press",
            "pause",
            "resume",
            "arbiter",
            "flip_view",
            "piece_style",
            "coordinates",
            "move_list",
            "theme",
            "large_text",
            "input",
            "history",
            "help",
            "quit",
        ];
        // In the same order but one: within a group the table's (help's)
        // order, which says `last` before `material`.
        let mut expected = before.to_vec();
        let (m, l) = (
            expected.iter().position(|n| *n == "material"),
            expected.iter().position(|n| *n == "last"),
        );
        expected.swap(m.unwrap(), l.unwrap());
        assert_eq!(names(), expected);
    }

    #[test]
    fn the_look_keys_are_actions_of_the_one_list() {
        // Regression: they were the view's own (not in PlayerAction::ALL), so the
        // app never heard of them, nothing said the change, and the help
        // had no sentence for them.
        let m = KeyMap::builtin();
        let plain = |c: char| press(KeyCode::Char(c), KeyModifiers::NONE);
        for (key, action) in [
            (plain('g'), PlayerAction::PieceStyle),
            (plain('c'), PlayerAction::Coordinates),
            (plain('t'), PlayerAction::MoveList),
            (
                press(KeyCode::Char('t'), KeyModifiers::CONTROL),
                PlayerAction::Theme,
            ),
            (
                press(KeyCode::Char('L'), KeyModifiers::SHIFT),
                PlayerAction::LargeText,
            ),
        ] {
            assert_eq!(
                m.binding_of(&key),
                Some(Binding::App(action, KeyArg::None)),
                "{key:?}"
            );
            assert!(PlayerAction::ALL.contains(&action));
            assert!(action.key_only(), "no line-mode word needed");
            for lang in crate::words::Lang::ALL {
                let help = crate::words::vocab::builtin(lang).messages;
                assert!(help.contains_key(&format!("help_{}", action.key())));
            }
        }
        assert_eq!(binding("input"), Some(Binding::View(ViewAction::Input)));
    }

    #[test]
    fn key_events_map_to_chords() {
        let m = KeyMap::builtin();
        assert_eq!(
            m.action_of(&press(KeyCode::Up, KeyModifiers::NONE)),
            Some("cursor_up")
        );
        assert_eq!(
            m.action_of(&press(KeyCode::Char('E'), KeyModifiers::SHIFT)),
            Some("file_e")
        );
        assert_eq!(
            m.action_of(&press(KeyCode::Char('q'), KeyModifiers::CONTROL)),
            Some("quit")
        );
        assert_eq!(
            m.action_of(&press(KeyCode::Char('d'), KeyModifiers::ALT)),
            Some("draw")
        );
        assert_eq!(
            m.action_of(&press(KeyCode::Char(' '), KeyModifiers::NONE)),
            Some("square")
        );
        // Only presses count, not releases.
        let mut release = press(KeyCode::Char('k'), KeyModifiers::NONE);
        release.kind = KeyEventKind::Release;
        assert_eq!(m.action_of(&release), None);
    }

    #[test]
    fn chords_read_and_print() {
        for s in [
            "Ctrl-q",
            "Alt-d",
            "Up",
            "F5",
            "K",
            "?",
            "Space",
            "Shift-Tab",
        ] {
            assert_eq!(chord(s).to_string(), s);
        }
        assert_eq!(chord("ctrl-Q"), chord("Ctrl-q"));
        assert_eq!(chord("Shift-k"), chord("K"));
        assert_eq!(chord(" "), chord("Space"));
        assert!(KeyChord::parse("Hyper-x").is_err());
        assert!(KeyChord::parse("F13").is_err());
        assert!(KeyChord::parse("").is_err());
    }

    #[test]
    fn user_override() {
        let user = "[keys]\ncursor_up = [\"Up\", \"Ctrl-p\"]\nsquare = [\"Insert\"]\n";
        let (m, errors) = KeyMap::builtin().merge("my.toml", user);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(m.action(&chord("Ctrl-p")), Some("cursor_up"));
        assert_eq!(m.action(&chord("Insert")), Some("square"));
        // The replaced keys are free now.
        assert_eq!(m.action(&chord("Space")), None);
        assert_eq!(m.keys("square"), &[chord("Insert")]);
        // Untouched actions keep theirs.
        assert_eq!(m.action(&chord("k")), Some("next_king"));
    }

    #[test]
    fn conflict_names_file_line_and_key() {
        let user = "# mine\n[keys]\nnext_queen = [\"q\"]\nsquare = [\"k\", \"Insert\"]\n";
        let (m, errors) = KeyMap::builtin().merge("my.toml", user);
        assert_eq!(errors.len(), 1, "{errors:?}");
        let e = &errors[0];
        assert_eq!(e.file, "my.toml");
        assert_eq!(e.line, Some(4));
        assert_eq!(e.key.as_deref(), Some("keys.square"));
        assert_eq!(
            e.problem,
            FileProblem::KeyTaken {
                key: "k".into(),
                other: "next_king".into()
            }
        );
        // Nothing is lost: k stays, the rest of the entry applies.
        assert_eq!(m.action(&chord("k")), Some("next_king"));
        assert_eq!(m.action(&chord("Insert")), Some("square"));
    }

    #[test]
    fn unknown_action_names_file_line_and_key() {
        let user = "[keys]\nsquare = [\"Insert\"]\nteleport = [\"t\"]\n";
        let (m, errors) = KeyMap::builtin().merge("my.toml", user);
        assert_eq!(errors.len(), 1);
        let e = &errors[0];
        assert_eq!((e.line, e.key.as_deref()), (Some(3), Some("keys.teleport")));
        assert_eq!(e.problem, FileProblem::NotAnAction("teleport".into()));
        assert_eq!(m.action(&chord("Insert")), Some("square"));
    }

    #[test]
    fn bad_key_names_file_line_and_key() {
        let user = "[keys]\nhelp = [\"Hyper-h\"]\n";
        let (_, errors) = KeyMap::builtin().merge("my.toml", user);
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].line, Some(2));
        assert_eq!(errors[0].key.as_deref(), Some("keys.help"));
        assert!(
            matches!(&errors[0].problem, FileProblem::NotAKey { text, names }
                if text == "Hyper-h" && names.len() == 16 && names[0] == "Up"),
            "{errors:?}"
        );
        let (_, errors) = KeyMap::builtin().merge("my.toml", "[keys]\nhelp = [\"\"]\n");
        assert_eq!(errors[0].problem, FileProblem::EmptyKey);
    }

    #[test]
    fn syntax_error_changes_nothing() {
        let user = "[keys]\nhelp = [\"F2\"\nquit = []\n";
        let (m, errors) = KeyMap::builtin().merge("my.toml", user);
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].file, "my.toml");
        assert!(errors[0].line.is_some());
        assert_eq!(errors[0].problem, FileProblem::Syntax);
        assert_eq!(m, KeyMap::builtin());
        let (_, errors) = KeyMap::builtin().merge("my.toml", "[kees]\n");
        assert_eq!(errors[0].key.as_deref(), Some("kees"), "{:?}", errors[0]);
        assert_eq!(errors[0].problem, FileProblem::UnknownKey);
        let (_, errors) = KeyMap::builtin().merge("my.toml", "[keys]\nhelp = \"F2\"\n");
        assert_eq!(errors[0].problem, FileProblem::WrongValue, "{errors:?}");
        assert_eq!(errors[0].key.as_deref(), Some("keys.help"));
        let (_, errors) = KeyMap::builtin().merge("my.toml", "# nothing\n");
        assert_eq!(
            errors[0].problem,
            FileProblem::MissingKey("keys".into()),
            "{errors:?}"
        );
    }

    #[test]
    fn missing_user_file_is_no_error() {
        let (m, errors) = KeyMap::load_user(Path::new("/nonexistent/hector/tui.toml"));
        assert!(errors.is_empty());
        assert_eq!(m, KeyMap::builtin());
    }
}
