//! Any typed line, in the start position and after a few moves: the app
//! never panics and answers a line that is not a command word with one
//! sentence (a move made with a draw offer also says the offer; a move
//! that declines the opponent's offer also says that it lapsed).
//!
//! One app serves every input: built once, then reset to a new game
//! before each input (`App::reset`: its words, reader of moves and key map
//! kept).  Building an app per input held a run to 81 inputs a second.
#![no_main]

use std::cell::RefCell;
use std::time::Instant;

use hector::{App, Effect, Keymap, Msg};
use libfuzzer_sys::fuzz_target;

thread_local! {
    static APP: RefCell<(App, Keymap)> = RefCell::new((App::builder().build(), Keymap::builtin()));
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    APP.with_borrow_mut(|(app, keymap)| {
        app.reset();
        for line in text.lines() {
            let first = line.split_whitespace().next().unwrap_or("");
            let is_command = keymap.command(first).is_some();
            let offer_before = app.game().pending_offer().is_some();
            let effects = app.update(Msg::Line(line.to_owned()), Instant::now());
            let said = effects.iter().filter(|e| matches!(e, Effect::Say(_))).count();
            if !is_command && app.game().result().is_none() {
                let offer = offer_before || app.game().pending_offer().is_some();
                assert!(said == 1 || (offer && said == 2), "{line:?}: {said}");
            }
        }
    });
});
