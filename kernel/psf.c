/*
 * PC Screen Font parser (the format of Linux console fonts), versions 1 and
 * 2. Glyph order is the font's own: Uni2-Fixed16 puts a box-drawing glyph
 * at index 'A', so text is drawn through the unicode table, which lists for
 * each glyph in turn the code points it depicts. Example (PSF1): the entries
 * "41 00 91 03 ff ff" under glyph 33 mean U+0041 'A' and U+0391 'Α' both
 * draw glyph 33. Every read is bounds-checked against the image size.
 */
#include <fbcon.h>

#define PSF1_MAGIC0 0x36
#define PSF1_MAGIC1 0x04
#define PSF1_MODE512 0x01
#define PSF1_MODEHASTAB 0x02
#define PSF1_MODEHASSEQ 0x04
#define PSF1_SEPARATOR 0xffff
#define PSF1_STARTSEQ 0xfffe
#define PSF2_MAGIC 0x864ab572u /* bytes 72 b5 4a 86 */
#define PSF2_HAS_UNICODE_TABLE 0x01
#define PSF2_SEPARATOR 0xff
#define PSF2_STARTSEQ 0xfe
#define PSF2_HEADER_SIZE 32
#define PSF_MAX_WIDTH 64
#define PSF_MAX_HEIGHT 64
#define UNMAPPED 0xffff

static uint32_t get_le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/*
 * PSF1 header, 4 bytes, glyphs follow, then the optional unicode table:
 *   0 magic 36 04   2 mode (bit 0: 512 glyphs, bit 1: table, bit 2: seqs)
 *   3 charsize = height; width is always 8, one byte per row
 */
static int psf1_parse(const uint8_t *p, size_t size, struct psf_font *f, char *err, size_t errlen)
{
	uint8_t mode = p[2];

	if (mode & ~(PSF1_MODE512 | PSF1_MODEHASTAB | PSF1_MODEHASSEQ)) {
		ksnprintf(err, errlen, "psf1: unknown mode bits 0x%x", mode);
		return -1;
	}
	if (p[3] == 0 || p[3] > PSF_MAX_HEIGHT) {
		ksnprintf(err, errlen, "psf1: bad charsize %u", p[3]);
		return -1;
	}
	f->version = 1;
	f->nglyphs = mode & PSF1_MODE512 ? 512 : 256;
	f->width = 8;
	f->height = p[3];
	f->glyph_size = p[3];
	f->glyphs = p + 4;
	if ((uint64_t)f->nglyphs * f->glyph_size > size - 4) {
		ksnprintf(err, errlen, "psf1: %u glyphs of %u bytes need %llu bytes, have %zu",
			  f->nglyphs, f->glyph_size,
			  4 + (unsigned long long)f->nglyphs * f->glyph_size, size);
		return -1;
	}
	if (mode & (PSF1_MODEHASTAB | PSF1_MODEHASSEQ)) {
		f->utab = f->glyphs + f->nglyphs * f->glyph_size;
		f->utab_size = size - 4 - f->nglyphs * f->glyph_size;
	}
	return 0;
}

/*
 * PSF2 header, 32 bytes of little-endian u32, glyphs at headersize:
 *   0 magic 72 b5 4a 86   4 version (0)   8 headersize   12 flags (bit 0:
 *   unicode table)   16 length (glyphs)   20 charsize   24 height   28 width
 */
static int psf2_parse(const uint8_t *p, size_t size, struct psf_font *f, char *err, size_t errlen)
{
	uint32_t hdr = get_le32(p + 8), flags = get_le32(p + 12);
	uint32_t len = get_le32(p + 16), charsize = get_le32(p + 20);
	uint32_t height = get_le32(p + 24), width = get_le32(p + 28);
	uint64_t end;

	if (hdr < PSF2_HEADER_SIZE || hdr > size) {
		ksnprintf(err, errlen, "psf2: bad header size %u (file %zu)", hdr, size);
		return -1;
	}
	if (!width || width > PSF_MAX_WIDTH || !height || height > PSF_MAX_HEIGHT ||
	    charsize != height * ((width + 7) / 8)) {
		ksnprintf(err, errlen, "psf2: bad geometry %ux%u charsize %u", width, height,
			  charsize);
		return -1;
	}
	end = hdr + (uint64_t)len * charsize;
	if (!len || end > size) {
		ksnprintf(err, errlen, "psf2: %u glyphs of %u bytes need %llu bytes, have %zu", len,
			  charsize, (unsigned long long)end, size);
		return -1;
	}
	f->version = 2;
	f->nglyphs = len;
	f->width = width;
	f->height = height;
	f->glyph_size = charsize;
	f->glyphs = p + hdr;
	if (flags & PSF2_HAS_UNICODE_TABLE) {
		f->utab = p + end;
		f->utab_size = size - end;
	}
	return 0;
}

