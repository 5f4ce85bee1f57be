#!/bin/sh
# A fake UCI engine that plays its first move (1. e2e4 / 1... e7e5), then on
# the next `go` hangs in a child process of its own (which must be ended
# with it: hector kills the engine's whole process group).
gos=0
while read -r line; do
  case "$line" in
    uci) echo "id name Hang"; echo "uciok" ;;
    isready) echo "readyok" ;;
    "position startpos moves e2e4") side=b ;;
    position*) side=w ;;
    go*)
      gos=$((gos + 1))
      if [ "$gos" -ge 2 ]; then sleep 600; fi
      if [ "$side" = b ]; then echo "bestmove e7e5"; else echo "bestmove e2e4"; fi ;;
    quit) exit 0 ;;
  esac
done
