#!/bin/sh
# Tests for tools/linux-madvise-free (the native-Linux MADV_FREE column).
# Usage: sh tools/tests/linux-madvise-free-test.sh BIN
#
# 1. Skips: exit 77, one "skipped:" line, no setting changed: with no mTHP
#    controls (LINUX_MADVISE_FREE_SYSFS=an empty directory), as nobody, and
#    with the controls mounted read-only (in a private mount namespace).
# 2. As root with the controls: --bytes 64M --runs 1 exits 0, prints a
#    record whose @end count and FNV-1a hash agree (recomputed here with od
#    and awk, not with the tool's code), and leaves every setting as it was.
#    With fake controls whose counters never move, the row is flagged.
# 3. SIGINT and SIGTERM in the middle of a run: every setting is restored.
# What this machine cannot do is reported as "skip:", not failed.
set -u
BIN=$1
THP=/sys/kernel/mm/transparent_hugepage
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
cp "$BIN" "$tmp/linux-madvise-free" # where nobody may run it
BIN=$tmp/linux-madvise-free
failed=0

fail() {
	echo "FAIL: $*"
	failed=$((failed + 1))
}

# Every "enabled"/"defrag" setting under THP, one "path: value" a line.
snapshot() {
	find "$THP" -maxdepth 2 -type f \( -name '*enabled' -o -name defrag \) 2>/dev/null |
		sort | while read -r f; do printf '%s: %s\n' "$f" "$(cat "$f")"; done
}

# matches TEXT PATTERN: TEXT matches the case PATTERN ('*' matches anything).
matches() {
	# shellcheck disable=SC2254 # a pattern on purpose
	case $1 in $2) return 0 ;; esac
	return 1
}

# expect_skip NAME MESSAGE COMMAND...: exit 77, one line "linux-madvise-free:
# skipped: MESSAGE" (a case pattern: its '*' match anything), nothing changed.
expect_skip() {
	es_name=$1 es_msg=$2
	shift 2
	es_before=$(snapshot)
	"$@" >"$tmp/out" 2>&1
	es_rc=$?
	sed 's/^/    /' "$tmp/out"
	if [ $es_rc != 77 ]; then
		fail "$es_name: exit $es_rc, want 77"
	elif [ "$(wc -l <"$tmp/out")" != 1 ]; then
		fail "$es_name: want one line"
	elif ! matches "$(cat "$tmp/out")" "linux-madvise-free: skipped: $es_msg"; then
		fail "$es_name: want 'linux-madvise-free: skipped: $es_msg'"
	elif [ "$(snapshot)" != "$es_before" ]; then
		fail "$es_name: settings changed"
	else
		echo "ok: $es_name"
	fi
}

# FNV-1a 32 of a file's bytes, in decimal (awk has no XOR: bit by bit; the
# multiply is split so that every product stays exact in a double).
fnv1a32() {
	od -An -v -tu1 "$1" | awk '
	BEGIN { h = 2166136261 }
	{
		for (i = 1; i <= NF; i++) {
			lo = h % 256; x = 0
			for (bit = 1; bit < 256; bit *= 2)
				if (int(lo / bit) % 2 != int($i / bit) % 2)
					x += bit
			h = h - lo + x
			h = (h * 403 + (h % 256) * 16777216) % 4294967296
		}
	}
	END { printf "%.0f\n", h }'
}

