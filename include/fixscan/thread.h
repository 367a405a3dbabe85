/* fixscan: sorting out a stable review thread.
 *
 * The messages of one mail thread become review series: a cover letter,
 * its patches in NN/MM order, and the other replies.  Two versions of a
 * series posted in one thread (an -rc2 resent under the -rc1) are kept
 * apart by their covers; a patch received twice counts once; numbers
 * missing from 1..MM are listed.  The branch and base release are read
 * from what the mails say (X-KernelTest-* headers, the cover's subject and
 * text), with the source of each recorded.
 *
 * Ownership: a thread owns its series and their strings (GLib's,
 * g_free(), all released by fs_thread_free()).
 */
#ifndef FIXSCAN_THREAD_H
#define FIXSCAN_THREAD_H

#include <stddef.h>

#include "fixscan/error.h"
#include "fixscan/mail.h"

struct fs_thread_series {
	const struct fs_patch *cover;    /* NULL when the series has none */
	const struct fs_patch **patches; /* by NN, each NN once */
	size_t npatches;
	const struct fs_patch **replies; /* everything else in the series */
	size_t nreplies;
	int total;                /* MM (1 for an un-numbered patch), or -1 when
				   * unknown or above FS_THREAD_MAX_TOTAL */
	int *missing;             /* numbers of 1..MM that did not arrive */
	size_t nmissing;
	size_t duplicates;        /* patches received more than once */
	char *version;            /* kernel series from the subjects: "4.4" */
	char *release;            /* the release under review: "4.4.11-rc1", or NULL */
	char *branch;             /* "linux-4.4.y", or NULL */
	const char *branch_source; /* where BRANCH came from, or NULL */
	char *base;               /* the release it applies on: "v4.4.10", or NULL */
	const char *base_source;
	char *deadline;           /* as written, or NULL */
	/* titles[NN] for NN in 1..total: each patch's title as the cover's
	 * shortlog lists it (Greg's "Pseudo-Shortlog of commits:", newest
	 * first, headed by the "Linux X.Y.Z-rcN" commit that is no patch);
	 * a NULL array when the cover has none, its length is not total + 1,
	 * its order is unclear, or a patch mail's title disagrees. */
	char **titles;
};

/* The largest NN/MM total taken from a subject: a series is never this
 * long, and a bigger one (a typo, or a mail made to hurt) is unknown. */
#define FS_THREAD_MAX_TOTAL 2000

struct fs_thread;

/* The number a message has in its series: NN for "[PATCH x NN/MM]", 0
 * for a cover, 1 for an un-numbered patch ("[PATCH 4.4] subject", a
 * series of one), -1 for replies and mails that are not patches. */
int fs_thread_patch_number(const struct fs_patch *p);

/* S's missing numbers for people, consecutive ones as a range:
 * "002/010, 004-007/010"; past MAX_RANGES ranges (0: no limit) the rest
 * is counted, "... (12 more)".  New string (g_free()), "" when none. */
char *fs_thread_missing_text(const struct fs_thread_series *s, size_t max_ranges);

/* Sort out MSGS (N messages of one thread, any order).  The thread takes
 * ownership of every patch in MSGS (not of the array), also on error.
 * Returns 0 or FS_ENOMEM.  A thread with no patch at all gives zero
 * series, which is not an error here. */
int fs_thread_build(struct fs_thread **out, struct fs_patch **msgs, size_t n,
		    struct fs_error *err);
void fs_thread_free(struct fs_thread *t);

size_t fs_thread_count(const struct fs_thread *t);
/* Series I, borrowed until fs_thread_free(). */
const struct fs_thread_series *fs_thread_get(const struct fs_thread *t, size_t i);

/* The number of the announced patch of S that REPLY answers when that
 * patch's mail is absent: the NN of its "Re: [PATCH ... NN/MM]" subject
 * (MM being S's total), when the mail it answers is not one S holds as
 * a patch; 0 otherwise. */
int fs_thread_replied_absent(const struct fs_thread_series *s, const struct fs_patch *reply);

/* The patch of series S that REPLY answers (by In-Reply-To, else the
 * nearest References entry), or NULL. */
const struct fs_patch *fs_thread_replied_patch(const struct fs_thread_series *s,
					       const struct fs_patch *reply);

/* The base release for a release under review: "4.4.11-rc1" gives
 * "v4.4.10", "4.4.1" gives "v4.4".  Returns a new string (g_free()) or NULL
 * when RELEASE is not of that form. */
char *fs_thread_base_of(const char *release);

#endif
