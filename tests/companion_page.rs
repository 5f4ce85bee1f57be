//! The companion page in real headless Chromium against the real server,
//! fed by a state the test makes (the app is not involved): the page shows
//! the last move and the board, a tap and a typed move reach the app as
//! events, a wrong pairing code is refused, a second opponent is refused,
//! a reload gets the whole state again.

use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use hector::io::{CompanionConfig, CompanionEvent, CompanionServer};
use hector::testing::{
    MoveInput, OpponentAction, PageClocks, PageFlash, PageFlashKind, PageGameEnd, PageLastMove,
    PageNotice, PageSide, PageTactile, Snapshot,
};
use serde_json::json;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Position, Square};

use crate::browser::Browser;

fn server(require_code: bool) -> (CompanionServer, Receiver<CompanionEvent>) {
    let (tx, rx) = channel();
    let config = CompanionConfig {
        listen: "127.0.0.1:0".parse().expect("address"),
        require_code,
        ..CompanionConfig::default()
    };
    let server = CompanionServer::start(
        config,
        Box::new(move |e| {
            let _ = tx.send(e);
        }),
    )
    .expect("server starts");
    (server, rx)
}

/// The position after the UCI moves, and the snapshot of it for the
/// opponent (Black) with the last move in words.
fn after(moves: &[&str], words: &str) -> (Chess, Snapshot) {
    let mut pos = Chess::default();
    let mut last = None;
    for uci in moves {
        let m = uci
            .parse::<UciMove>()
            .expect("uci")
            .to_move(&pos)
            .expect("legal");
        last = Some(PageLastMove::new(&pos, &m, words));
        pos = pos.play(m).expect("legal");
    }
    let mut s = Snapshot::new(&pos, Color::Black);
    s.last_move = last;
    (pos, s)
}

/// The next event other than Connected (which may come at any time).
fn next_event(rx: &Receiver<CompanionEvent>) -> CompanionEvent {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(CompanionEvent::Connected) => continue,
            Ok(e) => return e,
            Err(_) => panic!("no event from the companion"),
        }
    }
}

fn drain(rx: &Receiver<CompanionEvent>) -> Vec<CompanionEvent> {
    rx.try_iter().collect()
}

