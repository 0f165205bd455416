#!/usr/bin/env bash
# Grades a class: every student's refactor of ch12-1, one at a time, with grade-student.sh, into one table.
#
#   bash book/grading/grade-class.sh <folder-of-students> [12.1|12.2|12.3] [--out DIR] [--seed N] [--again|--regrade]
#   bash book/grading/grade-class.sh --help
#
# Each direct subfolder of <folder-of-students> is one student (a git repository or a plain folder with the lab's
# layout), named by the subfolder's name; a name that is not [A-Za-z0-9._-]+ is not graded (its row says why). Folders
# whose name starts with '.' are not students. The students are graded in sorted order, ONE AT A TIME (a grading is a
# load run: two at once would disturb each other), by grade-student.sh beside this script (env ARCHLAB_GRADE_STUDENT
# overrides it, for tests) with --out DIR/<student>, the chapter (12.2 by default) and --seed N if given.
# DIR (default ./class-<chapter>) gets per student <student>/grade-<chapter>.md|json|xml (grade-student.sh's
# scorecard) and <student>/grading.log (its stdout and stderr), and the table class-<chapter>.csv:
#   student,points,possible,exit,failed_claims,not_judged,refused,seconds,seed
# (claim ids joined with ';'; refused: why the student scored 0 without being judged, on one line; RFC 4180 quoting),
# one row per student in student order, rewritten (temp file + mv) after each student.
# Resumable: a student with a row and a scorecard is skipped ("already graded"); one interrupted mid-grading has no row
# and is graded on the next run, as is one whose grading left no scorecard (no such work: grade-student.sh exit 2).
# A row graded with another seed than --seed N is graded again. --again grades everyone again; --regrade only the
# students whose row says exit 3 (not judged: the machine was disturbed).
# Ctrl-C (or kill) stops the student in progress, removes its partial scorecard, writes no row for it and exits 130
# (143 on SIGTERM).
# Exit: 0 every student has a row and none needs a regrade; 3 some row needs a regrade (--regrade); 1 some student has
# no row (their grading was killed from outside); 2 usage error.
set -euo pipefail

usage() {
  cat <<'USAGE'
usage: bash book/grading/grade-class.sh <folder-of-students> [12.1|12.2|12.3] [--out DIR] [--seed N] [--again|--regrade]
  Grades each direct subfolder of <folder-of-students> (one student: a git repository or a folder with the lab's
  layout) with grade-student.sh, one at a time, in sorted order, with chapter 12.2's claims unless given.
  --out DIR   where the table and each student's scorecard and log go (default ./class-<chapter>):
              DIR/class-<chapter>.csv, DIR/<student>/grade-<chapter>.md|json|xml, DIR/<student>/grading.log
  --seed N    passed on to grade-student.sh (the inputs' seed); a student graded with another seed is graded again
  --again     grade every student again (default: a student already in the table is skipped)
  --regrade   grade again only the students whose row needs it (exit 3: a claim not judged, the machine was disturbed)
  CSV columns: student,points,possible,exit,failed_claims,not_judged,refused,seconds,seed
  Exit: 0 every student has a row, none needs a regrade; 3 some row needs a regrade; 1 some student has no row;
  2 usage error.
USAGE
}
die() { echo "grade-class: $1" >&2; exit 2; }

args=() out='' seed='' again=0 regrade=0
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --out) [ $# -ge 2 ] || { usage >&2; exit 2; }; out=$2; shift 2 ;;
    --out=*) out=${1#--out=}; shift ;;
    --seed) [ $# -ge 2 ] || { usage >&2; exit 2; }; seed=$2; shift 2 ;;
    --seed=*) seed=${1#--seed=}; shift ;;
    --again) again=1; shift ;;
    --regrade|--again-regrade) regrade=1; shift ;;
    -*) echo "grade-class: unknown option '$1'" >&2; usage >&2; exit 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
