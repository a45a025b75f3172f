#!/bin/sh
# Ctrl-C reaches a ring-3 program as SIGINT: an image with the initramfs
# and no cmdline.txt, QEMU's serial console on stdio, driven by
# tools/tests/signals.session (spin, then 0x03, then "killed by SIGINT"
# and a working shell; the shell echoes and answers while schedtest's
# children spin in the background; ttytest's session mode reads what is
# typed in raw, ISIG and canonical modes). Usage: signals-qemu.sh BUILD_DIR IMAGE_DIR LOG,
# e.g. sh tools/tests/signals-qemu.sh build build/test-images \
# build/test-logs/signals.serial
set -u
[ $# = 3 ] || { echo "usage: $0 BUILD_DIR IMAGE_DIR LOG" >&2; exit 2; }
B=$1
img=$2/signals.img
sh tools/mkimage.sh "$img" "$B/BOOTX64.EFI" "$B/folium.elf" - "$B/initramfs.cpio" || exit 1
exec "$B/tools/serial-session" --boot-timeout 120 --timeout 60 --log "$3" \
	tools/tests/signals.session -- sh tools/qemu-run.sh --serial-stdio --image "$img"
