# "Remote" engines on loopback, for the tcp+TLS and ssh:// transports: a second private dockerd behind a CA
# generated here, and Debian's sshd on 127.0.0.1 whose `docker system dial-stdio` reaches that dockerd.
# Everything lives under $STATE/remote and is ended by PID. The system sshd is never started and ~/.ssh is never
# read or written: the client side uses a private ssh config (-F) with its own key and known_hosts.
# Writes $STATE/remote.json (read by test/support/remote.ts). Sourced by scripts/engines.sh, never run.

REMOTE_DIR=$STATE/remote
REMOTE_JSON=$STATE/remote.json
REMOTE_TLS_PORT=${BERTH_REMOTE_TLS_PORT:-23760}
REMOTE_SSH_PORT=${BERTH_REMOTE_SSH_PORT:-22220}
# The server certificate names 127.0.0.1 only; the same daemon also listens on 127.0.0.2 (still loopback), so a
# client that dials 127.0.0.2 meets a real certificate whose name does not match.
REMOTE_MISMATCH_ADDR=127.0.0.2

REMOTE_TLS_DIR=$REMOTE_DIR/tls
REMOTE_DOCKER_DIR=$REMOTE_DIR/docker
REMOTE_DOCKER_SOCK=$REMOTE_DIR/docker.sock
REMOTE_DOCKERD_PIDFILE=$REMOTE_DOCKER_DIR/dockerd.pid
REMOTE_DOCKERD_LAUNCH_PIDFILE=$REMOTE_DOCKER_DIR/launch.pid
REMOTE_DOCKERD_LOG=$REMOTE_DOCKER_DIR/dockerd.log
REMOTE_DOCKERD_MARKER="--host unix://$REMOTE_DOCKER_SOCK"

REMOTE_SSH_DIR=$REMOTE_DIR/ssh
REMOTE_SSHD_CONFIG=$REMOTE_SSH_DIR/sshd_config
REMOTE_SSHD_PIDFILE=$REMOTE_SSH_DIR/sshd.pid
REMOTE_SSHD_LOG=$REMOTE_SSH_DIR/sshd.log
REMOTE_SSHD_MARKER="-f $REMOTE_SSHD_CONFIG"
REMOTE_SSH_CLIENT_CONFIG=$REMOTE_SSH_DIR/client_config
# `ssh -F <private config> "$@"`: the command the ssh transport runs in tests.
REMOTE_SSH_WRAPPER=$REMOTE_DIR/bin/ssh

remote_docker_cli() {
  env -u DOCKER_CONTEXT -u DOCKER_TLS_VERIFY -u DOCKER_CERT_PATH \
    DOCKER_HOST="unix://$REMOTE_DOCKER_SOCK" DOCKER_CONFIG="$REMOTE_DIR/docker-config" \
    "$(docker_cli_path)" "$@"
}

