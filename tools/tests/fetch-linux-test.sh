#!/bin/sh
# fetch-linux-test.sh: tools/fetch-linux.sh against Debian's archive. A pin
# the suite does not have stops the fetch, names the versions the suite
# has and leaves no kernel behind; a kernel already fetched is kept without
# asking the archive again; bad arguments print the usage.
# Usage: sh tools/tests/fetch-linux-test.sh BUILD_DIR SUITE PACKAGE VERSION CONFIG_PACKAGE
#   (a pin make has fetched into BUILD_DIR/linux/VERSION: config.mk's LINUX_NEW)
set -u
B=$1 suite=$2 pkg=$3 ver=$4 cfgpkg=$5
fail=0
check() { # check WHAT COND...
	what=$1
	shift
	if "$@"; then echo "ok   $what"; else echo "FAIL $what"; fail=1; fi
}

# The same package in a version no suite will have.
out=$(sh tools/fetch-linux.sh "$B/linux/0.0-test" "$suite" "$pkg" 0.0-test "$cfgpkg" 2>&1)
status=$?
echo "$out" | cut -c 1-300
check "a missing pin fails" [ "$status" = 1 ]
check "it says the pin is not in the suite" \
	sh -c "echo \"\$1\" | grep -qF \"$pkg=0.0-test is not in \"" - "$out"
check "it names the pinned version among those the suite has" \
	sh -c "echo \"\$1\" | grep -qF \"$pkg=$ver\"" - "$out"
check "it leaves no kernel behind" [ ! -e "$B/linux/0.0-test/vmlinuz" ]
rm -rf "$B/linux/0.0-test"

# An archive that cannot be reached: a clear error, nothing left behind.
out=$(DEBIAN_MIRROR=http://folium-no-such-mirror.invalid/debian \
	sh tools/fetch-linux.sh "$B/linux/0.0-test" "$suite" "$pkg" "$ver" "$cfgpkg" 2>&1)
status=$?
echo "$out" | cut -c 1-300
check "an unreachable mirror fails" [ "$status" = 1 ]
check "it says apt-get update failed" sh -c "echo "\$1" | grep -qF 'apt-get update of http://folium-no-such-mirror.invalid/debian $suite failed'" - "$out"
check "it leaves no kernel behind" [ ! -e "$B/linux/0.0-test/vmlinuz" ]
rm -rf "$B/linux/0.0-test"

# The pinned kernel is there: kept as it is, with no archive access (a
# mirror that does not exist would fail any apt-get call).
before=$(ls -l --time-style=+%s.%N "$B/linux/$ver/vmlinuz")
out=$(DEBIAN_MIRROR=http://folium-no-such-mirror.invalid/debian \
	sh tools/fetch-linux.sh "$B/linux/$ver" "$suite" "$pkg" "$ver" "$cfgpkg" 2>&1)
status=$?
check "a fetched pin is kept without the archive (exit $status: $out)" [ "$status" = 0 ]
check "the kernel is not rewritten" [ "$before" = "$(ls -l --time-style=+%s.%N "$B/linux/$ver/vmlinuz")" ]
check "source.txt records the pin and the SHA-256" \
	grep -q "^suite=$suite package=$pkg version=$ver " "$B/linux/$ver/source.txt"
check "the config is Linux's" grep -q '^CONFIG_TRANSPARENT_HUGEPAGE=y' "$B/linux/$ver/config"

out=$(sh tools/fetch-linux.sh only-one-argument 2>&1)
status=$?
check "bad arguments: usage, exit 2" [ "$status" = 2 ]
check "the usage names the arguments" sh -c "echo \"\$1\" | grep -q 'usage: sh tools/fetch-linux.sh OUTDIR SUITE PACKAGE VERSION'" - "$out"
exit $fail
