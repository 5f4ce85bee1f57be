#!/usr/bin/env bash
# Install what is missing, then run every test (unit, integration, and the
# bounded property tests).
set -euo pipefail
cd "$(dirname "$0")"
scripts/deps.sh
# test-support: the fake speech backend, for the speech benchmark.
exec cargo test --all-targets --features test-support "$@"
