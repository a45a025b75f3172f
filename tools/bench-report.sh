#!/bin/sh
# bench-report: the bench records of a run, OUTDIR/SOURCE-NAME.csv (SOURCE
# host, kernel or linux; written by tools/benchrec, format in
# include/benchrec.h), become OUTDIR/REPORT.md and a PNG per record and
# source. No column is named here: a table is its CSV, each header cell
# NAME[UNIT] shown as "NAME (UNIT)", and the rest follows from the units:
# - [count] columns (evidence counters) form a second table, keyed by the
#   first column;
# - tools/bench/upstream-NAME.csv is joined on its first column, and so are
#   the columns of linux-NAME.csv that host-NAME.csv also has (as linux_*);
# - a plot's x is the first column, its lines the columns timed in ns, us,
#   ms, s or cycles (alone or in a ratio: ns/op, bytes/cycle), one set per
#   value of the text columns (unit "-").
# Section prose (and a record's own, when a section shows several) and plot
# styles are keyed by record name (below); a record without prose goes under
# "Other records". Miller (mlr) checks, joins and tabulates the CSVs,
# gnuplot draws. OUTDIR/sbs/ (tools/bench-sbs.sh) becomes
# the section "Same program, same QEMU" (tools/sbs-report.sh). A malformed CSV stops the report with
# the file, line and reason. Kernel records (TSC cycles, usually under TCG)
# get their own plots (kernel-NAME.png), never host axes.
# Usage: sh tools/bench-report.sh OUTDIR    Exit: 0 REPORT.md written, 1 error.
# shellcheck disable=SC1010,SC2016,SC2086 # mlr's verbs chain with "then"; its DSL
# is single-quoted; lists of header cells are split into words on purpose.
set -euf	# no globbing: header cells hold [ ]

TOOLS=$(cd "$(dirname "$0")" && pwd)
UPSTREAM=$TOOLS/bench
NOT_MEASURED="not measured in this run"
EMULATED="emulated (TCG): compare ratios, not absolute times."
# The env keys every record carries (bench/benchrec.c), and linux's kernel.
MACHINE_KEYS="cpu kernel features clear_pages tsc_hz hypervisor emulated mem_bytes version
max_page_order pageblock_order thp thp_orders debug_vm"
tab=$(printf '\t')
IFS0=$(printf ' \t\nx')	# the default IFS, restored after splitting on commas
IFS0=${IFS0%x}

die() {
	echo "bench-report: $*" >&2
	exit 1
}

# --- what is keyed by record name: sections, prose, plot styles -------------

# Number | heading | the records it shows, in order.
SECTIONS='1|MADV_FREE: split vs batched|madvise_free madvise_pte_floor
2|Clearing: folio_zero_user and clear_pages|folio_zero_user clear_pages fill_bandwidth
3|Pageblock order|pageblock fragment
4|Page allocator: buddy vs bitmap|page_alloc page_alloc_mixed
5|Fork: batched vs per-page|fork_batching'
OTHER=6	# the section of every other record

# prose N: how to read section N's tables.
prose() {
	case $1 in
	1) cat <<'EOF'
Each row is madvise(MADV_FREE) of the whole range, faulted in with writes
in folios of one size, the best of `runs` (see the env line) per mode,
interleaved in alternating order: split = every large folio split, then
PTE by PTE (clear, rewrite old and clean), the flush gathered into one for
the range (Linux before the change); batched = one clear_young_dirty_ptes()
per folio and one flush; change = batched against split. With 4K folios
both do the same work and should agree within noise; at 2048K both age
the PMD (one invalidation per PMD). upstream_* are upstream's seconds on
its own machine: compare the shape across folio sizes, not the values.
The counter deltas (the second table) are the evidence of each path.
madvise_pte_floor holds two floors of the same run, each measured right
after MADV_DONTNEED and a refault, the state every timed MADV_FREE starts
from: one bare read of every PTE (time, per_pte) and a read and a store
back old and clean of every PTE (rw_time, rw_per_pte), the least a clear
of young and dirty costs; batched_read_floor and batched_rw_floor are
batched / each floor (x: how many times the floor). The program's text
output also gives both floors repeated at once, with warm tables.
EOF
	;;
	2) cat <<'EOF'
folio_zero_user: clear = the call (the fault's kernel time, upstream's
stime); touch = reading the faulting page and two pages either side right
after it (the user's first accesses, upstream's utime); medians, lower is
better. A strategy that clears the fault's neighbourhood last should keep
touch low wherever the fault lands. clear_pages: throughput of each way to
fill an extent, higher is better; the dashed line is the machine's fill
bandwidth (fill_bandwidth, host only). Small extents show start-up cost,
large ones memory bandwidth.
EOF
	;;
	3) cat <<'EOF'
One row per build (CONFIG_PAGE_BLOCK_ORDER; the host builds have THP off,
which would cap pageblock_order at 9). smallest_cma is what cma_reserve_area()
really reserved when asked for one page. The workload: 100K allocations
cycling through 8M, 4M, 2M, 1M, 64 B, 8 B and 4 B (2048, 1024, 512, 256, 1,
1, 1 pages); the large ones are movable and held in a FIFO of about 55% of
the node, the small ones unmovable in a FIFO of 6%, so they outlive many
large ones. alloc and free are per-call costs (the median over the runs in
the env line); fallbacks count allocations served from another
migratetype's list and steals the fallbacks that took over whole
pageblocks; unusable_2m is the percent of free memory not in free blocks of
>= 2 MiB with the live set held (Linux's unusable free space index at order
9): lower is better. Equal fallbacks, steals and unusable_2m across orders
mean the unmovable pages landed in the same places: a fallback takes the
largest free block and claims every pageblock in it, whatever their size.
cma_min_alignment is CMA_MIN_ALIGNMENT_BYTES, the last column of upstream's table.
EOF
	;;
	4) cat <<'EOF'
