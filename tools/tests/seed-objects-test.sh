#!/bin/sh
# Tests for tools/seed-objects.sh, which the config matrix uses to start a
# kernel build from the default build's objects: under pageblock order 7,
# mm/page_alloc.c (pageblock_order) is left for make to compile while
# mm/madvise.c (which includes the config header but no knob it changes
# reaches) is copied unchanged, with a dependency
# file naming the new tree's headers; a second run copies nothing; the
# wrong arguments and a tree without generated headers are refused.
# Usage: sh tools/tests/seed-objects-test.sh B   (B: a finished build)
set -u
B=${1:-build}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
. "$(dirname "$0")/checks.sh"
to=$TMP/pb7

if sh tools/seed-objects.sh "$B" > "$TMP/out" 2>&1; then
	bad "one argument was accepted"
elif grep -q "usage: seed-objects.sh FROM-BUILD-DIR TO-BUILD-DIR" "$TMP/out"; then
	ok "one argument: usage"
else
	bad "one argument: no usage line"
fi

if sh tools/seed-objects.sh "$B" "$to" > "$TMP/out" 2>&1; then
	bad "a tree without a config header was seeded"
elif grep -q "$to has no include/generated/config.h (make O=$to generated-headers)" "$TMP/out"; then
	ok "a tree without generated headers is refused, saying how to make them"
else
	bad "a tree without generated headers: no clear message"
fi

# seed_says RE GOOD BAD: seed $to from $B; its summary line matches RE.
seed_says() {
	if sh tools/seed-objects.sh "$B" "$to" > "$TMP/out" 2>&1 && grep -q "$1" "$TMP/out"; then
		ok "$2"
	else
		bad "$3"
	fi
}

make -s O="$to" CONFIG_PAGE_BLOCK_ORDER=7 generated-headers > "$TMP/out" 2>&1 ||
	bad "make generated-headers failed"
seed_says "^seed-objects.sh: [1-9][0-9]* objects from $B, [1-9][0-9]* to compile for $to$" \
	"pageblock order 7: some objects copied, some left to compile" \
	"pageblock order 7: seeding failed"
if [ ! -e "$to/kernel-obj/mm/page_alloc.o" ]; then
	ok "mm/page_alloc.o (pageblock_order) is compiled, not copied"
else
	bad "mm/page_alloc.o was copied from the default build"
fi
if cmp -s "$B/kernel-obj/mm/madvise.o" "$to/kernel-obj/mm/madvise.o"; then
	ok "mm/madvise.o is copied unchanged"
else
	bad "mm/madvise.o was not copied"
fi
if grep -q "$to/include/generated/config.h" "$to/kernel-obj/mm/madvise.d" &&
	! grep -q "^$B/\| $B/" "$to/kernel-obj/mm/madvise.d"; then
	ok "its dependency file names the new tree's headers"
else
	cp "$to/kernel-obj/mm/madvise.d" "$TMP/out"
	bad "the copied dependency file still names $B"
fi
seed_says "^seed-objects.sh: 0 objects from $B" "a second run copies nothing" \
	"a second run copied again"
summary seed-objects-test
