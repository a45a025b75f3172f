/*
 * The shell: line editing (backspace, Ctrl-U, Ctrl-C, up/down history),
 * command dispatch and autorun. Input arrives one byte at a time from any
 * console; keys that are not bytes come as ANSI sequences (up = ESC [ A).
 * A line longer than SHELL_LINE_MAX is never truncated or run: the editor
 * swallows the rest and refuses it at Enter.
 */
#include <ramfs.h>
#include <shell.h>

extern const struct shell_command *const __start_shell_commands[];
extern const struct shell_command *const __stop_shell_commands[];

void le_init(struct line_editor *le, void (*echo)(const char *s, size_t n))
{
	memset(le, 0, sizeof(*le));
	le->echo = echo;
}

static void le_echo(struct line_editor *le, const char *s)
{
	le->echo(s, strlen(s));
}

/* Wipe the visible line: back to its start, erase to end of line. */
static void le_erase_visible(struct line_editor *le)
{
	for (size_t i = 0; i < le->len; i++)
		le_echo(le, "\b");
	le_echo(le, "\033[K");
}

static void le_replace(struct line_editor *le, const char *text)
{
	le_erase_visible(le);
	le->len = strlen(text);
	memcpy(le->buf, text, le->len + 1);
	le->echo(le->buf, le->len);
}

static void history_add(struct line_editor *le)
{
	if (le->len == 0)
		return;
	if (le->hist_count && strcmp(le->history[le->hist_newest], le->buf) == 0)
		return;
	le->hist_newest = (le->hist_newest + 1) % SHELL_HISTORY;
	memcpy(le->history[le->hist_newest], le->buf, le->len + 1);
	if (le->hist_count < SHELL_HISTORY)
		le->hist_count++;
}

/* Up (dir = +1) shows older entries, down (-1) newer, then an empty line. */
static void history_move(struct line_editor *le, int dir)
{
	int target = le->hist_browse + dir;

	if (target < 0 || target > le->hist_count || le->overlong)
		return;
	le->hist_browse = target;
	if (target == 0) {
		le_replace(le, "");
		return;
	}
	int slot = (le->hist_newest - (target - 1) + SHELL_HISTORY) % SHELL_HISTORY;
	le_replace(le, le->history[slot]);
}

static enum le_result le_escape(struct line_editor *le, int c)
{
	if (le->esc_state == 1) {
		le->esc_state = c == '[' ? 2 : 0;
		return LE_CONTINUE;
	}
	/* Inside ESC [: parameters until a final byte 0x40..0x7e. */
	if (c < 0x40 || c > 0x7e)
		return LE_CONTINUE;
	le->esc_state = 0;
	if (c == 'A')
		history_move(le, +1);
	else if (c == 'B')
		history_move(le, -1);
	return LE_CONTINUE;
}

static void le_reset_line(struct line_editor *le)
{
	le->len = 0;
	le->buf[0] = '\0';
	le->overlong = false;
	le->hist_browse = 0;
}

static enum le_result le_enter(struct line_editor *le)
{
	bool refused = le->overlong;

	le_echo(le, "\n");
	le->buf[le->len] = '\0';
	if (refused) {
		le_reset_line(le);
		return LE_TOO_LONG;
	}
	history_add(le);
	le->line_done = true;
	return LE_LINE;
}

static void le_insert(struct line_editor *le, char c)
{
	if (le->len >= SHELL_LINE_MAX) {
		le->overlong = true;
		return;
	}
	le->buf[le->len++] = c;
	le->buf[le->len] = '\0';
	le->echo(&c, 1);
}

enum le_result le_feed(struct line_editor *le, int c)
{
	bool after_cr = le->last_was_cr;

	if (le->line_done) { /* the caller has used the previous line */
		le->line_done = false;
		le_reset_line(le);
	}

	le->last_was_cr = c == '\r';
	if (le->esc_state)
		return le_escape(le, c);
	switch (c) {
	case '\n':
		if (after_cr)
			return LE_CONTINUE; /* second half of \r\n */
		return le_enter(le);
	case '\r':
		return le_enter(le);
	case 0x03: /* Ctrl-C */
		le_echo(le, "^C\n");
		le_reset_line(le);
		return LE_CANCEL;
	case 0x15: /* Ctrl-U */
		le_erase_visible(le);
		le_reset_line(le);
		return LE_CONTINUE;
	case 0x7f:
	case '\b':
		if (le->len && !le->overlong) {
			le->buf[--le->len] = '\0';
			le_echo(le, "\b \b");
		}
		return LE_CONTINUE;
	case 0x1b:
		le->esc_state = 1;
		return LE_CONTINUE;
	}
	if (c >= 0x20 && c < 0x7f)
		le_insert(le, (char)c);
	return LE_CONTINUE;
}

