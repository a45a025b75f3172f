#!/bin/sh
# init=/etc/shells/init.sh for make test: run as pid 1 with Linux's
# environment for init, it adopts an orphan, then exits with status 3,
# after which the kernel says so and the kernel shell takes over.
echo "init: running as pid $$ with HOME=$HOME TERM=$TERM"
# The inner subshell's parent exits at once; its exec'd sh then reports
# its new parent: init, pid 1.
( (sleep 0.2; exec sh -c 'echo "init: the orphan'"'"'s parent is pid $PPID"') & )
sleep 0.5
exit 3
