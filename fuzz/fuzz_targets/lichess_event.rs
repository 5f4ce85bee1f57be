//! Any bytes as lichess's account event stream (`/api/stream/event`): cut
//! into lines by `Lines` in two pieces at any byte (the first two bytes of
//! the input choose the cut), each line decoded.  Never a panic; the lines
//! are the same however the bytes are cut; no line kept is longer than
//! `Lines::MAX`; a line that decodes decodes the same again.
#![no_main]

use hector::testing::{LichessLines, lichess_account_line};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (cut, bytes) = match data {
        [a, b, rest @ ..] => (usize::from(u16::from_le_bytes([*a, *b])), rest),
        _ => (0, data),
    };
    let cut = cut.min(bytes.len());
    let whole = LichessLines::default().push(bytes);
    let mut two = LichessLines::default();
    let mut cut_lines = two.push(&bytes[..cut]);
    cut_lines.extend(two.push(&bytes[cut..]));
    assert_eq!(whole, cut_lines, "the same lines however cut");
    for line in whole.into_iter().flatten() {
        assert!(line.len() <= LichessLines::MAX);
        let first = lichess_account_line(&line);
        assert_eq!(first, lichess_account_line(&line));
    }
});
