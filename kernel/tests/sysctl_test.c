/* The /proc/sys handlers as Linux's proc_dointvec family parses and
 * prints (kernel/sysctl.c), and the registered tables. */
#include <errno.h>
#include <ktest.h>
#include <sysctl.h>

static int one_int, two_ints[2];
static unsigned int one_uint;
static unsigned long one_ulong;
static const unsigned long ulong_min = 10, ulong_max = 1000;

static const struct ctl_table int_entry = { .procname = "i",
					    .data = &one_int,
					    .maxlen = sizeof(int),
					    .mode = 0644,
					    .proc_handler = proc_dointvec };
static const struct ctl_table minmax_entry = { .procname = "m",
					       .data = &one_int,
					       .maxlen = sizeof(int),
					       .mode = 0644,
					       .proc_handler = proc_dointvec_minmax,
					       .extra1 = SYSCTL_ZERO,
					       .extra2 = SYSCTL_ONE_HUNDRED };
static const struct ctl_table vec_entry = { .procname = "v",
					    .data = two_ints,
					    .maxlen = sizeof(two_ints),
					    .mode = 0644,
					    .proc_handler = proc_dointvec };
static const struct ctl_table uint_entry = { .procname = "u",
					     .data = &one_uint,
					     .maxlen = sizeof(unsigned int),
					     .mode = 0644,
					     .proc_handler = proc_douintvec_minmax };
static const struct ctl_table ulong_entry = { .procname = "l",
					      .data = &one_ulong,
					      .maxlen = sizeof(unsigned long),
					      .mode = 0644,
					      .proc_handler = proc_doulongvec_minmax,
					      .extra1 = &ulong_min,
					      .extra2 = &ulong_max };

static char buf[64];

/* Write text at offset pos. Return: the handler's value; *used: bytes
 * it took. */
static int write_at(const struct ctl_table *t, const char *text, uint64_t pos, size_t *used)
{
	uint64_t ppos = pos;

	ksnprintf(buf, sizeof(buf), "%s", text);
	*used = strlen(text);
	return t->proc_handler(t, 1, buf, used, &ppos);
}

static int write_str(const struct ctl_table *t, const char *text, size_t *used)
{
	return write_at(t, text, 0, used);
}

/* Read from offset pos into buf (NUL-terminated); return the length. */
static long read_at(const struct ctl_table *t, uint64_t pos)
{
	size_t len = sizeof(buf) - 1;
	uint64_t ppos = pos;
	int err = t->proc_handler(t, 0, buf, &len, &ppos);

	if (err)
		return err;
	buf[len] = '\0';
	return (long)len;
}

static void dointvec_reads_and_writes_one_int(struct kunit *test)
{
	size_t used;

	KUNIT_EXPECT_EQ(test, write_str(&int_entry, "42\n", &used), 0);
	KUNIT_EXPECT_EQ(test, used, 3);
	KUNIT_EXPECT_EQ(test, one_int, 42);
	KUNIT_EXPECT_EQ(test, read_at(&int_entry, 0), 3);
	KUNIT_EXPECT_STREQ(test, buf, "42\n");
	KUNIT_EXPECT_EQ(test, read_at(&int_entry, 3), 0); /* nothing past offset 0 */
	KUNIT_EXPECT_EQ(test, write_str(&int_entry, "  -7", &used), 0);
	KUNIT_EXPECT_EQ(test, one_int, -7);
	KUNIT_EXPECT_EQ(test, read_at(&int_entry, 0), 3);
	KUNIT_EXPECT_STREQ(test, buf, "-7\n");
	/* strtoul with base 0, as Linux's proc_get_long */
	KUNIT_EXPECT_EQ(test, write_str(&int_entry, "0x10", &used), 0);
	KUNIT_EXPECT_EQ(test, one_int, 16);
	KUNIT_EXPECT_EQ(test, write_str(&int_entry, "010", &used), 0);
	KUNIT_EXPECT_EQ(test, one_int, 8);
}

