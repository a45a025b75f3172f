/*
 * ktap: check the KTAP version 1 stream in a serial log and summarise it.
 *
 * Everything before the first top-level "KTAP version 1" is boot noise. After
 * it each line is classified (version, plan, result, diagnostic, blank or
 * noise) and its level is its indentation / 4. A stack holds the open tests:
 * a result one level up closes the innermost, e.g. "    ok 3 c" followed by
 * "not ok 1 string" closes suite "string" after checking its "1..3".
 * Exit: 0 all passed, 1 a test failed, 2 stream missing, cut or malformed.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum kind {
	K_NOISE,
	K_BLANK,
	K_VERSION,
	K_PLAN,
	K_RESULT,
	K_SUBTEST,
	K_DIAG,
	K_BAILOUT
};
enum directive { D_NONE, D_SKIP, D_TODO };

struct strvec {
	char **v;
	size_t n, cap;
};

/* One classified input line; name and text point into the line buffer. */
struct line {
	enum kind kind;
	int level, indent;
	char *text; /* the line without its indentation */
	bool ok;
	long num;   /* result number or planned count */
	char *name; /* result description or subtest name */
	enum directive dir;
};

/* A test that has subtests: the root stream or a suite. */
struct node {
	struct node *parent;
	char *name; /* NULL until "# Subtest:" or its result line */
	int level, start_line;
	long plan; /* -1 until a plan line */
	long count, last_num;
	long nfailed;	    /* failures anywhere below this node */
	struct strvec diag; /* '#' lines since this level's last result */
};

struct failure {
	struct node *suite;
	char *name;
	struct strvec diag;
};

struct ktap {
	struct node *root, *top;
	long passed, failed, skipped, noise, lineno;
	bool verbose, done;
	struct strvec errors;
	struct failure *fails;
	size_t nfails, capfails;
	char *panic; /* first noise line that looks like a panic */
	long panic_line;
};

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		fputs("ktap: out of memory\n", stderr);
		exit(2);
	}
	return p;
}

static char *xstrdup(const char *s)
{
	return strcpy(xrealloc(NULL, strlen(s) + 1), s);
}

static void strvec_push(struct strvec *sv, char *s)
{
	if (sv->n == sv->cap) {
		sv->cap = sv->cap ? 2 * sv->cap : 8;
		sv->v = xrealloc(sv->v, sv->cap * sizeof(*sv->v));
	}
	sv->v[sv->n++] = s;
}

/* Move every string of src to the end of dst. */
static void strvec_splice(struct strvec *dst, struct strvec *src)
{
	size_t i;

	for (i = 0; i < src->n; i++)
		strvec_push(dst, src->v[i]);
	free(src->v);
	memset(src, 0, sizeof(*src));
}

/* Hand the pending diagnostics over to the caller and start a fresh list. */
static struct strvec strvec_take(struct strvec *sv)
{
	struct strvec taken = *sv;

	memset(sv, 0, sizeof(*sv));
	return taken;
}

static void error(struct ktap *k, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = xstrdup("(out of memory)");
	va_end(ap);
	strvec_push(&k->errors, msg);
}

/* Print "a.b.c" for a node; the root has no name and prints nothing. */
static void print_path(FILE *f, const struct node *n)
{
	if (!n || !n->parent)
		return;
	print_path(f, n->parent);
	if (n->parent->parent)
		fputc('.', f);
	if (n->name)
		fputs(n->name, f);
	else
		fprintf(f, "(line %d)", n->start_line);
}

/* "top level" or "suite \"a.b\"", for error messages. */
static char *describe(const struct node *n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return xstrdup("suite");
	if (!n->parent) {
		fputs("top level", f);
	} else {
		fputs("suite \"", f);
		print_path(f, n);
		fputc('"', f);
	}
	fclose(f);
	return buf;
}

/* "[    0.123456] " printk timestamps hide the indentation; drop them. */
static char *strip_timestamp(char *s)
{
	char *p = s + 1;

	if (*s != '[')
		return s;
	while (*p == ' ' || *p == '.' || isdigit((unsigned char)*p))
		p++;
	if (*p != ']' || p == s + 1)
		return s;
	p++;
	return *p == ' ' ? p + 1 : p;
}

static bool parse_number(char **pp, long *out)
{
	char *end;

	if (!isdigit((unsigned char)**pp))
		return false;
	*out = strtol(*pp, &end, 10);
	*pp = end;
	return true;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		*--e = '\0';
	return s;
}

/*
 * Split "name # SKIP reason" at the first '#' that starts a directive; a '#'
 * elsewhere belongs to the description. "ok 1 - name" is TAP14 style.
 */
