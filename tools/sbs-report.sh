#!/bin/sh
# sbs-report: the "Same program, same QEMU" section of REPORT.md, from the
# directory tools/bench-sbs.sh filled: CSVs of folium-, linux-new- (Linux
# after the upstream changes Folium mirrors: the yardstick), linux-old-
# (before them) and native- records, sbs.env, qemu-*.txt, the boot logs.
# Printed on stdout; the plot goes to PNG (a panel per workload, a bar per
# kernel and row: median with the boots' min..max, log scale for times).
# Per workload and row: each kernel's median over the boots of each boot's
# median (the program's --runs) with the spread (min..max of the boots'
# medians); Folium / Linux-new (the ratio that counts) and Linux-old /
# Linux-new (the upstream change on real kernels); the build machine's
# native figure; the evidence columns (splits, folios, reclaimed, lost,
# ...) as medians per kernel; upstream's own figures where they exist. A
# row a kernel cannot make is "—", its reason said once under the table.
# Example: MADV_FREE, 2048K pte: Folium 0.079, Linux 7.3 0.244, Linux 6.1
# 7.658 ms → Folium / Linux 7.3 = 0.324, Linux 6.1 / Linux 7.3 = 31.4.
# Every figure comes from the files; a CSV whose header lacks a column the
# workload names stops the report with the file and the column.
# Usage: sh tools/sbs-report.sh SBSDIR PNG   (PNG_TERM: gnuplot terminal,
# default "png")   Exit: 0 section printed, 1 error.
# shellcheck disable=SC1010,SC2086 # mlr verbs chain with "then"; lists of column names are split
set -eu
export LC_ALL=C

die() {
	echo "sbs-report: $*" >&2
	exit 1
}
[ $# -eq 2 ] || die "usage: sh tools/sbs-report.sh SBSDIR PNG"
DIR=${1%/}
PNG=$2
UPSTREAM=$(cd "$(dirname "$0")" && pwd)/bench
[ -f "$DIR/sbs.env" ] || die "$DIR/sbs.env missing: not a tools/bench-sbs.sh directory"
command -v mlr >/dev/null 2>&1 || die "mlr not found (Debian: apt-get install miller)"
command -v gnuplot >/dev/null 2>&1 || die "gnuplot not found (Debian: apt-get install gnuplot-nox)"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM

# The kernels in QEMU, in the tables' column order (tools/bench-sbs.sh's
# file prefixes): Folium, then the yardstick, then the kernel before.
KERNELS='folium linux-new linux-old'

# The workloads, one a line (adding a workload is adding its line):
#   record | title | key columns | figure column (its unit from the CSV
#   header) | better: lower (a time) or higher (e.g. a percentage kept) |
#   evidence columns | what the figure measures | upstream figures:
#   NAME of tools/bench/upstream-NAME.csv (a table joined on its first
#   column; ":COND", a mlr condition, picks the rows it stands beside) or
#   of upstream-NAME.md (prose, cited), or empty
# MADV_FREE's upstream rows are PTE-mapped folios, but 2048K is a THP on
# a PMD (split and batched agree: that path never split).
# shellcheck disable=SC2016 # mlr's $column in a condition, not the shell's
WORKLOADS='madvise_free_sbs|MADV_FREE of a range faulted in with writes|folio mapping|madv_free|lower|splits anon_huge|the madvise(MADV_FREE) call|madvise_free:$mapping == ($folio == 2048 ? "pmd" : "pte")
faults_sbs|Anonymous write faults, sequential (anon-w-seq)|folio|write|lower|folios fallbacks touch|writing every page of the fresh mapping|folio_zero_user
lazyfree_sbs|MADV_FREE, then memory pressure|folio mapping|per_mib|lower|lazyfree pressure written pressure_time reclaimed pglazyfreed splits lost|faulting in the pressure that forces reclaim, per MiB written (how much is written follows the MemFree of each kernel)|
fragment_sbs|Fragmentation, then 2 MiB THP faults without and with compaction|mode|success|higher|regions thp fallbacks compact_stall compact_success pgmigrate_success time lost|the share of the N 2 MiB-aligned regions whose first write got a PMD THP (thp_fault_alloc)|pageblock
procs_sbs|Processes and threads (lmbench lat_proc and lat_pipe shapes)|op|per_op|lower|anon_huge large|one operation: fork + _exit + waitpid of a small parent (fork) and of a parent with the range populated (fork_big), fork + execve of the same program, which exits at once, + waitpid (exec), a 1-byte pipe round trip to a child and back (pipe), a token handed to another thread and back through two private futex words (futex_pingpong: FUTEX_WAKE and FUTEX_WAIT), pthread_create + pthread_join of a thread that returns at once (thread_create), munmap of the range populated just before (munmap_big), and one byte written per 64 KiB of the populated range after a fork, while the child still maps it (cow_copy: a page copied per write) or after its exit (cow_reuse: the folio reused), mprotect of the populated range to PROT_READ and back (mprotect_big), and mremap of it by a distance 64 KiB off a 2 MiB boundary, back and forth (mremap_big: the PTEs move)|'
# EXTENSION POINT: the fragmentation experiment (record fragment_sbs, its
# columns fixed with its program) is one more line above, e.g.
#   fragment_sbs|Fragmentation ...|KEYS|FIGURE|higher|EVIDENCE|WHAT|pageblock
# (AFTER, below, already names its upstream change). A "higher" figure
# keeps the ratio Folium / Linux-new and turns the verdict round (Folium
# is behind when the ratio is below 1); a figure in % prints %.1f and gets
# a linear panel, any other unit %.3f and a log panel.

env_val() {	# env_val KEY: KEY's value in sbs.env, quotes dropped
	sed -n "s/^$1=//p" "$DIR/sbs.env" | tr -d '"'
}
rec_env() {	# rec_env SOURCE RECORD KEY: KEY in the first env line of the CSV
	[ -f "$DIR/$1-$2.csv" ] || return 0
	sed -n '/^# env: /{p;q;}' "$DIR/$1-$2.csv" | tr ' ' '\n' | sed -n "s/^$3=//p" | tr -d '"'
}
any_env() {	# any_env SOURCE KEY: KEY in the first of SOURCE's CSVs that has it
	for r in $(echo "$WORKLOADS" | cut -d '|' -f 1); do
		v=$(rec_env "$1" "$r" "$2")
		[ -z "$v" ] || { echo "$v"; return 0; }
	done
}
# name SOURCE: how the tables call a kernel ("Linux 7.3" from kernel=).
name() {
	case $1 in
	folium) echo Folium ;;
	native) echo "build machine" ;;
	*) echo "Linux $(any_env "$1" kernel | cut -d . -f 1,2)" ;;
	esac
}

