/* fixscan: reviewing one stable series.
 *
 * The pipeline every command runs: the source stage (fixscan/source.h:
 * fs_source_load(), fs_review_load()) reads threads and sorts them into
 * series (thread module); fs_review_run()
 * resolves each patch's upstream commits in the fixes index, gathers what
 * people said (mentions module: objections in the thread, regression
 * reports elsewhere) and has the findings module judge each patch.  The
 * report, drafts and digest modules take the result from there.  The
 * commands call it through fs_session_review() (fixscan/session.h).
 *
 * Ownership: a review owns its patches' findings and its strings (GLib's:
 * g_free(), all released by fs_review_free()); the series and the
 * patches are borrowed from the thread, which must outlive it.
 */
#ifndef FIXSCAN_REVIEW_H
#define FIXSCAN_REVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fixscan/archive.h"
#include "fixscan/diffcmp.h"
#include "fixscan/error.h"
#include "fixscan/findings.h"
#include "fixscan/index.h"
#include "fixscan/mail.h"
#include "fixscan/source.h"
#include "fixscan/store.h"
#include "fixscan/thread.h"
#include "fixscan/treesyms.h"

/* The stable branch a series version is reviewed against when the mails
 * do not name one (git config fixscan.<version>.branch). */
struct fs_branch_name {
	const char *version;     /* "4.4" */
	const char *branch;      /* "linux-4.4.y" */
};

struct fs_review_opts {
	const char *branch;      /* --branch: overrides what the mails say */
	const char *base;        /* --base: likewise */
	const struct fs_branch_name *branch_names; /* may be NULL */
	size_t nbranch_names;
	const struct fs_ignore *ignore; /* may be NULL */
	bool no_reports;         /* skip the search for regression reports */
	/* The user's own addresses (notmuch user.primary_email and
	 * user.other_email), NULL-terminated, may be NULL: their mail is
	 * never an objection or a regression report. */
	const char *const *own_addresses;
	/* Stable maintainers' addresses besides the known ones and the
	 * senders of a review's mails (fixscan.stableMaintainer),
	 * NULL-terminated, may be NULL: their conditions on a posting
	 * object to it. */
	const char *const *stable_maintainers;
	/* The committer time of the index's mainline tip
	 * (fs_index_mainline_time()); 0: unknown, no staleness check. */
	int64_t mainline_time;
	/* Reads a commit's message for the findings' stated reasons
	 * (fs_index_read_message with the repository path); may be NULL. */
	int (*message)(void *data, const char *hex, char **out);
	void *message_data;
	/* CVE ids from the kernel CNA (fs_vulns_open() of fixscan.vulns);
	 * NULL: none. */
	const struct fs_vulns *vulns;
	/* The kernel repository opened for diffs (fs_diffcmp_open()): each
	 * patch with one upstream commit and a diff is compared with it
	 * (backport-differs); NULL: no comparison. */
	struct fs_diffcmp *diffcmp;
	/* Where BRANCH came from when the caller chose it (one of
	 * fs_review_branches()); NULL: the user's --branch. */
	const char *branch_source;
	/* The kernel repository opened for the identifiers of trees
	 * (fs_treesyms_open()): each patch's names are checked against the
	 * branch's tree (symbol-missing), each missing fix's files too
	 * (fix-not-applicable); NULL: neither. */
	struct fs_treesyms *treesyms;
	/* The mail archives searched too (fixscan.lore): the client and
	 * its bases, NULL-terminated (fs_listmail_review()); NULL: none
	 * (--no-lore, fixscan.lore none).  A search that fails is left
	 * out, and the client remembers why (fs_archive_failure()). */
	struct fs_archive *archive;
	const char *const *archive_bases;
	/* The threads of the earlier rounds of the same release (-rc2 and
	 * -rc1 while -rc3 is reviewed), the latest first, NULL-terminated,
	 * whose replies that ask something of a patch this round carries
	 * too are read as replies to it (fs_mentions_earlier_thread());
	 * NULL: none. */
	const struct fs_thread_series *const *earlier_rounds;
};
#define FS_REVIEW_OPTS_INIT { .branch = NULL }

