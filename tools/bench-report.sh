#!/bin/sh
# bench-report: the CSV records of a `make bench` run (OUTDIR/SOURCE-NAME.csv,
# SOURCE host|kernel, written by tools/benchrec; record format in
# include/benchrec.h) become one PNG per table and source and OUTDIR/REPORT.md,
# beside the upstream figures kept in tools/bench/. Every unit comes from a
# header cell NAME[UNIT]; none is assumed. Kernel records (TSC cycles, usually
# under TCG) get their own plots (kernel-NAME.png), never host axes.
# Any CSV may be missing: its part of the report says so. A malformed CSV
# stops the report with the file, line and reason.
# Usage: sh tools/bench-report.sh OUTDIR    Exit: 0 REPORT.md written, 1 error.
set -eu

UPSTREAM=$(cd "$(dirname "$0")" && pwd)/bench
SOURCES="host kernel"
NOT_MEASURED="not measured in this run"
EMULATED="emulated (TCG): compare ratios, not absolute times."

die() {
	echo "bench-report: $*" >&2
	exit 1
}

# columns TABLE [SOURCE]: the columns a table's header must have (its fixed
# names). Source linux (tools/linux-madvise-free) has only the batched path.
columns() {
	if [ "${2:-}" = linux ]; then
		[ "$1" = madvise_free ] && echo folio batched min max folios fallbacks
		return
	fi
	case $1 in
	madvise_free) echo folio split batched change split_pte_writes split_splits \
		split_flushes split_full_flushes batched_pte_writes batched_splits \
		batched_flushes batched_full_flushes reclaim freed ;;
	madvise_pte_floor) echo ptes time per_pte ;;
	folio_zero_user) echo folio fault fault_page strategy clear touch ;;
	clear_pages) echo extent stosb stosq memset loop8 ;;
	fill_bandwidth) echo method rate ;;
	pageblock) echo pageblock_order pageblock cma_min_alignment pageblocks \
		smallest_cma allocs alloc free fallbacks steals unusable_2m free_2m_blocks ;;
	page_alloc) echo order pattern buddy bitmap ratio ;;
	*) return 1 ;;
	esac
}

csv() { echo "$OUT/$1-$2.csv"; }
have() { [ -f "$OUT/$1-$2.csv" ]; }

