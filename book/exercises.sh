#!/usr/bin/env bash
# Runs the chapters' exercises as their answers in book/guide.md read them, and saves what each measured in a folder
# per exercise: the reports the answer quotes, and run.txt (the command, the patch, the machine, the tests that failed —
# an exercise may predict a failure — and what the tests printed). The guide's answers quote the book's copies under
# book/results/exercises/<id>/; nothing is typed by hand.
#
#   bash book/exercises.sh            every exercise (PostgreSQL's only when .servers/postgres.sh status says it runs),
#                                     into target/exercises-out/ (the book's saved answers stay as committed)
#   bash book/exercises.sh ID ...     those only (ids: the all=( … ) list below, e.g. 12.1-2-timeout-300ms)
#   ARCHLAB_EXERCISES_OUT=book/results/exercises bash book/exercises.sh
#                                     into the book (book/refresh.sh does this): the guide then quotes the new runs
#
# An exercise's folder is replaced only when its run completed: a failed run leaves the saved one as it was.
# An exercise that asks for a code change applies its patch (book/exercises/<id>.patch, against the module named on its
# "Base:" line) to a copy of the sources under target/exercises/<id>/, never to this tree. One load at a time: the
# runs go one after another. Takes about 20 minutes. book/refresh.sh runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
source .ci/jdk.sh
lab=$(pwd)
MVN=(mvn -B -ntp -q ${ARCHLAB_MVN_OFFLINE:+-o})
out=${ARCHLAB_EXERCISES_OUT:-target/exercises-out}
mkdir -p "$out"

# run <id> <dir to run in> <module> <files to keep, from <module>/target/reports> -- <maven args...>
# (a file to keep may be written <report>=<saved name>: a run with changed settings names its report after them,
#  e.g. baseline-timeout-300ms.txt, and the exercise keeps it under the name its answer quotes)
run() {
  local id=$1 dir=$2 module=$3 keep=$4; shift 5
  local dest="$out/$id" log="$lab/target/exercises/$id-$module.log"
  mkdir -p "$lab/target/exercises"
  echo "== exercise $id: (cd ${dir#$lab/}; mvn ${*})"
  local files; IFS=, read -ra files <<< "$keep"
  for f in "${files[@]}"; do rm -f "$dir/$module/target/reports/${f%%=*}"; done
  local status=0
  (cd "$dir" && "${MVN[@]}" -Dmaven.test.failure.ignore=true "$@") > "$log" 2>&1 || status=$?
  local tmp="$dest.tmp"
  rm -rf "$tmp" && mkdir -p "$tmp" || return 1
  local kept=0
  for f in "${files[@]}"; do
    [ -f "$dir/$module/target/reports/${f%%=*}" ] && cp "$dir/$module/target/reports/${f%%=*}" "$tmp/${f##*=}" && kept=$((kept + 1))
  done
  {
    echo "exercise=$id"
    echo "command=mvn $*"
    echo "patch=$([ -f "$lab/book/exercises/$id.patch" ] && echo "book/exercises/$id.patch" || echo none)"
    echo "maven_exit=$status"
    echo "machine=$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), $(java -version 2>&1 | head -1)"
    echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "failed tests (maven -q prints nothing of the tests that pass):"
    local failedTests
    failedTests=$(grep -E "^\[ERROR\]   [A-Za-z]+Test\.[A-Za-z]+" "$log" | sed -E 's/^\[ERROR\]   /  /; s/:[0-9].*$//' | sort -u || true)
    echo "${failedTests:-  none}"
    echo "printed by the tests (a scenario's recovery, a scorecard's points):"
    grep -E "^(recovery=|points [0-9]+/[0-9]+|\[disk\] )" "$log" | cut -c1-400 | sed 's/^/  /' || true
  } > "$tmp/run.txt"
  if [ "$status" != 0 ] || [ "$kept" != "${#files[@]}" ]; then
    tail -30 "$log"
    rm -rf "$tmp"
    echo "!! exercise $id: maven exit $status, $kept of ${#files[@]} report(s) written (log: ${log#$lab/}); the saved one is kept" >&2
    return 1
  fi
  rm -rf "$dest" && mv "$tmp" "$dest" || return 1
  echo "   kept $kept file(s) in $out/$id"
}

# patched <id>: a copy of the sources with book/exercises/<id>.patch applied; prints the copy's folder
patched() {
  local id=$1 patch="$lab/book/exercises/$1.patch" copy="$lab/target/exercises/$1/lab"
  local base; base=$(sed -n 's/^Base: //p' "$patch")
  [ -n "$base" ] && [ -d "$lab/$base" ] || { echo "!! $patch has no Base: line naming a module" >&2; return 1; }
  rm -rf "$copy" && mkdir -p "$copy" || return 1
  tar -C "$lab" --exclude=./target --exclude='*/target' --exclude=./.git --exclude=./book/results --exclude=./book/figures \
    -cf - . | tar -C "$copy" -xf - || { echo "!! could not copy the sources to $copy" >&2; return 1; }
  (cd "$copy" && git apply -p1 --directory="$base" "$patch") || { echo "!! $patch does not apply to $base" >&2; return 1; }
  echo "$copy"
}

ch1=ch12-1-baseline ch2=ch12-2-cache-outbox-ratelimit ch3=ch12-3-fault-scenarios
only="-Dsurefire.failIfNoSpecifiedTests=false"

