#!/usr/bin/env bash
# Installs the system packages hector needs to build, speak and be tested,
# when they are missing (Debian/Ubuntu).  Safe to run again: it does nothing
# when everything is there.
set -euo pipefail

packages=(
  # build: cpal -> alsa-sys, tts -> speech-dispatcher-sys (bindgen),
  # keyring -> libdbus-sys (the Secret Service)
  pkg-config libasound2-dev libspeechd-dev libclang-dev libdbus-1-dev
  # run: speech
  speech-dispatcher speech-dispatcher-espeak-ng espeak-ng
  # tests: real independent tools
  tmux sox liblouis-bin pgn-extract stockfish
  # tests: the companion page in a real headless browser
  chromium chromium-driver
  # tests: a real Secret Service on a private D-Bus (the lichess token)
  dbus-daemon dbus-bin gnome-keyring
  # tests: a fake BlueZ on a private system bus (the Bluetooth LE boards),
  # run by Debian's python3 with python-dbusmock and GLib's bindings
  python3 python3-dbusmock python3-gi
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "hector: installing system packages: ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi
# The companion page's browser tests drive Debian's chromium with
# playwright-core from npm (it never downloads a browser of its own).
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "hector: installing node and npm" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends nodejs npm >&2
fi
node_dir="$(dirname "$0")/../target/node"
if [ ! -d "$node_dir/node_modules/playwright-core" ]; then
  echo "hector: installing playwright-core into target/node" >&2
  mkdir -p "$node_dir"
  npm install --prefix "$node_dir" --no-audit --no-fund --loglevel=error playwright-core@1.65.1 >&2
fi
# The page's accessibility audit in the browser tests.
if [ ! -d "$node_dir/node_modules/axe-core" ]; then
  echo "hector: installing axe-core into target/node" >&2
  mkdir -p "$node_dir"
  npm install --prefix "$node_dir" --no-audit --no-fund --loglevel=error axe-core@4.14.1 >&2
fi
if ! command -v cargo >/dev/null; then
  echo "hector: cargo is missing: install Rust 1.95 or newer (https://rustup.rs)" >&2
  exit 1
fi
# python-chess for the PGN tests, in target/venv.
"$(dirname "$0")/venv.sh" >/dev/null
