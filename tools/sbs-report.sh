#!/bin/sh
# sbs-report: the "Same program, same QEMU: Folium and Linux" section of
# REPORT.md, from the directory tools/bench-sbs.sh filled (its CSVs of
# folium-, linux- and native- records, sbs.env, qemu-*.txt). Printed on
# stdout; the plot goes to PNG (Folium and Linux per row, median with the
# boots' min..max as error bars, log scale).
# Per workload and row: the median over the boots of each boot's median
# (the program's --runs), the spread (min..max of the boots' medians),
# Folium / Linux, the build machine's native figure, and the workload's
# evidence columns (splits, folios, reclaimed, lost, ...) as medians. A row
# one kernel lacks is said to be missing, never left blank. A CSV whose
# header is not what the workload's program prints stops the report with
# the file and the reason.
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
[ -f "$DIR/sbs.env" ] || die "$DIR/sbs.env missing: not a tools/bench-sbs.sh directory"
command -v mlr >/dev/null 2>&1 || die "mlr not found (Debian: apt-get install miller)"
command -v gnuplot >/dev/null 2>&1 || die "gnuplot not found (Debian: apt-get install gnuplot-nox)"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM

# The workloads: record | title | key columns | timed column | evidence
# columns | what the time is.
WORKLOADS='madvise_free_sbs|MADV_FREE of a range faulted in with writes|folio mapping|madv_free|splits anon_huge|the madvise(MADV_FREE) call
faults_sbs|Anonymous write faults, sequential (anon-w-seq)|folio|write|folios fallbacks|writing every page of the fresh mapping
lazyfree_sbs|MADV_FREE, then memory pressure|folio mapping|pressure_time|lazyfree pressure reclaimed pglazyfreed splits lost|faulting in the pressure that forces reclaim'

