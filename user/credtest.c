/*
 * /bin/credtest: user and group ids and what they allow, checked from
 * ring 3 the same way on Linux and on Folium, started as root. Each check
 * runs in a child so the ids it changes die with it: set*uid and set*gid
 * by Linux's rules (saved ids, -1, CAP_SETUID), the capabilities
 * following the uids (a process that gives up uid 0 loses them, KEEP_CAPS
 * keeps the permitted set, an effective uid back at 0 regains them,
 * setfsuid drops the file-system set, exec gives root its bounding set
 * and anyone else none), supplementary groups, file permissions as the
 * file-system uid (and access(2) as the real one), kill, setpriority,
 * prlimit, sched_setaffinity and /proc/PID's maps and exe refused across
 * users, RLIMIT_NPROC per
 * user (root exempt; a set*uid past it fails the next execve), dumpable
 * and the parent-death signal. Prints "ok NAME" or "FAIL NAME: ..." a
 * line, then "credtest: N checks, all ok" (exit 0) or "credtest: K of N
 * checks FAILED" (exit 1). `credtest caps` prints this process's
 * permitted and effective sets as hex (the exec checks run it).
 * Example: after setresuid(1000, 1001, 1002), /proc/self/status says
 * "Uid:\t1000\t1001\t1002\t1001" and capget's sets are empty.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/fsuid.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#define NOBODY 65534
#define CAP_DAC_OVERRIDE 1
#define CAP_KILL 5

static char self[256] = "/bin/credtest";

static void cond(const char *name, int ok, const char *detail)
{
	check(name, ok, "%s", detail);
}

/* Run @fn in a child and count its verdict: its exit status is the
 * number of the first failed step (0: all passed). */
static void in_child(const char *name, int (*fn)(void))
{
	char detail[64];
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(fn());
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		cond(name, 0, "fork or wait failed");
		return;
	}
	if (WIFEXITED(status))
		snprintf(detail, sizeof(detail), "step %d failed", WEXITSTATUS(status));
	else
		snprintf(detail, sizeof(detail), "killed by signal %d", WTERMSIG(status));
	cond(name, WIFEXITED(status) && WEXITSTATUS(status) == 0, detail);
}

/* capget's permitted and effective sets (version 3: two words each). */
static int caps(uint64_t *permitted, uint64_t *effective)
{
	uint32_t hdr[2] = { 0x20080522, 0 }, data[6];

	if (syscall(SYS_capget, hdr, data))
		return -1;
	*effective = data[0] | (uint64_t)data[3] << 32;
	*permitted = data[1] | (uint64_t)data[4] << 32;
	return 0;
}

static int set_caps(uint64_t permitted, uint64_t effective)
{
	uint32_t hdr[2] = { 0x20080522, 0 };
	uint32_t data[6] = { (uint32_t)effective,	  (uint32_t)permitted,	       0,
			     (uint32_t)(effective >> 32), (uint32_t)(permitted >> 32), 0 };

	return (int)syscall(SYS_capset, hdr, data);
}

/* The line of /proc/self/status that starts with @key, without its
 * newline, in @buf. Return: 0, or -1 when there is none. */
static int status_line(const char *key, char *buf, size_t size)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[512];
	int ret = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key))) {
			line[strcspn(line, "\n")] = '\0';
			line[size - 1] = '\0';
			memcpy(buf, line, size);
			ret = 0;
			break;
		}
	fclose(f);
	return ret;
}

