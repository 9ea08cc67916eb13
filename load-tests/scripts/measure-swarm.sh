#!/usr/bin/env bash
# The bot swarm's own CPU per action, apart from the platform's: the swarm plays against a stand-in
# (load-tests/bench/table-server.ts: the client protocol, real engine games, the room worker's frame
# layout) running in its own process, and only the swarm's processes are counted.
#
#   bash load-tests/scripts/measure-swarm.sh TABLES [DURATION_S] [WARMUP_S] [ROUNDS]
#
# SWARM_TREES="DIR_A DIR_B" runs the swarm of each tree (a checkout; its load-tests/src/swarm.ts) in
# turn, ROUNDS times, against the same stand-in, so two versions compare within one run on a shared
# box. SWARM_ARGS adds swarm flags (e.g. "--workers 2" or "--check-every 1"). Prints one line per run:
# the swarm's summary, its CPU µs per action (utime + stime of the swarm and its workers in the
# measured window ÷ the actions/s of the same window), the stand-in's, and the load average.
set -euo pipefail
TABLES=${1:?tables}
DURATION=${2:-60}
WARMUP=${3:-25}
ROUNDS=${4:-1}
PORT=${MEASURE_PORT_BASE:-19790}
here=$(cd "$(dirname "$0")/../.." && pwd)
logs=$(mktemp -d)
node --import tsx "$here/load-tests/bench/table-server.ts" "$PORT" >"$logs/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
until grep -q listening "$logs/server.log"; do sleep 0.2; done
# utime + stime (field 14 + 15; with FIELD=14 user time only) of a process and its children (swarm workers).
ticks() {
  local t=0 p
  for p in "$1" $(pgrep -P "$1"); do
    t=$((t + $(awk -v f="${FIELD:-0}" '{print f ? $f : $14 + $15}' "/proc/$p/stat" 2>/dev/null || echo 0)))
  done
  echo "$t"
}
hz=$(getconf CLK_TCK)
for round in $(seq "$ROUNDS"); do
  for tree in ${SWARM_TREES:-$here}; do
    # shellcheck disable=SC2086
    (cd "$tree" && exec node --import tsx load-tests/src/swarm.ts --url "ws://127.0.0.1:$PORT/ws" --tables "$TABLES" \
      --duration "$DURATION" --ramp-ms $((TABLES * 5)) --warmup "$WARMUP" --live-ms 0 --auth jwt-secret \
      --jwt-secret joke-app-dev-secret-not-for-production --report "" --json "$logs/run.json" ${SWARM_ARGS:-}) \
      >"$logs/swarm.out" 2>&1 &
    SWARM=$!
    sleep "$WARMUP"
    s0=$(ticks $SWARM)
    u0=$(FIELD=14 ticks $SWARM)
    v0=$(ticks $SERVER)
    t0=$(date +%s.%N)
    sleep $((DURATION - WARMUP - 2))
    s1=$(ticks $SWARM)
    u1=$(FIELD=14 ticks $SWARM)
    v1=$(ticks $SERVER)
    t1=$(date +%s.%N)
    wait $SWARM || true
    aps=$(jq '.totals.actionsPerSecond' "$logs/run.json")
    echo "round $round $tree: $(tail -1 "$logs/swarm.out")"
    echo "  $aps actions/s; cpu µs per action: swarm=$(echo "($s1 - $s0) * 1000000 / $hz / ($t1 - $t0) / $aps" | bc)" \
      "(user $(echo "($u1 - $u0) * 100 / ($s1 - $s0)" | bc) %)" \
      "stand-in=$(echo "($v1 - $v0) * 1000000 / $hz / ($t1 - $t0) / $aps" | bc)   (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  done
done
