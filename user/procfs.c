/*
 * /bin/procfs: /proc as Linux shows processes and the CPU, checked from
 * ring 3 the same way on Linux and on Folium, as ps, top, pgrep, pidof,
 * free and dmesg read it. A child exec'd as "procfs child a b '' c" with
 * its own environment waits on a pipe; its /proc/PID files must say so:
 * stat's 52 fields (pid, (comm), state S, ppid, pgrp, session, rss),
 * status, statm, cmdline and environ with their NULs, maps, fd/ links
 * ("pipe:[N]", modes by how each fd was opened), exe, cwd, root and the
 * files' modes. Once it is killed it is a zombie (Z), and once reaped its
 * directory is gone from /proc and a file opened before reads ESRCH.
 * Then /proc/self is getpid(), /proc/stat's idle grows by about 100
 * ticks across a 1 s sleep and hardly across 0.5 s of spinning (whose
 * utime shows in /proc/self/stat), ctxt and processes grow across a
 * fork, /proc/vmstat's pgfault grows by the pages a program touches,
 * loadavg and uptime have Linux's format, and syslog(2) gives the
 * log ("<6>[...] text" lines) with do_syslog's errors.
 * Prints "ok NAME" or "FAIL NAME: ..." a line, then "procfs: N checks,
 * all ok" (exit 0) or "procfs: K of N checks FAILED" (exit 1).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define BAD ((void *)1)	  /* unmapped: page 0 */
#define CHILD_READY_FD 20 /* the child writes a byte here once exec'd */
#define CHILD_WAIT_FD 21  /* and then reads here until killed */

static const char *self; /* argv[0]: this program's path */
/* The whole file at path into buf (NUL-terminated). Return: bytes, or -errno. */
static long read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	long n, total = 0;

	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf + total, size - 1 - total)) > 0)
		total += n;
	close(fd);
	if (n < 0)
		return -errno;
	buf[total] = '\0';
	return total;
}

static long read_pidfile(int pid, const char *name, char *buf, size_t size)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/%s", pid, name);
	return read_file(path, buf, size);
}

/* readlink, NUL-terminated. Return: its length or -errno. */
static long link_of(const char *path, char *buf, size_t size)
{
	long n = readlink(path, buf, size - 1);

	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return n;
}

/* The fields of a stat line: f[1] the pid, f[2] the comm (without its
 * parentheses, in comm), f[3] the state letter's code, f[4..52] numbers.
 * Return: the number of fields. */
static int parse_stat(const char *line, long long f[53], char *comm, size_t size)
{
	const char *open = strchr(line, '('), *close = strrchr(line, ')');
	const char *p;
	int n = 2;

	if (!open || !close || close < open || (size_t)(close - open - 1) >= size)
		return 0;
	f[1] = atoll(line);
	memcpy(comm, open + 1, close - open - 1);
	comm[close - open - 1] = '\0';
	p = close + 1;
	while (*p == ' ' && n < 52) {
		char *end;

		p++;
		n++;
		if (n == 3) {
			f[3] = *p++;
			continue;
		}
		f[n] = strtoll(p, &end, 10);
		if (end == p)
			return 0;
		p = end;
	}
	return *p == '\n' ? n : 0;
}

/* The cpu line of /proc/stat: user nice system idle ... */
static int read_cpu_line(long long v[10])
{
	char buf[4096];

	if (read_file("/proc/stat", buf, sizeof(buf)) <= 0)
		return 0;
	return sscanf(buf, "cpu  %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld", &v[0], &v[1],
		      &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]);
}

/* A "key N" line of /proc/stat, or -1. */
/* KEY's value in @path's "KEY VALUE" lines (/proc/stat, /proc/vmstat),
 * or -1. */
static long long key_in(const char *path, const char *key)
{
	static char buf[16384];
	char *p;
	size_t n = strlen(key);

	if (read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	for (p = buf; p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, key, n) && p[n] == ' ')
			return atoll(p + n + 1);
	return -1;
}

static long long stat_key(const char *key)
{
	return key_in("/proc/stat", key);
}

