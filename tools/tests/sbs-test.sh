#!/bin/sh
# sbs-test.sh: the side-by-side's checks and report on saved logs, without
# QEMU. tools/tests/sbs/ holds the logs of a real 3-round quick run
# (tools/bench-sbs.sh --quick --rounds 3: Folium, Linux 7.3 (linux-new)
# and Linux 6.1 (linux-old) in QEMU, Folium kernels built with pageblock
# orders 1 and 7 running the fragmentation experiment, and the build
# machine natively); tools/tests/sbs-procs/ those of a 3-round quick run
# of /bin/procbench alone (SBS_PROGRAMS="/bin/procbench --quick --runs 1",
# Folium's bench kernel), checked the same way for the Processes and
# threads table (its fork, exec, pipe, futex ping-pong and thread rows).
# Checked: the logs convert (--from-logs); the section's cells are the
# median and min–max of the three boots, and both ratios (Folium / Linux
# 7.3, Linux 6.1 / Linux 7.3) their medians' quotients, all computed here
# from the logs; upstream's figures stand on their rows; the kernels, their
# versions, the upstream changes and every record's accelerator are named;
# a size a kernel cannot make is "—" with its reason; every row where
# Folium is slower than Linux 7.3 is listed, and only those. A broken run
# stops with the kernel, the boot and the log named: a Linux log (either
# kernel) with no record, one cut off mid-record, a program that failed on
# any kernel, a missing log, a CSV without the workload's column, an
# upstream CSV without the key; and bench-report with sbs/.
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