struct fs_cross_matrix;
struct fs_round;

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
	/* Replies that speak of the series, not of one patch (a test report
	 * on the cover naming no patch; any reply when the thread's patch
	 * mails are absent).  Empty on a view. */
	struct fs_findings series_findings;
	size_t counts[FS_FIND_KIND_COUNT]; /* findings not ignored, per kind */
	size_t ignored;            /* findings silenced by the ignore file */
	size_t problems;           /* findings that ask for action */
	/* The thread is newer than the mainline of the clone: the newest
	 * Date of its mails (THREAD_TIME) is after the mainline tip's commit
	 * time (opts->mainline_time); unknown ids may just be too new. */
	bool stale_clone;
	int64_t thread_time;
	/* One of several reviews of the series, each for one branch of the
	 * range its subject names (fs_review_branches()): no drafts, which
	 * would answer the same mails once per branch. */
	bool one_of_branches;
	/* private: set on a view made by fs_review_narrow() */
	bool view_;
	struct fs_thread_series *own_series_;
	/* review --all-open: the matrix of every open thread (crossbranch
	 * module), borrowed; NULL otherwise.  The JSON report carries it. */
	const struct fs_cross_matrix *matrix;
	/* An -rcN review (N >= 2) whose earlier round the store has: what
	 * changed since (fixscan/rounds.h), owned; NULL otherwise. */
	struct fs_round *previous;
};

/* The stable branches a series may be for when its subject names a
 * range of kernel series and nothing else names its branch ("[PATCH
 * AUTOSEL 6.18-6.1]": every series from 6.1 to 6.18): for each series
 * of the range, its fixscan.<version>.branch (O's branch names), else
 * linux-<version>.y, when IDX has that branch; oldest first.  Returns
 * their number with *OUT a new NULL-terminated array (g_strfreev()), or
 * 0 with *OUT NULL: no range, O's --branch, a branch the mails name, or
 * none of the range's branches in IDX. */
size_t fs_review_branches(char ***out, const struct fs_thread_series *s,
			  const struct fs_index *idx, const struct fs_review_opts *o);

/* Count R's findings again (counts, ignored, problems) after a stage
 * added, removed or silenced some: patch findings not ignored, and every
 * reply to the series. */
void fs_review_count(struct fs_review *r);

/* Review series S against IDX.  STORE may be NULL (no regression search).
 * Returns 0 with *OUT set (free with fs_review_free()), or FS_ENOTFOUND
 * when the branch cannot be determined or is not in the index, FS_ENOMEM,
 * FS_ESTORE, with ERR set. */
int fs_review_run(struct fs_review **out, const struct fs_thread_series *s,
		  const struct fs_index *idx, struct fs_store *store,
		  const struct fs_review_opts *opts, struct fs_error *err);
void fs_review_free(struct fs_review *r);

/* A view of review R narrowed to its patch K, so that a report and the
 * drafts made from it speak of that patch alone: counts are that patch's,
 * and the series' missing numbers and duplicates are left out.  The view
 * borrows R's findings: free it with fs_review_free() before R.  Returns
 * 0 or FS_ENOMEM. */
int fs_review_narrow(struct fs_review **out, const struct fs_review *r, size_t k,
		     struct fs_error *err);

/* The patch of R whose Message-Id is MESSAGE_ID (NULL: the first), with
 * its position in *K (K may be NULL); NULL when R has none. */
const struct fs_review_patch *fs_review_find_patch(const struct fs_review *r,
						   const char *message_id, size_t *k);

/* The patch of R that F (a pointer into one of R's patches' findings) is
 * a finding of, or NULL: a finding of the series, or none of R's. */
const struct fs_review_patch *fs_review_patch_of(const struct fs_review *r,
						 const struct fs_finding *f);

#endif
