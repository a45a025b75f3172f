#!/bin/sh
# benchrec-test.sh: run the bench record tool on saved logs and check each outcome.
# Usage: sh tools/tests/benchrec-test.sh [path/to/benchrec]   (default build/tools/benchrec)
# Good logs in benchrec/ (noise, CRLF, a stray kernel line inside a record, one
# record name in two logs) must give benchrec/expected/*.csv byte for byte,
# which mlr reads as tools/bench-report.sh does; each bad log must fail with
# exit 1, "FILE:LINE: problem", and leave OUTDIR empty.
# Prints one line per check, then "benchrec-test: N passed, N failed"; exits 1
# on any mismatch.
#
# The fixtures' @end hashes were computed, when they were written, by a Python
# one-off fed the record lines @bench..last @row, each "\n"-ended:
#   h = 0x811c9dc5
#   for b in data: h = ((h ^ b) * 0x01000193) & 0xffffffff
#   print("%08x" % h)
# fixture_hashes recomputes them in awk, so benchrec's FNV-1a is checked against
# two independent implementations, and an edited fixture cannot go stale.

# shellcheck disable=SC1010,SC2016 # mlr's verbs chain with "then"; its DSL is single-quoted
BR=${1:-build/tools/benchrec}
DIR=$(dirname "$0")/benchrec
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
. "$(dirname "$0")/checks.sh"

# run ARGS...: run benchrec; sets status, keeps stdout in out and stderr in err.
run() {
	"$BR" "$@" > "$TMP/out" 2> "$TMP/err"
	status=$?
}

# expect NAME STATUS out|err TEXT: the last run exited STATUS and printed TEXT.
expect() {
	if [ "$status" = "$2" ] && grep -qF -- "$4" "$TMP/$3"; then
		ok "$1: exit $status, '$4'"
	else
		bad "$1: exit $status (want $2), want '$4' in $3:"
	fi
}

# exit_is NAME STATUS: the last run exited STATUS.
exit_is() {
	if [ "$status" = "$2" ]; then
		ok "$1: exit $status"
	else
		bad "$1: exit $status (want $2)"
	fi
}

# same NAME FILE EXPECTED: FILE exists and is byte-identical to EXPECTED.
same() {
	if cmp -s "$2" "$3"; then
		ok "$1"
	else
		bad "$1: $2 differs from $3"
		diff "$3" "$2" 2>&1 | sed 's/^/    | /'
	fi
}

# fixture_hashes LOG: "NAME GIVEN COMPUTED" per @end of LOG, FNV-1a 32 done in
# awk. POSIX awk has neither xor nor 32-bit integers: the xor is done bit by
# bit on the low byte, and h * 0x01000193 (2^24 + 403) mod 2^32 is split as
# (h mod 256) * 2^24 + h * 403, which stays below 2^53.
fixture_hashes() {
	LC_ALL=C awk '
	function xor8(a, b, r, bit) {
		r = 0
		for (bit = 1; bit < 256; bit *= 2)
			if ((int(a / bit) + int(b / bit)) % 2)
				r += bit
		return r
	}
	function fnv(h, s, i, lo) {
		for (i = 1; i <= length(s); i++) {
			lo = h % 256
			h = h - lo + xor8(lo, ord[substr(s, i, 1)])
			h = ((h % 256) * 16777216 + h * 403) % 4294967296
		}
		return h
	}
	BEGIN { for (i = 1; i < 256; i++) ord[sprintf("%c", i)] = i }
	{ sub(/\r$/, "") }
	/^@bench / { h = 2166136261 }
	/^@(bench|env|cols|row)( |$)/ { h = fnv(h, $0 "\n") }
	/^@end / { printf "%s %s %08x\n", $2, $4, h }
	' "$1"
}

# bad_log LOG TEXT [DIR]: check and csv both reject DIR/LOG (DIR: benchrec/)
# with "DIR/LOG:TEXT" on stderr; csv, given a good log first, writes nothing.
bad_log() {
	log=${3:-$DIR}/$1
	run check "$log"
	expect "check $1" 1 err "benchrec: $log:$2"
	rm -rf "$TMP/csv"
	mkdir "$TMP/csv"
	run csv "$TMP/csv" "$DIR/good.log" "$log"
	expect "csv good.log $1" 1 err "benchrec: $log:$2"
	if [ -z "$(ls -A "$TMP/csv")" ] && [ ! -s "$TMP/out" ]; then
		ok "csv good.log $1: OUTDIR left empty"
	else
		bad "csv good.log $1: wrote $(ls -A "$TMP/csv")"
	fi
}

