/*
 * exec of a static ELF program (Linux: fs/exec.c do_execve and
 * begin_new_exec, fs/binfmt_elf.c load_elf_binary). binfmt_elf.c checks
 * the file and plans the load; this file carries the plan out in a new
 * mm and, only once all of it worked, gives the task that mm in place of
 * its old one, its new name, closes its close-on-exec fds, resets its
 * caught signals and sets where it starts (start_thread). A failed exec
 * leaves the task as it was.
 *
 * The load: each run of pages with one protection becomes one anonymous
 * VMA (a page two segments share gets the union of their prots, as
 * elf_page_prot says), first writable so copy_to_user can fill in the
 * file bytes; bss is zero because fresh anonymous memory is. Runs without
 * PROT_WRITE are then write-protected. Example: musl-gcc -static's
 * hello has R, R+X, R and R+W segments: four VMAs at 0x400000..., the
 * text one VM_EXEC, and an 8 MiB stack VMA below 0x7ffffffff000.
 */
#include <arch.h>
#include <binfmt_elf.h>
#include <binfmts.h>
#include <elf.h>
#include <fs.h>
#include <posix-timers.h>
#include <ramfs.h>
#include <random.h>
#include <sched.h>
#include <slab.h>
#include <syscalls.h>
#include <vm.h>
#include <vmalloc.h>

/* Clear RW in every present entry of the walk: the load is over. */
static int wrprotect_pmd(pmd_t *pmdp, unsigned long addr, unsigned long next, struct mm_walk *walk)
{
	struct mm_struct *mm = walk->private;

	if (pmd_leaf(*pmdp)) {
		set_pmd_at(mm, addr, pmdp, *pmdp & ~(uint64_t)_PAGE_RW);
		walk->action = ACTION_CONTINUE;
	}
	return 0;
}

static int wrprotect_pte(pte_t *ptep, unsigned long addr, struct mm_walk *walk)
{
	set_ptes(walk->private, addr, ptep, pte_wrprotect(*ptep), 1);
	return 0;
}

static const struct mm_walk_ops wrprotect_ops = {
	.pmd_entry = wrprotect_pmd,
	.pte_entry = wrprotect_pte,
};

/* Linux: the mprotect of a read-only run after its bytes are in. */
static void wrprotect_run(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	find_vma(mm, start)->vm_flags &= ~VM_WRITE;
	walk_page_range(mm, start, end, &wrprotect_ops, mm);
	flush_tlb_range(mm, start, end);
}

/* Map [start, end) for prot, writable until the bytes are copied. */
static int map_run(struct mm_struct *mm, unsigned long start, unsigned long end, uint32_t prot)
{
	unsigned long flags = calc_vm_prot_bits(prot) | VM_USER | VM_WRITE;

	if (IS_ERR_VALUE(vm_mmap(mm, start, end - start, flags, 0)))
		return -ENOMEM;
	return 0;
}

/* The program file as elf_check_image reads it: from its page cache. */
static void inode_image_read(const struct elf_image *img, uint64_t off, void *buf, size_t len)
{
	ramfs_read((struct ramfs_inode *)img->priv, off, buf, len);
}

/* Copy the file's [off, +len) to the user's @uaddr of the current mm
 * (Linux maps the file's pages instead: elf_map). */
static int copy_file_to_user(struct ramfs_inode *inode, uint64_t off, unsigned long uaddr,
			     size_t len)
{
	struct iov_iter iter;

	iov_iter_ubuf(&iter, ITER_DEST, uaddr, len);
	return filemap_read(inode->i_mapping, &off, &iter) == (long)len ? 0 : -EFAULT;
}

/*
 * Map every segment's pages, one VMA per run of equal protection, copy
 * the file bytes in, then drop the write permission the plan does not
 * give. Context: mm is current (copy_to_user writes through it).
 */
static int load_segments(struct mm_struct *mm, const struct elf_program *prog,
			 struct ramfs_inode *inode)
{
	uint64_t first = prog->segments[0].start;
	uint64_t last = prog->segments[prog->nr_segments - 1].end;
	uint64_t run = first;
	uint32_t run_prot = elf_page_prot(prog, first);

