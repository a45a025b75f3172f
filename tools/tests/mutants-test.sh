#!/bin/sh
# Tests of tools/mutants.sh that need no build: bad options are refused
# with the usage; a list whose entry is malformed, or whose text occurs
# zero times or twice in its file, is refused (exit 2) naming the entry,
# before anything is built; and the real list is valid against the tree.
# (Running the mutants themselves is `make mutants`.)
set -u
. "$(dirname "$0")/checks.sh"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cd "$TOP" || exit 1

# run LIST: the script on LIST with its work dir in $TMP; output in
# $TMP/out, status in $rc.
run() {
	sh tools/mutants.sh --list "$1" --dir "$TMP/work" > "$TMP/out" 2>&1
	rc=$?
}

# expect RC TEXT WHAT
expect() {
	if [ "$rc" = "$1" ] && grep -qF -- "$2" "$TMP/out"; then
		ok "$3"
	else
		bad "$3 (status $rc, want $1 and '$2')"
	fi
}

sh tools/mutants.sh --bogus > "$TMP/out" 2>&1
rc=$?
expect 2 "usage: sh tools/mutants.sh" "an unknown option prints the usage"
sh tools/mutants.sh --timeout soon > "$TMP/out" 2>&1
rc=$?
expect 2 "--timeout wants seconds" "a timeout that is not a number is refused"
run "$TMP/missing.txt"
expect 2 "cannot read the list" "a missing list is refused"

printf '%s\n' '# a comment' 'ghost @@ mm/madvise.c @@ this text is nowhere @@ x' > "$TMP/l1"
run "$TMP/l1"
expect 2 "ghost: the text occurs 0 times in mm/madvise.c" "text not in the file"
if [ ! -e "$TMP/work/build" ]; then
	ok "nothing is built for a bad list"
else
	bad "a bad list was built"
fi

printf '%s\n' 'twice @@ mm/madvise.c @@ folio @@ x' > "$TMP/l2"
run "$TMP/l2"
expect 2 "twice: the text occurs" "text that occurs more than once"

printf '%s\n' 'short @@ mm/madvise.c @@ tlb_finish_mmu(&tlb);' \
	'nofile @@ mm/nothing.c @@ a @@ b' > "$TMP/l3"
run "$TMP/l3"
expect 2 "short: want NAME @@ FILE @@ TEXT @@ REPLACEMENT" "an entry with three fields"
expect 2 "nofile: want NAME @@ FILE @@ TEXT @@ REPLACEMENT with an existing FILE" \
	"an entry naming a missing file"

# The real list matches the tree: every text once in its file.
grep -v '^#' tools/mutants.txt | grep -v '^$' > "$TMP/real"
n=0 good=0
while IFS= read -r line; do
	n=$((n + 1))
	file=$(printf '%s\n' "$line" | awk -F ' @@ ' '{ print $2 }')
	text=$(printf '%s\n' "$line" | awk -F ' @@ ' '{ print $3 }')
	c=$(T=$text awk 'index($0, ENVIRON["T"]) { c++ } END { print c + 0 }' "$file")
	[ "$c" = 1 ] && good=$((good + 1))
done < "$TMP/real"
if [ "$n" -ge 5 ] && [ "$good" = "$n" ]; then
	ok "tools/mutants.txt: all $n texts occur once"
else
	bad "tools/mutants.txt: $good of $n texts occur once"
fi

summary mutants-tool
