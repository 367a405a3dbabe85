/* Unit tests for lib/kernel/lore.c: the Message-Id in an archive link. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <glib.h>

#include "fixscan/lore.h"

static const struct {
	const char *link;
	const char *id; /* NULL: no Message-Id */
} cases[] = {
	{ "https://lore.kernel.org/r/20160424014451.1@stable.example.org", "20160424014451.1@stable.example.org" },
	{ "https://lore.kernel.org/all/abc@example.org/", "abc@example.org" },
	{ "https://lore.kernel.org/stable/abc@example.org/T/#u", "abc@example.org" },
	{ "http://lkml.kernel.org/r/a%2Bb%40example.org", "a+b@example.org" },
	{ "https://lore.kernel.org/r/a%40b/raw", "a@b" },
	/* not links, or links without an id */
	{ "abc@example.org", NULL },
	{ "id:abc@example.org", NULL },
	{ "https://lore.kernel.org/stable/", NULL },
	{ "https://lore.kernel.org", NULL },
	{ "ftp://lore.kernel.org/r/abc@example.org", NULL },
	/* an escape that would put a control character, a space or an angle
	 * bracket into the id: no mail's */
	{ "https://lore.kernel.org/r/a%00b@example.org", NULL },
	{ "https://lore.kernel.org/r/a%0Ab@example.org", NULL },
	{ "https://lore.kernel.org/r/a%20b@example.org", NULL },
	{ "https://lore.kernel.org/r/%3Ca@example.org%3E", NULL },
	/* a cut escape stays as it is */
	{ "https://lore.kernel.org/r/a@b%4", "a@b%4" },
};

static void test_links(void **state)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = fs_lore_message_id(cases[i].link);

		if (!cases[i].id) {
			if (got)
				fail_msg("%s: got '%s', want none", cases[i].link, got);
		} else {
			if (!got)
				fail_msg("%s: got none, want '%s'", cases[i].link, cases[i].id);
			assert_string_equal(got, cases[i].id);
		}
		g_free(got);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_links),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
