#!/usr/bin/env bash
# Grades a student's refactor of ch12-1 with pristine claims.
#
#   bash book/grading/grade-student.sh <student-repo-or-folder> [chapter]     # chapter: 12.2 (default) or 12.3, 12.1
#
# Takes ONLY the student's ch12-1-baseline/src/main (and the dependencies the student's ch12-1-baseline/pom.xml adds)
# into a clean copy of this lab at its committed HEAD, runs `mvn -pl ch12-1-baseline test -Dgrade=<chapter>` there,
# prints the scorecard and exits with the grade's status (0 = every claim passed). A student who edits the claims,
# the adapter (GradedCheckpoint) or any test gains nothing: none of their test files are used.
# The scorecard is copied to ./grade-<chapter>.md (+ .json, .xml) in the current folder, for the instructor's records.
set -euo pipefail
usage() { echo "usage: bash book/grading/grade-student.sh <student-repo-or-folder> [12.1|12.2|12.3]" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
student=$1
chapter=${2:-12.2}
case "$chapter" in 12.1|12.2|12.3) ;; *) echo "unknown chapter '$chapter': grade 12.1, 12.2 or 12.3" >&2; exit 2 ;; esac
lab=$(cd "$(dirname "$0")/../.." && pwd)
out=$(pwd)
source "$lab/.ci/jdk.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -d "$student/.git" ] || [[ "$student" == *://* ]] || [[ "$student" == *.git ]]; then
  git clone -q --depth 1 "$student" "$work/student"
elif [ -d "$student" ]; then
  cp -r "$student" "$work/student"
else
  echo "no student repository or folder at '$student'" >&2; exit 2
fi
[ -d "$work/student/ch12-1-baseline/src/main" ] || { echo "the student's work has no ch12-1-baseline/src/main" >&2; exit 2; }

git clone -q "$lab" "$work/lab"          # the committed lab: pristine claims, adapter and harness
rm -rf "$work/lab/ch12-1-baseline/src/main"
cp -r "$work/student/ch12-1-baseline/src/main" "$work/lab/ch12-1-baseline/src/main"
python3 "$lab/book/grading/add_student_dependencies.py" "$work/student/ch12-1-baseline/pom.xml" "$work/lab/ch12-1-baseline/pom.xml"

status=0
(cd "$work/lab" && mvn -B -ntp -q -pl ch12-1-baseline test -Dgrade="$chapter") > "$work/grade.log" 2>&1 || status=$?
card="$work/lab/ch12-1-baseline/target/reports/grade-$chapter"
if [ ! -f "$card.md" ]; then
  tail -40 "$work/grade.log"
  echo "no scorecard: the student's code did not build against the claims (see the log above); grade: 0" >&2
  exit 1
fi
cp "$card.md" "$card.json" "$card.xml" "$out/"
cat "$card.md"
grep -m1 '^points' "$card.md"
exit $status
