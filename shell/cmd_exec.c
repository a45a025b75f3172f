/*
 * `spawn PROGRAM [ARG...]`: run a static Linux program from the root file
 * system in ring 3 and wait for it, as a shell runs a foreground job. The
 * shell also runs a line whose first word is an absolute path or a file
 * in /bin through this command, so `/bin/hello a b` and `hello a b` both
 * work, and so does `DEBUG=1 hello` (sh's per-command environment).
 * A program that exits with a status other than 0 gets one line
 * "exit status N"; one a signal ended, "killed by SIGSEGV" (the name of
 * the signal). A last word "&" runs it in the background: "[PID]" at
 * once, and when it has ended a notice "[PID] Done NAME" (or "Exit N",
 * or the signal) at the next prompt, before the next program starts or
 * at `jobs`, which also lists the ones still running or stopped; one
 * that ends while the shell waits for a key is reaped at once. Ctrl-C
 * reaches only the foreground one. A program that stops (SIGSTOP; the
 * shell is pid 1, so the group of a program it starts is orphaned and,
 * as on Linux, SIGTSTP from Ctrl-Z does not stop it) gives the prompt
 * back as a stopped job, "[PID] Stopped by SIGSTOP  NAME", that `fg` or
 * `bg` continues.
 */
#include <ramfs.h>
#include <sched.h>
#include <shell.h>
#include <umh.h>

/* Linux: strerror, for what call_usermodehelper returns before the
 * program runs. */
static const char *exec_strerror(int err)
{
	switch (-err) {
	case ENOENT:
		return "No such file or directory";
	case ENOTDIR:
		return "Not a directory";
	case EACCES:
		return "Permission denied";
	case ENOEXEC:
		return "Exec format error";
	case ENOMEM:
		return "Cannot allocate memory";
	case E2BIG:
		return "Argument list too long";
	default:
		return "Invalid argument";
	}
}

/* The environment a program starts with, as a login shell on Linux
 * would give it; NAME=VALUE words before the program add or replace. */
static const char *const default_env[] = { "PATH=/bin", "HOME=/", "TERM=linux" };
#define SPAWN_ENV_MAX (ARRAY_SIZE(default_env) + SHELL_MAX_ARGS)

/* Put NAME=VALUE in envp, replacing an entry of the same NAME. */
static void env_set(const char **envp, size_t *n, const char *assignment)
{
	size_t name_len = (size_t)(strchr(assignment, '=') - assignment) + 1;

	for (size_t i = 0; i < *n; i++)
		if (!strncmp(envp[i], assignment, name_len)) {
			envp[i] = assignment;
			return;
		}
	envp[(*n)++] = assignment;
}

/* The pid of sh's current job (%+): the one stopped, started with & or
 * put in the background last. */
static int current_job;

static void set_current_job(int pid)
{
	current_job = pid;
}

/* Run @task (a child of the shell, made or continued) in the foreground
 * until it exits or stops, and say how if not with status 0. */
static int wait_foreground(struct task_struct *task)
{
	char comm[TASK_COMM_LEN];
	int pid = task->pid, status;

	memcpy(comm, task->comm, sizeof(comm));
	status = call_usermodehelper_wait(task);
	if (WIFSTOPPED(status)) {
		current_job = pid;
		kprintf("[%d] Stopped by %s  %s\n", pid, shell_signal_name(WSTOPSIG(status)), comm);
		return CMD_ERROR; /* sh's $? is 128 + the signal */
	}
	if (!WIFEXITED(status)) {
		kprintf("killed by %s\n", shell_signal_name(WTERMSIG(status)));
		return CMD_ERROR;
	}
	if (WEXITSTATUS(status)) {
		kprintf("exit status %d\n", WEXITSTATUS(status));
		return CMD_ERROR;
	}
	return CMD_OK;
}

/* sh's current job (%+): the child stopped, started with & or put in
 * the background last while it lives, else the newest stopped one, else
 * the newest; NULL if the shell has no child left. */
static struct task_struct *current_job_task(void)
{
	struct task_struct *p, *stopped = NULL, *newest = NULL;

	list_for_each_entry(p, &current->children, sibling) {
		if (p->exit_state)
			continue;
		if (p->pid == current_job)
			return p;
		if (p->signal->flags & SIGNAL_STOP_STOPPED)
			stopped = p;
		newest = p;
	}
	return stopped ? stopped : newest;
}

