#!/bin/sh
# experiment.sh: run an experiment -- a text file of shell commands, one a
# line ('#' comments and blank lines skipped) -- and keep each command's
# output in its own file: NN-command-words.txt, plus serial.log (the whole
# transcript) and commands.txt (the commands run, one a line).
#   qemu    boot the kernel in QEMU and type the commands over serial
#           (tools/serial-session), then poweroff;
#   log     split a serial log captured on a real PC at its "folium> CMD"
#           lines (run= autorun prints one before each command, as typing
#           does);
#   cmdline print the run="..." line for /folium/cmdline.txt on the stick.
# A command's output is the lines after its "folium> CMD" line up to the
# next line starting with "folium> ". poweroff and reboot end a run and get
# no file. After qemu and log, $B/tools/benchrec turns "@bench" records in
# serial.log into CSV files in the same directory.
set -u
export LC_ALL=C

prog=experiment.sh
B=${B:-build}
here=$(dirname "$0")
FAULT='system halted, reset the machine'
BOOT_TIMEOUT=120
# For tests: the command that boots the image with serial on stdio (split at
# spaces; the options of qemu-run.sh are appended).
QEMU_RUN=${FOLIUM_QEMU_RUN:-sh $here/qemu-run.sh}

usage() {
	cat <<USAGE
usage: $prog qemu [--mem SIZE] [--timeout SECONDS] [--cmdline PARAMS]
                     [--kernel ELF] [--outdir DIR] SCRIPT
       $prog log [--outdir DIR] CAPTURED_LOG
       $prog cmdline [--poweroff] [--cmdline PARAMS] SCRIPT
  qemu     boot \$B/folium.elf (B=$B) in QEMU with --mem (default 1G) and
           the boot parameters PARAMS (no run=), send SCRIPT's commands over
           serial, wait up to --timeout seconds (default 600) for each
           prompt, power off. Output: DIR (default \$B/experiments/NAME,
           NAME = SCRIPT without .txt) holds serial.log, commands.txt and
           NN-command-words.txt per command.
  log      the same files from a serial log captured on a real PC (CRs,
           ANSI escapes and firmware output are fine). Default DIR:
           \$B/experiments/NAME, NAME = the log's name without extension.
  cmdline  print the line for /folium/cmdline.txt: PARAMS, then
           run="CMD; CMD; ..." (--poweroff: ending with poweroff).
USAGE
}

die() {
	echo "$prog: $*" >&2
	exit 1
}

bad_usage() {
	echo "$prog: $*" >&2
	usage >&2
	exit 2
}

# ---- the script ---------------------------------------------------------

# script_commands SCRIPT: "LINE<TAB>COMMAND" per command, trimmed, tabs made
# spaces (the line editor drops a typed tab; a CRLF file is fine).
script_commands() {
	awk '{
		c = $0
		sub(/\r$/, "", c)
		gsub(/\t/, " ", c)
		sub(/^[ \t]+/, "", c)
		sub(/[ \t]+$/, "", c)
		if (c != "" && c !~ /^#/)
			print NR "\t" c
	}' "$1"
}

# check_script SCRIPT LIST: at least one command; poweroff only last,
# reboot nowhere (in QEMU it ends the run, on a PC it loops forever).
check_script() {
	[ -s "$2" ] || die "no commands in $1"
	awk -F '\t' -v script="$1" -v last="$(wc -l < "$2")" '
		$2 == "reboot" || ($2 == "poweroff" && NR < last) {
			printf "%s:%d: \"%s\" would end the run before the rest\n",
				script, $1, $2
			bad = 1
		}
		END { exit bad }' "$2" >&2 || exit 1
}

# check_params PARAMS: boot parameters must not bring their own run=.
check_params() {
	case " $1" in
	*" run="*) die "--cmdline must not contain run=: the script's commands are the run" ;;
	esac
}

# ---- splitting a serial log ---------------------------------------------

# clean_log LOG: the text as a terminal would show it, line by line: NULs,
# control bytes and ANSI escape sequences (CSI, OSC, charset) dropped; CRs
# and backspaces are resolved by the splitter.
clean_log() {
	esc=$(printf '\033')
	bel=$(printf '\007')
	tr -d '\000-\006\013\014\016-\032\034-\037\177' < "$1" |
		sed -e "s#${esc}\[[0-?]*[ -/]*[@-~]##g" \
			-e "s#${esc}][^${bel}]*${bel}##g" \
			-e "s#${esc}[()][0-9A-Za-z]##g" -e "s#${esc}[^[]##g" |
		tr -d '\007\033'
}

