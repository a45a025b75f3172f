/*
 * /sys, much simplified (Linux: fs/sysfs/file.c over kernfs, with
 * kobject attributes): each file is a ramfs inode whose i_fop is
 * sysfs_file_fops and whose i_private names a kobj_attribute and its
 * instance. Open prints show's value into a seq_file; a write passes the
 * bytes, NUL-terminated, to store (Linux: sysfs_kf_write, at most a page;
 * a longer write is -E2BIG). Example: echo madvise >
 * /sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled calls
 * thpsize_enabled_store("madvise\n", 8, order 4), which returns 8.
 */
#include <hugetlb.h>
#include <cpumask.h>
#include <seq_file.h>
#include <shmem_fs.h>
#include <slab.h>
#include <vm.h>

struct sysfs_node {
	const struct kobj_attribute *attr;
	void *priv;
};

static int sysfs_open(struct ramfs_inode *inode, struct file *file)
{
	const struct sysfs_node *node = inode->i_private;

	return single_open(file, node->attr->show, node->priv);
}

int sysfs_show_to_console(const struct ramfs_inode *inode)
{
	const struct sysfs_node *node = inode->i_private;

	return seq_show_to_console(node->attr->show, node->priv);
}

/* Linux: kernfs_fop_write_iter → sysfs_kf_write. */
static long sysfs_write(struct file *file, unsigned long ubuf, size_t count, uint64_t *pos)
{
	const struct sysfs_node *node = file->f_inode->i_private;
	char *buf;
	long ret;

	if (!node->attr->store)
		return -EACCES; /* Linux: -EIO (sysfs_kf_write without a store); <errno.h> has no
				   EIO */
	if (count > PAGE_SIZE)
		return -E2BIG;
	buf = kmalloc(count + 1, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	if (copy_from_user(buf, ubuf, count)) {
		kfree(buf);
		return -EFAULT;
	}
	buf[count] = '\0';
	ret = node->attr->store(buf, count, node->priv);
	kfree(buf);
	if (ret > 0)
		*pos += (uint64_t)ret;
	return ret;
}

const struct file_operations sysfs_file_fops = {
	.open = sysfs_open,
	.read = seq_read,
	.write = sysfs_write,
	.llseek = seq_lseek,
	.release = single_release,
};

int sysfs_create_file(const char *path, const struct kobj_attribute *attr, void *priv)
{
	struct sysfs_node *node = kzalloc(sizeof(*node), GFP_KERNEL);
	struct ramfs_inode *inode;
	int err;

	if (!node)
		return -ENOMEM;
	err = ramfs_create(&rootfs, path, S_IFREG | (attr->store ? 0644 : 0444), NULL, 0, &inode);
	if (err)
		return err;
	*node = (struct sysfs_node){ attr, priv };
	inode->i_fop = &sysfs_file_fops;
	inode->i_private = node;
	return 0;
}

#define THP_DIR "/sys/kernel/mm/transparent_hugepage"

/* hugepages-<size>kB/{enabled,stats/...} of one order (Linux:
 * thpsize_create). */
static int thpsize_create(unsigned int order)
{
	char dir[96], path[160], name[24];
	int err;

	ksnprintf(dir, sizeof(dir), THP_DIR "/%s", thpsize_dir_name(order, name, sizeof(name)));
	err = ramfs_mkdir(&rootfs, dir, S_IFDIR | 0755, NULL);
	ksnprintf(path, sizeof(path), "%s/enabled", dir);
	err = err ?: sysfs_create_file(path, &thpsize_enabled_attr, (void *)(uintptr_t)order);
	ksnprintf(path, sizeof(path), "%s/shmem_enabled", dir);
	err = err ?: sysfs_create_file(path, &thpsize_shmem_enabled_attr, (void *)(uintptr_t)order);
	ksnprintf(path, sizeof(path), "%s/stats", dir);
	err = err ?: ramfs_mkdir(&rootfs, path, S_IFDIR | 0755, NULL);
	for (unsigned int i = 0; !err && i < nr_thp_stat_names; i++) {
		ksnprintf(path, sizeof(path), "%s/stats/%s", dir, thp_stat_names[i]);
		err = sysfs_create_file(path, &thpsize_stat_attr, THP_STAT_PRIV(order, i));
	}
	return err;
}

/*
 * Folium's own switches beside Linux's files, each the per-page (0) or
 * batched (1, the default) form of a path Linux batches for large folios,
 * so a program can time both in one boot, and the whole-folio copy on
 * write (wp_copy_folio, off by default): docs/ARCHITECTURE.md.
 */
static const struct {
	const char *path;
	bool *knob;
} folium_knobs[] = {
	{ THP_DIR "/folium_fork_copy_batched", &fork_copy_batched },
	{ THP_DIR "/folium_zap_batched", &zap_batched },
	{ THP_DIR "/folium_wp_reuse_batched", &wp_reuse_batched },
	{ THP_DIR "/folium_wp_copy_folio", &wp_copy_folio },
	{ THP_DIR "/folium_mprotect_batched", &mprotect_batched },
	{ THP_DIR "/folium_mremap_batched", &mremap_batched },
};

/* Linux: hugepage_init_sysfs. Without CONFIG_TRANSPARENT_HUGEPAGE there
 * is no transparent_hugepage directory, as in Linux. */
static int thp_sysfs_init(void)
{
	int err;

	if (!CONFIG_TRANSPARENT_HUGEPAGE)
		return 0;
	err = ramfs_mkdir(&rootfs, THP_DIR, S_IFDIR | 0755, NULL);
	err = err ?: sysfs_create_file(THP_DIR "/enabled", &thp_enabled_attr, NULL);
	err = err ?: sysfs_create_file(THP_DIR "/shmem_enabled", &shmem_enabled_attr, NULL);
	err = err ?: sysfs_create_file(THP_DIR "/defrag", &thp_defrag_attr, NULL);
	err = err ?: sysfs_create_file(THP_DIR "/hpage_pmd_size", &hpage_pmd_size_attr, NULL);
	for (unsigned int i = 0; !err && i < ARRAY_SIZE(folium_knobs); i++)
		err = sysfs_create_file(folium_knobs[i].path, &bool_knob_attr,
					folium_knobs[i].knob);
	for (unsigned int order = 1; !err && order <= HPAGE_PMD_ORDER; order++)
		if (THP_ORDERS_ALL & (1ul << order))
			err = thpsize_create(order);
	return err;
}

#define HUGEPAGES_DIR "/sys/kernel/mm/hugepages"

/* hugepages/hugepages-<N>kB/ per pool (Linux: hugetlb_sysfs_add_hstate
 * with hstate_attrs; nr_hugepages_mempolicy is nr_hugepages on one node). */
static int hugetlb_sysfs_init(void)
{
	static const struct {
		const char *name;
		const struct kobj_attribute *attr;
	} files[] = {
		{ "nr_hugepages", &hugetlb_nr_hugepages_attr },
		{ "nr_hugepages_mempolicy", &hugetlb_nr_hugepages_attr },
		{ "nr_overcommit_hugepages", &hugetlb_nr_overcommit_hugepages_attr },
		{ "free_hugepages", &hugetlb_free_hugepages_attr },
		{ "resv_hugepages", &hugetlb_resv_hugepages_attr },
		{ "surplus_hugepages", &hugetlb_surplus_hugepages_attr },
	};
	int err = ramfs_mkdir(&rootfs, HUGEPAGES_DIR, S_IFDIR | 0755, NULL);

	for (unsigned int i = 0; !err && i < hugetlb_max_hstate; i++) {
		char dir[96], path[160];

		ksnprintf(dir, sizeof(dir), HUGEPAGES_DIR "/hugepages-%lukB",
			  (unsigned long)(huge_page_size(&hstates[i]) / KIB));
		err = ramfs_mkdir(&rootfs, dir, S_IFDIR | 0755, NULL);
		for (unsigned int f = 0; !err && f < ARRAY_SIZE(files); f++) {
			ksnprintf(path, sizeof(path), "%s/%s", dir, files[f].name);
			err = sysfs_create_file(path, files[f].attr, &hstates[i]);
		}
	}
	return err;
}

/* The CPU masks of /sys/devices/system/cpu (Linux: drivers/base/cpu.c's
 * cpu_attrs), read when shown: possible, present, online, offline
 * (possible and not online) as lists ("0-3"), kernel_max as NR_CPUS - 1.
 * priv is which. */
enum cpu_list {
	CPU_POSSIBLE,
	CPU_PRESENT,
	CPU_ONLINE,
	CPU_OFFLINE,
	CPU_KERNEL_MAX
};

static int cpu_list_show(struct seq_file *m, void *priv)
{
	struct cpumask offline;
	char buf[256];

	switch ((enum cpu_list)(uintptr_t)priv) {
	case CPU_POSSIBLE:
		cpumask_print_list(buf, sizeof(buf), cpu_possible_mask);
		break;
	case CPU_PRESENT:
		cpumask_print_list(buf, sizeof(buf), cpu_present_mask);
		break;
	case CPU_ONLINE:
		cpumask_print_list(buf, sizeof(buf), cpu_online_mask);
		break;
	case CPU_OFFLINE:
		for (size_t i = 0; i < ARRAY_SIZE(offline.bits); i++)
			offline.bits[i] = cpu_possible_mask->bits[i] & ~cpu_online_mask->bits[i];
		cpumask_print_list(buf, sizeof(buf), &offline);
		break;
	default:
		ksnprintf(buf, sizeof(buf), "%d", NR_CPUS - 1);
	}
	seq_printf(m, "%s\n", buf);
	return 0;
}

/* cpuN/online (Linux: the hotplug attribute): 1 or 0. The boot CPU has
 * none, as on Linux; priv is the CPU. */
static int cpu_online_show(struct seq_file *m, void *priv)
{
	seq_printf(m, "%d\n", cpu_online((unsigned int)(uintptr_t)priv) ? 1 : 0);
	return 0;
}

static const struct kobj_attribute cpu_list_attr = { .show = cpu_list_show };
static const struct kobj_attribute cpu_online_attr = { .show = cpu_online_show };

#define CPU_DIR "/sys/devices/system/cpu"

/* Linux: cpu_dev_init and register_cpu: the masks, and a directory per
 * present CPU (cpuN) that programs count CPUs by (stress-ng scans for
 * cpuN). */
void cpu_dev_init(void)
{
	static const char *const files[] = { [CPU_POSSIBLE] = "possible",
					     [CPU_PRESENT] = "present",
					     [CPU_ONLINE] = "online",
					     [CPU_OFFLINE] = "offline",
					     [CPU_KERNEL_MAX] = "kernel_max" };
	static const char *const dirs[] = { "/sys/devices", "/sys/devices/system", CPU_DIR };
	char path[64];
	unsigned int cpu;
	int err = 0;

	for (unsigned int i = 0; !err && i < ARRAY_SIZE(dirs); i++) {
		err = ramfs_mkdir(&rootfs, dirs[i], S_IFDIR | 0755, NULL);
		err = err == -EEXIST ? 0 : err;
	}
	for (unsigned int f = 0; !err && f < ARRAY_SIZE(files); f++) {
		ksnprintf(path, sizeof(path), CPU_DIR "/%s", files[f]);
		err = sysfs_create_file(path, &cpu_list_attr, (void *)(uintptr_t)f);
	}
	for_each_present_cpu(cpu)
	{
		if (err)
			break;
		ksnprintf(path, sizeof(path), CPU_DIR "/cpu%u", cpu);
		err = ramfs_mkdir(&rootfs, path, S_IFDIR | 0755, NULL);
		err = err == -EEXIST ? 0 : err;
		if (!err && cpu) {
			ksnprintf(path, sizeof(path), CPU_DIR "/cpu%u/online", cpu);
			err = sysfs_create_file(path, &cpu_online_attr, (void *)(uintptr_t)cpu);
		}
	}
	if (err)
		pr_err("sysfs: cannot make " CPU_DIR ": error %d\n", err);
}

void sysfs_init(void)
{
	static const char *const dirs[] = { "/sys", "/sys/kernel", "/sys/kernel/mm" };
	int err = 0;

	for (unsigned int i = 0; !err && i < ARRAY_SIZE(dirs); i++) {
		err = ramfs_mkdir(&rootfs, dirs[i], S_IFDIR | 0755, NULL);
		err = err == -EEXIST ? 0 : err; /* the initramfs may have it */
	}
	err = err ?: thp_sysfs_init();
	err = err ?: hugetlb_sysfs_init();
	if (err)
		pr_err("sysfs: cannot make /sys: error %d\n", err);
}
