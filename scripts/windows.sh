#!/usr/bin/env bash
# hector for Windows (x86_64), built on Debian bookworm (or a system with the
# same packages) and tested under Wine.
#
#   scripts/windows.sh          build target/x86_64-pc-windows-gnu/release/hector.exe
#                               and pack target/dist/hector-windows-x86_64.zip
#   scripts/windows.sh test     that, then under Wine: the library's unit tests,
#                               the line-mode integration tests, a whole game
#   scripts/windows.sh ci       the tests only (.ci/run): no zip
#   scripts/windows.sh prefix   only the Wine prefix (target/wine) the tests use
#   scripts/windows.sh unix-only  the tests that are not run under Wine, and why
#
# The compiler: no rustup target can be fetched here, so Debian's rustc-web,
# cargo-web and rust-web-src build the standard library for the target
# themselves (-Zbuild-std).  -Z flags are nightly-only; RUSTC_BOOTSTRAP=1 lets
# this stable compiler take them.  That is an unsupported workaround, kept
# inside this script only: drop it (and -Zbuild-std) the day
# `rustup target add x86_64-pc-windows-gnu` works.  rustup's toolchain stays
# the default for everything else (cargo, clippy, the Linux tests).
set -euo pipefail
cd "$(dirname "$0")/.."

TARGET=x86_64-pc-windows-gnu
OUT="target/$TARGET/release"
DIST=target/dist
ZIP="$DIST/hector-windows-x86_64.zip"

packages=(
  # Debian's Rust (bookworm-security) with the standard library's source
  rustc-web cargo-web rust-web-src
  # the linker and C/C++ compilers of the target
  gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64 binutils-mingw-w64-x86-64
  # running the tests
  wine wine64
  # packing
  zip
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "hector: installing system packages: ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  # Others may be running apt on the same machine: wait for its lock.
  apt=($sudo apt-get -o DPkg::Lock::Timeout=600)
  "${apt[@]}" update -qq
  DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

# Debian's compiler, by full path (rustup's proxies come first on PATH).
export RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc
CARGO=/usr/bin/cargo
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
export RUSTC_BOOTSTRAP=1
build_std=(-Zbuild-std=std,panic_abort --target "$TARGET" --release)

# Wine: a prefix of its own (made once, ~20 s), no debug noise.
export WINEPREFIX="${WINEPREFIX:-$PWD/target/wine}"
export WINEDEBUG=-all WINEARCH=win64
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER=wine

# Niced: the build compiles the standard library and every dependency.
build() {
  local t0=$SECONDS
  nice -n 10 "$CARGO" build "${build_std[@]}" --bin hector
  echo "hector: hector.exe built in $((SECONDS - t0)) s" >&2
}

# The DLLs hector.exe imports that Windows does not have (none is expected:
# the screen readers' clients are loaded at run time, from beside the exe).
foreign_dlls() {
  x86_64-w64-mingw32-objdump -p "$OUT/hector.exe" | sed -n 's/^\s*DLL Name: //p' |
    grep -viE '^(kernel32|rpcrt4|user32|advapi32|ws2_32|ole32|oleaut32|bcrypt|bcryptprimitives|ntdll|shell32|setupapi|cfgmgr32|userenv|msvcrt|api-ms-win-.*|combase|winmm|gdi32|secur32|crypt32|propsys|mmdevapi|avrt|uiautomationcore|windows\.media.*|dwmapi)\.dll$' || true
}

pack() {
  rm -rf "$DIST/hector" "$ZIP"
  mkdir -p "$DIST/hector"
  # Without its symbols (the build keeps them for the tests' backtraces).
  x86_64-w64-mingw32-strip -o "$DIST/hector/hector.exe" "$OUT/hector.exe"
  for dll in $(foreign_dlls); do
    found=$(find /usr/lib/gcc/x86_64-w64-mingw32 /usr/x86_64-w64-mingw32 -iname "$dll" | head -n 1)
    if [ -z "$found" ]; then
      echo "hector: hector.exe needs $dll, which is nowhere here" >&2
      exit 1
    fi
    cp "$found" "$DIST/hector/"
  done
  cp -r voices keymaps "$DIST/hector/"
  cp scripts/windows-readme.txt "$DIST/hector/README.txt"
  (cd "$DIST" && zip -qr "$(basename "$ZIP")" hector)
  echo "hector: $ZIP ($(stat -c %s "$ZIP") bytes; hector.exe $(stat -c %s "$DIST/hector/hector.exe") bytes)" >&2
}

# The Wine prefix, made once (~10 s), with the stand-in for the one DLL of
# Windows 10 that Wine 8 lacks: bcryptprimitives.dll (Rust's std takes its
# random numbers from ProcessPrng there).  Real Windows has its own.
wine_prefix() {
  [ -d "$WINEPREFIX/drive_c/windows/system32" ] || wine cmd /c exit 0 >/dev/null 2>&1 || true
  local dll="$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll"
  if [ ! -f "$dll" ] || [ tests/support/bcryptprimitives.c -nt "$dll" ]; then
    x86_64-w64-mingw32-gcc -shared -O2 -Wl,--kill-at -o "$dll" \
      tests/support/bcryptprimitives.c -ladvapi32
  fi
}

# Under Wine: the library's unit tests, the integration tests that need
# nothing Unix-only, a whole game in line mode with printed speech (against
# the Linux binary), the NVDA route, and a DGT board on COM5.
wine_tests() {
  local t0=$SECONDS
  wine_prefix
  # One invocation: both test binaries compile side by side, and both run
  # even when the first has a failure.
  nice -n 10 "$CARGO" test "${build_std[@]}" --features test-support --no-fail-fast \
    --lib --test tests
  echo "hector: not compiled for Windows, so not run under Wine (Unix only):" >&2
  unix_only >&2
  scripts/windows-game.sh "$OUT/hector.exe"
  scripts/windows-nvda.sh "$OUT/hector.exe"
  scripts/windows-board.sh "$OUT/hector.exe"
  echo "hector: Windows tests under Wine took $((SECONDS - t0)) s" >&2
}

# The tests marked "// Unix only: why", with their names.
unix_only() {
  awk '/\/\/ Unix only:/ {
         why = $0; sub(/.*Unix only: /, "", why); getline
         while ($0 ~ /^ *#\[/) getline
         sub(/^ */, ""); sub(/[({].*/, "")
         printf "  %s: %s (%s)\n", FILENAME, $0, why
       }' tests/*.rs $(grep -rl '// Unix only:' src)
}

case "${1:-build}" in
  build) build; pack ;;
  test) build; pack; wine_tests ;;
  # CI: the tests only; the exe they build (with the test-support feature)
  # plays the game, the NVDA and the board checks; no zip.
  ci) wine_tests ;;
  unix-only) unix_only ;;
  prefix) wine_prefix ;;
  *) echo "usage: scripts/windows.sh [build|test|ci|prefix|unix-only]" >&2; exit 2 ;;
esac
