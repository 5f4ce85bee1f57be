#!/usr/bin/env bash
# The Python tools the tests use as independent readers (python-chess), in a
# virtual environment under target/venv.  Prints the environment's python.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/venv
if ! "$venv/bin/python" -c "import chess.pgn" 2>/dev/null; then
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install -q "chess>=1.10" >&2
fi
echo "$PWD/$venv/bin/python"
