#!/bin/sh
# sbs-test.sh: the side-by-side's checks and report on saved logs, without
# QEMU. tools/tests/sbs/ holds the logs of a real 3-round quick run
# (tools/bench-sbs.sh --quick --rounds 3: Folium, Linux 6.1 in QEMU, and
# the build machine natively). Checked: the logs convert (--from-logs), the
# section's cells are the median and min–max of the three boots (computed
# here from the logs), rows on one kernel only are said so, every record's
# accelerator is named, and a broken run stops with the kernel, the boot
# and the log named: a Linux log with no record, one cut off mid-record,
# a program that failed on either kernel, a missing log, a CSV without the
# workload's column, and bench-report with and without sbs/.
# Usage: sh tools/tests/sbs-test.sh BUILD_DIR
# Prints one line per check, then "sbs-test: N passed, N failed"; exits 1
# on any failure.
set -u

here=$(cd "$(dirname "$0")/.." && pwd)
B=$(cd "${1:?usage: sh tools/tests/sbs-test.sh BUILD_DIR}" && pwd)
export B
fixtures=$here/tests/sbs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0

verdict() {
	if [ "$1" = ok ]; then
		pass=$((pass + 1))
		echo "ok   $2"
	else
		fail=$((fail + 1))
		echo "FAIL $2"
		[ -z "${3:-}" ] || printf '%s\n' "$3" | sed 's/^/    | /'
	fi
}

# sbs DIR OUT: convert saved logs; output in $out, exit status in $status.
sbs() {
	out=$(cd "$here/.." && sh tools/bench-sbs.sh --from-logs "$1" "$2" 2>&1)
	status=$?
}

# report DIR: the section on stdout into DIR/section.md; errors in $out.
report() {
	out=$(sh "$here/sbs-report.sh" "$1" "$1/sbs.png" 2>&1 >"$1/section.md")
	status=$?
}

# broken NAME: a fresh copy of the fixture logs to break.
broken() {
	rm -rf "${tmp:?}/$1"
	cp -R "$fixtures" "$tmp/$1"
	echo "$tmp/$1"
}

expect_status() {
	if [ "$status" = "$2" ]; then verdict ok "$1: exit $status"
	else verdict FAIL "$1: exit $status (want $2)" "$out"; fi
}

# said NAME TEXT: the last command's output holds TEXT.
said() {
	case $out in
	*"$2"*) verdict ok "$1" ;;
	*) verdict FAIL "$1: no '$2' in the output" "$out" ;;
	esac
}

# has NAME FILE TEXT: FILE holds the fixed string TEXT.
has() {
	if grep -qF -- "$3" "$2"; then verdict ok "$1"
	else verdict FAIL "$1: no '$3' in ${2##*/}"; fi
}

