#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the lab's -Dlab.store=postgres runs, from the distribution's binaries.
#
#   bash .servers/postgres.sh start    # start it (initdb, the role, the database); prints the JDBC URL and writes it to
#                                      # target/servers/postgres/jdbc.url, where the lab's tests find it
#   bash .servers/postgres.sh status   # whether it runs (exit 0 running, 3 not)
#   bash .servers/postgres.sh url      # the JDBC URL (exit 3 when not running)
#   ARCHLAB_PG_WARM_WAL_SEGMENTS=0 bash .servers/postgres.sh start   # start a cold cluster (no WAL made ahead; see warm_wal)
#   bash .servers/postgres.sh stop     # stop it: a fast shutdown signalled to the pid in postmaster.pid; then the
#                                      # cluster is removed (the next start runs initdb again)
#
# Exit codes (.servers/lib.sh, the same for every server script): 0 done, 1 failed (the message says why), 2 PostgreSQL
# is not installed (the message says how to install it), 3 not running (status, url), 64 bad usage. start and stop are
# idempotent.
#
# Where it lives (.servers/lib.sh says why): the cluster (data/), its socket folder and its log in
# /var/tmp/archlab-<hash of the clone's path>-postgres/, owned by the user the server runs as and removed by stop;
# jdbc.url (while it runs) and the last stopped server's log under the clone's target/servers/postgres/.
#
# What it sets, and why (postgresql.conf includes the archlab.conf this script writes before every start):
#   listen_addresses=127.0.0.1     loopback only: a lab server is reachable from this machine alone
#   port=<free port>               chosen here at each start (a port another program holds is never taken)
#   unix_socket_directories        the run folder's socket/ (nothing written to /var/run)
#   max_connections=250            above the largest pool the lab opens (-Dlab.db.pool at most 200) plus the tests' own
#   shared_preload_libraries      pg_stat_statements (each statement's calls and times; the extension is created in the
#                                  database, and archlab may reset it) and auto_explain (the plan of every statement
#                                  over 10 ms, in the server's log): the article's 10 ms rule, read by the ladder
#                                  (common-loadgen/lab-ladder). For every run on this server, as on a production one:
#                                  pg_stat_statements adds a hash-table update per statement, auto_explain a clock read
#                                  (log_analyze off: no per-node instrumentation; the ladder runs EXPLAIN ANALYZE itself)
#                                  and a log write only for a statement over 10 ms. Both ship in Debian's postgresql-15.
#   min_wal_size=16 × 16MB         the WAL segments made ahead at start (warm_wal, below) are kept for reuse
#   fsync, synchronous_commit, full_page_writes, wal_level: NOT set, left at PostgreSQL's defaults (on, on, on,
#                                  replica): a commit is durable when it returns, as on a reader's server, so the lab's
#                                  figures include the commit's flush. A throwaway cluster could turn them off to go
#                                  faster, and then would measure a database no one runs.
# Authentication is `trust` on loopback (a throwaway cluster with no secrets). The bootstrap superuser is `postgres`;
# the lab connects as `archlab`, an ordinary role that owns the database `archlab` (it may create schemas there, as
# each test fixture does, and cannot run programs or read files through the server as a superuser could).
#
# PostgreSQL refuses to run as root: run as root, the script creates (once) a system user `archlab` with no login
# shell and runs initdb, pg_ctl and postgres as that user, which owns the run folder and nothing else.
set -euo pipefail

NAME=postgres TITLE=PostgreSQL URL_FILE_NAME=jdbc.url REFUSES_ROOT=1
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PGDATA="$RUN_DIR/data"
SOCKETS="$RUN_DIR/socket"
LOG="$RUN_DIR/postgres.log"
DB=archlab
DB_USER=archlab
MAX_CONNECTIONS=250
STOP_SIGNAL=INT    # PostgreSQL's "fast" shutdown: open transactions rolled back, every backend ended, a checkpoint written
STOP_SECONDS=60

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

server_installed() { [ -n "$BIN" ]; }
server_install_hint() {
  echo "PostgreSQL's server binaries (initdb, pg_ctl, postgres, psql) are not installed."
  echo "Install the distribution's package, then run this again:"
  echo "  apt-get install -y postgresql     (Debian/Ubuntu, as root; PostgreSQL 15 on Debian 12)"
}

# The postmaster's pid: postmaster.pid names a live process started on this cluster (pg_ctl gives it -D <data>).
server_pid() { pid_from_file "$PGDATA/postmaster.pid" "$PGDATA"; }
# The port the running cluster listens on (line 4 of postmaster.pid).
server_port() { sed -n 4p "$PGDATA/postmaster.pid"; }
server_url() { echo "jdbc:postgresql://127.0.0.1:$1/$DB?user=$DB_USER"; }
server_version() { "$BIN/postgres" --version; }
server_log() { echo "$LOG"; }

server_prepare() {
  [ -f "$PGDATA/PG_VERSION" ] && return 0
  say "initdb: a new cluster in $PGDATA"
  as_server_user "$BIN/initdb" -D "$PGDATA" -U postgres --auth=trust --encoding=UTF8 --locale=C >"$RUN_DIR/initdb.log" 2>&1 \
    || { tail -20 "$RUN_DIR/initdb.log" >&2; fail "initdb failed (log: $RUN_DIR/initdb.log)"; }
  echo "include_if_exists = 'archlab.conf'   # written by .servers/postgres.sh before every start" >> "$PGDATA/postgresql.conf"
}

