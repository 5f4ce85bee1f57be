//! Braille exports: BRF (North American Braille ASCII) for embossers and
//! notetakers, and the same cells as Unicode braille (U+2800 + dots).
//!
//! # The chess code
//!
//! hector writes game moves the way the **UK Braille Chess Code (BAUK,
//! 2015 edition)** writes them, one move pair per line:
//!
//! - a move number is written in lower-cell digits without a number sign
//!   (1 = dots 2, 2 = dots 2-3, 3 = dots 2-5, 4 = dots 2-5-6, 5 = dots 2-6,
//!   6 = dots 2-3-5, 7 = dots 2-3-5-6, 8 = dots 2-3-6, 9 = dots 3-5,
//!   0 = dots 3-5-6), then a space (1.3 of the code: `2.♘f3` is `⠆ ⠎⠋⠒`);
//! - a square is its file letter and its rank as a lower-cell digit
//!   (`e4` = `⠑⠲`);
//! - pieces are letters without a capital sign: king `⠅` (k), queen `⠟`
//!   (q), rook `⠗` (r), bishop `⠃` (b), and the knight dots 2-3-4 `⠎`;
//!   pawn moves have no letter;
//! - when a game begins with Black's move, that move is preceded by dots 3-6
//!   `⠤` (the code's sign for print's three dots).
//!
//! The code's tables of signs were not at hand when this was written, so
//! the signs below are hector's own choice, each a cell that cannot be
//! mistaken for a digit, file or piece in a move, and each the Braille
//! ASCII character of the print sign, so that a BRF file reads like SAN:
//!
//! | print | braille | BRF |
//! |---|---|---|
//! | capture `x` | `⠭` dots 1-3-4-6 | `X` |
//! | check `+` | `⠬` dots 3-4-6 | `+` |
//! | mate `#` | `⠬⠬` (not the number sign `⠼`) | `++` |
//! | castling `O-O`, `O-O-O` | `⠕⠤⠕`, `⠕⠤⠕⠤⠕` | `O-O`, `O-O-O` |
//! | promotion `e8=Q` | square then piece: `⠑⠦⠟` | `E8Q` |
//! | draw offer `(=)` | `⠷⠿⠾` | `(=)` |
//! | results | `⠂⠤⠴`, `⠴⠤⠂`, `⠂⠌⠆⠤⠂⠌⠆` | `1-0`, `0-1`, `1/2-1/2` |
//!
//! The header (players, event, date) is uncontracted (grade 1) braille
//! without capital signs: letters, a number sign `⠼` before upper-cell
//! digits, and the letter sign `⠰` after a number when a letter a–j
//! follows.  Letters with accents are written without them; German
//! umlauts are transliterated (Müller: MUELLER).
//!
//! # Layout
//!
//! At most 40 cells a line and 25 lines a page; lines end with CR LF; a
//! form feed starts each new page; the page number (number sign and
//! upper-cell digits) stands at the right of the 25th line of every page.
//! The Unicode export for braille displays has no pages: the same lines,
//! one after the other.

use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::{CastlingSide, Color, Role};

use super::replay::GameRecord;

/// Cells a line.
pub const CELLS: usize = 40;
/// Lines a page, the page number's line included.
pub const LINES: usize = 25;

/// The 64 Braille ASCII characters in the order of their dot patterns
/// (U+2800 + index).
pub const BRAILLE_ASCII: &str =
    " A1B'K2L@CIF/MSP\"E3H9O6R^DJG>NTQ,*5<-U8V.%[$+X!&;:4\\0Z7(_?W]#Y)=";

/// The Unicode braille pattern of a Braille ASCII character.
pub fn to_unicode_cell(c: char) -> Option<char> {
    let i = BRAILLE_ASCII.find(c.to_ascii_uppercase())?;
    char::from_u32(0x2800 + i as u32)
}

fn piece_cell(r: Role) -> char {
    match r {
        Role::King => 'K',
        Role::Queen => 'Q',
        Role::Rook => 'R',
        Role::Bishop => 'B',
        Role::Knight => 'S', // dots 2-3-4
        Role::Pawn => 'P',
    }
}

/// A file letter and a rank as a lower-cell digit: in Braille ASCII the
/// digits are the lower cells (`1` = dots 2 …).
fn square(sq: shakmaty::Square) -> String {
    format!(
        "{}{}",
        sq.file().char().to_ascii_uppercase(),
        sq.rank().char()
    )
}

