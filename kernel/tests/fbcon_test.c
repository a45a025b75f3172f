/*
 * The PSF parser on synthetic PSF1/PSF2 fonts (valid, truncated, corrupt
 * headers), and the framebuffer console rendering into a 128x48 array
 * (16x6 cells of a synthetic 8x8 font, pitch 136 pixels) checked pixel by
 * pixel. The cursor is an underline XORed into row 7 of its cell.
 */
#include <fbcon.h>
#include <ktest.h>

#define FB_W 128
#define FB_H 48
#define FB_PITCH 136
#define GREY_RGBX 0x00aaaaaau
#define BLACK 0u
#define PADDING 0xdeadbeefu

static uint8_t psf1_plain[4 + 256 * 8];
static uint8_t psf1_tab[4 + 256 * 8 + 256 * 4 + 8];
static size_t psf1_tab_size;
static uint8_t psf2[32 + 4 * 20 + 32];
static size_t psf2_size;
static struct psf_font font;
static struct fbcon fc;
static uint32_t fb[FB_PITCH * FB_H];
#define FB_CELLS (16 * 6)
static struct fbcon_cell cells[FB_CELLS];
static uint32_t saved_row[FB_PITCH * 8];
static struct kunit *current_test_for_flush;
static char err[128];

/* Every glyph row differs from its neighbours, and ' ' is not blank, so an
 * erased cell can be told from a drawn space. */
static uint8_t glyph_row(uint32_t glyph, uint32_t y)
{
	return (uint8_t)(glyph * 37 + y * 11 + 3);
}

static bool contains(const char *s, const char *word)
{
	for (size_t n = strlen(word); *s; s++)
		if (strncmp(s, word, n) == 0)
			return true;
	return false;
}

static void make_psf1_plain(void)
{
	psf1_plain[0] = 0x36;
	psf1_plain[1] = 0x04;
	psf1_plain[2] = 0; /* 256 glyphs, no table */
	psf1_plain[3] = 8;
	for (uint32_t g = 0; g < 256; g++)
		for (uint32_t y = 0; y < 8; y++)
			psf1_plain[4 + g * 8 + y] = glyph_row(g, y);
}

static void put_u16(uint8_t *p, uint16_t v)
{
	p[0] = v & 0xff;
	p[1] = v >> 8;
}

/* Glyph g depicts code point 255 - g, except glyph 10 (U+00F5) maps
 * nothing; glyph 0 also depicts U+2500 and a two-code-point sequence. */
static void make_psf1_tab(void)
{
	uint8_t *t;

	memcpy(psf1_tab, psf1_plain, sizeof(psf1_plain));
	psf1_tab[2] = 0x02; /* PSF1_MODEHASTAB */
	t = psf1_tab + sizeof(psf1_plain);
	for (uint32_t g = 0; g < 256; g++) {
		if (g != 10) {
			put_u16(t, 255 - g);
			t += 2;
		}
		if (g == 0) {
			put_u16(t, 0x2500);
			put_u16(t + 2, 0xfffe); /* sequence: 'e' + U+0301 */
			put_u16(t + 4, 'e');
			put_u16(t + 6, 0x0301);
			t += 8;
		}
		put_u16(t, 0xffff);
		t += 2;
	}
	psf1_tab_size = t - psf1_tab;
}

static void put_u32(uint8_t *p, uint32_t v)
{
	put_u16(p, v & 0xffff);
	put_u16(p + 2, v >> 16);
}

/* 4 glyphs of 12x10 (2 bytes per row), UTF-8 table: glyph 0 '?', glyph 1
 * 'A' and U+00E9, glyph 2 only a sequence, glyph 3 U+20AC. */
