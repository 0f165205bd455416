#!/usr/bin/env bash
# Copies the step timings of a CI run into docs/timings.md: replaces whatever lies between its two markers,
#   <!-- ci-timings: begin … -->  and  <!-- ci-timings: end -->,
# with the table .ci/run wrote (target/ci-timings.md: | step | seconds |), keeping the markers.
#
#   bash .ci/timings.sh target/ci-timings.md                   into docs/timings.md
#   bash .ci/timings.sh target/ci-timings.md other/page.md     into another page with the same markers
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { echo "usage: bash .ci/timings.sh <ci-timings.md written by .ci/run> [page.md, default docs/timings.md]" >&2; return 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || { usage; exit 2; }
case "$1" in -h|--help) usage 2>&1 || exit 0 ;; esac
table=$1
page=${2:-docs/timings.md}
[ -f "$table" ] || { echo "no timings table at '$table' (bash .ci/run writes target/ci-timings.md)" >&2; exit 2; }
head -1 "$table" | grep -q '^| step | seconds |$' || { echo "'$table' does not start with '| step | seconds |'" >&2; exit 2; }
[ "$(grep -c '^<!-- ci-timings: begin' "$page")" = 1 ] && [ "$(grep -c '^<!-- ci-timings: end -->$' "$page")" = 1 ] \
  || { echo "'$page' needs exactly one '<!-- ci-timings: begin' line and one '<!-- ci-timings: end -->' line" >&2; exit 2; }
note="_The last CI run's table: \`.ci/run\` wrote it to \`target/ci-timings.md\` on $(date -u -r "$table" +%Y-%m-%d), and \`.ci/timings.sh\` copied it here._"
tmp=$(mktemp)
awk -v table="$table" -v note="$note" '
  /^<!-- ci-timings: begin/ { print; print note; print ""; while ((getline line < table) > 0) print line; skip = 1; next }
  /^<!-- ci-timings: end -->$/ { skip = 0 }
  !skip { print }
' "$page" > "$tmp"
mv "$tmp" "$page"
echo "copied $(( $(wc -l < "$table") - 2 )) rows of $table into $page"