/*
 * One word of a line, as sh reads it (POSIX XCU 2.2): outside quotes a
 * backslash keeps the next character; '...' keeps everything up to the
 * next '; inside "..." a backslash escapes only $ ` " \ and keeps itself
 * before anything else. The word is written at *w, compacted in place.
 * Example: a\ b'c d'"e\"f" is the one word [a bc de"f].
 * Return: 0, or -1 for a quote left open.
 */
static int split_word(const char **rp, char **wp)
{
	const char *r = *rp;
	char *w = *wp;

	for (; *r && *r != ' ' && *r != '\t'; r++) {
		if (*r == '\\') {
			if (r[1])
				*w++ = *++r;
		} else if (*r == '\'') {
			while (*++r && *r != '\'')
				*w++ = *r;
			if (!*r)
				return -1;
		} else if (*r == '"') {
			while (*++r && *r != '"') {
				if (*r == '\\' && r[1] && strchr("$`\"\\", r[1]))
					r++;
				*w++ = *r;
			}
			if (!*r)
				return -1;
		} else {
			*w++ = *r;
		}
	}
	*rp = r;
	*wp = w;
	return 0;
}

int shell_split(char *line, char **argv, int max_args)
{
	const char *r = line;
	char *w = line;
	int argc = 0;

	for (;;) {
		while (*r == ' ' || *r == '\t')
			r++;
		if (!*r)
			return argc;
		if (argc == max_args) {
			kprintf("error: too many arguments (at most %d)\n", max_args - 1);
			return -1;
		}
		argv[argc++] = w;
		if (split_word(&r, &w)) {
			kprintf("error: unterminated quote; nothing was run\n");
			return -1;
		}
		/* Step over the separator first: the word's NUL may land on it. */
		if (*r)
			r++;
		*w++ = '\0';
	}
}

const struct shell_command *shell_find(const char *name)
{
	for (const struct shell_command *const *c = __start_shell_commands;
	     c < __stop_shell_commands; c++)
		if (strcmp((*c)->name, name) == 0)
			return *c;
	return NULL;
}

/*
 * A word that names a program rather than a command: an absolute path, or
 * a file in /bin (the shell's whole PATH). Programs run through `spawn`,
 * which only the machine's kernel has: elsewhere they stay unknown.
 */
static bool is_program(const char *word)
{
	char path[NAME_MAX + 6];
	struct ramfs_inode *inode;

	if (!shell_find("spawn"))
		return false;
	if (word[0] == '/')
		return true;
	if (strchr(word, '/') || strlen(word) > NAME_MAX)
		return false;
	ksnprintf(path, sizeof(path), "/bin/%s", word);
	return ramfs_lookup(&rootfs, path, true, &inode) == 0 && S_ISREG(inode->mode);
}

/* NAME=VALUE, NAME a shell variable name (POSIX XBD 3.235). */
bool shell_is_assignment(const char *word)
{
	const char *eq = strchr(word, '=');

	if (!eq || eq == word || (word[0] >= '0' && word[0] <= '9'))
		return false;
	for (const char *p = word; p < eq; p++)
		if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9')))
			return false;
	return true;
}

int shell_run_line(const char *line)
{
	char copy[SHELL_LINE_MAX + 1];
	char *argv[SHELL_MAX_ARGS + 2]; /* + "spawn" in front of a program */
	const struct shell_command *cmd;
	int argc, ret, word = 0;
	bool armed;

	if (strlen(line) > SHELL_LINE_MAX) {
		kprintf("error: line too long (at most %d bytes); nothing was run\n",
			SHELL_LINE_MAX);
		return CMD_ERROR;
	}
	memcpy(copy, line, strlen(line) + 1);
	argc = shell_split(copy, argv, SHELL_MAX_ARGS);
	if (argc <= 0)
		return argc < 0 ? CMD_ERROR : CMD_OK;
	argv[argc] = NULL;
	/* sh's "NAME=VALUE program": assignments go to the program's
	 * environment (spawn takes them before the program). */
	while (word < argc - 1 && shell_is_assignment(argv[word]))
		word++;
	cmd = shell_find(argv[word]);
	if (cmd && word) {
		kprintf("error: %s is a built-in command; NAME=VALUE words are for programs\n",
			argv[word]);
		return CMD_ERROR;
	}
	if (!cmd && is_program(argv[word])) {
		/* argv has a slot for it: argc <= SHELL_MAX_ARGS. */
		memmove(argv + 1, argv, (argc + 1) * sizeof(*argv));
		argv[0] = "spawn";
		argc++;
		cmd = shell_find("spawn");
	}
	if (!cmd) {
		kprintf("unknown command '%s'; type 'help' for the list\n", argv[word]);
		return CMD_ERROR;
	}
	/* A nested line (a test running commands) keeps the outer arming. */
	armed = console_intr_arm(true);
	ret = cmd->run(argc, argv);
	console_intr_arm(armed);
	if (ret == CMD_USAGE)
		kprintf("usage: %s\n", cmd->usage);
	return ret;
}

