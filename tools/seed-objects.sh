#!/bin/sh
# seed-objects.sh FROM TO: before TO (a build directory, make's O=, with
# its config header already generated) compiles its kernel, copy in every
# kernel object of FROM (a finished build of the same sources) whose
# preprocessed source is the same under TO's config, so make compiles only
# the files the knobs change. make test's config matrix builds nine
# kernels; a changed CONFIG_PAGE_BLOCK_ORDER changes the preprocessed text
# of about 30 of 250 files, THP n about 60, MAX_PAGE_ORDER 12 most of them.
#
# Same preprocessed text (clang -E -P, so the two build directories' header
# paths do not count) and the same flags give the same code. What differs
# is the debug information's list of header paths, which names FROM's
# generated headers; the kernel's own backtraces use its symbol table.
# FROM's hashes are kept in FROM/kernel-obj/*.pp (written atomically: two
# matrix entries may seed from FROM at once).
set -eu
[ $# = 2 ] || { echo "usage: seed-objects.sh FROM-BUILD-DIR TO-BUILD-DIR" >&2; exit 2; }
from=${1%/} to=${2%/}
for dir in "$from" "$to"; do
	[ -f "$dir/include/generated/config.h" ] || {
		echo "seed-objects.sh: $dir has no include/generated/config.h (make O=$dir generated-headers)" >&2
		exit 1
	}
done

# Each directory's compiler flags, without -MMD -MP (they would write
# dependency files).
kcflags() { make -s --no-print-directory O="$1" print-kcflags | sed 's/ -MMD\| -MP//g'; }
from_flags=$(kcflags "$from")
to_flags=$(kcflags "$to")

# pp_hash FLAGS SRC: the hash of SRC preprocessed without line markers;
# nothing (and make compiles the file) if the preprocessor fails.
pp_hash() {
	# shellcheck disable=SC2086 # the flags are words
	clang $1 -E -P "$2" -o "$tmp" 2>/dev/null && md5sum < "$tmp" | cut -d' ' -f1
}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

seeded=0 compiled=0
for dep in $(find "$from/kernel-obj" -name '*.d' ! -name 'ksyms*'); do
	rel=${dep#"$from/kernel-obj/"}
	src=${rel%.d}.c
	[ -f "$src" ] && [ -f "${dep%.d}.o" ] || continue
	out=$to/kernel-obj/${rel%.d}.o
	[ -e "$out" ] && continue
	if [ ! -s "${dep%.d}.pp" ] || [ "${dep%.d}.o" -nt "${dep%.d}.pp" ]; then
		pp_hash "$from_flags" "$src" > "${dep%.d}.pp.$$" || true
		mv "${dep%.d}.pp.$$" "${dep%.d}.pp"
	fi
	hash=$(pp_hash "$to_flags" "$src" || true)
	if [ -n "$hash" ] && [ "$hash" = "$(cat "${dep%.d}.pp")" ]; then
		mkdir -p "$(dirname "$out")"
		cp "${dep%.d}.o" "$out"
		sed "s#\(^\| \)$from/#\1$to/#g" "$dep" > "${out%.o}.d"
		seeded=$((seeded + 1))
	else
		compiled=$((compiled + 1))
	fi
done
echo "seed-objects.sh: $seeded objects from $from, $compiled to compile for $to"
