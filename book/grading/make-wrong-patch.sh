#!/usr/bin/env bash
# Writes a wrong solution as a patch against a checkpoint's code, for book/grading/wrong/ (see its README.md).
#
#   bash book/grading/make-wrong-patch.sh <checkpoint-module> <edited-copy-of-its-src/main> <header-file> > book/grading/wrong/<name>.patch
#
# The header file holds the patch's header lines (Wrong solution:, Base:, Grade:, Loses:, Guide:); the diff follows,
# with paths relative to the module (a/src/main/java/...), as `git apply -p1` in a copy of the module takes it.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: bash book/grading/make-wrong-patch.sh <module> <edited src/main> <header file>" >&2; exit 2; }
lab=$(cd "$(dirname "$0")/../.." && pwd)
module=$1; edited=$(cd "$2" && pwd); header=$3
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
mkdir -p "$work/a/src" "$work/b/src"
cp -r "$lab/$module/src/main" "$work/a/src/main"
cp -r "$edited" "$work/b/src/main"
cat "$header"
echo
(cd "$work" && diff -ruN a b | sed -E 's/^(---|\+\+\+) ([^\t]+)\t.*/\1 \2/') || [ $? -eq 1 ]
