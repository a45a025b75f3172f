#!/bin/sh
# Everything `make test` promises, in order: host unit tests, tool tests,
# build-system checks, then QEMU boots (disk, USB, the serial shell,
# loader failures, kernel faults). Each test's output is kept in
# build/test-logs/NAME.log; a failure prints the log's tail. The last
# line is "N passed, N failed". Run by `make test` after `make all`.
set -u

B=${B:-build}
LOGS=$B/test-logs
IMGS=$B/test-images
QEMU_TIMEOUT=${QEMU_TIMEOUT:-300}
rm -rf "$LOGS" "$IMGS"
mkdir -p "$LOGS" "$IMGS"
passed=0
failed=0

# run_test NAME COMMAND...: one test; its output goes to the log.
# Its variables have their own prefix: test functions share the globals.
run_test() {
	rt_name=$1
	shift
	rt_log=$LOGS/$rt_name.log
	rt_start=$(date +%s)
	if "$@" >"$rt_log" 2>&1; then
		passed=$((passed + 1))
		echo "PASS  $rt_name ($(($(date +%s) - rt_start)) s)"
	else
		failed=$((failed + 1))
		echo "FAIL  $rt_name ($(($(date +%s) - rt_start)) s), log: $rt_log"
		tail -n 25 "$rt_log" | sed 's/^/      | /'
	fi
}

# run_lanes LANE_A LANE_B: run two functions of run_test calls at once,
# each in its own subshell; their counts are added here. A lane that ends
# without writing its counts is a failure of its own.
run_lanes() {
	rl_n=0
	for lane in "$1" "$2"; do
		rl_n=$((rl_n + 1))
		rm -f "$LOGS/lane-$rl_n-$lane"
		(
			passed=0 failed=0
			"$lane"
			echo "$passed $failed" > "$LOGS/lane-$rl_n-$lane"
		) &
	done
	wait
	rl_n=0
	for lane in "$1" "$2"; do
		rl_n=$((rl_n + 1))
		if read -r lp lf < "$LOGS/lane-$rl_n-$lane"; then
			passed=$((passed + lp))
			failed=$((failed + lf))
		else
			failed=$((failed + 1))
			echo "FAIL  $lane: the lane ended without its counts"
		fi
	done
}

# run_pool JOBS: two workers go through the function JOBS, whose every
# line is `job NAME FUNCTION ARGS...`, and each job runs in whichever
# worker reaches it first (a job is claimed by making its directory), so
# both cores stay busy to the end; a fixed split into two lanes left one
# idle for a minute and a half. JOBS lists the longest first.
job() {
	pool_i=$((pool_i + 1))
	mkdir "$pool_claims/$pool_i" 2>/dev/null || return 0
	run_test "$@"
}
pool_worker() {
	pool_i=0
	"$pool_jobs"
}
run_pool() {
	pool_jobs=$1
	pool_claims=$LOGS/claims-$1
	rm -rf "$pool_claims"
	mkdir -p "$pool_claims"
	run_lanes pool_worker pool_worker
}

# expect_grep -F|-E FILE PATTERN...: grep finds every PATTERN in FILE.
expect_grep() {
	mode=$1
	file=$2
	shift 2
	for pattern in "$@"; do
		grep -q "$mode" -- "$pattern" "$file" || { echo "missing from $file: '$pattern'"; return 1; }
	done
}

# expect_in FILE TEXT...: every TEXT occurs in FILE (fixed strings).
expect_in() {
	expect_grep -F "$@"
}

# expect_re FILE ERE...: as expect_in, each an extended regular expression
# (for lines that carry a pid, which comes from a cycle as on Linux).
expect_re() {
	expect_grep -E "$@"
}

# both_libcs_pass LOG WHERE PROG...: each check program PROG, run as its
# musl and its glibc build, printed "PROG: N checks, all ok" twice in LOG;
# else its FAIL lines and "PROG failed" with WHERE (" on Linux", or "").
both_libcs_pass() {
	bl_log=$1 bl_where=$2
	shift 2
	for bl_prog in "$@"; do
		[ "$(tr -d '\r' < "$bl_log" | grep -c "^$bl_prog: [0-9]* checks, all ok$")" = 2 ] ||
			{ tr -d '\r' < "$bl_log" | grep '^FAIL '; echo "$bl_prog failed$bl_where"; return 1; }
	done
}

# same_before_and_after LOG KEY...: LOG's two "KEY:" lines (meminfo before
# and after the programs) are shown, and are equal.
same_before_and_after() {
	sb_log=$1
	shift
	for sb_key in "$@"; do
		sb_lines=$(tr -d '\r' < "$sb_log" | grep "^$sb_key:")
		echo "$sb_lines"
		[ "$(echo "$sb_lines" | wc -l)" = 2 ] && [ "$(echo "$sb_lines" | uniq | wc -l)" = 1 ] ||
			{ echo "$sb_key differs after the programs ran"; return 1; }
	done
}

# image NAME CMDLINE|- [INITRAMFS]: a disk image with that command line
# (- = no file), and that initramfs if given.
image() {
	if [ "$2" = - ]; then
		sh tools/mkimage.sh "$IMGS/$1.img" "$B/BOOTX64.EFI" "$B/folium.elf" - ${3:+"$3"}
	else
		printf '%s\n' "$2" > "$IMGS/$1.cmdline"
		sh tools/mkimage.sh "$IMGS/$1.img" "$B/BOOTX64.EFI" "$B/folium.elf" "$IMGS/$1.cmdline" \
			${3:+"$3"}
	fi
}

# A kernel fault ends the run at once instead of waiting for the timeout
# (the fault tests look for the same text with --expect, which wins).
qemu() {
	sh tools/qemu-run.sh --timeout "$QEMU_TIMEOUT" \
		--fail-on "system halted, reset the machine" "$@"
}

# --- host ---------------------------------------------------------------
host_unit_tests() {
	"$B/host-tests" > "$LOGS/host-tests.ktap"
	cat "$LOGS/host-tests.ktap"
	"$B/tools/ktap" "$LOGS/host-tests.ktap"
}

knob_out_of_range_fails_the_build() {
	out=$(make -s config CONFIG_HZ=5 2>&1) && { echo "build accepted CONFIG_HZ=5"; return 1; }
	echo "$out"
	echo "$out" | grep -q "CONFIG_HZ=5 is out of range: must be an integer in 10..1000" || return 1
	out=$(make -s config CONFIG_SHELL_HISTORY=lots 2>&1) && { echo "accepted a word"; return 1; }
	echo "$out" | grep -q "CONFIG_SHELL_HISTORY=lots is out of range"
}

second_make_rebuilds_nothing() {
	before=$(ls -l --time-style=+%s.%N "$B/folium.elf" "$B/BOOTX64.EFI" "$B/folium.img")
	out=$(make all 2>&1) || { echo "$out"; return 1; }
	echo "$out"
	after=$(ls -l --time-style=+%s.%N "$B/folium.elf" "$B/BOOTX64.EFI" "$B/folium.img")
	[ "$before" = "$after" ] || { echo "outputs were rebuilt"; return 1; }
	! echo "$out" | grep -qE '^  (CC|LD|NASM|KSYMS) '
}

deps_without_apt_says_what_to_install() {
	# A requirement that cannot be met, and a PATH without apt-get.
	out=$(FOLIUM_DEPS_EXTRA='folium-test-package cmd:folium-no-such-command' \
		PATH=/nonexistent /bin/sh tools/deps.sh 2>&1) && { echo "$out"; return 1; }
	echo "$out"
	echo "$out" | grep -q "no apt-get" && echo "$out" | grep -q "folium-test-package"
}

# --- QEMU ---------------------------------------------------------------
# mm_suites_ran LOG: `test` took the tests' memory from node 0 and the mm
# suites ran on it (none skipped for want of it).
mm_suites_ran() {
	expect_in "$1" "taken from node 0 for the tests" || return 1
	tr -d '\r' < "$1" | grep -q '^# memory_hotplug: pass:[1-9][0-9]* fail:0 skip:0' ||
		{ echo "the memory_hotplug suite did not run in full"; return 1; }
}

# suites_ran_in_full LOG SUITE...: each suite's KTAP summary says every
# case passed, none skipped.
suites_ran_in_full() {
	sr_log=$1
	shift
	for suite; do
		tr -d '\r' < "$sr_log" | grep -q "^# $suite: pass:[1-9][0-9]* fail:0 skip:0" ||
			{ echo "the $suite suite did not run in full"; return 1; }
	done
}

# kernel_tests_in_qemu [--usb]: every in-kernel suite, from the disk
# image. From the USB stick the same kernel and archive run programs of
# both C libraries from the archive the loader read over xHCI (the disk
# image's boot runs them all in user_syscalls_conform_in_ring3), with
# MemFree equal before and after, then the suites that read the archive
# (initramfs, exec); the others do not depend on the medium and ran
# from the disk.
kernel_tests_in_qemu() { # $1: --usb or empty
	log=$LOGS/ktest$1.serial
	qemu --image "$IMGS/ktest$1.img" --log "$log" $1 || return 1
	expect_in "$log" "folium loader: jumping to the kernel" "Boot complete" \
		"folium> test" "Power down." || return 1
	"$B/tools/ktap" "$log" && expect_in "$log" "apic: tick from " || return 1
	if [ "$1" = --usb ]; then
		expect_in "$log" 'argv[2] = "b"' 'hello from ring 3' 'mmtest: all ok' &&
			both_libcs_pass "$log" "" sysconform sharedmap forktest &&
			same_before_and_after "$log" MemFree &&
			suites_ran_in_full "$log" initramfs exec
		return
	fi
	# The default build is the config matrix's pageblock order 10 with
	# THP, whose entry this boot is: THP caps the order at 9.
	expect_in "$log" "pageblock_order=9 " "CMA_MIN_ALIGNMENT_BYTES=$((4096 << 9))" &&
		mm_suites_ran "$log" &&
		suites_ran_in_full "$log" cred exec fs_syscall procfs signal sys syscall x86_tick
}

shell_session() {
	"$B/tools/serial-session" --boot-timeout 120 --timeout 60 \
		--log "$LOGS/shell.serial" tools/tests/shell.session -- \
		sh tools/qemu-run.sh --serial-stdio --image "$IMGS/nocmdline.img"
}

