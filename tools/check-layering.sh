#!/bin/sh
# The layering rules of docs/ARCHITECTURE.md, checked on the sources:
#  1. no #include cycle among the files of arch/x86_64/ and of mm/
#     (a header reached again from itself);
#  2. mm/ (tests apart) includes no arch/x86_64 file, and neither the
#     shell's nor the benchmarks' headers: generic memory management only;
#  3. no file outside shell/, bench/ and arch/*/cmd_*.c defines a shell
#     command (DEFINE_SHELL_COMMAND / SHELL_COMMAND);
#  4. a quoted #include stays inside the file's own top-level folder: a
#     folder's private headers (mm/internal.h, arch/x86_64/x86.h, ...) are
#     its own, every other folder goes through include/ (and asm/);
#     tests may share their helpers;
#  5. with the kernel's objects (OBJDIR, e.g. build/kernel-obj): kernel/,
#     fs/, mm/ and lib/ reach arch/x86_64 only through hooks a public
#     header declares (include/*.h, the arch's include/asm/*.h), and never
#     use a writable variable arch/ defines: arch/ owns no kernel state.
# Prints every violation as FILE: reason and exits 1 if there is one.
# Usage: tools/check-layering.sh [ROOT [OBJDIR]]   (default: the current
# directory, and no object check)
set -eu
ROOT=${1:-.}
OBJDIR=${2:-}
case $OBJDIR in
"" | /*) ;;
*) OBJDIR=$(pwd)/$OBJDIR ;;
esac
cd "$ROOT"
bad=0

# Edges "FROM TO" of the #include graph for the files under $1. Quoted
# includes resolve next to the file, angle ones in include/ or the arch's
# include/ (asm/...); generated and libc headers are not followed.
include_edges() {
	arch=$1; shift
	for f in $(find "$@" -name '*.[ch]' | sort); do
		dir=$(dirname "$f")
		sed -n 's/^#include[ \t]*\([<"]\)\([^>"]*\)[>"].*/\1 \2/p' "$f" |
		while read -r kind name; do
			if [ "$kind" = '"' ]; then
				to=$(cd "$dir" && realpath -m --relative-to="$OLDPWD" "$name" 2>/dev/null || echo "$dir/$name")
			elif [ -f "include/$name" ]; then
				to=include/$name
			elif [ -f "$arch/include/$name" ]; then
				to=$arch/include/$name
			else
				continue
			fi
			[ -f "$to" ] && echo "$f $to"
		done
	done
}

# Depth-first search for a cycle in the edges on stdin.
find_cycles() {
	awk '{ adj[$1] = adj[$1] " " $2; nodes[$1]; nodes[$2] }
	function dfs(n,   i, k, m, parts) {
		state[n] = 1; stack[++depth] = n
		k = split(adj[n], parts, " ")
		for (i = 1; i <= k; i++) {
			m = parts[i]
			if (state[m] == 1) { cycle = m; for (j = depth; stack[j] != m; j--) cycle = stack[j] " -> " cycle; print "include cycle: " m " -> " cycle; found = 1 }
			else if (!state[m]) dfs(m)
		}
		depth--; state[n] = 2
	}
	END { for (n in nodes) if (!state[n]) dfs(n); exit found }'
}

for set in "arch/x86_64 arch/x86_64" "arch/host mm"; do
	# shellcheck disable=SC2086 # two words: the arch, then the folder
	set -- $set
	if ! include_edges "$@" | find_cycles; then
		bad=1
	fi
done

for f in $(find mm -name '*.[ch]' -not -path 'mm/tests/*' | sort); do
	if grep -Hn '^#include.*\(x86_64\|<shell\.h>\|<bench\.h>\|<benchrec\.h>\|<bitmap_alloc\.h>\)' "$f"; then
		echo "$f: mm/ includes an arch, shell or benchmark header"
		bad=1
	fi
done

for f in $(grep -rl '^\(DEFINE_SHELL_COMMAND\|SHELL_COMMAND\)(' --include='*.c' \
	arch boot init kernel lib mm shell bench fs 2>/dev/null | sort); do
	case $f in
	shell/*|bench/*|arch/*/cmd_*.c) ;;
	*) echo "$f: defines a shell command outside shell/, bench/ and arch/*/cmd_*.c"; bad=1 ;;
	esac
done

for f in $(find arch boot fs include init kernel lib mm shell bench -name '*.[ch]' -not -path '*/tests/*' 2>/dev/null | sort); do
	top=${f%%/*}
	[ "$top" = arch ] && top=$(echo "$f" | cut -d/ -f1-2)
	dir=$(dirname "$f")
	sed -n 's/^#include[ \t]*"\([^"]*\)".*/\1/p' "$f" | while read -r name; do
		to=$(cd "$dir" && realpath -m --relative-to="$OLDPWD" "$name")
		case $to in
		"$top"/*) ;;
		*) echo "$f: includes \"$name\", a private header of another folder ($to)" ;;
		esac
	done
done >"${TMPDIR:-/tmp}/layering.$$"
if [ -s "${TMPDIR:-/tmp}/layering.$$" ]; then
	cat "${TMPDIR:-/tmp}/layering.$$"
	bad=1
fi
rm -f "${TMPDIR:-/tmp}/layering.$$"

objects=""
if [ -n "$OBJDIR" ]; then
	if [ ! -d "$OBJDIR/arch/x86_64" ]; then
		echo "$OBJDIR: no arch/x86_64 objects to check (build the kernel first)"
		exit 1
	fi
	# What arch/x86_64 defines: "SYMBOL TYPE OBJECT".
	find "$OBJDIR/arch/x86_64" -name '*.o' -not -path '*/tests/*' | sort |
		xargs nm -A -g --defined-only |
		sed 's/^\([^:]*\):[0-9a-f]* \([A-Za-z]\) \(.*\)/\3 \2 \1/' >"$OBJDIR/.arch-defs"
	# The public headers' words: a hook is declared if its name is one
	# (a system call sys_NAME if NAME is: <syscall_64.h> lists them).
	cat include/*.h arch/x86_64/include/asm/*.h | tr -c 'A-Za-z0-9_' '\n' | sort -u >"$OBJDIR/.public-words"
	for dir in kernel fs mm lib; do
		[ -d "$OBJDIR/$dir" ] || continue
		find "$OBJDIR/$dir" -name '*.o' -not -path '*/tests/*' | sort | xargs -r nm -A -u
	done | sed 's/^\([^:]*\):.* U \(.*\)/\2 \1/' |
		awk -v defs="$OBJDIR/.arch-defs" -v words="$OBJDIR/.public-words" -v objdir="$OBJDIR/" '
		BEGIN {
			while ((getline l < defs) > 0) { split(l, p, " "); type[p[1]] = p[2] }
			while ((getline w < words) > 0) public[w] = 1
		}
		($1 in type) {
			user = $2; sub(objdir, "", user); sub(/\.o$/, ".c", user)
			if (type[$1] ~ /[DBC]/) { print user ": uses " $1 ", a variable arch/x86_64 owns"; found = 1 }
			else if (!($1 in public) && !($1 ~ /^sys_/ && substr($1, 5) in public)) { print user ": calls " $1 ", which no public header declares"; found = 1 }
		}
		END { exit found }' || bad=1
	rm -f "$OBJDIR/.arch-defs" "$OBJDIR/.public-words"
	objects=", generic code reaches arch/ only through public hooks"
fi

[ "$bad" = 0 ] && echo "layering: no include cycles in arch/x86_64 or mm, mm/ is generic, commands in cmd_*.c, private headers stay private$objects"
exit "$bad"
