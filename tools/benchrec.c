/*
 * benchrec: check the bench records in serial logs and turn them into CSV.
 *
 * A record (include/benchrec.h is the contract) is "@bench NAME", "@env k=v...",
 * "@cols name[unit]...", any number of "@row v...", then "@end NAME ROWS HASH";
 * lines not starting with '@' are noise. ROWS and HASH (FNV-1a 32 over the
 * lines @bench..last @row, each "\n"-ended: "@bench x\n" hashes 9 bytes) must
 * match what was read. Every input is checked before any CSV is written, so a
 * bad log leaves OUTDIR untouched. Exit: 0 ok, 1 bad input or lookup, 2 usage.
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

enum rec_kind { R_NONE, R_BENCH, R_ENV, R_COLS, R_ROW, R_END, R_UNKNOWN };
static const char *const kind_name[] = {"", "@bench", "@env", "@cols", "@row", "@end"};

struct vec {
	void **v;
	size_t n, cap;
};

/* One complete record; the strings are the text after "@kind ". */
struct record {
	char *name, *env, *cols;
	struct vec rows;
	const char *file;
	long line; /* of its @bench */
};

/* A column of the open record: its name points into record.cols. */
struct col {
	const char *name;
	size_t len;
	bool numeric; /* every unit but "-" */
};

/* Reading one log: the open record and what its @end must agree with. */
struct log {
	const char *file;
	long lineno;
	struct vec *records; /* complete records of every log so far */
	bool list;	     /* check: print each record as it ends */
	struct record *rec;  /* NULL outside a record */
	enum rec_kind last;  /* the open record's last line */
	uint32_t hash;
	struct col *cols;
	size_t ncols;
};

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

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		die("out of memory");
	return p;
}

static char *xstrdup(const char *s)
{
	return strcpy(xrealloc(NULL, strlen(s) + 1), s);
}

static void vec_push(struct vec *v, void *p)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 16;
		v->v = xrealloc(v->v, v->cap * sizeof(*v->v));
	}
	v->v[v->n++] = p;
}

static uint32_t fnv1a32(uint32_t h, const char *s, size_t n)
{
	while (n--) {
		h ^= (unsigned char)*s++;
		h *= FNV1A32_PRIME;
	}
	return h;
}

/*
 * Read one line into *buf without its "\n" and the "\r"s a serial console
 * puts before it. Return: its length, or -1 at the end of the file.
 */