/* Decode one UTF-8 sequence. Return: bytes used, 0 if malformed/truncated. */
static size_t utf8_decode(const uint8_t *s, size_t n, uint32_t *cp)
{
	size_t len = s[0] < 0x80       ? 1
		     : s[0] >> 5 == 6  ? 2
		     : s[0] >> 4 == 14 ? 3
		     : s[0] >> 3 == 30 ? 4
				       : 0;
	uint32_t v;

	if (!len || len > n)
		return 0;
	v = len == 1 ? s[0] : s[0] & (0x7f >> len);
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (s[i] & 0x3f);
	}
	*cp = v;
	return len;
}

/* A walk over the unicode table yielding (glyph, code point) pairs for
 * single code points; multi-code-point sequences (combining marks) are
 * skipped, since the console draws one code point per cell. */
struct utab_iter {
	const struct psf_font *font;
	size_t pos;
	uint32_t glyph;
	bool in_seq;
};

static bool utab_read(struct utab_iter *it, uint32_t *cp, bool *sep, bool *seq)
{
	const struct psf_font *f = it->font;
	const uint8_t *p = f->utab + it->pos;
	size_t left = f->utab_size - it->pos, used;

	if (f->version == 1) {
		if (left < 2)
			return false;
		*cp = p[0] | p[1] << 8;
		*sep = *cp == PSF1_SEPARATOR;
		*seq = *cp == PSF1_STARTSEQ;
		it->pos += 2;
		return true;
	}
	if (!left)
		return false;
	*sep = p[0] == PSF2_SEPARATOR;
	*seq = p[0] == PSF2_STARTSEQ;
	used = *sep || *seq ? 1 : utf8_decode(p, left, cp);
	if (!used) {
		used = 1; /* skip a malformed byte, and ignore the rest of
			   * this glyph's entries as a sequence */
		*seq = true;
	}
	it->pos += used;
	return true;
}

static bool utab_next(struct utab_iter *it, uint32_t *glyph, uint32_t *cp)
{
	bool sep, seq;

	while (it->glyph < it->font->nglyphs && utab_read(it, cp, &sep, &seq)) {
		if (sep) {
			it->glyph++;
			it->in_seq = false;
		} else if (seq) {
			it->in_seq = true;
		} else if (!it->in_seq) {
			*glyph = it->glyph;
			return true;
		}
	}
	return false;
}

static void psf_build_latin1(struct psf_font *f)
{
	struct utab_iter it = { .font = f };
	uint32_t glyph, cp;

	for (uint32_t c = 0; c < 256; c++)
		f->latin1[c] = f->utab || c >= f->nglyphs ? UNMAPPED : c;
	if (f->utab)
		while (utab_next(&it, &glyph, &cp))
			if (cp < 256 && f->latin1[cp] == UNMAPPED)
				f->latin1[cp] = glyph;
	f->replacement = f->latin1['?'] != UNMAPPED ? f->latin1['?'] : '?' < f->nglyphs ? '?' : 0;
	for (uint32_t c = 0; c < 256; c++)
		if (f->latin1[c] == UNMAPPED)
			f->latin1[c] = f->replacement;
}

int psf_parse(const void *data, size_t size, struct psf_font *out, char *err, size_t errlen)
{
	const uint8_t *p = data;
	int ret;

	memset(out, 0, sizeof(*out));
	if (size >= 4 && p[0] == PSF1_MAGIC0 && p[1] == PSF1_MAGIC1) {
		ret = psf1_parse(p, size, out, err, errlen);
	} else if (size >= PSF2_HEADER_SIZE && get_le32(p) == PSF2_MAGIC) {
		ret = psf2_parse(p, size, out, err, errlen);
	} else {
		ksnprintf(err, errlen, "psf: no PSF1/PSF2 magic (%zu bytes)", size);
		return -1;
	}
	if (ret)
		return ret;
	out->stride = (out->width + 7) / 8;
	psf_build_latin1(out);
	return 0;
}

uint32_t psf_glyph_index(const struct psf_font *font, uint32_t cp)
{
	struct utab_iter it = { .font = font };
	uint32_t glyph, c;

	if (cp < 256)
		return font->latin1[cp];
	if (!font->utab)
		return cp < font->nglyphs ? cp : font->replacement;
	while (utab_next(&it, &glyph, &c))
		if (c == cp)
			return glyph;
	return font->replacement;
}
