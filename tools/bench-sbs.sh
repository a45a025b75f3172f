#!/bin/sh
# bench-sbs.sh: the side-by-side of make bench. The same static programs
# (user/madvfree.c, faultrate.c, lazyfree.c, fragment.c, procbench.c;
# identical bytes in every initramfs archive, checked here by SHA-256)
# run on three kernels, each
# booted under the one QEMU line of tools/qemu-run.sh (same firmware,
# machine, -cpu, -m, -smp, accelerator): Folium's bench kernel
# (CONFIG_DEBUG_VM=n), Linux 6.1 ("linux-old": before the seeds' patches)
# and Linux 7.3 ("linux-new": after them, the yardstick), both Debian's
# builds (config.mk pins them); then natively on the build machine. Boots
# alternate kernels and the order rotates every round (F O N, O N F,
# N F O, ...), so slow drift of the host hits all alike. Every boot must
# power off by itself, print one complete record per program
# (tools/benchrec check) and report every program's exit as 0; anything
# else stops the run with the kernel, the boot and the log named, before
# a CSV is written.
# Output, OUTDIR (a fresh directory):
#   folium-N.log, linux-old-N.log, linux-new-N.log   the serial log of round N
#   native-N.log                the programs on the build machine, round N
#   qemu-SOURCE.txt             the QEMU line of each kernel
#   sbs.env                     KEY=VALUE: rounds, programs, SHA-256s
#   SOURCE-RECORD.csv           tools/benchrec's CSV of every boot's record
# With SBS_PAGEBLOCK_ORDERS="1 7", Folium kernels built with those
# CONFIG_PAGE_BLOCK_ORDER values ($B/bench-kernel-pboN/folium.elf, THP on,
# DEBUG_VM off; make bench-sbs builds them) also boot each round, running
# only /bin/fragment: sources folium-pboN (logs folium-pboN-R.log).
# Usage: sh tools/bench-sbs.sh [--quick] [--rounds N] OUTDIR
#        sh tools/bench-sbs.sh --from-logs DIR OUTDIR
#   --quick: one round with small ranges and one run per program, in 512
#   MiB guests instead of 1 GiB (lazyfree's pressure region is most of
#   MemFree) (make test).
#   --from-logs: no boots; DIR's logs, sbs.env and qemu-*.txt (a run kept,
#   or a test's saved logs) are checked and converted as a run's would be.
# Environment: B (build dir, default build), LINUX_OLD_VMLINUZ and
# LINUX_NEW_VMLINUZ (default: make's, fetched by make test/bench),
# FOLIUM_ELF (default $B/bench-kernel/folium.elf), ACCEL (tcg|kvm), ICOUNT
# (1: -icount shift=0, times become instruction counts; see qemu-run.sh).
set -eu
export LC_ALL=C
prog=bench-sbs.sh
B=${B:-build}
FOLIUM_ELF=${FOLIUM_ELF:-$B/bench-kernel/folium.elf}
MEM=1G
# One CPU for all three kernels: Folium runs its tasks on CPU 0 only so
# far, and these tables compare single-CPU paths (the SMP section, when
# it comes, boots all three with the same -smp N).
CPUS=1
BENCHREC=$B/tools/benchrec

usage() {
	echo "usage: sh tools/bench-sbs.sh [--quick] [--rounds N] OUTDIR" >&2
	echo "       sh tools/bench-sbs.sh --from-logs DIR OUTDIR" >&2
	exit 2
}
die() {
	echo "$prog: $*" >&2
	exit 1
}

quick=0 rounds=5 out='' from=''
PBO_ORDERS=${SBS_PAGEBLOCK_ORDERS:-}
set_sources() {
	SOURCES="folium linux-old linux-new native"
	for o in $PBO_ORDERS; do SOURCES="$SOURCES folium-pbo$o"; done
}
while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick=1 rounds=1 MEM=512M ;;
	--from-logs)
		[ $# -ge 2 ] || usage
		from=$2
		shift ;;
	--rounds)
		[ $# -ge 2 ] || usage
		case $2 in '' | *[!0-9]* | 0) echo "$prog: --rounds wants a count >= 1, not '$2'" >&2; usage ;; esac
		rounds=$2
		shift ;;
	-*) echo "$prog: unknown option '$1'" >&2; usage ;;
	*) [ -z "$out" ] || usage; out=$1 ;;
	esac
	shift