# report DIR [SCRIPT]: the section on stdout into DIR/section.md; errors
# in $out.
report() {
	out=$(sh "${2:-$here/sbs-report.sh}" "$1" "$1/sbs.png" 2>&1 >"$1/section.md")
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

# medians SOURCE RECORD COLUMN KEYS: per row of the saved logs, its key
# cells (KEYS of them) and "median min max" of COLUMN over the rounds.
medians() {
	for log in "${logs:-$fixtures}/$1"-*.log; do
		tr -d '\r' <"$log" | awk -v rec="$2" -v col="$3" -v nk="$4" '
			$1 == "@bench" { on = $2 == rec }
			on && $1 == "@cols" { for (i = 2; i <= NF; i++) { c = $i; sub(/\[.*/, "", c); if (c == col) n = i } }
			on && $1 == "@row" { k = $2; for (i = 3; i <= nk + 1; i++) k = k " " $i; print k "|" $n }'
	done | sort -t '|' -k 1,1 -k 2g | awk -F '|' '
		$1 != key { if (key != "") out(); key = $1; nv = 0 }
		{ v[++nv] = $2 }
		function out() { printf "%s|%s %s %s\n", key, v[int((nv + 1) / 2)], v[1], v[nv] }
		END { if (key != "") out() }'
}
# cell SOURCE RECORD COLUMN KEY...: "median (min–max)" of COLUMN over the
# rounds' records in the saved logs, for the row whose leading cells are KEY.
cell() {
	src=$1 rec=$2 col=$3
	shift 3
	medians "$src" "$rec" "$col" $# | awk -F '|' -v key="$*" '$1 == key {
		split($2, m, " "); printf "%.3f (%.3f–%.3f)", m[1], m[2], m[3] }'
}
# quotient CELL CELL: the first cell's median over the second's, as the
# report prints a ratio.
quotient() {
	echo "${1%% *} ${2%% *}" | awk '{ printf "%.3g", $1 / $2 }'
}
# kernel SOURCE: the kernel= of SOURCE's first saved record; name SOURCE:
# "Linux X.Y", as the report calls it.
kernel() {
	sed -n 's/^@env .* kernel="\([^"]*\)".*/\1/p' "${logs:-$fixtures}/$1-1.log" | head -n 1
}
name() {
	echo "Linux $(kernel "$1" | cut -d . -f 1,2)"
}

rounds=$(sed -n 's/^rounds=//p' "$fixtures/sbs.env")
[ "$rounds" = 3 ] || verdict FAIL "the fixture has 3 rounds (sbs.env says '$rounds')"
new=$(name linux-new) old=$(name linux-old)

# --- the saved run -----------------------------------------------------------
sbs "$fixtures" "$tmp/good"
expect_status "saved logs convert" 0
for s in folium linux-new linux-old native; do
	for r in madvise_free_sbs faults_sbs; do
		[ -f "$tmp/good/$s-$r.csv" ] && verdict ok "$s-$r.csv written" ||
			verdict FAIL "$s-$r.csv written"
	done
done
[ -f "$tmp/good/folium-lazyfree_sbs.csv" ] && [ -f "$tmp/good/linux-new-lazyfree_sbs.csv" ] &&
	[ -f "$tmp/good/linux-old-lazyfree_sbs.csv" ] &&
	verdict ok "lazyfree_sbs on the three kernels" || verdict FAIL "lazyfree_sbs on the three kernels"
[ ! -f "$tmp/good/native-lazyfree_sbs.csv" ] && grep -q 'native: /bin/lazyfree: skipped (exit 77)' \
	"$tmp/good/native-1.log" && verdict ok "lazyfree skipped natively (a 24 GiB machine), and said so" ||
	verdict FAIL "lazyfree skipped natively, and said so"
report "$tmp/good"
expect_status "section from the saved run" 0
r=$tmp/good/section.md
has "heading" "$r" "## Same program, same QEMU: Folium and Linux"
has "Folium named with its version and build" "$r" \
	"- **Folium** $(kernel folium) ($(grep -h -o 'CONFIG_DEBUG_VM=[yn]' "$fixtures"/folium-1.log))"
has "Linux 7.3 named with its version, the yardstick" "$r" "- **$new**: Debian's $(kernel linux-new), after"
has "Linux 6.1 named with its version, before" "$r" "- **$old**: Debian's $(kernel linux-old), before them."
has "after: Lance Yang's lazyfree batching" "$r" \
	"Lance Yang's lazyfree batching, \"mm/madvise: optimize lazyfreeing with mTHP in madvise_free\" (Linux 6.10)"
has "after: Ankur Arora's clear_pages series" "$r" "Ankur Arora's clear_pages series"
has "after: folio_zero_user's neighbourhood" "$r" "\"mm: folio_zero_user: cache neighbouring pages\""
has "after: Juan Yescas' pageblock order, for the fragmentation table" "$r" \
	"- fragmentation (fragment_sbs): Juan Yescas' \"mm: add CONFIG_PAGE_BLOCK_ORDER to select page block order\" (Linux 6.16)"
has "the fragmentation table, higher is better" "$r" \
	"in % (higher is better); 1 run(s) per boot, 3 boot(s) per kernel"
has "fragmentation rows: nothing lost on any kernel" "$r" "| 0 / 0 / 0 |"
has "Folium at each pageblock order" "$r" \
	"Folium at each pageblock order (\`CONFIG_PAGE_BLOCK_ORDER\`, THP on;"
has "the pageblock order 1 kernel's row" "$r" "| folium-pbo1 | 1 | "
has "the pageblock order 7 kernel's row" "$r" "| folium-pbo7 | 7 | "
has "a skipped native program's own reason" "$r" \
	"No build-machine figures for this workload: fragment: "
has "accelerator from the records" "$r" "- Accelerator (from every record's CPUID): tcg"
has "emulator caveat" "$r" "**Emulated (TCG).**"
has "SHA-256 of the binary" "$r" "- SHA-256 of /bin/madvfree: \`$(sed -n 's/^sha256_madvfree=//p' "$fixtures/sbs.env")\`"
for s in folium linux-new linux-old; do
	n=$(case $s in folium) echo Folium ;; *) name "$s" ;; esac)
	has "QEMU line of $n" "$r" "- QEMU, $n: \`$(cat "$fixtures/qemu-$s.txt")\`"