# Shared awk: the CSV reader every program below starts from. A data line is
# any line not starting with '#'; the first is the header; a later line equal
# to it is a merged record's repeated header. env() parses "# env:" lines.
AWK_CSV='
function colname(cell) { sub(/\[.*/, "", cell); return cell }
function unitof(cell) { sub(/^[^[]*\[/, "", cell); sub(/\]$/, "", cell); return cell }
function env(line, e,    i, k, v) {
	sub(/^# env: */, "", line)
	while ((i = index(line, "=")) > 0) {
		k = substr(line, 1, i - 1)
		line = substr(line, i + 1)
		if (substr(line, 1, 1) == "\"") {
			line = substr(line, 2)
			i = index(line, "\"")
			if (!i)
				i = length(line) + 1
			v = substr(line, 1, i - 1)
			line = substr(line, i + 1)
		} else {
			i = index(line, " ")
			if (!i)
				i = length(line) + 1
			v = substr(line, 1, i - 1)
			line = substr(line, i)
		}
		sub(/^ +/, "", line)
		e[k] = v
	}
}
{ sub(/\r$/, "") }
'

# check_csv FILE SOURCE TABLE: the header is NAME[UNIT] cells holding the
# table's columns, every row has as many fields, numeric columns hold
# numbers, every env says this source, and there is at least one row.
check_csv() {
	awk -v file="$1" -v source="$2" -v need="$(columns "$3" "$2")" "$AWK_CSV"'
	function fail(msg) { print "bench-report: " file ": " msg > "/dev/stderr"; bad = 1; exit 1 }
	/^# env:/ {
		split("", e)
		env($0, e)
		if (e["source"] != source)
			fail("line " NR ": env says source=" e["source"] ", the file name says " source)
		next
	}
	/^#/ || /^[ \t]*$/ { next }
	!ncols {
		header = $0
		ncols = split($0, h, ",")
		for (i = 1; i <= ncols; i++) {
			if (h[i] !~ /\]$/ || index(h[i], "[") < 2)
				fail("line " NR ": header cell \"" h[i] "\" has no [unit] (want NAME[UNIT])")
			if (colname(h[i]) !~ /^[A-Za-z0-9_]+$/ || unitof(h[i]) == "")
				fail("line " NR ": header cell \"" h[i] "\" is not NAME[UNIT]")
			text[i] = unitof(h[i]) == "-"
			has[colname(h[i])] = 1
		}
		next
	}
	$0 == header { next }
	{
		if ((n = split($0, f, ",")) != ncols)
			fail("line " NR ": " n " fields, the header has " ncols)
		for (i = 1; i <= ncols; i++)
			if (!text[i] && f[i] !~ /^[-+]?[0-9]+(\.[0-9]+)?$/)
				fail("line " NR ": " h[i] " is \"" f[i] "\", not a number")
		rows++
	}
	END {
		if (bad)
			exit 1
		if (!ncols)
			fail("no header row")
		n = split(need, want, " ")
		for (i = 1; i <= n; i++)
			if (!(want[i] in has))
				fail("no column \"" want[i] "\" (this table needs: " need ")")
		if (!rows)
			fail("no data rows")
	}' "$1"
}

# env_get FILE KEY: KEY's value in the first env line of FILE.
env_get() {
	awk -v key="$2" "$AWK_CSV"'
	/^# env:/ { env($0, e); if (key in e) print e[key]; exit }' "$1"
}

# unit_get FILE COLUMN: COLUMN's unit.
unit_get() {
	awk -v col="$2" "$AWK_CSV"'
	/^#/ || /^[ \t]*$/ { next }
	{
		n = split($0, h, ",")
		for (i = 1; i <= n; i++)
			if (colname(h[i]) == col)
				print unitof(h[i])
		exit
	}' "$1"
}

# md_table FILE [COLS]: the rows as a markdown table, COLS (comma-separated
# names) or all columns; header cells "name (unit)", numbers right-aligned.
md_table() {
	awk -v cols="${2:-}" "$AWK_CSV"'
	/^#/ || /^[ \t]*$/ { next }
	!header {
		header = $0
		nh = split($0, h, ",")
		for (i = 1; i <= nh; i++)
			idx[colname(h[i])] = i
		if (cols == "")
			for (i = 1; i <= nh; i++)
				cols = cols (i > 1 ? "," : "") colname(h[i])
		n = split(cols, want, ",")
		line = "|"
		rule = "|"
		for (j = 1; j <= n; j++) {
			if (!(want[j] in idx)) {
				print "bench-report: " FILENAME ": no column " want[j] > "/dev/stderr"
				exit 1
			}
			sel[j] = i = idx[want[j]]
			u = unitof(h[i])
			line = line " " colname(h[i]) (u == "-" ? "" : " (" u ")") " |"
			rule = rule (u == "-" ? "---|" : "---:|")
		}
		print line
		print rule
		next
	}
	$0 == header { next }
	{
		split($0, f, ",")
		line = "|"
		for (j = 1; j <= n; j++)
			line = line " " f[sel[j]] " |"
		print line
	}' "$1"
}

# select_cols FILE COLS [WHERE_COL WHERE_VALUE] [positive]: the chosen
# columns of the rows (where WHERE_COL is WHERE_VALUE), space-separated, for
# gnuplot. Empty cells become "?"; with "positive" (a log y axis) so do
# values <= 0 after the first column (the x values).
select_cols() {
	awk -v cols="$2" -v wcol="${3:-}" -v wval="${4:-}" -v positive="${5:-}" "$AWK_CSV"'
	/^#/ || /^[ \t]*$/ { next }
	!header {
		header = $0
		nh = split($0, h, ",")
		for (i = 1; i <= nh; i++)
			idx[colname(h[i])] = i
		n = split(cols, want, ",")
		next
	}
	$0 == header { next }
	{
		split($0, f, ",")
		if (wcol != "" && f[idx[wcol]] != wval)
			next
		line = ""
		for (j = 1; j <= n; j++) {
			v = f[idx[want[j]]]
			if (v == "" || (positive && j > 1 && unitof(h[idx[want[j]]]) != "-" && v + 0 <= 0))
				v = "?"
			line = line (j > 1 ? " " : "") v
		}
		print line
	}' "$1"
}

# distinct FILE COL: the values of COL in row order, each once, one a line.
distinct() {
	select_cols "$1" "$2" | awk '!seen[$0]++'
}

# join_upstream FILE UPSTREAM_CSV: FILE with the upstream columns appended,
# joined on the upstream's first column (same name and unit); rows upstream
# lacks get empty cells.
join_upstream() {
	awk "$AWK_CSV"'
	FNR == 1 { file++ }
	/^#/ || /^[ \t]*$/ { next }
	file == 1 && !up {
		up = $0
		nu = split($0, uh, ",")
		for (i = 2; i < nu; i++)
			empty = empty ","
		next
	}
	file == 1 { split($0, f, ","); extra[f[1] + 0] = substr($0, length(f[1]) + 2); next }
	!header {
		header = $0
		n = split($0, h, ",")
		for (i = 1; i <= n; i++)
			if (h[i] == uh[1])
				key = i
		if (!key) {
			print "bench-report: " FILENAME ": no column " uh[1] " to join upstream on" > "/dev/stderr"
			exit 1
		}
		print $0 "," substr(up, length(uh[1]) + 2)
		next
	}
	$0 == header { next }
	{ split($0, f, ","); print $0 "," ((f[key] + 0) in extra ? extra[f[key] + 0] : empty) }' "$2" "$1"
}

# --- the report's prose -------------------------------------------------

# ran_on FILE: which machine a record ran on, in one paragraph.
ran_on() {
	cpu=$(env_get "$1" cpu)
	hv=$(env_get "$1" hypervisor)
	case $(env_get "$1" source) in
	host)
		where="host-native (a Linux process) on $cpu"
		[ "$hv" = none ] || where="$where, under the hypervisor $hv" ;;
	*)
		where="the Folium kernel on \"$cpu\""
		[ "$hv" = none ] || where="$where, under $hv" ;;
	esac
	printf 'Ran on: %s; clear_pages=%s, debug_vm=%s.' "$where" \
		"$(env_get "$1" clear_pages)" "$(env_get "$1" debug_vm)"
	[ "$(env_get "$1" emulated)" = yes ] && printf ' **%s**' "$EMULATED"
	echo
	echo
}