done
[ -n "$out" ] || usage

# The programs, one a line: path and arguments, the same on every kernel.
# A record's median is over --runs inside one boot; the report takes the
# median of the boots' medians.
if [ "$quick" = 1 ]; then
	PROGRAMS='/bin/madvfree --bytes 8M --runs 1
/bin/faultrate --bytes 8M --runs 1
/bin/lazyfree --bytes 16M --runs 1
/bin/fragment --quick
/bin/procbench --quick --runs 1'
	TIMEOUT=300
else
	PROGRAMS='/bin/madvfree --bytes 256M --runs 3
/bin/faultrate --bytes 64M --runs 3
/bin/lazyfree --bytes 128M --runs 1
/bin/fragment --runs 3
/bin/procbench --runs 5'
	TIMEOUT=1200
fi

# SBS_PROGRAMS="PROG ARGS; PROG ARGS": other programs or sizes (make bench-sbs).
[ -z "${SBS_PROGRAMS:-}" ] || PROGRAMS=$(echo "$SBS_PROGRAMS" | tr ';' '\n' | sed 's/^ *//; s/ *$//; /^$/d')

# set_records: RECORDS, the record each program prints, in order.
set_records() {
	RECORDS=
	for bin in $(echo "$PROGRAMS" | cut -d ' ' -f 1); do
		case $bin in
		/bin/madvfree) RECORDS="$RECORDS madvise_free_sbs" ;;
		/bin/faultrate) RECORDS="$RECORDS faults_sbs" ;;
		/bin/lazyfree) RECORDS="$RECORDS lazyfree_sbs" ;;
		/bin/fragment) RECORDS="$RECORDS fragment_sbs" ;;
		/bin/procbench) RECORDS="$RECORDS procs_sbs" ;;
		*) die "$bin: not a side-by-side program (/bin/madvfree, /bin/faultrate, /bin/lazyfree, /bin/fragment, /bin/procbench)" ;;
		esac
	done
	[ -n "$RECORDS" ] || die "no programs to run"
	FRAGMENT=$(echo "$PROGRAMS" | grep '^/bin/fragment' || true)
	[ -z "$PBO_ORDERS" ] || [ -n "$FRAGMENT" ] ||
		die "SBS_PAGEBLOCK_ORDERS needs /bin/fragment among the programs"
	set_sources
}
set_records

# ---- checking a boot's log ------------------------------------------------

# check_boot NAME LOG [RECORDS]: the boot's records (default: every
# program's) are all there, whole, once each, and every program ended
# with status 0.
check_boot() {
	tr -d '\r' <"$2" >"$2.tmp" && mv "$2.tmp" "$2"
	"$BENCHREC" check "$2" >/dev/null 2>"$out/benchrec.err" ||
		die "$1: $(head -n 1 "$out/benchrec.err") (log: $2)"
	for r in ${3:-$RECORDS}; do
		c=$(grep -c "^@end $r " "$2" || true)
		[ "$c" = 1 ] || die "$1 printed $c $r record(s), want 1 (log: $2)"
	done
	case $2 in
	*/linux-old-* | */linux-new-*)
		for bin in $(echo "$PROGRAMS" | cut -d ' ' -f 1); do
			grep -q "^init: $bin: exit status 0\$" "$2" ||
				die "$1: $bin did not exit with status 0 (log: $2)"
		done ;;
	*)
		! grep -E -n '^(exit status [0-9]+|killed by SIG[A-Z0-9]+)$|system halted' "$2" >"$out/bad" ||
			die "$1: a program failed: $(head -n 1 "$out/bad") (log: $2)" ;;
	esac
}

# to_csv: one CSV per source and record, every round's record in it.
to_csv() {
	for src in $SOURCES; do
		set --
		i=1
		while [ "$i" -le "$rounds" ]; do
			set -- "$@" "$out/$src-$i.log"
			i=$((i + 1))
		done
		"$BENCHREC" csv --prefix "$src-" "$out" "$@" >/dev/null
	done
	rm -f "$out/benchrec.err" "$out/bad"
}

