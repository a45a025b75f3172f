/*
 * Scancode set 1 to bytes, US layout. A key press sends its make code
 * (0x01..0x58), its release the same code with bit 7 set; keys added with
 * the AT-101 keyboard send 0xE0 first, Pause sends E1 1D 45 E1 9D C5.
 * Example: Shift+a is 2A 1E 9E AA: shift down, 'a' down ("A"), 'a' up,
 * shift up. Releases only update the modifier state.
 */
#include <keymap.h>
#include <kernel.h>

#define SC_RELEASE 0x80
#define SC_E0 0xe0
#define SC_E1 0xe1
#define PAUSE_TAIL 5 /* bytes after E1 in the Pause sequence */
#define SC_LCTRL 0x1d
#define SC_LSHIFT 0x2a
#define SC_RSHIFT 0x36
#define SC_LALT 0x38
#define SC_CAPS 0x3a
#define SC_NUMLOCK 0x45
#define SC_KP_FIRST 0x47 /* keypad 7 / Home */
#define SC_KP_LAST 0x53	 /* keypad . / Delete */
#define ESC "\033"

/* Indexed by make code 0x00..0x39; 0 marks a modifier or no key. */
static const char keys_plain[] = "\0" ESC "1234567890-=\x7f\tqwertyuiop[]\r\0"
				 "asdfghjkl;'`\0\\zxcvbnm,./\0*\0 ";
static const char keys_shift[] = "\0" ESC "!@#$%^&*()_+\x7f\tQWERTYUIOP{}\r\0"
				 "ASDFGHJKL:\"~\0|ZXCVBNM<>?\0*\0 ";
_Static_assert(sizeof(keys_plain) == 0x3a + 1, "keys_plain covers 00..39");
_Static_assert(sizeof(keys_shift) == 0x3a + 1, "keys_shift covers 00..39");

/* Keypad 0x47..0x53 with Num Lock on, and the navigation keys that share
 * these codes (E0-prefixed on the separate block, or keypad without Num
 * Lock). */
static const char keypad_digits[] = "789-456+1230.";
static const char *const nav_keys[SC_KP_LAST - SC_KP_FIRST + 1] = {
	ESC "[H", ESC "[A", ESC "[5~", "-",	  ESC "[D",  NULL,	ESC "[C",
	"+",	  ESC "[F", ESC "[B",  ESC "[6~", ESC "[2~", ESC "[3~",
};

void keymap_init(struct keymap_state *s)
{
	memset(s, 0, sizeof(*s));
	s->num_lock = true;
}

static int emit(const char *str, size_t len, bool alt, uint8_t *out)
{
	int n = 0;

	if (alt)
		out[n++] = 0x1b; /* Meta sends ESC first, like xterm */
	for (size_t i = 0; i < len && n < KEYMAP_OUT_MAX; i++)
		out[n++] = (uint8_t)str[i];
	return n;
}

/* Lock keys toggle on the first make code only: holding them repeats it. */
static void lock_key(bool *lock, bool *down, bool release)
{
	if (!release && !*down)
		*lock = !*lock;
	*down = !release;
}

/* Return: true if code was a modifier (its state is now updated). */
static bool modifier(struct keymap_state *s, uint8_t code, bool e0, bool release)
{
	uint8_t bit;

	switch (code) {
	case SC_LSHIFT:
	case SC_RSHIFT:
		/* E0 2A / E0 36 are fake shifts some keys wrap themselves
		 * in; they must not change the real shift state. */
		if (e0)
			return true;
		bit = code == SC_LSHIFT ? KM_LSHIFT : KM_RSHIFT;
		break;
	case SC_LCTRL:
		bit = e0 ? KM_RCTRL : KM_LCTRL;
		break;
	case SC_LALT:
		bit = e0 ? KM_RALT : KM_LALT;
		break;
	case SC_CAPS:
		lock_key(&s->caps_lock, &s->caps_down, release);
		return true;
	case SC_NUMLOCK:
		if (!e0)
			lock_key(&s->num_lock, &s->num_down, release);
		return true;
	default:
		return false;
	}
	s->mods = release ? s->mods & ~bit : s->mods | bit;
	return true;
}

static int plain_key(const struct keymap_state *s, uint8_t code, bool alt, uint8_t *out)
{
	bool shift = s->mods & (KM_LSHIFT | KM_RSHIFT);
	char c = keys_plain[code];

	if (c >= 'a' && c <= 'z' && s->caps_lock)
		shift = !shift;
	if (shift)
		c = keys_shift[code];
	if (!c)
		return 0;
	if (s->mods & (KM_LCTRL | KM_RCTRL)) {
		char base = keys_plain[code];

		/* Ctrl clears bits 5-6: 'c' (0x63) -> 0x03, '[' -> ESC. */
		if ((base >= 'a' && base <= 'z') || base == '[' || base == '\\' || base == ']')
			c = base & 0x1f;
	}
	return emit(&c, 1, alt, out);
}

static int keypad_key(const struct keymap_state *s, uint8_t code, bool e0, bool alt, uint8_t *out)
{
	const char *seq = nav_keys[code - SC_KP_FIRST];

	if (!e0 && s->num_lock)
		return emit(&keypad_digits[code - SC_KP_FIRST], 1, alt, out);
	if (e0 && (code == 0x4a || code == 0x4e))
		return 0; /* no such E0 keys */
	return seq ? emit(seq, strlen(seq), alt, out) : 0;
}

int keymap_feed(struct keymap_state *s, uint8_t scancode, uint8_t out[KEYMAP_OUT_MAX])
{
	bool e0 = s->e0, release = scancode & SC_RELEASE, alt;
	uint8_t code = scancode & ~SC_RELEASE;

	if (s->skip) {
		s->skip--;
		return 0;
	}
	if (scancode == SC_E0 || scancode == SC_E1) {
		s->e0 = scancode == SC_E0;
		s->skip = scancode == SC_E1 ? PAUSE_TAIL : 0;
		return 0;
	}
	s->e0 = false;
	if (modifier(s, code, e0, release) || release)
		return 0;
	alt = s->mods & (KM_LALT | KM_RALT);
	if (code >= SC_KP_FIRST && code <= SC_KP_LAST)
		return keypad_key(s, code, e0, alt, out);
	if (e0) {
		if (code == 0x1c) /* keypad Enter */
			return emit("\r", 1, alt, out);
		if (code == 0x35) /* keypad / */
			return emit("/", 1, alt, out);
		return 0;
	}
	return code < sizeof(keys_plain) - 1 ? plain_key(s, code, alt, out) : 0;
}