# long SOURCE RECORD: SOURCE-RECORD.csv as CSV with source and boot columns
# first (boot = the how-manieth record), header names without units; the
# header must be the same in every file of a record.
long() {
	f=$DIR/$1-$2.csv
	awk -v src="$1" -v f="$f" '
		/^# env: / { boot++; next }
		/^#/ { next }
		!hdr { hdr = $0; h = $0; gsub(/\[[^]]*\]/, "", h); print "source,boot," h; next }
		$0 == hdr { next }
		{ if (!boot) { print f ": a row before any env line" > "/dev/stderr"; exit 1 }
		  print src "," boot "," $0 }' "$f"
}
header() {	# header FILE: its first line that is not a comment
	sed -n '/^[^#]/{p;q;}' "$1"
}
unit_of() {	# unit_of FILE COLUMN: the unit in COLUMN's header cell
	header "$1" | tr ',' '\n' | sed -n "s/^$2\[\(.*\)\]\$/\1/p"
}

# md_row CELL...: a Markdown table row.
md_row() {
	printf '|'
	for c; do printf ' %s |' "$c"; done
	printf '\n'
}

# The row's figures, for the row filter $filt (a mlr condition on the key
# columns), the figure column $fig and $TMP/fig.csv, $TMP/evid.csv.
# row_cache: the row's lines of both, taken once per row (one mlr each,
# not one per kernel and column: mlr's start-up was most of the time).
row_cache() {
	mlr --icsv --onidx --ofs ' ' filter "$filt" then \
		cut -o -f "source,${fig}_median,${fig}_min,${fig}_max,${fig}_count" \
		"$TMP/fig.csv" >"$TMP/row-fig"
	if [ -n "$evid" ]; then
		mlr --icsv --ocsv filter "$filt" "$TMP/evid.csv" >"$TMP/row-evid.csv"
	fi
}
# boot_stats SOURCE: "median min max count" or nothing.
boot_stats() {
	awk -v s="$1" '$1 == s { print $2, $3, $4, $5 }' "$TMP/row-fig"
}
ev() {	# ev SOURCE E: the evidence median, or -
	v=$(awk -F, -v s="$1" -v c="${2}_median" '
		NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "source") si = i; if ($i == c) ci = i }
			next }
		si && ci && $si == s { print $ci }' "$TMP/row-evid.csv")
	echo "${v:--}"
}
cell() {	# cell "median min max count": "median (min–max)", or — for none
	if [ -z "$1" ]; then
		echo "—"
	else
		echo "$1" | awk -v f="$FMT" '{ printf f " (" f "–" f ")", $1, $2, $3 }'
	fi
}
ratio() {	# ratio A B: A's median / B's, 3 digits, or — when either is missing
	if [ -n "$1" ] && [ -n "$2" ]; then
		echo "${1%% *} ${2%% *}" | awk '{ if ($2 > 0) printf "%.3g", $1 / $2; else printf "—" }'
	else
		echo "—"
	fi
}
plot_cols() {	# plot_cols "median min max count": gnuplot's three, ? for none
	echo "$1" | awk '{ print NF ? $1 " " $2 " " $3 : "? ? ?" }'
}

