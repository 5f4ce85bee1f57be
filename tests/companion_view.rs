//! The opponent's page fed by the real `hector` binary: the clocks shown
//! from the shared view model, the page's words in the player's language
//! (and the opponent's choice), and the page coming back as the opponent
//! when a game is resumed from the journal after a restart of hector.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::browser::Browser;
use crate::util::{Hector, clean_config_dir};

const WAIT: Duration = Duration::from_secs(8);

/// `hector play --companion ADDR ARGS` with its config and data in `home`.
fn start(home: &Path, listen: &str, args: &[&str]) -> Hector {
    let mut all = vec!["--companion", listen];
    all.extend_from_slice(args);
    Hector::play_in(home, &all).waiting(WAIT)
}

/// The page's address, from "The opponent's screen: open URL …".
fn url(h: &mut Hector) -> String {
    let line = h.until("with the address", |l| l.contains("http://"));
    let start = line.find("http://").unwrap_or(0);
    line[start..]
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .trim_end_matches('.')
        .to_owned()
}

/// A free port on loopback (taken and given back at once).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

fn settings(home: &Path, text: &str) -> PathBuf {
    let dir = home.join("hector");
    std::fs::create_dir_all(&dir).expect("config dir");
    let file = dir.join("config.toml");
    std::fs::write(&file, text).expect("settings written");
    file
}

/// A clock's text ("Player 4:56") in seconds.
fn seconds(text: &str) -> u64 {
    let t = text.rsplit(' ').next().unwrap_or_default();
    let (m, s) = t
        .split_once(':')
        .unwrap_or_else(|| panic!("a clock: {text:?}"));
    m.parse::<u64>().expect("minutes") * 60 + s.parse::<u64>().expect("seconds")
}

/// Wait until the page's `sel` has the class `class`.
fn wait_class(b: &mut Browser, p: u64, sel: &str, class: &str) {
    let js = format!(
        "new Promise((ok, no) => {{ const t0 = Date.now(); (function w() {{ \
           const el = document.querySelector({sel:?}); \
           if (el && el.classList.contains({class:?})) return ok(true); \
           if (Date.now() - t0 > 5000) return no(new Error({sel:?} + ' has ' + (el && el.className))); \
           setTimeout(w, 10); }})(); }})"
    );
    b.eval(p, &js);
}

