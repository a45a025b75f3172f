#!/bin/sh
# tools/qemu-run.sh's accelerator choice: a bad --accel is refused with a
# message; ACCEL=kvm boots the image with KVM when a KVM guest can boot
# here, else falls back to TCG with one warning naming why (this build
# machine has no usable KVM); ICOUNT=1 adds -icount shift=0 and a bad
# ICOUNT is refused. Usage: qemu-accel-test.sh IMAGE LOGDIR
set -u
img=$1
dir=$2
failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

if sh tools/qemu-run.sh --image "$img" --accel nonsense 2>"$dir/accel-bad.err"; then
	fail "--accel nonsense was accepted"
elif ! grep -q "is tcg or kvm, not 'nonsense'" "$dir/accel-bad.err"; then
	fail "--accel nonsense: no clear message"
else
	echo "ok   a bad accelerator is refused with a message"
fi

ACCEL=kvm sh tools/qemu-run.sh --image "$img" --log "$dir/accel-kvm.serial" --timeout 120 \
	--expect "Power down" 2>"$dir/accel-kvm.err" || fail "ACCEL=kvm: the boot did not finish"
warnings=$(grep -c "warning: KVM cannot boot a guest here" "$dir/accel-kvm.err")
if [ -w /dev/kvm ]; then
	echo "ok   ACCEL=kvm booted ($warnings fallback warnings: the probe's verdict)"
elif [ "$warnings" = 1 ]; then
	echo "ok   ACCEL=kvm without a usable /dev/kvm falls back to TCG with one warning"
else
	fail "ACCEL=kvm without /dev/kvm: $warnings warnings, want 1"
fi
cat "$dir/accel-kvm.err"

# ICOUNT=1: -icount shift=0 on the one QEMU line, and QEMU takes it: the
# guest still runs when the 10 s timeout stops it (exit 124). A whole boot
# takes 90 s under -icount here, most of it in the firmware: the run
# stops before the loader.
ICOUNT=1 sh tools/qemu-run.sh --image "$img" --log "$dir/icount.serial" --timeout 10 \
	--show-command "$dir/icount.cmd" 2>"$dir/icount.err"
rc=$?
if [ "$rc" = 124 ] && grep -q -- ' -icount shift=0' "$dir/icount.cmd"; then
	echo "ok   ICOUNT=1 runs the guest with -icount shift=0"
else
	fail "ICOUNT=1: exit $rc, no -icount shift=0 run ($(cat "$dir/icount.cmd" "$dir/icount.err" 2>/dev/null))"
fi
if ICOUNT=yes sh tools/qemu-run.sh --image "$img" 2>"$dir/icount-bad.err"; then
	fail "ICOUNT=yes was accepted"
elif grep -q "ICOUNT is 1 (count instructions) or 0, not 'yes'" "$dir/icount-bad.err"; then
	echo "ok   a bad ICOUNT is refused with a message"
else
	fail "ICOUNT=yes: no clear message"
fi
[ "$failed" = 0 ]