/* Does directory path list name (readdir, as ps and pidof walk /proc)? */
static int dir_lists(const char *path, const char *name)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int found = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		found += !strcmp(e->d_name, name);
	closedir(d);
	return found;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* "procfs child ...": tell the parent, then wait on the pipe. */
static int child(void)
{
	char c = 'r';

	if (write(CHILD_READY_FD, &c, 1) != 1)
		return 2;
	read(CHILD_WAIT_FD, &c, 1);
	return 0;
}

/* Start the child; *ready_fd and *hold_fd are the parent's ends. */
static pid_t start_child(int *ready_rd, int *wait_wr)
{
	char *argv[] = { (char *)self, "child", "a b", "", "c", NULL };
	char *envp[] = { "PROCFS=1", "X=y", NULL };
	int ready[2], hold[2];
	pid_t pid;
	char c;

	if (pipe2(ready, O_CLOEXEC) || pipe2(hold, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(ready[1], CHILD_READY_FD);
		dup2(hold[0], CHILD_WAIT_FD);
		execve(self, argv, envp);
		_exit(127);
	}
	close(ready[1]);
	close(hold[0]);
	*ready_rd = ready[0];
	*wait_wr = hold[1];
	if (pid < 0 || read(ready[0], &c, 1) != 1)
		return -1;
	return pid;
}

static void check_child_stat(pid_t pid, const char *comm_want)
{
	char buf[4096], comm[64];
	long long f[53] = { 0 }, me[53] = { 0 };
	char mycomm[64];
	int n;

	check("child stat reads", read_pidfile(pid, "stat", buf, sizeof(buf)) > 0, "%s",
	      strerror(errno));
	n = parse_stat(buf, f, comm, sizeof(comm));
	check("child stat has 52 fields", n == 52, "got %d in %s", n, buf);
	check("child stat pid", f[1] == pid, "got %lld want %d", f[1], pid);
	check("child stat comm", !strcmp(comm, comm_want), "got '%s' want '%s'", comm, comm_want);
	check("child stat state S (waits on a pipe)", f[3] == 'S', "got %c", (char)f[3]);
	check("child stat ppid", f[4] == getpid(), "got %lld want %d", f[4], getpid());
	check("child stat pgrp and session", f[5] == getpgrp() && f[6] == getsid(0),
	      "got %lld %lld want %d %d", f[5], f[6], getpgrp(), getsid(0));
	check("child stat tty_nr 0, tpgid -1", f[7] == 0 && f[8] == -1, "got %lld %lld", f[7],
	      f[8]);
	check("child stat priority 20 nice 0 threads 1", f[18] == 20 && f[19] == 0 && f[20] == 1,
	      "got %lld %lld %lld", f[18], f[19], f[20]);
	/* Linux 6.2+ reads rss from per-CPU counters without folding them
	 * (percpu_counter_read_positive): a small process may show 0. */
	check("child stat vsize and rss", f[23] > 0 && f[24] >= 0 && f[23] % 4096 == 0,
	      "got %lld %lld", f[23], f[24]);
	check("child stat exit_signal SIGCHLD", f[38] == SIGCHLD, "got %lld", f[38]);
	check("child stat wchan 1 (sleeping)", f[35] == 1, "got %lld", f[35]);
	check("child stat arg and env ranges",
	      f[48] > 0 && f[49] - f[48] == (long long)strlen(self) + 14 && f[50] == f[49] &&
		      f[51] - f[50] == 13,
	      "got %lld %lld %lld %lld", f[48], f[49], f[50], f[51]);
	read_file("/proc/self/stat", buf, sizeof(buf));
	parse_stat(buf, me, mycomm, sizeof(mycomm));
	check("child started after its parent", f[22] >= me[22], "got %lld < %lld", f[22], me[22]);
	long long m[7] = { 0 };
	int got = read_pidfile(pid, "statm", buf, sizeof(buf)) > 0
			  ? sscanf(buf, "%lld %lld %lld %lld %lld %lld %lld", &m[0], &m[1], &m[2],
				   &m[3], &m[4], &m[5], &m[6])
			  : 0;

	/* statm sums the per-CPU counters (get_mm_counter_sum) where stat
	 * does not: its resident is not compared with stat's rss. */
	check("child statm: 7 fields, size is stat's vsize, resident within it",
	      got == 7 && m[0] * 4096 == f[23] && m[1] > 0 && m[1] <= m[0], "got %d: %s", got, buf);
}

static void check_child_status(pid_t pid, const char *comm_want)
{
	char buf[4096], want[128];

	check("child status reads", read_pidfile(pid, "status", buf, sizeof(buf)) > 0, "%s",
	      strerror(errno));
	snprintf(want, sizeof(want), "Name:\t%s\n", comm_want);
	check("child status Name", !strncmp(buf, want, strlen(want)), "got %.40s", buf);
	check("child status State", strstr(buf, "\nState:\tS (sleeping)\n") != NULL, "in %.200s",
	      buf);
	snprintf(want, sizeof(want), "\nPid:\t%d\nPPid:\t%d\n", pid, getpid());
	check("child status Pid and PPid", strstr(buf, want) != NULL, "want %s", want);
	check("child status VmRSS and Threads",
	      strstr(buf, "\nVmRSS:\t") && strstr(buf, "\nThreads:\t1\n"), "in %.300s", buf);
	read_pidfile(pid, "comm", buf, sizeof(buf));
	snprintf(want, sizeof(want), "%s\n", comm_want);
	check("child comm", !strcmp(buf, want), "got %s", buf);
	snprintf(want, sizeof(want), "/proc/%d/comm", pid);
	int fd = open(want, O_WRONLY);
	errno = 0;
	check("another process's comm is not written (EINVAL)",
	      fd >= 0 && write(fd, "x", 1) < 0 && errno == EINVAL, "errno %s", strerror(errno));
	if (fd >= 0)
		close(fd);
}

/* /proc/self/comm renames the caller, cut to 15 bytes; stat shows it. */
static void check_comm_write(void)
{
	char buf[4096], old[32], comm[64];
	long long f[53] = { 0 };
	int fd = open("/proc/self/comm", O_WRONLY);
	long n = fd >= 0 ? write(fd, "0123456789abcdefXYZ", 19) : -1;

	check("/proc/self/comm takes a write of 19 bytes", n == 19, "got %ld errno %s", n,
	      strerror(errno));
	if (fd >= 0)
		close(fd);
	read_file("/proc/self/comm", buf, sizeof(buf));
	check("comm is its first 15 bytes", !strcmp(buf, "0123456789abcde\n"), "got %s", buf);
	read_file("/proc/self/stat", buf, sizeof(buf));
	parse_stat(buf, f, comm, sizeof(comm));
	check("stat shows the new comm", !strcmp(comm, "0123456789abcde"), "got %s", comm);
	snprintf(old, sizeof(old), "%.15s", strrchr(self, '/') ? strrchr(self, '/') + 1 : self);
	fd = open("/proc/self/comm", O_WRONLY);
	if (fd >= 0) {
		write(fd, old, strlen(old));
		close(fd);
	}
	read_file("/proc/self/comm", buf, sizeof(buf));
	check("comm renamed back", !strncmp(buf, old, strlen(old)), "got %s", buf);
}

static void check_child_strings(pid_t pid)
{
	static const char cmd_tail[] = "child\0a b\0\0c\0";
	static const char env[] = "PROCFS=1\0X=y\0";
	char buf[4096];
	long n = read_pidfile(pid, "cmdline", buf, sizeof(buf));
	size_t self_len = strlen(self) + 1;

	check("child cmdline is argv with NULs",
	      n == (long)(self_len + sizeof(cmd_tail) - 1) && !strcmp(buf, self) &&
		      !memcmp(buf + self_len, cmd_tail, sizeof(cmd_tail) - 1),
	      "got %ld bytes", n);
	n = read_pidfile(pid, "environ", buf, sizeof(buf));
	check("child environ is envp with NULs",
	      n == (long)sizeof(env) - 1 && !memcmp(buf, env, sizeof(env) - 1), "got %ld bytes", n);
	n = read_pidfile(pid, "maps", buf, sizeof(buf));
	unsigned long lo, hi, off;
	char perms[8];
	check("child maps lines",
	      n > 0 && sscanf(buf, "%lx-%lx %4s %lx", &lo, &hi, perms, &off) == 4 && lo < hi &&
		      strstr(buf, "[stack]\n") && strstr(buf, " r-xp "),
	      "got %.200s", buf);
}

static void check_child_links(pid_t pid)
{
	char path[64], buf[256], want[256];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	check("child fd/ lists 0 1 2 and the pipes",
	      dir_lists(path, "0") == 1 && dir_lists(path, "2") == 1 &&
		      dir_lists(path, "20") == 1 && dir_lists(path, "21") == 1 &&
		      dir_lists(path, "3") == 0,
	      "in %s", path);
	check("child fd/ is dr-x------", !stat(path, &st) && (st.st_mode & 07777) == 0500,
	      "mode %o", st.st_mode);
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", pid, CHILD_WAIT_FD);
	check("child fd link to a pipe",
	      link_of(path, buf, sizeof(buf)) > 0 && !strncmp(buf, "pipe:[", 6), "got %s", buf);
	check("child fd link mode of a read end",
	      !lstat(path, &st) && S_ISLNK(st.st_mode) && (st.st_mode & 0777) == 0500, "mode %o",
	      st.st_mode);
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", pid, CHILD_READY_FD);
	check("child fd link mode of a write end", !lstat(path, &st) && (st.st_mode & 0777) == 0300,
	      "mode %o", st.st_mode);
	snprintf(path, sizeof(path), "/proc/%d/fd/0", pid);
	check("child fd 0 is the console device",
	      link_of(path, buf, sizeof(buf)) > 0 && !strncmp(buf, "/dev/", 5), "got %s", buf);
	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	link_of("/proc/self/exe", want, sizeof(want));
	check("child exe is the program", link_of(path, buf, sizeof(buf)) > 0 && !strcmp(buf, want),
	      "got %s want %s", buf, want);
	snprintf(path, sizeof(path), "/proc/%d/cwd", pid);
	getcwd(want, sizeof(want));
	check("child cwd", link_of(path, buf, sizeof(buf)) > 0 && !strcmp(buf, want),
	      "got %s want %s", buf, want);
	snprintf(path, sizeof(path), "/proc/%d/root", pid);
	check("child root", link_of(path, buf, sizeof(buf)) > 0 && !strcmp(buf, "/"), "got %s",
	      buf);
}

static mode_t mode_of(pid_t pid, const char *name)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d/%s", pid, name);
	return stat(path, &st) ? (mode_t)-1 : st.st_mode & 07777;
}

