#!/bin/sh
# bench-report-test.sh: run tools/bench-report.sh on the saved records in
# tools/tests/bench-report/ (full/: every table, host and kernel; partial/:
# only host-madvise_free.csv), on copies with a record and a column the
# report has never seen and with Linux's own record, and check REPORT.md,
# the PNGs, and the errors for an empty directory, each kind of broken CSV
# and a failing gnuplot.
# Usage: sh tools/tests/bench-report-test.sh
# Prints one line per check, then "bench-report-test: N passed, N failed";
# exits 1 on any failure.
set -u

here=$(cd "$(dirname "$0")/.." && pwd)
fixtures=$here/tests/bench-report
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

# report DIR: run the report on DIR; its output in $out, exit status in $status.
report() {
	out=$(sh "$here/bench-report.sh" "$1" 2>&1)
	status=$?
}

# fixture NAME: a fresh copy of a fixture set.
fixture() {
	rm -rf "${tmp:?}/$1"
	cp -R "$fixtures/$1" "$tmp/$1"
	echo "$tmp/$1"
}

# edit FILE SED_SCRIPT: change a fixture copy in place.
edit() {
	sed "$2" "$1" >"$1.new" && mv "$1.new" "$1"
}

expect_status() {
	if [ "$status" = "$2" ]; then verdict ok "$1: exit $status"
	else verdict FAIL "$1: exit $status (want $2)" "$out"; fi
}

# has NAME FILE TEXT: FILE holds the fixed string TEXT.
has() {
	if grep -qF -- "$3" "$2"; then verdict ok "$1"
	else verdict FAIL "$1: no '$3' in ${2##*/}"; fi
}

# said NAME TEXT: the report's output holds TEXT.
said() {
	if printf '%s\n' "$out" | grep -qF -- "$2"; then verdict ok "$1"
	else verdict FAIL "$1: want '$2' in the output" "$out"; fi
}

# png NAME: DIR/NAME is a non-empty file starting with the PNG signature.
png() {
	sig=$(od -An -tx1 -N8 "$1/$2" 2>/dev/null | tr -d ' \n')
	if [ -s "$1/$2" ] && [ "$sig" = 89504e470d0a1a0a ]; then verdict ok "$2 is a PNG"
	else verdict FAIL "$2 is not a PNG (signature '$sig')"; fi
}

absent() {
	if [ ! -e "$1/$2" ]; then verdict ok "no $2"
	else verdict FAIL "$2 exists"; fi
}

