# Shared helpers for scripts/engines.sh: logging, process bookkeeping by pidfile, readiness waits.
# Sourced, never run. Every process is tracked by a pidfile and ended by that PID only.

log() { printf '[engines] %s\n' "$*" >&2; }
die() { printf '[engines] error: %s\n' "$*" >&2; exit 1; }

# The command line of a PID, NULs turned into spaces; empty when the process is gone.
proc_cmdline() {
  local pid=$1
  [[ -r /proc/$pid/cmdline ]] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null
}

# True when the process is gone or a zombie (a zombie's cmdline is empty).
pid_gone() {
  local pid=$1 state
  [[ -e /proc/$pid ]] || return 0
  state=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null) || return 0
  [[ -z $state || $state == Z ]]
}

# Prints the PID in PIDFILE when that process is alive and its command line contains MARKER
# (guards against a recycled PID belonging to someone else's process).
pidfile_pid() {
  local pidfile=$1 marker=$2 pid cmdline
  [[ -s $pidfile ]] || return 1
  pid=$(tr -dc '0-9' <"$pidfile")
  [[ -n $pid ]] || return 1
  pid_gone "$pid" && return 1
  cmdline=$(proc_cmdline "$pid") || return 1
  [[ $cmdline == *"$marker"* ]] || return 1
  printf '%s\n' "$pid"
}

# Starts COMMAND detached in its own session, stdin closed, output appended to LOGFILE.
# When PIDFILE is non-empty the PID is written there before exec, so it is the daemon's own PID.
# fd 9 (engines.sh's lock) is closed so a daemon never holds the lock.
launch_detached() {
  local pidfile=$1 logfile=$2
  shift 2
  # shellcheck disable=SC2016 # $$ and $@ belong to the inner shell.
  setsid bash -c 'if [[ -n $0 ]]; then echo $$ >"$0"; fi; exec "$@"' "$pidfile" "$@" \
    </dev/null >>"$logfile" 2>&1 9>&- &
}

# Sends TERM to the process named by PIDFILE (if it is ours and alive), waits up to TIMEOUT seconds,
# then KILL. Removes the pidfile. Safe to call when nothing runs.
stop_by_pidfile() {
  local name=$1 pidfile=$2 marker=$3 timeout=${4:-20} pid waited=0
  if ! pid=$(pidfile_pid "$pidfile" "$marker"); then
    rm -f "$pidfile"
    return 0
  fi
  log "stopping $name (pid $pid)"
  kill -TERM "$pid" 2>/dev/null || true
  while ! pid_gone "$pid"; do
    if ((waited >= timeout * 10)); then
      log "$name (pid $pid) did not exit after ${timeout}s; sending KILL"
      kill -KILL "$pid" 2>/dev/null || true
      sleep 0.5
      break
    fi
    sleep 0.1
    waited=$((waited + 1))
  done
  rm -f "$pidfile"
}

# Polls CHECK (a command) every 0.2 s until it succeeds. Fails with the log tail when TIMEOUT seconds
# pass or when the process in PIDFILE dies first.
wait_ready() {
  local name=$1 timeout=$2 logfile=$3 pidfile=$4 marker=$5
  shift 5
  local tries=$((timeout * 5)) i
  for ((i = 0; i < tries; i++)); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    if ((i > 10)) && [[ -n $pidfile ]] && ! pidfile_pid "$pidfile" "$marker" >/dev/null; then
      break
    fi
    sleep 0.2
  done
  log "$name did not become ready within ${timeout}s. Last lines of $logfile:"
  tail -n 25 "$logfile" >&2 || true
  die "$name failed to start"
}

http_code() { curl -s -o /dev/null -w '%{http_code}' --max-time 3 "$@" || true; }

# Unmounts whatever the engines left mounted under DIR (overlay layers, a storage bind mount),
# deepest first, so the state directory can be deleted after a stop.
unmount_under() {
  local dir=$1 mountpoint
  awk -v dir="$dir/" 'index($2, dir) == 1 { print $2 }' /proc/mounts | sort -r |
    while IFS= read -r mountpoint; do
      umount "$mountpoint" 2>/dev/null || umount -l "$mountpoint" 2>/dev/null || log "could not unmount $mountpoint"
    done
}
