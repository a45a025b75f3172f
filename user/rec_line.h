/*
 * Printing a bench record from a static program (the contract is
 * include/benchrec.h): each line goes to stdout and into the FNV-1a 32
 * hash that "@end NAME ROWS HASH" carries, "\n"-ended as tools/benchrec
 * reads it. Example: rec_line("@bench x") prints "@bench x" and hashes its
 * 9 bytes. Shared by user/sbs.h and tools/linux-madvise-free.c.
 */
#ifndef FOLIUM_USER_REC_LINE_H
#define FOLIUM_USER_REC_LINE_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

static uint32_t rec_hash = 0x811c9dc5u;

__attribute__((format(printf, 1, 2))) static inline void rec_line(const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	for (const char *s = line;; s++) {
		rec_hash = (rec_hash ^ (unsigned char)(*s ? *s : '\n')) * 0x01000193u;
		if (!*s)
			break;
	}
	printf("%s\n", line);
}

#endif
