#!/bin/sh
# A fake UCI engine whose name and lines carry terminal escape sequences
# (a window title, a cleared screen, hidden text: issue 31), and that
# answers `go` with such lines only, never with a move.
esc=$(printf '\033')
bel=$(printf '\007')
while read -r line; do
  case "$line" in
    uci) echo "id name Evil${esc}]0;pwned${bel}${esc}[2J${esc}[8mFish"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*)
      i=0
      while [ $i -lt 30 ]; do echo "${esc}[2Jnoise${esc}[8m $i"; i=$((i + 1)); done ;;
    quit) exit 0 ;;
  esac
done
