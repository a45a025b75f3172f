#!/bin/sh
# The C files of the kernel's folders are formatted as .clang-format says
# (Linux style, 100 columns), checked with Debian's clang-format.
# Usage: tools/check-format.sh [--fix] [ROOT]
#   prints FILE: ... for every file that differs and exits 1; --fix
#   rewrites them instead (make format). ROOT: default the current folder.
set -eu
fix=
[ "${1:-}" = --fix ] && { fix=1; shift; }
cd "${1:-.}"
command -v clang-format >/dev/null || { echo "check-format: clang-format not found (Debian package clang-format; make deps)" >&2; exit 2; }
dirs=
for d in boot arch mm kernel init lib shell bench fs include user; do
	[ -d "$d" ] && dirs="$dirs $d"
done
# shellcheck disable=SC2086 # folder names without spaces
files=$(find $dirs -name '*.[ch]' | sort)
[ -n "$files" ] || { echo "check-format: no C files under$dirs"; exit 0; }
if [ -n "$fix" ]; then
	# shellcheck disable=SC2086
	clang-format -i $files
	exit 0
fi
# One clang-format for every file; only a failure looks file by file.
# shellcheck disable=SC2086
if clang-format --dry-run --Werror $files >/dev/null 2>&1; then
	echo "check-format: $(echo "$files" | wc -l) files formatted"
	exit 0
fi
bad=0
for f in $files; do
	if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then
		echo "$f: not formatted as .clang-format says; first difference:"
		clang-format "$f" | diff "$f" - | sed -n '1,6s/^/    /p'
		bad=1
	fi
done
exit "$bad"
