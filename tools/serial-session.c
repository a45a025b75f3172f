/*
 * serial-session: drive the kernel's serial shell from a script, check replies.
 *
 * The child (QEMU with -serial stdio, or any program) runs in its own process
 * group with our pipes as its stdin/stdout, i.e. the guest's COM1. All it
 * prints goes into one transcript; each directive waits for a pattern in the
 * part not consumed yet: "> help" sends "help\r" and takes everything up to
 * the next "folium> " at a line start as command 1's output (minus the echoed
 * line). Every exit path kills the child's whole group: TERM, then KILL.
 * --fail-on TEXT ends any wait as soon as TEXT appears (a kernel fault halts
 * without a prompt: no need to sit out the timeout).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PROMPT "folium> "
#define TAIL_LINES 20
#define SETTLE_MS 200	   /* quiet time that ends a partial-line reply */
#define KILL_GRACE_MS 2000 /* between SIGTERM and SIGKILL */

enum op {
	OP_SEND,
	OP_TYPE,
	OP_SEND_NOWAIT,
	OP_HAS,
	OP_HASNT,
	OP_WAIT,
	OP_EXIT
};

struct directive {
	enum op op;
	int line;
	char *src;  /* as written, for messages */
	char *text; /* unescaped argument */
	size_t len;
	int status; /* expect-exit: wanted status, -1 for any */
};

struct buf {
	char *p;
	size_t len, cap;
};

enum wait_result { W_FOUND, W_TIMEOUT, W_EXITED, W_FAILED };

static struct {
	double timeout, boot_timeout;
	const char *log_path, *outdir;
	const char *fail_on; /* --fail-on TEXT, or NULL */
	bool verbose;
	FILE *log;
	pid_t pid;	   /* 0 once reaped */
	pid_t pgid;	   /* the child's group; 0 once killed */
	int status;	   /* wait status once reaped */
	int in_fd, out_fd; /* child's stdin (we write), stdout (we read) */
	bool eof;
	struct buf tr;	   /* the raw transcript */
	size_t pos;	   /* first transcript byte no directive consumed */
	struct buf output; /* what '<' and '!' check, CRs removed */
	bool have_output, unsettled;
	unsigned ncmd, passed, failed;
	sigset_t oldmask;
} S = {.timeout = 20, .boot_timeout = 60, .in_fd = -1, .out_fd = -1};

static volatile sig_atomic_t got_signal;

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		fputs("serial-session: out of memory\n", stderr);
		exit(2);
	}
	return p;
}

static void buf_add(struct buf *b, const void *data, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->p = xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	nanosleep(&ts, NULL);
}

/* ---- the child and its process group -------------------------------- */

static void reap(bool block)
{
	if (S.pid > 0 &&
	    waitpid(S.pid, &S.status, block ? 0 : WNOHANG) == S.pid)
		S.pid = 0;
}

/* Orphaned group members are re-parented to us (a subreaper): collect them,
 * or their zombies would keep the group "alive" until PID 1 gets to them. */
static void reap_orphans(void)
{
	while (waitpid(-S.pgid, NULL, WNOHANG) > 0)
		;
}

/*
 * TERM the whole group, give it KILL_GRACE_MS to go, then KILL it. The group
 * id is the child's pid, so it stays valid after the child is reaped while
 * grandchildren (a wrapper script's QEMU) are still in it.
 */

static void kill_group(void)
{
	double deadline = now() + KILL_GRACE_MS / 1000.0;

	if (!S.pgid)
		return;
	kill(-S.pgid, SIGTERM);
	while (now() < deadline) {
		reap(false);
		reap_orphans();
		if (kill(-S.pgid, 0) < 0 && errno == ESRCH)
			break;
		sleep_ms(20);
	}
	if (kill(-S.pgid, 0) == 0)
		kill(-S.pgid, SIGKILL);
	reap(true);
	reap_orphans();
	S.pgid = 0;
}

static void finish(int code)
{
	kill_group();
	if (S.log)
		fclose(S.log);
	exit(code);
}

