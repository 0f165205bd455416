#!/usr/bin/env bash
# A throwaway Redis for the lab's -Dlab.cache=redis runs (the order cache's second level), from the distribution's
# redis-server.
#
#   bash .servers/redis.sh start    # start it; prints the URL and writes it to target/servers/redis/redis.url,
#                                   # where the lab's tests find it
#   bash .servers/redis.sh status   # whether it runs (exit 0 running, 3 not)
#   bash .servers/redis.sh url      # the URL (exit 3 when not running)
#   bash .servers/redis.sh stop     # stop it: SIGTERM to the pid in its pid file
#
# Everything lives under the repo's target/servers/redis/ (the pid file, the log, redis.url). start and stop are
# idempotent. Exit codes: 0 done, 1 failed (the message says why), 2 redis-server is not installed (the message says
# how to install it), 3 not running (status, url).
#
# What it sets, and why:
#   bind 127.0.0.1, protected-mode yes   loopback only: a lab server is reachable from this machine alone
#   port <free port>                     chosen here at each start (a port another program holds is never taken)
#   save "", appendonly no               no persistence: a cache, thrown away with the server (the orders live in the
#                                        store; what Redis loses, the cache reloads)
#   maxmemory 256mb, allkeys-lru         a cache's policy: evict the least recently used key rather than refuse a write
#   daemonize yes, pidfile, logfile      runs in the background; stopped by the pid it wrote, never by name
# Redis runs as whoever starts it (it does not refuse root as PostgreSQL does; it warns, and the warning is in its log).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/.servers/lib.sh"   # free_port
HOME_DIR="$ROOT/target/servers/redis"
PID_FILE="$HOME_DIR/redis.pid"
PORT_FILE="$HOME_DIR/redis.port"
LOG="$HOME_DIR/redis.log"
URL_FILE="$HOME_DIR/redis.url"

say() { echo "[redis] $*"; }
fail() { echo "[redis] $*" >&2; exit 1; }

SERVER="$(command -v redis-server || true)"
CLI="$(command -v redis-cli || true)"
need_binaries() {
  if [ -z "$SERVER" ] || [ -z "$CLI" ]; then
    echo "[redis] redis-server and redis-cli are not installed." >&2
    echo "[redis] Install the distribution's package, then run this again:" >&2
    echo "[redis]   apt-get install -y redis-server     (Debian/Ubuntu, as root; Redis 7 on Debian 12)" >&2
    exit 2
  fi
}

# The server's pid when it runs (its pid file names a live redis-server process), else nothing.
running_pid() {
  [ -f "$PID_FILE" ] || return 1
  local pid
  pid="$(head -n 1 "$PID_FILE" 2>/dev/null || true)"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  [ -d "/proc/$pid" ] || return 1
  tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -q "redis-server" || return 1
  echo "$pid"
}

url_of() { echo "redis://127.0.0.1:$1"; }

start() {
  need_binaries
  local pid port attempt i
  mkdir -p "$HOME_DIR"
  if pid="$(running_pid)"; then
    port="$(cat "$PORT_FILE")"
    url_of "$port" > "$URL_FILE"
    say "already running (pid $pid, port $port)"
    url_of "$port"
    return 0
  fi
  for attempt in 1 2 3 4 5; do
    port="$(free_port)" || fail "found no free loopback port"
    rm -f "$PID_FILE"
    "$SERVER" --bind 127.0.0.1 --protected-mode yes --port "$port" --save "" --appendonly no \
      --maxmemory 256mb --maxmemory-policy allkeys-lru --daemonize yes --pidfile "$PID_FILE" \
      --logfile "$LOG" --dir "$HOME_DIR" || true
    for i in $(seq 1 100); do
      if "$CLI" -h 127.0.0.1 -p "$port" ping 2>/dev/null | grep -q PONG && running_pid >/dev/null; then
        echo "$port" > "$PORT_FILE"
        url_of "$port" > "$URL_FILE"
        say "started $("$SERVER" --version | cut -d' ' -f1-3) (pid $(running_pid), port $port, log $LOG)"
        url_of "$port"
        return 0
      fi
      sleep 0.05
    done
    grep -q "Address already in use" "$LOG" 2>/dev/null || { tail -20 "$LOG" >&2 || true; fail "start failed (log: $LOG)"; }
    say "port $port was taken meanwhile (attempt $attempt of 5), trying another"
  done
  fail "could not start on a free port (log: $LOG)"
}

stop() {
  local pid i
  if ! pid="$(running_pid)"; then
    rm -f "$URL_FILE"
    say "not running"
    return 0
  fi
  kill -TERM "$pid"   # the pid the server wrote, never processes found by name
  for i in $(seq 1 300); do
    if ! [ -d "/proc/$pid" ]; then
      rm -f "$URL_FILE" "$PID_FILE"
      say "stopped (pid $pid)"
      return 0
    fi
    sleep 0.1
  done
  fail "pid $pid did not stop within 30 s (log: $LOG)"
}

status() {
  local pid
  if pid="$(running_pid)"; then
    say "running: pid $pid, port $(cat "$PORT_FILE"), url $(url_of "$(cat "$PORT_FILE")")"
    return 0
  fi
  say "not running (start it with: bash .servers/redis.sh start)"
  return 3
}

url() {
  if running_pid >/dev/null; then
    url_of "$(cat "$PORT_FILE")"
    return 0
  fi
  say "not running (start it with: bash .servers/redis.sh start)" >&2
  return 3
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  url) url ;;
  *) echo "usage: bash .servers/redis.sh start|stop|status|url" >&2; exit 2 ;;
esac
