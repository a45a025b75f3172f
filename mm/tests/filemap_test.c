/*
 * The page cache (mm/filemap.c, mm/truncate.c) on a file of its own:
 * which folio orders a write makes (every order up to the PMD's, cut by
 * alignment, and order 0 only without large folios), reads of holes and
 * past the end, truncation zeroing a straddled folio and dropping the
 * cache's references, and a byte model of one file under random writes,
 * reads, truncations, punched holes, fallocates (fs/ramfs.c's) and
 * writes through a shared mapping of it, with msync, the mapping read
 * back too. Example: a 1.5 MiB write at 0
 * makes one order-8 and one order-7 folio.
 */
#include <fs.h>
#include <ktest.h>
#include <mman.h>
#include <pagemap.h>
#include <ramfs.h>
#include <slab.h>
#include <vm.h>
#include "mm_test_util.h"

#define P PAGE_SIZE

static struct ramfs_inode inode;
static unsigned long file_pages_at_start;

static int filemap_test_init(struct kunit *test)
{
	if (test_node0_get(test, 8192))
		return 0;
	memset(&inode, 0, sizeof(inode));
	inode.mode = S_IFREG | 0644;
	address_space_init(&inode.i_data, &inode, GFP_KERNEL);
	mapping_set_large_folios(&inode.i_data);
	inode.i_mapping = &inode.i_data;
	file_pages_at_start = NODE_DATA(0)->nr_file_pages;
	return 0;
}

/* Every case ends with the file emptied: no page left in the cache. */
static void filemap_test_exit(struct kunit *test)
{
	if (!NODE_DATA(0))
		return; /* skipped: no node 0 */
	ramfs_truncate(&inode);
	KUNIT_EXPECT_EQ(test, inode.i_data.nrpages, 0);
	KUNIT_EXPECT_TRUE(test, xa_empty(&inode.i_data.i_pages));
	KUNIT_EXPECT_EQ(test, NODE_DATA(0)->nr_file_pages, file_pages_at_start);
	xa_destroy(&inode.i_data.i_pages);
	test_node0_put(test);
}

/* A byte pattern that tells offsets apart: byte i of a file is pat(i). */
static char pat(uint64_t i, unsigned int seed)
{
	return (char)((i * 7 + (i >> 12) * 13 + seed) & 0xff);
}

static char *pattern_buf(size_t len, uint64_t from, unsigned int seed)
{
	char *buf = kmalloc(len, GFP_KERNEL);

	for (size_t i = 0; buf && i < len; i++)
		buf[i] = pat(from + i, seed);
	return buf;
}

static long write_at(uint64_t pos, const char *buf, size_t len)
{
	struct iov_iter iter;

	iov_iter_kvec(&iter, ITER_SOURCE, (void *)buf, len);
	return generic_perform_write(inode.i_mapping, &iter, pos);
}

static long read_at(uint64_t pos, char *buf, size_t len)
{
	struct iov_iter iter;

	iov_iter_kvec(&iter, ITER_DEST, buf, len);
	return filemap_read(inode.i_mapping, &pos, &iter);
}

/* Write @len pattern bytes at @pos; expect all of them written. */
static void write_pattern(struct kunit *test, uint64_t pos, size_t len, unsigned int seed)
{
	char *buf = pattern_buf(len, pos, seed);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_EXPECT_EQ(test, write_at(pos, buf, len), (long)len);
	kfree(buf);
}

/* The orders the file's folios have, as "order:count ..." ascending. */
static const char *orders_string(void)
{
	static char s[128];
	unsigned long counts[NR_PAGE_ORDERS];
	size_t n = 0;

	mapping_folio_orders(inode.i_mapping, counts);
	s[0] = '\0';
	for (int o = 0; o < NR_PAGE_ORDERS; o++)
		if (counts[o])
			n += (size_t)ksnprintf(s + n, sizeof(s) - n, "%s%d:%lu", n ? " " : "", o,
					       counts[o]);
	return s;
}

