/* fixscan: review --all-open, the part of it that is not printing. */
#ifndef FIXSCAN_CLI_REVIEW_OPEN_H
#define FIXSCAN_CLI_REVIEW_OPEN_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "cli.h"
#include "fixscan/crossbranch.h"

struct cli_open_reviews {
	struct fs_review **v;   /* the open reviews, in branch order */
	size_t n;
	struct fs_cross_matrix matrix;
};

/* The threads of the messages of STORE dated SINCE or later that match
 * BASE (a notmuch query of the user's, such as fixscan.digestQuery) or,
 * when BASE is NULL, are stable patches (a subject with a kernel version
 * or AUTOSEL, replies included), as a query "thread:A OR thread:B ...",
 * or NULL in *OUT when there is none (free()).  The user's own mail (OWN,
 * NULL-terminated, may be NULL; fs_mentions_is_own_mail()) does not
 * count: a day of their drafts makes no old thread new.  Returns 0 or a
 * negative code with ERR set. */
int cli_stable_threads_query(struct fs_store *store, const char *base, time_t since,
			     const char *const *own, char **out, struct fs_error *err);

/* Likewise for the threads that may be open at NOW (mail of the last 30
 * days: a deadline is days after the posting) or arrived since SINCE
 * (0: none). */
int cli_open_query(struct fs_store *store, time_t now, time_t since, char **out,
		   struct fs_error *err);

/* Review the series of THREADS that are open at NOW or arrived since
 * SINCE, leave out those a later review of their branch supersedes, and
 * add the cross-branch findings and the matrix (fixscan.maintainedWithin
 * from C's config).  A series that cannot be reviewed is said on stderr
 * and sets *TROUBLE.  Returns 0 or a negative code with ERR set; clear
 * *O with cli_open_reviews_clear() in either case. */
int cli_open_reviews(struct cli_ctx *c, struct fs_thread **threads, size_t nthreads,
		     time_t now, time_t since, struct cli_open_reviews *o, bool *trouble,
		     struct fs_error *err);
void cli_open_reviews_clear(struct cli_open_reviews *o);

/* Add the cross-branch findings to the reviews V (N of them, none
 * superseded; fs_cross_apply()), with the release tags of C's repository,
 * the notices of C's store and fixscan.maintainedWithin; fill *MATRIX
 * (may be NULL).  Returns 0 or a negative code with ERR set. */
int cli_cross_add(struct cli_ctx *c, struct fs_review **v, size_t n,
		  struct fs_cross_matrix *matrix, struct fs_error *err);

#endif
