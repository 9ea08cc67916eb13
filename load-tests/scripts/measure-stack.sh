#!/usr/bin/env bash
# Capacity of the whole stack as separate processes on the real NATS and Redis:
# 1 matchmaker, 2 room workers, 1 gateway, and the bot swarm, all on this machine.
#
#   bash load-tests/scripts/measure-stack.sh TABLES [DURATION_S] [WARMUP_S]
#
# SWARM_WORKERS=N spreads the bots over N swarm processes, each with its own loopback source address
# (127.0.0.2 …), beyond one address's ≈ 28k ephemeral ports; their latencies merge exactly.
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
cd "$(dirname "$0")/../.."
export NATS_URL=${NATS_URL:-nats://127.0.0.1:4222} REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379}
export JOKE_NAMESPACE="measure$$" LOG_LEVEL=warn
logs=$(mktemp -d)
OPS_PORT=$BASE node --import tsx services/matchmaker/src/main.ts >"$logs/mm.log" 2>&1 &
MM=$!
WORKER_ID=w0 SHARD=0 OPS_PORT=$((BASE + 1)) node --import tsx services/room-worker/src/main.ts >"$logs/w0.log" 2>&1 &
W0=$!
WORKER_ID=w1 SHARD=1 OPS_PORT=$((BASE + 2)) node --import tsx services/room-worker/src/main.ts >"$logs/w1.log" 2>&1 &
W1=$!
JWT_SECRET=joke-app-dev-secret-not-for-production PORT=$((BASE + 3)) OPS_PORT=$((BASE + 4)) GATEWAY_ID=g0 GATEWAY_MAX_SOCKETS_PER_IP=0 GATEWAY_ROOM_ACCESS=open \
  node --import tsx services/gateway/src/main.ts >"$logs/gw.log" 2>&1 &
GW=$!
trap 'kill $MM $W0 $W1 $GW 2>/dev/null || true' EXIT
for port in $BASE $((BASE + 1)) $((BASE + 2)) $((BASE + 3)); do
  until curl -sf "http://127.0.0.1:$port/readyz" >/dev/null; do sleep 0.5; done
done
# This script starts the gateway itself with the development secret, so the swarm may sign tokens here.
node --import tsx load-tests/src/swarm.ts --url "ws://127.0.0.1:$((BASE + 3))/ws" --tables "$TABLES" \
  --duration "$DURATION" --ramp-ms $((TABLES * 5)) --warmup "$WARMUP" --live-ms 0 \
  --auth jwt-secret --jwt-secret joke-app-dev-secret-not-for-production --workers "${SWARM_WORKERS:-1}" \
  --report "$logs/load-report.html" --json "$logs/load-report.json" >"$logs/swarm.out" 2>&1 &
SWARM=$!
procs="mm:$MM w0:$W0 w1:$W1 gateway:$GW swarm:$SWARM nats:$(pgrep -x nats-server) redis:$(pgrep -x redis-server)"
# utime + stime of a process and of its children (the swarm's worker processes).
ticks() {
  local t=0 p
  for p in "$1" $(pgrep -P "$1"); do t=$((t + $(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null || echo 0))); done
  echo "$t"
}
sleep "$WARMUP"
declare -A before
for e in $procs; do before[$e]=$(ticks "${e#*:}"); done
t0=$(date +%s.%N)
sleep $((DURATION - WARMUP - 2))
t1=$(date +%s.%N)
line="cpu % of one core:"
for e in $procs; do
  line="$line ${e%%:*}=$(echo "($(ticks "${e#*:}") - ${before[$e]}) * 100 / $(getconf CLK_TCK) / ($t1 - $t0)" | bc)"
done
wait $SWARM
tail -1 "$logs/swarm.out"
echo "report: $logs/load-report.html"
echo "$line   (load average $(cut -d' ' -f1-3 /proc/loadavg))"