# --- the fixtures themselves ----------------------------------------------
fixture_hashes "$DIR/good.log" > "$TMP/hashes"
fixture_hashes "$DIR/serial-crlf.log" >> "$TMP/hashes"
if [ "$(wc -l < "$TMP/hashes")" = 4 ] && awk '$2 != $3 { exit 1 }' "$TMP/hashes"; then
	ok "good fixtures: the 4 @end hashes agree with awk's FNV-1a"
else
	bad "good fixtures: awk's FNV-1a disagrees:"
	sed 's/^/    | /' "$TMP/hashes"
fi

# --- good logs ----------------------------------------------------------
run check "$DIR/good.log" "$DIR/serial-crlf.log"
cat > "$TMP/want" << END
$DIR/good.log: madvise_free: 3 rows x 5 cols
$DIR/good.log: page_alloc: 2 rows x 3 cols
$DIR/serial-crlf.log: madvise_free: 2 rows x 5 cols
$DIR/serial-crlf.log: clear_pages: 2 rows x 4 cols
END
exit_is "check good logs" 0
same "check good logs: one line per record" "$TMP/out" "$TMP/want"

run check - < "$DIR/serial-crlf.log"
expect "check stdin" 0 out "stdin: clear_pages: 2 rows x 4 cols"

OUT=$TMP/out-dir
run csv "$OUT" "$DIR/good.log" "$DIR/serial-crlf.log"
expect "csv good logs" 0 out "$OUT/madvise_free.csv"
for name in madvise_free page_alloc clear_pages; do
	same "csv: $name.csv as expected" "$OUT/$name.csv" "$DIR/expected/$name.csv"
done
set -- "$OUT"/*
if [ "$*" = "$OUT/clear_pages.csv $OUT/madvise_free.csv $OUT/page_alloc.csv" ]; then
	ok "csv: 3 files, no temporary left"
else
	bad "csv: OUTDIR holds $*"
fi
run csv "$OUT" "$DIR/good.log" "$DIR/serial-crlf.log"
exit_is "csv again, over the same files" 0
same "csv again: madvise_free.csv replaced, same bytes" "$OUT/madvise_free.csv" \
	"$DIR/expected/madvise_free.csv"

run csv --prefix run1- "$OUT" - < "$DIR/good.log"
expect "csv --prefix, stdin" 0 out "$OUT/run1-page_alloc.csv"
same "csv --prefix: run1-page_alloc.csv" "$OUT/run1-page_alloc.csv" "$DIR/expected/page_alloc.csv"

# --- the CSVs as tools/bench-report.sh reads them: with mlr ---------------
# mlr -S: values as written (1.5e-1 stays 1.5e-1); csvlite: comment lines
# are skipped whole, even with the quotes of an env line.
query() {
	mlr -S --icsvlite --skip-comments --onidx "$@" > "$TMP/out" 2> "$TMP/err"
	status=$?
}
CSV=$DIR/expected/madvise_free.csv
query count "$CSV"
expect "mlr: both records' rows under one header" 0 out "5"
query head -n 1 then cut -f 'alloc[ns]' "$DIR/expected/page_alloc.csv"
expect "mlr: first data row" 0 out "85"
query filter '${folio[KiB]} == "2048"' then head -n 1 then cut -f 'batched[ms]' "$CSV"
expect "mlr: row by column value, number as written" 0 out "1.5e-1"
query filter '${strategy[-]} == "pmd"' then cut -f 'split[ms]' "$CSV"
expect "mlr: match on a text column" 0 out "6.002"
query filter '${folio[KiB]} == "3"' "$CSV"
if [ "$status" = 0 ] && [ ! -s "$TMP/out" ]; then ok "mlr: no such row: nothing"
else bad "mlr: no such row: exit $status, want nothing"; fi
query cut -f speed "$CSV"
if [ "$status" = 0 ] && [ -z "$(tr -d '\n' < "$TMP/out")" ]; then ok "mlr: no such column: nothing"
else bad "mlr: no such column: exit $status, want nothing"; fi
grep '^# env: ' "$CSV" | sed 's/.* hypervisor=\("[^"]*"\|[^ ]*\) .*/\1/' > "$TMP/out"
printf 'none\nTCGTCGTCGTCG\n' > "$TMP/want"
same "env lines: one per record, above its rows" "$TMP/out" "$TMP/want"

