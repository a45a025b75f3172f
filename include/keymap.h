/*
 * Keyboard scancode translation: PC scancode set 1 (what an i8042 with
 * translation on delivers) to the bytes a terminal would send, US layout.
 * Pure state machine, no I/O: arch/x86_64/i8042.c feeds it, the host tests
 * feed it too.
 */
#ifndef FOLIUM_KEYMAP_H
#define FOLIUM_KEYMAP_H

#include <stdbool.h>
#include <stdint.h>

#define KEYMAP_OUT_MAX 8

/* Modifier bits in keymap_state.mods. */
#define KM_LSHIFT 0x01
#define KM_RSHIFT 0x02
#define KM_LCTRL 0x04
#define KM_RCTRL 0x08
#define KM_LALT 0x10
#define KM_RALT 0x20

struct keymap_state {
	uint8_t mods; /* KM_* keys held down */
	bool e0;      /* the previous byte was the 0xE0 prefix */
	uint8_t skip; /* bytes left of a Pause (0xE1) sequence */
	bool caps_lock, num_lock;
	bool caps_down, num_down; /* held: typematic repeats do not toggle */
};

/* Start with no modifiers held, Caps Lock off, Num Lock on (the PC BIOS
 * default). */
void keymap_init(struct keymap_state *s);
/* Feed one scancode byte. Return: the number of bytes stored in out (0 for
 * prefixes, releases, modifiers and keys with no byte meaning). Arrows give
 * ESC [ A/B/C/D, Home/End ESC [ H/F, Delete ESC [ 3 ~; Enter gives '\r',
 * Backspace 0x7f, Ctrl+letter 0x01..0x1a, Alt+key ESC then the key. */
int keymap_feed(struct keymap_state *s, uint8_t scancode, uint8_t out[KEYMAP_OUT_MAX]);

#endif
