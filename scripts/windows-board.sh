#!/usr/bin/env bash
# A DGT board under Wine: the Linux board simulator on a pseudo-terminal,
# which Wine's COM5 points at ($WINEPREFIX/dosdevices/com5 -> /dev/pts/N),
# and hector.exe --board dgt:COM5 must announce the moves made on it.
#   scripts/windows-board.sh target/x86_64-pc-windows-gnu/release/hector.exe [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
exe="$1"
runs="${2:-1}"
export WINEPREFIX="${WINEPREFIX:-$PWD/target/wine}" WINEDEBUG=-all WINEARCH=win64
scripts/windows.sh prefix
linux=target/debug/hector
# Up to date with the source (as ./test.sh builds it: nothing to do after it).
cargo build --features test-support --bin hector >&2
work=$(mktemp -d)
sim_pid=""
cleanup() {
  [ -n "$sim_pid" ] && kill "$sim_pid" 2>/dev/null || true
  rm -f "$WINEPREFIX/dosdevices/com5"
  rm -rf "$work"
}
trap cleanup EXIT
printf 'e4\ne5\nNf3\n' >"$work/moves"
want=$'New game. White to move.\nBoard connected.\nBauer Eva vier\nBauer Eva fünf\nSpringer Felix drei'
failed=0
for run in $(seq 1 "$runs"); do
  t0=$SECONDS
  rm -f "$WINEPREFIX/dosdevices/com5"
  # The board plays its moves 2 s apart, from 6 s on: hector.exe is
  # connected by then (Wine starts in about 2 s); hector's input ends at
  # 15 s, the board's at 16 s.
  (sleep 6; while read -r m; do echo "$m"; sleep 2; done <"$work/moves"; sleep 4) |
    "$linux" board sim --protocol dgt --link "$WINEPREFIX/dosdevices/com5" >"$work/sim" 2>&1 &
  sim_pid=$!
  for _ in $(seq 50); do [ -L "$WINEPREFIX/dosdevices/com5" ] && break; sleep 0.1; done
  home="$work/home-$run"
  mkdir -p "$home"
  sleep 15 | XDG_CONFIG_HOME="$home" XDG_DATA_HOME="$home" \
    timeout 40 wine "$exe" play --board dgt:COM5 --speech print --no-sound \
    >"$work/out" 2>"$work/err" || true
  kill "$sim_pid" 2>/dev/null || true
  wait "$sim_pid" 2>/dev/null || true
  sim_pid=""
  if [ "$(cat "$work/out")" = "$want" ]; then
    echo "windows board: run $run: the three moves on the board announced ($((SECONDS - t0)) s)" >&2
  else
    echo "windows board: run $run: hector.exe said otherwise:" >&2
    cat "$work/out" "$work/err" >&2
    echo "--- the simulator:" >&2
    cat "$work/sim" >&2
    failed=1
  fi
done
exit "$failed"
