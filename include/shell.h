/*
 * The serial/framebuffer shell: a line editor, a command registry and the
 * autorun of `run="CMD; CMD"` from the command line. Commands live in
 * files named cmd_<subject>.c (shell/, or arch/x86_64/ for the ones that
 * need the machine), never in the subsystem they drive, and register
 * themselves with SHELL_COMMAND(); the shell only knows the table.
 */
#ifndef FOLIUM_SHELL_H
#define FOLIUM_SHELL_H

#include <kernel.h>

#define SHELL_PROMPT "folium> "
#define SHELL_MAX_ARGS 32
#define SHELL_LINE_MAX CONFIG_SHELL_LINE_MAX
#define SHELL_HISTORY CONFIG_SHELL_HISTORY

/* Return values of a command's run(). */
#define CMD_OK 0
#define CMD_ERROR 1 /* the command printed what went wrong */
#define CMD_USAGE 2 /* bad arguments: the shell prints the usage line */

struct shell_command {
	const char *name;
	const char *usage; /* e.g. "test [SUITE | --list]" */
	const char *help;  /* one line for `help` */
	int (*run)(int argc, char **argv);
};

#define SHELL_COMMAND(var)                                   \
	static const struct shell_command *__shell_ptr_##var \
		__attribute__((used, section("shell_commands"))) = &(var)

/* Define and register command `name` whose run() is cmd_<name>. */
#define DEFINE_SHELL_COMMAND(cmdname, use, text)                \
	static const struct shell_command cmdname##_command = { \
		.name = #cmdname,                               \
		.usage = use,                                   \
		.help = text,                                   \
		.run = cmd_##cmdname,                           \
	};                                                      \
	SHELL_COMMAND(cmdname##_command)

/* Line editing, as a state machine so it can be tested without a tty. */
enum le_result {
	LE_CONTINUE, /* keep feeding */
	LE_LINE,     /* le->buf holds a complete line */
	LE_CANCEL,   /* Ctrl-C: line dropped */
	LE_TOO_LONG, /* Enter after an over-long line: refused */
};

struct line_editor {
	char buf[SHELL_LINE_MAX + 1];
	size_t len;
	bool overlong;	  /* typed past SHELL_LINE_MAX: refuse at Enter */
	bool line_done;	  /* buf holds a finished line until next feed */
	bool last_was_cr; /* swallow the \n of a \r\n pair */
	int esc_state;	  /* 0 none, 1 after ESC, 2 inside ESC [ */
	char history[SHELL_HISTORY][SHELL_LINE_MAX + 1];
	int hist_count;	 /* entries stored, up to SHELL_HISTORY */
	int hist_newest; /* slot of the newest entry */
	int hist_browse; /* 0: editing; n: showing the nth newest */
	void (*echo)(const char *s, size_t n);
};

void le_init(struct line_editor *le, void (*echo)(const char *s, size_t n));
/* Feed one input byte. After LE_LINE, buf stays valid until the next call.
 * Context: editor state only; echo goes through le->echo. */
enum le_result le_feed(struct line_editor *le, int c);

/* Split line in place into argv as sh splits words: blanks separate,
 * '...' and "..." quote, backslash escapes (in "..." only $ ` " \).
 * Return: argc, or -1 with a message printed (too many words, a quote
 * left open). */
int shell_split(char *line, char **argv, int max_args);
/* Whether word is a NAME=VALUE assignment, as sh sees one. */
bool shell_is_assignment(const char *word);
/* Run one command line. Return: the command's result, CMD_ERROR for an
 * unknown command, CMD_OK for an empty line. */
int shell_run_line(const char *line);
/* Run "CMD; CMD; ..." in order, echoing each after the prompt as if typed
 * (a ';' inside quotes or after a backslash does not separate).
 * Return: the number of commands that failed. */
int shell_autorun(const char *script);
/* The interactive loop: never returns. */
void shell_main(void) __attribute__((noreturn));
/* --- shell/jobs.c: the background jobs ----------------------------------- */
/* A key for the interactive shell, reaping its ended background jobs
 * while it waits; the notices of those, for the prompt. */
int shell_getc(void);
void shell_job_notices(void);
/* The queued notices, then the other ended children reaped and told. */
void shell_report_jobs(void);
/* Linux's name of a standard signal ("SIGTERM"), "an unknown signal"
 * for another number. */
const char *shell_signal_name(int sig);
const struct shell_command *shell_find(const char *name);

/* Console output captured in memory, e.g. for tests of commands; a
 * tty's CR LF is kept as "\n". */
struct shell_capture {
	char text[2048]; /* NUL-terminated; output beyond it is dropped */
	size_t len;
};
/* Send all console output to cap (emptied first) until shell_capture_stop. */
void shell_capture_start(struct shell_capture *cap);
void shell_capture_stop(void);
/* Run one line with its output captured. Return: shell_run_line's result. */
int shell_run_captured(struct shell_capture *cap, const char *line);

/* shell/cmd_vm.c: the shell's address space (vmas, map, poke, usemem,
 * madvise...): created on node 0 at first use and made current.
 * Return: NULL when memory is short. */
struct mm_struct;
struct mm_struct *shell_mm(void);

#endif
