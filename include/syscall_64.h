/*
 * The system calls Folium serves, by Linux's x86-64 number and name
 * (Linux: arch/x86/entry/syscalls/syscall_64.tbl). Each X(nr, name) makes
 * __NR_name, the prototype of sys_name (<syscalls.h>) and the table entry
 * (kernel/syscall_table.c). A number not listed returns -ENOSYS and is
 * logged once by its Linux name. Keep the list sorted by number.
 */
#ifndef FOLIUM_SYSCALL_64_H
#define FOLIUM_SYSCALL_64_H

#define FOLIUM_SYSCALLS(X)        \
	X(0, read)                \
	X(1, write)               \
	X(2, open)                \
	X(3, close)               \
	X(4, stat)                \
	X(5, fstat)               \
	X(6, lstat)               \
	X(7, poll)                \
	X(8, lseek)               \
	X(9, mmap)                \
	X(10, mprotect)           \
	X(11, munmap)             \
	X(12, brk)                \
	X(13, rt_sigaction)       \
	X(14, rt_sigprocmask)     \
	X(15, rt_sigreturn)       \
	X(16, ioctl)              \
	X(17, pread64)            \
	X(18, pwrite64)           \
	X(19, readv)              \
	X(20, writev)             \
	X(21, access)             \
	X(22, pipe)               \
	X(23, select)             \
	X(24, sched_yield)        \
	X(25, mremap)             \
	X(26, msync)              \
	X(27, mincore)            \
	X(28, madvise)            \
	X(32, dup)                \
	X(33, dup2)               \
	X(34, pause)              \
	X(35, nanosleep)          \
	X(36, getitimer)          \
	X(37, alarm)              \
	X(38, setitimer)          \
	X(39, getpid)             \
	X(56, clone)              \
	X(57, fork)               \
	X(58, vfork)              \
	X(59, execve)             \
	X(60, exit)               \
	X(61, wait4)              \
	X(62, kill)               \
	X(63, uname)              \
	X(72, fcntl)              \
	X(73, flock)              \
	X(74, fsync)              \
	X(75, fdatasync)          \
	X(76, truncate)           \
	X(77, ftruncate)          \
	X(79, getcwd)             \
	X(80, chdir)              \
	X(82, rename)             \
	X(83, mkdir)              \
	X(84, rmdir)              \
	X(85, creat)              \
	X(86, link)               \
	X(87, unlink)             \
	X(88, symlink)            \
	X(89, readlink)           \
	X(90, chmod)              \
	X(91, fchmod)             \
	X(92, chown)              \
	X(93, fchown)             \
	X(94, lchown)             \
	X(95, umask)              \
	X(96, gettimeofday)       \
	X(97, getrlimit)          \
	X(98, getrusage)          \
	X(99, sysinfo)            \
	X(100, times)             \
	X(102, getuid)            \
	X(103, syslog)            \
	X(104, getgid)            \
	X(105, setuid)            \
	X(106, setgid)            \
	X(107, geteuid)           \
	X(108, getegid)           \
	X(109, setpgid)           \
	X(110, getppid)           \
	X(111, getpgrp)           \
	X(112, setsid)            \
	X(113, setreuid)          \
	X(114, setregid)          \
	X(115, getgroups)         \
	X(116, setgroups)         \
	X(117, setresuid)         \
	X(118, getresuid)         \
	X(119, setresgid)         \
	X(120, getresgid)         \
	X(121, getpgid)           \
	X(122, setfsuid)          \
	X(123, setfsgid)          \
	X(124, getsid)            \
	X(125, capget)            \
	X(126, capset)            \
	X(127, rt_sigpending)     \
	X(128, rt_sigtimedwait)   \
	X(129, rt_sigqueueinfo)   \
	X(130, rt_sigsuspend)     \
	X(131, sigaltstack)       \
	X(132, utime)             \
	X(133, mknod)             \
	X(137, statfs)            \
	X(138, fstatfs)           \
	X(140, getpriority)       \
	X(141, setpriority)       \
	X(149, mlock)             \
	X(150, munlock)           \
	X(151, mlockall)          \
	X(152, munlockall)        \
	X(157, prctl)             \
	X(158, arch_prctl)        \
	X(162, sync)              \
	X(165, mount)             \
	X(166, umount2)           \
	X(186, gettid)            \
	X(200, tkill)             \
	X(201, time)              \
	X(202, futex)             \
	X(203, sched_setaffinity) \
	X(204, sched_getaffinity) \
	X(213, epoll_create)      \
	X(217, getdents64)        \
	X(218, set_tid_address)   \
	X(221, fadvise64)         \
	X(222, timer_create)      \
	X(223, timer_settime)     \
	X(224, timer_gettime)     \
	X(225, timer_getoverrun)  \
	X(226, timer_delete)      \
	X(228, clock_gettime)     \
	X(229, clock_getres)      \
	X(230, clock_nanosleep)   \
	X(231, exit_group)        \
	X(232, epoll_wait)        \
	X(233, epoll_ctl)         \
	X(234, tgkill)            \
	X(235, utimes)            \
	X(247, waitid)            \
	X(257, openat)            \
	X(258, mkdirat)           \
	X(259, mknodat)           \
	X(260, fchownat)          \
	X(261, futimesat)         \
	X(262, newfstatat)        \
	X(263, unlinkat)          \
	X(264, renameat)          \
	X(265, linkat)            \
	X(266, symlinkat)         \
	X(267, readlinkat)        \
	X(268, fchmodat)          \
	X(269, faccessat)         \
	X(270, pselect6)          \
	X(271, ppoll)             \
	X(273, set_robust_list)   \
	X(274, get_robust_list)   \
	X(280, utimensat)         \
	X(281, epoll_pwait)       \
	X(282, signalfd)          \
	X(283, timerfd_create)    \
	X(284, eventfd)           \
	X(285, fallocate)         \
	X(286, timerfd_settime)   \
	X(287, timerfd_gettime)   \
	X(289, signalfd4)         \
	X(290, eventfd2)          \
	X(291, epoll_create1)     \
	X(292, dup3)              \
	X(293, pipe2)             \
	X(297, rt_tgsigqueueinfo) \
	X(302, prlimit64)         \
	X(309, getcpu)            \
	X(316, renameat2)         \
	X(318, getrandom)         \
	X(319, memfd_create)      \
	X(322, execveat)          \
	X(325, mlock2)            \
	X(332, statx)             \
	X(334, rseq)              \
	X(434, pidfd_open)        \
	X(435, clone3)            \
	X(439, faccessat2)        \
	X(440, process_madvise)   \
	X(441, epoll_pwait2)      \
	X(449, futex_waitv)       \
	X(452, fchmodat2)

#define __SYSCALL_NR(nr, name) __NR_##name = nr,
enum {
	FOLIUM_SYSCALLS(__SYSCALL_NR)
};
#undef __SYSCALL_NR

#define NR_syscalls 512 /* above Linux's last x86-64 number */

#endif
