/*
 * /bin/proctest: processes as Linux makes them, checked from ring 3 the
 * same way on Linux and on Folium: vfork, clone, posix_spawn and execve,
 * wait4 and waitid with their options and errors, SIGCHLD, orphans,
 * exit statuses, system calls a signal interrupts (restarted with
 * SA_RESTART, -EINTR without), kill of a group, rusage of children,
 * "#!" scripts and execveat, process groups and sessions (setpgid's
 * EACCES after exec, setsid), times, sigsuspend, and clone3's checks
 * and CLONE_CLEAR_SIGHAND.
 * Prints "ok NAME" or "FAIL NAME: got ..., want ..." a line, then
 * "proctest: N checks, all ok" (exit 0) or "proctest: K of N checks
 * FAILED" (exit 1). It runs itself as the child program: "proctest exit
 * N" exits with N, "proctest sleep" waits for a signal, "proctest
 * orphan FD" reports its parent's pid on FD once its first parent is
 * gone, "proctest pipe FD" writes 200000 bytes to FD, "proctest show..."
 * prints its argv and name (the interpreter of test scripts), "proctest
 * hold MIB" leaves an orphan holding MIB MiB behind, "proctest bomb"
 * forks until refused, then kills them all (kill -9 -1). Example: vfork,
 * execve("/bin/proctest", {"proctest", "exit", "3"}), then wait4 must
 * give WEXITSTATUS 3.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define BAD ((void *)1) /* unmapped: page 0 */

extern char **environ;

static const char *self; /* argv[0]: this program's path */
static void cond(const char *name, int ok, const char *want, long got, int err)
{
	check(name, ok, "got %ld errno %s, want %s", got, strerror(err), want);
}

/* Raw system calls, so no libc wrapper retries or hides an errno. */
static long sys_wait4(int pid, int *status, int options, struct rusage *ru)
{
	return syscall(SYS_wait4, pid, status, options, ru);
}

static pid_t spawn(char *const argv[])
{
	pid_t pid;
	int err = posix_spawn(&pid, self, NULL, NULL, argv, environ);

	if (err) {
		printf("FAIL posix_spawn: %s\n", strerror(err));
		exit(1);
	}
	return pid;
}

static volatile sig_atomic_t got_usr1;
static volatile siginfo_t chld_info;
static volatile sig_atomic_t got_chld;

static void on_usr1(int sig)
{
	(void)sig;
	got_usr1++;
}

static void on_chld(int sig, siginfo_t *info, void *uc)
{
	(void)sig;
	(void)uc;
	chld_info = *info;
	got_chld++;
}

