#!/usr/bin/env bash
# Runs every cargo-fuzz target for a bounded time from its committed seed
# corpus (fuzz/seeds/TARGET; new inputs go to fuzz/corpus/TARGET, ignored by
# git).  Needs a nightly toolchain and cargo-fuzz (installed from crates.io
# when missing): without them it says why and fails (exit 1), so that a CI
# step that cannot fuzz never passes as if it had.  A target that finds a
# failure fails the script too.
#
#   scripts/fuzz.sh                 every target, FUZZ_SECONDS (30) each
#   FUZZ_SECONDS=600 scripts/fuzz.sh tracker
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
seconds="${FUZZ_SECONDS:-30}"
if ! cargo +nightly --version >/dev/null 2>&1; then
  echo "fuzz: no nightly toolchain (cargo +nightly): cannot fuzz." >&2
  exit 1
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
  if ! cargo install cargo-fuzz --locked || ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    echo "fuzz: cargo-fuzz is missing and could not be installed: cannot fuzz." >&2
    exit 1
  fi
fi
targets=("$@")
if ((${#targets[@]} == 0)); then
  targets=(dgt millennium occupancy tracker typed_line settings voices companion companion_http journal)
fi
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t"
  echo "fuzz: $t for ${seconds} s"
  cargo +nightly fuzz run "$t" "corpus/$t" "seeds/$t" -- \
    -max_total_time="$seconds" -print_final_stats=1 -rss_limit_mb=2048
done
