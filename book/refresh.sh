#!/usr/bin/env bash
# Reruns the lab's load runs on this machine and refreshes what the chapters quote:
# book/results (reports), book/figures (charts, flame graphs) and the chapters' code excerpts and figures.
# Takes a few minutes. Commit what changed: the chapters then state this machine's numbers.
set -euo pipefail
cd "$(dirname "$0")/.."
source .ci/jdk.sh
MVN=(mvn -B -ntp)

# excerpts first: the load runs go through the fast tests, and BookInSyncTest fails on an excerpt of edited code;
# every module's tests compiled first, since the claims tables are read from them (-pl book builds common-loadgen only)
"${MVN[@]}" -q test-compile
"${MVN[@]}" -q -pl book test -Dbook -Dtest='BookRefreshTask#syncText' -Dsurefire.failIfNoSpecifiedTests=false
"${MVN[@]}" test -Dbaseline -Dscenarios -Dsweep
"${MVN[@]}" -pl book test -Dbook -Dtest='BookRefreshTask#refresh' -Dsurefire.failIfNoSpecifiedTests=false
git status --short book/ || true
