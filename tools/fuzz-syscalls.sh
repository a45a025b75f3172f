#!/bin/sh
# The system call fuzzer (user/fuzz.c) at length, in QEMU: each boot runs
# /bin/fuzz and /bin/fuzz.glibc for four seeds each, the four as four
# processes fuzzing at once (fork, clone, execve, wait4 and kill are in
# their set), between two meminfo's,
# and passes only if every run reaches its "done" line, nothing is killed,
# the kernel never faults, and MemFree after the fuzzing equals MemFree
# before it (no page leaked). `make fuzz` runs this; make test runs a short
# fuzz through tools/run-tests.sh.
# Usage: sh tools/fuzz-syscalls.sh BUILD_DIR [BOOTS [CALLS]]
#   e.g. sh tools/fuzz-syscalls.sh build 4 20000: 4 boots of 8 runs of 20000
set -u
B=${1:-build}
boots=${2:-4}
calls=${3:-20000}
case $boots$calls in *[!0-9]*|'') echo "usage: $0 BUILD_DIR [BOOTS [CALLS]]" >&2; exit 2 ;; esac
dir=$B/fuzz-syscalls
mkdir -p "$dir"
failed=0
boot=0
while [ "$boot" -lt "$boots" ]; do
	seed=$((boot * 4 + 1)) want=8
	runs=" /bin/fuzz $seed $calls - 4; /bin/fuzz.glibc $seed $calls - 4;"
	printf 'run="meminfo;%s meminfo; poweroff"\n' "$runs" > "$dir/boot$boot.cmdline"
	sh tools/mkimage.sh "$dir/boot$boot.img" "$B/BOOTX64.EFI" "$B/folium.elf" \
		"$dir/boot$boot.cmdline" "$B/initramfs.cpio" >/dev/null || exit 1
	log=$dir/boot$boot.serial
	sh tools/qemu-run.sh --image "$dir/boot$boot.img" --log "$log" --timeout 3600 \
		--fail-on "system halted, reset the machine" >/dev/null 2>&1
	done_lines=$(tr -d '\r' < "$log" | grep -c "^fuzz: $calls calls, seed [0-9]*, [0-9]* errors, done$")
	[ "$(tr -d '\r' < "$log" | grep -c '^fuzz: 4 jobs, all done$')" = 2 ] || done_lines=0
	free=$(tr -d '\r' < "$log" | grep '^MemFree:' | uniq | wc -l)
	if [ "$done_lines" != "$want" ] || grep -q 'killed by\|exit status\|Kernel panic\|system halted' "$log" ||
		[ "$free" != 1 ] || ! grep -q 'Power down' "$log"; then
		echo "FAIL boot $boot (seeds $seed..$((seed + 3))): $done_lines of $want runs done, $free MemFree values; log: $log"
		failed=$((failed + 1))
	else
		echo "ok   boot $boot: seeds $seed..$((seed + 3)), $want runs of $calls calls, MemFree unchanged"
	fi
	boot=$((boot + 1))
done
echo "fuzz-syscalls: $boots boots, $((boots * 8)) runs of $calls calls, $failed failed"
[ "$failed" = 0 ]
