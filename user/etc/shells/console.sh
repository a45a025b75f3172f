#!/bin/sh
# The kernel shell's part on Linux for the job-control session (make test
# runs tools/tests/jobs.session on Folium and on Linux 7.3): print the
# kernel shell's prompt, read a command line and run it as Folium's kernel
# shell runs a program (kernel/umh.c): a session leader with the console
# as its controlling terminal, in the foreground (busybox setsid -c:
# setsid, then TIOCSCTTY on fd 0). Linux gives init no controlling
# terminal, so without this an interactive shell there says "no job
# control". Usage, as Linux's init: /bin/sh /etc/shells/console.sh
#
# /dev/tty as Folium's /dev has it (5, 0): the initramfs holds only
# /dev/console, so /dev/tty would otherwise be a plain file any write
# creates.
[ -c /dev/tty ] || /bin/busybox mknod -m 666 /dev/tty c 5 0 || exit 1
# And the window size Folium's console tty reports (a serial port has
# none: full-screen programs would then ask the terminal, which no
# script answers).
/bin/busybox stty rows 25 cols 80 || exit 1
while printf '\nfolium> ' && read -r line; do
	# shellcheck disable=SC2086 # the words of the typed line
	/bin/busybox setsid -c $line
done
