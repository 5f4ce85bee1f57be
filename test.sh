#!/usr/bin/env bash
# Install what is missing, then run every test (unit, integration, and the
# bounded property tests); the benches are compiled and each run once.
set -euo pipefail
cd "$(dirname "$0")"
scripts/deps.sh
# Each test binary runs as many tests at once as there are cores (cargo's
# default; RUST_TEST_THREADS=N to choose).  More would finish the waiting
# integration tests sooner, but on a crowded machine the tests with real
# deadlines (an engine's handshake said as waited for after 2 s, latency
# limits) then fail: measured in benches/RESULTS.md#ci.
# test-support: the fake speech backend, for the speech benchmark.
exec cargo test --all-targets --features test-support "$@"
