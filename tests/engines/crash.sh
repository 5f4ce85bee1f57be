#!/bin/sh
# A fake UCI engine that plays 1. e2e4 (or 1... e7e5) on its first `go`,
# then crashes (exit code 3) on the second: a crash in mid-game.
gos=0
while read -r line; do
  case "$line" in
    uci) echo "id name Crash"; echo "uciok" ;;
    isready) echo "readyok" ;;
    "position startpos") side=w ;;
    "position startpos moves e2e4") side=b ;;
    position*) side=x ;;
    go*)
      gos=$((gos + 1))
      if [ "$gos" -ge 2 ]; then exit 3; fi
      if [ "$side" = b ]; then echo "bestmove e7e5"; else echo "bestmove e2e4"; fi ;;
    quit) exit 0 ;;
  esac
done
