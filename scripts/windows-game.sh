#!/usr/bin/env bash
# A whole game in line mode with printed speech, in each of hector's four
# languages: hector.exe under Wine must say what the Linux binary says, line
# for line and byte for byte (UTF-8: German, Italian, Greek).
#   scripts/windows-game.sh target/x86_64-pc-windows-gnu/release/hector.exe
set -euo pipefail
cd "$(dirname "$0")/.."
exe="$1"
linux=target/debug/hector
# Up to date with the source (as ./test.sh builds it: nothing to do after it).
cargo build --features test-support --bin hector >&2
export WINEPREFIX="${WINEPREFIX:-$PWD/target/wine}" WINEDEBUG=-all WINEARCH=win64
scripts/windows.sh prefix

# Morphy against the Duke and the Count, Paris 1858: captures, checks, long
# castling, mate; then a move after the end, the last moves and the
# material read back, and the help.
script='e4
e5
Nf3
d6
d4
Bg4
dxe5
Bxf3
Qxf3
dxe5
Bc4
Nf6
Qb3
Qe7
Nc3
c6
Bg5
b5
Nxb5
cxb5
Bxb5+
Nbd7
O-O-O
Rd8
Rxd7
Rxd7
Rd1
Qe6
Bxd7+
Nxd7
Qb8+
Nxb8
Rd8#
a6
last 6
material
help
'
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
for lang in en de it el; do
  for side in linux windows; do
    home="$work/$side-$lang"
    mkdir -p "$home"
    if [ "$side" = linux ]; then run=("$linux"); else run=(wine "$exe"); fi
    printf '%s' "$script" |
      XDG_CONFIG_HOME="$home" XDG_DATA_HOME="$home" HOME="$home" \
        "${run[@]}" play --lang "$lang" --speech print --no-sound \
        >"$work/$side-$lang.out" 2>"$work/$side-$lang.err" || {
      echo "windows game ($lang): $side exited with $?" >&2
      failed=1
    }
  done
  lines=$(wc -l <"$work/linux-$lang.out")
  if [ "$lines" -lt 30 ]; then
    echo "windows game ($lang): the Linux binary said only $lines lines" >&2
    failed=1
  elif ! cmp -s "$work/linux-$lang.out" "$work/windows-$lang.out"; then
    echo "windows game ($lang): hector.exe under Wine says otherwise:" >&2
    diff "$work/linux-$lang.out" "$work/windows-$lang.out" >&2 || true
    failed=1
  elif [ -s "$work/windows-$lang.err" ]; then
    echo "windows game ($lang): hector.exe wrote errors:" >&2
    cat "$work/windows-$lang.err" >&2
    failed=1
  else
    echo "windows game ($lang): $lines lines, the same as on Linux" >&2
    sed -n '1p;$p' "$work/windows-$lang.out" | sed 's/^/  /' >&2
  fi
done
exit "$failed"
