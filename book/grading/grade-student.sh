#!/usr/bin/env bash
# Grades a student's refactor of ch12-1 with pristine claims.
#
#   bash book/grading/grade-student.sh <student-repo-or-folder> [chapter] [--out DIR] [--seed N]
#       chapter: 12.2 (default), 12.3 or 12.1; the student's work: a git repository (a path or a URL) or a folder, with
#       the lab's layout (their ch12-1-baseline/src/main is what is graded)
#   bash book/grading/grade-student.sh --help
#
# Takes ONLY the student's ch12-1-baseline/src/main/java (and the dependencies the student's ch12-1-baseline/pom.xml
# adds, from an allow list) into a clean copy of this lab at its committed HEAD, runs
# `mvn -pl ch12-1-baseline test -Dgrade=<chapter>` there, prints the scorecard and exits with the grade's status
# (0 = every claim passed). A student who edits the claims, the adapter (GradedCheckpoint) or any test gains nothing:
# none of their test files are used. Before any of the student's code runs, the grader reads its classes
# (archlab.claims.StudentCodeCheck) and refuses, grade 0, a class outside archlab.order, one named like a class of
# the grader, or one that uses reflection, files, processes, JVM exit or the caller's stack: a first line with a clear
# message, not the wall. The wall is the process: every attempt of every claim runs the student's code in a JVM of its
# own (under a uid of its own when this runs as root), reached only over loopback; the claims, the stubs' books and the
# scorecard live in the grader's JVM (docs/grading.md).
# Refused with grade 0 before building: a file under src/main that is not a .java file under src/main/java (a
# META-INF/services file would run the student's code before the grader's), a symbolic link, a dependency outside
# the allow list. A run that ends without a scorecard, or whose scorecard disagrees with the test runner's own
# report, is a 0 with the reason. The scorecard is copied to grade-<chapter>.md (+ .json, .xml) in the current
# folder, or in DIR with --out DIR, for the instructor's records (an earlier scorecard of that chapter there is
# replaced); the script says where as it starts. Its last line is the scorecard's "points N/M …" line.
# Exit: 0 every claim passed; 1 some claim failed, or the work was refused or did not build (grade 0 with the reason);
# 3 regrade: a claim was not judged because something other than the student disturbed the machine (the points line
# is still printed); 2 usage error or no such student. book/grading/grade-class.sh grades a class with it.
# The claims feed the solution inputs (customers, skus, prices, deadlines, latencies) drawn from a seed: a new one each
# run, printed in the scorecard ("seed N"); --seed N regrades with the inputs of that run (passed to the grader's JVM in
# the environment, ARCHLAB_GRADE_SEED, never on a command line a student's process could read).
set -euo pipefail
usage() {
  cat <<'USAGE'
usage: bash book/grading/grade-student.sh <student-repo-or-folder> [12.1|12.2|12.3] [--out DIR] [--seed N] [--same-user]
  Grades the student's ch12-1-baseline/src/main with this lab's pristine claims (chapter 12.2 by default) in a clean
  copy of the lab, prints the scorecard and exits 0 only if every claim passed. The scorecard is copied to
  grade-<chapter>.md, .json and .xml in the current folder (--out DIR: in DIR), replacing an earlier one there.
  Exit: 0 every claim passed; 1 some claim failed, or refused / did not build (grade 0); 3 regrade (a claim was not
  judged: the machine was disturbed); 2 usage error or no such student.
  --same-user: grade although not root (the student's process then runs as your own user: for your own code only)
  --seed N: draw the claims' inputs from seed N (a whole number, as a scorecard's "seed N" line prints it) to regrade
  with the same inputs; without it every run draws a new seed.
USAGE
}
args=() out=$(pwd) seed= seed_given= same_user=
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --out) [ $# -ge 2 ] || { usage >&2; exit 2; }; mkdir -p "$2"; out=$(cd "$2" && pwd); shift 2 ;;
    --out=*) mkdir -p "${1#--out=}"; out=$(cd "${1#--out=}" && pwd); shift ;;
    --seed) [ $# -ge 2 ] || { usage >&2; exit 2; }; seed=$2 seed_given=1; shift 2 ;;
    --seed=*) seed=${1#--seed=} seed_given=1; shift ;;
    --same-user) same_user=1; shift ;;
    -*) echo "unknown option '$1'" >&2; usage >&2; exit 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
