#!/bin/sh
# fetch-programs-test.sh: tools/fetch-programs.sh against Debian's archive.
# A pin the suite does not have stops the fetch, names the versions the
# suite has and leaves no program behind; a program already fetched is
# kept without asking the archive again; bad arguments print the usage.
# Usage: sh tools/tests/fetch-programs-test.sh BUILD_DIR SUITE NAME PACKAGE VERSION MEMBER
#   (a pin make has fetched into BUILD_DIR/distro/NAME: config.mk's busybox)
set -u
B=$1 suite=$2 name=$3 pkg=$4 ver=$5 member=$6
fail=0
check() { # check WHAT COND...
	what=$1
	shift
	if "$@"; then echo "ok   $what"; else echo "FAIL $what"; fail=1; fi
}
scratch=$B/distro-test
rm -rf "$scratch"

# The same package in a version no suite will have.
out=$(sh tools/fetch-programs.sh "$scratch" "$suite" "$name" "$pkg" 0.0-test "$member" 2>&1)
status=$?
echo "$out" | cut -c 1-300
check "a missing pin fails" [ "$status" = 1 ]
check "it says the pin is not in the suite" \
	sh -c "echo \"\$1\" | grep -qF \"$pkg=0.0-test is not in \"" - "$out"
check "it names the pinned version among those the suite has" \
	sh -c "echo \"\$1\" | grep -qF \"$pkg=$ver\"" - "$out"
check "it leaves no program behind" [ ! -e "$scratch/$name" ]
rm -rf "$scratch"

# The pinned program is there: kept as it is, with no archive access (a
# mirror that does not exist would fail any apt-get call).
before=$(ls -l --time-style=+%s.%N "$B/distro/$name")
out=$(DEBIAN_MIRROR=http://folium-no-such-mirror.invalid/debian \
	sh tools/fetch-programs.sh "$B/distro" "$suite" "$name" "$pkg" "$ver" "$member" 2>&1)
status=$?
check "a fetched pin is kept without the archive (exit $status: $out)" [ "$status" = 0 ]
check "the program is not rewritten" [ "$before" = "$(ls -l --time-style=+%s.%N "$B/distro/$name")" ]
check "NAME.source records the pin and the SHA-256" \
	grep -q "^suite=$suite package=$pkg version=$ver member=$member$" "$B/distro/$name.source"
check "the program is an x86-64 ELF" sh -c "head -c 20 \"\$1\" | od -An -tx1 | tr -d ' \\n' | grep -q '^7f454c46020101.*3e00'" - "$B/distro/$name"

# A member the package does not hold: a clear error, nothing left behind.
out=$(sh tools/fetch-programs.sh "$scratch" "$suite" "$name" "$pkg" "$ver" ./bin/no-such-member 2>&1)
status=$?
echo "$out" | cut -c 1-300
check "a missing member fails" [ "$status" = 1 ]
check "it names the member" sh -c "echo \"\$1\" | grep -qF 'holds no file matching'" - "$out"
check "it leaves no program behind" [ ! -e "$scratch/$name" ]
rm -rf "$scratch"

out=$(sh tools/fetch-programs.sh only-one-argument 2>&1)
status=$?
check "bad arguments: usage, exit 2" [ "$status" = 2 ]
check "the usage names the arguments" sh -c "echo \"\$1\" | grep -q 'usage: sh tools/fetch-programs.sh OUTDIR SUITE NAME PACKAGE VERSION MEMBER'" - "$out"
exit $fail