# check_record FILE: one madvise_free record, well-formed.
check_record() {
	cr_failed=$failed
	sed -n '/^@bench /,/^@end /p' "$1" >"$tmp/rec"
	grep -v '^@end ' "$tmp/rec" >"$tmp/hashed"
	rows=$(grep -c '^@row ' "$tmp/rec")
	# shellcheck disable=SC2046 # split into @end NAME ROWS HASH
	set -- $(grep '^@end ' "$tmp/rec")
	[ "$(grep -c '^@bench madvise_free$' "$tmp/rec")" = 1 ] || { fail "no @bench"; return; }
	if [ $# != 4 ] || [ "$2" != madvise_free ]; then
		fail "bad @end: $*"
		return
	fi
	[ "$3" = "$rows" ] || fail "@end says $3 rows, there are $rows"
	grep -q '^@row 4 ' "$tmp/rec" || fail "no 4K row"
	[ "$rows" -ge 2 ] || fail "only $rows row(s): no mTHP size measured"
	echo "$4" | grep -qE '^[0-9a-f]{8}$' || { fail "hash '$4' is not 8 hex digits"; return; }
	[ "$(fnv1a32 "$tmp/hashed")" = "$((0x$4))" ] ||
		fail "hash: the record says $4, the lines hash to $(fnv1a32 "$tmp/hashed")"
	grep -qx '@cols folio\[KiB\] batched\[ms\] min\[ms\] max\[ms\] folios\[count\] fallbacks\[count\]' \
		"$tmp/rec" || fail "wrong @cols"
	grep -qE '^@env source=linux kernel="[^"]+" cpu="[^"]+" hypervisor="[^"]+" mem_bytes=[0-9]+ range_bytes=67108864 runs=1$' \
		"$tmp/rec" || fail "wrong @env: $(grep '^@env' "$tmp/rec")"
	n=$(grep '^@row ' "$tmp/rec" |
		grep -cvE '^@row [0-9]+( [0-9]+\.[0-9]{3}){3} -?[0-9]+ -?[0-9]+$')
	[ "$n" = 0 ] || fail "$n malformed @row lines"
	[ $failed = "$cr_failed" ] && echo "ok: record: $rows rows, hash $4 recomputed"
}

# interrupt SIGNAL: a long run, SIGNAL once it has changed settings.
interrupt() {
	in_failed=$failed
	before=$(snapshot)
	"$BIN" --bytes 512M --runs 3 >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	i=0
	while [ "$(snapshot)" = "$before" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ $i -lt 100 ] || fail "$1: settings unchanged after 10 s"
	kill -"$1" $pid
	wait $pid
	rc=$?
	cat "$tmp/err"
	[ "$(snapshot)" = "$before" ] || { fail "$1: settings not restored"; return; }
	grep -q "interrupted, mTHP settings restored" "$tmp/err" || fail "$1: no message"
	[ $rc -gt 128 ] || fail "$1: exit $rc"
	[ $failed = "$in_failed" ] && echo "ok: $1 mid-run: settings restored, exit $rc"
}

mkdir "$tmp/empty"
expect_skip "no mTHP controls" "this kernel has no mTHP controls: $tmp/empty/hugepages-*kB/enabled" \
	env LINUX_MADVISE_FREE_SYSFS="$tmp/empty" "$BIN"

ls "$THP"/hugepages-*kB/enabled >/dev/null 2>&1 || {
	expect_skip "this kernel" "this kernel has no mTHP controls: $THP/hugepages-*kB/enabled" "$BIN"
	echo "skip: the rest (no mTHP controls here)"
	exit $((failed > 0))
}
if [ "$(id -u)" != 0 ]; then
	expect_skip "not root" "needs root to change $THP/hugepages-*kB/enabled" "$BIN"
	echo "skip: the rest (needs root)"
	exit $((failed > 0))
fi
if command -v setpriv >/dev/null; then
	expect_skip "as nobody" "needs root to change $THP/hugepages-*kB/enabled" \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$BIN"
else
	echo "skip: as nobody (no setpriv)"
fi
ro_mount="mount --bind $THP $THP && mount -o remount,bind,ro $THP"
if unshare -m sh -c "$ro_mount" 2>/dev/null; then
	expect_skip "read-only controls" "cannot write $THP/*enabled" \
		unshare -m sh -c "$ro_mount && exec \"\$0\"" "$BIN"
else
	echo "skip: read-only controls (cannot mount them so here)"
fi

# Counters that never move: the row must say its faults fell back.
mkdir -p "$tmp/fake/hugepages-64kB/stats"
echo 'always [madvise] never' >"$tmp/fake/enabled"
echo 'always inherit madvise [never]' >"$tmp/fake/hugepages-64kB/enabled"
echo 7 >"$tmp/fake/hugepages-64kB/stats/anon_fault_alloc"
echo 7 >"$tmp/fake/hugepages-64kB/stats/anon_fault_fallback"
LINUX_MADVISE_FREE_SYSFS=$tmp/fake "$BIN" --bytes 4M --runs 1 >"$tmp/fake.out" 2>&1
rc=$?
if [ $rc = 0 ] && grep -q '^   64K .* 0 *0  <- MOST FAULTS FELL BACK: 0 of 64 folios were 64K$' \
	"$tmp/fake.out" && grep -qE '^@row 64 [0-9.]+ [0-9.]+ [0-9.]+ 0 0$' "$tmp/fake.out"; then
	echo "ok: a size that was not used is flagged"
else
	cat "$tmp/fake.out"
	fail "fake controls: exit $rc, or the 64K row is not flagged"
fi

before=$(snapshot)
"$BIN" --bytes 64M --runs 1 >"$tmp/run.out" 2>"$tmp/run.err"
rc=$?
cat "$tmp/run.out" "$tmp/run.err"
[ $rc = 0 ] || fail "64M run: exit $rc"
[ "$(snapshot)" = "$before" ] || { fail "64M run: settings not restored"; snapshot; }
check_record "$tmp/run.out"

interrupt INT
interrupt TERM
[ $failed = 0 ] && echo "all passed"
[ $failed = 0 ]