# loader_rejects NAME MESSAGE: the loader must print its error and give
# control back to the firmware instead of jumping.
loader_rejects() {
	log=$LOGS/loader-$1.serial
	qemu --image "$IMGS/$1.img" --log "$log" --expect "folium loader: error" || return 1
	sleep 1 # let the rest of the message arrive
	expect_in "$log" "folium loader: error" "$2" || return 1
	! grep -q "Boot complete" "$log" || { echo "the kernel ran"; return 1; }
}

# fault_report NAME TEXT...: boot with run="crash NAME"; the report must
# reach the serial console and the machine must halt.
fault_report() {
	kind=$1
	shift
	log=$LOGS/crash-$kind.serial
	qemu --image "$IMGS/crash-$kind.img" --log "$log" --expect "system halted" || return 1
	sleep 1
	cat "$log"
	expect_in "$log" "Backtrace:" "$@"
}

# type TEXT: send TEXT and Enter to the guest's PS/2 keyboard through the
# QEMU monitor FIFO $MON.in (letters, digits, space and '-' are enough).
type_keys() {
	text=$1
	while [ -n "$text" ]; do
		c=${text%"${text#?}"}
		text=${text#?}
		case $c in
		' ') key=spc ;;
		'-') key=minus ;;
		*) key=$c ;;
		esac
		echo "sendkey $key" > "$MON.in"
		sleep 0.1
	done
	echo "sendkey ret" > "$MON.in"
}

# wait_for FILE TEXT SECONDS
wait_for() {
	i=0
	while ! grep -qF -- "$2" "$1"; do
		i=$((i + 1))
		[ $i -le $(($3 * 5)) ] || { echo "timeout waiting for '$2' in $1"; return 1; }
		sleep 0.2
	done
}

ps2_keyboard_reaches_the_shell() {
	log=$LOGS/ps2.serial
	MON=$IMGS/ps2-monitor
	qemu --image "$IMGS/nocmdline.img" --log "$log" --monitor-fifo "$MON" &
	pid=$!
	ok=0
	if wait_for "$log" "Boot complete" 120; then
		sleep 1
		type_keys "help cpuinfo"
		wait_for "$log" "usage: cpuinfo" 30 &&
		type_keys "poweroff" && wait_for "$log" "Power down." 30 && ok=1
	fi
	wait $pid || ok=0
	cat "$log"
	[ $ok = 1 ]
}

reboot_resets_the_machine() {
	log=$LOGS/reboot.serial
	# -no-reboot turns the reset into QEMU exiting: a hang would time out.
	QEMU_TIMEOUT=120 qemu --image "$IMGS/reboot.img" --log "$log" || return 1
	cat "$log"
	expect_in "$log" "Rebooting..." "reboot: trying"
}

# boot_and_test NAME IMAGE [qemu options]: boot an image whose command line
# ends in "test; poweroff" and check its KTAP.
boot_and_test() {
	name=$1 img=$2
	shift 2
	log=$LOGS/$name.serial
	qemu --image "$img" --log "$log" "$@" || return 1
	expect_in "$log" "Boot complete" "Power down." || return 1
	lock_checker_silent "$log" && "$B/tools/ktap" "$log"
}

# lock_checker_silent LOG: the lock checker (lockdep) reported nothing
# but the reports the locking suite provokes between its "expected
# report" lines.
lock_checker_silent() {
	tr -d '\r' < "$1" | awk '
		/lockdep: expected report follows/ { inside = 1 }
		/lockdep: expected report ends/ { inside = 0 }
		/WARNING: (possible circular locking|possible recursive locking|inconsistent \{|bad unlock balance)/ && !inside {
			print "unexpected lock checker report: " $0; bad = 1
		}
		END { exit bad }'
}

# memtotal_near_usable LOG: meminfo's MemTotal before `test` is within 8%
# of what the firmware map calls usable (`mem`), and the same after it: a
# normal boot keeps its RAM, the tests take theirs only while they run.
memtotal_near_usable() {
	tr -d '\r' < "$1" | awk '
		$1 == "usable:" {
			usable = $2 * ($3 == "GiB" ? 1048576 : $3 == "MiB" ? 1024 : $3 == "KiB" ? 1 : 1 / 1024)
		}
		$1 == "MemTotal:" { if (!total) total = $2; last = $2 }
		END {
			if (!usable || !total) { print "no usable: or MemTotal: line"; exit 1 }
			printf "MemTotal %d kB of %d KiB usable (%.1f%%), %d kB after the tests\n",
				total, usable, 100 * total / usable, last
			exit total < 0.92 * usable || last != total
		}'
}

# memtotal_at_least LOG KB: meminfo's first MemTotal is at least KB.
memtotal_at_least() {
	tr -d '\r' < "$1" | awk -v min="$2" '
		$1 == "MemTotal:" && !total { total = $2 }
		END { printf "MemTotal %d kB, at least %d kB\n", total, min; exit total < min }'
}

# Boots with 128M, 1G and 6G of RAM and the initramfs, which is freed
# once its files are copied out (Linux's "Freeing initrd memory" line):
# `mem; meminfo` before and `meminfo` after `test` (memtotal_near_usable;
# at 128M MemTotal is then >= 112 MiB). The root is tmpfs with Folium's
# default huge=always. 1G and 6G ride on two matrix boots with THP
# (matrix_mem), as the tick's switches do; 128M, where the tests' memory
# is too small for the HugeTLB suites a matrix entry must pass, boots
# on its own (boot_with_128M).
# mem_checks LOG SIZE: those checks of a boot with SIZE of RAM (the
# boot's caller checks that the mm suites ran: mm_suites_ran).
mem_checks() {
	memtotal_near_usable "$1" &&
		expect_in "$1" "Freeing initrd memory: " "huge=always" || return 1
	[ "$2" != 128M ] || memtotal_at_least "$1" $((112 * 1024))
}

boot_with_128M() {
	image mem 'run="mem; meminfo; test; meminfo; poweroff"' "$B/initramfs.cpio" >/dev/null &&
		boot_and_test mem-128M "$IMGS/mem.img" --mem 128M &&
		mem_checks "$LOGS/mem-128M.serial" 128M && mm_suites_ran "$LOGS/mem-128M.serial"
}

# matrix_mem CFG: sets mem, the RAM of the matrix boots that carry 1G and
# 6G (empty: the default 512M, no initramfs).
matrix_mem() {
	case $1 in
	pb7-thpy) mem=1G ;;
	pb9-thpy) mem=6G ;;
	*) mem='' ;;
	esac
}

# matrix_tick CFG: the tick's command-line switches ride on three matrix
# boots (no boots of their own): all suites on the PIT, the periodic LAPIC
# timer even where the CPU has TSC-deadline, a bad value. Sets tick (the
# words) and tick_line (what the boot must print).
matrix_tick() {
	case $1 in
	pb1-thpy) tick=nolapic_timer tick_line="irq: tick from the PIT at " ;;
	pb7-thpy) tick=lapic=notscdeadline tick_line="apic: tick from the LAPIC timer (periodic, bus " ;;
	pb9-thpn) tick=lapic=sometimes tick_line="cmdline: lapic=sometimes is not notscdeadline; ignored" ;;
	*) tick='' tick_line="apic: tick from " ;;
	esac
}

# cpus_online_are LOG LIST: the shell's `cat /sys/devices/system/cpu/online`
# in LOG printed LIST.
cpus_online_are() {
	tr -d '\r' < "$1" | awk -v want="$2" '
		found { got = $0; exit }
		$0 == "folium> cat /sys/devices/system/cpu/online" { found = 1 }
		END {
			if (got == want) exit 0
			printf "/sys/devices/system/cpu/online: \"%s\", expected \"%s\"\n", got, want
			exit 1
		}'
}

# matrix_smp CFG: more CPUs ride on two matrix boots, which then run every
# suite on them: four CPUs with one that never answers (smp_fail_cpu=, the
# path of a broken AP: reported, the rest boot), and four that nr_cpus=
# and maxcpus= cut to three possible and two started. The others boot
# with qemu-run.sh's default two. Sets cpus (--cpus), smp (the words),
# smp_lines (what the boot must print, |-separated) and online (what
# /sys/devices/system/cpu/online must say).
matrix_smp() {
	case $1 in
	pb9-thpy)
		cpus=4 smp=smp_fail_cpu=2
		smp_lines="smpboot: CPU 2 (APIC ID 2) started but did not come online|smp: Brought up 1 node, 3 CPUs (some failed" online=0-1,3
		;;
	pb7-thpy)
		cpus=4 smp='nr_cpus=3 maxcpus=2'
		smp_lines="smpboot: Allowing 3 CPUs, 0 hotplug CPUs|smp: maxcpus=2: CPU 2 stays offline|smp: Brought up 1 node, 2 CPUs" online=0-1
		;;
	*) cpus=2 smp='' smp_lines="smp: Brought up 1 node, 2 CPUs" online=0-1 ;;
	esac
}