# --- bad logs: one per error class ----------------------------------------
corrupted=$(fixture_hashes "$DIR/corrupted-digit.log" | awk '{ print $3 }')
bad_log truncated-at-eof.log "8: record madvise_free truncated: no @end (2 rows read)"
bad_log truncated-by-bench.log "10: record madvise_free truncated: no @end (2 rows read)"
bad_log corrupted-digit.log \
	"10: record madvise_free: hash da6e1c01, computed $corrupted: stream corrupted"
bad_log dropped-row.log "9: record madvise_free: @end says 3 rows, 2 read"
bad_log end-name-differs.log "10: record madvise_free: @end is for madvise_fre"
bad_log bad-hash-format.log "10: record madvise_free: @end hash 'DA6E1CO1' is not 8 lowercase hex"
bad_log wrong-value-count.log "8: record madvise_free: row has 4 values, @cols has 5"
bad_log not-a-number.log "8: record madvise_free: value 2 (split) 'nan' is not a number"
bad_log comma-in-value.log "7: record madvise_free: value 5 (strategy) 'page,batch' contains"
bad_log bad-cols.log "6: record madvise_free: bad @cols entry 'split': want NAME[UNIT]"
bad_log duplicate-column.log "6: record page_alloc: duplicate column alloc"
bad_log bad-env-quote.log "5: record madvise_free: malformed @env: unterminated quote"
bad_log bad-env-token.log "5: record madvise_free: malformed @env: not key=value at 'Hv "
bad_log missing-env.log "5: record madvise_free: @cols before @env"
bad_log duplicate-env.log "6: record madvise_free: duplicate @env"
bad_log row-before-cols.log "6: record madvise_free: @row before @cols"
bad_log unknown-line.log "9: record madvise_free: unknown record line '@rwo 2048"
bad_log row-outside-record.log "4: @row outside a record (no @bench before it)"
bad_log columns-differ.log "14: record madvise_free: columns differ from the earlier record at"
run check "$DIR/columns-differ.log"
expect "check columns-differ.log: names the earlier record" 1 err \
	"columns differ from the earlier record at $DIR/columns-differ.log:4"
run csv "$TMP/csv" "$DIR/good.log" "$DIR/columns-differ.log"
expect "csv columns-differ.log: the earlier record is in another log" 1 err \
	"columns differ from the earlier record at $DIR/good.log:8"
bad_log no-records.log " no bench records in $DIR/no-records.log"
bad_log bad-name.log "2: bad record name '../passwd': want letters, digits, _ . -"
bad_log duplicate-env-key.log "2: record demo: malformed @env: duplicate key source"
bad_log env-two-spaces.log \
	"2: record demo: malformed @env: two spaces, or one at the end at 'source=kernel  cpu"
bad_log env-quote-in-value.log \
	"2: record demo: malformed @env: a quote inside a value at 'cpu=AMD\"EPYC\"'"
bad_log cols-empty.log "3: record demo: @cols has no columns"
bad_log empty-value.log "4: record demo: value 2 (alloc) '' is empty"
bad_log end-malformed.log "5: record demo: malformed @end: want @end NAME ROWS HASH"
printf '@bench demo\n@env source=kernel cpu="AMD\0EPYC"\n' > "$TMP/nul-byte.log"
bad_log nul-byte.log "2: NUL byte in a record line" "$TMP"

# --- usage and unreadable input -------------------------------------------
run check "$DIR/no-such.log"
expect "missing log" 1 err "no-such.log: No such file or directory"
for args in "" "check" "check --bogus" "csv $TMP/x" "csv --prefix" "env $CSV" \
	"value $CSV" "value $CSV split folio" "frobnicate"; do
	# shellcheck disable=SC2086 # the words are the arguments
	run $args
	expect "usage: '$args'" 2 err "usage: benchrec check LOG..."
done

summary benchrec-test
