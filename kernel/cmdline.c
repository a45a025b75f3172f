/*
 * The boot command line: space-separated words, each `key` or `key=value`;
 * a value may be double-quoted to hold spaces and semicolons, as in
 *     run="test; poweroff" console=serial
 * which parses to {run: "test; poweroff"}, {console: "serial"}. Later
 * words win over earlier ones with the same key (cmdline_get looks from
 * the end), so appending to a command line overrides it. The keys the
 * kernel knows are the ones registered with CMDLINE_KEY(), collected in
 * the "cmdline_keys" section (linker.ld; on the host the linker makes
 * __start_/__stop_ itself).
 */
#include <kernel.h>

struct cmdline boot_cmdline;

/* Weak: a host program may link this file without registering any key. */
extern const struct cmdline_key *const __start_cmdline_keys[] __attribute__((weak));
extern const struct cmdline_key *const __stop_cmdline_keys[] __attribute__((weak));

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static void set_error(struct cmdline *cl, const char *what, const char *at)
{
	ksnprintf(cl->error, sizeof(cl->error), "%s at \"%.20s\"", what, at);
}

/* Copy one word's key into p->key; return the first byte after it. */
static const char *parse_key(struct cmdline *cl, struct cmdline_param *p, const char *s)
{
	size_t n = 0;

	while (*s && !is_blank(*s) && *s != '=') {
		if (n + 1 >= sizeof(p->key)) {
			set_error(cl, "parameter name too long", s - n);
			return NULL;
		}
		p->key[n++] = *s++;
	}
	p->key[n] = '\0';
	return s;
}

/* Copy a value, dropping the quotes; return the first byte after it. */
static const char *parse_value(struct cmdline *cl, struct cmdline_param *p, const char *s)
{
	const char *start = s;
	bool quoted = false;
	size_t n = 0;

	for (; *s && (quoted || !is_blank(*s)); s++) {
		if (*s == '"') {
			quoted = !quoted;
			continue;
		}
		if (n + 1 >= sizeof(p->value)) {
			set_error(cl, "value too long", start);
			return NULL;
		}
		p->value[n++] = *s;
	}
	if (quoted) {
		set_error(cl, "unterminated quote", start);
		return NULL;
	}
	p->value[n] = '\0';
	return s;
}

int cmdline_parse(struct cmdline *cl, const char *text)
{
	const char *s = text;

	cl->nparams = 0;
	cl->error[0] = '\0';
	for (;;) {
		struct cmdline_param *p;

		while (is_blank(*s))
			s++;
		if (!*s)
			return 0;
		if (cl->nparams == CMDLINE_MAX_PARAMS) {
			set_error(cl, "too many parameters", s);
			return -1;
		}
		p = &cl->params[cl->nparams];
		s = parse_key(cl, p, s);
		if (s && *s == '=')
			s = parse_value(cl, p, s + 1);
		else if (s)
			p->value[0] = '\0';
		if (!s)
			return -1;
		if (p->key[0] == '\0') {
			set_error(cl, "missing parameter name", s);
			return -1;
		}
		cl->nparams++;
	}
}

const char *cmdline_get(const struct cmdline *cl, const char *key)
{
	for (int i = cl->nparams - 1; i >= 0; i--)
		if (strcmp(cl->params[i].key, key) == 0)
			return cl->params[i].value;
	return NULL;
}

const struct cmdline_key *cmdline_key_find(const char *name)
{
	for (const struct cmdline_key *const *k = __start_cmdline_keys; k < __stop_cmdline_keys;
	     k++)
		if (strcmp((*k)->name, name) == 0)
			return *k;
	return NULL;
}

const struct cmdline_key *cmdline_key_nth(size_t n)
{
	for (const struct cmdline_key *const *k = __start_cmdline_keys; k < __stop_cmdline_keys;
	     k++)
		if (n-- == 0)
			return *k;
	return NULL;
}