# machines CSV...: one column per source, one row per env key; several
# values (records of different builds) are listed, numbers ascending.
machines() {
	echo "## Machines"
	echo
	awk "$AWK_CSV"'
	function human(k, v) {
		if (k == "mem_bytes" && v > 0)
			return v " (" sprintf("%.3g", v / 1073741824) " GiB)"
		if (k == "tsc_hz")
			return v > 0 ? v " (" sprintf("%.3g", v / 1e9) " GHz)" : "0 (unknown)"
		return v
	}
	function add(s, k, v,    i, n, t) {
		if ((s, k, v) in seen)
			return
		seen[s, k, v] = 1
		n = ++count[s, k]
		val[s, k, n] = v
		for (i = n; i > 1 && val[s, k, i - 1] ~ /^[0-9]+$/ && v ~ /^[0-9]+$/ &&
		     val[s, k, i - 1] + 0 > v + 0; i--) {
			t = val[s, k, i - 1]; val[s, k, i - 1] = val[s, k, i]; val[s, k, i] = t
		}
	}
	/^# env:/ {
		split("", e)
		env($0, e)
		s = e["source"]
		if (!(s in src)) { src[s] = 1; order[++ns] = s }
		for (k in e)
			add(s, k, e[k])
	}
	END {
		nk = split("cpu kernel features clear_pages tsc_hz hypervisor emulated mem_bytes version " \
			   "max_page_order pageblock_order thp thp_orders debug_vm", keys, " ")
		line = "| |"; rule = "|---|"
		for (j = 1; j <= ns; j++) { line = line " " order[j] " |"; rule = rule "---|" }
		print line; print rule
		for (i = 1; i <= nk; i++) {
			line = "| " keys[i] " |"
			for (j = 1; j <= ns; j++) {
				cell = ""
				for (n = 1; n <= count[order[j], keys[i]]; n++)
					cell = cell (n > 1 ? ", " : "") human(keys[i], val[order[j], keys[i], n])
				line = line " " cell " |"
			}
			print line
		}
	}' "$@"
	echo
	echo "A key with several values differs between records (e.g. one pageblock"
	echo "record per build). The kernel's tsc_hz is the rate its cycle counts run at."
	echo
}

# missing TABLE SOURCE: the sentence for a record that is not there.
missing() {
	echo "$2-$1.csv: $NOT_MEASURED."
	echo
}

