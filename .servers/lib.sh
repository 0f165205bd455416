# Shared by the lab's server scripts (.servers/postgres.sh, .servers/redis.sh); sourced, not run.
#
# Every script takes one subcommand:
#   start    start the server (idempotent: when it runs already, says so); prints its URL and writes it to the clone's
#            target/servers/<name>/<url file>, where the lab's Java side finds it
#   status   whether it runs: the pid, port, run folder and URL
#   url      the URL alone
#   stop     stop it, by the pid it wrote (never by name), and remove its run folder (idempotent)
#
# Exit codes, the same in every script and subcommand:
#   0    done (start: it runs; stop: it is stopped, or was not running; status, url: it runs)
#   1    failed (the message says why)
#   2    not installed (the message says which package to install; .ci/run installs it then and starts again)
#   3    not running (status, url)
#   64   bad usage (the usage is printed; EX_USAGE of sysexits.h)
#
# Where a server's files are:
#   <clone>/target/servers/<name>/        what the clone's readers read: the URL file while the server runs (written
#                                         by start, removed by stop), and after a stop the stopped server's log
#   /var/tmp/archlab-<hash>-<name>/       the running server's own files (its data, socket, pid file, log), owned by
#                                         the user the server runs as, mode 700, removed by stop. <hash> is the first
#                                         12 hex digits of the SHA-256 of the clone's absolute path (symbolic links
#                                         resolved): two clones never share one, and a clone always finds its own.
# Why not under the clone: PostgreSQL refuses to run as root, so run as root the script runs it as the system user
# `archlab`, and that user cannot enter a clone under a folder only root may enter (/root, mode 700, where root's
# clones usually are). /var/tmp is open to every user (sticky, like /tmp) and, unlike a tmpfs /tmp, on disk, so a
# commit's flush costs what it costs on a reader's server; its files are not cleaned at boot. A run folder that exists
# but is not a folder owned by the server's user is refused, never used or removed.
#
# A script sets, before sourcing this file: NAME (postgres, redis: the tag of its messages and its folders' name),
# TITLE (PostgreSQL, Redis), URL_FILE_NAME (jdbc.url, redis.url), REFUSES_ROOT (1: run as the system user `archlab`
# when started by root) and defines:
#   server_installed          0 when the server's programs are installed
#   server_install_hint       the lines that say how to install them
#   server_pid                prints the running server's pid (its pid file names a live process of this server)
#   server_port               prints the running server's port
#   server_url PORT           prints the URL on PORT
#   server_prepare            once before start's attempts (e.g. initdb)
#   server_launch PORT        starts it on PORT and waits until it answers: 0 ready, $PORT_TAKEN when PORT was
#                             taken meanwhile (start tries another), else fails
#   server_version            a line naming the server's version
#   server_log                prints the running server's log file
#   STOP_SIGNAL, STOP_SECONDS the signal stop sends to the pid, and how long it waits for the process to end
# then calls `server_main "$@"`.

EXIT_FAILED=1
EXIT_NOT_INSTALLED=2
EXIT_NOT_RUNNING=3
EXIT_USAGE=64
PORT_TAKEN=75   # server_launch's "the port was taken meanwhile", never an exit code of a script

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
SCRIPT=".servers/$NAME.sh"
TARGET_DIR="$ROOT/target/servers/$NAME"
URL_FILE="$TARGET_DIR/$URL_FILE_NAME"
CLONE_HASH="$(printf '%s' "$ROOT" | sha256sum | cut -c1-12)"
RUN_DIR="/var/tmp/archlab-$CLONE_HASH-$NAME"
SYSTEM_USER=archlab
if [ "$(id -u)" = 0 ] && [ "${REFUSES_ROOT:-0}" = 1 ]; then
  SERVER_USER="$SYSTEM_USER"
else
  SERVER_USER="$(id -un)"
fi

say() { echo "[$NAME] $*"; }
fail() { echo "[$NAME] $*" >&2; exit "$EXIT_FAILED"; }

usage() {
  cat <<USAGE
usage: bash $SCRIPT start|stop|status|url
  start    start $TITLE (when it runs already, say so); print its URL and write it to target/servers/$NAME/$URL_FILE_NAME
  status   whether it runs
  url      its URL
  stop     stop it (by the pid in its pid file) and remove its run folder, $RUN_DIR
exit codes: 0 done, 1 failed, 2 not installed, 3 not running (status, url), 64 bad usage
USAGE
}

need_installed() {
  if ! server_installed; then
    server_install_hint | sed "s/^/[$NAME] /" >&2
    exit "$EXIT_NOT_INSTALLED"
  fi
}

# Runs a command as the server's user: this user, or the system user when root starts a server that refuses root. From
# /, since the server's user may not be able to enter the working directory (the clone).
as_server_user() {
  if [ "$SERVER_USER" != "$(id -un)" ]; then
    (cd / && runuser -u "$SERVER_USER" -- "$@")
  else
    "$@"
  fi
}

# The system user a server that refuses root runs as, created once: no login shell, no home, owns nothing but run folders.
ensure_system_user() {
  [ "$SERVER_USER" = "$SYSTEM_USER" ] || return 0
  id -u "$SYSTEM_USER" >/dev/null 2>&1 && return 0
  useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$SYSTEM_USER" \
    || fail "could not create the system user $SYSTEM_USER ($TITLE refuses to run as root)"
  say "created the system user $SYSTEM_USER: $TITLE refuses to run as root, it runs as $SYSTEM_USER"
}

