#!/usr/bin/env bash
# Reruns the lab's load runs on this machine and refreshes what the chapters quote:
# book/results (reports), book/figures (charts, flame graphs) and the chapters' code excerpts and figures.
# Takes about half an hour on this machine (its last run: 25 minutes, then 6 more for the repeated scenarios).
#
#   bash book/refresh.sh            a reader's refresh: never leaves the book worse off. If this machine's numbers make
#                                   a sentence of the chapters false, the book is put back as committed (its tests pass),
#                                   the new results are kept under book/target/refresh/, and the false sentences are
#                                   listed (sentence, values, condition) in book/target/refresh/problems.txt.
#   bash book/refresh.sh --author   the author's refresh: the book keeps the new numbers and the run fails on every
#                                   false sentence, to be rewritten before committing.
set -euo pipefail
cd "$(dirname "$0")/.."
source .ci/jdk.sh
MVN=(mvn -B -ntp)
mode=reader
case "${1:-}" in
  --author) mode=author ;;
  "") ;;
  *) echo "usage: bash book/refresh.sh [--author]" >&2; exit 2 ;;
esac
if [ "$mode" = reader ]; then
  git rev-parse --is-inside-work-tree >/dev/null 2>&1 \
    || { echo "a reader's refresh needs a git clone (it restores book/ from it when needed)" >&2; exit 2; }
  if [ -n "$(git status --porcelain --untracked-files=all -- book/ 2>/dev/null)" ]; then
    echo "book/ has uncommitted changes; commit or stash them first (a reader's refresh restores book/ as committed)," >&2
    echo "or run 'bash book/refresh.sh --author' to refresh on top of them" >&2
    exit 2
  fi
  # whatever stops this script early, book/ goes back as committed
  restore() { git checkout -q -- book/ && git clean -fdq -- book/results book/figures; }
  trap 'status=$?; if [ "$status" != 0 ] && [ "$status" != 3 ]; then restore; echo "refresh failed (exit $status): book/ is as committed" >&2; fi' EXIT
fi
problems=book/target/refresh-problems.txt
rm -f "$problems"

# excerpts first: the load runs go through the fast tests, and BookInSyncTest fails on an excerpt of edited code;
# every module's fast tests run first, failures ignored (a stale excerpt is what the next step fixes), since each
# module's run writes the target/reports/tests.json its claims table is read from (-pl book builds the harness only)
"${MVN[@]}" -q test -Dmaven.test.failure.ignore=true
"${MVN[@]}" -q -pl book test -Dbook -Dtest='BookRefreshTask#syncText' -Dsurefire.failIfNoSpecifiedTests=false
# over the wire first, each Maven session's reports copied as it ends (the last session's refresh checks every sentence):
# open loop beside wrk and the generator's capacity, and the article's incident on Tomcat's platform threads, then on
# virtual threads
collect() { "${MVN[@]}" -q -pl book test -Dbook -Dtest='BookRefreshTask#collect' -Dsurefire.failIfNoSpecifiedTests=false; }
checkpoints=ch12-1-baseline,ch12-2-cache-outbox-ratelimit,ch12-3-fault-scenarios
# the generator beside wrk in a session of its own: a checkpoint-run flag on the same command skips the harness's tests
"${MVN[@]}" -pl common-loadgen/lab-runs test -Dgenerator
collect
"${MVN[@]}" -pl "$checkpoints" test -Dwrk -Dscenarios=incident -Dlab.transport=http
collect
"${MVN[@]}" -pl "$checkpoints" test -Dscenarios=incident -Dlab.transport=http -Dlab.server.threads=virtual
collect
# on PostgreSQL, when the lab's server can be started: each checkpoint under the book's load, then ch12-3 killed ten times,
# then (with Redis) the second level and the two-instance runs
if bash .servers/postgres.sh start; then
  "${MVN[@]}" -pl "$checkpoints" test -Dbaseline -Dlab.store=postgres
  collect
  "${MVN[@]}" -pl ch12-3-fault-scenarios test -Dcrash -Dlab.store=postgres
  collect
  # the article's ladder on a million orders (built on the first run and kept): appendix-ladder.md reads it
  "${MVN[@]}" -pl common-loadgen/lab-ladder test -Dladder
  collect
  # the ladder's business code per call (JMH, no server needed; run here beside the ladder it explains)
  "${MVN[@]}" -pl common-loadgen/lab-ladder test -Dladder -Djmh
  collect
  # with Redis too, when its server can be started: the second level under the book's load, then the two-instance runs
  if bash .servers/redis.sh start; then
    "${MVN[@]}" -pl ch12-2-cache-outbox-ratelimit test -Dbaseline -Dlab.cache=redis
    collect
    "${MVN[@]}" -pl ch12-2-cache-outbox-ratelimit,ch12-3-fault-scenarios test -Dinstances
    collect
    bash .servers/redis.sh stop
  else
    echo "Redis could not be started (see above): its saved results stay as they are" >&2
  fi
  # every exercise of the chapters, as the guide's answers read them (the PostgreSQL one while its server runs)
  ARCHLAB_EXERCISES_OUT=book/results/exercises bash book/exercises.sh || { bash .servers/postgres.sh stop; exit 1; }
  bash .servers/postgres.sh stop
