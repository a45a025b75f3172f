#!/bin/sh
# The user programs on the build machine's Linux, where they run natively:
# Linux is the reference the Folium kernel is measured against, so
# sysconform must pass here with both C libraries, as this user and (when
# run as root and setpriv exists) as nobody, whose access() and open()
# answers differ from root's; mmtest must pass (with "reclaim" too, which
# MADV_PAGEOUT serves on Linux); the fuzzer must run to its end and create
# no file in the directory it runs in; fpstate must pass where the CPU has
# AVX, and its two corrupt FPU frames must be SIGSEGV (the bad MXCSR one
# only a real CPU's XRSTOR refuses: QEMU's TCG takes it).
# Usage: sh tools/tests/user-on-linux.sh BUILD_DIR
#   (takes BUILD_DIR/user/NAME and NAME.glibc; `make O=BUILD_DIR
#   BUILD_DIR/user/sysconform ...` builds them when missing)
set -u
B=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
failed=0

fail() {
	echo "FAIL: $*"
	failed=$((failed + 1))
}

progs="sysconform mmtest fuzz fpstate"
for p in $progs; do
	for v in "$p" "$p.glibc"; do
		[ -x "$B/user/$v" ] || make -s O="$B" "$B/user/$v" || { fail "cannot build $v"; continue; }
		cp "$B/user/$v" "$tmp/$v" # where nobody may run it
	done
done

# run NAME WANT COMMAND...: COMMAND, run in $tmp/run, exits 0 and its last
# line matches WANT (a case pattern).
run() {
	r_name=$1 r_want=$2
	shift 2
	(cd "$tmp/run" && "$@") >"$tmp/out" 2>&1
	r_rc=$?
	r_last=$(tail -n 1 "$tmp/out")
	# shellcheck disable=SC2254 # a pattern on purpose
	case $r_last in $r_want) r_match=1 ;; *) r_match= ;; esac
	if [ $r_rc != 0 ] || [ -z "$r_match" ]; then
		grep -v '^ok ' "$tmp/out" | sed 's/^/    /'
		fail "$r_name: exit $r_rc, last line '$r_last', want '$r_want'"
	else
		echo "ok: $r_name: $r_last"
	fi
}

mkdir "$tmp/run" && chmod 777 "$tmp/run"
as_nobody=
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	as_nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
fi
for libc in "" .glibc; do
	# counted where it runs below: what sysconform checks depends on the fs
	n=$(cd "$tmp/run" && "$tmp/sysconform$libc" | grep -c '^ok ')
	want="sysconform: $n checks, all ok"
	[ "$n" -ge 300 ] || fail "sysconform$libc: only $n checks passed"
	run "sysconform$libc as $(id -un)" "$want" "$tmp/sysconform$libc"
	if [ -n "$as_nobody" ]; then
		# shellcheck disable=SC2086 # the command and its arguments
		run "sysconform$libc as nobody" "$want" $as_nobody "$tmp/sysconform$libc"
	else
		echo "skip: sysconform$libc as nobody (not root, or no setpriv)"
	fi
	run "mmtest$libc" "mmtest: all ok" "$tmp/mmtest$libc"
	run "mmtest$libc reclaim" "mmtest: all ok" "$tmp/mmtest$libc" reclaim
	# Reclaim mode must run the reclaim and fault checks; the checks of a
	# newer Linux's rules may skip on this machine's kernel.
	grep -q '^mmtest: skip \(MADV_FREE\|fault\)' "$tmp/out" &&
		fail "mmtest$libc reclaim skipped a check"
	for seed in 1 2 3; do
		run "fuzz$libc seed $seed" "fuzz: 2000 calls, seed $seed, [0-9]* errors, done" \
			"$tmp/fuzz$libc" $seed 2000
	done
	if "$tmp/fpstate$libc" | grep -q '^fpstate: no AVX'; then
		echo "skip: fpstate$libc (no AVX on this CPU)"
		continue
	fi
	run "fpstate$libc" "fpstate: all ok" "$tmp/fpstate$libc"
	for bad in badframe badheader; do
		# The shell's own stderr aside: it would say "Segmentation fault".
		exec 3>&2 2>/dev/null
		(cd "$tmp/run" && "$tmp/fpstate$libc" $bad) >"$tmp/out" 2>&1
		r_rc=$?
		exec 2>&3 3>&-
		# 128 + 11: the shell's status for a death by SIGSEGV.
		if [ $r_rc = 139 ]; then
			echo "ok: fpstate$libc $bad: killed by SIGSEGV"
		else
			sed 's/^/    /' "$tmp/out"
			fail "fpstate$libc $bad: exit $r_rc, not killed by SIGSEGV"
		fi
	done
done
[ -z "$(ls -A "$tmp/run")" ] || fail "the fuzzer left files: $(ls -A "$tmp/run")"
[ ! -e /nonexistent-fuzz ] || fail "/nonexistent-fuzz exists"
[ $failed = 0 ] && echo "all passed"
[ $failed = 0 ]
