#!/usr/bin/env bash
# Capacity of the whole stack as separate processes on the real NATS and Redis:
# 1 matchmaker, 2 room workers, 1 gateway (more where one process may not open enough files: see
# below), and the bot swarm, all on this machine.
#
#   bash load-tests/scripts/measure-stack.sh TABLES [DURATION_S] [WARMUP_S]
#
# MEASURE_GATEWAYS=N runs N gateways (default: as many as the open-file limit needs, usually 1).
# SWARM_WORKERS=N spreads the bots over N swarm processes (default: likewise), each with its own loopback source address
# (127.0.0.2 …), beyond one address's ≈ 28k ephemeral ports; their latencies merge exactly.
# Where the limit forces more than one of each, the first gateway and the first swarm process are filled up to
# the limit and the next take only what is left (the swarm's --fill-sockets): at 5,000 tables under a limit of
# 20,000 that is 4,984 tables on one gateway and 16 on the second, the closest this box allows to the one gateway
# asked for. MEASURE_SPREAD=even deals tables and seats evenly instead (two half-loaded gateways).
# MEASURE_RAMP_MS: how long the tables take to come up (default 5 ms per table); with several swarm processes
# the ramp's sign-ins and connects can take both cores and starve the stack (see docs/measurements/stack-capacity.md).
# SWARM_ARGS adds swarm flags (e.g. "--ws-client ws" to compare the bots' WebSocket clients).
# SWARM_NODE_ARGS: more node flags for the swarm alone (e.g. --trace-gc). The swarm always gets
# --initial-old-space-size=4096, as its bot processes do: no major GC of the load generator's heap, which stops
# all its bots, falls inside a run (workers.ts BOT_HEAP_FLAGS says why; a later flag of the same name wins).
#
# MEASURE_NATS_GOMAXPROCS=N starts a private nats-server for this run (JetStream in a temporary
# directory, port BASE+9) with GOMAXPROCS=N, instead of the one at NATS_URL. On this 2-core box shared
# with everything, nats-server's default (one Go P per core) spent ≈ 40 % more CPU per action than with
# GOMAXPROCS=1 at the same load (side by side, 2026-12-03, docs/measurements/nats.md): idle Ps spin looking
# for work on every wake-up. Operators set it to the broker's CPU limit (helm: bundled.nats.gomaxprocs).
#
# MEASURE_CPU_PROF=DIR writes V8 CPU profiles of the gateway, worker w0 and the swarm into DIR/gateway,
# DIR/w0, DIR/swarm (the whole run, ramp included; one file per thread: tsx's loader thread writes a
# small one too), to be summarised with `node load-tests/scripts/cpuprofile-top.mjs DIR/gateway/*`.
#
# MEASURE_NODE_ARGS="--trace-gc" adds node flags to every process of the stack and to the swarm
# (the services' output goes to their logs in the run's directory).
#
# Each run uses a fresh subject/key namespace, so tables left over from an earlier run (which
# would go on playing by their timers) never share the workers with this one. Prints the swarm's
# JSON line and the CPU each process used during the measured window (after the warm-up), in % of
# one core.
set -euo pipefail
TABLES=${1:?tables}
DURATION=${2:-100}
WARMUP=${3:-45}
BASE=${MEASURE_PORT_BASE:-19100}
# Each table's 4 bots are 4 open files in the swarm and 4 in a gateway. A box whose limit is 20,000 lost
# 30 bots of a 5,000-table run to EMFILE during the ramp. The limit is raised for this script's processes
# where it may be (root with CAP_SYS_RESOURCE); where it cannot, the sockets are spread over as many
# gateways (MEASURE_GATEWAYS) and swarm processes (SWARM_WORKERS) as it takes, each under the limit
# less 64 for everything else a process holds (the swarm's FILES_BESIDES_SOCKETS; a gateway holds ≈ 30).
need=$((TABLES * 4 + 4096))
if [[ $(ulimit -n) != unlimited ]] && (($(ulimit -n) < need)); then
  ulimit -n "$need" 2>/dev/null || ulimit -n "$(ulimit -Hn)"