# upstream_table NAME: $TMP/up.csv (the upstream CSV, units dropped)
# and $TMP/up.head (its column names after the key, "name (unit)").
upstream_table() {
	f=$UPSTREAM/upstream-$1.csv
	k1=${keys%% *}
	header "$f" | cut -d , -f 1 | grep -q "^$k1\\[" ||
		die "$f: first column is not '$k1' (header: $(header "$f"))"
	sed '/^#/d; /^$/d' "$f" | sed '1s/\[[^]]*\]//g' >"$TMP/up.csv"
	header "$f" | tr ',' '\n' | sed 1d | sed 's/^\(.*\)\[\(.*\)\]$/\1 (\2)/; s/_/ /' >"$TMP/up.head"
	[ -s "$TMP/up.head" ] || die "$f: no figure columns (header: $(header "$f"))"
}
# up_cells: the upstream cells of the row ($row, $filt), one a word: each
# upstream column, then the first over the last; "—" where upstream has
# no such row or the workload's condition puts none beside this one.
up_cells() {
	n=$(wc -l <"$TMP/up.head")
	v=
	if [ -n "$(mlr --icsv --onidx filter "$filt && ($upcond)" "$TMP/rowkeys.csv")" ]; then
		v=$(mlr --icsv --onidx --ofs ' ' filter "\$${keys%% *} == \"${row%% *}\"" \
			then cut -x -f "${keys%% *}" "$TMP/up.csv")
	fi
	if [ -z "$v" ]; then
		[ "$n" -lt 2 ] || n=$((n + 1))
		i=0
		while [ "$i" -lt "$n" ]; do echo "—"; i=$((i + 1)); done
	else
		echo "$v" | awk '{ for (i = 1; i <= NF; i++) print $i
			if (NF > 1) print ($NF > 0 ? sprintf("%.3g", $1 / $NF) : "—") }'
	fi
}

# missing SOURCE: why the rows in $TMP/miss-SOURCE are "—" for that kernel.
missing() {
	sizes=$(cut -d ' ' -f 1 "$TMP/miss-$1" | awk '!seen[$0]++' | paste -s -d ' ' - | sed 's/ /, /g')
	ctl=$(rec_env "$1" "$rec" thp_controls)
	k="$(name "$1") ($(any_env "$1" kernel))"
	if [ ! -f "$DIR/$1-$rec.csv" ]; then
		echo "$k: no $1-$rec.csv in this run."
	elif [ "$1" = folium ]; then
		echo "$k: no $sizes row in its record."
	elif [ "$ctl" = top-level ]; then
		echo "$k: $sizes — its THP controls are \"top-level\" (2 MiB THP only, no mTHP sizes)."
	elif [ "$sizes" = 8K ]; then
		echo "$k: $sizes — no hugepages-8kB control (anonymous mTHP starts at order 2, 16K)."
	else
		echo "$k: $sizes — no hugepages-<size>kB control for them (THP controls \"$ctl\")."
	fi
}