static int cmd_spawn(int argc, char **argv)
{
	const char *envp[SPAWN_ENV_MAX + 1];
	char path[PATH_MAX];
	struct task_struct *task;
	size_t nenv = 0;
	int status, prog = 1;
	bool background = argc > 1 && !strcmp(argv[argc - 1], "&");

	for (size_t i = 0; i < ARRAY_SIZE(default_env); i++)
		envp[nenv++] = default_env[i];
	while (prog < argc && shell_is_assignment(argv[prog]))
		env_set(envp, &nenv, argv[prog++]);
	envp[nenv] = NULL;
	if (background)
		argv[--argc] = NULL;
	if (prog >= argc)
		return CMD_USAGE;
	shell_report_jobs();
	/* A bare name is looked up in /bin, the one directory of PATH. */
	ksnprintf(path, sizeof(path), "%s%s", strchr(argv[prog], '/') ? "" : "/bin/", argv[prog]);
	if (background) {
		status = call_usermodehelper_exec(path, (const char *const *)argv + prog, envp,
						  UMH_NO_WAIT);
		if (status >= 0) {
			kprintf("[%d]\n", status);
			set_current_job(status);
		}
	} else {
		task = call_usermodehelper_setup(path, (const char *const *)argv + prog, envp,
						 &status);
		if (task)
			return wait_foreground(task);
	}
	if (status < 0) {
		kprintf("%s: %s\n", argv[prog], exec_strerror(status));
		return CMD_ERROR;
	}
	return CMD_OK;
}

DEFINE_SHELL_COMMAND(spawn, "spawn [NAME=VALUE...] PROGRAM [ARG...] [&]",
		     "run a program (a path, or a name in /bin) in ring 3 and wait for it, or with "
		     "& in the background; PATH=/bin HOME=/ TERM=linux and the NAME=VALUEs are its "
		     "environment");

static int cmd_jobs(int argc, char **argv)
{
	struct task_struct *p;

	(void)argv;
	if (argc != 1)
		return CMD_USAGE;
	shell_report_jobs();
	list_for_each_entry(p, &current->children, sibling)
		kprintf("[%d] %s  %s\n", p->pid,
			p->signal->flags & SIGNAL_STOP_STOPPED ? "Stopped" : "Running", p->comm);
	return CMD_OK;
}

DEFINE_SHELL_COMMAND(jobs, "jobs",
		     "say which background programs have ended (and reap them), which run and "
		     "which are stopped");

/* The job `fg PID` or `bg PID` means: a child of the shell; without a
 * PID, sh's current job (%+). */
static struct task_struct *job_arg(const char *cmd, int argc, char **argv)
{
	struct task_struct *p;
	uint64_t pid;

	if (argc == 1) {
		p = current_job_task();
		if (!p)
			kprintf("%s: no current job\n", cmd);
		return p;
	}
	if (kstrtou64(argv[1], &pid) || pid == 0 || pid > INT32_MAX) {
		kprintf("%s: %s: not a pid\n", cmd, argv[1]);
		return NULL;
	}
	list_for_each_entry(p, &current->children, sibling)
		if (p->pid == (int)pid && !p->exit_state)
			return p;
	kprintf("%s: %s: no such job\n", cmd, argv[1]);
	return NULL;
}

/* Whether child @pid of the shell (any child for 0) is still to wait
 * for: not yet reaped and not stopped; and whether one is a zombie. */
static bool job_pending(int pid, bool *ended)
{
	struct task_struct *p;
	bool pending = false;

	*ended = false;
	list_for_each_entry(p, &current->children, sibling) {
		*ended |= p->exit_state == EXIT_ZOMBIE;
		if ((!pid || p->pid == pid) && !(p->signal->flags & SIGNAL_STOP_STOPPED))
			pending = true;
	}
	return pending;
}

/* `wait [PID]`: as sh's wait, until the background job PID (every one
 * without PID) has ended, saying how at once; a stopped job is not
 * waited for, and Ctrl-C gives up. */
static int cmd_wait(int argc, char **argv)
{
	int pid = 0;

	if (argc > 2)
		return CMD_USAGE;
	if (argc == 2) {
		struct task_struct *p = job_arg("wait", argc, argv);

		if (!p)
			return CMD_ERROR;
		pid = p->pid;
	}
	for (;;) {
		DEFINE_WAIT(wait);
		bool ended;

		shell_report_jobs();
		if (console_interrupted()) {
			kprintf("wait: interrupted\n");
			return CMD_ERROR;
		}
		/* A child's exit or stop wakes wait_chldexit; ^C only sets a
		 * flag, so look again every 10 ms. */
		prepare_to_wait(&current->signal->wait_chldexit, &wait, TASK_UNINTERRUPTIBLE);
		if (!job_pending(pid, &ended)) {
			finish_wait(&current->signal->wait_chldexit, &wait);
			return CMD_OK;
		}
		if (!ended)
			schedule_timeout_ns(10 * 1000000ull);
		finish_wait(&current->signal->wait_chldexit, &wait);
	}
}

DEFINE_SHELL_COMMAND(wait, "wait [PID]",
		     "wait until the background program PID (every one without PID) has ended, "
		     "and say how");

/* `fg [PID]`: a background or stopped job back in the foreground, its
 * group continued, and waited for (sh's fg: tcsetpgrp, then SIGCONT;
 * here the SIGCONT comes first, but the job runs only once the shell
 * sleeps in the wait, with the tty's foreground already its group). */
