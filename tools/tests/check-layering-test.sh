#!/bin/sh
# Tests of tools/check-layering.sh: the real tree passes (with the kernel's
# objects in $B/kernel-obj); a tree with an include cycle, an mm/ file that
# includes the shell header, a command defined outside cmd_*.c, another
# folder's private header, or kernel code that uses arch state or an
# undeclared arch function fails, naming the file.
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

OBJ=${B:-build}/kernel-obj
if [ -d "$OBJ/arch/x86_64" ]; then
	out=$(sh "$CHECK" . "$OBJ" 2>&1) && ok "the tree and its objects pass" ||
		bad "the tree fails: $out"
else
	bad "no kernel objects in $OBJ: run make all first"
fi

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

tree
printf '#include "../mm/internal.h"\n' > "$TMP/t/kernel/huge.c"
: > "$TMP/t/mm/internal.h"
out=$(sh "$CHECK" "$TMP/t" 2>&1) && bad "another folder's private header passed" ||
	expect_text "$out" "kernel/huge.c: includes \"../mm/internal.h\"" "private header refused"

# Objects: arch/x86_64 defines a variable, a declared hook and a private
# function; kernel/ code that uses the hook alone passes.
objects() {
	tree
	mkdir -p "$TMP/o/arch/x86_64" "$TMP/o/kernel"
	printf 'void arch_hook(void);\n' > "$TMP/t/include/arch.h"
	printf 'int arch_state;\nvoid arch_hook(void) {}\nvoid x86_private(void) {}\n' \
		> "$TMP/o/state.c"
	clang -c -o "$TMP/o/arch/x86_64/state.o" "$TMP/o/state.c"
	printf '%s\nvoid use(void) { %s }\n' "$1" "$2" > "$TMP/o/use.c"
	clang -c -o "$TMP/o/kernel/use.o" "$TMP/o/use.c"
}
objects 'void arch_hook(void);' 'arch_hook();'
out=$(sh "$CHECK" "$TMP/t" "$TMP/o" 2>&1) && ok "a declared hook passes" || bad "hook: $out"
objects 'extern int arch_state;' 'arch_state = 1;'
out=$(sh "$CHECK" "$TMP/t" "$TMP/o" 2>&1) && bad "kernel/ using arch state passed" ||
	expect_text "$out" "kernel/use.c: uses arch_state, a variable arch/x86_64 owns" \
		"arch state refused"
objects 'void x86_private(void);' 'x86_private();'
out=$(sh "$CHECK" "$TMP/t" "$TMP/o" 2>&1) && bad "an undeclared arch call passed" ||
	expect_text "$out" "kernel/use.c: calls x86_private, which no public header declares" \
		"private arch call refused"

summary check-layering
