/*
 * kmain: the boot sequence, in order. Each step may use only what the
 * steps above it set up: arch_early_console() brings up the serial
 * console (so everything after can report), arch_setup() the kernel's
 * own page tables and the cycle counter; the framebuffer console needs
 * those page tables; mm_init turns memblock into the buddy allocator once
 * cma= is known; interrupts come last, when every handler they can reach
 * exists. Command-line keys are registered (CMDLINE_KEY) by the code that
 * reads them; this file owns loglevel= and run=.
 */
#include <arch.h>
#include <kthread.h>
#include <sched.h>
#include <shmem_fs.h>
#include <acpi.h>
#include <asm/page.h>
#include <fbcon.h>
#include <fs.h>
#include <hugetlb.h>
#include <mm.h>
#include <mman.h>
#include <ramfs.h>
#include <seq_file.h>
#include <shell.h>
#include <smp.h>
#include <umh.h>
#include <version.h>
#include <vm.h>

const struct boot_info *boot_info;
char boot_cmdline_text[BOOT_CMDLINE_MAX];

void kmain(uint64_t boot_info_phys);

static void check_boot_info(const struct boot_info *bi)
{
	if (bi->magic != BOOT_INFO_MAGIC || bi->version != BOOT_INFO_VERSION ||
	    bi->size != sizeof(*bi))
		panic("kmain: boot_info magic %llx version %u size %u; expected "
		      "%llx version %u size %zu: loader and kernel do not match",
		      (unsigned long long)bi->magic, bi->version, bi->size, BOOT_INFO_MAGIC,
		      BOOT_INFO_VERSION, sizeof(*bi));
}

static void print_banner(void)
{
	pr_info("Folium %s on %s\n", FOLIUM_VERSION, arch_cpu_name());
	pr_info("Config: %s\n", CONFIG_SUMMARY);
}

static void parse_cmdline(const struct boot_info *bi)
{
	static const char *const sources[] = { "defaults", "/folium/cmdline.txt",
					       "UEFI load options" };

	memcpy(boot_cmdline_text, bi->cmdline, BOOT_CMDLINE_MAX);
	boot_cmdline_text[BOOT_CMDLINE_MAX - 1] = '\0';
	pr_info("Command line (%s): %s\n", sources[bi->cmdline_source < 3 ? bi->cmdline_source : 0],
		boot_cmdline_text);
	if (cmdline_parse(&boot_cmdline, boot_cmdline_text) < 0)
		pr_err("cmdline: %s; using the parameters before it\n", boot_cmdline.error);
}

/* A key no file registered with CMDLINE_KEY is a typo or a parameter of
 * another kernel: say so, and list the keys this one knows. */
static void check_cmdline_keys(void)
{
	const struct cmdline_key *k;
	int unknown = 0;

	for (int i = 0; i < boot_cmdline.nparams; i++) {
		if (cmdline_key_find(boot_cmdline.params[i].key))
			continue;
		pr_warn("cmdline: unknown parameter '%s' ignored\n", boot_cmdline.params[i].key);
		unknown++;
	}
	if (!unknown)
		return;
	pr_info("cmdline: known parameters:\n");
	for (size_t n = 0; (k = cmdline_key_nth(n)); n++)
		pr_info("  %-12s %s\n", k->name, k->help);
}

CMDLINE_KEY(loglevel, "0..7: console log level; messages above it only go to dmesg");

static void set_loglevel(void)
{
	const char *level = boot_cmdline_get(loglevel);
	uint64_t v;

	if (level && (kstrtou64(level, &v) < 0 || v > 7))
		pr_err("cmdline: loglevel=%s is not 0..7; keeping 7\n", level);
	else if (level)
		printk_set_console_loglevel((int)v);
}

CMDLINE_KEY(run, "\"CMD; CMD; ...\": shell commands to run at boot, in order");

CMDLINE_KEY(init, "PATH: run PATH as pid 1 on the console; the kernel shell starts when it exits");

