/*
 * "#!" scripts (Linux: fs/binfmt_script.c). A file that starts with "#!"
 * names its interpreter on its first line, with at most one argument:
 * everything after the name, spaces inside it kept, as one string. exec
 * then runs the interpreter with argv [interpreter, argument (if any),
 * the script's path, the caller's argv[1]...]. Only the first
 * BINPRM_BUF_SIZE bytes are read; a first line longer than that is
 * cut there, unless the interpreter's name itself would be cut: then the
 * file is not a script Linux would run (-ENOEXEC). Example: a file
 * "/t/s" starting "#!/bin/sh -e\n", exec'd with argv {"s", "x"}, runs
 * /bin/sh with {"/bin/sh", "-e", "/t/s", "x"}.
 */
#include <binfmts.h>
#include <errno.h>
#include <kernel.h>

static bool spacetab(char c)
{
	return c == ' ' || c == '\t';
}

/* The first of [first, last) that is not a space or tab, or NULL. */
static const char *next_non_spacetab(const char *first, const char *last)
{
	for (; first < last; first++)
		if (!spacetab(*first))
			return first;
	return NULL;
}

/* The first space, tab or NUL of [first, last), or NULL. */
static const char *next_terminator(const char *first, const char *last)
{
	for (; first < last; first++)
		if (spacetab(*first) || !*first)
			return first;
	return NULL;
}

int script_parse(const char *file, size_t size, struct script_interp *out)
{
	char buf[BINPRM_BUF_SIZE];
	const char *buf_end = buf + sizeof(buf) - 1, *i_end, *i_name, *i_arg = NULL, *i_sep;

	/* Linux: prepare_binprm reads the first bytes, the rest zero. */
	memset(buf, 0, sizeof(buf));
	memcpy(buf, file, MIN(size, sizeof(buf)));
	if (buf[0] != '#' || buf[1] != '!')
		return -ENOEXEC;
	i_end = memchr(buf, '\n', sizeof(buf));
	if (!i_end) {
		/* No newline in the buffer: the line is cut; that is fine
		 * only if the interpreter's name ended before the cut. */
		i_end = next_non_spacetab(buf + 2, buf_end);
		if (!i_end || !next_terminator(i_end, buf_end))
			return -ENOEXEC;
		i_end = buf_end;
	}
	while (i_end > buf + 2 && spacetab(i_end[-1]))
		i_end--;
	i_name = next_non_spacetab(buf + 2, i_end);
	if (!i_name)
		return -ENOEXEC; /* no interpreter name */
	i_sep = next_terminator(i_name, i_end);
	if (i_sep && *i_sep)
		i_arg = next_non_spacetab(i_sep, i_end);
	if (!i_sep)
		i_sep = i_end;
	memset(out, 0, sizeof(*out));
	memcpy(out->name, i_name, (size_t)(i_sep - i_name));
	if (i_arg) {
		memcpy(out->arg, i_arg, (size_t)(i_end - i_arg));
		out->has_arg = true;
	}
	return 0;
}
