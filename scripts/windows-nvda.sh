#!/usr/bin/env bash
# The NVDA route end to end under Wine: a stand-in controller client
# (tests/support/fake_nvda.c: "NVDA runs", and it writes down what it is
# handed) beside a copy of hector.exe; a short game with speech on must be
# said "through NVDA" and every sentence must reach the client.
#   scripts/windows-nvda.sh target/x86_64-pc-windows-gnu/release/hector.exe
set -euo pipefail
cd "$(dirname "$0")/.."
exe="$1"
export WINEPREFIX="${WINEPREFIX:-$PWD/target/wine}" WINEDEBUG=-all WINEARCH=win64
scripts/windows.sh prefix
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$exe" "$work/hector.exe"
x86_64-w64-mingw32-gcc -shared -O2 -Wl,--kill-at -o "$work/nvdaControllerClient.dll" \
  tests/support/fake_nvda.c
export HECTOR_FAKE_NVDA_LOG="$work/nvda.log" XDG_CONFIG_HOME="$work" XDG_DATA_HOME="$work"
# A player's pace: the moves come once hector has started and said how it
# speaks, each after the last was said (a script's lines all at once would
# end the session before that).
{
  sleep 6
  printf 'e4\n'
  sleep 2
  printf 'e5\n'
  sleep 2
} | wine "$work/hector.exe" play --speech tts --no-sound >"$work/out" 2>"$work/err" || true
failed=0
for want in "Speaking through NVDA." "Bauer Eva vier" "Bauer Eva fünf"; do
  if ! grep -qxF "speak: $want" "$work/nvda.log" 2>/dev/null; then
    echo "windows nvda: NVDA was not handed \"$want\"" >&2
    failed=1
  fi
  if ! grep -qxF "braille: $want" "$work/nvda.log" 2>/dev/null; then
    echo "windows nvda: NVDA's braille display was not handed \"$want\"" >&2
    failed=1
  fi
done
if ((failed)); then
  echo "--- printed:" >&2; cat "$work/out" >&2
  echo "--- errors:" >&2; cat "$work/err" >&2
  echo "--- the client's log:" >&2; cat "$work/nvda.log" >&2 2>/dev/null || true
  exit 1
fi
echo "windows nvda: $(grep -c '^speak: ' "$work/nvda.log") sentences through the stand-in NVDA client" >&2
