#!/bin/sh
# The one QEMU command line: boots a Folium disk image under OVMF, from an
# AHCI disk or (--usb) a USB stick on an xHCI controller, with -cpu max
# pinned because QEMU's default CPU model hides ERMS/FSRM. With --kernel,
# the same machine (firmware, CPU model, memory, CPUs) boots a Linux
# kernel and initramfs instead, OVMF loading them from QEMU's fw_cfg: the
# side-by-side runs the same programs on both kernels under one line.
# The accelerator is TCG unless --accel kvm (or ACCEL=kvm, which make
# passes on) is asked for; then a probe (once per boot of this machine,
# cached) checks that a KVM guest gets as far as the firmware's boot
# manager, and falls back to TCG with a one-line warning when it does not
# (some machines open /dev/kvm but their guests die in the firmware).
# --icount (or ICOUNT=1) adds -icount shift=0 under TCG: the guest's clock
# advances one nanosecond per executed instruction (a rep stosb counts
# each byte), so a benchmark's times become instruction counts, the same
# on every boot whatever else the host is doing.
#
# Interactive (make run): serial console on this terminal (Ctrl-A X quits),
# plus a framebuffer window when $DISPLAY is set.
# Batch (tests): serial output goes to --log; QEMU is stopped after
# --timeout seconds (exit 124), or as soon as the log matches --expect
# (exit 0); without --expect the exit status is QEMU's own (0 after the
# guest powers off). QEMU is never left running when this script exits.
set -eu

usage() {
	cat <<USAGE
usage: qemu-run.sh --image IMG [options]
       qemu-run.sh --kernel BZIMAGE --initrd CPIO [--append ARGS] [options]
  --image IMG        Folium disk image to boot
  --kernel BZIMAGE   a Linux kernel to boot instead (with --initrd and --append)
  --initrd CPIO      its initramfs
  --append ARGS      its command line (default: console=ttyS0)
  --accel tcg|kvm    accelerator (default: ACCEL if set, else tcg); kvm falls back
                     to tcg with a warning when a KVM guest cannot boot here
  --icount           TCG with -icount shift=0: guest time counts instructions
                     (default: ICOUNT=1 turns it on, ICOUNT=0 or unset off)
  --usb              attach the image as a USB stick (qemu-xhci + usb-storage)
  --mem SIZE         guest RAM (default 512M)
  --cpus N           guest CPUs (default 2)
  --interactive      serial console on this terminal (make run)
  --serial-stdio     serial on stdin/stdout, nothing else (for serial-session)
  --gdb              wait for gdb on tcp::1234 (with --interactive)
  --log FILE         batch mode: write the serial output to FILE
  --timeout SECONDS  batch mode: stop QEMU after SECONDS (exit 124)
  --expect TEXT      batch mode: stop QEMU once the log contains TEXT (exit 0)
  --fail-on TEXT     batch mode: stop QEMU once the log contains TEXT (exit 1)
  --monitor-fifo P   batch mode: QEMU monitor on the FIFOs P.in / P.out
                     (tests type on the PS/2 keyboard with "sendkey")
  --show-command F   batch mode: write the QEMU command line run to F (one
                     line; the run's temporary directory shown as RUNDIR)
USAGE
}

image= kernel= initrd= append=console=ttyS0 accel=${ACCEL:-tcg} icount=${ICOUNT:-0} usb=0 mem=512M cpus=2 mode=batch gdb=0 log= timeout=120 expect= monitor= fail_on= show=
while [ $# -gt 0 ]; do
	case $1 in
	--image) image=$2; shift ;;
	--kernel) kernel=$2; shift ;;
	--initrd) initrd=$2; shift ;;
	--append) append=$2; shift ;;
	--accel) accel=$2; shift ;;
	--icount) icount=1 ;;
	--usb) usb=1 ;;
	--mem) mem=$2; shift ;;
	--cpus) cpus=$2; shift ;;
	--interactive) mode=interactive ;;
	--serial-stdio) mode=stdio ;;
	--gdb) gdb=1 ;;
	--log) log=$2; shift ;;
	--timeout) timeout=$2; shift ;;
	--expect) expect=$2; shift ;;
	--monitor-fifo) monitor=$2; shift ;;
	--fail-on) fail_on=$2; shift ;;
	--show-command) show=$2; shift ;;
	-h|--help) usage; exit 0 ;;
	*) echo "qemu-run.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
	esac
	shift