# upstream_text TABLE: the quoted upstream figures for a table, or why not.
upstream_text() {
	if [ -f "$UPSTREAM/upstream-$1.md" ]; then
		cat "$UPSTREAM/upstream-$1.md"
	else
		echo "upstream figures: not quoted — source not available offline."
	fi
	echo
}

# --- plots ----------------------------------------------------------------

# pick_terminal: pngcairo where gnuplot has it, else libgd's png.
pick_terminal() {
	command -v gnuplot >/dev/null 2>&1 ||
		die "gnuplot not found (Debian: apt-get install gnuplot-nox)"
	terms=$(gnuplot -e 'set terminal' 2>&1 </dev/null) || die "gnuplot failed: $terms"
	if printf '%s\n' "$terms" | grep -Eq '^ *pngcairo '; then
		PNG_TERM="pngcairo noenhanced font 'Sans,10'"
	elif printf '%s\n' "$terms" | grep -Eq '^ *png '; then
		PNG_TERM="png noenhanced"
	else
		die "this gnuplot has neither the pngcairo nor the png terminal"
	fi
}

# plot NAME WIDTH HEIGHT < SCRIPT: run a gnuplot script into OUTDIR/NAME.png.
# Callers pipe the script in; it is read to the end (and the data files it
# names written) before gnuplot starts. A failure exits the pipeline's
# subshell with status 1, which ends the report (set -e).
plot() {
	{
		echo "set terminal $PNG_TERM size $2,$3"
		echo "set output '$OUT/$1.png'"
		echo "set datafile missing '?'"
		echo "set grid"
		cat
	} >"$TMP/$1.gp"
	if ! gnuplot "$TMP/$1.gp" >"$TMP/$1.err" 2>&1; then
		echo "bench-report: gnuplot failed on $1.png:" >&2
		cat "$TMP/$1.err" >&2
		exit 1
	fi
	[ -s "$OUT/$1.png" ] || die "gnuplot wrote no $1.png"
}

# png_name SOURCE TABLE: host plots are TABLE.png, the others SOURCE-TABLE.png.
png_name() {
	if [ "$1" = host ]; then echo "$2"; else echo "$1-$2"; fi
}

# who FILE: a plot title's machine: the CPU, or the kernel and its emulator.
who() {
	if [ "$(env_get "$1" source)" = host ]; then
		echo "host: $(env_get "$1" cpu)"
	elif [ "$(env_get "$1" emulated)" = yes ]; then
		echo "kernel under TCG (emulated): compare ratios only"
	else
		echo "kernel: $(env_get "$1" cpu)"
	fi | tr -d "'"
}

plot_madvise() {
	f=$(csv "$1" madvise_free)
	u=$(unit_get "$f" split)
	select_cols "$f" folio,split,batched "" "" positive >"$TMP/mf.dat"
	linux=
	if [ "$1" = host ] && have linux madvise_free; then
		select_cols "$(csv linux madvise_free)" folio,batched "" "" positive >"$TMP/mf-linux.dat"
		linux=", '$TMP/mf-linux.dat' using 1:2 with linespoints dt 2 \
title 'Linux $(env_get "$(csv linux madvise_free)" kernel) on this machine ($(unit_get "$(csv linux madvise_free)" batched))'"
	fi
	panels=1
	if [ "$1" = host ] && [ -f "$UPSTREAM/upstream-madvise_free.csv" ]; then
		panels=2
		select_cols "$UPSTREAM/upstream-madvise_free.csv" \
			folio,upstream_split,upstream_batched "" "" positive >"$TMP/mf-up.dat"
	fi
	{
		echo "set multiplot layout 1,$panels title 'madvise(MADV_FREE) of the range, split vs batched'"
		echo "set logscale x 2; set logscale y; set key top right"
		echo "set xlabel 'folio size (KiB)'"
		echo "set title 'Folium, $(who "$f")'; set ylabel 'time ($u)'"
		echo "plot '$TMP/mf.dat' using 1:2:xtic(1) with linespoints title 'split', \\"
		echo "     '' using 1:3 with linespoints title 'batched'$linux"
		if [ $panels = 2 ]; then
			echo "set title 'upstream: Intel i5, 1 GiB (Lance Yang, 2024)'"
			echo "set ylabel 'time ($(unit_get "$UPSTREAM/upstream-madvise_free.csv" upstream_split))'"
			echo "plot '$TMP/mf-up.dat' using 1:2:xtic(1) with linespoints title 'split (Old)', \\"
			echo "     '' using 1:3 with linespoints title 'batched (New)'"
		fi
		echo "unset multiplot"
	} | plot "$(png_name "$1" madvise_free)" $((560 * panels)) 480
}

