/*
 * Copies through an iov_iter (Linux: lib/iov_iter.c). A user buffer is
 * copied page by page, so a fault part way gives the bytes before it (a
 * short read or write, as Linux's) instead of nothing. Folio copies walk
 * the folio's pages through the direct map; a large folio is contiguous
 * there, so one copy per user page is enough.
 */
#include <uio.h>
#include <vm.h>

/* The user-side copy: [uaddr, +len) page by page. Return: bytes done. */
static size_t copy_user_pages(unsigned long uaddr, char *kaddr, size_t len, bool to_user)
{
	size_t done = 0;

	while (done < len) {
		size_t n = MIN(len - done, PAGE_SIZE - ((uaddr + done) & (PAGE_SIZE - 1)));
		int err = to_user ? copy_to_user(uaddr + done, kaddr + done, n)
				  : copy_from_user(kaddr + done, uaddr + done, n);

		if (err)
			break;
		done += n;
	}
	return done;
}

/* Move @bytes between @kaddr and the iterator's next bytes; @to_iter is
 * the direction. Return: bytes moved; the iterator advanced by them. */
static size_t iterate(struct iov_iter *i, char *kaddr, size_t bytes, bool to_iter)
{
	size_t n = MIN(bytes, i->count);

	if (i->iter_type == ITER_UBUF) {
		n = copy_user_pages(i->ubuf, kaddr, n, to_iter);
		i->ubuf += n;
	} else {
		if (to_iter)
			memcpy(i->kbuf, kaddr, n);
		else
			memcpy(kaddr, i->kbuf, n);
		i->kbuf += n;
	}
	i->count -= n;
	return n;
}

size_t copy_to_iter(const void *addr, size_t bytes, struct iov_iter *i)
{
	if (i->data_source) /* Linux: WARN_ON(i->data_source) */
		return 0;
	return iterate(i, (char *)addr, bytes, true);
}

size_t copy_from_iter(void *addr, size_t bytes, struct iov_iter *i)
{
	if (!i->data_source)
		return 0;
	return iterate(i, addr, bytes, false);
}

size_t iov_iter_zero(size_t bytes, struct iov_iter *i)
{
	static const char zeros[256];
	size_t done = 0;

	while (done < bytes) {
		size_t want = MIN(bytes - done, sizeof(zeros));
		size_t n = copy_to_iter(zeros, want, i);

		done += n;
		if (n < want) /* a user page that cannot be written, or the end */
			break;
	}
	return done;
}

size_t copy_folio_to_iter(struct folio *folio, size_t offset, size_t bytes, struct iov_iter *i)
{
	if (offset + bytes > folio_size(folio))
		return 0;
	return copy_to_iter((char *)folio_address(folio) + offset, bytes, i);
}

size_t copy_folio_from_iter(struct folio *folio, size_t offset, size_t bytes, struct iov_iter *i)
{
	if (offset + bytes > folio_size(folio))
		return 0;
	return copy_from_iter((char *)folio_address(folio) + offset, bytes, i);
}