remote_docker_ping() { [[ $(curl -s --max-time 3 --unix-socket "$REMOTE_DOCKER_SOCK" http://localhost/_ping) == OK ]]; }

# _ping over TLS with the client certificate: proves the tcp listener and the whole chain work.
remote_tls_ping() {
  [[ $(curl -s --max-time 3 --cacert "$REMOTE_TLS_DIR/client/ca.pem" --cert "$REMOTE_TLS_DIR/client/cert.pem" \
    --key "$REMOTE_TLS_DIR/client/key.pem" "https://127.0.0.1:$REMOTE_TLS_PORT/_ping") == OK ]]
}

remote_dockerd_pid() {
  pidfile_pid "$REMOTE_DOCKERD_PIDFILE" "$REMOTE_DOCKERD_MARKER" ||
    pidfile_pid "$REMOTE_DOCKERD_LAUNCH_PIDFILE" "$REMOTE_DOCKERD_MARKER"
}

# Signs a leaf certificate with the test CA. NAME is the file stem, EXT the extension lines (SAN, usage).
remote_sign() {
  local name=$1 subject=$2 ext=$3 dir=$REMOTE_TLS_DIR
  openssl genrsa -out "$dir/$name-key.pem" 2048 2>/dev/null
  openssl req -new -key "$dir/$name-key.pem" -subj "$subject" -out "$dir/$name.csr" 2>/dev/null
  printf '%s\n' "$ext" >"$dir/$name.ext"
  openssl x509 -req -in "$dir/$name.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca-key.pem" -CAcreateserial \
    -days 3650 -sha256 -extfile "$dir/$name.ext" -out "$dir/$name-cert.pem" 2>/dev/null
  rm -f "$dir/$name.csr" "$dir/$name.ext"
}

# A CA, a server certificate for IP:127.0.0.1, a client certificate, and a second CA nobody trusts (for the
# "server not signed by my CA" case). client/ is laid out as DOCKER_CERT_PATH expects: ca.pem, cert.pem, key.pem.
remote_make_certs() {
  local dir=$REMOTE_TLS_DIR
  [[ -s $dir/client/key.pem && -s $dir/server-cert.pem && -s $dir/other-ca/ca.pem ]] && return 0
  command -v openssl >/dev/null || die "openssl is missing (apt-get install openssl)"
  log "generating a test CA and certificates in $dir"
  rm -rf "$dir"
  mkdir -p "$dir/client" "$dir/other-ca"
  (
    umask 077
    openssl req -x509 -newkey rsa:2048 -nodes -keyout "$dir/ca-key.pem" -out "$dir/ca.pem" -days 3650 \
      -subj '/CN=Berth test CA' 2>/dev/null
    remote_sign server '/CN=127.0.0.1' $'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth'
    remote_sign client '/CN=berth-client' 'extendedKeyUsage=clientAuth'
    cp "$dir/ca.pem" "$dir/client/ca.pem"
    cp "$dir/client-cert.pem" "$dir/client/cert.pem"
    cp "$dir/client-key.pem" "$dir/client/key.pem"
    # A CA that signed nothing the daemon presents: trusting it instead of ours must fail verification.
    openssl req -x509 -newkey rsa:2048 -nodes -keyout "$dir/other-ca/ca-key.pem" -out "$dir/other-ca/ca.pem" \
      -days 3650 -subj '/CN=Some other CA' 2>/dev/null
    cp "$dir/client/cert.pem" "$dir/client/key.pem" "$dir/other-ca/"
  )
}

remote_docker_start() {
  if remote_dockerd_pid >/dev/null && remote_docker_ping; then
    log "remote dockerd already running (pid $(remote_dockerd_pid))"
    return 0
  fi
  mkdir -p "$REMOTE_DOCKER_DIR/data" "$REMOTE_DOCKER_DIR/exec"
  stop_by_pidfile "orphaned remote containerd" "$REMOTE_DOCKER_DIR/exec/containerd/containerd.pid" \
    "$REMOTE_DOCKER_DIR/exec/containerd" 20
  # A registry on a documentation-range address (RFC 5737) marked insecure: only ever an input string, so tests can
  # check that credentials are refused for a plain-HTTP registry. Nothing ever connects to it.
  echo '{ "insecure-registries": ["192.0.2.10:5000"] }' >"$REMOTE_DOCKER_DIR/daemon.json"
  rm -f "$REMOTE_DOCKER_SOCK" "$REMOTE_DOCKERD_PIDFILE"
  : >"$REMOTE_DOCKERD_LOG"
  log "starting the remote dockerd on tcp://127.0.0.1:$REMOTE_TLS_PORT (TLS) and $REMOTE_DOCKER_SOCK"
  launch_detached "$REMOTE_DOCKERD_LAUNCH_PIDFILE" "$REMOTE_DOCKERD_LOG" \
    dockerd --host "unix://$REMOTE_DOCKER_SOCK" \
    --host "tcp://127.0.0.1:$REMOTE_TLS_PORT" \
    --host "tcp://$REMOTE_MISMATCH_ADDR:$REMOTE_TLS_PORT" \
    --tlsverify \
    --tlscacert "$REMOTE_TLS_DIR/ca.pem" \
    --tlscert "$REMOTE_TLS_DIR/server-cert.pem" \
    --tlskey "$REMOTE_TLS_DIR/server-key.pem" \
    --config-file "$REMOTE_DOCKER_DIR/daemon.json" \
    --data-root "$REMOTE_DOCKER_DIR/data" \
    --exec-root "$REMOTE_DOCKER_DIR/exec" \
    --pidfile "$REMOTE_DOCKERD_PIDFILE" \
    --bridge=none --iptables=false --ip6tables=false --ip-masq=false \
    --userland-proxy=false \
    --shutdown-timeout=2
  wait_ready "remote dockerd" 60 "$REMOTE_DOCKERD_LOG" "$REMOTE_DOCKERD_LAUNCH_PIDFILE" "$REMOTE_DOCKERD_MARKER" \
    remote_docker_ping
  wait_ready "remote dockerd TLS listener" 20 "$REMOTE_DOCKERD_LOG" "$REMOTE_DOCKERD_LAUNCH_PIDFILE" \
    "$REMOTE_DOCKERD_MARKER" remote_tls_ping
}

remote_docker_image() {
  if remote_docker_cli image inspect "$TEST_IMAGE" >/dev/null 2>&1; then return 0; fi
  log "importing $TEST_IMAGE into the remote dockerd"
  remote_docker_cli import --change 'CMD ["/bin/sh"]' "$FIXTURE_TAR" "$TEST_IMAGE" >/dev/null
}

remote_docker_stop() {
  local pid id
  if pid=$(remote_dockerd_pid); then
    echo "$pid" >"$REMOTE_DOCKERD_LAUNCH_PIDFILE"
    if remote_docker_ping; then
      for id in $(remote_docker_cli ps --quiet 2>/dev/null); do
        curl -s --max-time 10 --unix-socket "$REMOTE_DOCKER_SOCK" -X POST "http://localhost/containers/$id/kill" >/dev/null || true
      done
    fi
  fi
  stop_by_pidfile "remote dockerd" "$REMOTE_DOCKERD_LAUNCH_PIDFILE" "$REMOTE_DOCKERD_MARKER" 40
  rm -f "$REMOTE_DOCKERD_PIDFILE"
  stop_by_pidfile "remote containerd" "$REMOTE_DOCKER_DIR/exec/containerd/containerd.pid" \
    "$REMOTE_DOCKER_DIR/exec/containerd" 20
  rm -f "$REMOTE_DOCKER_SOCK"
}

# Host key, user key, authorized_keys (forcing DOCKER_HOST for the session), sshd and client configs.
remote_make_ssh() {
  local dir=$REMOTE_SSH_DIR
  mkdir -p "$dir" "$REMOTE_DIR/bin"
  chmod 700 "$dir"
  [[ -s $dir/host_ed25519 ]] || ssh-keygen -q -t ed25519 -N '' -C berth-test-host -f "$dir/host_ed25519"
  [[ -s $dir/client_ed25519 ]] || ssh-keygen -q -t ed25519 -N '' -C berth-test-client -f "$dir/client_ed25519"
  # The session's environment points the "remote" docker CLI (dial-stdio) at the remote dockerd.
  printf 'environment="DOCKER_HOST=unix://%s",environment="DOCKER_CONFIG=%s" %s\n' \
    "$REMOTE_DOCKER_SOCK" "$REMOTE_DIR/docker-config" "$(<"$dir/client_ed25519.pub")" >"$dir/authorized_keys"
  chmod 600 "$dir/authorized_keys"
  printf '[127.0.0.1]:%s %s\n' "$REMOTE_SSH_PORT" "$(cut -d' ' -f1,2 "$dir/host_ed25519.pub")" >"$dir/known_hosts"
  cat >"$REMOTE_SSHD_CONFIG" <<EOF
ListenAddress 127.0.0.1
Port $REMOTE_SSH_PORT
HostKey $dir/host_ed25519
PidFile $REMOTE_SSHD_PIDFILE
AuthorizedKeysFile $dir/authorized_keys
AllowUsers root
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
PermitUserEnvironment DOCKER_HOST,DOCKER_CONFIG
AllowTcpForwarding no
X11Forwarding no
PrintMotd no
StrictModes no
LogLevel VERBOSE
EOF
  cat >"$REMOTE_SSH_CLIENT_CONFIG" <<EOF
Host *
  IdentityFile $dir/client_ed25519
  IdentitiesOnly yes
  UserKnownHostsFile $dir/known_hosts
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
  BatchMode yes
  ConnectTimeout 10
EOF
  printf '#!/bin/sh\n# The ssh the tests run: the real ssh, with the private config instead of ~/.ssh.\nexec /usr/bin/ssh -F %s "$@"\n' \
    "$REMOTE_SSH_CLIENT_CONFIG" >"$REMOTE_SSH_WRAPPER"
  chmod 755 "$REMOTE_SSH_WRAPPER"
}

remote_ssh_ping() {
  [[ $("$REMOTE_SSH_WRAPPER" -l root -p "$REMOTE_SSH_PORT" 127.0.0.1 true 2>/dev/null && echo ok) == ok ]]
}

remote_sshd_start() {
  [[ -x /usr/sbin/sshd ]] || die "/usr/sbin/sshd is missing; run: bash scripts/install-deps.sh"
  if pidfile_pid "$REMOTE_SSHD_PIDFILE" "$REMOTE_SSHD_MARKER" >/dev/null && remote_ssh_ping; then
    log "remote sshd already running (pid $(pidfile_pid "$REMOTE_SSHD_PIDFILE" "$REMOTE_SSHD_MARKER"))"
    return 0
  fi
  # sshd refuses to start without its privilege separation directory (the package creates it only at boot).
  mkdir -p /run/sshd
  chmod 755 /run/sshd
  /usr/sbin/sshd -t -f "$REMOTE_SSHD_CONFIG" || die "sshd rejects $REMOTE_SSHD_CONFIG"
  : >"$REMOTE_SSHD_LOG"
  log "starting sshd on 127.0.0.1:$REMOTE_SSH_PORT"
  # -D: stays in the foreground, so the PID written before exec is sshd's own; -e: log to the log file.
  launch_detached "$REMOTE_SSHD_PIDFILE" "$REMOTE_SSHD_LOG" /usr/sbin/sshd -D -e -f "$REMOTE_SSHD_CONFIG" \
    -p "$REMOTE_SSH_PORT"
  wait_ready sshd 20 "$REMOTE_SSHD_LOG" "$REMOTE_SSHD_PIDFILE" "$REMOTE_SSHD_MARKER" remote_ssh_ping
}

remote_write_json() {
  (
    umask 077
    cat >"$REMOTE_JSON.tmp" <<EOF
{
  "dockerHost": "unix://$REMOTE_DOCKER_SOCK",
  "image": "$TEST_IMAGE",
  "tls": {
    "host": "tcp://127.0.0.1:$REMOTE_TLS_PORT",
    "mismatchedHost": "tcp://$REMOTE_MISMATCH_ADDR:$REMOTE_TLS_PORT",
    "certPath": "$REMOTE_TLS_DIR/client",
    "untrustedCertPath": "$REMOTE_TLS_DIR/other-ca"
  },
  "ssh": {
    "host": "ssh://root@127.0.0.1:$REMOTE_SSH_PORT",
    "command": "$REMOTE_SSH_WRAPPER",
    "configFile": "$REMOTE_SSH_CLIENT_CONFIG"
  }
}
EOF
  )
  mv "$REMOTE_JSON.tmp" "$REMOTE_JSON"
}

remote_start() {
  local began=$SECONDS
  [[ -x /usr/sbin/sshd ]] || die "/usr/sbin/sshd is missing; run: bash scripts/install-deps.sh"
  fixture_build_tar
  remote_make_certs
  remote_docker_start
  remote_docker_image
  remote_make_ssh
  remote_sshd_start
  remote_write_json
  log "remote engines ready in $((SECONDS - began))s; wrote $REMOTE_JSON"
}

# Dockerds the resilience tests start and SIGKILL (test/support/scratchDockerd.ts) end themselves; this is the safety
# net for a test run that crashed: each one by its pidfile, then its containerd, then the directory.
scratch_stop_all() {
  local dir
  for dir in "$STATE"/scratch-*/; do
    [[ -d $dir ]] || continue
    dir=${dir%/}
    stop_by_pidfile "scratch dockerd ${dir##*/}" "$dir/dockerd.pid" "--host unix://$dir/docker.sock" 30
    stop_by_pidfile "scratch containerd ${dir##*/}" "$dir/exec/containerd/containerd.pid" "$dir/exec/containerd" 20
    unmount_under "$dir"
    rm -rf "$dir"
  done
}

remote_stop() {
  rm -f "$REMOTE_JSON"
  scratch_stop_all
  stop_by_pidfile sshd "$REMOTE_SSHD_PIDFILE" "$REMOTE_SSHD_MARKER" 10
  remote_docker_stop
}

remote_status() {
  local pid
  if pid=$(remote_dockerd_pid) && remote_tls_ping; then
    echo "remote    running  pid $pid  tcp://127.0.0.1:$REMOTE_TLS_PORT (TLS)"
  else
    echo "remote    stopped"
  fi
  if pid=$(pidfile_pid "$REMOTE_SSHD_PIDFILE" "$REMOTE_SSHD_MARKER"); then
    echo "sshd      running  pid $pid  ssh://root@127.0.0.1:$REMOTE_SSH_PORT"
  else
    echo "sshd      stopped"
  fi
}
