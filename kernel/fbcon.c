/*
 * Framebuffer text console: a grid of font cells over a 32-bit linear
 * framebuffer, written like a minimal VT100. Cell (col, row) starts at
 * pixel (col * font width, row * font height); pixel (x, y) is
 * pixels[y * pitch + x]. Writing into the last column wraps at once, so the
 * insertion point (cx, cy) is always a visible cell where the cursor, an
 * underline XORed into the cell's bottom rows, is drawn. The cursor is
 * removed before any drawing and put back when a write returns.
 *
 * The text is kept in cells (glyph and colors), a ring of rows, and the
 * framebuffer is only ever written, never read: a scroll moves the ring's
 * top and leaves the whole screen to be redrawn from the cells, as
 * Linux's fbcon does on a framebuffer it cannot read back fast
 * (SCROLL_REDRAW; efifb's memory is write-combining or uncached). Text
 * written while no redraw is pending is drawn at once; a pending redraw
 * happens at the end of the write, or, with defer set, when the owner calls
 * fbcon_flush() (Linux's drm_fb_helper flushes its damage from a worker
 * the same way), so a burst of scrolling output costs one redraw per flush
 * rather than a screen of pixels per line.
 */
#include <fbcon.h>

#define DEFAULT_FG 0xaaaaaa /* light grey, VGA color 7 */
#define DEFAULT_BG 0x000000
#define TAB_WIDTH 8
#define ESC_PARAM_MAX 9999

enum {
	ESC_NONE,
	ESC_SEEN,
	ESC_CSI
};

/* Scale an 8-bit channel into the bits of mask (BOOT_FB_BITMASK). */
static uint32_t channel_to_mask(uint32_t c, uint32_t mask)
{
	int shift = 0, bits = 0;

	if (!mask)
		return 0;
	while (!(mask >> shift & 1))
		shift++;
	while (shift + bits < 32 && mask >> (shift + bits) & 1)
		bits++;
	c = bits >= 8 ? c << (bits - 8) : c >> (8 - bits);
	return c << shift & mask;
}

/*
 * 32-bit pixel layouts, byte 0 first in memory (a little-endian u32):
 *   RGBX: R G B x  -> 0x00BBGGRR      BGRX: B G R x  -> 0x00RRGGBB
 */
uint32_t fbcon_pixel(const struct fbcon *fc, uint32_t rgb)
{
	uint32_t r = rgb >> 16 & 0xff, g = rgb >> 8 & 0xff, b = rgb & 0xff;

	switch (fc->format) {
	case BOOT_FB_RGBX:
		return r | g << 8 | b << 16;
	case BOOT_FB_BGRX:
		return b | g << 8 | r << 16;
	default:
		return channel_to_mask(r, fc->masks[0]) | channel_to_mask(g, fc->masks[1]) |
		       channel_to_mask(b, fc->masks[2]);
	}
}

void fbcon_set_colors(struct fbcon *fc, uint32_t fg_rgb, uint32_t bg_rgb)
{
	fc->fg = fbcon_pixel(fc, fg_rgb);
	fc->bg = fbcon_pixel(fc, bg_rgb);
}

static uint32_t *cell_origin(struct fbcon *fc, uint32_t col, uint32_t row)
{
	return fc->pixels + (size_t)row * fc->font->height * fc->pitch +
	       (size_t)col * fc->font->width;
}

/* The cell of text row row (0: the top of the screen) in column col. */
static struct fbcon_cell *cell_at(struct fbcon *fc, uint32_t col, uint32_t row)
{
	uint32_t ring_row = fc->top + row;

	if (ring_row >= fc->rows)
		ring_row -= fc->rows;
	return &fc->cells[(size_t)ring_row * fc->cols + col];
}

/* Draw cell (col, row) from the text: a glyph, or the background. */
static void draw_cell(struct fbcon *fc, uint32_t col, uint32_t row)
{
	const struct fbcon_cell *cell = cell_at(fc, col, row);
	const struct psf_font *f = fc->font;
	const uint8_t *bits = f->glyphs + (size_t)cell->glyph * f->glyph_size;
	uint32_t *line = cell_origin(fc, col, row);

	for (uint32_t y = 0; y < f->height; y++, line += fc->pitch) {
		const uint8_t *glyph_row = bits + y * f->stride;

		if (cell->glyph == FBCON_BLANK) {
			for (uint32_t x = 0; x < f->width; x++)
				line[x] = cell->bg;
			continue;
		}
		/* Glyph rows are MSB first: bit 7 of byte 0 is x = 0. */
		for (uint32_t x = 0; x < f->width; x++)
			line[x] = glyph_row[x / 8] & (0x80 >> (x % 8)) ? cell->fg : cell->bg;
	}
}

