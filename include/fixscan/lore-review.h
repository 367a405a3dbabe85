/* fixscan: what the mail archives (lore, public-inbox) know about the
 * patches of a series.
 *
 * The mail store holds what the reviewer subscribes to; lore holds every
 * list.  For the upstream commits of a series this module asks the
 * configured public-inbox bases (fs_lore_search(), a few requests for the
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
 * The judgement of the text is pure (fs_lore_culprits()), the rest reads
 * the answers of the lore-search module.
 */
#ifndef FIXSCAN_LORE_REVIEW_H
#define FIXSCAN_LORE_REVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include <glib.h>

#include "fixscan/error.h"
#include "fixscan/index.h"
#include "fixscan/lore-search.h"
#include "fixscan/mail.h"
#include "fixscan/thread.h"

/* How a mail names the commit that caused its problem. */
enum fs_culprit_how {
	FS_CULPRIT_REGZBOT,  /* "#regzbot introduced: <id>" (or ^introduced) */
	FS_CULPRIT_BISECTED, /* a bisection's result: "<id> is the first bad
			      * commit", "# first bad commit: [<id>]", a
			      * sentence of bisecting that ends at the id,
			      * KernelCI's "Breaking commit found:" */
	FS_CULPRIT_CAUSED,   /* a sentence saying the commit caused,
			      * introduced or broke something ("after
			      * commit <id> the board hangs", "reverting
			      * <id> fixes it") */
};

struct fs_culprit {
	char id[41];              /* as written, lower case, 12 to 40 hex digits */
	enum fs_culprit_how how;
	char *line;               /* the line or sentence that says it */
};

/* The commits the mail BODY (LEN bytes, decoded) names as the cause of a
 * problem, in the mail's own words only: quoted lines, a carried patch
 * and pasted commits say nothing; ids of fewer than 12 hex digits are
 * not read (a query cannot find them, and too many commits share them);
 * a negated sentence ("not caused by") names none; a "git bisect good"
 * or "bad" line of a bisection log is no result.  Each id once, in the
 * order of the mail, with the first way it is named.  *OUT is a new
 * array (fs_culprits_free()); returns its length. */
size_t fs_lore_culprits(const char *body, size_t len, struct fs_culprit **out);
void fs_culprits_free(struct fs_culprit *v, size_t n);

/* "regzbot", "bisected", "caused" */
const char *fs_culprit_how_name(enum fs_culprit_how how);

/* A commit of the series to search for: the upstream commit of a patch
 * and when that patch was posted (its Date; 0: unknown). */
struct fs_lore_want {
	fs_cid upstream;
	time_t posted;
};

/* What and where to ask. */
struct fs_lore_ask {
	struct fs_lore_client *client;
	const char *const *bases;   /* NULL-terminated, each valid */
	const struct fs_index *idx;
	const struct fs_thread_series *series; /* its own mails are left out */
	const char *version;        /* the branch's kernel series ("6.1"), for
				     * backports; NULL: none looked for */
	const char *const *own;     /* the user's addresses, may be NULL */
};

/* A mail blaming an upstream commit of the series. */
struct fs_lore_report {
	fs_cid upstream;
	const struct fs_patch *mail;
	const char *link;            /* BASE<message-id>/ */
	enum fs_culprit_how how;
	const char *line;            /* what says it */
};

/* A backport of an upstream commit of the series posted for its branch
 * after the series' patch was. */
struct fs_lore_backport {
	fs_cid upstream;
	const struct fs_patch *mail;
	const char *link;
};

/* What the archives answered for a series.  The records lend the mails
 * and strings the struct owns; start with FS_LORE_FOUND_INIT, release
 * with fs_lore_found_clear(). */
struct fs_lore_found {
	/* Patch mails of no stable series that name an upstream commit of
	 * the series (a Fixes: tag, a revert, or in their words): what
	 * fs_pending_from_mails() reads for fixes, with their links. */
	const struct fs_patch **patches;
	const char **patch_links;
	size_t npatches;
	struct fs_lore_report *reports; /* by commit (in WANT's order), each
					 * commit's oldest first */
	size_t nreports;
	struct fs_lore_backport *backports; /* likewise */
	size_t nbackports;
	size_t searches;  /* queries asked (answered from the cache or not) */
	GPtrArray *mails_;   /* struct fs_patch, owned */
	GPtrArray *strings_; /* links and lines, owned */
};
#define FS_LORE_FOUND_INIT { NULL, NULL, 0, NULL, 0, NULL, 0, 0, NULL, NULL }
void fs_lore_found_clear(struct fs_lore_found *f);

/* Ask A's bases about the N commits WANT (FS_CID_NONE ones are skipped,
 * each distinct commit asked once): one query per
 * FS_LORE_QUERY_MAX bytes of "nq:<12 hex digits>*" terms, so a few for
 * a whole series, each leaving out the stable maintainers' own mails
 * (review patches, AUTOSEL postings, "added to the stable tree" and
 * FAILED notices).  Every answer is read as hostile mail; a mail met in
 * several answers (several bases, several queries) counts once; the
 * series' own mails and the user's are left out.  A search that fails
 * (the base cannot be reached, a hostile answer) is left out: the client
 * remembers it (fs_lore_client_failure()) for the caller to say once.
 * Returns 0, or FS_ENOMEM with ERR set. */
int fs_lore_review(struct fs_lore_found *out, const struct fs_lore_ask *a,
		   const struct fs_lore_want *want, size_t n, struct fs_error *err);

/* The query's tail fs_lore_review() asks with: what it leaves out. */
extern const char fs_lore_review_tail[];

/* The link to the mail MESSAGE_ID under BASE (ending in '/'): BASE, the
 * id with every byte but letters, digits and "-._~!$&'()*+,;=:@"
 * percent-escaped, and "/".  New string (g_free()). */
char *fs_lore_link(const char *base, const char *message_id);

#endif