[ ${#args[@]} -ge 1 ] && [ ${#args[@]} -le 2 ] || { usage >&2; exit 2; }
student=${args[0]}
chapter=${args[1]:-12.2}
case "$chapter" in 12.1|12.2|12.3) ;; *) echo "unknown chapter '$chapter': grade 12.1, 12.2 or 12.3" >&2; exit 2 ;; esac
# the seed travels in the environment, never on a command line: /proc/<pid>/cmdline is readable by every user, the
# student's process included, while /proc/<pid>/environ is its owner's only. Given as --seed, this script starts again
# with it moved into ARCHLAB_GRADE_SEED (which the grader's JVM reads), so no process of the grading shows it.
if [ "$(id -u)" != 0 ] && [ -z "$same_user" ] && [ -z "${ARCHLAB_GRADE_SAME_USER:-}" ]; then
  echo "grading as $(id -un), not root: the student's code would run as your own user, whose files and processes it could" \
    "reach (a scorecard rewritten, the grader attached to). Grade as root (the student's process then runs under a uid of" \
    "its own), or pass --same-user to grade anyway (for your own code, not a student's)" >&2
  exit 2
fi
if [ -n "$seed_given" ]; then
  rest=()
  for a in "${args[@]}"; do rest+=("$a"); done
  exec env ARCHLAB_GRADE_SEED="$seed" ${same_user:+ARCHLAB_GRADE_SAME_USER=1} bash "$0" "${rest[@]}" --out "$out"
