/* fixscan: writing messages into a maildir, and finding them again. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <glib.h>

#include "fixscan/atomic.h"
#include "fixscan/maildir.h"

/* The header block is read up to this many bytes: fixscan's own headers
 * come early, and a huge header block is nobody's draft. */
#define HEADERS_MAX 65536

static int make_dir(const char *path, const char *what, const char *dir,
		    struct fs_error *err)
{
	struct stat sb;

	if (mkdir(path, 0700) == 0)
		return 0;
	if (errno == EEXIST && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
		return 0;
	if (errno == EEXIST)
		errno = ENOTDIR;
	return fs_error_set(err, FS_EIO, "cannot create %s '%s': %s", what, dir,
			    strerror(errno));
}

int fs_maildir_create(const char *dir, const char *what, struct fs_error *err)
{
	static const char *const subs[] = { "cur", "new", "tmp" };
	size_t i;
	int rc;

	if (!what)
		what = "the maildir";
	if (g_mkdir_with_parents(dir, 0700) < 0)
		return fs_error_set(err, FS_EIO, "cannot create %s '%s': %s", what, dir,
				    strerror(errno));
	for (i = 0; i < G_N_ELEMENTS(subs); i++) {
		char *p = g_build_filename(dir, subs[i], NULL);

		rc = make_dir(p, what, dir, err);
		g_free(p);
		if (rc < 0)
			return rc;
	}
	return 0;
}

char *fs_maildir_unique_name(const char *label)
{
	static unsigned counter;
	char host[256] = "localhost";
	struct timeval tv;

	gettimeofday(&tv, NULL);
	if (gethostname(host, sizeof(host) - 1) < 0 || !host[0])
		strcpy(host, "localhost");
	host[sizeof(host) - 1] = '\0';
	/* '/' and ':' cannot be in a maildir name; maildir says \057, \072 */
	g_strdelimit(host, "/:", '_');
	return g_strdup_printf("%lld.M%06ldP%dQ%uR%08x%s%s.%s", (long long)tv.tv_sec,
			       (long)tv.tv_usec, (int)getpid(), ++counter, g_random_int(),
			       label ? "." : "", label ? label : "", host);
}

/* Write LEN bytes of TEXT to the new file TMP and fsync it.  On failure
 * TMP is gone and errno says why. */
static int write_tmp(const char *tmp, const char *text, size_t len)
{
	int fd, saved;

	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	if (fs_write_all(fd, text, len) < 0 || fsync(fd) < 0)
		goto fail;
	if (close(fd) < 0) {
		fd = -1;
		goto fail;
	}
	return 0;
fail:
	saved = errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	errno = saved;
	return -1;
}

int fs_maildir_write(char **path, const char *dir, const struct fs_maildir_msg *msg,
		     struct fs_error *err)
{
	const char *what = msg->what ? msg->what : "the message";
	bool cur = msg->box == FS_MAILDIR_CUR;
	char *name = fs_maildir_unique_name(msg->label);
	char *tmp = g_build_filename(dir, "tmp", name, NULL);
	char *box = g_build_filename(dir, cur ? "cur" : "new", NULL);
	char *dst = cur ? g_strdup_printf("%s/%s:2,%s", box, name, msg->flags ? msg->flags : "") :
		g_strdup_printf("%s/%s", box, name);
	int rc = 0, saved;

	*path = NULL;
	if (write_tmp(tmp, msg->text, msg->len) < 0) {
		rc = fs_error_set(err, FS_EIO, "cannot write %s in '%s': %s", what, tmp,
				  strerror(errno));
		goto out;
	}
	/* link() refuses to replace an existing file, which a rename would
	 * do silently; where links are not supported, a rename that refuses
	 * it too (RENAME_NOREPLACE), never a plain rename(). */
	if (link(tmp, dst) == 0) {
		unlink(tmp);
	} else if (errno == EEXIST ||
		   renameat2(AT_FDCWD, tmp, AT_FDCWD, dst, RENAME_NOREPLACE) < 0) {
		saved = errno;
		unlink(tmp);
		rc = fs_error_set(err, FS_EIO, "cannot move %s into '%s': %s", what, box,
				  strerror(saved));
		goto out;
	}
	/* The file is whole in BOX either way; a folder that cannot be
	 * synced is said, as a full disk is (the caller's record of what it
	 * meant to write finds the file again). */
	if (fs_fsync_dir(box) < 0) {
		rc = fs_error_set(err, FS_EIO, "cannot sync '%s' after moving %s into it: %s", box,
				  what, strerror(errno));
		goto out;
	}
	*path = dst;
	dst = NULL;
out:
	g_free(dst);
	g_free(box);
	g_free(tmp);
	g_free(name);
	return rc;
}

/* ---- scanning ---------------------------------------------------------- */

void fs_maildir_files_clear(struct fs_maildir_files *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->n; i++) {
		g_free(f->v[i].path);
		g_free(f->v[i].headers);
	}
	g_free(f->v);
	f->v = NULL;
	f->n = 0;
}