static void make_psf2(void)
{
	static const uint8_t utab[] = { '?',  0xff, 'A',  0xc3, 0xa9, 0xff, 0xfe, 'A',
					0xcc, 0x81, 0xff, 0xe2, 0x82, 0xac, 0xff };

	memset(psf2, 0, sizeof(psf2));
	put_u32(psf2, 0x864ab572);
	put_u32(psf2 + 8, 32); /* header size */
	put_u32(psf2 + 12, 1); /* PSF2_HAS_UNICODE_TABLE */
	put_u32(psf2 + 16, 4);
	put_u32(psf2 + 20, 20);
	put_u32(psf2 + 24, 10);
	put_u32(psf2 + 28, 12);
	memcpy(psf2 + 32 + 80, utab, sizeof(utab));
	psf2_size = 32 + 80 + sizeof(utab);
}

static int fbcon_suite_init(struct kunit *test)
{
	make_psf1_plain();
	make_psf1_tab();
	make_psf2();
	for (size_t i = 0; i < ARRAY_SIZE(fb); i++)
		fb[i] = PADDING;
	return 0;
}

static void psf1_plain_font_maps_ascii_to_itself(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, psf_parse(psf1_plain, sizeof(psf1_plain), &font, err, sizeof(err)),
			0);
	KUNIT_EXPECT_EQ(test, font.version, 1);
	KUNIT_EXPECT_EQ(test, font.nglyphs, 256);
	KUNIT_EXPECT_EQ(test, font.width, 8);
	KUNIT_EXPECT_EQ(test, font.height, 8);
	KUNIT_EXPECT_EQ(test, font.stride, 1);
	KUNIT_EXPECT_TRUE(test, font.glyphs == psf1_plain + 4);
	KUNIT_EXPECT_EQ(test, psf_glyph_index(&font, 'A'), 'A');
	KUNIT_EXPECT_EQ(test, psf_glyph_index(&font, 0x2500), '?');
}

static void psf1_unicode_table_reorders_glyphs(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, psf_parse(psf1_tab, psf1_tab_size, &font, err, sizeof(err)), 0);
	KUNIT_EXPECT_TRUE(test, font.utab != NULL);
	KUNIT_EXPECT_EQ(test, psf_glyph_index(&font, 'A'), 255 - 'A');
	KUNIT_EXPECT_EQ(test, psf_glyph_index(&font, 0xe9), 255 - 0xe9);
	KUNIT_EXPECT_EQ(test, psf_glyph_index(&font, 0x2500), 0);
	/* U+00F5 has no glyph, 'e' comes from its own entry, not the
	 * sequence under glyph 0. */
	KUNIT_EXPECT_EQ(test, font.replacement, 255 - '?');
	KUNIT_EXPECT_EQ(test, psf_glyph_index(&font, 0xf5), 255 - '?');
	KUNIT_EXPECT_EQ(test, psf_glyph_index(&font, 'e'), 255 - 'e');
	KUNIT_EXPECT_EQ(test, psf_glyph_index(&font, 0x0301), 255 - '?');
}

static void psf2_font_with_utf8_table_parses(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, psf_parse(psf2, psf2_size, &font, err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, font.version, 2);
	KUNIT_EXPECT_EQ(test, font.nglyphs, 4);
	KUNIT_EXPECT_EQ(test, font.width, 12);
	KUNIT_EXPECT_EQ(test, font.height, 10);
	KUNIT_EXPECT_EQ(test, font.stride, 2);
	KUNIT_EXPECT_EQ(test, font.glyph_size, 20);
	KUNIT_EXPECT_EQ(test, psf_glyph_index(&font, 'A'), 1);
	KUNIT_EXPECT_EQ(test, psf_glyph_index(&font, 0xe9), 1);
	KUNIT_EXPECT_EQ(test, psf_glyph_index(&font, 0x20ac), 3);
	KUNIT_EXPECT_EQ(test, psf_glyph_index(&font, 'B'), 0);
	KUNIT_EXPECT_EQ(test, psf_glyph_index(&font, 0x1f600), 0);
}

static void psf_rejects_truncated_glyph_data(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test,
			psf_parse(psf1_plain, sizeof(psf1_plain) - 1, &font, err, sizeof(err)), -1);
	KUNIT_EXPECT_TRUE(test, contains(err, "psf1: 256 glyphs of 8 bytes"));
	KUNIT_EXPECT_EQ(test, psf_parse(psf2, 32 + 79, &font, err, sizeof(err)), -1);
	KUNIT_EXPECT_TRUE(test, contains(err, "psf2: 4 glyphs of 20 bytes"));
	KUNIT_EXPECT_EQ(test, psf_parse(psf2, 20, &font, err, sizeof(err)), -1);
}

