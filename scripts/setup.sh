#!/usr/bin/env bash
# Installs everything trajforge needs on a fresh Debian machine, idempotently; a second run takes seconds.
#   scripts/setup.sh         what the main job needs (Chromium, npm packages, Temporal CLI)
#   scripts/setup.sh --test  also the S3-compatible server the tests run against
# Binaries built here live in the cache outside the repo: ${TRAJFORGE_CACHE_DIR:-~/.cache/trajforge}/bin.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin:$HOME/go/bin"
CACHE="${TRAJFORGE_CACHE_DIR:-$HOME/.cache/trajforge}"
mkdir -p "$CACHE/bin"
say() { printf 'setup: %s\n' "$*"; }

# 1. Chromium from Debian (never a browser download).
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$CHROMIUM" ]; then
  say "installing Debian's chromium"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

# 1b. The desktop environment (environments/desktop/): an X server in memory, a window manager, XTest input,
# screenshots, the accessibility bus with its Python bindings, and the real applications it runs.
DESKTOP_BINS="/usr/bin/Xvfb /usr/bin/xdotool /usr/bin/scrot /usr/bin/openbox /usr/bin/dbus-launch /usr/libexec/at-spi-bus-launcher /usr/bin/mousepad /usr/bin/gnumeric /usr/bin/ssconvert /usr/bin/pcmanfm /usr/bin/galculator /usr/lib/python3/dist-packages/pyatspi/__init__.py"
missing=""; for b in $DESKTOP_BINS; do [ -e "$b" ] || missing="$missing $b"; done
if [ -n "$missing" ]; then
  say "installing the desktop environment's Debian packages (missing:$missing)"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq xvfb xdotool scrot openbox dbus-x11 \
    at-spi2-core python3-pyatspi mousepad gnumeric pcmanfm galculator >/dev/null
fi

# 2. npm packages, reinstalled only when the lock file changes. .npmrc skips onnxruntime-node's GPU download.
want=$(sha256sum package-lock.json | cut -d' ' -f1)
stamp=node_modules/.trajforge-lock.sha256
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  say "npm install (from package-lock.json)"
  # `npm ci` refuses npm 11 lock files that omit other platforms' optional binaries (@swc/core-*, …);
  # `npm install` honours the same lock file and installs the same versions.
  npm install --no-audit --no-fund --loglevel=error
  sha256sum package-lock.json | cut -d" " -f1 > "$stamp"
fi

# 2b. The reference model's word vectors (GloVe, from the npm package above), cut to a small cache once.
npx tsx scripts/build-word-vectors.ts

# 3. Temporal CLI for the dev server, pinned (later tags carry a go.mod replace directive go install rejects).
if [ -z "${TEMPORAL_ADDRESS:-}" ] && [ -z "${TEMPORAL_CLI_PATH:-}" ] && [ ! -x "$CACHE/bin/temporal" ]; then
  say "building the Temporal CLI v1.5.1 (once; several minutes)"
  GOBIN="$CACHE/bin" go install github.com/temporalio/cli/cmd/temporal@v1.5.1
fi

# 4. The tests' S3 server.
if [ "${1:-}" = "--test" ]; then
  bash scripts/install-s3-server.sh
fi
say "ready"
