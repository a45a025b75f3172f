# The shell features a user's scripts lean on, each printing what it did:
# pipelines, redirections, here-documents, command substitution,
# subshells, & and wait, trap, read, exec, $? of a pipeline, set -e.
# make test runs it under busybox ash and under bash on Folium and on
# Linux 7.3 and compares the output byte for byte, so nothing here prints
# a pid, a time or anything else that differs between two runs.
# Files are written in a directory of their own under /, removed after.
# Usage: SHELL_PROGRAM /etc/shells/features.sh SHELL_PROGRAM
sh=$1
echo "== features under ${sh##*/}"

# Pipelines, and the status of one: its last command's, or negated.
printf '%s\n' pear apple fig banana | sort | head -n 3 | tr a-z A-Z
seq 1 100 | grep 7 | wc -l
false | true; echo "false | true: $?"
true | false; echo "true | false: $?"
! true | false; echo "! (true | false): $?"
seq 1 20000 | tail -n 1
seq 1 20000 | wc -c

# Redirections: from a file, to /dev/null, between descriptors, blocks.
read first < /etc/shells/features.sh; echo "first line: $first"
ls /no/such/file 2>/dev/null || echo "ls failed, its complaint discarded"
echo "gone" > /dev/null && echo "appended" >> /dev/null && echo "/dev/null took both"
{ echo "to stderr" >&2; } 2>&1 | tr a-z A-Z
(echo "to stdout"; echo "only stderr is piped" >&2) 2>&1 1>/dev/null | cat
exec 3>&1; echo "through fd 3" >&3; exec 3>&-
{ echo grouped; echo lines; } | wc -l

# Files: made by redirections, appended, read back, linked, removed.
dir=/features-files
mkdir "$dir" && echo "made $dir"
echo one > "$dir/f"; echo two >> "$dir/f"
cat "$dir/f"; wc -l < "$dir/f"
cat > "$dir/g" <<EOF
a here-document into a file
EOF
ln -s g "$dir/s"; cat "$dir/s"
: > "$dir/f"; wc -c < "$dir/f"
rm "$dir/f" "$dir/g" "$dir/s" && rmdir "$dir" && echo "removed $dir"

# Here-documents: expanded, quoted, tab-stripped, and piped.
x=expanded
cat <<EOF
a $x here-document, $((6 * 7))
EOF
cat <<'EOF'
a literal $x here-document
EOF
tr a-z A-Z <<-EOF
	tabs stripped
	EOF

# Command substitution, nested and with backquotes.
n=$(echo a b c | wc -w); echo "words: $n"
echo "nested: $(echo "$(echo inner) outer")"
echo "backquoted: `expr 6 \* 7`"

# Subshells: their variables, cwd and exit status stay inside.
x=outer; (x=inner; echo "inside: $x"); echo "outside: $x"
(cd /etc && pwd); pwd
(exit 4); echo "subshell status: $?"

# & and wait: statuses of background jobs, then all of them at once.
sleep 0.2 & p1=$!
(echo "from the background"; exit 7) & p2=$!
wait $p2; echo "background status: $?"
wait $p1; echo "sleep status: $?"
{ for i in 3 1 2; do echo "job $i" & done; wait; } | sort

# trap: a handler for a signal sent to the shell itself, a child shell's
# TERM trap, a killed child's status, and EXIT at the end.
trap 'echo "caught USR1"' USR1
kill -USR1 $$
trap - USR1
"$sh" -c 'trap "echo child caught TERM; exit 3" TERM; kill -TERM $$; echo not reached'
echo "child's status: $?"
{ "$sh" -c 'kill -KILL $$'; } 2>/dev/null; echo "killed child's status: $?"
trap 'echo "EXIT trap ran"' EXIT

# read: fields, IFS, a loop over a here-document, a pipe into a group.
printf 'alpha beta gamma\n' | { read a b c; echo "$c $b $a"; }
IFS=: read user pw uid <<EOF
root:x:0
EOF
echo "user=$user uid=$uid"
while read line; do echo "line: $line"; done <<EOF
first
second
EOF

# exec: replacing a subshell, and redirecting the shell itself.
(exec echo "exec replaced the subshell"); echo "after exec: $?"
exec 4<&0; exec 4<&-; echo "fd 4 opened and closed"

# set -e: a failing command ends the (sub)shell; || and if do not.
(set -e; true; false; echo "not reached"); echo "set -e stopped with: $?"
(set -e; false || echo "|| went on"; if false; then :; fi; echo "if went on")

# Functions, case and arithmetic in a loop.
count() { c=0; while [ $c -lt "$1" ]; do c=$((c + 1)); done; echo "counted to $c"; }
count 50
case features.sh in *.sh) echo "case matched *.sh" ;; *) echo "no match" ;; esac

echo "== end"
