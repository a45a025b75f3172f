/*
 * The file descriptor table (Linux: fs/file.c). For now only the console
 * stands behind fds 0, 1 and 2, which read_write.c serves directly.
 */
#include <fs.h>
#include <process.h>

int files_init(struct task *task)
{
	return 0;
}

void exit_files(struct task *task)
{
}

struct file *fget(struct task *task, int fd)
{
	return NULL;
}

void fput(struct file *file)
{
}

int mmap_file_get(struct task *task, int fd, unsigned long prot, unsigned long flags,
		  struct file **filep)
{
	/* Linux's answer for the console: it cannot be mapped. */
	return fd >= 0 && fd <= 2 ? -ENODEV : -EBADF;
}

int mmap_file_fill(struct file *file, unsigned long addr, unsigned long len, unsigned long off)
{
	return -EFAULT;
}
