/*
 * /init of the Linux side of the side-by-side (make bench and make test
 * boot Debian's Linux in the same QEMU as Folium, with an initramfs whose
 * init is this program): mount /proc and /sys, run each program given on
 * the kernel command line after "--" in turn, say how each ended, then
 * power the machine off. Programs are separated by a ";" anywhere: a
 * lone ";" argument, one ending a word, or one inside a word (Linux
 * hands init at most 32 arguments, MAX_INIT_ARGS, and panics past that,
 * so long lists save words). Example: append "console=ttyS0 -- /bin/hello
 * a; /bin/sysconform;/bin/mmtest" runs hello with "a", then sysconform,
 * then mmtest, and prints "init: /bin/hello: exit status 0" after each. Folium's shell does this
 * job on Folium itself, so anywhere but as pid 1 of a Linux this program only says so.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_ARGS 64

extern char **environ;

/* Run argv[0] with its arguments and wait; print one line on its end. */
static void run(char **argv)
{
	int status;
	pid_t pid = fork();

	if (pid < 0) {
		printf("init: fork: %s\n", strerror(errno));
		return;
	}
	if (pid == 0) {
		execve(argv[0], argv, environ);
		printf("init: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(status))
		printf("init: %s: killed by signal %d\n", argv[0], WTERMSIG(status));
	else
		printf("init: %s: exit status %d\n", argv[0], WEXITSTATUS(status));
	fflush(stdout);
}

int main(int argc, char **argv)
{
	char *prog[MAX_ARGS + 1];
	int n = 0;

	struct utsname u;

	/* Folium gives every program pid 1 too: ask the kernel's name. */
	if (getpid() != 1 || uname(&u) || strcmp(u.sysname, "Linux") != 0) {
		printf("init: the /init of Linux in the side-by-side; nothing to do here\n");
		return 0;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	mkdir("/proc", 0555);
	mkdir("/sys", 0555);
	if (mount("proc", "/proc", "proc", 0, NULL) || mount("sysfs", "/sys", "sysfs", 0, NULL))
		printf("init: mounting /proc or /sys: %s\n", strerror(errno));
	/* OVMF's Linux loader appends "initrd=initrd" after our "--" words. */
	if (argc > 1 && strncmp(argv[argc - 1], "initrd=", 7) == 0)
		argc--;
	for (int i = 1; i <= argc; i++) {
		char end[] = ";"; /* the list's end ends a program too */
		char *word = i < argc ? argv[i] : end;

		for (;;) {
			char *semi = strchr(word, ';');

			if (semi)
				*semi = '\0';
			if (*word && n < MAX_ARGS)
				prog[n++] = word;
			if (!semi)
				break;
			prog[n] = NULL;
			if (n)
				run(prog);
			n = 0;
			word = semi + 1;
		}
	}
	printf("init: done, powering off\n");
	sync();
	reboot(RB_POWER_OFF);
	return 1;
}
