/* Unit tests for lib/base/hash.c: 64-bit FNV-1a.  The fixes index keeps
 * these hashes on disk and names cache files by them: the published test
 * vectors of FNV-1a pin the function down, so that no change of it can
 * go unseen. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/hash.h"

static const struct {
	const char *s;
	uint64_t h;
} vectors[] = {
	{ "", 0xcbf29ce484222325ull },
	{ "a", 0xaf63dc4c8601ec8cull },
	{ "b", 0xaf63df4c8601f1a5ull },
	{ "foobar", 0x85944171f73967e8ull },
	{ "chongo was here!\n", 0x46810940eff5f915ull },
};

static void test_vectors(void **state)
{
	size_t i;

	for (i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++) {
		assert_true(fs_fnv1a_str(vectors[i].s) == vectors[i].h);
		assert_true(fs_fnv1a(FS_FNV1A_BASIS, vectors[i].s, strlen(vectors[i].s)) ==
			    vectors[i].h);
	}
}

/* In pieces, byte by byte, or with bytes that are not text: one hash. */
static void test_pieces(void **state)
{
	static const unsigned char bin[] = { 0, 0xff, 0x80, 'x', 0 };
	const char *s = "refs/tags/v4.4";
	uint64_t h = FS_FNV1A_BASIS;
	size_t i;

	for (i = 0; s[i]; i++)
		h = fs_fnv1a_byte(h, (unsigned char)s[i]);
	assert_true(h == fs_fnv1a_str(s));
	assert_true(fs_fnv1a(fs_fnv1a(FS_FNV1A_BASIS, s, 5), s + 5, strlen(s) - 5) == h);
	/* the NUL counts when it is given */
	assert_true(fs_fnv1a(FS_FNV1A_BASIS, s, strlen(s) + 1) != h);
	assert_true(fs_fnv1a(FS_FNV1A_BASIS, bin, sizeof(bin)) ==
		    fs_fnv1a(fs_fnv1a(FS_FNV1A_BASIS, bin, 2), bin + 2, 3));
	assert_true(fs_fnv1a(h, NULL, 0) == h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_pieces),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
