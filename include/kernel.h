/*
 * The kernel core's public contract: formatting (lib/), printk, consoles,
 * panic, the command line and its registered keys. Everything here is
 * plain C that also builds on the host (arch/host), so the pieces can be
 * unit-tested there. Declarations are grouped by the file that
 * implements them.
 */
#ifndef FOLIUM_KERNEL_H
#define FOLIUM_KERNEL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <generated/config.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#ifndef ULONG_MAX /* the host's <limits.h> may have defined it */
#define ULONG_MAX (~0ul)
#endif
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
/* Branch hints for fast paths (Linux: include/linux/compiler.h). */
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#ifndef __always_inline /* the host's libc may have defined it */
#define __always_inline inline __attribute__((__always_inline__))
#endif
#define noinline __attribute__((__noinline__))
/* Fetch the cache line at x for writing, a hint that never faults (Linux:
 * prefetchw, include/linux/prefetch.h). */
#define prefetchw(x) __builtin_prefetch((x), 1)
#define ALIGN_UP(x, a) (((x) + (a)-1) & ~((__typeof__(x))(a)-1))
/* Linux: DIV_ROUND_UP. */
#define DIV_ROUND_UP(n, d) (((n) + (d)-1) / (d))
#define ALIGN_DOWN(x, a) ((x) & ~((__typeof__(x))(a)-1))
#define __printf(a, b) __attribute__((format(printf, a, b)))
#define __noreturn __attribute__((noreturn))
#define __unused __attribute__((unused))
#define __packed __attribute__((packed))
#define KIB (1024ull)
#define MIB (1024ull * KIB)
#define GIB (1024ull * MIB)

/* lib/format.c: printf-style formatting, no floating point. */
int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int ksnprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);
/* Parse a decimal or 0x-hex unsigned number that fills all of s.
 * Return: 0 on success, -1 if s is empty, malformed or overflows. */
int kstrtou64(const char *s, uint64_t *out);
/* Parse a size like 512, 64K, 16M, 2G (binary units: K, M, G, T, P, E
 * in either case, as Linux's memparse). Return: 0 on success, -1 if
 * malformed or overflows. */
int kparse_size(const char *s, uint64_t *out);
/* Format a byte count as "512 B", "64 KiB", "1.5 GiB" into buf. */
const char *kformat_size(char *buf, size_t size, uint64_t bytes);
/* Return: the index of s in array[0..n), or -EINVAL (Linux: match_string;
 * NULL entries are skipped). */
int match_string(const char *const *array, size_t n, const char *s);

/* kernel/printk.c: leveled log into a ring buffer, echoed to consoles. */
#define KERN_EMERG "\0010"
#define KERN_ALERT "\0011"
#define KERN_CRIT "\0012"
#define KERN_ERR "\0013"
#define KERN_WARNING "\0014"
#define KERN_NOTICE "\0015"
#define KERN_INFO "\0016"
#define KERN_DEBUG "\0017"
#define LOGLEVEL_DEFAULT 6 /* KERN_INFO, used when no level is given */
int printk(const char *fmt, ...) __printf(1, 2);
int vprintk(const char *fmt, va_list ap);
#define pr_emerg(...) printk(KERN_EMERG __VA_ARGS__)
#define pr_err(...) printk(KERN_ERR __VA_ARGS__)
#define pr_warn(...) printk(KERN_WARNING __VA_ARGS__)
#define pr_notice(...) printk(KERN_NOTICE __VA_ARGS__)
#define pr_info(...) printk(KERN_INFO __VA_ARGS__)
#define pr_debug(...) printk(KERN_DEBUG __VA_ARGS__)
/* Messages at a level numerically above this are logged but not echoed. */
void printk_set_console_loglevel(int level);
/* Copy the log from byte position *seq on, as "[    1.234567] text\n"
 * lines. Return: bytes stored; *seq advances past them (a position whose
 * bytes were overwritten meanwhile moves to the oldest whole line). */
size_t printk_log_read(uint64_t *seq, char *buf, size_t size);
/* syslog(2)'s actions (Linux: include/linux/syslog.h). */
#define SYSLOG_ACTION_CLOSE 0
#define SYSLOG_ACTION_OPEN 1
#define SYSLOG_ACTION_READ 2
#define SYSLOG_ACTION_READ_ALL 3
#define SYSLOG_ACTION_READ_CLEAR 4
#define SYSLOG_ACTION_CLEAR 5
#define SYSLOG_ACTION_CONSOLE_OFF 6
#define SYSLOG_ACTION_CONSOLE_ON 7
#define SYSLOG_ACTION_CONSOLE_LEVEL 8
#define SYSLOG_ACTION_SIZE_UNREAD 9
#define SYSLOG_ACTION_SIZE_BUFFER 10
/*
 * do_syslog - syslog(2)'s work (Linux: do_syslog): READ waits for
 * unread lines and consumes them (as /proc/kmsg), READ_ALL copies the
 * newest whole lines since the last CLEAR that fit in @len, each as
 * "<L>[    1.234567] text\n"; SIZE_UNREAD and SIZE_BUFFER are byte
 * counts; CONSOLE_OFF/ON/LEVEL set the console loglevel (@len 1..8).
 * Return: bytes copied, a count, 0, or -EINVAL (unknown @type, NULL
 * @ubuf or negative @len for a read, a level outside 1..8), -EFAULT,
 * -EPERM without CAP_SYSLOG, -ERESTARTSYS (a signal while READ waits).
 */
int do_syslog(int type, unsigned long ubuf, int len);

