#!/usr/bin/env bash
# Runs every cargo-fuzz target for a bounded time from its committed seed
# corpus (fuzz/seeds/TARGET; new inputs go to fuzz/corpus/TARGET, ignored by
# git).  Needs a nightly toolchain and cargo-fuzz (installed from crates.io
# when missing): without them it says why and fails (exit 1), so that a CI
# step that cannot fuzz never passes as if it had.  A target that finds a
# failure fails the script too.
#
# The targets are built once, then run FUZZ_JOBS at a time (default: the
# number of processors), each for FUZZ_SECONDS: a fuzzer keeps one processor
# busy, so on 2 cores two at once take half the wall time and each still
# gets its whole time.  Each target's output is printed when it ends.
#
#   scripts/fuzz.sh                 every target, FUZZ_SECONDS (30) each
#   FUZZ_SECONDS=600 scripts/fuzz.sh tracker
#   FUZZ_JOBS=1 scripts/fuzz.sh     one target at a time
#   FUZZ_BUILD_ONLY=1 scripts/fuzz.sh   build the targets and stop
#
# CI's smoke runs (.ci/run) choose two build options for every target:
#   FUZZ_SANITIZER=address   one sanitizer for all, so one build serves all
#                            (the per-target choice below makes two builds);
#   FUZZ_CODEGEN_UNITS=16    a faster build (cargo-fuzz's default of one unit
#                            makes faster fuzzers, which long runs want).
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
seconds="${FUZZ_SECONDS:-30}"
jobs="${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}"
if ! [[ "$jobs" =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz: FUZZ_JOBS must be a whole number from 1, not \"$jobs\"." >&2
  exit 1
fi
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
  targets=(dgt millennium occupancy chessnut pegasus tracker typed_line settings voices companion companion_http journal pgn lichess_event lichess_game)
fi
# Per target: the sanitizer and the longest input where the defaults only
# slow a target down.  typed_line and settings run hector's safe Rust (its
# unsafe code, the ALSA silencer and the serial port, is not on their paths),
# where AddressSanitizer finds little that bounds checks do not: without it
# typed_line ran 2.4 times as fast (debug assertions and overflow checks stay
# on).  typed_line: inputs up to 512
# bytes, a few dozen typed lines (a line is at most a few words); at 4 KB one
# input costs about four times as much.  settings: inputs
# up to 1 KB, a settings or key map file of 30 to 40 lines (the seed's is 194
# bytes); the forgiving reader parses the whole file again for each bad line,
# so at 4 KB an input costs four times as much, all of it the TOML parser.
# Those two are built into a target folder of their own, so that neither
# build undoes the other.
build_options() {
  local units="${FUZZ_CODEGEN_UNITS:+ --codegen-units $FUZZ_CODEGEN_UNITS}"
  if [[ -n "${FUZZ_SANITIZER:-}" ]]; then
    echo "-s $FUZZ_SANITIZER$units"
    return
  fi
  case "$1" in
    typed_line | settings) echo "-s none --target-dir target/no-sanitizer$units" ;;
    *) echo "-s address$units" ;;
  esac
}
max_len() {
  case "$1" in
    typed_line) echo 512 ;;
    settings) echo 1024 ;;
    *) echo 0 ;; # libFuzzer's default
  esac
}
# One build for all of them: the runs below find it done.
for t in "${targets[@]}"; do
  # shellcheck disable=SC2046 # the options are words
  cargo +nightly fuzz build $(build_options "$t") "$t"
done
if [[ -n "${FUZZ_BUILD_ONLY:-}" ]]; then
  echo "fuzz: ${#targets[@]} targets built"
  exit 0
fi
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
failed=()
# pid -> target of the runs under way
declare -A running=()
finish() { # wait for one run to end, print its output, note a failure
  local pid t
  wait -n -p pid "${!running[@]}" && rc=0 || rc=$?
  t="${running[$pid]}"
  unset "running[$pid]"
  echo "fuzz: $t ended (exit $rc)"
  cat "$logs/$t.log"
  ((rc == 0)) || failed+=("$t")
}
for t in "${targets[@]}"; do
  while ((${#running[@]} >= jobs)); do finish; done
  mkdir -p "corpus/$t"
  echo "fuzz: $t for ${seconds} s ($(build_options "$t"), max_len $(max_len "$t"))"
  # shellcheck disable=SC2046 # the options are words
  cargo +nightly fuzz run $(build_options "$t") "$t" "corpus/$t" "seeds/$t" -- \
    -max_total_time="$seconds" -print_final_stats=1 -rss_limit_mb=2048 -max_len="$(max_len "$t")" \
    >"$logs/$t.log" 2>&1 &
  running[$!]="$t"
done
while ((${#running[@]} > 0)); do finish; done
if ((${#failed[@]})); then
  echo "fuzz: failed: ${failed[*]} (the inputs are in fuzz/artifacts/)" >&2
  exit 1
fi
echo "fuzz: ${#targets[@]} targets, ${seconds} s each, no failure"
