# init/: kmain, the boot checklist (kernel only).
KERNEL_ONLY_SRCS += init/main.c
# init_task and its parts (plain C: the host's current too).
KERNEL_GENERIC_SRCS += init/init_task.c
