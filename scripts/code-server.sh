#!/usr/bin/env bash
# Installs code-server (a real VS Code server + workbench, from npm) into a cache outside the repo, keyed by version.
# Usage: scripts/code-server.sh install   -> installs if needed, prints the path of the code-server binary
#        scripts/code-server.sh path      -> prints the binary path (exit 1 when not installed)
# The recipe (why each step) is in ../shared/vscode-testing-notes.md: plain `npm install code-server` fails offline and
# as root, so scripts are skipped and the native modules are rebuilt by hand.
set -euo pipefail

readonly VERSION="${BERTH_CODE_SERVER_VERSION:-4.100.3}"
readonly CACHE_ROOT="${BERTH_CACHE_DIR:-$HOME/.cache/berth}"
readonly INSTALL_DIR="$CACHE_ROOT/code-server-$VERSION"
readonly BIN="$INSTALL_DIR/node_modules/.bin/code-server"
readonly STAMP="$INSTALL_DIR/.installed"
readonly REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

log() { printf '[code-server.sh] %s\n' "$*" >&2; }

ensure_apt_packages() {
  local missing=()
  for pkg in libkrb5-dev pkg-config ripgrep python3 make g++; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  ((${#missing[@]} == 0)) && return 0
  if [[ -x "$REPO_ROOT/scripts/install-deps.sh" || -f "$REPO_ROOT/scripts/install-deps.sh" ]]; then
    log "installing system packages via scripts/install-deps.sh"
    bash "$REPO_ROOT/scripts/install-deps.sh"
  fi
  missing=()
  for pkg in libkrb5-dev pkg-config ripgrep python3 make g++; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  ((${#missing[@]} == 0)) && return 0
  log "apt-get install ${missing[*]}"
  local sudo=()
  [[ $(id -u) -ne 0 ]] && sudo=(sudo)
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}" </dev/null ||
    { DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get update </dev/null &&
      DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}" </dev/null; }
}

# `code-server --version` may print a timestamped log line before "<version> <commit> with Code <vscode version>".
printed_version() {
  "$1" --version 2>/dev/null | awk '/^[0-9]+\.[0-9]+\.[0-9]+ / {print $1; exit}'
}

installed_version_ok() {
  [[ -f "$STAMP" && -x "$BIN" ]] || return 1
  [[ "$(printed_version "$BIN")" == "$VERSION" ]]
}

install() {
  if installed_version_ok; then
    echo "$BIN"
    return 0
  fi
  # One installer at a time (e.g. two test stages started together); the second finds the first one's result.
  mkdir -p "$CACHE_ROOT"
  exec 9>"$CACHE_ROOT/.code-server-$VERSION.lock"
  flock 9
  if installed_version_ok; then
    echo "$BIN"
    return 0
  fi
  ensure_apt_packages
  log "installing code-server $VERSION into $INSTALL_DIR"
  # Build in a sibling temp dir and rename at the end, so an interrupted install never looks complete.
  local work="$INSTALL_DIR.partial.$$"
  rm -rf "$work"
  mkdir -p "$work"
  trap 'rm -rf "$work"' EXIT
  export npm_config_unsafe_perm=true npm_config_yes=true npm_config_fund=false npm_config_audit=false \
    npm_config_update_notifier=false CI="${CI:-true}"
  (
    cd "$work"
    echo '{"name":"berth-code-server-cache","private":true}' >package.json
    npm install --ignore-scripts --no-save "code-server@$VERSION" </dev/null >&2
    npm rebuild argon2 --build-from-source </dev/null >&2
    cd node_modules/code-server/lib/vscode
    npm install --omit=dev --ignore-scripts </dev/null >&2
    mkdir -p node_modules/@vscode/ripgrep/bin
    cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
    # node-pty's post-install ends in a failing npx call; the built pty.node is what matters.
    npm rebuild kerberos node-pty @parcel/watcher @vscode/spdlog @vscode/deviceid native-watchdog </dev/null >&2 || true
    [[ -f node_modules/node-pty/build/Release/pty.node ]] || { log "node-pty did not build"; exit 1; }
    ln -sfn node_modules node_modules.asar
    ln -sfn code-linux.sh bin/remote-cli/code-server
    ln -sfn browser-linux.sh bin/helpers/browser.sh
    (cd extensions && npm install --omit=dev </dev/null >&2)
  )
  local printed
  printed="$(printed_version "$work/node_modules/.bin/code-server")"
  if [[ "$printed" != "$VERSION" ]]; then
    log "code-server --version printed '$printed', expected $VERSION"
    exit 1
  fi
  date -u +%FT%TZ >"$work/.installed"
  rm -rf "$INSTALL_DIR"
  mv "$work" "$INSTALL_DIR"
  trap - EXIT
  # npm's .bin links are relative, so they survive the rename; check once more from the final place.
  installed_version_ok || { log "install check failed after move"; exit 1; }
  log "code-server $VERSION ready"
  echo "$BIN"
}

case "${1:-install}" in
  install) install ;;
  path) installed_version_ok && echo "$BIN" ;;
  *) echo "usage: $0 install|path" >&2; exit 2 ;;
esac
