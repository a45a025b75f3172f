/*
 * exec (Linux: include/linux/binfmts.h; fs/exec.c): replace a task's
 * program with a static ELF program from the root file system.
 */
#ifndef FOLIUM_BINFMTS_H
#define FOLIUM_BINFMTS_H

struct task_struct;

/**
 * do_execve - load the program at @path into a new mm for @task.
 * @path is looked up from @task's cwd. The new mm holds its segments, an
 * RLIMIT_STACK-sized stack VMA and the initial stack of create_elf_tables
 * (@argv, @envp); then @task releases its old mm (mm_release: a vfork
 * parent goes on) and drops it, takes the file's name (comm, exe),
 * closes its close-on-exec fds, resets caught signals to SIG_DFL and
 * will start at the program's entry (start_thread). Context: @task is
 * current (execve) or a new task not yet woken (call_usermodehelper).
 * Return: 0, or -ENOENT, -EACCES, -ENOEXEC (with the reason printed),
 * -E2BIG or -ENOMEM, with @task unchanged.
 */
int do_execve(struct task_struct *task, const char *path, const char *const *argv,
	      const char *const *envp);

#endif
