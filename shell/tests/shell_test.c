/*
 * The shell as a user meets it: line editing keys, history, refusing an
 * over-long line, argument splitting, unknown commands and usage errors.
 * Echo and command output are captured (a recording echo hook and a
 * capture console) and compared with what a terminal would show.
 */
#include <ktest.h>
#include <shell.h>

static char echoed[4 * SHELL_LINE_MAX];
static size_t echoed_len;

static void record_echo(const char *s, size_t n)
{
	for (size_t i = 0; i < n && echoed_len + 1 < sizeof(echoed); i++)
		echoed[echoed_len++] = s[i];
	echoed[echoed_len] = '\0';
}

static struct line_editor le;

static enum le_result feed(const char *keys)
{
	enum le_result r = LE_CONTINUE;

	for (; *keys; keys++)
		r = le_feed(&le, (unsigned char)*keys);
	return r;
}

static int shell_test_init(struct kunit *test)
{
	le_init(&le, record_echo);
	echoed_len = 0;
	echoed[0] = '\0';
	return 0;
}

static void typed_line_is_echoed_and_returned(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, feed("help\r"), LE_LINE);
	KUNIT_EXPECT_STREQ(test, le.buf, "help");
	KUNIT_EXPECT_STREQ(test, echoed, "help\n");
}

static void crlf_counts_as_one_enter(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, feed("a\r"), LE_LINE);
	KUNIT_EXPECT_EQ(test, le_feed(&le, '\n'), LE_CONTINUE);
	KUNIT_EXPECT_EQ(test, feed("\n"), LE_LINE); /* a lone \n is Enter */
}

static void backspace_erases_one_character(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, feed("helpx\x7f\r"), LE_LINE);
	KUNIT_EXPECT_STREQ(test, le.buf, "help");
	KUNIT_EXPECT_NOT_NULL(test, strstr(echoed, "x\b \b"));
	shell_test_init(test);
	KUNIT_EXPECT_EQ(test, feed("\x7f\x7f\r"), LE_LINE); /* on empty line */
	KUNIT_EXPECT_STREQ(test, le.buf, "");
}

static void ctrl_u_erases_the_line(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, feed("garbage\x15mem\r"), LE_LINE);
	KUNIT_EXPECT_STREQ(test, le.buf, "mem");
	KUNIT_EXPECT_NOT_NULL(test, strstr(echoed, "\033[K"));
}

static void ctrl_c_cancels_the_line(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, feed("poweroff\x03"), LE_CANCEL);
	KUNIT_EXPECT_EQ(test, le.len, 0);
	KUNIT_EXPECT_NOT_NULL(test, strstr(echoed, "^C\n"));
}

static void up_and_down_walk_the_history(struct kunit *test)
{
	feed("first\r");
	feed("second\r");
	KUNIT_EXPECT_EQ(test, feed("\033[A\r"), LE_LINE);
	KUNIT_EXPECT_STREQ(test, le.buf, "second");
	KUNIT_EXPECT_EQ(test, feed("\033[A\033[A\033[A\r"), LE_LINE);
	KUNIT_EXPECT_STREQ(test, le.buf, "first"); /* stops at the oldest */
	KUNIT_EXPECT_EQ(test, feed("\033[A\033[B\033[B\r"), LE_LINE);
	KUNIT_EXPECT_STREQ(test, le.buf, ""); /* down past newest: empty */
}

static void history_keeps_only_the_newest_entries(struct kunit *test)
{
	char line[16];

	for (int i = 0; i < SHELL_HISTORY + 3; i++) {
		ksnprintf(line, sizeof(line), "cmd%d\r", i);
		feed(line);
	}
	for (int i = 0; i < SHELL_HISTORY + 5; i++)
		feed("\033[A");
	KUNIT_EXPECT_EQ(test, feed("\r"), LE_LINE);
	ksnprintf(line, sizeof(line), "cmd%d", 3);
	KUNIT_EXPECT_STREQ(test, le.buf, line);
}

static void overlong_line_is_refused_not_truncated(struct kunit *test)
{
	for (int i = 0; i < SHELL_LINE_MAX + 10; i++)
		le_feed(&le, 'a');
	KUNIT_EXPECT_EQ(test, le.len, SHELL_LINE_MAX); /* never overflows */
	KUNIT_EXPECT_EQ(test, feed("\r"), LE_TOO_LONG);
	KUNIT_EXPECT_EQ(test, le.len, 0);
	KUNIT_EXPECT_EQ(test, feed("ok\r"), LE_LINE); /* editor recovers */
	KUNIT_EXPECT_STREQ(test, le.buf, "ok");
}

