//! Large-print text: one move pair a line, the moves as spoken (Appendix D
//! words, or the language's words), each with the mover's clock
//! time and `(=)` after a move that came with a draw offer.  For low-vision
//! players (print it large) and arbiters.
//!
//! The words of the header come from the caller ([`Labels`], filled from
//! the voices files), the move words from a function (the phraser's).

use shakmaty::{Chess, Color};

use super::pgn::clk;
use super::replay::{GameRecord, Note};
use crate::game::PlayedMove;

/// The words of the header, in the player's language.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Labels {
    pub white: String,
    pub black: String,
    pub date: String,
    pub event: String,
    pub time_control: String,
    pub result: String,
    /// Where an online game was played ("Site").
    pub site: String,
}

/// How the moves are written: the words of a move in the position before
/// it (the phraser's, as spoken).
pub type MoveWords<'a> = dyn Fn(&Chess, &PlayedMove) -> String + 'a;

/// How a note (a claim, a penalty, an arbiter's action) is written: a
/// sentence in the player's language.
pub type NoteWords<'a> = dyn Fn(&Note) -> String + 'a;

fn cell(m: &PlayedMove, before: &Chess, words: &MoveWords, clock: Option<i64>) -> String {
    let mut s = words(before, m);
    if m.draw_offer {
        s.push_str(" (=)");
    }
    if let Some(ms) = clock {
        s.push_str(&format!("  {}", clk(ms)));
    }
    s
}

/// A row of the table: the move number, White's cell, Black's cell; or a
/// note (a claim, a penalty, an arbiter's action) where it happened.
enum Row {
    Moves(String, String, String),
    Note(String),
}

