/*
 * Errors in pointers (Linux: include/linux/err.h): a function returning a
 * pointer may return -errno in the top 4095 values of the address space,
 * which no object occupies. Example: __filemap_get_folio returns
 * ERR_PTR(-ENOENT) for a missing folio; IS_ERR() tells it from a folio.
 */
#ifndef FOLIUM_ERR_H
#define FOLIUM_ERR_H

#include <stdbool.h>

#define MAX_ERRNO 4095

static inline void *ERR_PTR(long error)
{
	return (void *)error;
}
static inline long PTR_ERR(const void *ptr)
{
	return (long)ptr;
}
static inline bool IS_ERR(const void *ptr)
{
	return (unsigned long)ptr >= (unsigned long)-MAX_ERRNO;
}

#endif
