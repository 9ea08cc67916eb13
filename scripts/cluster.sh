#!/usr/bin/env bash
# A local cluster to test on, shared by the tests and developers (issue 11):
# three nats-server in one JetStream cluster and a Redis Cluster of three
# primaries with one replica each, all on 127.0.0.1, each with its own ports
# and data folder under <dir>, stopped by pid.
#
#   scripts/cluster.sh start <dir> [base-port]   # prints the env lines, also written to <dir>/env
#   scripts/cluster.sh stop <dir>                # kills the pids in <dir>/*.pid and removes <dir>
#   scripts/cluster.sh replace-redis <dir> <port> <primary-port>
#       # a dead node's replacement: forgets the dead node, starts an empty one on its port and adds it
#       # as a replica of <primary-port> (a killed node is never restarted with its old nodes.conf: empty,
#       # it would still claim its old slots for a moment and answer for them with no data)
#
# Ports for base B (picked at random in 21000-28990 among free ones when not given,
# so parallel test runs and the default 4222/6379 services never collide):
#   Redis B..B+5 (cluster bus B+10000..B+10005), NATS clients B+10..B+12,
#   NATS routes B+20..B+22, NATS monitoring B+30..B+32.
# <dir>/env holds REDIS_CLUSTER_URLS (comma-separated redis:// seeds) and NATS_URL (comma-separated seeds),
# plus the per-node ports (REDIS_PORTS, NATS_PORTS) for tests that kill one node.
set -euo pipefail

cmd=${1:-}
dir=${2:-}
if [ -z "$cmd" ] || [ -z "$dir" ]; then
  echo "usage: $0 start|stop <dir> [base-port]" >&2
  exit 2
fi

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
wait_port() {
  for _ in $(seq 1 150); do port_open "$1" && return 0; sleep 0.1; done
  echo "port $1 did not open" >&2
  return 1
}
ports_of() { # every port a base uses
  local b=$1
  for i in 0 1 2 3 4 5; do echo $((b + i)) $((b + 10000 + i)); done
  for i in 0 1 2; do echo $((b + 10 + i)) $((b + 20 + i)) $((b + 30 + i)); done
}
base_free() {
  local listening
  listening=$(ss -Htan 2>/dev/null | awk '{print $4}' | sed 's/.*://' | sort -u)
  for p in $(ports_of "$1"); do grep -qx "$p" <<<"$listening" && return 1; done
  return 0
}

start_redis() { # port: one cluster node in its own folder (keeps nodes.conf across restarts)
  local p=$1
  mkdir -p "$dir/redis-$p"
  redis-server --port "$p" --bind 127.0.0.1 --cluster-enabled yes --cluster-config-file nodes.conf \
    --cluster-node-timeout 2000 --save '' --appendonly no --dir "$dir/redis-$p" \
    --logfile "$dir/redis-$p/log" --daemonize yes --pidfile "$dir/redis-$p/redis.pid"
}

