/* fixscan: the mbox reader (lib/mail/mail.c, lib/base/gunzip.c) on a whole mbox,
 * as mboxo or mboxrd text, gzip'd by the harness, or as raw bytes after
 * a gzip magic (a corrupt or truncated gzip file).  The first byte picks
 * the form; a "From " line is put in front of the text forms so the
 * fuzzer need not find one.  Every message read must be whole. */
#include <zlib.h>

#include "fuzz.h"
#include "fixscan/mail.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_fatal_criticals();
	return 0;
}

static const char from_line[] = "From fuzz@example.org Thu Jan  1 00:00:00 1970\n";

/* DATA (SIZE bytes) after the From line, gzip'd into *OUT. */
static size_t gzip_mbox(const uint8_t *data, size_t size, uint8_t **out)
{
	z_stream z;
	size_t cap = compressBound(size + sizeof(from_line)) + 64, n = 0;

	memset(&z, 0, sizeof(z));
	*out = malloc(cap);
	if (!*out || deflateInit2(&z, 1, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return 0;
	z.next_out = *out;
	z.avail_out = (uInt)cap;
	z.next_in = (Bytef *)from_line;
	z.avail_in = sizeof(from_line) - 1;
	deflate(&z, Z_NO_FLUSH);
	z.next_in = (Bytef *)data;
	z.avail_in = (uInt)size;
	if (deflate(&z, Z_FINISH) == Z_STREAM_END)
		n = cap - z.avail_out;
	deflateEnd(&z);
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fs_mail_reader *r = NULL;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_patch *p;
	uint8_t *gz = NULL;
	char path[64];
	int fd = -1, mode = size ? data[0] % 3 : 0, k = 0;
	size_t len, n;

	if (size) {
		data++;
		size--;
	}
	if (mode == 0) {
		fd = fuzz_file(from_line, data, size, path);
	} else if (mode == 1) {
		n = gzip_mbox(data, size, &gz);
		if (n)
			fd = fuzz_file(NULL, gz, n, path);
	} else {
		fd = fuzz_file("\x1f\x8b\x08", data, size, path);
	}
	free(gz);
	if (fd < 0)
		return 0;
	if (fs_mail_reader_open(&r, path, &err) == 0) {
		while (k++ < 256 && fs_mail_reader_next(r, &p, &err) == 1) {
			const char *body = fs_patch_body(p, &len);

			if (body && strlen(body) != len)
				abort(); /* the body is a C string of its length */
			(void)fs_patch_message_id(p);
			(void)strlen(fs_patch_subject(p));
			fs_patch_free(p);
		}
		fs_mail_reader_free(r);
	}
	if (err.code && !err.message[0])
		abort(); /* an error always says what */
	close(fd);
	return 0;
}