done
has "boots counted" "$r" "1 run(s) per boot, 3 boot(s) per kernel"
has "columns: three kernels, two ratios, the build machine, evidence per kernel, upstream" "$r" \
	"| folio (KiB) | mapping | Folium (ms) | $new (ms) | $old (ms) | Folium / $new | $old / $new | build machine (ms) | splits F / ${new#Linux } / ${old#Linux } | anon_huge F / ${new#Linux } / ${old#Linux } | upstream split (s) | upstream batched (s) | upstream split / batched |"

# MADV_FREE, 2048K on PTEs: Linux 6.1 splits, Linux 7.3 and Folium do not.
f=$(cell folium madvise_free_sbs madv_free 2048 pte)
n=$(cell linux-new madvise_free_sbs madv_free 2048 pte)
o=$(cell linux-old madvise_free_sbs madv_free 2048 pte)
has "2048K pte: median and spread of the three kernels' boots" "$r" "| 2048 | pte | $f | $n | $o |"
has "2048K pte: Folium / $new and $old / $new" "$r" \
	"| 2048 | pte | $f | $n | $o | $(quotient "$f" "$n") | $(quotient "$o" "$n") |"
has "2048K pte: $old splits the 4 folios, the others none; no upstream figure" "$r" \
	"| 0 / 0 / 4 | 0 / 0 / 0 | — | — | — |"
# Upstream's table stands on its rows: 16K on PTEs, 2048K on a PMD.
up() {	# up KIB: upstream's split and batched, and their quotient
	sed -n "s/^$1,\([^,]*\),\([^,]*\)$/\1 \2/p" "$here/bench/upstream-madvise_free.csv" |
		awk '{ printf "| %s | %s | %.3g |", $1, $2, $1 / $2 }'
}
f=$(cell folium madvise_free_sbs madv_free 16 pte)
n=$(cell linux-new madvise_free_sbs madv_free 16 pte)
has "16K pte: on Folium and $new" "$r" \
	"| 16 | pte | $f | $n | — | $(quotient "$f" "$n") | — |"
grep '^| 16 | pte |' "$r" | grep -qF -- "| 0 / 0 / - | 0 / 0 / - $(up 16)" &&
	verdict ok "... upstream's split and batched beside it, and their quotient" ||
	verdict FAIL "... upstream's split and batched beside it" "$(grep '^| 16 | pte |' "$r")"
grep '^| 2048 | pmd |' "$r" | grep -qF -- "$(up 2048)" &&
	verdict ok "2048K pmd: upstream's 2048K (a PMD-mapped THP) beside it" ||
	verdict FAIL "2048K pmd: upstream's 2048K beside it" "$(grep '^| 2048 | pmd |' "$r")"
has "upstream's source cited" "$r" "- source: https://lore.kernel.org/linux-mm/20240416033457.32154-4-ioworker0@gmail.com/"
# Sizes a kernel cannot make: "—", the reason said once.
has "8K: only on Folium, the others —" "$r" \
	"| 8 | pte | $(cell folium madvise_free_sbs madv_free 8 pte) | — | — | — | — | — |"
has "64K: not on $old" "$r" \
	"| 64 | pte | $(cell folium madvise_free_sbs madv_free 64 pte) | $(cell linux-new madvise_free_sbs madv_free 64 pte) | — |"
has "why not on $old: no mTHP sizes" "$r" \
	"- $old ($(kernel linux-old)): 8K, 16K, 32K, 64K, 128K, 256K, 512K, 1024K — its THP controls are \"top-level\""
has "why not on $new: no 8K anonymous folio" "$r" \
	"- $new ($(kernel linux-new)): 8K — no hugepages-8kB control"
n=$(grep -c '^"—": a folio size the kernel cannot make.$' "$r")
[ "$n" = 3 ] && verdict ok "the reason said once per table" || verdict FAIL "the reason said once per table: $n of 3"

