/* fixscan: the mail reader (lib/mail/mail.c) on one message, or an mbox when
 * the input's first byte is odd (it is then dropped and a "From " line
 * put in front, so the fuzzer need not find one). */
#include "fuzz.h"
#include "fixscan/diffstat.h"
#include "fixscan/mail.h"
#include "fixscan/text.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_fatal_criticals();
	return 0;
}

static void touch(const struct fs_patch *p)
{
	const char *const *refs;
	size_t n, i, len;
	const char *body;

	(void)fs_patch_message_id(p);
	(void)strlen(fs_patch_subject(p));
	(void)strlen(fs_patch_title(p));
	fs_patch_from(p);
	fs_patch_author(p);
	fs_patch_date(p);
	fs_patch_time(p);
	fs_patch_in_reply_to(p);
	refs = fs_patch_references(p, &n);
	for (i = 0; i < n; i++)
		(void)strlen(refs[i]);
	fs_patch_to(p);
	fs_patch_cc(p);
	fs_patch_header(p, "X-KernelTest-Branch");
	fs_patch_series(p);
	body = fs_patch_body(p, &len);
	if (body && strlen(body) != len)
		abort(); /* the body is a C string of its length */
	if (body) {
		/* what the review reads of a body: its diffstat against its
		 * diff, whether it reads as text */
		struct fs_diffstat_gap g = FS_DIFFSTAT_GAP_INIT;

		fs_diffstat_gap(body, len, &g);
		if (g.missing > g.listed || (g.missing && !g.first_missing))
			abort();
		fs_diffstat_gap_clear(&g);
		(void)fs_text_reads_as_text(body, len);
	}
	fs_patch_trailers(p);
	fs_patch_revert_title(p);
	fs_patch_has_diff(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fs_mail_reader *r = NULL;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_patch *p;
	char path[64];
	int fd, mbox = size && (data[0] & 1), k = 0;

	fd = fuzz_file(mbox ? "From fuzz@example.org Thu Jan  1 00:00:00 1970\n" : NULL,
		       data + (size ? 1 : 0), size ? size - 1 : 0, path);
	if (fd < 0)
		return 0;
	if (fs_mail_reader_open(&r, path, &err) == 0) {
		while (k++ < 256 && fs_mail_reader_next(r, &p, &err) == 1) {
			touch(p);
			fs_patch_free(p);
		}
		fs_mail_reader_free(r);
	}
	close(fd);
	return 0;
}