# split_log CLEAN_LOG DIR: write DIR/NN-*.txt and DIR/commands.txt. Prints
# "N TRUNCATED HALTED" (commands seen; 1 if the last had no closing prompt;
# 1 if it printed a fault's "system halted") and that last file's path.
split_log() {
	: > "$2/commands.txt"
	awk -v dir="$2" '
	BEGIN { P = "folium> "; BS = sprintf("%c", 8) }

	# NN-words.txt: characters outside [A-Za-z0-9._,] become one dash.
	function name(c) {
		gsub(/[^A-Za-z0-9._,]+/, "-", c)
		sub(/^-+/, "", c)
		c = substr(c, 1, 60)
		sub(/-+$/, "", c)
		return c == "" ? "command" : c
	}

	function prompt(cmd) {
		sub(/^[ \t]+/, "", cmd)
		sub(/[ \t]+$/, "", cmd)
		if (out != "")
			close(out)
		out = ""
		# a bare prompt, a line dropped with Ctrl-C, or the end of a run
		if (cmd == "" || cmd ~ /\^C$/ || cmd == "poweroff" || cmd == "reboot")
			return
		n++
		halted = 0
		out = sprintf("%s/%02d-%s.txt", dir, n, name(cmd))
		printf "" > out
		print cmd >> (dir "/commands.txt")
	}

	{
		line = $0
		sub(/\r+$/, "", line)
		# a lone CR goes back to column 0: a redraw ("\r\033[Kfolium> ")
		# replaces what was before it
		while ((i = index(line, "\r")) > 0)
			line = substr(line, i + 1)
		# the line editor erases with "\b \b"
		while ((i = index(line, BS)) > 0)
			line = (i > 2 ? substr(line, 1, i - 2) : "") substr(line, i + 1)
		if (substr(line, 1, length(P)) == P) {
			prompt(substr(line, length(P) + 1))
		} else if (out != "") {
			print line > out
			if (index(line, "system halted"))
				halted = 1
		}
	}

	END {
		if (out != "") {
			print "# truncated: log ended before the command finished" > out
			close(out)
		}
		print n + 0, out != "", halted + 0
		print out
	}' "$1"
}

# clear_outdir DIR: remove what an earlier run of this tool left there.
clear_outdir() {
	mkdir -p "$1" || die "cannot create $1"
	rm -f "$1"/[0-9][0-9]-*.txt "$1"/[0-9][0-9][0-9]-*.txt \
		"$1/commands.txt" "$1/serial.log"
}

# benchrec DIR: CSV files from the log's "@bench" records, if there are any
# and the tool is built.
benchrec() {
	grep -q '^@bench' "$tmp/clean.log" || return 0
	if [ ! -x "$B/tools/benchrec" ]; then
		echo "$prog: note: $B/tools/benchrec not built; no CSV files from the @bench records"
		return 0
	fi
	"$B/tools/benchrec" csv "$1" "$1/serial.log" && return 0
	echo "$prog: benchrec could not read the @bench records in $1/serial.log (see above)" >&2
	return 1
}

# list_outputs DIR: what a run produced.
list_outputs() {
	echo "$prog: $(wc -l < "$1/commands.txt") command output(s) in $1/:"
	for f in "$1"/[0-9][0-9]-*.txt "$1"/[0-9][0-9][0-9]-*.txt; do
		[ -f "$f" ] && echo "  ${f##*/}"
	done
	return 0
}

# split_into DIR: split $tmp/raw.log into DIR; sets n, truncated, halted,
# last_file, last_cmd.
split_into() {
	clean_log "$tmp/raw.log" > "$tmp/clean.log"
	split_log "$tmp/clean.log" "$1" > "$tmp/split"
	{
		read -r n truncated halted
		read -r last_file
	} < "$tmp/split"
	last_cmd=$(tail -n 1 "$1/commands.txt")
}

# ---- log ------------------------------------------------------------------

