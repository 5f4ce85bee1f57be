//! Any text as a user's voices files (messages and move words): nothing
//! panics, a file that cannot be used gives an error said as a sentence,
//! and the built-in words are used instead of a broken voices file.
#![no_main]

use hector::{Lang, MoveOptions, MoveStyle, Phraser};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for style in [MoveStyle::AppendixD, MoveStyle::Language] {
        let (phraser, errors) = Phraser::load_or_builtin(
            style,
            Lang::De,
            Some(("m.toml", text)),
            Some(("v.toml", text)),
            MoveOptions::default(),
        );
        for e in &errors {
            assert!(!phraser.voice_error(e).is_empty());
        }
        // The phrasing works whatever the file said.
        let pos = shakmaty::Chess::default();
        let _ = phraser.turn(&pos);
    }
});