static void put_cell(struct fbcon *fc, uint32_t col, uint32_t row, uint32_t glyph)
{
	struct fbcon_cell *cell = cell_at(fc, col, row);

	cell->glyph = (uint16_t)glyph;
	cell->fg = fc->fg;
	cell->bg = fc->bg;
	if (!fc->redraw_pending)
		draw_cell(fc, col, row);
}

/* Blank cells [col0, col1) of row in the background color. */
static void clear_cells(struct fbcon *fc, uint32_t row, uint32_t col0, uint32_t col1)
{
	for (uint32_t col = col0; col < col1; col++)
		put_cell(fc, col, row, FBCON_BLANK);
}

/* XOR is its own inverse, so drawing twice removes the cursor exactly. */
static void toggle_cursor(struct fbcon *fc)
{
	uint32_t h = fc->font->height, thick = MAX(h / 8, 1u);
	uint32_t *line = cell_origin(fc, fc->cx, fc->cy) + (h - thick) * fc->pitch;
	uint32_t mask = fc->fg ^ fc->bg;

	fc->cursor_shown = !fc->cursor_shown;
	/* The redraw draws the cursor where cursor_shown says. */
	if (fc->redraw_pending)
		return;
	for (uint32_t y = 0; y < thick; y++, line += fc->pitch)
		for (uint32_t x = 0; x < fc->font->width; x++)
			line[x] ^= mask;
}

/* Move every text row up by one and blank the last: the ring's top moves
 * and every cell on the screen is to be drawn again. */
static void scroll_up(struct fbcon *fc)
{
	fc->top = fc->top + 1 == fc->rows ? 0 : fc->top + 1;
	fc->redraw_pending = true;
	clear_cells(fc, fc->rows - 1, 0, fc->cols);
}

void fbcon_flush(struct fbcon *fc)
{
	if (!fc->redraw_pending)
		return;
	fc->redraw_pending = false;
	for (uint32_t row = 0; row < fc->rows; row++)
		for (uint32_t col = 0; col < fc->cols; col++)
			draw_cell(fc, col, row);
	if (fc->cursor_shown) {
		/* toggle_cursor flips the state and draws the underline */
		fc->cursor_shown = false;
		toggle_cursor(fc);
	}
}

static void newline(struct fbcon *fc)
{
	fc->cx = 0;
	if (fc->cy + 1 < fc->rows)
		fc->cy++;
	else
		scroll_up(fc);
}

static void put_codepoint(struct fbcon *fc, uint32_t cp)
{
	put_cell(fc, fc->cx, fc->cy, psf_glyph_index(fc->font, cp));
	if (++fc->cx == fc->cols)
		newline(fc);
}

/* \b steps back across a wrap too, so "\b \b" erases the last character
 * of a line that wrapped exactly at the right edge. */
static void backspace(struct fbcon *fc)
{
	if (fc->cx > 0) {
		fc->cx--;
	} else if (fc->cy > 0) {
		fc->cy--;
		fc->cx = fc->cols - 1;
	}
}

static void control(struct fbcon *fc, uint8_t c)
{
	switch (c) {
	case '\n':
		/* Linux's VT: a line feed keeps the column (lf); the
		 * kernel's own '\n' is CR LF (vt_console_print). */
		if (fc->tty_output) {
			uint32_t cx = fc->cx;

			newline(fc);
			fc->cx = cx;
		} else {
			newline(fc);
		}
		break;
	case '\r':
		fc->cx = 0;
		break;
	case '\b':
		backspace(fc);
		break;
	case '\t':
		do
			put_codepoint(fc, ' ');
		while (fc->cx % TAB_WIDTH && fc->cx);
		break;
	case 0x1b:
		fc->esc_state = ESC_SEEN;
		break;
	}
}

/* A complete CSI sequence ESC [ param final; others are ignored. */
static void csi_final(struct fbcon *fc, uint8_t final)
{
	uint32_t n = fc->esc_param ? fc->esc_param : 1;

	switch (final) {
	case 'K':
		if (fc->esc_param == 0)
			clear_cells(fc, fc->cy, fc->cx, fc->cols);
		break;
	case 'C':
		fc->cx = MIN(fc->cx + n, fc->cols - 1);
		break;
	case 'D':
		fc->cx = fc->cx > n ? fc->cx - n : 0;
		break;
	}
}

/*
 * ECMA-48 control sequence: ESC [ (parameter bytes 0x30-0x3f)*
 * (intermediate bytes 0x20-0x2f)* final byte 0x40-0x7e. Any other byte
 * aborts the sequence and is dropped, so garbage never reaches the screen.
 */
static void escape_byte(struct fbcon *fc, uint8_t c)
{
	if (fc->esc_state == ESC_SEEN) {
		/* ESC [ starts a CSI; ESC (intermediates)* final, such as
		 * ESC ( B, is a whole sequence of its own. */
		if (c == '[')
			fc->esc_state = ESC_CSI;
		else if (c < 0x20 || c > 0x2f)
			fc->esc_state = ESC_NONE;
		fc->esc_param = 0;
		return;
	}
	if (c >= '0' && c <= '9') {
		fc->esc_param = MIN(fc->esc_param * 10 + (c - '0'), (uint32_t)ESC_PARAM_MAX);
		return;
	}
	if (c >= 0x20 && c <= 0x3f)
		return;
	if (c >= 0x40 && c <= 0x7e)
		csi_final(fc, c);
	fc->esc_state = c == 0x1b ? ESC_SEEN : ESC_NONE;
}

