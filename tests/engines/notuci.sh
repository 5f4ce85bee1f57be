#!/bin/sh
# A program that is not a UCI engine: it talks, and never says uciok.
while read -r line; do
  echo "What do you mean by '$line'?"
done
