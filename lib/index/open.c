/* fixscan: opening the index, with the cache kept up to date: the lock,
 * the up-to-date check and the update.  The only caller of the builder. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <git2.h>
#include <glib.h>

#include "fixscan/atomic.h"
#include "fixscan/index.h"
#include "base/cache.h"
#include "build.h"
#include "format.h"
#include "load.h"
#include "tips.h"

static int mkdir_p(const char *dir)
{
	char *tmp = strdup(dir), *p;
	int rc = 0;

	if (!tmp)
		return -1;
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0700) < 0 && errno != EEXIST)
			rc = -1;
		*p = '/';
	}
	if (mkdir(tmp, 0700) < 0 && errno != EEXIST)
		rc = -1;
	free(tmp);
	return rc;
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* "<cache>.refs": the fingerprint of the refs (fsi_refs_fingerprint())
 * that the cache and its delta, identified as in every stamp, were found
 * up to date with.  With it the up-to-date check every command makes
 * reads the refs' names and ids and nothing else: no object database, no
 * peeling of tags, nothing of the index past its header. */
#define REFS_SUFFIX ".refs"

static void refs_stamp_text(const struct fs_index *idx, uint64_t fingerprint, char *buf,
			    size_t n)
{
	char cache[FSI_STAMP_MAX / 3], delta[FSI_STAMP_MAX / 3];

	fsi_stat_text(&idx->file, cache, sizeof(cache));
	fsi_stat_text(&idx->delta, delta, sizeof(delta));
	snprintf(buf, n, "fixscan-refs 1 %016llx %s %s\n", (unsigned long long)fingerprint,
		 cache, delta);
}

/* Stamp IDX as up to date with the refs of FINGERPRINT (0: unknown). */
static void refs_stamp_write(const struct fs_index *idx, uint64_t fingerprint)
{
	char text[FSI_STAMP_MAX];

	if (!fingerprint)
		return;
	refs_stamp_text(idx, fingerprint, text, sizeof(text));
	fsi_stamp_write(idx->cache_path, REFS_SUFFIX, text);
}

/* A reading of the refs of OPTS->repo_path (see fsi_refs_read()). */
static int read_refs(const struct fs_index_opts *opts, struct fsi_refs **out,
		     struct fs_error *err)
{
	git_repository *repo = NULL;
	int rc;

	*out = NULL;
	rc = fsi_repo_open(&repo, opts->repo_path, err);
	if (rc == 0)
		rc = fsi_refs_read(repo, opts, out, err);
	git_repository_free(repo);
	return rc;
}

/* Whether OLD is stamped as up to date with REFS: 1 yes, 0 not known
 * (the update finds out, under the lock). */
static int stamped_fresh(const struct fs_index *old, const struct fsi_refs *refs)
{
	char want[FSI_STAMP_MAX];

	refs_stamp_text(old, fsi_refs_fingerprint(refs), want, sizeof(want));
	return fsi_stamp_matches(old->cache_path, REFS_SUFFIX, want);
}

/* Whether errno E says a folder cannot be written at all (as opposed
 * to a full disk, or a failure of the disk): the index then runs without
 * its cache rather than not at all. */
static int unwritable(int e)
{
	return e == EROFS || e == EACCES || e == EPERM;
}

/* Create the directory of CACHE_PATH and take the exclusive lock on
 * "<cache>.lock"; *FD gets the lock's descriptor (closing it unlocks).
 * *WHY gets the errno of a failure (0: none, or none of the file
 * system's). */
static int take_lock(const char *cache_path, int *fd, int *why, struct fs_error *err)
{
	char *dir = strdup(cache_path), *slash, *lock_path = NULL;
	int rc = 0;

	*fd = -1;
	*why = 0;
	if (!dir)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	/* a folder there but not writable: found before any file is */
	if (slash && (mkdir_p(dir) < 0 || faccessat(AT_FDCWD, dir, W_OK, AT_EACCESS) < 0)) {
		*why = errno;
		rc = fs_error_set(err, FS_EIO, "cannot create cache directory '%s': %s",
				  dir, strerror(errno));
	}
	free(dir);
	if (rc < 0)
		return rc;
	if (asprintf(&lock_path, "%s.lock", cache_path) < 0)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	/* One updater at a time; the second finds the work done. */
	*fd = fs_lock_take(lock_path, FS_LOCK_CREATE, -1, "the index cache", err);
	if (*fd < 0) {
		*why = errno;
		rc = *fd;
	}
	free(lock_path);
	return rc;
}

/* Is NAME a writer's temporary of the cache file named BASE: BASE or its
 * delta, maybe ".verified", then ".tmp." and mkstemp()'s six characters
 * (see write.c and load.c)? */
