#!/bin/sh
# experiment-test.sh: tools/experiment.sh without QEMU.
# Usage: sh tools/tests/experiment-test.sh [path/to/serial-session]
# log: canned serial logs in tools/tests/experiment/ (clean; CRLF, ANSI
# escapes, firmware output and line editing; truncated; a kernel fault) split
# into exactly the files in expected*/; benchrec run only on "@bench" logs.
# cmdline: the run= line, its refusals and the BOOT_CMDLINE_MAX - 1 limit.
# qemu: fake-shell.sh stands in for QEMU (FOLIUM_QEMU_RUN): a full run, a
# command that never returns and a fault, neither leaving a process behind.
# One line per check, then "experiment-test: N passed, N failed".

SS=${1:-build/tools/serial-session}
case $SS in /*) ;; *) SS=$PWD/$SS ;; esac
T=$(cd "$(dirname "$0")" && pwd)
EXP=$T/../experiment.sh
FIX=$T/experiment
FAKE=$T/fake-shell.sh
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
MARK="experiment-test-marker-$$"
# a build directory of its own: no benchrec, no kernel unless a case adds one
export B="$TMP/b"
mkdir -p "$B/tools"
. "$(dirname "$0")/checks.sh"

# run ARGS...: experiment.sh ARGS, its stdout and stderr in $TMP/out.
run() {
	start=$(date +%s)
	sh "$EXP" "$@" > "$TMP/out" 2>&1
	status=$?
	took=$(($(date +%s) - start))
}

# expect NAME STATUS TEXT: the last run exited STATUS and printed TEXT.
expect() {
	if [ "$status" = "$2" ] && grep -qF -- "$3" "$TMP/out"; then
		ok "$1: exit $status, '$3'"
	else
		bad "$1: exit $status (want $2), want '$3' in:"
	fi
}

# same_files NAME DIR EXPECTED: DIR holds exactly EXPECTED's files (and
# serial.log), byte for byte.
same_files() {
	(cd "$3" && ls) > "$TMP/want"
	(cd "$2" && ls | grep -v '^serial\.log$') > "$TMP/got"
	if ! cmp -s "$TMP/want" "$TMP/got"; then
		bad "$1: files differ from $3"
		diff "$TMP/want" "$TMP/got" | sed 's/^/    | /'
		return
	fi
	for f in $(cat "$TMP/want"); do
		cmp -s "$3/$f" "$2/$f" || {
			bad "$1: $f differs"
			diff "$3/$f" "$2/$f" | sed 's/^/    | /'
			return
		}
	done
	ok "$1: $(wc -l < "$TMP/want") files as in ${3##*/}/"
}

# --- log -----------------------------------------------------------------
run log --outdir "$TMP/clean" "$FIX/clean.log"
expect "log clean" 0 "4 command output(s) in $TMP/clean/"
same_files "log clean" "$TMP/clean" "$FIX/expected"
cmp -s "$FIX/clean.log" "$TMP/clean/serial.log" && ok "log keeps the log as serial.log" ||
	bad "serial.log is not the captured log"

run log --outdir "$TMP/noisy" "$FIX/noisy.log"
expect "log CRLF, escapes, firmware, line editing" 0 "4 command output(s)"
same_files "log CRLF, escapes, firmware, line editing" "$TMP/noisy" "$FIX/expected"

# into the same directory as clean: its 04-vmstat.txt must not survive
run log --outdir "$TMP/clean" "$FIX/truncated.log"
expect "log truncated" 1 "command 03 'usemem 16M seq write --order-stats': the log ended before it finished"
expect "log truncated names the file" 1 "03-usemem-16M-seq-write-order-stats.txt is marked truncated"
same_files "log truncated" "$TMP/clean" "$FIX/expected-truncated"

run log --outdir "$TMP/halted" "$FIX/halted.log"
expect "log with a kernel fault" 1 "command 02 'crash pf': the kernel faulted (system halted)"
tail -n 2 "$TMP/halted/02-crash-pf.txt" > "$TMP/tail"
if grep -q '^\[.*system halted, reset the machine to continue ]---$' "$TMP/tail" &&
	[ "$(tail -n 1 "$TMP/tail")" = "# truncated: log ended before the command finished" ]; then
	ok "log with a kernel fault: the report, then the truncated mark"
else
	bad "log with a kernel fault: 02-crash-pf.txt ends with $(cat "$TMP/tail")"
fi

cp "$FIX/noisy.log" "$TMP/noisy/serial.log"
run log --outdir "$TMP/noisy" "$TMP/noisy/serial.log"
expect "log of DIR/serial.log itself" 0 "4 command output(s)"
same_files "log of DIR/serial.log itself" "$TMP/noisy" "$FIX/expected"

run log "$FIX/clean.log"
expect "log default outdir" 0 "in $B/experiments/clean/"
[ -f "$B/experiments/clean/04-vmstat.txt" ] && ok "log default outdir has 04-vmstat.txt" ||
	bad "no $B/experiments/clean/04-vmstat.txt"

