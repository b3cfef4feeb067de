# Stage runners and bookkeeping for scripts/test.sh. Sourced, never run.
# Each stage streams its output to the console and to test-output/<stage>.log, under a time limit.

TOTAL_PASSED=0
TOTAL_FAILED=0
TOTAL_SKIPPED=0
ANY_STAGE_FAILED=0
SUMMARY_ROWS=()
FAILED_STAGES=()

banner() {
  if [[ -t 1 ]]; then printf '\n\033[1m===== %s =====\033[0m\n' "$*"; else printf '\n===== %s =====\n' "$*"; fi
}

# record STAGE RESULT DETAIL SECONDS
record() {
  SUMMARY_ROWS+=("$(printf '%-18s %-8s %5ss  %s' "$1" "$2" "$4" "$3")")
  if [[ $2 == failed ]]; then
    ANY_STAGE_FAILED=1
    FAILED_STAGES+=("$1")
  fi
}

# Runs COMMAND under a time limit with its output teed to LOG; prints the exit status
# (124 when the limit was hit). stdin is closed: CI has none and nothing may wait on it.
run_logged() {
  local log=$1 limit=$2
  shift 2
  timeout --kill-after=30 "$limit" "$@" </dev/null 2>&1 | tee "$log"
  return "${PIPESTATUS[0]}"
}

describe_exit() {
  case $1 in
    124 | 137) echo "timed out after $2 s" ;;
    *) echo "exit status $1" ;;
  esac
}

# A stage that cannot run on this machine: a banner, the reason, and a `skipped` row (no test counted).
skip_stage() {
  banner "$1 tests"
  echo "skipped: $2"
  record "$1" skipped "$2" 0
}

# The Podman service's unix:// URL from the engines' state file (empty when Podman cannot run here);
# fails when the state file is missing or unreadable.
engines_podman_host() {
  local state_file=${BERTH_STATE_DIR:-/tmp/berth-state}/engines.json
  node -e '
    const state = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    console.log(typeof state.podmanHost === "string" ? state.podmanHost : "");' "$state_file" 2>/dev/null
}

# A step that has no test counts (install, build, lint, engines): a failure counts as one failed check.
run_step() {
  local name=$1 limit=$2 began=$SECONDS rc=0
  shift 2
  banner "$name"
  run_logged "$OUTPUT_DIR/$name.log" "$limit" "$@" || rc=$?
  if ((rc == 0)); then
    record "$name" ok "" $((SECONDS - began))
  else
    TOTAL_FAILED=$((TOTAL_FAILED + 1))
    record "$name" failed "$(describe_exit "$rc" "$limit"); see $OUTPUT_DIR/$name.log" $((SECONDS - began))
  fi
}

# The value of the last `# KEY N` line of a TAP file (node's run summary), 0 when absent.
tap_count() {
  local value
  value=$(grep -E "^# $2 [0-9]+$" "$1" 2>/dev/null | tail -n 1 | awk '{print $3}')
  echo "${value:-0}"
}

# node's test runner over the *.test.ts files below DIR (as package.json's SCRIPT finds them) via
# `npm run SCRIPT`: spec output on the console, TAP in a file for counts.
run_node_tests() {
  local name=$1 limit=$2 script=$3 dir=$4 began=$SECONDS rc=0
  banner "$name tests"
  if [[ -z $(find "$dir" -name '*.test.ts' -print -quit 2>/dev/null) ]]; then
    echo "no test files below $dir: skipped"
    record "$name" skipped "no test files yet" 0
    return 0
  fi
  local tap=$OUTPUT_DIR/$name.tap
  rm -f "$tap"
  NODE_OPTIONS="${NODE_OPTIONS:+$NODE_OPTIONS }--test-reporter=spec --test-reporter-destination=stdout --test-reporter=tap --test-reporter-destination=$tap" \
    run_logged "$OUTPUT_DIR/$name.log" "$limit" npm run "$script" || rc=$?
  local passed failed skipped detail
  passed=$(tap_count "$tap" pass)
  failed=$(($(tap_count "$tap" fail) + $(tap_count "$tap" cancelled)))
  skipped=$(($(tap_count "$tap" skipped) + $(tap_count "$tap" todo)))
  detail="$passed passed, $failed failed, $skipped skipped"
  if ((rc != 0 && failed == 0)) || ! grep -qE '^# pass [0-9]+$' "$tap" 2>/dev/null; then
    # The runner ended without a failing test to show for it (crash, time limit, no summary).
    failed=$((failed + 1))
    detail="$detail; crashed, counted as 1 failed: $(describe_exit "$rc" "$limit")"
  fi
  add_counts "$name" "$passed" "$failed" "$skipped" "$detail" $((SECONDS - began))
}

