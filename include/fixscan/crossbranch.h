/* fixscan: the open review threads of several stable branches, together.
 *
 * Greg posts the reviews of five or six branches in the same hour, and a
 * patch taken into an older branch must be in every newer maintained one
 * too: a user upgrading would otherwise lose it.  This module takes the
 * reviews of every open thread (each already judged on its own by
 * fs_review_run()) and adds what only the set of them shows:
 *
 * - missing-in-newer findings: the patch's upstream commit is queued for
 *   branch X, but a newer maintained branch Y neither has it (up to Y's
 *   review base, or Y's tip when Y has no open thread; by ancestry or as
 *   a backport with the same upstream id) nor queues it (in Y's open
 *   thread or by an "added to the Y-stable tree" notice).  Y is
 *   maintained when it has an open thread among the reviews, or had a
 *   release within MAINTAINED_WITHIN seconds before the date of the
 *   thread under review (never "now": an old store gives the same
 *   answers next year).  A fix or revert whose targets Y never had is
 *   not missing there;
 * - on fix-missing findings: the other open threads that queue the fix
 *   (queued_elsewhere), and a "FAILED: patch ... failed to apply" notice
 *   for this branch (failed_to_apply);
 * - a fix-missing whose fix an "added to the X-stable tree" notice says
 *   is queued for this very branch becomes fix-queued;
 * - the matrix: one row per upstream commit in more than one thread, or
 *   flagged, one column per branch.
 *
 * Pure: the releases, notices and reviews come in, nothing is read.
 */
#ifndef FIXSCAN_CROSSBRANCH_H
#define FIXSCAN_CROSSBRANCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fixscan/error.h"
#include "fixscan/ignore.h"
#include "fixscan/index.h"
#include "fixscan/review.h"
#include "fixscan/thread.h"

/* One release of a stable branch (its fork release, "v5.15", counts),
 * with the time it was tagged. */
struct fs_cross_release {
	char *branch;    /* "linux-5.15.y" */
	char *name;      /* "v5.15.3" */
	int64_t time;    /* seconds since the epoch */
};

enum fs_notice_kind {
	FS_NOTICE_FAILED, /* FAILED: patch "[PATCH] x" failed to apply to X-stable tree */
	FS_NOTICE_ADDED,  /* Patch "x" has been added to the X-stable tree */
};

/* A notice of the stable maintainers' tooling. */
struct fs_cross_notice {
	enum fs_notice_kind kind;
	char *branch;        /* "linux-6.1.y" from "6.1-stable tree" */
	char upstream[41];   /* the original mainline commit, full id */
	char *message_id;    /* without <> */
	char *date;          /* the Date header, or NULL */
	char *subject;       /* the patch subject the notice names */
};

/* Read a notice from its SUBJECT and BODY: 0 with *OUT filled (free its
 * strings, GLib's, with fs_cross_notice_clear()), or FS_ENOTFOUND when the mail is
 * no such notice or names no full commit id. */
int fs_cross_notice_parse(struct fs_cross_notice *out, const char *subject,
			  const char *body, size_t len);
void fs_cross_notice_clear(struct fs_cross_notice *n);

/* The release list of tag NAME ("v5.15.3", "v5.15"; -rc tags are none):
 * the branch it belongs to in BRANCH (SIZE bytes), or false. */
bool fs_cross_release_branch(const char *name, char *branch, size_t size);

/* Version order of stable branch names: "linux-4.19.y" < "linux-5.4.y"
 * < "linux-5.10.y"; names of no version sort first, by strcmp. */
int fs_cross_branch_cmp(const char *a, const char *b);

/* The deadline of series S in seconds since the epoch, from its
 * X-KernelTest-Deadline header or the cover's "Responses should be made
 * by" line; 0 when it has none that can be read. */
int64_t fs_cross_deadline(const struct fs_thread_series *s);
/* The newest Date of S's cover and patches, or 0. */
int64_t fs_cross_series_time(const struct fs_thread_series *s);
/* Whether S is open at NOW: its deadline has not passed, or it arrived
 * (its newest patch mail) at or after SINCE (0: no --since). */
bool fs_cross_is_open(const struct fs_thread_series *s, int64_t now, int64_t since);

/* Whether REVIEWS[I] is superseded by another review of the same branch:
 * one of a later release ("5.15.3-rc2" over "-rc1") or, of the same
 * release, a later thread.  Reviews without a release (a lone patch)
 * supersede nothing and are never superseded. */
bool fs_cross_superseded(struct fs_review *const *reviews, size_t n, size_t i);

struct fs_cross_opts {
	const struct fs_index *idx;
	const struct fs_cross_release *releases;
	size_t nreleases;
	int64_t maintained_within;   /* seconds; fixscan.maintainedWithin */
	const struct fs_cross_notice *notices;
	size_t nnotices;
	const struct fs_ignore *ignore; /* may be NULL */
};

/* One cell of the matrix. */
enum fs_cross_state {
	FS_CROSS_NONE = 0,   /* not there, and nothing asks for it: "-" */
	FS_CROSS_QUEUED,     /* in the branch's open thread as NN/MM */
	FS_CROSS_ADDED,      /* an "added to the stable tree" notice */
	FS_CROSS_IN,         /* in the branch since RELEASE: the backport's,
			      * or the branch's fork release by ancestry */
	FS_CROSS_MISSING,    /* flagged: missing-in-newer, or a fix-missing */
	FS_CROSS_FAILED,     /* a FAILED notice for the branch */
	FS_CROSS_REVERTED,   /* the branch took it and reverted it */
};

struct fs_cross_cell {
	enum fs_cross_state state;
	int index, total;    /* QUEUED: NN/MM */
	char *release;       /* IN: the release, or NULL (unreleased / tip) */
};

struct fs_cross_row {
	char commit[41];
	char *subject;
	struct fs_cross_cell *cells; /* one per matrix branch */
};

struct fs_cross_matrix {
	char **branches;     /* in version order */
	size_t nbranches;
	struct fs_cross_row *rows;
	size_t nrows;
};
#define FS_CROSS_MATRIX_INIT { .branches = NULL }
void fs_cross_matrix_clear(struct fs_cross_matrix *m);

/* Add the cross-branch findings to every review of REVIEWS (N of them,
 * none superseded) and recount them; fill *MATRIX (may be NULL).
 * Returns 0 or FS_ENOMEM with ERR set. */
int fs_cross_apply(struct fs_review **reviews, size_t n, const struct fs_cross_opts *o,
		   struct fs_cross_matrix *matrix, struct fs_error *err);

/* The matrix as one JSON value ({"branches": [...], "rows": [...]}). */
struct fs_json;
void fs_cross_matrix_json(struct fs_json *j, const struct fs_cross_matrix *m);

/* The matrix as text: a header of branch versions, one line per row,
 * and a legend of the cells. */
int fs_cross_matrix_text(FILE *out, const struct fs_cross_matrix *m);

#endif
