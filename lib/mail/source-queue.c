/* fixscan: a stable-queue directory as a series.
 *
 * The stable maintainers keep each branch's next release as a quilt
 * queue, "queue-4.4/": a "series" file naming the patch files in the
 * order they apply, each file a mail (From:, Subject:, maybe Date:) with
 * the changelog and its upstream line.  The patches become one series,
 * numbered in series-file order, for the same review as a thread.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <glib.h>

#include "fixscan/mail.h"
#include "fixscan/source.h"
#include "fixscan/version.h"
#include "source-queue.h"

/* A series file is a list of names: anything bigger is not one. */
#define SERIES_MAX (4 << 20)
/* Longer than any patch file name. */
#define NAME_MAX_LEN 1024

char *fs_source_queue_version(const char *dir)
{
	char *base = g_path_get_basename(dir), *v = NULL;
	struct fs_version series;

	if (!strncmp(base, "queue-", 6) && fs_version_parse(base + 6, &series) &&
	    fs_version_is_series(&series))
		v = g_strdup(base + 6);
	g_free(base);
	return v;
}

/* Whether NAME reaches outside the directory: absolute, or with a ".."
 * component. */
static bool outside(const char *name)
{
	const char *p = name;

	if (*name == '/')
		return true;
	while (p) {
		if (p[0] == '.' && p[1] == '.' && (p[2] == '/' || !p[2]))
			return true;
		p = strchr(p, '/');
		if (p)
			p++;
	}
	return false;
}

/* The name on the line L (N bytes, no newline), or NULL for a blank or
 * comment line; *BAD says why a line is no name. */
static char *line_name(const char *l, size_t n, const char **bad)
{
	size_t i, s, e;

	*bad = NULL;
	for (i = 0; i < n; i++)
		if (((unsigned char)l[i] < 0x20 && l[i] != '\t' && l[i] != '\r') || l[i] == 0x7f) {
			*bad = "a control character";
			return NULL;
		}
	for (s = 0; s < n && (l[s] == ' ' || l[s] == '\t' || l[s] == '\r'); s++)
		;
	if (s == n || l[s] == '#')
		return NULL;
	for (e = s; e < n && l[e] != ' ' && l[e] != '\t' && l[e] != '\r'; e++)
		;
	if (l[s] == '-') {
		*bad = "an option where the patch name should be";
		return NULL;
	}
	if (e - s > NAME_MAX_LEN) {
		*bad = "a name too long for a patch file";
		return NULL;
	}
	return g_strndup(l + s, e - s);
}

int fs_source_queue_names(char ***out, size_t *n, const char *text, size_t len,
			  const char *name, struct fs_error *err)
{
	GPtrArray *v = g_ptr_array_new_with_free_func(g_free);
	GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
	const char *p = text, *end = text + len, *bad;
	size_t line = 0;
	int rc = 0;

	*out = NULL;
	*n = 0;
	while (p < end && rc == 0) {
		const char *nl = memchr(p, '\n', end - p), *e = nl ? nl : end;
		char *one = line_name(p, e - p, &bad);

		line++;
		p = e + 1;
		if (bad)
			rc = fs_error_set(err, FS_EPARSE, "'%s' line %zu: %s, not a patch name",
					  name, line, bad);
		else if (one && outside(one))
			rc = fs_error_set(err, FS_EPARSE,
					  "'%s' line %zu: '%s' is outside the queue directory",
					  name, line, one);
		else if (one && g_hash_table_contains(seen, one))
			rc = fs_error_set(err, FS_EPARSE, "'%s' line %zu: '%s' is listed twice",
					  name, line, one);
		if (!one)
			continue;
		if (rc < 0) {
			g_free(one);
			break;
		}
		g_ptr_array_add(v, one);
		g_hash_table_add(seen, one);
	}
	g_hash_table_destroy(seen);
	if (rc < 0) {
		g_ptr_array_free(v, TRUE);
		return rc;
	}
	*n = v->len;
	g_ptr_array_set_free_func(v, NULL);
	g_ptr_array_add(v, NULL);
	*out = (char **)g_ptr_array_free(v, FALSE);
	return 0;
}