	for (uint64_t addr = first; addr <= last; addr += ELF_EXEC_PAGESIZE) {
		uint32_t prot = addr < last ? elf_page_prot(prog, addr) : 0;

		if (prot == run_prot)
			continue;
		if (run_prot && map_run(mm, run, addr, run_prot))
			return -ENOMEM;
		run = addr;
		run_prot = prot;
	}
	for (unsigned int i = 0; i < prog->nr_segments; i++) {
		const struct elf_load_segment *seg = &prog->segments[i];

		if (seg->filesz && copy_file_to_user(inode, seg->offset, seg->vaddr, seg->filesz))
			return -EFAULT;
	}
	for (int i = 0; i < mm->nr_vmas; i++) { /* this program's VMAs only */
		const struct vm_area_struct *vma = &mm->vmas[i];

		if (vma->vm_start >= first && vma->vm_end <= last &&
		    !(elf_page_prot(prog, vma->vm_start) & PROT_WRITE))
			wrprotect_run(mm, vma->vm_start, vma->vm_end);
	}
	return 0;
}

/*
 * Linux: load_elf_interp. Load the dynamic loader @inode where the mmap
 * allocator finds room for all of it (top-down below mmap_base, as
 * Linux's elf_map with no address does), aligned to its largest p_align.
 * Return: 0 with *@base (AT_BASE) and *@entry (where the program starts)
 * set, or a negative errno. Context: mm is current.
 */
static int load_elf_interp(struct mm_struct *mm, struct ramfs_inode *inode, const char *path,
			   uint64_t *base, uint64_t *entry)
{
	struct elf_image img = { .size = inode->size, .read = inode_image_read, .priv = inode };
	struct elf_program *iprog = kmalloc(sizeof(*iprog), GFP_KERNEL);
	unsigned long span, addr;
	char why[96];
	int ret;

	if (!iprog)
		return -ENOMEM;
	/* First anywhere valid, to learn its span; then where it goes. */
	ret = elf_check_image(&img, ELF_ET_DYN_BASE, iprog, why, sizeof(why));
	if (!ret && iprog->e_type == ET_DYN) {
		span = iprog->segments[iprog->nr_segments - 1].end - iprog->segments[0].start +
		       iprog->max_align - PAGE_SIZE;
		addr = vm_mmap(mm, 0, span, VM_READ | VM_USER, 0);
		ret = IS_ERR_VALUE(addr) || vm_munmap(mm, addr, span) ? -ENOMEM : 0;
		if (!ret)
			ret = elf_check_image(&img, ALIGN_UP(addr, iprog->max_align), iprog, why,
					      sizeof(why));
	}
	if (ret == -ENOEXEC)
		kprintf("%s: %s\n", path, why);
	if (!ret)
		ret = load_segments(mm, iprog, inode);
	*base = iprog->load_bias;
	*entry = iprog->entry;
	kfree(iprog);
	return ret;
}

/* Linux: load_elf_binary's start_code, end_code, start_data, end_data:
 * the executable segments' lowest start and highest file end, and the
 * highest start and file end of any. */
static void set_code_data(struct mm_struct *mm, const struct elf_program *prog)
{
	mm->start_code = ~0ul;
	for (unsigned int i = 0; i < prog->nr_segments; i++) {
		const struct elf_load_segment *seg = &prog->segments[i];
		unsigned long end = seg->vaddr + seg->filesz;

		if (seg->prot & PROT_EXEC) {
			mm->start_code = MIN(mm->start_code, seg->vaddr);
			mm->end_code = MAX(mm->end_code, end);
		}
		mm->start_data = MAX(mm->start_data, seg->vaddr);
		mm->end_data = MAX(mm->end_data, end);
	}
	if (mm->start_code == ~0ul)
		mm->start_code = 0;
}

/* Bytes create_elf_tables needs for these strings: them, their
 * pointers, the file name, and a page for auxv, AT_RANDOM, the platform
 * string and alignment. Strings past the limits only make it fail with
 * -E2BIG, in room that is big enough to tell. */