#[test]
fn the_page_shows_both_clocks_of_a_game_with_a_clock() {
    let home = clean_config_dir();
    let mut h = start(&home, "127.0.0.1:0", &["--time", "5+3"]);
    let url = url(&mut h);
    h.skip_to("New game. White to move.", WAIT);
    let mut b = Browser::start();
    let p = b.new_page(&url);
    b.wait_text(p, "#seat", "You play this game.");
    assert_eq!(
        b.eval(p, "document.getElementById('clocks').hidden"),
        json!(false)
    );
    // Both clocks, the blind player's (White) running down, the
    // opponent's full (how much White used depends on the machine's load).
    wait_class(&mut b, p, "#clock-player", "running");
    let first = seconds(&b.text(p, "#clock-player"));
    assert_eq!(seconds(&b.text(p, "#clock-you")), 300);
    b.eval(p, "new Promise(r => setTimeout(r, 1500))");
    let later = seconds(&b.text(p, "#clock-player"));
    assert!(later < first && first <= 300, "{first} then {later}");
    // The blind player moves: the opponent's clock runs, the player's got
    // the increment.
    h.type_line("e4");
    b.wait_text(p, "#last-san", "e4");
    wait_class(&mut b, p, "#clock-you", "running");
    assert!(
        !b.attr(p, "#clock-player", "class")
            .unwrap_or_default()
            .contains("running")
    );
    // White's stands (with its increment, at most the start plus 3 s),
    // Black's runs down.
    let white = seconds(&b.text(p, "#clock-player"));
    assert!(white <= 303, "{white}");
    b.wait_text(p, "#clock-you", "4:5");
    assert_eq!(seconds(&b.text(p, "#clock-player")), white);
    assert!(b.errors().is_empty());
    drop(h);
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn the_page_speaks_the_players_language_and_the_opponent_may_choose() {
    let home = clean_config_dir();
    settings(&home, "[announce]\nlanguage = \"de\"\n");
    let mut h = start(&home, "127.0.0.1:0", &[]);
    let url = url(&mut h);
    let mut b = Browser::start();
    let p = b.new_page(&url);
    // German, the blind player's language, from the voices file.
    b.wait_text(p, "#seat", "Du spielst diese Partie.");
    assert_eq!(b.eval(p, "document.documentElement.lang"), json!("de"));
    assert_eq!(b.text(p, "#resign"), "Aufgeben");
    assert_eq!(b.text(p, "#offer-draw"), "Remis anbieten");
    b.wait_text(p, "#turn", "Der Spieler ist am Zug (Weiß).");
    h.type_line("e4");
    b.wait_text(p, "#last-san", "e4");
    b.wait_text(p, "#last-by", "Der Spieler hat gezogen, Zug 1");
    b.wait_text(p, "#turn", "Du bist am Zug (Schwarz).");
    assert_eq!(
        b.attr(p, "[data-square=e4]", "aria-label").as_deref(),
        Some("e4, Bauer, weiß, letzter Zug")
    );
    // The opponent chooses Greek: every word changes, and stays so after
    // a reload.
    b.cmd(json!({"op": "eval", "page": p, "js":
        "(() => { const s = document.getElementById('lang'); s.value = 'el'; \
          s.dispatchEvent(new Event('change')); return true; })()"}));
    b.wait_text(p, "#seat", "Παίζεις αυτή την παρτίδα.");
    assert_eq!(b.text(p, "#resign"), "Εγκατάλειψη");
    assert_eq!(b.eval(p, "document.documentElement.lang"), json!("el"));
    b.wait_text(p, "#turn", "Παίζεις εσύ (Μαύρα).");
    b.reload(p);
    b.wait_text(p, "#seat", "Παίζεις αυτή την παρτίδα.");
    // All four languages can be chosen, named in their own words.
    let names = b.eval(
        p,
        "[...document.querySelectorAll('#lang option')].map(o => o.value + '=' + o.textContent).join(' ')",
    );
    assert_eq!(
        names,
        json!("de=Deutsch el=Ελληνικά en=English it=Italiano")
    );
    // A watcher on another device starts in the player's language.
    let w = b.new_page(&url);
    b.wait_text(w, "#seat", "Du schaust zu.");
    // hector's refusal in the page's words too.
    b.wait_text(w, "#notice", "Ein anderer Gegner ist gekoppelt.");
    assert!(b.errors().is_empty());
    drop(h);
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_game_resumed_after_a_restart_gives_the_page_its_seat_back() {
    let home = clean_config_dir();
    // A code is asked for, as on a network.
    settings(&home, "[companion]\nrequire_code = true\n");
    let listen = format!("127.0.0.1:{}", free_port());
    let mut h = start(&home, &listen, &[]);
    let line = h.until("with the code", |l| l.contains("Pairing code"));
    let code: String = line
        .rsplit("Pairing code")
        .next()
        .unwrap_or_default()
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    assert_eq!(code.len(), 6, "{line}");
    let url = format!("http://{listen}/");
    let mut b = Browser::start();
    let p = b.new_page(&url);
    b.wait_text(p, "#pair-h", "Pair with hector");
    b.fill(p, "#code", &code);
    b.click(p, "#pair-button");
    b.wait_text(p, "#seat", "You play this game.");
    h.skip_to("The opponent's screen is connected.", WAIT);
    h.type_line("e4");
    b.wait_text(p, "#last-san", "e4");
    b.click(p, "[data-square=c7]");
    b.click(p, "[data-square=c5]");
    h.skip_to("Bauer Cesar fünf", WAIT);
    b.wait_text(p, "#last-san", "c5");
    // hector stops hard mid-game (killed); the page keeps trying.
    drop(h);
    let conn = b.eval(
        p,
        "new Promise(ok => { const t0 = Date.now(); (function w() { \
           const t = document.getElementById('conn').textContent; \
           if (!t.startsWith('Connected') || Date.now() - t0 > 5000) return ok(t); \
           setTimeout(w, 20); })(); })",
    );
    assert!(
        !conn.as_str().unwrap_or_default().starts_with("Connected"),
        "{conn}"
    );
    // hector again, the game resumed from the journal: a new code is said
    // (the journal keeps no code, only the digest of the page's token),
    // and the page is the opponent again by itself: no code typed.
    let mut h = start(&home, &listen, &["--resume"]);
    let line = h.until("with the code", |l| l.contains("Pairing code"));
    let again: String = line
        .rsplit("Pairing code")
        .next()
        .unwrap_or_default()
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    assert_eq!(again.len(), 6, "a new code: {line}");
    if let Err(e) = b.try_wait_text(p, "#conn", "Connected to hector.", Duration::from_secs(10)) {
        let state = b.eval(p, "['conn','seat','pair-error','last-san'].map(i => i + '=' + document.getElementById(i).textContent).join(' | ')");
        panic!("{e}: {state}");
    }
    b.wait_text(p, "#seat", "You play this game.");
    assert_eq!(
        b.eval(p, "document.getElementById('pair').hidden"),
        json!(true),
        "no code asked again"
    );
    b.wait_text(p, "#last-san", "c5");
    h.skip_to("The opponent's screen is connected.", WAIT);
    // And the game goes on from both sides.
    h.type_line("Nf3");
    b.wait_text(p, "#last-san", "Nf3");
    b.click(p, "[data-square=b8]");
    b.click(p, "[data-square=c6]");
    h.skip_to("Springer Cesar sechs", WAIT);
    assert!(b.errors().is_empty());
    drop(h);
    let _ = std::fs::remove_dir_all(&home);
}

/// A board on the master end of a pseudo-terminal, as the opponent's.
struct PtyBoard {
    master: hector::testing::Master,
    sim: hector::testing::SimBoard,
    /// Everything hector wrote to it so far.
    heard: Vec<u8>,
}

impl PtyBoard {
    fn new(protocol: hector::io::Protocol, board: shakmaty::Board) -> (PtyBoard, String) {
        let (master, path) = crate::util::new_pty();
        let b = PtyBoard {
            master,
            sim: hector::testing::SimBoard::new(protocol, board),
            heard: Vec::new(),
        };
        (b, path)
    }

    /// Read what hector writes until `want` is among it (after `from`);
    /// where it ends.
    fn hear(&mut self, want: &[u8], from: usize, what: &str) -> usize {
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(i) = self.heard[from.min(self.heard.len())..]
                .windows(want.len())
                .position(|w| w == want)
            {
                return from + i + want.len();
            }
            assert!(
                Instant::now() < deadline,
                "hector never sent {what} ({} bytes heard)",
                self.heard.len()
            );
            let mut buf = [0u8; 512];
            let n = self
                .master
                .read_within(&mut buf, Duration::from_millis(50))
                .unwrap_or(0);
            self.heard.extend_from_slice(&buf[..n]);
        }
    }

    /// Answer hector's first request with the whole board.
    fn answer(&mut self) {
        let deadline = Instant::now() + WAIT;
        while self.heard.is_empty() {
            assert!(Instant::now() < deadline, "hector did not ask the board");
            let mut buf = [0u8; 512];
            let n = self
                .master
                .read_within(&mut buf, Duration::from_millis(50))
                .unwrap_or(0);
            self.heard.extend_from_slice(&buf[..n]);
        }
        let dump = self.sim.dump();
        self.master.write_all(&dump).expect("write to the board");
    }

    fn send(&mut self, bytes: &[u8]) {
        self.master.write_all(bytes).expect("write to the board");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The opponent's own Millennium board over a pseudo-terminal: the blind
/// player's move is lit on it (the squares it changes) and the lights go
/// out when the opponent has made it there.
#[test]
fn the_players_move_is_lit_on_the_opponents_millennium_board() {
    use hector::io::Protocol;
    use hector::testing::BoardCommand;
    use shakmaty::{Bitboard, Board, Chess, Square, san::San};
    let home = clean_config_dir();
    let (mut opp, path) = PtyBoard::new(Protocol::Millennium, Board::new());
    let mut h = start(
        &home,
        "127.0.0.1:0",
        &["--opponent-board", &format!("millennium:{path}")],
    );
    opp.answer();
    h.skip_to("The opponent's board is connected.", WAIT);
    let start = opp.heard.len();
    h.type_line("e4");
    let lit = Bitboard::from(Square::E2) | Bitboard::from(Square::E4);
    let on = Protocol::Millennium.encode(BoardCommand::ShowSquares(lit));
    let after_on = opp.hear(&on, start, "the LEDs of e2 and e4");
    // The opponent makes the move on their board: lights off.
    let pos = Chess::default();
    let m = "e4"
        .parse::<San>()
        .ok()
        .and_then(|s| s.to_move(&pos).ok())
        .expect("legal");
    for bytes in opp.sim.play(&pos, m, false) {
        opp.send(&bytes);
    }
    let off = Protocol::Millennium.encode(BoardCommand::LightsOff);
    opp.hear(&off, after_on, "all LEDs off");
    drop(h);
    let _ = std::fs::remove_dir_all(&home);
}

/// The opponent's occupancy board over a pseudo-terminal: a pawn lifted
/// and put on the last rank cannot be seen to become a piece; the page
/// asks which, the opponent taps it, hector plays and says the move.
#[test]
fn a_promotion_on_the_opponents_occupancy_board_is_asked_on_the_page() {
    use hector::io::Protocol;
    use hector::testing::HandStep;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Color, Position, Square};
    let home = clean_config_dir();
    let fen = "4k3/8/8/8/8/8/4p2R/K7 b - - 0 1";
    let pos: Chess = fen
        .parse::<Fen>()
        .expect("fen")
        .into_position(CastlingMode::Standard)
        .expect("position");
    let (mut opp, path) = PtyBoard::new(Protocol::Occupancy, pos.board().clone());
    let mut h = start(
        &home,
        "127.0.0.1:0",
        &[
            "--fen",
            fen,
            "--opponent-board",
            &format!("occupancy:{path}"),
        ],
    );
    let url = url(&mut h);
    opp.answer();
    h.skip_to("The opponent's board is connected.", WAIT);
    let mut b = Browser::start();
    let p = b.new_page(&url);
    b.wait_text(p, "#seat", "You play this game.");
    let lift = opp.sim.act(HandStep::Lift(Square::E2));
    opp.send(&lift);
    let place = opp
        .sim
        .act(HandStep::Place(Square::E1, Color::Black.pawn()));
    opp.send(&place);
    b.wait_text(p, "#your-board", "Your pawn reached the last rank");
    assert_eq!(
        b.eval(p, "document.getElementById('promo').hidden"),
        json!(false)
    );
    b.click(p, "[data-promo=n]");
    h.skip_to("Bauer Eva eins wird Springer", WAIT);
    b.wait_text(p, "#last-san", "e1=N");
    b.wait_text(p, "#your-board", "Your board agrees with the game.");
    assert_eq!(
        b.eval(p, "document.getElementById('promo').hidden"),
        json!(true)
    );
    assert!(b.errors().is_empty());
    drop(h);
    let _ = std::fs::remove_dir_all(&home);
}