Cost of one alloc + one free per order, each row starting with all memory
free: single = alloc, free, repeat (the buddy allocator's per-CPU fast
path for orders 0-3 and 9); batch64, batch1024 = N allocs, then their N
frees (refills and drains of the per-CPU lists), run only where N blocks
fit in half the node; bulk64, bulk1024 = the buddy's N order-0 pages in
one alloc_pages_bulk call, freed one by one, against the bitmap's batchN
loop. page_alloc_mixed: a window of live blocks of random orders (0-3;
or 0-10, mostly small with now and then an order 4, 9 or 10), the oldest
freed as each new one is allocated. ratio = bitmap / buddy (above 1: the buddy allocator is
faster). The plots' y axis is logarithmic: equal distances are equal
ratios.
EOF
	;;
	5) cat <<'EOF'
Each row is one folio size (2048 twice: PTE-mapped, pmd_mapped 0, and
PMD-mapped, 1) of a parent faulted in with writes; the best of `runs` per
mode. fork = dup_mmap into a new mm; exit = that child's mm_destroy;
reuse = one byte written per folio after the child's exit; reuse4k = one
byte per page after another fork and exit (a folio reused whole takes one
fault, per_page_reuse4k_faults against batched_reuse4k_faults); copy = one
byte per folio while a child still maps it (a page copied per write);
munmap = vm_munmap of a freshly faulted range; mprotect = mprotect to
PROT_READ and back of another fresh range; mremap = that range moved by
its size + 64K (folios stay aligned, PTE tables do not: the PTEs move).
per_page runs with fork_copy_batched, zap_batched, wp_reuse_batched,
mprotect_batched and mremap_batched off (Linux before 6.9, 6.15's one-PTE
reuse, before 6.17; x86 Linux 7.3's mremap), batched with them on;
*_fork_runs count copy_present_ptes calls, *_mprotect_runs and
*_mremap_runs their batches. Upstream's cover letters (native): fork 16K -16%,
64K -26%, 512K-2M -30%; munmap 64K -37%, 2M -58%; reuse of PTE-mapped THP
-64% against copying it.
EOF
	;;
	*) echo "Records without a section of their own: each table is its CSV." ;;
	esac
	echo
}

# record_prose NAME: how to read record NAME, printed before its tables when
# its section shows other records too; nothing for most records.
record_prose() {
	case $1 in
	fragment) cat <<'EOF'
**fragment** (the experiment after mmtests' stress-highalloc): one row per
build (the pageblock orders above, THP off), each value the median over the
seeds in the env line, thp_*_min and _max its spread. Sixteen processes
fault in order-0 anonymous memory four at a time, their faults
interleaved, while kernel-like objects (alloc_pages of order 0..3,
unmovable or reclaimable) are made between the faults with lifetimes from
a few steps to for good, in eight bursts too; the user set churns at 88%
of the node. Then the load ends (all but two processes exit, only the
lifelong objects stay) and 2 MiB blocks are allocated until one fails:
thp_nocompact without compaction (a THP fault with defrag off),
thp_compact in all once the allocator may compact (direct compaction),
both as % of free memory / 2 MiB (free_2m) when the attempts start.
unusable_index and fragmentation_index are Linux's at order 9 (its debugfs
extfrag files), before and after the attempts without compaction: 1.000
is no free 2 MiB block at all; a fragmentation index near 1 says the
failure is fragmentation, not lack of memory. Counters: unmovable_2m = 2
MiB blocks holding a page compaction cannot move (what caps thp_compact);
mixed = pageblocks holding an allocation of another migratetype (Linux's
"Number of mixed blocks" in /proc/pagetypeinfo; it counts pageblocks, so a
2 MiB block of small pure pageblocks of two types is not mixed: across
orders, compare unmovable_2m); fallbacks and steals over the whole run;
compact_* and pgmigrate_success = what the attempts with compaction did,
compact_time their cost. hugetlb_nocompact and hugetlb_compact: the same
seed's workload run again on a fresh node (the same requests, so the same
free_2m), then the HugeTLB pool raised page by page through Linux's
set_max_huge_pages (`__GFP_RETRY_MAYFAIL`) until it stops growing: the
pages before the first compaction stall, and all of them. Linux retries a
costly `__GFP_RETRY_MAYFAIL` order only while compaction reports success
or a lack of targets reclaim could fix (should_compact_retry), never below
sync-light priority, so where compaction ran out of movable memory the
pool gets what a THP fault with defrag on gets. Reading it: thp_nocompact across
the builds is what grouping by mobility does alone. Where fallbacks,
steals, mixed and unmovable_2m agree in every row, every fallback of the
run found a free block of MAX_PAGE_ORDER and claimed it whole, so the
kernel's pages sit in the same 2 MiB blocks whatever the pageblock size:
without compaction the order then has no measurable effect. thp_compact is
what compaction makes of the same memory. Folium's free scanner is Linux's
linear one, which takes no pages from a free block of pageblock order or
more (suitable_migration_target): the smaller the pageblock, the fewer
free pages may receive the migrated ones, and compaction runs out of
targets. Linux first searches the free lists below the requested order
(fast_isolate_freepages, not in Folium), which softens this. What a small
pageblock buys is on the left axis: the smallest CMA area.