/* Run `credtest caps` and read the two sets it prints. Return: 0 or -1. */
static int exec_caps(uint64_t *permitted, uint64_t *effective)
{
	int fds[2], status;
	char buf[64] = "";
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 1);
		execl(self, "credtest", "caps", (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	if (read(fds[0], buf, sizeof(buf) - 1) <= 0)
		buf[0] = '\0';
	close(fds[0]);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	return sscanf(buf, "%lx %lx", (unsigned long *)permitted, (unsigned long *)effective) == 2
		       ? 0
		       : -1;
}

/* --- the checks, each in its own child ---------------------------------------- */

static int ids_start_as_root(void)
{
	char line[128], path[64], exe[256], parent_exe[256];
	uid_t r, e, s;
	gid_t rg, eg, sg;
	ssize_t n, m;

	if (getresuid(&r, &e, &s) || r || e || s)
		return 1;
	if (getresgid(&rg, &eg, &sg) || rg || eg || sg)
		return 2;
	if (getgroups(0, NULL) != 0)
		return 3;
	if (status_line("Uid:", line, sizeof(line)) || strcmp(line, "Uid:\t0\t0\t0\t0"))
		return 4;
	if (status_line("Groups:", line, sizeof(line)) || strcmp(line, "Groups:\t "))
		return 5;
	if (prctl(PR_GET_DUMPABLE) != 1)
		return 6;
	/* A forked child runs its parent's file. */
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)getppid());
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	m = readlink(path, parent_exe, sizeof(parent_exe) - 1);
	if (n <= 0 || n != m || memcmp(exe, parent_exe, (size_t)n))
		return 7;
	return 0;
}

static int setresuid_sets_three_and_drops_caps(void)
{
	uid_t r, e, s;
	uint64_t p, eff;
	char line[128];

	if (setresuid(1000, 1001, 1002))
		return 1;
	if (getresuid(&r, &e, &s) || r != 1000 || e != 1001 || s != 1002)
		return 2;
	if (status_line("Uid:", line, sizeof(line)) || strcmp(line, "Uid:\t1000\t1001\t1002\t1001"))
		return 3;
	if (caps(&p, &eff) || p || eff)
		return 4;
	if (setuid(0) != -1 || errno != EPERM)
		return 5;
	if (setresuid(-1, 1000, -1)) /* the real uid may become the effective one */
		return 6;
	if (setreuid(1002, -1) != -1 || errno != EPERM) /* the saved one may not become real */
		return 7;
	if (setuid(1002) || getuid() != 1000 || geteuid() != 1002) /* unprivileged: euid only */
		return 8;
	if (setgid(5) != -1 || errno != EPERM)
		return 9;
	return setuid(-1) != -1 || errno != EINVAL ? 10 : 0;
}

static int setuid_as_root_sets_all(void)
{
	uid_t r, e, s;

	gid_t rg, eg, sg;

	if (setgid(300) || getresgid(&rg, &eg, &sg) || rg != 300 || eg != 300 || sg != 300)
		return 1; /* CAP_SETGID: all four gids */
	if (setreuid(100, 200))
		return 2;
	if (getresuid(&r, &e, &s) || r != 100 || e != 200 || s != 200)
		return 3;		 /* the saved uid follows the effective one */
	if (prctl(PR_GET_DUMPABLE) != 0) /* new ids: not dumpable */
		return 4;
	if (setgid(0) != -1 || errno != EPERM) /* no root uid left: no CAP_SETGID */
		return 5;
	return 0;
}

static int effective_root_comes_and_goes(void)
{
	uint64_t p0, e0, p, e;

	if (caps(&p0, &e0) || !(e0 & (1ull << CAP_KILL)))
		return 1;
	if (setresuid(-1, 1000, -1)) /* seteuid(1000) */
		return 2;
	if (caps(&p, &e) || p != p0 || e)
		return 3;
	if (setresuid(-1, 0, -1)) /* back: the saved uid is 0 */
		return 4;
	if (caps(&p, &e) || p != p0 || e != p0)
		return 5;
	return 0;
}

static int keepcaps_keeps_the_permitted_set(void)
{
	uint64_t p0, e0, p, e;

	if (caps(&p0, &e0) || prctl(PR_SET_KEEPCAPS, 1) || prctl(PR_GET_KEEPCAPS) != 1)
		return 1;
	if (setresuid(1000, 1000, 1000))
		return 2;
	if (caps(&p, &e) || p != p0 || e)
		return 3;
	if (set_caps(p, 1ull << CAP_KILL)) /* raise one again: it is permitted */
		return 4;
	if (kill(1, 0)) /* CAP_KILL signals anyone */
		return 5;
	/* exec as a uid other than 0: no capabilities at all */
	if (exec_caps(&p, &e) || p || e)
		return 6;
	return 0;
}

