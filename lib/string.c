/*
 * The freestanding kernel's memcpy and friends. clang may also emit calls to
 * memcpy/memset for struct copies, so these must exist and must not call
 * themselves: each is a plain byte loop, or `rep movsb`/`rep stosb`, which
 * are fast on every CPU with ERMS and correct on all others.
 */
#include <string.h>

void *memcpy(void *dst, const void *src, size_t n)
{
	void *ret = dst;

	__asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
	return ret;
}

void *memset(void *dst, int c, size_t n)
{
	void *ret = dst;

	__asm__ volatile("rep stosb" : "+D"(dst), "+c"(n) : "a"(c) : "memory");
	return ret;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d <= s || d >= s + n)
		return memcpy(dst, src, n);
	while (n--) /* overlapping with dst above src: copy backwards */
		d[n] = s[n];
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (size_t i = 0; i < n; i++)
		if (x[i] != y[i])
			return x[i] - y[i];
	return 0;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b || !*a)
			return (unsigned char)*a - (unsigned char)*b;
	}
	return 0;
}

void *memchr(const void *s, int c, size_t n)
{
	const unsigned char *p = s;

	for (; n; p++, n--)
		if (*p == (unsigned char)c)
			return (void *)p;
	return NULL;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

char *strstr(const char *haystack, const char *needle)
{
	size_t n = strlen(needle);

	for (; *haystack; haystack++)
		if (strncmp(haystack, needle, n) == 0)
			return (char *)haystack;
	return n == 0 ? (char *)haystack : NULL;
}