EOF
	;;
	esac
}

# style NAME: set title and style, how record NAME is shown: "lines" with
# logx, logy, right=% (% columns on a right axis; right=NAME,... only
# those), y=NAME,... (those columns on the left axis instead of the timed
# ones), ref=RECORD (RECORD's rows as dashed levels, its table after the
# plot), and a column with NAME_min and NAME_max beside it drawn with them as
# error bars; "bars" (a panel per
# first-column value and timed column, bars per the last text column
# grouped by the first); "none" (no plot); "ref" (only with its referrer).
style() {
	title=$1
	case $1 in
	madvise_free) title="madvise(MADV_FREE) of the range, split vs batched"
		style="lines logx logy" ;;
	folio_zero_user) title="folio_zero_user() per strategy and fault position"
		style=bars ;;
	clear_pages) title="clear_pages() throughput per extent"
		style="lines logx ref=fill_bandwidth" ;;
	pageblock) title="100K allocations (8M..4 B) per pageblock order"
		style="lines right=%" ;;
	fragment) title="2 MiB blocks after a fragmenting load, and the smallest CMA area"
		style="lines logy y=smallest_cma right=thp_nocompact,thp_compact,hugetlb_compact" ;;
	page_alloc) title="one alloc + one free, buddy vs bitmap" style="lines logy" ;;
	fork_batching) title="fork, exit, reuse, copy, munmap, mprotect and mremap per folio size, per-page vs batched"
		style="lines logx logy" ;;
	madvise_pte_floor | page_alloc_mixed) style=none ;;
	fill_bandwidth) style=ref ;;
	*) style=lines ;;
	esac
}

# --- reading and checking the CSVs ------------------------------------------

# columns CSV: read a normalized CSV's header into X (the first cell), NAMES
# (every name, unit dropped) and lists of the other cells by unit: TEXTS
# ("-"), TIMED (ns, us, ms, s or cycles, alone or in a ratio: ns/op,
# bytes/cycle), PCTS (%), COUNTS ("count", comma-separated). Header cells hold
# no space or comma, so the lists are words. Shell builtins only: it runs for
# every table and plot.
columns() {
	IFS= read -r h <"$1" || true
	X=${h%%,*} NAMES='' TEXTS='' TIMED='' PCTS='' COUNTS=''
	IFS=,
	for c in $h; do
		NAMES="${NAMES:+$NAMES }${c%%[*}"
		u=${c#*[}
		u=${u%]}
		[ "$c" != "$X" ] || continue
		case /$u/ in
		/-/) TEXTS="$TEXTS $c" ;;
		/%/) PCTS="$PCTS $c" ;;
		/count/) COUNTS="${COUNTS:+$COUNTS,}$c" ;;
		*/ns/* | */us/* | */ms/* | */s/* | */cycle/* | */cycles/* | */[KMG]cycles/*)
			TIMED="$TIMED $c" ;;
		esac
	done
	IFS=$IFS0
}

unit() { u=${1#*[}; echo "${u%]}"; }
list() { echo $1 | tr ' ' ,; }

# env_of BASE KEY: KEY's value in the first env line of BASE.csv.
env_of() {
	while IFS=$tab read -r k v; do
		[ "$k" != "$2" ] || { printf '%s\n' "$v"; return 0; }
	done <"$TMP/$1.env1"
}

# path BASE: the CSV a base name came from.
path() {
	case $1 in upstream-*) echo "$UPSTREAM/$1.csv" ;; *) echo "$OUT/$1.csv" ;; esac
}

# check_header BASE: BASE.raw's first line that is not a comment is the
# header, every cell NAME[UNIT].
check_header() {
	hl=$(grep -n -m 1 -v '^#' "$TMP/$1.raw") || die "$(path "$1"): no header row"
	case $hl in *,) hl="$hl,-" ;; esac	# a last, empty cell
	IFS=,
	for c in ${hl#*:}; do
		n=${c%%[*} u=${c#*[}
		u=${u%]}
		case $c in
		?*\[*\]) case $n in "" | *[!A-Za-z0-9_]*) ;; *) case $u in "" | *]* | *" "*) ;; *) continue ;; esac ;; esac
			why="is not NAME[UNIT]" ;;
		*) why="has no [unit] (want NAME[UNIT])" ;;
		esac
		die "$(path "$1"): line ${hl%%:*}: header cell \"${c%-}\" $why"
	done
	IFS=$IFS0
}

# check BASE...: OUTDIR/BASE.csv (or tools/bench/BASE.csv) has NAME[UNIT]
# header cells, as many fields and a number (unit not "-") in every row, at
# least one row, and env lines that say its source (BASE up to "-"; not for
# upstream-*). Writes $TMP/BASE.csv (no comments, no repeated headers, which
# concatenated records have), $TMP/BASE.env (LINE TAB KEY TAB VALUE per env
# pair, quotes removed) and $TMP/BASE.env1 (KEY TAB VALUE, the first env line).
check() {
	for b; do
		sed 's/\r$//; s/^[[:space:]]*$/#/' "$(path "$b")" >"$TMP/$b.raw"	# same line numbers
		check_header "$b"
		: >"$TMP/$b.env"
		: >"$TMP/$b.env1"
	done
	msg=$(cd "$TMP" && for b; do echo "$b.raw"; done | xargs mlr -S --icsvlite --skip-comments \
		--ocsv filter -x 'joink($*, ",") == joinv($*, ",")' then put -q '
		b = sub(FILENAME, "\.raw$", "");
		for (k, v in $*) {
			if (!(k =~ "\[-\]$") && !(v =~ "^[-+]?[0-9]+(\.[0-9]+)?$")) {
				print b . " " . FNR . " " . k . " is \"" . v . "\", not a number"
			}
		}
		tee > b . ".csv", $*' 2>&1 |
		sed 's/.*mismatch \([0-9]*\) != \([0-9]*\) at filename \(.*\)\.raw line *\([0-9]*\).*/\3 @\4: \2 fields, the header has \1/' |
		head -n 1)
	b=${msg%% *} msg=${msg#* }
	case $msg in
	"") ;;
	@*) die "$(path "$b"): line ${msg#@}" ;;
	[1-9]*) die "$(path "$b"): line $(grep -n -v '^#' "$TMP/$b.raw" | cut -d: -f1 |
		sed -n "$((${msg%% *} + 1))p"): ${msg#* }" ;;
	*) die "$b $msg" ;;
	esac
	for b; do [ -f "$TMP/$b.csv" ] || die "$(path "$b"): no data rows"; done
	# One env line a record, fields 1 BASE, 2 LINE, then "KEY=VALUE" (quotes
	# moved around the pair), under a header of 999 fields: mlr's reader
	# fills a shorter line, and would drop the pairs of a longer one.
	(cd "$TMP" && { seq -s ' ' 999; for b; do echo "$b.raw"; done | xargs grep -H -n '^# env: ' |
		sed 's/^\(.*\)\.raw:\([0-9]*\):# env: /\1 \2 /; s/\([^ =]*\)="\([^"]*\)"/"\1=\2"/g'; } |
	mlr -S --icsv --allow-ragged-csv-input --ifs space --onidx put -q '
		m = {"source": ""};
		for (k, v in mapexcept($*, "1", "2")) {
			if (v != "") { m[sub(v, "=.*", "")] = sub(v, "^[^=]*=", "") }
		}
		@first[$1] = is_present(@first[$1]) ? @first[$1] : $2;
		for (k, v in m) {
			print > $1 . ".env", $2 . "\t" . k . "\t" . v;
			if ($2 == @first[$1]) { print > $1 . ".env1", k . "\t" . v }
		}
		src = sub($1, "-.*", "");
		if (src != "upstream" && m["source"] != src) {
			print $1 . " " . $2 . ": env says source=" . m["source"] . ", the file name says " . src
		}' >wrong) || die "$OUT: an env line mlr cannot read (see above)"
	read -r b msg <"$TMP/wrong" || return 0
	die "$(path "$b"): line $msg"
}

