# init/: kmain, the boot checklist (kernel only).
KERNEL_ONLY_SRCS += init/main.c