/* Whether PATH, symbolic links resolved, is inside the directory REAL_DIR
 * (itself resolved): a queue is a repository's content, and its series
 * file must not make fixscan read a file elsewhere through a link.  A
 * PATH that does not exist is left to the reader to report. */
static bool inside(const char *path, const char *real_dir)
{
	char *real = realpath(path, NULL);
	size_t n = strlen(real_dir);
	bool ok;

	if (!real)
		return true;
	ok = !strncmp(real, real_dir, n) && real[n] == '/';
	free(real);
	return ok;
}

/* The names the series file of DIR lists, in *NAMES. */
static int read_series(const char *dir, char ***names, size_t *n, struct fs_error *err)
{
	char *path = g_build_filename(dir, "series", NULL), *text = NULL;
	GError *gerr = NULL;
	struct stat st;
	gsize len = 0;
	int rc;

	if (stat(path, &st) < 0) {
		rc = fs_error_set(err, FS_EIO, "'%s' has no quilt series file: cannot open '%s': %s",
				  dir, path, strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		rc = fs_error_set(err, FS_EPARSE, "'%s' is not a quilt series file", path);
		goto out;
	}
	if (st.st_size > SERIES_MAX) {
		rc = fs_error_set(err, FS_EPARSE, "'%s' is too large for a quilt series file (%lld "
				  "bytes, at most %d)", path, (long long)st.st_size, SERIES_MAX);
		goto out;
	}
	if (!g_file_get_contents(path, &text, &len, &gerr)) {
		rc = fs_error_set(err, FS_EIO, "cannot read '%s': %s", path, gerr->message);
		g_error_free(gerr);
		goto out;
	}
	rc = fs_source_queue_names(names, n, text, len, path, err);
	if (rc == 0 && !*n) {
		g_strfreev(*names);
		*names = NULL;
		rc = fs_error_set(err, FS_EPARSE, "'%s' lists no patch", path);
	}
out:
	g_free(text);
	g_free(path);
	return rc;
}

int fs_source_load_queue(struct fs_thread ***out, size_t *nout, const char *dir,
			 const char *version, struct fs_error *err)
{
	struct fs_thread **threads = NULL;
	struct fs_patch **patches = NULL;
	char **names = NULL, *own_version = NULL, *real_dir = NULL;
	size_t n = 0, np = 0, i;
	struct stat st;
	int rc;

	*out = NULL;
	*nout = 0;
	if (stat(dir, &st) < 0)
		return fs_error_set(err, FS_EIO, "cannot open '%s': %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return fs_error_set(err, FS_EIO, "'%s' is not a directory", dir);
	if (!version)
		version = own_version = fs_source_queue_version(dir);
	rc = read_series(dir, &names, &n, err);
	if (rc == 0 && !(real_dir = realpath(dir, NULL)))
		rc = fs_error_set(err, FS_EIO, "cannot open '%s': %s", dir, strerror(errno));
	if (rc == 0 && (!(patches = calloc(n + 1, sizeof(*patches))) ||
			!(threads = g_try_new0(struct fs_thread *, 1))))
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
	for (i = 0; rc == 0 && i < n; i++) {
		char *path = g_build_filename(dir, names[i], NULL);

		if (!inside(path, real_dir))
			rc = fs_error_set(err, FS_EPARSE, "'%s' leads outside the queue directory",
					  path);
		else
			rc = fs_patch_parse_file(&patches[np], path, err);
		g_free(path);
		if (rc == 0)
			fs_patch_set_number(patches[np++], version, (int)i + 1, (int)n);
	}
	if (rc == 0) {
		rc = fs_thread_build(&threads[0], patches, np, err);
		np = 0; /* the thread owns them now, also on error */
	}
	if (rc == 0) {
		*out = threads;
		*nout = 1;
		threads = NULL;
	}
	for (i = 0; i < np; i++)
		fs_patch_free(patches[i]);
	free(patches);
	g_free(threads);
	g_strfreev(names);
	g_free(own_version);
	free(real_dir);
	return rc;
}
