#!/usr/bin/env bash
# Makes sure what the tests talk to is running on 127.0.0.1: NATS with
# JetStream, Redis, PostgreSQL (trust auth, database `test`) and Chromium for
# the browser tests. Starts installed-but-stopped services; installs missing
# ones from Debian's packages (needs root, as on CI and the dev machines).
set -euo pipefail

apt_updated=
apt_install() {
  if [ -z "$apt_updated" ]; then apt-get update -qq; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
wait_port() { for _ in $(seq 1 50); do port_open "$1" && return 0; sleep 0.2; done; echo "port $1 did not open" >&2; return 1; }

# NATS with JetStream
if ! port_open 4222; then
  command -v nats-server >/dev/null || [ -x /usr/sbin/nats-server ] || apt_install nats-server
  mkdir -p /var/lib/nats-server
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- \
    -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log
  wait_port 4222
fi
# Redis
if ! port_open 6379; then
  command -v redis-server >/dev/null || apt_install redis-server
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
  wait_port 6379
fi
# PostgreSQL (trust auth on 127.0.0.1, database `test`)
if ! port_open 5432; then
  if ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
    apt_install postgresql
    ver=$(ls /etc/postgresql)
    sed -i 's/^\(host.*127.0.0.1\/32\s*\)\S*$/\1trust/; s/^\(local\s.*\)\(peer\|md5\|scram-sha-256\)$/\1trust/' "/etc/postgresql/$ver/main/pg_hba.conf"
  fi
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main start
  wait_port 5432
fi
for db in test; do
  psql -h 127.0.0.1 -U postgres -tAc "select 1 from pg_database where datname='$db'" | grep -q 1 ||
    psql -h 127.0.0.1 -U postgres -c "create database $db" >/dev/null
done
# Chromium for the browser tests
command -v chromium >/dev/null || apt_install chromium

