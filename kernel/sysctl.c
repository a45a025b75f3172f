/*
 * The /proc/sys handlers and the registered tables (Linux:
 * kernel/sysctl.c). Plain C over kernel buffers, so the host tests check
 * the parsing Linux's users rely on: `echo 5 > /proc/sys/vm/x` writes
 * "5\n" and sets 5; "0x10" sets 16 and "010" sets 8 (strtoul with base
 * 0); "5x" and "" are -EINVAL; "5 6" sets 5 and reports 2 bytes used;
 * reading prints "5\n". The files themselves are fs/proc/proc_sysctl.c.
 */
#include <errno.h>
#include <sysctl.h>

/* Linux: sysctl_vals, the constants SYSCTL_ZERO... point into. */
const int sysctl_vals[] = { 0, 1, 2, 4, 100, 1000, 3000, 0x7fffffff };

/* Weak: a host program may link this file without any table. */
extern const struct ctl_table_header *const __start_sysctl_tables[] __attribute__((weak));
extern const struct ctl_table_header *const __stop_sysctl_tables[] __attribute__((weak));

const struct ctl_table_header *sysctl_table_nth(size_t n)
{
	size_t count = (size_t)(__stop_sysctl_tables - __start_sysctl_tables);

	return n < count ? __start_sysctl_tables[n] : NULL;
}

const struct ctl_table *sysctl_find(const char *dir, const char *name)
{
	const struct ctl_table_header *h;

	for (size_t n = 0; (h = sysctl_table_nth(n)); n++) {
		if (strcmp(h->path, dir))
			continue;
		for (size_t i = 0; i < h->size; i++)
			if (!strcmp(h->table[i].procname, name))
				return &h->table[i];
	}
	return NULL;
}

/* Linux: TMPBUFLEN, room for a 64-bit number in any base and a sign. */
#define TMPBUFLEN 22

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* Linux: proc_skip_spaces. */
static void skip_spaces(const char **p, size_t *left)
{
	while (*left && is_space(**p)) {
		(*p)++;
		(*left)--;
	}
}

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 99;
}

/* strtoul with base 0: "0x" hex, a leading 0 octal, else decimal.
 * Return: 0, or -EINVAL on overflow; *end is the first unused byte. */
static int strtoul_base0(const char *s, const char **end, unsigned long *val)
{
	unsigned int base = 10;
	unsigned long v = 0;
	int d;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && digit_value(s[2]) < 16) {
		base = 16;
		s += 2;
	} else if (s[0] == '0') {
		base = 8;
	}
	for (; (d = digit_value(*s)) < (int)base; s++) {
		if (v > (~0ul - (unsigned long)d) / base)
			return -EINVAL;
		v = v * base + (unsigned long)d;
	}
	*end = s;
	*val = v;
	return 0;
}

/*
 * Linux: proc_get_long. One number at *p: an optional '-', digits, then
 * whitespace or the end of the write. Return: 0 with *p and *left past
 * it, or -EINVAL.
 */
static int get_long(const char **p, size_t *left, unsigned long *val, bool *neg)
{
	char tmp[TMPBUFLEN];
	size_t len = MIN(*left, sizeof(tmp) - 1);
	const char *s = tmp, *end;

	memcpy(tmp, *p, len);
	tmp[len] = '\0';
	*neg = *s == '-';
	s += *neg;
	if (digit_value(*s) > 9 || strtoul_base0(s, &end, val))
		return -EINVAL;
	len = (size_t)(end - tmp);
	if (len == sizeof(tmp) - 1) /* too long to know where it ends */
		return -EINVAL;
	if (len < *left && (*p)[len] != ' ' && (*p)[len] != '\t' && (*p)[len] != '\n')
		return -EINVAL;
	*p += len;
	*left -= len;
	return 0;
}

/* Linux: proc_put_long and proc_put_char: what fits of the text. */
static void put_text(char **buf, size_t *left, const char *text)
{
	size_t len = MIN(strlen(text), *left);

	memcpy(*buf, text, len);
	*buf += len;
	*left -= len;
}

/* One element's conversion: on a write, check lval (with neg) and store
 * it in element i; on a read, load element i into lval and neg.
 * Return: 0 or -EINVAL. */
typedef int convert_fn(const struct ctl_table *table, bool *neg, unsigned long *lval, size_t i,
		       int write);

/*
 * Linux: __do_proc_dointvec and __do_proc_doulongvec_minmax, which share
 * this shape: skip a write at a nonzero offset, parse or print one
 * element after another, then the newline (read) or the trailing blanks
 * (write). A write that parsed no element is -EINVAL.
 */
