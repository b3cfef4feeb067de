# A private registry (Debian's docker-registry) on loopback, demanding htpasswd auth.
# The password is generated once and kept in $STATE/registry/password.

REGISTRY_DIR=$STATE/registry
REGISTRY_ADDR=127.0.0.1:${BERTH_REGISTRY_PORT:-5055}
REGISTRY_USER=berth
REGISTRY_PIDFILE=$REGISTRY_DIR/registry.pid
REGISTRY_LOG=$REGISTRY_DIR/registry.log
REGISTRY_CONFIG=$REGISTRY_DIR/config.yml
REGISTRY_MARKER="serve $REGISTRY_CONFIG"

registry_password() {
  local file=$REGISTRY_DIR/password
  if [[ ! -s $file ]]; then
    mkdir -p "$REGISTRY_DIR"
    # 18 random bytes are exactly 24 base64 characters: no padding, nothing cut off.
    (umask 077 && head -c 18 /dev/urandom | base64 | tr '+/' 'xy' >"$file")
  fi
  printf '%s' "$(<"$file")"
}

# 401 on /v2/ proves it is up and demands credentials.
registry_ping() { [[ $(http_code "http://$REGISTRY_ADDR/v2/") == 401 ]]; }

registry_write_config() {
  mkdir -p "$REGISTRY_DIR/data"
  # -i reads the password from stdin, so it never shows in a process list.
  (umask 077 && registry_password | htpasswd -inB "$REGISTRY_USER" >"$REGISTRY_DIR/htpasswd")
  if [[ ! -s $REGISTRY_DIR/http-secret ]]; then
    (umask 077 && head -c 32 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' >"$REGISTRY_DIR/http-secret")
  fi
  cat >"$REGISTRY_CONFIG" <<EOF
version: 0.1
log:
  level: warn
  accesslog:
    disabled: true
storage:
  filesystem:
    rootdirectory: $REGISTRY_DIR/data
  delete:
    enabled: true
  maintenance:
    uploadpurging:
      enabled: false
http:
  addr: $REGISTRY_ADDR
  secret: $(cat "$REGISTRY_DIR/http-secret")
auth:
  htpasswd:
    realm: berth-test-registry
    path: $REGISTRY_DIR/htpasswd
EOF
}

registry_start() {
  if pidfile_pid "$REGISTRY_PIDFILE" "$REGISTRY_MARKER" >/dev/null && registry_ping; then
    log "registry already running (pid $(pidfile_pid "$REGISTRY_PIDFILE" "$REGISTRY_MARKER")) on $REGISTRY_ADDR"
    return 0
  fi
  if ! pidfile_pid "$REGISTRY_PIDFILE" "$REGISTRY_MARKER" >/dev/null; then
    if [[ $(http_code "http://$REGISTRY_ADDR/v2/") != 000 ]]; then
      die "something that is not our registry already listens on $REGISTRY_ADDR; free it or set BERTH_REGISTRY_PORT"
    fi
    registry_write_config
    : >"$REGISTRY_LOG"
    log "starting registry on $REGISTRY_ADDR"
    launch_detached "$REGISTRY_PIDFILE" "$REGISTRY_LOG" docker-registry serve "$REGISTRY_CONFIG"
  fi
  wait_ready registry 30 "$REGISTRY_LOG" "$REGISTRY_PIDFILE" "$REGISTRY_MARKER" registry_ping
  log "registry ready (pid $(pidfile_pid "$REGISTRY_PIDFILE" "$REGISTRY_MARKER"))"
}

registry_stop() { stop_by_pidfile registry "$REGISTRY_PIDFILE" "$REGISTRY_MARKER" 10; }

registry_status() {
  local pid
  if pid=$(pidfile_pid "$REGISTRY_PIDFILE" "$REGISTRY_MARKER"); then
    if registry_ping; then
      echo "registry  running  pid $pid  http://$REGISTRY_ADDR  (user $REGISTRY_USER, htpasswd auth)"
      return 0
    fi
    echo "registry  starting pid $pid  http://$REGISTRY_ADDR  (not answering /v2/)"
    return 1
  fi
  echo "registry  stopped"
  return 1
}

# Tags present for REPO (e.g. berth/busybox), one per line, asked with credentials.
registry_tags() {
  curl -s --max-time 5 -u "$REGISTRY_USER:$(registry_password)" "http://$REGISTRY_ADDR/v2/$1/tags/list" |
    grep -o '"tags":\[[^]]*\]' | grep -o '"[^"]*"' | tr -d '"' | grep -vx tags || true
}