static void parse_description(struct line *l, char *s)
{
	char *hash;

	for (hash = strchr(s, '#'); hash; hash = strchr(hash + 1, '#')) {
		char *d = trim(hash + 1);

		if (!strncasecmp(d, "SKIP", 4))
			l->dir = D_SKIP;
		else if (!strncasecmp(d, "TODO", 4) ||
			 !strncasecmp(d, "XFAIL", 5))
			l->dir = D_TODO;
		else
			continue;
		*hash = '\0';
		break;
	}
	s = trim(s);
	if (s[0] == '-' && s[1] == ' ')
		s = trim(s + 2);
	l->name = s;
}

static bool parse_result(struct line *l, char *s)
{
	if (!strncmp(s, "ok ", 3)) {
		l->ok = true;
		s += 3;
	} else if (!strncmp(s, "not ok ", 7)) {
		s += 7;
	} else {
		return false;
	}
	if (!parse_number(&s, &l->num) || (*s && *s != ' '))
		return false;
	parse_description(l, s);
	l->kind = K_RESULT;
	return true;
}

static bool parse_plan(struct line *l, char *s)
{
	if (strncmp(s, "1..", 3))
		return false;
	s += 3;
	if (!parse_number(&s, &l->num))
		return false;
	s = trim(s);
	if (*s && *s != '#')
		return false;
	l->kind = K_PLAN;
	return true;
}

static enum kind classify_text(struct line *l, char *s)
{
	if (!*s)
		return K_BLANK;
	if (!strcmp(s, "KTAP version 1") || !strcmp(s, "TAP version 14") ||
	    !strcmp(s, "TAP version 13"))
		return K_VERSION;
	if (parse_plan(l, s) || parse_result(l, s))
		return l->kind;
	if (!strncmp(s, "# Subtest:", 10)) {
		l->name = trim(s + 10);
		return K_SUBTEST;
	}
	if (*s == '#')
		return K_DIAG;
	if (!strncmp(s, "Bail out!", 9))
		return K_BAILOUT;
	return K_NOISE;
}

/* KTAP nests by exactly four spaces per level; anything else is noise. */
static void classify(struct line *l, char *raw)
{
	char *s = strip_timestamp(raw);
	int indent = 0;

	memset(l, 0, sizeof(*l));
	while (s[indent] == ' ')
		indent++;
	l->text = s + indent;
	l->indent = indent;
	l->level = indent / 4;
	l->kind = classify_text(l, l->text);
	if (l->kind != K_BLANK && indent % 4)
		l->kind = K_NOISE;
}

static struct node *push_node(struct ktap *k, int level, const char *name)
{
	struct node *n = xrealloc(NULL, sizeof(*n));

	memset(n, 0, sizeof(*n));
	n->parent = k->top;
	n->level = level;
	n->start_line = k->lineno;
	n->plan = -1;
	n->name = name && *name ? xstrdup(name) : NULL;
	k->top = n;
	return n;
}

static void add_failure(struct ktap *k, struct node *suite, const char *name)
{
	struct failure *f;
	struct node *n;

	if (k->nfails == k->capfails) {
		k->capfails = k->capfails ? 2 * k->capfails : 16;
		k->fails = xrealloc(k->fails, k->capfails * sizeof(*f));
	}
	f = &k->fails[k->nfails++];
	f->suite = suite;
	f->name = xstrdup(name && *name ? name : "(unnamed)");
	f->diag = strvec_take(&suite->diag);
	k->failed++;
	for (n = suite; n; n = n->parent)
		n->nfailed++;
}

/* Check a result's number against its siblings; "1, 2, 2" or "1, 3" fail. */
static void count_result(struct ktap *k, struct node *n, long num)
{
	char *who = describe(n);

	if (num == n->last_num)
		error(k, "%s: duplicate test number %ld at line %ld", who, num,
		      k->lineno);
	else if (num != n->last_num + 1)
		error(k,
		      "%s: test number %ld out of order (expected %ld) at line "
		      "%ld",
		      who, num, n->last_num + 1, k->lineno);
	free(who);
	n->last_num = num;
	n->count++;
}

/* A result for a test without subtests: a case, counted in the summary. */
static void leaf_result(struct ktap *k, struct node *parent, struct line *l)
{
	count_result(k, parent, l->num);
	if (l->dir == D_SKIP || (l->dir == D_TODO && !l->ok)) {
		k->skipped++;
	} else if (l->ok) {
		k->passed++;
	} else {
		add_failure(k, parent, l->name);
		return;
	}
	free(strvec_take(&parent->diag).v);
}

