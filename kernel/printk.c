/*
 * printk: every message becomes one timestamped line, "[    1.234567] text",
 * appended to a byte ring of 2^CONFIG_LOG_BUF_SHIFT bytes and echoed to the
 * consoles when its level is at or below the console loglevel (as Linux).
 * The ring is addressed by a monotonic byte count (head), so a reader's
 * position is a plain number: bytes in [head - size, head) are still
 * present, and tail is the first of them that starts a whole line.
 * Example: size 4096, head 5000 → bytes 904..4999 are kept, and tail is
 * just past the first newline at or after byte 904.
 */
#include <arch.h>
#include <kernel.h>

#define PRINTK_LINE_MAX 512

static char log_buf[1u << CONFIG_LOG_BUF_SHIFT];
static struct log_ring log = { .buf = log_buf, .size = sizeof(log_buf) };
static int console_loglevel = 7; /* echo everything up to KERN_DEBUG */

void printk_set_console_loglevel(int level)
{
	console_loglevel = level;
}

/* Store one byte. When it overwrites the first byte of the oldest whole
 * line, tail moves to the start of the next line still fully present. */
static void log_ring_put(struct log_ring *r, char c)
{
	uint64_t overwritten = r->head - r->size; /* its sequence number */
	bool evicting = r->head >= r->size;
	char old = r->buf[r->head % r->size];
	uint64_t s;

	r->buf[r->head % r->size] = c;
	r->head++;
	if (!evicting || r->tail > overwritten)
		return;
	if (old == '\n') {
		r->tail = overwritten + 1;
		return;
	}
	for (s = overwritten + 1; s < r->head && r->buf[s % r->size] != '\n'; s++)
		;
	r->tail = MIN(s + 1, r->head);
}

void log_ring_append(struct log_ring *r, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		log_ring_put(r, s[i]);
}

uint64_t log_ring_first_seq(const struct log_ring *r)
{
	return r->tail;
}

size_t log_ring_read(const struct log_ring *r, uint64_t *seq, char *buf, size_t size)
{
	uint64_t first = log_ring_first_seq(r);
	size_t n = 0;

	if (*seq < first)
		*seq = first;
	while (*seq + n < r->head && n < size) {
		buf[n] = r->buf[(*seq + n) % r->size];
		n++;
	}
	*seq += n;
	return n;
}

/* Split an optional KERN_<LEVEL> prefix off the message. */
static int take_level(const char **msg)
{
	const char *m = *msg;

	if (m[0] == '\001' && m[1] >= '0' && m[1] <= '7') {
		*msg = m + 2;
		return m[1] - '0';
	}
	return LOGLEVEL_DEFAULT;
}

int vprintk(const char *fmt, va_list ap)
{
	char line[PRINTK_LINE_MAX];
	const char *msg = fmt;
	int level = take_level(&msg);
	uint64_t ns = arch_uptime_ns();
	int n = ksnprintf(line, sizeof(line), "[%5llu.%06llu] ",
			  (unsigned long long)(ns / 1000000000),
			  (unsigned long long)(ns % 1000000000 / 1000));
	unsigned long flags;

	n += kvsnprintf(line + n, sizeof(line) - n, msg, ap);
	if (n > (int)sizeof(line) - 2)
		n = sizeof(line) - 2; /* truncated: still end the line */
	if (n == 0 || line[n - 1] != '\n')
		line[n++] = '\n';
	flags = arch_irq_save();
	log_ring_append(&log, line, n);
	if (level <= console_loglevel)
		console_write(line, n);
	arch_irq_restore(flags);
	return n;
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}

size_t printk_log_read(uint64_t *seq, char *buf, size_t size)
{
	unsigned long flags = arch_irq_save();
	size_t n = log_ring_read(&log, seq, buf, size);

	arch_irq_restore(flags);
	return n;
}