# A launcher (integration, e2e) that writes test-output/<stage>-counts.json = {"passed":N,"failed":N[,"pending":N]}.
run_launcher_tests() {
  local name=$1 limit=$2 script=$3 launcher=$4 began=$SECONDS rc=0
  banner "$name tests"
  if [[ ! -e $launcher ]]; then
    echo "no launcher ($launcher): skipped"
    record "$name" skipped "no launcher yet" 0
    return 0
  fi
  local counts_file=$OUTPUT_DIR/$name-counts.json
  rm -f "$counts_file"
  run_logged "$OUTPUT_DIR/$name.log" "$limit" npm run "$script" || rc=$?
  local passed=0 failed=0 skipped=0 detail
  if [[ -s $counts_file ]]; then
    read -r passed failed skipped < <(node -e '
      const c = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
      const n = (v) => (Number.isInteger(v) && v >= 0 ? v : 0);
      console.log(n(c.passed), n(c.failed), n(c.pending) + n(c.skipped));' "$counts_file") || {
      passed=0 failed=0 skipped=0
      echo "unreadable $counts_file"
    }
  fi
  detail="$passed passed, $failed failed, $skipped skipped"
  if [[ ! -s $counts_file ]]; then
    failed=$((failed + 1))
    detail="$detail; crashed, counted as 1 failed: no $counts_file ($(describe_exit "$rc" "$limit"))"
  elif ((rc != 0 && failed == 0)); then
    failed=$((failed + 1))
    detail="$detail; crashed, counted as 1 failed: $(describe_exit "$rc" "$limit")"
  fi
  add_counts "$name" "$passed" "$failed" "$skipped" "$detail" $((SECONDS - began))
}

# The fewest tests each stage may report (passed + failed + skipped), set a little below the counts of the day
# they were recorded: a stage whose cases vanish (a file that decides Podman is not there, a suite that no longer
# registers, a glob that stops matching) fails instead of passing with less. Other work only adds tests; raise
# these when a stage grows, never lower them to make a run pass.
declare -A STAGE_MINIMUM=([unit]=500 [unit-later]=500 [engine]=395 [integration]=140 [integration-podman]=130 [e2e]=36)

add_counts() {
  local name=$1 passed=$2 failed=$3 skipped=$4 detail=$5 seconds=$6
  local minimum=${STAGE_MINIMUM[$name]:-0} total=$((passed + failed + skipped))
  if ((total < minimum)); then
    echo "$name: $total tests ran, fewer than the recorded minimum of $minimum (scripts/lib/test-stages.sh STAGE_MINIMUM)"
    failed=$((failed + 1))
    detail="$detail; counted as 1 failed: $total tests, fewer than the minimum $minimum"
  fi
  TOTAL_PASSED=$((TOTAL_PASSED + passed))
  TOTAL_FAILED=$((TOTAL_FAILED + failed))
  TOTAL_SKIPPED=$((TOTAL_SKIPPED + skipped))
  if ((failed > 0)); then record "$name" failed "$detail" "$seconds"; else record "$name" ok "$detail" "$seconds"; fi
}

# The table, then the plain total as the very last line; exits 1 when anything failed.
# The names of the failed tests of each failed stage, last, so that the tail of a CI log names them (node's spec
# reporter marks them with ✖, mocha numbers them `N) `, the e2e runner marks them ✗), and the case that was running when a stage hit its limit.
print_failed_tests() {
  local stage log
  for stage in "${FAILED_STAGES[@]}"; do
    log=$OUTPUT_DIR/$stage.log
    [[ -f $log ]] || continue
    echo "failed in $stage:"
    grep -E '^\s*[✖✗] |^\s+[0-9]+\) ' "$log" | grep -v '# TODO' | sed -E 's/^\s+//' | awk '!seen[$0]++' | head -n 15 | sed 's/^/  /'
    echo "  last lines of $log:"
    grep -vE '^\s+at ' "$log" | tail -n 4 | sed 's/^/    /'
  done
}

print_summary() {
  local row
  banner "summary (${1}s)"
  for row in "${SUMMARY_ROWS[@]}"; do echo "$row"; done
  echo "$TOTAL_PASSED passed, $TOTAL_FAILED failed, $TOTAL_SKIPPED skipped"
  print_failed_tests
  if ((TOTAL_FAILED > 0 || ANY_STAGE_FAILED)); then exit 1; fi
  exit 0
}