/* Why a node is incomplete: missing plan or a result count off the plan. */
static void check_plan(struct ktap *k, struct node *n, const char *where)
{
	char *who = describe(n);

	if (n->plan < 0)
		error(k, "%s: no plan line (test starts at line %d, %s)", who,
		      n->start_line, where);
	else if (n->count != n->plan)
		error(k, "%s: planned %ld tests, got %ld (%s)", who, n->plan,
		      n->count, where);
	free(who);
}

/* The suite's own "ok"/"not ok" line: it must agree with its children. */
static void close_suite(struct ktap *k, struct node *n, struct line *l)
{
	struct node *parent = n->parent;
	char where[64], *who;

	if (!n->name && *l->name)
		n->name = xstrdup(l->name);
	snprintf(where, sizeof(where), "result at line %ld", k->lineno);
	check_plan(k, n, where);
	k->top = parent;
	count_result(k, parent, l->num);
	if (l->ok && l->dir == D_NONE && n->nfailed) {
		who = describe(n);
		error(k,
		      "%s: reported ok at line %ld but %ld test(s) in it "
		      "failed",
		      who, k->lineno, n->nfailed);
		free(who);
	} else if (!l->ok && l->dir == D_NONE && !n->nfailed) {
		/* the suite itself failed (e.g. its init): show its own notes
		 */
		strvec_splice(&n->diag, &parent->diag);
		parent->diag = strvec_take(&n->diag);
		add_failure(k, parent, n->name ? n->name : l->name);
		return;
	} else if (l->dir == D_SKIP && n->count == 0) {
		k->skipped++;
	}
	free(strvec_take(&parent->diag).v);
}

/* A result line at `level`: closes every deeper node, reporting the gaps. */
static void on_result(struct ktap *k, struct line *l)
{
	while (k->top->level > l->level + 1) {
		char *who = describe(k->top);

		error(k, "%s: no result line before line %ld", who, k->lineno);
		free(who);
		k->top = k->top->parent;
	}
	if (k->top->level == l->level + 1)
		close_suite(k, k->top, l);
	else if (k->top->level == l->level)
		leaf_result(k, k->top, l);
	else
		error(k,
		      "line %ld: result \"%s\" indented deeper than its test",
		      k->lineno, l->text);
}

static void on_version(struct ktap *k, struct line *l)
{
	struct node *top = k->top;

	if (l->level == top->level + 1)
		push_node(k, l->level, NULL);
	else if (l->level == 0)
		k->done = true; /* a second run: the first one is the report */
	else if (!(l->level == top->level && top->parent && !top->count &&
		   top->plan < 0))
		error(k, "line %ld: unexpected version line", k->lineno);
}

static void on_subtest(struct ktap *k, struct line *l)
{
	struct node *top = k->top;

	if (l->level == top->level + 1)
		push_node(k, l->level, l->name);
	else if (l->level == top->level && top->parent && !top->name &&
		 !top->count)
		top->name = xstrdup(l->name);
	else
		error(k, "line %ld: unexpected \"# Subtest:\" line", k->lineno);
}

static void on_plan(struct ktap *k, struct line *l)
{
	struct node *top = k->top;

	if (l->level == top->level + 1)
		top = push_node(k, l->level, NULL);
	if (l->level != top->level) {
		error(k, "line %ld: plan \"%s\" at the wrong indentation",
		      k->lineno, l->text);
	} else if (top->plan >= 0) {
		error(k, "line %ld: second plan line", k->lineno);
	} else {
		top->plan = l->num;
		free(strvec_take(&top->diag).v); /* header, not a case's */
	}
}

/* Diagnostics belong to the open node at their level, else to the top. */
static void on_diag(struct ktap *k, struct line *l)
{
	struct node *n = k->top;

	while (n->parent && n->level > l->level)
		n = n->parent;
	strvec_push(&n->diag, xstrdup(l->text));
}

/*
 * Noise indented at least as deep as the open suite is most likely its own
 * output (a multi-line message printed without '#'): keep it as diagnostics,
 * with the indentation it has relative to the suite.
 */
static void on_noise(struct ktap *k, struct line *l)
{
	struct node *top = k->top;

	if (top->parent && l->indent >= 4 * top->level)
		strvec_push(&top->diag,
			    xstrdup(l->text - (l->indent - 4 * top->level)));
	k->noise++;
	if (k->verbose)
		printf("ktap: line %ld: not KTAP, ignored: %s\n", k->lineno,
		       l->text);
	if (!k->panic &&
	    (strcasestr(l->text, "panic") || strstr(l->text, "Oops"))) {
		k->panic = xstrdup(l->text);
		k->panic_line = k->lineno;
	}
}