static void check_child_modes(pid_t pid)
{
	char name[16];

	check("environ and pagemap are 0400",
	      mode_of(pid, "environ") == 0400 && mode_of(pid, "pagemap") == 0400, "got %o %o",
	      mode_of(pid, "environ"), mode_of(pid, "pagemap"));
	check("comm is 0644", mode_of(pid, "comm") == 0644, "got %o", mode_of(pid, "comm"));
	check("stat, statm, status, maps are 0444",
	      mode_of(pid, "stat") == 0444 && mode_of(pid, "statm") == 0444 &&
		      mode_of(pid, "status") == 0444 && mode_of(pid, "maps") == 0444,
	      "got %o", mode_of(pid, "stat"));
	check("/proc/PID is dr-xr-xr-x", mode_of(pid, "") == 0555, "got %o", mode_of(pid, ""));
	snprintf(name, sizeof(name), "%d", pid);
	check("/proc lists the child", dir_lists("/proc", name) == 1, "not in /proc");
}

/* Kill the child: a zombie until reaped, then gone; a file opened
 * before reads ESRCH. */
static void check_child_death(pid_t pid)
{
	char buf[4096], comm[64], name[16], path[64];
	long long f[53] = { 0 };
	int status, fd;
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY);
	kill(pid, SIGKILL);
	for (int i = 0; i < 200; i++) {
		if (read_pidfile(pid, "stat", buf, sizeof(buf)) > 0 &&
		    parse_stat(buf, f, comm, sizeof(comm)) && f[3] == 'Z')
			break;
		usleep(10000);
	}
	check("killed child is a zombie (Z)", f[3] == 'Z', "state %c", (char)f[3]);
	check("zombie's vsize and rss are 0", f[23] == 0 && f[24] == 0, "got %lld %lld", f[23],
	      f[24]);
	check("reaped", waitpid(pid, &status, 0) == pid && WIFSIGNALED(status), "status %x",
	      status);
	snprintf(name, sizeof(name), "%d", pid);
	check("reaped child left /proc's listing", dir_lists("/proc", name) == 0, "still listed");
	check("reaped child's /proc/PID is gone", stat(path, &st) < 0 && errno == ENOENT,
	      "errno %s", strerror(errno));
	errno = 0;
	check("stat opened before reads ESRCH",
	      fd >= 0 && pread(fd, buf, sizeof(buf), 0) < 0 && errno == ESRCH, "errno %s",
	      strerror(errno));
	if (fd >= 0)
		close(fd);
}

