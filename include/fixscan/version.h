/* fixscan: kernel release and branch names.
 *
 * A pure module of the kernel's conventions (lib/kernel/version.c), the
 * one place that reads them: release tags ("v4.4.15", "v4.5-rc1"), the
 * release a stable review is for ("4.4.15-rc1"), a series ("4.4", "6.18")
 * and its branch ("linux-4.4.y").  Before 3.0 the mainline had three
 * numbers: "v2.6.32" and "v2.6.32-rc1" are mainline releases of the series
 * "2.6.32", "v2.6.32.5" a stable release of it (branch linux-2.6.32.y).
 *
 * Parsing is strict: digits only (no sign, space or leading zero, at most
 * FS_VERSION_NUMBER_MAX), nothing after, so that a name and its record say
 * the same and fs_version_format() writes the name back.  Which branch a
 * series is reviewed on can be configured (fixscan.<version>.branch): that
 * is the session's and the review's; this module knows the kernel's names
 * only.  No allocation: names are written into the caller's buffer.
 */
#ifndef FIXSCAN_VERSION_H
#define FIXSCAN_VERSION_H

#include <stdbool.h>
#include <stddef.h>

/* At most four numbers ("2.6.32.5"), each at most FS_VERSION_NUMBER_MAX:
 * no kernel number is near it, and a bigger one is not a version. */
#define FS_VERSION_PARTS 4
#define FS_VERSION_NUMBER_MAX 99999
/* Room for any name this module writes, with its NUL: the longest version
 * is "v99999.99999.99999.99999-rc99999", the longest branch name one of
 * these in "linux-" and ".y". */
#define FS_VERSION_NAME_MAX 48

/* A version as a name writes it: "v4.4.15" is { 4, 4, 15 } with V set,
 * "4.5-rc1" { 4, 5 } with RC 1. */
struct fs_version {
	unsigned part[FS_VERSION_PARTS]; /* the numbers; those not written 0 */
	unsigned nparts;                 /* how many were written, 1 to 4 */
	unsigned rc;                     /* N of "-rcN" (at least 1); 0: none */
	bool v;                          /* written with a leading 'v' (tags) */
};

/* The version at the start of S (at most N bytes): an optional 'v', one
 * to four numbers joined by dots, an optional "-rcN".  Fills *OUT and
 * returns how many bytes it takes; 0 when S starts with none.  It stops
 * before anything that does not continue it (a dot or "-rc" without a
 * number after it, a fifth number, a number with a leading zero or too
 * big): "4.4.11." gives 6, "4.4.11-rcX" 6.  For reading names inside
 * text; the caller judges what follows. */
size_t fs_version_scan(const char *s, size_t n, struct fs_version *out);

/* NAME (NUL-terminated) as a whole version: true with *OUT filled, false
 * when it is none or has anything after it. */
bool fs_version_parse(const char *name, struct fs_version *out);

/* How many numbers the series of V has: 3 in 2.6 ("2.6.32"), else 2. */
unsigned fs_version_series_parts(const struct fs_version *v);

/* A mainline release or -rc: the numbers of a series ("4.4", "4.5-rc1",
 * "2.6.32-rc3"). */
bool fs_version_is_mainline(const struct fs_version *v);
/* A stable release, or an -rc of one (a review round): one number more
 * than its series, that number at least 1 ("4.4.15", "4.4.15-rc1",
 * "2.6.32.5"). */
bool fs_version_is_stable(const struct fs_version *v);
/* A release the kernel tags: a mainline release or -rc, or a stable
 * release without -rc ("4.4.15-rc1" is a round of review, no release). */
bool fs_version_is_release(const struct fs_version *v);
/* A series as it stands: exactly the numbers of one, no -rc ("4.4",
 * "2.6.32"; "2.6" too, the series of 2.6.x as people wrote it). */
bool fs_version_is_series(const struct fs_version *v);

/* The series V is of, in *OUT: its first two numbers, three in 2.6 ("4.4"
 * of "4.4.15-rc1", "2.6.32" of "v2.6.32.5"); a version of two numbers is
 * its own ("2.6").  No 'v', no -rc.  False when V has one number. */
bool fs_version_series(const struct fs_version *v, struct fs_version *out);

/* The release a stable release (or a round of it) is made on, the one
 * before it, in *OUT with a 'v' as a tag: "v4.4.10" of "4.4.11-rc1",
 * "v4.4" of "4.4.1", "v2.6.32.4" of "2.6.32.5".  False when V is no
 * stable release. */
bool fs_version_base(const struct fs_version *v, struct fs_version *out);

/* The order of kernel versions, the order they were released in within a
 * series: by number (a missing one is 0), an -rc before its release, a
 * lower -rc first: v4.4-rc1 < v4.4-rc10 < v4.4 < v4.4.1 < v4.5-rc1.
 * Equal numbers then fewer numbers first, then without 'v' first, so
 * that only equal records compare equal. */
int fs_version_cmp(const struct fs_version *a, const struct fs_version *b);

/* Whether A and B are one release or rounds of it: "4.7-rc3", "4.7-rc1"
 * and "4.7"; "4.4.15-rc1" and "4.4.15". */
bool fs_version_same_cycle(const struct fs_version *a, const struct fs_version *b);

/* The order of release names of any kind, for sorting names that may not
 * be versions at all: by the version each starts with (as
 * fs_version_scan() reads it, after an optional 'v'; none is 0), then by
 * strcmp(), so that it is a total order and 0 only for equal strings.
 * The fixes index sorts its release table by it: its order is part of the
 * cache format. */
int fs_version_name_cmp(const char *a, const char *b);

/* V's name into BUF of SIZE bytes ("v4.4.15", "4.5-rc1"): the name it was
 * parsed from.  Returns false (BUF "" when SIZE > 0) when it does not
 * fit; FS_VERSION_NAME_MAX always does. */
bool fs_version_format(const struct fs_version *v, char *buf, size_t size);

/* A stable branch is named "linux-<series>.y". */
#define FS_VERSION_BRANCH_PREFIX "linux-"
#define FS_VERSION_BRANCH_SUFFIX ".y"

/* The stable branch name at the start of S (at most N bytes), its series
 * in *OUT: how many bytes the name takes ("linux-4.4.y" gives 11), 0 when
 * S starts with none.  For names inside text; the caller judges what
 * follows. */
size_t fs_version_branch_scan(const char *s, size_t n, struct fs_version *out);
/* The series of stable branch name BRANCH, "linux-<series>.y"
 * ("linux-4.4.y", "linux-2.6.32.y"), in *OUT; false for other names. */
bool fs_version_branch_parse(const char *branch, struct fs_version *out);
/* The same as a name: "4.4" of "linux-4.4.y", into BUF of SIZE bytes. */
bool fs_version_branch_series(const char *branch, char *buf, size_t size);
/* The branch of SERIES (a series name, "4.4"): "linux-4.4.y" into BUF of
 * SIZE bytes.  False when SERIES is no series, or BUF is too small. */
bool fs_version_branch_name(const char *series, char *buf, size_t size);

#endif