# config_matrix_entry PAGE_BLOCK_ORDER THP [MAX_PAGE_ORDER]: build that
# kernel in its own build directory, boot it, check the effective
# pageblock_order and run every in-kernel suite. With MAX_PAGE_ORDER the
# host tests of that configuration run too (test fixtures sized for the
# default orders break there first).
config_matrix_entry() {
	pb=$1 thp=$2 order=${3:-}
	cfg=pb$pb-thp$thp${order:+-order$order}
	dir=$B/matrix/$cfg
	matrix_tick "$cfg"
	matrix_mem "$cfg"
	matrix_smp "$cfg"
	set -- CONFIG_PAGE_BLOCK_ORDER="$pb" CONFIG_TRANSPARENT_HUGEPAGE="$thp" \
		${order:+CONFIG_MAX_PAGE_ORDER="$order"}
	# The kernel objects whose preprocessed text these knobs leave alone
	# come from the default build (tools/seed-objects.sh).
	make -s O="$dir" "$@" generated-headers && sh tools/seed-objects.sh "$B" "$dir" &&
		make -s -j2 O="$dir" "$@" "$dir/folium.elf" ${order:+"$dir/host-tests"} || return 1
	if [ -n "$order" ]; then
		"$dir/host-tests" > "$LOGS/matrix-$cfg-host.ktap"
		"$B/tools/ktap" "$LOGS/matrix-$cfg-host.ktap" || return 1
	fi
	# THP n: thp= on the command line and `thp SIZES` are refused, and a
	# 2 MiB read and write still map order 0 only.
	if [ "$thp" = n ]; then
		printf '%s\n' "${tick:+$tick }${smp:+$smp }"'thp=2M run="config; cat /sys/devices/system/cpu/online; thp 64K; thp; usemem 2M seq write --order-stats; test; poweroff"'
	elif [ -n "$mem" ]; then
		printf '%s\n' "${tick:+$tick }${smp:+$smp }"'run="config; cat /sys/devices/system/cpu/online; mem; meminfo; test; meminfo; poweroff"'
	else
		printf '%s\n' "${tick:+$tick }${smp:+$smp }"'run="config; cat /sys/devices/system/cpu/online; test; poweroff"'
	fi > "$dir/cmdline.txt"
	sh tools/mkimage.sh "$dir/test.img" "$B/BOOTX64.EFI" "$dir/folium.elf" \
		"$dir/cmdline.txt" ${mem:+"$B/initramfs.cpio"} || return 1
	want=$pb
	[ "$thp" = y ] && [ "$pb" -gt 9 ] && want=9
	boot_and_test "matrix-$cfg" "$dir/test.img" ${mem:+--mem "$mem"} --cpus "$cpus" || return 1
	expect_in "$LOGS/matrix-$cfg.serial" "pageblock_order=$want " \
		"CMA_MIN_ALIGNMENT_BYTES=$((4096 << want))" \
		${order:+"MAX_PAGE_ORDER=$order "} "$tick_line" || return 1
	(IFS='|' && set -f && expect_in "$LOGS/matrix-$cfg.serial" $smp_lines) &&
		cpus_online_are "$LOGS/matrix-$cfg.serial" "$online" || return 1
	[ -z "$mem" ] || mem_checks "$LOGS/matrix-$cfg.serial" "$mem" || return 1
	if [ "$thp" = n ]; then
		expect_in "$LOGS/matrix-$cfg.serial" \
			"cmdline: thp=2M: large folios are compiled out (CONFIG_TRANSPARENT_HUGEPAGE=n)" \
			"thp: large folios are compiled out" "compiled out (CONFIG_TRANSPARENT_HUGEPAGE=n): 4K only" \
			"usemem: 2 MiB seq write: 512 pages, 512 faults" || return 1
	fi
	# The seed's own check at every pageblock order: HugeTLB pages, THP
	# and the dma-buf system heap's pattern (the hugetlb and fault suites);
	# and the tick on the clock matrix_tick's words chose (x86_tick).
	for suite in hugetlb fault x86_tick; do
		tr -d '\r' < "$LOGS/matrix-$cfg.serial" |
			grep -q "^# $suite: pass:[1-9][0-9]* fail:0 skip:" ||
			{ echo "the $suite suite did not pass in $cfg${tick:+ ($tick)}"; return 1; }
	done
	mm_suites_ran "$LOGS/matrix-$cfg.serial"
}

# The same boot takes transparent_hugepage_tmpfs=never: the root's files
# are then pages only (Linux's default tmpfs).
clear_pages_from_cmdline() {
	boot_and_test stosq "$IMGS/stosq.img" || return 1
	expect_in "$LOGS/stosq.serial" "clear_pages:   rep stosq (clear_pages= on the command line)" \
		"folio_zero_user: page" "huge=never" "/bin/sysconform.glibc: " || return 1
	tr -d '\r' < "$LOGS/stosq.serial" | grep '^/bin/sysconform.glibc: ' |
		grep -q ' order:count 0:[0-9]*$' ||
		{ echo "huge=never: /bin/sysconform.glibc is not in pages only"; return 1; }
}

cma_that_cannot_be_placed_is_reported() {
	log=$LOGS/cma-too-big.serial
	qemu --image "$IMGS/cma-too-big.img" --log "$log" || return 1
	cat "$log"
	expect_in "$log" "cma: cannot reserve" "Boot complete" "no CMA area" "Power down."
}

# 1 GiB HugeTLB pages (-cpu max has PDPE1GB under TCG) on 5 GiB: one from
# memblock at boot (hugepagesz=1G hugepages=1 takes the top GiB), one more
# at run time through alloc_contig_pages (the GiB at 4 GiB; the kernel's
# memblock allocations sit in the one between), mapped by a PUD leaf and
# checked from ring 3 by `mmtest hugetlb1g`.
hugetlb_1g_pages_at_boot_and_at_run_time() {
	printf '%s\n' 'hugepagesz=1G hugepages=1 run="meminfo; /bin/mmtest hugetlb1g; poweroff"' \
		> "$IMGS/hugetlb-1g.cmdline"
	sh tools/mkimage.sh "$IMGS/hugetlb-1g.img" "$B/BOOTX64.EFI" "$B/folium.elf" \
		"$IMGS/hugetlb-1g.cmdline" "$B/initramfs.cpio" || return 1
	log=$LOGS/hugetlb-1g.serial
	qemu --image "$IMGS/hugetlb-1g.img" --log "$log" --mem 5G || return 1
	cat "$log"
	expect_in "$log" "Hugetlb:         1048576 kB" "mmtest: 1G: the pool grows by one page ok" \
		"mmtest: 1G: smaps KernelPageSize 1048576 kB ok" "mmtest: all ok" "Power down." ||
		return 1
	! grep -q 'FAILED' "$log" || { echo "a 1 GiB check failed"; return 1; }
}

# newc_of DIR: the files under DIR as a cpio "newc" archive on stdout.
newc_of() {
	(cd "$1" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --quiet)
}

# initramfs_boot NAME ARCHIVE RUN [QEMU OPTION...]: boot with ARCHIVE as the initramfs and
# run="RUN; poweroff"; the serial log is $LOGS/initramfs-NAME.serial.
initramfs_boot() { # $4...: QEMU options (--usb, --mem SIZE)
	ib_name=$1 ib_cpio=$2
	printf 'run="%s; poweroff"\n' "$3" > "$IMGS/initramfs-$ib_name.cmdline"
	shift 3
	sh tools/mkimage.sh "$IMGS/initramfs-$ib_name.img" "$B/BOOTX64.EFI" "$B/folium.elf" \
		"$IMGS/initramfs-$ib_name.cmdline" "$ib_cpio" || return 1
	qemu --image "$IMGS/initramfs-$ib_name.img" --log "$LOGS/initramfs-$ib_name.serial" \
		"$@" || return 1
	cat "$LOGS/initramfs-$ib_name.serial"
}

# The default archive with a second one appended by cat, as a user adds
# programs: both archives' files are there, the symlink too; the 64 empty
# files take ramfs past its first page of inodes.
initramfs_appended_archive_adds_files() {
	dir=$IMGS/initramfs-extra
	rm -rf "$dir" && mkdir -p "$dir/etc" "$dir/many" || return 1
	printf 'appended with cat\n' > "$dir/etc/extra"
	ln -s etc/extra "$dir/extra-link"
	i=0
	while [ $i -lt 64 ]; do
		: > "$dir/many/file$i"
		i=$((i + 1))
	done
	newc_of "$dir" > "$IMGS/extra.cpio" || return 1
	cat "$B/initramfs.cpio" "$IMGS/extra.cpio" > "$IMGS/appended.cpio"
	initramfs_boot appended "$IMGS/appended.cpio" \
		"ls /; ls /etc; cat /etc/motd; cat /extra-link; ls /many" || return 1
	expect_in "$LOGS/initramfs-appended.serial" "from 3 archive(s)" " file0" " file63" \
		"lrwxrwxrwx        9 extra-link -> etc/extra" " extra" " motd" \
		"appended with cat" "$(head -n 1 user/etc/motd)" "Power down."
}

# Debian's dynamically linked programs (glibc) and a musl-linked hello,
# packed with their loaders and libraries as `make initramfs-extra` packs
# them: the kernel loads each program's PT_INTERP loader, which maps the
# libraries from the files; each prints what it prints on this machine.
dynamic_programs_run_with_their_libraries() {
	musl-gcc -O2 -o "$IMGS/hello-dyn" user/hello.c || return 1
	sh tools/initramfs-extra.sh "$IMGS/dynamic.cpio" cat sha256sum sort ls grep true \
		stress-ng "$IMGS/hello-dyn" || return 1
	cat "$B/initramfs.cpio" "$IMGS/dynamic.cpio" > "$IMGS/dynamic-all.cpio"
	initramfs_boot dynamic "$IMGS/dynamic-all.cpio" "/usr/bin/sha256sum /etc/motd; \
/usr/bin/sort -r /etc/shells/features.sh; /usr/bin/ls /usr/bin /usr/local/bin; \
/usr/bin/grep -c Folium /etc/motd; /usr/local/bin/hello-dyn one two; \
LD_SHOW_AUXV=1 /usr/bin/true; /usr/bin/cat /proc/self/maps; meminfo; \
/usr/bin/stress-ng --vm 2 --vm-bytes 64M --mmap 2 --madvise 1 --timeout 20s --metrics-brief; \
meminfo" --mem 1G > /dev/null || return 1
	log=$LOGS/initramfs-dynamic.serial
	# stress-ng's memory stressors (forking workers that fault, mmap,
	# munmap, madvise and check their data) end in success, none reports
	# an error or a failed check, and every page comes back.
	tr -d '\r' < "$log" | grep -Eq '^stress-ng: info: +\[[0-9]+\] successful run completed in ' ||
		{ echo "stress-ng did not complete successfully"; return 1; }
	! tr -d '\r' < "$log" | grep -E '^stress-ng: (error|fail)' ||
		{ echo "stress-ng reported an error or a failure"; return 1; }
	same_before_and_after "$log" MemFree || return 1
	# AT_BASE is where the loader's first page is mapped (the same place
	# for cat as for true: both start from an empty mm below mmap_base).
	base=$(tr -d '\r' < "$log" | sed -n 's/^AT_BASE: *0x\([0-9a-f]*\)$/\1/p')
	[ -n "$base" ] && tr -d '\r' < "$log" | grep -q "^$base-[0-9a-f]* r--p " ||
		{ echo "AT_BASE ${base:-(none)} is not where a mapping starts"; return 1; }
	LC_ALL=C sort -r user/etc/shells/features.sh > "$IMGS/shells.want"
	sed -n '/^folium> \/usr\/bin\/sort -r/,/^folium> /p' "$log" | sed '1d;$d' | tr -d '\r' |
		grep -v '^\[' > "$IMGS/shells.got"
	if ! cmp -s "$IMGS/shells.want" "$IMGS/shells.got"; then
		echo "sort -r /etc/shells/features.sh printed other lines than on this machine:"
		diff "$IMGS/shells.want" "$IMGS/shells.got"
		return 1
	fi
	expect_in "$log" "$(sha256sum < user/etc/motd | cut -d' ' -f1)  /etc/motd" \
		"cat  grep  ls  sha256sum  sort" "hello-dyn" "$(grep -c Folium user/etc/motd)" \
		'argv[0] = "/usr/local/bin/hello-dyn"' 'argv[2] = "two"' "Power down."
}

