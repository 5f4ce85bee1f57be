//! A whole game through the real `hector` binary: the blind player moves
//! on a simulated DGT board (a pseudo-terminal), the sighted opponent on
//! the companion page in real headless Chromium.  Every move is checked on
//! both sides: hector's announcement line, and the page's last-move text,
//! words and board.  Also: a page reload mid-game, the opponent's screen
//! said connected and disconnected, and the latency figures of issue 12
//! (board move to page, tap to announcement).

use std::io::Write;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use hector::App;
use hector::io::Protocol;
use hector::testing::page_squares;
use serde_json::json;
use shakmaty::san::{San, SanPlus};
use shakmaty::{Chess, Move, Position};

use crate::browser::Browser;
use crate::util::{Hector, Tactile, new_pty};

const WAIT: Duration = Duration::from_secs(6);
/// Between two messages of one move on the tactile board.
const HAND: Duration = Duration::from_millis(10);

fn epoch_ms(t: SystemTime) -> f64 {
    t.duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64() * 1000.0)
        .unwrap_or(0.0)
}

/// `hector play --companion 127.0.0.1:0 ARGS`.
fn start_with(args: &[&str]) -> Hector {
    let mut all = vec!["--companion", "127.0.0.1:0"];
    all.extend(args);
    Hector::play(&all).waiting(WAIT)
}

/// Quit; the page may have been said connected or disconnected meanwhile.
fn quit(mut hector: Hector) {
    hector.type_line("quit");
    hector.skip_to("Goodbye.", WAIT);
}

/// One game's both sides, and what hector says.
struct Game {
    hector: Hector,
    board: Tactile,
    browser: Browser,
    page: u64,
    url: String,
    pos: Chess,
    words: App,
}

/// Record on the page when the last move's text changes and when a square
/// is tapped (epoch milliseconds, the same clock the test reads).
const PROBE: &str = "(() => {
  window.__seen = []; window.__taps = [];
  const el = document.getElementById('last-san');
  new MutationObserver(() => window.__seen.push([el.textContent, performance.timeOrigin + performance.now()]))
    .observe(el, {childList: true, characterData: true, subtree: true});
  document.getElementById('board').addEventListener('click',
    () => window.__taps.push(performance.timeOrigin + performance.now()), true);
  return true;
})()";

impl Game {
    fn start() -> Game {
        let (master, path) = new_pty();
        let mut hector = start_with(&["--board", &format!("dgt:{path}")]);
        let (_, first) = hector.next_stamped("the companion's address", WAIT);
        let url = first
            .strip_prefix("The opponent's screen: open ")
            .and_then(|r| r.strip_suffix(" in a browser."))
            .unwrap_or_else(|| panic!("the address is said first: {first:?}"))
            .to_owned();
        assert!(url.starts_with("http://127.0.0.1:"), "{url}");
        hector.expect("New game. White to move.");
        let mut board = Tactile::new(master, Protocol::Dgt);
        // "Board connected" only once the board answered with a position.
        board.answer(WAIT);
        hector.expect("Board connected.");
        let mut browser = Browser::start();
        let page = browser.new_page(&url);
        browser.wait_text(page, "#seat", "You play this game.");
        hector.skip_to("The opponent's screen is connected.", WAIT);
        browser.eval(page, PROBE);
        Game {
            hector,
            board,
            browser,
            page,
            url,
            pos: Chess::default(),
            words: App::builder().build(),
        }
    }

    fn mv(&self, san: &str) -> Move {
        san.parse::<San>()
            .ok()
            .and_then(|s| s.to_move(&self.pos).ok())
            .unwrap_or_else(|| panic!("{san} is legal"))
    }

    fn said(&self, m: Move) -> String {
        self.words.phraser().say_move(&self.pos, m)
    }

