/*
 * The memory character devices, major 1 (Linux: drivers/char/mem.c and
 * random.c's file operations): /dev/null reads end of file and swallows
 * writes, /dev/zero reads zeros and swallows writes, /dev/full reads
 * zeros and refuses writes with -ENOSPC, /dev/random and /dev/urandom
 * read the kernel's ChaCha20 stream (get_random_bytes; it is seeded at
 * boot, so neither blocks) and take writes as Linux takes them without
 * crediting entropy. Example: read(open("/dev/zero"), buf, 10) is 10
 * zero bytes; write(open("/dev/full"), "x", 1) is -ENOSPC.
 */
#include <ramfs.h>
#include <random.h>
#include <syscalls.h>
#include <vm.h>

#define MEM_CHUNK 256 /* bytes a read fills on the stack at a time */

/* Copy @count bytes of @fill's making to the user. Return: the bytes
 * copied, or -EFAULT if none could be; a signal ends a long read early
 * (Linux checks every page). */
static long read_filled(unsigned long buf, size_t count, void (*fill)(void *p, size_t n))
{
	uint8_t chunk[MEM_CHUNK];
	size_t done = 0;

	while (done < count) {
		size_t n = MIN(count - done, sizeof(chunk));

		fill(chunk, n);
		if (copy_to_user(buf + done, chunk, n))
			return done ? (long)done : -EFAULT;
		done += n;
		if (done % PAGE_SIZE == 0 && done < count && signal_pending(current))
			break;
	}
	/* No random bytes stay on the stack (Linux: memzero_explicit). */
	memset(chunk, 0, sizeof(chunk));
	__asm__ volatile("" : : "r"(chunk) : "memory");
	return (long)done;
}

static void fill_zero(void *p, size_t n)
{
	memset(p, 0, n);
}

/* Linux: read_null, write_null. */
static long read_null(struct file *file, unsigned long buf, size_t count, uint64_t *pos)
{
	return 0;
}

static long write_null(struct file *file, unsigned long buf, size_t count, uint64_t *pos)
{
	return (long)count;
}

/* Linux: read_iter_zero. */
static long read_zero(struct file *file, unsigned long buf, size_t count, uint64_t *pos)
{
	return read_filled(buf, count, fill_zero);
}

/* Linux: write_full. */
static long write_full(struct file *file, unsigned long buf, size_t count, uint64_t *pos)
{
	return -ENOSPC;
}

/* Linux: null_lseek, for null, zero and full: every seek goes to 0. */
static int64_t null_lseek(struct file *file, int64_t offset, int whence)
{
	file->f_pos = 0;
	return 0;
}

/* Linux: urandom_read_iter / random_read_iter once the crng is ready. */
static long random_read(struct file *file, unsigned long buf, size_t count, uint64_t *pos)
{
	return read_filled(buf, count, get_random_bytes);
}

/* Linux: random_write_iter. The bytes would be mixed in, uncredited;
 * Folium's stream keeps its own seed, so they are read and dropped. */
static long random_write(struct file *file, unsigned long buf, size_t count, uint64_t *pos)
{
	uint8_t chunk[MEM_CHUNK];

	for (size_t done = 0; done < count; done += MIN(count - done, sizeof(chunk)))
		if (copy_from_user(chunk, buf + done, MIN(count - done, sizeof(chunk))))
			return done ? (long)done : -EFAULT;
	return (long)count;
}

/* Linux: noop_llseek: the position stays. */
static int64_t noop_llseek(struct file *file, int64_t offset, int whence)
{
	return (int64_t)file->f_pos;
}

static const struct file_operations null_fops = {
	.read = read_null,
	.write = write_null,
	.llseek = null_lseek,
};

/*
 * Linux: mmap_zero. /dev/zero maps anonymous memory: MAP_SHARED through
 * a shmem file of its own (shmem_zero_setup, as MAP_SHARED|MAP_ANONYMOUS;
 * the VMA holds it instead of /dev/zero), MAP_PRIVATE as private
 * anonymous memory. Linux's private VMA keeps /dev/zero as its file
 * (vma_set_anonymous), which /proc/PID/maps names; here it has none.
 */
static int mmap_zero(struct file *file, struct vm_area_struct *vma)
{
	struct file *shm;
	int err;

	(void)file;
	if (!(vma->vm_flags & VM_SHARED)) {
		vma->vm_file = NULL;
		vma->vm_ops = NULL;
		vma->vm_pgoff = vma->vm_start >> PAGE_SHIFT;
		return 0;
	}
	shm = shmem_zero_setup(vma->vm_end - vma->vm_start, vma->vm_flags);
	if (!shm)
		return -ENOMEM;
	vma->vm_file = shm;
	vma->vm_pgoff = 0;
	err = shm->f_op->mmap(shm, vma);
	if (err)
		fput(shm);
	return err;
}

static const struct file_operations zero_fops = {
	.read = read_zero,
	.write = write_null,
	.llseek = null_lseek,
	.mmap = mmap_zero,
};

static const struct file_operations full_fops = {
	.read = read_zero,
	.write = write_full,
	.llseek = null_lseek,
};

static const struct file_operations random_fops = {
	.read = random_read,
	.write = random_write,
	.llseek = noop_llseek,
};

const struct file_operations *mem_fops_of(unsigned int minor)
{
	switch (minor) {
	case 3:
		return &null_fops;
	case 5:
		return &zero_fops;
	case 7:
		return &full_fops;
	case 8: /* random */
	case 9: /* urandom */
		return &random_fops;
	default:
		return NULL;
	}
}