static void unknown_escape_sequences_are_swallowed(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, feed("a\033[1;5Db\033Oc\r"), LE_LINE);
	KUNIT_EXPECT_STREQ(test, le.buf, "abc"); /* ESC O is a 2-byte escape */
}

static struct shell_capture out;

static void split_handles_spaces_and_quotes(struct kunit *test)
{
	char line[] = "  usemem  \"16 M\"\tseq  ";
	char *argv[SHELL_MAX_ARGS];

	KUNIT_ASSERT_EQ(test, shell_split(line, argv, SHELL_MAX_ARGS), 3);
	KUNIT_EXPECT_STREQ(test, argv[0], "usemem");
	KUNIT_EXPECT_STREQ(test, argv[1], "16 M");
	KUNIT_EXPECT_STREQ(test, argv[2], "seq");
}

/* POSIX sh quoting: the words a program would get from sh for the line. */
static void split_quotes_and_escapes_as_sh_does(struct kunit *test)
{
	char line[] = "a\\ b'c d'\"e\\\"f\" '' \"x\\ny\" 'it\\''s' \\\"q";
	char *argv[SHELL_MAX_ARGS];

	KUNIT_ASSERT_EQ(test, shell_split(line, argv, SHELL_MAX_ARGS), 5);
	KUNIT_EXPECT_STREQ(test, argv[0], "a bc de\"f");
	KUNIT_EXPECT_STREQ(test, argv[1], "");	    /* '' is an empty word */
	KUNIT_EXPECT_STREQ(test, argv[2], "x\\ny"); /* \n stays in "..." */
	KUNIT_EXPECT_STREQ(test, argv[3], "it\\s"); /* no escape in '...' */
	KUNIT_EXPECT_STREQ(test, argv[4], "\"q");
}

static void split_refuses_an_open_quote(struct kunit *test)
{
	char single[] = "echo 'abc", dbl[] = "echo \"abc\\\"";
	char *argv[SHELL_MAX_ARGS];

	shell_capture_start(&out);
	KUNIT_EXPECT_EQ(test, shell_split(single, argv, SHELL_MAX_ARGS), -1);
	KUNIT_EXPECT_EQ(test, shell_split(dbl, argv, SHELL_MAX_ARGS), -1);
	shell_capture_stop();
	KUNIT_EXPECT_NOT_NULL(test, strstr(out.text, "unterminated quote"));
}

static int run_captured(const char *line)
{
	return shell_run_captured(&out, line);
}

static void unknown_command_points_to_help(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, run_captured("frobnicate now"), CMD_ERROR);
	KUNIT_EXPECT_NOT_NULL(test, strstr(out.text, "unknown command 'frobnicate'"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(out.text, "help"));
}

static void bad_arguments_print_usage(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, run_captured("help a b"), CMD_USAGE);
	KUNIT_EXPECT_NOT_NULL(test, strstr(out.text, "usage: help [COMMAND]"));
	KUNIT_EXPECT_EQ(test, run_captured("help nosuch"), CMD_ERROR);
	KUNIT_EXPECT_NOT_NULL(test, strstr(out.text, "no command 'nosuch'"));
}

static void help_lists_registered_commands(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, run_captured("help"), CMD_OK);
	KUNIT_EXPECT_NOT_NULL(test, strstr(out.text, "  help "));
	KUNIT_EXPECT_EQ(test, run_captured("   "), CMD_OK); /* empty line */
	KUNIT_EXPECT_EQ(test, out.len, 0);
}

static void too_many_arguments_are_refused(struct kunit *test)
{
	KUNIT_EXPECT_EQ(
		test,
		run_captured("help 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 "
			     "23 24 25 26 27 28 29 30 31 32 33"),
		CMD_ERROR);
	KUNIT_EXPECT_NOT_NULL(test, strstr(out.text, "too many arguments"));
}

