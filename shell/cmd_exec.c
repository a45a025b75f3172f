/*
 * `spawn PROGRAM [ARG...]`: run a static Linux program from the root file
 * system in ring 3 and wait for it, as a shell runs a foreground job. The
 * shell also runs a line whose first word is an absolute path or a file
 * in /bin through this command, so `/bin/hello a b` and `hello a b` both
 * work, and so does `DEBUG=1 hello` (sh's per-command environment).
 * A program that exits with a status other than 0 gets one line
 * "exit status N"; one a signal ended, "killed by SIGSEGV" (the name of
 * the signal).
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

/* Linux's names of its standard signals (kill -l). */
static const char *signal_name(int sig)
{
	static const char *const names[] = {
		[SIGHUP] = "SIGHUP",   [SIGINT] = "SIGINT",   [SIGQUIT] = "SIGQUIT",
		[SIGILL] = "SIGILL",   [SIGTRAP] = "SIGTRAP", [SIGABRT] = "SIGABRT",
		[SIGBUS] = "SIGBUS",   [SIGFPE] = "SIGFPE",   [SIGKILL] = "SIGKILL",
		[SIGUSR1] = "SIGUSR1", [SIGSEGV] = "SIGSEGV", [SIGUSR2] = "SIGUSR2",
		[SIGPIPE] = "SIGPIPE", [SIGALRM] = "SIGALRM", [SIGTERM] = "SIGTERM",
		[SIGCHLD] = "SIGCHLD", [SIGCONT] = "SIGCONT", [SIGSTOP] = "SIGSTOP",
	};

	if (sig > 0 && sig < (int)ARRAY_SIZE(names) && names[sig])
		return names[sig];
	return "an unknown signal";
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

static int cmd_spawn(int argc, char **argv)
{
	const char *envp[SPAWN_ENV_MAX + 1];
	char path[PATH_MAX];
	size_t nenv = 0;
	int status, prog = 1;

	for (size_t i = 0; i < ARRAY_SIZE(default_env); i++)
		envp[nenv++] = default_env[i];
	while (prog < argc && shell_is_assignment(argv[prog]))
		env_set(envp, &nenv, argv[prog++]);
	envp[nenv] = NULL;
	if (prog >= argc)
		return CMD_USAGE;
	/* A bare name is looked up in /bin, the one directory of PATH. */
	ksnprintf(path, sizeof(path), "%s%s", strchr(argv[prog], '/') ? "" : "/bin/", argv[prog]);
	status = call_usermodehelper(path, (const char *const *)argv + prog, envp);
	if (status < 0) {
		kprintf("%s: %s\n", argv[prog], exec_strerror(status));
		return CMD_ERROR;
	}
	if (!WIFEXITED(status)) {
		kprintf("killed by %s\n", signal_name(WTERMSIG(status)));
		return CMD_ERROR;
	}
	if (WEXITSTATUS(status)) {
		kprintf("exit status %d\n", WEXITSTATUS(status));
		return CMD_ERROR;
	}
	return CMD_OK;
}

DEFINE_SHELL_COMMAND(spawn, "spawn [NAME=VALUE...] PROGRAM [ARG...]",
		     "run a program (a path, or a name in /bin) in ring 3 and wait for it; "
		     "PATH=/bin HOME=/ TERM=linux and the NAME=VALUEs are its environment");