static void on_signal(int sig)
{
	got_signal = sig;
}

/* INT/TERM/HUP stay blocked except inside ppoll(), so none is ever lost. */
static void setup_signals(void)
{
	struct sigaction sa = {.sa_handler = on_signal};
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, &S.oldmask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN); /* a dead child shows up as EPIPE */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
}

static void exec_child(char **argv, int in[2], int out[2])
{
	setpgid(0, 0);
	/* if we are SIGKILLed, cleanup cannot run: let the kernel do it */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	dup2(in[0], 0);
	dup2(out[1], 1);
	sigprocmask(SIG_SETMASK, &S.oldmask, NULL);
	signal(SIGPIPE, SIG_DFL);
	execvp(argv[0], argv);
	fprintf(stderr, "serial-session: cannot run %s: %m\n", argv[0]);
	_exit(127);
}

static void start_child(char **argv)
{
	int in[2], out[2];

	if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC)) {
		perror("serial-session: pipe");
		exit(2);
	}
	S.pid = fork();
	if (S.pid < 0) {
		perror("serial-session: fork");
		exit(2);
	}
	if (S.pid == 0)
		exec_child(argv, in, out);
	/* also here, so the group exists before we could ever signal it */
	setpgid(S.pid, S.pid);
	S.pgid = S.pid;
	close(in[0]);
	close(out[1]);
	S.in_fd = in[1];
	S.out_fd = out[0];
	fcntl(S.out_fd, F_SETFL, O_NONBLOCK);
	if (S.verbose)
		printf("serial-session: child pid %d, process group %d\n",
		       (int)S.pid, (int)S.pgid);
	fflush(stdout);
}

/* "exited with status 3", for messages; reaps the child if it can. */
static const char *child_state(void)
{
	static char msg[64];
	double deadline = now() + 1;

	while (S.pid && now() < deadline) {
		reap(false);
		if (S.pid)
			sleep_ms(10);
	}
	if (S.pid)
		return "closed its output";
	if (WIFSIGNALED(S.status))
		snprintf(msg, sizeof(msg), "was killed by signal %d",
			 WTERMSIG(S.status));
	else
		snprintf(msg, sizeof(msg), "exited with status %d",
			 WEXITSTATUS(S.status));
	return msg;
}

/* ---- reading the serial stream -------------------------------------- */

static void check_signal(void)
{
	if (!got_signal)
		return;
	fflush(stdout);
	fprintf(stderr,
		"serial-session: caught signal %d, stopping the child\n",
		(int)got_signal);
	finish(128 + got_signal);
}

/*
 * Wait up to `ms` for output and append it to the transcript.
 * Return: 1 data read, 0 nothing within `ms`, -1 the child closed its stdout.
 */
static int read_some(long ms)
{
	struct pollfd pfd = {.fd = S.out_fd, .events = POLLIN};
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	char chunk[4096];
	ssize_t n;

	if (S.eof)
		return -1;
	if (ppoll(&pfd, 1, &ts, &S.oldmask) < 0 && errno != EINTR)
		return -1;
	check_signal();
	n = read(S.out_fd, chunk, sizeof(chunk));
	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -1;
	if (n == 0) {
		S.eof = true;
		return -1;
	}
	buf_add(&S.tr, chunk, n);
	if (S.log) {
		fwrite(chunk, 1, n, S.log);
		fflush(S.log);
	}
	return 1;
}

static long ms_until(double deadline)
{
	double left = deadline - now();

	return left > 0 ? (long)(left * 1000) + 1 : 0;
}

/* A prompt only counts at a line start: a line editor's "\rfolium> help"
 * redraw must not end a command. */
static bool at_line_start(size_t at)
{
	return at == 0 || S.tr.p[at - 1] == '\n';
}

static bool find(const char *pat, size_t len, size_t from, bool line_start,
		 size_t *at)
{
	const char *hit = S.tr.p + from;

	while (from + len <= S.tr.len &&
	       (hit = memmem(hit, S.tr.p + S.tr.len - hit, pat, len))) {
		if (!line_start || at_line_start(hit - S.tr.p)) {
			*at = hit - S.tr.p;
			return true;
		}
		hit++;
	}
	return false;
}

