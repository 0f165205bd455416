#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the lab's -Dlab.store=postgres runs, from the distribution's binaries.
#
#   bash .servers/postgres.sh start    # start it (first time: initdb); prints the JDBC URL and writes it to
#                                      # target/servers/postgres/jdbc.url, where the lab's tests find it
#   bash .servers/postgres.sh status   # whether it runs (exit 0 running, 3 not)
#   bash .servers/postgres.sh url      # the JDBC URL (exit 3 when not running)
#   bash .servers/postgres.sh stop     # stop it: a fast shutdown signalled to the pid in postmaster.pid
#
# Everything lives under the repo's target/servers/postgres/ (data/, the log, the socket folder, jdbc.url); `mvn clean`
# at the root, once stopped, throws it all away. start and stop are idempotent. Exit codes: 0 done, 1 failed (the
# message says why), 2 PostgreSQL is not installed (the message says how to install it), 3 not running (status, url).
#
# What it sets, and why (postgresql.conf includes the archlab.conf this script writes before every start):
#   listen_addresses=127.0.0.1     loopback only: a lab server is reachable from this machine alone
#   port=<free port>               chosen here at each start (a port another program holds is never taken)
#   unix_socket_directories        a folder under target/ (nothing written to /var/run); none when its path would be
#                                  longer than a Unix socket path may be
#   max_connections=250            above the largest pool the lab opens (-Dlab.db.pool at most 200) plus the tests' own
#   fsync, synchronous_commit, full_page_writes, wal_level: NOT set, left at PostgreSQL's defaults (on, on, on,
#                                  replica): a commit is durable when it returns, as on a reader's server, so the lab's
#                                  figures include the commit's flush. A throwaway cluster could turn them off to go
#                                  faster, and then would measure a database no one runs.
# Authentication is `trust` on loopback (a throwaway cluster with no secrets). The bootstrap superuser is `postgres`;
# the lab connects as `archlab`, an ordinary role that owns the database `archlab` (it may create schemas there, as
# each test fixture does, and cannot run programs or read files through the server as a superuser could).
#
# PostgreSQL refuses to run as root: run as root, the script creates (once) a system user `archlab` with no login
# shell and runs initdb, pg_ctl and postgres as that user, which owns target/servers/postgres/ and nothing else.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/.servers/lib.sh"   # free_port
HOME_DIR="$ROOT/target/servers/postgres"
PGDATA="$HOME_DIR/data"
SOCKETS="$HOME_DIR/socket"
LOG="$HOME_DIR/postgres.log"
URL_FILE="$HOME_DIR/jdbc.url"
OS_USER=archlab
DB=archlab
DB_USER=archlab
MAX_CONNECTIONS=250

say() { echo "[postgres] $*"; }
fail() { echo "[postgres] $*" >&2; exit 1; }

find_bindir() {
  local d
  for d in /usr/lib/postgresql/15/bin "$(pg_config --bindir 2>/dev/null || true)" $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -rV); do
    if [ -n "$d" ] && [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && [ -x "$d/postgres" ] && [ -x "$d/psql" ]; then
      echo "$d"; return 0
    fi
  done
  return 1
}

BIN="$(find_bindir || true)"
need_binaries() {
  if [ -z "$BIN" ]; then
    echo "[postgres] PostgreSQL's server binaries (initdb, pg_ctl, postgres, psql) are not installed." >&2
    echo "[postgres] Install the distribution's package, then run this again:" >&2
    echo "[postgres]   apt-get install -y postgresql     (Debian/Ubuntu, as root; PostgreSQL 15 on Debian 12)" >&2
    exit 2
  fi
}

# Runs a PostgreSQL program as the cluster's owner: this user, or the archlab system user when run as root.
as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u "$OS_USER" -- "$@"
  else
    "$@"
  fi
}

# The postmaster's pid when the cluster runs (its postmaster.pid names a live postgres process), else nothing.
running_pid() {
  [ -f "$PGDATA/postmaster.pid" ] || return 1
  local pid
  pid="$(head -n 1 "$PGDATA/postmaster.pid" 2>/dev/null || true)"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  kill -0 "$pid" 2>/dev/null || [ -d "/proc/$pid" ] || return 1
  tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -q "postgres" || return 1
  echo "$pid"
}

# The port the running cluster listens on (line 4 of postmaster.pid).
running_port() { sed -n 4p "$PGDATA/postmaster.pid"; }

url_of() { echo "jdbc:postgresql://127.0.0.1:$1/$DB?user=$DB_USER"; }


