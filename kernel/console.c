/*
 * Consoles: output goes to every registered console (UART, framebuffer, the
 * host's stdout); input from any of them lands in one queue the shell reads.
 * Producers push from interrupt context, so the queue is touched only with
 * interrupts off. A full queue drops the newest byte: the shell sees a short
 * line rather than a corrupted one.
 */
#include <arch.h>
#include <kernel.h>
#include <sched.h>
#include <signal.h>

#define INPUT_QUEUE_SIZE 1024

static struct console *consoles;
static struct console *redirect; /* when set, the only console written */
static uint8_t input_queue[INPUT_QUEUE_SIZE];
static unsigned input_head, input_tail;	       /* head: next write, tail: next read */
static bool (*receiver)(uint8_t c);	       /* the tty's n_tty while a program owns it */
static volatile bool intr_armed, intr_pending; /* Ctrl-C while a shell command runs */

void console_register(struct console *con)
{
	struct console **p = &consoles;

	while (*p)
		p = &(*p)->next;
	con->next = NULL;
	*p = con;
}

void console_flush_on_panic(void)
{
	for (struct console *con = consoles; con; con = con->next)
		if (con->flush)
			con->flush(con);
}

void console_redirect(struct console *only)
{
	redirect = only;
}

void console_write(const char *s, size_t n)
{
	if (redirect) {
		redirect->write(redirect, s, n);
		return;
	}
	for (struct console *con = consoles; con; con = con->next)
		con->write(con, s, n);
}

void console_write_tty(const char *s, size_t n)
{
	struct console *con = redirect ? redirect : consoles;

	for (; con; con = redirect ? NULL : con->next)
		(con->write_tty ? con->write_tty : con->write)(con, s, n);
}

void console_puts(const char *s)
{
	console_write(s, strlen(s));
}

int vkprintf(const char *fmt, va_list ap)
{
	char buf[1024];
	int n = kvsnprintf(buf, sizeof(buf), fmt, ap);

	console_write(buf, MIN((size_t)n, sizeof(buf) - 1));
	return n;
}

int kprintf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vkprintf(fmt, ap);
	va_end(ap);
	return n;
}

void console_set_receiver(bool (*fn)(uint8_t c))
{
	receiver = fn;
}

bool console_intr_arm(bool on)
{
	bool was = intr_armed;

	if (on != was)
		intr_pending = false;
	intr_armed = on;
	return was;
}

bool console_interrupted(void)
{
	return intr_pending;
}

/* Tasks waiting for a byte of input (console_wait_input, a tty's poll). */
DECLARE_WAIT_QUEUE_HEAD(console_wait);

void console_input(uint8_t c)
{
	unsigned next = (input_head + 1) % INPUT_QUEUE_SIZE;

	/* The tty's line discipline takes every byte while a program owns
	 * it (n_tty's ISIG: ^C is SIGINT for its foreground group); with
	 * none, the shell's editor gets them. */
	if (receiver && receiver(c))
		return;
	if (c == 0x03 && intr_armed) {
		intr_pending = true; /* the running shell command polls it */
		return;
	}
	if (next == input_tail)
		return;
	input_queue[input_head] = c;
	input_head = next;
	wake_up(&console_wait);
}

int console_trygetc(void)
{
	unsigned long flags = arch_irq_save();
	int c = -1;

	if (input_tail != input_head) {
		c = input_queue[input_tail];
		input_tail = (input_tail + 1) % INPUT_QUEUE_SIZE;
	}
	arch_irq_restore(flags);
	return c;
}

static bool console_has_input(void)
{
	return input_tail != input_head;
}

int console_wait_input(bool interruptible)
{
	/* The boot thread (the idle task) cannot sleep: it halts until an
	 * interrupt, as before there was a scheduler. */
	if (current == &init_task) {
		arch_idle();
		return 0;
	}
	if (interruptible)
		return wait_event_interruptible(console_wait, console_has_input()) ? -EINTR : 0;
	wait_event(console_wait, console_has_input());
	return 0;
}

int console_getc(void)
{
	int c;

	while ((c = console_trygetc()) < 0)
		console_wait_input(false);
	return c;
}
