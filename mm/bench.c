/*
 * The `bench` shell command: one entry for every in-kernel benchmark, so
 * scripted runs (run="bench alloc; bench clear") name them the same way.
 * Each prints its own banner with the CPU and whether it is emulated.
 */
#include <bench.h>
#include <shell.h>

static int cmd_bench(int argc, char **argv)
{
	if (argc != 2)
		return CMD_USAGE;
	if (strcmp(argv[1], "alloc") == 0)
		return bench_page_alloc_command() ? CMD_ERROR : CMD_OK;
	if (strcmp(argv[1], "clear") == 0)
		return bench_clear_command();
	if (strcmp(argv[1], "madvise") == 0)
		return bench_madvise_command();
	return CMD_USAGE;
}
DEFINE_SHELL_COMMAND(bench, "bench alloc|clear|madvise",
		     "page allocator against a bitmap allocator; clear_pages and "
		     "folio_zero_user; MADV_FREE split vs batched (TSC cycles)");
