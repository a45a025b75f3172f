/*
 * Boot glue for the framebuffer console: the font is Debian's Uni2-Fixed16,
 * linked into the kernel by arch/x86_64/font.asm, and the framebuffer is the
 * one the loader got from GOP, already mapped write-combining at
 * __va(fb.base) by paging_init().
 */
#include <asm/page.h>
#include <fbcon.h>

static struct psf_font boot_font;
static struct fbcon boot_fbcon;

void fbcon_boot_init(const struct boot_info *bi)
{
	const struct boot_framebuffer *fb = &bi->fb;
	char err[96];

	if (fb->format == BOOT_FB_NONE)
		return;
	if (psf_parse(font_psf_start, font_psf_end - font_psf_start, &boot_font, err,
		      sizeof(err))) {
		pr_warn("fbcon: built-in font: %s\n", err);
		return;
	}
	if (fbcon_init(&boot_fbcon, __va(fb->base), fb->width, fb->height, fb->pixels_per_scanline,
		       fb->format, fb->red_mask, fb->green_mask, fb->blue_mask, &boot_font)) {
		pr_warn("fbcon: unusable framebuffer %ux%u pitch %u format %u\n", fb->width,
			fb->height, fb->pixels_per_scanline, fb->format);
		return;
	}
	console_register(&boot_fbcon.con);
	pr_info("fbcon: %ux%u framebuffer, %ux%u text cells of %ux%u\n", fb->width, fb->height,
		boot_fbcon.cols, boot_fbcon.rows, boot_font.width, boot_font.height);
}