    /// The page shows `m` (just played from `before`) as the last move, in
    /// SAN and words, and the board with it; when it first showed the SAN.
    fn page_shows(&mut self, before: &Chess, m: Move, words: &str) -> f64 {
        let san = SanPlus::from_move(before.clone(), m).to_string();
        let (p, b) = (self.page, &mut self.browser);
        b.cmd(json!({"op": "eval", "page": p, "js": format!(
            "new Promise((ok, no) => {{ const t0 = Date.now(); (function w() {{ \
               if (document.getElementById('last-san').textContent === {san:?}) return ok(true); \
               if (Date.now() - t0 > 5000) return no(new Error('page shows ' + document.getElementById('last-san').textContent)); \
               setTimeout(w, 5); }})(); }})")}));
        assert_eq!(b.text(p, "#last-words"), words);
        let (from, to) = page_squares(&m, before.turn());
        let piece = self
            .pos
            .board()
            .piece_at(to)
            .map(|pc| pc.char().to_string());
        let sel = format!("[data-square={to}]");
        assert_eq!(
            b.attr(p, &sel, "data-piece"),
            piece,
            "{san}: the piece on {to}"
        );
        assert_eq!(
            b.attr(p, &format!("[data-square={from}]"), "data-piece")
                .as_deref(),
            Some("")
        );
        let seen = b.eval(
            p,
            &format!(
                "(window.__seen || []).filter(s => s[0] === {san:?}).map(s => s[1]).pop() || 0"
            ),
        );
        seen.as_f64().unwrap_or(0.0)
    }

    /// The blind player's move on the tactile board: announced, shown.
    /// (board write → page, announcement → page) in ms.
    fn on_board(&mut self, m: Move) -> (f64, f64) {
        let words = self.said(m);
        let before = self.pos.clone();
        let written = self.board.play(&before, m, HAND);
        let said_at = self.hector.expect(&words);
        self.pos.play_unchecked(m);
        let shown = self.page_shows(&before, m, &words);
        (shown - epoch_ms(written), shown - epoch_ms(said_at))
    }

    /// The opponent's move tapped on the page: announced (the first line),
    /// then made on the tactile board and confirmed.  Tap → announcement in
    /// ms.
    fn on_page(&mut self, m: Move) -> f64 {
        let words = self.said(m);
        let before = self.pos.clone();
        let (from, to) = page_squares(&m, before.turn());
        let p = self.page;
        self.browser.click(p, &format!("[data-square={from}]"));
        self.browser.click(p, &format!("[data-square={to}]"));
        let said_at = self.hector.expect(&words);
        let tap = self
            .browser
            .eval(p, "window.__taps[window.__taps.length - 1] || 0")
            .as_f64()
            .unwrap_or(0.0);
        self.pos.play_unchecked(m);
        self.page_shows(&before, m, &words);
        // Awaited on the tactile board, until the blind player makes it.
        self.browser.wait_text(
            p,
            "#tactile",
            &format!("Waiting for {}", SanPlus::from_move(before.clone(), m)),
        );
        self.board.play(&before, m, HAND);
        self.hector.skip_to(&format!("Done: {words}."), WAIT);
        self.browser
            .wait_text(p, "#tactile", "The player's board agrees with the game.");
        epoch_ms(said_at) - tap
    }
}

fn percentile(v: &[f64], p: f64) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    let i = ((v.len() as f64 - 1.0) * p).round() as usize;
    v.get(i).copied().unwrap_or(f64::NAN)
}