static void assignments_are_for_programs_only(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, shell_is_assignment("PATH=/bin"));
	KUNIT_EXPECT_TRUE(test, shell_is_assignment("_x1="));
	KUNIT_EXPECT_FALSE(test, shell_is_assignment("1x=2"));
	KUNIT_EXPECT_FALSE(test, shell_is_assignment("=2"));
	KUNIT_EXPECT_FALSE(test, shell_is_assignment("a-b=2"));
	KUNIT_EXPECT_FALSE(test, shell_is_assignment("/bin/x=1"));
	KUNIT_EXPECT_EQ(test, run_captured("A=1 help"), CMD_ERROR);
	KUNIT_EXPECT_NOT_NULL(test, strstr(out.text, "help is a built-in command"));
	/* A lone assignment is a word like any other: no such command. */
	KUNIT_EXPECT_EQ(test, run_captured("A=1"), CMD_ERROR);
	KUNIT_EXPECT_NOT_NULL(test, strstr(out.text, "unknown command 'A=1'"));
}

static void autorun_keeps_quoted_semicolons(struct kunit *test)
{
	shell_capture_start(&out);
	KUNIT_EXPECT_EQ(test, shell_autorun("help 'a;b'; help \"c;d\"; help e\\;f"), 3);
	shell_capture_stop();
	KUNIT_EXPECT_NOT_NULL(test, strstr(out.text, "no command 'a;b'"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(out.text, "no command 'c;d'"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(out.text, "no command 'e;f'"));
}

static void autorun_echoes_and_runs_each_command(struct kunit *test)
{
	int failed;

	shell_capture_start(&out);
	failed = shell_autorun(" help help ;nosuch; ;help");
	shell_capture_stop();
	KUNIT_EXPECT_EQ(test, failed, 1);
	KUNIT_EXPECT_NOT_NULL(test, strstr(out.text, SHELL_PROMPT "help help\nusage: help"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(out.text, SHELL_PROMPT "nosuch\nunknown command"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(out.text, SHELL_PROMPT "help\nCommands"));
}

/* Ctrl-C while a command runs is noted for it, not queued: bench stops
 * before its first benchmark and says so. Unarmed, ^C is the editor's byte.
 * (In the kernel `test` itself is an armed command: its arming is kept.) */
static void ctrl_c_stops_a_running_command(struct kunit *test)
{
	bool was = console_intr_arm(true);

	console_input(0x03);
	KUNIT_EXPECT_TRUE(test, console_interrupted());
	KUNIT_EXPECT_EQ(test, console_trygetc(), -1);
	KUNIT_EXPECT_EQ(test, run_captured("bench alloc"), CMD_ERROR);
	KUNIT_EXPECT_NOT_NULL(test, strstr(out.text, "bench: interrupted before alloc"));
	console_intr_arm(false); /* forget it, so later commands run */
	KUNIT_EXPECT_FALSE(test, console_interrupted());
	console_input(0x03);
	KUNIT_EXPECT_FALSE(test, console_interrupted());
	KUNIT_EXPECT_EQ(test, console_trygetc(), 0x03);
	console_intr_arm(was);
}

static struct kunit_case shell_cases[] = {
	KUNIT_CASE(typed_line_is_echoed_and_returned),
	KUNIT_CASE(crlf_counts_as_one_enter),
	KUNIT_CASE(backspace_erases_one_character),
	KUNIT_CASE(ctrl_u_erases_the_line),
	KUNIT_CASE(ctrl_c_cancels_the_line),
	KUNIT_CASE(up_and_down_walk_the_history),
	KUNIT_CASE(history_keeps_only_the_newest_entries),
	KUNIT_CASE(overlong_line_is_refused_not_truncated),
	KUNIT_CASE(unknown_escape_sequences_are_swallowed),
	KUNIT_CASE(split_handles_spaces_and_quotes),
	KUNIT_CASE(unknown_command_points_to_help),
	KUNIT_CASE(bad_arguments_print_usage),
	KUNIT_CASE(help_lists_registered_commands),
	KUNIT_CASE(too_many_arguments_are_refused),
	KUNIT_CASE(split_quotes_and_escapes_as_sh_does),
	KUNIT_CASE(split_refuses_an_open_quote),
	KUNIT_CASE(autorun_echoes_and_runs_each_command),
	KUNIT_CASE(autorun_keeps_quoted_semicolons),
	KUNIT_CASE(assignments_are_for_programs_only),
	KUNIT_CASE(ctrl_c_stops_a_running_command),
	{},
};

static struct kunit_suite shell_suite = {
	.name = "shell",
	.init = shell_test_init,
	.test_cases = shell_cases,
};
kunit_test_suite(shell_suite);
