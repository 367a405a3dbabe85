/* fixscan: is a backport the change its upstream commit made?
 *
 * Compares the diff of a stable patch (its mail body) with the diff of
 * its upstream commit (the commit's tree against its first parent, read
 * from the kernel clone's packs and commit-graph directly, through
 * libgit2 what is not in a pack) in substance: the files each
 * side changes, and the added and removed lines of each file, as a
 * multiset, with all white space taken out.  Line numbers, hunk headers,
 * context lines, the order of hunks and lines that are only white space
 * do not count, so the same change at other offsets or with other
 * context is the same change.  A file is named by its new path (its old
 * one when deleted); a rename the mail shows is followed, and a file of
 * the backport that upstream does not name, with exactly the lines of a
 * file of the same name in another directory that upstream changes and
 * the backport does not, and whose path upstream's parent tree does not
 * have, is that file under its path in the older branch (moved in
 * mainline since): no difference (fs_diffcmp_commit() only: texts alone
 * have no tree to look in).
 *
 * Whether the changelog says the backport differs is told apart from the
 * upstream commit's own words: a line of the changelog that the upstream
 * message does not have and that is a backporter's note ("[ Sasha: ... ]",
 * not "[ Upstream commit ... ]") or says the change was adjusted,
 * backported, rebased, had its context or conflicts changed, or differs.
 *
 * Ownership: a result owns its strings (GLib's: g_free(),
 * fs_diffcmp_result_clear()); the bodies and messages passed in are
 * borrowed.  The handle owns its repository (fs_diffcmp_free()) and is
 * used by one thread at a time (it keeps the objects it read).
 */
#ifndef FIXSCAN_DIFFCMP_H
#define FIXSCAN_DIFFCMP_H

#include <stdbool.h>
#include <stddef.h>

#include "fixscan/error.h"

/* At most this many differing lines are kept for the reader (-v);
 * LINES_DIFFER counts them all. */
#define FS_DIFFCMP_MAX_LINES 40

struct fs_diffcmp_result {
	char **files_dropped;   /* upstream changes them, the backport not */
	size_t nfiles_dropped;
	char **files_added;     /* the backport changes them, upstream not */
	size_t nfiles_added;
	/* +/- lines of the files both change that one side has and the
	 * other not (white space ignored) */
	size_t lines_differ;
	/* The first FS_DIFFCMP_MAX_LINES of them, "upstream only: PATH: -text"
	 * or "backport only: PATH: +text", control characters replaced. */
	char **lines;
	size_t nlines;
	bool documented;        /* the changelog says the backport differs */
};
#define FS_DIFFCMP_RESULT_INIT { .files_dropped = NULL }
void fs_diffcmp_result_clear(struct fs_diffcmp_result *res);

/* Whether RES has any difference of substance (documented or not). */
bool fs_diffcmp_differs(const struct fs_diffcmp_result *res);

/* Compare two unified diffs, UPSTREAM and BACKPORT (each LEN bytes; text
 * around the diff, such as a changelog or a mail signature, is skipped).
 * Fills *OUT (FS_DIFFCMP_RESULT_INIT or cleared), DOCUMENTED false.
 * Returns 0, FS_EPARSE when BACKPORT has no diff that can be read (a
 * diffstat alone) while UPSTREAM has one: nothing is compared then, or
 * FS_ENOMEM. */
int fs_diffcmp_texts(const char *upstream, size_t ulen, const char *backport, size_t blen,
		     struct fs_diffcmp_result *out, struct fs_error *err);

/* Whether the changelog of mail body BODY (up to its "---" line or its
 * first diff) says that the backport differs from upstream, by a line
 * that UPSTREAM_MSG (the upstream commit's message; NULL: none) does not
 * have. */
bool fs_diffcmp_documented(const char *body, size_t len, const char *upstream_msg);

/* A kernel repository opened for diffs. */
struct fs_diffcmp;

int fs_diffcmp_open(struct fs_diffcmp **out, const char *repo_path, struct fs_error *err);
void fs_diffcmp_free(struct fs_diffcmp *dc);
/* Give back the pages of the packs the comparisons touched (they come
 * back from the page cache when read again). */
void fs_diffcmp_trim(struct fs_diffcmp *dc);

/* Compare mail body BODY with the diff of commit HEX (full id) and, when
 * they differ, say whether the changelog documents it.  Returns 0 with *OUT
 * filled, or FS_ENOTFOUND when the clone lacks the commit, its parent or
 * one of their trees or blobs (a clone made with --filter=blob:none):
 * then fs_diffcmp_take_note() says so, once.  FS_EPARSE (see
 * fs_diffcmp_texts()), FS_ENOMEM. */
int fs_diffcmp_commit(struct fs_diffcmp *dc, const char *hex, const char *body, size_t len,
		      struct fs_diffcmp_result *out, struct fs_error *err);

/* The first time a comparison could not be made, a note saying so
 * (borrowed, until fs_diffcmp_free()); NULL before that and after it was
 * taken once. */
const char *fs_diffcmp_take_note(struct fs_diffcmp *dc);

#endif