done
if [ -n "$kernel" ]; then
	[ -z "$image" ] || { echo "qemu-run.sh: --image and --kernel exclude each other" >&2; exit 2; }
	[ -n "$initrd" ] || { echo "qemu-run.sh: --kernel needs --initrd" >&2; exit 2; }
	for f in "$kernel" "$initrd"; do
		[ -r "$f" ] || { echo "qemu-run.sh: cannot read '$f'" >&2; exit 2; }
	done
else
	[ -n "$image" ] || { echo "qemu-run.sh: --image or --kernel is required" >&2; usage >&2; exit 2; }
	[ -r "$image" ] || { echo "qemu-run.sh: cannot read image '$image'" >&2; exit 2; }
fi
case $timeout in ''|*[!0-9]*) echo "qemu-run.sh: --timeout needs whole seconds" >&2; exit 2 ;; esac
case $accel in tcg|kvm) ;; *) echo "qemu-run.sh: --accel (or ACCEL) is tcg or kvm, not '$accel'" >&2; exit 2 ;; esac
case $icount in 0|1) ;; *) echo "qemu-run.sh: ICOUNT is 1 (count instructions) or 0, not '$icount'" >&2; exit 2 ;; esac

OVMF_CODE=/usr/share/OVMF/OVMF_CODE_4M.fd
OVMF_VARS=/usr/share/OVMF/OVMF_VARS_4M.fd
[ -r "$OVMF_CODE" ] || { echo "qemu-run.sh: $OVMF_CODE missing: run 'make deps'" >&2; exit 2; }

rundir=$(mktemp -d "${TMPDIR:-/tmp}/folium-qemu.XXXXXX")
cp "$OVMF_VARS" "$rundir/vars.fd"

# kvm_probe: print "yes", or why a KVM guest does not boot here. The guest
# is OVMF alone: it must print its boot manager's "BdsDxe" lines on the
# serial port within 20 s (TCG takes about 4 s).
kvm_probe() {
	[ -w /dev/kvm ] || { echo "no writable /dev/kvm"; return; }
	cp "$OVMF_VARS" "$rundir/probe-vars.fd"
	: > "$rundir/probe.log"
	qemu-system-x86_64 -accel kvm -machine q35 -cpu max -m 128M \
		-drive "if=pflash,format=raw,readonly=on,file=$OVMF_CODE" \
		-drive "if=pflash,format=raw,file=$rundir/probe-vars.fd" -nic none -no-reboot \
		-display none -monitor none -serial "file:$rundir/probe.log" \
		</dev/null >"$rundir/probe.out" 2>&1 &
	probe_pid=$!
	i=0
	while [ $i -lt 100 ] && kill -0 "$probe_pid" 2>/dev/null &&
		! grep -q BdsDxe "$rundir/probe.log"; do
		sleep 0.2; i=$((i + 1))
	done
	if grep -q BdsDxe "$rundir/probe.log"; then
		echo yes
	elif kill -0 "$probe_pid" 2>/dev/null; then
		echo "the guest printed nothing in 20 s (KVM internal error?)"
	else
		echo "QEMU stopped: $(head -n 1 "$rundir/probe.out")"
	fi
	kill -KILL "$probe_pid" 2>/dev/null || true
	wait "$probe_pid" 2>/dev/null || true
}

if [ "$accel" = kvm ]; then
	probe_cache=${TMPDIR:-/tmp}/folium-kvm-probe.$(cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo unknown)
	[ -s "$probe_cache" ] || kvm_probe > "$probe_cache"
	kvm_ok=$(cat "$probe_cache")
	if [ "$kvm_ok" != yes ]; then
		echo "qemu-run.sh: warning: KVM cannot boot a guest here ($kvm_ok); using TCG" >&2
		accel=tcg
	fi
fi

if [ "$icount" = 1 ] && [ "$accel" = kvm ]; then
	echo "qemu-run.sh: --icount (ICOUNT=1) counts instructions under TCG only; KVM runs the guest natively" >&2
	rm -rf "$rundir"
	exit 2