static void psf_rejects_bad_magic_and_headers(struct kunit *test)
{
	psf1_plain[1] = 0x05;
	KUNIT_EXPECT_EQ(test, psf_parse(psf1_plain, sizeof(psf1_plain), &font, err, sizeof(err)),
			-1);
	KUNIT_EXPECT_TRUE(test, contains(err, "magic"));
	psf1_plain[1] = 0x04;
	psf1_plain[3] = 0;
	KUNIT_EXPECT_EQ(test, psf_parse(psf1_plain, sizeof(psf1_plain), &font, err, sizeof(err)),
			-1);
	KUNIT_EXPECT_TRUE(test, contains(err, "charsize 0"));
	put_u32(psf2 + 8, 16);
	KUNIT_EXPECT_EQ(test, psf_parse(psf2, psf2_size, &font, err, sizeof(err)), -1);
	KUNIT_EXPECT_TRUE(test, contains(err, "bad header size 16"));
	put_u32(psf2 + 8, 4096);
	KUNIT_EXPECT_EQ(test, psf_parse(psf2, psf2_size, &font, err, sizeof(err)), -1);
	put_u32(psf2 + 8, 32);
	put_u32(psf2 + 20, 19); /* charsize != height * stride */
	KUNIT_EXPECT_EQ(test, psf_parse(psf2, psf2_size, &font, err, sizeof(err)), -1);
	KUNIT_EXPECT_TRUE(test, contains(err, "bad geometry 12x10"));
}

/* Set up fc over fb with the plain 8x8 font (glyph = code point). */
static int start(struct kunit *test, uint32_t format)
{
	KUNIT_EXPECT_EQ(test, psf_parse(psf1_plain, sizeof(psf1_plain), &font, err, sizeof(err)),
			0);
	return fbcon_init(&fc, fb, FB_W, FB_H, FB_PITCH, format, 0, 0, 0, &font, cells, FB_CELLS);
}

static void out(const char *s)
{
	fbcon_write(&fc, s, strlen(s));
}

/* Return: how many of the cell's pixels differ from glyph (or from the
 * background if glyph < 0). Rows from skip_from on are not compared. */
static int cell_mismatches(uint32_t col, uint32_t row, int glyph, uint32_t skip_from)
{
	int bad = 0;

	for (uint32_t y = 0; y < MIN(8u, skip_from); y++) {
		const uint32_t *line = fb + (row * 8 + y) * FB_PITCH + col * 8;
		uint8_t bits = glyph < 0 ? 0 : glyph_row(glyph, y);

		for (uint32_t x = 0; x < 8; x++)
			bad += line[x] != (bits & (0x80 >> x) ? fc.fg : fc.bg);
	}
	return bad;
}

#define EXPECT_CELL(test, col, row, glyph) \
	KUNIT_EXPECT_EQ(test, cell_mismatches(col, row, glyph, 8), 0)
/* The cursor's cell: compare all but its underline row. */
#define EXPECT_CURSOR_CELL(test, col, row, glyph) \
	KUNIT_EXPECT_EQ(test, cell_mismatches(col, row, glyph, 7), 0)

/* The cursor is at (col, row) and inverts row 7 of the glyph there (-1:
 * an empty cell). */
static bool cursor_at(uint32_t col, uint32_t row, int glyph)
{
	const uint32_t *line = fb + (row * 8 + 7) * FB_PITCH + col * 8;
	uint8_t bits = glyph < 0 ? 0 : glyph_row(glyph, 7);

	if (fc.cx != col || fc.cy != row)
		return false;
	for (uint32_t x = 0; x < 8; x++)
		if (line[x] != (bits & (0x80 >> x) ? fc.bg : fc.fg))
			return false;
	return true;
}