static int is_temp_of(const char *name, const char *base)
{
	size_t n = strlen(base);

	if (strncmp(name, base, n))
		return 0;
	name += n;
	if (!strncmp(name, ".delta", 6))
		name += 6;
	/* the stamps (load.c, above), written without the lock: a reader
	 * killed between a stamp's write and rename leaves one */
	if (!strncmp(name, FSI_VERIFIED_SUFFIX, strlen(FSI_VERIFIED_SUFFIX)))
		name += strlen(FSI_VERIFIED_SUFFIX);
	else if (!strncmp(name, REFS_SUFFIX, strlen(REFS_SUFFIX)))
		name += strlen(REFS_SUFFIX);
	return !strncmp(name, ".tmp.", 5) && strlen(name + 5) == 6 && !strchr(name + 5, '/');
}

/* Remove (when REMOVE) or count the temporaries of CACHE_PATH's writers.
 * Removing is only for the holder of the lock: a live writer holds it
 * while its temporary exists, so any found then belong to a writer that
 * was killed before it could rename or remove its own.  Returns how many
 * were found. */
static int stale_temps(const char *cache_path, int remove)
{
	char *dir = strdup(cache_path), *slash;
	const char *base;
	struct dirent *de;
	DIR *d;
	int n = 0;

	if (!dir)
		return 0;
	slash = strrchr(dir, '/');
	if (slash) {
		*slash = '\0';
		base = slash + 1;
	} else {
		base = dir;
	}
	d = opendir(slash ? (*dir ? dir : "/") : ".");
	while (d && (de = readdir(d))) {
		if (!is_temp_of(de->d_name, base))
			continue;
		n++;
		if (remove)
			unlinkat(dirfd(d), de->d_name, 0);
	}
	if (d)
		closedir(d);
	free(dir);
	return n;
}

/* The fast path takes no lock; temporaries a killed writer left are
 * removed if the lock is free right now, and otherwise by whoever takes
 * it next. */
static void sweep_if_idle(const char *cache_path)
{
	char *lock_path = NULL;
	int fd;

	if (!stale_temps(cache_path, 0) || asprintf(&lock_path, "%s.lock", cache_path) < 0)
		return;
	fd = open(lock_path, O_RDWR | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	free(lock_path);
	if (fd < 0)
		return;
	if (flock(fd, LOCK_EX | LOCK_NB) == 0)
		stale_temps(cache_path, 1);
	close(fd);
}

/* Under the lock: find the cache as another process may have left it,
 * and bring it up to date.  *OLD is the index loaded before the lock (or
 * NULL) and on success the current one; *REFS the reading of the refs
 * made before the lock (or NULL), which it may replace. */
static int update_locked(struct fs_index **old, struct fsi_refs **refs,
			 const struct fs_index_opts *opts, const char *cache_path,
			 struct fs_index_stats *stats, struct fs_error *err)
{
	struct fs_error load_err = FS_ERROR_INIT;
	uint64_t fingerprint = 0;
	int rc;

	stale_temps(cache_path, 1);
	/* Another process may have updated the cache while this one waited;
	 * a cache renamed over it is a new file, perhaps of newer refs than
	 * the reading made before the lock: the refs are read again (built
	 * from the older reading, a branch would look rewound).  If not, the
	 * index loaded before is the base of the update. */
	if (!(*old && fsi_same_file(*old, cache_path))) {
		fs_index_free(*old);
		*old = NULL;
		fsi_refs_free(*refs);
		*refs = NULL;
		rc = opts->rebuild ? FS_ENOTFOUND : fsi_load(old, cache_path, 1, &load_err);
		if (rc == 0) {
			rc = read_refs(opts, refs, err);
			if (rc < 0)
				return rc;
			if (stamped_fresh(*old, *refs))
				return 0;
		} else if (rc == FS_ECORRUPT) {
			/* The note is shorter than an error message can be:
			 * cut the message, never the words after it. */
			snprintf(stats->note, sizeof(stats->note), "%.*s; rebuilding it",
				 (int)(sizeof(stats->note) - sizeof("; rebuilding it")),
				 load_err.message);
		}
	}
	rc = fsi_build(opts, cache_path, *refs, *old, stats, &fingerprint, err);
	if (rc < 0)
		return rc;
	if (rc == 0) {
		/* Verified now, by the writer, rather than by the next
		 * command: its pages are still in memory, and a stamped file
		 * is not read whole again (load.c). */
		fs_index_free(*old);
		*old = NULL;
		rc = fsi_load(old, cache_path, 1, err);
	} else {
		rc = 0; /* OLD is current: only its stamp was missing or stale */
	}
	if (rc == 0)
		refs_stamp_write(*old, fingerprint);
	return rc;
}

/* Add TEXT to the note of STATS (after what is there). */
static void add_note(struct fs_index_stats *stats, const char *text)
{
	size_t n = strlen(stats->note);

	snprintf(stats->note + n, sizeof(stats->note) - n, "%s%s", n ? "; " : "", text);
}

/* Remove the files of the folder DIR, then DIR. */
static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			unlinkat(dirfd(d), de->d_name, 0);
	if (d)
		closedir(d);
	rmdir(dir);
}

