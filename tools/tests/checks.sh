# Sourced by the tool tests: count checks, show what a failed one printed,
# end with the summary line. The sourcing script sets TMP and leaves the
# output of the command under test in $TMP/out (and $TMP/err if separate).
pass=0
fail=0

ok() {
	pass=$((pass + 1))
	echo "ok   $1"
}

bad() {
	fail=$((fail + 1))
	echo "FAIL $1"
	for f in "$TMP/out" "$TMP/err"; do
		[ -s "$f" ] && sed "s/^/    ${f##*/}| /" "$f"
	done
	return 0
}

# summary NAME: "NAME: N passed, N failed"; status 0 when none failed.
summary() {
	echo "$1: $pass passed, $fail failed"
	[ "$fail" = 0 ]
}
