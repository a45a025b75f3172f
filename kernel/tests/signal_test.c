/*
 * The signal suite (in-kernel only): the signal system calls through
 * do_syscall on a private task and mm, as a program's syscall would make
 * them, with Linux's errno for each bad argument; then the generic choice
 * made at each return to ring 3 (signal_next_action): synchronous signals
 * first, blocked ones kept, ignored ones dropped, SA_RESETHAND applied,
 * default actions. Example: SIGUSR1 and SIGSEGV pending, none blocked:
 * SIGSEGV (11) comes out before SIGUSR1 (10). Delivery to ring 3 itself
 * is /bin/sigtest's to prove.
 */
#include <ktest.h>
#include <mm.h>
#include <syscalls.h>
#include <tty.h>
#include <vm.h>
#include "ktest_task.h"

#define BUF 0x400000ul	  /* two user pages of the test mm */
#define UNMAPPED 0x1000ul /* no VMA */
#define SSZ sizeof(sigset_t)

static struct task_struct *task;
static struct mm_struct *mm, *prev_mm;

static int signal_test_init(struct kunit *test)
{
	prev_mm = current_mm;
	mm = mm_create(0);
	if (!mm)
		return -1;
	switch_mm(mm);
	if (IS_ERR_VALUE(vm_mmap(mm, BUF, 2 * PAGE_SIZE, VM_READ | VM_WRITE | VM_USER, 0)))
		return -1;
	task = ktest_task_create(mm);
	if (!task)
		return -1;
	return 0;
}

static void signal_test_exit(struct kunit *test)
{
	free_task(task);
	switch_mm(prev_mm);
	mm_destroy(mm);
}

static long sys4(unsigned long nr, unsigned long a0, unsigned long a1, unsigned long a2,
		 unsigned long a3)
{
	const unsigned long args[6] = { a0, a1, a2, a3, 0, 0 };

	return do_syscall(task, nr, args);
}

static long sigaction(int sig, unsigned long act, unsigned long oact)
{
	return sys4(__NR_rt_sigaction, (unsigned long)sig, act, oact, SSZ);
}

static long sigprocmask(int how, unsigned long set, unsigned long oset)
{
	return sys4(__NR_rt_sigprocmask, (unsigned long)how, set, oset, SSZ);
}

/* rt_sigprocmask(@how, &@set, NULL) with @set copied to user memory. */
static long change_mask(int how, sigset_t set)
{
	if (copy_to_user(BUF + PAGE_SIZE, &set, SSZ))
		return -EFAULT;
	return sigprocmask(how, BUF + PAGE_SIZE, 0);
}

/* Put a k_sigaction with @handler and @flags at BUF and install it. */
static long set_handler(int sig, uint64_t handler, uint64_t flags, sigset_t mask)
{
	struct k_sigaction ka = { handler, flags | SA_RESTORER, 0x401000, mask };

	if (copy_to_user(BUF, &ka, sizeof(ka)))
		return -EFAULT;
	return sigaction(sig, BUF, 0);
}

/* What is pending for the task: its own and its process's sets. */
static sigset_t pending_set(void)
{
	return task->signals.pending.signal | task->signal->shared_pending.signal;
}

/* The first queued siginfo of @sig, the thread's then the process's. */
static const struct kernel_siginfo *queued_info(int sig)
{
	struct sigpending *lists[] = { &task->signals.pending, &task->signal->shared_pending };
	struct sigqueue *q;

	for (unsigned int i = 0; i < ARRAY_SIZE(lists); i++)
		list_for_each_entry(q, &lists[i]->list, list)
			if (q->info.si_signo == sig)
				return &q->info;
	return NULL;
}

/* After a fatal signal: signal_next_action says SIGKILL (every thread
 * gets it) and group_exit_code is the signal. Return: that code, with
 * the process made whole again for the next case. */
static int fatal_exit_code(struct kunit *test)
{
	struct ksignal ks;
	int code = task->signal->group_exit_code;

	KUNIT_EXPECT_TRUE(test, task->signal->flags & SIGNAL_GROUP_EXIT);
	KUNIT_EXPECT_EQ(test, signal_next_action(task, &ks), -SIGKILL);
	flush_signals(task);
	task->signal->flags = 0;
	task->signal->group_exit_code = 0;
	return code;
}

