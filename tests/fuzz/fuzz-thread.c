/* fixscan: sorting a thread (fs_thread_build) from the messages of an
 * mbox the input makes (a "From " line is put in front if it has none). */
#include "fuzz.h"
#include "fixscan/mail.h"
#include "fixscan/thread.h"

enum { MAX_MSGS = 64 };

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_fatal_criticals();
	return 0;
}

static void walk(const struct fs_thread *t)
{
	size_t i, j;

	for (i = 0; i < fs_thread_count(t); i++) {
		const struct fs_thread_series *s = fs_thread_get(t, i);
		for (j = 0; j < s->npatches; j++)
			(void)fs_patch_subject(s->patches[j]);
		for (j = 0; j < s->nreplies; j++)
			fs_thread_replied_patch(s, s->replies[j]);
		for (j = 0; j < s->nmissing; j++)
			if (s->missing[j] < 1 || (s->total > 0 && s->missing[j] > s->total))
				abort();
		g_free(fs_thread_base_of(s->release ? s->release : ""));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fs_mail_reader *r = NULL;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_patch *msgs[MAX_MSGS];
	struct fs_thread *t = NULL;
	size_t n = 0;
	char path[64];
	int fd;

	fd = fuzz_file(size >= 5 && !memcmp(data, "From ", 5) ? NULL :
		       "From fuzz@example.org Thu Jan  1 00:00:00 1970\n", data, size, path);
	if (fd < 0)
		return 0;
	if (fs_mail_reader_open(&r, path, &err) == 0) {
		while (n < MAX_MSGS && fs_mail_reader_next(r, &msgs[n], &err) == 1)
			n++;
		fs_mail_reader_free(r);
	}
	close(fd);
	/* The thread owns the patches, also on error. */
	if (fs_thread_build(&t, msgs, n, &err) == 0) {
		walk(t);
		fs_thread_free(t);
	}
	return 0;
}