static void fbcon_draws_glyph_pixels_in_its_cell(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, start(test, BOOT_FB_RGBX), 0);
	KUNIT_EXPECT_EQ(test, fc.cols, 16);
	KUNIT_EXPECT_EQ(test, fc.rows, 6);
	out("AB");
	EXPECT_CELL(test, 0, 0, 'A');
	EXPECT_CELL(test, 1, 0, 'B');
	EXPECT_CURSOR_CELL(test, 2, 0, -1);
	KUNIT_EXPECT_TRUE(test, cursor_at(2, 0, -1));
	EXPECT_CELL(test, 3, 0, -1);
	EXPECT_CELL(test, 0, 1, -1);
	/* Concrete values: 'A' row 0 is 0x68 (01101000), so x = 0 is
	 * background and x = 1 foreground, light grey. */
	KUNIT_EXPECT_EQ(test, glyph_row('A', 0), 0x68);
	KUNIT_EXPECT_EQ(test, fb[0], BLACK);
	KUNIT_EXPECT_EQ(test, fb[1], GREY_RGBX);
	KUNIT_EXPECT_EQ(test, fb[FB_PITCH + 6], GREY_RGBX); /* row 1: 0x73 */
	KUNIT_EXPECT_EQ(test, fb[FB_PITCH + 5], BLACK);
	/* The scanline padding past the visible width is never written. */
	KUNIT_EXPECT_EQ(test, fb[FB_W], PADDING);
	KUNIT_EXPECT_EQ(test, fb[47 * FB_PITCH + FB_PITCH - 1], PADDING);
}

static void fbcon_newline_and_wrap_move_to_next_row(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, start(test, BOOT_FB_RGBX), 0);
	out("A\nB");
	EXPECT_CELL(test, 0, 1, 'B');
	KUNIT_EXPECT_TRUE(test, cursor_at(1, 1, -1));
	EXPECT_CELL(test, 1, 0, -1); /* the old cursor was removed */
	out("\r");
	KUNIT_EXPECT_TRUE(test, cursor_at(0, 1, 'B'));
	EXPECT_CURSOR_CELL(test, 0, 1, 'B');
	out("\n0123456789abcdefX");
	EXPECT_CELL(test, 15, 2, 'f');
	EXPECT_CELL(test, 0, 3, 'X');
}

/* The tty's bytes (write_tty): a line feed keeps the column, as on
 * Linux's VT; CR LF (what ONLCR makes) starts the next line. */
static void fbcon_tty_line_feed_keeps_the_column(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, start(test, BOOT_FB_RGBX), 0);
	fc.con.write_tty(&fc.con, "AB\nC", 4);
	EXPECT_CELL(test, 2, 1, 'C');
	KUNIT_EXPECT_TRUE(test, cursor_at(3, 1, -1));
	fc.con.write_tty(&fc.con, "\r\nD", 3);
	EXPECT_CELL(test, 0, 2, 'D');
	/* The kernel's own text still starts a line at '\n'. */
	out("\nE");
	EXPECT_CELL(test, 0, 3, 'E');
}

static void fbcon_scrolls_up_one_line_past_last_row(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, start(test, BOOT_FB_RGBX), 0);
	out("0\n1\n2\n3\n4\n5");
	memcpy(saved_row, fb + 8 * FB_PITCH, sizeof(saved_row));
	out("\n");
	KUNIT_EXPECT_EQ(test, memcmp(fb, saved_row, sizeof(saved_row)), 0);
	EXPECT_CELL(test, 0, 0, '1');
	EXPECT_CELL(test, 0, 4, '5');
	EXPECT_CURSOR_CELL(test, 0, 5, -1);
	EXPECT_CELL(test, 1, 5, -1);
	KUNIT_EXPECT_TRUE(test, cursor_at(0, 5, -1));
	KUNIT_EXPECT_EQ(test, fb[FB_W], PADDING);
}

static int flush_later_calls;

static void count_flush_later(struct fbcon *f)
{
	KUNIT_EXPECT_TRUE(current_test_for_flush, f == &fc && f->redraw_pending);
	flush_later_calls++;
}