static size_t stack_image_size(const char *path, const char *const *argv, const char *const *envp)
{
	size_t bytes = strlen(path) + 1 + PAGE_SIZE;

	for (const char *const *v = argv; v && *v; v++)
		bytes += strlen(*v) + 1 + sizeof(uint64_t);
	for (const char *const *v = envp; v && *v; v++)
		bytes += strlen(*v) + 1 + sizeof(uint64_t);
	return ALIGN_UP(bytes, PAGE_SIZE);
}

/* The stack VMA and the initial stack at its top. Return: 0 with *sp
 * set, or a negative errno. Context: mm is current. */
static int setup_stack(struct mm_struct *mm, const struct elf_program *prog,
		       const struct mmap_layout *layout, const char *path, const char *const *argv,
		       const char *const *envp, uint64_t interp_base, uint64_t *sp)
{
	unsigned long flags =
		calc_vm_prot_bits(prog->stack_prot | PROT_READ | PROT_WRITE) | VM_USER;
	struct elf_binprm bprm = {
		.argv = argv,
		.envp = envp,
		.filename = path,
		.hwcap = arch_elf_hwcap(),
		.rlim_stack = layout->stack_size,
		.interp_base = interp_base,
	};
	struct elf_stack st;
	size_t used, size = stack_image_size(path, argv, envp);
	char *stack_image;
	int err;

	/* AT_RANDOM: libc's stack protector and pointer guard seeds. */
	get_random_bytes(bprm.rand_bytes, sizeof(bprm.rand_bytes));
	if (IS_ERR_VALUE(vm_mmap(mm, layout->stack_top - layout->stack_size, layout->stack_size,
				 flags, 0)))
		return -ENOMEM;
	stack_image = vmalloc(size);
	if (!stack_image)
		return -ENOMEM;
	err = create_elf_tables(prog, &bprm, stack_image, size, layout->stack_top, &st);
	if (!err) {
		used = layout->stack_top - st.sp;
		if (copy_to_user(st.sp, stack_image + size - used, used))
			err = -EFAULT;
	}
	vfree(stack_image);
	*sp = st.sp;
	mm->start_stack = st.sp;
	mm->arg_start = st.arg_start;
	mm->arg_end = mm->env_start = st.arg_end;
	mm->env_end = st.env_end;
	return err;
}

/* The program's name for ps and /proc (Linux: __set_task_comm, the last
 * component of the name exec was given, within TASK_COMM_LEN: a script's
 * own name, not its interpreter's) and the file that runs, for
 * /proc/self/exe (Linux: set_mm_exe_file). */
static void set_task_comm_exe(struct task_struct *task, const char *filename,
			      struct ramfs_inode *exe)
{
	const char *base = filename;

	for (const char *p = filename; *p; p++)
		if (*p == '/')
			base = p + 1;
	memset(task->comm, 0, sizeof(task->comm));
	memcpy(task->comm, base, MIN(strlen(base), sizeof(task->comm) - 1));
	ihold(exe);
	if (task->exe_file)
		iput(task->exe_file);
	task->exe_file = exe;
}

/* Linux: do_open_execat. A regular file the task may execute
 * (inode_permission's MAY_EXEC: root needs one execute bit, anyone else
 * the one for them), found from @dfd (AT_FDCWD: @task's cwd) with the
 * lookup @flags; a symbolic link execveat was told not to follow is
 * -ELOOP. */
static int open_exec(struct task_struct *task, int dfd, const char *path, unsigned int flags,
		     struct ramfs_inode **inode)
{
	int err = path_lookupat(task, dfd, path, flags, inode);

	if (err)
		return err;
	if (S_ISLNK((*inode)->mode))
		return -ELOOP;
	if (!S_ISREG((*inode)->mode))
		return -EACCES;
	return inode_permission(&task->cred, *inode, MAY_EXEC);
}

/*
 * Linux: begin_new_exec's credential steps. The new credentials
 * (bprm_creds: a set-user-ID file's owner as the effective uid,
 * capabilities by commoncap's rules); a parent-death signal does not
 * survive a change of them; the new mm may be dumped (and its /proc
 * files are the task's own) only when the effective ids are the real
 * ones (would_dump, suid_dumpable 0).
 */