write_conf() {
  case "$WARM_WAL_SEGMENTS" in
    ''|*[!0-9]*) fail "ARCHLAB_PG_WARM_WAL_SEGMENTS must be a whole number of WAL segments, 0..64, was '$WARM_WAL_SEGMENTS'" ;;
  esac
  WARM_WAL_SEGMENTS=$((10#$WARM_WAL_SEGMENTS))   # 08 is eight, not a bad octal number
  [ "$WARM_WAL_SEGMENTS" -le 64 ] || fail "ARCHLAB_PG_WARM_WAL_SEGMENTS must be 0..64 WAL segments, was $WARM_WAL_SEGMENTS"
  as_server_user mkdir -p "$SOCKETS"
  # the run folder's path is short, so the socket's (folder + /.s.PGSQL.PORT) fits in a Unix socket path's 107 bytes
  as_server_user tee "$PGDATA/archlab.conf" >/dev/null <<CONF
# written by .servers/postgres.sh at each start; see the script's header for why each is set
listen_addresses = '127.0.0.1'
port = $1
unix_socket_directories = '$SOCKETS'
max_connections = $MAX_CONNECTIONS
lc_messages = 'C'
shared_preload_libraries = 'pg_stat_statements,auto_explain'
pg_stat_statements.track = top
auto_explain.log_min_duration = '10ms'
auto_explain.log_analyze = off
CONF
  if [ "$WARM_WAL_SEGMENTS" -gt 0 ]; then
    # never below PostgreSQL's own default (80MB), so fewer segments made ahead never means fewer kept
    echo "min_wal_size = '$((WARM_WAL_SEGMENTS * 16 > 80 ? WARM_WAL_SEGMENTS * 16 : 80))MB'" | as_server_user tee -a "$PGDATA/archlab.conf" >/dev/null
  fi
}

ensure_database() {
  local psql=("$BIN/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$1" -U postgres -d postgres)
  if [ "$("${psql[@]}" -tAc "SELECT 1 FROM pg_roles WHERE rolname = '$DB_USER'")" != 1 ]; then
    "${psql[@]}" -c "CREATE ROLE $DB_USER LOGIN" || return 1
  fi
  if [ "$("${psql[@]}" -tAc "SELECT 1 FROM pg_database WHERE datname = '$DB'")" != 1 ]; then
    "${psql[@]}" -c "CREATE DATABASE $DB OWNER $DB_USER" || return 1
    say "created the database $DB, owned by the role $DB_USER"
  fi
  local db=("$BIN/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$1" -U postgres -d "$DB")
  "${db[@]}" -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" \
    -c "GRANT EXECUTE ON FUNCTION pg_stat_statements_reset TO $DB_USER" || return 1
}

# A new cluster has one WAL segment. Each further 16 MB of WAL needs a new segment file, created and zero-filled by the
# backend that needs it while every committer waits (about 50 ms here, far more on a busy disk): a fresh server's first
# load run pays that once per 16 MB, a warmed one never. So, like a server that has run for a while, it starts with
# WARM_WAL segments made ahead (pg_switch_wal after a one-row write, WARM_WAL_SEGMENTS times) and a checkpoint, which
# recycles them as the next segments (min_wal_size keeps them). The table it writes is dropped.
WARM_WAL_SEGMENTS=${ARCHLAB_PG_WARM_WAL_SEGMENTS:-16}   # 0: none (to measure a cold cluster)
warm_wal() {
  local psql=("$BIN/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$1" -U postgres -d postgres)
  local i
  [ "$WARM_WAL_SEGMENTS" -gt 0 ] || { say "not warmed: ARCHLAB_PG_WARM_WAL_SEGMENTS=0 (a cold cluster, one WAL segment)"; return 0; }
  "${psql[@]}" -c "CREATE TABLE IF NOT EXISTS archlab_warm_wal (x int)" || return 1
  for i in $(seq 1 "$WARM_WAL_SEGMENTS"); do
    "${psql[@]}" -c "INSERT INTO archlab_warm_wal VALUES ($i)" -c "SELECT pg_switch_wal()" >/dev/null || return 1
  done
  "${psql[@]}" -c "DROP TABLE archlab_warm_wal" -c "CHECKPOINT" || return 1
  say "warmed: $WARM_WAL_SEGMENTS WAL segments made ahead and recycled ($(ls "$PGDATA/pg_wal" | grep -c '^[0-9A-F]\{24\}$') in pg_wal)"
}

server_launch() {
  local port="$1"
  write_conf "$port"
  if as_server_user "$BIN/pg_ctl" -D "$PGDATA" -l "$LOG" -w -t 60 start >/dev/null 2>&1; then
    ensure_database "$port" || fail "could not create the role or the database $DB (log: $LOG)"
    warm_wal "$port" || fail "could not make the WAL segments ahead (log: $LOG)"
    return 0
  fi
  if server_pid >/dev/null; then
    fail "pg_ctl reported a failure but a postmaster runs: see $LOG"
  fi
  if grep -q "could not bind\|Address already in use" "$LOG" 2>/dev/null; then return "$PORT_TAKEN"; fi
  tail -20 "$LOG" >&2 || true
  return 1
}

server_main "$@"
