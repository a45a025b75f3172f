/*
 * benchrec: check the bench records in logs and turn them into CSV.
 *
 * A record (include/benchrec.h is the contract) is "@bench NAME", "@env k=v...",
 * "@cols name[unit]...", any number of "@row v...", then "@end NAME ROWS HASH";
 * lines not starting with '@' are noise. ROWS and HASH (FNV-1a 32 over the
 * lines @bench..last @row, each "\n"-ended: "@bench x\n" hashes 9 bytes) must
 * match what was read. The records of one NAME become OUTDIR/PREFIX+NAME.csv:
 * "# folium bench record NAME", then per record "# env: ..." and its rows, the
 * header line after the first env. Every log is checked before any CSV is
 * written, so a bad log leaves OUTDIR untouched. Exit: 0 ok, 1 bad input, 2 usage.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FNV1A32_INIT 0x811c9dc5u
#define FNV1A32_PRIME 0x01000193u
#define NAME_CHARS "abcdefghijklmnopqrstuvwxyz0123456789_" /* of a column */

enum rec_kind {
	R_NONE,
	R_BENCH,
	R_ENV,
	R_COLS,
	R_ROW,
	R_END,
	R_UNKNOWN
};
static const char *const kind_name[] = { "", "@bench", "@env", "@cols", "@row", "@end" };

/* Every record of one name, as the text of its CSV file. */
struct table {
	char *name, *cols; /* cols: the @cols text of its first record */
	const char *file;  /* where that record starts */
	long line;
	char *csv;
	size_t len;
	FILE *out;	  /* open_memstream on csv */
	char *path, *tmp; /* the CSV file, and where it is written first */
	struct table *next;
};

/* A column of the open record: its name points into its table's cols. */
struct col {
	const char *name;
	int len;
	bool numeric; /* every unit but "-" */
};

/* Reading one log: the open record and what its @end must agree with. */
struct log {
	const char *file;
	long lineno;
	bool list;	    /* check: print each record as it ends */
	char *name;	    /* of the open record; NULL outside one */
	long start;	    /* its @bench line */
	enum rec_kind last; /* its last line */
	uint32_t hash;
	size_t rows, ncols, records;
	struct col *cols;
	struct table *t; /* its table, from @cols on */
};

