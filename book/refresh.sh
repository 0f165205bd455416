#!/usr/bin/env bash
# Reruns the lab's load runs on this machine and refreshes what the chapters quote:
# book/results (reports), book/figures (charts, flame graphs) and the chapters' code excerpts and figures.
# Takes a few minutes. Commit what changed: the chapters then state this machine's numbers.
set -euo pipefail
cd "$(dirname "$0")/.."
source .ci/jdk.sh
MVN=(mvn -B -ntp)

# excerpts first: the load runs go through the fast tests, and BookInSyncTest fails on an excerpt of edited code;
# every module's fast tests run first, failures ignored (a stale excerpt is what the next step fixes), since each
# module's run writes the target/reports/tests.json its claims table is read from (-pl book builds common-loadgen only)
"${MVN[@]}" -q test -Dmaven.test.failure.ignore=true
"${MVN[@]}" -q -pl book test -Dbook -Dtest='BookRefreshTask#syncText' -Dsurefire.failIfNoSpecifiedTests=false
"${MVN[@]}" test -Dbaseline -Dscenarios -Dsweep
"${MVN[@]}" -pl book test -Dbook -Dtest='BookRefreshTask#refresh' -Dsurefire.failIfNoSpecifiedTests=false
git status --short book/ || true
