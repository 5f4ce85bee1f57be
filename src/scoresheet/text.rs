//! Large-print text: one move pair a line, the moves as spoken (Appendix D
//! words, or the language's words), each with the mover's clock
//! time and `(=)` after a move that came with a draw offer.  For low-vision
//! players (print it large) and arbiters.
//!
//! The words of the header come from the caller ([`Labels`], filled from
//! the voices files), the move words from a function (the phraser's).

use shakmaty::{Chess, Color};

use super::pgn::clk;
use super::replay::GameRecord;
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
}

/// How the moves are written: the words of a move in the position before
/// it (the phraser's, as spoken).
pub type MoveWords<'a> = dyn Fn(&Chess, &PlayedMove) -> String + 'a;

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

/// The scoresheet as text lines (LF), `result_words` the sentence of the
/// result (e.g. "Draw by agreement"), if over.
pub fn to_text(
    rec: &GameRecord,
    labels: &Labels,
    words: &MoveWords,
    result_words: Option<&str>,
) -> String {
    let s = &rec.start;
    let mut out = String::new();
    if !s.event.trim().is_empty() {
        out.push_str(&format!("{}: {}\n", labels.event, s.event));
    }
    out.push_str(&format!("{}: {}\n", labels.white, s.white));
    out.push_str(&format!("{}: {}\n", labels.black, s.black));
    if !s.date.is_empty() {
        out.push_str(&format!("{}: {}\n", labels.date, s.date));
    }
    if let Some(tc) = &s.time_control {
        out.push_str(&format!("{}: {tc}\n", labels.time_control));
    }
    out.push('\n');
    // Two columns: the white moves padded to the widest.
    let mut rows: Vec<(String, String, String)> = Vec::new();
    for (i, (before, m)) in rec.game.positions().enumerate() {
        let clock = if rec.clock_ran {
            rec.clocks.get(i).copied().flatten()
        } else {
            None
        };
        let c = cell(m, before, words, clock);
        match m.by {
            Color::White => rows.push((format!("{}.", m.number), c, String::new())),
            Color::Black => match rows.last_mut() {
                Some(row) if row.2.is_empty() && row.0 == format!("{}.", m.number) => row.2 = c,
                _ => rows.push((format!("{}.", m.number), "...".into(), c)),
            },
        }
    }
    let num_w = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(0);
    let white_w = rows.iter().map(|r| r.1.chars().count()).max().unwrap_or(0);
    for (n, w, b) in &rows {
        let line = format!("{n:>num_w$} {w:<white_w$}   {b}");
        out.push_str(line.trim_end());
        out.push('\n');
    }
    if let Some((o, _)) = &rec.result {
        out.push('\n');
        match result_words {
            Some(words) => out.push_str(&format!("{}: {} ({words})\n", labels.result, o.as_str())),
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
        }
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
        let t = to_text(&rec, &labels(), &san, None);
        assert_eq!(
            t,
            "W: Anna\nB: Bob\n\n1. e4  1:30:00        e5  1:29:59\n2. Nf3 (=)  0:01:01\n"
        );
        let spoken = |_: &Chess, m: &PlayedMove| format!("<{}>", m.san);
        let t = to_text(&rec, &labels(), &spoken, None);
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
        let t = to_text(&rec, &labels(), &san, Some("White resigns"));
        assert!(t.contains(" 9. ...   Kd7\n10. e4    Kd6\n"), "{t}");
        assert!(t.ends_with("R: 0-1 (White resigns)\n"));
    }
}
