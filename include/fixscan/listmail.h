/* fixscan: what the mail archives (lore, public-inbox) know about the
 * patches of a series.
 *
 * The mail store holds what the reviewer subscribes to; lore holds every
 * list.  For the upstream commits of a series this module asks the
 * configured public-inbox bases (fs_archive_search(), a few requests for the
 * whole series) for the mails that name one of them by id in their own
 * text, and reads each as hostile mail into three kinds of record:
 * - a fix: a patch mail of no stable series whose Fixes: tag (or revert
 *   line) names the commit: for fix-pending, as a mail of the store;
 * - a regression report: a mail (no patch) whose own words say the
 *   commit is the culprit: a "#regzbot introduced:" line, a bisection
 *   result, or a sentence saying it caused or introduced the problem;
 * - a backport posted for the series' branch ("[PATCH 6.1.y]", "[PATCH
 *   stable]") of the same commit, after the patch was: for
 *   replacement-posted.
 * The judgement of a report's text is the culprit module's
 * (fs_culprits_find()), the rest reads
 * the answers of the archive module (fixscan/archive.h).
 */
#ifndef FIXSCAN_LISTMAIL_H
#define FIXSCAN_LISTMAIL_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include <glib.h>

#include "fixscan/error.h"
#include "fixscan/index.h"
#include "fixscan/archive.h"
#include "fixscan/culprit.h"
#include "fixscan/mail.h"
#include "fixscan/thread.h"

/* A commit of the series to search for: the upstream commit of a patch
 * and when that patch was posted (its Date; 0: unknown). */
struct fs_listmail_want {
	fs_cid upstream;
	time_t posted;
};

/* What and where to ask. */
struct fs_listmail_ask {
	struct fs_archive *client;
	const char *const *bases;   /* NULL-terminated, each valid */
	const struct fs_index *idx;
	const struct fs_thread_series *series; /* its own mails are left out */
	const char *version;        /* the branch's kernel series ("6.1"), for
				     * backports; NULL: none looked for */
	const char *const *own;     /* the user's addresses, may be NULL */
};

/* A mail blaming an upstream commit of the series. */
struct fs_listmail_report {
	fs_cid upstream;
	const struct fs_patch *mail;
	const char *link;            /* BASE<message-id>/ */
	enum fs_culprit_how how;
	const char *line;            /* what says it */
};

/* A backport of an upstream commit of the series posted for its branch
 * after the series' patch was. */
struct fs_listmail_backport {
	fs_cid upstream;
	const struct fs_patch *mail;
	const char *link;
};

/* What the archives answered for a series.  The records lend the mails
 * and strings the struct owns; start with FS_LISTMAIL_FOUND_INIT, release
 * with fs_listmail_found_clear(). */
struct fs_listmail_found {
	/* Patch mails of no stable series that name an upstream commit of
	 * the series (a Fixes: tag, a revert, or in their words): what
	 * fs_pending_from_mails() reads for fixes, with their links. */
	const struct fs_patch **patches;
	const char **patch_links;
	size_t npatches;
	struct fs_listmail_report *reports; /* by commit (in WANT's order), each
					 * commit's oldest first */
	size_t nreports;
	struct fs_listmail_backport *backports; /* likewise */
	size_t nbackports;
	size_t searches;  /* queries asked (answered from the cache or not) */
	GPtrArray *mails_;   /* struct fs_patch, owned */
	GPtrArray *strings_; /* links and lines, owned */
};
#define FS_LISTMAIL_FOUND_INIT { NULL, NULL, 0, NULL, 0, NULL, 0, 0, NULL, NULL }
void fs_listmail_found_clear(struct fs_listmail_found *f);

/* Ask A's bases about the N commits WANT (FS_CID_NONE ones are skipped,
 * each distinct commit asked once): one query per
 * FS_ARCHIVE_QUERY_MAX bytes of "nq:<12 hex digits>*" terms, so a few for
 * a whole series, each leaving out the stable maintainers' own mails
 * (review patches, AUTOSEL postings, "added to the stable tree" and
 * FAILED notices).  Every answer is read as hostile mail; a mail met in
 * several answers (several bases, several queries) counts once; the
 * series' own mails and the user's are left out.  A search that fails
 * (the base cannot be reached, a hostile answer) is left out: the client
 * remembers it (fs_archive_failure()) for the caller to say once.
 * Returns 0, or FS_ENOMEM with ERR set. */
int fs_listmail_review(struct fs_listmail_found *out, const struct fs_listmail_ask *a,
		   const struct fs_listmail_want *want, size_t n, struct fs_error *err);

/* The query's tail fs_listmail_review() asks with: what it leaves out. */
extern const char fs_listmail_tail[];

/* The link to the mail MESSAGE_ID under BASE (ending in '/'): BASE, the
 * id with every byte but letters, digits and "-._~!$&'()*+,;=:@"
 * percent-escaped, and "/".  New string (g_free()). */
char *fs_listmail_link(const char *base, const char *message_id);

#endif