static void exec_creds(struct task_struct *task, const struct ramfs_inode *inode)
{
	struct cred old = task->cred;
	struct cred *cred = &task->cred;

	bprm_creds(cred, inode->mode, inode->uid, inode->gid, task->no_new_privs);
	if (cred->euid != old.euid || cred->egid != old.egid || cred->fsuid != old.fsuid ||
	    cred->fsgid != old.fsgid || (cred->cap_permitted & ~old.cap_permitted))
		task->pdeath_signal = 0;
	if (cred->euid == cred->uid && cred->egid == cred->gid)
		task->mm->flags |= MMF_DUMPABLE;
	else
		task->mm->flags &= ~MMF_DUMPABLE;
}

/*
 * Linux: de_thread. An exec ends every other thread of the process
 * (zap_other_threads) and waits until they are gone; if the caller is
 * not the thread the process started with, it takes that thread's place:
 * its pid (exchange_tids), its start time and its place among its
 * parent's children, and the old leader, a zombie by then, is released.
 * The handlers are unshared from a CLONE_SIGHAND sibling process
 * (unshare_sighand). Return: 0, -EAGAIN when a group exit or another
 * exec got there first or a fatal signal came while waiting, -ENOMEM.
 */
static int de_thread(struct task_struct *tsk)
{
	struct signal_struct *sig = tsk->signal;
	unsigned long flags;

	if (thread_group_empty(tsk))
		goto no_thread_group;
	flags = arch_irq_save();
	if ((sig->flags & SIGNAL_GROUP_EXIT) || sig->group_exec_task) {
		arch_irq_restore(flags);
		return -EAGAIN;
	}
	sig->group_exec_task = tsk;
	sig->notify_count = zap_other_threads(tsk);
	if (!thread_group_leader(tsk))
		sig->notify_count--; /* the leader is waited for below */
	while (sig->notify_count > 0) {
		set_current_state(TASK_KILLABLE);
		arch_irq_restore(flags);
		schedule();
		flags = arch_irq_save();
		if (fatal_signal_pending(tsk))
			goto killed;
	}
	if (!thread_group_leader(tsk)) {
		struct task_struct *leader = tsk->group_leader;

		for (;;) {
			sig->notify_count = -1; /* exit_notify wakes us */
			if (leader->exit_state)
				break;
			set_current_state(TASK_KILLABLE);
			arch_irq_restore(flags);
			schedule();
			flags = arch_irq_save();
			if (fatal_signal_pending(tsk))
				goto killed;
		}
		tsk->start_time = leader->start_time;
		exchange_tids(tsk, leader);
		tsk->group_leader = tsk;
		leader->group_leader = tsk;
		tsk->exit_signal = SIGCHLD;
		leader->exit_signal = -1;
		tsk->real_parent = leader->real_parent;
		list_replace_init(&leader->sibling, &tsk->sibling);
		leader->real_parent = NULL;
		leader->exit_state = EXIT_DEAD;
		release_task(leader);
	}
	sig->group_exec_task = NULL;
	sig->notify_count = 0;
	arch_irq_restore(flags);
no_thread_group:
	tsk->exit_signal = SIGCHLD;
	/* Linux: unshare_sighand. */
	if (tsk->sighand->count > 1) {
		struct sighand_struct *sh = kmalloc(sizeof(*sh), GFP_KERNEL);

		if (!sh)
			return -ENOMEM;
		memcpy(sh->action, tsk->sighand->action, sizeof(sh->action));
		sh->count = 1;
		init_waitqueue_head(&sh->signalfd_wqh);
		__cleanup_sighand(tsk->sighand);
		tsk->sighand = sh;
	}
	return 0;
killed:
	sig->group_exec_task = NULL;
	sig->notify_count = 0;
	arch_irq_restore(flags);
	return -EAGAIN;
}

/* Linux: load_elf_binary's PT_INTERP step: read the dynamic loader's
 * path from the program and open it as exec opens a program. */
