/*
 * Boot glue for the framebuffer console: the font is Debian's Uni2-Fixed16,
 * linked into the kernel by arch/x86_64/font.asm, and the framebuffer is the
 * one the loader got from GOP, already mapped write-combining at
 * __va(fb.base) by paging_init().
 *
 * Once timers run, a scroll's redraw is deferred to a timer (Linux's
 * drm_fb_helper flushes its damage from a worker), no sooner than
 * FLUSH_INTERVAL_NS after the write and at most a quarter of the time on
 * redraws, so a burst of output (a test run prints thousands of lines)
 * redraws the screen a few times a second, not once per line. A panic or
 * fault report draws at once and writes through from then on.
 */
#include <arch.h>
#include <asm/page.h>
#include <fbcon.h>
#include <mm.h>
#include <timer.h>

#define FLUSH_INTERVAL_NS (40 * 1000 * 1000ull)

static struct psf_font boot_font;
static struct fbcon boot_fbcon;
static struct timer_list flush_timer;
static bool flush_armed;
static uint64_t last_redraw_ns; /* how long the last deferred redraw took */

static void flush_timer_fn(struct timer_list *timer)
{
	uint64_t start = arch_uptime_ns();

	flush_armed = false;
	/* The tick interrupted a write: its cells may be half done. */
	if (boot_fbcon.writing) {
		boot_fbcon.flush_later(&boot_fbcon);
		return;
	}
	fbcon_flush(&boot_fbcon);
	last_redraw_ns = arch_uptime_ns() - start;
	(void)timer;
}

static void fbcon_boot_flush_later(struct fbcon *fc)
{
	if (flush_armed)
		return;
	flush_armed = true;
	flush_timer.expires = arch_uptime_ns() + MAX(FLUSH_INTERVAL_NS, 4 * last_redraw_ns);
	add_timer(&flush_timer);
	(void)fc;
}

void fbcon_boot_init(const struct boot_info *bi)
{
	const struct boot_framebuffer *fb = &bi->fb;
	phys_addr_t cells_phys;
	size_t nr_cells;
	char err[96];

	if (fb->format == BOOT_FB_NONE)
		return;
	if (psf_parse(font_psf_start, font_psf_end - font_psf_start, &boot_font, err,
		      sizeof(err))) {
		pr_warn("fbcon: built-in font: %s\n", err);
		return;
	}
	/* The text's cells come from memblock (arch_setup built it), sized
	 * to the screen: 96 KiB at 1280x800. */
	nr_cells = fbcon_cells_needed(fb->width, fb->height, &boot_font);
	cells_phys =
		memblock_phys_alloc(&memblock, nr_cells * sizeof(struct fbcon_cell), PAGE_SIZE);
	if (!cells_phys) {
		pr_warn("fbcon: no memory for %zu text cells\n", nr_cells);
		return;
	}
	if (fbcon_init(&boot_fbcon, __va(fb->base), fb->width, fb->height, fb->pixels_per_scanline,
		       fb->format, fb->red_mask, fb->green_mask, fb->blue_mask, &boot_font,
		       __va(cells_phys), nr_cells)) {
		pr_warn("fbcon: unusable framebuffer %ux%u pitch %u format %u\n", fb->width,
			fb->height, fb->pixels_per_scanline, fb->format);
		return;
	}
	console_register(&boot_fbcon.con);
	pr_info("fbcon: %ux%u framebuffer, %ux%u text cells of %ux%u\n", fb->width, fb->height,
		boot_fbcon.cols, boot_fbcon.rows, boot_font.width, boot_font.height);
}

struct fbcon *fbcon_boot_console(void)
{
	return boot_fbcon.pixels ? &boot_fbcon : NULL;
}

void fbcon_boot_defer(void)
{
	if (!boot_fbcon.pixels)
		return;
	timer_setup(&flush_timer, flush_timer_fn);
	boot_fbcon.flush_later = fbcon_boot_flush_later;
	boot_fbcon.defer = true;
}
