/*
 * Files whose contents a function prints (Linux: include/linux/seq_file.h):
 * /proc and /sys. The show function runs at open and at each read from
 * offset 0 (as Linux's seq_read prints the file afresh after a rewind)
 * into a kmalloc'd buffer that starts at one page and doubles as the
 * output needs; read then copies from it at f_pos. Example:
 * open("/proc/meminfo") runs meminfo_proc_show into 4 KiB; a smaps of 40
 * VMAs grows it to 8 KiB as it prints.
 */
#ifndef FOLIUM_SEQ_FILE_H
#define FOLIUM_SEQ_FILE_H

#include <fs.h>
#include <kernel.h>

struct pglist_data;
struct page;

struct seq_file {
	char *buf;
	size_t size;  /* bytes of buf */
	size_t count; /* bytes written; == size once it overflowed */
	void *private;
	int (*show)(struct seq_file *m, void *v); /* what prints it again */
	bool grows; /* seq_fill's kmalloc'd buffer: doubles when full */
};

/* --- fs/seq_file.c ------------------------------------------------------- */
/* Append to m; a buffer seq_fill made grows to fit, up to SEQ_BUF_MAX;
 * output that does not fit marks m overflowed. Linux: seq_printf, ... */
void seq_printf(struct seq_file *m, const char *fmt, ...) __printf(2, 3);
void seq_vprintf(struct seq_file *m, const char *fmt, va_list ap);
void seq_puts(struct seq_file *m, const char *s);
void seq_putc(struct seq_file *m, char c);
void seq_write(struct seq_file *m, const void *data, size_t len);
/* Pad with blanks to column col of the current line, then put c (0:
 * nothing): Linux's seq_setwidth + seq_pad, as /proc/PID/maps uses. */
void seq_pad_to(struct seq_file *m, size_t line_start, size_t col, char c);
static inline bool seq_has_overflowed(const struct seq_file *m)
{
	return m->count == m->size;
}

typedef int (*seq_show_t)(struct seq_file *m, void *v);
/* The largest output a show may produce (the buffer stops doubling). */
#define SEQ_BUF_MAX (4ul << 20)
/*
 * Run show(m, v) once into a fresh buffer of PAGE_SIZE that doubles as
 * the output needs (m->private = v). Return: 0 with m->buf holding
 * m->count bytes (free with seq_release_buf), show's negative errno, or
 * -ENOMEM (no memory, or more than SEQ_BUF_MAX bytes).
 */
int seq_fill(struct seq_file *m, seq_show_t show, void *v);
void seq_release_buf(struct seq_file *m);
/* Print what show produces to the consoles (the shell's views of /proc
 * files). Return: 0 or a seq_fill error. */
int seq_show_to_console(seq_show_t show, void *v);

/* file_operations for a file shown by one function (Linux: single_open
 * and friends). single_open keeps the filled seq_file in
 * file->private_data; seq_read copies from it at *pos, printing it again
 * first when *pos is 0; seq_lseek takes
 * SEEK_SET and SEEK_CUR to any offset >= 0 (-EINVAL otherwise, as Linux).
 * Return of single_open: 0 or a seq_fill error. */
int single_open(struct file *file, seq_show_t show, void *data);
long seq_read(struct file *file, unsigned long ubuf, size_t count, uint64_t *pos);
int64_t seq_lseek(struct file *file, int64_t offset, int whence);
void single_release(struct ramfs_inode *inode, struct file *file);
/* A /proc file whose inode's i_private is its show function (an open
 * runs single_open(file, show, NULL)). */
extern const struct file_operations proc_single_fops;

/* --- fs/proc/root.c ------------------------------------------------------ */
/* Boot, after populate_rootfs: /proc with meminfo, vmstat, buddyinfo,
 * pagetypeinfo, cpuinfo, stat, kmsg, self and every PID. */
void proc_root_init(void);
/* Create the file path (under /proc) read through fops; i_private = data.
 * Return: the inode, or NULL (reported) when rootfs refused it. */
struct ramfs_inode *proc_create(const char *path, uint32_t mode, const struct file_operations *fops,
				void *data);
/* /proc/meminfo (fs/proc/meminfo.c), /proc/cpuinfo and /proc/interrupts
 * (arch). */
int meminfo_proc_show(struct seq_file *m, void *v);
int cpuinfo_proc_show(struct seq_file *m, void *v);
int interrupts_proc_show(struct seq_file *m, void *v);
/* --- fs/proc/base.c: /proc/PID ------------------------------------------------- */
/* A /proc/PID inode's data (Linux: struct proc_inode's pid and op): the
 * pid it belongs to, fd/N's N, and the show function of a file one
 * function prints (Linux's ONE() entries). */
struct proc_inode {
	int pid;
	int fd;
	seq_show_t show;
};
/* What an open /proc/PID file keeps of its task (Linux: a struct pid
 * reference): a later task with the same pid has another start time. */
struct proc_task_ref {
	int pid;
	uint64_t start_time;
};
/* The task with the inode's pid now, or NULL. */
struct task_struct *proc_inode_task(const struct ramfs_inode *inode);
/* The task @ref names if it still exists (a zombie too), else NULL:
 * the file's task is gone (Linux: get_pid_task). Context: no sleep
 * between this and the last use of the task. */
