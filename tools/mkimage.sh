#!/bin/sh
# mkimage.sh: build a bootable GPT disk image (64 MiB, or larger as the
# files need: 16 MiB more than they take) holding one FAT32 EFI
# System Partition with the loader, the kernel and (optionally) its command
# line and initramfs. Uses sgdisk and mtools on a plain file: no loop
# devices, no root.
# Layout: GPT, ESP from 1 MiB (LBA 2048) to 1 MiB before the end, FAT32
# with 512 B clusters.
# The GPT is written here with printf and dd (sgdisk sleeps a second per run).
set -eu

usage() {
	cat <<USAGE
usage: $0 OUT.img BOOTX64.EFI folium.elf [CMDLINE_FILE|- [INITRAMFS|-]]
  Writes OUT.img with /EFI/BOOT/BOOTX64.EFI, /folium/folium.elf,
  /folium/cmdline.txt and /folium/initramfs.cpio. With CMDLINE_FILE '-' or
  absent there is no cmdline.txt (the kernel then boots with its
  defaults); with INITRAMFS '-' or absent there is no initramfs.cpio (the
  kernel then has no files). folium.elf may be '-' to leave the kernel out
  (to test the loader's error path).
USAGE
}

die() {
	echo "mkimage.sh: $*" >&2
	exit 1
}

case "${1:-}" in
-h | --help) usage; exit 0 ;;
esac
[ $# -ge 3 ] && [ $# -le 5 ] || { usage >&2; exit 2; }
out=$1 efi=$2 elf=$3 cmdline=${4:--} initramfs=${5:--}

[ -f "$efi" ] || die "loader $efi not found"
[ "$elf" = - ] || [ -f "$elf" ] || die "kernel $elf not found"
[ "$cmdline" = - ] || [ -f "$cmdline" ] || die "command line file $cmdline not found"
[ "$initramfs" = - ] || [ -f "$initramfs" ] || die "initramfs $initramfs not found"

# The files' MiB, rounded up, plus room for the FATs and the GPT.
file_mib() {
	[ "$1" = - ] && { echo 0; return; }
	echo $(( ($(wc -c < "$1") + 1048575) / 1048576 ))
}
DISK_MIB=$(( $(file_mib "$efi") + $(file_mib "$elf") + $(file_mib "$cmdline") + \
	$(file_mib "$initramfs") + 16 ))
[ $DISK_MIB -ge 64 ] || DISK_MIB=64
SECTORS=$(( DISK_MIB * 2048 ))
PART_START=2048				# 1 MiB
PART_SECTORS=$(( (DISK_MIB - 2) * 2048 ))	# room for the backup GPT
PART_END=$(( PART_START + PART_SECTORS - 1 ))
ENTRIES_SECTORS=32			# 128 entries of 128 bytes
BACKUP_ENTRIES=$(( SECTORS - 1 - ENTRIES_SECTORS ))

# le VALUE BYTES: VALUE as BYTES little-endian bytes, in printf escapes.
le() {
	v=$1 n=$2 s=
	while [ "$n" -gt 0 ]; do
		s="$s\\$(printf %03o $(( v & 255 )))"
		v=$(( v >> 8 )) n=$(( n - 1 ))
	done
	printf %s "$s"
}

# random_guid: 16 random bytes marked as a version 4 GUID, in printf escapes.
random_guid() {
	i=0 s=
	for h in $(od -An -tx1 -N16 /dev/urandom); do
		b=$(( 0x$h ))
		[ $i -eq 7 ] && b=$(( (b & 15) | 64 ))
		[ $i -eq 8 ] && b=$(( (b & 63) | 128 ))
		s="$s\\$(printf %03o $b)" i=$(( i + 1 ))
	done
	printf %s "$s"
}

# put OFFSET ESCAPES: write the bytes at OFFSET of the image.
put() {
	printf "$2" | dd of="$out" bs=1 seek="$1" conv=notrunc 2>/dev/null ||
		die "cannot write to $out"
}

# put_crc32 OFFSET SKIP COUNT BS: store the CRC32 of the COUNT blocks of BS
# bytes at block SKIP at OFFSET; gzip's trailer starts with that CRC32.
put_crc32() {
	dd if="$out" bs="$4" skip="$2" count="$3" 2>/dev/null | gzip -c |
		tail -c 8 | dd of="$out" bs=1 count=4 seek="$1" conv=notrunc \
		2>/dev/null || die "cannot checksum $out"
}

# gpt_header LBA OTHER_LBA ENTRIES_LBA: one GPT header (UEFI 2.10, 5.3.2).
gpt_header() {
	o=$(( $1 * 512 ))
	put $o "EFI PART$(le 65536 4)$(le 92 4)$(le 0 8)$(le $1 8)$(le $2 8)"
	put $(( o + 40 )) "$(le 34 8)$(le $(( BACKUP_ENTRIES - 1 )) 8)$disk_guid"
	put $(( o + 72 )) "$(le $3 8)$(le 128 4)$(le 128 4)"
	put_crc32 $(( o + 88 )) 2 $ENTRIES_SECTORS 512
	put_crc32 $(( o + 16 )) $o 92 1	# with its own CRC field still 0
}

# write_gpt: protective MBR, one EFI System Partition, primary and backup.
write_gpt() {
	disk_guid=$(random_guid)
	esp_type='\050\163\052\301\037\370\322\021\272\113\000\240\311\076\311\073'
	name=$(printf 'EFI System' | sed 's/./&\\000/g')
	entry="$esp_type$(random_guid)$(le $PART_START 8)$(le $PART_END 8)"
	put 1024 "$entry$(le 0 8)$name"
	dd if="$out" bs=512 skip=2 count=$ENTRIES_SECTORS 2>/dev/null |
		dd of="$out" bs=512 seek=$BACKUP_ENTRIES conv=notrunc 2>/dev/null
	gpt_header 1 $(( SECTORS - 1 )) 2
	gpt_header $(( SECTORS - 1 )) 1 $BACKUP_ENTRIES
	put 446 "\\000\\000\\002\\000\\356\\377\\377\\377$(le 1 4)$(le $(( SECTORS - 1 )) 4)"
	put 510 '\125\252'
}

fat="$out@@$(( PART_START * 512 ))"
export MTOOLS_SKIP_CHECK=1

rm -f "$out"
dd if=/dev/zero of="$out" bs=1M count=0 seek=$DISK_MIB 2>/dev/null ||
	die "cannot create $out"
write_gpt
mformat -i "$fat" -F -c 1 -T $PART_SECTORS -h 64 -s 32 -H $PART_START \
	-v FOLIUM :: || die "mformat failed on $out"
mmd -i "$fat" ::/EFI ::/EFI/BOOT ::/folium || die "mmd failed on $out"
mcopy -i "$fat" "$efi" ::/EFI/BOOT/BOOTX64.EFI || die "cannot copy $efi"
if [ "$elf" != - ]; then
	mcopy -i "$fat" "$elf" ::/folium/folium.elf || die "cannot copy $elf"
fi
if [ "$cmdline" != - ]; then
	mcopy -i "$fat" "$cmdline" ::/folium/cmdline.txt ||
		die "cannot copy $cmdline"
fi
if [ "$initramfs" != - ]; then
	mcopy -i "$fat" "$initramfs" ::/folium/initramfs.cpio ||
		die "cannot copy $initramfs"
fi
