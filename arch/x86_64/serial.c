/*
 * 16550 UART on COM1 (I/O port 0x3f8), 115200 8N1, receive interrupts on
 * IRQ 4. The port is probed first (scratch register, then loopback), so a
 * PC without a serial port boots with the framebuffer console alone.
 * Output translates "\n" to "\r\n"; the receive handler is requested with
 * IRQF_TICK_POLL, so the timer tick also drains the receiver in case the
 * firmware left IRQ 4 unrouted.
 *
 * Registers (offset from 0x3f8, DLAB = LCR bit 7):
 *   0 RBR/THR (DLAB=0), DLL (DLAB=1)   1 IER, DLM (DLAB=1)
 *   2 IIR/FCR   3 LCR   4 MCR   5 LSR (bit 0 data ready, bit 5 THR empty)
 *   7 scratch
 */
#include <asm/io.h>
#include "x86.h"

#define COM1 0x3f8
#define IRQ_COM1 4
#define UART_CLOCK 115200
#define BAUD 115200
#define LSR_DATA_READY 0x01
#define LSR_THR_EMPTY 0x20
#define TX_SPIN_LIMIT 100000 /* ~0.1 s: give up on a wedged transmitter */

static bool present;

static bool uart_probe(void)
{
	outb(COM1 + 7, 0x5a);
	if (inb(COM1 + 7) != 0x5a)
		return false;
	/* Loopback: what we send must come back. */
	outb(COM1 + 4, 0x1e);
	outb(COM1 + 0, 0xae);
	for (int i = 0; i < 1000; i++)
		if (inb(COM1 + 5) & LSR_DATA_READY)
			return inb(COM1 + 0) == 0xae;
	return false;
}

static bool serial_init(void)
{
	uint16_t divisor = UART_CLOCK / BAUD;

	outb(COM1 + 1, 0x00); /* interrupts off while programming */
	outb(COM1 + 3, 0x80); /* DLAB on */
	outb(COM1 + 0, divisor & 0xff);
	outb(COM1 + 1, divisor >> 8);
	outb(COM1 + 3, 0x03); /* 8N1, DLAB off */
	outb(COM1 + 2, 0xc7); /* FIFO on, cleared, 14-byte threshold */
	present = uart_probe();
	if (!present)
		return false;
	outb(COM1 + 4, 0x0b); /* normal mode: DTR, RTS, OUT2 (IRQ gate) */
	while (inb(COM1 + 5) & LSR_DATA_READY)
		inb(COM1 + 0);
	outb(COM1 + 1, 0x01); /* interrupt on received data */
	return true;
}

bool serial_present(void)
{
	return present;
}

static void uart_putc(char c)
{
	for (int i = 0; i < TX_SPIN_LIMIT; i++)
		if (inb(COM1 + 5) & LSR_THR_EMPTY)
			break;
	outb(COM1, c);
}

void serial_write_raw(const char *s, size_t n)
{
	if (!present)
		return;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			uart_putc('\r');
		uart_putc(s[i]);
	}
}

/* Receive interrupt, and the tick's poll: drain the receiver. */
static void serial_irq(struct trap_frame *frame)
{
	while (inb(COM1 + 5) & LSR_DATA_READY)
		console_input(inb(COM1));
}

static void serial_console_write(struct console *con, const char *s, size_t n)
{
	serial_write_raw(s, n);
}

/* The tty's bytes go out as they are: n_tty's ONLCR made any CR LF. */
static void serial_console_write_tty(struct console *con, const char *s, size_t n)
{
	if (!present)
		return;
	for (size_t i = 0; i < n; i++)
		uart_putc(s[i]);
}

static struct console serial_console = {
	.name = "ttyS0",
	.write = serial_console_write,
	.write_tty = serial_console_write_tty,
};

void serial_console_init(void)
{
	if (!serial_init())
		return;
	console_register(&serial_console);
	request_irq(IRQ_COM1, serial_irq, IRQF_TICK_POLL, "ttyS0");
}
