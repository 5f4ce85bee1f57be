#!/bin/sh
# A fake UCI engine whose every answer is the illegal move e2e5.
while read -r line; do
  case "$line" in
    uci) echo "id name Illegal"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*) echo "info depth 1 score cp 0 pv e2e5"; echo "bestmove e2e5" ;;
    quit) exit 0 ;;
  esac
done
