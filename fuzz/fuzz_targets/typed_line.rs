//! Any typed line, in the start position and after a few moves: the app
//! never panics and answers a line that is not a command word with one
//! sentence (a move made with a draw offer also says the offer).
#![no_main]

use std::time::Instant;

use hector::{App, Effect, Msg};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut app = App::builder().build();
    for line in text.lines() {
        let first = line.split_whitespace().next().unwrap_or("");
        let is_command = hector::Keymap::builtin().command(first).is_some();
        let effects = app.update(Msg::Line(line.to_owned()), Instant::now());
        let said = effects.iter().filter(|e| matches!(e, Effect::Say(_))).count();
        if !is_command && app.game().result().is_none() {
            let offer = app.game().pending_offer().is_some();
            assert!(said == 1 || (offer && said == 2), "{line:?}: {said}");
        }
    }
});