prepare_owner() {
  mkdir -p "$HOME_DIR"
  if [ "$(id -u)" = 0 ]; then
    if ! id -u "$OS_USER" >/dev/null 2>&1; then
      useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$OS_USER" \
        || fail "could not create the system user $OS_USER (PostgreSQL refuses to run as root)"
      say "created the system user $OS_USER: PostgreSQL refuses to run as root, it runs as $OS_USER"
    fi
    chown -R "$OS_USER:" "$HOME_DIR"
    runuser -u "$OS_USER" -- test -w "$HOME_DIR" \
      || fail "the user $OS_USER cannot reach $HOME_DIR: a folder above it is closed to other users (chmod o+x it, or clone the repo elsewhere)"
  fi
}

init_cluster() {
  say "initdb: a new cluster in $PGDATA"
  as_owner "$BIN/initdb" -D "$PGDATA" -U postgres --auth=trust --encoding=UTF8 --locale=C >"$HOME_DIR/initdb.log" 2>&1 \
    || { tail -20 "$HOME_DIR/initdb.log" >&2; fail "initdb failed (log: $HOME_DIR/initdb.log)"; }
  echo "include_if_exists = 'archlab.conf'   # written by .servers/postgres.sh before every start" >> "$PGDATA/postgresql.conf"
}

write_conf() {
  local port="$1" sockets="$SOCKETS"
  # a Unix socket's path (folder + /.s.PGSQL.PORT) must fit in 107 bytes; the lab connects over TCP anyway
  if [ $(( ${#SOCKETS} + 20 )) -gt 107 ]; then sockets=""; fi
  as_owner mkdir -p "$SOCKETS"
  cat > "$PGDATA/archlab.conf" <<CONF
# written by .servers/postgres.sh at each start; see the script's header for why each is set
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$sockets'
max_connections = $MAX_CONNECTIONS
lc_messages = 'C'
CONF
  [ "$(id -u)" = 0 ] && chown "$OS_USER:" "$PGDATA/archlab.conf"
  return 0
}

ensure_database() {
  local port="$1" psql=("$BIN/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$1" -U postgres -d postgres)
  if [ "$("${psql[@]}" -tAc "SELECT 1 FROM pg_roles WHERE rolname = '$DB_USER'")" != 1 ]; then
    "${psql[@]}" -c "CREATE ROLE $DB_USER LOGIN"
  fi
  if [ "$("${psql[@]}" -tAc "SELECT 1 FROM pg_database WHERE datname = '$DB'")" != 1 ]; then
    "${psql[@]}" -c "CREATE DATABASE $DB OWNER $DB_USER"
    say "created the database $DB, owned by the role $DB_USER"
  fi
}

start() {
  need_binaries
  local pid port attempt
  if pid="$(running_pid)"; then
    port="$(running_port)"
    url_of "$port" > "$URL_FILE"
    say "already running (pid $pid, port $port)"
    url_of "$port"
    return 0
  fi
  prepare_owner
  [ -f "$PGDATA/PG_VERSION" ] || init_cluster
  for attempt in 1 2 3 4 5; do
    port="$(free_port)" || fail "found no free loopback port"
    write_conf "$port"
    if as_owner "$BIN/pg_ctl" -D "$PGDATA" -l "$LOG" -w -t 60 start >/dev/null 2>&1; then
      ensure_database "$port"
      url_of "$port" > "$URL_FILE"
      say "started $("$BIN/postgres" --version) (pid $(running_pid), port $port, data $PGDATA, log $LOG)"
      url_of "$port"
      return 0
    fi
    if running_pid >/dev/null; then
      fail "pg_ctl reported a failure but a postmaster runs: see $LOG"
    fi
    grep -q "could not bind\|Address already in use" "$LOG" 2>/dev/null || { tail -20 "$LOG" >&2 || true; fail "start failed (log: $LOG)"; }
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
  # SIGINT to the postmaster is PostgreSQL's "fast" shutdown: open transactions are rolled back, every backend ends,
  # a checkpoint is written. Sent to the pid of postmaster.pid, never to processes found by name.
  kill -INT "$pid"
  for i in $(seq 1 600); do
    if ! kill -0 "$pid" 2>/dev/null; then
      rm -f "$URL_FILE"
      say "stopped (pid $pid)"
      return 0
    fi
    sleep 0.1
  done
  fail "pid $pid did not stop within 60 s (log: $LOG)"
}

status() {
  local pid
  if pid="$(running_pid)"; then
    say "running: pid $pid, port $(running_port), data $PGDATA, url $(url_of "$(running_port)")"
    return 0
  fi
  say "not running (start it with: bash .servers/postgres.sh start)"
  return 3
}

url() {
  if running_pid >/dev/null; then
    url_of "$(running_port)"
    return 0
  fi
  say "not running (start it with: bash .servers/postgres.sh start)" >&2
  return 3
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  url) url ;;
  *) echo "usage: bash .servers/postgres.sh start|stop|status|url" >&2; exit 1 ;;
esac
