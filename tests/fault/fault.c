/* libfault.so: fail one chosen system call of the real binary (issue 41).
 *
 * Loaded with LD_PRELOAD, it counts the calls of one kind that touch a
 * path containing a given string, and fails the Nth (or the Nth and every
 * later one: a disk that stays full) with a chosen errno, without making
 * the call.  Calls on other paths go through untouched, so the writes of
 * a terminal, of notmuch or of the test itself are never hit by mistake.
 *
 *   FIXSCAN_FAULT="OP:N:ERRNO:PATHPART"   fail the Nth OP on PATHPART
 *   FIXSCAN_FAULT="OP:N+:ERRNO:PATHPART"  ... and every later one
 *   FIXSCAN_FAULT_LOG=FILE                append "OP PATH" for every
 *                                          call on PATHPART, of any kind,
 *                                          and "fired OP N PATH" for each
 *                                          one failed
 *
 * OP is one of
 *   open    an open for writing (O_WRONLY, O_RDWR or O_CREAT), creat(),
 *           mkstemp() and its kin
 *   write   write(), pwrite(), writev()
 *   fsync   fsync(), fdatasync() (of a file or a directory)
 *   close   close() of a descriptor opened for writing
 *   rename  rename(), renameat(), renameat2() (either path)
 *   link    link(), linkat() (either path)
 *   mkdir   mkdir()
 * ERRNO is a name (ENOSPC, EDQUOT, EIO, EROFS, EACCES, EPERM, ENOENT,
 * EEXIST, EXDEV, EMFILE, EINTR) or a number.  A failed close() closes the
 * descriptor all the same, as Linux does.
 *
 * A test binary can arm a fault itself: fixscan_fault_arm(SPEC) with the
 * same SPEC (NULL disarms), found with dlsym(RTLD_DEFAULT, ...).
 *
 *   FIXSCAN_DELAY=PATHPART:SECONDS        every open (fopen too, for
 *                                          reading as well) of a path
 *                                          holding PATHPART first sleeps
 *                                          SECONDS: a real "notmuch new"
 *                                          kept busy (holding its lock)
 *                                          on one mail
 *   FIXSCAN_DELAY_WHILE=FILE              ... or, with this, as long as
 *                                          FILE exists (SECONDS at most)
 *   FIXSCAN_CLOCK_OFFSET=SECONDS          the wall clock (time(),
 *                                          gettimeofday(), clock_gettime()
 *                                          of CLOCK_REALTIME) moved by
 *                                          SECONDS, ahead or (negative)
 *                                          behind; monotonic clocks stay
 *
 * Only the test suite builds this; nothing of it is in fixscan.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

enum op { OP_OPEN, OP_WRITE, OP_FSYNC, OP_CLOSE, OP_RENAME, OP_LINK, OP_MKDIR, OP_NONE };
static const char *const op_names[] = { "open", "write", "fsync", "close", "rename", "link",
					"mkdir" };

static struct {
	enum op op;
	long n;          /* the call to fail, from 1 */
	bool on;         /* and every later one */
	int err;
	char part[PATH_MAX];
	long count;
	bool armed;
} F = { OP_NONE, 0, false, 0, "", 0, false };

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

/* Descriptors opened for writing (close is counted for those only). */
#define MAXFD 4096
static unsigned char writable[MAXFD];

static const struct { const char *name; int value; } errnos[] = {
	{ "ENOSPC", ENOSPC }, { "EDQUOT", EDQUOT }, { "EIO", EIO }, { "EROFS", EROFS },
	{ "EACCES", EACCES }, { "EPERM", EPERM }, { "ENOENT", ENOENT }, { "EEXIST", EEXIST },
	{ "EXDEV", EXDEV }, { "EMFILE", EMFILE }, { "EINTR", EINTR },
};

int fixscan_fault_arm(const char *spec);

