#!/bin/sh
# Tests of tools/check-format.sh: the tree is formatted; a copy of one
# of its files with a line broken out of style is reported by name, and
# --fix makes it pass again.
set -u
. "$(dirname "$0")/checks.sh"
HERE=$(cd "$(dirname "$0")/../.." && pwd)
CHECK=$HERE/tools/check-format.sh
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

sh "$CHECK" "$HERE" > "$TMP/out" 2>&1 && ok "the tree is formatted" || bad "the tree is not formatted"

mkdir -p "$TMP/t/mm"
cp "$HERE/.clang-format" "$TMP/t/"
cp "$HERE/mm/tlb.c" "$TMP/t/mm/tlb.c"
sh "$CHECK" "$TMP/t" > "$TMP/out" 2>&1 && ok "a formatted copy passes" || bad "a formatted copy fails"
# One statement spread over two lines that fit on one.
printf 'static int f(int a,\n\tint b)\n{\n  return a+b;\n}\n' >> "$TMP/t/mm/tlb.c"
if sh "$CHECK" "$TMP/t" > "$TMP/out" 2>&1; then
	bad "a badly formatted file passed"
elif grep -q '^mm/tlb.c: not formatted' "$TMP/out"; then
	ok "a badly formatted file is named"
else
	bad "the report does not name mm/tlb.c"
fi
sh "$CHECK" --fix "$TMP/t" > "$TMP/out" 2>&1
sh "$CHECK" "$TMP/t" > "$TMP/out" 2>&1 && ok "--fix formats it" || bad "--fix left it unformatted"

summary check-format
