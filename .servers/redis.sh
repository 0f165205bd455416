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
# Exit codes (.servers/lib.sh, the same for every server script): 0 done, 1 failed (the message says why), 2
# redis-server is not installed (the message says how to install it), 3 not running (status, url), 64 bad usage. start
# and stop are idempotent.
#
# Where it lives (.servers/lib.sh says why): its pid file, port file and log in
# /var/tmp/archlab-<hash of the clone's path>-redis/, removed by stop; redis.url (while it runs) and the last stopped
# server's log under the clone's target/servers/redis/.
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

NAME=redis TITLE=Redis URL_FILE_NAME=redis.url REFUSES_ROOT=0
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PID_FILE="$RUN_DIR/redis.pid"
PORT_FILE="$RUN_DIR/redis.port"
LOG="$RUN_DIR/redis.log"
STOP_SIGNAL=TERM
STOP_SECONDS=30

SERVER="$(command -v redis-server || true)"
CLI="$(command -v redis-cli || true)"

server_installed() { [ -n "$SERVER" ] && [ -n "$CLI" ]; }
server_install_hint() {
  echo "redis-server and redis-cli are not installed."
  echo "Install the distribution's package, then run this again:"
  echo "  apt-get install -y redis-server     (Debian/Ubuntu, as root; Redis 7 on Debian 12)"
}

# The server's pid: its pid file names a live redis-server, which shows its address in its process title.
server_pid() {
  local port
  port="$(cat "$PORT_FILE" 2>/dev/null)" || return 1
  pid_from_file "$PID_FILE" "redis-server 127.0.0.1:$port"
}
server_port() { cat "$PORT_FILE"; }
server_url() { echo "redis://127.0.0.1:$1"; }
server_version() { "$SERVER" --version | cut -d' ' -f1-3; }
server_log() { echo "$LOG"; }
server_prepare() { :; }

answers() { "$CLI" -h 127.0.0.1 -p "$1" ping 2>/dev/null | grep -q PONG && server_pid >/dev/null; }

server_launch() {
  local port="$1"
  rm -f "$PID_FILE"
  echo "$port" > "$PORT_FILE"
  "$SERVER" --bind 127.0.0.1 --protected-mode yes --port "$port" --save "" --appendonly no \
    --maxmemory 256mb --maxmemory-policy allkeys-lru --daemonize yes --pidfile "$PID_FILE" \
    --logfile "$LOG" --dir "$RUN_DIR" || true
  wait_until 5 answers "$port" && return 0
  local pid
  if pid="$(pid_from_file "$PID_FILE" redis-server)"; then   # started but not answering: stopped, by its pid, before failing
    stop_pid "$pid" "$STOP_SIGNAL" "$STOP_SECONDS" || true
    tail -20 "$LOG" >&2 || true
    return 1
  fi
  if grep -q "Address already in use" "$LOG" 2>/dev/null; then return "$PORT_TAKEN"; fi
  tail -20 "$LOG" >&2 || true
  return 1
}

server_main "$@"
