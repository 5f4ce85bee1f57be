#!/usr/bin/env bash
# Runs every cargo-fuzz target for a bounded time from its committed seed
# corpus (fuzz/seeds/TARGET; new inputs go to fuzz/corpus/TARGET, ignored by
# git).  Needs a nightly toolchain: without one it says so and does nothing
# (the proptests cover the same code on stable).  Installs cargo-fuzz from
# crates.io when it is missing.
#
#   scripts/fuzz.sh                 every target, FUZZ_SECONDS (30) each
#   FUZZ_SECONDS=600 scripts/fuzz.sh tracker
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
seconds="${FUZZ_SECONDS:-30}"
if ! cargo +nightly --version >/dev/null 2>&1; then
  echo "fuzz: no nightly toolchain (cargo +nightly); the fuzz targets are skipped."
  exit 0
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked
fi
targets=("$@")
if ((${#targets[@]} == 0)); then
  targets=(dgt millennium occupancy tracker typed_line settings companion companion_http)
fi
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t"
  echo "fuzz: $t for ${seconds} s"
  cargo +nightly fuzz run "$t" "corpus/$t" "seeds/$t" -- \
    -max_total_time="$seconds" -print_final_stats=1 -rss_limit_mb=2048
done
