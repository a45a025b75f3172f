# A fork bomb in busybox ash for make test: a subshell forks copies of
# itself that wait on the console (nothing is typed during the test) until
# fork fails (no pid up to pid_max is free), then kill -9 -1 (every
# process but pid 1 and this shell) runs until none is left. The kernel
# must answer all along and give every page back. The children fork
# without exec, so each costs page tables, a kernel stack and a few
# copied pages. pid_max is lowered to 1000 for it (a quarter of the
# table: the same run, in a quarter of the time under emulation) and
# put back after.
pid_max=$(cat /proc/sys/kernel/pid_max)
echo 1000 >/proc/sys/kernel/pid_max
(
	n=0
	trap 'echo "bomb: fork failed after $n children"' EXIT
	while :; do
		read x </dev/console >/dev/null 2>&1 &
		n=$((n + 1))
	done
) 2>/dev/null
rounds=0
while kill -9 -1 2>/dev/null; do rounds=$((rounds + 1)); sleep 0.2; done
echo "bomb: kill -9 -1 left nothing to kill after $rounds round(s)"
echo "$pid_max" >/proc/sys/kernel/pid_max
