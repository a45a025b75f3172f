#!/bin/sh
# flash-usb.sh: write the Folium disk image to a USB stick, carefully.
# Refuses anything but a whole, removable, unmounted disk, shows what it is
# and wants its name typed back before dd touches it. For tests the system
# views can be faked: FOLIUM_SYSFS_ROOT (default /sys) and FOLIUM_PROC_MOUNTS
# (default /proc/mounts); with a fake sysfs a regular file may stand in for
# the device.
set -eu

prog=flash-usb.sh
sysfs=${FOLIUM_SYSFS_ROOT:-/sys}
mounts=${FOLIUM_PROC_MOUNTS:-/proc/mounts}
default_image=$(dirname "$0")/../build/folium.img

usage() {
	cat <<USAGE
usage: $prog /dev/sdX [IMAGE]
  Write IMAGE (default build/folium.img) to the USB stick /dev/sdX.
  Everything on the stick is lost. The device must be a whole disk (sdb,
  not sdb1), removable, with no partition mounted; you will be asked to
  type its name to confirm.
USAGE
}

die() {
	echo "$prog: $*" >&2
	exit 1
}

refuse() {
	die "refusing $dev: $*"
}

# The device node itself: a block device, or a stand-in file under a fake sysfs.
check_node() {
	[ -b "$dev" ] && return
	if [ "$sysfs" != /sys ] && [ -f "$dev" ]; then
		return
	fi
	refuse "not a block device"
}

check_whole_removable() {
	[ -d "$sysfs/block/$name" ] ||
		refuse "not a whole disk (give the disk, e.g. /dev/sdb, not a partition like /dev/sdb1)"
	removable=$(cat "$sysfs/block/$name/removable" 2>/dev/null || echo unknown)
	[ "$removable" = 1 ] ||
		refuse "not a removable device ($sysfs/block/$name/removable is $removable)"
}

# Any mount whose source is the disk or one of its partitions (sdb1, nvme0n1p1).
check_unmounted() {
	while read -r src mp rest; do
		case $src in
		"/dev/$name" | "/dev/$name"[0-9]* | "/dev/$name"p[0-9]*)
			refuse "$src is mounted on $mp; unmount it first" ;;
		esac
	done <"$mounts"
}

describe() {
	d=$sysfs/block/$name/device
	vendor=$(cat "$d/vendor" 2>/dev/null || echo '?')
	model=$(cat "$d/model" 2>/dev/null || echo '?')
	sectors=$(cat "$sysfs/block/$name/size" 2>/dev/null || echo 0)
	bytes=$(( sectors * 512 ))
	echo "Device: $dev"
	echo "  vendor: $vendor"
	echo "  model:  $model"
	echo "  size:   $(( bytes / 1000000 )) MB ($bytes bytes)"
	echo "Image:  $image ($image_bytes bytes)"
	[ "$bytes" -ge "$image_bytes" ] ||
		refuse "the image ($image_bytes bytes) is larger than the device ($bytes bytes)"
}

confirm() {
	printf 'ALL DATA ON %s WILL BE LOST. Type the device name (%s) to continue: ' \
		"$dev" "$name"
	read -r answer || answer=
	case $answer in
	"$name" | "$dev") ;;
	*) die "aborted: '$answer' is not '$name'; nothing was written" ;;
	esac
}

case "${1:-}" in
-h | --help) usage; exit 0 ;;
"") usage >&2; exit 2 ;;
esac
[ $# -le 2 ] || { usage >&2; exit 2; }
dev=$1
image=${2:-$default_image}
[ -f "$image" ] || die "image $image not found (build it with make)"
image_bytes=$(wc -c <"$image" | tr -d ' ')
if command -v readlink >/dev/null 2>&1 && [ -L "$dev" ]; then
	dev=$(readlink -f "$dev")	# e.g. /dev/disk/by-id/usb-... -> /dev/sdb
fi
name=$(basename "$dev")

check_node
check_whole_removable
check_unmounted
describe
confirm
dd if="$image" of="$dev" bs=4M conv=fsync status=progress ||
	die "dd failed; the stick is probably unusable until rewritten"
sync
echo "$prog: wrote $image to $dev; you can remove the stick"