else
  echo "PostgreSQL could not be started (see above): its saved results stay as they are" >&2
  ARCHLAB_EXERCISES_OUT=book/results/exercises bash book/exercises.sh
fi
# the book's load and the five scenarios five times on each checkpoint, interleaved: the medians and ranges the
# chapters compare
ARCHLAB_REPEATS_OUT=book/results bash book/repeats.sh
# every module's load runs in one Maven session (the book's cross-checkpoint tables are built from one session's reports);
# the book's BookInSyncTest is left out of it: the reports collected above have already moved the chapters' numbers, and
# the refresh step below is what brings them back in sync (and lists what no longer holds)
"${MVN[@]}" test -Dbaseline -Dscenarios -Dsweep -Dtest='!BookInSyncTest' -Dsurefire.failIfNoSpecifiedTests=false
if "${MVN[@]}" -pl book test -Dbook -Dtest='BookRefreshTask#refresh' -Dsurefire.failIfNoSpecifiedTests=false; then
  git status --short book/ || true
  echo "refreshed: every sentence of the chapters holds for this machine's numbers; review with 'git diff book/'"
  exit 0
fi
if [ ! -s "$problems" ]; then
  echo "the refresh step failed without naming a false sentence (see its output above)" >&2
  exit 1
fi
if [ "$mode" = author ]; then
  [ -s "$problems" ] && { echo "false sentences (rewrite them for the new numbers, then their conditions):"; cat "$problems"; }
  exit 1
fi
keep=book/target/refresh
rm -rf "$keep" && mkdir -p "$keep"
[ -s "$problems" ] && cp "$problems" "$keep/problems.txt"
git diff --name-only -- book/ | while read -r f; do mkdir -p "$keep/$(dirname "$f")"; cp "$f" "$keep/$f"; done
git ls-files --others --exclude-standard -- book/ | while read -r f; do mkdir -p "$keep/$(dirname "$f")"; cp "$f" "$keep/$f"; done
restore
n=$(wc -l < "$keep/problems.txt")
"${MVN[@]}" -q -pl book test > /tmp/archlab-book-after-refresh.log 2>&1 \
  || { tail -30 /tmp/archlab-book-after-refresh.log; echo "!! book/ was restored, but mvn -pl book test fails" >&2; exit 1; }
echo "not applied: this machine's numbers make $n sentence(s) of the chapters false (listed in $keep/problems.txt);"
echo "the book is as committed (mvn -pl book test passes); what this refresh measured and drew is under $keep/"
exit 3
