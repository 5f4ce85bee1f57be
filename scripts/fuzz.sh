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
  # The two without AddressSanitizer last: switching sanitizers rebuilds.
  targets=(dgt millennium occupancy tracker voices companion companion_http journal typed_line settings)
fi
# Per target: the sanitizer and the longest input where the defaults only
# slow a target down.  typed_line and settings run hector's safe Rust and the
# safe parts of shakmaty and toml, where AddressSanitizer finds nothing that
# bounds checks do not: without it they run more than twice as fast (debug
# assertions and overflow checks stay on).  typed_line: inputs up to 512
# bytes, a few dozen typed lines (a line is at most a few words); at 4 KB one
# input costs about four times as much and reaches nothing new.  settings: inputs
# up to 1 KB, a settings or key map file of 30 to 40 lines (the seed's is 194
# bytes); the forgiving reader parses the whole file again for each bad line,
# so at 4 KB an input costs four times as much, all of it the TOML parser.
sanitizer() {
  case "$1" in
    typed_line | settings) echo none ;;
    *) echo address ;;
  esac
}
max_len() {
  case "$1" in
    typed_line) echo 512 ;;
    settings) echo 1024 ;;
    *) echo 0 ;; # libFuzzer's default
  esac
}
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t"
  echo "fuzz: $t for ${seconds} s (sanitizer $(sanitizer "$t"), max_len $(max_len "$t"))"
  cargo +nightly fuzz run -s "$(sanitizer "$t")" "$t" "corpus/$t" "seeds/$t" -- \
    -max_total_time="$seconds" -print_final_stats=1 -rss_limit_mb=2048 -max_len="$(max_len "$t")"
done