static void check_child(void)
{
	const char *base = strrchr(self, '/') ? strrchr(self, '/') + 1 : self;
	char comm[16];
	int ready, hold;
	pid_t pid = start_child(&ready, &hold);

	snprintf(comm, sizeof(comm), "%.15s", base);
	check("child started", pid > 0, "errno %s", strerror(errno));
	if (pid <= 0)
		return;
	for (int i = 0; i < 200; i++) { /* until it sleeps in its read */
		char buf[4096], c[64];
		long long f[53] = { 0 };

		if (read_pidfile(pid, "stat", buf, sizeof(buf)) > 0 &&
		    parse_stat(buf, f, c, sizeof(c)) && f[3] == 'S')
			break;
		usleep(10000);
	}
	check_child_stat(pid, comm);
	check_child_status(pid, comm);
	check_child_strings(pid);
	check_child_links(pid);
	check_child_modes(pid);
	check_child_death(pid);
	close(ready);
	close(hold);
}

/* /proc/self, and a walk of /proc as pidof does finds this program. */
static void check_self(void)
{
	char buf[4096], want[16], comm[64], path[64];
	long long f[53] = { 0 };
	int found = 0;
	DIR *d;
	struct dirent *e;

	snprintf(want, sizeof(want), "%d", getpid());
	check("/proc/self is getpid()",
	      link_of("/proc/self", buf, sizeof(buf)) > 0 && !strcmp(buf, want), "got %s want %s",
	      buf, want);
	read_file("/proc/self/stat", buf, sizeof(buf));
	parse_stat(buf, f, comm, sizeof(comm));
	check("/proc/self/stat is mine, running",
	      f[1] == getpid() && f[3] == 'R' && f[4] == getppid(), "got %lld %c %lld", f[1],
	      (char)f[3], f[4]);
	d = opendir("/proc");
	while (d && (e = readdir(d))) {
		long long g[53] = { 0 };
		char c[64];

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%.20s/stat", e->d_name);
		if (read_file(path, buf, sizeof(buf)) > 0 &&
		    parse_stat(buf, g, c, sizeof(c)) == 52 && g[1] == getpid() && !strcmp(c, comm))
			found++;
	}
	if (d)
		closedir(d);
	check("a walk of /proc finds this program by comm", found == 1, "found %d", found);
	int dfd = open("/proc/self/fd", O_RDONLY | O_DIRECTORY);
	char link[64], cwd[256];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", dfd);
	snprintf(want, sizeof(want), "/proc/%d/fd", getpid());
	check("an fd on /proc/self/fd links to /proc/PID/fd",
	      dfd >= 0 && link_of(path, link, sizeof(link)) > 0 && !strcmp(link, want), "got %s",
	      link);
	close(dfd);
	getcwd(cwd, sizeof(cwd));
	snprintf(want, sizeof(want), "/proc/%d", getpid());
	check("getcwd in /proc/self is /proc/PID",
	      !chdir("/proc/self") && getcwd(link, sizeof(link)) && !strcmp(link, want), "got %s",
	      link);
	chdir(cwd);
}

