/* Unit tests for lib/base/text.c: control characters shown visibly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <glib.h>

#include "fixscan/text.h"

static void expect(const char *in, bool keep_newlines, const char *want)
{
	char *got = fs_text_visible(in, keep_newlines);

	assert_non_null(got);
	assert_string_equal(got, want);
	assert_int_equal(fs_text_needs_escaping(in, keep_newlines), strcmp(in ? in : "", want) != 0);
	g_free(got);
}

static void test_visible(void **state)
{
	expect("plain text, caf\xc3\xa9", false, "plain text, caf\xc3\xa9");
	expect(NULL, false, "");
	expect("title\033]0;owned\007", false, "title^[]0;owned^G");
	expect("\033[2J\033[H", true, "^[[2J^[[H");
	expect("a\tb", false, "a\tb");
	expect("a\nb\r", false, "a^Jb^M");
	expect("a\nb\r", true, "a\nb^M");
	expect("del\x7f", false, "del^?");
	/* C1 controls in UTF-8: CSI (U+009B) acts like ESC [ on some terminals. */
	expect("x\xc2\x9b" "2J", false, "x<U+009B>2J");
	expect("\xc2\xa0nbsp stays", false, "\xc2\xa0nbsp stays");
	/* Bytes that are no UTF-8 (a Latin-1 file name, a cut sequence). */
	expect("a\x80" "b.mbox", false, "a\\x80b.mbox");
	expect("caf\xe9", false, "caf\\xE9");
	expect("cut \xe2\x82", false, "cut \\xE2\\x82");
	expect("\xe2\x82\xac euro, \xf0\x9f\x90\xa7 too", false, "\xe2\x82\xac euro, \xf0\x9f\x90\xa7 too");
}

static void test_fputs(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	assert_non_null(mem);
	assert_int_equal(fs_text_fputs("ok ", false, mem), 0);
	assert_int_equal(fs_text_fputs("bell\007\n", true, mem), 0);
	assert_int_equal(fclose(mem), 0);
	assert_string_equal(buf, "ok bell^G\n");
	free(buf);
}

static void clean(const char *in, const char *want)
{
	char *got = fs_text_clean_line(in);

	assert_string_equal(got, want);
	g_free(got);
}

/* One line for a header: escape sequences leave nothing behind (not
 * "[31m"), other controls are spaces, spaces are single. */
static void test_clean_line(void **state)
{
	clean(NULL, "");
	clean("  a\r\n  b\t", "a b");
	clean("\033[31mred\033[0m alert", "red alert");
	clean("x\033[1;31;40my", "xy");
	clean("\033[2J\033[Hcleared", "cleared");
	clean("title\033]0;owned\007 after", "title after");
	clean("link \033]8;;http://x\033\\text\033]8;;\033\\ end", "link text end");
	clean("cut \033[", "cut");
	clean("open osc \033]0;never ends", "open osc");
	/* C1: CSI as one sequence, another C1 a space */
	clean("a\xc2\x9b" "2Jb", "ab");
	clean("a\xc2\x85" "b", "a b");
	/* ESC not starting a sequence: a space, the rest kept */
	clean("a\033b", "a b");
	clean("caf\xc3\xa9 \xc2\xa0ok", "caf\xc3\xa9 \xc2\xa0ok");
}

/* A body: lines and tabs kept, sequences gone whole, other controls
 * gone (not spaces: the text around them is the mail's). */
static void test_clean_body(void **state)
{
	char *got = fs_text_clean_body("a\tb\r\n\033[31mred\033[0m\n\033]0;t\007x\x01y\xc2\x85z\n");

	assert_string_equal(got, "a\tb\nred\nxyz\n");
	g_free(got);
	got = fs_text_clean_body(NULL);
	assert_string_equal(got, "");
	g_free(got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_visible),
		cmocka_unit_test(test_fputs),
		cmocka_unit_test(test_clean_line),
		cmocka_unit_test(test_clean_body),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