[ ${#args[@]} -ge 1 ] && [ ${#args[@]} -le 2 ] || { usage >&2; exit 2; }
class=${args[0]}
chapter=${args[1]:-12.2}
case "$chapter" in 12.1|12.2|12.3) ;; *) die "unknown chapter '$chapter': grade 12.1, 12.2 or 12.3" ;; esac
[ -z "$seed" ] || [[ "$seed" =~ ^-?[0-9]+$ ]] || die "--seed takes a whole number, not '$seed'"
if [ -n "$seed" ] && [ "${ARCHLAB_GRADE_SEED:-}" != "$seed" ]; then
  # start again with the seed in the environment only: this script's command line is readable by every user, the
  # students' processes included, for as long as the class is graded
  rest=()
  for a in "${args[@]}"; do rest+=("$a"); done
  [ -z "$out" ] || rest+=(--out "$out")
  [ "$again" = 0 ] || rest+=(--again)
  [ "$regrade" = 0 ] || rest+=(--regrade)
  exec env ARCHLAB_GRADE_SEED="$seed" bash "$0" "${rest[@]}"
fi
[ -n "$seed" ] || seed=${ARCHLAB_GRADE_SEED:-}
[ -z "$seed" ] || export ARCHLAB_GRADE_SEED=$seed
[ -n "$out" ] || out="./class-$chapter"
[ -d "$class" ] || die "no folder of students at '$class'"
class=$(cd "$class" && pwd -P)
command -v python3 > /dev/null || die "python3 is needed (to read the scorecards and the table)"
# the interpreter itself, found once: a version manager's shim (pyenv) costs a few processes per call
py=$(python3 -c 'import sys; print(sys.executable or "python3")' 2> /dev/null) || py=python3
grader=${ARCHLAB_GRADE_STUDENT:-$(cd "$(dirname "$0")" && pwd)/grade-student.sh}
[ -f "$grader" ] || die "no grade-student.sh at '$grader'"
if [ -n "$seed" ] && ! grep -q -e '--seed' "$grader"; then
  die "$grader takes no --seed: grade without --seed, or with a grade-student.sh that takes it"
fi
mkdir -p "$out" || die "cannot create the output folder '$out'"
out=$(cd "$out" && pwd -P)
csv="$out/class-$chapter.csv"
header='student,points,possible,exit,failed_claims,not_judged,refused,seconds,seed'

# --- the table: one row per student, fields in the associative arrays below ---
declare -A row_points=() row_possible=() row_exit=() row_failed=() row_nj=() row_refused=() row_seconds=() row_seed=()
declare -A has_row=()