# each_subsection NAME REPORT PREFIX TEXT: every "### PREFIX..." subsection
# of a numbered section holds TEXT (Upstream and Machines are not looked at).
each_subsection() {
	bad=$(awk -v prefix="### $3" -v text="$4" '
	function done_sub() { if (cur != "" && !found) print cur; cur = "" }
	/^##/ { done_sub() }
	index($0, prefix) == 1 { cur = $0; found = 0; next }
	cur != "" && index($0, text) { found = 1 }
	END { done_sub() }' "$2")
	if [ -z "$bad" ]; then verdict ok "$1"
	else verdict FAIL "$1: missing in" "$bad"; fi
}

# --- the full set --------------------------------------------------------
dir=$(fixture full)
report "$dir"
expect_status "full set" 0
said "full set: says what it wrote" "bench-report: wrote $dir/REPORT.md and 9 PNG files"
r=$dir/REPORT.md
for h in "## Machines" "## 1. MADV_FREE: split vs batched" \
	 "## 2. Clearing: folio_zero_user and clear_pages" "## 3. Pageblock order" \
	 "## 4. Page allocator: buddy vs bitmap"; do
	has "heading '$h'" "$r" "$h"
done
order=$(grep -n '^## ' "$r" | cut -d: -f2- | tr '\n' '/')
want="## Machines/## 1. MADV_FREE: split vs batched/## 2. Clearing: folio_zero_user and clear_pages/## 3. Pageblock order/## 4. Page allocator: buddy vs bitmap/## 5. Fork: batched vs per-page/## Same program, same QEMU: Folium and Linux/"
if [ "$order" = "$want" ]; then verdict ok "sections in order"
else verdict FAIL "sections in order" "$order"; fi
has "no sbs/: the side-by-side says it was not measured" "$r" \
	"not measured in this run (no $dir/sbs/: make bench runs it, make bench-sbs alone)."
has "units from the header" "$r" "| folio (KiB) | split (ms) | batched (ms) | change (%) | reclaim (ms) | freed (pages) | upstream_split (s) | upstream_batched (s) |"
has "kernel units from its header" "$r" "| folio (KiB) | split (Mcycles) | batched (Mcycles) |"
has "64 KiB row: ours and upstream's side by side" "$r" "| 64 | 20.640 | 0.610 | -97.0 | 6.020 | 262144 | 2.457796 | 0.052812 |"
has "counters in their own table" "$r" "| folio (KiB) | split_pte_writes (count) | split_splits (count) | split_flushes (count) |"
has "counters: 64 KiB row" "$r" "| 64 | 262144 | 16384 | 262144 | 0 | 262144 | 0 | 0 | 1 |"
has "numbers right-aligned, text left" "$r" "|---:|---|---:|---|---:|---:|"
has "machines: CPU of each source" "$r" "| cpu | AMD EPYC 7B13 64-Core Processor | QEMU TCG CPU version 2.5+ |"
has "machines: every pageblock build" "$r" "| pageblock_order | 1, 4, 7, 9, 10 | 9 |"
has "machines: memory in GiB" "$r" "| mem_bytes | 25769803776 (24 GiB) | 1073741824 (1 GiB) |"
if grep -q '^| range_bytes |' "$r"; then verdict FAIL "machines: a record's own parameter is not a machine key"
else verdict ok "machines: a record's own parameter is not a machine key"; fi
each_subsection "every kernel table says it is emulated" "$r" kernel \
	"emulated (TCG): compare ratios, not absolute times."
each_subsection "every host table names its CPU" "$r" host \
	"Ran on: host-native (a Linux process) on AMD EPYC 7B13 64-Core Processor"
n=$(grep -c "compare ratios, not absolute times" "$r")
if [ "$n" = 7 ]; then verdict ok "the emulated sentence only in the 7 kernel tables"
else verdict FAIL "the emulated sentence appears $n times, want 7"; fi
rows=$(grep -c '^| [0-9]* | [0-9]* | 100000 |' "$r")
if [ "$rows" = 6 ]; then verdict ok "merged pageblock records: 5 host rows + 1 kernel"
else verdict FAIL "pageblock rows: $rows, want 6"; fi
has "folio_zero_user strategies" "$r" "| 64 | end | 15 | contiguous | 2370 | 138 |"
has "fill bandwidth table" "$r" "| memset | 22.80 |"
has "upstream madvise source" "$r" "20240416033457.32154-4-ioworker0@gmail.com"
has "upstream folio_zero_user figures" "$r" "| neighbourhood-last | neighbourhood | 1630.32 (+- 2.73%) | 886.37 (+- 5.19%) |"
has "upstream pageblock figures" "$r" "| 10 | 13,803,137,433 | 220 |"
r4=$(sed -n '/^## 4\. /,/^## [^4]/p' "$r")
case $r4 in *"| bulk64 |"*"### host: page_alloc_mixed"*"| 10 | 32 |"*) verdict ok "section 4: bulk rows, then the mixed-order table" ;;
*) verdict FAIL "section 4: bulk rows, then the mixed-order table" ;; esac
has "upstream page_alloc figures (page_bench04_bulk)" "$r" "| bulk of 64, array variant | 110 | 30.6 |"
has "kernel pageblock: one build, no plot" "$r" "One pageblock_order value only: no plot."
has "parameters: of the first record" "$r" "Parameters: node_bytes=1073741824 (1 GiB)."
for p in madvise_free clear_pages folio_zero_user pageblock page_alloc \
	 kernel-madvise_free kernel-clear_pages kernel-folio_zero_user kernel-page_alloc; do
	png "$dir" "$p.png"
	has "REPORT.md shows $p.png" "$r" "]($p.png)"
done
absent "$dir" kernel-pageblock.png

# Records concatenated whole (each with its own header) read the same as
# tools/benchrec's merge (one header after the first env line).
dir=$(fixture full)
awk -F, 'NR == 3 { header = $0 } NR > 4 && /^# env:/ { print; print header; next } { print }' \
	"$dir/host-pageblock.csv" >"$dir/pb" && mv "$dir/pb" "$dir/host-pageblock.csv"
report "$dir"
expect_status "pageblock records with repeated headers" 0
rows=$(grep -c '^| [0-9]* | [0-9]* | 100000 |' "$dir/REPORT.md")
if [ "$rows" = 6 ] && ! grep -q 'pageblock_order\[' "$dir/REPORT.md"; then
	verdict ok "repeated headers are not rows"
else
	verdict FAIL "repeated headers: $rows pageblock rows, want 6"
fi