# cell SOURCE RECORD COLUMN KEY...: "median (min–max)" of COLUMN over the
# rounds' records in the saved logs, for the row whose leading cells are KEY.
cell() {
	src=$1 rec=$2 col=$3
	shift 3
	key="$*"
	for log in "$fixtures/$src"-*.log; do
		tr -d '\r' <"$log" | awk -v rec="$rec" -v col="$col" -v key="$key" '
			$1 == "@bench" { on = $2 == rec }
			on && $1 == "@cols" { for (i = 2; i <= NF; i++) { c = $i; sub(/\[.*/, "", c); if (c == col) n = i } }
			on && $1 == "@row" { k = $2; nk = split(key, w, " "); for (i = 2; i <= nk; i++) k = k " " $(i + 1)
				if (k == key) print $n }'
	done | sort -g | awk '{ v[NR] = $1 } END { printf "%.3f (%.3f–%.3f)", v[int((NR + 1) / 2)], v[1], v[NR] }'
}

rounds=$(sed -n 's/^rounds=//p' "$fixtures/sbs.env")
[ "$rounds" = 3 ] || verdict FAIL "the fixture has 3 rounds (sbs.env says '$rounds')"

# --- the saved run -----------------------------------------------------------
sbs "$fixtures" "$tmp/good"
expect_status "saved logs convert" 0
for s in folium linux native; do
	for r in madvise_free_sbs faults_sbs; do
		[ -f "$tmp/good/$s-$r.csv" ] && verdict ok "$s-$r.csv written" ||
			verdict FAIL "$s-$r.csv written"
	done
done
[ -f "$tmp/good/folium-lazyfree_sbs.csv" ] && [ -f "$tmp/good/linux-lazyfree_sbs.csv" ] &&
	verdict ok "lazyfree_sbs on both kernels" || verdict FAIL "lazyfree_sbs on both kernels"
[ ! -f "$tmp/good/native-lazyfree_sbs.csv" ] && grep -q 'native: /bin/lazyfree: skipped (exit 77)' \
	"$tmp/good/native-1.log" && verdict ok "lazyfree skipped natively (a 24 GiB machine), and said so" ||
	verdict FAIL "lazyfree skipped natively, and said so"
report "$tmp/good"
expect_status "section from the saved run" 0
r=$tmp/good/section.md
has "heading" "$r" "## Same program, same QEMU: Folium and Linux"
has "accelerator from the records" "$r" "- Accelerator (from every record's CPUID): tcg"
has "emulator caveat" "$r" "**Emulated (TCG).**"
has "SHA-256 of the binary" "$r" "- SHA-256 of /bin/madvfree: \`$(sed -n 's/^sha256_madvfree=//p' "$fixtures/sbs.env")\`"
has "QEMU line of Linux" "$r" "- QEMU, Linux: \`qemu-system-x86_64 -accel tcg -machine q35 -cpu max -m 1G"
has "QEMU line of Folium" "$r" "- QEMU, Folium: \`qemu-system-x86_64 -accel tcg -machine q35 -cpu max -m 1G"
has "boots counted" "$r" "1 run(s) per boot, 3 boot(s) per kernel"
f=$(cell folium madvise_free_sbs madv_free 2048 pte)
l=$(cell linux madvise_free_sbs madv_free 2048 pte)
has "2048K pte: median and spread of both kernels' boots" "$r" "| 2048 | pte | $f | $l |"
ratio=$(echo "${f%% *} ${l%% *}" | awk '{ printf "%.3g", $1 / $2 }')
has "2048K pte: Folium / Linux" "$r" "| 2048 | pte | $f | $l | $ratio |"
has "2048K pte: Linux 6.1 splits the 4 folios, Folium none" "$r" "| 0 / 4 |"
f=$(cell folium faults_sbs write 4)
l=$(cell linux faults_sbs write 4)
has "faults 4K: both kernels" "$r" "| 4 | $f | $l |"
has "a Folium-only size says so" "$r" "| 64 | pte | $(cell folium madvise_free_sbs madv_free 64 pte) | — (only on Folium) | — |"
has "why a row is on one kernel only" "$r" 'offers THP controls "top-level"'
# The lazyfree table: its last column is lost, 0 on both kernels.
sed -n '/^### MADV_FREE, then memory pressure/,/^###/p' "$r" | grep '^| [0-9]' >"$tmp/lazy"
has "lazyfree: lost is the last column" "$r" "| splits F / L | lost F / L |"
[ "$(wc -l <"$tmp/lazy")" = 3 ] && ! grep -v '| 0 / 0 |$' "$tmp/lazy" | grep -v '| 0 / - |$' | grep -q . &&
	verdict ok "lazyfree: nothing lost on either kernel, 3 rows" ||
	verdict FAIL "lazyfree: nothing lost on either kernel, 3 rows" "$(cat "$tmp/lazy")"
has "lazyfree: the build machine's reason for no figures" "$r" \
	"No build-machine figures for this workload: lazyfree: MemFree is"
n=$(grep -c '^Folium is slower than Linux on:$\|^Folium is at least as fast as Linux on every row' "$r")
[ "$n" = 3 ] && verdict ok "each workload says where Folium is slower (or that it is nowhere)" ||
	verdict FAIL "each workload says where Folium is slower: $n of 3"
[ -s "$tmp/good/sbs.png" ] && verdict ok "plot written" || verdict FAIL "plot written"

# --- broken runs: each stops with the kernel, the boot and the log ------------
d=$(broken no-record)
# Linux's madvfree died before its record: the init line says so.
sed -i '/^@bench madvise_free_sbs/,/^@end madvise_free_sbs/d; s#^init: /bin/madvfree: exit status 0#init: /bin/madvfree: killed by signal 11#' \
	"$d/linux-2.log"
sbs "$d" "$tmp/out"
expect_status "Linux log without a record" 1
said "... names the kernel, boot and record" "Linux boot 2 of 3 printed 0 madvise_free_sbs record(s), want 1"
said "... names the log" "(log: $tmp/out/linux-2.log)"
[ ! -e "$tmp/out/linux-madvise_free_sbs.csv" ] && verdict ok "... and writes no CSV" ||
	verdict FAIL "... and writes no CSV"

d=$(broken truncated)
# The serial log stops in the middle of a record (QEMU killed, or a hang).
n=$(grep -n '^@row' "$d/linux-1.log" | head -n 1 | cut -d: -f1)
head -n "$n" "$fixtures/linux-1.log" >"$d/linux-1.log"
sbs "$d" "$tmp/out"
expect_status "Linux log cut off mid-record" 1
said "... names the boot" "Linux boot 1 of 3:"
said "... names the log" "(log: $tmp/out/linux-1.log)"

d=$(broken linux-exit)
sed -i 's#^init: /bin/faultrate: exit status 0#init: /bin/faultrate: exit status 1#' "$d/linux-3.log"
sbs "$d" "$tmp/out"
expect_status "a program failing on Linux" 1
said "... names it" "Linux boot 3 of 3: /bin/faultrate did not exit with status 0"

d=$(broken folium-exit)
printf 'exit status 1\n' >>"$d/folium-1.log"
sbs "$d" "$tmp/out"
expect_status "a program failing on Folium" 1
said "... names the boot and the line" "Folium boot 1 of 3: a program failed:"

d=$(broken missing)
rm "$d/folium-3.log"
sbs "$d" "$tmp/out"
expect_status "a missing log" 1
said "... named" "folium-3.log missing (sbs.env says 3 round(s))"

sbs "$tmp/nowhere" "$tmp/out"
expect_status "no run directory" 1
said "... said" "sbs.env missing"

d=$(broken column)
sbs "$fixtures" "$d/out" >/dev/null
sed -i 's/^folio\[KiB\],write\[ms\]/folio[KiB],time[ms]/' "$d/out/linux-faults_sbs.csv"
report "$d/out"
expect_status "a CSV without the workload's column" 1
said "... names the file and the column" "linux-faults_sbs.csv: no column 'write'"

# --- in bench-report: its own section when sbs/ is there ---------------------
cp -R "$here/tests/bench-report/full" "$tmp/full"
cp -R "$tmp/good" "$tmp/full/sbs"
rm -f "$tmp/full/sbs/section.md" "$tmp/full/sbs/sbs.png"
out=$(sh "$here/bench-report.sh" "$tmp/full" 2>&1)
status=$?
expect_status "bench-report with sbs/" 0
has "... the section in REPORT.md" "$tmp/full/REPORT.md" "## Same program, same QEMU: Folium and Linux"
has "... its plot" "$tmp/full/REPORT.md" "![Folium and Linux in the same QEMU](sbs.png)"
[ -s "$tmp/full/sbs.png" ] && verdict ok "... sbs.png written" || verdict FAIL "... sbs.png written"

echo "sbs-test: $pass passed, $fail failed"
[ "$fail" = 0 ]
