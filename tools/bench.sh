#!/bin/sh
# make bench: every benchmark, written to build/bench/ and printed. Timing
# is never a test; these numbers are for reading. The page allocator
# against a bitmap allocator, clearing (clear_pages per instruction,
# folio_zero_user per strategy), MADV_FREE split vs batched per folio size
# and usemem faults by folio size; host-native in ns where the code runs as
# a process, in the kernel under QEMU in TSC cycles; every kernel run
# built with CONFIG_DEBUG_VM=n. Clearing
# conclusions come from the host-native run: under TCG rep stosb is
# emulated at hundreds of times its native price.
set -eu
B=${B:-build}
OUT=$B/bench
KDIR=$B/bench-kernel
mkdir -p "$OUT"

# section SERIAL_LOG FIRST_LINE_PATTERN OUT: one command's output, from its
# banner to the line before the next prompt.
section() {
	tr -d '\r' < "$1" | sed -n "/$2/,/^folium> /p" | sed '$d' | tee "$3"
	[ -s "$3" ] || { echo "bench: no '$2' in $1" >&2; exit 1; }
	echo
}

echo "== host-native =="
"$B/bench-page-alloc" | tee "$OUT/page-alloc-host.txt"
echo
"$B/bench-clear" | tee "$OUT/clear-host.txt"
echo
"$B/bench-madvise" | tee "$OUT/madvise-host.txt"

echo
echo "== in-kernel, QEMU (TCG unless KVM is available) =="
USEMEM='usemem 128M seq write --order-stats'
printf 'run="bench alloc; bench clear; bench madvise; thp never; %s; thp 64K; %s; thp 2M; %s; poweroff"\n' \
	"$USEMEM" "$USEMEM" "$USEMEM" > "$OUT/cmdline.txt"
sh tools/mkimage.sh "$OUT/bench.img" "$B/BOOTX64.EFI" "$KDIR/folium.elf" "$OUT/cmdline.txt"
SERIAL=$OUT/kernel.serial
sh tools/qemu-run.sh --image "$OUT/bench.img" --mem 1G --timeout 900 \
	--fail-on "system halted" --log "$SERIAL"
section "$SERIAL" '^Folium page allocator benchmark' "$OUT/page-alloc-kernel.txt"
section "$SERIAL" '^Folium clearing benchmark' "$OUT/clear-kernel.txt"
section "$SERIAL" '^Folium MADV_FREE benchmark' "$OUT/madvise-kernel.txt"
echo "usemem 128M seq write, folio sizes 4K / 64K / 2M (cycles; emulated under TCG)"
tr -d '\r' < "$SERIAL" | sed -n '/^folium> thp /,/^folium> poweroff/p' |
	grep -v '^folium> poweroff' | tee "$OUT/usemem-kernel.txt"
echo
echo "bench: results in $OUT/"
