/*
 * seq_file (Linux: fs/seq_file.c), simplified: a show function prints a
 * whole file into one buffer, at the first read and again at each read
 * from offset 0, and reads copy from it at f_pos. Linux's seq_read_iter prints the
 * records as they are read, so a reader that rewinds (lseek 0, glibc's
 * rewind) sees the file as it is now, not as it was at open: /proc/PID/maps
 * after an mmap. The buffer starts at one page and grows while the show
 * prints (doubling, the output so far copied), so the show runs once
 * however long its output (Linux's seq_read reruns a record that
 * overflows into a doubled buffer; a show here is the whole file, and
 * rerunning it, a smaps walking every page table, cost as much again per
 * doubling). Example: a show that prints 5000 bytes grows 4096 to 8192
 * and leaves count = 5000; read(fd, b, 4096) then copies bytes 0..4095,
 * the next read 4096..4999, the third returns 0.
 */
#include <seq_file.h>
#include <slab.h>
#include <vm.h>

/* Room for len more bytes and a NUL: a buffer seq_fill made grows to
 * twice its size (or more, as len needs), up to SEQ_BUF_MAX, keeping the
 * output so far. Return: whether there is room now. */
static bool seq_reserve(struct seq_file *m, size_t len)
{
	size_t size = m->size;
	char *buf;

	if (m->size - m->count > len)
		return true;
	if (!m->grows || seq_has_overflowed(m))
		return false;
	while (size - m->count <= len && size < SEQ_BUF_MAX)
		size *= 2;
	size = MIN(size, SEQ_BUF_MAX);
	if (size - m->count <= len)
		return false;
	buf = kmalloc(size, GFP_KERNEL);
	if (!buf)
		return false;
	memcpy(buf, m->buf, m->count);
	kfree(m->buf);
	m->buf = buf;
	m->size = size;
	return true;
}

void seq_vprintf(struct seq_file *m, const char *fmt, va_list ap)
{
	size_t room = m->size - m->count;
	va_list again;
	int len;

	if (!room)
		return;
	va_copy(again, ap);
	len = kvsnprintf(m->buf + m->count, room, fmt, ap);
	/* kvsnprintf wants room for its NUL: len == room did not fit either. */
	if (len >= 0 && (size_t)len >= room && seq_reserve(m, (size_t)len)) {
		room = m->size - m->count;
		len = kvsnprintf(m->buf + m->count, room, fmt, again);
	}
	va_end(again);
	m->count = len >= 0 && (size_t)len < room ? m->count + (size_t)len : m->size;
}

void seq_printf(struct seq_file *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	seq_vprintf(m, fmt, ap);
	va_end(ap);
}

void seq_write(struct seq_file *m, const void *data, size_t len)
{
	if (!seq_reserve(m, len)) { /* keep count < size unless overflowed */
		m->count = m->size;
		return;
	}
	memcpy(m->buf + m->count, data, len);
	m->count += len;
}

void seq_puts(struct seq_file *m, const char *s)
{
	seq_write(m, s, strlen(s));
}

void seq_putc(struct seq_file *m, char c)
{
	seq_write(m, &c, 1);
}

void seq_pad_to(struct seq_file *m, size_t line_start, size_t col, char c)
{
	while (!seq_has_overflowed(m) && m->count < line_start + col)
		seq_putc(m, ' ');
	if (c)
		seq_putc(m, c);
}

void seq_release_buf(struct seq_file *m)
{
	kfree(m->buf);
	m->buf = NULL;
	m->size = m->count = 0;
}

int seq_fill(struct seq_file *m, seq_show_t show, void *v)
{
	int err;

	*m = (struct seq_file){ .buf = kmalloc(PAGE_SIZE, GFP_KERNEL),
				.size = PAGE_SIZE,
				.private = v,
				.show = show,
				.grows = true };
	if (!m->buf)
		return -ENOMEM;
	err = show(m, v);
	if (!err && seq_has_overflowed(m)) /* past SEQ_BUF_MAX, or no memory to grow */
		err = -ENOMEM;
	if (err)
		seq_release_buf(m);
	return err;
}

int seq_show_to_console(seq_show_t show, void *v)
{
	struct seq_file m;
	int err = seq_fill(&m, show, v);

	if (err)
		return err;
	console_write(m.buf, m.count);
	seq_release_buf(&m);
	return 0;
}

/* Nothing is printed yet: the first read does it (Linux: single_open;
 * seq_read_iter prints on demand). */
int single_open(struct file *file, seq_show_t show, void *data)
{
	struct seq_file *m = kmalloc(sizeof(*m), GFP_KERNEL);

	if (!m)
		return -ENOMEM;
	*m = (struct seq_file){ .private = data, .show = show };
	file->private_data = m;
	return 0;
}

/* Linux: seq_read_iter. The first read, and every read from offset 0,
 * prints the file (Linux starts its records over at index 0: traverse);
 * if printing it again fails, the output made before stays. */
long seq_read(struct file *file, unsigned long ubuf, size_t count, uint64_t *pos)
{
	struct seq_file *m = file->private_data;
	struct seq_file fresh;
	size_t n;

	if ((*pos == 0 || !m->buf) && m->show) {
		int err = seq_fill(&fresh, m->show, m->private);

		if (err && !m->buf)
			return err;
		if (!err) {
			seq_release_buf(m);
			*m = fresh;
		}
	}
	if (*pos >= m->count)
		return 0;
	n = MIN(count, m->count - (size_t)*pos);
	if (copy_to_user(ubuf, m->buf + *pos, n))
		return -EFAULT;
	*pos += n;
	return (long)n;
}

/* Linux: seq_lseek (no SEEK_END: the size of a generated file is not
 * known up front). */
int64_t seq_lseek(struct file *file, int64_t offset, int whence)
{
	return no_seek_end_llseek(file, offset, whence);
}

void single_release(struct ramfs_inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;

	(void)inode;
	if (!m)
		return;
	seq_release_buf(m);
	kfree(m);
	file->private_data = NULL;
}

static int proc_single_open(struct ramfs_inode *inode, struct file *file)
{
	return single_open(file, (seq_show_t)(uintptr_t)inode->i_private, NULL);
}

const struct file_operations proc_single_fops = {
	.open = proc_single_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};