# An initramfs past what a 64 MiB image holds (stress-ng and its
# libraries are 32 MiB): the image grows to fit, and the archive reads
# back whole from its FAT.
image_grows_for_a_large_initramfs() {
	head -c $((70 << 20)) /dev/urandom > "$IMGS/large.cpio" || return 1
	sh tools/mkimage.sh "$IMGS/large.img" "$B/BOOTX64.EFI" "$B/folium.elf" - \
		"$IMGS/large.cpio" || return 1
	[ "$(wc -c < "$IMGS/large.img")" -ge $((86 << 20)) ] ||
		{ echo "the image did not grow: $(wc -c < "$IMGS/large.img") bytes"; return 1; }
	MTOOLS_SKIP_CHECK=1 mcopy -n -i "$IMGS/large.img@@1M" ::/folium/initramfs.cpio \
		"$IMGS/large.back" || return 1
	cmp "$IMGS/large.cpio" "$IMGS/large.back" || return 1
	rm -f "$IMGS/large.cpio" "$IMGS/large.back" "$IMGS/large.img"
}

# A header made absurd (etc/second's filesize 0x7fffffff): the kernel
# names the entry, keeps etc/first and still reaches the shell.
initramfs_damaged_archive_is_reported() {
	dir=$IMGS/initramfs-bad
	rm -rf "$dir" && mkdir -p "$dir/etc" || return 1
	printf 'first\n' > "$dir/etc/first"
	printf 'second\n' > "$dir/etc/second"
	newc_of "$dir" > "$IMGS/bad.cpio" || return 1
	off=$(($(grep -abo 'etc/second' "$IMGS/bad.cpio" | head -n 1 | cut -d: -f1) - 110))
	printf 7fffffff | dd of="$IMGS/bad.cpio" bs=1 seek=$((off + 54)) conv=notrunc 2>/dev/null
	initramfs_boot bad "$IMGS/bad.cpio" "ls /etc; cat /etc/first" || return 1
	expect_in "$LOGS/initramfs-bad.serial" \
		"initramfs: stopped at entry \"etc/second\" at offset $off: truncated data" \
		"the entries before it are kept" "Boot complete" "first" "Power down." || return 1
	! tr -d '\r' < "$LOGS/initramfs-bad.serial" | grep -q ' second$' ||
		{ echo "etc/second was unpacked"; return 1; }
}

# The initramfs's static musl programs in ring 3, run from the command
# line: argv echoed, the exit status of a failing run, Linux-like lines
# for faults (the shell goes on), a program that takes timer interrupts in
# ring 3, a program the OOM killer ends, signals (with ymm0-15 kept across
# a handler, and the two corrupt FPU frames fpstate returns through killed
# by SIGSEGV), two programs in the background that ps lists and kill ends,
# the OOM killer choosing the biggest process (an orphan holding 256 MiB)
# before the faulting one, a fork bomb the kernel survives, and MemFree
# the same before and after: every page comes back.
user_programs_run_in_ring3() {
	initramfs_boot programs "$B/initramfs.cpio" "/bin/proctest sleep &; /bin/spin &; ps; kill 2; \
kill -KILL 3; kill 99; /bin/proctest burn; jobs; /bin/proctest bomb; meminfo; /bin/hello a b; \
/bin/hello fail; hello x; /bin/crash; /bin/crash gp; /bin/crash ud; /bin/crash oom; spin; /etc/motd; \
/bin/mmtest; /bin/mmfault; /bin/mmfault none; /bin/sigtest; /bin/fpstate; /bin/fpstate badframe; \
/bin/fpstate badheader; /bin/proctest hold 256; /bin/crash oom; /bin/proctest bomb; meminfo" || return 1
	log=$LOGS/initramfs-programs.serial
	expect_in "$log" 'argv[0] = "/bin/hello"' 'argv[1] = "a"' 'argv[2] = "b"' \
		'argv[1] = "fail"' 'exit status 3' 'argv[0] = "hello"' 'argv[1] = "x"' \
		'crash: null' ' error 6' 'killed by SIGSEGV' 'crash: gp' 'crash: ud' 'killed by SIGILL' \
		'crash: oom' 'killed by SIGKILL' \
		'spin: 20 million rounds' '/etc/motd: Permission denied' 'mmtest: all ok' \
		'mmfault: ro' ' error 7' 'mmfault: none' ' error 5' \
		'sigtest: all ok' 'killed by SIGABRT' 'fpstate: all ok' 'Power down.' || return 1
	expect_re "$log" 'crash\[[0-9]+\]: segfault at 0 ip ' \
		'traps: crash\[[0-9]+\] general protection fault ip:' \
		'traps: crash\[[0-9]+\] trap invalid opcode ip:' \
		'Out of memory: Killed process [0-9]+ \(crash\) total-vm:' \
		'mmfault\[[0-9]+\]: segfault at ' \
		'fpstate\[[0-9]+\] bad frame in rt_sigreturn frame:' || return 1
	# mmtest exits 0 (the shell prints no status), both mmfault runs
	# SIGSEGV, both fpstate bad frames too.
	! grep -q 'FAILED' "$log" || { echo "an mmtest, sigtest or fpstate check failed"; return 1; }
	[ "$(grep -c 'killed by SIGSEGV' "$log")" = 6 ] || { echo "not 6 segfault statuses"; return 1; }
	[ "$(grep -c 'hello from ring 3' "$log")" = 3 ] || { echo "not 3 greetings"; return 1; }
	# Two programs in the background, the first the shell starts (pids 2
	# and 3): ps lists them under the shell (pid 1), kill ends them, and
	# jobs reaps them with the signal that did.
	tr -d '\r' < "$log" | grep -q '^ *2 *1 [RS] *0 *[0-9.]* proctest$' &&
		tr -d '\r' < "$log" | grep -q '^ *3 *1 [RS] *0 *[0-9.]* spin$' &&
		tr -d '\r' < "$log" | grep -q '^ *1 *0 [RS] *0 *[0-9.]* \[kshell\]$' ||
		{ echo "ps did not list the shell and its two background programs"; return 1; }
	expect_in "$log" '[2]' '[3]' 'kill: 99: no such process' \
		'[2] Killed by SIGTERM  proctest' '[3] Killed by SIGKILL  spin' || return 1
	# Out of memory with an orphan holding 256 MiB: the OOM killer takes
	# the bigger process first, then the one still faulting.
	tr -d '\r' < "$log" | grep 'Out of memory: Killed process' | tail -n 2 | sed 's/^.*Out of/Out of/; s/ total-vm.*//' |
		tr '\n' ';' | grep -qxE 'Out of memory: Killed process [0-9]+ \(proctest\);Out of memory: Killed process [0-9]+ \(crash\);' ||
		{ echo "the OOM killer did not take the orphan, then crash"; return 1; }
	# A fork bomb twice (early, then last): 4094 forks until -EAGAIN (the
	# pid table), all killed and reaped; the first leaves the kernel page
	# tables of the stacks' vmalloc range behind, as Linux does, so the
	# MemFree lines come after it.
	[ "$(grep -c 'bomb: Resource temporarily unavailable after over 100 forks, all children reaped' "$log")" = 2 ] ||
		{ echo "the fork bomb did not end in EAGAIN with every child reaped"; return 1; }
	same_before_and_after "$log" MemFree
}