static int open_interp(struct task_struct *task, const char *path, struct ramfs_inode *inode,
		       const struct elf_program *prog, struct ramfs_inode **interp, char **name)
{
	char *buf = kmalloc(prog->interp_len, GFP_KERNEL);
	int ret;

	if (!buf)
		return -ENOMEM;
	ramfs_read(inode, prog->interp_offset, buf, prog->interp_len);
	ret = open_exec(task, AT_FDCWD, buf, LOOKUP_FOLLOW, interp);
	if (ret == -ENOENT)
		kprintf("%s: its dynamic loader %s is not there\n", path, buf);
	if (ret)
		kfree(buf);
	else
		*name = buf;
	return ret;
}

/* Check the ELF program and load it into a new mm, then make it @task's
 * (Linux: load_elf_binary, begin_new_exec). A dynamic program gets its
 * loader too, where the program starts. */
static int load_elf_binary(struct task_struct *task, const char *filename, const char *path,
			   struct ramfs_inode *inode, const char *const *argv,
			   const char *const *envp)
{
	struct elf_image img = { .size = inode->size, .read = inode_image_read, .priv = inode };
	struct elf_program prog;
	struct mm_struct *prev = current_mm, *old_mm = task->mm, *mm;
	struct ramfs_inode *interp = NULL;
	uint64_t sp, entry, interp_base = 0;
	struct mmap_layout layout;
	char why[96], *interp_name = NULL;
	int ret;

	ret = elf_check_image(&img, ELF_ET_DYN_BASE, &prog, why, sizeof(why));
	if (ret) {
		kprintf("%s: %s\n", path, why);
		return ret;
	}
	entry = prog.entry;
	if (prog.interp_len) {
		ret = open_interp(task, path, inode, &prog, &interp, &interp_name);
		if (ret)
			return ret;
	}
	mm = mm_create(0);
	if (!mm) {
		kfree(interp_name);
		return -ENOMEM;
	}
	pick_mmap_layout(task_rlimit(task, RLIMIT_STACK), &layout);
	mm->mmap_base = layout.mmap_base;
	mm->flags |= MMF_TOPDOWN; /* Linux: arch_pick_mmap_layout's default */
	mm->start_brk = mm->brk = prog.brk;
	set_code_data(mm, &prog);
	switch_mm(mm);
	ret = load_segments(mm, &prog, inode);
	if (!ret && interp)
		ret = load_elf_interp(mm, interp, interp_name, &interp_base, &entry);
	kfree(interp_name);
	if (!ret)
		ret = setup_stack(mm, &prog, &layout, filename, argv, envp, interp_base, &sp);
	switch_mm(prev);
	if (ret) {
		/* A failed exec leaves the caller as it was. */
		mm_destroy(mm);
		return ret;
	}
	/* Linux: begin_new_exec. The other threads go first. */
	ret = task == current ? de_thread(task) : 0;
	if (ret) {
		mm_destroy(mm);
		return ret;
	}
	/* The point of no return (Linux: begin_new_exec, exec_mmap): the
	 * old mm is released while it is still the task's (its
	 * clear_child_tid, a vfork parent let go), then dropped. */
	if (old_mm)
		mm_release(task, old_mm);
	task->mm = task->active_mm = mm;
	if (task == current)
		switch_mm(mm);
	if (old_mm)
		mmput(old_mm);
	set_task_comm_exe(task, filename, inode);
	exec_creds(task, inode);
	task->flags &= ~PF_FORKNOEXEC;
	do_close_on_exec(task);
	exit_itimers(task); /* Linux: begin_new_exec; itimers stay */
	flush_signal_handlers(task);
	start_thread(task, entry, sp);
	return 0;
}

/* Linux: load_script. The interpreter runs with [its name, its argument,
 * the script's path, argv[1]...]. */
static int exec_binprm(struct task_struct *task, const char *filename, const char *path,
		       struct ramfs_inode *inode, const char *const *argv, const char *const *envp,
		       int depth);

