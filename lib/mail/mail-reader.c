/* fixscan: reading mail files: a single message, an mbox (mboxo or
 * mboxrd), gzip'd or not, a pipe or standard input.
 *
 * A reader owns one GMimeParser over one stream.  Each fs_mail_reader_next()
 * builds one GMimeMessage, copies out what fixscan needs into a plain
 * struct fs_patch (mail.c) and drops the message again, so an mbox of any
 * size costs the memory of its largest message.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gmime/gmime.h>

#include "base/gunzip.h"
#include "fixscan/mail.h"
#include "mail-private.h"

/* How many bytes decide between mbox and a single message. */
#define MBOX_MAGIC "From "
#define MBOX_MAGIC_LEN 5

struct fs_mail_reader {
	char *path;          /* as given, for messages */
	GMimeStream *stream; /* owned; closes the fd unless it is stdin */
	GMimeParser *parser; /* owned */
	bool mbox;
	bool empty;          /* the input has no bytes at all */
	bool done;           /* no more messages (end, or after an error) */
	int count;           /* messages returned so far */
};

/* ---- reader ---------------------------------------------------------------- */

/* Read up to N bytes, retrying short reads (pipes deliver in pieces). */
static ssize_t read_full(int fd, char *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, buf + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += r;
	}
	return got;
}

/* A gzip'd input (by its first bytes) is read from an uncompressed copy:
 * *FD becomes that file's (*FD itself closed unless it is stdin, which
 * the copy then stands for: *IS_STDIN becomes false so the copy is
 * closed with the reader), *ST its status.  MAGIC is scratch space of
 * MBOX_MAGIC_LEN bytes.  Returns 0 (also for input that is not gzip'd,
 * untouched) or a negative code with ERR set, *FD closed. */
static int gunzip_if_gzip(int *fd, bool *is_stdin, struct stat *st, char *magic,
			  const char *path, struct fs_error *err)
{
	ssize_t got;
	off_t start = 0;
	int copy;

	if (S_ISREG(st->st_mode)) {
		start = lseek(*fd, 0, SEEK_CUR);
		if (start < 0)
			start = 0;
		got = pread(*fd, magic, MBOX_MAGIC_LEN, start);
	} else {
		/* A pipe cannot seek back: the caller peeks, and calls
		 * gunzip_pipe() on what it peeked. */
		return 0;
	}
	if (got < 0 || !fs_gunzip_magic((const unsigned char *)magic, (size_t)got))
		return 0;
	copy = fs_gunzip_fd(*fd, NULL, 0, path, err);
	if (!*is_stdin)
		close(*fd);
	if (copy < 0)
		return copy;
	*fd = copy;
	*is_stdin = false;
	return fstat(copy, st) < 0 ? fs_error_set(err, FS_EIO, "cannot read '%s': %s", path,
						 strerror(errno)) : 0;
}

/* Whether the pipe FD, opened as PATH with status ST, was handed to the
 * command rather than named on disk: it is standard input by another
 * name (/dev/stdin), or a /dev/fd/N or /proc/self/fd/N (a shell's
 * process substitution).  A FIFO with a name in a file system is not:
 * it would wait for a writer that may never come. */
static bool handed_pipe(const char *path, const struct stat *st)
{
	struct stat in;

	if (fstat(STDIN_FILENO, &in) == 0 && in.st_dev == st->st_dev && in.st_ino == st->st_ino)
		return true;
	return g_str_has_prefix(path, "/dev/fd/") || g_str_has_prefix(path, "/proc/self/fd/");
}

int fs_mail_reader_open(struct fs_mail_reader **out, const char *path,
			struct fs_error *err)
{
	struct fs_mail_reader *r;
	bool is_stdin = !strcmp(path, "-");
	char magic[MBOX_MAGIC_LEN];
	ssize_t got;
	struct stat st;
	int fd;

	fsm_mail_init();
	/* Non-blocking: a FIFO named as a file must not hang the command
	 * (it is refused below; a pipe on standard input is fine). */
	fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return fs_error_set(err, FS_EIO, "cannot open '%s': %s", path,
				    strerror(errno));
	if (fstat(fd, &st) < 0) {
		int e = errno;

		if (!is_stdin)
			close(fd);
		return fs_error_set(err, FS_EIO, "cannot open '%s': %s", path,
				    strerror(e));
	}
	if (S_ISDIR(st.st_mode)) {
		if (!is_stdin)
			close(fd);
		return fs_error_set(err, FS_EIO, "'%s' is a directory", path);
	}
	if (!is_stdin && S_ISFIFO(st.st_mode) && handed_pipe(path, &st)) {
		/* A pipe handed over by name is read like standard input:
		 * waiting for its writer is what the caller asked for. */
		int fl = fcntl(fd, F_GETFL);

		if (fl >= 0)
			fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	} else if (!is_stdin && !S_ISREG(st.st_mode)) {
		close(fd);
		return fs_error_set(err, FS_EIO, "'%s' is not a regular file", path);
	}

	r = g_new0(struct fs_mail_reader, 1);
	r->path = g_strdup(path);

