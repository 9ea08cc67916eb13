#!/usr/bin/env bash
# The bot swarm's own CPU per action, apart from the platform's: the swarm plays against a stand-in
# (load-tests/bench/table-server.ts: the client protocol, real engine games, the room worker's frame
# layout) running in its own process, and only the swarm's processes are counted.
#
#   bash load-tests/scripts/measure-swarm.sh TABLES [DURATION_S] [WARMUP_S] [ROUNDS]
#
# SWARM_TREES="DIR_A DIR_B" runs the swarm of each tree (a checkout; its load-tests/src/swarm.ts) at the
# same time, TABLES tables each, against the same stand-in (a run's bots only ever share tables with
# each other), so two versions see the same box at the same moment: on a shared machine whose load
# moves by the minute, only such a side-by-side ratio means much. SWARM_ARGS adds swarm flags (e.g.
# "--workers 2" or "--check-every 1"). SWARM_VARIANTS="ARGS_A;ARGS_B" instead runs this tree's swarm
# once per variant side by side, each with its own extra flags (e.g. "--ws-client ws;--ws-client lean").
# Prints one line per swarm and round: its summary, its CPU µs per action (utime + stime of the swarm and its workers in the measured window ÷ the actions/s of the same
# window, and the user share), then the stand-in's, and the load average.
set -euo pipefail
TABLES=${1:?tables}
DURATION=${2:-60}
WARMUP=${3:-25}
ROUNDS=${4:-1}
PORT=${MEASURE_PORT_BASE:-19790}
here=$(cd "$(dirname "$0")/../.." && pwd)
read -r -a trees <<<"${SWARM_TREES:-$here}"
variants=()
if [[ -n "${SWARM_VARIANTS:-}" ]]; then
  IFS=';' read -r -a variants <<<"$SWARM_VARIANTS"
  trees=()
  for _ in "${variants[@]}"; do trees+=("$here"); done
fi
logs=$(mktemp -d)
node --import tsx "$here/load-tests/bench/table-server.ts" "$PORT" >"$logs/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
until grep -qs listening "$logs/server.log"; do sleep 0.2; done
# utime + stime (field 14 + 15; FIELD=14: user time only) of a process and its children (swarm workers).
ticks() {
  local t=0 p
  for p in "$1" $(pgrep -P "$1"); do
    t=$((t + $(awk -v f="${FIELD:-0}" '{print f ? $f : $14 + $15}' "/proc/$p/stat" 2>/dev/null || echo 0)))
  done
  echo "$t"
}
hz=$(getconf CLK_TCK)
per() { echo "$1 * 1000000 / $hz / ($t1 - $t0) / $2" | bc; }
for round in $(seq "$ROUNDS"); do
  pids=()
  for k in "${!trees[@]}"; do
    # shellcheck disable=SC2086
    (cd "${trees[$k]}" && exec node --import tsx load-tests/src/swarm.ts --url "ws://127.0.0.1:$PORT/ws" \
      --tables "$TABLES" --duration "$DURATION" --ramp-ms $((TABLES * 5)) --warmup "$WARMUP" --live-ms 0 \
      --auth jwt-secret --jwt-secret joke-app-dev-secret-not-for-production --report "" --json "$logs/run$k.json" \
      ${SWARM_ARGS:-} ${variants[$k]:-}) >"$logs/swarm$k.out" 2>&1 &
    pids+=($!)
  done
  sleep "$WARMUP"
  declare -A s0 u0 s1 u1
  for k in "${!pids[@]}"; do s0[$k]=$(ticks "${pids[$k]}") && u0[$k]=$(FIELD=14 ticks "${pids[$k]}"); done
  v0=$(ticks $SERVER)
  t0=$(date +%s.%N)
  sleep $((DURATION - WARMUP - 2))
  for k in "${!pids[@]}"; do s1[$k]=$(ticks "${pids[$k]}") && u1[$k]=$(FIELD=14 ticks "${pids[$k]}"); done
  v1=$(ticks $SERVER)
  t1=$(date +%s.%N)
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  for pid in "${pids[@]}"; do wait "$pid" || true; done
  all=0
  for k in "${!pids[@]}"; do
    aps=$(jq '.totals.actionsPerSecond' "$logs/run$k.json")
    all=$(echo "$all + $aps" | bc)
    echo "round $round ${trees[$k]} ${variants[$k]:-}: $(tail -1 "$logs/swarm$k.out")"
    echo "  $aps actions/s; swarm cpu µs per action $(per $((s1[$k] - s0[$k])) "$aps")" \
      "(user $((100 * (u1[$k] - u0[$k]) / (s1[$k] - s0[$k] > 0 ? s1[$k] - s0[$k] : 1))) %)"
  done
  echo "  stand-in cpu µs per action (all swarms' actions) $(per $((v1 - v0)) "$all")   (load average $load)"
done
