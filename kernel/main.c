/*
 * kmain: the boot sequence, in order. Each step may use only what the
 * steps above it set up: arch_setup() brings up the serial console (so
 * everything after can report), the kernel's own page tables and the
 * cycle counter; the framebuffer console needs those page tables;
 * mm_init turns memblock into the buddy allocator once cma= is known;
 * interrupts come last, when every handler they can reach exists.
 */
#include <arch.h>
#include <acpi.h>
#include <asm/page.h>
#include <fbcon.h>
#include <mm.h>
#include <shell.h>
#include <version.h>
#include <vm.h>

const struct boot_info *boot_info;
char boot_cmdline_text[BOOT_CMDLINE_MAX];

void kmain(uint64_t boot_info_phys);

/* Command-line keys the kernel understands; anything else gets a warning. */
static const char *const known_params[] = { "run", "loglevel", "cma", "memblock",
					    "thp", "clear_pages", "zero", "lazyfree" };

static void check_boot_info(const struct boot_info *bi)
{
	if (bi->magic != BOOT_INFO_MAGIC || bi->version != BOOT_INFO_VERSION ||
	    bi->size != sizeof(*bi))
		panic("kmain: boot_info magic %llx version %u size %u; expected "
		      "%llx version %u size %zu: loader and kernel do not match",
		      (unsigned long long)bi->magic, bi->version, bi->size,
		      BOOT_INFO_MAGIC, BOOT_INFO_VERSION, sizeof(*bi));
}

static void parse_cmdline(const struct boot_info *bi)
{
	static const char *const sources[] = { "defaults", "/folium/cmdline.txt",
					       "UEFI load options" };
	const char *level;
	uint64_t v;

	memcpy(boot_cmdline_text, bi->cmdline, BOOT_CMDLINE_MAX);
	boot_cmdline_text[BOOT_CMDLINE_MAX - 1] = '\0';
	pr_info("Command line (%s): %s\n",
		sources[bi->cmdline_source < 3 ? bi->cmdline_source : 0], boot_cmdline_text);
	if (cmdline_parse(&boot_cmdline, boot_cmdline_text) < 0)
		pr_err("cmdline: %s; using the parameters before it\n", boot_cmdline.error);
	for (int i = 0; i < boot_cmdline.nparams; i++) {
		bool known = false;

		for (size_t k = 0; k < ARRAY_SIZE(known_params); k++)
			known |= strcmp(boot_cmdline.params[i].key, known_params[k]) == 0;
		if (!known)
			pr_warn("cmdline: unknown parameter '%s' ignored\n",
				boot_cmdline.params[i].key);
	}
	level = cmdline_get(&boot_cmdline, "loglevel");
	if (level && (kstrtou64(level, &v) < 0 || v > 7))
		pr_err("cmdline: loglevel=%s is not 0..7; keeping 7\n", level);
	else if (level)
		printk_set_console_loglevel((int)v);
}

static void print_config(void)
{
	pr_info("Config: %s\n", CONFIG_SUMMARY);
}

void kmain(uint64_t boot_info_phys)
{
	const struct boot_info *bi = __va(boot_info_phys);
	const char *run;

	boot_info = bi;
	arch_early_console();
	check_boot_info(bi);
	arch_setup(bi);
	fbcon_boot_init(bi);
	pr_info("Folium %s on %s\n", FOLIUM_VERSION, arch_cpu_name());
	print_config();
	parse_cmdline(bi);
	mm_init();	/* after the command line: it reads cma= */
	clear_pages_init();
	thp_init();	/* thp=, the anonymous-folio migration hook */
	lazyfree_init();	/* lazyfree=, reclaim of MADV_FREE'd folios */
	acpi_init(bi);
	arch_late_setup();
	pr_info("Boot complete in %llu ms; type 'help' for commands\n",
		(unsigned long long)(arch_uptime_ns() / 1000000));
	run = cmdline_get(&boot_cmdline, "run");
	if (run)
		shell_autorun(run);
	shell_main();
}
