#!/bin/sh
# fetch-programs.sh: static programs from Debian's packages (busybox-static,
# bash-static), fetched as data for the initramfs, never installed: a
# private apt tree under OUTDIR (tools/debian-archive.sh), each .deb's
# SHA-256 checked against the suite's signed index, one member extracted
# to OUTDIR/NAME, and OUTDIR/NAME.source recording the pin. A program
# already fetched at its pin is kept without asking the archive again.
# Example: sh tools/fetch-programs.sh build/distro bookworm \
#     busybox busybox-static 1:1.35.0-4+deb12u1+b1 ./bin/busybox
# Usage: sh tools/fetch-programs.sh OUTDIR SUITE NAME PACKAGE VERSION MEMBER [NAME PACKAGE VERSION MEMBER]...
set -eu
export LC_ALL=C
prog=fetch-programs.sh
. "$(dirname "$0")/debian-archive.sh"
usage() {
	echo "usage: sh tools/fetch-programs.sh OUTDIR SUITE NAME PACKAGE VERSION MEMBER [NAME PACKAGE VERSION MEMBER]..." >&2
	exit 2
}
[ $# -ge 6 ] && [ $(($# % 4)) = 2 ] || usage
out=$1 suite=$2
shift 2
mkdir -p "$out"
set_up=
while [ $# -gt 0 ]; do
	name=$1 pkg=$2 ver=$3 member=$4
	shift 4
	want="suite=$suite package=$pkg version=$ver member=$member"
	if [ -s "$out/$name" ] && [ "$(head -n 1 "$out/$name.source" 2>/dev/null)" = "$want" ]; then
		continue
	fi
	if [ -z "$set_up" ]; then
		echo "$prog: from ${DEBIAN_MIRROR:-http://deb.debian.org/debian} $suite"
		apt_setup "$out/apt/$suite" "$suite"
		set_up=1
	fi
	echo "$prog: $pkg $ver"
	got=$(deb_fetch "$pkg" "$ver") || exit 1
	# shellcheck disable=SC2086 # the .deb's path and its SHA-256
	set -- $got "$@"
	deb_extract "$1" "^$(echo "$member" | sed 's/[.+]/\\&/g')\$" "$out/$name.new"
	rm -f "$1"
	chmod 0755 "$out/$name.new"
	{
		echo "$want"
		echo "mirror=$mirror sha256=$2"
	} >"$out/$name.source"
	mv "$out/$name.new" "$out/$name"
	shift 2
done