/* Every cell of a 16x6 screen against rows of text (' ': blank). */
static int screen_mismatches(const char *const text[6])
{
	int bad = 0;

	for (uint32_t row = 0; row < 6; row++)
		for (uint32_t col = 0; col < 16; col++) {
			char c = col < strlen(text[row]) ? text[row][col] : ' ';

			bad += cell_mismatches(col, row, c == ' ' ? -1 : c,
					       fc.cx == col && fc.cy == row ? 7 : 8);
		}
	return bad;
}

/* A deferring owner: text without a scroll is drawn at once, a scroll
 * leaves the pixels alone and asks for a flush, and the flush draws the
 * whole screen from the text, never from the pixels (junk written over
 * them is gone). console_flush_on_panic's hook draws and ends deferral. */
static void fbcon_defers_a_scroll_to_one_redraw_from_the_text(struct kunit *test)
{
	static const char *const after_two[6] = { "2", "3", "4", "5", "AB", "" };
	static const char *const after_three[6] = { "3", "4", "5", "AB", "", "" };
	static const char *const after_panic[6] = { "AB", "", "", "", "C", "D" };

	KUNIT_ASSERT_EQ(test, start(test, BOOT_FB_RGBX), 0);
	current_test_for_flush = test;
	flush_later_calls = 0;
	fc.defer = true;
	fc.flush_later = count_flush_later;
	out("0\n1\n2\n3\n4\n5");
	EXPECT_CELL(test, 0, 5, '5');
	KUNIT_EXPECT_TRUE(test, cursor_at(1, 5, -1));
	KUNIT_EXPECT_EQ(test, flush_later_calls, 0);
	out("\nA");
	out("B\n");
	KUNIT_EXPECT_TRUE(test, fc.redraw_pending);
	KUNIT_EXPECT_EQ(test, flush_later_calls, 2);
	/* Unscrolled; only the old cursor was taken away. */
	EXPECT_CELL(test, 0, 0, '0');
	EXPECT_CELL(test, 0, 4, '4');
	EXPECT_CELL(test, 0, 5, '5');
	EXPECT_CELL(test, 1, 5, -1);
	fbcon_flush(&fc);
	KUNIT_EXPECT_FALSE(test, fc.redraw_pending);
	KUNIT_EXPECT_EQ(test, screen_mismatches(after_two), 0);
	KUNIT_EXPECT_TRUE(test, cursor_at(0, 5, -1));
	/* A second flush with nothing pending draws nothing. */
	fb[0] = PADDING;
	fbcon_flush(&fc);
	KUNIT_EXPECT_EQ(test, fb[0], PADDING);
	for (uint32_t y = 0; y < FB_H; y++)
		for (uint32_t x = 0; x < FB_W; x++)
			fb[y * FB_PITCH + x] = 0x123456;
	out("\n");
	fbcon_flush(&fc);
	KUNIT_EXPECT_EQ(test, screen_mismatches(after_three), 0);
	KUNIT_EXPECT_TRUE(test, cursor_at(0, 5, -1));
	out("\n\nC");
	KUNIT_EXPECT_TRUE(test, fc.redraw_pending);
	fc.con.flush(&fc.con);
	KUNIT_EXPECT_FALSE(test, fc.defer);
	flush_later_calls = 0;
	out("\nD");
	KUNIT_EXPECT_EQ(test, flush_later_calls, 0);
	KUNIT_EXPECT_EQ(test, screen_mismatches(after_panic), 0);
	KUNIT_EXPECT_TRUE(test, cursor_at(1, 5, -1));
}

/* The owner gives the cells: fewer than the screen holds make fewer rows
 * (the text scrolls within them); less than a row is refused. */
