/*
 * Capabilities (Linux: kernel/capability.c, security/commoncap.c): capget
 * and capset on the caller's own sets, and prctl's bounding-set options.
 * A program starts as root with every capability permitted and effective
 * (task_caps_root); it may drop any of them and raise again only what is
 * still permitted. Example: libcap's cap_set_proc clearing CAP_IPC_LOCK
 * from the effective set makes mlock count against RLIMIT_MEMLOCK;
 * setting it again succeeds while it is permitted.
 */
#include <sched.h>
#include <syscalls.h>
#include <vm.h>

/* Linux: include/uapi/linux/capability.h. */
#define _LINUX_CAPABILITY_VERSION_1 0x19980330u
#define _LINUX_CAPABILITY_U32S_1 1
#define _LINUX_CAPABILITY_VERSION_2 0x20071026u /* deprecated: read as 3 */
#define _LINUX_CAPABILITY_VERSION_3 0x20080522u
#define _LINUX_CAPABILITY_U32S_3 2
#define CAP_SETPCAP 8

#define PR_CAPBSET_READ 23
#define PR_CAPBSET_DROP 24

struct user_cap_header {
	uint32_t version;
	int pid;
};

struct user_cap_data {
	uint32_t effective, permitted, inheritable;
};

static bool cap_valid(unsigned long cap)
{
	return cap <= CAP_LAST_CAP;
}

/* A set from the two 32-bit words userspace passes (Linux: mk_kernel_cap;
 * bits past CAP_LAST_CAP are dropped). */
static uint64_t mk_kernel_cap(uint32_t low, uint32_t high)
{
	return (low | (uint64_t)high << 32) & CAP_FULL_SET;
}

static bool cap_issubset(uint64_t a, uint64_t set)
{
	return !(a & ~set);
}

/*
 * Linux: cap_validate_magic. Return: how many data structs the version
 * uses (1 or 2), or -EINVAL after writing the version the kernel speaks
 * into the header (how libcap learns it), or -EFAULT.
 */
static int cap_validate_magic(unsigned long header)
{
	uint32_t version;

	if (copy_from_user(&version, header, sizeof(version)))
		return -EFAULT;
	switch (version) {
	case _LINUX_CAPABILITY_VERSION_1:
		return _LINUX_CAPABILITY_U32S_1;
	case _LINUX_CAPABILITY_VERSION_2:
	case _LINUX_CAPABILITY_VERSION_3:
		return _LINUX_CAPABILITY_U32S_3;
	}
	version = _LINUX_CAPABILITY_VERSION_3;
	if (copy_to_user(header, &version, sizeof(version)))
		return -EFAULT;
	return -EINVAL;
}

/* Linux: sys_capget. A NULL data pointer only probes the version. */
SYSCALL_DEFINE2(capget, unsigned long, header, unsigned long, dataptr)
{
	struct user_cap_data kdata[_LINUX_CAPABILITY_U32S_3];
	int tocopy = cap_validate_magic(header), pid;

	if (!dataptr)
		return tocopy == -EINVAL ? 0 : MIN(tocopy, 0);
	if (tocopy < 0)
		return tocopy;
	if (copy_from_user(&pid, header + offsetof(struct user_cap_header, pid), sizeof(pid)))
		return -EFAULT;
	if (pid < 0)
		return -EINVAL;
	if (pid && pid != task->pid)
		return -ESRCH; /* the only process is the caller */
	for (int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
		kdata[i] = (struct user_cap_data){
			.effective = (uint32_t)(task->cred.cap_effective >> (32 * i)),
			.permitted = (uint32_t)(task->cred.cap_permitted >> (32 * i)),
			.inheritable = (uint32_t)(task->cred.cap_inheritable >> (32 * i)),
		};
	return copy_to_user(dataptr, kdata, (size_t)tocopy * sizeof(kdata[0])) ? -EFAULT : 0;
}

/*
 * Linux: cap_capset's rules. Inheritable grows only within the old
 * inheritable and permitted sets (unless CAP_SETPCAP is effective) and
 * never past the bounding set; permitted only shrinks; effective stays
 * within the new permitted set. Return: 0 with the sets replaced, or
 * -EPERM and nothing changed.
 */
static int cap_capset(struct task_struct *task, uint64_t effective, uint64_t inheritable,
		      uint64_t permitted)
{
	if (!has_capability(task, CAP_SETPCAP) &&
	    !cap_issubset(inheritable, task->cred.cap_inheritable | task->cred.cap_permitted))
		return -EPERM;
	if (!cap_issubset(inheritable, task->cred.cap_inheritable | task->cred.cap_bset))
		return -EPERM;
	if (!cap_issubset(permitted, task->cred.cap_permitted))
		return -EPERM;
	if (!cap_issubset(effective, permitted))
		return -EPERM;
	task->cred.cap_effective = effective;
	task->cred.cap_inheritable = inheritable;
	task->cred.cap_permitted = permitted;
	return 0;
}

/* Linux: sys_capset. Only the caller's own sets (pid 0 or its pid). A
 * version-1 caller passes one struct: the sets' upper words are zero. */
SYSCALL_DEFINE2(capset, unsigned long, header, unsigned long, data)
{
	struct user_cap_data kdata[_LINUX_CAPABILITY_U32S_3] = { 0 };
	int tocopy = cap_validate_magic(header), pid;

	if (tocopy < 0)
		return tocopy;
	if (copy_from_user(&pid, header + offsetof(struct user_cap_header, pid), sizeof(pid)))
		return -EFAULT;
	if (pid && pid != task->pid)
		return -EPERM;
	if (copy_from_user(kdata, data, (size_t)tocopy * sizeof(kdata[0])))
		return -EFAULT;
	return cap_capset(task, mk_kernel_cap(kdata[0].effective, kdata[1].effective),
			  mk_kernel_cap(kdata[0].inheritable, kdata[1].inheritable),
			  mk_kernel_cap(kdata[0].permitted, kdata[1].permitted));
}

/* Linux: cap_task_prctl's bounding-set options. Return: -ENOSYS for an
 * option that is not one of them. */
long cap_task_prctl(struct task_struct *task, int option, unsigned long cap)
{
	switch (option) {
	case PR_CAPBSET_READ:
		if (!cap_valid(cap))
			return -EINVAL;
		return !!(task->cred.cap_bset & (1ull << cap));
	case PR_CAPBSET_DROP: /* Linux: cap_prctl_drop */
		if (!has_capability(task, CAP_SETPCAP))
			return -EPERM;
		if (!cap_valid(cap))
			return -EINVAL;
		task->cred.cap_bset &= ~(1ull << cap);
		return 0;
	}
	return -ENOSYS;
}