#[test]
fn page_shows_the_move_and_board_and_sends_taps_and_typed_moves() {
    let (server, rx) = server(false);
    let url = server.url();
    let (_, snap) = after(&["e2e4"], "Bauer e2-e4");
    server.publish(&snap);

    let mut b = Browser::start();
    let p = b.new_page(&url);
    assert_eq!(b.wait_text(p, "#last-san", "e4"), "e4");
    assert_eq!(b.text(p, "#last-words"), "Bauer e2-e4");
    assert!(matches!(next_event(&rx), CompanionEvent::Paired(_)));
    b.wait_text(p, "#seat", "You play this game.");
    b.wait_text(p, "#turn", "Your move");
    // The board from Black's side: h1 top left, a8 bottom right.
    let first = b.eval(p, "document.querySelector('#board button').dataset.square");
    assert_eq!(first, json!("h1"));
    let last = b.eval(
        p,
        "[...document.querySelectorAll('#board button')].pop().dataset.square",
    );
    assert_eq!(last, json!("a8"));
    assert_eq!(
        b.attr(p, "[data-square=e4]", "data-piece").as_deref(),
        Some("P")
    );
    assert_eq!(
        b.attr(p, "[data-square=e2]", "data-piece").as_deref(),
        Some("")
    );
    let class = b.attr(p, "[data-square=e4]", "class").unwrap_or_default();
    assert!(class.contains("last"), "{class}");
    let label = b
        .attr(p, "[data-square=e4]", "aria-label")
        .unwrap_or_default();
    assert_eq!(label, "e4, white pawn, last move");
    assert_eq!(b.attr(p, "#last", "aria-live").as_deref(), Some("polite"));

    // A tap on a piece and its square.
    b.click(p, "[data-square=e7]");
    let class = b.attr(p, "[data-square=e5]", "class").unwrap_or_default();
    assert!(class.contains("target"), "e5 is a target: {class}");
    b.click(p, "[data-square=e5]");
    assert_eq!(
        next_event(&rx),
        CompanionEvent::Action(OpponentAction::Move(MoveInput::FromTo {
            from: Square::E7,
            to: Square::E5,
            promotion: None
        }))
    );
    // A typed move.
    b.fill(p, "#san", "Nf6");
    b.press(p, "#san", "Enter");
    assert_eq!(
        next_event(&rx),
        CompanionEvent::Action(OpponentAction::Move(MoveInput::San("Nf6".into())))
    );
    // The keyboard: arrows move over the board, Enter picks.
    b.click(p, "[data-square=g8]");
    b.click(p, "[data-square=g8]"); // picked and put back
    b.press(p, "[data-square=g8]", "ArrowDown"); // from Black's side rank 8 is at the bottom: off the board
    b.press(p, "[data-square=g8]", "ArrowUp");
    assert_eq!(b.cmd(json!({"op": "focused", "page": p})), json!("g7"));

    // The app's new state: the page follows.
    let (_, snap) = after(&["e2e4", "e7e5", "g1f3"], "Springer g1-f3");
    server.publish(&snap);
    b.wait_text(p, "#last-san", "Nf3");
    assert_eq!(
        b.attr(p, "[data-square=e5]", "data-piece").as_deref(),
        Some("p")
    );
    // Draw offer, tactile board differs, flash, clocks, notice.
    let mut s2 = snap.clone();
    s2.draw_offer = Some(PageSide::White);
    s2.tactile = PageTactile::Differs {
        squares: vec!["f3".into(), "g1".into()],
    };
    s2.flash = Some(PageFlash {
        kind: PageFlashKind::Mismatch,
        id: 1,
    });
    s2.clocks = Some(PageClocks {
        white_ms: 300_000,
        black_ms: 65_000,
        running: Some(PageSide::Black),
    });
    server.publish(&s2);
    b.wait_text(p, "#offer", "The player offers a draw.");
    b.wait_text(p, "#tactile", "differs on f3, g1");
    assert!(
        b.attr(p, "[data-square=g1]", "class")
            .unwrap_or_default()
            .contains("differ")
    );
    assert!(
        b.attr(p, "#flash", "class")
            .unwrap_or_default()
            .contains("mismatch")
    );
    b.wait_text(p, "#clock-player", "5:00");
    assert!(b.text(p, "#clock-you").contains("1:0"));
    if let Ok(dir) = std::env::var("HECTOR_SCREENSHOTS") {
        // For a person to look at: HECTOR_SCREENSHOTS=/tmp cargo test ...
        b.cmd(json!({"op": "eval", "page": p, "js": "new Promise(r => setTimeout(r, 1300))"}));
        let path = format!("{dir}/companion-page.png");
        b.cmd(json!({"op": "screenshot", "page": p, "path": path}));
    }
    b.click(p, "#accept-draw");
    assert_eq!(
        next_event(&rx),
        CompanionEvent::Action(OpponentAction::AcceptDraw)
    );

    // A reload mid-game: the whole state again, still the opponent, and
    // no "disconnected" (the grace time covers it).
    b.reload(p);
    b.wait_text(p, "#last-san", "Nf3");
    b.wait_text(p, "#seat", "You play this game.");
    b.wait_text(p, "#offer", "The player offers a draw.");
    assert!(
        !drain(&rx).contains(&CompanionEvent::Disconnected),
        "a reload is not a disconnection"
    );

    // The end.
    let mut s3 = snap.clone();
    s3.end = Some(PageGameEnd {
        result: "1-0".into(),
        reason: "Black resigned".into(),
        how: Default::default(),
    });
    s3.legal.clear();
    server.publish(&s3);
    // No words for the page's language: hector's own reason.
    b.wait_text(p, "#end", "Result 1-0. Black resigned.");
    // With them: the page's language, begun with a capital.
    if let Some(end) = s3.end.as_mut() {
        end.how
            .insert("en".into(), "white won, Black resigned".into());
    }
    server.publish(&s3);
    b.wait_text(p, "#end", "Result 1-0. White won, Black resigned.");
    assert_eq!(
        b.eval(p, "document.getElementById('resign').disabled"),
        json!(true)
    );
    assert!(b.errors().is_empty());
}

