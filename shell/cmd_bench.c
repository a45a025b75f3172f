/*
 * The `bench` shell command: one entry for every in-kernel benchmark, so
 * scripted runs (run="bench alloc; bench clear") name them the same way.
 * `--quick` shrinks every workload to a smoke run of seconds, for tests
 * of the tooling; its numbers are not worth reading.
 */
#include <bench.h>
#include <shell.h>

struct bench_entry {
	const char *name;
	int (*run)(bool quick); /* Return: 0 or -1 */
};

/* One benchmark a line (clang-format would pair them). */
/* clang-format off */
static const struct bench_entry benches[] = {
	{ "alloc", bench_page_alloc_command },
	{ "clear", bench_clear_command },
	{ "madvise", bench_madvise_command },
	{ "fork", bench_fork_command },
	{ "pageblock", bench_pageblock_command },
	{ "fragment", bench_fragment_command },
};
/* clang-format on */

static int cmd_bench(int argc, char **argv)
{
	bool quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
	bool all, found = false;
	const char *which;
	int ret = 0;

	if (argc != (quick ? 3 : 2))
		return CMD_USAGE;
	which = argv[argc - 1];
	all = strcmp(which, "all") == 0;
	for (unsigned int i = 0; i < ARRAY_SIZE(benches); i++) {
		if (!all && strcmp(which, benches[i].name) != 0)
			continue;
		found = true;
		if (console_interrupted()) {
			kprintf("bench: interrupted before %s\n", benches[i].name);
			return CMD_ERROR;
		}
		if (all)
			kprintf("\n");
		if (benches[i].run(quick))
			ret = -1;
	}
	if (!found) {
		kprintf("bench: no benchmark '%s'\n", which);
		return CMD_USAGE;
	}
	return ret ? CMD_ERROR : CMD_OK;
}
DEFINE_SHELL_COMMAND(bench, "bench [--quick] alloc|clear|madvise|fork|pageblock|fragment|all",
		     "page allocator against a bitmap allocator; clear_pages and "
		     "folio_zero_user; MADV_FREE split vs batched; fork, exit, reuse, copy and "
		     "munmap batched vs per-page; pageblock order under a "
		     "mixed workload; 2 MiB allocations without and with compaction after a "
		     "fragmenting fill; all of them. Prints tables and @bench records.");