# load: the workload's CSVs ($rec, $keys, $fig, $evid) checked and summed
# up: $TMP/fig.csv (per source and row, the boots' median, min, max,
# count), $TMP/evid.csv (the evidence's medians), $TMP/rowkeys.csv and
# $TMP/rows (the rows in first-seen order: Folium's, then any only
# elsewhere), $unit and $FMT of the figure.
load() {
	srcs=
	for s in $KERNELS native; do
		[ -f "$DIR/$s-$rec.csv" ] || continue
		long "$s" "$rec" >"$TMP/$s.csv" || die "$DIR/$s-$rec.csv: malformed"
		for c in $keys $fig $evid; do
			head -n 1 "$TMP/$s.csv" | tr ',' '\n' | grep -qx "$c" ||
				die "$DIR/$s-$rec.csv: no column '$c' (header: $(header "$DIR/$s-$rec.csv"))"
		done
		mlr --icsv --ocsv cut -o -f "source,boot,$(echo $keys $fig $evid | tr ' ' ,)" \
			"$TMP/$s.csv" >"$TMP/$s.cut"
		srcs="$srcs $s"
	done
	unit=$(unit_of "$DIR/folium-$rec.csv" "$fig")
	case $unit in %) FMT=%.1f ;; *) FMT=%.3f ;; esac
	# shellcheck disable=SC2046 # one word per file
	mlr --icsv --ocsv cat $(for s in $srcs; do echo "$TMP/$s.cut"; done) >"$TMP/all.csv"
	klist=$(echo $keys | tr ' ' ,)
	mlr --icsv --ocsv stats1 -i -a median,min,max,count -f "$fig" -g "source,$klist" \
		"$TMP/all.csv" >"$TMP/fig.csv"
	[ -z "$evid" ] || mlr --icsv --ocsv stats1 -i -a median -f "$(echo $evid | tr ' ' ,)" \
		-g "source,$klist" "$TMP/all.csv" >"$TMP/evid.csv"
	mlr --icsv --ocsv cut -o -f "$klist" then count-distinct -f "$klist" \
		then cut -x -f count "$TMP/all.csv" >"$TMP/rowkeys.csv"
	mlr --icsv --onidx --ofs ' ' cat "$TMP/rowkeys.csv" >"$TMP/rows"
}

# table_head: the table's header and alignment lines.
table_head() {
	printf '|'
	for k in $keys; do
		u=$(unit_of "$DIR/folium-$rec.csv" "$k")
		case $u in - | '' | "$k") printf ' %s |' "$k" ;; *) printf ' %s (%s) |' "$k" "$u" ;; esac
	done
	for s in $KERNELS; do printf ' %s (%s) |' "$(name "$s")" "$unit"; done
	printf ' Folium / %s | %s / %s | build machine (%s) |' "$new" "$old" "$new" "$unit"
	for e in $evid; do printf ' %s F / %s / %s |' "$e" "${new#Linux }" "${old#Linux }"; done
	if [ -n "$upcsv" ]; then
		while IFS= read -r h; do printf ' %s |' "$h"; done <"$TMP/up.head"
		[ "$(wc -l <"$TMP/up.head")" -lt 2 ] ||
			printf ' %s / %s |' "$(sed -n '1s/ (.*//p' "$TMP/up.head")" \
				"$(sed -n '$s/ (.*//p' "$TMP/up.head" | sed 's/^upstream //')"
	fi
	printf '\n|'
	for k in $keys; do
		case $(unit_of "$DIR/folium-$rec.csv" "$k") in - | '') printf -- ' --- |' ;; *) printf -- ' ---: |' ;; esac
	done
	# three kernels, two ratios, the build machine, the evidence, upstream's
	n=$((6 + $(echo $evid | wc -w)))
	[ -z "$upcsv" ] || n=$((n + $(wc -l <"$TMP/up.head")))
	[ -z "$upcsv" ] || [ "$(wc -l <"$TMP/up.head")" -lt 2 ] || n=$((n + 1))
	i=0
	while [ "$i" -lt "$n" ]; do printf -- ' ---: |'; i=$((i + 1)); done
	printf '\n'
}

