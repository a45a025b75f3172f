#!/bin/sh
# fetch-linux.sh: one reference kernel of the side-by-side, fetched from
# Debian's archive as data, never installed. apt-get runs with a private
# source list, state and cache under the build tree, so the system's apt
# configuration, /boot and its initramfs are never touched; apt checks the
# suite's Release file against Debian's keyring, and this script checks the
# .deb's SHA-256 against that signed index before extracting anything.
# Example: sh tools/fetch-linux.sh build/linux/7.3.4-1~bpo13+1 trixie-backports \
#     linux-binary-7.3.4+deb13-amd64 7.3.4-1~bpo13+1 linux-base-7.3.4+deb13-amd64
# leaves vmlinuz, config (from the second package: Debian's linux-binary-*
# packages hold only the image) and source.txt in that directory.
# When the pinned version is not in the suite, it says so and names the
# versions the suite has; it never falls back to another one.
# Usage: sh tools/fetch-linux.sh OUTDIR SUITE PACKAGE VERSION [CONFIG_PACKAGE]
# Environment: DEBIAN_MIRROR (default http://deb.debian.org/debian),
# DEBIAN_KEYRING (default /usr/share/keyrings/debian-archive-keyring.gpg).
set -eu
export LC_ALL=C
prog=fetch-linux.sh
die() {
	echo "$prog: $*" >&2
	exit 1
}
[ $# -ge 4 ] && [ $# -le 5 ] ||
	{ echo "usage: sh tools/fetch-linux.sh OUTDIR SUITE PACKAGE VERSION [CONFIG_PACKAGE]" >&2; exit 2; }
out=$1 suite=$2 pkg=$3 ver=$4 cfgpkg=${5:-$3}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
keyring=${DEBIAN_KEYRING:-/usr/share/keyrings/debian-archive-keyring.gpg}

want="suite=$suite package=$pkg version=$ver config_package=$cfgpkg"
if [ -s "$out/vmlinuz" ] && [ -s "$out/config" ] &&
	[ "$(head -n 1 "$out/source.txt" 2>/dev/null)" = "$want" ]; then
	exit 0
fi
[ -r "$keyring" ] || die "$keyring missing: install debian-archive-keyring (make deps)"
command -v apt-get >/dev/null 2>&1 && command -v dpkg-deb >/dev/null 2>&1 ||
	die "needs apt-get and dpkg-deb (Debian's apt and dpkg) to fetch $pkg"

# One private apt tree per suite, next to the kernels it serves.
apt_dir=$(dirname "$out")/apt/$suite
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/debs"
apt_dir=$(cd "$apt_dir" && pwd)
echo "deb [signed-by=$keyring] $mirror $suite main" >"$apt_dir/sources.list"
: >"$apt_dir/status"
# Root's apt drops to the _apt user to download, which may not write here.
set -- -q -o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null \
	-o "Dir::State::Lists=$apt_dir/lists" -o "Dir::State::Status=$apt_dir/status" \
	-o "Dir::Cache=$apt_dir/cache" -o "APT::Sandbox::User=$(id -un)"

echo "$prog: $pkg $ver from $mirror $suite"
# apt-get update exits 0 when a mirror cannot be reached: its Err lines tell.
apt-get "$@" update >"$apt_dir/update.log" 2>&1 && ! grep -q '^Err:' "$apt_dir/update.log" ||
	die "apt-get update of $mirror $suite failed: $(grep -E '^(Err|E|W):' "$apt_dir/update.log" | head -n 2 | paste -s -d ' ' -)"

# family PACKAGE: the regular expression of the same package in other
# versions (every digit run a number): linux-binary-7.3.4+deb13-amd64 ->
# ^linux-binary-[0-9]+\.[0-9]+\.[0-9]+\+deb[0-9]+-amd64$
family() {
	echo "$1" | sed 's/[.+]/\\&/g; s/[0-9][0-9]*/[0-9]+/g; s/^/^/; s/$/$/'
}

apt_opts="$*"

# fetch PACKAGE: download PACKAGE=$ver, check it, print the .deb's path
# and its SHA-256.
fetch() {
	# shellcheck disable=SC2086 # apt_opts are words without spaces
	sum=$(apt-cache $apt_opts show "$1=$ver" 2>/dev/null | sed -n 's/^SHA256: //p' | head -n 1)
	if [ -z "$sum" ]; then
		# shellcheck disable=SC2086
		have=$(apt-cache $apt_opts search --names-only "$(family "$1")" 2>/dev/null |
			cut -d ' ' -f 1 | while read -r p; do
				apt-cache $apt_opts show "$p" 2>/dev/null | sed -n "s/^Version: /$p=/p"
			done | sort -u -V | paste -s -d ' ' -)
		die "$1=$ver is not in $mirror $suite (it has: ${have:-no such package in any version}); set the pin in config.mk"
	fi
	rm -f "$apt_dir/debs/"*.deb
	# shellcheck disable=SC2086
	(cd "$apt_dir/debs" && apt-get $apt_opts download "$1=$ver" >"$apt_dir/download.log" 2>&1) ||
		die "apt-get download $1=$ver failed: $(grep -E '^(E|W):' "$apt_dir/download.log" | head -n 2 | paste -s -d ' ' -)"
	deb=$(ls "$apt_dir/debs/"*.deb)
	got=$(sha256sum "$deb" | cut -d ' ' -f 1)
	[ "$got" = "$sum" ] || die "$deb: SHA-256 $got, Debian's signed index says $sum"
	echo "$deb $sum"
}

# extract DEB PATTERN DEST: the one member of DEB matching PATTERN, to DEST.
extract() {
	member=$(dpkg-deb --fsys-tarfile "$1" | tar -t | grep -E "$2" | head -n 1)
	[ -n "$member" ] || die "$1 holds no file matching $2"
	dpkg-deb --fsys-tarfile "$1" | tar -xO "$member" >"$3.tmp"
	[ -s "$3.tmp" ] || die "$1: $member is empty"
	mv "$3.tmp" "$3"
}

# The new files replace the old ones only once all are there.
mkdir -p "$out"
trap 'rm -f "$out/vmlinuz.new" "$out/config.new" "$out/source.new"' EXIT
config_member='^\./(boot/config-|usr/lib/modules/[^/]+/config$)'
got=$(fetch "$pkg") || exit 1
# shellcheck disable=SC2086 # the .deb's path and its SHA-256
set -- $got
extract "$1" '^\./(boot/vmlinuz-|usr/lib/modules/[^/]+/vmlinuz$)' "$out/vmlinuz.new"
image_sum=$2
# Debian 12's linux-image-* holds the config too; 13's linux-binary-* does not.
if [ "$cfgpkg" = "$pkg" ]; then
	extract "$1" "$config_member" "$out/config.new"
	rm -f "$1"
else
	rm -f "$1"
	got=$(fetch "$cfgpkg") || exit 1
	# shellcheck disable=SC2086
	set -- $got
	extract "$1" "$config_member" "$out/config.new"
	rm -f "$1"
fi
{
	echo "$want"
	echo "mirror=$mirror sha256=$image_sum"
} >"$out/source.new"
mv "$out/vmlinuz.new" "$out/vmlinuz"
mv "$out/config.new" "$out/config"
mv "$out/source.new" "$out/source.txt"
echo "$prog: $out/vmlinuz ($(grep -m 1 -o '^# Linux/x86 [^ ]* Kernel Configuration' "$out/config" || echo 'config has no version line'))"