fi
per_process=$(($([[ $(ulimit -n) == unlimited ]] && echo 1048576 || ulimit -n) - 64))
spread=$(((TABLES * 4 + per_process - 1) / per_process))
GATEWAYS=${MEASURE_GATEWAYS:-$spread}
SWARM_WORKERS=${SWARM_WORKERS:-$spread}
FILL=
if ((spread > 1)) && [[ ${MEASURE_SPREAD:-fill} != even ]]; then FILL="--fill-sockets $per_process"; fi
((spread == 1)) || echo "open files: $(ulimit -n) per process, so $GATEWAYS gateways and $SWARM_WORKERS swarm processes${FILL:+, the first of each filled to $per_process sockets}" >&2
cd "$(dirname "$0")/../.."
# What else runs takes cores the stack will not get: named here, before anything of the run starts.
node --import tsx load-tests/scripts/cpu-sampler.ts idle 2 "$(getconf CLK_TCK)" >&2
export NATS_URL=${NATS_URL:-nats://127.0.0.1:4222} REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379}
export JOKE_NAMESPACE="measure$$" LOG_LEVEL=warn
logs=$(mktemp -d)
NATS_PID=
if [[ -n "${MEASURE_NATS_GOMAXPROCS:-}" ]]; then
  mkdir -p "$logs/nats"
  GOMAXPROCS=$MEASURE_NATS_GOMAXPROCS nats-server -a 127.0.0.1 -p $((BASE + 9)) -js -sd "$logs/nats" >"$logs/nats.log" 2>&1 &
  NATS_PID=$!
  trap 'kill $NATS_PID 2>/dev/null || true' EXIT
  export NATS_URL=nats://127.0.0.1:$((BASE + 9))
  for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$((BASE + 9))") 2>/dev/null && break; sleep 0.2; done
  (exec 3<>"/dev/tcp/127.0.0.1/$((BASE + 9))") 2>/dev/null || { cat "$logs/nats.log"; echo "nats-server did not listen on $((BASE + 9))" >&2; exit 1; }
fi
# Node flags for every process of the stack and the swarm (V8 options NODE_OPTIONS refuses, e.g. --trace-gc).
NODE_ARGS=${MEASURE_NODE_ARGS:-}
prof() { :; }
if [[ -n "${MEASURE_CPU_PROF:-}" ]]; then
  mkdir -p "$MEASURE_CPU_PROF"
  prof() { echo "--cpu-prof --cpu-prof-dir=$MEASURE_CPU_PROF/$1"; }
fi
# Every bot quick-matches from 127.0.0.1: the per-address quick-match budgets are for browsers (0 = off).
QUEUE_RATE_PER_ADDRESS=0 QUEUE_TABLES_PER_ADDRESS=0 OPS_PORT=$BASE node $NODE_ARGS --import tsx services/matchmaker/src/main.ts >"$logs/mm.log" 2>&1 &
MM=$!
WORKER_ID=w0 SHARD=0 OPS_PORT=$((BASE + 1)) node $NODE_ARGS $(prof w0) --import tsx services/room-worker/src/main.ts >"$logs/w0.log" 2>&1 &
W0=$!
WORKER_ID=w1 SHARD=1 OPS_PORT=$((BASE + 2)) node $NODE_ARGS --import tsx services/room-worker/src/main.ts >"$logs/w1.log" 2>&1 &
W1=$!
# Gateway k listens on BASE+3 (ops BASE+4) for k = 0, on BASE+10+2k (ops BASE+11+2k) after; only g0 is profiled.
gw_port() { if (($1 == 0)); then echo $((BASE + 3)); else echo $((BASE + 10 + 2 * $1)); fi; }
GWS=()
URLS=
for ((k = 0; k < GATEWAYS; k++)); do
  port=$(gw_port $k)
  # shellcheck disable=SC2046
  JWT_SECRET=joke-app-dev-secret-not-for-production PORT=$port OPS_PORT=$((port + 1)) GATEWAY_ID=g$k GATEWAY_MAX_SOCKETS_PER_IP=0 GATEWAY_ROOM_ACCESS=open \
    node $NODE_ARGS $( ((k > 0)) || prof gateway) --import tsx services/gateway/src/main.ts >"$logs/gw$k.log" 2>&1 &
  GWS+=($!)
  URLS="$URLS${URLS:+,}ws://127.0.0.1:$port/ws"
done
GW="${GWS[*]}"
# SIGTERM drains and exits; with profiles, give the services up to 3 min (a profile is written at exit),
# else 15 s. Then the run's keys and streams go (drop-namespace.ts), so that the next run's orphan sweep
# does not SCAN this one's thousands of keys too: without it each run of a back-to-back pair found a
# different Redis.
finish() {
  kill $MM $W0 $W1 $GW 2>/dev/null || true
  local waits=30
  [[ -z "${MEASURE_CPU_PROF:-}" ]] || waits=360
  for _ in $(seq $waits); do kill -0 $MM $W0 $W1 $GW 2>/dev/null || break; sleep 0.5; done
  kill -9 $MM $W0 $W1 $GW 2>/dev/null || true
  node --import tsx load-tests/scripts/drop-namespace.ts "$JOKE_NAMESPACE" || true
  if [[ -n "$NATS_PID" ]]; then kill "$NATS_PID" 2>/dev/null || true; fi
}
trap finish EXIT
for port in $BASE $((BASE + 1)) $((BASE + 2)) $(for ((k = 0; k < GATEWAYS; k++)); do gw_port $k; done); do
  until curl -sf "http://127.0.0.1:$port/readyz" >/dev/null; do sleep 0.5; done
done
# This script starts the gateway itself with the development secret, so the swarm may sign tokens here.
# shellcheck disable=SC2086
node $NODE_ARGS --initial-old-space-size=4096 ${SWARM_NODE_ARGS:-} $(prof swarm) --import tsx load-tests/src/swarm.ts --url "$URLS" --tables "$TABLES" \
  --duration "$DURATION" --ramp-ms "${MEASURE_RAMP_MS:-$((TABLES * 5))}" --warmup "$WARMUP" --live-ms 0 \
  --auth jwt-secret --jwt-secret joke-app-dev-secret-not-for-production --workers "$SWARM_WORKERS" $FILL \
  --report "$logs/load-report.html" --json "$logs/load-report.json" ${SWARM_ARGS:-} >"$logs/swarm.out" 2>&1 &
SWARM=$!
# The servers this stack uses (others may run test clusters on other ports): by their listening port.
listener() { ss -ltnpH "sport = :$1" | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2; }
procs="mm:$MM w0:$W0 w1:$W1 gateway:${GW// /+} swarm:$SWARM nats:$(listener "${NATS_URL##*:}") redis:$(listener "${REDIS_URL##*:}")"
# Each process's CPU every 5 s from the swarm's start (ramp and warm-up included) goes to cpu-series.txt, to
# see a share change during the run (a heap that grows, a periodic sweep); the totals below are the window
# after the warm-up, with the box's busy ticks and the heaviest processes outside the stack (kernel threads
# such as kdamond, other tenants), which take cores the stack does not get. One process reads /proc for
# all of it (cpu-sampler.ts): the shell's pgrep, awk and bc cost ≈ 40 forks per sample, ≈ 7 % of the box.
node --import tsx load-tests/scripts/cpu-sampler.ts sample "$logs" "$(date +%s.%N)" "$WARMUP" $((DURATION - 2)) \
  "$(getconf CLK_TCK)" "$procs" >"$logs/sampler.out" 2>&1 &
SAMPLER=$!
# A swarm that failed leaves nothing to measure: the sampler goes too, not on for the run's length.
wait $SWARM || { kill $SAMPLER 2>/dev/null || true; tail -5 "$logs/swarm.out" >&2; exit 1; }
wait $SAMPLER || { cat "$logs/sampler.out" >&2; exit 1; }
tail -1 "$logs/swarm.out"
# The swarm's 5 s intervals (actions/s, p50, p99 in ms, tables finished per second: each one a table
# started again) beside each process's CPU in the same 5 s.
jq -r '.series as $s | range(0; $s.t | length) | "t=\($s.t[.] + 5)s \($s.actionsPerSecond[.]) \($s.p50[.] // "-") \($s.p99[.] // "-") \($s.finishedPerSecond[.] // 0)"' \
  "$logs/load-report.json" >"$logs/latency-series.txt"
awk 'NR == FNR { l[$1] = sprintf("%-6s actions/s %-7s p50 %-7s p99 %-7s fin/s %-5s", $1, $2, $3, $4, $5); next }
  { t = $1; $1 = ""; print (t in l ? l[t] : sprintf("%-6s %-53s", t, "")) " |" $0 }' \
  "$logs/latency-series.txt" "$logs/cpu-series.txt" >"$logs/series.txt"
echo "report: $logs/load-report.html   by 5 s: $logs/series.txt"
# Actions per second in the swarm's measured window (after its warm-up), the same window as the CPU.
node --import tsx load-tests/scripts/cpu-sampler.ts report "$logs"