# Faults: 4K and 2048K on the three kernels; no upstream table, cited.
for k in 4 2048; do
	f=$(cell folium faults_sbs write $k)
	n=$(cell linux-new faults_sbs write $k)
	o=$(cell linux-old faults_sbs write $k)
	has "faults ${k}K: the three kernels, both ratios" "$r" \
		"| $k | $f | $n | $o | $(quotient "$f" "$n") | $(quotient "$o" "$n") |"
done
has "faults: no upstream table, said, and cited" "$r" \
	"No upstream column: upstream published no table of this measurement. Its figures, from Ankur Arora, \"mm: folio_zero_user: cache neighbouring pages\""
# The lazyfree table: its last column is lost, 0 on every kernel.
sed -n '/^### MADV_FREE, then memory pressure/,/^###/p' "$r" | grep '^| [0-9]' >"$tmp/lazy"
has "lazyfree: lost is the last column" "$r" "| splits F / ${new#Linux } / ${old#Linux } | lost F / ${new#Linux } / ${old#Linux } |"
[ "$(wc -l <"$tmp/lazy")" = 3 ] && ! grep -v '| 0 / 0 / 0 |$' "$tmp/lazy" | grep -v '| 0 / 0 / - |$' | grep -q . &&
	verdict ok "lazyfree: nothing lost on any kernel, 3 rows" ||
	verdict FAIL "lazyfree: nothing lost on any kernel, 3 rows" "$(cat "$tmp/lazy")"
has "lazyfree: the build machine's reason for no figures" "$r" \
	"No build-machine figures for this workload: lazyfree: MemFree is"

# Rows above 1.0: every row where Folium's median is above Linux 7.3's, from
# the logs, named with its figures; and no other.
# above F N: those rows, with source F's logs as Folium's and N's as Linux 7.3's.
# The workloads: record|figure|number of key columns|title|unit.
above_specs='madvise_free_sbs|madv_free|2|MADV_FREE of a range faulted in with writes|ms
faults_sbs|write|1|Anonymous write faults, sequential (anon-w-seq)|ms
lazyfree_sbs|per_mib|2|MADV_FREE, then memory pressure|ms/MiB'
above() {
	echo "$above_specs" | while IFS= read -r w; do
		IFS='|' read -r rec col nk title unit <<EOF
$w
EOF
		medians "$1" "$rec" "$col" "$nk" >"$tmp/f"
		medians "$2" "$rec" "$col" "$nk" >"$tmp/n"
		awk -F '|' -v title="$title" -v new="$new" -v u="$unit" 'NR == FNR { n[$1] = $2; next }
			($1 in n) { split($2, a, " "); split(n[$1], b, " ")
				if (a[1] > b[1]) { l = $1; sub(/^[0-9]+/, "&K", l)
					printf "- %s, %s: Folium %.3f (%.3f–%.3f) %s, %s %.3f (%.3f–%.3f) %s: Folium / %s = %.3g\n",
						title, l, a[1], a[2], a[3], u, new, b[1], b[2], b[3], u, new, a[1] / b[1] } }' \
			"$tmp/n" "$tmp/f"
	done | sort
}
# listed_above SECTION: the rows its list names.
listed_above() {
	sed -n '/^\*\*Rows above 1.0\*\*/,$p' "$1" | grep '^- ' | sort
}
above folium linux-new >"$tmp/want"
listed_above "$r" >"$tmp/listed"
if cmp -s "$tmp/want" "$tmp/listed" &&
	{ [ -s "$tmp/want" ] || grep -q "^\*\*Rows above 1.0\*\*: none — Folium / $new is at most 1.0" "$r"; }; then
	verdict ok "rows above 1.0: the $(wc -l <"$tmp/want") rows where Folium is slower than $new, each with its figures (none: said so)"
else
	verdict FAIL "rows above 1.0: the rows where Folium is slower than $new" \
		"$(diff "$tmp/want" "$tmp/listed")"