#[test]
fn a_game_between_the_tactile_board_and_the_page() {
    let mut g = Game::start();
    let script = [
        ("e4", true),
        ("e5", false),
        ("Nf3", true),
        ("Nc6", false),
        ("Bb5", true),
        ("a6", false),
    ];
    for (san, board) in script {
        let m = g.mv(san);
        if board {
            g.on_board(m);
        } else {
            g.on_page(m);
        }
    }
    // A reload mid-game: the whole state again, still the opponent; the
    // blind player hears nothing of it.
    g.browser.reload(g.page);
    g.browser.wait_text(g.page, "#last-san", "a6");
    g.browser.wait_text(g.page, "#seat", "You play this game.");
    g.browser.eval(g.page, PROBE);
    for (san, board) in [("Ba4", true), ("Nf6", false), ("O-O", true), ("Be7", false)] {
        let m = g.mv(san);
        if board {
            g.on_board(m);
        } else {
            g.on_page(m);
        }
    }
    // A typed move on the page.
    let before = g.pos.clone();
    let m = g.mv("Re1");
    g.on_board(m);
    let _ = before;
    let m = g.mv("b5");
    let words = g.said(m);
    g.browser.fill(g.page, "#san", "b5");
    g.browser.press(g.page, "#san", "Enter");
    g.hector.expect(&words);
    let before = g.pos.clone();
    g.pos.play_unchecked(m);
    g.page_shows(&before, m, &words);
    g.board.play(&before, m, HAND);
    g.hector.skip_to(&format!("Done: {words}."), WAIT);
    // Not the opponent's move: the page says so, hector says nothing.
    g.browser.click(g.page, "[data-square=b5]");
    g.browser
        .wait_text(g.page, "#notice", "It is the player's move.");
    // The opponent resigns on the page.
    g.browser.click(g.page, "#resign");
    g.hector.expect("Black resigns. White wins, one to zero.");
    g.browser.wait_text(g.page, "#end", "Result 1-0");
    assert!(g.browser.errors().is_empty());
    // The opponent closes the page: said after the grace time.
    g.browser.cmd(json!({"op": "close_page", "page": g.page}));
    g.hector.skip_to(
        "The opponent's screen is disconnected.",
        Duration::from_secs(10),
    );
    let _ = &g.url;
    quit(g.hector);
}

/// Issue 12's figures: a game of varied legal moves, the blind player's on
/// the tactile board, the opponent's tapped on the page.  Prints p50/p99;
/// fails only beyond 10× the target (a loaded test machine is not a
/// benchmark).  More moves: HECTOR_COMPANION_PLIES=200.
#[test]
fn latency_board_to_page_and_tap_to_announcement() {
    let plies: usize = std::env::var("HECTOR_COMPANION_PLIES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(24);
    let mut g = Game::start();
    let (mut board_to_page, mut said_to_page, mut tap_to_said) =
        (Vec::new(), Vec::new(), Vec::new());
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    for ply in 0..plies {
        if g.pos.is_game_over() {
            break;
        }
        // Varied legal moves without promotions (the page would ask for
        // the piece) and without repeating forever.
        let moves: Vec<Move> = g
            .pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.promotion().is_none())
            .collect();
        if moves.is_empty() {
            break;
        }
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let m = moves[(seed % moves.len() as u64) as usize];
        if ply % 2 == 0 {
            let (a, b) = g.on_board(m);
            board_to_page.push(a);
            said_to_page.push(b);
        } else {
            tap_to_said.push(g.on_page(m));
        }
        if g.pos.is_game_over() {
            break;
        }
    }
    let report = |name: &str, v: &[f64]| {
        eprintln!(
            "companion latency {name}: n={} p50={:.1} ms p99={:.1} ms max={:.1} ms",
            v.len(),
            percentile(v, 0.5),
            percentile(v, 0.99),
            percentile(v, 1.0)
        );
    };
    report("board move -> page shows it", &board_to_page);
    report("announcement -> page shows it", &said_to_page);
    report("tap -> announcement", &tap_to_said);
    assert!(!tap_to_said.is_empty() && !board_to_page.is_empty());
    assert!(percentile(&tap_to_said, 0.99) < 500.0, "{tap_to_said:?}");
    assert!(percentile(&said_to_page, 0.99) < 500.0, "{said_to_page:?}");
    quit(g.hector);
}

