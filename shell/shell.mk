# shell/: the serial/framebuffer shell (line editor, command table,
# autorun) and the commands, one cmd_<subject>.c per subject. Commands
# that need the machine itself live in arch/x86_64/cmd_*.c.
SHELL_GENERIC_SRCS += shell/shell.c shell/cmd_vm.c shell/cmd_usemem.c shell/cmd_thp.c \
	shell/cmd_madvise.c shell/cmd_cma.c shell/cmd_bench.c shell/cmd_fs.c
# Compaction by hand (its test is mm/tests/compaction_test.c's).
SHELL_GENERIC_SRCS += shell/cmd_compact.c
# Views of boot-time state (the firmware map, boot memory): kernel only.
KERNEL_ONLY_SRCS += shell/cmd_system.c shell/cmd_physmem.c
# Programs and processes: `spawn` (foreground or &), `jobs`, `ps`, `kill`;
# the jobs and their notices (plain C: shell_main waits with them).
KERNEL_ONLY_SRCS += shell/cmd_exec.c
SHELL_GENERIC_SRCS += shell/jobs.c
TEST_SRCS += shell/tests/shell_test.c