static long read_line(FILE *f, char **buf, size_t *cap)
{
	ssize_t n = getline(buf, cap, f);

	if (n < 0)
		return -1;
	if (n && (*buf)[n - 1] == '\n')
		(*buf)[--n] = '\0';
	while (n && (*buf)[n - 1] == '\r')
		(*buf)[--n] = '\0';
	return n;
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

/* One key=value of an env line; val excludes the quotes of "a b". */
struct pair {
	const char *key, *val;
	int keylen, vallen;
};

/*
 * Read the pair at *pp and step past it and the single space after it.
 * Return: 1 a pair, 0 the end of the line, -1 malformed (*why says how).
 */
static int next_pair(const char **pp, struct pair *pr, const char **why)
{
	const char *p = *pp, *eq = p + strcspn(p, "= \""), *end;

	if (!*p)
		return 0;
	*why = "not key=value";
	if (*eq != '=' || eq == p)
		return -1;
	pr->key = p;
	pr->keylen = eq - p;
	pr->val = eq + 1;
	if (*pr->val == '"') {
		*why = "unterminated quote";
		end = strchr(++pr->val, '"');
		if (!end)
			return -1;
		pr->vallen = end++ - pr->val;
	} else {
		end = pr->val + strcspn(pr->val, " \"");
		pr->vallen = end - pr->val;
	}
	*why = *end == ' ' ? "two spaces, or one at the end" : "a quote inside a value";
	if ((*end && *end != ' ') || (*end == ' ' && (!end[1] || end[1] == ' ')))
		return -1;
	*pp = *end ? end + 1 : end;
	return 1;
}

/* The first pair of an env line's text with this key. Return: false if none. */
static bool find_env(const char *text, const char *key, int keylen, struct pair *pr)
{
	const char *why;

	while (next_pair(&text, pr, &why) > 0)
		if (pr->keylen == keylen && !strncmp(pr->key, key, keylen))
			return true;
	return false;
}

/* Every token must be key=value with unique keys, so `benchrec env` finds one. */
static void parse_env(struct log *lg, const char *text)
{
	const char *p = text, *at = p, *why;
	struct pair pr, first;
	int r;

	for (; (r = next_pair(&p, &pr, &why)) > 0; at = p) {
		if (find_env(text, pr.key, pr.keylen, &first) && first.key != pr.key)
			fail(lg, "record %s: malformed @env: duplicate key %.*s", lg->rec->name,
			     pr.keylen, pr.key);
	}
	if (r < 0)
		fail(lg, "record %s: malformed @env: %s at '%.40s'", lg->rec->name, why, at);
	lg->rec->env = xstrdup(text);
}

/* NAME[UNIT]: UNIT becomes part of a CSV header that pandas and gnuplot read. */
static void parse_col(struct log *lg, const char *s, size_t len, struct col *c)
{
	const char *open = memchr(s, '[', len);
	size_t unit_len = open ? s + len - open - 2 : 0;

	c->name = s;
	c->len = open ? (size_t)(open - s) : len;
	if (!open || !c->len || strspn(s, NAME_CHARS) < c->len || s[len - 1] != ']' ||
	    len - c->len < 3 || strcspn(open + 1, " ,[]\"#") < unit_len)
		fail(lg,
		     "record %s: bad @cols entry '%.*s': want NAME[UNIT], NAME of a-z 0-9 _, "
		     "UNIT without spaces , [ ] \" #",
		     lg->rec->name, (int)len, s);
	c->numeric = !(unit_len == 1 && open[1] == '-');
}

/* Columns of a name already seen must be the same, or the CSVs cannot merge. */
static void check_same_columns(struct log *lg, const char *text)
{
	size_t i;

	for (i = 0; i < lg->records->n; i++) {
		struct record *q = lg->records->v[i];

		if (!strcmp(q->name, lg->rec->name) && strcmp(q->cols, text))
			fail(lg, "record %s: columns differ from the earlier record at %s:%ld",
			     q->name, q->file, q->line);
	}
}

/* Remember each column's name and kind; the names point into rec->cols. */
static void parse_cols(struct log *lg, const char *text)
{
	const char *p, *s;
	size_t len, i;

	p = lg->rec->cols = xstrdup(text);
	lg->ncols = count_fields(text, ' ');
	if (!lg->ncols)
		fail(lg, "record %s: @cols has no columns", lg->rec->name);
	lg->cols = xrealloc(lg->cols, lg->ncols * sizeof(*lg->cols));
	for (i = 0; (s = next_field(&p, ' ', &len)); i++) {
		parse_col(lg, s, len, &lg->cols[i]);
		for (size_t j = 0; j < i; j++)
			if (lg->cols[j].len == lg->cols[i].len &&
			    !strncmp(lg->cols[j].name, s, lg->cols[i].len))
				fail(lg, "record %s: duplicate column %.*s", lg->rec->name,
				     (int)lg->cols[i].len, s);
	}
	check_same_columns(lg, text);
}

static bool skip_digits(const char **s, const char *end)
{
	const char *start = *s;

	while (*s < end && **s >= '0' && **s <= '9')
		(*s)++;
	return *s > start;
}

/* [+-]digits[.digits][(e|E)[+-]digits]: what strtod, pandas and gnuplot agree on. */
static bool is_number(const char *s, size_t len)
{
	const char *end = s + len;

	if (s < end && (*s == '+' || *s == '-'))
		s++;
	if (!skip_digits(&s, end))
		return false;
	if (s < end && *s == '.') {
		s++;
		if (!skip_digits(&s, end))
			return false;
	}
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
		fail(lg, "record %s: row has %zu values, @cols has %zu", lg->rec->name, n,
		     lg->ncols);
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
		fail(lg, "record %s: value %zu (%.*s) '%.*s' %s", lg->rec->name, i + 1, (int)c->len,
		     c->name, (int)len, v, why);
	}
	vec_push(&lg->rec->rows, xstrdup(text));
}

/* A record name becomes a file name: no '/', no leading dot. */
static void start_record(struct log *lg, const char *name)
{
	size_t ok =
		strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-");

	if (!*name || name[ok] || name[0] == '.' || name[0] == '-')
		fail(lg, "bad record name '%.40s': want letters, digits, _ . -", name);
	lg->rec = xrealloc(NULL, sizeof(*lg->rec));
	memset(lg->rec, 0, sizeof(*lg->rec));
	lg->rec->name = xstrdup(name);
	lg->rec->file = lg->file;
	lg->rec->line = lg->lineno;
	lg->hash = FNV1A32_INIT;
}

