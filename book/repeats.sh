#!/usr/bin/env bash
# Runs the book's load (BaselineOpenLoopTest under -Dbaseline) and chapter 12.3's five scenarios (ScenarioRunsTest under
# -Dscenarios) on every checkpoint N times, interleaved — run 1 of each checkpoint, then run 2 of each … — so that a
# noisy minute of this shared machine hits all of them, and writes <out>/<module>/baseline-repeats.json and .md, and
# <out>/<module>/scenario-<name>-repeats.json and .md (archlab.compare.RepeatedRuns): each figure's median, lowest and
# highest over the N runs, with N. The chapters compare checkpoints on the book's copies (book/results/<module>/): a
# direction only where the ranges do not overlap. Each run's own report stays under target/repeats/<module>/.
#
#   bash book/repeats.sh        N = 5, into target/repeats-out/ (the book's saved medians stay as committed)
#   bash book/repeats.sh 7      N = 7 (at least 5: the book says its medians come from 5 runs or more)
#   ARCHLAB_REPEATS_OUT=book/results bash book/repeats.sh     into the book (book/refresh.sh does this)
#   ARCHLAB_REPEATS_KINDS=baseline bash book/repeats.sh       one kind only (baseline or scenarios; default both)
#
# Takes about 10 minutes for N = 5 on this 2-core machine (30 Maven runs; the 15 scenario runs took 6 minutes by its
# clock). One load at a time. book/refresh.sh runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
source .ci/jdk.sh
MVN=(mvn -B -ntp -q ${ARCHLAB_MVN_OFFLINE:+-o})
n=${1:-5}
[[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -ge 5 ] && [ "$n" -le 50 ] || { echo "usage: bash book/repeats.sh [N], N from 5 to 50" >&2; exit 2; }
out=${ARCHLAB_REPEATS_OUT:-target/repeats-out}
read -r -a kinds <<< "${ARCHLAB_REPEATS_KINDS:-baseline scenarios}"
for k in "${kinds[@]}"; do
  case "$k" in baseline|scenarios) ;; *) echo "ARCHLAB_REPEATS_KINDS: '$k' is neither baseline nor scenarios" >&2; exit 2 ;; esac
done
modules=(ch12-1-baseline ch12-2-cache-outbox-ratelimit ch12-3-fault-scenarios)
scenarios=(normal slow-downstream failing-downstream long-outage retry-storm)
for m in "${modules[@]}"; do rm -rf "target/repeats/$m"; mkdir -p "target/repeats/$m"; done

# one Maven run of kind $1 on module $2, the i-th ($3): its reports copied to target/repeats/<module>/<report>-run-<i>.json
run_once() {
  local kind=$1 m=$2 i=$3 log="target/repeats/$2/$1-run-$3.log" flags reports
  case "$kind" in
    baseline) flags=(-Dbaseline -Dtest=BaselineOpenLoopTest); reports=(baseline) ;;
    scenarios) flags=(-Dscenarios -Dtest=ScenarioRunsTest); reports=("${scenarios[@]/#/scenario-}") ;;
  esac
  echo "== run $i of $n: $m, $kind (mvn -pl $m test ${flags[*]})"
  for r in "${reports[@]}"; do rm -f "$m/target/reports/$r.json"; done
  # a claim that fails in one run does not void its numbers: the run is counted, the failure printed
  if ! "${MVN[@]}" -pl "$m" test "${flags[@]}" -Dsurefire.failIfNoSpecifiedTests=false -Dmaven.test.failure.ignore=true \
      > "$log" 2>&1; then
    tail -30 "$log"; echo "!! run $i of $m ($kind) did not complete" >&2; return 1
  fi
  grep -E "^\[ERROR\]   (BaselineOpenLoopTest|ScenarioRunsTest)" "$log" | sed 's/^/   claim failed in this run: /' || true
  for r in "${reports[@]}"; do
    [ -f "$m/target/reports/$r.json" ] || { echo "!! run $i of $m wrote no $r.json" >&2; return 1; }
    cp "$m/target/reports/$r.json" "target/repeats/$m/$r-run-$i.json" || return 1
  done
}

for i in $(seq 1 "$n"); do
  for k in "${kinds[@]}"; do
    for m in "${modules[@]}"; do
      run_once "$k" "$m" "$i" || exit 1
    done
  done
done
"${MVN[@]}" -pl book compile dependency:build-classpath -Dmdep.outputFile=target/classpath.txt -Dmdep.includeScope=runtime
summarise() { # $1 module, $2 report name
  echo "-- $1 $2"
  java -cp "book/target/classes:$(cat book/target/classpath.txt)" archlab.compare.RepeatedRuns \
    "$out/$1/$2-repeats" $(for i in $(seq 1 "$n"); do echo "target/repeats/$1/$2-run-$i.json"; done)
}
for m in "${modules[@]}"; do
  for k in "${kinds[@]}"; do
    case "$k" in
      baseline) summarise "$m" baseline ;;
      scenarios) for s in "${scenarios[@]}"; do summarise "$m" "scenario-$s"; done ;;
    esac
  done
done