fi
# The same with Folium's and Linux 7.3's rows swapped (each file keeps its
# env lines, so the kernels keep their names), so that rows are listed:
# the list holds exactly those, each with its figures.
# rows_of A B: B with its env lines replaced by A's, in order.
rows_of() {
	awk 'NR == FNR { if (/^# env: /) env[++n] = $0; next }
		/^# env: / { print env[++k]; next } { print }' "$1" "$2"
}
cp -R "$tmp/good" "$tmp/swapped"
for f in "$tmp/good"/folium-*_sbs.csv; do
	b=${f##*/}
	case $b in folium-pbo*) continue ;; esac
	rows_of "$f" "$tmp/good/linux-new-${b#folium-}" >"$tmp/swapped/$b"
	rows_of "$tmp/good/linux-new-${b#folium-}" "$f" >"$tmp/swapped/linux-new-${b#folium-}"
done
report "$tmp/swapped"
above linux-new folium >"$tmp/want"
listed_above "$tmp/swapped/section.md" >"$tmp/listed"
if [ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/listed"; then
	verdict ok "rows above 1.0, roles swapped: the $(wc -l <"$tmp/want") rows listed, each with its figures"
else
	verdict FAIL "rows above 1.0, roles swapped" "$(diff "$tmp/want" "$tmp/listed")"
fi
[ -s "$tmp/good/sbs.png" ] && verdict ok "plot written" || verdict FAIL "plot written"

# --- broken runs: each stops with the kernel, the boot and the log ------------
d=$(broken no-record-new)
# Linux 7.3's madvfree died before its record: the init line says so.
sed -i '/^@bench madvise_free_sbs/,/^@end madvise_free_sbs/d; s#^init: /bin/madvfree: exit status 0#init: /bin/madvfree: killed by signal 11#' \
	"$d/linux-new-2.log"
sbs "$d" "$tmp/out"
expect_status "Linux 7.3 log without a record" 1
said "... names the kernel, boot and record" "Linux 7.3 (linux-new) boot 2 of 3 printed 0 madvise_free_sbs record(s), want 1"
said "... names the log" "(log: $tmp/out/linux-new-2.log)"
[ ! -e "$tmp/out/linux-new-madvise_free_sbs.csv" ] && verdict ok "... and writes no CSV" ||
	verdict FAIL "... and writes no CSV"

d=$(broken no-record-old)
sed -i '/^@bench faults_sbs/,/^@end faults_sbs/d' "$d/linux-old-3.log"
sbs "$d" "$tmp/out"
expect_status "Linux 6.1 log without a record" 1
said "... names the kernel, boot and record" "Linux 6.1 (linux-old) boot 3 of 3 printed 0 faults_sbs record(s), want 1"
said "... names the log" "(log: $tmp/out/linux-old-3.log)"

# The serial log stops in the middle of a record (QEMU killed, or a hang).
for k in linux-old linux-new; do
	d=$(broken "truncated-$k")
	n=$(grep -n '^@row' "$d/$k-1.log" | head -n 1 | cut -d: -f1)
	head -n "$n" "$fixtures/$k-1.log" >"$d/$k-1.log"
	sbs "$d" "$tmp/out"
	expect_status "$k log cut off mid-record" 1
	said "... names the kernel and boot" "($k) boot 1 of 3:"
	said "... names the log" "(log: $tmp/out/$k-1.log)"
done

d=$(broken linux-new-exit)
sed -i 's#^init: /bin/faultrate: exit status 0#init: /bin/faultrate: exit status 1#' "$d/linux-new-3.log"
sbs "$d" "$tmp/out"
expect_status "a program failing on Linux 7.3" 1
said "... names it" "Linux 7.3 (linux-new) boot 3 of 3: /bin/faultrate did not exit with status 0"

d=$(broken linux-old-exit)
sed -i 's#^init: /bin/lazyfree: exit status 0#init: /bin/lazyfree: exit status 1#' "$d/linux-old-2.log"
sbs "$d" "$tmp/out"
expect_status "a program failing on Linux 6.1" 1
said "... names it" "Linux 6.1 (linux-old) boot 2 of 3: /bin/lazyfree did not exit with status 0"

d=$(broken folium-exit)
printf 'exit status 1\n' >>"$d/folium-1.log"
sbs "$d" "$tmp/out"
expect_status "a program failing on Folium" 1
said "... names the boot and the line" "Folium boot 1 of 3: a program failed:"

for l in folium-3 linux-old-2 linux-new-1; do
	d=$(broken "missing-$l")
	rm "$d/$l.log"
	sbs "$d" "$tmp/out"
	expect_status "a missing log ($l)" 1
	said "... named" "$l.log missing (sbs.env says 3 round(s))"
done

sbs "$tmp/nowhere" "$tmp/out"
expect_status "no run directory" 1
said "... said" "sbs.env missing"

for k in linux-new linux-old; do
	d=$(broken "column-$k")
	sbs "$fixtures" "$d/out" >/dev/null
	sed -i 's/^folio\[KiB\],write\[ms\]/folio[KiB],time[ms]/' "$d/out/$k-faults_sbs.csv"
	report "$d/out"
	expect_status "a $k CSV without the workload's column" 1
	said "... names the file and the column" "$k-faults_sbs.csv: no column 'write'"
done

# An upstream table not keyed by the workload's first column.
mkdir -p "$tmp/tools/bench"
cp "$here/sbs-report.sh" "$tmp/tools/"
cp "$here"/bench/upstream-* "$tmp/tools/bench/"
sed -i 's/^folio\[KiB\],/size[KiB],/' "$tmp/tools/bench/upstream-madvise_free.csv"
report "$tmp/good" "$tmp/tools/sbs-report.sh"
expect_status "an upstream CSV without the key column" 1
said "... names the file" "$tmp/tools/bench/upstream-madvise_free.csv: first column is not 'folio'"

# A run made with ICOUNT=1 says its figures are instruction counts; the
# fixtures' run (no icount line) says nothing of it.
if grep -q 'Instructions counted' "$tmp/good/section.md"; then
	verdict FAIL "a run without ICOUNT mentions instruction counts"
else
	verdict ok "a run without ICOUNT says nothing of instruction counts"
fi
cp -R "$tmp/good" "$tmp/icount"
sed -i '/^icount=/d' "$tmp/icount/sbs.env"
echo icount=1 >>"$tmp/icount/sbs.env"
report "$tmp/icount"
expect_status "the report of an ICOUNT=1 run" 0
has "... says its times are instruction counts" "$tmp/icount/section.md" \
	"**Instructions counted (QEMU \`-icount shift=0\`, ICOUNT=1).**"

# --- the processes (sbs-procs/: a real 3-round quick run of /bin/procbench) ---
# Converted and reported as the main run; the six rows on every kernel,
# each cell and ratio computed here from the logs; each kernel's THP
# controls named; the rows where Folium is slower than Linux 7.3 listed.
procs_ops='fork fork_big exec pipe futex_pingpong thread_create'
logs=$here/tests/sbs-procs
sbs "$logs" "$tmp/procs"
expect_status "processes: saved logs convert" 0
for s in folium linux-new linux-old native; do
	awk -F, -v ops="$procs_ops" '/^[a-z_]+,/ { n[$1]++ } END { k = split(ops, op, " ")
		for (i = 1; i <= k; i++) if (n[op[i]] != 3) exit 1 }' "$tmp/procs/$s-procs_sbs.csv" 2>/dev/null &&
		verdict ok "processes: $s-procs_sbs.csv holds the six rows of each of the 3 boots" ||
		verdict FAIL "processes: $s-procs_sbs.csv holds the six rows of each of the 3 boots"
