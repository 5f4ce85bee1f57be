#!/usr/bin/env bash
# Install what is missing, then run every test (unit, integration, and the
# bounded property tests); the benches are compiled and each run once.
set -euo pipefail
cd "$(dirname "$0")"
scripts/deps.sh
# The integration tests mostly wait (for hector, a board, a browser, an
# engine): more of them at once than there are cores.  Tests that must not
# overlap take a lock of their own (util::PTY_LOCK, speech_real's SERIAL).
# RUST_TEST_THREADS=2 (or any number) to choose.
export RUST_TEST_THREADS="${RUST_TEST_THREADS:-6}"
# test-support: the fake speech backend, for the speech benchmark.
exec cargo test --all-targets --features test-support "$@"
