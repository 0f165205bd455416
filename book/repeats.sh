#!/usr/bin/env bash
# Runs the book's load (BaselineOpenLoopTest under -Dbaseline) on every checkpoint N times, interleaved — run 1 of each
# checkpoint, then run 2 of each … — so that a noisy minute of this shared machine hits all of them, and writes
# <out>/<module>/baseline-repeats.json and .md (archlab.compare.RepeatedRuns): each figure's median, lowest and highest
# over the N runs, with N. The chapters compare checkpoints on the book's copies (book/results/<module>/): a direction
# only where the ranges do not overlap. Each run's own report stays under target/repeats/<module>/.
#
#   bash book/repeats.sh        N = 5, into target/repeats-out/ (the book's saved medians stay as committed)
#   bash book/repeats.sh 7      N = 7 (at least 5: the book says its medians come from 5 runs or more)
#   ARCHLAB_REPEATS_OUT=book/results bash book/repeats.sh     into the book (book/refresh.sh does this)
#
# Takes about a minute per run (15 runs for N = 5). One load at a time. book/refresh.sh runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
source .ci/jdk.sh
MVN=(mvn -B -ntp -q ${ARCHLAB_MVN_OFFLINE:+-o})
n=${1:-5}
[[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -ge 5 ] && [ "$n" -le 50 ] || { echo "usage: bash book/repeats.sh [N], N from 5 to 50" >&2; exit 2; }
out=${ARCHLAB_REPEATS_OUT:-target/repeats-out}
modules=(ch12-1-baseline ch12-2-cache-outbox-ratelimit ch12-3-fault-scenarios)
for m in "${modules[@]}"; do rm -rf "target/repeats/$m"; mkdir -p "target/repeats/$m"; done
for i in $(seq 1 "$n"); do
  for m in "${modules[@]}"; do
    echo "== run $i of $n: $m (mvn -pl $m test -Dbaseline -Dtest=BaselineOpenLoopTest)"
    rm -f "$m/target/reports/baseline.json"
    # a claim that fails in one run does not void its numbers: the run is counted, the failure printed
    "${MVN[@]}" -pl "$m" test -Dbaseline -Dtest=BaselineOpenLoopTest -Dsurefire.failIfNoSpecifiedTests=false \
      -Dmaven.test.failure.ignore=true > "target/repeats/$m/run-$i.log" 2>&1 \
      || { tail -30 "target/repeats/$m/run-$i.log"; echo "!! run $i of $m did not complete" >&2; exit 1; }
    grep -E "^\[ERROR\]   BaselineOpenLoopTest" "target/repeats/$m/run-$i.log" | sed 's/^/   claim failed in this run: /' || true
    [ -f "$m/target/reports/baseline.json" ] || { echo "!! run $i of $m wrote no baseline.json" >&2; exit 1; }
    cp "$m/target/reports/baseline.json" "target/repeats/$m/run-$i.json"
  done
done
"${MVN[@]}" -pl book compile dependency:build-classpath -Dmdep.outputFile=target/classpath.txt -Dmdep.includeScope=runtime
for m in "${modules[@]}"; do
  echo "-- $m"
  java -cp "book/target/classes:common-loadgen/target/classes:$(cat book/target/classpath.txt)" archlab.compare.RepeatedRuns \
    "$out/$m/baseline-repeats" $(for i in $(seq 1 "$n"); do echo "target/repeats/$m/run-$i.json"; done)
done