# The run folder, created when missing: a folder (not a link) owned by the server's user, mode 700.
make_run_dir() {
  ensure_system_user
  if [ ! -e "$RUN_DIR" ] && [ ! -L "$RUN_DIR" ]; then
    (umask 077 && mkdir "$RUN_DIR") || fail "could not create $RUN_DIR"
    [ "$SERVER_USER" = "$(id -un)" ] || chown "$SERVER_USER:" "$RUN_DIR" || fail "could not give $RUN_DIR to $SERVER_USER"
  fi
  check_run_dir
}

check_run_dir() {
  if [ -L "$RUN_DIR" ] || [ ! -d "$RUN_DIR" ] || [ "$(stat -c %U "$RUN_DIR")" != "$SERVER_USER" ]; then
    fail "$RUN_DIR is not a folder owned by $SERVER_USER (left by another user?): remove it, then run this again"
  fi
  chmod 700 "$RUN_DIR"
}

remove_run_dir() {
  [ -e "$RUN_DIR" ] || [ -L "$RUN_DIR" ] || return 0
  check_run_dir
  rm -rf --one-file-system "$RUN_DIR" || fail "could not remove $RUN_DIR"
}

# The pid in FILE's first line when it names a live process whose command line contains PATTERN, else nothing (exit 1).
pid_from_file() {
  local file="$1" pattern="$2" pid
  [ -f "$file" ] || return 1
  pid="$(head -n 1 "$file" 2>/dev/null || true)"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  [ -d "/proc/$pid" ] || return 1
  tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$pattern" || return 1
  echo "$pid"
}

# Polls COMMAND every 50 ms until it succeeds (0) or SECONDS have passed (1).
wait_until() {
  local seconds="$1" i; shift
  for (( i = 0; i < seconds * 20; i++ )); do
    "$@" && return 0
    sleep 0.05
  done
  "$@"
}

pid_gone() { [ ! -d "/proc/$1" ]; }

# Sends SIGNAL to PID (a pid the server wrote, never processes found by name) and waits up to SECONDS for it to end.
stop_pid() {
  local pid="$1" signal="$2" seconds="$3"
  kill -"$signal" "$pid" 2>/dev/null || pid_gone "$pid" || return 1
  wait_until "$seconds" pid_gone "$pid"
}

# A loopback port nobody listens on, picked at random in 20000..59999.
free_port() {
  local port i
  for i in $(seq 1 50); do
    port=$(( 20000 + RANDOM % 40000 ))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"; return 0
    fi
  done
  return 1
}

write_url_file() {
  mkdir -p "$TARGET_DIR" || fail "could not create $TARGET_DIR"
  server_url "$1" > "$URL_FILE" || fail "could not write $URL_FILE"
  server_log > "$TARGET_DIR/log.path" || fail "could not write $TARGET_DIR/log.path"   # where a run reads the server's log
}

cmd_start() {
  need_installed
  local pid port attempt rc
  if pid="$(server_pid)"; then
    port="$(server_port)"
    write_url_file "$port"
    say "already running (pid $pid, port $port, run folder $RUN_DIR)"
    server_url "$port"
    return 0
  fi
  make_run_dir
  mkdir -p "$TARGET_DIR" || fail "could not create $TARGET_DIR"
  server_prepare
  for attempt in 1 2 3 4 5; do
    port="$(free_port)" || fail "found no free loopback port"
    rc=0
    server_launch "$port" || rc=$?
    if [ "$rc" = 0 ]; then
      write_url_file "$port"
      say "started $(server_version) (pid $(server_pid), port $port, run folder $RUN_DIR, log $(server_log))"
      server_url "$port"
      return 0
    fi
    [ "$rc" = "$PORT_TAKEN" ] || fail "start failed (log: $(server_log))"
    say "port $port was taken meanwhile (attempt $attempt of 5), trying another"
  done
  fail "could not start on a free port (log: $(server_log))"
}

# Stops the server by its pid, keeps its log as target/servers/<name>/<name>.log, removes the run folder and the URL file.
cmd_stop() {
  local pid log
  if pid="$(server_pid)"; then
    stop_pid "$pid" "$STOP_SIGNAL" "$STOP_SECONDS" || fail "pid $pid did not stop within $STOP_SECONDS s (log: $(server_log))"
  else
    pid=""
  fi
  rm -f "$URL_FILE" "$TARGET_DIR/log.path"
  log="$(server_log)"
  if [ -f "$log" ] && mkdir -p "$TARGET_DIR" 2>/dev/null; then cp "$log" "$TARGET_DIR/$NAME.log" 2>/dev/null || true; fi
  remove_run_dir
  if [ -n "$pid" ]; then
    say "stopped (pid $pid); removed $RUN_DIR (its log: $TARGET_DIR/$NAME.log)"
  else
    say "not running"
  fi
}

cmd_status() {
  local pid port
  if pid="$(server_pid)"; then
    port="$(server_port)"
    say "running: pid $pid, port $port, run folder $RUN_DIR, url $(server_url "$port")"
    return 0
  fi
  say "not running (start it with: bash $SCRIPT start)"
  return "$EXIT_NOT_RUNNING"
}

cmd_url() {
  if server_pid >/dev/null; then
    server_url "$(server_port)"
    return 0
  fi
  say "not running (start it with: bash $SCRIPT start)" >&2
  return "$EXIT_NOT_RUNNING"
}

server_main() {
  if [ $# != 1 ]; then usage >&2; exit "$EXIT_USAGE"; fi
  case "$1" in
    start) cmd_start ;;
    stop) cmd_stop ;;
    status) cmd_status ;;
    url) cmd_url ;;
    -h|--help|help) usage; exit 0 ;;
    *) usage >&2; exit "$EXIT_USAGE" ;;
  esac
}
