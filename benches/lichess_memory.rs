//! Online play (issue 20): memory over a three-hour lichess game stream,
//! simulated at speed on a virtual clock.  The stream's bytes (a
//! keep-alive line every 5 s, a `gameState` line with the whole move list
//! at each of 160 moves, a chat line every 20 s, an `opponentGone` true
//! and false now and then) are cut into chunks as a socket would give
//! them, read into lines (`lichess::event::Lines`), decoded, and given to
//! `App::update` (the game kept in step with the server, each move said,
//! the scoresheet kept); the clock's deadlines are given when they fall.
//!
//! The heap is counted by a global allocator of this bench (bytes live,
//! the peak); VmRSS and VmHWM are read from /proc on Linux.  The same
//! stream is run twice, with and without its keep-alive, chat and
//! `opponentGone` lines: the difference at each quarter hour is what those
//! lines hold (the unheard chat lines, kept up to a cap; then it must stay
//! flat), the rest is the game itself (its moves and scoresheet).
//!
//! `cargo bench --features test-support --bench lichess_memory`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use shakmaty::{Chess, Position};

use hector::testing::{LichessIo, LichessLines, lichess_account_line, lichess_game_line};
use hector::{App, Lang, Msg, OnlineStart, StartInfo};

/// The system allocator, counting the bytes live and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

#[allow(
    unsafe_code,
    reason = "GlobalAlloc is an unsafe trait; every call is passed to System unchanged"
)]
// SAFETY: each method hands its arguments to `System` as they came, and
// only counts sizes besides.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's layout, as GlobalAlloc::alloc requires.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: a pointer this allocator gave with this layout.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as for `alloc` and `dealloc`.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            let now = LIVE.fetch_add(new_size, Ordering::Relaxed) + new_size;
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// A small random generator (no dependency): the same stream every run.
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

const PLIES: usize = 160;
const HOURS3: u64 = 3 * 3600;
const KEEP_ALIVE_S: u64 = 5;
const CHAT_S: u64 = 20;
const GONE_S: u64 = 600;

/// A random legal game of [`PLIES`] moves that is not over before its
/// end (nor by lack of material), UCI.
fn long_game() -> Vec<String> {
    for seed in 1.. {
        let mut rng = Lcg(seed);
        let mut pos = Chess::default();
        let mut moves = Vec::new();
        while moves.len() < PLIES {
            let legal = pos.legal_moves();
            if legal.is_empty() || pos.is_insufficient_material() || pos.halfmoves() >= 90 {
                break;
            }
            let m = legal[rng.next(legal.len())];
            moves.push(m.to_uci(shakmaty::CastlingMode::Standard).to_string());
            pos.play_unchecked(m);
        }
        if moves.len() == PLIES && !pos.is_game_over() {
            return moves;
        }
    }
    Vec::new()
}

/// The stream, made line by line as it comes (nothing of it is held
/// ahead, so both runs hold the same): the next line and when (seconds
/// from the start) it comes.
struct Stream<'a> {
    game: &'a [String],
    chatter: bool,
    ply: usize,
    keep_alive: u64,
    chat: u64,
    chats: usize,
    gone: u64,
    gones: usize,
}

impl<'a> Stream<'a> {
    fn new(game: &'a [String], chatter: bool) -> Self {
        Stream {
            game,
            chatter,
            ply: 0,
            keep_alive: KEEP_ALIVE_S,
            chat: CHAT_S,
            chats: 0,
            gone: GONE_S,
            gones: 0,
        }
    }

    fn per_ply() -> u64 {
        HOURS3 / (PLIES as u64 + 1)
    }

    /// When the next line comes, if one does.
    fn peek(&self) -> Option<u64> {
        let mv = (self.ply < self.game.len()).then(|| Self::per_ply() * (self.ply as u64 + 1));
        let others = [self.keep_alive, self.chat, self.gone]
            .into_iter()
            .filter(|t| self.chatter && *t < HOURS3);
        mv.into_iter().chain(others).min()
    }

