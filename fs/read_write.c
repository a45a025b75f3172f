/*
 * read, write and their vector forms (Linux: fs/read_write.c). For now the
 * console is the only file: fds 0, 1 and 2 write to every console.
 */
#include <syscalls.h>
#include <vm.h>

#define WRITE_CHUNK 256 /* bytes copied from the user per console write */
#define UIO_MAXIOV 1024 /* Linux's limit on writev's vector */

/* Linux: struct iovec (the user's layout). */
struct iovec {
	uint64_t iov_base;
	uint64_t iov_len;
};

static bool fd_is_console(long fd)
{
	return fd >= 0 && fd <= 2;
}

/* Return: bytes written, or -EFAULT if not even the first chunk could be
 * read (a later bad chunk ends the write short, as Linux does). */
static long console_write_user(unsigned long buf, size_t count)
{
	char chunk[WRITE_CHUNK];
	size_t done = 0;

	while (done < count) {
		size_t n = MIN(count - done, sizeof(chunk));

		if (copy_from_user(chunk, buf + done, n))
			return done ? (long)done : -EFAULT;
		console_write(chunk, n);
		done += n;
	}
	return (long)done;
}

SYSCALL_DEFINE3(write, int, fd, unsigned long, buf, size_t, count)
{
	if (!fd_is_console(fd))
		return -EBADF;
	return console_write_user(buf, count);
}

SYSCALL_DEFINE3(writev, int, fd, unsigned long, vec, unsigned long, vlen)
{
	struct iovec iov;
	long total = 0;

	if (!fd_is_console(fd))
		return -EBADF;
	if (vlen > UIO_MAXIOV)
		return -EINVAL;
	for (unsigned long i = 0; i < vlen; i++) {
		long n;

		if (copy_from_user(&iov, vec + i * sizeof(iov), sizeof(iov)))
			return total ? total : -EFAULT;
		n = console_write_user(iov.iov_base, iov.iov_len);
		if (n < 0)
			return total ? total : n;
		total += n;
	}
	return total;
}
