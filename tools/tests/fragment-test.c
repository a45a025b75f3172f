/*
 * Host tests of user/fragment.c's parts that need no kernel to fill: the
 * readers of /proc text (Linux 6.1's zoneinfo, pagetypeinfo, vmstat), the
 * plan (how much to fill, how many regions), the formats, the saved value
 * of each kind of control and its restore on SIGTERM, and a record with
 * an n/a row, printed to the file argv[2] for tools/benchrec to check
 * (tools/tests/fragment-test.sh builds and runs this; argv[1] is a
 * scratch folder). One "ok" or "FAIL" line per check, then
 * "fragment-test: N passed, N failed".
 */
#define main fragment_main
#include "../../user/fragment.c"
#undef main
#include <sys/wait.h>

static int passed, failed;

static void check(int cond, const char *what)
{
	printf("%s %s\n", cond ? "ok  " : "FAIL", what);
	cond ? passed++ : failed++;
}

/* A FILE over text (fmemopen of a copy: the readers may not write). */
static FILE *text_file(const char *text)
{
	return fmemopen((void *)text, strlen(text), "r");
}

/* Linux 6.1's zoneinfo of a 1 GiB guest, cut: DMA, DMA32 with its
 * per-CPU "high:" (not a watermark), an empty Normal zone (managed 0
 * caps it at 0). */
static const char linux_zoneinfo[] = "Node 0, zone      DMA\n"
				     "  per-node stats\n"
				     "      nr_inactive_anon 10\n"
				     "  pages free     3840\n"
				     "        boost    0\n"
				     "        min      148\n"
				     "        low      185\n"
				     "        high     222\n"
				     "        spanned  4095\n"
				     "        present  3998\n"
				     "        managed  3840\n"
				     "        cma      0\n"
				     "        protection: (0, 938, 938, 938, 938)\n"
				     "      nr_free_pages 3840\n"
				     "Node 0, zone    DMA32\n"
				     "  pages free     210000\n"
				     "        boost    0\n"
				     "        min      11264\n"
				     "        low      14080\n"
				     "        high     16896\n"
				     "        spanned  258048\n"
				     "        present  258048\n"
				     "        managed  240203\n"
				     "        cma      0\n"
				     "        protection: (0, 0, 0, 0, 0)\n"
				     "  pagesets\n"
				     "    cpu: 0\n"
				     "              count: 12\n"
				     "              high:  378\n"
				     "              batch: 63\n"
				     "Node 0, zone   Normal\n"
				     "  pages free     0\n"
				     "        min      0\n"
				     "        low      0\n"
				     "        high     0\n"
				     "        managed  0\n"
				     "        protection: (0, 0, 0, 0, 0)\n";

static void zoneinfo_reserve_is_watermark_plus_protection(void)
{
	FILE *f = text_file(linux_zoneinfo);

	/* DMA: min 148 + protection 938 (below managed 3840); DMA32: 11264. */
	check(zone_reserve_pages(f, "min") == 1086 + 11264, "zoneinfo: min + protection per zone");
	fclose(f);
	f = text_file(linux_zoneinfo);
	check(zone_reserve_pages(f, "high") == 222 + 938 + 16896,
	      "zoneinfo: high + protection per zone");
	fclose(f);
	f = text_file("Node 0, zone    DMA32\n        high     900\n        managed  500\n"
		      "        protection: (0, 0)\n");
	check(zone_reserve_pages(f, "high") == 500,
	      "zoneinfo: a zone's reserve is at most managed");
	fclose(f);
}

static void pageblock_order_and_counters_read_as_linux_prints_them(void)
{
	long v[NR_COUNTERS];
	FILE *f = text_file("Page block order: 9\nPages per block:  512\n\nFree pages count...\n");

	check(read_pageblock_order(f) == 9, "pagetypeinfo: Page block order");
	fclose(f);
	f = text_file("Node 0, zone DMA32\n");
	check(read_pageblock_order(f) == -1, "pagetypeinfo: no order line is -1");
	fclose(f);
	check(read_pageblock_order(NULL) == -1, "pagetypeinfo: no file is -1");
	f = text_file("nr_free_pages 1\nthp_fault_alloc 7\ncompact_stall 3\n"
		      "thp_fault_fallback 2\ncompact_daemon_wake 5\n");
	read_counters(f, v);
	fclose(f);
	check(v[THP_FAULT_ALLOC] == 7 && v[THP_FAULT_FALLBACK] == 2 && v[COMPACT_STALL] == 3 &&
		      v[COMPACT_DAEMON_WAKE] == 5,
	      "vmstat: the counters by name");
	check(v[COMPACT_SUCCESS] == -1 && v[PGMIGRATE_SUCCESS] == -1,
	      "vmstat: a missing one is -1");
}

