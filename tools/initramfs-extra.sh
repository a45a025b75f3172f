#!/bin/sh
# Pack programs of this machine, with the dynamic loader and the shared
# libraries each one loads, into a cpio "newc" archive to append to the
# initramfs (`make initramfs-extra PROGS="ls cat"`). A name is looked up
# in PATH and kept at its path (ls: /usr/bin/ls); a path to a file of
# your own (./hello) goes to /usr/local/bin/ under its name. The loader
# and libraries go where the program asks for them:
# /lib64/ld-linux-x86-64.so.2, /lib/x86_64-linux-gnu/libc.so.6, ...
# (links followed: the archive holds the bytes). The loader names the libraries itself (`LOADER --list
# PROGRAM`, what ldd runs; glibc's and musl's both answer it), so a
# musl-linked program works too. No PROGRAM: an empty file, which adds
# nothing when appended.
# Usage: sh tools/initramfs-extra.sh OUT.cpio [PROGRAM...]
set -eu
[ $# -ge 1 ] || { echo "usage: sh tools/initramfs-extra.sh OUT.cpio [PROGRAM...]" >&2; exit 2; }
out=$1
shift
if [ $# -eq 0 ]; then
	: > "$out"
	echo "initramfs-extra: $out: empty (no programs)"
	exit 0
fi
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

# in_path NAME: the first executable file NAME in $PATH (not a shell
# builtin: true, echo and test are programs too).
in_path() {
	(
		IFS=:
		for dir in $PATH; do
			[ -f "$dir/$1" ] && [ -x "$dir/$1" ] && { echo "$dir/$1"; exit 0; }
		done
		exit 1
	)
}

# add FILE [PATH]: a copy of FILE's bytes at PATH (default: FILE's own
# path) in the archive.
add() {
	mkdir -p "$root$(dirname "${2:-$1}")"
	cp -L "$1" "$root${2:-$1}"
}

for prog in "$@"; do
	case $prog in
	*/*) path=$prog dest=/usr/local/bin/${prog##*/} ;;
	*) path=$(in_path "$prog") || path= dest= ;;
	esac
	if [ -z "$path" ] || [ ! -f "$path" ]; then
		echo "initramfs-extra: $prog: no such program on this machine" >&2
		exit 1
	fi
	add "$path" "${dest:-$path}"
	interp=$(readelf -lW "$path" | sed -n 's/.*\[Requesting program interpreter: \(.*\)\]$/\1/p')
	[ -n "$interp" ] || continue # static: nothing else to carry
	add "$interp"
	if ! libs=$("$interp" --list "$path" 2>&1); then
		echo "initramfs-extra: $prog: its loader $interp cannot list its libraries:" >&2
		echo "$libs" >&2
		exit 1
	fi
	for lib in $(echo "$libs" | sed -n 's/.*=> \(\/[^ ]*\) (0x.*/\1/p'); do
		add "$lib"
	done
done
find "$root" -exec touch -h -d @0 {} +
(cd "$root" && find . -mindepth 1 | LC_ALL=C sort |
	cpio -o -H newc --reproducible --owner=0:0 --quiet) > "$out.tmp"
mv "$out.tmp" "$out"
echo "initramfs-extra: $out: $# program(s), $(find "$root" -type f | wc -l) files, $(du -sk "$root" | cut -f1) KiB"