# load: check every OUTDIR/*.csv and the upstream CSVs for them; set RECORDS
# (each record name once, in file order) and BASES (SOURCE-NAME).
load() {
	RECORDS='' BASES='' ups=''
	set +f
	set -- "$OUT"/*.csv
	set -f
	for f; do
		b=${f##*/}
		b=${b%.csv}
		case $b in
		host-?* | kernel-?* | linux-?*) ;;
		*) die "$f: not named SOURCE-NAME.csv, SOURCE host, kernel or linux" ;;
		esac
		BASES="$BASES $b"
		case " $RECORDS " in *" ${b#*-} "*) continue ;; esac
		RECORDS="$RECORDS ${b#*-}"
		[ ! -f "$UPSTREAM/upstream-${b#*-}.csv" ] || ups="$ups upstream-${b#*-}"
	done
	check $BASES $ups
	for b in $BASES; do
		host=$TMP/host-${b#*-}.csv
		case $b in
		linux-*) [ -f "$host" ] || die "$OUT/$b.csv: no ${host##*/} to set it beside" ;;
		kernel-*)
			[ -f "$host" ] || continue
			columns "$host"
			hn=$NAMES
			columns "$TMP/$b.csv"
			[ "$NAMES" = "$hn" ] || die "$OUT/$b.csv: columns $(list "$NAMES") differ from" \
				"${host##*/}'s $(list "$hn")" ;;
		esac
	done
}

# --- tables -------------------------------------------------------------------

# md CSV VERB...: CSV through mlr VERB... as a Markdown table, header cells
# "name (unit)" ("name" for text), numbers right-aligned.
md() {
	mdf=$1
	shift
	mlr -S --icsv --omd "$@" then rename -r '^(.*)\[-\]$,\1' \
		then rename -r '^(.*)\[(.*)\]$,\1 (\2)' "$mdf" | align
	echo
}

# align: a Markdown table's rule row made from its header: "---:" under a
# "name (unit)" cell, "---" under the others.
align() {
	sed '1h; 2{ g; s/[^|]*)[[:space:]]*|/---:|/g; s/|[^|:-][^|]*/|---/g; }'
}