# table_row ROW: the table line of ROW (its key values), its plot line
# ($TMP/plot.dat); a kernel without it is noted in $TMP/miss-SOURCE, a
# row where Folium is behind the yardstick in $TMP/behind.
table_row() {
	row=$1
	# shellcheck disable=SC2086 # the key values
	set -- $row
	filt=
	for k in $keys; do
		filt="$filt${filt:+ && }\$$k == \"$1\""
		shift
	done
	row_cache
	label=$row	# "2048K pte" for a size in KiB
	[ "$(unit_of "$DIR/folium-$rec.csv" "${keys%% *}")" != KiB ] || label=$(echo "$row" | sed 's/^\([0-9]*\)/\1K/')
	f=$(boot_stats folium) n=$(boot_stats linux-new) o=$(boot_stats linux-old)
	[ -n "$f" ] || echo "$label" >>"$TMP/miss-folium"
	[ -n "$n" ] || echo "$label" >>"$TMP/miss-linux-new"
	[ -n "$o" ] || echo "$label" >>"$TMP/miss-linux-old"
	fn=$(ratio "$f" "$n")
	if [ "$fn" != "—" ] && echo "${f%% *} ${n%% *} $better" |
		awk '{ exit !($3 == "lower" ? $1 > $2 : $1 < $2) }'; then
		echo "- $title, $label: Folium $(cell "$f") $unit, $new $(cell "$n") $unit: Folium / $new = $fn" \
			>>"$TMP/behind"
	fi
	nat=$(boot_stats native | awk -v f="$FMT" '{ printf f, $1 }')
	# shellcheck disable=SC2086 # the key values, one cell each
	set -- $row "$(cell "$f")" "$(cell "$n")" "$(cell "$o")" "$fn" "$(ratio "$o" "$n")" "${nat:-—}"
	for e in $evid; do
		set -- "$@" "$(ev folium "$e") / $(ev linux-new "$e") / $(ev linux-old "$e")"
	done
	if [ -n "$upcsv" ]; then
		for c in $(up_cells); do set -- "$@" "$c"; done
	fi
	md_row "$@"
	echo "\"$label\" $(plot_cols "$f") $(plot_cols "$n") $(plot_cols "$o")" >>"$TMP/plot.dat"
}

# notes: under the table, each once: the sizes a kernel cannot make and
# why, why the build machine has no figures, upstream's source.
notes() {
	if [ -n "$(rec_env folium "$rec" thp)" ]; then
		echo "The THP controls as each kernel had them (not changed by the program; each" \
			"control not \"never\"):$(for s in $KERNELS native; do
				[ ! -f "$DIR/$s-$rec.csv" ] || printf ' %s `%s`;' "$(name "$s")" "$(rec_env "$s" "$rec" thp)"
			done | sed 's/;$/./')"
		echo
	fi
	if [ -n "$(cat "$TMP"/miss-*)" ]; then
		echo "\"—\": a folio size the kernel cannot make."
		for s in $KERNELS; do
			[ ! -s "$TMP/miss-$s" ] || echo "- $(missing "$s")"
		done
		echo
	fi
	if [ ! -f "$DIR/native-$rec.csv" ]; then
		# The program's own reason: the line before bench-sbs's "skipped"
		# for the program that prints this record.
		case $rec in
		madvise_free_sbs) bin=madvfree ;;
		faults_sbs) bin=faultrate ;;
		lazyfree_sbs) bin=lazyfree ;;
		fragment_sbs) bin=fragment ;;
		procs_sbs) bin=procbench ;;
		*) bin=$rec ;;
		esac
		why=$(cat "$DIR"/native-*.log 2>/dev/null | awk -v bin="/bin/$bin" '
			$0 == "native: " bin ": skipped (exit 77)" { print prev; exit } { prev = $0 }')
		echo "No build-machine figures for this workload${why:+: $why}."
		echo
	fi
	if [ -n "$upcsv" ] && [ "$upcond" = true ]; then
		echo "The upstream columns, on the rows of the same ${keys%% *}:"
	elif [ -n "$upcsv" ]; then
		echo "The upstream columns, on the rows where \`$upcond\`:"
	fi
	if [ -n "$upcsv" ]; then
		sed -n '/^# title:/d; s/^# \([a-z]*\): /- \1: /p' "$upcsv"
	elif [ -n "$upname" ]; then
		# The citation: the file's lines up to the first that ends ")."
		echo "No upstream column: upstream published no table of this measurement." \
			"Its figures, from $(sed '/)\.$/q' "$UPSTREAM/upstream-$upname.md" | paste -s -d ' ' - |
				sed 's/\.$//'), are in tools/bench/upstream-$upname.md."
	else
		echo "No upstream figures for this workload."
	fi
	echo
}