	if (gunzip_if_gzip(&fd, &is_stdin, &st, magic, path, err) < 0) {
		g_free(r->path);
		g_free(r);
		return err ? err->code : FS_EPARSE;
	}
	if (S_ISREG(st.st_mode)) {
		/* A file (or stdin redirected from one): peek without moving
		 * and let GMime read from where the caller's offset is. */
		off_t start = lseek(fd, 0, SEEK_CUR);

		if (start < 0)
			start = 0;
		got = pread(fd, magic, sizeof(magic), start);
		if (got < 0)
			goto read_error;
		r->stream = g_mime_stream_fs_new_with_bounds(fd, start, -1);
		g_mime_stream_fs_set_owner(GMIME_STREAM_FS(r->stream), !is_stdin);
	} else {
		/* A pipe cannot seek back, and GMime's parser seeks: the
		 * peeked bytes and the rest go into a temporary file (a
		 * concatenation stream of the two seeks its pipe and fails
		 * after the first reads). */
		int copy;

		got = read_full(fd, magic, sizeof(magic));
		if (got < 0)
			goto read_error;
		if (fs_gunzip_magic((const unsigned char *)magic, (size_t)got))
			copy = fs_gunzip_fd(fd, (const unsigned char *)magic, (size_t)got, path, err);
		else
			copy = fs_spool_fd(fd, (const unsigned char *)magic, (size_t)got, path, err);
		if (!is_stdin)
			close(fd);
		if (copy < 0) {
			g_free(r->path);
			g_free(r);
			return copy;
		}
		got = pread(copy, magic, sizeof(magic), 0);
		r->stream = g_mime_stream_fs_new(copy);
		if (got < 0)
			got = 0;
	}

	r->empty = got == 0;
	r->mbox = got == MBOX_MAGIC_LEN && !memcmp(magic, MBOX_MAGIC, MBOX_MAGIC_LEN);
	r->parser = g_mime_parser_new_with_stream(r->stream);
	g_mime_parser_set_format(r->parser, r->mbox ? GMIME_FORMAT_MBOX
						    : GMIME_FORMAT_MESSAGE);
	/* Load each message into memory rather than keep offsets into the
	 * stream: the message is dropped right after it is copied, and the
	 * parser's own position stays the only user of the fd. */
	g_mime_parser_set_persist_stream(r->parser, FALSE);
	*out = r;
	return 0;

read_error:
	{
		int e = errno;

		if (!is_stdin)
			close(fd);
		g_free(r->path);
		g_free(r);
		if (e == EISDIR)
			return fs_error_set(err, FS_EIO, "'%s' is a directory", path);
		return fs_error_set(err, FS_EIO, "cannot read '%s': %s", path,
				    strerror(e));
	}
}

/* ERR is about the message numbered N (from 2) of the mbox PATH: where
 * it names 'PATH', it names 'PATH' (message N), so that a bad second
 * message is not taken for the first. */
static void name_message(struct fs_error *err, const char *path, size_t n)
{
	char *quoted = g_strdup_printf("'%s'", path), *at = strstr(err->message, quoted);
	char *msg;

	if (at) {
		msg = g_strdup_printf("%.*s%s (message %zu)%s", (int)(at - err->message), err->message,
				      quoted, n, at + strlen(quoted));
		g_strlcpy(err->message, msg, sizeof(err->message));
		g_free(msg);
	}
	g_free(quoted);
}

int fs_mail_reader_next(struct fs_mail_reader *r, struct fs_patch **out,
			struct fs_error *err)
{
	GMimeMessage *msg;
	int rc;

	*out = NULL;
	if (r->done)
		return 0;
	if (r->empty) {
		r->done = true;
		return fs_error_set(err, FS_EPARSE,
				    "not a mail message: '%s' is empty", r->path);
	}
	if (!r->mbox && r->count > 0) {
		r->done = true;
		return 0;
	}
	msg = g_mime_parser_construct_message(r->parser, NULL);
	if (!msg) {
		r->done = true;
		if (r->count > 0 && r->mbox && !g_mime_parser_eos(r->parser))
			return fs_error_set(err, FS_EPARSE, "not a mail message: '%s' (message %zu) "
					    "cannot be read", r->path, (size_t)r->count + 1);
		if (r->count > 0)
			return 0;
		return fs_error_set(err, FS_EPARSE,
				    "not a mail message: '%s' has no headers",
				    r->path);
	}
	rc = fsm_patch_from_message(out, r->path, msg, r->mbox, err);
	g_object_unref(msg);
	if (rc < 0) {
		r->done = true;
		if (r->mbox && r->count > 0 && err)
			name_message(err, r->path, (size_t)r->count + 1);
		return rc;
	}
	r->count++;
	return 1;
}

void fs_mail_reader_free(struct fs_mail_reader *r)
{
	if (!r)
		return;
	if (r->parser)
		g_object_unref(r->parser);
	if (r->stream)
		g_object_unref(r->stream);
	g_free(r->path);
	g_free(r);
}

int fs_patch_parse_file(struct fs_patch **out, const char *path,
			struct fs_error *err)
{
	struct fs_mail_reader *r;
	int rc;

	*out = NULL;
	rc = fs_mail_reader_open(&r, path, err);
	if (rc < 0)
		return rc;
	rc = fs_mail_reader_next(r, out, err);
	fs_mail_reader_free(r);
	if (rc == 0)
		return fs_error_set(err, FS_EPARSE,
				    "not a mail message: '%s' has no headers", path);
	return rc < 0 ? rc : 0;
}
