#!/bin/sh
# make bench: every benchmark, its tables printed as it runs, then
# build/bench/: the raw outputs (*.txt, kernel/serial.log), one CSV per
# table and source (tools/benchrec turns the @bench records into CSV and
# rejects a truncated or corrupted stream), PNG plots and REPORT.md
# (tools/bench-report.sh). Sources: host-native programs (ns; the
# pageblock table and the fragmentation experiment once per
# CONFIG_PAGE_BLOCK_ORDER build), the kernel
# under QEMU (TSC cycles; emulated under TCG: compare ratios), and, when
# run as root on a Linux with mTHP controls, that Linux itself; then the
# side-by-side (tools/bench-sbs.sh: the same static programs on Folium,
# Linux 6.1 and Linux 7.3 under one QEMU line, and natively, into sbs/). Every
# kernel and program here is built with CONFIG_DEBUG_VM=n. Timing is
# never a test; these numbers are for reading.
set -eu
B=${B:-build}
OUT=$B/bench
ORDERS=${BENCH_PAGEBLOCK_ORDERS:-1 4 7 9 10}
BENCHREC=$B/tools/benchrec
# A fresh directory: a report must never mix two runs.
rm -rf "$OUT"
mkdir -p "$OUT"

echo "== host-native =="
"$B/bench-page-alloc" | tee "$OUT/host-page-alloc.txt"
echo
"$B/bench-clear" | tee "$OUT/host-clear.txt"
echo
"$B/bench-madvise" | tee "$OUT/host-madvise.txt"
echo
"$B/bench-fork" | tee "$OUT/host-fork.txt"
for order in $ORDERS; do
	echo
	"$B/bench-pbo$order/bench-pageblock" | tee "$OUT/host-pageblock-$order.txt"
done
for order in $ORDERS; do
	echo
	"$B/bench-pbo$order/bench-fragment" | tee "$OUT/host-fragment-$order.txt"
done

echo
echo "== this machine's Linux (optional) =="
status=0
"$B/tools/linux-madvise-free" > "$OUT/linux-madvise-free.txt" || status=$?
cat "$OUT/linux-madvise-free.txt"
case $status in
0) ;;
77) rm -f "$OUT/linux-madvise-free.txt" ;;	# skipped: it said why
*) echo "bench: linux-madvise-free failed (exit $status)" >&2; exit 1 ;;
esac

echo
echo "== in-kernel, QEMU (TCG unless KVM is available) =="
sh tools/experiment.sh qemu --kernel "$B/bench-kernel/folium.elf" --mem 1G --timeout 900 \
	--outdir "$OUT/kernel" tools/experiments/bench.txt
cat "$OUT"/kernel/[0-9]*.txt

echo
echo "== the same programs on Folium, Linux 6.1 and Linux 7.3, one QEMU line (tools/bench-sbs.sh) =="
sh tools/bench-sbs.sh --rounds "${SBS_ROUNDS:-5}" "$OUT/sbs"

echo
echo "== CSV, plots, report =="
host_logs="$OUT/host-page-alloc.txt $OUT/host-clear.txt $OUT/host-madvise.txt $OUT/host-fork.txt"
for order in $ORDERS; do
	host_logs="$host_logs $OUT/host-pageblock-$order.txt"	# rows in order
done
for order in $ORDERS; do
	host_logs="$host_logs $OUT/host-fragment-$order.txt"
done
# shellcheck disable=SC2086 # the paths have no spaces: they are ours
"$BENCHREC" csv --prefix host- "$OUT" $host_logs
"$BENCHREC" csv --prefix kernel- "$OUT" "$OUT/kernel/serial.log"
if [ -f "$OUT/linux-madvise-free.txt" ]; then
	"$BENCHREC" csv --prefix linux- "$OUT" "$OUT/linux-madvise-free.txt"
fi
sh tools/bench-report.sh "$OUT"
echo "bench: results in $OUT/, report: $OUT/REPORT.md"
