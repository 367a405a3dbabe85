/* fixscan: reviewing one stable series.
 *
 * Ties the parts together: the series sorted out by the thread module, the
 * fixes index, the mail store (regression reports outside the thread), the
 * replies inside it (objections), and the findings module, which judges
 * each patch.  The report module prints the result.
 */
#ifndef FIXSCAN_REVIEW_H
#define FIXSCAN_REVIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "fixscan/config.h"
#include "fixscan/error.h"
#include "fixscan/findings.h"
#include "fixscan/index.h"
#include "fixscan/mail.h"
#include "fixscan/store.h"
#include "fixscan/thread.h"

struct fs_review_opts {
	const char *branch;      /* --branch: overrides what the mails say */
	const char *base;        /* --base: likewise */
	struct fs_config *cfg;   /* for fixscan.branch.<version>; may be NULL */
	const struct fs_ignore *ignore; /* may be NULL */
	bool no_reports;         /* skip the search for regression reports */
};
#define FS_REVIEW_OPTS_INIT { NULL, NULL, NULL, NULL, false }

struct fs_review_patch {
	const struct fs_patch *patch; /* borrowed from the series */
	int index;                    /* NN */
	struct fs_findings findings;
};

struct fs_review {
	const struct fs_thread_series *series; /* borrowed */
	char *branch;              /* the stable branch reviewed against */
	const char *branch_source; /* "--branch", "X-KernelTest-Branch", ... */
	char *base;                /* the base release, or NULL for the tip */
	const char *base_source;
	struct fs_review_patch *patches;
	size_t npatches;
	size_t counts[FS_FIND_KIND_COUNT]; /* findings not ignored, per kind */
	size_t ignored;            /* findings silenced by the ignore file */
	size_t problems;           /* findings that ask for action */
};

/* Review series S against IDX.  STORE may be NULL (no regression search).
 * Returns 0 with *OUT set (free with fs_review_free()), or FS_ENOTFOUND
 * when the branch cannot be determined or is not in the index, FS_ENOMEM,
 * FS_ESTORE, with ERR set. */
int fs_review_run(struct fs_review **out, const struct fs_thread_series *s,
		  const struct fs_index *idx, struct fs_store *store,
		  const struct fs_review_opts *opts, struct fs_error *err);
void fs_review_free(struct fs_review *r);

/* The first line of BODY (LEN bytes) outside quoted text that objects to
 * a patch ("please drop", "breaks the build", "needs commit ... as well"),
 * as a new string (free()), or NULL. */
char *fs_review_objection_line(const char *body, size_t len);

#endif