static void a_write_makes_the_largest_folios_its_size_and_alignment_allow(struct kunit *test)
{
	write_pattern(test, 0, 3 * 512 * 1024, 1); /* 1.5 MiB at 0 */
	KUNIT_EXPECT_STREQ(test, orders_string(), "7:1 8:1");
	KUNIT_EXPECT_EQ(test, inode.i_data.nrpages, 384);
	KUNIT_EXPECT_EQ(test, inode.size, 3 * 512 * 1024);
	ramfs_truncate(&inode);
	/* 64 KiB from page 3: page 3 alone (unaligned), 4..7, 8..15, then
	 * the 12 KiB left as 16..17 and 18. */
	write_pattern(test, 3 * P, 64 * 1024, 2);
	KUNIT_EXPECT_STREQ(test, orders_string(), "0:2 1:1 2:1 3:1");
	KUNIT_EXPECT_EQ(test, inode.i_data.nrpages, 16);
}

static void every_order_up_to_the_pmd_order_is_made(struct kunit *test)
{
	for (unsigned int order = 0; order <= MAX_PAGECACHE_ORDER; order++) {
		char want[16];
		struct folio *folio;

		ramfs_truncate(&inode);
		write_pattern(test, (P << order) * 3, P << order, order);
		ksnprintf(want, sizeof(want), "%u:1", order);
		KUNIT_EXPECT_STREQ(test, orders_string(), want);
		folio = filemap_get_folio(inode.i_mapping, (3ul << order) + (1ul << order) - 1);
		KUNIT_ASSERT_FALSE(test, IS_ERR(folio));
		KUNIT_EXPECT_EQ(test, folio->page.index, 3ul << order);
		KUNIT_EXPECT_TRUE(test, folio_test_uptodate(folio));
		KUNIT_EXPECT_FALSE(test, folio_test_locked(folio));
		/* the cache's reference per page, and ours */
		KUNIT_EXPECT_EQ(test, folio_ref_count(folio), (1 << order) + 1);
		folio_put(folio);
	}
}

static void without_large_folios_every_folio_is_order_0(struct kunit *test)
{
	mapping_set_folio_order_range(inode.i_mapping, 0, 0);
	write_pattern(test, 0, 40 * P + 5, 3);
	KUNIT_EXPECT_STREQ(test, orders_string(), "0:41");
}

static void a_min_order_mapping_rounds_folios_up(struct kunit *test)
{
	struct folio *folio;

	/* Linux's min order (a block size above the page size): every
	 * folio is at least order 2, aligned to it. */
	mapping_set_folio_order_range(inode.i_mapping, 2, MAX_PAGECACHE_ORDER);
	write_pattern(test, P + 10, 100, 4);
	KUNIT_EXPECT_STREQ(test, orders_string(), "2:1");
	folio = filemap_get_folio(inode.i_mapping, 1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(folio));
	KUNIT_EXPECT_EQ(test, folio->page.index, 0);
	folio_put(folio);
}

static void reads_see_writes_holes_read_as_zeros_and_stop_at_the_end(struct kunit *test)
{
	char buf[3 * P];

	write_pattern(test, 5 * P - 3, 6, 5); /* straddles pages 4 and 5 */
	write_pattern(test, 9 * P, 100, 6);   /* pages 6..8 stay holes */
	KUNIT_EXPECT_EQ(test, inode.size, 9 * P + 100);
	KUNIT_EXPECT_EQ(test, read_at(5 * P - 4, buf, 8), 8);
	KUNIT_EXPECT_EQ(test, buf[0], 0);
	for (int i = 1; i < 7; i++)
		KUNIT_EXPECT_EQ(test, buf[i], pat(5 * P - 4 + i, 5));
	KUNIT_EXPECT_EQ(test, buf[7], 0);
	memset(buf, 1, sizeof(buf));
	KUNIT_EXPECT_EQ(test, read_at(6 * P, buf, sizeof(buf)), (long)sizeof(buf));
	for (size_t i = 0; i < sizeof(buf); i++)
		if (buf[i]) {
			KUNIT_EXPECT_EQ(test, buf[i], 0);
			break;
		}
	KUNIT_EXPECT_EQ(test, read_at(9 * P + 90, buf, sizeof(buf)), 10);
	KUNIT_EXPECT_EQ(test, buf[9], pat(9 * P + 99, 6));
	KUNIT_EXPECT_EQ(test, read_at(9 * P + 100, buf, sizeof(buf)), 0);
	KUNIT_EXPECT_EQ(test, read_at(1ull << 40, buf, sizeof(buf)), 0);
	/* the holes took no page: pages 4, 5 and 9 only */
	KUNIT_EXPECT_EQ(test, inode.i_data.nrpages, 3);
}

