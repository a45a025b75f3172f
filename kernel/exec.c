/*
 * exec of a static ELF program and its end (Linux: fs/exec.c do_execve,
 * fs/binfmt_elf.c load_elf_binary, kernel/exit.c do_exit). binfmt_elf.c
 * checks the file and plans the load; this file carries the plan out in
 * a new mm, runs the program in ring 3 through the arch, and destroys
 * the mm when it ends, so every page it used goes back.
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
#include <fs.h>
#include <process.h>
#include <ramfs.h>
#include <random.h>
#include <resource.h>
#include <timekeeping.h>
#include <vm.h>

#define STACK_IMAGE_SIZE 8192 /* argv, envp and auxv of a shell line */

static struct task task;
static char stack_image[STACK_IMAGE_SIZE]; /* create_elf_tables' buffer */

static unsigned long prot_to_vm_flags(uint32_t prot)
{
	return (prot & PROT_READ ? VM_READ : 0) | (prot & PROT_WRITE ? VM_WRITE : 0) |
	       (prot & PROT_EXEC ? VM_EXEC : 0) | VM_USER;
}

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
	unsigned long flags = prot_to_vm_flags(prot) | VM_WRITE;

	if (IS_ERR_VALUE(vm_mmap(mm, start, end - start, flags, 0)))
		return -ENOMEM;
	return 0;
}

/*
 * Map every segment's pages, one VMA per run of equal protection, copy
 * the file bytes in, then drop the write permission the plan does not
 * give. Context: mm is current (copy_to_user writes through it).
 */
static int load_segments(struct mm_struct *mm, const struct elf_program *prog, const char *image)
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

		if (copy_to_user(seg->vaddr, image + seg->offset, seg->filesz))
			return -EFAULT;
	}
	for (int i = 0; i < mm->nr_vmas; i++)
		if (!(elf_page_prot(prog, mm->vmas[i].vm_start) & PROT_WRITE))
			wrprotect_run(mm, mm->vmas[i].vm_start, mm->vmas[i].vm_end);
	return 0;
}

/* The stack VMA and the initial stack at its top. Return: 0 with *sp
 * set, or a negative errno. Context: mm is current. */
static int setup_stack(struct mm_struct *mm, const struct elf_program *prog,
		       const struct mmap_layout *layout, const char *path, const char *const *argv,
		       const char *const *envp, uint64_t *sp)
{
	unsigned long flags = prot_to_vm_flags(prog->stack_prot | PROT_READ | PROT_WRITE);
	struct elf_binprm bprm = {
		.argv = argv,
		.envp = envp,
		.filename = path,
		.hwcap = arch_elf_hwcap(),
		.rlim_stack = layout->stack_size,
	};
	struct elf_stack st;
	size_t used;
	int err;

	/* AT_RANDOM: libc's stack protector and pointer guard seeds. */
	get_random_bytes(bprm.rand_bytes, sizeof(bprm.rand_bytes));
	if (IS_ERR_VALUE(vm_mmap(mm, layout->stack_top - layout->stack_size, layout->stack_size,
				 flags, 0)))
		return -ENOMEM;
	err = create_elf_tables(prog, &bprm, stack_image, sizeof(stack_image), layout->stack_top,
				&st);
	if (err)
		return err;
	used = layout->stack_top - st.sp;
	if (copy_to_user(st.sp, stack_image + sizeof(stack_image) - used, used))
		return -EFAULT;
	*sp = st.sp;
	return 0;
}

static void task_init(struct task *t, const char *path, struct mm_struct *mm,
		      const struct elf_program *prog, const struct mmap_layout *layout)
{
	const char *base = path;

	for (const char *p = path; *p; p++)
		if (*p == '/')
			base = p + 1;
	memset(t, 0, sizeof(*t));
	t->pid = TASK_PID;
	task_caps_root(t);
	/* Linux: __set_task_comm, TASK_COMM_LEN 16 with the NUL. */
	memcpy(t->comm, base, MIN(strlen(base), sizeof(t->comm) - 1));
	t->mm = mm;
	t->start_brk = t->brk = prog->brk;
	t->brk_limit = layout->mmap_base;
	memcpy(t->exe, path, MIN(strlen(path), sizeof(t->exe) - 1));
}

/* Find and check the program. Return: 0 with *inode and *prog set. */
static int open_program(const char *path, struct ramfs_inode **inode, struct elf_program *prog)
{
	char why[96];
	int err = ramfs_lookup(&rootfs, path, true, inode);

	if (err)
		return err;
	if (!S_ISREG((*inode)->mode) || !((*inode)->mode & 0111))
		return -EACCES;
	err = elf_check_program((*inode)->data, (*inode)->size, ELF_ET_DYN_BASE, prog, why,
				sizeof(why));
	if (err)
		kprintf("%s: %s\n", path, why);
	return err;
}

int do_execve(const char *path, const char *const *argv, const char *const *envp)
{
	struct elf_program prog;
	struct mm_struct *prev = current_mm, *mm;
	struct ramfs_inode *inode;
	struct mmap_layout layout;
	uint64_t sp;
	int ret;

	ret = open_program(path, &inode, &prog);
	if (ret)
		return ret;
	mm = mm_create(0);
	if (!mm)
		return -ENOMEM;
	pick_mmap_layout(RLIMIT_STACK_DEFAULT, &layout);
	mm->mmap_base = layout.mmap_base;
	mm->flags |= MMF_TOPDOWN; /* Linux: arch_pick_mmap_layout's default */
	switch_mm(mm);
	ret = load_segments(mm, &prog, inode->data);
	if (!ret)
		ret = setup_stack(mm, &prog, &layout, path, argv, envp, &sp);
	if (!ret) {
		task_init(&task, path, mm, &prog, &layout);
		rlimits_init();	     /* each program starts with the limits at exec */
		task_cputime_init(); /* its CPU clock starts now */
		ret = files_init(&task);
		if (!ret)
			ret = arch_run_user(&task, prog.entry, sp);
		/* Linux: exit_files in do_exit; here once the program is gone. */
		exit_files(&task);
	}
	switch_mm(prev);
	mm_destroy(mm);
	return ret;
}

void do_exit(int code)
{
	arch_exit_user(code);
}