char *fs_maildir_header(const char *headers, const char *name)
{
	size_t nlen = strlen(name);
	const char *p = headers;

	while (p && *p) {
		const char *eol = strchr(p, '\n');

		if (!eol)
			eol = p + strlen(p);
		if (!g_ascii_strncasecmp(p, name, nlen) && p[nlen] == ':') {
			GString *v = g_string_new_len(p + nlen + 1, eol - p - nlen - 1);

			/* continuation lines */
			while (*eol == '\n' && (eol[1] == ' ' || eol[1] == '\t')) {
				const char *next = strchr(eol + 1, '\n');

				if (!next)
					next = eol + 1 + strlen(eol + 1);
				g_string_append_len(v, eol + 1, next - eol - 1);
				eol = next;
			}
			return g_strstrip(g_string_free(v, FALSE));
		}
		p = *eol ? eol + 1 : eol;
	}
	return NULL;
}

/* The header block of PATH (up to the first blank line, at most
 * HEADERS_MAX bytes read), CRs dropped.  New string or NULL. */
static char *read_headers(const char *path)
{
	char *buf = g_malloc(HEADERS_MAX + 1), *end, *w, *r;
	size_t got = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0) {
		g_free(buf);
		return NULL;
	}
	while (got < HEADERS_MAX && (n = read(fd, buf + got, HEADERS_MAX - got)) > 0)
		got += (size_t)n;
	close(fd);
	buf[got] = '\0';
	/* a CRLF file reads the same */
	for (r = w = buf; *r; r++)
		if (*r != '\r')
			*w++ = *r;
	*w = '\0';
	end = strstr(buf, "\n\n");
	if (end)
		end[1] = '\0';
	return buf;
}

void fs_maildir_scan(struct fs_maildir_files *out, const char *dir, const char *header,
		     const char *name_part)
{
	static const char *const subs[] = { "cur", "new" };
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(subs); i++) {
		char *sub = g_build_filename(dir, subs[i], NULL);
		DIR *d = opendir(sub);
		struct dirent *de;

		while (d && (de = readdir(d))) {
			char *path, *hdrs = NULL, *value = NULL;
			struct stat sb;

			if (de->d_name[0] == '.' || (name_part && !strstr(de->d_name, name_part)))
				continue;
			path = g_build_filename(sub, de->d_name, NULL);
			if (lstat(path, &sb) == 0 && S_ISREG(sb.st_mode) &&
			    (hdrs = read_headers(path)) && (value = fs_maildir_header(hdrs, header))) {
				out->v = g_renew(struct fs_maildir_file, out->v, out->n + 1);
				out->v[out->n].path = path;
				out->v[out->n].headers = hdrs;
				out->n++;
				path = hdrs = NULL;
			}
			g_free(value);
			g_free(hdrs);
			g_free(path);
		}
		if (d)
			closedir(d);
		g_free(sub);
	}
}

/* ---- one writer at a time ------------------------------------------------ */

int fs_maildir_lock(const char *dir, double wait, const char *what, struct fs_error *err)
{
	/* flock() on the directory itself: no lock file to leave behind or
	 * to find stale. */
	return fs_lock_take(dir, 0, wait, what ? what : "the maildir", err);
}

void fs_maildir_unlock(int fd)
{
	fs_lock_release(fd);
}

/* Whether NAME has the form fs_maildir_unique_name() gives on this host
 * HOST, from a process that no longer runs; *PID gets its process id. */
static bool dead_writers_name(const char *name, const char *host)
{
	unsigned long long secs, usecs, pid, count;
	unsigned rnd;
	int end = 0;
	const char *h;

	if (sscanf(name, "%llu.M%lluP%lluQ%lluR%8x%n", &secs, &usecs, &pid, &count, &rnd,
		   &end) != 5 || !end)
		return false;
	h = strrchr(name, '.');
	if (!h || strcmp(h + 1, host) || !pid || pid > INT32_MAX)
		return false;
	return kill((pid_t)pid, 0) < 0 && errno == ESRCH;
}

/* Whether ID starts with the prefix DATA. */
static bool id_has_prefix(const char *id, void *data)
{
	return g_str_has_prefix(id, data);
}

size_t fs_maildir_sweep_tmp(const char *dir, const char *id_prefix)
{
	return fs_maildir_sweep_tmp_by(dir, id_has_prefix, (void *)id_prefix);
}

size_t fs_maildir_sweep_tmp_by(const char *dir, bool (*ours)(const char *id, void *data),
			       void *data)
{
	char *tmp = g_build_filename(dir, "tmp", NULL), host[256] = "localhost";
	GDir *d = g_dir_open(tmp, 0, NULL);
	const char *name;
	size_t n = 0;

	if (gethostname(host, sizeof(host) - 1) < 0 || !host[0])
		strcpy(host, "localhost");
	host[sizeof(host) - 1] = '\0';
	g_strdelimit(host, "/:", '_');
	while (d && (name = g_dir_read_name(d))) {
		char *path, *headers, *id;

		if (!dead_writers_name(name, host))
			continue;
		path = g_build_filename(tmp, name, NULL);
		headers = read_headers(path);
		id = headers ? fs_maildir_header(headers, "Message-Id") : NULL;
		/* Only a file of ours: its Message-Id says so.  One torn
		 * before its Message-Id is ours too: no other writer names
		 * its files this way on this host. */
		if (id && *id == '<') {
			char *gt = strchr(id, '>');

			memmove(id, id + 1, strlen(id));
			if (gt)
				*(gt - 1) = '\0';
		}
		if (!id || ours(id, data))
			n += unlink(path) == 0;
		g_free(id);
		g_free(headers);
		g_free(path);
	}
	if (d)
		g_dir_close(d);
	g_free(tmp);
	return n;
}
