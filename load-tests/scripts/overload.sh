#!/usr/bin/env bash
# Overload without collapse (issue 37 item 6), in one run on one box: finds the knee, then offers 1.5×, 2× and
# 3× the knee and falls back to 0.5×, and prints one Markdown table of every level plus the recovery time.
#
#   KNEE_CANDIDATES=1000,2000,3000,3500,4000 bash load-tests/scripts/overload.sh
#   KNEE_CANDIDATES=20,40 HOLD_S=20 WARMUP_S=5 bash load-tests/scripts/overload.sh     # smoke check
#   FACTORS=3 KNEE_CANDIDATES=2000 bash load-tests/scripts/overload.sh                   # knee, 3×, 0.5× only
#
# The stack is measure-stack.sh's (1 matchmaker, 2 room workers, 1 gateway, the real NATS and Redis, a fresh
# namespace), started once for the whole run. Each level is its own swarm run of HOLD_S seconds (its bots sign
# in, queue and play; the previous level's bots have left, and the tables they left behind play out on the
# workers meanwhile, as when players leave), measured after WARMUP_S:
# - knee search: KNEE_CANDIDATES in the order given (ascending), stopping at the first that fails; the knee is
#   the largest that kept p99 < P99_LIMIT_MS (default 100) with 0 errors. Bounded: at most one run per candidate,
#   none after the first failure. No knee (the first candidate failed): the script says so and exits 1;
# - then 1.5×, 2×, 3× the knee, and 0.5× the knee for the recovery.
# Per level: offered tables | p99 | errors | refused (by code) | actions/s | failovers | µs CPU/action. CPU is every
# process of the stack (matchmaker, workers, gateway, nats-server, redis-server: the ones listening on NATS_URL
# and REDIS_URL, shared with whatever else uses them) plus the swarm, over the whole level (ramp included),
# per action acknowledged in it. Failovers: the matchmaker's joke_matchmaker_failovers_total over the level.
# Recovery: seconds from the start of the 0.5× level (its bots' sign-in included) until its per-interval p99
# (INTERVAL_S, default 1 s) stays under P99_LIMIT_MS for the rest of the level. At a smoke scale an interval
# holds ≈ 10 actions, so its p99 is its slowest action: one slow action late in the level decides it.
#
# The swarm runs with --threshold seated>=0%: a level above the knee seats less by design (refused with a
# code); errors and p99 are what this script judges. Every level's HTML and JSON report stays in the run's
# directory (printed at the end). Box-sized runs (thousands of tables) need the open-file limit
# measure-stack.sh raises; this script raises it the same way but runs one gateway and one swarm process.
set -euo pipefail
IFS=, read -r -a CANDIDATES <<<"${KNEE_CANDIDATES:?KNEE_CANDIDATES=comma-separated table counts, ascending}"
HOLD=${HOLD_S:-60}
WARMUP=${WARMUP_S:-15}
LIMIT=${P99_LIMIT_MS:-100}
INTERVAL=${INTERVAL_S:-1}
BASE=${MEASURE_PORT_BASE:-19300}
largest=0
for c in "${CANDIDATES[@]}"; do ((c > largest)) && largest=$c; done
need=$((largest * 3 * 4 + 4096))
if [[ $(ulimit -n) != unlimited ]] && (($(ulimit -n) < need)); then
  ulimit -n "$need" 2>/dev/null || ulimit -n "$(ulimit -Hn)"
