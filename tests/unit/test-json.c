/* Unit tests for lib/base/json.c: the one-line JSON writer every command uses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fixscan/json.h"

static char *print(struct fs_json *j)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	assert_non_null(mem);
	assert_int_equal(fs_json_print_line(j, mem), 0);
	assert_int_equal(fclose(mem), 0);
	return buf;
}

static void test_document(void **state)
{
	struct fs_json *j = fs_json_new();
	char *got;

	fs_json_begin_object(j);
	fs_json_str(j, "s", "a \"quoted\"\tline\033");
	fs_json_str(j, "none", NULL);
	fs_json_int(j, "n", 42);
	fs_json_int(j, "unknown", -1);
	fs_json_bool(j, "b", true);
	fs_json_member(j, "list");
	fs_json_begin_array(j);
	fs_json_add_str(j, "x");
	fs_json_add_int(j, -7);
	fs_json_add_null(j);
	fs_json_begin_object(j);
	fs_json_bool(j, "f", false);
	fs_json_end_object(j);
	fs_json_end_array(j);
	fs_json_end_object(j);
	got = print(j);
	assert_string_equal(got, "{\"s\":\"a \\\"quoted\\\"\\tline\\u001b\",\"none\":null,"
				 "\"n\":42,\"unknown\":null,\"b\":true,"
				 "\"list\":[\"x\",-7,null,{\"f\":false}]}\n");
	free(got);

	/* Printing starts a new document. */
	fs_json_begin_array(j);
	fs_json_end_array(j);
	got = print(j);
	assert_string_equal(got, "[]\n");
	free(got);
	fs_json_free(j);
	fs_json_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_document),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
