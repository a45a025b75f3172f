#!/bin/sh
# Same program, same answers: /bin/mmdiff (user/mmdiff.c, musl and glibc)
# on Linux 7.3 and on Folium under the one QEMU line (tools/qemu-run.sh,
# 1 GiB), outputs compared line by line per C library. Every line that
# differs must match a row of the known-differences table in README.md
# (between the mmdiff-known-differences markers: one or more globs in
# backticks, "always" or "sometimes", the reason); an unlisted difference
# fails with the unified diff, and an "always" row none of whose globs
# matched fails too (the table must stay true). Example: a Folium that printed
# "step fault-64K: folios 64K[AMLSTU]*31 ..." where Linux printed "*32"
# fails, naming the step, both lines and the diff file.
# Usage: sh tools/tests/mmdiff-qemu.sh BUILD_DIR LINUX_VMLINUZ LOG_DIR
#        sh tools/tests/mmdiff-qemu.sh --compare LINUX_LOG FOLIUM_LOG OUT_DIR
#   (--compare: only the comparison, on saved serial logs; MMDIFF_KNOWN
#   names another file holding the table, for the tests)
# Prints what it compared and "mmdiff: ok" or the differences; exit 1 on
# any failure, 2 on bad usage.
set -u

here=$(cd "$(dirname "$0")/../.." && pwd)
known_file=${MMDIFF_KNOWN:-$here/README.md}
BEGIN_MARK='<!-- mmdiff-known-differences: begin -->'
END_MARK='<!-- mmdiff-known-differences: end -->'

usage() {
	sed -n '12,16p' "$0" | sed 's/^# //' >&2
	exit 2
}

# The table's globs as "occurs<TAB>row<TAB>glob" lines (row: its number).
known_rows() {
	awk -v b="$BEGIN_MARK" -v e="$END_MARK" '
		$0 == b { on = 1; next }
		$0 == e { on = 0 }
		on && /^\| `/ {
			split($0, cell, "|")
			occ = cell[3]; gsub(/ /, "", occ)
			row++
			n = split(cell[2], part, "`")
			for (i = 2; i <= n; i += 2)
				print occ "\t" row "\t" part[i]
		}' "$known_file"
}

# The lines mmdiff printed for libc in a serial log: escape sequences and
# carriage returns gone, from "mmdiff: begin LIBC" to "mmdiff: done".
extract() {
	tr -d '\r' <"$1" | sed 's/\x1b\[[0-9;=?]*[a-zA-Z]//g' |
		sed -n 's/.*\(mmdiff: begin\)/\1/; s/^.*\(step [a-z0-9-]*: \)/\1/; p' |
		awk -v want="mmdiff: begin $2" '
			$0 == want { on = 1 }
			on && (/^step / || /^mmdiff: /) { print }
			on && $0 == "mmdiff: done" { exit }'
}

# compare LINUX_LOG FOLIUM_LOG OUT: both C libraries; sets $failed.
compare() {
	failed=0
	rows=$(known_rows)
	if [ -z "$rows" ]; then
		echo "mmdiff: no known-differences table in $known_file"
		failed=1
		return
	fi
	matched=
	for libc in musl glibc; do
		extract "$1" "$libc" >"$3/linux-$libc.txt"
		extract "$2" "$libc" >"$3/folium-$libc.txt"
		for k in linux folium; do
			if ! grep -qx 'mmdiff: done' "$3/$k-$libc.txt"; then
				echo "mmdiff ($libc) did not finish on $k: see $([ $k = linux ] && echo "$1" || echo "$2")"
				failed=1
			fi
		done
		diff -u "$3/linux-$libc.txt" "$3/folium-$libc.txt" >"$3/diff-$libc.txt"
		n=$(grep -c '^step ' "$3/folium-$libc.txt")
		unlisted=0
		# Lines only Linux printed ("<") or only Folium printed (">").
		diff "$3/linux-$libc.txt" "$3/folium-$libc.txt" | grep '^[<>] ' >"$3/lines-$libc.txt"
		while IFS= read -r line; do
			text=${line#??}
			hit=
			while IFS="$(printf '\t')" read -r _ row pat; do
				# shellcheck disable=SC2254 # the table's globs
				case $text in $pat)
					hit=1
					matched="$matched
$row"
					break ;;
				esac
			done <<EOF
$rows
EOF
			if [ -z "$hit" ]; then
				[ $unlisted = 0 ] && echo "mmdiff ($libc): differences not in the table:"
				unlisted=$((unlisted + 1))
				case $line in
				'<'*) echo "  linux:  $text" ;;
				*) echo "  folium: $text" ;;
				esac
			fi
		done <"$3/lines-$libc.txt"
		if [ $unlisted -gt 0 ]; then
			echo "  (the whole diff: $3/diff-$libc.txt)"
			failed=1
		fi
		echo "mmdiff ($libc): $n step lines, $(wc -l <"$3/lines-$libc.txt") differing, $unlisted unlisted"
	done
	for row in $(printf '%s\n' "$rows" | awk -F '\t' '$1 == "always" { print $2 }' | uniq); do
		if ! printf '%s\n' "$matched" | grep -qx -- "$row"; then
			echo "mmdiff: known difference no longer seen (remove it from the table):" \
				"$(printf '%s\n' "$rows" | awk -F '\t' -v r="$row" '$2 == r { printf "`%s` ", $3 }')"
			failed=1
		fi
	done
}

if [ "${1:-}" = --compare ]; then
	[ $# = 4 ] || usage
	mkdir -p "$4" || exit 1
	compare "$2" "$3" "$4"
	[ $failed = 0 ] && echo "mmdiff: ok"
	exit $failed
fi
[ $# = 3 ] || usage
B=$1 VMLINUZ=$2 LOGS=$3
mkdir -p "$LOGS" || exit 1
for f in "$B/BOOTX64.EFI" "$B/folium.elf" "$B/initramfs.cpio" "$B/linux-initramfs.cpio" "$VMLINUZ"; do
	[ -f "$f" ] || { echo "mmdiff: missing $f"; exit 1; }
done
cd "$here" || exit 1
printf '%s\n' 'run="/bin/mmdiff; /bin/mmdiff.glibc; poweroff"' >"$LOGS/folium.cmdline"
sh tools/mkimage.sh "$LOGS/folium.img" "$B/BOOTX64.EFI" "$B/folium.elf" "$LOGS/folium.cmdline" \
	"$B/initramfs.cpio" >/dev/null || exit 1
# One CPU for both: Linux's per-CPU LRU batches make its counts vary with
# two (a 64K pageout step once counted 511 lazyfreed pages, not 512), and
# Folium runs its programs on one CPU so far.
echo "mmdiff: Folium (serial log $LOGS/folium.serial)"
sh tools/qemu-run.sh --image "$LOGS/folium.img" --mem 1G --cpus 1 --timeout 900 \
	--log "$LOGS/folium.serial" >/dev/null 2>"$LOGS/qemu-folium.err"
echo "mmdiff: Linux $VMLINUZ (serial log $LOGS/linux.serial)"
sh tools/qemu-run.sh --kernel "$VMLINUZ" --initrd "$B/linux-initramfs.cpio" \
	--append "console=ttyS0 quiet panic=-1 -- /bin/mmdiff ; /bin/mmdiff.glibc" \
	--mem 1G --cpus 1 --timeout 900 --log "$LOGS/linux.serial" >/dev/null 2>"$LOGS/qemu-linux.err"
compare "$LOGS/linux.serial" "$LOGS/folium.serial" "$LOGS"
[ $failed = 0 ] && echo "mmdiff: ok"
exit $failed