plot_clear_pages() {
	f=$(csv "$1" clear_pages)
	u=$(unit_get "$f" stosb)
	select_cols "$f" extent,stosb,stosq,memset,loop8 | awk '{
		b = $1; s = "B"
		if (b >= 1024) { b /= 1024; s = "K" }
		if (b >= 1024) { b /= 1024; s = "M" }
		if (b >= 1024) { b /= 1024; s = "G" }
		print $0, b s }' >"$TMP/cp.dat"
	xrange=$(awk 'NR == 1 { lo = $1 } { hi = $1 }
		END { print "[" lo / 1.5 ":" hi * 1.5 "]" }' "$TMP/cp.dat")
	fill=
	fb=$(csv "$1" fill_bandwidth)
	if [ -f "$fb" ] && [ "$(unit_get "$fb" rate)" = "$u" ]; then
		fill=", $(select_cols "$fb" rate | head -n 1) with lines lc black dt 2 lw 2 \
title 'fill bandwidth ($(select_cols "$fb" method | head -n 1), $(unit_get "$fb" rate))'"
	fi
	label=$u
	[ "$u" = bytes/ns ] && label="bytes/ns = GB/s"
	{
		echo "set title 'clear_pages() throughput per extent, $(who "$f")'"
		echo "set logscale x 2; set xrange $xrange; set key top right"
		echo "set xlabel 'extent (bytes)'; set ylabel 'throughput ($label)'; set yrange [0:*]"
		echo "plot for [i=2:5] '$TMP/cp.dat' using 1:i:xtic(6) with linespoints \\"
		echo "     title word('stosb stosq memset loop8', i-1)$fill"
	} | plot "$(png_name "$1" clear_pages)" 900 480
}

# pivot FILE FOLIO METRIC: rows fault, columns strategy, values METRIC, for
# one folio size; the first line names the columns.
pivot() {
	awk -v folio="$2" -v metric="$3" "$AWK_CSV"'
	/^#/ || /^[ \t]*$/ { next }
	!header { header = $0; n = split($0, h, ","); for (i = 1; i <= n; i++) c[colname(h[i])] = i; next }
	$0 == header { next }
	{ split($0, f, ",") }
	f[c["folio"]] != folio { next }
	{
		r = f[c["fault"]]; s = f[c["strategy"]]
		if (!(r in rseen)) { rseen[r] = 1; rows[++nr] = r }
		if (!(s in sseen)) { sseen[s] = 1; strat[++ns] = s }
		v[r, s] = f[c[metric]]
	}
	END {
		line = "fault"
		for (j = 1; j <= ns; j++) line = line " " strat[j]
		print line
		for (i = 1; i <= nr; i++) {
			line = rows[i]
			for (j = 1; j <= ns; j++) line = line " " ((rows[i], strat[j]) in v ? v[rows[i], strat[j]] : "?")
			print line
		}
	}' "$1"
}

plot_folio_zero() {
	f=$(csv "$1" folio_zero_user)
	folios=$(distinct "$f" folio)
	n=$(echo "$folios" | wc -l)
	ns=$(distinct "$f" strategy | wc -l)
	{
		echo "set multiplot layout $n,2 \\"
		echo "    title 'folio_zero_user() per strategy and fault position, $(who "$f")'"
		echo "set style data histograms; set style histogram clustered gap 1"
		echo "set style fill solid 0.8 border -1; set boxwidth 0.9; set yrange [0:*]"
		echo "set key below horizontal samplen 2; set format y '%.1s%c'"
		for folio in $folios; do
			for m in clear touch; do
				pivot "$f" "$folio" "$m" >"$TMP/zf-$folio-$m.dat"
				what="folio_zero_user()"
				[ $m = touch ] && what="reading the fault page +-2 after it"
				echo "set title '$folio KiB folio: $m = $what'"
				echo "set ylabel '$m ($(unit_get "$f" "$m"))'"
				echo "plot for [i=2:$((ns + 1))] '$TMP/zf-$folio-$m.dat' using i:xtic(1) title columnheader(i)"
			done
		done
		echo "unset multiplot"
	} | plot "$(png_name "$1" folio_zero_user)" 1000 $((420 * n))
}

