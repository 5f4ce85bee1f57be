//! Any text as a user's settings file, keymap file and voices file, read
//! the way start-up reads them (`read_settings`: every bad key reported
//! and the rest kept, not the strict `Config::parse`): nothing panics;
//! every problem names the file and is said as a sentence; a file that
//! cannot be used gives an error that names the file, and the built-in
//! words are used instead of a broken voices file.
#![no_main]

use hector::{Keymap, Lang, MoveOptions, MoveStyle, Phraser};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (_config, problems) = hector::read_settings("c.toml", text);
    let phraser = Phraser::builtin(MoveStyle::AppendixD, Lang::En, MoveOptions::default());
    for p in &problems {
        assert_eq!(p.file, "c.toml");
        assert!(!phraser.setting_error(p).is_empty());
    }
    if let Err(e) = Keymap::parse("k.toml", text) {
        assert_eq!(e.file, "k.toml");
    }
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