cmd_log() {
	outdir=
	while [ $# -gt 0 ]; do
		case $1 in
		--outdir) [ $# -ge 2 ] || bad_usage "--outdir needs a directory"; outdir=$2; shift ;;
		-*) bad_usage "unknown option '$1'" ;;
		*) break ;;
		esac
		shift
	done
	[ $# = 1 ] || bad_usage "log takes one captured log"
	[ -f "$1" ] && [ -r "$1" ] || die "cannot read $1"
	name=${1##*/}
	dir=${outdir:-$B/experiments/${name%.*}}
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/folium-experiment.XXXXXX") || exit 1
	trap 'rm -rf "$tmp"' EXIT
	# copied first: the log may be DIR/serial.log itself
	cp "$1" "$tmp/raw.log" || die "cannot read $1"
	clear_outdir "$dir"
	cp "$tmp/raw.log" "$dir/serial.log" || die "cannot write $dir/serial.log"
	split_into "$dir"
	[ "$n" -gt 0 ] || die "no 'folium> COMMAND' line in $1: is it a Folium serial log?"
	list_outputs "$dir"
	status=0
	benchrec "$dir" || status=1
	if [ "$truncated" = 1 ]; then
		what="the log ended before it finished"
		[ "$halted" = 1 ] && what="the kernel faulted (system halted)"
		echo "$prog: command $(printf %02d "$n") '$last_cmd': $what; $last_file is marked truncated" >&2
		status=1
	fi
	exit $status
}

# ---- qemu -----------------------------------------------------------------

# session_script LIST: the serial-session script, each command on its line
# in SCRIPT (so "line N" in its messages points into SCRIPT), then poweroff.
session_script() {
	awk -F '\t' '
	{
		while (++line < $1)
			print "#"
		# serial-session reads backslash escapes: double each backslash
		k = split($2, part, "\\")
		c = part[1]
		for (i = 2; i <= k; i++)
			c = c "\\\\" part[i]
		print "> " c
	}
	END {
		print "> poweroff"
		print "expect-exit"
	}' "$1"
}

# note_not_for_run LIST SCRIPT: a command run= cannot carry is fine over
# serial, but the script will not go to a real PC as it is.
note_not_for_run() {
	awk -F '\t' -v prog="$prog" -v script="$2" '$2 ~ /[;"]/ {
		printf "%s: note: %s:%d has ; or \"; run= cannot carry it (cmdline will refuse)\n", prog, script, $1
	}' "$1"
}

# qemu_image PARAMS KERNEL: $tmp/folium.img with PARAMS as cmdline.txt.
qemu_image() {
	[ -f "$B/BOOTX64.EFI" ] || die "loader $B/BOOTX64.EFI not found: run 'make'"
	[ -f "$2" ] || die "kernel $2 not found: run 'make'"
	cmdline=-
	if [ -n "$1" ]; then
		printf '%s\n' "$1" > "$tmp/cmdline.txt"
		cmdline=$tmp/cmdline.txt
	fi
	sh "$here/mkimage.sh" "$tmp/folium.img" "$B/BOOTX64.EFI" "$2" "$cmdline" ||
		die "cannot build the disk image"
}