int shell_autorun(const char *script)
{
	char cmd[SHELL_LINE_MAX + 2];
	int failed = 0;

	while (*script) {
		size_t n = 0;
		char quote = 0; /* the open quote, ' or ", or 0 */

		while (*script == ' ' || *script == ';')
			script++;
		for (; script[n] && (quote || script[n] != ';'); n++) {
			if (script[n] == '\\' && quote != '\'' && script[n + 1])
				n++;
			else if (script[n] == quote)
				quote = 0;
			else if (!quote && (script[n] == '"' || script[n] == '\''))
				quote = script[n];
		}
		if (n == 0)
			break;
		if (n > SHELL_LINE_MAX)
			n = SHELL_LINE_MAX + 1; /* shell_run_line refuses it */
		memcpy(cmd, script, n);
		cmd[n] = '\0';
		script += n;
		while (n && cmd[n - 1] == ' ')
			cmd[--n] = '\0';
		kprintf(SHELL_PROMPT "%s\n", cmd);
		if (shell_run_line(cmd) != CMD_OK)
			failed++;
		while (script[0] && script[0] != ';')
			script++; /* the rest of an over-long command */
	}
	return failed;
}

static struct shell_capture *capture;

static void capture_write(struct console *con, const char *s, size_t n)
{
	for (size_t i = 0; i < n && capture->len + 1 < sizeof(capture->text); i++)
		capture->text[capture->len++] = s[i];
	capture->text[capture->len] = '\0';
}

/* The tty's bytes, kept as the kernel's text: ONLCR's CR LF is one '\n'
 * (a CR with no LF after it stays). */
static void capture_write_tty(struct console *con, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n' && capture->len && capture->text[capture->len - 1] == '\r')
			capture->len--;
		capture_write(con, s + i, 1);
	}
}

static struct console capture_console = {
	.name = "capture",
	.write = capture_write,
	.write_tty = capture_write_tty,
};

void shell_capture_start(struct shell_capture *cap)
{
	cap->len = 0;
	cap->text[0] = '\0';
	capture = cap;
	console_redirect(&capture_console);
}

void shell_capture_stop(void)
{
	console_redirect(NULL);
	capture = NULL;
}

int shell_run_captured(struct shell_capture *cap, const char *line)
{
	int ret;

	shell_capture_start(cap);
	ret = shell_run_line(line);
	shell_capture_stop();
	return ret;
}

static int cmd_help(int argc, char **argv)
{
	const struct shell_command *cmd;

	if (argc > 2)
		return CMD_USAGE;
	if (argc == 2) {
		cmd = shell_find(argv[1]);
		if (!cmd) {
			kprintf("help: no command '%s'\n", argv[1]);
			return CMD_ERROR;
		}
		kprintf("usage: %s\n  %s\n", cmd->usage, cmd->help);
		return CMD_OK;
	}
	kprintf("Commands (help COMMAND for usage):\n");
	for (const struct shell_command *const *c = __start_shell_commands;
	     c < __stop_shell_commands; c++)
		kprintf("  %-10s %s\n", (*c)->name, (*c)->help);
	return CMD_OK;
}

DEFINE_SHELL_COMMAND(help, "help [COMMAND]", "list commands, or show one command's usage");

static struct line_editor shell_editor;

void shell_main(void)
{
	le_init(&shell_editor, console_write);
	for (;;) {
		enum le_result r;

		shell_job_notices();
		console_puts(SHELL_PROMPT);
		do
			r = le_feed(&shell_editor, shell_getc());
		while (r == LE_CONTINUE);
		if (r == LE_LINE)
			shell_run_line(shell_editor.buf);
		else if (r == LE_TOO_LONG)
			kprintf("error: line too long (at most %d bytes); nothing was run\n",
				SHELL_LINE_MAX);
	}
}