# join_onto CSV OTHER: OTHER's columns added to CSV's rows, matched on
# OTHER's first column; rows OTHER lacks get empty cells.
join_onto() {
	columns "$1"
	names=$NAMES
	columns "$2"
	case " $names " in *" ${X%%[*} "*) ;; *) die "$1: no column $X to join ${2##*/} on" ;; esac
	IFS= read -r h <"$2"
	mlr -S --csv join --ur -j "$X" -f "$2" then unsparsify then reorder -e -f "${h#*,}" \
		"$1" >"$1.new"
	mv "$1.new" "$1"
}

# linux_columns NAME: linux-NAME.csv's first column and the columns
# host-NAME.csv also has, renamed linux_*; nothing if there are none.
linux_columns() {
	columns "$TMP/host-$1.csv"
	names=$NAMES
	columns "$TMP/linux-$1.csv"
	same=
	for nm in ${NAMES#* }; do
		case " ${names#* } " in *" $nm "*) same="${same:+$same|}$nm" ;; esac
	done
	[ -n "$same" ] || return 0
	mlr -S --csv cut -r -f "^(${X%%[*}|$same)\\[" then rename -r "^($same)\\[,linux_\\1[" \
		"$TMP/linux-$1.csv"
}

# tables SOURCE NAME: the record's table with what is joined to it, the
# sentence on Linux's columns, the plot, the table of its counters.
tables() {
	f=$TMP/$1-$2.csv
	cp "$f" "$TMP/joined.csv"
	[ ! -f "$TMP/upstream-$2.csv" ] || join_onto "$TMP/joined.csv" "$TMP/upstream-$2.csv"
	if [ "$1" = host ] && [ -f "$TMP/linux-$2.csv" ]; then
		linux_columns "$2" >"$TMP/linux.csv"
		[ ! -s "$TMP/linux.csv" ] || join_onto "$TMP/joined.csv" "$TMP/linux.csv"
	fi
	columns "$f"
	if [ -n "$COUNTS" ]; then
		md "$TMP/joined.csv" cut -x -f "$COUNTS"
	else
		md "$TMP/joined.csv" cat
	fi
	IFS= read -r h <"$TMP/joined.csv"
	if case ,$h in *,linux_*) true ;; *) false ;; esac then
		echo "linux_*: the same workload on the build machine's own Linux" \
			"$(env_of "linux-$2" kernel) — a different kernel, on the machine's real" \
			"page tables and TLB; batched only (tools/linux-madvise-free, median of" \
			"$(env_of "linux-$2" runs) runs)."
		echo
	fi
	png=$(png_name "$1" "$2")
	if [ -f "$OUT/$png.png" ]; then
		printf '![%s, %s](%s.png)\n\n' "$title" "$1" "$png"
	elif [ "$style" != none ]; then
		printf 'One %s value only: no plot.\n\n' "${X%%[*}"
	fi
	[ -z "$COUNTS" ] || md "$f" cut -o -f "$X,$COUNTS"
	ref=${style#*ref=}
	[ "$ref" = "$style" ] || [ ! -f "$TMP/$1-$ref.csv" ] || md "$TMP/$1-$ref.csv" cat
}

# --- the report's prose ---------------------------------------------------------

# ran_on BASE: which machine a record ran on, and its own env parameters.
ran_on() {
	hv=$(env_of "$1" hypervisor)
	case $(env_of "$1" source) in
	host) where="host-native (a Linux process) on $(env_of "$1" cpu)"
		[ "$hv" = none ] || where="$where, under the hypervisor $hv" ;;
	*) where="the Folium kernel on \"$(env_of "$1" cpu)\""
		[ "$hv" = none ] || where="$where, under $hv" ;;
	esac
	printf 'Ran on: %s; clear_pages=%s, debug_vm=%s.' "$where" \
		"$(env_of "$1" clear_pages)" "$(env_of "$1" debug_vm)"
	[ "$(env_of "$1" emulated)" != yes ] || printf ' **%s**' "$EMULATED"
	printf '\n\n'
	while IFS=$tab read -r k v; do
		case " source $MACHINE_KEYS " in *[[:space:]]"$k"[[:space:]]*) continue ;; esac
		case $k in *bytes) v="$v ($(human_bytes "$v"))" ;; esac
		printf '%s=%s\n' "$k" "$v"
	done <"$TMP/$1.env1" | paste -s -d ';' - | sed -n 's/;/; /g; s/^./Parameters: &/p' |
		sed 's/$/.\n/'
}

# human_bytes N: 1073741824 -> "1 GiB".
human_bytes() {
	size=$1
	for u in bytes KiB MiB GiB TiB; do
		if [ "$size" -lt 1024 ] || [ $((size % 1024)) != 0 ] || [ $u = TiB ]; then break; fi
		size=$((size / 1024))
	done
	echo "$size $u"
}

# machines: one column per source, one row per MACHINE_KEYS key; several
# values (records of different builds) listed, numbers ascending.
machines() {
	echo "## Machines"
	echo
	for b in $BASES; do sed "s/^[0-9]*/${b%%-*}/" "$TMP/$b.env"; done |
	mlr --itsv --implicit-tsv-header --omd label source,key,value \
		then put -s keys=" $(echo "$MACHINE_KEYS" | tr '\n' ' ') " '
			$rank = strlen(sub(@keys, " " . $key . " .*", ""));
			filter $rank < strlen(@keys);
			$n = is_numeric($value) ? $value : ""' \
		then count-distinct -f rank,key,source,value,n then sort -nf n then put '
			if ($key == "mem_bytes" && $value != 0) {
				$value .= " (" . fmtnum($value / 1073741824, "%.3g") . " GiB)"
			} elif ($key == "tsc_hz") {
				$value .= $value == 0 ? " (unknown)" : " (" . fmtnum($value / 1e9, "%.3g") . " GHz)"
			}' \
		then cut -f rank,key,source,value then nest --ivar ", " -f value then sort -nf rank \
		then reshape -s source,value then unsparsify then cut -x -f rank then rename key, |
		align
	echo
	echo "A key with several values differs between records (e.g. one pageblock"
	echo "record per build). The kernel's tsc_hz is the rate its cycle counts run at."
	echo
}