# The syscall conformance test and the fuzzer in ring 3, with both C
# libraries: sysconform passes as it does on Linux, proctest (vfork,
# clone, posix_spawn, execve, wait4/waitid, SIGCHLD, orphans, restarted
# calls, pipes between processes), procfs (/proc/PID, /proc/stat,
# loadavg, syslog), forktest (64 children, copy-on-write of
# every folio size, 5000 fork + exit + wait (more than the 4096 pids:
# the pid cycle wraps) and 500 fork + exec + wait cycles with musl, 1000
# and 100 with glibc), credtest (set*uid,
# capabilities, groups, permissions, RLIMIT_NPROC), mounttest (a tmpfs
# mounted with size= and huge=, remounted and unmounted), sharedmap
# (MAP_SHARED of files and of anonymous memory, SIGBUS past the end,
# truncate and holes, fork, mremap, msync), memfdtest (memfd_create and
# every seal), ttytest (termios,
# n_tty's editing, signals and VMIN/VTIME, the controlling tty and job
# control), timertest (itimers,
# POSIX timers, timerfd, alarm, clock_nanosleep), threadtest (pthreads,
# futexes, signals among threads, exec from a thread, stop and continue)
# and mmtest too, the
# fuzzer (also as four processes at once,
# forking, exec'ing, waiting and killing among its calls)
# runs to its end with both, tools/linux-madvise-free runs unchanged
# through the sysfs files and prints its record (source=folium), and
# MemFree, Slab and PageTables after all that are what they were before
# the first program ran.
user_syscalls_conform_in_ring3() {
	name=syscalls
	initramfs_boot "$name" "$B/initramfs.cpio" "meminfo; /bin/hello.glibc a b; /bin/sysconform; \
/bin/sysconform.glibc; /bin/proctest; /bin/proctest.glibc; /bin/procfs; /bin/procfs.glibc; /bin/forktest 5000; /bin/forktest.glibc; /bin/credtest; /bin/credtest.glibc; /bin/mounttest; /bin/mounttest.glibc; /bin/sharedmap; /bin/sharedmap.glibc; /bin/memfdtest; /bin/memfdtest.glibc; /bin/polltest; /bin/polltest.glibc; /bin/ttytest; /bin/ttytest.glibc; /bin/epolltest; /bin/epolltest.glibc; /bin/timertest; /bin/timertest.glibc; /bin/threadtest; /bin/threadtest.glibc; /bin/mmtest.glibc; /bin/sigtest.glibc; /bin/fpstate.glibc; /bin/fuzz 1 100; /bin/fuzz 2 2000; \
/bin/fuzz.glibc 3 2000; /bin/fuzz 4 1000 - 4; /bin/linux-madvise-free --bytes 8M --runs 1; \
/bin/madvfree --bytes 8M --runs 1; /bin/faultrate --bytes 8M --runs 1; meminfo" || return 1
	log=$LOGS/initramfs-$name.serial
	expect_in "$log" 'argv[0] = "/bin/hello.glibc"' 'argv[2] = "b"' 'hello from ring 3' \
		'mmtest: all ok' 'sigtest: all ok' 'killed by SIGABRT' 'fpstate: all ok' \
		'fuzz: 100 calls, seed 1, ' \
		'fuzz: 2000 calls, seed 2, ' 'fuzz: 2000 calls, seed 3, ' 'fuzz: 4 jobs, all done' \
		'fuzz: 1000 calls, seed 7, ' '@env source=folium ' \
		'@end madvise_free 9 ' '@end madvise_free_sbs 11 ' '@end faults_sbs 10 ' 'Power down.' || return 1
	# Every 2 MiB of the range is one 2048K folio, counted by the stats.
	tr -d '\r' < "$log" | grep -q '^@row 2048 [0-9.]* [0-9.]* [0-9.]* [0-9]* 4 0 [0-9.]*$' ||
		{ echo "faultrate: Folium's 2048K row is wrong"; return 1; }
	# Folium lazyfrees PTE-mapped 2 MiB folios without splitting them.
	tr -d '\r' < "$log" | grep -q '^@row 2048 pte [0-9.]* [0-9.]* [0-9.]* 0 0$' ||
		{ echo "madvfree: Folium's PTE-mapped 2048K row is wrong"; return 1; }
	both_libcs_pass "$log" "" sysconform proctest procfs forktest polltest timertest \
		threadtest credtest mounttest sharedmap memfdtest ttytest epolltest || return 1
	# sigtest's abort is the one death; nothing else may fail.
	! grep -q 'FAILED\|exit status' "$log" || { echo "a program failed"; return 1; }
	[ "$(grep -c 'killed by' "$log")" = 1 ] || { echo "a program was killed"; return 1; }
	same_before_and_after "$log" MemFree Slab PageTables
}

# Debian's Linux 6.1 and 7.3 in the same QEMU (the side-by-side's other
# kernels, fetched by make as data, booted by tools/qemu-run.sh --kernel
# with the same machine line) run the very same /bin files: sysconform,
# proctest, procfs, forktest, credtest, mounttest, ttytest, epolltest,
# timertest and threadtest pass there with both C
# libraries, as on Folium, and schedtest (2 s a pair) and mmtest; sigtest
# ends by SIGABRT; fpstate passes and its bad XSTATE_BV frame is SIGSEGV
# (not its bad MXCSR: QEMU's TCG XRSTOR takes reserved MXCSR bits, which
# real CPUs fault on; user-on-linux.sh runs that one on the build
# machine); init powers off. $1: old or new.
linux_runs_the_same_programs_in_the_same_qemu() {
	case $1 in
	old) kernel=${LINUX_OLD_VMLINUZ:-} ;;
	new) kernel=${LINUX_NEW_VMLINUZ:-} ;;
	esac
	[ -r "$kernel" ] || { echo "no readable Linux kernel '$kernel' (make test fetches it)"; return 1; }
	log=$LOGS/linux-$1-same-programs.serial
	# memfd's exec seals (MFD_NOEXEC_SEAL, F_SEAL_EXEC) are Linux 6.3's:
	# memfdtest is the yardstick's alone.
	memfd=
	[ "$1" = new ] && memfd=";/bin/memfdtest;/bin/memfdtest.glibc"
	# One CPU: the programs' checks (idle ticks across a sleep, CPU
	# shares of two spinners) are written for one, as Folium runs its
	# tasks on one so far.
	qemu --kernel "$kernel" --initrd "$B/linux-initramfs.cpio" --log "$log" --cpus 1 \
		--append "console=ttyS0 quiet panic=-1 -- /bin/hello a; /bin/sysconform; \
/bin/sysconform.glibc; /bin/proctest; /bin/proctest.glibc; /bin/procfs; /bin/procfs.glibc; \
/bin/forktest; /bin/schedtest 2; /bin/credtest; /bin/credtest.glibc; \
/bin/forktest.glibc; /bin/polltest; /bin/polltest.glibc; /bin/ttytest; /bin/ttytest.glibc; /bin/epolltest; /bin/epolltest.glibc; /bin/timertest; /bin/timertest.glibc; \
/bin/threadtest; /bin/threadtest.glibc; /bin/mmtest; /bin/sigtest; \
/bin/fpstate; /bin/fpstate.glibc badheader; /bin/mounttest;/bin/mounttest.glibc;\
/bin/sharedmap;/bin/sharedmap.glibc$memfd" || return 1
	tr -d '\r' < "$log" | grep -v '^ok '
	expect_in "$log" 'argv[1] = "a"' 'init: /bin/hello: exit status 0' \
		'init: /bin/sysconform: exit status 0' 'init: /bin/sysconform.glibc: exit status 0' \
		'schedtest: 2 checks, all ok' 'init: /bin/schedtest: exit status 0' \
		'mmtest: all ok' 'init: /bin/mmtest: exit status 0' 'sigtest: all ok' \
		'init: /bin/sigtest: killed by signal 6' 'fpstate: all ok' \
		'init: /bin/fpstate: exit status 0' 'init: /bin/fpstate.glibc: killed by signal 11' \
		'init: done, powering off' || return 1
	both_libcs_pass "$log" " on Linux" sysconform proctest procfs forktest polltest \
		timertest || return 1
	# Linux 6.1 cuts a futex_waitv value to 32 bits (6.7 refuses one
	# that does not fit, as Folium does): that check fails on 6.1, no other.
	if [ "$1" = new ]; then
		both_libcs_pass "$log" " on Linux" threadtest || return 1
	else
		[ "$(tr -d '\r' < "$log" | grep -c '^threadtest: 1 of [0-9]* checks FAILED$')" = 2 ] &&
			[ "$(tr -d '\r' < "$log" | grep -c '^FAIL waitv_value_too_big_einval: ')" = 2 ] ||
			{ tr -d '\r' < "$log" | grep '^FAIL '; echo "threadtest failed on Linux 6.1"; return 1; }
	fi
	both_libcs_pass "$log" " on Linux" credtest mounttest || return 1
	if [ "$1" = new ]; then
		both_libcs_pass "$log" " on Linux" memfdtest || return 1
	fi
	# Linux 6.1 counts RSS per task and adds it to the mm's every 64
	# faults (SPLIT_RSS_COUNTING, gone in 6.2), so /proc/self/status may
	# lag the pages sharedmap just touched: on 6.1 its four RssShmem
	# checks may fail. And 6.1's do_set_pmd maps a tmpfs folio by a PMD
	# under MADV_NOHUGEPAGE (6.12 on refuse, as Folium does): that check
	# fails on 6.1. No other.
	if [ "$1" = new ]; then
		both_libcs_pass "$log" " on Linux" sharedmap || return 1
	else
		# Both runs end, each failing at most those five, all its FAIL
		# lines those.
		tr -d '\r' < "$log" | awk '/^sharedmap: [0-9]+ checks, all ok$/ { n++ }
			/^sharedmap: [1-5] of [0-9]+ checks FAILED$/ { n++; k += $2 }
			/^FAIL (RssShmem |smaps: MADV_NOHUGEPAGE maps by pages:)/ { r++ }
			END { exit !(n == 2 && k == r) }' ||
			{ tr -d '\r' < "$log" | grep '^FAIL '; echo "sharedmap failed on Linux 6.1"; return 1; }
	fi
	both_libcs_pass "$log" " on Linux" ttytest || return 1
	# Linux 6.1 checks epoll_wait's count and buffer before its epfd, 7.3
	# (and Folium) the epfd first, and 6.1 takes an eventfd write of more
	# than 8 bytes: those three checks fail on 6.1, no other (the log's
	# 8 FAIL lines are those twice and threadtest's one twice, besides
	# sharedmap's).
	if [ "$1" = new ]; then
		both_libcs_pass "$log" " on Linux" epolltest || return 1
	else
		[ "$(tr -d '\r' < "$log" | grep -c '^epolltest: 3 of [0-9]* checks FAILED$')" = 2 ] &&
			[ "$(tr -d '\r' < "$log" | grep '^FAIL ' |
				grep -vc '^FAIL \(RssShmem \|smaps: MADV_NOHUGEPAGE\)')" = 8 ] &&
			[ "$(tr -d '\r' < "$log" | grep -c '^FAIL \(wait_kernel_pointer_ebadf\|wait_ebadf_before_maxevents\|efd_write_16_einval\): ')" = 6 ] ||
			{ tr -d '\r' < "$log" | grep '^FAIL '; echo "epolltest failed on Linux 6.1"; return 1; }
	fi
}

# shell_output LOG SHELL: what /etc/shells/features.sh printed under SHELL
# in LOG, from its first line to its EXIT trap's, kernel log lines and
# the firmware's screen-clearing escapes out.
shell_output() {
	tr -d '\r' < "$1" | sed "s/$(printf '\033')\[[0-9;=]*[A-Za-z]//g" |
		grep -v '^\[ *[0-9]*\.[0-9]*\] ' |
		sed -n "/^== features under $2\$/,/^EXIT trap ran\$/p"
}

