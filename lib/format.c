/*
 * printf-style formatting for the kernel, and the number parsers the shell
 * and command line share. Supports %d %i %u %x %X %o %p %s %c %% with the
 * flags '-' '0' ' ' '+' '#', width and precision (also '*'), and the length
 * modifiers hh h l ll z t j. No floating point: the kernel is built without
 * SSE. Output is always NUL-terminated when size > 0; the return value is
 * the length the full output would have had, as C's snprintf.
 */
#include <errno.h>
#include <kernel.h>

struct outbuf {
	char *buf;
	size_t size;
	size_t len; /* bytes the full output needs */
};

static void out_char(struct outbuf *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void out_repeat(struct outbuf *o, char c, int n)
{
	while (n-- > 0)
		out_char(o, c);
}

struct spec {
	bool left, zero, plus, space, alt;
	int width;
	int precision; /* -1: none */
	int length;    /* 0 int, 1 long, 2 long long, -1 short, -2 char */
	char conv;
};

/* Emit a converted field: sign/prefix, zero or space padding, digits. */
static void out_field(struct outbuf *o, const struct spec *sp, const char *prefix,
		      const char *digits, int ndigits)
{
	int plen = 0, zeros = 0, pad;

	while (prefix[plen])
		plen++;
	if (sp->precision > ndigits)
		zeros = sp->precision - ndigits;
	pad = sp->width - plen - zeros - ndigits;
	if (sp->zero && !sp->left && sp->precision < 0 && pad > 0) {
		zeros += pad;
		pad = 0;
	}
	if (!sp->left)
		out_repeat(o, ' ', pad);
	for (int i = 0; i < plen; i++)
		out_char(o, prefix[i]);
	out_repeat(o, '0', zeros);
	for (int i = 0; i < ndigits; i++)
		out_char(o, digits[i]);
	if (sp->left)
		out_repeat(o, ' ', pad);
}

static void out_number(struct outbuf *o, const struct spec *sp, unsigned long long v, bool negative)
{
	static const char lower[] = "0123456789abcdef";
	static const char upper[] = "0123456789ABCDEF";
	const char *digitset = sp->conv == 'X' ? upper : lower;
	unsigned base = 10;
	char tmp[24], digits[24], prefix[3] = "";
	int n = 0;

	if (sp->conv == 'x' || sp->conv == 'X' || sp->conv == 'p')
		base = 16;
	else if (sp->conv == 'o')
		base = 8;
	/* C: precision 0 with value 0 prints no digits. */
	if (!(v == 0 && sp->precision == 0)) {
		do {
			tmp[n++] = digitset[v % base];
			v /= base;
		} while (v);
	}
	for (int i = 0; i < n; i++)
		digits[i] = tmp[n - 1 - i];
	if (negative)
		prefix[0] = '-';
	else if (sp->plus)
		prefix[0] = '+';
	else if (sp->space)
		prefix[0] = ' ';
	if (sp->conv == 'p' || (sp->alt && base == 16 && n && tmp[n - 1] != '0')) {
		prefix[0] = '0';
		prefix[1] = sp->conv == 'X' ? 'X' : 'x';
	} else if (sp->alt && base == 8 && (n == 0 || digits[0] != '0')) {
		prefix[0] = '0';
	}
	out_field(o, sp, prefix, digits, n);
}

static void out_string(struct outbuf *o, const struct spec *sp, const char *s)
{
	int n = 0;

	if (!s)
		s = "(null)";
	while (s[n] && (sp->precision < 0 || n < sp->precision))
		n++;
	struct spec plain = *sp;
	plain.zero = false;
	plain.precision = -1;
	out_field(o, &plain, "", s, n);
}

/* Parse flags, width, precision and length at *fmt; leave it on the
 * conversion character. */
static void parse_spec(const char **fmt, va_list *ap, struct spec *sp)
{
	const char *f = *fmt;

	*sp = (struct spec){ .precision = -1 };
	for (;; f++) {
		if (*f == '-')
			sp->left = true;
		else if (*f == '0')
			sp->zero = true;
		else if (*f == '+')
			sp->plus = true;
		else if (*f == ' ')
			sp->space = true;
		else if (*f == '#')
			sp->alt = true;
		else
			break;
	}
	if (*f == '*') {
		sp->width = va_arg(*ap, int);
		if (sp->width < 0) {
			sp->left = true;
			sp->width = -sp->width;
		}
		f++;
	}
	while (*f >= '0' && *f <= '9')
		sp->width = sp->width * 10 + (*f++ - '0');
	if (*f == '.') {
		f++;
		sp->precision = 0;
		if (*f == '*') {
			sp->precision = va_arg(*ap, int);
			f++;
		}
		while (*f >= '0' && *f <= '9')
			sp->precision = sp->precision * 10 + (*f++ - '0');
	}
	for (;; f++) {
		if (*f == 'l')
			sp->length = sp->length == 1 ? 2 : 1;
		else if (*f == 'h')
			sp->length = sp->length == -1 ? -2 : -1;
		else if (*f == 'z' || *f == 't' || *f == 'j')
			sp->length = 2;
		else
			break;
	}
	sp->conv = *f;
	*fmt = f;
}

static long long signed_arg(va_list *ap, int length)
{
	switch (length) {
	case 2:
		return va_arg(*ap, long long);
	case 1:
		return va_arg(*ap, long);
	case -1:
		return (short)va_arg(*ap, int);
	case -2:
		return (signed char)va_arg(*ap, int);
	default:
		return va_arg(*ap, int);
	}
}

static unsigned long long unsigned_arg(va_list *ap, int length)
{
	switch (length) {
	case 2:
		return va_arg(*ap, unsigned long long);
	case 1:
		return va_arg(*ap, unsigned long);
	case -1:
		return (unsigned short)va_arg(*ap, unsigned int);
	case -2:
		return (unsigned char)va_arg(*ap, unsigned int);
	default:
		return va_arg(*ap, unsigned int);
	}
}

static void format_one(struct outbuf *o, const struct spec *sp, va_list *ap)
{
	long long sv;
	char c;

	switch (sp->conv) {
	case 'd':
	case 'i':
		sv = signed_arg(ap, sp->length);
		out_number(o, sp, sv < 0 ? 0ull - (unsigned long long)sv : (unsigned long long)sv,
			   sv < 0);
		break;
	case 'u':
	case 'x':
	case 'X':
	case 'o':
		out_number(o, sp, unsigned_arg(ap, sp->length), false);
		break;
	case 'p':
		out_number(o, sp, (uintptr_t)va_arg(*ap, void *), false);
		break;
	case 's':
		out_string(o, sp, va_arg(*ap, const char *));
		break;
	case 'c':
		c = (char)va_arg(*ap, int);
		out_field(o,
			  &(struct spec){ .left = sp->left, .width = sp->width, .precision = -1 },
			  "", &c, 1);
		break;
	case '%':
		out_char(o, '%');
		break;
	default: /* unknown conversion: print it verbatim so the bug shows */
		out_char(o, '%');
		if (sp->conv)
			out_char(o, sp->conv);
		break;
	}
}

int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct outbuf o = { .buf = buf, .size = size };
	struct spec sp;
	va_list args;

	va_copy(args, ap);
	for (; *fmt; fmt++) {
		if (*fmt != '%') {
			out_char(&o, *fmt);
			continue;
		}
		fmt++;
		parse_spec(&fmt, &args, &sp);
		if (!sp.conv)
			break;
		format_one(&o, &sp, &args);
	}
	va_end(args);
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return (int)o.len;
}

int ksnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = kvsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

int kstrtou64(const char *s, uint64_t *out)
{
	unsigned base = 10;
	uint64_t v = 0;

	if (!s || !*s)
		return -1;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
		if (!*s)
			return -1;
	}
	for (; *s; s++) {
		unsigned d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			return -1;
		if (v > (UINT64_MAX - d) / base)
			return -1;
		v = v * base + d;
	}
	*out = v;
	return 0;
}

int kparse_size(const char *s, uint64_t *out)
{
	char num[32];
	size_t n = 0;
	unsigned shift = 0;
	uint64_t v;

	if (!s)
		return -1;
	while (s[n] && n < sizeof(num) - 1)
		n++;
	if (n == 0 || s[n])
		return -1;
	for (size_t i = 0; i < n; i++)
		num[i] = s[i];
	num[n] = '\0';
	switch (num[n - 1]) {
	case 'k':
	case 'K':
		shift = 10;
		break;
	case 'm':
	case 'M':
		shift = 20;
		break;
	case 'g':
	case 'G':
		shift = 30;
		break;
	case 't':
	case 'T':
		shift = 40;
		break;
	case 'p':
	case 'P':
		shift = 50;
		break;
	case 'e':
	case 'E':
		shift = 60;
		break;
	}
	if (shift)
		num[n - 1] = '\0';
	if (kstrtou64(num, &v) < 0 || (shift && v > (UINT64_MAX >> shift)))
		return -1;
	*out = v << shift;
	return 0;
}

const char *kformat_size(char *buf, size_t size, uint64_t bytes)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned u = 0;
	uint64_t scale = 1;

	while (u + 1 < ARRAY_SIZE(units) && bytes >= scale * 1024)
		scale *= 1024, u++;
	if (bytes % scale == 0)
		ksnprintf(buf, size, "%llu %s", (unsigned long long)(bytes / scale), units[u]);
	else /* one decimal, truncated: 1.5 GiB */
		ksnprintf(buf, size, "%llu.%llu %s", (unsigned long long)(bytes / scale),
			  (unsigned long long)(bytes % scale * 10 / scale), units[u]);
	return buf;
}

int match_string(const char *const *array, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (array[i] && strcmp(array[i], s) == 0)
			return (int)i;
	return -EINVAL;
}
