#!/bin/sh
# bench-report-test.sh: run tools/bench-report.sh on the saved records in
# tools/tests/bench-report/ (full/: every table, host and kernel; partial/:
# only host-madvise_free.csv) and check REPORT.md, the PNGs, and the errors
# for an empty directory, a broken CSV and a failing gnuplot.
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
want="## Machines/## 1. MADV_FREE: split vs batched/## 2. Clearing: folio_zero_user and clear_pages/## 3. Pageblock order/## 4. Page allocator: buddy vs bitmap/"
if [ "$order" = "$want" ]; then verdict ok "sections in order"
else verdict FAIL "sections in order" "$order"; fi
has "units from the header" "$r" "| folio (KiB) | split (ms) | batched (ms) | change (%) | upstream_split (s) | upstream_batched (s) |"
has "kernel units from its header" "$r" "| folio (KiB) | split (Mcycles) | batched (Mcycles) |"
has "64 KiB row: ours and upstream's side by side" "$r" "| 64 | 20.640 | 0.610 | -97.0 | 2.457796 | 0.052812 | 6.020 | 262144 |"
has "machines: CPU of each source" "$r" "| cpu | AMD EPYC 7B13 64-Core Processor | QEMU TCG CPU version 2.5+ |"
has "machines: every pageblock build" "$r" "| pageblock_order | 1, 4, 7, 9, 10 | 9 |"
has "machines: memory in GiB" "$r" "| mem_bytes | 25769803776 (24 GiB) | 1073741824 (1 GiB) |"
each_subsection "every kernel table says it is emulated" "$r" kernel \
	"emulated (TCG): compare ratios, not absolute times."
each_subsection "every host table names its CPU" "$r" host \
	"Ran on: host-native (a Linux process) on AMD EPYC 7B13 64-Core Processor"
n=$(grep -c "compare ratios, not absolute times" "$r")
if [ "$n" = 5 ]; then verdict ok "the emulated sentence only in the 5 kernel tables"
else verdict FAIL "the emulated sentence appears $n times, want 5"; fi
rows=$(grep -c '^| [0-9]* | [0-9]* | [0-9]* | [0-9]* | [0-9]* | 100000 |' "$r")
if [ "$rows" = 6 ]; then verdict ok "merged pageblock records: 5 host rows + 1 kernel"
else verdict FAIL "pageblock rows: $rows, want 6"; fi
has "folio_zero_user strategies" "$r" "| 64 | end | 15 | contiguous | 2370 | 138 |"
has "fill bandwidth table" "$r" "| memset | 22.80 |"
has "upstream madvise source" "$r" "20240416033457.32154-4-ioworker0@gmail.com"
has "upstream folio_zero_user figures" "$r" "| neighbourhood-last | neighbourhood | 1630.32 (+- 2.73%) | 886.37 (+- 5.19%) |"
has "upstream pageblock figures" "$r" "| 10 | 13,803,137,433 | 220 |"
has "page_alloc: no upstream figure" "$r" "no upstream"
has "kernel pageblock: one build, no plot" "$r" "One build only: no plot."
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
rows=$(grep -c '^| [0-9]* | [0-9]* | [0-9]* | [0-9]* | [0-9]* | 100000 |' "$dir/REPORT.md")
if [ "$rows" = 6 ] && ! grep -q 'pageblock_order\[' "$dir/REPORT.md"; then
	verdict ok "repeated headers are not rows"
else
	verdict FAIL "repeated headers: $rows pageblock rows, want 6"
fi

# --- only host madvise_free ----------------------------------------------
dir=$(fixture partial)
report "$dir"
expect_status "partial set" 0
r=$dir/REPORT.md
has "partial: madvise table" "$r" "| 64 | 20.640 | 0.610 | -97.0 | 2.457796 | 0.052812 |"
has "partial: kernel madvise" "$r" "kernel-madvise_free.csv: not measured in this run."
has "partial: floor" "$r" "madvise_pte_floor: not measured in this run."
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
edit "$dir/host-madvise_free.csv" 's/^64,20.640,/64,fast,/'
report "$dir"
expect_status "text in a number column" 1
said "text in a number column: says which" "host-madvise_free.csv: line 7: split[ms] is \"fast\", not a number"

dir=$(fixture full)
edit "$dir/kernel-page_alloc.csv" 's/,ratio\[x\]$/,speedup[x]/'
report "$dir"
expect_status "missing column" 1
said "missing column: names it" "kernel-page_alloc.csv: no column \"ratio\""

dir=$(fixture full)
cp "$dir/host-page_alloc.csv" "$dir/kernel-page_alloc.csv"
report "$dir"
expect_status "env of another source" 1
said "env of another source: says so" "kernel-page_alloc.csv: line 2: env says source=host, the file name says kernel"

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
