//! Colours of the full-screen view.  Three built-in themes (high-contrast
//! dark, high-contrast light, yellow on black) and a user theme file (TOML)
//! merged over one of them, validated like every data file (file, line and
//! key of the first problem).
//!
//! Only the 16 named terminal colours are used, and backgrounds only from
//! the first 8 (the Linux console has no bright backgrounds), so every
//! theme works over ssh and on the console.  No theme tells two things
//! apart by red against green alone: pieces differ by letter case, shape
//! and a light or dark box; marked squares also carry a mark character.

use std::path::Path;

use ratatui::style::Color;
use serde::Deserialize;

use crate::toml_error::{DataFileError, FileProblem};

/// A foreground on a background.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pair {
    /// The foreground (text) colour.
    pub fg: Color,
    /// The background colour.
    pub bg: Color,
}

impl Pair {
    pub const fn new(fg: Color, bg: Color) -> Pair {
        Pair { fg, bg }
    }
}

/// All colours of the view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Theme {
    /// Its name, as the settings and the theme action say it.
    pub name: String,
    /// Text around the board.
    pub text: Pair,
    /// Headings, the running clock, the large announcement.
    pub accent: Pair,
    /// The light squares' background.
    pub light_square: Color,
    /// The dark squares' background.
    pub dark_square: Color,
    /// A white piece: its letter (fg) on its box (bg); a large glyph is
    /// drawn the other way round (body in bg colour on a box of fg colour).
    pub white_piece: Pair,
    /// A black piece, the same way.
    pub black_piece: Pair,
    /// The background of the last move's squares.
    pub last_move: Color,
    /// The background of a king in check.
    pub check: Color,
    /// The background of a square the tactile board disagrees on.
    pub mismatch: Color,
    /// The background of the chosen piece's square.
    pub selected: Color,
    /// The cursor's mark characters and background.
    pub cursor: Pair,
    /// Coordinates on the board's edges.
    pub coords: Pair,
    /// The input field.
    pub input: Pair,
}

/// The built-in themes, by the name used in the settings.
pub const BUILTIN_NAMES: [&str; 3] = [
    "high-contrast-dark",
    "high-contrast-light",
    "yellow-on-black",
];

impl Theme {
    /// White and bright text on black; light squares blue, dark squares black.
    pub fn high_contrast_dark() -> Theme {
        use Color::*;
        Theme {
            name: "high-contrast-dark".into(),
            text: Pair::new(White, Black),
            accent: Pair::new(LightYellow, Black),
            light_square: Blue,
            dark_square: Black,
            white_piece: Pair::new(Black, Gray),
            black_piece: Pair::new(White, Black),
            last_move: Cyan,
            check: Magenta,
            mismatch: Yellow,
            selected: Green,
            cursor: Pair::new(LightYellow, Red),
            coords: Pair::new(White, Black),
            input: Pair::new(White, Black),
        }
    }

    /// Black text on white; light squares white, dark squares grey... the
    /// terminal's "white" (7) is the lightest background the console has.
    pub fn high_contrast_light() -> Theme {
        use Color::*;
        Theme {
            name: "high-contrast-light".into(),
            text: Pair::new(Black, Gray),
            accent: Pair::new(Blue, Gray),
            light_square: Gray,
            dark_square: Cyan,
            white_piece: Pair::new(Black, Gray),
            black_piece: Pair::new(White, Black),
            last_move: Yellow,
            check: Magenta,
            mismatch: Red,
            selected: Green,
            cursor: Pair::new(White, Blue),
            coords: Pair::new(Black, Gray),
            input: Pair::new(Black, Gray),
        }
    }

    /// Yellow on black, the print of many low-vision aids.
    pub fn yellow_on_black() -> Theme {
        use Color::*;
        Theme {
            name: "yellow-on-black".into(),
            text: Pair::new(LightYellow, Black),
            accent: Pair::new(LightYellow, Black),
            light_square: Yellow,
            dark_square: Black,
            white_piece: Pair::new(Black, Gray),
            black_piece: Pair::new(LightYellow, Black),
            last_move: Blue,
            check: Magenta,
            mismatch: Red,
            selected: Cyan,
            cursor: Pair::new(Black, Green),
            coords: Pair::new(LightYellow, Black),
            input: Pair::new(LightYellow, Black),
        }
    }

    /// A built-in theme by name.
    pub fn builtin(name: &str) -> Option<Theme> {
        match name {
            "high-contrast-dark" | "dark" => Some(Theme::high_contrast_dark()),
            "high-contrast-light" | "light" => Some(Theme::high_contrast_light()),
            "yellow-on-black" | "yellow" => Some(Theme::yellow_on_black()),
            _ => None,
        }
    }