[ -x "$BENCHREC" ] || die "missing $BENCHREC (run make all, or make bench)"
if [ -n "$from" ]; then
	[ -f "$from/sbs.env" ] || die "$from/sbs.env missing: not a side-by-side run's directory"
	rounds=$(sed -n 's/^rounds=//p' "$from/sbs.env")
	PROGRAMS=$(sed -n 's/^programs="\(.*\)"$/\1/p' "$from/sbs.env" | tr ';' '\n' | sed 's/^ *//')
	PBO_ORDERS=$(sed -n 's/^pageblock_orders="\(.*\)"$/\1/p' "$from/sbs.env")
	set_records
	case $rounds in '' | *[!0-9]* | 0) die "$from/sbs.env: rounds='$rounds', want a count >= 1" ;; esac
	rm -rf "$out"
	mkdir -p "$out"
	cp "$from/sbs.env" "$out/"
	for f in "$from"/qemu-*.txt; do [ ! -f "$f" ] || cp "$f" "$out/"; done
	i=1
	while [ "$i" -le "$rounds" ]; do
		for src in $SOURCES; do
			[ -f "$from/$src-$i.log" ] || die "$from/$src-$i.log missing (sbs.env says $rounds round(s))"
			cp "$from/$src-$i.log" "$out/"
		done
		check_boot "Folium boot $i of $rounds" "$out/folium-$i.log"
		check_boot "Linux 6.1 (linux-old) boot $i of $rounds" "$out/linux-old-$i.log"
		check_boot "Linux 7.3 (linux-new) boot $i of $rounds" "$out/linux-new-$i.log"
		for o in $PBO_ORDERS; do
			check_boot "Folium, pageblock order $o, boot $i of $rounds" \
				"$out/folium-pbo$o-$i.log" fragment_sbs
		done
		i=$((i + 1))
	done
	to_csv
	echo "side-by-side: logs of $from checked, CSVs in $out/"
	exit 0
fi

# ---- booting ----------------------------------------------------------------

[ -n "${LINUX_OLD_VMLINUZ:-}" ] ||
	LINUX_OLD_VMLINUZ=$(make -s --no-print-directory print-LINUX_OLD_VMLINUZ)
[ -n "${LINUX_NEW_VMLINUZ:-}" ] ||
	LINUX_NEW_VMLINUZ=$(make -s --no-print-directory print-LINUX_NEW_VMLINUZ)
for f in "$LINUX_OLD_VMLINUZ" "$LINUX_NEW_VMLINUZ"; do
	[ -r "$f" ] || die "missing $f: make deps (or make test, make bench) fetches the reference kernels"
done
for f in "$FOLIUM_ELF" "$B/BOOTX64.EFI" "$B/initramfs.cpio" "$B/linux-initramfs.cpio"; do
	[ -r "$f" ] || die "missing $f (run make all, or make bench)"
done
for o in $PBO_ORDERS; do
	f=$B/bench-kernel-pbo$o/folium.elf
	[ -r "$f" ] || die "missing $f (make bench-sbs builds it: CONFIG_PAGE_BLOCK_ORDER=$o)"
done
rm -rf "$out"
mkdir -p "$out"

# The same bytes on both kernels: each program's SHA-256 in both archives.
bins=$(echo "$PROGRAMS" | cut -d ' ' -f 1 | sort -u)
{
	echo "rounds=$rounds"
	echo "folium_commit=$(git describe --always --dirty 2>/dev/null || echo unknown)"
	echo "mem=$MEM"
	echo "programs=\"$(echo "$PROGRAMS" | paste -s -d ';' - | sed 's/;/; /g')\""
	echo "pageblock_orders=\"$PBO_ORDERS\""
	echo "icount=${ICOUNT:-0}"
	for bin in $bins; do
		a=$(cpio --quiet -i --to-stdout "${bin#/}" <"$B/initramfs.cpio" | sha256sum | cut -d ' ' -f 1)
		l=$(cpio --quiet -i --to-stdout "${bin#/}" <"$B/linux-initramfs.cpio" | sha256sum | cut -d ' ' -f 1)
		n=$(sha256sum <"$B/user/${bin##*/}" | cut -d ' ' -f 1)
		[ "$a" = "$l" ] && [ "$a" = "$n" ] ||
			die "$bin differs: Folium's initramfs $a, Linux's $l, $B/user/${bin##*/} $n"
		echo "sha256_${bin##*/}=$a"
	done
} >"$out/sbs.env"

# Folium: the programs as a run= script, then poweroff.
run=$(echo "$PROGRAMS" | paste -s -d ';' - | sed 's/;/; /g')
printf 'run="%s; poweroff"\n' "$run" >"$out/folium-cmdline.txt"
sh tools/mkimage.sh "$out/folium.img" "$B/BOOTX64.EFI" "$FOLIUM_ELF" "$out/folium-cmdline.txt" \
	"$B/initramfs.cpio" >/dev/null
