#!/bin/sh
# Job control on the serial console, the same script on both kernels:
# tools/tests/jobs.session driven by tools/serial-session against Folium
# (an image with the initramfs and no cmdline.txt: the kernel shell's
# prompt, which starts each typed program in the console's foreground)
# or against Linux 7.3 in the same QEMU (its init runs
# /etc/shells/console.sh, the kernel shell's part). Usage:
#   sh tools/tests/jobs-qemu.sh folium BUILD_DIR IMAGE_DIR LOG
#   sh tools/tests/jobs-qemu.sh linux BUILD_DIR LINUX_VMLINUZ LOG
# e.g. sh tools/tests/jobs-qemu.sh folium build build/test-images \
# build/test-logs/jobs-folium.serial
set -u
usage() {
	echo "usage: $0 folium BUILD_DIR IMAGE_DIR LOG | linux BUILD_DIR LINUX_VMLINUZ LOG" >&2
	exit 2
}
[ $# = 4 ] || usage
B=$2
session() {
	"$B/tools/serial-session" --boot-timeout 120 --timeout 60 --log "$LOG" \
		tools/tests/jobs.session -- sh tools/qemu-run.sh --serial-stdio "$@"
}
LOG=$4
case $1 in
folium)
	img=$3/jobs.img
	sh tools/mkimage.sh "$img" "$B/BOOTX64.EFI" "$B/folium.elf" - "$B/initramfs.cpio" >/dev/null ||
		exit 1
	session --image "$img"
	;;
linux)
	[ -r "$3" ] || { echo "no readable Linux kernel '$3' (make test fetches it)"; exit 1; }
	session --kernel "$3" --initrd "$B/linux-initramfs.cpio" \
		--append "console=ttyS0 quiet panic=-1 -- /bin/sh /etc/shells/console.sh"
	;;
*) usage ;;
esac