printf 'folium> bench x\r\nstep 1/2\rstep 2/2\r\ndone\r\nfolium> ' > "$TMP/cr.log"
run log --outdir "$TMP/cr" "$TMP/cr.log"
[ "$status" = 0 ] && [ "$(cat "$TMP/cr/01-bench-x.txt")" = "step 2/2
done" ] && ok "log: a lone CR overwrites the line, as on a terminal" ||
	bad "log: a lone CR: 01-bench-x.txt is $(cat "$TMP/cr/01-bench-x.txt")"

printf 'BdsDxe: loading Boot0001\r\nno kernel here\r\n' > "$TMP/firmware.log"
run log --outdir "$TMP/fw" "$TMP/firmware.log"
expect "log without a prompt" 1 "no 'folium> COMMAND' line in $TMP/firmware.log"
run log --outdir "$TMP/x" "$TMP/no-such.log"
expect "log of a missing file" 1 "cannot read $TMP/no-such.log"

# --- benchrec --------------------------------------------------------------
{
	cat "$FIX/clean.log"
	printf 'folium> bench x\r\n@bench x\r\n@end x 0 0\r\nfolium> '
} > "$TMP/bench.log"
run log --outdir "$TMP/bench" "$TMP/bench.log"
expect "@bench records, no benchrec built" 0 "benchrec not built; no CSV files"

cat > "$B/tools/benchrec" << 'END'
#!/bin/sh
echo "$*" > "$(dirname "$0")/benchrec.args"
[ -z "${FAIL_BENCHREC:-}" ] || { echo "benchrec: bad record" >&2; exit 1; }
END
chmod +x "$B/tools/benchrec"
run log --outdir "$TMP/bench" "$TMP/bench.log"
if [ "$status" = 0 ] && [ "$(cat "$B/tools/benchrec.args")" = "csv $TMP/bench $TMP/bench/serial.log" ]; then
	ok "benchrec csv OUTDIR OUTDIR/serial.log"
else
	bad "benchrec args: $(cat "$B/tools/benchrec.args" 2>&1), exit $status"
fi
FAIL_BENCHREC=1 run log --outdir "$TMP/bench" "$TMP/bench.log"
expect "benchrec fails" 1 "benchrec could not read the @bench records in $TMP/bench/serial.log"
expect "benchrec's own message" 1 "benchrec: bad record"
rm -f "$B/tools/benchrec.args"
run log --outdir "$TMP/clean" "$FIX/clean.log"
[ "$status" = 0 ] && [ ! -f "$B/tools/benchrec.args" ] && ok "no @bench, no benchrec" ||
	bad "benchrec ran on a log without @bench (exit $status)"
rm -f "$B/tools/benchrec"

# --- cmdline ---------------------------------------------------------------
EXPS=$T/../experiments
run cmdline "$EXPS/madvise.txt"
[ "$status" = 0 ] && [ "$(cat "$TMP/out")" = 'run="hwreport; bench madvise; vmstat"' ] &&
	ok "cmdline madvise.txt" || bad "cmdline madvise.txt (exit $status)"
run cmdline --poweroff --cmdline "thp=64K cma=16M" "$EXPS/quick.txt"
[ "$status" = 0 ] &&
	[ "$(cat "$TMP/out")" = 'thp=64K cma=16M run="hwreport; bench --quick all; poweroff"' ] &&
	ok "cmdline --poweroff --cmdline" || bad "cmdline --poweroff --cmdline (exit $status)"
for s in "$EXPS"/*.txt; do
	run cmdline --poweroff "$s"
	expect "cmdline ${s##*/} fits" 0 'run="hwreport; '
done

printf '# comment\r\n\r\n  version  \r\nuptime\r\npoweroff\r\n' > "$TMP/crlf.txt"
run cmdline --poweroff "$TMP/crlf.txt"
[ "$status" = 0 ] && [ "$(cat "$TMP/out")" = 'run="version; uptime; poweroff"' ] &&
	ok "cmdline: CRLF script, trimmed, one poweroff" || bad "cmdline CRLF script (exit $status)"

printf 'version\nmap 4K; unmap\n' > "$TMP/semi.txt"
run cmdline "$TMP/semi.txt"
expect "cmdline refuses ';'" 1 "semi.txt:2: \"map 4K; unmap\" contains ; or \""
printf 'help "x"\n' > "$TMP/quote.txt"
run cmdline "$TMP/quote.txt"
expect "cmdline refuses '\"'" 1 "quote.txt:1: \"help \"x\"\" contains ; or \""
printf 'version\npoweroff\nuptime\n' > "$TMP/early.txt"
run cmdline "$TMP/early.txt"
expect "poweroff before the end" 1 "early.txt:2: \"poweroff\" would end the run before the rest"
printf 'reboot\n' > "$TMP/reboot.txt"
run cmdline "$TMP/reboot.txt"
expect "reboot" 1 "reboot.txt:1: \"reboot\" would end the run"
printf '# nothing\n\n' > "$TMP/empty.txt"
run cmdline "$TMP/empty.txt"
expect "no commands" 1 "no commands in $TMP/empty.txt"
run cmdline --cmdline 'thp=2M run="test"' "$EXPS/madvise.txt"
expect "--cmdline with run=" 1 "--cmdline must not contain run="

