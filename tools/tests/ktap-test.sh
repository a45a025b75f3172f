#!/bin/sh
# ktap-test.sh: run the KTAP summariser on saved logs and check each outcome.
# Usage: sh tools/tests/ktap-test.sh [path/to/ktap]   (default build/tools/ktap)
# Each `check LOG STATUS TEXT [ARGS]` runs ktap on tools/tests/ktap/LOG and
# expects exit status STATUS and TEXT somewhere in its output. Prints one line
# per check, then "ktap-test: N passed, N failed"; exits 1 on any mismatch.

KTAP=${1:-build/tools/ktap}
LOGS=$(dirname "$0")/ktap
pass=0
fail=0

check() {
	log=$1 want=$2 text=$3
	shift 3
	out=$("$KTAP" "$@" "$LOGS/$log" 2>&1)
	got=$?
	if [ "$got" = "$want" ] && printf '%s\n' "$out" | grep -qF -- "$text"; then
		pass=$((pass + 1))
		echo "ok   $log${*:+ $*}: exit $got, '$text'"
	else
		fail=$((fail + 1))
		echo "FAIL $log${*:+ $*}: exit $got (want $want), want '$text' in:"
		printf '%s\n' "$out" | sed 's/^/    | /'
	fi
}

verdict() {
	if [ "$1" = "$2" ]; then
		pass=$((pass + 1))
		echo "ok   $3: exit $1"
	else
		fail=$((fail + 1))
		echo "FAIL $3: exit $1 (want $2)"
	fi
}

check all-pass.log 0 'ktap: 5 passed, 0 failed, 0 skipped'
check all-pass.log 0 'ktap: 5 passed' --expect-suites 2
check all-pass.log 2 'planned 2 suites, expected 3' --expect-suites 3
check one-failure.log 1 'FAIL string.memcmp_orders'
check one-failure.log 1 '    #     a == 1 (0x1)'
check one-failure.log 1 'ktap: 3 passed, 1 failed, 0 skipped'
check nested-failure.log 1 'FAIL folio.folio_zero_user.folio_zero_user_clears_fault_neighbourhood_last'
check crash-mid-run.log 2 'suite "string": planned 3 tests, got 1 (log ends at line 20, after "PANIC'
check missing-plan.log 2 'suite "string": no plan line'
check noise-between-lines.log 0 'ktap: 3 passed, 0 failed, 0 skipped'
check noise-between-lines.log 0 'ktap: 4 non-KTAP lines ignored' -v
check skip.log 0 'ktap: 1 passed, 0 failed, 2 skipped'
check bad-numbering.log 2 'test number 3 out of order (expected 2) at line 7'
check bad-numbering.log 2 'duplicate test number 3 at line 8'
check too-many-results.log 2 'planned 1 tests, got 2'
check suite-ok-but-child-failed.log 2 'suite "string": reported ok at line 9 but 1 test(s) in it failed'
check no-header.log 2 "no 'KTAP version 1' line in"

# a log on stdin, and a bad option (usage on stderr, exit 2)
"$KTAP" - < "$LOGS/one-failure.log" > /dev/null
verdict $? 1 "stdin: one-failure.log"
"$KTAP" --bogus 2> /dev/null
verdict $? 2 "bad option"

echo "ktap-test: $pass passed, $fail failed"
[ "$fail" = 0 ]
