#!/bin/sh
# mmdiff-test.sh: the comparison of tools/tests/mmdiff-qemu.sh on saved
# serial logs, without QEMU. tools/tests/mmdiff/ holds the logs of a real
# run (Linux 7.3 and Folium, /bin/mmdiff then /bin/mmdiff.glibc, with the
# firmware's escape sequences and Linux's kernel lines as they came) and
# known.md, the README table they were compared with. Checked: those logs
# pass (every difference listed); a log against itself passes with a
# table of "sometimes" rows and fails with the "always" rows no longer
# seen; an unlisted difference fails naming both lines; a run that did not
# finish fails; a missing table fails; and README.md's table is well
# formed (markers, a glob and "always" or "sometimes" in every row).
# Usage: sh tools/tests/mmdiff-test.sh
# Prints one line per check, then "mmdiff-test: N passed, N failed"; exits
# 1 on any failure.
set -u

here=$(cd "$(dirname "$0")" && pwd)
DIR=$here/mmdiff
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM
# shellcheck source=tools/tests/checks.sh
. "$here/checks.sh"

# compare LINUX FOLIUM [TABLE]: the comparison; sets status, output in out.
compare() {
	MMDIFF_KNOWN=${3:-$DIR/known.md} sh "$here/mmdiff-qemu.sh" --compare "$1" "$2" \
		"$TMP/work" >"$TMP/out" 2>&1
	status=$?
}

# expect NAME STATUS TEXT: the last comparison exited STATUS and printed TEXT.
expect() {
	if [ "$status" = "$2" ] && grep -qF -- "$3" "$TMP/out"; then ok "$1"; else bad "$1"; fi
}

compare "$DIR/linux.serial" "$DIR/folium.serial"
expect "the saved run passes: every difference is listed" 0 "mmdiff: ok"
expect "both C libraries are compared" 0 "mmdiff (glibc): 446 step lines"

sed 's/| always |/| sometimes |/' "$DIR/known.md" >"$TMP/sometimes.md"
compare "$DIR/linux.serial" "$DIR/linux.serial" "$TMP/sometimes.md"
expect "identical outputs pass" 0 "0 differing, 0 unlisted"

compare "$DIR/linux.serial" "$DIR/linux.serial"
# shellcheck disable=SC2016 # the backticks are the table's, printed as they are
expect "an always row that matched nothing fails" 1 \
	'known difference no longer seen (remove it from the table): `mmdiff: pagemap soft-dirty on a written page: *`'

sed 's/^step fault-64K: folios 64K\[AMLSTU\]\*32/step fault-64K: folios 64K[AMLSTU]*31 4K[AMLSU]*16/' \
	"$DIR/folium.serial" >"$TMP/folium-unlisted.serial"
compare "$DIR/linux.serial" "$TMP/folium-unlisted.serial"
expect "an unlisted difference fails" 1 "differences not in the table:"
expect "... naming Linux's line" 1 "  linux:  step fault-64K: folios 64K[AMLSTU]*32"
expect "... and Folium's" 1 "  folium: step fault-64K: folios 64K[AMLSTU]*31 4K[AMLSU]*16"

sed '/mmdiff.glibc/,$d; /step pressure-64K: madvise/,$d' "$DIR/folium.serial" >"$TMP/folium-cut.serial"
compare "$DIR/linux.serial" "$TMP/folium-cut.serial"
expect "a run that did not finish fails" 1 "mmdiff (musl) did not finish on folium"

printf 'no table here\n' >"$TMP/empty.md"
compare "$DIR/linux.serial" "$DIR/folium.serial" "$TMP/empty.md"
expect "a missing table fails" 1 "no known-differences table"

# README's table: both markers once, and each row a glob and an occurrence.
readme=$here/../../README.md
rows=$(awk '/<!-- mmdiff-known-differences: begin -->/,/<!-- mmdiff-known-differences: end -->/' \
	"$readme" | grep '^| `')
markers=$(grep -c '^<!-- mmdiff-known-differences: \(begin\|end\) -->$' "$readme")
malformed=$(printf '%s\n' "$rows" | awk -F '|' '$3 !~ /^ (always|sometimes) $/ || $4 ~ /^ *$/' | wc -l)
printf '%s\n' "$rows" >"$TMP/out"
if [ "$markers" = 2 ] && [ -n "$rows" ] && [ "$malformed" = 0 ]; then
	ok "README.md's known-differences table is well formed"
else
	bad "README.md's known-differences table is well formed"
fi

summary mmdiff-test
