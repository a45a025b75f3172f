#!/bin/sh
# The kernel shell's part on Linux for the job-control session (make test
# runs tools/tests/jobs.session on Folium and on Linux 7.3): print the
# kernel shell's prompt, read a command line and run it as Folium's kernel
# shell runs a program (kernel/umh.c): a session leader with the console
# as its controlling terminal, in the foreground (busybox setsid -c:
# setsid, then TIOCSCTTY on fd 0). Linux gives init no controlling
# terminal, so without this an interactive shell there says "no job
# control". Usage, as Linux's init: /bin/sh /etc/shells/console.sh
while printf '\nfolium> ' && read -r line; do
	# shellcheck disable=SC2086 # the words of the typed line
	/bin/busybox setsid -c $line
done
