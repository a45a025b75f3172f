/*
 * Futexes (Linux: kernel/futex/, include/linux/futex.h): what the rest of
 * the kernel calls. The system calls futex, set_robust_list and
 * get_robust_list are in kernel/futex.c too.
 */
#ifndef FOLIUM_FUTEX_H
#define FOLIUM_FUTEX_H

#include <stdint.h>

struct mm_struct;
struct task_struct;

/* Wake at most @nr waiters on the word at @uaddr of @mm, keyed as a
 * shared futex (Linux: futex_wake with FLAGS_SHARED and
 * FUTEX_BITSET_MATCH_ANY, as mm_release and handle_futex_death call it:
 * C libraries wait on a thread's tid and on robust locks shared). Return:
 * how many. */
int futex_wake(struct mm_struct *mm, unsigned long uaddr, int nr);
/* Linux: exit_robust_list, at exit and exec: each lock of @tsk's robust
 * list it still owns gets FUTEX_OWNER_DIED and one waiter woken. */
void exit_robust_list(struct task_struct *tsk);
/* Linux: do_futex, futex(2)'s work for @task. */
long do_futex(struct task_struct *task, unsigned long uaddr, int op, uint32_t val,
	      unsigned long utime, unsigned long uaddr2, uint32_t val3);

#endif