static void fbcon_keeps_as_many_rows_as_its_cells_hold(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, fbcon_cells_needed(FB_W, FB_H, &font), 16 * 6);
	KUNIT_ASSERT_EQ(test, start(test, BOOT_FB_RGBX), 0);
	KUNIT_ASSERT_EQ(test,
			fbcon_init(&fc, fb, FB_W, FB_H, FB_PITCH, BOOT_FB_RGBX, 0, 0, 0, &font,
				   cells, 16 * 3 + 5),
			0);
	KUNIT_EXPECT_EQ(test, fc.rows, 3);
	out("0\n1\n2\n3");
	EXPECT_CELL(test, 0, 0, '1');
	EXPECT_CELL(test, 0, 2, '3');
	EXPECT_CELL(test, 0, 3, -1); /* below the rows: background */
	KUNIT_EXPECT_EQ(
		test,
		fbcon_init(&fc, fb, FB_W, FB_H, FB_PITCH, BOOT_FB_RGBX, 0, 0, 0, &font, cells, 15),
		-1);
}

static void fbcon_backspace_moves_and_erase_clears(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, start(test, BOOT_FB_RGBX), 0);
	out("ABC\b");
	EXPECT_CURSOR_CELL(test, 2, 0, 'C'); /* \b alone does not erase */
	KUNIT_EXPECT_TRUE(test, cursor_at(2, 0, 'C'));
	out("\033[C\b \b"); /* the shell's erase of 'C' */
	EXPECT_CELL(test, 0, 0, 'A');
	EXPECT_CELL(test, 1, 0, 'B');
	EXPECT_CURSOR_CELL(test, 2, 0, ' ');
	KUNIT_EXPECT_TRUE(test, cursor_at(2, 0, ' '));
	out("\b\b\033[K");
	EXPECT_CURSOR_CELL(test, 0, 0, -1);
	EXPECT_CELL(test, 1, 0, -1);
	EXPECT_CELL(test, 2, 0, -1);
	KUNIT_EXPECT_TRUE(test, cursor_at(0, 0, -1));
}

static void fbcon_erase_line_keeps_text_left_of_cursor(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, start(test, BOOT_FB_RGBX), 0);
	out("ABCD\033[2D\033[K");
	EXPECT_CELL(test, 0, 0, 'A');
	EXPECT_CELL(test, 1, 0, 'B');
	EXPECT_CURSOR_CELL(test, 2, 0, -1);
	EXPECT_CELL(test, 3, 0, -1);
	out("\033[3CZ\033[99D");
	EXPECT_CELL(test, 5, 0, 'Z');
	KUNIT_EXPECT_TRUE(test, cursor_at(0, 0, 'A'));
}

static void fbcon_unknown_escape_sequences_draw_nothing(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, start(test, BOOT_FB_RGBX), 0);
	out("\033[31m\033[?25l\033[12;5H\033(B\033[");
	KUNIT_EXPECT_TRUE(test, cursor_at(0, 0, -1));
	for (uint32_t col = 1; col < 16; col++)
		EXPECT_CELL(test, col, 0, -1);
	out("2JX"); /* the split sequence ends at 'J' */
	EXPECT_CELL(test, 0, 0, 'X');
	KUNIT_EXPECT_TRUE(test, cursor_at(1, 0, -1));
}

static void fbcon_tab_advances_to_multiple_of_8(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, start(test, BOOT_FB_RGBX), 0);
	out("A\tB\t");
	EXPECT_CELL(test, 7, 0, ' ');
	EXPECT_CELL(test, 8, 0, 'B');
	KUNIT_EXPECT_TRUE(test, cursor_at(0, 1, -1));
}

