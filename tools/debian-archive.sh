# debian-archive.sh: fetching one package's files from Debian's archive as
# data, never installing it. Sourced by tools/fetch-linux.sh and
# tools/fetch-program.sh, which set $prog and call, in order:
#   apt_setup DIR SUITE    a private apt tree in DIR for SUITE (apt-get
#                          update checks the Release file against Debian's
#                          keyring; the system's apt state is never used)
#   deb_fetch PACKAGE VERSION   download it, check its SHA-256 against the
#                          signed index, print "DEB SHA256"; a version the
#                          suite lacks stops with the versions it has
#   deb_extract DEB REGEX DEST  the first member matching REGEX, to DEST
# Environment: DEBIAN_MIRROR (default http://deb.debian.org/debian),
# DEBIAN_KEYRING (default /usr/share/keyrings/debian-archive-keyring.gpg).

die() {
	echo "$prog: $*" >&2
	exit 1
}

apt_setup() {
	mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
	keyring=${DEBIAN_KEYRING:-/usr/share/keyrings/debian-archive-keyring.gpg}
	suite=$2
	[ -r "$keyring" ] || die "$keyring missing: install debian-archive-keyring (make deps)"
	command -v apt-get >/dev/null 2>&1 && command -v dpkg-deb >/dev/null 2>&1 ||
		die "needs apt-get and dpkg-deb (Debian's apt and dpkg)"
	apt_dir=$1
	mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/debs"
	apt_dir=$(cd "$apt_dir" && pwd)
	echo "deb [signed-by=$keyring] $mirror $suite main" >"$apt_dir/sources.list"
	: >"$apt_dir/status"
	# Root's apt drops to the _apt user to download, which may not write here.
	apt_opts="-q -o Dir::Etc::SourceList=$apt_dir/sources.list -o Dir::Etc::SourceParts=/dev/null \
-o Dir::State::Lists=$apt_dir/lists -o Dir::State::Status=$apt_dir/status \
-o Dir::Cache=$apt_dir/cache -o APT::Sandbox::User=$(id -un)"
	# apt-get update exits 0 when a mirror cannot be reached: its Err lines tell.
	# shellcheck disable=SC2086 # apt_opts are words without spaces
	apt-get $apt_opts update >"$apt_dir/update.log" 2>&1 && ! grep -q '^Err:' "$apt_dir/update.log" ||
		die "apt-get update of $mirror $suite failed: $(grep -E '^(Err|E|W):' "$apt_dir/update.log" | head -n 2 | paste -s -d ' ' -)"
}

# family PACKAGE: the regular expression of the same package in other
# versions (every digit run a number): linux-binary-7.3.4+deb13-amd64 ->
# ^linux-binary-[0-9]+\.[0-9]+\.[0-9]+\+deb[0-9]+-amd64$
family() {
	echo "$1" | sed 's/[.+]/\\&/g; s/[0-9][0-9]*/[0-9]+/g; s/^/^/; s/$/$/'
}

deb_fetch() {
	# shellcheck disable=SC2086
	sum=$(apt-cache $apt_opts show "$1=$2" 2>/dev/null | sed -n 's/^SHA256: //p' | head -n 1)
	if [ -z "$sum" ]; then
		# shellcheck disable=SC2086
		have=$(apt-cache $apt_opts search --names-only "$(family "$1")" 2>/dev/null |
			cut -d ' ' -f 1 | while read -r p; do
				apt-cache $apt_opts show "$p" 2>/dev/null | sed -n "s/^Version: /$p=/p"
			done | sort -u -V | paste -s -d ' ' -)
		die "$1=$2 is not in $mirror $suite (it has: ${have:-no such package in any version}); set the pin in config.mk"
	fi
	rm -f "$apt_dir/debs/"*.deb
	# shellcheck disable=SC2086
	(cd "$apt_dir/debs" && apt-get $apt_opts download "$1=$2" >"$apt_dir/download.log" 2>&1) ||
		die "apt-get download $1=$2 failed: $(grep -E '^(E|W):' "$apt_dir/download.log" | head -n 2 | paste -s -d ' ' -)"
	deb=$(ls "$apt_dir/debs/"*.deb)
	got=$(sha256sum "$deb" | cut -d ' ' -f 1)
	[ "$got" = "$sum" ] || die "$deb: SHA-256 $got, Debian's signed index says $sum"
	echo "$deb $sum"
}

deb_extract() {
	member=$(dpkg-deb --fsys-tarfile "$1" | tar -t | grep -E "$2" | head -n 1)
	[ -n "$member" ] || die "$1 holds no file matching $2"
	dpkg-deb --fsys-tarfile "$1" | tar -xO "$member" >"$3.tmp"
	[ -s "$3.tmp" ] || die "$1: $member is empty"
	mv "$3.tmp" "$3"
}
