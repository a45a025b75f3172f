/*
 * /bin/schedtest [SECONDS]: the fair scheduler's shares, seen from ring 3
 * the same way on Linux and on Folium. Two CPU-bound children spin for
 * SECONDS (5) of wall time at equal nice: each gets 50% +- 10% of that
 * time. Then one at nice 0 and one at nice 5 spin for SECONDS: their CPU
 * times stand in sched_prio_to_weight's ratio 1024:335 (3.06) +- 25%.
 * CPU time is what wait4 reports (ru_utime + ru_stime). Prints
 * "schedtest: spinning" when the first pair starts (a test can type at the
 * console then), then per check its figures ("schedtest: NAME: ...") and
 * "ok NAME" or "FAIL NAME: figures" (user/check.h), then "schedtest: N
 * checks, all ok" (exit 0) or "schedtest: K of N checks FAILED" (exit 1).
 * Example: "schedtest: equal nice: 49.6% and 49.9% of 5.00 s".
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

/* The figures first, whatever the verdict, then the verdict. */
static void cond(const char *name, int ok, const char *figures)
{
	printf("schedtest: %s: %s\n", name, figures);
	check(name, ok, "%s", figures);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Compute until the wall clock passes deadline; the clock is read once per
 * 100,000 rounds so nearly all the time is spent in ring 3. */
static void spin_until(double deadline)
{
	volatile unsigned long x = 1;

	while (now() < deadline)
		for (int i = 0; i < 100000; i++)
			x = x * 6364136223846793005ul + 1442695040888963407ul;
}

/* Fork a child at each nice value that spins until seconds from now;
 * the CPU seconds each used, from wait4. 0 on success. */
static int spin_pair(const int nice_of[2], double seconds, double cpu[2])
{
	double deadline = now() + seconds;
	pid_t pid[2];

	for (int i = 0; i < 2; i++) {
		pid[i] = fork();
		if (pid[i] < 0) {
			perror("schedtest: fork");
			return -1;
		}
		if (pid[i] == 0) {
			if (setpriority(PRIO_PROCESS, 0, nice_of[i]))
				_exit(2);
			spin_until(deadline);
			_exit(0);
		}
	}
	for (int i = 0; i < 2; i++) {
		struct rusage ru;
		int status;

		if (wait4(pid[i], &status, 0, &ru) != pid[i] || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			fprintf(stderr, "schedtest: child %d failed\n", i);
			return -1;
		}
		cpu[i] = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
			 ru.ru_stime.tv_usec / 1e6;
	}
	return 0;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 5, cpu[2];
	char figures[160];

	if (argc > 2 || !(seconds >= 1 && seconds <= 600)) {
		fprintf(stderr, "usage: schedtest [SECONDS]   (1 to 600, default 5)\n");
		return 2;
	}
	printf("schedtest: spinning\n");
	fflush(stdout);
	if (spin_pair((const int[2]){ 0, 0 }, seconds, cpu))
		return 1;
	snprintf(figures, sizeof(figures), "%.1f%% and %.1f%% of %.2f s", 100 * cpu[0] / seconds,
		 100 * cpu[1] / seconds, seconds);
	cond("equal nice",
	     cpu[0] >= 0.4 * seconds && cpu[0] <= 0.6 * seconds && cpu[1] >= 0.4 * seconds &&
		     cpu[1] <= 0.6 * seconds,
	     figures);

	/* Linux: sched_prio_to_weight[20] = 1024 (nice 0), [25] = 335 (nice 5). */
	if (spin_pair((const int[2]){ 0, 5 }, seconds, cpu))
		return 1;
	snprintf(figures, sizeof(figures), "%.2f s against %.2f s, %.2f : 1 (1024:335 is 3.06)",
		 cpu[0], cpu[1], cpu[1] > 0 ? cpu[0] / cpu[1] : 0);
	cond("nice 0 against nice 5",
	     cpu[1] > 0 && cpu[0] / cpu[1] >= 3.06 * 0.75 && cpu[0] / cpu[1] <= 3.06 * 1.25,
	     figures);

	return check_summary("schedtest");
}