static void plan_fills_above_the_reserve_in_2m_steps(void)
{
	/* 800 MiB above reserve and slack: 204800 pages, 512/521 of them data. */
	struct plan p = plan_fill((800ul << 10) + 100000 + SLACK_KIB, 100000, 0);

	check(p.data_pages == 201216 && p.data_pages % PAGES_2M == 0, "plan: data pages");
	check(p.tables == 3144 && p.burst_tables == 6288, "plan: tables in the fill and after");
	check(p.data_pages + p.tables + p.data_pages / PAGES_2M <= 204800,
	      "plan: data, tables and the fill's own tables fit");
	p = plan_fill(1ul << 20, 0, 64ul << 20);
	check(p.data_pages == 16384, "plan: --bytes caps the fill");
	p = plan_fill(20000, 10000, 0);
	check(p.data_pages == 0 && p.tables == 0, "plan: nothing above the reserve and slack");
	check(plan_regions(420ul << 10, 36ul << 10, 0) == 184, "regions: free above reserve / 2M");
	check(plan_regions(420ul << 10, 36ul << 10, 32) == 32, "regions: at most max");
	check(plan_regions(1000, 36ul << 10, 0) == 0, "regions: none below the reserve");
}

static void values_format_as_the_record_says(void)
{
	char b[32];

	check(permille(15, 145) == 103 && permille(1, 3) == 333, "success: tenths, rounded");
	check(permille(-1, 10) == -1 && permille(1, 0) == -1, "success: unknown is -1");
	check(!strcmp(fmt_value(b, sizeof(b), 1000, 1), "100.0"), "format: tenths");
	check(!strcmp(fmt_value(b, sizeof(b), 1643401, 3), "1643.401"), "format: us as ms");
	check(!strcmp(fmt_value(b, sizeof(b), -1, 3), "-1"), "format: -1 stays -1");
}

/* A control's saved value: the bracketed choice, or a sysctl's line. */
static void controls_save_choices_and_values(const char *dir)
{
	char choice[256], value[256];
	FILE *f;

	snprintf(choice, sizeof(choice), "%s/defrag", dir);
	snprintf(value, sizeof(value), "%s/proactiveness", dir);
	f = fopen(choice, "w");
	fputs("always defer defer+madvise [madvise] never\n", f);
	fclose(f);
	f = fopen(value, "w");
	fputs("20\n", f);
	fclose(f);
	nctls = 0;
	check(add_ctl(choice, CTL_OTHER) == 0 && !strcmp(ctls[0].saved, "madvise"),
	      "control: a choice is saved bracket-free");
	check(add_ctl(value, CTL_OTHER) == 0 && !strcmp(ctls[1].saved, "20"),
	      "control: a sysctl's value is saved");
	check(set_ctl("/nonexistent/defrag", "madvise") == -1 && nctls == 2,
	      "control: a missing one is not added");
	check(nr_thp_ctls() == 0, "control: other controls are no THP sizes");
	nctls = 0;
	changed = 0;
}

/* SIGTERM in the middle of a run puts a changed control back: the child
 * sets it, is ended by the signal, and the file holds its old value. */
static void sigterm_restores_a_changed_control(const char *dir)
{
	char path[256], buf[16] = "";
	int status = 0;
	pid_t pid;
	FILE *f;

	snprintf(path, sizeof(path), "%s/boost", dir);
	f = fopen(path, "w");
	fputs("15\n", f);
	fclose(f);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		signal(SIGTERM, on_signal);
		if (set_ctl(path, "0") == 0)
			raise(SIGTERM);
		_exit(1);
	}
	waitpid(pid, &status, 0);
	f = fopen(path, "r");
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 128 + SIGTERM,
	      "SIGTERM: the program ends with 128 + SIGTERM");
	check(!strcmp(buf, "15\n"), "SIGTERM: the changed control holds its old value");
}

/* A record as a run on a kernel without MADV_HUGEPAGE would print it. */
static void print_sample_record(const char *path)
{
	static struct attempt res[NR_MODES][MAX_RUNS];
	struct setting st = { .runs = 3, .pageblock_order = 7, .fill_kib = 900 << 10 };
	int na[NR_MODES] = { 0, 1 };
	struct utsname u = { .sysname = "Folium", .release = "6.1.0-folium" };

	strcpy(st.defrag, "madvise");
	strcpy(st.proactive, "none");
	strcpy(st.boost, "none");
	for (int run = 0; run < 3; run++) {
		res[NOCOMPACT][run] = (struct attempt){ .regions = 200, .thp = 10 + run };
		res[NOCOMPACT][run].success_pm = permille(res[NOCOMPACT][run].thp, 200);
		res[NOCOMPACT][run].time_us = 1000 * (run + 1);
		mark_na(&res[COMPACT][run]);
	}
	res[NOCOMPACT][1].lost = 16;	      /* the record shows the worst run's */
	res[NOCOMPACT][0].anon_huge_kib = -1; /* unknown in one run: the others' */
	res[NOCOMPACT][1].anon_huge_kib = 4096;
	res[NOCOMPACT][2].anon_huge_kib = 8192;
	if (!freopen(path, "w", stdout))
		die("cannot write %s", path);
	print_record(res, na, &st, &u);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: fragment-test TMPDIR RECORD\n");
		return 2;
	}
	zoneinfo_reserve_is_watermark_plus_protection();
	pageblock_order_and_counters_read_as_linux_prints_them();
	plan_fills_above_the_reserve_in_2m_steps();
	values_format_as_the_record_says();
	controls_save_choices_and_values(argv[1]);
	sigterm_restores_a_changed_control(argv[1]);
	printf("fragment-test: %d passed, %d failed\n", passed, failed);
	fflush(stdout);
	print_sample_record(argv[2]);
	return failed != 0;
}
