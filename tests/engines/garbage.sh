#!/bin/sh
# A fake UCI engine that completes the handshake, then answers `go` with
# lines that are not UCI, and never with a move.
while read -r line; do
  case "$line" in
    uci) echo "id name Garbage"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*)
      i=0
      while [ $i -lt 30 ]; do echo "#!~ noise $i ~!#"; i=$((i + 1)); done ;;
    quit) exit 0 ;;
  esac
done
