#!/usr/bin/env bash
# Builds the pinned S3-compatible server (versitygw) into the trajforge cache dir with `go install`.
# Idempotent: skips the build when the binary is present and its version marker matches the pin.
#
# Usage: scripts/install-s3-server.sh [cache-dir]   (default: $TRAJFORGE_CACHE or ~/.cache/trajforge)
# Prints the binary path on its last line of stdout.
set -euo pipefail

VERSITYGW_MODULE="github.com/versity/versitygw/cmd/versitygw"
VERSITYGW_VERSION="v1.8.0"

CACHE_DIR="${1:-${TRAJFORGE_CACHE:-$HOME/.cache/trajforge}}"
BIN_DIR="$CACHE_DIR/bin"
BIN="$BIN_DIR/versitygw"
MARKER="$BIN_DIR/versitygw.version"

if [[ -x "$BIN" && -f "$MARKER" && "$(cat "$MARKER")" == "$VERSITYGW_VERSION" ]]; then
  echo "versitygw $VERSITYGW_VERSION already installed at $BIN" >&2
  echo "$BIN"
  exit 0
fi

GO="$(command -v go || true)"
if [[ -z "$GO" && -x /usr/local/go/bin/go ]]; then GO=/usr/local/go/bin/go; fi
if [[ -z "$GO" ]]; then
  echo "error: Go is required to build versitygw $VERSITYGW_VERSION (install Go >= 1.25, or put a versitygw binary at $BIN and write '$VERSITYGW_VERSION' to $MARKER)" >&2
  exit 1
fi

mkdir -p "$BIN_DIR"
echo "building versitygw $VERSITYGW_VERSION into $BIN_DIR (this takes a few minutes)..." >&2
start=$(date +%s)
GOBIN="$BIN_DIR" GOFLAGS="${GOFLAGS:-} -trimpath" "$GO" install "$VERSITYGW_MODULE@$VERSITYGW_VERSION"
echo "$VERSITYGW_VERSION" > "$MARKER"
echo "built versitygw in $(( $(date +%s) - start ))s" >&2
echo "$BIN"