static void fbcon_pixel_byte_order_follows_format(struct kunit *test)
{
	const uint8_t *px = (const uint8_t *)fb;

	KUNIT_ASSERT_EQ(test, start(test, BOOT_FB_RGBX), 0);
	fbcon_set_colors(&fc, 0xff8000, 0x000040);
	out("A");
	KUNIT_EXPECT_EQ(test, fb[1], 0x000080ff); /* R G B x */
	KUNIT_EXPECT_EQ(test, px[4], 0xff);
	KUNIT_EXPECT_EQ(test, px[5], 0x80);
	KUNIT_EXPECT_EQ(test, px[6], 0x00);
	KUNIT_EXPECT_EQ(test, fb[0], 0x00400000);
	KUNIT_ASSERT_EQ(test, start(test, BOOT_FB_BGRX), 0);
	KUNIT_EXPECT_EQ(test, fc.fg, GREY_RGBX);
	fbcon_set_colors(&fc, 0xff8000, 0x000040);
	out("A");
	KUNIT_EXPECT_EQ(test, fb[1], 0x00ff8000); /* B G R x */
	KUNIT_EXPECT_EQ(test, px[4], 0x00);
	KUNIT_EXPECT_EQ(test, px[6], 0xff);
	KUNIT_EXPECT_EQ(test, fb[0], 0x00000040);
	/* BITMASK, 5:6:5 in the low 16 bits. */
	KUNIT_ASSERT_EQ(test,
			fbcon_init(&fc, fb, FB_W, FB_H, FB_PITCH, BOOT_FB_BITMASK, 0xf800, 0x07e0,
				   0x001f, &font, cells, FB_CELLS),
			0);
	KUNIT_EXPECT_EQ(test, fbcon_pixel(&fc, 0xff8000), 0xfc00);
	KUNIT_EXPECT_EQ(test, fbcon_pixel(&fc, 0xffffff), 0xffff);
	KUNIT_EXPECT_EQ(test,
			fbcon_init(&fc, fb, FB_W, FB_H, FB_PITCH, BOOT_FB_NONE, 0, 0, 0, &font,
				   cells, FB_CELLS),
			-1);
}

static void fbcon_utf8_goes_through_unicode_table(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, psf_parse(psf1_tab, psf1_tab_size, &font, err, sizeof(err)), 0);
	KUNIT_ASSERT_EQ(test,
			fbcon_init(&fc, fb, FB_W, FB_H, FB_PITCH, BOOT_FB_RGBX, 0, 0, 0, &font,
				   cells, FB_CELLS),
			0);
	out("A\xc3\xa9\xe2\x94\x80\xc3Z\xff");
	EXPECT_CELL(test, 0, 0, 255 - 'A');
	EXPECT_CELL(test, 1, 0, 255 - 0xe9);
	EXPECT_CELL(test, 2, 0, 0);	    /* U+2500 */
	EXPECT_CELL(test, 3, 0, 255 - '?'); /* broken sequence */
	EXPECT_CELL(test, 4, 0, 255 - 'Z');
	EXPECT_CELL(test, 5, 0, 255 - '?'); /* invalid byte */
	KUNIT_EXPECT_TRUE(test, cursor_at(6, 0, -1));
}

static struct kunit_case fbcon_cases[] = {
	KUNIT_CASE(psf1_plain_font_maps_ascii_to_itself),
	KUNIT_CASE(psf1_unicode_table_reorders_glyphs),
	KUNIT_CASE(psf2_font_with_utf8_table_parses),
	KUNIT_CASE(psf_rejects_truncated_glyph_data),
	KUNIT_CASE(psf_rejects_bad_magic_and_headers),
	KUNIT_CASE(fbcon_draws_glyph_pixels_in_its_cell),
	KUNIT_CASE(fbcon_newline_and_wrap_move_to_next_row),
	KUNIT_CASE(fbcon_tty_line_feed_keeps_the_column),
	KUNIT_CASE(fbcon_scrolls_up_one_line_past_last_row),
	KUNIT_CASE(fbcon_defers_a_scroll_to_one_redraw_from_the_text),
	KUNIT_CASE(fbcon_keeps_as_many_rows_as_its_cells_hold),
	KUNIT_CASE(fbcon_backspace_moves_and_erase_clears),
	KUNIT_CASE(fbcon_erase_line_keeps_text_left_of_cursor),
	KUNIT_CASE(fbcon_unknown_escape_sequences_draw_nothing),
	KUNIT_CASE(fbcon_tab_advances_to_multiple_of_8),
	KUNIT_CASE(fbcon_pixel_byte_order_follows_format),
	KUNIT_CASE(fbcon_utf8_goes_through_unicode_table),
	{},
};

static struct kunit_suite fbcon_suite = {
	.name = "fbcon",
	.init = fbcon_suite_init,
	.test_cases = fbcon_cases,
};
kunit_test_suite(fbcon_suite);