static void dointvec_refuses_text_and_overflow_and_keeps_the_value(struct kunit *test)
{
	size_t used;

	one_int = 5;
	KUNIT_EXPECT_EQ(test, write_str(&int_entry, "x", &used), -EINVAL);
	KUNIT_EXPECT_EQ(test, write_str(&int_entry, "5x", &used), -EINVAL);
	KUNIT_EXPECT_EQ(test, write_str(&int_entry, "", &used), 0); /* nothing written */
	KUNIT_EXPECT_EQ(test, write_str(&int_entry, "  \n", &used), -EINVAL);
	KUNIT_EXPECT_EQ(test, write_str(&int_entry, "2147483648", &used), -EINVAL);
	KUNIT_EXPECT_EQ(test, write_str(&int_entry, "99999999999999999999999", &used), -EINVAL);
	KUNIT_EXPECT_EQ(test, one_int, 5);
	KUNIT_EXPECT_EQ(test, write_str(&int_entry, "-2147483648", &used), 0);
	KUNIT_EXPECT_EQ(test, one_int, (int)0x80000000u);
}

/* One int: "5 6" takes the 5 and the blank after it, and leaves the 6
 * (a short write); a write at offset 3 is ignored whole. */
static void dointvec_leaves_the_rest_and_ignores_later_offsets(struct kunit *test)
{
	size_t used;

	KUNIT_EXPECT_EQ(test, write_str(&int_entry, "5 6", &used), 0);
	KUNIT_EXPECT_EQ(test, used, 2);
	KUNIT_EXPECT_EQ(test, one_int, 5);
	KUNIT_EXPECT_EQ(test, write_at(&int_entry, "9", 3, &used), 0);
	KUNIT_EXPECT_EQ(test, used, 1);
	KUNIT_EXPECT_EQ(test, one_int, 5);
}

static void dointvec_vector_is_tab_separated(struct kunit *test)
{
	size_t used;

	KUNIT_EXPECT_EQ(test, write_str(&vec_entry, "3\t4\n", &used), 0);
	KUNIT_EXPECT_EQ(test, two_ints[0], 3);
	KUNIT_EXPECT_EQ(test, two_ints[1], 4);
	KUNIT_EXPECT_EQ(test, read_at(&vec_entry, 0), 4);
	KUNIT_EXPECT_STREQ(test, buf, "3\t4\n");
}

static void minmax_refuses_out_of_range(struct kunit *test)
{
	size_t used;

	KUNIT_EXPECT_EQ(test, write_str(&minmax_entry, "100", &used), 0);
	KUNIT_EXPECT_EQ(test, one_int, 100);
	KUNIT_EXPECT_EQ(test, write_str(&minmax_entry, "101", &used), -EINVAL);
	KUNIT_EXPECT_EQ(test, write_str(&minmax_entry, "-1", &used), -EINVAL);
	KUNIT_EXPECT_EQ(test, one_int, 100);
	KUNIT_EXPECT_EQ(test, write_str(&minmax_entry, "0", &used), 0);
	KUNIT_EXPECT_EQ(test, one_int, 0);
}

static void unsigned_handlers_refuse_signs_and_bounds(struct kunit *test)
{
	size_t used;

	KUNIT_EXPECT_EQ(test, write_str(&uint_entry, "4294967295", &used), 0);
	KUNIT_EXPECT_EQ(test, one_uint, 0xffffffffu);
	KUNIT_EXPECT_EQ(test, write_str(&uint_entry, "4294967296", &used), -EINVAL);
	KUNIT_EXPECT_EQ(test, write_str(&uint_entry, "-1", &used), -EINVAL);
	KUNIT_EXPECT_EQ(test, write_str(&ulong_entry, "10", &used), 0);
	KUNIT_EXPECT_EQ(test, one_ulong, 10);
	KUNIT_EXPECT_EQ(test, write_str(&ulong_entry, "9", &used), -EINVAL);
	KUNIT_EXPECT_EQ(test, write_str(&ulong_entry, "1001", &used), -EINVAL);
	KUNIT_EXPECT_EQ(test, write_str(&ulong_entry, "-10", &used), -EINVAL);
	KUNIT_EXPECT_EQ(test, one_ulong, 10);
	KUNIT_EXPECT_EQ(test, read_at(&ulong_entry, 0), 3);
	KUNIT_EXPECT_STREQ(test, buf, "10\n");
}