fi
cd "$(dirname "$0")/../.."
export NATS_URL=${NATS_URL:-nats://127.0.0.1:4222} REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379}
export JOKE_NAMESPACE="overload$$" LOG_LEVEL=warn
SECRET=joke-app-dev-secret-not-for-production
CLK_TCK=$(getconf CLK_TCK)
logs=$(mktemp -d)
QUEUE_RATE_PER_ADDRESS=0 QUEUE_TABLES_PER_ADDRESS=0 OPS_PORT=$BASE node --import tsx services/matchmaker/src/main.ts >"$logs/mm.log" 2>&1 &
MM=$!
WORKER_ID=w0 SHARD=0 OPS_PORT=$((BASE + 1)) node --import tsx services/room-worker/src/main.ts >"$logs/w0.log" 2>&1 &
W0=$!
WORKER_ID=w1 SHARD=1 OPS_PORT=$((BASE + 2)) node --import tsx services/room-worker/src/main.ts >"$logs/w1.log" 2>&1 &
W1=$!
JWT_SECRET=$SECRET PORT=$((BASE + 3)) OPS_PORT=$((BASE + 4)) GATEWAY_ID=g0 GATEWAY_MAX_SOCKETS_PER_IP=0 GATEWAY_ROOM_ACCESS=open \
  node --import tsx services/gateway/src/main.ts >"$logs/gw.log" 2>&1 &
GW=$!
finish() {
  kill $MM $W0 $W1 $GW 2>/dev/null || true
  for _ in $(seq 30); do kill -0 $MM $W0 $W1 $GW 2>/dev/null || break; sleep 0.5; done
  kill -9 $MM $W0 $W1 $GW 2>/dev/null || true
  node --import tsx load-tests/scripts/drop-namespace.ts "$JOKE_NAMESPACE" >/dev/null 2>&1 || true
}
trap finish EXIT
for port in $BASE $((BASE + 1)) $((BASE + 2)) $((BASE + 3)); do
  for _ in $(seq 240); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.5; done
  curl -sf "http://127.0.0.1:$port/readyz" >/dev/null || { echo "port $port never ready (logs: $logs)" >&2; exit 1; }
done
listener() { ss -ltnpH "sport = :$1" | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2; }
STACK="$MM $W0 $W1 $GW $(listener "${NATS_URL##*:}") $(listener "${REDIS_URL##*:}")"
# utime + stime of the stack's processes, in clock ticks.
stack_ticks() {
  local sum=0 pid f
  for pid in $STACK; do
    [[ -r /proc/$pid/stat ]] || continue
    read -r -a f <<<"$(sed 's/.*) //' "/proc/$pid/stat")"
    sum=$((sum + f[11] + f[12]))
  done
  echo $sum
}
# utime + stime of one process, in clock ticks (0 once it is gone).
proc_ticks() {
  local f
  [[ -r /proc/$1/stat ]] || { echo 0; return; }
  read -r -a f <<<"$(sed 's/.*) //' "/proc/$1/stat")"
  echo $((f[11] + f[12]))
}
NAMES=(matchmaker w0 w1 gateway nats redis)
# CPU (ms) of the children this shell reaped (the swarm of a level, once waited for) into CHILD_MS. Called
# directly, never in $(…): a subshell's `times` counts the subshell's children only.
children_ms() {
  times >"$logs/times.txt"
  CHILD_MS=$(tail -1 "$logs/times.txt" | awk '{ split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%d", (u[1] * 60 + u[2] + s[1] * 60 + s[2]) * 1000 }')
}
failovers() { curl -sf "http://127.0.0.1:$BASE/metrics" | awk '/^joke_matchmaker_failovers_total/ { n += $NF } END { printf "%d", n }'; }

ROWS=()
CPU_ROWS=()
print_rows() {
  printf '%s\n' "| level | offered tables | p99 | errors | refused | actions/s | failovers | µs CPU/action |" \
    "|---|---|---|---|---|---|---|---|" "${ROWS[@]}"
}
# Where the CPU went, per level: cores (1 = one core busy the whole level) of each stack process and the swarm.
print_cpu_rows() {
  local names="${NAMES[*]}"
  printf '%s\n' "| level | offered tables | ${names// / | } | swarm | all |" \
    "|---|---|$(printf -- '---|%.0s' "${NAMES[@]}")---|---|" "${CPU_ROWS[@]}"
}
# Swarm processes a level needs so that none opens more sockets (4 seats a table) than `ulimit -n` lets it
# (the hard limit here is 20,000: 6,000 tables' 24,000 sockets take two).
swarm_workers() {
  local limit per
  limit=$(ulimit -n)
  [[ $limit == unlimited ]] && { echo 1; return; }
  per=$((limit - 64))
  echo $(((($1 * 4) + per - 1) / per))
}
# run_level LABEL TABLES → appends a row; sets LEVEL_OK (p99 < LIMIT and 0 errors) and LEVEL_JSON.
run_level() {
  local label=$1 tables=$2 n=${#ROWS[@]}
  LEVEL_JSON="$logs/level$n-$tables.json"
  local t0 c0 f0 ramp=$((tables * 5 < HOLD * 300 ? tables * 5 : HOLD * 300))
  children_ms
  t0=$(stack_ticks) c0=$CHILD_MS f0=$(failovers)
  local -a p0=() p1=()
  local pid w0ms
  for pid in $STACK; do p0+=("$(proc_ticks "$pid")"); done
  w0ms=$(date +%s%3N)
  echo "level $((n + 1)) ($label): $tables tables for ${HOLD}s" >&2
  node --import tsx load-tests/src/swarm.ts --url "ws://127.0.0.1:$((BASE + 3))/ws" --tables "$tables" \
    --duration "$HOLD" --ramp-ms "$ramp" --warmup "$WARMUP" --interval "$INTERVAL" --live-ms 0 \
    --auth jwt-secret --jwt-secret "$SECRET" --threshold 'seated>=0%' --workers "$(swarm_workers "$tables")" \
    --report "$logs/level$n-$tables.html" --json "$LEVEL_JSON" >"$logs/level$n-$tables.out" 2>&1 || true
  if [[ ! -s $LEVEL_JSON ]]; then
    # Short of what was asked: say so with the levels measured so far, and fail.
    tail -5 "$logs/level$n-$tables.out" >&2
    print_rows
    echo "level $label ($tables tables) left no report: the run is incomplete (logs: $logs)" >&2
    exit 1
  fi
  local t1 c1 f1
  children_ms
  t1=$(stack_ticks) c1=$CHILD_MS f1=$(failovers)
  for pid in $STACK; do p1+=("$(proc_ticks "$pid")"); done
  local wall=$(($(date +%s%3N) - w0ms)) cpu_row="| $label | $tables |" i all=0 ms
  for i in "${!p0[@]}"; do
    ms=$(((p1[i] - p0[i]) * 1000 / CLK_TCK))
    all=$((all + ms))
    cpu_row+=" $(awk -v ms="$ms" -v w="$wall" 'BEGIN { printf "%.2f", ms / w }') |"
  done
  all=$((all + c1 - c0))
  cpu_row+=" $(awk -v ms="$((c1 - c0))" -v w="$wall" 'BEGIN { printf "%.2f", ms / w }') | $(awk -v ms="$all" -v w="$wall" 'BEGIN { printf "%.2f", ms / w }') |"
  CPU_ROWS+=("$cpu_row")
  local row
  row=$(CPU_MS=$(((t1 - t0) * 1000 / CLK_TCK + c1 - c0)) FAILOVERS=$((f1 - f0)) LIMIT=$LIMIT node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const t = r.totals, actions = r.stages.reduce((a, s) => a + s.actions, 0);
    const codes = Object.entries(t.refusedKinds ?? {}).map(([k, n]) => `${k} ${n}`).join(", ");
    const us = actions > 0 ? Math.round((Number(process.env.CPU_MS) * 1000) / actions) : "—";
    const ok = t.action.count > 0 && t.action.p99 < Number(process.env.LIMIT) && t.errors === 0;
    console.log([ok ? "ok" : "over", `${t.action.p99} ms`, t.errors, `${t.refused}${codes ? ` (${codes})` : ""}`,
      t.actionsPerSecond, process.env.FAILOVERS, us].join(" | "));
  ' "$LEVEL_JSON")
  LEVEL_OK=$([[ ${row%% |*} == ok ]] && echo 1 || echo 0)
  ROWS+=("| $label | $tables | ${row#* | } |")
}

knee=0
for c in "${CANDIDATES[@]}"; do
  run_level "knee search" "$c"
  ((LEVEL_OK == 1)) || break
  knee=$c
done
if ((knee == 0)); then
  print_rows
  echo "no knee: ${CANDIDATES[0]} tables already had p99 ≥ ${LIMIT} ms or errors (logs: $logs)" >&2
  exit 1
fi
for f in ${FACTORS:-1.5 2 3}; do run_level "${f}× knee" "$(awk -v k="$knee" -v f="$f" 'BEGIN { printf "%d", k * f + 0.5 }')"; done
half=$(((knee + 1) / 2))
run_level "0.5× knee (recovery)" "$half"
recovery=$(LIMIT=$LIMIT node -e '
  const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).series;
  const limit = Number(process.env.LIMIT);
  let from = null;
  for (let i = s.t.length - 1; i >= 0; i--) {
    if (s.p99[i] === null) continue;
    if (s.p99[i] >= limit) break;
    from = s.t[i];
  }
  console.log(from === null ? "not within the level" : `${from} s`);
' "$LEVEL_JSON")
echo
echo "knee: $knee tables (largest of ${KNEE_CANDIDATES} with p99 < ${LIMIT} ms and 0 errors, after a ${WARMUP} s warm-up of ${HOLD} s levels)"
echo
print_rows
echo
echo "CPU by process (cores over each level, its ramp and the swarm's start-up included):"
echo
print_cpu_rows
echo
echo "recovery at 0.5× the knee ($half tables): p99 under ${LIMIT} ms from $recovery after the level started (per ${INTERVAL} s interval)"
echo "reports and logs: $logs"
