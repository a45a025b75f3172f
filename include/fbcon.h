/*
 * The framebuffer text console: a PC Screen Font (PSF1/PSF2) parser and a
 * console that draws text into a 32-bit linear framebuffer. Both are plain
 * C over memory, so the host tests render into an array and check pixels;
 * only fbcon_boot_init() knows where the real framebuffer lives.
 */
#ifndef FOLIUM_FBCON_H
#define FOLIUM_FBCON_H

#include <boot_info.h>
#include <kernel.h>

/* kernel/psf.c: PC Screen Font versions 1 and 2. */
struct psf_font {
	const uint8_t *glyphs; /* glyph 0; each glyph is height * stride bytes */
	uint32_t nglyphs;
	uint32_t width, height; /* pixels */
	uint32_t stride;	/* bytes per glyph row: (width + 7) / 8 */
	uint32_t glyph_size;	/* bytes per glyph */
	/* The unicode table (PSF1: u16 entries, PSF2: UTF-8), NULL if none. */
	const uint8_t *utab;
	size_t utab_size;
	int version;	      /* 1 or 2 */
	uint16_t latin1[256]; /* glyph for code points 0..255 */
	uint16_t replacement; /* glyph for anything unmapped: '?' */
};

/* Validate a PSF1 or PSF2 image of size bytes at data and describe it in
 * out. out->glyphs and out->utab point into data, which must outlive it.
 * Return: 0, or -1 with a message naming the problem in err. */
int psf_parse(const void *data, size_t size, struct psf_font *out, char *err, size_t errlen);
/* The console font linked into the kernel (arch/x86_64/font.asm). */
extern const uint8_t font_psf_start[], font_psf_end[];
/* Return: the glyph index for Unicode code point cp (the replacement glyph
 * if the font has none). Code points above 255 scan the unicode table. */
uint32_t psf_glyph_index(const struct psf_font *font, uint32_t cp);

/* kernel/fbcon.c: a console drawing into a framebuffer in memory. */

#define FBCON_BLANK 0xffff /* a cell of background only */

struct fbcon_cell {
	uint32_t fg, bg; /* encoded pixel values */
	uint16_t glyph;	 /* a glyph index, or FBCON_BLANK */
};

struct fbcon {
	struct console con; /* first: the write hook casts back */
	uint32_t *pixels;
	uint32_t width, height, pitch; /* pitch in pixels, >= width */
	const struct psf_font *font;
	uint32_t cols, rows; /* text cells that fit */
	uint32_t cx, cy;     /* the insertion point */
	uint32_t fg, bg;     /* encoded pixel values */
	uint32_t format;     /* enum boot_fb_format */
	uint32_t masks[3];   /* red, green, blue (BOOT_FB_BITMASK only) */
	bool cursor_shown;
	/* The text, a ring of rows: screen row r is ring row (top + r) % rows. */
	uint32_t top;
	bool redraw_pending; /* the screen shows less than the cells hold */
	/* Set by the owner: a write leaves a redraw pending for
	 * fbcon_flush() and calls flush_later (if set) to schedule it. */
	bool defer;
	void (*flush_later)(struct fbcon *fc);
	bool writing;	 /* inside fbcon_write: the cells may be half updated */
	bool tty_output; /* writing the tty's bytes: '\n' is a bare line feed */
	/* Escape sequence parser and UTF-8 decoder state. */
	uint8_t esc_state;
	uint32_t esc_param;
	uint32_t utf8_cp;
	uint8_t utf8_left;
	struct fbcon_cell *cells; /* cols * rows of them */
};

/* Set up fc to draw into width x height pixels, pitch pixels per scanline,
 * in format (enum boot_fb_format; masks used for BOOT_FB_BITMASK), with
 * font, keeping the text in cells, nr_cells of them (fewer than the
 * screen has: the rows that fit). Clears the screen and shows the
 * cursor at the top left.
 * Return: 0, or -1 if the format is unknown or not one cell fits. */
int fbcon_init(struct fbcon *fc, void *pixels, uint32_t width, uint32_t height, uint32_t pitch,
	       uint32_t format, uint32_t red_mask, uint32_t green_mask, uint32_t blue_mask,
	       const struct psf_font *font, struct fbcon_cell *cells, size_t nr_cells);
/* Return: the cells a width x height screen of font's glyphs holds. */
static inline size_t fbcon_cells_needed(uint32_t width, uint32_t height,
					const struct psf_font *font)
{
	return (size_t)(width / font->width) * (height / font->height);
}
/* Colors as 0xRRGGBB; takes effect for text drawn from now on. */
void fbcon_set_colors(struct fbcon *fc, uint32_t fg_rgb, uint32_t bg_rgb);
/* Return: 0xRRGGBB encoded in fc's pixel format. */
uint32_t fbcon_pixel(const struct fbcon *fc, uint32_t rgb);
/* Draw n bytes: printable text (UTF-8), \n \r \b \t, and ESC [ K, ESC [ n C,
 * ESC [ n D; other escape sequences are consumed without drawing. */
void fbcon_write(struct fbcon *fc, const char *s, size_t n);

/* Draw the whole screen from the cells if a scroll left it pending. */
void fbcon_flush(struct fbcon *fc);

/* kernel/fbcon_boot.c (kernel only): register the GOP framebuffer as a
 * console with the font linked into the kernel. Does nothing if the loader
 * found no framebuffer.
 * Context: after paging_init() mapped the framebuffer at __va(fb.base). */
void fbcon_boot_init(const struct boot_info *bi);
/* From now on a scroll's redraw waits for a timer (kernel/fbcon_boot.c).
 * Context: once timer interrupts arrive (after arch_late_setup()). */
void fbcon_boot_defer(void);
/* Return: the boot console, or NULL if there is no framebuffer. */
struct fbcon *fbcon_boot_console(void);

#endif