static int cmd_fg(int argc, char **argv)
{
	struct task_struct *p;

	if (argc > 2)
		return CMD_USAGE;
	p = job_arg("fg", argc, argv);
	if (!p)
		return CMD_ERROR;
	kprintf("%s\n", p->comm);
	kill_pgrp(NULL, p->pgid, SIGCONT, SI_USER);
	return wait_foreground(p);
}

DEFINE_SHELL_COMMAND(fg, "fg [PID]",
		     "continue a stopped or background program (the current job without PID: "
		     "the last one stopped or put in the background) in the foreground and wait "
		     "for it");

/* `bg [PID]`: a stopped job continued where it is, in the background. */
static int cmd_bg(int argc, char **argv)
{
	struct task_struct *p;

	if (argc > 2)
		return CMD_USAGE;
	p = job_arg("bg", argc, argv);
	if (!p)
		return CMD_ERROR;
	kprintf("[%d] %s &\n", p->pid, p->comm);
	set_current_job(p->pid);
	kill_pgrp(NULL, p->pgid, SIGCONT, SI_USER);
	return CMD_OK;
}

DEFINE_SHELL_COMMAND(bg, "bg [PID]",
		     "continue a stopped program (the current job without PID) in the "
		     "background");

/* Linux's ps STAT letter of a task (fs/proc/array.c task_state_array). */
static char task_state_letter(const struct task_struct *p)
{
	if (p->exit_state == EXIT_ZOMBIE)
		return 'Z';
	if (p->exit_state == EXIT_DEAD)
		return 'X';
	if (p->__state == TASK_RUNNING)
		return 'R';
	if (p->__state & TASK_INTERRUPTIBLE)
		return 'S';
	if (p->__state & TASK_UNINTERRUPTIBLE)
		return 'D';
	if (p->__state & __TASK_STOPPED)
		return 'T';
	return 'R'; /* TASK_NEW: about to run */
}

static void ps_line(const struct task_struct *p)
{
	uint64_t ms = task_cputime_ns(p) / 1000000;
	int ppid = p->real_parent ? p->real_parent->pid : 0;

	kprintf("%5d %5d %c %3d %5llu.%03llu %s%s%s\n", p->pid, ppid, task_state_letter(p),
		task_nice(p), (unsigned long long)(ms / 1000), (unsigned long long)(ms % 1000),
		p->mm ? "" : "[", p->comm, p->mm ? "" : "]");
}

/* Every task, as `ps -e -o pid,ppid,stat,nice,time,comm` shows them
 * (kernel threads in brackets, CPU time in seconds). */
static int cmd_ps(int argc, char **argv)
{
	struct task_struct *p;

	(void)argv;
	if (argc != 1)
		return CMD_USAGE;
	kprintf("  PID  PPID S  NI      TIME COMMAND\n");
	ps_line(&init_task);
	for_each_process(p) ps_line(p);
	return CMD_OK;
}

DEFINE_SHELL_COMMAND(ps, "ps", "list the tasks: pid, parent, state, nice, CPU time, name");

/* A signal by number or by name, with or without its SIG prefix. */
static int parse_signal(const char *s)
{
	uint64_t n;

	if (kstrtou64(s, &n) == 0)
		return n > 0 && n <= _NSIG ? (int)n : -1;
	if (!strncmp(s, "SIG", 3))
		s += 3;
	for (int sig = 1; sig <= SIGTTOU; sig++)
		if (!strcmp(shell_signal_name(sig) + 3, s))
			return sig;
	return -1;
}

/* `kill [-SIGNAL] PID...`: as the kill command, SIGTERM by default; a
 * negative PID is a process group (the shell starts each program in its
 * own). Kernel threads ignore signals, as on Linux. */
static int cmd_kill(int argc, char **argv)
{
	int sig = SIGTERM, first = 1, ret = CMD_OK;

	if (argc > 1 && argv[1][0] == '-' && (argv[1][1] < '0' || argv[1][1] > '9' || argc > 2)) {
		sig = parse_signal(argv[1] + 1);
		if (sig < 0) {
			kprintf("kill: %s: no such signal\n", argv[1] + 1);
			return CMD_USAGE;
		}
		first = 2;
	}
	if (first >= argc)
		return CMD_USAGE;
	for (int i = first; i < argc; i++) {
		const char *arg = argv[i] + (argv[i][0] == '-');
		uint64_t pid;
		int err;

		if (kstrtou64(arg, &pid) || pid == 0 || pid > INT32_MAX) {
			kprintf("kill: %s: not a pid\n", argv[i]);
			ret = CMD_ERROR;
			continue;
		}
		if (argv[i][0] == '-')
			err = kill_pgrp(NULL, (int)pid, sig, SI_USER);
		else
			err = kill_pid_info(NULL, (int)pid, sig, SI_USER);
		if (err) {
			kprintf("kill: %s: no such process\n", argv[i]);
			ret = CMD_ERROR;
		}
	}
	return ret;
}

DEFINE_SHELL_COMMAND(kill, "kill [-SIGNAL] PID...",
		     "send SIGNAL (a name or number; TERM by default) to each PID, or to the "
		     "process group -PID");