done
report "$tmp/procs"
expect_status "processes: section" 0
r=$tmp/procs/section.md
has "processes: the table's heading" "$r" "### Processes and threads (lmbench lat_proc and lat_pipe shapes)"
has "processes: the figure names the futex and thread rows" "$r" \
	"(futex_pingpong: FUTEX_WAKE and FUTEX_WAIT), pthread_create + pthread_join of a thread that returns at once (thread_create)"
has "processes: its unit, boots and populated size" "$r" \
	"in us (lower is better); 1 run(s) per boot, 3 boot(s) per kernel; range 64 MiB."
has "processes: columns" "$r" \
	"| op | Folium (us) | $new (us) | $old (us) | Folium / $new | $old / $new | build machine (us) | anon_huge F / ${new#Linux } / ${old#Linux } | large F / ${new#Linux } / ${old#Linux } |"
for op in $procs_ops; do
	f=$(cell folium procs_sbs per_op $op)
	n=$(cell linux-new procs_sbs per_op $op)
	o=$(cell linux-old procs_sbs per_op $op)
	has "processes, $op: the three kernels' medians and spreads, both ratios" "$r" \
		"| $op | $f | $n | $o | $(quotient "$f" "$n") | $(quotient "$o" "$n") |"
done
thp_of() {	# thp_of SOURCE: the thp= of its first saved record
	sed -n 's/^@env .* thp=\([^ ]*\).*/\1/p' "$logs/$1-1.log" | head -n 1
}
has "processes: each kernel's THP controls, as its record says" "$r" \
	"Folium \`$(thp_of folium)\`; $new \`$(thp_of linux-new)\`; $old \`$(thp_of linux-old)\`;"