/*
 * Whether the --fail-on text appears at or after *scanned; moves *scanned.
 * On a hit, the rest of the report (the kernel stops right after it) is
 * read for up to a second, so the log and the tail shown end complete.
 */
static bool fail_text_since(size_t *scanned)
{
	double deadline = now() + 1;
	size_t len, at;

	if (!S.fail_on)
		return false;
	len = strlen(S.fail_on);
	if (find(S.fail_on, len, *scanned, false, &at)) {
		while (now() < deadline && read_some(SETTLE_MS) > 0)
			;
		return true;
	}
	if (S.tr.len >= *scanned + len)
		*scanned = S.tr.len - len + 1;
	return false;
}

/*
 * Wait until `pat` appears at or after `from`; *at is where it starts.
 * Return: W_FAILED if the --fail-on text shows up first.
 */
static enum wait_result wait_for(const char *pat, size_t len, size_t from,
				 bool line_start, double deadline, size_t *at)
{
	size_t scanned = from, fail_scanned = from;

	for (;;) {
		if (find(pat, len, scanned, line_start, at))
			return W_FOUND;
		if (fail_text_since(&fail_scanned))
			return W_FAILED;
		/* only the new bytes (and a pattern straddling them) are new */
		if (S.tr.len >= from + len)
			scanned = S.tr.len - len + 1;
		if (now() >= deadline)
			return W_TIMEOUT;
		if (read_some(ms_until(deadline)) < 0)
			return W_EXITED;
	}
}

/* Let replies to partial input (Ctrl-C, a second Enter) arrive before the
 * next command, so their prompts cannot be taken for its prompt. */
static void settle(double deadline)
{
	while (S.unsettled && now() < deadline && read_some(SETTLE_MS) > 0)
		;
	S.unsettled = false;
}

/* ---- reporting ------------------------------------------------------ */

/* Print bytes for a terminal: CRs dropped, other controls as \xHH. */
static void put_clean(const char *p, size_t n, const char *indent)
{
	bool bol = true;

	for (; n; p++, n--) {
		if (bol)
			fputs(indent, stdout);
		bol = *p == '\n';
		if (*p == '\n' || *p == '\t' || (*p >= 0x20 && *p != 0x7f))
			putchar(*p);
		else if (*p != '\r')
			printf("\\x%02x", (unsigned char)*p);
	}
	if (!bol)
		putchar('\n');
}

static void print_tail(const char *p, size_t n, const char *what)
{
	size_t start = n && p[n - 1] == '\n' ? n - 1 : n;
	int lines = 0;

	while (start > 0 && !(p[start - 1] == '\n' && ++lines == TAIL_LINES))
		start--;
	if (!n) {
		printf("serial-session: %s was empty\n", what);
		return;
	}
	printf("serial-session: last %d lines of %s:\n", TAIL_LINES, what);
	put_clean(p + start, n - start, "    | ");
}

static void verdict(const struct directive *d, bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s ", ok ? "ok  " : "FAIL");
	if (d->line)
		printf("line %d: ", d->line);
	fputs(d->src, stdout);
	if (fmt) {
		va_start(ap, fmt);
		fputs(": ", stdout);
		vprintf(fmt, ap);
		va_end(ap);
	}
	putchar('\n');
	if (ok)
		S.passed++;
	else
		S.failed++;
}

/* A wait that cannot complete ends the session: say why, show the tail. */
static void abort_wait(const struct directive *d, enum wait_result r,
		       const char *what, double secs)
{
	if (r == W_TIMEOUT)
		verdict(d, false, "timeout after %g s waiting for %s", secs,
			what);
	else if (r == W_FAILED)
		verdict(d, false, "the child printed \"%s\" while waiting for %s",
			S.fail_on, what);
	else
		verdict(d, false, "child %s while waiting for %s",
			child_state(), what);
	print_tail(S.tr.p, S.tr.len, "serial output");
}

