/* fixscan: the verdicts that read the branch's tree (lib/review/treecheck.c).
 *
 * symbol-missing: the identifiers a patch's added lines use
 * (fixscan/csyms.h) that the branch's tree at the thread's base has
 * nowhere (fixscan/treesyms.h), that no earlier patch of the series has
 * on an added line, and that mainline defines: the backport cannot build.
 * The mainline commit that brought each into the files where mainline
 * defines it, between the branch's fork and the patch's upstream commit,
 * is the missing prerequisite; a name whose prerequisite is queued
 * earlier in the series or present in the branch (net of reverts:
 * fs_index_present()) is none, and so is one the files lacked before the
 * upstream commit (it brought the name itself) or had at the fork (the
 * branch lost it another way): precision first.
 *
 * fix-not-applicable: a mainline fix whose changed files (of those it
 * did not add) are all absent from the branch's tree and added by no
 * patch of the series is not one to ask for.
 *
 * The review (lib/review/review.c) adds every patch of a series, then
 * has fs_treecheck_judge() complete each patch's findings.  The trees are
 * read only when a patch uses a name (fs_treecheck_missing()).
 *
 * Ownership: a struct fs_treecheck borrows the index and the trees
 * handle (both must outlive it) and owns the patches' identifiers; what
 * fs_treecheck_missing() and fs_treecheck_fix_files() return is the
 * caller's (fs_treecheck_missing_free(), g_strfreev()).
 */
#ifndef FIXSCAN_TREECHECK_H
#define FIXSCAN_TREECHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "fixscan/csyms.h"
#include "fixscan/error.h"
#include "fixscan/findings.h"
#include "fixscan/ignore.h"
#include "fixscan/index.h"
#include "fixscan/treesyms.h"

struct fs_treecheck;

/* The trees of BRANCH as of release BASE (NULL: its tip), read through
 * T.  Returns 0 with *OUT; when the branch's or mainline's identifiers
 * cannot be had (a blobless clone: fs_treesyms_take_note() says so once)
 * the check still answers fs_treecheck_fix_files() and finds no missing
 * names.  FS_ENOMEM. */
int fs_treecheck_open(struct fs_treecheck **out, struct fs_treesyms *t,
		      const struct fs_index *idx, const char *branch, const char *base,
		      struct fs_error *err);
void fs_treecheck_free(struct fs_treecheck *tc);
/* Give back the mapped pages the check's reading touched
 * (fs_treesyms_trim() of its T). */
void fs_treecheck_trim(struct fs_treecheck *tc);
/* Keep what the check learned for the next run (fs_treesyms_save()). */
void fs_treecheck_save(struct fs_treecheck *tc);

/* Patch NN INDEX of the series, its mail BODY (LEN bytes) and its
 * resolved upstream commits UPS (NUPS): added in series order, each once.
 * Returns 0 or FS_ENOMEM. */
int fs_treecheck_add_patch(struct fs_treecheck *tc, int index, const char *body, size_t len,
			   const fs_cid *ups, size_t nups, struct fs_error *err);

/* One missing prerequisite of a patch: the commit (FS_CID_NONE: none
 * found) and the names of the patch it brought. */
struct fs_treecheck_missing {
	fs_cid commit;
	int queued;        /* the NN of a later patch that queues COMMIT, or -1 */
	struct fs_csym_use *names; /* copies of the patch's uses, first use first */
	size_t nnames;
};

/* The missing prerequisites of the patch added K-th (in commit order:
 * first found first, one entry per commit).  Returns 0 with *OUT and *N
 * (none: NULL, 0), or FS_ENOMEM. */
int fs_treecheck_missing(struct fs_treecheck *tc, size_t k, struct fs_treecheck_missing **out,
			 size_t *n, struct fs_error *err);
void fs_treecheck_missing_free(struct fs_treecheck_missing *m, size_t n);

/* Whether mainline commit FIX changes only files the branch lacks and no
 * patch of the series adds (of the files it changes or deletes: one it
 * adds applies anywhere): 1 with *FILES (NULL-terminated, g_strfreev())
 * and *N, 0 when it changes one the branch has, adds files only (or the
 * trees cannot be read), or FS_ENOMEM. */
int fs_treecheck_fix_files(struct fs_treecheck *tc, fs_cid fix, char ***files, size_t *n,
			   struct fs_error *err);

/* The verdicts on the findings OUT of the patch added K-th (judged by
 * fs_findings_judge(); OUT->upstream set): its symbol-missing findings
 * added, one per missing prerequisite (one per name without one), and
 * each fix-missing whose fix changes only files the branch lacks made a
 * fix-not-applicable naming them.  A new finding IGNORE (may be NULL)
 * names is marked ignored, as fs_findings_judge() marks its own.
 * Returns 0 or FS_ENOMEM. */
int fs_treecheck_judge(struct fs_treecheck *tc, size_t k, struct fs_findings *out,
		       const struct fs_ignore *ignore, struct fs_error *err);

#endif