/// The page's state as JSON, read over plain HTTP (what every page gets).
fn page_state(url: &str) -> serde_json::Value {
    use std::io::Read;
    let addr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_owned();
    let mut c = std::net::TcpStream::connect(&addr).expect("the companion answers");
    c.set_read_timeout(Some(WAIT)).expect("timeout");
    write!(
        c,
        "GET /api/state HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .expect("request");
    let mut text = String::new();
    let _ = c.read_to_string(&mut text);
    let body = text.split("\r\n\r\n").nth(1).unwrap_or_default();
    serde_json::from_str::<serde_json::Value>(body)
        .unwrap_or_else(|e| panic!("state {body:?}: {e}"))["state"]
        .clone()
}

/// Poll the page's state until `check` holds (the app publishes after each
/// message; a board's settle time may come first).
fn state_until(
    url: &str,
    what: &str,
    check: impl Fn(&serde_json::Value) -> bool,
) -> serde_json::Value {
    let t0 = std::time::Instant::now();
    loop {
        let s = page_state(url);
        if check(&s) {
            return s;
        }
        assert!(t0.elapsed() < WAIT, "the page never showed {what}: {s}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Two boards over two pseudo-terminals (D.2.9): the blind player's tactile
/// board and the opponent's own board.  Moves on each side; a mismatch on
/// each board reported to the other side (the opponent's board's spoken to
/// the blind player, the tactile board's shown on the opponent's page), and
/// their fixes.
#[test]
fn two_boards_moves_and_mismatches_on_each_side() {
    use hector::testing::HandStep;
    use shakmaty::{Color, Square};
    let (mine, mine_path) = new_pty();
    let (theirs, theirs_path) = new_pty();
    let mut hector = start_with(&[
        "--board",
        &format!("dgt:{mine_path}"),
        "--opponent-board",
        &format!("millennium:{theirs_path}"),
    ]);
    let (_, first) = hector.next_stamped("the companion's address", WAIT);
    let url = first
        .strip_prefix("The opponent's screen: open ")
        .and_then(|r| r.strip_suffix(" in a browser."))
        .unwrap_or_else(|| panic!("{first:?}"))
        .to_owned();
    hector.expect("New game. White to move.");
    let mut blind = Tactile::new(mine, Protocol::Dgt);
    let mut opp = Tactile::new(theirs, Protocol::Millennium);
    // Each board answers hector's request with its position; only then is
    // it said connected.
    for b in [&mut blind, &mut opp] {
        b.answer(WAIT);
    }
    let mut connected = vec![
        hector.next_stamped("connected", WAIT).1,
        hector.next_stamped("connected", WAIT).1,
    ];
    connected.sort();
    assert_eq!(
        connected,
        ["Board connected.", "The opponent's board is connected."]
    );
    state_until(&url, "both boards agree", |s| {
        s["tactile"]["state"] == "agrees" && s["opponent_board"]["state"] == "agrees"
    });
    let words = App::builder().build();
    let mut pos = Chess::default();
    let san = |pos: &Chess, s: &str| {
        s.parse::<San>()
            .ok()
            .and_then(|x| x.to_move(pos).ok())
            .unwrap_or_else(|| panic!("{s} is legal"))
    };

    // The blind player's move on the tactile board: said, awaited on the
    // opponent's board (shown on the page, not said), made there.
    let m = san(&pos, "e4");
    blind.play(&pos, m, HAND);
    hector.expect(&words.phraser().say_move(&pos, m));
    state_until(&url, "e4 awaited on the opponent's board", |s| {
        s["opponent_board"] == json!({"state": "awaiting", "san": "e4"})
    });
    opp.play(&pos, m, HAND);
    pos.play_unchecked(m);
    state_until(&url, "the opponent's board agrees", |s| {
        s["opponent_board"]["state"] == "agrees"
    });

    // The opponent's move on their board: said to the blind player,
    // awaited on the tactile board, made there.
    let m = san(&pos, "c5");
    let said = words.phraser().say_move(&pos, m);
    opp.play(&pos, m, HAND);
    hector.expect(&said);
    blind.play(&pos, m, HAND);
    hector.skip_to(&format!("Done: {said}."), WAIT);
    pos.play_unchecked(m);
    state_until(&url, "both boards agree after c5", |s| {
        s["last_move"]["san"] == "c5"
            && s["tactile"]["state"] == "agrees"
            && s["opponent_board"]["state"] == "agrees"
    });

    // A pawn knocked over on the opponent's board: said to the blind
    // player (with what to put right), shown on the page; and fixed.
    let knocked = blind_mismatch_text(&words, &pos, Square::H7, Square::H6);
    let a = opp.sim.act(HandStep::Lift(Square::H7));
    opp.master.write_all(&a).expect("write");
    let a = opp
        .sim
        .act(HandStep::Place(Square::H6, Color::Black.pawn()));
    opp.master.write_all(&a).expect("write");
    hector.skip_to(&format!("On the opponent's board: {knocked}"), WAIT);
    state_until(&url, "the opponent's board differs", |s| {
        s["opponent_board"] == json!({"state": "differs", "squares": ["h6", "h7"]})
            || s["opponent_board"] == json!({"state": "differs", "squares": ["h7", "h6"]})
    });
    let a = opp.sim.act(HandStep::Lift(Square::H6));
    opp.master.write_all(&a).expect("write");
    let a = opp
        .sim
        .act(HandStep::Place(Square::H7, Color::Black.pawn()));
    opp.master.write_all(&a).expect("write");
    hector.skip_to("The opponent's board matches the game.", WAIT);
    state_until(&url, "the opponent's board agrees again", |s| {
        s["opponent_board"]["state"] == "agrees"
    });

    // The same on the tactile board: said to the blind player (as always),
    // shown on the opponent's page with the squares; and fixed.
    let a = blind.sim.act(HandStep::Lift(Square::A2));
    blind.master.write_all(&a).expect("write");
    let a = blind
        .sim
        .act(HandStep::Place(Square::A3, Color::White.pawn()));
    blind.master.write_all(&a).expect("write");
    state_until(&url, "the tactile board differs", |s| {
        let sq = &s["tactile"]["squares"];
        s["tactile"]["state"] == "differs" && sq.as_array().is_some_and(|v| v.len() == 2)
    });
    // (a2-a3 is a legal move of the blind player: it is only a mismatch
    // because it is not their turn; what is said about it is the board
    // module's business.)
    let a = blind.sim.act(HandStep::Lift(Square::A3));
    blind.master.write_all(&a).expect("write");
    let a = blind
        .sim
        .act(HandStep::Place(Square::A2, Color::White.pawn()));
    blind.master.write_all(&a).expect("write");
    state_until(&url, "the tactile board agrees again", |s| {
        s["tactile"]["state"] == "agrees"
    });
    quit(hector);
}

/// What hector says of a black pawn moved from `from` to `to` on a board
/// (the same sentence as for the player's own board).
fn blind_mismatch_text(
    words: &App,
    pos: &Chess,
    from: shakmaty::Square,
    to: shakmaty::Square,
) -> String {
    let mut board = pos.board().clone();
    let piece = board.remove_piece_at(from).expect("a piece");
    board.set_piece_at(to, piece);
    let sensed = hector::testing::SensedBoard::from_board(&board);
    let diffs = hector::testing::board_diff(pos.board(), &sensed);
    words.phraser().mismatch(&diffs)
}

/// Issue 30, item 1, through the binary with the page in headless
/// Chromium: `takeback` took the move back at once, the opponent's page
/// got no word of it.  Now it is a request shown on the page: refused
/// there, the move stands; accepted there, it is taken back, on the page
/// too.
#[test]
fn a_takeback_is_asked_of_the_opponent_who_refuses_or_accepts_on_the_page() {
    let mut hector = start_with(&["--time", "3+2"]);
    let (_, first) = hector.next_stamped("the companion's address", WAIT);
    let url = first
        .strip_prefix("The opponent's screen: open ")
        .and_then(|r| r.strip_suffix(" in a browser."))
        .unwrap_or_else(|| panic!("the address is said first: {first:?}"))
        .to_owned();
    let mut b = Browser::start();
    let p = b.new_page(&url);
    b.wait_text(p, "#seat", "You play this game.");
    hector.skip_to("The opponent's screen is connected.", WAIT);
    hector.type_line("e4");
    hector.skip_to("Bauer Eva vier", WAIT);
    b.wait_text(p, "#last-san", "e4");
    b.click(p, "[data-square=e7]");
    b.click(p, "[data-square=e5]");
    hector.skip_to("Bauer Eva fünf", WAIT);
    hector.type_line("Nf3");
    hector.skip_to("Springer Felix drei", WAIT);
    b.wait_text(p, "#last-san", "Nf3");
    assert_eq!(
        b.eval(p, "document.getElementById('takeback').hidden"),
        json!(true),
        "no request: nothing to answer"
    );
    hector.type_line("takeback");
    hector.skip_to(
        "Take-back of Springer Felix drei asked of your opponent. The move stands until they accept.",
        WAIT,
    );
    b.wait_text(p, "#takeback-text", "The player asks to take back 2. Nf3.");
    b.click(p, "#refuse-takeback");
    hector.skip_to(
        "Your opponent refuses the take-back. The move stands.",
        WAIT,
    );
    state_until(&url, "the request gone", |s| s["takeback_asked"].is_null());
    assert_eq!(
        b.eval(
            p,
            "new Promise(r => setTimeout(() => r(document.getElementById('takeback').hidden), 300))"
        ),
        json!(true)
    );
    assert_eq!(b.text(p, "#last-san"), "Nf3", "the move stands");
    hector.type_line("takeback");
    hector.skip_to(
        "Take-back of Springer Felix drei asked of your opponent. The move stands until they accept.",
        WAIT,
    );
    b.wait_text(p, "#takeback-text", "The player asks to take back 2. Nf3.");
    b.click(p, "#accept-takeback");
    hector.skip_to("Your opponent accepts the take-back.", WAIT);
    hector.expect("Taken back: Springer Felix drei.");
    b.wait_text(p, "#last-san", "e5");
    assert!(b.errors().is_empty(), "{:?}", b.errors());
    quit(hector);
}

/// Issue 30, item 3, through the binary with the page in headless
/// Chromium: the sighted opponent claims a draw on the page (9.2), with
/// the move they intend typed in the box; an incorrect claim first is
/// refused, said to the blind player and shown on the page.
#[test]
fn the_opponent_claims_a_draw_on_the_page() {
    let mut hector = start_with(&[]);
    let (_, first) = hector.next_stamped("the companion's address", WAIT);
    let url = first
        .strip_prefix("The opponent's screen: open ")
        .and_then(|r| r.strip_suffix(" in a browser."))
        .unwrap_or_else(|| panic!("the address is said first: {first:?}"))
        .to_owned();
    let mut b = Browser::start();
    let p = b.new_page(&url);
    b.wait_text(p, "#seat", "You play this game.");
    hector.skip_to("The opponent's screen is connected.", WAIT);
    hector.type_line("Nf3");
    hector.skip_to("Springer Felix drei", WAIT);
    b.wait_text(p, "#last-san", "Nf3");
    b.click(p, "#claim-draw");
    hector.skip_to("Black claims a draw on the position now.", WAIT);
    hector.expect(
        "Claim refused: the position has appeared only once. The claim stands as a draw offer.",
    );
    b.wait_text(
        p,
        "#notice",
        "Claim refused: the position has appeared only once.",
    );
    let page_move = |b: &mut Browser, san: &str, said: &str, hector: &mut crate::util::Hector| {
        b.fill(p, "#san", san);
        b.press(p, "#san", "Enter");
        hector.skip_to(said, WAIT);
        b.wait_text(p, "#last-san", san);
    };
    page_move(&mut b, "Nf6", "Springer Felix sechs", &mut hector);
    for (typed, black, words) in [
        ("Ng1", "Ng8", "Springer Gustav acht"),
        ("Nf3", "Nf6", "Springer Felix sechs"),
    ] {
        hector.type_line(typed);
        b.wait_text(p, "#last-san", typed);
        page_move(&mut b, black, words, &mut hector);
    }
    hector.type_line("Ng1");
    b.wait_text(p, "#last-san", "Ng1");
    b.fill(p, "#san", "Ng8");
    b.click(p, "#claim-draw");
    hector.skip_to(
        "Black claims a draw on the move Springer Gustav acht.",
        WAIT,
    );
    b.wait_text(p, "#end", "Result 1/2-1/2");
    assert!(b.errors().is_empty(), "{:?}", b.errors());
    quit(hector);
}