    fn next(&mut self) -> Option<(u64, String)> {
        let at = self.peek()?;
        let mv = (self.ply < self.game.len()).then(|| Self::per_ply() * (self.ply as u64 + 1));
        if mv == Some(at) {
            self.ply += 1;
            let n = self.ply;
            // Classical: 90 minutes and 30 s a move; each side thinks
            // half the time between moves.
            let inc = 30_000 * (n as u64 / 2);
            let left = (5_400_000 + inc).saturating_sub(at * 1000 / 2);
            return Some((
                at,
                format!(
                    r#"{{"type":"gameState","moves":"{}","wtime":{left},"btime":{left},"winc":30000,"binc":30000,"status":"started"}}"#,
                    self.game[..n].join(" ")
                ),
            ));
        }
        if self.keep_alive == at {
            self.keep_alive += KEEP_ALIVE_S;
            return Some((at, String::new()));
        }
        if self.chat == at {
            self.chat += CHAT_S;
            self.chats += 1;
            let (who, room) = if self.chats.is_multiple_of(3) {
                ("mary", "player")
            } else {
                ("watcher", "spectator")
            };
            let i = self.chats;
            return Some((
                at,
                format!(
                    r#"{{"type":"chatLine","username":"{who}","text":"Line {i}: a well played game so far, good luck to both","room":"{room}"}}"#
                ),
            ));
        }
        self.gone += GONE_S;
        self.gones += 1;
        Some((
            at,
            format!(
                r#"{{"type":"opponentGone","gone":{}}}"#,
                self.gones % 2 == 1
            ),
        ))
    }
}

