#!/bin/sh
# make bench: every benchmark, written to build/bench/ and printed. Timing
# is never a test; these numbers are for reading. Today: the page
# allocator against a bitmap allocator, and clearing (clear_pages per
# instruction, folio_zero_user per strategy), each host-native (ns) and in
# the kernel under QEMU (TSC cycles), all built with CONFIG_DEBUG_VM=n.
# Clearing conclusions come from the host-native run: under TCG rep stosb
# is emulated at hundreds of times its native price.
set -eu
B=${B:-build}
OUT=$B/bench
KDIR=$B/bench-kernel
mkdir -p "$OUT"

echo "== host-native =="
"$B/bench-page-alloc" | tee "$OUT/page-alloc-host.txt"
echo
"$B/bench-clear" | tee "$OUT/clear-host.txt"

echo
echo "== in-kernel, QEMU (TCG unless KVM is available) =="
printf '%s\n' 'run="bench alloc; bench clear; poweroff"' > "$OUT/cmdline.txt"
sh tools/mkimage.sh "$OUT/bench.img" "$B/BOOTX64.EFI" "$KDIR/folium.elf" "$OUT/cmdline.txt"
sh tools/qemu-run.sh --image "$OUT/bench.img" --mem 1G --timeout 600 \
	--fail-on "system halted" --log "$OUT/page-alloc-kernel.serial"
# The command's output: from its banner to the line before the next prompt.
tr -d '\r' < "$OUT/page-alloc-kernel.serial" |
	sed -n '/^Folium page allocator benchmark/,/^folium> /p' | sed '$d' |
	tee "$OUT/page-alloc-kernel.txt"
[ -s "$OUT/page-alloc-kernel.txt" ] || { echo "bench: no result in the serial log" >&2; exit 1; }
echo
tr -d '\r' < "$OUT/page-alloc-kernel.serial" |
	sed -n '/^Folium clearing benchmark/,/^folium> /p' | sed '$d' |
	tee "$OUT/clear-kernel.txt"
[ -s "$OUT/clear-kernel.txt" ] || { echo "bench: no clearing result in the serial log" >&2; exit 1; }
echo
echo "bench: results in $OUT/"