# workload RECORD TITLE KEYS FIGURE BETTER EVIDENCE WHAT UPSTREAM: one
# table with its notes, its plot data ($TMP/plot-RECORD.dat).
workload() {
	rec=$1 title=$2 keys=$3 fig=$4 better=$5 evid=$6 what=$7 up=$8
	echo "### $title"
	echo
	if [ ! -f "$DIR/folium-$rec.csv" ]; then
		echo "$rec: not measured in this run (no folium-$rec.csv)."
		echo
		return
	fi
	case $better in lower | higher) ;; *) die "WORKLOADS: $rec: better is '$better', want lower or higher" ;; esac
	load
	upname=${up%%:*} upcond=true upcsv=
	case $up in *:*) upcond=${up#*:} ;; esac
	if [ -z "$upname" ]; then
		:
	elif [ -f "$UPSTREAM/upstream-$upname.csv" ]; then
		upstream_table "$upname"
		upcsv=$UPSTREAM/upstream-$upname.csv
	elif [ ! -f "$UPSTREAM/upstream-$upname.md" ]; then
		die "WORKLOADS: $rec: no tools/bench/upstream-$upname.csv or .md"
	fi
	echo "The figure: $what, in $unit ($better is better); $(rec_env folium "$rec" runs) run(s) per boot," \
		"$(mlr --icsv --ojson stats1 -a max -f "${fig}_count" "$TMP/fig.csv" |
			sed -n 's/.*_count_max": \([0-9]*\).*/\1/p') boot(s) per kernel;" \
		"range $(($(rec_env folium "$rec" range_bytes) / 1048576)) MiB."
	echo
	table_head
	: >"$TMP/plot.dat"
	for s in $KERNELS; do : >"$TMP/miss-$s"; done
	while read -r r; do table_row "$r"; done <"$TMP/rows"
	mv "$TMP/plot.dat" "$TMP/plot-$rec.dat"
	echo "$unit" >"$TMP/unit-$rec"
	echo
	notes
}

# The upstream change each table's yardstick is "after", by record; a
# record with no table in this run is said so.
AFTER='madvise_free_sbs|MADV_FREE|Lance Yang'"'"'s lazyfree batching, "mm/madvise: optimize lazyfreeing with mTHP in madvise_free" (Linux 6.10)
faults_sbs|write faults|Ankur Arora'"'"'s clear_pages series ("mm: folio_zero_user: clear contiguous pages") with "mm: folio_zero_user: cache neighbouring pages" (neighbourhood-last)
lazyfree_sbs|MADV_FREE, then memory pressure|the same lazyfree batching for the MADV_FREE; the timed reclaim is no single upstream change quoted here
fragment_sbs|fragmentation|Juan Yescas'"'"' "mm: add CONFIG_PAGE_BLOCK_ORDER to select page block order" (Linux 6.16)
procs_sbs|processes and threads|no single upstream change: everything between the two releases, among it David Hildenbrand'"'"'s batched fork and zap of PTE-mapped large folios ("mm/memory: optimize fork() with PTE-mapped THP", "mm/memory: optimize unmap/zap with PTE-mapped THP")'

# pageblock_orders: the fragmentation experiment on Folium kernels built
# with other pageblock orders (bench-sbs's folium-pboN sources) beside the
# default one, a row per kernel: success without and with compaction.
pageblock_orders() {
	ls "$DIR"/folium-pbo*-fragment_sbs.csv >/dev/null 2>&1 || return 0
	echo "Folium at each pageblock order (\`CONFIG_PAGE_BLOCK_ORDER\`, THP on; median of the boots, min–max):"
	echo
	echo "| kernel | pageblock_order | success without compaction (%) | success with compaction (%) | time with compaction (ms) | pages migrated |"
	echo "| --- | ---: | ---: | ---: | ---: | ---: |"
	for src in folium $(ls "$DIR"/folium-pbo*-fragment_sbs.csv |
		sed 's#.*/\(folium-pbo[0-9]*\)-fragment_sbs.csv#\1#' | sort -t o -k 3 -n); do
		[ -f "$DIR/$src-fragment_sbs.csv" ] || continue
		long "$src" fragment_sbs >"$TMP/pbo.csv" || die "$DIR/$src-fragment_sbs.csv: malformed"
		for c in mode success time pgmigrate_success; do
			head -n 1 "$TMP/pbo.csv" | tr ',' '\n' | grep -qx "$c" ||
				die "$DIR/$src-fragment_sbs.csv: no column '$c'"
		done
		mlr --icsv --ocsv stats1 -i -a median,min,max -f success,time,pgmigrate_success -g mode \
			"$TMP/pbo.csv" >"$TMP/pbo-stats.csv"
		pbo=$(rec_env "$src" fragment_sbs pageblock_order)
		md_row "$src" "${pbo:-?}" "$(pbo_cell nocompact success)" "$(pbo_cell compact success)" \
			"$(pbo_cell compact time)" "$(pbo_cell compact pgmigrate_success)"
	done
	echo
}
pbo_cell() {	# pbo_cell MODE COLUMN: "median (min–max)" from $TMP/pbo-stats.csv
	mlr --icsv --onidx --ofs ' ' filter "\$mode == \"$1\"" \
		then cut -o -f "${2}_median,${2}_min,${2}_max" "$TMP/pbo-stats.csv" |
		awk '{ if (NF) printf "%.1f (%.1f–%.1f)", $1, $2, $3; else printf "—" }'
}

