/* Unit tests for lib/base/resident.c: the resident set and its mapped
 * part, as the kernel counts them, move with what the process touches
 * and gives back. */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/resident.h"

#define MAPPED ((size_t)32 << 20)

/* A file of MAPPED bytes, mapped, read through, given back: the mapped
 * part of the resident set grows by about its size and falls again. */
static void test_mapped_pages(void **state)
{
	char path[] = "/tmp/fixscan-resident-XXXXXX";
	int fd = mkstemp(path);
	unsigned char *m;
	size_t before, touched, after, i;
	volatile unsigned sum = 0;

	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(ftruncate(fd, (off_t)MAPPED), 0);
	m = mmap(NULL, MAPPED, PROT_READ, MAP_PRIVATE, fd, 0);
	assert_true(m != MAP_FAILED);
	before = fs_resident_mapped();
	assert_true(before > 0); /* the program's own text at least */
	for (i = 0; i < MAPPED; i += 4096)
		sum += m[i];
	touched = fs_resident_mapped();
	assert_true(touched >= before + MAPPED * 3 / 4);
	assert_true(fs_resident_bytes() >= touched);
	madvise(m, MAPPED, MADV_DONTNEED);
	after = fs_resident_mapped();
	assert_true(after + MAPPED * 3 / 4 <= touched);
	munmap(m, MAPPED);
	close(fd);
	(void)sum;
}

/* Heap written is resident but not mapped. */
static void test_heap_not_mapped(void **state)
{
	size_t before = fs_resident_bytes(), mapped = fs_resident_mapped();
	unsigned char *p = malloc(MAPPED);

	assert_non_null(p);
	memset(p, 1, MAPPED);
	assert_true(fs_resident_bytes() >= before + MAPPED * 3 / 4);
	assert_true(fs_resident_mapped() < mapped + MAPPED / 4);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mapped_pages),
		cmocka_unit_test(test_heap_not_mapped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