env_val() {	# env_val KEY: KEY's value in sbs.env, quotes dropped
	sed -n "s/^$1=//p" "$DIR/sbs.env" | tr -d '"'
}
rec_env() {	# rec_env SOURCE RECORD KEY: KEY in the first env line of the CSV
	[ -f "$DIR/$1-$2.csv" ] || return 0
	sed -n '/^# env: /{p;q;}' "$DIR/$1-$2.csv" | tr ' ' '\n' | sed -n "s/^$3=//p" | tr -d '"'
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

# md_row CELL...: a Markdown table row.
md_row() {
	printf '|'
	for c; do printf ' %s |' "$c"; done
	printf '\n'
}

# The row's figures, for the row filter $filt (a mlr condition on the key
# columns), the timed column $time and $TMP/time.csv, $TMP/evid.csv:
# boot_stats SOURCE: "median min max count" or nothing.
boot_stats() {
	mlr --icsv --onidx --ofs ' ' filter "\$source == \"$1\" && $filt" \
		then cut -o -f "${time}_median,${time}_min,${time}_max,${time}_count" "$TMP/time.csv"
}
ev() {	# ev SOURCE E: the evidence median, or -
	v=$(mlr --icsv --onidx filter "\$source == \"$1\" && $filt" then cut -f "${2}_median" \
		"$TMP/evid.csv")
	echo "${v:--}"
}
cell() {	# cell "median min max count"
	if [ -z "$1" ]; then
		echo "—"
	else
		echo "$1" | awk '{ printf "%.3f (%.3f–%.3f)", $1, $2, $3 }'
	fi
}

# workload RECORD TITLE KEYS TIME EVIDENCE WHAT: one table, its plot data.
workload() {
	rec=$1 title=$2 keys=$3 time=$4 evid=$5 what=$6
	: >"$TMP/all.csv"
	srcs=
	for s in folium linux native; do
		[ -f "$DIR/$s-$rec.csv" ] || continue
		long "$s" "$rec" >"$TMP/$s.csv" || die "$DIR/$s-$rec.csv: malformed"
		for c in $keys $time $evid; do
			head -n 1 "$TMP/$s.csv" | tr ',' '\n' | grep -qx "$c" ||
				die "$DIR/$s-$rec.csv: no column '$c' (header: $(sed -n '/^[^#]/{p;q;}' "$DIR/$s-$rec.csv"))"
		done
		mlr --icsv --ocsv cut -o -f "source,boot,$(echo $keys $time $evid | tr ' ' ,)" \
			"$TMP/$s.csv" >"$TMP/$s.cut"
		srcs="$srcs $s"
	done
	echo "### $title"
	echo
	case " $srcs " in
	*" folium "*) ;;
	*) echo "$rec: not measured in this run (no folium-$rec.csv)."; echo; return ;;
	esac
	# shellcheck disable=SC2046 # one word per file
	mlr --icsv --ocsv cat $(for s in $srcs; do echo "$TMP/$s.cut"; done) >"$TMP/all.csv"
	klist=$(echo $keys | tr ' ' ,)
	# Per source and row: the boots' medians summarized.
	mlr --icsv --ocsv stats1 -i -a median,min,max,count -f "$time" -g "source,$klist" \
		"$TMP/all.csv" >"$TMP/time.csv"
	mlr --icsv --ocsv stats1 -i -a median -f "$(echo $evid | tr ' ' ,)" -g "source,$klist" \
		"$TMP/all.csv" >"$TMP/evid.csv"
	lk=$(rec_env linux "$rec" kernel)
	hdr=
	for k in $keys; do hdr="$hdr|$k"; done
	# The rows, in first-seen order (Folium's, then any only elsewhere).
	mlr --icsv --onidx --ofs ' ' cut -o -f "$klist" then count-distinct -f "$klist" \
		then cut -x -f count "$TMP/all.csv" >"$TMP/rows"
	unit=ms
	{
		printf '|'
		for k in $keys; do
			case $k in folio) printf ' folio (KiB) |' ;; *) printf ' %s |' "$k" ;; esac
		done
		printf ' Folium (%s) | Linux in QEMU (%s) | Folium / Linux | build machine (%s) |' \
			"$unit" "$unit" "$unit"
		for e in $evid; do printf ' %s F / L |' "$e"; done
		printf '\n|'
		for k in $keys; do
			case $k in folio) printf -- ' ---: |' ;; *) printf -- ' --- |' ;; esac
		done
		printf -- ' ---: | ---: | ---: | ---: |'
		for e in $evid; do printf -- ' ---: |'; done
		printf '\n'
	} >"$TMP/table.md"
	: >"$TMP/plot.dat"
	: >"$TMP/slower"
	: >"$TMP/both"
	: >"$TMP/only"
	while read -r row; do
		# shellcheck disable=SC2086 # the key values
		set -- $row
		filt=
		i=1
		for k in $keys; do
			eval "v=\${$i}"
			filt="$filt${filt:+ && }\$$k == \"$v\""
			i=$((i + 1))
		done
		f=$(boot_stats folium) l=$(boot_stats linux) n=$(boot_stats native)
		fc=$(cell "$f") lc=$(cell "$l")
		[ -n "$l" ] || { lc="— (only on Folium)"; echo x >>"$TMP/only"; }
		[ -n "$f" ] || { fc="— (only on Linux)"; echo x >>"$TMP/only"; }
		ratio="—"
		if [ -n "$f" ] && [ -n "$l" ]; then
			ratio=$(echo "${f%% *} ${l%% *}" | awk '{ printf ($2 > 0 ? "%.3g" : "—"), $1 / $2 }')
			echo "${f%% *} ${l%% *}" | awk '{ exit !($1 > $2) }' &&
				echo "$row: Folium ${f%% *} ms, Linux ${l%% *} ms (×$ratio)" >>"$TMP/slower"
			echo "${f%% *} ${l%% *} $row" >>"$TMP/both"
		fi
		nc=$(echo "$n" | awk '{ if (NF) printf "%.3f", $1 }')
		[ -n "$nc" ] || nc="—"
		evc=
		for e in $evid; do evc="$evc|$(ev folium "$e") / $(ev linux "$e")"; done
		label=$(echo "$row" | sed 's/^\([0-9]*\)/\1K/')
		md_row $row "$fc" "$lc" "$ratio" "$nc" | sed 's/ |$//' >"$TMP/line"
		printf '%s |' "$(cat "$TMP/line")" >>"$TMP/table.md"
		echo "$evc" | tr '|' '\n' | sed 1d | while IFS= read -r c; do printf ' %s |' "$c"; done \
			>>"$TMP/table.md"
		printf '\n' >>"$TMP/table.md"
		# gnuplot data: label, then median min max per kernel ("?" missing)
		printf '"%s" %s %s\n' "$label" "$(echo "$f" | awk '{ print NF ? $1 " " $2 " " $3 : "? ? ?" }')" \
			"$(echo "$l" | awk '{ print NF ? $1 " " $2 " " $3 : "? ? ?" }')" >>"$TMP/plot.dat"
	done <"$TMP/rows"
	cp "$TMP/plot.dat" "$TMP/plot-$rec.dat"
	echo "The time: $what, in ms; $(rec_env folium "$rec" runs) run(s) per boot," \
		"$(mlr --icsv --ojson stats1 -a max -f "${time}_count" "$TMP/time.csv" |
			sed -n 's/.*_count_max": \([0-9]*\).*/\1/p') boot(s) per kernel;" \
		"range $(($(rec_env folium "$rec" range_bytes) / 1048576)) MiB."
	echo
	cat "$TMP/table.md"
	echo
	if [ ! -f "$DIR/native-$rec.csv" ]; then
		# The program's own reason: the line before bench-sbs's "skipped".
		why=$(cat "$DIR"/native-*.log 2>/dev/null |
			awk '/^native: .*: skipped \(exit 77\)$/ { print prev; exit } { prev = $0 }')
		echo "No build-machine figures for this workload${why:+: $why}."
		echo
	fi
	if [ -s "$TMP/only" ]; then
		echo "A row marked \"only on\" is a folio size one kernel cannot make: Linux" \
			"$lk offers THP controls \"$(rec_env linux "$rec" thp_controls)\" (top-level:" \
			"2 MiB THP only, no mTHP sizes), Folium \"$(rec_env folium "$rec" thp_controls)\"."
		echo
	fi
	if [ -s "$TMP/both" ]; then
		awk '{ r = $1 > 0 ? $2 / $1 : 0; if (r > best) { best = r; row = $0 } }
			END { if (best > 0) { n = split(row, w, " "); k = w[3]; for (i = 4; i <= n; i++) k = k " " w[i]
				printf "Largest gap: %s, where Linux takes %.3g× Folium'"'"'s time.\n\n", k, best } }' "$TMP/both"
	fi
	if [ -s "$TMP/slower" ]; then
		echo "Folium is slower than Linux on:"
		sed 's/^/- /' "$TMP/slower"
	else
		echo "Folium is at least as fast as Linux on every row both kernels have."
	fi
	echo
}

# --- the section ------------------------------------------------------------

fk=$(rec_env folium madvise_free_sbs kernel)
lk=$(rec_env linux madvise_free_sbs kernel)
accels=$(for f in "$DIR"/folium-*.csv "$DIR"/linux-*.csv; do
	[ -f "$f" ] && sed -n 's/^# env: .*accel=\([a-z]*\).*/\1/p' "$f"
done | sort -u | paste -s -d ' ' -)
[ -n "$accels" ] || die "$DIR: no folium- or linux- records"
echo "## Same program, same QEMU: Folium and Linux"
echo
cat <<EOF
The same static programs (user/madvfree.c, faultrate.c, lazyfree.c, built
with musl; identical bytes on both kernels) ran on Folium $fk (the bench
kernel, CONFIG_DEBUG_VM=n) and on Debian's Linux $lk (linux-image-amd64,
no VM debugging), each booted $(env_val rounds) time(s) under the one QEMU line of
tools/qemu-run.sh, the kernels alternating and the order flipped every
round. Each cell is the median of the boots' medians, with the boots'
min–max; Folium / Linux below 1 means Folium is faster. "build machine" is
the same binary run natively on this machine's own Linux
$(rec_env native faults_sbs kernel) — a different kernel on real hardware
(accelerator: $(rec_env native faults_sbs accel)), shown for scale, not in the ratio.

