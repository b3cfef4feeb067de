#!/usr/bin/env bash
# Opens Berth in a real VS Code: code-server with the extension loaded from this folder, against the local engine
# (DOCKER_HOST, docker context or default socket) when one answers, else the private test engine (started here and
# stopped again on Ctrl-C). Prints the URL to open; stays in the foreground until Ctrl-C.
set -euo pipefail
export PATH=$PATH:/usr/sbin:/sbin
cd "$(dirname "${BASH_SOURCE[0]}")/.."

log() { printf '[dev] %s\n' "$*" >&2; }

# Idempotent and fast when all is there: Debian packages (the private engine needs docker.io), then npm ci.
bash scripts/install-deps.sh

log "building"
build_log=$(mktemp)
if ! npm run --silent build >"$build_log" 2>&1; then
  cat "$build_log" >&2
  rm -f "$build_log"
  exit 1
fi
rm -f "$build_log"

log "code-server: $(bash scripts/code-server.sh install)"

# exec: Ctrl-C reaches node directly, which stops what it started.
exec node --import tsx test/vscode/dev.ts
