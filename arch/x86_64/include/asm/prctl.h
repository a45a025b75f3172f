/* arch_prctl's options (Linux: arch/x86/include/uapi/asm/prctl.h). */
#ifndef FOLIUM_ASM_PRCTL_H
#define FOLIUM_ASM_PRCTL_H

#define ARCH_SET_FS 0x1002
#define ARCH_GET_FS 0x1003

#endif
