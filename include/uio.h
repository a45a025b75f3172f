/*
 * Where a read puts bytes or a write takes them from (Linux:
 * include/linux/uio.h, lib/iov_iter.c): one user buffer (ITER_UBUF, a
 * read(2) or write(2)) or one kernel buffer (ITER_KVEC, exec and the
 * initramfs), so filemap_read and generic_perform_write copy the same way
 * for both. Each copy advances the iterator; a user copy that faults
 * stops short, as Linux's. Example: read(fd, buf, 100) at offset 4090
 * of a 2-page file copies 6 bytes from the first folio, then 94 from the
 * second, and count goes 100 -> 94 -> 0.
 */
#ifndef FOLIUM_UIO_H
#define FOLIUM_UIO_H

#include <kernel.h>
#include <mm.h>

enum iter_type {
	ITER_UBUF, /* a user address of the current mm */
	ITER_KVEC, /* a kernel address */
};

/* The direction, as Linux's: data goes into the buffer (READ: a read
 * fills it) or comes out of it (WRITE). */
#define ITER_DEST 0
#define ITER_SOURCE 1

struct iov_iter {
	uint8_t iter_type;
	bool data_source; /* ITER_SOURCE: the buffer is read from */
	size_t count;	  /* bytes left */
	union {
		unsigned long ubuf;
		char *kbuf;
	};
};

static inline void iov_iter_ubuf(struct iov_iter *i, unsigned int direction, unsigned long buf,
				 size_t count)
{
	*i = (struct iov_iter){ .iter_type = ITER_UBUF, .data_source = direction, .count = count };
	i->ubuf = buf;
}
/* Linux: iov_iter_kvec with one kvec. */
static inline void iov_iter_kvec(struct iov_iter *i, unsigned int direction, void *buf,
				 size_t count)
{
	*i = (struct iov_iter){ .iter_type = ITER_KVEC, .data_source = direction, .count = count };
	i->kbuf = buf;
}
static inline size_t iov_iter_count(const struct iov_iter *i)
{
	return i->count;
}

/* --- lib/iov_iter.c ---------------------------------------------------------- */
/* Copy up to @bytes from @addr into the iterator. Return: bytes copied
 * (short when a user page cannot be written). */
size_t copy_to_iter(const void *addr, size_t bytes, struct iov_iter *i);
/* Copy up to @bytes from the iterator to @addr. Return: bytes copied. */
size_t copy_from_iter(void *addr, size_t bytes, struct iov_iter *i);
/* Zeros into the iterator (a hole read). Return: bytes written. */
size_t iov_iter_zero(size_t bytes, struct iov_iter *i);
/* @bytes of @folio from byte @offset. Return: as copy_to_iter. */
size_t copy_folio_to_iter(struct folio *folio, size_t offset, size_t bytes, struct iov_iter *i);
/* Into @folio at @offset (Linux: copy_folio_from_iter_atomic; Folium's
 * user copy may fault and take the page in: one CPU, no lock held that
 * the fault needs). Return: as copy_from_iter. */
size_t copy_folio_from_iter(struct folio *folio, size_t offset, size_t bytes, struct iov_iter *i);

#endif