static void an_overwrite_reuses_the_folios_in_place(struct kunit *test)
{
	struct folio *before, *after;
	char buf[8];

	write_pattern(test, 0, 16 * P, 7);
	before = filemap_get_folio(inode.i_mapping, 5);
	KUNIT_ASSERT_FALSE(test, IS_ERR(before));
	write_pattern(test, 5 * P + 1, 3 * P, 8);
	after = filemap_get_folio(inode.i_mapping, 5);
	KUNIT_EXPECT_TRUE(test, after == before);
	KUNIT_EXPECT_STREQ(test, orders_string(), "4:1");
	KUNIT_EXPECT_EQ(test, read_at(5 * P, buf, 2), 2);
	KUNIT_EXPECT_EQ(test, buf[0], pat(5 * P, 7));
	KUNIT_EXPECT_EQ(test, buf[1], pat(5 * P + 1, 8));
	folio_put(before);
	folio_put(after);
}

static void truncate_zeroes_a_straddled_folio_and_frees_whole_ones(struct kunit *test)
{
	struct folio *kept, *gone;
	char buf[16];

	write_pattern(test, 0, 32 * P, 9); /* one order-5 folio */
	write_pattern(test, 32 * P, P, 9);
	kept = filemap_get_folio(inode.i_mapping, 0);
	gone = filemap_get_folio(inode.i_mapping, 32);
	KUNIT_ASSERT_FALSE(test, IS_ERR(kept) || IS_ERR(gone));
	inode.size = 10000;
	truncate_inode_pages(inode.i_mapping, 10000);
	/* the cache let go of page 32's folio: only our reference is left */
	KUNIT_EXPECT_EQ(test, folio_ref_count(gone), 1);
	KUNIT_EXPECT_NULL(test, gone->page.mapping);
	KUNIT_EXPECT_EQ(test, folio_ref_count(kept), 33);
	KUNIT_EXPECT_EQ(test, inode.i_data.nrpages, 32);
	/* extending the file shows zeros where the old bytes were */
	write_pattern(test, 20000, 1, 10);
	KUNIT_EXPECT_EQ(test, read_at(9995, buf, 10), 10);
	KUNIT_EXPECT_EQ(test, buf[4], pat(9999, 9));
	KUNIT_EXPECT_EQ(test, buf[5], 0);
	KUNIT_EXPECT_EQ(test, buf[9], 0);
	folio_put(gone);
	folio_put(kept);
}

