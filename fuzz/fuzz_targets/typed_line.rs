//! Any typed line, in the start position and after a few moves: the app
//! never panics and answers a line that is not a command word with one
//! sentence (a move made with a draw offer also says the offer).
//!
//! The parts of the app (its words, the reader of moves, the key map) are
//! made once, in the first input, and every input starts a new app from
//! them: building them per input held a run to 81 inputs a second.
#![no_main]

use std::sync::OnceLock;
use std::time::Instant;

use hector::{App, AppBuilder, Effect, Keymap, Lang, MoveOptions, MoveStyle, Msg, Phraser, Reader};
use libfuzzer_sys::fuzz_target;

/// The parts every input's app is built from, and the key map the
/// command words are looked up in.
fn parts() -> &'static (AppBuilder, Keymap) {
    static PARTS: OnceLock<(AppBuilder, Keymap)> = OnceLock::new();
    PARTS.get_or_init(|| {
        let lang = Lang::En;
        let builder = App::builder()
            .phraser(Phraser::builtin(MoveStyle::AppendixD, lang, MoveOptions::default()))
            .reader(Reader::builtin(lang))
            .keymap(Keymap::builtin());
        (builder, Keymap::builtin())
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (builder, keymap) = parts();
    let mut app = builder.clone().build();
    for line in text.lines() {
        let first = line.split_whitespace().next().unwrap_or("");
        let is_command = keymap.command(first).is_some();
        let effects = app.update(Msg::Line(line.to_owned()), Instant::now());
        let said = effects.iter().filter(|e| matches!(e, Effect::Say(_))).count();
        if !is_command && app.game().result().is_none() {
            let offer = app.game().pending_offer().is_some();
            assert!(said == 1 || (offer && said == 2), "{line:?}: {said}");
        }
    }
});
