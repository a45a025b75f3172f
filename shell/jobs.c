/*
 * The kernel shell's jobs: programs it started with & (shell/cmd_exec.c)
 * and the notices of how they ended ("[2] Done  spin", "[2] Killed by
 * SIGTERM  spin", "[2] Exit 3  hello"). The shell is pid 1, and Linux's
 * init reaps a child the moment it ends; so does this shell while it
 * waits for a key (shell_getc), and the notice waits for the next prompt,
 * as sh reaps at SIGCHLD and reports at the prompt.
 */
#include <sched.h>
#include <shell.h>

/* Linux's names of its standard signals (kill -l). */
const char *shell_signal_name(int sig)
{
	static const char *const names[] = {
		[SIGHUP] = "SIGHUP",   [SIGINT] = "SIGINT",   [SIGQUIT] = "SIGQUIT",
		[SIGILL] = "SIGILL",   [SIGTRAP] = "SIGTRAP", [SIGABRT] = "SIGABRT",
		[SIGBUS] = "SIGBUS",   [SIGFPE] = "SIGFPE",   [SIGKILL] = "SIGKILL",
		[SIGUSR1] = "SIGUSR1", [SIGSEGV] = "SIGSEGV", [SIGUSR2] = "SIGUSR2",
		[SIGPIPE] = "SIGPIPE", [SIGALRM] = "SIGALRM", [SIGTERM] = "SIGTERM",
		[SIGCHLD] = "SIGCHLD", [SIGCONT] = "SIGCONT", [SIGSTOP] = "SIGSTOP",
		[SIGTSTP] = "SIGTSTP", [SIGTTIN] = "SIGTTIN", [SIGTTOU] = "SIGTTOU",
	};

	if (sig > 0 && sig < (int)ARRAY_SIZE(names) && names[sig])
		return names[sig];
	return "an unknown signal";
}

/* How a job ended, as sh's job notices say it. */
static void report_status(int pid, const char *comm, int status)
{
	if (!WIFEXITED(status))
		kprintf("[%d] Killed by %s  %s\n", pid, shell_signal_name(WTERMSIG(status)), comm);
	else if (WEXITSTATUS(status))
		kprintf("[%d] Exit %d  %s\n", pid, WEXITSTATUS(status), comm);
	else
		kprintf("[%d] Done  %s\n", pid, comm);
}

/* Jobs reaped while the shell waited for a key, whose notices wait for
 * the next prompt (as sh reaps at SIGCHLD and reports at the prompt). */
#define JOB_NOTICES 64
static struct {
	int pid, status;
	char comm[TASK_COMM_LEN];
} job_notices[JOB_NOTICES];
static int nr_job_notices;

/* Reap the shell's ended children: each said at once, or with @queue
 * kept for the prompt while there is room. */
static void reap_jobs(bool queue)
{
	struct task_struct *p, *n;

	list_for_each_entry_safe(p, n, &current->children, sibling) {
		char comm[TASK_COMM_LEN];
		int pid = p->pid, status;

		if (p->exit_state != EXIT_ZOMBIE || (queue && nr_job_notices == JOB_NOTICES))
			continue;
		memcpy(comm, p->comm, sizeof(comm));
		if (kernel_wait4(current, pid, &status, WNOHANG | __WALL, NULL) != pid)
			continue;
		if (!queue) {
			report_status(pid, comm, status);
			continue;
		}
		job_notices[nr_job_notices].pid = pid;
		job_notices[nr_job_notices].status = status;
		memcpy(job_notices[nr_job_notices++].comm, comm, sizeof(comm));
	}
}

void shell_job_notices(void)
{
	for (int i = 0; i < nr_job_notices; i++)
		report_status(job_notices[i].pid, job_notices[i].comm, job_notices[i].status);
	nr_job_notices = 0;
}

void shell_report_jobs(void)
{
	shell_job_notices();
	reap_jobs(false);
}

static bool has_ended_child(void)
{
	struct task_struct *p;

	list_for_each_entry(p, &current->children, sibling)
		if (p->exit_state == EXIT_ZOMBIE)
			return true;
	return false;
}

/*
 * A key from the console. The kernel shell is pid 1, and Linux's init
 * reaps a child the moment it ends, so while it waits here the shell
 * wakes for a child's exit too (do_notify_parent wakes wait_chldexit)
 * and reaps it: no zombie of its is left for `kill -1` or ps to find.
 */
int shell_getc(void)
{
	int c;

	if (current == &init_task) /* the boot thread cannot sleep */
		return console_getc();
	for (;;) {
		DEFINE_WAIT(on_key);
		DEFINE_WAIT(on_child);

		/* Before every key too: a job that ended as keys came in
		 * is gone before the line they make runs. */
		reap_jobs(true);
		c = console_trygetc();
		if (c >= 0)
			return c;
		prepare_to_wait(&console_wait, &on_key, TASK_UNINTERRUPTIBLE);
		prepare_to_wait(&current->signal->wait_chldexit, &on_child, TASK_UNINTERRUPTIBLE);
		c = console_trygetc();
		if (c < 0 && (!has_ended_child() || nr_job_notices == JOB_NOTICES))
			schedule();
		finish_wait(&current->signal->wait_chldexit, &on_child);
		finish_wait(&console_wait, &on_key);
		if (c >= 0)
			return c;
	}
}