# --- nothing here names a column -----------------------------------------
# A record the report has no prose for, and a column no benchmark had yet,
# both come out of the CSV headers.
dir=$(fixture full)
sed 's/^order\[order\],pattern\[-\],buddy\[ns\/op\],bitmap\[ns\/op\],ratio\[x\]$/size[bytes],kind[-],cost[ns],width[count],gain[x]/' \
	"$dir/host-page_alloc.csv" >"$dir/host-new_bench.csv"
for f in "$dir/host-clear_pages.csv" "$dir/kernel-clear_pages.csv"; do
	awk -F, '/^#/ { print; next } !h { print $0 ",runs[count]"; h = 1; next } { print $0 ",3" }' \
		"$f" >"$f.new" && mv "$f.new" "$f"
done
report "$dir"
expect_status "a new record and a new column" 0
r=$dir/REPORT.md
has "new record: under Other records" "$r" "## 6. Other records"
has "new record: its table from its header" "$r" "| size (bytes) | kind | cost (ns) | gain (x) |"
has "new record: its counter table" "$r" "| size (bytes) | width (count) |"
png "$dir" new_bench.png
has "new column: in the counter table" "$r" "| extent (bytes) | runs (count) |"
has "new column: its values" "$r" "| 4096 | 3 |"

# Linux's own run (source linux): its columns that the host record has are
# joined as linux_*; every env value is shown as written, quotes removed.
dir=$(fixture full)
cat >"$dir/linux-madvise_free.csv" <<'END'
# folium bench record madvise_free
# env: source=linux kernel="6.18.4-test" cpu="AMD EPYC" hypervisor="Microsoft Hv" mem_bytes=25769803776 range_bytes=1073741824 runs=3
folio[KiB],batched[ms],min[ms],max[ms],folios[count],fallbacks[count]
4,67.016,66.502,67.697,262144,0
64,44.431,43.656,46.215,16384,0
2048,3.117,3.090,3.338,512,0
END
report "$dir"
expect_status "linux record" 0
r=$dir/REPORT.md
has "linux: joined after upstream" "$r" "| upstream_split (s) | upstream_batched (s) | linux_batched (ms) |"
has "linux: row by folio" "$r" "| 64 | 20.640 | 0.610 | -97.0 | 6.020 | 262144 | 2.457796 | 0.052812 | 44.431 |"
has "linux: a row it lacks is empty" "$r" "| 16 | 24.310 | 1.950 | -92.0 | 14.870 | 262144 | 2.990447 | 0.185655 |  |"
has "linux: what it is" "$r" "linux_*: the same workload on the build machine's own Linux 6.18.4-test"
has "machines: a quoted value with a space" "$r" "| hypervisor | KVMKVMKVM | TCGTCGTCGTCG | Microsoft Hv |"
has "machines: linux's kernel" "$r" "| kernel |  |  | 6.18.4-test |"
has "record parameters, sizes in binary units" "$r" "Parameters: range_bytes=1073741824 (1 GiB)."
rm "$dir/host-madvise_free.csv"
report "$dir"
expect_status "linux record without a host one" 1
said "linux record without a host one: says so" "linux-madvise_free.csv: no host-madvise_free.csv to set it beside"

# --- only host madvise_free ----------------------------------------------
dir=$(fixture partial)
report "$dir"
expect_status "partial set" 0
r=$dir/REPORT.md
has "partial: madvise table" "$r" "| 64 | 20.640 | 0.610 | -97.0 | 6.020 | 262144 | 2.457796 | 0.052812 |"
has "partial: kernel madvise" "$r" "kernel-madvise_free.csv: not measured in this run."
has "partial: floor" "$r" "madvise_pte_floor: not measured in this run (no host-madvise_pte_floor.csv or kernel-madvise_pte_floor.csv)."
for t in folio_zero_user clear_pages pageblock page_alloc; do
	has "partial: $t" "$r" "$t: not measured in this run (no host-$t.csv or kernel-$t.csv)."
done
has "partial: section 4 still there" "$r" "## 4. Page allocator: buddy vs bitmap"
png "$dir" madvise_free.png
for p in clear_pages folio_zero_user pageblock page_alloc kernel-madvise_free; do
	absent "$dir" "$p.png"
done

# --- errors ----------------------------------------------------------------
mkdir "$tmp/empty"
report "$tmp/empty"
expect_status "empty directory" 1
said "empty directory: says why" "bench-report: $tmp/empty has no *.csv — run make bench first"
absent "$tmp/empty" REPORT.md