# upstream NAME...: the upstream figures kept for these records, or why none.
upstream() {
	echo "### Upstream"
	echo
	said=
	for n in "$@"; do
		if [ -f "$UPSTREAM/upstream-$n.csv" ]; then
			echo "The upstream_* columns above, from:"
			echo
			sed -n '/^# title:/d; s/^# \([a-z]*\): /- \1: /p' "$UPSTREAM/upstream-$n.csv"
			echo
			said=1
		fi
		if [ -f "$UPSTREAM/upstream-$n.md" ]; then
			cat "$UPSTREAM/upstream-$n.md"
			echo
			said=1
		fi
	done
	[ -n "$said" ] || printf '%s\n\n' "upstream figures: not quoted — source not available offline."
}

# section N HEADING NAME...: the heading, prose, each record per source, upstream.
section() {
	echo "## $1. $2"
	echo
	prose "$1"
	sec=$1
	shift 2
	for name; do
		if [ ! -f "$TMP/host-$name.csv" ] && [ ! -f "$TMP/kernel-$name.csv" ]; then
			echo "$name: $NOT_MEASURED (no host-$name.csv or kernel-$name.csv)."
			echo
			continue
		fi
		style "$name"
		[ "$style" != ref ] || continue
		[ "$#" = 1 ] || record_prose "$name"
		for s in host kernel; do
			echo "### $s: $name"
			echo
			if [ -f "$TMP/$s-$name.csv" ]; then
				ran_on "$s-$name"
				tables "$s" "$name"
			else
				echo "$s-$name.csv: $NOT_MEASURED."
				echo
			fi
		done
	done
	[ "$sec" = "$OTHER" ] || upstream "$@"
}

# --- plots ------------------------------------------------------------------

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
# The script is read to the end (and the data files it names written)
# before gnuplot starts. A failure ends the report.
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

# png_name SOURCE NAME: host plots are NAME.png, the others SOURCE-NAME.png.
png_name() {
	if [ "$1" = host ]; then echo "$2"; else echo "$1-$2"; fi
}

# who BASE: a plot title's machine: the CPU, or the kernel and its emulator.
who() {
	if [ "$(env_of "$1" source)" = host ]; then
		echo "host: $(env_of "$1" cpu)"
	elif [ "$(env_of "$1" emulated)" = yes ]; then
		echo "kernel under TCG (emulated): compare ratios only"
	else
		echo "kernel: $(env_of "$1" cpu)"
	fi | tr -d "'"
}

# axis CELL: "name (unit)", or just "name" if it ends in its unit.
axis() {
	case ${1%%[*} in
	*"$(unit "$1")") echo "${1%%[*}" ;;
	*) echo "${1%%[*} ($(unit "$1"))" ;;
	esac
}

# units CELL...: their units, each once, ", "-separated.
units() {
	us=
	for c; do
		case ", $us, " in *", $(unit "$c"), "*) ;; *) us="${us:+$us, }$(unit "$c")" ;; esac
	done
	echo "$us"
}

# with_spread CSV CELLS: CELLS and the NAME_min, NAME_max cells of each, in
# CSV's header order, comma-separated: a data file's columns after x.
with_spread() {
	IFS= read -r hdr <"$1"
	sel=
	for c in $(echo "$hdr" | tr , ' '); do
		for y in $2; do
			case ${c%%[*} in
			"${y%%[*}" | "${y%%[*}_min" | "${y%%[*}_max") sel="${sel:+$sel,}$c" && break ;;
			esac
		done
	done
	echo "$sel"
}

# field_of LIST CELL: CELL's field in a data file whose columns are x, then
# the comma-separated LIST; 0 if it is not there.
field_of() {
	k=1
	for c in $(echo "$1" | tr , ' '); do
		k=$((k + 1))
		[ "$c" != "$2" ] || { echo $k; return 0; }
	done
	echo 0
}

