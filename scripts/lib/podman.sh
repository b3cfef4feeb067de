# Podman as a second engine: `podman system service` on a private socket, with private storage,
# a private containers.conf (ulimits this machine allows, cgroupfs, no bridge networking) and a
# private registries.conf (only the loopback registry, no short-name search). Networks use netavark with a
# private config dir: `network create` only writes a JSON file there (listed by `network ls`); netavark would
# touch the host only when a container on such a network starts, which the tests never do
# (test/support/networkGuard.ts).

PODMAN_DIR=$STATE/podman
PODMAN_SOCK=$STATE/podman.sock
PODMAN_PIDFILE=$PODMAN_DIR/service.pid
PODMAN_LOG=$PODMAN_DIR/service.log
PODMAN_MARKER="unix://$PODMAN_SOCK"
PODMAN_USABLE_FILE=$PODMAN_DIR/usable
PODMAN_FAILURE_FILE=$PODMAN_DIR/failure.txt

podman_cli() {
  env CONTAINERS_CONF="$PODMAN_DIR/containers.conf" \
    CONTAINERS_STORAGE_CONF="$PODMAN_DIR/storage.conf" \
    CONTAINERS_REGISTRIES_CONF="$PODMAN_DIR/registries.conf" \
    REGISTRY_AUTH_FILE="$PODMAN_DIR/auth.json" \
    podman "$@"
}

podman_driver() { cat "$PODMAN_DIR/storage-driver" 2>/dev/null || echo overlay; }

podman_write_config() {
  local driver=$1
  mkdir -p "$PODMAN_DIR/tmp" "$PODMAN_DIR/net" "$PODMAN_DIR/volumes"
  echo "$driver" >"$PODMAN_DIR/storage-driver"
  cat >"$PODMAN_DIR/storage.conf" <<EOF
[storage]
driver = "$driver"
graphroot = "$PODMAN_DIR/root"
runroot = "$PODMAN_DIR/runroot"
EOF
  # nofile soft = hard: Podman 4.3's compat API swaps soft and hard of default_ulimits, so unequal
  # values make runc fail with "error setting rlimit type 7". Hard limits here are 20000 / below
  # Podman's own defaults. netns "none" by default: a container only gets an interface when it asks for one.
  cat >"$PODMAN_DIR/containers.conf" <<EOF
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=1000:1000"]
netns = "none"
[network]
network_backend = "netavark"
network_config_dir = "$PODMAN_DIR/net"
[engine]
cgroup_manager = "cgroupfs"
events_logger = "file"
events_logfile_path = "$PODMAN_DIR/events.log"
tmp_dir = "$PODMAN_DIR/tmp"
volume_path = "$PODMAN_DIR/volumes"
EOF
  cat >"$PODMAN_DIR/registries.conf" <<EOF
unqualified-search-registries = []
short-name-mode = "disabled"
[[registry]]
location = "$REGISTRY_ADDR"
insecure = true
EOF
  [[ -f $PODMAN_DIR/auth.json ]] || echo '{}' >"$PODMAN_DIR/auth.json"
}