# Folium at other pageblock orders: the fragmentation experiment alone.
for o in $PBO_ORDERS; do
	printf 'run="%s; poweroff"\n' "$FRAGMENT" >"$out/folium-pbo-cmdline.txt"
	sh tools/mkimage.sh "$out/folium-pbo$o.img" "$B/BOOTX64.EFI" "$B/bench-kernel-pbo$o/folium.elf" \
		"$out/folium-pbo-cmdline.txt" "$B/initramfs.cpio" >/dev/null
done
# Linux: user/init.c runs the programs after "--", separated by " ; ".
append="console=ttyS0 quiet -- $(echo "$PROGRAMS" | paste -s -d ';' - | sed 's/;/ ; /g')"

# boot SOURCE N: boot one kernel for round N into OUTDIR/SOURCE-N.log.
boot() {
	log=$out/$1-$2.log
	show=$out/qemu-$1.txt
	records=
	case $1 in
	folium-pbo*)
		name="Folium, pageblock order ${1#folium-pbo} (CONFIG_PAGE_BLOCK_ORDER), boot $2 of $rounds"
		records=fragment_sbs
		set -- --image "$out/$1.img" ;;
	folium)
		name="Folium ($FOLIUM_ELF) boot $2 of $rounds"
		set -- --image "$out/folium.img" ;;
	linux-old)
		name="Linux 6.1 ($LINUX_OLD_VMLINUZ) boot $2 of $rounds"
		set -- --kernel "$LINUX_OLD_VMLINUZ" --initrd "$B/linux-initramfs.cpio" --append "$append" ;;
	linux-new)
		name="Linux 7.3 ($LINUX_NEW_VMLINUZ) boot $2 of $rounds"
		set -- --kernel "$LINUX_NEW_VMLINUZ" --initrd "$B/linux-initramfs.cpio" --append "$append" ;;
	esac
	echo "  $name"
	status=0
	sh tools/qemu-run.sh "$@" --show-command "$show" --mem "$MEM" --cpus "$CPUS" --log "$log" \
		--timeout "$TIMEOUT" 2>"$out/qemu.err" ||
		status=$?
	case $status in
	0) ;;
	124) die "$name did not power off within ${TIMEOUT}s (log: $log)" ;;
	*) die "$name: QEMU failed (exit $status): $(head -n 3 "$out/qemu.err" | paste -s -d ' ' -) (log: $log)" ;;
	esac
	[ ! -s "$out/qemu.err" ] || cat "$out/qemu.err" >&2	# the KVM fallback warning
	check_boot "$name" "$log" $records
}

# native N: the programs on the build machine (root and sysfs permitting:
# without write access to the THP controls only the 4K rows run; a program
# that says it cannot run here, exit 77, is left out and named in the log).
native() {
	log=$out/native-$1.log
	: >"$log"
	echo "$PROGRAMS" | while read -r bin args; do
		echo "native: $bin $args" >>"$log"
		status=0
		# shellcheck disable=SC2086 # the arguments are words
		"$B/user/${bin##*/}" $args >>"$log" 2>&1 || status=$?
		case $status in
		0) ;;
		77) echo "native: $bin: skipped (exit 77)" >>"$log" ;;
		*) die "the build machine's Linux: $bin exited with status $status (log: $log)" ;;
		esac
	done
	"$BENCHREC" check "$log" >/dev/null 2>"$out/benchrec.err" ||
		die "the build machine's Linux: $(head -n 1 "$out/benchrec.err") (log: $log)"
}

echo "side-by-side: $rounds round(s) of Folium, Linux 6.1 and Linux 7.3 under one QEMU line, then native"
i=1
while [ "$i" -le "$rounds" ]; do
	case $((i % 3)) in
	1) order="folium linux-old linux-new" ;;
	2) order="linux-old linux-new folium" ;;
	0) order="linux-new folium linux-old" ;;
	esac
	for k in $order; do
		boot "$k" "$i"
	done
	for o in $PBO_ORDERS; do
		boot "folium-pbo$o" "$i"
	done
	native "$i"
	i=$((i + 1))
done
rm -f "$out"/folium*.img "$out/qemu.err"
to_csv
echo "side-by-side: logs and CSVs in $out/"
