//! Any sequence of requests to the opponent's page server, sans-IO: each
//! request (separated by a NUL byte) is a first line `METHOD TARGET`,
//! header lines `Name: value`, an empty line and a body.  They are read by
//! `hector::testing::parse_companion_request`, decided by the pairing gate, and what gets
//! through goes to the app like the page's actions.  Nothing may panic;
//! a refusal has a status of 4xx; what the page is then shown serializes.
#![no_main]

use std::net::{IpAddr, Ipv4Addr};
use std::time::{Duration, Instant};

use hector::{App, Msg};
use hector::testing::{CompanionLimits, Gate, GateAnswer as Answer, GateConfig, parse_companion_request as parse};
use libfuzzer_sys::fuzz_target;

fn request(raw: &[u8]) -> (String, String, Vec<(String, String)>, Vec<u8>) {
    let (head, body) = match raw.windows(2).position(|w| w == b"\n\n") {
        Some(i) => (&raw[..i], &raw[i + 2..]),
        None => (raw, &[][..]),
    };
    let head = String::from_utf8_lossy(head);
    let mut lines = head.lines();
    let first = lines.next().unwrap_or_default();
    let (method, target) = first.split_once(' ').unwrap_or((first, "/"));
    let headers = lines
        .map(|l| {
            let (n, v) = l.split_once(':').unwrap_or((l, ""));
            (n.trim().to_owned(), v.trim().to_owned())
        })
        .collect();
    (method.to_owned(), target.to_owned(), headers, body.to_vec())
}

fuzz_target!(|data: &[u8]| {
    let t0 = Instant::now();
    let mut gate = Gate::new(
        GateConfig {
            listen: "127.0.0.1:8421".parse().expect("address"),
            view_without_code: false,
            require_code: data.first().is_some_and(|b| b & 1 == 1),
            limits: CompanionLimits::default(),
            host_names: Vec::new(),
        },
        // Tokens and codes the seeds can know: every byte 7.
        Box::new(|b: &mut [u8]| b.fill(7)),
    );
    // The app only once something gets through the gate: most inputs are
    // refused before it, and the fuzzer's time goes to the parser and gate.
    let mut app: Option<App> = None;
    for (i, raw) in data.split(|b| *b == 0).take(64).enumerate() {
        let (method, target, headers, body) = request(raw);
        let refs: Vec<(&str, &str)> = headers
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect();
        let parsed = parse(&method, &target, &refs, &body);
        let now = t0 + Duration::from_millis(i as u64 * 50);
        let (answer, events) = gate.decide(IpAddr::V4(Ipv4Addr::LOCALHOST), parsed, now);
        if let Answer::Refused(e) = &answer {
            assert!((400..500).contains(&e.status()), "{e:?}");
            assert!(!e.to_json().is_empty());
        }
        let _ = gate.tick(now);
        if events.is_empty() {
            continue;
        }
        let app = app.get_or_insert_with(|| App::builder().build());
        for e in events {
            let _ = app.update(Msg::Companion(e), now);
        }
        assert!(app.companion_snapshot().to_json().starts_with('{'));
    }
});
