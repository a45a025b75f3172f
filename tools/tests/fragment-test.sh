#!/bin/sh
# Tests for user/fragment.c without a kernel to fill: builds
# tools/tests/fragment-test.c (which includes the program) with ASan and
# UBSan where the compiler has them, runs its checks (the /proc readers on
# Linux's text, the plan, the formats, the controls' saved values and
# their restore on SIGTERM), then checks the record it prints (an n/a row
# beside an ok one) with tools/benchrec: whole, 2 rows of 19 columns, -1
# in the n/a row's counts.
# Usage: sh tools/tests/fragment-test.sh B   (B: the build dir, with tools/benchrec)
set -u
B=${1:-build}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
. "$(dirname "$0")/checks.sh"

san="-fsanitize=address,undefined -fno-sanitize-recover=all"
echo 'int main(void){return 0;}' >"$TMP/t.c"
cc $san -o "$TMP/t" "$TMP/t.c" 2>/dev/null && "$TMP/t" 2>/dev/null || san=
if cc -std=gnu11 -O1 -g -Wall -Wextra -Werror $san -o "$TMP/fragment-test" \
	tools/tests/fragment-test.c >"$TMP/out" 2>&1; then
	ok "fragment-test.c builds${san:+ with ASan and UBSan}"
else
	bad "fragment-test.c builds"
	summary fragment-test
	exit 1
fi
"$TMP/fragment-test" "$TMP" "$TMP/record.log" >"$TMP/out" 2>&1
rc=$?
grep -q '^fragment-test: [0-9]* passed, 0 failed$' "$TMP/out" && [ "$rc" = 0 ] &&
	ok "the program's parts: $(grep -c '^ok' "$TMP/out") checks" ||
	bad "the program's parts"

cp "$TMP/record.log" "$TMP/out"
"$B/tools/benchrec" check "$TMP/record.log" >"$TMP/err" 2>&1 &&
	grep -q 'fragment_sbs: 2 rows x 19 cols' "$TMP/err" &&
	ok "the record is whole: 2 rows x 19 columns" || bad "the record is whole"
mkdir "$TMP/csv"
"$B/tools/benchrec" csv "$TMP/csv" "$TMP/record.log" >"$TMP/err" 2>&1
csv=$TMP/csv/fragment_sbs.csv
cp "$csv" "$TMP/out" 2>/dev/null
grep -q '^mode\[-\],status\[-\],regions\[count\],thp\[count\],success\[%\],success_min\[%\],' "$csv" 2>/dev/null &&
	ok "CSV header" || bad "CSV header"
grep -q '^nocompact,ok,200,11,5\.5,5\.0,6\.0,8192,0,2\.000,1\.000,3\.000,.*,16$' "$csv" 2>/dev/null &&
	ok "the ok row: medians of the runs that know, min and max, the worst lost bytes" ||
	bad "the ok row"
grep -q '^compact,n/a,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1$' "$csv" 2>/dev/null &&
	ok "the n/a row: -1 in every column" || bad "the n/a row"
grep -q 'pageblock_order=7 defrag=madvise compaction_proactiveness=none' "$csv" 2>/dev/null &&
	ok "@env: the kernel's setting" || bad "@env"
summary fragment-test
