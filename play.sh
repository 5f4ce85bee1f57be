#!/usr/bin/env bash
# Build hector (installing what is missing) and start a game in line mode.
# Any options are passed on: ./play.sh --lang de --form long
set -euo pipefail
cd "$(dirname "$0")"
scripts/deps.sh
exec cargo run --quiet --release -- play "$@"