EOF
case " $accels " in
*" tcg "*) cat <<'EOF'
**Emulated (TCG).** QEMU's TCG emulates the MMU in software: TLB flushes
and `rep stosb` cost far more than on hardware, so absolute times here are
not hardware times. The claim is the ratio between two kernels under the
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
echo "- QEMU, Folium: \`$(cat "$DIR/qemu-folium.txt" 2>/dev/null || echo unknown)\`"
echo "- QEMU, Linux: \`$(cat "$DIR/qemu-linux.txt" 2>/dev/null || echo unknown)\`"
echo
echo "![Folium and Linux in the same QEMU](${PNG##*/})"
echo
echo "$WORKLOADS" | {
	while IFS='|' read -r rec title keys time evid what; do
		workload "$rec" "$title" "$keys" "$time" "$evid" "$what"
	done
	cat <<'EOF'
Reading the evidence columns (Folium / Linux): splits is thp_split_page
across the call (Linux 6.1 splits PTE-mapped THPs before lazyfreeing,
Folium never does); folios and fallbacks are the kernel's own counts of
folios allocated at the row's size and of faults that fell back to a
smaller one; reclaimed is how much of the lazyfree range came back as
zero after the pressure and lost the bytes that were wrong (must be 0).
EOF
	# The plot: a panel per workload measured, bars per kernel.
	n=0
	for f in "$TMP"/plot-*.dat; do [ -f "$f" ] && n=$((n + 1)); done
	{
		echo "set terminal ${PNG_TERM:-png} size 1000,$((330 * n))"
		echo "set output '$PNG'"
		echo "set datafile missing '?'"
		echo "set multiplot layout $n,1 title 'Folium $fk and Linux $lk, same QEMU ($accels)'"
		echo "set style data histograms; set style histogram errorbars gap 1 lw 1"
		echo "set style fill solid 0.7 border -1; set logscale y; set grid ytics"
		echo "set key top left; set ylabel 'ms'; set xtics rotate by -30"
		echo "$WORKLOADS" | while IFS='|' read -r rec title keys time evid what; do
			[ -f "$TMP/plot-$rec.dat" ] || continue
			echo "set title '$title (median, min..max of boots)'"
			echo "plot '$TMP/plot-$rec.dat' using 2:3:4:xtic(1) title 'Folium', '' using 5:6:7 title 'Linux'"
		done
		echo "unset multiplot"
	} >"$TMP/sbs.gp"
	gnuplot "$TMP/sbs.gp" >"$TMP/gp.err" 2>&1 || { cat "$TMP/gp.err" >&2; die "gnuplot failed on $PNG"; }
	[ -s "$PNG" ] || die "gnuplot wrote no $PNG"
}