/* /proc/stat: idle time is real, CPU time is charged, counters count. */
static void check_proc_stat(void)
{
	long long a[10], b[10], f0[53] = { 0 }, f1[53] = { 0 };
	long long ctxt, forks, btime;
	char buf[4096], comm[64];
	double up = 0;
	volatile unsigned long spin = 0;
	double t;
	int status;
	pid_t pid;

	check("/proc/stat cpu line has 10 columns", read_cpu_line(a) == 10, "%s", "short");
	sleep(1);
	read_cpu_line(b);
	check("idle grows by about 100 ticks across sleep(1)",
	      b[3] - a[3] >= 60 && b[3] - a[3] <= 130, "grew %lld", b[3] - a[3]);
	read_file("/proc/self/stat", buf, sizeof(buf));
	parse_stat(buf, f0, comm, sizeof(comm));
	read_cpu_line(a);
	for (t = now(); now() - t < 0.5;)
		spin++;
	read_cpu_line(b);
	read_file("/proc/self/stat", buf, sizeof(buf));
	parse_stat(buf, f1, comm, sizeof(comm));
	check("idle hardly grows while spinning 0.5 s", b[3] - a[3] <= 15, "grew %lld",
	      b[3] - a[3]);
	/* /proc/stat's user and system are sampled at the tick (on Linux too),
	 * and a busy host loses some of a TCG guest's ticks: half is plenty. */
	check("user+system grow while spinning", (b[0] + b[1] + b[2]) - (a[0] + a[1] + a[2]) >= 25,
	      "grew %lld", (b[0] + b[1] + b[2]) - (a[0] + a[1] + a[2]));
	/* A task's own times add up to its exact runtime (cputime_adjust). */
	check("my utime+stime grow by the spin", (f1[14] + f1[15]) - (f0[14] + f0[15]) >= 40,
	      "grew %lld", (f1[14] + f1[15]) - (f0[14] + f0[15]));
	ctxt = stat_key("ctxt");
	forks = stat_key("processes");
	pid = fork();
	if (pid == 0)
		_exit(0);
	waitpid(pid, &status, 0);
	check("processes grows across a fork", stat_key("processes") > forks, "was %lld", forks);
	check("ctxt grows across a fork and wait", stat_key("ctxt") > ctxt, "was %lld", ctxt);
	btime = stat_key("btime");
	read_file("/proc/uptime", buf, sizeof(buf));
	sscanf(buf, "%lf", &up);
	check("btime is now - uptime", llabs(btime + (long long)up - (long long)time(NULL)) <= 2,
	      "btime %lld", btime);
	check("procs_running and intr", stat_key("procs_running") >= 1 && stat_key("intr") > 0,
	      "got %lld", stat_key("procs_running"));
}