# Debian's busybox ash and bash (fetched by make as data, the initramfs's
# second archive) run /etc/shells/features.sh, a script using pipelines,
# redirections, here-documents, command substitution, subshells, & and
# wait, trap, read, exec, $? of a pipeline and set -e; on Folium and on
# Linux 7.3 in the same QEMU each shell prints the same bytes. Then a fork
# bomb in ash (/etc/shells/bomb.sh) fills the pid table, kill -9 -1 ends
# it, and the kernel shell goes on; run twice, MemFree after the second is
# MemFree after the first (the first leaves the kernel page tables of the
# stacks' vmalloc range behind, as Linux does). Between them busybox's
# ps, top, pidof, free and dmesg show a background sleep, the kernel
# shell, the memory and the kernel log, and readlink /proc/$$/exe names
# /bin/busybox.
distro_shells_run_scripts_as_on_linux() {
	kernel=${LINUX_NEW_VMLINUZ:-}
	[ -r "$kernel" ] || { echo "no readable Linux kernel '$kernel' (make test fetches it)"; return 1; }
	printf 'run="%s; poweroff"\n' "/bin/sh /etc/shells/features.sh /bin/sh; \
/bin/bash /etc/shells/features.sh /bin/bash; \
/bin/sh -c '/bin/sleep 100 & /bin/ps -o pid,ppid,stat,comm; /bin/top -b -n 1; echo pidof: \$(/bin/pidof sleep); \
/bin/readlink /proc/\$\$/exe; kill \$!'; \
/bin/free; /bin/dmesg; /bin/sh /etc/shells/bomb.sh; meminfo; \
/bin/sh /etc/shells/bomb.sh; meminfo" > "$IMGS/shells.cmdline"
	sh tools/mkimage.sh "$IMGS/shells.img" "$B/BOOTX64.EFI" "$B/folium.elf" \
		"$IMGS/shells.cmdline" "$B/initramfs.cpio" || return 1
	folium=$LOGS/shells-folium.serial linux=$LOGS/shells-linux-7.3.serial
	qemu --image "$IMGS/shells.img" --mem 1G --log "$folium" || return 1
	qemu --kernel "$kernel" --initrd "$B/linux-initramfs.cpio" --log "$linux" \
		--append "console=ttyS0 quiet panic=-1 -- /bin/sh /etc/shells/features.sh /bin/sh ; \
/bin/bash /etc/shells/features.sh /bin/bash" || return 1
	for sh in sh bash; do
		shell_output "$folium" $sh > "$LOGS/shells-folium.$sh.out"
		shell_output "$linux" $sh > "$LOGS/shells-linux.$sh.out"
		[ "$(wc -l < "$LOGS/shells-linux.$sh.out")" -ge 50 ] ||
			{ cat "$LOGS/shells-linux.$sh.out"; echo "$sh printed too little on Linux 7.3"; return 1; }
		diff -u "$LOGS/shells-linux.$sh.out" "$LOGS/shells-folium.$sh.out" ||
			{ echo "$sh: Folium's output (+) differs from Linux 7.3's (-)"; return 1; }
		echo "$sh: $(wc -l < "$LOGS/shells-folium.$sh.out") lines, the same on both kernels"
	done
	# busybox's ps, top, free and dmesg read /proc and syslog(2) as on Linux
	# (sleep may not have gone to sleep yet when ps looks: R or S).
	tr -d '\r' < "$folium" | grep -Eq '^ +[0-9]+ +[0-9]+ [RS] +sleep$' &&
		tr -d '\r' < "$folium" | grep -Eq '^ +1 +0 I.? +kshell$' &&
		tr -d '\r' < "$folium" | grep -Eq '^ +[0-9]+ +[0-9]+ 0 +[RS] +[0-9]+ +[0-9]+% +[0-9]+% /bin/sleep 100$' ||
		{ echo "busybox ps or top did not list the kernel shell and sleep"; return 1; }
	# pidof finds it (Debian's busybox has no pgrep); the shell's
	# /proc/PID/exe is the file /bin/sh leads to.
	tr -d '\r' < "$folium" | grep -Eq '^pidof: [0-9]+$' ||
		{ echo "busybox pidof did not find sleep"; return 1; }
	tr -d '\r' < "$folium" | grep -qx '/bin/busybox' ||
		{ echo "/proc/PID/exe of /bin/sh is not /bin/busybox"; return 1; }
	expect_in "$folium" "Load average: " "Mem:    " "folium> /bin/dmesg" || return 1
	[ "$(tr -d '\r' < "$folium" | grep -c 'Boot complete in')" -ge 2 ] ||
		{ echo "dmesg did not print the kernel log"; return 1; }
	[ "$(tr -d '\r' < "$folium" | grep -c '^bomb: fork failed after [0-9][0-9][0-9][0-9]* children$')" = 2 ] ||
		{ echo "the ash fork bomb did not end in a failed fork twice"; return 1; }
	[ "$(tr -d '\r' < "$folium" | grep -c '^bomb: kill -9 -1 left nothing to kill after [0-9]* round(s)$')" = 2 ] ||
		{ echo "kill -9 -1 did not end the fork bomb twice"; return 1; }
	expect_in "$folium" "Power down." && same_before_and_after "$folium" MemFree
}

# init=PATH (Linux's): a #! script runs as pid 1 with Linux's environment
# for init, adopts an orphan, exits with status 3; the kernel says so and
# the kernel shell (pid 2, its parent) takes over and runs run=. A PATH
# that cannot run is reported and the kernel shell starts as pid 1.
init_runs_as_pid_1() {
	printf '%s\n' 'init=/etc/shells/init.sh run="ps; poweroff"' > "$IMGS/init.cmdline"
	sh tools/mkimage.sh "$IMGS/init.img" "$B/BOOTX64.EFI" "$B/folium.elf" "$IMGS/init.cmdline" \
		"$B/initramfs.cpio" >/dev/null || return 1
	qemu --image "$IMGS/init.img" --log "$LOGS/init.serial" || return 1
	tr -d '\r' < "$LOGS/init.serial" | sed -n '/Boot complete/,$p'
	expect_in "$LOGS/init.serial" "Run /etc/shells/init.sh as init process" \
		"init: running as pid 1 with HOME=/ TERM=linux" "init: the orphan's parent is pid 1" \
		"init: pid 1 exited with status 3; the kernel shell takes over" "Power down." || return 1
	tr -d '\r' < "$LOGS/init.serial" | grep -q '^ *2 *0 [RS] *0 *[0-9.]* \[kshell\]$' ||
		{ echo "ps did not show the kernel shell as pid 2"; return 1; }
	image init-missing 'init=/no/such/init run="ps; poweroff"' >/dev/null || return 1
	qemu --image "$IMGS/init-missing.img" --log "$LOGS/init-missing.serial" || return 1
	expect_in "$LOGS/init-missing.serial" \
		"init: requested init /no/such/init failed (error -2); starting the kernel shell" \
		"Power down." || return 1
	tr -d '\r' < "$LOGS/init-missing.serial" | grep -q '^ *1 *0 [RS] *0 *[0-9.]* \[kshell\]$' ||
		{ echo "ps did not show the kernel shell as pid 1"; return 1; }
}

# make bench's side-by-side, quick (tools/bench-sbs.sh --quick: one boot of
# each kernel, small ranges, one run; Folium's default kernel here): every
# boot prints every record, the CSVs hold what each kernel does, nothing
# is lost under pressure, and the report's section is made from them.
side_by_side_quick_run() {
	out=$LOGS/sbs-quick
	B=$B FOLIUM_ELF=$B/folium.elf sh tools/bench-sbs.sh --quick "$out" || return 1
	# MADV_FREE: Linux 6.1 splits the 4 PTE-mapped 2 MiB folios; Linux 7.3
	# and Folium lazyfree them whole, and both have mTHP rows.
	grep -q '^2048,pmd,.*,8192,0$' "$out/linux-old-madvise_free_sbs.csv" &&
		grep -q '^2048,pte,.*,0,4$' "$out/linux-old-madvise_free_sbs.csv" &&
		! grep -q '^64,pte,' "$out/linux-old-madvise_free_sbs.csv" ||
		{ echo "unexpected Linux 6.1 madvfree rows:"; cat "$out/linux-old-madvise_free_sbs.csv"; return 1; }
	for k in linux-new folium; do
		grep -q '^2048,pte,.*,0,0$' "$out/$k-madvise_free_sbs.csv" &&
			grep -q '^64,pte,.*,0,0$' "$out/$k-madvise_free_sbs.csv" ||
			{ echo "unexpected madvfree rows on $k:"; cat "$out/$k-madvise_free_sbs.csv"; return 1; }
	done
	# Faults: 4K pages, and four 2048K THPs by each kernel's own count;
	# 64K folios by the per-size stats on Linux 7.3 and Folium.
	for k in linux-old linux-new folium; do
		grep -q '^4,.*,2048,-1,[0-9.]*$' "$out/$k-faults_sbs.csv" &&
			grep -q '^2048,.*,4,0,[0-9.]*$' "$out/$k-faults_sbs.csv" ||
			{ echo "unexpected faultrate rows on $k:"; cat "$out/$k-faults_sbs.csv"; return 1; }
	done
	for k in linux-new folium; do
		grep -q '^64,.*,128,0,[0-9.]*$' "$out/$k-faults_sbs.csv" ||
			{ echo "no 64K row on $k:"; cat "$out/$k-faults_sbs.csv"; return 1; }
	done
	# MADV_FREE then pressure: no byte lost anywhere; something reclaimed
	# on every row of Folium and Linux 6.1, on some row of Linux 7.3
	# (whose PMD-mapped lazyfree THPs may outlast the quick run's small
	# pressure: README's known differences).
	for k in linux-old linux-new folium; do
		awk -F, -v k=$k '/^[0-9]/ { rows++; if ($13 != 0) bad = 1; if ($6 > 0) some++
			else if (k != "linux-new") bad = 1 }
			END { exit bad || rows < 2 || !some }' "$out/$k-lazyfree_sbs.csv" ||
			{ echo "lazyfree on $k:"; cat "$out/$k-lazyfree_sbs.csv"; return 1; }
	done
	# Fragmentation: both rows on every kernel, nothing lost; Folium's
	# direct compaction gets every THP of the quick run's 32.
	for k in linux-old linux-new folium; do
		awk -F, -v k=$k '/^(nocompact|compact),/ { rows++; if ($2 != "ok" || $19 != 0) bad = 1
			if (k == "folium" && $1 == "compact" && $5 != 100) bad = 1 }
			END { exit bad || rows != 2 }' "$out/$k-fragment_sbs.csv" ||
			{ echo "fragment on $k:"; cat "$out/$k-fragment_sbs.csv"; return 1; }
	done
	# Processes and threads: the eleven rows, once each, on every kernel
	# and natively; every time positive and within its runs' min..max, the
	# range of fork_big, munmap_big, the cow, mprotect and mremap rows
	# populated.
	for k in linux-old linux-new folium native; do
		awk -F, '/^[a-z_]+,/ { n[$1]++; rows++
			if (!($2 > 0 && $3 > 0 && $3 <= $2 && $2 <= $4 && $5 > 0)) bad = 1
			if ($1 ~ /^(fork_big|munmap_big|cow_copy|cow_reuse|mprotect_big|mremap_big)$/ &&
				!($6 > 0)) bad = 1 }
			END { exit bad || rows != 11 || n["fork"] != 1 || n["fork_big"] != 1 ||
				n["exec"] != 1 || n["pipe"] != 1 || n["futex_pingpong"] != 1 ||
				n["thread_create"] != 1 || n["munmap_big"] != 1 ||
				n["cow_copy"] != 1 || n["cow_reuse"] != 1 ||
				n["mprotect_big"] != 1 || n["mremap_big"] != 1 }' "$out/$k-procs_sbs.csv" ||
			{ echo "procbench on $k:"; cat "$out/$k-procs_sbs.csv"; return 1; }
	done
	sh tools/sbs-report.sh "$out" "$out/sbs.png" >"$out/section.md" || return 1
	expect_in "$out/section.md" "## Same program, same QEMU: Folium and Linux" \
		"- Accelerator (from every record's CPUID): tcg" "| 2048 | pte |" \
		"### Processes and threads (lmbench lat_proc and lat_pipe shapes)" "| fork_big |" \
		"| futex_pingpong |" "| thread_create |" "| munmap_big |" "| cow_copy |" \
		"| cow_reuse |" "| mprotect_big |" "| mremap_big |" || return 1
}

