#!/bin/sh
# make mutants: show that the tests would notice if chosen behaviours
# broke. Copies the working tree's tracked files to DIR/tree, builds and
# runs the host tests there once (they must pass), then for each line of
# the list (tools/mutants.txt: NAME @@ FILE @@ TEXT @@ REPLACEMENT) puts
# REPLACEMENT in place of TEXT, rebuilds, runs the host tests and puts the
# file back. A mutant is killed when a test fails (or the run crashes or
# hangs past the timeout); it survives when every test passes. Prints
# each verdict with the first failing cases, then the kill rate.
# Exit: 0 if every mutant was killed, 1 if one survived, 2 if the list or
# the baseline is broken (TEXT not found exactly once, a mutant that does
# not build, failing tests before any mutation).
# Usage: sh tools/mutants.sh [--list FILE] [--dir DIR] [--timeout SECONDS]
set -u

list=tools/mutants.txt
dir=build/mutants
timeout=600
usage() {
	echo "usage: sh tools/mutants.sh [--list FILE] [--dir DIR] [--timeout SECONDS]" >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case $1 in
	--list) [ $# -ge 2 ] || usage; list=$2; shift 2 ;;
	--dir) [ $# -ge 2 ] || usage; dir=$2; shift 2 ;;
	--timeout) [ $# -ge 2 ] || usage; timeout=$2; shift 2 ;;
	*) echo "mutants: unknown option '$1'" >&2; usage ;;
	esac
done
case $timeout in '' | *[!0-9]*) echo "mutants: --timeout wants seconds" >&2; usage ;; esac
[ -r "$list" ] || { echo "mutants: cannot read the list $list" >&2; exit 2; }
command -v git > /dev/null || { echo "mutants: needs git (to list the tracked files)" >&2; exit 2; }

top=$(pwd)
case $list in /*) ;; *) list=$top/$list ;; esac
case $dir in /*) ;; *) dir=$top/$dir ;; esac
tree=$dir/tree
out=$dir/build
rm -rf "$tree" "$dir/logs"
mkdir -p "$tree" "$dir/logs" || exit 2
# -m: the copies are newer than any object a previous run left in $out
# (else the last mutant's object, newer than its restored source, would
# be linked into this run's baseline).
git ls-files -z | xargs -0 tar cf - | tar xmf - -C "$tree" || exit 2
cd "$tree" || exit 2

# run_tests LOG: build and run the host tests. Return: 0 all passed,
# 1 a test failed or the run died, 3 the build failed.
run_tests() {
	make -s -j2 O="$out" "$out/host-tests" "$out/tools/ktap" > "$1.build" 2>&1 || return 3
	timeout "$timeout" "$out/host-tests" > "$1" 2>&1 || return 1
	"$out/tools/ktap" "$1" > "$1.summary" 2>&1 || return 1
	return 0
}

# field N LINE: the Nth " @@ "-separated field of a list line.
field() {
	printf '%s\n' "$2" | awk -F ' @@ ' -v n="$1" '{ print (n == 0 ? NF : $n) }'
}

# occurrences TEXT FILE: how many lines of FILE contain TEXT, literally
# (index(), no regular expression; ENVIRON keeps backslashes as written).
occurrences() {
	T=$1 awk 'index($0, ENVIRON["T"]) { c++ } END { print c + 0 }' "$2"
}

# Check the whole list before building anything: a stale entry is the
# list's fault, not a verdict on the tests.
bad=0
while IFS= read -r line; do
	case $line in '' | '#'*) continue ;; esac
	name=$(field 1 "$line") file=$(field 2 "$line") text=$(field 3 "$line")
	if [ "$(field 0 "$line")" != 4 ] || [ ! -f "$file" ]; then
		echo "mutants: $name: want NAME @@ FILE @@ TEXT @@ REPLACEMENT with an existing FILE"
		bad=1
	elif [ "$(occurrences "$text" "$file")" != 1 ]; then
		echo "mutants: $name: the text occurs $(occurrences "$text" "$file") times in $file, want once: $text"
		bad=1
	fi
done < "$list"
[ "$bad" = 0 ] || { echo "mutants: fix the list ($list)"; exit 2; }

echo "mutants: baseline (host tests of the unmutated tree)"
run_tests "$dir/logs/baseline"
case $? in
0) ;;
3) echo "mutants: the tree does not build:"; tail -20 "$dir/logs/baseline.build"; exit 2 ;;
*) echo "mutants: the host tests fail before any mutation:"; grep 'not ok' "$dir/logs/baseline" | head; exit 2 ;;
esac

total=0 killed=0 broken=0 # broken: a mutant that does not build
while IFS= read -r line; do
	case $line in '' | '#'*) continue ;; esac
	name=$(field 1 "$line") file=$(field 2 "$line")
	text=$(field 3 "$line") repl=$(field 4 "$line")
	total=$((total + 1))
	cp -p "$file" "$file.orig"
	T=$text R=$repl awk '{
		i = index($0, ENVIRON["T"])
		if (i) $0 = substr($0, 1, i - 1) ENVIRON["R"] substr($0, i + length(ENVIRON["T"]))
		print
	}' "$file.orig" > "$file"
	log=$dir/logs/$name
	run_tests "$log"
	rc=$?
	mv "$file.orig" "$file"
	touch "$file" # newer than the mutant's object: the next build recompiles it
	case $rc in
	0) echo "SURVIVED $name ($file): every host test passed" ;;
	3)
		echo "BROKEN   $name: the mutant does not build (see $log.build)"
		broken=$((broken + 1))
		;;
	*)
		killed=$((killed + 1))
		cases=$(grep '^ *not ok' "$log" | grep -v '^not ok' | sed 's/.*not ok [0-9]* //' |
			head -3 | tr '\n' ' ')
		[ -n "$cases" ] || cases="(the run died: $(tail -1 "$log"))"
		echo "killed   $name ($file) by: $cases"
		;;
	esac
done < "$list"

echo "mutants: $killed of $total killed$([ "$broken" = 0 ] || echo ", $broken broken")"
[ "$broken" = 0 ] || exit 2
[ "$killed" = "$total" ] || exit 1
exit 0
