/*
 * PS/2 keyboard through the i8042 controller: port 0x60 data, 0x64
 * status (read) / command (write). The keyboard is left as the firmware
 * configured it (no reset: slow, and it hangs some machines); the
 * controller's translation makes it speak scancode set 1 whatever set the
 * keyboard uses, and kernel/keymap.c turns that into console bytes.
 * Every wait on the controller is bounded: a wedged or emulated 8042
 * costs a few milliseconds at boot, never a hang.
 *
 * Status register:  bit 0 output full (data for us)  bit 1 input full
 *   (controller busy)  bit 5 the output byte came from the mouse
 * Config byte (commands 0x20 read / 0x60 write):  bit 0 port 1 IRQ
 *   bit 1 port 2 IRQ  bit 4 port 1 clock off  bit 6 translation on
 */
#include <keymap.h>
#include <asm/io.h>
#include "x86.h"

#define I8042_DATA 0x60
#define I8042_STATUS 0x64
#define I8042_CMD 0x64
#define STS_OUT_FULL 0x01
#define STS_IN_FULL 0x02
#define STS_AUX_DATA 0x20
#define CMD_READ_CONFIG 0x20
#define CMD_WRITE_CONFIG 0x60
#define CMD_ENABLE_PORT1 0xae
#define CFG_PORT1_IRQ 0x01
#define CFG_PORT1_CLOCK_OFF 0x10
#define CFG_TRANSLATE 0x40
#define KBD_ENABLE_SCANNING 0xf4
#define KBD_ACK 0xfa
#define SPIN_LIMIT 100000 /* ~0.1 s of port reads */
#define FLUSH_LIMIT 64	  /* the output buffer holds 16 bytes at most */
#define IRQ_KEYBOARD 1

static struct keymap_state keys;

static bool wait_input_empty(void)
{
	for (int i = 0; i < SPIN_LIMIT; i++)
		if (!(inb(I8042_STATUS) & STS_IN_FULL))
			return true;
	return false;
}

static int read_data(void)
{
	for (int i = 0; i < SPIN_LIMIT; i++)
		if (inb(I8042_STATUS) & STS_OUT_FULL)
			return inb(I8042_DATA);
	return -1;
}

static bool write_port(uint16_t port, uint8_t v)
{
	if (!wait_input_empty())
		return false;
	outb(port, v);
	return true;
}

static void flush_output(void)
{
	for (int i = 0; i < FLUSH_LIMIT; i++) {
		if (!(inb(I8042_STATUS) & STS_OUT_FULL))
			return;
		inb(I8042_DATA);
		io_delay();
	}
}

/* IRQ 1, and the tick's poll: read every byte the controller holds;
 * mouse bytes are dropped. The bound keeps a stuck status bit from
 * pinning the CPU in the handler. */
static void i8042_irq(struct trap_frame *frame)
{
	uint8_t out[KEYMAP_OUT_MAX];

	for (int i = 0; i < FLUSH_LIMIT; i++) {
		uint8_t status = inb(I8042_STATUS), sc;
		int n;

		if (!(status & STS_OUT_FULL))
			return;
		sc = inb(I8042_DATA);
		if (status & STS_AUX_DATA)
			continue;
		n = keymap_feed(&keys, sc, out);
		for (int j = 0; j < n; j++)
			console_input(out[j]);
	}
}

/* Port 1 interrupts on, its clock on, set 2 -> set 1 translation on. */
static bool configure(void)
{
	int cfg;

	if (!write_port(I8042_CMD, CMD_READ_CONFIG))
		return false;
	cfg = read_data();
	if (cfg < 0)
		return false;
	cfg = (cfg | CFG_PORT1_IRQ | CFG_TRANSLATE) & ~CFG_PORT1_CLOCK_OFF;
	return write_port(I8042_CMD, CMD_WRITE_CONFIG) && write_port(I8042_DATA, cfg) &&
	       write_port(I8042_CMD, CMD_ENABLE_PORT1);
}

void i8042_init(void)
{
	/* No controller: the bus floats and reads back all ones. */
	if (inb(I8042_STATUS) == 0xff) {
		pr_info("i8042: no PS/2 controller\n");
		return;
	}
	flush_output();
	if (!configure()) {
		pr_warn("i8042: controller does not respond; no PS/2 keyboard\n");
		return;
	}
	/* Firmware may have left scanning off; the keyboard answers ACK. */
	if (write_port(I8042_DATA, KBD_ENABLE_SCANNING) && read_data() != KBD_ACK)
		pr_info("i8042: no ACK to enable-scanning (no keyboard?)\n");
	flush_output();
	keymap_init(&keys);
	request_irq(IRQ_KEYBOARD, i8042_irq, IRQF_TICK_POLL, "i8042");
	pr_info("i8042: PS/2 keyboard on IRQ %d\n", IRQ_KEYBOARD);
}