# Ctrl-C on the serial console while /bin/spin runs: SIGINT ends it, the
# shell goes on; `ttytest session` reads raw bytes, ^C under ISIG, an
# edited line and a VTIME timeout; epoll_wait on the console ends when a
# line is typed (epolltest tty) (tools/tests/signals.session).
ctrl_c_sends_sigint() {
	sh tools/tests/signals-qemu.sh "$B" "$IMGS" "$LOGS/signals.serial"
}

# Ctrl-C stops long shell commands (peek over 1 TiB, usemem of 16 GiB), which
# say how far they got, and the shell answers the next command: one boot
# with no initramfs and no cmdline.txt, driven by interrupt.session.
ctrl_c_stops_shell_commands() {
	"$B/tools/serial-session" --boot-timeout 120 --timeout 60 \
		--log "$LOGS/interrupt.serial" tools/tests/interrupt.session -- \
		sh tools/qemu-run.sh --serial-stdio --image "$IMGS/nocmdline.img"
}

# rows CSV: the number of data rows (not comments, not the header).
rows() {
	grep -v '^#' "$1" | tail -n +2 | wc -l | tr -d ' '
}

# expect_rows DIR NAME=ROWS...: each DIR/NAME.csv exists with ROWS rows.
expect_rows() {
	dir=$1
	shift
	for want in "$@"; do
		got=$(rows "$dir/${want%=*}.csv") || return 1
		[ "$got" = "${want#*=}" ] || { echo "$dir/${want%=*}.csv: $got rows, want ${want#*=}"; return 1; }
	done
}

# The host benchmark programs print records that convert to CSV (the ones
# that take well under a second, the fragmentation experiment in its quick
# form: a 32 MiB node, one seed, its user pages checked after compaction;
# timing is never checked).
host_bench_records_convert() {
	make -s "$B/bench-page-alloc" "$B/bench-clear" "$B/bench-madvise" \
		"$B/bench-pageblock" "$B/bench-fragment" || return 1
	out=$LOGS/host-bench
	rm -rf "$out"
	mkdir -p "$out"
	"$B/bench-page-alloc" > "$out/page-alloc.txt" || return 1
	"$B/bench-pageblock" > "$out/pageblock.txt" || return 1
	"$B/bench-fragment" --quick > "$out/fragment.txt" || return 1
	"$B/tools/benchrec" csv --prefix host- "$out" "$out/page-alloc.txt" \
		"$out/pageblock.txt" "$out/fragment.txt" || return 1
	max_order=$(sed -n 's/^#define CONFIG_MAX_PAGE_ORDER \([0-9]*\)/\1/p' \
		"$B/include/generated/config.h")
	# page_alloc: single at every order, batch64 and batch1024 where the
	# batch fits in half of the 256 MiB node (orders 0-9, 0-5), bulk64 and
	# bulk1024 at order 0; page_alloc_mixed: two windows.
	b64=$(((max_order < 9 ? max_order : 9) + 1))
	b1024=$(((max_order < 5 ? max_order : 5) + 1))
	expect_rows "$out" host-page_alloc=$((max_order + 1 + b64 + b1024 + 2)) \
		host-page_alloc_mixed=2 host-pageblock=1 host-fragment=1 || return 1
	expect_in "$out/host-page_alloc.csv" "0,batch64," "0,bulk64," "0,batch1024," "0,bulk1024," ||
		return 1
	expect_in "$out/host-pageblock.csv" "# env: source=host cpu=" "pageblock_order[order]," ||
		return 1
	expect_in "$out/host-fragment.csv" "seeds=1" "thp_nocompact[%],thp_nocompact_min[%]," \
		"hugetlb_nocompact[%],hugetlb_nocompact_min[%]," "hugetlb_compact[%]," \
		"compact_stall[count]" || return 1
	# The HugeTLB pool got pages, compaction made some of them, and never
	# fewer in all than before it ran.
	awk -F, '/^pageblock_order/ { for (i = 1; i <= NF; i++) col[$i] = i; next }
		/^[0-9]/ { n = $col["hugetlb_nocompact[%]"]; c = $col["hugetlb_compact[%]"]
			   rows++; if (!(c > 0 && c > n)) bad = 1 }
		END { exit bad || rows != 1 }' "$out/host-fragment.csv" ||
		{ echo "fragment: no HugeTLB pages, or none from compaction:"; cat "$out/host-fragment.csv"; return 1; }
}

# One real scripted run, the short preset: tools/experiment.sh boots
# QEMU, runs `bench --quick all`, keeps each command's output; benchrec
# turns the records into CSV, bench-report into plots and REPORT.md. Then
# the same serial log with one digit changed, or cut mid-record, must be
# refused with a clear error and no CSV.
bench_quick_in_qemu() {
	out=$B/experiments/quick
	sh tools/experiment.sh qemu --outdir "$out" tools/experiments/quick.txt || return 1
	expect_in "$out/02-bench-quick-all.txt" "emulated (TCG): compare ratios" \
		"@end page_alloc " "@end pageblock 1 " "@end fragment 1 " || return 1
	report=$out/report
	rm -rf "$report"
	"$B/tools/benchrec" csv --prefix kernel- "$report" "$out/serial.log" || return 1
	expect_rows "$report" kernel-madvise_free=9 kernel-madvise_pte_floor=1 \
		kernel-folio_zero_user=18 kernel-clear_pages=3 kernel-pageblock=1 \
		kernel-fragment=1 kernel-fork_batching=10 || return 1
	expect_in "$report/kernel-madvise_free.csv" "emulated=yes" "thp_orders=2M" || return 1
	sh tools/bench-report.sh "$report" || return 1
	expect_in "$report/REPORT.md" "## 1. MADV_FREE" "## 5. Fork: batched vs per-page" \
		"emulated (TCG): compare ratios" || return 1
	# The batched fork copies a 64K folio's 16 PTEs in one run, and the
	# batched reuse takes one fault per 64K folio: 4 MiB is 64 of them;
	# mprotect there and back changes each in one batch per way, mremap
	# moves each in one.
	awk -F, '/^folio/ { for (i = 1; i <= NF; i++) col[$i] = i; next }
		/^64,/ { rows++; if ($col["batched_fork_runs[count]"] != 64 ||
			$col["batched_reuse4k_faults[count]"] != 64 ||
			$col["per_page_fork_runs[count]"] != 1024 ||
			$col["batched_mprotect_runs[count]"] != 128 ||
			$col["per_page_mprotect_runs[count]"] != 2048 ||
			$col["batched_mremap_runs[count]"] != 64 ||
			$col["per_page_mremap_runs[count]"] != 1024) bad = 1 }
		END { exit bad || rows != 1 }' "$report/kernel-fork_batching.csv" ||
		{ echo "fork_batching: the 64K row's counters are not batched ones:"; cat "$report/kernel-fork_batching.csv"; return 1; }
	[ -s "$report/kernel-madvise_free.png" ] || { echo "no kernel-madvise_free.png"; return 1; }
	bad=$out/bad
	rm -rf "$bad"
	mkdir -p "$bad"
	tr -d '\r' < "$out/serial.log" | awk '/^@row 64 / && !done { sub(/ [0-9]/, " 9"); done = 1 } 1' \
		> "$bad/corrupted.log"
	if "$B/tools/benchrec" csv "$bad/csv" "$bad/corrupted.log" > "$bad/corrupted.out" 2>&1; then
		echo "a corrupted row was accepted"; return 1
	fi
	expect_in "$bad/corrupted.out" "stream corrupted" || return 1
	tr -d '\r' < "$out/serial.log" | sed '/^@row 2048 /q' > "$bad/truncated.log"
	if "$B/tools/benchrec" csv "$bad/csv" "$bad/truncated.log" > "$bad/truncated.out" 2>&1; then
		echo "a truncated log was accepted"; return 1
	fi
	expect_in "$bad/truncated.out" "truncated: no @end" || return 1
	[ ! -e "$bad/csv" ] || [ -z "$(ls "$bad/csv")" ] || { echo "CSV written from bad input"; return 1; }
	cat "$bad/corrupted.out" "$bad/truncated.out"
}