/* /proc/vmstat's pgfault counts faults (Linux: mm_account_fault): 16
 * new pages touched are at least 16 more; pgmajfault is there too. */
static void check_vmstat_faults(void)
{
	long long before = key_in("/proc/vmstat", "pgfault");
	char *p = mmap(NULL, 16 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		check("mmap for the fault count", 0, "errno %d", errno);
		return;
	}
	for (int i = 0; i < 16; i++)
		p[i * 4096] = 1;
	check("/proc/vmstat pgfault grows by the 16 pages touched",
	      before >= 0 && key_in("/proc/vmstat", "pgfault") - before >= 16, "from %lld to %lld",
	      before, key_in("/proc/vmstat", "pgfault"));
	check("/proc/vmstat has pgmajfault", key_in("/proc/vmstat", "pgmajfault") >= 0, "%s",
	      "missing");
	munmap(p, 16 * 4096);
}

static void check_loadavg_uptime(void)
{
	char buf[256], tail;
	int l[6], run, total, last, n;
	double upt, idle;

	read_file("/proc/loadavg", buf, sizeof(buf));
	n = sscanf(buf, "%d.%2d %d.%2d %d.%2d %d/%d %d%c", &l[0], &l[1], &l[2], &l[3], &l[4], &l[5],
		   &run, &total, &last, &tail);
	check("loadavg format", n == 10 && tail == '\n' && run >= 1 && total >= run && last > 0,
	      "got %s", buf);
	read_file("/proc/uptime", buf, sizeof(buf));
	check("uptime format",
	      sscanf(buf, "%lf %lf", &upt, &idle) == 2 && upt > 0 && idle >= 0 &&
		      strchr(buf, '.') && buf[strlen(buf) - 1] == '\n',
	      "got %s", buf);
}