plot_pageblock() {
	f=$(csv "$1" pageblock)
	select_cols "$f" pageblock_order,alloc,free,unusable_2m | sort -n >"$TMP/pb.dat"
	[ "$(wc -l <"$TMP/pb.dat")" -ge 2 ] || return 0	# one build: the table says it all
	{
		echo "set title '100K allocations (8M..4 B) per pageblock order, $(who "$f")'"
		echo "set xlabel 'pageblock_order'; set xtics 1; set key top center"
		echo "set ylabel 'cost ($(unit_get "$f" alloc), $(unit_get "$f" free))'; set yrange [0:*]"
		echo "set y2label 'unusable_2m ($(unit_get "$f" unusable_2m))'"
		echo "set y2range [0:*]; set y2tics; set ytics nomirror"
		echo "plot '$TMP/pb.dat' using 1:2 with linespoints title 'alloc', \\"
		echo "     '' using 1:3 with linespoints title 'free', \\"
		echo "     '' using 1:4 axes x1y2 with linespoints dt 2 lw 2 title 'unusable_2m (right axis)'"
	} | plot "$(png_name "$1" pageblock)" 900 480
}

plot_page_alloc() {
	f=$(csv "$1" page_alloc)
	series=
	for p in $(distinct "$f" pattern); do
		select_cols "$f" order,buddy,bitmap pattern "$p" positive >"$TMP/pa-$p.dat"
		dt=1
		[ "$p" = single ] || dt=2
		series="$series${series:+, }'$TMP/pa-$p.dat' using 1:2 with linespoints lc 1 dt $dt \
title 'buddy, $p', '' using 1:3 with linespoints lc 2 dt $dt title 'bitmap, $p'"
	done
	{
		echo "set title 'one alloc + one free, buddy vs bitmap, $(who "$f")'"
		echo "set logscale y; set xlabel 'order'; set xtics 1"
		echo "set ylabel 'cost ($(unit_get "$f" buddy))'; set key outside right"
		echo "plot $series"
	} | plot "$(png_name "$1" page_alloc)" 900 480
}

# --- sections -----------------------------------------------------------

# plot_link ALT PNG_NAME: the image link, if the plot was drawn.
plot_link() {
	if [ -f "$OUT/$2.png" ]; then
		echo "![$1]($2.png)"
		echo
	fi
}

# measured TABLE: true if a source measured TABLE; if none did, say so.
measured() {
	if have host "$1" || have kernel "$1"; then
		return 0
	fi
	echo "$1: $NOT_MEASURED (no host-$1.csv or kernel-$1.csv)."
	echo
	return 1
}

# human_bytes N: 1073741824 -> "1 GiB".
human_bytes() {
	awk -v b="$1" 'BEGIN {
		n = split("bytes KiB MiB GiB TiB", u, " ")
		for (i = 1; i < n && b >= 1024 && b % 1024 == 0; i++)
			b /= 1024
		print b " " u[i] }'
}

section_madvise() {
	echo "## 1. MADV_FREE: split vs batched"
	echo
	echo "Each row is one madvise(MADV_FREE) of the whole range, faulted in with"
	echo "writes in folios of one size: split = every large folio split, then PTE by"
	echo "PTE with a flush per page (Linux before the change); batched = one"
	echo "clear_young_dirty_ptes() per folio and one flush; change = batched against"
	echo "split. upstream_* are upstream's seconds on its own machine: compare the"
	echo "shape across folio sizes, not the values. The counter deltas are the"
	echo "evidence of each path; the floor is one bare read of every PTE."
	echo
	if measured madvise_free; then
		for s in $SOURCES; do
			echo "### $s"
			echo
			if have "$s" madvise_free; then
				madvise_record "$s"
			else
				missing madvise_free "$s"
			fi
		done
	fi
	echo "### Upstream"
	echo
	if [ -f "$UPSTREAM/upstream-madvise_free.csv" ]; then
		echo "The upstream_* columns above, from:"
		echo
		sed -n 's/^# \([a-z]*\): /- \1: /p' "$UPSTREAM/upstream-madvise_free.csv"
	else
		echo "upstream figures: not quoted — source not available offline."
	fi
	echo
}

