#!/usr/bin/env bash
# Run the follower's tests N times in a row (default 20) with two CPU-bound processes beside them,
# as a loaded 2-core CI machine would; stop at the first failing run and say which.
#   scripts/stress-tests.sh [RUNS] [jest paths...]
# Build first (npm run build); each run is one jest invocation with --runInBand.
set -u
cd "$(dirname "$0")/.."
runs="${1:-20}"
shift || true
if [ "$#" -eq 0 ]; then
  set -- packages/dsh/test/session-log-follower.int.test.ts packages/dsh/test/log-tail.int.test.ts \
    packages/dsh/test/follow-slices.int.test.ts packages/dsh/test/follow-set-aside.int.test.ts \
    test/follow/follow-convergence.int.test.ts packages/cli/test/watch.e2e.test.ts \
    packages/cli/test/watch-command.e2e.test.ts packages/cli/test/serve-follow.e2e.test.ts
fi
tests=()
for path in "$@"; do
  if [ -e "$path" ]; then tests+=("$path"); else echo "no such test file: $path" >&2; exit 2; fi
done

burners=()
stop_burners() { for pid in "${burners[@]}"; do kill "$pid" 2>/dev/null; done; }
trap stop_burners EXIT
for _ in 1 2; do
  node -e 'for (;;) Math.sqrt(Math.random());' &
  burners+=("$!")
done

passed=0
for run in $(seq 1 "$runs"); do
  started=$(date +%s)
  if npx jest --runInBand "${tests[@]}" >"/tmp/stress-tests.run-$run.log" 2>&1; then
    passed=$((passed + 1))
    echo "run $run/$runs: passed in $(( $(date +%s) - started )) s"
  else
    echo "run $run/$runs: FAILED in $(( $(date +%s) - started )) s (log: /tmp/stress-tests.run-$run.log)"
    echo "$passed of $run runs passed with two CPU-bound processes beside them"
    exit 1
  fi
done
echo "$passed of $runs runs passed in a row with two CPU-bound processes beside them"
