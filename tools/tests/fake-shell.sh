#!/bin/sh
# fake-shell.sh: a stand-in for Folium's serial shell, to test serial-session
# without QEMU. Usage: sh fake-shell.sh [normal|hang|hang-ignore-term] [MARKER]
# normal: boot lines, then "folium> "; input lines end with \r as on a serial
# console, typed bytes are echoed, Ctrl-C drops the line, backspace and Ctrl-U
# edit it. Commands: help, echo X, crash (exit 3), poweroff ("Power down"),
# hang (prints a line, then never returns), halt (prints a fault report's
# last line, "system halted", then never returns).
# hang: boot lines and never a prompt; -ignore-term also shrugs off SIGTERM.
# MARKER is unused: it only makes this process easy to find with pgrep -f.

mode=${1:-normal}
cr=$(printf '\r')
nl='
'
etx=$(printf '\003')
nak=$(printf '\025')
del=$(printf '\177')

out() {
	printf '%s\r\n' "$*"
}

boot() {
	out "UEFI firmware starting..."
	out "[    0.000000] Folium 0.1 (fake shell)"
	out "[    0.001000] buddy: 65024 free pages"
}

# One byte of stdin into $c (dd, because read splits at \n, not \r).
readc() {
	c=$(dd bs=1 count=1 2>/dev/null; echo x)
	c=${c%x}
	[ -n "$c" ]
}

run() {
	case $1 in
	help)
		out "commands:"
		out "  help       this list"
		out "  echo X     print X"
		out "  poweroff   power the machine down"
		;;
	"echo "*) out "${1#echo }" ;;
	poweroff)
		out "Power down"
		exit 0
		;;
	crash)
		out "PANIC: fake crash"
		exit 3
		;;
	hang)
		out "working..."
		while :; do sleep 1; done
		;;
	halt)
		out "Kernel panic: fake fault"
		out "---[ end Kernel panic: system halted, reset the machine to continue ]---"
		while :; do sleep 1; done
		;;
	"") ;;
	*) out "unknown command '${1%% *}' (try help)" ;;
	esac
}

boot
case $mode in
hang-ignore-term) trap '' TERM INT HUP ;;
esac
case $mode in
hang*) while :; do sleep 1; done ;;
esac

printf 'folium> '
line=
while readc; do
	case $c in
	"$cr")
		printf '\r\n'
		run "$line"
		line=
		printf 'folium> '
		;;
	"$etx")
		printf '^C\r\nfolium> '
		line=
		;;
	"$nak")
		printf '\r\033[Kfolium> '
		line=
		;;
	"$del")
		[ -n "$line" ] && printf '\b \b'
		line=${line%?}
		;;
	"$nl") ;;
	*)
		printf '%s' "$c"
		line=$line$c
		;;
	esac
done