# --- the section ------------------------------------------------------------

for s in $KERNELS; do
	[ -n "$(any_env "$s" kernel)" ] ||
		die "$DIR: no $s- record with a kernel= (tools/bench-sbs.sh writes folium-, linux-new- and linux-old- CSVs)"
done
fk=$(any_env folium kernel) nk=$(any_env linux-new kernel) ok=$(any_env linux-old kernel)
new=$(name linux-new) old=$(name linux-old)	# "Linux 7.3", "Linux 6.1"
accels=$(for s in $KERNELS; do
	for f in "$DIR/$s"-*.csv; do
		[ ! -f "$f" ] || sed -n 's/^# env: .*accel=\([a-z]*\).*/\1/p' "$f"
	done
done | sort -u | paste -s -d ' ' -)
# Folium's build, from its boot logs' "Config:" line.
dvm=$(cat "$DIR"/folium-*.log 2>/dev/null | sed -n 's/.*Config: .*\(CONFIG_DEBUG_VM=[yn]\).*/\1/p' |
	sort -u | paste -s -d ' ' -)
echo "## Same program, same QEMU: Folium and Linux"
echo
cat <<EOF
The same static programs (user/madvfree.c, faultrate.c, lazyfree.c,
fragment.c, procbench.c, built with musl; identical bytes on every
kernel) ran on three kernels, each
booted $(env_val rounds) time(s) under the one QEMU line of tools/qemu-run.sh, the
kernels alternating and the order rotating every round:

- **Folium** $fk (${dvm:-CONFIG_DEBUG_VM not in its boot log}): the kernel under test;
- **$new**: Debian's $nk, after the upstream changes Folium
  mirrors — the yardstick;
- **$old**: Debian's $ok, before them.

Each cell is the median of the boots' medians, with the boots' min–max.
**Folium / $new** is the ratio that counts: at most 1 means Folium is
at least as fast as Linux after the change. **$old / $new** is the
upstream change measured on real kernels (everything between the two
releases, the changes below among it). "build machine" is the same binary
run natively on this machine's own Linux $(any_env native kernel) — a different
kernel on real hardware (accelerator: $(any_env native accel)), shown for scale,
in no ratio.

The upstream change each table's $new column is "after":
EOF
echo "$AFTER" | while IFS='|' read -r rec what change; do
	if [ -f "$DIR/folium-$rec.csv" ]; then
		echo "- $what ($rec): $change;"
	else
		echo "- $what ($rec, no table in this run): $change;"
	fi
done | sed '$s/;$/./'
echo
[ "$dvm" != CONFIG_DEBUG_VM=y ] || cat <<'EOF'
**Folium with CONFIG_DEBUG_VM=y.** This run booted a debugging build of
Folium (its VM checks cost time on every path); make bench boots the bench
kernel, CONFIG_DEBUG_VM=n, like the two Linux builds.

EOF
[ "$(env_val icount)" != 1 ] || cat <<'EOF'
**Instructions counted (QEMU `-icount shift=0`, ICOUNT=1).** The guest's
clock advanced one nanosecond per executed instruction (a `rep stosb`
counts each byte), so every "ms" here is a million guest instructions:
the same on every boot whatever the host did, a count of the work each
kernel does rather than a time.

EOF
case " $accels " in
*" tcg "*) cat <<'EOF'
**Emulated (TCG).** QEMU's TCG emulates the MMU in software: TLB flushes
and `rep stosb` cost far more than on hardware, so absolute times here are
not hardware times. The claim is the ratio between kernels under the
same emulator.

