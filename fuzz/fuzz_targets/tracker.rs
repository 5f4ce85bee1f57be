//! Any bytes through every decoder into a tracker, with time stepping by
//! the bytes themselves: nothing panics, and the tracker's position stays
//! a legal game position.
#![no_main]

use std::time::{Duration, Instant};

use hector::io::Protocol;
use hector::testing::{Decoder, Tracker, TrackerConfig};
use libfuzzer_sys::fuzz_target;
use shakmaty::{Chess, Position, Role};

fuzz_target!(|data: &[u8]| {
    let start = Instant::now();
    for protocol in Protocol::ALL {
        let mut decoder = protocol.decoder();
        let mut tracker = Tracker::new(Chess::new(), TrackerConfig::default());
        let mut now = start;
        for chunk in data.chunks(16) {
            now += Duration::from_millis(u64::from(chunk[0] % 64) * 10);
            for event in decoder.feed(chunk) {
                let _ = tracker.feed(&event, now);
            }
            let _ = tracker.tick(now);
            if tracker.pending_promotion().is_some() {
                let _ = tracker.promote(Role::Queen);
            }
        }
        assert!(tracker.position().legal_moves().len() <= 218);
    }
});