static int do_proc_vec(const struct ctl_table *table, int write, char *buffer, size_t *lenp,
		       uint64_t *ppos, size_t elem_size, convert_fn *conv)
{
	size_t vleft, left = *lenp;
	const char *p = buffer;
	bool first = true;
	int err = 0;

	if (!table->data || !table->maxlen || !*lenp || (*ppos && !write)) {
		*lenp = 0;
		return 0;
	}
	vleft = (size_t)table->maxlen / elem_size;
	if (write && *ppos) { /* Linux: proc_first_pos_non_zero_ignore */
		*ppos += *lenp;
		return 0;
	}
	for (size_t i = 0; left && i < vleft; i++, first = false) {
		unsigned long lval;
		bool neg;
		char text[TMPBUFLEN + 2];

		if (write) {
			skip_spaces(&p, &left);
			if (!left)
				break;
			err = get_long(&p, &left, &lval, &neg);
			if (!err && conv(table, &neg, &lval, i, 1))
				err = -EINVAL;
			if (err)
				break;
		} else {
			if (conv(table, &neg, &lval, i, 0)) {
				err = -EINVAL;
				break;
			}
			ksnprintf(text, sizeof(text), "%s%s%lu", first ? "" : "\t", neg ? "-" : "",
				  lval);
			put_text(&buffer, &left, text);
		}
	}
	if (!write && !first && left && !err)
		put_text(&buffer, &left, "\n");
	if (write && !err && left)
		skip_spaces(&p, &left);
	if (write && first)
		return err ? err : -EINVAL;
	*lenp -= left;
	*ppos += *lenp;
	return err;
}

/* Linux: do_proc_dointvec_conv, with do_proc_dointvec_minmax_conv's
 * bounds when the table has them. */
static int int_conv(const struct ctl_table *table, bool *neg, unsigned long *lval, size_t i,
		    int write, bool minmax)
{
	int *valp = (int *)table->data + i;
	long v;

	if (!write) {
		*neg = *valp < 0;
		*lval = *neg ? (unsigned long)-(long)*valp : (unsigned long)*valp;
		return 0;
	}
	if (*neg ? *lval > 0x80000000ul : *lval > 0x7ffffffful)
		return -EINVAL;
	v = *neg ? -(long)*lval : (long)*lval;
	if (minmax && ((table->extra1 && v < *(const int *)table->extra1) ||
		       (table->extra2 && v > *(const int *)table->extra2)))
		return -EINVAL;
	*valp = (int)v;
	return 0;
}

static int int_plain(const struct ctl_table *table, bool *neg, unsigned long *lval, size_t i,
		     int write)
{
	return int_conv(table, neg, lval, i, write, false);
}

static int int_minmax(const struct ctl_table *table, bool *neg, unsigned long *lval, size_t i,
		      int write)
{
	return int_conv(table, neg, lval, i, write, true);
}

/* Linux: do_proc_douintvec_minmax_conv: no sign, at most UINT_MAX. */
static int uint_minmax(const struct ctl_table *table, bool *neg, unsigned long *lval, size_t i,
		       int write)
{
	unsigned int *valp = (unsigned int *)table->data + i;

	if (!write) {
		*neg = false;
		*lval = *valp;
		return 0;
	}
	if (*neg || *lval > 0xfffffffful ||
	    (table->extra1 && *lval < *(const unsigned int *)table->extra1) ||
	    (table->extra2 && *lval > *(const unsigned int *)table->extra2))
		return -EINVAL;
	*valp = (unsigned int)*lval;
	return 0;
}

/* Linux: __do_proc_doulongvec_minmax's element step. */
static int ulong_minmax(const struct ctl_table *table, bool *neg, unsigned long *lval, size_t i,
			int write)
{
	unsigned long *valp = (unsigned long *)table->data + i;

	if (!write) {
		*neg = false;
		*lval = *valp;
		return 0;
	}
	if (*neg || (table->extra1 && *lval < *(const unsigned long *)table->extra1) ||
	    (table->extra2 && *lval > *(const unsigned long *)table->extra2))
		return -EINVAL;
	*valp = *lval;
	return 0;
}

int proc_dointvec(const struct ctl_table *table, int write, char *buffer, size_t *lenp,
		  uint64_t *ppos)
{
	return do_proc_vec(table, write, buffer, lenp, ppos, sizeof(int), int_plain);
}

int proc_dointvec_minmax(const struct ctl_table *table, int write, char *buffer, size_t *lenp,
			 uint64_t *ppos)
{
	return do_proc_vec(table, write, buffer, lenp, ppos, sizeof(int), int_minmax);
}

int proc_douintvec_minmax(const struct ctl_table *table, int write, char *buffer, size_t *lenp,
			  uint64_t *ppos)
{
	return do_proc_vec(table, write, buffer, lenp, ppos, sizeof(unsigned int), uint_minmax);
}

int proc_doulongvec_minmax(const struct ctl_table *table, int write, char *buffer, size_t *lenp,
			   uint64_t *ppos)
{
	return do_proc_vec(table, write, buffer, lenp, ppos, sizeof(unsigned long), ulong_minmax);
}
