/* fixscan: how many patches of a stable series were fixed by later patches
 * of the same series (the measurement of `fixscan stats`).
 *
 * Definitions, for one range of a stable branch (v4.4..v4.4.14, or a
 * branch from the release it forked from to its tip):
 *
 *   patches     non-merge commits of the range, less the release commits
 *               whose subject is the bare version ("Linux 4.4.1");
 *   mapped      patches whose upstream id resolves to a mainline commit;
 *   with fixes  patches carrying at least one Fixes: tag, in any form the
 *               tags module reads, or a revert line;
 *   fixed       pairs (introducer, fixer) of patches of the range where a
 *               Fixes: tag or revert line of the fixer names the
 *               introducer, by its upstream id (abbreviated or full) or by
 *               its own stable id; a fixer naming two introducers gives
 *               two pairs, a fixer naming one introducer twice one pair;
 *   floor       fixed / patches;
 *   ceiling     fixed / with fixes.
 *
 * The module has two layers.  A struct fs_stats is a plain table of
 * patches, the ids each one answers to and the ids its fix lines name;
 * fs_stats_finish() counts the pairs from that alone, so it can be fed by
 * hand (the unit tests do).  fs_stats_compute() fills one from a range of
 * a kernel repository and its fixes index.
 */
#ifndef FIXSCAN_STATS_H
#define FIXSCAN_STATS_H

#include <stdbool.h>
#include <stddef.h>

#include "fixscan/error.h"

struct fs_index;

/* A range as written on the command line; its strings are GLib's
 * (g_free()), released by fs_stats_range_clear(). */
struct fs_stats_range {
	char *spec;   /* as given */
	char *base;   /* "v4.4" in "v4.4..v4.4.14"; NULL for a branch */
	char *tip;    /* "v4.4.14"; NULL for a branch */
	char *branch; /* "linux-4.4.y" when a branch was given, else NULL */
};

/* Split SPEC into OUT: "A..B" (both sides non-empty, not "A...B") or a
 * branch name (no "..", no white space).  Returns 0, FS_EUSAGE with ERR
 * set ("bad range 'x'"), or FS_ENOMEM.  Free with fs_stats_range_clear(). */
int fs_stats_range_parse(struct fs_stats_range *out, const char *spec,
			 struct fs_error *err);
void fs_stats_range_clear(struct fs_stats_range *r);

/* The series a range measures, for the table: "4.4" for v4.4..v4.4.14,
 * v4.4.3..v4.4.7 or linux-4.4.y; the spec itself when no version can be
 * seen in it.  Returns a new string (free with g_free()) or NULL. */
char *fs_stats_series_name(const struct fs_stats_range *r);

/* NUM / DEN as a percentage with one decimal, rounded half up, into BUF:
 * "2.3%".  "-" when DEN is 0.  Returns BUF. */
#define FS_STATS_PERCENT_MAX 32
char *fs_stats_percent(char buf[FS_STATS_PERCENT_MAX], size_t num, size_t den);
/* The same in tenths of a percent (23 for 2.3%), or -1 when DEN is 0. */
long fs_stats_tenths(size_t num, size_t den);

struct fs_stats;

/* A new, empty table for the range SPEC of series SERIES (both copied).
 * Free with fs_stats_free(). */
int fs_stats_new(struct fs_stats **out, const char *spec, const char *series,
		 struct fs_error *err);
void fs_stats_free(struct fs_stats *st);

/* Add a patch: ID its own full id (40 hex), RELEASE the first release
 * that contains it (NULL: none yet), ORDER its position in the range,
 * oldest first (orders the pairs within a release), MAPPED whether its
 * upstream id resolves to a mainline commit.  ID is also the first id the
 * patch answers to.  Returns the patch's number (0, 1, ...) or FS_ENOMEM. */
long fs_stats_add_patch(struct fs_stats *st, const char *id, const char *release,
			long order, bool mapped);
/* Another id patch P answers to: its upstream id, as resolved or as
 * written (4..40 hex).  Returns 0 or FS_ENOMEM. */
int fs_stats_add_key(struct fs_stats *st, size_t p, const char *hex);
/* A Fixes: tag or revert line of patch P naming HEX (4..40 hex, full when
 * the caller could resolve it).  ALT, when not NULL, is a second name of
 * the same commit that counts only when HEX names no patch: the "which
 * was commit X upstream" of a revert of a stable commit.  Marks P as a
 * patch with fixes.  Returns 0 or FS_ENOMEM. */
int fs_stats_add_fix(struct fs_stats *st, size_t p, const char *hex, const char *alt);

/* Count the pairs.  A fix line names a patch when its id is a prefix of an
 * id the patch answers to; a line whose id is a prefix of two different
 * ids of the range is ambiguous and names nothing.  Pairs are sorted in
 * release order: by the introducer's release and order, then the fixer's.
 * Returns 0 or FS_ENOMEM. */
int fs_stats_finish(struct fs_stats *st, struct fs_error *err);

struct fs_stats_counts {
	size_t patches;
	size_t mapped;
	size_t with_fixes;
	size_t fixed; /* pairs */
};

void fs_stats_get_counts(const struct fs_stats *st, struct fs_stats_counts *out);
/* Borrowed, valid until fs_stats_free(). */
const char *fs_stats_spec(const struct fs_stats *st);
const char *fs_stats_series(const struct fs_stats *st);
/* The release the range starts from ("v4.4"; the fork release of a
 * branch), NULL for a table made by hand. */
const char *fs_stats_base(const struct fs_stats *st);

struct fs_stats_pair {
	size_t introducer; /* patch numbers */
	size_t fixer;
};

/* The pairs after fs_stats_finish(), in release order; *N their number.
 * Borrowed. */
const struct fs_stats_pair *fs_stats_pairs(const struct fs_stats *st, size_t *n);
/* A patch's full id and release (NULL when none). Borrowed. */
const char *fs_stats_patch_id(const struct fs_stats *st, size_t p);
const char *fs_stats_patch_release(const struct fs_stats *st, size_t p);
/* A patch's subject, when fs_stats_compute() knew it; else NULL. */
const char *fs_stats_patch_subject(const struct fs_stats *st, size_t p);
/* Set patch P's subject (copied).  Returns 0 or FS_ENOMEM. */
int fs_stats_set_subject(struct fs_stats *st, size_t p, const char *subject);

/* Measure RANGE in the repository at REPO_PATH, whose fixes index is IDX:
 * walk the range with libgit2, look each patch up in the index, count.
 * *OUT is a finished table (free with fs_stats_free()).  Returns 0, or
 * FS_EUSAGE (bad range), FS_ENOTFOUND (unknown revision, tag or branch,
 * or a branch whose fork release is unknown), FS_EGIT, FS_ENOMEM with ERR
 * set. */
int fs_stats_compute(struct fs_stats **out, const struct fs_index *idx,
		     const char *repo_path, const char *range, struct fs_error *err);

#endif