static void truncated(struct log *lg, const char *where)
{
	fail(lg, "record %s truncated: no @end (%zu rows read) %s; it starts at line %ld",
	     lg->rec->name, lg->rec->rows.n, where, lg->rec->line);
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
		fail(lg, "record %s: malformed @end: want @end NAME ROWS HASH", lg->rec->name);
	if (len[0] != strlen(lg->rec->name) || strncmp(f[0], lg->rec->name, len[0]))
		fail(lg, "record %s: @end is for %.*s", lg->rec->name, (int)len[0], f[0]);
	if (!len[1] || strspn(f[1], "0123456789") != len[1] ||
	    strtoul(f[1], NULL, 10) != lg->rec->rows.n)
		fail(lg, "record %s: @end says %.*s rows, %zu read", lg->rec->name, (int)len[1],
		     f[1], lg->rec->rows.n);
	if (len[2] != 8 || strspn(f[2], "0123456789abcdef") < 8)
		fail(lg, "record %s: @end hash '%s' is not 8 lowercase hex digits", lg->rec->name,
		     f[2]);
	snprintf(want, sizeof(want), "%08x", lg->hash);
	if (strcmp(f[2], want))
		fail(lg, "record %s: hash %s, computed %s: stream corrupted", lg->rec->name, f[2],
		     want);
	if (lg->list)
		printf("%s: %s: %zu rows x %zu cols\n", lg->file, lg->rec->name, lg->rec->rows.n,
		       lg->ncols);
	vec_push(lg->records, lg->rec);
	lg->rec = NULL;
}