static int setfsuid_drops_the_file_caps(void)
{
	uint64_t p, e;
	char line[128];

	if (setfsuid(1234) != 0 || setfsuid(-1) != 1234)
		return 1;
	if (status_line("Uid:", line, sizeof(line)) || strcmp(line, "Uid:\t0\t0\t0\t1234"))
		return 2;
	if (caps(&p, &e) || (e & (1ull << CAP_DAC_OVERRIDE)) || !(e & (1ull << CAP_KILL)))
		return 3;
	if (setfsuid(0) != 1234 || caps(&p, &e) || !(e & (1ull << CAP_DAC_OVERRIDE)))
		return 4;
	return 0;
}

static int exec_gives_root_its_bounding_set(void)
{
	uint64_t p0, e0, p, e;

	if (caps(&p0, &e0))
		return 1;
	if (set_caps(p0 & ~(1ull << CAP_KILL), e0 & ~(1ull << CAP_KILL)))
		return 2;
	if (caps(&p, &e) || (p & (1ull << CAP_KILL)))
		return 3;
	if (exec_caps(&p, &e) || p != p0 || e != p0)
		return 4;
	return 0;
}

static int groups_are_set_sorted(void)
{
	gid_t set[3] = { 30, 10, 20 }, got[8];
	char line[128];

	if (setgroups(3, set))
		return 1;
	if (getgroups(0, NULL) != 3 || getgroups(8, got) != 3)
		return 2;
	if (got[0] != 10 || got[1] != 20 || got[2] != 30)
		return 3;
	if (getgroups(2, got) != -1 || errno != EINVAL)
		return 4;
	if (status_line("Groups:", line, sizeof(line)) || strcmp(line, "Groups:\t10 20 30 "))
		return 5;
	if (syscall(SYS_setgroups, 65537, got) != -1 || errno != EINVAL)
		return 6;
	if (setresuid(NOBODY, NOBODY, NOBODY) || setgroups(0, NULL) != -1 || errno != EPERM)
		return 7;
	return 0;
}

static int files_are_checked_as_the_fsuid(void)
{
	int fd;

	/* Real uid nobody, effective root: open as root, access as nobody. */
	if (setresuid(NOBODY, 0, 0))
		return 1;
	fd = open("/proc/1/fd", O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return 2;
	close(fd);
	if (access("/proc/1/fd", R_OK) != -1 || errno != EACCES)
		return 3;
	if (syscall(SYS_faccessat2, AT_FDCWD, "/proc/1/fd", R_OK, AT_EACCESS))
		return 4;
	if (access("/etc/motd", R_OK))
		return 5;
	/* All nobody: a root-only directory is closed, a readable file open. */
	if (setresuid(NOBODY, NOBODY, NOBODY))
		return 6;
	if (open("/proc/1/fd", O_RDONLY | O_DIRECTORY) != -1 || errno != EACCES)
		return 7;
	if (opendir("/proc/1/fd/.") || errno != EACCES) /* no search either */
		return 8;
	fd = open("/etc/motd", O_RDONLY);
	if (fd < 0)
		return 9;
	close(fd);
	if (chdir("/proc/1/fd") != -1 || errno != EACCES)
		return 10;
	return 0;
}

static int other_users_processes_are_refused(void)
{
	pid_t parent = getppid(), kid;
	char path[64], buf[256];
	struct rlimit rl;
	cpu_set_t set;
	int status, fd;

	if (setresgid(NOBODY, NOBODY, NOBODY) || setresuid(NOBODY, NOBODY, NOBODY))
		return 1;
	if (kill(parent, 0) != -1 || errno != EPERM)
		return 2;
	if (kill(getpid(), 0) || kill(-1, 0)) /* -1: the refusals are not the answer */
		return 3;
	kid = fork();
	if (kid == 0) {
		pause();
		_exit(0);
	}
	if (kid < 0 || kill(kid, SIGKILL) || waitpid(kid, &status, 0) != kid)
		return 4;
	if (setpriority(PRIO_PROCESS, parent, 5) != -1 || errno != EPERM)
		return 5;
	if (setpriority(PRIO_PROCESS, 0, 5) || getpriority(PRIO_PROCESS, 0) != 5)
		return 6;
	if (setpriority(PRIO_PROCESS, 0, 0) != -1 || errno != EACCES) /* RLIMIT_NICE is 0 */
		return 7;
	if (prlimit(parent, RLIMIT_NOFILE, NULL, &rl) != -1 || errno != EPERM)
		return 8;
	if (prlimit(getpid(), RLIMIT_NOFILE, NULL, &rl))
		return 9;
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(parent, sizeof(set), &set) != -1 || errno != EPERM)
		return 10;
	if (sched_setaffinity(0, sizeof(set), &set))
		return 11;
	/* Another user's memory, links and environment are closed
	 * (ptrace_may_access), one's own open. */
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)parent);
	if (open(path, O_RDONLY) != -1 || errno != EACCES)
		return 12;
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)parent);
	if (readlink(path, buf, sizeof(buf)) != -1 || errno != EACCES)
		return 13;
	fd = open("/proc/self/maps", O_RDONLY);
	if (fd < 0 || readlink("/proc/self/exe", buf, sizeof(buf)) <= 0)
		return 14;
	close(fd);
	return 0;
}