static void process_line(struct ktap *k, char *raw)
{
	struct line l;

	classify(&l, raw);
	if (!k->root) {
		if (l.kind == K_VERSION && l.level == 0)
			k->root = push_node(k, 0, NULL);
		return;
	}
	switch (l.kind) {
	case K_VERSION:
		on_version(k, &l);
		break;
	case K_SUBTEST:
		on_subtest(k, &l);
		break;
	case K_PLAN:
		on_plan(k, &l);
		break;
	case K_RESULT:
		on_result(k, &l);
		break;
	case K_DIAG:
		on_diag(k, &l);
		break;
	case K_NOISE:
		on_noise(k, &l);
		break;
	case K_BLANK:
		break;
	case K_BAILOUT:
		error(k, "line %ld: %s", k->lineno, l.text);
		k->done = true;
		break;
	}
}

/* Remove every CR: serial consoles end lines with \r\n. */
static void strip_cr(char *s)
{
	char *d = s;

	for (; *s; s++)
		if (*s != '\r' && *s != '\n')
			*d++ = *s;
	*d = '\0';
}

static void read_stream(struct ktap *k, FILE *f)
{
	char *buf = NULL;
	size_t cap = 0;

	while (getline(&buf, &cap, f) >= 0) {
		k->lineno++;
		strip_cr(buf);
		if (!k->done)
			process_line(k, buf);
	}
	free(buf);
}

/* At the end of the log every open node must be complete. */
static void check_end(struct ktap *k)
{
	char where[512];
	struct node *n;

	if (k->panic)
		snprintf(where, sizeof(where),
			 "log ends at line %ld, after \"%.200s\" at line %ld",
			 k->lineno, k->panic, k->panic_line);
	else
		snprintf(where, sizeof(where), "log ends at line %ld",
			 k->lineno);
	/* the innermost test names the crash; the outer ones just end */
	for (n = k->top; n->parent; n = n->parent) {
		char *who = describe(n);

		if (n->plan >= 0 && n->count == n->plan)
			error(k, "%s: no result line (%s)", who, where);
		else
			check_plan(k, n, where);
		free(who);
		snprintf(where, sizeof(where), "log ends at line %ld",
			 k->lineno);
	}
	check_plan(k, k->root, where);
}

static void print_failures(const struct ktap *k)
{
	size_t i, j;

	for (i = 0; i < k->nfails; i++) {
		const struct failure *f = &k->fails[i];

		fputs("FAIL ", stdout);
		print_path(stdout, f->suite);
		printf("%s%s\n", f->suite->parent ? "." : "", f->name);
		for (j = 0; j < f->diag.n; j++)
			printf("    %s\n", f->diag.v[j]);
	}
}

static int usage(void)
{
	fputs("usage: ktap [-v] [--expect-suites N] FILE|-\n", stderr);
	return 2;
}

static int report(struct ktap *k, const char *fname, long expect_suites)
{
	size_t i;

	if (!k->root) {
		error(k, "no 'KTAP version 1' line in %s", fname);
	} else {
		check_end(k);
		if (expect_suites >= 0 && k->root->plan != expect_suites)
			error(k, "top level: planned %ld suites, expected %ld",
			      k->root->plan, expect_suites);
	}
	print_failures(k);
	if (k->verbose)
		printf("ktap: %ld non-KTAP lines ignored inside the stream\n",
		       k->noise);
	printf("ktap: %ld passed, %ld failed, %ld skipped\n", k->passed,
	       k->failed, k->skipped);
	for (i = 0; i < k->errors.n; i++)
		printf("ktap: error: %s\n", k->errors.v[i]);
	if (k->errors.n)
		return 2;
	return k->failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct ktap k = {0};
	long expect_suites = -1;
	const char *fname = NULL;
	FILE *f = stdin;
	char *end;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-v")) {
			k.verbose = true;
		} else if (!strcmp(argv[i], "--expect-suites") &&
			   i + 1 < argc) {
			expect_suites = strtol(argv[++i], &end, 10);
			if (*end || end == argv[i] || expect_suites < 0)
				return usage();
		} else if (fname || (argv[i][0] == '-' && argv[i][1])) {
			return usage();
		} else {
			fname = argv[i];
		}
	}
	if (!fname)
		return usage();
	if (strcmp(fname, "-") && !(f = fopen(fname, "r"))) {
		fprintf(stderr, "ktap: %s: %m\n", fname);
		return 2;
	}
	read_stream(&k, f);
	return report(&k, strcmp(fname, "-") ? fname : "stdin", expect_suites);
}
