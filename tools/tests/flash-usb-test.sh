#!/bin/sh
# flash-usb-test.sh: check tools/flash-usb.sh's refusals and its success path
# against a fake sysfs and mount table. The "device" is always a regular file
# in a temporary directory: no real block device is ever opened for writing.
# Exit 0 when every case passes; otherwise print the failing cases.
set -u

here=$(cd "$(dirname "$0")/.." && pwd)
flash=$here/flash-usb.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
failed=0
sysfs_root=$tmp/sys

# fake_disk NAME REMOVABLE SECTORS: a sysfs entry and a stand-in device file.
fake_disk() {
	mkdir -p "$tmp/sys/block/$1/device" "$tmp/dev"
	echo "$2" >"$tmp/sys/block/$1/removable"
	echo "$3" >"$tmp/sys/block/$1/size"
	echo "FakeVendor" >"$tmp/sys/block/$1/device/vendor"
	echo "Fake Stick $1" >"$tmp/sys/block/$1/device/model"
	: >"$tmp/dev/$1"
}

# expect NAME WANT_STATUS PATTERN INPUT -- ARGS...: run flash-usb.sh with the
# fake sysfs, INPUT on stdin, and check its exit status and output.
expect() {
	name=$1 want=$2 pattern=$3 input=$4
	shift 5
	out=$(printf '%s\n' "$input" |
		FOLIUM_SYSFS_ROOT=$sysfs_root \
		FOLIUM_PROC_MOUNTS=$tmp/mounts "$flash" "$@" 2>&1)
	status=$?
	if [ "$status" -ne "$want" ] || ! printf '%s' "$out" | grep -q -- "$pattern"; then
		echo "FAIL: $name: exit $status (want $want), output:"
		printf '%s\n' "$out" | sed 's/^/    /'
		failed=$((failed + 1))
	else
		echo "ok: $name"
	fi
}

head -c 100000 /dev/urandom >"$tmp/folium.img"
echo "/dev/sda2 / ext4 rw 0 0" >"$tmp/mounts"
fake_disk sdx 1 4096
fake_disk sdy 0 4096
fake_disk sdt 1 8
mkdir -p "$tmp/sys/block/sdx/sdx1"

expect help 0 "usage: flash-usb.sh /dev/sdX" "" -- --help
expect no-args 2 "usage:" "" --
expect missing-image 1 "image $tmp/none.img not found" "" -- \
	"$tmp/dev/sdx" "$tmp/none.img"
sysfs_root=/sys	# the real one: a regular file must be refused there
expect not-block-device 1 "refusing $tmp/dev/sdx: not a block device" \
	"" -- "$tmp/dev/sdx" "$tmp/folium.img"
sysfs_root=$tmp/sys
: >"$tmp/dev/sdx1"
expect partition 1 "not a whole disk" "" -- "$tmp/dev/sdx1" "$tmp/folium.img"
expect not-removable 1 "refusing $tmp/dev/sdy: not a removable device" "" -- \
	"$tmp/dev/sdy" "$tmp/folium.img"
echo "/dev/sdx1 /media/stick vfat rw 0 0" >>"$tmp/mounts"
expect mounted-partition 1 "/dev/sdx1 is mounted on /media/stick; unmount it first" \
	"" -- "$tmp/dev/sdx" "$tmp/folium.img"
echo "/dev/sda2 / ext4 rw 0 0" >"$tmp/mounts"
expect too-small 1 "larger than the device" "" -- "$tmp/dev/sdt" "$tmp/folium.img"
expect wrong-confirmation 1 "aborted: 'sdz' is not 'sdx'; nothing was written" \
	"sdz" -- "$tmp/dev/sdx" "$tmp/folium.img"
if [ -s "$tmp/dev/sdx" ]; then
	echo "FAIL: wrong-confirmation wrote to the device"
	failed=$((failed + 1))
fi
expect shows-model 0 "model:  Fake Stick sdx" "sdx" -- \
	"$tmp/dev/sdx" "$tmp/folium.img"
if cmp -s "$tmp/folium.img" "$tmp/dev/sdx"; then
	echo "ok: success path wrote the image"
else
	echo "FAIL: success path: device content differs from the image"
	failed=$((failed + 1))
fi

[ "$failed" -eq 0 ] && echo "flash-usb-test: all passed" && exit 0
echo "flash-usb-test: $failed failed"
exit 1
