#!/bin/sh
# Check for everything the build, `make run`, `make test` and `make bench`
# need (Miller reads the bench CSVs, gnuplot draws the plots, clang-format
# checks the C formatting), and install what is missing from Debian's
# archive (as root, or through sudo).
# On a machine without apt, print exactly what to install and fail.
# Each line below: Debian package, then the file or command proving it is
# installed. FOLIUM_DEPS_EXTRA adds lines of the same form (for tests).
set -u

REQUIREMENTS='
clang              cmd:clang
lld                cmd:ld.lld
nasm               cmd:nasm
binutils           cmd:objcopy
gcc                cmd:cc
make               cmd:make
gnu-efi            file:/usr/lib/crt0-efi-x86_64.o
gnu-efi            file:/usr/include/efi/efi.h
libclang-rt-14-dev glob:/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.asan-x86_64.a
qemu-system-x86    cmd:qemu-system-x86_64
ovmf               file:/usr/share/OVMF/OVMF_CODE_4M.fd
mtools             cmd:mformat
gdisk              cmd:sgdisk
console-setup-linux file:/usr/share/consolefonts/Uni2-Fixed16.psf.gz
gzip               cmd:gzip
debian-archive-keyring file:/usr/share/keyrings/debian-archive-keyring.gpg
cpio               cmd:cpio
musl-tools         cmd:musl-gcc
libc6-dev          file:/usr/lib/x86_64-linux-gnu/libc.a
linux-libc-dev     file:/usr/include/x86_64-linux-gnu/asm/unistd_64.h
gnuplot-nox        cmd:gnuplot
miller             cmd:mlr
clang-format       cmd:clang-format
stress-ng          cmd:stress-ng
'

have() {
	case $1 in
	cmd:*) command -v "${1#cmd:}" >/dev/null 2>&1 ;;
	file:*) [ -e "${1#file:}" ] ;;
	glob:*) for f in ${1#glob:}; do [ -e "$f" ] && return 0; done; return 1 ;;
	esac
}

missing=
missing_what=
while read -r pkg what; do
	[ -n "$pkg" ] || continue
	if ! have "$what"; then
		case " $missing " in *" $pkg "*) ;; *) missing="$missing $pkg" ;; esac
		missing_what="$missing_what ${what#*:}"
	fi
done <<EOF_REQ
$REQUIREMENTS
${FOLIUM_DEPS_EXTRA:-}
EOF_REQ

[ -z "$missing" ] && exit 0

echo "deps: missing:$missing_what"
if ! command -v apt-get >/dev/null 2>&1; then
	echo "deps: this machine has no apt-get. Install the equivalents of these" >&2
	echo "deps: Debian packages, then run make again:$missing" >&2
	exit 1
fi
if [ "$(id -u)" = 0 ]; then
	SUDO=
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	SUDO=sudo
else
	echo "deps: installing needs root. Run:" >&2
	echo "    sudo apt-get install -y$missing" >&2
	echo "deps: (or run 'make deps' as root), then run make again." >&2
	exit 1
fi
echo "deps: installing with apt-get:$missing"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq || { echo "deps: apt-get update failed" >&2; exit 1; }
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing || {
	echo "deps: apt-get install failed for:$missing" >&2
	exit 1
}
echo "deps: installed:$missing"