static void rt_sigaction_checks_size_signal_and_pointers(struct kunit *test)
{
	struct k_sigaction old;

	KUNIT_EXPECT_EQ(test, set_handler(SIGUSR1, 0x401234, SA_SIGINFO, sigmask(SIGUSR2)), 0);
	KUNIT_EXPECT_EQ(test, sys4(__NR_rt_sigaction, SIGUSR1, 0, BUF + 64, 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, sigaction(0, 0, BUF + 64), -EINVAL);
	KUNIT_EXPECT_EQ(test, sigaction(_NSIG + 1, 0, BUF + 64), -EINVAL);
	KUNIT_EXPECT_EQ(test, sigaction(-1, 0, BUF + 64), -EINVAL);
	KUNIT_EXPECT_EQ(test, sigaction(SIGKILL, BUF, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sigaction(SIGSTOP, BUF, 0), -EINVAL);
	/* Linux refuses only a new action for them: reading is fine. */
	KUNIT_EXPECT_EQ(test, sigaction(SIGKILL, 0, BUF + 64), 0);
	KUNIT_EXPECT_EQ(test, sigaction(SIGUSR1, UNMAPPED, 0), -EFAULT);
	KUNIT_EXPECT_EQ(test, sigaction(SIGUSR1, 0, UNMAPPED), -EFAULT);
	KUNIT_EXPECT_EQ(test, sigaction(SIGUSR1, 0, BUF + 64), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(&old, BUF + 64, sizeof(old)), 0);
	KUNIT_EXPECT_EQ(test, old.handler, 0x401234);
	KUNIT_EXPECT_EQ(test, old.flags, SA_SIGINFO | SA_RESTORER);
	KUNIT_EXPECT_EQ(test, old.restorer, 0x401000);
	KUNIT_EXPECT_EQ(test, old.mask, sigmask(SIGUSR2));
	/* SIGKILL and SIGSTOP never enter a handler's mask. */
	KUNIT_EXPECT_EQ(test, set_handler(SIGUSR2, 0x401234, 0, ~0ull), 0);
	KUNIT_EXPECT_EQ(test, task->sighand->action[SIGUSR2 - 1].mask,
			~(sigmask(SIGKILL) | sigmask(SIGSTOP)));
}

static void ignoring_a_signal_drops_its_pending_instance(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, change_mask(SIG_BLOCK, sigmask(SIGUSR1)), 0);
	KUNIT_EXPECT_EQ(test, send_signal(task, SIGUSR1, NULL), 0);
	KUNIT_EXPECT_EQ(test, pending_set(), sigmask(SIGUSR1));
	KUNIT_EXPECT_EQ(test, set_handler(SIGUSR1, SIG_IGN, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, pending_set(), 0);
	/* Unblocked and ignored: never even queued. */
	KUNIT_EXPECT_EQ(test, change_mask(SIG_SETMASK, 0), 0);
	KUNIT_EXPECT_EQ(test, send_signal(task, SIGUSR1, NULL), 0);
	KUNIT_EXPECT_EQ(test, send_signal(task, SIGCHLD, NULL), 0);
	KUNIT_EXPECT_EQ(test, pending_set(), 0);
	KUNIT_EXPECT_EQ(test, send_signal(task, 0, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, send_signal(task, _NSIG + 1, NULL), -EINVAL);
}

static void rt_sigprocmask_blocks_unblocks_and_never_blocks_kill(struct kunit *test)
{
	sigset_t set = sigmask(SIGUSR1) | sigmask(SIGKILL) | sigmask(SIGSTOP) | sigmask(SIGINT);
	sigset_t old;

	KUNIT_ASSERT_EQ(test, copy_to_user(BUF, &set, SSZ), 0);
	KUNIT_EXPECT_EQ(test, sigprocmask(SIG_BLOCK, BUF, BUF + 8), 0);
	KUNIT_EXPECT_EQ(test, task->signals.blocked, sigmask(SIGUSR1) | sigmask(SIGINT));
	KUNIT_ASSERT_EQ(test, copy_from_user(&old, BUF + 8, SSZ), 0);
	KUNIT_EXPECT_EQ(test, old, 0);
	set = sigmask(SIGINT);
	KUNIT_ASSERT_EQ(test, copy_to_user(BUF, &set, SSZ), 0);
	KUNIT_EXPECT_EQ(test, sigprocmask(SIG_UNBLOCK, BUF, BUF + 8), 0);
	KUNIT_EXPECT_EQ(test, task->signals.blocked, sigmask(SIGUSR1));
	KUNIT_ASSERT_EQ(test, copy_from_user(&old, BUF + 8, SSZ), 0);
	KUNIT_EXPECT_EQ(test, old, sigmask(SIGUSR1) | sigmask(SIGINT));
	KUNIT_EXPECT_EQ(test, sigprocmask(SIG_SETMASK, BUF, 0), 0);
	KUNIT_EXPECT_EQ(test, task->signals.blocked, sigmask(SIGINT));
	/* Errors leave the mask alone; a bad how is not checked without a set. */
	KUNIT_EXPECT_EQ(test, sigprocmask(3, BUF, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sigprocmask(3, 0, BUF + 8), 0);
	KUNIT_EXPECT_EQ(test, sigprocmask(SIG_BLOCK, UNMAPPED, 0), -EFAULT);
	KUNIT_EXPECT_EQ(test, sigprocmask(SIG_BLOCK, 0, UNMAPPED), -EFAULT);
	KUNIT_EXPECT_EQ(test, sys4(__NR_rt_sigprocmask, SIG_BLOCK, BUF, 0, 16), -EINVAL);
	KUNIT_EXPECT_EQ(test, task->signals.blocked, sigmask(SIGINT));
}

static void rt_sigpending_reports_the_blocked_pending_ones(struct kunit *test)
{
	sigset_t set = sigmask(SIGUSR2), got;

	KUNIT_ASSERT_EQ(test, copy_to_user(BUF, &set, SSZ), 0);
	KUNIT_EXPECT_EQ(test, sigprocmask(SIG_BLOCK, BUF, 0), 0);
	KUNIT_EXPECT_EQ(test, send_signal(task, SIGUSR2, NULL), 0);
	KUNIT_EXPECT_FALSE(test, signal_pending(task));
	KUNIT_EXPECT_EQ(test, sys4(__NR_rt_sigpending, BUF + 8, SSZ, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(&got, BUF + 8, SSZ), 0);
	KUNIT_EXPECT_EQ(test, got, sigmask(SIGUSR2));
	KUNIT_EXPECT_EQ(test, sys4(__NR_rt_sigpending, BUF + 8, SSZ + 1, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys4(__NR_rt_sigpending, UNMAPPED, SSZ, 0, 0), -EFAULT);
	KUNIT_EXPECT_EQ(test, sigprocmask(SIG_UNBLOCK, BUF, 0), 0);
	KUNIT_EXPECT_TRUE(test, signal_pending(task));
}

static long altstack(uint64_t sp, int32_t flags, uint64_t size)
{
	struct k_sigaltstack ss = { .ss_sp = sp, .ss_flags = flags, .ss_size = size };

	if (copy_to_user(BUF, &ss, sizeof(ss)))
		return -EFAULT;
	return sys4(__NR_sigaltstack, BUF, 0, 0, 0);
}

static void sigaltstack_sets_reports_and_refuses(struct kunit *test)
{
	struct k_sigaltstack old, in = { .ss_sp = 0x10000, .ss_size = 8192 };

	KUNIT_EXPECT_EQ(test, sys4(__NR_sigaltstack, 0, BUF + 64, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(&old, BUF + 64, sizeof(old)), 0);
	KUNIT_EXPECT_EQ(test, old.ss_flags, SS_DISABLE);
	KUNIT_EXPECT_EQ(test, altstack(0x10000, 0, MINSIGSTKSZ - 1), -ENOMEM);
	KUNIT_EXPECT_EQ(test, altstack(0x10000, 5, 8192), -EINVAL);
	KUNIT_EXPECT_EQ(test, altstack(0x10000, 0, 8192), 0);
	KUNIT_EXPECT_EQ(test, sys4(__NR_sigaltstack, 0, BUF + 64, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(&old, BUF + 64, sizeof(old)), 0);
	KUNIT_EXPECT_EQ(test, old.ss_sp, 0x10000);
	KUNIT_EXPECT_EQ(test, old.ss_size, 8192);
	KUNIT_EXPECT_EQ(test, old.ss_flags, 0);
	/* While running on it: reported as SS_ONSTACK, and no change. */
	KUNIT_EXPECT_EQ(test, do_sigaltstack(task, NULL, &old, 0x11000), 0);
	KUNIT_EXPECT_EQ(test, old.ss_flags, SS_ONSTACK);
	KUNIT_EXPECT_EQ(test, do_sigaltstack(task, &in, NULL, 0x10000 + 8192), -EPERM);
	KUNIT_EXPECT_EQ(test, do_sigaltstack(task, NULL, &old, 0x10000), 0);
	KUNIT_EXPECT_EQ(test, old.ss_flags, 0); /* the byte below its bottom */
	KUNIT_EXPECT_EQ(test, altstack(0, SS_DISABLE, 0), 0);
	KUNIT_EXPECT_EQ(test, sas_ss_flags(task, 0x11000), SS_DISABLE);
	KUNIT_EXPECT_EQ(test, sys4(__NR_sigaltstack, UNMAPPED, 0, 0, 0), -EFAULT);
	KUNIT_EXPECT_EQ(test, sys4(__NR_sigaltstack, 0, UNMAPPED, 0, 0), -EFAULT);
}

static void autodisarm_stack_is_saved_disarmed_and_restored(struct kunit *test)
{
	struct k_sigaltstack ss = { .ss_sp = 0x10000,
				    .ss_flags = (int32_t)SS_AUTODISARM,
				    .ss_size = 8192 };
	struct k_sigaltstack saved;

	KUNIT_ASSERT_EQ(test, do_sigaltstack(task, &ss, NULL, 0), 0);
	/* The frame gets the stack as it was, the handler none. */
	KUNIT_EXPECT_EQ(test, save_altstack(task, BUF, 0x11000), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(&saved, BUF, sizeof(saved)), 0);
	KUNIT_EXPECT_EQ(test, saved.ss_sp, 0x10000);
	KUNIT_EXPECT_EQ(test, (uint32_t)saved.ss_flags, SS_AUTODISARM | SS_ONSTACK);
	KUNIT_EXPECT_EQ(test, sas_ss_flags(task, 0x11000), SS_DISABLE);
	/* rt_sigreturn, back on the interrupted stack, re-arms it. */
	KUNIT_EXPECT_EQ(test, restore_altstack(task, BUF, 0x7fff0000), 0);
	KUNIT_EXPECT_EQ(test, task->signals.altstack.ss_size, 8192);
	KUNIT_EXPECT_EQ(test, sas_ss_flags(task, 0x11000), SS_ONSTACK);
	KUNIT_EXPECT_EQ(test, save_altstack(task, UNMAPPED, 0), -EFAULT);
	KUNIT_EXPECT_EQ(test, restore_altstack(task, UNMAPPED, 0), -EFAULT);
}

static void kill_tkill_tgkill_reach_only_the_one_process(struct kunit *test)
{
	const struct kernel_siginfo *info;

	/* Handled, so SIGUSR1 and SIGUSR2 stay pending instead of ending
	 * the process. */
	KUNIT_ASSERT_EQ(test, set_handler(SIGUSR1, 0x401100, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, set_handler(SIGUSR2, 0x401100, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, sys4(__NR_kill, NO_SUCH_PID, SIGUSR1, 0, 0), -ESRCH);
	KUNIT_EXPECT_EQ(test, sys4(__NR_kill, -5, SIGUSR1, 0, 0), -ESRCH);
	KUNIT_EXPECT_EQ(test, sys4(__NR_kill, task->pid, _NSIG + 1, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys4(__NR_kill, task->pid, -1, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys4(__NR_kill, task->pid, 0, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, sys4(__NR_kill, 0, 0, 0, 0), 0);
	/* -1 is everyone but pid 1 and the caller: nobody here (Linux). */
	KUNIT_EXPECT_EQ(test, sys4(__NR_kill, -1, 0, 0, 0), -ESRCH);
	KUNIT_EXPECT_EQ(test, pending_set(), 0);
	KUNIT_EXPECT_EQ(test, sys4(__NR_kill, task->pid, SIGUSR1, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, pending_set(), sigmask(SIGUSR1));
	/* kill is for the process: the shared set. */
	KUNIT_EXPECT_EQ(test, task->signal->shared_pending.signal, sigmask(SIGUSR1));
	info = queued_info(SIGUSR1);
	KUNIT_ASSERT_NOT_NULL(test, info);
	KUNIT_EXPECT_EQ(test, info->si_signo, SIGUSR1);
	KUNIT_EXPECT_EQ(test, info->si_code, SI_USER);
	KUNIT_EXPECT_EQ(test, info->kill.pid, task->pid);
	/* A second instance for the process merges: the first's siginfo
	 * stays. */
	KUNIT_EXPECT_EQ(test, sys4(__NR_kill, task->pid, SIGUSR1, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, info->si_code, SI_USER);
	KUNIT_EXPECT_EQ(test, task->signals.pending.signal, 0);
	KUNIT_EXPECT_EQ(test, sys4(__NR_tkill, 0, SIGUSR1, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys4(__NR_tkill, NO_SUCH_PID, SIGUSR1, 0, 0), -ESRCH);
	KUNIT_EXPECT_EQ(test, sys4(__NR_tkill, task->pid, 100, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys4(__NR_tgkill, task->pid, NO_SUCH_PID, SIGUSR2, 0), -ESRCH);
	KUNIT_EXPECT_EQ(test, sys4(__NR_tgkill, NO_SUCH_PID, task->pid, SIGUSR2, 0), -ESRCH);
	KUNIT_EXPECT_EQ(test, sys4(__NR_tgkill, task->pid, -1, SIGUSR2, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys4(__NR_tgkill, task->pid, task->pid, 100, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys4(__NR_tgkill, task->pid, task->pid, SIGUSR2, 0), 0);
	KUNIT_ASSERT_NOT_NULL(test, queued_info(SIGUSR2));
	KUNIT_EXPECT_EQ(test, queued_info(SIGUSR2)->si_code, SI_TKILL);
	/* tgkill and tkill are for the thread: its own set, which Linux's
	 * legacy_queue looks at alone (SIGUSR1 pending for the process
	 * does not merge a thread-directed one). */
	KUNIT_EXPECT_EQ(test, task->signals.pending.signal, sigmask(SIGUSR2));
	KUNIT_EXPECT_EQ(test, sys4(__NR_tkill, task->pid, SIGUSR1, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, task->signals.pending.signal, sigmask(SIGUSR1) | sigmask(SIGUSR2));
	KUNIT_EXPECT_EQ(test, task->signal->shared_pending.signal, sigmask(SIGUSR1));
	KUNIT_EXPECT_EQ(test, pending_set(), sigmask(SIGUSR1) | sigmask(SIGUSR2));
}

static void synchronous_signals_come_first_then_the_lowest(struct kunit *test)
{
	struct ksignal ks;

	KUNIT_ASSERT_EQ(test, set_handler(SIGUSR1, 0x401100, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, set_handler(SIGSEGV, 0x401200, SA_SIGINFO, 0), 0);
	KUNIT_ASSERT_EQ(test, set_handler(SIGHUP, 0x401300, 0, 0), 0);
	send_signal(task, SIGUSR1, NULL);
	send_signal(task, SIGHUP, NULL);
	force_sig_fault(task, SIGSEGV, SEGV_MAPERR, 0x1234);
	KUNIT_EXPECT_EQ(test, signal_next_action(task, &ks), SIGSEGV);
	KUNIT_EXPECT_EQ(test, ks.info.si_code, SEGV_MAPERR);
	KUNIT_EXPECT_EQ(test, ks.info.addr, 0x1234);
	KUNIT_EXPECT_EQ(test, ks.ka.handler, 0x401200);
	KUNIT_EXPECT_EQ(test, signal_next_action(task, &ks), SIGHUP);
	KUNIT_EXPECT_EQ(test, signal_next_action(task, &ks), SIGUSR1);
	KUNIT_EXPECT_EQ(test, signal_next_action(task, &ks), 0);
}

static void blocked_stay_pending_and_ignored_are_skipped(struct kunit *test)
{
	struct ksignal ks;

	KUNIT_ASSERT_EQ(test, set_handler(SIGUSR1, 0x401100, 0, 0), 0);
	task->signals.blocked = sigmask(SIGUSR1);
	send_signal(task, SIGUSR1, NULL);
	KUNIT_EXPECT_EQ(test, signal_next_action(task, &ks), 0);
	KUNIT_EXPECT_EQ(test, pending_set(), sigmask(SIGUSR1));
	/* Queued while blocked, then ignored by default or by SIG_IGN. */
	task->signals.blocked = ~0ull;
	send_signal(task, SIGCHLD, NULL);
	send_signal(task, SIGWINCH, NULL);
	send_signal(task, SIGTSTP, NULL);
	task->sighand->action[SIGPIPE - 1].handler = SIG_IGN;
	send_signal(task, SIGPIPE, NULL);
	task->signals.blocked = sigmask(SIGUSR1);
	KUNIT_EXPECT_EQ(test, signal_next_action(task, &ks), 0);
	KUNIT_EXPECT_EQ(test, pending_set(), sigmask(SIGUSR1));
	set_current_blocked(task, 0);
	KUNIT_EXPECT_EQ(test, signal_next_action(task, &ks), SIGUSR1);
}

static void default_actions_kill_with_the_signal(struct kunit *test)
{
	static const int fatal[] = { SIGINT, SIGTERM, SIGABRT, SIGSEGV, SIGKILL, SIGUSR2, SIGSYS };
	struct ksignal ks;

	for (unsigned i = 0; i < ARRAY_SIZE(fatal); i++) {
		send_signal(task, fatal[i], NULL);
		KUNIT_EXPECT_EQ(test, fatal_exit_code(test), fatal[i]);
	}
	/* Blocked, it waits; SIGKILL cannot be blocked. */
	task->signals.blocked = sigmask(SIGTERM);
	send_signal(task, SIGTERM, NULL);
	KUNIT_EXPECT_EQ(test, signal_next_action(task, &ks), 0);
	KUNIT_EXPECT_FALSE(test, task->signal->flags & SIGNAL_GROUP_EXIT);
	KUNIT_EXPECT_TRUE(test, sig_kernel_ignore(SIGURG));
	KUNIT_EXPECT_FALSE(test, sig_kernel_ignore(SIGTERM));
	KUNIT_EXPECT_TRUE(test, sig_kernel_stop(SIGTTOU));
}

static void resethand_nodefer_and_the_handler_mask(struct kunit *test)
{
	struct ksignal ks;

	KUNIT_ASSERT_EQ(test, set_handler(SIGUSR1, 0x401100, SA_RESETHAND, sigmask(SIGUSR2)), 0);
	send_signal(task, SIGUSR1, NULL);
	KUNIT_ASSERT_EQ(test, signal_next_action(task, &ks), SIGUSR1);
	KUNIT_EXPECT_EQ(test, ks.ka.handler, 0x401100);
	KUNIT_EXPECT_EQ(test, task->sighand->action[SIGUSR1 - 1].handler, SIG_DFL);
	signal_delivered(task, &ks);
	KUNIT_EXPECT_EQ(test, task->signals.blocked, sigmask(SIGUSR1) | sigmask(SIGUSR2));
	/* The next one finds SIG_DFL: it kills. */
	set_current_blocked(task, 0);
	send_signal(task, SIGUSR1, NULL);
	KUNIT_EXPECT_EQ(test, fatal_exit_code(test), SIGUSR1);
	KUNIT_ASSERT_EQ(test, set_handler(SIGUSR2, 0x401100, SA_NODEFER, sigmask(SIGKILL)), 0);
	send_signal(task, SIGUSR2, NULL);
	KUNIT_ASSERT_EQ(test, signal_next_action(task, &ks), SIGUSR2);
	signal_delivered(task, &ks);
	KUNIT_EXPECT_EQ(test, task->signals.blocked, 0);
}

static void blocked_or_ignored_fault_signals_kill(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, set_handler(SIGSEGV, 0x401200, 0, 0), 0);
	KUNIT_EXPECT_FALSE(test, unhandled_signal(task, SIGSEGV));
	task->signals.blocked = sigmask(SIGSEGV);
	KUNIT_EXPECT_TRUE(test, unhandled_signal(task, SIGSEGV));
	force_sig_fault(task, SIGSEGV, SEGV_ACCERR, 0x5000);
	KUNIT_EXPECT_EQ(test, fatal_exit_code(test), SIGSEGV);
	KUNIT_ASSERT_EQ(test, set_handler(SIGILL, SIG_IGN, 0, 0), 0);
	KUNIT_EXPECT_TRUE(test, unhandled_signal(task, SIGILL));
	force_sig_fault(task, SIGILL, ILL_ILLOPN, 0x401000);
	KUNIT_EXPECT_EQ(test, fatal_exit_code(test), SIGILL);
	/* A frame that cannot be built: SIGSEGV kills even with a handler. */
	KUNIT_ASSERT_EQ(test, set_handler(SIGSEGV, 0x401200, 0, 0), 0);
	force_sigsegv(task);
	KUNIT_EXPECT_EQ(test, fatal_exit_code(test), SIGSEGV);
}

/* init (pid 1) takes only what it handles: SIGTERM, SIGKILL and SIGSTOP
 * are dropped, one that came blocked is dropped at delivery, a handled
 * one runs, and a fault's signal still ends it (Linux's SIGNAL_UNKILLABLE). */
static void init_takes_only_the_signals_it_handles(struct kunit *test)
{
	struct ksignal ks;

	task->signal->flags |= SIGNAL_UNKILLABLE;
	send_signal(task, SIGTERM, NULL);
	send_signal(task, SIGKILL, NULL);
	send_signal(task, SIGSTOP, NULL);
	KUNIT_EXPECT_EQ(test, pending_set(), 0);
	task->signals.blocked = sigmask(SIGINT);
	send_signal(task, SIGINT, NULL);
	KUNIT_EXPECT_EQ(test, pending_set(), sigmask(SIGINT));
	set_current_blocked(task, 0);
	KUNIT_EXPECT_EQ(test, signal_next_action(task, &ks), 0);
	KUNIT_EXPECT_EQ(test, pending_set(), 0);
	KUNIT_EXPECT_FALSE(test, task->signal->flags & (SIGNAL_GROUP_EXIT | SIGNAL_STOP_STOPPED));
	KUNIT_ASSERT_EQ(test, set_handler(SIGUSR1, 0x401100, 0, 0), 0);
	send_signal(task, SIGUSR1, NULL);
	KUNIT_EXPECT_EQ(test, signal_next_action(task, &ks), SIGUSR1);
	force_sig_fault(task, SIGSEGV, SEGV_MAPERR, 0x5000);
	KUNIT_EXPECT_EQ(test, fatal_exit_code(test), SIGSEGV);
}

/* ^C with a program in the tty's foreground is n_tty's SIGINT for its
 * group, and the other bytes are the tty's input, not the shell's; with
 * none, the shell's editor gets the byte. */
static void ctrl_c_is_sigint_for_the_tty_foreground_group(struct kunit *test)
{
	/* As at the prompt: no shell command armed the console (`test` did). */
	bool armed = console_intr_arm(false);
	int session, pgrp;

	while (console_trygetc() >= 0)
		;
	console_input(0x03);
	KUNIT_EXPECT_EQ(test, console_trygetc(), 0x03);
	tty_set_foreground(task, &session, &pgrp);
	console_input(0x03);
	console_input('x');
	console_input('\r');
	KUNIT_EXPECT_TRUE(test, pending_set() & sigmask(SIGINT));
	KUNIT_EXPECT_EQ(test, console_trygetc(), -1);
	KUNIT_EXPECT_EQ(test, n_tty_inq(&console_tty), 2); /* "x\n": ICRNL */
	tty_restore_foreground(session, pgrp);
	n_tty_flush_buffer(&console_tty);
	flush_signals(task);
	task->signal->flags = 0;
	console_intr_arm(armed);
}

/* The end of the session leader whose controlling tty the console is
 * hangs it up (Linux's tty_vhangup_session): a file opened as /dev/ttyS0
 * reads 0 and writes -EIO, a /dev/console file is untouched, the leader
 * gets SIGHUP and SIGCONT, and the tty has no session or group left. */
static void hangup_ends_a_tty_file_but_not_the_console(struct kunit *test)
{
	struct file *console = console_file_open(task);
	int session, pgrp;
	long fd;

	KUNIT_ASSERT_NOT_NULL(test, console);
	BUG_ON(copy_to_user(BUF, "/dev/ttyS0", sizeof("/dev/ttyS0")));
	/* O_NONBLOCK: were it not hung up, the read would be -EAGAIN. */
	fd = sys4(__NR_open, BUF, O_RDWR | O_NOCTTY | O_NONBLOCK, 0, 0);
	KUNIT_ASSERT_GE(test, fd, 0);
	/* Blocked, both stay pending to be seen (SIGCONT is otherwise
	 * ignored, SIGHUP fatal). */
	task->signals.blocked = sigmask(SIGHUP) | sigmask(SIGCONT);
	tty_set_foreground(task, &session, &pgrp);
	tty_vhangup_session(&console_tty);
	KUNIT_EXPECT_EQ(test, console_tty.session, 0);
	KUNIT_EXPECT_EQ(test, console_tty.pgrp, 0);
	KUNIT_EXPECT_EQ(test, pending_set(), sigmask(SIGHUP) | sigmask(SIGCONT));
	KUNIT_EXPECT_EQ(test, sys4(__NR_read, (unsigned long)fd, BUF + 64, 8, 0), 0);
	KUNIT_EXPECT_EQ(test, sys4(__NR_write, (unsigned long)fd, BUF, 1, 0), -EIO);
	KUNIT_EXPECT_EQ(test, sys4(__NR_ioctl, (unsigned long)fd, TCGETS, BUF + 64, 0), -EIO);
	KUNIT_EXPECT_EQ(test, sys4(__NR_ioctl, (unsigned long)fd, TIOCSPGRP, BUF + 64, 0), -ENOTTY);
	KUNIT_EXPECT_FALSE(test, tty_hung_up_p(console));
	KUNIT_EXPECT_TRUE(test, console->f_op == &console_fops);
	KUNIT_EXPECT_EQ(test, sys4(__NR_close, (unsigned long)fd, 0, 0, 0), 0);
	fput(console);
	tty_restore_foreground(session, pgrp);
	flush_signals(task);
	task->signals.blocked = 0;
}

static void rt_sigreturn_without_a_ring3_frame_is_einval(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sys4(__NR_rt_sigreturn, 0, 0, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, arch_user_sp(task), 0);
}

static struct kunit_case signal_cases[] = {
	KUNIT_CASE(rt_sigaction_checks_size_signal_and_pointers),
	KUNIT_CASE(ignoring_a_signal_drops_its_pending_instance),
	KUNIT_CASE(rt_sigprocmask_blocks_unblocks_and_never_blocks_kill),
	KUNIT_CASE(rt_sigpending_reports_the_blocked_pending_ones),
	KUNIT_CASE(sigaltstack_sets_reports_and_refuses),
	KUNIT_CASE(autodisarm_stack_is_saved_disarmed_and_restored),
	KUNIT_CASE(kill_tkill_tgkill_reach_only_the_one_process),
	KUNIT_CASE(synchronous_signals_come_first_then_the_lowest),
	KUNIT_CASE(blocked_stay_pending_and_ignored_are_skipped),
	KUNIT_CASE(default_actions_kill_with_the_signal),
	KUNIT_CASE(resethand_nodefer_and_the_handler_mask),
	KUNIT_CASE(blocked_or_ignored_fault_signals_kill),
	KUNIT_CASE(init_takes_only_the_signals_it_handles),
	KUNIT_CASE(ctrl_c_is_sigint_for_the_tty_foreground_group),
	KUNIT_CASE(hangup_ends_a_tty_file_but_not_the_console),
	KUNIT_CASE(rt_sigreturn_without_a_ring3_frame_is_einval),
	{},
};

static struct kunit_suite signal_suite = {
	.name = "signal",
	.init = signal_test_init,
	.exit = signal_test_exit,
	.test_cases = signal_cases,
};
kunit_test_suite(signal_suite);
