/* Unit tests for lib/review/culprit.c: which commits a mail from the
 * archives blames, in its own words.  Each case is a body and exactly
 * what it blames; the others blame nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <glib.h>

#include "fixscan/culprit.h"

#define ID40 "1234567890abcdef1234567890abcdef12345678"
#define ID12 "1234567890ab"
#define OT12 "fedcba987654"

/* Each body and what it blames: "how:id how:id ..." in order, "" for
 * nothing. */
static const struct {
	const char *body;
	const char *want;
} cases[] = {
	/* regzbot, either form, any id length from 12 */
	{ "The board hangs.\n\n#regzbot introduced: " ID12 "\n", "regzbot:" ID12 },
	{ "#regzbot ^introduced " ID40 "\n", "regzbot:" ID40 },
	{ "#Regzbot introduced:" ID12 "\n", "regzbot:" ID12 },
	/* a range, a version, a short id: no one commit */
	{ "#regzbot introduced: " ID12 ".." OT12 "\n", "" },
	{ "#regzbot introduced: v6.1..v6.2\n", "" },
	{ "#regzbot introduced: 12345678\n", "" },
	/* quoted: someone else's words */
	{ "> #regzbot introduced: " ID12 "\n\nThanks for the report.\n", "" },
	/* bisection output and logs */
	{ ID40 " is the first bad commit\ncommit " ID40 "\nAuthor: A <a@x>\n", "bisected:" ID40 },
	{ "git bisect start\ngit bisect good " OT12 "\ngit bisect bad " ID12 "\n"
	  "# first bad commit: [" ID40 "] usb: frob: add the frob\n", "bisected:" ID40 },
	{ "git bisect start\ngit bisect good " OT12 "\ngit bisect bad " ID12 "\n", "" },
	{ "I bisected the hang to commit " ID12 " (\"usb: frob: add the frob\").\n", "bisected:" ID12 },
	{ "Bisection points at " ID12 ", see below.\n", "bisected:" ID12 },
	{ "Breaking commit found:\n\n-----\ncommit " ID40 "\nAuthor: A <a@x>\n", "bisected:" ID40 },
	{ "I bisected between " OT12 " and v6.2 but could not finish.\n", "" },
	{ "I bisected it, and git bisect names this as the first bad commit:\n\n  " ID12
	  " (\"usb: frob: add the frob\")\n\nReverting it makes the hang go away.\n", "bisected:" ID12 },
	{ "The culprit:\n" ID40 "\n", "bisected:" ID40 },
	/* an id on the line after one that announces nothing */
	{ "These are the commits I tested:\n" ID12 "\n", "" },
	{ "> I bisected it to:\n" ID12 "\n", "" },
	/* sentences that blame, by id, or id and subject */
	{ "Since commit " ID12 " (\"usb: frob: add the frob\") my keyboard no longer works.\n",
	  "caused:" ID12 },
	{ "After " ID12 " the board hangs at boot.\n", "caused:" ID12 },
	{ "Commit " ID40 " introduced a regression on arm64.\n", "caused:" ID40 },
	{ "This crash is caused by commit " ID12 ".\n", "caused:" ID12 },
	{ "Reverting " ID12 " on top of 6.1.5 fixes it.\n", "caused:" ID12 },
	{ "With " ID12 " reverted, it works again.\n", "caused:" ID12 },
	/* ... the right one of two ids */
	{ "I tested " OT12 " yesterday and it was fine, but this is a separate point. "
	  "The oops started with " ID12 ".\n", "caused:" ID12 },
	/* not blamed: negated, no trouble, a mere mention, a fix's subject */
	{ "I don't think " ID12 " caused this crash.\n", "" },
	{ "The hang is not caused by " ID12 ".\n", "" },
	{ "Reverting " ID12 " doesn't help.\n", "" },
	{ "The table has been present since commit " ID12 ".\n", "" },
	{ "Please also pick " ID12 " for 6.1.\n", "" },
	{ "Since commit " ID12 " the hang is gone.\n", "" },
	{ "Since " ID12 " is in 6.1, we need " OT12 " to avoid the crash.\n", "" },
	{ "Commit " ID12 " (\"usb: fix a crash after suspend\") is in 6.2.\n", "" },
	{ "Fixes: " ID12 " (\"usb: frob: add the frob\")\nSigned-off-by: A <a@x>\n", "" },
	/* quoted report, own words that say nothing */
	{ "On Mon, A wrote:\n> After " ID12 " the board hangs at boot.\n\nThanks, queued.\n", "" },
	/* after a carried diff nothing is the poster's */
	{ "Try this:\n\ndiff --git a/x b/x\n+#regzbot introduced: " ID12 "\n", "" },
	/* each id once, with the first way it was named */
	{ "After " ID12 " the board hangs.\n\n#regzbot introduced: " ID12 "\n", "regzbot:" ID12 },
};

static char *render(const struct fs_culprit *v, size_t n)
{
	GString *s = g_string_new("");
	size_t i;

	for (i = 0; i < n; i++)
		g_string_append_printf(s, "%s%s:%s", i ? " " : "", fs_culprit_how_name(v[i].how),
				       v[i].id);
	return g_string_free(s, FALSE);
}

static void test_culprits(void **state)
{
	size_t i, failed = 0;

	for (i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct fs_culprit *v = NULL;
		size_t n = fs_culprits_find(cases[i].body, strlen(cases[i].body), &v);
		char *got = render(v, n);

		if (strcmp(got, cases[i].want)) {
			print_error("case %zu: got '%s', want '%s'\n%s\n", i, got, cases[i].want,
				    cases[i].body);
			failed++;
		}
		g_free(got);
		fs_culprits_free(v, n);
	}
	assert_int_equal(failed, 0);
}

static void test_culprit_line(void **state)
{
	static const char body[] = "Hi,\n\nSince commit " ID12 " (\"usb: frob: add the frob\") my "
				   "keyboard\nno longer works.  Can you look?\n";
	struct fs_culprit *v = NULL;
	size_t n = fs_culprits_find(body, strlen(body), &v);

	assert_int_equal(n, 1);
	/* the sentence that says it, its lines joined */
	assert_string_equal(v[0].line, "Since commit " ID12 " (\"usb: frob: add the frob\") my "
				       "keyboard no longer works.");
	fs_culprits_free(v, n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_culprits),
		cmocka_unit_test(test_culprit_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
