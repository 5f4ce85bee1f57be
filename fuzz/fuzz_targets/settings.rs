//! Any bytes as a user's settings file and keymap file, read the way
//! start-up reads them (`settings_text_of`: a line that is not UTF-8 costs
//! that line; `read_settings`: every bad key reported and the
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
    // Any bytes, as start-up reads them: a line that is not UTF-8 costs
    // that line only, named with its line, and every other line keeps its
    // number.
    let (text, damaged) = hector::testing::settings_text_of("c.toml", data);
    assert_eq!(
        text.matches('\n').count(),
        data.iter().filter(|&&b| b == b'\n').count()
    );
    for p in &damaged {
        assert!(p.line.is_some());
    }
    let (_config, problems) = hector::testing::read_settings("c.toml", &text);
    for p in damaged.iter().chain(&problems) {
        assert_eq!(p.file, "c.toml");
        assert!(!phraser().setting_error(p).is_empty());
    }
    if let Err(e) = Keymap::parse("k.toml", &text) {
        assert_eq!(e.file, "k.toml");
    }
});