12.1-1-sweep-400-500()    { run "$FUNCNAME" "$lab" $ch1 "sweep-$ch1.txt,sweep-$ch1.json" -- -pl $ch1 test -Dsweep -Dtest=CapacitySweepTest $only -Dlab.sweep.rates=400,500; }
12.1-2-timeout-300ms()    { run "$FUNCNAME" "$lab" $ch1 "baseline-timeout-300ms.txt=baseline.txt,baseline-timeout-300ms.json=baseline.json" -- -pl $ch1 test -Dbaseline -Dtest=BaselineOpenLoopTest $only -Dlab.timeout=300ms; }
12.1-3-platform-threads() { run "$FUNCNAME" "$lab" $ch1 "baseline-threads-platform.txt=baseline.txt,baseline-threads-platform.json=baseline.json" -- -pl $ch1 test -Dbaseline -Dtest=BaselineOpenLoopTest $only -Dlab.threads=platform; }
12.1-5-grade-12.1()       { run "$FUNCNAME" "$lab" $ch1 "grade-12.1.md,grade-12.1.json" -- -pl $ch1 test -Dgrade=12.1; }
12.1-pool-50-postgres() {
  if ! bash .servers/postgres.sh status >/dev/null 2>&1; then
    echo "== exercise $FUNCNAME skipped: PostgreSQL not running: start it with \`bash .servers/postgres.sh start\` (its saved result stays as it is)"
    return 0
  fi
  run "$FUNCNAME" "$lab" $ch1 "baseline-postgres-db-pool-50.txt=baseline-postgres.txt,baseline-postgres-db-pool-50.json=baseline-postgres.json" -- -pl $ch1 test -Dbaseline -Dtest=BaselineOpenLoopTest $only -Dlab.store=postgres -Dlab.db.pool=50
}
12.2-1-quota-300()        { local d; d=$(patched "$FUNCNAME") || return 1; run "$FUNCNAME" "$d" $ch2 "baseline.txt,baseline.json,overload.txt,overload.json" -- -pl $ch2 test -Dbaseline -Dtest='BaselineOpenLoopTest,OverloadOpenLoopTest' $only; }
12.2-2-cache-savings()    { run "$FUNCNAME" "$lab" $ch2 "cache-latency.txt,cache-latency.json" -- -pl $ch2 test -Dbaseline -Dtest=CacheLatencyRunsTest $only; }
12.2-3-grade-12.2-untouched() { run "$FUNCNAME" "$lab" $ch1 "grade-12.2.md,grade-12.2.json" -- -pl $ch1 test -Dgrade=12.2; }
12.3-1-charge-budget-30ms() { local d; d=$(patched "$FUNCNAME") || return 1; run "$FUNCNAME" "$d" $ch3 "scenario-normal.txt,scenario-normal.json,scenario-slow-downstream.txt,scenario-slow-downstream.json" -- -pl $ch3 test -Dscenarios=normal,slow-downstream -Dtest=ScenarioRunsTest $only; }
12.3-2-no-bulkhead()      { local d; d=$(patched "$FUNCNAME") || return 1; run "$FUNCNAME" "$d" $ch3 "scenario-retry-storm.txt,scenario-retry-storm.json" -- -pl $ch3 test -Dscenarios=retry-storm -Dtest=ScenarioRunsTest $only; }
12.3-3-partial-solutions() { run "$FUNCNAME" "$lab" book "wrong-solutions.md,wrong-solutions.json" -- -pl book test -Dgrade.wrong -Dtest=WrongSolutionsTest $only; }
retry-budget() {
  local d; d=$(patched "$FUNCNAME") || return 1
  run "$FUNCNAME" "$d" $ch1 "scenario-retry-storm.txt,scenario-retry-storm.json" -- -pl $ch1 test -Dscenarios=retry-storm -Dtest=ScenarioRunsTest $only || return 1
  rm -rf "$out/$FUNCNAME-tmp" && mv "$out/$FUNCNAME" "$out/$FUNCNAME-tmp" || return 1
  run "$FUNCNAME" "$d" $ch2 "scenario-retry-storm.txt,scenario-retry-storm.json" -- -pl $ch2 test -Dscenarios=retry-storm -Dtest=ScenarioRunsTest $only || return 1
  for f in "$out/$FUNCNAME"/scenario-retry-storm.* "$out/$FUNCNAME/run.txt"; do mv "$f" "$out/$FUNCNAME/$ch2-$(basename "$f")" || return 1; done
  for f in "$out/$FUNCNAME-tmp"/scenario-retry-storm.*; do mv "$f" "$out/$FUNCNAME/$ch1-$(basename "$f")" || return 1; done
  mv "$out/$FUNCNAME-tmp/run.txt" "$out/$FUNCNAME/$ch1-run.txt" && rmdir "$out/$FUNCNAME-tmp" || return 1
}

all=(12.1-1-sweep-400-500 12.1-2-timeout-300ms 12.1-3-platform-threads 12.1-5-grade-12.1 12.1-pool-50-postgres
     12.2-1-quota-300 12.2-2-cache-savings 12.2-3-grade-12.2-untouched
     12.3-1-charge-budget-30ms 12.3-2-no-bulkhead 12.3-3-partial-solutions retry-budget)
ids=("$@")
[ ${#ids[@]} -gt 0 ] || ids=("${all[@]}")
failed=()
for id in "${ids[@]}"; do
  printf '%s\n' "${all[@]}" | grep -qxF -- "$id" || { echo "unknown exercise '$id'; known: ${all[*]}" >&2; exit 2; }
  "$id" || failed+=("$id")
done
[ ${#failed[@]} = 0 ] || { echo "!! exercises that did not run as asked: ${failed[*]}" >&2; exit 1; }
echo "exercises saved under $out/: $(ls -1 "$out" | wc -l) folder(s)"