/* ---- directives ----------------------------------------------------- */

static void set_output(size_t from, size_t to)
{
	S.output.len = 0;
	buf_add(&S.output, "", 0);
	for (; from < to; from++)
		if (S.tr.p[from] != '\r')
			buf_add(&S.output, S.tr.p + from, 1);
	S.have_output = true;
}

static bool send(const struct directive *d, bool enter)
{
	const char *p = d->text;
	size_t n = d->len;
	ssize_t w;

	while (n) {
		w = write(S.in_fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return false;
		p += w;
		n -= w;
	}
	return !enter || write(S.in_fd, "\r", 1) == 1;
}

static bool has_control(const struct directive *d)
{
	size_t i;

	for (i = 0; i < d->len; i++)
		if ((unsigned char)d->text[i] < 0x20 || d->text[i] == 0x7f)
			return true;
	return false;
}

static void save_output(void)
{
	char path[4096];
	FILE *f;

	if (!S.outdir)
		return;
	snprintf(path, sizeof(path), "%s/%03u.txt", S.outdir, S.ncmd);
	f = fopen(path, "w");
	if (!f || fwrite(S.output.p, 1, S.output.len, f) != S.output.len)
		fprintf(stderr, "serial-session: cannot write %s: %m\n", path);
	if (f)
		fclose(f);
}

/* The command's output: after the echoed line, up to the prompt. */
static void command_output(size_t start, size_t end)
{
	const char *nl = memchr(S.tr.p + start, '\n', end - start);

	set_output(nl ? (size_t)(nl - S.tr.p) + 1 : end, end);
	S.ncmd++;
	save_output();
}

static int do_send(const struct directive *d, bool exit_next)
{
	double deadline = now() + S.timeout;
	size_t start, at;
	enum wait_result r;

	settle(deadline);
	start = S.tr.len;
	S.pos = start;
	if (!send(d, d->op != OP_TYPE) && !exit_next) {
		abort_wait(d, W_EXITED, "it to read input", 0);
		return -1;
	}
	S.unsettled = d->op == OP_TYPE || has_control(d);
	if (d->op != OP_SEND) {
		verdict(d, true, NULL);
		return 0;
	}
	r = wait_for(PROMPT, strlen(PROMPT), start, true, deadline, &at);
	if (r == W_EXITED && exit_next) {
		at = S.tr.len; /* e.g. "> poweroff": the output ends at exit */
	} else if (r != W_FOUND) {
		abort_wait(d, r, "prompt \"" PROMPT "\"", S.timeout);
		return -1;
	}
	command_output(start, at);
	S.pos = r == W_FOUND ? at + strlen(PROMPT) : at;
	verdict(d, true, NULL);
	return 0;
}

static int do_check(const struct directive *d)
{
	bool found;

	if (!S.have_output) {
		verdict(d, false, "no command output to check yet");
		return 0;
	}
	found = memmem(S.output.p, S.output.len, d->text, d->len) != NULL;
	if (found == (d->op == OP_HAS)) {
		verdict(d, true, NULL);
		return 0;
	}
	verdict(d, false, found ? "found in the output" : "not in the output");
	print_tail(S.output.p, S.output.len, "that output");
	return 0;
}

static int do_wait(const struct directive *d)
{
	size_t at;
	enum wait_result r;
	char what[256];

	r = wait_for(d->text, d->len, S.pos, false, now() + S.timeout, &at);
	if (r != W_FOUND) {
		snprintf(what, sizeof(what), "\"%s\"", d->src + 5);
		abort_wait(d, r, what, S.timeout);
		return -1;
	}
	set_output(S.pos, at + d->len);
	S.pos = at + d->len;
	verdict(d, true, NULL);
	return 0;
}

static int do_expect_exit(const struct directive *d)
{
	double deadline = now() + S.timeout;
	int code;

	while (read_some(ms_until(deadline)) >= 0 && now() < deadline)
		;
	if (!S.eof) {
		abort_wait(d, W_TIMEOUT, "the child to exit", S.timeout);
		return -1;
	}
	set_output(S.pos, S.tr.len);
	S.pos = S.tr.len;
	child_state();
	code = S.pid ? -1 : WIFEXITED(S.status) ? WEXITSTATUS(S.status) : -1;
	if (d->status >= 0 && code != d->status) {
		verdict(d, false, "child %s", child_state());
		return 0;
	}
	verdict(d, true, "child %s", child_state());
	return 0;
}

/*
 * Whether the next directive that talks to the child (checks do not) is
 * expect-exit: then "> poweroff" may end with the child's exit, not a prompt.
 */
static bool exit_expected(const struct directive *d,
			  const struct directive *end)
{
	while (d < end && (d->op == OP_HAS || d->op == OP_HASNT))
		d++;
	return d < end && d->op == OP_EXIT;
}

static int run_directive(const struct directive *d, const struct directive *end)
{
	bool exit_next = exit_expected(d + 1, end);

	switch (d->op) {
	case OP_SEND:
	case OP_TYPE:
	case OP_SEND_NOWAIT:
		return do_send(d, exit_next);
	case OP_HAS:
	case OP_HASNT:
		return do_check(d);
	case OP_WAIT:
		return do_wait(d);
	case OP_EXIT:
		return do_expect_exit(d);
	}
	return -1;
}

static int boot(void)
{
	struct directive d = {.line = 0, .src = "boot"};
	double t0 = now();
	enum wait_result r;
	size_t at;

	r = wait_for(PROMPT, strlen(PROMPT), 0, true, t0 + S.boot_timeout, &at);
	if (r != W_FOUND) {
		abort_wait(&d, r, "the first prompt \"" PROMPT "\"",
			   S.boot_timeout);
		return -1;
	}
	S.pos = at + strlen(PROMPT);
	verdict(&d, true, "prompt after %.1f s", now() - t0);
	return 0;
}

/* ---- the script ----------------------------------------------------- */

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The byte a one-letter escape stands for, or -1 if it is not one. */
static int escape_letter(char c)
{
	switch (c) {
	case 'e':
		return 0x1b;
	case 'r':
		return '\r';
	case 'n':
		return '\n';
	case 't':
		return '\t';
	case '\\':
		return '\\';
	}
	return -1;
}

/*
 * Decode the escape after a backslash; *sp points at its first letter and is
 * left on its last. Return: the byte, or -1 for an unknown escape.
 */
static int escape(const char **sp)
{
	const char *s = *sp;
	int c;

	if (*s != 'x')
		return escape_letter(*s);
	if ((c = hexval(s[1])) < 0)
		return -1;
	s++;
	if (hexval(s[1]) >= 0)
		c = c * 16 + hexval(*++s);
	*sp = s;
	return c;
}

/* C-like escapes: \e \r \n \t \\ \xHH. Return: false on an unknown one. */
static bool unescape(struct directive *d, const char *s)
{
	struct buf b = {0};
	int c;

	buf_add(&b, "", 0);
	for (; *s; s++) {
		c = (unsigned char)*s;
		if (c == '\\') {
			s++;
			if ((c = escape(&s)) < 0)
				return false;
		}
		buf_add(&b, &(char){(char)c}, 1);
	}
	d->text = b.p;
	d->len = b.len;
	return true;
}

static const struct {
	const char *word;
	enum op op;
} ops[] = {
	/* longest first: ">>" and ">!" before ">" */
	{">>", OP_TYPE},	  {">!", OP_SEND_NOWAIT},
	{">", OP_SEND},		  {"<", OP_HAS},
	{"!", OP_HASNT},	  {"wait ", OP_WAIT},
	{"expect-exit", OP_EXIT},
};

/* Return: 1 a directive, 0 blank or comment, -1 a syntax error. */
static int parse_line(struct directive *d, char *s)
{
	char *arg, *end;
	size_t i;

	s[strcspn(s, "\r\n")] = '\0';
	if (!*s || *s == '#')
		return 0;
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strncmp(s, ops[i].word, strlen(ops[i].word)))
			break;
	if (i == sizeof(ops) / sizeof(ops[0]))
		return -1;
	d->op = ops[i].op;
	d->src = strdup(s);
	arg = s + strlen(ops[i].word);
	if (*arg == ' ')
		arg++;
	d->status = -1;
	if (d->op == OP_EXIT && *arg) {
		d->status = strtol(arg, &end, 10);
		return *end ? -1 : 1;
	}
	return unescape(d, arg) ? 1 : -1;
}