/// One move in the chess code, as Braille ASCII.
pub fn move_cells(m: &SanPlus) -> String {
    let mut out = String::new();
    match m.san {
        San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        } => {
            if role != Role::Pawn {
                out.push(piece_cell(role));
            }
            if let Some(f) = file {
                out.push(f.char().to_ascii_uppercase());
            }
            if let Some(r) = rank {
                out.push(r.char());
            }
            if capture {
                out.push('X');
            }
            out.push_str(&square(to));
            if let Some(p) = promotion {
                out.push(piece_cell(p));
            }
        }
        San::Castle(CastlingSide::KingSide) => out.push_str("O-O"),
        San::Castle(CastlingSide::QueenSide) => out.push_str("O-O-O"),
        San::Put { role, to } => {
            out.push(piece_cell(role));
            out.push('@');
            out.push_str(&square(to));
        }
        San::Null => out.push_str("--"),
    }
    match m.suffix {
        Some(Suffix::Check) => out.push('+'),
        Some(Suffix::Checkmate) => out.push_str("++"),
        None => {}
    }
    out
}

/// Free text (names, event) as grade 1 Braille ASCII.
pub fn text_cells(s: &str) -> String {
    let mut out = String::new();
    let mut in_number = false;
    for ch in s.chars() {
        let folded = fold(ch);
        for c in folded.chars() {
            if c.is_ascii_digit() {
                if !in_number {
                    out.push('#');
                    in_number = true;
                }
                // Upper-cell digits: 1..9 = a..i, 0 = j.
                let d = c as u8 - b'0';
                out.push(if d == 0 { 'J' } else { (b'A' + d - 1) as char });
                continue;
            }
            if c.is_ascii_alphabetic() {
                let up = c.to_ascii_uppercase();
                if in_number && ('A'..='J').contains(&up) {
                    out.push(';');
                }
                out.push(up);
            } else {
                match c {
                    ' ' => out.push(' '),
                    '.' => out.push('4'),
                    ',' => out.push('1'),
                    ':' => out.push('3'),
                    ';' => out.push('2'),
                    '-' => out.push('-'),
                    '/' => out.push('/'),
                    '(' | ')' => out.push('7'),
                    '\'' => out.push('\''),
                    '?' => out.push('8'),
                    '!' => out.push('6'),
                    _ => {}
                }
            }
            in_number = false;
        }
    }
    out
}

/// Latin letters without their accents (é → e), German umlauts
/// transliterated (ü → ue, ß → ss); other characters are dropped.
fn fold(c: char) -> String {
    let base = match c {
        // German umlauts as German writes them without: "Müller" is
        // MUELLER, never MULLER (another name).
        'ä' => "ae",
        'Ä' => "AE",
        'ö' => "oe",
        'Ö' => "OE",
        'ü' => "ue",
        'Ü' => "UE",
        'à' | 'á' | 'â' | 'ã' | 'å' | 'ā' => "a",
        'À' | 'Á' | 'Â' | 'Ã' | 'Å' | 'Ā' => "A",
        'ç' | 'č' | 'ć' => "c",
        'Ç' | 'Č' | 'Ć' => "C",
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ě' => "e",
        'È' | 'É' | 'Ê' | 'Ë' | 'Ē' | 'Ě' => "E",
        'ì' | 'í' | 'î' | 'ï' => "i",
        'Ì' | 'Í' | 'Î' | 'Ï' => "I",
        'ñ' | 'ń' => "n",
        'Ñ' | 'Ń' => "N",
        'ò' | 'ó' | 'ô' | 'õ' | 'ø' => "o",
        'Ò' | 'Ó' | 'Ô' | 'Õ' | 'Ø' => "O",
        'ù' | 'ú' | 'û' | 'ů' => "u",
        'Ù' | 'Ú' | 'Û' | 'Ů' => "U",
        'ý' | 'ÿ' => "y",
        'Ý' => "Y",
        'š' | 'ś' => "s",
        'Š' | 'Ś' => "S",
        'ž' | 'ź' | 'ż' => "z",
        'Ž' | 'Ź' | 'Ż' => "Z",
        'ß' => "ss",
        'ł' => "l",
        'Ł' => "L",
        'æ' => "ae",
        'Æ' => "AE",
        'œ' => "oe",
        'Œ' => "OE",
        c if c.is_ascii() => return c.to_string(),
        c if c.is_whitespace() => " ",
        _ => "",
    };
    base.to_string()
}