/* syslog(2), what dmesg calls (klogctl). */
static void check_syslog(void)
{
	int size = klogctl(10, NULL, 0); /* SYSLOG_ACTION_SIZE_BUFFER */
	char *buf = size > 0 ? malloc(size) : NULL;
	int n = buf ? klogctl(3, buf, size) : -1; /* SYSLOG_ACTION_READ_ALL */

	check("syslog SIZE_BUFFER", size >= 4096, "got %d", size);
	check("syslog READ_ALL gives <level> lines",
	      n > 0 && buf[0] == '<' && buf[2] == '>' && buf[n - 1] == '\n', "got %d", n);
	errno = 0;
	check("syslog unknown action EINVAL", klogctl(99, NULL, 0) < 0 && errno == EINVAL,
	      "errno %s", strerror(errno));
	errno = 0;
	check("syslog READ_ALL without a buffer EINVAL",
	      klogctl(3, NULL, 10) < 0 && errno == EINVAL, "errno %s", strerror(errno));
	errno = 0;
	check("syslog READ_ALL negative length EINVAL", klogctl(3, buf, -1) < 0 && errno == EINVAL,
	      "errno %s", strerror(errno));
	errno = 0;
	check("syslog CONSOLE_LEVEL 9 EINVAL", klogctl(8, NULL, 9) < 0 && errno == EINVAL,
	      "errno %s", strerror(errno));
	errno = 0;
	/* The whole size: Linux copies only lines that fit, and the newest
	 * may be longer than a short buffer (then nothing is copied: 0). */
	check("syslog READ_ALL to a bad address EFAULT",
	      klogctl(3, BAD, size) < 0 && errno == EFAULT, "errno %s", strerror(errno));
	check("syslog READ_ALL of 0 bytes", klogctl(3, buf, 0) == 0, "%s", "nonzero");
	check("syslog SIZE_UNREAD", klogctl(9, NULL, 0) >= 0, "errno %s", strerror(errno));
	/* No CLEAR here: a second run (procfs.glibc) would find the log empty. */
	free(buf);

	char line[256];
	int fd = open("/proc/kmsg", O_RDONLY | O_NONBLOCK);
	long got = fd >= 0 ? read(fd, line, sizeof(line)) : -1;
	struct stat st;

	check("/proc/kmsg reads <level> lines", got > 3 && line[0] == '<' && line[2] == '>',
	      "got %ld errno %s", got, strerror(errno));
	check("/proc/kmsg is 0400", !stat("/proc/kmsg", &st) && (st.st_mode & 0777) == 0400,
	      "mode %o", st.st_mode);
	if (fd >= 0)
		close(fd);
}

int main(int argc, char **argv)
{
	self = argv[0][0] == '/' ? argv[0] : "/bin/procfs";
	if (argc > 1 && !strcmp(argv[1], "child"))
		return child();
	setvbuf(stdout, NULL, _IONBF, 0);
	check_self();
	check_child();
	check_comm_write();
	check_proc_stat();
	check_vmstat_faults();
	check_loadavg_uptime();
	check_syslog();
	return check_summary("procfs");
}