/* The cache cannot be kept where it belongs (WHERE, and WHY): build the
 * index in a folder of its own in the temporary directory, map it, and
 * remove the folder.  The index is right, only not kept; the note says
 * so, once.  *OLD (a cache read from WHERE, or NULL) is replaced. */
static int without_cache(struct fs_index **old, struct fsi_refs **refs,
			 const struct fs_index_opts *opts, const char *where, const char *why,
			 struct fs_index_stats *stats, struct fs_error *err)
{
	const char *tmp = getenv("TMPDIR");
	char *dir = NULL, *path = NULL, note[sizeof(stats->note)];
	int rc, fd = -1, e;

	if (asprintf(&dir, "%s/fixscan-index-XXXXXX", tmp && *tmp == '/' ? tmp : "/tmp") < 0)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	if (!mkdtemp(dir)) {
		rc = fs_error_set(err, FS_EIO, "cannot keep the index cache in '%s' (%s), nor "
				  "build it in '%s': %s", where, why, dir, strerror(errno));
		free(dir);
		return rc;
	}
	if (asprintf(&path, "%s/index.idx", dir) < 0)
		path = NULL;
	rc = path ? take_lock(path, &fd, &e, err) : fs_error_set(err, FS_ENOMEM, "out of memory");
	if (rc == 0)
		rc = update_locked(old, refs, opts, path, stats, err);
	if (fd >= 0)
		close(fd);
	remove_dir(dir);
	snprintf(note, sizeof(note), "cannot keep the index cache in '%s' (%s): indexed without "
		 "it", where, why);
	if (rc == 0)
		add_note(stats, note);
	free(path);
	free(dir);
	return rc;
}

int fs_index_open(struct fs_index **out, const struct fs_index_opts *opts,
		  struct fs_index_stats *stats, struct fs_error *err)
{
	struct fs_index_stats local;
	struct fs_index *old = NULL;
	struct fsi_refs *refs = NULL;
	struct fs_error load_err = FS_ERROR_INIT;
	char *cache_path = NULL;
	double start = now_seconds();
	int lock_fd = -1, rc = 0, fresh = 0, why = 0, nohome = 0;

	*out = NULL;
	if (!stats)
		stats = &local;
	memset(stats, 0, sizeof(*stats));
	if (!opts->repo_path)
		return fs_error_set(err, FS_EUSAGE, "no kernel repository given");
	if (opts->cache_path) {
		if (!(cache_path = g_strdup(opts->cache_path)))
			return fs_error_set(err, FS_ENOMEM, "out of memory");
	} else if (!(nohome = fs_cache_no_home())) {
		rc = fs_cache_path(&cache_path, opts->repo_path, "", ".idx", "repository", err);
		if (rc < 0)
			return rc;
	}

	/* Fast path: a valid cache stamped as up to date with the refs as
	 * they are.  One that is not is kept, and so is the reading of the
	 * refs: if nobody replaces the file meanwhile, they are the base of
	 * the update. */
	if (!nohome && !opts->rebuild && fsi_load(&old, cache_path, 1, &load_err) == 0) {
		if (opts->no_update)
			fresh = 1;
		else if ((fresh = read_refs(opts, &refs, err)) == 0)
			fresh = stamped_fresh(old, refs);
	}
	if (fresh < 0) {
		rc = fresh;
	} else if (nohome) {
		rc = without_cache(&old, &refs, opts, "$XDG_CACHE_HOME/fixscan",
				   "neither XDG_CACHE_HOME nor HOME is set", stats, err);
	} else if (fresh == 0) {
		rc = take_lock(cache_path, &lock_fd, &why, err);
		if (rc == 0)
			rc = update_locked(&old, &refs, opts, cache_path, stats, err);
		else if (unwritable(why))
			rc = without_cache(&old, &refs, opts, cache_path, strerror(why), stats, err);
	}
	if (rc == 0 && lock_fd < 0 && cache_path)
		sweep_if_idle(cache_path);
	if (rc == 0 && !old->repo_path && !(old->repo_path = strdup(opts->repo_path)))
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
	if (rc == 0) {
		stats->commits = old->ncommits;
		stats->seconds = now_seconds() - start;
		*out = old;
		old = NULL;
	}
	if (lock_fd >= 0)
		close(lock_fd);
	fsi_refs_free(refs);
	g_free(cache_path);
	fs_index_free(old);
	return rc;
}