static void add_folio_refuses_overlaps_and_misalignment(struct kunit *test)
{
	struct folio *folio = folio_alloc(GFP_KERNEL, 2);

	KUNIT_ASSERT_NOT_NULL(test, folio);
	write_pattern(test, 6 * P, 1, 11);
	folio_set_locked(folio);
	KUNIT_EXPECT_EQ(test, filemap_add_folio(inode.i_mapping, folio, 2, GFP_KERNEL), -EINVAL);
	KUNIT_EXPECT_EQ(test, filemap_add_folio(inode.i_mapping, folio, 4, GFP_KERNEL), -EEXIST);
	KUNIT_EXPECT_EQ(test, folio_ref_count(folio), 1);
	KUNIT_EXPECT_EQ(test, filemap_add_folio(inode.i_mapping, folio, 8, GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, folio_ref_count(folio), 5);
	KUNIT_EXPECT_TRUE(test, xa_load(&inode.i_data.i_pages, 11) == folio);
	folio_unlock(folio);
	folio_put(folio);
	KUNIT_EXPECT_EQ(test, inode.i_data.nrpages, 5);
	KUNIT_EXPECT_TRUE(test, IS_ERR(filemap_get_folio(inode.i_mapping, 12)));
	KUNIT_EXPECT_EQ(test, PTR_ERR(filemap_get_folio(inode.i_mapping, 12)), -ENOENT);
}

/* --- a byte model of one file ------------------------------------------------- */
#define MODEL_SIZE (600 * 1024)
/* The host's run (ASan, UBSan) is the long one; the kernel's shows the
 * same code right in the kernel's own environment. */
#ifdef FOLIUM_HOST
#define MODEL_STEPS 300
#else
#define MODEL_STEPS 100
#endif

static uint64_t rng_state;

static uint64_t rnd(uint64_t bound)
{
	return ktest_rand(&rng_state) % bound;
}

/* A size skewed to small ones, with whole large folios now and then. */
static size_t rnd_len(void)
{
	switch (rnd(4)) {
	case 0:
		return 1 + rnd(100);
	case 1:
		return 1 + rnd(3 * P);
	case 2:
		return P << rnd(8);
	default:
		return 1 + rnd(MODEL_SIZE / 4);
	}
}

static unsigned long mapping_folio_count(void)
{
	unsigned long counts[NR_PAGE_ORDERS], n = 0;

	mapping_folio_orders(inode.i_mapping, counts);
	for (int o = 0; o < NR_PAGE_ORDERS; o++)
		n += counts[o];
	return n;
}

static bool model_matches(struct kunit *test, const char *model, uint64_t size, char *buf,
			  unsigned int step)
{
	long n = read_at(0, buf, MODEL_SIZE);
	uint64_t i = 0;

	if (n != (long)size) {
		kunit_fail(test, __FILE__, __LINE__, "step %u: read %ld bytes of a %llu-byte file",
			   step, n, (unsigned long long)size);
		return false;
	}
	while (i < size && buf[i] == model[i])
		i++;
	if (i < size) {
		kunit_fail(test, __FILE__, __LINE__,
			   "step %u: byte %llu is %#x, the model says %#x (folios %s)", step,
			   (unsigned long long)i, buf[i] & 0xff, model[i] & 0xff, orders_string());
		return false;
	}
	return true;
}

/* Where the model maps the file, shared, all MODEL_SIZE of it. */
#define MODEL_MAP 0x40000000ul

static const struct file_operations model_fops = { .mmap = shmem_mmap };

/* The mapping reads what read(2) reads (every page inside the file). */
static bool mapping_matches(struct kunit *test, const char *model, uint64_t size, char *buf,
			    unsigned int step)
{
	uint64_t i = 0;

	if (copy_from_user(buf, MODEL_MAP, size)) {
		kunit_fail(test, __FILE__, __LINE__, "step %u: the mapping faults inside the file",
			   step);
		return false;
	}
	while (i < size && buf[i] == model[i])
		i++;
	if (i < size)
		kunit_fail(test, __FILE__, __LINE__,
			   "step %u: mapped byte %llu is %#x, the model says %#x", step,
			   (unsigned long long)i, buf[i] & 0xff, model[i] & 0xff);
	return i == size;
}

static void random_writes_truncates_punches_and_fallocates_match_a_byte_model(struct kunit *test)
{
	char *model = kzalloc(MODEL_SIZE, GFP_KERNEL), *buf = kmalloc(MODEL_SIZE, GFP_KERNEL);
	struct mm_struct *prev = current_mm;
	struct test_mm t;
	struct file *file;
	uint64_t size = 0;
	bool made_large = false;

	KUNIT_ASSERT_TRUE(test, model && buf);
	test_mm_create(test, &t, 4 * MAX_ORDER_NR_PAGES);
	if (!t.mm)
		goto free;
	file = alloc_file(&inode, &model_fops, O_RDWR, FMODE_READ | FMODE_WRITE);
	KUNIT_ASSERT_NOT_NULL(test, file);
	switch_mm(t.mm);
	KUNIT_ASSERT_EQ(test,
			vm_mmap_file(t.mm, MODEL_MAP, MODEL_SIZE,
				     VM_READ | VM_WRITE | VM_SHARED | VM_MAYWRITE | VM_MAYSHARE,
				     file, 0),
			MODEL_MAP);
	rng_state = 0x9e3779b97f4a7c15ull;
	for (unsigned int step = 0; step < MODEL_STEPS; step++) {
		uint64_t pos = rnd(MODEL_SIZE), len = rnd_len();

		if (rnd(2)) /* aligned half the time, so large folios are made */
			pos = ALIGN_DOWN(pos, P << rnd(7));

		len = MIN(len, MODEL_SIZE - pos); /* MIN evaluates twice */

		switch (rnd(10)) {
		case 0: /* truncate: size, mappings past it, then cache */
			size = MIN(size, pos);
			ramfs_setsize(&inode, size);
			memset(model + size, 0, MODEL_SIZE - size);
			break;
		case 8: /* a write through the shared mapping, inside the file */
		case 9:
			len = pos < size ? MIN(len, size - pos) : 0;
			for (uint64_t i = 0; i < len; i++)
				buf[i] = model[pos + i] = pat(pos + i, step + 1000);
			KUNIT_EXPECT_EQ(test, copy_to_user(MODEL_MAP + pos, buf, len), 0);
			KUNIT_EXPECT_EQ(
				test, do_msync(t.mm, MODEL_MAP + ALIGN_DOWN(pos, P), len, MS_SYNC),
				0);
			break;
		case 1: /* a punched hole reads as zeros; the size stays */
			KUNIT_EXPECT_EQ(test,
					ramfs_fallocate(&inode,
							FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
							pos, len),
					0);
			memset(model + pos, 0, len);
			break;
		case 2: /* fallocate: zeros where nothing was, the size may grow */
			if (ramfs_fallocate(&inode, rnd(2) ? FALLOC_FL_KEEP_SIZE : 0, pos, len))
				goto out;
			if (inode.size > size)
				size = pos + len;
			break;
		default:
			for (uint64_t i = 0; i < len; i++)
				buf[i] = model[pos + i] = pat(pos + i, step);
			if (write_at(pos, buf, len) != (long)len)
				goto out;
			size = MAX(size, pos + len);
		}
		if (inode.size != size || !model_matches(test, model, size, buf, step) ||
		    !mapping_matches(test, model, size, buf, step))
			break;
		made_large |= mapping_folio_count() < inode.i_data.nrpages;
	}
out:
	KUNIT_EXPECT_EQ(test, inode.size, size);
	/* the steps made large folios, not only pages */
	KUNIT_EXPECT_TRUE(test, made_large);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, MODEL_MAP, MODEL_SIZE), 0);
	KUNIT_EXPECT_EQ(test, NODE_DATA(0)->nr_file_mapped, 0);
	switch_mm(prev);
	/* The file's last reference: the inode has no name, so it is
	 * emptied (evict), the exit's check then finds no page left. */
	fput(file);
	test_mm_destroy(test, &t);
free:
	kfree(model);
	kfree(buf);
}

static struct kunit_case filemap_test_cases[] = {
	KUNIT_CASE(a_write_makes_the_largest_folios_its_size_and_alignment_allow),
	KUNIT_CASE(every_order_up_to_the_pmd_order_is_made),
	KUNIT_CASE(without_large_folios_every_folio_is_order_0),
	KUNIT_CASE(a_min_order_mapping_rounds_folios_up),
	KUNIT_CASE(reads_see_writes_holes_read_as_zeros_and_stop_at_the_end),
	KUNIT_CASE(an_overwrite_reuses_the_folios_in_place),
	KUNIT_CASE(truncate_zeroes_a_straddled_folio_and_frees_whole_ones),
	KUNIT_CASE(add_folio_refuses_overlaps_and_misalignment),
	KUNIT_CASE(random_writes_truncates_punches_and_fallocates_match_a_byte_model),
	{},
};

static struct kunit_suite filemap_test_suite = {
	.name = "filemap",
	.init = filemap_test_init,
	.exit = filemap_test_exit,
	.test_cases = filemap_test_cases,
};
kunit_test_suite(filemap_test_suite);
