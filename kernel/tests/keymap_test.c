/* Scancode set 1 translation: letters, shift, caps lock, ctrl, the 0xE0
 * arrows, releases and unknown codes. Each case feeds make/break codes the
 * way a keyboard sends them and checks the bytes that come out. */
#include <keymap.h>
#include <ktest.h>
#include <kernel.h>

static struct keymap_state ks;
static uint8_t got[64];
static int ngot;

static int keymap_suite_init(struct kunit *test)
{
	keymap_init(&ks);
	ngot = 0;
	return 0;
}

/* Feed n scancodes, appending the output to got. Return: bytes produced. */
static int feed(const uint8_t *codes, size_t n)
{
	int before = ngot;

	for (size_t i = 0; i < n; i++) {
		uint8_t out[KEYMAP_OUT_MAX];
		int k = keymap_feed(&ks, codes[i], out);

		for (int j = 0; j < k && ngot < (int)sizeof(got); j++)
			got[ngot++] = out[j];
	}
	return ngot - before;
}

#define FEED(...) feed((const uint8_t[]){ __VA_ARGS__ }, sizeof((const uint8_t[]){ __VA_ARGS__ }))

static void keymap_letter_press_gives_lowercase(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, FEED(0x1e), 1);
	KUNIT_EXPECT_EQ(test, got[0], 'a');
	KUNIT_EXPECT_EQ(test, FEED(0x9e), 0); /* release */
	KUNIT_EXPECT_EQ(test, FEED(0x02, 0x0b, 0x39, 0x35, 0x28), 5);
	KUNIT_EXPECT_EQ(test, memcmp(got + 1, "10 /'", 5), 0);
}

static void keymap_shift_gives_uppercase_until_released(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, FEED(0x2a, 0x1e, 0x9e, 0x02), 2);
	KUNIT_EXPECT_EQ(test, got[0], 'A');
	KUNIT_EXPECT_EQ(test, got[1], '!');
	KUNIT_EXPECT_EQ(test, FEED(0xaa, 0x1e), 1);
	KUNIT_EXPECT_EQ(test, got[2], 'a');
	/* Right shift, and the fake E0 2A shift that must not count. */
	KUNIT_EXPECT_EQ(test, FEED(0x36, 0x27, 0xb6, 0xe0, 0x2a, 0x27), 2);
	KUNIT_EXPECT_EQ(test, got[3], ':');
	KUNIT_EXPECT_EQ(test, got[4], ';');
}

static void keymap_ctrl_letter_gives_control_code(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, FEED(0x1d, 0x2e, 0xae), 1);
	KUNIT_EXPECT_EQ(test, got[0], 0x03); /* Ctrl-C */
	KUNIT_EXPECT_EQ(test, FEED(0x16), 1);
	KUNIT_EXPECT_EQ(test, got[1], 0x15); /* Ctrl-U */
	/* Right ctrl is E0 1D; releasing the left one leaves it held. */
	KUNIT_EXPECT_EQ(test, FEED(0xe0, 0x1d, 0x9d, 0x1e), 1);
	KUNIT_EXPECT_EQ(test, got[2], 0x01);
	KUNIT_EXPECT_EQ(test, FEED(0xe0, 0x9d, 0x1e), 1);
	KUNIT_EXPECT_EQ(test, got[3], 'a');
}

static void keymap_caps_lock_toggles_letters_only(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, FEED(0x3a, 0x3a, 0x3a, 0xba), 0); /* repeats */
	KUNIT_EXPECT_EQ(test, FEED(0x1e, 0x02), 2);
	KUNIT_EXPECT_EQ(test, got[0], 'A');
	KUNIT_EXPECT_EQ(test, got[1], '1');
	KUNIT_EXPECT_EQ(test, FEED(0x2a, 0x1e, 0xaa), 1); /* shift undoes */
	KUNIT_EXPECT_EQ(test, got[2], 'a');
	KUNIT_EXPECT_EQ(test, FEED(0x3a, 0xba, 0x1e), 1);
	KUNIT_EXPECT_EQ(test, got[3], 'a');
}

static void keymap_arrows_give_ansi_sequences(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, FEED(0xe0, 0x48), 3);
	KUNIT_EXPECT_EQ(test, memcmp(got, "\033[A", 3), 0);
	KUNIT_EXPECT_EQ(test, FEED(0xe0, 0xc8), 0); /* release */
	KUNIT_EXPECT_EQ(test, FEED(0xe0, 0x50, 0xe0, 0x4d, 0xe0, 0x4b), 9);
	KUNIT_EXPECT_EQ(test, memcmp(got + 3, "\033[B\033[C\033[D", 9), 0);
	KUNIT_EXPECT_EQ(test, FEED(0xe0, 0x53), 4);
	KUNIT_EXPECT_EQ(test, memcmp(got + 12, "\033[3~", 4), 0);
	/* Keypad 8 is a digit while Num Lock is on, an arrow when off. */
	KUNIT_EXPECT_EQ(test, FEED(0x48, 0xc8, 0x45, 0xc5, 0x48), 4);
	KUNIT_EXPECT_EQ(test, memcmp(got + 16, "8\033[A", 4), 0);
}

static void keymap_enter_backspace_tab_escape(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, FEED(0x1c, 0x0e, 0x0f, 0x01, 0xe0, 0x1c), 5);
	KUNIT_EXPECT_EQ(test, memcmp(got, "\r\x7f\t\033\r", 5), 0);
}

static void keymap_unknown_codes_and_prefixes_give_nothing(struct kunit *test)
{
	/* F1, F12, an unassigned code, E0 5B (Windows key), the keyboard's
	 * ACK, and Pause (E1 1D 45 E1 9D C5), then 'a' still works. */
	KUNIT_EXPECT_EQ(test, FEED(0x3b, 0x58, 0x7e, 0xe0, 0x5b, 0xfa), 0);
	KUNIT_EXPECT_EQ(test, FEED(0xe1, 0x1d, 0x45, 0xe1, 0x9d, 0xc5), 0);
	KUNIT_EXPECT_EQ(test, ks.mods, 0);
	KUNIT_EXPECT_TRUE(test, ks.num_lock);
	KUNIT_EXPECT_EQ(test, FEED(0x1e), 1);
	KUNIT_EXPECT_EQ(test, got[0], 'a');
}

static void keymap_alt_prefixes_escape(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, FEED(0x38, 0x1e, 0xb8, 0x1e), 3);
	KUNIT_EXPECT_EQ(test, memcmp(got, "\033aa", 3), 0);
}

static struct kunit_case keymap_cases[] = {
	KUNIT_CASE(keymap_letter_press_gives_lowercase),
	KUNIT_CASE(keymap_shift_gives_uppercase_until_released),
	KUNIT_CASE(keymap_ctrl_letter_gives_control_code),
	KUNIT_CASE(keymap_caps_lock_toggles_letters_only),
	KUNIT_CASE(keymap_arrows_give_ansi_sequences),
	KUNIT_CASE(keymap_enter_backspace_tab_escape),
	KUNIT_CASE(keymap_unknown_codes_and_prefixes_give_nothing),
	KUNIT_CASE(keymap_alt_prefixes_escape),
	{},
};

static struct kunit_suite keymap_suite = {
	.name = "keymap",
	.init = keymap_suite_init,
	.test_cases = keymap_cases,
};
kunit_test_suite(keymap_suite);
