#!/usr/bin/env bash
# Private test engines for Berth: a dockerd, a registry with htpasswd auth on 127.0.0.1 and a Podman
# service, all under ${BERTH_STATE_DIR:-/tmp/berth-state}, ended by PID. Never touches /var/run/docker.sock.
#
#   bash scripts/engines.sh start    idempotent; writes $STATE/engines.json (read by test/support/engines.ts)
#   bash scripts/engines.sh stop     ends everything by pidfile, waits for exit; safe to repeat
#   bash scripts/engines.sh status   what runs; exit status 0 only when dockerd and the registry answer
#   bash scripts/engines.sh env      `export BERTH_TEST_...` lines for a shell: eval "$(bash scripts/engines.sh env)"
#   bash scripts/engines.sh restart
#   bash scripts/engines.sh start-remote   idempotent; a second dockerd on tcp+TLS and an sshd, both on 127.0.0.1,
#                                         writes $STATE/remote.json (read by test/support/remote.ts); `stop` ends them
#   bash scripts/engines.sh stop-remote
set -euo pipefail
# dockerd lives in /usr/sbin, which a minimal root environment may leave off PATH.
export PATH=$PATH:/usr/sbin:/sbin

# Absolute, so the unix:// URLs in engines.json work from any directory.
STATE=$(realpath -m "${BERTH_STATE_DIR:-/tmp/berth-state}")
LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib
# shellcheck source=lib/common.sh
source "$LIB/common.sh"
# shellcheck source=lib/docker.sh
source "$LIB/docker.sh"
# shellcheck source=lib/registry.sh
source "$LIB/registry.sh"
# shellcheck source=lib/fixtures.sh
source "$LIB/fixtures.sh"
# shellcheck source=lib/podman.sh
source "$LIB/podman.sh"
# shellcheck source=lib/remote.sh
source "$LIB/remote.sh"

ENGINES_JSON=$STATE/engines.json

require_tools() {
  local tool missing=()
  for tool in dockerd docker-registry htpasswd podman curl setsid flock tar; do
    command -v "$tool" >/dev/null || missing+=("$tool")
  done
  [[ -n $(docker_cli_path) ]] || missing+=(docker)
  ((${#missing[@]} == 0)) || die "missing: ${missing[*]}. Run: bash scripts/install-deps.sh"
  [[ $(id -u) == 0 ]] || die "the private dockerd and rootful podman need root"
}

# Serialises start/stop between concurrent callers (several test runs may start engines at once).
take_lock() {
  mkdir -p "$STATE"
  exec 9>"$STATE/.lock"
  flock -w 300 9 || die "another engines.sh holds $STATE/.lock for over 5 minutes"
}

write_engines_json() {
  local images=() ref podman_line=''
  while IFS= read -r ref; do images+=("\"$ref\""); done < <(registry_images)
  if podman_usable; then podman_line="\"podmanHost\": \"unix://$PODMAN_SOCK\","; fi
  (
    umask 077
    cat >"$ENGINES_JSON.tmp" <<EOF
{
  "stateDir": "$STATE",
  "dockerHost": "unix://$DOCKER_SOCK",
  $podman_line
  "registry": { "address": "$REGISTRY_ADDR", "username": "$REGISTRY_USER", "password": "$(registry_password)" },
  "image": "$TEST_IMAGE",
  "registryImages": [$(IFS=,; echo "${images[*]}")]
}
EOF
  )
  mv "$ENGINES_JSON.tmp" "$ENGINES_JSON"
}

cmd_start() {
  require_tools
  take_lock
  # The fixture push logs in with a private DOCKER_CONFIG; never leave its credentials behind.
  trap 'rm -f "$STATE/docker-config/config.json"' EXIT
  local began=$SECONDS
  forget_dead_remote
  docker_start
  registry_start
  fixture_build_tar
  fixture_docker_image
  fixture_registry_push
  podman_start "$FIXTURE_TAR"
  write_engines_json
  log "engines ready in $((SECONDS - began))s; wrote $ENGINES_JSON"
  require_podman_in_ci
}

# Podman is the second engine every engine-stage file runs against. On a developer's machine that cannot run it,
# its cases are reported as skipped with the reason; in CI (CI=true) that is a failure, so they cannot vanish.
require_podman_in_ci() {
  podman_usable && return 0
  local why
  why=$(cat "$PODMAN_FAILURE_FILE" 2>/dev/null || echo "the podman service did not start; see $PODMAN_LOG")
  [[ ${CI:-} == true ]] || { log "WARNING: Podman cannot run containers here ($why): its cases are skipped"; return 0; }
  die "CI=true and Podman cannot run containers here ($why): the Podman cases of every engine stage would be skipped"
}

# A run that was killed (or a machine that restarted) leaves remote.json behind with its engines gone. Remove it, so
# nothing reads endpoints that refuse connections; the remote engines start again when a test asks for them.
forget_dead_remote() {
  [[ -f $REMOTE_JSON ]] || return 0
  if remote_dockerd_pid >/dev/null && pidfile_pid "$REMOTE_SSHD_PIDFILE" "$REMOTE_SSHD_MARKER" >/dev/null; then return 0; fi
  log "removing $REMOTE_JSON: its remote engines are no longer running (an earlier run was interrupted)"
  rm -f "$REMOTE_JSON"
}

cmd_stop() {
  take_lock
  rm -f "$ENGINES_JSON"
  remote_stop
  podman_stop
  registry_stop
  docker_stop
  unmount_under "$STATE"
  log "all engines stopped"
}

cmd_status() {
  local rc=0
  docker_status || rc=1
  registry_status || rc=1
  podman_status || true
  remote_status
  if [[ -f $ENGINES_JSON ]]; then echo "state     $ENGINES_JSON"; else echo "state     no engines.json (run: bash scripts/engines.sh start)"; fi
  return $rc
}

cmd_env() {
  [[ -f $ENGINES_JSON ]] || die "engines are not started; run: bash scripts/engines.sh start"
  echo "export BERTH_STATE_DIR='$STATE'"
  echo "export BERTH_TEST_DOCKER_HOST='unix://$DOCKER_SOCK'"
  if podman_usable; then echo "export BERTH_TEST_PODMAN_HOST='unix://$PODMAN_SOCK'"; fi
  echo "export BERTH_TEST_REGISTRY='$REGISTRY_ADDR'"
  echo "export BERTH_TEST_REGISTRY_USERNAME='$REGISTRY_USER'"
  echo "export BERTH_TEST_REGISTRY_PASSWORD='$(registry_password)'"
  echo "export BERTH_TEST_IMAGE='$TEST_IMAGE'"
  echo "export BERTH_TEST_REGISTRY_IMAGES='$(registry_images | paste -sd' ')'"
}

case ${1:-} in
  start) cmd_start ;;
  stop) cmd_stop ;;
  restart) cmd_stop && cmd_start ;;
  status) cmd_status ;;
  env) cmd_env ;;
  start-remote) require_tools && take_lock && remote_start ;;
  stop-remote) take_lock && remote_stop ;;
  *)
    echo "usage: bash scripts/engines.sh start|stop|restart|status|env|start-remote|stop-remote" >&2
    exit 2
    ;;
esac
