/*
 * Loader console: each message is formatted once into ASCII and written to
 * COM1 by direct port I/O and, while boot services last, to ConOut. Serial
 * is driven directly (not through the firmware) so the same code keeps
 * working after ExitBootServices, right up to the jump into the kernel.
 * Firmware that already mirrors ConOut to a UART (OVMF does) would print
 * every line twice, so while ConOut works we write COM1 ourselves only
 * when the ConOut device path has no UART in it.
 */
#include "loader.h"

#define COM1 0x3f8
#define UART_THR 0 /* transmit holding register */
#define UART_IER 1
#define UART_FCR 2
#define UART_LCR 3
#define UART_MCR 4
#define UART_LSR 5
#define UART_SCR 7 /* scratch: no side effects, so a safe probe */
#define UART_LSR_THRE 0x20
#define LINE_MAX 320

static bool serial_ok;
static bool conout_ok;
static bool conout_has_uart; /* the firmware copies ConOut to a serial port */

static inline void outb(UINT16 port, UINT8 v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline UINT8 inb(UINT16 port)
{
	UINT8 v;

	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

/* A missing UART reads back 0xff; the scratch register must echo two values. */
static bool uart_present(void)
{
	outb(COM1 + UART_SCR, 0x5a);
	if (inb(COM1 + UART_SCR) != 0x5a)
		return false;
	outb(COM1 + UART_SCR, 0xa5);
	return inb(COM1 + UART_SCR) == 0xa5;
}

/* 115200 8N1 with FIFOs, the same settings the kernel's console uses. */
static void uart_init(void)
{
	outb(COM1 + UART_IER, 0x00);
	outb(COM1 + UART_LCR, 0x80); /* DLAB: next two are the divisor */
	outb(COM1 + 0, 0x01);
	outb(COM1 + 1, 0x00);
	outb(COM1 + UART_LCR, 0x03);
	outb(COM1 + UART_FCR, 0xc7);
	outb(COM1 + UART_MCR, 0x03);
}

/*
 * Device path nodes (UEFI 2.10, 10.3): { u8 type, u8 subtype, u16 length },
 * a multi-instance path ends with type 0x7f. A UART node is messaging type
 * 0x03, subtype 0x0e.
 */
static bool device_path_has_uart(const UINT8 *p, UINTN size)
{
	UINTN off = 0;

	while (off + 4 <= size) {
		UINT16 len = p[off + 2] | (p[off + 3] << 8);

		if (p[off] == 0x03 && p[off + 1] == 0x0e)
			return true;
		if (len < 4 || (p[off] == 0x7f && p[off + 1] == 0xff))
			return false;
		off += len;
	}
	return false;
}

static bool firmware_console_on_uart(void)
{
	EFI_GUID global_variable = EFI_GLOBAL_VARIABLE;
	UINT8 path[1024];
	UINTN size = sizeof(path);
	EFI_STATUS st = efi_st->RuntimeServices->GetVariable(L"ConOut", &global_variable, NULL,
							     &size, path);

	return st == EFI_SUCCESS && device_path_has_uart(path, size);
}

void console_init(void)
{
	conout_ok = efi_st->ConOut != NULL;
	conout_has_uart = conout_ok && firmware_console_on_uart();
	serial_ok = uart_present();
	if (serial_ok)
		uart_init();
}

void console_firmware_gone(void)
{
	conout_ok = false;
}

/* Bounded wait: a UART that never drains must not hang the loader. */
static void serial_putc(char c)
{
	int spin = 100000;

	while (!(inb(COM1 + UART_LSR) & UART_LSR_THRE) && --spin)
		;
	outb(COM1 + UART_THR, (UINT8)c);
}

static void conout_write(const char *s)
{
	CHAR16 buf[64];
	UINTN n = 0;

	for (;; s++) {
		if (n == 62 || !*s) {
			buf[n] = 0;
			efi_st->ConOut->OutputString(efi_st->ConOut, buf);
			n = 0;
		}
		if (!*s)
			break;
		buf[n++] = (CHAR16)(unsigned char)*s;
	}
}

/* Write one line; @s has no line ending, both consoles get "\r\n". */
static void console_line(const char *s)
{
	const char *p;

	if (serial_ok && !(conout_ok && conout_has_uart)) {
		for (p = s; *p; p++)
			serial_putc(*p);
		serial_putc('\r');
		serial_putc('\n');
	}
	if (conout_ok) {
		conout_write(s);
		conout_write("\r\n");
	}
}

struct line {
	char buf[LINE_MAX];
	UINTN len;
};

static void put(struct line *l, char c)
{
	if (l->len < LINE_MAX - 1)
		l->buf[l->len++] = c;
}

static void put_str(struct line *l, const char *s)
{
	while (s && *s)
		put(l, *s++);
}

static void put_num(struct line *l, UINT64 v, unsigned base, bool neg)
{
	char digits[24];
	int n = 0;

	if (neg)
		put(l, '-');
	do {
		digits[n++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	while (n)
		put(l, digits[--n]);
}

/* Just the conversions loader messages use; unknown ones print verbatim. */
static void format(struct line *l, const char *fmt, va_list ap)
{
	for (; *fmt; fmt++) {
		bool is_long = false;
		INT64 s;

		if (*fmt != '%') {
			put(l, *fmt);
			continue;
		}
		if (*++fmt == 'l')
			is_long = true, fmt++;
		switch (*fmt) {
		case 's':
			put_str(l, va_arg(ap, const char *));
			break;
		case 'c':
			put(l, (char)va_arg(ap, int));
			break;
		case 'd':
			s = is_long ? va_arg(ap, INT64) : va_arg(ap, int);
			put_num(l, s < 0 ? -(UINT64)s : (UINT64)s, 10, s < 0);
			break;
		case 'u':
		case 'x':
			put_num(l, is_long ? va_arg(ap, UINT64) : va_arg(ap, unsigned),
				*fmt == 'u' ? 10 : 16, false);
			break;
		default:
			put(l, '%');
			put(l, *fmt);
			if (!*fmt)
				return;
		}
	}
}

static void vlog(const char *prefix, const char *fmt, va_list ap)
{
	struct line l = { .len = 0 };

	put_str(&l, prefix);
	format(&l, fmt, ap);
	l.buf[l.len] = '\0';
	console_line(l.buf);
}

void loader_log(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog("folium loader: ", fmt, ap);
	va_end(ap);
}

void loader_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog("folium loader: error: ", fmt, ap);
	va_end(ap);
}

const char *efi_strerror(EFI_STATUS status)
{
	switch (status) {
	case EFI_SUCCESS:
		return "success";
	case EFI_NOT_FOUND:
		return "not found";
	case EFI_OUT_OF_RESOURCES:
		return "out of memory";
	case EFI_DEVICE_ERROR:
		return "device error";
	case EFI_VOLUME_CORRUPTED:
		return "volume corrupted";
	case EFI_NO_MEDIA:
		return "no media";
	case EFI_MEDIA_CHANGED:
		return "media changed";
	case EFI_ACCESS_DENIED:
		return "access denied";
	case EFI_UNSUPPORTED:
		return "unsupported";
	case EFI_INVALID_PARAMETER:
		return "invalid parameter";
	case EFI_BUFFER_TOO_SMALL:
		return "buffer too small";
	case EFI_BAD_BUFFER_SIZE:
		return "too large";
	case EFI_END_OF_FILE:
		return "unexpected end of file";
	case EFI_LOAD_ERROR:
		return "load error";
	default:
		return "firmware error";
	}
}

/* Inline string ops: usable before and after ExitBootServices, unlike
 * BS->SetMem, and fast even for a kernel image of many megabytes. */
void mem_zero(void *p, UINTN n)
{
	__asm__ volatile("rep stosb" : "+D"(p), "+c"(n) : "a"(0) : "memory");
}

void mem_copy(void *dst, const void *src, UINTN n)
{
	__asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
}