/* The byte ring under printk, usable on its own (tests use private ones). */
struct log_ring {
	char *buf;
	size_t size;
	uint64_t head; /* bytes ever appended */
	uint64_t tail; /* first byte of the oldest whole line kept */
};
void log_ring_append(struct log_ring *r, const char *s, size_t n);
uint64_t log_ring_first_seq(const struct log_ring *r);
size_t log_ring_read(const struct log_ring *r, uint64_t *seq, char *buf, size_t size);

/* kernel/console.c: output to every registered console, input from any. */
struct console {
	const char *name;
	/* The kernel's text: '\n' starts a new line (Linux's consoles turn
	 * it into CR LF, as uart_console_write and vt_console_print do). */
	void (*write)(struct console *con, const char *s, size_t n);
	/* The tty's bytes after its output processing (n_tty's OPOST): '\n'
	 * is a bare line feed, as a terminal takes it. NULL: write. */
	void (*write_tty)(struct console *con, const char *s, size_t n);
	/* Show what the console holds back and write through from now on
	 * (console_flush_on_panic). NULL: nothing is ever held back. */
	void (*flush)(struct console *con);
	struct console *next;
};
void console_register(struct console *con);
/* The machine is going down (a panic or a fault report): every console
 * shows what it holds back and writes through from now on (Linux:
 * console_flush_on_panic). Context: any, interrupts off. */
void console_flush_on_panic(void);
/* Bytes from the tty to every console's write_tty (fs/n_tty.c). */
void console_write_tty(const char *s, size_t n);
/* Send all output to one console only (tests capture command output this
 * way), or to every console again when only is NULL. */
void console_redirect(struct console *only);
/* Write raw bytes to every console ("\n" is sent as-is; consoles that need
 * "\r\n" translate themselves). */
void console_write(const char *s, size_t n);
void console_puts(const char *s);
/* Unformatted printf to the consoles only (not the log): shell output. */
int kprintf(const char *fmt, ...) __printf(1, 2);
int vkprintf(const char *fmt, va_list ap);
/* Input: drivers push bytes from interrupt context; the shell pulls.
 * Keys that are not bytes arrive as ANSI sequences (ESC [ A for up). */
void console_input(uint8_t c);
/* The tty's receiver (fs/tty_io.c): each input byte goes to @fn first,
 * and is queued only when @fn returns false. Context: @fn runs in
 * interrupt context. */
void console_set_receiver(bool (*fn)(uint8_t c));
/* Return: the next input byte, or -1 if none is queued. */
int console_trygetc(void);
/* Block (idling the CPU) until a byte arrives. Return: that byte. */
int console_getc(void);
/* Woken when a byte is queued: a tty's poll waits on it. */
extern struct wait_queue_head console_wait;
/* Sleep until input is queued (the boot thread halts until an interrupt
 * instead). Return: 0, or -EINTR if @interruptible and a signal came. */
int console_wait_input(bool interruptible);
/* Ctrl-C for a shell command: while armed, a 0x03 byte that no program
 * takes as SIGINT is not queued but noted, and console_interrupted()
 * says so until the command ends (a volatile load: long loops poll it,
 * as Linux's loops poll fatal_signal_pending). Arming clears the note;
 * arming an armed console keeps it. Return: whether it was armed. */
bool console_intr_arm(bool on);
bool console_interrupted(void);

/* kernel/panic.c */
void __noreturn panic(const char *fmt, ...) __printf(1, 2);
#define BUG_ON(cond)                                                             \
	do {                                                                     \
		if (cond)                                                        \
			panic("BUG_ON(%s) at %s:%d", #cond, __FILE__, __LINE__); \
	} while (0)

/* kernel/cmdline.c: key=value words, values may be "quoted with spaces". */
#define CMDLINE_VALUE_MAX 1024
struct cmdline_param {
	char key[32];
	char value[CMDLINE_VALUE_MAX];
};
#define CMDLINE_MAX_PARAMS 32
struct cmdline {
	int nparams;
	struct cmdline_param params[CMDLINE_MAX_PARAMS];
	char error[128]; /* first parse error, "" if none */
};
/* Parse text into cl. Return: 0, or -1 with cl->error describing the
 * problem (unterminated quote, key or value too long, too many words);
 * the words before the error are kept. */
int cmdline_parse(struct cmdline *cl, const char *text);
/* Return: the value of the last key=value (or "" for a bare key), or NULL. */
const char *cmdline_get(const struct cmdline *cl, const char *key);
/* The boot command line, parsed once at boot. */
extern struct cmdline boot_cmdline;
extern char boot_cmdline_text[];

/*
 * The keys a boot command line may hold. Each is registered once, with
 * CMDLINE_KEY() at file scope next to the code that reads it, e.g.
 *     CMDLINE_KEY(loglevel, "0..7: console log level (default 7)");
 *     ... const char *level = boot_cmdline_get(loglevel);
 * and the boot warns about any word whose key nobody registered (Linux:
 * early_param()/__setup(), without the callback: the owner reads its
 * value when it initialises). Keys are C identifiers.
 */
struct cmdline_key {
	const char *name;
	const char *help; /* one line: the values, then what they do */
};
#define CMDLINE_KEY(key, helptext)                                                \
	static const struct cmdline_key __cmdline_key_##key = { #key, helptext }; \
	static const struct cmdline_key *__cmdline_key_ptr_##key                  \
		__attribute__((used, section("cmdline_keys"))) = &__cmdline_key_##key
/* Return: the boot command line's value for a key this file registered
 * ("" for a bare key), or NULL if the command line does not have it. */
#define boot_cmdline_get(key) cmdline_get(&boot_cmdline, __cmdline_key_##key.name)
/* Return: the registered key called name, or NULL. */
const struct cmdline_key *cmdline_key_find(const char *name);
/* Return: the nth registered key (link order), or NULL past the last. */
const struct cmdline_key *cmdline_key_nth(size_t n);

#endif
