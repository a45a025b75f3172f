# kernel/: the kernel's own services. Generic C that builds into the
# kernel and into the host test program, kernel-only C, and the ktest
# suites.
KERNEL_GENERIC_SRCS += \
	kernel/printk.c \
	kernel/console.c \
	kernel/cmdline.c \
	kernel/ktest.c \
	kernel/ksyms.c \
	kernel/sysctl.c
# Tasks: init_task, copy_process, pids, kernel threads; the scheduler's
# run queue, wait queues and timers (plain C: the host tests make tasks
# and wake them; only the host never switches).
KERNEL_GENERIC_SRCS += kernel/fork.c kernel/exit.c kernel/futex.c kernel/pid.c kernel/kthread.c kernel/timer.c kernel/hrtimer.c \
	kernel/cred.c \
	kernel/sched/core.c kernel/sched/wait.c kernel/sched/cputime.c kernel/sched/loadavg.c
# The hrtimer queue's tests run on a private cpu_base with a fake clock.
TEST_SRCS += kernel/tests/hrtimer_test.c
# Pids in a cycle (alloc_pid): tasks made and freed (their stacks need
# the kernel's vmalloc).
KERNEL_ONLY_TEST_SRCS += kernel/tests/pid_test.c

KERNEL_ONLY_SRCS += kernel/panic.c
# User programs: exec, exit and the system calls (ring 3 needs the machine).
KERNEL_ONLY_SRCS += kernel/umh.c kernel/syscall_table.c kernel/sys_ni.c \
	kernel/sys.c kernel/capability.c
# Signals: the system calls, sending and the choice at the return to ring 3
# (plain C: exit's SIGCHLD sends one on the host too).
KERNEL_GENERIC_SRCS += kernel/signal.c
KERNEL_ONLY_TEST_SRCS += kernel/tests/signal_test.c kernel/tests/sched_test.c
# Linux's name of every x86-64 system call, for the -ENOSYS log line:
# from the build machine's <asm/unistd_64.h> (linux-libc-dev).
UNISTD_64_H := /usr/include/x86_64-linux-gnu/asm/unistd_64.h
$(B)/include/generated/syscall_names.h: $(UNISTD_64_H)
	@mkdir -p $(@D)
	$(Q)sed -n 's/^\#define __NR_\([a-z0-9_]*\) \([0-9]*\)$$/[\2] = "\1",/p' $< > $@.tmp
	$(Q)test -s $@.tmp || { echo "syscall names: nothing found in $<" >&2; exit 1; }
	$(Q)mv $@.tmp $@
$(B)/kernel-obj/kernel/syscall_table.o: $(B)/include/generated/syscall_names.h
KERNEL_ONLY_TEST_SRCS += kernel/tests/syscall_test.c
# Clocks and sleeping, getrandom and the kernel's ChaCha20 generator, and
# their suite "sys" (with kernel/sys.c's calls and mremap).
KERNEL_GENERIC_SRCS += kernel/time.c
# Interval and POSIX timers (generic: fork, exit and the tick call them).
KERNEL_GENERIC_SRCS += kernel/itimer.c kernel/posix-timers.c
KERNEL_ONLY_SRCS += kernel/random.c
KERNEL_ONLY_TEST_SRCS += kernel/tests/sys_test.c

TEST_SRCS += \
	kernel/tests/cmdline_test.c \
	kernel/tests/sysctl_test.c \
	kernel/tests/cred_test.c \
	kernel/tests/printk_test.c \
	kernel/tests/ksyms_test.c

# More CPUs: the masks, bring-up, cross-CPU function calls (IPIs).
KERNEL_GENERIC_SRCS += kernel/smp.c
TEST_SRCS += kernel/tests/smp_test.c
# Locks: the order checker (lockdep), mutexes and rw_semaphores.
KERNEL_GENERIC_SRCS += kernel/locking/lockdep.c kernel/locking/mutex.c
TEST_SRCS += kernel/tests/locking_test.c

# Drivers: framebuffer console, keyboard translation, ACPI tables.
KERNEL_GENERIC_SRCS += kernel/psf.c kernel/fbcon.c kernel/keymap.c kernel/acpi.c
KERNEL_ONLY_SRCS += kernel/fbcon_boot.c
# The boot console's redraw timer (needs the GOP framebuffer and ticks).
KERNEL_ONLY_TEST_SRCS += kernel/tests/fbcon_boot_test.c
TEST_SRCS += kernel/tests/fbcon_test.c kernel/tests/keymap_test.c \
	kernel/tests/acpi_test.c

# The console font comes from Debian's console-setup-linux at build time
# (FONT, set in the top-level Makefile); arch/x86_64/font.asm incbins it.
$(B)/font.psf: $(FONT)
	@mkdir -p $(@D)
	$(Q)gzip -dc $< > $@
$(B)/kernel-obj/arch/x86_64/font.o: $(B)/font.psf

# The scheduler's fair class (EEVDF) on a cfs_rq: plain C, no task, no
# clock, so it builds into the host test program too.
KERNEL_GENERIC_SRCS += kernel/sched/fair.c
TEST_SRCS += kernel/sched/tests/fair_test.c