    /// Every built-in theme.
    pub fn all_builtin() -> [Theme; 3] {
        [
            Theme::high_contrast_dark(),
            Theme::high_contrast_light(),
            Theme::yellow_on_black(),
        ]
    }

    /// Parse a user theme file's text; `file` names it in errors.
    ///
    /// # Errors
    ///
    /// A [`DataFileError`] with the line and key of a syntax error, an unknown
    /// key, an unknown colour or base theme, a bright background or a
    /// foreground equal to its background.
    pub fn parse(file: &str, text: &str) -> Result<Theme, DataFileError> {
        let raw: ThemeFile =
            toml::from_str(text).map_err(|e| DataFileError::from_toml(file, text, &e))?;
        // The line of a key inside an inline table is that of the table's
        // key ("white_piece = { bg = ... }").
        let at = |key: &str, problem: FileProblem| {
            let mut e = DataFileError::at_key(file, text, key, problem);
            let mut k = key;
            while e.line.is_none() {
                let Some((parent, _)) = k.rsplit_once('.') else {
                    break;
                };
                e.line = DataFileError::at_key(file, text, parent, FileProblem::Syntax).line;
                k = parent;
            }
            e
        };
        let mut theme = match &raw.base {
            None => Theme::high_contrast_dark(),
            Some(b) => Theme::builtin(b).ok_or_else(|| {
                at(
                    "base",
                    FileProblem::UnknownTheme {
                        name: b.clone(),
                        names: BUILTIN_NAMES.map(str::to_owned).to_vec(),
                    },
                )
            })?,
        };
        theme.name = raw.name.clone().unwrap_or_else(|| file.to_owned());
        let c = raw.colours.unwrap_or_default();
        let pairs: [(&str, &Option<RawPair>, &mut Pair); 6] = [
            ("text", &c.text, &mut theme.text),
            ("accent", &c.accent, &mut theme.accent),
            ("white_piece", &c.white_piece, &mut theme.white_piece),
            ("black_piece", &c.black_piece, &mut theme.black_piece),
            ("cursor", &c.cursor, &mut theme.cursor),
            ("coords", &c.coords, &mut theme.coords),
        ];
        for (key, raw, pair) in pairs {
            if let Some(raw) = raw {
                apply_pair(raw, pair, &format!("colours.{key}"), &at)?;
            }
        }
        if let Some(raw) = &c.input {
            apply_pair(raw, &mut theme.input, "colours.input", &at)?;
        }
        let backgrounds: [(&str, &Option<String>, &mut Color); 6] = [
            ("light_square", &c.light_square, &mut theme.light_square),
            ("dark_square", &c.dark_square, &mut theme.dark_square),
            ("last_move", &c.last_move, &mut theme.last_move),
            ("check", &c.check, &mut theme.check),
            ("mismatch", &c.mismatch, &mut theme.mismatch),
            ("selected", &c.selected, &mut theme.selected),
        ];
        for (key, raw, colour) in backgrounds {
            if let Some(name) = raw {
                *colour = background(name, &format!("colours.{key}"), &at)?;
            }
        }
        if theme.light_square == theme.dark_square {
            return Err(at("colours.dark_square", FileProblem::SameSquares));
        }
        Ok(theme)
    }