dir=$(fixture full)
rm -f "$dir"/*.png "$dir/REPORT.md"
edit "$dir/host-page_alloc.csv" 's/^order\[order\],pattern\[-\],buddy\[ns\/op\]/order[order],pattern[-],buddy/'
report "$dir"
expect_status "header cell without [unit]" 1
said "header cell without [unit]: names file, line and cell" \
	"host-page_alloc.csv: line 3: header cell \"buddy\" has no [unit] (want NAME[UNIT])"
absent "$dir" REPORT.md

dir=$(fixture full)
edit "$dir/kernel-page_alloc.csv" 's/,buddy\[cycles\/op\],/,buddy[cycles op],/'
report "$dir"
expect_status "a unit with a space" 1
said "a unit with a space: names the cell" \
	"kernel-page_alloc.csv: line 3: header cell \"buddy[cycles op]\" is not NAME[UNIT]"

dir=$(fixture full)
edit "$dir/host-madvise_free.csv" 's/^64,20.640,/64,fast,/'
report "$dir"
expect_status "text in a number column" 1
said "text in a number column: says which" "host-madvise_free.csv: line 7: split[ms] is \"fast\", not a number"

dir=$(fixture full)
edit "$dir/kernel-page_alloc.csv" 's/,ratio\[x\]$/,speedup[x]/'
report "$dir"
expect_status "kernel columns differ from host's" 1
said "kernel columns differ from host's: names them" "kernel-page_alloc.csv: columns order,pattern,buddy,bitmap,speedup differ from host-page_alloc.csv's order,pattern,buddy,bitmap,ratio"

dir=$(fixture full)
cp "$dir/host-page_alloc.csv" "$dir/kernel-page_alloc.csv"
report "$dir"
expect_status "env of another source" 1
said "env of another source: says so" "kernel-page_alloc.csv: line 2: env says source=host, the file name says kernel"

dir=$(fixture full)
edit "$dir/kernel-clear_pages.csv" 's/^65536,0.05,/65536,/'
report "$dir"
expect_status "a row with a field missing" 1
said "a row with a field missing: says where" "kernel-clear_pages.csv: line 5: 4 fields, the header has 5"

dir=$(fixture full)
edit "$dir/kernel-clear_pages.csv" '/^[0-9]/d'
report "$dir"
expect_status "no rows" 1
said "no rows: says so" "kernel-clear_pages.csv: no data rows"

dir=$(fixture full)
edit "$dir/kernel-clear_pages.csv" '/^[^#]/d'
report "$dir"
expect_status "no header" 1
said "no header: says so" "kernel-clear_pages.csv: no header row"

dir=$(fixture full)
edit "$dir/host-page_alloc.csv" '2s/ source=host / /'
report "$dir"
expect_status "env without source" 1
said "env without source: says so" "host-page_alloc.csv: line 2: env says source=, the file name says host"

dir=$(fixture full)
cp "$dir/host-page_alloc.csv" "$dir/pc-page_alloc.csv"
report "$dir"
expect_status "unknown source" 1
said "unknown source: says what names are read" "pc-page_alloc.csv: not named SOURCE-NAME.csv, SOURCE host, kernel or linux"

dir=$(fixture full)
edit "$dir/host-page_alloc.csv" 's/$/\r/; 4s/^/\r\n/'
report "$dir"
expect_status "CRLF and a blank line are read as before" 0
has "CRLF: rows as before" "$dir/REPORT.md" "| 9 | batch64 | 37.3 | 598.4 | 16.04 |"

mkdir "$tmp/bin"
cat >"$tmp/bin/gnuplot" <<'EOF'
#!/bin/sh
# A gnuplot that lists a PNG terminal and then fails every script.
if [ "$1" = -e ]; then echo "         pngcairo  png terminal based on cairo"; exit 0; fi
echo "\"$1\" line 9: fake gnuplot: undefined variable" >&2
exit 1
EOF
chmod +x "$tmp/bin/gnuplot"
dir=$(fixture partial)
out=$(PATH=$tmp/bin:$PATH sh "$here/bench-report.sh" "$dir" 2>&1)
status=$?
expect_status "gnuplot fails" 1
said "gnuplot fails: shows its error" "bench-report: gnuplot failed on madvise_free.png:"
said "gnuplot fails: gnuplot's own words" "fake gnuplot: undefined variable"
absent "$dir" REPORT.md

report ""
expect_status "no such directory" 1
out=$(sh "$here/bench-report.sh" 2>&1)
status=$?
expect_status "no argument" 1
said "no argument: usage" "usage: sh tools/bench-report.sh OUTDIR"

echo "bench-report-test: $pass passed, $fail failed"
[ "$fail" = 0 ]