/// VmRSS and VmHWM in KiB (Linux), else zeros.
fn rss() -> (u64, u64) {
    let Ok(s) = std::fs::read_to_string("/proc/self/status") else {
        return (0, 0);
    };
    let field = |name: &str| {
        s.lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// One sample: simulated minutes, lines read, moves, heap live bytes.
struct Sample {
    minutes: u64,
    lines: usize,
    moves: usize,
    live: usize,
    rss_kib: u64,
}

/// The stream through the decoder and the app; a sample each quarter
/// hour of the simulated game.
fn run(game: &[String], chatter: bool) -> (Vec<Sample>, Duration, usize) {
    let t0 = Instant::now();
    let wall = Instant::now();
    let mut app = App::builder()
        .lang(Lang::En)
        .online(OnlineStart::Join)
        .journal(StartInfo::default())
        .build();
    let _ = app.update(Msg::Start, t0);
    let start = r#"{"type":"gameStart","game":{"gameId":"g1","color":"black","opponent":{"username":"Mary","rating":1600},"compat":{"board":true}}}"#;
    if let Ok(Some(ev)) = lichess_account_line(start) {
        let _ = app.update(Msg::Lichess(LichessIo::Account(Box::new(ev))), t0);
    }
    let full = r#"{"type":"gameFull","id":"g1","white":{"id":"mary","name":"Mary"},"black":{"id":"me","name":"Me"},"initialFen":"startpos","clock":{"initial":5400000,"increment":30000},"state":{"type":"gameState","moves":"","wtime":5400000,"btime":5400000,"winc":30000,"binc":30000,"status":"started"}}"#;
    if let Ok(Some(ev)) = lichess_game_line(full) {
        let _ = app.update(Msg::Lichess(LichessIo::Game("g1".into(), ev)), t0);
    }
    let mut rng = Lcg(7);
    let mut decoder = LichessLines::default();
    let mut samples = Vec::new();
    let mut next_sample = 0u64;
    let mut read = 0usize;
    let mut moves = 0usize;
    let mut said = 0usize;
    let mut items = Stream::new(game, chatter);
    loop {
        let at = items.peek().map_or(HOURS3, |t| t.min(HOURS3));
        // The quarter-hour samples that fall before the next line.
        while next_sample <= at && next_sample <= HOURS3 {
            samples.push(Sample {
                minutes: next_sample / 60,
                lines: read,
                moves,
                live: LIVE.load(Ordering::Relaxed),
                rss_kib: rss().0,
            });
            next_sample += 15 * 60;
        }
        let Some((t, line)) = items.next() else {
            break;
        };
        let now = t0 + Duration::from_secs(t);
        // The clock's announcements that fell meanwhile.
        for _ in 0..100 {
            match app.next_deadline() {
                Some(d) if d <= now => said += count_said(&app.update(Msg::Deadline, d)),
                _ => break,
            }
        }
        // The line's bytes, cut where a socket might.
        let bytes = format!("{line}\n").into_bytes();
        let cut = rng.next(bytes.len() + 1);
        for chunk in [&bytes[..cut], &bytes[cut..]] {
            for got in decoder.push(chunk) {
                read += 1;
                let Ok(text) = got else { continue };
                let Ok(Some(ev)) = lichess_game_line(&text) else {
                    continue;
                };
                if text.contains("gameState") {
                    moves += 1;
                }
                let out = app.update(Msg::Lichess(LichessIo::Game("g1".into(), ev)), now);
                said += count_said(&out);
            }
        }
    }
    assert_eq!(moves, game.len(), "every move read");
    (samples, wall.elapsed(), said)
}

fn count_said(out: &[hector::Effect]) -> usize {
    out.iter()
        .filter(|e| matches!(e, hector::Effect::Say(_)))
        .count()
}

fn main() {
    let game = long_game();
    let before = LIVE.load(Ordering::Relaxed);
    // A first run makes what is made once per process (the words, the
    // vocabularies): both measured runs start alike.
    let _ = run(&game, false);
    let (quiet, quiet_wall, quiet_said) = run(&game, false);
    let (busy, busy_wall, busy_said) = run(&game, true);
    let after = LIVE.load(Ordering::Relaxed);
    // The first run's samples are alive during the second: not the app's.
    let results = (quiet.capacity() * std::mem::size_of::<Sample>()) as i64;
    let (_, hwm) = rss();
    println!(
        "a three-hour lichess game stream at speed: {} moves; {} lines with keep-alives, chat and opponentGone ({busy_wall:?}, {busy_said} sentences), {} lines without ({quiet_wall:?}, {quiet_said} sentences)",
        game.len(),
        busy.last().map_or(0, |s| s.lines),
        quiet.last().map_or(0, |s| s.lines),
    );
    println!(
        "minutes  lines  moves  heap live (B)  without chatter (B)  difference (B)  VmRSS (KiB)"
    );
    for (b, q) in busy.iter().zip(&quiet) {
        println!(
            "{:>7}  {:>5}  {:>5}  {:>13}  {:>19}  {:>14}  {:>11}",
            b.minutes,
            b.lines,
            b.moves,
            b.live,
            q.live,
            b.live as i64 - q.live as i64 - results,
            b.rss_kib
        );
    }
    let diffs: Vec<i64> = busy
        .iter()
        .zip(&quiet)
        .skip(1)
        .map(|(b, q)| b.live as i64 - q.live as i64 - results)
        .collect();
    let spread = diffs.iter().max().unwrap_or(&0) - diffs.iter().min().unwrap_or(&0);
    println!(
        "held by the keep-alive, chat and opponentGone lines: {} to {} B over the three hours (spread {spread} B); heap peak {} B; heap before {before} B, after the runs {after} B; VmHWM {hwm} KiB",
        diffs.iter().min().unwrap_or(&0),
        diffs.iter().max().unwrap_or(&0),
        PEAK.load(Ordering::Relaxed),
    );
    // Flat: what those lines hold may not grow with their number.  The
    // unheard chat lines are kept up to a cap (50, `app/online.rs`), full
    // after 17 minutes at one line every 20 s: from the first hour on,
    // nothing more may be held.
    let later: Vec<i64> = diffs.iter().skip(3).copied().collect();
    let later_spread = later.iter().max().unwrap_or(&0) - later.iter().min().unwrap_or(&0);
    println!("from the first hour on: spread {later_spread} B");
    assert!(
        later_spread <= 1024,
        "memory grows with the stream: {diffs:?}"
    );
}