fi

# The image is opened with snapshot=on: a run never modifies it.
if [ -n "$kernel" ]; then
	disk=
elif [ "$usb" = 1 ]; then
	disk="-device qemu-xhci,id=xhci -drive if=none,id=stick,format=raw,snapshot=on,file=$image -device usb-storage,bus=xhci.0,drive=stick,removable=on"
else
	disk="-drive if=none,id=disk0,format=raw,snapshot=on,file=$image -device ide-hd,drive=disk0,bus=ide.0"
fi
set -- qemu-system-x86_64 -accel "$accel" -machine q35 -cpu max -m "$mem" -smp "$cpus" \
	-drive "if=pflash,format=raw,readonly=on,file=$OVMF_CODE" \
	-drive "if=pflash,format=raw,file=$rundir/vars.fd" \
	-nic none -no-reboot $disk
[ -z "$kernel" ] || set -- "$@" -kernel "$kernel" -initrd "$initrd" -append "$append"
[ "$icount" = 0 ] || set -- "$@" -icount shift=0

case $mode in
interactive)
	[ "$gdb" = 1 ] && set -- "$@" -s -S
	if [ -n "${DISPLAY:-}" ]; then
		set -- "$@" -serial mon:stdio
	else
		set -- "$@" -nographic
	fi
	"$@"
	status=$?
	rm -rf "$rundir"
	exit $status ;;
stdio)
	set -- "$@" -display none -monitor none -serial stdio
	trap 'rm -rf "$rundir"' EXIT
	exec "$@" ;;
esac

[ -n "$log" ] || log=$rundir/serial.log
: > "$log"
if [ -n "$monitor" ]; then
	rm -f "$monitor.in" "$monitor.out"
	mkfifo "$monitor.in" "$monitor.out"
	set -- "$@" -chardev "pipe,id=mon0,path=$monitor" -mon chardev=mon0
else
	set -- "$@" -monitor none
fi
set -- "$@" -display none -serial "file:$log"
if [ -n "$show" ]; then
	{
		for a; do
			case $a in *[[:space:]\'\"]*) printf "'%s' " "$a" ;; *) printf '%s ' "$a" ;; esac
		done
		echo
	} | sed "s#$rundir#RUNDIR#g; s/ \$//" > "$show"
fi
"$@" </dev/null >"$rundir/qemu.out" 2>&1 &
qemu_pid=$!
stop_qemu() {
	kill -TERM "$qemu_pid" 2>/dev/null || true
	i=0
	while kill -0 "$qemu_pid" 2>/dev/null && [ $i -lt 20 ]; do
		sleep 0.1; i=$((i + 1))
	done
	kill -KILL "$qemu_pid" 2>/dev/null || true
	wait "$qemu_pid" 2>/dev/null || true
}
cleanup() {
	stop_qemu
	rm -rf "$rundir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

start=$(date +%s)
while :; do
	if [ -n "$expect" ] && grep -qF -- "$expect" "$log"; then
		exit 0
	fi
	if [ -n "$fail_on" ] && grep -qF -- "$fail_on" "$log"; then
		# The text may have arrived between the two greps: --expect wins.
		[ -n "$expect" ] && grep -qF -- "$expect" "$log" && exit 0
		echo "qemu-run.sh: the log shows '$fail_on'; stopping QEMU; serial log: $log" >&2
		exit 1
	fi
	if ! kill -0 "$qemu_pid" 2>/dev/null; then
		wait "$qemu_pid" && status=0 || status=$?
		if [ -n "$expect" ]; then
			grep -qF -- "$expect" "$log" && exit 0
			echo "qemu-run.sh: QEMU exited (status $status) before the log showed '$expect'" >&2
			exit 1
		fi
		[ "$status" = 0 ] || { echo "qemu-run.sh: QEMU failed (status $status):" >&2; cat "$rundir/qemu.out" >&2; }
		exit "$status"
	fi
	if [ "$timeout" -gt 0 ] && [ $(($(date +%s) - start)) -ge "$timeout" ]; then
		echo "qemu-run.sh: timeout after ${timeout}s${expect:+ waiting for '$expect'}; serial log: $log" >&2
		exit 124
	fi
	sleep 0.2
done