/// The scoresheet as text lines (LF): the claims, penalties and arbiter's
/// actions each on a line of its own where they happened, and the result
/// with `how` it ended (e.g. "drawn by agreement"), if over.
pub fn to_text(
    rec: &GameRecord,
    labels: &Labels,
    words: &MoveWords,
    notes: &NoteWords,
    how: Option<&str>,
) -> String {
    let s = &rec.start;
    let mut out = String::new();
    if !s.event.trim().is_empty() {
        out.push_str(&format!("{}: {}\n", labels.event, s.event));
    }
    // An online game's players with their ratings, and its address.
    let player = |name: &str, side: Color| match s.elo(side) {
        Some(elo) => format!("{name} ({elo})"),
        None => name.to_owned(),
    };
    out.push_str(&format!(
        "{}: {}\n",
        labels.white,
        player(&s.white, Color::White)
    ));
    out.push_str(&format!(
        "{}: {}\n",
        labels.black,
        player(&s.black, Color::Black)
    ));
    if s.online().is_some() && !s.site.trim().is_empty() {
        out.push_str(&format!("{}: {}\n", labels.site, s.site));
    }
    if !s.date.is_empty() {
        out.push_str(&format!("{}: {}\n", labels.date, s.date));
    }
    if let Some(tc) = &s.time_control {
        out.push_str(&format!("{}: {tc}\n", labels.time_control));
    }
    out.push('\n');
    // Two columns: the white moves padded to the widest.  A note after
    // White's move ends its row; Black's move starts the next with "...".
    let mut rows: Vec<Row> = Vec::new();
    let note_rows = |rows: &mut Vec<Row>, i: usize| {
        for n in rec.notes.get(i).into_iter().flatten() {
            rows.push(Row::Note(notes(n)));
        }
    };
    note_rows(&mut rows, 0);
    for (i, (before, m)) in rec.game.positions().enumerate() {
        let clock = if rec.clock_ran {
            rec.clocks.get(i).copied().flatten()
        } else {
            None
        };
        let c = cell(m, before, words, clock);
        let number = format!("{}.", m.number);
        match m.by {
            Color::White => rows.push(Row::Moves(number, c, String::new())),
            Color::Black => match rows.last_mut() {
                Some(Row::Moves(n, _, b)) if b.is_empty() && *n == number => *b = c,
                _ => rows.push(Row::Moves(number, "...".into(), c)),
            },
        }
        note_rows(&mut rows, i + 1);
    }
    let moves = || {
        rows.iter().filter_map(|r| match r {
            Row::Moves(n, w, _) => Some((n, w)),
            Row::Note(_) => None,
        })
    };
    let num_w = moves().map(|(n, _)| n.chars().count()).max().unwrap_or(0);
    let white_w = moves().map(|(_, w)| w.chars().count()).max().unwrap_or(0);
    for row in &rows {
        match row {
            Row::Moves(n, w, b) => {
                let line = format!("{n:>num_w$} {w:<white_w$}   {b}");
                out.push_str(line.trim_end());
            }
            Row::Note(t) => out.push_str(&format!("{:num_w$} {t}", "")),
        }
        out.push('\n');
    }
    if let Some((o, _)) = &rec.result {
        out.push('\n');
        match how {
            Some(how) => out.push_str(&format!("{}: {} ({how})\n", labels.result, o.as_str())),
            None => out.push_str(&format!("{}: {}\n", labels.result, o.as_str())),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::scoresheet::record::StartInfo;
    use shakmaty::san::San;

    /// A note in the tests' words.
    fn note(n: &Note) -> String {
        format!("<{n:?}>")
    }

    /// The moves in SAN (the tests' words).
    fn san(_: &Chess, m: &PlayedMove) -> String {
        m.san.to_string()
    }

    fn labels() -> Labels {
        Labels {
            white: "W".into(),
            black: "B".into(),
            date: "D".into(),
            event: "E".into(),
            time_control: "TC".into(),
            result: "R".into(),
            site: "S".into(),
        }
    }

    #[test]
    fn an_online_game_shows_the_ratings_and_the_address() {
        let mut start = StartInfo {
            white: "Georges".into(),
            black: "Mary".into(),
            site: "https://lichess.org/AbCd1234".into(),
            ..StartInfo::default()
        };
        let game = |start: &StartInfo| GameRecord {
            start: start.clone(),
            game: Game::new(),
            clocks: Vec::new(),
            notes: Vec::new(),
            result: None,
            clock_ran: false,
            digest: None,
        };
        // A game over the board: no address line, no ratings.
        let text = to_text(&game(&start), &labels(), &san, &note, None);
        assert!(text.starts_with("W: Georges\nB: Mary\n"), "{text}");
        assert!(!text.contains("S: "), "{text}");
        start.extra = [
            ("lichess-game", "AbCd1234"),
            ("lichess-side", "white"),
            ("white-elo", "1500"),
            ("black-elo", "1600"),
        ]
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .to_vec();
        let text = to_text(&game(&start), &labels(), &san, &note, None);
        assert!(
            text.starts_with(
                "W: Georges (1500)\nB: Mary (1600)\nS: https://lichess.org/AbCd1234\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn pairs_times_and_offers_in_two_columns() {
        let mut g = Game::new();
        for s in ["e4", "e5", "Nf3"] {
            let m = s.parse::<San>().unwrap().to_move(g.position()).unwrap();
            g.play(m).unwrap();
        }
        g.offer_draw(Color::White).unwrap();
        let mut rec = GameRecord::of_game(
            StartInfo {
                white: "Anna".into(),
                black: "Bob".into(),
                ..StartInfo::default()
            },
            g,
        );
        rec.clock_ran = true;
        rec.clocks = vec![Some(5_400_000), Some(5_399_000), Some(61_000)];
        let t = to_text(&rec, &labels(), &san, &note, None);
        assert_eq!(
            t,
            "W: Anna\nB: Bob\n\n1. e4  1:30:00        e5  1:29:59\n2. Nf3 (=)  0:01:01\n"
        );
        let spoken = |_: &Chess, m: &PlayedMove| format!("<{}>", m.san);
        let t = to_text(&rec, &labels(), &spoken, &note, None);
        assert!(t.contains("1. <e4>  1:30:00"));
    }

    #[test]
    fn a_black_first_move_and_the_result() {
        let mut g = Game::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 9").unwrap();
        for s in ["Kd7", "e4", "Kd6"] {
            let m = s.parse::<San>().unwrap().to_move(g.position()).unwrap();
            g.play(m).unwrap();
        }
        g.resign(Color::White).unwrap();
        let rec = GameRecord::of_game(StartInfo::default(), g);
        let t = to_text(
            &rec,
            &labels(),
            &san,
            &note,
            Some("Black won, White resigned"),
        );
        assert!(t.contains(" 9. ...   Kd7\n10. e4    Kd6\n"), "{t}");
        assert!(t.ends_with("R: 0-1 (Black won, White resigned)\n"));
    }

    /// Issue 18, item 11: claims, penalties and arbiter actions were left
    /// out of the text.
    #[test]
    fn notes_stand_where_they_happened() {
        let mut g = Game::new();
        for s in ["e4", "e5", "Nf3"] {
            let m = s.parse::<San>().unwrap().to_move(g.position()).unwrap();
            g.play(m).unwrap();
        }
        let mut rec = GameRecord::of_game(StartInfo::default(), g);
        rec.notes[1].push(Note::Text("after e4".into()));
        rec.notes[3].push(Note::Text("after Nf3".into()));
        let words = |n: &Note| match n {
            Note::Text(t) => t.clone(),
            other => format!("{other:?}"),
        };
        let t = to_text(&rec, &labels(), &san, &words, None);
        assert!(
            t.ends_with("\n1. e4\n   after e4\n1. ...   e5\n2. Nf3\n   after Nf3\n"),
            "{t:?}"
        );
    }
}
