/* Unit tests for lib/thread.c: sorting the mails of a thread into series
 * and reading the branch, release and base from what they say.  The mails
 * are written to a temporary directory and parsed by the real reader. */
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "fixscan/mail.h"
#include "fixscan/thread.h"

static char tmpdir[256];
static int nfiles;

static struct fs_patch *mail(const char *text)
{
	struct fs_error err = FS_ERROR_INIT;
	struct fs_patch *p = NULL;
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/m%d.eml", tmpdir, nfiles++);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	if (fs_patch_parse_file(&p, path, &err) < 0)
		fail_msg("parse: %s", err.message);
	return p;
}

/* A thread of N mails given as texts. */
static struct fs_thread *thread_of(const char *const *texts, size_t n)
{
	struct fs_error err = FS_ERROR_INIT;
	struct fs_patch **v = calloc(n + 1, sizeof(*v));
	struct fs_thread *t = NULL;
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = mail(texts[i]);
	assert_int_equal(fs_thread_build(&t, v, n, &err), 0);
	free(v);
	return t;
}

#define COVER(subject, body) \
	"From: A <a@example.org>\nSubject: " subject "\nMessage-Id: <cover@x>\n\n" body "\n"
#define PATCH(subject, id) \
	"From: A <a@example.org>\nSubject: " subject "\nMessage-Id: <" id "@x>\n" \
	"In-Reply-To: <cover@x>\nReferences: <cover@x>\n\ncommit 1234567 upstream.\n"

/* A cover that names no release: no release, no base, the branch from
 * the subject; and it must come back (this once looped for ever). */
static void test_cover_without_release(void **state)
{
	const char *texts[] = {
		COVER("[PATCH 4.4 0/1] backport of the netfilter fix", "Please apply."),
		PATCH("[PATCH 4.4 1/1] netfilter: fix it", "p1"),
	};
	struct fs_thread *t = thread_of(texts, 2);
	const struct fs_thread_series *s;

	assert_int_equal(fs_thread_count(t), 1);
	s = fs_thread_get(t, 0);
	assert_null(s->release);
	assert_null(s->base);
	assert_string_equal(s->branch, "linux-4.4.y");
	assert_string_equal(s->branch_source, "subject");
	assert_int_equal(s->npatches, 1);
	fs_thread_free(t);
}

/* The release from the cover's subject when its text does not say. */
static void test_release_from_subject(void **state)
{
	const char *texts[] = {
		COVER("[PATCH 4.4 00/02] 4.4.11-stable review", "Hello."),
		PATCH("[PATCH 4.4 01/02] a: one", "p1"),
		PATCH("[PATCH 4.4 02/02] b: two", "p2"),
	};
	struct fs_thread *t = thread_of(texts, 3);
	const struct fs_thread_series *s = fs_thread_get(t, 0);

	assert_string_equal(s->release, "4.4.11");
	assert_string_equal(s->base, "v4.4.10");
	assert_string_equal(s->base_source, "cover letter");
	assert_int_equal(s->npatches, 2);
	assert_int_equal(s->nmissing, 0);
	fs_thread_free(t);
}

/* A release in the middle of a longer number is not taken. */
static void test_release_word_start(void **state)
{
	const char *texts[] = {
		COVER("[PATCH 3.14 00/01] build 13.14.11.2 notes", "Hello."),
		PATCH("[PATCH 3.14 01/01] a: one", "p1"),
	};
	struct fs_thread *t = thread_of(texts, 2);

	assert_null(fs_thread_get(t, 0)->release);
	fs_thread_free(t);
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(path);
}

static int setup(void **state)
{
	strcpy(tmpdir, "/tmp/fixscan-test-thread.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	if (tmpdir[0])
		nftw(tmpdir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cover_without_release),
		cmocka_unit_test(test_release_from_subject),
		cmocka_unit_test(test_release_word_start),
	};

	/* A parser that loops for ever fails here instead of hanging. */
	alarm(30);
	return cmocka_run_group_tests(tests, setup, teardown);
}