static struct directive *load_script(const char *path, size_t *count)
{
	struct directive *v = NULL;
	char *line = NULL;
	size_t cap = 0, n = 0;
	int lineno = 0, r;
	FILE *f = fopen(path, "r");

	if (!f) {
		fprintf(stderr, "serial-session: %s: %m\n", path);
		exit(2);
	}
	while (getline(&line, &cap, f) >= 0) {
		v = xrealloc(v, (n + 1) * sizeof(*v));
		memset(&v[n], 0, sizeof(*v));
		v[n].line = ++lineno;
		r = parse_line(&v[n], line);
		if (r < 0) {
			fprintf(stderr,
				"serial-session: %s:%d: bad directive "
				"or escape: %s\n",
				path, lineno, line);
			exit(2);
		}
		n += r;
	}
	free(line);
	fclose(f);
	*count = n;
	return v;
}

/* ---- main ----------------------------------------------------------- */

static int usage(void)
{
	fputs("usage: serial-session [-v] [--timeout SECONDS] "
	      "[--boot-timeout SECONDS]\n"
	      "                      [--log FILE] [--outdir DIR] "
	      "[--fail-on TEXT]\n"
	      "                      SCRIPT -- COMMAND [ARGS...]\n",
	      stderr);
	return 2;
}

static bool parse_seconds(const char *s, double *out)
{
	char *end;

	*out = strtod(s, &end);
	return *s && !*end && *out > 0;
}