#[test]
fn second_opponent_is_refused_and_watches() {
    let (server, rx) = server(false);
    let (_, snap) = after(&["d2d4"], "Bauer d2-d4");
    server.publish(&snap);
    let mut b = Browser::start();
    let first = b.new_page(&server.url());
    b.wait_text(first, "#seat", "You play this game.");
    assert!(matches!(next_event(&rx), CompanionEvent::Paired(_)));
    let second = b.new_page(&server.url());
    b.wait_text(second, "#notice", "Another opponent is paired");
    b.wait_text(second, "#seat", "You are watching.");
    b.wait_text(second, "#last-san", "d4");
    // No controls for a watcher, and a tap does nothing.
    assert_eq!(
        b.eval(second, "document.getElementById('actions').hidden"),
        json!(true)
    );
    b.click(second, "[data-square=d7]");
    assert!(
        !b.attr(second, "[data-square=d7]", "class")
            .unwrap_or_default()
            .contains("selected")
    );
    std::thread::sleep(Duration::from_millis(200));
    let events = drain(&rx);
    assert!(
        events.iter().all(|e| *e == CompanionEvent::Connected),
        "the watcher reached the app: {events:?}"
    );
    // Released by the blind player: the first page can no longer act.
    server.release();
    let r = b.eval(
        first,
        "fetch('/api/move', {method: 'POST', headers: {'Content-Type': 'application/json', \
         'X-Hector-Token': localStorage.getItem('hector-token')}, body: JSON.stringify({san: 'd5'})}).then(r => r.status)",
    );
    assert_eq!(r, json!(401));
}

#[test]
fn wrong_pairing_code_is_refused() {
    let (server, rx) = server(true);
    let code = server.code().expect("a code is asked for");
    let (_, snap) = after(&["c2c4"], "Bauer c2-c4");
    server.publish(&snap);
    let mut b = Browser::start();
    let p = b.new_page(&server.url());
    b.wait_text(p, "#pair-h", "Pair with hector");
    assert_eq!(
        b.eval(p, "document.getElementById('pair').hidden"),
        json!(false)
    );
    // Without the code the page may not watch either.
    assert!(
        b.try_wait_text(p, "#last-san", "c4", Duration::from_millis(500))
            .is_err(),
        "the game is shown without the code"
    );
    let wrong = if code == "0000" { "1111" } else { "0000" };
    b.fill(p, "#code", wrong);
    b.click(p, "#pair-button");
    b.wait_text(p, "#pair-error", "Wrong code.");
    assert!(drain(&rx).is_empty(), "a wrong code reached the app");
    b.fill(p, "#code", &code);
    b.click(p, "#pair-button");
    b.wait_text(p, "#last-san", "c4");
    b.wait_text(p, "#seat", "You play this game.");
    assert!(matches!(next_event(&rx), CompanionEvent::Paired(_)));
}