csv_line=''
csv_append() { # appends $1 to csv_line as one field, quoted per RFC 4180 when it holds a comma, a quote or a line break
  local v=$1
  if [[ "$v" == *[,\"$'\n'$'\r']* ]]; then v=\"${v//\"/\"\"}\"; fi
  csv_line+="${csv_line:+,}$v"
}
one_line() { local v=${1//$'\r'/ }; v=${v//$'\n'/ }; printf '%s' "${v//$'\t'/ }"; }

read_table() { # the rows of an earlier run, if any
  [ -f "$csv" ] || return 0
  local rows fields=() f i s
  rows=$(mktemp)
  if ! "$py" - "$csv" "$header" > "$rows" <<'PY'
import csv, sys
try:
    with open(sys.argv[1], newline='', encoding='utf-8') as fh:
        rows = list(csv.reader(fh))
except (OSError, ValueError, csv.Error) as e:
    sys.stderr.write("grade-class: cannot read %s: %s\n" % (sys.argv[1], e))
    sys.exit(2)
if not rows or ','.join(rows[0]) != sys.argv[2]:
    sys.stderr.write("grade-class: %s is not a class table (its first line is not %s): move it away or use another --out\n"
                     % (sys.argv[1], sys.argv[2]))
    sys.exit(2)
for r in rows[1:]:
    if r and r[0]:
        sys.stdout.write(''.join(f.replace('\0', '') + '\0' for f in (r + [''] * 9)[:9]))
PY
  then rm -f "$rows"; exit 2; fi
  while IFS= read -r -d '' f; do fields+=("$f"); done < "$rows"
  rm -f "$rows"
  for ((i = 0; i + 8 < ${#fields[@]}; i += 9)); do
    s=${fields[i]}
    has_row[$s]=1 row_points[$s]=${fields[i+1]} row_possible[$s]=${fields[i+2]} row_exit[$s]=${fields[i+3]}
    row_failed[$s]=${fields[i+4]} row_nj[$s]=${fields[i+5]} row_refused[$s]=${fields[i+6]}
    row_seconds[$s]=${fields[i+7]} row_seed[$s]=${fields[i+8]}
  done
}

tmp_csv=''
write_table() { # every row, in student order, to a temp file moved over the table
  tmp_csv=$(mktemp "$out/.class-$chapter.csv.XXXXXX")
  {
    echo "$header"
    local s
    while IFS= read -r -d '' s; do
      csv_line=''
      csv_append "$s"; csv_append "${row_points[$s]}"; csv_append "${row_possible[$s]}"; csv_append "${row_exit[$s]}"
      csv_append "${row_failed[$s]}"; csv_append "${row_nj[$s]}"; csv_append "${row_refused[$s]}"
      csv_append "${row_seconds[$s]}"; csv_append "${row_seed[$s]}"
      printf '%s\n' "$csv_line"
    done < <(if [ ${#has_row[@]} -gt 0 ]; then printf '%s\0' "${!has_row[@]}" | LC_ALL=C sort -z; fi)
  } > "$tmp_csv"
  mv -f "$tmp_csv" "$csv"
  tmp_csv=''
}

set_row() { # student points possible exit failed not_judged refused seconds seed
  has_row[$1]=1 row_points[$1]=$2 row_possible[$1]=$3 row_exit[$1]=$4 row_failed[$1]=$5 row_nj[$1]=$6
  row_refused[$1]=$7 row_seconds[$1]=$8 row_seed[$1]=$9
}

# --- a stop (Ctrl-C, kill): the student in progress is graded again on the next run ---
child='' current=''
cleanup_current() { # the student in progress leaves no half row and no partial scorecard
  [ -n "$current" ] || return 0
  rm -f "$out/$current/grade-$chapter.md" "$out/$current/grade-$chapter.json" "$out/$current/grade-$chapter.xml"
  echo "interrupted at $(date '+%F %T'): no row; graded again on the next run" >> "$out/$current/grading.log" 2> /dev/null || true
}
on_signal() { # $1 the signal, $2 the exit status
  trap '' INT TERM HUP
  if [ -n "$child" ]; then
    kill -TERM -- "-$child" 2> /dev/null || kill -TERM "$child" 2> /dev/null || true
    local waited=0
    while kill -0 "$child" 2> /dev/null && [ $waited -lt 100 ]; do sleep 0.1; waited=$((waited + 1)); done
    kill -KILL -- "-$child" 2> /dev/null || true
    wait "$child" 2> /dev/null || true
  fi
  cleanup_current
  [ -z "$tmp_csv" ] || rm -f "$tmp_csv"
  echo >&2
  echo "grade-class: stopped by $1${current:+ while grading $current (no row: graded again on the next run)}; the table: $csv" >&2
  exit "$2"
}
trap 'on_signal SIGINT 130' INT
trap 'on_signal SIGTERM 143' TERM
trap 'on_signal SIGHUP 129' HUP

# --- the students ---
read_table
students=() bad=() skipped_dirs=()
while IFS= read -r -d '' d; do
  name=${d%/}; name=${name##*/}
  if [ "$(cd "$d" 2> /dev/null && pwd -P)" = "$out" ]; then skipped_dirs+=("$name (the output folder)"); continue; fi
  if [[ "$name" == .* ]]; then skipped_dirs+=("$name"); continue; fi
  if [[ "$name" =~ ^[A-Za-z0-9._-]+$ ]]; then students+=("$name"); else bad+=("$name"); fi
done < <(shopt -s nullglob dotglob; for d in "$class"/*/; do printf '%s\0' "$d"; done | LC_ALL=C sort -z)
[ ${#students[@]} -gt 0 ] || [ ${#bad[@]} -gt 0 ] || die "no student folders in $class"

echo "grading the students of $class with chapter $chapter's claims${seed:+, seed $seed}, one at a time"
echo "the table: $csv; each student's scorecard and grading.log: $out/<student>/"
[ ${#skipped_dirs[@]} -eq 0 ] || echo "not students: ${skipped_dirs[*]}"
if [ ${#bad[@]} -gt 0 ]; then
  printf 'refused, names not [A-Za-z0-9._-]+ (rename the folders):'; printf ' %q' "${bad[@]}"; echo
  for b in "${bad[@]}"; do
    set_row "$b" 0 '' '' '' '' "not graded: the folder's name is not [A-Za-z0-9._-]+ (rename it)" '' "$seed"
  done
  write_table
fi
declare -A present=()
for s in "${students[@]}" "${bad[@]}"; do present[$s]=1; done
gone=()
for s in "${!has_row[@]}"; do [ -n "${present[$s]:-}" ] || gone+=("$s"); done
[ ${#gone[@]} -eq 0 ] || { printf 'kept the rows of students no longer in %s:' "$class"; printf ' %q' "${gone[@]}"; echo; }


# --- grading one student ---
scorecard_fields() { # $1 the scorecard JSON: points, possible, failed ids, not judged ids, refusals, seed; NUL-separated
  "$py" - "$1" <<'PY'
import json, sys
try:
    with open(sys.argv[1], encoding='utf-8') as fh:
        card = json.load(fh)
except (OSError, ValueError) as e:
    sys.stderr.write("unreadable scorecard %s: %s\n" % (sys.argv[1], e))
    sys.exit(1)
claims = card.get('claims') or []
ids = lambda outcome: ';'.join(str(c.get('id', '')) for c in claims if c.get('outcome') == outcome)
def num(v):
    return '' if v is None or isinstance(v, bool) else str(v)
fields = [num(card.get('pointsEarned')), num(card.get('pointsPossible')), ids('FAILED'), ids('NOT_JUDGED'),
          '; '.join(str(r) for r in card.get('refusals') or []), num(card.get('seed'))]
sys.stdout.write(''.join(f + '\0' for f in fields))
PY
}

grade() { # $1 the student
  local s=$1 dir="$out/$1" log="$out/$1/grading.log" started=$SECONDS rc=0
  mkdir -p "$dir"
  rm -f "$dir/grade-$chapter.md" "$dir/grade-$chapter.json" "$dir/grade-$chapter.xml"
  local cmd=()
  if [ -x "$grader" ]; then cmd=("$grader"); else cmd=(bash "$grader"); fi
  cmd+=("$class/$s" "$chapter" --out "$dir")
  # the seed in the environment, not on grade-student.sh's command line (every user can read command lines)
  current=$s
  if [ -n "${has_row[$s]:-}" ]; then # its scorecard is gone: its old row goes too, until the new one
    unset "has_row[$s]"; write_table
  fi
  # its own process group, so that a stop reaches the grader's Maven and JVMs too
  set -m; "${cmd[@]}" < /dev/null > "$log" 2>&1 & child=$!; set +m
  wait "$child" || rc=$?
  child=''
  local seconds=$((SECONDS - started))
  if [ "$rc" -gt 128 ]; then # killed from outside: like an interruption, no row
    cleanup_current; current=''
    echo "  $s: grade-student.sh was stopped by signal $((rc - 128)): no row, graded again on the next run (log: $log)"
    return 0
  fi
  if [ "$rc" -eq 2 ] && grep -q -e '^usage:' -e '^unknown option' "$log"; then
    cleanup_current; current=''
    echo "grade-class: $grader refused its arguments (see $log):" >&2; tail -5 "$log" >&2; exit 2
  fi
  local points='' possible='' failed='' nj='' refused='' card_seed='' line last f fields=()
  line=$(grep -a '^points ' "$log" | tail -1 || true)
  if [ -f "$dir/grade-$chapter.json" ]; then
    while IFS= read -r -d '' f; do fields+=("$f"); done < <(scorecard_fields "$dir/grade-$chapter.json" 2>> "$log" || true)
  fi
  if [ ${#fields[@]} -eq 6 ]; then
    points=${fields[0]} possible=${fields[1]} failed=${fields[2]} nj=${fields[3]} refused=${fields[4]} card_seed=${fields[5]}
  elif [[ "$line" =~ ^points\ ([0-9]+)(/([0-9]+))? ]]; then
    points=${BASH_REMATCH[1]} possible=${BASH_REMATCH[3]}
  fi
  if [ -z "$refused" ] && [ "$rc" -ne 0 ] && [ ${#fields[@]} -ne 6 ]; then
    if [ -n "$line" ] && ! [[ "$line" =~ [0-9]+\ passed,\ [0-9]+\ failed ]] && [[ "$line" =~ ^points\ [0-9/]+(\ \([^\)]*\))?:\ (.*)$ ]]; then
      refused=${BASH_REMATCH[2]}
    elif [ -z "$line" ]; then
      last=$(grep -av '^[[:space:]]*$' "$log" | tail -1 || true)
      refused="no scorecard (grade-student.sh exit $rc): ${last:-no output}"
    fi
  fi
  [ -n "$points" ] || [ -z "$refused" ] || points=0
  set_row "$s" "$points" "$possible" "$rc" "$failed" "$nj" "$(one_line "$refused")" "$seconds" "${card_seed:-$seed}"
  write_table
  current=''
  echo "  $s: ${line:-${refused:-no points line}} (exit $rc, $seconds s)"
}

# --- the class ---
class_started=$SECONDS graded=0 skipped=0 i=0
for s in "${students[@]}"; do
  i=$((i + 1))
  why=''
  if [ -n "${has_row[$s]:-}" ] && [ ! -f "$out/$s/grade-$chapter.md" ] && [ ! -f "$out/$s/grade-$chapter.json" ]; then
    why='a row but no scorecard'
  elif [ -n "${has_row[$s]:-}" ]; then
    if [ "$again" -eq 1 ]; then why='--again'
    elif [ "$regrade" -eq 1 ] && [ "${row_exit[$s]}" = 3 ]; then why='--regrade'
    elif [ -n "$seed" ] && [ "${row_seed[$s]}" != "$seed" ]; then why="graded with seed ${row_seed[$s]:-(none)}"
    else
      skipped=$((skipped + 1)); echo "[$i/${#students[@]}] $s: already graded (points ${row_points[$s]}${row_possible[$s]:+/${row_possible[$s]}}, exit ${row_exit[$s]})"
      continue
    fi
  fi
  echo "[$i/${#students[@]}] $s: grading${why:+ again ($why)} … (log: $out/$s/grading.log)"
  grade "$s"
  graded=$((graded + 1))
done

# --- the summary ---
full=0 failed=0 regrade_n=0 refused_n=0 missing=()
for s in "${students[@]}" "${bad[@]}"; do
  if [ -z "${has_row[$s]:-}" ]; then missing+=("$s")
  elif [ -n "${row_refused[$s]}" ]; then refused_n=$((refused_n + 1))
  elif [ "${row_exit[$s]}" = 0 ]; then full=$((full + 1))
  elif [ "${row_exit[$s]}" = 3 ]; then regrade_n=$((regrade_n + 1))
  else failed=$((failed + 1)); fi
done
total=$((SECONDS - class_started))
mean='-'
[ "$graded" -eq 0 ] || mean=$(awk -v t="$total" -v n="$graded" 'BEGIN { printf "%.1f", t / n }')
echo
echo "class $chapter: $(( ${#students[@]} + ${#bad[@]} )) students: $full full marks, $failed failed, $regrade_n regrade, $refused_n refused${missing[0]+, ${#missing[@]} without a row}"
echo "this run: graded $graded, skipped $skipped already graded; $total s in all, $mean s per student graded"
echo "the table: $csv"
if [ ${#missing[@]} -gt 0 ]; then
  printf 'without a row (run again to grade them):'; printf ' %q' "${missing[@]}"; echo
  exit 1
fi
if [ "$regrade_n" -gt 0 ]; then
  echo "$regrade_n student(s) need a regrade (a claim was not judged: the machine was disturbed): run again with --regrade"
  exit 3
fi
exit 0
