#!/usr/bin/env bash
# Client cost of one load tool against a running platform: CPU per action and memory per table.
#   OPS=http://127.0.0.1:PORT WS=ws://127.0.0.1:GPORT/ws bash load-tests/k6/scripts/measure-client.sh TOOL TABLES
# TOOL: k6-table (one VU per table), k6-seat (one VU per seat) or swarm (npm run load). The platform is
# npm start's product with LOBBY_RATE_GUEST_PER_IP=0 (OPS is its HTTP port: /trpc and /metrics).
# Every 5 s it samples the tool's CPU ticks and resident memory (/proc) and the platform's applied
# actions (joke_worker_transitions_total{kind="action"}); the steady window is the 40 s that end 10 s
# before the tool exits (after the ramp, before the close). Sockets come from 48 loopback source
# addresses (the gateway allows 256 per address). Prints one line of figures; the series is in $OUT.
set -euo pipefail
TOOL=$1 TABLES=$2
THINK_MS=${THINK_MS:-2000} RAMP_S=${RAMP_S:-30} HOLD_S=${HOLD_S:-75}
OUT=${OUT:-$(mktemp -d /tmp/measure-client.XXXX)}
root=$(cd "$(dirname "$0")/../../.." && pwd)
K6=${K6_BIN:-$root/../shared/bin/k6}
ips=$(for i in $(seq 20 67); do printf '127.0.0.%s,' "$i"; done); ips=${ips%,}
case $TOOL in
  k6-table | k6-seat)
    [ "$TOOL" = k6-table ] && per=1 || per=0
    node "$root/load-tests/k6/build.mjs" >/dev/null
    "$K6" run -q --address "" --local-ips 127.0.0.20-127.0.0.67 -e URL="$WS" -e LOBBY="$OPS/trpc" -e TABLES="$TABLES" \
      -e PER_TABLE=$per -e THINK_MS="$THINK_MS" -e RAMP="${RAMP_S}s" -e HOLD="${HOLD_S}s" -e P99_MS=100000 \
      -e CHECK_EVERY=16 -e SUMMARY_JSON="$OUT/summary.json" "$root/load-tests/k6/dist/tables.js" >"$OUT/tool.log" 2>&1 &
    ;;
  swarm)
    node --initial-old-space-size=4096 --import tsx "$root/load-tests/src/swarm.ts" --url "$WS" --lobby "$OPS/trpc" \
      --tables "$TABLES" --ramp-ms $((RAMP_S * 1000)) --duration $((RAMP_S + HOLD_S)) --think-ms "$THINK_MS" \
      --source-addresses "$ips" --live-ms 0 >"$OUT/tool.log" 2>&1 &
    ;;
  *) echo "TOOL must be k6-table, k6-seat or swarm" >&2; exit 2 ;;
esac
pid=$!
tck=$(getconf CLK_TCK)
: >"$OUT/series.txt"
while kill -0 "$pid" 2>/dev/null; do
  ticks=0 rss=0
  # The tool and its children (the swarm's node under tsx; k6 is one process).
  for p in $pid $(pgrep -P "$pid" || true); do
    [ -r /proc/$p/stat ] || continue
    read -r -a st </proc/$p/stat || continue
    ticks=$((ticks + st[13] + st[14]))
    rss=$((rss + $(awk '/VmRSS/ {print $2}' /proc/$p/status 2>/dev/null || echo 0)))
  done
  acts=$(curl -s "$OPS/metrics" | awk '/^joke_worker_transitions_total\{kind="action"\}/ {print $2}')
  echo "$(date +%s) $ticks $rss ${acts:-0}" >>"$OUT/series.txt"
  sleep 5
done
wait "$pid" && code=0 || code=$?
awk -v tck="$tck" -v tables="$TABLES" -v tool="$TOOL" -v code="$code" '
  { t[NR]=$1; c[NR]=$2; r[NR]=$3; a[NR]=$4; if ($3>peak) peak=$3 }
  END {
    e=NR-2; s=e-8; if (s<1) s=1;
    acts=a[e]-a[s]; cpu=(c[e]-c[s])/tck;
    printf "%s tables=%d exit=%s window=%ds actions=%d actions/s=%.1f cpu=%.1fs cpu_us_per_action=%.0f total_cpu=%.1fs peak_rss_mb=%.0f kb_per_table=%.0f\n",
      tool, tables, code, t[e]-t[s], acts, acts/(t[e]-t[s]), cpu, (acts > 0 ? cpu * 1e6 / acts : 0), c[NR]/tck, peak/1024, peak/tables }' "$OUT/series.txt"
