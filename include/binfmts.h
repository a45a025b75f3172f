/*
 * exec (Linux: include/linux/binfmts.h; fs/exec.c): replace a task's
 * program with a static ELF program from the root file system.
 */
#ifndef FOLIUM_BINFMTS_H
#define FOLIUM_BINFMTS_H

#include <stdbool.h>
#include <stddef.h>

struct task_struct;

/* What exec reads of a file to recognize it (Linux: BINPRM_BUF_SIZE). */
#define BINPRM_BUF_SIZE 256
/* Interpreters in a row a script may go through (Linux: exec_binprm's
 * depth limit): a deeper chain is -ELOOP. */
#define BINPRM_MAX_DEPTH 5

/* A script's first line (fs/binfmt_script.c). */
struct script_interp {
	char name[BINPRM_BUF_SIZE]; /* the interpreter's path */
	char arg[BINPRM_BUF_SIZE];  /* its one optional argument */
	bool has_arg;
};
/**
 * script_parse - read "#!" and the interpreter line from the first
 * @size bytes of @file, by Linux's load_script rules (spaces and tabs
 * around the name and the argument dropped, the argument kept whole).
 * Return: 0 with *@out filled, or -ENOEXEC: no "#!", no interpreter
 * name, or a name the 256-byte buffer cuts.
 */
int script_parse(const char *file, size_t size, struct script_interp *out);

/**
 * do_execve - load the program at @path into a new mm for @task.
 * @path is looked up from @task's cwd. The new mm holds its segments, an
 * RLIMIT_STACK-sized stack VMA and the initial stack of create_elf_tables
 * (@argv, @envp); then @task releases its old mm (mm_release: a vfork
 * parent goes on) and drops it, takes the file's name (comm, exe),
 * closes its close-on-exec fds, resets caught signals to SIG_DFL and
 * will start at the program's entry (start_thread). A "#!" script runs
 * its interpreter instead (script_parse), up to BINPRM_MAX_DEPTH deep.
 * Context: @task is current (execve) or a new task not yet woken
 * (call_usermodehelper).
 * Return: 0, or -ENOENT, -EACCES, -ENOEXEC (with the reason printed),
 * -ELOOP, -E2BIG or -ENOMEM, with @task unchanged.
 */
int do_execve(struct task_struct *task, const char *path, const char *const *argv,
	      const char *const *envp);

#endif
