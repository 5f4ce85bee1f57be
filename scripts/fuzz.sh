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
  targets=(dgt millennium occupancy tracker typed_line settings voices companion companion_http journal)
fi
# One build for all of them: the runs below find it done.
for t in "${targets[@]}"; do
  cargo +nightly fuzz build "$t"
done
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
  echo "fuzz: $t for ${seconds} s"
  cargo +nightly fuzz run "$t" "corpus/$t" "seeds/$t" -- \
    -max_total_time="$seconds" -print_final_stats=1 -rss_limit_mb=2048 \
    >"$logs/$t.log" 2>&1 &
  running[$!]="$t"
done
while ((${#running[@]} > 0)); do finish; done
if ((${#failed[@]})); then
  echo "fuzz: failed: ${failed[*]} (the inputs are in fuzz/artifacts/)" >&2
  exit 1
fi
echo "fuzz: ${#targets[@]} targets, ${seconds} s each, no failure"
