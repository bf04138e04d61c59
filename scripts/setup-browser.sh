#!/usr/bin/env bash
# Installs Debian's chromium for the dashboard's end-to-end test (playwright-core drives
# /usr/bin/chromium; no browser download). Idempotent; prints nothing when chromium is already there.
set -euo pipefail

readonly browser=/usr/bin/chromium
[ -x "$browser" ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "setup-browser: $browser is missing and apt-get is not available; install chromium with your package manager" >&2
  exit 1
fi

as_root=()
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "setup-browser: installing chromium needs root, and sudo is not available" >&2
    exit 1
  fi
  as_root=(sudo)
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
# Quiet on success; on failure show apt's output so the cause is visible.
if ! { "${as_root[@]}" apt-get update -qq && "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "setup-browser: installing chromium failed" >&2
  exit 1
fi

if [ ! -x "$browser" ]; then
  echo "setup-browser: apt-get installed chromium but $browser is still missing" >&2
  exit 1
fi