static int load_script(struct task_struct *task, const char *filename,
		       const struct script_interp *si, const char *const *argv,
		       const char *const *envp, int depth)
{
	size_t argc = 0, n = 0;
	struct ramfs_inode *inode;
	const char **new_argv;
	int ret = open_exec(task, AT_FDCWD, si->name, LOOKUP_FOLLOW, &inode);

	if (ret)
		return ret;
	while (argv && argv[argc])
		argc++;
	new_argv = kmalloc((argc + 3) * sizeof(*new_argv), GFP_KERNEL);
	if (!new_argv)
		return -ENOMEM;
	new_argv[n++] = si->name;
	if (si->has_arg)
		new_argv[n++] = si->arg;
	new_argv[n++] = filename;
	for (size_t i = 1; i < argc; i++) /* argv[0] gives way to the path */
		new_argv[n++] = argv[i];
	new_argv[n] = NULL;
	ret = exec_binprm(task, filename, si->name, inode, new_argv, envp, depth + 1);
	kfree(new_argv);
	return ret;
}

/* Linux: exec_binprm and search_binary_handler: a script hands over to
 * its interpreter, at most BINPRM_MAX_DEPTH times; anything else must
 * be an ELF program. @filename is the name execve was given (AT_EXECFN,
 * comm), @path and @inode the file to run now. */
static int exec_binprm(struct task_struct *task, const char *filename, const char *path,
		       struct ramfs_inode *inode, const char *const *argv, const char *const *envp,
		       int depth)
{
	char buf[BINPRM_BUF_SIZE]; /* Linux: bprm->buf, the file's first bytes */
	struct script_interp *si;
	long n;
	int ret;

	if (depth > BINPRM_MAX_DEPTH)
		return -ELOOP;
	if (!inode->i_mapping)
		return -EACCES;
	n = ramfs_read(inode, 0, buf, sizeof(buf));
	if (n < 2 || buf[0] != '#' || buf[1] != '!')
		return load_elf_binary(task, filename, path, inode, argv, envp);
	si = kmalloc(sizeof(*si), GFP_KERNEL);
	if (!si)
		return -ENOMEM;
	ret = script_parse(buf, (size_t)n, si);
	if (!ret)
		ret = load_script(task, filename, si, argv, envp, depth);
	kfree(si);
	return ret;
}

/* Linux: do_execveat_common from @dfd with AT_* @flags. The name the
 * program gets (AT_EXECFN, comm) is the path, or /dev/fd/N(/path) for
 * one relative to a directory fd or the fd itself (Linux's alloc_bprm). */
static int do_execveat(struct task_struct *task, int dfd, const char *path, const char *const *argv,
		       const char *const *envp, int flags)
{
	unsigned int lookup = at_lookup_flags(flags);
	struct ramfs_inode *inode;
	char *filename = NULL;
	int ret;

	/* Linux: a set*uid call past RLIMIT_NPROC left the failure for
	 * here, if the uid still has too many tasks (flag_nproc_exceeded). */
	if ((task->flags & PF_NPROC_EXCEEDED) &&
	    is_rlimit_overlimit(task->cred.ucounts, task_rlimit(task, RLIMIT_NPROC)))
		return -EAGAIN;
	task->flags &= ~PF_NPROC_EXCEEDED;
	if (flags & ~(AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW))
		return -EINVAL;
	ret = open_exec(task, dfd, path, lookup, &inode);
	if (ret)
		return ret;
	if (path[0] != '/' && dfd != AT_FDCWD) {
		filename = kmalloc(PATH_MAX, GFP_KERNEL);
		if (!filename)
			return -ENOMEM;
		ksnprintf(filename, PATH_MAX, path[0] ? "/dev/fd/%d/%s" : "/dev/fd/%d", dfd, path);
	}
	ret = exec_binprm(task, filename ? filename : path, path, inode, argv, envp, 0);
	kfree(filename);
	return ret;
}

int do_execve(struct task_struct *task, const char *path, const char *const *argv,
	      const char *const *envp)
{
	return do_execveat(task, AT_FDCWD, path, argv, envp, 0);
}

/* --- execve: the strings come from the caller's memory ------------------------------- */

/* Linux: strnlen_user, a page at a time so a string that ends before an
 * unmapped page is read without touching it. Return: the length with its
 * NUL, 0 on a fault, or more than @max when no NUL is within @max. */