/* Return: index of COMMAND in argv, or 0 on bad usage. */
static int parse_args(int argc, char **argv, const char **script)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--"))
			return *script && i + 1 < argc ? i + 1 : 0;
		if (!strcmp(a, "-v"))
			S.verbose = true;
		else if (!v && a[0] == '-')
			return 0;
		else if (!strcmp(a, "--timeout") &&
			 parse_seconds(v, &S.timeout))
			i++;
		else if (!strcmp(a, "--boot-timeout") &&
			 parse_seconds(v, &S.boot_timeout))
			i++;
		else if (!strcmp(a, "--log"))
			S.log_path = argv[++i];
		else if (!strcmp(a, "--outdir"))
			S.outdir = argv[++i];
		else if (!strcmp(a, "--fail-on") && *v)
			S.fail_on = argv[++i];
		else if (a[0] == '-' || *script)
			return 0;
		else
			*script = a;
	}
	return 0;
}

static void open_outputs(void)
{
	if (S.log_path && !(S.log = fopen(S.log_path, "wb"))) {
		fprintf(stderr, "serial-session: %s: %m\n", S.log_path);
		exit(2);
	}
	if (S.outdir && mkdir(S.outdir, 0777) < 0 && errno != EEXIST) {
		fprintf(stderr, "serial-session: %s: %m\n", S.outdir);
		exit(2);
	}
}

int main(int argc, char **argv)
{
	const char *script = NULL;
	struct directive *dirs;
	size_t n, i;
	int cmd = parse_args(argc, argv, &script);
	int err = 0;

	if (!cmd)
		return usage();
	dirs = load_script(script, &n);
	open_outputs();
	setvbuf(stdout, NULL, _IOLBF, 0);
	setup_signals();
	start_child(argv + cmd);
	err = boot();
	for (i = 0; i < n && !err; i++)
		err = run_directive(&dirs[i], dirs + n);
	if (err && i < n)
		printf("serial-session: stopped; %zu directive(s) not run\n",
		       n - i);
	printf("serial-session: %u checks passed, %u failed\n", S.passed,
	       S.failed);
	finish(err || S.failed ? 1 : 0);
	return 0;
}