static struct table *tables; /* in the order their names first appear */

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("benchrec: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* Every problem in a log is reported as "benchrec: FILE:LINE: message". */
static void fail(struct log *lg, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
static void fail(struct log *lg, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "benchrec: %s:%ld: ", lg->file, lg->lineno);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void *xalloc(void *p, size_t n)
{
	if (!(p = realloc(p, n)))
		die("out of memory");
	return p;
}

static char *xstrdup(const char *s)
{
	return strcpy(xalloc(NULL, strlen(s) + 1), s);
}

static uint32_t fnv1a32(uint32_t h, const char *s, size_t n)
{
	while (n--) {
		h ^= (unsigned char)*s++;
		h *= FNV1A32_PRIME;
	}
	return h;
}

/* The field at *pp up to sep; *pp moves past sep, to NULL after the last. */
static const char *next_field(const char **pp, char sep, size_t *len)
{
	const char *s = *pp, *e;

	if (!s)
		return NULL;
	e = strchr(s, sep);
	*len = e ? (size_t)(e - s) : strlen(s);
	*pp = e ? e + 1 : NULL;
	return s;
}

static size_t count_fields(const char *s, char sep)
{
	size_t n = *s ? 1 : 0;

	for (; *s; s++)
		n += *s == sep;
	return n;
}

/*
 * Step *pp past the key=value pair at it and the single space after it
 * (key and keylen: the key). Value "a b" in quotes may hold spaces.
 * Return: 1 a pair, 0 the end of the line, -1 malformed (*why says how).
 */
static int next_pair(const char **pp, const char **key, int *keylen, const char **why)
{
	const char *p = *pp, *eq = p + strcspn(p, "= \""), *val = eq + 1, *end;

	if (!*p)
		return 0;
	*why = "not key=value";
	if (*eq != '=' || eq == p)
		return -1;
	*key = p;
	*keylen = eq - p;
	if (*val == '"') {
		*why = "unterminated quote";
		if (!(end = strchr(val + 1, '"')))
			return -1;
		end++;
	} else {
		end = val + strcspn(val, " \"");
	}
	*why = *end == ' ' ? "two spaces, or one at the end" : "a quote inside a value";
	if ((*end && *end != ' ') || (*end == ' ' && (!end[1] || end[1] == ' ')))
		return -1;
	*pp = *end ? end + 1 : end;
	return 1;
}

/* Every token must be key=value, each key once. */
static void check_env(struct log *lg, const char *text)
{
	const char *p = text, *at = p, *why, *key, *q, *k2;
	int r, len, len2;

	for (; (r = next_pair(&p, &key, &len, &why)) > 0; at = p) {
		for (q = text; q < at && next_pair(&q, &k2, &len2, &why) > 0;)
			if (len2 == len && !strncmp(k2, key, len))
				fail(lg, "record %s: malformed @env: duplicate key %.*s", lg->name,
				     len, key);
	}
	if (r < 0)
		fail(lg, "record %s: malformed @env: %s at '%.40s'", lg->name, why, at);
}

/* NAME[UNIT]: UNIT becomes part of a CSV header that mlr and gnuplot read. */
static void parse_col(struct log *lg, const char *s, size_t len, struct col *c)
{
	const char *open = memchr(s, '[', len);
	size_t unit_len = open ? s + len - open - 2 : 0;

	c->name = s;
	c->len = open ? open - s : (int)len;
	if (!open || !c->len || strspn(s, NAME_CHARS) < (size_t)c->len || s[len - 1] != ']' ||
	    len - c->len < 3 || strcspn(open + 1, " ,[]\"#") < unit_len)
		fail(lg,
		     "record %s: bad @cols entry '%.*s': want NAME[UNIT], NAME of a-z 0-9 _, "
		     "UNIT without spaces , [ ] \" #",
		     lg->name, (int)len, s);
	c->numeric = !(unit_len == 1 && open[1] == '-');
	for (struct col *d = lg->cols; d < c; d++)
		if (d->len == c->len && !strncmp(d->name, s, c->len))
			fail(lg, "record %s: duplicate column %.*s", lg->name, c->len, s);
}

/* A CSV line of a record line: single spaces become commas. */
static void put_csv(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == ' ' ? ',' : *s, f);
	fputc('\n', f);
}

/*
 * The table of the open record (*made: it is new), from its @cols: a name
 * seen before must have the same columns, or its CSV could not hold both.
 */
static struct table *table_for(struct log *lg, const char *cols, bool *made)
{
	struct table **tp, *t;

	for (tp = &tables; (t = *tp); tp = &t->next) {
		if (strcmp(t->name, lg->name))
			continue;
		if (strcmp(t->cols, cols))
			fail(lg, "record %s: columns differ from the earlier record at %s:%ld",
			     t->name, t->file, t->line);
		*made = false;
		return t;
	}
	t = *tp = xalloc(NULL, sizeof(*t));
	*t = (struct table){ .name = xstrdup(lg->name),
			     .cols = xstrdup(cols),
			     .file = lg->file,
			     .line = lg->start };
	if (!(t->out = open_memstream(&t->csv, &t->len)))
		die("out of memory");
	fprintf(t->out, "# folium bench record %s\n", t->name);
	*made = true;
	return t;
}

/* Check the columns, then start the record's part of the CSV with env. */
static void parse_cols(struct log *lg, const char *text, const char *env)
{
	const char *p, *s;
	size_t len, i;
	bool made;

	if (!(lg->ncols = count_fields(text, ' ')))
		fail(lg, "record %s: @cols has no columns", lg->name);
	lg->cols = xalloc(lg->cols, lg->ncols * sizeof(*lg->cols));
	for (p = text, i = 0; (s = next_field(&p, ' ', &len)); i++)
		parse_col(lg, s, len, &lg->cols[i]);
	lg->t = table_for(lg, text, &made);
	for (i = 0; i < lg->ncols; i++) /* text is the line buffer, read over next */
		lg->cols[i].name = lg->t->cols + (lg->cols[i].name - text);
	fprintf(lg->t->out, "# env: %s\n", env);
	if (made)
		put_csv(lg->t->out, text);
}

static bool skip_digits(const char **s, const char *end)
{
	const char *start = *s;

	while (*s < end && **s >= '0' && **s <= '9')
		(*s)++;
	return *s > start;
}

/* [+-]digits[.digits][(e|E)[+-]digits]: what strtod, mlr and gnuplot agree on. */
static bool is_number(const char *s, size_t len)
{
	const char *end = s + len;

	if (s < end && (*s == '+' || *s == '-'))
		s++;
	if (!skip_digits(&s, end))
		return false;
	if (s < end && *s == '.' && (++s, !skip_digits(&s, end)))
		return false;
	if (s < end && (*s == 'e' || *s == 'E')) {
		s++;
		if (s < end && (*s == '+' || *s == '-'))
			s++;
		if (!skip_digits(&s, end))
			return false;
	}
	return s == end;
}

static void check_row(struct log *lg, const char *text)
{
	size_t n = count_fields(text, ' '), len, i;
	const char *p = text, *v, *why;

	if (n != lg->ncols)
		fail(lg, "record %s: row has %zu values, @cols has %zu", lg->name, n, lg->ncols);
	for (i = 0; (v = next_field(&p, ' ', &len)); i++) {
		struct col *c = &lg->cols[i];

		if (!len)
			why = "is empty";
		else if (strcspn(v, ",\"#") < len)
			why = "contains , \" or #";
		else if (c->numeric && !is_number(v, len))
			why = "is not a number";
		else
			continue;
		fail(lg, "record %s: value %zu (%.*s) '%.*s' %s", lg->name, i + 1, c->len, c->name,
		     (int)len, v, why);
	}
	put_csv(lg->t->out, text);
	lg->rows++;
}

/* A record name becomes a file name: no '/', no leading dot. */
static void start_record(struct log *lg, const char *name)
{
	size_t ok =
		strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-");

	if (!*name || name[ok] || name[0] == '.' || name[0] == '-')
		fail(lg, "bad record name '%.40s': want letters, digits, _ . -", name);
	lg->name = xstrdup(name);
	lg->start = lg->lineno;
	lg->rows = 0;
	lg->hash = FNV1A32_INIT;
}

static void truncated(struct log *lg, const char *where)
{
	fail(lg, "record %s truncated: no @end (%zu rows read) %s; it starts at line %ld", lg->name,
	     lg->rows, where, lg->start);
}

/* "@end NAME ROWS HASH": the only proof that nothing was lost in transit. */
static void end_record(struct log *lg, const char *text)
{
	const char *p = text, *f[3];
	size_t len[3], i;
	char want[9];

	for (i = 0; i < 3; i++)
		f[i] = next_field(&p, ' ', &len[i]);
	if (!f[2] || p)
		fail(lg, "record %s: malformed @end: want @end NAME ROWS HASH", lg->name);
	if (len[0] != strlen(lg->name) || strncmp(f[0], lg->name, len[0]))
		fail(lg, "record %s: @end is for %.*s", lg->name, (int)len[0], f[0]);
	if (!len[1] || strspn(f[1], "0123456789") != len[1] || strtoul(f[1], NULL, 10) != lg->rows)
		fail(lg, "record %s: @end says %.*s rows, %zu read", lg->name, (int)len[1], f[1],
		     lg->rows);
	if (len[2] != 8 || strspn(f[2], "0123456789abcdef") < 8)
		fail(lg, "record %s: @end hash '%s' is not 8 lowercase hex digits", lg->name, f[2]);
	snprintf(want, sizeof(want), "%08x", lg->hash);
	if (strcmp(f[2], want))
		fail(lg, "record %s: hash %s, computed %s: stream corrupted", lg->name, f[2], want);
	if (lg->list)
		printf("%s: %s: %zu rows x %zu cols\n", lg->file, lg->name, lg->rows, lg->ncols);
	lg->records++;
	free(lg->name);
	lg->name = NULL;
}

/* Record lines come as @bench, @env, @cols, @row..., @end. */
static void check_order(struct log *lg, enum rec_kind k)
{
	enum rec_kind want = lg->last == R_BENCH ? R_ENV : lg->last == R_ENV ? R_COLS : R_ROW;

	if (k == want || (want == R_ROW && k == R_END))
		return;
	if (k < want)
		fail(lg, "record %s: duplicate %s", lg->name, kind_name[k]);
	fail(lg, "record %s: %s before %s: the order is @bench, @env, @cols, @row..., @end",
	     lg->name, kind_name[k], kind_name[want]);
}

/* Which record line this is; *rest is what follows "@kind ". */
static enum rec_kind classify(const char *line, const char **rest)
{
	size_t n = strcspn(line, " ");
	enum rec_kind k;

	for (k = R_BENCH; k <= R_END; k++) {
		if (strlen(kind_name[k]) == n && !strncmp(line, kind_name[k], n)) {
			*rest = line[n] ? line + n + 1 : line + n;
			return k;
		}
	}
	return R_UNKNOWN;
}

/*
 * A line starting with '@': outside a record only @bench counts; inside one
 * every line must be the next record line, and is hashed. env holds the
 * open record's @env text until its @cols writes it.
 */
static void process_line(struct log *lg, const char *line, size_t len, char **env)
{
	const char *rest;
	enum rec_kind k = classify(line, &rest);

	if (!lg->name && k == R_UNKNOWN)
		return;
	if (strlen(line) != len)
		fail(lg, "NUL byte in a record line");
	if (!lg->name && k != R_BENCH)
		fail(lg, "%s outside a record (no @bench before it)", kind_name[k]);
	if (lg->name && k == R_UNKNOWN)
		fail(lg, "record %s: unknown record line '%.40s'", lg->name, line);
	if (lg->name && k == R_BENCH)
		truncated(lg, "before this @bench");
	if (k != R_BENCH)
		check_order(lg, k);
	switch (k) {
	case R_BENCH:
		start_record(lg, rest);
		break;
	case R_ENV:
		check_env(lg, rest);
		free(*env);
		*env = xstrdup(rest);
		break;
	case R_COLS:
		parse_cols(lg, rest, *env);
		break;
	case R_ROW:
		check_row(lg, rest);
		break;
	default:
		end_record(lg, rest);
		return;
	}
	lg->last = k;
	lg->hash = fnv1a32(lg->hash, line, len);
	lg->hash = fnv1a32(lg->hash, "\n", 1);
}

/* Check every record of one log ("-": stdin) and add it to its table. */
static void read_log(const char *name, bool list)
{
	struct log lg = { .file = strcmp(name, "-") ? name : "stdin", .list = list };
	FILE *f = strcmp(name, "-") ? fopen(name, "r") : stdin;
	char *buf = NULL, *env = NULL;
	size_t cap = 0;
	ssize_t n;

	if (!f)
		die("%s: %s", name, strerror(errno));
	while ((n = getline(&buf, &cap, f)) >= 0) {
		lg.lineno++;
		while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r')) /* serial: "\r\n" */
			buf[--n] = '\0';
		if (buf[0] == '@')
			process_line(&lg, buf, n, &env);
	}
	if (lg.name)
		truncated(&lg, "before the end of the log");
	if (!lg.records)
		die("%s: no bench records in %s (%ld lines read)", lg.file, lg.file, lg.lineno);
	if (f != stdin)
		fclose(f);
	free(buf);
	free(env);
	free(lg.cols);
}

/* mkstemp makes 0600 files; a CSV should get the umask's usual mode. */
static FILE *open_temp(char *tmpl)
{
	mode_t mask = umask(0);
	int fd = mkstemp(tmpl);

	umask(mask);
	if (fd < 0)
		return NULL;
	fchmod(fd, 0666 & ~mask);
	return fdopen(fd, "w");
}

/* Write t's CSV to t->tmp. Return: false with errno set if it could not. */
static bool write_temp(struct table *t)
{
	FILE *f = open_temp(t->tmp);

	fclose(t->out); /* csv and len are final now */
	return f && fwrite(t->csv, 1, t->len, f) == t->len && !fclose(f);
}

/*
 * Write every CSV under a temporary name, then rename them all, so that a
 * full disk leaves no half-written CSV behind.
 */
static void write_all(const char *outdir, const char *prefix)
{
	struct table *t, *u;

	if (mkdir(outdir, 0777) && errno != EEXIST)
		die("%s: %s", outdir, strerror(errno));
	for (t = tables; t; t = t->next) {
		if (asprintf(&t->path, "%s/%s%s.csv", outdir, prefix, t->name) < 0 ||
		    asprintf(&t->tmp, "%s.XXXXXX", t->path) < 0)
			die("out of memory");
		if (!write_temp(t)) {
			fprintf(stderr, "benchrec: %s: %s\n", t->path, strerror(errno));
			for (u = tables; u != t->next; u = u->next)
				unlink(u->tmp);
			exit(1);
		}
	}
	for (t = tables; t; t = t->next) {
		if (rename(t->tmp, t->path))
			die("%s: %s", t->path, strerror(errno));
		printf("%s\n", t->path);
	}
}

static int usage(void)
{
	fputs("usage: benchrec check LOG...\n"
	      "       benchrec csv [--prefix P] OUTDIR LOG...\n"
	      "LOG - is stdin. See include/benchrec.h for the record format.\n",
	      stderr);
	return 2;
}

/* check LOG... / csv [--prefix P] OUTDIR LOG... */
int main(int argc, char **argv)
{
	bool csv = argc > 1 && !strcmp(argv[1], "csv");
	const char *prefix = "", *outdir = NULL;
	int i = 2;

	if (argc < 2 || (!csv && strcmp(argv[1], "check")))
		return usage();
	if (csv && argc > 3 && !strcmp(argv[2], "--prefix")) {
		prefix = argv[3];
		i = 4;
	}
	if (csv && i < argc)
		outdir = argv[i++];
	if (i >= argc || (outdir && outdir[0] == '-' && outdir[1]))
		return usage();
	for (int j = i; j < argc; j++)
		if (argv[j][0] == '-' && argv[j][1])
			return usage();
	for (; i < argc; i++)
		read_log(argv[i], !csv);
	if (csv)
		write_all(outdir, prefix);
	return 0;
}
