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

/* What reads as text: prose, a diff, UTF-8 words; not a body decoded
 * from base64 that was none, base64 left undecoded, NUL bytes. */
/* NAME and ADDR of FROM as fs_text_split_mailbox() gives them. */
static void assert_split(const char *from, const char *name, const char *addr)
{
	char *n, *a;

	fs_text_split_mailbox(from, &n, &a);
	assert_string_equal(n, name);
	assert_string_equal(a, addr);
	g_free(n);
	g_free(a);
}

/* A From's name and address: a bare address has no name, a quoted name
 * loses its quotes, control characters go. */
static void test_split_mailbox(void **state)
{
	assert_split("Greta Kroll <greta@example.org>", "Greta Kroll", "greta@example.org");
	assert_split("\"Kroll, Greta\" <greta@example.org>", "Kroll, Greta", "greta@example.org");
	assert_split("greta@example.org", "", "greta@example.org");
	assert_split("Gre\033[31mta <g@x>", "Greta", "g@x");
	assert_split(NULL, "", "");
}

/* The name to call a sender by: the name, else the address, else the
 * word given. */
static void test_display_name(void **state)
{
	char *n;

	assert_string_equal((n = fs_text_display_name("Greta Kroll <g@x>", "you")), "Greta Kroll");
	g_free(n);
	assert_string_equal((n = fs_text_display_name("<g@x>", "you")), "g@x");
	g_free(n);
	assert_string_equal((n = fs_text_display_name(NULL, "a stable maintainer")), "a stable maintainer");
	g_free(n);
}

static void test_reads_as_text(void **state)
{
	const char *prose = "commit 00c364bda47390d30a8e52fd90e711212b6d4116 upstream.\n\n"
			    "Flush the instruction cache only for executable mappings; the rest\n"
			    "never run code, and the flush costs a lot on big machines.\n\n"
			    "Signed-off-by: Kai S\xc3\xb8rensen <kai@example.dk>\n---\n"
			    " arch/arm64/mm/flush.c | 2 +-\n";
	const char *b64 = "NC40LXN0YWJsZSByZXZpZXcgcGF0Y2guICBJZiBhbnlvbmUgaGFzIGFueSBvYmplY3Rpb25zLCBw\n"
			  "bGVhc2UgbGV0IG1lIGtub3cuCgotLS0tLS0tLS0tLS0tLS0tLS0KCkZyb206IEd1c3Rhdm8gUmli\n"
			  "ZWlybyA8Z3JpYmVpcm9AZXhhbXBsZS5jb20+Cgpjb21taXQgNTg5MTEwZTcxNGJjYWU1MWNjOWY2\n";
	char garbage[300];
	size_t i;

	for (i = 0; i < sizeof(garbage); i++)
		garbage[i] = (char)(0x80 + (i * 37) % 120);
	assert_true(fs_text_reads_as_text(prose, strlen(prose)));
	assert_true(fs_text_reads_as_text("", 0));
	assert_true(fs_text_reads_as_text(NULL, 0));
	/* one control byte in a short line is too many */
	assert_false(fs_text_reads_as_text("short\x01", 6));
	assert_false(fs_text_reads_as_text(b64, strlen(b64)));
	assert_false(fs_text_reads_as_text(garbage, sizeof(garbage)));
	assert_false(fs_text_reads_as_text("a\0b", 3));
	/* one huge token among words is odd, not unreadable */
	{
		GString *t = g_string_new("commit ");
		size_t k;

		for (k = 0; k < 2000; k++)
			g_string_append_c(t, 'a');
		g_string_append(t, " upstream.\n\nFixes: the thing that broke it all along.\n");
		assert_true(fs_text_reads_as_text(t->str, t->len));
		g_string_free(t, TRUE);
	}
	/* base64 decoded from text that was none, each byte made Latin-1 */
	assert_false(fs_text_reads_as_text("\xc3\xa3\xc2\x8b-i\xc2\xb9^\xc2\xad\xc3\xab\xc3\xa2{\nZ\xc2\xb5\xc3\x88H}"
					   "\xc2\xa9\xc3\xb2\xc2\xa2w\xc2\xa1j\xc3\x86\xc2\xa7\xc3\x8a", 49));
	/* a line of words with accents and a long name reads */
	{
		const char *name = "Reported-by: J\xc3\xb6rg M\xc3\xbcller-L\xc3\xbc" "denscheidt <joerg@example.de>";

		assert_true(fs_text_reads_as_text(name, strlen(name)));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_visible),
		cmocka_unit_test(test_fputs),
		cmocka_unit_test(test_clean_line),
		cmocka_unit_test(test_clean_body),
		cmocka_unit_test(test_reads_as_text),
		cmocka_unit_test(test_split_mailbox),
		cmocka_unit_test(test_display_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