# run="X" is 6 bytes more than X; BOOT_CMDLINE_MAX - 1 = 1023 bytes fit
max=$(sed -n 's/^#define BOOT_CMDLINE_MAX[ \t]*\([0-9]*\).*/\1/p' "$T/../../include/boot_info.h")
awk -v n=$((max - 1 - 6)) 'BEGIN { s = "echo"; while (length(s) < n) s = s "x"; print s }' > "$TMP/fits.txt"
run cmdline "$TMP/fits.txt"
[ "$status" = 0 ] && [ "$(head -c 1023 "$TMP/out" | wc -c)" = $((max - 1)) ] &&
	ok "cmdline of $((max - 1)) bytes" || bad "cmdline of $((max - 1)) bytes (exit $status)"
sed 's/$/x/' "$TMP/fits.txt" > "$TMP/long.txt"
run cmdline "$TMP/long.txt"
expect "cmdline of $max bytes" 1 "the line would be $max bytes; the loader takes at most $((max - 1))"

# --- usage -----------------------------------------------------------------
run
expect "no mode" 2 "usage: experiment.sh qemu"
run frobnicate x
expect "unknown mode" 2 "unknown mode 'frobnicate'"
run log --bogus x
expect "unknown option" 2 "unknown option '--bogus'"
run log a b
expect "log with two logs" 2 "log takes one captured log"
run qemu
expect "qemu without a script" 2 "qemu takes one script"
run qemu --timeout soon "$EXPS/madvise.txt"
expect "qemu --timeout soon" 2 "--timeout needs whole seconds"
run qemu --mem
expect "qemu --mem without a value" 2 "--mem needs a value"
run cmdline
expect "cmdline without a script" 2 "cmdline takes one script"
run cmdline "$TMP/no-such.txt"
expect "cmdline of a missing script" 1 "cannot read $TMP/no-such.txt"

# --- qemu, with fake-shell.sh for QEMU -------------------------------------
run qemu --outdir "$TMP/q" "$EXPS/madvise.txt"
expect "qemu without serial-session" 1 "$B/tools/serial-session not found"
ln -s "$SS" "$B/tools/serial-session"
run qemu --outdir "$TMP/q" "$EXPS/madvise.txt"
expect "qemu without a loader" 1 "loader $B/BOOTX64.EFI not found"
echo "not a loader" > "$B/BOOTX64.EFI"
echo "not a kernel" > "$B/folium.elf"
export FOLIUM_QEMU_RUN="sh $FAKE normal $MARK"

# nothing_left NAME: no process of the fake shell survives.
nothing_left() {
	if pgrep -f "$MARK" > /dev/null; then
		bad "$1: a '$MARK' process survived"
		pkill -KILL -f "$MARK"
	else
		ok "$1: no process left"
	fi
}

printf '# a fake run\necho hello  world\n\nhelp\nfrobnicate\n' > "$TMP/fake.txt"
run qemu --timeout 20 --outdir "$TMP/q" "$TMP/fake.txt"
expect "qemu run" 0 "3 command output(s) in $TMP/q/"
printf 'echo hello  world\nhelp\nfrobnicate\n' > "$TMP/want"
[ "$(cat "$TMP/q/01-echo-hello-world.txt")" = "hello  world" ] &&
	cmp -s "$TMP/want" "$TMP/q/commands.txt" &&
	grep -q "unknown command 'frobnicate'" "$TMP/q/03-frobnicate.txt" &&
	grep -q "^Power down" "$TMP/q/serial.log" &&
	ok "qemu run: 01-echo-hello-world.txt, commands.txt, serial.log" ||
	bad "qemu run: outputs in $TMP/q: $(ls "$TMP/q")"
nothing_left "qemu run"

printf 'echo before\nhang\necho after\n' > "$TMP/hang.txt"
run qemu --timeout 2 --outdir "$TMP/q" "$TMP/hang.txt"
expect "qemu, a command that never returns" 1 "command 02 'hang' ($TMP/hang.txt:2) did not finish: timeout after 2 s"
expect "qemu hang names the log" 1 "the log: $TMP/q/serial.log"
[ "$took" -le 10 ] && ok "qemu hang took ${took}s" || bad "qemu hang took ${took}s"
[ "$(cat "$TMP/q/02-hang.txt")" = "working...
# truncated: log ended before the command finished" ] && [ ! -f "$TMP/q/03-echo-after.txt" ] &&
	ok "qemu hang: 02-hang.txt holds the output so far, marked truncated" ||
	bad "qemu hang: 02-hang.txt is: $(cat "$TMP/q/02-hang.txt")"
nothing_left "qemu hang"

printf 'halt\n' > "$TMP/halt.txt"
run qemu --timeout 60 --outdir "$TMP/q" "$TMP/halt.txt"
expect "qemu, a kernel fault" 1 "command 01 'halt' ($TMP/halt.txt:1) did not finish: the kernel faulted (system halted)"
[ "$took" -le 10 ] && ok "qemu fault took ${took}s, not the timeout" || bad "qemu fault took ${took}s"
nothing_left "qemu fault"

summary experiment-test