struct task_struct *proc_task_get(const struct proc_task_ref *ref);
/* A reference to the inode's task for a file being opened (kfree it).
 * Return: it, or NULL with *err -ENOENT (no such task now) or -ENOMEM. */
struct proc_task_ref *proc_task_ref_new(const struct ramfs_inode *inode, int *err);
/* single_open with m->private a new reference to the inode's task;
 * proc_pid_release frees both. Return: 0, -ENOENT, -ENOMEM. */
int proc_pid_single_open(struct ramfs_inode *inode, struct file *file, seq_show_t show);
/* Linux: proc_mem_open's mm_access check for maps, smaps, pagemap and
 * environ: -EACCES when the inode's task has another mm the reader may
 * not look into (ptrace_may_access); -ENOENT when the task is gone. */
int proc_mem_open_check(const struct ramfs_inode *inode);
void proc_pid_release(struct ramfs_inode *inode, struct file *file);
/* Linux: name_to_int: decimal digits, no leading zero. Return: the
 * number, or -1. */
int proc_name_to_int(const char *name, size_t len);
/* /proc/PID/stat, statm, cmdline, environ (fs/proc/array.c): m->private
 * is the proc_task_ref. */
int proc_tgid_stat_show(struct seq_file *m, void *v);
int proc_pid_statm_show(struct seq_file *m, void *v);
int proc_pid_cmdline_show(struct seq_file *m, void *v);
int proc_pid_environ_show(struct seq_file *m, void *v);
/* /proc/PID/maps and smaps (fs/proc/task_mmu.c): i_private is the
 * proc_inode of the pid. */
extern const struct file_operations proc_pid_maps_fops;
extern const struct file_operations proc_pid_smaps_fops;
extern const struct file_operations proc_pid_status_fops;
extern const struct file_operations proc_pid_smaps_rollup_fops;
/* /proc/PID/pagemap: a u64 per virtual page, Linux's bits. */
extern const struct file_operations proc_pagemap_fops;
/* /proc/PID/clear_refs: write-only, 1..5 as Linux (mm/clear_refs.c). */
extern const struct file_operations proc_clear_refs_fops;
#define PM_PFRAME_MASK ((1ull << 55) - 1)
#define PM_SOFT_DIRTY (1ull << 55)
#define PM_MMAP_EXCLUSIVE (1ull << 56)
#define PM_UFFD_WP (1ull << 57)
#define PM_GUARD_REGION (1ull << 58) /* a guard marker (Linux 6.14+) */
#define PM_FILE (1ull << 61)
#define PM_SWAP (1ull << 62)
#define PM_PRESENT (1ull << 63)
/* /proc/kpageflags, /proc/kpagecount (fs/proc/page.c): a u64 per pfn.
 * stable_page_flags: the KPF_* bits of page (<kernel-page-flags.h>);
 * KPF_NOPAGE for NULL, a pfn without a struct page. */
extern const struct file_operations proc_kpageflags_fops;
extern const struct file_operations proc_kpagecount_fops;
uint64_t stable_page_flags(const struct page *page);
/* /proc/PID/exe's target: the path the task's exec was given (fs/proc/base.c). */
int proc_exe_get_link(struct ramfs_inode *inode, char *buf, size_t size);

/* --- mm/vmstat.c --------------------------------------------------------- */
/* /proc/vmstat, /proc/buddyinfo, /proc/pagetypeinfo, /proc/zoneinfo in
 * Linux's formats. vmstat_show covers node 0 (the machine's memory);
 * buddyinfo, pagetypeinfo and zoneinfo every registered node, as Linux
 * does. */
int vmstat_show(struct seq_file *m, void *v);
int frag_show(struct seq_file *m, void *v);
int pagetypeinfo_show(struct seq_file *m, void *v);
int zoneinfo_show(struct seq_file *m, void *v);
/* Counters Folium has and Linux's /proc/vmstat does not (allocator
 * fallbacks, per-order splits): the shell's vmstat prints them after the
 * file. v is the pglist_data. */
int vmstat_folium_show(struct seq_file *m, void *v);
/* PMD-mapped THPs of pgdat (Linux: NR_ANON_THPS), for meminfo too. */
unsigned long vm_anon_thps(struct pglist_data *pgdat);

/* --- fs/sysfs.c ------------------------------------------------------------ */
/* A sysfs attribute (Linux: struct kobj_attribute): show prints the
 * value with its newline; store parses buf (NUL-terminated, the bytes
 * written) and returns count or a negative errno. priv tells instances
 * apart (e.g. the order of a hugepages-<N>kB directory). */
struct kobj_attribute {
	int (*show)(struct seq_file *m, void *priv);
	long (*store)(const char *buf, size_t count, void *priv);
};
extern const struct file_operations sysfs_file_fops;
/* Create /sys/<path> for attr: mode 0644 with a store, 0444 without;
 * i_private = attr, priv kept for its callbacks. Return: 0 or -errno. */
int sysfs_create_file(const char *path, const struct kobj_attribute *attr, void *priv);
/* Print a sysfs file (an inode with sysfs_file_fops) to the consoles:
 * the shell's cat. Return: 0 or a seq_fill error. */
int sysfs_show_to_console(const struct ramfs_inode *inode);
/* Boot, after populate_rootfs: /sys/kernel/mm/transparent_hugepage/... */
void sysfs_init(void);
/* Boot, after smp_init: /sys/devices/system/cpu (Linux: cpu_dev_init). */
void cpu_dev_init(void);

#endif