# qemu_verdict SCRIPT: after the session, say what happened.
# Return: 0 if every command finished.
qemu_verdict() {
	total=$(wc -l < "$tmp/cmds")
	cut -f 2 "$tmp/cmds" | head -n "$n" > "$tmp/sent"
	cmp -s "$tmp/sent" "$dir/commands.txt" ||
		die "$dir/serial.log does not split into the commands sent (does an output have a line starting with 'folium> '?)"
	reason=$(sed -n 's/^FAIL \(line [0-9]*: \)\{0,1\}//p' "$tmp/ss.out" | head -n 1)
	if [ "$truncated" = 1 ]; then
		line=$(sed -n "${n}p" "$tmp/cmds" | cut -f 1)
		reason=${reason#"> $last_cmd: "}
		[ "$halted" = 1 ] && reason="the kernel faulted (system halted)"
		echo "$prog: command $(printf %02d "$n") '$last_cmd' ($1:$line) did not finish: $reason" >&2
		echo "$prog: its output so far: $last_file; the log: $dir/serial.log" >&2
		return 1
	fi
	if [ "$n" -lt "$total" ]; then
		echo "$prog: stopped before command $(printf %02d $((n + 1))) '$(sed -n "$((n + 1))p" "$tmp/cmds" | cut -f 2)': ${reason:-serial-session failed}" >&2
		echo "$prog: the log: $dir/serial.log" >&2
		return 1
	fi
	[ "$ss_status" = 0 ] ||
		echo "$prog: note: every command finished, but the poweroff did not end QEMU cleanly ($reason); it was stopped"
	return 0
}

cmd_qemu() {
	mem=1G timeout=600 params='' kernel=$B/folium.elf outdir=
	while [ $# -gt 0 ]; do
		case $1 in
		--mem | --timeout | --cmdline | --kernel | --outdir)
			[ $# -ge 2 ] || bad_usage "$1 needs a value" ;;
		esac
		case $1 in
		--mem) mem=$2; shift ;;
		--timeout) timeout=$2; shift ;;
		--cmdline) params=$2; shift ;;
		--kernel) kernel=$2; shift ;;
		--outdir) outdir=$2; shift ;;
		-*) bad_usage "unknown option '$1'" ;;
		*) break ;;
		esac
		shift
	done
	[ $# = 1 ] || bad_usage "qemu takes one script"
	case $timeout in '' | *[!0-9]* | 0) bad_usage "--timeout needs whole seconds" ;; esac
	script=$1
	[ -f "$script" ] && [ -r "$script" ] || die "cannot read $script"
	check_params "$params"
	ss=$B/tools/serial-session
	[ -x "$ss" ] || die "$ss not found: run 'make'"
	name=${script##*/}
	dir=${outdir:-$B/experiments/${name%.txt}}
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/folium-experiment.XXXXXX") || exit 1
	trap 'rm -rf "$tmp"' EXIT
	trap 'exit 130' INT TERM
	script_commands "$script" > "$tmp/cmds"
	check_script "$script" "$tmp/cmds"
	note_not_for_run "$tmp/cmds" "$script"
	# the poweroff the tool adds (or the script ends with) gets no file
	if [ "$(tail -n 1 "$tmp/cmds" | cut -f 2)" = poweroff ]; then
		sed '$d' "$tmp/cmds" > "$tmp/cmds.new" && mv "$tmp/cmds.new" "$tmp/cmds"
	fi
	session_script "$tmp/cmds" > "$tmp/session"
	qemu_image "$params" "$kernel"
	clear_outdir "$dir"
	# shellcheck disable=SC2086 # QEMU_RUN is a command line
	{
		"$ss" --boot-timeout "$BOOT_TIMEOUT" --timeout "$timeout" \
			--fail-on "$FAULT" --log "$dir/serial.log" "$tmp/session" \
			-- $QEMU_RUN --serial-stdio --image "$tmp/folium.img" --mem "$mem"
		echo $? > "$tmp/ss.status"
	} | tee "$tmp/ss.out"
	ss_status=$(cat "$tmp/ss.status")
	[ -f "$dir/serial.log" ] || die "serial-session wrote no log"
	cp "$dir/serial.log" "$tmp/raw.log"
	split_into "$dir"
	status=0
	qemu_verdict "$script" || status=1
	[ "$status" = 0 ] && list_outputs "$dir"
	benchrec "$dir" || status=1
	exit $status
}

# ---- cmdline ----------------------------------------------------------------

# boot_cmdline_max: BOOT_CMDLINE_MAX from the boot_info contract.
boot_cmdline_max() {
	sed -n 's/^#define BOOT_CMDLINE_MAX[ \t]*\([0-9]*\).*/\1/p' \
		"$here/../include/boot_info.h"
}

cmd_cmdline() {
	poweroff=0 params=''
	while [ $# -gt 0 ]; do
		case $1 in
		--poweroff) poweroff=1 ;;
		--cmdline) [ $# -ge 2 ] || bad_usage "--cmdline needs a value"; params=$2; shift ;;
		-*) bad_usage "unknown option '$1'" ;;
		*) break ;;
		esac
		shift
	done
	[ $# = 1 ] || bad_usage "cmdline takes one script"
	script=$1
	[ -f "$script" ] && [ -r "$script" ] || die "cannot read $script"
	check_params "$params"
	tmp=$(mktemp) || exit 1
	trap 'rm -f "$tmp"' EXIT
	script_commands "$script" > "$tmp"
	check_script "$script" "$tmp"
	# autorun splits at ';' and run="..." ends at the next '"'
	awk -F '\t' -v script="$script" '$2 ~ /[;"]/ {
		printf "%s:%d: \"%s\" contains ; or \" (the separators of run=\"CMD; CMD\"); run= cannot carry it\n", script, $1, $2
		bad = 1
	} END { exit bad }' "$tmp" >&2 || exit 1
	run=$(cut -f 2 "$tmp" | awk -v off="$poweroff" '
		{ s = s (NR > 1 ? "; " : "") $0; last = $0 }
		END {
			if (off && last != "poweroff")
				s = s "; poweroff"
			print s
		}')
	line="${params:+$params }run=\"$run\""
	max=$(($(boot_cmdline_max) - 1))
	[ ${#line} -le $max ] ||
		die "the line would be ${#line} bytes; the loader takes at most $max (BOOT_CMDLINE_MAX - 1): split the script"
	printf '%s\n' "$line"
}

[ $# -ge 1 ] || bad_usage "no mode given"
mode=$1
shift
case $mode in
qemu) cmd_qemu "$@" ;;
log) cmd_log "$@" ;;
cmdline) cmd_cmdline "$@" ;;
-h | --help) usage ;;
*) bad_usage "unknown mode '$mode'" ;;
esac
