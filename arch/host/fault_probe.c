/*
 * host_access_faults (<asm/mmu.h>): make one access and catch its SIGSEGV
 * or SIGBUS with a jump back, so a test can show that a vmalloc guard page
 * or a freed area faults and go on. Built without include/ (host.mk):
 * Folium's <signal.h> is the kernel's, this file needs libc's.
 */
#define _GNU_SOURCE
#include <asm/mmu.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>

static sigjmp_buf probe_jmp;

static void probe_fault(int sig)
{
	siglongjmp(probe_jmp, sig);
}

bool host_access_faults(const void *addr, bool write)
{
	struct sigaction sa = { .sa_handler = probe_fault }, old_segv, old_bus;
	volatile bool faulted = true;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &old_segv);
	sigaction(SIGBUS, &sa, &old_bus);
	if (!sigsetjmp(probe_jmp, 1)) {
		if (write)
			*(volatile char *)addr = *(volatile const char *)addr;
		else
			(void)*(volatile const char *)addr;
		faulted = false;
	}
	sigaction(SIGSEGV, &old_segv, NULL);
	sigaction(SIGBUS, &old_bus, NULL);
	return faulted;
}