# series TAG CSV COLS STYLE [PREFIX]: plot clauses, one line per cell in COLS
# (against CSV's first column) and per value of CSV's text columns, data in
# $TMP/TAG-N.dat; a cell with NAME_min and NAME_max beside it gets them as
# error bars. A line's colour is its column's place in $COLOURS (linux_ and
# upstream_ ignored), its dash the text value.
series() {
	tag=$1
	columns "$2"
	[ -n "$3" ] || return 0
	set -- "$2" "$3" "$4" "${5:-}" "$(unit "$X")" "$(with_spread "$2" "$3")"
	mlr -S --icsv --onidx --ofs ' ' put -q -s texts="$(list "$TEXTS")" -s pre="$TMP/$tag-" \
		-s cols="$X,$6" -s x="$X" -s bytes="$5" 'begin { @idx = {} }
		g = joinv(mapselect($*, splitax(@texts, ",")), ", ");
		if (!haskey(@idx, "=" . g)) { @idx["=" . g] = length(@idx) + 1; print @idx["=" . g] . "\t" . g }
		n = @idx["=" . g];
		$* = mapselect($*, splitax(@cols, ","));
		v = $[@x];
		e = 1;
		if (@bytes == "bytes") {
			v = int(v);
			while (v >= 1024 && v % 1024 == 0 && e < 5) { v = v / 1024; e += 1 }
		}
		$tic = v . ["", "K", "M", "G", "T"][e];
		tee > @pre . n . ".dat", $*' "$1" >"$TMP/$tag.groups"
	n=$(($(echo "$6" | tr , ' ' | wc -w) + 2))	# the tic column
	while IFS=$tab read -r g vals; do
		for y in $2; do
			using="1:$(field_of "$6" "$y")"
			lo=$(field_of "$6" "${y%%[*}_min[$(unit "$y")]")
			hi=$(field_of "$6" "${y%%[*}_max[$(unit "$y")]")
			with=linespoints
			[ "$lo" = 0 ] || [ "$hi" = 0 ] || { using="$using:$lo:$hi"; with=yerrorlines; }
			y=${y%%[*}
			y=${y#linux_}
			lc=1
			for c in $COLOURS; do [ "$c" != "${y#upstream_}" ] || break; lc=$((lc + 1)); done
			printf "'%s' using %s:xtic(%d) with %s lc %s dt %s %s title '%s%s%s', " \
				"$TMP/$tag-$g.dat" "$using" $n $with $lc "$g" "$3" "$4" "$y" "${vals:+, $vals}"
		done
	done <"$TMP/$tag.groups"
}

# style_opt KEY: the value of KEY=VALUE in $style; nothing if none.
style_opt() {
	case " $style " in *" $1="*) o=${style#*" $1="} && echo "${o%% *}" ;; esac
}

# named CSV NAMES: CSV's header cells named in the comma-separated NAMES, in
# header order, each after a space (as columns() lists them).
named() {
	IFS= read -r hdr <"$1"
	for c in $(echo "$hdr" | tr , ' '); do
		case ",$2," in *",${c%%[*},"*) printf ' %s' "$c" ;; esac
	done
}

# plot_lines SOURCE NAME: x = the first column, a line per timed column (or
# per y= column) and text value; % (or right= columns) on a right axis,
# linux's same columns dashed and reference levels if the style says so; on
# the host, the upstream figures beside.
plot_lines() {
	f=$TMP/$1-$2.csv
	columns "$f"
	[ "$(mlr -S --icsv --onidx count-distinct -f "$X" then count "$f")" -ge 2 ] || return 0
	up=$TMP/upstream-$2.csv
	[ "$1" = host ] && [ -f "$up" ] || up=
	case $style in
	*right=%*) ;;
	*right=*) PCTS=$(named "$f" "$(style_opt right)") ;;
	*) PCTS= ;;
	esac
	[ -z "$(style_opt y)" ] || TIMED=$(named "$f" "$(style_opt y)")
	COLOURS=$(echo $TIMED $PCTS | sed 's/\[[^ ]*//g')
	{
		echo "set multiplot layout 1,$([ -n "$up" ] && echo 2 || echo 1) title '$title, $(who "$1-$2")'"
		case $style in *logx*) echo "set logscale x 2" ;; esac
		case $style in *logy*) echo "set logscale y" ;; *) echo "set yrange [0:*]" ;; esac
		echo "set key below; set offsets graph 0.03, graph 0.03, 0, 0"
		echo "set xlabel '$(axis "$X")'; set ylabel '$(units $TIMED)'"
		if [ "$(units $TIMED)" = bytes ]; then	# binary prefixes: 8 KiB, 4 MiB
			echo "set format y '%.0b %BB'"
			case $style in *logy*) echo "set logscale y 2" ;; esac
		fi
		[ -z "$PCTS" ] || echo "set y2label '%'; set y2range [0:*]; set y2tics; set ytics nomirror"
		[ -z "$up" ] || echo "set title 'Folium'"
		printf 'plot '
		pcts=$PCTS
		series main "$f" "$TIMED" ""
		series right "$f" "$pcts" "lw 2 axes x1y2" "right axis: "
		if [ "$1" = host ] && [ -f "$TMP/linux-$2.csv" ]; then
			linux_columns "$2" >"$TMP/l.csv"
			if [ -s "$TMP/l.csv" ]; then
				columns "$TMP/l.csv"
				series linux "$TMP/l.csv" "$TIMED" "" \
					"Linux $(env_of "linux-$2" kernel) (this machine): " | sed 's/ dt [0-9]*/ dt 2/g'
			fi
		fi
		ref=${style#*ref=}
		[ "$ref" = "$style" ] || [ ! -f "$TMP/$1-$ref.csv" ] || levels "$TMP/$1-$ref.csv" "$f"
		echo "NaN notitle"
		if [ -n "$up" ]; then
			columns "$up"
			echo "set title 'upstream: $(sed -n 's/^# title: //p' "$UPSTREAM/upstream-$2.csv" | tr -d "'")'"
			echo "set ylabel '$(units $TIMED)'; set y2label ''"
			printf 'plot '
			series up "$up" "$TIMED" ""
			echo "NaN notitle"
		fi
		echo "unset multiplot"
	} | plot "$(png_name "$1" "$2")" "$([ -n "$up" ] && echo 1120 || echo 900)" 480
}

