# The private dockerd: its own socket, data root, exec root and pidfile under $STATE/docker.
# No bridge, no iptables, no masquerading: containers get no network beyond loopback.

DOCKER_DIR=$STATE/docker
DOCKER_SOCK=$STATE/docker.sock
DOCKERD_PIDFILE=$DOCKER_DIR/dockerd.pid
DOCKERD_LAUNCH_PIDFILE=$DOCKER_DIR/launch.pid
DOCKERD_LOG=$DOCKER_DIR/dockerd.log
DOCKERD_MARKER="--host unix://$DOCKER_SOCK"

# Debian's CLI matches the daemon's API; any other docker CLI on PATH works too.
docker_cli_path() {
  if [[ -x /usr/bin/docker ]]; then echo /usr/bin/docker; else command -v docker; fi
}

# The docker CLI, for fixtures only, bound to the private daemon and a private config dir
# (never ~/.docker, never /var/run/docker.sock).
docker_cli() {
  env -u DOCKER_CONTEXT -u DOCKER_TLS_VERIFY -u DOCKER_CERT_PATH \
    DOCKER_HOST="unix://$DOCKER_SOCK" DOCKER_CONFIG="$STATE/docker-config" \
    "$(docker_cli_path)" "$@"
}

docker_ping() { [[ $(curl -s --max-time 3 --unix-socket "$DOCKER_SOCK" http://localhost/_ping) == OK ]]; }

dockerd_pid() {
  pidfile_pid "$DOCKERD_PIDFILE" "$DOCKERD_MARKER" || pidfile_pid "$DOCKERD_LAUNCH_PIDFILE" "$DOCKERD_MARKER"
}

docker_start() {
  if dockerd_pid >/dev/null && docker_ping; then
    log "dockerd already running (pid $(dockerd_pid))"
    return 0
  fi
  if dockerd_pid >/dev/null; then
    # Running but not answering yet (another start may be racing us): give it time.
    wait_ready dockerd 60 "$DOCKERD_LOG" "$DOCKERD_LAUNCH_PIDFILE" "$DOCKERD_MARKER" docker_ping
    return 0
  fi
  mkdir -p "$DOCKER_DIR/data" "$DOCKER_DIR/exec"
  # A dockerd that was killed can leave its containerd running; a new dockerd must not meet it.
  stop_by_pidfile "orphaned containerd" "$DOCKER_DIR/exec/containerd/containerd.pid" "$DOCKER_DIR/exec/containerd" 20
  # An empty config file keeps any system-wide /etc/docker/daemon.json out of the private daemon.
  [[ -f $DOCKER_DIR/daemon.json ]] || echo '{}' >"$DOCKER_DIR/daemon.json"
  # No dockerd of ours is alive, but a killed one may linger as a zombie that dockerd's own
  # pidfile check would mistake for a running daemon.
  rm -f "$DOCKER_SOCK" "$DOCKERD_PIDFILE"
  : >"$DOCKERD_LOG"
  log "starting dockerd on $DOCKER_SOCK"
  launch_detached "$DOCKERD_LAUNCH_PIDFILE" "$DOCKERD_LOG" \
    dockerd --host "unix://$DOCKER_SOCK" \
    --config-file "$DOCKER_DIR/daemon.json" \
    --data-root "$DOCKER_DIR/data" \
    --exec-root "$DOCKER_DIR/exec" \
    --pidfile "$DOCKERD_PIDFILE" \
    --bridge=none --iptables=false --ip6tables=false --ip-masq=false \
    --userland-proxy=false \
    --shutdown-timeout=2
  wait_ready dockerd 60 "$DOCKERD_LOG" "$DOCKERD_LAUNCH_PIDFILE" "$DOCKERD_MARKER" docker_ping
  log "dockerd ready (pid $(dockerd_pid)), storage driver: $(docker_cli info --format '{{.Driver}}' 2>/dev/null || echo '?')"
}

docker_stop() {
  local pid id
  if pid=$(dockerd_pid); then
    echo "$pid" >"$DOCKERD_LAUNCH_PIDFILE"
    # On TERM dockerd gives each running container its own stop timeout (10 s by default, and a
    # busybox sh as PID 1 ignores SIGTERM): kill them first so the shutdown is quick.
    if docker_ping; then
      for id in $(docker_cli ps --quiet 2>/dev/null); do
        curl -s --max-time 10 --unix-socket "$DOCKER_SOCK" -X POST "http://localhost/containers/$id/kill" >/dev/null || true
      done
    fi
  fi
  # dockerd then stops its own containerd before it exits.
  stop_by_pidfile dockerd "$DOCKERD_LAUNCH_PIDFILE" "$DOCKERD_MARKER" 40
  rm -f "$DOCKERD_PIDFILE"
  # A dockerd that crashed can leave its containerd behind; end that one by its own pidfile.
  stop_by_pidfile containerd "$DOCKER_DIR/exec/containerd/containerd.pid" "$DOCKER_DIR/exec/containerd" 20
  rm -f "$DOCKER_SOCK"
}

docker_status() {
  local pid
  if pid=$(dockerd_pid); then
    if docker_ping; then
      echo "dockerd   running  pid $pid  unix://$DOCKER_SOCK  (server $(docker_cli version --format '{{.Server.Version}} API {{.Server.APIVersion}}' 2>/dev/null))"
      return 0
    fi
    echo "dockerd   starting pid $pid  unix://$DOCKER_SOCK  (not answering _ping)"
    return 1
  fi
  echo "dockerd   stopped"
  return 1
}
