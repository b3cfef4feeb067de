#!/usr/bin/env bash
# THE test command (`npm test`, `.ci/run`): installs what is missing, builds, lints, starts the private
# engines, then runs unit, engine, integration and e2e tests. Its last line is the total over all stages:
#   N passed, N failed, N skipped
# and it exits non-zero when any test failed or any stage failed or crashed. A stage whose tests or
# launcher do not exist is reported as skipped. Logs and counts go to test-output/.
#
# `bash scripts/test.sh unit engine` runs only the named stages (deps build lint engines unit unit-later engine
# integration integration-podman e2e); the engines are started whenever a stage after them runs.
#
# The integration suite runs as a matrix: stage `integration` against the private dockerd, then stage
# `integration-podman`, the same suite against the Podman service (engines.json `podmanHost`; reported as
# skipped when Podman cannot run on the machine). Naming `integration` runs both passes; `integration-podman`
# alone runs only the Podman pass. Each pass has its own counts; both are summed into the last line.
#
# Engines: stopped at the end only when this run started them (BERTH_KEEP_ENGINES=1 keeps them,
# BERTH_STOP_ENGINES=1 stops them even if they were running before).
set -uo pipefail
# dpkg, ldconfig and dockerd live in /usr/sbin and /sbin, which a minimal root environment may leave off PATH.
export PATH=$PATH:/usr/sbin:/sbin

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=lib/test-stages.sh
source scripts/lib/test-stages.sh

# BERTH_TEST_OUTPUT moves the outputs (the launchers honour it too), e.g. for a trial run beside a CI run.
OUTPUT_DIR=${BERTH_TEST_OUTPUT:-test-output}
mkdir -p "$OUTPUT_DIR"
RUN_STARTED=$SECONDS

ENGINES_OURS=0
ENGINES_STOPPED=0
stop_engines_if_ours() {
  ((ENGINES_OURS && !ENGINES_STOPPED)) || return 0
  ENGINES_STOPPED=1
  banner "stop engines"
  bash scripts/engines.sh stop </dev/null 2>&1 | tee -a "$OUTPUT_DIR/engines.log"
}
trap stop_engines_if_ours EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

printf 'Berth tests: node %s, %s cores, CI=%s\n' "$(node --version)" "$(nproc)" "${CI:-}"

ALL_STAGES=(deps build lint engines unit unit-later engine integration integration-podman e2e)
SELECTED=("$@")
for stage in "${SELECTED[@]}"; do
  [[ " ${ALL_STAGES[*]} " == *" $stage "* ]] || { echo "unknown stage '$stage'; stages: ${ALL_STAGES[*]}" >&2; exit 2; }
done
wants() { ((${#SELECTED[@]} == 0)) || [[ " ${SELECTED[*]} " == *" $1 "* ]]; }
needs_engines() { wants engines || wants engine || wants integration || wants integration-podman || wants e2e; }

if wants deps; then run_step deps 1800 bash scripts/install-deps.sh; fi
if wants build; then run_step build 600 npm run build; fi
if wants lint; then run_step lint 900 npm run lint; fi

if needs_engines; then
  if [[ ${BERTH_KEEP_ENGINES:-} != 1 ]] &&
    { [[ ${BERTH_STOP_ENGINES:-} == 1 ]] || ! bash scripts/engines.sh status >/dev/null 2>&1; }; then
    ENGINES_OURS=1
  fi
  run_step engines 600 bash scripts/engines.sh start
fi

if wants unit; then run_node_tests unit 900 test:unit test/unit; fi
# The same unit tests with the clock 400 days ahead (test/support/laterClock.ts): a fixture's absolute time that a
# test compares with today fails here on the day it is written, not in CI on some later day.
if wants unit-later; then run_node_tests unit-later 900 test:unit:later test/unit; fi
# The engine stage took 929-1,086 s of a 1,200 s limit on an idle 2-core machine; 1,500 s leaves room for a slower one.
if wants engine; then run_node_tests engine 1500 test:engine test/engine; fi
if wants integration; then run_launcher_tests integration 1200 test:integration test/integration/run.ts; fi
if wants integration || wants integration-podman; then
  # An unreadable state file is not a reason to skip: the pass then runs and reports why it cannot.
  if podman_host=$(engines_podman_host) && [[ -z $podman_host ]]; then
    skip_stage integration-podman "no podmanHost in engines.json: Podman cannot run on this machine"
  else
    run_launcher_tests integration-podman 1200 test:integration:podman test/integration/run.ts
  fi
fi
if wants e2e; then run_launcher_tests e2e 1200 test:e2e test/e2e/run.ts; fi

stop_engines_if_ours
print_summary $((SECONDS - RUN_STARTED))