replace_redis() {
  local p=$1 primary=$2 dead primary_id
  dead=$(redis-cli -p "$primary" cluster nodes | awk -v a="127.0.0.1:$p@" 'index($2, a) == 1 {print $1}')
  for f in "$dir"/redis-*/redis.pid; do
    local q=${f%/redis.pid}
    q=${q##*/redis-}
    [ "$q" = "$p" ] || [ -z "$dead" ] || redis-cli -p "$q" cluster forget "$dead" >/dev/null 2>&1 || true
  done
  rm -rf "$dir/redis-$p"
  start_redis "$p"
  wait_port "$p"
  primary_id=$(redis-cli -p "$primary" cluster myid | tr -d '\r')
  redis-cli --cluster add-node "127.0.0.1:$p" "127.0.0.1:$primary" --cluster-slave \
    --cluster-master-id "$primary_id" >"$dir/redis-$p/add-node.log" 2>&1
  for _ in $(seq 1 300); do
    redis-cli -p "$p" info replication | tr -d '\r' | grep -q '^master_link_status:up' && return 0
    sleep 0.1
  done
  echo "replacement on $p did not sync from $primary" >&2
  return 1
}

stop_cluster() {
  shopt -s nullglob
  local pids=()
  for f in "$dir"/*.pid "$dir"/*/*.pid; do
    pid=$(cat "$f" 2>/dev/null || true)
    if [ -n "$pid" ] && kill "$pid" 2>/dev/null; then pids+=("$pid"); fi
  done
  for pid in "${pids[@]}"; do
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
    kill -9 "$pid" 2>/dev/null || true
  done
  rm -rf "$dir"
}

start_cluster() {
  local base=${3:-}
  if [ -z "$base" ]; then
    for _ in $(seq 1 50); do
      base=$((21000 + (RANDOM % 800) * 10))
      base_free "$base" && break
      base=
    done
    [ -n "$base" ] || { echo "no free port range found" >&2; exit 1; }
  fi
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)

  local redis_ports=() redis_seeds=()
  for i in 0 1 2 3 4 5; do
    local p=$((base + i))
    start_redis "$p"
    redis_ports+=("$p")
    redis_seeds+=("127.0.0.1:$p")
  done

  local nats_ports=() nats_urls=()
  for i in 0 1 2; do
    local p=$((base + 10 + i)) routes=()
    for j in 0 1 2; do [ "$j" = "$i" ] || routes+=("nats://127.0.0.1:$((base + 20 + j))"); done
    mkdir -p "$dir/nats-$i"
    nohup nats-server -a 127.0.0.1 -p "$p" -m $((base + 30 + i)) -n "n$i" --cluster_name "joke-$base" \
      --cluster "nats://127.0.0.1:$((base + 20 + i))" --routes "$(IFS=,; echo "${routes[*]}")" \
      -js -sd "$dir/nats-$i/js" -l "$dir/nats-$i/log" >/dev/null 2>&1 &
    echo $! >"$dir/nats-$i/nats.pid"
    nats_ports+=("$p")
    nats_urls+=("nats://127.0.0.1:$p")
  done

  # Each step's start on stderr with the seconds so far: a start that runs out of its caller's time
  # (local-cluster.ts) says where it was.
  echo "${SECONDS}s: waiting for the ports" >&2
  for p in "${redis_ports[@]}" "${nats_ports[@]}"; do wait_port "$p"; done
  echo "${SECONDS}s: creating the Redis cluster" >&2
  redis-cli --cluster create "${redis_seeds[@]}" --cluster-replicas 1 --cluster-yes >"$dir/redis-create.log" 2>&1
  # Every slot served and every replica attached before anyone writes (WAIT counts replicas).
  echo "${SECONDS}s: waiting for every slot and replica" >&2
  for _ in $(seq 1 200); do
    local state replicas=0
    state=$(redis-cli -p "${redis_ports[0]}" cluster info | tr -d '\r' | awk -F: '/^cluster_state/{print $2}')
    for p in "${redis_ports[@]}"; do
      if redis-cli -p "$p" info replication | tr -d '\r' | grep -q '^master_link_status:up'; then
        replicas=$((replicas + 1))
      fi
    done
    [ "$state" = ok ] && [ "$replicas" = 3 ] && break
    sleep 0.1
  done
  # JetStream ready: every server answers healthz once the meta group has a leader.
  echo "${SECONDS}s: waiting for JetStream" >&2
  for i in 0 1 2; do
    for _ in $(seq 1 200); do
      curl -fs "http://127.0.0.1:$((base + 30 + i))/healthz" >/dev/null 2>&1 && break
      sleep 0.1
    done
  done

  {
    echo "REDIS_CLUSTER_URLS=$(IFS=,; for s in "${redis_seeds[@]}"; do printf 'redis://%s,' "$s"; done | sed 's/,$//')"
    echo "NATS_URL=$(IFS=,; echo "${nats_urls[*]}")"
    echo "REDIS_PORTS=$(IFS=,; echo "${redis_ports[*]}")"
    echo "NATS_PORTS=$(IFS=,; echo "${nats_ports[*]}")"
    echo "CLUSTER_DIR=$dir"
  } >"$dir/env"
  cat "$dir/env"
}

case "$cmd" in
  start) start_cluster "$@" ;;
  stop) stop_cluster ;;
  replace-redis)
    [ -n "${4:-}" ] || { echo "usage: $0 replace-redis <dir> <port> <primary-port>" >&2; exit 2; }
    replace_redis "$3" "$4"
    ;;
  *)
    echo "usage: $0 start|stop <dir> [base-port]" >&2
    exit 2
    ;;
esac
