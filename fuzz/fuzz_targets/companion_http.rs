//! The companion server's HTTP path as the network reaches it: any bytes
//! on one connection, through hyper (its parser, the head's size and line
//! limits), the server's body limit, the request reader and the pairing
//! gate (`hector::testing::serve_companion_bytes`, an in-memory stream, the same
//! code as on a socket).  Nothing may panic or hang; whatever is answered
//! is one HTTP/1.1 (or 1.0) response with a status the server gives (no 5xx but the
//! watchers' 503).
#![no_main]

use hector::testing::serve_companion_bytes;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let out = serve_companion_bytes(data);
    if out.is_empty() {
        // Closed without an answer (hyper gives up on some garbage).
        return;
    }
    let text = String::from_utf8_lossy(&out);
    // HTTP/1.0 is answered as HTTP/1.0.
    let status: u16 = text
        .strip_prefix("HTTP/1.1 ")
        .or_else(|| text.strip_prefix("HTTP/1.0 "))
        .and_then(|r| r.get(..3))
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("not a response: {text:?}"));
    assert!(
        (200..500).contains(&status) || status == 503,
        "status {status}: {text:?}"
    );
});