# levels CSV OF: a dashed level per row of CSV, at its first timed column if
# OF's timed columns have that unit, titled with its text values.
levels() {
	columns "$2"
	unit=$(units $TIMED)
	columns "$1"
	[ "$(unit "$X")" != - ] || TEXTS="$X $TEXTS"
	ref=${1##*/}
	ref=${ref#*-}
	for y in $TIMED; do
		[ "$(unit "$y")" = "$unit" ] || continue
		mlr -S --icsv --onidx --ofs "$tab" cut -o -f "$(list "$TEXTS $y")" "$1" |
		while IFS= read -r row; do
			printf "%s with lines lc black dt 2 lw 2 title '%s: %s (%s)', " "${row##*"$tab"}" \
				"${ref%.csv}" "$(echo "${row%"$tab"*}" | tr "$tab" ' ')" "$unit"
		done
		return
	done
}

# plot_bars SOURCE NAME: a panel per value of the first column and timed
# column; bars per value of the last text column, grouped by the first.
plot_bars() {
	f=$TMP/$1-$2.csv
	columns "$f"
	set -- "$@" ${TEXTS% *}	# $3: the first text column
	[ -n "${3:-}" ] && [ "$3" != "${TEXTS##* }" ] && [ -n "$TIMED" ] || return 0
	values=$(mlr -S --icsv --onidx count-distinct -f "$X" then cut -f "$X" "$f")
	rows=$(echo "$values" | wc -l)
	{
		echo "set multiplot layout $rows,$(echo $TIMED | wc -w) title '$title, $(who "$1-$2")'"
		echo "set style data histograms; set style histogram clustered gap 1"
		echo "set style fill solid 0.8 border -1; set boxwidth 0.9; set yrange [0:*]"
		echo "set key below horizontal samplen 2; set format y '%.1s%c'"
		echo "set datafile separator comma"
		for v in $values; do
			for y in $TIMED; do
				dat=$TMP/bars-$v-${y%%[*}.csv
				mlr -S --icsv --ocsv filter "\${$X} == \"$v\"" then cut -o -f "$3,${TEXTS##* },$y" \
					then reshape -s "${TEXTS##* },$y" then unsparsify "$f" >"$dat"
				IFS= read -r h <"$dat"
				echo "set title '${X%%[*} $v $(unit "$X"): ${y%%[*}'"
				echo "set ylabel '$(axis "$y")'"
				echo "plot for [i=2:$(($(echo "$h" | tr , ' ' | wc -w)))] '$dat' using i:xtic(1) title columnheader(i)"
			done
		done
		echo "unset multiplot"
	} | plot "$(png_name "$1" "$2")" 1000 $((420 * rows))
}

# --- main -----------------------------------------------------------------

[ $# -eq 1 ] || die "usage: sh tools/bench-report.sh OUTDIR"
OUT=${1%/}
[ -d "$OUT" ] || die "$OUT is not a directory"
set +f
set -- "$OUT"/*.csv
set -f
[ -f "$1" ] || die "$OUT has no *.csv — run make bench first"
command -v mlr >/dev/null 2>&1 || die "mlr not found (Debian: apt-get install miller)"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM
load
pick_terminal
for b in $BASES; do
	case $b in linux-*) continue ;; esac
	rm -f "$OUT/$(png_name "${b%%-*}" "${b#*-}").png"
	style "${b#*-}"
	case $style in
	lines*) plot_lines "${b%%-*}" "${b#*-}" ;;
	bars) plot_bars "${b%%-*}" "${b#*-}" ;;
	esac
done

# The side-by-side (tools/bench-sbs.sh wrote OUTDIR/sbs/): its own section.
if [ -d "$OUT/sbs" ]; then
	PNG_TERM=$PNG_TERM sh "$TOOLS/sbs-report.sh" "$OUT/sbs" "$OUT/sbs.png" >"$TMP/sbs.md" ||
		die "the side-by-side section failed (tools/sbs-report.sh $OUT/sbs)"
else
	printf '%s\n\n' "## Same program, same QEMU: Folium and Linux" \
		"$NOT_MEASURED (no $OUT/sbs/: make bench runs it, make bench-sbs alone)." >"$TMP/sbs.md"
fi
{
	echo "# Folium benchmark report"
	echo
	echo "Made by tools/bench-report.sh from the $# CSV files in \`$OUT\`. Each"
	echo "table names the machine it ran on. Host tables time a Linux process, kernel"
	echo "tables run inside Folium in TSC cycles; the two never share a plot axis."
	echo
	machines
	echo "$SECTIONS" | while IFS='|' read -r n heading names; do
		section "$n" "$heading" $names
	done
	cat "$TMP/sbs.md"
	others=$(echo "$RECORDS" | tr ' ' '\n' | grep -v -x -F "$(echo "$SECTIONS" | cut -d '|' -f 3 |
		tr ' ' '\n')" | grep . | paste -s -d ' ' -) || true
	[ -z "$others" ] || section "$OTHER" "Other records" $others
} >"$TMP/REPORT.md"
mv "$TMP/REPORT.md" "$OUT/REPORT.md"
echo "bench-report: wrote $OUT/REPORT.md and $(grep -c '^!\[' "$OUT/REPORT.md") PNG files"
