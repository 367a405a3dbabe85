/* fixscan: reading gzip'd mail with zlib.
 *
 * The mail reader wants a file it can hand to GMime; a gzip'd mbox is
 * uncompressed once into an unlinked temporary file (memory stays
 * bounded whatever the size), with zlib's own checks: a corrupt or
 * truncated file is an error, not a shorter thread.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>
#include <zlib.h>

#include "fixscan/atomic.h"
#include "gunzip.h"

#define CHUNK 65536

bool fs_gunzip_magic(const unsigned char *head, size_t n)
{
	return n >= 3 && head[0] == 0x1f && head[1] == 0x8b && head[2] == 8;
}

/* An unlinked file in the temporary directory, or -1 with errno set. */
static int temp_fd(void)
{
	const char *dir = g_get_tmp_dir();
	char *path;
	int fd;

	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
		return fd;
	path = g_build_filename(dir, "fixscan-gunzip-XXXXXX", NULL);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd >= 0)
		unlink(path);
	g_free(path);
	return fd;
}

/* More input for Z from HEAD first, then FD: 1, 0 at the end, -1 on a
 * read error. */
static int refill(z_stream *z, int fd, const unsigned char **head, size_t *nhead,
		  unsigned char *buf)
{
	ssize_t got;

	if (*nhead) {
		z->next_in = (unsigned char *)*head;
		z->avail_in = (uInt)*nhead;
		*nhead = 0;
		return 1;
	}
	do
		got = read(fd, buf, CHUNK);
	while (got < 0 && errno == EINTR);
	if (got <= 0)
		return got < 0 ? -1 : 0;
	z->next_in = buf;
	z->avail_in = (uInt)got;
	return 1;
}

/* Inflate everything from FD into OUT; a gzip file may hold several
 * members one after the other (cat a.gz b.gz). */
static int inflate_all(z_stream *z, int fd, const unsigned char *head, size_t nhead,
		       int out, const char *name, struct fs_error *err)
{
	unsigned char *in = malloc(CHUNK), *buf = malloc(CHUNK);
	long long total = 0;
	bool in_member = true;
	int zr = Z_OK, rc = 0, more;

	if (!in || !buf) {
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
		goto out;
	}
	for (;;) {
		if (!z->avail_in) {
			more = refill(z, fd, &head, &nhead, in);
			if (more < 0) {
				rc = fs_error_set(err, FS_EIO, "cannot read '%s': %s", name,
						  strerror(errno));
				goto out;
			}
			if (!more)
				break;
		}
		if (!in_member) {
			/* Another member follows the last one. */
			if (inflateReset(z) != Z_OK)
				break;
			in_member = true;
		}
		z->next_out = buf;
		z->avail_out = CHUNK;
		zr = inflate(z, Z_NO_FLUSH);
		if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR) {
			rc = fs_error_set(err, FS_EPARSE, "'%s': corrupt gzip data%s%s", name,
					  z->msg ? ": " : "", z->msg ? z->msg : "");
			goto out;
		}
		total += CHUNK - z->avail_out;
		if (total > FS_GUNZIP_MAX) {
			rc = fs_error_set(err, FS_EPARSE, "'%s': more than %lld MiB uncompressed",
					  name, FS_GUNZIP_MAX >> 20);
			goto out;
		}
		if (fs_write_all(out, buf, CHUNK - z->avail_out) < 0) {
			rc = fs_error_set(err, FS_EIO, "cannot uncompress '%s' into a temporary file "
					  "in '%s': %s", name, g_get_tmp_dir(), strerror(errno));
			goto out;
		}
		if (zr == Z_STREAM_END)
			in_member = false;
	}
	if (in_member)
		rc = fs_error_set(err, FS_EPARSE, "'%s': truncated gzip data", name);
out:
	free(in);
	free(buf);
	return rc;
}

/* A write of the spooled copy of NAME failed (errno says why). */
static int spool_error(const char *name, struct fs_error *err)
{
	return fs_error_set(err, FS_EIO, "cannot read '%s': cannot copy it to a temporary file "
			    "in '%s': %s", name, g_get_tmp_dir(), strerror(errno));
}

int fs_spool_fd(int fd, const unsigned char *head, size_t nhead, const char *name,
		struct fs_error *err)
{
	unsigned char *buf = malloc(CHUNK);
	long long total = (long long)nhead;
	int out = temp_fd(), rc = 0;
	ssize_t got;

	if (out < 0 || !buf) {
		rc = fs_error_set(err, FS_EIO, "cannot read '%s': no temporary file: %s", name,
				  strerror(errno));
		goto out;
	}
	if (nhead && fs_write_all(out, head, nhead) < 0)
		rc = spool_error(name, err);
	while (rc == 0) {
		got = read(fd, buf, CHUNK);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			if (got < 0)
				rc = fs_error_set(err, FS_EIO, "cannot read '%s': %s", name,
						  strerror(errno));
			break;
		}
		total += got;
		if (total > FS_GUNZIP_MAX)
			rc = fs_error_set(err, FS_EPARSE, "'%s': more than %lld MiB", name,
					  FS_GUNZIP_MAX >> 20);
		else if (fs_write_all(out, buf, (size_t)got) < 0)
			rc = spool_error(name, err);
	}
	if (rc == 0 && lseek(out, 0, SEEK_SET) < 0)
		rc = fs_error_set(err, FS_EIO, "cannot read '%s': %s", name, strerror(errno));
out:
	free(buf);
	if (rc < 0 && out >= 0)
		close(out);
	return rc < 0 ? rc : out;
}

int fs_gunzip_fd(int fd, const unsigned char *head, size_t nhead, const char *name,
		 struct fs_error *err)
{
	z_stream z;
	int out, rc;

	memset(&z, 0, sizeof(z));
	/* 16 + MAX_WBITS: a gzip header and trailer, checked. */
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	out = temp_fd();
	if (out < 0) {
		rc = fs_error_set(err, FS_EIO, "cannot uncompress '%s': no temporary file: %s",
				  name, strerror(errno));
		inflateEnd(&z);
		return rc;
	}
	rc = inflate_all(&z, fd, head, nhead, out, name, err);
	inflateEnd(&z);
	if (rc == 0 && lseek(out, 0, SEEK_SET) < 0)
		rc = fs_error_set(err, FS_EIO, "cannot uncompress '%s': %s", name,
				  strerror(errno));
	if (rc < 0) {
		close(out);
		return rc;
	}
	return out;
}