int fixscan_fault_arm(const char *spec)
{
	char buf[PATH_MAX + 64], *f[4], *save = NULL, *p;
	size_t i, k;

	pthread_mutex_lock(&mu);
	F.armed = false;
	F.count = 0;
	F.op = OP_NONE;
	if (!spec || !*spec) {
		pthread_mutex_unlock(&mu);
		return 0;
	}
	snprintf(buf, sizeof(buf), "%s", spec);
	for (i = 0, p = buf; i < 4; i++, p = NULL) {
		/* the path part is the rest, colons and all */
		f[i] = i < 3 ? strtok_r(p, ":", &save) : save;
		if (!f[i])
			break;
	}
	if (i < 4 || !f[3]) {
		pthread_mutex_unlock(&mu);
		return -1;
	}
	for (k = 0; k < OP_NONE && strcmp(op_names[k], f[0]); k++)
		;
	F.op = (enum op)k;
	F.n = strtol(f[1], &p, 10);
	F.on = *p == '+';
	F.err = atoi(f[2]);
	for (k = 0; k < sizeof(errnos) / sizeof(errnos[0]); k++)
		if (!strcmp(errnos[k].name, f[2]))
			F.err = errnos[k].value;
	snprintf(F.part, sizeof(F.part), "%s", f[3]);
	F.armed = F.op != OP_NONE && F.n > 0 && F.err > 0;
	pthread_mutex_unlock(&mu);
	return F.armed ? 0 : -1;
}

__attribute__((constructor)) static void fault_init(void)
{
	const char *spec = getenv("FIXSCAN_FAULT");

	if (spec && fixscan_fault_arm(spec) < 0)
		fprintf(stderr, "libfault: bad FIXSCAN_FAULT '%s'\n", spec);
}

