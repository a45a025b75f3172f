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
. "$(dirname "$0")/debian-archive.sh"
[ $# -ge 4 ] && [ $# -le 5 ] ||
	{ echo "usage: sh tools/fetch-linux.sh OUTDIR SUITE PACKAGE VERSION [CONFIG_PACKAGE]" >&2; exit 2; }
out=$1 suite=$2 pkg=$3 ver=$4 cfgpkg=${5:-$3}

want="suite=$suite package=$pkg version=$ver config_package=$cfgpkg"
if [ -s "$out/vmlinuz" ] && [ -s "$out/config" ] &&
	[ "$(head -n 1 "$out/source.txt" 2>/dev/null)" = "$want" ]; then
	exit 0
fi
echo "$prog: $pkg $ver from ${DEBIAN_MIRROR:-http://deb.debian.org/debian} $suite"
# One private apt tree per suite, next to the kernels it serves.
apt_setup "$(dirname "$out")/apt/$suite" "$suite"

# The new files replace the old ones only once all are there.
mkdir -p "$out"
trap 'rm -f "$out/vmlinuz.new" "$out/config.new" "$out/source.new"' EXIT
config_member='^\./(boot/config-|usr/lib/modules/[^/]+/config$)'
got=$(deb_fetch "$pkg" "$ver") || exit 1
# shellcheck disable=SC2086 # the .deb's path and its SHA-256
set -- $got
deb_extract "$1" '^\./(boot/vmlinuz-|usr/lib/modules/[^/]+/vmlinuz$)' "$out/vmlinuz.new"
image_sum=$2
# Debian 12's linux-image-* holds the config too; 13's linux-binary-* does not.
if [ "$cfgpkg" = "$pkg" ]; then
	deb_extract "$1" "$config_member" "$out/config.new"
	rm -f "$1"
else
	rm -f "$1"
	got=$(deb_fetch "$cfgpkg" "$ver") || exit 1
	# shellcheck disable=SC2086
	set -- $got
	deb_extract "$1" "$config_member" "$out/config.new"
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