static size_t user_strnlen(unsigned long str, size_t max)
{
	char buf[128];
	size_t n = 0;

	while (n <= max) {
		unsigned long addr = str + n;
		size_t chunk = MIN(sizeof(buf), PAGE_SIZE - (addr & (PAGE_SIZE - 1))), len;

		if (addr < str || addr >= USER_VA_END || copy_from_user(buf, addr, chunk))
			return 0;
		len = strnlen(buf, chunk);
		if (len < chunk)
			return n + len + 1;
		n += chunk;
	}
	return max + 1;
}

/* The user's argv or envp (Linux: count, get_user_arg_ptr). A NULL
 * array is an empty one. Return: the number of strings, with their bytes
 * (NULs and pointers counted) added to *bytes, or -EFAULT, or -E2BIG
 * past @limit. */
static long measure_strings(unsigned long uvec, size_t *bytes, size_t limit)
{
	long n = 0;

	for (; uvec; n++) {
		unsigned long str;
		size_t len;

		if (copy_from_user(&str, uvec + n * sizeof(str), sizeof(str)))
			return -EFAULT;
		if (!str)
			break;
		len = user_strnlen(str, MAX_ARG_STRLEN);
		if (!len)
			return -EFAULT;
		*bytes += len + sizeof(str);
		if (len > MAX_ARG_STRLEN || *bytes > limit)
			return -E2BIG;
	}
	return n;
}

/* Copy @n strings of @uvec to *@pos, their pointers to @vec, ending
 * with NULL. Return: 0 or -EFAULT (the user changed them meanwhile). */
static int copy_strings(unsigned long uvec, long n, char **vec, char **pos, const char *end)
{
	for (long i = 0; i < n; i++) {
		unsigned long str;
		size_t len;

		if (copy_from_user(&str, uvec + i * sizeof(str), sizeof(str)))
			return -EFAULT;
		len = str ? user_strnlen(str, MAX_ARG_STRLEN) : 0;
		if (!len || len > (size_t)(end - *pos) || copy_from_user(*pos, str, len))
			return -EFAULT;
		(*pos)[len - 1] = 0;
		vec[i] = *pos;
		*pos += len;
	}
	vec[n] = NULL;
	return 0;
}

/* Linux: do_execveat_common, with the strings copied in (copy_strings)
 * before the old program goes: a fault or -E2BIG leaves it running. */
static long execveat_from_user(struct task_struct *task, int dfd, unsigned long filename,
			       unsigned long argv, unsigned long envp, int flags)
{
	size_t bytes = 0, limit = bprm_arg_limit(rlimit(RLIMIT_STACK));
	long argc, envc;
	char **vec, *pos;
	char *name;
	int err;

	name = getname(filename, &err);
	if (!name)
		return err;
	argc = measure_strings(argv, &bytes, limit);
	envc = argc < 0 ? 0 : measure_strings(envp, &bytes, limit);
	if (argc < 0 || envc < 0) {
		kfree(name);
		return argc < 0 ? argc : envc;
	}
	bytes += 2 * sizeof(char *);
	vec = vmalloc(bytes);
	if (!vec) {
		kfree(name);
		return -ENOMEM;
	}
	pos = (char *)(vec + argc + 1 + envc + 1);
	err = copy_strings(argv, argc, vec, &pos, (char *)vec + bytes);
	if (!err)
		err = copy_strings(envp, envc, vec + argc + 1, &pos, (char *)vec + bytes);
	if (!err)
		err = do_execveat(task, dfd, name, (const char *const *)vec,
				  (const char *const *)(vec + argc + 1), flags);
	vfree(vec);
	kfree(name);
	return err;
}

SYSCALL_DEFINE3(execve, unsigned long, filename, unsigned long, argv, unsigned long, envp)
{
	return execveat_from_user(task, AT_FDCWD, filename, argv, envp, 0);
}

SYSCALL_DEFINE5(execveat, int, fd, unsigned long, filename, unsigned long, argv, unsigned long,
		envp, int, flags)
{
	return execveat_from_user(task, fd, filename, argv, envp, flags);
}