/// Cuts text into lines of at most `CELLS` cells, at spaces where it can.
fn wrap_cells(s: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut cur = String::new();
    for word in s.split(' ').filter(|w| !w.is_empty()) {
        let mut word = word.to_string();
        while word.len() > CELLS {
            if !cur.is_empty() {
                lines.push(std::mem::take(&mut cur));
            }
            let rest = word.split_off(CELLS);
            lines.push(word);
            word = rest;
        }
        if !cur.is_empty() && cur.len() + 1 + word.len() > CELLS {
            lines.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(&word);
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines
}

/// The words a braille scoresheet takes from the player's language: the
/// sides (for a player without a name) and the notes (claims, penalties,
/// the arbiter's actions) as sentences.
pub struct BrailleWords<'a> {
    /// "White" in the player's language: the name of a nameless White.
    pub white: String,
    /// "Black" in the player's language.
    pub black: String,
    /// A note as a sentence (the text export's).
    pub notes: &'a super::text::NoteWords<'a>,
}

#[cfg(any(test, feature = "test-support"))]
impl BrailleWords<'static> {
    /// English sides and no notes (the tests, the fuzz targets).
    pub fn plain() -> BrailleWords<'static> {
        BrailleWords {
            white: "White".to_owned(),
            black: "Black".to_owned(),
            notes: &|_| String::new(),
        }
    }
}

