#!/bin/sh
# serial-session-test.sh: run serial-session against fake-shell.sh (no QEMU).
# Usage: sh tools/tests/serial-session-test.sh [path/to/serial-session]
# Cases: a passing session, a failing '<' check, boot and directive timeouts
# (which must leave no process behind, even one that ignores SIGTERM), a
# --fail-on text ending a wait early, an unexpected child exit, SIGTERM to
# the tool, bad usage. One line per check, then
# "serial-session-test: N passed, N failed"; exits 1 on any mismatch.

SS=${1:-build/tools/serial-session}
FAKE="$(dirname "$0")/fake-shell.sh"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
MARK="fake-shell-marker-$$"
. "$(dirname "$0")/checks.sh"

# expect NAME STATUS TEXT: the last run exited STATUS and printed TEXT.
expect() {
	if [ "$status" = "$2" ] && grep -qF -- "$3" "$TMP/out"; then
		ok "$1: exit $status, '$3'"
	else
		bad "$1: exit $status (want $2), want '$3' in:"
	fi
}

# session SCRIPT-NAME [OPTIONS...] -- COMMAND: run the tool on $TMP/SCRIPT-NAME.
session() {
	script=$TMP/$1
	shift
	start=$(date +%s)
	"$SS" "$@" > "$TMP/out" 2>&1
	status=$?
	took=$(($(date +%s) - start))
}

# nothing_left NAME: neither the child the tool reported nor any marked
# process may survive the tool.
nothing_left() {
	pid=$(sed -n 's/^serial-session: child pid \([0-9]*\).*/\1/p' "$TMP/out")
	if [ -z "$pid" ]; then
		bad "$1: no child pid printed"
	elif kill -0 "$pid" 2> /dev/null || pgrep -f "$MARK" > /dev/null; then
		bad "$1: child $pid or a '$MARK' process survived"
		pkill -KILL -f "$MARK"
	else
		ok "$1: child $pid and its group are gone"
	fi
}

cat > "$TMP/pass.txt" << 'END'
# a whole session: commands, checks, line editing, Ctrl-C, power off
> help
< echo X
! unknown command
> echo hello world
< hello world
> frobnicate now
< unknown command 'frobnicate' (try help)
>> abc
>> \x03
> echo after ctrl-c
< after ctrl-c
! abc
> echo abX\x7fc
< abc
>! poweroff
wait Power down
expect-exit 0
END
session pass.txt --log "$TMP/log" --outdir "$TMP/cmds" "$TMP/pass.txt" \
	-- sh "$FAKE" normal
expect "passing script" 0 "serial-session: 18 checks passed, 0 failed"
if grep -q "unknown command 'frobnicate'" "$TMP/cmds/003.txt" &&
	grep -q "buddy: 65024" "$TMP/log"; then
	ok "--outdir 003.txt and --log transcript"
else
	bad "--outdir 003.txt and --log transcript"
fi

cat > "$TMP/poweroff.txt" << 'END'
> poweroff
< Power down
expect-exit
END
session poweroff.txt "$TMP/poweroff.txt" -- sh "$FAKE"
expect "'> poweroff' then expect-exit" 0 "4 checks passed, 0 failed"

cat > "$TMP/check.txt" << 'END'
> echo hi
< bye
> echo more
< more
END
session check.txt "$TMP/check.txt" -- sh "$FAKE"
expect "failing '<' check" 1 "FAIL line 2: < bye: not in the output"
expect "failing '<' check continues" 1 "4 checks passed, 1 failed"

session boot.txt -v --boot-timeout 2 "$TMP/check.txt" \
	-- sh "$FAKE" hang "$MARK"
expect "boot timeout" 1 "timeout after 2 s waiting for the first prompt"
[ "$took" -le 6 ] && ok "boot timeout took ${took}s" || bad "took ${took}s"
nothing_left "boot timeout"

session boot.txt -v --boot-timeout 1 "$TMP/check.txt" \
	-- sh "$FAKE" hang-ignore-term "$MARK"
expect "child ignoring SIGTERM" 1 "timeout after 1 s"
nothing_left "child ignoring SIGTERM"

cat > "$TMP/wait.txt" << 'END'
> echo x
wait never-printed
END
session wait.txt -v --timeout 1 "$TMP/wait.txt" -- sh "$FAKE" normal "$MARK"
expect "directive timeout" 1 "line 2: wait never-printed: timeout after 1 s"
expect "directive timeout shows the tail" 1 "    | folium> echo x"
nothing_left "directive timeout"

cat > "$TMP/halt.txt" << 'END'
> echo before
> halt
> echo unreachable
END
session halt.txt -v --timeout 30 --fail-on "system halted" "$TMP/halt.txt" \
	-- sh "$FAKE" normal "$MARK"
expect "--fail-on" 1 'line 2: > halt: the child printed "system halted"'
[ "$took" -le 6 ] && ok "--fail-on took ${took}s, not the timeout" ||
	bad "--fail-on took ${took}s"
nothing_left "--fail-on"

cat > "$TMP/crash.txt" << 'END'
> crash
> echo unreachable
END
session crash.txt -v "$TMP/crash.txt" -- sh "$FAKE" normal "$MARK"
expect "unexpected exit" 1 "line 1: > crash: child exited with status 3"
nothing_left "unexpected exit"

"$SS" -v --boot-timeout 60 "$TMP/check.txt" -- sh "$FAKE" hang "$MARK" \
	> "$TMP/out" 2>&1 &
sleep 1
kill -TERM $!
wait $!
status=$?
expect "SIGTERM to the tool" 143 "caught signal 15"
nothing_left "SIGTERM to the tool"

rm -f "$TMP/out"
session none.txt "$TMP/check.txt"
expect "no command" 2 "usage: serial-session"
printf '> ok\nbogus directive\n' > "$TMP/bad.txt"
session bad.txt "$TMP/bad.txt" -- sh "$FAKE"
expect "bad directive" 2 "bad.txt:2: bad directive"

summary serial-session-test