# linux_column: linux-madvise_free.csv as folio,linux_batched, for joining.
linux_column() {
	select_cols "$(csv linux madvise_free)" folio,batched | awk -v u="$(unit_get \
		"$(csv linux madvise_free)" batched)" 'BEGIN { print "folio[KiB],linux_batched[" u "]" }
		{ print $1 "," $2 }'
}

# madvise_record SOURCE: the three MADV_FREE tables of one source and its plot.
madvise_record() {
	f=$(csv "$1" madvise_free)
	ran_on "$f"
	echo "Range: $(human_bytes "$(env_get "$f" range_bytes)")."
	echo
	if [ -f "$UPSTREAM/upstream-madvise_free.csv" ]; then
		join_upstream "$f" "$UPSTREAM/upstream-madvise_free.csv" >"$TMP/mf-join.csv"
		cols=folio,split,batched,change,upstream_split,upstream_batched
		if [ "$1" = host ] && have linux madvise_free; then
			linux_column >"$TMP/mf-linux.csv"
			join_upstream "$TMP/mf-join.csv" "$TMP/mf-linux.csv" >"$TMP/mf-join2.csv"
			mv "$TMP/mf-join2.csv" "$TMP/mf-join.csv"
			cols=$cols,linux_batched
		fi
		md_table "$TMP/mf-join.csv" "$cols,reclaim,freed"
		if [ "$1" = host ] && have linux madvise_free; then
			echo
			lf=$(csv linux madvise_free)
			echo "linux_batched: the same workload on the build machine's own Linux" \
				"$(env_get "$lf" kernel) — a different kernel, on the machine's real" \
				"page tables and TLB; batched only (tools/linux-madvise-free, median of" \
				"$(env_get "$lf" runs) runs)."
		fi
	else
		md_table "$f" folio,split,batched,change,reclaim,freed
	fi
	echo
	plot_link "MADV_FREE split vs batched, $1" "$(png_name "$1" madvise_free)"
	md_table "$f" "folio,split_pte_writes,split_splits,split_flushes,split_full_flushes,\
batched_pte_writes,batched_splits,batched_flushes,batched_full_flushes"
	echo
	if have "$1" madvise_pte_floor; then
		md_table "$(csv "$1" madvise_pte_floor)"
	else
		echo "madvise_pte_floor: $NOT_MEASURED."
	fi
	echo
}

# table_record SOURCE TABLE ALT: machine, table and plot of a one-table record.
table_record() {
	if ! have "$1" "$2"; then
		missing "$2" "$1"
		return 0
	fi
	f=$(csv "$1" "$2")
	ran_on "$f"
	md_table "$f"
	echo
	plot_link "$3, $1" "$(png_name "$1" "$2")"
}

section_clearing() {
	echo "## 2. Clearing: folio_zero_user and clear_pages"
	echo
	echo "folio_zero_user: clear = the call (the fault's kernel time, upstream's"
	echo "stime); touch = reading the faulting page and two pages either side right"
	echo "after it (the user's first accesses, upstream's utime); medians, lower is"
	echo "better. A strategy that clears the fault's neighbourhood last should keep"
	echo "touch low wherever the fault lands. clear_pages: throughput of each way to"
	echo "fill an extent, higher is better; the dashed line is the machine's fill"
	echo "bandwidth. Small extents show start-up cost, large ones memory bandwidth."
	echo
	if measured folio_zero_user; then
		for s in $SOURCES; do
			echo "### $s: folio_zero_user"
			echo
			table_record "$s" folio_zero_user "folio_zero_user per strategy"
		done
	fi
	if measured clear_pages; then
		for s in $SOURCES; do
			echo "### $s: clear_pages"
			echo
			table_record "$s" clear_pages "clear_pages throughput"
			if have "$s" fill_bandwidth; then
				md_table "$(csv "$s" fill_bandwidth)"
				echo
			elif have "$s" clear_pages && [ "$s" = host ]; then
				echo "fill_bandwidth: $NOT_MEASURED."
				echo
			fi
		done
	fi
	echo "### Upstream"
	echo
	upstream_text folio_zero_user
}