static void set_handler(int sig, void (*fn)(int), int flags)
{
	struct sigaction sa = { .sa_handler = fn, .sa_flags = flags };

	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

/* vfork: the child runs on the parent's memory until it execs or exits,
 * and the parent sleeps until then. */
static void check_vfork(void)
{
	static volatile int shared;
	char *argv[] = { (char *)"proctest", (char *)"exit", (char *)"3", NULL };
	int status = -1;
	pid_t pid, me = getpid();

	shared = 0;
	pid = vfork();
	if (pid == 0) {
		shared = getppid() == me ? 42 : 1;
		_exit(7);
	}
	cond("vfork child ran first on the same memory", pid > 0 && shared == 42, "42", shared,
	     errno);
	cond("wait4 gives the vfork child's pid", sys_wait4(pid, &status, 0, NULL) == pid, "pid",
	     status, errno);
	cond("the vfork child exits with 7", WIFEXITED(status) && WEXITSTATUS(status) == 7, "0x700",
	     status, errno);

	pid = vfork();
	if (pid == 0) {
		execve(self, argv, environ);
		_exit(127);
	}
	status = -1;
	cond("vfork then execve: exit code 3",
	     sys_wait4(pid, &status, 0, NULL) == pid && WIFEXITED(status) &&
		     WEXITSTATUS(status) == 3,
	     "0x300", status, errno);
}

/* posix_spawn (musl: clone(CLONE_VM | CLONE_VFORK) on its own stack;
 * glibc: clone3, then clone where clone3 is not served). */
static void check_spawn(void)
{
	char *argv[] = { (char *)"proctest", (char *)"exit", (char *)"5", NULL };
	int status = -1;
	pid_t pid = spawn(argv);

	cond("posix_spawn then waitpid: exit code 5",
	     waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 5,
	     "0x500", status, errno);
}

/* execve's errors, seen from a vfork child (which then exits with them).
 * argv is an address, which may be a bad one. */
static int exec_errno(const char *path, uintptr_t argv)
{
	int status = -1;
	pid_t pid = vfork();

	if (pid == 0) {
		syscall(SYS_execve, path, (void *)argv, environ);
		_exit(errno);
	}
	sys_wait4(pid, &status, 0, NULL);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void check_execve_errors(void)
{
	static char big[32 * 4096 + 2];
	char *argv[] = { (char *)"x", NULL };
	char *bigv[] = { (char *)"x", big, NULL };
	int e;

	e = exec_errno("/no/such/program", (uintptr_t)argv);
	cond("execve of a missing file is ENOENT", e == ENOENT, "ENOENT", e, e);
	e = exec_errno("/", (uintptr_t)argv);
	cond("execve of a directory is EACCES", e == EACCES, "EACCES", e, e);
	e = exec_errno(self, (uintptr_t)BAD);
	cond("execve with a bad argv is EFAULT", e == EFAULT, "EFAULT", e, e);
	memset(big, 'a', sizeof(big) - 1);
	e = exec_errno(self, (uintptr_t)bigv);
	cond("execve with a string over MAX_ARG_STRLEN is E2BIG", e == E2BIG, "E2BIG", e, e);
}

static void check_wait_errors(void)
{
	long r;
	int e;

	r = sys_wait4(-1, NULL, WNOHANG, NULL), e = errno;
	cond("wait4 with no children is ECHILD", r == -1 && e == ECHILD, "-1 ECHILD", r, e);
	r = sys_wait4(-1, NULL, 0x100, NULL), e = errno;
	cond("wait4 with an unknown option is EINVAL", r == -1 && e == EINVAL, "-1 EINVAL", r, e);
	r = syscall(SYS_waitid, P_ALL, 0, NULL, 0, NULL), e = errno;
	cond("waitid without WEXITED etc. is EINVAL", r == -1 && e == EINVAL, "-1 EINVAL", r, e);
	r = syscall(SYS_waitid, P_PID, 0, NULL, WEXITED, NULL), e = errno;
	cond("waitid P_PID 0 is EINVAL", r == -1 && e == EINVAL, "-1 EINVAL", r, e);
	r = sys_wait4(123456, NULL, 0, NULL), e = errno;
	cond("wait4 for a pid that is not a child is ECHILD", r == -1 && e == ECHILD, "-1 ECHILD",
	     r, e);
}

/* A running child: WNOHANG finds nothing; SIGTERM kills it; waitid with
 * WNOWAIT leaves it for wait4; SIGCHLD says how it ended. */
static void check_signals_and_status(void)
{
	char *argv[] = { (char *)"proctest", (char *)"sleep", NULL };
	struct sigaction sa = { .sa_sigaction = on_chld, .sa_flags = SA_SIGINFO | SA_RESTART };
	siginfo_t info;
	int status = -1;
	long r;
	pid_t pid;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, NULL);
	got_chld = 0;
	pid = spawn(argv);
	r = sys_wait4(pid, &status, WNOHANG, NULL);
	cond("wait4 WNOHANG on a running child is 0", r == 0, "0", r, errno);
	cond("kill of the child", kill(pid, SIGTERM) == 0, "0", -1, errno);
	memset(&info, 0, sizeof(info));
	r = syscall(SYS_waitid, P_PID, pid, &info, WEXITED | WNOWAIT, NULL);
	cond("waitid WNOWAIT: CLD_KILLED by SIGTERM",
	     r == 0 && info.si_pid == pid && info.si_code == CLD_KILLED &&
		     info.si_status == SIGTERM && info.si_signo == SIGCHLD,
	     "si_code 2 status 15", info.si_code, errno);
	r = sys_wait4(pid, &status, 0, NULL);
	cond("wait4 after WNOWAIT still reaps it: WTERMSIG 15",
	     r == pid && WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM, "signalled 15", status,
	     errno);
	cond("SIGCHLD came with si_pid and CLD_KILLED",
	     got_chld == 1 && chld_info.si_pid == pid && chld_info.si_code == CLD_KILLED &&
		     chld_info.si_status == SIGTERM,
	     "1 SIGCHLD", got_chld, errno);

	char *ex[] = { (char *)"proctest", (char *)"exit", (char *)"9", NULL };
	got_chld = 0;
	pid = spawn(ex);
	memset(&info, 0, sizeof(info));
	r = syscall(SYS_waitid, P_ALL, 0, &info, WEXITED, NULL);
	cond("waitid P_ALL: CLD_EXITED status 9",
	     r == 0 && info.si_pid == pid && info.si_code == CLD_EXITED && info.si_status == 9,
	     "CLD_EXITED 9", info.si_status, errno);
	cond("SIGCHLD came with CLD_EXITED and status 9",
	     got_chld == 1 && chld_info.si_code == CLD_EXITED && chld_info.si_status == 9,
	     "CLD_EXITED 9", chld_info.si_status, errno);
	signal(SIGCHLD, SIG_DFL);
}

/* A signal handled while the parent sleeps in wait4: with SA_RESTART the
 * call starts again and reaps the child; without it, -1 EINTR. */
static void check_restart(void)
{
	char *argv[] = { (char *)"proctest", (char *)"usr1", NULL };
	int status = -1;
	long r;
	int e;
	pid_t pid;

	set_handler(SIGUSR1, on_usr1, SA_RESTART);
	got_usr1 = 0;
	pid = spawn(argv);
	r = sys_wait4(pid, &status, 0, NULL);
	cond("wait4 restarted after a SA_RESTART handler",
	     r == pid && got_usr1 == 1 && WIFEXITED(status) && WEXITSTATUS(status) == 0, "pid", r,
	     errno);

	set_handler(SIGUSR1, on_usr1, 0);
	got_usr1 = 0;
	pid = spawn(argv);
	r = sys_wait4(pid, &status, 0, NULL), e = errno;
	cond("wait4 is EINTR after a handler without SA_RESTART",
	     r == -1 && e == EINTR && got_usr1 == 1, "-1 EINTR", r, e);
	r = sys_wait4(pid, &status, 0, NULL);
	cond("then wait4 reaps it", r == pid, "pid", r, errno);
	signal(SIGUSR1, SIG_DFL);
}

/* With SIGCHLD ignored children are reaped at once: wait4 waits for
 * them all, then fails with ECHILD. */
static void check_sigchld_ignored(void)
{
	char *argv[] = { (char *)"proctest", (char *)"exit", (char *)"1", NULL };
	long r;
	int e;

	signal(SIGCHLD, SIG_IGN);
	spawn(argv);
	spawn(argv);
	r = sys_wait4(-1, NULL, 0, NULL), e = errno;
	cond("SIGCHLD ignored: wait4 ends in ECHILD", r == -1 && e == ECHILD, "-1 ECHILD", r, e);
	signal(SIGCHLD, SIG_DFL);
}

/* A child's child outlives it: it is handed to pid 1. */
static void check_orphan(void)
{
	char fdarg[16];
	char *argv[] = { (char *)"proctest", (char *)"orphan", fdarg, NULL };
	int fds[2], status = -1, ppid = -1;
	pid_t pid;

	if (pipe(fds)) {
		cond("pipe", 0, "0", -1, errno);
		return;
	}
	snprintf(fdarg, sizeof(fdarg), "%d", fds[1]);
	pid = spawn(argv);
	sys_wait4(pid, &status, 0, NULL);
	close(fds[1]);
	cond("the orphan's parent is pid 1",
	     read(fds[0], &ppid, sizeof(ppid)) == sizeof(ppid) && ppid == 1, "1", ppid, errno);
	close(fds[0]);
}

static volatile int clone_parent_tid, clone_child_tid, clone_seen;

static int clone_child(void *arg)
{
	(void)arg;
	clone_seen = clone_child_tid; /* written before the child ran */
	return 4;
}

/* clone itself, as posix_spawn uses it (the libc wrapper runs
 * clone_child on its own stack), with the tid words. */
static void check_clone_tids(void)
{
	static char stack[64 * 1024] __attribute__((aligned(16)));
	int status = -1;
	long pid;

	clone_parent_tid = clone_child_tid = clone_seen = 0;
	pid = clone(clone_child, stack + sizeof(stack),
		    CLONE_VM | CLONE_VFORK | CLONE_PARENT_SETTID | CLONE_CHILD_SETTID | SIGCHLD,
		    NULL, &clone_parent_tid, NULL, &clone_child_tid);
	cond("clone CLONE_PARENT_SETTID wrote the pid", pid > 0 && clone_parent_tid == pid, "pid",
	     clone_parent_tid, errno);
	cond("clone CLONE_CHILD_SETTID wrote it before the child ran", clone_seen == pid, "pid",
	     clone_seen, errno);
	cond("clone's child exit code 4",
	     sys_wait4((int)pid, &status, 0, NULL) == pid && WEXITSTATUS(status) == 4, "0x400",
	     status, errno);
	pid = syscall(SYS_clone, CLONE_SIGHAND | SIGCHLD, 0, NULL, NULL, 0);
	cond("clone CLONE_SIGHAND without CLONE_VM is EINVAL", pid == -1 && errno == EINVAL,
	     "-1 EINVAL", pid, errno);
}

/* A pipe between two processes: a read sleeps until the other writes,
 * a write bigger than the pipe sleeps until the other has read, and the
 * last writer's exit is end of file. */
static void check_pipe_between_processes(void)
{
	static char buf[256 * 1024];
	char fdarg[16];
	char *argv[] = { (char *)"proctest", (char *)"pipe", fdarg, NULL };
	int fds[2], status = -1;
	long n, total = 0;
	pid_t pid;

	if (pipe(fds)) {
		cond("pipe", 0, "0", -1, errno);
		return;
	}
	snprintf(fdarg, sizeof(fdarg), "%d", fds[1]);
	pid = spawn(argv);
	close(fds[1]);
	while ((n = read(fds[0], buf + total, sizeof(buf) - total)) > 0)
		total += n;
	cond("a read sleeps for the writer's 200000 bytes, then end of file",
	     n == 0 && total == 200000, "200000", total, errno);
	for (long i = 0; i < total; i++)
		if (buf[i] != (char)(i % 251)) {
			cond("the bytes come in order", 0, "i % 251", i, 0);
			break;
		}
	sys_wait4(pid, &status, 0, NULL);
	close(fds[0]);
}

/* Run @path with @argv, its stdout into a string. */
static void run_capture(const char *path, char *const argv[], char *out, size_t size)
{
	posix_spawn_file_actions_t fa;
	int fds[2], status;
	ssize_t n, len = 0;
	pid_t pid;

	out[0] = 0;
	if (pipe(fds))
		return;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	if (posix_spawn(&pid, path, &fa, NULL, argv, environ)) {
		close(fds[0]);
		close(fds[1]);
		return;
	}
	close(fds[1]);
	while ((n = read(fds[0], out + len, size - 1 - len)) > 0)
		len += n;
	out[len] = 0;
	close(fds[0]);
	waitpid(pid, &status, 0);
	posix_spawn_file_actions_destroy(&fa);
}

/* "#!" scripts (Linux's binfmt_script), from user/etc/proctest/ in the
 * initramfs (the root file system is read-only: no file is made here),
 * and execveat. */
#define SCRIPT_OUT "/bin/proctest|show  x y|/etc/proctest/script|a b|c|comm=script\n"

static void check_scripts(void)
{
	char *argv[] = { (char *)"script", (char *)"a b", (char *)"c", NULL };
	char *x[] = { (char *)"x", NULL };
	char out[512];
	int e;

	run_capture("/etc/proctest/script", argv, out, sizeof(out));
	cond("a script runs its interpreter with one argument, the path, argv[1..]",
	     !strcmp(out, SCRIPT_OUT), SCRIPT_OUT, (long)strlen(out), 0);
	if (strcmp(out, SCRIPT_OUT))
		printf("  got: %s", out);
	e = exec_errno("/etc/proctest/noexec", (uintptr_t)x);
	cond("a script without an execute bit is EACCES", e == EACCES, "EACCES", e, e);
	e = exec_errno("/etc/proctest/empty", (uintptr_t)x);
	cond("\"#!\" without an interpreter is ENOEXEC", e == ENOEXEC, "ENOEXEC", e, e);
	e = exec_errno("/etc/proctest/nointerp", (uintptr_t)x);
	cond("a missing interpreter is ENOENT", e == ENOENT, "ENOENT", e, e);
	e = exec_errno("/etc/proctest/loop", (uintptr_t)x);
	cond("a script that is its own interpreter is ELOOP", e == ELOOP, "ELOOP", e, e);

	int fd = open(self, O_RDONLY), status = -1;
	char *six[] = { (char *)"proctest", (char *)"exit", (char *)"6", NULL };
	pid_t pid = vfork();

	if (pid == 0) {
		syscall(SYS_execveat, fd, "", six, environ, AT_EMPTY_PATH);
		_exit(100 + errno);
	}
	sys_wait4(pid, &status, 0, NULL);
	cond("execveat(fd, \"\", AT_EMPTY_PATH) runs the file: exit 6",
	     WIFEXITED(status) && WEXITSTATUS(status) == 6, "0x600", status, 0);
	pid = vfork();
	if (pid == 0) {
		/* With AT_EMPTY_PATH, so "" is no -ENOENT on any Linux. */
		syscall(SYS_execveat, fd, "", six, environ, AT_EMPTY_PATH | 0x4);
		_exit(errno);
	}
	sys_wait4(pid, &status, 0, NULL);
	cond("execveat with an unknown flag is EINVAL", WEXITSTATUS(status) == EINVAL, "EINVAL",
	     WEXITSTATUS(status), 0);
	close(fd);
}

/* A child's CPU time and peak RSS become the parent's RUSAGE_CHILDREN. */
static void check_rusage(void)
{
	char *argv[] = { (char *)"proctest", (char *)"burn", NULL };
	struct rusage ru, all;
	int status = -1;
	pid_t pid = spawn(argv);
	long r = sys_wait4(pid, &status, 0, &ru);
	long us = ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec +
		  ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec;

	cond("wait4's rusage: the child ran at least 20 ms", r == pid && us >= 20000, ">= 20000 us",
	     us, errno);
	cond("wait4's rusage: maxrss above 4 MiB", ru.ru_maxrss >= 4096, ">= 4096 KiB",
	     ru.ru_maxrss, errno);
	getrusage(RUSAGE_CHILDREN, &all);
	cond("RUSAGE_CHILDREN counts it", all.ru_maxrss >= ru.ru_maxrss, ">= child's maxrss",
	     all.ru_maxrss, errno);
}

static void check_kill_group(void)
{
	long r;
	int e;

	cond("kill(0, 0): the caller's group", kill(0, 0) == 0, "0", -1, errno);
	r = kill(getpid(), 0);
	cond("kill(self, 0)", r == 0, "0", r, errno);
	r = kill(-99999, 0), e = errno;
	cond("kill of an empty group is ESRCH", r == -1 && e == ESRCH, "-1 ESRCH", r, e);
	r = kill(99999, 0), e = errno;
	cond("kill of no process is ESRCH", r == -1 && e == ESRCH, "-1 ESRCH", r, e);
}

/* A forked child's answers, as its exit code: 0 when all held. */
static int pgrp_child(pid_t parent_sid)
{
	if (getsid(0) != parent_sid || getpgrp() != getpgid(0))
		return 1;
	if (setsid() != getpid() || getsid(0) != getpid() || getpgrp() != getpid())
		return 2; /* not a group leader: a new session */
	if (setsid() != -1 || errno != EPERM)
		return 3; /* now it leads a group */
	if (setpgid(0, 0) != -1 || errno != EPERM)
		return 4; /* a session leader stays in its group */
	return 0;
}

static void check_process_groups(void)
{
	char *argv[] = { (char *)"proctest", (char *)"sleep", NULL };
	int status = -1;
	long r;
	int e;
	pid_t pid, sid = getsid(0);

	cond("getpgrp() is getpgid(0)", getpgrp() == getpgid(0), "equal", getpgrp(), errno);
	cond("getsid(0) is getsid(getpid())", getsid(getpid()) == sid, "equal", sid, errno);
	r = getpgid(99999), e = errno;
	cond("getpgid of no process is ESRCH", r == -1 && e == ESRCH, "-1 ESRCH", r, e);
	r = setpgid(0, -1), e = errno;
	cond("setpgid to a negative group is EINVAL", r == -1 && e == EINVAL, "-1 EINVAL", r, e);
	r = setpgid(99999, 0), e = errno;
	cond("setpgid of no child is ESRCH", r == -1 && e == ESRCH, "-1 ESRCH", r, e);
	pid = fork();
	if (pid == 0)
		_exit(pgrp_child(sid));
	sys_wait4(pid, &status, 0, NULL);
	cond("a child: setsid leads a new session and group, then EPERM",
	     WIFEXITED(status) && WEXITSTATUS(status) == 0, "exit code 0", status, 0);

	/* A child before and after its exec: the parent moves it into a group
	 * of its own first, then may not (EACCES). */
	pid = fork();
	if (pid == 0) {
		struct timespec ts = { 0, 50000000 };

		nanosleep(&ts, NULL);
		execv(self, argv);
		_exit(127);
	}
	r = setpgid(pid, pid);
	cond("setpgid of a child that has not exec'd", r == 0 && getpgid(pid) == pid, "0", r,
	     errno);
	r = setpgid(pid, 99999), e = errno;
	cond("setpgid into a group that does not exist is EPERM", r == -1 && e == EPERM, "-1 EPERM",
	     r, e);
	{
		struct timespec ts = { 0, 200000000 };

		nanosleep(&ts, NULL); /* it has exec'd proctest sleep by now */
	}
	r = setpgid(pid, pid), e = errno;
	cond("setpgid of a child that has exec'd is EACCES", r == -1 && e == EACCES, "-1 EACCES", r,
	     e);
	kill(pid, SIGKILL);
	sys_wait4(pid, &status, 0, NULL);
}

static void check_times_and_sigsuspend(void)
{
	char *argv[] = { (char *)"proctest", (char *)"burn", NULL };
	struct tms before, after;
	sigset_t usr1, old, wait_mask, now;
	clock_t t0, t1;
	int status;
	long r;
	int e;
	pid_t pid;

	t0 = times(&before);
	pid = spawn(argv);
	sys_wait4(pid, &status, 0, NULL);
	t1 = times(&after);
	cond("times: the clock moves on", t0 != (clock_t)-1 && t1 > t0, "> t0", t1 - t0, errno);
	cond("times: a waited-for child's 50 ms are in tms_cutime + tms_cstime",
	     after.tms_cutime + after.tms_cstime - before.tms_cutime - before.tms_cstime >= 2,
	     ">= 2 ticks", after.tms_cutime + after.tms_cstime, errno);

	/* sigsuspend: SIGUSR1 blocked, a child sends it, sigsuspend with an
	 * empty mask runs the handler and is EINTR; the block comes back. */
	set_handler(SIGUSR1, on_usr1, 0);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, &old);
	got_usr1 = 0;
	pid = fork();
	if (pid == 0) {
		kill(getppid(), SIGUSR1);
		_exit(0);
	}
	sigemptyset(&wait_mask);
	r = sigsuspend(&wait_mask), e = errno;
	cond("sigsuspend: the handler ran, then EINTR", r == -1 && e == EINTR && got_usr1,
	     "-1 EINTR", r, e);
	sigprocmask(SIG_SETMASK, NULL, &now);
	cond("sigsuspend: the caller's mask is back", sigismember(&now, SIGUSR1) == 1, "blocked", 0,
	     0);
	sys_wait4(pid, &status, 0, NULL);
	r = syscall(SYS_rt_sigsuspend, &wait_mask, 4), e = errno;
	cond("rt_sigsuspend with a bad sigsetsize is EINVAL", r == -1 && e == EINVAL, "-1 EINVAL",
	     r, e);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

#ifndef CLONE_CLEAR_SIGHAND
#define CLONE_CLEAR_SIGHAND 0x100000000ULL /* Linux 5.5, clone3 only */
#endif

/* clone3's struct, as Linux's uapi has it (88 bytes: VER2). */
struct clone3_args {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
	uint64_t set_tid, set_tid_size, cgroup;
};

static long sys_clone3(struct clone3_args *args, size_t size)
{
	return syscall(SYS_clone3, args, size);
}

static void check_clone3(void)
{
	struct clone3_args a = { .exit_signal = SIGCHLD };
	unsigned char big[96] = { 0 };
	struct sigaction sa;
	int status = -1;
	long r;
	int e;

	r = sys_clone3(&a, 8), e = errno;
	cond("clone3 smaller than its first version is EINVAL", r == -1 && e == EINVAL, "-1 EINVAL",
	     r, e);
	r = sys_clone3(&a, 8192), e = errno;
	cond("clone3 larger than a page is E2BIG", r == -1 && e == E2BIG, "-1 E2BIG", r, e);
	memcpy(big, &a, sizeof(a));
	big[90] = 1;
	r = sys_clone3((struct clone3_args *)big, sizeof(big)), e = errno;
	cond("clone3 with unknown nonzero bytes is E2BIG", r == -1 && e == E2BIG, "-1 E2BIG", r, e);
	a.exit_signal = 0x100;
	r = sys_clone3(&a, sizeof(a)), e = errno;
	cond("clone3 with an exit signal past CSIGNAL is EINVAL", r == -1 && e == EINVAL,
	     "-1 EINVAL", r, e);
	a.exit_signal = 65; /* within CSIGNAL, past the last signal (found by fuzz) */
	r = sys_clone3(&a, sizeof(a)), e = errno;
	if (r == 0)
		_exit(0);
	cond("clone3 with exit signal 65 is EINVAL", r == -1 && e == EINVAL, "-1 EINVAL", r, e);
	a.exit_signal = SIGCHLD;
	a.stack_size = 4096;
	r = sys_clone3(&a, sizeof(a)), e = errno;
	cond("clone3 with a stack size and no stack is EINVAL", r == -1 && e == EINVAL, "-1 EINVAL",
	     r, e);
	a.stack_size = 0;

	/* As fork, in its first version's size; with CLONE_CLEAR_SIGHAND a
	 * caught signal is SIG_DFL in the child and an ignored one stays so. */
	set_handler(SIGUSR1, on_usr1, 0);
	signal(SIGUSR2, SIG_IGN);
	a.flags = CLONE_CLEAR_SIGHAND;
	r = sys_clone3(&a, 64);
	if (r == 0) {
		struct sigaction u1, u2;

		sigaction(SIGUSR1, NULL, &u1);
		sigaction(SIGUSR2, NULL, &u2);
		_exit(u1.sa_handler == SIG_DFL && u2.sa_handler == SIG_IGN ? 7 : 1);
	}
	sys_wait4(r, &status, 0, NULL);
	cond("clone3(CLONE_CLEAR_SIGHAND): handlers reset, SIG_IGN kept, SIGCHLD at exit",
	     r > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 7, "exit code 7", status, errno);
	sigaction(SIGUSR1, NULL, &sa);
	cond("the parent keeps its handler", sa.sa_handler == on_usr1, "on_usr1", 0, 0);
	signal(SIGUSR2, SIG_DFL);
}

/* The child programs. */
static int child(int argc, char **argv)
{
	if (!strcmp(argv[1], "exit") && argc > 2)
		return atoi(argv[2]);
	if (!strcmp(argv[1], "sleep")) {
		pause();
		return 0;
	}
	if (!strcmp(argv[1], "usr1")) {
		/* Let the parent reach wait4 first. */
		struct timespec ts = { 0, 50 * 1000 * 1000 };

		nanosleep(&ts, NULL);
		kill(getppid(), SIGUSR1);
		nanosleep(&ts, NULL);
		return 0;
	}
	if (!strcmp(argv[1], "burn")) {
		/* 8 MiB touched, then 50 ms of CPU. */
		volatile char *p = malloc(8 << 20);
		struct timespec t0, t;

		for (int i = 0; p && i < (8 << 20); i += 4096)
			p[i] = 1;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
		do
			clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
		while ((t.tv_sec - t0.tv_sec) * 1000000000L + t.tv_nsec - t0.tv_nsec < 50000000L);
		return 0;
	}
	if (!strncmp(argv[1], "show", 4)) {
		/* Its argv, then its name (the script's, for a script). */
		char comm[17] = "";

		prctl(PR_GET_NAME, comm);
		for (int i = 0; i < argc; i++)
			printf("%s|", argv[i]);
		printf("comm=%s\n", comm);
		return 0;
	}
	if (!strcmp(argv[1], "bomb")) {
		/* Fork until the kernel says no, then kill -9 -1 and reap. */
		long n = 0, reaped = 0;
		pid_t pid;
		int e;

		while ((pid = fork()) > 0)
			n++;
		if (pid == 0) {
			for (;;)
				pause();
		}
		e = errno;
		kill(-1, SIGKILL);
		while (wait(NULL) > 0)
			reaped++;
		printf("proctest: bomb: %s after %s forks, all %s reaped\n", strerror(e),
		       n > 100 ? "over 100" : "few", reaped == n ? "children" : "NOT");
		return reaped == n && n > 100 ? 0 : 1;
	}
	if (!strcmp(argv[1], "hold") && argc > 2) {
		/* A child holds N MiB and sleeps for ever, orphaned once this
		 * process has seen its memory ready and exited (for the OOM
		 * killer's choice between processes). It ignores SIGHUP, as
		 * nohup would: this process may lead the session whose tty
		 * is hung up when it exits, and the hangup's SIGHUP for the
		 * foreground group would end the child too. */
		size_t len = (size_t)atoi(argv[2]) << 20;
		int fds[2];
		char c = 0;

		if (pipe(fds))
			return 1;
		if (fork() == 0) {
			char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			signal(SIGHUP, SIG_IGN);
			if (p == MAP_FAILED)
				_exit(1);
			memset(p, 1, len);
			write(fds[1], &c, 1);
			for (;;)
				pause();
		}
		return read(fds[0], &c, 1) == 1 ? 0 : 1;
	}
	if (!strcmp(argv[1], "pipe") && argc > 2) {
		/* One write of 200000 bytes: far more than the pipe holds. */
		static char out[200000];
		struct timespec ts = { 0, 20 * 1000 * 1000 };

		for (int i = 0; i < (int)sizeof(out); i++)
			out[i] = (char)(i % 251);
		nanosleep(&ts, NULL); /* the reader sleeps first */
		return write(atoi(argv[2]), out, sizeof(out)) == sizeof(out) ? 0 : 1;
	}
	if (!strcmp(argv[1], "orphan") && argc > 2) {
		/* The grandchild waits until its parent (this process) is gone,
		 * then writes who its parent is. */
		char *gargv[] = { (char *)"proctest", (char *)"orphan2", argv[2], NULL };
		spawn(gargv);
		return 0;
	}
	if (!strcmp(argv[1], "orphan2") && argc > 2) {
		pid_t first = getppid(), now;
		int fd = atoi(argv[2]);
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		for (int i = 0; i < 500 && (now = getppid()) == first; i++)
			nanosleep(&ts, NULL);
		now = getppid();
		write(fd, &now, sizeof(now));
		return 0;
	}
	fprintf(stderr, "usage: proctest [exit N | sleep | usr1 | burn | hold MIB | pipe FD | "
			"orphan FD | show...]\n");
	return 2;
}

int main(int argc, char **argv)
{
	self = argv[0][0] == '/' ? argv[0] : "/bin/proctest";
	if (argc > 1)
		return child(argc, argv);
	setvbuf(stdout, NULL, _IONBF, 0);
	check_vfork();
	check_spawn();
	check_execve_errors();
	check_wait_errors();
	check_signals_and_status();
	check_restart();
	check_sigchld_ignored();
	check_orphan();
	check_pipe_between_processes();
	check_clone_tids();
	check_scripts();
	check_rusage();
	check_kill_group();
	check_process_groups();
	check_times_and_sigsuspend();
	check_clone3();
	return check_summary("proctest");
}
