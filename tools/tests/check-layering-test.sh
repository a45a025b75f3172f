#!/bin/sh
# Tests of tools/check-layering.sh: the real tree passes; a tree with an
# include cycle, an mm/ file that includes the shell header, or a command
# defined outside cmd_*.c fails, naming the file.
set -u
. "$(dirname "$0")/checks.sh"
CHECK=$(cd "$(dirname "$0")/.." && pwd)/check-layering.sh
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# expect_text OUTPUT TEXT WHAT: ok if OUTPUT contains TEXT.
expect_text() {
	case $1 in
	*"$2"*) ok "$3" ;;
	*) printf '%s\n' "$1" > "$TMP/out"; bad "$3 (no '$2')" ;;
	esac
}

out=$(sh "$CHECK" 2>&1) && ok "the tree passes" || bad "the tree fails: $out"

# A fresh tree with one file per rule to break.
tree() {
	rm -rf "$TMP/t"
	mkdir -p "$TMP/t/arch/x86_64/include/asm" "$TMP/t/arch/host/include" "$TMP/t/mm" \
		"$TMP/t/include" "$TMP/t/kernel" "$TMP/t/shell"
	printf '#include <mm.h>\n' > "$TMP/t/mm/page_alloc.c"
	printf '#include "x86.h"\n' > "$TMP/t/arch/x86_64/cpu.c"
	printf '#include <asm/io.h>\n' > "$TMP/t/arch/x86_64/x86.h"
	: > "$TMP/t/arch/x86_64/include/asm/io.h"
	: > "$TMP/t/include/mm.h"
	printf 'DEFINE_SHELL_COMMAND(mem, "mem", "x");\n' > "$TMP/t/shell/cmd_system.c"
}

tree
out=$(sh "$CHECK" "$TMP/t" 2>&1) && ok "a clean small tree passes" || bad "clean tree: $out"

tree
printf '#include "../../x86.h"\n' > "$TMP/t/arch/x86_64/include/asm/io.h"
out=$(sh "$CHECK" "$TMP/t" 2>&1) && bad "an arch include cycle passed" ||
	expect_text "$out" "include cycle: " "arch cycle named"

tree
printf '#include "internal.h"\n' > "$TMP/t/mm/folio.c"
printf '#include <mm.h>\n#include "folio.h"\n' > "$TMP/t/mm/internal.h"
printf '#include "internal.h"\n' > "$TMP/t/mm/folio.h"
out=$(sh "$CHECK" "$TMP/t" 2>&1) && bad "an mm include cycle passed" ||
	expect_text "$out" "mm/internal.h" "mm cycle names the header"

tree
printf '#include <shell.h>\n' >> "$TMP/t/mm/page_alloc.c"
out=$(sh "$CHECK" "$TMP/t" 2>&1) && bad "mm/ including shell.h passed" ||
	expect_text "$out" "mm/page_alloc.c: mm/ includes an arch, shell or benchmark header" \
		"shell.h in mm/ refused"

tree
printf 'DEFINE_SHELL_COMMAND(thp, "thp", "x");\n' > "$TMP/t/kernel/huge.c"
out=$(sh "$CHECK" "$TMP/t" 2>&1) && bad "a command outside cmd_*.c passed" ||
	expect_text "$out" "kernel/huge.c: defines a shell command" "stray command refused"

summary check-layering
