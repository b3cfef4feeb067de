#!/usr/bin/env bash
# Installs what Berth's tests need, only what is missing: Debian packages (engines, registry, busybox
# for the test image, Chromium and build tools for code-server) and the npm dependencies.
# Runs non-interactively as root on a fresh Debian 12; a second run does nothing.
set -euo pipefail
# dpkg, ldconfig and dockerd live in /usr/sbin and /sbin, which a minimal root environment may leave off PATH.
export PATH=$PATH:/usr/sbin:/sbin

cd "$(dirname "${BASH_SOURCE[0]}")/.."

DEBIAN_PACKAGES=(
  docker.io busybox-static docker-registry apache2-utils podman uidmap
  docker-compose podman-compose  # the Compose implementations the compose tests run for real
  chromium libkrb5-dev pkg-config ripgrep openssh-server curl openssl
  fonts-wqy-microhei  # CJK glyphs, so non-ASCII output is legible in the screenshots
  bash-static  # a bash for a test image built on busybox: Attach Shell's bash branch
  python3 python3-debugpy  # the Python test image: Debian's python3 and debugpy (with pydevd and bytecode)
)

log() { printf '[deps] %s\n' "$*" >&2; }

package_installed() {
  [[ $(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null) == installed ]]
}

# Package scripts must not start system services: no system dockerd creating /var/run/docker.sock,
# no registry on :5000, no sshd. policy-rc.d answering 101 is Debian's way to say so.
without_service_starts() {
  local policy=/usr/sbin/policy-rc.d ours=0
  if [[ ! -e $policy ]]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy"
    chmod 755 "$policy"
    ours=1
  fi
  local rc=0
  "$@" || rc=$?
  if ((ours)); then rm -f "$policy"; fi
  return $rc
}

install_debian_packages() {
  local package missing=()
  for package in "${DEBIAN_PACKAGES[@]}"; do
    package_installed "$package" || missing+=("$package")
  done
  if ((${#missing[@]} == 0)); then
    log "Debian packages: all present"
    return 0
  fi
  [[ $(id -u) == 0 ]] || { log "missing ${missing[*]}; run this script as root"; exit 1; }
  log "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  without_service_starts apt-get install -y -q -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
    "${missing[@]}"
}

# npm ci when node_modules is missing, or older than package-lock.json and out of step with it.
install_npm_packages() {
  local marker=node_modules/.package-lock.json
  if [[ ! -f $marker ]]; then
    log "npm ci (no node_modules)"
    npm ci --no-audit --no-fund
  elif [[ package-lock.json -nt $marker ]] && ! npm ls --depth=0 >/dev/null 2>&1; then
    log "npm ci (package-lock.json changed)"
    npm ci --no-audit --no-fund
  else
    log "npm packages: up to date"
  fi
}

install_debian_packages
install_npm_packages
