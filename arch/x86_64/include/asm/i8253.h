/* The PIT (8253/8254) ports (Linux: arch/x86/include/asm/i8253.h). */
#ifndef FOLIUM_ASM_I8253_H
#define FOLIUM_ASM_I8253_H

#define PIT_TICK_RATE 1193182 /* Hz, every channel */
#define PIT_CH0 0x40	      /* IRQ 0 */
#define PIT_CH2 0x42	      /* gated through port 0x61: the speaker, calibration */
#define PIT_MODE 0x43	      /* control word: channel, access, mode, BCD */

#endif