above_specs='procs_sbs|per_op|1|Processes and threads (lmbench lat_proc and lat_pipe shapes)|us'
above folium linux-new >"$tmp/want"
listed_above "$r" >"$tmp/listed"
if cmp -s "$tmp/want" "$tmp/listed" &&
	{ [ -s "$tmp/want" ] || grep -q "^\*\*Rows above 1.0\*\*: none" "$r"; }; then
	verdict ok "processes: the $(wc -l <"$tmp/want") row(s) where Folium is slower than $new listed, and only those"
else
	verdict FAIL "processes: the rows where Folium is slower than $new" "$(diff "$tmp/want" "$tmp/listed")"
fi
d=$(broken procs-no-record)
rm -rf "$d" && cp -R "$logs" "$d"
sed -i '/^@bench procs_sbs/,/^@end procs_sbs/d' "$d/folium-2.log"
sbs "$d" "$tmp/out"
expect_status "processes: a Folium log without the record" 1
said "... names the kernel, boot and log" "Folium boot 2 of 3: benchrec: $tmp/out/folium-2.log: no bench records"
rm -rf "$d" && cp -R "$logs" "$d"
sed -i 's#^init: /bin/procbench: exit status 0#init: /bin/procbench: exit status 1#' "$d/linux-new-1.log"
sbs "$d" "$tmp/out"
expect_status "processes: procbench failing on Linux 7.3" 1
said "... names it" "Linux 7.3 (linux-new) boot 1 of 3: /bin/procbench did not exit with status 0"
logs=$fixtures

# --- in bench-report: its own section when sbs/ is there ---------------------
cp -R "$here/tests/bench-report/full" "$tmp/full"
cp -R "$tmp/good" "$tmp/full/sbs"
rm -f "$tmp/full/sbs/section.md" "$tmp/full/sbs/sbs.png"
out=$(sh "$here/bench-report.sh" "$tmp/full" 2>&1)
status=$?
expect_status "bench-report with sbs/" 0
has "... the section in REPORT.md" "$tmp/full/REPORT.md" "## Same program, same QEMU: Folium and Linux"
has "... its three kernels" "$tmp/full/REPORT.md" "| Folium (ms) | $new (ms) | $old (ms) | Folium / $new | $old / $new |"
has "... its plot" "$tmp/full/REPORT.md" "![Folium, $new and $old in the same QEMU](sbs.png)"
[ -s "$tmp/full/sbs.png" ] && verdict ok "... sbs.png written" || verdict FAIL "... sbs.png written"

echo "sbs-test: $pass passed, $fail failed"
[ "$fail" = 0 ]