section_pageblock() {
	echo "## 3. Pageblock order"
	echo
	echo "One row per build (CONFIG_PAGE_BLOCK_ORDER; the host builds have THP off,"
	echo "which would cap pageblock_order at 9). smallest_cma is what cma_reserve_area()"
	echo "really reserved when asked for one page. The workload: 100K allocations"
	echo "cycling through 8M, 4M, 2M, 1M, 64 B, 8 B and 4 B (2048, 1024, 512, 256, 1,"
	echo "1, 1 pages); the large ones are movable and held in a FIFO of about 55% of"
	echo "the node, the small ones unmovable in a FIFO of 6%, so they outlive many"
	echo "large ones. alloc and free are per-call costs (the median over the runs in"
	echo "the env line); fallbacks count allocations served from another"
	echo "migratetype's list and steals the fallbacks that took over whole"
	echo "pageblocks; unusable_2m is the percent of free memory not in free blocks of"
	echo ">= 2 MiB with the live set held (Linux's unusable free space index at order"
	echo "9): lower is better. Equal fallbacks, steals and unusable_2m across orders"
	echo "mean the unmovable pages landed in the same places: a fallback takes the"
	echo "largest free block and claims every pageblock in it, whatever their size."
	echo "cma_min_alignment is CMA_MIN_ALIGNMENT_BYTES, the last column of upstream's table."
	echo
	if measured pageblock; then
		for s in $SOURCES; do
			echo "### $s"
			echo
			table_record "$s" pageblock "pageblock order"
			if have "$s" pageblock && [ ! -f "$OUT/$(png_name "$s" pageblock).png" ]; then
				echo "One build only: no plot."
				echo
			fi
		done
	fi
	echo "### Upstream"
	echo
	upstream_text pageblock
}

section_page_alloc() {
	echo "## 4. Page allocator: buddy vs bitmap"
	echo
	echo "Cost of one alloc + one free: single = alloc, free, repeat; batched = a"
	echo "batch of allocs, then their frees. ratio = bitmap / buddy (above 1: the"
	echo "buddy allocator is faster). The plots' y axis is logarithmic: equal"
	echo "distances are equal ratios."
	echo
	if measured page_alloc; then
		for s in $SOURCES; do
			echo "### $s"
			echo
			table_record "$s" page_alloc "buddy vs bitmap"
		done
	fi
	echo "### Upstream"
	echo
	upstream_text page_alloc
}

# --- main -----------------------------------------------------------------

[ $# -eq 1 ] || die "usage: sh tools/bench-report.sh OUTDIR"
OUT=${1%/}
[ -d "$OUT" ] || die "$OUT is not a directory"
set -- "$OUT"/*.csv
[ -f "$1" ] || die "$OUT has no *.csv — run make bench first"
for f in "$@"; do
	base=${f##*/}
	src=${base%%-*}
	table=${base#*-}
	table=${table%.csv}
	case $src in host | kernel) ;; linux)
		[ "$table" = madvise_free ] || die "$f: source linux has only madvise_free" ;;
	*)
		die "$f: not named host-TABLE.csv, kernel-TABLE.csv or linux-madvise_free.csv" ;;
	esac
	columns "$table" >/dev/null || die "$f: unknown table \"$table\" (known: madvise_free" \
		"madvise_pte_floor folio_zero_user clear_pages fill_bandwidth pageblock page_alloc)"
	check_csv "$f" "$src" "$table" || exit 1
done

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM
pick_terminal
for s in $SOURCES; do
	for t in madvise_free clear_pages folio_zero_user pageblock page_alloc; do
		rm -f "$OUT/$(png_name "$s" "$t").png"
	done
	if have "$s" madvise_free; then plot_madvise "$s"; fi
	if have "$s" clear_pages; then plot_clear_pages "$s"; fi
	if have "$s" folio_zero_user; then plot_folio_zero "$s"; fi
	if have "$s" pageblock; then plot_pageblock "$s"; fi
	if have "$s" page_alloc; then plot_page_alloc "$s"; fi
done

{
	echo "# Folium benchmark report"
	echo
	echo "Made by tools/bench-report.sh from the $# CSV files in \`$OUT\`. Each"
	echo "table names the machine it ran on. Host tables time a Linux process, kernel"
	echo "tables run inside Folium in TSC cycles; the two never share a plot axis."
	echo
	machines "$@"
	section_madvise
	section_clearing
	section_pageblock
	section_page_alloc
} >"$TMP/REPORT.md"
mv "$TMP/REPORT.md" "$OUT/REPORT.md"
echo "bench-report: wrote $OUT/REPORT.md and $(grep -c '^!\[' "$OUT/REPORT.md") PNG files"