#[test]
fn the_page_comes_back_by_itself_after_a_restart_of_hector() {
    let (first, _rx1) = server(false);
    let port = first.local_addr().port();
    let url = first.url();
    let (_, snap) = after(&["e2e4", "c7c5"], "Bauer c7-c5");
    first.publish(&snap);
    let mut b = Browser::start();
    let p = b.new_page(&url);
    b.wait_text(p, "#last-san", "c5");
    b.wait_text(p, "#seat", "You play this game.");
    // hector stops: the page says so and keeps trying.
    drop(first);
    let conn = b.eval(
        p,
        "new Promise(ok => { const t0 = Date.now(); (function w() { \
           const t = document.getElementById('conn').textContent; \
           if (!t.startsWith('Connected') || Date.now() - t0 > 5000) return ok(t); \
           setTimeout(w, 20); })(); })",
    );
    let conn = conn.as_str().unwrap_or_default().to_owned();
    assert!(
        conn.contains("Reconnecting") || conn.contains("Trying again"),
        "{conn}"
    );
    // hector is back on the same address (its game restored from the
    // journal, here a later state): the page shows it and pairs again.
    let (tx, rx) = channel();
    // The old listening socket may take a moment to go (the accept loop
    // ends on the runtime thread after the drop).
    let t0 = Instant::now();
    let again = loop {
        let tx = tx.clone();
        let started = CompanionServer::start(
            CompanionConfig {
                listen: format!("127.0.0.1:{port}").parse().expect("address"),
                ..CompanionConfig::default()
            },
            Box::new(move |e| {
                let _ = tx.send(e);
            }),
        );
        match started {
            Ok(s) => break s,
            Err(e) if t0.elapsed() < Duration::from_secs(5) => {
                let _ = e;
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(e) => panic!("the same port again: {e}"),
        }
    };
    let (_, snap) = after(&["e2e4", "c7c5", "g1f3"], "Springer g1-f3");
    again.publish(&snap);
    // (A request on a connection the stopped server still holds is given up
    // after 3 s; a real restart closes them all at once.)
    if let Err(e) = b.try_wait_text(p, "#last-san", "Nf3", Duration::from_secs(10)) {
        let state = b.eval(p, "[...['conn','seat','pair-error','notice','last-san'].map(i => i + '=' + document.getElementById(i).textContent), localStorage.getItem('hector-role')].join(' | ')");
        panic!("{e}: {state}");
    }
    b.wait_text(p, "#seat", "You play this game.");
    assert!(matches!(next_event(&rx), CompanionEvent::Paired(_)));
    // And it plays on.
    b.click(p, "[data-square=d7]");
    b.click(p, "[data-square=d6]");
    assert_eq!(
        next_event(&rx),
        CompanionEvent::Action(OpponentAction::Move(MoveInput::FromTo {
            from: Square::D7,
            to: Square::D6,
            promotion: None
        }))
    );
}

#[test]
fn a_quiet_or_waiting_board_is_shown_as_such_not_as_disconnected() {
    let (server, _rx) = server(false);
    let (_, mut snap) = after(&["e2e4"], "Bauer Eva vier");
    snap.tactile = PageTactile::Waiting;
    snap.opponent_board = PageTactile::Quiet;
    server.publish(&snap);
    let mut b = Browser::start();
    let p = b.new_page(&server.url());
    b.wait_text(p, "#tactile", "Waiting for the player's board to answer.");
    b.wait_text(
        p,
        "#your-board",
        "Your board is quiet; hector keeps asking it.",
    );
    snap.tactile = PageTactile::Quiet;
    snap.opponent_board = PageTactile::Disconnected;
    server.publish(&snap);
    b.wait_text(
        p,
        "#tactile",
        "The player's board is quiet; hector keeps asking it.",
    );
    b.wait_text(p, "#your-board", "Your board is not connected.");
    assert!(!b.text(p, "#tactile").contains("not connected"));
    assert!(b.errors().is_empty());
}

/// A page's word in its language, from the labels hector put in it.
fn label(b: &mut Browser, p: u64, lang: &str, key: &str) -> String {
    b.eval(p, &format!("LABELS.langs['{lang}']['{key}']"))
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

fn choose_language(b: &mut Browser, p: u64, lang: &str) {
    b.eval(
        p,
        &format!(
            "(() => {{ const s = document.getElementById('lang'); s.value = '{lang}'; \
             s.dispatchEvent(new Event('change')); }})()"
        ),
    );
}

/// Where the board stands in the window: (top, bottom, left, right,
/// window width, window height) in CSS pixels.
fn board_box(b: &mut Browser, p: u64) -> Vec<f64> {
    serde_json::from_value(b.eval(
        p,
        "(() => { const r = document.getElementById('board').getBoundingClientRect(); \
         return [r.top, r.bottom, r.left, r.right, innerWidth, innerHeight]; })()",
    ))
    .expect("numbers")
}

#[test]
fn phone_and_desktop_in_three_languages_board_in_first_screen_words_agree_audit_passes() {
    let (server, _rx) = server(false);
    let (_, mut snap) = after(&["e2e4"], "Bauer Eva vier");
    snap.clocks = Some(PageClocks {
        white_ms: 290_000,
        black_ms: 300_000,
        running: Some(PageSide::Black),
    });
    server.publish(&snap);
    let mut b = Browser::start();
    let shots = std::env::var("HECTOR_SCREENSHOTS").ok();
    // The opponent's page holds the seat; the others watch.
    let seat = b.new_page(&server.url());
    b.wait_text(seat, "#seat", "You play this game.");
    for lang in ["en", "de", "el"] {
        for (w, h) in [(390, 844), (844, 390), (360, 640), (640, 360), (1280, 800)] {
            let p = b.new_page_sized(&server.url(), w, h);
            b.wait_text(p, "#last-san", "e4");
            choose_language(&mut b, p, lang);
            let watching = label(&mut b, p, lang, "seat_watcher");
            b.wait_text(p, "#seat", &watching);
            // The status says connected in the page's language.
            let connected = label(&mut b, p, lang, "connected");
            b.wait_text(p, "#conn", &connected);
            if lang != "en" {
                assert_ne!(connected, label(&mut b, p, "en", "connected"));
            }
            // The whole board in the first screen.
            let r = board_box(&mut b, p);
            assert!(
                r[0] >= 0.0 && r[1] <= r[5] && r[2] >= 0.0 && r[3] <= r[4],
                "{lang} {w}x{h}: the board at {r:?}"
            );
            assert!(r[1] - r[0] >= 190.0, "{lang} {w}x{h}: a board of {r:?}");
            // Coordinates: the files on the bottom row, the ranks on the left.
            let coords = b.eval(
                p,
                "[...document.querySelectorAll('#board .co')].map(e => e.textContent).join('')",
            );
            // (From Black's side: rank 1 at the top, h on the left.)
            assert_eq!(coords, json!("12345678hgfedcba"), "{lang} {w}x{h}");
            // The clocks' names, visible.
            for (id, key) in [
                ("#clock-player", "clock_player"),
                ("#clock-you", "clock_opponent"),
            ] {
                let name = label(&mut b, p, lang, key);
                let shown = b.eval(
                    p,
                    &format!(
                        "(() => {{ const e = document.querySelector('{id} .clock-name'); \
                         const r = e.getBoundingClientRect(); \
                         return r.width > 0 && r.height > 0 ? e.textContent : ''; }})()"
                    ),
                );
                assert_eq!(shown, json!(name), "{lang} {w}x{h} {id}");
            }
            // One sentence says whose move it is; the last move says who
            // played it (a watcher is not told "your move").
            let turn = b.text(p, "#turn");
            let side = label(&mut b, p, lang, "black");
            assert_eq!(
                turn,
                label(&mut b, p, lang, "turn_opponents").replace("{side}", &side),
                "{lang} {w}x{h}"
            );
            let by = b.text(p, "#last-by");
            assert_eq!(
                by,
                label(&mut b, p, lang, "last_players").replace("{number}", "1")
            );
            // The refusal of the seat, in the page's language.
            let taken = label(&mut b, p, lang, "error_seat_taken");
            b.wait_text(p, "#notice", &taken);
            let audit = b.axe(p);
            assert!(audit.is_empty(), "{lang} {w}x{h}: {audit:#?}");
            if let Some(dir) = &shots {
                let path = format!("{dir}/page-{lang}-{w}x{h}.png");
                b.cmd(json!({"op": "screenshot", "page": p, "path": path, "first_screen": true}));
            }
            b.cmd(json!({"op": "close_page", "page": p}));
        }
    }
    // The opponent, in Greek: a tap out of turn gets a notice in Greek,
    // and the notice goes once the game moved on.
    choose_language(&mut b, seat, "el");
    let connected = label(&mut b, seat, "el", "connected");
    b.wait_text(seat, "#conn", &connected);
    let yours = label(&mut b, seat, "el", "turn_yours")
        .replace("{side}", &label(&mut b, seat, "el", "black"));
    b.wait_text(seat, "#turn", &yours);
    b.click(seat, "[data-square=e4]");
    let cannot = label(&mut b, seat, "el", "cannot_move");
    b.wait_text(seat, "#notice", &cannot);
    // A language change says it again in the new language.
    choose_language(&mut b, seat, "de");
    let cannot = label(&mut b, seat, "de", "cannot_move");
    b.wait_text(seat, "#notice", &cannot);
    let connected = label(&mut b, seat, "de", "connected");
    b.wait_text(seat, "#conn", &connected);
    let (_, mut snap) = after(&["e2e4", "e7e5", "g1f3"], "Springer Felix drei");
    snap.clocks = None;
    server.publish(&snap);
    b.wait_text(seat, "#last-san", "Nf3");
    assert_eq!(b.text(seat, "#notice"), "", "a stale notice stays");
    assert_eq!(
        b.text(seat, "#last-by"),
        label(&mut b, seat, "de", "last_players").replace("{number}", "2")
    );
    // hector's own notice, by its key: in the page's language (German),
    // and gone with the next move.
    let mut told = snap.clone();
    told.notice = Some(PageNotice {
        id: 7,
        text: "It is not your move.".into(),
        key: Some("companion_not_their_move".into()),
    });
    server.publish(&told);
    let want = label(&mut b, seat, "de", "notice_companion_not_their_move");
    assert_ne!(want, "It is not your move.");
    b.wait_text(seat, "#notice", &want);
    // The player's board differs and hector said so: the page says it is
    // being put right, not that it waits for the move.
    let mut fixing = snap.clone();
    fixing.tactile = PageTactile::Fixing {
        squares: vec!["d2".into(), "d4".into()],
        san: Some("Nf3".into()),
    };
    server.publish(&fixing);
    let want = label(&mut b, seat, "de", "tactile_fixing_then")
        .replace("{squares}", "d2, d4")
        .replace("{san}", "Nf3");
    b.wait_text(seat, "#tactile", &want);
    assert!(
        b.attr(seat, "[data-square=d4]", "class")
            .unwrap_or_default()
            .contains("differ")
    );
    let audit = b.axe(seat);
    assert!(audit.is_empty(), "the opponent's page: {audit:#?}");
    // Keyboard only: Tab reaches the board, arrows move, Enter picks a
    // piece and its square.
    let square = |v: &serde_json::Value| {
        v.as_str().is_some_and(|s| {
            s.len() == 2 && s.as_bytes()[0].is_ascii_lowercase() && s.as_bytes()[1].is_ascii_digit()
        })
    };
    let mut reached = None;
    for _ in 0..20 {
        b.cmd(json!({"op": "keyboard", "page": seat, "key": "Tab"}));
        let f = b.cmd(json!({"op": "focused", "page": seat}));
        if square(&f) {
            reached = Some(f);
            break;
        }
    }
    let Some(first) = reached else {
        panic!("Tab reaches the board")
    };
    b.cmd(json!({"op": "keyboard", "page": seat, "key": "ArrowLeft"}));
    let next = b.cmd(json!({"op": "focused", "page": seat}));
    assert!(square(&next) && next != first, "{first} then {next}");
    let reached = true;
    assert!(reached, "Tab reaches the board");
    assert!(b.errors().is_empty());
}