fi
if [ -n "${ARCHLAB_GRADE_SEED:-}" ]; then seed=$ARCHLAB_GRADE_SEED seed_given=1; fi
if [ -n "$seed_given" ]; then
  digits=$(printf '%s' "${seed#-}" | sed 's/^0*//')
  [[ "$seed" =~ ^-?[0-9]+$ ]] && { [ ${#digits} -lt 19 ] || { [ ${#digits} -eq 19 ] && [[ ! "$digits" > 9223372036854775807 ]]; }; } \
    || { echo "--seed must be a whole number of at most 19 digits, with an optional leading '-' (a Java long), was '$seed'" >&2; exit 2; }
  export ARCHLAB_GRADE_SEED=$seed
fi
lab=$(cd "$(dirname "$0")/../.." && pwd)
echo "grading $student with chapter $chapter's claims; the scorecard goes to $out/grade-$chapter.md (+ .json, .xml)" >&2
rm -f "$out/grade-$chapter.md" "$out/grade-$chapter.json" "$out/grade-$chapter.xml" # an earlier student's, never mixed with this one's
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

zero() { # a zero scorecard with the reason (and the lines of file $2, if given), in the instructor's folder; exit 1
  printf '# ch12-1-baseline: grade %s\n\npoints 0 (ch12-1-baseline, grade %s): %s\n' "$chapter" "$chapter" "$1" > "$out/grade-$chapter.md"
  if [ -n "${2:-}" ]; then { echo; sed 's/^/- /' "$2"; } >> "$out/grade-$chapter.md"; fi
  cat "$out/grade-$chapter.md"
  echo "points 0: $1" >&2
  exit 1
}

src="$work/student/ch12-1-baseline/src/main"
# a link anywhere on the way (the module, src, src/main) would hand in another folder's code: a checkpoint, a classmate's
for p in "$work/student/ch12-1-baseline" "$work/student/ch12-1-baseline/src" "$src" "$work/student/ch12-1-baseline/pom.xml"; do
  [ ! -L "$p" ] || zero "refused: ${p#"$work/student/"} is a symbolic link"
done
[ "$(cd "$src" && pwd -P)" = "$(cd "$work/student" && pwd -P)/ch12-1-baseline/src/main" ] \
  || zero "refused: ch12-1-baseline/src/main is not a folder of the student's own work"
links=$(find "$src" -type l | sed "s|^$src/||" | head -5)
[ -z "$links" ] || zero "refused: symbolic links under src/main: $links"
# Java sources, and the checkpoint's Flyway migrations (SQL the grader never runs: it grades the store in memory), as
# archlab.claims.StudentCodeCheck allows in the lab
others=$(cd "$src" && find . -type f ! -path './java/*.java' \
  ! -regex '\./resources/db/migration/V[0-9]+__[A-Za-z0-9_]+\.sql' | sed 's|^\./||' | head -5)
[ -z "$others" ] || zero "refused: only .java files under src/main/java (and SQL migrations under resources/db/migration) are graded; found $others (a resource such as META-INF/services would run code before the grader)"

git clone -q "$lab" "$work/lab"          # the committed lab: pristine claims, adapter and harness
rm -rf "$work/lab/ch12-1-baseline/src/main"
cp -r "$src" "$work/lab/ch12-1-baseline/src/main"
deps_status=0
python3 "$lab/book/grading/add_student_dependencies.py" "$work/student/ch12-1-baseline/pom.xml" "$work/lab/ch12-1-baseline/pom.xml" \
  2> "$work/deps.err" || deps_status=$?
[ "$deps_status" -eq 0 ] || zero "$(cat "$work/deps.err")"

# build, then read the student's classes in a JVM of the lab's own class path: none of the student's code runs, and
# a student's class named like the check cannot stand in for it
(cd "$work/lab" && timeout 1800 mvn -B -ntp -q -pl ch12-1-baseline test-compile -Dgrade="$chapter") > "$work/build.log" 2>&1 \
  || { tail -40 "$work/build.log"; zero "the student's code did not build (see the log above)"; }
module="$work/lab/ch12-1-baseline"
check_status=0
java -cp "$(cat "$module/target/test-classpath.txt")" archlab.claims.StudentCodeCheck "$module/target/classes" \
  "$module/target/test-classes:$(cat "$module/target/test-classpath.txt")" > "$work/check.log" 2>&1 || check_status=$?
if [ "$check_status" -ne 0 ]; then
  grep -E '^refused ' "$work/check.log" | sed 's/^refused //' > "$work/refusals.txt" || cat "$work/check.log" > "$work/refusals.txt"
  zero "refused before judging: $(tail -1 "$work/check.log")" "$work/refusals.txt"
fi

status=0
(cd "$work/lab" && timeout 1800 mvn -B -ntp -q -pl ch12-1-baseline test -Dgrade="$chapter") > "$work/grade.log" 2>&1 || status=$?
card="$work/lab/ch12-1-baseline/target/reports/grade-$chapter"
if [ ! -f "$card.md" ] || [ ! -f "$card.json" ]; then
  tail -40 "$work/grade.log"
  [ "$status" -eq 124 ] && zero "no scorecard: the grading run did not end within 30 min"
  zero "no scorecard: the student's code did not build against the claims, or the run ended before the grader wrote it (see the log above)"
fi
# the scorecard is the grader's; the test runner's own report (written by Maven, outside the student's JVM) must agree
agree=$(python3 "$lab/book/grading/scorecard_agrees.py" "$card.json" \
  "$work/lab/ch12-1-baseline/target/surefire-reports/TEST-archlab.order.ChapterClaimsTest.xml" 2>&1) \
  || zero "the scorecard disagrees with the test runner's report: $agree"
cp "$card.md" "$card.json" "$card.xml" "$out/"
cat "$card.md"
echo "scorecard: $out/grade-$chapter.md (+ .json, .xml)" >&2
grep -m1 '^points' "$card.md"
# the grade's status from the scorecard itself: a claim not judged (the machine was disturbed by something other than
# the student, in every attempt) is a regrade, never a pass or a fail
python3 - "$card.json" <<'PY'
import json, sys
card = json.load(open(sys.argv[1], encoding="utf-8"))
outcomes = [c["outcome"] for c in card["claims"]]
sys.exit(0 if card.get("allPassed") else 3 if "NOT_JUDGED" in outcomes and not card.get("refusals") else 1)
PY
