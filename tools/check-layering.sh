#!/bin/sh
# The layering rules of docs/ARCHITECTURE.md, checked on the sources:
#  1. no #include cycle among the files of arch/x86_64/ and of mm/
#     (a header reached again from itself);
#  2. mm/ (tests apart) includes no arch/x86_64 file, and neither the
#     shell's nor the benchmarks' headers: generic memory management only;
#  3. no file outside shell/, bench/ and arch/*/cmd_*.c defines a shell
#     command (DEFINE_SHELL_COMMAND / SHELL_COMMAND).
# Prints every violation as FILE: reason and exits 1 if there is one.
# Usage: tools/check-layering.sh [ROOT]   (default: the current directory)
set -eu
ROOT=${1:-.}
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

[ "$bad" = 0 ] && echo "layering: no include cycles in arch/x86_64 or mm, mm/ is generic, commands in cmd_*.c"
exit "$bad"
