//! Any bytes, split anywhere: the pegasus decoder never panics and gives the
//! same events however the stream is split.
#![no_main]

use hector::testing::{Decoder, PegasusDecoder};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&cut, bytes)) = data.split_first() else {
        return;
    };
    let whole = PegasusDecoder::new().feed(bytes);
    let cut = usize::from(cut).min(bytes.len());
    let mut split = PegasusDecoder::new();
    let mut events = split.feed(&bytes[..cut]);
    events.extend(split.feed(&bytes[cut..]));
    assert_eq!(whole, events);
});