/* Record lines come as @bench, @env, @cols, @row..., @end. */
static void check_order(struct log *lg, enum rec_kind k)
{
	enum rec_kind want = lg->last == R_BENCH ? R_ENV : lg->last == R_ENV ? R_COLS : R_ROW;

	if (k == want || (want == R_ROW && k == R_END))
		return;
	if (k < want)
		fail(lg, "record %s: duplicate %s", lg->rec->name, kind_name[k]);
	fail(lg, "record %s: %s before %s: the order is @bench, @env, @cols, @row..., @end",
	     lg->rec->name, kind_name[k], kind_name[want]);
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

/* A line starting with '@': outside a record only @bench counts; inside one
 * every line must be the next record line, and is hashed. */
static void process_line(struct log *lg, const char *line, size_t len)
{
	const char *rest;
	enum rec_kind k = classify(line, &rest);

	if (!lg->rec && k == R_UNKNOWN)
		return;
	if (strlen(line) != len)
		fail(lg, "NUL byte in a record line");
	if (!lg->rec && k != R_BENCH)
		fail(lg, "%s outside a record (no @bench before it)", kind_name[k]);
	if (lg->rec && k == R_UNKNOWN)
		fail(lg, "record %s: unknown record line '%.40s'", lg->rec->name, line);
	if (lg->rec && k == R_BENCH)
		truncated(lg, "before this @bench");
	if (k != R_BENCH)
		check_order(lg, k);
	switch (k) {
	case R_BENCH:
		start_record(lg, rest);
		break;
	case R_ENV:
		parse_env(lg, rest);
		break;
	case R_COLS:
		parse_cols(lg, rest);
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

/* Check every record of one log ("-": stdin) and add it to records. */
static void read_log(struct vec *records, const char *name, bool list)
{
	struct log lg = {.file = strcmp(name, "-") ? name : "stdin", .records = records};
	size_t first = records->n, cap = 0;
	FILE *f = strcmp(name, "-") ? fopen(name, "r") : stdin;
	char *buf = NULL;
	long len;

	if (!f)
		die("%s: %s", name, strerror(errno));
	lg.list = list;
	while ((len = read_line(f, &buf, &cap)) >= 0) {
		lg.lineno++;
		if (buf[0] == '@')
			process_line(&lg, buf, len);
	}
	if (lg.rec)
		truncated(&lg, "before the end of the log");
	if (records->n == first)
		die("%s: no bench records in %s (%ld lines read)", lg.file, lg.file, lg.lineno);
	if (f != stdin)
		fclose(f);
	free(buf);
	free(lg.cols);
}

static void put_csv_line(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == ' ' ? ',' : *s, f);
	fputc('\n', f);
}

/* The CSV of records[first] and of every later record with its name. */
static void write_csv(FILE *f, struct vec *records, size_t first)
{
	struct record *r = records->v[first];
	size_t i, j;

	fprintf(f, "# folium bench record %s\n", r->name);
	for (i = first; i < records->n; i++) {
		struct record *q = records->v[i];

		if (strcmp(q->name, r->name))
			continue;
		fprintf(f, "# env: %s\n", q->env);
		if (i == first)
			put_csv_line(f, q->cols);
		for (j = 0; j < q->rows.n; j++)
			put_csv_line(f, q->rows.v[j]);
	}
}

static bool first_of_name(struct vec *records, size_t i)
{
	struct record *r = records->v[i];

	while (i--)
		if (!strcmp(((struct record *)records->v[i])->name, r->name))
			return false;
	return true;
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

/* Return: false with errno set if tmp could not be written (it is removed). */
static bool write_temp(char *tmp, struct vec *records, size_t first)
{
	FILE *f = open_temp(tmp);
	int err;

	if (!f)
		return false;
	write_csv(f, records, first);
	if (!ferror(f) && !fclose(f))
		return true;
	err = errno;
	unlink(tmp);
	errno = err;
	return false;
}

static void free_strings(struct vec *v, bool unlink_them)
{
	size_t i;

	for (i = 0; i < v->n; i++) {
		if (unlink_them)
			unlink(v->v[i]);
		free(v->v[i]);
	}
	free(v->v);
}

/*
 * Write every CSV under a temporary name, then rename them all, so that a
 * full disk leaves no half-written CSV behind.
 */
static void write_all(struct vec *records, const char *outdir, const char *prefix)
{
	struct vec tmps = {0}, paths = {0};
	char *path, *tmp;
	size_t i;

	if (mkdir(outdir, 0777) && errno != EEXIST)
		die("%s: %s", outdir, strerror(errno));
	for (i = 0; i < records->n; i++) {
		if (!first_of_name(records, i))
			continue;
		if (asprintf(&path, "%s/%s%s.csv", outdir, prefix,
			     ((struct record *)records->v[i])->name) < 0 ||
		    asprintf(&tmp, "%s.XXXXXX", path) < 0)
			die("out of memory");
		if (!write_temp(tmp, records, i)) {
			fprintf(stderr, "benchrec: %s: %s\n", path, strerror(errno));
			free_strings(&tmps, true);
			exit(1);
		}
		vec_push(&paths, path);
		vec_push(&tmps, tmp);
	}
	for (i = 0; i < paths.n; i++) {
		if (rename(tmps.v[i], paths.v[i]))
			die("%s: %s", (char *)paths.v[i], strerror(errno));
		printf("%s\n", (char *)paths.v[i]);
	}
	free_strings(&tmps, false);
	free_strings(&paths, false);
}

static int usage(void)
{
	fputs("usage: benchrec check LOG...\n"
	      "       benchrec csv [--prefix P] OUTDIR LOG...\n"
	      "       benchrec env [--all] CSV KEY\n"
	      "       benchrec value CSV COL [MATCHCOL=VALUE]\n"
	      "LOG - is stdin. See include/benchrec.h for the record format.\n",
	      stderr);
	return 2;
}

static bool is_option(const char *arg)
{
	return arg[0] == '-' && arg[1];
}

static void free_records(struct vec *records)
{
	size_t i;

	for (i = 0; i < records->n; i++) {
		struct record *r = records->v[i];

		free(r->name);
		free(r->env);
		free(r->cols);
		free_strings(&r->rows, false);
		free(r);
	}
	free(records->v);
}

/* check LOG... / csv [--prefix P] OUTDIR LOG...: argv starts at the command. */
static int cmd_records(int argc, char **argv, bool csv)
{
	struct vec records = {0};
	const char *prefix = "", *outdir = NULL;
	int i = 1;

	if (csv && argc > 2 && !strcmp(argv[1], "--prefix")) {
		prefix = argv[2];
		i = 3;
	}
	if (csv && i < argc)
		outdir = argv[i++];
	if (i >= argc || (outdir && is_option(outdir)))
		return usage();
	for (int j = i; j < argc; j++)
		if (is_option(argv[j]))
			return usage();
	for (; i < argc; i++)
		read_log(&records, argv[i], !csv);
	if (csv)
		write_all(&records, outdir, prefix);
	free_records(&records);
	return 0;
}

static FILE *open_csv(const char *path)
{
	FILE *f = fopen(path, "r");

	if (!f)
		die("%s: %s", path, strerror(errno));
	return f;
}

/* env [--all] CSV KEY: the value of KEY in the first (or every) "# env:" line. */
static int cmd_env(int argc, char **argv)
{
	bool all = argc > 1 && !strcmp(argv[1], "--all");
	const char *path, *key;
	size_t cap = 0, found = 0;
	char *buf = NULL;
	long lineno = 0;
	struct pair pr;
	FILE *f;

	if (argc != 3 + all)
		return usage();
	path = argv[1 + all];
	key = argv[2 + all];
	f = open_csv(path);
	while ((all || !found) && read_line(f, &buf, &cap) >= 0) {
		lineno++;
		if (strncmp(buf, "# env: ", 7))
			continue;
		if (!find_env(buf + 7, key, strlen(key), &pr))
			die("%s:%ld: no %s= in this env line", path, lineno, key);
		printf("%.*s\n", pr.vallen, pr.val);
		found++;
	}
	if (!found)
		die("%s: no '# env:' line", path);
	free(buf);
	fclose(f);
	return 0;
}

/* The index of the column named name (without its [unit]) in a header line. */
static long column_index(const char *header, const char *name, size_t len)
{
	const char *p = header, *s;
	size_t n;
	long i;

	for (i = 0; (s = next_field(&p, ',', &n)); i++)
		if (n > len && s[len] == '[' && !strncmp(s, name, len))
			return i;
	return -1;
}

/* The idx-th field of a CSV line as a new string; NULL if the line is shorter. */
static char *field_at(const char *line, long idx)
{
	const char *p = line, *s = NULL;
	size_t n = 0;

	while (idx-- >= 0 && (s = next_field(&p, ',', &n)))
		;
	return s ? strndup(s, n) : NULL;
}

/* The first line that is not a '#' comment: the column names. */
static char *read_header(FILE *f, const char *path)
{
	char *buf = NULL;
	size_t cap = 0;

	while (read_line(f, &buf, &cap) >= 0)
		if (buf[0] != '#')
			return buf;
	die("%s: no header line", path);
}

/* The first data row, or with mi >= 0 the first whose column mi is want. */
static char *find_row(FILE *f, long mi, const char *want)
{
	char *buf = NULL, *v;
	size_t cap = 0;
	bool hit;

	while (read_line(f, &buf, &cap) >= 0) {
		if (buf[0] == '#')
			continue;
		v = mi < 0 ? NULL : field_at(buf, mi);
		hit = mi < 0 || (v && !strcmp(v, want));
		free(v);
		if (hit)
			return buf;
	}
	free(buf);
	return NULL;
}

/* value CSV COL [MATCHCOL=VALUE]: one cell, for scripts that compare runs. */
static int cmd_value(int argc, char **argv)
{
	const char *path, *col, *match = argc == 4 ? argv[3] : NULL;
	const char *eq = match ? strchr(match, '=') : NULL;
	char *header, *row, *v;
	long ci, mi = -1;
	FILE *f;

	if (argc < 3 || argc > 4 || (match && !eq))
		return usage();
	path = argv[1];
	col = argv[2];
	f = open_csv(path);
	header = read_header(f, path);
	if ((ci = column_index(header, col, strlen(col))) < 0)
		die("%s: no column %s in '%s'", path, col, header);
	if (match && (mi = column_index(header, match, eq - match)) < 0)
		die("%s: no column %.*s in '%s'", path, (int)(eq - match), match, header);
	row = find_row(f, mi, eq ? eq + 1 : NULL);
	if (!row)
		die("%s: no data row%s%s", path, match ? " with " : "", match ? match : "");
	if (!(v = field_at(row, ci)))
		die("%s: row '%s' has no column %s", path, row, col);
	printf("%s\n", v);
	free(v);
	free(row);
	free(header);
	fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage();
	if (!strcmp(argv[1], "check"))
		return cmd_records(argc - 1, argv + 1, false);
	if (!strcmp(argv[1], "csv"))
		return cmd_records(argc - 1, argv + 1, true);
	if (!strcmp(argv[1], "env"))
		return cmd_env(argc - 1, argv + 1);
	if (!strcmp(argv[1], "value"))
		return cmd_value(argc - 1, argv + 1);
	return usage();
}