podman_ping() { [[ $(curl -s --max-time 3 --unix-socket "$PODMAN_SOCK" http://localhost/_ping) == OK ]]; }

# Imports the test image with the podman CLI, choosing a storage driver that can run a container:
# overlay first, vfs when overlay cannot work here. Needs the rootfs tar from fixtures.sh.
podman_prepare_storage() {
  local tar=$1 driver
  driver=$(podman_driver)
  podman_write_config "$driver"
  if podman_cli image exists "$TEST_IMAGE" 2>/dev/null; then return 0; fi
  if podman_import_and_try "$tar"; then return 0; fi
  [[ $driver != vfs ]] || return 1
  log "podman with $driver storage cannot run a container; retrying with vfs"
  unmount_under "$PODMAN_DIR"
  rm -rf "$PODMAN_DIR/root" "$PODMAN_DIR/runroot"
  podman_write_config vfs
  podman_import_and_try "$tar"
}

podman_import_and_try() {
  local tar=$1
  podman_cli import --quiet --change 'CMD ["/bin/sh"]' "$tar" "$TEST_IMAGE" >>"$PODMAN_LOG" 2>&1 &&
    podman_cli run --rm --network none "$TEST_IMAGE" true >>"$PODMAN_LOG" 2>&1
}

# Runs a container through the socket, as any API client would, and checks its output.
podman_prove() {
  local api="http://localhost/v1.41" id out code
  id=$(curl -s --max-time 20 --unix-socket "$PODMAN_SOCK" -H 'Content-Type: application/json' \
    -d "{\"Image\":\"$TEST_IMAGE\",\"Cmd\":[\"sh\",\"-c\",\"echo berth-podman-ok\"],\"Labels\":{\"berth.test\":\"1\"},\"HostConfig\":{\"NetworkMode\":\"none\"}}" \
    "$api/containers/create" | grep -o '"Id":"[0-9a-f]*"' | cut -d'"' -f4)
  if [[ -z $id ]]; then echo "create through the socket failed"; return 1; fi
  out=$(curl -s --max-time 20 --unix-socket "$PODMAN_SOCK" -X POST "$api/containers/$id/start")
  code=$(curl -s --max-time 30 --unix-socket "$PODMAN_SOCK" -X POST "$api/containers/$id/wait")
  out+=$(curl -s --max-time 10 --unix-socket "$PODMAN_SOCK" --output - "$api/containers/$id/logs?stdout=1&stderr=1" | tr -d '\000-\010')
  curl -s --max-time 20 --unix-socket "$PODMAN_SOCK" -X DELETE "$api/containers/$id?force=1" >/dev/null
  if [[ $code == *'"StatusCode":0'* && $out == *berth-podman-ok* ]]; then return 0; fi
  echo "container run through the socket failed: wait=$code output=$out"
  return 1
}

podman_start() {
  local tar=$1 failure
  mkdir -p "$PODMAN_DIR"
  if pidfile_pid "$PODMAN_PIDFILE" "$PODMAN_MARKER" >/dev/null && podman_ping; then
    # A test may have removed the image: put it back, keep the service.
    podman_prepare_storage "$tar" || log "WARNING: could not import $TEST_IMAGE into podman; see $PODMAN_LOG"
    log "podman service already running (pid $(pidfile_pid "$PODMAN_PIDFILE" "$PODMAN_MARKER"))"
    return 0
  fi
  rm -f "$PODMAN_USABLE_FILE" "$PODMAN_FAILURE_FILE"
  if ! podman_prepare_storage "$tar"; then
    echo "podman cannot run a container with overlay or vfs storage; see $PODMAN_LOG" >"$PODMAN_FAILURE_FILE"
  fi
  if ! pidfile_pid "$PODMAN_PIDFILE" "$PODMAN_MARKER" >/dev/null; then
    rm -f "$PODMAN_SOCK"
    log "starting podman service on $PODMAN_SOCK"
    launch_detached "$PODMAN_PIDFILE" "$PODMAN_LOG" \
      env CONTAINERS_CONF="$PODMAN_DIR/containers.conf" CONTAINERS_STORAGE_CONF="$PODMAN_DIR/storage.conf" \
      CONTAINERS_REGISTRIES_CONF="$PODMAN_DIR/registries.conf" REGISTRY_AUTH_FILE="$PODMAN_DIR/auth.json" \
      podman system service --time=0 "unix://$PODMAN_SOCK"
  fi
  wait_ready "podman service" 30 "$PODMAN_LOG" "$PODMAN_PIDFILE" "$PODMAN_MARKER" podman_ping
  if [[ ! -s $PODMAN_FAILURE_FILE ]]; then
    if failure=$(podman_prove); then
      touch "$PODMAN_USABLE_FILE"
    else
      echo "$failure" >"$PODMAN_FAILURE_FILE"
    fi
  fi
  if [[ -f $PODMAN_USABLE_FILE ]]; then
    log "podman service ready (pid $(pidfile_pid "$PODMAN_PIDFILE" "$PODMAN_MARKER")), storage $(podman_driver), a container ran through its socket"
  else
    log "WARNING: podman service runs but cannot run containers: $(cat "$PODMAN_FAILURE_FILE"); podmanHost is left out of engines.json"
  fi
}

podman_usable() { [[ -f $PODMAN_USABLE_FILE ]] && pidfile_pid "$PODMAN_PIDFILE" "$PODMAN_MARKER" >/dev/null; }

podman_stop() {
  if [[ -f $PODMAN_DIR/containers.conf && -d $PODMAN_DIR/root ]]; then
    # Podman containers outlive the service (each has its own conmon): stop them first.
    podman_cli stop --all --time 1 >/dev/null 2>&1 || true
  fi
  stop_by_pidfile "podman service" "$PODMAN_PIDFILE" "$PODMAN_MARKER" 15
  # Each exec session leaves a conmon that lingers (--exit-delay 300) after the service is gone: end the ones of
  # this state dir by PID.
  local pid
  for pid in $(pgrep -x conmon || true); do
    if tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$PODMAN_DIR/"; then
      kill "$pid" 2>/dev/null || true
    fi
  done
  rm -f "$PODMAN_SOCK" "$PODMAN_USABLE_FILE"
}

podman_status() {
  local pid
  if pid=$(pidfile_pid "$PODMAN_PIDFILE" "$PODMAN_MARKER"); then
    if ! podman_ping; then
      echo "podman    starting pid $pid  unix://$PODMAN_SOCK  (not answering _ping)"
      return 1
    fi
    if [[ -f $PODMAN_USABLE_FILE ]]; then
      echo "podman    running  pid $pid  unix://$PODMAN_SOCK  (storage $(podman_driver))"
    else
      echo "podman    running  pid $pid  unix://$PODMAN_SOCK  (CANNOT run containers: $(cat "$PODMAN_FAILURE_FILE" 2>/dev/null))"
    fi
    return 0
  fi
  echo "podman    stopped"
  return 1
}