EOF
	;;
esac
echo "- Accelerator (from every record's CPUID): $accels"
echo "- Programs and arguments: \`$(env_val programs)\`"
for v in $(sed -n 's/^sha256_\([a-z0-9_]*\)=.*/\1/p' "$DIR/sbs.env"); do
	echo "- SHA-256 of /bin/$v: \`$(env_val "sha256_$v")\`"
done
[ -z "$(env_val folium_commit)" ] || echo "- Folium commit: $(env_val folium_commit)"
for s in $KERNELS; do
	echo "- QEMU, $(name "$s"): \`$(cat "$DIR/qemu-$s.txt" 2>/dev/null || echo unknown)\`"
done
echo
echo "![Folium, $new and $old in the same QEMU](${PNG##*/})"
echo
: >"$TMP/behind"
echo "$WORKLOADS" | {
	while IFS='|' read -r rec title keys fig better evid what up; do
		workload "$rec" "$title" "$keys" "$fig" "$better" "$evid" "$what" "$up"
	done
	cat <<EOF
Reading the evidence columns (Folium / $new / $old, "-" where the kernel
has no such row): splits is thp_split_page across the call ($old splits
PTE-mapped THPs before lazyfreeing them); anon_huge is AnonHugePages
before it; folios and fallbacks are the kernel's own counts of folios
allocated at the row's size and of faults that fell back to a smaller one
(-1: no counter for 4K pages); lazyfree and pressure are the KiB
lazyfreed and written past free memory, written all that was written
(MemFree less the reserve, plus pressure) and pressure_time its ms;
reclaimed is how much of the
lazyfree range came back as zero after the pressure, pglazyfreed the
kernel's count of it, and lost the bytes that were wrong (must be 0);
touch is ns per page of reading the faulting page's neighbourhood right
after the fault (cache-hot where the kernel clears it last; under TCG
there is no cache). In the fragmentation table, regions is N, thp the
THPs the N faults got, compact_* and pgmigrate_success the counters'
deltas over the faults, time their ms. In the processes and threads table,
anon_huge is the KiB of fork_big's populated range mapped by PMDs
(AnonHugePages) and large the KiB faulted as folios larger than 4K (the
kernel's THP fault counters), both 0 on the other rows: the THP controls
are each kernel's defaults, named in the records' thp= (left as they are).

EOF
	pageblock_orders
	if [ -s "$TMP/behind" ]; then
		echo "**Rows above 1.0** (Folium slower than $new; for a figure where higher is better, below 1.0):"
		echo
		cat "$TMP/behind"
	else
		echo "**Rows above 1.0**: none — Folium / $new is at most 1.0 on every row both kernels have."
	fi
	echo
	# The plot: a panel per workload measured, a bar per kernel.
	n=0
	for f in "$TMP"/plot-*.dat; do [ -f "$f" ] && n=$((n + 1)); done
	{
		echo "set terminal ${PNG_TERM:-png} size 1100,$((330 * n))"
		echo "set output '$PNG'"
		echo "set datafile missing '?'"
		echo "set multiplot layout $n,1 title 'Folium $fk, $new ($nk), $old ($ok): same QEMU ($accels)'"
		echo "set style data histograms; set style histogram errorbars gap 1 lw 1"
		echo "set style fill solid 0.7 border -1; set grid ytics"
		echo "set termoption noenhanced; set key above; set xtics rotate by -30"
		echo "$WORKLOADS" | while IFS='|' read -r rec title keys fig better evid what up; do
			[ -f "$TMP/plot-$rec.dat" ] || continue
			u=$(cat "$TMP/unit-$rec")
			case $u in %) echo "unset logscale y" ;; *) echo "set logscale y" ;; esac
			echo "set ylabel '$u'"
			echo "set title '$title (median, min..max of boots; $better is better)'"
			echo "plot '$TMP/plot-$rec.dat' using 2:3:4:xtic(1) title 'Folium'," \
				"'' using 5:6:7 title '$new', '' using 8:9:10 title '$old'"
		done
		echo "unset multiplot"
	} >"$TMP/sbs.gp"
	gnuplot "$TMP/sbs.gp" >"$TMP/gp.err" 2>&1 || { cat "$TMP/gp.err" >&2; die "gnuplot failed on $PNG"; }
	[ -s "$PNG" ] || die "gnuplot wrote no $PNG"
}