    /// Read a user theme file.
    ///
    /// # Errors
    ///
    /// As [`Theme::parse`], or the file cannot be read.
    pub fn load(path: &Path) -> Result<Theme, DataFileError> {
        let name = path.display().to_string();
        let text =
            std::fs::read_to_string(path).map_err(|e| DataFileError::unreadable(&name, &e))?;
        Theme::parse(&name, &text)
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ThemeFile {
    name: Option<String>,
    base: Option<String>,
    colours: Option<RawColours>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawColours {
    text: Option<RawPair>,
    accent: Option<RawPair>,
    light_square: Option<String>,
    dark_square: Option<String>,
    white_piece: Option<RawPair>,
    black_piece: Option<RawPair>,
    last_move: Option<String>,
    check: Option<String>,
    mismatch: Option<String>,
    selected: Option<String>,
    cursor: Option<RawPair>,
    coords: Option<RawPair>,
    input: Option<RawPair>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPair {
    fg: Option<String>,
    bg: Option<String>,
}

fn apply_pair(
    raw: &RawPair,
    pair: &mut Pair,
    key: &str,
    at: &dyn Fn(&str, FileProblem) -> DataFileError,
) -> Result<(), DataFileError> {
    if let Some(fg) = &raw.fg {
        pair.fg = colour(fg, &format!("{key}.fg"), at)?;
    }
    if let Some(bg) = &raw.bg {
        pair.bg = background(bg, &format!("{key}.bg"), at)?;
    }
    if pair.fg == pair.bg {
        return Err(at(key, FileProblem::SameColours));
    }
    Ok(())
}

/// The 16 colour names a theme file may use.
pub const COLOUR_NAMES: [(&str, Color); 16] = [
    ("black", Color::Black),
    ("red", Color::Red),
    ("green", Color::Green),
    ("yellow", Color::Yellow),
    ("blue", Color::Blue),
    ("magenta", Color::Magenta),
    ("cyan", Color::Cyan),
    ("gray", Color::Gray),
    ("dark-gray", Color::DarkGray),
    ("light-red", Color::LightRed),
    ("light-green", Color::LightGreen),
    ("light-yellow", Color::LightYellow),
    ("light-blue", Color::LightBlue),
    ("light-magenta", Color::LightMagenta),
    ("light-cyan", Color::LightCyan),
    ("white", Color::White),
];

/// The backgrounds every terminal (also the Linux console) shows.
pub fn is_basic(c: Color) -> bool {
    COLOUR_NAMES[..8].iter().any(|(_, b)| *b == c)
}

fn colour(
    name: &str,
    key: &str,
    at: &dyn Fn(&str, FileProblem) -> DataFileError,
) -> Result<Color, DataFileError> {
    let folded = name.trim().to_lowercase().replace(['_', ' '], "-");
    let folded = match folded.as_str() {
        "grey" => "gray".to_owned(),
        "dark-grey" => "dark-gray".to_owned(),
        _ => folded,
    };
    COLOUR_NAMES
        .iter()
        .find(|(n, _)| *n == folded)
        .map(|(_, c)| *c)
        .ok_or_else(|| {
            at(
                key,
                FileProblem::NotAColour {
                    name: name.to_owned(),
                    names: COLOUR_NAMES.iter().map(|(n, _)| (*n).to_owned()).collect(),
                },
            )
        })
}

fn background(
    name: &str,
    key: &str,
    at: &dyn Fn(&str, FileProblem) -> DataFileError,
) -> Result<Color, DataFileError> {
    let c = colour(name, key, at)?;
    if !is_basic(c) {
        return Err(at(
            key,
            FileProblem::NotABackground {
                name: name.to_owned(),
                names: COLOUR_NAMES[..8]
                    .iter()
                    .map(|(n, _)| (*n).to_owned())
                    .collect(),
            },
        ));
    }
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Relative luminance of the xterm default palette, for contrast checks.
    fn luminance(c: Color) -> f64 {
        let (r, g, b) = match c {
            Color::Black => (0, 0, 0),
            Color::Red => (205, 0, 0),
            Color::Green => (0, 205, 0),
            Color::Yellow => (205, 205, 0),
            Color::Blue => (0, 0, 238),
            Color::Magenta => (205, 0, 205),
            Color::Cyan => (0, 205, 205),
            Color::Gray => (229, 229, 229),
            Color::DarkGray => (127, 127, 127),
            Color::LightRed => (255, 0, 0),
            Color::LightGreen => (0, 255, 0),
            Color::LightYellow => (255, 255, 0),
            Color::LightBlue => (92, 92, 255),
            Color::LightMagenta => (255, 0, 255),
            Color::LightCyan => (0, 255, 255),
            Color::White => (255, 255, 255),
            _ => unreachable!("themes use named colours"),
        };
        let lin = |v: u8| {
            let v = f64::from(v) / 255.0;
            if v <= 0.03928 {
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
    fn builtin_themes_use_console_backgrounds_only() {
        for t in Theme::all_builtin() {
            for bg in [
                t.text.bg,
                t.accent.bg,
                t.light_square,
                t.dark_square,
                t.white_piece.bg,
                t.black_piece.bg,
                t.last_move,
                t.check,
                t.mismatch,
                t.selected,
                t.cursor.bg,
                t.coords.bg,
                t.input.bg,
            ] {
                assert!(is_basic(bg), "{}: {bg:?}", t.name);
            }
        }
    }

    /// Text and piece letters reach WCAG AA (4.5:1) on the xterm palette.
    #[test]
    fn builtin_themes_have_strong_contrast() {
        for t in Theme::all_builtin() {
            for (what, p) in [
                ("text", t.text),
                ("accent", t.accent),
                ("white piece", t.white_piece),
                ("black piece", t.black_piece),
                ("coords", t.coords),
                ("input", t.input),
            ] {
                let c = contrast(p.fg, p.bg);
                assert!(c >= 4.5, "{} {what}: {c:.1}", t.name);
            }
            // The two piece boxes are far apart in lightness.
            let boxes = contrast(t.white_piece.bg, t.black_piece.bg);
            assert!(boxes >= 4.5, "{} piece boxes: {boxes:.1}", t.name);
        }
    }

    #[test]
    fn marked_squares_differ_from_plain_ones() {
        for t in Theme::all_builtin() {
            let marks = [t.last_move, t.check, t.mismatch, t.selected, t.cursor.bg];
            for (i, m) in marks.iter().enumerate() {
                assert_ne!(*m, t.light_square, "{} mark {i}", t.name);
                assert_ne!(*m, t.dark_square, "{} mark {i}", t.name);
                for n in &marks[i + 1..] {
                    assert_ne!(m, n, "{}: two marks share a colour", t.name);
                }
            }
            // Check and mismatch are never told apart by red against green.
            let rg = [Color::Red, Color::Green, Color::LightRed, Color::LightGreen];
            assert!(
                !(rg.contains(&t.check) && rg.contains(&t.mismatch)),
                "{}",
                t.name
            );
        }
    }

    #[test]
    fn user_theme_merges_over_its_base() {
        let text = "name = \"mine\"\nbase = \"yellow-on-black\"\n[colours]\nlast_move = \"cyan\"\ntext = { fg = \"white\" }\n";
        let t = Theme::parse("mine.toml", text).unwrap();
        assert_eq!(t.name, "mine");
        assert_eq!(t.last_move, Color::Cyan);
        assert_eq!(t.text, Pair::new(Color::White, Color::Black));
        assert_eq!(t.light_square, Theme::yellow_on_black().light_square);
    }

    #[test]
    fn unknown_colour_names_file_line_and_key() {
        let text = "[colours]\ncheck = \"magenta\"\nlast_move = \"purple\"\n";
        let e = Theme::parse("mine.toml", text).unwrap_err();
        assert_eq!(e.file, "mine.toml");
        assert_eq!(e.line, Some(3));
        assert_eq!(e.key.as_deref(), Some("colours.last_move"));
        assert!(
            matches!(&e.problem, FileProblem::NotAColour { name, names }
                if name == "purple" && names.len() == 16),
            "{e:?}"
        );
    }

    #[test]
    fn bright_background_is_refused() {
        let text = "[colours]\n\nwhite_piece = { fg = \"black\", bg = \"white\" }\n";
        let e = Theme::parse("t.toml", text).unwrap_err();
        assert_eq!(e.line, Some(3));
        assert_eq!(e.key.as_deref(), Some("colours.white_piece.bg"));
        assert!(
            matches!(&e.problem, FileProblem::NotABackground { name, names }
                if name == "white" && names.len() == 8),
            "{e:?}"
        );
    }

    #[test]
    fn invisible_text_is_refused() {
        let text = "[colours]\ntext = { fg = \"black\", bg = \"black\" }\n";
        let e = Theme::parse("t.toml", text).unwrap_err();
        assert_eq!(e.key.as_deref(), Some("colours.text"));
        assert_eq!(e.line, Some(2));
        assert_eq!(e.problem, FileProblem::SameColours);
        let e = Theme::parse("t.toml", "[colours]\ndark_square = \"blue\"\n").unwrap_err();
        assert_eq!(e.problem, FileProblem::SameSquares);
    }

    #[test]
    fn unknown_key_and_syntax_error() {
        let e = Theme::parse("t.toml", "[colours]\nchek = \"red\"\n").unwrap_err();
        assert_eq!((e.line, e.key.as_deref()), (Some(2), Some("chek")));
        assert_eq!(e.problem, FileProblem::UnknownKey);
        let e = Theme::parse("t.toml", "base = \"dark\"\n[colours\n").unwrap_err();
        assert_eq!(e.line, Some(2));
        assert_eq!(e.problem, FileProblem::Syntax);
        let e = Theme::parse("t.toml", "base = \"sepia\"\n").unwrap_err();
        assert_eq!((e.line, e.key.as_deref()), (Some(1), Some("base")));
        assert!(
            matches!(&e.problem, FileProblem::UnknownTheme { name, names }
                if name == "sepia" && names.len() == 3),
            "{e:?}"
        );
    }
}