/*
 * Linux: kernel_init's run_init_process, with Linux's argv ({PATH}) and
 * environment (HOME=/ TERM=linux). Made by the boot thread before the
 * kernel shell, so it gets pid 1; not woken yet. A PATH that cannot run
 * is reported (Linux: "Requested init PATH failed") and the kernel shell
 * starts as without init=.
 */
static struct task_struct *init_process(void)
{
	const char *path = boot_cmdline_get(init);
	const char *argv[] = { path, NULL };
	const char *envp[] = { "HOME=/", "TERM=linux", NULL };
	struct task_struct *p;
	int err;

	if (!path)
		return NULL;
	p = call_usermodehelper_setup(path, argv, envp, &err);
	if (!p) {
		pid_restart_cycle();
		pr_err("init: requested init %s failed (error %d); starting the kernel shell\n",
		       path, err);
		return NULL;
	}
	pr_info("Run %s as init process\n", path);
	return p;
}

/* The kernel shell's thread: init= first (its parent, waiting on it as
 * the console's foreground program), then the command line's run=
 * script, then the interactive shell. */
static int shell_thread(void *init)
{
	const char *script = boot_cmdline_get(run);

	if (init) {
		int status = call_usermodehelper_wait(init);

		if (WIFEXITED(status))
			pr_info("init: pid 1 exited with status %d; the kernel shell takes over\n",
				WEXITSTATUS(status));
		else
			pr_info("init: pid 1 was killed by signal %d; the kernel shell takes "
				"over\n",
				WTERMSIG(status));
	}
	if (script)
		shell_autorun(script);
	shell_main();
}

void kmain(uint64_t boot_info_phys)
{
	const struct boot_info *bi = __va(boot_info_phys);
	struct task_struct *init, *shell;

	boot_info = bi;
	arch_early_console(); /* serial: from here on, errors are seen */
	check_boot_info(bi);
	arch_setup(bi); /* CPU tables, page tables, TSC */
	fbcon_boot_init(bi);
	print_banner();
	parse_cmdline(bi);
	check_cmdline_keys();	    /* warn about keys no file registered */
	set_loglevel();		    /* loglevel= */
	mm_init();		    /* after the command line: it reads cma= */
	sched_init();		    /* the run queue, before any task is made */
	clear_pages_init();	    /* clear_pages=, zero= */
	thp_init();		    /* thp=, the anonymous-folio migration hook */
	lazyfree_init();	    /* lazyfree=, reclaim of MADV_FREE'd folios */
	init_overcommit_reserves(); /* admin/user_reserve_kbytes from free memory */
	hugetlb_init();		    /* hugepagesz=, hugepages=, default_hugepagesz= */
	/* The initramfs into rootfs (/): its files need the page allocator. */
	shmem_init(); /* transparent_hugepage_tmpfs=, the root's huge= */
	populate_rootfs(bi->initrd_size ? __va(bi->initrd_phys) : NULL, bi->initrd_size);
	devtmpfs_init();  /* /dev: null, zero, full, random, urandom, tty, console */
	proc_root_init(); /* /proc: meminfo, vmstat, self/maps, ... */
	sysfs_init();	  /* /sys/kernel/mm/transparent_hugepage */
	acpi_init(bi);
	arch_late_setup();  /* keyboard and interrupts */
	smp_init();	    /* the other CPUs, after the boot CPU's APIC */
	cpu_dev_init();	    /* /sys/devices/system/cpu: the CPUs smp_init found */
	fbcon_boot_defer(); /* redraws after scrolling wait for a timer */
	pr_info("Boot complete in %llu ms; type 'help' for commands\n",
		(unsigned long long)(arch_uptime_ns() / 1000000));
	/* Linux: rest_init. The shell becomes a kernel thread, pid 1 (it
	 * reaps what it starts, as init does), or pid 2 after init=; the
	 * boot thread becomes the idle task, pid 0, and runs when nothing
	 * else can. */
	init = init_process();
	shell = kthread_create(shell_thread, init, "kshell");
	if (!shell)
		panic("no memory for the kernel shell's thread");
	if (init)
		set_new_task_parent(init, shell);
	wake_up_new_task(shell);
	cpu_idle();
}