echo "make test: host tests"
# Two lanes of host tests side by side (the machine has two cores); every
# test that runs make in this build tree is in lane a, so no two makes
# share it at once.
host_lane_a() {
	run_test host-unit-tests host_unit_tests
	run_test knob-out-of-range-fails-build knob_out_of_range_fails_the_build
	run_test second-make-rebuilds-nothing second_make_rebuilds_nothing
	run_test fuzz-page-alloc-smoke make -s fuzz-smoke
	run_test host-bench-records-convert host_bench_records_convert
	run_test user-programs-on-linux sh tools/tests/user-on-linux.sh "$B"
	run_test ktap-parser sh tools/tests/ktap-test.sh "$B/tools/ktap"
	run_test benchrec-tool sh tools/tests/benchrec-test.sh "$B/tools/benchrec"
	run_test experiment-tool sh tools/tests/experiment-test.sh "$B/tools/serial-session"
	run_test fragment-tool sh tools/tests/fragment-test.sh "$B"
	run_test linux-madvise-free-tool sh tools/tests/linux-madvise-free-test.sh \
		"$B/tools/linux-madvise-free"
	run_test deps-without-apt deps_without_apt_says_what_to_install
	run_test mmdiff-comparison-on-saved-logs sh tools/tests/mmdiff-test.sh
	run_test layering sh tools/tests/check-layering-test.sh
}

# The lanes' tests took about 115 s and 110 s (lane a had 155 s to
# lane b's 70 s before seed-objects and serial-session moved).
host_lane_b() {
	run_test seed-objects-tool sh tools/tests/seed-objects-test.sh "$B"
	run_test serial-session-tool sh tools/tests/serial-session-test.sh "$B/tools/serial-session"
	run_test side-by-side-logs-and-report-tool sh tools/tests/sbs-test.sh "$B"
	run_test bench-report-tool sh tools/tests/bench-report-test.sh
	run_test flash-usb-refusals sh tools/tests/flash-usb-test.sh
	run_test c-formatting sh tools/tests/check-format-test.sh
	run_test mutants-tool sh tools/tests/mutants-test.sh
	# shellcheck disable=SC2086 # LINUX_NEW_PIN: suite, package, version, config package
	run_test fetch-linux-pins-and-refusals sh tools/tests/fetch-linux-test.sh "$B" ${LINUX_NEW_PIN:-}
	# shellcheck disable=SC2086 # the pin's words
	run_test fetch-programs-pins-and-refusals sh tools/tests/fetch-programs-test.sh "$B" ${DISTRO_PIN:-}
}

run_lanes host_lane_a host_lane_b

echo "make test: QEMU boots and the config matrix (CONFIG_PAGE_BLOCK_ORDER x THP, then"
echo "  MAX_PAGE_ORDER 12; TCG, -cpu max; two at a time)"
# The in-kernel tests boot with the initramfs: the exec, fs_syscall and
# procfs suites run /bin programs and read its files.
image ktest 'run="config; test; poweroff"' "$B/initramfs.cpio" >/dev/null
image ktest--usb 'run="meminfo; /bin/hello.glibc a b; /bin/sysconform; /bin/sysconform.glibc; /bin/sharedmap; /bin/sharedmap.glibc; /bin/forktest 1000; /bin/forktest.glibc; /bin/mmtest.glibc; meminfo; test initramfs; test exec; poweroff"' \
	"$B/initramfs.cpio" >/dev/null
image nocmdline - >/dev/null
image reboot 'run="reboot"' >/dev/null
image cma 'cma=16M' >/dev/null
image vm 'thp=16K,64K,2M' >/dev/null
image stosq 'clear_pages=stosq zero=page transparent_hugepage_tmpfs=never run="cpuinfo; zero; pagecache /bin/sysconform.glibc; test fault; test clear; poweroff"' \
	"$B/initramfs.cpio" >/dev/null
image cma-too-big 'cma=64G run="cma; poweroff"' >/dev/null
for kind in pf ud gp stack bootstack panic; do
	image crash-$kind "run=\"crash $kind\"" >/dev/null
done
# Damaged kernels: none at all, a wrong ELF magic, cut off after 2000 bytes.
sh tools/mkimage.sh "$IMGS/no-kernel.img" "$B/BOOTX64.EFI" - -
cp "$B/folium.elf" "$IMGS/bad-magic.elf"
printf 'XELF' | dd of="$IMGS/bad-magic.elf" bs=1 conv=notrunc 2>/dev/null
sh tools/mkimage.sh "$IMGS/bad-magic.img" "$B/BOOTX64.EFI" "$IMGS/bad-magic.elf" -
head -c 2000 "$B/folium.elf" > "$IMGS/truncated.elf"
sh tools/mkimage.sh "$IMGS/truncated.img" "$B/BOOTX64.EFI" "$IMGS/truncated.elf" -
image accel 'run="poweroff"' >/dev/null

# The boots and the config matrix, in one pool of two workers (each QEMU
# is one TCG thread, a matrix entry builds its kernel with make -j2 and
# boots it; the machine has two cores), longest first.
boot_jobs() {
	# Pageblock order 10 with THP is the default build: kernel-tests-disk.
	for cfg in 10-n 7-y 7-n 1-n 9-n 1-y 9-y; do
		job config-pb${cfg%-*}-thp${cfg#*-} config_matrix_entry "${cfg%-*}" "${cfg#*-}"
	done
	job config-pb12-thpn-order12 config_matrix_entry 12 n 12
	job side-by-side-quick-run-boots-three-kernels-and-reports side_by_side_quick_run
	job mmdiff-linux-7.3-and-folium-give-the-same-answers \
		sh tools/tests/mmdiff-qemu.sh "$B" "${LINUX_NEW_VMLINUZ:-}" "$LOGS/mmdiff"
	job user-syscalls-conform-in-ring3 user_syscalls_conform_in_ring3
	job distro-shells-run-scripts-as-on-linux-7.3 distro_shells_run_scripts_as_on_linux
	job accel-kvm-probes-and-falls-back-to-tcg sh tools/tests/qemu-accel-test.sh \
		"$IMGS/accel.img" "$LOGS"
	job bench-quick-in-qemu bench_quick_in_qemu
	job linux-7.3-runs-the-same-programs-in-the-same-qemu \
		linux_runs_the_same_programs_in_the_same_qemu new
	job linux-6.1-runs-the-same-programs-in-the-same-qemu \
		linux_runs_the_same_programs_in_the_same_qemu old
	job kernel-tests-disk kernel_tests_in_qemu ""
	job kernel-tests-usb kernel_tests_in_qemu --usb
	job boot-with-128M boot_with_128M
	job user-programs-run-in-ring3 user_programs_run_in_ring3
	job ctrl-c-kills-the-program-with-sigint ctrl_c_sends_sigint
	job shell-session shell_session
	job mm-shell-session "$B/tools/serial-session" --boot-timeout 120 --timeout 60 \
		--log "$LOGS/mm-shell.serial" tools/tests/mm.session -- \
		sh tools/qemu-run.sh --serial-stdio --image "$IMGS/cma.img"
	job vm-shell-session "$B/tools/serial-session" --boot-timeout 120 --timeout 120 \
		--log "$LOGS/vm-shell.serial" tools/tests/vm.session -- \
		sh tools/qemu-run.sh --serial-stdio --image "$IMGS/vm.img"
	job hugetlb-1g-pages-at-boot-and-at-run-time hugetlb_1g_pages_at_boot_and_at_run_time
	job init-runs-as-pid-1 init_runs_as_pid_1
	job clear-pages-zero-page-and-tmpfs-huge-from-cmdline clear_pages_from_cmdline
	job cma-that-cannot-be-placed-is-reported cma_that_cannot_be_placed_is_reported
	job ps2-keyboard-reaches-the-shell ps2_keyboard_reaches_the_shell
	job ctrl-c-stops-long-shell-commands ctrl_c_stops_shell_commands
	job job-control-on-the-console-folium sh tools/tests/jobs-qemu.sh folium "$B" "$IMGS" \
		"$LOGS/jobs-folium.serial"
	job job-control-on-the-console-linux-7.3 sh tools/tests/jobs-qemu.sh linux "$B" \
		"${LINUX_NEW_VMLINUZ:-}" "$LOGS/jobs-linux-7.3.serial"
	job initramfs-appended-archive-adds-files initramfs_appended_archive_adds_files
	job initramfs-damaged-archive-is-reported initramfs_damaged_archive_is_reported
	job dynamic-programs-run-with-their-libraries dynamic_programs_run_with_their_libraries
	job image-grows-for-a-large-initramfs image_grows_for_a_large_initramfs
	job reboot-resets-the-machine reboot_resets_the_machine
	REGS="RIP: 0008:ffffffff8 RSP: 0010: RFLAGS: RAX: RBX: RCX: RDX: RSI: RDI: RBP: R08: R15: CR0: CR3: CR4:"
	# shellcheck disable=SC2086
	job fault-page-fault fault_report pf $REGS "Exception 14: Page Fault (#PF)" \
		"page not present, write, kernel mode" \
		"CR2 (faulting address): 0x00000deadbeef000" "crash_page_fault+" \
		"cmd_crash+" "shell_run_line+" "shell_thread+"
	# shellcheck disable=SC2086
	job fault-invalid-opcode fault_report ud $REGS "Exception 6: Invalid Opcode (#UD)" \
		"error code: 0x0 (none pushed by this exception)" "crash_invalid_opcode+"
	# shellcheck disable=SC2086
	job fault-general-protection fault_report gp $REGS \
		"Exception 13: General Protection (#GP)" \
		"error code: 0x0 (no segment selector involved)" "crash_general_protection+"
	# A task's kernel stack (the shell thread's, vmalloc'ed) into its
	# guard page, then the boot stack into its own: both are named before
	# the report.
	# shellcheck disable=SC2086
	job fault-task-stack-overflow-is-reported fault_report stack $REGS \
		"kernel stack overflow (double-fault): 0xffffc9" "(stack is 0xffffc9" \
		"Exception 8: Double Fault (#DF)" "CR2 (last page-fault address): 0xffffc9" \
		"crash_stack_overflow+"
	# shellcheck disable=SC2086
	job fault-double-fault-on-boot-stack-overflow fault_report bootstack $REGS \
		"kernel stack overflow (double-fault): 0xffffffff8" "(stack is 0xffffffff8" \
		"Exception 8: Double Fault (#DF)" "crash_stack_overflow+"
	job fault-panic fault_report panic "Kernel panic: crash: panic requested from the shell" \
		"cmd_crash+" "shell_run_line+" "shell_thread+"
	job loader-missing-kernel loader_rejects no-kernel "/folium/folium.elf not found"
	job loader-bad-magic loader_rejects bad-magic "bad magic"
	job loader-truncated-kernel loader_rejects truncated "truncated"
}

run_pool boot_jobs

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
