//! Any text as a user's settings file and keymap file, read the way
//! start-up reads them (`read_settings`: every bad key reported and the
//! rest kept, not the strict `Config::parse`): nothing panics; every
//! problem names the file and is said as a sentence; a keymap file that
//! cannot be used gives an error that names the file.  (The voices files:
//! the `voices` target; building a phraser per input held this target to
//! 20 inputs a second.)
#![no_main]

use std::sync::OnceLock;

use hector::{Keymap, Lang, MoveOptions, MoveStyle, Phraser};
use libfuzzer_sys::fuzz_target;

fn phraser() -> &'static Phraser {
    static P: OnceLock<Phraser> = OnceLock::new();
    P.get_or_init(|| Phraser::builtin(MoveStyle::AppendixD, Lang::En, MoveOptions::default()))
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (_config, problems) = hector::testing::read_settings("c.toml", text);
    for p in &problems {
        assert_eq!(p.file, "c.toml");
        assert!(!phraser().setting_error(p).is_empty());
    }
    if let Err(e) = Keymap::parse("k.toml", text) {
        assert_eq!(e.file, "k.toml");
    }
});
