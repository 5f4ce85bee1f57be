#!/usr/bin/env bash
# The Python tools the tests use as independent readers and clients, in a
# virtual environment under target/venv: python-chess (the PGN export read
# by another reader) and bleak (a BlueZ client of its own, through
# dbus-fast, that checks the tests' fake BlueZ answers as BlueZ does).
# Prints the environment's python.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/venv
if ! "$venv/bin/python" -c "import chess.pgn, bleak" 2>/dev/null; then
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv" >&2
  # Through the environment's own python: a venv copied from another
  # folder keeps pip scripts that point back to it.
  "$venv/bin/python" -m pip install -q "chess>=1.10" "bleak>=0.22,<4" >&2
fi
echo "$PWD/$venv/bin/python"