/// The content lines (before pagination), Braille ASCII: the header, the
/// moves a pair a line, each note (a claim, a penalty, an arbiter's
/// action) on lines of its own where it happened, as the large-print
/// export has them, and the result.
pub fn content_lines(rec: &GameRecord, words: &BrailleWords) -> Vec<String> {
    let s = &rec.start;
    let mut lines = Vec::new();
    if !s.event.trim().is_empty() {
        lines.extend(wrap_cells(&text_cells(&s.event)));
    }
    // A player without a name is the side ("White - Black"), never "?".
    let white = if s.white.trim().is_empty() {
        &words.white
    } else {
        &s.white
    };
    let black = if s.black.trim().is_empty() {
        &words.black
    } else {
        &s.black
    };
    // An online game's ratings after the names.
    let rated = |name: &str, side: Color| match s.elo(side) {
        Some(elo) => format!("{name} ({elo})"),
        None => name.to_owned(),
    };
    lines.extend(wrap_cells(&format!(
        "{} - {}",
        text_cells(&rated(white, Color::White)),
        text_cells(&rated(black, Color::Black))
    )));
    if !s.date.is_empty() {
        lines.extend(wrap_cells(&text_cells(&s.date.replace('.', "-"))));
    }
    lines.push(String::new());
    let mut line = String::new();
    let notes_after = |i: usize, line: &mut String, lines: &mut Vec<String>| {
        for n in rec.notes.get(i).into_iter().flatten() {
            let sentence = (words.notes)(n);
            if sentence.trim().is_empty() {
                continue;
            }
            if !line.is_empty() {
                lines.push(std::mem::take(line));
            }
            lines.extend(wrap_cells(&text_cells(&sentence)));
        }
    };
    notes_after(0, &mut line, &mut lines);
    for (i, m) in rec.game.history().iter().enumerate() {
        let mut cells = move_cells(&m.san);
        if m.draw_offer {
            cells.push_str(" (=)");
        }
        match m.by {
            Color::White => {
                if !line.is_empty() {
                    lines.push(std::mem::take(&mut line));
                }
                line = format!("{} {cells}", m.number);
            }
            Color::Black => {
                if line.is_empty() {
                    line = format!("{} -{cells}", m.number);
                } else {
                    line.push(' ');
                    line.push_str(&cells);
                }
            }
        }
        notes_after(i + 1, &mut line, &mut lines);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    if let Some((o, _)) = &rec.result {
        lines.push(o.as_str().to_string());
    }
    lines
}

/// The page number as Braille ASCII (number sign, upper-cell digits).
fn page_number(n: usize) -> String {
    text_cells(&n.to_string())
}

/// Lays lines out on pages: 24 lines of text, the 25th with the page
/// number at the right.
pub fn paginate(lines: &[String]) -> Vec<Vec<String>> {
    let per_page = LINES - 1;
    let chunks: Vec<&[String]> = if lines.is_empty() {
        vec![&[]]
    } else {
        lines.chunks(per_page).collect()
    };
    chunks
        .iter()
        .enumerate()
        .map(|(i, chunk)| {
            let mut page: Vec<String> = chunk.to_vec();
            page.resize(per_page, String::new());
            let num = page_number(i + 1);
            page.push(format!("{}{num}", " ".repeat(CELLS - num.len())));
            page
        })
        .collect()
}

/// The BRF file: Braille ASCII 0x20–0x5F, CR LF, form feed between pages.
pub fn to_brf(rec: &GameRecord, words: &BrailleWords) -> String {
    let pages = paginate(&content_lines(rec, words));
    let mut out = String::new();
    for (i, page) in pages.iter().enumerate() {
        if i > 0 {
            out.push('\x0c');
        }
        for line in page {
            out.push_str(line.trim_end());
            out.push_str("\r\n");
        }
    }
    out
}

/// The same cells as Unicode braille (U+2800..U+283F), one line a braille
/// line (LF), for a braille display: no pages (no form feeds, no filler
/// lines, no page numbers); blank cells are U+2800.
pub fn to_unicode(rec: &GameRecord, words: &BrailleWords) -> String {
    let mut out = String::new();
    for line in content_lines(rec, words) {
        out.push_str(&brf_to_unicode(line.trim_end()));
        out.push('\n');
    }
    out
}

/// Braille ASCII text to Unicode braille, line ends as LF, form feeds kept.
pub fn brf_to_unicode(brf: &str) -> String {
    brf.chars()
        .filter(|&c| c != '\r')
        .map(|c| match c {
            '\n' | '\x0c' => c,
            c => to_unicode_cell(c).unwrap_or('\u{2800}'),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::scoresheet::record::StartInfo;
    use crate::scoresheet::replay::Note;

    fn game(sans: &[&str]) -> Game {
        let mut g = Game::new();
        for s in sans {
            let m = s.parse::<San>().unwrap().to_move(g.position()).unwrap();
            g.play(m).unwrap();
        }
        g
    }

    /// Issue 30, item 17: a claim and a penalty the large-print export
    /// has are on the braille scoresheet too, where they happened, and a
    /// player without a name is embossed as the side, never "? - ?".
    #[test]
    fn notes_are_embossed_and_nameless_players_are_the_sides() {
        let mut rec = GameRecord::of_game(StartInfo::default(), game(&["e4", "e5", "Nf3"]));
        rec.notes = vec![Vec::new(); 4];
        rec.notes[2].push(Note::Claim {
            by: Color::White,
            claim: crate::game::Claim::Repetition,
            upheld: false,
        });
        let words = BrailleWords {
            white: "Weiß".to_owned(),
            black: "Schwarz".to_owned(),
            notes: &|n| match n {
                Note::Claim { .. } => "Weiß beansprucht Remis: abgelehnt.".to_owned(),
                _ => String::new(),
            },
        };
        let lines = content_lines(&rec, &words);
        assert_eq!(lines[0], "WEISS - SCHWARZ", "{lines:?}");
        assert!(!lines.iter().any(|l| l.contains("? - ?")), "{lines:?}");
        let claim = lines
            .iter()
            .position(|l| l.starts_with("WEISS BEANSPRUCHT REMIS3 ABGELEHNT4"))
            .unwrap_or_else(|| panic!("the claim: {lines:?}"));
        assert_eq!(lines[claim - 1], "1 E4 E5", "after Black's first move");
        assert_eq!(lines[claim + 1], "2 SF3");
    }

    #[test]
    fn the_table_maps_dots_in_order() {
        assert_eq!(BRAILLE_ASCII.chars().count(), 64);
        assert_eq!(to_unicode_cell('A'), Some('⠁'));
        assert_eq!(to_unicode_cell('S'), Some('⠎'), "knight: dots 2-3-4");
        assert_eq!(to_unicode_cell('2'), Some('⠆'), "lower 2: dots 2-3");
        assert_eq!(to_unicode_cell('#'), Some('⠼'));
        assert_eq!(to_unicode_cell('+'), Some('⠬'));
        assert_eq!(to_unicode_cell('='), Some('⠿'));
        assert_eq!(to_unicode_cell('a'), Some('⠁'));
        assert_eq!(to_unicode_cell('~'), None);
    }

    #[test]
    fn an_online_game_has_the_ratings_after_the_names() {
        let mut start = StartInfo {
            white: "Georges".into(),
            black: "Mary".into(),
            ..StartInfo::default()
        };
        let names = |start: &StartInfo| {
            content_lines(
                &GameRecord::of_game(start.clone(), game(&[])),
                &BrailleWords::plain(),
            )[0]
            .clone()
        };
        assert_eq!(names(&start), "GEORGES - MARY");
        start.set_extra("white-elo", "1500");
        start.set_extra("black-elo", "1600");
        assert_eq!(names(&start), "GEORGES 7#AEJJ7 - MARY 7#AFJJ7");
    }

    #[test]
    fn moves_in_the_chess_code() {
        let cells = |s: &str| move_cells(&s.parse::<SanPlus>().unwrap());
        assert_eq!(cells("Nf3"), "SF3");
        assert_eq!(cells("e4"), "E4");
        assert_eq!(cells("exd5"), "EXD5");
        assert_eq!(cells("Nbd7"), "SBD7");
        assert_eq!(cells("R1e2+"), "R1E2+");
        assert_eq!(cells("Qh4#"), "QH4++");
        assert_eq!(cells("O-O-O"), "O-O-O");
        assert_eq!(cells("exd8=N+"), "EXD8S+");
        // UK code example: 2.♘f3 is ⠆ ⠎⠋⠒.
        let g = game(&["e4", "e5", "Nf3"]);
        let rec = GameRecord::of_game(StartInfo::default(), g);
        let lines = content_lines(&rec, &BrailleWords::plain());
        assert_eq!(lines.last().unwrap(), "2 SF3");
        assert_eq!(brf_to_unicode("2 SF3"), "⠆⠀⠎⠋⠒");
    }

    #[test]
    fn header_text_is_grade_one() {
        // Issue 18: "Müller" was MULLER.
        assert_eq!(text_cells("Müller 2b"), "MUELLER #B;B");
        assert_eq!(text_cells("Björk Ångström"), "BJOERK ANGSTROEM");
        assert_eq!(text_cells("Round 10."), "ROUND #AJ4");
    }

    /// A long game of pseudo-random legal moves (deterministic).
    pub(crate) fn random_game(plies: usize, seed: u64) -> Game {
        use shakmaty::Position;
        let mut g = Game::new();
        let mut x = seed;
        for _ in 0..plies {
            let moves = g.position().legal_moves();
            if moves.is_empty() || g.is_over() {
                break;
            }
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let m = moves[(x >> 33) as usize % moves.len()];
            g.play(m).unwrap();
            if g.is_over() {
                g.undo_last();
                break;
            }
        }
        g
    }

    fn long_record() -> GameRecord {
        let g = random_game(150, 7);
        assert!(g.history().len() > 100, "{}", g.history().len());
        GameRecord::of_game(
            StartInfo {
                white: "Anna Schwarzenegger-Müllerhausen von Brandenburg".into(),
                black: "Bob".into(),
                event: "Open".into(),
                date: "2026.11.22".into(),
                ..StartInfo::default()
            },
            g,
        )
    }

    #[test]
    fn brf_keeps_the_charset_and_the_limits_and_numbers_pages() {
        let rec = long_record();
        let brf = to_brf(&rec, &BrailleWords::plain());
        assert!(
            brf.chars()
                .all(|c| matches!(c, '\x20'..='\x5f' | '\r' | '\n' | '\x0c')),
            "Braille ASCII only"
        );
        let pages: Vec<&str> = brf.split('\x0c').collect();
        assert!(pages.len() >= 3, "{} pages", pages.len());
        for (i, page) in pages.iter().enumerate() {
            assert!(page.ends_with("\r\n"));
            assert!(!page.replace("\r\n", "").contains('\n'), "CR LF only");
            let lines: Vec<&str> = page.trim_end_matches("\r\n").split("\r\n").collect();
            assert_eq!(lines.len(), LINES, "page {}", i + 1);
            assert!(lines.iter().all(|l| l.len() <= CELLS));
            let last = lines[LINES - 1];
            assert_eq!(last.len(), CELLS, "at the right margin");
            assert_eq!(last.trim_start(), text_cells(&(i + 1).to_string()));
        }
        assert!(brf.starts_with("OPEN\r\nANNA SCHWARZENEGGER-MUELLERHAUSEN VON\r\n"));
        assert!(brf.contains("\r\n\r\n1 "));
        // Issue 18: the display file kept the embosser's pages.  Its lines
        // are the content, without form feeds, filler or page numbers.
        let uni = to_unicode(&rec, &BrailleWords::plain());
        let content = content_lines(&rec, &BrailleWords::plain());
        assert_eq!(uni.lines().count(), content.len());
        assert!(
            uni.chars()
                .all(|c| matches!(c, '\u{2800}'..='\u{283f}' | '\n'))
        );
        for (u, c) in uni.lines().zip(&content) {
            assert_eq!(u, brf_to_unicode(c.trim_end()));
        }
    }

    #[test]
    fn offers_results_and_a_black_first_move() {
        let mut g = Game::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 30").unwrap();
        for s in ["Kd7", "e4"] {
            let m = s.parse::<San>().unwrap().to_move(g.position()).unwrap();
            g.play(m).unwrap();
        }
        g.offer_draw(Color::White).unwrap();
        g.accept_draw(Color::Black).unwrap();
        let rec = GameRecord::of_game(StartInfo::default(), g);
        let lines = content_lines(&rec, &BrailleWords::plain());
        assert_eq!(
            lines[lines.len() - 3..],
            ["30 -KD7", "31 E4 (=)", "1/2-1/2"]
        );
    }
}
