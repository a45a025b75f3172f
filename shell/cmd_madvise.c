/*
 * MADV_FREE from the shell: `madvise` on the shell's address space,
 * `lazyfree` to pick the batched (Linux now) or split (before the
 * batching change) implementation, and `reclaim` to run lazyfree reclaim
 * on node 0 now and say what it did.
 */
#include <shell.h>
#include <vm.h>

static int cmd_lazyfree(int argc, char **argv)
{
	if (argc > 2 || (argc == 2 && lazyfree_mode_parse(argv[1], &lazyfree_mode)))
		return CMD_USAGE;
	kprintf("lazyfree: %s\n", lazyfree_mode_name(lazyfree_mode));
	return CMD_OK;
}
DEFINE_SHELL_COMMAND(lazyfree, "lazyfree [split|batched]",
		     "how MADV_FREE treats large folios: batched (Linux now) or split");

static int cmd_madvise(int argc, char **argv)
{
	uint64_t addr, len;
	struct mm_struct *mm;
	int advice, err;

	if (argc != 4 || kstrtou64(argv[1], &addr) || kparse_size(argv[2], &len))
		return CMD_USAGE;
	if (strcmp(argv[3], "free") == 0)
		advice = MADV_FREE;
	else if (strcmp(argv[3], "dontneed") == 0)
		advice = MADV_DONTNEED;
	else
		return CMD_USAGE;
	mm = shell_mm();
	if (!mm)
		return CMD_ERROR;
	err = do_madvise(mm, addr, len, advice);
	if (err)
		kprintf("madvise: %s\n", err == -EINVAL ? "ADDR must be page-aligned"
							: "part of the range has no mapping");
	return err ? CMD_ERROR : CMD_OK;
}
DEFINE_SHELL_COMMAND(madvise, "madvise ADDR LEN free|dontneed",
		     "MADV_FREE or MADV_DONTNEED on the shell's address space");

static int cmd_reclaim(int argc, char **argv)
{
	struct pglist_data *pgdat = NODE_DATA(0);
	struct lazyfree_reclaim_stat stat;
	uint64_t pages = ~0ull;

	if (argc > 2 || (argc == 2 && kstrtou64(argv[1], &pages)))
		return CMD_USAGE;
	if (!pgdat) {
		kprintf("reclaim: the page allocator is not set up\n");
		return CMD_ERROR;
	}
	reclaim_lazyfree_stat(pgdat, pages, &stat);
	kprintf("reclaim: scanned %lu freed %lu reactivated %lu second-chance %lu pages\n",
		stat.scanned, stat.freed, stat.reactivated, stat.second_chance);
	kprintf("lru: anon %lu folios, lazyfree %lu folios\n", pgdat->nr_lru_anon,
		pgdat->nr_lru_lazyfree);
	return CMD_OK;
}
DEFINE_SHELL_COMMAND(reclaim, "reclaim [PAGES]",
		     "free clean lazyfree (MADV_FREE) folios of node 0, oldest first");