static void fbcon_putb(struct fbcon *fc, uint8_t c);

/* UTF-8: a lead byte 110xxxxx/1110xxxx/11110xxx announces 1-3 more bytes
 * 10xxxxxx. A broken sequence draws one replacement glyph. */
static void utf8_byte(struct fbcon *fc, uint8_t c)
{
	if (fc->utf8_left && (c & 0xc0) == 0x80) {
		fc->utf8_cp = fc->utf8_cp << 6 | (c & 0x3f);
		if (--fc->utf8_left == 0)
			put_codepoint(fc, fc->utf8_cp);
		return;
	}
	if (fc->utf8_left) {
		fc->utf8_left = 0;
		put_codepoint(fc, '?');
		fbcon_putb(fc, c); /* c starts afresh */
		return;
	}
	if (c >= 0xc0 && c < 0xf8) {
		fc->utf8_left = c < 0xe0 ? 1 : c < 0xf0 ? 2 : 3;
		fc->utf8_cp = c & (0x3f >> fc->utf8_left);
	} else {
		put_codepoint(fc, '?');
	}
}

static void fbcon_putb(struct fbcon *fc, uint8_t c)
{
	if (fc->esc_state != ESC_NONE)
		escape_byte(fc, c);
	else if (c >= 0x80 || fc->utf8_left)
		utf8_byte(fc, c);
	else if (c < 0x20 || c == 0x7f)
		control(fc, c);
	else
		put_codepoint(fc, c);
}

void fbcon_write(struct fbcon *fc, const char *s, size_t n)
{
	fc->writing = true;
	if (fc->cursor_shown)
		toggle_cursor(fc);
	for (size_t i = 0; i < n; i++)
		fbcon_putb(fc, (uint8_t)s[i]);
	toggle_cursor(fc);
	fc->writing = false;
	if (!fc->defer)
		fbcon_flush(fc);
	else if (fc->redraw_pending && fc->flush_later)
		fc->flush_later(fc);
}

static void fbcon_con_write(struct console *con, const char *s, size_t n)
{
	fbcon_write((struct fbcon *)con, s, n);
}

static void fbcon_con_write_tty(struct console *con, const char *s, size_t n)
{
	struct fbcon *fc = (struct fbcon *)con;

	fc->tty_output = true;
	fbcon_write(fc, s, n);
	fc->tty_output = false;
}

/* console_flush_on_panic: no timer may ever flush again. */
static void fbcon_con_flush(struct console *con)
{
	struct fbcon *fc = (struct fbcon *)con;

	fc->defer = false;
	fbcon_flush(fc);
}

int fbcon_init(struct fbcon *fc, void *pixels, uint32_t width, uint32_t height, uint32_t pitch,
	       uint32_t format, uint32_t red_mask, uint32_t green_mask, uint32_t blue_mask,
	       const struct psf_font *font, struct fbcon_cell *cells, size_t nr_cells)
{
	memset(fc, 0, sizeof(*fc));
	if (format < BOOT_FB_RGBX || format > BOOT_FB_BITMASK || pitch < width ||
	    width < font->width || height < font->height || nr_cells < width / font->width)
		return -1;
	fc->con.name = "fbcon";
	fc->con.write = fbcon_con_write;
	fc->con.write_tty = fbcon_con_write_tty;
	fc->con.flush = fbcon_con_flush;
	fc->pixels = pixels;
	fc->width = width;
	fc->height = height;
	fc->pitch = pitch;
	fc->format = format;
	fc->masks[0] = red_mask;
	fc->masks[1] = green_mask;
	fc->masks[2] = blue_mask;
	fc->font = font;
	fc->cells = cells;
	fc->cols = width / font->width;
	fc->rows = (uint32_t)MIN((size_t)(height / font->height), nr_cells / fc->cols);
	fbcon_set_colors(fc, DEFAULT_FG, DEFAULT_BG);
	/* The margins right of and below the cells stay background. */
	for (uint32_t y = 0; y < height; y++)
		for (uint32_t x = 0; x < width; x++)
			fc->pixels[(size_t)y * pitch + x] = fc->bg;
	for (uint32_t row = 0; row < fc->rows; row++)
		for (uint32_t col = 0; col < fc->cols; col++)
			*cell_at(fc, col, row) = (struct fbcon_cell){ .fg = fc->fg,
								      .bg = fc->bg,
								      .glyph = FBCON_BLANK };
	toggle_cursor(fc);
	return 0;
}