/* A short read gets what fits of the text. */
static void read_is_cut_to_the_buffer(struct kunit *test)
{
	size_t len = 2;
	uint64_t pos = 0;

	one_int = 12345;
	KUNIT_EXPECT_EQ(test, int_entry.proc_handler(&int_entry, 0, buf, &len, &pos), 0);
	KUNIT_EXPECT_EQ(test, len, 2);
	KUNIT_EXPECT_EQ(test, pos, 2);
	KUNIT_EXPECT_EQ(test, memcmp(buf, "12", 2), 0);
}

/* The mm's tables are registered: each entry once, with a handler. */
static void vm_tables_are_registered_once(struct kunit *test)
{
	const struct ctl_table_header *h;
	size_t entries = 0;

	for (size_t n = 0; (h = sysctl_table_nth(n)); n++)
		for (size_t i = 0; i < h->size; i++, entries++) {
			KUNIT_EXPECT_NOT_NULL(test, h->table[i].proc_handler);
			KUNIT_EXPECT_TRUE(test, sysctl_find(h->path, h->table[i].procname) ==
							&h->table[i]);
		}
	KUNIT_EXPECT_GE(test, entries, 3);
	KUNIT_EXPECT_NOT_NULL(test, sysctl_find("vm", "extfrag_threshold"));
	KUNIT_EXPECT_NOT_NULL(test, sysctl_find("vm", "mmap_min_addr"));
	KUNIT_EXPECT_NULL(test, sysctl_find("vm", "no_such_file"));
	KUNIT_EXPECT_NULL(test, sysctl_find("kernel", "extfrag_threshold"));
}

/* Write text to vm/name through its handler. */
static int write_vm(const char *name, const char *text)
{
	const struct ctl_table *t = sysctl_find("vm", name);
	size_t used;

	return t ? write_str(t, text, &used) : -ENOENT;
}

/* The vm entries' bounds and modes as Linux's tables have them. */
static void vm_entries_have_linux_bounds_and_modes(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sysctl_find("vm", "drop_caches")->mode, 0200);
	KUNIT_EXPECT_EQ(test, write_vm("drop_caches", "0"), -EINVAL);
	KUNIT_EXPECT_EQ(test, write_vm("drop_caches", "5"), -EINVAL);
	KUNIT_EXPECT_EQ(test, write_vm("drop_caches", "3\n"), 0);
	KUNIT_EXPECT_EQ(test, write_vm("compaction_proactiveness", "101"), -EINVAL);
	KUNIT_EXPECT_EQ(test, write_vm("compaction_proactiveness", "20"), 0);
	KUNIT_EXPECT_EQ(test, write_vm("compact_unevictable_allowed", "2"), -EINVAL);
	KUNIT_EXPECT_EQ(test, write_vm("compact_unevictable_allowed", "1"), 0);
	KUNIT_EXPECT_EQ(test, write_vm("watermark_boost_factor", "-1"), -EINVAL);
	KUNIT_EXPECT_EQ(test, write_vm("watermark_boost_factor", "15000"), 0);
	KUNIT_EXPECT_EQ(test, write_vm("max_map_count", "-1"), -EINVAL);
	KUNIT_EXPECT_EQ(test, write_vm("extfrag_threshold", "1001"), -EINVAL);
	KUNIT_EXPECT_EQ(test, sysctl_find("vm", "compact_memory")->mode, 0200);
	KUNIT_EXPECT_EQ(test, sysctl_find("vm", "max_map_count")->mode, 0644);
}

static struct kunit_case sysctl_cases[] = {
	KUNIT_CASE(dointvec_reads_and_writes_one_int),
	KUNIT_CASE(dointvec_refuses_text_and_overflow_and_keeps_the_value),
	KUNIT_CASE(dointvec_leaves_the_rest_and_ignores_later_offsets),
	KUNIT_CASE(dointvec_vector_is_tab_separated),
	KUNIT_CASE(minmax_refuses_out_of_range),
	KUNIT_CASE(unsigned_handlers_refuse_signs_and_bounds),
	KUNIT_CASE(read_is_cut_to_the_buffer),
	KUNIT_CASE(vm_tables_are_registered_once),
	KUNIT_CASE(vm_entries_have_linux_bounds_and_modes),
	{},
};

static struct kunit_suite sysctl_suite = {
	.name = "sysctl",
	.test_cases = sysctl_cases,
};
kunit_test_suite(sysctl_suite);
