/*
 * printk: every message becomes one timestamped line, "[    1.234567] text",
 * appended to a byte ring of 2^CONFIG_LOG_BUF_SHIFT bytes and echoed to the
 * consoles when its level is at or below the console loglevel (as Linux).
 * The ring keeps each line's level in front of it, "<6>[    1.234567]
 * text", which is what syslog(2) and /proc/kmsg hand out (Linux's
 * syslog format); the kernel's own readers (printk_log_read) skip it.
 * The ring is addressed by a monotonic byte count (head), so a reader's
 * position is a plain number: bytes in [head - size, head) are still
 * present, and tail is the first of them that starts a whole line.
 * Example: size 4096, head 5000 → bytes 904..4999 are kept, and tail is
 * just past the first newline at or after byte 904.
 */
#include <arch.h>
#include <kernel.h>
#include <sched.h>
#include <syscalls.h>
#include <vm.h>
#include <wait.h>

#define PRINTK_LINE_MAX 512
#define LEVEL_PREFIX 3 /* "<6>" */

static char log_buf[1u << CONFIG_LOG_BUF_SHIFT];
static struct log_ring log = { .buf = log_buf, .size = sizeof(log_buf) };
static int console_loglevel = 7;	  /* echo everything up to KERN_DEBUG */
static DECLARE_WAIT_QUEUE_HEAD(log_wait); /* syslog READ and /proc/kmsg */

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
	/* "<L>" then the line; the consoles get the line only. */
	int n = ksnprintf(line, sizeof(line), "<%d>[%5llu.%06llu] ", level,
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
		console_write(line + LEVEL_PREFIX, n - LEVEL_PREFIX);
	/* Linux: wake_up_klogd. Only when someone waits: printk may run
	 * inside the scheduler. */
	if (!list_empty(&log_wait.head))
		wake_up_interruptible(&log_wait);
	arch_irq_restore(flags);
	return n - LEVEL_PREFIX;
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

static char log_byte(uint64_t seq)
{
	return log.buf[seq % log.size];
}

/* A line starts at seq with its "<L>" (lines start at tail, or after a
 * newline). */
static bool level_prefix_at(uint64_t seq)
{
	return (seq == log.tail || log_byte(seq - 1) == '\n') && seq + LEVEL_PREFIX <= log.head &&
	       log_byte(seq) == '<' && log_byte(seq + 2) == '>';
}

size_t printk_log_read(uint64_t *seq, char *buf, size_t size)
{
	unsigned long flags = arch_irq_save();
	size_t n = 0;

	if (*seq < log.tail)
		*seq = log.tail;
	while (*seq < log.head && n < size) {
		if (level_prefix_at(*seq)) {
			*seq += LEVEL_PREFIX;
			continue;
		}
		buf[n++] = log_byte((*seq)++);
	}
	arch_irq_restore(flags);
	return n;
}

/* --- syslog(2) and /proc/kmsg ----------------------------------------------------- */

static uint64_t syslog_seq; /* where SYSLOG_ACTION_READ goes on */
static uint64_t clear_seq;  /* SYSLOG_ACTION_CLEAR's mark */
static int saved_console_loglevel = -1;
#define MINIMUM_CONSOLE_LOGLEVEL 1 /* Linux: the floor CONSOLE_LEVEL and OFF use */

/* Copy whole lines of the ring from *seq to the user, at most len bytes
 * (one line cut short if even the first does not fit, as Linux's record
 * truncation). Return: bytes copied, or -EFAULT. */
static int syslog_copy(uint64_t *seq, uint64_t end, unsigned long ubuf, int len)
{
	char chunk[256];
	uint64_t stop = *seq, s;
	int done = 0;

	/* The last line end within len bytes. */
	for (s = *seq; s < end && s - *seq < (uint64_t)len; s++)
		if (log_byte(s) == '\n')
			stop = s + 1;
	if (stop == *seq)
		stop = MIN(end, *seq + (uint64_t)len);
	while (*seq < stop) {
		size_t n = MIN(sizeof(chunk), stop - *seq);

		for (size_t i = 0; i < n; i++)
			chunk[i] = log_byte(*seq + i);
		if (copy_to_user(ubuf + (unsigned long)done, chunk, n))
			return -EFAULT;
		*seq += n;
		done += (int)n;
	}
	return done;
}

/* Linux: syslog_print_all: the newest whole lines since the last CLEAR
 * that fit in len. */
static int syslog_print_all(unsigned long ubuf, int len, bool clear)
{
	uint64_t seq = MAX(clear_seq, log.tail), head = log.head;
	int ret;

	while (seq < head && head - seq > (uint64_t)len) { /* drop the oldest lines */
		while (seq < head && log_byte(seq) != '\n')
			seq++;
		seq++;
	}
	ret = syslog_copy(&seq, head, ubuf, len);
	if (clear && ret >= 0)
		clear_seq = head;
	return ret;
}

/* Linux: syslog_print, SYSLOG_ACTION_READ: wait for unread lines, then
 * hand out what fits; what is read is read (also /proc/kmsg's read). */
static int syslog_print(unsigned long ubuf, int len)
{
	int ret = (int)wait_event_interruptible(log_wait, syslog_seq != log.head);

	if (ret)
		return ret;
	if (syslog_seq < log.tail)
		syslog_seq = log.tail;
	return syslog_copy(&syslog_seq, log.head, ubuf, len);
}

/* Linux: check_syslog_permissions, with Debian's dmesg_restrict = 1:
 * every action but CLOSE and OPEN wants CAP_SYSLOG (or CAP_SYS_ADMIN). */
static bool syslog_allowed(int type)
{
	return type == SYSLOG_ACTION_CLOSE || type == SYSLOG_ACTION_OPEN ||
	       has_capability(current, CAP_SYSLOG) || has_capability(current, CAP_SYS_ADMIN);
}

int do_syslog(int type, unsigned long ubuf, int len)
{
	if (!syslog_allowed(type))
		return -EPERM;
	switch (type) {
	case SYSLOG_ACTION_CLOSE:
	case SYSLOG_ACTION_OPEN:
		return 0;
	case SYSLOG_ACTION_READ:
	case SYSLOG_ACTION_READ_ALL:
	case SYSLOG_ACTION_READ_CLEAR:
		if (!ubuf || len < 0)
			return -EINVAL;
		if (!len)
			return 0;
		if (type == SYSLOG_ACTION_READ)
			return syslog_print(ubuf, len);
		return syslog_print_all(ubuf, len, type == SYSLOG_ACTION_READ_CLEAR);
	case SYSLOG_ACTION_CLEAR:
		clear_seq = log.head;
		return 0;
	case SYSLOG_ACTION_CONSOLE_OFF:
		if (saved_console_loglevel == -1)
			saved_console_loglevel = console_loglevel;
		console_loglevel = MINIMUM_CONSOLE_LOGLEVEL - 1;
		return 0;
	case SYSLOG_ACTION_CONSOLE_ON:
		if (saved_console_loglevel != -1) {
			console_loglevel = saved_console_loglevel;
			saved_console_loglevel = -1;
		}
		return 0;
	case SYSLOG_ACTION_CONSOLE_LEVEL:
		if (len < 1 || len > 8)
			return -EINVAL;
		/* Linux echoes levels below it; Folium's console_loglevel is
		 * the highest level echoed. */
		console_loglevel = MAX(len, MINIMUM_CONSOLE_LOGLEVEL) - 1;
		saved_console_loglevel = -1; /* an explicit level ends CONSOLE_OFF */
		return 0;
	case SYSLOG_ACTION_SIZE_UNREAD:
		return (int)(log.head - MAX(syslog_seq, log.tail));
	case SYSLOG_ACTION_SIZE_BUFFER:
		return (int)log.size;
	}
	return -EINVAL;
}

SYSCALL_DEFINE3(syslog, int, type, unsigned long, buf, int, len)
{
	(void)task;
	return do_syslog(type, buf, len);
}