/* Fork a child of the caller's uid that waits for the pipe @fds to be
 * closed by the caller. */
static pid_t fork_waiter(const int fds[2])
{
	pid_t pid = fork();
	char c;

	if (pid == 0) {
		close(fds[1]);
		while (read(fds[0], &c, 1) > 0)
			;
		_exit(0);
	}
	return pid;
}

static int nproc_counts_a_users_processes(void)
{
	struct rlimit rl = { 2, 2 };
	int fds[2], status;
	pid_t a, b;

	if (pipe(fds) || setrlimit(RLIMIT_NPROC, &rl))
		return 1;
	/* root is exempt: with the limit at 2 it forks freely */
	a = fork_waiter(fds);
	b = fork_waiter(fds);
	if (a < 0 || b < 0)
		return 2;
	kill(a, SIGKILL);
	kill(b, SIGKILL);
	waitpid(a, &status, 0);
	waitpid(b, &status, 0);
	if (setresuid(NOBODY, NOBODY, NOBODY))
		return 3;
	a = fork_waiter(fds); /* nobody's second process */
	if (a < 0)
		return 4;
	b = fork();
	if (b == 0)
		_exit(0);
	if (b != -1 || errno != EAGAIN)
		return 5; /* a third is over the limit */
	close(fds[1]);
	if (waitpid(a, &status, 0) != a)
		return 6;
	b = fork(); /* one left: room again */
	if (b == 0)
		_exit(0);
	if (b < 0 || waitpid(b, &status, 0) != b)
		return 7;
	return 0;
}

static int setuid_past_nproc_fails_the_exec(void)
{
	struct rlimit rl = { 1, 1 };
	int fds[2], ready[2], status;
	pid_t kids[2];
	char c;

	if (pipe(fds) || pipe(ready))
		return 1;
	for (int i = 0; i < 2; i++) {
		kids[i] = fork();
		if (kids[i] == 0) {
			close(fds[1]);
			if (setresuid(NOBODY, NOBODY, NOBODY))
				_exit(1);
			write(ready[1], "r", 1);
			while (read(fds[0], &c, 1) > 0)
				;
			_exit(0);
		}
		if (kids[i] < 0 || read(ready[0], &c, 1) != 1)
			return 2;
	}
	/* nobody has two processes; a third comes by setresuid, not fork */
	if (setrlimit(RLIMIT_NPROC, &rl) || setresuid(NOBODY, NOBODY, NOBODY))
		return 3;
	execl(self, "credtest", "caps", (char *)NULL);
	if (errno != EAGAIN)
		return 4;
	close(fds[1]);
	for (int i = 0; i < 2; i++)
		if (waitpid(kids[i], &status, 0) != kids[i])
			return 5;
	return 0;
}

