/* fixscan: replacing a file whole, and the locks of its writers (see
 * include/fixscan/atomic.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fixscan/atomic.h"

struct fs_atomic {
	char *path;     /* the file replaced */
	char *tmp;      /* its temporary, "<path>.tmp.XXXXXX" */
	char *name;     /* how errors name PATH: "what 'path'" or "'path'" */
	unsigned flags;
	int fd;         /* the temporary's, -1 once closed */
};

int fs_write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = ENOSPC;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int fs_fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc, saved;

	if (fd < 0)
		return -1;
	rc = fsync(fd);
	saved = errno;
	/* EINVAL: a file system that cannot sync a directory has nothing
	 * to sync (as git's fsync_component() takes it). */
	if (rc < 0 && saved == EINVAL)
		rc = 0;
	close(fd);
	errno = saved;
	return rc;
}

/* A copy of PATH's directory ("." for a bare name). */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

/* Create DIR and its missing parents (0700); what exists is left alone.
 * Returns 0, or -1 with errno set (ENOTDIR: a file is in the way). */
static int mkdir_parents(const char *dir)
{
	struct stat st;
	char *parent;
	int rc;

	if (stat(dir, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return 0;
		errno = ENOTDIR;
		return -1;
	}
	if (errno != ENOENT)
		return -1;
	parent = dir_of(dir);
	if (!parent)
		return -1;
	rc = strcmp(parent, dir) ? mkdir_parents(parent) : 0;
	free(parent);
	if (rc == 0 && mkdir(dir, 0700) < 0 && errno != EEXIST)
		rc = -1;
	return rc;
}

static void atomic_free(struct fs_atomic *a)
{
	if (a->fd >= 0)
		close(a->fd);
	free(a->path);
	free(a->tmp);
	free(a->name);
	free(a);
}

void fs_atomic_abort(struct fs_atomic *a)
{
	if (!a)
		return;
	if (a->fd >= 0)
		close(a->fd);
	a->fd = -1;
	unlink(a->tmp);
	atomic_free(a);
}

int fs_atomic_begin(struct fs_atomic **out, const char *path, const char *what,
		    unsigned flags, struct fs_error *err)
{
	struct fs_atomic *a = calloc(1, sizeof(*a));
	int rc = 0;

	*out = NULL;
	if (!a)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	a->fd = -1;
	a->flags = flags;
	a->path = strdup(path);
	if (a->path && asprintf(&a->tmp, "%s.tmp.XXXXXX", path) < 0)
		a->tmp = NULL;
	if (a->tmp && asprintf(&a->name, "%s%s'%s'", what ? what : "", what ? " " : "", path) < 0)
		a->name = NULL;
	if (!a->name) {
		atomic_free(a);
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	}
	if (flags & FS_ATOMIC_MKDIR) {
		char *dir = dir_of(path);

		if (!dir || mkdir_parents(dir) < 0)
			rc = fs_error_set(err, FS_EIO, "cannot create '%s' for %s: %s", dir ? dir : path,
					  a->name, strerror(errno));
		free(dir);
	}
	if (rc == 0 && (a->fd = mkostemp(a->tmp, O_CLOEXEC)) < 0)
		rc = fs_error_set(err, FS_EIO, "cannot write %s: cannot create '%s': %s", a->name,
				  a->tmp, strerror(errno));
	if (rc < 0) {
		atomic_free(a);  /* mkostemp() failed: no temporary to remove */
		return rc;
	}
	*out = a;
	return 0;
}

const char *fs_atomic_temp_path(const struct fs_atomic *a)
{
	return a->tmp;
}

int fs_atomic_write(struct fs_atomic *a, const void *data, size_t len, struct fs_error *err)
{
	if (fs_write_all(a->fd, data, len) < 0)
		return fs_error_set(err, FS_EIO, "cannot write %s: %s", a->name, strerror(errno));
	return 0;
}

int fs_atomic_pwrite(struct fs_atomic *a, const void *data, size_t len, off_t off,
		     struct fs_error *err)
{
	const char *p = data;

	while (len) {
		ssize_t n = pwrite(a->fd, p, len, off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = ENOSPC;
			return fs_error_set(err, FS_EIO, "cannot write %s: %s", a->name,
					    strerror(errno));
		}
		p += n;
		len -= (size_t)n;
		off += n;
	}
	return 0;
}

int fs_atomic_commit(struct fs_atomic *a, struct fs_error *err)
{
	int rc = 0, fd = a->fd;
	char *dir;

	a->fd = -1;
	/* A full disk may only show at fsync or close (delayed
	 * allocation, NFS): both are checked before the rename. */
	if (!(a->flags & FS_ATOMIC_NO_FSYNC) && fsync(fd) < 0) {
		rc = fs_error_set(err, FS_EIO, "cannot write %s: %s", a->name, strerror(errno));
		close(fd);
	} else if (close(fd) < 0) {
		rc = fs_error_set(err, FS_EIO, "cannot write %s: %s", a->name, strerror(errno));
	} else if (rename(a->tmp, a->path) < 0) {
		rc = fs_error_set(err, FS_EIO, "cannot replace %s: %s", a->name, strerror(errno));
	}
	if (rc < 0) {
		fs_atomic_abort(a);
		return rc;
	}
	dir = dir_of(a->path);
	if (!dir || fs_fsync_dir(dir) < 0)
		rc = fs_error_set(err, FS_EIO, "cannot sync the folder '%s' of %s: %s",
				  dir ? dir : "", a->name, strerror(errno));
	free(dir);
	atomic_free(a);
	return rc;
}

int fs_atomic_replace(const char *path, const void *data, size_t len, const char *what,
		      unsigned flags, struct fs_error *err)
{
	struct fs_atomic *a;
	int rc = fs_atomic_begin(&a, path, what, flags, err);

	if (rc < 0)
		return rc;
	rc = fs_atomic_write(a, data, len, err);
	if (rc < 0) {
		fs_atomic_abort(a);
		return rc;
	}
	return fs_atomic_commit(a, err);
}

int fs_atomic_is_temp_of(const char *name, const char *base)
{
	size_t n = strlen(base);

	return !strncmp(name, base, n) && !strncmp(name + n, ".tmp.", 5) &&
	       strlen(name + n + 5) == 6 && !strchr(name + n + 5, '/');
}

/* ---- locks --------------------------------------------------------------- */

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int fs_lock_take(const char *path, unsigned flags, double wait, const char *what,
		 struct fs_error *err)
{
	double deadline = now_seconds() + wait;
	int fd, e;

	if (!what)
		what = "the lock";
	if (flags & FS_LOCK_CREATE)
		fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0600);
	else
		fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		fs_error_set(err, FS_EIO, "cannot lock %s '%s': %s", what, path, strerror(e));
		errno = e;
		return FS_EIO;
	}
	for (;;) {
		if (flock(fd, wait < 0 ? LOCK_EX : LOCK_EX | LOCK_NB) == 0)
			return fd;
		e = errno;
		if (e == EINTR)
			continue;
		/* A file system without locks: work unlocked, as before there
		 * were locks, rather than never. */
		if (e == ENOLCK || e == EOPNOTSUPP || e == EINVAL)
			return fd;
		if (e != EWOULDBLOCK || now_seconds() >= deadline)
			break;
		{
			struct timespec ts = { 0, 20 * 1000 * 1000 };
			nanosleep(&ts, NULL);
		}
	}
	close(fd);
	if (e == EWOULDBLOCK) {
		fs_error_set(err, FS_ELOCKED, "another fixscan is writing into %s '%s' "
			     "(waited %.0f s): run again when it is done", what, path, wait);
		errno = e;
		return FS_ELOCKED;
	}
	fs_error_set(err, FS_EIO, "cannot lock %s '%s': %s", what, path, strerror(e));
	errno = e;
	return FS_EIO;
}

void fs_lock_release(int fd)
{
	if (fd >= 0)
		close(fd);
}
