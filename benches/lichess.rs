//! Online play (issue 20): from a line of lichess's game stream to the
//! move said — the line decoded, the game kept in step, the move played
//! and phrased by `App::update` — timed one line at a time over whole
//! random games, with the whole move list in every line as lichess sends
//! it.  Prints the median, p99 and worst (target: p99 under 1 ms).
//!
//! `cargo bench --features test-support --bench lichess`.

use std::time::{Duration, Instant};

use shakmaty::{Chess, Position};

use hector::testing::{LichessIo, lichess_account_line, lichess_game_line};
use hector::{App, Lang, Msg, OnlineStart};

/// A small random generator (no dependency): the same games every run.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

/// A random legal game of at most `plies` moves, UCI.
fn random_game(rng: &mut Lcg, plies: usize) -> Vec<String> {
    let mut pos = Chess::default();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.next(legal.len())];
        moves.push(m.to_uci(shakmaty::CastlingMode::Standard).to_string());
        pos.play_unchecked(m);
    }
    moves
}

fn state(moves: &[String]) -> String {
    format!(
        r#"{{"type":"gameState","moves":"{}","wtime":600000,"btime":600000,"winc":5000,"binc":5000,"status":"started"}}"#,
        moves.join(" ")
    )
}

fn main() {
    let mut rng = Lcg(20);
    let mut times: Vec<Duration> = Vec::new();
    let t0 = Instant::now();
    let games = 60;
    for _ in 0..games {
        let game = random_game(&mut rng, 200);
        let mut app = App::builder()
            .lang(Lang::En)
            .online(OnlineStart::Join)
            .build();
        let _ = app.update(Msg::Start, t0);
        let start = r#"{"type":"gameStart","game":{"gameId":"g1","color":"black","opponent":{"username":"Mary","rating":1600},"compat":{"board":true}}}"#;
        let Ok(Some(ev)) = lichess_account_line(start) else {
            return;
        };
        let _ = app.update(Msg::Lichess(LichessIo::Account(Box::new(ev))), t0);
        let full = r#"{"type":"gameFull","id":"g1","white":{"id":"mary","name":"Mary"},"black":{"id":"me","name":"Me"},"initialFen":"startpos","state":{"type":"gameState","moves":"","wtime":1,"btime":1,"winc":0,"binc":0,"status":"started"}}"#;
        if let Ok(Some(ev)) = lichess_game_line(full) {
            let _ = app.update(Msg::Lichess(LichessIo::Game("g1".into(), ev)), t0);
        }
        for n in 1..=game.len() {
            let line = state(&game[..n]);
            let start = Instant::now();
            let Ok(Some(ev)) = lichess_game_line(&line) else {
                return;
            };
            let effects = app.update(Msg::Lichess(LichessIo::Game("g1".into(), ev)), t0);
            let took = start.elapsed();
            assert!(
                effects.iter().any(|e| matches!(e, hector::Effect::Say(_))),
                "each line says its move"
            );
            times.push(took);
        }
    }
    times.sort();
    let at = |q: f64| times[((times.len() as f64 - 1.0) * q) as usize];
    println!(
        "lichess line -> move said: {} lines over {games} games; median {:?}, p99 {:?}, worst {:?}",
        times.len(),
        at(0.5),
        at(0.99),
        times[times.len() - 1]
    );
}