static int death_fd;

static void on_parent_death(int sig)
{
	(void)sig;
	write(death_fd, "d", 1);
}

static int parent_death_signal_arrives(void)
{
	int fds[2], ready[2];
	struct pollfd pfd;
	pid_t middle;
	char c = 0;

	if (pipe(fds) || pipe(ready))
		return 1;
	middle = fork();
	if (middle == 0) {
		pid_t kid = fork();

		if (kid == 0) {
			sigset_t set, none;

			death_fd = fds[1];
			signal(SIGUSR1, on_parent_death);
			sigemptyset(&set);
			sigemptyset(&none);
			sigaddset(&set, SIGUSR1);
			sigprocmask(SIG_BLOCK, &set, NULL);
			if (prctl(PR_SET_PDEATHSIG, SIGUSR1))
				_exit(1);
			write(ready[1], "r", 1);
			sigsuspend(&none); /* the handler writes "d" */
			_exit(0);
		}
		read(ready[0], &c, 1);
		_exit(0); /* the grandchild's parent dies */
	}
	close(fds[1]);
	pfd = (struct pollfd){ .fd = fds[0], .events = POLLIN };
	if (middle < 0 || waitpid(middle, NULL, 0) != middle)
		return 2;
	if (poll(&pfd, 1, 10000) != 1 || read(fds[0], &c, 1) != 1 || c != 'd')
		return 3;
	/* A change of ids clears it (commit_creds). */
	if (prctl(PR_SET_PDEATHSIG, SIGUSR1) || setresuid(-1, 1000, -1))
		return 4;
	{
		int sig = -1;

		if (prctl(PR_GET_PDEATHSIG, &sig) || sig != 0)
			return 5;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argv[0][0] == '/')
		snprintf(self, sizeof(self), "%s", argv[0]);
	if (argc == 2 && !strcmp(argv[1], "caps")) {
		uint64_t p, e;

		if (caps(&p, &e))
			return 1;
		printf("%lx %lx\n", (unsigned long)p, (unsigned long)e);
		return 0;
	}
	if (argc != 1) {
		fprintf(stderr, "usage: credtest [caps]\n");
		return 2;
	}
	if (getuid() != 0) {
		printf("credtest: must start as root\n");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	in_child("ids start as root, dumpable, no groups, the parent's exe", ids_start_as_root);
	in_child("setresuid sets three uids and drops the capabilities",
		 setresuid_sets_three_and_drops_caps);
	in_child("setgid and setreuid as root", setuid_as_root_sets_all);
	in_child("an effective uid leaving and regaining 0", effective_root_comes_and_goes);
	in_child("PR_SET_KEEPCAPS keeps the permitted set; exec as non-root has none",
		 keepcaps_keeps_the_permitted_set);
	in_child("setfsuid drops and regains the file-system capabilities",
		 setfsuid_drops_the_file_caps);
	in_child("exec gives root its bounding set back", exec_gives_root_its_bounding_set);
	in_child("setgroups sorts; getgroups sizes; only with CAP_SETGID", groups_are_set_sorted);
	in_child("files are checked as the fsuid, access as the real uid",
		 files_are_checked_as_the_fsuid);
	in_child("kill, setpriority, prlimit, sched_setaffinity, /proc memory refuse other users",
		 other_users_processes_are_refused);
	in_child("RLIMIT_NPROC counts a user's processes, root exempt",
		 nproc_counts_a_users_processes);
	in_child("setresuid past RLIMIT_NPROC fails the next execve with EAGAIN",
		 setuid_past_nproc_fails_the_exec);
	in_child("PR_SET_PDEATHSIG arrives when the parent dies; new ids clear it",
		 parent_death_signal_arrives);
	return check_summary("credtest");
}