static void *real(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);

	if (!f) {
		fprintf(stderr, "libfault: no %s\n", name);
		abort();
	}
	return f;
}
#define REAL(ret, name, ...) \
	static ret (*real_##name)(__VA_ARGS__); \
	if (!real_##name) \
		real_##name = real(#name)

static void note(const char *what, const char *path)
{
	const char *log = getenv("FIXSCAN_FAULT_LOG");
	char line[PATH_MAX + 64];
	int fd, n;
	/* the real calls: the log itself is never counted */
	static ssize_t (*w)(int, const void *, size_t);
	static int (*o)(int, const char *, int, ...);
	static int (*c)(int);

	if (!log)
		return;
	if (!w) {
		w = real("write");
		o = real("openat");
		c = real("close");
	}
	n = snprintf(line, sizeof(line), "%s %s\n", what, path);
	fd = o(AT_FDCWD, log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd >= 0) {
		(void)w(fd, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
		c(fd);
	}
}

/* Whether this call (OP on PATH, or on PATH2) is to fail.  Every call
 * on the armed path part is logged (so a test sees what came before the
 * one that failed); only those of the armed kind are counted. */
static bool hit(enum op op, const char *path, const char *path2)
{
	bool fire = false;
	const char *which = path;
	long n;
	char what[64];

	if (!F.armed)
		return false;
	if (!path || !strstr(path, F.part)) {
		which = path2;
		if (!path2 || !strstr(path2, F.part))
			return false;
	}
	if (op != F.op) {
		note(op_names[op], which);
		return false;
	}
	pthread_mutex_lock(&mu);
	n = ++F.count;
	fire = n == F.n || (F.on && n > F.n);
	pthread_mutex_unlock(&mu);
	snprintf(what, sizeof(what), fire ? "fired %s %ld" : "%s", op_names[op], n);
	note(what, which);
	return fire;
}

/* The path of descriptor FD (or of FD relative to DIRFD) into BUF. */
static const char *fd_path(int fd, char *buf)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, PATH_MAX - 1);
	if (n < 0)
		return NULL;
	buf[n] = '\0';
	return buf;
}

static const char *at_path(int dirfd, const char *path, char *buf)
{
	char dir[PATH_MAX];

	if (!path || path[0] == '/' || dirfd == AT_FDCWD)
		return path;
	if (!fd_path(dirfd, dir))
		return path;
	if ((size_t)snprintf(buf, PATH_MAX, "%.*s/%s", PATH_MAX / 2, dir, path) >= PATH_MAX)
		return path;
	return buf;
}

static bool fd_hit(enum op op, int fd)
{
	char buf[PATH_MAX];

	if (!F.armed)
		return false;
	return hit(op, fd_path(fd, buf), NULL);
}

static void mark(int fd, bool w)
{
	if (fd >= 0 && fd < MAXFD)
		writable[fd] = w;
}

static bool for_writing(int flags)
{
	return (flags & (O_WRONLY | O_RDWR | O_CREAT)) != 0;
}

/* ---- open ------------------------------------------------------------- */

/* FIXSCAN_DELAY: sleep before opening PATH when it holds the part. */
static void delay(const char *path)
{
	const char *spec = getenv("FIXSCAN_DELAY"), *colon;
	char part[PATH_MAX];
	struct timespec ts;
	double secs;

	if (!spec || !path || !(colon = strrchr(spec, ':')) || (size_t)(colon - spec) >= sizeof(part))
		return;
	memcpy(part, spec, (size_t)(colon - spec));
	part[colon - spec] = '\0';
	if (!*part || !strstr(path, part))
		return;
	secs = strtod(colon + 1, NULL);
	if (getenv("FIXSCAN_DELAY_WHILE")) {
		const char *hold = getenv("FIXSCAN_DELAY_WHILE");
		struct timespec step = { 0, 20 * 1000 * 1000 };
		double waited = 0;

		while (access(hold, F_OK) == 0 && waited < secs) {
			nanosleep(&step, NULL);
			waited += 0.02;
		}
		return;
	}
	ts.tv_sec = (time_t)secs;
	ts.tv_nsec = (long)((secs - (double)ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL);
}

FILE *fopen(const char *path, const char *mode)
{
	REAL(FILE *, fopen, const char *, const char *);
	delay(path);
	return real_fopen(path, mode);
}

FILE *fopen64(const char *path, const char *mode)
{
	REAL(FILE *, fopen64, const char *, const char *);
	delay(path);
	return real_fopen64(path, mode);
}

static int do_openat(int dirfd, const char *path, int flags, mode_t mode, bool at)
{
	REAL(int, openat, int, const char *, int, ...);
	char buf[PATH_MAX];
	int fd;

	delay(path);
	if (for_writing(flags) && hit(OP_OPEN, at_path(dirfd, path, buf), NULL)) {
		errno = F.err;
		return -1;
	}
	fd = real_openat(at ? dirfd : AT_FDCWD, path, flags, mode);
	mark(fd, for_writing(flags));
	return fd;
}

static mode_t mode_arg(int flags, va_list ap)
{
	return (flags & (O_CREAT | __O_TMPFILE)) ? (mode_t)va_arg(ap, int) : 0;
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = mode_arg(flags, ap);
	va_end(ap);
	return do_openat(AT_FDCWD, path, flags, mode, false);
}

int open64(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = mode_arg(flags, ap);
	va_end(ap);
	return do_openat(AT_FDCWD, path, flags, mode, false);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = mode_arg(flags, ap);
	va_end(ap);
	return do_openat(dirfd, path, flags, mode, true);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = mode_arg(flags, ap);
	va_end(ap);
	return do_openat(dirfd, path, flags, mode, true);
}

int creat(const char *path, mode_t mode)
{
	return do_openat(AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC, mode, false);
}

/* glibc's mkstemp() family opens through an internal call no preload
 * sees: these are counted as opens of the template. */
#define MKTEMP(call, ...) do { \
		int fd_; \
		if (hit(OP_OPEN, tmpl, NULL)) { \
			errno = F.err; \
			return -1; \
		} \
		fd_ = call; \
		mark(fd_, true); \
		return fd_; \
	} while (0)

int mkstemp(char *tmpl)
{
	REAL(int, mkstemp, char *);
	MKTEMP(real_mkstemp(tmpl));
}

int mkostemp(char *tmpl, int flags)
{
	REAL(int, mkostemp, char *, int);
	MKTEMP(real_mkostemp(tmpl, flags));
}

int mkstemps(char *tmpl, int suffixlen)
{
	REAL(int, mkstemps, char *, int);
	MKTEMP(real_mkstemps(tmpl, suffixlen));
}

int mkostemps(char *tmpl, int suffixlen, int flags)
{
	REAL(int, mkostemps, char *, int, int);
	MKTEMP(real_mkostemps(tmpl, suffixlen, flags));
}

/* ---- write ------------------------------------------------------------ */

ssize_t write(int fd, const void *buf, size_t n)
{
	REAL(ssize_t, write, int, const void *, size_t);
	if (fd_hit(OP_WRITE, fd)) {
		errno = F.err;
		return -1;
	}
	return real_write(fd, buf, n);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	REAL(ssize_t, pwrite, int, const void *, size_t, off_t);
	if (fd_hit(OP_WRITE, fd)) {
		errno = F.err;
		return -1;
	}
	return real_pwrite(fd, buf, n, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off)
{
	REAL(ssize_t, pwrite64, int, const void *, size_t, off_t);
	if (fd_hit(OP_WRITE, fd)) {
		errno = F.err;
		return -1;
	}
	return real_pwrite64(fd, buf, n, off);
}

ssize_t writev(int fd, const struct iovec *iov, int cnt)
{
	REAL(ssize_t, writev, int, const struct iovec *, int);
	if (fd_hit(OP_WRITE, fd)) {
		errno = F.err;
		return -1;
	}
	return real_writev(fd, iov, cnt);
}

/* ---- fsync, close ----------------------------------------------------- */

int fsync(int fd)
{
	REAL(int, fsync, int);
	if (fd_hit(OP_FSYNC, fd)) {
		errno = F.err;
		return -1;
	}
	return real_fsync(fd);
}

int fdatasync(int fd)
{
	REAL(int, fdatasync, int);
	if (fd_hit(OP_FSYNC, fd)) {
		errno = F.err;
		return -1;
	}
	return real_fdatasync(fd);
}

int close(int fd)
{
	REAL(int, close, int);
	bool fire = fd >= 0 && fd < MAXFD && writable[fd] && fd_hit(OP_CLOSE, fd);
	int rc;

	mark(fd, false);
	rc = real_close(fd);
	if (fire && rc == 0) {
		errno = F.err;
		return -1;
	}
	return rc;
}

/* ---- names ------------------------------------------------------------ */

int rename(const char *from, const char *to)
{
	REAL(int, rename, const char *, const char *);
	if (hit(OP_RENAME, from, to)) {
		errno = F.err;
		return -1;
	}
	return real_rename(from, to);
}

int renameat(int fd1, const char *from, int fd2, const char *to)
{
	REAL(int, renameat, int, const char *, int, const char *);
	char b1[PATH_MAX], b2[PATH_MAX];

	if (hit(OP_RENAME, at_path(fd1, from, b1), at_path(fd2, to, b2))) {
		errno = F.err;
		return -1;
	}
	return real_renameat(fd1, from, fd2, to);
}

int renameat2(int fd1, const char *from, int fd2, const char *to, unsigned flags)
{
	REAL(int, renameat2, int, const char *, int, const char *, unsigned);
	char b1[PATH_MAX], b2[PATH_MAX];

	if (hit(OP_RENAME, at_path(fd1, from, b1), at_path(fd2, to, b2))) {
		errno = F.err;
		return -1;
	}
	return real_renameat2(fd1, from, fd2, to, flags);
}

int link(const char *from, const char *to)
{
	REAL(int, link, const char *, const char *);
	if (hit(OP_LINK, from, to)) {
		errno = F.err;
		return -1;
	}
	return real_link(from, to);
}

int linkat(int fd1, const char *from, int fd2, const char *to, int flags)
{
	REAL(int, linkat, int, const char *, int, const char *, int);
	char b1[PATH_MAX], b2[PATH_MAX];

	if (hit(OP_LINK, at_path(fd1, from, b1), at_path(fd2, to, b2))) {
		errno = F.err;
		return -1;
	}
	return real_linkat(fd1, from, fd2, to, flags);
}

int mkdir(const char *path, mode_t mode)
{
	REAL(int, mkdir, const char *, mode_t);
	if (hit(OP_MKDIR, path, NULL)) {
		errno = F.err;
		return -1;
	}
	return real_mkdir(path, mode);
}

/* ---- the wall clock --------------------------------------------------- */

static long long clock_offset(void)
{
	const char *v = getenv("FIXSCAN_CLOCK_OFFSET");

	return v ? strtoll(v, NULL, 10) : 0;
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
	REAL(int, clock_gettime, clockid_t, struct timespec *);
	int rc = real_clock_gettime(id, ts);

	if (rc == 0 && (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE))
		ts->tv_sec += clock_offset();
	return rc;
}

int gettimeofday(struct timeval *tv, void *tz)
{
	REAL(int, gettimeofday, struct timeval *, void *);
	int rc = real_gettimeofday(tv, tz);

	if (rc == 0)
		tv->tv_sec += clock_offset();
	return rc;
}

time_t time(time_t *t)
{
	REAL(time_t, time, time_t *);
	time_t now = real_time(NULL) + clock_offset();

	if (t)
		*t = now;
	return now;
}
